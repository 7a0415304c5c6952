//! What a verdict says (issue 29, items 5 and 6): a watched Pod gets `--fail-grace` as a
//! workload's Pod does; while the grace runs, the pending failure is said once, with when it
//! falls; and the final `error:` line (`-q` too) names the stuck Pod's cause beside the
//! workload's own reason. Against the sim's rollout stories.

use std::time::{Duration, Instant};

use kw_sim::rollout::{Plot, Rollout};

use crate::harness::{Cluster, Live};

const LIMIT: Duration = Duration::from_secs(30);

fn play(cluster: &Cluster, plot: Plot, name: &str, beat: Duration) {
    let mut rollout = Rollout::new(plot, "default", name);
    rollout.beat = beat;
    cluster.sim.play_rollout(&rollout).expect("rollout plays");
}

/// `kw get TARGET --until ready --fail-on failed -o name` with `more` flags.
fn wait(cluster: &Cluster, target: &[&str], more: &[&str]) -> Live {
    let mut args: Vec<&str> = target.to_vec();
    args.extend(["--until", "ready", "--fail-on", "failed", "-o", "name"]);
    args.extend(more);
    Live::spawn(&mut cluster.get(&args))
}

/// A crash-looping Pod watched on its own is held to the grace: with the default 30 s it is
/// still in progress when a 5 s timeout ends the wait (it used to fail at its first back-off),
/// and the pending failure was said.
#[test]
fn a_watched_pod_in_crash_loop_gets_the_grace() {
    let cluster = Cluster::seeded();
    let live = wait(&cluster, &["pods", "-l", "app=held"], &["--timeout", "5s"]);
    play(
        &cluster,
        Plot::CrashLoop,
        "held",
        Duration::from_millis(100),
    );
    let (code, _, stderr) = live.finish(LIMIT);
    assert_eq!(code, Some(3), "{stderr}");
    assert!(
        stderr.contains(": in progress: Containers in CrashLoop state: web\n"),
        "{stderr}"
    );
    assert!(
        stderr.contains(": CrashLoopBackOff (web): back-off ")
            && stderr.contains("unless it recovers\n"),
        "{stderr}"
    );
    assert!(!stderr.contains("--fail-on failed met"), "{stderr}");

    // With a grace of 1 s it fails, after the grace, naming the container's state.
    let live = wait(
        &cluster,
        &["pods", "-l", "app=held1"],
        &["--fail-grace", "1s", "--timeout", "25s"],
    );
    play(
        &cluster,
        Plot::CrashLoop,
        "held1",
        Duration::from_millis(400),
    );
    let (code, _, stderr) = live.finish(LIMIT);
    assert_eq!(code, Some(2), "{stderr}");
    let verdict = stderr.lines().last().unwrap_or_default();
    assert!(
        verdict.starts_with("error: --fail-on failed met by pod/held1-")
            && verdict.contains(" (CrashLoopBackOff (web): back-off "),
        "{stderr}"
    );
}

/// Image-pull Pods watched on their own never fail by their own rules (they wait); under
/// `--fail-on failed` they fail once stuck for the grace, and each says its pending failure
/// exactly once, though its reason keeps changing (ErrImagePull, ImagePullBackOff).
#[test]
fn the_pending_failure_is_said_once_then_falls_after_the_grace() {
    let cluster = Cluster::seeded();
    let started = Instant::now();
    let live = wait(
        &cluster,
        &["pods", "-l", "app=pull"],
        &["--fail-grace", "2s", "--timeout", "25s"],
    );
    play(
        &cluster,
        Plot::ImagePull,
        "pull",
        Duration::from_millis(300),
    );
    let (code, _, stderr) = live.finish(LIMIT);
    let elapsed = started.elapsed();
    assert_eq!(code, Some(2), "{stderr}");
    let pending: Vec<&str> = stderr
        .lines()
        .filter(|l| l.ends_with("; failing in 2s unless it recovers"))
        .collect();
    let mut pods: Vec<&str> = pending
        .iter()
        .map(|l| l.split(':').nth(1).unwrap_or_default().trim())
        .collect();
    pods.sort_unstable();
    pods.dedup();
    assert_eq!(pods.len(), pending.len(), "once per Pod: {stderr}");
    assert!(!pending.is_empty(), "{stderr}");
    assert!(
        pending
            .iter()
            .all(|l| l.starts_with("kw: pod/pull-") && l.contains(": ErrImagePull (web): ")),
        "{stderr}"
    );
    let verdict = stderr.lines().last().unwrap_or_default();
    assert!(
        verdict.starts_with("error: --fail-on failed met by pod/pull-")
            && verdict.ends_with(
                " (ImagePullBackOff (web): Back-off pulling image \"nginx:1.99-missing\")"
            ),
        "{stderr}"
    );
    assert!(elapsed >= Duration::from_secs(2), "{elapsed:?}");
    // The failure comes after the pending line, never before the grace.
    let said = stderr.find("unless it recovers").unwrap_or(usize::MAX);
    let failed = stderr.find(": failed: ").unwrap_or(0);
    assert!(said < failed, "{stderr}");
}

/// `-q`: no progress lines, and the one `error:` line names the Pods' cause beside the
/// Deployment's own (`Progress deadline exceeded`); without `-q` the summary's failed line
/// says the same, and the pending failure was said once for the Deployment.
#[test]
fn the_verdict_names_the_pods_cause_even_with_quiet() {
    let cluster = Cluster::seeded();
    let quiet = wait(&cluster, &["deploy/ipq"], &["-q", "--timeout", "25s"]);
    let loud = wait(&cluster, &["deploy/ipq"], &["--timeout", "25s"]);
    play(&cluster, Plot::ImagePull, "ipq", Duration::from_millis(200));
    let (code, _, stderr) = quiet.finish(LIMIT);
    assert_eq!(code, Some(2), "{stderr}");
    // Started before the rollout, kw may say once that the Deployment does not exist yet.
    let lines: Vec<&str> = stderr
        .lines()
        .filter(|l| {
            *l != "kw: deployment.apps/ipq does not exist yet; waiting for it to be created"
        })
        .collect();
    // `-q` says nothing as it waits: the block of the cause, then the verdict, last.
    assert!(
        lines
            .iter()
            .all(|l| !l.starts_with("kw: ") || *l == "kw: summary of the wait:"),
        "{stderr}"
    );
    let verdict = lines.last().copied().unwrap_or_default();
    let cause = ": ImagePullBackOff (web): Back-off pulling image \"nginx:1.99-missing\")";
    assert!(
        verdict.starts_with(
            "error: --fail-on failed met by deployment.apps/ipq (Progress deadline exceeded; pod/ipq-"
        ) && verdict.ends_with(cause),
        "{stderr}"
    );

    let (code, _, stderr) = loud.finish(LIMIT);
    assert_eq!(code, Some(2), "{stderr}");
    let failed = stderr
        .lines()
        .find(|l| l.starts_with("    deployment.apps/ipq: failed: "))
        .unwrap_or_default();
    // Its own reason on its line; its Pods' cause once, on the line under it.
    assert_eq!(
        failed, "    deployment.apps/ipq: failed: Progress deadline exceeded",
        "{stderr}"
    );
    assert!(
        stderr.lines().any(|l| l.starts_with("      pod/ipq-")
            && l.ends_with(&format!(" (3 Pods){}", &cause[..cause.len() - 1]))),
        "{stderr}"
    );
    let pending = stderr
        .lines()
        .filter(|l| l.ends_with("; failing in 30s unless it recovers"))
        .count();
    assert_eq!(pending, 1, "{stderr}");
    assert!(
        stderr.contains("\nkw: deployment.apps/ipq: pod/ipq-"),
        "{stderr}"
    );
}

/// Issue 29.7: the CI recipe `--until ready -o name` prints the Deployment once, when it is
/// ready, as kubectl wait does, however many events its rollout makes; `-w` given prints every
/// event, as a watch does.
#[test]
fn name_under_until_prints_each_object_once() {
    let cluster = Cluster::seeded();
    let once = wait(&cluster, &["deploy/once"], &["--timeout", "25s"]);
    let every = wait(&cluster, &["deploy/once"], &["--timeout", "25s", "-w"]);
    play(
        &cluster,
        Plot::Completes,
        "once",
        Duration::from_millis(100),
    );
    let (code, stdout, stderr) = once.finish(LIMIT);
    assert_eq!(code, Some(0), "{stderr}");
    assert_eq!(stdout, ["deployment.apps/once"], "{stderr}");
    let (code, stdout, stderr) = every.finish(LIMIT);
    assert_eq!(code, Some(0), "{stderr}");
    assert!(stdout.len() > 1, "{stdout:?}");
    assert!(
        stdout.iter().all(|l| l == "deployment.apps/once"),
        "{stdout:?}"
    );
}
