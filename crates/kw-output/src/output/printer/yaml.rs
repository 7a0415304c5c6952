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
//!
//! `-o kyaml` (kubectl 1.35+) is the same printer with kubectl's KYAML encoder: every document,
//! the first too, opens with `---`, and an event is `type` then `object` (the order of
//! `metav1.WatchEvent`'s fields, which kubectl's KYAML keeps), kw's `kw` member after them.
//! KYAML keeps a tab in a string as a raw tab, and kubectl's watch writes through its table
//! tabwriter (`RememberWidths`), so under `--watch` a tab is expanded into spaces as that
//! writer aligns it, the widths remembered from one event to the next.

use std::io::{self, Write};

use serde_json::{Map, Value};

use kw_events::events::{Event, Origin};

use super::as_list::{list_items, read_as_list, reads_as_list};
use super::contract::DecodedObject;
use super::json::decode_object;
use super::tabwriter::TabWriter;
use super::{ObjectLayout as Layout, PrintOptions, Printer};
use kw_go::goformat::kyaml;
use kw_go::goformat::yaml::{write_document, ListWriter};

/// Which YAML kubectl prints: `-o yaml` or `-o kyaml`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Dialect {
    Yaml,
    Kyaml,
}

pub struct YamlPrinter {
    layout: Layout,
    dialect: Dialect,
    strip_managed_fields: bool,
    list: ListWriter,
    kyaml_list: kyaml::ListWriter,
    /// kubectl's watch tabwriter, for `-o kyaml --watch`.
    watch_tabs: Option<TabWriter>,
    printed: usize,
    list_closed: bool,
    buffer: Vec<u8>,
    /// One named object, not watched: an `items` array makes it a `List` ([`read_as_list`]).
    reads_as_list: bool,
    /// One named object, watched: a listed one with an `items` array is its items.
    flattens_list: bool,
}

impl YamlPrinter {
    pub fn new(options: &PrintOptions, dialect: Dialect) -> YamlPrinter {
        let layout = Layout::of(options);
        YamlPrinter {
            strip_managed_fields: layout.strips_managed_fields(options),
            layout,
            dialect,
            list: ListWriter::new(),
            kyaml_list: kyaml::ListWriter::new(),
            watch_tabs: (dialect == Dialect::Kyaml && options.watching).then(TabWriter::kubectl),
            reads_as_list: options.named_object && !options.watching && !options.watch_events,
            flattens_list: options.named_object && options.watching && !options.watch_events,
            printed: 0,
            list_closed: false,
            buffer: Vec::with_capacity(4096),
        }
    }
}

impl YamlPrinter {
    /// One object (or watch event) printed in the printer's layout.
    fn print_object(
        &mut self,
        event: &Event<'_>,
        mut object: Value,
        out: &mut dyn Write,
    ) -> io::Result<()> {
        if self.layout != Layout::Events {
            super::json::embed_context(&mut object, event);
        }
        self.buffer.clear();
        if self.dialect == Dialect::Kyaml {
            self.print_kyaml(event, &object);
            self.printed += 1;
            return match &mut self.watch_tabs {
                // Only a line with a tab is aligned, or moves a remembered width.
                Some(tabs) if self.buffer.contains(&b'\t') => {
                    tabs.write(&self.buffer, out)?;
                    tabs.flush(out)
                }
                _ => out.write_all(&self.buffer),
            };
        }
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
        if self.reads_as_list {
            object = read_as_list(object);
        } else if self.flattens_list && event.origin == Origin::List && reads_as_list(&object) {
            // Watched, the listed holder is its items, each printed as an object.
            for item in list_items(object) {
                self.print_object(event, item, out)?;
            }
            return Ok(());
        }
        self.print_object(event, object, out)
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
        match self.dialect {
            Dialect::Yaml => self.list.finish(&mut self.buffer),
            Dialect::Kyaml => self.kyaml_list.finish(&mut self.buffer),
        }
        out.write_all(&self.buffer)
    }
}

impl YamlPrinter {
    /// Without the watch tabwriter (`kw wait -o kyaml`).
    pub fn straight(mut self) -> YamlPrinter {
        self.watch_tabs = None;
        self
    }

    fn print_kyaml(&mut self, event: &Event<'_>, object: &Value) {
        match self.layout {
            Layout::List => self.kyaml_list.item(&mut self.buffer, object),
            Layout::Objects => kyaml::write_document(&mut self.buffer, object),
            Layout::Events => {
                let member = super::extras::kw_member(event);
                let extra: Vec<(&str, &Value)> = member.iter().map(|m| ("kw", m)).collect();
                kyaml::write_event(&mut self.buffer, event.kind.as_str(), object, &extra);
            }
        }
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
        let dialect = match options.format {
            OutputFormat::Kyaml => Dialect::Kyaml,
            _ => Dialect::Yaml,
        };
        let mut printer = YamlPrinter::new(options, dialect);
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

    #[test]
    fn kyaml_opens_every_document_and_puts_the_event_type_first() {
        let mut o = PrintOptions {
            format: OutputFormat::Kyaml,
            ..PrintOptions::default()
        };
        o.watching = true;
        let got = print_all(
            &o,
            &[
                (EventType::Added, Origin::List, A),
                (EventType::Modified, Origin::Watch, r#"{"kind":"Pod"}"#),
            ],
        );
        assert_eq!(
            got,
            "---\n{\n  apiVersion: \"v1\",\n  kind: \"Pod\",\n  metadata: {\n    name: \"a\",\n  },\n}\n---\n{\n  kind: \"Pod\",\n}\n"
        );
        o.watch_events = true;
        let got = print_all(
            &o,
            &[(EventType::Deleted, Origin::Relist, r#"{"kind":"Pod"}"#)],
        );
        assert_eq!(
            got,
            "---\n{\n  type: \"DELETED\",\n  object: {\n    kind: \"Pod\",\n  },\n  kw: {\n    synthetic: true,\n  },\n}\n"
        );
    }

    #[test]
    fn kyaml_watch_aligns_raw_tabs_as_kubectls_tabwriter_remembering_widths() {
        let o = PrintOptions {
            format: OutputFormat::Kyaml,
            watching: true,
            ..PrintOptions::default()
        };
        let got = print_all(
            &o,
            &[
                (EventType::Added, Origin::Watch, r#"{"a":"long-long\tx"}"#),
                (EventType::Added, Origin::Watch, r#"{"a":"s\tx"}"#),
            ],
        );
        assert_eq!(
            got,
            "---\n{\n  a: \"long-long   x\",\n}\n---\n{\n  a: \"s           x\",\n}\n"
        );
    }
}
