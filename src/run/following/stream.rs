//! One container's followed log, read once (`follow=true&timestamps=true`) until it ends: each
//! line's timestamp taken off and kept, so a stream reopened (the kubelet rotated the file, the
//! connection dropped, the container restarted) starts from the last line shown
//! (`sinceTime`) and shows no line twice: lines older than it are skipped, and of the lines
//! stamped with that very instant, as many as were shown already.
//!
//! Never silent: the kubelet sends nothing on a quiet container's log, so silence alone cannot
//! tell a stalled stream from a quiet container. A followed stream that brings no byte for the
//! client's idle timeout (75 s, `KW_IDLE_TIMEOUT`: the rule kw holds every watch to) ends
//! `Idle` and is reopened from its last line: for a quiet container one request a minute or so,
//! answered with nothing, no line twice; for a stalled one its lines at most that late.
//!
//! Bounded: a line is cut at `Shown::line_bytes` (with `…`), a stream shows at most `RATE` bytes a
//! second (reading slower: the server holds the rest), a container at most `TOTAL` bytes in
//! the whole run.

use std::io::Read;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant, SystemTime};

use super::shown::Shown;
use crate::plan::LogFilters;
use kw_client::client::Client;
use kw_client::pod_log::{self, LogRequest};

/// Bytes a second one stream may show.
pub const RATE: u64 = 64 << 10;
/// Bytes one container may show in a run.
pub const TOTAL: u64 = 4 << 20;

/// Where a container's log was left: the last line shown, and how much was shown.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Resume {
    /// The timestamp of the last line shown.
    pub last: Option<SystemTime>,
    /// How many lines shown were stamped with `last`.
    pub at_last: u32,
    /// Bytes shown of this container so far.
    pub shown: u64,
    /// Lines read by the last stream (shown, or passed over by a line filter).
    pub lines: u64,
}

/// How a stream ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Ended {
    /// The server ended it, or it broke: it may be reopened.
    Closed,
    /// No byte came for the client's idle timeout: stalled, or a quiet container; reopened.
    Idle,
    /// The container showed `TOTAL`: it is followed no more.
    Full,
    /// The verdict is in, or the Pod was let go.
    Stopped,
}

/// What one stream reads.
pub struct Asked<'a> {
    pub client: &'a Client,
    pub namespace: &'a str,
    pub pod: &'a str,
    pub container: &'a str,
    pub label: &'a str,
    /// The context, in a run over several.
    pub context: Option<&'a str>,
    /// Lines to start with when there is nothing to resume from (`None`: the whole log).
    pub tail: Option<u64>,
    pub deadline: Option<Instant>,
    /// Set once the Pod is let go (deleted, or no longer of the current revision).
    pub let_go: &'a AtomicBool,
    /// Set while the container's lines are not to be shown (`--logs=failed`, healthy now).
    pub quiet: &'a AtomicBool,
    /// The lines shown (`--include`, `--exclude`): the others are read and passed over.
    pub filters: Option<&'a LogFilters>,
}

/// Follow one container's log from `resume` until the stream ends.
pub fn follow(asked: &Asked<'_>, resume: &mut Resume, shown: &Shown) -> Result<Ended, String> {
    let request = LogRequest {
        namespace: asked.namespace.to_string(),
        pod: asked.pod.to_string(),
        container: asked.container.to_string(),
        follow: true,
        timestamps: true,
        tail_lines: asked.tail.filter(|_| resume.last.is_none()),
        since_time: resume
            .last
            .map(|at| humantime::format_rfc3339_nanos(at).to_string()),
        ..LogRequest::default()
    };
    let mut stream = pod_log::open(asked.client, &request, asked.deadline)
        .map_err(|e| crate::report::client_message(&e))?;
    resume.lines = 0;
    let mut lines = Lines::new(shown.line_bytes());
    let mut rate = Rate::new();
    // Lines stamped with the resumed-from instant skipped so far (`u32::MAX` once past them).
    let mut skipped = 0;
    let mut buffer = vec![0u8; 16 << 10];
    let mut last_byte = Instant::now();
    loop {
        let read = match stream.read(&mut buffer) {
            Ok(0) => return Ok(Ended::Closed),
            Ok(read) => read,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            // Failed after the idle timeout's silence: the client's per-read timeout (however
            // the layers below word it).
            Err(_) if last_byte.elapsed() >= asked.client.idle_timeout() => return Ok(Ended::Idle),
            Err(_) => return Ok(Ended::Closed),
        };
        last_byte = Instant::now();
        for line in lines.push(&buffer[..read]) {
            if let Some(ended) = show(asked, &line, resume, shown, &mut rate, &mut skipped) {
                return Ok(ended);
            }
        }
    }
}

/// Show `line` (`TIMESTAMP text`) unless it was shown already; `Some` when following ends.
fn show(
    asked: &Asked<'_>,
    line: &[u8],
    resume: &mut Resume,
    shown: &Shown,
    rate: &mut Rate,
    skipped: &mut u32,
) -> Option<Ended> {
    let (at, text) = stamped(line);
    if let Some(at) = at {
        match resume.last {
            Some(last) if at < last => return None,
            Some(last) if at == last => {
                if *skipped < resume.at_last {
                    *skipped += 1;
                    return None;
                }
                *skipped = u32::MAX;
                resume.at_last += 1;
            }
            _ => {
                resume.last = Some(at);
                resume.at_last = 1;
                *skipped = u32::MAX;
            }
        }
    }
    if asked.let_go.load(Ordering::SeqCst) || asked.quiet.load(Ordering::SeqCst) {
        return Some(Ended::Stopped);
    }
    if resume.shown >= TOTAL {
        return Some(Ended::Full);
    }
    // Passed over after its stamp is counted: a stream reopened resumes past it too.
    if !asked.filters.is_none_or(|f| f.line(text)) {
        resume.lines += 1;
        return None;
    }
    let source = super::shown::Source {
        label: asked.label,
        namespace: asked.namespace,
        pod: asked.pod,
        container: asked.container,
        context: asked.context,
    };
    if !shown.line(&source, text, at) {
        return Some(Ended::Stopped);
    }
    resume.shown += text.len() as u64 + 1;
    resume.lines += 1;
    rate.spent(text.len() as u64 + 1);
    None
}

/// A line's timestamp (RFC 3339, as `timestamps=true` puts it first) and the rest.
fn stamped(line: &[u8]) -> (Option<SystemTime>, &[u8]) {
    let Some(space) = line.iter().position(|&b| b == b' ') else {
        return (None, line);
    };
    let at = std::str::from_utf8(&line[..space])
        .ok()
        .and_then(|ts| humantime::parse_rfc3339_weak(ts).ok());
    match at {
        Some(at) => (Some(at), &line[space + 1..]),
        None => (None, line),
    }
}

/// Whole lines out of what is read, each cut at `bound` bytes.
struct Lines {
    line: Vec<u8>,
    bound: usize,
    /// The line being read passed `bound`: the rest of it is dropped.
    cut: bool,
}

impl Lines {
    fn new(bound: usize) -> Lines {
        Lines {
            line: Vec::new(),
            bound,
            cut: false,
        }
    }

    fn push(&mut self, mut bytes: &[u8]) -> Vec<Vec<u8>> {
        let mut whole = Vec::new();
        while !bytes.is_empty() {
            let end = bytes.iter().position(|&b| b == b'\n');
            let part = &bytes[..end.unwrap_or(bytes.len())];
            if !self.cut {
                let room = self.bound.saturating_sub(self.line.len());
                self.line.extend_from_slice(&part[..part.len().min(room)]);
                if part.len() > room {
                    self.cut = true;
                    self.line.extend_from_slice("…".as_bytes());
                }
            }
            match end {
                Some(end) => {
                    whole.push(std::mem::take(&mut self.line));
                    self.cut = false;
                    bytes = &bytes[end + 1..];
                }
                None => bytes = &[],
            }
        }
        whole
    }
}

/// A stream's pace: at most `RATE` bytes a second, by sleeping (the server holds the rest).
struct Rate {
    since: Instant,
    spent: u64,
}

impl Rate {
    fn new() -> Rate {
        Rate {
            since: Instant::now(),
            spent: 0,
        }
    }

    fn spent(&mut self, bytes: u64) {
        self.spent += bytes;
        if self.spent < RATE {
            return;
        }
        let second = Duration::from_secs(1);
        let elapsed = self.since.elapsed();
        if elapsed < second {
            std::thread::sleep(second - elapsed);
        }
        self.since = Instant::now();
        self.spent = 0;
    }
}

#[cfg(test)]
mod tests {
    use super::super::shown::LINE_BYTES;
    use super::*;

    #[test]
    fn lines_are_whole_and_cut_at_the_bound() {
        let mut lines = Lines::new(LINE_BYTES);
        assert!(lines.push(b"ab").is_empty());
        assert_eq!(lines.push(b"c\nd\n"), vec![b"abc".to_vec(), b"d".to_vec()]);
        let long = vec![b'x'; LINE_BYTES + 10];
        let mut out = lines.push(&long);
        out.extend(lines.push(b"yy\nz\n"));
        assert_eq!(out.len(), 2);
        assert_eq!(out[0].len(), LINE_BYTES + "…".len());
        assert_eq!(out[1], b"z");
    }

    #[test]
    fn a_timestamp_is_taken_off() {
        let (at, text) = stamped(b"2026-12-02T20:01:02.000000005Z hello world");
        assert_eq!(text, b"hello world");
        let at = at.unwrap();
        assert_eq!(
            at.duration_since(SystemTime::UNIX_EPOCH)
                .unwrap()
                .subsec_nanos(),
            5
        );
        assert_eq!(stamped(b"no stamp here"), (None, &b"no stamp here"[..]));
    }
}
