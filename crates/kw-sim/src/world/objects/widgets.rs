//! `example.com/v1` Widgets: the custom resource of the simulated cluster.

use std::time::SystemTime;

use serde_json::{json, Value};

use super::ids::{rfc3339, uid};

/// The phases a widget moves through; churn cycles them.
pub const WIDGET_PHASES: [&str; 3] = ["Pending", "Ready", "Degraded"];

pub fn widget(
    seed: u64,
    namespace: &str,
    name: &str,
    color: &str,
    size: i64,
    phase: &str,
    created: SystemTime,
) -> Value {
    json!({
        "apiVersion": "example.com/v1",
        "kind": "Widget",
        "metadata": {
            "creationTimestamp": rfc3339(created),
            "generation": 1,
            "name": name,
            "namespace": namespace,
            "uid": uid(seed, &format!("widgets/{namespace}/{name}"))
        },
        "spec": {"color": color, "size": size},
        "status": {"phase": phase}
    })
}
