//! The fuzz targets' corpora replayed on stable Rust, without libFuzzer: every input the fuzzer
//! kept (`fuzz/corpus/<target>/`) and every input that once broke kw (`fuzz/regressions/<target>/`)
//! goes through the same property the fuzzer checked (`fuzz/src/checks.rs`).

use std::path::Path;

#[path = "../../fuzz/src/checks.rs"]
#[allow(dead_code)]
mod checks;

/// Runs `check` on every file of the target's corpus and regressions; fails naming the input.
fn replay(target: &str, check: fn(&[u8])) {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("fuzz");
    let mut inputs = 0;
    for kind in ["corpus", "regressions"] {
        let Ok(dir) = std::fs::read_dir(root.join(kind).join(target)) else {
            continue;
        };
        let mut paths: Vec<_> = dir.map(|entry| entry.unwrap().path()).collect();
        paths.sort();
        for path in paths {
            let data = std::fs::read(&path).unwrap();
            let outcome = std::panic::catch_unwind(|| check(&data));
            assert!(outcome.is_ok(), "{target}: {} fails", path.display());
            inputs += 1;
        }
    }
    assert!(inputs > 0, "{target}: no corpus under fuzz/");
}

#[test]
fn decode_stream_corpus() {
    replay("decode_stream", checks::decode_stream);
}

#[test]
fn json_scan_corpus() {
    replay("json_scan", checks::json_scan);
}

#[test]
fn goformat_corpus() {
    replay("goformat", checks::goformat);
}

#[test]
fn jsonpath_corpus() {
    replay("jsonpath", checks::jsonpath);
}

#[test]
fn escape_corpus() {
    replay("escape", checks::escape);
}

#[test]
fn config_text_corpus() {
    replay("config_text", checks::config_text);
}

#[test]
fn gotemplate_corpus() {
    replay("gotemplate", checks::gotemplate);
}

#[test]
fn table_corpus() {
    replay("table", checks::table);
}

#[test]
fn diff_corpus() {
    replay("diff", checks::diff);
}

#[test]
fn selectors_corpus() {
    replay("selectors", checks::selectors);
}

#[test]
fn exec_credential_corpus() {
    replay("exec_credential", checks::exec_credential);
}

#[test]
fn discovery_corpus() {
    replay("discovery", checks::discovery);
}

#[test]
fn proxy_reply_corpus() {
    replay("proxy_reply", checks::proxy_reply);
}
