//! The text of one table cell, as kubectl v1.32's `printTable` renders a cell of a server-side
//! `Table`.
//!
//! kubectl decodes cells into Go values (string, int64, float64, bool, nil, `[]interface{}`,
//! `map[string]interface{}`) and prints strings truncated at the first line break (with `...`)
//! and everything else with `fmt.Sprint`; both then go through its terminal escaper (ESC → `^[`,
//! CR → `\r`), which guards against escape-sequence injection from object fields. kw's escaper
//! (`crate::output::escape`) also shows the controls kubectl lets through (BEL, backspace, C1). A `null`
//! cell prints nothing.

use serde_json::Value;

use kw_go::goformat::fmt::write_go_value;

/// Append the rendering of `cell` to `out`.
pub fn write_cell(out: &mut Vec<u8>, cell: &Value) {
    match cell {
        Value::Null => {}
        Value::String(text) => write_string_cell(out, text),
        // kubectl writes these whole, so a line break inside a map or list cell split the row
        // in two and a server could print a row of its own making (found by the `table` fuzz
        // target): they are cut at the first break the tabwriter takes as one, as strings are
        // (a CR is escaped as `\r`, as kubectl escapes it).
        other => {
            let mut text = Vec::new();
            write_go_value(&mut text, other);
            let text = String::from_utf8_lossy(&text);
            match text.find(['\x0c', '\n']) {
                Some(cut) => {
                    write_escaped(out, &text[..cut]);
                    out.extend_from_slice(b"...");
                }
                None => write_escaped(out, &text),
            }
        }
    }
}

/// Strings: cut at the first `\f`, `\n` or `\r` (the tabwriter would treat them as line breaks)
/// and mark the cut with `...`.
pub fn write_string_cell(out: &mut Vec<u8>, text: &str) {
    match text.find(['\x0c', '\n', '\r']) {
        Some(cut) => {
            write_escaped(out, &text[..cut]);
            out.extend_from_slice(b"...");
        }
        None => write_escaped(out, text),
    }
}

/// kubectl's `terminalEscaper` (ESC becomes `^[`, CR the two characters `\r`), and the other
/// terminal controls kubectl lets through (`crate::output::escape`).
pub use crate::output::escape::write_escaped;

#[cfg(test)]
mod tests {
    use super::*;

    fn render(json: &str) -> String {
        let value: Value = serde_json::from_str(json).unwrap();
        let mut out = Vec::new();
        write_cell(&mut out, &value);
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn scalars_print_as_go_prints_them() {
        assert_eq!(render(r#""Running""#), "Running");
        assert_eq!(render("3"), "3");
        assert_eq!(render("-42"), "-42");
        assert_eq!(render("true"), "true");
        assert_eq!(render("false"), "false");
        assert_eq!(render("null"), "");
    }

    #[test]
    fn floats_use_percent_v() {
        assert_eq!(render("1.5"), "1.5");
        assert_eq!(render("1.0"), "1");
        assert_eq!(render("123456.5"), "123456.5");
        assert_eq!(render("1000000.5"), "1.0000005e+06");
        assert_eq!(render("1e6"), "1e+06");
        assert_eq!(render("0.0001"), "0.0001");
        assert_eq!(render("0.00001"), "1e-05");
        assert_eq!(render("1.5e-300"), "1.5e-300");
        assert_eq!(render("18446744073709551615"), "1.8446744073709552e+19");
    }

    #[test]
    fn strings_are_cut_at_line_breaks() {
        assert_eq!(render(r#""first\nsecond""#), "first...");
        assert_eq!(render(r#""a\rb""#), "a...");
        assert_eq!(render(r#""a\fb""#), "a...");
        assert_eq!(render(r#""\nb""#), "...");
    }

    #[test]
    fn terminal_escapes_are_neutralised() {
        assert_eq!(render(r#""\u001b[31mred""#), "^[[31mred");
        assert_eq!(render(r#"["\r","\u001b"]"#), "[\\r ^[]");
    }

    #[test]
    fn composite_cells_use_go_fmt() {
        assert_eq!(render(r#"["a","b",1,null]"#), "[a b 1 <nil>]");
        assert_eq!(render(r#"{"b":1,"a":[true]}"#), "map[a:[true] b:1]");
        assert_eq!(render("[]"), "[]");
        assert_eq!(render("{}"), "map[]");
    }

    #[test]
    fn line_breaks_in_composite_cells_do_not_split_the_row() {
        assert_eq!(render(r#"{"a":"b\nc"}"#), "map[a:b...");
        assert_eq!(render(r#"["x","\f"]"#), "[x ...");
    }

    #[test]
    fn tabs_in_cells_are_kept_as_kubectl_keeps_them() {
        assert_eq!(render(r#""a\tb""#), "a\tb");
    }
}
