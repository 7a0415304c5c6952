//! `-o custom-columns=SPEC` and `-o custom-columns-file=FILE`, as kubectl's
//! `CustomColumnsPrinter` prints them: a header of the given names (once), then one row per
//! object with each column's JSONPath results joined by `,` (`<none>` when there are none),
//! values printed as Go's `fmt.Sprint` prints them and terminal escapes neutralised, all
//! aligned by kubectl's tabwriter. `--no-headers` applies to the `SPEC` form only (kubectl
//! ignores it for the file form). With `--output-watch-events` the paths apply to the
//! `{"type":..,"object":..}` event, as in kubectl.

use std::io::{self, Write};

use serde_json::Value;

use kw_events::events::Event;

use super::cell::write_escaped;
use super::contract::DecodedObject;
use super::format::Column;
use super::tabwriter::TabWriter;
use super::template::{event_object, watch_event, TemplateError};
use super::{PrintOptions, Printer};
use kw_go::goformat::fmt::write_go_value;

pub struct ColumnsPrinter {
    columns: Vec<Column>,
    headers: bool,
    header_printed: bool,
    watching: bool,
    watch_events: bool,
    tabwriter: TabWriter,
    line: Vec<u8>,
    scratch: Vec<u8>,
}

impl ColumnsPrinter {
    pub fn new(columns: &[Column], from_file: bool, options: &PrintOptions) -> ColumnsPrinter {
        ColumnsPrinter {
            columns: columns.to_vec(),
            headers: from_file || !options.no_headers,
            header_printed: false,
            watching: options.watching,
            watch_events: options.watch_events,
            tabwriter: {
                // On a terminal, wide characters and long Unicode cells still line up.
                let mut tabwriter = TabWriter::kubectl();
                tabwriter.set_measure(false, options.terminal);
                tabwriter
            },
            line: Vec::with_capacity(256),
            scratch: Vec::new(),
        }
    }

    fn write_header(&mut self, out: &mut dyn Write) -> io::Result<()> {
        self.header_printed = true;
        if !self.headers {
            return Ok(());
        }
        self.line.clear();
        for (index, column) in self.columns.iter().enumerate() {
            if index > 0 {
                self.line.push(b'\t');
            }
            self.line.extend_from_slice(column.header.as_bytes());
        }
        self.line.push(b'\n');
        self.tabwriter.write(&self.line, out)
    }

    /// The row of one object, into `self.line`.
    pub fn render_row(&mut self, input: &Value) -> Result<(), TemplateError> {
        self.line.clear();
        for (index, column) in self.columns.iter().enumerate() {
            if index > 0 {
                self.line.push(b'\t');
            }
            let groups =
                (column.path.find(input)).map_err(|e| TemplateError::Column(e.to_string()))?;
            if groups.first().is_none_or(|g| g.is_empty()) {
                self.line.extend_from_slice(b"<none>");
                continue;
            }
            let mut first = true;
            for value in groups.iter().flatten() {
                if !first {
                    self.line.push(b',');
                }
                first = false;
                self.scratch.clear();
                write_go_value(&mut self.scratch, value);
                let text = String::from_utf8_lossy(&self.scratch);
                write_escaped(&mut self.line, &text);
            }
        }
        self.line.push(b'\n');
        Ok(())
    }
}

impl Printer for ColumnsPrinter {
    fn print_decoded(
        &mut self,
        event: &Event<'_>,
        object: DecodedObject<'_>,
        out: &mut dyn Write,
    ) -> io::Result<()> {
        let object = event_object(event, object, false)?;
        let input = if self.watch_events {
            watch_event(event, object)
        } else {
            object
        };
        if !self.header_printed {
            self.write_header(out)?;
        }
        self.render_row(&input)
            .map_err(|e| io::Error::new(io::ErrorKind::InvalidData, e))?;
        let line = std::mem::take(&mut self.line);
        let result = self.tabwriter.write(&line, out);
        self.line = line;
        result
    }

    fn checkpoint(&mut self, out: &mut dyn Write) -> io::Result<()> {
        // Not watching, kubectl prints one List of every type's objects: one table, aligned
        // as a whole (`get deploy,sts,ds -o custom-columns=...`).
        if !self.watching {
            return Ok(());
        }
        self.tabwriter.flush(out)
    }

    fn finish(&mut self, _closing: &super::Closing<'_>, out: &mut dyn Write) -> io::Result<()> {
        // kubectl prints the header of an empty list (it prints the List, not its items).
        if !self.header_printed && !self.watching {
            self.write_header(out)?;
        }
        self.tabwriter.flush(out)
    }
}
