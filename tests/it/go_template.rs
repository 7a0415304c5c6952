//! `-o go-template` end to end where no kubectl golden says it (the goldens `gotmpl_*` in
//! tests/golden compare kubectl's bytes): a bad template fails before any request, and a
//! template that fails while watching stops the watch with kubectl's exit code.

use crate::harness;

use std::time::Duration;

use harness::{run, Cluster};

const LIMIT: Duration = Duration::from_secs(20);

#[test]
fn bad_go_templates_fail_before_any_request() {
    let cluster = Cluster::seeded();
    let cases = [
        ("go-template={{.a", "template: output:1: unclosed action"),
        ("template={{nope}}", "function \"nope\" not defined"),
        (
            "go-template=",
            "template format specified but no template given",
        ),
        (
            "go-template-file=/nonexistent/kw.gotmpl",
            "open /nonexistent/kw.gotmpl: no such file or directory",
        ),
    ];
    for (format, message) in cases {
        let before = cluster.sim.requests().len();
        let outcome = run(&mut cluster.get(&["pods", "-o", format]), LIMIT);
        assert_eq!(outcome.code, Some(1), "{format}: {outcome:?}");
        assert_eq!(outcome.stdout, "", "{format}");
        assert_eq!(
            outcome.stderr.lines().count(),
            1,
            "{format}: {}",
            outcome.stderr
        );
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
fn a_template_failing_while_watching_stops_with_exit_1() {
    let cluster = Cluster::seeded();
    let outcome = run(
        &mut cluster.get(&[
            "pods",
            "-w",
            "--request-timeout=10s",
            "-o",
            "go-template={{.metadata.name}} {{.metadata.name.x}}",
        ]),
        LIMIT,
    );
    assert_eq!(outcome.code, Some(1), "{outcome:?}");
    // What the template wrote before failing, then kubectl's debugging dump.
    assert!(
        outcome.stdout.starts_with("api-"),
        "{}",
        &outcome.stdout[..outcome.stdout.len().min(200)]
    );
    assert!(outcome
        .stdout
        .contains("Printing more information for debugging the template:"));
    assert!(
        outcome
            .stderr
            .contains("can't evaluate field x in type interface {}"),
        "{}",
        outcome.stderr
    );
}

#[test]
fn the_template_flag_alone_means_go_template() {
    let cluster = Cluster::seeded();
    let outcome = run(
        &mut cluster.get(&[
            "pod",
            "init-demo",
            "--template={{.kind}}/{{.metadata.name}}",
        ]),
        LIMIT,
    );
    assert_eq!(outcome.code, Some(0), "{outcome:?}");
    assert_eq!(outcome.stdout, "Pod/init-demo");
}
