//! A validating JSON scanner that builds no values: it finds where a value ends, walks an
//! object's members and an array's elements, and checks on the way everything serde_json would
//! (UTF-8, string escapes and control characters, number and literal grammar, nesting), so that
//! bytes it passes are valid JSON. `decode` uses it to find the few fields kw reads in a watch
//! event and to pass the rest through untouched.
//!
//! It owns the grammar, never the shapes: it knows nothing of events, objects or tables. It
//! never recurses (nesting lives in a bit stack), so no input can overflow the stack, and it
//! never panics on input: every position it reads is bounds-checked. Its one `unsafe` block is
//! the SSE2 compare in `special_mask`, which reads a borrowed sixteen-byte array.

/// Where the scanner found input that is not JSON.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error("invalid JSON at byte {offset}")]
pub struct Malformed {
    pub offset: usize,
}

/// A text being scanned. Positions are byte offsets into it.
#[derive(Debug, Clone, Copy)]
pub struct Scanner<'a> {
    text: &'a str,
    /// No byte below 0x20 anywhere: strings then need no control-character check.
    plain: bool,
}

/// An object being walked: the position after its last member (or its `{`).
#[derive(Debug)]
pub struct Members {
    pos: usize,
    first: bool,
    done: bool,
}

/// An array being walked.
#[derive(Debug)]
pub struct Elements {
    pos: usize,
    first: bool,
    done: bool,
}

/// One member of an object: its key as written (between the quotes), and where its value starts.
#[derive(Debug, Clone, Copy)]
pub struct Member<'a> {
    pub key: &'a str,
    /// The key holds a backslash escape, so `key` is not its decoded text.
    pub key_escaped: bool,
    pub value: usize,
}

impl<'a> Scanner<'a> {
    /// A whole frame from the network: checked to be UTF-8 here, once, so that strings are
    /// scanned only for their quotes and escapes (and control characters, when the frame has
    /// any byte below 0x20 at all).
    pub fn frame(bytes: &'a [u8]) -> Result<Scanner<'a>, Malformed> {
        let text = std::str::from_utf8(bytes).map_err(|e| Malformed {
            offset: e.valid_up_to(),
        })?;
        Ok(Scanner {
            text,
            plain: min_byte(bytes) >= 0x20,
        })
    }

    /// Text already known to be UTF-8 (a part of a frame checked before); control characters
    /// are looked for as strings are scanned.
    pub fn text(text: &'a str) -> Scanner<'a> {
        Scanner { text, plain: false }
    }

    pub fn bytes(&self) -> &'a [u8] {
        self.text.as_bytes()
    }

    /// The text between two positions the scanner returned (both at ASCII bytes).
    pub fn slice(&self, from: usize, to: usize) -> Result<&'a str, Malformed> {
        self.text.get(from..to).ok_or(Malformed { offset: from })
    }

    pub fn byte(&self, pos: usize) -> Option<u8> {
        self.bytes().get(pos).copied()
    }

    /// The first position at or after `pos` that is not JSON whitespace.
    #[inline]
    pub fn skip_ws(&self, mut pos: usize) -> usize {
        let bytes = self.bytes();
        while let Some(b' ' | b'\n' | b'\r' | b'\t') = bytes.get(pos) {
            pos += 1;
        }
        pos
    }

    /// Checks that only whitespace follows `pos`.
    pub fn finish(&self, pos: usize) -> Result<(), Malformed> {
        let end = self.skip_ws(pos);
        if end == self.text.len() {
            Ok(())
        } else {
            Err(Malformed { offset: end })
        }
    }

    /// Starts walking the object whose `{` is at `pos`.
    pub fn members(&self, pos: usize) -> Result<Members, Malformed> {
        if self.byte(pos) != Some(b'{') {
            return Err(Malformed { offset: pos });
        }
        Ok(Members {
            pos: pos + 1,
            first: true,
            done: false,
        })
    }

    /// The next member of `object`, or `None` after its `}` (then `object.end()` is the
    /// position after it). The caller moves past the value with `Members::skip_to` (usually
    /// with `value_end`) before asking for the next member.
    pub fn member(&self, object: &mut Members) -> Result<Option<Member<'a>>, Malformed> {
        if object.done {
            return Ok(None);
        }
        let mut pos = self.skip_ws(object.pos);
        match (self.byte(pos), object.first) {
            (Some(b'}'), _) => {
                object.done = true;
                object.pos = pos + 1;
                return Ok(None);
            }
            (Some(b','), false) => pos = self.skip_ws(pos + 1),
            (_, false) => return Err(Malformed { offset: pos }),
            (_, true) => {}
        }
        object.first = false;
        if self.byte(pos) != Some(b'"') {
            return Err(Malformed { offset: pos });
        }
        let (end, key_escaped) = self.string_end(pos)?;
        let key = self.slice(pos + 1, end - 1)?;
        let colon = self.skip_ws(end);
        if self.byte(colon) != Some(b':') {
            return Err(Malformed { offset: colon });
        }
        let value = self.skip_ws(colon + 1);
        object.pos = value;
        Ok(Some(Member {
            key,
            key_escaped,
            value,
        }))
    }

    /// Starts walking the array whose `[` is at `pos`.
    pub fn elements(&self, pos: usize) -> Result<Elements, Malformed> {
        if self.byte(pos) != Some(b'[') {
            return Err(Malformed { offset: pos });
        }
        Ok(Elements {
            pos: pos + 1,
            first: true,
            done: false,
        })
    }

    /// Where the next element of `array` starts, or `None` after its `]`.
    pub fn element(&self, array: &mut Elements) -> Result<Option<usize>, Malformed> {
        if array.done {
            return Ok(None);
        }
        let mut pos = self.skip_ws(array.pos);
        match (self.byte(pos), array.first) {
            (Some(b']'), _) => {
                array.done = true;
                array.pos = pos + 1;
                return Ok(None);
            }
            (Some(b','), false) => pos = self.skip_ws(pos + 1),
            (_, false) => return Err(Malformed { offset: pos }),
            (_, true) => {}
        }
        array.first = false;
        array.pos = pos;
        Ok(Some(pos))
    }

    /// Checks the value that starts at `pos` (no whitespace before it) and returns the position
    /// just after it. Builds nothing; nests as deep as the input does without recursing.
    pub fn value_end(&self, mut pos: usize) -> Result<usize, Malformed> {
        let bytes = self.bytes();
        let mut stack = Nesting::default();
        loop {
            // A value starts at `pos`.
            match bytes.get(pos) {
                Some(b'"') => pos = self.string_end(pos)?.0,
                Some(b'{') => {
                    let inner = self.skip_ws(pos + 1);
                    if bytes.get(inner) == Some(&b'}') {
                        pos = inner + 1;
                    } else {
                        stack.push(true);
                        pos = self.key_and_colon(inner)?;
                        continue;
                    }
                }
                Some(b'[') => {
                    let inner = self.skip_ws(pos + 1);
                    if bytes.get(inner) == Some(&b']') {
                        pos = inner + 1;
                    } else {
                        stack.push(false);
                        pos = inner;
                        continue;
                    }
                }
                Some(b'-' | b'0'..=b'9') => pos = number_end(bytes, pos)?,
                Some(b't') => pos = literal_end(bytes, pos, b"true")?,
                Some(b'f') => pos = literal_end(bytes, pos, b"false")?,
                Some(b'n') => pos = literal_end(bytes, pos, b"null")?,
                _ => return Err(Malformed { offset: pos }),
            }
            // A value ended at `pos`: close what it ends, or go on to the next one.
            loop {
                let Some(in_object) = stack.top() else {
                    return Ok(pos);
                };
                pos = self.skip_ws(pos);
                match bytes.get(pos) {
                    Some(b',') => {
                        let next = self.skip_ws(pos + 1);
                        pos = if in_object {
                            self.key_and_colon(next)?
                        } else {
                            next
                        };
                        break;
                    }
                    Some(b'}') if in_object => {
                        stack.pop();
                        pos += 1;
                    }
                    Some(b']') if !in_object => {
                        stack.pop();
                        pos += 1;
                    }
                    _ => return Err(Malformed { offset: pos }),
                }
            }
        }
    }

    /// A key at `pos`, its colon, and the whitespace before the value: returns where it starts.
    fn key_and_colon(&self, pos: usize) -> Result<usize, Malformed> {
        if self.byte(pos) != Some(b'"') {
            return Err(Malformed { offset: pos });
        }
        let colon = self.skip_ws(self.string_end(pos)?.0);
        if self.byte(colon) != Some(b':') {
            return Err(Malformed { offset: colon });
        }
        Ok(self.skip_ws(colon + 1))
    }

    /// The string whose opening quote is at `pos`: the position after its closing quote, and
    /// whether it holds an escape. Escapes are checked as serde_json checks them when skipping
    /// (`\u` takes any four hex digits).
    ///
    /// Sixteen bytes at a time: one mask of the bytes that matter (quotes, backslashes, and
    /// control characters unless the text is plain), then every escape in those sixteen bytes
    /// handled from the mask without loading them again.
    #[inline(always)]
    pub fn string_end(&self, pos: usize) -> Result<(usize, bool), Malformed> {
        let bytes = self.bytes();
        let mut pos = pos + 1;
        let mut escaped = false;
        loop {
            let Some(block) = bytes.get(pos..pos + 16) else {
                return self.string_end_tail(pos, escaped);
            };
            let Ok(block) = <&[u8; 16]>::try_from(block) else {
                return self.string_end_tail(pos, escaped);
            };
            let mut mask = special_mask(block, !self.plain);
            // Where scanning resumes once this block's marks are used up.
            let mut next = pos + 16;
            while mask != 0 {
                let at = pos + mask.trailing_zeros() as usize;
                match bytes.get(at) {
                    Some(b'"') => return Ok((at + 1, escaped)),
                    Some(b'\\') => {
                        escaped = true;
                        let after = self.escape_end(at)?;
                        if after >= pos + 16 {
                            next = after;
                            break;
                        }
                        // Drop the marks up to the end of the escape (an escaped quote or
                        // backslash is not a mark of its own).
                        mask &= u32::MAX << (after - pos);
                    }
                    _ => return Err(Malformed { offset: at }),
                }
            }
            pos = next;
        }
    }

    /// `string_end` for the last few bytes of the text, one at a time.
    fn string_end_tail(
        &self,
        mut pos: usize,
        mut escaped: bool,
    ) -> Result<(usize, bool), Malformed> {
        let bytes = self.bytes();
        loop {
            match bytes.get(pos) {
                Some(b'"') => return Ok((pos + 1, escaped)),
                Some(b'\\') => {
                    escaped = true;
                    pos = self.escape_end(pos)?;
                }
                Some(&b) if b >= 0x20 => pos += 1,
                // A control character, or the end of the text inside a string.
                _ => return Err(Malformed { offset: pos }),
            }
        }
    }

    /// The escape whose backslash is at `pos`: the position after it.
    #[inline(always)]
    fn escape_end(&self, pos: usize) -> Result<usize, Malformed> {
        let bytes = self.bytes();
        match bytes.get(pos + 1) {
            Some(b'"' | b'\\' | b'/' | b'b' | b'f' | b'n' | b'r' | b't') => Ok(pos + 2),
            Some(b'u') => {
                let digits = bytes.get(pos + 2..pos + 6);
                if digits.is_some_and(|d| d.iter().all(u8::is_ascii_hexdigit)) {
                    Ok(pos + 6)
                } else {
                    Err(Malformed { offset: pos })
                }
            }
            _ => Err(Malformed { offset: pos }),
        }
    }
}

/// A bit per byte of `block` that a string scan must stop at: `"`, `\\`, and control
/// characters when `control` is set. SSE2: one load, three compares and a movemask.
#[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
#[inline(always)]
fn special_mask(block: &[u8; 16], control: bool) -> u32 {
    use std::arch::x86_64::{
        _mm_cmpeq_epi8, _mm_loadu_si128, _mm_max_epu8, _mm_movemask_epi8, _mm_or_si128,
        _mm_set1_epi8,
    };
    // SAFETY: SSE2 is enabled for the whole build (the cfg above: it is part of the x86_64
    // baseline), so the intrinsics are available; the one load reads exactly the sixteen
    // bytes `block` borrows, unaligned as `_mm_loadu_si128` allows.
    unsafe {
        let bytes = _mm_loadu_si128(block.as_ptr().cast());
        let quote = _mm_cmpeq_epi8(bytes, _mm_set1_epi8(b'"' as i8));
        let backslash = _mm_cmpeq_epi8(bytes, _mm_set1_epi8(b'\\' as i8));
        let mut hits = _mm_or_si128(quote, backslash);
        if control {
            // max(b, 0x1F) == 0x1F exactly when b <= 0x1F (unsigned).
            let floor = _mm_set1_epi8(0x1F);
            hits = _mm_or_si128(hits, _mm_cmpeq_epi8(_mm_max_epu8(bytes, floor), floor));
        }
        _mm_movemask_epi8(hits) as u32
    }
}

/// `special_mask` without SSE2.
#[cfg(not(all(target_arch = "x86_64", target_feature = "sse2")))]
#[inline(always)]
fn special_mask(block: &[u8; 16], control: bool) -> u32 {
    special_mask_bytewise(block, control)
}

/// `special_mask` byte by byte: the build's choice without SSE2, and compiled everywhere so
/// that its tests (against the SSE2 version) run on x86_64 too, where CI runs.
#[cfg_attr(
    all(target_arch = "x86_64", target_feature = "sse2", not(test)),
    allow(dead_code)
)]
#[inline(always)]
fn special_mask_bytewise(block: &[u8; 16], control: bool) -> u32 {
    let mut mask = 0u32;
    for (index, &b) in block.iter().enumerate() {
        let hit = (b == b'"') | (b == b'\\') | (control & (b < 0x20));
        mask |= u32::from(hit) << index;
    }
    mask
}

impl Members {
    /// Moves past the current member's value, which ends at `end`.
    pub fn skip_to(&mut self, end: usize) {
        self.pos = end;
    }

    /// The position after the object's `}` once `member` returned `None`.
    pub fn end(&self) -> usize {
        self.pos
    }
}

impl Elements {
    /// Moves past the current element, which ends at `end`.
    pub fn skip_to(&mut self, end: usize) {
        self.pos = end;
    }

    /// The position after the array's `]` once `element` returned `None`.
    pub fn end(&self) -> usize {
        self.pos
    }
}

/// Which containers are open: a bit per level (object or array), 256 levels inline, more on
/// the heap (custom resources may nest thousands deep).
#[derive(Default)]
struct Nesting {
    depth: usize,
    inline: [u64; 4],
    deep: Vec<bool>,
}

impl Nesting {
    #[inline]
    fn push(&mut self, object: bool) {
        if self.depth < 256 {
            let (word, bit) = (self.depth / 64, self.depth % 64);
            if object {
                self.inline[word] |= 1 << bit;
            } else {
                self.inline[word] &= !(1 << bit);
            }
        } else {
            self.deep.push(object);
        }
        self.depth += 1;
    }

    #[inline]
    fn pop(&mut self) {
        if self.depth > 256 {
            self.deep.pop();
        }
        self.depth = self.depth.saturating_sub(1);
    }

    /// Whether the innermost open container is an object; `None` when none is open.
    #[inline]
    fn top(&self) -> Option<bool> {
        let level = self.depth.checked_sub(1)?;
        if level < 256 {
            Some(self.inline[level / 64] & (1 << (level % 64)) != 0)
        } else {
            self.deep.last().copied()
        }
    }
}

/// The smallest byte of `bytes` (0xFF when empty), in a loop the compiler vectorises.
fn min_byte(bytes: &[u8]) -> u8 {
    let mut chunks = bytes.chunks_exact(32);
    let mut least = [0xFFu8; 32];
    for chunk in &mut chunks {
        for (l, &b) in least.iter_mut().zip(chunk) {
            *l = (*l).min(b);
        }
    }
    let tail = chunks.remainder().iter().copied().min().unwrap_or(0xFF);
    least.iter().copied().min().unwrap_or(0xFF).min(tail)
}

/// A number at `pos` by JSON's grammar (serde_json's): `-?(0|[1-9][0-9]*)(.[0-9]+)?([eE][+-]?[0-9]+)?`.
fn number_end(bytes: &[u8], mut pos: usize) -> Result<usize, Malformed> {
    if bytes.get(pos) == Some(&b'-') {
        pos += 1;
    }
    match bytes.get(pos) {
        Some(b'0') => pos += 1,
        Some(b'1'..=b'9') => pos = digits_end(bytes, pos + 1),
        _ => return Err(Malformed { offset: pos }),
    }
    if bytes.get(pos).is_some_and(u8::is_ascii_digit) {
        // A second leading zero.
        return Err(Malformed { offset: pos });
    }
    if bytes.get(pos) == Some(&b'.') {
        pos += 1;
        if !bytes.get(pos).is_some_and(u8::is_ascii_digit) {
            return Err(Malformed { offset: pos });
        }
        pos = digits_end(bytes, pos);
    }
    if let Some(b'e' | b'E') = bytes.get(pos) {
        pos += 1;
        if let Some(b'+' | b'-') = bytes.get(pos) {
            pos += 1;
        }
        if !bytes.get(pos).is_some_and(u8::is_ascii_digit) {
            return Err(Malformed { offset: pos });
        }
        pos = digits_end(bytes, pos);
    }
    Ok(pos)
}

fn digits_end(bytes: &[u8], mut pos: usize) -> usize {
    while bytes.get(pos).is_some_and(u8::is_ascii_digit) {
        pos += 1;
    }
    pos
}

fn literal_end(bytes: &[u8], pos: usize, literal: &[u8]) -> Result<usize, Malformed> {
    if bytes.get(pos..pos + literal.len()) == Some(literal) {
        Ok(pos + literal.len())
    } else {
        Err(Malformed { offset: pos })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every byte value at every position, among backgrounds at the edges of each class, with and
    /// without control characters: the bytewise mask is the SSE2 one (where the build has
    /// SSE2; elsewhere both are the bytewise one, and the expected masks below still decide).
    #[test]
    fn the_bytewise_mask_agrees_with_the_build_s_mask() {
        let special = |b: u8, control: bool| b == b'"' || b == b'\\' || (control && b < 0x20);
        for control in [false, true] {
            for background in [0u8, 0x1f, 0x20, b'"', b'\\', b'a', 0x7f, 0x80, 0xff] {
                for byte in 0..=255u8 {
                    for at in 0..16 {
                        let mut block = [background; 16];
                        block[at] = byte;
                        let expected: u32 = (0..16)
                            .filter(|&i| special(block[i], control))
                            .map(|i| 1u32 << i)
                            .sum();
                        assert_eq!(special_mask_bytewise(&block, control), expected);
                        assert_eq!(special_mask(&block, control), expected);
                    }
                }
            }
        }
    }

    /// The scanner's verdict on a whole text: one value and only whitespace around it.
    fn accepts(text: &[u8]) -> bool {
        let Ok(scanner) = Scanner::frame(text) else {
            return false;
        };
        let start = scanner.skip_ws(0);
        scanner
            .value_end(start)
            .and_then(|end| scanner.finish(end))
            .is_ok()
    }

    /// serde_json's verdict, as it takes a `RawValue` (which, unlike `IgnoredAny`, checks UTF-8).
    fn serde_accepts(text: &[u8]) -> bool {
        serde_json::from_slice::<&serde_json::value::RawValue>(text).is_ok()
    }

    #[test]
    fn agrees_with_serde_json_on_edge_cases() {
        let cases: &[&[u8]] = &[
            b"{}",
            b"[]",
            b" { } ",
            b"{\"a\":[1,2,{\"b\":null}],\"c\":true,\"d\":false}",
            b"\"\\u00e9\\n\\\"\\\\\\/\\b\\f\\r\\t\"",
            b"\"\\ud800\"",
            b"\"\\u12\"",
            b"\"\\x\"",
            b"\"a\tb\"",
            b"\"a\nb\"",
            b"\"\x7f\"",
            b"\"\xc3\xa9\"",
            b"\"\xc3\"",
            b"\"\xff\"",
            b"0",
            b"-0",
            b"-",
            b"01",
            b"-01",
            b"1.",
            b"1.5",
            b".5",
            b"1e5",
            b"1E+5",
            b"1e-",
            b"1e",
            b"-1.25e-10",
            b"tru",
            b"true",
            b"truex",
            b"nul",
            b"null ",
            b"[1,]",
            b"[,1]",
            b"{\"a\":1,}",
            b"{\"a\" 1}",
            b"{\"a\":}",
            b"{1:2}",
            b"[1 2]",
            b"{\"a\":1}}",
            b"[[[]]",
            b"[]]",
            b"\"abc",
            b"\"abc\\",
            b"",
            b"   ",
            b"{}{}",
            b"\x0c{}",
            b"{}\x0c",
            b"[1,\x0c2]",
            b"\"\x00\"",
        ];
        for case in cases {
            assert_eq!(
                accepts(case),
                serde_accepts(case),
                "{:?}",
                String::from_utf8_lossy(case)
            );
        }
    }

    #[test]
    fn nests_deeper_than_the_inline_stack() {
        for depth in [1, 63, 64, 65, 255, 256, 257, 5000] {
            let text = format!("{}{}", "[{\"a\":".repeat(depth), "}]".repeat(depth));
            let text = text.replacen("\"a\":}", "\"a\":1}", 1);
            assert!(accepts(text.as_bytes()), "{depth}");
            let cut = &text.as_bytes()[..text.len() - 1];
            assert!(!accepts(cut), "{depth}");
            let crossed = text.replacen("}]", "]}", 1);
            assert!(!accepts(crossed.as_bytes()), "{depth}");
        }
    }

    #[test]
    fn walks_members_and_elements() {
        let text = br#" {"a" : [1, "x", {}], "b\"c":2 } "#;
        let scanner = Scanner::frame(text).unwrap();
        let mut object = scanner.members(scanner.skip_ws(0)).unwrap();
        let a = scanner.member(&mut object).unwrap().unwrap();
        assert_eq!((a.key, a.key_escaped), ("a", false));
        let mut array = scanner.elements(a.value).unwrap();
        let mut elements = Vec::new();
        while let Some(start) = scanner.element(&mut array).unwrap() {
            let end = scanner.value_end(start).unwrap();
            elements.push(scanner.slice(start, end).unwrap());
            array.skip_to(end);
        }
        assert_eq!(elements, ["1", "\"x\"", "{}"]);
        object.skip_to(array.end());
        let b = scanner.member(&mut object).unwrap().unwrap();
        assert_eq!((b.key, b.key_escaped), ("b\\\"c", true));
        object.skip_to(scanner.value_end(b.value).unwrap());
        assert!(scanner.member(&mut object).unwrap().is_none());
        assert!(scanner.finish(object.end()).is_ok());
    }

    #[test]
    fn finds_string_ends_across_blocks() {
        // Escapes at every offset around the sixteen-byte blocks, long \u escapes across them.
        for pad in 0..40 {
            for escape in ["\\\"", "\\\\", "\\u00e9", "\\n"] {
                let text = format!("\"{}{escape}{}\"", "a".repeat(pad), "b".repeat(pad % 7));
                let scanner = Scanner::frame(text.as_bytes()).unwrap();
                assert_eq!(scanner.string_end(0), Ok((text.len(), true)), "{text}");
                let scanner = Scanner::text(&text);
                assert_eq!(scanner.string_end(0), Ok((text.len(), true)), "{text}");
                let cut = &text[..text.len() - 1];
                assert!(Scanner::text(cut).string_end(0).is_err(), "{cut}");
            }
            let text = format!("\"{}\t\"", "a".repeat(pad));
            assert!(Scanner::text(&text).string_end(0).is_err(), "{text}");
        }
        assert_eq!(min_byte(&[0x50; 100]), 0x50);
        let mut bytes = vec![0x50; 100];
        bytes[70] = 3;
        assert_eq!(min_byte(&bytes), 3);
        bytes[99] = 1;
        assert_eq!(min_byte(&bytes), 1);
    }
}
