//! `-o jsonl`, kw's own format: one compact JSON object per line, the server's bytes passed
//! through without decoding or re-encoding (the cheapest possible path in a flood of events).
//!
//! The only edits: items of a LIST get `"apiVersion":"..","kind":"..",` inserted right after
//! their opening brace, and a line break inside the raw text (a server that pretty-prints) is
//! dropped with the other whitespace outside strings so that one object stays one line. With
//! `--output-watch-events` each line is `{"type":"..","object":<raw>}`, plus
//! `"kw":{"synthetic":true}` for events kw synthesised after a re-list. There is never a `List`
//! wrapper. kw's `"ts"` and `"diff"` fields (`--timestamps`, `--diff`) follow, see `extras`.

use std::io::{self, Write};

use kw_events::events::Event;

use super::contract::DecodedObject;
use super::extras::{append_kw_member, EventExtras};
use super::{PrintOptions, Printer};
use kw_go::goformat::json::write_string;

pub struct JsonlPrinter {
    watch_events: bool,
    extras: EventExtras,
    buffer: Vec<u8>,
}

impl JsonlPrinter {
    pub fn new(options: &PrintOptions) -> JsonlPrinter {
        JsonlPrinter {
            watch_events: options.watch_events,
            extras: EventExtras::new(options),
            buffer: Vec::with_capacity(4096),
        }
    }
}

/// Append `raw` as one line's worth of JSON, with the type fields inserted when asked.
fn write_object(out: &mut Vec<u8>, event: &Event<'_>) {
    let raw = event.object.get().as_bytes();
    let start = out.len();
    // Only an object can take the fields: the first non-blank byte must be its brace.
    let brace = raw
        .iter()
        .position(|b| !b.is_ascii_whitespace())
        .filter(|&first| raw[first] == b'{');
    match brace {
        Some(brace) if event.object_lacks_type => {
            out.extend_from_slice(&raw[..=brace]);
            out.extend_from_slice(b"\"apiVersion\":");
            write_string(out, &event.resource.api_version());
            out.extend_from_slice(b",\"kind\":");
            write_string(out, &event.resource.kind);
            let rest = &raw[brace + 1..];
            let empty_object = rest
                .iter()
                .find(|b| !b.is_ascii_whitespace())
                .is_some_and(|&b| b == b'}');
            if !empty_object {
                out.push(b',');
            }
            out.extend_from_slice(rest);
        }
        _ => out.extend_from_slice(raw),
    }
    // Almost every object arrives on one line (watch frames are split at newlines); memchr2
    // checks a 4 KB object ~10x faster than a byte loop.
    if memchr::memchr2(b'\n', b'\r', &out[start..]).is_some() {
        strip_whitespace_outside_strings(out, start);
    }
}

/// Add `"kw":{"context":..}` as the last member of the object that ends `out` (a line over
/// several contexts; an event line carries it in its envelope instead).
fn embed_context(out: &mut Vec<u8>, context: &str) {
    let Some(last) = out.iter().rposition(|b| !b.is_ascii_whitespace()) else {
        return;
    };
    if out[last] != b'}' {
        return;
    }
    out.truncate(last);
    let empty = out
        .iter()
        .rposition(|b| !b.is_ascii_whitespace())
        .is_some_and(|i| out[i] == b'{');
    if !empty {
        out.push(b',');
    }
    out.extend_from_slice(b"\"kw\":{\"context\":");
    write_string(out, context);
    out.extend_from_slice(b"}}");
}

/// Remove JSON whitespace outside string literals from `out[start..]`. Raw line breaks cannot
/// occur inside JSON strings, so this changes nothing but the layout.
fn strip_whitespace_outside_strings(out: &mut Vec<u8>, start: usize) {
    let mut in_string = false;
    let mut escaped = false;
    let mut write = start;
    for read in start..out.len() {
        let byte = out[read];
        if in_string {
            if escaped {
                escaped = false;
            } else if byte == b'\\' {
                escaped = true;
            } else if byte == b'"' {
                in_string = false;
            }
        } else if byte == b'"' {
            in_string = true;
        } else if matches!(byte, b' ' | b'\t' | b'\n' | b'\r') {
            continue;
        }
        out[write] = byte;
        write += 1;
    }
    out.truncate(write);
}

impl Printer for JsonlPrinter {
    fn print_decoded(
        &mut self,
        event: &Event<'_>,
        object: DecodedObject<'_>,
        out: &mut dyn Write,
    ) -> io::Result<()> {
        self.buffer.clear();
        if self.watch_events {
            self.buffer.extend_from_slice(b"{\"type\":\"");
            self.buffer
                .extend_from_slice(event.kind.as_str().as_bytes());
            self.buffer.extend_from_slice(b"\",\"object\":");
            write_object(&mut self.buffer, event);
            append_kw_member(&mut self.buffer, event);
            let diffed = self.extras.needs_object().then(|| object.or_null());
            self.extras.append(&mut self.buffer, event, diffed);
            self.buffer.push(b'}');
        } else {
            write_object(&mut self.buffer, event);
            if let Some(context) = event.context {
                embed_context(&mut self.buffer, context);
            }
        }
        self.buffer.push(b'\n');
        out.write_all(&self.buffer)
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
    use kw_events::events::Origin;
    use serde_json::value::RawValue;

    use super::*;
    use crate::output::printer::OutputFormat;
    use kw_events::events::ResourceInfo;
    use kw_wire::EventType;

    fn print_one(watch_events: bool, origin: Origin, lacks_type: bool, json: &str) -> String {
        let resource = ResourceInfo {
            plural: "widgets".into(),
            singular: "widget".into(),
            kind: "Widget".into(),
            group: "example.com".into(),
            version: "v1beta1".into(),
            namespaced: true,
        };
        let options = PrintOptions {
            format: OutputFormat::Jsonl,
            watch_events,
            watching: false,
            all_namespaces: false,
            no_headers: false,
            single_object: false,
            named_object: false,
            show_managed_fields: false,
            ..PrintOptions::default()
        };
        let raw = RawValue::from_string(json.to_string()).unwrap();
        let event = Event {
            kind: EventType::Modified,
            origin,
            resource: &resource,
            object: &raw,
            object_lacks_type: lacks_type,
            name: "w1",
            namespace: "default",
            row: None,
            context: None,
            judged: None,
        };
        let mut printer = JsonlPrinter::new(&options);
        let mut out = Vec::new();
        printer.print(&event, &mut out).unwrap();
        printer.finish(&Default::default(), &mut out).unwrap();
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn bytes_pass_through_untouched() {
        let json = r#"{"kind":"Widget","z":1,"a":"<&>","n":1.0}"#;
        assert_eq!(
            print_one(false, Origin::Watch, false, json),
            format!("{json}\n")
        );
    }

    #[test]
    fn list_items_get_type_inserted_after_the_brace() {
        assert_eq!(
            print_one(false, Origin::List, true, r#"{"metadata":{"name":"w1"}}"#),
            "{\"apiVersion\":\"example.com/v1beta1\",\"kind\":\"Widget\",\"metadata\":{\"name\":\"w1\"}}\n"
        );
        assert_eq!(
            print_one(false, Origin::List, true, "{ }"),
            "{\"apiVersion\":\"example.com/v1beta1\",\"kind\":\"Widget\" }\n"
        );
    }

    #[test]
    fn non_objects_are_passed_through_even_when_lacking_type() {
        assert_eq!(
            print_one(false, Origin::List, true, r#""a{b""#),
            "\"a{b\"\n"
        );
        assert_eq!(print_one(false, Origin::List, true, "null"), "null\n");
    }

    #[test]
    fn watch_events_wrap_the_raw_object() {
        assert_eq!(
            print_one(true, Origin::Watch, false, r#"{"b":2,"a":1}"#),
            "{\"type\":\"MODIFIED\",\"object\":{\"b\":2,\"a\":1}}\n"
        );
        assert_eq!(
            print_one(true, Origin::Relist, false, r#"{"a":1}"#),
            "{\"type\":\"MODIFIED\",\"object\":{\"a\":1},\"kw\":{\"synthetic\":true}}\n"
        );
    }

    #[test]
    fn pretty_printed_objects_stay_on_one_line() {
        let json = "{\n  \"a\": \"x y\\\" z\",\n  \"b\": [1, 2]\n}";
        assert_eq!(
            print_one(false, Origin::Watch, false, json),
            "{\"a\":\"x y\\\" z\",\"b\":[1,2]}\n"
        );
    }
}
