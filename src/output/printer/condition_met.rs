//! `kw wait`: kubectl wait's line for each object that met the condition (`pod/web condition
//! met`), or the object in the `-o` format asked for. The run lets through only the event each
//! object first meets the condition with (`run::gate`); this printer puts those in kubectl's
//! order: kubectl waits on the named objects one after the other, so it names an object only
//! once every object named before it has met the condition. Objects found by a selector come
//! in the server's list order already and are printed as they come.

use std::io::{self, Write};

use crate::events::{kind_prefix, Event};

use super::Printer;

pub struct ConditionMetPrinter {
    /// The `-o` printer; `None`: kubectl's `TYPE/NAME condition met`.
    inner: Option<Box<dyn Printer>>,
    /// The names given, in kubectl's order, each with what it printed once met.
    named: Vec<(String, Option<Vec<u8>>)>,
    /// How many of `named` are out.
    written: usize,
}

impl ConditionMetPrinter {
    pub fn new(inner: Option<Box<dyn Printer>>, order: &[String]) -> ConditionMetPrinter {
        ConditionMetPrinter {
            inner,
            named: order.iter().map(|name| (name.clone(), None)).collect(),
            written: 0,
        }
    }

    fn render(&mut self, event: &Event<'_>) -> io::Result<Vec<u8>> {
        let mut bytes = Vec::new();
        match &mut self.inner {
            Some(inner) => {
                inner.print(event, &mut bytes)?;
                inner.checkpoint(&mut bytes)?;
            }
            None => {
                if let Some(context) = event.context {
                    write!(bytes, "{context}/")?;
                }
                let resource = event.resource;
                let name = if event.name.is_empty() {
                    "<unknown>"
                } else {
                    event.name
                };
                writeln!(
                    bytes,
                    "{}/{name} condition met",
                    kind_prefix(&resource.kind, &resource.group)
                )?;
            }
        }
        Ok(bytes)
    }
}

impl Printer for ConditionMetPrinter {
    fn print(&mut self, event: &Event<'_>, out: &mut dyn Write) -> io::Result<()> {
        let bytes = self.render(event)?;
        let slot = self
            .named
            .iter_mut()
            .find(|(name, printed)| name == event.name && printed.is_none());
        match slot {
            Some((_, printed)) => *printed = Some(bytes),
            None => return out.write_all(&bytes),
        }
        while let Some((_, Some(bytes))) = self.named.get(self.written) {
            out.write_all(bytes)?;
            self.written += 1;
        }
        Ok(())
    }

    fn checkpoint(&mut self, _out: &mut dyn Write) -> io::Result<()> {
        Ok(())
    }

    /// An object met after one named before it that never did is not said: kubectl gave up on
    /// the earlier one first.
    fn finish(&mut self, _out: &mut dyn Write) -> io::Result<()> {
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use serde_json::value::RawValue;

    use super::*;
    use crate::events::{Origin, ResourceInfo};
    use crate::wire::EventType;

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
        };
        let mut out = Vec::new();
        printer.print(&event, &mut out).unwrap();
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn named_objects_are_said_in_the_order_given() {
        let order = ["web".to_string(), "api".to_string()];
        let mut printer = ConditionMetPrinter::new(None, &order);
        assert_eq!(print(&mut printer, "api"), "");
        assert_eq!(
            print(&mut printer, "web"),
            "deployment.apps/web condition met\ndeployment.apps/api condition met\n"
        );
    }

    #[test]
    fn objects_of_a_selector_are_said_as_they_come() {
        let mut printer = ConditionMetPrinter::new(None, &[]);
        assert_eq!(
            print(&mut printer, "b"),
            "deployment.apps/b condition met\n"
        );
        assert_eq!(
            print(&mut printer, "a"),
            "deployment.apps/a condition met\n"
        );
    }
}
