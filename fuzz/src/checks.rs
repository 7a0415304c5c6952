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
use kw::decode::{self, DecodeError, WireEvent};

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
    // Table mode: the frames `wire_event` accepts, the same envelope, and the object read as
    // serde_json reads it (a Table when its head says so).
    let table_mode = decode::table_event(frame);
    assert_eq!(
        table_mode.is_ok(),
        fast.is_ok(),
        "table_event vs wire_event"
    );
    if let (Ok(mut event), Ok(slow)) = (table_mode, &slow) {
        assert_eq!(
            (&event.kind, event.object.get()),
            (&slow.kind, slow.object.get())
        );
        let reference = decode::object_head_by_serde(event.object.get());
        assert_eq!(
            event.head().is_ok(),
            reference.is_ok(),
            "table-mode head vs serde_json"
        );
        if let (Ok(head), Ok(reference)) = (event.head(), &reference) {
            same_head(&head, reference);
        }
        let is_table = reference.is_ok_and(|head| head.kind == "Table");
        let slow_table = serde_json::from_str::<decode::TableBody>(event.object.get());
        match (event.take_table(), slow_table) {
            (Ok(None), _) => assert!(!is_table, "a Table read as no Table"),
            (Ok(Some(t)), Ok(s)) => {
                assert!(is_table, "an object read as a Table");
                assert_eq!(t.kind, s.kind);
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
                    let reference =
                        decode::object_head_by_serde(a.object.unwrap_or(RawValue::NULL).get());
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
            (Ok(Some(_)), Err(_)) => panic!("only the scanner read the Table"),
            (Err(_), slow) => assert!(is_table && slow.is_err(), "only serde_json read the Table"),
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
/// read back as the same value. It runs on a thread with the stack kw gives its object threads
/// (`decode::depth::STACK`), not the fuzzer's main thread: a deep input that only the larger
/// main stack survives would otherwise pass here and abort kw.
pub fn goformat(data: &[u8]) {
    let data = data.to_vec();
    let checked = std::thread::Builder::new()
        .stack_size(kw::decode::depth::STACK)
        .spawn(move || goformat_on_this_thread(&data))
        .expect("a thread for the check")
        .join();
    if let Err(panic) = checked {
        std::panic::resume_unwind(panic);
    }
}

fn goformat_on_this_thread(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    // Past the API server's depth kw refuses the object before any printer sees it.
    if kw::decode::depth::exceeds(text, kw::decode::depth::MAX_DEPTH) {
        return;
    }
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

/// Runs a go-template over an object: the template's output, or its error.
pub type TemplateRun<'r> = dyn Fn(&str, &Value) -> Result<String, String> + 'r;

/// kw's go-template run.
pub fn run_template(template: &str, object: &Value) -> Result<String, String> {
    let parsed = kw::gotemplate::GoTemplate::parse(template).map_err(|e| e.0)?;
    let mut out = String::new();
    parsed.execute(object, &mut out).map_err(|e| e.0)?;
    Ok(out)
}

/// How deeply `value` nests (arrays and objects), without recursion.
fn nesting(value: &Value) -> usize {
    let mut deepest = 0;
    let mut pending = vec![(value, 0)];
    while let Some((value, depth)) = pending.pop() {
        deepest = deepest.max(depth);
        match value {
            Value::Array(items) => pending.extend(items.iter().map(|v| (v, depth + 1))),
            Value::Object(map) => pending.extend(map.values().map(|v| (v, depth + 1))),
            _ => {}
        }
    }
    deepest
}

/// The template path against the table and JSONPath path (`goformat::fmt`, Go's `%v` written
/// apart from the template's values): `{{.}}` and `printf "%v"` of every member or item (the
/// range in Go's order, keys sorted) print what `fmt.Sprint` of the decoded value prints, and
/// `len` counts what is there.
pub fn template_differential(object: &Value, run: &TemplateRun<'_>) {
    // goformat's printer recurses on the caller's stack; nil data is Go's `<no value>`.
    if nesting(object) > 64 || object.is_null() {
        return;
    }
    let go_v = |value: &Value| {
        let mut out = Vec::new();
        kw::goformat::fmt::write_go_value(&mut out, value);
        String::from_utf8(out).expect("UTF-8 in, UTF-8 out")
    };
    let whole = run("{{.}}", object);
    assert_eq!(whole, Ok(go_v(object)), "{{{{.}}}} of {object}");
    let members: Option<Vec<(String, &Value)>> = match object {
        Value::Object(map) => {
            let mut members: Vec<(String, &Value)> =
                map.iter().map(|(k, v)| (k.clone(), v)).collect();
            members.sort_by(|a, b| a.0.as_bytes().cmp(b.0.as_bytes()));
            Some(members)
        }
        Value::Array(items) => Some(
            items
                .iter()
                .enumerate()
                .map(|(i, v)| (i.to_string(), v))
                .collect(),
        ),
        _ => None,
    };
    if let Some(members) = members {
        let expected: String = members
            .iter()
            .map(|(key, value)| format!("{key}={};", go_v(value)))
            .collect();
        assert_eq!(
            run(
                r#"{{range $k, $v := .}}{{$k}}={{printf "%v" $v}};{{end}}"#,
                object
            ),
            Ok(expected),
            "range over {object}"
        );
        assert_eq!(
            run("{{len .}}", object),
            Ok(members.len().to_string()),
            "len of {object}"
        );
    }
}

/// `-o go-template` (issue 34): a fuzzed template (before the first NUL) on a fuzzed object.
/// Beyond no panic: the object through `template_differential`; text without an action is
/// printed as it is; a parse error is worded as
/// Go's (`template: output:LINE: ...`); a run gives the same bytes and the same result twice,
/// a failed one included (kubectl prints what was written before the error).
pub fn gotemplate(data: &[u8]) {
    let text = String::from_utf8_lossy(data);
    let (template, object) = text.split_once('\0').unwrap_or((&text, "{}"));
    if let Ok(object) = decode::value(object) {
        template_differential(&object, &run_template);
    }
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
    // `--allow-missing-template-keys=false` only turns missing keys into errors: a run it lets
    // finish printed what the default run printed.
    let mut strict = String::new();
    let strict_result = template
        .missing_keys_refused(true)
        .execute(&object, &mut strict);
    if strict_result.is_ok() {
        assert_eq!(
            strict, first,
            "missingkey=error that succeeds prints as the default"
        );
        assert!(
            first_result.is_ok(),
            "missingkey=error is never more lenient"
        );
    }
}

fn is_control(bytes: &[u8], index: usize) -> bool {
    match bytes[index] {
        b'\t' | b'\n' => false,
        0x00..=0x1f | 0x7f => true,
        0xc2 => matches!(bytes.get(index + 1), Some(0x80..=0x9f)),
        _ => false,
    }
}

/// The terminal escaper written again, char by char, from its documentation (kubectl's `^[` and
/// `\r`, caret notation for the other C0 controls and DEL, `\u{..}` for C1), so that an
/// escaper that drops a control instead of showing it fails the differential check.
pub fn reference_escape(text: &str, one_line: bool) -> String {
    let mut out = String::new();
    for c in text.chars() {
        match c {
            '\n' if one_line => out.push_str("\\n"),
            '\t' | '\n' => out.push(c),
            '\u{1b}' => out.push_str("^["),
            '\r' => out.push_str("\\r"),
            '\u{0}'..='\u{1f}' => {
                out.push('^');
                out.push(char::from(c as u8 + 0x40));
            }
            '\u{7f}' => out.push_str("^?"),
            '\u{80}'..='\u{9f}' => out.push_str(&format!("\\u{{{:x}}}", c as u32)),
            _ => out.push(c),
        }
    }
    out
}

/// Target `escape`: server text through the terminal escaper and the table layout. The escaper
/// writes what an independent one (`reference_escape`) writes, for cells and for whole lines;
/// no control byte but tab and newline survives, text without one is untouched, and laying
/// escaped cells out in columns neither panics nor brings a control back.
pub fn escape(data: &[u8]) {
    let text = String::from_utf8_lossy(data);
    let mut out = Vec::new();
    kw::output::escape::write_escaped(&mut out, &text);
    let escaped = String::from_utf8(out).expect("escaping keeps UTF-8");
    assert_eq!(
        escaped,
        reference_escape(&text, false),
        "the escaper and its reference differ"
    );
    let mut line = Vec::new();
    kw::output::escape::write_escaped_line(&mut line, &text);
    assert_eq!(
        String::from_utf8(line).expect("escaping keeps UTF-8"),
        reference_escape(&text, true),
        "a line's escaper and its reference differ"
    );
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
/// duration read back from its nanoseconds is the same duration. A first byte of 0xF0 or more
/// builds a kubeconfig from the rest instead (`kubeconfig_resolution`), whose every context
/// must resolve to its own cluster's server and its own user's token.
pub fn config_text(data: &[u8]) {
    let Some((&choice, rest)) = data.split_first() else {
        return;
    };
    if choice >= 0xF0 {
        return kubeconfig_resolution(rest, resolve_as_kw);
    }
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

/// How a run resolves its settings from flags and a kubeconfig.
pub type Resolver =
    fn(
        &kw::config::flags::ConfigFlags,
        &kw::config::kubeconfig::Kubeconfig,
    ) -> Result<kw::config::settings::Settings, kw::config::settings::SettingsError>;

/// kw's resolution, as `main` calls it (no `-n`).
pub fn resolve_as_kw(
    flags: &kw::config::flags::ConfigFlags,
    config: &kw::config::kubeconfig::Kubeconfig,
) -> Result<kw::config::settings::Settings, kw::config::settings::SettingsError> {
    kw::config::settings::resolve(flags, None, config)
}

/// Entry names the generated kubeconfigs use (two entries may share one), and a name no entry
/// has.
const ENTRY_NAMES: [&str; 7] = ["a", "b", "prod", "prod-eu", "a.b", "x y", "missing"];

/// A kubeconfig built from `bytes` (clusters with distinct servers, users with distinct tokens,
/// contexts naming them, entries missing or named twice), resolved by `resolve` under
/// `--context`, `--cluster` and `--user` chosen from `bytes` too. The answer comes from what was
/// built, not from kw's reading of it: when the settings resolve, the server is the one of the
/// cluster chosen (`--cluster`, else the context's) and no other, the token the user's chosen
/// (`--user`, else the context's) and no other's, none without a user, and the namespace the
/// context's. An entry named twice may give either entry's.
pub fn kubeconfig_resolution(bytes: &[u8], resolve: Resolver) {
    let mut bytes = bytes.iter().copied();
    let mut next = move || bytes.next().unwrap_or(0);
    let name =
        |choices: usize, next: &mut dyn FnMut() -> u8| ENTRY_NAMES[usize::from(next()) % choices];
    let clusters: Vec<(&str, bool)> = (0..next() % 4)
        .map(|_| (name(6, &mut next), next() % 8 != 0))
        .collect();
    let users: Vec<(&str, bool)> = (0..next() % 4)
        .map(|_| (name(6, &mut next), next() % 4 != 0))
        .collect();
    let contexts: Vec<(&str, &str, &str, bool)> = (0..1 + next() % 4)
        .map(|_| {
            (
                name(6, &mut next),
                name(7, &mut next),
                name(7, &mut next),
                next() % 2 == 0,
            )
        })
        .collect();
    let current = usize::from(next()) % (contexts.len() + 1);
    let flag = |next: &mut dyn FnMut() -> u8| {
        next()
            .is_multiple_of(4)
            .then(|| ENTRY_NAMES[usize::from(next()) % 7].to_string())
    };
    let flags = kw::config::flags::ConfigFlags {
        context: flag(&mut next),
        cluster: flag(&mut next),
        user: flag(&mut next),
        ..Default::default()
    };
    let server = |i: usize| (format!("10.0.{i}.1"), 6443 + i as u16);
    let token = |j: usize| format!("token-of-user-{j}");
    let json = serde_json::json!({
        "apiVersion": "v1",
        "kind": "Config",
        "clusters": clusters.iter().enumerate().map(|(i, (name, has_server))| {
            let (host, port) = server(i);
            let cluster = if *has_server {
                serde_json::json!({"server": format!("https://{host}:{port}")})
            } else {
                serde_json::json!({})
            };
            serde_json::json!({"name": name, "cluster": cluster})
        }).collect::<Vec<_>>(),
        "users": users.iter().enumerate().map(|(j, (name, has_token))| {
            let user = if *has_token {
                serde_json::json!({"token": token(j)})
            } else {
                serde_json::json!({})
            };
            serde_json::json!({"name": name, "user": user})
        }).collect::<Vec<_>>(),
        "contexts": contexts.iter().enumerate().map(|(k, (name, cluster, user, ns))| {
            let mut context = serde_json::json!({"cluster": cluster, "user": user});
            if *ns {
                context["namespace"] = serde_json::json!(format!("ns-{k}"));
            }
            serde_json::json!({"name": name, "context": context})
        }).collect::<Vec<_>>(),
        "current-context": contexts.get(current).map_or("", |c| c.0),
    });
    let Ok(config) =
        kw::config::kubeconfig::parse(&json.to_string(), std::path::Path::new("/fuzz/kubeconfig"))
    else {
        return;
    };
    let Ok(settings) = resolve(&flags, &config) else {
        return;
    };
    let context_name = flags
        .context
        .clone()
        .or_else(|| contexts.get(current).map(|c| c.0.to_string()));
    let context: Vec<_> = contexts
        .iter()
        .enumerate()
        .filter(|(_, c)| Some(c.0) == context_name.as_deref())
        .collect();
    let (cluster_name, user_name) = match context.as_slice() {
        [(_, (_, cluster, user, _))] => (
            flags.cluster.clone().unwrap_or(cluster.to_string()),
            Some(flags.user.clone().unwrap_or(user.to_string())),
        ),
        // No context (or one named twice): only the flags say which entries.
        _ => match (&flags.cluster, &flags.user) {
            (Some(cluster), user) if context.is_empty() => (cluster.clone(), user.clone()),
            _ => return,
        },
    };
    let said = format!("{json} under {flags:?}");
    // The server: the chosen cluster's (either, if named twice), never another's.
    let chosen: Vec<usize> = (0..clusters.len())
        .filter(|&i| clusters[i].0 == cluster_name && clusters[i].1)
        .collect();
    let resolved = (
        settings.connection.server.host.clone(),
        settings.connection.server.port,
    );
    assert!(
        chosen.iter().any(|&i| server(i) == resolved),
        "the server {resolved:?} is not cluster {cluster_name:?}'s: {said}"
    );
    // The token: the chosen user's (either, if named twice), none without a user or a token.
    let tokens: Vec<Option<String>> = (0..users.len())
        .filter(|&j| Some(users[j].0) == user_name.as_deref())
        .map(|j| users[j].1.then(|| token(j)))
        .collect();
    let resolved = settings
        .connection
        .credentials
        .token
        .as_ref()
        .map(|t| t.0.clone());
    let allowed = if tokens.is_empty() {
        vec![None]
    } else {
        tokens
    };
    assert!(
        allowed.contains(&resolved),
        "the token {resolved:?} is not user {user_name:?}'s: {said}"
    );
    // The namespace: the context's, else `default`.
    if let [(k, (_, _, _, ns))] = context.as_slice() {
        let expected = if *ns {
            format!("ns-{k}")
        } else {
            "default".to_string()
        };
        assert_eq!(settings.namespace, expected, "{said}");
    }
}

/// The types the table target prints as: the kinds `fallback_row` knows, and one it does not.
fn fuzzed_resource(choice: u8) -> kw::events::ResourceInfo {
    let (plural, kind, group, namespaced) = match choice % 8 {
        0 => ("pods", "Pod", "", true),
        1 => ("services", "Service", "", true),
        2 => ("nodes", "Node", "", false),
        3 => ("namespaces", "Namespace", "", false),
        4 => ("secrets", "Secret", "", true),
        5 => ("deployments", "Deployment", "apps", true),
        6 => ("replicasets", "ReplicaSet", "apps", true),
        _ => ("widgets", "Widget", "example.com", true),
    };
    kw::events::ResourceInfo {
        plural: plural.into(),
        singular: kind.to_ascii_lowercase(),
        kind: kind.into(),
        group: group.into(),
        version: "v1".into(),
        namespaced,
    }
}

/// Paths `--sort-by` is given in the table target: names, numbers, quantities (`parse_quantity`
/// and the comparator, which must be a total order or `sort_by` may panic), and cells.
const SORT_PATHS: &[&str] = &[
    "{.metadata.name}",
    "{.spec.replicas}",
    "{.status.capacity.cpu}",
    "{.metadata.labels.app}",
    "{.spec.containers[0].resources.limits.memory}",
    "{.x}",
];

/// What a printer wrote: no terminal control but tab and newline, valid UTF-8.
fn assert_no_control(out: &[u8], what: &str) {
    assert!(
        !(0..out.len()).any(|index| is_control(out, index) || out[index] == b'\t'),
        "{what}: a control byte in the output: {:?}",
        String::from_utf8_lossy(out)
    );
}

/// Target `table`: a `meta.k8s.io/v1` Table (after the first NUL; before it, a `-o
/// custom-columns=` spec) printed as a table, `-o wide`, through the object fallback row, and
/// with custom columns. The first byte chooses the options. No control byte in the output, one
/// line per row (a cell cannot break a row nor add one), each line bounded by the input.
pub fn table(data: &[u8]) {
    use kw::events::{Event, Origin, TableRow};
    use kw::output::printer::{new_printer, parse_output, OutputFormat, PrintOptions, SortBy};
    use kw::wire::EventType;

    let Some((&flags, rest)) = data.split_first() else {
        return;
    };
    let text = String::from_utf8_lossy(rest);
    let (spec, body) = text.split_once('\0').unwrap_or(("", &text));
    let Ok(table) = serde_json::from_str::<decode::TableBody>(body) else {
        return;
    };
    let columns = table.column_definitions.clone().unwrap_or_default();
    let resource = fuzzed_resource(flags >> 5);
    let mut rows = Vec::new();
    for row in &table.rows {
        let Ok(cells) = row.printed_cells(columns.len()) else {
            return;
        };
        let head = row.head().unwrap_or_default();
        rows.push((row.object.unwrap_or(RawValue::NULL), head, cells));
    }
    // A line may be as wide as the widest row of cells, escaped (a control byte becomes at most
    // six), laid out with padding, and the columns kw adds itself (namespace, labels, age).
    let line_bound = 8 * body.len() + 3 * (columns.len() + 8) + 512;
    let formats = [(OutputFormat::Table, "table"), (OutputFormat::Wide, "wide")];
    for (format, name) in formats {
        for fallback in [false, true] {
            let options = PrintOptions {
                format: format.clone(),
                all_namespaces: flags & 1 != 0,
                no_headers: flags & 2 != 0,
                show_labels: flags & 4 != 0,
                watch_events: flags & 8 != 0,
                sort_by: (flags & 16 != 0)
                    .then(|| SortBy::parse(SORT_PATHS[usize::from(flags) % SORT_PATHS.len()]))
                    .and_then(Result::ok),
                ..PrintOptions::default()
            };
            let mut printer = new_printer(&options);
            let mut out = Vec::new();
            let mut printed = 0;
            for (object, head, cells) in &rows {
                let event = Event {
                    kind: EventType::Added,
                    origin: Origin::List,
                    resource: &resource,
                    object,
                    object_lacks_type: true,
                    name: &head.metadata.name,
                    namespace: &head.metadata.namespace,
                    row: (!fallback).then_some(TableRow {
                        columns: &columns,
                        cells,
                        generation: 0,
                    }),
                    context: None,
                    judged: None,
                };
                if printer.print(&event, &mut out).is_ok() {
                    printed += 1;
                }
            }
            let _ = printer.checkpoint(&mut out);
            let _ = printer.finish(&Default::default(), &mut out);
            let what = format!("{name}, fallback {fallback}");
            assert_no_control(&out, &what);
            let lines = out.split(|&b| b == b'\n').filter(|l| !l.is_empty()).count();
            assert!(
                lines <= printed + 1,
                "{what}: {lines} lines for {printed} rows: {:?}",
                String::from_utf8_lossy(&out)
            );
            for line in out.split(|&b| b == b'\n') {
                assert!(
                    line.len() <= line_bound,
                    "{what}: a line of {} bytes",
                    line.len()
                );
            }
        }
    }

    // `-o custom-columns=SPEC` on each row's object.
    if spec.is_empty() {
        return;
    }
    let Ok(format @ OutputFormat::CustomColumns { .. }) =
        parse_output(&format!("custom-columns={spec}"))
    else {
        return;
    };
    let options = PrintOptions {
        format,
        no_headers: flags & 2 != 0,
        ..PrintOptions::default()
    };
    let mut printer = new_printer(&options);
    let mut out = Vec::new();
    let mut printed = 0;
    for (object, head, _) in &rows {
        let event = Event {
            kind: EventType::Added,
            origin: Origin::Watch,
            resource: &resource,
            object,
            object_lacks_type: true,
            name: &head.metadata.name,
            namespace: &head.metadata.namespace,
            row: None,
            context: None,
            judged: None,
        };
        if printer.print(&event, &mut out).is_ok() {
            printed += 1;
        }
    }
    let _ = printer.checkpoint(&mut out);
    let _ = printer.finish(&Default::default(), &mut out);
    // The header is the user's own text (a tab or a line break there is theirs: the oracle's
    // finding, `regressions/table/oracle-newline-in-custom-columns-header`); the rows are the
    // server's.
    // A form feed there breaks the line as a newline does: Go's tabwriter, which kubectl's
    // and kw's printers follow, ends a line at either (`oracle-formfeed-in-custom-columns-header`).
    let header_lines = 1 + spec.matches(['\n', '\x0c']).count();
    let body_lines: Vec<&[u8]> = out.split(|&b| b == b'\n').collect();
    assert_no_control(
        &body_lines
            .iter()
            .skip(header_lines)
            .flat_map(|l| l.iter().copied())
            .collect::<Vec<_>>(),
        "custom-columns",
    );
    let lines = body_lines.iter().filter(|l| !l.is_empty()).count();
    // A column's template may hold literal text of the user's, whose escapes (`{"b\nc"}`, Go's
    // string escapes) are line breaks of their own: only without a backslash in the spec are
    // the rows bound to a line each (`oracle-escaped-newline-in-custom-columns-literal`).
    assert!(
        spec.contains('\\') || lines <= printed + header_lines,
        "custom-columns: {lines} lines for {printed} rows: {:?}",
        String::from_utf8_lossy(&out)
    );
}

/// Target `diff`: two JSON objects (split at the first NUL) through `--diff` lines, brief and
/// all. An object against itself shows no change; a line carries no control byte, stays within
/// the terminal width it was given, and there are no more changes than leaves in the two.
pub fn diff(data: &[u8]) {
    use kw::output::printer::diff_lines::{describe_field, field_changes};
    use kw::output::printer::DiffDetail;

    let text = String::from_utf8_lossy(data);
    let (old, new) = text.split_once('\0').unwrap_or((&text, "{}"));
    let (Ok(old), Ok(new)) = (decode::value(old), decode::value(new)) else {
        return;
    };
    fn leaves(value: &Value) -> usize {
        match value {
            Value::Object(map) => map.values().map(leaves).sum::<usize>().max(1),
            Value::Array(items) => items.iter().map(leaves).sum::<usize>().max(1),
            _ => 1,
        }
    }
    for detail in [DiffDetail::Brief, DiffDetail::All] {
        for same in [&old, &new] {
            let changes = field_changes(same, same, detail);
            assert!(
                changes.is_empty(),
                "an object differs from itself: {changes:?}"
            );
        }
        let changes = field_changes(&old, &new, detail);
        assert!(changes.len() <= leaves(&old) + leaves(&new));
        // Every changed leaf is shown under `--diff=all`: two objects that differ in more than
        // empty parts (which `--diff` counts as absent) give a change. A `field_changes` that
        // finds nothing fails here.
        if detail == DiffDetail::All && changes.is_empty() {
            assert!(
                same_value(&pruned(&old), &pruned(&new)),
                "--diff=all found no change between different objects"
            );
        }
        for change in &changes {
            for width in [None, Some(0), Some(20), Some(80)] {
                let line = describe_field(change, width);
                assert_no_control(line.as_bytes(), "--diff");
                assert!(!line.contains('\n'), "a diff line broke: {line:?}");
                if let Some(width) = width {
                    let columns: usize = line
                        .chars()
                        .map(|c| unicode_width::UnicodeWidthChar::width(c).unwrap_or(0))
                        .sum();
                    assert!(
                        columns <= width.max(1),
                        "{columns} columns in {width}: {line:?}"
                    );
                }
            }
        }
    }
}

/// `value` without what `--diff` treats as absent: nulls, and objects and lists left empty.
fn pruned(value: &Value) -> Value {
    fn empty(value: &Value) -> bool {
        match value {
            Value::Null => true,
            Value::Object(map) => map.is_empty(),
            Value::Array(items) => items.is_empty(),
            _ => false,
        }
    }
    match value {
        Value::Object(map) => Value::Object(
            map.iter()
                .map(|(key, value)| (key.clone(), pruned(value)))
                .filter(|(_, value)| !empty(value))
                .collect(),
        ),
        Value::Array(items) => Value::Array(items.iter().map(pruned).collect()),
        other => other.clone(),
    }
}

/// Target `selectors`: kw does not parse label or field selectors (the server does); it puts
/// them, with names, namespaces and continue tokens, into request paths. Every such path decodes
/// back to exactly the values given, and adds no parameter of its own making. And the
/// `--until`/`--fail-on` EXPR grammar: an EXPR parsed and printed back parses to the same EXPR.
pub fn selectors(data: &[u8]) {
    let text = String::from_utf8_lossy(data);
    let mut parts = text.split('\0');
    let expr = parts.next().unwrap_or_default();
    for flag in ["--until", "--fail-on"] {
        if let Ok(parsed) = kw::wait::Expr::parse(flag, expr) {
            let printed = parsed.to_string();
            let again = kw::wait::Expr::parse(flag, &printed);
            assert_eq!(
                again.as_ref().ok(),
                Some(&parsed),
                "{flag} {expr:?} printed as {printed:?} reads as {again:?}"
            );
        }
    }
    let labels = parts.next();
    let fields = parts.next();
    let name = parts.next().filter(|n| !n.is_empty());
    let namespace = parts.next().filter(|n| !n.is_empty());
    let token = parts.next().unwrap_or("");
    let target = kw::watcher::Target {
        resource: fuzzed_resource(data.len() as u8),
        namespace: namespace.map(str::to_string),
        namespace_set: None,
        names: name.map(str::to_string).into_iter().collect(),
        label_selector: labels.map(str::to_string),
        field_selector: fields.map(str::to_string),
        include_object: data.first().is_some_and(|b| b & 1 != 0),
        subresource: None,
    };
    // Read back as the API server reads a field selector: terms split at commas a backslash
    // does not escape. The name must be one term, `metadata.name=` and the name exactly, and
    // the user's selector the rest, as given: a name holding `,` or `=` adds no term.
    let field_sent = |sent: Option<String>| -> Option<String> {
        let Some(name) = name else {
            return sent;
        };
        let sent = sent.expect("a named object is selected by its name");
        let value = sent
            .strip_prefix("metadata.name=")
            .expect("the name's term comes first");
        let (mut read, mut escaped, mut rest) = (String::new(), false, None);
        for (at, c) in value.char_indices() {
            match c {
                _ if escaped => {
                    read.push(c);
                    escaped = false;
                }
                '\\' => escaped = true,
                ',' => {
                    rest = Some(value[at + 1..].to_string());
                    break;
                }
                '=' => panic!("an unescaped = in the name's value: {sent:?}"),
                _ => read.push(c),
            }
        }
        assert_eq!(
            read, name,
            "the name's term reads back as another name: {sent:?}"
        );
        rest
    };
    for path in [
        target.list_path(500, Some(token)),
        target.watch_path(token, 300),
        target.streaming_list_path(token, 300),
    ] {
        assert!(path.is_ascii(), "a path that is not ASCII: {path:?}");
        let (route, query) = path.split_once('?').expect("every request has a query");
        assert!(!route.contains(['#', '%']) || namespace.is_some());
        let mut found: Vec<(String, String)> = Vec::new();
        for pair in query.split('&') {
            let (key, value) = pair.split_once('=').expect("key=value");
            found.push((key.to_string(), percent_decode(value)));
        }
        let get = |key: &str| {
            let values: Vec<&str> = found
                .iter()
                .filter(|(k, _)| k == key)
                .map(|(_, v)| v.as_str())
                .collect();
            assert!(values.len() <= 1, "{key} sent twice in {path}");
            values.first().map(|v| v.to_string())
        };
        assert_eq!(get("labelSelector").as_deref(), labels, "{path}");
        assert_eq!(
            field_sent(get("fieldSelector")).as_deref(),
            fields,
            "{path}"
        );
        if let Some(namespace) = target
            .namespace
            .as_deref()
            .filter(|_| target.resource.namespaced)
        {
            let segment = route
                .split('/')
                .skip_while(|s| *s != "namespaces")
                .nth(1)
                .expect("a namespaced path names its namespace");
            assert_eq!(percent_decode(segment), namespace);
        }
    }
}

/// The inverse of `kw::watcher::request::encode` (which encodes every byte but the unreserved).
fn percent_decode(text: &str) -> String {
    let bytes = text.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%' {
            let hex = text.get(i + 1..i + 3).expect("a full escape");
            out.push(u8::from_str_radix(hex, 16).expect("hex digits"));
            i += 3;
        } else {
            assert!(
                bytes[i].is_ascii_alphanumeric() || b"-_.~".contains(&bytes[i]),
                "a reserved byte sent unescaped: {text:?}"
            );
            out.push(bytes[i]);
            i += 1;
        }
    }
    String::from_utf8(out).expect("the text was UTF-8")
}

/// Target `exec_credential`: an exec plugin's stdout, as kw reads it for a v1 and a v1beta1
/// plugin. No panic; a credential accepted carries a non-empty token or a certificate and key;
/// a token accepted can go into an HTTP header; an `expirationTimestamp` kw cannot read is an
/// error, not a credential without expiry.
pub fn exec_credential(data: &[u8]) {
    use kw::config::auth::{parse_exec_output, parse_timestamp, ExecPlugin};
    use kw::config::kubeconfig::ExecConfig;

    for version in [
        "client.authentication.k8s.io/v1",
        "client.authentication.k8s.io/v1beta1",
    ] {
        let config = ExecConfig {
            api_version: Some(version.into()),
            command: "plugin".into(),
            interactive_mode: Some("Never".into()),
            ..ExecConfig::default()
        };
        let plugin = ExecPlugin::from_config(&config, "user \"fuzz\"", None, &Default::default())
            .expect("a plugin");
        let Ok(output) = parse_exec_output(&plugin, data) else {
            continue;
        };
        if let Some(token) = &output.token {
            assert!(!token.0.is_empty(), "an empty token accepted");
            assert!(
                kw::config::auth::check_token(&token.0, "fuzz").is_ok(),
                "a token that cannot be sent"
            );
        }
        if let Some((cert, key)) = &output.client_certificate {
            assert!(!cert.is_empty() && !key.0.is_empty());
        }
        assert!(output.token.is_some() || output.client_certificate.is_some());
        // The timestamp as the plugin wrote it: unreadable ones must have been refused. Read
        // through `from_utf8_lossy`: serde_json skips an ignored key without checking its UTF-8
        // (as Go's decoder would take it), where reading into a `Value` refuses it (the oracle's
        // finding, `regressions/exec_credential/oracle-invalid-utf8-in-ignored-key`).
        let written = serde_json::from_str::<Value>(&String::from_utf8_lossy(data))
            .ok()
            .and_then(|v| {
                v.pointer("/status/expirationTimestamp")
                    .and_then(Value::as_str)
                    .map(str::to_string)
            })
            .filter(|t| !t.is_empty());
        assert_eq!(output.expires.is_some(), written.is_some());
    }
    // The timestamp parser alone, on any text: no panic, and an instant it reads is RFC 3339
    // written back (seconds) that it reads as the same instant.
    let text = String::from_utf8_lossy(data);
    if let Some(time) = parse_timestamp(&text) {
        if let Ok(since) = time.duration_since(std::time::UNIX_EPOCH) {
            let whole = std::time::UNIX_EPOCH + std::time::Duration::from_secs(since.as_secs());
            let written = humantime::format_rfc3339_seconds(whole).to_string();
            assert_eq!(parse_timestamp(&written), Some(whole), "{written}");
        }
    }
}

/// RFC 1123 names, written again here as the oracle for what discovery lets into a path.
fn dns_label(name: &str) -> bool {
    let b = name.as_bytes();
    let edge = |c: &u8| c.is_ascii_lowercase() || c.is_ascii_digit();
    !b.is_empty()
        && b.len() <= 63
        && edge(&b[0])
        && edge(&b[b.len() - 1])
        && b.iter().all(|c| edge(c) || *c == b'-')
}

fn path_safe_version(gv: &kw::discovery::GroupVersion, core: bool) {
    let group_ok = if core {
        gv.group.is_empty()
    } else {
        gv.group.len() <= 253 && gv.group.split('.').all(dns_label)
    };
    assert!(group_ok && dns_label(&gv.version), "{gv:?}");
    for resource in &gv.resources {
        let name = &resource.name;
        let ok = match name.split_once('/') {
            Some((plural, sub)) => dns_label(plural) && dns_label(sub),
            None => dns_label(name),
        };
        assert!(ok, "resource {name:?} of {}/{}", gv.group, gv.version);
    }
}

/// Target `discovery`: a discovery body (`/api` or `/apis`, aggregated v2/v2beta1 or legacy, or
/// a legacy resource list) and the discovery cache file read back from disk. Every group,
/// version and resource name that comes out may go into a request path (RFC 1123, checked
/// here independently of `discovery::names`); the cache file written back from what was read
/// reads the same again.
pub fn discovery(data: &[u8]) {
    use kw::discovery::{checked, read_document, Document, GroupVersion, Half};

    for core in [true, false] {
        match read_document("/apis", data, core) {
            Ok(Document::Whole(half)) => {
                for gv in &half.versions {
                    path_safe_version(gv, core);
                }
            }
            Ok(Document::Asks(wanted)) => {
                for (group, version, _) in wanted {
                    path_safe_version(
                        &GroupVersion {
                            group,
                            version,
                            preferred: false,
                            resources: Vec::new(),
                        },
                        core,
                    );
                }
            }
            Err(_) => {}
        }
    }
    if let Ok(list) = serde_json::from_slice::<kw::wire::ApiResourceList>(data) {
        let half = Half {
            versions: vec![GroupVersion {
                group: "apps".into(),
                version: "v1".into(),
                preferred: true,
                resources: list.resources,
            }],
            stale: Vec::new(),
        };
        for gv in &checked(half, false).versions {
            path_safe_version(gv, false);
        }
    }

    // The cache file: what `get` answers goes into paths as it is.
    let cache = kw::discovery::cache::DiscoveryCache::from_file_bytes(data);
    let now = std::time::SystemTime::now();
    let typed: Vec<String> = serde_json::from_slice::<Value>(data)
        .ok()
        .and_then(|v| {
            v.get("entries")?
                .as_object()
                .map(|m| m.keys().cloned().collect())
        })
        .unwrap_or_default();
    let written = cache.file_bytes().expect("a cache file serializes");
    let again = kw::discovery::cache::DiscoveryCache::from_file_bytes(&written);
    assert_eq!(
        again.file_bytes().as_deref(),
        Some(written.as_slice()),
        "the cache file written back reads differently"
    );
    for name in typed.iter().take(64) {
        let Some(types) = cache.get(name, std::time::UNIX_EPOCH) else {
            continue;
        };
        assert_eq!(
            again.get(name, std::time::UNIX_EPOCH).as_ref(),
            Some(&types)
        );
        for info in types {
            assert!(dns_label(&info.plural), "cached plural {:?}", info.plural);
            assert!(
                dns_label(&info.version),
                "cached version {:?}",
                info.version
            );
            assert!(
                info.group.is_empty()
                    || info.group.len() <= 253 && info.group.split('.').all(dns_label),
                "cached group {:?}",
                info.group
            );
        }
    }
    let _ = cache.get("pods", now);
    let _ = cache.answer::<Value>(now);
}

/// The loopback proxy of `proxy_reply`: its port, the reply it gives the next CONNECT, how many
/// CONNECTs it has answered and the head of the last one.
struct ReplyProxy {
    port: u16,
    reply: std::sync::Mutex<Vec<u8>>,
    answered: std::sync::atomic::AtomicUsize,
    last_request: std::sync::Mutex<Vec<u8>>,
}

/// Locks `mutex` even after a check panicked holding it (the replay catches panics).
fn lock<T>(mutex: &std::sync::Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    mutex
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
}

/// Started once: a thread answering each connection, one at a time, with the current reply. It
/// reads the CONNECT head (bounded), counts it, writes the reply and closes its side, then
/// reads what the client still sends (its TLS hello after a `200`) until the client closes, so
/// the client reads the whole reply instead of a reset.
fn reply_proxy() -> &'static ReplyProxy {
    use std::io::Write;
    use std::net::{Shutdown, TcpListener};
    use std::sync::atomic::Ordering;
    use std::time::Duration;

    static PROXY: std::sync::OnceLock<&'static ReplyProxy> = std::sync::OnceLock::new();
    PROXY.get_or_init(|| {
        let listener = TcpListener::bind("127.0.0.1:0").expect("a loopback port");
        let proxy: &'static ReplyProxy = Box::leak(Box::new(ReplyProxy {
            port: listener.local_addr().expect("its address").port(),
            reply: std::sync::Mutex::new(Vec::new()),
            answered: std::sync::atomic::AtomicUsize::new(0),
            last_request: std::sync::Mutex::new(Vec::new()),
        }));
        std::thread::spawn(move || {
            for stream in listener.incoming() {
                let Ok(mut stream) = stream else { continue };
                let _ = stream.set_read_timeout(Some(Duration::from_secs(2)));
                let _ = stream.set_write_timeout(Some(Duration::from_secs(2)));
                let mut head = Vec::new();
                let mut piece = [0u8; 1024];
                while head.len() < 16 * 1024 && !head.windows(4).any(|w| w == b"\r\n\r\n") {
                    match stream.read(&mut piece) {
                        Ok(0) | Err(_) => break,
                        Ok(read) => head.extend_from_slice(&piece[..read]),
                    }
                }
                *lock(&proxy.last_request) = head;
                let reply = lock(&proxy.reply).clone();
                // Counted before the reply is written: the client cannot return before it.
                proxy.answered.fetch_add(1, Ordering::SeqCst);
                let _ = stream.write_all(&reply);
                let _ = stream.shutdown(Shutdown::Write);
                let mut drained = 0usize;
                while drained < 1 << 20 {
                    match stream.read(&mut piece) {
                        Ok(0) | Err(_) => break,
                        Ok(read) => drained += read,
                    }
                }
            }
        });
        proxy
    })
}

/// The user and password of `proxy_reply`'s second proxy URL.
pub const PROXY_USER: &str = "fuzzuser";
pub const PROXY_PASSWORD: &str = "S3cret-PW-7f3a";

/// `PROXY_USER:PROXY_PASSWORD` as `Proxy-Authorization: Basic` carries it.
fn proxy_basic() -> String {
    const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let plain = format!("{PROXY_USER}:{PROXY_PASSWORD}");
    let mut out = String::new();
    for chunk in plain.as_bytes().chunks(3) {
        let n = chunk
            .iter()
            .enumerate()
            .fold(0u32, |n, (i, &b)| n | u32::from(b) << (16 - 8 * i));
        for i in 0..4 {
            if i <= chunk.len() {
                out.push(ALPHABET[(n >> (18 - 6 * i) & 63) as usize] as char);
            } else {
                out.push('=');
            }
        }
    }
    out
}

/// Whether `text` (an error kw wrote) shows the proxy's password, raw or Basic-encoded, that
/// the proxy's `reply` did not itself hold (a proxy may echo what it was sent; the fuzzer may
/// write the password into a reply).
pub fn leaks_proxy_secret(text: &str, reply: &[u8]) -> bool {
    let basic = proxy_basic();
    [PROXY_PASSWORD, basic.as_str()].iter().any(|secret| {
        text.contains(secret) && !reply.windows(secret.len()).any(|w| w == secret.as_bytes())
    })
}

/// The clients of `proxy_reply`: kw's own, built from a kubeconfig through kw's settings, for a
/// server on TEST-NET-1 (never reached: every connection goes to the proxy) with a 1 s request
/// timeout; the second's proxy URL carries a user and password.
fn reply_client(port: u16, with_password: bool) -> &'static kw::client::Client {
    static CLIENTS: [std::sync::OnceLock<kw::client::Client>; 2] =
        [std::sync::OnceLock::new(), std::sync::OnceLock::new()];
    CLIENTS[usize::from(with_password)].get_or_init(|| {
        let user = if with_password {
            format!("{PROXY_USER}:{PROXY_PASSWORD}@")
        } else {
            String::new()
        };
        let text = format!(
            "apiVersion: v1\nkind: Config\nclusters:\n- name: c\n  cluster:\n    \
             server: https://192.0.2.1:6443\n    proxy-url: http://{user}127.0.0.1:{port}\n\
             users:\n- name: u\n  user:\n    token: fuzz\n\
             contexts:\n- name: x\n  context:\n    cluster: c\n    user: u\n\
             current-context: x\n"
        );
        let config = kw::config::kubeconfig::parse(&text, std::path::Path::new("proxy-reply"))
            .expect("the kubeconfig reads");
        let flags = kw::config::flags::ConfigFlags {
            request_timeout: Some("1s".to_string()),
            ..Default::default()
        };
        let settings =
            kw::config::settings::resolve(&flags, None, &config).expect("the settings resolve");
        kw::client::Client::new(&settings.connection, std::time::Duration::from_secs(1))
            .expect("the client builds")
    })
}

/// The status code of a reply's status line, read leniently (empty lines before it skipped):
/// `HTTP/1.x` and three digits.
fn reply_status(reply: &[u8]) -> Option<u16> {
    let start = reply.iter().position(|b| !matches!(b, b'\r' | b'\n'))?;
    let line = reply[start..].strip_prefix(b"HTTP/1.")?;
    let code = line.get(2..5)?;
    if !matches!(line.get(1), Some(b' ')) || !code.iter().all(u8::is_ascii_digit) {
        return None;
    }
    std::str::from_utf8(code).ok()?.parse().ok()
}

/// Target `proxy_reply`: the bytes an `http://` proxy answers CONNECT with, fed to kw's client
/// over a loopback socket (the proxy closes after writing them). One GET must return an error,
/// in bounded time, with no terminal control in its message. A reply whose status line does
/// not say `200` is the proxy's fault, and the error names the proxy; after a `200`, the bytes
/// that follow are the server's TLS through the tunnel (rustls reads them), and fail too.
/// Every other input goes through a proxy URL with a user and password (`PROXY_USER`,
/// `PROXY_PASSWORD`): they go to the proxy (`Proxy-Authorization` on the CONNECT), and neither
/// the password nor its Basic encoding is in the error's text or its `Debug` (what `-v` logs)
/// unless the proxy's own reply held it (`leaks_proxy_secret`).
pub fn proxy_reply(data: &[u8]) {
    use std::sync::atomic::Ordering;
    use std::time::{Duration, Instant};

    // One input at a time through the one proxy.
    static TURN: std::sync::Mutex<()> = std::sync::Mutex::new(());
    let _turn = lock(&TURN);
    let proxy = reply_proxy();
    let with_password = data.len() % 2 == 1;
    let client = reply_client(proxy.port, with_password);
    *lock(&proxy.reply) = data.to_vec();
    let answered = proxy.answered.load(Ordering::SeqCst);
    let started = Instant::now();
    let result = client.get("/version", "application/json");
    let took = started.elapsed();
    assert!(took < Duration::from_secs(10), "the request took {took:?}");
    let error = match result {
        Ok(body) => panic!("a request through a fuzzed proxy succeeded: {body:?}"),
        Err(error) => error,
    };
    assert_eq!(
        proxy.answered.load(Ordering::SeqCst) - answered,
        1,
        "the request did not go through the proxy once"
    );
    let request = lock(&proxy.last_request).clone();
    assert!(
        request.starts_with(b"CONNECT 192.0.2.1:6443 HTTP/1.1\r\n"),
        "the proxy was asked {:?}",
        String::from_utf8_lossy(&request)
    );
    let message = error.to_string();
    assert!(
        !message.chars().any(char::is_control),
        "a control character in {message:?}"
    );
    if with_password {
        let basic = format!("Proxy-Authorization: Basic {}\r\n", proxy_basic());
        assert!(
            String::from_utf8_lossy(&request).contains(&basic),
            "the proxy was not given the URL's credentials: {:?}",
            String::from_utf8_lossy(&request)
        );
        for text in [&message, &format!("{error:?}")] {
            assert!(
                !leaks_proxy_secret(text, data),
                "the proxy's password is in {text:?}"
            );
        }
    }
    if reply_status(data) != Some(200) {
        let user = if with_password { "<redacted>@" } else { "" };
        let named = format!("the proxy http://{user}127.0.0.1:{} ", proxy.port);
        assert!(
            matches!(error, kw::client::ClientError::Unreachable { .. })
                && message.contains(&named),
            "a reply that is not 200 was not blamed on the proxy: {message}"
        );
    }
}

/// How a `rollout status` run writes one judged event to stdout (kw's printer, or a seeded
/// bug's).
pub type RolloutPrint<'p> =
    dyn FnMut(&kw::events::Event<'_>, kw::readiness::Judgement, &mut Vec<u8>) + 'p;

/// kw's `rollout status` printer, fed the event with the judgement the run's judge puts on it.
pub fn kw_rollout_printer(
) -> impl FnMut(&kw::events::Event<'_>, kw::readiness::Judgement, &mut Vec<u8>) {
    use kw::output::printer::Printer;
    let mut printer = kw::output::printer::RolloutStatusPrinter::default();
    move |event, judgement, out| {
        let note = kw::events::JudgeNote {
            prints: 0,
            judgement: Some(&judgement),
        };
        let judged = kw::events::Event {
            judged: Some(note),
            ..*event
        };
        printer.print(&judged, out).expect("a Vec takes it");
    }
}

/// Target `rollout_lines`: `rollout status`'s stdout for arbitrary objects of one name. The
/// first byte picks the kind (the three kubectl has viewers for, a Job, a Pod, a custom
/// resource), the second whether a context labels the lines; then the name, the context and up
/// to eight objects, split at NULs. Each object is judged as the run judges it (kubectl's
/// viewers) and printed: every event writes nothing or exactly one line, with no terminal
/// control in it, and that line is, byte for byte, the escaper written again
/// (`reference_escape`) applied to what kubectl's line says (the viewer's message, or kw's
/// `kind/name: judgement` for kinds without a viewer, once per change), after the escaped
/// context. It is written when it is due: kubectl's viewers on every event but a failure,
/// kw's on a change, nothing after the rollout was said to be done. A failure's stderr line is
/// one line with no control either.
pub fn rollout_lines(data: &[u8]) {
    rollout_lines_with(data, &mut kw_rollout_printer());
}

pub fn rollout_lines_with(data: &[u8], print: &mut RolloutPrint<'_>) {
    use kw::readiness::{Judgement, State};
    let [choice, labelled, rest @ ..] = data else {
        return;
    };
    let (kind, group) = match choice % 6 {
        0 => ("Deployment", "apps"),
        1 => ("DaemonSet", "apps"),
        2 => ("StatefulSet", "apps"),
        3 => ("Job", "batch"),
        4 => ("Pod", ""),
        _ => ("Widget", "example.com"),
    };
    let mut parts = rest.split(|&b| b == 0);
    let name = String::from_utf8_lossy(parts.next().unwrap_or_default()).into_owned();
    let context = String::from_utf8_lossy(parts.next().unwrap_or_default()).into_owned();
    let context = (labelled % 2 == 1).then_some(context.as_str());
    let resource = kw::events::ResourceInfo {
        plural: format!("{}s", kind.to_lowercase()),
        singular: kind.to_lowercase(),
        kind: kind.into(),
        group: group.into(),
        version: "v1".into(),
        namespaced: true,
    };
    let viewer = kw::readiness::status_viewer::has_viewer(group, kind);
    let label = format!("{}/{name}", kw::events::kind_prefix(kind, group));
    let now = std::time::SystemTime::UNIX_EPOCH + std::time::Duration::from_secs(1_767_268_800);
    let mut said: Option<Judgement> = None;
    let mut done = false;
    for part in parts.take(8) {
        let Ok(text) = std::str::from_utf8(part) else {
            continue;
        };
        let Ok(object) = serde_json::from_str::<Value>(text) else {
            continue;
        };
        if !object.is_object() {
            continue;
        }
        let judgement = kw::readiness::status_viewer::Readiness::Kubectl { revision: 0 }
            .judge(group, kind, &object, now);
        if judgement.state == State::Failed {
            let stderr = kw::log::clean(&judgement.message);
            assert!(
                !stderr.chars().any(|c| c.is_control() && c != '\t'),
                "a control in the failure's line {stderr:?}"
            );
        }
        let raw = serde_json::value::RawValue::from_string(object.to_string())
            .expect("serde_json's own text");
        let event = kw::events::Event {
            kind: kw::wire::EventType::Modified,
            origin: kw::events::Origin::Watch,
            resource: &resource,
            object: &raw,
            object_lacks_type: false,
            name: &name,
            namespace: "default",
            row: None,
            context,
            judged: None,
        };
        let mut out = Vec::new();
        print(&event, judgement.clone(), &mut out);
        let due = !done
            && if viewer {
                judgement.state != State::Failed
            } else {
                said.as_ref() != Some(&judgement)
            };
        if !due {
            assert!(
                out.is_empty(),
                "a line that was not due: {:?}",
                String::from_utf8_lossy(&out)
            );
            continue;
        }
        let said_text = if viewer {
            judgement.message.trim_end_matches('\n').to_string()
        } else {
            format!("{label}: {judgement}")
        };
        let mut expected = String::new();
        if let Some(context) = context {
            expected.push_str(&reference_escape(context, true));
            expected.push_str(": ");
        }
        expected.push_str(&reference_escape(&said_text, true));
        expected.push('\n');
        assert_eq!(
            String::from_utf8_lossy(&out),
            expected,
            "the line is not the escaped judgement"
        );
        assert!(
            !(0..out.len()).any(|index| is_control(&out, index)),
            "a control in the line"
        );
        assert_eq!(
            out.iter().filter(|&&b| b == b'\n').count(),
            1,
            "not one line"
        );
        done |= judgement.state == State::Ready;
        if !viewer {
            said = Some(judgement);
        }
    }
}

/// A Go interpreted string literal read back, written from the Go spec ("String literals"):
/// `\a \b \f \n \r \t \v \\ \"`, `\xHH` and `\ooo` (bytes), `\uHHHH` and `\UHHHHHHHH` (runes,
/// UTF-8 encoded; never a surrogate nor past U+10FFFF). It also refuses an escape Go's
/// `strconv.Quote` would not have written for that rune (its `appendEscapedRune`: the named
/// ones where there is one, `\xHH` below U+0020 and for DEL, else `\u` up to U+FFFF and `\U`
/// above, in lowercase hex; `\xHH` of 0x80 and up for a byte of invalid UTF-8), and a raw
/// control, `"` or `\`.
pub fn unquote_go(quoted: &str) -> Result<Vec<u8>, String> {
    let inner = quoted
        .strip_prefix('"')
        .and_then(|q| q.strip_suffix('"'))
        .ok_or("not in double quotes")?;
    let mut out = Vec::new();
    let mut chars = inner.chars();
    let hex = |chars: &mut std::str::Chars<'_>, n: usize| -> Result<u32, String> {
        let digits: String = chars.by_ref().take(n).collect();
        if digits.len() != n
            || !digits
                .chars()
                .all(|c| c.is_ascii_digit() || ('a'..='f').contains(&c))
        {
            return Err(format!("{n} lowercase hex digits wanted, got {digits:?}"));
        }
        u32::from_str_radix(&digits, 16).map_err(|e| e.to_string())
    };
    while let Some(c) = chars.next() {
        if c != '\\' {
            if c == '"' || c.is_control() {
                return Err(format!("{c:?} raw"));
            }
            let mut buf = [0; 4];
            out.extend_from_slice(c.encode_utf8(&mut buf).as_bytes());
            continue;
        }
        let escape = chars.next().ok_or("a lone backslash at the end")?;
        let named = match escape {
            'a' => Some(0x07),
            'b' => Some(0x08),
            'f' => Some(0x0c),
            'n' => Some(b'\n'),
            'r' => Some(b'\r'),
            't' => Some(b'\t'),
            'v' => Some(0x0b),
            '\\' => Some(b'\\'),
            '"' => Some(b'"'),
            _ => None,
        };
        if let Some(byte) = named {
            out.push(byte);
            continue;
        }
        let rune = match escape {
            'x' => {
                let byte = hex(&mut chars, 2)?;
                let named = [0x07, 0x08, 0x0c, 0x0a, 0x0d, 0x09, 0x0b].contains(&byte);
                if byte < 0x80 && (named || (0x20..0x7f).contains(&byte)) {
                    return Err(format!("\\x{byte:02x} where Go writes it otherwise"));
                }
                out.push(byte as u8);
                continue;
            }
            'u' => {
                let rune = hex(&mut chars, 4)?;
                if rune < 0x80 {
                    return Err(format!("\\u{rune:04x} where Go writes \\x or a name"));
                }
                rune
            }
            'U' => {
                let rune = hex(&mut chars, 8)?;
                if rune < 0x10000 {
                    return Err(format!("\\U{rune:08x} where Go writes \\u"));
                }
                rune
            }
            '0'..='7' => return Err("an octal escape, which Quote never writes".into()),
            other => return Err(format!("\\{other} is no escape")),
        };
        let c = char::from_u32(rune).ok_or(format!("{rune:x} is no rune"))?;
        let mut buf = [0; 4];
        out.extend_from_slice(c.encode_utf8(&mut buf).as_bytes());
    }
    Ok(out)
}

/// Characters Go's `strconv.IsPrint` rejects whatever the Unicode version: controls, spaces
/// other than U+0020, the format characters a line can be reordered or hidden with, private
/// use. (The full rule, L M N P S, needs Unicode's tables; this list needs none.)
fn never_printable(c: char) -> bool {
    c.is_control()
        || (c.is_whitespace() && c != ' ')
        || matches!(c,
            '\u{ad}' | '\u{61c}' | '\u{180e}' | '\u{200b}'..='\u{200f}' | '\u{202a}'..='\u{202e}'
            | '\u{2060}'..='\u{2064}' | '\u{2066}'..='\u{206f}' | '\u{feff}'
            | '\u{fff9}'..='\u{fffb}' | '\u{e000}'..='\u{f8ff}' | '\u{f0000}'..)
}

/// Target `go_quote`: Go's `%q` (`strconv.Quote`), which kw's `rollout status` lines and
/// templates use, on any bytes. A differential oracle against `unquote_go`, written from Go's
/// spec: the quoted text reads back as the bytes given, with only the escapes Go writes; no
/// character Go never prints (`never_printable`) and no control is raw in it; letters and
/// digits (`char::is_alphanumeric`, all printable to Go) and printable ASCII stay as they are.
pub fn go_quote(data: &[u8]) {
    go_quote_with(data, kw::goformat::quote::quote_bytes)
}

pub fn go_quote_with(data: &[u8], quote: fn(&[u8]) -> String) {
    let quoted = quote(data);
    match unquote_go(&quoted) {
        Ok(back) => assert_eq!(back, data, "{quoted} does not read back as the input"),
        Err(why) => panic!("{quoted} is not what Go's Quote writes: {why}"),
    }
    let inner = &quoted[1..quoted.len() - 1];
    if let Some(c) = inner.chars().find(|&c| never_printable(c)) {
        panic!("{quoted} holds {c:?} raw");
    }
    // What must stay raw: read the input's valid runs, each char raw or escaped in turn.
    let expected_raw: String = data
        .utf8_chunks()
        .flat_map(|chunk| chunk.valid().chars())
        .filter(|&c| (c.is_alphanumeric() || (' '..='~').contains(&c)) && c != '"' && c != '\\')
        .collect();
    let mut raw = String::new();
    let mut chars = inner.chars();
    while let Some(c) = chars.next() {
        if c != '\\' {
            raw.push(c);
            continue;
        }
        let skip = match chars.next() {
            Some('x') => 2,
            Some('u') => 4,
            Some('U') => 8,
            _ => 0,
        };
        chars.by_ref().take(skip).for_each(drop);
    }
    let raw: String = raw
        .chars()
        .filter(|&c| c.is_alphanumeric() || (' '..='~').contains(&c))
        .collect();
    assert_eq!(
        raw, expected_raw,
        "{quoted} escapes a letter, digit or printable ASCII character"
    );
}
