//! A workload's Pods that will never come up, while its own status still says "in progress"
//! (kubedog's early stop): which Pods belong to the workload's current revision, what keeps
//! one from starting, and which containers crashed (for the summary of a failed wait).
//!
//! The current revision, as each controller marks it on the Pods it creates:
//! - Deployment: the Pods of its newest ReplicaSet (highest `deployment.kubernetes.io/revision`);
//! - StatefulSet: `controller-revision-hash` equal to `status.updateRevision`;
//! - DaemonSet: `pod-template-generation` equal to `metadata.generation`;
//! - Job: every Pod (a Job has one template).
//!
//! Old-revision Pods being replaced never count: a rollout away from a broken image must not
//! fail because the broken Pods are still there.

use std::time::SystemTime;

use serde_json::Value;

use super::fields::{condition, int, kubelet_text, short, text, time};

/// Waiting reasons of a container that will not start without someone acting.
const STUCK: [&str; 5] = [
    "CrashLoopBackOff",
    "ImagePullBackOff",
    "ErrImagePull",
    "InvalidImageName",
    "CreateContainerConfigError",
];

/// How a workload marks the Pods of its current revision.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Revision {
    /// A Deployment: Pods owned by its newest ReplicaSet.
    NewestReplicaSet,
    /// Pods whose label `key` is `value`.
    Label { key: &'static str, value: String },
    /// Every Pod it owns (a Job).
    Every,
}

/// How `workload` (of `group` and `kind`) marks its current Pods; `None` for a kind that owns
/// no Pods, or a StatefulSet whose controller has not written its update revision yet.
pub fn current_revision(group: &str, kind: &str, workload: &Value) -> Option<Revision> {
    match (group, kind) {
        ("apps" | "extensions", "Deployment") => Some(Revision::NewestReplicaSet),
        ("apps", "StatefulSet") => Some(Revision::Label {
            key: "controller-revision-hash",
            value: text(workload, "/status/updateRevision")
                .filter(|r| !r.is_empty())?
                .to_string(),
        }),
        ("apps" | "extensions", "DaemonSet") => Some(Revision::Label {
            key: "pod-template-generation",
            value: int(workload, "/metadata/generation")?.to_string(),
        }),
        ("batch", "Job") => Some(Revision::Every),
        _ => None,
    }
}

/// A ReplicaSet's revision among its Deployment's (`deployment.kubernetes.io/revision`).
pub fn replica_set_revision(replica_set: &Value) -> Option<u64> {
    text(
        replica_set,
        "/metadata/annotations/deployment.kubernetes.io~1revision",
    )?
    .parse()
    .ok()
}

/// The uid of the newest of a Deployment's ReplicaSets, given as (uid, revision).
pub fn newest_replica_set<'a>(
    replica_sets: impl IntoIterator<Item = (&'a str, u64)>,
) -> Option<&'a str> {
    replica_sets
        .into_iter()
        .max_by_key(|(_, revision)| *revision)
        .map(|(uid, _)| uid)
}

/// Whether `pod` is of the current revision: by its label, or (Deployment) by being owned by
/// the ReplicaSet `newest`.
pub fn is_current(revision: &Revision, pod: &Value, newest: Option<&str>) -> bool {
    match revision {
        Revision::Every => true,
        Revision::Label { key, value } => {
            text(pod, &format!("/metadata/labels/{key}")) == Some(value.as_str())
        }
        Revision::NewestReplicaSet => newest.is_some_and(|newest| {
            pod.pointer("/metadata/ownerReferences")
                .and_then(Value::as_array)
                .into_iter()
                .flatten()
                .any(|owner| owner.get("uid").and_then(Value::as_str) == Some(newest))
        }),
    }
}

/// What keeps `pod` from coming up, if it will not without someone acting:
/// `ImagePullBackOff (web): Back-off pulling image "x"`, or `Unschedulable: 0/3 nodes ...`.
/// A Pod that has finished, or is being deleted, has no trouble of this kind.
pub fn trouble(pod: &Value) -> Option<String> {
    if pod.pointer("/metadata/deletionTimestamp").is_some()
        || matches!(text(pod, "/status/phase"), Some("Succeeded" | "Failed"))
    {
        return None;
    }
    for status in containers(pod) {
        let Some(reason) = text(status, "/state/waiting/reason") else {
            continue;
        };
        if !STUCK.contains(&reason) {
            continue;
        }
        let name = text(status, "/name").unwrap_or_default();
        let message = text(status, "/state/waiting/message").unwrap_or_default();
        let message = message.lines().next().unwrap_or_default().trim();
        return Some(if message.is_empty() {
            format!("{reason} ({name})")
        } else {
            format!("{reason} ({name}): {}", short(&kubelet_text(message)))
        });
    }
    let unschedulable =
        condition(pod, "PodScheduled").filter(|c| c.is_false() && c.reason == "Unschedulable")?;
    Some(format!("Unschedulable: {}", unschedulable.describe()))
}

/// When `pod`'s trouble began, as the Pod itself shows it: the earliest of the moment its
/// `Ready` or `ContainersReady` condition turned false and each stuck container's last
/// termination. A Pod kw joins late is then held to the grace from there, not from when kw
/// first saw it. `None` when the Pod says nothing of it (the caller counts from now). The API
/// writes whole seconds: each moment is read as the end of its second, so the grace is never
/// cut short by the rounding (it may be up to a second longer).
pub fn trouble_since(pod: &Value) -> Option<SystemTime> {
    let conditions = ["Ready", "ContainersReady"]
        .into_iter()
        .filter_map(|kind| condition(pod, kind).filter(|c| c.is_false()))
        .filter_map(|c| time(c.entry, "/lastTransitionTime"));
    let terminations = containers(pod)
        .filter(|status| {
            text(status, "/state/waiting/reason").is_some_and(|reason| STUCK.contains(&reason))
        })
        .filter_map(|status| time(status, "/lastState/terminated/finishedAt"));
    conditions
        .chain(terminations)
        .min()
        .map(|at| at + std::time::Duration::from_secs(1))
}

/// A container that crashed: in `CrashLoopBackOff`, or terminated with a non-zero exit code
/// (now or the last time).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Crash {
    pub container: String,
    /// The last non-zero exit code, when the status gives one.
    pub exit_code: Option<i64>,
    /// `CrashLoopBackOff`, or the termination's reason (`Error`, `OOMKilled`).
    pub reason: String,
}

/// The containers of `pod` that crashed.
pub fn crashes(pod: &Value) -> Vec<Crash> {
    containers(pod)
        .filter_map(|status| {
            let container = text(status, "/name")?.to_string();
            let looping = text(status, "/state/waiting/reason") == Some("CrashLoopBackOff");
            let terminated = ["/state/terminated", "/lastState/terminated"]
                .into_iter()
                .filter_map(|p| status.pointer(p))
                .find(|t| int(t, "/exitCode").is_some_and(|code| code != 0));
            if !looping && terminated.is_none() {
                return None;
            }
            let exit_code = terminated.and_then(|t| int(t, "/exitCode"));
            let reason = if looping {
                "CrashLoopBackOff".to_string()
            } else {
                terminated
                    .and_then(|t| text(t, "/reason"))
                    .unwrap_or("Error")
                    .to_string()
            };
            Some(Crash {
                container,
                exit_code,
                reason,
            })
        })
        .collect()
}

/// The statuses of every container, init containers first.
fn containers(pod: &Value) -> impl Iterator<Item = &Value> {
    ["/status/initContainerStatuses", "/status/containerStatuses"]
        .into_iter()
        .filter_map(|pointer| pod.pointer(pointer)?.as_array())
        .flatten()
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn pod(labels: Value, owner: &str, waiting: Option<(&str, &str)>) -> Value {
        let state = match waiting {
            Some((reason, message)) => json!({"waiting": {"reason": reason, "message": message}}),
            None => json!({"running": {}}),
        };
        json!({
            "metadata": {"name": "web-1", "labels": labels,
                         "ownerReferences": [{"uid": owner, "kind": "ReplicaSet"}]},
            "status": {"phase": "Pending",
                       "containerStatuses": [{"name": "web", "state": state}]}
        })
    }

    #[test]
    fn a_deployments_current_pods_are_those_of_its_newest_replica_set() {
        let deployment = json!({"metadata": {"generation": 3}});
        let revision = current_revision("apps", "Deployment", &deployment).unwrap();
        let old = json!({"metadata": {"annotations": {"deployment.kubernetes.io/revision": "2"}}});
        let new = json!({"metadata": {"annotations": {"deployment.kubernetes.io/revision": "10"}}});
        let (old_rev, new_rev) = (
            replica_set_revision(&old).unwrap(),
            replica_set_revision(&new).unwrap(),
        );
        // Revisions compare as numbers, not text ("10" after "2").
        let newest = newest_replica_set([("rs-old", old_rev), ("rs-new", new_rev)]);
        assert_eq!(newest, Some("rs-new"));
        assert!(is_current(
            &revision,
            &pod(json!({}), "rs-new", None),
            newest
        ));
        assert!(!is_current(
            &revision,
            &pod(json!({}), "rs-old", None),
            newest
        ));
        assert!(!is_current(
            &revision,
            &pod(json!({}), "rs-new", None),
            None
        ));
        assert_eq!(replica_set_revision(&json!({"metadata": {}})), None);
    }

    #[test]
    fn a_statefulsets_current_pods_carry_its_update_revision() {
        let set = json!({"status": {"updateRevision": "web-7bb84c4984",
                                    "currentRevision": "web-5d9c8"}});
        let revision = current_revision("apps", "StatefulSet", &set).unwrap();
        let new = pod(
            json!({"controller-revision-hash": "web-7bb84c4984"}),
            "s",
            None,
        );
        let old = pod(json!({"controller-revision-hash": "web-5d9c8"}), "s", None);
        assert!(is_current(&revision, &new, None));
        assert!(!is_current(&revision, &old, None));
        // No update revision written yet: no Pod can be told current.
        assert_eq!(
            current_revision("apps", "StatefulSet", &json!({"status": {}})),
            None
        );
    }

    #[test]
    fn a_daemonsets_current_pods_carry_its_generation() {
        let set = json!({"metadata": {"generation": 4}});
        let revision = current_revision("apps", "DaemonSet", &set).unwrap();
        assert!(is_current(
            &revision,
            &pod(json!({"pod-template-generation": "4"}), "d", None),
            None
        ));
        assert!(!is_current(
            &revision,
            &pod(json!({"pod-template-generation": "3"}), "d", None),
            None
        ));
    }

    #[test]
    fn every_pod_of_a_job_is_current_and_other_kinds_own_none() {
        let revision = current_revision("batch", "Job", &json!({})).unwrap();
        assert!(is_current(&revision, &pod(json!({}), "j", None), None));
        assert_eq!(current_revision("", "ConfigMap", &json!({})), None);
        assert_eq!(current_revision("batch", "CronJob", &json!({})), None);
    }

    #[test]
    fn stuck_containers_and_unschedulable_pods_are_trouble() {
        for reason in STUCK {
            let said = trouble(&pod(json!({}), "r", Some((reason, "why\nmore")))).unwrap();
            assert_eq!(said, format!("{reason} (web): why"));
        }
        assert_eq!(
            trouble(&pod(json!({}), "r", Some(("ContainerCreating", "")))),
            None
        );
        assert_eq!(trouble(&pod(json!({}), "r", None)), None);
        let unschedulable = json!({"status": {"phase": "Pending", "conditions": [
            {"type": "PodScheduled", "status": "False", "reason": "Unschedulable",
             "message": "0/3 nodes are available: 3 Insufficient cpu."}]}});
        assert_eq!(
            trouble(&unschedulable).unwrap(),
            "Unschedulable: 0/3 nodes are available: 3 Insufficient cpu."
        );
        let mut gone = pod(json!({}), "r", Some(("ErrImagePull", "x")));
        gone["metadata"]["deletionTimestamp"] = json!("2026-01-01T00:00:00Z");
        assert_eq!(trouble(&gone), None);
    }

    #[test]
    fn crashed_containers_give_their_exit_code() {
        let looping = json!({"status": {"containerStatuses": [
            {"name": "web", "state": {"waiting": {"reason": "CrashLoopBackOff"}},
             "lastState": {"terminated": {"exitCode": 1, "reason": "Error"}}},
            {"name": "side", "state": {"running": {}},
             "lastState": {"terminated": {"exitCode": 0, "reason": "Completed"}}},
            {"name": "oom", "state": {"terminated": {"exitCode": 137, "reason": "OOMKilled"}}}]}});
        assert_eq!(
            crashes(&looping),
            [
                Crash {
                    container: "web".into(),
                    exit_code: Some(1),
                    reason: "CrashLoopBackOff".into()
                },
                Crash {
                    container: "oom".into(),
                    exit_code: Some(137),
                    reason: "OOMKilled".into()
                }
            ]
        );
    }
}
