//! What the judge holds of one watched object: whether each condition holds on its latest
//! state, its readiness judgement, and when time alone may change that judgement.

use std::time::SystemTime;

use serde_json::Value;

use kw_events::readiness::{self, Judgement};

use super::expr::Expr;
use super::rules::Rules;

/// The latest state of one watched object: whether each until/fail-on condition holds.
#[derive(Debug)]
pub(super) struct Assessment {
    pub(super) label: String,
    /// kubectl has a status viewer for the object's kind (`Unready::viewed`).
    pub(super) viewed: bool,
    pub(super) until: Vec<bool>,
    /// Why each `until` expression can never be judged on this object, if so.
    pub(super) invalid: Vec<Option<String>>,
    pub(super) fail_on: Vec<bool>,
    /// The readiness rules' judgement, when an expression asks for it.
    pub(super) judgement: Option<Judgement>,
    /// Kept when the judgement changes with time alone, to judge again then.
    pub(super) later: Option<Later>,
}

/// An object whose judgement changes with time alone (a Pod unschedulable for less than the
/// window): judged again at `at` with no event to prompt it.
#[derive(Debug)]
pub(super) struct Later {
    pub(super) at: SystemTime,
    pub(super) group: String,
    pub(super) kind: String,
    pub(super) object: Value,
}

impl Assessment {
    /// Where `object` stands against every expression, judged at `now`.
    pub(super) fn new(
        rules: &Rules,
        label: String,
        group: &str,
        kind: &str,
        object: Option<Value>,
        now: SystemTime,
    ) -> Assessment {
        let judging = rules.needs_judgement();
        let judgement = object
            .as_ref()
            .filter(|_| judging)
            .map(|o| rules.readiness.judge(group, kind, o, now));
        let holds = |e: &Expr| e.holds_for(object.as_ref(), judgement.as_ref());
        let until = rules.until.iter().map(holds).collect();
        let invalid = rules
            .until
            .iter()
            .map(|e| object.as_ref().and_then(|o| e.invalid_for(o)))
            .collect();
        let fail_on = rules.fail_on.iter().map(holds).collect();
        let later = object.filter(|_| judging).and_then(|object| {
            let at = readiness::judge_again_at(group, kind, &object, now)?;
            Some(Later {
                at,
                group: group.to_string(),
                kind: kind.to_string(),
                object,
            })
        });
        Assessment {
            label,
            viewed: readiness::status_viewer::has_viewer(group, kind),
            until,
            invalid,
            fail_on,
            judgement,
            later,
        }
    }

    /// The object, as a message names it for `expr`: with the judgement's message for the
    /// readiness words (`deployment.apps/web (Progress deadline exceeded)`).
    pub(super) fn label_for(&self, expr: &Expr) -> String {
        match (&self.judgement, expr.needs_judgement()) {
            (Some(judgement), true) => format!("{} ({})", self.label, judgement.message),
            _ => self.label.clone(),
        }
    }
}
