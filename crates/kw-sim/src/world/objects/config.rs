//! ConfigMaps and Secrets, shaped like `fixtures/cm.json` and `sec.json`.

use std::time::SystemTime;

use base64::Engine;
use serde_json::{json, Map, Value};

use super::ids::{hex, rfc3339, uid};

/// The cluster CA bundle every namespace gets a copy of, as `kube-root-ca.crt`.
fn root_ca(seed: u64) -> String {
    let body = base64::engine::general_purpose::STANDARD.encode(hex(seed, "root-ca", 96));
    format!("-----BEGIN CERTIFICATE-----\n{body}\n-----END CERTIFICATE-----\n")
}

pub fn config_map(
    seed: u64,
    namespace: &str,
    name: &str,
    data: &[(&str, String)],
    created: SystemTime,
) -> Value {
    let data: Map<String, Value> = data
        .iter()
        .map(|(k, v)| ((*k).to_string(), json!(v)))
        .collect();
    let mut object = json!({
        "apiVersion": "v1",
        "data": data,
        "kind": "ConfigMap",
        "metadata": {
            "creationTimestamp": rfc3339(created),
            "name": name,
            "namespace": namespace,
            "uid": uid(seed, &format!("configmaps/{namespace}/{name}"))
        }
    });
    if name == "kube-root-ca.crt" {
        object["metadata"]["annotations"] = json!({"kubernetes.io/description": "Contains a CA bundle that can be used to verify the kube-apiserver when using internal endpoints such as the internal service IP or kubernetes.default.svc. No other usage is guaranteed across distributions of Kubernetes clusters."});
    }
    object
}

/// The `kube-root-ca.crt` configmap of a namespace.
pub fn root_ca_config_map(seed: u64, namespace: &str, created: SystemTime) -> Value {
    config_map(
        seed,
        namespace,
        "kube-root-ca.crt",
        &[("ca.crt", root_ca(seed))],
        created,
    )
}

/// An `Opaque` secret; values are given in clear and stored base64-encoded, as the API does.
pub fn secret(
    seed: u64,
    namespace: &str,
    name: &str,
    data: &[(&str, &str)],
    created: SystemTime,
) -> Value {
    let data: Map<String, Value> = data
        .iter()
        .map(|(k, v)| {
            (
                (*k).to_string(),
                json!(base64::engine::general_purpose::STANDARD.encode(v)),
            )
        })
        .collect();
    json!({
        "apiVersion": "v1",
        "data": data,
        "kind": "Secret",
        "metadata": {
            "creationTimestamp": rfc3339(created),
            "name": name,
            "namespace": namespace,
            "uid": uid(seed, &format!("secrets/{namespace}/{name}"))
        },
        "type": "Opaque"
    })
}

/// A PersistentVolumeClaim bound to a dynamically provisioned volume.
pub fn bound_claim(
    seed: u64,
    namespace: &str,
    name: &str,
    size: &str,
    created: SystemTime,
) -> Value {
    let claim_uid = uid(seed, &format!("persistentvolumeclaims/{namespace}/{name}"));
    json!({
        "apiVersion": "v1",
        "kind": "PersistentVolumeClaim",
        "metadata": {
            "annotations": {
                "pv.kubernetes.io/bind-completed": "yes",
                "pv.kubernetes.io/bound-by-controller": "yes",
                "volume.beta.kubernetes.io/storage-provisioner": "rancher.io/local-path",
                "volume.kubernetes.io/selected-node": "node-2",
                "volume.kubernetes.io/storage-provisioner": "rancher.io/local-path"
            },
            "creationTimestamp": rfc3339(created),
            "finalizers": ["kubernetes.io/pvc-protection"],
            "labels": {"app": name.split('-').next().unwrap_or(name)},
            "name": name,
            "namespace": namespace,
            "uid": claim_uid
        },
        "spec": {
            "accessModes": ["ReadWriteOnce"],
            "resources": {"requests": {"storage": size}},
            "storageClassName": "standard",
            "volumeMode": "Filesystem",
            "volumeName": format!("pvc-{claim_uid}")
        },
        "status": {
            "accessModes": ["ReadWriteOnce"],
            "capacity": {"storage": size},
            "phase": "Bound"
        }
    })
}
