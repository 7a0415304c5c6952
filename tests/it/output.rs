//! Output formats and flags end to end, where there is no kubectl golden to compare with: kw's
//! own messages, kw-only flags, and the edges of kubectl-compatible formats.

use crate::harness;

use std::time::Duration;

use harness::{run, Cluster};
use serde_json::json;

const LIMIT: Duration = Duration::from_secs(20);

#[test]
fn bad_templates_are_usage_errors_before_any_request() {
    let cluster = Cluster::seeded();
    let cases = [
        (
            "jsonpath={.items[",
            "error parsing jsonpath {.items[, unterminated array",
        ),
        (
            "custom-columns=NAME",
            "unexpected custom-columns spec: NAME",
        ),
        (
            "jsonpath-file=/nonexistent/kw.tpl",
            "error reading jsonpath-file file /nonexistent/kw.tpl",
        ),
        ("xml", "allowed formats are:"),
    ];
    for (format, message) in cases {
        let before = cluster.sim.requests().len();
        let outcome = run(&mut cluster.get(&["pods", "-o", format]), LIMIT);
        assert_eq!(outcome.code, Some(1), "{format}: {outcome:?}");
        assert!(
            outcome.stderr.contains(message),
            "{format}: {}",
            outcome.stderr
        );
        assert_eq!(
            cluster.sim.requests().len(),
            before,
            "{format} made requests"
        );
    }
}

#[test]
fn template_errors_on_objects_name_the_template() {
    let cluster = Cluster::seeded();
    let outcome = run(
        &mut cluster.get(&["pods", "-o", "jsonpath={.items[99]}"]),
        LIMIT,
    );
    // The template's fault: exit 1, as kubectl's.
    assert_eq!(outcome.code, Some(1), "{outcome:?}");
    assert_eq!(outcome.stdout, "");
    assert!(
        outcome.stderr.contains("array index out of bounds")
            && outcome.stderr.contains("{.items[99]}"),
        "{}",
        outcome.stderr
    );
}

/// `--allow-missing-template-keys=false`, as kubectl's: a key the object lacks fails a jsonpath
/// or go-template (exit 1) instead of printing nothing; custom columns still print `<none>`.
#[test]
fn missing_template_keys_can_be_refused() {
    let cluster = Cluster::seeded();
    let refused = "--allow-missing-template-keys=false";
    for (format, said) in [
        ("jsonpath={.metadata.nosuch}", "nosuch is not found"),
        (
            "go-template={{.metadata.nosuch}}",
            "map has no entry for key \"nosuch\"",
        ),
    ] {
        let allowed = run(&mut cluster.get(&["pod", "init-demo", "-o", format]), LIMIT);
        assert_eq!(allowed.code, Some(0), "{format}: {}", allowed.stderr);
        let outcome = run(
            &mut cluster.get(&["pod", "init-demo", "-o", format, refused]),
            LIMIT,
        );
        assert_eq!(outcome.code, Some(1), "{format}: {}", outcome.stderr);
        assert!(
            outcome.stderr.contains(said),
            "{format}: {}",
            outcome.stderr
        );
    }
    let outcome = run(
        &mut cluster.get(&[
            "pod",
            "init-demo",
            "-o",
            "custom-columns=X:.metadata.nosuch",
            refused,
        ]),
        LIMIT,
    );
    assert_eq!(outcome.stdout, "X\n<none>\n", "{}", outcome.stderr);
}

#[test]
fn empty_lists_in_list_formats_say_nothing_on_stderr() {
    let cluster = Cluster::seeded();
    for format in [
        "yaml",
        "json",
        "jsonpath={.items}",
        "custom-columns=N:.metadata.name",
    ] {
        let outcome = run(
            &mut cluster.get(&["pods", "-n", "nothing-here", "-o", format]),
            LIMIT,
        );
        assert_eq!(outcome.code, Some(0), "{format}: {outcome:?}");
        assert_eq!(outcome.stderr, "", "{format}");
        assert!(!outcome.stdout.is_empty(), "{format}");
    }
}

/// The fallback table (for servers that cannot print tables) against kubectl's own tables of
/// the same objects: kw lists them as JSON from the simulator, builds each row with
/// `fallback_row`, lays it out with the table printer, and compares with the golden file.
#[test]
fn fallback_table_matches_kubectl_for_core_kinds() {
    use kw::events::{Event, Origin, ResourceInfo, TableRow};
    use kw::output::printer::{fallback_row, new_printer, OutputFormat, PrintOptions};
    use kw::wire::EventType;
    use serde_json::value::RawValue;

    let cluster = Cluster::seeded();
    let cases = [
        ("pods", "Pod", "", &["-A"][..], true, "pods_all.out"),
        ("nodes", "Node", "", &[][..], false, "nodes.out"),
        ("services", "Service", "", &["-A"][..], true, "services.out"),
        (
            "namespaces",
            "Namespace",
            "",
            &[][..],
            false,
            "namespaces.out",
        ),
        (
            "configmaps",
            "ConfigMap",
            "",
            &["-n", "kube-system"][..],
            false,
            "configmaps.out",
        ),
        ("secrets", "Secret", "", &[][..], false, "secrets.out"),
        (
            "replicasets",
            "ReplicaSet",
            "apps",
            &["-n", "team-a"][..],
            false,
            "rs.out",
        ),
    ];
    for (plural, kind, group, extra, all_namespaces, golden) in cases {
        let mut args = vec![plural, "-o", "json"];
        args.extend_from_slice(extra);
        let outcome = run(&mut cluster.get(&args), LIMIT);
        assert_eq!(outcome.code, Some(0), "{plural}: {outcome:?}");
        let list: serde_json::Value = serde_json::from_str(&outcome.stdout).expect("json");
        let resource = ResourceInfo {
            plural: plural.into(),
            singular: kind.to_lowercase(),
            kind: kind.into(),
            group: group.into(),
            version: "v1".into(),
            namespaced: true,
        };
        let options = PrintOptions {
            format: OutputFormat::Table,
            all_namespaces,
            ..PrintOptions::default()
        };
        let mut printer = new_printer(&options);
        let mut out = Vec::new();
        for item in list["items"].as_array().expect("items") {
            let (columns, cells) = fallback_row(&resource, item, harness::frozen_now());
            let raw = RawValue::from_string(item.to_string()).expect("raw");
            let event = Event {
                kind: EventType::Added,
                origin: Origin::List,
                resource: &resource,
                object: &raw,
                object_lacks_type: false,
                name: item["metadata"]["name"].as_str().unwrap_or_default(),
                namespace: item["metadata"]["namespace"].as_str().unwrap_or_default(),
                row: Some(TableRow {
                    columns: &columns,
                    cells: &cells,
                    generation: 0,
                }),
                context: None,
                judged: None,
            };
            printer.print(&event, &mut out).expect("print");
        }
        printer
            .finish(&Default::default(), &mut out)
            .expect("finish");
        harness::assert_golden(golden, &String::from_utf8(out).expect("utf-8"));
    }
}

// --- kw-only flags, against a watch that sees the golden scenario (a pod created, started,
// deleted) ---

/// Wait until a watch request beyond the first `before` ones has reached the simulator.
fn wait_for_watch(cluster: &Cluster, before: usize) {
    harness::wait_for("kw to watch", Duration::from_secs(10), || {
        watches(cluster) > before
    });
}

fn watches(cluster: &Cluster) -> usize {
    cluster
        .sim
        .requests()
        .iter()
        .filter(|r| r.path.contains("watch="))
        .count()
}

/// Run `kw get ARGS` (with a 4 s request timeout) while `ops` are applied; all stdout lines.
fn watch_while(
    cluster: &Cluster,
    cmd: &mut std::process::Command,
    ops: &[serde_json::Value],
) -> Vec<String> {
    cmd.arg("--request-timeout=4s");
    let before = watches(cluster);
    let live = harness::Live::spawn(cmd);
    wait_for_watch(cluster, before);
    for op in ops {
        harness::apply_scenario_op(cluster, op);
    }
    let (code, lines, stderr) = live.finish(LIMIT);
    assert_eq!(code, Some(0), "{stderr}");
    lines
}

fn pods_in_default(cluster: &Cluster) -> usize {
    cluster
        .sim
        .objects("pods")
        .iter()
        .filter(|p| p["metadata"]["namespace"] == "default")
        .count()
}

#[test]
fn timestamps_add_a_time_column_and_a_ts_field() {
    let cluster = Cluster::seeded();
    let ops = harness::scenario_ops();
    let lines = watch_while(
        &cluster,
        &mut cluster.get(&["pods", "-w", "--timestamps"]),
        &ops[..1],
    );
    // The loops below decide only over lines that arrived: the header, the seven pods of
    // `default` and the scenario's first change.
    assert!(lines.len() > 8, "{lines:#?}");
    assert!(lines[0].starts_with("TIME "), "{lines:#?}");
    for line in &lines[1..] {
        let stamp = line.split_whitespace().next().unwrap_or_default();
        assert!(humantime::parse_rfc3339(stamp).is_ok(), "{line}");
    }
    let lines = watch_while(
        &cluster,
        &mut cluster.get(&[
            "pods",
            "-w",
            "-o",
            "jsonl",
            "--output-watch-events",
            "--timestamps=relative",
        ]),
        &[],
    );
    assert_eq!(lines.len(), pods_in_default(&cluster), "{lines:#?}");
    for line in lines {
        let event: serde_json::Value = serde_json::from_str(&line).expect("json line");
        let ts = event["ts"].as_str().expect("ts");
        assert!(ts.starts_with('+') && ts.ends_with('s'), "{ts}");
        assert_eq!(event["type"], "ADDED");
    }
    // `local`: a short clock in a table, the full form with its offset in JSON lines.
    let lines = watch_while(
        &cluster,
        &mut cluster.get(&["pods", "-w", "--timestamps=local"]),
        &[],
    );
    assert_eq!(lines.len(), 1 + pods_in_default(&cluster), "{lines:#?}");
    assert!(lines[0].starts_with("TIME "), "{lines:#?}");
    for line in &lines[1..] {
        let stamp = line.split_whitespace().next().unwrap_or_default();
        let shape: String = stamp
            .chars()
            .map(|c| if c.is_ascii_digit() { '9' } else { c })
            .collect();
        assert_eq!(shape, "99:99:99.999", "{line}");
    }
    let lines = watch_while(
        &cluster,
        &mut cluster.get(&[
            "pods",
            "-w",
            "-o",
            "jsonl",
            "--output-watch-events",
            "--timestamps=local",
        ]),
        &[],
    );
    assert_eq!(lines.len(), pods_in_default(&cluster), "{lines:#?}");
    for line in lines {
        let event: serde_json::Value = serde_json::from_str(&line).expect("json line");
        let ts = event["ts"].as_str().expect("ts");
        assert!(ts.len() > 20 && ts.as_bytes()[10] == b'T', "{ts}");
    }
}

#[test]
fn only_keeps_the_chosen_event_types() {
    let cluster = Cluster::seeded();
    let lines = watch_while(
        &cluster,
        &mut cluster.get(&[
            "pods",
            "-w",
            "--output-watch-events",
            "--only",
            "deleted,modified",
            "--no-headers",
        ]),
        &harness::scenario_ops(),
    );
    let kinds: Vec<&str> = lines
        .iter()
        .filter_map(|l| l.split_whitespace().next())
        .collect();
    assert_eq!(kinds, ["MODIFIED", "MODIFIED", "DELETED"], "{lines:#?}");
    let outcome = run(&mut cluster.get(&["pods", "--only", "renamed"]), LIMIT);
    assert_eq!(outcome.code, Some(1));
    assert!(
        outcome
            .stderr
            .contains("--only takes added, modified or deleted"),
        "{}",
        outcome.stderr
    );
}

#[test]
fn ignore_unchanged_drops_modifications_nobody_can_see() {
    let cluster = Cluster::seeded();
    let ops = harness::scenario_ops();
    // An annotation is not in the row: the same row again.
    let mut invisible = ops[1].clone();
    invisible["object"]["metadata"]["annotations"] = serde_json::json!({"touched": "yes"});
    let sequence = [ops[0].clone(), ops[1].clone(), invisible, ops[2].clone()];
    let lines = watch_while(
        &cluster,
        &mut cluster.get(&[
            "pods",
            "-w",
            "--output-watch-events",
            "--ignore-unchanged",
            "--watch-only",
        ]),
        &sequence,
    );
    let rows: Vec<String> = lines[1..]
        .iter()
        .map(|l| l.split_whitespace().take(4).collect::<Vec<_>>().join(" "))
        .collect();
    assert_eq!(
        rows,
        [
            "ADDED watch-demo 0/1 ContainerCreating",
            "MODIFIED watch-demo 1/1 Running",
            "MODIFIED watch-demo 1/1 Terminating"
        ],
        "{lines:#?}"
    );
}

#[test]
fn diff_shows_changed_fields_under_rows_and_as_json_patch() {
    let cluster = Cluster::seeded();
    let ops = harness::scenario_ops();
    let lines = watch_while(
        &cluster,
        &mut cluster.get(&["pods", "-w", "--diff", "--watch-only"]),
        &ops[..2],
    );
    let text = lines.join("\n");
    assert!(
        text.contains("    status.phase: Pending → Running"),
        "{text}"
    );
    assert!(
        text.contains("    status.podIP: (none) → 10.244.1.77"),
        "{text}"
    );
    assert!(!text.contains("resourceVersion"), "{text}");
    // Bookkeeping is left out, and conditions read as words.
    for noise in ["lastTransitionTime", "containerID", "imageID", "conditions"] {
        assert!(!text.contains(noise), "{noise}: {text}");
    }
    assert!(text.contains("\n    Ready: (none) → True\n"), "{text}");
    assert!(
        text.contains("status.containerStatuses[app].ready: false → true"),
        "{text}"
    );
    let modified_at = lines
        .iter()
        .position(|l| l.contains("Running"))
        .expect("modified row");
    assert!(lines[modified_at + 1].starts_with("    "), "{text}");

    // `--diff=all`: everything, bookkeeping included.
    let fresh = Cluster::seeded();
    let lines = watch_while(
        &fresh,
        &mut fresh.get(&["pods", "-w", "--diff=all", "--watch-only"]),
        &ops[..2],
    );
    let all = lines.join("\n");
    for field in [
        "    metadata.resourceVersion: ",
        "    status.conditions[Ready].lastTransitionTime: ",
        "    status.conditions[Ready].status: (none) → True",
        "    status.containerStatuses[app].containerID: (none) → ",
    ] {
        assert!(all.contains(field), "{field}: {all}");
    }
    assert!(all.lines().count() > text.lines().count() + 5, "{all}");

    // On a terminal: dimmed, and no diff line wider than the terminal.
    let fresh = Cluster::seeded();
    let lines = watch_while(
        &fresh,
        fresh
            .get(&["pods", "-w", "--diff", "--watch-only"])
            .env("KW_FORCE_TERMINAL", "1")
            .env("COLUMNS", "40")
            .env("CLICOLOR_FORCE", "1")
            .env_remove("NO_COLOR"),
        &ops[..2],
    );
    let diff_lines: Vec<&String> = lines.iter().filter(|l| l.starts_with("    ")).collect();
    assert!(diff_lines.len() >= 5, "{lines:#?}");
    for line in diff_lines {
        let visible = line.strip_prefix("    \x1b[2m").expect("dimmed");
        let visible = visible.strip_suffix("\x1b[0m").expect("dim ends");
        assert!(!visible.contains('\x1b'), "{line:?}");
        assert!(visible.chars().count() + 4 <= 40, "{line:?}");
    }

    let lines = watch_while(
        &cluster,
        &mut cluster.get(&[
            "pods",
            "-w",
            "--diff",
            "-o",
            "jsonl",
            "--output-watch-events",
        ]),
        &ops[2..3],
    );
    let modified: serde_json::Value =
        serde_json::from_str(lines.last().expect("a line")).expect("json");
    assert_eq!(modified["type"], "MODIFIED");
    let ops = modified["diff"].as_array().expect("diff");
    assert!(
        ops.iter()
            .any(|op| op["op"] == "add" && op["path"] == "/metadata/deletionTimestamp"),
        "{ops:?}"
    );

    // JSON keeps the complete patch: what the table leaves out is there.
    let cluster = Cluster::seeded();
    let scenario = harness::scenario_ops();
    let lines = watch_while(
        &cluster,
        &mut cluster.get(&[
            "pods",
            "-w",
            "--diff",
            "-o",
            "jsonl",
            "--output-watch-events",
            "--watch-only",
        ]),
        &scenario[..2],
    );
    let modified: serde_json::Value =
        serde_json::from_str(lines.last().expect("a line")).expect("json");
    let paths: Vec<&str> = modified["diff"]
        .as_array()
        .expect("diff")
        .iter()
        .filter_map(|op| op["path"].as_str())
        .collect();
    for wanted in [
        "/status/conditions",
        "/status/containerStatuses/0/containerID",
        "/status/phase",
    ] {
        assert!(paths.contains(&wanted), "{wanted}: {paths:?}");
    }
}

#[test]
fn colour_only_in_a_terminal_or_when_forced() {
    let cluster = Cluster::seeded();
    let plain = run(cluster.get(&["pods"]).env_remove("NO_COLOR"), LIMIT);
    assert!(!plain.stdout.contains('\x1b'), "{}", plain.stdout);
    let forced = run(
        cluster
            .get(&["pods"])
            .env_remove("NO_COLOR")
            .env("CLICOLOR_FORCE", "1"),
        LIMIT,
    );
    assert!(
        forced.stdout.contains("\x1b[1mNAME\x1b[0m"),
        "{}",
        forced.stdout
    );
    assert!(
        forced.stdout.contains("\x1b[32mRunning\x1b[0m"),
        "{}",
        forced.stdout
    );
    // Widths leave the escape codes out: the visible text lines up as without colour.
    let strip = |s: &str| {
        s.replace("\x1b[1m", "")
            .replace("\x1b[32m", "")
            .replace("\x1b[0m", "")
    };
    assert_eq!(strip(&forced.stdout), plain.stdout);
    let no_color = run(
        cluster
            .get(&["pods"])
            .env("CLICOLOR_FORCE", "1")
            .env("NO_COLOR", "1"),
        LIMIT,
    );
    assert!(!no_color.stdout.contains('\x1b'));
    let terminal = run(
        cluster
            .get(&["pods"])
            .env_remove("NO_COLOR")
            .env("KW_FORCE_TERMINAL", "1"),
        LIMIT,
    );
    assert!(terminal.stdout.contains('\x1b'));
    let never = run(
        cluster
            .get(&["pods", "--color=never"])
            .env("KW_FORCE_TERMINAL", "1")
            .env_remove("NO_COLOR"),
        LIMIT,
    );
    assert!(!never.stdout.contains('\x1b'));
}

#[test]
fn terminal_columns_stay_aligned_by_reprinting_the_header() {
    let cluster = Cluster::seeded();
    let ops = harness::scenario_ops();
    let mut long = ops[0].clone();
    long["object"]["metadata"]["name"] = "a-pod-with-a-much-longer-name-than-the-rest".into();
    long["object"]["metadata"]["uid"] = "6d2c3a4e-0f1b-4c6d-9e8f-7a6b5c4d3e2f".into();
    let mut cmd = cluster.get(&["pods", "-w"]);
    cmd.env("KW_FORCE_TERMINAL", "1");
    let lines = watch_while(&cluster, &mut cmd, &[ops[0].clone(), ops[1].clone(), long]);
    let headers: Vec<usize> = (0..lines.len())
        .filter(|&i| lines[i].starts_with("NAME"))
        .collect();
    assert_eq!(headers.len(), 2, "{lines:#?}");
    // ContainerCreating → Running fit the reserved STATUS width: no header for them.
    let second = headers[1];
    assert!(
        lines[second + 1].starts_with("a-pod-with-a-much-longer-name"),
        "{lines:#?}"
    );
    let column = |line: &str, word: &str| line.find(word).expect(word);
    assert_eq!(
        column(&lines[second], "READY"),
        column(&lines[second + 1], "0/1"),
        "{lines:#?}"
    );
    // Every row of the first block lines up with the first header.
    let ready = column(&lines[0], "READY");
    for row in &lines[1..second] {
        assert_eq!(row.find('/').map(|i| i - 1), Some(ready), "{lines:#?}");
    }
}

/// A custom resource can put anything in a printer column: 100,000 tabs in one cell make
/// 100,000 columns, which kw lays out (as kubectl does) without exhausting its stack.
#[test]
fn a_cell_of_a_hundred_thousand_tabs_prints() {
    let cluster = Cluster::seeded();
    let tabs = "\t".repeat(100_000);
    cluster
        .sim
        .create(
            "widgets",
            json!({
                "apiVersion": "example.com/v1",
                "kind": "Widget",
                "metadata": {"name": "tabby", "namespace": "default"},
                "spec": {"color": format!("red{tabs}blue"), "size": 1},
            }),
        )
        .unwrap();
    let out = run(&mut cluster.get(&["widgets", "tabby"]), LIMIT);
    assert_eq!(out.code, Some(0), "{}", out.stderr);
    let row = out.stdout.lines().nth(1).expect("a row");
    assert!(
        row.starts_with("tabby") && row.contains("red"),
        "{}",
        &row[..40]
    );
    assert!(row.contains("blue"), "the cell after the tabs is printed");
}

/// Custom resources may nest far deeper than serde_json's default limit of 128 levels (the API
/// server accepts up to 10,000): such an object prints in every format, and a condition can
/// still look into it (issue #11, item 7).
#[test]
fn an_object_nested_a_thousand_levels_deep_prints_in_every_format() {
    const LEVELS: usize = 1000;
    let cluster = Cluster::seeded();
    let mut deep = json!({"leaf": "bottom"});
    for _ in 0..LEVELS {
        deep = json!({ "n": deep });
    }
    cluster
        .sim
        .create(
            "widgets",
            json!({
                "apiVersion": "example.com/v1",
                "kind": "Widget",
                "metadata": {"name": "deep", "namespace": "default"},
                "spec": {"color": "red", "size": 1, "deep": deep},
                "status": {"phase": "Ready"},
            }),
        )
        .unwrap();
    for format in ["jsonl", "json", "yaml", "name", "wide"] {
        for watch in [false, true] {
            let mut args = vec!["widgets", "deep", "-o", format];
            if watch {
                args.extend(["-w", "--request-timeout", "1s"]);
            }
            let out = run(&mut cluster.get(&args), LIMIT);
            assert_eq!(out.code, Some(0), "{args:?}: {}", out.stderr);
            assert!(out.stdout.contains("deep"), "{args:?}: {}", &out.stdout);
            if format.starts_with("json") || format == "yaml" {
                assert!(
                    out.stdout.contains("bottom"),
                    "{args:?}: the leaf is printed"
                );
            }
        }
    }
    let mut path = String::from("{.spec.deep");
    for _ in 0..LEVELS {
        path.push_str(".n");
    }
    path.push_str(".leaf}");
    let until = format!("jsonpath={path}=bottom");
    let out = run(
        &mut cluster.get(&[
            "widgets",
            "deep",
            "--until",
            &until,
            "--timeout",
            "10s",
            "-o",
            "name",
        ]),
        LIMIT,
    );
    assert_eq!(out.code, Some(0), "{}", out.stderr);

    // `--diff` walks it too: the leaf that changed, a thousand levels down, in both forms.
    let widget = |leaf: &str| {
        let mut deep = json!({ "leaf": leaf });
        for _ in 0..LEVELS {
            deep = json!({ "n": deep });
        }
        json!({
            "apiVersion": "example.com/v1",
            "kind": "Widget",
            "metadata": {"name": "deep", "namespace": "default"},
            "spec": {"color": "red", "size": 1, "deep": deep},
            "status": {"phase": "Ready"},
        })
    };
    for (format, old, new) in [("wide", "bottom", "top"), ("jsonl", "top", "middle")] {
        let before = watches(&cluster);
        let live = harness::Live::spawn(&mut cluster.get(&[
            "widgets",
            "deep",
            "-w",
            "--diff",
            "--output-watch-events",
            "-o",
            format,
        ]));
        wait_for_watch(&cluster, before);
        cluster.sim.update("widgets", widget(new)).unwrap();
        let lines = live.lines_until(LIMIT, |line| line.contains(new));
        let last = lines.last().expect("a line");
        if format == "wide" {
            assert!(last.starts_with("    spec.deep.n.n.n."), "{last}");
            assert!(last.ends_with(&format!(".leaf: {old} → {new}")), "{last}");
        } else {
            assert!(last.contains(r#""op":"replace""#), "{last}");
            assert!(
                last.contains(&format!(r#"/n/leaf","value":"{new}"}}"#)),
                "{last}"
            );
        }
        let stderr = live.stop();
        assert!(!stderr.contains("overflow"), "{stderr}");
    }
}
