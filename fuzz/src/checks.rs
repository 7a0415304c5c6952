//! What must hold for any input, one function per fuzz target. Each panics when a property fails,
//! which libFuzzer reports as a crash and `cargo test` (replaying the corpus) as a failure.
//!
//! Shared by the fuzz crate and, through `#[path]`, by `tests/it/fuzz_corpus.rs`: only `kw`'s
//! public API and its own dependencies may be used here.

use std::borrow::Cow;
use std::io::{self, Read};

use serde::Deserialize;
use serde_json::value::RawValue;
use serde_json::Value;

use kw::decode::scan::Scanner;
use kw::decode::{self, DecodeError, TableEvent, WireEvent};

/// A reader that hands out its bytes in pieces of the given sizes, as a network does; a size of
/// zero is an interrupted read (which the framer must retry, not take for the end).
struct Pieces<'a> {
    data: &'a [u8],
    sizes: &'a [u8],
    turn: usize,
}

impl Read for Pieces<'_> {
    fn read(&mut self, out: &mut [u8]) -> io::Result<usize> {
        if self.data.is_empty() {
            return Ok(0);
        }
        let size = match self.sizes.get(self.turn % self.sizes.len().max(1)) {
            Some(0) if self.turn < 64 => {
                self.turn += 1;
                return Err(io::ErrorKind::Interrupted.into());
            }
            Some(&size) => usize::from(size).max(1),
            None => usize::MAX,
        };
        self.turn += 1;
        let n = size.min(out.len()).min(self.data.len());
        out[..n].copy_from_slice(&self.data[..n]);
        self.data = &self.data[n..];
        Ok(n)
    }
}

/// One framer step as the watcher sees it.
#[derive(Debug, PartialEq)]
enum Step {
    Frame(u64, Vec<u8>),
    TooLarge(u64),
    Other(String),
}

/// Frames `body` read in `sizes` pieces, decoding each frame as the watcher does.
fn frames(body: &[u8], sizes: &[u8], max_frame: usize, join: bool) -> Vec<Step> {
    let reader = Pieces {
        data: body,
        sizes,
        turn: 0,
    };
    let mut framer = decode::Framer::new(reader, max_frame);
    let mut steps = Vec::new();
    // Each frame consumes at least one byte, so this ends; the bound is a second guard.
    for _ in 0..=body.len() + 1 {
        let (offset, frame) = match framer.next_frame_at() {
            Ok(Some((offset, frame))) => (offset, frame.to_vec()),
            Ok(None) => return steps,
            Err(DecodeError::TooLarge { offset, .. }) => {
                steps.push(Step::TooLarge(offset));
                return steps;
            }
            Err(e) => {
                steps.push(Step::Other(e.to_string()));
                return steps;
            }
        };
        let _ = framer.has_buffered_frame();
        check_event(&frame);
        steps.push(Step::Frame(offset, frame.clone()));
        if join && decode::wire_event(&frame).is_err() {
            // A value spread over lines (a pretty-printing proxy): join up to a few more lines.
            for _ in 0..4 {
                match framer.extend_frame() {
                    Ok(Some(joined)) => {
                        let joined = joined.to_vec();
                        check_event(&joined);
                        steps.push(Step::Frame(offset, joined));
                    }
                    Ok(None) => return steps,
                    Err(DecodeError::TooLarge { offset, .. }) => {
                        steps.push(Step::TooLarge(offset));
                        return steps;
                    }
                    Err(e) => {
                        steps.push(Step::Other(e.to_string()));
                        return steps;
                    }
                }
            }
        }
    }
    panic!("the framer returned more frames than the body has bytes");
}

/// Target `decode_stream`: a watch body in arbitrary pieces. The first byte sets the frame limit
/// and whether lines are joined, the next `n` bytes are the read sizes, the rest is the body.
///
/// Frames do not depend on how the body was cut into reads, and every frame the decoders accept
/// is one serde_json reads the same way.
pub fn decode_stream(data: &[u8]) {
    let Some((&control, rest)) = data.split_first() else {
        return;
    };
    let count = usize::from(control & 0x0f).min(rest.len());
    let (sizes, body) = rest.split_at(count);
    let max_frame = 16usize << (control >> 5);
    let join = control & 0x10 != 0;
    let chunked = frames(body, sizes, max_frame, join);
    let whole = frames(body, &[], max_frame, join);
    assert_eq!(chunked, whole, "frames depend on how the body was read");
}

/// The decoders against serde_json on one frame (the property test of `decode`, under a fuzzer).
fn check_event(frame: &[u8]) {
    let valid = serde_json::from_slice::<&RawValue>(frame).is_ok();
    let fast = decode::wire_event(frame);
    let slow = serde_json::from_slice::<&RawValue>(frame)
        .and_then(|whole| serde_json::from_str::<WireEvent>(whole.get()));
    assert_eq!(fast.is_ok(), slow.is_ok(), "wire_event vs serde_json");
    if let (Ok(fast), Ok(slow)) = (&fast, &slow) {
        assert!(valid);
        assert_eq!(fast.kind, slow.kind);
        assert_eq!(fast.object.get(), slow.object.get());
        let reference = decode::object_head_by_serde(fast.object.get());
        for head in [decode::object_head(fast.object.get()), fast.head()] {
            assert_eq!(head.is_ok(), reference.is_ok(), "object head vs serde_json");
            if let (Ok(head), Ok(reference)) = (&head, &reference) {
                same_head(head, reference);
            }
        }
    }
    if let Ok(table) = decode::table_event(frame) {
        assert!(valid, "table_event accepted a frame that is not JSON");
        let text = std::str::from_utf8(frame).expect("accepted frames are UTF-8");
        let slow = serde_json::from_str::<TableEvent>(text).expect("only the scanner accepted");
        let (t, s) = (&table.object, &slow.object);
        assert_eq!((&table.kind, &t.kind), (&slow.kind, &s.kind));
        assert_eq!(t.metadata.resource_version, s.metadata.resource_version);
        assert_eq!(t.metadata.continue_token, s.metadata.continue_token);
        assert_eq!(t.column_definitions, s.column_definitions);
        assert_eq!(t.rows.len(), s.rows.len());
        for (a, b) in t.rows.iter().zip(&s.rows) {
            assert_eq!(a.cells.map(RawValue::get), b.cells.map(RawValue::get));
            assert_eq!(a.object.map(RawValue::get), b.object.map(RawValue::get));
            let columns = t.column_definitions.as_ref().map_or(0, Vec::len);
            let cells = a.printed_cells(columns);
            assert_eq!(cells.is_ok(), b.printed_cells(columns).is_ok());
            if let Ok(cells) = cells {
                assert!(cells.len() <= columns);
            }
            let reference = decode::object_head_by_serde(a.object.unwrap_or(RawValue::NULL).get());
            assert_eq!(
                a.head().is_ok(),
                reference.is_ok(),
                "row head vs serde_json"
            );
            if let (Ok(head), Ok(reference)) = (a.head(), reference) {
                same_head(&head, &reference);
            }
        }
    }
}

fn same_head(head: &decode::ObjectHead, reference: &decode::ObjectHead) {
    assert_eq!(head.kind, reference.kind);
    assert_eq!(head.api_version, reference.api_version);
    let (m, r) = (&head.metadata, &reference.metadata);
    assert_eq!(
        (&m.name, &m.namespace, &m.uid, &m.resource_version),
        (&r.name, &r.namespace, &r.uid, &r.resource_version)
    );
    assert_eq!(
        m.annotations.map(RawValue::get),
        r.annotations.map(RawValue::get)
    );
}

/// serde_json's verdict on `bytes` as one JSON text, at any depth (as `RawValue` checks it,
/// without the recursion limit). Read from a `str`: from bytes, serde_json skips ignored strings
/// without checking their UTF-8 (the fuzzer's first finding was this oracle's, not kw's).
fn serde_accepts(bytes: &[u8]) -> bool {
    let Ok(text) = std::str::from_utf8(bytes) else {
        return false;
    };
    let mut deserializer = serde_json::Deserializer::from_str(text);
    deserializer.disable_recursion_limit();
    let checked =
        serde::de::IgnoredAny::deserialize(serde_stacker::Deserializer::new(&mut deserializer));
    checked.is_ok() && deserializer.end().is_ok()
}

/// Target `json_scan`: the scanner against serde_json on arbitrary bytes: the same verdict, and
/// for an accepted object or array, walking its members or elements gives serde_json's value.
pub fn json_scan(data: &[u8]) {
    let reference = serde_accepts(data);
    let scanned = Scanner::frame(data).and_then(|scanner| {
        let start = scanner.skip_ws(0);
        let end = scanner.value_end(start)?;
        scanner.finish(end).map(|()| (scanner, start))
    });
    assert_eq!(scanned.is_ok(), reference, "scanner vs serde_json verdict");
    let Ok((scanner, start)) = scanned else {
        return;
    };
    // Also through `Scanner::text`, which checks control characters as it goes.
    let text = std::str::from_utf8(data).expect("accepted bytes are UTF-8");
    let again = Scanner::text(text);
    assert_eq!(again.value_end(start).ok(), scanner.value_end(start).ok());

    let value = decode::value(text);
    let Ok(value) = value else {
        // Grammatical but not representable (a number out of f64's range): nothing to compare.
        return;
    };
    match &value {
        Value::Object(map) => {
            let mut members = scanner.members(start).expect("an object starts here");
            let mut walked = serde_json::Map::new();
            while let Some(member) = scanner.member(&mut members).expect("a valid object") {
                let end = scanner.value_end(member.value).expect("a valid member");
                let key = if member.key_escaped {
                    serde_json::from_str::<String>(&format!("\"{}\"", member.key))
                        .expect("an escaped key serde_json reads")
                } else {
                    assert!(!member.key.contains('\\'));
                    member.key.to_owned()
                };
                let item = scanner.slice(member.value, end).expect("ASCII bounds");
                walked.insert(key, decode::value(item).expect("a member serde_json reads"));
                members.skip_to(end);
            }
            assert_eq!(&walked, map, "members walked vs serde_json's object");
        }
        Value::Array(items) => {
            let mut elements = scanner.elements(start).expect("an array starts here");
            let mut walked = Vec::new();
            while let Some(at) = scanner.element(&mut elements).expect("a valid array") {
                let end = scanner.value_end(at).expect("a valid element");
                let item = scanner.slice(at, end).expect("ASCII bounds");
                walked.push(decode::value(item).expect("an element serde_json reads"));
                elements.skip_to(end);
            }
            assert_eq!(&walked, items, "elements walked vs serde_json's array");
        }
        _ => {}
    }
}

/// Equal as kubectl's output means them: numbers compare as Go's int64/float64 would hold them.
/// Whether `key` is a key of any map in `value`.
fn has_key(value: &Value, key: &str) -> bool {
    match value {
        Value::Object(map) => map.contains_key(key) || map.values().any(|v| has_key(v, key)),
        Value::Array(items) => items.iter().any(|v| has_key(v, key)),
        _ => false,
    }
}

fn same_value(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Number(x), Value::Number(y)) => match (x.as_i64(), y.as_i64()) {
            (Some(x), Some(y)) => x == y,
            _ => x.as_f64() == y.as_f64(),
        },
        (Value::Array(x), Value::Array(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(a, b)| same_value(a, b))
        }
        // serde-saphyr reads any casing of YAML 1.1's booleans as one (`yeS`); go-yaml v2, whose
        // quoting kw reproduces, knows only `yes`, `Yes`, `YES` (and so on), so kubectl, and kw,
        // leave `yeS` plain. A difference of the reader, not of the output.
        (Value::String(text), Value::Bool(flag)) => {
            let word = text.to_ascii_lowercase();
            let words: &[&str] = if *flag {
                &["y", "yes", "on", "true"]
            } else {
                &["n", "no", "off", "false"]
            };
            if !words.contains(&word.as_str()) {
                return false;
            }
            // The casings go-yaml resolves must have been quoted: those stay a finding.
            let mut capitalized = word.clone();
            capitalized[..1].make_ascii_uppercase();
            ![word, capitalized, text.to_ascii_uppercase()].contains(text)
        }
        (Value::Object(x), Value::Object(y)) => {
            x.len() == y.len()
                && x.iter()
                    .all(|(key, a)| y.get(key).is_some_and(|b| same_value(a, b)))
        }
        _ => a == b,
    }
}

/// Target `goformat`: kubectl's `-o json` (indented and compact) and `-o yaml` of any JSON value
/// read back as the same value.
pub fn goformat(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let Ok(value) = decode::value(text) else {
        return;
    };
    let mut compact = Vec::new();
    kw::goformat::json::write_compact(&mut compact, &value);
    let back = decode::value(std::str::from_utf8(&compact).expect("-o json is UTF-8"))
        .expect("-o json output is JSON");
    assert!(same_value(&value, &back), "compact JSON changed the value");

    let mut indented = Vec::new();
    kw::goformat::json::write_indented(&mut indented, &value, 0);
    let back = decode::value(std::str::from_utf8(&indented).expect("-o json is UTF-8"))
        .expect("-o json output is JSON");
    assert!(same_value(&value, &back), "indented JSON changed the value");

    let mut yaml = Vec::new();
    kw::goformat::yaml::write_document(&mut yaml, &value);
    let yaml = std::str::from_utf8(&yaml).expect("-o yaml is UTF-8");
    // A key `<<` is plain in kubectl's YAML (go-yaml v2 resolves only keys that start with
    // `yYnNtTfFoO~.+-` or a digit, so `<<` reads as a string there) and in kw's; serde-saphyr
    // reads it as YAML 1.1's merge key and folds the map into its parent. A difference of the
    // reader: no round trip to compare. (Checked against kubectl 1.32: a ConfigMap with a data
    // key `<<` prints `<<: x`.)
    if has_key(&value, "<<") {
        return;
    }
    let back: Value = match serde_saphyr::from_str(yaml) {
        Ok(back) => back,
        // A string like `1e999` is plain in kubectl's YAML: go-yaml v2 reads a float out of
        // range as a string, so kubectl does not quote it (nor does kw). serde-saphyr refuses
        // such a float instead: a difference of the reader, not of the output.
        // And it refuses nesting deeper than its budget (64 levels) by default.
        Err(e) if e.to_string().contains("non-finite float") => return,
        Err(e) if e.to_string().contains("budget breached") => return,
        Err(e) => panic!("-o yaml output is not YAML: {e}\n{yaml}"),
    };
    assert!(same_value(&value, &back), "YAML changed the value:\n{yaml}");
}

/// Target `jsonpath`: a template (before the first NUL) run on a JSON object (after it). No
/// panic, and `-o jsonpath-as-json` writes one JSON array per result group.
pub fn jsonpath(data: &[u8]) {
    let text = String::from_utf8_lossy(data);
    let (template, object) = text.split_once('\0').unwrap_or((&text, "{}"));
    if let Some(relaxed) = kw::jsonpath::relaxed(template) {
        let _ = kw::jsonpath::JsonPath::parse(&relaxed);
    }
    let _ = kw::jsonpath::parse_dump(template);
    let Ok(path) = kw::jsonpath::JsonPath::parse(template) else {
        return;
    };
    let object = decode::value(object).unwrap_or(Value::Null);
    for allow in [false, true] {
        let path = path.clone().allow_missing_keys(allow);
        let mut out = Vec::new();
        let found = path.find(&object);
        let executed = path.execute(&object, &mut out);
        assert_eq!(found.is_ok(), executed.is_ok());
        let mut json = Vec::new();
        if path.execute_json(&object, &mut json).is_ok() {
            let groups = found.expect("find agrees with execute_json").len();
            let arrays = serde_json::Deserializer::from_slice(&json)
                .into_iter::<Value>()
                .map(|value| match value.expect("jsonpath-as-json writes JSON") {
                    Value::Array(_) => 1,
                    other => panic!("a result group that is not an array: {other}"),
                })
                .sum::<usize>();
            assert_eq!(arrays, groups);
        }
    }
}

/// `-o go-template` (issue 34): a fuzzed template (before the first NUL) on a fuzzed object.
/// Beyond no panic: text without an action is printed as it is; a parse error is worded as
/// Go's (`template: output:LINE: ...`); a run gives the same bytes and the same result twice,
/// a failed one included (kubectl prints what was written before the error).
pub fn gotemplate(data: &[u8]) {
    let text = String::from_utf8_lossy(data);
    let (template, object) = text.split_once('\0').unwrap_or((&text, "{}"));
    let parsed = kw::gotemplate::GoTemplate::parse(template);
    if !template.contains("{{") {
        let plain = parsed.as_ref().expect("text without an action parses");
        let mut out = String::new();
        plain
            .execute(&Value::Null, &mut out)
            .expect("text without an action runs");
        assert_eq!(out, template, "text without an action is printed as it is");
    }
    let template = match parsed {
        Ok(template) => template,
        Err(error) => {
            assert!(
                error.0.starts_with("template: output:"),
                "a parse error worded as Go's: {}",
                error.0
            );
            return;
        }
    };
    let object = decode::value(object).unwrap_or(Value::Null);
    let (mut first, mut second) = (String::new(), String::new());
    let first_result = template.execute(&object, &mut first).map_err(|e| e.0);
    let second_result = template.execute(&object, &mut second).map_err(|e| e.0);
    assert_eq!(
        first, second,
        "the same template on the same object, the same bytes"
    );
    assert_eq!(first_result, second_result);
}

fn is_control(bytes: &[u8], index: usize) -> bool {
    match bytes[index] {
        b'\t' | b'\n' => false,
        0x00..=0x1f | 0x7f => true,
        0xc2 => matches!(bytes.get(index + 1), Some(0x80..=0x9f)),
        _ => false,
    }
}

/// Target `escape`: server text through the terminal escaper and the table layout. No control
/// byte but tab and newline survives escaping, text without one is untouched, and laying escaped
/// cells out in columns neither panics nor brings a control back.
pub fn escape(data: &[u8]) {
    let text = String::from_utf8_lossy(data);
    let mut out = Vec::new();
    kw::output::escape::write_escaped(&mut out, &text);
    let escaped = String::from_utf8(out).expect("escaping keeps UTF-8");
    let bytes = escaped.as_bytes();
    assert!(
        !(0..bytes.len()).any(|index| is_control(bytes, index)),
        "a control survived: {escaped:?}"
    );
    let needs = kw::output::escape::needs_escaping(text.as_bytes());
    assert_eq!(needs, escaped != text.as_ref());
    assert_eq!(kw::output::escape::escaped(&text), Cow::Borrowed(&escaped));

    use kw::output::printer::tabwriter::TabWriter;
    for (skip_ansi, display_width) in [(false, false), (true, true)] {
        let mut table = TabWriter::kubectl();
        table.set_measure(skip_ansi, display_width);
        for line in escaped.split('\n').take(64) {
            let mut line = line.as_bytes().to_vec();
            line.push(b'\n');
            let _ = table.would_grow(&line);
            table.reserve_line(&line);
            table
                .write(&line, &mut io::sink())
                .expect("a sink takes it");
        }
        let mut laid_out = Vec::new();
        table.flush(&mut laid_out).expect("a Vec takes it");
        assert!(
            !(0..laid_out.len()).any(|index| is_control(&laid_out, index)),
            "a control appeared in the layout"
        );
    }
}

/// Target `config_text`: text users and their files give kw (the first byte picks the reader):
/// kubeconfigs, manifests (YAML or JSON, several documents), and durations. No panic, and a
/// duration read back from its nanoseconds is the same duration.
pub fn config_text(data: &[u8]) {
    let Some((&choice, rest)) = data.split_first() else {
        return;
    };
    let text = String::from_utf8_lossy(rest);
    let path = std::path::Path::new("/fuzz/input.yaml");
    match choice % 4 {
        0 => {
            let _ = kw::config::kubeconfig::parse(&text, path);
        }
        1 => {
            let _ = kw::plan::manifest::parse(path, &text);
        }
        2 => {
            if let Ok(duration) = kw::goformat::duration::parse(&text) {
                let nanos = format!("{}ns", duration.as_nanos());
                assert_eq!(kw::goformat::duration::parse(&nanos), Ok(duration));
            }
        }
        _ => {
            let _ = kw::config::flags::parse_request_timeout(&text);
        }
    }
}
