//! One verdict, one summary (issue 41): the same story tells the same cause through every verb
//! that can ask for it (`get --until ready --fail-on failed`, `rollout status`, `wait` on the
//! workload with kubectl's condition, `wait` on its Pods), wherever kw joins it (at the start,
//! once the trouble has begun, once the story has ended) and in every view (`-q`, `-o name`;
//! every cell has a `--timeout`). In every cell the cause's
//! facts are said (a Pod of the story, its container, the reason, the Warning event's message
//! with the image, the crashed container's last log line), no stderr line is said twice, the
//! kubelet's Pod uids never reach stderr, and stdout never names as met an object stderr blames.

use std::time::Duration;

use kw_sim::rollout::{Plot, Rollout};
use serde_json::Value;

use crate::harness::{wait_for, Cluster, Live};

/// How long one kw run may take: the stories last a few seconds at this beat, and every
/// verb's `--timeout` is shorter.
const LIMIT: Duration = Duration::from_secs(30);
const STEP_LIMIT: Duration = Duration::from_secs(15);
const BEAT: Duration = Duration::from_millis(100);

#[derive(Debug, Clone, Copy)]
enum Verb {
    GetUntil,
    RolloutStatus,
    /// `kw wait --for=condition=Available deploy/x` (`Complete` for a Job).
    WaitWorkload,
    /// `kw wait --for=condition=Ready pod -l app=x`.
    WaitPods,
}

#[derive(Debug, Clone, Copy, PartialEq)]
enum Join {
    Start,
    /// Once the trouble has begun: a Pod stuck, or failed.
    Trouble,
    /// Once the story has ended: the Deployment past its deadline, the Job failed, the crash
    /// loop's Pods restarted three times.
    End,
}

#[derive(Debug, Clone, Copy)]
enum Mode {
    Plain,
    Quiet,
    Name,
}

fn name(plot: Plot) -> &'static str {
    match plot {
        Plot::ImagePull => "pull",
        Plot::CrashLoop => "crash",
        _ => "broken",
    }
}

fn args(plot: Plot, verb: Verb, mode: Mode) -> Vec<String> {
    let name = name(plot);
    let (kind, condition, selector) = match plot {
        Plot::JobFails => ("job", "Complete", format!("job-name={name}")),
        _ => ("deploy", "Available", format!("app={name}")),
    };
    let target = format!("{kind}/{name}");
    let mut args: Vec<String> = match verb {
        Verb::GetUntil => vec![
            "get",
            &target,
            "--until",
            "ready",
            "--fail-on",
            "failed",
            "--fail-grace",
            "1s",
            "--timeout",
            "15s",
        ]
        .into_iter()
        .map(String::from)
        .collect(),
        Verb::RolloutStatus => ["rollout", "status", &target, "--fail-grace", "1s"]
            .into_iter()
            .map(String::from)
            .chain(["--timeout".into(), "15s".into()])
            .collect(),
        Verb::WaitWorkload => vec![
            "wait".to_string(),
            format!("--for=condition={condition}"),
            target,
            "--timeout=6s".into(),
        ],
        Verb::WaitPods => vec![
            "wait".to_string(),
            "--for=condition=Ready".into(),
            "pod".into(),
            "-l".into(),
            selector,
            "--timeout=6s".into(),
        ],
    };
    match mode {
        Mode::Plain => {}
        Mode::Quiet => args.push("-q".into()),
        Mode::Name => args.extend(["-o".into(), "name".into()]),
    }
    args
}

/// Whether the story has reached `join` in the sim's objects.
fn reached(cluster: &Cluster, plot: Plot, join: Join) -> bool {
    if join == Join::Start {
        return true;
    }
    if join == Join::End {
        let ended = |resource: &str, kind: &str, reason: &str| {
            cluster.sim.objects(resource).iter().any(|o: &Value| {
                o["metadata"]["name"] == name(plot)
                    && o["status"]["conditions"]
                        .as_array()
                        .into_iter()
                        .flatten()
                        .any(|c| c["type"] == kind && c["reason"] == reason)
            })
        };
        return match plot {
            Plot::ImagePull => ended("deployments", "Progressing", "ProgressDeadlineExceeded"),
            Plot::JobFails => ended("jobs", "Failed", "BackoffLimitExceeded"),
            _ => cluster.sim.objects("pods").iter().any(|pod: &Value| {
                pod["metadata"]["name"]
                    .as_str()
                    .is_some_and(|n| n.starts_with(&format!("{}-", name(plot))))
                    && pod["status"]["containerStatuses"][0]["restartCount"]
                        .as_u64()
                        .is_some_and(|n| n >= 3)
            }),
        };
    }
    let prefix = format!("{}-", name(plot));
    cluster.sim.objects("pods").iter().any(|pod: &Value| {
        let status = &pod["status"]["containerStatuses"][0];
        pod["metadata"]["name"]
            .as_str()
            .is_some_and(|n| n.starts_with(&prefix))
            && match plot {
                Plot::ImagePull => status["state"]["waiting"]["reason"] == "ImagePullBackOff",
                Plot::CrashLoop => status["state"]["waiting"]["reason"] == "CrashLoopBackOff",
                _ => pod["status"]["phase"] == "Failed",
            }
    })
}

/// The facts of the story's cause that every cell must say on stderr.
fn facts(plot: Plot) -> Vec<String> {
    let pod = format!("pod/{}-", name(plot));
    match plot {
        Plot::ImagePull => vec![
            pod,
            // `ImagePullBackOff (web)` of a workload's Pod, `web (ImagePullBackOff)` of a
            // Pod's own judgement: the container and the reason, side by side.
            "web".into(),
            "ImagePullBackOff".into(),
            "Failed to pull image \"nginx:1.99-missing\"".into(),
        ],
        _ => vec![
            pod,
            "container web".into(),
            match plot {
                Plot::CrashLoop => "CrashLoopBackOff".into(),
                _ => "(exit code 1)".into(),
            },
            "    | error: config key \"listen\" is missing".into(),
        ],
    }
}

fn cell(plot: Plot, verb: Verb, join: Join, mode: Mode) {
    let cluster = Cluster::seeded();
    let mut rollout = Rollout::new(plot, "default", name(plot));
    rollout.beat = BEAT;
    let args = args(plot, verb, mode);
    let mut command = cluster.kw();
    command
        .args(&args)
        .arg("--kubeconfig")
        .arg(&cluster.kubeconfig);
    let live = match join {
        Join::Start => {
            // kw joins as soon as the story's workload exists: its thread writes it, and a
            // named verb started before that is refused NotFound (exit 6, as kubectl's 1).
            cluster.sim.play_rollout(&rollout).expect("rollout plays");
            let resource = match plot {
                Plot::JobFails => "jobs",
                _ => "deployments",
            };
            wait_for(
                &format!("{plot:?}'s {resource} to exist"),
                STEP_LIMIT,
                || {
                    cluster
                        .sim
                        .objects(resource)
                        .iter()
                        .any(|o| o["metadata"]["name"] == name(plot))
                },
            );
            Live::spawn(&mut command)
        }
        Join::Trouble | Join::End => {
            cluster.sim.play_rollout(&rollout).expect("rollout plays");
            wait_for(&format!("{plot:?} to reach {join:?}"), STEP_LIMIT, || {
                reached(&cluster, plot, join)
            });
            Live::spawn(&mut command)
        }
    };
    let (code, stdout, stderr) = live.finish(LIMIT);
    let cell = format!(
        "{plot:?} × {verb:?} × {join:?} × {mode:?}: kw {}",
        args.join(" ")
    );
    eprintln!("one-summary matrix: {cell}: exit {code:?}");
    // The verdict: failed (2) where kw decides, timed out (3) under kubectl's conditions.
    let expected = match verb {
        Verb::GetUntil | Verb::RolloutStatus => 2,
        Verb::WaitWorkload | Verb::WaitPods => 3,
    };
    assert_eq!(code, Some(expected), "{cell}\n{stderr}");
    assert!(
        stderr.contains("kw: summary of the wait:\n"),
        "{cell}: no summary\n{stderr}"
    );
    for fact in facts(plot) {
        assert!(
            stderr.contains(&fact),
            "{cell}: {fact:?} is not said\n{stderr}"
        );
    }
    let mut seen = std::collections::HashSet::new();
    for line in stderr.lines() {
        assert!(seen.insert(line), "{cell}: said twice: {line}\n{stderr}");
    }
    // The kubelet's `pod=NAME_NAMESPACE(uid)` and `in pod NAME_NAMESPACE(uid)`.
    assert!(!stderr.contains("_default("), "{cell}: a Pod uid\n{stderr}");
    // Nothing stdout says met is blamed on stderr.
    for line in &stdout {
        let object = line.trim_end_matches(" condition met");
        assert!(
            !stderr.contains(&format!("    {object}: ")),
            "{cell}: {object} met and blamed\n{stderr}"
        );
    }
}

fn every_verb(plot: Plot, verbs: &[Verb]) {
    for verb in verbs {
        // Before its Pods exist, a selector matches nothing: kubectl's `wait` fails at once
        // (`no matching resources found`), and so does kw's; the Pods are joined once there.
        let joins: &[Join] = match verb {
            Verb::WaitPods => &[Join::Trouble, Join::End],
            _ => &[Join::Start, Join::Trouble, Join::End],
        };
        for join in joins {
            cell(plot, *verb, *join, Mode::Plain);
        }
        let modes: &[Mode] = match verb {
            // kubectl's `rollout status` has neither `-q` nor `-o`.
            Verb::RolloutStatus => &[],
            _ => &[Mode::Quiet, Mode::Name],
        };
        for mode in modes {
            cell(plot, *verb, Join::Trouble, *mode);
        }
    }
}

#[test]
fn an_image_pull_names_the_image_through_every_verb() {
    every_verb(
        Plot::ImagePull,
        &[Verb::GetUntil, Verb::RolloutStatus, Verb::WaitWorkload],
    );
}

#[test]
fn an_image_pull_names_the_image_waiting_on_the_pods() {
    every_verb(Plot::ImagePull, &[Verb::WaitPods]);
}

#[test]
fn a_crash_loop_shows_the_log_through_every_verb() {
    every_verb(
        Plot::CrashLoop,
        &[Verb::GetUntil, Verb::RolloutStatus, Verb::WaitWorkload],
    );
}

#[test]
fn a_crash_loop_shows_the_log_waiting_on_the_pods() {
    every_verb(Plot::CrashLoop, &[Verb::WaitPods]);
}

#[test]
fn a_failed_job_shows_the_log_through_every_verb() {
    every_verb(
        Plot::JobFails,
        &[Verb::GetUntil, Verb::RolloutStatus, Verb::WaitWorkload],
    );
}

#[test]
fn a_failed_job_shows_the_log_waiting_on_the_pods() {
    every_verb(Plot::JobFails, &[Verb::WaitPods]);
}

/// `kw wait --for=condition=Available deployment --all -A` on a namespace where one rollout
/// cannot pull its image and another crash-loops: stdout and kubectl's `error:` lines are
/// kubectl's own (kubectl waits on the objects in turn, so once its deadline has passed on one,
/// it names every later one as timed out, and never as met); kw's summary then names only the
/// two that really did not meet the condition.
#[test]
fn stdout_and_stderr_agree_with_kubectl_when_a_wait_over_all_times_out() {
    let cluster = Cluster::seeded();
    for plot in [Plot::ImagePull, Plot::CrashLoop] {
        let mut rollout = Rollout::new(plot, "default", name(plot));
        rollout.beat = BEAT;
        cluster.sim.play_rollout(&rollout).expect("rollout plays");
        wait_for(&format!("{plot:?} to begin"), STEP_LIMIT, || {
            reached(&cluster, plot, Join::Trouble)
        });
    }
    let args = [
        "wait",
        "--for=condition=Available",
        "deployment",
        "--all",
        "-A",
        "--timeout=3s",
        "--kubeconfig",
    ];
    let mut kw = cluster.kw();
    kw.args(args).arg(&cluster.kubeconfig);
    let kw = crate::harness::run(kw, LIMIT);
    let mut kubectl = crate::harness::tools::command(crate::harness::kubectl());
    kubectl
        .args(args)
        .arg(&cluster.kubeconfig)
        .env(
            "HOME",
            cluster
                .kubeconfig
                .parent()
                .expect("the kubeconfig's directory"),
        )
        .env_remove("KUBECONFIG");
    let kubectl = crate::harness::run(kubectl, LIMIT);
    assert_eq!(kw.code, Some(3), "{}", kw.stderr);
    assert_eq!(kubectl.code, Some(1), "{}", kubectl.stderr);
    assert_eq!(kw.stdout, kubectl.stdout, "stdout\n{}", kw.stderr);
    let kubectls_lines = |stderr: &str| -> Vec<String> {
        stderr
            .lines()
            .filter(|l| l.starts_with("timed out waiting") || l.starts_with("error: "))
            .map(String::from)
            .collect()
    };
    assert_eq!(
        kubectls_lines(&kw.stderr),
        kubectls_lines(&kubectl.stderr),
        "{}",
        kw.stderr
    );
    let summary = &kw.stderr[kw
        .stderr
        .find("kw: summary of the wait:\n")
        .expect(&kw.stderr)..];
    let blamed: Vec<&str> = summary
        .lines()
        .filter(|l| l.starts_with("    deployment.apps/"))
        .map(|l| l.trim().split(':').next().unwrap_or_default())
        .collect();
    assert_eq!(
        blamed,
        ["deployment.apps/crash", "deployment.apps/pull"],
        "{summary}"
    );
}
