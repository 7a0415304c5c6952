//! Go's `fmt` verbs (`%v`, what `fmt.Sprint` prints) for values decoded the way `unstructured`
//! decodes JSON: the text kubectl shows for a table cell or a JSONPath result that is not a
//! string.

use serde_json::{Number, Value};

use super::json::shortest_exponent_form;

/// `fmt.Sprint` of a decoded JSON value (`%v`).
pub fn write_go_value(out: &mut Vec<u8>, value: &Value) {
    match value {
        Value::Null => out.extend_from_slice(b"<nil>"),
        Value::Bool(true) => out.extend_from_slice(b"true"),
        Value::Bool(false) => out.extend_from_slice(b"false"),
        Value::Number(number) => write_go_number(out, number),
        Value::String(text) => out.extend_from_slice(text.as_bytes()),
        Value::Array(items) => {
            out.push(b'[');
            for (index, item) in items.iter().enumerate() {
                if index > 0 {
                    out.push(b' ');
                }
                write_go_value(out, item);
            }
            out.push(b']');
        }
        Value::Object(map) => {
            // fmt prints maps with keys sorted.
            let mut members: Vec<(&String, &Value)> = map.iter().collect();
            members.sort_by(|a, b| a.0.as_bytes().cmp(b.0.as_bytes()));
            out.extend_from_slice(b"map[");
            for (index, (key, item)) in members.into_iter().enumerate() {
                if index > 0 {
                    out.push(b' ');
                }
                out.extend_from_slice(key.as_bytes());
                out.push(b':');
                write_go_value(out, item);
            }
            out.push(b']');
        }
    }
}

/// `fmt.Sprintf("%#v", value)` of a decoded JSON value, as Go writes it for what
/// `UnstructuredContent` holds: `map[string]interface {}{"k":v, ...}` with keys sorted,
/// `[]interface {}{a, b}`, strings quoted as `strconv.Quote` does (so no terminal control
/// passes raw), `interface {}(nil)` for null. kubectl prints this after a JSONPath error.
pub fn write_go_syntax(out: &mut Vec<u8>, value: &Value) {
    match value {
        Value::Null => out.extend_from_slice(b"interface {}(nil)"),
        Value::String(text) => out.extend_from_slice(super::quote::quote(text).as_bytes()),
        Value::Array(items) => {
            out.extend_from_slice(b"[]interface {}{");
            for (index, item) in items.iter().enumerate() {
                if index > 0 {
                    out.extend_from_slice(b", ");
                }
                write_go_syntax(out, item);
            }
            out.push(b'}');
        }
        Value::Object(map) => {
            let mut members: Vec<(&String, &Value)> = map.iter().collect();
            members.sort_by(|a, b| a.0.as_bytes().cmp(b.0.as_bytes()));
            out.extend_from_slice(b"map[string]interface {}{");
            for (index, (key, item)) in members.into_iter().enumerate() {
                if index > 0 {
                    out.extend_from_slice(b", ");
                }
                out.extend_from_slice(super::quote::quote(key).as_bytes());
                out.push(b':');
                write_go_syntax(out, item);
            }
            out.push(b'}');
        }
        scalar => write_go_value(out, scalar),
    }
}

/// int64 in decimal; anything else is a float64 printed with `%v`.
fn write_go_number(out: &mut Vec<u8>, number: &Number) {
    if let Some(integer) = number.as_i64() {
        out.extend_from_slice(integer.to_string().as_bytes());
    } else if let Some(unsigned) = number.as_u64() {
        write_go_float_v(out, unsigned as f64);
    } else if let Some(float) = number.as_f64() {
        write_go_float_v(out, float);
    } else {
        out.extend_from_slice(number.to_string().as_bytes());
    }
}

/// `%v` of a float64 is `strconv.FormatFloat(f, 'g', -1, 64)`: shortest digits, exponent form
/// when the exponent is < -4 or >= 6 (Go uses precision 6 for that decision when the precision
/// is "shortest"), with a signed exponent of at least two digits (`1e+06`, `1.5e-07`).
pub fn write_go_float_v(out: &mut Vec<u8>, float: f64) {
    if float == 0.0 {
        out.extend_from_slice(if float.is_sign_negative() {
            b"-0"
        } else {
            b"0"
        });
        return;
    }
    let (mantissa, exponent) = shortest_exponent_form(float);
    if (-4..6).contains(&exponent) {
        out.extend_from_slice(float.to_string().as_bytes());
        return;
    }
    out.extend_from_slice(mantissa.as_bytes());
    out.push(b'e');
    out.push(if exponent < 0 { b'-' } else { b'+' });
    let magnitude = exponent.unsigned_abs();
    if magnitude < 10 {
        out.push(b'0');
    }
    out.extend_from_slice(magnitude.to_string().as_bytes());
}
