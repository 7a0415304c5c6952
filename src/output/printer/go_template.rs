//! `-o go-template=TEMPLATE` (and `template=`, `go-template-file=`, `--template`), as kubectl's
//! `GoTemplatePrinter` prints: the template's output with nothing added. Like the JSONPath
//! printer, it runs once over the whole `List` without `--watch`, once per object (or per
//! `{"type":..,"object":..}` event with `--output-watch-events`) while watching, and once over
//! a single named object.
//!
//! When the template fails on an object kubectl writes what it had written, then a debugging
//! dump (the template, the object's JSON, the object as Go prints it) to stdout, and fails with
//! `error executing template "T": ...`; so does kw.

use std::io::{self, Write};

use serde_json::Value;

use crate::events::Event;
use crate::goformat::json::write_compact;
use crate::gotemplate::{go_value_text, GoTemplate};

use super::tabwriter::TabWriter;
use super::template::{event_object, watch_event};
use super::{PrintOptions, Printer};

/// The template failed on an object.
#[derive(Debug, thiserror::Error)]
#[error("error executing template {template}: {message}")]
pub struct GoTemplateError {
    /// The template, quoted as Go's `%q` quotes it.
    pub template: String,
    pub message: String,
}

pub struct GoTemplatePrinter {
    template: String,
    parsed: GoTemplate,
    per_object: bool,
    watch_events: bool,
    items: Vec<Value>,
    finished: bool,
    tabwriter: Option<TabWriter>,
}

impl GoTemplatePrinter {
    pub fn new(template: &str, parsed: &GoTemplate, options: &PrintOptions) -> GoTemplatePrinter {
        GoTemplatePrinter {
            template: template.to_string(),
            parsed: parsed.clone(),
            per_object: options.watching || options.single_object,
            watch_events: options.watch_events,
            items: Vec::new(),
            finished: false,
            tabwriter: options.watching.then(TabWriter::kubectl),
        }
    }

    fn run(&mut self, input: &Value, out: &mut dyn Write) -> io::Result<()> {
        let mut text = String::new();
        let result = self.parsed.execute(input, &mut text);
        if let Err(error) = &result {
            let mut raw = Vec::new();
            write_compact(&mut raw, input);
            text.push_str(&format!(
                "Error executing template: {}. Printing more information for debugging the template:\n\ttemplate was:\n\t\t{}\n\traw data was:\n\t\t{}\n\tobject given to template engine was:\n\t\t{}\n\n",
                error.0,
                self.template,
                String::from_utf8_lossy(&raw),
                go_value_text(input),
            ));
        }
        match &mut self.tabwriter {
            Some(tabwriter) => tabwriter.write(text.as_bytes(), out)?,
            None => out.write_all(text.as_bytes())?,
        }
        result.map_err(|error| {
            io::Error::new(
                io::ErrorKind::InvalidData,
                GoTemplateError {
                    template: crate::gotemplate::go_quote(&self.template),
                    message: error.0,
                },
            )
        })
    }
}

impl Printer for GoTemplatePrinter {
    fn print(&mut self, event: &Event<'_>, out: &mut dyn Write) -> io::Result<()> {
        // kubectl gives the template the object as the server sent it, managedFields too.
        let object = event_object(event, false)?;
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
