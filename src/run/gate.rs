//! `-o name` under `--until` prints what kubectl wait prints: each object once, when it first
//! meets an `--until` condition (`deployment.apps/shop`), not once per event (once per
//! condition met, under kubectl wait's repeated `--for`). The judge says
//! which event that is (`wait::Opening`, set by the watcher's condition sink before the event
//! comes down); the gate, just above the output, lets that event through and holds back the
//! rest. The auxiliary watches still see every event (the gate is below their tap).

use std::io;

use kw_events::events::{Event, Flow, Sink};
use kw_wait::wait::Opening;

/// Passes to `inner` each event as many times as `opening` says (most, none).
pub(super) struct Gate<S> {
    pub opening: Opening,
    pub inner: S,
}

impl<S: Sink> Sink for Gate<S> {
    fn event(&mut self, event: &Event<'_>) -> io::Result<Flow> {
        for _ in 0..self.opening.times() {
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
