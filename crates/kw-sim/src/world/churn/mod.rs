//! Churn: a deterministic story of changes to the simulated cluster, one tick at a time.
//!
//! Churn keeps its own copy of the objects it touches, seeded from the initial world, and
//! tells this story: pods are created Pending, scheduled into ContainerCreating and come up
//! Running; containers restart now and then; the crash-looping worker keeps crashing (and its
//! BackOff event keeps counting); pods are deleted gracefully (Terminating, then gone);
//! deployments scale up and down with their replicasets and pods following; nodes heartbeat;
//! a configmap gets new revisions; widgets change phase. Every choice comes from a splitmix64
//! PRNG seeded with the seed, so a seed replays the same sequence. Population is bounded
//! (replicas stay within 1..=5, at most a few extra pods), so it can run for hours.

mod edits;

use std::collections::VecDeque;
use std::time::SystemTime;

use serde_json::{json, Value};

use super::objects::{
    node_shapes, owner_reference, safe_suffix, uid, NodeShape, PodBlueprint, PodStage, SeedObject,
    SplitMix64, WIDGET_PHASES,
};

/// One change churn wants made. The store assigns `resourceVersion`; a mutation of an object the
/// store no longer has (a test deleted it) is skipped.
#[derive(Debug, Clone)]
pub enum Mutation {
    Create {
        resource: &'static str,
        object: Value,
    },
    /// The whole new object (name and namespace identify it).
    Update {
        resource: &'static str,
        object: Value,
    },
    Delete {
        resource: &'static str,
        namespace: String,
        name: String,
    },
}

/// Where a pod is in churn's story.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Step {
    /// Created, waiting for the scheduler.
    Pending,
    /// Scheduled, containers being created.
    Creating,
    /// Running and ready: can restart or be deleted.
    Running,
    /// Deletion requested; the next step removes it.
    Terminating,
    /// Completed, crash looping or otherwise left alone.
    Settled,
}

struct TrackedPod {
    object: Value,
    blueprint: Option<PodBlueprint>,
    step: Step,
    /// Index into `workloads` when a tracked replicaset owns the pod.
    workload: Option<usize>,
    /// Created by churn outside any workload, so churn may delete it again.
    disposable: bool,
}

struct TrackedWorkload {
    deployment: Value,
    replicaset: Value,
}

/// Most extra standalone pods churn keeps alive at once.
const MAX_DISPOSABLE_PODS: usize = 4;
/// Replica bounds when scaling.
const MIN_REPLICAS: u64 = 1;
const MAX_REPLICAS: u64 = 5;

/// The churn scenario's own model of the world.
pub struct Churn {
    seed: u64,
    rng: SplitMix64,
    pods: Vec<TrackedPod>,
    workloads: Vec<TrackedWorkload>,
    nodes: Vec<Value>,
    config_maps: Vec<Value>,
    widgets: Vec<Value>,
    /// The crash-looping pod's BackOff event.
    backoff_event: Option<Value>,
    /// Changes that belong to the previous tick's story, handed out first.
    follow_ups: VecDeque<Mutation>,
    /// Counts every pod churn creates, to derive fresh names.
    created: u64,
    next_heartbeat: usize,
    workers: Vec<NodeShape>,
}

fn metadata_name(object: &Value) -> &str {
    object["metadata"]["name"].as_str().unwrap_or("")
}

fn objects_of<'a>(
    world: &'a [SeedObject],
    resource: &'static str,
) -> impl Iterator<Item = Value> + 'a {
    world
        .iter()
        .filter(move |o| o.resource == resource)
        .map(|o| o.object.clone())
}

fn update(resource: &'static str, object: &Value) -> Mutation {
    Mutation::Update {
        resource,
        object: object.clone(),
    }
}

impl Churn {
    pub fn new(seed: u64, world: &[SeedObject]) -> Churn {
        let of = |resource: &'static str| objects_of(world, resource);
        let mut workloads = Vec::new();
        for deployment in of("deployments") {
            let deployment_uid = deployment["metadata"]["uid"].clone();
            if let Some(replicaset) = of("replicasets")
                .find(|rs| rs["metadata"]["ownerReferences"][0]["uid"] == deployment_uid)
            {
                workloads.push(TrackedWorkload {
                    deployment,
                    replicaset,
                });
            }
        }
        let pods = of("pods")
            .map(|object| {
                let owner_uid = &object["metadata"]["ownerReferences"][0]["uid"];
                let workload = workloads
                    .iter()
                    .position(|w| &w.replicaset["metadata"]["uid"] == owner_uid);
                let statuses = object["status"]["containerStatuses"].as_array();
                let all_ready =
                    statuses.is_some_and(|s| !s.is_empty() && s.iter().all(|c| c["ready"] == true));
                let step = if object["status"]["phase"] == "Running" && all_ready {
                    Step::Running
                } else {
                    Step::Settled
                };
                TrackedPod {
                    blueprint: PodBlueprint::from_pod(seed, &object),
                    object,
                    step,
                    workload,
                    disposable: false,
                }
            })
            .collect();
        let backoff_event = of("events").find(|e| e["reason"] == "BackOff");
        Churn {
            seed,
            rng: SplitMix64::new(seed ^ 0x00C0_FFEE),
            pods,
            workloads,
            nodes: of("nodes").collect(),
            config_maps: of("configmaps")
                .filter(|c| c["data"].get("version").is_some())
                .collect(),
            widgets: of("widgets").collect(),
            backoff_event,
            follow_ups: VecDeque::new(),
            created: 0,
            next_heartbeat: 0,
            workers: node_shapes()
                .into_iter()
                .filter(|n| !n.control_plane)
                .collect(),
        }
    }

    /// The next changes, usually one; called about `--churn RATE` times a second.
    pub fn tick(&mut self, now: SystemTime) -> Vec<Mutation> {
        if let Some(next) = self.follow_ups.pop_front() {
            return vec![next];
        }
        let in_flight = self
            .pods
            .iter()
            .filter(|p| matches!(p.step, Step::Pending | Step::Creating | Step::Terminating))
            .count();
        // Pods in flight move on promptly, so a watcher sees each lifecycle unfold.
        if in_flight > 0 && (in_flight >= 3 || self.rng.chance(60)) {
            return self.advance_oldest_pod(now);
        }
        let roll = self.rng.below(100);
        let story = match roll {
            0..=24 => self.heartbeat(now),
            25..=39 => self.scale(now),
            40..=51 => self.create_disposable_pod(now),
            52..=59 => self.delete_disposable_pod(now),
            60..=71 => self.restart_container(now),
            72..=79 => self.crash_again(now),
            80..=87 => self.revise_config(),
            _ => self.change_widget(),
        };
        if story.is_empty() {
            // The chosen beat had nothing to act on (e.g. nothing to delete): a heartbeat
            // keeps the stream steady instead.
            self.heartbeat(now)
        } else {
            story
        }
    }

    fn heartbeat(&mut self, now: SystemTime) -> Vec<Mutation> {
        if self.nodes.is_empty() {
            return Vec::new();
        }
        let index = self.next_heartbeat % self.nodes.len();
        self.next_heartbeat = self.next_heartbeat.wrapping_add(1);
        let beat = super::objects::heartbeat(&self.nodes[index], now);
        self.nodes[index] = beat;
        vec![update("nodes", &self.nodes[index])]
    }

    fn advance_oldest_pod(&mut self, now: SystemTime) -> Vec<Mutation> {
        let Some(index) = self
            .pods
            .iter()
            .position(|p| matches!(p.step, Step::Pending | Step::Creating | Step::Terminating))
        else {
            return Vec::new();
        };
        let pod = &mut self.pods[index];
        let workload = pod.workload;
        let stage = match pod.step {
            Step::Pending => Some((Step::Creating, PodStage::ContainerCreating)),
            Step::Creating => Some((
                Step::Running,
                PodStage::Running {
                    restarts: 0,
                    last_restart: None,
                },
            )),
            _ => None,
        };
        match (stage, &pod.blueprint) {
            (Some((step, stage)), Some(blueprint)) => {
                pod.object = blueprint.render(&stage, now);
                pod.step = step;
                let mut changes = vec![update("pods", &pod.object)];
                if let Some(workload) = workload {
                    // The pod and its replicaset's counters go together; the deployment's
                    // controller catches up on the next tick.
                    let mut counters = self.refresh_workload(workload, now).into_iter();
                    changes.extend(counters.next());
                    self.follow_ups.extend(counters);
                }
                changes
            }
            _ => {
                // Terminating (or a pod churn cannot re-render): the kubelet is done, it goes.
                let removed = self.pods.remove(index);
                vec![Mutation::Delete {
                    resource: "pods",
                    namespace: removed.object["metadata"]["namespace"]
                        .as_str()
                        .unwrap_or("")
                        .to_string(),
                    name: metadata_name(&removed.object).to_string(),
                }]
            }
        }
    }

    /// Recomputes a workload's counters; returns the replicaset's update then the deployment's
    /// (each only if it changed), as the two controllers would write them one after the other.
    fn refresh_workload(&mut self, index: usize, now: SystemTime) -> Vec<Mutation> {
        let live: Vec<Step> = self
            .pods
            .iter()
            .filter(|p| p.workload == Some(index) && p.step != Step::Terminating)
            .map(|p| p.step)
            .collect();
        let current = live.len() as u32;
        let ready = live.iter().filter(|s| **s == Step::Running).count() as u32;
        let Some(workload) = self.workloads.get_mut(index) else {
            return Vec::new();
        };
        let desired = workload.deployment["spec"]["replicas"]
            .as_u64()
            .unwrap_or(1) as u32;
        let before = (workload.replicaset.clone(), workload.deployment.clone());
        super::objects::set_replica_counts(&mut workload.replicaset, desired, current, ready, now);
        super::objects::set_replica_counts(&mut workload.deployment, desired, current, ready, now);
        let mut changes = Vec::new();
        if workload.replicaset != before.0 {
            changes.push(update("replicasets", &workload.replicaset));
        }
        if workload.deployment != before.1 {
            changes.push(update("deployments", &workload.deployment));
        }
        changes
    }

    fn scale(&mut self, now: SystemTime) -> Vec<Mutation> {
        if self.workloads.is_empty() {
            return Vec::new();
        }
        let index = self.rng.below(self.workloads.len() as u64) as usize;
        let desired = self.workloads[index].deployment["spec"]["replicas"]
            .as_u64()
            .unwrap_or(1);
        let up = match desired {
            d if d <= MIN_REPLICAS => true,
            d if d >= MAX_REPLICAS => false,
            _ => self.rng.chance(50),
        };
        let target = if up { desired + 1 } else { desired - 1 };
        let workload = &mut self.workloads[index];
        workload.deployment["spec"]["replicas"] = json!(target);
        let generation = workload.deployment["metadata"]["generation"]
            .as_i64()
            .unwrap_or(1);
        workload.deployment["metadata"]["generation"] = json!(generation + 1);
        workload.replicaset["spec"]["replicas"] = json!(target);
        workload.replicaset["metadata"]["annotations"]
            ["deployment.kubernetes.io/desired-replicas"] = json!(target.to_string());
        let changes = vec![
            update("deployments", &workload.deployment),
            update("replicasets", &workload.replicaset),
        ];
        if up {
            if let Some(created) = self.create_replica(index, now) {
                self.follow_ups.push_back(created);
            }
        } else if let Some(position) = self
            .pods
            .iter()
            .rposition(|p| p.workload == Some(index) && p.step != Step::Terminating)
        {
            let pod = &mut self.pods[position];
            edits::mark_deleting(&mut pod.object, now);
            pod.step = Step::Terminating;
            self.follow_ups.push_back(update("pods", &pod.object));
        }
        // The counters follow the pod change, so they go after it.
        let counters = self.refresh_workload(index, now);
        self.follow_ups.extend(counters);
        changes
    }

    /// A fresh, unused pod name `<prefix>-<5 safe characters>`.
    fn fresh_pod_name(&mut self, prefix: &str, namespace: &str) -> String {
        loop {
            self.created += 1;
            let name = format!(
                "{prefix}-{}",
                safe_suffix(self.seed, &format!("churn/{prefix}/{}", self.created), 5)
            );
            let taken = self.pods.iter().any(|p| {
                metadata_name(&p.object) == name && p.object["metadata"]["namespace"] == namespace
            });
            if !taken {
                return name;
            }
        }
    }

    fn blueprint_for(&mut self, namespace: &str, name: &str, now: SystemTime) -> PodBlueprint {
        let node = self.workers[(self.created as usize) % self.workers.len().max(1)].clone();
        let node_index = node
            .name
            .rsplit('-')
            .next()
            .and_then(|n| n.parse::<u64>().ok())
            .unwrap_or(1)
            - 1;
        PodBlueprint {
            seed: self.seed,
            namespace: namespace.into(),
            name: name.into(),
            uid: uid(
                self.seed,
                &format!("pods/{namespace}/{name}/{}", self.created),
            ),
            labels: serde_json::Map::new(),
            annotations: serde_json::Map::new(),
            owner: None,
            containers: Vec::new(),
            init_containers: Vec::new(),
            restart_policy: "Always".into(),
            node: node.name.clone(),
            host_ip: node.internal_ip.clone(),
            pod_ip: format!("10.244.{node_index}.{}", 100 + self.created % 150),
            created: now,
            manager: "kube-controller-manager".into(),
        }
    }

    fn create_replica(&mut self, index: usize, now: SystemTime) -> Option<Mutation> {
        let replicaset = self.workloads.get(index)?.replicaset.clone();
        let namespace = replicaset["metadata"]["namespace"].as_str()?.to_string();
        let rs_name = metadata_name(&replicaset).to_string();
        let name = self.fresh_pod_name(&rs_name, &namespace);
        let mut blueprint = self.blueprint_for(&namespace, &name, now);
        blueprint.labels = replicaset["spec"]["template"]["metadata"]["labels"]
            .as_object()
            .cloned()
            .unwrap_or_default();
        blueprint.containers = replicaset["spec"]["template"]["spec"]["containers"]
            .as_array()
            .cloned()
            .unwrap_or_default();
        let rs_uid = replicaset["metadata"]["uid"].as_str().unwrap_or("");
        blueprint.owner = Some(owner_reference("apps/v1", "ReplicaSet", &rs_name, rs_uid));
        let object = blueprint.render(&PodStage::Pending, now);
        self.pods.push(TrackedPod {
            object: object.clone(),
            blueprint: Some(blueprint),
            step: Step::Pending,
            workload: Some(index),
            disposable: false,
        });
        Some(Mutation::Create {
            resource: "pods",
            object,
        })
    }

    fn create_disposable_pod(&mut self, now: SystemTime) -> Vec<Mutation> {
        if self.pods.iter().filter(|p| p.disposable).count() >= MAX_DISPOSABLE_PODS {
            return Vec::new();
        }
        let name = self.fresh_pod_name("batch", "team-b");
        let mut blueprint = self.blueprint_for("team-b", &name, now);
        blueprint.labels.insert("run".into(), json!("batch"));
        blueprint.containers = vec![super::objects::container_spec(
            "batch",
            "busybox:1.36",
            None,
            "10m",
            "32Mi",
        )];
        blueprint.manager = "kubectl-run".into();
        let object = blueprint.render(&PodStage::Pending, now);
        self.pods.push(TrackedPod {
            object: object.clone(),
            blueprint: Some(blueprint),
            step: Step::Pending,
            workload: None,
            disposable: true,
        });
        vec![Mutation::Create {
            resource: "pods",
            object,
        }]
    }

    fn delete_disposable_pod(&mut self, now: SystemTime) -> Vec<Mutation> {
        let Some(pod) = self
            .pods
            .iter_mut()
            .find(|p| p.disposable && p.step == Step::Running)
        else {
            return Vec::new();
        };
        edits::mark_deleting(&mut pod.object, now);
        pod.step = Step::Terminating;
        vec![update("pods", &pod.object)]
    }

    fn restart_container(&mut self, now: SystemTime) -> Vec<Mutation> {
        let running: Vec<usize> = (0..self.pods.len())
            .filter(|i| self.pods[*i].step == Step::Running)
            .collect();
        if running.is_empty() {
            return Vec::new();
        }
        let index = running[self.rng.below(running.len() as u64) as usize];
        let pod = &mut self.pods[index];
        edits::restart_container(&mut pod.object, self.seed, now);
        vec![update("pods", &pod.object)]
    }

    fn crash_again(&mut self, now: SystemTime) -> Vec<Mutation> {
        let crashing = self.pods.iter_mut().find(|p| {
            p.object["status"]["containerStatuses"][0]["state"]["waiting"]["reason"]
                == "CrashLoopBackOff"
                && p.step == Step::Settled
        });
        let Some(pod) = crashing else {
            return Vec::new();
        };
        edits::crash_again(&mut pod.object, now);
        let mut changes = vec![update("pods", &pod.object)];
        if let Some(event) = &mut self.backoff_event {
            edits::recur(event, now);
            changes.push(update("events", event));
        }
        changes
    }

    fn revise_config(&mut self) -> Vec<Mutation> {
        if self.config_maps.is_empty() {
            return Vec::new();
        }
        let index = self.rng.below(self.config_maps.len() as u64) as usize;
        edits::bump_config_version(&mut self.config_maps[index]);
        vec![update("configmaps", &self.config_maps[index])]
    }

    fn change_widget(&mut self) -> Vec<Mutation> {
        if self.widgets.is_empty() {
            return Vec::new();
        }
        let index = self.rng.below(self.widgets.len() as u64) as usize;
        edits::next_widget_phase(&mut self.widgets[index], &WIDGET_PHASES);
        vec![update("widgets", &self.widgets[index])]
    }
}

#[cfg(test)]
mod tests;
