//! Rules for a Job. Deviation from kstatus, on purpose: kstatus calls a Job that has started
//! "current", because a Job's spec asks for it to run; a CI step that waits for a Job wants it
//! finished. So a Job is ready once `Complete=True`, and has failed once `Failed=True` or
//! `FailureTarget=True` (the controller has decided to fail it and is only cleaning up).

use serde_json::Value;

use super::fields::{conditions, int, int_or};
use super::judgement::Judgement;

pub fn job(object: &Value) -> Judgement {
    let succeeded = int_or(object, "/status/succeeded", 0);
    let active = int_or(object, "/status/active", 0);
    let failed = int_or(object, "/status/failed", 0);
    // Without completions (a work queue), any one success completes the Job.
    let completions = int(object, "/spec/completions");
    let succeeded_of = match completions {
        Some(n) => format!("{succeeded}/{n}"),
        None => succeeded.to_string(),
    };
    let mut suspended = false;
    for c in conditions(object).filter(|c| c.is_true()) {
        match c.kind {
            "Failed" | "FailureTarget" => {
                return Judgement::failed(format!("Job has failed: {}", c.describe()))
            }
            "Complete" => {
                return Judgement::ready(format!("Job completed. Succeeded: {succeeded_of}"))
            }
            "Suspended" => suspended = true,
            _ => {}
        }
    }
    if suspended {
        return Judgement::in_progress("Job is suspended");
    }
    if object.pointer("/status/startTime").is_none() {
        return Judgement::in_progress("Job not started");
    }
    Judgement::in_progress(format!(
        "Job in progress. Succeeded: {succeeded_of}, active: {active}, failed: {failed}"
    ))
}

#[cfg(test)]
mod tests {
    use super::super::testdata::{object, remove, set};
    use super::super::{judge, State};
    use super::*;
    use serde_json::json;
    use std::time::SystemTime;

    fn judged(object: &Value) -> Judgement {
        judge("batch", "Job", object, SystemTime::now())
    }

    /// The fixture (a completed Job of one completion) as it was while its Pod ran.
    fn running() -> Value {
        let mut job = object("job");
        remove(&mut job, "/status/conditions");
        remove(&mut job, "/status/completionTime");
        set(&mut job, "/status/succeeded", json!(0));
        set(&mut job, "/status/active", json!(1));
        job
    }

    #[test]
    fn a_job_is_ready_only_when_complete() {
        assert_eq!(
            judged(&object("job")),
            Judgement::ready("Job completed. Succeeded: 1/1")
        );
        // Deviation from kstatus, which calls a running Job current.
        assert_eq!(
            judged(&running()),
            Judgement::in_progress("Job in progress. Succeeded: 0/1, active: 1, failed: 0")
        );
        let mut waiting = running();
        remove(&mut waiting, "/status/startTime");
        assert_eq!(judged(&waiting), Judgement::in_progress("Job not started"));
    }

    #[test]
    fn a_failed_job_has_failed() {
        let mut job = running();
        set(&mut job, "/status/active", json!(0));
        set(&mut job, "/status/failed", json!(7));
        set(
            &mut job,
            "/status/conditions",
            json!([{
            "type": "Failed", "status": "True", "reason": "BackoffLimitExceeded",
            "message": "Job has reached the specified backoff limit"}]),
        );
        assert_eq!(
            judged(&job),
            Judgement::failed("Job has failed: Job has reached the specified backoff limit")
        );
        // Since Kubernetes 1.31 the controller first says FailureTarget, then Failed once the
        // Pods are gone: the outcome is known at the first.
        set(
            &mut job,
            "/status/conditions/0/type",
            json!("FailureTarget"),
        );
        assert_eq!(judged(&job).state, State::Failed);
        set(&mut job, "/status/conditions/0/status", json!("False"));
        assert_eq!(judged(&job).state, State::InProgress);
    }

    #[test]
    fn a_suspended_job_waits() {
        let mut job = running();
        set(&mut job, "/spec/suspend", json!(true));
        set(
            &mut job,
            "/status/conditions",
            json!([{
            "type": "Suspended", "status": "True", "reason": "JobSuspended"}]),
        );
        assert_eq!(judged(&job), Judgement::in_progress("Job is suspended"));
    }
}
