//! Printers: turn events into bytes on a writer. They know nothing of flags, HTTP or the watcher;
//! the printer is chosen once from `-o` (as kubectl's `cli-runtime/pkg/printers` does).
//!
//! `table` (default and `-o wide`, through `tabwriter`, cells by `cell`) and `json` reproduce
//! kubectl v1.32 byte for byte (`crate::goformat` holds Go's encoders); `jsonl` and `name` are
//! kw's own line formats. Printers write into the caller's buffered writer and never flush it.

pub mod cell;
pub mod changes;
mod columns;
pub mod diff_lines;
mod extras;
pub mod fallback;
mod filter;
pub mod format;

mod go_sort;
mod json;
mod jsonl;
mod name;
mod reencode;
mod sort_keys;
mod sorted_list;
mod style;
mod table;
pub mod tabwriter;
mod template;
pub mod timestamp;
mod yaml;

pub use columns::ColumnsPrinter;
pub use diff_lines::DiffDetail;
pub use fallback::fallback_row;
pub use filter::parse_only;
pub use format::{check_show_labels, parse_output, Column, FormatError};
pub use json::JsonPrinter;
pub use jsonl::JsonlPrinter;
pub use name::NamePrinter;
pub use table::TablePrinter;
pub use template::{JsonPathPrinter, TemplateError};
pub use timestamp::TimestampFormat;
pub use yaml::YamlPrinter;

use std::io::{self, Write};
use std::str::FromStr;

use crate::events::Event;

/// What `-o` asked for.
#[derive(Debug, Clone, PartialEq, Default)]
pub enum OutputFormat {
    /// The default: server-side printed table.
    #[default]
    Table,
    /// `-o wide`: the table including `priority > 0` columns.
    Wide,
    /// `-o json`: kubectl's indented JSON, byte for byte.
    Json,
    /// `-o jsonl`: one compact object per line (kw's own format).
    Jsonl,
    /// `-o name`: `pod/nginx`.
    Name,
    /// `-o yaml`: kubectl's YAML, byte for byte.
    Yaml,
    /// `-o jsonpath=TEMPLATE` / `-o jsonpath-file=FILE` / `-o jsonpath-as-json=TEMPLATE`.
    JsonPath {
        template: String,
        path: crate::jsonpath::JsonPath,
        /// `jsonpath-as-json`: each action's results as an indented JSON array.
        as_json: bool,
    },
    /// `-o custom-columns=SPEC` / `-o custom-columns-file=FILE`.
    CustomColumns {
        columns: Vec<Column>,
        from_file: bool,
    },
}

impl OutputFormat {
    /// Table modes ask the server for `meta.k8s.io/v1` Tables.
    pub fn is_table(&self) -> bool {
        matches!(self, OutputFormat::Table | OutputFormat::Wide)
    }

    /// Formats kubectl prints the whole `List` with (so something even when nothing matched:
    /// `[]`, a header), and then says nothing on stderr.
    pub fn prints_empty_list(&self) -> bool {
        matches!(
            self,
            OutputFormat::Json
                | OutputFormat::Yaml
                | OutputFormat::JsonPath { .. }
                | OutputFormat::CustomColumns { .. }
        )
    }
}

impl FromStr for OutputFormat {
    type Err = FormatError;

    /// The value of `-o` (template files it names are read).
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        parse_output(s)
    }
}

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
    pub only: Vec<crate::wire::EventType>,
}

/// `--sort-by`, parsed.
#[derive(Debug, Clone, PartialEq)]
pub struct SortBy {
    pub template: String,
    pub path: crate::jsonpath::JsonPath,
}

impl SortBy {
    /// kubectl reads `--sort-by` as it reads custom-column paths (`.a.b`, `{.a.b}`, `a.b`).
    pub fn parse(value: &str) -> Result<SortBy, FormatError> {
        let template = format::relaxed_jsonpath(value)?;
        let path = crate::jsonpath::JsonPath::parse(&template)
            .map_err(|e| FormatError::JsonPath {
                template: template.clone(),
                message: e.to_string(),
            })?
            .allow_missing_keys(true);
        Ok(SortBy { template, path })
    }
}

/// An object that is not valid JSON reached a printer that must decode it.
#[derive(Debug, thiserror::Error)]
#[error("cannot decode object {name:?} for printing: {source}")]
pub struct ObjectDecodeError {
    pub name: String,
    #[source]
    pub source: serde_json::Error,
}

/// A printer receives events, one at a time, and writes them out.
/// `Send`: several watcher threads may share one printer (`kw get pods,deploy -w`).
pub trait Printer: Send {
    /// Print one event. A printer may hold rows back to align columns until `checkpoint`.
    fn print(&mut self, event: &Event<'_>, out: &mut dyn Write) -> io::Result<()>;

    /// Everything printed so far belongs together (the end of the initial list, or one watch
    /// event): write out whatever is held back. kubectl flushes its tabwriter at the same points.
    fn checkpoint(&mut self, out: &mut dyn Write) -> io::Result<()>;

    /// No more events will come: close anything still open (the `List` of `-o json` without
    /// `--watch`).
    fn finish(&mut self, out: &mut dyn Write) -> io::Result<()>;
}

/// Choose the printer for these options (behind the event filters when asked for).
pub fn new_printer(options: &PrintOptions) -> Box<dyn Printer> {
    let mut printer = format_printer(options);
    // kubectl sorts object formats only without --watch (tables it sorts either way).
    let sorts_objects = !options.format.is_table() && !options.watching;
    if let Some(sort_by) = options.sort_by.as_ref().filter(|_| sorts_objects) {
        printer = Box::new(sorted_list::SortingPrinter::new(printer, &sort_by.path));
    }
    if options.only.is_empty() && !options.ignore_unchanged {
        return printer;
    }
    Box::new(filter::FilterPrinter::new(
        printer,
        &options.only,
        options.ignore_unchanged,
    ))
}

fn format_printer(options: &PrintOptions) -> Box<dyn Printer> {
    match &options.format {
        OutputFormat::Table | OutputFormat::Wide => Box::new(TablePrinter::new(options)),
        OutputFormat::Json => Box::new(JsonPrinter::new(options)),
        OutputFormat::Jsonl => Box::new(JsonlPrinter::new(options)),
        OutputFormat::Name => Box::new(NamePrinter::new()),
        OutputFormat::Yaml => Box::new(YamlPrinter::new(options)),
        OutputFormat::JsonPath {
            template,
            path,
            as_json,
        } => Box::new(JsonPathPrinter::new(template, path, *as_json, options)),
        OutputFormat::CustomColumns { columns, from_file } => {
            Box::new(ColumnsPrinter::new(columns, *from_file, options))
        }
    }
}

#[cfg(test)]
mod tests {
    use serde_json::value::RawValue;

    use super::*;
    use crate::events::{Origin, ResourceInfo};
    use crate::wire::EventType;

    /// Every format gets a working printer (no `todo!`), and each writes what its format says.
    #[test]
    fn new_printer_builds_each_format() {
        let resource = ResourceInfo {
            plural: "pods".into(),
            singular: "pod".into(),
            kind: "Pod".into(),
            group: String::new(),
            version: "v1".into(),
            namespaced: true,
        };
        let raw = RawValue::from_string(r#"{"metadata":{"name":"nginx"}}"#.into()).unwrap();
        let event = Event {
            kind: EventType::Added,
            origin: Origin::List,
            resource: &resource,
            object: &raw,
            object_lacks_type: true,
            name: "nginx",
            namespace: "default",
            row: None,
            context: None,
        };
        let cases = [
            (OutputFormat::Name, "pod/nginx\n"),
            (
                OutputFormat::Jsonl,
                "{\"apiVersion\":\"v1\",\"kind\":\"Pod\",\"metadata\":{\"name\":\"nginx\"}}\n",
            ),
            (
                OutputFormat::Json,
                "{\n    \"apiVersion\": \"v1\",\n    \"kind\": \"Pod\",\n    \"metadata\": {\n        \"name\": \"nginx\"\n    }\n}\n",
            ),
            // A table event without a row (the server could not print it) is laid out by kw,
            // from the object, with the kind's usual columns.
            (
                OutputFormat::Table,
                "NAME    READY   STATUS   RESTARTS   AGE\nnginx   0/0              0          <unknown>\n",
            ),
        ];
        for (format, expected) in cases {
            let options = PrintOptions {
                format: format.clone(),
                watch_events: false,
                watching: true,
                all_namespaces: false,
                no_headers: false,
                single_object: false,
                show_managed_fields: false,
                ..PrintOptions::default()
            };
            let mut printer = new_printer(&options);
            let mut out = Vec::new();
            printer.print(&event, &mut out).unwrap();
            printer.checkpoint(&mut out).unwrap();
            printer.finish(&mut out).unwrap();
            assert_eq!(String::from_utf8(out).unwrap(), expected, "{format:?}");
        }
    }

    /// In a run over several contexts, every format says the context in its one place: a
    /// CONTEXT column, a `CONTEXT/` prefix, a top-level `kw.context` member (in the event
    /// envelope beside `synthetic`, else in the object).
    #[test]
    fn every_format_labels_the_context() {
        let resource = ResourceInfo {
            plural: "pods".into(),
            singular: "pod".into(),
            kind: "Pod".into(),
            group: String::new(),
            version: "v1".into(),
            namespaced: true,
        };
        let raw = RawValue::from_string(r#"{"metadata":{"name":"nginx"}}"#.into()).unwrap();
        let event = |origin| Event {
            kind: EventType::Added,
            origin,
            resource: &resource,
            object: &raw,
            object_lacks_type: true,
            name: "nginx",
            namespace: "default",
            row: None,
            context: Some("east"),
        };
        let cases = [
            (OutputFormat::Name, false, "east/pod/nginx\n"),
            (
                OutputFormat::Jsonl,
                false,
                "{\"apiVersion\":\"v1\",\"kind\":\"Pod\",\"metadata\":{\"name\":\"nginx\"},\"kw\":{\"context\":\"east\"}}\n",
            ),
            (
                OutputFormat::Jsonl,
                true,
                "{\"type\":\"ADDED\",\"object\":{\"apiVersion\":\"v1\",\"kind\":\"Pod\",\"metadata\":{\"name\":\"nginx\"}},\"kw\":{\"context\":\"east\",\"synthetic\":true}}\n",
            ),
            (
                OutputFormat::Json,
                false,
                "{\n    \"apiVersion\": \"v1\",\n    \"kind\": \"Pod\",\n    \"kw\": {\n        \"context\": \"east\"\n    },\n    \"metadata\": {\n        \"name\": \"nginx\"\n    }\n}\n",
            ),
            (
                OutputFormat::Json,
                true,
                "{\"type\":\"ADDED\",\"object\":{\"apiVersion\":\"v1\",\"kind\":\"Pod\",\"metadata\":{\"name\":\"nginx\"}},\"kw\":{\"context\":\"east\",\"synthetic\":true}}\n",
            ),
            (
                OutputFormat::Yaml,
                false,
                "apiVersion: v1\nkind: Pod\nkw:\n  context: east\nmetadata:\n  name: nginx\n",
            ),
            (
                OutputFormat::Table,
                false,
                "CONTEXT   NAME    READY   STATUS   RESTARTS   AGE\neast      nginx   0/0              0          <unknown>\n",
            ),
        ];
        for (format, watch_events, expected) in cases {
            let options = PrintOptions {
                format: format.clone(),
                watch_events,
                watching: true,
                with_context: true,
                ..PrintOptions::default()
            };
            let mut printer = new_printer(&options);
            let mut out = Vec::new();
            let origin = if watch_events {
                Origin::Relist
            } else {
                Origin::List
            };
            printer.print(&event(origin), &mut out).unwrap();
            printer.checkpoint(&mut out).unwrap();
            printer.finish(&mut out).unwrap();
            assert_eq!(String::from_utf8(out).unwrap(), expected, "{format:?}");
        }
    }
}
