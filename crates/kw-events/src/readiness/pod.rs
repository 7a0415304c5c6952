//! Rules for a Pod: ready when Running and `Ready`, or Succeeded; failed when in phase Failed
//! (a deviation from kstatus, which calls any finished Pod current), when a container is in
//! `CrashLoopBackOff`, or when the scheduler has found no node for longer than
//! [`SCHEDULE_WINDOW`].

use std::time::{Duration, SystemTime};

use serde_json::Value;

use super::fields::{condition, short, text, time};
use super::judgement::Judgement;

/// How long a Pod may stay unschedulable before it counts as failed: long enough for a cluster
/// autoscaler's first answer or a preempted Pod's room to appear, short enough for CI.
pub const SCHEDULE_WINDOW: Duration = Duration::from_secs(15);

/// Judge a Pod at `now` (the unschedulable window is measured against it).
pub fn pod(object: &Value, now: SystemTime) -> Judgement {
    let phase = text(object, "/status/phase").unwrap_or_default();
    match phase {
        "Succeeded" => return Judgement::ready("Pod has completed successfully"),
        "Failed" => return failed_pod(object),
        _ => {}
    }
    let ready = condition(object, "Ready").is_some_and(|c| c.is_true());
    if phase == "Running" && ready {
        return Judgement::ready("Pod is Ready");
    }
    // Init containers count too: one crash-looping keeps the Pod Pending for ever.
    let crashing = waiting(object, |reason| reason == "CrashLoopBackOff");
    if !crashing.is_empty() {
        let names: Vec<&str> = crashing.iter().map(|(name, _)| *name).collect();
        return Judgement::failed(format!(
            "Containers in CrashLoop state: {}",
            names.join(", ")
        ));
    }
    match phase {
        "Running" => Judgement::in_progress("Pod is running but is not Ready"),
        "Pending" => pending(object, now),
        "" => Judgement::in_progress("Pod phase not available"),
        other => Judgement::in_progress(format!("Pod phase: {}", short(other))),
    }
}

/// When the judgement of a Pod the scheduler cannot place turns from in progress to failed,
/// if it has not yet: the judgement changes with time alone, and a waiter must judge it again
/// then, without an event to prompt it.
pub fn unschedulable_window_ends(object: &Value, now: SystemTime) -> Option<SystemTime> {
    let phase = text(object, "/status/phase").unwrap_or_default();
    if phase != "Pending" {
        return None;
    }
    let scheduled = condition(object, "PodScheduled")
        .filter(|c| c.is_false() && c.reason == "Unschedulable")?;
    let since = time(scheduled.entry, "/lastTransitionTime")
        .or_else(|| time(object, "/metadata/creationTimestamp"))?;
    // Judged failed once strictly past the window.
    let ends = since + SCHEDULE_WINDOW + Duration::from_millis(1);
    (ends > now).then_some(ends)
}

/// A Pending Pod: not scheduled yet (failed after the window), or its containers waiting.
fn pending(object: &Value, now: SystemTime) -> Judgement {
    let unschedulable =
        condition(object, "PodScheduled").filter(|c| c.is_false() && c.reason == "Unschedulable");
    if let Some(scheduled) = unschedulable {
        // Since the scheduler said so, or, without that, since the Pod was created.
        let since = time(scheduled.entry, "/lastTransitionTime")
            .or_else(|| time(object, "/metadata/creationTimestamp"));
        let waited = since.and_then(|since| now.duration_since(since).ok());
        let message = match scheduled.message.trim() {
            "" => String::new(),
            said => format!(": {}", short(said)),
        };
        return match waited {
            Some(waited) if waited > SCHEDULE_WINDOW => {
                Judgement::failed(format!("Pod could not be scheduled{message}"))
            }
            _ => Judgement::in_progress(format!("Pod has not been scheduled yet{message}")),
        };
    }
    let waiting = waiting(object, |reason| !reason.is_empty());
    if waiting.is_empty() {
        return Judgement::in_progress("Pod is in the Pending phase");
    }
    let listed: Vec<String> = waiting
        .iter()
        .map(|(name, reason)| format!("{name} ({})", short(reason)))
        .collect();
    Judgement::in_progress(format!("Containers waiting: {}", listed.join(", ")))
}

/// A Pod in phase Failed: what the kubelet said (`Evicted: ...`), else the containers that
/// exited with an error.
fn failed_pod(object: &Value) -> Judgement {
    let reason = text(object, "/status/reason").unwrap_or_default();
    let message = text(object, "/status/message").unwrap_or_default();
    let said = match (reason.trim(), message.trim()) {
        ("", "") => None,
        (reason, "") => Some(reason.to_string()),
        ("", message) => Some(message.to_string()),
        (reason, message) => Some(format!("{reason}: {message}")),
    };
    if let Some(said) = said {
        return Judgement::failed(format!("Pod has failed: {}", short(&said)));
    }
    let exits: Vec<String> = containers(object)
        .filter_map(|status| {
            let code = status.pointer("/state/terminated/exitCode")?.as_i64()?;
            let name = status.get("name")?.as_str()?;
            (code != 0).then(|| format!("{name} exited with code {code}"))
        })
        .collect();
    if exits.is_empty() {
        return Judgement::failed("Pod has failed");
    }
    Judgement::failed(format!("Pod has failed: {}", exits.join(", ")))
}

/// The statuses of every container, init containers first.
fn containers(object: &Value) -> impl Iterator<Item = &Value> {
    ["/status/initContainerStatuses", "/status/containerStatuses"]
        .into_iter()
        .filter_map(|pointer| object.pointer(pointer)?.as_array())
        .flatten()
}

/// Containers waiting for a reason `wanted` accepts: (name, reason).
fn waiting(object: &Value, wanted: impl Fn(&str) -> bool) -> Vec<(&str, &str)> {
    containers(object)
        .filter_map(|status| {
            let name = status.get("name")?.as_str()?;
            let reason = status.pointer("/state/waiting/reason")?.as_str()?;
            wanted(reason).then_some((name, reason))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::super::testdata::{object, set};
    use super::super::{judge, State};
    use super::*;
    use serde_json::json;

    fn at(text: &str) -> SystemTime {
        humantime::parse_rfc3339(text).unwrap()
    }

    fn judged(object: &Value) -> Judgement {
        judge("", "Pod", object, at("2019-08-09T06:00:00Z"))
    }

    /// The fixture's Pod (one container `nginx`, Running and Ready) with its container waiting
    /// for `reason` and the Pod no longer Ready.
    fn with_waiting_container(reason: &str) -> Value {
        let mut po = object("po");
        set(&mut po, "/status/conditions/1/status", json!("False"));
        set(&mut po, "/status/containerStatuses/0/ready", json!(false));
        set(
            &mut po,
            "/status/containerStatuses/0/state",
            json!({
            "waiting": {"reason": reason, "message": "back-off 40s restarting failed container"}}),
        );
        po
    }

    #[test]
    fn a_running_ready_pod_is_ready() {
        assert_eq!(judged(&object("po")), Judgement::ready("Pod is Ready"));
        let mut not_ready = object("po");
        set(
            &mut not_ready,
            "/status/conditions/1/status",
            json!("False"),
        );
        assert_eq!(
            judged(&not_ready),
            Judgement::in_progress("Pod is running but is not Ready")
        );
    }

    #[test]
    fn a_crash_looping_container_fails_the_pod() {
        assert_eq!(
            judged(&with_waiting_container("CrashLoopBackOff")),
            Judgement::failed("Containers in CrashLoop state: nginx")
        );
        // An init container crash-looping leaves the Pod Pending: failed all the same.
        let mut po = object("po");
        set(&mut po, "/status/phase", json!("Pending"));
        set(&mut po, "/status/conditions/1/status", json!("False"));
        set(
            &mut po,
            "/status/initContainerStatuses",
            json!([{
            "name": "migrate", "ready": false, "restartCount": 3,
            "state": {"waiting": {"reason": "CrashLoopBackOff"}}}]),
        );
        assert_eq!(
            judged(&po),
            Judgement::failed("Containers in CrashLoop state: migrate")
        );
    }

    #[test]
    fn image_pulls_are_in_progress_with_their_reason() {
        let mut po = with_waiting_container("ImagePullBackOff");
        set(&mut po, "/status/phase", json!("Pending"));
        assert_eq!(
            judged(&po),
            Judgement::in_progress("Containers waiting: nginx (ImagePullBackOff)")
        );
    }

    #[test]
    fn finished_pods_succeed_or_fail() {
        let mut po = object("po");
        set(&mut po, "/status/phase", json!("Succeeded"));
        assert_eq!(judged(&po).state, State::Ready);

        // Deviation from kstatus (which calls it current): a Failed Pod has failed.
        let mut evicted = object("po");
        set(&mut evicted, "/status/phase", json!("Failed"));
        set(&mut evicted, "/status/reason", json!("Evicted"));
        set(
            &mut evicted,
            "/status/message",
            json!("The node was low on resource: memory."),
        );
        assert_eq!(
            judged(&evicted),
            Judgement::failed("Pod has failed: Evicted: The node was low on resource: memory.")
        );

        let mut crashed = object("po");
        set(&mut crashed, "/status/phase", json!("Failed"));
        set(
            &mut crashed,
            "/status/containerStatuses/0/state",
            json!({
            "terminated": {"exitCode": 137, "reason": "Error"}}),
        );
        assert_eq!(
            judged(&crashed),
            Judgement::failed("Pod has failed: nginx exited with code 137")
        );
    }

    #[test]
    fn an_unschedulable_pod_fails_after_the_window() {
        let mut po = object("po");
        set(
            &mut po,
            "/status",
            json!({"phase": "Pending", "conditions": [{
            "type": "PodScheduled", "status": "False", "reason": "Unschedulable",
            "lastTransitionTime": "2019-08-09T05:12:19Z",
            "message": "0/3 nodes are available: 3 Insufficient cpu."}]}),
        );
        let since = at("2019-08-09T05:12:19Z");
        let judged_at = |seconds| pod(&po, since + Duration::from_secs(seconds));
        assert_eq!(
            judged_at(10),
            Judgement::in_progress(
                "Pod has not been scheduled yet: 0/3 nodes are available: 3 Insufficient cpu."
            )
        );
        assert_eq!(judged_at(15).state, State::InProgress);
        assert_eq!(
            judged_at(16),
            Judgement::failed(
                "Pod could not be scheduled: 0/3 nodes are available: 3 Insufficient cpu."
            )
        );
        assert_eq!(
            unschedulable_window_ends(&po, since + Duration::from_secs(10)),
            Some(since + SCHEDULE_WINDOW + Duration::from_millis(1))
        );
        assert_eq!(
            unschedulable_window_ends(&po, since + Duration::from_secs(16)),
            None
        );
        // Without lastTransitionTime, the window runs from the Pod's creation (05:12:19 too).
        let mut po = po.clone();
        super::super::testdata::remove(&mut po, "/status/conditions/0/lastTransitionTime");
        assert_eq!(
            pod(&po, since + Duration::from_secs(20)).state,
            State::Failed
        );
        assert_eq!(
            pod(&po, since + Duration::from_secs(5)).state,
            State::InProgress
        );
    }

    #[test]
    fn a_pod_not_yet_seen_by_the_kubelet_is_in_progress() {
        let mut po = object("po");
        set(&mut po, "/status", json!({}));
        assert_eq!(
            judged(&po),
            Judgement::in_progress("Pod phase not available")
        );
        set(&mut po, "/status", json!({"phase": "Pending"}));
        assert_eq!(
            judged(&po),
            Judgement::in_progress("Pod is in the Pending phase")
        );
    }
}
