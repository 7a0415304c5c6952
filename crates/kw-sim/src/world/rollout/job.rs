//! Jobs, as the Job controller and the kubelet write them: `job-completes` runs one Pod to
//! success; `job-fails` runs Pods that exit 1, one after another, until `backoffLimit` failures
//! have been exceeded, then says `FailureTarget` and, once the Pods are gone, `Failed`, both
//! with reason `BackoffLimitExceeded`.

use serde_json::{json, Map, Value};

use super::plot::Plot;
use super::story::{crash_log, Story, CONTAINER, GOOD_IMAGE};
use crate::world::container_logs::ContainerLog;
use crate::world::objects::{owner_reference, rfc3339, safe_suffix, uid, PodBlueprint, PodStage};

/// Failures a failing Job tolerates before it fails (its spec's `backoffLimit`).
const BACKOFF_LIMIT: u32 = 2;

fn job_uid(story: &Story) -> String {
    uid(
        story.seed,
        &format!("jobs/{}/{}", story.rollout.namespace, story.rollout.name),
    )
}

/// The labels the Job controller puts on the Job's Pods (and its selector).
fn labels(story: &Story) -> Map<String, Value> {
    let job_uid = job_uid(story);
    let name = &story.rollout.name;
    let mut labels = Map::new();
    labels.insert("batch.kubernetes.io/controller-uid".into(), json!(job_uid));
    labels.insert("batch.kubernetes.io/job-name".into(), json!(name));
    labels.insert("controller-uid".into(), json!(job_uid));
    labels.insert("job-name".into(), json!(name));
    labels
}

fn job_object(story: &Story) -> Value {
    let job_uid = job_uid(story);
    json!({
        "apiVersion": "batch/v1",
        "kind": "Job",
        "metadata": {
            "name": story.rollout.name,
            "namespace": story.rollout.namespace,
            "uid": job_uid,
            "generation": 1,
            "creationTimestamp": rfc3339(story.start),
            "labels": labels(story)
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
                "metadata": {"labels": labels(story)},
                "spec": {
                    "containers": [story.workload.containers[0].clone()],
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
fn attempt_pod(story: &Story, attempt: u32) -> PodBlueprint {
    let name = format!(
        "{}-{}",
        story.rollout.name,
        safe_suffix(
            story.seed,
            &format!("job/{}/{attempt}", story.rollout.name),
            5
        )
    );
    PodBlueprint {
        seed: story.seed,
        namespace: story.rollout.namespace.clone(),
        uid: uid(
            story.seed,
            &format!("pods/{}/{name}", story.rollout.namespace),
        ),
        name,
        labels: labels(story),
        annotations: Map::new(),
        owner: Some(owner_reference(
            "batch/v1",
            "Job",
            &story.rollout.name,
            &job_uid(story),
        )),
        containers: story.workload.containers.clone(),
        init_containers: Vec::new(),
        restart_policy: "Never".into(),
        node: format!("node-{}", 2 + attempt % 2),
        host_ip: format!("10.0.0.{}", 12 + attempt % 2),
        pod_ip: format!("10.244.{}.{}", 1 + attempt % 2, 60 + attempt),
        created: story.now(),
        manager: "kube-controller-manager".into(),
    }
}

fn job_event(story: &mut Story, event_type: &str, reason: &str, message: &str) {
    let (name, job_uid) = (story.rollout.name.clone(), job_uid(story));
    story.event(
        ("batch/v1", "Job", &name, &job_uid),
        event_type,
        reason,
        message,
        "job-controller",
        "",
    );
}

fn set_status(story: &mut Story, job: &mut Value, status: Value) {
    job["status"] = status;
    story.update("jobs", job.clone());
}

/// One Pod of the Job from creation to running; returns its index in `story.pods`.
fn start_attempt(story: &mut Story, job: &mut Value, attempt: u32, failed: u32) -> usize {
    let started = rfc3339(story.start + story.rollout.beat);
    story.next(1);
    let blueprint = attempt_pod(story, attempt);
    story.pods.push(blueprint);
    let index = story.pods.len() - 1;
    let pod = story.render_pod(index, &PodStage::Pending);
    let message = format!("Created pod: {}", story.pods[index].name);
    story.create("pods", pod);
    job_event(story, "Normal", "SuccessfulCreate", &message);
    let mut status = json!({"active": 1, "ready": 0, "startTime": started,
                            "terminating": 0, "uncountedTerminatedPods": {}});
    if failed > 0 {
        status["failed"] = json!(failed);
    }
    set_status(story, job, status.clone());

    story.next(1);
    let pod = story.render_pod(index, &PodStage::ContainerCreating);
    story.update("pods", pod);
    let (namespace, name, node) = (
        story.rollout.namespace.clone(),
        story.pods[index].name.clone(),
        story.pods[index].node.clone(),
    );
    let pod_uid = story.pods[index].uid.clone();
    story.event(
        ("v1", "Pod", &name, &pod_uid),
        "Normal",
        "Scheduled",
        &format!("Successfully assigned {namespace}/{name} to {node}"),
        "default-scheduler",
        "",
    );

    story.next(1);
    let running = PodStage::Running {
        restarts: 0,
        last_restart: None,
    };
    let pod = story.render_pod(index, &running);
    story.update("pods", pod);
    story.pod_event(
        index,
        "Normal",
        "Pulled",
        &format!("Container image \"{GOOD_IMAGE}\" already present on machine"),
    );
    story.pod_event(
        index,
        "Normal",
        "Created",
        &format!("Created container {CONTAINER}"),
    );
    story.pod_event(
        index,
        "Normal",
        "Started",
        &format!("Started container {CONTAINER}"),
    );
    status["ready"] = json!(1);
    set_status(story, job, status);
    index
}

/// The whole life of a Job (plots `job-completes` and `job-fails`).
pub(super) fn run(story: &mut Story) {
    story.pods.clear();
    let mut job = job_object(story);
    story.create("jobs", job.clone());
    let started = rfc3339(story.start + story.rollout.beat);
    if story.rollout.plot == Plot::JobCompletes {
        let index = start_attempt(story, &mut job, 0, 0);
        story.next(1);
        let pod = story.render_pod(index, &PodStage::Completed);
        story.update("pods", pod);
        let done = rfc3339(story.now());
        set_status(
            story,
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
        job_event(story, "Normal", "Completed", "Job completed");
        return;
    }
    for attempt in 0..=BACKOFF_LIMIT {
        let index = start_attempt(story, &mut job, attempt, attempt);
        // The container exits 1; restartPolicy Never: the Pod has failed.
        story.next(1);
        let mut pod = story.render_pod(index, &PodStage::Completed);
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
        story.update("pods", pod);
        let name = story.pods[index].name.clone();
        if let Some(cue) = story.cues.last_mut() {
            cue.logs.push((
                name,
                CONTAINER.to_string(),
                ContainerLog {
                    current: crash_log(attempt + 1),
                    previous: None,
                },
            ));
        }
    }
    let failed = BACKOFF_LIMIT + 1;
    let message = "Job has reached the specified backoff limit";
    let target = rfc3339(story.now());
    let failure_target = json!({"type": "FailureTarget", "status": "True",
        "reason": "BackoffLimitExceeded", "message": message,
        "lastProbeTime": target, "lastTransitionTime": target});
    set_status(
        story,
        &mut job,
        json!({"active": 0, "ready": 0, "failed": failed, "terminating": 0,
               "startTime": started, "uncountedTerminatedPods": {},
               "conditions": [failure_target.clone()]}),
    );
    job_event(story, "Warning", "BackoffLimitExceeded", message);
    story.next(1);
    let at = rfc3339(story.now());
    set_status(
        story,
        &mut job,
        json!({"active": 0, "ready": 0, "failed": failed, "terminating": 0,
               "startTime": started, "uncountedTerminatedPods": {},
               "conditions": [failure_target, {"type": "Failed", "status": "True",
                   "reason": "BackoffLimitExceeded", "message": message,
                   "lastProbeTime": at, "lastTransitionTime": at}]}),
    );
}

#[cfg(test)]
mod tests {
    use super::super::reading::written;
    use super::super::{script, Cue, Rollout};
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
