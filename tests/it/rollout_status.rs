//! `kw rollout status` against the pinned kubectl 1.37.1's recorded output: for each case of
//! tests/golden/rollout_cases.tsv, kw runs with kubectl's arguments against the same sim
//! rollout stories (played from their start, as `record_rollout.sh` plays them for kubectl), and
//! its stdout must be byte for byte kubectl's, its first stderr lines kubectl's (kw's cause may
//! follow), and its exit code kubectl's where kubectl succeeds and kw's documented one where
//! kubectl fails.

use std::process::Command;
use std::time::Duration;

use kw_sim::rollout::{Plot, Rollout};
use kw_sim::SimConfig;

use crate::harness::{
    assert_golden, golden_path, run, under_dropped_and_expired_watches, verdict_lines, Cluster,
    Outcome,
};

const LIMIT: Duration = Duration::from_secs(40);

/// One line of rollout_cases.tsv: the rollouts (`PLOT:NAME`, several joined by commas, `-` for
/// none), their beat, and kubectl's arguments.
#[derive(Clone)]
struct Case {
    rollouts: Vec<(Plot, String)>,
    beat: Duration,
    args: Vec<String>,
}

fn case(name: &str) -> Case {
    let fields = crate::harness::case_fields("rollout_cases.tsv", name);
    let rollouts = fields[1]
        .split(',')
        .filter(|r| *r != "-")
        .map(|r| {
            let (plot, object) = r.split_once(':').expect("PLOT:NAME");
            (plot.parse::<Plot>().expect("a plot"), object.to_string())
        })
        .collect();
    Case {
        rollouts,
        beat: Duration::from_secs_f64(fields[2].parse().expect("a beat")),
        args: fields[3].split(' ').map(str::to_string).collect(),
    }
}

/// Case `name`'s rollouts played on `cluster`, and kw ready to run with the case's arguments.
fn kw_in_case(name: &str, cluster: &Cluster) -> Command {
    let case = case(name);
    for (plot, object) in &case.rollouts {
        let mut rollout = Rollout::new(*plot, "default", object);
        rollout.beat = case.beat;
        cluster.sim.play_rollout(&rollout).expect("rollout plays");
    }
    let mut kw = cluster.kw();
    kw.args(&case.args)
        .arg("--kubeconfig")
        .arg(&cluster.kubeconfig);
    kw
}

/// Run case `name` with kw and compare with kubectl's recording; `code` is kw's exit code
/// where kubectl's differs (kubectl exits 1 for every failure).
fn check(name: &str, code: i32) -> Outcome {
    check_in(name, code, &Cluster::start(SimConfig::default()))
}

/// `check` against `cluster` (a sim with faults, say).
fn check_in(name: &str, code: i32, cluster: &Cluster) -> Outcome {
    let mut outcome = run(kw_in_case(name, cluster), LIMIT);
    // What kw tells stderr of a watch it resumed or re-listed (a sim with faults): kubectl's
    // client says nothing there; the lines kubectl does say are compared below.
    outcome.stderr = outcome
        .stderr
        .lines()
        .filter(|line| !is_resume_notice(line))
        .map(|line| format!("{line}\n"))
        .collect();
    assert_golden(&format!("{name}.out"), &outcome.stdout);
    let recorded = std::fs::read_to_string(golden_path(&format!("{name}.code"))).expect("code");
    let kubectl_code: i32 = recorded.split(' ').next().unwrap().parse().unwrap();
    assert_eq!(outcome.code, Some(code), "{name}: {}", outcome.stderr);
    assert_eq!(
        kubectl_code == 0,
        code == 0,
        "{name}: kubectl exited {kubectl_code}"
    );
    // kubectl's error lines, all of them and nothing else but kw's own (its cause, a summary
    // block, comes before the verdict).
    match std::fs::read_to_string(golden_path(&format!("{name}.err"))) {
        Ok(kubectl_err) => {
            let kubectl_lines: Vec<&str> = kubectl_err.lines().collect();
            let kw_lines = verdict_lines(&outcome.stderr);
            assert_eq!(kw_lines, kubectl_lines, "{name}: {}", outcome.stderr);
            assert_eq!(
                outcome.stderr.lines().last(),
                kubectl_lines.last().copied(),
                "{name}: kubectl's last line is the last: {}",
                outcome.stderr
            );
        }
        Err(_) => assert_eq!(outcome.stderr, "", "{name}"),
    }
    outcome
}

/// kw's stderr line for a watch it resumed (`...; resuming`) or re-listed (`... expired (410):
/// re-listed ...`).
fn is_resume_notice(line: &str) -> bool {
    line.starts_with("kw: ") && (line.ends_with("; resuming") || line.contains("expired (410)"))
}

#[test]
fn a_rolling_deployment_says_every_step_then_rolled_out() {
    check("rollout_completes", 0);
}

#[test]
fn type_and_name_as_two_words_with_a_namespace() {
    check("rollout_completes_type_name", 0);
}

/// kw's cause, the summary `get --until ready` writes, naming the stuck Pods' reason, then
/// kubectl's error line, last, where kubectl puts it.
#[test]
fn a_deployment_past_its_progress_deadline_fails_with_the_cause_then_kubectls_error() {
    let outcome = check("rollout_deadline", 2);
    let lines: Vec<&str> = outcome.stderr.lines().collect();
    assert_eq!(
        lines.first(),
        Some(&"kw: summary of the wait:"),
        "{}",
        outcome.stderr
    );
    assert!(
        outcome
            .stderr
            .contains("ImagePullBackOff (web): Back-off pulling image \"nginx:1.99-missing\""),
        "{}",
        outcome.stderr
    );
}

#[test]
fn watch_false_prints_one_line_and_exits_zero() {
    check("rollout_no_watch", 0);
}

#[test]
fn a_timeout_says_kubectls_words_with_kws_exit_code() {
    check("rollout_timeout", 3);
}

#[test]
fn an_object_that_does_not_exist_fails_at_once() {
    check("rollout_not_found", 6);
}

#[test]
fn a_rolled_out_deployment_says_so_once() {
    check("rollout_ready", 0);
}

#[test]
fn a_rolling_update_says_old_replicas_pending_termination() {
    check("rollout_rolling_update", 0);
}

#[test]
fn a_daemon_set_says_every_step_then_rolled_out() {
    check("rollout_daemonset", 0);
}

#[test]
fn a_daemon_set_ignores_revision_as_kubectl_does() {
    check("rollout_daemonset_revision", 0);
}

#[test]
fn a_partitioned_stateful_set_stops_at_its_partition() {
    check("rollout_partitioned", 0);
}

#[test]
fn an_on_delete_stateful_set_is_refused_as_kubectl_refuses_it() {
    check("rollout_on_delete", 2);
}

#[test]
fn a_revision_other_than_the_running_one_fails() {
    check("rollout_other_revision", 2);
}

#[test]
fn the_running_revision_pinned_is_rolled_out() {
    check("rollout_pinned_revision", 0);
}

#[test]
fn global_flags_before_the_verb_and_after_it() {
    check("rollout_flags_before", 0);
}

/// `kw rollout status deploy/NAME ARGS` on case `rollout_timeout`'s crash-looping story, within
/// `limit`: the Deployment's name and how it ended.
fn crash_loop_status(args: &[&str], limit: Duration) -> (String, Outcome) {
    let case = case("rollout_timeout");
    let cluster = Cluster::start(SimConfig::default());
    let (plot, object) = case.rollouts[0].clone();
    let mut rollout = Rollout::new(plot, "default", &object);
    rollout.beat = case.beat;
    cluster.sim.play_rollout(&rollout).expect("rollout plays");
    let mut kw = cluster.kw();
    kw.args(["rollout", "status", &format!("deploy/{object}")])
        .args(args)
        .arg("--kubeconfig")
        .arg(&cluster.kubeconfig);
    (object, run(kw, limit))
}

/// Beyond kubectl: a Pod of the current revision stuck past `--fail-grace` fails the rollout
/// (kubectl waits for the progress deadline, here never). Until then stdout is kubectl's, line
/// for line (its recording of the same story, cut by its --timeout), and the error names the
/// Pod and why.
#[test]
fn a_pod_stuck_past_the_grace_fails_the_rollout_where_kubectl_waits() {
    let (object, outcome) = crash_loop_status(&["--fail-grace", "0"], LIMIT);
    assert_golden("rollout_timeout.out", &outcome.stdout);
    assert_eq!(outcome.code, Some(2), "{}", outcome.stderr);
    let verdict = outcome.stderr.lines().last().unwrap_or_default();
    assert!(
        verdict.starts_with(&format!("error: pod/{object}-"))
            && verdict.contains("CrashLoopBackOff"),
        "{verdict}"
    );
}

/// Never failing what kubectl passes (issue 55): without `--fail-grace`, a crash-looping Pod
/// of the new revision does not end the rollout; kw waits, as kubectl does, for its
/// `--timeout` (here; or the progress deadline), says once when the Pod has been stuck for 30 s
/// and which flag would have ended it then, and ends on kubectl's timeout line.
#[test]
fn without_fail_grace_a_stuck_pod_is_said_once_and_the_rollout_runs_to_its_timeout() {
    let (object, outcome) = crash_loop_status(&["--timeout=36s"], LIMIT + Duration::from_secs(20));
    assert_golden("rollout_timeout.out", &outcome.stdout);
    assert_eq!(outcome.code, Some(3), "{}", outcome.stderr);
    let lines: Vec<&str> = outcome.stderr.lines().collect();
    let said: Vec<&&str> = lines
        .iter()
        .filter(|l| l.contains("--fail-grace 30s ends it"))
        .collect();
    assert_eq!(said.len(), 1, "{}", outcome.stderr);
    assert!(
        said[0].starts_with(&format!("kw: deployment.apps/{object}: pod/{object}-"))
            && said[0].contains("CrashLoopBackOff (web)")
            && said[0].contains("for 30s now: this rollout runs on until its progress deadline or --timeout, as kubectl's does"),
        "{}",
        said[0]
    );
    let error = lines.iter().position(|l| l.starts_with("error: "));
    let hint = lines.iter().position(|l| l.contains("--fail-grace 30s"));
    assert_eq!(
        lines.get(error.unwrap_or(usize::MAX)),
        Some(&"error: timed out waiting for the condition"),
        "{}",
        outcome.stderr
    );
    assert!(hint < error, "said while it waited: {}", outcome.stderr);
}

/// Beyond kubectl (which has no status viewer for a Job): a Job is judged by kw's rules, one
/// line per change of judgement, and its failure is an `error:` line naming it.
#[test]
fn a_job_is_judged_by_kws_rules_one_line_per_change() {
    let cluster = Cluster::start(SimConfig::default());
    for (plot, name) in [(Plot::JobCompletes, "migrate"), (Plot::JobFails, "broken")] {
        let mut rollout = Rollout::new(plot, "default", name);
        rollout.beat = Duration::from_millis(200);
        cluster.sim.play_rollout(&rollout).expect("rollout plays");
    }
    let status = |name: &str| {
        let mut kw = cluster.kw();
        kw.args(["rollout", "status", "job", name, "--fail-grace", "0"])
            .arg("--kubeconfig")
            .arg(&cluster.kubeconfig);
        run(kw, LIMIT)
    };
    let done = status("migrate");
    assert_eq!(done.code, Some(0), "{}", done.stderr);
    let lines: Vec<&str> = done.stdout.lines().collect();
    assert!(
        lines.iter().all(|l| l.starts_with("job.batch/migrate: ")),
        "{lines:?}"
    );
    assert!(lines.windows(2).all(|w| w[0] != w[1]), "{lines:?}");
    assert_eq!(
        lines.last(),
        Some(&"job.batch/migrate: ready: Job completed. Succeeded: 1/1")
    );
    let failed = status("broken");
    assert_eq!(failed.code, Some(2), "{}", failed.stderr);
    let verdict = failed.stderr.lines().last().unwrap_or_default();
    assert!(
        verdict.starts_with("error: job.batch/broken: "),
        "{verdict}"
    );
    assert!(failed.stderr.contains("backoff limit"), "{}", failed.stderr);
}

#[test]
fn the_object_a_manifest_names() {
    check("rollout_manifest", 0);
}

#[test]
fn a_selector_that_matches_one_object_watches_it() {
    check("rollout_selector_one", 0);
}

/// kubectl watches what a selector matches one after another, in the server's order.
#[test]
fn a_selector_that_matches_several_watches_each_in_turn() {
    check("rollout_selector_several", 0);
}

/// Each object a selector matched is watched with its type as the list's discovery resolved
/// it, not by a name resolved again: with no discovery cache, where every resolution by name
/// is asked of the server, the whole run asks discovery once (`/api`, then `/apis` for
/// `deploy`), not once more per object.
#[test]
fn the_objects_a_selector_matched_are_watched_without_resolving_their_type_again() {
    let cluster = Cluster::start(SimConfig::default());
    let mut kw = kw_in_case("rollout_selector_several", &cluster);
    // No home and no XDG_CACHE_HOME: no discovery cache.
    kw.env("HOME", "").env_remove("XDG_CACHE_HOME");
    let outcome = run(kw, LIMIT);
    assert_eq!(outcome.code, Some(0), "{}", outcome.stderr);
    assert_golden("rollout_selector_several.out", &outcome.stdout);
    let discovery: Vec<String> = cluster
        .sim
        .requests()
        .iter()
        .filter(|r| crate::discovery::is_discovery(&r.path))
        .map(|r| r.path.split('?').next().unwrap_or_default().to_string())
        .collect();
    assert_eq!(discovery, ["/api", "/apis"]);
}

/// A failed rollout does not stop the next one; kubectl's error comes once all are watched.
#[test]
fn a_failure_among_several_is_said_at_the_end_and_the_others_go_on() {
    let outcome = check("rollout_selector_one_fails", 2);
    assert!(
        outcome.stderr.contains("kw: summary of the wait:"),
        "{}",
        outcome.stderr
    );
}

#[test]
fn a_selector_that_matches_nothing_says_so_and_succeeds() {
    check("rollout_selector_none", 0);
}

#[test]
fn a_selector_alone_names_no_resource() {
    check("rollout_selector_alone", 1);
}

#[test]
fn a_selector_with_a_name_is_refused_in_kubectls_words() {
    check("rollout_selector_with_name", 1);
}

/// kubectl takes a type alone as every object of it.
#[test]
fn a_type_alone_watches_every_object_of_it() {
    check("rollout_type_alone", 0);
}

/// Several failures: each on a line of its own, without `error: `, in the order watched.
#[test]
fn several_named_objects_in_order_each_error_on_its_line() {
    check("rollout_several_named", 2);
}

/// Two sims as contexts `eu` and `us` of one kubeconfig (each its own cluster and admin).
fn two_contexts(dir: &std::path::Path, eu: &Cluster, us: &Cluster) -> std::path::PathBuf {
    use base64::Engine;
    let b64 = |text: &str| base64::engine::general_purpose::STANDARD.encode(text);
    let (mut clusters, mut contexts, mut users) = (String::new(), String::new(), String::new());
    for (name, cluster) in [("eu", eu), ("us", us)] {
        let sim = &cluster.sim;
        clusters.push_str(&format!(
            "- name: {name}\n  cluster:\n    server: {}\n    certificate-authority-data: {}\n",
            sim.url(),
            b64(&sim.ca_pem())
        ));
        contexts.push_str(&format!(
            "- name: {name}\n  context:\n    cluster: {name}\n    user: {name}\n    namespace: default\n"
        ));
        users.push_str(&format!(
            "- name: {name}\n  user:\n    token: {}\n",
            sim.admin_token()
        ));
    }
    let path = dir.join("two-contexts");
    std::fs::write(
        &path,
        format!(
            "apiVersion: v1\nkind: Config\nclusters:\n{clusters}contexts:\n{contexts}current-context: eu\nusers:\n{users}"
        ),
    )
    .expect("kubeconfig written");
    path
}

/// Over several contexts every line says its context, each context's lines are kubectl's for
/// its story (as recorded, the names aside), nothing more is said of a rollout once done, and
/// the run ends with the failure, named with its context, and its exit code.
#[test]
fn several_contexts_label_every_line_and_end_with_the_failure() {
    let story = |plot| {
        let cluster = Cluster::start(SimConfig::default());
        let mut rollout = Rollout::new(plot, "default", "front");
        rollout.beat = Duration::from_secs(1);
        (cluster, rollout)
    };
    let (eu, eu_story) = story(Plot::Completes);
    let (us, us_story) = story(Plot::ImagePull);
    let kubeconfig = two_contexts(eu.dir.path(), &eu, &us);
    eu.sim.play_rollout(&eu_story).expect("rollout plays");
    us.sim.play_rollout(&us_story).expect("rollout plays");
    let mut kw = eu.kw();
    kw.args(["rollout", "status", "deploy/front", "--context", "*"])
        .arg("--kubeconfig")
        .arg(&kubeconfig);
    let outcome = run(kw, LIMIT);
    assert_eq!(outcome.code, Some(2), "{outcome:#?}");
    let said_in = |context: &str| -> String {
        let prefix = format!("{context}: ");
        outcome
            .stdout
            .lines()
            .filter_map(|line| line.strip_prefix(&prefix))
            .map(|line| format!("{line}\n"))
            .collect()
    };
    let (eu_said, us_said) = (said_in("eu"), said_in("us"));
    assert_eq!(
        eu_said.lines().count() + us_said.lines().count(),
        outcome.stdout.lines().count(),
        "every line is labelled: {}",
        outcome.stdout
    );
    let recorded = |name: &str, object: &str| {
        std::fs::read_to_string(golden_path(name))
            .expect("golden")
            .replace(&format!("\"{object}\""), "\"front\"")
    };
    assert_eq!(eu_said, recorded("rollout_completes.out", "front"));
    assert_eq!(us_said, recorded("rollout_deadline.out", "shop"));
    assert_eq!(
        verdict_lines(&outcome.stderr).first().copied(),
        Some("error: us: deployment \"front\" exceeded its progress deadline"),
        "{}",
        outcome.stderr
    );
    assert!(
        outcome.stderr.contains("us/pod/front-"),
        "the cause names the context's Pod: {}",
        outcome.stderr
    );
}

/// A Widget (the sim's custom resource, `example.com/v1`) with `status.conditions`.
fn widget(
    name: &str,
    generation: i64,
    observed: i64,
    conditions: serde_json::Value,
) -> serde_json::Value {
    serde_json::json!({
        "apiVersion": "example.com/v1",
        "kind": "Widget",
        "metadata": {"name": name, "namespace": "default", "generation": generation},
        "spec": {"color": "red", "size": generation},
        "status": {"observedGeneration": observed, "conditions": conditions}
    })
}

/// Beyond kubectl (no status viewer for a custom resource): kw's rules judge it, one line per
/// change of judgement (an update that changes nothing it looks at says nothing), until it is
/// ready; `Stalled=True` fails it with an `error:` line naming it.
#[test]
fn a_custom_resource_with_conditions_is_judged_one_line_per_change() {
    use crate::harness::Live;
    use serde_json::json;
    let cluster = Cluster::start(SimConfig::default());
    let sim = &cluster.sim;
    sim.create("widgets", widget("gizmo", 2, 1, json!([])))
        .expect("created");
    let mut kw = cluster.kw();
    kw.args([
        "rollout",
        "status",
        "widgets.example.com/gizmo",
        "--timeout=30s",
    ])
    .arg("--kubeconfig")
    .arg(&cluster.kubeconfig);
    let live = Live::spawn(&mut kw);
    let line = |live: &Live| live.next_line(LIMIT).expect("a line");
    assert_eq!(
        line(&live),
        "widget.example.com/gizmo: in progress: Generation 2 not observed yet (latest observed: 1)"
    );
    let provisioning = json!([{"type": "Ready", "status": "False", "reason": "Provisioning",
        "message": "waiting for the gadget"}]);
    sim.update("widgets", widget("gizmo", 2, 2, provisioning.clone()))
        .expect("updated");
    let waiting = line(&live);
    assert!(
        waiting.starts_with("widget.example.com/gizmo: in progress: ")
            && waiting.contains("waiting for the gadget"),
        "{waiting}"
    );
    // The same judgement again (the spec's colour changed, nothing the rules read): no line.
    let mut recoloured = widget("gizmo", 2, 2, provisioning);
    recoloured["spec"]["color"] = json!("blue");
    sim.update("widgets", recoloured).expect("updated");
    let ready = json!([{"type": "Ready", "status": "True", "reason": "Provisioned"}]);
    sim.update("widgets", widget("gizmo", 2, 2, ready))
        .expect("updated");
    let (code, rest, stderr) = live.finish(LIMIT);
    assert_eq!(code, Some(0), "{stderr}");
    assert_eq!(
        rest,
        ["widget.example.com/gizmo: ready: Resource is Ready"],
        "one line for the change, none for the recolouring"
    );

    let stalled = json!([{"type": "Stalled", "status": "True", "reason": "QuotaExceeded",
        "message": "no gadgets left"}]);
    sim.create("widgets", widget("stuck", 1, 1, stalled))
        .expect("created");
    let mut kw = cluster.kw();
    kw.args(["rollout", "status", "widget", "stuck"])
        .arg("--kubeconfig")
        .arg(&cluster.kubeconfig);
    let failed = run(kw, LIMIT);
    assert_eq!(failed.code, Some(2), "{failed:#?}");
    let verdict = failed.stderr.lines().last().unwrap_or_default();
    assert!(
        verdict.starts_with("error: widget.example.com/stuck: ")
            && verdict.contains("no gadgets left"),
        "{verdict}"
    );
}

/// Issue #45: a custom resource's message (kubectl has no viewer for it, kw's line says it)
/// reaches stdout shown, not obeyed, as stderr shows it: OSC 52 (the clipboard), OSC 0 (the
/// title), the 8-bit CSI and SGR 8 (hidden text) are text; a name holding a line break stays on
/// its line, in `rollout status`, `-o name` and `wait`'s `condition met` alike.
#[test]
fn server_text_reaches_stdout_shown_and_on_one_line() {
    use serde_json::json;
    let cluster = Cluster::start(SimConfig::default());
    let hostile = "copy\x1b]52;c;ZXZpbA==\x07 title\x1b]0;pwned\x07 \u{9b}2J \x1b[8mhidden";
    let conditions = json!([{"type": "Ready", "status": "False", "reason": "Provisioning",
        "message": hostile}]);
    for name in ["gizmo", "a\nerror: forged"] {
        cluster
            .sim
            .create("widgets", widget(name, 1, 1, conditions.clone()))
            .expect("created");
    }
    let raw = |text: &str| text.chars().any(|c| c.is_control() && c != '\n');
    let mut kw = cluster.kw();
    kw.args([
        "rollout",
        "status",
        "widgets.example.com/gizmo",
        "--timeout=2s",
    ])
    .arg("--kubeconfig")
    .arg(&cluster.kubeconfig);
    let outcome = run(kw, LIMIT);
    assert_eq!(outcome.code, Some(3), "{outcome:#?}");
    assert_eq!(
        outcome.stdout,
        "widget.example.com/gizmo: in progress: copy^[]52;c;ZXZpbA==^G title^[]0;pwned^G \\u{9b}2J ^[[8mhidden\n"
    );

    let mut kw = cluster.kw();
    kw.args(["get", "widgets", "-o", "name"])
        .arg("--kubeconfig")
        .arg(&cluster.kubeconfig);
    let names = run(kw, LIMIT);
    assert_eq!(names.code, Some(0), "{names:#?}");
    assert!(
        names
            .stdout
            .lines()
            .any(|l| l == "widget.example.com/a\\nerror: forged")
            && !names.stdout.lines().any(|l| l.starts_with("error")),
        "{:?}",
        names.stdout
    );
    let mut kw = cluster.kw();
    kw.args([
        "wait",
        "--for=jsonpath={.spec.color}=red",
        "widgets",
        "--all",
    ])
    .args(["--timeout=2s", "--kubeconfig"])
    .arg(&cluster.kubeconfig);
    let met = run(kw, LIMIT);
    // The seeded widgets are of other colours: the wait times out, the red ones are met.
    assert_eq!(met.code, Some(3), "{met:#?}");
    assert!(
        met.stdout
            .lines()
            .any(|l| l == "widget.example.com/a\\nerror: forged condition met")
            && !met.stdout.lines().any(|l| l.starts_with("error")),
        "{:?}",
        met.stdout
    );
    assert!(!raw(&outcome.stdout) && !raw(&names.stdout) && !raw(&met.stdout));
}

/// Issue #45: `set -o pipefail; kw rollout status ... | head -1` on a rollout that never
/// finishes exited 0: a reader gone before the verdict must not pass for a finished wait. Each
/// run awaiting a verdict (`rollout status`, `get --until`) ends 141 (128 + SIGPIPE, as kubectl
/// killed by it) at its next write, with a line on stderr; `get -w` alone still ends quietly, 0.
#[test]
fn a_reader_gone_before_the_verdict_is_not_a_success() {
    use serde_json::json;
    use std::io::BufRead;
    use std::process::Stdio;
    let cluster = Cluster::start(SimConfig::default());
    let progressing = |step: i64| {
        json!([{"type": "Ready", "status": "False", "reason": "Provisioning",
            "message": format!("step {step}")}])
    };
    cluster
        .sim
        .create("widgets", widget("gizmo", 1, 1, progressing(0)))
        .expect("created");
    let cases: [(&[&str], i32); 3] = [
        (&["rollout", "status", "widgets.example.com/gizmo"], 141),
        (
            &["get", "widgets.example.com/gizmo", "-w", "--until", "ready"],
            141,
        ),
        (&["get", "widgets.example.com/gizmo", "-w"], 0),
    ];
    let mut step = 0;
    for (args, code) in cases {
        let mut kw = cluster.kw();
        kw.args(args)
            .args(["--timeout=30s", "--kubeconfig"])
            .arg(&cluster.kubeconfig)
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        let started = std::time::Instant::now();
        let mut child = kw.spawn().expect("kw starts");
        let mut stdout = std::io::BufReader::new(child.stdout.take().expect("stdout"));
        let mut first = String::new();
        stdout.read_line(&mut first).expect("a first line");
        assert!(!first.is_empty(), "{args:?}");
        // `head -1`: the reader goes away after one line; the rollout goes on.
        drop(stdout);
        let ended = loop {
            if let Some(status) = child.try_wait().expect("wait") {
                break status.code();
            }
            assert!(
                started.elapsed() < Duration::from_secs(20),
                "{args:?} did not end"
            );
            step += 1;
            cluster
                .sim
                .update("widgets", widget("gizmo", 1, 1, progressing(step)))
                .expect("updated");
            std::thread::sleep(Duration::from_millis(100));
        };
        let mut stderr = String::new();
        std::io::Read::read_to_string(&mut child.stderr.take().expect("stderr"), &mut stderr)
            .expect("stderr");
        assert_eq!(ended, Some(code), "{args:?}: {stderr}");
        if code == 141 {
            assert!(
                stderr.contains("error: stdout was closed before the wait ended"),
                "{args:?}: {stderr}"
            );
        }
        assert!(started.elapsed() < Duration::from_secs(20), "{args:?}");
    }
}

/// Issue #45: a name or namespace `..` (or `.`, or holding `/` or `%`) was sent as
/// `/apis/apps/v1/namespaces/../deployments/..`; it is refused before any request, in
/// client-go's words, with exit 1.
#[test]
fn names_and_namespaces_that_would_change_the_path_are_refused_before_any_request() {
    let cluster = Cluster::start(SimConfig::default());
    let cases: [(&[&str], &str); 4] = [
        (
            &["rollout", "status", "deploy/..", "-n", ".."],
            "error: invalid resource name \"..\": [may not be '..']",
        ),
        (
            &["rollout", "status", "deploy/web", "-n", ".."],
            "error: invalid namespace \"..\": [may not be '..']",
        ),
        (
            &["get", "deployments", ".", "-w"],
            "error: invalid resource name \".\": [may not be '.']",
        ),
        (
            &["wait", "--for=delete", "deploy/a%2F..", "--timeout=2s"],
            "error: invalid resource name \"a%2F..\": [may not contain '%']",
        ),
    ];
    for (args, said) in cases {
        let mut kw = cluster.kw();
        kw.args(args).arg("--kubeconfig").arg(&cluster.kubeconfig);
        let outcome = run(kw, LIMIT);
        assert_eq!(outcome.code, Some(1), "{args:?}: {outcome:#?}");
        assert_eq!(outcome.stderr.lines().next(), Some(said), "{args:?}");
    }
    let asked = cluster.sim.requests();
    assert!(
        !asked.iter().any(|r| format!("{r:?}").contains("..")),
        "{asked:?}"
    );
}

/// `-f DIR` reads the directory's manifests in name order, as kubectl does, skipping what is
/// not .json, .yaml or .yml and, without `-R`, its subdirectories.
#[test]
fn a_directory_of_manifests_one_object_after_another() {
    check("rollout_manifest_dir", 0);
}

#[test]
fn a_directory_of_manifests_with_its_subdirectories() {
    check("rollout_manifest_dir_recursive", 0);
}

/// `-f` repeated: the files' objects one after another, in the order the flags came.
#[test]
fn several_manifests_one_after_another() {
    check("rollout_manifest_several", 0);
}

/// Resume and re-list under the rollout: every watch connection dropped after two events (no
/// terminating chunk), or told its resourceVersion expired (410), mid-rollout. kw resumes from
/// the last resourceVersion, or lists again, and its stdout is still kubectl's recorded lines,
/// byte for byte: no line twice, none lost.
#[test]
fn a_rollout_through_dropped_and_expired_watches_prints_kubectls_lines_exactly() {
    under_dropped_and_expired_watches(|faults, cluster| {
        let outcome = check_in("rollout_completes", 0, cluster);
        assert_eq!(
            outcome.stderr, "",
            "{faults:?}: only resume notices on stderr"
        );
    });
}

/// A case added to rollout_cases.tsv must be checked here too (its name quoted in this file).
#[test]
fn every_case_is_checked() {
    crate::harness::assert_every_case_quoted(
        "rollout_cases.tsv",
        include_str!("rollout_status.rs"),
    );
}

/// Issue 61, point 7: a Deployment whose `spec` is the number 5 (written to the sim's store
/// raw: its API refuses such a write) is no Deployment kubectl can decode. kw names it with
/// kubectl's words, live from the pinned kubectl, and does not judge it ("successfully rolled
/// out", exit 0, before); its exit code is kw's for a rollout that cannot finish (2).
#[test]
fn a_deployment_of_the_wrong_shape_is_named_in_kubectls_words_not_judged() {
    let cluster = Cluster::start(SimConfig {
        empty: true,
        ..SimConfig::default()
    });
    for (name, spec) in [
        ("five", serde_json::json!(5)),
        ("text", serde_json::json!({"replicas": "3"})),
    ] {
        cluster
            .sim
            .create(
                "deployments",
                serde_json::json!({"apiVersion": "apps/v1", "kind": "Deployment",
                    "metadata": {"name": name, "namespace": "default"}, "spec": spec}),
            )
            .expect("a raw store write");
        let args = ["rollout", "status", &format!("deployment/{name}")];
        let mut kubectl = Command::new(crate::harness::kubectl());
        kubectl
            .args(args)
            .arg("--kubeconfig")
            .arg(&cluster.kubeconfig);
        let kubectl = run(kubectl, LIMIT);
        assert_eq!(kubectl.code, Some(1), "{}", kubectl.stderr);
        assert!(
            kubectl.stderr.starts_with("error: json: cannot unmarshal "),
            "{}",
            kubectl.stderr
        );
        let mut kw = cluster.kw();
        kw.args(args).arg("--kubeconfig").arg(&cluster.kubeconfig);
        let kw = run(kw, LIMIT);
        assert_eq!(kw.stdout, "", "{name}: judged as if it were a Deployment");
        assert_eq!(kw.code, Some(2), "{}", kw.stderr);
        let last = kw.stderr.lines().last().unwrap_or("");
        assert_eq!(format!("{last}\n"), kubectl.stderr, "{name}");
        assert!(
            kw.stderr.contains(&format!(
                "deployment.apps/{name}: failed: json: cannot unmarshal"
            )),
            "{}",
            kw.stderr
        );
    }
}
