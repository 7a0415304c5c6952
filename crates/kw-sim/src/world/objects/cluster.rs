//! Cluster-scoped objects: namespaces and nodes, shaped like `fixtures/ns.json` and `no.json`.

use std::time::SystemTime;

use serde_json::{json, Value};

use super::ids::{hex, rfc3339, uid};

/// A namespace in phase `Active`.
pub fn namespace(seed: u64, name: &str, created: SystemTime) -> Value {
    json!({
        "apiVersion": "v1",
        "kind": "Namespace",
        "metadata": {
            "creationTimestamp": rfc3339(created),
            "labels": {"kubernetes.io/metadata.name": name},
            "managedFields": [{
                "apiVersion": "v1",
                "fieldsType": "FieldsV1",
                "fieldsV1": {"f:metadata": {"f:labels": {".": {}, "f:kubernetes.io/metadata.name": {}}}},
                "manager": if name.starts_with("kube-") || name == "default" { "kube-apiserver" } else { "kubectl-create" },
                "operation": "Update",
                "time": rfc3339(created)
            }],
            "name": name,
            "uid": uid(seed, &format!("namespaces/{name}"))
        },
        "spec": {"finalizers": ["kubernetes"]},
        "status": {"phase": "Active"}
    })
}

/// What distinguishes one simulated node from another.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NodeShape {
    pub name: String,
    pub internal_ip: String,
    pub pod_cidr: String,
    pub control_plane: bool,
}

/// The three nodes of the simulated cluster: `node-1` runs the control plane.
pub fn node_shapes() -> Vec<NodeShape> {
    (1..=3)
        .map(|index| NodeShape {
            name: format!("node-{index}"),
            internal_ip: format!("10.0.0.{}", 10 + index),
            pod_cidr: format!("10.244.{}.0/24", index - 1),
            control_plane: index == 1,
        })
        .collect()
}

fn node_condition(
    kind: &str,
    status: &str,
    reason: &str,
    message: &str,
    heartbeat: SystemTime,
    since: SystemTime,
) -> Value {
    json!({
        "lastHeartbeatTime": rfc3339(heartbeat),
        "lastTransitionTime": rfc3339(since),
        "message": message,
        "reason": reason,
        "status": status,
        "type": kind
    })
}

/// A Ready node running kubelet v1.32.0 on containerd.
pub fn node(seed: u64, shape: &NodeShape, created: SystemTime, heartbeat: SystemTime) -> Value {
    let name = shape.name.as_str();
    let mut labels = json!({
        "beta.kubernetes.io/arch": "amd64",
        "beta.kubernetes.io/os": "linux",
        "kubernetes.io/arch": "amd64",
        "kubernetes.io/hostname": name,
        "kubernetes.io/os": "linux"
    });
    let mut taints = json!([]);
    if shape.control_plane {
        labels["node-role.kubernetes.io/control-plane"] = json!("");
        labels["node.kubernetes.io/exclude-from-external-load-balancers"] = json!("");
        taints = json!([{"effect": "NoSchedule", "key": "node-role.kubernetes.io/control-plane"}]);
    }
    let mut spec = json!({"podCIDR": shape.pod_cidr, "podCIDRs": [shape.pod_cidr]});
    if shape.control_plane {
        spec["taints"] = taints;
    }
    let boot_id = hex(seed, &format!("{name}/boot"), 32);
    json!({
        "apiVersion": "v1",
        "kind": "Node",
        "metadata": {
            "annotations": {
                "kubeadm.alpha.kubernetes.io/cri-socket": "unix:///run/containerd/containerd.sock",
                "node.alpha.kubernetes.io/ttl": "0",
                "volumes.kubernetes.io/controller-managed-attach-detach": "true"
            },
            "creationTimestamp": rfc3339(created),
            "labels": labels,
            "managedFields": [{
                "apiVersion": "v1",
                "fieldsType": "FieldsV1",
                "fieldsV1": {"f:status": {"f:conditions": {}, "f:images": {}, "f:nodeInfo": {}}},
                "manager": "kubelet",
                "operation": "Update",
                "subresource": "status",
                "time": rfc3339(heartbeat)
            }],
            "name": name,
            "uid": uid(seed, &format!("nodes/{name}"))
        },
        "spec": spec,
        "status": {
            "addresses": [
                {"address": shape.internal_ip, "type": "InternalIP"},
                {"address": name, "type": "Hostname"}
            ],
            "allocatable": {"cpu": "4", "ephemeral-storage": "101430960Ki", "hugepages-2Mi": "0", "memory": "16272000Ki", "pods": "110"},
            "capacity": {"cpu": "4", "ephemeral-storage": "101430960Ki", "hugepages-2Mi": "0", "memory": "16374400Ki", "pods": "110"},
            "conditions": [
                node_condition("MemoryPressure", "False", "KubeletHasSufficientMemory", "kubelet has sufficient memory available", heartbeat, created),
                node_condition("DiskPressure", "False", "KubeletHasNoDiskPressure", "kubelet has no disk pressure", heartbeat, created),
                node_condition("PIDPressure", "False", "KubeletHasSufficientPID", "kubelet has sufficient PID available", heartbeat, created),
                node_condition("Ready", "True", "KubeletReady", "kubelet is posting ready status", heartbeat, created)
            ],
            "daemonEndpoints": {"kubeletEndpoint": {"Port": 10250}},
            "images": [
                {"names": [format!("registry.k8s.io/etcd@sha256:{}", hex(seed, "etcd", 64)), "registry.k8s.io/etcd:3.5.16-0"], "sizeBytes": 57680541},
                {"names": [format!("registry.k8s.io/kube-proxy@sha256:{}", hex(seed, "kube-proxy", 64)), "registry.k8s.io/kube-proxy:v1.32.0"], "sizeBytes": 30906462},
                {"names": [format!("registry.k8s.io/coredns/coredns@sha256:{}", hex(seed, "coredns", 64)), "registry.k8s.io/coredns/coredns:v1.11.3"], "sizeBytes": 18562039},
                {"names": [format!("docker.io/library/nginx@sha256:{}", hex(seed, "nginx:1.27", 64)), "docker.io/library/nginx:1.27"], "sizeBytes": 72955450},
                {"names": [format!("registry.k8s.io/pause@sha256:{}", hex(seed, "pause", 64)), "registry.k8s.io/pause:3.10"], "sizeBytes": 320368}
            ],
            "nodeInfo": {
                "architecture": "amd64",
                "bootID": format!("{}-{}-{}-{}-{}", &boot_id[0..8], &boot_id[8..12], &boot_id[12..16], &boot_id[16..20], &boot_id[20..32]),
                "containerRuntimeVersion": "containerd://1.7.24",
                "kernelVersion": "6.8.0-51-generic",
                "kubeProxyVersion": "v1.32.0",
                "kubeletVersion": "v1.32.0",
                "machineID": hex(seed, &format!("{name}/machine"), 32),
                "operatingSystem": "linux",
                "osImage": "Ubuntu 24.04.1 LTS",
                "systemUUID": uid(seed, &format!("{name}/system")).to_uppercase()
            }
        }
    })
}

/// The node with every condition's heartbeat moved to `at`: what the kubelet posts every ten
/// seconds or so (the lease carries the fast heartbeat; the status update is slower in reality).
pub fn heartbeat(node: &Value, at: SystemTime) -> Value {
    let mut node = node.clone();
    let stamp = json!(rfc3339(at));
    if let Some(conditions) = node["status"]["conditions"].as_array_mut() {
        for condition in conditions {
            condition["lastHeartbeatTime"] = stamp.clone();
        }
    }
    if let Some(entry) = node["metadata"]["managedFields"].get_mut(0) {
        entry["time"] = stamp;
    }
    node
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    #[test]
    fn control_plane_node_has_its_role_label() {
        let created = SystemTime::UNIX_EPOCH + Duration::from_secs(1_700_000_000);
        let shapes = node_shapes();
        let node = node(3, &shapes[0], created, created);
        assert_eq!(
            node["metadata"]["labels"]["node-role.kubernetes.io/control-plane"],
            ""
        );
        assert_eq!(node["status"]["nodeInfo"]["kubeletVersion"], "v1.32.0");
        let later = created + Duration::from_secs(60);
        let beat = heartbeat(&node, later);
        assert_eq!(
            beat["status"]["conditions"][3]["lastHeartbeatTime"],
            rfc3339(later)
        );
        assert_eq!(
            beat["status"]["conditions"][3]["lastTransitionTime"],
            rfc3339(created)
        );
    }
}
