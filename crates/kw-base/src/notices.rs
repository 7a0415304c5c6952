//! Notices: the lines every run may show on stderr that are not errors (a re-list, a retry),
//! worded for the context whose thread says them (`ContextScope`), sent straight to stderr or
//! held while the live view owns the terminal, and remembered when said once (`notice_once`).

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, OnceLock};

use crate::log::{self, clean};
use crate::mutex::lock;

/// Write a notice, already cleaned and labelled, on stderr; `dim`: on a terminal that takes
/// colour (`Notices::new`).
fn write_notice(message: &str, dim: bool) {
    let line = if dim {
        format!("\x1b[2mkw: {message}\x1b[0m")
    } else {
        format!("kw: {message}")
    };
    crate::stderr_fold::unfolded(format!("{line}\n").as_bytes());
}

/// Where notices go: straight to stderr, or, while the live view owns the terminal, held
/// instead of tearing its frame (the view shows the latest; all are written out after its last
/// frame, or by the Ctrl-C handler). `main` makes the one value, names it once as where this
/// process's notices go (`send_notices_to`), and hands clones to the run (for the view) and to
/// the Ctrl-C handler. Clones share what is held.
#[derive(Clone, Default)]
pub struct Notices {
    held: Arc<Mutex<Option<Vec<String>>>>,
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
static NOTICES: OnceLock<Notices> = OnceLock::new();

/// The most notices held (the oldest go first): a cluster failing for hours must not grow it.
const MAX_HELD: usize = 100;

/// Send this process's notices to `notices` from now on (once; later calls change nothing).
pub fn send_notices_to(notices: Notices) {
    let _ = NOTICES.set(notices);
}

/// Say `message` (already cleaned and labelled) where this process's notices go.
pub fn say(message: String) {
    match NOTICES.get() {
        Some(notices) => notices.say(message),
        None => write_notice(&message, false),
    }
}

/// Notices already said by `notice_once`, each as its key (with its context).
static SAID: Mutex<Vec<String>> = Mutex::new(Vec::new());

/// Whether `key` is said for the first time this run (it is remembered as said from now on).
pub fn first_time(key: String) -> bool {
    let mut said = lock(&SAID);
    if said.contains(&key) {
        return false;
    }
    said.push(key);
    true
}

/// The context whose work this thread does, in a run over several contexts, and whether that
/// cluster is failing right now (shared by all of the context's threads).
#[derive(Clone)]
pub struct ContextScope {
    name: Arc<str>,
    failing: Arc<AtomicBool>,
}

impl ContextScope {
    pub fn new(name: Arc<str>) -> ContextScope {
        ContextScope {
            name,
            failing: Default::default(),
        }
    }

    pub fn name(&self) -> Arc<str> {
        Arc::clone(&self.name)
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
            crate::vlog!(log::REQUESTS, "context \"{}\": {message}", scope.name);
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
    say(message);
}

/// A notice that names its context itself (`east/pod/web: ...`), so none is put in front.
pub fn notice_unscoped(message: &str) {
    let scope = SCOPE.with(|scope| scope.borrow_mut().take());
    notice(message);
    SCOPE.with(|slot| *slot.borrow_mut() = scope);
}

/// `notice`, but only the first time this run: several watches that meet the same fact (three
/// types in one missing namespace) say it once. In a run over several contexts, once per context.
pub fn notice_once(message: &str) {
    let key = match scope() {
        Some(scope) => format!("{}\n{message}", scope.name),
        None => message.to_string(),
    };
    if first_time(key) {
        notice(message);
    }
}
