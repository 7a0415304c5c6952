//! The scheduler and the kubelet for the Pods the controllers run: each Pod moves one step a
//! beat, from Pending to scheduled and pulling, then to running and ready, or (as `registry`
//! decides from its spec) to ErrImagePull / ImagePullBackOff, or to CrashLoopBackOff, with a
//! back-off that doubles each round, and the Events the scheduler and the kubelet emit.

use std::collections::HashMap;
use std::time::{Duration, SystemTime};

use serde_json::{json, Value};

use super::recorder::{Involved, Recorder, Source};
use super::registry;
use crate::world::container_logs::{ContainerLog, PodLogs};
use crate::world::objects::{rfc3339, PodBlueprint, PodStage};
use crate::world::store::Store;

/// The default termination grace, as `deletionTimestamp` says it (the sim's Pods stop in a beat).
const GRACE: Duration = Duration::from_secs(30);
/// How long "never again" is.
const FOREVER: Duration = Duration::from_secs(3600 * 24 * 365);
/// Back-off rounds stop doubling here (2^5 beats), as the kubelet caps its back-off.
const MAX_DOUBLINGS: u32 = 5;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Step {
    Pending,
    Creating,
    Running,
    /// Running a container that exits 0 once it has printed its lines.
    Printing,
    PullFailed,
    PullBackOff,
    Crashed,
    Completed,
}

struct Progress {
    uid: String,
    step: Step,
    next_at: SystemTime,
    /// Back-off rounds so far (pulls or restarts).
    round: u32,
    node: usize,
}

/// The Pods being run, by (namespace, name).
#[derive(Default)]
pub struct Kubelet {
    pods: HashMap<(String, String), Progress>,
    placed: usize,
    /// Pods told to stop, and when they are gone: (namespace, name, uid, at).
    terminating: Vec<(String, String, String, SystemTime)>,
}

impl Kubelet {
    /// Run a Pod the store holds from its first step.
    pub fn adopt(&mut self, namespace: &str, name: &str, uid: &str, now: SystemTime) {
        self.placed += 1;
        self.pods.insert(
            (namespace.into(), name.into()),
            Progress {
                uid: uid.into(),
                step: Step::Pending,
                next_at: now,
                round: 0,
                node: self.placed,
            },
        );
    }

    /// Stop a Pod as a deletion with the default grace does: it is `Terminating` (its
    /// `deletionTimestamp` set) for a beat, then gone.
    pub fn terminate(
        &mut self,
        store: &Store,
        namespace: &str,
        name: &str,
        now: SystemTime,
        beat: Duration,
    ) {
        self.pods.remove(&(namespace.to_string(), name.to_string()));
        let marked = store.modify::<crate::error::SimError>("pods", namespace, name, |current| {
            let mut pod = current.clone();
            pod["metadata"]["deletionTimestamp"] = json!(rfc3339(now + GRACE));
            pod["metadata"]["deletionGracePeriodSeconds"] = json!(GRACE.as_secs());
            Ok(pod)
        });
        if let Ok(pod) = marked {
            let uid = pod["metadata"]["uid"].as_str().unwrap_or("").to_string();
            self.terminating
                .push((namespace.into(), name.into(), uid, now + beat));
        }
    }

    /// Move every Pod that is due one step.
    pub fn tick(
        &mut self,
        store: &Store,
        logs: &PodLogs,
        recorder: &mut Recorder,
        now: SystemTime,
        beat: Duration,
    ) {
        self.terminating.retain(|(namespace, name, uid, at)| {
            if now < *at {
                return true;
            }
            let (_, pods) = store.snapshot("pods");
            let same = pods
                .get(&(namespace.clone(), name.clone()))
                .is_some_and(|pod| pod["metadata"]["uid"].as_str() == Some(uid.as_str()));
            if same {
                let _ = store.delete("pods", namespace, name);
            }
            false
        });
        let (_, pods) = store.snapshot("pods");
        let seed = store.seed();
        self.pods.retain(|(namespace, name), progress| {
            let Some(pod) = pods.get(&(namespace.clone(), name.clone())) else {
                recorder.forget(name);
                return false;
            };
            if pod["metadata"]["uid"].as_str() != Some(progress.uid.as_str()) {
                return false;
            }
            if now < progress.next_at {
                return true;
            }
            let Some(mut blueprint) = PodBlueprint::from_pod(seed, pod) else {
                return false;
            };
            step(
                store,
                logs,
                recorder,
                &mut blueprint,
                pod,
                progress,
                now,
                beat,
            );
            true
        });
    }
}

#[allow(clippy::too_many_arguments)]
fn step(
    store: &Store,
    logs: &PodLogs,
    recorder: &mut Recorder,
    blueprint: &mut PodBlueprint,
    pod: &Value,
    progress: &mut Progress,
    now: SystemTime,
    beat: Duration,
) {
    let node = 2 + progress.node % 2;
    blueprint.node = format!("node-{node}");
    blueprint.host_ip = format!("10.0.0.{}", 10 + node);
    blueprint.pod_ip = format!("10.244.{}.{}", node - 1, 10 + progress.node % 240);
    let involved = Involved {
        api_version: "v1",
        kind: "Pod",
        namespace: &blueprint.namespace,
        name: &blueprint.name,
        uid: &progress.uid,
    };
    let containers = blueprint.containers.clone();
    let missing = containers
        .iter()
        .position(|container| !registry::exists(container["image"].as_str().unwrap_or("")));
    let crashing = containers.iter().position(registry::crashes);
    let index = missing.or(crashing).unwrap_or(0);
    let container = containers.get(index).cloned().unwrap_or(Value::Null);
    let container_name = container["name"].as_str().unwrap_or("").to_string();
    let image = container["image"].as_str().unwrap_or("").to_string();
    let field_path = format!("spec.containers{{{container_name}}}");
    let node_name = blueprint.node.clone();
    let kubelet = Source {
        component: "kubelet",
        host: &node_name,
        field_path: &field_path,
    };
    if progress.step == Step::Pending {
        let scheduler = Source {
            component: "default-scheduler",
            host: "",
            field_path: "",
        };
        let message = format!(
            "Successfully assigned {}/{} to {node_name}",
            blueprint.namespace, blueprint.name
        );
        recorder.record(
            store,
            &involved,
            &scheduler,
            "Normal",
            "Scheduled",
            &message,
            now,
        );
        let message = format!("Pulling image \"{image}\"");
        recorder.record(
            store, &involved, &kubelet, "Normal", "Pulling", &message, now,
        );
        let rendered = blueprint.render(&PodStage::ContainerCreating, now);
        write(store, pod, rendered);
        progress.step = Step::Creating;
        progress.next_at = now + beat;
        return;
    }
    let mut say = |event_type: &str, reason: &str, message: &str| {
        recorder.record(store, &involved, &kubelet, event_type, reason, message, now);
    };
    let backoff = beat * 2u32.pow(progress.round.min(MAX_DOUBLINGS));
    let started = |say: &mut dyn FnMut(&str, &str, &str)| {
        say(
            "Normal",
            "Created",
            &format!("Created container: {container_name}"),
        );
        say(
            "Normal",
            "Started",
            &format!("Started container {container_name}"),
        );
    };
    let (next, rendered, wait) = match progress.step {
        Step::Creating | Step::PullBackOff if missing.is_some() => {
            let not_found = format!(
                "rpc error: code = NotFound desc = failed to pull and unpack image \"{image}\": \
                 failed to resolve reference \"{image}\": {image}: not found"
            );
            say(
                "Warning",
                "Failed",
                &format!("Failed to pull image \"{image}\": {not_found}"),
            );
            say("Warning", "Failed", "Error: ErrImagePull");
            let pod = waiting(blueprint, index, "ErrImagePull", &not_found, now);
            (Step::PullFailed, pod, beat)
        }
        Step::PullFailed => {
            let message = format!("Back-off pulling image \"{image}\"");
            say("Normal", "BackOff", &message);
            say("Warning", "Failed", "Error: ImagePullBackOff");
            let pod = waiting(blueprint, index, "ImagePullBackOff", &message, now);
            progress.round += 1;
            (Step::PullBackOff, pod, backoff)
        }
        Step::Creating | Step::Crashed if crashing.is_some() => {
            if progress.step == Step::Creating {
                say(
                    "Normal",
                    "Pulled",
                    &format!("Successfully pulled image \"{image}\""),
                );
            }
            started(&mut say);
            let printed = registry::crash_output(&container);
            if blueprint.restart_policy == "Never" {
                // Nothing restarts it: the Pod has failed, as a Job's Pods do.
                logs.set(
                    &blueprint.namespace,
                    &blueprint.name,
                    &container_name,
                    ContainerLog {
                        current: printed,
                        previous: None,
                    },
                    now,
                );
                write(store, pod, failed(blueprint, index, now));
                progress.step = Step::Completed;
                progress.next_at = now + FOREVER;
                return;
            }
            logs.set(
                &blueprint.namespace,
                &blueprint.name,
                &container_name,
                ContainerLog {
                    current: Vec::new(),
                    previous: Some(printed),
                },
                now,
            );
            let message = format!(
                "Back-off restarting failed container {container_name} in pod {}_{}({})",
                blueprint.name, blueprint.namespace, progress.uid
            );
            say("Warning", "BackOff", &message);
            progress.round += 1;
            let stage = PodStage::CrashLoopBackOff {
                restarts: progress.round,
                last_restart: now,
            };
            (Step::Crashed, blueprint.render(&stage, now), backoff)
        }
        Step::Creating => {
            say(
                "Normal",
                "Pulled",
                &format!("Successfully pulled image \"{image}\""),
            );
            started(&mut say);
            init_printed(logs, blueprint, now);
            // Every container prints as its own environment says; the Pod runs while the
            // longest of them prints.
            let mut printing_for: Option<Duration> = None;
            for container in &containers {
                let Some(printer) = registry::printer(container, &blueprint.restart_policy) else {
                    continue;
                };
                printing_for = printing_for.max(printer.duration());
                let name = container["name"].as_str().unwrap_or("");
                logs.print(&blueprint.namespace, &blueprint.name, name, printer, now);
            }
            let stage = PodStage::Running {
                restarts: 0,
                last_restart: None,
            };
            if blueprint.restart_policy == "Always" {
                (Step::Running, blueprint.render(&stage, now), FOREVER)
            } else if let Some(printing_for) = printing_for.filter(|d| !d.is_zero()) {
                // It runs while it prints, then exits 0.
                (Step::Printing, blueprint.render(&stage, now), printing_for)
            } else {
                (
                    Step::Completed,
                    blueprint.render(&PodStage::Completed, now),
                    FOREVER,
                )
            }
        }
        Step::Printing => (
            Step::Completed,
            blueprint.render(&PodStage::Completed, now),
            FOREVER,
        ),
        // Ready, done, or a spec that changed under it: nothing more happens to it.
        Step::Pending | Step::Running | Step::Completed | Step::Crashed | Step::PullBackOff => {
            progress.next_at = now + FOREVER;
            return;
        }
    };
    write(store, pod, rendered);
    progress.step = next;
    progress.next_at = now + wait;
}

/// Store the kubelet's rendering of `pod`.
fn write(store: &Store, pod: &Value, mut rendered: Value) {
    // What the kubelet does not own stays as the client or the controller wrote it.
    for field in [
        "labels",
        "annotations",
        "finalizers",
        "generateName",
        "ownerReferences",
    ] {
        match pod["metadata"].get(field) {
            Some(value) => rendered["metadata"][field] = value.clone(),
            None => {
                if let Some(metadata) = rendered["metadata"].as_object_mut() {
                    metadata.remove(field);
                }
            }
        }
    }
    let _ = store.update("pods", rendered);
}

/// A Pod that ran once and whose container `index` exited 1 (`restartPolicy: Never`).
fn failed(blueprint: &PodBlueprint, index: usize, now: SystemTime) -> Value {
    let mut pod = blueprint.render(&PodStage::Completed, now);
    pod["status"]["phase"] = json!("Failed");
    let terminated = &mut pod["status"]["containerStatuses"][index]["state"]["terminated"];
    terminated["exitCode"] = json!(1);
    terminated["reason"] = json!("Error");
    if let Some(conditions) = pod["status"]["conditions"].as_array_mut() {
        for condition in conditions {
            if condition["reason"] == "PodCompleted" {
                condition["reason"] = json!("PodFailed");
            }
        }
    }
    pod
}

/// A Pod whose container `index` waits for `reason` (`ErrImagePull`, `ImagePullBackOff`).
fn waiting(
    blueprint: &PodBlueprint,
    index: usize,
    reason: &str,
    message: &str,
    now: SystemTime,
) -> Value {
    let mut pod = blueprint.render(&PodStage::ContainerCreating, now);
    let status = &mut pod["status"]["containerStatuses"][index];
    status["state"] = json!({"waiting": {"reason": reason, "message": message}});
    status["imageID"] = json!("");
    pod
}

/// The init containers ran one after the other, each to its end, before the Pod's containers
/// start at `now`: each one's printer (of a bounded number of lines) is written whole, stamped
/// back from `now` so that their lines come in order before the Pod's. A sidecar (an init
/// container that restarts `Always`) prints from `now` beside the Pod's containers.
fn init_printed(logs: &PodLogs, blueprint: &PodBlueprint, now: SystemTime) {
    let mut ends = now;
    for container in blueprint.init_containers.iter().rev() {
        let name = container["name"].as_str().unwrap_or("");
        let Some(printer) = registry::printer(container, "Never") else {
            continue;
        };
        if container["restartPolicy"] == "Always" {
            logs.print(&blueprint.namespace, &blueprint.name, name, printer, now);
            continue;
        }
        let Some(took) = printer.duration() else {
            continue;
        };
        let began = ends.checked_sub(took + printer.every).unwrap_or(ends);
        logs.printed(&blueprint.namespace, &blueprint.name, name, printer, began);
        ends = began;
    }
}
