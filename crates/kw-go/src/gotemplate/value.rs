//! Values as a Go template sees kubectl's unstructured object: integers are `int64`, other
//! numbers `float64` (kubectl's output shows `%d` works on `.spec.replicas`); constants in the
//! template are `int`s or `float64`s. Printed
//! as Go's `fmt` prints them (`%v`, `%d`, `%s`, `%q`).

use serde_json::{Map, Value as Json};

use crate::goformat::fmt::write_go_float_v;

/// Lists and maps borrow from the decoded object: `$`, variables and dot refer to the data,
/// never copy it (a template reading `len $.items` per item of a list of thousands would
/// otherwise copy the whole list each time, quadratic in the list).
#[derive(Debug, Clone, PartialEq)]
pub enum Value<'a> {
    /// Go's invalid `reflect.Value`: a missing key, printed `<no value>`.
    Missing,
    /// A nil `interface{}` (JSON `null`).
    Nil,
    Bool(bool),
    /// An `int64` from the object.
    Int(i64),
    /// A Go `int`: a constant in the template, a length, a range index.
    GoInt(i64),
    Float(f64),
    Str(String),
    List(&'a [Json]),
    Map(&'a Map<String, Json>),
}

impl<'a> Value<'a> {
    pub fn from_json(json: &'a Json) -> Value<'a> {
        match json {
            Json::Null => Value::Nil,
            Json::Bool(b) => Value::Bool(*b),
            Json::Number(n) => match n.as_i64() {
                Some(i) => Value::Int(i),
                None => Value::Float(n.as_f64().unwrap_or(0.0)),
            },
            Json::String(s) => Value::Str(s.clone()),
            Json::Array(items) => Value::List(items),
            Json::Object(map) => Value::Map(map),
        }
    }

    /// The Go type's name, as errors print it.
    pub fn type_name(&self) -> &'static str {
        match self {
            Value::Missing | Value::Nil => "<nil>",
            Value::Bool(_) => "bool",
            Value::Int(_) => "int64",
            Value::GoInt(_) => "int",
            Value::Float(_) => "float64",
            Value::Str(_) => "string",
            Value::List(_) => "[]interface {}",
            Value::Map(_) => "map[string]interface {}",
        }
    }

    /// Go's `template.IsTrue`.
    pub fn truth(&self) -> bool {
        match self {
            Value::Missing | Value::Nil => false,
            Value::Bool(b) => *b,
            Value::Int(i) | Value::GoInt(i) => *i != 0,
            Value::Float(f) => *f != 0.0,
            Value::Str(s) => !s.is_empty(),
            Value::List(items) => !items.is_empty(),
            Value::Map(map) => !map.is_empty(),
        }
    }

    pub fn is_string(&self) -> bool {
        matches!(self, Value::Str(_))
    }
}

/// `fmt.Sprint` of one value (`%v`).
pub fn write_v(out: &mut String, value: &Value) {
    match value {
        Value::Missing | Value::Nil => out.push_str("<nil>"),
        Value::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
        Value::Int(i) | Value::GoInt(i) => out.push_str(&i.to_string()),
        Value::Float(f) => write_float(out, *f),
        Value::Str(s) => out.push_str(s),
        Value::List(items) => write_json_items(out, items),
        Value::Map(map) => write_json_map(out, map),
    }
}

fn write_float(out: &mut String, float: f64) {
    let mut bytes = Vec::new();
    write_go_float_v(&mut bytes, float);
    out.push_str(&String::from_utf8_lossy(&bytes));
}

/// `%v` of JSON-decoded data: numbers are float64, maps sorted, `null` is `<nil>`.
pub fn write_json_v(out: &mut String, json: &Json) {
    match json {
        Json::Array(items) => write_json_items(out, items),
        Json::Object(map) => write_json_map(out, map),
        other => write_v(out, &Value::from_json(other)),
    }
}

fn write_json_items(out: &mut String, items: &[Json]) {
    out.push('[');
    for (index, item) in items.iter().enumerate() {
        if index > 0 {
            out.push(' ');
        }
        write_json_v(out, item);
    }
    out.push(']');
}

fn write_json_map(out: &mut String, map: &Map<String, Json>) {
    let mut members: Vec<(&String, &Json)> = map.iter().collect();
    members.sort_by(|a, b| a.0.as_bytes().cmp(b.0.as_bytes()));
    out.push_str("map[");
    for (index, (key, item)) in members.into_iter().enumerate() {
        if index > 0 {
            out.push(' ');
        }
        out.push_str(key);
        out.push(':');
        write_json_v(out, item);
    }
    out.push(']');
}

/// `fmt.Sprint(args...)`: a space between operands when neither is a string.
pub fn sprint(args: &[Value]) -> String {
    let mut out = String::new();
    for (index, arg) in args.iter().enumerate() {
        if index > 0 && !arg.is_string() && !args[index - 1].is_string() {
            out.push(' ');
        }
        write_v(&mut out, arg);
    }
    out
}

/// `fmt.Sprintln(args...)`: always a space between operands, and a newline.
pub fn sprintln(args: &[Value]) -> String {
    let mut out = String::new();
    for (index, arg) in args.iter().enumerate() {
        if index > 0 {
            out.push(' ');
        }
        write_v(&mut out, arg);
    }
    out.push('\n');
    out
}

/// Go's `strconv.Quote`.
pub fn go_quote(text: &str) -> String {
    crate::goformat::quote::quote(text)
}

/// `fmt.Sprintf` for the verbs templates use: `%v %s %d %q %t %f %e %g %x %o %b %c %U %%`,
/// the flags `- + # 0` and space, `*` widths, with Go's `%!d(float64=1)` for a verb that does
/// not fit its operand. Floats print as `goformat::float` says.
pub fn sprintf(format: &str, args: &[Value]) -> String {
    let mut out = String::new();
    let mut next = 0;
    let mut chars = format.chars().peekable();
    while let Some(c) = chars.next() {
        if c != '%' {
            out.push(c);
            continue;
        }
        // Flags, width and precision: `%-5s`, `%05d`, `%.2f`.
        let mut flags = String::new();
        while let Some(&flag) = chars.peek() {
            if !matches!(flag, '-' | '+' | '#' | ' ' | '0') {
                break;
            }
            flags.push(flag);
            chars.next();
        }
        // `%*d`: the width is the next operand, an int (negative: left-justified).
        let mut left = flags.contains('-');
        let width = if chars.peek() == Some(&'*') {
            chars.next();
            let width = match args.get(next) {
                Some(Value::Int(w) | Value::GoInt(w)) if w.unsigned_abs() <= MAX_NUMBER as u64 => {
                    left |= *w < 0;
                    Some(w.unsigned_abs() as usize)
                }
                _ => {
                    out.push_str("%!(BADWIDTH)");
                    None
                }
            };
            next += 1;
            width
        } else {
            // Go's `parsenum`: a width or precision past a million is no number, and the verb
            // is lost (`%!(NOVERB)`), as a format cannot make kw pad by a gigabyte.
            let Some(width) = number(&mut chars) else {
                out.push_str("%!(NOVERB)");
                break;
            };
            width
        };
        let mut precision: Option<usize> = None;
        if chars.peek() == Some(&'.') {
            chars.next();
            let Some(digits) = number(&mut chars) else {
                out.push_str("%!(NOVERB)");
                break;
            };
            precision = Some(digits.unwrap_or(0));
        }
        let Some(verb) = chars.next() else {
            out.push_str("%!(NOVERB)");
            break;
        };
        if verb == '%' {
            out.push('%');
            continue;
        }
        let Some(arg) = args.get(next) else {
            out.push_str(&format!("%!{verb}(MISSING)"));
            continue;
        };
        next += 1;
        let text = format_verb(verb, arg, precision, &flags);
        let width = width.unwrap_or(0);
        let len = text.chars().count();
        if len >= width || text.starts_with("%!") {
            out.push_str(&text);
        } else if left {
            out.push_str(&text);
            out.push_str(&" ".repeat(width - len));
        } else if flags.contains('0')
            && (matches!(
                verb,
                'd' | 'f' | 'F' | 'e' | 'E' | 'g' | 'G' | 'x' | 'X' | 'o' | 'b'
            ) || verb == 'v'
                && matches!(arg, Value::Int(_) | Value::GoInt(_) | Value::Float(_)))
        {
            let (sign, digits) = match text.strip_prefix(['-', '+', ' ']) {
                Some(rest) => (&text[..1], rest),
                None => ("", text.as_str()),
            };
            out.push_str(sign);
            out.push_str(&"0".repeat(width - len));
            out.push_str(digits);
        } else {
            out.push_str(&" ".repeat(width - len));
            out.push_str(&text);
        }
    }
    if next < args.len() {
        out.push_str("%!(EXTRA ");
        let extra: Vec<String> = args[next..]
            .iter()
            .map(|arg| {
                let mut text = format!("{}=", arg.type_name());
                write_v(&mut text, arg);
                text
            })
            .collect();
        out.push_str(&extra.join(", "));
        out.push(')');
    }
    out
}

/// Go's `tooLarge`: widths and precisions are at most a million.
const MAX_NUMBER: usize = 1_000_000;

/// The digits at `chars`, as Go's `parsenum` reads them: `Some(None)` when there are none,
/// `None` when the number passes `MAX_NUMBER` (the rest of the format is then lost, as in Go).
fn number(chars: &mut std::iter::Peekable<std::str::Chars<'_>>) -> Option<Option<usize>> {
    let mut number: Option<usize> = None;
    while let Some(digit) = chars.peek().and_then(|c| c.to_digit(10)) {
        let so_far = number.unwrap_or(0);
        if so_far > MAX_NUMBER {
            chars.for_each(drop);
            return None;
        }
        number = Some(so_far * 10 + digit as usize);
        chars.next();
    }
    Some(number)
}

/// An integer in base 16, 8 or 2 as Go's `%x`/`%X`/`%o`/`%b` write it: a sign, then the magnitude's
/// digits (never two's complement), `0x`/`0X`/`0`/`0b` in front with `#`.
fn radix(int: i64, verb: char, flags: &str) -> String {
    let magnitude = int.unsigned_abs();
    let digits = match verb {
        'x' => format!("{magnitude:x}"),
        'X' => format!("{magnitude:X}"),
        'b' => format!("{magnitude:b}"),
        _ => format!("{magnitude:o}"),
    };
    let prefix = match (flags.contains('#'), verb) {
        (false, _) => "",
        (true, 'x') => "0x",
        (true, 'X') => "0X",
        (true, 'b') => "0b",
        (true, _) => "0",
    };
    format!("{}{prefix}{digits}", sign(int < 0, flags))
}

/// The sign Go writes before a number: `-`, or `+` with the `+` flag.
fn sign(negative: bool, flags: &str) -> &'static str {
    match (negative, flags.contains('+')) {
        (true, _) => "-",
        (false, true) => "+",
        (false, false) => "",
    }
}

/// An integer as a rune, as Go's `%c` takes it: U+FFFD when it is none.
fn rune(int: i64) -> char {
    u32::try_from(int)
        .ok()
        .and_then(char::from_u32)
        .unwrap_or('\u{FFFD}')
}

/// One verb applied to one operand, before padding.
fn format_verb(verb: char, arg: &Value, precision: Option<usize>, flags: &str) -> String {
    let mut out = String::new();
    match (verb, arg) {
        ('T', _) => out.push_str(match arg {
            Value::Missing | Value::Nil => "<nil>",
            other => other.type_name(),
        }),
        // `%v` of a float is `%g`'s; plain, it is the `%v` every value prints.
        // (`+` and `#` are `%+v`'s and `%#v`'s own: Go drops them for a float.)
        ('v', Value::Float(f)) if precision.is_some() || !flags.is_empty() => {
            let flags = flags.replace(['+', '#'], "");
            out.push_str(&crate::goformat::float::format(*f, verb, precision, &flags))
        }
        ('v', _) => write_v(&mut out, arg),
        ('s', Value::Str(s)) => match precision {
            Some(p) => out.extend(s.chars().take(p)),
            None => out.push_str(s),
        },
        ('s', Value::List(_) | Value::Map(_)) => write_v(&mut out, arg),
        ('q', Value::Str(s)) => out.push_str(&go_quote(s)),
        ('d', Value::Int(i) | Value::GoInt(i)) => {
            out.push_str(sign(*i < 0, flags));
            out.push_str(&i.unsigned_abs().to_string());
        }
        ('t', Value::Bool(b)) => out.push_str(&b.to_string()),
        ('b' | 'e' | 'E' | 'f' | 'F' | 'g' | 'G' | 'x' | 'X', Value::Float(f)) => {
            out.push_str(&crate::goformat::float::format(*f, verb, precision, flags))
        }
        ('x' | 'X' | 'o' | 'b', Value::Int(i) | Value::GoInt(i)) => {
            out.push_str(&radix(*i, verb, flags))
        }
        ('c', Value::Int(i) | Value::GoInt(i)) => out.push(rune(*i)),
        ('q', Value::Int(i) | Value::GoInt(i)) => {
            // strconv.QuoteRune: `%q` of the rune, in single quotes.
            let quoted = go_quote(&rune(*i).to_string());
            let inner = &quoted[1..quoted.len() - 1];
            let inner = match inner {
                "\\\"" => "\"".to_string(),
                "'" => "\\'".to_string(),
                other => other.to_string(),
            };
            out.push_str(&format!("'{inner}'"));
        }
        ('U', Value::Int(i) | Value::GoInt(i)) => {
            out.push_str(&format!("U+{:04X}", *i as u64));
            let shown = rune(*i);
            if flags.contains('#')
                && u32::try_from(*i).is_ok_and(|c| char::from_u32(c).is_some())
                && crate::goformat::quote::is_print(shown)
            {
                out.push_str(&format!(" '{shown}'"));
            }
        }
        ('x', Value::Str(s)) => {
            for byte in s.bytes() {
                out.push_str(&format!("{byte:02x}"));
            }
        }
        (_, Value::Missing | Value::Nil) => out.push_str(&format!("%!{verb}(<nil>)")),
        _ => {
            out.push_str(&format!("%!{verb}({}=", arg.type_name()));
            write_v(&mut out, arg);
            out.push(')');
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn v(json: Json) -> String {
        let mut out = String::new();
        write_v(&mut out, &Value::from_json(&json));
        out
    }

    #[test]
    fn prints_as_go_fmt_prints_decoded_json() {
        assert_eq!(v(json!(1)), "1");
        assert_eq!(v(json!(1000000)), "1000000");
        assert_eq!(v(json!(1e20)), "1e+20");
        assert_eq!(v(json!(1.5)), "1.5");
        assert_eq!(v(json!(true)), "true");
        assert_eq!(v(json!("x y")), "x y");
        assert_eq!(v(json!([1, "a", null, [true]])), "[1 a <nil> [true]]");
        assert_eq!(
            v(json!({"b": {"d": 2, "c": []}, "a": "x"})),
            "map[a:x b:map[c:[] d:2]]"
        );
        assert_eq!(v(json!({})), "map[]");
    }

    #[test]
    fn print_and_printf() {
        let args = [
            Value::GoInt(1),
            Value::GoInt(2),
            Value::Str("a".into()),
            Value::Str("b".into()),
            Value::Float(3.0),
        ];
        assert_eq!(sprint(&args), "1 2ab3");
        assert_eq!(sprintln(&args), "1 2 a b 3\n");
        assert_eq!(
            sprintf(
                "%s=%d %q %v",
                &[
                    Value::Str("x".into()),
                    Value::GoInt(4),
                    Value::Str("a\"b".into())
                ]
            ),
            "x=4 \"a\\\"b\" %!v(MISSING)"
        );
        assert_eq!(sprintf("%d", &[Value::Float(1.0)]), "%!d(float64=1)");
        assert_eq!(
            sprintf(
                "%5s|%-3d|%.2f|%03d|%T",
                &[
                    Value::Str("a".into()),
                    Value::GoInt(1),
                    Value::Float(2.5),
                    Value::GoInt(7),
                    Value::Int(1)
                ]
            ),
            "    a|1  |2.50|007|int64"
        );
        assert_eq!(
            sprintf("%s", &[Value::Nil, Value::GoInt(2)]),
            "%!s(<nil>)%!(EXTRA int=2)"
        );
    }

    /// Widths and precisions as Go bounds them (issue #45, item 9): past a million the verb is
    /// lost, as in Go, never a gigabyte of padding; a precision past Rust's 65,535 digits
    /// still prints (it panicked), the digits past a float64's exact expansion being zeros.
    #[test]
    fn widths_and_precisions_are_bounded_as_go_bounds_them() {
        assert_eq!(
            sprintf("%0999999999d", &[Value::GoInt(1)]),
            "%!(NOVERB)%!(EXTRA int=1)"
        );
        assert_eq!(
            sprintf("a%.99999999f b", &[Value::Float(1.5)]),
            "a%!(NOVERB)%!(EXTRA float64=1.5)"
        );
        let wide = sprintf("%.65536f", &[Value::Float(1.5)]);
        assert_eq!(wide.len(), 2 + 65_536);
        assert!(wide.starts_with("1.5000") && wide.ends_with("000"));
        let exact = sprintf("%.1080f", &[Value::Float(0.1)]);
        assert!(exact.starts_with("0.1000000000000000055511151231257827021181583404541015625000"));
        assert_eq!(sprintf("%.2000f", &[Value::Float(0.1)])[..1082], exact[..]);
        assert_eq!(sprintf("%1000001d|", &[Value::GoInt(1)]).len(), 1_000_002);
    }

    /// The verbs and flags kubectl users type, each as kubectl 1.37 printed it (issue #45,
    /// item 9): `%*d`, `%q`/`%c`/`%U` on ints, `%e` on floats, the `+` and `#` flags, and
    /// `%x` of a negative int as a sign and its magnitude.
    #[test]
    fn verbs_and_flags_as_go_prints_them() {
        let (i, f) = (Value::GoInt, Value::Float);
        assert_eq!(
            sprintf("%*d|%-*d|%*d|", &[i(3), i(4), i(3), i(4), i(-3), i(4)]),
            "  4|4  |4  |"
        );
        assert_eq!(
            sprintf(
                "%q|%c|%U|%#U|%q|%q|",
                &[i(65), i(66), i(67), i(68), i(39), i(34)]
            ),
            r#"'A'|B|U+0043|U+0044 'D'|'\''|'"'|"#
        );
        assert_eq!(
            sprintf(
                "%e|%E|%.2e|%+e|%e|",
                &[f(1.5), f(1234.5678), f(0.000123), f(2.0), f(-1e-300)]
            ),
            "1.500000e+00|1.234568E+03|1.23e-04|+2.000000e+00|-1.000000e-300|"
        );
        assert_eq!(
            sprintf(
                "%+d|%#x|%#X|%#o|%x|%08.3f|%+.1f|%-+5d|%+05d|",
                &[
                    i(5),
                    i(255),
                    i(255),
                    i(8),
                    i(-255),
                    f(2.46802),
                    f(2.0),
                    i(7),
                    i(42)
                ]
            ),
            "+5|0xff|0XFF|010|-ff|0002.468|+2.0|+7   |+0042|"
        );
        assert_eq!(
            sprintf("%*d|", &[Value::Str("a".into()), i(1)]),
            "%!(BADWIDTH)1|"
        );
        assert_eq!(sprintf("%c|", &[i(-1)]), "\u{FFFD}|");
    }
}
