//! A flag mistake, worded for the user.

use kw_client::config::flags::RequestTimeoutError;
use kw_output::output::printer::{self};

/// A flag mistake, worded for the user (without the `error: ` prefix). Each names the flag
/// or argument at fault.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PlanError {
    #[error("--until and --fail-on judge the initial list too: drop --watch-only")]
    ConditionsWithWatchOnly,
    #[error("--output-watch-events option can only be used with --watch or --watch-only")]
    WatchEventsWithoutWatch,
    /// `-o`, `--show-labels` with it, or `--sort-by`.
    #[error(transparent)]
    Format(#[from] printer::FormatError),
    /// A flag whose value its own parser refused, with that parser's words.
    #[error("{reason}")]
    Value { flag: &'static str, reason: String },
    /// kubectl's words: a subresource is read of named objects only.
    #[error("subresource cannot be used when bulk resources are specified")]
    BulkSubresource,
    #[error("-f names the objects to get: give no TYPE or NAME with it")]
    ManifestWithTargets,
    /// kubectl's words, and what to give instead.
    #[error("Required resource not specified: give a TYPE (`kw get pods`), TYPE/NAME, or -f FILE")]
    NothingToGet,
    #[error(transparent)]
    Namespaces(#[from] kw_watcher::watcher::namespaces::NamespaceSetError),
    #[error(
        "a resource cannot be retrieved by name across several namespaces (-n {set}): \
         name one namespace, or drop the names"
    )]
    NamesAcrossNamespaces { set: String },
    /// A name or namespace that would change the request's path (`..`, `a%2F`).
    #[error(transparent)]
    InvalidSegment(#[from] kw_client::config::settings::PathSegmentError),
    /// `--until`, `--fail-on` or `--for`.
    #[error(transparent)]
    Condition(#[from] kw_wait::wait::ConditionError),
    #[error(transparent)]
    RequestTimeout(#[from] RequestTimeoutError),
    #[error("--max-events must be at least 1")]
    NoEvents,
    #[error("--timeout {text:?} is not a duration such as 30s, 5m or 1h30m")]
    Timeout { text: String },
    #[error("--fail-grace {text:?} is not a duration such as 0, 30s or 2m")]
    FailGrace { text: String },
    #[error("you must specify the type of resource to get")]
    NoType,
    #[error("resource types must not be empty: {typed:?}")]
    EmptyType { typed: String },
    #[error("names can only be given with a single resource type (or as TYPE/NAME)")]
    NamesWithSeveralTypes,
    #[error("there is no need to specify a resource type as a separate argument when passing arguments in resource/name form (e.g. 'kw get resource/<resource_name>' instead of 'kw get resource resource/<resource_name>'): {target}")]
    TypeBeforeSlashForm { target: String },
    #[error("arguments in resource/name form must have a single resource and name: {target}")]
    BadSlashForm { target: String },
    #[error("--live draws on a terminal, and stdout is not one: use -w for a stream of events")]
    LiveWithoutTerminal,
    #[error("--live shows a table: drop -o {format}, or use -w")]
    LiveWithFormat { format: String },
    #[error("--live shows the current state: drop --watch-only, or use -w")]
    LiveWithWatchOnly,
    /// `--logs` writes on the terminal `--live` draws on.
    #[error("--logs writes the Pods' logs on stderr, where --live draws: drop one of them")]
    LogsWithLive,
    /// `--logs` on a `get` that waits for nothing.
    #[error("--logs shows the Pods' logs while kw waits: add --until or --fail-on")]
    LogsWithoutWait,
    /// kw's event flags under `--live`, which draws state, not events.
    #[error("--live shows the current state, not events: drop {flag}, or use -w")]
    EventFlagWithLive { flag: &'static str },
    /// `--diff`/`--ignore-unchanged` without a watch: there are no MODIFIED events to act on.
    #[error("{flag} acts on the changes seen while watching: add -w")]
    NeedsWatch { flag: &'static str },
    /// `--timestamps`/`--diff` with `-o json|jsonl`: kw's members ride in the event envelope.
    #[error(
        "{flag} with -o {format}: add --output-watch-events, whose event lines carry {member:?}"
    )]
    NeedsWatchEvents {
        flag: &'static str,
        format: String,
        member: &'static str,
    },
    /// `--timestamps`/`--diff` with a format that has no place for them.
    #[error("{flag} has no place in -o {format}: use a table, or -o json|jsonl with --output-watch-events")]
    NoPlaceInFormat { flag: &'static str, format: String },
    /// kubectl's rule: a plain watch takes one name per type.
    #[error("watch is only supported on individual resources and resource collections, but {0} resources were found")]
    TooManyNames(usize),
    /// `--sort-by` over a table of several objects fetched one by one or several types: kubectl
    /// sorts the server's Tables themselves, which lack the objects' fields, and refuses.
    #[error("couldn't find any field with path {} in the list of objects", kw_go::goformat::quote::quote(.0))]
    SortTables(String),
}
