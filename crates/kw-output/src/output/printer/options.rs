//! What a printer is told, resolved from flags once: the format and everything that changes
//! how it lays objects out (`PrintOptions`, `--sort-by`), and how the object formats arrange a
//! run's objects (`ObjectLayout`).

use kw_go::jsonpath::JsonPath;

use super::diff_lines::DiffDetail;
use super::format::{relaxed_jsonpath, FormatError, OutputFormat};
use super::timestamp::TimestampFormat;

/// How the object formats (`-o json`, `-o yaml`) arrange what they print, by kubectl's rules.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum ObjectLayout {
    /// Not watching: everything inside one `List`.
    List,
    /// Watching, or a single named object: each object on its own.
    Objects,
    /// `--output-watch-events`: each event in kubectl's `WatchEvent` envelope.
    Events,
}

impl ObjectLayout {
    pub(crate) fn of(options: &PrintOptions) -> ObjectLayout {
        if options.watch_events {
            ObjectLayout::Events
        } else if options.watching || options.single_object {
            ObjectLayout::Objects
        } else {
            ObjectLayout::List
        }
    }

    /// kubectl drops `metadata.managedFields` from the objects it prints unless asked not to;
    /// its watch-event envelope bypasses that, so events keep them.
    pub(crate) fn strips_managed_fields(self, options: &PrintOptions) -> bool {
        !options.show_managed_fields && self != ObjectLayout::Events
    }
}

/// Everything a printer needs to know, resolved from flags once.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct PrintOptions {
    pub format: OutputFormat,
    /// `--output-watch-events`: say the event type (EVENT column, or `{"type":..,"object":..}`).
    pub watch_events: bool,
    /// `-w`/`--watch-only`: objects are printed one after another rather than as one `List`.
    pub watching: bool,
    /// `-A`: a NAMESPACE column in tables.
    pub all_namespaces: bool,
    /// Several contexts (`--context a,b`): a CONTEXT column in tables, `CONTEXT/` before
    /// names, and `"kw":{"context":..}` on every JSON line and document.
    pub with_context: bool,
    /// `--no-headers`.
    pub no_headers: bool,
    /// One named object without `--watch` (`kw get pod nginx -o json`): kubectl prints it bare
    /// rather than inside a `List`.
    pub single_object: bool,
    /// One named object, watched or not: kubectl reads one with an `items` array as a list.
    pub named_object: bool,
    /// `--show-managed-fields`: keep `metadata.managedFields` in `-o json` (kubectl drops them).
    pub show_managed_fields: bool,
    /// `--show-labels`: a LABELS column in tables.
    pub show_labels: bool,
    /// `-L/--label-columns`: a column per label key in tables.
    pub label_columns: Vec<String>,
    /// `--sort-by`: the order of the initial list in tables.
    pub sort_by: Option<SortBy>,
    /// `--timestamps`: a TIME column in tables, a `"ts"` field in JSON event lines.
    pub timestamps: Option<TimestampFormat>,
    /// When kw started (`--timestamps=relative` counts from here).
    pub started: Option<std::time::SystemTime>,
    /// Colour tables (resolved from `--color`, `NO_COLOR`, `CLICOLOR_FORCE` and the terminal).
    pub color: bool,
    /// Output is a terminal: stable columns, display-width alignment.
    pub terminal: bool,
    /// The terminal's width in columns, when output is one and it is known (`--diff` lines
    /// are cut to fit).
    pub width: Option<usize>,
    /// `--diff`: the changed fields of MODIFIED objects, and how many of them a table shows.
    pub diff: Option<DiffDetail>,
    /// `--ignore-unchanged`.
    pub ignore_unchanged: bool,
    /// `--only`: the event types to print (empty: all).
    pub only: Vec<kw_wire::EventType>,
    /// `--watch-only` with a table: the initial list arrives (`Origin::List`) to be measured,
    /// not printed, so that a terminal table's columns start as wide as the objects that exist
    /// rather than grow (and re-print the header) with every longer row the watch brings.
    pub measure_list: bool,
    /// `--timeout`'s instant: a go-template run stops there (`GoTemplateOutOfTime`).
    pub deadline: Option<std::time::Instant>,
    /// `--server-print=false`: the table is kubectl's client-side one, NAME and AGE for every
    /// kind (the objects come without rows).
    pub client_side_table: bool,
    /// Several types or `--show-kind`: a row the printer lays out itself (the server sent no
    /// Table) puts the kind before the name, as the chain does to the server's rows.
    pub kind_in_names: bool,
}

/// `--sort-by`, parsed.
#[derive(Debug, Clone, PartialEq)]
pub struct SortBy {
    pub template: String,
    pub path: JsonPath,
}

impl SortBy {
    /// kubectl reads `--sort-by` as it reads custom-column paths (`.a.b`, `{.a.b}`, `a.b`).
    pub fn parse(value: &str) -> Result<SortBy, FormatError> {
        let template = relaxed_jsonpath(value)?;
        let path = JsonPath::parse(&template)
            .map_err(|e| FormatError::JsonPath {
                template: template.clone(),
                message: e.to_string(),
            })?
            .allow_missing_keys(true);
        Ok(SortBy { template, path })
    }
}
