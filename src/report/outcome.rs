//! How a run of `kw get` ended, as far as `report` needs to word it: what the watchers did,
//! whether `--timeout` ran out, and which contexts failed or could not be reached.

use std::sync::Arc;

use crate::report::error::KwError;
use kw_wait::wait::Verdict;

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

/// Everything `report` needs to word the end of a run.
#[derive(Debug)]
pub struct Outcome {
    pub end: End,
    /// `--timeout` ran out: what was being waited for.
    pub timed_out: Option<String>,
    /// The first context that failed (it said so when it did); its error sets the exit code.
    pub failed: Option<KwError>,
    /// Contexts whose cluster was still failing (unreachable, 5xx) when the run ended.
    pub unreachable: Vec<Arc<str>>,
    /// What kubectl says on stderr when a one-shot get printed nothing.
    pub when_empty: Option<String>,
    /// Why a wait for `ready` failed or timed out, said before the verdict.
    pub summary: Option<kw_wait::wait::summary::Summary>,
}
