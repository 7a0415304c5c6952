//! The reports of a run that Ctrl-C or a signal ends (CI cancels a job with SIGTERM, or SIGINT
//! from its UI): kw exits at once then, without its summary, but a reviewer still gets the
//! objects it was waiting on and where each stood. `main` arms this with the reports asked and
//! the verb; the runner hands over its judge as it makes one; the signal's handler writes the
//! files and says the CI's lines, then exits.

use std::sync::Mutex;
use std::time::{Duration, Instant};

use kw_wait::wait::SharedJudge;

use super::model::{self, RunVerdict};
use super::Reports;
use crate::report::line::ReportLine;

/// How long the handler waits for the judge's lock: a sink holds it only while it prints.
const LOCK_WAIT: Duration = Duration::from_millis(300);

struct Armed {
    reports: Reports,
    verb: &'static str,
    started: Instant,
    judge: Option<SharedJudge>,
}

static ARMED: Mutex<Option<Armed>> = Mutex::new(None);

/// The run will write `reports` if a signal ends it (`verb` as the report names it).
pub fn arm(reports: &Reports, verb: &'static str, started: Instant) {
    if reports.any() {
        *kw_base::mutex::lock(&ARMED) = Some(Armed {
            reports: reports.clone(),
            verb,
            started,
            judge: None,
        });
    }
}

/// The judge of the object being waited on now (the latest, for `rollout status`'s one after
/// another).
pub fn judging(judge: &SharedJudge) {
    if let Some(armed) = kw_base::mutex::lock(&ARMED).as_mut() {
        armed.judge = Some(judge.clone());
    }
}

/// A signal ends kw with `code` (130, 143, ...): the reports written, and the lines to say
/// (the CI's own, a report that could not be written); nothing when none was asked.
pub fn ended(code: i32, env: impl Fn(&str) -> Option<String>) -> Vec<ReportLine> {
    let Ok(mut armed) = ARMED.try_lock() else {
        return Vec::new();
    };
    let Some(armed) = armed.take() else {
        return Vec::new();
    };
    let objects = armed
        .judge
        .as_ref()
        .and_then(|judge| judge.every_within(LOCK_WAIT))
        .unwrap_or_default();
    let reason = match code {
        130 => "interrupted (Ctrl-C)".to_string(),
        code => format!("ended by signal {}", code - 128),
    };
    let verdict = RunVerdict {
        verb: armed.verb,
        exit_code: code,
        verdict: "cancelled",
        error: Some(format!("kw was {reason} before the wait ended")),
        elapsed: armed.started.elapsed(),
        objects: objects.iter().map(|o| model::object(o, None)).collect(),
        crashed: Vec::new(),
    };
    armed.reports.write_verdict(&verdict, env)
}
