//! The fuzz targets' seeds replayed on stable Rust, without libFuzzer: the tracked seed set
//! (`fuzz/seeds/<target>/`, picked from a campaign's corpus by `fuzz/seeds.sh`) and every input
//! that once broke kw (`fuzz/regressions/<target>/`) go through the same property the fuzzer
//! checked (`fuzz/src/checks.rs`). The campaign's full corpus (`fuzz/corpus/`) is not tracked.

use std::path::Path;

#[path = "../../fuzz/src/checks.rs"]
#[allow(dead_code)]
mod checks;

/// Runs `check` on every file of the target's seeds and regressions; fails naming the input.
fn replay(target: &str, check: fn(&[u8])) {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("fuzz");
    let mut inputs = 0;
    let mut seeds = 0;
    for kind in ["seeds", "regressions"] {
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
            seeds += usize::from(kind == "seeds");
        }
    }
    assert!(inputs > 0, "{target}: no inputs under fuzz/");
    assert!(seeds > 0, "{target}: no seeds in fuzz/seeds/{target}/");
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
