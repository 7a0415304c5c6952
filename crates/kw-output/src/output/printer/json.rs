//! `-o json`, byte for byte as kubectl v1.32 prints it (`cli-runtime/pkg/printers/json.go` and
//! `kubectl get`'s list handling).
//!
//! - Without `--watch`: one `List` (`apiVersion: v1`, `metadata.resourceVersion: ""`) holding
//!   the items in order, as `json.MarshalIndent` with four spaces. It is streamed: the opening is
//!   written with the first item, each item as it comes, the closing in `finish`, so a large list
//!   never sits in memory. A single named object is printed bare, not in a `List`.
//! - With `--watch`: each object on its own, `MarshalIndent` plus a newline.
//! - With `--output-watch-events`: one compact `json.Marshal` line per event,
//!   `{"type":"ADDED","object":{..}}`; kw adds `"kw":{"synthetic":true}` to events it
//!   synthesised after a re-list, and its `"ts"`/`"diff"` fields when asked (see `extras`).
//!
//! Items of a LIST carry no `apiVersion`/`kind`; kubectl fills them in, and so does this.

use std::io::{self, Write};

use serde_json::Value;

use kw_events::events::{Event, Origin};

use super::as_list::{list_items, read_as_list, reads_as_list};
use super::contract::DecodedObject;
use super::extras::{append_kw_member, EventExtras};
use super::reencode::{self, Edits, Reencoder, TypeFill};
use super::{ObjectDecodeError, ObjectLayout as Layout, PrintOptions, Printer};
use kw_go::goformat::json::{write_compact, write_indented, write_newline_indent, write_string};

/// The opening of kubectl's `List`, up to the items.
const LIST_OPENING: &[u8] = b"{\n    \"apiVersion\": \"v1\",\n    \"items\": [";
/// Everything after the items.
const LIST_CLOSING_AFTER_ITEMS: &[u8] =
    b"\n    ],\n    \"kind\": \"List\",\n    \"metadata\": {\n        \"resourceVersion\": \"\"\n    }\n}\n";
/// An empty list: `MarshalIndent` writes `[]` for an empty array.
const EMPTY_LIST: &[u8] = b"{\n    \"apiVersion\": \"v1\",\n    \"items\": [],\n    \"kind\": \"List\",\n    \"metadata\": {\n        \"resourceVersion\": \"\"\n    }\n}\n";

/// How items of a `List` are nested: inside the list object and its `items` array.
const LIST_ITEM_DEPTH: usize = 2;

pub struct JsonPrinter {
    /// Events are one compact line each; objects are indented.
    layout: Layout,
    strip_managed_fields: bool,
    items_written: usize,
    list_closed: bool,
    buffer: Vec<u8>,
    extras: EventExtras,
    reencoder: Reencoder,
    /// One named object, not watched: an `items` array makes it a `List` (`as_list`).
    reads_as_list: bool,
    /// One named object, watched: a listed one with an `items` array is its items.
    flattens_list: bool,
}

impl JsonPrinter {
    pub fn new(options: &PrintOptions) -> JsonPrinter {
        let layout = Layout::of(options);
        JsonPrinter {
            strip_managed_fields: layout.strips_managed_fields(options),
            layout,
            items_written: 0,
            list_closed: false,
            buffer: Vec::with_capacity(4096),
            extras: EventExtras::new(options),
            reencoder: Reencoder::default(),
            reads_as_list: options.named_object && !options.watching && !options.watch_events,
            flattens_list: options.named_object && options.watching && !options.watch_events,
        }
    }
}

/// Decode the event's object as kubectl holds it (an `unstructured` map), with `apiVersion` and
/// `kind` added to items of a LIST.
/// Put `"kw": {"context": ..}` into a whole object printed on its own, in a run over several
/// contexts (an event envelope carries it instead).
pub fn embed_context(object: &mut Value, event: &Event<'_>) {
    if let (Some(context), Value::Object(map)) = (event.context, object) {
        map.insert("kw".into(), serde_json::json!({ "context": context }));
    }
}

pub fn decode_object(event: &Event<'_>, object: DecodedObject<'_>) -> io::Result<Value> {
    let mut value: Value = object.into_value().map_err(|source| {
        io::Error::new(
            io::ErrorKind::InvalidData,
            ObjectDecodeError {
                name: event.name.to_string(),
                source,
            },
        )
    })?;
    if event.object_lacks_type {
        if let Value::Object(map) = &mut value {
            map.entry("apiVersion")
                .or_insert_with(|| Value::String(event.resource.api_version()));
            map.entry("kind")
                .or_insert_with(|| Value::String(event.resource.kind.clone()));
        }
    }
    Ok(value)
}

impl JsonPrinter {
    /// Whether the event's object may be a list to kubectl ([`reads_as_list`]): one named
    /// object, not watched or listed at the watch's start, whose text names `items`.
    fn may_read_as_list(&self, event: &Event<'_>) -> bool {
        let asked = self.reads_as_list || (self.flattens_list && event.origin == Origin::List);
        asked && event.object.get().contains("\"items\"")
    }

    /// Append the event's object, re-encoded as Go prints it, to the buffer.
    fn write_object(&mut self, event: &Event<'_>, layout: reencode::Layout) -> io::Result<()> {
        let api_version;
        let fill = if event.object_lacks_type {
            api_version = event.resource.api_version();
            Some(TypeFill {
                api_version: &api_version,
                kind: &event.resource.kind,
            })
        } else {
            None
        };
        let edits = Edits {
            fill,
            strip_managed_fields: self.strip_managed_fields,
            // An event envelope carries the context itself.
            context: event.context.filter(|_| self.layout != Layout::Events),
        };
        self.reencoder
            .encode(&mut self.buffer, event.object.get(), layout, &edits)
            .map_err(|source| {
                io::Error::new(
                    io::ErrorKind::InvalidData,
                    ObjectDecodeError {
                        name: event.name.to_string(),
                        source,
                    },
                )
            })
    }
}

impl Printer for JsonPrinter {
    fn print_decoded(
        &mut self,
        event: &Event<'_>,
        object: DecodedObject<'_>,
        out: &mut dyn Write,
    ) -> io::Result<()> {
        self.buffer.clear();
        match self.layout {
            Layout::Events => {
                self.buffer.extend_from_slice(b"{\"type\":");
                write_string(&mut self.buffer, event.kind.as_str());
                self.buffer.extend_from_slice(b",\"object\":");
                // `--diff` compares decoded objects: only then is the tree worth building.
                let object = if self.extras.needs_object() {
                    let object = decode_object(event, object)?;
                    write_compact(&mut self.buffer, &object);
                    Some(object)
                } else {
                    self.write_object(event, reencode::Layout::Compact)?;
                    None
                };
                append_kw_member(&mut self.buffer, event);
                self.extras.append(&mut self.buffer, event, object.as_ref());
                self.buffer.extend_from_slice(b"}\n");
            }
            // Only an object whose text names `items` is worth decoding to find out.
            Layout::Objects if self.may_read_as_list(event) => {
                let object = decode_object(event, object)?;
                let objects = match reads_as_list(&object) {
                    // Watched, the listed holder is its items, each printed as an object.
                    true if self.flattens_list => list_items(object),
                    true => vec![read_as_list(object)],
                    false => Vec::new(),
                };
                if objects.is_empty() {
                    self.write_object(event, reencode::Layout::Indented { depth: 0 })?;
                    self.buffer.push(b'\n');
                }
                for mut object in objects {
                    embed_context(&mut object, event);
                    write_indented(&mut self.buffer, &object, 0);
                    self.buffer.push(b'\n');
                }
            }
            Layout::Objects => {
                self.write_object(event, reencode::Layout::Indented { depth: 0 })?;
                self.buffer.push(b'\n');
            }
            Layout::List => {
                if self.items_written == 0 {
                    self.buffer.extend_from_slice(LIST_OPENING);
                } else {
                    self.buffer.push(b',');
                }
                write_newline_indent(&mut self.buffer, LIST_ITEM_DEPTH);
                let depth = LIST_ITEM_DEPTH;
                self.write_object(event, reencode::Layout::Indented { depth })?;
            }
        }
        self.items_written += 1;
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
        if self.items_written == 0 {
            out.write_all(EMPTY_LIST)
        } else {
            out.write_all(LIST_CLOSING_AFTER_ITEMS)
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
            format: OutputFormat::Json,
            watch_events: false,
            watching: false,
            all_namespaces: false,
            no_headers: false,
            single_object: false,
            named_object: false,
            show_managed_fields: false,
            ..PrintOptions::default()
        }
    }

    fn deployments() -> ResourceInfo {
        ResourceInfo {
            plural: "deployments".into(),
            singular: "deployment".into(),
            kind: "Deployment".into(),
            group: "apps".into(),
            version: "v1".into(),
            namespaced: true,
        }
    }

    fn print_all(options: &PrintOptions, events: &[(EventType, Origin, bool, &str)]) -> String {
        let resource = deployments();
        let mut printer = JsonPrinter::new(options);
        let mut out = Vec::new();
        for (kind, origin, lacks_type, json) in events {
            let raw = RawValue::from_string(json.to_string()).unwrap();
            let event = Event {
                kind: *kind,
                origin: *origin,
                resource: &resource,
                object: &raw,
                object_lacks_type: *lacks_type,
                name: "web",
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

    #[test]
    fn list_items_get_type_and_are_nested_in_a_list() {
        let got = print_all(
            &options(),
            &[
                (
                    EventType::Added,
                    Origin::List,
                    true,
                    r#"{"metadata":{"name":"a"},"spec":{"replicas":1}}"#,
                ),
                (
                    EventType::Added,
                    Origin::List,
                    true,
                    r#"{"metadata":{"name":"b"}}"#,
                ),
            ],
        );
        let expected = r#"{
    "apiVersion": "v1",
    "items": [
        {
            "apiVersion": "apps/v1",
            "kind": "Deployment",
            "metadata": {
                "name": "a"
            },
            "spec": {
                "replicas": 1
            }
        },
        {
            "apiVersion": "apps/v1",
            "kind": "Deployment",
            "metadata": {
                "name": "b"
            }
        }
    ],
    "kind": "List",
    "metadata": {
        "resourceVersion": ""
    }
}
"#;
        assert_eq!(got, expected);
    }

    #[test]
    fn empty_list_prints_empty_items() {
        let got = print_all(&options(), &[]);
        assert_eq!(
            got,
            "{\n    \"apiVersion\": \"v1\",\n    \"items\": [],\n    \"kind\": \"List\",\n    \"metadata\": {\n        \"resourceVersion\": \"\"\n    }\n}\n"
        );
    }

    #[test]
    fn single_object_is_printed_bare() {
        let mut o = options();
        o.single_object = true;
        let got = print_all(
            &o,
            &[(
                EventType::Added,
                Origin::List,
                false,
                r#"{"kind":"Deployment","apiVersion":"apps/v1","metadata":{"name":"web"}}"#,
            )],
        );
        assert_eq!(
            got,
            "{\n    \"apiVersion\": \"apps/v1\",\n    \"kind\": \"Deployment\",\n    \"metadata\": {\n        \"name\": \"web\"\n    }\n}\n"
        );
    }

    #[test]
    fn watching_prints_each_object_indented() {
        let mut o = options();
        o.watching = true;
        let got = print_all(
            &o,
            &[
                (
                    EventType::Added,
                    Origin::List,
                    true,
                    r#"{"metadata":{"name":"a"}}"#,
                ),
                (
                    EventType::Modified,
                    Origin::Watch,
                    false,
                    r#"{"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"a"}}"#,
                ),
            ],
        );
        let one = "{\n    \"apiVersion\": \"apps/v1\",\n    \"kind\": \"Deployment\",\n    \"metadata\": {\n        \"name\": \"a\"\n    }\n}\n";
        assert_eq!(got, format!("{one}{one}"));
    }

    #[test]
    fn watch_events_are_compact_lines_with_relist_marker() {
        let mut o = options();
        o.watching = true;
        o.watch_events = true;
        let got = print_all(
            &o,
            &[
                (
                    EventType::Added,
                    Origin::List,
                    true,
                    r#"{"metadata":{"name":"a<b>"}}"#,
                ),
                (
                    EventType::Deleted,
                    Origin::Relist,
                    false,
                    r#"{ "kind": "Deployment", "apiVersion": "apps/v1", "metadata": {"name": "c"} }"#,
                ),
            ],
        );
        assert_eq!(
            got,
            "{\"type\":\"ADDED\",\"object\":{\"apiVersion\":\"apps/v1\",\"kind\":\"Deployment\",\"metadata\":{\"name\":\"a\\u003cb\\u003e\"}}}\n\
             {\"type\":\"DELETED\",\"object\":{\"apiVersion\":\"apps/v1\",\"kind\":\"Deployment\",\"metadata\":{\"name\":\"c\"}},\"kw\":{\"synthetic\":true}}\n"
        );
    }

    #[test]
    fn invalid_json_is_an_error_not_a_panic() {
        let resource = deployments();
        let raw = RawValue::from_string(r#""\ud800""#.to_string()).unwrap();
        let event = Event {
            kind: EventType::Added,
            origin: Origin::Watch,
            resource: &resource,
            object: &raw,
            object_lacks_type: false,
            name: "web",
            namespace: "",
            row: None,
            context: None,
            judged: None,
        };
        let mut printer = JsonPrinter::new(&options());
        let mut out = Vec::new();
        let error = printer.print(&event, &mut out).unwrap_err();
        assert_eq!(error.kind(), io::ErrorKind::InvalidData);
    }
}
