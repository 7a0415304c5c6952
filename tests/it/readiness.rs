//! `--until ready` and `--fail-on failed` against `kw sim`: the readiness rules judge each
//! watched object as its events arrive, over named objects, selectors and objects not created
//! yet, and end the run with the exit code of kw's table (0 ready, 2 failed, 3 timed out).

use crate::harness;

use std::time::{Duration, Instant};

use harness::{run, Cluster, Live};
use serde_json::{json, Value};

const LIMIT: Duration = Duration::from_secs(20);

/// A Deployment of 3 replicas as its controller reports it: `updated` of them on the current
/// template (all 3 ready and available, old ones included), `Progressing` with `reason`.
fn deployment(name: &str, updated: u32, reason: &str) -> Value {
    let progressing = if reason == "ProgressDeadlineExceeded" {
        "False"
    } else {
        "True"
    };
    json!({
        "apiVersion": "apps/v1",
        "kind": "Deployment",
        "metadata": {"name": name, "namespace": "default", "generation": 2,
                     "labels": {"tier": "ready-test"}},
        "spec": {"replicas": 3, "progressDeadlineSeconds": 600,
                 "selector": {"matchLabels": {"app": name}},
                 "template": {"metadata": {"labels": {"app": name}},
                              "spec": {"containers": [{"name": "ship", "image": "nginx:1.27"}]}}},
        "status": {"observedGeneration": 2, "replicas": 3, "updatedReplicas": updated,
                   "readyReplicas": 3, "availableReplicas": 3,
                   "conditions": [
                       {"type": "Available", "status": "True",
                        "reason": "MinimumReplicasAvailable"},
                       {"type": "Progressing", "status": progressing, "reason": reason}]}
    })
}

fn rolled_out(name: &str) -> Value {
    deployment(name, 3, "NewReplicaSetAvailable")
}

fn mid_rollout(name: &str) -> Value {
    deployment(name, 1, "ReplicaSetUpdated")
}

/// Assert kw has opened `watches` watches of deployments in all (so it judged what it listed,
/// and waits for news) and still runs.
fn still_waiting_on_watches(live: &mut Live, cluster: &Cluster, watches: usize) {
    let opened = || {
        cluster
            .sim
            .requests()
            .iter()
            .filter(|r| r.path.contains("/deployments?") && r.path.contains("watch="))
            .count()
    };
    harness::wait_for("kw to watch", LIMIT, || opened() >= watches);
    still_running(live);
}

/// Assert kw has not ended. Called right after a stderr progress line: kw writes that line once it
/// has judged the state it names (under `--until`, `-o name` prints an object only once it is
/// met), so a verdict that state would wrongly give has been given by then.
fn still_running(live: &mut Live) {
    if let Some(status) = live.child.try_wait().expect("wait") {
        panic!("kw ended early with {status}");
    }
}

#[test]
fn a_rolled_out_deployment_is_ready_at_once() {
    let cluster = Cluster::seeded();
    cluster
        .sim
        .create("deployments", rolled_out("ship"))
        .unwrap();
    let out = run(
        cluster.get(&[
            "deploy/ship",
            "--until",
            "ready",
            "--fail-on",
            "failed",
            "--timeout",
            "20s",
            "-o",
            "name",
        ]),
        LIMIT,
    );
    assert_eq!(out.code, Some(0), "{}", out.stderr);
    assert_eq!(out.stdout, "deployment.apps/ship\n");
    assert_eq!(
        out.stderr.trim_end(),
        "kw: --until ready met by deployment.apps/ship (Deployment is available. Replicas: 3)"
    );
}

/// Available (so `condition=Available` is met) but one replica of three updated: `ready` waits
/// for the rollout, and ends as soon as the controller reports it done.
#[test]
fn a_deployment_mid_rollout_waits_until_every_replica_is_updated() {
    let cluster = Cluster::seeded();
    cluster
        .sim
        .create("deployments", mid_rollout("ship"))
        .unwrap();
    let available = run(
        cluster.get(&[
            "deploy/ship",
            "--until",
            "condition=Available",
            "--timeout",
            "20s",
        ]),
        LIMIT,
    );
    assert_eq!(available.code, Some(0), "{}", available.stderr);

    let mut live = Live::spawn(&mut cluster.get(&[
        "deploy/ship",
        "--until",
        "ready",
        "--fail-on",
        "failed",
        "--timeout",
        "20s",
        "-o",
        "name",
    ]));
    // `-o name` prints the object once, when it is ready: stderr tells the progress.
    live.wait_for_stderr(
        "kw: deployment.apps/ship: in progress: Updated: 1/3\n",
        LIMIT,
    );
    still_running(&mut live);
    cluster
        .sim
        .update("deployments", deployment("ship", 2, "ReplicaSetUpdated"))
        .unwrap();
    live.wait_for_stderr(
        "kw: deployment.apps/ship: in progress: Updated: 2/3\n",
        LIMIT,
    );
    still_running(&mut live);
    cluster
        .sim
        .update("deployments", rolled_out("ship"))
        .unwrap();
    let (code, rest, stderr) = live.finish(LIMIT);
    assert_eq!(code, Some(0), "{stderr}");
    assert_eq!(rest, ["deployment.apps/ship"]);
    // One line per change of judgement, as it happens.
    assert_eq!(
        stderr.trim_end(),
        "kw: deployment.apps/ship: in progress: Updated: 1/3\n\
         kw: deployment.apps/ship: in progress: Updated: 2/3\n\
         kw: deployment.apps/ship: ready: Deployment is available. Replicas: 3\n\
         kw: --until ready met by deployment.apps/ship (Deployment is available. Replicas: 3)"
    );
}

#[test]
fn a_rollout_that_never_completes_times_out_with_exit_3() {
    let cluster = Cluster::seeded();
    cluster
        .sim
        .create("deployments", mid_rollout("ship"))
        .unwrap();
    let out = run(
        cluster.get(&[
            "deploy/ship",
            "--until",
            "ready",
            "--fail-on",
            "failed",
            "--timeout",
            "2s",
            "-o",
            "name",
        ]),
        LIMIT,
    );
    assert_eq!(out.code, Some(3), "{}", out.stderr);
    // Never ready: `-o name` never names it.
    assert_eq!(out.stdout, "");
    // What it waited for, and why, before the timeout.
    assert_eq!(
        out.stderr.trim_end(),
        "kw: deployment.apps/ship: in progress: Updated: 1/3\n\
         kw: summary of the wait:\n  not ready:\n    deployment.apps/ship: in progress: Updated: 1/3\n\
         error: timed out after 2s waiting for --until ready"
    );
}

#[test]
fn a_deployment_past_its_progress_deadline_fails_with_exit_2() {
    let cluster = Cluster::seeded();
    cluster
        .sim
        .create("deployments", mid_rollout("ship"))
        .unwrap();
    let mut live = Live::spawn(&mut cluster.get(&[
        "deploy/ship",
        "--until",
        "ready",
        "--fail-on",
        "failed",
        "--timeout",
        "20s",
        "-o",
        "name",
    ]));
    live.wait_for_stderr(
        "kw: deployment.apps/ship: in progress: Updated: 1/3\n",
        LIMIT,
    );
    still_running(&mut live);
    cluster
        .sim
        .update(
            "deployments",
            deployment("ship", 1, "ProgressDeadlineExceeded"),
        )
        .unwrap();
    let (code, _, stderr) = live.finish(LIMIT);
    assert_eq!(code, Some(2), "{stderr}");
    assert_eq!(
        stderr.trim_end(),
        "kw: deployment.apps/ship: in progress: Updated: 1/3\n\
         kw: deployment.apps/ship: failed: Progress deadline exceeded\n\
         kw: summary of the wait:\n\
         \x20 not ready:\n\
         \x20   deployment.apps/ship: failed: Progress deadline exceeded\n\
         error: --fail-on failed met by deployment.apps/ship (Progress deadline exceeded)"
    );
}

/// `--for all` over a selector waits for every matching Deployment, and a named one that does
/// not exist yet is waited for; a failed one among several fails the run at once.
#[test]
fn ready_works_over_selectors_and_objects_not_created_yet() {
    let cluster = Cluster::seeded();
    cluster
        .sim
        .create("deployments", rolled_out("ship-api"))
        .unwrap();
    cluster
        .sim
        .create("deployments", mid_rollout("ship"))
        .unwrap();
    let mut live = Live::spawn(&mut cluster.get(&[
        "deploy",
        "-l",
        "tier=ready-test",
        "--until",
        "ready",
        "--timeout",
        "20s",
        "-o",
        "name",
    ]));
    // Each named once it is ready: ship-api when listed, ship at the end.
    assert_eq!(
        live.lines_until(LIMIT, |_| true),
        ["deployment.apps/ship-api"]
    );
    live.wait_for_stderr(
        "kw: deployment.apps/ship: in progress: Updated: 1/3\n",
        LIMIT,
    );
    still_running(&mut live);
    cluster
        .sim
        .update("deployments", rolled_out("ship"))
        .unwrap();
    let (code, rest, stderr) = live.finish(LIMIT);
    assert_eq!(code, Some(0), "{stderr}");
    assert_eq!(rest, ["deployment.apps/ship"], "{stderr}");
    assert!(
        stderr.contains("--until ready met by all 2 objects"),
        "{stderr}"
    );

    let mut live = Live::spawn(&mut cluster.get(&[
        "deploy/ship-later",
        "--until",
        "ready",
        "--timeout",
        "20s",
        "-o",
        "name",
    ]));
    // Nothing to touch yet: the watch shows kw judged the (empty) list.
    still_waiting_on_watches(&mut live, &cluster, 1);
    cluster
        .sim
        .create("deployments", mid_rollout("ship-later"))
        .unwrap();
    live.wait_for_stderr(
        "kw: deployment.apps/ship-later: in progress: Updated: 1/3\n",
        LIMIT,
    );
    still_running(&mut live);
    cluster
        .sim
        .update("deployments", rolled_out("ship-later"))
        .unwrap();
    let (code, _, stderr) = live.finish(LIMIT);
    assert_eq!(code, Some(0), "{stderr}");
    assert!(
        stderr.starts_with("kw: deploy"),
        "the missing object is announced: {stderr}"
    );

    cluster
        .sim
        .create(
            "deployments",
            deployment("ship-stuck", 0, "ProgressDeadlineExceeded"),
        )
        .unwrap();
    let out = run(
        cluster.get(&[
            "deploy",
            "-l",
            "tier=ready-test",
            "--until",
            "ready",
            "--fail-on",
            "failed",
            "--timeout",
            "20s",
            "-o",
            "name",
        ]),
        LIMIT,
    );
    assert_eq!(out.code, Some(2), "{}", out.stderr);
    assert!(
        out.stderr.contains(
            "--fail-on failed met by deployment.apps/ship-stuck (Progress deadline exceeded)"
        ),
        "{}",
        out.stderr
    );
}

/// Several types at once over the seeded world, each kind by its own rules: rolled-out
/// Deployments and ReplicaSets, Services (ClusterIP and a LoadBalancer with its address), bound
/// claims and ConfigMaps are ready; its crash-looping Pod fails a wait over Pods.
#[test]
fn several_kinds_are_judged_each_by_its_own_rules() {
    let cluster = Cluster::seeded();
    let out = run(
        cluster.get(&[
            "deploy,rs,svc,pvc,cm",
            "-A",
            "--until",
            "ready",
            "--fail-on",
            "failed",
            "--timeout",
            "20s",
            "-o",
            "name",
        ]),
        LIMIT,
    );
    assert_eq!(out.code, Some(0), "{}", out.stderr);
    let objects = out.stdout.lines().count();
    assert!(objects > 10, "{}", out.stdout);
    assert_eq!(
        out.stderr.trim_end(),
        format!("kw: --until ready met by all {objects} objects")
    );

    // --quiet: only the ending.
    let out = run(
        cluster.get(&[
            "pods",
            "-A",
            "--until",
            "ready",
            "--fail-on",
            "failed",
            "--quiet",
            "--fail-grace",
            "0",
            "--timeout",
            "20s",
            "-o",
            "name",
        ]),
        LIMIT,
    );
    assert_eq!(out.code, Some(2), "{}", out.stderr);
    // The Pod's own Warning events may come before the verdict (see tests/it/cause.rs). A
    // watched Pod gets --fail-grace as a Deployment's Pod does (tests/it/verdict.rs): 0 here.
    let verdict = out.stderr.lines().last().unwrap_or_default();
    assert!(
        verdict.starts_with(
            "error: --fail-on failed met by pod/flaky-worker (CrashLoopBackOff (worker): back-off "
        ),
        "{}",
        out.stderr
    );
}

#[test]
fn readiness_words_on_the_wrong_flag_are_usage_errors() {
    let cluster = Cluster::seeded();
    for (args, message) in [
        (
            ["--until", "redy"],
            "--until \"redy\": unknown condition; did you mean \"ready\"? (use ready, delete, \
             create, condition=NAME[=VALUE] or jsonpath='{.PATH}'[=VALUE])",
        ),
        (
            ["--fail-on", "condtion=Failed"],
            "--fail-on \"condtion=Failed\": unknown condition; did you mean \"condition=Failed\"? \
             (use failed, delete, create, condition=NAME[=VALUE] or jsonpath='{.PATH}'[=VALUE])",
        ),
        (
            ["--until", "banana"],
            "--until \"banana\": unknown condition (use ready, delete, create, \
             condition=NAME[=VALUE] or jsonpath='{.PATH}'[=VALUE])",
        ),
        (
            ["--fail-on", "ready"],
            "--fail-on \"ready\": ready is a word for --until (use --until ready, or --fail-on failed)",
        ),
        (
            ["--until", "failed"],
            "--until \"failed\": failed is a word for --fail-on (use --fail-on failed, or --until ready)",
        ),
    ] {
        let out = run(cluster.get(&["deploy", args[0], args[1]]), LIMIT);
        assert_eq!(out.code, Some(1), "{args:?}: {}", out.stderr);
        assert_eq!(out.stderr.trim_end(), format!("error: {message}"), "{args:?}");
        assert!(out.stdout.is_empty());
    }
}

/// `kw wait --for` keeps kubectl's line for a condition it does not know, and says on a line of
/// kw's own what it was one slip away from.
#[test]
fn a_mistyped_for_keeps_kubectls_line_and_gets_a_hint() {
    let cluster = Cluster::seeded();
    let mut wait = cluster.kw();
    wait.args([
        "wait",
        "--for=condtion=Ready",
        "pod/init-demo",
        "--kubeconfig",
    ])
    .arg(&cluster.kubeconfig);
    let out = run(wait, LIMIT);
    assert_eq!(out.code, Some(1), "{}", out.stderr);
    assert_eq!(
        out.stderr,
        "kw: did you mean --for=condition=Ready?\nerror: unrecognized condition: \"condtion=Ready\"\n"
    );
}

/// Play a rollout in the sim at 100 ms a step.
fn play(cluster: &Cluster, plot: kw_sim::rollout::Plot, name: &str) {
    let mut rollout = kw_sim::rollout::Rollout::new(plot, "default", name);
    rollout.beat = Duration::from_millis(100);
    cluster.sim.play_rollout(&rollout).expect("rollout plays");
}

fn wait_ready(cluster: &Cluster, target: &str) -> Live {
    Live::spawn(&mut cluster.get(&[
        target,
        "--until",
        "ready",
        "--fail-on",
        "failed",
        "--timeout",
        "20s",
        "-o",
        "name",
    ]))
}

/// The sim's rollouts, acted out as a control plane writes them, end each wait as CI needs:
/// 0 once rolled out, 2 on a missing image (the deadline) and on a crash loop.
#[test]
fn the_sims_rollouts_end_the_wait_as_ci_needs() {
    use kw_sim::rollout::Plot;
    let cluster = Cluster::seeded();

    let live = wait_ready(&cluster, "deploy/roll-ok");
    play(&cluster, Plot::Completes, "roll-ok");
    let (code, _, stderr) = live.finish(LIMIT);
    assert_eq!(code, Some(0), "{stderr}");
    assert!(
        stderr.ends_with(
            "kw: --until ready met by deployment.apps/roll-ok (Deployment is available. Replicas: 3)\n"
        ),
        "{stderr}"
    );

    let live = wait_ready(&cluster, "deploy/roll-pull");
    play(&cluster, Plot::ImagePull, "roll-pull");
    let (code, _, stderr) = live.finish(LIMIT);
    assert_eq!(code, Some(2), "{stderr}");
    // The verdict names the stuck Pods' cause beside the Deployment's own.
    let verdict = stderr.lines().last().unwrap_or_default();
    assert!(
        verdict.starts_with(
            "error: --fail-on failed met by deployment.apps/roll-pull (Progress deadline exceeded; pod/roll-pull-"
        ) && verdict.ends_with(": ImagePullBackOff (web): Back-off pulling image \"nginx:1.99-missing\")"),
        "{stderr}"
    );
    assert!(
        stderr.contains("kw: deployment.apps/roll-pull: in progress: Available: 0/3\n"),
        "{stderr}"
    );

    play(&cluster, Plot::CrashLoop, "roll-crash");
    let out = run(
        cluster.get(&[
            "pods",
            "-l",
            "app=roll-crash",
            "--until",
            "ready",
            "--fail-on",
            "failed",
            "--fail-grace",
            "0",
            "--timeout",
            "20s",
            "-o",
            "name",
        ]),
        LIMIT,
    );
    assert_eq!(out.code, Some(2), "{}", out.stderr);
    assert!(
        out.stderr.contains(" (CrashLoopBackOff (web): back-off "),
        "{}",
        out.stderr
    );
}

/// kubedog's hang: a Pod the scheduler cannot place. It fails once unschedulable for longer
/// than the window (15 s), judged again without a change to the Pod (here at a bookmark),
/// long before the timeout.
#[test]
fn an_unschedulable_pod_fails_after_the_window_not_at_the_timeout() {
    let cluster = Cluster::start(kw_sim::SimConfig {
        bookmark_interval: Duration::from_millis(300),
        ..kw_sim::SimConfig::default()
    });
    // Unschedulable since 13 s ago (real time: kw judges against its own clock; the
    // timestamp's whole seconds may add up to one more).
    let since = std::time::SystemTime::now() - Duration::from_secs(13);
    cluster
        .sim
        .create(
            "pods",
            json!({
                "apiVersion": "v1", "kind": "Pod",
                "metadata": {"name": "big", "namespace": "default",
                             "creationTimestamp": humantime::format_rfc3339_seconds(since).to_string()},
                "spec": {"containers": [{"name": "big", "image": "nginx",
                                         "resources": {"requests": {"cpu": "64"}}}]},
                "status": {"phase": "Pending", "conditions": [{
                    "type": "PodScheduled", "status": "False", "reason": "Unschedulable",
                    "message": "0/3 nodes are available: 3 Insufficient cpu."}]}
            }),
        )
        .unwrap();
    let started = Instant::now();
    let out = run(
        cluster.get(&[
            "pod/big",
            "--until",
            "ready",
            "--fail-on",
            "failed",
            "--timeout",
            "30s",
            "-o",
            "name",
        ]),
        Duration::from_secs(40),
    );
    assert_eq!(out.code, Some(2), "{}", out.stderr);
    assert!(
        started.elapsed() < Duration::from_secs(25),
        "ended by the timeout"
    );
    assert_eq!(
        out.stderr.trim_end(),
        "kw: pod/big: in progress: Pod has not been scheduled yet: 0/3 nodes are available: 3 Insufficient cpu.\n\
         kw: pod/big: failed: Pod could not be scheduled: 0/3 nodes are available: 3 Insufficient cpu.\n\
         kw: summary of the wait:\n\
         \x20 not ready:\n\
         \x20   pod/big: failed: Pod could not be scheduled: 0/3 nodes are available: 3 Insufficient cpu.\n\
         error: --fail-on failed met by pod/big \
         (Pod could not be scheduled: 0/3 nodes are available: 3 Insufficient cpu.)"
    );
}

/// `-f` over several kinds: a ConfigMap and a Service are ready at once, and a running Job keeps
/// the wait going until it completes; a Job past its backoff limit fails the wait.
#[test]
fn a_manifest_waits_for_its_job_and_a_failed_job_fails_it() {
    use kw_sim::rollout::Plot;
    let cluster = Cluster::seeded();
    cluster
        .sim
        .create(
            "configmaps",
            json!({"metadata": {"name": "ship-config", "namespace": "default"},
                   "data": {"mode": "ci"}}),
        )
        .unwrap();
    cluster
        .sim
        .create(
            "services",
            json!({"metadata": {"name": "ship", "namespace": "default"},
                   "spec": {"type": "ClusterIP", "clusterIP": "10.96.0.77",
                            "ports": [{"port": 80}]}}),
        )
        .unwrap();
    let manifest = "\
apiVersion: v1
kind: ConfigMap
metadata: {name: ship-config}
---
apiVersion: v1
kind: Service
metadata: {name: ship}
---
apiVersion: batch/v1
kind: Job
metadata: {name: migrate}
";
    let path = cluster.dir.path().join("app.yaml");
    std::fs::write(&path, manifest).unwrap();
    let path = path.to_str().unwrap().to_string();
    let mut live = Live::spawn(&mut cluster.get(&[
        "-f",
        &path,
        "--until",
        "ready",
        "--fail-on",
        "failed",
        "--timeout",
        "20s",
        "-o",
        "name",
    ]));
    // The configmap and the service are ready and named at once (each type is listed on its
    // own, in either order); kw says it waits for the Job.
    let mut named = live.lines_until(LIMIT, |_| true);
    named.extend(live.lines_until(LIMIT, |_| true));
    named.sort();
    assert_eq!(named, ["configmap/ship-config", "service/ship"]);
    live.wait_for_stderr(
        "kw: job.batch/migrate does not exist yet; waiting for it to be created\n",
        LIMIT,
    );
    still_running(&mut live);
    play(&cluster, Plot::JobCompletes, "migrate");
    let (code, _, stderr) = live.finish(LIMIT);
    assert_eq!(code, Some(0), "{stderr}");
    assert!(
        stderr.contains("kw: job.batch/migrate: in progress: Job in progress. Succeeded: 0/1"),
        "{stderr}"
    );
    assert!(
        stderr.ends_with("kw: --until ready met by all 3 objects\n"),
        "{stderr}"
    );

    let live = wait_ready(&cluster, "job/broken");
    play(&cluster, Plot::JobFails, "broken");
    let (code, _, stderr) = live.finish(LIMIT);
    assert_eq!(code, Some(2), "{stderr}");
    // The Job's own reason, and its failed Pod's: the container and its exit code.
    let verdict = stderr.lines().last().unwrap_or_default();
    assert!(
        verdict.starts_with(
            "error: --fail-on failed met by job.batch/broken \
             (Job has failed: Job has reached the specified backoff limit; pod/broken-"
        ) && verdict.ends_with(": Error (web): exit code 1)"),
        "{stderr}"
    );
}

/// A rollout that completes while kw is cut off, its history compacted: the re-list brings the
/// new state, and the judgement follows it.
#[test]
fn ready_survives_dropped_connections_and_relists() {
    let cluster = Cluster::seeded();
    cluster
        .sim
        .create("deployments", mid_rollout("ship"))
        .unwrap();
    let mut live = wait_ready(&cluster, "deploy/ship");
    live.wait_for_stderr(
        "kw: deployment.apps/ship: in progress: Updated: 1/3\n",
        LIMIT,
    );
    cluster.sim.set_faults(kw_sim::Faults {
        watch_status: Some(503),
        ..kw_sim::Faults::default()
    });
    cluster.sim.drop_connections();
    cluster
        .sim
        .update("deployments", deployment("ship", 2, "ReplicaSetUpdated"))
        .unwrap();
    cluster
        .sim
        .update("deployments", rolled_out("ship"))
        .unwrap();
    cluster.sim.compact();
    // kw has come back and been refused twice since the cut (the counts outlive set_faults):
    // it knows nothing new, and must not judge.
    harness::wait_for("two refused watches", LIMIT, || {
        cluster.sim.faults_fired().watches_refused >= 2
    });
    still_running(&mut live);
    cluster.sim.set_faults(kw_sim::Faults::default());
    let (code, _, stderr) = live.finish(LIMIT);
    assert_eq!(code, Some(0), "{stderr}");
    assert!(
        stderr.contains("kw: deployment.apps/ship: ready: Deployment is available. Replicas: 3\n"),
        "{stderr}"
    );
}
