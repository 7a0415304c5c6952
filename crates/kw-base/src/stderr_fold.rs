//! Folds on stderr: a run of container log lines (`--logs`) shown in a CI log as one collapsible
//! group, GitHub's `::group::`/`::endgroup::` or GitLab's `section_start`/`section_end`. A fold
//! stays open only while lines of the same stream follow one another: any other line kw writes
//! on stderr (a notice, a `-v` line, a wait's progress) closes it first, through `unfolded`,
//! so nothing of kw's own is hidden in a fold of a container's log.

use std::io::Write;
use std::sync::Mutex;
use std::time::SystemTime;

use crate::mutex::lock;

/// Which CI's markers fold the lines.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Fold {
    GitHub,
    GitLab,
}

/// The fold open now: its title, and how to close it.
struct Open {
    title: String,
    fold: Fold,
    /// GitLab's section name (`kw_logs_N`): its end names it again.
    section: String,
}

static OPEN: Mutex<Option<Open>> = Mutex::new(None);
/// The CI's markers for this process, named once by `main` (unset: no folds).
static FOLD: std::sync::OnceLock<Fold> = std::sync::OnceLock::new();

/// Fold runs of log lines with `fold`'s markers from now on (the CI's report is on).
pub fn fold_as(fold: Fold) {
    let _ = FOLD.set(fold);
}
static SECTIONS: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);

fn now() -> u64 {
    SystemTime::now()
        .duration_since(SystemTime::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs())
}

fn closing(open: &Open) -> String {
    match open.fold {
        Fold::GitHub => "::endgroup::\n".to_string(),
        Fold::GitLab => format!("\x1b[0Ksection_end:{}:{}\r\x1b[0K\n", now(), open.section),
    }
}

/// Write `bytes` (whole lines) on stderr inside the fold titled `title`, opening it (and
/// closing another) if need be; without a CI's markers (`fold_as`), as they are. `title` must
/// already be clean of line breaks and controls.
pub fn folded(title: &str, bytes: &[u8]) {
    let mut open = lock(&OPEN);
    let mut stderr = std::io::stderr().lock();
    let Some(&fold) = FOLD.get() else {
        let _ = stderr.write_all(bytes);
        return;
    };
    if open.as_ref().is_none_or(|o| o.title != title) {
        if let Some(before) = open.take() {
            let _ = stderr.write_all(closing(&before).as_bytes());
        }
        let section = format!(
            "kw_logs_{}",
            SECTIONS.fetch_add(1, std::sync::atomic::Ordering::Relaxed)
        );
        let opening = match fold {
            Fold::GitHub => format!("::group::{title}\n"),
            Fold::GitLab => format!(
                "\x1b[0Ksection_start:{}:{section}[collapsed=true]\r\x1b[0K{title}\n",
                now()
            ),
        };
        let _ = stderr.write_all(opening.as_bytes());
        *open = Some(Open {
            title: title.to_string(),
            fold,
            section,
        });
    }
    let _ = stderr.write_all(bytes);
}

/// Write `bytes` on stderr outside any fold (closing the one open first).
pub fn unfolded(bytes: &[u8]) {
    let mut open = lock(&OPEN);
    let mut stderr = std::io::stderr().lock();
    if let Some(before) = open.take() {
        let _ = stderr.write_all(closing(&before).as_bytes());
    }
    let _ = stderr.write_all(bytes);
}

/// Close the fold open, if any.
pub fn close() {
    unfolded(b"");
}
