//! A JSON encoder that writes bytes exactly as Go's `encoding/json` does for a value decoded the
//! way `unstructured` decodes it (`map[string]interface{}`, int64, float64, string, bool, nil).
//!
//! kubectl's `-o json` is `json.MarshalIndent(obj, "", "    ")` and `--output-watch-events` is
//! `json.Marshal`; users diff and grep that output, so kw reproduces it byte for byte: keys sorted
//! in byte order, HTML-safe string escaping, Go's float formatting. This module only encodes; it
//! does not decide what to print (see `json.rs`).

use serde_json::{Map, Number, Value};

/// One level of `MarshalIndent(.., "", "    ")`.
const INDENT: &[u8] = b"    ";

/// `json.Marshal`: compact, no trailing newline.
pub fn write_compact(out: &mut Vec<u8>, value: &Value) {
    match value {
        Value::Null => out.extend_from_slice(b"null"),
        Value::Bool(true) => out.extend_from_slice(b"true"),
        Value::Bool(false) => out.extend_from_slice(b"false"),
        Value::Number(number) => write_number(out, number),
        Value::String(text) => write_string(out, text),
        Value::Array(items) => {
            out.push(b'[');
            for (index, item) in items.iter().enumerate() {
                if index > 0 {
                    out.push(b',');
                }
                write_compact(out, item);
            }
            out.push(b']');
        }
        Value::Object(map) => {
            out.push(b'{');
            let mut first = true;
            for_each_sorted(map, |key, item| {
                if !first {
                    out.push(b',');
                }
                first = false;
                write_string(out, key);
                out.push(b':');
                write_compact(out, item);
            });
            out.push(b'}');
        }
    }
}

/// `json.MarshalIndent(value, "", "    ")` for a value that sits `depth` levels deep: nested
/// lines are indented by `depth + 1` levels and the closing bracket by `depth` levels. The first
/// line is not indented (the caller has positioned it). No trailing newline.
pub fn write_indented(out: &mut Vec<u8>, value: &Value, depth: usize) {
    match value {
        Value::Array(items) if !items.is_empty() => {
            out.push(b'[');
            for (index, item) in items.iter().enumerate() {
                if index > 0 {
                    out.push(b',');
                }
                write_newline_indent(out, depth + 1);
                write_indented(out, item, depth + 1);
            }
            write_newline_indent(out, depth);
            out.push(b']');
        }
        Value::Object(map) if !map.is_empty() => {
            out.push(b'{');
            let mut first = true;
            for_each_sorted(map, |key, item| {
                if !first {
                    out.push(b',');
                }
                first = false;
                write_newline_indent(out, depth + 1);
                write_string(out, key);
                out.extend_from_slice(b": ");
                write_indented(out, item, depth + 1);
            });
            write_newline_indent(out, depth);
            out.push(b'}');
        }
        // Scalars and empty containers (`{}`, `[]`) look the same compact or indented.
        other => write_compact(out, other),
    }
}

/// A newline followed by `depth` indentation levels.
pub fn write_newline_indent(out: &mut Vec<u8>, depth: usize) {
    out.push(b'\n');
    // One copy for the usual depths rather than one per level.
    const SPACES: &[u8] = &[b' '; 64];
    match SPACES.get(..depth * INDENT.len()) {
        Some(spaces) => out.extend_from_slice(spaces),
        None => {
            for _ in 0..depth {
                out.extend_from_slice(INDENT);
            }
        }
    }
}

/// Visit an object's members in byte order of their keys, as Go sorts map keys. serde_json's map
/// is already sorted unless some crate in the build turns on `preserve_order`; check rather than
/// trust, and sort only when needed.
fn for_each_sorted<'a>(map: &'a Map<String, Value>, mut visit: impl FnMut(&'a str, &'a Value)) {
    let already_sorted = map
        .keys()
        .zip(map.keys().skip(1))
        .all(|(a, b)| a.as_bytes() < b.as_bytes());
    if already_sorted {
        for (key, item) in map {
            visit(key, item);
        }
    } else {
        let mut members: Vec<(&'a String, &'a Value)> = map.iter().collect();
        members.sort_by(|a, b| a.0.as_bytes().cmp(b.0.as_bytes()));
        for (key, item) in members {
            visit(key, item);
        }
    }
}

/// A JSON string as Go's encoder writes it with HTML escaping on (the default of `json.Marshal`
/// and of the `Encoder` that `unstructured` uses): `<`, `>`, `&`, U+2028 and U+2029 become
/// `\u....`; `\b \f \n \r \t` use their short forms (Go 1.22+); other control characters become
/// `\u00xx` with lower-case hex.
pub fn write_string(out: &mut Vec<u8>, text: &str) {
    const HEX: &[u8; 16] = b"0123456789abcdef";
    out.push(b'"');
    let bytes = text.as_bytes();
    let mut start = 0;
    let mut index = 0;
    while index < bytes.len() {
        // Most bytes need nothing: one table lookup each (this loop is hot in `-o json`).
        let byte = bytes[index];
        if !SPECIAL[usize::from(byte)] {
            index += 1;
            continue;
        }
        if byte == 0xe2 {
            // U+2028 and U+2029 are E2 80 A8 / E2 80 A9 in UTF-8; other E2 sequences pass.
            if bytes.get(index + 1) == Some(&0x80)
                && matches!(bytes.get(index + 2), Some(0xa8) | Some(0xa9))
            {
                out.extend_from_slice(&bytes[start..index]);
                out.extend_from_slice(b"\\u202");
                out.push(if bytes[index + 2] == 0xa8 { b'8' } else { b'9' });
                index += 3;
                start = index;
            } else {
                index += 1;
            }
            continue;
        }
        out.extend_from_slice(&bytes[start..index]);
        let short: Option<&[u8]> = match byte {
            b'"' => Some(b"\\\""),
            b'\\' => Some(b"\\\\"),
            0x08 => Some(b"\\b"),
            0x0c => Some(b"\\f"),
            b'\n' => Some(b"\\n"),
            b'\r' => Some(b"\\r"),
            b'\t' => Some(b"\\t"),
            _ => None,
        };
        match short {
            Some(escape) => out.extend_from_slice(escape),
            None => {
                out.extend_from_slice(b"\\u00");
                out.push(HEX[usize::from(byte >> 4)]);
                out.push(HEX[usize::from(byte & 0x0f)]);
            }
        }
        index += 1;
        start = index;
    }
    out.extend_from_slice(&bytes[start..]);
    out.push(b'"');
}

/// Bytes `write_string` must look at: control characters, `"`, backslash, `<`, `>`, `&`, 0xE2
/// (the lead byte of U+2028/U+2029).
const SPECIAL: [bool; 256] = {
    let mut table = [false; 256];
    let mut byte = 0;
    while byte < 0x20 {
        table[byte] = true;
        byte += 1;
    }
    table[b'"' as usize] = true;
    table[b'\\' as usize] = true;
    table[b'<' as usize] = true;
    table[b'>' as usize] = true;
    table[b'&' as usize] = true;
    table[0xe2] = true;
    table
};

/// A number as Go prints it after `unstructured` decoding: integers that fit int64 stay integers,
/// everything else is a float64. Known gap: serde_json reads the literal `-0` as the float -0.0,
/// so it prints `-0` where Go (which parses it as int64 0) prints `0`.
pub fn write_number(out: &mut Vec<u8>, number: &Number) {
    if let Some(integer) = number.as_i64() {
        out.extend_from_slice(integer.to_string().as_bytes());
    } else if let Some(unsigned) = number.as_u64() {
        // Above i64::MAX: Go's decoder falls back to float64.
        write_json_float(out, unsigned as f64);
    } else if let Some(float) = number.as_f64() {
        write_json_float(out, float);
    } else {
        // Only reachable with serde_json's arbitrary_precision: keep the text.
        out.extend_from_slice(number.to_string().as_bytes());
    }
}

/// `encoding/json`'s float encoder: shortest round-trip digits, fixed notation for
/// 1e-6 <= |f| < 1e21, otherwise exponent notation with the exponent's sign and without a padding
/// zero (`1e+21`, `1e-7`).
pub fn write_json_float(out: &mut Vec<u8>, float: f64) {
    let magnitude = float.abs();
    if magnitude == 0.0 || (1e-6..1e21).contains(&magnitude) {
        // Rust's `Display` is the shortest round-trip form in fixed notation, as Go's 'f', -1.
        out.extend_from_slice(float.to_string().as_bytes());
        return;
    }
    let (mantissa, exponent) = shortest_exponent_form(float);
    out.extend_from_slice(mantissa.as_bytes());
    out.push(b'e');
    if exponent < 0 {
        out.push(b'-');
    } else {
        out.push(b'+');
    }
    out.extend_from_slice(exponent.unsigned_abs().to_string().as_bytes());
}

/// The shortest round-trip digits of `float` as `d.ddd` and its decimal exponent.
pub fn shortest_exponent_form(float: f64) -> (String, i32) {
    let text = format!("{float:e}");
    match text.split_once('e') {
        Some((mantissa, exponent)) => (mantissa.to_string(), exponent.parse().unwrap_or(0)),
        None => (text, 0),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn compact(json: &str) -> String {
        let value: Value = serde_json::from_str(json).unwrap();
        let mut out = Vec::new();
        write_compact(&mut out, &value);
        String::from_utf8(out).unwrap()
    }

    fn indented(json: &str) -> String {
        let value: Value = serde_json::from_str(json).unwrap();
        let mut out = Vec::new();
        write_indented(&mut out, &value, 0);
        String::from_utf8(out).unwrap()
    }

    fn float(value: f64) -> String {
        let mut out = Vec::new();
        write_json_float(&mut out, value);
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn keys_are_sorted_in_byte_order() {
        assert_eq!(
            compact(r#"{"b":1,"a":2,"B":3,"_":4,"aa":5}"#),
            r#"{"B":3,"_":4,"a":2,"aa":5,"b":1}"#
        );
    }

    #[test]
    fn html_and_line_separators_are_escaped() {
        assert_eq!(
            compact(r#""<a href=\"x\">&</a>""#),
            r#""\u003ca href=\"x\"\u003e\u0026\u003c/a\u003e""#
        );
        assert_eq!(compact("\"a\u{2028}b\u{2029}c\""), r#""a\u2028b\u2029c""#);
    }

    #[test]
    fn control_characters_use_short_forms_where_go_does() {
        assert_eq!(
            compact(r#""\b\f\n\r\t\u0001\u001f\u007f""#),
            "\"\\b\\f\\n\\r\\t\\u0001\\u001f\u{7f}\""
        );
        assert_eq!(compact(r#""back\\slash \"q\"""#), r#""back\\slash \"q\"""#);
    }

    #[test]
    fn non_ascii_passes_through() {
        assert_eq!(compact(r#""héllo 世界 🚀""#), "\"héllo 世界 🚀\"");
        assert_eq!(compact(r#""\u00e9""#), "\"é\"");
    }

    #[test]
    fn integers_that_fit_int64_stay_integers() {
        assert_eq!(
            compact("[0,-1,9223372036854775807,-9223372036854775808]"),
            "[0,-1,9223372036854775807,-9223372036854775808]"
        );
        // Above int64: Go decodes a float64.
        assert_eq!(compact("18446744073709551615"), "18446744073709552000");
        assert_eq!(compact("100000000000000000000000"), "1e+23");
    }

    #[test]
    fn floats_follow_encoding_json() {
        assert_eq!(compact("1.0"), "1");
        assert_eq!(compact("1.5"), "1.5");
        assert_eq!(compact("-0.0"), "-0");
        assert_eq!(compact("1e3"), "1000");
        assert_eq!(float(1e21), "1e+21");
        assert_eq!(float(1e20), "100000000000000000000");
        assert_eq!(float(0.000001), "0.000001");
        assert_eq!(float(0.0000001), "1e-7");
        assert_eq!(float(1.5e-10), "1.5e-10");
        assert_eq!(float(-2.5e300), "-2.5e+300");
        assert_eq!(float(0.1), "0.1");
        assert_eq!(float(123456789.125), "123456789.125");
    }

    #[test]
    fn indentation_matches_marshal_indent() {
        let json = r#"{"metadata":{"name":"x","labels":{}},"items":[],"spec":{"ports":[{"port":80},1,"a",null,true]}}"#;
        let expected = r#"{
    "items": [],
    "metadata": {
        "labels": {},
        "name": "x"
    },
    "spec": {
        "ports": [
            {
                "port": 80
            },
            1,
            "a",
            null,
            true
        ]
    }
}"#;
        assert_eq!(indented(json), expected);
    }

    #[test]
    fn empty_containers_and_scalars_at_top_level() {
        assert_eq!(indented("{}"), "{}");
        assert_eq!(indented("[]"), "[]");
        assert_eq!(indented("\"s\""), "\"s\"");
        assert_eq!(compact(r#"{"a":[],"b":{}}"#), r#"{"a":[],"b":{}}"#);
    }

    #[test]
    fn indentation_at_depth_indents_nested_lines_only() {
        let value: Value = serde_json::from_str(r#"{"a":1}"#).unwrap();
        let mut out = Vec::new();
        write_indented(&mut out, &value, 2);
        assert_eq!(
            String::from_utf8(out).unwrap(),
            "{\n            \"a\": 1\n        }"
        );
    }
}

/// The fixtures are real `kubectl get -o json` output (some saved with CRLF, some from a tool that
/// indented by two spaces): re-encoding them must give the same bytes up to line endings and the
/// indentation width.
#[cfg(test)]
mod fixture_tests {
    use super::*;

    const HAND_EDITED: &[&str] = &["ep.json", "eps.json", "ing.json", "po_init.json"];

    fn reindent(text: &str, unit: usize) -> String {
        text.lines()
            .map(|line| {
                let spaces = line.len() - line.trim_start_matches(' ').len();
                format!("{}{}", " ".repeat(spaces / 4 * unit), &line[spaces..])
            })
            .collect::<Vec<_>>()
            .join("\n")
    }

    #[test]
    fn real_kubectl_output_round_trips() {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../kw-sim/src/fixtures");
        let mut checked = 0;
        for entry in std::fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            if path.extension().and_then(|e| e.to_str()) != Some("json") {
                continue;
            }
            // Hand-edited by their upstream (unsorted keys, mixed indentation): not kubectl's bytes.
            let name = path
                .file_name()
                .and_then(|n| n.to_str())
                .unwrap_or_default();
            if HAND_EDITED.contains(&name) {
                continue;
            }
            let original = std::fs::read_to_string(&path)
                .unwrap()
                .replace("\r\n", "\n");
            let second_line = original.lines().nth(1).unwrap_or_default();
            let unit = second_line.len() - second_line.trim_start_matches(' ').len();
            let value: Value = serde_json::from_str(&original).unwrap();
            let mut out = Vec::new();
            write_indented(&mut out, &value, 0);
            let ours = reindent(&String::from_utf8(out).unwrap(), unit);
            assert_eq!(ours, original.trim_end(), "{}", path.display());
            checked += 1;
        }
        assert!(checked > 10, "fixtures not found");
    }
}
