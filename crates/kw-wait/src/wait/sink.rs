//! The sink of one watcher under `--until`/`--fail-on`/`--max-events`: it forwards every event
//! to the printer's sink, then asks the shared judge whether the watch is over.

use std::io;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::SystemTime;

use kw_events::events::{Event, Flow, Sink};
use kw_events::readiness::Judgement;

use super::shared::SharedJudge;

/// The sink of one watcher: forwards to `inner`, then lets the judge decide. Every watcher of a
/// run shares one judge; the judge's lock is held while printing so that nothing is printed
/// after the event that ended the watch.
pub struct ConditionSink<S> {
    judge: SharedJudge,
    index: usize,
    inner: S,
    /// Opened for each event its object first meets an `--until` condition with, before the
    /// event goes on (`Opening`).
    opening: Option<Opening>,
    /// Where each event's judgement is left for the printer below (`rollout status`).
    judged: Option<JudgedEvent>,
}

/// How many times kubectl wait prints the object of the event a condition sink passes on: once
/// when it first meets an `--until` condition (once per condition met under kubectl wait's
/// repeated `--for`), else none. Set by the sink before it passes the event on, read by a gate
/// below it. One per watcher.
#[derive(Clone, Debug, Default)]
pub struct Opening(Arc<AtomicUsize>);

impl Opening {
    /// How many times the event being passed on goes through the gate.
    pub fn times(&self) -> usize {
        self.0.load(Ordering::Relaxed)
    }

    fn set(&self, times: usize) {
        self.0.store(times, Ordering::Relaxed);
    }
}

impl<S: Sink> ConditionSink<S> {
    /// The sink of watcher number `index` (0-based, below the `targets` given to the judge).
    pub fn new(judge: SharedJudge, index: usize, inner: S) -> ConditionSink<S> {
        ConditionSink {
            judge,
            index,
            inner,
            opening: None,
            judged: None,
        }
    }

    /// Leave on `judged` the judgement of each event passed on.
    pub fn judged(mut self, judged: JudgedEvent) -> ConditionSink<S> {
        self.judged = Some(judged);
        self
    }

    /// Say on `opening` which events first meet an `--until` condition for their object.
    pub fn opening(mut self, opening: Opening) -> ConditionSink<S> {
        self.opening = Some(opening);
        self
    }
}

/// Conditions decide on events and complete lists; when the judge has decided (here or in
/// another watcher's sink), every sink says stop. The judge keeps the reason.
impl<S: Sink> Sink for ConditionSink<S> {
    fn event(&mut self, event: &Event<'_>) -> io::Result<Flow> {
        let mut judge = self.judge.lock();
        if judge.has_ended() {
            return Ok(Flow::Stop);
        }
        // Judged before it is printed, so that a gate below knows whether to print it; what
        // the judge decided is kept only once it has been printed.
        let decided = judge.event(event);
        if let Some(opening) = &self.opening {
            opening.set(judge.opened());
        }
        if let Some(judged) = &self.judged {
            judged.set(judge.last_judged());
        }
        if self.inner.event(event)? == Flow::Stop {
            return Ok(Flow::Stop);
        }
        self.judge.say_progress(&mut judge);
        Ok(judge.record(decided))
    }

    fn checkpoint(&mut self, more_ready: bool) -> io::Result<Flow> {
        let mut judge = self.judge.lock();
        if judge.has_ended() {
            return Ok(Flow::Stop);
        }
        // Time may have changed a judgement (any frame comes here, bookmarks included).
        if judge.next_tick().is_some() {
            let ended = judge.tick(SystemTime::now());
            self.judge.say_progress(&mut judge);
            if ended.is_some() {
                return Ok(Flow::Stop);
            }
        }
        self.inner.checkpoint(more_ready)
    }

    fn synced(&mut self) -> io::Result<Flow> {
        let mut judge = self.judge.lock();
        if judge.has_ended() {
            return Ok(Flow::Stop);
        }
        if self.inner.synced()? == Flow::Stop {
            return Ok(Flow::Stop);
        }
        let decided = judge.synced(self.index);
        if decided.is_none() && judge.says_progress() {
            // Waiting for a typo would look like a hang: say what is being waited for.
            for label in judge.newly_missing() {
                kw_base::notices::notice(&format!(
                    "{label} does not exist yet; waiting for it to be created"
                ));
            }
        }
        Ok(judge.record(decided))
    }
}

/// The judge's judgement of the event being passed down to the printer (by the readiness
/// rules, before a stuck Pod's grace weighs in): set by the run's condition sink, taken by the
/// printer. One per run.
#[derive(Clone, Default)]
pub struct JudgedEvent(Arc<Mutex<Option<Judgement>>>);

impl JudgedEvent {
    pub fn set(&self, judgement: Option<Judgement>) {
        *kw_base::mutex::lock(&self.0) = judgement;
    }

    /// The judgement left for the event being printed, once.
    pub fn take(&self) -> Option<Judgement> {
        kw_base::mutex::lock(&self.0).take()
    }
}

impl std::fmt::Debug for JudgedEvent {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("JudgedEvent")
    }
}

/// Two options are the same when they read the same judge.
impl PartialEq for JudgedEvent {
    fn eq(&self, other: &JudgedEvent) -> bool {
        Arc::ptr_eq(&self.0, &other.0)
    }
}
