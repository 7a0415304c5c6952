//! How a watcher's work ends, at each of its levels: the stream of one watch request
//! (`StreamEnd`), the work cut short by the sink or a failure (`Interrupted`), and what the
//! runner is told once the watcher is done (`WatcherReport`).

use std::io;
use std::time::Duration;

use crate::watcher::error::WatchError;
use kw_client::client::ClientError;
use kw_events::decode::DecodeError;
use kw_events::events::{Flow, Sink};

/// How the stream of one watch request ended (the watcher goes on after any of these but
/// `Deadline`).
pub(super) enum StreamEnd {
    /// The server closed the stream cleanly (timeoutSeconds, or its own timeout).
    Clean,
    /// 410: the resourceVersion is too old; the history is gone.
    Expired,
    /// The connection broke, went silent or carried garbage; resume after a pause.
    Broken { pause: Duration },
    /// The deadline passed.
    Deadline,
}

/// Why the watcher's work ends before its time: the sink said stop, or something failed.
/// Private to the watcher: `Watcher::run` turns it into a `WatcherReport` or a `WatchError`.
#[derive(Debug)]
pub(super) enum Interrupted {
    Stopped,
    Failed(WatchError),
}

impl From<WatchError> for Interrupted {
    fn from(e: WatchError) -> Interrupted {
        Interrupted::Failed(e)
    }
}

impl From<ClientError> for Interrupted {
    fn from(e: ClientError) -> Interrupted {
        Interrupted::Failed(e.into())
    }
}

impl From<DecodeError> for Interrupted {
    fn from(e: DecodeError) -> Interrupted {
        Interrupted::Failed(e.into())
    }
}

/// What a watcher tells its runner when it is done: how many events it printed (for messages
/// such as "No resources found"), and whether its sink stopped it.
#[derive(Debug, Default, Clone, Copy)]
pub struct WatcherReport {
    pub printed: u64,
    /// The sink stopped the watch (a condition met, a limit reached).
    pub stopped: bool,
}

/// A sink's answer, for `?`: stop when it says so, fail when it failed.
pub(super) fn flow(answer: io::Result<Flow>) -> Result<(), Interrupted> {
    match answer {
        Ok(Flow::Continue) => Ok(()),
        Ok(Flow::Stop) => Err(Interrupted::Stopped),
        Err(e) => Err(Interrupted::Failed(WatchError::Output(e))),
    }
}

/// The end of a complete list: write it out, then say it is complete.
pub(super) fn end_of_sync(sink: &mut dyn Sink) -> Result<(), Interrupted> {
    flow(sink.checkpoint(false))?;
    flow(sink.synced())
}
