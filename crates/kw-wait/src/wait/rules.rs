//! What the judge is asked to decide: the conditions and limits of one run.

use std::time::Duration;

use super::expr::{Expr, For};
use kw_events::readiness::status_viewer::Readiness;

/// What the judge is asked to decide.
#[derive(Debug, Clone, Default)]
pub struct Rules {
    pub until: Vec<Expr>,
    /// kubectl wait's repeated `--for`: each object meets the `until` conditions one after the
    /// other, in order (AND), and is done once it has met the last; `create` holds once the
    /// object exists. Otherwise (`kw get --until A --until B`) any one of them will do (OR).
    pub sequence: bool,
    pub fail_on: Vec<Expr>,
    pub mode: For,
    pub max_events: Option<u64>,
    /// Report each change of a readiness judgement on stderr (`--quiet` turns it off).
    pub progress: bool,
    /// How long a workload's Pod of the current revision may stay stuck (`ImagePullBackOff`,
    /// `CrashLoopBackOff`, unschedulable...) before it fails the workload (`--fail-grace`).
    pub fail_grace: Duration,
    /// What a child stuck past `fail_grace` does: fail its workload, or only be said.
    pub past_grace: PastGrace,
    /// Whose rules `ready` and `failed` judge by: kw's, or kubectl's status viewers (`kw rollout
    /// status`).
    pub readiness: Readiness,
    /// Judge readiness even when no expression asks it, so that a wait that fails or runs out
    /// can say why (`kw wait`'s kubectl conditions: what the Deployment waits for, its stuck
    /// Pods).
    pub explain: bool,
}

/// What a workload's child (or a watched Pod) stuck for `Rules::fail_grace` does to the wait.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum PastGrace {
    /// It fails the workload (kw's own verbs; `rollout status --fail-grace`).
    #[default]
    Fails,
    /// kubectl's `rollout status` without `--fail-grace`: kubectl waits on for the progress
    /// deadline or its `--timeout`, and so does kw, so that a switched script never fails
    /// what kubectl's passes (a Pod waiting for an autoscaled node, an app that crash-loops
    /// until its database is up). The moment is said once, with the flag that ends it then.
    Said,
}

impl Rules {
    pub fn needs_object(&self) -> bool {
        self.until
            .iter()
            .chain(&self.fail_on)
            .any(Expr::needs_object)
    }

    pub fn has_conditions(&self) -> bool {
        !self.until.is_empty() || !self.fail_on.is_empty()
    }

    /// Whether any expression asks the readiness rules, or the run explains itself.
    pub fn needs_judgement(&self) -> bool {
        self.explain
            || self
                .until
                .iter()
                .chain(&self.fail_on)
                .any(Expr::needs_judgement)
    }
}
