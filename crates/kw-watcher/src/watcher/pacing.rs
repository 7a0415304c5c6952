//! When to try again: the pause after a failed request or a broken stream, and waiting it (or
//! a parked stream's socket) out without passing the deadline.

use std::time::{Duration, Instant};

use kw_base::parking::Parked;
use kw_client::client::backoff::Backoff;
use kw_client::client::ClientError;

/// How long to wait before retrying after this error, or `None` if retrying cannot help.
pub(super) fn retry_pause(error: &ClientError, backoff: &mut Backoff) -> Option<Duration> {
    if !error.is_transient() {
        return None;
    }
    Some(match error {
        ClientError::Status {
            code: 429,
            retry_after,
            ..
        } => retry_after.unwrap_or_else(|| backoff.failed(Instant::now())),
        ClientError::Status { retry_after, .. } => retry_after
            .unwrap_or_default()
            .max(backoff.failed(Instant::now())),
        _ => backoff.failed(Instant::now()),
    })
}

/// How long to wait after a watch broke, having delivered `events` events first.
pub(super) fn pause_after_break(backoff: &mut Backoff, events: u64) -> Duration {
    if events > 0 {
        backoff.progressed();
    }
    backoff.failed(Instant::now())
}

/// Sleep unless the deadline comes first; true if it did.
pub(super) fn sleep_unless_past(deadline: Option<Instant>, pause: Duration) -> bool {
    match deadline {
        Some(deadline) => {
            let now = Instant::now();
            // A pause too long to add to an Instant certainly outlasts the deadline.
            if now.checked_add(pause).is_none_or(|end| end >= deadline) {
                std::thread::sleep(deadline.saturating_duration_since(now));
                return true;
            }
            std::thread::sleep(pause);
            false
        }
        None => {
            std::thread::sleep(pause);
            false
        }
    }
}

/// Wait for a parked watch's socket on this thread (a watcher run whole, not in turns).
pub(super) fn wait_parked(parked: Parked) {
    let left = parked.wake_at.saturating_duration_since(Instant::now());
    kw_client::client::probe::wait_readable(parked.fd, left);
}
