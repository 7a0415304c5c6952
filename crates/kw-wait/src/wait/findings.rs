//! What a judge has found, read by the summary, the report and the live view: kubectl wait's
//! order of the objects and where each stands, the objects a failed wait names, and every
//! object's judgement now. A view over the judge's state, borrowed while its lock is held.

use std::collections::{HashMap, HashSet};

use kw_events::readiness::{Judgement, State};

use super::assessment::Assessment;
use super::expr::Expr;
use super::identity::{GroupResource, Key, Named};
use super::rules::Rules;
use super::verdict::{Reported, Standing, Unmet, Unready};

/// The judge's state, as `Judge::findings` lends it.
pub struct Findings<'j> {
    pub(super) rules: &'j Rules,
    pub(super) objects: &'j HashMap<Key, Assessment>,
    pub(super) met_once: &'j HashSet<Key>,
    pub(super) named_given: &'j [Named],
    pub(super) missing: &'j [(Named, String)],
    pub(super) steps: &'j HashMap<Key, usize>,
}

impl<'j> Findings<'j> {
    /// Every object in kubectl wait's order (`plural/name`, as it names them), each with
    /// whether it has met an `--until` condition: the named ones in the order named (those that
    /// do not exist too), then the others by context, namespace and name.
    pub fn in_order(&self) -> Vec<(String, Standing)> {
        let met = |resource: &GroupResource, name: &str| {
            self.met_once
                .iter()
                .any(|k| k.resource == *resource && k.name == name)
        };
        let standing = |met: bool| if met { Standing::Met } else { Standing::NotMet };
        let mut objects: Vec<(String, Standing)> = self
            .named_given
            .iter()
            .map(|n| {
                let label = format!("{}/{}", n.resource.plural, n.name);
                let missing = self
                    .missing
                    .iter()
                    .find(|(gone, _)| gone.resource == n.resource && gone.name == n.name);
                match missing {
                    Some((_, line)) => (label, Standing::Missing(line.clone())),
                    None => (label, standing(met(&n.resource, &n.name))),
                }
            })
            .collect();
        let mut others: Vec<&Key> = self
            .objects
            .keys()
            .chain(self.met_once)
            .filter(|k| {
                !self
                    .named_given
                    .iter()
                    .any(|n| n.resource == k.resource && n.name == k.name)
            })
            .collect();
        others.sort_by(|a, b| {
            (&a.context, &a.namespace, &a.name).cmp(&(&b.context, &b.namespace, &b.name))
        });
        others.dedup();
        objects.extend(others.into_iter().map(|k| {
            let label = format!("{}/{}", k.resource.plural, k.name);
            (label, standing(self.met_once.contains(k)))
        }));
        objects
    }

    /// Every watched object the readiness rules do not call ready, by label, with its
    /// judgement, sorted by label: what the summary of a failed wait lists.
    pub fn unready(&self) -> Vec<Unready> {
        let mut objects: Vec<Unready> = self
            .objects
            .iter()
            .filter_map(|(key, s)| {
                let judgement = s.judgement.as_ref()?;
                (judgement.state != State::Ready).then(|| Unready {
                    label: s.label.clone(),
                    context: key.context.clone(),
                    viewed: s.viewed,
                    judgement: judgement.clone(),
                })
            })
            .collect();
        objects.sort_by(|a, b| a.label.cmp(&b.label));
        objects
    }

    /// Every watched object that did not meet what was asked, sorted by label, with its
    /// judgement when the rules judged it: none of the `--until` (`--for`) expressions holds
    /// for it; with no `--until`, it is not ready. What the summary of a failed or timed-out
    /// wait names: an object that met the question is never blamed.
    pub fn unmet(&self) -> Vec<Unmet> {
        let mut objects: Vec<Unmet> = self
            .unmet_objects()
            .map(|(key, seen)| Unmet {
                label: seen.label.clone(),
                judgement: seen.judgement.clone(),
                pending: self.pending(key),
            })
            .collect();
        objects.sort_by(|a, b| a.label.cmp(&b.label));
        objects
    }

    /// Under `Rules::sequence` with several conditions: the one `key` was still waiting for,
    /// and those it had met (`condition=Nope=True (condition=Available=True met)`).
    fn pending(&self, key: &Key) -> Option<String> {
        let until = &self.rules.until;
        if !self.rules.sequence || until.len() < 2 {
            return None;
        }
        let step = self.steps.get(key).copied().unwrap_or(0);
        let next = until.get(step)?;
        let met: Vec<String> = until[..step].iter().map(Expr::to_string).collect();
        Some(match met.is_empty() {
            true => next.to_string(),
            false => format!("{next} ({} met)", met.join(" and ")),
        })
    }

    /// The objects `unmet` names, as kubectl wait's order places them (for stdout's cut).
    pub fn not_met(&self) -> Vec<Key> {
        self.unmet_objects().map(|(key, _)| key.clone()).collect()
    }

    fn unmet_objects(&self) -> impl Iterator<Item = (&Key, &Assessment)> {
        self.objects
            .iter()
            .filter(|(key, seen)| match self.rules.until.is_empty() {
                true => seen
                    .judgement
                    .as_ref()
                    .is_some_and(|j| j.state != State::Ready),
                false if self.rules.sequence => !self.met_once.contains(key),
                false => !seen.until.iter().any(|holds| *holds) && !self.met_once.contains(key),
            })
    }

    /// Every object judged, sorted by label, each with whether it met what was asked (with no
    /// `--until`, whether it is ready): what the CI reports list, one case per object.
    pub fn every(&self) -> Vec<Reported> {
        let unmet: HashSet<&Key> = self.unmet_objects().map(|(key, _)| key).collect();
        let mut objects: Vec<Reported> = self
            .objects
            .iter()
            .map(|(key, seen)| Reported {
                key: key.clone(),
                label: seen.label.clone(),
                met: !unmet.contains(key),
                judgement: seen.judgement.clone(),
            })
            .collect();
        objects.sort_by(|a, b| a.label.cmp(&b.label));
        objects
    }

    /// Every watched object's judgement now, its stuck children weighed in (the verdict's own
    /// judgement): what the live view shows, so that a row and the verdict agree.
    pub fn judgements(&self) -> impl Iterator<Item = (&'j Key, &'j Judgement)> {
        self.objects
            .iter()
            .filter_map(|(key, seen)| Some((key, seen.judgement.as_ref()?)))
    }

    /// Every watched object the readiness rules do not call ready, with their judgement
    /// (`deployment.apps/web: in progress: Updated: 1/3`), sorted: what a wait for `ready`
    /// still waits for.
    pub fn not_ready(&self) -> Vec<String> {
        let mut lines: Vec<String> = self
            .objects
            .values()
            .filter_map(|s| {
                let judgement = s.judgement.as_ref()?;
                (judgement.state != State::Ready).then(|| format!("{}: {judgement}", s.label))
            })
            .collect();
        lines.sort_unstable();
        lines
    }
}
