//! The judge's words for how a wait stands: why it ended (`Verdict`), where each object of
//! kubectl wait stands at the end (`Standing`), and the objects a failed wait's summary names
//! (`Unmet`, `Unready`), with a workload's stuck child (`Trouble`).

use std::fmt;
use std::time::SystemTime;

use kw_events::readiness::Judgement;

use super::expr::Expr;

/// Where an object of kubectl wait stands at the end (`Judge::in_order`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Standing {
    Met,
    NotMet,
    /// Named, and not found: kubectl's line for it.
    Missing(String),
}

/// The judge's verdict: why it ended the watch early (a condition met or never to be judged,
/// `--max-events` reached, or another thread's verdict).
#[derive(Debug, Clone, PartialEq)]
pub enum Verdict {
    /// An `--until` condition was met (exit 0).
    Until { expr: String, by: String },
    /// A `--fail-on` condition was met (exit `CONDITION_FAILED`): the expression itself, as
    /// how it is worded depends on which it is (`delete`, `nothing`).
    FailOn { expr: Expr, by: String },
    /// `--max-events` events were printed (exit 0).
    MaxEvents(u64),
    /// A condition can never be judged on an object's shape (a JSONPath that finds several
    /// values): kubectl wait's error line (exit `USAGE`).
    Invalid(String),
    /// Another watcher thread already ended the watch; this one stops printing.
    Elsewhere,
}

impl fmt::Display for Verdict {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Verdict::Until { expr, by } => write!(f, "--until {expr} met by {by}"),
            Verdict::FailOn { expr, by } => write!(f, "--fail-on {expr} met by {by}"),
            Verdict::MaxEvents(n) => write!(f, "--max-events {n} reached"),
            Verdict::Invalid(message) => f.write_str(message),
            Verdict::Elsewhere => f.write_str("the watch ended in another thread"),
        }
    }
}

/// An object that did not meet what was asked: its label, its judgement when the rules judged
/// it, and, of several `--for` met in turn, the one it was still waiting for.
#[derive(Debug, Clone, PartialEq)]
pub struct Unmet {
    pub label: String,
    pub judgement: Option<Judgement>,
    pub pending: Option<String>,
}

/// An object the readiness rules do not call ready (`Judge::unready`), told in parts for
/// kubectl's failure line: its label, its context (empty with one), whether kubectl has a
/// status viewer for its kind (whose message names the object itself), and its judgement.
#[derive(Debug, Clone, PartialEq)]
pub struct Unready {
    pub label: String,
    pub context: String,
    pub viewed: bool,
    pub judgement: Judgement,
}

/// A child of a workload (a Pod of its current revision) that will not come up, and since when.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Trouble {
    /// `ImagePullBackOff (web): Back-off pulling image "x"`.
    pub reason: String,
    /// When the trouble began: the earliest of what the Pod's status and its Warning events
    /// show and when kw first saw it stuck, never later than kw's now.
    pub since: SystemTime,
}

/// One object a wait judged, as the CI reports list it (`Judge::findings().every()`): its key,
/// its label, whether it met what was asked, and its judgement by the readiness rules.
#[derive(Debug, Clone, PartialEq)]
pub struct Reported {
    pub key: super::identity::Key,
    /// `deployment.apps/web`, its context in front in a run over several.
    pub label: String,
    pub met: bool,
    pub judgement: Option<Judgement>,
}
