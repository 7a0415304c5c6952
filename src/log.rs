//! Diagnostics on stderr for `-v N`: timestamped lines that say why kw did what it did. The level
//! is set once from the command line; credentials are never passed in here.
//!
//! As a second line of defence, every line written here (and every final error, through
//! [`clean`]) has the credentials kw holds replaced by `<redacted>`: a server or proxy that
//! echoes the `Authorization` header into an error message must not put the token in a CI log.
//! [`clean`] also shows control characters as text (ESC as `^[`, as kubectl's table cells do),
//! so a server's `Status.message` cannot move the cursor, retitle the terminal or fake lines.

use std::borrow::Cow;
use std::io::Write;
use std::sync::atomic::{AtomicU8, Ordering};
use std::sync::{Mutex, MutexGuard, PoisonError};

static LEVEL: AtomicU8 = AtomicU8::new(0);

/// The credentials in use, to be cut out of anything written to stderr.
static SECRETS: Mutex<Vec<String>> = Mutex::new(Vec::new());

/// Shorter strings are not redacted: cutting every `ab` out of messages would garble them, and
/// no server issues a bearer token that short.
const MIN_SECRET_LEN: usize = 6;

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
    let _ = writeln!(std::io::stderr().lock(), "{now} {}", clean(&message));
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

/// The context whose work this thread does, in a run over several contexts, and whether that
/// cluster is failing right now (shared by all of the context's threads).
#[derive(Clone)]
pub struct ContextScope {
    name: std::sync::Arc<str>,
    failing: std::sync::Arc<std::sync::atomic::AtomicBool>,
}

impl ContextScope {
    pub fn new(name: std::sync::Arc<str>) -> ContextScope {
        ContextScope {
            name,
            failing: Default::default(),
        }
    }

    pub fn name(&self) -> std::sync::Arc<str> {
        std::sync::Arc::clone(&self.name)
    }

    /// Whether the cluster's last request failed (and none has succeeded since).
    pub fn is_failing(&self) -> bool {
        self.failing.load(Ordering::Relaxed)
    }

    /// Notices from this thread name the context from now on.
    pub fn enter(&self) {
        SCOPE.with(|scope| *scope.borrow_mut() = Some(self.clone()));
    }
}

thread_local! {
    static SCOPE: std::cell::RefCell<Option<ContextScope>> = const { std::cell::RefCell::new(None) };
}

/// The context scope this thread logs in, to hand to the threads it starts.
pub fn current_scope() -> Option<ContextScope> {
    scope()
}

fn scope() -> Option<ContextScope> {
    SCOPE.with(|scope| scope.borrow().clone())
}

/// A failure kw retries (a broken connection, a 5xx). With one cluster each one is a notice; in
/// a run over several contexts, only the first of a run of failures is, so that a cluster that
/// is down for an hour costs one line, not one per retry.
pub fn trouble(message: &str) {
    match scope() {
        Some(scope) if scope.failing.swap(true, Ordering::Relaxed) => {
            crate::vlog!(REQUESTS, "context \"{}\": {message}", scope.name);
        }
        _ => notice(message),
    }
}

/// A request succeeded: in a run over several contexts, a cluster that was failing says it is
/// back, once.
pub fn recovered() {
    if let Some(scope) = scope() {
        if scope.failing.swap(false, Ordering::Relaxed) {
            notice("reachable again");
        }
    }
}

/// A one-line notice on stderr that is not an error: a re-list, a retry. Dimmed on a terminal so
/// it stands apart from the output it interrupts. In a run over several contexts it names the
/// context of the thread that says it.
pub fn notice(message: &str) {
    let message = match scope() {
        Some(scope) => clean(&format!("context \"{}\": {message}", scope.name)).into_owned(),
        None => clean(message).into_owned(),
    };
    match NOTICES.get() {
        Some(notices) => notices.say(message),
        None => write_notice(&message, false),
    }
}

/// Write a notice, already cleaned and labelled, on stderr; `dim`: on a terminal that takes
/// colour (`Notices::new`).
fn write_notice(message: &str, dim: bool) {
    let line = if dim {
        format!("\x1b[2mkw: {message}\x1b[0m")
    } else {
        format!("kw: {message}")
    };
    let _ = writeln!(std::io::stderr().lock(), "{line}");
}

/// Where notices go: straight to stderr, or, while the live view owns the terminal, held
/// instead of tearing its frame (the view shows the latest; all are written out after its last
/// frame, or by the Ctrl-C handler). `main` makes the one value, names it once as where this
/// process's notices go (`send_notices_to`), and hands clones to the run (for the view) and to
/// the Ctrl-C handler. Clones share what is held.
#[derive(Clone, Default)]
pub struct Notices {
    held: std::sync::Arc<Mutex<Option<Vec<String>>>>,
    /// Dim each notice, so it stands apart from the output it interrupts (`main` asks
    /// `output::terminal`, which reads the environment).
    dim: bool,
}

impl Notices {
    pub fn new(dim: bool) -> Notices {
        Notices {
            held: Default::default(),
            dim,
        }
    }

    /// Hold notices from now on (`release` writes them out).
    pub fn hold(&self) {
        lock(&self.held).get_or_insert_with(Vec::new);
    }

    /// The latest notice held, if any.
    pub fn latest(&self) -> Option<String> {
        lock(&self.held).as_ref().and_then(|h| h.last().cloned())
    }

    /// Stop holding notices, and write out those held.
    pub fn release(&self) {
        let held = lock(&self.held).take();
        for message in held.into_iter().flatten() {
            write_notice(&message, self.dim);
        }
    }

    /// Hold `message` (already cleaned and labelled) while holding, else write it.
    fn say(&self, message: String) {
        {
            let mut held = lock(&self.held);
            if let Some(held) = held.as_mut() {
                if held.len() == MAX_HELD {
                    held.remove(0);
                }
                held.push(message);
                return;
            }
        }
        write_notice(&message, self.dim);
    }
}

/// Where this process's notices go, named once by `main` (unset: straight to stderr). Set
/// once like the level, not a channel: what is held is read through the `Notices` value.
static NOTICES: std::sync::OnceLock<Notices> = std::sync::OnceLock::new();

/// The most notices held (the oldest go first): a cluster failing for hours must not grow it.
const MAX_HELD: usize = 100;

/// Send this process's notices to `notices` from now on (once; later calls change nothing).
pub fn send_notices_to(notices: Notices) {
    let _ = NOTICES.set(notices);
}

/// Changes of a wait's judgement, one line each: what a CI log shows while kw waits. Not
/// notices: each object's label already names its context, and the line is the news.
pub fn progress(lines: &[String]) {
    let mut stderr = std::io::stderr().lock();
    for line in lines {
        let _ = writeln!(stderr, "kw: {}", clean(line));
    }
}

/// A notice that names its context itself (`east/pod/web: ...`), so none is put in front.
pub fn notice_unscoped(message: &str) {
    let scope = SCOPE.with(|scope| scope.borrow_mut().take());
    notice(message);
    SCOPE.with(|slot| *slot.borrow_mut() = scope);
}

/// Notices already said by `notice_once`, as written (with their context).
static SAID: Mutex<Vec<String>> = Mutex::new(Vec::new());

/// `notice`, but only the first time this run: several watches that meet the same fact (three
/// types in one missing namespace) say it once. In a run over several contexts, once per context.
pub fn notice_once(message: &str) {
    let key = match scope() {
        Some(scope) => format!("{}\n{message}", scope.name),
        None => message.to_string(),
    };
    let mut said = lock(&SAID);
    if said.contains(&key) {
        return;
    }
    said.push(key);
    drop(said);
    notice(message);
}

/// Remember a credential so that [`clean`] cuts it out of stderr.
pub fn register_secret(secret: &str) {
    if secret.len() < MIN_SECRET_LEN {
        return;
    }
    let mut secrets = lock(&SECRETS);
    if !secrets.iter().any(|known| known == secret) {
        secrets.push(secret.to_string());
    }
}

/// `text` as it may go to stderr: every registered credential replaced by `<redacted>`, and
/// control characters (other than tab) written out as text.
pub fn clean(text: &str) -> Cow<'_, str> {
    let secrets = lock(&SECRETS);
    let mut text = Cow::Borrowed(text);
    for secret in secrets.iter() {
        if text.contains(secret.as_str()) {
            text = Cow::Owned(text.replace(secret.as_str(), "<redacted>"));
        }
    }
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

/// `mutex`, locked even if a thread panicked while holding it: what it guards (a list, a
/// count, a judge's record) stays usable, and kw's answer is better than a second panic.
pub fn lock<T: ?Sized>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(PoisonError::into_inner)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn registered_secrets_are_cut_out() {
        register_secret("s3cr3t-value");
        register_secret("abc");
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
