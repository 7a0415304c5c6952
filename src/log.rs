//! Diagnostics on stderr for `-v N`: timestamped lines that say why kw did what it did. The level
//! is set once from the command line; credentials are never passed in here.

use std::io::Write;
use std::sync::atomic::{AtomicU8, Ordering};

static LEVEL: AtomicU8 = AtomicU8::new(0);

/// Requests, reconnects, re-lists and backoff decisions.
pub const REQUESTS: u8 = 4;
/// Response statuses and timings.
pub const RESPONSES: u8 = 6;

pub fn set_level(level: u8) {
    LEVEL.store(level, Ordering::Relaxed);
}

pub fn enabled(level: u8) -> bool {
    LEVEL.load(Ordering::Relaxed) >= level
}

/// Write one diagnostic line if `-v` is at least `level`.
pub fn log(level: u8, message: std::fmt::Arguments<'_>) {
    if !enabled(level) {
        return;
    }
    let now = humantime::format_rfc3339_millis(std::time::SystemTime::now());
    let _ = writeln!(std::io::stderr().lock(), "{now} {message}");
}

/// `vlog!(level, "format", args...)`: a diagnostic line at `-v level`.
#[macro_export]
macro_rules! vlog {
    ($level:expr, $($arg:tt)*) => {
        if $crate::log::enabled($level) {
            $crate::log::log($level, format_args!($($arg)*));
        }
    };
}

/// A one-line notice on stderr that is not an error: a re-list, a retry. Dimmed on a terminal so
/// it stands apart from the output it interrupts.
pub fn notice(message: &str) {
    use std::io::IsTerminal;
    let stderr = std::io::stderr();
    let line = if stderr.is_terminal() && std::env::var_os("NO_COLOR").is_none() {
        format!("\x1b[2mkw: {message}\x1b[0m")
    } else {
        format!("kw: {message}")
    };
    let _ = writeln!(stderr.lock(), "{line}");
}
