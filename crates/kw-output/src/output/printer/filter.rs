//! Event filters in front of any printer: `--only added,deleted` keeps the chosen event types,
//! and `--ignore-unchanged` drops a MODIFIED event whose visible content is the same as what
//! was last printed for that object (node heartbeats, status-only churn). "Visible" is the
//! table row without its AGE cell in table modes, and the object without `resourceVersion`,
//! `managedFields` and `generation` otherwise. One fingerprint is kept per watched object.

use std::collections::hash_map::DefaultHasher;
use std::collections::HashMap;
use std::hash::{Hash, Hasher};
use std::io::{self, Write};

use kw_events::events::Event;
use kw_wire::EventType;

use super::changes::trim;
use super::contract::DecodedObject;
use super::Printer;

/// Read `--only` (`added,modified,deleted`, any case).
pub fn parse_only(values: &[String]) -> Result<Vec<EventType>, String> {
    values
        .iter()
        .filter(|v| !v.is_empty())
        .map(|value| match value.to_ascii_lowercase().as_str() {
            "added" => Ok(EventType::Added),
            "modified" => Ok(EventType::Modified),
            "deleted" => Ok(EventType::Deleted),
            _ => Err(format!(
                "--only takes added, modified or deleted, not {value:?}"
            )),
        })
        .collect()
}

pub struct FilterPrinter {
    inner: Box<dyn Printer>,
    /// Empty: every type.
    only: Vec<EventType>,
    ignore_unchanged: bool,
    last: HashMap<(String, String), u64>,
}

impl FilterPrinter {
    pub fn new(inner: Box<dyn Printer>, only: &[EventType], ignore_unchanged: bool) -> Self {
        FilterPrinter {
            inner,
            only: only.to_vec(),
            ignore_unchanged,
            last: HashMap::new(),
        }
    }

    /// Whether the event shows nothing new.
    fn unchanged(&mut self, event: &Event<'_>, object: &DecodedObject<'_>) -> bool {
        let key = (event.namespace.to_string(), event.name.to_string());
        if event.kind == EventType::Deleted {
            self.last.remove(&key);
            return false;
        }
        let fingerprint = fingerprint(event, object);
        let previous = self.last.insert(key, fingerprint);
        event.kind == EventType::Modified && previous == Some(fingerprint)
    }
}

fn fingerprint(event: &Event<'_>, object: &DecodedObject<'_>) -> u64 {
    let mut hasher = DefaultHasher::new();
    match event.row {
        Some(row) => {
            for (index, cell) in row.cells.iter().enumerate() {
                let is_age = row
                    .columns
                    .get(index)
                    .is_some_and(|c| c.name.eq_ignore_ascii_case("age"));
                if !is_age {
                    cell.to_string().hash(&mut hasher);
                }
            }
        }
        None => trim(object.or_null()).to_string().hash(&mut hasher),
    }
    hasher.finish()
}

impl Printer for FilterPrinter {
    fn print_decoded(
        &mut self,
        event: &Event<'_>,
        object: DecodedObject<'_>,
        out: &mut dyn Write,
    ) -> io::Result<()> {
        if self.ignore_unchanged && self.unchanged(event, &object) {
            return Ok(());
        }
        if !self.only.is_empty() && !self.only.contains(&event.kind) {
            return Ok(());
        }
        self.inner.print_decoded(event, object, out)
    }

    fn checkpoint(&mut self, out: &mut dyn Write) -> io::Result<()> {
        self.inner.checkpoint(out)
    }

    fn finish(&mut self, closing: &super::Closing<'_>, out: &mut dyn Write) -> io::Result<()> {
        self.inner.finish(closing, out)
    }

    fn measure_decoded(&mut self, event: &Event<'_>, object: DecodedObject<'_>) -> io::Result<()> {
        self.inner.measure_decoded(event, object)
    }
}
