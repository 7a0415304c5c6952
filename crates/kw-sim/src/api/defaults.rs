//! The defaults kube-apiserver fills in on a write, for the kinds clients create in scripts
//! (Deployments, Jobs, Pods, Services, Namespaces): what `kubectl get -o yaml` shows after an `apply` of a short
//! manifest, and what the controllers read (`replicas`, `progressDeadlineSeconds`, a Job's
//! selector and `backoffLimit`).

use serde_json::{json, Value};

/// Fill the defaults of `resource` into `object` (only where the client left a field out).
/// `uid` is the uid the object will be stored with (a Job's selector names it).
pub fn apply(resource: &str, object: &mut Value, uid: &str) {
    match resource {
        "deployments" => {
            let spec = &mut object["spec"];
            default(spec, "replicas", json!(1));
            default(spec, "revisionHistoryLimit", json!(10));
            default(spec, "progressDeadlineSeconds", json!(600));
            default(
                spec,
                "strategy",
                json!({"type": "RollingUpdate", "rollingUpdate": {"maxSurge": "25%", "maxUnavailable": "25%"}}),
            );
            pod_spec(&mut spec["template"]["spec"], "Always");
        }
        "jobs" => {
            let name = object["metadata"]["name"].clone();
            let labels = json!({
                "batch.kubernetes.io/controller-uid": uid,
                "batch.kubernetes.io/job-name": name,
                "controller-uid": uid,
                "job-name": name,
            });
            let spec = &mut object["spec"];
            for (field, value) in [
                ("backoffLimit", json!(6)),
                ("completions", json!(1)),
                ("parallelism", json!(1)),
                ("completionMode", json!("NonIndexed")),
                ("suspend", json!(false)),
                ("manualSelector", json!(false)),
                ("podReplacementPolicy", json!("TerminatingOrFailed")),
            ] {
                default(spec, field, value);
            }
            default(
                spec,
                "selector",
                json!({"matchLabels": {"batch.kubernetes.io/controller-uid": uid}}),
            );
            if !object["spec"]["template"]["metadata"].is_object() {
                object["spec"]["template"]["metadata"] = json!({});
            }
            for path in ["/metadata", "/spec/template/metadata"] {
                let Some(target) = object.pointer_mut(path) else {
                    continue;
                };
                if !target["labels"].is_object() {
                    target["labels"] = json!({});
                }
                for (key, value) in labels.as_object().into_iter().flatten() {
                    default(&mut target["labels"], key, value.clone());
                }
            }
            pod_spec(&mut object["spec"]["template"]["spec"], "Never");
        }
        "pods" => pod_spec(&mut object["spec"], "Always"),
        "services" => service(object, uid),
        "namespaces" => {
            default(&mut object["spec"], "finalizers", json!(["kubernetes"]));
            default(&mut object["status"], "phase", json!("Active"));
            let name = object["metadata"]["name"].clone();
            if !object["metadata"]["labels"].is_object() {
                object["metadata"]["labels"] = json!({});
            }
            default(
                &mut object["metadata"]["labels"],
                "kubernetes.io/metadata.name",
                name,
            );
        }
        _ => {}
    }
}

/// A Service as the API server completes it: `ClusterIP`, an address from the service range
/// (derived from its uid, so the same world gives the same address), TCP ports whose target is
/// the port itself unless said.
fn service(object: &mut Value, uid: &str) {
    let spec = &mut object["spec"];
    default(spec, "type", json!("ClusterIP"));
    default(spec, "sessionAffinity", json!("None"));
    default(spec, "internalTrafficPolicy", json!("Cluster"));
    default(spec, "ipFamilies", json!(["IPv4"]));
    default(spec, "ipFamilyPolicy", json!("SingleStack"));
    if spec["clusterIP"].is_null() {
        let hash = uid
            .bytes()
            .fold(0u32, |h, b| h.wrapping_mul(31).wrapping_add(u32::from(b)));
        let address = format!("10.96.{}.{}", (hash >> 8) % 256, 2 + hash % 250);
        spec["clusterIP"] = json!(address);
        spec["clusterIPs"] = json!([address]);
    }
    if let Some(ports) = spec["ports"].as_array_mut() {
        for port in ports {
            default(port, "protocol", json!("TCP"));
            let number = port["port"].clone();
            default(port, "targetPort", number);
        }
    }
    default(&mut object["status"], "loadBalancer", json!({}));
}

fn default(target: &mut Value, field: &str, value: Value) {
    if target.get(field).is_none_or(Value::is_null) {
        target[field] = value;
    }
}

fn pod_spec(spec: &mut Value, restart_policy: &str) {
    if !spec.is_object() {
        return;
    }
    for (field, value) in [
        ("restartPolicy", json!(restart_policy)),
        ("dnsPolicy", json!("ClusterFirst")),
        ("schedulerName", json!("default-scheduler")),
        ("securityContext", json!({})),
        ("terminationGracePeriodSeconds", json!(30)),
    ] {
        default(spec, field, value);
    }
    if let Some(containers) = spec["containers"].as_array_mut() {
        for container in containers {
            let image = container["image"].as_str().unwrap_or("");
            let tagged = image
                .rsplit('/')
                .next()
                .is_some_and(|last| last.contains(':'));
            let policy = if !tagged || image.ends_with(":latest") {
                "Always"
            } else {
                "IfNotPresent"
            };
            default(container, "imagePullPolicy", json!(policy));
            default(
                container,
                "terminationMessagePath",
                json!("/dev/termination-log"),
            );
            default(container, "terminationMessagePolicy", json!("File"));
            default(container, "resources", json!({}));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_short_job_gets_its_selector_labels_and_limits() {
        // No template metadata at all, as in kubectl's docs' example.
        let mut job = json!({"metadata": {"name": "pi"}, "spec": {"template": {"spec": {
            "containers": [{"name": "pi", "image": "perl:5.34"}]}}}});
        apply("jobs", &mut job, "u-1");
        assert_eq!(job["spec"]["backoffLimit"], 6);
        assert_eq!(
            job["spec"]["selector"]["matchLabels"]["batch.kubernetes.io/controller-uid"],
            "u-1"
        );
        assert_eq!(
            job["spec"]["template"]["metadata"]["labels"]["job-name"],
            "pi"
        );
        assert_eq!(job["spec"]["template"]["spec"]["restartPolicy"], "Never");
        assert_eq!(
            job["spec"]["template"]["spec"]["containers"][0]["imagePullPolicy"],
            "IfNotPresent"
        );
    }

    #[test]
    fn a_service_gets_an_address_and_tcp_ports() {
        let mut service =
            json!({"spec": {"ports": [{"port": 80}, {"port": 53, "protocol": "UDP"}]}});
        apply("services", &mut service, "u-7");
        assert_eq!(service["spec"]["type"], "ClusterIP");
        assert!(service["spec"]["clusterIP"]
            .as_str()
            .unwrap()
            .starts_with("10.96."));
        assert_eq!(
            service["spec"]["ports"][0],
            json!({"port": 80, "protocol": "TCP", "targetPort": 80})
        );
        assert_eq!(service["spec"]["ports"][1]["protocol"], "UDP");
    }

    #[test]
    fn what_the_client_wrote_is_kept() {
        let mut deployment = json!({"spec": {"replicas": 0, "progressDeadlineSeconds": 3,
            "template": {"spec": {"containers": [{"name": "a", "image": "nginx"}]}}}});
        apply("deployments", &mut deployment, "u");
        assert_eq!(deployment["spec"]["replicas"], 0);
        assert_eq!(deployment["spec"]["progressDeadlineSeconds"], 3);
        assert_eq!(
            deployment["spec"]["template"]["spec"]["containers"][0]["imagePullPolicy"],
            "Always"
        );
    }
}
