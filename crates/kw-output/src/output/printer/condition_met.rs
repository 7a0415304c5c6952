//! `kw wait`: kubectl wait's line for each object that met the condition (`pod/web condition
//! met`), or the object in the `-o` format asked for, once per `--for` condition met (kubectl
//! waits on each in turn and prints the object each time). The run lets through only the
//! events that meet conditions (`run::gate`); this printer puts those in kubectl's order:
//! kubectl waits on the objects one after the other, so it names an object only once every
//! object before it has met every condition. Named objects (or a manifest's) come in the
//! order named, each said as soon as those before it are; the objects of a selector (or `--all`)
//! in the server's list order, by namespace and name, which is known only once the wait is
//! over: they are said then, up to the first that never met it when the wait ran out of time
//! (kubectl's deadline had passed before it came to the next), so stdout and kubectl's
//! `timed out waiting for the condition on ...` lines name each object once, as kubectl's do.

use std::io::{self, Write};

use crate::output::escape::escaped_line;
use kw_events::events::{kind_prefix, Event};

use super::contract::DecodedObject;
use super::Printer;
use kw_wait::wait::Key;

/// Where an object comes in kubectl's order: its type (in the order first seen), context,
/// namespace and name.
type ListOrder = (usize, String, String, String);

pub struct ConditionMetPrinter {
    /// The `-o` printer; `None`: kubectl's `TYPE/NAME condition met`.
    inner: Option<Box<dyn Printer>>,
    /// The names given, in kubectl's order, each with what it printed so far.
    named: Vec<Slot>,
    /// How many of `named` are out whole.
    written: usize,
    /// How many conditions each object meets in turn (each prints it once).
    steps: usize,
    /// The other objects' output, by (type, context, namespace, name), said at the end.
    listed: Vec<(ListOrder, Vec<u8>)>,
    /// The types seen, in the order first seen.
    types: Vec<(String, String)>,
    /// Where kubectl's order reaches the first object that never met the condition, when the
    /// wait ran out of time: nothing from there on is said.
    cut: Option<ListOrder>,
}

/// A named object's output: what it printed, how much of it is out, and how many conditions
/// it has met.
struct Slot {
    name: String,
    bytes: Vec<u8>,
    out: usize,
    met: usize,
}

impl ConditionMetPrinter {
    pub fn new(
        inner: Option<Box<dyn Printer>>,
        order: &[String],
        steps: usize,
    ) -> ConditionMetPrinter {
        ConditionMetPrinter {
            inner,
            named: order
                .iter()
                .map(|name| Slot {
                    name: name.clone(),
                    bytes: Vec::new(),
                    out: 0,
                    met: 0,
                })
                .collect(),
            written: 0,
            steps: steps.max(1),
            listed: Vec::new(),
            types: Vec::new(),
            cut: None,
        }
    }

    /// Where `(group, plural)` comes in kubectl's order of types: the order first seen.
    fn type_order(&mut self, group: &str, plural: &str) -> usize {
        match self
            .types
            .iter()
            .position(|(g, p)| g == group && p == plural)
        {
            Some(at) => at,
            None => {
                self.types.push((group.to_string(), plural.to_string()));
                self.types.len() - 1
            }
        }
    }

    fn render(&mut self, event: &Event<'_>, object: DecodedObject<'_>) -> io::Result<Vec<u8>> {
        let mut bytes = Vec::new();
        match &mut self.inner {
            Some(inner) => {
                inner.print_decoded(event, object, &mut bytes)?;
                inner.checkpoint(&mut bytes)?;
            }
            None => {
                // Server text, shown on one line (`escape`).
                if let Some(context) = event.context {
                    write!(bytes, "{}/", escaped_line(context))?;
                }
                let resource = event.resource;
                let name = if event.name.is_empty() {
                    "<unknown>"
                } else {
                    event.name
                };
                writeln!(
                    bytes,
                    "{}/{} condition met",
                    kind_prefix(&resource.kind, &resource.group),
                    escaped_line(name)
                )?;
            }
        }
        Ok(bytes)
    }
}

impl ConditionMetPrinter {
    /// The named objects' lines that are due: each as soon as every object before it has met
    /// every condition (kubectl prints an object's lines while it waits on it), a missing one
    /// passed over.
    fn write_named(&mut self, out: &mut dyn Write) -> io::Result<()> {
        while let Some(slot) = self.named.get_mut(self.written) {
            out.write_all(&slot.bytes[slot.out..])?;
            slot.out = slot.bytes.len();
            if slot.met < self.steps {
                break;
            }
            self.written += 1;
        }
        Ok(())
    }
}

impl Printer for ConditionMetPrinter {
    fn print_decoded(
        &mut self,
        event: &Event<'_>,
        object: DecodedObject<'_>,
        out: &mut dyn Write,
    ) -> io::Result<()> {
        let bytes = self.render(event, object)?;
        let steps = self.steps;
        let slot = self
            .named
            .iter_mut()
            .find(|slot| slot.name == event.name && slot.met < steps);
        let Some(slot) = slot else {
            let type_order = self.type_order(&event.resource.group, &event.resource.plural);
            let key = (
                type_order,
                event.context.unwrap_or_default().to_string(),
                event.namespace.to_string(),
                event.name.to_string(),
            );
            self.listed.push((key, bytes));
            return Ok(());
        };
        slot.bytes.extend_from_slice(&bytes);
        slot.met += 1;
        self.write_named(out)
    }

    fn checkpoint(&mut self, _out: &mut dyn Write) -> io::Result<()> {
        Ok(())
    }

    /// The listed objects, in kubectl's order. A named object met after one named before it
    /// that never did is not said: kubectl gave up on the earlier one first.
    fn finish(&mut self, closing: &super::Closing<'_>, out: &mut dyn Write) -> io::Result<()> {
        self.not_found(closing.missing);
        self.not_met(closing.unmet);
        self.write_named(out)?;
        self.listed.sort_by(|a, b| a.0.cmp(&b.0));
        for (key, bytes) in self.listed.drain(..) {
            if self.cut.as_ref().is_some_and(|cut| key > *cut) {
                break;
            }
            out.write_all(&bytes)?;
        }
        Ok(())
    }
}

impl ConditionMetPrinter {
    /// Named objects that do not exist take their slots as met: kubectl goes past them.
    fn not_found(&mut self, objects: &[Key]) {
        for object in objects {
            let steps = self.steps;
            if let Some(slot) = self
                .named
                .iter_mut()
                .find(|slot| slot.name == object.name && slot.met == 0)
            {
                slot.met = steps;
            }
        }
    }

    /// No object after the first that never met the condition is named.
    fn not_met(&mut self, objects: &[Key]) {
        for object in objects {
            let named = self.named.iter().any(|slot| slot.name == object.name);
            if named {
                // The named ones are said in the order named, as each is met: already cut.
                continue;
            }
            let key = (
                self.type_order(&object.resource.group, &object.resource.plural),
                object.context.clone(),
                object.namespace.clone(),
                object.name.clone(),
            );
            if self.cut.as_ref().is_none_or(|cut| key < *cut) {
                self.cut = Some(key);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use serde_json::value::RawValue;

    use super::*;
    use kw_events::events::{Origin, ResourceInfo};
    use kw_wire::EventType;

    fn print(printer: &mut ConditionMetPrinter, name: &str) -> String {
        let resource = ResourceInfo {
            plural: "deployments".into(),
            singular: "deployment".into(),
            kind: "Deployment".into(),
            group: "apps".into(),
            version: "v1".into(),
            namespaced: true,
        };
        let raw = RawValue::from_string("{}".into()).unwrap();
        let event = Event {
            kind: EventType::Modified,
            origin: Origin::Watch,
            resource: &resource,
            object: &raw,
            object_lacks_type: false,
            name,
            namespace: "default",
            row: None,
            context: None,
            judged: None,
        };
        let mut out = Vec::new();
        printer.print(&event, &mut out).unwrap();
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn named_objects_are_said_in_the_order_given() {
        let order = ["web".to_string(), "api".to_string()];
        let mut printer = ConditionMetPrinter::new(None, &order, 1);
        assert_eq!(print(&mut printer, "api"), "");
        assert_eq!(
            print(&mut printer, "web"),
            "deployment.apps/web condition met\ndeployment.apps/api condition met\n"
        );
    }

    #[test]
    fn objects_of_a_selector_are_said_at_the_end_by_name() {
        let mut printer = ConditionMetPrinter::new(None, &[], 1);
        assert_eq!(print(&mut printer, "b"), "");
        assert_eq!(print(&mut printer, "a"), "");
        let mut out = Vec::new();
        printer.finish(&Default::default(), &mut out).unwrap();
        assert_eq!(
            String::from_utf8(out).unwrap(),
            "deployment.apps/a condition met\ndeployment.apps/b condition met\n"
        );
    }
}
