//! Whether one object has reached the state its spec asks for: ready, in progress, or failed
//! (it will not get there without someone acting), with a short message saying why.
//!
//! The rules are kstatus's (kubernetes-sigs/cli-utils, `pkg/kstatus/status`), which Flux, kpt
//! and kapply use, written afresh from the Kubernetes API's meaning of each field. Where a CI
//! step needs another answer this module deviates on purpose, and says so where it does: a Job
//! is ready only once Complete; a Pod in phase Failed has failed; a LoadBalancer Service is
//! ready once it has an ingress.
//!
//! Pure logic: an object and the moment to judge it at in, a judgement out. It never talks to
//! the server and knows nothing of watches or flags (`conditions` asks it, per event).

mod batch;
pub mod children;
mod fields;
mod judgement;
mod plain;
mod pod;
pub mod shape;
pub mod status_viewer;
mod workloads;

use std::time::SystemTime;

use serde_json::Value;

pub use fields::kubelet_text;
use fields::{condition, int, text};
pub use judgement::{Judgement, State};

/// Judge `object`, of API group `group` (empty for core) and kind `kind`, at `now`. The kind
/// comes from the watch, not the object, because a list's items may lack `kind`.
pub fn judge(group: &str, kind: &str, object: &Value, now: SystemTime) -> Judgement {
    // An object without its kind's shape is not judged as if it had it: it is said why.
    if let Some(why) = shape::mismatch(group, kind, object) {
        return Judgement::failed(why);
    }
    if let Some(judgement) = generic(object) {
        return judgement;
    }
    match (group, kind) {
        ("apps" | "extensions", "Deployment") => workloads::deployment(object),
        ("apps", "StatefulSet") => workloads::stateful_set(object),
        ("apps" | "extensions", "DaemonSet") => workloads::daemon_set(object),
        ("apps" | "extensions", "ReplicaSet") => workloads::replica_set(object),
        ("", "Pod") => pod::pod(object, now),
        ("batch", "Job") => batch::job(object),
        ("batch", "CronJob") => {
            Judgement::ready("CronJob is ready (its Jobs are judged on their own)")
        }
        ("", "PersistentVolumeClaim") => plain::persistent_volume_claim(object),
        ("", "Service") => plain::service(object),
        ("", "ConfigMap" | "Secret") => Judgement::ready("Resource is always ready"),
        ("policy", "PodDisruptionBudget") => plain::pod_disruption_budget(object),
        ("apiextensions.k8s.io", "CustomResourceDefinition") => {
            plain::custom_resource_definition(object)
        }
        _ => ready_condition(object).unwrap_or_else(|| Judgement::ready("Resource is current")),
    }
}

/// When `object`'s judgement may change with time alone, with no new event (a Pod that has
/// been unschedulable for less than the window), if it may: a waiter judges it again then.
pub fn judge_again_at(
    group: &str,
    kind: &str,
    object: &Value,
    now: SystemTime,
) -> Option<SystemTime> {
    match (group, kind) {
        ("", "Pod") if generic(object).is_none() => pod::unschedulable_window_ends(object, now),
        _ => None,
    }
}

/// Rules for every kind, custom resources included, that decide before the kind's own: an
/// object being deleted, a spec its controller has not seen yet, and the standard `Stalled` and
/// `Reconciling` conditions (a controller that sets them has said all there is to say).
fn generic(object: &Value) -> Option<Judgement> {
    if text(object, "/metadata/deletionTimestamp").is_some_and(|t| !t.is_empty()) {
        return Some(Judgement::in_progress("Resource scheduled for deletion"));
    }
    if let (Some(generation), Some(observed)) = (
        int(object, "/metadata/generation"),
        int(object, "/status/observedGeneration"),
    ) {
        if observed < generation {
            return Some(Judgement::in_progress(format!(
                "Generation {generation} not observed yet (latest observed: {observed})"
            )));
        }
    }
    // A stall outranks a reconcile: a controller that says both is not getting anywhere.
    if let Some(stalled) = condition(object, "Stalled").filter(|c| c.is_true()) {
        return Some(Judgement::failed(stalled.describe()));
    }
    if let Some(reconciling) = condition(object, "Reconciling").filter(|c| c.is_true()) {
        return Some(Judgement::in_progress(reconciling.describe()));
    }
    None
}

/// Kinds without rules of their own: the widely used (if unconventional) `Ready` condition.
/// `Ready=False` (or `Unknown`) is in progress: nothing in it tells a slow object from a doomed
/// one. Without the condition the object is taken as current, as kstatus does, since a kind
/// that reports no status cannot be waited on.
fn ready_condition(object: &Value) -> Option<Judgement> {
    let ready = condition(object, "Ready")?;
    match ready.status {
        "True" => Some(Judgement::ready("Resource is Ready")),
        "False" | "Unknown" => Some(Judgement::in_progress(ready.describe())),
        _ => None,
    }
}

#[cfg(test)]
pub(crate) mod testdata {
    //! Real objects (tests/fixtures/objects, from k9s's test data) for the rules' tests, which
    //! change only the fields a rule reads.

    use serde_json::Value;

    pub fn object(name: &str) -> Value {
        let text = match name {
            "dp" => include_str!("../../../../tests/fixtures/objects/dp.json"),
            "sts" => include_str!("../../../../tests/fixtures/objects/sts.json"),
            "ds" => include_str!("../../../../tests/fixtures/objects/ds.json"),
            "rs" => include_str!("../../../../tests/fixtures/objects/rs.json"),
            "po" => include_str!("../../../../tests/fixtures/objects/po.json"),
            "pvc" => include_str!("../../../../tests/fixtures/objects/pvc.json"),
            "svc" => include_str!("../../../../tests/fixtures/objects/svc.json"),
            "job" => include_str!("../../../../tests/fixtures/objects/job.json"),
            "cj" => include_str!("../../../../tests/fixtures/objects/cj.json"),
            "cm" => include_str!("../../../../tests/fixtures/objects/cm.json"),
            "sec" => include_str!("../../../../tests/fixtures/objects/sec.json"),
            "crd" => include_str!("../../../../tests/fixtures/objects/crd.json"),
            other => panic!("no fixture {other}"),
        };
        serde_json::from_str(text).expect("fixture is JSON")
    }

    /// Set the field at `pointer` (creating parents; a number indexes an existing list), as a
    /// controller or the user would.
    pub fn set(object: &mut Value, pointer: &str, value: Value) {
        let mut at = object;
        for key in pointer.trim_start_matches('/').split('/') {
            at = match (at, key.parse::<usize>()) {
                (Value::Array(items), Ok(index)) => {
                    items.get_mut(index).expect("an index in the list")
                }
                (other, _) => {
                    if !other.is_object() {
                        *other = Value::Object(Default::default());
                    }
                    other
                        .as_object_mut()
                        .expect("an object")
                        .entry(key.to_string())
                        .or_insert(Value::Null)
                }
            };
        }
        *at = value;
    }

    /// Drop the field at `pointer`.
    pub fn remove(object: &mut Value, pointer: &str) {
        let (parent, key) = pointer.rsplit_once('/').expect("a pointer");
        if let Some(map) = object.pointer_mut(parent).and_then(Value::as_object_mut) {
            map.remove(key);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::testdata::{object, set};
    use super::*;
    use serde_json::json;

    fn now() -> SystemTime {
        SystemTime::now()
    }

    #[test]
    fn an_object_being_deleted_is_never_ready() {
        let mut cm = object("cm");
        assert_eq!(judge("", "ConfigMap", &cm, now()).state, State::Ready);
        set(
            &mut cm,
            "/metadata/deletionTimestamp",
            json!("2019-08-09T05:12:19Z"),
        );
        assert_eq!(
            judge("", "ConfigMap", &cm, now()),
            Judgement::in_progress("Resource scheduled for deletion")
        );
    }

    #[test]
    fn a_spec_the_controller_has_not_seen_is_in_progress() {
        // The fixture is a rolled-out Deployment; the user then changes its spec.
        let mut dp = object("dp");
        assert_eq!(judge("apps", "Deployment", &dp, now()).state, State::Ready);
        set(&mut dp, "/metadata/generation", json!(2));
        assert_eq!(
            judge("apps", "Deployment", &dp, now()).message,
            "Generation 2 not observed yet (latest observed: 1)"
        );
    }

    #[test]
    fn stalled_fails_and_reconciling_waits_for_any_kind() {
        let custom = |conditions: Value| {
            json!({"apiVersion": "example.com/v1", "kind": "Widget",
                   "metadata": {"name": "w", "generation": 4},
                   "status": {"observedGeneration": 4, "conditions": conditions}})
        };
        let widget = |c| judge("example.com", "Widget", &custom(c), now());
        assert_eq!(
            widget(
                json!([{"type": "Stalled", "status": "True", "reason": "Broken",
                           "message": "image not found"}])
            ),
            Judgement::failed("image not found")
        );
        assert_eq!(
            widget(json!([{"type": "Reconciling", "status": "True", "reason": "Progressing"}])),
            Judgement::in_progress("Progressing")
        );
        assert_eq!(
            widget(json!([{"type": "Reconciling", "status": "True"},
                          {"type": "Stalled", "status": "True", "message": "stuck"}]))
            .state,
            State::Failed
        );
        // Ready condition, for kinds with no rules of their own.
        assert_eq!(
            widget(json!([{"type": "Ready", "status": "False", "message": "waiting for DNS"}])),
            Judgement::in_progress("waiting for DNS")
        );
        assert_eq!(
            widget(json!([{"type": "Ready", "status": "Unknown"}])).state,
            State::InProgress
        );
        assert_eq!(
            widget(json!([{"type": "Ready", "status": "True"},
                          {"type": "Stalled", "status": "False"}])),
            Judgement::ready("Resource is Ready")
        );
        assert_eq!(widget(json!([])), Judgement::ready("Resource is current"));
    }

    #[test]
    fn config_maps_secrets_and_cron_jobs_are_ready_once_they_exist() {
        assert_eq!(
            judge("", "ConfigMap", &object("cm"), now()).state,
            State::Ready
        );
        assert_eq!(
            judge("", "Secret", &object("sec"), now()).state,
            State::Ready
        );
        assert_eq!(
            judge("batch", "CronJob", &object("cj"), now()).state,
            State::Ready
        );
    }

    #[test]
    fn judgements_read_as_state_then_message() {
        assert_eq!(
            Judgement::in_progress("Updated: 1/3").to_string(),
            "in progress: Updated: 1/3"
        );
    }
}
