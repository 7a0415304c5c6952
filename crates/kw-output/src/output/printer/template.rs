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

use kw_events::events::{Event, Origin};
use kw_go::goformat::fmt::write_go_syntax;
use kw_go::goformat::quote::quote;
use kw_go::jsonpath::JsonPath;

use super::as_list::{list_items, read_as_list, reads_as_list};
use super::contract::DecodedObject;
use super::json::decode_object;
use super::tabwriter::TabWriter;
use super::{PrintOptions, Printer};

/// The most of an object kw shows after a failed template: kubectl shows all of it, but an
/// object may be megabytes, and this is an error message.
const OBJECT_SHOWN: usize = 64 * 1024;

/// The template failed on an object (a type mismatch in a filter, an index out of range), in
/// kubectl's words: a `-o jsonpath` template says so with the template and the object it ran
/// on (cli-runtime's `JSONPathPrinter`); a custom column gives the engine's error alone.
#[derive(Debug, thiserror::Error)]
pub enum TemplateError {
    #[error(
        "error executing jsonpath {}: Error executing template: {message}. Printing more information for debugging the template:\n\ttemplate was:\n\t\t{template}\n\tobject given to jsonpath engine was:\n\t\t{object}\n\n",
        quote(template)
    )]
    JsonPath {
        template: String,
        message: String,
        /// The input as Go's `%#v` writes it, cut at 64 KiB.
        object: String,
    },
    #[error("{0}")]
    Column(String),
    /// Watching, kubectl words a failure on the initial list so (on a later event it stops
    /// without a word, exit 0: kw says why, and fails).
    #[error("unable to output the provided object: {0}")]
    InitialList(Box<TemplateError>),
}

impl TemplateError {
    /// kubectl's error for `template` failing with `message` on `input`.
    pub fn json_path(template: &str, message: String, input: &Value) -> TemplateError {
        let mut object = Vec::new();
        write_go_syntax(&mut object, input);
        if object.len() > OBJECT_SHOWN {
            let cut = object.len() - OBJECT_SHOWN;
            object.truncate(OBJECT_SHOWN);
            object.extend_from_slice(format!("… (kw left out {cut} more bytes)").as_bytes());
        }
        TemplateError::JsonPath {
            template: template.to_string(),
            message,
            object: String::from_utf8_lossy(&object).into_owned(),
        }
    }
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
    /// One named object (`PrintOptions::named_object`).
    named_object: bool,
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
            named_object: options.named_object,
        }
    }

    /// What the template runs on for `event` now, each in turn: nothing while items are held
    /// for the List, and a watched named object's items when it reads as a list at the
    /// watch's start (kubectl prints a list's items one by one).
    pub fn input(
        &mut self,
        event: &Event<'_>,
        object: DecodedObject<'_>,
    ) -> io::Result<Vec<Value>> {
        let object = event_object(event, object, self.strip_managed_fields)?;
        if !self.per_object {
            self.items.push(object);
            return Ok(Vec::new());
        }
        Ok(if self.watch_events {
            vec![watch_event(event, object)]
        } else if self.tabwriter.is_none() {
            vec![read_as_list(object)]
        } else if self.named_object && event.origin == Origin::List && reads_as_list(&object) {
            list_items(object)
        } else {
            vec![object]
        })
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

    /// Whether the run prints as kubectl does while watching.
    pub fn watching(&self) -> bool {
        self.tabwriter.is_some()
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
            // kubectl leaves managedFields out of JSON and YAML only (cli-runtime's
            // `OmitManagedFieldsPrinter`): a template sees them, 1.32 and 1.37 alike.
            runs: TemplateRuns::new(options, false),
            buffer: Vec::new(),
        }
    }

    fn run(&mut self, input: &Value, listed: bool, out: &mut dyn Write) -> io::Result<()> {
        self.buffer.clear();
        let result = if self.as_json {
            self.path.execute_json(input, &mut self.buffer)
        } else {
            self.path.execute(input, &mut self.buffer)
        };
        result.map_err(|e| {
            io::Error::new(
                io::ErrorKind::InvalidData,
                match TemplateError::json_path(&self.template, e.to_string(), input) {
                    error if listed && self.runs.watching() => {
                        TemplateError::InitialList(Box::new(error))
                    }
                    error => error,
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
        let listed = event.origin == kw_events::events::Origin::List;
        for input in self.runs.input(event, object)? {
            self.run(&input, listed, out)?;
        }
        Ok(())
    }

    fn checkpoint(&mut self, out: &mut dyn Write) -> io::Result<()> {
        self.runs.checkpoint(out)
    }

    fn finish(&mut self, _closing: &super::Closing<'_>, out: &mut dyn Write) -> io::Result<()> {
        match self.runs.list() {
            Some(list) => self.run(&list, false, out),
            None => self.runs.checkpoint(out),
        }
    }
}
