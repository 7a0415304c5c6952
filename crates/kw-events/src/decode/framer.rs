//! The framer: a watch body split into its values, one a line, with the errors of reading it.

use std::io::{self, Read};

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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::decode::{object_head, table_event, wire_event, ListBody, TableBody};

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
