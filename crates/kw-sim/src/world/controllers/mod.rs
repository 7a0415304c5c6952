//! The control plane for what clients write: when kubectl creates, patches or deletes a
//! Deployment or a Pod, these act the rest out as kube-controller-manager, the scheduler and
//! the kubelet would, one step a beat (Deployments, Jobs, bare Pods): ReplicaSets and Pods made
//! and removed, images pulled
//! or not (`registry`), containers started or crashing, status and Events written. The seeded
//! world and the rollout stories are not theirs until a client writes to them.
//!
//! `api::write` tells [`Controllers`] what a client wrote; `server::drivers` runs
//! [`ControlLoop::tick`] every beat in a thread.

mod deployment;
mod job;
mod kubelet;
mod owners;
mod recorder;
pub mod registry;

use std::collections::HashSet;
use std::sync::Mutex;
use std::time::{Duration, SystemTime};

use crate::world::container_logs::PodLogs;
use crate::world::store::Store;

/// What clients wrote since the control loop last looked, and which Deployments are the
/// control loop's (a rollout story stops telling those).
#[derive(Default)]
pub struct Controllers {
    inbox: Mutex<Vec<(String, String, String)>>,
    taken: Mutex<HashSet<(String, String)>>,
}

impl Controllers {
    /// A client wrote (created, changed or deleted) `resource` `namespace/name`.
    pub fn written(&self, resource: &str, namespace: &str, name: &str) {
        if !matches!(resource, "deployments" | "jobs" | "pods") {
            return;
        }
        if resource == "deployments" {
            lock(&self.taken).insert((namespace.into(), name.into()));
        }
        lock(&self.inbox).push((resource.into(), namespace.into(), name.into()));
    }

    /// Whether a client has written the Deployment, so the controllers run it now.
    pub fn has_taken(&self, namespace: &str, name: &str) -> bool {
        lock(&self.taken).contains(&(namespace.to_string(), name.to_string()))
    }

    fn take_written(&self) -> Vec<(String, String, String)> {
        std::mem::take(&mut *lock(&self.inbox))
    }
}

fn lock<T>(mutex: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    mutex
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
}

/// The controllers' state between beats.
#[derive(Default)]
pub struct ControlLoop {
    deployments: deployment::Deployments,
    jobs: job::Jobs,
    kubelet: kubelet::Kubelet,
    recorder: recorder::Recorder,
}

impl ControlLoop {
    /// One beat: take in what clients wrote, then move every controlled object one step.
    pub fn tick(
        &mut self,
        controllers: &Controllers,
        store: &Store,
        logs: &PodLogs,
        beat: Duration,
    ) {
        let now: SystemTime = store.now();
        for (resource, namespace, name) in controllers.take_written() {
            match resource.as_str() {
                "deployments" => self.deployments.adopt(&namespace, &name),
                "jobs" => self.jobs.adopt(&namespace, &name),
                _ => {
                    // A bare Pod a client created (not one of a controller's): run it.
                    let (_, pods) = store.snapshot("pods");
                    if let Some(pod) = pods.get(&(namespace.clone(), name.clone())) {
                        let owned = pod["metadata"]["ownerReferences"].is_array();
                        let fresh = pod["status"]["containerStatuses"].is_null();
                        if !owned && fresh {
                            let uid = pod["metadata"]["uid"].as_str().unwrap_or("");
                            self.kubelet.adopt(&namespace, &name, uid, now);
                        }
                    }
                }
            }
        }
        self.deployments
            .tick(store, &mut self.kubelet, &mut self.recorder, now, beat);
        self.jobs
            .tick(store, &mut self.kubelet, &mut self.recorder, now, beat);
        self.kubelet
            .tick(store, logs, &mut self.recorder, now, beat);
    }
}
