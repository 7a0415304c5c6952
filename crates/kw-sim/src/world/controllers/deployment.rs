//! The deployment and replicaset controllers for the Deployments clients write: a ReplicaSet
//! per distinct Pod template (found again by its template, so `rollout undo` brings an old
//! one back with a new revision), a rolling update within `maxSurge` and `maxUnavailable`,
//! Pods created and deleted to each ReplicaSet's count, and the status, conditions and
//! Events kube-controller-manager writes, `ProgressDeadlineExceeded` included.

use std::collections::HashMap;
use std::time::{Duration, SystemTime};

use serde_json::{json, Map, Value};

use super::kubelet::Kubelet;
use super::owners::{is_ready, name_of, owned};
use super::recorder::{Involved, Recorder, Source};
use crate::world::objects::{owner_reference, rfc3339, safe_suffix};
use crate::world::store::Store;

const HASH_LABEL: &str = "pod-template-hash";
const REVISION: &str = "deployment.kubernetes.io/revision";

struct Tracked {
    uid: String,
    /// When the rollout last moved (a ReplicaSet scaled, a Pod became ready), for the
    /// progress deadline.
    last_progress: SystemTime,
    /// What moved last time, to tell progress.
    counts: (i64, i64, i64),
}

/// The Deployments under control, by (namespace, name).
#[derive(Default)]
pub struct Deployments {
    tracked: HashMap<(String, String), Option<Tracked>>,
    pods_made: u64,
}

/// One ReplicaSet as the controller reads it.
struct Set {
    object: Value,
    name: String,
    uid: String,
    replicas: i64,
    pods: Vec<String>,
    ready: i64,
}

impl Deployments {
    pub fn adopt(&mut self, namespace: &str, name: &str) {
        self.tracked
            .entry((namespace.into(), name.into()))
            .or_insert(None);
    }

    pub fn tick(
        &mut self,
        store: &Store,
        kubelet: &mut Kubelet,
        recorder: &mut Recorder,
        now: SystemTime,
        beat: Duration,
    ) {
        let keys: Vec<(String, String)> = self.tracked.keys().cloned().collect();
        for key in keys {
            let (_, deployments) = store.snapshot("deployments");
            let Some(deployment) = deployments.get(&key).map(|d| (**d).clone()) else {
                if let Some(Some(tracked)) = self.tracked.remove(&key) {
                    collect_garbage(store, kubelet, &key.0, &tracked.uid, now, beat);
                }
                continue;
            };
            let uid = deployment["metadata"]["uid"]
                .as_str()
                .unwrap_or("")
                .to_string();
            let entry = self.tracked.get_mut(&key).expect("tracked key");
            if entry.as_ref().is_none_or(|tracked| tracked.uid != uid) {
                *entry = Some(Tracked {
                    uid,
                    last_progress: now,
                    counts: (-1, -1, -1),
                });
            }
            let Some(tracked) = entry.as_mut() else {
                continue;
            };
            let mut pass = Pass {
                store,
                kubelet,
                recorder,
                now,
                beat,
                pods_made: &mut self.pods_made,
            };
            pass.reconcile(&deployment, tracked);
        }
    }
}

/// A deleted Deployment's ReplicaSets and their Pods go, as the garbage collector removes
/// dependents in the background.
fn collect_garbage(
    store: &Store,
    kubelet: &mut Kubelet,
    namespace: &str,
    owner_uid: &str,
    now: SystemTime,
    beat: Duration,
) {
    for set in owned(store, "replicasets", namespace, owner_uid) {
        let set_uid = set["metadata"]["uid"].as_str().unwrap_or("").to_string();
        for pod in owned(store, "pods", namespace, &set_uid) {
            kubelet.terminate(store, namespace, name_of(&pod), now, beat);
        }
        let _ = store.delete("replicasets", namespace, name_of(&set));
    }
}

struct Pass<'a> {
    store: &'a Store,
    kubelet: &'a mut Kubelet,
    recorder: &'a mut Recorder,
    now: SystemTime,
    beat: Duration,
    pods_made: &'a mut u64,
}

impl Pass<'_> {
    fn reconcile(&mut self, deployment: &Value, tracked: &mut Tracked) {
        let namespace = deployment["metadata"]["namespace"].as_str().unwrap_or("");
        let desired = deployment["spec"]["replicas"].as_i64().unwrap_or(1).max(0);
        let template = &deployment["spec"]["template"];
        let mut sets = self.sets(namespace, &tracked.uid);
        let revision = sets
            .iter()
            .filter_map(|set| revision_of(&set.object))
            .max()
            .unwrap_or(0);
        let new_at = match sets
            .iter()
            .position(|set| same_template(&set.object["spec"]["template"], template))
        {
            Some(at) => {
                if revision_of(&sets[at].object) != Some(revision) {
                    self.set_revision(&mut sets[at], revision + 1);
                    tracked.last_progress = self.now;
                }
                at
            }
            None => {
                let created = self.create_set(deployment, &tracked.uid, revision + 1);
                tracked.last_progress = self.now;
                sets.push(created);
                sets.len() - 1
            }
        };
        let (max_surge, max_unavailable) = limits(deployment, desired);
        // Scale up the new ReplicaSet within the surge.
        let total: i64 = sets.iter().map(|set| set.replicas).sum();
        let room = (desired + max_surge - total).max(0);
        let new_target = (sets[new_at].replicas + room).min(desired);
        let new_target = if sets[new_at].replicas > desired {
            desired
        } else {
            new_target
        };
        self.scale(deployment, &mut sets[new_at], new_target);
        // Scale old ones down as far as availability allows.
        let all: i64 = sets.iter().map(|set| set.replicas).sum();
        let new_unavailable = (sets[new_at].replicas - sets[new_at].ready).max(0);
        let mut budget = all - (desired - max_unavailable) - new_unavailable;
        for (at, set) in sets.iter_mut().enumerate() {
            if at == new_at || set.replicas == 0 {
                continue;
            }
            // Old Pods that are not ready go first, whatever the budget.
            let unready = set.replicas - set.ready;
            let cut = set
                .replicas
                .min(budget.max(0))
                .max(unready.min(set.replicas));
            if cut > 0 {
                budget -= cut;
                let target = set.replicas - cut;
                self.scale(deployment, set, target);
            }
        }
        for set in &mut sets {
            self.run_pods(namespace, set);
        }
        self.write_status(
            deployment,
            tracked,
            &sets,
            new_at,
            desired,
            max_unavailable,
            revision,
        );
    }

    fn sets(&self, namespace: &str, owner_uid: &str) -> Vec<Set> {
        let mut sets: Vec<Set> = owned(self.store, "replicasets", namespace, owner_uid)
            .into_iter()
            .map(|object| {
                let uid = object["metadata"]["uid"].as_str().unwrap_or("").to_string();
                // A Pod being deleted no longer counts, as the ReplicaSet controller skips it.
                let pods: Vec<Value> = owned(self.store, "pods", namespace, &uid)
                    .into_iter()
                    .filter(|pod| pod["metadata"]["deletionTimestamp"].is_null())
                    .collect();
                let ready = pods.iter().filter(|pod| is_ready(pod)).count() as i64;
                let pods: Vec<String> = pods.iter().map(|pod| name_of(pod).to_string()).collect();
                Set {
                    name: name_of(&object).to_string(),
                    replicas: object["spec"]["replicas"].as_i64().unwrap_or(0),
                    uid,
                    pods,
                    ready,
                    object,
                }
            })
            .collect();
        sets.sort_by_key(|set| revision_of(&set.object).unwrap_or(0));
        sets
    }

    fn set_revision(&mut self, set: &mut Set, revision: u64) {
        let revision = revision.to_string();
        if let Ok(stored) = self.store.modify::<crate::error::SimError>(
            "replicasets",
            set.object["metadata"]["namespace"].as_str().unwrap_or(""),
            &set.name,
            |current| {
                let mut object = current.clone();
                object["metadata"]["annotations"][REVISION] = json!(revision);
                Ok(object)
            },
        ) {
            set.object = stored;
        }
    }

    fn create_set(&mut self, deployment: &Value, owner_uid: &str, revision: u64) -> Set {
        let namespace = deployment["metadata"]["namespace"].as_str().unwrap_or("");
        let name = name_of(deployment);
        let seed = self.store.seed();
        let template = &deployment["spec"]["template"];
        let hash = safe_suffix(
            seed,
            &format!("{owner_uid}/{}", without_empty(template)),
            10,
        );
        let set_name = format!("{name}-{hash}");
        let mut template = template.clone();
        template["metadata"]["labels"][HASH_LABEL] = json!(hash);
        let mut selector = deployment["spec"]["selector"].clone();
        selector["matchLabels"][HASH_LABEL] = json!(hash);
        let object = json!({
            "apiVersion": "apps/v1",
            "kind": "ReplicaSet",
            "metadata": {
                "name": set_name,
                "namespace": namespace,
                "labels": template["metadata"]["labels"],
                "annotations": {REVISION: revision.to_string()},
                "ownerReferences": [owner_reference("apps/v1", "Deployment", name, owner_uid)],
                "generation": 1,
            },
            "spec": {"replicas": 0, "selector": selector, "template": template},
            "status": {"replicas": 0, "observedGeneration": 1},
        });
        let object = self.store.create("replicasets", object).unwrap_or_default();
        Set {
            uid: object["metadata"]["uid"].as_str().unwrap_or("").to_string(),
            name: set_name,
            replicas: 0,
            pods: Vec::new(),
            ready: 0,
            object,
        }
    }

    fn scale(&mut self, deployment: &Value, set: &mut Set, target: i64) {
        if set.replicas == target {
            return;
        }
        let namespace = deployment["metadata"]["namespace"].as_str().unwrap_or("");
        let stored = self.store.modify::<crate::error::SimError>(
            "replicasets",
            namespace,
            &set.name,
            |current| {
                let mut object = current.clone();
                object["spec"]["replicas"] = json!(target);
                object["metadata"]["annotations"]["deployment.kubernetes.io/desired-replicas"] =
                    json!(deployment["spec"]["replicas"]
                        .as_i64()
                        .unwrap_or(1)
                        .to_string());
                Ok(object)
            },
        );
        let direction = if target > set.replicas { "up" } else { "down" };
        let message = format!(
            "Scaled {direction} replica set {} from {} to {target}",
            set.name, set.replicas
        );
        self.event(
            deployment,
            "Deployment",
            "deployment-controller",
            "ScalingReplicaSet",
            &message,
        );
        set.replicas = target;
        if let Ok(stored) = stored {
            set.object = stored;
        }
    }

    fn event(&mut self, object: &Value, kind: &str, component: &str, reason: &str, message: &str) {
        let involved = Involved {
            api_version: "apps/v1",
            kind,
            namespace: object["metadata"]["namespace"].as_str().unwrap_or(""),
            name: name_of(object),
            uid: object["metadata"]["uid"].as_str().unwrap_or(""),
        };
        let source = Source {
            component,
            host: "",
            field_path: "",
        };
        self.recorder.record(
            self.store, &involved, &source, "Normal", reason, message, self.now,
        );
    }

    /// Create or delete Pods to the ReplicaSet's count, and write its status.
    fn run_pods(&mut self, namespace: &str, set: &mut Set) {
        while (set.pods.len() as i64) < set.replicas {
            *self.pods_made += 1;
            let suffix = safe_suffix(
                self.store.seed(),
                &format!("{}/{}", set.uid, self.pods_made),
                5,
            );
            let pod_name = format!("{}-{suffix}", set.name);
            let template = &set.object["spec"]["template"];
            let pod = json!({
                "apiVersion": "v1",
                "kind": "Pod",
                "metadata": {
                    "name": pod_name,
                    "namespace": namespace,
                    "generateName": format!("{}-", set.name),
                    "labels": template["metadata"]["labels"],
                    "annotations": template["metadata"]["annotations"],
                    "ownerReferences": [owner_reference("apps/v1", "ReplicaSet", &set.name, &set.uid)],
                },
                "spec": template["spec"],
                "status": {"phase": "Pending", "qosClass": "BestEffort"},
            });
            let mut pod = pod;
            if pod["metadata"]["annotations"].is_null() {
                if let Some(metadata) = pod["metadata"].as_object_mut() {
                    metadata.remove("annotations");
                }
            }
            match self.store.create("pods", pod) {
                Ok(stored) => {
                    let uid = stored["metadata"]["uid"].as_str().unwrap_or("");
                    self.kubelet.adopt(namespace, &pod_name, uid, self.now);
                    let message = format!("Created pod: {pod_name}");
                    let object = set.object.clone();
                    self.event(
                        &object,
                        "ReplicaSet",
                        "replicaset-controller",
                        "SuccessfulCreate",
                        &message,
                    );
                    set.pods.push(pod_name);
                }
                Err(_) => break,
            }
        }
        let (_, pods) = self.store.snapshot("pods");
        let ready = |name: &str| {
            pods.get(&(namespace.to_string(), name.to_string()))
                .is_some_and(|pod| is_ready(pod))
        };
        while (set.pods.len() as i64) > set.replicas {
            // Pods not ready go first, then the newest.
            let at = set
                .pods
                .iter()
                .rposition(|pod| !ready(pod))
                .unwrap_or(set.pods.len() - 1);
            let pod_name = set.pods.remove(at);
            self.kubelet
                .terminate(self.store, namespace, &pod_name, self.now, self.beat);
            let message = format!("Deleted pod: {pod_name}");
            let object = set.object.clone();
            self.event(
                &object,
                "ReplicaSet",
                "replicaset-controller",
                "SuccessfulDelete",
                &message,
            );
        }
        set.ready = set.pods.iter().filter(|pod| ready(pod)).count() as i64;
        let mut status = Map::new();
        status.insert("replicas".into(), json!(set.pods.len()));
        for (key, value) in [
            ("fullyLabeledReplicas", set.pods.len() as i64),
            ("readyReplicas", set.ready),
            ("availableReplicas", set.ready),
        ] {
            if value > 0 {
                status.insert(key.into(), json!(value));
            }
        }
        status.insert(
            "observedGeneration".into(),
            set.object["metadata"]["generation"].clone(),
        );
        let status = Value::Object(status);
        if set.object["status"] != status {
            let _ = self.store.modify::<crate::error::SimError>(
                "replicasets",
                namespace,
                &set.name,
                |current| {
                    let mut object = current.clone();
                    object["status"] = status.clone();
                    Ok(object)
                },
            );
        }
    }

    #[allow(clippy::too_many_arguments)]
    fn write_status(
        &mut self,
        deployment: &Value,
        tracked: &mut Tracked,
        sets: &[Set],
        new_at: usize,
        desired: i64,
        max_unavailable: i64,
        revision_before: u64,
    ) {
        let namespace = deployment["metadata"]["namespace"].as_str().unwrap_or("");
        let replicas: i64 = sets.iter().map(|set| set.pods.len() as i64).sum();
        let updated = sets[new_at].pods.len() as i64;
        let ready: i64 = sets.iter().map(|set| set.ready).sum();
        let counts = (updated, ready, replicas);
        if counts != tracked.counts {
            tracked.counts = counts;
            tracked.last_progress = self.now;
        }
        let new_name = &sets[new_at].name;
        let complete = updated == desired && replicas == desired && ready == desired;
        let deadline = deployment["spec"]["progressDeadlineSeconds"]
            .as_u64()
            .unwrap_or(600);
        let stuck = !complete
            && self
                .now
                .duration_since(tracked.last_progress)
                .unwrap_or_default()
                > Duration::from_secs(deadline);
        let available = ready >= desired - max_unavailable;
        let current = &deployment["status"];
        let condition = |kind: &str, status: &str, reason: &str, message: String| {
            let previous = current["conditions"]
                .as_array()
                .and_then(|all| all.iter().find(|c| c["type"] == kind));
            let same = previous.is_some_and(|p| p["status"] == status && p["reason"] == reason);
            let transition = match previous {
                Some(previous) if previous["status"] == status => {
                    previous["lastTransitionTime"].clone()
                }
                _ => json!(rfc3339(self.now)),
            };
            let update = match previous {
                Some(previous) if same => previous["lastUpdateTime"].clone(),
                _ => json!(rfc3339(self.now)),
            };
            json!({"type": kind, "status": status, "reason": reason, "message": message,
                   "lastTransitionTime": transition, "lastUpdateTime": update})
        };
        let availability = if available {
            condition(
                "Available",
                "True",
                "MinimumReplicasAvailable",
                "Deployment has minimum availability.".into(),
            )
        } else {
            condition(
                "Available",
                "False",
                "MinimumReplicasUnavailable",
                "Deployment does not have minimum availability.".into(),
            )
        };
        let progressing = if complete {
            condition(
                "Progressing",
                "True",
                "NewReplicaSetAvailable",
                format!("ReplicaSet \"{new_name}\" has successfully progressed."),
            )
        } else if stuck {
            condition(
                "Progressing",
                "False",
                "ProgressDeadlineExceeded",
                format!("ReplicaSet \"{new_name}\" has timed out progressing."),
            )
        } else {
            condition(
                "Progressing",
                "True",
                "ReplicaSetUpdated",
                format!("ReplicaSet \"{new_name}\" is progressing."),
            )
        };
        let mut status = Map::new();
        status.insert(
            "observedGeneration".into(),
            deployment["metadata"]["generation"].clone(),
        );
        for (key, value) in [
            ("replicas", replicas),
            ("updatedReplicas", updated),
            ("readyReplicas", ready),
            ("availableReplicas", ready),
            ("unavailableReplicas", (desired - ready).max(0)),
        ] {
            if value > 0 {
                status.insert(key.into(), json!(value));
            }
        }
        status.insert("conditions".into(), json!([availability, progressing]));
        let status = Value::Object(status);
        let revision = revision_of(&sets[new_at].object)
            .unwrap_or(revision_before)
            .to_string();
        if deployment["status"] == status
            && deployment["metadata"]["annotations"][REVISION] == revision.as_str()
        {
            return;
        }
        let _ = self.store.modify::<crate::error::SimError>(
            "deployments",
            namespace,
            name_of(deployment),
            |current| {
                let mut object = current.clone();
                // A client's write since this pass began wins: status is about what was read.
                if current["metadata"]["generation"] != deployment["metadata"]["generation"] {
                    return Ok(object);
                }
                object["status"] = status.clone();
                object["metadata"]["annotations"][REVISION] = json!(revision);
                Ok(object)
            },
        );
    }
}

fn revision_of(object: &Value) -> Option<u64> {
    object["metadata"]["annotations"][REVISION]
        .as_str()
        .and_then(|text| text.parse().ok())
}

/// Whether a ReplicaSet's template is the Deployment's: the same but for the hash label and
/// for empty values, which clients that decode into Go types write (`creationTimestamp: null`,
/// `resources: {}`), as the API server's defaulting makes them equal.
fn same_template(set_template: &Value, template: &Value) -> bool {
    let mut set_template = set_template.clone();
    if let Some(labels) = set_template["metadata"]["labels"].as_object_mut() {
        labels.remove(HASH_LABEL);
    }
    without_empty(&set_template) == without_empty(template)
}

fn without_empty(value: &Value) -> Value {
    match value {
        Value::Object(map) => Value::Object(
            map.iter()
                .map(|(key, value)| (key.clone(), without_empty(value)))
                .filter(|(_, value)| !is_empty(value))
                .collect(),
        ),
        Value::Array(items) => Value::Array(items.iter().map(without_empty).collect()),
        other => other.clone(),
    }
}

fn is_empty(value: &Value) -> bool {
    match value {
        Value::Null => true,
        Value::Object(map) => map.is_empty(),
        Value::Array(items) => items.is_empty(),
        Value::String(text) => text.is_empty(),
        _ => false,
    }
}

/// `maxSurge` and `maxUnavailable` as Pod counts (25% each by default; surge rounds up,
/// unavailability down; both zero would stall, so unavailability is then 1). `Recreate`
/// takes every old Pod down before the new ones come.
fn limits(deployment: &Value, desired: i64) -> (i64, i64) {
    let strategy = &deployment["spec"]["strategy"];
    if strategy["type"] == "Recreate" {
        return (0, desired);
    }
    let resolve = |value: &Value, round_up: bool| match value {
        Value::Number(number) => number.as_i64().unwrap_or(0),
        Value::String(text) => {
            let percent: i64 = text.trim_end_matches('%').parse().unwrap_or(25);
            let scaled = desired * percent;
            if round_up {
                (scaled + 99) / 100
            } else {
                scaled / 100
            }
        }
        _ => {
            if round_up {
                (desired * 25 + 99) / 100
            } else {
                desired * 25 / 100
            }
        }
    };
    let rolling = &strategy["rollingUpdate"];
    let surge = resolve(&rolling["maxSurge"], true);
    let unavailable = resolve(&rolling["maxUnavailable"], false);
    if surge == 0 && unavailable == 0 {
        (0, 1)
    } else {
        (surge, unavailable)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn limits_follow_the_rounding_of_the_controller() {
        let deployment = json!({"spec": {}});
        assert_eq!(limits(&deployment, 3), (1, 0));
        assert_eq!(limits(&deployment, 4), (1, 1));
        let zero =
            json!({"spec": {"strategy": {"rollingUpdate": {"maxSurge": 0, "maxUnavailable": 0}}}});
        assert_eq!(limits(&zero, 3), (0, 1));
        let recreate = json!({"spec": {"strategy": {"type": "Recreate"}}});
        assert_eq!(limits(&recreate, 3), (0, 3));
    }

    #[test]
    fn a_template_is_found_again_without_its_hash_or_empty_values() {
        let set = json!({"metadata": {"labels": {"app": "web", HASH_LABEL: "abc"}},
                         "spec": {"containers": [{"name": "web", "image": "nginx"}]}});
        let undone = json!({"metadata": {"labels": {"app": "web"}, "creationTimestamp": null},
                            "spec": {"containers": [{"name": "web", "image": "nginx", "resources": {}}]}});
        assert!(same_template(&set, &undone));
        let other = json!({"metadata": {"labels": {"app": "web"}},
                           "spec": {"containers": [{"name": "web", "image": "nginx:2"}]}});
        assert!(!same_template(&set, &other));
    }
}
