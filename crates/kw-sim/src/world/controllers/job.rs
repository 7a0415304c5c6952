//! The Job controller for the Jobs clients create: one Pod at a time (parallelism 1) until
//! `completions` Pods succeed (`SuccessCriteriaMet`, then `Complete`), or more than
//! `backoffLimit` fail (`FailureTarget`, then `Failed`, reason `BackoffLimitExceeded`), with the
//! status counts and Events kube-controller-manager writes. Whether a Pod succeeds is the
//! kubelet's to say, from its spec (`registry`).

use std::collections::HashMap;
use std::time::{Duration, SystemTime};

use serde_json::{json, Value};

use super::kubelet::Kubelet;
use super::owners::{is_ready, name_of, owned};
use super::recorder::{Involved, Recorder, Source};
use crate::world::objects::{owner_reference, rfc3339, safe_suffix};
use crate::world::store::Store;

/// The Jobs under control, by (namespace, name), with their uid once seen.
#[derive(Default)]
pub struct Jobs {
    tracked: HashMap<(String, String), Option<String>>,
    pods_made: u64,
}

impl Jobs {
    pub fn adopt(&mut self, namespace: &str, name: &str) {
        self.tracked
            .entry((namespace.into(), name.into()))
            .or_insert(None);
    }

    pub fn tick(
        &mut self,
        store: &Store,
        kubelet: &mut Kubelet,
        recorder: &mut Recorder,
        now: SystemTime,
        beat: Duration,
    ) {
        let keys: Vec<(String, String)> = self.tracked.keys().cloned().collect();
        for key in keys {
            let (_, jobs) = store.snapshot("jobs");
            let Some(job) = jobs.get(&key).map(|job| (**job).clone()) else {
                // Gone: its Pods go with it, as the garbage collector removes dependents.
                if let Some(Some(uid)) = self.tracked.remove(&key) {
                    for pod in owned(store, "pods", &key.0, &uid) {
                        kubelet.terminate(store, &key.0, name_of(&pod), now, beat);
                    }
                }
                continue;
            };
            let uid = job["metadata"]["uid"].as_str().unwrap_or("").to_string();
            self.tracked.insert(key.clone(), Some(uid.clone()));
            self.reconcile(store, kubelet, recorder, &job, &uid, now);
        }
    }

    fn reconcile(
        &mut self,
        store: &Store,
        kubelet: &mut Kubelet,
        recorder: &mut Recorder,
        job: &Value,
        uid: &str,
        now: SystemTime,
    ) {
        let conditions = job["status"]["conditions"].as_array();
        let finished = conditions.is_some_and(|all| {
            all.iter().any(|c| {
                (c["type"] == "Complete" || c["type"] == "Failed") && c["status"] == "True"
            })
        });
        if finished {
            return;
        }
        let namespace = job["metadata"]["namespace"].as_str().unwrap_or("");
        let name = name_of(job);
        let pods = owned(store, "pods", namespace, uid);
        let phase = |wanted: &str| {
            pods.iter()
                .filter(|p| p["status"]["phase"] == wanted)
                .count()
        };
        let (succeeded, failed) = (phase("Succeeded"), phase("Failed"));
        let active = pods.len() - succeeded - failed;
        let ready = pods.iter().filter(|pod| is_ready(pod)).count();
        let completions = job["spec"]["completions"].as_u64().unwrap_or(1) as usize;
        let backoff_limit = job["spec"]["backoffLimit"].as_u64().unwrap_or(6) as usize;
        let started = job["status"]["startTime"]
            .as_str()
            .map_or_else(|| rfc3339(now), str::to_string);
        let involved = Involved {
            api_version: "batch/v1",
            kind: "Job",
            namespace,
            name,
            uid,
        };
        let controller = Source {
            component: "job-controller",
            host: "",
            field_path: "",
        };
        let stamp = rfc3339(now);
        let condition = |kind: &str, reason: &str, message: &str| {
            json!({"type": kind, "status": "True", "reason": reason, "message": message,
                   "lastProbeTime": stamp, "lastTransitionTime": stamp})
        };
        let mut status = json!({
            "active": active, "ready": ready, "terminating": 0, "startTime": started,
            "uncountedTerminatedPods": {},
        });
        for (key, count) in [("succeeded", succeeded), ("failed", failed)] {
            if count > 0 {
                status[key] = json!(count);
            }
        }
        let target = conditions.and_then(|all| all.iter().find(|c| c["type"] == "FailureTarget"));
        let met = conditions.and_then(|all| all.iter().find(|c| c["type"] == "SuccessCriteriaMet"));
        if succeeded >= completions {
            // First the criteria, a step later the verdict, as the controller writes them.
            let reached = "Reached expected number of succeeded pods";
            status["active"] = json!(0);
            status["ready"] = json!(0);
            let mut all = vec![met
                .cloned()
                .unwrap_or_else(|| condition("SuccessCriteriaMet", "CompletionsReached", reached))];
            if met.is_some() {
                all.push(condition("Complete", "CompletionsReached", reached));
                status["completionTime"] = json!(stamp);
                recorder.record(
                    store,
                    &involved,
                    &controller,
                    "Normal",
                    "Completed",
                    "Job completed",
                    now,
                );
            }
            status["conditions"] = json!(all);
        } else if failed > backoff_limit {
            let message = "Job has reached the specified backoff limit";
            status["active"] = json!(0);
            status["ready"] = json!(0);
            let mut all = vec![target
                .cloned()
                .unwrap_or_else(|| condition("FailureTarget", "BackoffLimitExceeded", message))];
            if target.is_some() {
                all.push(condition("Failed", "BackoffLimitExceeded", message));
            } else {
                recorder.record(
                    store,
                    &involved,
                    &controller,
                    "Warning",
                    "BackoffLimitExceeded",
                    message,
                    now,
                );
            }
            status["conditions"] = json!(all);
        } else if active == 0 {
            self.pods_made += 1;
            let suffix = safe_suffix(store.seed(), &format!("{uid}/{}", self.pods_made), 5);
            let pod_name = format!("{name}-{suffix}");
            let template = &job["spec"]["template"];
            let pod = json!({
                "apiVersion": "v1",
                "kind": "Pod",
                "metadata": {
                    "name": pod_name,
                    "namespace": namespace,
                    "generateName": format!("{name}-"),
                    "labels": template["metadata"]["labels"],
                    "ownerReferences": [owner_reference("batch/v1", "Job", name, uid)],
                },
                "spec": template["spec"],
                "status": {"phase": "Pending", "qosClass": "BestEffort"},
            });
            if let Ok(stored) = store.create("pods", pod) {
                let pod_uid = stored["metadata"]["uid"].as_str().unwrap_or("");
                kubelet.adopt(namespace, &pod_name, pod_uid, now);
                let message = format!("Created pod: {pod_name}");
                recorder.record(
                    store,
                    &involved,
                    &controller,
                    "Normal",
                    "SuccessfulCreate",
                    &message,
                    now,
                );
                status["active"] = json!(1);
            }
        }
        if job["status"] == status {
            return;
        }
        let _ = store.modify::<crate::error::SimError>("jobs", namespace, name, |current| {
            let mut object = current.clone();
            object["status"] = status.clone();
            Ok(object)
        });
    }
}
