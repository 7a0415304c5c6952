//! "Left the selector, not deleted": the check that tells the two apart, off the event path.
//!
//! Under a label or field selector, a DELETED event also means "no longer matches". The event
//! alone cannot say which: kube-apiserver's watch cache sends the object's *previous* content
//! (the state that still matched) with the new resourceVersion (`cache_watcher.go`,
//! `convertToWatchEvent`), and a deletion sends the last state too. Only the server knows
//! whether the object still exists.
//!
//! So the watcher hands each such event to a checker thread and goes on at once: events never
//! wait for a request. The queue is small and never blocks; a burst larger than the queue (a
//! mass deletion) is summed up in one notice instead of costing the server a request per object.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::mpsc::{self, Receiver, SyncSender, TryRecvError, TrySendError};
use std::sync::Arc;

use kw_base::notices;
use kw_client::client::Client;

/// Objects waiting to be checked at most; more at once are counted, not checked.
pub const QUEUE: usize = 8;

/// One object to ask about.
struct Check {
    /// The object's URL path.
    path: String,
    /// `pod/web-1`, for the notice.
    label: String,
}

/// The watcher's end: hands objects over without waiting.
pub struct LeftSelectorChecks {
    queue: SyncSender<Check>,
    state: Arc<State>,
}

/// The checker thread's end.
pub struct Checker {
    queue: Receiver<Check>,
    state: Arc<State>,
}

#[derive(Default)]
struct State {
    /// Objects not checked because the queue was full.
    unchecked: AtomicU64,
    /// The watch is over: check nothing more.
    closing: AtomicBool,
}

/// A connected pair: the watcher keeps the first, a thread runs the second.
pub fn channel() -> (LeftSelectorChecks, Checker) {
    let (sender, receiver) = mpsc::sync_channel(QUEUE);
    let state = Arc::new(State::default());
    (
        LeftSelectorChecks {
            queue: sender,
            state: Arc::clone(&state),
        },
        Checker {
            queue: receiver,
            state,
        },
    )
}

impl LeftSelectorChecks {
    /// Ask, in the background, whether the object at `path` still exists.
    pub fn check(&self, path: String, label: String) {
        match self.queue.try_send(Check { path, label }) {
            Ok(()) => {}
            Err(TrySendError::Full(_)) => {
                self.state.unchecked.fetch_add(1, Ordering::Relaxed);
            }
            // The checker is gone (it only ends when the watch does): nothing to report to.
            Err(TrySendError::Disconnected(_)) => {}
        }
    }
}

impl Drop for LeftSelectorChecks {
    fn drop(&mut self) {
        // Objects still queued when the watch ends are not worth a request any more.
        self.state.closing.store(true, Ordering::Relaxed);
    }
}

impl Checker {
    /// Check objects until the watcher's end is dropped.
    pub fn run(self, client: &Client) {
        // Wait for the first object of a burst, then take the rest of it without waiting.
        while let Ok(first) = self.queue.recv() {
            let mut next = Some(first);
            while let Some(check) = next.take() {
                if self.state.closing.load(Ordering::Relaxed) {
                    return;
                }
                if client.get(&check.path, "application/json").is_ok() {
                    notices::notice(&format!(
                        "{} left the selector; it was not deleted",
                        check.label
                    ));
                }
                next = match self.queue.try_recv() {
                    Ok(check) => Some(check),
                    Err(TryRecvError::Empty) => None,
                    Err(TryRecvError::Disconnected) => return,
                };
            }
            self.report_unchecked();
        }
    }

    fn report_unchecked(&self) {
        let unchecked = self.state.unchecked.swap(0, Ordering::Relaxed);
        if unchecked > 0 && !self.state.closing.load(Ordering::Relaxed) {
            notices::notice(&format!(
                "{unchecked} more object{} left the selector or {} deleted; too many at once to check which",
                if unchecked == 1 { "" } else { "s" },
                if unchecked == 1 { "was" } else { "were" },
            ));
        }
    }
}
