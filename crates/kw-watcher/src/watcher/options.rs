//! How to watch, as the plan asks it.

use std::time::Instant;

/// How to watch.
#[derive(Debug, Clone)]
pub struct Options {
    /// Ask the server for Tables (human output) rather than objects.
    pub table: bool,
    /// Page size of lists; 0 means one request.
    pub chunk_size: u64,
    /// Keep watching after the list.
    pub watch: bool,
    /// Print the initial list (false with `--watch-only`).
    pub print_list: bool,
    /// Stop quietly at this moment (`--request-timeout` while watching, as kubectl).
    pub deadline: Option<Instant>,
    /// Refuse any single value larger than this.
    pub max_object_size: usize,
    /// A named object must exist when a watch starts (kubectl's rule); false when waiting for
    /// it to be created is the point (`--until`/`--fail-on`).
    pub named_must_exist: bool,
    /// A server that cannot be reached, or keeps failing, before the first list ends the run (a
    /// typo in the address fails at once). False in a run over several contexts: there a
    /// cluster that is down at the start is waited for while the others are watched.
    pub give_up_at_start: bool,
    /// Get the initial state from a streaming list (`sendInitialEvents=true`) instead of a LIST,
    /// falling back to LIST + WATCH when the server refuses. Never with tables (kubernetes#126206).
    pub streaming_list: bool,
    /// Say once on stderr what an empty watch waits for (a namespace yet to be created); not
    /// under `--quiet`.
    pub tells_waits: bool,
}
