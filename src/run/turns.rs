//! A fleet member's watch run in turns (`kw_base::parking`): its stream, when silent, waits
//! parked with the poller instead of holding a thread (issue #47). The watch and everything
//! it prints through are owned here, so that any of the pool's threads can run its next turn.

use kw_base::notices::ContextScope;
use kw_base::parking::{Job, Turn};
use kw_client::discovery::cluster_handle::CachedTypes;
use kw_events::events::Sink;
use kw_watcher::watcher::{Progress, WatchError, Watcher, WatcherReport};

/// What is told when the watch ends (the member's news, as a watch on a thread of its own
/// reports it).
pub(super) type Ended = Box<dyn FnOnce(Result<WatcherReport, WatchError>) + Send>;

/// One target's watch, its sink and its context.
pub(super) struct TurnWatch {
    pub watcher: Watcher<'static>,
    pub sink: Box<dyn Sink + Send>,
    pub scope: Option<ContextScope>,
    /// To forget the cached types when the server says one is gone.
    pub stale: Option<CachedTypes>,
    pub ended: Option<Ended>,
}

impl Job for TurnWatch {
    fn resume(&mut self) -> Turn {
        if let Some(scope) = &self.scope {
            scope.enter();
        }
        let result = match self.watcher.run_parkable(&mut *self.sink) {
            Ok(Progress::Parked(parked)) => return Turn::Park(parked),
            Ok(Progress::Finished(watched)) => Ok(watched),
            Err(error) => Err(error),
        };
        if let (Err(WatchError::Client(error)), Some(stale)) = (&result, &self.stale) {
            stale.forget_if_gone(error);
        }
        if let Some(ended) = self.ended.take() {
            ended(result);
        }
        Turn::Done
    }
}
