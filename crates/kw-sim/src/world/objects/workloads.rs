//! Deployments and their ReplicaSets, shaped like `fixtures/dp.json` and `rs.json` (apps/v1).

use std::time::SystemTime;

use serde_json::{json, Map, Value};

use super::ids::{rfc3339, safe_suffix, uid};
use super::pods::owner_reference;

/// One deployment and its current replicaset.
#[derive(Debug, Clone, PartialEq)]
pub struct Workload {
    pub namespace: String,
    pub name: String,
    pub containers: Vec<Value>,
    pub replicas: u32,
    pub created: SystemTime,
    /// The `pod-template-hash`: the replicaset is `<name>-<hash>`.
    pub template_hash: String,
    pub deployment_uid: String,
    pub replicaset_uid: String,
}

impl Workload {
    pub fn new(
        seed: u64,
        namespace: &str,
        name: &str,
        containers: Vec<Value>,
        replicas: u32,
        created: SystemTime,
    ) -> Workload {
        // Real hashes are 8–10 characters; 9 or 10 keeps names like `web-7d4b9c6f5`.
        let hash_len = 9 + (name.len() % 2);
        Workload {
            namespace: namespace.into(),
            name: name.into(),
            containers,
            replicas,
            created,
            template_hash: safe_suffix(seed, &format!("{namespace}/{name}/template"), hash_len),
            deployment_uid: uid(seed, &format!("deployments/{namespace}/{name}")),
            replicaset_uid: uid(seed, &format!("replicasets/{namespace}/{name}")),
        }
    }

    pub fn replicaset_name(&self) -> String {
        format!("{}-{}", self.name, self.template_hash)
    }

    /// The labels of the pods: `app` plus the `pod-template-hash` the replicaset adds.
    pub fn pod_labels(&self) -> Map<String, Value> {
        let mut labels = Map::new();
        labels.insert("app".into(), json!(self.name));
        labels.insert("pod-template-hash".into(), json!(self.template_hash));
        labels
    }

    pub fn replicaset_owner(&self) -> Value {
        owner_reference(
            "apps/v1",
            "ReplicaSet",
            &self.replicaset_name(),
            &self.replicaset_uid,
        )
    }

    fn template(&self, with_hash: bool) -> Value {
        let mut labels = json!({"app": self.name});
        if with_hash {
            labels["pod-template-hash"] = json!(self.template_hash);
        }
        json!({
            "metadata": {"creationTimestamp": null, "labels": labels},
            "spec": {
                "containers": self.containers,
                "dnsPolicy": "ClusterFirst",
                "restartPolicy": "Always",
                "schedulerName": "default-scheduler",
                "securityContext": {},
                "terminationGracePeriodSeconds": 30
            }
        })
    }

    /// The deployment with every replica ready.
    pub fn deployment(&self) -> Value {
        let mut deployment = json!({
            "apiVersion": "apps/v1",
            "kind": "Deployment",
            "metadata": {
                "annotations": {"deployment.kubernetes.io/revision": "1"},
                "creationTimestamp": rfc3339(self.created),
                "generation": 1,
                "labels": {"app": self.name},
                "managedFields": [{
                    "apiVersion": "apps/v1",
                    "fieldsType": "FieldsV1",
                    "fieldsV1": {"f:metadata": {"f:labels": {".": {}, "f:app": {}}}, "f:spec": {"f:replicas": {}, "f:selector": {}, "f:template": {}}},
                    "manager": "kubectl-create",
                    "operation": "Update",
                    "time": rfc3339(self.created)
                }],
                "name": self.name,
                "namespace": self.namespace,
                "uid": self.deployment_uid
            },
            "spec": {
                "progressDeadlineSeconds": 600,
                "replicas": self.replicas,
                "revisionHistoryLimit": 10,
                "selector": {"matchLabels": {"app": self.name}},
                "strategy": {"rollingUpdate": {"maxSurge": "25%", "maxUnavailable": "25%"}, "type": "RollingUpdate"},
                "template": self.template(false)
            },
            "status": {}
        });
        set_replica_counts(
            &mut deployment,
            self.replicas,
            self.replicas,
            self.replicas,
            self.created,
        );
        deployment
    }

    /// The replicaset with every replica ready.
    pub fn replicaset(&self) -> Value {
        let mut replicaset = json!({
            "apiVersion": "apps/v1",
            "kind": "ReplicaSet",
            "metadata": {
                "annotations": {
                    "deployment.kubernetes.io/desired-replicas": self.replicas.to_string(),
                    "deployment.kubernetes.io/max-replicas": (self.replicas + self.replicas.div_ceil(4)).to_string(),
                    "deployment.kubernetes.io/revision": "1"
                },
                "creationTimestamp": rfc3339(self.created),
                "generation": 1,
                "labels": self.pod_labels(),
                "managedFields": [{
                    "apiVersion": "apps/v1",
                    "fieldsType": "FieldsV1",
                    "fieldsV1": {"f:metadata": {"f:ownerReferences": {}}, "f:spec": {"f:replicas": {}}},
                    "manager": "kube-controller-manager",
                    "operation": "Update",
                    "time": rfc3339(self.created)
                }],
                "name": self.replicaset_name(),
                "namespace": self.namespace,
                "ownerReferences": [owner_reference("apps/v1", "Deployment", &self.name, &self.deployment_uid)],
                "uid": self.replicaset_uid
            },
            "spec": {
                "replicas": self.replicas,
                "selector": {"matchLabels": self.pod_labels()},
                "template": self.template(true)
            },
            "status": {}
        });
        set_replica_counts(
            &mut replicaset,
            self.replicas,
            self.replicas,
            self.replicas,
            self.created,
        );
        replicaset
    }
}

/// Rewrites `spec.replicas` and the status counters of a Deployment or ReplicaSet, as their
/// controllers would after pods came and went. `at` dates the Deployment's conditions.
pub fn set_replica_counts(
    object: &mut Value,
    desired: u32,
    current: u32,
    ready: u32,
    at: SystemTime,
) {
    let is_deployment = object["kind"] == "Deployment";
    let generation = object["metadata"]["generation"].as_i64().unwrap_or(1);
    if object["spec"]["replicas"].as_u64() != Some(u64::from(desired))
        && object["spec"].get("replicas").is_some()
    {
        object["metadata"]["generation"] = json!(generation + 1);
    }
    object["spec"]["replicas"] = json!(desired);
    let generation = object["metadata"]["generation"].clone();
    // Zero counters are omitted (`omitempty`), exactly as the API server serialises them.
    let mut status = Map::new();
    let mut put = |key: &str, value: u32| {
        if value > 0 {
            status.insert(key.into(), json!(value));
        }
    };
    put("availableReplicas", ready);
    if !is_deployment {
        put("fullyLabeledReplicas", current);
    }
    put("readyReplicas", ready);
    put("replicas", current);
    if is_deployment {
        put("updatedReplicas", current);
        put("unavailableReplicas", desired.saturating_sub(ready));
    }
    status.insert("observedGeneration".into(), generation);
    if is_deployment {
        let name = object["metadata"]["name"]
            .as_str()
            .unwrap_or("")
            .to_string();
        let available = ready >= desired.saturating_sub(desired / 4);
        let stamp = rfc3339(at);
        let (reason, message) = if available {
            (
                "MinimumReplicasAvailable",
                "Deployment has minimum availability.".to_string(),
            )
        } else {
            (
                "MinimumReplicasUnavailable",
                "Deployment does not have minimum availability.".to_string(),
            )
        };
        let hash = object["spec"]["template"]["metadata"]["labels"]["pod-template-hash"]
            .as_str()
            .map(str::to_string);
        let replicaset = hash
            .map(|h| format!("{name}-{h}"))
            .unwrap_or_else(|| name.clone());
        status.insert(
            "conditions".into(),
            json!([
                {"lastTransitionTime": stamp, "lastUpdateTime": stamp, "message": message, "reason": reason,
                 "status": if available { "True" } else { "False" }, "type": "Available"},
                {"lastTransitionTime": stamp, "lastUpdateTime": stamp,
                 "message": format!("ReplicaSet \"{replicaset}\" has successfully progressed."),
                 "reason": "NewReplicaSetAvailable", "status": "True", "type": "Progressing"}
            ]),
        );
    } else {
        object["metadata"]["annotations"]["deployment.kubernetes.io/desired-replicas"] =
            json!(desired.to_string());
    }
    object["status"] = Value::Object(status);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::world::objects::pods::container_spec;
    use std::time::Duration;

    #[test]
    fn replicaset_is_owned_by_its_deployment() {
        let created = SystemTime::UNIX_EPOCH + Duration::from_secs(1_700_000_000);
        let workload = Workload::new(
            1,
            "default",
            "web",
            vec![container_spec(
                "web",
                "nginx:1.27",
                Some(80),
                "100m",
                "128Mi",
            )],
            3,
            created,
        );
        let deployment = workload.deployment();
        let replicaset = workload.replicaset();
        assert_eq!(
            replicaset["metadata"]["ownerReferences"][0]["uid"],
            deployment["metadata"]["uid"]
        );
        assert_eq!(
            replicaset["metadata"]["labels"]["pod-template-hash"],
            json!(workload.template_hash)
        );
        assert_eq!(deployment["status"]["readyReplicas"], 3);
        assert!(replicaset["metadata"]["name"]
            .as_str()
            .unwrap_or("")
            .starts_with("web-"));
    }

    #[test]
    fn scaling_bumps_generation_and_drops_zero_counters() {
        let created = SystemTime::UNIX_EPOCH + Duration::from_secs(1_700_000_000);
        let workload = Workload::new(1, "default", "web", vec![], 2, created);
        let mut deployment = workload.deployment();
        set_replica_counts(&mut deployment, 3, 2, 0, created);
        assert_eq!(deployment["metadata"]["generation"], 2);
        assert_eq!(deployment["status"]["observedGeneration"], 2);
        assert!(deployment["status"].get("readyReplicas").is_none());
        assert_eq!(deployment["status"]["unavailableReplicas"], 3);
    }
}
