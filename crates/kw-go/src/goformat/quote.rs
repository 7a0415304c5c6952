//! Go's `strconv.Quote` (what `%q` prints for a string): kubectl quotes names this way in its
//! messages (`deployment "web" successfully rolled out`) and templates' `printf "%q"` does, so
//! kw's lines say them byte for byte as kubectl's do. The one function for every `%q` in kw.
//!
//! Go's rules (`strconv.appendQuotedWith`): `"` and `\` get a backslash; a rune Go calls
//! printable (`strconv.IsPrint`: letters, marks, numbers, punctuation, symbols and the ASCII
//! space) is written as it is; every other one is escaped: `\a \b \f \n \r \t \v`, `\xHH` below
//! U+0020 and for DEL, `\uHHHH` up to U+FFFF and `\UHHHHHHHH` above (lowercase hex). So a
//! format character (U+202E RIGHT-TO-LEFT OVERRIDE, U+200B, U+00AD), a space other than
//! U+0020 (U+00A0, U+2028) and an unassigned or private-use code point come out escaped, never
//! raw. A byte that is not part of valid UTF-8 is `\xHH`.

use unicode_properties::{GeneralCategoryGroup, UnicodeGeneralCategory};

/// `strconv.Quote(text)`.
pub fn quote(text: &str) -> String {
    quote_bytes(text.as_bytes())
}

/// `strconv.Quote` of bytes that may not be valid UTF-8: each invalid byte is `\xHH`.
pub fn quote_bytes(bytes: &[u8]) -> String {
    let mut out = String::with_capacity(bytes.len() + 2);
    out.push('"');
    for chunk in bytes.utf8_chunks() {
        for c in chunk.valid().chars() {
            push_rune(&mut out, c);
        }
        for byte in chunk.invalid() {
            out.push_str(&format!("\\x{byte:02x}"));
        }
    }
    out.push('"');
    out
}

/// Go's `strconv.IsPrint`: categories L, M, N, P and S, and U+0020.
pub fn is_print(c: char) -> bool {
    c == ' '
        || matches!(
            c.general_category_group(),
            GeneralCategoryGroup::Letter
                | GeneralCategoryGroup::Mark
                | GeneralCategoryGroup::Number
                | GeneralCategoryGroup::Punctuation
                | GeneralCategoryGroup::Symbol
        )
}

fn push_rune(out: &mut String, c: char) {
    match c {
        '"' | '\\' => {
            out.push('\\');
            out.push(c);
        }
        c if is_print(c) => out.push(c),
        '\x07' => out.push_str("\\a"),
        '\x08' => out.push_str("\\b"),
        '\x0c' => out.push_str("\\f"),
        '\n' => out.push_str("\\n"),
        '\r' => out.push_str("\\r"),
        '\t' => out.push_str("\\t"),
        '\x0b' => out.push_str("\\v"),
        c if c < ' ' || c == '\x7f' => out.push_str(&format!("\\x{:02x}", c as u32)),
        c if (c as u32) < 0x10000 => out.push_str(&format!("\\u{:04x}", c as u32)),
        c => out.push_str(&format!("\\U{:08x}", c as u32)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Go's own cases (`strconv` documentation and `quotetests`): each input and what
    /// `strconv.Quote` returns for it.
    #[test]
    fn quotes_as_go_documents() {
        let cases: &[(&str, &str)] = &[
            ("\x07\x08\x0c\r\n\t\x0b", r#""\a\b\f\r\n\t\v""#),
            ("\\", r#""\\""#),
            ("\u{263a}", "\"\u{263a}\""),
            ("\u{10ffff}", r#""\U0010ffff""#),
            ("\x04", r#""\x04""#),
            ("!\u{a0}!\u{2000}!\u{3000}!", r#""!\u00a0!\u2000!\u3000!""#),
            ("\x7f", r#""\x7f""#),
            (
                "\"Fran & Freddie's Diner\t\u{263a}\"",
                "\"\\\"Fran & Freddie's Diner\\t\u{263a}\\\"\"",
            ),
            ("", r#""""#),
            ("web", r#""web""#),
        ];
        for (text, quoted) in cases {
            assert_eq!(quote(text), *quoted, "{text:?}");
        }
        assert_eq!(quote_bytes(b"abc\xffdef"), r#""abc\xffdef""#);
        assert_eq!(quote_bytes(b"\xe2\x82"), r#""\xe2\x82""#);
    }

    /// Not printable for Go, so escaped: format characters (Cf), spaces but U+0020 (Z),
    /// controls (Cc, C1 included), private use (Co), unassigned (Cn).
    #[test]
    fn what_go_calls_unprintable_is_escaped() {
        let cases: &[(&str, &str)] = &[
            ("a\u{202e}b", r#""a\u202eb""#),
            ("\u{200b}", r#""\u200b""#),
            ("\u{2028}\u{2029}", r#""\u2028\u2029""#),
            ("soft\u{ad}hyphen", r#""soft\u00adhyphen""#),
            ("\u{feff}", r#""\ufeff""#),
            ("\u{9b}31m", r#""\u009b31m""#),
            ("\u{85}", r#""\u0085""#),
            ("\u{1b}]52;c;aGk=\u{7}", r#""\x1b]52;c;aGk=\a""#),
            ("\u{e000}", r#""\ue000""#),
            ("\u{e0001}", r#""\U000e0001""#),
        ];
        for (text, quoted) in cases {
            assert_eq!(quote(text), *quoted, "{text:?}");
        }
        // Printable: letters, marks, numbers, punctuation, symbols of any script.
        for text in ["é", "ẞ", "日本", "\u{301}", "١٢", "«»", "€", "😀", "a b"] {
            assert_eq!(quote(text), format!("\"{text}\""), "{text:?}");
        }
    }
}
