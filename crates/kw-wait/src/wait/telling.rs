//! What the judge tells on stderr while a wait runs (`Rules::progress`): each object's change
//! of judgement, once per judgement, bounded per object and in the number of objects; a pending
//! failure's deadline; and, once, the hint that a wait cannot succeed. The lines wait here
//! until the runner takes them.

use std::collections::HashMap;

use kw_events::readiness::{Judgement, State};

use super::identity::Key;
use super::summary::NAMED_OBJECTS;

/// Judgements remembered as said per object: enough for the states a flapping object passes
/// through, bounded for an object whose message changes with every event.
const SAID_PER_OBJECT: usize = 8;

/// `no deployment or pod matches app=typo yet; waiting for one to be created`: what a wait on
/// collections that list nothing waits for, in the words of the one that names an object.
pub(super) fn none_matches(kinds: &[String], selector: Option<&str>) -> String {
    let kinds = match kinds {
        [] => "object".to_string(),
        [one] => one.clone(),
        [init @ .., last] => format!("{} or {last}", init.join(", ")),
    };
    match selector {
        Some(selector) => {
            format!("no {kinds} matches {selector} yet; waiting for one to be created")
        }
        None => format!("no {kinds} exists yet; waiting for one to be created"),
    }
}

#[derive(Debug, Default)]
pub(super) struct Telling {
    /// Lines not yet taken.
    lines: Vec<String>,
    /// The judgements said of each object (the last `SAID_PER_OBJECT`), each said once; of
    /// `NAMED_OBJECTS` objects at most.
    said: HashMap<Key, Vec<Judgement>>,
    /// Objects past `NAMED_OBJECTS` whose progress was not told: said once, in one line.
    untold: bool,
    /// Whether the hint that a wait cannot succeed has been given.
    hinted: bool,
}

impl Telling {
    /// A line for stderr when `judgement` of the object `label` differs from `before` and has
    /// not been said of this object yet: an object that flaps between two states (a crash
    /// loop's Pod, failed and in progress in turn) says each once, not once per event. An
    /// object ready when first seen is no news (a manifest of twenty ConfigMaps would be
    /// twenty lines).
    pub(super) fn change(
        &mut self,
        key: &Key,
        label: &str,
        before: Option<&Judgement>,
        judgement: &Judgement,
    ) {
        let news = match before {
            None => judgement.state != State::Ready,
            Some(before) => before != judgement,
        };
        if !news {
            return;
        }
        if !self.said.contains_key(key) && self.said.len() >= NAMED_OBJECTS {
            if !self.untold {
                self.untold = true;
                self.lines.push(format!(
                    "… and more: the progress of objects past the first {NAMED_OBJECTS} is not told one by one"
                ));
            }
            return;
        }
        let said = self.said.entry(key.clone()).or_default();
        if said.contains(judgement) {
            return;
        }
        if said.len() == SAID_PER_OBJECT {
            said.remove(0);
        }
        said.push(judgement.clone());
        self.lines.push(format!("{label}: {judgement}"));
    }

    /// A line that is news on its own (a pending failure's deadline).
    pub(super) fn line(&mut self, line: String) {
        self.lines.push(line);
    }

    /// Whether the hint that a wait cannot succeed is still to be given.
    pub(super) fn may_hint(&self) -> bool {
        !self.hinted
    }

    /// The hint that a wait cannot succeed, given once.
    pub(super) fn hint(&mut self, line: String) {
        if !std::mem::replace(&mut self.hinted, true) {
            self.lines.push(line);
        }
    }

    /// `key` was deleted: what was said of it is forgotten.
    pub(super) fn forget(&mut self, key: &Key) {
        self.said.remove(key);
    }

    /// The lines since the last call.
    pub(super) fn take(&mut self) -> Vec<String> {
        std::mem::take(&mut self.lines)
    }
}
