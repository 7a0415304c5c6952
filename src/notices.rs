//! Where kw's notices go (`log::notice` words them): straight to stderr, or held while the live
//! view owns the terminal; and which were already said, for `log::notice_once`.

use std::io::Write;
use std::sync::{Arc, Mutex, OnceLock};

use crate::mutex::lock;

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

/// Notices already said by `log::notice_once`, each as its key (with its context).
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
