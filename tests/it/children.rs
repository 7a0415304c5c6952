//! Children that fail, and the summary of a failed wait. Under `--fail-on failed` a Pod of a
//! workload's current revision stuck in `CrashLoopBackOff`, `ImagePullBackOff`,
//! `CreateContainerConfigError`... fails the workload once stuck for `--fail-grace`, judged on
//! time by the runner's timer (no event needed); old-revision Pods never do. On exit 2 or 3 one
//! block on stderr lists what was not ready, its last Warning events, and each crashed
//! container's exit code and the end of its previous log (one request per container).

use std::time::Duration;

use serde_json::{json, Value};

use crate::harness::{Cluster, Live};

const LIMIT: Duration = Duration::from_secs(30);

fn wait(cluster: &Cluster, target: &str, grace: &str, timeout: &str) -> Live {
    Live::spawn(&mut cluster.get(&[
        target,
        "--until",
        "ready",
        "--fail-on",
        "failed",
        "--fail-grace",
        grace,
        "--timeout",
        timeout,
        "-o",
        "name",
    ]))
}

fn play(cluster: &Cluster, plot: kw_sim::rollout::Plot, name: &str, beat: Duration) {
    let mut rollout = kw_sim::rollout::Rollout::new(plot, "default", name);
    rollout.beat = beat;
    cluster.sim.play_rollout(&rollout).expect("rollout plays");
}

fn log_requests(cluster: &Cluster) -> Vec<String> {
    cluster
        .sim
        .requests()
        .into_iter()
        .filter(|r| r.path.contains("/log?"))
        .map(|r| r.path)
        .collect()
}

#[test]
fn a_crash_loop_fails_after_the_grace_with_exit_codes_and_logs_in_the_summary() {
    use kw_sim::rollout::Plot;
    let cluster = Cluster::seeded();
    // The grace counts across a crash loop's running spells (shorter than the grace), so it
    // ends within the second back-off (0.8 s to 1.6 s after the first), when every Pod waits.
    let live = wait(&cluster, "deploy/crash", "1200ms", "25s");
    play(
        &cluster,
        Plot::CrashLoop,
        "crash",
        Duration::from_millis(400),
    );
    let (code, _, stderr) = live.finish(LIMIT);
    assert_eq!(code, Some(2), "{stderr}");
    let verdict = stderr.lines().last().unwrap_or_default();
    assert!(
        verdict.starts_with("error: --fail-on failed met by deployment.apps/crash (pod/crash-")
            && verdict.contains(": CrashLoopBackOff (web): back-off "),
        "{stderr}"
    );
    let summary = &stderr[stderr.find("kw: summary of the wait:\n").expect(&stderr)..];
    // The object that failed is said once in the block, its Pods' cause once under it, on
    // the line of the three Pods it holds for.
    assert!(
        summary.contains(
            "\n  not ready:\n    deployment.apps/crash: failed: its Pods are stuck\n      pod/crash-"
        ),
        "{summary}"
    );
    // Each cause once: the back-off on one line for the Pods in it at the verdict (a Pod
    // between two back-offs is running), the kubelet's words for it at most once.
    assert_eq!(
        summary
            .matches(": CrashLoopBackOff (web): back-off restarting failed container=web\n")
            .count(),
        1,
        "{summary}"
    );
    assert!(
        summary
            .matches("Warning BackOff: Back-off restarting failed container web")
            .count()
            <= 1,
        "{summary}"
    );
    // Every crashed container: its exit code and the end of its previous log, those that
    // ended alike on one line.
    let crashed: usize = summary
        .lines()
        .filter(|l| l.starts_with("  pod/crash-") && l.ends_with(" (exit code 1)"))
        .filter(|l| l.contains(" container web: "))
        .map(|l| {
            l.split_once(" Pods) ")
                .and_then(|(names, _)| names.rsplit_once(" (")?.1.parse().ok())
                .unwrap_or(1)
        })
        .sum();
    assert_eq!(crashed, 3, "{summary}");
    // Each log shown once: Pods that printed the same log share it (`summary_logs`).
    let shown = summary
        .matches("    | error: config key \"listen\" is missing\n")
        .count();
    assert!((1..=3).contains(&shown), "{summary}");
    assert_eq!(
        summary.matches("    | exit status 1\n").count(),
        shown,
        "{summary}"
    );
    // One request per crashed container, for its previous log's last 20 lines.
    let logs = log_requests(&cluster);
    assert_eq!(logs.len(), 3, "{logs:?}");
    assert!(
        logs.iter()
            .all(|p| p.starts_with("/api/v1/namespaces/default/pods/crash-")
                && p.ends_with("/log?container=web&previous=true&tailLines=20")),
        "{logs:?}"
    );
}

/// With a grace of 0 the first `CrashLoopBackOff` fails the wait: the kubelet's first
/// back-off (10 s) is the one named, not a later one.
#[test]
fn a_grace_of_zero_fails_at_the_first_crash_loop() {
    use kw_sim::rollout::Plot;
    let cluster = Cluster::seeded();
    let live = wait(&cluster, "deploy/crash0", "0", "25s");
    play(
        &cluster,
        Plot::CrashLoop,
        "crash0",
        Duration::from_millis(300),
    );
    let (code, _, stderr) = live.finish(LIMIT);
    assert_eq!(code, Some(2), "{stderr}");
    let verdict = stderr.lines().last().unwrap_or_default();
    assert!(
        verdict.contains(": CrashLoopBackOff (web): back-off restarting failed container=web"),
        "{stderr}"
    );
}

/// A missing image fails the wait within the grace, naming the Pod, long before the
/// Deployment's own progress deadline.
#[test]
fn an_image_pull_fails_within_the_grace_naming_the_pod() {
    use kw_sim::rollout::Plot;
    let cluster = Cluster::seeded();
    let live = wait(&cluster, "deploy/pull", "1s", "25s");
    play(
        &cluster,
        Plot::ImagePull,
        "pull",
        Duration::from_millis(700),
    );
    let (code, _, stderr) = live.finish(LIMIT);
    assert_eq!(code, Some(2), "{stderr}");
    let verdict = stderr.lines().last().unwrap_or_default();
    assert!(
        verdict.starts_with("error: --fail-on failed met by deployment.apps/pull (pod/pull-")
            && (verdict.contains(": ErrImagePull (web): ")
                || verdict.contains(": ImagePullBackOff (web): ")),
        "{stderr}"
    );
    assert!(!stderr.contains("Progress deadline exceeded"), "{stderr}");
    assert!(
        stderr.contains(": Warning Failed: Failed to pull image \"nginx:1.99-missing\""),
        "{stderr}"
    );
}

/// A Deployment mid-rollout, its ReplicaSets (`revision`), and Pods owned by them; `waiting`
/// is the reason the new Pod's container waits for.
fn deployment_with_pods(cluster: &Cluster, name: &str, new_pod_waiting: Option<&str>) {
    let deployment = cluster
        .sim
        .create(
            "deployments",
            json!({
                "apiVersion": "apps/v1", "kind": "Deployment",
                "metadata": {"name": name, "namespace": "default", "generation": 2},
                "spec": {"replicas": 1, "selector": {"matchLabels": {"app": name}},
                         "template": {"metadata": {"labels": {"app": name}},
                                      "spec": {"containers": [{"name": "web", "image": "web:2"}]}}},
                "status": {"observedGeneration": 2, "replicas": 2, "updatedReplicas": 1,
                           "readyReplicas": 1, "availableReplicas": 1,
                           "conditions": [{"type": "Progressing", "status": "True",
                                           "reason": "ReplicaSetUpdated"}]}
            }),
        )
        .expect("deployment created");
    let owner = |kind: &str, of: &Value| {
        json!([{"apiVersion": "apps/v1", "kind": kind, "controller": true,
                "name": of["metadata"]["name"], "uid": of["metadata"]["uid"]}])
    };
    for (revision, hash) in [(1, "old1"), (2, "new2")] {
        let rs = cluster
            .sim
            .create(
                "replicasets",
                json!({
                    "apiVersion": "apps/v1", "kind": "ReplicaSet",
                    "metadata": {"name": format!("{name}-{hash}"), "namespace": "default",
                                 "labels": {"app": name, "pod-template-hash": hash},
                                 "annotations": {"deployment.kubernetes.io/revision": revision.to_string()},
                                 "ownerReferences": owner("Deployment", &deployment)},
                    "spec": {"replicas": 1, "selector": {"matchLabels": {"app": name}}},
                    "status": {"replicas": 1}
                }),
            )
            .expect("replicaset created");
        // The old revision's Pod is the stuck one unless the new one is given a reason.
        let waiting = match (revision, new_pod_waiting) {
            (2, Some(reason)) => Some(reason),
            (1, None) => Some("ImagePullBackOff"),
            _ => None,
        };
        let state = match waiting {
            Some(reason) => json!({"waiting": {"reason": reason,
                                                "message": format!("{reason} for {name}")}}),
            None => json!({"running": {"startedAt": "2026-01-01T11:00:00Z"}}),
        };
        cluster
            .sim
            .create(
                "pods",
                json!({
                    "apiVersion": "v1", "kind": "Pod",
                    "metadata": {"name": format!("{name}-{hash}-a"), "namespace": "default",
                                 "labels": {"app": name, "pod-template-hash": hash},
                                 "ownerReferences": owner("ReplicaSet", &rs)},
                    "spec": {"containers": [{"name": "web", "image": "web"}]},
                    "status": {"phase": if waiting.is_some() { "Pending" } else { "Running" },
                               "containerStatuses": [{"name": "web", "ready": waiting.is_none(),
                                                      "restartCount": 0, "state": state}]}
                }),
            )
            .expect("pod created");
    }
}

/// kubedog's hang: `CreateContainerConfigError` (a missing ConfigMap key) never ends on its
/// own; here it fails the wait once the grace is over, not at the timeout.
#[test]
fn create_container_config_error_fails_within_the_grace() {
    let cluster = Cluster::seeded();
    deployment_with_pods(&cluster, "conf", Some("CreateContainerConfigError"));
    let live = wait(&cluster, "deploy/conf", "1s", "25s");
    let (code, _, stderr) = live.finish(LIMIT);
    assert_eq!(code, Some(2), "{stderr}");
    assert_eq!(
        stderr.lines().last().unwrap_or_default(),
        "error: --fail-on failed met by deployment.apps/conf \
         (pod/conf-new2-a: CreateContainerConfigError (web): CreateContainerConfigError for conf)"
    );
    assert!(
        stderr.contains(
            "kw: deployment.apps/conf: failed: pod/conf-new2-a: CreateContainerConfigError (web)"
        ),
        "{stderr}"
    );
}

/// A stuck Pod of the old revision, being replaced, fails nothing: the wait runs to its
/// timeout (exit 3), and the summary names the Deployment and what it waits for.
#[test]
fn old_revision_pods_do_not_fail_the_wait() {
    let cluster = Cluster::seeded();
    deployment_with_pods(&cluster, "old", None);
    let live = wait(&cluster, "deploy/old", "0", "3s");
    let (code, _, stderr) = live.finish(LIMIT);
    assert_eq!(code, Some(3), "{stderr}");
    // All updated, and the old revision's replica still there (status.replicas 2 of 1): the
    // Deployment waits for it to go, whatever its Pod is stuck on.
    assert!(
        stderr.ends_with(
            "kw: summary of the wait:\n  not ready:\n    \
             deployment.apps/old: in progress: Pending termination: 1\n\
             error: timed out after 3s waiting for --until ready\n"
        ),
        "{stderr}"
    );
    assert!(!stderr.contains("failed"), "{stderr}");
    assert!(log_requests(&cluster).is_empty());
}

#[test]
fn a_bad_grace_is_a_usage_error() {
    let cluster = Cluster::seeded();
    let out = crate::harness::run(
        cluster.get(&[
            "deploy/x",
            "--until",
            "ready",
            "--fail-on",
            "failed",
            "--fail-grace",
            "soon",
        ]),
        LIMIT,
    );
    assert_eq!(out.code, Some(1), "{}", out.stderr);
    assert_eq!(
        out.stderr,
        "error: --fail-grace \"soon\" is not a duration such as 0, 30s or 2m\n"
    );
}
