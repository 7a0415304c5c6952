//! Rules for the replicated workloads: Deployment, StatefulSet, DaemonSet, ReplicaSet. Each
//! compares the replicas the spec asks for with the counts the controller reports, in the order
//! a rollout fills them in, so the message names the step it is at (`Updated: 1/3`).

use serde_json::Value;

use super::fields::{condition, conditions, int, int_or, text};
use super::judgement::Judgement;

/// What the Deployment controller writes when `spec.progressDeadlineSeconds` is unset (the
/// API's "no deadline"): it then never sets `Progressing`'s outcome reasons.
const NO_DEADLINE: i64 = i32::MAX as i64;

/// A Deployment is ready when every replica runs the current template and is available, and the
/// controller says so (`Progressing` with `NewReplicaSetAvailable`, `Available=True`).
/// `Progressing` with reason `ProgressDeadlineExceeded` has failed: the controller gave up.
pub fn deployment(object: &Value) -> Judgement {
    let mut progressed =
        int_or(object, "/spec/progressDeadlineSeconds", NO_DEADLINE) == NO_DEADLINE;
    let mut available = false;
    for c in conditions(object) {
        match c.kind {
            "Progressing" if c.reason == "ProgressDeadlineExceeded" => {
                return Judgement::failed("Progress deadline exceeded");
            }
            "Progressing" if c.is_true() && c.reason == "NewReplicaSetAvailable" => {
                progressed = true
            }
            "Available" if c.is_true() => available = true,
            _ => {}
        }
    }
    // The API defaults spec.replicas to 1.
    let wanted = int_or(object, "/spec/replicas", 1);
    let replicas = int_or(object, "/status/replicas", 0);
    let updated = int_or(object, "/status/updatedReplicas", 0);
    let ready = int_or(object, "/status/readyReplicas", 0);
    let ready_and_available = int_or(object, "/status/availableReplicas", 0);
    if wanted > replicas {
        return Judgement::in_progress(format!("Replicas: {replicas}/{wanted}"));
    }
    if wanted > updated {
        return Judgement::in_progress(format!("Updated: {updated}/{wanted}"));
    }
    if replicas > wanted {
        return Judgement::in_progress(format!("Pending termination: {}", replicas - wanted));
    }
    if updated > ready_and_available {
        return Judgement::in_progress(format!("Available: {ready_and_available}/{updated}"));
    }
    if wanted > ready {
        return Judgement::in_progress(format!("Ready: {ready}/{wanted}"));
    }
    if !progressed {
        return Judgement::in_progress("ReplicaSet not Available");
    }
    if !available {
        return Judgement::in_progress("Deployment not Available");
    }
    Judgement::ready(format!("Deployment is available. Replicas: {replicas}"))
}

/// A StatefulSet has no conditions its controller sets; its counts and revisions say it all.
/// Under `OnDelete` the user replaces Pods, so the controller's view is all there is to wait
/// for. With a partition, only the ordinals at or above it move to the new revision.
pub fn stateful_set(object: &Value) -> Judgement {
    if text(object, "/spec/updateStrategy/type") == Some("OnDelete") {
        return Judgement::ready("StatefulSet is using the OnDelete update strategy");
    }
    let wanted = int_or(object, "/spec/replicas", 1);
    let replicas = int_or(object, "/status/replicas", 0);
    let ready = int_or(object, "/status/readyReplicas", 0);
    let current = int_or(object, "/status/currentReplicas", 0);
    let updated = int_or(object, "/status/updatedReplicas", 0);
    if wanted > replicas {
        return Judgement::in_progress(format!("Replicas: {replicas}/{wanted}"));
    }
    if wanted > ready {
        return Judgement::in_progress(format!("Ready: {ready}/{wanted}"));
    }
    if replicas > wanted {
        return Judgement::in_progress(format!("Pending termination: {}", replicas - wanted));
    }
    if let Some(partition) = int(object, "/spec/updateStrategy/rollingUpdate/partition") {
        // A partition of 0 (the API writes it by default) updates every Pod, as no partition
        // does, and the revisions below must then match, as `kubectl rollout status` has it;
        // kstatus stops at the updated count for any partition.
        if partition > 0 {
            let to_update = (wanted - partition).max(0);
            if updated < to_update {
                return Judgement::in_progress(format!("Updated: {updated}/{to_update}"));
            }
            return Judgement::ready(format!("Partition rollout complete. Updated: {updated}"));
        }
    }
    if wanted > current {
        return Judgement::in_progress(format!("Current: {current}/{wanted}"));
    }
    if text(object, "/status/currentRevision") != text(object, "/status/updateRevision") {
        return Judgement::in_progress("Waiting for updated revision to match current");
    }
    Judgement::ready(format!(
        "All replicas scheduled as expected. Replicas: {replicas}"
    ))
}

/// A DaemonSet's wanted count is the controller's (`desiredNumberScheduled`, one per eligible
/// node), so nothing can be said before the controller has written its status for this
/// generation.
pub fn daemon_set(object: &Value) -> Judgement {
    if int(object, "/metadata/generation").is_none() {
        return Judgement::in_progress("DaemonSet metadata.generation not found");
    }
    if int(object, "/status/observedGeneration").is_none() {
        return Judgement::in_progress("DaemonSet status.observedGeneration not found");
    }
    let Some(wanted) = int(object, "/status/desiredNumberScheduled") else {
        return Judgement::in_progress("Missing .status.desiredNumberScheduled");
    };
    // Under `OnDelete` the controller replaces no Pod: an old one stays until someone deletes
    // it, so the updated count is not something to wait for (kstatus waits for it regardless).
    let on_delete = text(object, "/spec/updateStrategy/type") == Some("OnDelete");
    let counts = [
        ("Current", "/status/currentNumberScheduled"),
        ("Updated", "/status/updatedNumberScheduled"),
        ("Available", "/status/numberAvailable"),
        ("Ready", "/status/numberReady"),
    ];
    for (name, pointer) in counts {
        if on_delete && name == "Updated" {
            continue;
        }
        let have = int_or(object, pointer, 0);
        if wanted > have {
            return Judgement::in_progress(format!("{name}: {have}/{wanted}"));
        }
    }
    Judgement::ready(format!(
        "All replicas scheduled as expected. Replicas: {wanted}"
    ))
}

/// A ReplicaSet is ready when all its replicas carry its labels and are ready and available.
/// `ReplicaFailure` (a Pod the API refused: quota, admission) is in progress, as in kstatus:
/// the refusal may lift on its own (quota freed).
pub fn replica_set(object: &Value) -> Judgement {
    if let Some(failure) = condition(object, "ReplicaFailure").filter(|c| c.is_true()) {
        return Judgement::in_progress(format!("ReplicaFailure: {}", failure.describe()));
    }
    let wanted = int_or(object, "/spec/replicas", 1);
    let replicas = int_or(object, "/status/replicas", 0);
    let counts = [
        ("Labelled", "/status/fullyLabeledReplicas"),
        ("Available", "/status/availableReplicas"),
        ("Ready", "/status/readyReplicas"),
    ];
    for (name, pointer) in counts {
        let have = int_or(object, pointer, 0);
        if wanted > have {
            return Judgement::in_progress(format!("{name}: {have}/{wanted}"));
        }
    }
    if replicas > wanted {
        return Judgement::in_progress(format!("Pending termination: {}", replicas - wanted));
    }
    Judgement::ready(format!("ReplicaSet is available. Replicas: {replicas}"))
}

#[cfg(test)]
mod tests {
    use super::super::testdata::{object, remove, set};
    use super::super::{judge, State};
    use super::*;
    use serde_json::json;
    use std::time::SystemTime;

    fn judged(group: &str, kind: &str, object: &Value) -> Judgement {
        judge(group, kind, object, SystemTime::now())
    }

    /// The fixture (1 replica, rolled out) scaled to 3 and one third through a rollout: one Pod
    /// of the new template, the two old ones still serving.
    fn deployment_mid_rollout() -> Value {
        let mut dp = object("dp");
        set(&mut dp, "/spec/replicas", json!(3));
        set(&mut dp, "/status/replicas", json!(3));
        set(&mut dp, "/status/updatedReplicas", json!(1));
        set(&mut dp, "/status/readyReplicas", json!(3));
        set(&mut dp, "/status/availableReplicas", json!(3));
        set(
            &mut dp,
            "/status/conditions/1/reason",
            json!("ReplicaSetUpdated"),
        );
        dp
    }

    #[test]
    fn a_rolled_out_deployment_is_ready() {
        assert_eq!(
            judged("apps", "Deployment", &object("dp")),
            Judgement::ready("Deployment is available. Replicas: 1")
        );
    }

    /// `condition=Available` holds mid-rollout (minimum availability); `ready` does not.
    #[test]
    fn a_deployment_mid_rollout_is_in_progress_though_available() {
        let dp = deployment_mid_rollout();
        assert_eq!(
            judged("apps", "Deployment", &dp),
            Judgement::in_progress("Updated: 1/3")
        );
    }

    #[test]
    fn deployment_counts_are_checked_in_rollout_order() {
        let mut dp = deployment_mid_rollout();
        set(&mut dp, "/status/replicas", json!(2));
        assert_eq!(judged("apps", "Deployment", &dp).message, "Replicas: 2/3");

        let mut dp = deployment_mid_rollout();
        set(&mut dp, "/status/replicas", json!(4));
        set(&mut dp, "/status/updatedReplicas", json!(3));
        assert_eq!(
            judged("apps", "Deployment", &dp).message,
            "Pending termination: 1"
        );

        let mut dp = deployment_mid_rollout();
        set(&mut dp, "/status/updatedReplicas", json!(3));
        set(&mut dp, "/status/availableReplicas", json!(2));
        assert_eq!(judged("apps", "Deployment", &dp).message, "Available: 2/3");

        // Pods of the new template not yet ready long enough (minReadySeconds) to count as
        // available. (A Deployment's `Ready: n/m` cannot come after this check: available
        // replicas are ready ones.)
        let mut dp = deployment_mid_rollout();
        set(&mut dp, "/spec/replicas", json!(4));
        set(&mut dp, "/status/replicas", json!(4));
        set(&mut dp, "/status/updatedReplicas", json!(4));
        set(&mut dp, "/status/readyReplicas", json!(4));
        set(&mut dp, "/status/availableReplicas", json!(2));
        assert_eq!(judged("apps", "Deployment", &dp).message, "Available: 2/4");

        // Every count right, but the controller has not yet said the new ReplicaSet is
        // available.
        let mut dp = deployment_mid_rollout();
        set(&mut dp, "/status/updatedReplicas", json!(3));
        assert_eq!(
            judged("apps", "Deployment", &dp),
            Judgement::in_progress("ReplicaSet not Available")
        );
        set(
            &mut dp,
            "/status/conditions/1/reason",
            json!("NewReplicaSetAvailable"),
        );
        assert_eq!(judged("apps", "Deployment", &dp).state, State::Ready);
        set(&mut dp, "/status/conditions/0/status", json!("False"));
        assert_eq!(
            judged("apps", "Deployment", &dp),
            Judgement::in_progress("Deployment not Available")
        );
    }

    #[test]
    fn a_deployment_without_a_deadline_needs_no_progressing_reason() {
        let mut dp = deployment_mid_rollout();
        set(&mut dp, "/status/updatedReplicas", json!(3));
        set(&mut dp, "/spec/progressDeadlineSeconds", json!(i32::MAX));
        assert_eq!(judged("apps", "Deployment", &dp).state, State::Ready);
    }

    #[test]
    fn a_deployment_past_its_deadline_has_failed() {
        let mut dp = deployment_mid_rollout();
        set(
            &mut dp,
            "/status/conditions/1",
            json!({
            "type": "Progressing", "status": "False", "reason": "ProgressDeadlineExceeded",
            "message": "ReplicaSet \"icx-db-5d9c8\" has timed out progressing."}),
        );
        assert_eq!(
            judged("apps", "Deployment", &dp),
            Judgement::failed("Progress deadline exceeded")
        );
        // ...unless the user has changed the spec since: the controller has not judged that yet.
        set(&mut dp, "/metadata/generation", json!(2));
        assert_eq!(judged("apps", "Deployment", &dp).state, State::InProgress);
    }

    #[test]
    fn stateful_sets_follow_counts_partitions_and_revisions() {
        let sts = object("sts");
        assert_eq!(
            judged("apps", "StatefulSet", &sts),
            Judgement::ready("All replicas scheduled as expected. Replicas: 4")
        );
        let mut scaling = sts.clone();
        set(&mut scaling, "/status/readyReplicas", json!(2));
        assert_eq!(
            judged("apps", "StatefulSet", &scaling).message,
            "Ready: 2/4"
        );

        // A rolling update in flight: Pods move to the new revision from the highest ordinal.
        let mut rolling = sts.clone();
        set(
            &mut rolling,
            "/status/updateRevision",
            json!("nginx-sts-6c7d8"),
        );
        set(&mut rolling, "/status/currentReplicas", json!(3));
        set(&mut rolling, "/status/updatedReplicas", json!(1));
        assert_eq!(
            judged("apps", "StatefulSet", &rolling).message,
            "Current: 3/4"
        );
        set(&mut rolling, "/status/currentReplicas", json!(4));
        assert_eq!(
            judged("apps", "StatefulSet", &rolling).message,
            "Waiting for updated revision to match current"
        );

        // A partition of 2 asks only for ordinals 2 and 3 to update.
        let mut partitioned = rolling.clone();
        set(
            &mut partitioned,
            "/spec/updateStrategy/rollingUpdate/partition",
            json!(2),
        );
        assert_eq!(
            judged("apps", "StatefulSet", &partitioned).message,
            "Updated: 1/2"
        );
        set(&mut partitioned, "/status/updatedReplicas", json!(2));
        assert_eq!(
            judged("apps", "StatefulSet", &partitioned),
            Judgement::ready("Partition rollout complete. Updated: 2")
        );

        // OnDelete: the user replaces Pods; there is no rollout to wait for.
        let mut on_delete = rolling;
        set(
            &mut on_delete,
            "/spec/updateStrategy",
            json!({"type": "OnDelete"}),
        );
        assert_eq!(
            judged("apps", "StatefulSet", &on_delete).state,
            State::Ready
        );
    }

    #[test]
    fn daemon_sets_need_the_controllers_status() {
        let ds = object("ds");
        assert_eq!(
            judged("apps", "DaemonSet", &ds),
            Judgement::ready("All replicas scheduled as expected. Replicas: 2")
        );
        let mut unobserved = ds.clone();
        remove(&mut unobserved, "/status/observedGeneration");
        assert_eq!(
            judged("apps", "DaemonSet", &unobserved).state,
            State::InProgress
        );
        for (pointer, message) in [
            ("/status/currentNumberScheduled", "Current: 1/2"),
            ("/status/updatedNumberScheduled", "Updated: 1/2"),
            ("/status/numberAvailable", "Available: 1/2"),
            ("/status/numberReady", "Ready: 1/2"),
        ] {
            let mut ds = ds.clone();
            set(&mut ds, pointer, json!(1));
            assert_eq!(
                judged("apps", "DaemonSet", &ds).message,
                message,
                "{pointer}"
            );
        }
        let mut on_delete = ds.clone();
        set(
            &mut on_delete,
            "/spec/updateStrategy",
            json!({"type": "OnDelete"}),
        );
        set(&mut on_delete, "/status/updatedNumberScheduled", json!(0));
        assert_eq!(judged("apps", "DaemonSet", &on_delete).state, State::Ready);
    }

    #[test]
    fn replica_sets_count_and_report_replica_failures() {
        let rs = object("rs");
        assert_eq!(
            judged("apps", "ReplicaSet", &rs),
            Judgement::ready("ReplicaSet is available. Replicas: 1")
        );
        let mut refused = rs.clone();
        set(
            &mut refused,
            "/status/conditions",
            json!([{
            "type": "ReplicaFailure", "status": "True", "reason": "FailedCreate",
            "message": "pods \"web-x\" is forbidden: exceeded quota: compute"}]),
        );
        assert_eq!(
            judged("apps", "ReplicaSet", &refused),
            Judgement::in_progress(
                "ReplicaFailure: pods \"web-x\" is forbidden: exceeded quota: compute"
            )
        );
        let mut scaled = rs;
        set(&mut scaled, "/spec/replicas", json!(3));
        assert_eq!(
            judged("apps", "ReplicaSet", &scaled).message,
            "Labelled: 1/3"
        );
    }
}
