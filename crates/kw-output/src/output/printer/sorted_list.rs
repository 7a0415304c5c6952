//! `--sort-by` for the formats that print objects (`-o json|yaml|name|jsonpath|custom-columns`
//! ...): kubectl sorts the initial list with its `RuntimeSort` before printing it, so kw holds
//! the list's events (copied: events borrow the decoder's buffer) until the list is complete,
//! sorts them exactly as kubectl does (`sort_keys` and Go's sort, `go_sort`), and replays them to
//! the format's printer. kubectl does this only without `--watch` (its goldens show watch
//! output unsorted), so kw too. Tables sort themselves (`table`), watching or not.
//!
//! kubectl sorts a list (never one named object, which it prints bare) only after checking
//! that some object of it has the field: when none has, it prints nothing and fails
//! (`SortFieldMissing`), even over a list of one.

use std::io::{self, Write};

use serde_json::value::RawValue;
use serde_json::Value;

use kw_events::events::{Event, Origin, ResourceInfo};
use kw_go::jsonpath::JsonPath;
use kw_wire::EventType;

use super::contract::DecodedObject;
use super::go_sort::go_sort;
use super::sort_keys::{sort_key_order, SortFieldMissing, Unsortable, RUNTIME_SORT};
use super::Printer;

struct Held {
    kind: EventType,
    /// Its own type: kubectl sorts the objects of every type asked for as one list.
    resource: ResourceInfo,
    object: Box<RawValue>,
    object_lacks_type: bool,
    name: String,
    namespace: String,
    context: Option<String>,
    key: Option<Value>,
}

pub struct SortingPrinter {
    inner: Box<dyn Printer>,
    path: JsonPath,
    /// `--sort-by` as kubectl names it in its error (`{.a.b}`).
    template: String,
    /// One named object: kubectl prints it without sorting, so without the check.
    single_object: bool,
    /// kubectl printed nothing, not even the empty `List` around the objects.
    refused: bool,
    held: Vec<Held>,
}

impl SortingPrinter {
    /// `template` is `--sort-by` as kubectl words it, `path` the same parsed.
    pub fn new(
        inner: Box<dyn Printer>,
        (template, path): (&str, &JsonPath),
        single_object: bool,
    ) -> SortingPrinter {
        SortingPrinter {
            inner,
            path: path.clone(),
            template: template.to_string(),
            single_object,
            refused: false,
            held: Vec::new(),
        }
    }

    fn key(&self, object: &DecodedObject<'_>) -> Option<Value> {
        let groups = self.path.find(object.get().ok()?).ok()?;
        groups.first()?.first().map(|v| v.clone().into_owned())
    }

    fn release(&mut self, out: &mut dyn Write) -> io::Result<()> {
        let mut held = std::mem::take(&mut self.held);
        if !self.single_object && held.iter().all(|item| item.key.is_none()) {
            self.refused = true;
            return Err(io::Error::new(
                io::ErrorKind::InvalidData,
                SortFieldMissing(self.template.clone()),
            ));
        }
        // kubectl stops at the first pair isLess cannot compare; so does this, printing nothing.
        let refusal = std::cell::Cell::new(None);
        go_sort(&mut held, |a, b| match (&a.key, &b.key) {
            (None, _) => true,
            (_, None) => false,
            (Some(a), Some(b)) => sort_key_order(a, b).unwrap_or_else(|reason| {
                refusal.set(refusal.get().or(Some(reason)));
                false
            }),
        });
        if let Some(reason) = refusal.get() {
            self.refused = true;
            let template = self.template.clone();
            let holder = RUNTIME_SORT;
            let error = Unsortable {
                template,
                holder,
                reason,
            };
            return Err(io::Error::new(io::ErrorKind::InvalidData, error));
        }
        for item in &held {
            let event = Event {
                kind: item.kind,
                origin: Origin::List,
                resource: &item.resource,
                object: &item.object,
                object_lacks_type: item.object_lacks_type,
                name: &item.name,
                namespace: &item.namespace,
                row: None,
                context: item.context.as_deref(),
                judged: None,
            };
            self.inner.print(&event, out)?;
        }
        Ok(())
    }
}

impl Printer for SortingPrinter {
    fn print_decoded(
        &mut self,
        event: &Event<'_>,
        object: DecodedObject<'_>,
        out: &mut dyn Write,
    ) -> io::Result<()> {
        if event.origin != Origin::List || event.row.is_some() {
            return self.inner.print_decoded(event, object, out);
        }
        self.held.push(Held {
            kind: event.kind,
            resource: event.resource.clone(),
            object: event.object.to_owned(),
            object_lacks_type: event.object_lacks_type,
            name: event.name.to_string(),
            namespace: event.namespace.to_string(),
            context: event.context.map(str::to_string),
            key: self.key(&object),
        });
        Ok(())
    }

    /// Each type's list ends here; the objects wait for the last, to be sorted together.
    fn checkpoint(&mut self, out: &mut dyn Write) -> io::Result<()> {
        self.inner.checkpoint(out)
    }

    fn finish(&mut self, closing: &super::Closing<'_>, out: &mut dyn Write) -> io::Result<()> {
        if !self.held.is_empty() {
            self.release(out)?;
        }
        if self.refused {
            return Ok(());
        }
        self.inner.finish(closing, out)
    }

    fn measure_decoded(&mut self, event: &Event<'_>, object: DecodedObject<'_>) -> io::Result<()> {
        self.inner.measure_decoded(event, object)
    }
}
