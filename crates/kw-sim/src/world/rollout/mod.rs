//! Rollouts acted out as a control plane writes them: a new Deployment, its ReplicaSet (owned
//! by the Deployment), its Pods (owned by the ReplicaSet), and the Events the controllers, the
//! scheduler and the kubelet emit, step by step, at a pace of one `beat` per step. Three plots:
//!
//! - `completes`: the Pods are scheduled, pull the image, start and become ready one by one;
//!   the Deployment ends `NewReplicaSetAvailable` and `Available`.
//! - `image-pull`: the image does not exist. The Pods wait in `ErrImagePull` and
//!   `ImagePullBackOff` with the kubelet's Warning events, and the Deployment ends in
//!   `ProgressDeadlineExceeded` (its deadline is the plot's length, in whole seconds).
//! - `crash-loop`: the container starts and exits with code 1; the kubelet restarts it with a
//!   back-off that doubles each time (1, 2, 4, 8 beats), and the container's previous log is
//!   served at `pods/NAME/log?previous=true`.
//!
//! Four told by the workload's status alone (`sets`): `rolling-update` (a Deployment's new
//! template replacing its old replicas), `daemonset`, `partitioned` (a StatefulSet's update
//! held at a partition) and `on-delete` (a StatefulSet kubectl's `rollout status` refuses).
//!
//! Two that look stuck for a while, then complete (`recovering`): `scale-up` (Pods unschedulable
//! until the cluster autoscaler's new node joins) and `throttled-pull` (a registry that refuses
//! the first pulls for their rate).
//!
//! And two Jobs (`job`): `job-completes` (one Pod that runs and succeeds) and `job-fails` (Pods
//! that exit 1 until the backoff limit, then `FailureTarget` and `Failed` with
//! `BackoffLimitExceeded`), the Pods owned by the Job.
//!
//! [`script`] is pure: the whole story, dated from a start time. `server::drivers` plays it on
//! the store in a thread, like churn.

mod job;
mod plot;
mod recovering;
mod sets;
mod story;

use std::time::SystemTime;

use story::Story;

pub use plot::{parse, Cue, Plot, Rollout};

/// The whole story of `rollout`, dated from `start` (the store's clock when it begins).
pub fn script(rollout: &Rollout, seed: u64, start: SystemTime) -> Vec<Cue> {
    let mut story = Story::new(rollout, seed, start);
    match rollout.plot {
        Plot::JobCompletes | Plot::JobFails => {
            job::run(&mut story);
            return story.cues;
        }
        Plot::RollingUpdate => sets::rolling_update(&mut story),
        Plot::DaemonSet => sets::daemon_set(&mut story),
        Plot::Partitioned => sets::partitioned(&mut story),
        Plot::OnDelete => sets::on_delete(&mut story),
        Plot::Completes => {
            story.begin();
            story.complete()
        }
        Plot::ImagePull => {
            story.begin();
            story.fail_to_pull()
        }
        Plot::CrashLoop => {
            story.begin();
            story.crash_loop()
        }
        Plot::ScaleUp => recovering::scale_up(&mut story),
        Plot::ThrottledPull => recovering::throttled_pull(&mut story),
    }
    story.cues
}

/// What the tests of every plot read of a story.
#[cfg(test)]
mod reading {
    use super::Cue;

    /// The objects of `resource` a story writes, in order.
    pub(in crate::world::rollout) fn written<'a>(
        cues: &'a [Cue],
        resource: &str,
    ) -> Vec<&'a serde_json::Value> {
        use crate::world::churn::Mutation;
        cues.iter()
            .flat_map(|c| &c.mutations)
            .filter_map(|m| match m {
                Mutation::Create {
                    resource: r,
                    object,
                }
                | Mutation::Update {
                    resource: r,
                    object,
                } if *r == resource => Some(object),
                _ => None,
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::reading::written;
    use std::time::Duration;

    use serde_json::Value;

    use super::story::{CRASHES, PULL_ROUNDS};
    use super::*;
    use crate::world::churn::Mutation;

    fn story(plot: Plot) -> Vec<Cue> {
        let start = humantime::parse_rfc3339("2026-01-01T00:00:00Z").unwrap();
        script(&Rollout::new(plot, "default", "web"), 1, start)
    }

    fn last_deployment(cues: &[Cue]) -> Value {
        written(cues, "deployments")
            .pop()
            .cloned()
            .expect("a deployment")
    }

    #[test]
    fn a_completed_rollout_ends_available_with_every_replica_updated() {
        let cues = story(Plot::Completes);
        let deployment = last_deployment(&cues);
        assert_eq!(deployment["status"]["updatedReplicas"], 3);
        assert_eq!(deployment["status"]["availableReplicas"], 3);
        assert_eq!(
            deployment["status"]["conditions"][1]["reason"],
            "NewReplicaSetAvailable"
        );
        // Cues are in time order.
        assert!(cues.windows(2).all(|w| w[0].at <= w[1].at));
    }

    #[test]
    fn pods_are_owned_by_the_replicaset_and_it_by_the_deployment() {
        let cues = story(Plot::Completes);
        let deployment = last_deployment(&cues);
        let replicaset = written(&cues, "replicasets")[0];
        assert_eq!(
            replicaset["metadata"]["ownerReferences"][0]["uid"],
            deployment["metadata"]["uid"]
        );
        for pod in written(&cues, "pods") {
            assert_eq!(
                pod["metadata"]["ownerReferences"][0]["uid"],
                replicaset["metadata"]["uid"]
            );
        }
    }

    #[test]
    fn an_image_that_does_not_exist_ends_past_the_deadline_with_warnings() {
        let cues = story(Plot::ImagePull);
        let deployment = last_deployment(&cues);
        assert_eq!(
            deployment["status"]["conditions"][1]["reason"],
            "ProgressDeadlineExceeded"
        );
        let pods = written(&cues, "pods");
        let last_pod = pods.last().unwrap();
        assert_eq!(
            last_pod["status"]["containerStatuses"][0]["state"]["waiting"]["reason"],
            "ImagePullBackOff"
        );
        let warnings: Vec<&Value> = written(&cues, "events")
            .into_iter()
            .filter(|e| e["type"] == "Warning")
            .collect();
        assert!(warnings.iter().any(|e| e["message"]
            .as_str()
            .unwrap()
            .starts_with("Failed to pull image \"nginx:1.99-missing\"")));
        // A repeated event counts up under one name.
        let max_count = warnings.iter().filter_map(|e| e["count"].as_u64()).max();
        assert_eq!(max_count, Some(u64::from(PULL_ROUNDS)));
    }

    #[test]
    fn the_sets_stories_end_where_their_controllers_would() {
        let last = |plot, resource| written(&story(plot), resource).pop().cloned().unwrap();
        let daemon_set = last(Plot::DaemonSet, "daemonsets");
        assert_eq!(daemon_set["status"]["numberAvailable"], 3);
        let partitioned = last(Plot::Partitioned, "statefulsets");
        assert_eq!(partitioned["status"]["updatedReplicas"], 2);
        assert_eq!(
            partitioned["spec"]["updateStrategy"]["rollingUpdate"]["partition"],
            1
        );
        let update = last(Plot::RollingUpdate, "deployments");
        assert_eq!(
            update["status"]["replicas"],
            update["status"]["updatedReplicas"]
        );
        let on_delete = last(Plot::OnDelete, "statefulsets");
        assert_eq!(on_delete["spec"]["updateStrategy"]["type"], "OnDelete");
    }

    #[test]
    fn a_crash_loop_backs_off_longer_each_time_and_keeps_the_previous_log() {
        let cues = story(Plot::CrashLoop);
        let crashes: Vec<&Cue> = cues
            .iter()
            .filter(|c| {
                c.mutations.iter().any(|m| matches!(m, Mutation::Update { resource: "pods", object }
                    if object["status"]["containerStatuses"][0]["state"]["waiting"]["reason"] == "CrashLoopBackOff"))
            })
            .collect();
        assert_eq!(crashes.len() as u32, CRASHES);
        let gaps: Vec<Duration> = crashes.windows(2).map(|w| w[1].at - w[0].at).collect();
        assert!(gaps.windows(2).all(|g| g[1] > g[0]), "{gaps:?}");
        let pods = written(&cues, "pods");
        let last = pods.last().unwrap();
        let status = &last["status"]["containerStatuses"][0];
        assert_eq!(status["restartCount"], CRASHES);
        assert_eq!(status["lastState"]["terminated"]["exitCode"], 1);
        let (_, _, log) = cues.last().unwrap().logs.last().unwrap();
        assert_eq!(
            log.previous.as_ref().unwrap().last().map(String::as_str),
            Some("exit status 1")
        );
    }
}
