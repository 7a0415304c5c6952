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

/// The proxy_reply oracle fails a message that shows the proxy URL's password, raw or as its
/// `Proxy-Authorization: Basic` value (what a client that printed the URL it was given, or the
/// CONNECT it sent, would write), and passes one a proxy's own reply put there. Replayed with a
/// reply of odd length, a seed goes through the URL with the password.
#[test]
fn the_proxy_reply_oracle_catches_a_password_in_an_error() {
    let leaked = format!(
        "cannot reach the proxy http://{}:{}@127.0.0.1:9: connection refused",
        checks::PROXY_USER,
        checks::PROXY_PASSWORD
    );
    assert!(checks::leaks_proxy_secret(
        &leaked,
        b"HTTP/1.1 502 x\r\n\r\n"
    ));
    let basic = "the proxy answered: Proxy-Authorization: Basic ZnV6enVzZXI6UzNjcmV0LVBXLTdmM2E=";
    assert!(checks::leaks_proxy_secret(basic, b"HTTP/1.1 400 x\r\n\r\n"));
    let echoed = format!("HTTP/1.1 407 {}\r\n\r\n", checks::PROXY_PASSWORD);
    let said = format!(
        "the proxy refused the tunnel: it answered 407 {}",
        checks::PROXY_PASSWORD
    );
    assert!(!checks::leaks_proxy_secret(&said, echoed.as_bytes()));
    let redacted = "cannot reach the proxy http://<redacted>@127.0.0.1:9: connection refused";
    assert!(!checks::leaks_proxy_secret(
        redacted,
        b"HTTP/1.1 502 x\r\n\r\n"
    ));
    checks::proxy_reply(b"HTTP/1.1 407 Proxy Authentication Required\r\n\r\n.");
    checks::proxy_reply(b"HTTP/1.1 200 Connection established\r\n\r\n\x16\x03\x01\x00");
}

/// Inputs for an oracle's proof: `count` byte strings from a fixed linear congruential
/// sequence, each led by `first`.
fn generated(first: u8, count: usize, len: usize) -> Vec<Vec<u8>> {
    let mut state: u64 = 0x2545_f491_4f6c_dd1d;
    (0..count)
        .map(|_| {
            std::iter::once(first)
                .chain((0..len).map(|_| {
                    state = state
                        .wrapping_mul(6_364_136_223_846_793_005)
                        .wrapping_add(1_442_695_040_888_963_407);
                    (state >> 56) as u8
                }))
                .collect()
        })
        .collect()
}

/// The config_text oracle resolves kubeconfigs it built itself, so it knows each context's
/// server and token: kw's resolution passes on 1,000 of them, and a resolution that takes the
/// context's user over `--user`, or its cluster over `--cluster` (a context resolved to another
/// user's or cluster's credentials), fails on some.
#[test]
fn the_config_text_oracle_catches_credentials_of_another_entry() {
    fn ignores_user_flag(
        flags: &kw::config::flags::ConfigFlags,
        config: &kw::config::kubeconfig::Kubeconfig,
    ) -> Result<kw::config::settings::Settings, kw::config::settings::SettingsError> {
        let flags = kw::config::flags::ConfigFlags {
            user: None,
            ..flags.clone()
        };
        kw::config::settings::resolve(&flags, None, config)
    }
    fn ignores_cluster_flag(
        flags: &kw::config::flags::ConfigFlags,
        config: &kw::config::kubeconfig::Kubeconfig,
    ) -> Result<kw::config::settings::Settings, kw::config::settings::SettingsError> {
        let flags = kw::config::flags::ConfigFlags {
            cluster: None,
            ..flags.clone()
        };
        kw::config::settings::resolve(&flags, None, config)
    }
    let inputs = generated(0xF0, 1_000, 40);
    for input in &inputs {
        checks::config_text(input);
    }
    for (bug, resolve) in [
        ("--user ignored", ignores_user_flag as checks::Resolver),
        ("--cluster ignored", ignores_cluster_flag),
    ] {
        let caught = inputs
            .iter()
            .filter(|input| {
                std::panic::catch_unwind(|| checks::kubeconfig_resolution(&input[1..], resolve))
                    .is_err()
            })
            .count();
        assert!(caught > 0, "{bug}: not caught on any input");
    }
}

#[test]
fn rollout_lines_corpus() {
    replay("rollout_lines", checks::rollout_lines);
}

/// The rollout_lines oracle fails a printer that writes kubectl's line as it is (what kw did
/// for kinds without a viewer before issue 45: a name's `\n` forged a line, a Job's OSC 52
/// reached stdout), and one that says a line twice; kw's printer passes every seed.
#[test]
fn the_rollout_lines_oracle_catches_raw_and_repeated_lines() {
    fn input(kind: u8, name: &str, objects: &[serde_json::Value]) -> Vec<u8> {
        let mut data = vec![kind, 0];
        data.extend_from_slice(name.as_bytes());
        data.extend_from_slice(b"\0\0");
        let texts: Vec<String> = objects.iter().map(|o| o.to_string()).collect();
        data.extend_from_slice(texts.join("\0").as_bytes());
        data
    }
    let forged = input(
        3,
        "job\nkw: rollout finished",
        &[serde_json::json!({"status": {"active": 1}})],
    );
    let osc = input(
        3,
        "job",
        &[
            serde_json::json!({"status": {"conditions": [{"type": "Failed", "status": "True",
            "message": "\u{1b}]52;c;aGk=\u{7}"}]}}),
        ],
    );
    let pending = serde_json::json!({"status": {"phase": "Pending"}});
    let twice = input(4, "pod", &[pending.clone(), pending]);
    for data in [&forged, &osc, &twice] {
        checks::rollout_lines(data);
    }
    // Raw: the printer's decision, kubectl's text unescaped.
    let raw = |data: &[u8]| {
        let mut kw = checks::kw_rollout_printer();
        checks::rollout_lines_with(data, &mut |event, judgement, out: &mut Vec<u8>| {
            let mut line = Vec::new();
            kw(event, judgement.clone(), &mut line);
            if !line.is_empty() {
                let label = format!("job.batch/{}", event.name);
                out.extend_from_slice(format!("{label}: {judgement}\n").as_bytes());
            }
        })
    };
    for data in [&forged, &osc] {
        assert!(std::panic::catch_unwind(|| raw(data)).is_err());
    }
    // Repeated: every judgement said, changed or not.
    let repeated = |data: &[u8]| {
        checks::rollout_lines_with(data, &mut |event, judgement, out: &mut Vec<u8>| {
            let label = format!("pod/{}", event.name);
            out.extend_from_slice(format!("{label}: {judgement}\n").as_bytes());
        })
    };
    assert!(std::panic::catch_unwind(|| repeated(&twice)).is_err());
}

#[test]
fn go_quote_corpus() {
    replay("go_quote", checks::go_quote);
}

/// The go_quote oracle (an unquoter written from Go's spec) fails the quoting kw's `rollout
/// status` had before issue 45 (`\x07` for `\a`, U+202E and U+200B raw), one that drops a
/// character, and Rust's `{:?}` (`\u{202e}`); kw's passes.
#[test]
fn the_go_quote_oracle_catches_quoting_unlike_gos() {
    let name = "web\u{7}\u{8}\u{c}\u{b}-\u{202e}evil\u{200b}".as_bytes();
    checks::go_quote(name);
    fn old_kw(bytes: &[u8]) -> String {
        let text = String::from_utf8_lossy(bytes);
        let mut out = String::from("\"");
        for c in text.chars() {
            match c {
                '"' | '\\' => {
                    out.push('\\');
                    out.push(c);
                }
                c if c.is_ascii_control() => out.push_str(&format!("\\x{:02x}", c as u32)),
                c => out.push(c),
            }
        }
        out.push('"');
        out
    }
    fn drops(bytes: &[u8]) -> String {
        let mut quoted = kw::goformat::quote::quote_bytes(bytes);
        quoted.remove(1);
        quoted
    }
    fn rust_debug(bytes: &[u8]) -> String {
        format!("{:?}", String::from_utf8_lossy(bytes))
    }
    for (bug, quote) in [
        ("old kw", old_kw as fn(&[u8]) -> String),
        ("drops a character", drops),
        ("Rust's {:?}", rust_debug),
    ] {
        let failed = std::panic::catch_unwind(|| checks::go_quote_with(name, quote)).is_err();
        assert!(failed, "{bug}: not caught");
    }
}

/// The gotemplate oracle is differential (the template's `%v` against `goformat::fmt`'s): a
/// template path that kept numbers as the server wrote them (`1e21`, `1.0`), where Go prints
/// the float64 (`1e+21`, `1`), fails it; kw's passes.
#[test]
fn the_gotemplate_oracle_catches_numbers_printed_their_own_way() {
    let object = serde_json::json!({"a": 1e21, "b": [1.0, 2.5e-7], "c": {"d": "x"}, "e": null});
    checks::template_differential(&object, &checks::run_template);
    fn numbers_as_text(value: &serde_json::Value) -> serde_json::Value {
        match value {
            serde_json::Value::Number(n) => serde_json::Value::String(n.to_string()),
            serde_json::Value::Array(items) => items.iter().map(numbers_as_text).collect(),
            serde_json::Value::Object(map) => map
                .iter()
                .map(|(k, v)| (k.clone(), numbers_as_text(v)))
                .collect(),
            other => other.clone(),
        }
    }
    let kept_as_text = |template: &str, object: &serde_json::Value| {
        checks::run_template(template, &numbers_as_text(object))
    };
    let failed =
        std::panic::catch_unwind(|| checks::template_differential(&object, &kept_as_text)).is_err();
    assert!(failed, "numbers printed as written: not caught");
}
