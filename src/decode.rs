//! Decoding what the server sends: framing a watch body into JSON values, and reading only the
//! fields kw needs (event type, identity, resourceVersion, table cells) while borrowing the rest
//! from the buffer untouched. Hostile input gives errors with byte offsets, never a panic, and a
//! value larger than the configured limit is refused before it exhausts memory.

use std::borrow::Cow;
use std::io::{self, Read};

use serde::Deserialize;
use serde_json::value::RawValue;

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

const READ_CHUNK: usize = 256 * 1024;

impl<R: Read> Framer<R> {
    pub fn new(reader: R, max_frame: usize) -> Framer<R> {
        Framer {
            reader,
            buf: vec![0; READ_CHUNK],
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
        if self.start > 0 && (self.start == self.end || self.end == self.buf.len()) {
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
            self.buf.resize(grown.max(self.buf.len() + READ_CHUNK), 0);
        }
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
pub fn wire_event(frame: &[u8]) -> Result<WireEvent<'_>, serde_json::Error> {
    serde_json::from_slice(frame)
}

/// Decode a watch event in table mode (a one-row `Table`), or fail so the caller takes the
/// general path.
pub fn table_event(frame: &[u8]) -> Result<TableEvent<'_>, serde_json::Error> {
    serde_json::from_slice(frame)
}

/// The parts of an object's `metadata` kw keeps track of.
#[derive(Debug, Default, Deserialize)]
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
#[derive(Debug, Default, Deserialize)]
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
/// are passed on untouched anyway.
pub fn object_head(raw: &str) -> Result<ObjectHead<'_>, serde_json::Error> {
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
    #[serde(default)]
    pub cells: Vec<serde_json::Value>,
    #[serde(borrow, default)]
    pub object: Option<&'a RawValue>,
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
        assert_eq!(t.rows[0].cells[0], "a");
        let without = br#"{"kind":"Table","metadata":{"resourceVersion":"8"},"columnDefinitions":null,"rows":null}"#;
        let t: TableBody = serde_json::from_slice(without).unwrap();
        assert!(t.column_definitions.is_none());
        assert!(t.rows.is_empty());
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
                        if let Ok(event) = serde_json::from_slice::<WireEvent>(frame) {
                            let _ = serde_json::from_str::<ObjectHead>(event.object.get());
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
