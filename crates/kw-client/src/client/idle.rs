//! A watch's idle timeout counted in whole events, not reads (issue 61, point 6). ureq's
//! per-read timeout starts again at every byte: a server that sends one byte of an event every
//! few seconds, and never the rest, kept a watch stuck for ever with no notice. A stream read
//! through `UntilIdle` fails once the idle timeout has passed since its last whole event (or
//! since it was opened), however many bytes came in meanwhile; the watcher says when an event is
//! whole (`EventClock::whole_event`), as only its framer knows.

use std::io::{self, Read};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// Why a stream read through `UntilIdle` failed: the error inside its `io::Error`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error("no whole watch event within the idle timeout ({})", humantime::format_duration(*.idle))]
pub struct NoWholeEvent {
    pub idle: Duration,
}

/// When the stream's last whole event came, shared by its reader and the watcher.
#[derive(Debug, Clone)]
pub struct EventClock {
    opened: Instant,
    /// Milliseconds from `opened` to the last whole event.
    last: Arc<AtomicU64>,
}

impl EventClock {
    fn new() -> EventClock {
        EventClock {
            opened: Instant::now(),
            last: Arc::new(AtomicU64::new(0)),
        }
    }

    /// An event was read whole: the idle timeout counts from now.
    pub fn whole_event(&self) {
        let since = u64::try_from(self.opened.elapsed().as_millis()).unwrap_or(u64::MAX);
        self.last.store(since, Ordering::Relaxed);
    }

    /// How long since the last whole event (or since the stream opened, before the first).
    pub fn silent_for(&self) -> Duration {
        let last = Duration::from_millis(self.last.load(Ordering::Relaxed));
        self.opened.elapsed().saturating_sub(last)
    }
}

/// A stream's reader that fails once `idle` has passed without a whole event. Checked before
/// each read: a trickle ends at the idle timeout (at its next byte), a silent connection by the
/// per-read timeout, which is the same length.
pub struct UntilIdle<R> {
    inner: R,
    clock: EventClock,
    idle: Duration,
}

impl<R> UntilIdle<R> {
    /// `inner` bounded by `idle`, and the clock the watcher marks its whole events on.
    pub fn new(inner: R, idle: Duration) -> (UntilIdle<R>, EventClock) {
        let clock = EventClock::new();
        let reader = UntilIdle {
            inner,
            clock: clock.clone(),
            idle,
        };
        (reader, clock)
    }
}

impl<R: Read> Read for UntilIdle<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        if self.clock.silent_for() >= self.idle {
            return Err(io::Error::new(
                io::ErrorKind::TimedOut,
                NoWholeEvent { idle: self.idle },
            ));
        }
        self.inner.read(buf)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// One byte a read, for ever: what a trickling server looks like from above.
    struct Trickle;

    impl Read for Trickle {
        fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
            std::thread::sleep(Duration::from_millis(5));
            buf[0] = b'{';
            Ok(1)
        }
    }

    #[test]
    fn bytes_without_a_whole_event_do_not_keep_a_stream_alive() {
        let (mut reader, clock) = UntilIdle::new(Trickle, Duration::from_millis(100));
        let mut byte = [0u8];
        let mut reads = 0;
        let error = loop {
            match reader.read(&mut byte) {
                Ok(_) => reads += 1,
                Err(error) => break error,
            }
            assert!(reads < 1000, "the trickle was never cut");
        };
        assert_eq!(error.kind(), io::ErrorKind::TimedOut);
        assert!(error
            .get_ref()
            .is_some_and(|inner| inner.is::<NoWholeEvent>()));
        // A whole event starts the count again.
        clock.whole_event();
        assert!(reader.read(&mut byte).is_ok());
    }
}
