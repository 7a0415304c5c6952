//! What containers printed, kept per container for `pod_logs` to serve. A leaf, so that the
//! shared state can hold it without reaching the request handlers.

use std::collections::HashMap;
use std::sync::Mutex;

/// What one container printed: in its running instance, and in the one before, if it
/// terminated.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ContainerLog {
    pub current: Vec<String>,
    pub previous: Option<Vec<String>>,
}

/// Every container's log, by (namespace, pod, container).
#[derive(Debug, Default)]
pub struct PodLogs {
    logs: Mutex<HashMap<(String, String, String), ContainerLog>>,
}

impl PodLogs {
    pub fn set(&self, namespace: &str, pod: &str, container: &str, log: ContainerLog) {
        let key = (
            namespace.to_string(),
            pod.to_string(),
            container.to_string(),
        );
        self.logs
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .insert(key, log);
    }

    pub fn get(&self, namespace: &str, pod: &str, container: &str) -> ContainerLog {
        let key = (
            namespace.to_string(),
            pod.to_string(),
            container.to_string(),
        );
        self.logs
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .get(&key)
            .cloned()
            .unwrap_or_default()
    }
}
