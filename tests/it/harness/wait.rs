//! Waiting for a condition without hanging: every wait has a limit, and checks the test's
//! watchdog while it waits.

use std::time::{Duration, Instant};

use super::watchdog;

/// How often a wait looks again at what it waits for.
pub const POLL: Duration = Duration::from_millis(20);

/// Wait until `done` holds, looking every 20 ms; fail the test after `limit`, saying `what`
/// it waited for.
pub fn wait_for(what: &str, limit: Duration, mut done: impl FnMut() -> bool) {
    let deadline = Instant::now() + limit;
    while !done() {
        watchdog::check();
        assert!(Instant::now() < deadline, "waited {limit:?} for {what}");
        std::thread::sleep(POLL);
    }
}
