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

/// The escape oracle is differential: an escaper that drops a control instead of showing it
/// (what the old oracle let through) differs from the reference; kw's matches it on every
/// control there is.
#[test]
fn the_escape_oracle_catches_an_escaper_that_drops_controls() {
    let every_control: String = (0u32..0x20)
        .chain([0x7f])
        .chain(0x80..0xa0)
        .filter_map(char::from_u32)
        .collect();
    let dropped: String = every_control
        .chars()
        .filter(|c| matches!(c, '\t' | '\n'))
        .collect();
    assert_ne!(checks::reference_escape(&every_control, false), dropped);
    checks::escape(every_control.as_bytes());
    checks::escape("a\u{1b}]52;c;aGk=\u{7}b\u{9b}31m".as_bytes());
}

/// The goformat oracle runs where kw does, on its object threads' stack, at the API server's
/// 10,000 levels (the old oracle passed a depth on the fuzzer's 8 MiB main thread that aborted
/// kw's 2 MiB watch threads).
#[test]
fn the_goformat_oracle_runs_deep_objects_on_kws_stack() {
    let deep = format!("{}{}", "[".repeat(10_000), "]".repeat(10_000));
    checks::goformat(deep.as_bytes());
    let map = format!("{}1{}", "{\"a\":".repeat(9_999), "}".repeat(9_999));
    checks::goformat(map.as_bytes());
}

/// The selectors oracle reads the field selector as the API server does: a name holding `,` or
/// `=` must stay one term (kw escapes it as client-go's `fields.EscapeValue`), which the old
/// oracle, building the selector as kw did, could not see.
#[test]
fn the_selectors_oracle_reads_a_name_as_the_server_does() {
    for name in [
        "web,metadata.namespace=kube-system",
        "a\\,b",
        "x=y",
        "plain",
    ] {
        let data = format!("\0app=web\0status.phase=Running\0{name}\0default\0");
        checks::selectors(data.as_bytes());
        let data = format!("\0\0\0{name}\0default\0");
        checks::selectors(data.as_bytes());
    }
}
