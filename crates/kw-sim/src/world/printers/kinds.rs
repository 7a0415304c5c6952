//! Row cells for every kind except pods, computed as kube-apiserver's printers do (with the
//! wide columns included: the server always prints wide and lets the client drop columns).

use std::collections::BTreeSet;
use std::time::SystemTime;

use serde_json::{json, Value};

use super::age::{human_duration, nanos_between, parse_time, since};

fn text(value: &Value) -> &str {
    value.as_str().unwrap_or("")
}

fn items(value: &Value) -> &[Value] {
    value.as_array().map(Vec::as_slice).unwrap_or(&[])
}

fn name(object: &Value) -> Value {
    json!(text(&object["metadata"]["name"]))
}

fn age(object: &Value, now: SystemTime) -> Value {
    json!(since(object["metadata"]["creationTimestamp"].as_str(), now))
}

fn count(value: &Value) -> i64 {
    value.as_i64().unwrap_or(0)
}

fn or_none(value: String) -> String {
    if value.is_empty() {
        "<none>".into()
    } else {
        value
    }
}

/// `labels.FormatLabels`: `k=v` pairs sorted by key, or `<none>`.
fn format_labels(labels: &Value) -> String {
    let pairs: Vec<String> = labels
        .as_object()
        .map(|map| {
            map.iter()
                .map(|(k, v)| format!("{k}={}", text(v)))
                .collect()
        })
        .unwrap_or_default();
    or_none(pairs.join(","))
}

/// `LabelSelectorAsSelector(...).String()`: requirements sorted by key. `None` when the
/// selector is invalid.
fn selector_string(selector: &Value) -> Option<String> {
    let mut requirements: Vec<(String, String)> = Vec::new();
    if let Some(labels) = selector["matchLabels"].as_object() {
        for (key, value) in labels {
            requirements.push((key.clone(), format!("{key}={}", text(value))));
        }
    }
    for expression in items(&selector["matchExpressions"]) {
        let key = text(&expression["key"]).to_string();
        let mut values: Vec<&str> = items(&expression["values"]).iter().map(text).collect();
        values.sort_unstable();
        let rendered = match text(&expression["operator"]) {
            "In" => format!("{key} in ({})", values.join(",")),
            "NotIn" => format!("{key} notin ({})", values.join(",")),
            "Exists" => key.clone(),
            "DoesNotExist" => format!("!{key}"),
            _ => return None,
        };
        requirements.push((key, rendered));
    }
    // A stable sort by key, like the selector's own ordering.
    requirements.sort_by(|a, b| a.0.cmp(&b.0));
    Some(
        requirements
            .into_iter()
            .map(|(_, r)| r)
            .collect::<Vec<_>>()
            .join(","),
    )
}

/// `metav1.FormatLabelSelector`: the selector, `<none>` when empty, `<error>` when invalid.
fn format_label_selector(selector: &Value) -> String {
    match selector_string(selector) {
        Some(rendered) => or_none(rendered),
        None => "<error>".into(),
    }
}

/// `layoutContainerCells`: container names and images, comma-joined.
fn containers_and_images(pod_spec: &Value) -> (String, String) {
    let containers = items(&pod_spec["containers"]);
    let names: Vec<&str> = containers.iter().map(|c| text(&c["name"])).collect();
    let images: Vec<&str> = containers.iter().map(|c| text(&c["image"])).collect();
    (names.join(","), images.join(","))
}

pub fn node(object: &Value, now: SystemTime) -> Vec<Value> {
    let status = &object["status"];
    let mut states: Vec<String> = Vec::new();
    // The last condition of a type wins, as the upstream map does.
    if let Some(ready) = items(&status["conditions"])
        .iter()
        .rev()
        .find(|c| c["type"] == "Ready")
    {
        states.push(if ready["status"] == "True" {
            "Ready".into()
        } else {
            "NotReady".into()
        });
    }
    if states.is_empty() {
        states.push("Unknown".into());
    }
    if object["spec"]["unschedulable"] == true {
        states.push("SchedulingDisabled".into());
    }
    let mut roles = BTreeSet::new();
    if let Some(labels) = object["metadata"]["labels"].as_object() {
        for (key, value) in labels {
            if let Some(role) = key.strip_prefix("node-role.kubernetes.io/") {
                if !role.is_empty() {
                    roles.insert(role.to_string());
                }
            } else if key == "kubernetes.io/role" && !text(value).is_empty() {
                roles.insert(text(value).to_string());
            }
        }
    }
    let address = |kind: &str| {
        items(&status["addresses"])
            .iter()
            .find(|a| a["type"] == kind)
            .map(|a| text(&a["address"]).to_string())
            .unwrap_or_else(|| "<none>".into())
    };
    let info = &status["nodeInfo"];
    let or_unknown = |value: &Value| match text(value) {
        "" => "<unknown>".to_string(),
        set => set.to_string(),
    };
    vec![
        name(object),
        json!(states.join(",")),
        json!(or_none(roles.into_iter().collect::<Vec<_>>().join(","))),
        age(object, now),
        json!(text(&info["kubeletVersion"])),
        json!(address("InternalIP")),
        json!(address("ExternalIP")),
        json!(or_unknown(&info["osImage"])),
        json!(or_unknown(&info["kernelVersion"])),
        json!(or_unknown(&info["containerRuntimeVersion"])),
    ]
}

pub fn namespace(object: &Value, now: SystemTime) -> Vec<Value> {
    vec![
        name(object),
        json!(text(&object["status"]["phase"])),
        age(object, now),
    ]
}

fn external_ip(service: &Value) -> String {
    let spec = &service["spec"];
    let external: Vec<&str> = items(&spec["externalIPs"]).iter().map(text).collect();
    match text(&spec["type"]) {
        "ClusterIP" | "NodePort" => or_none(external.join(",")),
        "LoadBalancer" => {
            let balancers: BTreeSet<&str> = items(&service["status"]["loadBalancer"]["ingress"])
                .iter()
                .map(|ingress| match text(&ingress["ip"]) {
                    "" => text(&ingress["hostname"]),
                    ip => ip,
                })
                .filter(|address| !address.is_empty())
                .collect();
            let mut all: Vec<&str> = balancers.into_iter().collect();
            all.extend(external);
            if all.is_empty() {
                "<pending>".into()
            } else {
                all.join(",")
            }
        }
        "ExternalName" => text(&spec["externalName"]).to_string(),
        _ => "<unknown>".into(),
    }
}

pub fn service(object: &Value, now: SystemTime) -> Vec<Value> {
    let spec = &object["spec"];
    let ports: Vec<String> = items(&spec["ports"])
        .iter()
        .map(|port| {
            let protocol = text(&port["protocol"]);
            match count(&port["nodePort"]) {
                0 => format!("{}/{protocol}", count(&port["port"])),
                node_port => format!("{}:{node_port}/{protocol}", count(&port["port"])),
            }
        })
        .collect();
    vec![
        name(object),
        json!(text(&spec["type"])),
        json!(or_none(text(&spec["clusterIPs"][0]).to_string())),
        json!(external_ip(object)),
        json!(or_none(ports.join(","))),
        age(object, now),
        json!(format_labels(&spec["selector"])),
    ]
}

/// `formatEndpoints`: up to three `ip:port` pairs, then `+ N more...`.
fn format_endpoints(object: &Value) -> String {
    let subsets = items(&object["subsets"]);
    if subsets.is_empty() {
        return "<none>".into();
    }
    const SHOWN: usize = 3;
    let mut list: Vec<String> = Vec::new();
    let mut total = 0usize;
    for subset in subsets {
        let addresses = items(&subset["addresses"]);
        let ports = items(&subset["ports"]);
        if ports.is_empty() {
            // Headless services without ports list bare IPs.
            total += addresses.len();
            list.extend(
                addresses
                    .iter()
                    .map(|a| text(&a["ip"]).to_string())
                    .take(SHOWN - list.len().min(SHOWN)),
            );
            continue;
        }
        for port in ports {
            total += addresses.len();
            for address in addresses {
                if list.len() == SHOWN {
                    break;
                }
                let ip = text(&address["ip"]);
                let host = if ip.contains(':') {
                    format!("[{ip}]")
                } else {
                    ip.to_string()
                };
                list.push(format!("{host}:{}", count(&port["port"])));
            }
        }
    }
    let joined = list.join(",");
    if total > SHOWN {
        format!("{joined} + {} more...", total - SHOWN)
    } else {
        joined
    }
}

pub fn endpoints(object: &Value, now: SystemTime) -> Vec<Value> {
    vec![
        name(object),
        json!(format_endpoints(object)),
        age(object, now),
    ]
}

fn map_len(value: &Value) -> i64 {
    value.as_object().map(|m| m.len() as i64).unwrap_or(0)
}

pub fn config_map(object: &Value, now: SystemTime) -> Vec<Value> {
    let keys = map_len(&object["data"]) + map_len(&object["binaryData"]);
    vec![name(object), json!(keys), age(object, now)]
}

pub fn secret(object: &Value, now: SystemTime) -> Vec<Value> {
    vec![
        name(object),
        json!(text(&object["type"])),
        json!(map_len(&object["data"])),
        age(object, now),
    ]
}

/// `GetAccessModesAsString`: the short forms in a fixed order, each once.
fn access_modes(modes: &Value) -> String {
    let present: Vec<&str> = items(modes).iter().map(text).collect();
    [
        ("ReadWriteOnce", "RWO"),
        ("ReadOnlyMany", "ROX"),
        ("ReadWriteMany", "RWX"),
        ("ReadWriteOncePod", "RWOP"),
    ]
    .iter()
    .filter(|(long, _)| present.contains(long))
    .map(|(_, short)| *short)
    .collect::<Vec<_>>()
    .join(",")
}

pub fn claim(object: &Value, now: SystemTime) -> Vec<Value> {
    let spec = &object["spec"];
    let status = &object["status"];
    let phase = if object["metadata"]["deletionTimestamp"].is_null() {
        text(&status["phase"]).to_string()
    } else {
        "Terminating".into()
    };
    let volume = text(&spec["volumeName"]);
    let (capacity, modes) = if volume.is_empty() {
        (String::new(), String::new())
    } else {
        (
            text(&status["capacity"]["storage"]).to_string(),
            access_modes(&status["accessModes"]),
        )
    };
    // The beta annotation still wins over the field, as `GetPersistentVolumeClaimClass` has it.
    let class =
        match text(&object["metadata"]["annotations"]["volume.beta.kubernetes.io/storage-class"]) {
            "" => text(&spec["storageClassName"]),
            annotated => annotated,
        };
    let or_unset = |value: &Value| match value.as_str() {
        Some(set) => set.to_string(),
        None => "<unset>".to_string(),
    };
    vec![
        name(object),
        json!(phase),
        json!(volume),
        json!(capacity),
        json!(modes),
        json!(class),
        json!(or_unset(&spec["volumeAttributesClassName"])),
        age(object, now),
        json!(or_unset(&spec["volumeMode"])),
    ]
}

pub fn event(object: &Value, now: SystemTime) -> Vec<Value> {
    let first = match parse_time(object["firstTimestamp"].as_str()) {
        Some(at) => human_duration(nanos_between(at, now)),
        None => since(object["eventTime"].as_str(), now),
    };
    let mut last = match parse_time(object["lastTimestamp"].as_str()) {
        Some(at) => human_duration(nanos_between(at, now)),
        None => first.clone(),
    };
    let mut occurrences = count(&object["count"]);
    if object["series"].is_object() {
        last = since(object["series"]["lastObservedTime"].as_str(), now);
        occurrences = count(&object["series"]["count"]);
    } else if occurrences == 0 {
        // Singleton events of the events.k8s.io API carry no count.
        occurrences = 1;
    }
    let involved = &object["involvedObject"];
    let kind = text(&involved["kind"]).to_lowercase();
    let target = match text(&involved["name"]) {
        "" => kind,
        involved_name => format!("{kind}/{involved_name}"),
    };
    let first_non_empty = |a: &Value, b: &Value| match text(a) {
        "" => text(b).to_string(),
        set => set.to_string(),
    };
    let component = first_non_empty(
        &object["source"]["component"],
        &object["reportingComponent"],
    );
    let instance = first_non_empty(&object["source"]["host"], &object["reportingInstance"]);
    let source = if instance.is_empty() {
        component
    } else {
        format!("{component}, {instance}")
    };
    vec![
        json!(last),
        json!(text(&object["type"])),
        json!(text(&object["reason"])),
        json!(target),
        json!(text(&involved["fieldPath"])),
        json!(source),
        json!(text(&object["message"]).trim()),
        json!(first),
        json!(occurrences),
        name(object),
    ]
}

fn desired_replicas(object: &Value) -> i64 {
    // `spec.replicas` defaults to 1 when unset.
    object["spec"]["replicas"].as_i64().unwrap_or(1)
}

pub fn deployment(object: &Value, now: SystemTime) -> Vec<Value> {
    let status = &object["status"];
    let (containers, images) = containers_and_images(&object["spec"]["template"]["spec"]);
    let selector = match selector_string(&object["spec"]["selector"]) {
        Some(rendered) => rendered,
        None => "<invalid>".into(),
    };
    vec![
        name(object),
        json!(format!(
            "{}/{}",
            count(&status["readyReplicas"]),
            desired_replicas(object)
        )),
        json!(count(&status["updatedReplicas"])),
        json!(count(&status["availableReplicas"])),
        age(object, now),
        json!(containers),
        json!(images),
        json!(selector),
    ]
}

pub fn replica_set(object: &Value, now: SystemTime) -> Vec<Value> {
    let status = &object["status"];
    let (containers, images) = containers_and_images(&object["spec"]["template"]["spec"]);
    vec![
        name(object),
        json!(desired_replicas(object)),
        json!(count(&status["replicas"])),
        json!(count(&status["readyReplicas"])),
        age(object, now),
        json!(containers),
        json!(images),
        json!(format_label_selector(&object["spec"]["selector"])),
    ]
}

/// A CRD `string` column: JSONPath prints strings bare and other values as JSON.
fn string_cell(value: &Value) -> Value {
    match value {
        Value::Null => Value::Null,
        Value::String(s) => json!(s),
        other => json!(other.to_string()),
    }
}

/// A CRD `integer` column: integers (and truncated floats) only, else null.
fn integer_cell(value: &Value) -> Value {
    match value {
        Value::Number(n) => n
            .as_i64()
            .map(Value::from)
            .or_else(|| n.as_f64().map(|f| json!(f as i64)))
            .unwrap_or(Value::Null),
        _ => Value::Null,
    }
}

/// A CRD `date` column: the age of an RFC 3339 string, `<invalid>` if it does not parse.
fn date_cell(value: &Value, now: SystemTime) -> Value {
    match value.as_str() {
        Some(stamp) => match parse_time(Some(stamp)) {
            Some(at) => json!(human_duration(nanos_between(at, now))),
            None => json!("<invalid>"),
        },
        None => Value::Null,
    }
}

pub fn widget(object: &Value, now: SystemTime) -> Vec<Value> {
    vec![
        name(object),
        string_cell(&object["spec"]["color"]),
        integer_cell(&object["spec"]["size"]),
        string_cell(&object["status"]["phase"]),
        date_cell(&object["metadata"]["creationTimestamp"], now),
    ]
}

/// The default table convertor: the name and the creation time in RFC 3339.
/// `printScale`: the name, `spec.replicas` and `status.replicas`.
pub fn scale(object: &Value) -> Vec<Value> {
    let replicas = |part: &str| json!(object[part]["replicas"].as_i64().unwrap_or(0));
    vec![name(object), replicas("spec"), replicas("status")]
}

pub fn default_row(object: &Value) -> Vec<Value> {
    let created = match parse_time(object["metadata"]["creationTimestamp"].as_str()) {
        Some(at) => json!(humantime::format_rfc3339_seconds(at).to_string()),
        None => Value::Null,
    };
    vec![name(object), created]
}
