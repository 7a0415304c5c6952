//! `-o name` under `--until` prints what kubectl wait prints: each object once, when it first
//! meets an `--until` condition (`deployment.apps/shop`), not once per event. The judge says
//! which event that is (`wait::Opening`, set by the watcher's condition sink before the event
//! comes down); the gate, just above the output, lets that event through and holds back the
//! rest. The auxiliary watches still see every event (the gate is below their tap).

use std::io;

use crate::events::{Event, Flow, Sink};
use crate::wait::Opening;

/// Passes to `inner` only the events `opening` says are open.
pub(super) struct Gate<S> {
    pub opening: Opening,
    pub inner: S,
}

impl<S: Sink> Sink for Gate<S> {
    fn event(&mut self, event: &Event<'_>) -> io::Result<Flow> {
        if self.opening.is_open() {
            self.inner.event(event)
        } else {
            Ok(Flow::Continue)
        }
    }

    fn checkpoint(&mut self, more_ready: bool) -> io::Result<Flow> {
        self.inner.checkpoint(more_ready)
    }

    fn synced(&mut self) -> io::Result<Flow> {
        self.inner.synced()
    }
}
