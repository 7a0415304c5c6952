//! `-o go-template` end to end where no kubectl golden says it (the goldens `gotmpl_*` in
//! tests/golden compare kubectl's bytes): a bad template fails before any request, and a
//! template that fails while watching stops the watch with kubectl's exit code.

use crate::harness;

use std::time::{Duration, Instant};

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

/// `$` and variables refer to the object, never copy it (issue #45, item 5): a template that
/// reads `len $.items` at each of 3,000 Pods prints what kubectl prints, where each `$.items`
/// used to copy the whole list (1,000 Pods took 70 s in a debug build, 3,000 would take about
/// ten minutes, past the limit this run is given; now under 3 s).
#[test]
fn a_template_reading_the_whole_list_per_item_is_linear() {
    let cluster = Cluster::start(kw_sim::SimConfig {
        empty: true,
        flood: Some(kw_sim::Flood {
            list_items: 3_000,
            ..kw_sim::Flood::default()
        }),
        ..kw_sim::SimConfig::default()
    });
    let template = r#"go-template={{range $i,$p := .items}}{{$i}} {{$p.metadata.name}} of {{len $.items}} {{len $p.metadata}}{{"\n"}}{{end}}"#;
    let ours = run(
        &mut cluster.get(&["pods", "-o", template]),
        Duration::from_secs(60),
    );
    assert_eq!(ours.code, Some(0), "{}", ours.stderr);
    let mut kubectl = crate::harness::tools::command(harness::tools::kubectl());
    kubectl
        .env("HOME", cluster.dir.path())
        .args(["get", "pods", "-o", template, "--kubeconfig"])
        .arg(&cluster.kubeconfig);
    let theirs = run(kubectl, Duration::from_secs(60));
    assert_eq!(theirs.code, Some(0), "{}", theirs.stderr);
    assert_eq!(ours.stdout.lines().count(), 3_000);
    assert!(
        ours.stdout.ends_with(" of 3000 7\n"),
        "{}",
        &ours.stdout[ours.stdout.len() - 60..]
    );
    assert!(ours.stdout == theirs.stdout, "kw and kubectl differ");
}

/// A template run stops at `--timeout` (issue #45): four nested ranges over 200 Pods are 1.6
/// billion steps, thirteen over a Pod's five top-level fields 1.2 billion, which used to run
/// until the cap on range iterations ended them as the template's fault (exit 1, seconds to
/// minutes later). Now the run stops at its first step past the deadline, under `get`, `get -w`
/// and `wait` alike: exit 3, one line naming `--timeout`, and no cut output on stdout.
/// How long after start a `--timeout=1s` run must have ended.
const STOPPED_NEAR_THE_DEADLINE: Duration = Duration::from_secs(20);

#[test]
fn a_template_run_stops_at_the_timeout() {
    let cluster = Cluster::start(kw_sim::SimConfig {
        empty: true,
        flood: Some(kw_sim::Flood {
            list_items: 200,
            ..kw_sim::Flood::default()
        }),
        ..kw_sim::SimConfig::default()
    });
    let over_the_list = "go-template={{range .items}}{{range $.items}}{{range $.items}}{{range $.items}}x{{end}}{{end}}{{end}}{{end}}";
    let over_each_pod = format!(
        "go-template={}x{}",
        "{{range $}}".repeat(13),
        "{{end}}".repeat(13)
    );
    for verb in [
        vec!["get", "pods", "--timeout=1s", "-o", over_the_list],
        vec!["get", "pods", "-w", "--timeout=1s", "-o", &over_each_pod],
        vec![
            "wait",
            "pods",
            "--all",
            "--for=create",
            "--timeout=1s",
            "-o",
            &over_each_pod,
        ],
    ] {
        let mut command = cluster.kw();
        command
            .args(&verb)
            .arg("--kubeconfig")
            .arg(&cluster.kubeconfig);
        let started = Instant::now();
        let outcome = run(command, Duration::from_secs(60));
        let took = started.elapsed();
        assert_eq!(outcome.code, Some(3), "{verb:?}: {outcome:?}");
        // The deadline, not some later cap, ended it: a kw that stopped a while after the second
        // ran out would still exit 3 with these words. 20 s leaves a slow machine its margin and
        // stays far under the 60 s the harness allows.
        assert!(
            took < STOPPED_NEAR_THE_DEADLINE,
            "{verb:?}: --timeout=1s ended after {took:?}"
        );
        assert_eq!(outcome.stdout, "", "{verb:?}");
        assert_eq!(
            outcome.stderr,
            "error: --timeout ran out while the go-template ran; it was stopped and its output for that object is not printed\n",
            "{verb:?}"
        );
    }
}

/// A fleet's watch of one type runs in turns (it parks while silent, issue 47), and its
/// template stops at `--timeout` too: each context says so, kw exits 3 at the deadline.
#[test]
fn a_template_run_in_a_fleet_stops_at_the_timeout() {
    let cluster = Cluster::start(kw_sim::SimConfig {
        empty: true,
        flood: Some(kw_sim::Flood {
            list_items: 20,
            ..kw_sim::Flood::default()
        }),
        ..kw_sim::SimConfig::default()
    });
    let over_each_pod = format!(
        "go-template={}x{}",
        "{{range $}}".repeat(13),
        "{{end}}".repeat(13)
    );
    let mut command = cluster.kw();
    command
        .args(["--context", "sim,sim-cert", "get", "pods", "-w"])
        .args(["--timeout=1s", "-o", &over_each_pod])
        .arg("--kubeconfig")
        .arg(&cluster.kubeconfig);
    let started = Instant::now();
    let outcome = run(command, Duration::from_secs(60));
    let took = started.elapsed();
    assert_eq!(outcome.code, Some(3), "{outcome:?}");
    assert!(
        took < STOPPED_NEAR_THE_DEADLINE,
        "--timeout=1s ended after {took:?}"
    );
    assert_eq!(outcome.stdout, "");
    for context in ["sim", "sim-cert"] {
        let line = format!("error: context \"{context}\": --timeout ran out while the go-template ran; it was stopped and its output for that object is not printed\n");
        assert!(outcome.stderr.contains(&line), "{context}: {outcome:?}");
    }
}

/// Go templates over objects nested deeper than a thread's stack, as `decode::value` reads them.
mod deep_objects {
    /// A deep custom resource prints rather than overflowing the stack (1,500 levels overflowed
    /// a test thread's 2 MiB before the stack of its own; deeper objects cannot even be dropped
    /// on such a thread, serde_json's `Drop` being recursive).
    #[test]
    fn a_deeply_nested_object_runs_on_a_stack_of_its_own() {
        let text = format!("{}1{}", "{\"a\":".repeat(1500), "}".repeat(1500));
        let object = kw::decode::value(&text).unwrap();
        let template =
            kw::gotemplate::GoTemplate::parse("{{.}} {{printf \"%v\" .}} {{len .a}}").unwrap();
        let mut out = String::new();
        template.execute(&object, &mut out).unwrap();
        assert!(out.starts_with("map[a:map[a:"), "{}", &out[..40]);
        assert!(out.ends_with("]]] 1"), "{}", &out[out.len() - 40..]);
    }

    #[test]
    fn an_object_deeper_than_the_api_server_allows_is_refused() {
        let text = format!("{}{}", "[".repeat(10_001), "]".repeat(10_001));
        let object = kw::decode::value(&text).unwrap();
        let template = kw::gotemplate::GoTemplate::parse("{{.}}").unwrap();
        let error = template.execute(&object, &mut String::new()).unwrap_err();
        assert!(error.0.contains("10001 levels deep"), "{}", error.0);
        std::mem::forget(object); // a 10,001-level value cannot be dropped on a test thread
    }
}
