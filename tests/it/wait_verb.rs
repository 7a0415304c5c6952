//! `kw wait` against the pinned kubectl 1.37.1's recorded output: for each case of
//! tests/golden/wait_cases.tsv, kw runs with kubectl's arguments against the same sim (the same
//! rollout story, or the same frozen clock, and the same control line sent as late as
//! `record_wait.sh` sends it), and its stdout must be byte for byte kubectl's, its `error:` line
//! kubectl's, and its exit code kubectl's where kubectl succeeds and kw's documented one where
//! kubectl fails. Then what kw adds: `--for` repeated as OR, `--for=ready` and its cause.

use std::time::Duration;

use kw_sim::rollout::{Plot, Rollout};
use kw_sim::SimConfig;

use crate::harness::{
    apply_scenario_op, assert_golden, frozen_now, golden_path, run,
    under_dropped_and_expired_watches, verdict_lines, Cluster, Outcome,
};

const LIMIT: Duration = Duration::from_secs(40);

/// One line of wait_cases.tsv.
struct Case {
    rollout: Option<(Plot, String)>,
    beat: Duration,
    /// A control line, and how long after the start to send it.
    op: Option<(Duration, serde_json::Value)>,
    args: Vec<String>,
}

fn case(name: &str) -> Case {
    let fields = crate::harness::case_fields("wait_cases.tsv", name);
    let rollout = (fields[1] != "-").then(|| {
        let (plot, object) = fields[1].split_once(':').expect("PLOT:NAME");
        (plot.parse::<Plot>().expect("a plot"), object.to_string())
    });
    let op = (fields[4] != "-").then(|| {
        let after = Duration::from_secs_f64(fields[3].parse().expect("seconds"));
        (
            after,
            serde_json::from_str(&fields[4]).expect("a control line"),
        )
    });
    Case {
        rollout,
        beat: Duration::from_secs_f64(fields[2].parse().expect("a beat")),
        op,
        args: fields[5].split(' ').map(str::to_string).collect(),
    }
}

/// The sim a case runs against: its story playing, or its clock frozen as record_wait.sh
/// freezes it.
fn cluster_for(case: &Case) -> Cluster {
    match &case.rollout {
        Some((plot, object)) => {
            let cluster = Cluster::start(SimConfig::default());
            let mut rollout = Rollout::new(*plot, "default", object);
            rollout.beat = case.beat;
            cluster.sim.play_rollout(&rollout).expect("rollout plays");
            cluster
        }
        None => Cluster::start(SimConfig {
            clock: Some(frozen_now()),
            ..SimConfig::default()
        }),
    }
}

/// Run `args` with kw against `cluster`, sending the case's control line on time.
fn run_kw(cluster: &Cluster, case: &Case, args: &[String]) -> Outcome {
    std::thread::scope(|scope| {
        if let Some((after, op)) = &case.op {
            scope.spawn(move || {
                std::thread::sleep(*after);
                apply_scenario_op(cluster, op);
            });
        }
        let mut kw = cluster.kw();
        kw.args(args).arg("--kubeconfig").arg(&cluster.kubeconfig);
        run(kw, LIMIT)
    })
}

/// Run case `name` with kw and compare with kubectl's recording; `code` is kw's exit code
/// where kubectl's differs (kubectl exits 1 for every failure).
fn check(name: &str, code: i32) -> Outcome {
    let case = case(name);
    let cluster = cluster_for(&case);
    let outcome = run_kw(&cluster, &case, &case.args);
    assert_golden(&format!("{name}.out"), &outcome.stdout);
    let recorded = std::fs::read_to_string(golden_path(&format!("{name}.code"))).expect("code");
    let kubectl_code: i32 = recorded.split(' ').next().unwrap().parse().unwrap();
    assert_eq!(outcome.code, Some(code), "{name}: {}", outcome.stderr);
    assert_eq!(
        kubectl_code == 0,
        code == 0,
        "{name}: kubectl exited {kubectl_code}"
    );
    // kw's progress lines (`kw: ...`) and its cause may come first; kubectl's lines are all
    // the rest, the last of them last.
    let ours = verdict_lines(&outcome.stderr);
    let kubectls = std::fs::read_to_string(golden_path(&format!("{name}.err"))).unwrap_or_default();
    let theirs: Vec<&str> = kubectls.lines().collect();
    assert_eq!(ours, theirs, "{name}: {}", outcome.stderr);
    if let Some(last) = theirs.last() {
        assert_eq!(
            outcome.stderr.lines().last(),
            Some(*last),
            "{name}: kubectl's last line is the last: {}",
            outcome.stderr
        );
    }
    if theirs.is_empty() {
        assert_eq!(ours, Vec::<&str>::new(), "{name}: {}", outcome.stderr);
    }
    outcome
}

#[test]
fn a_condition_already_met() {
    check("wait_condition_met", 0);
}

#[test]
fn a_condition_met_later_in_a_rollout() {
    check("wait_condition_later", 0);
}

#[test]
fn a_condition_met_by_an_update() {
    check("wait_condition_update", 0);
}

#[test]
fn a_condition_with_a_value() {
    check("wait_condition_false", 0);
}

#[test]
fn delete_of_an_object_deleted_meanwhile() {
    check("wait_delete_later", 0);
}

#[test]
fn delete_of_an_absent_object_says_nothing() {
    check("wait_delete_absent", 0);
}

#[test]
fn create_of_an_object_created_meanwhile() {
    check("wait_create_later", 0);
}

#[test]
fn create_that_never_comes_times_out_naming_nothing() {
    check("wait_create_timeout", 3);
}

#[test]
fn jsonpath_with_a_value_and_without() {
    check("wait_jsonpath_value", 0);
    check("wait_jsonpath_exists", 0);
}

#[test]
fn a_timeout_names_the_object_with_kws_exit_code() {
    check("wait_timeout", 3);
}

#[test]
fn timeout_zero_checks_once() {
    check("wait_check_once", 3);
}

#[test]
fn an_object_that_does_not_exist_fails_at_once() {
    check("wait_not_found", 6);
}

#[test]
fn a_selector_says_each_object_in_the_lists_order() {
    check("wait_selector", 0);
    check("wait_name", 0);
}

#[test]
fn a_selector_that_matches_nothing_fails_at_once() {
    check("wait_selector_none", 6);
}

#[test]
fn all_in_a_namespace_and_in_every_namespace() {
    check("wait_all", 0);
    check("wait_all_namespaces", 0);
}

#[test]
fn a_field_selector() {
    check("wait_field_selector", 0);
}

#[test]
fn named_objects_in_the_order_named() {
    check("wait_names_in_order", 0);
    check("wait_for_spaced", 0);
}

#[test]
fn json_and_yaml_print_the_objects() {
    check("wait_json", 0);
    check("wait_yaml", 0);
}

#[test]
fn the_objects_a_manifest_names() {
    check("wait_manifest", 0);
}

/// A directory as kubectl walks it: its manifests in name order, and its subdirectories' too
/// unless `-R=false` (kubectl's `wait` defaults to recursive, unlike `get` and `rollout status`).
#[test]
fn a_directory_of_manifests_recursively_unless_told_not_to() {
    check("wait_manifest_dir", 0);
    check("wait_manifest_dir_flat", 0);
}

/// `-f` repeated: the files' objects, said in the order the flags came.
#[test]
fn several_manifests_in_the_order_given() {
    check("wait_manifest_several", 0);
}

#[test]
fn usage_mistakes_in_kubectls_words() {
    check("wait_no_for", 1);
    check("wait_bad_for", 1);
    check("wait_no_name", 1);
}

/// A sim playing `plot` as `name`, from its start, a beat a second.
fn story(plot: Plot, name: &str, beat: Duration) -> Cluster {
    let cluster = Cluster::start(SimConfig::default());
    let mut rollout = Rollout::new(plot, "default", name);
    rollout.beat = beat;
    cluster.sim.play_rollout(&rollout).expect("rollout plays");
    cluster
}

fn wait_kw(cluster: &Cluster, args: &[&str]) -> Outcome {
    let case = Case {
        rollout: None,
        beat: Duration::ZERO,
        op: None,
        args: Vec::new(),
    };
    let args: Vec<String> = args.iter().map(|a| a.to_string()).collect();
    run_kw(cluster, &case, &args)
}

/// As today's kubectl (1.32 kept only the last `--for`): repeated, each is met in turn, and
/// the object is printed once per condition met; a condition that is never met (Ready, before
/// the deletion) is waited for to the end.
#[test]
fn for_repeated_is_each_of_them_in_turn() {
    let case = Case {
        op: Some((
            Duration::from_millis(500),
            serde_json::json!({"op": "delete", "resource": "pods", "namespace": "team-b", "name": "flaky-worker"}),
        )),
        ..case("wait_timeout")
    };
    let cluster = cluster_for(&case);
    let args: Vec<String> = [
        "wait",
        "--for=create",
        "--for=delete",
        "pod/flaky-worker",
        "-n",
        "team-b",
        "--timeout=20s",
    ]
    .iter()
    .map(|a| a.to_string())
    .collect();
    let outcome = run_kw(&cluster, &case, &args);
    assert_eq!(outcome.code, Some(0), "{}", outcome.stderr);
    assert_eq!(
        outcome.stdout,
        "pod/flaky-worker condition met\npod/flaky-worker condition met\n"
    );

    // Ready first: the deletion while Ready is waited on is no news to that wait (kubectl
    // times out too, and never comes to the `delete`).
    let cluster = cluster_for(&case);
    let mut args = args;
    args[1] = "--for=condition=Ready".into();
    args[2] = "--for=delete".into();
    args[6] = "--timeout=3s".into();
    let outcome = run_kw(&cluster, &case, &args);
    assert_eq!(outcome.code, Some(3), "{}", outcome.stderr);
    assert_eq!(outcome.stdout, "");
    assert!(
        outcome
            .stderr
            .lines()
            .any(|l| l == "error: timed out waiting for the condition on pods/flaky-worker"),
        "{}",
        outcome.stderr
    );
}

/// Beyond kubectl: `--for=ready` (kw's readiness rules) fails at once with exit 2 once the
/// rollout cannot finish, with the cause after the error line; the progress lines went to
/// stderr on the way, and stdout is kubectl's (nothing met, nothing said).
#[test]
fn for_ready_fails_with_the_cause() {
    let cluster = story(Plot::ImagePull, "shop", Duration::from_millis(300));
    let outcome = wait_kw(
        &cluster,
        &["wait", "--for=ready", "deploy/shop", "--timeout=30s"],
    );
    assert_eq!(outcome.code, Some(2), "{}", outcome.stderr);
    assert_eq!(outcome.stdout, "");
    let lines: Vec<&str> = outcome.stderr.lines().collect();
    let verdict = lines
        .iter()
        .position(|l| l.starts_with("error: "))
        .expect("an error line");
    assert!(
        lines[verdict].contains("deployment.apps/shop"),
        "{}",
        outcome.stderr
    );
    assert_eq!(
        verdict,
        lines.len() - 1,
        "the verdict last: {}",
        outcome.stderr
    );
    let summary = lines.iter().position(|l| *l == "kw: summary of the wait:");
    assert!(
        summary.is_some_and(|at| at > 0 && at < verdict),
        "progress lines, the cause, then the verdict: {}",
        outcome.stderr
    );
    assert!(
        outcome.stderr.contains("ImagePullBackOff"),
        "{}",
        outcome.stderr
    );
}

/// On a timeout, kubectl's line, then what was not ready and why; `-q` drops only kw's running
/// commentary.
#[test]
fn for_ready_times_out_with_kubectls_line_then_the_cause() {
    let cluster = story(Plot::CrashLoop, "crashy", Duration::from_millis(300));
    let args = [
        "wait",
        "--for=ready",
        "deploy/crashy",
        "--timeout=3s",
        "--fail-grace=1m",
    ];
    let (outcome, _) = times_out_with_the_summary_then_kubectls_line(
        &cluster,
        &args,
        "error: timed out waiting for the condition on deployments/crashy",
    );
    assert!(
        outcome.stderr.contains("CrashLoopBackOff"),
        "{}",
        outcome.stderr
    );
}

/// `args` time out (exit 3): after kw's progress lines, kw's summary, then kubectl's `line`,
/// last; with `-q`, no progress lines. The outcome without `-q`, and its lines from the
/// summary on.
fn times_out_with_the_summary_then_kubectls_line(
    cluster: &Cluster,
    args: &[&str],
    line: &str,
) -> (Outcome, Vec<String>) {
    let outcome = wait_kw(cluster, args);
    assert_eq!(outcome.code, Some(3), "{}", outcome.stderr);
    let after: Vec<String> = outcome
        .stderr
        .lines()
        .skip_while(|l| *l != "kw: summary of the wait:")
        .map(String::from)
        .collect();
    assert_eq!(
        after.first().map(String::as_str),
        Some("kw: summary of the wait:"),
        "{}",
        outcome.stderr
    );
    assert_eq!(
        after.last().map(String::as_str),
        Some(line),
        "{}",
        outcome.stderr
    );
    // `-q`: nothing while it waits but the one hint that the wait cannot succeed, once the
    // object has failed; kubectl's line, then the same cause.
    let quiet = wait_kw(cluster, &[args, &["-q"]].concat());
    assert_eq!(quiet.code, Some(3));
    let hints = quiet
        .stderr
        .lines()
        .take_while(|l| l.ends_with("--fail-on failed ends it now (exit 2)"))
        .count();
    assert!(hints <= 1, "{}", quiet.stderr);
    let after_hint: String = quiet
        .stderr
        .lines()
        .skip(hints)
        .map(|l| format!("{l}\n"))
        .collect();
    assert!(
        after_hint.starts_with("kw: summary of the wait:\n")
            && after_hint.ends_with(&format!("\n{line}\n")),
        "{}",
        quiet.stderr
    );
    (outcome, after)
}

/// The line CI scripts have, `--for=condition=Available` (kubectl's own condition), timing out
/// on a Deployment whose image cannot be pulled: kubectl's line, then what the Deployment was
/// waiting for and its Pods' Warning events, where kubectl says only "timed out". `-q` drops
/// only what kw says while it waits.
#[test]
fn a_kubectl_condition_that_times_out_says_why_after_kubectls_line() {
    let cluster = story(Plot::ImagePull, "shop", Duration::from_millis(300));
    let args = [
        "wait",
        "--for=condition=Available",
        "deploy/shop",
        "--timeout=4s",
    ];
    let (outcome, after) = times_out_with_the_summary_then_kubectls_line(
        &cluster,
        &args,
        "error: timed out waiting for the condition on deployments/shop",
    );
    assert_eq!(outcome.stdout, "");
    assert!(
        after.iter().any(|l| l.contains("deployment.apps/shop: "))
            && after.iter().any(|l| l.contains("ImagePullBackOff")),
        "{}",
        outcome.stderr
    );
}

/// `--for=ready` met: kubectl's line on stdout, the judgements on the way on stderr (none with
/// `-q`).
#[test]
fn for_ready_met_says_condition_met() {
    let cluster = story(Plot::Completes, "front", Duration::from_millis(200));
    let outcome = wait_kw(
        &cluster,
        &["wait", "--for=ready", "deploy/front", "--timeout=30s"],
    );
    assert_eq!(outcome.code, Some(0), "{}", outcome.stderr);
    assert_eq!(outcome.stdout, "deployment.apps/front condition met\n");
    assert!(
        outcome
            .stderr
            .lines()
            .all(|l| l.starts_with("kw: deployment.apps/front: ")),
        "{}",
        outcome.stderr
    );
    assert!(outcome.stderr.contains("ready: "), "{}", outcome.stderr);
    let quiet = wait_kw(&cluster, &["wait", "--for=ready", "deploy/front", "-q"]);
    assert_eq!(quiet.code, Some(0));
    assert_eq!(quiet.stderr, "");
    assert_eq!(quiet.stdout, "deployment.apps/front condition met\n");
}

/// Several contexts: every context's objects must meet the condition, and each line names its
/// context (in the order each meets it).
#[test]
fn several_contexts_each_line_names_its_context() {
    let cluster = Cluster::start(SimConfig::default());
    let outcome = wait_kw(
        &cluster,
        &[
            "--context",
            "sim,sim-cert",
            "wait",
            "--for=condition=Available",
            "deploy/web",
        ],
    );
    assert_eq!(outcome.code, Some(0), "{}", outcome.stderr);
    let mut lines: Vec<&str> = outcome.stdout.lines().collect();
    lines.sort();
    assert_eq!(
        lines,
        [
            "sim-cert/deployment.apps/web condition met",
            "sim/deployment.apps/web condition met"
        ]
    );
    let nothing = wait_kw(
        &cluster,
        &[
            "wait",
            "--for=condition=Ready",
            "pod",
            "-l",
            "app=none",
            "--context",
            "sim,sim-cert",
        ],
    );
    assert_eq!(nothing.code, Some(6), "{}", nothing.stderr);
    assert!(
        nothing
            .stderr
            .contains("error: no matching resources found"),
        "{}",
        nothing.stderr
    );
}

/// kubectl waits on the objects in turn under one deadline: after the first that times out,
/// every later one times out too, each said on a line of its own; the objects before it were
/// said met.
#[test]
fn several_objects_time_out_in_kubectls_order() {
    check("wait_all_timeout", 3);
    check("wait_names_timeout", 3);
}

/// `--timeout=0` looks at each object once: the met ones said, the others each an error line.
#[test]
fn timeout_zero_over_every_namespace() {
    check("wait_all_check_once", 3);
}

/// Resume and re-list under the wait: every watch connection dropped after two events, or told
/// its resourceVersion expired (410), while the rollout goes on. The condition is still met
/// when it is, and said once.
#[test]
fn a_wait_through_dropped_and_expired_watches_says_its_line_once() {
    let case = case("wait_condition_later");
    let (plot, object) = case.rollout.clone().expect("a rollout");
    under_dropped_and_expired_watches(|faults, cluster| {
        let mut rollout = Rollout::new(plot, "default", &object);
        rollout.beat = case.beat;
        cluster.sim.play_rollout(&rollout).expect("rollout plays");
        let outcome = run_kw(cluster, &case, &case.args);
        assert_eq!(outcome.code, Some(0), "{faults:?}: {}", outcome.stderr);
        assert_golden("wait_condition_later.out", &outcome.stdout);
    });
}

/// A case added to wait_cases.tsv must be checked here too (its name quoted in this file).
#[test]
fn every_case_is_checked() {
    crate::harness::assert_every_case_quoted("wait_cases.tsv", include_str!("wait_verb.rs"));
}

/// kubectl's condition, no `--fail-on`: kw waits out `--timeout` as kubectl does, but says once,
/// the moment the object fails (here the progress deadline, long before the timeout), that the
/// wait cannot succeed and which flag ends it; `-q` keeps that line. With the flag, it ends
/// there (exit 2) and the hint is not needed.
#[test]
fn a_hopeless_wait_says_once_which_flag_would_end_it() {
    const HINT: &str = "kw: deployment.apps/shop has failed (Progress deadline exceeded): this wait runs on until --timeout, as kubectl's does; --fail-on failed ends it now (exit 2)";
    let cluster = story(Plot::ImagePull, "shop", Duration::from_millis(200));
    let outcome = wait_kw(
        &cluster,
        &[
            "wait",
            "--for=condition=Available",
            "deploy/shop",
            "--timeout=6s",
            "-q",
        ],
    );
    assert_eq!(outcome.code, Some(3), "{}", outcome.stderr);
    let lines: Vec<&str> = outcome.stderr.lines().collect();
    assert_eq!(
        lines.iter().filter(|l| **l == HINT).count(),
        1,
        "{}",
        outcome.stderr
    );
    let hint = lines.iter().position(|l| *l == HINT).unwrap();
    let error = lines
        .iter()
        .position(|l| *l == "error: timed out waiting for the condition on deployments/shop")
        .expect("kubectl's line");
    assert!(hint < error, "{}", outcome.stderr);

    let cluster = story(Plot::ImagePull, "shop", Duration::from_millis(200));
    let ended = wait_kw(
        &cluster,
        &[
            "wait",
            "--for=condition=Available",
            "deploy/shop",
            "--timeout=30s",
            "--fail-on=failed",
        ],
    );
    assert_eq!(ended.code, Some(2), "{}", ended.stderr);
    assert!(
        !ended.stderr.contains("--fail-on failed ends it"),
        "{}",
        ended.stderr
    );
}

/// A wait over more objects than stderr names (issue #45, item 6): 300 Pods that never get
/// ready. The timeout's lines, the summary and the progress name the first 100 and count the
/// rest, so that stderr stays bounded however many objects a server sends (before: a line of
/// each kind per object, 18.9 MB of stderr for 100,000 Pods).
#[test]
fn stderr_names_a_hundred_objects_and_counts_the_rest() {
    const PODS: usize = 300;
    let cluster = Cluster::start(SimConfig {
        clock: Some(frozen_now()),
        empty: true,
        ..SimConfig::default()
    });
    for n in 0..PODS {
        let pod = serde_json::json!({
            "apiVersion": "v1", "kind": "Pod",
            "metadata": {"name": format!("flood-{n:04}"), "namespace": "default",
                "labels": {"app": "flood"}},
            "spec": {"containers": [{"name": "c", "image": "example/c"}]},
            "status": {"phase": "Pending"},
        });
        cluster.sim.create("pods", pod).expect("created");
    }
    let named = |stderr: &str| {
        stderr
            .lines()
            .filter(|l| l.contains("pod/flood-") || l.contains("pods/flood-"))
            .count()
    };

    let mut wait = cluster.kw();
    wait.args([
        "wait",
        "--for=condition=Ready",
        "pods",
        "-l",
        "app=flood",
        "--timeout=2s",
    ])
    .arg("--kubeconfig")
    .arg(&cluster.kubeconfig);
    let waited = run(wait, LIMIT);
    assert_eq!(waited.code, Some(3), "{}", waited.stderr);
    let lines: Vec<&str> = waited.stderr.lines().collect();
    assert!(
        lines.contains(&"timed out waiting for the condition on pods/flood-0099"),
        "{}",
        waited.stderr
    );
    assert!(
        !waited.stderr.contains("pods/flood-0100"),
        "{}",
        waited.stderr
    );
    assert!(lines.contains(&"timed out waiting for the condition on 200 more objects"));
    assert!(lines.contains(&"    … and 200 more"), "{}", waited.stderr);
    assert!(named(&waited.stderr) <= 3 * 100, "{}", waited.stderr);

    let until = run(
        &mut cluster.get(&[
            "pods",
            "-l",
            "app=flood",
            "--until",
            "ready",
            "--timeout",
            "2s",
            "-o",
            "name",
        ]),
        LIMIT,
    );
    assert_eq!(until.code, Some(3), "{}", until.stderr);
    let told = until
        .stderr
        .lines()
        .filter(|l| l.starts_with("kw: pod/flood-"))
        .count();
    assert_eq!(told, 100, "{}", until.stderr);
    assert_eq!(
        until
            .stderr
            .matches(
                "kw: … and more: the progress of objects past the first 100 is not told one by one"
            )
            .count(),
        1,
        "{}",
        until.stderr
    );
    assert!(
        until.stderr.contains("    … and 200 more"),
        "{}",
        until.stderr
    );
    assert!(named(&until.stderr) <= 3 * 100 + 1, "{}", until.stderr);
}
