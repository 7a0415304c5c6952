//! Never failing what would have succeeded (issue 55): a rollout whose Pods look stuck while
//! the cluster is still working on them (`kw sim --rollout scale-up`, `throttled-pull`) is
//! progress for `--fail-on failed`, however short the grace; the same flags fail a rollout that
//! cannot come good (the missing image).

use std::time::Duration;

use kw_sim::rollout::{Plot, Rollout};
use kw_sim::SimConfig;

use crate::harness::{run, Cluster, Outcome};

const LIMIT: Duration = Duration::from_secs(40);

/// `kw get deploy/shop --until ready --fail-on failed --fail-grace 1500ms` on `plot`, played
/// at 200 ms a beat: the Pods look stuck for 2.4 s or more, longer than the grace.
fn wait_on(plot: Plot) -> Outcome {
    let cluster = Cluster::start(SimConfig::default());
    let mut rollout = Rollout::new(plot, "default", "shop");
    rollout.beat = Duration::from_millis(200);
    cluster.sim.play_rollout(&rollout).expect("rollout plays");
    let mut kw = cluster.kw();
    kw.args([
        "get",
        "deploy/shop",
        "--until",
        "ready",
        "--fail-on",
        "failed",
        "--fail-grace",
        "1500ms",
        "-o",
        "name",
    ])
    .arg("--kubeconfig")
    .arg(&cluster.kubeconfig);
    run(kw, LIMIT)
}

#[test]
fn pods_waiting_for_the_autoscalers_node_are_progress_not_a_failure() {
    let outcome = wait_on(Plot::ScaleUp);
    assert_eq!(outcome.code, Some(0), "{}", outcome.stderr);
    assert_eq!(outcome.stdout, "deployment.apps/shop\n");
    assert!(
        outcome.stderr.contains("Warning FailedScheduling"),
        "the Pods were unschedulable while kw waited: {}",
        outcome.stderr
    );
}

#[test]
fn a_pull_the_registry_throttles_is_progress_not_a_failure() {
    let outcome = wait_on(Plot::ThrottledPull);
    assert_eq!(outcome.code, Some(0), "{}", outcome.stderr);
    assert_eq!(outcome.stdout, "deployment.apps/shop\n");
    assert!(
        outcome.stderr.contains("429 Too Many Requests"),
        "the pulls were refused while kw waited: {}",
        outcome.stderr
    );
}

/// The same flags on an image that does not exist: stuck for good, failed after the grace.
#[test]
fn a_missing_image_still_fails_after_the_grace() {
    let outcome = wait_on(Plot::ImagePull);
    assert_eq!(outcome.code, Some(2), "{}", outcome.stderr);
    assert!(
        outcome.stderr.contains("ImagePullBackOff") || outcome.stderr.contains("ErrImagePull"),
        "{}",
        outcome.stderr
    );
}
