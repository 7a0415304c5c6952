//! Why a wait goes on, on stderr: while kw waits for `ready`/`failed`, each Warning event about
//! a waited-on object or one it owns (a Deployment's ReplicaSet and its Pods, followed through
//! ownerReferences) is said once, by auxiliary watches the run adds once it has seen the
//! object's namespace; never an event about an object the waited ones do not own, and nothing
//! with `--quiet`. stdout stays the events, in the chosen format.

use std::time::Duration;

use serde_json::json;

use crate::harness::{Cluster, Live};

const LIMIT: Duration = Duration::from_secs(30);

/// A Warning event about a Pod nobody waits on, in the same namespace.
fn unrelated_warning(cluster: &Cluster) {
    let pod = cluster
        .sim
        .create(
            "pods",
            json!({
                "apiVersion": "v1", "kind": "Pod",
                "metadata": {"name": "bystander", "namespace": "default"},
                "spec": {"containers": [{"name": "c", "image": "busybox"}]},
                "status": {"phase": "Pending"}
            }),
        )
        .expect("pod created");
    cluster
        .sim
        .create(
            "events",
            json!({
                "apiVersion": "v1", "kind": "Event",
                "metadata": {"name": "bystander.1", "namespace": "default"},
                "type": "Warning", "reason": "Unrelated", "message": "not about the rollout",
                "involvedObject": {"apiVersion": "v1", "kind": "Pod", "name": "bystander",
                                   "namespace": "default", "uid": pod["metadata"]["uid"]}
            }),
        )
        .expect("event created");
}

fn wait_for(cluster: &Cluster, name: &str, quiet: bool) -> Live {
    let target = format!("deploy/{name}");
    let mut args = vec![
        target.as_str(),
        "--until",
        "ready",
        "--fail-on",
        "failed",
        "--timeout",
        "25s",
        "-o",
        "name",
    ];
    if quiet {
        args.push("--quiet");
    }
    Live::spawn(&mut cluster.get(&args))
}

fn play(cluster: &Cluster, name: &str) {
    let mut rollout =
        kw_sim::rollout::Rollout::new(kw_sim::rollout::Plot::ImagePull, "default", name);
    rollout.beat = Duration::from_millis(100);
    cluster.sim.play_rollout(&rollout).expect("rollout plays");
}

#[test]
fn a_failing_rollout_says_its_pods_warnings_once_and_nobody_elses() {
    let cluster = Cluster::seeded();
    unrelated_warning(&cluster);
    let live = wait_for(&cluster, "shop", false);
    play(&cluster, "shop");
    let (code, stdout, stderr) = live.finish(LIMIT);
    assert_eq!(code, Some(2), "{stderr}");
    assert!(
        stdout.iter().all(|line| line == "deployment.apps/shop"),
        "stdout stays the events: {stdout:?}"
    );
    let warnings: Vec<&str> = stderr
        .lines()
        .filter(|l| l.contains(": Warning "))
        .collect();
    assert!(
        warnings.iter().any(|l| l.starts_with("kw: pod/shop-")
            && l.contains(": Warning Failed: Failed to pull image \"")),
        "{stderr}"
    );
    assert!(!stderr.contains("Unrelated"), "{stderr}");
    let mut seen = std::collections::HashSet::new();
    for line in &warnings {
        assert!(seen.insert(*line), "said twice: {line}\n{stderr}");
    }
    // One watch per type and namespace, however many events showed the namespace.
    let event_lists = cluster
        .sim
        .requests()
        .iter()
        .filter(|r| {
            r.path.starts_with("/api/v1/namespaces/default/events?")
                && r.path.contains("fieldSelector=type%3DWarning")
                && !r.path.contains("watch=")
        })
        .count();
    assert_eq!(event_lists, 1, "the Warning events were listed once");
}

#[test]
fn quiet_keeps_stderr_to_the_verdict() {
    let cluster = Cluster::seeded();
    let live = wait_for(&cluster, "quiet-shop", true);
    play(&cluster, "quiet-shop");
    let (code, _, stderr) = live.finish(LIMIT);
    assert_eq!(code, Some(2), "{stderr}");
    assert!(!stderr.contains(" Warning "), "{stderr}");
    assert!(
        !cluster
            .sim
            .requests()
            .iter()
            .any(|r| r.path.contains("/events")),
        "no watch of Events with --quiet"
    );
}

/// `kw demo` acts the rollouts out too, so the wait and its cause can be seen with nothing but
/// the binary; a plot it does not know is a usage error naming the flag.
#[test]
fn the_demo_plays_a_crash_loop_and_the_wait_says_why() {
    let tmp = tempfile::tempdir().unwrap();
    let demo = |args: &[&str]| {
        let mut cmd = std::process::Command::new(env!("CARGO_BIN_EXE_kw"));
        cmd.arg("demo")
            .args(args)
            .env("TMPDIR", tmp.path())
            .env("HOME", tmp.path())
            .env("NO_COLOR", "1")
            .env_remove("KUBECONFIG")
            .stdin(std::process::Stdio::null());
        crate::harness::run(cmd, LIMIT)
    };
    let out = demo(&[
        "--churn",
        "0.1",
        "--rollout",
        "crash-loop:shop",
        "--",
        "deploy/shop",
        "--until",
        "ready",
        "--fail-on",
        "failed",
        "--fail-grace",
        "0",
        "--timeout",
        "25s",
        "-o",
        "name",
    ]);
    assert_eq!(out.code, Some(2), "{}", out.stderr);
    assert!(out.stderr.contains("CrashLoopBackOff"), "{}", out.stderr);
    assert!(
        out.stdout.starts_with("deployment.apps/shop\n"),
        "{}",
        out.stdout
    );

    let bad = demo(&["--rollout", "imagepull:web"]);
    assert_eq!(bad.code, Some(1), "{}", bad.stderr);
    assert!(
        bad.stderr.starts_with(
            "error: invalid --rollout \"imagepull:web\": unknown rollout \"imagepull\""
        ),
        "{}",
        bad.stderr
    );
}
