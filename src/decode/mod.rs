//! Decoding what the server sends: framing a watch body into JSON values, and reading only the
//! fields kw needs (event type, identity, resourceVersion, table cells) while borrowing the rest
//! from the buffer untouched. Hostile input gives errors with byte offsets, never a panic, and a
//! value larger than the configured limit is refused before it exhausts memory.

pub mod depth;
pub mod scan;

use std::borrow::Cow;
use std::io::{self, Read};

use serde::Deserialize;
use serde_json::value::RawValue;

use crate::decode::scan::{Member, Members, Scanner};
use crate::wire::TableColumnDefinition;

/// Why a watch body could not be framed or decoded.
#[derive(Debug, thiserror::Error)]
pub enum DecodeError {
    #[error("reading the watch stream: {0}")]
    Io(#[from] io::Error),
    #[error("the server sent invalid JSON at byte {offset} of the watch stream: {reason}")]
    InvalidJson { offset: u64, reason: String },
    #[error("the server sent a value of more than {limit} bytes at byte {offset} of the watch stream (the limit is --max-object-size)")]
    TooLarge { offset: u64, limit: usize },
    #[error("the watch stream ended in the middle of a value at byte {offset}")]
    Truncated { offset: u64 },
}

/// Splits a byte stream into newline-terminated JSON values. The API server writes one value per
/// line; a value spread over several lines (a pretty-printing proxy) is joined back together.
pub struct Framer<R> {
    reader: R,
    buf: Vec<u8>,
    /// Start of the first unconsumed byte.
    start: usize,
    /// End of the valid bytes in `buf`.
    end: usize,
    /// End of the frame last returned (exclusive, before its newline); it starts at `start`.
    current: Option<usize>,
    /// Stream offset of `buf[0]`.
    base_offset: u64,
    max_frame: usize,
    eof: bool,
}

/// The buffer a stream starts with: an idle watch (most of a fleet's) never needs more.
const FIRST_CHUNK: usize = 16 * 1024;
/// What the buffer grows to while reads keep filling it (a busy stream), beyond any frame.
const READ_CHUNK: usize = 256 * 1024;
/// The least room `fill` offers a read once the buffer has grown: the client's input buffer
/// (ureq's default, 128 KiB), so one read takes everything the connection has buffered.
const MIN_READ: usize = 128 * 1024;

impl<R: Read> Framer<R> {
    pub fn new(reader: R, max_frame: usize) -> Framer<R> {
        Framer {
            reader,
            buf: vec![0; FIRST_CHUNK],
            start: 0,
            end: 0,
            current: None,
            base_offset: 0,
            max_frame,
            eof: false,
        }
    }

    /// Stream offset of the start of the current frame.
    pub fn offset(&self) -> u64 {
        self.base_offset + self.start as u64
    }

    /// True when a whole further frame is already buffered, so reading it will not block.
    pub fn has_buffered_frame(&self) -> bool {
        let from = self
            .current
            .map_or(self.start, |end| (end + 1).min(self.end));
        memchr::memchr(b'\n', &self.buf[from..self.end]).is_some()
    }

    /// The next non-blank line, without its newline. `Ok(None)` at a clean end of stream.
    pub fn next_frame(&mut self) -> Result<Option<&[u8]>, DecodeError> {
        // Consume the previous frame and its newline.
        if let Some(end) = self.current.take() {
            self.start = (end + 1).min(self.end);
        }
        loop {
            // Skip blank lines (whitespace between values).
            while self.start < self.end && self.buf[self.start].is_ascii_whitespace() {
                self.start += 1;
            }
            if let Some(nl) = memchr::memchr(b'\n', &self.buf[self.start..self.end]) {
                let end = self.start + nl;
                return Ok(Some(self.set_frame(end)?));
            }
            if !self.fill()? {
                if self.start < self.end {
                    // A last value without a trailing newline.
                    let end = self.end;
                    return Ok(Some(self.set_frame(end)?));
                }
                return Ok(None);
            }
        }
    }

    /// Like `next_frame`, with the frame's offset in the stream (for error messages).
    pub fn next_frame_at(&mut self) -> Result<Option<(u64, &[u8])>, DecodeError> {
        self.next_frame()?;
        match self.current {
            Some(end) => {
                let offset = self.offset();
                let mut frame = &self.buf[self.start..end];
                if let [rest @ .., b'\r'] = frame {
                    frame = rest;
                }
                Ok(Some((offset, frame)))
            }
            None => Ok(None),
        }
    }

    /// Grow the current frame by the next line (a value spread over several lines).
    pub fn extend_frame(&mut self) -> Result<Option<&[u8]>, DecodeError> {
        loop {
            let Some(current) = self.current else {
                return self.next_frame();
            };
            let from = (current + 1).min(self.end);
            if let Some(nl) = memchr::memchr(b'\n', &self.buf[from..self.end]) {
                let end = from + nl;
                return Ok(Some(self.set_frame(end)?));
            }
            if !self.fill()? {
                if current + 1 < self.end {
                    let end = self.end;
                    return Ok(Some(self.set_frame(end)?));
                }
                return Ok(None);
            }
        }
    }

    fn set_frame(&mut self, end: usize) -> Result<&[u8], DecodeError> {
        if end - self.start > self.max_frame {
            return Err(DecodeError::TooLarge {
                offset: self.offset(),
                limit: self.max_frame,
            });
        }
        self.current = Some(end);
        let mut frame = &self.buf[self.start..end];
        if let [rest @ .., b'\r'] = frame {
            frame = rest;
        }
        Ok(frame)
    }

    /// Read more bytes; false at end of stream. Keeps the unconsumed bytes (and the current frame)
    /// and refuses to buffer more than one frame's worth beyond the limit.
    fn fill(&mut self) -> Result<bool, DecodeError> {
        if self.eof {
            return Ok(false);
        }
        // Keep room for a whole read: each read is followed by a flush once its frames are
        // printed, so small reads into a nearly full buffer would cost a write each.
        let min_read = MIN_READ.min(self.buf.len() / 2);
        if self.start > 0 && (self.start == self.end || self.buf.len() - self.end < min_read) {
            self.buf.copy_within(self.start..self.end, 0);
            self.base_offset += self.start as u64;
            self.current = self.current.map(|end| end - self.start);
            self.end -= self.start;
            self.start = 0;
        }
        if self.end == self.buf.len() {
            if self.end - self.start > self.max_frame {
                return Err(DecodeError::TooLarge {
                    offset: self.offset(),
                    limit: self.max_frame,
                });
            }
            let grown = (self.buf.len() * 2).min(self.max_frame + READ_CHUNK);
            self.buf.resize(grown.max(self.buf.len() + FIRST_CHUNK), 0);
        }
        let room = self.buf.len() - self.end;
        let n = loop {
            match self.reader.read(&mut self.buf[self.end..]) {
                Ok(n) => break n,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                Err(e) => return Err(DecodeError::Io(e)),
            }
        };
        if n == 0 {
            self.eof = true;
            return Ok(false);
        }
        self.end += n;
        // A read that filled all the room offered: the stream is busy, so the buffer grows to
        // its traffic (up to `READ_CHUNK`) and later reads take more at once.
        if n == room && self.buf.len() < READ_CHUNK {
            self.buf.resize((self.buf.len() * 2).min(READ_CHUNK), 0);
        }
        Ok(true)
    }
}

/// A watch event's envelope: the type, and the object's bytes.
#[derive(Debug, Deserialize)]
pub struct WireEvent<'a> {
    #[serde(rename = "type", borrow)]
    pub kind: Cow<'a, str>,
    #[serde(borrow)]
    pub object: &'a RawValue,
    /// The object's head, when the scanner read it while checking the frame.
    #[serde(skip)]
    pub scanned_head: Option<ObjectHead<'a>>,
}

impl<'a> WireEvent<'a> {
    /// The object's head: as read while the frame was checked, or read now.
    pub fn head(&self) -> Result<ObjectHead<'a>, serde_json::Error> {
        match &self.scanned_head {
            Some(head) => Ok(head.clone()),
            None => object_head(self.object.get()),
        }
    }
}

/// A watch event in table mode, decoded in one pass: the object is a `Table` (one row).
#[derive(Debug, Deserialize)]
pub struct TableEvent<'a> {
    #[serde(rename = "type", borrow)]
    pub kind: Cow<'a, str>,
    #[serde(borrow)]
    pub object: TableBody<'a>,
}

/// Decode one watch event's envelope, checking that the whole frame is valid JSON: the object's
/// bytes are passed on untouched, so nothing invalid may get past this point.
///
/// The scanner (`crate::decode::scan`) checks the frame and finds the two fields without building
/// anything; whatever it does not take on itself (a key or a type with escapes, a duplicate
/// field, anything malformed) goes to serde_json, which decides and words the error.
pub fn wire_event(frame: &[u8]) -> Result<WireEvent<'_>, serde_json::Error> {
    match scanned_event(frame) {
        Some(event) => Ok(event),
        None => checked(frame),
    }
}

/// Decode a watch event in table mode (a one-row `Table`), or fail so the caller takes the
/// general path. Scanned like `wire_event`; serde_json only reads the small parts (the list
/// metadata, column definitions, cells), never the row's object.
pub fn table_event(frame: &[u8]) -> Result<TableEvent<'_>, serde_json::Error> {
    match scanned_table_event(frame) {
        Some(event) => Ok(event),
        None => checked(frame),
    }
}

/// A frame by serde_json, checked whole first: serde_json does not check the UTF-8 of the
/// fields a type ignores, and no frame that is not JSON may get past `decode`.
fn checked<'a, T: Deserialize<'a>>(frame: &'a [u8]) -> Result<T, serde_json::Error> {
    let whole: &RawValue = serde_json::from_slice(frame)?;
    serde_json::from_str(whole.get())
}

/// The envelope by the scanner, or `None` for serde_json to decide.
fn scanned_event(frame: &[u8]) -> Option<WireEvent<'_>> {
    let scanner = Scanner::frame(frame).ok()?;
    let mut fields = Fields::<2>::new(&scanner, scanner.skip_ws(0))?;
    let (mut kind, mut object, mut head) = (None, None, None);
    while let Some((field, value)) = fields.next(envelope_slot)? {
        let end = if field == 0 {
            let end = scanner.value_end(value).ok()?;
            kind = Some(plain_string(&scanner, value, end)?);
            end
        } else {
            let (read, end) = checked_object(&scanner, value)?;
            object = Some(raw_value(scanner.slice(value, end).ok()?)?);
            head = read;
            end
        };
        fields.skip_to(end);
    }
    scanner.finish(fields.end()).ok()?;
    Some(WireEvent {
        kind: Cow::Borrowed(kind?),
        object: object?,
        scanned_head: head,
    })
}

/// A watch event's two fields: `type` and `object`.
fn envelope_slot(key: &str) -> Option<usize> {
    match key {
        "type" => Some(0),
        "object" => Some(1),
        _ => None,
    }
}

/// The value at `pos` checked whole, and where it ends; the head read on the way when it is an
/// object the scanner can read (else `object_head` reads it later, the way it reads any).
fn checked_object<'a>(
    scanner: &Scanner<'a>,
    pos: usize,
) -> Option<(Option<ObjectHead<'a>>, usize)> {
    if scanner.byte(pos) == Some(b'{') {
        if let Some((head, end)) = head_members(scanner, pos, true) {
            return Some((Some(head), end));
        }
    }
    Some((None, scanner.value_end(pos).ok()?))
}

/// A table event by the scanner, or `None` for serde_json to decide.
fn scanned_table_event(frame: &[u8]) -> Option<TableEvent<'_>> {
    let scanner = Scanner::frame(frame).ok()?;
    let mut fields = Fields::<2>::new(&scanner, scanner.skip_ws(0))?;
    let (mut kind, mut object) = (None, None);
    while let Some((field, value)) = fields.next(envelope_slot)? {
        let end = if field == 0 {
            let end = scanner.value_end(value).ok()?;
            kind = Some(plain_string(&scanner, value, end)?);
            end
        } else {
            let (table, end) = scanned_table(&scanner, value)?;
            object = Some(table);
            end
        };
        fields.skip_to(end);
    }
    scanner.finish(fields.end()).ok()?;
    Some(TableEvent {
        kind: Cow::Borrowed(kind?),
        object: object?,
    })
}

/// A `Table` starting at `pos`, and where it ends.
fn scanned_table<'a>(scanner: &Scanner<'a>, pos: usize) -> Option<(TableBody<'a>, usize)> {
    let mut fields = Fields::<4>::new(scanner, pos)?;
    let mut table = TableBody {
        kind: Cow::Borrowed(""),
        metadata: ListMeta::default(),
        column_definitions: None,
        rows: Vec::new(),
    };
    let slot = |key: &str| match key {
        "kind" => Some(0),
        "metadata" => Some(1),
        "columnDefinitions" => Some(2),
        "rows" => Some(3),
        _ => None,
    };
    while let Some((field, value)) = fields.next(slot)? {
        let end = if field == 3 {
            let (rows, end) = scanned_rows(scanner, value)?;
            table.rows = rows;
            end
        } else {
            let end = scanner.value_end(value).ok()?;
            let text = scanner.slice(value, end).ok()?;
            match field {
                0 => table.kind = Cow::Borrowed(plain_string(scanner, value, end)?),
                1 => table.metadata = serde_json::from_str(text).ok()?,
                _ => table.column_definitions = serde_json::from_str(text).ok()?,
            }
            end
        };
        fields.skip_to(end);
    }
    Some((table, fields.end()))
}

/// A Table's `rows` (an array of rows, or null) starting at `pos`, and where it ends.
fn scanned_rows<'a>(scanner: &Scanner<'a>, pos: usize) -> Option<(Vec<RowBody<'a>>, usize)> {
    let mut rows = Vec::new();
    if scanner.byte(pos) == Some(b'n') {
        return Some((rows, scanner.value_end(pos).ok()?));
    }
    let slot = |key: &str| match key {
        "cells" => Some(0),
        "object" => Some(1),
        _ => None,
    };
    let mut elements = scanner.elements(pos).ok()?;
    while let Some(start) = scanner.element(&mut elements).ok()? {
        let mut fields = Fields::<2>::new(scanner, start)?;
        let (mut cells, mut object, mut head) = (None, None, None);
        while let Some((field, value)) = fields.next(slot)? {
            let end = if field == 1 {
                let (read, end) = checked_object(scanner, value)?;
                let text = scanner.slice(value, end).ok()?;
                object = if text == "null" {
                    None
                } else {
                    Some(raw_value(text)?)
                };
                head = read;
                end
            } else {
                let end = scanner.value_end(value).ok()?;
                let text = scanner.slice(value, end).ok()?;
                cells = (text != "null").then(|| raw_value(text)).flatten();
                end
            };
            fields.skip_to(end);
        }
        rows.push(RowBody {
            cells,
            object,
            scanned_head: head,
        });
        elements.skip_to(fields.end());
    }
    Some((rows, elements.end()))
}

/// The members of one object, as the fields kw reads: the walk that matches each key to its
/// field (one of `N`, by the caller's `slot`), refuses a field given twice, and checks and skips
/// the members kw does not read. `None` from it (an escaped key, which might spell a field; a
/// field given twice; malformed JSON) leaves the whole value to serde_json, which decides and
/// words the error.
///
/// Every watch event goes through here (`benches/hot_paths.rs`, BENCHMARKS.md): the caller
/// reads each field's value in its own loop and says where it ended (`skip_to`), and the fields
/// read are bits of one word, so the walk measures as fast as the hand-written walks it
/// replaced, where a closure per field and an array of flags measured 2-4% slower.
struct Fields<'s, 'a, const N: usize> {
    scanner: &'s Scanner<'a>,
    members: Members,
    /// Bit `i` set once field `i` has been read (so `N` is at most 32).
    seen: u32,
}

impl<'s, 'a, const N: usize> Fields<'s, 'a, N> {
    /// The object whose `{` is at `pos`.
    #[inline]
    fn new(scanner: &'s Scanner<'a>, pos: usize) -> Option<Self> {
        Some(Fields {
            scanner,
            members: scanner.members(pos).ok()?,
            seen: 0,
        })
    }

    /// The next field kw reads, as its slot and the position of its value; `Some(None)` after
    /// the object's end.
    #[inline(always)]
    fn next(&mut self, slot: impl Fn(&str) -> Option<usize>) -> Option<Option<(usize, usize)>> {
        while let Some(member) = self.scanner.member(&mut self.members).ok()? {
            let Some(field) = slot(known_key(&member)?) else {
                let end = self.scanner.value_end(member.value).ok()?;
                self.members.skip_to(end);
                continue;
            };
            let bit = 1u32.checked_shl(field as u32)?;
            if self.seen & bit != 0 {
                return None;
            }
            self.seen |= bit;
            return Some(Some((field, member.value)));
        }
        Some(None)
    }

    /// Every field has been read (the rest of the object need not be walked).
    #[inline]
    fn all_read(&self) -> bool {
        self.seen.count_ones() as usize == N
    }

    /// Moves past the value of the field last returned, which ends at `end`.
    #[inline]
    fn skip_to(&mut self, end: usize) {
        self.members.skip_to(end);
    }

    /// Where the object ends, once `next` has returned `Some(None)`.
    #[inline]
    fn end(&self) -> usize {
        self.members.end()
    }
}

/// A member's key, unless it is escaped (then serde_json decodes it: it might spell a field).
fn known_key<'a>(member: &Member<'a>) -> Option<&'a str> {
    (!member.key_escaped).then_some(member.key)
}

/// The text of the string value between `from` and `to`, if it needs no unescaping.
fn plain_string<'a>(scanner: &Scanner<'a>, from: usize, to: usize) -> Option<&'a str> {
    if scanner.byte(from) != Some(b'"') || to < from + 2 {
        return None;
    }
    let text = scanner.slice(from + 1, to - 1).ok()?;
    (!text.contains('\\')).then_some(text)
}

/// serde_json's `&RawValue` for text the scanner has already checked, without checking it
/// again: the value is handed over the way serde_json's own deserializer hands it (a one-entry
/// map under its private key). Should that ever stop working, serde_json checks the text
/// itself (slower, never wrong); a unit test says which of the two runs.
fn raw_value(text: &str) -> Option<&RawValue> {
    use serde::de::value::{BorrowedStrDeserializer, MapDeserializer};
    const TOKEN: &str = "$serde_json::private::RawValue";
    let entry = (
        BorrowedStrDeserializer::<serde_json::Error>::new(TOKEN),
        BorrowedStrDeserializer::<serde_json::Error>::new(text),
    );
    let handed = MapDeserializer::new(std::iter::once(entry));
    match <&RawValue>::deserialize(handed) {
        Ok(raw) => Some(raw),
        Err(_) => serde_json::from_str(text).ok(),
    }
}

/// The parts of an object's `metadata` kw keeps track of.
#[derive(Debug, Clone, Default, Deserialize)]
pub struct MetaHead<'a> {
    #[serde(borrow, default)]
    pub name: Cow<'a, str>,
    #[serde(borrow, default)]
    pub namespace: Cow<'a, str>,
    #[serde(borrow, default)]
    pub uid: Cow<'a, str>,
    #[serde(borrow, default, rename = "resourceVersion")]
    pub resource_version: Cow<'a, str>,
    #[serde(borrow, default)]
    pub annotations: Option<&'a RawValue>,
}

impl MetaHead<'_> {
    /// Whether `annotations` holds `key: "true"` (the end-of-initial-events bookmark).
    pub fn has_true_annotation(&self, key: &str) -> bool {
        let Some(raw) = self.annotations else {
            return false;
        };
        serde_json::from_str::<std::collections::HashMap<Cow<'_, str>, Cow<'_, str>>>(raw.get())
            .map(|m| m.get(key).is_some_and(|v| v == "true"))
            .unwrap_or(false)
    }
}

/// The head of an object: its type and identity; everything else skipped.
#[derive(Debug, Clone, Default, Deserialize)]
pub struct ObjectHead<'a> {
    #[serde(borrow, default)]
    pub kind: Cow<'a, str>,
    #[serde(borrow, default, rename = "apiVersion")]
    pub api_version: Cow<'a, str>,
    #[serde(borrow, default)]
    pub metadata: MetaHead<'a>,
}

/// Read an object's head without walking the rest of it.
///
/// The API server writes `kind`, `apiVersion` and `metadata` first; everything after them
/// (spec, status: most of the bytes) is never looked at here. The caller has already checked
/// that `raw` is valid JSON (it came out of a `RawValue`), so skipping is safe: the bytes
/// are passed on untouched anyway. The scanner reads the head; what it leaves (escaped keys
/// or names, duplicates, a value of an unexpected type) serde_json reads.
pub fn object_head(raw: &str) -> Result<ObjectHead<'_>, serde_json::Error> {
    match scanned_head(raw) {
        Some(head) => Ok(head),
        None => object_head_by_serde(raw),
    }
}

fn scanned_head(raw: &str) -> Option<ObjectHead<'_>> {
    let scanner = Scanner::text(raw);
    head_members(&scanner, scanner.skip_ws(0), false).map(|(head, _)| head)
}

/// The head of the object at `pos`, and (with `whole`) the object checked to its end and where
/// that is; without `whole`, reading stops once kind, apiVersion and metadata are read.
fn head_members<'a>(
    scanner: &Scanner<'a>,
    pos: usize,
    whole: bool,
) -> Option<(ObjectHead<'a>, usize)> {
    let mut fields = Fields::<3>::new(scanner, pos)?;
    let mut head = ObjectHead::default();
    let slot = |key: &str| match key {
        "kind" => Some(0),
        "apiVersion" => Some(1),
        "metadata" => Some(2),
        _ => None,
    };
    while whole || !fields.all_read() {
        let Some((field, value)) = fields.next(slot)? else {
            break;
        };
        let end = if field == 2 {
            let (metadata, end) = scanned_meta(scanner, value)?;
            head.metadata = metadata;
            end
        } else {
            let end = scanner.value_end(value).ok()?;
            let text = Cow::Borrowed(plain_string(scanner, value, end)?);
            if field == 0 {
                head.kind = text;
            } else {
                head.api_version = text;
            }
            end
        };
        fields.skip_to(end);
    }
    Some((head, fields.end()))
}

/// An object's `metadata` starting at `pos`, and where it ends.
fn scanned_meta<'a>(scanner: &Scanner<'a>, pos: usize) -> Option<(MetaHead<'a>, usize)> {
    let mut fields = Fields::<5>::new(scanner, pos)?;
    let mut meta = MetaHead::default();
    let slot = |key: &str| match key {
        "name" => Some(0),
        "namespace" => Some(1),
        "uid" => Some(2),
        "resourceVersion" => Some(3),
        "annotations" => Some(4),
        _ => None,
    };
    while let Some((field, value)) = fields.next(slot)? {
        let end = scanner.value_end(value).ok()?;
        if field == 4 {
            let text = scanner.slice(value, end).ok()?;
            meta.annotations = if text == "null" {
                None
            } else {
                Some(raw_value(text)?)
            };
        } else {
            let text = Cow::Borrowed(plain_string(scanner, value, end)?);
            match field {
                0 => meta.name = text,
                1 => meta.namespace = text,
                2 => meta.uid = text,
                _ => meta.resource_version = text,
            }
        }
        fields.skip_to(end);
    }
    Some((meta, fields.end()))
}

/// `object_head` by serde_json, for whatever the scanner leaves to it (public as the fuzz
/// targets' oracle).
#[doc(hidden)]
pub fn object_head_by_serde(raw: &str) -> Result<ObjectHead<'_>, serde_json::Error> {
    let bytes = raw.as_bytes();
    let mut head = ObjectHead::default();
    let mut pos = skip_ws(bytes, 0);
    if bytes.get(pos) != Some(&b'{') {
        // Not an object: let serde say what it is.
        return serde_json::from_str(raw);
    }
    pos = skip_ws(bytes, pos + 1);
    let (mut have_kind, mut have_version, mut have_metadata) = (false, false, false);
    while bytes.get(pos) == Some(&b'"') && !(have_kind && have_version && have_metadata) {
        let (key, used) = value_at::<Cow<'_, str>>(raw, pos)?;
        pos = skip_ws(bytes, pos + used);
        if bytes.get(pos) != Some(&b':') {
            return serde_json::from_str(raw);
        }
        pos = skip_ws(bytes, pos + 1);
        let used = match key.as_ref() {
            "kind" => {
                let (kind, used) = value_at(raw, pos)?;
                head.kind = kind;
                have_kind = true;
                used
            }
            "apiVersion" => {
                let (version, used) = value_at(raw, pos)?;
                head.api_version = version;
                have_version = true;
                used
            }
            "metadata" => {
                let (metadata, used) = value_at(raw, pos)?;
                head.metadata = metadata;
                have_metadata = true;
                used
            }
            _ => value_at::<serde::de::IgnoredAny>(raw, pos)?.1,
        };
        pos = skip_ws(bytes, pos + used);
        if bytes.get(pos) == Some(&b',') {
            pos = skip_ws(bytes, pos + 1);
        }
    }
    Ok(head)
}

/// Deserialize one value starting at `pos`; returns it and how many bytes it took.
fn value_at<'a, T: Deserialize<'a>>(
    raw: &'a str,
    pos: usize,
) -> Result<(T, usize), serde_json::Error> {
    let mut values = serde_json::Deserializer::from_str(&raw[pos..]).into_iter::<T>();
    match values.next() {
        Some(Ok(value)) => Ok((value, values.byte_offset())),
        Some(Err(e)) => Err(e),
        // Only whitespace left where a value should be.
        None => serde_json::from_str::<T>("").map(|v| (v, 0)),
    }
}

fn skip_ws(bytes: &[u8], mut pos: usize) -> usize {
    while bytes.get(pos).is_some_and(|b| b.is_ascii_whitespace()) {
        pos += 1;
    }
    pos
}

/// `metadata` of a list or a Table.
#[derive(Debug, Default, Deserialize)]
pub struct ListMeta<'a> {
    #[serde(borrow, default, rename = "resourceVersion")]
    pub resource_version: Cow<'a, str>,
    #[serde(borrow, default, rename = "continue")]
    pub continue_token: Option<Cow<'a, str>>,
}

/// A LIST response in JSON form: items borrowed, untouched.
#[derive(Debug, Deserialize)]
pub struct ListBody<'a> {
    #[serde(borrow, default)]
    pub metadata: ListMeta<'a>,
    #[serde(borrow, default, deserialize_with = "null_as_empty")]
    pub items: Vec<&'a RawValue>,
}

/// One row of a server-printed `Table`.
#[derive(Debug, Deserialize)]
pub struct RowBody<'a> {
    /// The cells as the server sent them, decoded by `printed_cells`: a row may hold millions of
    /// cells (a hostile server's), and only those under a column are ever printed.
    #[serde(borrow, default)]
    pub cells: Option<&'a RawValue>,
    #[serde(borrow, default)]
    pub object: Option<&'a RawValue>,
    /// The object's head, when the scanner read it while checking the frame.
    #[serde(skip)]
    pub scanned_head: Option<ObjectHead<'a>>,
}

impl<'a> RowBody<'a> {
    /// The row object's head: as read while the frame was checked, or read now.
    pub fn head(&self) -> Result<ObjectHead<'a>, serde_json::Error> {
        match &self.scanned_head {
            Some(head) => Ok(head.clone()),
            None => object_head(self.object.unwrap_or(RawValue::NULL).get()),
        }
    }

    /// The row's size as `--max-object-size` counts it: its cells and its object.
    pub fn size(&self) -> usize {
        let len = |raw: Option<&RawValue>| raw.map_or(0, |raw| raw.get().len());
        len(self.cells).saturating_add(len(self.object))
    }

    /// The first `columns` cells, decoded; the rest are checked and skipped without being built
    /// (kubectl drops cells beyond the column definitions too), so memory follows what is printed.
    pub fn printed_cells(
        &self,
        columns: usize,
    ) -> Result<Vec<serde_json::Value>, serde_json::Error> {
        use serde::de::DeserializeSeed;
        let Some(raw) = self.cells else {
            return Ok(Vec::new());
        };
        let mut deserializer = serde_json::Deserializer::from_str(raw.get());
        let cells = FirstCells(columns).deserialize(&mut deserializer)?;
        deserializer.end()?;
        Ok(cells)
    }
}

/// Reads a JSON array keeping its first `.0` elements and skipping the others.
struct FirstCells(usize);

impl<'de> serde::de::DeserializeSeed<'de> for FirstCells {
    type Value = Vec<serde_json::Value>;

    fn deserialize<D: serde::Deserializer<'de>>(self, d: D) -> Result<Self::Value, D::Error> {
        d.deserialize_seq(self)
    }
}

impl<'de> serde::de::Visitor<'de> for FirstCells {
    type Value = Vec<serde_json::Value>;

    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str("an array of cells")
    }

    fn visit_seq<A: serde::de::SeqAccess<'de>>(self, mut seq: A) -> Result<Self::Value, A::Error> {
        // Never trust a length the input gives: grow with what is actually kept.
        let mut cells = Vec::with_capacity(self.0.min(64));
        while cells.len() < self.0 {
            match seq.next_element()? {
                Some(cell) => cells.push(cell),
                None => return Ok(cells),
            }
        }
        while seq.next_element::<serde::de::IgnoredAny>()?.is_some() {}
        Ok(cells)
    }
}

/// A `meta.k8s.io/v1` `Table`: a LIST response, or one watch event's object.
#[derive(Debug, Deserialize)]
pub struct TableBody<'a> {
    #[serde(borrow, default)]
    pub kind: Cow<'a, str>,
    #[serde(borrow, default)]
    pub metadata: ListMeta<'a>,
    #[serde(default, rename = "columnDefinitions")]
    pub column_definitions: Option<Vec<TableColumnDefinition>>,
    #[serde(borrow, default, deserialize_with = "null_as_empty")]
    pub rows: Vec<RowBody<'a>>,
}

fn null_as_empty<'de, D, T>(deserializer: D) -> Result<Vec<T>, D::Error>
where
    D: serde::Deserializer<'de>,
    T: Deserialize<'de>,
{
    Ok(Option::<Vec<T>>::deserialize(deserializer)?.unwrap_or_default())
}

/// A whole object as a `Value`, however deeply it nests. Custom resources may nest far beyond
/// serde_json's default limit of 128 levels (the API server's own decoder allows 10,000), and
/// such an object must print like any other: the recursion limit is off, and the stack grows on
/// the heap as needed (serde_stacker) instead of overflowing.
pub fn value(text: &str) -> serde_json::Result<serde_json::Value> {
    use serde::Deserialize;
    let mut deserializer = serde_json::Deserializer::from_str(text);
    deserializer.disable_recursion_limit();
    let value =
        serde_json::Value::deserialize(serde_stacker::Deserializer::new(&mut deserializer))?;
    deserializer.end()?;
    Ok(value)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A reader that hands out its bytes in pieces of the given sizes, like a network would.
    struct Pieces {
        data: Vec<u8>,
        sizes: Vec<usize>,
        pos: usize,
        turn: usize,
    }

    impl Read for Pieces {
        fn read(&mut self, out: &mut [u8]) -> io::Result<usize> {
            if self.pos >= self.data.len() {
                return Ok(0);
            }
            let size = self.sizes[self.turn % self.sizes.len()].max(1);
            self.turn += 1;
            let n = size.min(out.len()).min(self.data.len() - self.pos);
            out[..n].copy_from_slice(&self.data[self.pos..self.pos + n]);
            self.pos += n;
            Ok(n)
        }
    }

    fn frames(data: &[u8], sizes: Vec<usize>, max: usize) -> Result<Vec<String>, DecodeError> {
        let mut framer = Framer::new(
            Pieces {
                data: data.to_vec(),
                sizes,
                pos: 0,
                turn: 0,
            },
            max,
        );
        let mut out = Vec::new();
        while let Some(frame) = framer.next_frame()? {
            out.push(String::from_utf8_lossy(frame).into_owned());
        }
        Ok(out)
    }

    #[test]
    fn frames_lines_whatever_the_read_sizes() {
        let data = b"{\"a\":1}\n\n{\"b\":2}\r\n  {\"c\":3}";
        for sizes in [vec![1], vec![2, 3], vec![7], vec![1000]] {
            assert_eq!(
                frames(data, sizes.clone(), 1024).unwrap(),
                vec!["{\"a\":1}", "{\"b\":2}", "{\"c\":3}"],
                "{sizes:?}"
            );
        }
    }

    /// The frames of `lines` lines of `width` bytes read in pieces of `piece` bytes, and how
    /// large the framer's buffer was at the end.
    fn buffer_after(lines: usize, width: usize, piece: usize) -> usize {
        let line = format!("{{\"v\":\"{}\"}}\n", "z".repeat(width - 9));
        let mut framer = Framer::new(
            Pieces {
                data: line.repeat(lines).into_bytes(),
                sizes: vec![piece],
                pos: 0,
                turn: 0,
            },
            1 << 20,
        );
        let mut seen = 0;
        while let Some(frame) = framer.next_frame().unwrap() {
            assert_eq!(frame.len(), width - 1);
            seen += 1;
        }
        assert_eq!(seen, lines);
        framer.buf.len()
    }

    #[test]
    fn the_buffer_grows_to_the_traffic_only() {
        // A trickle (each read one small event) keeps the first buffer: a fleet's idle watch.
        assert_eq!(buffer_after(2000, 300, 300), FIRST_CHUNK);
        // A flood (every read fills the room offered) grows it to the full read size.
        assert_eq!(buffer_after(2000, 300, usize::MAX), READ_CHUNK);
    }

    #[test]
    fn refuses_frames_over_the_limit() {
        let mut data = vec![b'x'; 5000];
        data.push(b'\n');
        match frames(&data, vec![100], 1000) {
            Err(DecodeError::TooLarge { limit: 1000, .. }) => {}
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn keeps_large_frames_under_the_limit() {
        let big = format!("{{\"v\":\"{}\"}}\n{{}}\n", "y".repeat(600_000));
        let got = frames(big.as_bytes(), vec![4096, 65536], 1 << 20).unwrap();
        assert_eq!(got.len(), 2);
        assert_eq!(got[0].len(), 600_008);
    }

    #[test]
    fn joins_values_spread_over_lines() {
        let data = b"{\n  \"a\": 1\n}\n{\"b\":2}\n";
        let mut framer = Framer::new(&data[..], 1024);
        let mut frame = framer.next_frame().unwrap().unwrap().to_vec();
        while serde_json::from_slice::<serde_json::Value>(&frame).is_err() {
            frame = framer.extend_frame().unwrap().unwrap().to_vec();
        }
        assert_eq!(frame, b"{\n  \"a\": 1\n}");
        assert_eq!(framer.next_frame().unwrap().unwrap(), b"{\"b\":2}");
        assert!(framer.next_frame().unwrap().is_none());
    }

    #[test]
    fn knows_when_more_is_buffered() {
        let data = b"{\"a\":1}\n{\"b\":2}\n";
        let mut framer = Framer::new(&data[..], 1024);
        framer.next_frame().unwrap();
        assert!(framer.has_buffered_frame());
        framer.next_frame().unwrap();
        assert!(!framer.has_buffered_frame());
    }

    #[test]
    fn decodes_event_heads_borrowing() {
        let line = br#"{"type":"MODIFIED","object":{"kind":"Pod","apiVersion":"v1","metadata":{"name":"a","namespace":"ns","uid":"u1","resourceVersion":"42","annotations":{"k8s.io/initial-events-end":"true"}},"spec":{"x":[1,2,{"y":null}]}}}"#;
        let event: WireEvent = serde_json::from_slice(line).unwrap();
        assert_eq!(event.kind, "MODIFIED");
        let head: ObjectHead = serde_json::from_str(event.object.get()).unwrap();
        assert!(matches!(head.metadata.name, Cow::Borrowed("a")));
        assert_eq!(head.metadata.resource_version, "42");
        assert!(head
            .metadata
            .has_true_annotation("k8s.io/initial-events-end"));
        assert!(!head.metadata.has_true_annotation("other"));
    }

    #[test]
    fn reads_object_heads_in_any_key_order() {
        let cases = [
            r#"{"kind":"Pod","apiVersion":"v1","metadata":{"name":"a","uid":"u","resourceVersion":"5"},"spec":{"x":1}}"#,
            r#"{"spec":{"x":[1,{"metadata":{"name":"decoy"}}]}, "metadata" : {"name":"a","uid":"u","resourceVersion":"5"},"apiVersion":"v1","kind":"Pod"}"#,
            r#" { "kind" : "Pod" , "apiVersion":"v1", "metadata": {"name":"a","uid":"u","resourceVersion":"5","labels":{"k":"v"}} }"#,
            r#"{"kind":"Pod","apiVersion":"v1","metadata":{"name":"a","uid":"u","resourceVersion":"5","annotations":{"n":"\"}"}}}"#,
        ];
        for raw in cases {
            let fast = object_head(raw).unwrap();
            let slow: ObjectHead = serde_json::from_str(raw).unwrap();
            assert_eq!(fast.kind, "Pod", "{raw}");
            assert_eq!(fast.api_version, "v1", "{raw}");
            assert_eq!(fast.metadata.name, slow.metadata.name, "{raw}");
            assert_eq!(fast.metadata.uid, "u", "{raw}");
            assert_eq!(fast.metadata.resource_version, "5", "{raw}");
        }
        // A list item without kind and apiVersion, and non-objects.
        let item = object_head(r#"{"metadata":{"name":"b"},"status":{}}"#).unwrap();
        assert_eq!((item.kind.as_ref(), item.metadata.name.as_ref()), ("", "b"));
        assert!(object_head("[1]").is_err());
        assert!(object_head(r#"{"metadata":3}"#).is_err());
    }

    #[test]
    fn decodes_tables_with_and_without_columns() {
        let with = br#"{"kind":"Table","apiVersion":"meta.k8s.io/v1","metadata":{"resourceVersion":"7"},"columnDefinitions":[{"name":"Name","type":"string","format":"name","description":"","priority":0}],"rows":[{"cells":["a"],"object":{"metadata":{"name":"a"}}}]}"#;
        let t: TableBody = serde_json::from_slice(with).unwrap();
        assert_eq!(t.column_definitions.unwrap()[0].name, "Name");
        assert_eq!(t.rows[0].printed_cells(1).unwrap(), ["a"]);
        let without = br#"{"kind":"Table","metadata":{"resourceVersion":"8"},"columnDefinitions":null,"rows":null}"#;
        let t: TableBody = serde_json::from_slice(without).unwrap();
        assert!(t.column_definitions.is_none());
        assert!(t.rows.is_empty());
    }

    #[test]
    fn only_the_cells_under_a_column_are_built() {
        let frame = br#"{"kind":"Table","rows":[{"cells":["a",1,{"x":[true]},"skipped",[2]],"object":null}]}"#;
        let t: TableBody = serde_json::from_slice(frame).unwrap();
        let row = &t.rows[0];
        assert_eq!(
            row.printed_cells(2).unwrap(),
            [serde_json::json!("a"), 1.into()]
        );
        assert_eq!(row.printed_cells(9).unwrap().len(), 5);
        assert_eq!(row.size(), r#"["a",1,{"x":[true]},"skipped",[2]]"#.len());
        // Skipped cells are still checked: a row is valid JSON or an error, whatever is shown.
        let bad: TableBody = serde_json::from_str(r#"{"rows":[{"cells":"a"}]}"#).unwrap();
        assert!(bad.rows[0].printed_cells(1).is_err());
        let none: TableBody = serde_json::from_str(r#"{"rows":[{"cells":null}]}"#).unwrap();
        assert!(none.rows[0].printed_cells(1).unwrap().is_empty());
    }

    #[test]
    fn hands_over_raw_values_without_checking_them_again() {
        // The fast hand-over, not serde_json's checking fallback, is what runs: text that is
        // not JSON comes back as it is (decode only ever passes text the scanner checked).
        assert_eq!(raw_value("{not json").map(RawValue::get), Some("{not json"));
    }

    #[test]
    fn scanned_events_match_serde_json() {
        let frame = br#" {"kind":"x","type":"ADDED","object":{"kind":"Pod","metadata":{"name":"a","namespace":"n","uid":"u","resourceVersion":"9","annotations":null}},"extra":[1,{"a":null}]} "#;
        let event = wire_event(frame).unwrap();
        assert!(matches!(event.kind, Cow::Borrowed("ADDED")));
        let slow: WireEvent = serde_json::from_slice(frame).unwrap();
        assert_eq!(event.object.get(), slow.object.get());
        let head = object_head(event.object.get()).unwrap();
        assert_eq!(
            (head.kind.as_ref(), head.metadata.name.as_ref()),
            ("Pod", "a")
        );
        // Read while the frame was checked, the same head.
        let scanned = event.scanned_head.as_ref().unwrap();
        assert_eq!(
            (scanned.kind.as_ref(), scanned.metadata.uid.as_ref()),
            ("Pod", "u")
        );
        assert!(head.metadata.annotations.is_none());
        // Left to serde_json: an escaped key, a duplicate, an escaped type.
        for frame in [
            &br#"{"typ\u0065":"ADDED","object":{}}"#[..],
            br#"{"type":"ADDED","type":"DELETED","object":{}}"#,
            br#"{"type":"ADD\u0045D","object":{}}"#,
        ] {
            let fast = wire_event(frame).map(|e| e.kind.into_owned());
            let slow = serde_json::from_slice::<WireEvent>(frame).map(|e| e.kind.into_owned());
            assert_eq!(fast.ok(), slow.ok(), "{}", String::from_utf8_lossy(frame));
        }
    }

    /// A tiny deterministic generator (xorshift64), so failures reproduce from the seed.
    struct Rng(u64);

    impl Rng {
        fn next(&mut self) -> u64 {
            self.0 ^= self.0 << 13;
            self.0 ^= self.0 >> 7;
            self.0 ^= self.0 << 17;
            self.0
        }

        fn below(&mut self, n: usize) -> usize {
            (self.next() % n.max(1) as u64) as usize
        }
    }

    /// Real objects (the sim's fixtures, taken from a real cluster) as watch events: plain ones
    /// compact and as written, and Table events with the object as the row's.
    fn real_events() -> Vec<Vec<u8>> {
        let fixtures = [
            include_str!("../../crates/kw-sim/src/fixtures/po.json"),
            include_str!("../../crates/kw-sim/src/fixtures/dp.json"),
            include_str!("../../crates/kw-sim/src/fixtures/no.json"),
            include_str!("../../crates/kw-sim/src/fixtures/cm.json"),
            include_str!("../../crates/kw-sim/src/fixtures/crd.json"),
            include_str!("../../crates/kw-sim/src/fixtures/ev.json"),
        ];
        let mut events = Vec::new();
        for text in fixtures {
            let compact = serde_json::from_str::<serde_json::Value>(text)
                .unwrap()
                .to_string();
            for object in [compact.as_str(), text.trim()] {
                events.push(format!(r#"{{"type":"MODIFIED","object":{object}}}"#).into_bytes());
            }
            events.push(
                format!(
                    r#"{{"type":"ADDED","object":{{"kind":"Table","apiVersion":"meta.k8s.io/v1","metadata":{{"resourceVersion":"7"}},"columnDefinitions":[{{"name":"Name","type":"string","format":"name","description":"","priority":0}}],"rows":[{{"cells":["a",1,null,{{"x":[true]}}],"object":{compact}}}]}}}}"#
                )
                .into_bytes(),
            );
        }
        events
    }

    /// One random corruption: a changed byte, a cut, bytes deleted or inserted, a broken escape,
    /// invalid UTF-8.
    fn corrupt(rng: &mut Rng, frame: &mut Vec<u8>) {
        const NASTY: &[&[u8]] = &[
            b"\"",
            b"\\",
            b"{",
            b"}",
            b"[",
            b"]",
            b",",
            b":",
            b"0",
            b"-",
            b"e",
            b".",
            b" ",
            b"\t",
            b"\n",
            b"\x00",
            b"\x1f",
            b"\\x",
            b"\\u12",
            b"\\u",
            b"\\",
            b"\\ud800",
            b"\x80",
            b"\xff",
            b"\xc3",
            b"\xed\xa0\x80",
            b"\xf4\x90\x80\x80",
            b"\xe2\x82",
            b"nul",
            b"tru",
            b"1e",
            b"01",
            b"\"type\":\"DELETED\"",
            b"\"object\":{}",
        ];
        let at = rng.below(frame.len() + 1);
        match rng.below(6) {
            0 if at < frame.len() => frame[at] = rng.next() as u8,
            1 if at < frame.len() => frame[at] ^= 1 << rng.below(8),
            2 => frame.truncate(at),
            3 => {
                let to = (at + 1 + rng.below(8)).min(frame.len());
                frame.drain(at.min(to)..to);
            }
            _ => {
                let nasty = NASTY[rng.below(NASTY.len())];
                frame.splice(at..at, nasty.iter().copied());
            }
        }
    }

    fn assert_same_head(head: &ObjectHead, reference: &ObjectHead, shown: &str) {
        assert_eq!(head.kind, reference.kind, "{shown}");
        assert_eq!(head.api_version, reference.api_version, "{shown}");
        let (m, r) = (&head.metadata, &reference.metadata);
        assert_eq!(
            (&m.name, &m.namespace, &m.uid, &m.resource_version),
            (&r.name, &r.namespace, &r.uid, &r.resource_version),
            "{shown}"
        );
        assert_eq!(
            m.annotations.map(RawValue::get),
            r.annotations.map(RawValue::get),
            "{shown}"
        );
    }

    /// Property test: real events, randomly corrupted, are either refused by the decoders or
    /// accepted exactly when the frame is JSON and serde_json reads it the same way, so nothing
    /// invalid reaches a printer.
    #[test]
    fn corrupted_real_events_never_get_through() {
        let events = real_events();
        let mut rng = Rng(0x2545_F491_4F6C_DD1D);
        let mut accepted = 0;
        for case in 0..6000 {
            let mut frame = events[case % events.len()].clone();
            for _ in 0..=rng.below(3) {
                corrupt(&mut rng, &mut frame);
            }
            let shown = || format!("case {case}: {}", String::from_utf8_lossy(&frame));
            let valid = serde_json::from_slice::<&RawValue>(&frame).is_ok();

            let fast = wire_event(&frame);
            let slow = serde_json::from_slice::<&RawValue>(&frame)
                .and_then(|whole| serde_json::from_str::<WireEvent>(whole.get()));
            assert_eq!(fast.is_ok(), slow.is_ok(), "{}", shown());
            if let (Ok(fast), Ok(slow)) = (&fast, &slow) {
                accepted += 1;
                assert!(valid, "{}", shown());
                assert_eq!(fast.kind, slow.kind, "{}", shown());
                assert_eq!(fast.object.get(), slow.object.get(), "{}", shown());
                let reference = object_head_by_serde(fast.object.get());
                for head in [object_head(fast.object.get()), fast.head()] {
                    assert_eq!(head.is_ok(), reference.is_ok(), "{}", shown());
                    if let (Ok(head), Ok(reference)) = (&head, &reference) {
                        assert_same_head(head, reference, &shown());
                    }
                }
            }

            if let Ok(table) = table_event(&frame) {
                // Accepted: the whole frame is JSON, and it reads as serde_json reads it.
                assert!(valid, "{}", shown());
                let slow = serde_json::from_str::<TableEvent>(std::str::from_utf8(&frame).unwrap());
                let Ok(slow) = slow else {
                    panic!("only the scanner accepted {}", shown());
                };
                let (t, s) = (&table.object, &slow.object);
                assert_eq!((&table.kind, &t.kind), (&slow.kind, &s.kind), "{}", shown());
                assert_eq!(
                    t.metadata.resource_version,
                    s.metadata.resource_version,
                    "{}",
                    shown()
                );
                assert_eq!(
                    t.column_definitions.as_ref().map(Vec::len),
                    s.column_definitions.as_ref().map(Vec::len),
                    "{}",
                    shown()
                );
                assert_eq!(t.rows.len(), s.rows.len(), "{}", shown());
                for (a, b) in t.rows.iter().zip(&s.rows) {
                    assert_eq!(
                        a.cells.map(RawValue::get),
                        b.cells.map(RawValue::get),
                        "{}",
                        shown()
                    );
                    assert_eq!(
                        a.object.map(RawValue::get),
                        b.object.map(RawValue::get),
                        "{}",
                        shown()
                    );
                    let reference = object_head_by_serde(a.object.unwrap_or(RawValue::NULL).get());
                    assert_eq!(a.head().is_ok(), reference.is_ok(), "{}", shown());
                    if let (Ok(head), Ok(reference)) = (a.head(), reference) {
                        assert_same_head(&head, &reference, &shown());
                    }
                }
            }
        }
        // The corruption is not so heavy that nothing is ever accepted (a cut after the last
        // brace, a changed letter inside a string).
        assert!(accepted > 100, "{accepted}");
    }

    /// Property test: arbitrary bytes, split at arbitrary points, never panic the framer or the
    /// decoders, and the buffer never grows far past the frame limit.
    #[test]
    fn arbitrary_input_never_panics() {
        let mut state = 0x9E37_79B9_7F4A_7C15u64;
        let mut next = move || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state
        };
        let pieces: [&[u8]; 12] = [
            b"{\"type\":\"ADDED\",\"object\":{\"metadata\":{\"name\":\"a\"}}}\n",
            b"{\"type\":\"BOOKMARK\",\"object\":{\"kind\":\"Table\",\"rows\":[{}]}}",
            b"\n",
            b"{",
            b"}",
            b"\"",
            b"\\u00",
            b"[[[[",
            b"\r\n",
            b"\xff\xfe",
            b"null",
            b"{\"type\":1,\"object\":[]}\n",
        ];
        for _ in 0..2000 {
            let mut data = Vec::new();
            for _ in 0..(next() % 40) {
                data.extend_from_slice(pieces[(next() % pieces.len() as u64) as usize]);
                if next() % 5 == 0 {
                    data.push((next() % 256) as u8);
                }
            }
            let sizes = vec![(next() % 17 + 1) as usize, (next() % 300 + 1) as usize];
            let max = (next() % 200 + 1) as usize;
            let mut framer = Framer::new(
                Pieces {
                    data,
                    sizes,
                    pos: 0,
                    turn: 0,
                },
                max,
            );
            for _ in 0..200 {
                match framer.next_frame() {
                    Ok(Some(frame)) => {
                        assert!(frame.len() <= max);
                        let _ = table_event(frame);
                        if let Ok(text) = std::str::from_utf8(frame) {
                            let _ = object_head(text);
                        }
                        if let Ok(event) = wire_event(frame) {
                            let _ = object_head(event.object.get());
                            let _ = serde_json::from_str::<TableBody>(event.object.get());
                        }
                        let _ = serde_json::from_slice::<ListBody>(frame);
                    }
                    Ok(None) | Err(_) => break,
                }
                assert!(framer.buf.len() <= max + 3 * READ_CHUNK);
            }
        }
    }
}
