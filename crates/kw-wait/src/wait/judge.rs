//! The judge: the latest state of every watched object, whether each condition holds, and
//! when the watch is over (`Verdict`). Every watcher of a run feeds the one judge; it never talks
//! to the server and knows nothing of formats.

use std::collections::HashMap;
use std::time::SystemTime;

use serde_json::Value;

use kw_events::events::{Event, Flow, ResourceInfo};
use kw_events::readiness::{Judgement, State};
use kw_wire::EventType;

use super::assessment::Assessment;
use super::expr::{Expr, For};
use super::findings::Findings;
use super::grace::{self, Grace};
use super::identity::{GroupResource, Key, Named};
use super::rules::{PastGrace, Rules};
use super::telling::{self, Telling};
use super::verdict::{Trouble, Verdict};

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
    /// The types watched as collections (`deployment`, `pod`), and the selectors they are
    /// watched with, for the line that says none matches (`Judge::newly_missing`).
    collections: Vec<String>,
    selector: Option<String>,
    /// The earliest `Later::at` of the objects (maybe of one since deleted: one scan too many).
    next_tick: Option<SystemTime>,
    /// What is told on stderr while the wait runs (`Rules::progress`; the hint under `-q` too).
    telling: Telling,
    /// The readiness rules' judgement of the event last judged, before a stuck Pod's grace
    /// weighs in: what `rollout status` says of it.
    last_judged: Option<Judgement>,
    /// Workloads' stuck children and the grace they get (`Rules::fail_grace`).
    grace: Grace,
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
}

impl Judge {
    /// A judge for `targets` watchers; `named` lists the objects the user named (empty for
    /// collections and selectors).
    pub fn new(rules: Rules, named: Vec<Named>, targets: usize) -> Judge {
        Judge {
            grace: Grace::new(rules.fail_grace),
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
            collections: Vec::new(),
            selector: None,
            next_tick: None,
            telling: Telling::default(),
            last_judged: None,
            met_once: std::collections::HashSet::new(),
            steps: HashMap::new(),
            opened: 0,
            invalid: None,
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

    /// A context of the run watches collections of these types (singular names), with this
    /// selector: what `newly_missing` says when none has an object.
    pub fn watches_collections(&mut self, kinds: Vec<String>, selector: Option<String>) {
        for kind in kinds {
            if !self.collections.contains(&kind) {
                self.collections.push(kind);
            }
        }
        self.selector = self.selector.take().or(selector);
    }

    /// After the first complete lists, once: a line for each named object that does not exist
    /// (yet), or, when nothing was named and nothing was listed, one saying that no object
    /// matches: a typo in a selector would otherwise look like a hang.
    pub(super) fn newly_missing(&mut self) -> Vec<String> {
        if self.announced_missing || !self.all_synced() {
            return Vec::new();
        }
        self.announced_missing = true;
        if self.named.is_empty() {
            // `--max-events` alone waits for events, not for objects.
            let waits_on_objects = !self.rules.until.is_empty() || !self.rules.fail_on.is_empty();
            let nothing = waits_on_objects && self.objects.is_empty() && self.deleted.is_none();
            return (nothing && !self.collections.is_empty())
                .then(|| telling::none_matches(&self.collections, self.selector.as_deref()))
                .into_iter()
                .collect();
        }
        self.named
            .iter()
            .filter(|n| !self.has_seen(n))
            .map(|n| {
                format!(
                    "{} does not exist yet; waiting for it to be created",
                    n.label
                )
            })
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
            let label = Key::label(event);
            if event.kind == EventType::Deleted {
                if self.rules.sequence {
                    self.opened = self.step_deleted(&key);
                } else if self.rules.until.contains(&Expr::Delete) {
                    self.opened = usize::from(self.met_once.insert(key.clone()));
                }
                self.objects.remove(&key);
                self.grace.forget(&key);
                self.telling.forget(&key);
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
                if self.guards_pods() && grace::is_pod(event.resource) {
                    let reason = parsed.as_ref().and_then(grace::own_trouble);
                    let cohort = parsed
                        .as_ref()
                        .zip(reason.as_deref())
                        .and_then(|(pod, reason)| grace::cohort(pod, reason));
                    self.grace.join_cohort(&key, cohort);
                    // Kw's first sight; the Pod's own evidence, read on the server's clock,
                    // may come to move it earlier (`child_trouble`).
                    let since = self.grace.first_sight(&key, reason.is_some(), now);
                    let trouble = reason.map(|reason| Trouble { reason, since });
                    self.grace.note(&key, &label, trouble, now);
                }
                let mut seen = Assessment::new(
                    &self.rules,
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
                if let Some(due) = self.grace.due(&key).filter(|due| *due > now) {
                    self.next_tick = Some(self.next_tick.map_or(due, |t| t.min(due)));
                }
                let before = self.objects.get(&key).and_then(|s| s.judgement.clone());
                self.say_change(&key, before.as_ref(), &seen);
                self.hint_hopeless(&key, &seen);
                if let Some(line) = self.pending_line(&key, &seen, now) {
                    self.telling.line(line);
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
                // Another object's grace may have run out too: the verdict must not name one
                // of a cohort while the rest are still judged in progress.
                self.judge_due(now);
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

    /// Judge again, at `now`, the objects whose judgement changes with time alone (a Pod
    /// unschedulable for longer than the window has failed); `Some` when that ends the watch.
    /// Every sink does this at each checkpoint; a runner may also call it on a timer, at
    /// [`Judge::next_tick`], so that no event is needed.
    pub fn tick(&mut self, now: SystemTime) -> Option<Verdict> {
        if self.ended.is_some() || self.next_tick.is_none_or(|at| at > now) {
            return None;
        }
        self.judge_due(now);
        let decided = self.decide();
        if let Some(ended) = &decided {
            self.ended = Some(ended.clone());
        }
        decided
    }

    /// The objects whose judgement has changed with time alone by `now`, judged again, all
    /// before any verdict is drawn from them (`next_tick` is the earliest such moment).
    fn judge_due(&mut self, now: SystemTime) {
        if self.next_tick.is_none_or(|at| at > now) {
            return;
        }
        let due: Vec<Key> = self
            .objects
            .iter()
            .filter(|(key, s)| {
                s.later.as_ref().is_some_and(|l| l.at <= now)
                    || self.grace.due(key).is_some_and(|due| due <= now)
            })
            .map(|(key, _)| key.clone())
            .collect();
        for key in due {
            let Some(seen) = self.objects.remove(&key) else {
                continue;
            };
            let before = seen.judgement.clone();
            let mut fresh = match seen.later {
                Some(later) if later.at <= now => Assessment::new(
                    &self.rules,
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
            self.grace.note_late(workload, child, trouble);
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
            let trouble = self.grace.own_evidence(workload, child, trouble)?;
            self.grace.note(workload, child, Some(trouble), now);
        } else {
            self.grace.note(workload, child, trouble, now);
        }
        if let Some(mut seen) = self.objects.remove(workload) {
            let before = seen.judgement.clone();
            self.overlay(workload, &mut seen, now);
            self.say_change(workload, before.as_ref(), &seen);
            self.hint_hopeless(workload, &seen);
            if let Some(line) = self.pending_line(workload, &seen, now) {
                self.telling.line(line);
            }
            self.objects.insert(workload.clone(), seen);
        }
        self.next_tick = self.earliest_tick(now);
        self.judge_due(now);
        let decided = self.decide();
        if let Some(ended) = &decided {
            self.ended = Some(ended.clone());
        }
        decided
    }

    /// The failure pending on `key` while its grace runs, when it is judged in progress: when
    /// it falls, and its cause in short, the reason's head first (`CrashLoopBackOff (web)`, or
    /// `CrashLoopBackOff (web) in pod/web-1` for a workload's Pod). What the live view shows
    /// in its row.
    pub(super) fn pending_failure(&self, key: &Key) -> Option<(SystemTime, String)> {
        let seen = self.objects.get(key)?;
        let in_progress = seen.judgement.as_ref()?.state == State::InProgress;
        if !self.guards_pods() || self.rules.past_grace == PastGrace::Said || !in_progress {
            return None;
        }
        let (due, child, reason) = self.grace.pending(key, &seen.label)?;
        let head = reason.split(':').next().unwrap_or(&reason).trim();
        Some(match child {
            Some(child) => (due, format!("{head} in {child}")),
            None => (due, head.to_string()),
        })
    }

    /// Whether stuck Pods are held to the grace: only `--fail-on failed` asks for it.
    fn guards_pods(&self) -> bool {
        self.rules.fail_on.contains(&Expr::Failed)
    }

    /// Once per deadline, while `seen` is in progress: when the failure its stuck child holds
    /// pending falls (`Grace::pending_line`), when the run's commentary is wanted.
    fn pending_line(&mut self, key: &Key, seen: &Assessment, now: SystemTime) -> Option<String> {
        if !self.rules.progress || seen.judgement.as_ref()?.state != State::InProgress {
            return None;
        }
        self.grace.pending_line(key, &seen.label, now)
    }

    /// The next moment a judgement may change with time alone, after `now`.
    fn earliest_tick(&self, now: SystemTime) -> Option<SystemTime> {
        let later = self
            .objects
            .values()
            .filter_map(|s| s.later.as_ref().map(|l| l.at));
        let troubles = self
            .grace
            .stuck()
            .filter(|key| self.objects.contains_key(*key))
            .filter_map(|key| self.grace.due(key))
            .filter(|due| *due > now);
        later.chain(troubles).min()
    }

    /// What the stuck children of `key` make of `seen`'s judgement at `now` (`Grace::overlaid`),
    /// and so of the conditions that read it; only where `--fail-on failed` asks: nothing else
    /// needs the verdict.
    fn overlay(&mut self, key: &Key, seen: &mut Assessment, now: SystemTime) {
        if !self.guards_pods() {
            return;
        }
        let overlaid = seen
            .judgement
            .as_ref()
            .and_then(|judgement| self.grace.overlaid(key, &seen.label, judgement, now));
        let Some(judgement) = overlaid else {
            return;
        };
        if self.rules.past_grace == PastGrace::Said {
            if judgement.state == State::Failed {
                self.hint_stuck(&seen.label, &judgement.message);
            }
            return;
        }
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

    /// Tell `seen`'s change of judgement from `before`, when the commentary is wanted
    /// (`Telling::change`).
    fn say_change(&mut self, key: &Key, before: Option<&Judgement>, seen: &Assessment) {
        if let Some(judgement) = seen.judgement.as_ref().filter(|_| self.rules.progress) {
            self.telling.change(key, &seen.label, before, judgement);
        }
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
        if !self.telling.may_hint() || !self.rules.sequence {
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
        self.telling.hint(format!(
            "{} has failed ({}): this wait runs on until --timeout, as kubectl's does; --fail-on failed ends it now (exit 2)",
            seen.label, judgement.message
        ));
    }

    /// `PastGrace::Said` (kubectl's `rollout status`): a child of `label` has stayed stuck for
    /// the grace (`message` names it and why). Say once, at that moment, that the rollout runs
    /// on as kubectl's does, and which flag would have ended it here. Said under `-q` too, as
    /// `hint_hopeless` is.
    fn hint_stuck(&mut self, label: &str, message: &str) {
        if !self.telling.may_hint() {
            return;
        }
        let grace = humantime::format_duration(self.rules.fail_grace);
        self.telling.hint(format!(
            "{label}: {message}, for {grace} now: this rollout runs on until its progress deadline or --timeout, as kubectl's does; --fail-grace {grace} ends it at this point (exit 2)"
        ));
    }

    /// The changes of judgement since the last call (`deployment.apps/web: in progress:
    /// Updated: 1/3`), for stderr.
    pub fn take_progress(&mut self) -> Vec<String> {
        self.telling.take()
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
        let Some((child, trouble)) = self.grace.first(key) else {
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
                    && !self.grace.is_stuck(key)
            })
        });
        let Some((key, seen)) = found else {
            return self.ended.clone();
        };
        let judgement = seen.judgement.as_ref().filter(|j| j.state == State::Failed);
        let child = self.grace.first_late(key);
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

    /// What the judge has found so far, to read while its lock is held.
    pub fn findings(&self) -> Findings<'_> {
        Findings {
            rules: &self.rules,
            objects: &self.objects,
            met_once: &self.met_once,
            named_given: &self.named_given,
            missing: &self.missing,
            steps: &self.steps,
        }
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
}

#[cfg(test)]
mod grace_tests;
#[cfg(test)]
mod tests;
