//! Following one container's log: the stream `kw_client::pod_log` opened, copied to stdout as
//! it comes. With `--prefix` each line starts with its source (`[pod/web-1/app] `); several
//! containers followed at once share stdout a whole line at a time, so their lines never mix.
//! A line with no end in sight (a 10 MB line without a newline) is passed on in pieces of
//! [`PIECE`] bytes: memory stays bounded whatever the container writes.
//!
//! The bytes are kubectl's, unchanged, in a pipe. On a terminal, control characters (ESC, CR,
//! BEL, ...) are shown as text (`^[`, `\r`, `^G`), as kw shows every server text there
//! (`kw_output::output::escape`): a log line cannot move the cursor, retitle the window or
//! write the clipboard.

use std::io::{self, Read, Write};
use std::sync::Mutex;

use kw_output::output::escape;
use kw_output::output::writer::is_closed_pipe;

/// The most of one line held before it is written out unfinished.
pub const PIECE: usize = 64 << 10;

/// How a log reached its end.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Copied {
    /// The server ended the stream.
    Ended,
    /// stdout's reader has gone.
    Closed,
}

/// Where the lines go, and how they are shown.
pub struct LogOut<'a> {
    pub out: &'a Mutex<Box<dyn Write + Send>>,
    /// Show terminal controls as text (stdout is a terminal).
    pub escape: bool,
}

/// Why copying stopped early.
#[derive(Debug, thiserror::Error)]
pub enum CopyError {
    /// Reading the stream failed (the connection broke).
    #[error("{0}")]
    Read(#[source] io::Error),
    /// Writing stdout failed (other than a closed pipe).
    #[error("writing output: {0}")]
    Write(#[source] io::Error),
}

/// Copy `stream` to `out` until it ends, each line after `prefix`.
pub fn copy(stream: &mut dyn Read, prefix: &str, out: &LogOut<'_>) -> Result<Copied, CopyError> {
    let mut buffer = vec![0u8; PIECE];
    let mut line = Vec::new();
    let mut line_started = false;
    loop {
        let read = match stream.read(&mut buffer) {
            Ok(0) => break,
            Ok(read) => read,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => {
                // What arrived is shown before the failure is.
                if emit(out, prefix, &mut line, &mut line_started)? == Copied::Closed {
                    return Ok(Copied::Closed);
                }
                return Err(CopyError::Read(e));
            }
        };
        let mut rest = &buffer[..read];
        while let Some(end) = rest.iter().position(|&b| b == b'\n') {
            line.extend_from_slice(&rest[..=end]);
            rest = &rest[end + 1..];
            if emit(out, prefix, &mut line, &mut line_started)? == Copied::Closed {
                return Ok(Copied::Closed);
            }
            line_started = false;
        }
        line.extend_from_slice(rest);
        if line.len() >= PIECE && emit(out, prefix, &mut line, &mut line_started)? == Copied::Closed
        {
            return Ok(Copied::Closed);
        }
    }
    emit(out, prefix, &mut line, &mut line_started)
}

/// Write `line` (all or part of one), its prefix first if it is the line's start.
fn emit(
    out: &LogOut<'_>,
    prefix: &str,
    line: &mut Vec<u8>,
    started: &mut bool,
) -> Result<Copied, CopyError> {
    if line.is_empty() {
        return Ok(Copied::Ended);
    }
    let mut shown = Vec::with_capacity(prefix.len() + line.len() + 8);
    if !*started {
        shown.extend_from_slice(prefix.as_bytes());
    }
    if out.escape {
        escape::write_escaped(&mut shown, &String::from_utf8_lossy(line));
    } else {
        shown.extend_from_slice(line);
    }
    line.clear();
    *started = true;
    let mut stdout = kw_base::mutex::lock(out.out);
    match stdout.write_all(&shown).and_then(|()| stdout.flush()) {
        Ok(()) => Ok(Copied::Ended),
        Err(e) if is_closed_pipe(&e) => Ok(Copied::Closed),
        Err(e) => Err(CopyError::Write(e)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Arc;

    /// A stdout that keeps what it is given.
    #[derive(Clone, Default)]
    struct Kept(Arc<Mutex<Vec<u8>>>);

    impl Write for Kept {
        fn write(&mut self, bytes: &[u8]) -> io::Result<usize> {
            kw_base::mutex::lock(&self.0).extend_from_slice(bytes);
            Ok(bytes.len())
        }
        fn flush(&mut self) -> io::Result<()> {
            Ok(())
        }
    }

    fn copied(input: &[u8], prefix: &str, escape: bool) -> Vec<u8> {
        let kept = Kept::default();
        let out: Mutex<Box<dyn Write + Send>> = Mutex::new(Box::new(kept.clone()));
        let sink = LogOut { out: &out, escape };
        let mut input = input;
        assert_eq!(copy(&mut input, prefix, &sink).unwrap(), Copied::Ended);
        let bytes = kw_base::mutex::lock(&kept.0).clone();
        bytes
    }

    #[test]
    fn each_line_gets_the_prefix_and_the_last_keeps_its_missing_newline() {
        assert_eq!(
            copied(b"a\nb\nc", "[p/c] ", false),
            b"[p/c] a\n[p/c] b\n[p/c] c"
        );
        assert_eq!(copied(b"", "[p/c] ", false), b"");
    }

    #[test]
    fn controls_are_raw_in_a_pipe_and_shown_on_a_terminal() {
        let hostile = b"\x1b]52;c;aGk=\x07 red\x1b[31m\r\n";
        assert_eq!(copied(hostile, "", false), hostile);
        assert_eq!(copied(hostile, "", true), b"^[]52;c;aGk=^G red^[[31m\\r\n");
    }

    #[test]
    fn a_line_longer_than_a_piece_is_passed_on_in_pieces_with_one_prefix() {
        let long = vec![b'x'; PIECE * 3 + 5];
        let out = copied(&long, "> ", false);
        assert_eq!(out.len(), long.len() + 2);
        assert!(out.starts_with(b"> xx"));
        assert_eq!(out.iter().filter(|&&b| b == b'>').count(), 1);
    }
}
