//! The pod row: READY, STATUS, RESTARTS as kube-apiserver's `printPod` computes them.
//!
//! STATUS follows the upstream precedence exactly: phase (or `status.reason`), then
//! `SchedulingGated`, then the first unfinished init container (`Init:N/M`, `Init:<reason>`),
//! then the main containers' waiting/terminated reasons (the first container wins), then
//! `Completed` → `Running`/`NotReady` when something still runs, then `Terminating`/`Unknown`.

use std::time::SystemTime;

use serde_json::{json, Value};

use super::age::{human_duration, nanos_between, parse_time, since};

fn text(value: &Value) -> &str {
    value.as_str().unwrap_or("")
}

fn items(value: &Value) -> &[Value] {
    value.as_array().map(Vec::as_slice).unwrap_or(&[])
}

/// A sidecar: an init container with `restartPolicy: Always`.
fn is_restartable(spec: Option<&Value>) -> bool {
    spec.is_some_and(|spec| spec["restartPolicy"] == "Always")
}

/// `hasPodReadyCondition`: any `Ready` condition that is `True`.
fn has_ready_condition(pod: &Value) -> bool {
    items(&pod["status"]["conditions"])
        .iter()
        .any(|c| c["type"] == "Ready" && c["status"] == "True")
}

/// Tracks the latest `lastState.terminated.finishedAt` seen.
#[derive(Default, Clone, Copy)]
struct LastRestart(Option<SystemTime>);

impl LastRestart {
    fn observe(&mut self, status: &Value) {
        let finished = status["lastState"]["terminated"]["finishedAt"].as_str();
        if status["lastState"]["terminated"].is_object() {
            if let Some(at) = parse_time(finished) {
                if self.0.is_none_or(|seen| seen < at) {
                    self.0 = Some(at);
                }
            }
        }
    }
}

fn restart_count(status: &Value) -> i64 {
    status["restartCount"].as_i64().unwrap_or(0)
}

fn terminated_reason(terminated: &Value, prefix: &str) -> String {
    let reason = text(&terminated["reason"]);
    if !reason.is_empty() {
        return format!("{prefix}{reason}");
    }
    let signal = terminated["signal"].as_i64().unwrap_or(0);
    if signal != 0 {
        format!("{prefix}Signal:{signal}")
    } else {
        format!(
            "{prefix}ExitCode:{}",
            terminated["exitCode"].as_i64().unwrap_or(0)
        )
    }
}

/// The cells of a pod row: Name, Ready, Status, Restarts, Age, IP, Node, Nominated Node,
/// Readiness Gates.
pub fn cells(pod: &Value, now: SystemTime) -> Vec<Value> {
    let spec = &pod["spec"];
    let status = &pod["status"];
    let phase = text(&status["phase"]);
    let mut reason = match text(&status["reason"]) {
        "" => phase.to_string(),
        set => set.to_string(),
    };
    if items(&status["conditions"])
        .iter()
        .any(|c| c["type"] == "PodScheduled" && c["reason"] == "SchedulingGated")
    {
        reason = "SchedulingGated".into();
    }

    let init_specs = items(&spec["initContainers"]);
    let init_spec = |name: &str| init_specs.iter().find(|c| c["name"] == name);
    let total = items(&spec["containers"]).len()
        + init_specs
            .iter()
            .filter(|c| is_restartable(Some(c)))
            .count();
    let mut ready = 0usize;
    let mut restarts = 0i64;
    let mut last_restart = LastRestart::default();
    let mut sidecar_restarts = 0i64;
    let mut sidecar_last_restart = LastRestart::default();

    let mut initializing = false;
    for (index, container) in items(&status["initContainerStatuses"]).iter().enumerate() {
        restarts += restart_count(container);
        last_restart.observe(container);
        let restartable = is_restartable(init_spec(text(&container["name"])));
        if restartable {
            sidecar_restarts += restart_count(container);
            sidecar_last_restart.observe(container);
        }
        let state = &container["state"];
        let terminated = &state["terminated"];
        let waiting_reason = text(&state["waiting"]["reason"]);
        if terminated.is_object() && terminated["exitCode"].as_i64().unwrap_or(0) == 0 {
            continue;
        }
        if restartable && container["started"] == true {
            if container["ready"] == true {
                ready += 1;
            }
            continue;
        }
        reason = if terminated.is_object() {
            terminated_reason(terminated, "Init:")
        } else if !waiting_reason.is_empty() && waiting_reason != "PodInitializing" {
            format!("Init:{waiting_reason}")
        } else {
            format!("Init:{index}/{}", init_specs.len())
        };
        initializing = true;
        break;
    }

    if !initializing || has_initialized_condition(pod) {
        restarts = sidecar_restarts;
        last_restart = sidecar_last_restart;
        let mut has_running = false;
        for container in items(&status["containerStatuses"]).iter().rev() {
            restarts += restart_count(container);
            last_restart.observe(container);
            let state = &container["state"];
            let waiting_reason = text(&state["waiting"]["reason"]);
            let terminated = &state["terminated"];
            if !waiting_reason.is_empty() {
                reason = waiting_reason.to_string();
            } else if terminated.is_object() {
                reason = terminated_reason(terminated, "");
            } else if container["ready"] == true && state["running"].is_object() {
                has_running = true;
                ready += 1;
            }
        }
        if reason == "Completed" && has_running {
            reason = if has_ready_condition(pod) {
                "Running".into()
            } else {
                "NotReady".into()
            };
        }
    }

    let deleting = !pod["metadata"]["deletionTimestamp"].is_null();
    if deleting && text(&status["reason"]) == "NodeLost" {
        reason = "Unknown".into();
    } else if deleting && phase != "Succeeded" && phase != "Failed" {
        reason = "Terminating".into();
    }

    let restarts_cell = match last_restart.0 {
        Some(at) if restarts != 0 => format!(
            "{restarts} ({} ago)",
            human_duration(nanos_between(at, now))
        ),
        _ => restarts.to_string(),
    };

    let or_none = |value: &str| {
        if value.is_empty() {
            "<none>".to_string()
        } else {
            value.to_string()
        }
    };
    let pod_ip = or_none(text(&status["podIPs"][0]["ip"]));
    let gates = items(&spec["readinessGates"]);
    let readiness_gates = if gates.is_empty() {
        "<none>".to_string()
    } else {
        let conditions = items(&status["conditions"]);
        let satisfied = gates
            .iter()
            .filter(|gate| {
                conditions
                    .iter()
                    .find(|c| c["type"] == gate["conditionType"])
                    .is_some_and(|c| c["status"] == "True")
            })
            .count();
        format!("{satisfied}/{}", gates.len())
    };
    vec![
        pod["metadata"]["name"].clone(),
        json!(format!("{ready}/{total}")),
        json!(reason),
        json!(restarts_cell),
        json!(since(pod["metadata"]["creationTimestamp"].as_str(), now)),
        json!(pod_ip),
        json!(or_none(text(&spec["nodeName"]))),
        json!(or_none(text(&status["nominatedNodeName"]))),
        json!(readiness_gates),
    ]
}

/// `isPodInitializedConditionTrue`: the first `Initialized` condition decides.
fn has_initialized_condition(pod: &Value) -> bool {
    items(&pod["status"]["conditions"])
        .iter()
        .find(|c| c["type"] == "Initialized")
        .is_some_and(|c| c["status"] == "True")
}
