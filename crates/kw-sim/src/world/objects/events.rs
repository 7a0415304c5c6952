//! Core v1 Events about pods, shaped like `fixtures/ev.json`.

use std::time::SystemTime;

use serde_json::{json, Value};

use super::ids::{hex, rfc3339, uid};

/// What happened to which pod.
#[derive(Debug, Clone)]
pub struct PodEvent<'a> {
    pub namespace: &'a str,
    pub pod: &'a str,
    /// `spec.containers{web}`, or empty for the pod as a whole.
    pub field_path: &'a str,
    /// `Normal` or `Warning`.
    pub event_type: &'a str,
    pub reason: &'a str,
    pub message: &'a str,
    /// `default-scheduler` or `kubelet`.
    pub component: &'a str,
    pub host: &'a str,
    pub count: u32,
    pub first: SystemTime,
    pub last: SystemTime,
}

pub fn pod_event(seed: u64, event: &PodEvent<'_>) -> Value {
    let key = format!("{}/{}/{}", event.namespace, event.pod, event.reason);
    // Real event names are `<object>.<hex of the creation time in nanoseconds>`.
    let name = format!("{}.{}", event.pod, hex(seed, &key, 16));
    let mut involved = json!({
        "apiVersion": "v1",
        "kind": "Pod",
        "name": event.pod,
        "namespace": event.namespace,
        "uid": uid(seed, &format!("pods/{}/{}", event.namespace, event.pod))
    });
    if !event.field_path.is_empty() {
        involved["fieldPath"] = json!(event.field_path);
    }
    let mut source = json!({"component": event.component});
    if !event.host.is_empty() {
        source["host"] = json!(event.host);
    }
    json!({
        "apiVersion": "v1",
        "count": event.count,
        "eventTime": null,
        "firstTimestamp": rfc3339(event.first),
        "involvedObject": involved,
        "kind": "Event",
        "lastTimestamp": rfc3339(event.last),
        "message": event.message,
        "metadata": {
            "creationTimestamp": rfc3339(event.first),
            "name": name,
            "namespace": event.namespace,
            "uid": uid(seed, &format!("events/{}/{name}", event.namespace))
        },
        "reason": event.reason,
        "reportingComponent": event.component,
        "reportingInstance": event.host,
        "source": source,
        "type": event.event_type
    })
}
