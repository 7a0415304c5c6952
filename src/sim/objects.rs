//! The simulated cluster's objects: realistic, deterministic for a seed.

use std::time::SystemTime;

use serde_json::Value;

/// One object of the initial world, with the resource (URL plural) it belongs to.
#[derive(Debug, Clone)]
pub struct SeedObject {
    pub resource: &'static str,
    pub object: Value,
}

/// The initial world for a seed.
pub fn seed_world(_seed: u64, _now: SystemTime) -> Vec<SeedObject> {
    Vec::new()
}

/// A realistic pod (3–4 KB of JSON), for flood mode and tests.
pub fn pod(namespace: &str, name: &str, node: &str, _now: SystemTime) -> Value {
    serde_json::json!({
        "apiVersion": "v1",
        "kind": "Pod",
        "metadata": {"name": name, "namespace": namespace},
        "spec": {"nodeName": node},
        "status": {"phase": "Running"}
    })
}
