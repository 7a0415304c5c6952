//! Diagnostics on stderr: for `-v N`, timestamped lines that say why kw did what it did (the
//! level is set once from the command line), and a wait's progress lines. Notices, the lines
//! every run may show, are `notices`'. Credentials are never passed in here.
//!
//! As a second line of defence, every line written here (and every final error, through
//! [`clean`]) has the credentials kw holds replaced by `<redacted>`: a server or proxy that
//! echoes the `Authorization` header into an error message must not put the token in a CI log.
//! [`clean`] also shows control characters as text (ESC as `^[`, as kubectl's table cells do),
//! so a server's `Status.message` cannot move the cursor, retitle the terminal or fake lines.

use std::borrow::Cow;
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
    let message = message.to_string();
    crate::stderr_fold::unfolded(format!("{now} {}\n", clean(&message)).as_bytes());
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

/// Changes of a wait's judgement, one line each: what a CI log shows while kw waits. Not
/// notices: each object's label already names its context, and the line is the news.
pub fn progress(lines: &[String]) {
    let mut text = String::new();
    for line in lines {
        text.push_str("kw: ");
        text.push_str(&clean(line));
        text.push('\n');
    }
    crate::stderr_fold::unfolded(text.as_bytes());
}

/// `text` as it may go to stderr: every registered credential replaced by `<redacted>`, and
/// control characters (other than tab) written out as text.
pub fn clean(text: &str) -> Cow<'_, str> {
    let text = crate::secrets::redact(text);
    if !text.chars().any(|c| c.is_control() && c != '\t') {
        return text;
    }
    let mut shown = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        match c {
            '\t' => shown.push(c),
            '\x1b' => shown.push_str("^["),
            '\r' => shown.push_str("\\r"),
            '\n' => shown.push_str("\\n"),
            c if c.is_control() => shown.push_str(&format!("\\u{{{:04x}}}", c as u32)),
            c => shown.push(c),
        }
    }
    Cow::Owned(shown)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn registered_secrets_are_cut_out() {
        crate::secrets::register_secret("s3cr3t-value");
        crate::secrets::register_secret("abc");
        assert_eq!(
            clean("Unauthorized: Bearer s3cr3t-value, abc"),
            "Unauthorized: Bearer <redacted>, abc"
        );
    }

    #[test]
    fn control_characters_are_shown_not_obeyed() {
        assert_eq!(clean("plain\ttext"), "plain\ttext");
        assert_eq!(
            clean("\x1b]0;owned\x07red\x1b[31m\r\nfake\u{9b}"),
            "^[]0;owned\\u{0007}red^[[31m\\r\\nfake\\u{009b}"
        );
    }
}
