//! Services and their Endpoints, shaped like `fixtures/svc.json` and `ep.json`.

use std::time::SystemTime;

use serde_json::{json, Map, Value};

use super::ids::{rfc3339, uid};

/// One service port: `(name, port, targetPort, protocol, nodePort)`.
pub type ServicePort = (&'static str, u16, u16, &'static str, Option<u16>);

/// What a simulated service looks like.
#[derive(Debug, Clone)]
pub struct ServiceShape {
    pub namespace: &'static str,
    pub name: &'static str,
    /// `ClusterIP`, `NodePort` or `LoadBalancer`.
    pub service_type: &'static str,
    pub cluster_ip: &'static str,
    pub ports: Vec<ServicePort>,
    /// Pod selector; empty for `kubernetes`, whose endpoints are the API server itself.
    pub selector: Vec<(&'static str, &'static str)>,
    /// The load balancer's address once provisioned (`LoadBalancer` only).
    pub ingress_ip: Option<&'static str>,
}

pub fn service(seed: u64, shape: &ServiceShape, created: SystemTime) -> Value {
    let ports: Vec<Value> = shape
        .ports
        .iter()
        .map(|(name, port, target, protocol, node_port)| {
            let mut entry =
                json!({"name": name, "port": port, "protocol": protocol, "targetPort": target});
            if let Some(node_port) = node_port {
                entry["nodePort"] = json!(node_port);
            }
            entry
        })
        .collect();
    let selector: Map<String, Value> = shape
        .selector
        .iter()
        .map(|(k, v)| ((*k).to_string(), json!(v)))
        .collect();
    let mut spec = json!({
        "clusterIP": shape.cluster_ip,
        "clusterIPs": [shape.cluster_ip],
        "internalTrafficPolicy": "Cluster",
        "ipFamilies": ["IPv4"],
        "ipFamilyPolicy": "SingleStack",
        "ports": ports,
        "sessionAffinity": "None",
        "type": shape.service_type
    });
    if !selector.is_empty() {
        spec["selector"] = Value::Object(selector);
    }
    if shape.service_type != "ClusterIP" {
        spec["externalTrafficPolicy"] = json!("Cluster");
    }
    if shape.service_type == "LoadBalancer" {
        spec["allocateLoadBalancerNodePorts"] = json!(true);
    }
    let load_balancer = match shape.ingress_ip {
        Some(ip) => json!({"ingress": [{"ip": ip, "ipMode": "VIP"}]}),
        None => json!({}),
    };
    let mut labels = json!({"app": shape.name});
    if shape.name == "kubernetes" {
        labels = json!({"component": "apiserver", "provider": "kubernetes"});
    } else if shape.name == "kube-dns" {
        labels = json!({"k8s-app": "kube-dns", "kubernetes.io/cluster-service": "true", "kubernetes.io/name": "CoreDNS"});
    }
    json!({
        "apiVersion": "v1",
        "kind": "Service",
        "metadata": {
            "creationTimestamp": rfc3339(created),
            "labels": labels,
            "name": shape.name,
            "namespace": shape.namespace,
            "uid": uid(seed, &format!("services/{}/{}", shape.namespace, shape.name))
        },
        "spec": spec,
        "status": {"loadBalancer": load_balancer}
    })
}

/// One backend of an endpoints object: `(ip, node, pod name)`; a `None` pod means a host address.
pub type Backend = (String, String, Option<String>);

/// The Endpoints the endpoints controller keeps for a service.
pub fn endpoints(
    seed: u64,
    shape: &ServiceShape,
    backends: &[Backend],
    created: SystemTime,
) -> Value {
    let addresses: Vec<Value> = backends
        .iter()
        .map(|(ip, node, pod)| {
            let mut address = json!({"ip": ip});
            if let Some(pod) = pod {
                address["nodeName"] = json!(node);
                address["targetRef"] = json!({
                    "kind": "Pod",
                    "name": pod,
                    "namespace": shape.namespace,
                    "uid": uid(seed, &format!("pods/{}/{pod}", shape.namespace))
                });
            }
            address
        })
        .collect();
    let ports: Vec<Value> = shape
        .ports
        .iter()
        .map(|(name, _, target, protocol, _)| json!({"name": name, "port": target, "protocol": protocol}))
        .collect();
    let subsets = if addresses.is_empty() {
        json!([])
    } else {
        json!([{"addresses": addresses, "ports": ports}])
    };
    let mut object = json!({
        "apiVersion": "v1",
        "kind": "Endpoints",
        "metadata": {
            "creationTimestamp": rfc3339(created),
            "name": shape.name,
            "namespace": shape.namespace,
            "uid": uid(seed, &format!("endpoints/{}/{}", shape.namespace, shape.name))
        }
    });
    // An Endpoints with no ready backends has no `subsets` at all.
    if !addresses.is_empty() {
        object["subsets"] = subsets;
    }
    object
}
