//! Streaming lists: the initial state read as the first events of a watch
//! (`sendInitialEvents=true`), ended by the initial-events-end bookmark, and the way back to
//! LIST + WATCH when a server refuses them or they keep breaking.

use std::time::Instant;

use crate::watcher::ends::{end_of_sync, Interrupted, StreamEnd};
use crate::watcher::list::{self, SyncError};
use crate::watcher::state::{Mode, PendingSync, Phase, WatchState};
use kw_base::log;
use kw_base::vlog;
use kw_events::events::{Origin, Sink};

/// Streaming lists cut short this many times in a row make kw use LIST + WATCH instead.
pub(super) const MAX_STREAMING_FAILURES: u32 = 2;

/// The next watch stream starts with the current state (a streaming list). A sync that
/// replaces one still pending keeps its count of failed attempts.
pub(super) fn begin(
    state: &mut WatchState<'_>,
    phase: &mut Phase,
    origin: Origin,
    print: bool,
    since: Instant,
) {
    state.resource_version.clear();
    let failed_attempts = phase.syncing().map_or(0, |p| p.failed_attempts);
    *phase = Phase::StreamingSync(PendingSync {
        origin,
        print,
        since,
        printed_before: state.printed,
        failed_attempts,
    });
}

/// The server refused a streaming list: read the state with a LIST instead, from now on.
pub(super) fn fall_back_to_list(
    state: &mut WatchState<'_>,
    phase: &mut Phase,
    sink: &mut dyn Sink,
    pending: PendingSync,
) -> Result<Option<StreamEnd>, Interrupted> {
    vlog!(
        log::REQUESTS,
        "streaming lists are refused or keep breaking; using LIST + WATCH"
    );
    state.mode = Mode::Objects;
    *phase = Phase::Watching { lost_since: None };
    match list::sync(
        state,
        sink,
        pending.origin,
        pending.print,
        pending.origin == Origin::List,
    ) {
        Ok(()) => {}
        Err(SyncError::Deadline) => return Ok(Some(StreamEnd::Deadline)),
        Err(SyncError::Fatal(e)) => return Err(e),
    }
    end_of_sync(sink)?;
    if pending.origin == Origin::Relist {
        state.relist_notice(pending.since, pending.printed_before);
    }
    Ok(None)
}

/// The end-of-initial-events bookmark: the streaming list is complete.
pub(super) fn finish(
    state: &mut WatchState<'_>,
    phase: &mut Phase,
    sink: &mut dyn Sink,
) -> Result<(), Interrupted> {
    let Some(pending) = phase.syncing() else {
        return Ok(());
    };
    *phase = Phase::Watching { lost_since: None };
    for gone in state.known.end_sync() {
        if pending.print {
            state.emit_gone(sink, &gone, pending.origin)?;
        }
    }
    end_of_sync(sink)?;
    if pending.origin == Origin::Relist {
        state.relist_notice(pending.since, pending.printed_before);
    } else {
        list::say_if_namespace_missing(state);
    }
    Ok(())
}
