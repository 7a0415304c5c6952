//! `-o yaml`, byte for byte as kubectl v1.32 prints it (`cli-runtime/pkg/printers/yaml.go`
//! through `sigs.k8s.io/yaml`; the encoding itself is in `goyaml`).
//!
//! - Without `--watch`: one `List` (`apiVersion: v1`, `metadata.resourceVersion: ""`) holding
//!   the items, streamed item by item. A single named object is printed bare.
//! - With `--watch`: each object as its own document, `---` between documents (kubectl's
//!   printer writes the separator before every document but the first).
//! - With `--output-watch-events`: each event as `object: ...` / `type: ADDED` documents (the
//!   keys of kubectl's `WatchEvent`, sorted), plus `kw: {synthetic: true}` for events kw
//!   synthesised after a re-list.
//!
//! As with `-o json`, `metadata.managedFields` is dropped from objects (not from events) unless
//! `--show-managed-fields`.

use std::io::{self, Write};

use serde_json::{Map, Value};

use kw_events::events::Event;

use super::contract::DecodedObject;
use super::json::decode_object;
use super::{ObjectLayout as Layout, PrintOptions, Printer};
use kw_go::goformat::yaml::{write_document, ListWriter};

pub struct YamlPrinter {
    layout: Layout,
    strip_managed_fields: bool,
    list: ListWriter,
    printed: usize,
    list_closed: bool,
    buffer: Vec<u8>,
}

impl YamlPrinter {
    pub fn new(options: &PrintOptions) -> YamlPrinter {
        let layout = Layout::of(options);
        YamlPrinter {
            strip_managed_fields: layout.strips_managed_fields(options),
            layout,
            list: ListWriter::new(),
            printed: 0,
            list_closed: false,
            buffer: Vec::with_capacity(4096),
        }
    }
}

impl Printer for YamlPrinter {
    fn print_decoded(
        &mut self,
        event: &Event<'_>,
        object: DecodedObject<'_>,
        out: &mut dyn Write,
    ) -> io::Result<()> {
        let mut object = decode_object(event, object)?;
        if self.strip_managed_fields {
            if let Some(Value::Object(metadata)) = object.get_mut("metadata") {
                metadata.remove("managedFields");
            }
        }
        if self.layout != Layout::Events {
            super::json::embed_context(&mut object, event);
        }
        self.buffer.clear();
        if self.layout != Layout::List && self.printed > 0 {
            self.buffer.extend_from_slice(b"---\n");
        }
        match self.layout {
            Layout::List => self.list.item(&mut self.buffer, &object),
            Layout::Objects => write_document(&mut self.buffer, &object),
            Layout::Events => {
                let mut envelope = Map::new();
                envelope.insert("object".into(), object);
                envelope.insert("type".into(), Value::String(event.kind.as_str().into()));
                if let Some(member) = super::extras::kw_member(event) {
                    envelope.insert("kw".into(), member);
                }
                write_document(&mut self.buffer, &Value::Object(envelope));
            }
        }
        self.printed += 1;
        out.write_all(&self.buffer)
    }

    fn checkpoint(&mut self, _out: &mut dyn Write) -> io::Result<()> {
        Ok(())
    }

    fn finish(&mut self, _closing: &super::Closing<'_>, out: &mut dyn Write) -> io::Result<()> {
        if self.layout != Layout::List || self.list_closed {
            return Ok(());
        }
        self.list_closed = true;
        self.buffer.clear();
        self.list.finish(&mut self.buffer);
        out.write_all(&self.buffer)
    }
}

#[cfg(test)]
mod tests {
    use kw_events::events::Origin;
    use serde_json::value::RawValue;

    use super::*;
    use crate::output::printer::OutputFormat;
    use kw_events::events::ResourceInfo;
    use kw_wire::EventType;

    fn options() -> PrintOptions {
        PrintOptions {
            format: OutputFormat::Yaml,
            ..PrintOptions::default()
        }
    }

    fn print_all(options: &PrintOptions, events: &[(EventType, Origin, &str)]) -> String {
        let resource = ResourceInfo {
            plural: "pods".into(),
            singular: "pod".into(),
            kind: "Pod".into(),
            group: String::new(),
            version: "v1".into(),
            namespaced: true,
        };
        let mut printer = YamlPrinter::new(options);
        let mut out = Vec::new();
        for (kind, origin, json) in events {
            let raw = RawValue::from_string(json.to_string()).unwrap();
            let event = Event {
                kind: *kind,
                origin: *origin,
                resource: &resource,
                object: &raw,
                object_lacks_type: *origin == Origin::List,
                name: "a",
                namespace: "default",
                row: None,
                context: None,
                judged: None,
            };
            printer.print(&event, &mut out).unwrap();
            printer.checkpoint(&mut out).unwrap();
        }
        printer.finish(&Default::default(), &mut out).unwrap();
        printer.finish(&Default::default(), &mut out).unwrap();
        String::from_utf8(out).unwrap()
    }

    const A: &str = r#"{"metadata":{"name":"a","managedFields":[{"manager":"x"}]}}"#;

    #[test]
    fn list_without_watch() {
        let got = print_all(&options(), &[(EventType::Added, Origin::List, A)]);
        assert_eq!(
            got,
            "apiVersion: v1\nitems:\n- apiVersion: v1\n  kind: Pod\n  metadata:\n    name: a\nkind: List\nmetadata:\n  resourceVersion: \"\"\n"
        );
    }

    #[test]
    fn watch_separates_documents() {
        let mut o = options();
        o.watching = true;
        let got = print_all(
            &o,
            &[
                (EventType::Added, Origin::List, A),
                (
                    EventType::Modified,
                    Origin::Watch,
                    r#"{"kind":"Pod","metadata":{"name":"a"}}"#,
                ),
            ],
        );
        assert_eq!(
            got,
            "apiVersion: v1\nkind: Pod\nmetadata:\n  name: a\n---\nkind: Pod\nmetadata:\n  name: a\n"
        );
    }

    #[test]
    fn watch_events_wrap_objects() {
        let mut o = options();
        o.watching = true;
        o.watch_events = true;
        let got = print_all(
            &o,
            &[
                (EventType::Added, Origin::Watch, r#"{"kind":"Pod"}"#),
                (EventType::Deleted, Origin::Relist, r#"{"kind":"Pod"}"#),
            ],
        );
        assert_eq!(
            got,
            "object:\n  kind: Pod\ntype: ADDED\n---\nkw:\n  synthetic: true\nobject:\n  kind: Pod\ntype: DELETED\n"
        );
    }
}
