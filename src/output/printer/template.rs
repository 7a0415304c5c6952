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

use crate::events::Event;
use crate::jsonpath::JsonPath;

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
    per_object: bool,
    watch_events: bool,
    strip_managed_fields: bool,
    /// Items of the `List`, until `finish`.
    items: Vec<Value>,
    finished: bool,
    buffer: Vec<u8>,
    /// Watching: output is aligned as kubectl's watch output is.
    tabwriter: Option<TabWriter>,
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
            per_object: options.watching || options.single_object,
            watch_events: options.watch_events,
            strip_managed_fields: !options.show_managed_fields && !options.watch_events,
            items: Vec::new(),
            finished: false,
            buffer: Vec::new(),
            tabwriter: options.watching.then(TabWriter::kubectl),
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
        match &mut self.tabwriter {
            Some(tabwriter) => tabwriter.write(&self.buffer, out),
            None => out.write_all(&self.buffer),
        }
    }
}

/// The object an event carries, as kubectl's printers see it.
pub fn event_object(event: &Event<'_>, strip_managed_fields: bool) -> io::Result<Value> {
    let mut object = decode_object(event)?;
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
    fn print(&mut self, event: &Event<'_>, out: &mut dyn Write) -> io::Result<()> {
        let object = event_object(event, self.strip_managed_fields)?;
        if !self.per_object {
            self.items.push(object);
            return Ok(());
        }
        let input = if self.watch_events {
            watch_event(event, object)
        } else {
            object
        };
        self.run(&input, out)
    }

    fn checkpoint(&mut self, out: &mut dyn Write) -> io::Result<()> {
        match &mut self.tabwriter {
            Some(tabwriter) => tabwriter.flush(out),
            None => Ok(()),
        }
    }

    fn finish(&mut self, out: &mut dyn Write) -> io::Result<()> {
        if self.per_object || self.finished {
            return self.checkpoint(out);
        }
        self.finished = true;
        let list = serde_json::json!({
            "apiVersion": "v1",
            "items": std::mem::take(&mut self.items),
            "kind": "List",
            "metadata": {"resourceVersion": ""},
        });
        self.run(&list, out)
    }
}
