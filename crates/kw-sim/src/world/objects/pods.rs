//! Pods in every lifecycle stage, shaped like `kubectl get pod -o json` from a v1.32 cluster.
//!
//! A pod is described once by a [`PodBlueprint`] (who it is, what it runs, where) and rendered
//! for a [`PodStage`] (what the kubelet last reported). Churn re-renders the same blueprint as a
//! pod moves Pending → ContainerCreating → Running, so every stage stays internally consistent.

use std::time::SystemTime;

use serde_json::{json, Map, Value};

use super::ids::{hex, later, rfc3339, safe_suffix};

/// What a pod is, independent of how far along it is.
#[derive(Debug, Clone, PartialEq)]
pub struct PodBlueprint {
    /// Seeds the container IDs and image digests.
    pub seed: u64,
    pub namespace: String,
    pub name: String,
    pub uid: String,
    pub labels: Map<String, Value>,
    pub annotations: Map<String, Value>,
    /// One `ownerReferences` entry, if a controller owns the pod.
    pub owner: Option<Value>,
    /// Container specs as they appear in a pod template (see [`container_spec`]).
    pub containers: Vec<Value>,
    pub init_containers: Vec<Value>,
    /// `Always`, `OnFailure` or `Never`.
    pub restart_policy: String,
    /// The node it is (or will be) scheduled on.
    pub node: String,
    pub host_ip: String,
    pub pod_ip: String,
    pub created: SystemTime,
    /// The field manager that created it (`kube-controller-manager`, `kubectl-run`, ...).
    pub manager: String,
}

/// How far along a pod is, as its status reports.
#[derive(Debug, Clone, PartialEq)]
pub enum PodStage {
    /// Created, not yet scheduled: no node, status holds only the phase.
    Pending,
    /// Scheduled; the runtime is pulling images and creating containers.
    ContainerCreating,
    /// Scheduled; the first init container is running.
    Initializing,
    /// Every container running and ready.
    Running {
        restarts: u32,
        last_restart: Option<SystemTime>,
    },
    /// The first container keeps exiting and the kubelet is backing off.
    CrashLoopBackOff {
        restarts: u32,
        last_restart: SystemTime,
    },
    /// Every container exited 0 (`restartPolicy: Never/OnFailure` pods).
    Completed,
}

/// A container spec as found in a pod template: the fields the API server defaults included.
pub fn container_spec(
    name: &str,
    image: &str,
    port: Option<u16>,
    cpu: &str,
    memory: &str,
) -> Value {
    let mut spec = json!({
        "image": image,
        "imagePullPolicy": "IfNotPresent",
        "name": name,
        "resources": {
            "limits": {"memory": memory},
            "requests": {"cpu": cpu, "memory": memory}
        },
        "terminationMessagePath": "/dev/termination-log",
        "terminationMessagePolicy": "File"
    });
    if let Some(port) = port {
        spec["ports"] = json!([{"containerPort": port, "name": "http", "protocol": "TCP"}]);
    }
    spec
}

/// A sidecar: an init container that keeps running next to the main ones (KEP-753).
pub fn sidecar_spec(name: &str, image: &str) -> Value {
    let mut spec = container_spec(name, image, None, "20m", "40Mi");
    spec["restartPolicy"] = json!("Always");
    spec
}

fn container_name(spec: &Value) -> &str {
    spec["name"].as_str().unwrap_or("")
}

fn is_sidecar(spec: &Value) -> bool {
    spec["restartPolicy"].as_str() == Some("Always")
}

/// `nginx:1.27` → `docker.io/library/nginx:1.27`, as containerd reports it.
fn qualified_image(image: &str) -> String {
    let first = image.split('/').next().unwrap_or("");
    if !image.contains('/') {
        format!("docker.io/library/{image}")
    } else if !first.contains('.') && !first.contains(':') && first != "localhost" {
        format!("docker.io/{image}")
    } else {
        image.to_string()
    }
}

fn image_id(seed: u64, image: &str) -> String {
    let qualified = qualified_image(image);
    let repository = match qualified.rsplit_once(':') {
        Some((repo, tag)) if !tag.contains('/') => repo.to_string(),
        _ => qualified.clone(),
    };
    format!("{repository}@sha256:{}", hex(seed, image, 64))
}

impl PodBlueprint {
    fn token_volume(&self) -> String {
        format!("kube-api-access-{}", safe_suffix(self.seed, &self.uid, 5))
    }

    fn container_id(&self, container: &str, restarts: u32) -> String {
        let key = format!("{}/{container}/{restarts}", self.uid);
        format!("containerd://{}", hex(self.seed, &key, 64))
    }

    /// Admission adds the service-account token mount to every container.
    fn with_token_mount(&self, spec: &Value) -> Value {
        let mut spec = spec.clone();
        let mount = json!({
            "mountPath": "/var/run/secrets/kubernetes.io/serviceaccount",
            "name": self.token_volume(),
            "readOnly": true
        });
        match spec.get_mut("volumeMounts").and_then(Value::as_array_mut) {
            Some(mounts) => mounts.push(mount),
            None => spec["volumeMounts"] = json!([mount]),
        }
        spec
    }

    fn qos_class(&self) -> &'static str {
        let all = self.containers.iter().chain(self.init_containers.iter());
        let mut any_resources = false;
        let mut guaranteed = true;
        for spec in all {
            let requests = &spec["resources"]["requests"];
            let limits = &spec["resources"]["limits"];
            if !requests.is_null() || !limits.is_null() {
                any_resources = true;
            }
            if requests["cpu"] != limits["cpu"] || requests["memory"] != limits["memory"] {
                guaranteed = false;
            }
        }
        match (any_resources, guaranteed) {
            (false, _) => "BestEffort",
            (true, true) => "Guaranteed",
            (true, false) => "Burstable",
        }
    }

    fn metadata(&self, status_time: SystemTime) -> Value {
        let mut metadata = json!({
            "creationTimestamp": rfc3339(self.created),
            "name": self.name,
            "namespace": self.namespace,
            "uid": self.uid,
        });
        if !self.labels.is_empty() {
            metadata["labels"] = Value::Object(self.labels.clone());
        }
        if !self.annotations.is_empty() {
            metadata["annotations"] = Value::Object(self.annotations.clone());
        }
        let mut creator_fields = json!({"f:metadata": {}, "f:spec": {}});
        if let Some(owner) = &self.owner {
            metadata["ownerReferences"] = json!([owner]);
            if let Some((prefix, _)) = self.name.rsplit_once('-') {
                metadata["generateName"] = json!(format!("{prefix}-"));
            }
            let owner_uid = owner["uid"].as_str().unwrap_or("");
            creator_fields["f:metadata"]["f:generateName"] = json!({});
            creator_fields["f:metadata"]["f:ownerReferences"] = json!({
                ".": {},
                format!("k:{{\"uid\":\"{owner_uid}\"}}"): {}
            });
        }
        let label_fields: Map<String, Value> = self
            .labels
            .keys()
            .map(|key| (format!("f:{key}"), json!({})))
            .chain(std::iter::once((".".to_string(), json!({}))))
            .collect();
        creator_fields["f:metadata"]["f:labels"] = Value::Object(label_fields);
        let container_fields: Map<String, Value> = self
            .containers
            .iter()
            .map(|spec| {
                (
                    format!("k:{{\"name\":\"{}\"}}", container_name(spec)),
                    json!({".": {}, "f:image": {}, "f:imagePullPolicy": {}, "f:name": {}, "f:resources": {}}),
                )
            })
            .collect();
        creator_fields["f:spec"] = json!({
            "f:containers": container_fields,
            "f:dnsPolicy": {},
            "f:restartPolicy": {},
            "f:schedulerName": {},
            "f:terminationGracePeriodSeconds": {}
        });
        metadata["managedFields"] = json!([
            {
                "apiVersion": "v1",
                "fieldsType": "FieldsV1",
                "fieldsV1": creator_fields,
                "manager": self.manager,
                "operation": "Update",
                "time": rfc3339(self.created)
            },
            {
                "apiVersion": "v1",
                "fieldsType": "FieldsV1",
                "fieldsV1": {"f:status": {
                    "f:conditions": {},
                    "f:containerStatuses": {},
                    "f:hostIP": {},
                    "f:hostIPs": {},
                    "f:phase": {},
                    "f:podIP": {},
                    "f:podIPs": {},
                    "f:startTime": {}
                }},
                "manager": "kubelet",
                "operation": "Update",
                "subresource": "status",
                "time": rfc3339(status_time)
            }
        ]);
        metadata
    }

    fn spec(&self, scheduled: bool) -> Value {
        let token = self.token_volume();
        let mut spec = json!({
            "containers": self.containers.iter().map(|c| self.with_token_mount(c)).collect::<Vec<_>>(),
            "dnsPolicy": "ClusterFirst",
            "enableServiceLinks": true,
            "preemptionPolicy": "PreemptLowerPriority",
            "priority": 0,
            "restartPolicy": self.restart_policy,
            "schedulerName": "default-scheduler",
            "securityContext": {},
            "serviceAccount": "default",
            "serviceAccountName": "default",
            "terminationGracePeriodSeconds": 30,
            "tolerations": [
                {"effect": "NoExecute", "key": "node.kubernetes.io/not-ready", "operator": "Exists", "tolerationSeconds": 300},
                {"effect": "NoExecute", "key": "node.kubernetes.io/unreachable", "operator": "Exists", "tolerationSeconds": 300}
            ],
            "volumes": [{
                "name": token,
                "projected": {
                    "defaultMode": 420,
                    "sources": [
                        {"serviceAccountToken": {"expirationSeconds": 3607, "path": "token"}},
                        {"configMap": {"items": [{"key": "ca.crt", "path": "ca.crt"}], "name": "kube-root-ca.crt"}},
                        {"downwardAPI": {"items": [{"fieldRef": {"apiVersion": "v1", "fieldPath": "metadata.namespace"}, "path": "namespace"}]}}
                    ]
                }
            }]
        });
        if !self.init_containers.is_empty() {
            spec["initContainers"] = json!(self
                .init_containers
                .iter()
                .map(|c| self.with_token_mount(c))
                .collect::<Vec<_>>());
        }
        if scheduled {
            spec["nodeName"] = json!(self.node);
        }
        spec
    }
}

fn condition(kind: &str, ok: bool, at: SystemTime, reason: Option<(&str, String)>) -> Value {
    let mut condition = json!({
        "lastProbeTime": null,
        "lastTransitionTime": rfc3339(at),
        "status": if ok { "True" } else { "False" },
        "type": kind
    });
    if let Some((reason, message)) = reason {
        condition["reason"] = json!(reason);
        if !message.is_empty() {
            condition["message"] = json!(message);
        }
    }
    condition
}

/// The per-container state a stage implies, for one container.
enum ContainerState {
    Waiting(&'static str, Option<String>),
    Running(SystemTime),
    Terminated {
        reason: &'static str,
        exit_code: i64,
        started: SystemTime,
        finished: SystemTime,
    },
}

struct StatusInput<'a> {
    spec: &'a Value,
    state: ContainerState,
    ready: bool,
    started: bool,
    restarts: u32,
    last_restart: Option<SystemTime>,
}

impl PodBlueprint {
    fn container_status(&self, input: StatusInput<'_>) -> Value {
        let name = container_name(input.spec);
        let image = input.spec["image"].as_str().unwrap_or("");
        let container_id = self.container_id(name, input.restarts);
        let state = match input.state {
            ContainerState::Waiting(reason, message) => {
                let mut waiting = json!({"reason": reason});
                if let Some(message) = message {
                    waiting["message"] = json!(message);
                }
                json!({"waiting": waiting})
            }
            ContainerState::Running(at) => json!({"running": {"startedAt": rfc3339(at)}}),
            ContainerState::Terminated {
                reason,
                exit_code,
                started,
                finished,
            } => json!({"terminated": {
                "containerID": container_id,
                "exitCode": exit_code,
                "finishedAt": rfc3339(finished),
                "reason": reason,
                "startedAt": rfc3339(started)
            }}),
        };
        let created = state.get("waiting").is_none();
        let mut status = json!({
            "image": qualified_image(image),
            "imageID": if created { image_id(self.seed, image) } else { String::new() },
            "lastState": {},
            "name": name,
            "ready": input.ready,
            "restartCount": input.restarts,
            "started": input.started,
            "state": state,
            "volumeMounts": [{
                "mountPath": "/var/run/secrets/kubernetes.io/serviceaccount",
                "name": self.token_volume(),
                "readOnly": true,
                "recursiveReadOnly": "Disabled"
            }]
        });
        if created || input.restarts > 0 {
            status["containerID"] = json!(container_id);
        }
        if let (true, Some(finished)) = (input.restarts > 0, input.last_restart) {
            status["lastState"] = json!({"terminated": {
                "containerID": self.container_id(name, input.restarts - 1),
                "exitCode": 1,
                "finishedAt": rfc3339(finished),
                "reason": "Error",
                "startedAt": rfc3339(super::ids::ago(finished, 42))
            }});
        }
        status
    }

    fn names(specs: &[Value]) -> String {
        specs
            .iter()
            .map(container_name)
            .collect::<Vec<_>>()
            .join(" ")
    }

    /// Renders the pod for a stage. `since` is when the stage began: it dates the conditions
    /// and container start times.
    pub fn render(&self, stage: &PodStage, since: SystemTime) -> Value {
        let scheduled = !matches!(stage, PodStage::Pending);
        let status = self.status(stage, since);
        json!({
            "apiVersion": "v1",
            "kind": "Pod",
            "metadata": self.metadata(if scheduled { since } else { self.created }),
            "spec": self.spec(scheduled),
            "status": status
        })
    }

    fn status(&self, stage: &PodStage, since: SystemTime) -> Value {
        if matches!(stage, PodStage::Pending) {
            return json!({"phase": "Pending", "qosClass": self.qos_class()});
        }
        let created = self.created;
        let start = later(created, 1);
        let all_names = Self::names(&self.containers);
        let not_ready = Some((
            "ContainersNotReady",
            format!("containers with unready status: [{all_names}]"),
        ));
        let (phase, sandbox_ready, initialized, ready) = match stage {
            PodStage::Pending | PodStage::ContainerCreating => {
                ("Pending", false, self.init_containers.is_empty(), false)
            }
            PodStage::Initializing => ("Pending", true, false, false),
            PodStage::Running { .. } => ("Running", true, true, true),
            PodStage::CrashLoopBackOff { .. } => ("Running", true, true, false),
            PodStage::Completed => ("Succeeded", false, true, false),
        };
        let ready_reason = match stage {
            PodStage::Completed => Some(("PodCompleted", String::new())),
            _ if ready => None,
            _ => not_ready.clone(),
        };
        let init_reason = if initialized {
            None
        } else {
            Some((
                "ContainersNotInitialized",
                format!(
                    "containers with incomplete status: [{}]",
                    Self::names(&self.init_containers)
                ),
            ))
        };
        let conditions = json!([
            condition("PodReadyToStartContainers", sandbox_ready, since, None),
            condition("Initialized", initialized, since, init_reason),
            condition("Ready", ready, since, ready_reason.clone()),
            condition("ContainersReady", ready, since, ready_reason),
            condition("PodScheduled", true, created, None)
        ]);

        let init_statuses: Vec<Value> = self
            .init_containers
            .iter()
            .enumerate()
            .map(|(index, spec)| {
                let (state, ready, started) = match stage {
                    PodStage::Pending | PodStage::ContainerCreating => (
                        ContainerState::Waiting("PodInitializing", None),
                        false,
                        false,
                    ),
                    PodStage::Initializing if index == 0 => {
                        (ContainerState::Running(since), false, true)
                    }
                    PodStage::Initializing => (
                        ContainerState::Waiting("PodInitializing", None),
                        false,
                        false,
                    ),
                    _ if is_sidecar(spec) => (ContainerState::Running(later(start, 2)), true, true),
                    _ => (
                        ContainerState::Terminated {
                            reason: "Completed",
                            exit_code: 0,
                            started: later(start, 1),
                            finished: later(start, 2),
                        },
                        true,
                        false,
                    ),
                };
                self.container_status(StatusInput {
                    spec,
                    state,
                    ready,
                    started,
                    restarts: 0,
                    last_restart: None,
                })
            })
            .collect();

        let statuses: Vec<Value> = self
            .containers
            .iter()
            .enumerate()
            .map(|(index, spec)| {
                let first = index == 0;
                let input = |state, ready, started, restarts, last_restart| StatusInput {
                    spec,
                    state,
                    ready,
                    started,
                    restarts,
                    last_restart,
                };
                match stage {
                    PodStage::Pending | PodStage::ContainerCreating => {
                        let reason = if self.init_containers.is_empty() {
                            "ContainerCreating"
                        } else {
                            "PodInitializing"
                        };
                        self.container_status(input(
                            ContainerState::Waiting(reason, None),
                            false,
                            false,
                            0,
                            None,
                        ))
                    }
                    PodStage::Initializing => self.container_status(input(
                        ContainerState::Waiting("PodInitializing", None),
                        false,
                        false,
                        0,
                        None,
                    )),
                    PodStage::Running {
                        restarts,
                        last_restart,
                    } if first => {
                        let started_at = last_restart.unwrap_or(since);
                        self.container_status(input(
                            ContainerState::Running(started_at),
                            true,
                            true,
                            *restarts,
                            *last_restart,
                        ))
                    }
                    PodStage::Running { .. } => self.container_status(input(
                        ContainerState::Running(since),
                        true,
                        true,
                        0,
                        None,
                    )),
                    PodStage::CrashLoopBackOff {
                        restarts,
                        last_restart,
                    } if first => {
                        let message = format!(
                            "back-off 5m0s restarting failed container={} pod={}_{}({})",
                            container_name(spec),
                            self.name,
                            self.namespace,
                            self.uid
                        );
                        let waiting = ContainerState::Waiting("CrashLoopBackOff", Some(message));
                        self.container_status(input(
                            waiting,
                            false,
                            false,
                            *restarts,
                            Some(*last_restart),
                        ))
                    }
                    PodStage::CrashLoopBackOff { .. } => self.container_status(input(
                        ContainerState::Running(since),
                        true,
                        true,
                        0,
                        None,
                    )),
                    PodStage::Completed => {
                        let done = ContainerState::Terminated {
                            reason: "Completed",
                            exit_code: 0,
                            started: later(start, 2),
                            finished: since,
                        };
                        self.container_status(input(done, false, false, 0, None))
                    }
                }
            })
            .collect();

        let mut status = json!({
            "conditions": conditions,
            "containerStatuses": statuses,
            "hostIP": self.host_ip,
            "hostIPs": [{"ip": self.host_ip}],
            "phase": phase,
            "qosClass": self.qos_class(),
            "startTime": rfc3339(start)
        });
        if !init_statuses.is_empty() {
            status["initContainerStatuses"] = json!(init_statuses);
        }
        // The pod gets its IP once the sandbox is up; a finished pod keeps it in the record.
        if !matches!(stage, PodStage::ContainerCreating) {
            status["podIP"] = json!(self.pod_ip);
            status["podIPs"] = json!([{"ip": self.pod_ip}]);
        }
        status
    }

    /// Reads a blueprint back from a rendered pod, so churn can advance pods it did not build.
    pub fn from_pod(seed: u64, pod: &Value) -> Option<PodBlueprint> {
        let metadata = pod.get("metadata")?;
        let text = |value: &Value| value.as_str().map(str::to_string);
        let created = metadata["creationTimestamp"]
            .as_str()
            .and_then(|ts| humantime::parse_rfc3339(ts).ok())?;
        let strip_token = |spec: &Value| {
            let mut spec = spec.clone();
            if let Some(object) = spec.as_object_mut() {
                object.remove("volumeMounts");
            }
            spec
        };
        let spec = &pod["spec"];
        let list = |value: &Value| -> Vec<Value> {
            value
                .as_array()
                .map(|items| items.iter().map(strip_token).collect())
                .unwrap_or_default()
        };
        let managed = metadata["managedFields"][0]["manager"]
            .as_str()
            .unwrap_or("kubectl-create");
        Some(PodBlueprint {
            seed,
            namespace: text(&metadata["namespace"])?,
            name: text(&metadata["name"])?,
            uid: text(&metadata["uid"])?,
            labels: metadata["labels"].as_object().cloned().unwrap_or_default(),
            annotations: metadata["annotations"]
                .as_object()
                .cloned()
                .unwrap_or_default(),
            owner: metadata["ownerReferences"].get(0).cloned(),
            containers: list(&spec["containers"]),
            init_containers: list(&spec["initContainers"]),
            restart_policy: text(&spec["restartPolicy"]).unwrap_or_else(|| "Always".into()),
            node: text(&spec["nodeName"]).unwrap_or_default(),
            host_ip: text(&pod["status"]["hostIP"]).unwrap_or_default(),
            pod_ip: text(&pod["status"]["podIP"]).unwrap_or_default(),
            created,
            manager: managed.to_string(),
        })
    }
}

/// An `ownerReferences` entry for a controller.
pub fn owner_reference(api_version: &str, kind: &str, name: &str, uid: &str) -> Value {
    json!({
        "apiVersion": api_version,
        "blockOwnerDeletion": true,
        "controller": true,
        "kind": kind,
        "name": name,
        "uid": uid
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    fn blueprint() -> PodBlueprint {
        let created = SystemTime::UNIX_EPOCH + Duration::from_secs(1_700_000_000);
        let mut labels = Map::new();
        labels.insert("app".into(), json!("web"));
        PodBlueprint {
            seed: 1,
            namespace: "default".into(),
            name: "web-7d4b9c6f5-x2k9p".into(),
            uid: "11111111-2222-4333-8444-555555555555".into(),
            labels,
            annotations: Map::new(),
            owner: Some(owner_reference(
                "apps/v1",
                "ReplicaSet",
                "web-7d4b9c6f5",
                "abc",
            )),
            containers: vec![container_spec(
                "web",
                "nginx:1.27",
                Some(80),
                "100m",
                "128Mi",
            )],
            init_containers: vec![],
            restart_policy: "Always".into(),
            node: "node-1".into(),
            host_ip: "10.0.0.11".into(),
            pod_ip: "10.244.0.12".into(),
            created,
            manager: "kube-controller-manager".into(),
        }
    }

    #[test]
    fn running_pod_looks_like_kubectl_output() {
        let bp = blueprint();
        let pod = bp.render(
            &PodStage::Running {
                restarts: 0,
                last_restart: None,
            },
            later(bp.created, 3),
        );
        assert_eq!(pod["kind"], "Pod");
        assert_eq!(pod["spec"]["nodeName"], "node-1");
        assert_eq!(pod["metadata"]["generateName"], "web-7d4b9c6f5-");
        assert_eq!(pod["status"]["phase"], "Running");
        assert_eq!(pod["status"]["containerStatuses"][0]["ready"], true);
        assert_eq!(
            pod["status"]["containerStatuses"][0]["image"],
            "docker.io/library/nginx:1.27"
        );
        assert_eq!(pod["status"]["qosClass"], "Burstable");
        let kinds: Vec<&str> = pod["status"]["conditions"]
            .as_array()
            .map(|c| c.iter().filter_map(|c| c["type"].as_str()).collect())
            .unwrap_or_default();
        assert_eq!(
            kinds,
            [
                "PodReadyToStartContainers",
                "Initialized",
                "Ready",
                "ContainersReady",
                "PodScheduled"
            ]
        );
        assert!(pod["metadata"].get("resourceVersion").is_none());
        let size = serde_json::to_string(&pod).map(|s| s.len()).unwrap_or(0);
        assert!((2500..=5000).contains(&size), "pod is {size} bytes");
    }

    #[test]
    fn pending_pod_has_no_node_and_a_bare_status() {
        let bp = blueprint();
        let pod = bp.render(&PodStage::Pending, bp.created);
        assert!(pod["spec"].get("nodeName").is_none());
        assert_eq!(
            pod["status"],
            json!({"phase": "Pending", "qosClass": "Burstable"})
        );
    }

    #[test]
    fn blueprint_round_trips_through_a_rendered_pod() {
        let bp = blueprint();
        let pod = bp.render(&PodStage::ContainerCreating, later(bp.created, 1));
        let mut back = PodBlueprint::from_pod(1, &pod).expect("blueprint");
        // The IP is only assigned once the sandbox is up, so a creating pod has none yet.
        back.pod_ip = bp.pod_ip.clone();
        assert_eq!(back, bp);
    }

    #[test]
    fn crash_looping_pod_keeps_its_last_termination() {
        let bp = blueprint();
        let at = later(bp.created, 600);
        let pod = bp.render(
            &PodStage::CrashLoopBackOff {
                restarts: 4,
                last_restart: at,
            },
            at,
        );
        let status = &pod["status"]["containerStatuses"][0];
        assert_eq!(status["state"]["waiting"]["reason"], "CrashLoopBackOff");
        assert_eq!(status["restartCount"], 4);
        assert_eq!(status["lastState"]["terminated"]["finishedAt"], rfc3339(at));
    }
}
