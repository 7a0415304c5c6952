//! When a run must stop: `--request-timeout` and `--timeout`.

use std::time::Instant;

/// When a run must stop: `--request-timeout` cuts a watch quietly (kubectl's meaning);
/// `--timeout` is a failure of its own.
#[derive(Debug, Clone, Copy)]
pub struct Deadlines {
    pub(super) request: Option<Instant>,
    pub(super) timeout: Option<Instant>,
}

impl Deadlines {
    /// The watcher stops at the earlier of the two.
    pub fn watcher(&self) -> Option<Instant> {
        match (self.request, self.timeout) {
            (Some(r), Some(t)) => Some(r.min(t)),
            (r, t) => r.or(t),
        }
    }

    /// `--timeout`'s instant: a template run stops there too (`--request-timeout` cuts only a watch).
    pub fn timeout(&self) -> Option<Instant> {
        self.timeout
    }

    /// Whether `--timeout` (and not an earlier `--request-timeout`) is what ended the run.
    pub fn timed_out(&self, now: Instant) -> bool {
        self.timeout
            .is_some_and(|t| now >= t && self.request.is_none_or(|r| t <= r))
    }
}
