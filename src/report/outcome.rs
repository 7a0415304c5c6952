//! How a command of kw ended, for every verb, as far as `report` needs to word it: one
//! `Ending`, which `report::ending` turns into stderr lines and an exit code. The runner fills
//! these with what happened (the watchers' end, the judge's findings, the deadline passed);
//! every word said of them is `report`'s.

use std::sync::Arc;
use std::time::Duration;

use crate::report::error::KwError;
use kw_wait::wait::{Expr, Standing, Unready, Verdict};

/// How a command ended: each verb's outcome, or the error that ended it.
#[derive(Debug)]
pub enum Ending {
    /// `kw get` and `kw demo`.
    Get(Outcome),
    Rollout(RolloutRun),
    Wait(WaitOutcome),
    /// A command that has nothing to say when it works (`version`, `completion`, `sim`).
    Done,
    Failed(KwError),
}

impl Ending {
    /// A verb's result: its outcome, or the error it ended with.
    pub fn of<T>(result: Result<T, KwError>, ended: impl FnOnce(T) -> Ending) -> Ending {
        result.map_or_else(Ending::Failed, ended)
    }
}

/// How the watchers of a run ended, when the run did not fail as a whole.
#[derive(Debug)]
pub enum End {
    /// Every watcher finished (a list, a deadline): this many events were printed.
    Done { printed: u64 },
    /// A condition or `--max-events` ended the run.
    Verdict(Verdict),
    /// The reader of stdout went away: nothing more to do. `verdict_lost`: the run awaited a
    /// verdict (`--until`, `--fail-on`, `rollout status`, `wait`) and had not met `--until`,
    /// so it must not end as if it had.
    ClosedPipe { verdict_lost: bool },
}

/// `--timeout` ran out: after how long, waiting for what (`--until`'s conditions, if any).
#[derive(Debug, Clone, PartialEq)]
pub struct TimedOut {
    pub after: Duration,
    pub until: Vec<Expr>,
}

/// A run of the one runner (`kw get`'s, which every verb runs through).
#[derive(Debug)]
pub struct Outcome {
    pub end: End,
    pub timed_out: Option<TimedOut>,
    /// The first context that failed (it said so when it did); its error sets the exit code.
    pub failed: Option<KwError>,
    /// Contexts whose cluster was still failing (unreachable, 5xx) when the run ended.
    pub unreachable: Vec<Arc<str>>,
    /// What kubectl says on stderr when a one-shot get printed nothing.
    pub when_empty: Option<String>,
    /// Why a wait for `ready` failed or timed out, said before the verdict.
    pub summary: Option<kw_wait::wait::summary::Summary>,
    /// Every object the wait judged, and where it stands: what the CI reports list.
    pub objects: Vec<kw_wait::wait::Reported>,
    /// The objects `-f` named, each with its file and line: where a CI's annotation points.
    pub sources: Vec<crate::plan::manifest::ManifestObject>,
}

/// How one object's `rollout status` finished.
#[derive(Debug)]
pub struct RolloutOutcome {
    pub finished: Outcome,
    /// The object the judge found failed (kubectl's error names it).
    pub failed: Option<Unready>,
}

/// A `rollout status` run over its objects, one after another, as kubectl watches them.
#[derive(Debug, Default)]
pub struct RolloutRun {
    /// Each object's end, in the order watched: an error is the object's own (not found).
    pub objects: Vec<Result<RolloutOutcome, KwError>>,
    /// What kubectl says on stderr when a type or a selector matched nothing.
    pub when_empty: Option<String>,
}

/// How a `wait` run finished.
#[derive(Debug)]
pub struct WaitOutcome {
    pub finished: Outcome,
    /// Every object (`pods/web`) in kubectl's order, and where it stands: met, not met, or
    /// named and not found.
    pub objects: Vec<(String, Standing)>,
    /// `--timeout=0`: the objects were looked at once.
    pub checked_once: bool,
    /// `--for=create` alone: kubectl's timeout names no object then.
    pub only_create: bool,
}
