//! `-o name` under `--until` prints what kubectl wait prints: each object once, when it first
//! meets an `--until` condition (`deployment.apps/shop`), not once per event (once per
//! condition met, under kubectl wait's repeated `--for`). The judge says which event that is,
//! on the event itself (`Event::judged`, `JudgeNote::prints`); the gate, just above the output,
//! lets that event through and holds back the rest. The auxiliary watches still see every
//! event (the gate is below their tap).

use std::io;

use kw_events::events::{Event, Flow, Sink};

/// Passes to `inner` each event as many times as the judge said it prints (most, none; none
/// for an event no judge has seen).
pub(super) struct Gate<S> {
    pub inner: S,
}

impl<S: Sink> Sink for Gate<S> {
    fn event(&mut self, event: &Event<'_>) -> io::Result<Flow> {
        let prints = event.judged.map_or(0, |note| note.prints);
        for _ in 0..prints {
            if self.inner.event(event)? == Flow::Stop {
                return Ok(Flow::Stop);
            }
        }
        Ok(Flow::Continue)
    }

    fn checkpoint(&mut self, more_ready: bool) -> io::Result<Flow> {
        self.inner.checkpoint(more_ready)
    }

    fn synced(&mut self) -> io::Result<Flow> {
        self.inner.synced()
    }
}
