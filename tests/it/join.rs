//! The join matrix (issue 29): every `kw sim --rollout` story, with kw started at its start and
//! joining it later (once the trouble has begun, and once the story has ended), and with the
//! initial lists of Pods and ReplicaSets served in either order. Wherever kw joins, the verdict
//! (exit code), the cause and the summary's facts (crashed containers, exit codes, log lines)
//! are those it gives when it watched from the start.

use std::collections::BTreeSet;
use std::time::Duration;

use kw_sim::rollout::{Plot, Rollout};
use serde_json::Value;

use crate::harness::{wait_for, Cluster, Live};

/// How long one kw run may take: the stories last a few seconds at this beat.
const LIMIT: Duration = Duration::from_secs(20);
/// How long a story may take to reach a step.
const STEP_LIMIT: Duration = Duration::from_secs(15);
const BEAT: Duration = Duration::from_millis(100);

/// The beat and `--fail-grace` a story is played at. The two that come good (issue 55) look
/// stuck for 10 and 12 beats and tell why a beat in (the throttled pull's message, the
/// autoscaler's event): at 300 ms a beat their trouble outlasts a 2 s grace by a second or
/// more, so a kw that judged them stuck would fail them, while the autoscaler's event may come
/// 1.7 s late on a loaded machine before the grace could run out on it.
fn pace(plot: Plot) -> (Duration, &'static str) {
    match plot {
        Plot::ScaleUp | Plot::ThrottledPull => (Duration::from_millis(300), "2s"),
        _ => (BEAT, "1s"),
    }
}

/// Where in the story kw starts.
#[derive(Debug, Clone, Copy)]
enum Join {
    /// Before the objects exist.
    Start,
    /// Once the trouble has begun (the first Pod stuck or failed; a Pod ready for a story
    /// that completes).
    Trouble,
    /// Once the story has ended (deadline exceeded, Job failed, rollout complete).
    End,
}

/// What a run said, reduced to what must not depend on when kw joined.
#[derive(Debug, PartialEq, Eq)]
struct Facts {
    code: Option<i32>,
    /// Which of the story's cause phrases stderr says.
    causes: Vec<(&'static str, bool)>,
    /// The summary's crashed containers, without the Pod's name (`container web:
    /// CrashLoopBackOff (exit code 1)`).
    crashed: BTreeSet<String>,
    /// The log lines the summary quotes.
    logs: BTreeSet<String>,
    /// The Pod-level cause the final `error:` line names (`ImagePullBackOff (web)`), if any.
    cause: Option<String>,
}

/// The Pod-level cause in the final `error:` line: what follows its `pod/NAME: `, up to the
/// reason's message (whose back-off delay depends on when the story was read). The kubelet
/// says one missing image as `ErrImagePull` and `ImagePullBackOff` in turn: which one the
/// verdict caught depends on the moment, so both read as the latter.
fn verdict_cause(stderr: &str) -> Option<String> {
    let verdict = stderr.lines().rfind(|l| l.starts_with("error: "))?;
    let verdict = verdict.strip_suffix(')').unwrap_or(verdict);
    let at = verdict.rfind("pod/")?;
    let (_, cause) = verdict[at..].split_once(": ")?;
    let reason = cause.split(": ").next().unwrap_or(cause);
    Some(reason.replace("ErrImagePull", "ImagePullBackOff"))
}

fn causes_of(plot: Plot) -> &'static [&'static str] {
    match plot {
        Plot::Completes | Plot::JobCompletes => &[],
        Plot::ImagePull => &["Failed to pull image \"nginx:1.99-missing\""],
        Plot::CrashLoop => &[
            "CrashLoopBackOff",
            "Back-off restarting failed container web",
        ],
        Plot::JobFails => &["BackoffLimitExceeded"],
        // They come good: what they said while stuck depends on when kw joined.
        Plot::ScaleUp | Plot::ThrottledPull => &[],
        // Told by the workload's status alone: no Pods, no causes.
        Plot::RollingUpdate | Plot::DaemonSet | Plot::Partitioned | Plot::OnDelete => &[],
    }
}

fn kind_and_name(plot: Plot) -> (&'static str, &'static str) {
    match plot {
        Plot::Completes => ("deploy", "done"),
        Plot::ImagePull => ("deploy", "pull"),
        Plot::CrashLoop => ("deploy", "crash"),
        Plot::JobCompletes => ("job", "migrate"),
        Plot::JobFails => ("job", "broken"),
        Plot::RollingUpdate => ("deploy", "update"),
        Plot::DaemonSet => ("ds", "agent"),
        Plot::Partitioned | Plot::OnDelete => ("sts", "db"),
        Plot::ScaleUp => ("deploy", "scale"),
        Plot::ThrottledPull => ("deploy", "throttled"),
    }
}

fn facts(plot: Plot, code: Option<i32>, stderr: &str) -> Facts {
    let summary = stderr
        .find("kw: summary of the wait:\n")
        .map_or("", |at| &stderr[at..]);
    Facts {
        code,
        causes: causes_of(plot)
            .iter()
            .map(|cause| (*cause, stderr.contains(cause)))
            .collect(),
        crashed: summary
            .lines()
            .filter(|l| l.starts_with("  pod/"))
            // `pod/x, -y (2 Pods) container web: ...`: what follows the Pods' names.
            .filter_map(|l| l.find(" container ").map(|at| l[at + 1..].to_string()))
            // `container web: CrashLoopBackOff (exit code 1)`: the state word is the container's
            // at the moment of the verdict (between two back-offs it is `Error`), so the fact
            // kept is which container crashed and with what exit code.
            .map(
                |rest| match (rest.split_once(": "), rest.rfind(" (exit code ")) {
                    (Some((container, _)), Some(at)) => format!("{container}:{}", &rest[at..]),
                    _ => rest,
                },
            )
            .collect(),
        logs: summary
            .lines()
            .filter_map(|l| l.strip_prefix("    | "))
            // The attempt a log was written by depends on when the story was read.
            .map(|l| l.split(" (attempt ").next().unwrap_or(l).to_string())
            .collect(),
        cause: verdict_cause(stderr),
    }
}

/// Whether the story has reached `join` in the sim's objects.
fn reached(cluster: &Cluster, plot: Plot, join: Join) -> bool {
    let (_, name) = kind_and_name(plot);
    let waiting = |reason: &str| {
        cluster.sim.objects("pods").iter().any(|p| {
            p["metadata"]["name"]
                .as_str()
                .unwrap_or("")
                .starts_with(name)
                && p["status"]["containerStatuses"][0]["state"]["waiting"]["reason"] == reason
        })
    };
    let pod_phase = |phase: &str| {
        cluster.sim.objects("pods").iter().any(|p| {
            p["metadata"]["name"]
                .as_str()
                .unwrap_or("")
                .starts_with(name)
                && p["status"]["phase"] == phase
        })
    };
    let condition = |resource: &str, kind: &str, reason: &str| {
        cluster.sim.objects(resource).iter().any(|o: &Value| {
            o["metadata"]["name"] == name
                && o["status"]["conditions"]
                    .as_array()
                    .into_iter()
                    .flatten()
                    // Progressing is False once the deadline passed: the reason tells.
                    .any(|c| c["type"] == kind && c["reason"] == reason)
        })
    };
    match (plot, join) {
        (_, Join::Start) => true,
        (Plot::Completes, Join::Trouble) => cluster.sim.objects("pods").iter().any(|p| {
            p["metadata"]["name"]
                .as_str()
                .unwrap_or("")
                .starts_with(name)
                && p["status"]["containerStatuses"][0]["ready"] == true
        }),
        (Plot::Completes, Join::End) => {
            condition("deployments", "Progressing", "NewReplicaSetAvailable")
        }
        (Plot::ImagePull, Join::Trouble) => waiting("ImagePullBackOff"),
        (Plot::ImagePull, Join::End) => {
            condition("deployments", "Progressing", "ProgressDeadlineExceeded")
        }
        (Plot::CrashLoop, Join::Trouble) => waiting("CrashLoopBackOff"),
        // The story's last crash: every Pod has restarted several times.
        (Plot::CrashLoop, Join::End) => cluster.sim.objects("pods").iter().any(|p| {
            p["metadata"]["name"]
                .as_str()
                .unwrap_or("")
                .starts_with(name)
                && p["status"]["containerStatuses"][0]["restartCount"]
                    .as_u64()
                    .is_some_and(|n| n >= 3)
        }),
        (Plot::JobCompletes, Join::Trouble) => pod_phase("Running") || pod_phase("Succeeded"),
        (Plot::JobCompletes, Join::End) => condition("jobs", "Complete", "CompletionsReached"),
        (Plot::JobFails, Join::Trouble) => pod_phase("Failed"),
        (Plot::JobFails, Join::End) => condition("jobs", "Failed", "BackoffLimitExceeded"),
        (Plot::ScaleUp, Join::Trouble) => cluster.sim.objects("pods").iter().any(|p| {
            p["metadata"]["name"]
                .as_str()
                .unwrap_or("")
                .starts_with(name)
                && p["status"]["conditions"][0]["reason"] == "Unschedulable"
        }),
        (Plot::ThrottledPull, Join::Trouble) => waiting("ErrImagePull"),
        (Plot::ScaleUp | Plot::ThrottledPull, Join::End) => {
            condition("deployments", "Progressing", "NewReplicaSetAvailable")
        }
        // Not in the join matrix: these stories have no Pods to join at.
        (Plot::RollingUpdate | Plot::DaemonSet | Plot::Partitioned | Plot::OnDelete, _) => true,
    }
}

/// Play `plot` on a fresh sim, start kw at `join` (with the lists of `slow` held back, to
/// force the order the initial lists arrive in), and reduce what it said to its facts.
fn run(plot: Plot, join: Join, slow: &[&str]) -> (Facts, String) {
    run_with(plot, join, slow, &[])
}

/// `run`, with `more` flags for kw (`-q`).
fn run_with(plot: Plot, join: Join, slow: &[&str], more: &[&str]) -> (Facts, String) {
    let cluster = Cluster::seeded();
    if !slow.is_empty() {
        cluster.sim.set_faults(kw_sim::Faults {
            slow_lists: slow.iter().map(|s| s.to_string()).collect(),
            slow_list_ms: 400,
            ..kw_sim::Faults::default()
        });
    }
    let (kind, name) = kind_and_name(plot);
    let target = format!("{kind}/{name}");
    let (beat, grace) = pace(plot);
    let args = [
        target.as_str(),
        "--until",
        "ready",
        "--fail-on",
        "failed",
        "--fail-grace",
        grace,
        "--timeout",
        "15s",
        "-o",
        "name",
    ];
    let args: Vec<&str> = args.iter().chain(more).copied().collect();
    let mut rollout = Rollout::new(plot, "default", name);
    rollout.beat = beat;
    let live = match join {
        Join::Start => {
            let live = Live::spawn(&mut cluster.get(&args));
            cluster.sim.play_rollout(&rollout).expect("rollout plays");
            live
        }
        _ => {
            cluster.sim.play_rollout(&rollout).expect("rollout plays");
            wait_for(&format!("{plot:?} to reach {join:?}"), STEP_LIMIT, || {
                reached(&cluster, plot, join)
            });
            Live::spawn(&mut cluster.get(&args))
        }
    };
    let (code, _, stderr) = live.finish(LIMIT);
    // `finish` kills kw at LIMIT: a code is what says it ended on its own.
    assert!(code.is_some(), "kw did not end within {LIMIT:?}: {stderr}");
    let facts = facts(plot, code, &stderr);
    // The matrix's cell, for `--nocapture`.
    eprintln!("join matrix: {plot:?} at {join:?} {more:?}, {slow:?} listed last: {facts:?}");
    (facts, stderr)
}

/// The story watched from the start, then joined later: the same facts each time.
fn matrix(plot: Plot, expected_code: i32) {
    let (from_start, stderr) = run(plot, Join::Start, &[]);
    assert_eq!(from_start.code, Some(expected_code), "{stderr}");
    assert!(
        from_start.causes.iter().all(|(_, said)| *said),
        "{from_start:?}\n{stderr}"
    );
    for join in [Join::Trouble, Join::End] {
        let (joined, stderr) = run(plot, join, &[]);
        assert_eq!(joined, from_start, "{plot:?} joined at {join:?}:\n{stderr}");
        // `-q` says only the verdict: its exit code and the cause its `error:` line names
        // are the same as ever.
        let (quiet, stderr) = run_with(plot, join, &[], &["-q"]);
        assert_eq!(
            (quiet.code, &quiet.cause),
            (from_start.code, &from_start.cause),
            "{plot:?} joined at {join:?} with -q:\n{stderr}"
        );
    }
}

#[test]
fn a_rollout_that_completes_is_ready_wherever_kw_joins() {
    matrix(Plot::Completes, 0);
}

/// Pods that look stuck while the cluster works on them (issue 55) are progress wherever kw
/// joins: the rollout is ready, never failed by the grace its trouble outlasts (`pace`).
#[test]
fn a_scale_up_comes_good_wherever_kw_joins() {
    matrix(Plot::ScaleUp, 0);
}

/// The registry's 429s, read from the Pods' own messages, outlast the grace as well.
#[test]
fn a_throttled_pull_comes_good_wherever_kw_joins() {
    matrix(Plot::ThrottledPull, 0);
}

#[test]
fn an_image_pull_tells_the_missing_image_wherever_kw_joins() {
    let (from_start, stderr) = run(Plot::ImagePull, Join::Start, &[]);
    // The Pods' cause, not only the Deployment's `Progress deadline exceeded` (issue 29.2).
    assert_eq!(
        from_start.cause.as_deref(),
        Some("ImagePullBackOff (web)"),
        "{stderr}"
    );
    matrix(Plot::ImagePull, 2);
}

/// Issue 29 as reported: joined once the image-pull rollout passed its progress deadline, the
/// verdict is reached on the first list, before the Pods' lists; its `error:` line (`-q` too)
/// and the summary's failed line name the Pods' cause beside the Deployment's own.
#[test]
fn a_deadline_passed_before_kw_joined_names_the_pods_cause() {
    for more in [&[][..], &["-q"][..]] {
        let (facts, stderr) = run_with(Plot::ImagePull, Join::End, &["pods"], more);
        assert_eq!(facts.code, Some(2), "{stderr}");
        let verdict = stderr.lines().last().unwrap_or_default();
        assert!(
            verdict.starts_with(
                "error: --fail-on failed met by deployment.apps/pull (Progress deadline exceeded; pod/pull-"
            ) && verdict.ends_with(
                ": ImagePullBackOff (web): Back-off pulling image \"nginx:1.99-missing\")"
            ),
            "{more:?}:\n{stderr}"
        );
        if more.is_empty() {
            // The block names the failed object once, with its own reason, and the Pods'
            // cause once, on the line of the three Pods it holds for.
            let failed = "    deployment.apps/pull: failed: Progress deadline exceeded";
            assert!(stderr.lines().any(|l| l == failed), "{stderr}");
            let pods =
                "(3 Pods): ImagePullBackOff (web): Back-off pulling image \"nginx:1.99-missing\"";
            assert_eq!(
                stderr
                    .lines()
                    .filter(|l| l.starts_with("      pod/pull-") && l.ends_with(pods))
                    .count(),
                1,
                "{stderr}"
            );
        }
    }
}

#[test]
fn a_crash_loop_tells_its_crashes_and_log_wherever_kw_joins() {
    let (from_start, _) = run(Plot::CrashLoop, Join::Start, &[]);
    assert!(
        from_start.crashed.contains("container web: (exit code 1)"),
        "{from_start:?}"
    );
    assert!(from_start.logs.contains("exit status 1"), "{from_start:?}");
    matrix(Plot::CrashLoop, 2);
}

#[test]
fn a_job_that_completes_is_ready_wherever_kw_joins() {
    matrix(Plot::JobCompletes, 0);
}

#[test]
fn a_failed_job_tells_its_failed_pods_wherever_kw_joins() {
    let (from_start, _) = run(Plot::JobFails, Join::Start, &[]);
    assert!(
        from_start.crashed.contains("container web: (exit code 1)"),
        "{from_start:?}"
    );
    // The error line names a failed Pod's container beside the Job's own reason.
    assert_eq!(
        from_start.cause.as_deref(),
        Some("Error (web)"),
        "{from_start:?}"
    );
    matrix(Plot::JobFails, 2);
}

/// A crash loop under way when kw starts, its Pods' list served before its ReplicaSets' or
/// after: the Pods are seen as crashed either way (the owner graph does not depend on order).
#[test]
fn a_crash_loop_joined_late_is_told_whichever_list_comes_first() {
    let (from_start, _) = run(Plot::CrashLoop, Join::Start, &[]);
    for slow in [["replicasets"], ["pods"]] {
        let (joined, stderr) = run(Plot::CrashLoop, Join::End, &slow);
        assert_eq!(joined, from_start, "{slow:?} listed last:\n{stderr}");
    }
}

/// Issue 29.1 as reported: a Deployment → ReplicaSet (written by hand, without the
/// `deployment.kubernetes.io/revision` annotation) → Pod already in `CrashLoopBackOff` with
/// exit code 2 when kw starts, the Pods listed before the ReplicaSets or after. With the
/// default grace the wait times out (exit 3), and the summary names the crashed container and
/// its exit code either way; with a short grace the crash fails it (exit 2).
#[test]
fn a_crash_loop_under_way_by_hand_is_seen_as_one_in_either_order() {
    for slow in ["replicasets", "pods"] {
        for (grace, expected) in [(None, 3), (Some("1s"), 2)] {
            let cluster = Cluster::seeded();
            crash_looping_by_hand(&cluster, "worker");
            cluster.sim.set_faults(kw_sim::Faults {
                slow_lists: vec![slow.to_string()],
                slow_list_ms: 400,
                ..kw_sim::Faults::default()
            });
            let mut args = vec![
                "deploy/worker",
                "--until",
                "ready",
                "--fail-on",
                "failed",
                "--timeout",
                "3s",
            ];
            if let Some(grace) = grace {
                args.extend(["--fail-grace", grace]);
            }
            let (code, _, stderr) = Live::spawn(&mut cluster.get(&args)).finish(LIMIT);
            let said = format!("{slow} listed last, grace {grace:?}:\n{stderr}");
            assert_eq!(code, Some(expected), "{said}");
            let summary = &stderr[stderr.find("kw: summary of the wait:\n").expect(&said)..];
            assert!(
                summary.contains(
                    "\n  pod/worker-5f7d-a container web: CrashLoopBackOff (exit code 2)\n"
                ),
                "{said}"
            );
            if expected == 2 {
                assert!(
                    summary.contains("(pod/worker-5f7d-a: CrashLoopBackOff (web): back-off"),
                    "{said}"
                );
            }
        }
    }
}

fn crash_looping_by_hand(cluster: &Cluster, name: &str) {
    let deployment = cluster
        .sim
        .create(
            "deployments",
            serde_json::json!({
                "apiVersion": "apps/v1", "kind": "Deployment",
                "metadata": {"name": name, "namespace": "default", "generation": 1},
                "spec": {"replicas": 1, "selector": {"matchLabels": {"app": name}},
                         "template": {"metadata": {"labels": {"app": name}},
                                      "spec": {"containers": [{"name": "web", "image": "web:2"}]}}},
                "status": {"observedGeneration": 1, "replicas": 1, "updatedReplicas": 1,
                           "unavailableReplicas": 1,
                           "conditions": [{"type": "Progressing", "status": "True",
                                           "reason": "ReplicaSetUpdated"}]}
            }),
        )
        .expect("deployment created");
    let owner = |kind: &str, of: &Value| {
        serde_json::json!([{"apiVersion": "apps/v1", "kind": kind, "controller": true,
                            "name": of["metadata"]["name"], "uid": of["metadata"]["uid"]}])
    };
    let rs = cluster
        .sim
        .create(
            "replicasets",
            serde_json::json!({
                "apiVersion": "apps/v1", "kind": "ReplicaSet",
                "metadata": {"name": format!("{name}-5f7d"), "namespace": "default",
                             "labels": {"app": name},
                             "ownerReferences": owner("Deployment", &deployment)},
                "spec": {"replicas": 1, "selector": {"matchLabels": {"app": name}}},
                "status": {"replicas": 1}
            }),
        )
        .expect("replicaset created");
    cluster
        .sim
        .create(
            "pods",
            serde_json::json!({
                "apiVersion": "v1", "kind": "Pod",
                "metadata": {"name": format!("{name}-5f7d-a"), "namespace": "default",
                             "labels": {"app": name},
                             "ownerReferences": owner("ReplicaSet", &rs)},
                "spec": {"containers": [{"name": "web", "image": "web:2"}]},
                "status": {"phase": "Running",
                           "containerStatuses": [{"name": "web", "ready": false, "restartCount": 4,
                               "state": {"waiting": {"reason": "CrashLoopBackOff",
                                   "message": "back-off 1m20s restarting failed container=web"}},
                               "lastState": {"terminated": {"exitCode": 2, "reason": "Error"}}}]}
            }),
        )
        .expect("pod created");
}
