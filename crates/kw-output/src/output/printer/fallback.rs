//! A table for when the server cannot print one (a 406 to the Table `Accept`, an old aggregated
//! API): kw prints the columns kubectl's own printers would have produced, from the whole
//! object. A pure function of the resource, the object and the current time, so the watcher can
//! call it per row and tests can call it without a server.
//!
//! Covered like kubectl's built-in printers (`pkg/printers/internalversion/printers.go`): Pod
//! (READY, STATUS with its init/waiting/terminated/Terminating rules, RESTARTS with
//! `(5m ago)`, wide IP/NODE/NOMINATED NODE/READINESS GATES), Service, Node, Namespace,
//! Deployment, ReplicaSet, ConfigMap, Secret. Every other kind gets NAME and AGE.

use std::time::SystemTime;

use serde_json::{json, Value};

use kw_events::events::ResourceInfo;
use kw_wire::TableColumnDefinition;

/// The columns and the cells of one object's row.
pub fn fallback_row(
    resource: &ResourceInfo,
    object: &Value,
    now: SystemTime,
) -> (Vec<TableColumnDefinition>, Vec<Value>) {
    let name = text(object, &["metadata", "name"]);
    let age = age(object, now);
    let core = resource.group.is_empty();
    let apps = resource.group == "apps";
    let (names, mut cells): (&[(&str, i32)], Vec<Value>) = match resource.kind.as_str() {
        "Pod" if core => {
            let pod = pod_cells(object, now);
            (
                &[
                    ("Name", 0),
                    ("Ready", 0),
                    ("Status", 0),
                    ("Restarts", 0),
                    ("Age", 0),
                    ("IP", 1),
                    ("Node", 1),
                    ("Nominated Node", 1),
                    ("Readiness Gates", 1),
                ],
                vec![
                    json!(name),
                    json!(pod.ready),
                    json!(pod.status),
                    json!(pod.restarts),
                    json!(age),
                    json!(or_none(text(object, &["status", "podIP"]))),
                    json!(or_none(text(object, &["spec", "nodeName"]))),
                    json!(or_none(text(object, &["status", "nominatedNodeName"]))),
                    json!(readiness_gates(object)),
                ],
            )
        }
        "Service" if core => (
            &[
                ("Name", 0),
                ("Type", 0),
                ("Cluster-IP", 0),
                ("External-IP", 0),
                ("Port(s)", 0),
                ("Age", 0),
                ("Selector", 1),
            ],
            vec![
                json!(name),
                json!(text(object, &["spec", "type"])),
                json!(or_none(text(object, &["spec", "clusterIP"]))),
                json!(service_external_ip(object)),
                json!(service_ports(object)),
                json!(age),
                json!(or_none(label_text(object.pointer("/spec/selector")))),
            ],
        ),
        "Node" if core => (
            &[
                ("Name", 0),
                ("Status", 0),
                ("Roles", 0),
                ("Age", 0),
                ("Version", 0),
            ],
            vec![
                json!(name),
                json!(node_status(object)),
                json!(node_roles(object)),
                json!(age),
                json!(text(object, &["status", "nodeInfo", "kubeletVersion"])),
            ],
        ),
        "Namespace" if core => (
            &[("Name", 0), ("Status", 0), ("Age", 0)],
            vec![
                json!(name),
                json!(text(object, &["status", "phase"])),
                json!(age),
            ],
        ),
        "ConfigMap" if core => (
            &[("Name", 0), ("Data", 0), ("Age", 0)],
            vec![
                json!(name),
                json!(count(object, "data") + count(object, "binaryData")),
                json!(age),
            ],
        ),
        "Secret" if core => (
            &[("Name", 0), ("Type", 0), ("Data", 0), ("Age", 0)],
            vec![
                json!(name),
                json!(text(object, &["type"])),
                json!(count(object, "data")),
                json!(age),
            ],
        ),
        "Deployment" if apps => (
            &[
                ("Name", 0),
                ("Ready", 0),
                ("Up-to-date", 0),
                ("Available", 0),
                ("Age", 0),
            ],
            vec![
                json!(name),
                json!(format!(
                    "{}/{}",
                    int(object, &["status", "readyReplicas"]),
                    int(object, &["spec", "replicas"])
                )),
                json!(int(object, &["status", "updatedReplicas"])),
                json!(int(object, &["status", "availableReplicas"])),
                json!(age),
            ],
        ),
        "ReplicaSet" if apps => (
            &[
                ("Name", 0),
                ("Desired", 0),
                ("Current", 0),
                ("Ready", 0),
                ("Age", 0),
            ],
            vec![
                json!(name),
                json!(int(object, &["spec", "replicas"])),
                json!(int(object, &["status", "replicas"])),
                json!(int(object, &["status", "readyReplicas"])),
                json!(age),
            ],
        ),
        _ => (&[("Name", 0), ("Age", 0)], vec![json!(name), json!(age)]),
    };
    let columns = names
        .iter()
        .map(|(column, priority)| TableColumnDefinition {
            name: (*column).to_string(),
            column_type: "string".into(),
            format: if *column == "Name" {
                "name".into()
            } else {
                String::new()
            },
            description: String::new(),
            priority: *priority,
        })
        .collect();
    cells.truncate(names.len());
    (columns, cells)
}

/// kubectl's client-side row under `--server-print=false`: it decodes every object as
/// unstructured, which none of its kinds' printers takes, so NAME and AGE for all.
pub fn client_side_row(
    object: &Value,
    now: SystemTime,
) -> (Vec<TableColumnDefinition>, Vec<Value>) {
    let no_printer = ResourceInfo {
        plural: String::new(),
        singular: String::new(),
        kind: String::new(),
        group: String::new(),
        version: String::new(),
        namespaced: false,
    };
    fallback_row(&no_printer, object, now)
}

fn get<'v>(object: &'v Value, path: &[&str]) -> Option<&'v Value> {
    path.iter().try_fold(object, |value, key| value.get(key))
}

fn text(object: &Value, path: &[&str]) -> String {
    get(object, path)
        .and_then(Value::as_str)
        .unwrap_or_default()
        .to_string()
}

fn int(object: &Value, path: &[&str]) -> i64 {
    get(object, path).and_then(Value::as_i64).unwrap_or(0)
}

fn count(object: &Value, field: &str) -> usize {
    object
        .get(field)
        .and_then(Value::as_object)
        .map_or(0, |m| m.len())
}

fn or_none(text: String) -> String {
    if text.is_empty() {
        "<none>".into()
    } else {
        text
    }
}

/// `k=v,...` sorted by key.
fn label_text(map: Option<&Value>) -> String {
    let Some(map) = map.and_then(Value::as_object) else {
        return String::new();
    };
    let mut pairs: Vec<String> = map
        .iter()
        .map(|(k, v)| format!("{k}={}", v.as_str().unwrap_or_default()))
        .collect();
    pairs.sort();
    pairs.join(",")
}

fn timestamp(value: Option<&Value>) -> Option<SystemTime> {
    humantime::parse_rfc3339_weak(value?.as_str()?).ok()
}

/// kubectl's `translateTimestampSince`.
fn since(time: Option<SystemTime>, now: SystemTime) -> String {
    match time {
        None => "<unknown>".into(),
        Some(time) => {
            let seconds = match now.duration_since(time) {
                Ok(elapsed) => elapsed.as_secs() as i64,
                Err(ahead) => -(ahead.duration().as_secs() as i64),
            };
            human_duration(seconds)
        }
    }
}

fn age(object: &Value, now: SystemTime) -> String {
    since(
        timestamp(object.pointer("/metadata/creationTimestamp")),
        now,
    )
}

/// apimachinery's `duration.HumanDuration`, to whole seconds.
pub fn human_duration(seconds: i64) -> String {
    if seconds < -1 {
        return "<invalid>".into();
    }
    if seconds < 0 {
        return "0s".into();
    }
    if seconds < 120 {
        return format!("{seconds}s");
    }
    let minutes = seconds / 60;
    if minutes < 10 {
        let s = seconds % 60;
        return if s == 0 {
            format!("{minutes}m")
        } else {
            format!("{minutes}m{s}s")
        };
    }
    if minutes < 180 {
        return format!("{minutes}m");
    }
    let hours = seconds / 3600;
    if hours < 8 {
        let m = minutes % 60;
        return if m == 0 {
            format!("{hours}h")
        } else {
            format!("{hours}h{m}m")
        };
    }
    if hours < 48 {
        return format!("{hours}h");
    }
    if hours < 24 * 8 {
        let h = hours % 24;
        return if h == 0 {
            format!("{}d", hours / 24)
        } else {
            format!("{}d{h}h", hours / 24)
        };
    }
    if hours < 24 * 365 * 2 {
        return format!("{}d", hours / 24);
    }
    if hours < 24 * 365 * 8 {
        let days = (hours / 24) % 365;
        return if days == 0 {
            format!("{}y", hours / 24 / 365)
        } else {
            format!("{}y{days}d", hours / 24 / 365)
        };
    }
    format!("{}y", hours / 24 / 365)
}

struct PodCells {
    ready: String,
    status: String,
    restarts: String,
}

fn array<'v>(object: &'v Value, path: &[&str]) -> &'v [Value] {
    get(object, path)
        .and_then(Value::as_array)
        .map_or(&[], Vec::as_slice)
}

fn is_restartable_init(container: Option<&Value>) -> bool {
    container
        .and_then(|c| c.get("restartPolicy"))
        .and_then(Value::as_str)
        == Some("Always")
}

/// kubectl's `printPod` READY, STATUS and RESTARTS.
fn pod_cells(pod: &Value, now: SystemTime) -> PodCells {
    let init_specs = array(pod, &["spec", "initContainers"]);
    let mut total = array(pod, &["spec", "containers"]).len();
    total += init_specs
        .iter()
        .filter(|c| is_restartable_init(Some(c)))
        .count();
    let mut ready = 0;
    let mut restarts = 0;
    let mut restartable_restarts = 0;
    let mut last_restart: Option<SystemTime> = None;
    let mut last_restartable_restart: Option<SystemTime> = None;
    let phase = text(pod, &["status", "phase"]);
    let mut reason = match text(pod, &["status", "reason"]) {
        r if r.is_empty() => phase.clone(),
        r => r,
    };
    let conditions = array(pod, &["status", "conditions"]);
    if conditions
        .iter()
        .any(|c| c["type"] == "PodScheduled" && c["reason"] == "SchedulingGated")
    {
        reason = "SchedulingGated".into();
    }
    let later = |a: Option<SystemTime>, b: Option<SystemTime>| match (a, b) {
        (Some(a), Some(b)) => Some(a.max(b)),
        (a, b) => a.or(b),
    };
    let finished = |status: &Value| timestamp(status.pointer("/lastState/terminated/finishedAt"));

    let mut initializing = false;
    let init_statuses = array(pod, &["status", "initContainerStatuses"]);
    for (index, status) in init_statuses.iter().enumerate() {
        let count = status["restartCount"].as_i64().unwrap_or(0);
        restarts += count;
        last_restart = later(last_restart, finished(status));
        let name = status["name"].as_str().unwrap_or_default();
        let spec = init_specs.iter().find(|c| c["name"] == name);
        let restartable = is_restartable_init(spec);
        if restartable {
            restartable_restarts += count;
            last_restartable_restart = later(last_restartable_restart, finished(status));
        }
        let terminated = status.pointer("/state/terminated");
        let waiting_reason = status
            .pointer("/state/waiting/reason")
            .and_then(Value::as_str)
            .unwrap_or_default();
        if terminated.is_some_and(|t| t["exitCode"].as_i64() == Some(0)) {
            continue;
        }
        if restartable && status["started"] == true {
            if status["ready"] == true {
                ready += 1;
            }
            continue;
        }
        if let Some(terminated) = terminated {
            let why = terminated["reason"].as_str().unwrap_or_default();
            reason = if !why.is_empty() {
                format!("Init:{why}")
            } else if terminated["signal"].as_i64().unwrap_or(0) != 0 {
                format!("Init:Signal:{}", terminated["signal"])
            } else {
                format!(
                    "Init:ExitCode:{}",
                    terminated["exitCode"].as_i64().unwrap_or(0)
                )
            };
        } else if !waiting_reason.is_empty() && waiting_reason != "PodInitializing" {
            reason = format!("Init:{waiting_reason}");
        } else {
            reason = format!("Init:{index}/{}", init_specs.len());
        }
        initializing = true;
        break;
    }
    let initialized = conditions
        .iter()
        .any(|c| c["type"] == "Initialized" && c["status"] == "True");
    if !initializing || initialized {
        restarts = restartable_restarts;
        last_restart = last_restartable_restart;
        let mut has_running = false;
        for status in array(pod, &["status", "containerStatuses"]).iter().rev() {
            restarts += status["restartCount"].as_i64().unwrap_or(0);
            last_restart = later(last_restart, finished(status));
            let waiting = status
                .pointer("/state/waiting/reason")
                .and_then(Value::as_str)
                .unwrap_or_default();
            let terminated = status.pointer("/state/terminated");
            let terminated_reason = terminated
                .and_then(|t| t["reason"].as_str())
                .unwrap_or_default();
            if !waiting.is_empty() {
                reason = waiting.to_string();
            } else if !terminated_reason.is_empty() {
                reason = terminated_reason.to_string();
            } else if let Some(terminated) = terminated {
                reason = if terminated["signal"].as_i64().unwrap_or(0) != 0 {
                    format!("Signal:{}", terminated["signal"])
                } else {
                    format!("ExitCode:{}", terminated["exitCode"].as_i64().unwrap_or(0))
                };
            } else if status["ready"] == true && status.pointer("/state/running").is_some() {
                has_running = true;
                ready += 1;
            }
        }
        if reason == "Completed" && has_running {
            let pod_ready = conditions
                .iter()
                .any(|c| c["type"] == "Ready" && c["status"] == "True");
            reason = if pod_ready { "Running" } else { "NotReady" }.into();
        }
    }
    let deleting = pod.pointer("/metadata/deletionTimestamp").is_some();
    if deleting && text(pod, &["status", "reason"]) == "NodeLost" {
        reason = "Unknown".into();
    } else if deleting && phase != "Succeeded" && phase != "Failed" {
        reason = "Terminating".into();
    }
    let restarts_text = match last_restart {
        Some(time) if restarts != 0 => format!("{restarts} ({} ago)", since(Some(time), now)),
        _ => restarts.to_string(),
    };
    PodCells {
        ready: format!("{ready}/{total}"),
        status: reason,
        restarts: restarts_text,
    }
}

fn readiness_gates(pod: &Value) -> String {
    let gates = array(pod, &["spec", "readinessGates"]);
    if gates.is_empty() {
        return "<none>".into();
    }
    let conditions = array(pod, &["status", "conditions"]);
    let true_gates = gates
        .iter()
        .filter(|gate| {
            conditions
                .iter()
                .any(|c| c["type"] == gate["conditionType"] && c["status"] == "True")
        })
        .count();
    format!("{true_gates}/{}", gates.len())
}

fn service_ports(service: &Value) -> String {
    let ports = array(service, &["spec", "ports"]);
    if ports.is_empty() {
        return "<none>".into();
    }
    ports
        .iter()
        .map(|port| {
            let number = port["port"].as_i64().unwrap_or(0);
            let protocol = port["protocol"].as_str().unwrap_or("TCP");
            match port["nodePort"].as_i64() {
                Some(node_port) if node_port != 0 => format!("{number}:{node_port}/{protocol}"),
                _ => format!("{number}/{protocol}"),
            }
        })
        .collect::<Vec<_>>()
        .join(",")
}

fn service_external_ip(service: &Value) -> String {
    let external: Vec<&str> = array(service, &["spec", "externalIPs"])
        .iter()
        .filter_map(Value::as_str)
        .collect();
    match text(service, &["spec", "type"]).as_str() {
        "ClusterIP" | "NodePort" | "" => {
            if external.is_empty() {
                "<none>".into()
            } else {
                external.join(",")
            }
        }
        "LoadBalancer" => {
            let mut addresses: Vec<String> = array(service, &["status", "loadBalancer", "ingress"])
                .iter()
                .filter_map(|i| i["ip"].as_str().or_else(|| i["hostname"].as_str()))
                .map(String::from)
                .collect();
            addresses.extend(external.iter().map(|s| s.to_string()));
            if addresses.is_empty() {
                "<pending>".into()
            } else {
                addresses.join(",")
            }
        }
        "ExternalName" => text(service, &["spec", "externalName"]),
        _ => "<unknown>".into(),
    }
}

fn node_status(node: &Value) -> String {
    let ready = array(node, &["status", "conditions"])
        .iter()
        .find(|c| c["type"] == "Ready")
        .map(|c| {
            if c["status"] == "True" {
                "Ready"
            } else {
                "NotReady"
            }
        })
        .unwrap_or("Unknown");
    let mut status = ready.to_string();
    if node.pointer("/spec/unschedulable") == Some(&Value::Bool(true)) {
        status.push_str(",SchedulingDisabled");
    }
    status
}

fn node_roles(node: &Value) -> String {
    let mut roles: Vec<String> = Vec::new();
    if let Some(labels) = node.pointer("/metadata/labels").and_then(Value::as_object) {
        for (key, value) in labels {
            if let Some(role) = key.strip_prefix("node-role.kubernetes.io/") {
                if !role.is_empty() {
                    roles.push(role.to_string());
                }
            } else if key == "kubernetes.io/role" {
                if let Some(role) = value.as_str().filter(|r| !r.is_empty()) {
                    roles.push(role.to_string());
                }
            }
        }
    }
    roles.sort();
    roles.dedup();
    if roles.is_empty() {
        "<none>".into()
    } else {
        roles.join(",")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn resource(kind: &str, group: &str) -> ResourceInfo {
        ResourceInfo {
            plural: format!("{}s", kind.to_lowercase()),
            singular: kind.to_lowercase(),
            kind: kind.into(),
            group: group.into(),
            version: "v1".into(),
            namespaced: true,
        }
    }

    fn now() -> SystemTime {
        humantime::parse_rfc3339("2026-01-01T12:00:00Z").unwrap()
    }

    #[test]
    fn human_durations() {
        let cases = [
            (-5, "<invalid>"),
            (-1, "0s"),
            (59, "59s"),
            (119, "119s"),
            (310, "5m10s"),
            (600, "10m"),
            (3 * 3600, "3h"),
            (3 * 3600 + 60, "3h1m"),
            (47 * 3600, "47h"),
            (2 * 86400 + 4 * 3600, "2d4h"),
            (30 * 86400, "30d"),
            (3 * 365 * 86400, "3y"),
            (10 * 365 * 86400, "10y"),
        ];
        for (seconds, expected) in cases {
            assert_eq!(human_duration(seconds), expected, "{seconds}");
        }
    }

    #[test]
    fn pods_get_kubectl_columns() {
        let pod = json!({
            "metadata": {"name": "web", "creationTimestamp": "2026-01-01T11:00:00Z"},
            "spec": {"containers": [{"name": "a"}, {"name": "b"}], "nodeName": "node-1"},
            "status": {"phase": "Running", "podIP": "10.0.0.1", "containerStatuses": [
                {"name": "a", "ready": true, "restartCount": 2, "state": {"running": {}},
                 "lastState": {"terminated": {"finishedAt": "2026-01-01T11:55:00Z"}}},
                {"name": "b", "ready": false, "restartCount": 0,
                 "state": {"waiting": {"reason": "CrashLoopBackOff"}}}
            ]}
        });
        let (columns, cells) = fallback_row(&resource("Pod", ""), &pod, now());
        let names: Vec<&str> = columns.iter().map(|c| c.name.as_str()).collect();
        assert_eq!(names[..5], ["Name", "Ready", "Status", "Restarts", "Age"]);
        assert_eq!(
            cells[..7],
            [
                json!("web"),
                json!("1/2"),
                json!("CrashLoopBackOff"),
                json!("2 (5m ago)"),
                json!("60m"),
                json!("10.0.0.1"),
                json!("node-1")
            ]
        );
    }

    #[test]
    fn init_and_terminating_pods() {
        let init = json!({
            "metadata": {"name": "p", "creationTimestamp": "2026-01-01T11:59:00Z"},
            "spec": {"initContainers": [{"name": "i"}], "containers": [{"name": "c"}]},
            "status": {"phase": "Pending", "initContainerStatuses": [
                {"name": "i", "restartCount": 0, "state": {"running": {}}}]}
        });
        let (_, cells) = fallback_row(&resource("Pod", ""), &init, now());
        assert_eq!(cells[2], json!("Init:0/1"));
        let deleting = json!({
            "metadata": {"name": "p", "deletionTimestamp": "2026-01-01T12:00:30Z"},
            "spec": {"containers": [{"name": "c"}]},
            "status": {"phase": "Running"}
        });
        let (_, cells) = fallback_row(&resource("Pod", ""), &deleting, now());
        assert_eq!(cells[2], json!("Terminating"));
        assert_eq!(cells[4], json!("<unknown>"));
    }

    #[test]
    fn other_kinds() {
        let svc = json!({"metadata": {"name": "s", "creationTimestamp": "2026-01-01T11:00:00Z"},
            "spec": {"type": "NodePort", "clusterIP": "10.96.0.5",
                     "ports": [{"port": 80, "nodePort": 30080, "protocol": "TCP"}]}});
        let (_, cells) = fallback_row(&resource("Service", ""), &svc, now());
        assert_eq!(
            cells[..5],
            [
                json!("s"),
                json!("NodePort"),
                json!("10.96.0.5"),
                json!("<none>"),
                json!("80:30080/TCP")
            ]
        );
        let deploy = json!({"metadata": {"name": "d"}, "spec": {"replicas": 3},
            "status": {"readyReplicas": 2, "updatedReplicas": 3, "availableReplicas": 2}});
        let (_, cells) = fallback_row(&resource("Deployment", "apps"), &deploy, now());
        assert_eq!(cells[1], json!("2/3"));
        let node = json!({"metadata": {"name": "n", "labels": {"node-role.kubernetes.io/control-plane": ""}},
            "spec": {"unschedulable": true},
            "status": {"conditions": [{"type": "Ready", "status": "True"}], "nodeInfo": {"kubeletVersion": "v1.32.0"}}});
        let (_, cells) = fallback_row(&resource("Node", ""), &node, now());
        assert_eq!(
            cells[1..3],
            [json!("Ready,SchedulingDisabled"), json!("control-plane")]
        );
        let widget =
            json!({"metadata": {"name": "w", "creationTimestamp": "2026-01-01T11:59:00Z"}});
        let (columns, cells) = fallback_row(&resource("Widget", "example.com"), &widget, now());
        assert_eq!(columns.len(), 2);
        assert_eq!(cells, [json!("w"), json!("60s")]);
    }
}
