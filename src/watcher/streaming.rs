//! Streaming lists: the initial state read as the first events of a watch
//! (`sendInitialEvents=true`), ended by the initial-events-end bookmark, and the way back to
//! LIST + WATCH when a server refuses them or they keep breaking.

use super::*;

impl Watcher<'_> {
    /// The next watch stream starts with the current state (a streaming list). A sync that
    /// replaces one still pending keeps its count of failed attempts.
    pub(super) fn begin_streaming_sync(&mut self, origin: Origin, print: bool, since: Instant) {
        self.resource_version.clear();
        let failed_attempts = self.syncing().map_or(0, |p| p.failed_attempts);
        self.phase = Phase::StreamingSync(PendingSync {
            origin,
            print,
            since,
            printed_before: self.printed,
            failed_attempts,
        });
    }

    /// The server refused a streaming list: read the state with a LIST instead, from now on.
    pub(super) fn fall_back_to_list(
        &mut self,
        sink: &mut dyn Sink,
        pending: PendingSync,
    ) -> Result<Option<StreamEnd>, Interrupted> {
        vlog!(
            log::REQUESTS,
            "streaming lists are refused or keep breaking; using LIST + WATCH"
        );
        self.mode = Mode::Objects;
        self.phase = Phase::Watching { lost_since: None };
        match self.sync(
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
            self.relist_notice(pending.since, pending.printed_before);
        }
        Ok(None)
    }

    /// The end-of-initial-events bookmark: the streaming list is complete.
    pub(super) fn finish_streaming_sync(&mut self, sink: &mut dyn Sink) -> Result<(), Interrupted> {
        let Some(pending) = self.syncing() else {
            return Ok(());
        };
        self.phase = Phase::Watching { lost_since: None };
        for gone in self.known.end_sync() {
            if pending.print {
                self.emit_gone(sink, &gone, pending.origin)?;
            }
        }
        end_of_sync(sink)?;
        if pending.origin == Origin::Relist {
            self.relist_notice(pending.since, pending.printed_before);
        } else {
            self.say_if_namespace_missing();
        }
        Ok(())
    }
}
