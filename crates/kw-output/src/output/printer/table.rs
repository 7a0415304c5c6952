//! The default and `-o wide` output: server-side printed rows laid out as kubectl v1.32 lays them
//! out (`cli-runtime/pkg/printers/tableprinter.go` through `liggitt/tabwriter`).
//!
//! What this reproduces:
//! - the header (column names upper-cased) is printed with the first row, and again only when
//!   the server sends different column definitions; an event without definitions reuses the
//!   last ones (kubectl's `lastColumns`/`printedHeaders`);
//! - `-A` puts a NAMESPACE column first, `--output-watch-events` an EVENT column before that
//!   (kubectl decorates the namespace, then prepends the event column);
//! - `priority > 0` columns only with `-o wide`; cells beyond the column definitions are dropped;
//! - rows are held in the tabwriter until `checkpoint`, kubectl's `Flush` points, so the initial
//!   list is aligned as a whole and later rows drift as they do under kubectl;
//! - `-L KEY` adds a column per label (header: the key's last `/` segment, upper-cased; cell:
//!   the value or nothing) and `--show-labels` a LABELS column (`k=v,...` sorted, `<none>`),
//!   after the server's columns, as kubectl's `decorateTable` does;
//! - kw-only, off by default: `--timestamps` (a TIME column first), colour (event types,
//!   status words, bold headers; widths measured without the escape codes), `--diff` (the
//!   changed fields in lines under each MODIFIED row), and on a terminal stable columns (widths
//!   reserved for STATUS; a row that would not fit re-prints the header with the new widths
//!   instead of drifting) measured in display columns;
//! - `--sort-by` sorts the rows of the initial list (kubectl's `TableSorter`: the JSONPath is
//!   evaluated on each row's whole object, which the request asks for with
//!   `includeObject=Object`); watch events after it are printed as they come.

use std::io::{self, Write};

use serde_json::Value;

use kw_events::events::{kind_prefix, Event, Origin, TableRow};
use kw_go::jsonpath::JsonPath;
use kw_wire::{EventType, TableColumnDefinition};

use super::cell::{write_cell, write_string_cell};
use super::changes::Changes;
use super::contract::DecodedObject;
use super::diff_lines::{describe_field, field_changes, DiffDetail};
use super::fallback::{client_side_row, fallback_row};
use super::go_sort::go_sort;
use super::raw_widths::{raw_width, RawWidths};
use super::sort_keys::{sort_key_order, NothingSorted, Unsortable, TABLE_SORTER};
use super::style::{
    event_color, is_status_column, status_color, write_bold, write_colored, write_dimmed,
};
use super::tabwriter::TabWriter;
use super::timestamp::{format_time_cell, TimestampFormat};
use super::{PrintOptions, Printer};

/// A row of a sorted list, held until the list is complete: its sort key, its line, and its
/// cells' printed and raw widths ([`RawWidths`]).
type HeldRow = (Option<Value>, Vec<u8>, Option<Vec<(usize, usize)>>);

/// kubectl's `formatEventType`: event types padded to the width of MODIFIED.
fn event_type_cell(kind: EventType) -> &'static str {
    match kind {
        EventType::Added => "ADDED   ",
        EventType::Modified => "MODIFIED",
        EventType::Deleted => "DELETED ",
        EventType::Error => "ERROR   ",
        EventType::Bookmark => "BOOKMARK",
    }
}

pub struct TablePrinter {
    wide: bool,
    with_namespace: bool,
    /// Several contexts: a CONTEXT column before NAMESPACE.
    with_context: bool,
    with_event_type: bool,
    no_headers: bool,
    /// The column definitions of the last table that had some.
    last_columns: Vec<TableColumnDefinition>,
    /// The generation of the definitions last seen (`TableRow::generation`).
    last_generation: u64,
    /// Whether a header for `last_columns` has been printed (or suppressed as a repeat).
    printed_headers: bool,
    /// One line of tab-separated text, reused for every row.
    line: Vec<u8>,
    tabwriter: TabWriter,
    /// `-L`: label keys shown as columns.
    label_columns: Vec<String>,
    /// `--show-labels`.
    show_labels: bool,
    /// `--sort-by`: rows of the initial list wait here, with their sort key, until the list
    /// is complete.
    sort_by: Option<JsonPath>,
    /// `--sort-by` as kubectl names it in its errors (`{.a.b}`).
    sort_template: String,
    /// Each with its raw widths, noted once sorted (kubectl pads the first sorted row).
    held: Vec<HeldRow>,
    /// Not watching: a sorted list none of whose rows has the field is not printed at all
    /// (kubectl's `SortingPrinter` fails on it, and `get` ignores a printer's failure).
    drops_unsortable: bool,
    /// Rows laid out here: as kubectl's client-side table (`--server-print=false`), and with
    /// the kind before the name.
    fallback: (bool, bool),
    timestamps: Option<TimestampFormat>,
    started: std::time::SystemTime,
    color: bool,
    /// Terminal: keep columns stable (see the module header).
    stable: bool,
    /// The initial list has been written out.
    list_done: bool,
    /// `--diff`: the objects seen so far, and how much of their changes to show.
    changes: Option<(Changes, DiffDetail)>,
    /// The terminal's width, when known: a diff line is cut to fit.
    width: Option<usize>,
    header: Vec<u8>,
    /// The listed rows' raw cell widths, which pad the header as kubectl 1.37 pads it.
    raw_widths: RawWidths,
}

/// Diff lines sit under their row, indented.
const DIFF_INDENT: &str = "    ";

/// A STATUS column keeps room for the longest usual status word (`ContainerCreating`).
const STATUS_RESERVE: usize = 17;

impl TablePrinter {
    pub fn new(options: &PrintOptions) -> TablePrinter {
        TablePrinter {
            wide: options.format == super::OutputFormat::Wide,
            with_namespace: options.all_namespaces,
            with_context: options.with_context,
            with_event_type: options.watch_events,
            no_headers: options.no_headers,
            last_columns: Vec::new(),
            last_generation: 0,
            printed_headers: false,
            line: Vec::with_capacity(256),
            tabwriter: TabWriter::kubectl(),
            label_columns: options.label_columns.clone(),
            show_labels: options.show_labels,
            sort_by: options.sort_by.as_ref().map(|s| s.path.clone()),
            sort_template: options
                .sort_by
                .as_ref()
                .map(|s| s.template.clone())
                .unwrap_or_default(),
            drops_unsortable: !options.watching,
            fallback: (options.client_side_table, options.kind_in_names),
            held: Vec::new(),
            timestamps: options.timestamps,
            started: options.started.unwrap_or_else(std::time::SystemTime::now),
            color: options.color,
            stable: options.terminal,
            list_done: false,
            changes: options.diff.map(|detail| match detail {
                DiffDetail::All => (Changes::untrimmed(), detail),
                DiffDetail::Brief => (Changes::default(), detail),
            }),
            width: options.width,
            header: Vec::new(),
            raw_widths: RawWidths::default(),
        }
        .with_measure(options)
    }

    fn with_measure(mut self, options: &PrintOptions) -> TablePrinter {
        self.tabwriter.set_measure(options.color, options.terminal);
        self
    }

    /// Columns kw puts before the server's: TIME, EVENT, CONTEXT, NAMESPACE.
    fn prefix_columns(&self) -> usize {
        usize::from(self.timestamps.is_some())
            + usize::from(self.with_event_type)
            + usize::from(self.with_context)
            + usize::from(self.with_namespace)
    }

    fn includes_labels(&self) -> bool {
        self.show_labels || !self.label_columns.is_empty()
    }

    fn visible(&self, column: &TableColumnDefinition) -> bool {
        self.wide || column.priority == 0
    }

    /// The header line for `columns`, into `self.header`.
    fn write_header(&mut self, columns: &[TableColumnDefinition]) {
        let color = self.color;
        let mut names: Vec<Vec<u8>> = Vec::new();
        if self.timestamps.is_some() {
            names.push(b"TIME".to_vec());
        }
        if self.with_event_type {
            names.push(b"EVENT".to_vec());
        }
        if self.with_context {
            names.push(b"CONTEXT".to_vec());
        }
        if self.with_namespace {
            names.push(b"NAMESPACE".to_vec());
        }
        for column in columns.iter().filter(|c| self.wide || c.priority == 0) {
            // The server names the columns: its controls are shown as a cell's are, and a line
            // break cuts the name rather than the header (found by the `table` fuzz target).
            let mut upper = Vec::new();
            write_go_upper(&mut upper, &column.name);
            let mut name = Vec::new();
            write_string_cell(&mut name, &String::from_utf8_lossy(&upper));
            names.push(name);
        }
        for key in &self.label_columns {
            let mut name = Vec::new();
            let last = key.rsplit('/').next().unwrap_or(key);
            write_go_upper(&mut name, last);
            names.push(name);
        }
        if self.show_labels {
            names.push(b"LABELS".to_vec());
        }
        self.header.clear();
        for (index, name) in names.iter().enumerate() {
            if index > 0 {
                self.header.push(b'\t');
            }
            match std::str::from_utf8(name) {
                Ok(text) if color => write_bold(&mut self.header, text),
                _ => self.header.extend_from_slice(name),
            }
        }
        self.header.push(b'\n');
    }

    /// On a terminal, give the STATUS column room for the usual status words up front.
    fn reserve_status(&mut self, columns: &[TableColumnDefinition]) {
        let prefix = self.prefix_columns();
        let visible = columns.iter().filter(|c| self.wide || c.priority == 0);
        for (index, column) in visible.enumerate() {
            if column.name.eq_ignore_ascii_case("status") {
                self.tabwriter.reserve(prefix + index, STATUS_RESERVE);
            }
        }
    }

    fn write_row(
        &mut self,
        event: &Event<'_>,
        object: &DecodedObject<'_>,
        columns: &[TableColumnDefinition],
        cells: &[serde_json::Value],
    ) {
        let mut first = true;
        if let Some(format) = self.timestamps {
            first = false;
            let now = std::time::SystemTime::now();
            self.line
                .extend_from_slice(format_time_cell(format, now, self.started).as_bytes());
        }
        if self.with_event_type {
            if !first {
                self.line.push(b'\t');
            }
            first = false;
            let color = if self.color {
                event_color(event.kind)
            } else {
                None
            };
            let text = event_type_cell(event.kind);
            match color {
                Some(color) => write_colored(&mut self.line, text, color),
                None => self.line.extend_from_slice(text.as_bytes()),
            }
        }
        if self.with_context {
            if !first {
                self.line.push(b'\t');
            }
            first = false;
            write_string_cell(&mut self.line, event.context.unwrap_or_default());
        }
        if self.with_namespace {
            if !first {
                self.line.push(b'\t');
            }
            first = false;
            write_string_cell(&mut self.line, event.namespace);
        }
        // Zip drops cells beyond the definitions, as kubectl does (issue 66379).
        for (column, cell) in columns.iter().zip(cells) {
            if !self.visible(column) {
                continue;
            }
            if !first {
                self.line.push(b'\t');
            }
            first = false;
            let start = self.line.len();
            write_cell(&mut self.line, cell);
            if self.color && is_status_column(&column.name) {
                let color = std::str::from_utf8(&self.line[start..])
                    .ok()
                    .and_then(status_color);
                if let Some(color) = color {
                    let cell = self.line.split_off(start);
                    // `status_color` matched the cell as UTF-8 just above.
                    let text = String::from_utf8_lossy(&cell);
                    write_colored(&mut self.line, &text, color);
                }
            }
        }
        if self.includes_labels() {
            self.write_label_cells(object, first);
        }
        self.line.push(b'\n');
    }

    /// The `-L` and `--show-labels` cells, from the labels of the row's object.
    fn write_label_cells(&mut self, object: &DecodedObject<'_>, mut first: bool) {
        let labels = object
            .or_null()
            .get("metadata")
            .and_then(|m| m.get("labels"))
            .and_then(Value::as_object);
        for key in &self.label_columns {
            if !first {
                self.line.push(b'\t');
            }
            first = false;
            if let Some(value) = labels.and_then(|l| l.get(key)).and_then(Value::as_str) {
                write_string_cell(&mut self.line, value);
            }
        }
        if self.show_labels {
            if !first {
                self.line.push(b'\t');
            }
            // kubectl's `labels.FormatLabels`: sorted `k=v` pairs, `<none>` when there are none.
            let mut text = String::new();
            for (key, value) in labels.into_iter().flatten() {
                if !text.is_empty() {
                    text.push(',');
                }
                text.push_str(key);
                text.push('=');
                text.push_str(value.as_str().unwrap_or_default());
            }
            if text.is_empty() {
                text.push_str("<none>");
            }
            write_string_cell(&mut self.line, &text);
        }
    }

    /// `--diff`: the fields that changed, in lines under a MODIFIED row (the object is the
    /// whole object: the request asked for `includeObject=Object`), dimmed when in colour so
    /// that the rows stay what the eye follows.
    fn write_changes(
        &mut self,
        event: &Event<'_>,
        object: &DecodedObject<'_>,
        out: &mut dyn Write,
    ) -> io::Result<()> {
        let Some((changes, detail)) = self.changes.as_mut() else {
            return Ok(());
        };
        let Some((old, new)) = changes.remember(
            event.kind,
            event.context,
            event.namespace,
            event.name,
            object.or_null(),
        ) else {
            return Ok(());
        };
        let found = field_changes(&old, new, *detail);
        let width = self.width.map(|w| w.saturating_sub(DIFF_INDENT.len()));
        for change in found {
            self.line.clear();
            self.line.extend_from_slice(DIFF_INDENT.as_bytes());
            // `describe_field` has made the text safe for a terminal and one line long.
            let text = describe_field(&change, width);
            if self.color {
                write_dimmed(&mut self.line, &text);
            } else {
                self.line.extend_from_slice(text.as_bytes());
            }
            self.line.push(b'\n');
            let line = std::mem::take(&mut self.line);
            let result = self.tabwriter.write(&line, out);
            self.line = line;
            result?;
        }
        Ok(())
    }

    /// Whether a row's column definitions are the ones of the row before. Comparing every
    /// definition's text on every row cost ~17% of a table watch's CPU: the watcher numbers
    /// each set of definitions it takes (`TableRow::generation`), so only a new number gets the
    /// deep compare.
    fn same_as_last_columns(&mut self, row: &TableRow<'_>) -> bool {
        if row.generation != 0 && row.generation == self.last_generation {
            return true;
        }
        let same = row.columns == self.last_columns.as_slice();
        self.last_generation = row.generation;
        same
    }

    /// The `--sort-by` key of the row's object: the first result of the JSONPath.
    fn sort_key(&self, object: &DecodedObject<'_>) -> Option<Value> {
        let path = self.sort_by.as_ref()?;
        let groups = path.find(object.get().ok()?).ok()?;
        groups.first()?.first().map(|v| v.clone().into_owned())
    }
}

impl TablePrinter {
    /// The live view's way in (`crate::output::live`): one event's row and the header over it, each a
    /// tab-separated line without its newline, written by the code that prints rows, so cells
    /// are escaped and coloured alike. Definitions are remembered as for a printed row.
    /// `object` is the event's object, which the view reads too (the row's age).
    pub(crate) fn render_row(
        &mut self,
        event: &Event<'_>,
        object: &DecodedObject<'_>,
    ) -> io::Result<(Vec<u8>, Vec<u8>)> {
        let Some(row) = event.row else {
            return with_fallback_row(event, object, self.fallback, |event| {
                self.render_row(event, object)
            });
        };
        if !row.columns.is_empty() && !self.same_as_last_columns(&row) {
            self.last_columns.clear();
            self.last_columns.extend_from_slice(row.columns);
        }
        let columns = std::mem::take(&mut self.last_columns);
        self.line.clear();
        self.write_row(event, object, &columns, row.cells);
        self.write_header(&columns);
        self.last_columns = columns;
        let strip = |text: &[u8]| text.strip_suffix(b"\n").unwrap_or(text).to_vec();
        Ok((strip(&self.header), strip(&self.line)))
    }
}

impl TablePrinter {
    /// `print` with the event's one decoded object, which every part of the row reads.
    fn print_with(
        &mut self,
        event: &Event<'_>,
        object: &DecodedObject<'_>,
        out: &mut dyn Write,
    ) -> io::Result<()> {
        let Some(row) = event.row else {
            return with_fallback_row(event, object, self.fallback, |event| {
                self.print_with(event, object, out)
            });
        };
        let same_as_last = row.columns.is_empty() || self.same_as_last_columns(&row);
        let suppress_header = self.no_headers || (self.printed_headers && same_as_last);
        if !same_as_last {
            self.last_columns.clear();
            self.last_columns.extend_from_slice(row.columns);
            self.printed_headers = false;
        }
        // Each event is a table of exactly one row, so a header is now due or done.
        self.printed_headers = true;

        let columns = std::mem::take(&mut self.last_columns);
        self.line.clear();
        self.write_row(event, object, &columns, row.cells);
        let raw_widths = match event.origin == Origin::List && !self.color {
            true => self.raw_widths_of(&columns, row.cells),
            false => None,
        };
        let mut header_due = !suppress_header;
        if header_due && self.stable {
            self.reserve_status(&columns);
        }
        // Stable columns: a row that would push a column wider gets a fresh header above it,
        // laid out with it, rather than drifting out of line with the rows above.
        if self.stable && self.list_done && !header_due && !self.no_headers {
            header_due = self.tabwriter.would_grow(&self.line);
        }
        if header_due {
            self.write_header(&columns);
        }
        self.last_columns = columns;
        let mut result = Ok(());
        if header_due {
            let header = std::mem::take(&mut self.header);
            result = self.tabwriter.write(&header, out);
            self.header = header;
        }
        if self.sort_by.is_some() && event.origin == Origin::List {
            // The row waits for the rest of the list.
            let key = self.sort_key(object);
            self.held.push((key, self.line.clone(), raw_widths));
            result?;
            // Nothing to show for a listed object, but `--diff` remembers it.
            return self.write_changes(event, object, out);
        }
        result?;
        if let Some(widths) = raw_widths {
            self.raw_widths.add(&widths);
        }
        let line = std::mem::take(&mut self.line);
        let result = self.tabwriter.write(&line, out);
        self.line = line;
        result?;
        self.write_changes(event, object, out)
    }

    /// The row just written (`self.line`): each cell's printed and raw width, for kubectl's
    /// header padding ([`RawWidths`]); none for a row whose cells hold tabs.
    fn raw_widths_of(
        &self,
        columns: &[TableColumnDefinition],
        cells: &[Value],
    ) -> Option<Vec<(usize, usize)>> {
        let line = self.line.strip_suffix(b"\n").unwrap_or(&self.line);
        let printed: Vec<usize> = line
            .split(|&b| b == b'\t')
            .map(|cell| cell.iter().filter(|&&b| (b & 0xc0) != 0x80).count())
            .collect();
        let prefix = self.prefix_columns();
        let server: Vec<&Value> = columns
            .iter()
            .zip(cells)
            .filter(|(column, _)| self.visible(column))
            .map(|(_, cell)| cell)
            .collect();
        let labels = self.label_columns.len() + usize::from(self.show_labels);
        if printed.len() != prefix + server.len() + labels {
            return None;
        }
        let widths: Vec<(usize, usize)> = printed
            .iter()
            .enumerate()
            .map(|(index, &width)| match index.checked_sub(prefix) {
                Some(at) if at < server.len() => (width, raw_width(server[at], width)),
                _ => (width, width),
            })
            .collect();
        Some(widths)
    }

    /// `measure` with the event's one decoded object.
    fn measure_with(&mut self, event: &Event<'_>, object: &DecodedObject<'_>) -> io::Result<()> {
        let Some(row) = event.row else {
            return with_fallback_row(event, object, self.fallback, |event| {
                self.measure_with(event, object)
            });
        };
        if !row.columns.is_empty() && !self.same_as_last_columns(&row) {
            self.last_columns.clear();
            self.last_columns.extend_from_slice(row.columns);
            self.printed_headers = false;
        }
        if self.stable {
            let columns = std::mem::take(&mut self.last_columns);
            self.line.clear();
            self.write_row(event, object, &columns, row.cells);
            self.tabwriter.reserve_line(&self.line);
            if !self.no_headers {
                self.write_header(&columns);
                self.tabwriter.reserve_line(&self.header);
            }
            self.last_columns = columns;
        }
        if let Some((changes, _)) = self.changes.as_mut() {
            changes.remember(
                event.kind,
                event.context,
                event.namespace,
                event.name,
                object.or_null(),
            );
        }
        Ok(())
    }
}

impl Printer for TablePrinter {
    fn print_decoded(
        &mut self,
        event: &Event<'_>,
        object: DecodedObject<'_>,
        out: &mut dyn Write,
    ) -> io::Result<()> {
        self.print_with(event, &object, out)
    }

    fn checkpoint(&mut self, out: &mut dyn Write) -> io::Result<()> {
        self.list_done = true;
        if !self.held.is_empty() {
            let mut held = std::mem::take(&mut self.held);
            if self.drops_unsortable && held.len() > 1 && held.iter().all(|(k, _, _)| k.is_none()) {
                self.tabwriter.discard();
                self.printed_headers = false;
                return Err(io::Error::new(io::ErrorKind::InvalidData, NothingSorted));
            }
            // Go's unstable sort, as kubectl: rows with equal keys land where kubectl puts them;
            // the first pair isLess cannot compare stops it, and nothing is printed.
            let refusal = std::cell::Cell::new(None);
            go_sort(&mut held, |a, b| {
                row_less(a.0.as_ref(), b.0.as_ref()).unwrap_or_else(|reason| {
                    refusal.set(refusal.get().or(Some(reason)));
                    false
                })
            });
            if let Some(reason) = refusal.get() {
                self.tabwriter.discard();
                self.printed_headers = false;
                let template = self.sort_template.clone();
                let holder = TABLE_SORTER;
                let error = Unsortable {
                    template,
                    holder,
                    reason,
                };
                return Err(io::Error::new(io::ErrorKind::InvalidData, error));
            }
            for (_, line, widths) in held {
                if let Some(widths) = widths {
                    self.raw_widths.add(&widths);
                }
                self.tabwriter.write(&line, out)?;
            }
        }
        for (column, width) in self.raw_widths.take_minimums(!self.no_headers) {
            self.tabwriter.reserve(column, width);
        }
        self.tabwriter.flush(out)
    }

    fn finish(&mut self, _closing: &super::Closing<'_>, out: &mut dyn Write) -> io::Result<()> {
        self.checkpoint(out)
    }

    /// A row not printed (the list under `--watch-only`): on a terminal its cells widen the
    /// columns as a printed row would, so that the first header is laid out for the objects
    /// that exist; `--diff` remembers the object, so that its first change shows.
    fn measure_decoded(&mut self, event: &Event<'_>, object: DecodedObject<'_>) -> io::Result<()> {
        self.measure_with(event, &object)
    }
}

/// The server could not print this type (kw received plain objects): `then` gets the event with
/// its row laid out here from the whole object, with kubectl's columns for the kind.
/// The row is laid out from `object`, which `then` reads again for labels, sorting and diffs.
fn with_fallback_row<T>(
    event: &Event<'_>,
    object: &DecodedObject<'_>,
    (client_side, kind_in_names): (bool, bool),
    then: impl FnOnce(&Event<'_>) -> io::Result<T>,
) -> io::Result<T> {
    let object = object.or_invalid_data()?;
    let now = std::time::SystemTime::now();
    let (columns, cells) = match client_side {
        true => client_side_row(object, now),
        false => fallback_row(event.resource, object, now),
    };
    let mut cells = cells;
    if kind_in_names {
        let prefix = kind_prefix(&event.resource.kind, &event.resource.group);
        if let Some(Value::String(name)) = cells.first_mut() {
            *name = format!("{prefix}/{name}");
        }
    }
    then(&Event {
        row: Some(TableRow {
            columns: &columns,
            cells: &cells,
            // Built here for each object: compare the definitions.
            generation: 0,
        }),
        ..*event
    })
}

/// kubectl's `TableSorter.Less`: a row without a value sorts first.
fn row_less(a: Option<&Value>, b: Option<&Value>) -> Result<bool, &'static str> {
    match (a, b) {
        (None, _) => Ok(true),
        (_, None) => Ok(false),
        (Some(a), Some(b)) => sort_key_order(a, b),
    }
}

/// Go's `strings.ToUpper`: per-rune simple case mapping, so a rune whose upper case is several
/// characters (`ß`) stays as it is.
fn write_go_upper(out: &mut Vec<u8>, text: &str) {
    if text.is_ascii() {
        out.extend(text.bytes().map(|b| b.to_ascii_uppercase()));
        return;
    }
    let mut encoded = [0u8; 4];
    for ch in text.chars() {
        let mut upper = ch.to_uppercase();
        let mapped = match (upper.next(), upper.next()) {
            (Some(single), None) => single,
            _ => ch,
        };
        out.extend_from_slice(mapped.encode_utf8(&mut encoded).as_bytes());
    }
}

#[cfg(test)]
mod tests {
    use serde_json::value::RawValue;
    use serde_json::Value;

    use super::*;
    use crate::output::printer::contract::decoder;
    use crate::output::printer::{OutputFormat, SortBy};
    use kw_events::events::{Origin, ResourceInfo, TableRow};

    fn options() -> PrintOptions {
        PrintOptions {
            format: OutputFormat::Table,
            watch_events: false,
            watching: true,
            all_namespaces: false,
            no_headers: false,
            single_object: false,
            named_object: false,
            show_managed_fields: false,
            ..PrintOptions::default()
        }
    }

    fn column(name: &str, priority: i32) -> TableColumnDefinition {
        TableColumnDefinition {
            name: name.into(),
            column_type: "string".into(),
            format: String::new(),
            description: String::new(),
            priority,
        }
    }

    fn pod_columns() -> Vec<TableColumnDefinition> {
        vec![
            column("Name", 0),
            column("Ready", 0),
            column("Status", 0),
            column("IP", 1),
        ]
    }

    #[test]
    fn column_generations_spare_the_deep_compare_and_new_ones_get_it() {
        let mut printer = TablePrinter::new(&options());
        let pods = pod_columns();
        let other = vec![column("Name", 0), column("Age", 0)];
        let row = |columns, generation| TableRow {
            columns,
            cells: &[],
            generation,
        };
        assert!(
            !printer.same_as_last_columns(&row(&pods, 7)),
            "nothing seen yet"
        );
        printer.last_columns = pods.clone();
        assert!(printer.same_as_last_columns(&row(&pods, 7)));
        // Same generation: taken on trust, without looking (as the watcher promises).
        assert!(printer.same_as_last_columns(&row(&other, 7)));
        // A new generation is compared: equal definitions are still the same table...
        assert!(printer.same_as_last_columns(&row(&pods, 8)));
        // ...and different ones are not; unknown (0) is always compared.
        assert!(!printer.same_as_last_columns(&row(&other, 9)));
        assert!(!printer.same_as_last_columns(&row(&other, 0)));
        assert!(printer.same_as_last_columns(&row(&pods, 0)));
    }

    fn pods() -> ResourceInfo {
        ResourceInfo {
            plural: "pods".into(),
            singular: "pod".into(),
            kind: "Pod".into(),
            group: String::new(),
            version: "v1".into(),
            namespaced: true,
        }
    }

    /// Feed rows (kind, namespace, columns, cells-json) and checkpoint after each group.
    struct Harness {
        printer: TablePrinter,
        out: Vec<u8>,
        resource: ResourceInfo,
        null: Box<RawValue>,
    }

    impl Harness {
        fn new(options: &PrintOptions) -> Harness {
            Harness {
                printer: TablePrinter::new(options),
                out: Vec::new(),
                resource: pods(),
                null: RawValue::from_string("null".into()).unwrap(),
            }
        }

        fn row(
            &mut self,
            kind: EventType,
            namespace: &str,
            columns: &[TableColumnDefinition],
            cells: &str,
        ) {
            let cells: Vec<Value> = serde_json::from_str(cells).unwrap();
            let event = Event {
                kind,
                origin: Origin::Watch,
                resource: &self.resource,
                object: &self.null,
                object_lacks_type: false,
                name: "",
                namespace,
                row: Some(TableRow {
                    columns,
                    cells: &cells,
                    generation: 0,
                }),
                context: None,
                judged: None,
            };
            self.printer.print(&event, &mut self.out).unwrap();
        }

        fn checkpoint(&mut self) {
            self.printer.checkpoint(&mut self.out).unwrap();
        }

        fn text(&self) -> String {
            String::from_utf8(self.out.clone()).unwrap()
        }
    }

    /// `--sort-by`, `-L`, `--show-labels` and `--diff` at once: every part that reads the
    /// object.
    fn reading_the_object_everywhere() -> PrintOptions {
        let mut o = options();
        o.sort_by = Some(SortBy::parse(".metadata.name").unwrap());
        o.label_columns = vec!["app".into()];
        o.show_labels = true;
        o.diff = Some(DiffDetail::All);
        o
    }

    fn pod_object(name: &str, image: &str) -> Box<RawValue> {
        let json = serde_json::json!({
            "metadata": {"name": name, "labels": {"app": "web", "tier": "front"}},
            "spec": {"image": image},
        });
        RawValue::from_string(json.to_string()).unwrap()
    }

    fn pod_event<'a>(
        kind: EventType,
        origin: Origin,
        resource: &'a ResourceInfo,
        object: &'a RawValue,
        name: &'a str,
        row: Option<TableRow<'a>>,
    ) -> Event<'a> {
        Event {
            kind,
            origin,
            resource,
            object,
            object_lacks_type: false,
            name,
            namespace: "default",
            row,
            context: None,
            judged: None,
        }
    }

    /// Kind, origin, name, image, and whether a checkpoint follows: an unsorted list, then a
    /// change to one of its objects.
    fn list_then_a_change() -> [(EventType, Origin, &'static str, &'static str, bool); 3] {
        [
            (EventType::Added, Origin::List, "web-2", "nginx:1", false),
            (EventType::Added, Origin::List, "web-1", "nginx:1", true),
            (EventType::Modified, Origin::Watch, "web-2", "nginx:2", true),
        ]
    }

    const SORTED_LABELLED_DIFFED: &str = "NAME    APP   LABELS\n\
         web-1   web   app=web,tier=front\n\
         web-2   web   app=web,tier=front\n\
         web-2   web   app=web,tier=front\n    \
         spec.image: nginx:1 → nginx:2\n";

    #[test]
    fn sort_labels_and_diff_together_decode_each_object_once() {
        let mut printer = TablePrinter::new(&reading_the_object_everywhere());
        let resource = pods();
        let columns = vec![column("Name", 0)];
        let mut out = Vec::new();
        let events = list_then_a_change();
        let before = decoder::decodes();
        for (kind, origin, name, image, group_ends) in events {
            let object = pod_object(name, image);
            let cells = [Value::String(name.into())];
            let row = TableRow {
                columns: &columns,
                cells: &cells,
                generation: 0,
            };
            let event = pod_event(kind, origin, &resource, &object, name, Some(row));
            printer.print(&event, &mut out).unwrap();
            if group_ends {
                printer.checkpoint(&mut out).unwrap();
            }
        }
        assert_eq!(decoder::decodes() - before, events.len());
        assert_eq!(String::from_utf8(out).unwrap(), SORTED_LABELLED_DIFFED);
    }

    /// The parts of a row are handed the event's decoded object and read nothing else: given an
    /// event whose raw object is `null`, labels, sort keys and the diff still come from the
    /// shared object (a part that decoded the raw object itself would find nothing).
    #[test]
    fn the_parts_of_a_row_read_the_shared_object_not_the_raw_one() {
        let mut printer = TablePrinter::new(&reading_the_object_everywhere());
        let resource = pods();
        let columns = vec![column("Name", 0)];
        let null = RawValue::from_string("null".into()).unwrap();
        let mut out = Vec::new();
        let events = list_then_a_change();
        for (kind, origin, name, image, group_ends) in events {
            let object = pod_object(name, image);
            let shared = DecodedObject::new(&object);
            let cells = [Value::String(name.into())];
            let row = TableRow {
                columns: &columns,
                cells: &cells,
                generation: 0,
            };
            let event = pod_event(kind, origin, &resource, &null, name, Some(row));
            printer.print_with(&event, &shared, &mut out).unwrap();
            if group_ends {
                printer.checkpoint(&mut out).unwrap();
            }
        }
        assert_eq!(String::from_utf8(out).unwrap(), SORTED_LABELLED_DIFFED);
    }

    /// A row laid out from the whole object (no server-side row), measured on a terminal and
    /// remembered for `--diff`, and rendered for the live view: one decode each.
    #[test]
    fn fallback_rows_measuring_and_the_live_view_decode_once() {
        let mut o = reading_the_object_everywhere();
        o.terminal = true;
        let resource = pods();
        let object = pod_object("web-1", "nginx:1");
        let event = pod_event(
            EventType::Added,
            Origin::List,
            &resource,
            &object,
            "web-1",
            None,
        );

        let mut printer = TablePrinter::new(&o);
        let before = decoder::decodes();
        printer.print(&event, &mut Vec::new()).unwrap();
        assert_eq!(decoder::decodes() - before, 1, "print");

        let mut printer = TablePrinter::new(&o);
        let before = decoder::decodes();
        printer.measure(&event).unwrap();
        assert_eq!(decoder::decodes() - before, 1, "measure");

        let mut printer = TablePrinter::new(&o);
        let before = decoder::decodes();
        let shared = DecodedObject::new(&object);
        let (_, line) = printer.render_row(&event, &shared).unwrap();
        assert!(shared.get().is_ok());
        assert_eq!(decoder::decodes() - before, 1, "render_row");
        assert!(String::from_utf8(line)
            .unwrap()
            .contains("app=web,tier=front"));
    }

    #[test]
    fn column_names_from_the_server_cannot_reach_the_terminal_as_controls() {
        let columns = vec![column("\u{1b}]0;x\u{7}Name", 0), column("a\u{9c}b\nc", 0)];
        let mut h = Harness::new(&options());
        h.row(EventType::Added, "default", &columns, r#"["web-1","ok"]"#);
        h.checkpoint();
        assert_eq!(
            h.text(),
            "^[]0;X^GNAME   A\\u{9c}B...\n\
             web-1          ok\n"
        );
    }

    #[test]
    fn initial_list_is_aligned_as_a_whole_and_header_printed_once() {
        let columns = pod_columns();
        let mut h = Harness::new(&options());
        h.row(
            EventType::Added,
            "default",
            &columns,
            r#"["web-1","1/1","Running","10.0.0.1"]"#,
        );
        h.row(
            EventType::Added,
            "default",
            &[],
            r#"["database-primary-0","0/1","Pending","10.0.0.2"]"#,
        );
        h.checkpoint();
        assert_eq!(
            h.text(),
            "NAME                 READY   STATUS\n\
             web-1                1/1     Running\n\
             database-primary-0   0/1     Pending\n"
        );
    }

    #[test]
    fn later_rows_keep_remembered_widths_and_drift_when_wider() {
        let columns = pod_columns();
        let mut h = Harness::new(&options());
        h.row(
            EventType::Added,
            "default",
            &columns,
            r#"["a","1/1","Running"]"#,
        );
        h.checkpoint();
        h.row(
            EventType::Modified,
            "default",
            &[],
            r#"["b","1/1","Running"]"#,
        );
        h.checkpoint();
        h.row(
            EventType::Modified,
            "default",
            &columns,
            r#"["a-very-long-name","1/1","Running"]"#,
        );
        h.checkpoint();
        assert_eq!(
            h.text(),
            "NAME   READY   STATUS\n\
             a      1/1     Running\n\
             b      1/1     Running\n\
             a-very-long-name   1/1     Running\n"
        );
    }

    #[test]
    fn header_is_printed_again_when_columns_change() {
        let mut h = Harness::new(&options());
        let first = vec![column("Name", 0), column("Age", 0)];
        let second = vec![column("Name", 0), column("Status", 0)];
        h.row(EventType::Added, "", &first, r#"["a","1s"]"#);
        h.checkpoint();
        h.row(EventType::Added, "", &second, r#"["b","ok"]"#);
        h.checkpoint();
        h.row(EventType::Added, "", &second, r#"["c","ok"]"#);
        h.checkpoint();
        assert_eq!(
            h.text(),
            "NAME   AGE\na      1s\nNAME   STATUS\nb      ok\nc      ok\n"
        );
    }

    #[test]
    fn header_repeats_only_when_the_definitions_differ_not_when_they_move() {
        let mut h = Harness::new(&options());
        let first = vec![column("Name", 0), column("Age", 0)];
        // An equal copy elsewhere in memory (the server re-sent the same definitions).
        let copy = first.clone();
        // Differs only in a description, which kubectl's DeepEqual also compares.
        let mut described = first.clone();
        described[1].description = "how old".into();
        h.row(EventType::Added, "", &first, r#"["a","1s"]"#);
        h.row(EventType::Added, "", &first, r#"["b","2s"]"#);
        h.row(EventType::Added, "", &copy, r#"["c","3s"]"#);
        h.row(EventType::Added, "", &described, r#"["d","4s"]"#);
        h.row(EventType::Added, "", &described, r#"["e","5s"]"#);
        h.checkpoint();
        assert_eq!(
            h.text(),
            "NAME   AGE\na      1s\nb      2s\nc      3s\nNAME   AGE\nd      4s\ne      5s\n"
        );
    }

    #[test]
    fn no_headers_suppresses_every_header() {
        let mut o = options();
        o.no_headers = true;
        let mut h = Harness::new(&o);
        h.row(
            EventType::Added,
            "",
            &[column("Name", 0), column("Age", 0)],
            r#"["a","1s"]"#,
        );
        h.row(
            EventType::Added,
            "",
            &[column("Name", 0), column("X", 0)],
            r#"["b","2s"]"#,
        );
        h.checkpoint();
        assert_eq!(h.text(), "a     1s\nb     2s\n");
    }

    #[test]
    fn nothing_is_printed_for_an_empty_list() {
        let mut h = Harness::new(&options());
        h.checkpoint();
        h.printer.finish(&Default::default(), &mut h.out).unwrap();
        assert_eq!(h.text(), "");
    }

    #[test]
    fn event_column_comes_before_namespace_column() {
        let mut o = options();
        o.watch_events = true;
        o.all_namespaces = true;
        let columns = pod_columns();
        let mut h = Harness::new(&o);
        h.row(
            EventType::Added,
            "kube-system",
            &columns,
            r#"["dns","1/1","Running","10.0.0.3"]"#,
        );
        h.checkpoint();
        h.row(
            EventType::Deleted,
            "default",
            &[],
            r#"["web","0/1","Terminating","10.0.0.4"]"#,
        );
        h.checkpoint();
        assert_eq!(
            h.text(),
            "EVENT      NAMESPACE     NAME   READY   STATUS\n\
             ADDED      kube-system   dns    1/1     Running\n\
             DELETED    default       web    0/1     Terminating\n"
        );
    }

    #[test]
    fn wide_shows_priority_columns() {
        let mut o = options();
        o.format = OutputFormat::Wide;
        let mut h = Harness::new(&o);
        h.row(
            EventType::Added,
            "",
            &pod_columns(),
            r#"["web","1/1","Running","10.0.0.1"]"#,
        );
        h.checkpoint();
        assert_eq!(
            h.text(),
            "NAME   READY   STATUS    IP\nweb    1/1     Running   10.0.0.1\n"
        );
    }

    #[test]
    fn extra_cells_are_dropped_and_missing_cells_shorten_the_row() {
        let mut h = Harness::new(&options());
        let columns = vec![column("Name", 0), column("Age", 0)];
        h.row(EventType::Added, "", &columns, r#"["a","1s","extra"]"#);
        h.row(EventType::Added, "", &[], r#"["b"]"#);
        h.checkpoint();
        assert_eq!(h.text(), "NAME   AGE\na      1s\nb\n");
    }

    #[test]
    fn cells_are_formatted_like_kubectl() {
        let mut h = Harness::new(&options());
        let columns = vec![column("Name", 0), column("Restarts", 0), column("Note", 0)];
        h.row(EventType::Added, "", &columns, r#"["a",3,"line1\nline2"]"#);
        h.row(EventType::Added, "", &[], r#"["b",null,"\u001b[1m"]"#);
        h.checkpoint();
        assert_eq!(
            h.text(),
            "NAME   RESTARTS   NOTE\na      3          line1...\nb                 ^[[1m\n"
        );
    }

    #[test]
    fn unicode_cells_are_measured_in_runes() {
        let mut h = Harness::new(&options());
        let columns = vec![column("Name", 0), column("Age", 0)];
        h.row(EventType::Added, "", &columns, r#"["café-ünïcødé","1s"]"#);
        h.row(EventType::Added, "", &[], r#"["日本","2s"]"#);
        h.checkpoint();
        // "café-ünïcødé" is 12 runes: the column is 15 wide whatever its byte length.
        assert_eq!(
            h.text(),
            "NAME           AGE\ncafé-ünïcødé   1s\n日本             2s\n"
        );
    }

    #[test]
    fn headers_use_go_upper_casing() {
        let mut out = Vec::new();
        write_go_upper(&mut out, "Straße ñ");
        assert_eq!(String::from_utf8(out).unwrap(), "STRAßE Ñ");
    }
}
