//! Output formats and flags end to end, where there is no kubectl golden to compare with: kw's
//! own messages, kw-only flags, and the edges of kubectl-compatible formats.

mod common;

use std::time::Duration;

use common::{run, Cluster};

const LIMIT: Duration = Duration::from_secs(20);

#[test]
fn go_templates_are_refused_with_one_clear_line() {
    let cluster = Cluster::seeded();
    for format in [
        "go-template={{.metadata.name}}",
        "go-template-file=x.tpl",
        "template={{.kind}}",
    ] {
        let outcome = run(&mut cluster.get(&["pods", "-o", format]), LIMIT);
        assert_eq!(outcome.code, Some(1), "{format}: {outcome:?}");
        assert_eq!(outcome.stdout, "");
        let lines: Vec<&str> = outcome.stderr.lines().collect();
        assert_eq!(lines.len(), 1, "{format}: {:?}", outcome.stderr);
        assert!(
            lines[0].contains("does not print Go templates"),
            "{}",
            lines[0]
        );
        assert!(lines[0].contains("jsonpath"), "{}", lines[0]);
    }
}

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
    assert_ne!(outcome.code, Some(0), "{outcome:?}");
    assert_eq!(outcome.stdout, "");
    assert!(
        outcome.stderr.contains("array index out of bounds")
            && outcome.stderr.contains("{.items[99]}"),
        "{}",
        outcome.stderr
    );
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
    use kw::printer::{fallback_row, new_printer, OutputFormat, PrintOptions};
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
            let (columns, cells) = fallback_row(&resource, item, common::frozen_now());
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
                }),
            };
            printer.print(&event, &mut out).expect("print");
        }
        printer.finish(&mut out).expect("finish");
        common::assert_golden(golden, &String::from_utf8(out).expect("utf-8"));
    }
}
