//! The sink of one watcher under `--until`/`--fail-on`/`--max-events`: it forwards every event
//! to the printer's sink, then asks the shared judge whether the watch is over.

use std::io;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::SystemTime;

use crate::events::{Event, Flow, Sink};
use crate::output::printer::JudgedEvent;

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

/// Whether the event a condition sink passes on is the one its object first met an `--until`
/// condition with: set by the sink before it passes the event on, read by a gate below it that
/// prints each object once, as kubectl wait does. One per watcher.
#[derive(Clone, Debug, Default)]
pub struct Opening(Arc<AtomicBool>);

impl Opening {
    /// Whether the event being passed on opens the gate.
    pub fn is_open(&self) -> bool {
        self.0.load(Ordering::Relaxed)
    }

    fn set(&self, open: bool) {
        self.0.store(open, Ordering::Relaxed);
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
        if decided.is_none() {
            // Waiting for a typo would look like a hang: say what is being waited for.
            for label in judge.newly_missing() {
                crate::log::notice(&format!(
                    "{label} does not exist yet; waiting for it to be created"
                ));
            }
        }
        Ok(judge.record(decided))
    }
}
