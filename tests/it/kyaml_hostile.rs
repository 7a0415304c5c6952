//! `-o kyaml` on objects built to trip an encoder, live against the pinned kubectl: the objects
//! are created in the simulator with `kubectl apply`, then kubectl and kw print them, one-shot,
//! as a list, and as watch events, and must agree byte for byte. Keys that read as other types
//! (`yes`, `null`, `0x1F`, `1.5`, a date, `f`), keys needing quotes, multi-line values (leading
//! blanks, tabs, CRLF, trailing and leading newlines), control and invisible characters, a long
//! string, emoji, empty maps and lists, lists of lists, deep nesting and numbers at Go's edges.

use std::process::{Command, Stdio};
use std::time::Duration;

use serde_json::{json, Value};

use crate::harness::{self, run, Cluster};

const LIMIT: Duration = Duration::from_secs(30);

fn hostile_config_map() -> Value {
    json!({
        "apiVersion": "v1",
        "kind": "ConfigMap",
        "metadata": {
            "name": "hostile",
            "namespace": "default",
            "annotations": {
                "example.com/multi": "line one\n  indented\n\ttabbed\n",
                "example.com/quote": "say \"hi\" \\ back",
                "example.com/long": format!("{} tail", "x".repeat(3000)),
            },
            "labels": {"yes": "no", "app": "null"},
        },
        "data": {
            "": "empty key", "yes": "no", "no": "yes", "null": "~", "true": "false",
            "on": "off", "y": "n", "123": "456", "1.5": "2e3", "0x1F": "0o17",
            "1_000": "1:30", "2026-01-01": "2026-13-01", "-lead": "trail-", "a.b/c": "a:b",
            "with space": "tab\there",
            "unicode-é": "ünïcødé 😀 \u{200b} \u{a0} \u{2028} \u{7} \u{1b}[31m red \u{202e}",
            "trailing\n": "\n\nleading newlines", "Infinity": ".inf", "NaN": "nan", "~": "",
            "f": "t", "multi": "a\nb\n\n c\n", "crlf": "a\r\nb", "08": "09",
            "key:colon": "val", "1e400": "99999999999999999999", "_x": "x_",
        },
    })
}

fn deep_widget() -> Value {
    json!({
        "apiVersion": "example.com/v1",
        "kind": "Widget",
        "metadata": {"name": "deep", "namespace": "default"},
        "spec": {
            "color": "blue", "size": 1.5e300, "small": 1e-7, "neg": -0.5,
            "big": 12345678901234567890u64, "int": i64::MIN, "f": 1.0,
            "empty": {}, "emptyList": [], "lists": [[], [1, 2], [{"a": []}], {}],
            "scalars": [true, false, null, "s", 1], "mixed": [{"a": 1}, "x"],
            "nested": {"a": {"b": {"c": {"d": {"e": {"f": {"g": {"h": ["deep", {"i": {"j": "k"}}]}}}}}}}},
            "yes": true, "null": null, "": {"": ""},
        },
    })
}

fn kubectl(cluster: &Cluster, args: &[&str]) -> harness::Outcome {
    let mut cmd = Command::new(harness::kubectl());
    cmd.args(args)
        .arg("--kubeconfig")
        .arg(&cluster.kubeconfig)
        .env_remove("KUBECONFIG")
        .env_remove("KUBERC")
        .env("HOME", cluster.dir.path())
        .stdin(Stdio::null());
    run(cmd, LIMIT)
}

fn kw(cluster: &Cluster, args: &[&str]) -> harness::Outcome {
    let mut cmd = cluster.kw();
    cmd.args(args).arg("--kubeconfig").arg(&cluster.kubeconfig);
    run(cmd, LIMIT)
}

#[test]
fn hostile_objects_print_as_kubectl_prints_them_in_kyaml() {
    let cluster = Cluster::seeded();
    for (name, object) in [("hostile", hostile_config_map()), ("deep", deep_widget())] {
        let file = cluster.dir.path().join(format!("{name}.json"));
        std::fs::write(&file, object.to_string()).expect("manifest written");
        let applied = kubectl(&cluster, &["apply", "-f", file.to_str().expect("utf-8")]);
        assert_eq!(applied.code, Some(0), "{}", applied.stderr);
    }
    let cases: &[&[&str]] = &[
        &["get", "cm", "hostile", "-o", "kyaml"],
        &["get", "wd", "deep", "-o", "kyaml"],
        &["get", "cm,wd", "-o", "kyaml"],
        &[
            "get",
            "cm",
            "hostile",
            "-w",
            "-o",
            "kyaml",
            "--request-timeout=2s",
        ],
        &[
            "get",
            "wd",
            "-w",
            "-o",
            "kyaml",
            "--output-watch-events",
            "--request-timeout=2s",
        ],
    ];
    for args in cases {
        let theirs = kubectl(&cluster, args);
        let ours = kw(&cluster, args);
        assert_eq!(theirs.code, Some(0), "kubectl {args:?}: {}", theirs.stderr);
        assert!(
            theirs.stdout.contains("\"\\\n"),
            "kubectl {args:?} printed no folded string: the case tests nothing"
        );
        assert_eq!(ours.code, Some(0), "kw {args:?}: {}", ours.stderr);
        assert_eq!(ours.stdout, theirs.stdout, "kw {args:?} against kubectl");
    }
}
