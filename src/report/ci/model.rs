//! The verdict of a run as every CI report reads it (issue 55): the verb, its exit code, the
//! verdict's line, and each object waited on with where it stands, its causes (each once, as
//! the summary groups them) and the last log lines of the containers that crashed. Built once
//! from the command's `Ending` and its stderr `Report`; each report only formats it.

use std::time::Duration;

use kw_events::readiness::State;
use kw_wait::wait::grouped;
use kw_wait::wait::summary::{Crashed, NotReady, Summary};

use crate::report::exit;
use crate::report::line::ReportLine;
use crate::report::outcome::{Ending, Outcome};
use crate::report::Report;

/// The document's kind and version (the JSON report's `kind`/`version`).
pub const KIND: &str = "kw.verdict";
pub const VERSION: u32 = 1;

/// A run's verdict.
#[derive(Debug, Clone, PartialEq)]
pub struct RunVerdict {
    /// `get`, `rollout status`, `wait`.
    pub verb: &'static str,
    pub exit_code: i32,
    /// `passed`, `failed` (exit 2), `timed out` (exit 3), `cancelled` (a signal), `error` (any
    /// other).
    pub verdict: &'static str,
    /// The verdict's line on stderr (`error: timed out waiting for the condition`), when the
    /// run did not pass.
    pub error: Option<String>,
    pub elapsed: Duration,
    pub objects: Vec<ObjectVerdict>,
    /// The containers that crashed, and their last log lines.
    pub crashed: Vec<CrashedLog>,
}

/// One object waited on.
#[derive(Debug, Clone, PartialEq)]
pub struct ObjectVerdict {
    /// Empty with one context.
    pub context: String,
    /// `deployment.apps`, `pod`: the label's kind part.
    pub kind: String,
    /// Empty when cluster-scoped.
    pub namespace: String,
    pub name: String,
    /// `deployment.apps/web`, its context in front in a run over several.
    pub label: String,
    /// `ready`, `failed`, `in progress`, `not met`.
    pub state: &'static str,
    /// Whether it met what was asked.
    pub met: bool,
    /// Its judgement's words (`Progress deadline exceeded`).
    pub message: String,
    /// Its causes as the summary says them, each once (`pod/web-1, -2 (2 Pods): ...`), nested
    /// lines indented by two spaces.
    pub causes: Vec<String>,
    /// The manifest file (as `-f` named it) and line its document starts on, when it came from
    /// one (not stdin).
    pub source: Option<(String, usize)>,
}

/// A crashed container (or several that ended alike) and its last log lines.
#[derive(Debug, Clone, PartialEq)]
pub struct CrashedLog {
    /// `pod/web-1`.
    pub pod: String,
    pub container: String,
    pub reason: String,
    pub exit_code: Option<i64>,
    /// Its last lines, or why they could not be read.
    pub log: Result<Vec<String>, String>,
}

/// The verdict of `ending`, a run of `verb` which `report` worded (its exit code and last error
/// line), after `elapsed`; `None` for a `get` that waited on nothing.
pub fn verdict(
    verb: &'static str,
    ending: &Ending,
    report: &Report,
    elapsed: Duration,
) -> Option<RunVerdict> {
    let outcomes: Vec<&Outcome> = match ending {
        Ending::Get(outcome) if waited(outcome) => vec![outcome],
        Ending::Get(_) | Ending::Done => return None,
        Ending::Rollout(run) => run
            .objects
            .iter()
            .filter_map(|o| o.as_ref().ok())
            .map(|o| &o.finished)
            .collect(),
        Ending::Wait(run) => vec![&run.finished],
        // The run failed before judging anything (an unreachable cluster): one failed case.
        Ending::Failed(_) => Vec::new(),
    };
    let mut objects = Vec::new();
    let mut crashed = Vec::new();
    for outcome in outcomes {
        let empty = Summary::default();
        let summary = outcome.summary.as_ref().unwrap_or(&empty);
        for reported in &outcome.objects {
            let not_ready = summary.not_ready.iter().find(|n| n.label == reported.label);
            let mut object = object(reported, not_ready);
            object.source = source_of(&object, &outcome.sources);
            objects.push(object);
        }
        crashed.extend(summary.crashed.iter().map(crashed_log));
    }
    let error = (report.code != exit::OK)
        .then(|| {
            report
                .lines
                .iter()
                .rev()
                .find(|line| matches!(line, ReportLine::Error(_)))
                .or(report.lines.last())
                .map(ToString::to_string)
        })
        .flatten();
    Some(RunVerdict {
        verb,
        exit_code: report.code,
        verdict: match report.code {
            exit::OK => "passed",
            exit::CONDITION_FAILED => "failed",
            exit::TIMEOUT => "timed out",
            _ => "error",
        },
        error,
        elapsed,
        objects,
        crashed,
    })
}

/// Whether a `get` waited on something (`--until`, `--fail-on`): a plain watch has no verdict.
fn waited(outcome: &Outcome) -> bool {
    !outcome.objects.is_empty() || outcome.summary.is_some()
}

pub(super) fn object(
    reported: &kw_wait::wait::Reported,
    not_ready: Option<&NotReady>,
) -> ObjectVerdict {
    let key = &reported.key;
    let state = match (&reported.judgement, reported.met) {
        (_, true) => "ready",
        (Some(j), false) if j.state == State::Failed => "failed",
        (Some(j), false) if j.state == State::InProgress => "in progress",
        _ => "not met",
    };
    let message = match not_ready {
        Some(not_ready) => not_ready
            .judgement
            .split_once(": ")
            .map_or(not_ready.judgement.clone(), |(_, why)| why.to_string()),
        None => reported
            .judgement
            .as_ref()
            .map(|j| j.message.clone())
            .unwrap_or_default(),
    };
    let causes = not_ready
        .map(|n| {
            grouped::lines(&n.stuck, &n.warnings)
                .into_iter()
                .map(|(depth, line)| format!("{}{line}", "  ".repeat(depth)))
                .collect()
        })
        .unwrap_or_default();
    let unlabelled = match key.context.is_empty() {
        true => reported.label.as_str(),
        false => reported
            .label
            .strip_prefix(&format!("{}/", key.context))
            .unwrap_or(&reported.label),
    };
    let kind = unlabelled
        .rsplit_once('/')
        .map_or("", |(kind, _)| kind)
        .to_string();
    ObjectVerdict {
        context: key.context.clone(),
        kind,
        namespace: key.namespace.clone(),
        name: key.name.clone(),
        label: reported.label.clone(),
        state,
        met: reported.met,
        message,
        causes,
        source: None,
    }
}

/// Where `object` came from among the manifest's objects: the same kind, name and namespace
/// (one the document leaves to the default namespace matches any), from a file.
fn source_of(
    object: &ObjectVerdict,
    sources: &[crate::plan::manifest::ManifestObject],
) -> Option<(String, usize)> {
    sources
        .iter()
        .filter(|s| s.path != std::path::Path::new("-"))
        .find(|s| {
            let group = s.api_version.rsplit_once('/').map_or("", |(g, _)| g);
            kw_events::events::kind_prefix(&s.kind, group) == object.kind
                && s.name == object.name
                && s.namespace.as_ref().is_none_or(|n| *n == object.namespace)
        })
        .and_then(|s| Some((s.path.display().to_string(), s.line?)))
}

fn crashed_log(crash: &Crashed) -> CrashedLog {
    CrashedLog {
        pod: crash.pod.clone(),
        container: crash.container.clone(),
        reason: crash.reason.clone(),
        exit_code: crash.exit_code,
        log: crash.log.clone(),
    }
}

impl RunVerdict {
    /// The summary's lines, as stderr says them: the cause block of every report.
    pub fn cause_lines(&self) -> Vec<String> {
        let mut lines = Vec::new();
        for object in self.objects.iter().filter(|o| !o.met) {
            lines.push(format!(
                "{}: {}: {}",
                object.label, object.state, object.message
            ));
            lines.extend(object.causes.iter().map(|cause| format!("  {cause}")));
        }
        lines
    }

    /// The crashed containers of `object`'s Pods: those its causes name, each once.
    pub fn crashed_of(&self, object: &ObjectVerdict) -> Vec<&CrashedLog> {
        self.crashed
            .iter()
            .filter(|crash| {
                let (stem, name) = crash.pod.rsplit_once('-').unwrap_or((&crash.pod, ""));
                object.causes.iter().any(|cause| {
                    cause.contains(&crash.pod) || (cause.contains(stem) && cause.contains(name))
                })
            })
            .collect()
    }
}
