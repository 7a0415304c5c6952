//! What the live view reads from the run's one judge: each object's judgement (its children's
//! troubles weighed in) and the verdict that ended the run. The view never judges an object
//! itself: a row and the verdict come from the same judge, so they cannot disagree.
//!
//! The judge lies below the printer: `SharedJudge` implements `Judging`, and the runner hands
//! the view the judge as a `dyn Judging`.

use std::collections::HashMap;
use std::time::SystemTime;

use kw_events::readiness::Judgement;

/// The run's judge, as the live view reads it. Each call takes the judge's lock for a moment;
/// the view never holds its own board while asking (a sink holds the judge, then the board).
pub trait Judging: Send + Sync {
    /// Every judged object's judgement now.
    fn judged(&self) -> Judged;
    /// What ended the run, once something has (`--fail-on failed met by deployment.apps/web
    /// (...)`).
    fn verdict(&self) -> Option<String>;
}

/// An object's place in the view: its context (empty with one context), namespace (empty when
/// cluster-scoped) and name.
pub type ObjectKey = (String, String, String);

/// Every judged object's judgement, by type (group and plural) and object.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct Judged {
    by_type: HashMap<(String, String), HashMap<ObjectKey, Judgement>>,
    /// The objects judged in progress whose failure is pending while a stuck Pod's grace runs.
    failing: HashMap<(String, String), HashMap<ObjectKey, Failing>>,
}

/// A failure pending while a stuck Pod's grace runs (`--fail-grace`): when it falls unless the
/// Pod recovers, and why in short (`CrashLoopBackOff (web)`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Failing {
    pub at: SystemTime,
    pub cause: String,
}

impl Judged {
    /// Note the judgement of the object `name` of type `group`/`plural`.
    pub fn insert(
        &mut self,
        (group, plural): (&str, &str),
        (context, namespace, name): (&str, &str, &str),
        judgement: Judgement,
    ) {
        self.by_type
            .entry((group.to_string(), plural.to_string()))
            .or_default()
            .insert(
                (context.to_string(), namespace.to_string(), name.to_string()),
                judgement,
            );
    }

    /// The judgements of the objects of one type.
    pub fn of_type(&self, group: &str, plural: &str) -> Option<&HashMap<ObjectKey, Judgement>> {
        self.by_type.get(&(group.to_string(), plural.to_string()))
    }

    /// Note that the object `name` of type `group`/`plural` will fail as `failing` says.
    pub fn insert_failing(
        &mut self,
        (group, plural): (&str, &str),
        (context, namespace, name): (&str, &str, &str),
        failing: Failing,
    ) {
        self.failing
            .entry((group.to_string(), plural.to_string()))
            .or_default()
            .insert(
                (context.to_string(), namespace.to_string(), name.to_string()),
                failing,
            );
    }

    /// The pending failures of the objects of one type.
    pub fn failing_of_type(
        &self,
        group: &str,
        plural: &str,
    ) -> Option<&HashMap<ObjectKey, Failing>> {
        self.failing.get(&(group.to_string(), plural.to_string()))
    }
}
