//! The judge: the latest state of every watched object, whether each condition holds, and
//! when the watch is over (`Verdict`). Every watcher of a run feeds the one judge; it never talks
//! to the server and knows nothing of formats.

use std::collections::{BTreeMap, HashMap};
use std::fmt;
use std::time::SystemTime;

use serde_json::Value;

use kw_events::events::{Event, Flow, ResourceInfo};
use kw_events::readiness::{self, children, Judgement, State};
use kw_wire::EventType;

use super::expr::{Expr, For};
use super::identity::{GroupResource, Key, Named, NotMet};
use super::rules::Rules;
use super::summary::NAMED_OBJECTS;

/// Judgements remembered as said per object: enough for the states a flapping object passes
/// through, bounded for an object whose message changes with every event.
const SAID_PER_OBJECT: usize = 8;

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

/// The latest state of one watched object: whether each until/fail-on condition holds.
#[derive(Debug)]
struct Assessment {
    label: String,
    /// kubectl has a status viewer for the object's kind (`Unready::viewed`).
    viewed: bool,
    until: Vec<bool>,
    /// Why each `until` expression can never be judged on this object, if so.
    invalid: Vec<Option<String>>,
    fail_on: Vec<bool>,
    /// The readiness rules' judgement, when an expression asks for it.
    judgement: Option<Judgement>,
    /// Kept when the judgement changes with time alone, to judge again then.
    later: Option<Later>,
}

/// An object whose judgement changes with time alone (a Pod unschedulable for less than the
/// window): judged again at `at` with no event to prompt it.
#[derive(Debug)]
struct Later {
    at: SystemTime,
    group: String,
    kind: String,
    object: Value,
}

impl Assessment {
    /// The object, as a message names it for `expr`: with the judgement's message for the
    /// readiness words (`deployment.apps/web (Progress deadline exceeded)`).
    fn label_for(&self, expr: &Expr) -> String {
        match (&self.judgement, expr.needs_judgement()) {
            (Some(judgement), true) => format!("{} ({})", self.label, judgement.message),
            _ => self.label.clone(),
        }
    }
}

/// The shared state of every watcher's condition sink: the objects seen and their conditions.
#[derive(Debug)]
pub struct Judge {
    rules: Rules,
    named: Vec<Named>,
    /// Every object named, in the order named, the missing ones too (`in_order`).
    named_given: Vec<Named>,
    /// The named objects found not to exist, with kubectl's line for each (`not_found`).
    missing: Vec<(Named, String)>,
    /// Watchers (targets) that have not delivered their first complete list yet.
    unsynced: Vec<bool>,
    /// Contexts whose watchers are not known yet (a run over several contexts resolves each
    /// one's types on its own, and a cluster may be down at the start).
    pending_members: usize,
    objects: HashMap<Key, Assessment>,
    /// The type of every object judged, as discovery resolved it: a later watch of one of them
    /// (`kw rollout status -l`) asks for it as it is, not by a name to resolve again.
    resolved: Vec<ResourceInfo>,
    /// Labels of objects deleted since the start, for `delete` under `--for any`.
    deleted: Option<String>,
    printed: u64,
    ended: Option<Verdict>,
    /// The named objects missing after the first lists have been announced.
    announced_missing: bool,
    /// The earliest `Later::at` of the objects (maybe of one since deleted: one scan too many).
    next_tick: Option<SystemTime>,
    /// Changes of judgement not yet reported (`Rules::progress`).
    progress: Vec<String>,
    /// When a watched Pod's trouble began by its own evidence (on kw's clock), told before
    /// this judge saw the Pod stuck.
    evidence: HashMap<Key, SystemTime>,
    /// The readiness rules' judgement of the event last judged, before a stuck Pod's grace
    /// weighs in: what `rollout status` says of it.
    last_judged: Option<Judgement>,
    /// The judgements said of each object (the last `SAID_PER_OBJECT`), each said once; of
    /// `NAMED_OBJECTS` objects at most.
    said: HashMap<Key, Vec<Judgement>>,
    /// Objects past `NAMED_OBJECTS` whose progress was not told: said once, in one line.
    untold: bool,
    /// Workloads' stuck children, by child label (`pod/web-1`): they fail the workload once
    /// stuck for `Rules::fail_grace`. Only children stuck now are kept.
    troubles: HashMap<Key, BTreeMap<String, Trouble>>,
    /// The moment each object's pending failure was said to fall (`failing in 25s unless it
    /// recovers`): said again only when that moment changes.
    pending_said: HashMap<Key, SystemTime>,
    /// Children (and watched Pods) that recovered lately: (object, child) → since when they
    /// had been stuck, and when they recovered. Stuck again within the grace, the first moment
    /// counts: a crash loop's running spell between two back-offs is no recovery.
    recovered: HashMap<(Key, String), (SystemTime, SystemTime)>,
    /// Workloads' children found stuck after the verdict (their lists came after it: kw
    /// joined a story that had already failed), by child label: they word its cause
    /// (`Judge::reword`), never change it.
    late_troubles: HashMap<Key, BTreeMap<String, Trouble>>,
    /// Objects that have met an `--until` condition of their own (been ready, been deleted
    /// under `--until delete`): kubectl wait names each once, then.
    met_once: std::collections::HashSet<Key>,
    /// Under `Rules::sequence`: how many of the `until` conditions each object has met, in
    /// order (kept after a deletion, which may be one of them).
    steps: HashMap<Key, usize>,
    /// How many `until` conditions the last event judged met for its object (`Judge::opened`):
    /// kubectl wait prints the object once for each.
    opened: usize,
    /// The first condition found that can never be judged (`Verdict::Invalid`).
    invalid: Option<String>,
    /// Whether the hint that a wait cannot succeed has been given (`Judge::hint_hopeless`).
    hinted: bool,
}

impl Judge {
    /// A judge for `targets` watchers; `named` lists the objects the user named (empty for
    /// collections and selectors).
    pub fn new(rules: Rules, named: Vec<Named>, targets: usize) -> Judge {
        Judge {
            rules,
            named_given: named.clone(),
            missing: Vec::new(),
            named,
            unsynced: vec![true; targets.max(1)],
            pending_members: 0,
            objects: HashMap::new(),
            resolved: Vec::new(),
            deleted: None,
            printed: 0,
            ended: None,
            announced_missing: false,
            next_tick: None,
            progress: Vec::new(),
            said: HashMap::new(),
            untold: false,
            last_judged: None,
            evidence: HashMap::new(),
            troubles: HashMap::new(),
            pending_said: HashMap::new(),
            recovered: HashMap::new(),
            late_troubles: HashMap::new(),
            met_once: std::collections::HashSet::new(),
            steps: HashMap::new(),
            opened: 0,
            invalid: None,
            hinted: false,
        }
    }

    /// A judge for a run over `contexts` contexts, each of which says what it watches once it
    /// knows (`member_resolved`).
    pub fn for_contexts(rules: Rules, contexts: usize) -> Judge {
        Judge {
            unsynced: Vec::new(),
            pending_members: contexts,
            ..Judge::new(rules, Vec::new(), 0)
        }
    }

    /// A context of the run knows its watchers: `watchers` of them, expecting `named`. Returns
    /// the index of its first watcher (for `ConditionSink::new`). A context that watches
    /// nothing (it lacks the type, or was dropped) passes 0.
    pub fn member_resolved(&mut self, named: Vec<Named>, watchers: usize) -> usize {
        self.pending_members = self.pending_members.saturating_sub(1);
        self.named_given.extend(named.iter().cloned());
        self.named.extend(named);
        let first = self.unsynced.len();
        self.unsynced.extend(std::iter::repeat_n(true, watchers));
        first
    }

    /// Whether the run can still decide on its own (for a context that has failed: with `--for
    /// all` nothing can be said about every object any more).
    pub fn needs_every_context(&self) -> bool {
        self.rules.mode == For::All && !self.rules.until.is_empty()
    }

    /// Whether something has ended the watch.
    pub(super) fn has_ended(&self) -> bool {
        self.ended.is_some()
    }

    /// What ended the watch, once something has.
    pub fn ended(&self) -> Option<Verdict> {
        self.ended.clone()
    }

    /// After the first complete lists, once: the named objects that do not exist (yet).
    pub(super) fn newly_missing(&mut self) -> Vec<String> {
        if self.announced_missing || !self.all_synced() {
            return Vec::new();
        }
        self.announced_missing = true;
        self.named
            .iter()
            .filter(|n| !self.has_seen(n))
            .map(|n| n.label.clone())
            .collect()
    }

    /// Keep a decision; every sink stops from now on.
    pub(super) fn record(&mut self, decided: Option<Verdict>) -> Flow {
        match decided {
            Some(ended) => {
                self.ended = Some(ended);
                Flow::Stop
            }
            None => Flow::Continue,
        }
    }

    /// Note one printed event; `Some` when the watch is over.
    pub(super) fn event(&mut self, event: &Event<'_>) -> Option<Verdict> {
        self.printed += 1;
        self.opened = 0;
        self.last_judged = None;
        if self.rules.has_conditions() {
            let key = Key::of(event);
            if self.arrived_late(&key) {
                // kubectl waits on what its first list found, and on nothing that came after.
                return None;
            }
            if self.resolved(&key.resource).is_none() {
                self.resolved.push(event.resource.clone());
            }
            let label = match event.context {
                Some(context) => format!(
                    "{context}/{}/{}",
                    kw_events::events::kind_prefix(&event.resource.kind, &event.resource.group),
                    event.name
                ),
                None => format!(
                    "{}/{}",
                    kw_events::events::kind_prefix(&event.resource.kind, &event.resource.group),
                    event.name
                ),
            };
            if event.kind == EventType::Deleted {
                if self.rules.sequence {
                    self.opened = self.step_deleted(&key);
                } else if self.rules.until.contains(&Expr::Delete) {
                    self.opened = usize::from(self.met_once.insert(key.clone()));
                }
                self.objects.remove(&key);
                self.troubles.remove(&key);
                self.pending_said.remove(&key);
                self.said.remove(&key);
                self.evidence.remove(&key);
                self.recovered.retain(|(object, _), _| *object != key);
                self.deleted = Some(label);
            } else {
                let parsed: Option<Value> = if self.rules.needs_object() {
                    kw_events::decode::value(event.object.get()).ok()
                } else {
                    None
                };
                let now = SystemTime::now();
                // A watched Pod's own stuck container is held to the grace as a workload's
                // child is: the same rule for every object.
                if self.guards_pods() && is_pod(event.resource) {
                    let reason = parsed.as_ref().and_then(own_trouble);
                    // Kw's first sight; the Pod's own evidence, read on the server's clock,
                    // may come to move it earlier (`child_trouble`).
                    let since = self.evidence.get(&key).map_or(now, |at| (*at).min(now));
                    if reason.is_none() {
                        self.evidence.remove(&key);
                    }
                    let trouble = reason.map(|reason| Trouble { reason, since });
                    self.note_trouble(&key, &label, trouble, now);
                }
                let mut seen = self.assess(
                    label,
                    &event.resource.group,
                    &event.resource.kind,
                    parsed,
                    now,
                );
                self.last_judged = seen.judgement.clone();
                self.overlay(&key, &mut seen, now);
                if let Some(later) = &seen.later {
                    self.next_tick = Some(self.next_tick.map_or(later.at, |t| t.min(later.at)));
                }
                if let Some(due) = self.trouble_due(&key).filter(|due| *due > now) {
                    self.next_tick = Some(self.next_tick.map_or(due, |t| t.min(due)));
                }
                let before = self.objects.get(&key).and_then(|s| s.judgement.clone());
                self.say_change(&key, before.as_ref(), &seen);
                self.hint_hopeless(&key, &seen);
                if let Some(line) = self.pending_line(&key, &seen, now) {
                    self.progress.push(line);
                }
                if self.rules.sequence {
                    self.opened = self.step(&key, &seen);
                } else {
                    if let Some(invalid) = seen.invalid.iter().flatten().next() {
                        self.invalid.get_or_insert_with(|| invalid.clone());
                    }
                    if seen.until.iter().any(|holds| *holds) {
                        self.opened = usize::from(self.met_once.insert(key.clone()));
                    }
                }
                self.objects.insert(key, seen);
            }
        }
        if let Some(ended) = self.decide() {
            return Some(ended);
        }
        match self.rules.max_events {
            Some(n) if self.printed >= n => Some(Verdict::MaxEvents(n)),
            _ => None,
        }
    }

    /// Where `object` stands against every expression, judged at `now`.
    fn assess(
        &self,
        label: String,
        group: &str,
        kind: &str,
        object: Option<Value>,
        now: SystemTime,
    ) -> Assessment {
        let judging = self.rules.needs_judgement();
        let judgement = object
            .as_ref()
            .filter(|_| judging)
            .map(|o| self.rules.readiness.judge(group, kind, o, now));
        let holds = |e: &Expr| e.holds_for(object.as_ref(), judgement.as_ref());
        let until = self.rules.until.iter().map(holds).collect();
        let invalid = self
            .rules
            .until
            .iter()
            .map(|e| object.as_ref().and_then(|o| e.invalid_for(o)))
            .collect();
        let fail_on = self.rules.fail_on.iter().map(holds).collect();
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

    /// Judge again, at `now`, the objects whose judgement changes with time alone (a Pod
    /// unschedulable for longer than the window has failed); `Some` when that ends the watch.
    /// Every sink does this at each checkpoint; a runner may also call it on a timer, at
    /// [`Judge::next_tick`], so that no event is needed.
    pub fn tick(&mut self, now: SystemTime) -> Option<Verdict> {
        if self.ended.is_some() || self.next_tick.is_none_or(|at| at > now) {
            return None;
        }
        let due: Vec<Key> = self
            .objects
            .iter()
            .filter(|(key, s)| {
                s.later.as_ref().is_some_and(|l| l.at <= now)
                    || self.trouble_due(key).is_some_and(|due| due <= now)
            })
            .map(|(key, _)| key.clone())
            .collect();
        for key in due {
            let Some(seen) = self.objects.remove(&key) else {
                continue;
            };
            let before = seen.judgement.clone();
            let mut fresh = match seen.later {
                Some(later) if later.at <= now => self.assess(
                    seen.label,
                    &later.group,
                    &later.kind,
                    Some(later.object),
                    now,
                ),
                later => Assessment { later, ..seen },
            };
            self.overlay(&key, &mut fresh, now);
            self.say_change(&key, before.as_ref(), &fresh);
            self.hint_hopeless(&key, &fresh);
            self.objects.insert(key, fresh);
        }
        self.next_tick = self.earliest_tick(now);
        let decided = self.decide();
        if let Some(ended) = &decided {
            self.ended = Some(ended.clone());
        }
        decided
    }

    /// A child of workload `workload` (a Pod of its current revision, `child` as
    /// `pod/web-1`) is stuck since `trouble.since`, or (`None`) no longer is, or is gone. Once
    /// a child has stayed stuck for `Rules::fail_grace` the workload, if not ready, is judged
    /// failed with the child and its reason as the message; `Some` when that ends the watch
    /// (with a grace of 0 it may, at once). Later, [`Judge::tick`] does it when the grace ends.
    pub fn child_trouble(
        &mut self,
        workload: &Key,
        child: &str,
        trouble: Option<Trouble>,
        now: SystemTime,
    ) -> Option<Verdict> {
        if self.ended.is_some() {
            let late = self.late_troubles.entry(workload.clone()).or_default();
            match trouble {
                Some(trouble) => {
                    let since = late.get(child).map_or(trouble.since, |t| t.since);
                    late.insert(child.to_string(), Trouble { since, ..trouble });
                }
                None => {
                    late.remove(child);
                }
            }
            return None;
        }
        let own = self
            .objects
            .get(workload)
            .is_some_and(|seen| seen.label == child);
        if own {
            // A watched Pod's own trouble comes and goes with its events, judged here; what
            // its evidence tells can only move an earlier start, never say it is stuck. It may
            // come before the event that shows the Pod stuck: kept for that event, then.
            let Some(known) = self.troubles.get(workload).and_then(|t| t.get(child)) else {
                if let Some(trouble) = trouble {
                    self.evidence.insert(workload.clone(), trouble.since);
                }
                return None;
            };
            let since = trouble.map_or(known.since, |t| t.since.min(known.since));
            let reason = known.reason.clone();
            self.note_trouble(workload, child, Some(Trouble { reason, since }), now);
        } else {
            self.note_trouble(workload, child, trouble, now);
        }
        if let Some(mut seen) = self.objects.remove(workload) {
            let before = seen.judgement.clone();
            self.overlay(workload, &mut seen, now);
            self.say_change(workload, before.as_ref(), &seen);
            self.hint_hopeless(workload, &seen);
            if let Some(line) = self.pending_line(workload, &seen, now) {
                self.progress.push(line);
            }
            self.objects.insert(workload.clone(), seen);
        }
        self.next_tick = self.earliest_tick(now);
        let decided = self.decide();
        if let Some(ended) = &decided {
            self.ended = Some(ended.clone());
        }
        decided
    }

    /// Whether stuck Pods are held to the grace: only `--fail-on failed` asks for it.
    fn guards_pods(&self) -> bool {
        self.rules.fail_on.contains(&Expr::Failed)
    }

    /// Keep (`Some`) or forget (`None`) that `child` of `key` (`key` itself, for a watched
    /// Pod: `child` is then its own label) is stuck, at `now`. The first moment it was seen
    /// stuck counts, however often it is said again, and across a recovery shorter than the
    /// grace.
    fn note_trouble(&mut self, key: &Key, child: &str, trouble: Option<Trouble>, now: SystemTime) {
        let grace = self.rules.fail_grace;
        self.recovered
            .retain(|_, (_, at)| now.duration_since(*at).map_or(true, |d| d < grace));
        let id = (key.clone(), child.to_string());
        match trouble {
            Some(trouble) => {
                let recovered = self.recovered.remove(&id).map(|(since, _)| since);
                let children = self.troubles.entry(key.clone()).or_default();
                // The earliest evidence counts: a Warning event or the Pod's own status may
                // tell of an earlier start than kw's first sight.
                let since = [children.get(child).map(|t| t.since), recovered]
                    .into_iter()
                    .flatten()
                    .fold(trouble.since, SystemTime::min);
                children.insert(
                    child.to_string(),
                    Trouble {
                        reason: trouble.reason,
                        since,
                    },
                );
            }
            None => {
                if let Some(children) = self.troubles.get_mut(key) {
                    if let Some(was) = children.remove(child) {
                        self.recovered.insert(id, (was.since, now));
                    }
                    if children.is_empty() {
                        self.troubles.remove(key);
                    }
                }
            }
        }
    }

    /// The stuck child of `key` that has been stuck the longest, and why.
    fn first_trouble(&self, key: &Key) -> Option<(&String, &Trouble)> {
        self.troubles.get(key)?.iter().min_by_key(|(_, t)| t.since)
    }

    /// Once per deadline: a failure verdict on `key` is pending, and when it falls
    /// (`pod/x: CrashLoopBackOff (web): back-off 10s ...; failing in 30s unless it recovers`),
    /// so that a run that goes quiet during the grace says what it waits for.
    fn pending_line(&mut self, key: &Key, seen: &Assessment, now: SystemTime) -> Option<String> {
        if !self.rules.progress || self.rules.fail_grace.is_zero() {
            return None;
        }
        if seen.judgement.as_ref()?.state != State::InProgress {
            return None;
        }
        let (child, trouble) = self.first_trouble(key)?;
        // A child in a short recovery (a crash loop's running spell) still holds the deadline.
        let since = self
            .recovered
            .iter()
            .filter(|((object, _), _)| object == key)
            .map(|(_, (since, _))| *since)
            .fold(trouble.since, SystemTime::min);
        let due = since + self.rules.fail_grace;
        if self.pending_said.get(key) == Some(&due) {
            return None;
        }
        // Bounded as the progress lines are (`say_change`).
        if !self.pending_said.contains_key(key) && self.pending_said.len() >= NAMED_OBJECTS {
            return None;
        }
        let left = due.duration_since(now).ok()?;
        // Whole seconds, rounded up: "failing in 0s" would read as already failed.
        let seconds = left.as_secs() + u64::from(left.subsec_nanos() > 0);
        let line = if *child == seen.label {
            format!(
                "{}: {}; failing in {seconds}s unless it recovers",
                seen.label, trouble.reason
            )
        } else {
            format!(
                "{}: {child}: {}; failing in {seconds}s unless it recovers",
                seen.label, trouble.reason
            )
        };
        self.pending_said.insert(key.clone(), due);
        Some(line)
    }

    /// When the first of `key`'s stuck children has been stuck for the grace.
    fn trouble_due(&self, key: &Key) -> Option<SystemTime> {
        let children = self.troubles.get(key)?;
        let since = children.values().map(|t| t.since).min()?;
        Some(since + self.rules.fail_grace)
    }

    /// The next moment a judgement may change with time alone, after `now`.
    fn earliest_tick(&self, now: SystemTime) -> Option<SystemTime> {
        let later = self
            .objects
            .values()
            .filter_map(|s| s.later.as_ref().map(|l| l.at));
        let troubles = self
            .troubles
            .keys()
            .filter(|key| self.objects.contains_key(*key))
            .filter_map(|key| self.trouble_due(key))
            .filter(|due| *due > now);
        later.chain(troubles).min()
    }

    /// A workload not ready whose stuck child has outlasted the grace has failed, with the child
    /// as the reason (only where `--fail-on failed` asks: nothing else needs the verdict).
    /// A watched Pod that the readiness rules fail for its own stuck container
    /// (`CrashLoopBackOff`) is held in progress until it has stayed stuck for the grace, as a
    /// workload's Pod is.
    fn overlay(&self, key: &Key, seen: &mut Assessment, now: SystemTime) {
        if !self.guards_pods() {
            return;
        }
        let Some(judgement) = &seen.judgement else {
            return;
        };
        let Some(children) = self.troubles.get(key) else {
            return;
        };
        let due = children
            .iter()
            .filter(|(_, t)| t.since + self.rules.fail_grace <= now)
            .min_by_key(|(_, t)| t.since);
        let judgement = match (judgement.state, due) {
            (State::Failed, None) if children.contains_key(&seen.label) => Judgement {
                state: State::InProgress,
                message: judgement.message.clone(),
            },
            (State::InProgress | State::Failed, Some((child, trouble))) if *child == seen.label => {
                Judgement {
                    state: State::Failed,
                    message: trouble.reason.clone(),
                }
            }
            (State::InProgress, Some((child, trouble))) => Judgement {
                state: State::Failed,
                message: format!("{child}: {}", trouble.reason),
            },
            _ => return,
        };
        for (expr, holds) in self.rules.until.iter().zip(seen.until.iter_mut()) {
            if expr.needs_judgement() {
                *holds = expr.holds_for(None, Some(&judgement));
            }
        }
        for (expr, holds) in self.rules.fail_on.iter().zip(seen.fail_on.iter_mut()) {
            if expr.needs_judgement() {
                *holds = expr.holds_for(None, Some(&judgement));
            }
        }
        seen.judgement = Some(judgement);
    }

    /// A line for stderr when `seen`'s judgement differs from `before` and has not been said
    /// of this object yet: an object that flaps between two states (a crash loop's Pod,
    /// failed and in progress in turn) says each once, not once per event. An object ready
    /// when first seen is no news (a manifest of twenty ConfigMaps would be twenty lines).
    fn say_change(&mut self, key: &Key, before: Option<&Judgement>, seen: &Assessment) {
        let Some(judgement) = seen.judgement.as_ref() else {
            return;
        };
        let news = match before {
            None => judgement.state != State::Ready,
            Some(before) => before != judgement,
        };
        if !self.rules.progress || !news {
            return;
        }
        if !self.said.contains_key(key) && self.said.len() >= NAMED_OBJECTS {
            if !self.untold {
                self.untold = true;
                self.progress.push(format!(
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
        self.progress.push(format!("{}: {judgement}", seen.label));
    }

    /// Under `Rules::sequence`: the conditions `seen` meets from its object's next one on, in
    /// order, each counted; how many (kubectl wait prints the object once for each). The
    /// first that can never be judged on it ends the run (`Verdict::Invalid`), as kubectl fails
    /// on it.
    fn step(&mut self, key: &Key, seen: &Assessment) -> usize {
        let step = self.steps.entry(key.clone()).or_insert(0);
        let mut met = 0;
        while *step < self.rules.until.len() {
            if let Some(invalid) = &seen.invalid[*step] {
                self.invalid.get_or_insert_with(|| invalid.clone());
                break;
            }
            if !seen.until[*step] {
                break;
            }
            *step += 1;
            met += 1;
        }
        if *step == self.rules.until.len() && met > 0 {
            self.met_once.insert(key.clone());
        }
        met
    }

    /// Under `Rules::sequence`: the object is deleted. A `delete` it was waiting for is met,
    /// and a `create` after it too (kubectl holds the object it found at the start); the rest
    /// is given up, as kubectl does.
    fn step_deleted(&mut self, key: &Key) -> usize {
        let step = self.steps.entry(key.clone()).or_insert(0);
        let mut met = 0;
        while let Some(Expr::Delete | Expr::Create) = self.rules.until.get(*step) {
            *step += 1;
            met += 1;
        }
        // The condition after a met `delete` starts on an object that is gone: kubectl ignores
        // that "not found" (it does whenever `delete` is among the conditions) and is done
        // with the object, silently. A deletion while another condition is waited on is no
        // news to that wait: it runs out of time.
        if met > 0 && *step < self.rules.until.len() {
            *step = self.rules.until.len();
        }
        if *step == self.rules.until.len() && met > 0 {
            self.met_once.insert(key.clone());
        }
        met
    }

    /// Under `Rules::sequence` (kubectl wait) over a selector or `--all`: whether `key` is an
    /// object first seen after every first list had come, which kubectl never waits on.
    fn arrived_late(&self, key: &Key) -> bool {
        self.rules.sequence
            && self.named.is_empty()
            && self.all_synced()
            && !self.objects.contains_key(key)
            && !self.steps.contains_key(key)
    }

    /// Under `Rules::sequence`, once every list has come: whether every object has met every
    /// condition in turn. A named object that does not exist is done only when the first
    /// condition is its deletion (and it need not be created first); a selector that found
    /// nothing is done only under `delete`.
    fn sequence_done(&self) -> Option<String> {
        if !self.all_synced() {
            return None;
        }
        let until = &self.rules.until;
        let done = |key: &Key| self.steps.get(key) == Some(&until.len());
        let absent_is_done = until.first() == Some(&Expr::Delete) && !until.contains(&Expr::Create);
        for named in &self.named {
            if self.has_seen(named) {
                continue;
            }
            // Seen before: done only if its conditions are; never seen: only if absence is.
            let seen_before = self.steps.keys().find(|key| named.is(key));
            let finished = seen_before.map_or(absent_is_done, &done);
            if !finished {
                return None;
            }
        }
        let nothing = self.objects.is_empty() && self.named.is_empty() && self.met_once.is_empty();
        if nothing && !until.contains(&Expr::Delete) {
            return None;
        }
        if !self.objects.keys().all(done) {
            return None;
        }
        Some(match (self.objects.iter().next(), self.objects.len()) {
            (Some((_, one)), 1) => one.label.clone(),
            (_, 0) => self.named_label(),
            (_, many) => format!("all {many} objects"),
        })
    }

    /// Whether the run's commentary is wanted on stderr (not under `-q`).
    pub(super) fn says_progress(&self) -> bool {
        self.rules.progress
    }

    /// kubectl wait's conditions without `--fail-on failed`: once an object the wait still
    /// needs has failed by the readiness rules (a progress deadline, a failed Job, a Pod stuck
    /// past `--fail-grace`), say once, at that moment, that the wait runs on to `--timeout` as
    /// kubectl's does, and which flag would end it now. Said under `-q` too: it is the one
    /// line that saves the timeout.
    fn hint_hopeless(&mut self, key: &Key, seen: &Assessment) {
        // Per event: the cheap answers first; the rules are read only for a failed object.
        if self.hinted || !self.rules.sequence {
            return;
        }
        let Some(judgement) = seen.judgement.as_ref().filter(|j| j.state == State::Failed) else {
            return;
        };
        let waits_on_state = self
            .rules
            .until
            .iter()
            .any(|e| matches!(e, Expr::Condition { .. } | Expr::JsonPath { .. }));
        if !waits_on_state
            || self.rules.fail_on.contains(&Expr::Failed)
            || self.met_once.contains(key)
        {
            return;
        }
        self.hinted = true;
        self.progress.push(format!(
            "{} has failed ({}): this wait runs on until --timeout, as kubectl's does; --fail-on failed ends it now (exit 2)",
            seen.label, judgement.message
        ));
    }

    /// The changes of judgement since the last call (`deployment.apps/web: in progress:
    /// Updated: 1/3`), for stderr.
    pub fn take_progress(&mut self) -> Vec<String> {
        std::mem::take(&mut self.progress)
    }

    /// The readiness rules' judgement of the event just judged (`last_judged`).
    pub(super) fn last_judged(&self) -> Option<&Judgement> {
        self.last_judged.as_ref()
    }

    /// How many times kubectl wait prints the object of the event just judged: once when it
    /// first meets an `--until` condition; under `Rules::sequence`, once per condition met.
    pub(super) fn opened(&self) -> usize {
        self.opened
    }

    /// When [`Judge::tick`] next has an object to judge again, if ever.
    pub fn next_tick(&self) -> Option<SystemTime> {
        // Once decided, nothing is judged again (and a runner's timer must not spin on a past
        // moment while the watchers stop).
        self.next_tick.filter(|_| self.ended.is_none())
    }

    /// Under `Rules::sequence` (kubectl wait): the named object of watcher `index` does not
    /// exist. kubectl says so and goes on to the next object: the wait no longer needs it.
    /// `line` is kubectl's for it (`Error from server (NotFound): ...`).
    pub(super) fn not_found(
        &mut self,
        index: usize,
        resource: &ResourceInfo,
        name: &str,
        line: String,
    ) -> Option<Verdict> {
        if let Some(flag) = self.unsynced.get_mut(index) {
            *flag = false;
        }
        let gone = Named::new(resource, None, name);
        self.missing.push((gone.clone(), line));
        self.named
            .retain(|n| !(n.resource == gone.resource && n.name == gone.name));
        let decided = self.decide();
        let _ = self.record(decided.clone());
        decided
    }

    /// Whether a named object that does not exist is passed over (kubectl wait) rather than
    /// failing the run at once.
    pub(super) fn goes_past_missing(&self) -> bool {
        self.rules.sequence
    }

    /// Watcher `index` delivered a complete list.
    pub(super) fn synced(&mut self, index: usize) -> Option<Verdict> {
        if let Some(flag) = self.unsynced.get_mut(index) {
            *flag = false;
        }
        self.decide()
    }

    fn all_synced(&self) -> bool {
        self.pending_members == 0 && !self.unsynced.iter().any(|u| *u)
    }

    /// `--fail-on` first (a failure outranks a success seen at the same moment), then `--until`.
    fn decide(&self) -> Option<Verdict> {
        if let Some(invalid) = &self.invalid {
            return Some(Verdict::Invalid(invalid.clone()));
        }
        for (i, expr) in self.rules.fail_on.iter().enumerate() {
            // One object failing fails the run, whatever --for says.
            if let Some(by) = self.met(expr, i, For::Any, |s| &s.fail_on) {
                return Some(Verdict::FailOn {
                    expr: expr.clone(),
                    by,
                });
            }
        }
        if self.rules.sequence {
            return self.sequence_done().map(|by| Verdict::Until {
                expr: self.asked(" and "),
                by,
            });
        }
        for (i, expr) in self.rules.until.iter().enumerate() {
            if let Some(by) = self.met(expr, i, self.rules.mode, |s| &s.until) {
                return Some(Verdict::Until {
                    expr: expr.to_string(),
                    by,
                });
            }
        }
        None
    }

    /// Whether `expr` (number `i` in its list) is met under `mode`; the object(s) that met it.
    fn met(
        &self,
        expr: &Expr,
        i: usize,
        mode: For,
        holds: impl Fn(&Assessment) -> &Vec<bool>,
    ) -> Option<String> {
        let synced = self.all_synced();
        if *expr == Expr::Nothing {
            let nothing = synced
                && self.objects.is_empty()
                && self.named.is_empty()
                && self.deleted.is_none()
                && self.met_once.is_empty();
            return nothing.then(|| "no matching resources found".to_string());
        }
        if *expr == Expr::Delete {
            return match mode {
                // Until the first list, an absent object may only not have been listed yet.
                For::All if synced && self.objects.is_empty() => {
                    Some(self.deleted.clone().unwrap_or_else(|| self.named_label()))
                }
                For::All => None,
                For::Any => self.deleted.clone().or_else(|| {
                    self.missing_named()
                        .filter(|_| synced)
                        .map(|n| n.name.clone())
                }),
            };
        }
        match mode {
            For::Any => self
                .objects
                .iter()
                .find(|(_, s)| holds(s).get(i).copied().unwrap_or(false))
                .map(|(key, s)| self.verdict_label(key, s, expr)),
            For::All => {
                if !synced || self.objects.is_empty() || self.missing_named().is_some() {
                    return None;
                }
                let every = self
                    .objects
                    .values()
                    .all(|s| holds(s).get(i).copied().unwrap_or(false));
                every.then(|| self.everyone_label(expr))
            }
        }
    }

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
            .chain(&self.met_once)
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

    /// A named object that has not been seen (does not exist).
    fn missing_named(&self) -> Option<&Named> {
        self.named.iter().find(|n| !self.has_seen(n))
    }

    fn has_seen(&self, named: &Named) -> bool {
        self.objects.keys().any(|k| named.is(k))
    }

    fn named_label(&self) -> String {
        match self.named.as_slice() {
            [one] => one.name.clone(),
            [] => "every watched object".into(),
            many => format!("all {} named objects", many.len()),
        }
    }

    fn everyone_label(&self, expr: &Expr) -> String {
        match self.objects.iter().collect::<Vec<_>>().as_slice() {
            [(key, one)] => self.verdict_label(key, one, expr),
            many => format!("all {} objects", many.len()),
        }
    }

    /// The object as the verdict names it: with its judgement's message for the readiness
    /// words, and, when it failed for a reason of its own (`Progress deadline exceeded`) while
    /// a Pod of it is stuck, with that Pod's cause too, the one a reader acts on
    /// (`...; pod/web-1: ImagePullBackOff (web): Back-off pulling image "x"`).
    fn verdict_label(&self, key: &Key, seen: &Assessment, expr: &Expr) -> String {
        let plain = seen.label_for(expr);
        let Some(judgement) = seen.judgement.as_ref().filter(|_| expr.needs_judgement()) else {
            return plain;
        };
        let Some((child, trouble)) = self.first_trouble(key) else {
            return plain;
        };
        if judgement.state != State::Failed || judgement.message.contains(&trouble.reason) {
            return plain;
        }
        format!(
            "{} ({}; {child}: {})",
            seen.label, judgement.message, trouble.reason
        )
    }

    /// The verdict, its cause worded again with what was learnt after it: a workload that
    /// failed for a reason of its own (`Progress deadline exceeded`) on its first list, before
    /// the lists of its Pods, is named with its stuck Pod's cause once they have come, as it
    /// would have been had kw watched from the start. A verdict whose cause was known (a stuck
    /// child then, or a Pod's own) stays as it was; so does every other verdict.
    pub fn reword(&mut self) -> Option<Verdict> {
        let Some(Verdict::FailOn { expr, by }) = &self.ended else {
            return self.ended.clone();
        };
        let at = self.rules.fail_on.iter().position(|e| e == expr);
        let found = at.and_then(|at| {
            let expr = &self.rules.fail_on[at];
            self.objects.iter().find(|(key, seen)| {
                seen.fail_on.get(at).copied().unwrap_or(false)
                    && *by == seen.label_for(expr)
                    && !self.troubles.contains_key(*key)
            })
        });
        let Some((key, seen)) = found else {
            return self.ended.clone();
        };
        let judgement = seen.judgement.as_ref().filter(|j| j.state == State::Failed);
        let child = self
            .late_troubles
            .get(key)
            .and_then(|children| children.iter().min_by_key(|(_, t)| t.since));
        let (Some(judgement), Some((child, trouble))) = (judgement, child) else {
            return self.ended.clone();
        };
        if judgement.message.contains(&trouble.reason) {
            return self.ended.clone();
        }
        let reworded = Verdict::FailOn {
            expr: expr.clone(),
            by: format!(
                "{} ({}; {child}: {})",
                seen.label, judgement.message, trouble.reason
            ),
        };
        self.ended = Some(reworded.clone());
        Some(reworded)
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
    pub fn not_met(&self) -> Vec<NotMet> {
        self.unmet_objects()
            .map(|(key, _)| NotMet {
                group: key.resource.group.clone(),
                plural: key.resource.plural.clone(),
                context: key.context.clone(),
                namespace: key.namespace.clone(),
                name: key.name.clone(),
            })
            .collect()
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

    /// What was asked, when it is not readiness (`condition=Ready=True`): the summary says it
    /// of an object that did not meet it while the readiness rules call it ready.
    pub fn question(&self) -> Option<String> {
        let joiner = if self.rules.sequence { " and " } else { " or " };
        (!self.rules.until.is_empty() && !self.rules.until.contains(&Expr::Ready))
            .then(|| self.asked(joiner))
    }

    /// The `until` conditions, as typed, joined.
    fn asked(&self, joiner: &str) -> String {
        let asked: Vec<String> = self.rules.until.iter().map(Expr::to_string).collect();
        asked.join(joiner)
    }

    /// The type of objects judged of `resource`, as discovery resolved it.
    pub fn resolved(&self, resource: &GroupResource) -> Option<&ResourceInfo> {
        self.resolved
            .iter()
            .find(|r| r.plural == resource.plural && r.group == resource.group)
    }

    /// Every watched object's judgement now, its stuck children weighed in (the verdict's own
    /// judgement): what the live view shows, so that a row and the verdict agree.
    pub fn judgements(&self) -> impl Iterator<Item = (&Key, &Judgement)> {
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

/// Whether objects of `resource` are Pods.
fn is_pod(resource: &kw_events::events::ResourceInfo) -> bool {
    resource.group.is_empty() && resource.plural == "pods"
}

/// Why a watched Pod is stuck, when it is for a reason the grace covers. An unschedulable Pod
/// is left to the readiness rules' own window, counted from the scheduler's verdict.
fn own_trouble(pod: &Value) -> Option<String> {
    children::trouble(pod).filter(|reason| !reason.starts_with("Unschedulable"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use kw_events::events::{Origin, ResourceInfo};
    use serde_json::json;
    use serde_json::value::RawValue;
    use std::time::Duration;

    fn parse(text: &str) -> Expr {
        Expr::parse("--until", text).unwrap()
    }

    fn resource() -> ResourceInfo {
        ResourceInfo {
            plural: "pods".into(),
            singular: "pod".into(),
            kind: "Pod".into(),
            group: String::new(),
            version: "v1".into(),
            namespaced: true,
        }
    }

    /// Feed events (kind, name, phase) to a judge; returns what ended it, and when.
    fn feed(judge: &mut Judge, steps: &[(&str, &str, &str)]) -> Option<(usize, Verdict)> {
        let resource = resource();
        for (i, (kind, name, phase)) in steps.iter().enumerate() {
            if *kind == "SYNC" {
                if let Some(e) = judge.synced(0) {
                    return Some((i, e));
                }
                continue;
            }
            let text =
                json!({"metadata": {"name": name, "namespace": "ns"}, "status": {"phase": phase}})
                    .to_string();
            let raw = RawValue::from_string(text).unwrap();
            let event = Event {
                kind: match *kind {
                    "ADDED" => EventType::Added,
                    "MODIFIED" => EventType::Modified,
                    _ => EventType::Deleted,
                },
                origin: Origin::Watch,
                resource: &resource,
                object: &raw,
                object_lacks_type: false,
                name,
                namespace: "ns",
                row: None,
                context: None,
                judged: None,
            };
            if let Some(e) = judge.event(&event) {
                return Some((i, e));
            }
        }
        None
    }

    fn rules(until: &[&str], fail_on: &[&str], mode: For) -> Rules {
        Rules {
            until: until.iter().map(|t| parse(t)).collect(),
            fail_on: fail_on
                .iter()
                .map(|t| Expr::parse("--fail-on", t).unwrap())
                .collect(),
            mode,
            max_events: None,
            progress: true,
            fail_grace: Duration::from_secs(30),
            ..Rules::default()
        }
    }

    /// A stuck child fails its workload once the grace has passed, on a tick with no event;
    /// one that recovers within the grace fails nothing; a grace of 0 fails at once.
    #[test]
    fn a_stuck_child_fails_its_workload_after_the_grace() {
        let resource = deployments();
        let key = Key::new("", &resource, "ns", "web");
        let stuck = |since| {
            Some(Trouble {
                reason: "ImagePullBackOff (web): Back-off".into(),
                since,
            })
        };
        let mut judge = Judge::new(rules(&["ready"], &["failed"], For::All), vec![], 1);
        assert_eq!(judge.synced(0), None);
        assert_eq!(
            feed_object(
                &mut judge,
                &resource,
                deployment("web", 1, "ReplicaSetUpdated")
            ),
            None
        );
        let t0 = SystemTime::now();
        assert_eq!(judge.child_trouble(&key, "pod/web-1", stuck(t0), t0), None);
        assert_eq!(judge.next_tick(), Some(t0 + Duration::from_secs(30)));
        // Said again later (ErrImagePull, then ImagePullBackOff): the first moment counts.
        let t10 = t0 + Duration::from_secs(10);
        assert_eq!(
            judge.child_trouble(&key, "pod/web-1", stuck(t10), t10),
            None
        );
        assert_eq!(judge.tick(t0 + Duration::from_secs(29)), None);
        let ended = judge.tick(t0 + Duration::from_secs(30));
        assert_eq!(
            ended,
            Some(Verdict::FailOn {
                expr: Expr::Failed,
                by: "deployment.apps/web (pod/web-1: ImagePullBackOff (web): Back-off)".into()
            })
        );

        let mut judge = Judge::new(rules(&["ready"], &["failed"], For::All), vec![], 1);
        judge.synced(0);
        feed_object(
            &mut judge,
            &resource,
            deployment("web", 1, "ReplicaSetUpdated"),
        );
        judge.child_trouble(&key, "pod/web-1", stuck(t0), t0);
        assert_eq!(judge.child_trouble(&key, "pod/web-1", None, t10), None);
        assert_eq!(judge.next_tick(), None);
        assert_eq!(judge.tick(t0 + Duration::from_secs(60)), None);
        assert_eq!(
            judge.not_ready(),
            ["deployment.apps/web: in progress: Updated: 1/3"]
        );

        let mut zero = rules(&["ready"], &["failed"], For::All);
        zero.fail_grace = Duration::ZERO;
        let mut judge = Judge::new(zero, vec![], 1);
        judge.synced(0);
        feed_object(
            &mut judge,
            &resource,
            deployment("web", 1, "ReplicaSetUpdated"),
        );
        assert!(matches!(
            judge.child_trouble(&key, "pod/web-1", stuck(t0), t0),
            Some(Verdict::FailOn { .. })
        ));
    }

    /// A Pod of its own in `CrashLoopBackOff` is held to the grace as a Deployment's Pod is:
    /// in progress, with the pending verdict said once, then failed with its cause on a tick.
    #[test]
    /// The grace counts from when the trouble began as the Pod's evidence shows it (told by
    /// the causes, on kw's clock), not from when kw joined: a Pod stuck for 25 s of a 30 s grace
    /// fails 5 s later; one stuck for a minute fails at once. The evidence never makes a Pod
    /// stuck that the judge does not see stuck, and never moves the start later.
    fn the_grace_counts_from_the_pods_own_evidence() {
        let crashing = json!({"metadata": {"name": "x", "namespace": "ns"},
                              "status": {"phase": "Running", "containerStatuses": [{
                                  "name": "web", "state": {"waiting": {
                                      "reason": "CrashLoopBackOff"}}}]}});
        let key = Key::new("", &resource(), "ns", "x");
        let told = |ago: u64| {
            Some(Trouble {
                reason: "CrashLoopBackOff (web)".into(),
                since: SystemTime::now() - Duration::from_secs(ago),
            })
        };
        let mut judge = Judge::new(rules(&["ready"], &["failed"], For::All), vec![], 1);
        judge.synced(0);
        assert_eq!(feed_object(&mut judge, &resource(), crashing.clone()), None);
        let start = SystemTime::now();
        assert_eq!(judge.child_trouble(&key, "pod/x", told(25), start), None);
        let due = judge.next_tick().expect("judged again when the grace ends");
        let left = due.duration_since(start).unwrap_or_default();
        assert!(left <= Duration::from_secs(6), "{left:?}");
        // Later evidence does not move it back.
        assert_eq!(judge.child_trouble(&key, "pod/x", told(1), start), None);
        assert_eq!(judge.next_tick(), Some(due));
        assert!(judge.tick(due).is_some());

        let fails_at_once = |ended: Option<Verdict>| {
            assert!(
                matches!(&ended, Some(Verdict::FailOn { by, .. }) if by.starts_with("pod/x (CrashLoopBackOff")),
                "{ended:?}"
            )
        };
        let mut judge = Judge::new(rules(&["ready"], &["failed"], For::All), vec![], 1);
        judge.synced(0);
        assert_eq!(feed_object(&mut judge, &resource(), crashing.clone()), None);
        fails_at_once(judge.child_trouble(&key, "pod/x", told(60), SystemTime::now()));

        // The evidence may come before the judge has seen the Pod stuck: it is kept for then.
        let running = json!({"metadata": {"name": "x", "namespace": "ns"},
                             "status": {"phase": "Running", "containerStatuses": [{
                                 "name": "web", "state": {"running": {}}}]}});
        let mut judge = Judge::new(rules(&["ready"], &["failed"], For::All), vec![], 1);
        judge.synced(0);
        assert_eq!(feed_object(&mut judge, &resource(), running), None);
        assert_eq!(
            judge.child_trouble(&key, "pod/x", told(60), SystemTime::now()),
            None
        );
        fails_at_once(feed_object(&mut judge, &resource(), crashing));
    }

    #[test]
    /// A crash loop's Pod flaps between failed and in progress: each judgement is said once.
    fn a_flapping_object_says_each_judgement_once() {
        let pod = |crashing: bool| {
            let state = match crashing {
                true => json!({"waiting": {"reason": "CrashLoopBackOff"}}),
                false => json!({"running": {}}),
            };
            json!({"metadata": {"name": "x", "namespace": "ns"},
                   "status": {"phase": "Running",
                              "containerStatuses": [{"name": "web", "state": state}]}})
        };
        let mut judge = Judge::new(rules(&["ready"], &[], For::All), vec![], 1);
        judge.synced(0);
        let mut said = Vec::new();
        for round in 0..6 {
            feed_object(&mut judge, &resource(), pod(round % 2 == 0));
            said.extend(judge.take_progress());
        }
        assert_eq!(
            said,
            [
                "pod/x: failed: Containers in CrashLoop state: web",
                "pod/x: in progress: Pod is running but is not Ready"
            ]
        );
    }

    #[test]
    fn a_watched_pod_gets_the_grace_too() {
        let crashing = json!({"metadata": {"name": "x", "namespace": "ns"},
                              "status": {"phase": "Running", "containerStatuses": [{
                                  "name": "web", "state": {"waiting": {
                                      "reason": "CrashLoopBackOff",
                                      "message": "back-off 10s restarting failed container"}}}]}});
        let mut judge = Judge::new(rules(&["ready"], &["failed"], For::All), vec![], 1);
        assert_eq!(judge.synced(0), None);
        assert_eq!(feed_object(&mut judge, &resource(), crashing.clone()), None);
        let progress = judge.take_progress();
        assert_eq!(progress.len(), 2, "{progress:?}");
        assert_eq!(
            progress[0],
            "pod/x: in progress: Containers in CrashLoop state: web"
        );
        assert!(
            progress[1].starts_with(
                "pod/x: CrashLoopBackOff (web): back-off restarting failed container; failing in "
            ) && progress[1].ends_with("s unless it recovers"),
            "{progress:?}"
        );
        // Said again (the same back-off): no news, and the pending verdict is not said twice.
        assert_eq!(feed_object(&mut judge, &resource(), crashing.clone()), None);
        assert!(judge.take_progress().is_empty());
        let due = judge.next_tick().expect("judged again when the grace ends");
        assert_eq!(
            judge.tick(due),
            Some(Verdict::FailOn {
                expr: Expr::Failed,
                by: "pod/x (CrashLoopBackOff (web): back-off restarting failed container)".into()
            })
        );

        // With a grace of 0 it fails at once, with the same cause.
        let mut zero = rules(&["ready"], &["failed"], For::All);
        zero.fail_grace = Duration::ZERO;
        let mut judge = Judge::new(zero, vec![], 1);
        judge.synced(0);
        assert_eq!(
            feed_object(&mut judge, &resource(), crashing.clone()),
            Some(Verdict::FailOn {
                expr: Expr::Failed,
                by: "pod/x (CrashLoopBackOff (web): back-off restarting failed container)".into()
            })
        );
        assert!(judge
            .take_progress()
            .iter()
            .all(|line| !line.contains("failing in")));

        // A Pod that recovers within the grace fails nothing.
        let mut judge = Judge::new(rules(&["ready"], &["failed"], For::All), vec![], 1);
        judge.synced(0);
        feed_object(&mut judge, &resource(), crashing);
        let ready = json!({"metadata": {"name": "x", "namespace": "ns"},
                           "status": {"phase": "Running",
                                      "conditions": [{"type": "Ready", "status": "True"}]}});
        assert!(matches!(
            feed_object(&mut judge, &resource(), ready),
            Some(Verdict::Until { .. })
        ));
    }

    /// A crash loop's running spell between two back-offs is no recovery: stuck again within
    /// the grace, the first moment counts, and the pending failure is not said again.
    #[test]
    fn a_short_recovery_keeps_the_first_moment_stuck() {
        let resource = deployments();
        let key = Key::new("", &resource, "ns", "web");
        let crash = |since| {
            Some(Trouble {
                reason: "CrashLoopBackOff (web): back-off".into(),
                since,
            })
        };
        let mut judge = Judge::new(rules(&["ready"], &["failed"], For::All), vec![], 1);
        judge.synced(0);
        feed_object(
            &mut judge,
            &resource,
            deployment("web", 1, "ReplicaSetUpdated"),
        );
        judge.take_progress();
        let t0 = SystemTime::now();
        let at = |secs| t0 + Duration::from_secs(secs);
        assert_eq!(judge.child_trouble(&key, "pod/web-1", crash(t0), t0), None);
        assert_eq!(judge.take_progress().len(), 1);
        assert_eq!(judge.child_trouble(&key, "pod/web-1", None, at(10)), None);
        assert_eq!(
            judge.child_trouble(&key, "pod/web-1", crash(at(20)), at(20)),
            None
        );
        assert!(judge.take_progress().is_empty(), "said once");
        assert_eq!(judge.next_tick(), Some(at(30)));
        // Recovered for longer than the grace: a new spell, a new deadline, said.
        assert_eq!(judge.child_trouble(&key, "pod/web-1", None, at(25)), None);
        assert_eq!(
            judge.child_trouble(&key, "pod/web-1", crash(at(60)), at(60)),
            None
        );
        assert_eq!(
            judge.take_progress(),
            ["deployment.apps/web: pod/web-1: CrashLoopBackOff (web): back-off; failing in 30s unless it recovers"]
        );
    }

    /// A workload failed for a reason of its own names its stuck Pod's cause in the verdict.
    #[test]
    fn the_verdict_names_a_stuck_pods_cause() {
        let resource = deployments();
        let key = Key::new("", &resource, "ns", "web");
        let mut judge = Judge::new(rules(&["ready"], &["failed"], For::All), vec![], 1);
        judge.synced(0);
        feed_object(
            &mut judge,
            &resource,
            deployment("web", 1, "ReplicaSetUpdated"),
        );
        let t0 = SystemTime::now();
        let pulling = Trouble {
            reason: "ImagePullBackOff (web): Back-off pulling image \"nginx:1.99-missing\"".into(),
            since: t0,
        };
        assert_eq!(
            judge.child_trouble(&key, "pod/web-1", Some(pulling), t0),
            None
        );
        assert_eq!(
            judge.take_progress().last().map(String::as_str),
            Some("deployment.apps/web: pod/web-1: ImagePullBackOff (web): Back-off pulling image \"nginx:1.99-missing\"; failing in 30s unless it recovers")
        );
        assert_eq!(
            feed_object(&mut judge, &resource, deployment("web", 1, "ProgressDeadlineExceeded")),
            Some(Verdict::FailOn {
                expr: Expr::Failed,
                by: "deployment.apps/web (Progress deadline exceeded; pod/web-1: ImagePullBackOff (web): Back-off pulling image \"nginx:1.99-missing\")".into()
            })
        );
    }

    /// A workload failed on its first list, its stuck Pod told only after the verdict: the
    /// verdict is worded again with the Pod's cause, and is not changed otherwise.
    #[test]
    fn a_verdict_reached_first_is_worded_with_the_pods_told_after_it() {
        let resource = deployments();
        let key = Key::new("", &resource, "ns", "web");
        let mut judge = Judge::new(rules(&["ready"], &["failed"], For::All), vec![], 1);
        judge.synced(0);
        let ended = feed_object(
            &mut judge,
            &resource,
            deployment("web", 1, "ProgressDeadlineExceeded"),
        );
        assert_eq!(judge.record(ended.clone()), Flow::Stop);
        assert_eq!(judge.reword(), ended, "nothing learnt yet");
        let t0 = SystemTime::now();
        let pulling = |reason: &str| Trouble {
            reason: format!("{reason} (web): Back-off pulling image \"x\""),
            since: t0,
        };
        assert_eq!(
            judge.child_trouble(&key, "pod/web-1", Some(pulling("ErrImagePull")), t0),
            None
        );
        judge.child_trouble(&key, "pod/web-1", Some(pulling("ImagePullBackOff")), t0);
        judge.child_trouble(&key, "pod/web-2", Some(pulling("ErrImagePull")), t0);
        judge.child_trouble(&key, "pod/web-2", None, t0);
        let worded = Some(Verdict::FailOn {
            expr: Expr::Failed,
            by: "deployment.apps/web (Progress deadline exceeded; pod/web-1: ImagePullBackOff (web): Back-off pulling image \"x\")".into(),
        });
        assert_eq!(judge.reword(), worded);
        assert_eq!(judge.ended(), worded);
        assert_eq!(judge.reword(), worded, "worded once");
    }

    /// The event an object first meets `--until` with opens the gate of `-o name`; later
    /// events of it, and events of objects that do not meet it, do not.
    #[test]
    fn each_object_opens_once_when_it_first_meets_until() {
        let resource = deployments();
        let mut judge = Judge::new(rules(&["ready"], &[], For::All), vec![], 1);
        let opened = |judge: &mut Judge, object: Value| {
            feed_object(judge, &resource, object);
            judge.opened() > 0
        };
        assert!(!opened(
            &mut judge,
            deployment("web", 1, "ReplicaSetUpdated")
        ));
        assert!(opened(
            &mut judge,
            deployment("api", 3, "NewReplicaSetAvailable")
        ));
        assert!(!opened(
            &mut judge,
            deployment("api", 3, "NewReplicaSetAvailable")
        ));
        assert!(opened(
            &mut judge,
            deployment("web", 3, "NewReplicaSetAvailable")
        ));
        assert!(!opened(
            &mut judge,
            deployment("web", 1, "ReplicaSetUpdated")
        ));
        assert!(!opened(
            &mut judge,
            deployment("web", 3, "NewReplicaSetAvailable")
        ));
    }

    const DONE: &str = "jsonpath={.status.phase}=Succeeded";

    /// Feed one object of kind `kind` (group `group`) as an event to `judge`.
    fn feed_object(judge: &mut Judge, resource: &ResourceInfo, object: Value) -> Option<Verdict> {
        let name = object["metadata"]["name"]
            .as_str()
            .unwrap_or_default()
            .to_string();
        let raw = RawValue::from_string(object.to_string()).unwrap();
        judge.event(&Event {
            kind: EventType::Modified,
            origin: Origin::Watch,
            resource,
            object: &raw,
            object_lacks_type: false,
            name: &name,
            namespace: "ns",
            row: None,
            context: None,
            judged: None,
        })
    }

    fn deployments() -> ResourceInfo {
        ResourceInfo {
            plural: "deployments".into(),
            singular: "deployment".into(),
            kind: "Deployment".into(),
            group: "apps".into(),
            version: "v1".into(),
            namespaced: true,
        }
    }

    /// A Deployment of 3 replicas, `updated` of them on the current template, whose
    /// `Progressing` condition has `reason`.
    fn deployment(name: &str, updated: u32, reason: &str) -> Value {
        json!({"metadata": {"name": name, "namespace": "ns", "generation": 2},
               "spec": {"replicas": 3, "progressDeadlineSeconds": 600},
               "status": {"observedGeneration": 2, "replicas": 3, "updatedReplicas": updated,
                          "readyReplicas": 3, "availableReplicas": 3,
                          "conditions": [
                              {"type": "Available", "status": "True"},
                              {"type": "Progressing",
                               "status": if reason == "ProgressDeadlineExceeded" {"False"} else {"True"},
                               "reason": reason}]}})
    }

    /// kubectl wait's repeated `--for`: the conditions are met in turn, each printed once; the
    /// object is done after the last; one that never comes is named as the one waited for.
    #[test]
    fn in_sequence_each_condition_is_met_in_turn_and_the_one_waited_for_is_named() {
        let resource = deployments();
        let mut in_turn = rules(
            &[
                "condition=Available",
                "condition=Progressing",
                "condition=Nope",
            ],
            &[],
            For::All,
        );
        in_turn.sequence = true;
        let mut judge = Judge::new(
            in_turn,
            vec![Named::new(&resource, Some("ns".into()), "web")],
            1,
        );
        assert_eq!(judge.synced(0), None);
        let ended = feed_object(
            &mut judge,
            &resource,
            deployment("web", 3, "NewReplicaSetAvailable"),
        );
        assert_eq!(ended, None, "the third never holds");
        assert_eq!(judge.opened(), 2, "Available, then Progressing");
        let unmet = judge.unmet();
        assert_eq!(
            unmet[0].pending.as_deref(),
            Some(
                "condition=Nope=True (condition=Available=True and condition=Progressing=True met)"
            )
        );
        // Met already: a later event meets nothing again.
        feed_object(
            &mut judge,
            &resource,
            deployment("web", 3, "NewReplicaSetAvailable"),
        );
        assert_eq!(judge.opened(), 0);
    }

    /// `--until ready` is not met by an available Deployment mid-rollout (where
    /// `condition=Available` is), and is once every replica is updated.
    #[test]
    fn ready_waits_for_the_rollout_not_for_availability() {
        let resource = deployments();
        let mut judge = Judge::new(
            rules(&["ready"], &["failed"], For::All),
            vec![Named::new(&resource, Some("ns".into()), "web")],
            1,
        );
        assert_eq!(judge.synced(0), None);
        assert_eq!(
            feed_object(
                &mut judge,
                &resource,
                deployment("web", 1, "ReplicaSetUpdated")
            ),
            None
        );
        assert_eq!(
            judge.not_ready(),
            ["deployment.apps/web: in progress: Updated: 1/3"]
        );
        assert_eq!(
            feed_object(
                &mut judge,
                &resource,
                deployment("web", 3, "NewReplicaSetAvailable")
            ),
            Some(Verdict::Until {
                expr: "ready".into(),
                by: "deployment.apps/web (Deployment is available. Replicas: 3)".into()
            })
        );
        assert!(judge.not_ready().is_empty());
        assert_eq!(
            judge.take_progress(),
            [
                "deployment.apps/web: in progress: Updated: 1/3",
                "deployment.apps/web: ready: Deployment is available. Replicas: 3"
            ]
        );
        // The same judgement again is no news; nor is an object ready when first seen.
        feed_object(
            &mut judge,
            &resource,
            deployment("api", 3, "NewReplicaSetAvailable"),
        );
        feed_object(
            &mut judge,
            &resource,
            deployment("web", 3, "NewReplicaSetAvailable"),
        );
        assert!(judge.take_progress().is_empty());
    }

    #[test]
    fn failed_trips_on_one_object_and_says_why() {
        let resource = deployments();
        let mut judge = Judge::new(rules(&["ready"], &["failed"], For::All), vec![], 1);
        assert_eq!(
            feed_object(
                &mut judge,
                &resource,
                deployment("api", 3, "NewReplicaSetAvailable")
            ),
            None,
            "not decided before the list is complete"
        );
        assert_eq!(
            feed_object(
                &mut judge,
                &resource,
                deployment("web", 1, "ProgressDeadlineExceeded")
            ),
            Some(Verdict::FailOn {
                expr: Expr::Failed,
                by: "deployment.apps/web (Progress deadline exceeded)".into()
            })
        );
        let printed = Verdict::FailOn {
            expr: Expr::Failed,
            by: "deployment.apps/web (Progress deadline exceeded)".into(),
        }
        .to_string();
        assert_eq!(
            printed,
            "--fail-on failed met by deployment.apps/web (Progress deadline exceeded)"
        );
    }

    /// A Pod the scheduler cannot place fails once the window has passed, with no event to
    /// prompt the judge: `tick` judges it again.
    #[test]
    fn an_unschedulable_pod_fails_on_a_tick_after_the_window() {
        let now = SystemTime::now();
        let since = now - std::time::Duration::from_secs(10);
        let pod = json!({"metadata": {"name": "web-1", "namespace": "ns",
                                      "creationTimestamp": humantime::format_rfc3339_seconds(since).to_string()},
                         "status": {"phase": "Pending", "conditions": [{
                             "type": "PodScheduled", "status": "False", "reason": "Unschedulable",
                             "message": "0/3 nodes are available: 3 Insufficient cpu."}]}});
        let mut judge = Judge::new(rules(&["ready"], &["failed"], For::All), vec![], 1);
        assert_eq!(judge.next_tick(), None);
        assert_eq!(feed_object(&mut judge, &resource(), pod), None);
        assert_eq!(judge.synced(0), None);
        let due = judge.next_tick().expect("judged again later");
        assert!(due > now && due <= now + std::time::Duration::from_secs(6));
        assert_eq!(judge.tick(now), None, "still within the window");
        assert_eq!(
            judge.tick(due),
            Some(Verdict::FailOn {
                expr: Expr::Failed,
                by: "pod/web-1 (Pod could not be scheduled: 0/3 nodes are available: 3 Insufficient cpu.)".into()
            })
        );
        assert!(judge.ended().is_some());
    }

    /// `ready` mixes with kubectl's words: any --until met ends the wait.
    #[test]
    fn ready_mixes_with_other_conditions() {
        let resource = deployments();
        let mut judge = Judge::new(
            rules(
                &["ready", "jsonpath={.metadata.labels.skip}=yes"],
                &[],
                For::All,
            ),
            vec![],
            1,
        );
        assert_eq!(judge.synced(0), None);
        let mut skipped = deployment("web", 1, "ReplicaSetUpdated");
        skipped["metadata"]["labels"] = json!({"skip": "yes"});
        assert!(matches!(
            feed_object(&mut judge, &resource, skipped),
            Some(Verdict::Until { expr, .. }) if expr.starts_with("jsonpath=")
        ));
    }

    #[test]
    fn all_waits_for_every_object_after_the_list() {
        let mut judge = Judge::new(rules(&[DONE], &[], For::All), vec![], 1);
        let ended = feed(
            &mut judge,
            &[
                ("ADDED", "a", "Succeeded"),
                ("ADDED", "b", "Running"),
                ("SYNC", "", ""),
                ("MODIFIED", "b", "Succeeded"),
            ],
        );
        assert!(
            matches!(ended, Some((3, Verdict::Until { .. }))),
            "{ended:?}"
        );

        // Already true at the list: decided when the list is complete, not before.
        let mut judge = Judge::new(rules(&[DONE], &[], For::All), vec![], 1);
        let ended = feed(&mut judge, &[("ADDED", "a", "Succeeded"), ("SYNC", "", "")]);
        assert!(
            matches!(ended, Some((1, Verdict::Until { .. }))),
            "{ended:?}"
        );

        // A selector that matches nothing yet waits for objects to appear.
        let mut judge = Judge::new(rules(&[DONE], &[], For::All), vec![], 1);
        let ended = feed(&mut judge, &[("SYNC", "", ""), ("ADDED", "a", "Succeeded")]);
        assert!(
            matches!(ended, Some((1, Verdict::Until { .. }))),
            "{ended:?}"
        );
    }

    #[test]
    fn deleted_objects_leave_the_all_set() {
        let mut judge = Judge::new(rules(&[DONE], &[], For::All), vec![], 1);
        let ended = feed(
            &mut judge,
            &[
                ("ADDED", "a", "Succeeded"),
                ("ADDED", "b", "Running"),
                ("SYNC", "", ""),
                ("DELETED", "b", "Running"),
            ],
        );
        assert!(
            matches!(ended, Some((3, Verdict::Until { .. }))),
            "{ended:?}"
        );
    }

    #[test]
    fn any_and_fail_on_trip_on_one_object() {
        let mut judge = Judge::new(rules(&[DONE], &[], For::Any), vec![], 1);
        let ended = feed(
            &mut judge,
            &[("ADDED", "a", "Running"), ("ADDED", "b", "Succeeded")],
        );
        assert!(
            matches!(ended, Some((1, Verdict::Until { .. }))),
            "{ended:?}"
        );

        let failed = "jsonpath={.status.phase}=Failed";
        let mut judge = Judge::new(rules(&[DONE], &[failed], For::All), vec![], 1);
        let ended = feed(
            &mut judge,
            &[
                ("ADDED", "a", "Running"),
                ("SYNC", "", ""),
                ("MODIFIED", "a", "Failed"),
            ],
        );
        assert!(
            matches!(ended, Some((2, Verdict::FailOn { .. }))),
            "{ended:?}"
        );
    }

    #[test]
    fn named_objects_must_exist_and_delete_counts_absence() {
        let named = vec![Named::new(&resource(), Some("ns".into()), "a")];
        let mut judge = Judge::new(rules(&["create"], &[], For::All), named.clone(), 1);
        let ended = feed(&mut judge, &[("SYNC", "", ""), ("ADDED", "a", "Pending")]);
        assert!(
            matches!(ended, Some((1, Verdict::Until { .. }))),
            "{ended:?}"
        );

        let mut judge = Judge::new(rules(&["delete"], &[], For::All), named.clone(), 1);
        let ended = feed(&mut judge, &[("SYNC", "", "")]);
        assert!(
            matches!(ended, Some((0, Verdict::Until { .. }))),
            "{ended:?}"
        );

        let mut judge = Judge::new(rules(&["delete"], &[], For::All), named, 1);
        let ended = feed(
            &mut judge,
            &[
                ("ADDED", "a", "Running"),
                ("SYNC", "", ""),
                ("DELETED", "a", "Running"),
            ],
        );
        assert!(
            matches!(ended, Some((2, Verdict::Until { .. }))),
            "{ended:?}"
        );
    }

    #[test]
    fn max_events_counts_printed_events() {
        let rules = Rules {
            max_events: Some(2),
            ..Rules::default()
        };
        let mut judge = Judge::new(rules, vec![], 1);
        let ended = feed(
            &mut judge,
            &[
                ("ADDED", "a", ""),
                ("SYNC", "", ""),
                ("ADDED", "b", ""),
                ("ADDED", "c", ""),
            ],
        );
        assert_eq!(ended, Some((2, Verdict::MaxEvents(2))));
    }

    /// The same named pod in two contexts: `--for all` needs it in both, `--fail-on` names the
    /// context, and a context still unresolved holds the decision back.
    #[test]
    fn several_contexts_are_judged_as_one_fleet() {
        let resource = resource();
        let event = |context: &'static str, phase: &str| {
            let text = json!({"metadata": {"name": "web", "namespace": "ns"},
                              "status": {"phase": phase}})
            .to_string();
            (context, RawValue::from_string(text).unwrap())
        };
        let judge_event = |judge: &mut Judge, (context, raw): &(&str, Box<RawValue>)| {
            judge.event(&Event {
                kind: EventType::Added,
                origin: Origin::Watch,
                resource: &resource,
                object: raw,
                object_lacks_type: false,
                name: "web",
                namespace: "ns",
                row: None,
                context: Some(context),
                judged: None,
            })
        };
        let named = |context: &str| vec![Named::new(&resource, None, "web").in_context(context)];
        let until = rules(&["jsonpath={.status.phase}=Running"], &[], For::All);
        let mut judge = Judge::for_contexts(until.clone(), 2);
        let east = judge.member_resolved(named("east"), 1);
        assert_eq!(judge.synced(east), None);
        assert_eq!(judge_event(&mut judge, &event("east", "Running")), None);
        // west has not even resolved its types yet.
        assert_eq!(judge.synced(east), None);
        let west = judge.member_resolved(named("west"), 1);
        assert_eq!(west, 1);
        assert_eq!(judge.synced(west), None, "west/web does not exist yet");
        assert_eq!(judge_event(&mut judge, &event("west", "Pending")), None);
        assert!(matches!(
            judge_event(&mut judge, &event("west", "Running")),
            Some(Verdict::Until { .. })
        ));
        assert!(judge.needs_every_context());

        let fail = rules(&[], &["jsonpath={.status.phase}=Failed"], For::All);
        let mut judge = Judge::for_contexts(fail, 2);
        judge.member_resolved(named("east"), 1);
        judge.member_resolved(named("west"), 1);
        assert_eq!(
            judge_event(&mut judge, &event("west", "Failed")),
            Some(Verdict::FailOn {
                expr: Expr::parse("--fail-on", "jsonpath={.status.phase}=Failed").unwrap(),
                by: "west/pod/web".into()
            })
        );
        assert!(!judge.needs_every_context());
    }
}
