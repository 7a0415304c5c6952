//! The story of a Deployment's rollout as the controllers, the scheduler and the kubelet write
//! it (plots `completes`, `image-pull`, `crash-loop`), and the pen every plot writes with: the
//! objects as they stand, the events counted as the event recorder counts them, the cues so far.

use std::collections::HashMap;
use std::time::SystemTime;

use serde_json::{json, Value};

use super::plot::{Cue, Plot, Rollout};
use crate::world::churn::Mutation;
use crate::world::container_logs::ContainerLog;
use crate::world::objects::{
    container_spec, hex, pod_event, rfc3339, safe_suffix, set_replica_counts, uid, PodBlueprint,
    PodEvent, PodStage, Workload,
};

pub(super) const CONTAINER: &str = "web";
pub(super) const GOOD_IMAGE: &str = "nginx:1.27";
const MISSING_IMAGE: &str = "nginx:1.99-missing";
/// Restarts a crash-looping container goes through before the story ends (back-off 1, 2, 4, 8
/// beats).
pub(super) const CRASHES: u32 = 4;
/// Rounds of ErrImagePull / ImagePullBackOff before the deadline.
pub(super) const PULL_ROUNDS: u32 = 3;

/// What a crash-looping container prints before it exits with code 1.
pub(super) fn crash_log(run: u32) -> Vec<String> {
    vec![
        format!("web 2.0.1 starting (attempt {run})"),
        "loading configuration from /etc/web/config.yaml".into(),
        "connecting to postgres at db:5432".into(),
        "error: config key \"listen\" is missing".into(),
        "exit status 1".into(),
    ]
}

/// The story being written: the objects as they stand, and the cues so far.
pub(super) struct Story<'a> {
    pub(super) rollout: &'a Rollout,
    pub(super) seed: u64,
    pub(super) start: SystemTime,
    pub(super) step: u32,
    pub(super) workload: Workload,
    pub(super) deployment: Value,
    pub(super) replicaset: Value,
    pub(super) pods: Vec<PodBlueprint>,
    /// How often each event (object, reason, message) has been seen: a repeat updates the
    /// event's count, as the event recorder does.
    pub(super) event_counts: HashMap<String, u32>,
    pub(super) cues: Vec<Cue>,
}

impl<'a> Story<'a> {
    pub(super) fn new(rollout: &'a Rollout, seed: u64, start: SystemTime) -> Story<'a> {
        let image = match rollout.plot {
            Plot::ImagePull => MISSING_IMAGE,
            _ => GOOD_IMAGE,
        };
        let containers = vec![container_spec(
            CONTAINER,
            image,
            Some(8080),
            "100m",
            "128Mi",
        )];
        let workload = Workload::new(
            seed,
            &rollout.namespace,
            &rollout.name,
            containers,
            rollout.replicas,
            start,
        );
        let mut deployment = workload.deployment();
        deployment["status"] = json!({});
        if rollout.plot == Plot::ImagePull {
            // The deadline is the story's length up to the last pull, in whole seconds.
            let steps = 4 + 2 * PULL_ROUNDS;
            let seconds = (rollout.beat * steps).as_secs_f64().ceil().max(1.0);
            deployment["spec"]["progressDeadlineSeconds"] = json!(seconds as u64);
        }
        let mut replicaset = workload.replicaset();
        replicaset["status"] = json!({"replicas": 0, "observedGeneration": 1});
        let pods = (0..rollout.replicas)
            .map(|i| {
                let name = format!(
                    "{}-{}",
                    workload.replicaset_name(),
                    safe_suffix(seed, &format!("rollout/{}/{i}", rollout.name), 5)
                );
                PodBlueprint {
                    seed,
                    namespace: rollout.namespace.clone(),
                    uid: uid(seed, &format!("pods/{}/{name}", rollout.namespace)),
                    name,
                    labels: workload.pod_labels(),
                    annotations: serde_json::Map::new(),
                    owner: Some(workload.replicaset_owner()),
                    containers: workload.containers.clone(),
                    init_containers: Vec::new(),
                    restart_policy: "Always".into(),
                    node: format!("node-{}", 2 + i % 2),
                    host_ip: format!("10.0.0.{}", 12 + i % 2),
                    pod_ip: format!("10.244.{}.{}", 1 + i % 2, 40 + i),
                    created: start,
                    manager: "kube-controller-manager".into(),
                }
            })
            .collect();
        Story {
            rollout,
            seed,
            start,
            step: 0,
            workload,
            deployment,
            replicaset,
            pods,
            event_counts: HashMap::new(),
            cues: Vec::new(),
        }
    }

    /// The moment of the current step.
    pub(super) fn now(&self) -> SystemTime {
        self.start + self.rollout.beat * self.step
    }

    /// Start a new cue `steps` beats after the last.
    pub(super) fn next(&mut self, steps: u32) {
        self.step += steps;
        self.cues.push(Cue {
            at: self.rollout.beat * self.step,
            mutations: Vec::new(),
            logs: Vec::new(),
        });
    }

    fn push(&mut self, mutation: Mutation) {
        if self.cues.is_empty() {
            self.next(0);
        }
        if let Some(cue) = self.cues.last_mut() {
            cue.mutations.push(mutation);
        }
    }

    pub(super) fn update(&mut self, resource: &'static str, object: Value) {
        self.push(Mutation::Update { resource, object });
    }

    pub(super) fn create(&mut self, resource: &'static str, object: Value) {
        self.push(Mutation::Create { resource, object });
    }

    /// An event about an object; a repeat of the same reason and message counts up.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn event(
        &mut self,
        involved: (&str, &str, &str, &str),
        event_type: &str,
        reason: &str,
        message: &str,
        component: &str,
        host: &str,
    ) {
        let (api_version, kind, name, object_uid) = involved;
        let key = format!("{kind}/{name}/{reason}/{message}");
        let count = {
            let count = self.event_counts.entry(key.clone()).or_insert(0);
            *count += 1;
            *count
        };
        let now = self.now();
        let mut event = pod_event(
            self.seed,
            &PodEvent {
                namespace: &self.rollout.namespace,
                pod: name,
                // The kubelet speaks of a container; the scheduler, of the Pod.
                field_path: if kind == "Pod" && component == "kubelet" {
                    "spec.containers{web}"
                } else {
                    ""
                },
                event_type,
                reason,
                message,
                component,
                host,
                count,
                first: now,
                last: now,
            },
        );
        let event_name = format!("{name}.{}", hex(self.seed, &key, 16));
        event["metadata"]["name"] = json!(event_name);
        event["metadata"]["uid"] = json!(uid(self.seed, &format!("events/{event_name}")));
        event["involvedObject"]["apiVersion"] = json!(api_version);
        event["involvedObject"]["kind"] = json!(kind);
        event["involvedObject"]["uid"] = json!(object_uid);
        if count == 1 {
            self.create("events", event);
        } else {
            // The first sighting stays; only the count and the last time move.
            event["firstTimestamp"] = json!(rfc3339(self.start));
            self.update("events", event);
        }
    }

    fn deployment_event(&mut self, reason: &str, message: &str) {
        let name = self.rollout.name.clone();
        let owner_uid = self.workload.deployment_uid.clone();
        self.event(
            ("apps/v1", "Deployment", &name, &owner_uid),
            "Normal",
            reason,
            message,
            "deployment-controller",
            "",
        );
    }

    pub(super) fn pod_event(
        &mut self,
        index: usize,
        event_type: &str,
        reason: &str,
        message: &str,
    ) {
        let pod = self.pods[index].clone();
        self.event(
            ("v1", "Pod", &pod.name, &pod.uid),
            event_type,
            reason,
            message,
            "kubelet",
            &pod.node,
        );
    }

    /// The Deployment's and ReplicaSet's status for `ready` of the replicas ready, the new
    /// ReplicaSet still progressing (`Progressing=True`, `ReplicaSetUpdated`).
    fn counts(&mut self, created: u32, ready: u32) {
        let wanted = self.rollout.replicas;
        let stamp = rfc3339(self.now());
        let rs_name = self.workload.replicaset_name();
        let available = ready >= wanted.saturating_sub(wanted / 4);
        let mut status = json!({
            "observedGeneration": 1,
            "conditions": [
                {"type": "Available", "status": if available { "True" } else { "False" },
                 "reason": if available { "MinimumReplicasAvailable" } else { "MinimumReplicasUnavailable" },
                 "message": if available { "Deployment has minimum availability." } else { "Deployment does not have minimum availability." },
                 "lastTransitionTime": stamp, "lastUpdateTime": stamp},
                {"type": "Progressing", "status": "True", "reason": "ReplicaSetUpdated",
                 "message": format!("ReplicaSet \"{rs_name}\" is progressing."),
                 "lastTransitionTime": rfc3339(self.start), "lastUpdateTime": stamp}
            ]
        });
        // Zero counts are left out, as the API server writes them.
        for (key, value) in [
            ("replicas", created),
            ("updatedReplicas", created),
            ("readyReplicas", ready),
            ("availableReplicas", ready),
            ("unavailableReplicas", wanted - ready),
        ] {
            if value > 0 {
                status[key] = json!(value);
            }
        }
        self.deployment["status"] = status;
        let mut rs_status = json!({"observedGeneration": 1, "replicas": created});
        for (key, value) in [
            ("fullyLabeledReplicas", created),
            ("readyReplicas", ready),
            ("availableReplicas", ready),
        ] {
            if value > 0 {
                rs_status[key] = json!(value);
            }
        }
        self.replicaset["status"] = rs_status;
        let (deployment, replicaset) = (self.deployment.clone(), self.replicaset.clone());
        self.update("replicasets", replicaset);
        self.update("deployments", deployment);
    }

    pub(super) fn render_pod(&mut self, index: usize, stage: &PodStage) -> Value {
        self.pods[index].render(stage, self.now())
    }

    /// Common to every plot: the Deployment, its ReplicaSet, the Pods created and scheduled.
    pub(super) fn begin(&mut self) {
        self.create_pods();
        self.schedule();
    }

    /// The Deployment, its ReplicaSet, the Pods created (not yet scheduled).
    pub(super) fn create_pods(&mut self) {
        let deployment = self.deployment.clone();
        self.create("deployments", deployment);

        self.next(1);
        let rs_name = self.workload.replicaset_name();
        let replicaset = self.replicaset.clone();
        self.create("replicasets", replicaset);
        self.deployment_event(
            "ScalingReplicaSet",
            &format!(
                "Scaled up replica set {rs_name} from 0 to {}",
                self.rollout.replicas
            ),
        );
        self.counts(0, 0);

        self.next(1);
        for index in 0..self.pods.len() {
            let pod = self.render_pod(index, &PodStage::Pending);
            let message = format!("Created pod: {}", self.pods[index].name);
            self.create("pods", pod);
            let rs_uid = self.workload.replicaset_uid.clone();
            self.event(
                ("apps/v1", "ReplicaSet", &rs_name, &rs_uid),
                "Normal",
                "SuccessfulCreate",
                &message,
                "replicaset-controller",
                "",
            );
        }
        self.counts(self.rollout.replicas, 0);
    }

    /// The Pods scheduled, each on its node, pulling the image.
    pub(super) fn schedule(&mut self) {
        self.next(1);
        for index in 0..self.pods.len() {
            let pod = self.render_pod(index, &PodStage::ContainerCreating);
            self.update("pods", pod);
            let (namespace, name, node) = (
                self.rollout.namespace.clone(),
                self.pods[index].name.clone(),
                self.pods[index].node.clone(),
            );
            let pod = self.pods[index].clone();
            self.event(
                ("v1", "Pod", &pod.name, &pod.uid),
                "Normal",
                "Scheduled",
                &format!("Successfully assigned {namespace}/{name} to {node}"),
                "default-scheduler",
                "",
            );
            let image = self.image();
            self.pod_event(
                index,
                "Normal",
                "Pulling",
                &format!("Pulling image \"{image}\""),
            );
        }
    }

    fn image(&self) -> &'static str {
        match self.rollout.plot {
            Plot::ImagePull => MISSING_IMAGE,
            _ => GOOD_IMAGE,
        }
    }

    pub(super) fn complete(&mut self) {
        for index in 0..self.pods.len() {
            self.next(1);
            let running = PodStage::Running {
                restarts: 0,
                last_restart: None,
            };
            let pod = self.render_pod(index, &running);
            self.update("pods", pod);
            self.started_events(index, "1.2s");
            self.counts(self.rollout.replicas, index as u32 + 1);
        }
        // The controller's last word: every replica ready and available.
        let wanted = self.rollout.replicas;
        let mut deployment = self.deployment.clone();
        set_replica_counts(&mut deployment, wanted, wanted, wanted, self.now());
        deployment["status"]["conditions"][1]["lastTransitionTime"] = json!(rfc3339(self.start));
        self.deployment = deployment.clone();
        self.update("deployments", deployment);
    }

    /// A Pod whose container waits for `reason` (`ErrImagePull`, `ImagePullBackOff`).
    fn waiting_on_image(&mut self, index: usize, reason: &str, message: &str) -> Value {
        let mut pod = self.render_pod(index, &PodStage::ContainerCreating);
        pod["status"]["containerStatuses"][0]["state"] =
            json!({"waiting": {"reason": reason, "message": message}});
        pod["status"]["containerStatuses"][0]["imageID"] = json!("");
        pod
    }

    /// One round of a pull that fails (`why`, the runtime's words) as the kubelet tells it:
    /// every Pod in `ErrImagePull` with its Warning events, then in `ImagePullBackOff`.
    pub(super) fn failed_pull(&mut self, image: &str, why: &str) {
        self.next(1);
        for index in 0..self.pods.len() {
            let pod = self.waiting_on_image(index, "ErrImagePull", why);
            self.update("pods", pod);
            let message = format!("Failed to pull image \"{image}\": {why}");
            self.pod_event(index, "Warning", "Failed", &message);
            self.pod_event(index, "Warning", "Failed", "Error: ErrImagePull");
        }
        self.next(1);
        for index in 0..self.pods.len() {
            let message = format!("Back-off pulling image \"{image}\"");
            let pod = self.waiting_on_image(index, "ImagePullBackOff", &message);
            self.update("pods", pod);
            self.pod_event(index, "Normal", "BackOff", &message);
            self.pod_event(index, "Warning", "Failed", "Error: ImagePullBackOff");
        }
    }

    pub(super) fn fail_to_pull(&mut self) {
        let missing = format!("docker.io/library/{MISSING_IMAGE}");
        let not_found = format!(
            "rpc error: code = NotFound desc = failed to pull and unpack image \"{missing}\": \
             failed to resolve reference \"{missing}\": {missing}: not found"
        );
        for _ in 0..PULL_ROUNDS {
            self.failed_pull(MISSING_IMAGE, &not_found);
        }
        // The deadline passes: the controller gives up on the new ReplicaSet.
        self.next(1);
        let rs_name = self.workload.replicaset_name();
        let stamp = rfc3339(self.now());
        self.deployment["status"]["conditions"][1] = json!({
            "type": "Progressing", "status": "False", "reason": "ProgressDeadlineExceeded",
            "message": format!("ReplicaSet \"{rs_name}\" has timed out progressing."),
            "lastTransitionTime": stamp, "lastUpdateTime": stamp
        });
        let deployment = self.deployment.clone();
        self.update("deployments", deployment);
    }

    /// The kubelet's events for a container that pulled its image in `pulled_in` and started.
    fn started_events(&mut self, index: usize, pulled_in: &str) {
        self.pod_event(
            index,
            "Normal",
            "Pulled",
            &format!("Successfully pulled image \"{GOOD_IMAGE}\" in {pulled_in} ({pulled_in} including waiting). Image size: 72099410 bytes."),
        );
        for reason in ["Created", "Started"] {
            self.pod_event(
                index,
                "Normal",
                reason,
                &format!("{reason} container {CONTAINER}"),
            );
        }
    }

    pub(super) fn crash_loop(&mut self) {
        // Started once: running, not ready yet (its readiness probe has not passed).
        self.next(1);
        for index in 0..self.pods.len() {
            let pod = self.not_ready(index, 0, None);
            self.update("pods", pod);
            self.started_events(index, "1.1s");
            self.log(index, crash_log(1), None);
        }
        for restarts in 1..=CRASHES {
            // It exits with code 1; the kubelet waits 10 s, 20 s, 40 s... (here 1, 2, 4 beats).
            self.next(1);
            let crashed_at = self.now();
            let back_off = 10u64 << (restarts - 1);
            for index in 0..self.pods.len() {
                let mut pod = self.render_pod(
                    index,
                    &PodStage::CrashLoopBackOff {
                        restarts,
                        last_restart: crashed_at,
                    },
                );
                let pod_name = self.pods[index].name.clone();
                pod["status"]["containerStatuses"][0]["state"]["waiting"]["message"] = json!(format!(
                    "back-off {back_off}s restarting failed container={CONTAINER} pod={pod_name}_{}({})",
                    self.rollout.namespace, self.pods[index].uid
                ));
                self.update("pods", pod);
                self.pod_event(
                    index,
                    "Warning",
                    "BackOff",
                    &format!(
                        "Back-off restarting failed container {CONTAINER} in pod {pod_name}_{}({})",
                        self.rollout.namespace, self.pods[index].uid
                    ),
                );
                self.log(index, Vec::new(), Some(crash_log(restarts)));
            }
            if restarts == CRASHES {
                break;
            }
            self.next(1 << (restarts - 1));
            for index in 0..self.pods.len() {
                let pod = self.not_ready(index, restarts, Some(crashed_at));
                self.update("pods", pod);
                self.pod_event(
                    index,
                    "Normal",
                    "Pulled",
                    &format!("Container image \"{GOOD_IMAGE}\" already present on machine"),
                );
                self.pod_event(
                    index,
                    "Normal",
                    "Created",
                    &format!("Created container {CONTAINER}"),
                );
                self.pod_event(
                    index,
                    "Normal",
                    "Started",
                    &format!("Started container {CONTAINER}"),
                );
                self.log(index, crash_log(restarts + 1), Some(crash_log(restarts)));
            }
        }
    }

    /// A Pod whose container runs but is not ready.
    fn not_ready(
        &mut self,
        index: usize,
        restarts: u32,
        last_restart: Option<SystemTime>,
    ) -> Value {
        let mut pod = self.render_pod(
            index,
            &PodStage::Running {
                restarts,
                last_restart,
            },
        );
        let names = CONTAINER;
        if let Some(conditions) = pod["status"]["conditions"].as_array_mut() {
            for condition in conditions {
                if condition["type"] == "Ready" || condition["type"] == "ContainersReady" {
                    condition["status"] = json!("False");
                    condition["reason"] = json!("ContainersNotReady");
                    condition["message"] =
                        json!(format!("containers with unready status: [{names}]"));
                }
            }
        }
        pod["status"]["containerStatuses"][0]["ready"] = json!(false);
        pod
    }

    fn log(&mut self, index: usize, current: Vec<String>, previous: Option<Vec<String>>) {
        let pod = self.pods[index].name.clone();
        if let Some(cue) = self.cues.last_mut() {
            cue.logs.push((
                pod,
                CONTAINER.to_string(),
                ContainerLog { current, previous },
            ));
        }
    }
}
