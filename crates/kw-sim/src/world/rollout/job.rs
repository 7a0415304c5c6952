//! Jobs, as the Job controller and the kubelet write them: `job-completes` runs one Pod to
//! success; `job-fails` runs Pods that exit 1, one after another, until `backoffLimit` failures
//! have been exceeded, then says `FailureTarget` and, once the Pods are gone, `Failed`, both
//! with reason `BackoffLimitExceeded`.

use serde_json::{json, Map, Value};

use super::{crash_log, Plot, Story, CONTAINER, GOOD_IMAGE};
use crate::world::objects::{owner_reference, rfc3339, safe_suffix, uid, PodBlueprint, PodStage};

/// Failures a failing Job tolerates before it fails (its spec's `backoffLimit`).
const BACKOFF_LIMIT: u32 = 2;

impl Story<'_> {
    fn job_uid(&self) -> String {
        uid(
            self.seed,
            &format!("jobs/{}/{}", self.rollout.namespace, self.rollout.name),
        )
    }

    /// The labels the Job controller puts on the Job's Pods (and its selector).
    fn job_labels(&self) -> Map<String, Value> {
        let job_uid = self.job_uid();
        let name = &self.rollout.name;
        let mut labels = Map::new();
        labels.insert("batch.kubernetes.io/controller-uid".into(), json!(job_uid));
        labels.insert("batch.kubernetes.io/job-name".into(), json!(name));
        labels.insert("controller-uid".into(), json!(job_uid));
        labels.insert("job-name".into(), json!(name));
        labels
    }

    fn job(&self) -> Value {
        let job_uid = self.job_uid();
        json!({
            "apiVersion": "batch/v1",
            "kind": "Job",
            "metadata": {
                "name": self.rollout.name,
                "namespace": self.rollout.namespace,
                "uid": job_uid,
                "generation": 1,
                "creationTimestamp": rfc3339(self.start),
                "labels": self.job_labels()
            },
            "spec": {
                "backoffLimit": BACKOFF_LIMIT,
                "completionMode": "NonIndexed",
                "completions": 1,
                "manualSelector": false,
                "parallelism": 1,
                "podReplacementPolicy": "TerminatingOrFailed",
                "selector": {"matchLabels": {"batch.kubernetes.io/controller-uid": job_uid}},
                "suspend": false,
                "template": {
                    "metadata": {"labels": self.job_labels()},
                    "spec": {
                        "containers": [self.workload.containers[0].clone()],
                        "dnsPolicy": "ClusterFirst",
                        "restartPolicy": "Never",
                        "schedulerName": "default-scheduler",
                        "terminationGracePeriodSeconds": 30
                    }
                }
            },
            "status": {}
        })
    }

    /// Attempt `attempt`'s Pod (each failure is replaced by a new Pod).
    fn job_pod(&self, attempt: u32) -> PodBlueprint {
        let name = format!(
            "{}-{}",
            self.rollout.name,
            safe_suffix(
                self.seed,
                &format!("job/{}/{attempt}", self.rollout.name),
                5
            )
        );
        PodBlueprint {
            seed: self.seed,
            namespace: self.rollout.namespace.clone(),
            uid: uid(
                self.seed,
                &format!("pods/{}/{name}", self.rollout.namespace),
            ),
            name,
            labels: self.job_labels(),
            annotations: Map::new(),
            owner: Some(owner_reference(
                "batch/v1",
                "Job",
                &self.rollout.name,
                &self.job_uid(),
            )),
            containers: self.workload.containers.clone(),
            init_containers: Vec::new(),
            restart_policy: "Never".into(),
            node: format!("node-{}", 2 + attempt % 2),
            host_ip: format!("10.0.0.{}", 12 + attempt % 2),
            pod_ip: format!("10.244.{}.{}", 1 + attempt % 2, 60 + attempt),
            created: self.now(),
            manager: "kube-controller-manager".into(),
        }
    }

    fn job_event(&mut self, event_type: &str, reason: &str, message: &str) {
        let (name, job_uid) = (self.rollout.name.clone(), self.job_uid());
        self.event(
            ("batch/v1", "Job", &name, &job_uid),
            event_type,
            reason,
            message,
            "job-controller",
            "",
        );
    }

    fn job_status(&mut self, job: &mut Value, status: Value) {
        job["status"] = status;
        self.update("jobs", job.clone());
    }

    /// One Pod of the Job from creation to running; returns its index in `self.pods`.
    fn start_attempt(&mut self, job: &mut Value, attempt: u32, failed: u32) -> usize {
        let started = rfc3339(self.start + self.rollout.beat);
        self.next(1);
        let blueprint = self.job_pod(attempt);
        self.pods.push(blueprint);
        let index = self.pods.len() - 1;
        let pod = self.render_pod(index, &PodStage::Pending);
        let message = format!("Created pod: {}", self.pods[index].name);
        self.create("pods", pod);
        self.job_event("Normal", "SuccessfulCreate", &message);
        let mut status = json!({"active": 1, "ready": 0, "startTime": started,
                                "terminating": 0, "uncountedTerminatedPods": {}});
        if failed > 0 {
            status["failed"] = json!(failed);
        }
        self.job_status(job, status.clone());

        self.next(1);
        let pod = self.render_pod(index, &PodStage::ContainerCreating);
        self.update("pods", pod);
        let (namespace, name, node) = (
            self.rollout.namespace.clone(),
            self.pods[index].name.clone(),
            self.pods[index].node.clone(),
        );
        let pod_uid = self.pods[index].uid.clone();
        self.event(
            ("v1", "Pod", &name, &pod_uid),
            "Normal",
            "Scheduled",
            &format!("Successfully assigned {namespace}/{name} to {node}"),
            "default-scheduler",
            "",
        );

        self.next(1);
        let running = PodStage::Running {
            restarts: 0,
            last_restart: None,
        };
        let pod = self.render_pod(index, &running);
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
        status["ready"] = json!(1);
        self.job_status(job, status);
        index
    }

    /// The whole life of a Job (plots `job-completes` and `job-fails`).
    pub(super) fn run_job(&mut self) {
        self.pods.clear();
        let mut job = self.job();
        self.create("jobs", job.clone());
        let started = rfc3339(self.start + self.rollout.beat);
        if self.rollout.plot == Plot::JobCompletes {
            let index = self.start_attempt(&mut job, 0, 0);
            self.next(1);
            let pod = self.render_pod(index, &PodStage::Completed);
            self.update("pods", pod);
            let done = rfc3339(self.now());
            self.job_status(
                &mut job,
                json!({
                    "active": 0, "ready": 0, "succeeded": 1, "terminating": 0,
                    "startTime": started, "completionTime": done,
                    "uncountedTerminatedPods": {},
                    "conditions": [
                        {"type": "SuccessCriteriaMet", "status": "True",
                         "reason": "CompletionsReached",
                         "message": "Reached expected number of succeeded pods",
                         "lastProbeTime": done, "lastTransitionTime": done},
                        {"type": "Complete", "status": "True",
                         "reason": "CompletionsReached",
                         "message": "Reached expected number of succeeded pods",
                         "lastProbeTime": done, "lastTransitionTime": done}
                    ]
                }),
            );
            self.job_event("Normal", "Completed", "Job completed");
            return;
        }
        for attempt in 0..=BACKOFF_LIMIT {
            let index = self.start_attempt(&mut job, attempt, attempt);
            // The container exits 1; restartPolicy Never: the Pod has failed.
            self.next(1);
            let mut pod = self.render_pod(index, &PodStage::Completed);
            pod["status"]["phase"] = json!("Failed");
            let terminated = &mut pod["status"]["containerStatuses"][0]["state"]["terminated"];
            terminated["exitCode"] = json!(1);
            terminated["reason"] = json!("Error");
            if let Some(conditions) = pod["status"]["conditions"].as_array_mut() {
                for condition in conditions {
                    if condition["reason"] == "PodCompleted" {
                        condition["reason"] = json!("PodFailed");
                    }
                }
            }
            self.update("pods", pod);
            let name = self.pods[index].name.clone();
            if let Some(cue) = self.cues.last_mut() {
                cue.logs.push((
                    name,
                    CONTAINER.to_string(),
                    super::ContainerLog {
                        current: crash_log(attempt + 1),
                        previous: None,
                    },
                ));
            }
        }
        let failed = BACKOFF_LIMIT + 1;
        let message = "Job has reached the specified backoff limit";
        let target = rfc3339(self.now());
        let failure_target = json!({"type": "FailureTarget", "status": "True",
            "reason": "BackoffLimitExceeded", "message": message,
            "lastProbeTime": target, "lastTransitionTime": target});
        self.job_status(
            &mut job,
            json!({"active": 0, "ready": 0, "failed": failed, "terminating": 0,
                   "startTime": started, "uncountedTerminatedPods": {},
                   "conditions": [failure_target.clone()]}),
        );
        self.job_event("Warning", "BackoffLimitExceeded", message);
        self.next(1);
        let at = rfc3339(self.now());
        self.job_status(
            &mut job,
            json!({"active": 0, "ready": 0, "failed": failed, "terminating": 0,
                   "startTime": started, "uncountedTerminatedPods": {},
                   "conditions": [failure_target, {"type": "Failed", "status": "True",
                       "reason": "BackoffLimitExceeded", "message": message,
                       "lastProbeTime": at, "lastTransitionTime": at}]}),
        );
    }
}

#[cfg(test)]
mod tests {
    use super::super::{script, written, Cue, Rollout};
    use super::*;

    fn story(plot: Plot) -> Vec<Cue> {
        let start = humantime::parse_rfc3339("2026-01-01T00:00:00Z").unwrap();
        script(&Rollout::new(plot, "default", "migrate"), 1, start)
    }

    #[test]
    fn a_job_that_completes_ends_complete_with_its_pod_succeeded() {
        let cues = story(Plot::JobCompletes);
        let jobs = written(&cues, "jobs");
        let job = jobs.last().unwrap();
        assert_eq!(job["status"]["succeeded"], 1);
        assert_eq!(job["status"]["conditions"][1]["type"], "Complete");
        let pods = written(&cues, "pods");
        assert_eq!(pods.last().unwrap()["status"]["phase"], "Succeeded");
        assert_eq!(
            pods[0]["metadata"]["ownerReferences"][0]["uid"],
            job["metadata"]["uid"]
        );
    }

    #[test]
    fn a_job_that_fails_exceeds_its_backoff_limit() {
        let cues = story(Plot::JobFails);
        let job = *written(&cues, "jobs").last().unwrap();
        assert_eq!(job["status"]["failed"], BACKOFF_LIMIT + 1);
        assert_eq!(job["status"]["conditions"][1]["type"], "Failed");
        assert_eq!(
            job["status"]["conditions"][1]["reason"],
            "BackoffLimitExceeded"
        );
        let failed_pods: std::collections::HashSet<&str> = written(&cues, "pods")
            .into_iter()
            .filter(|p| p["status"]["phase"] == "Failed")
            .filter_map(|p| p["metadata"]["name"].as_str())
            .collect();
        assert_eq!(failed_pods.len() as u32, BACKOFF_LIMIT + 1);
    }
}
