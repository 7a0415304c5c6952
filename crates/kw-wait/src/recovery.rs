//! What is known to recover (issue 55): a Pod that kw's rules would call stuck while the
//! cluster is still working on it is progress, not trouble, so `--fail-on failed` does not fail
//! a rollout that would have come good. Two cases are read, each from the words the cluster
//! writes:
//!
//! - **A node is on its way.** An unschedulable Pod with `status.nominatedNodeName` (the
//!   scheduler is preempting lower-priority Pods to make room), or whose last word from the
//!   cluster autoscaler is `TriggeredScaleUp` (`pod triggered scale-up: [...]`), given for at
//!   most 15 minutes, the autoscaler's default `--max-node-provision-time`. `NotTriggerScaleUp`
//!   (`pod didn't trigger scale-up: ...`) ends it.
//! - **The registry throttles.** A Pod whose last failed pull was refused for its rate
//!   (`429 Too Many Requests`, `toomanyrequests`, as Docker Hub and most registries answer),
//!   read from its `ErrImagePull` message or the kubelet's `Failed` event: the kubelet pulls
//!   again after its back-off. A failed pull for any other reason ends it.
//!
//! A crash loop is not read as recovering however its restarts go: the kubelet's back-off only
//! grows, and nothing in a Pod tells an app that waits for its database from one that never
//! starts. That is `--fail-grace`'s to cover (and `rollout status` and `wait`, kubectl's verbs,
//! never end early on a stuck Pod at all).
//!
//! Memory follows the Pods: a Pod's signal goes with the Pod.

use std::collections::{HashMap, HashSet};
use std::time::{Duration, SystemTime};

use serde_json::Value;

/// How long a scale-up is given: the cluster autoscaler's default `--max-node-provision-time`.
pub const SCALE_UP_TIME: Duration = Duration::from_secs(15 * 60);

/// The source component of the cluster autoscaler's events (the field selector `source=` reads
/// it).
pub const AUTOSCALER: &str = "cluster-autoscaler";

/// Why a stuck Pod is progress.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Recovering {
    /// The scheduler nominated a node (preemption) or the autoscaler is adding one.
    NodeComing,
    /// The registry refused the pull for its rate; the kubelet pulls again.
    PullThrottled,
}

impl Recovering {
    /// The words said of it (`Unschedulable: ...; a node is on its way (TriggeredScaleUp)`).
    pub fn words(self) -> &'static str {
        match self {
            Recovering::NodeComing => "a node is on its way",
            Recovering::PullThrottled => "the registry throttles the pull (429)",
        }
    }
}

/// What each Pod (by uid) has said of its recovery.
#[derive(Debug, Default)]
pub struct Recovery {
    /// Pod uid → when the autoscaler said it triggered a scale-up for it (kw's clock).
    scale_up: HashMap<String, SystemTime>,
    /// Pods whose scheduler status nominates a node.
    nominated: HashSet<String>,
    /// Pods whose last failed pull was throttled.
    throttled: HashSet<String>,
}

impl Recovery {
    /// An Event about `about_uid` (its `reason` and `message`), received at `now`; whether it
    /// changed what is known of the Pod.
    pub fn event(&mut self, about_uid: &str, reason: &str, message: &str, now: SystemTime) -> bool {
        match reason {
            "TriggeredScaleUp" => self.scale_up.insert(about_uid.to_string(), now).is_none(),
            "NotTriggerScaleUp" => self.scale_up.remove(about_uid).is_some(),
            "Failed" if message.starts_with("Failed to pull image") => {
                self.set_throttled(about_uid, is_throttled(message))
            }
            _ => false,
        }
    }

    /// Pod `uid` as it stands; whether that changed what is known of it.
    pub fn pod(&mut self, uid: &str, pod: &Value) -> bool {
        let nominated = pod
            .pointer("/status/nominatedNodeName")
            .and_then(Value::as_str)
            .is_some_and(|node| !node.is_empty());
        let changed = match nominated {
            true => self.nominated.insert(uid.to_string()),
            false => self.nominated.remove(uid),
        };
        let pull_error = containers(pod).find_map(|status| {
            let waiting = status.pointer("/state/waiting")?;
            (waiting.get("reason")?.as_str()? == "ErrImagePull")
                .then(|| waiting.get("message").and_then(Value::as_str).unwrap_or(""))
        });
        match pull_error {
            Some(message) => self.set_throttled(uid, is_throttled(message)) || changed,
            None => changed,
        }
    }

    /// Pod `uid` is gone.
    pub fn forget(&mut self, uid: &str) {
        self.scale_up.remove(uid);
        self.nominated.remove(uid);
        self.throttled.remove(uid);
    }

    /// Whether Pod `uid`, stuck for `reason` (`Unschedulable: ...`, `ImagePullBackOff (web):
    /// ...`), is known to be recovering at `now`.
    pub fn recovering(&self, uid: &str, reason: &str, now: SystemTime) -> Option<Recovering> {
        if reason.starts_with("Unschedulable") {
            let scaling = self
                .scale_up
                .get(uid)
                .is_some_and(|at| now.duration_since(*at).unwrap_or_default() < SCALE_UP_TIME);
            return (scaling || self.nominated.contains(uid)).then_some(Recovering::NodeComing);
        }
        let pulling = reason.starts_with("ImagePullBackOff") || reason.starts_with("ErrImagePull");
        (pulling && self.throttled.contains(uid)).then_some(Recovering::PullThrottled)
    }

    fn set_throttled(&mut self, uid: &str, throttled: bool) -> bool {
        match throttled {
            true => self.throttled.insert(uid.to_string()),
            false => self.throttled.remove(uid),
        }
    }
}

/// Whether a failed pull's words say the registry refused it for its rate.
fn is_throttled(message: &str) -> bool {
    let lower = message.to_ascii_lowercase();
    ["429 too many requests", "toomanyrequests", "rate limit"]
        .iter()
        .any(|words| lower.contains(words))
}

fn containers(pod: &Value) -> impl Iterator<Item = &Value> {
    ["/status/initContainerStatuses", "/status/containerStatuses"]
        .into_iter()
        .filter_map(|at| pod.pointer(at).and_then(Value::as_array))
        .flatten()
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    const DOCKER_HUB: &str = "Failed to pull image \"nginx:1.27\": failed to pull and unpack image \"docker.io/library/nginx:1.27\": failed to copy: httpReadSeeker: failed open: unexpected status code https://registry-1.docker.io/v2/library/nginx/manifests/sha256:0a1b: 429 Too Many Requests - Server message: toomanyrequests: You have reached your unauthenticated pull rate limit";

    #[test]
    fn a_scale_up_is_progress_for_fifteen_minutes_and_not_after_the_autoscaler_gives_up() {
        let mut recovery = Recovery::default();
        let t0 = SystemTime::now();
        let stuck = "Unschedulable: 0/3 nodes are available: 3 Insufficient cpu";
        assert_eq!(recovery.recovering("p", stuck, t0), None);
        assert!(recovery.event(
            "p",
            "TriggeredScaleUp",
            "pod triggered scale-up: [{pool 2->3 (max: 10)}]",
            t0
        ));
        assert_eq!(
            recovery.recovering("p", stuck, t0 + Duration::from_secs(60)),
            Some(Recovering::NodeComing)
        );
        assert_eq!(recovery.recovering("p", stuck, t0 + SCALE_UP_TIME), None);
        assert!(recovery.event(
            "p",
            "NotTriggerScaleUp",
            "pod didn't trigger scale-up: 1 max node group size reached",
            t0
        ));
        assert_eq!(recovery.recovering("p", stuck, t0), None);
        // A scale-up says nothing of a pull.
        recovery.event("p", "TriggeredScaleUp", "", t0);
        assert_eq!(
            recovery.recovering("p", "ImagePullBackOff (web): Back-off", t0),
            None
        );
    }

    #[test]
    fn a_nominated_node_is_progress_until_the_status_drops_it() {
        let mut recovery = Recovery::default();
        let now = SystemTime::now();
        assert!(recovery.pod("p", &json!({"status": {"nominatedNodeName": "node-4"}})));
        assert_eq!(
            recovery.recovering("p", "Unschedulable: preempting", now),
            Some(Recovering::NodeComing)
        );
        assert!(recovery.pod("p", &json!({"status": {}})));
        assert_eq!(
            recovery.recovering("p", "Unschedulable: preempting", now),
            None
        );
    }

    #[test]
    fn a_throttled_pull_is_progress_until_a_pull_fails_for_another_reason() {
        let mut recovery = Recovery::default();
        let now = SystemTime::now();
        let back_off = "ImagePullBackOff (web): Back-off pulling image \"nginx:1.27\"";
        assert!(recovery.event("p", "Failed", DOCKER_HUB, now));
        assert_eq!(
            recovery.recovering("p", back_off, now),
            Some(Recovering::PullThrottled)
        );
        let not_found =
            "Failed to pull image \"nginx:1.99\": rpc error: code = NotFound desc = not found";
        assert!(recovery.event("p", "Failed", not_found, now));
        assert_eq!(recovery.recovering("p", back_off, now), None);
        // The Pod's own ErrImagePull message tells as much.
        let pod = json!({"status": {"containerStatuses": [
            {"name": "web", "state": {"waiting": {"reason": "ErrImagePull", "message": "toomanyrequests: slow down"}}}
        ]}});
        assert!(recovery.pod("p", &pod));
        assert_eq!(
            recovery.recovering("p", "ErrImagePull (web): toomanyrequests", now),
            Some(Recovering::PullThrottled)
        );
        recovery.forget("p");
        assert_eq!(recovery.recovering("p", back_off, now), None);
    }
}
