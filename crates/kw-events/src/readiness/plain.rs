//! Rules for kinds with one field or condition to read: PersistentVolumeClaim, Service,
//! PodDisruptionBudget and CustomResourceDefinition.

use serde_json::Value;

use super::fields::{conditions, int, text};
use super::judgement::Judgement;

/// A claim is ready once bound to a volume.
pub fn persistent_volume_claim(object: &Value) -> Judgement {
    match text(object, "/status/phase").unwrap_or("unknown") {
        "Bound" => Judgement::ready("PVC is Bound"),
        phase => Judgement::in_progress(format!(
            "PVC is not Bound. phase: {}",
            super::fields::short(phase)
        )),
    }
}

/// Deviation from kstatus, which only asks for a cluster IP: a LoadBalancer Service is ready
/// once its load balancer has an address (`status.loadBalancer.ingress`), since that is what a
/// CI step that waits for it goes on to use.
pub fn service(object: &Value) -> Judgement {
    if text(object, "/spec/type") != Some("LoadBalancer") {
        return Judgement::ready("Service is ready");
    }
    let ingress = object
        .pointer("/status/loadBalancer/ingress")
        .and_then(Value::as_array)
        .is_some_and(|list| !list.is_empty());
    if ingress {
        Judgement::ready("Service is ready")
    } else {
        Judgement::in_progress("LoadBalancer has no ingress yet")
    }
}

/// The disruption controller writes no conditions worth reading when it fails; a budget is ready
/// once it has observed this generation (the generic rule has checked that it is not behind).
pub fn pod_disruption_budget(object: &Value) -> Judgement {
    if int(object, "/status/observedGeneration").is_none() {
        return Judgement::in_progress("PDB not observed yet");
    }
    Judgement::ready("AllowedDisruptions has been computed")
}

/// A CRD is ready once `Established` (its API is served). Names in conflict with another CRD
/// (`NamesAccepted=False`) never get it there; nor does `Established=False` for any reason but
/// `Installing`.
pub fn custom_resource_definition(object: &Value) -> Judgement {
    for c in conditions(object) {
        match c.kind {
            "NamesAccepted" if c.is_false() => return Judgement::failed(c.describe()),
            "Established" if c.is_false() && c.reason != "Installing" => {
                return Judgement::failed(c.describe())
            }
            "Established" if c.is_true() => return Judgement::ready("CRD is established"),
            _ => {}
        }
    }
    Judgement::in_progress("Install in progress")
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

    #[test]
    fn a_claim_is_ready_once_bound() {
        let mut pvc = object("pvc");
        assert_eq!(
            judged("", "PersistentVolumeClaim", &pvc),
            Judgement::ready("PVC is Bound")
        );
        set(&mut pvc, "/status/phase", json!("Pending"));
        assert_eq!(
            judged("", "PersistentVolumeClaim", &pvc),
            Judgement::in_progress("PVC is not Bound. phase: Pending")
        );
    }

    #[test]
    fn a_load_balancer_is_ready_once_it_has_an_ingress() {
        let svc = object("svc");
        assert_eq!(judged("", "Service", &svc).state, State::Ready);
        let mut lb = svc;
        set(&mut lb, "/spec/type", json!("LoadBalancer"));
        // Deviation from kstatus: a cluster IP is not enough.
        assert_eq!(
            judged("", "Service", &lb),
            Judgement::in_progress("LoadBalancer has no ingress yet")
        );
        set(&mut lb, "/status/loadBalancer/ingress", json!([]));
        assert_eq!(judged("", "Service", &lb).state, State::InProgress);
        set(
            &mut lb,
            "/status/loadBalancer/ingress",
            json!([{"ip": "203.0.113.7"}]),
        );
        assert_eq!(
            judged("", "Service", &lb),
            Judgement::ready("Service is ready")
        );
    }

    #[test]
    fn a_budget_is_ready_once_observed() {
        let mut pdb = json!({"apiVersion": "policy/v1", "kind": "PodDisruptionBudget",
            "metadata": {"name": "web", "generation": 2},
            "spec": {"minAvailable": 2, "selector": {"matchLabels": {"app": "web"}}},
            "status": {}});
        assert_eq!(
            judged("policy", "PodDisruptionBudget", &pdb).state,
            State::InProgress
        );
        set(&mut pdb, "/status/observedGeneration", json!(1));
        assert_eq!(
            judged("policy", "PodDisruptionBudget", &pdb).state,
            State::InProgress
        );
        set(&mut pdb, "/status/observedGeneration", json!(2));
        assert_eq!(
            judged("policy", "PodDisruptionBudget", &pdb).state,
            State::Ready
        );
    }

    #[test]
    fn a_crd_is_ready_once_established_and_fails_on_name_conflicts() {
        const GROUP: &str = "apiextensions.k8s.io";
        let crd = object("crd");
        assert_eq!(
            judged(GROUP, "CustomResourceDefinition", &crd),
            Judgement::ready("CRD is established")
        );
        let mut installing = crd.clone();
        set(
            &mut installing,
            "/status/conditions/1",
            json!({
            "type": "Established", "status": "False", "reason": "Installing"}),
        );
        assert_eq!(
            judged(GROUP, "CustomResourceDefinition", &installing),
            Judgement::in_progress("Install in progress")
        );
        let mut conflict = crd.clone();
        set(
            &mut conflict,
            "/status/conditions/0",
            json!({
            "type": "NamesAccepted", "status": "False", "reason": "MultipleNameConflicts",
            "message": "\"adapters\" is already in use"}),
        );
        set(
            &mut conflict,
            "/status/conditions/1",
            json!({
            "type": "Established", "status": "False", "reason": "NotAccepted"}),
        );
        assert_eq!(
            judged(GROUP, "CustomResourceDefinition", &conflict),
            Judgement::failed("\"adapters\" is already in use")
        );
        let mut new = crd;
        remove(&mut new, "/status/conditions");
        assert_eq!(
            judged(GROUP, "CustomResourceDefinition", &new).state,
            State::InProgress
        );
    }
}
