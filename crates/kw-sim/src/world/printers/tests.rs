//! Expected rows derived by hand from the upstream printer rules, one table of cases per kind.

use std::time::{Duration, SystemTime};

use serde_json::{json, Value};

use super::{cells, columns};
use crate::world::objects::seed_world;

/// 2025-06-15T16:26:40Z.
fn now() -> SystemTime {
    SystemTime::UNIX_EPOCH + Duration::from_secs(1_750_004_800)
}

/// An RFC 3339 stamp `seconds` before `now()`.
fn ago(seconds: u64) -> String {
    humantime::format_rfc3339_seconds(now() - Duration::from_secs(seconds)).to_string()
}

fn meta(name: &str, age_seconds: u64) -> Value {
    json!({"name": name, "namespace": "default", "creationTimestamp": ago(age_seconds)})
}

fn running(name: &str) -> Value {
    json!({"name": name, "ready": true, "restartCount": 0, "started": true, "state": {"running": {"startedAt": ago(100)}}})
}

fn waiting(name: &str, reason: &str) -> Value {
    json!({"name": name, "ready": false, "restartCount": 0, "state": {"waiting": {"reason": reason}}})
}

fn terminated(name: &str, reason: &str, code: i64) -> Value {
    json!({"name": name, "ready": false, "restartCount": 0, "state": {"terminated": {"reason": reason, "exitCode": code}}})
}

fn cond(kind: &str, status: &str) -> Value {
    json!({"type": kind, "status": status})
}

fn containers(names: &[&str]) -> Value {
    json!(names
        .iter()
        .map(|n| json!({"name": n, "image": "nginx"}))
        .collect::<Vec<_>>())
}

/// Ready, Status and Restarts of a pod.
fn pod_summary(pod: &Value) -> (String, String, String) {
    let row = cells("pods", pod, now());
    let text = |v: &Value| v.as_str().unwrap_or("?").to_string();
    (text(&row[1]), text(&row[2]), text(&row[3]))
}

#[test]
fn pod_status_follows_the_upstream_rules() {
    let init_spec = json!([{"name": "init", "image": "busybox"}]);
    let cases: Vec<(&str, Value, (&str, &str, &str))> = vec![
        (
            "running",
            json!({"metadata": meta("a", 60), "spec": {"containers": containers(&["web"])},
                   "status": {"phase": "Running", "conditions": [cond("Ready", "True")], "containerStatuses": [running("web")]}}),
            ("1/1", "Running", "0"),
        ),
        (
            "pending without statuses",
            json!({"metadata": meta("a", 1), "spec": {"containers": containers(&["web"])}, "status": {"phase": "Pending"}}),
            ("0/1", "Pending", "0"),
        ),
        (
            "container creating",
            json!({"metadata": meta("a", 5), "spec": {"containers": containers(&["web", "log"])},
                   "status": {"phase": "Pending", "containerStatuses": [waiting("web", "ContainerCreating"), waiting("log", "ContainerCreating")]}}),
            ("0/2", "ContainerCreating", "0"),
        ),
        (
            "first container wins the reason",
            json!({"metadata": meta("a", 5), "spec": {"containers": containers(&["web", "log"])},
                   "status": {"phase": "Pending", "containerStatuses": [waiting("web", "ImagePullBackOff"), waiting("log", "ContainerCreating")]}}),
            ("0/2", "ImagePullBackOff", "0"),
        ),
        (
            "init container starting",
            json!({"metadata": meta("a", 5), "spec": {"initContainers": init_spec, "containers": containers(&["web"])},
                   "status": {"phase": "Pending", "initContainerStatuses": [waiting("init", "PodInitializing")], "containerStatuses": [waiting("web", "PodInitializing")]}}),
            ("0/1", "Init:0/1", "0"),
        ),
        (
            "init container crash looping",
            json!({"metadata": meta("a", 5), "spec": {"initContainers": init_spec, "containers": containers(&["web"])},
                   "status": {"phase": "Pending", "initContainerStatuses": [waiting("init", "CrashLoopBackOff")], "containerStatuses": [waiting("web", "PodInitializing")]}}),
            ("0/1", "Init:CrashLoopBackOff", "0"),
        ),
        (
            "init container failed",
            json!({"metadata": meta("a", 5), "spec": {"initContainers": init_spec, "containers": containers(&["web"])},
                   "status": {"phase": "Pending", "initContainerStatuses": [terminated("init", "Error", 1)]}}),
            ("0/1", "Init:Error", "0"),
        ),
        (
            "init container killed without a reason",
            json!({"metadata": meta("a", 5), "spec": {"initContainers": init_spec, "containers": containers(&["web"])},
                   "status": {"phase": "Pending", "initContainerStatuses": [{"name": "init", "restartCount": 0, "state": {"terminated": {"exitCode": 137, "signal": 9}}}]}}),
            ("0/1", "Init:Signal:9", "0"),
        ),
        (
            "init container exit code",
            json!({"metadata": meta("a", 5), "spec": {"initContainers": init_spec, "containers": containers(&["web"])},
                   "status": {"phase": "Pending", "initContainerStatuses": [{"name": "init", "restartCount": 0, "state": {"terminated": {"exitCode": 2}}}]}}),
            ("0/1", "Init:ExitCode:2", "0"),
        ),
        (
            "init done, main containers starting",
            json!({"metadata": meta("a", 5), "spec": {"initContainers": init_spec, "containers": containers(&["web"])},
                   "status": {"phase": "Pending", "conditions": [cond("Initialized", "True")], "initContainerStatuses": [terminated("init", "Completed", 0)], "containerStatuses": [waiting("web", "PodInitializing")]}}),
            ("0/1", "PodInitializing", "0"),
        ),
        (
            "completed",
            json!({"metadata": meta("a", 500), "spec": {"containers": containers(&["job"])},
                   "status": {"phase": "Succeeded", "containerStatuses": [terminated("job", "Completed", 0)]}}),
            ("0/1", "Completed", "0"),
        ),
        (
            "error",
            json!({"metadata": meta("a", 500), "spec": {"containers": containers(&["job"])},
                   "status": {"phase": "Failed", "containerStatuses": [terminated("job", "Error", 1)]}}),
            ("0/1", "Error", "0"),
        ),
        (
            "evicted keeps the pod's reason",
            json!({"metadata": meta("a", 500), "spec": {"containers": containers(&["web"])},
                   "status": {"phase": "Failed", "reason": "Evicted"}}),
            ("0/1", "Evicted", "0"),
        ),
        (
            "one container done, one running, not ready",
            json!({"metadata": meta("a", 500), "spec": {"containers": containers(&["web", "once"])},
                   "status": {"phase": "Running", "conditions": [cond("Ready", "False")], "containerStatuses": [running("web"), terminated("once", "Completed", 0)]}}),
            ("1/2", "NotReady", "0"),
        ),
        (
            "one container done, one running, ready",
            json!({"metadata": meta("a", 500), "spec": {"containers": containers(&["web", "once"])},
                   "status": {"phase": "Running", "conditions": [cond("Ready", "True")], "containerStatuses": [running("web"), terminated("once", "Completed", 0)]}}),
            ("1/2", "Running", "0"),
        ),
        (
            "terminating",
            json!({"metadata": {"name": "a", "creationTimestamp": ago(60), "deletionTimestamp": ago(0)}, "spec": {"containers": containers(&["web"])},
                   "status": {"phase": "Running", "containerStatuses": [running("web")]}}),
            ("1/1", "Terminating", "0"),
        ),
        (
            "a finished pod being deleted is not terminating",
            json!({"metadata": {"name": "a", "creationTimestamp": ago(60), "deletionTimestamp": ago(0)}, "spec": {"containers": containers(&["job"])},
                   "status": {"phase": "Succeeded", "containerStatuses": [terminated("job", "Completed", 0)]}}),
            ("0/1", "Completed", "0"),
        ),
        (
            "node lost",
            json!({"metadata": {"name": "a", "creationTimestamp": ago(60), "deletionTimestamp": ago(0)}, "spec": {"containers": containers(&["web"])},
                   "status": {"phase": "Running", "reason": "NodeLost", "containerStatuses": [running("web")]}}),
            ("1/1", "Unknown", "0"),
        ),
        (
            "scheduling gated",
            json!({"metadata": meta("a", 5), "spec": {"containers": containers(&["web"])},
                   "status": {"phase": "Pending", "conditions": [{"type": "PodScheduled", "status": "False", "reason": "SchedulingGated"}]}}),
            ("0/1", "SchedulingGated", "0"),
        ),
        (
            "crash loop with restarts",
            json!({"metadata": meta("a", 3600), "spec": {"containers": containers(&["web"])},
                   "status": {"phase": "Running", "containerStatuses": [{"name": "web", "ready": false, "restartCount": 7,
                       "lastState": {"terminated": {"exitCode": 1, "reason": "Error", "finishedAt": ago(310)}},
                       "state": {"waiting": {"reason": "CrashLoopBackOff"}}}]}}),
            ("0/1", "CrashLoopBackOff", "7 (5m10s ago)"),
        ),
        (
            "restarts without a recorded termination print bare",
            json!({"metadata": meta("a", 3600), "spec": {"containers": containers(&["web"])},
                   "status": {"phase": "Running", "containerStatuses": [{"name": "web", "ready": true, "restartCount": 2, "state": {"running": {}}}]}}),
            ("1/1", "Running", "2"),
        ),
        (
            "sidecar counts toward ready and total",
            json!({"metadata": meta("a", 60), "spec": {"initContainers": [{"name": "proxy", "restartPolicy": "Always"}], "containers": containers(&["app"])},
                   "status": {"phase": "Running", "conditions": [cond("Initialized", "True"), cond("Ready", "True")],
                       "initContainerStatuses": [running("proxy")], "containerStatuses": [running("app")]}}),
            ("2/2", "Running", "0"),
        ),
    ];
    for (label, pod, (ready, status, restarts)) in cases {
        assert_eq!(
            pod_summary(&pod),
            (ready.to_string(), status.to_string(), restarts.to_string()),
            "case: {label}"
        );
    }
}

#[test]
fn pod_wide_cells_use_none_for_missing_values() {
    let pod = json!({"metadata": meta("a", 1), "spec": {"containers": containers(&["web"])}, "status": {"phase": "Pending"}});
    let row = cells("pods", &pod, now());
    assert_eq!(row[0], "a");
    assert_eq!(row[4], "1s");
    assert_eq!(
        &row[5..],
        &[
            json!("<none>"),
            json!("<none>"),
            json!("<none>"),
            json!("<none>")
        ]
    );

    let gated = json!({"metadata": meta("b", 1),
        "spec": {"containers": containers(&["web"]), "nodeName": "node-1", "readinessGates": [{"conditionType": "x/a"}, {"conditionType": "x/b"}]},
        "status": {"phase": "Running", "podIPs": [{"ip": "10.244.0.5"}], "podIP": "10.244.0.5", "conditions": [cond("x/a", "True"), cond("x/b", "False")]}});
    let row = cells("pods", &gated, now());
    assert_eq!(
        &row[5..],
        &[
            json!("10.244.0.5"),
            json!("node-1"),
            json!("<none>"),
            json!("1/2")
        ]
    );
}

#[test]
fn malformed_objects_do_not_panic() {
    let junk = [
        json!(null),
        json!(42),
        json!({"metadata": "x", "status": [], "spec": {"containers": 3}}),
    ];
    for resource in [
        "pods",
        "nodes",
        "namespaces",
        "services",
        "endpoints",
        "configmaps",
        "secrets",
        "persistentvolumeclaims",
        "events",
        "deployments",
        "replicasets",
        "widgets",
        "other",
    ] {
        for object in &junk {
            assert_eq!(
                cells(resource, object, now()).len(),
                columns(resource).len(),
                "{resource}"
            );
        }
    }
    let row = cells("pods", &junk[0], now());
    assert_eq!(row[4], "<unknown>");
}

#[test]
fn column_layouts_match_the_server() {
    let layout = |resource: &str| -> Vec<(String, i32)> {
        columns(resource)
            .into_iter()
            .map(|c| (c.name, c.priority))
            .collect()
    };
    let expect = |pairs: &[(&str, i32)]| -> Vec<(String, i32)> {
        pairs.iter().map(|(n, p)| (n.to_string(), *p)).collect()
    };
    assert_eq!(
        layout("pods"),
        expect(&[
            ("Name", 0),
            ("Ready", 0),
            ("Status", 0),
            ("Restarts", 0),
            ("Age", 0),
            ("IP", 1),
            ("Node", 1),
            ("Nominated Node", 1),
            ("Readiness Gates", 1)
        ])
    );
    assert_eq!(
        layout("events"),
        expect(&[
            ("Last Seen", 0),
            ("Type", 0),
            ("Reason", 0),
            ("Object", 0),
            ("Subobject", 1),
            ("Source", 1),
            ("Message", 0),
            ("First Seen", 1),
            ("Count", 1),
            ("Name", 1)
        ])
    );
    assert_eq!(
        layout("persistentvolumeclaims"),
        expect(&[
            ("Name", 0),
            ("Status", 0),
            ("Volume", 0),
            ("Capacity", 0),
            ("Access Modes", 0),
            ("StorageClass", 0),
            ("VolumeAttributesClass", 0),
            ("Age", 0),
            ("VolumeMode", 1)
        ])
    );
    assert_eq!(
        layout("widgets"),
        expect(&[
            ("Name", 0),
            ("Color", 0),
            ("Size", 0),
            ("Phase", 0),
            ("Age", 0)
        ])
    );
    let pods = columns("pods");
    assert_eq!(
        (pods[0].format.as_str(), pods[3].column_type.as_str()),
        ("name", "string")
    );
    let replica_sets = columns("replicasets");
    assert_eq!(replica_sets[1].column_type, "integer");
    assert_eq!(columns("widgets")[4].column_type, "date");
    assert_eq!(columns("events")[9].format, "name");
    for resource in [
        "nodes",
        "namespaces",
        "services",
        "endpoints",
        "configmaps",
        "secrets",
        "deployments",
        "replicasets",
    ] {
        let columns = columns(resource);
        assert_eq!(columns[0].name, "Name", "{resource}");
        assert!(columns.iter().any(|c| c.name == "Age"), "{resource}");
        assert!(
            columns.iter().all(|c| !c.description.is_empty()),
            "{resource}"
        );
    }
}

#[test]
fn every_seeded_object_prints_a_full_row() {
    for item in seed_world(5, now()) {
        let row = cells(item.resource, &item.object, now());
        assert_eq!(row.len(), columns(item.resource).len(), "{}", item.resource);
        assert_eq!(
            row.iter().filter(|c| c.is_null()).count(),
            0,
            "{}: {row:?}",
            item.resource
        );
    }
}

#[test]
fn seeded_pods_show_the_interesting_states() {
    let world = seed_world(5, now());
    let status_of = |name: &str| {
        let pod = world
            .iter()
            .find(|o| o.resource == "pods" && o.object["metadata"]["name"] == name)
            .map(|o| &o.object);
        pod.map(pod_summary)
    };
    assert_eq!(
        status_of("flaky-worker"),
        Some((
            "0/1".into(),
            "CrashLoopBackOff".into(),
            "7 (2m10s ago)".into()
        ))
    );
    assert_eq!(
        status_of("mesh-demo"),
        Some(("2/2".into(), "Running".into(), "0".into()))
    );
    assert_eq!(
        status_of("init-demo"),
        Some(("1/1".into(), "Running".into(), "0".into()))
    );
    let migrate = world
        .iter()
        .find(|o| {
            o.object["metadata"]["name"]
                .as_str()
                .is_some_and(|n| n.starts_with("db-migrate-"))
        })
        .map(|o| pod_summary(&o.object));
    assert_eq!(
        migrate,
        Some(("0/1".into(), "Completed".into(), "0".into()))
    );
}

#[test]
fn node_rows() {
    let node = |labels: Value, conditions: Value, unschedulable: bool| {
        json!({"metadata": {"name": "n", "creationTimestamp": ago(3 * 86400), "labels": labels},
               "spec": {"unschedulable": unschedulable},
               "status": {"conditions": conditions, "addresses": [{"type": "InternalIP", "address": "10.0.0.1"}, {"type": "Hostname", "address": "n"}],
                          "nodeInfo": {"kubeletVersion": "v1.32.0", "osImage": "Ubuntu", "kernelVersion": "6.8", "containerRuntimeVersion": "containerd://1.7"}}})
    };
    let cases = [
        (
            node(
                json!({"node-role.kubernetes.io/control-plane": ""}),
                json!([cond("Ready", "True")]),
                false,
            ),
            "Ready",
            "control-plane",
        ),
        (
            node(
                json!({"kubernetes.io/role": "worker", "node-role.kubernetes.io/gpu": ""}),
                json!([cond("Ready", "False")]),
                true,
            ),
            "NotReady,SchedulingDisabled",
            "gpu,worker",
        ),
        (node(json!({}), json!([]), false), "Unknown", "<none>"),
    ];
    for (object, status, roles) in cases {
        let row = cells("nodes", &object, now());
        assert_eq!(
            (row[1].as_str(), row[2].as_str()),
            (Some(status), Some(roles))
        );
        assert_eq!(row[3], "3d");
        assert_eq!(
            &row[4..],
            &[
                json!("v1.32.0"),
                json!("10.0.0.1"),
                json!("<none>"),
                json!("Ubuntu"),
                json!("6.8"),
                json!("containerd://1.7")
            ]
        );
    }
}

#[test]
fn service_rows() {
    let service = |kind: &str, ports: Value, ingress: Value, selector: Value| {
        json!({"metadata": meta("s", 600), "spec": {"type": kind, "clusterIPs": ["10.96.0.9"], "ports": ports, "selector": selector},
               "status": {"loadBalancer": ingress}})
    };
    let cases = [
        (
            service(
                "ClusterIP",
                json!([{"port": 53, "protocol": "UDP"}, {"port": 53, "protocol": "TCP"}]),
                json!({}),
                json!({"b": "2", "a": "1"}),
            ),
            "<none>",
            "53/UDP,53/TCP",
            "a=1,b=2",
        ),
        (
            service(
                "NodePort",
                json!([{"port": 80, "nodePort": 30080, "protocol": "TCP"}]),
                json!({}),
                json!(null),
            ),
            "<none>",
            "80:30080/TCP",
            "<none>",
        ),
        (
            service(
                "LoadBalancer",
                json!([{"port": 80, "nodePort": 31380, "protocol": "TCP"}]),
                json!({}),
                json!({}),
            ),
            "<pending>",
            "80:31380/TCP",
            "<none>",
        ),
        (
            service(
                "LoadBalancer",
                json!([]),
                json!({"ingress": [{"ip": "203.0.113.10"}, {"hostname": "lb.example.com"}]}),
                json!({}),
            ),
            "203.0.113.10,lb.example.com",
            "<none>",
            "<none>",
        ),
    ];
    for (object, external, ports, selector) in cases {
        let row = cells("services", &object, now());
        assert_eq!(row[2], "10.96.0.9");
        assert_eq!(
            (
                row[3].as_str(),
                row[4].as_str(),
                row[5].as_str(),
                row[6].as_str()
            ),
            (Some(external), Some(ports), Some("10m"), Some(selector))
        );
    }
    let external_name = json!({"metadata": meta("x", 1), "spec": {"type": "ExternalName", "externalName": "db.example.com"}});
    let row = cells("services", &external_name, now());
    assert_eq!(
        (row[2].as_str(), row[3].as_str()),
        (Some("<none>"), Some("db.example.com"))
    );
}

#[test]
fn endpoints_rows() {
    let addresses = |n: usize| {
        json!((1..=n)
            .map(|i| json!({"ip": format!("10.0.0.{i}")}))
            .collect::<Vec<_>>())
    };
    let cases = [
        (json!({"metadata": meta("e", 5)}), "<none>"),
        (
            json!({"metadata": meta("e", 5), "subsets": [{"addresses": addresses(2), "ports": [{"port": 80}]}]}),
            "10.0.0.1:80,10.0.0.2:80",
        ),
        (
            json!({"metadata": meta("e", 5), "subsets": [{"addresses": addresses(2), "ports": [{"port": 53}, {"port": 9153}]}]}),
            "10.0.0.1:53,10.0.0.2:53,10.0.0.1:9153 + 1 more...",
        ),
        (
            json!({"metadata": meta("e", 5), "subsets": [{"addresses": addresses(5)}]}),
            "10.0.0.1,10.0.0.2,10.0.0.3 + 2 more...",
        ),
        (
            json!({"metadata": meta("e", 5), "subsets": [{"addresses": [{"ip": "fd00::1"}], "ports": [{"port": 443}]}]}),
            "[fd00::1]:443",
        ),
    ];
    for (object, expected) in cases {
        assert_eq!(cells("endpoints", &object, now())[1], expected);
    }
}

#[test]
fn config_secret_and_namespace_rows() {
    let config_map = json!({"metadata": meta("c", 90), "data": {"a": "1", "b": "2"}, "binaryData": {"c": "AA=="}});
    assert_eq!(
        cells("configmaps", &config_map, now()),
        vec![json!("c"), json!(3), json!("90s")]
    );
    let secret = json!({"metadata": meta("s", 7200), "type": "kubernetes.io/tls", "data": {"tls.crt": "", "tls.key": ""}});
    assert_eq!(
        cells("secrets", &secret, now()),
        vec![
            json!("s"),
            json!("kubernetes.io/tls"),
            json!(2),
            json!("120m")
        ]
    );
    let namespace =
        json!({"metadata": meta("team-a", 9 * 86400), "status": {"phase": "Terminating"}});
    assert_eq!(
        cells("namespaces", &namespace, now()),
        vec![json!("team-a"), json!("Terminating"), json!("9d")]
    );
}

#[test]
fn claim_rows() {
    let bound = json!({"metadata": meta("data", 60),
        "spec": {"volumeName": "pvc-1", "storageClassName": "standard", "volumeMode": "Filesystem", "accessModes": ["ReadWriteOnce"]},
        "status": {"phase": "Bound", "capacity": {"storage": "1Gi"}, "accessModes": ["ReadWriteMany", "ReadWriteOnce", "ReadWriteOnce"]}});
    assert_eq!(
        cells("persistentvolumeclaims", &bound, now()),
        vec![
            json!("data"),
            json!("Bound"),
            json!("pvc-1"),
            json!("1Gi"),
            json!("RWO,RWX"),
            json!("standard"),
            json!("<unset>"),
            json!("60s"),
            json!("Filesystem")
        ]
    );
    let pending = json!({"metadata": {"name": "p", "creationTimestamp": ago(5), "deletionTimestamp": ago(0),
            "annotations": {"volume.beta.kubernetes.io/storage-class": "fast"}},
        "spec": {"storageClassName": "standard", "volumeAttributesClassName": "gold"}, "status": {"phase": "Pending", "capacity": {"storage": "1Gi"}}});
    assert_eq!(
        cells("persistentvolumeclaims", &pending, now()),
        vec![
            json!("p"),
            json!("Terminating"),
            json!(""),
            json!(""),
            json!(""),
            json!("fast"),
            json!("gold"),
            json!("5s"),
            json!("<unset>")
        ]
    );
}

#[test]
fn event_rows() {
    let classic = json!({"metadata": meta("web-1.17d", 600), "type": "Warning", "reason": "BackOff", "message": " Back-off restarting \n",
        "involvedObject": {"kind": "Pod", "name": "web-1", "fieldPath": "spec.containers{web}"},
        "source": {"component": "kubelet", "host": "node-2"}, "count": 12, "firstTimestamp": ago(600), "lastTimestamp": ago(30)});
    assert_eq!(
        cells("events", &classic, now()),
        vec![
            json!("30s"),
            json!("Warning"),
            json!("BackOff"),
            json!("pod/web-1"),
            json!("spec.containers{web}"),
            json!("kubelet, node-2"),
            json!("Back-off restarting"),
            json!("10m"),
            json!(12),
            json!("web-1.17d")
        ]
    );
    let new_api = json!({"metadata": meta("n.1", 60), "type": "Normal", "reason": "Scheduled", "message": "ok",
        "involvedObject": {"kind": "Node"}, "reportingComponent": "default-scheduler", "eventTime": "2025-06-15T16:25:40.123456Z"});
    let row = cells("events", &new_api, now());
    assert_eq!(
        (
            row[0].as_str(),
            row[3].as_str(),
            row[5].as_str(),
            row[7].as_str()
        ),
        (
            Some("59s"),
            Some("node"),
            Some("default-scheduler"),
            Some("59s")
        )
    );
    assert_eq!(row[8], 1);
    let series = json!({"metadata": meta("s.1", 60), "firstTimestamp": ago(4000), "series": {"count": 5, "lastObservedTime": ago(20)}});
    let row = cells("events", &series, now());
    assert_eq!(
        (row[0].as_str(), row[7].as_str(), row[8].as_i64()),
        (Some("20s"), Some("66m"), Some(5))
    );
}

#[test]
fn workload_rows() {
    let template = json!({"spec": {"containers": [{"name": "web", "image": "nginx:1.27"}, {"name": "log", "image": "fluent-bit:3"}]}});
    let deployment = json!({"metadata": meta("web", 86400 * 5), "spec": {"replicas": 3, "template": template,
            "selector": {"matchLabels": {"app": "web"}, "matchExpressions": [{"key": "tier", "operator": "In", "values": ["b", "a"]}, {"key": "canary", "operator": "DoesNotExist"}]}},
        "status": {"readyReplicas": 2, "updatedReplicas": 3, "availableReplicas": 2}});
    assert_eq!(
        cells("deployments", &deployment, now()),
        vec![
            json!("web"),
            json!("2/3"),
            json!(3),
            json!(2),
            json!("5d"),
            json!("web,log"),
            json!("nginx:1.27,fluent-bit:3"),
            json!("app=web,!canary,tier in (a,b)")
        ]
    );
    let replica_set = json!({"metadata": meta("web-7d4b9c6f5", 50), "spec": {"template": template, "selector": {}}, "status": {"replicas": 1}});
    assert_eq!(
        cells("replicasets", &replica_set, now()),
        vec![
            json!("web-7d4b9c6f5"),
            json!(1),
            json!(1),
            json!(0),
            json!("50s"),
            json!("web,log"),
            json!("nginx:1.27,fluent-bit:3"),
            json!("<none>")
        ]
    );
}

#[test]
fn widget_and_default_rows() {
    let widget = json!({"metadata": meta("alpha", 3 * 3600 + 25 * 60), "spec": {"color": "red", "size": 3.7}, "status": {"phase": "Ready"}});
    assert_eq!(
        cells("widgets", &widget, now()),
        vec![
            json!("alpha"),
            json!("red"),
            json!(3),
            json!("Ready"),
            json!("3h25m")
        ]
    );
    let bare = json!({"metadata": {"name": "beta", "creationTimestamp": "not a time"}, "spec": {"color": 7}});
    assert_eq!(
        cells("widgets", &bare, now()),
        vec![
            json!("beta"),
            json!("7"),
            Value::Null,
            Value::Null,
            json!("<invalid>")
        ]
    );
    let other = json!({"metadata": meta("thing", 5)});
    assert_eq!(
        cells("leases", &other, now()),
        vec![json!("thing"), json!(ago(5))]
    );
}
