//! `-o name`: `kind[.group]/name` per object, as kubectl's `NamePrinter` prints it.
//!
//! kubectl uses the object's kind (lower-cased), not the resource's plural, and the group of its
//! `apiVersion`: `pod/nginx`, `deployment.apps/web`, `widget.example.com/w1`. With
//! `--output-watch-events` it unwraps the event and prints the object alone, ignoring the type;
//! so does kw. An object without a name prints `<unknown>`.

use std::io::{self, Write};

use crate::output::escape::write_escaped_line;
use kw_events::events::{kind_prefix, Event};

use super::contract::DecodedObject;
use super::Printer;

#[derive(Default)]
pub struct NamePrinter {
    line: Vec<u8>,
}

impl NamePrinter {
    pub fn new() -> NamePrinter {
        NamePrinter::default()
    }
}

impl Printer for NamePrinter {
    fn print_decoded(
        &mut self,
        event: &Event<'_>,
        _object: DecodedObject<'_>,
        out: &mut dyn Write,
    ) -> io::Result<()> {
        let resource = event.resource;
        self.line.clear();
        // Server text, shown on one line (`escape`): a valid name is written as it is.
        if let Some(context) = event.context {
            write_escaped_line(&mut self.line, context);
            self.line.push(b'/');
        }
        self.line
            .extend_from_slice(kind_prefix(&resource.kind, &resource.group).as_bytes());
        self.line.push(b'/');
        let name = if event.name.is_empty() {
            "<unknown>"
        } else {
            event.name
        };
        write_escaped_line(&mut self.line, name);
        self.line.push(b'\n');
        out.write_all(&self.line)
    }

    fn checkpoint(&mut self, _out: &mut dyn Write) -> io::Result<()> {
        Ok(())
    }

    fn finish(&mut self, _closing: &super::Closing<'_>, _out: &mut dyn Write) -> io::Result<()> {
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use serde_json::value::RawValue;

    use super::*;
    use kw_events::events::{Origin, ResourceInfo};
    use kw_wire::EventType;

    fn name_of(kind: &str, group: &str, name: &str, event_type: EventType) -> String {
        let resource = ResourceInfo {
            plural: format!("{}s", kind.to_lowercase()),
            singular: kind.to_lowercase(),
            kind: kind.into(),
            group: group.into(),
            version: "v1".into(),
            namespaced: true,
        };
        let raw = RawValue::from_string("{}".into()).unwrap();
        let event = Event {
            kind: event_type,
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
        NamePrinter::new().print(&event, &mut out).unwrap();
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn core_kinds_have_no_group() {
        assert_eq!(name_of("Pod", "", "nginx", EventType::Added), "pod/nginx\n");
    }

    #[test]
    fn named_groups_follow_the_kind() {
        assert_eq!(
            name_of("Deployment", "apps", "web", EventType::Modified),
            "deployment.apps/web\n"
        );
        assert_eq!(
            name_of("Widget", "example.com", "w1", EventType::Deleted),
            "widget.example.com/w1\n"
        );
        assert_eq!(
            name_of(
                "HorizontalPodAutoscaler",
                "autoscaling",
                "h",
                EventType::Added
            ),
            "horizontalpodautoscaler.autoscaling/h\n"
        );
    }

    #[test]
    fn missing_name_is_unknown() {
        assert_eq!(name_of("Pod", "", "", EventType::Added), "pod/<unknown>\n");
    }
}
