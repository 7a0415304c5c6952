//! The grace a workload's stuck children get (`--fail-grace`): which children are stuck and
//! since when, across short recoveries (a crash loop's running spell between two back-offs is
//! no recovery), the moment each pending failure falls, and what a stuck child makes of its
//! workload's judgement once the grace has passed. A watched Pod is its own child here.
//!
//! One stuck Pod has one clock, whether it is watched itself or counted as a workload's child,
//! and watched Pods of one owner stuck for the same reason (`CrashLoopBackOff (web)`) share
//! one, from the first of them: they are one trouble, so they and their workload fail at the
//! same moment, and every row of the live view agrees with the verdict.

use std::collections::{BTreeMap, HashMap};
use std::time::{Duration, SystemTime};

use serde_json::Value;

use kw_events::readiness::{children, Judgement, State};

use super::identity::Key;
use super::summary::NAMED_OBJECTS;
use super::verdict::Trouble;

#[derive(Debug)]
pub(super) struct Grace {
    /// How long a child may stay stuck before it fails its workload (`Rules::fail_grace`).
    grace: Duration,
    /// Workloads' stuck children, by child label (`pod/web-1`). Only children stuck now are
    /// kept.
    troubles: HashMap<Key, BTreeMap<String, Held>>,
    /// The clocks stuck Pods run on (`Grace::clock_of`): when the first of the Pods on each
    /// began to be stuck. Only clocks some Pod stuck now runs on are kept.
    clocks: HashMap<String, SystemTime>,
    /// The cohort of each watched Pod stuck now, by Pod id (`pod_id`): its owner and reason.
    cohorts: HashMap<String, String>,
    /// The moment each object's pending failure was said to fall (`failing in 25s unless it
    /// recovers`): said again only when that moment changes.
    pending_said: HashMap<Key, SystemTime>,
    /// Children (and watched Pods) that recovered lately: (object, child) → since when they
    /// had been stuck, and when they recovered. Stuck again within the grace, the first moment
    /// counts.
    recovered: HashMap<(Key, String), (SystemTime, SystemTime)>,
    /// Workloads' children found stuck after the verdict (their lists came after it: kw
    /// joined a story that had already failed), by child label: they word its cause
    /// (`Judge::reword`), never change it.
    late: HashMap<Key, BTreeMap<String, Trouble>>,
    /// When a watched Pod's trouble began by its own evidence (on kw's clock), told before
    /// the judge saw the Pod stuck.
    evidence: HashMap<Key, SystemTime>,
}

impl Grace {
    pub(super) fn new(grace: Duration) -> Grace {
        Grace {
            grace,
            troubles: HashMap::new(),
            clocks: HashMap::new(),
            cohorts: HashMap::new(),
            pending_said: HashMap::new(),
            recovered: HashMap::new(),
            late: HashMap::new(),
            evidence: HashMap::new(),
        }
    }

    /// After the verdict: keep (`Some`) or forget (`None`) that `child` of `workload` is stuck,
    /// for the verdict's wording only.
    pub(super) fn note_late(&mut self, workload: &Key, child: &str, trouble: Option<Trouble>) {
        let late = self.late.entry(workload.clone()).or_default();
        match trouble {
            Some(trouble) => {
                let since = late.get(child).map_or(trouble.since, |t| t.since);
                late.insert(child.to_string(), Trouble { since, ..trouble });
            }
            None => {
                late.remove(child);
            }
        }
    }

    /// The child of `workload` that has been stuck the longest among those found after the
    /// verdict.
    pub(super) fn first_late(&self, workload: &Key) -> Option<(&String, &Trouble)> {
        self.late.get(workload)?.iter().min_by_key(|(_, t)| t.since)
    }

    /// What a watched Pod's own evidence says of `trouble` (its start, on kw's clock): it can
    /// only move an earlier start of a trouble already seen, never say the Pod is stuck. Told
    /// before the event that shows the Pod stuck, it is kept for that event (`first_sight`);
    /// `Some` with the trouble to note when the Pod is known stuck.
    pub(super) fn own_evidence(
        &mut self,
        pod: &Key,
        label: &str,
        trouble: Option<Trouble>,
    ) -> Option<Trouble> {
        let Some(known) = self.troubles.get(pod).and_then(|t| t.get(label)) else {
            if let Some(trouble) = trouble {
                self.evidence.insert(pod.clone(), trouble.since);
            }
            return None;
        };
        let known = self.trouble(known);
        let since = trouble.map_or(known.since, |t| t.since.min(known.since));
        Some(Trouble {
            reason: known.reason,
            since,
        })
    }

    /// When a watched Pod, seen now with its own trouble (`stuck`) or without, began to be
    /// stuck: kw's first sight, or the earlier moment its evidence told.
    pub(super) fn first_sight(&mut self, pod: &Key, stuck: bool, now: SystemTime) -> SystemTime {
        let since = self.evidence.get(pod).map_or(now, |at| (*at).min(now));
        if !stuck {
            self.evidence.remove(pod);
        }
        since
    }

    /// Keep (`Some`) or forget (`None`) that `child` of `key` (`key` itself, for a watched
    /// Pod: `child` is then its own label) is stuck, at `now`. The first moment it was seen
    /// stuck counts, however often it is said again, and across a recovery shorter than the
    /// grace.
    pub(super) fn note(
        &mut self,
        key: &Key,
        child: &str,
        trouble: Option<Trouble>,
        now: SystemTime,
    ) {
        let grace = self.grace;
        self.recovered
            .retain(|_, (_, at)| now.duration_since(*at).map_or(true, |d| d < grace));
        let id = (key.clone(), child.to_string());
        match trouble {
            Some(trouble) => {
                let pod = pod_id(key, child);
                let clock = self.clock_of(&pod).to_string();
                let recovered = self.recovered.remove(&id).map(|(since, _)| since);
                let children = self.troubles.entry(key.clone()).or_default();
                // The earliest evidence counts: a Warning event or the Pod's own status may
                // tell of an earlier start than kw's first sight, and so may the same Pod
                // seen as another object's child, or a Pod of its cohort.
                let since = [
                    children.get(child).map(|t| t.since),
                    recovered,
                    self.clocks.get(&clock).copied(),
                ]
                .into_iter()
                .flatten()
                .fold(trouble.since, SystemTime::min);
                children.insert(
                    child.to_string(),
                    Held {
                        reason: trouble.reason,
                        since,
                        pod,
                    },
                );
                self.clocks.insert(clock, since);
            }
            None => {
                // Most events are of Pods that were never stuck: nothing to look up for them.
                let Some(children) = self.troubles.get_mut(key) else {
                    return;
                };
                let Some(was) = children.remove(child) else {
                    return;
                };
                if children.is_empty() {
                    self.troubles.remove(key);
                }
                let clock = self.clock_of(&was.pod).to_string();
                let since = self
                    .clocks
                    .get(&clock)
                    .map_or(was.since, |c| was.since.min(*c));
                self.recovered.insert(id, (since, now));
                self.stop_clock_if_idle(&clock);
            }
        }
    }

    /// A watched Pod (`pod`, seen stuck or not) is of `cohort` (its owner and reason, from
    /// `cohort`) or of none: from now on it runs on its cohort's clock, which starts at the
    /// earliest of its Pods' own.
    pub(super) fn join_cohort(&mut self, pod: &Key, cohort: Option<String>) {
        let id = pod_id(pod, &pod.name);
        let cohort = cohort.map(|c| format!("{}\0{}\0{c}", pod.context, pod.namespace));
        if self.cohorts.get(&id) == cohort.as_ref() {
            return;
        }
        let before = self.clock_of(&id).to_string();
        let started = self.clocks.get(&id).copied();
        match cohort {
            Some(cohort) => {
                if let Some(started) = started {
                    let clock = self.clocks.entry(cohort.clone()).or_insert(started);
                    *clock = (*clock).min(started);
                }
                self.cohorts.insert(id, cohort);
            }
            None => {
                self.cohorts.remove(&id);
            }
        }
        self.stop_clock_if_idle(&before);
    }

    /// The clock the Pod `pod` (a `pod_id`) runs on: its cohort's, or its own.
    fn clock_of<'a>(&'a self, pod: &'a str) -> &'a str {
        self.cohorts.get(pod).map_or(pod, String::as_str)
    }

    /// Forget `clock` once no Pod stuck now runs on it.
    fn stop_clock_if_idle(&mut self, clock: &str) {
        let running = self
            .troubles
            .values()
            .flat_map(BTreeMap::values)
            .any(|held| self.clock_of(&held.pod) == clock);
        if !running {
            self.clocks.remove(clock);
        }
    }

    /// What `held` stands for now: its reason, since the start of the clock it runs on.
    fn trouble(&self, held: &Held) -> Trouble {
        let since = self
            .clocks
            .get(self.clock_of(&held.pod))
            .map_or(held.since, |clock| held.since.min(*clock));
        Trouble {
            reason: held.reason.clone(),
            since,
        }
    }

    /// The stuck children of `key`, each as it stands now.
    fn children_of(&self, key: &Key) -> Option<BTreeMap<&String, Trouble>> {
        let children = self.troubles.get(key)?;
        Some(
            children
                .iter()
                .map(|(child, held)| (child, self.trouble(held)))
                .collect(),
        )
    }

    /// `key` was deleted: nothing of it is kept.
    pub(super) fn forget(&mut self, key: &Key) {
        let clocks: Vec<String> = self
            .troubles
            .remove(key)
            .into_iter()
            .flat_map(BTreeMap::into_values)
            .map(|held| self.clock_of(&held.pod).to_string())
            .collect();
        self.cohorts.remove(&pod_id(key, &key.name));
        for clock in clocks {
            self.stop_clock_if_idle(&clock);
        }
        self.pending_said.remove(key);
        self.evidence.remove(key);
        self.recovered.retain(|(object, _), _| object != key);
    }

    /// The stuck child of `key` that has been stuck the longest, and why.
    pub(super) fn first(&self, key: &Key) -> Option<(&String, Trouble)> {
        self.children_of(key)?
            .into_iter()
            .min_by_key(|(_, t)| t.since)
    }

    /// Whether a child of `key` (or `key` itself) is stuck now.
    pub(super) fn is_stuck(&self, key: &Key) -> bool {
        self.troubles.contains_key(key)
    }

    /// The objects with a stuck child now.
    pub(super) fn stuck(&self) -> impl Iterator<Item = &Key> {
        self.troubles.keys()
    }

    /// Once per deadline: a failure verdict on `key` (labelled `label`, judged in progress) is
    /// pending, and when it falls (`pod/x: CrashLoopBackOff (web): back-off 10s ...; failing
    /// in 30s unless it recovers`), so that a run that goes quiet during the grace says what
    /// it waits for.
    pub(super) fn pending_line(
        &mut self,
        key: &Key,
        label: &str,
        now: SystemTime,
    ) -> Option<String> {
        let (due, child, reason) = self.pending(key, label)?;
        if self.pending_said.get(key) == Some(&due) {
            return None;
        }
        // Bounded as the progress lines are.
        if !self.pending_said.contains_key(key) && self.pending_said.len() >= NAMED_OBJECTS {
            return None;
        }
        let left = due.duration_since(now).ok()?;
        // Whole seconds, rounded up: "failing in 0s" would read as already failed.
        let seconds = left.as_secs() + u64::from(left.subsec_nanos() > 0);
        self.pending_said.insert(key.clone(), due);
        let cause = match child {
            Some(child) => format!("{child}: {reason}"),
            None => reason,
        };
        Some(format!(
            "{label}: {cause}; failing in {seconds}s unless it recovers"
        ))
    }

    /// The failure pending on `key` (labelled `label`), while the grace runs: when it falls,
    /// the child that holds it (none for a watched Pod's own trouble) and why
    /// (`CrashLoopBackOff (web): ...`).
    pub(super) fn pending(
        &self,
        key: &Key,
        label: &str,
    ) -> Option<(SystemTime, Option<String>, String)> {
        if self.grace.is_zero() {
            return None;
        }
        let (child, trouble) = self.first(key)?;
        // A child in a short recovery (a crash loop's running spell) still holds the deadline.
        let since = self
            .recovered
            .iter()
            .filter(|((object, _), _)| object == key)
            .map(|(_, (since, _))| *since)
            .fold(trouble.since, SystemTime::min);
        let child = (child != label).then(|| child.clone());
        Some((since + self.grace, child, trouble.reason))
    }

    /// When the first of `key`'s stuck children has been stuck for the grace.
    pub(super) fn due(&self, key: &Key) -> Option<SystemTime> {
        let (_, first) = self.first(key)?;
        Some(first.since + self.grace)
    }

    /// What `key`'s stuck children make of its judgement at `now` (`label` is its own, as a
    /// child, for a watched Pod), if they change it. A workload not ready whose stuck child
    /// has outlasted the grace has failed, with the child as the reason. A watched Pod that
    /// the readiness rules fail for its own stuck container (`CrashLoopBackOff`) is held in
    /// progress until it has stayed stuck for the grace, as a workload's Pod is.
    pub(super) fn overlaid(
        &self,
        key: &Key,
        label: &str,
        judgement: &Judgement,
        now: SystemTime,
    ) -> Option<Judgement> {
        let children = self.children_of(key)?;
        let due = children
            .iter()
            .filter(|(_, t)| t.since + self.grace <= now)
            .min_by_key(|(_, t)| t.since);
        match (judgement.state, due) {
            (State::Failed, None) if children.keys().any(|child| *child == label) => {
                Some(Judgement {
                    state: State::InProgress,
                    message: judgement.message.clone(),
                })
            }
            (State::InProgress | State::Failed, Some((child, trouble)))
                if child.as_str() == label =>
            {
                Some(Judgement {
                    state: State::Failed,
                    message: trouble.reason.clone(),
                })
            }
            (State::InProgress, Some((child, trouble))) => Some(Judgement {
                state: State::Failed,
                message: format!("{child}: {}", trouble.reason),
            }),
            _ => None,
        }
    }
}

/// A stuck child as kept: its reason, the earliest start seen of its own, and the Pod it is
/// (`pod_id`), whose clock may have started earlier.
#[derive(Debug)]
struct Held {
    reason: String,
    since: SystemTime,
    pod: String,
}

/// The Pod `child` (`pod/x`, or `CONTEXT/pod/x`) of `key` (its workload, or the Pod itself),
/// as one id whichever way it is seen: its context, namespace and name.
fn pod_id(key: &Key, child: &str) -> String {
    let name = child.rsplit('/').next().unwrap_or(child);
    format!("{}\0{}\0{name}", key.context, key.namespace)
}

/// The cohort of a watched Pod stuck for `reason`: its controller (by uid) and the reason's
/// head (`CrashLoopBackOff (web)`, not the back-off that grows; `ErrImagePull` counted as the
/// `ImagePullBackOff` it alternates with); none for a Pod of its own.
pub(super) fn cohort(pod: &Value, reason: &str) -> Option<String> {
    let owner = pod
        .pointer("/metadata/ownerReferences")?
        .as_array()?
        .iter()
        .find(|o| o.get("controller").and_then(Value::as_bool) == Some(true))?;
    let uid = owner.get("uid")?.as_str()?;
    let head = reason.split(':').next().unwrap_or(reason).trim();
    // A failed pull and its back-off are one trouble that the kubelet words in turn.
    let (word, container) = head.split_once(' ').unwrap_or((head, ""));
    let word = match word {
        "ErrImagePull" => "ImagePullBackOff",
        word => word,
    };
    Some(format!("{uid}\0{word} {container}"))
}

/// Whether objects of `resource` are Pods.
pub(super) fn is_pod(resource: &kw_events::events::ResourceInfo) -> bool {
    resource.group.is_empty() && resource.plural == "pods"
}

/// Why a watched Pod is stuck, when it is for a reason the grace covers. An unschedulable Pod
/// is left to the readiness rules' own window, counted from the scheduler's verdict.
pub(super) fn own_trouble(pod: &Value) -> Option<String> {
    children::trouble(pod).filter(|reason| !reason.starts_with("Unschedulable"))
}
