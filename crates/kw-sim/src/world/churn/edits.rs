//! The small in-place edits churn makes to objects it already has: a container restart, a
//! graceful deletion, a crash-loop tick, a new widget phase, a configmap revision.

use std::time::SystemTime;

use serde_json::{json, Value};

use crate::world::objects::{ago, hex, later, rfc3339};

/// The first container exited and the kubelet started it again.
pub fn restart_container(pod: &mut Value, seed: u64, now: SystemTime) {
    let restarts = pod["status"]["containerStatuses"][0]["restartCount"]
        .as_u64()
        .unwrap_or(0)
        + 1;
    let key = format!(
        "{}/{restarts}",
        pod["metadata"]["uid"].as_str().unwrap_or("")
    );
    let Some(status) = pod["status"]["containerStatuses"].get_mut(0) else {
        return;
    };
    let previous_id = status["containerID"].clone();
    let previous_start = status["state"]["running"]["startedAt"].clone();
    let stamp = rfc3339(now);
    status["lastState"] = json!({"terminated": {
        "containerID": previous_id,
        "exitCode": 137,
        "finishedAt": stamp,
        "reason": "Error",
        "startedAt": if previous_start.is_null() { json!(rfc3339(ago(now, 60))) } else { previous_start }
    }});
    status["restartCount"] = json!(restarts);
    status["state"] = json!({"running": {"startedAt": stamp}});
    status["containerID"] = json!(format!("containerd://{}", hex(seed, &key, 64)));
}

/// One more round of a crash loop: the container ran, failed again and is backing off.
pub fn crash_again(pod: &mut Value, now: SystemTime) {
    let Some(status) = pod["status"]["containerStatuses"].get_mut(0) else {
        return;
    };
    let restarts = status["restartCount"].as_u64().unwrap_or(0) + 1;
    status["restartCount"] = json!(restarts);
    status["lastState"]["terminated"]["finishedAt"] = json!(rfc3339(now));
    status["lastState"]["terminated"]["startedAt"] = json!(rfc3339(ago(now, 1)));
}

/// The next occurrence of a recurring event: count + 1, last seen now.
pub fn recur(event: &mut Value, now: SystemTime) {
    let count = event["count"].as_u64().unwrap_or(1) + 1;
    event["count"] = json!(count);
    event["lastTimestamp"] = json!(rfc3339(now));
}

/// A graceful delete: the API server sets `deletionTimestamp` to now + the grace period.
pub fn mark_deleting(object: &mut Value, now: SystemTime) {
    let grace = object["spec"]["terminationGracePeriodSeconds"]
        .as_u64()
        .unwrap_or(30);
    object["metadata"]["deletionTimestamp"] = json!(rfc3339(later(now, grace)));
    object["metadata"]["deletionGracePeriodSeconds"] = json!(grace);
}

/// The next phase in `phases` after the widget's current one.
pub fn next_widget_phase(widget: &mut Value, phases: &[&str]) {
    let current = widget["status"]["phase"].as_str().unwrap_or("");
    let index = phases
        .iter()
        .position(|p| *p == current)
        .map(|i| i + 1)
        .unwrap_or(0);
    if let Some(next) = phases.get(index % phases.len().max(1)) {
        widget["status"]["phase"] = json!(next);
    }
}

/// A new revision of a configmap: `data.version` counts up (added if missing).
pub fn bump_config_version(config_map: &mut Value) {
    let version = config_map["data"]["version"]
        .as_str()
        .and_then(|v| v.parse::<u64>().ok())
        .unwrap_or(0)
        + 1;
    config_map["data"]["version"] = json!(version.to_string());
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    #[test]
    fn restart_records_the_previous_run() {
        let now = SystemTime::UNIX_EPOCH + Duration::from_secs(1_700_000_000);
        let mut pod = json!({"metadata": {"uid": "u"}, "status": {"containerStatuses": [
            {"containerID": "containerd://old", "restartCount": 0, "state": {"running": {"startedAt": "2023-11-14T00:00:00Z"}}}
        ]}});
        restart_container(&mut pod, 1, now);
        let status = &pod["status"]["containerStatuses"][0];
        assert_eq!(status["restartCount"], 1);
        assert_eq!(
            status["lastState"]["terminated"]["containerID"],
            "containerd://old"
        );
        assert_eq!(
            status["lastState"]["terminated"]["startedAt"],
            "2023-11-14T00:00:00Z"
        );
        assert_eq!(
            status["lastState"]["terminated"]["finishedAt"],
            rfc3339(now)
        );
        assert_ne!(status["containerID"], "containerd://old");
    }

    #[test]
    fn widget_phases_cycle_and_configs_count_up() {
        let mut widget = json!({"status": {"phase": "Degraded"}});
        next_widget_phase(&mut widget, &["Pending", "Ready", "Degraded"]);
        assert_eq!(widget["status"]["phase"], "Pending");
        let mut config_map = json!({"data": {"version": "9"}});
        bump_config_version(&mut config_map);
        assert_eq!(config_map["data"]["version"], "10");
    }

    #[test]
    fn deleting_sets_the_grace_period() {
        let now = SystemTime::UNIX_EPOCH + Duration::from_secs(1_700_000_000);
        let mut pod = json!({"metadata": {}, "spec": {"terminationGracePeriodSeconds": 30}});
        mark_deleting(&mut pod, now);
        assert_eq!(pod["metadata"]["deletionGracePeriodSeconds"], 30);
        assert_eq!(
            pod["metadata"]["deletionTimestamp"],
            rfc3339(later(now, 30))
        );
    }
}
