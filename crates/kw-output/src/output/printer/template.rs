//! `-o jsonpath=TEMPLATE` and `-o jsonpath-file=FILE`, as kubectl's `JSONPathPrinter` prints:
//! the template's text with nothing added (no newline at the end); `-o jsonpath-as-json` prints
//! each action's results as an indented JSON array instead.
//!
//! Without `--watch` kubectl runs the template once against the whole `List` (so
//! `{.items[*].metadata.name}` works), which means the items are held until `finish`; a single
//! named object is the template's input itself. With `--watch` the template runs for each
//! object, and with `--output-watch-events` for each `{"type":..,"object":..}` event. Missing
//! keys print nothing (kubectl's default `--allow-missing-template-keys=true`). While watching,
//! kubectl writes every printer's output through its tabwriter, so tabs in the template's text
//! align as columns; so does kw.

use std::io::{self, Write};

use serde_json::{Map, Value};

use kw_events::events::Event;
use kw_go::jsonpath::JsonPath;

use super::contract::DecodedObject;
use super::json::decode_object;
use super::tabwriter::TabWriter;
use super::{PrintOptions, Printer};

/// The template failed on an object (a type mismatch in a filter, an index out of range).
#[derive(Debug, thiserror::Error)]
#[error("error executing jsonpath {template:?}: {message}")]
pub struct TemplateError {
    pub template: String,
    pub message: String,
}

pub struct JsonPathPrinter {
    template: String,
    path: JsonPath,
    as_json: bool,
    runs: TemplateRuns,
    buffer: Vec<u8>,
}

/// When kubectl runs a template printer (JSONPath or Go): once over the whole `List` at the
/// end, or once per object (or per event with `--output-watch-events`) while watching or for a
/// single named object; and where its text goes (through the tabwriter while watching).
pub struct TemplateRuns {
    per_object: bool,
    watch_events: bool,
    strip_managed_fields: bool,
    /// Items of the `List`, until `finish`.
    items: Vec<Value>,
    finished: bool,
    /// Watching: output is aligned as kubectl's watch output is.
    tabwriter: Option<TabWriter>,
}

impl TemplateRuns {
    pub fn new(options: &PrintOptions, strip_managed_fields: bool) -> TemplateRuns {
        TemplateRuns {
            per_object: options.watching || options.single_object,
            watch_events: options.watch_events,
            strip_managed_fields,
            items: Vec::new(),
            finished: false,
            tabwriter: options.watching.then(TabWriter::kubectl),
        }
    }

    /// What the template runs on for `event` now, or `None` while items are held for the List.
    pub fn input(
        &mut self,
        event: &Event<'_>,
        object: DecodedObject<'_>,
    ) -> io::Result<Option<Value>> {
        let object = event_object(event, object, self.strip_managed_fields)?;
        if !self.per_object {
            self.items.push(object);
            return Ok(None);
        }
        Ok(Some(if self.watch_events {
            watch_event(event, object)
        } else {
            object
        }))
    }

    /// The `List` of the held items, the first time only; `None` when running per object.
    pub fn list(&mut self) -> Option<Value> {
        if self.per_object || self.finished {
            return None;
        }
        self.finished = true;
        Some(serde_json::json!({
            "apiVersion": "v1",
            "items": std::mem::take(&mut self.items),
            "kind": "List",
            "metadata": {"resourceVersion": ""},
        }))
    }

    /// One run's text, aligned while watching.
    pub fn write(&mut self, text: &[u8], out: &mut dyn Write) -> io::Result<()> {
        match &mut self.tabwriter {
            Some(tabwriter) => tabwriter.write(text, out),
            None => out.write_all(text),
        }
    }

    pub fn checkpoint(&mut self, out: &mut dyn Write) -> io::Result<()> {
        match &mut self.tabwriter {
            Some(tabwriter) => tabwriter.flush(out),
            None => Ok(()),
        }
    }
}

impl JsonPathPrinter {
    pub fn new(
        template: &str,
        path: &JsonPath,
        as_json: bool,
        options: &PrintOptions,
    ) -> JsonPathPrinter {
        JsonPathPrinter {
            template: template.to_string(),
            path: path.clone(),
            as_json,
            runs: TemplateRuns::new(
                options,
                !options.show_managed_fields && !options.watch_events,
            ),
            buffer: Vec::new(),
        }
    }

    fn run(&mut self, input: &Value, out: &mut dyn Write) -> io::Result<()> {
        self.buffer.clear();
        let result = if self.as_json {
            self.path.execute_json(input, &mut self.buffer)
        } else {
            self.path.execute(input, &mut self.buffer)
        };
        result.map_err(|e| {
            io::Error::new(
                io::ErrorKind::InvalidData,
                TemplateError {
                    template: self.template.clone(),
                    message: e.to_string(),
                },
            )
        })?;
        self.runs.write(&self.buffer, out)
    }
}

/// The object an event carries, as kubectl's printers see it.
pub fn event_object(
    event: &Event<'_>,
    object: DecodedObject<'_>,
    strip_managed_fields: bool,
) -> io::Result<Value> {
    let mut object = decode_object(event, object)?;
    super::json::embed_context(&mut object, event);
    if strip_managed_fields {
        if let Some(Value::Object(metadata)) = object.get_mut("metadata") {
            metadata.remove("managedFields");
        }
    }
    Ok(object)
}

/// kubectl's `WatchEvent` as printers see it: `{"type": .., "object": ..}`.
pub fn watch_event(event: &Event<'_>, object: Value) -> Value {
    let mut envelope = Map::new();
    envelope.insert("object".into(), object);
    envelope.insert("type".into(), Value::String(event.kind.as_str().into()));
    Value::Object(envelope)
}

impl Printer for JsonPathPrinter {
    fn print_decoded(
        &mut self,
        event: &Event<'_>,
        object: DecodedObject<'_>,
        out: &mut dyn Write,
    ) -> io::Result<()> {
        match self.runs.input(event, object)? {
            Some(input) => self.run(&input, out),
            None => Ok(()),
        }
    }

    fn checkpoint(&mut self, out: &mut dyn Write) -> io::Result<()> {
        self.runs.checkpoint(out)
    }

    fn finish(&mut self, _closing: &super::Closing<'_>, out: &mut dyn Write) -> io::Result<()> {
        match self.runs.list() {
            Some(list) => self.run(&list, out),
            None => self.runs.checkpoint(out),
        }
    }
}
