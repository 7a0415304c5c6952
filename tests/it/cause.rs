//! Why a wait goes on, on stderr: while kw waits for `ready`/`failed`, each Warning event about
//! a waited-on object or one it owns (a Deployment's ReplicaSet and its Pods, followed through
//! ownerReferences) is said once, by auxiliary watches the run adds once it has seen the
//! object's namespace; never an event about an object the waited ones do not own, and nothing
//! with `--quiet`. stdout stays the events, in the chosen format.

use std::time::Duration;

use serde_json::{json, Value};

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

/// `--quiet` says nothing while the wait goes on; the verdict still comes with its cause, the
/// summary, whose Warning events the auxiliary watch of Events still gathers.
#[test]
fn quiet_keeps_stderr_to_the_verdict_and_its_cause() {
    let cluster = Cluster::seeded();
    let live = wait_for(&cluster, "quiet-shop", true);
    play(&cluster, "quiet-shop");
    let (code, _, stderr) = live.finish(LIMIT);
    assert_eq!(code, Some(2), "{stderr}");
    let (before, summary) = stderr
        .split_once("kw: summary of the wait:\n")
        .expect(&stderr);
    assert_eq!(before, "", "nothing before the summary with --quiet");
    assert!(
        summary.contains("Warning Failed: Failed to pull image \"nginx:1.99-missing\""),
        "{stderr}"
    );
    let verdict = stderr.lines().last().unwrap_or_default();
    assert!(
        verdict.starts_with("error: --fail-on failed met by deployment.apps/quiet-shop ("),
        "{stderr}"
    );
}

/// `kw demo` acts the rollouts out too, so the wait and its cause can be seen with nothing but
/// the binary; a plot it does not know is a usage error naming the flag.
#[test]
fn the_demo_plays_a_crash_loop_and_the_wait_says_why() {
    let tmp = tempfile::tempdir().unwrap();
    let demo = |args: &[&str]| {
        let mut cmd = crate::harness::tools::command(env!("CARGO_BIN_EXE_kw"));
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
    // It never became ready: `-o name` under `--until` never names it.
    assert_eq!(out.stdout, "", "{}", out.stderr);

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

/// Issue 31.3: a hostile server's huge Warning events about objects kw has not seen (held,
/// waiting for their owner) cost kw a bounded amount of memory, not their size; the oldest
/// are dropped, and that is said once; a huge message about the waited-on object is cut to a
/// readable length, on stderr and in the summary.
#[test]
fn huge_warning_events_are_held_within_a_bound_and_cut() {
    const EVENTS: usize = 48;
    const MESSAGE: usize = 256 << 10;
    let cluster = Cluster::seeded();
    let deployment = cluster
        .sim
        .create(
            "deployments",
            json!({
                "apiVersion": "apps/v1", "kind": "Deployment",
                "metadata": {"name": "hoard", "namespace": "default", "generation": 1},
                "spec": {"replicas": 1, "selector": {"matchLabels": {"app": "hoard"}},
                         "template": {"metadata": {"labels": {"app": "hoard"}},
                                      "spec": {"containers": [{"name": "web", "image": "web:2"}]}}},
                "status": {"observedGeneration": 1, "replicas": 1, "updatedReplicas": 1,
                           "unavailableReplicas": 1,
                           "conditions": [{"type": "Progressing", "status": "True",
                                           "reason": "ReplicaSetUpdated"}]}
            }),
        )
        .expect("deployment created");
    let warning = |name: String, about: Value, message: String| {
        cluster
            .sim
            .create(
                "events",
                json!({
                    "apiVersion": "v1", "kind": "Event",
                    "metadata": {"name": name, "namespace": "default"},
                    "type": "Warning", "reason": "Hoard", "message": message,
                    "involvedObject": about
                }),
            )
            .expect("event created");
    };
    let mut cmd = cluster.get(&[
        "deploy/hoard",
        "--until",
        "ready",
        "--timeout",
        "8s",
        "-o",
        "name",
    ]);
    let (code, peak_kib, stderr) = std::thread::scope(|scope| {
        let run = scope.spawn(|| crate::summary_logs::peak_memory_kib(&mut cmd, LIMIT));
        // Once kw watches the namespace's Warning events (its list is done), they come one by
        // one, each about a Pod that does not exist (yet).
        crate::harness::wait_for("kw to watch the events", LIMIT, || {
            cluster
                .sim
                .requests()
                .iter()
                .any(|r| r.path.contains("/events?") && r.path.contains("watch=1"))
        });
        for n in 0..EVENTS {
            let about = json!({"apiVersion": "v1", "kind": "Pod", "name": format!("ghost-{n}"),
                               "namespace": "default", "uid": format!("ghost-uid-{n}")});
            warning(
                format!("ghost.{n}"),
                about,
                format!("{n} ").repeat(MESSAGE / 3),
            );
        }
        // More than kw holds: the oldest go, and that is said once.
        for n in EVENTS..EVENTS + 300 {
            let about = json!({"apiVersion": "v1", "kind": "Pod", "name": format!("ghost-{n}"),
                               "namespace": "default", "uid": format!("ghost-uid-{n}")});
            warning(format!("ghost.{n}"), about, "not seen".into());
        }
        let about = json!({"apiVersion": "apps/v1", "kind": "Deployment", "name": "hoard",
                           "namespace": "default", "uid": deployment["metadata"]["uid"]});
        warning("hoard.1".into(), about, "y".repeat(MESSAGE));
        run.join().expect("kw run")
    });
    assert_eq!(code, Some(3), "{}", &stderr[..stderr.len().min(4000)]);
    eprintln!(
        "kw's peak RSS with {EVENTS} Warning events of {} KiB held: {} MiB",
        MESSAGE >> 10,
        peak_kib / 1024
    );
    // 36 MiB before the held events were bounded in bytes (their messages kept whole), 25 MiB
    // after (a debug build).
    assert!(
        peak_kib < 32 * 1024,
        "kw's peak RSS was {} MiB",
        peak_kib / 1024
    );
    // Said once as it came, once in the summary: each cut to 400 characters.
    let said: Vec<&str> = stderr
        .lines()
        .filter(|l| l.contains("Warning Hoard: yyy"))
        .collect();
    assert_eq!(said.len(), 2, "{}", &stderr[..stderr.len().min(4000)]);
    for line in said {
        let message = line.split("Warning Hoard: ").nth(1).unwrap_or_default();
        assert_eq!(message, format!("{}…", "y".repeat(400)));
    }
    let dropped = stderr
        .lines()
        .filter(|l| l.contains("the oldest are dropped"))
        .count();
    assert_eq!(dropped, 1, "{}", &stderr[..stderr.len().min(4000)]);
    assert!(
        stderr.len() < 64 << 10,
        "stderr holds {} bytes",
        stderr.len()
    );
}
