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

use kw_events::events::Event;
use kw_go::goformat::json::write_compact;
use kw_go::gotemplate::{go_value_text, GoTemplate, Stopped};

use super::contract::DecodedObject;
use super::template::TemplateRuns;
use super::{PrintOptions, Printer};

/// The template failed on an object.
#[derive(Debug, thiserror::Error)]
#[error("error executing template {template}: {message}")]
pub struct GoTemplateError {
    /// The template, quoted as Go's `%q` quotes it.
    pub template: String,
    pub message: String,
}

/// `--timeout` passed while the template ran: it was stopped, and what it had written for that
/// object is not printed (a cut object must not pass for a whole one). Exit 3, as any
/// `--timeout` that runs out.
#[derive(Debug, thiserror::Error)]
#[error("--timeout ran out while the go-template ran; it was stopped and its output for that object is not printed")]
pub struct GoTemplateOutOfTime;

pub struct GoTemplatePrinter {
    template: String,
    parsed: GoTemplate,
    runs: TemplateRuns,
    /// `--timeout`'s instant.
    deadline: Option<std::time::Instant>,
}

impl GoTemplatePrinter {
    pub fn new(template: &str, parsed: &GoTemplate, options: &PrintOptions) -> GoTemplatePrinter {
        GoTemplatePrinter {
            template: template.to_string(),
            parsed: parsed.clone(),
            // kubectl gives the template the object as the server sent it, managedFields too.
            runs: TemplateRuns::new(options, false),
            deadline: options.deadline,
        }
    }

    fn run(&mut self, input: &Value, out: &mut dyn Write) -> io::Result<()> {
        let mut text = String::new();
        let result = match self.parsed.execute_until(input, &mut text, self.deadline) {
            Ok(()) => Ok(()),
            Err(Stopped::Failed(error)) => Err(error),
            Err(Stopped::OutOfTime) => {
                return Err(io::Error::new(io::ErrorKind::TimedOut, GoTemplateOutOfTime))
            }
        };
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
        self.runs.write(text.as_bytes(), out)?;
        result.map_err(|error| {
            io::Error::new(
                io::ErrorKind::InvalidData,
                GoTemplateError {
                    template: kw_go::gotemplate::go_quote(&self.template),
                    message: error.0,
                },
            )
        })
    }
}

impl Printer for GoTemplatePrinter {
    fn print_decoded(
        &mut self,
        event: &Event<'_>,
        object: DecodedObject<'_>,
        out: &mut dyn Write,
    ) -> io::Result<()> {
        for input in self.runs.input(event, object)? {
            self.run(&input, out)?;
        }
        Ok(())
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
