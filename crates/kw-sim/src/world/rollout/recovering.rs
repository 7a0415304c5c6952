//! Two rollouts that look stuck for a while and then come good (issue 55), so that a client
//! can be shown not to fail what would have succeeded:
//!
//! - `scale-up`: no node has room. The scheduler marks the Pods `Unschedulable` (a Warning
//!   `FailedScheduling`), the cluster autoscaler answers a beat later with a Normal
//!   `TriggeredScaleUp` for each, and `NODE_BEATS` later a new node has joined: the Pods are
//!   scheduled on it and the rollout completes.
//! - `throttled-pull`: the registry refuses the first pulls for their rate (`429 Too Many
//!   Requests`, `toomanyrequests`, in Docker Hub's words), `PULL_THROTTLES` rounds of
//!   `ErrImagePull` and `ImagePullBackOff` of `BACK_OFF_BEATS` each; then a pull succeeds and
//!   the rollout completes.

use serde_json::json;

use super::story::{Story, GOOD_IMAGE};
use crate::world::objects::PodStage;

/// Beats from the autoscaler's answer to the new node taking the Pods.
pub(super) const NODE_BEATS: u32 = 12;
/// The node the autoscaler adds.
const NEW_NODE: &str = "node-4";
/// Rounds of refused pulls.
pub(super) const PULL_THROTTLES: u32 = 2;
/// Beats each back-off lasts.
pub(super) const BACK_OFF_BEATS: u32 = 5;

const NO_ROOM: &str = "0/2 nodes are available: 2 Insufficient cpu. preemption: 0/2 nodes are available: 2 No preemption victims found for incoming pod.";

pub(super) fn scale_up(story: &mut Story) {
    story.create_pods();
    story.next(1);
    for index in 0..story.pods.len() {
        let mut pod = story.render_pod(index, &PodStage::Pending);
        let stamp = crate::world::objects::rfc3339(story.now());
        pod["status"]["conditions"] = json!([{
            "type": "PodScheduled", "status": "False", "reason": "Unschedulable",
            "message": NO_ROOM, "lastProbeTime": null, "lastTransitionTime": stamp
        }]);
        story.update("pods", pod);
        let (name, uid) = (
            story.pods[index].name.clone(),
            story.pods[index].uid.clone(),
        );
        story.event(
            ("v1", "Pod", &name, &uid),
            "Warning",
            "FailedScheduling",
            NO_ROOM,
            "default-scheduler",
            "",
        );
    }
    story.next(1);
    for index in 0..story.pods.len() {
        let (name, uid) = (
            story.pods[index].name.clone(),
            story.pods[index].uid.clone(),
        );
        story.event(
            ("v1", "Pod", &name, &uid),
            "Normal",
            "TriggeredScaleUp",
            "pod triggered scale-up: [{pool-a 2->3 (max: 10)}]",
            "cluster-autoscaler",
            "",
        );
    }
    story.next(NODE_BEATS);
    for pod in &mut story.pods {
        pod.node = NEW_NODE.to_string();
        pod.host_ip = "10.0.0.14".to_string();
    }
    story.schedule();
    story.complete();
}

pub(super) fn throttled_pull(story: &mut Story) {
    story.begin();
    let image = format!("docker.io/library/{GOOD_IMAGE}");
    let refused = format!(
        "failed to pull and unpack image \"{image}\": failed to copy: httpReadSeeker: failed open: \
         unexpected status code https://registry-1.docker.io/v2/library/nginx/manifests/sha256:5f0a: \
         429 Too Many Requests - Server message: toomanyrequests: You have reached your \
         unauthenticated pull rate limit. https://www.docker.com/increase-rate-limit"
    );
    for _ in 0..PULL_THROTTLES {
        story.failed_pull(GOOD_IMAGE, &refused);
        story.next(BACK_OFF_BEATS);
    }
    story.complete();
}

#[cfg(test)]
mod tests {
    use super::super::reading::written;
    use super::super::*;

    fn story(plot: Plot) -> Vec<Cue> {
        let start = humantime::parse_rfc3339("2026-01-01T00:00:00Z").unwrap();
        script(&Rollout::new(plot, "default", "web"), 1, start)
    }

    /// Both stories look stuck for longer than a short grace, then complete.
    #[test]
    fn a_scale_up_and_a_throttled_pull_look_stuck_then_complete() {
        for plot in [Plot::ScaleUp, Plot::ThrottledPull] {
            let cues = story(plot);
            let deployment = written(&cues, "deployments").pop().cloned().unwrap();
            assert_eq!(deployment["status"]["availableReplicas"], 3, "{plot:?}");
            let events = written(&cues, "events");
            let reasons: Vec<&str> = events.iter().filter_map(|e| e["reason"].as_str()).collect();
            match plot {
                Plot::ScaleUp => {
                    assert!(reasons.contains(&"TriggeredScaleUp"), "{reasons:?}");
                    let scale_up = events.iter().find(|e| e["reason"] == "TriggeredScaleUp");
                    assert_eq!(
                        scale_up.unwrap()["source"]["component"],
                        "cluster-autoscaler"
                    );
                }
                _ => assert!(
                    events.iter().any(|e| e["message"]
                        .as_str()
                        .is_some_and(|m| m.contains("429 Too Many Requests"))),
                    "{reasons:?}"
                ),
            }
        }
    }
}
