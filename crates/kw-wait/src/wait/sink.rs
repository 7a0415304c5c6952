//! The sink of one watcher under `--until`/`--fail-on`/`--max-events`: it forwards every event
//! to the printer's sink, then asks the shared judge whether the watch is over.

use std::io;
use std::time::SystemTime;

use kw_events::events::{Event, Flow, JudgeNote, Sink};

use super::shared::SharedJudge;

/// The sink of one watcher: forwards to `inner`, then lets the judge decide. Every watcher of a
/// run shares one judge; the judge's lock is held while printing so that nothing is printed
/// after the event that ended the watch. Each event goes on with the judge's word on it
/// (`Event::judged`): how many times kubectl wait prints it, and its readiness judgement.
pub struct ConditionSink<S> {
    judge: SharedJudge,
    index: usize,
    inner: S,
}

impl<S: Sink> ConditionSink<S> {
    /// The sink of watcher number `index` (0-based, below the `targets` given to the judge).
    pub fn new(judge: SharedJudge, index: usize, inner: S) -> ConditionSink<S> {
        ConditionSink {
            judge,
            index,
            inner,
        }
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
        // Judged before it is printed, so that what prints it knows the judge's word; what
        // the judge decided is kept only once it has been printed.
        let decided = judge.event(event);
        let note = JudgeNote {
            prints: judge.opened(),
            judgement: judge.last_judged(),
        };
        let judged = Event {
            judged: Some(note),
            ..*event
        };
        if self.inner.event(&judged)? == Flow::Stop {
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
            // The judge's, over every context: a named object's label names its own.
            for line in judge.newly_missing() {
                kw_base::notices::notice_unscoped(&line);
            }
        }
        Ok(judge.record(decided))
    }
}
