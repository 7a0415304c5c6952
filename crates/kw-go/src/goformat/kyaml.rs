//! A KYAML encoder that writes bytes exactly as kubectl 1.37's `-o kyaml` does
//! (`sigs.k8s.io/yaml/kyaml`: the object marshalled to JSON, read back by go-yaml v3, rendered).
//!
//! What users see and this reproduces: every string value double-quoted; map keys (in Go's JSON
//! order, bytewise) bare unless they could read back as something else or hold characters
//! beyond letters, digits, `_` and interior `-./`; `{}`/`[]` always; a list of maps or lists
//! "cuddled" (`[{`, `}, {`, `}]`), a list of scalars one item per line; a multi-line string
//! folded (`"\` then each line indented, `\n\` at its end, a leading blank escaped); numbers as
//! Go's JSON writes them. Which characters are escaped follows Go's `unicode.IsPrint`.

use serde_json::{Map, Value};
use unicode_properties::{GeneralCategoryGroup, UnicodeGeneralCategory};

use super::json::write_number;
use super::quote::is_print;

/// One KYAML document: the `---` header, the value, a newline.
pub fn write_document(out: &mut Vec<u8>, value: &Value) {
    out.extend_from_slice(b"---\n");
    write_value(out, value, 0);
    out.push(b'\n');
}

/// One watch event as kubectl prints `metav1.WatchEvent`: its struct's field order (`type`,
/// then `object`), not sorted keys; `extra` members (kw's own) follow.
pub fn write_event(out: &mut Vec<u8>, kind: &str, object: &Value, extra: &[(&str, &Value)]) {
    out.extend_from_slice(b"---\n{\n  type: ");
    write_string(out, kind, 1, Style::Value);
    out.extend_from_slice(b",\n  object: ");
    write_value(out, object, 1);
    out.extend_from_slice(b",\n");
    for (key, value) in extra {
        out.extend_from_slice(b"  ");
        write_string(out, key, 1, Style::Key);
        out.extend_from_slice(b": ");
        write_value(out, value, 1);
        out.extend_from_slice(b",\n");
    }
    out.extend_from_slice(b"}\n");
}

/// The KYAML of kubectl's `List` wrapper, written one item at a time so that a large list is
/// never held whole. Items are maps, so the list is cuddled: `items: [{`, `}, {`, `}],`.
#[derive(Debug, Default)]
pub struct ListWriter {
    items: usize,
}

impl ListWriter {
    pub fn new() -> ListWriter {
        ListWriter::default()
    }

    /// Append one item of `items:`; the first one writes the opening too.
    pub fn item(&mut self, out: &mut Vec<u8>, value: &Value) {
        if self.items == 0 {
            out.extend_from_slice(b"---\n{\n  apiVersion: \"v1\",\n  items: [");
        } else {
            out.extend_from_slice(b", ");
        }
        self.items += 1;
        write_value(out, value, 1);
    }

    /// Close the list (an empty one is written whole).
    pub fn finish(&mut self, out: &mut Vec<u8>) {
        if self.items == 0 {
            out.extend_from_slice(b"---\n{\n  apiVersion: \"v1\",\n  items: [");
        }
        out.extend_from_slice(
            b"],\n  kind: \"List\",\n  metadata: {\n    resourceVersion: \"\",\n  },\n}\n",
        );
    }
}

/// Render `value` with the cursor where it starts; `indent` is the depth of the line it is on.
fn write_value(out: &mut Vec<u8>, value: &Value, indent: usize) {
    match value {
        Value::Null => out.extend_from_slice(b"null"),
        Value::Bool(true) => out.extend_from_slice(b"true"),
        Value::Bool(false) => out.extend_from_slice(b"false"),
        Value::Number(number) => write_number(out, number),
        Value::String(text) => write_string(out, text, indent + 1, Style::Value),
        Value::Array(items) => write_sequence(out, items, indent),
        Value::Object(members) => write_mapping(out, members, indent),
    }
}

fn write_sequence(out: &mut Vec<u8>, items: &[Value], indent: usize) {
    if items.is_empty() {
        out.extend_from_slice(b"[]");
        return;
    }
    let cuddled = items
        .iter()
        .all(|item| matches!(item, Value::Array(_) | Value::Object(_)));
    out.push(b'[');
    if cuddled {
        for (i, item) in items.iter().enumerate() {
            if i > 0 {
                out.extend_from_slice(b", ");
            }
            write_value(out, item, indent);
        }
    } else {
        out.push(b'\n');
        for item in items {
            write_indent(out, indent + 1);
            write_value(out, item, indent + 1);
            out.extend_from_slice(b",\n");
        }
        write_indent(out, indent);
    }
    out.push(b']');
}

fn write_mapping(out: &mut Vec<u8>, members: &Map<String, Value>, indent: usize) {
    if members.is_empty() {
        out.extend_from_slice(b"{}");
        return;
    }
    out.extend_from_slice(b"{\n");
    for (key, value) in members {
        write_indent(out, indent + 1);
        write_string(out, key, indent + 1, Style::Key);
        out.extend_from_slice(b": ");
        write_value(out, value, indent + 1);
        out.extend_from_slice(b",\n");
    }
    write_indent(out, indent);
    out.push(b'}');
}

fn write_indent(out: &mut Vec<u8>, level: usize) {
    for _ in 0..level {
        out.extend_from_slice(b"  ");
    }
}

/// How a string is written: a value is always quoted and a multi-line one folded; a key is bare
/// when it can be, and otherwise quoted on one line (`\n` and `\t` escaped).
#[derive(Clone, Copy, PartialEq, Eq)]
enum Style {
    Value,
    Key,
}

fn write_string(out: &mut Vec<u8>, text: &str, indent: usize, style: Style) {
    let multi_line = text.contains('\n');
    if style == Style::Key && !needs_quotes(text) {
        out.extend_from_slice(text.as_bytes());
        return;
    }
    let folded = multi_line && style == Style::Value;
    let mut quoted = String::with_capacity(text.len() + 2);
    quoted.push('"');
    if folded {
        quoted.push_str("\\\n");
    }
    for c in text.chars() {
        push_escaped(&mut quoted, c, indent, style);
    }
    if folded {
        if !quoted.ends_with('\n') {
            quoted.push_str("\\\n");
        }
        for _ in 0..indent {
            quoted.push_str("  ");
        }
    }
    quoted.push('"');
    out.extend_from_slice(quoted.as_bytes());
}

fn push_escaped(out: &mut String, c: char, indent: usize, style: Style) {
    if out.ends_with('\n') {
        for _ in 0..indent {
            out.push_str("  ");
        }
        // A folded line's leading blanks would be dropped by a reader: escape the first; a
        // line without one gets a space, so that lines stay aligned.
        out.push(if c.is_whitespace() && c != '\n' {
            '\\'
        } else {
            ' '
        });
    }
    match (c, style) {
        ('\n', Style::Value) => return out.push_str("\\n\\\n"),
        ('\t', Style::Value) => return out.push('\t'),
        ('\n', Style::Key) => return out.push_str("\\n"),
        ('\t', Style::Key) => return out.push_str("\\t"),
        _ => {}
    }
    match c {
        '"' | '\\' => {
            out.push('\\');
            out.push(c);
        }
        c if is_print(c) => out.push(c),
        '\x07' => out.push_str("\\a"),
        '\x08' => out.push_str("\\b"),
        '\x0c' => out.push_str("\\f"),
        '\r' => out.push_str("\\r"),
        '\x0b' => out.push_str("\\v"),
        '\0' => out.push_str("\\0"),
        '\x1b' => out.push_str("\\e"),
        '\u{85}' => out.push_str("\\N"),
        '\u{a0}' => out.push_str("\\_"),
        '\u{2028}' => out.push_str("\\L"),
        '\u{2029}' => out.push_str("\\P"),
        c if (c as u32) < 0x20 || c == '\x7f' => out.push_str(&format!("\\x{:02x}", c as u32)),
        c if (c as u32) < 0x10000 => out.push_str(&format!("\\u{:04x}", c as u32)),
        c => out.push_str(&format!("\\U{:08x}", c as u32)),
    }
}

/// Whether a key must be quoted: empty, readable as another type, or holding a character other
/// than a letter, a digit, `_`, or (not first or last) `-`, `.`, `/`.
fn needs_quotes(text: &str) -> bool {
    if text.is_empty() || is_type_ambiguous(text) {
        return true;
    }
    let last = text.chars().count() - 1;
    !text.chars().enumerate().all(|(i, c)| {
        matches!(
            c.general_category_group(),
            GeneralCategoryGroup::Letter | GeneralCategoryGroup::Number
        ) || c == '_'
            || (i > 0 && i < last && matches!(c, '-' | '.' | '/'))
    })
}

/// Whether a YAML reader could take `text`, unquoted, for a null, a bool, a number or a
/// timestamp (the YAML 1.1 types kyaml guards against).
fn is_type_ambiguous(text: &str) -> bool {
    let short_lower = (text.len() <= 5).then(|| text.to_lowercase());
    if let Some(lower) = &short_lower {
        if matches!(
            lower.as_str(),
            "null"
                | "~"
                | "true"
                | "y"
                | "yes"
                | "on"
                | "false"
                | "n"
                | "no"
                | "off"
                | ".inf"
                | "-.inf"
                | "+.inf"
                | ".nan"
        ) {
            return true;
        }
    }
    // Go's strconv.ParseBool.
    if matches!(
        text,
        "1" | "t" | "T" | "TRUE" | "true" | "True" | "0" | "f" | "F" | "FALSE" | "false" | "False"
    ) {
        return true;
    }
    let digits: String = text.chars().filter(|&c| c != '_').collect();
    go_parses_int(&digits)
        || go_parses_float(&digits)
        || is_sexagesimal(text)
        || is_date_timestamp(text)
}

/// Go's `strconv.ParseInt(text, 0, 64)` succeeds (prefixes `0b`, `0o`, `0x`, a leading `0`
/// for octal; out of range fails).
fn go_parses_int(text: &str) -> bool {
    let (negative, unsigned) = match text.as_bytes().first() {
        Some(b'-') => (true, &text[1..]),
        Some(b'+') => (false, &text[1..]),
        _ => (false, text),
    };
    if unsigned.is_empty() {
        return false;
    }
    let lower = unsigned.to_ascii_lowercase();
    let (radix, digits) = if lower.len() >= 3 && lower.starts_with("0b") {
        (2, &lower[2..])
    } else if lower.len() >= 3 && lower.starts_with("0o") {
        (8, &lower[2..])
    } else if lower.len() >= 3 && lower.starts_with("0x") {
        (16, &lower[2..])
    } else if let Some(rest) = lower.strip_prefix('0') {
        (8, rest)
    } else {
        (10, lower.as_str())
    };
    if digits.is_empty() {
        return radix == 8;
    }
    if !digits.chars().all(|c| c.is_digit(radix)) {
        return false;
    }
    match u64::from_str_radix(digits, radix) {
        Ok(value) if negative => value <= 1 << 63,
        Ok(value) => value < 1 << 63,
        Err(_) => false,
    }
}

/// Go's `strconv.ParseFloat(text, 64)` succeeds: decimal (`1.5`, `.5`, `5.`, `1e3`), `inf`,
/// `infinity`, `nan` (any case), and hexadecimal with a `p` exponent; overflow fails.
fn go_parses_float(text: &str) -> bool {
    let (signed, unsigned) = match text.as_bytes().first() {
        Some(b'-' | b'+') => (true, &text[1..]),
        _ => (false, text),
    };
    let lower = unsigned.to_ascii_lowercase();
    if lower == "inf" || lower == "infinity" || (!signed && lower == "nan") {
        return true;
    }
    let (hex, body) = match lower.strip_prefix("0x") {
        Some(rest) => (true, rest),
        None => (false, lower.as_str()),
    };
    let exponent_mark = if hex { 'p' } else { 'e' };
    let (mantissa, exponent) = match body.split_once(exponent_mark) {
        Some((mantissa, exponent)) => (mantissa, Some(exponent)),
        None => (body, None),
    };
    let is_digit = |c: char| {
        if hex {
            c.is_ascii_hexdigit()
        } else {
            c.is_ascii_digit()
        }
    };
    let mut dots = 0;
    let mut mantissa_digits = 0;
    for c in mantissa.chars() {
        match c {
            '.' => dots += 1,
            c if is_digit(c) => mantissa_digits += 1,
            _ => return false,
        }
    }
    if dots > 1 || mantissa_digits == 0 {
        return false;
    }
    match exponent {
        Some(exponent) => {
            let exponent = exponent.strip_prefix(['+', '-']).unwrap_or(exponent);
            if exponent.is_empty() || !exponent.chars().all(|c| c.is_ascii_digit()) {
                return false;
            }
        }
        None if hex => return false,
        None => {}
    }
    // Only overflow is an error to Go (underflow reads as 0).
    hex || text.parse::<f64>().is_ok_and(f64::is_finite)
}

/// YAML 1.1's base-60 numbers (`1:30`): `[+-]?[1-9][0-9_]*(:[0-5]?[0-9])+(\.[0-9_]*)?`.
fn is_sexagesimal(text: &str) -> bool {
    let text = text.strip_prefix(['+', '-']).unwrap_or(text);
    let (whole, fraction) = match text.split_once('.') {
        Some((whole, fraction)) => (whole, Some(fraction)),
        None => (text, None),
    };
    if fraction.is_some_and(|f| !f.chars().all(|c| c.is_ascii_digit() || c == '_')) {
        return false;
    }
    let mut parts = whole.split(':');
    let head = parts.next().unwrap_or_default();
    if !head.starts_with(|c: char| ('1'..='9').contains(&c))
        || !head.chars().all(|c| c.is_ascii_digit() || c == '_')
    {
        return false;
    }
    let mut groups = 0;
    for part in parts {
        let bytes = part.as_bytes();
        let valid = match bytes {
            [d] => d.is_ascii_digit(),
            [t, d] => (b'0'..=b'5').contains(t) && d.is_ascii_digit(),
            _ => false,
        };
        if !valid {
            return false;
        }
        groups += 1;
    }
    groups > 0
}

/// The one timestamp form a bare key can take (the others hold `:` or a space, which quote it
/// anyway): Go's `time.Parse("2006-1-2", text)`, a real date.
fn is_date_timestamp(text: &str) -> bool {
    let mut parts = text.splitn(3, '-');
    let (Some(year), Some(month), Some(day)) = (parts.next(), parts.next(), parts.next()) else {
        return false;
    };
    let number = |part: &str, max_len: usize| {
        (!part.is_empty() && part.len() <= max_len && part.bytes().all(|b| b.is_ascii_digit()))
            .then(|| part.parse::<u32>().ok())
            .flatten()
    };
    let (Some(year), Some(month), Some(day)) = (
        (year.len() == 4).then(|| number(year, 4)).flatten(),
        number(month, 2),
        number(day, 2),
    ) else {
        return false;
    };
    let leap = (year % 4 == 0 && year % 100 != 0) || year % 400 == 0;
    let days = match month {
        1 | 3 | 5 | 7 | 8 | 10 | 12 => 31,
        4 | 6 | 9 | 11 => 30,
        2 if leap => 29,
        2 => 28,
        _ => return false,
    };
    (1..=days).contains(&day)
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn document(value: Value) -> String {
        let mut out = Vec::new();
        write_document(&mut out, &value);
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn maps_lists_and_scalars() {
        let got = document(json!({
            "a": {"b": [1, "x", null, true], "c": [{"d": 1.5}, {}], "e": {}, "g": []},
        }));
        assert_eq!(
            got,
            "---\n{\n  a: {\n    b: [\n      1,\n      \"x\",\n      null,\n      true,\n    ],\n    c: [{\n      d: 1.5,\n    }, {}],\n    e: {},\n    g: [],\n  },\n}\n"
        );
    }

    #[test]
    fn multi_line_strings_fold_and_keep_leading_blanks() {
        let got = document(json!({"k": "a\n  b\nc"}));
        assert_eq!(
            got,
            "---\n{\n  k: \"\\\n     a\\n\\\n    \\  b\\n\\\n     c\\\n    \",\n}\n"
        );
        let trailing = document(json!({"k": "a\n"}));
        assert_eq!(trailing, "---\n{\n  k: \"\\\n     a\\n\\\n    \",\n}\n");
    }

    #[test]
    fn keys_are_quoted_only_when_ambiguous_or_unusual() {
        for bare in [
            "app",
            "kubernetes.io/name",
            "a-b",
            "_x",
            "x_",
            "ünï",
            "1a",
            "08x",
        ] {
            assert!(!needs_quotes(bare), "{bare}");
        }
        for quoted in [
            "",
            "yes",
            "No",
            "NULL",
            "~",
            "on",
            "t",
            "1",
            "123",
            "0x1F",
            "0o17",
            "1_000",
            "1e5",
            "1.5",
            ".5",
            "inf",
            "NaN",
            "Infinity",
            "2026-01-01",
            "-a",
            "a-",
            "a b",
            "a:b",
            "a\n",
            "08",
            "0b1",
        ] {
            assert!(needs_quotes(quoted), "{quoted:?}");
        }
        // Too big for ParseInt, still a float; too big for a float: not a number to Go.
        assert!(is_type_ambiguous("99999999999999999999"));
        assert!(is_type_ambiguous("9223372036854775807"));
        assert!(!is_type_ambiguous("1e400"));
        assert!(!is_type_ambiguous("2026-02-30"));
    }

    #[test]
    fn escapes_follow_go() {
        let got = document(json!({"a\tb": "q\"\\\u{7}\t\u{200b}\u{a0}é😀\r"}));
        assert_eq!(
            got,
            "---\n{\n  \"a\\tb\": \"q\\\"\\\\\\a\t\\u200b\\_é😀\\r\",\n}\n"
        );
    }

    #[test]
    fn lists_and_events() {
        let mut out = Vec::new();
        let mut list = ListWriter::new();
        list.finish(&mut out);
        assert_eq!(
            String::from_utf8(out).unwrap(),
            "---\n{\n  apiVersion: \"v1\",\n  items: [],\n  kind: \"List\",\n  metadata: {\n    resourceVersion: \"\",\n  },\n}\n"
        );
        let mut out = Vec::new();
        write_event(&mut out, "ADDED", &json!({"kind": "Pod"}), &[]);
        assert_eq!(
            String::from_utf8(out).unwrap(),
            "---\n{\n  type: \"ADDED\",\n  object: {\n    kind: \"Pod\",\n  },\n}\n"
        );
    }
}
