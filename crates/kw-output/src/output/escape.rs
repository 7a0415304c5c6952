//! Server text on its way to a terminal: shown, never obeyed. Anything a server sends (a name, a
//! cell, a field under `--diff`, the version string) can hold bytes a terminal acts on: ESC and
//! the 8-bit CSI U+009B start sequences that move the cursor, retitle the window or write the
//! clipboard (OSC 52); BEL rings; backspace and CR overwrite what was printed.
//!
//! kubectl's `terminalEscaper` turns ESC into `^[` and CR into `\r`, and nothing else; kw does
//! the same, so its output is byte-for-byte kubectl's for any text without control characters,
//! and goes further for the rest: every other C0 control but tab and newline in caret notation
//! (BEL `^G`, backspace `^H`), DEL as `^?`, and the C1 controls U+0080–U+009F as `\u{9b}`.
//! (Tab and newline are the table layout's own business: cells are cut at a line break.)
//! A line kw writes whole from server text (`rollout status`, `wait`, `-o name`) goes through
//! [`write_escaped_line`], which writes a line break as `\n` too: a name holding one cannot
//! forge a line of its own.

use std::borrow::Cow;

/// Append `text` to `out` with terminal controls written out as text.
pub fn write_escaped(out: &mut Vec<u8>, text: &str) {
    write_shown(out, text, false);
}

/// Append `text` to `out` as part of one line: as [`write_escaped`], and a line break as `\n`.
pub fn write_escaped_line(out: &mut Vec<u8>, text: &str) {
    write_shown(out, text, true);
}

/// `text` as [`write_escaped_line`] writes it; borrowed when it has nothing to escape.
pub fn escaped_line(text: &str) -> Cow<'_, str> {
    if !text.contains('\n') && !needs_escaping(text.as_bytes()) {
        return Cow::Borrowed(text);
    }
    let mut out = Vec::with_capacity(text.len() + 8);
    write_escaped_line(&mut out, text);
    // Only ASCII replaced whole characters of valid UTF-8: still valid.
    Cow::Owned(String::from_utf8_lossy(&out).into_owned())
}

fn write_shown(out: &mut Vec<u8>, text: &str, one_line: bool) {
    let bytes = text.as_bytes();
    let mut start = 0;
    let mut index = 0;
    while index < bytes.len() {
        let byte = bytes[index];
        let (replacement, len): (Cow<'static, [u8]>, usize) = match byte {
            b'\n' if one_line => (Cow::Borrowed(b"\\n"), 1),
            b'\t' | b'\n' => {
                index += 1;
                continue;
            }
            // kubectl's two, as kubectl writes them.
            0x1b => (Cow::Borrowed(b"^["), 1),
            b'\r' => (Cow::Borrowed(b"\\r"), 1),
            0x00..=0x1f => (Cow::Owned(vec![b'^', byte + 0x40]), 1),
            0x7f => (Cow::Borrowed(b"^?"), 1),
            // U+0080..=U+009F are 0xC2 0x80..=0x9F in UTF-8.
            0xc2 if matches!(bytes.get(index + 1), Some(0x80..=0x9f)) => (
                Cow::Owned(format!("\\u{{{:x}}}", bytes[index + 1]).into_bytes()),
                2,
            ),
            _ => {
                index += 1;
                continue;
            }
        };
        out.extend_from_slice(&bytes[start..index]);
        out.extend_from_slice(&replacement);
        index += len;
        start = index;
    }
    out.extend_from_slice(&bytes[start..]);
}

/// `text` as `write_escaped` writes it; borrowed when it has nothing to escape.
pub fn escaped(text: &str) -> Cow<'_, str> {
    if !needs_escaping(text.as_bytes()) {
        return Cow::Borrowed(text);
    }
    let mut out = Vec::with_capacity(text.len() + 8);
    write_escaped(&mut out, text);
    // Only ASCII replaced whole characters of valid UTF-8: still valid.
    Cow::Owned(String::from_utf8_lossy(&out).into_owned())
}

/// Whether `bytes` hold anything `write_escaped` would change.
pub fn needs_escaping(bytes: &[u8]) -> bool {
    bytes.iter().enumerate().any(|(index, &byte)| match byte {
        b'\t' | b'\n' => false,
        0x00..=0x1f | 0x7f => true,
        0xc2 => matches!(bytes.get(index + 1), Some(0x80..=0x9f)),
        _ => false,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn shown(text: &str) -> String {
        let mut out = Vec::new();
        write_escaped(&mut out, text);
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn kubectl_escapes_stay_as_kubectl_writes_them() {
        assert_eq!(shown("a\x1b[31mb\rc"), "a^[[31mb\\rc");
        assert_eq!(shown("plain\ttext é ü ẞ 😀"), "plain\ttext é ü ẞ 😀");
        assert!(matches!(escaped("web-1"), Cow::Borrowed("web-1")));
    }

    #[test]
    fn bell_backspace_and_c1_controls_are_shown() {
        assert_eq!(shown("ding\x07 x\x08y \x00\x7f"), "ding^G x^Hy ^@^?");
        assert_eq!(
            shown("\u{9b}31m\u{80}\u{9f}\u{a0}"),
            "\\u{9b}31m\\u{80}\\u{9f}\u{a0}"
        );
        assert_eq!(escaped("v1.32\x1b]52;c;aGk=\x07"), "v1.32^[]52;c;aGk=^G");
        for text in ["\x07", "\x08", "\u{85}", "\x1b", "\r", "\x7f"] {
            assert!(needs_escaping(text.as_bytes()), "{text:?}");
        }
        for text in ["\t", "\n", "\u{a0}", "Ÿ", "é"] {
            assert!(!needs_escaping(text.as_bytes()), "{text:?}");
        }
    }

    #[test]
    fn a_line_break_in_one_line_is_shown_too() {
        let mut out = Vec::new();
        write_escaped_line(&mut out, "web\nforged line\x1b]0;t\x07\t\r");
        assert_eq!(out, b"web\\nforged line^[]0;t^G\t\\r");
        assert!(matches!(escaped_line("web-1"), Cow::Borrowed("web-1")));
        assert_eq!(escaped_line("a\nb"), "a\\nb");
        assert_eq!(escaped_line("\u{9b}2J"), "\\u{9b}2J");
    }

    #[test]
    fn escaped_text_has_no_control_character_left() {
        let every: String = (0u32..0x200).filter_map(char::from_u32).collect();
        let out = escaped(&every);
        assert!(
            !out.chars()
                .any(|c| c.is_control() && c != '\t' && c != '\n'),
            "{out:?}"
        );
    }
}
