//! The block kw prints on stderr when a wait for `ready` fails (exit 2) or times out (exit 3):
//! every object not ready with its judgement and its last Warning events (and those of what
//! it owns), the object that failed and why, and each crashed container's exit code and the
//! end of its previous log. A CI log then shows the cause without a second command.
//!
//! What it holds is gathered by the runner (`run`); how it reads is decided here only, and
//! `report` puts it before the verdict's `error:` line. Its time (`budget`) and how a log's
//! last lines are kept while it is read (`LogTail`) are decided here too.

use std::collections::VecDeque;
use std::time::Duration;

use kw_events::readiness::{Judgement, State};

use super::grouped::{self, SaidBy, StuckPod};

/// Objects stderr names one by one: in the progress of a wait, its summary and its timeout's
/// lines. Past them, objects are counted (`… and 99900 more`), so that a server that sends new
/// never-ready objects for ever (or a selector over thousands) cannot make stderr grow with
/// them: 100,000 Pods wrote 18.9 MB before.
pub const NAMED_OBJECTS: usize = 100;
/// Warning events kept per object for the summary (the newest).
pub const WARNINGS_PER_OBJECT: usize = 3;
/// Lines of a crashed container's previous log shown.
pub const LOG_LINES: usize = 20;
/// Crashed containers whose logs are read: one request each, when the summary is written.
pub const MAX_LOGS: usize = 10;
/// The summary's own time to read logs in, without `--timeout`: a server that stalls or
/// trickles holds the verdict this long at most.
pub const BUDGET: Duration = Duration::from_secs(5);
/// With `--timeout`, the reserve the summary gets after it: at most this, and at most a tenth
/// of the timeout.
pub const RESERVE: Duration = Duration::from_secs(2);

/// How long the summary may take to read logs, from when it is written: `BUDGET`, or with a
/// `--timeout` its reserve (the verdict still comes at the timeout; the logs follow it).
pub fn budget(timeout: Option<Duration>) -> Duration {
    match timeout {
        Some(timeout) => RESERVE.min(timeout / 10),
        None => BUDGET,
    }
}

/// What the summary says.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Summary {
    /// The object that failed and why (exit 2): `deployment.apps/web (pod/web-1: ...)`.
    pub failed: Option<String>,
    /// What was asked, when it is not readiness (`condition=Ready=True`).
    pub question: Option<String>,
    /// The objects that did not meet what was asked.
    pub not_ready: Vec<NotReady>,
    /// After `--live`'s last frame on a terminal of this width: the compact block, each line
    /// within the width, so that the frame's verdict stays on screen (`Summary::compact`).
    pub compact: Option<usize>,
    pub crashed: Vec<Crashed>,
}

/// An object the wait was still waiting for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NotReady {
    /// `deployment.apps/web`, its context in front in a run over several.
    pub label: String,
    /// `in progress: Updated: 1/3`.
    pub judgement: String,
    /// Its Pods stuck now, and why (`pod/web-1`, `ImagePullBackOff (web): ...`).
    pub stuck: Vec<StuckPod>,
    /// Its last Warning events, and those of what it owns, each message once with the objects
    /// that said it, oldest first (`Warning BackOff: Back-off restarting failed container`).
    pub warnings: Vec<SaidBy>,
}

/// A container that crashed, and the end of its previous log (or of its log, when it never
/// restarted).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Crashed {
    /// `pod/web-1`.
    pub pod: String,
    pub container: String,
    pub exit_code: Option<i64>,
    /// `CrashLoopBackOff`, `OOMKilled`, `Error`.
    pub reason: String,
    /// The last lines of its log, or why it could not be read.
    pub log: Result<Vec<String>, String>,
    /// Whether `log` is the previous instance's (`previous=true`) or the one that terminated
    /// and was never restarted (a Job's Pod).
    pub previous: bool,
}

/// Why an object did not meet what was asked: its judgement, or, when the readiness rules call
/// it ready though the condition asked does not hold (a Completed Pod waited on for
/// `condition=Ready`), the condition and what the object is.
pub fn why_unmet(judgement: Option<&Judgement>, question: Option<&str>) -> String {
    let asked = question.unwrap_or("ready");
    match judgement {
        Some(judgement) if judgement.state != State::Ready => judgement.to_string(),
        Some(judgement) => format!("{asked} not met; {}", judgement.message),
        None => format!("{asked} not met"),
    }
}

impl Crashed {
    fn which(&self) -> &'static str {
        if self.previous {
            "previous log"
        } else {
            "log"
        }
    }

    /// Its line, for the Pods `pods` names (its own, or those whose container ended alike).
    fn header(&self, pods: &str) -> String {
        let code = self.exit_code.map_or_else(
            || "exit code unknown".to_string(),
            |c| format!("exit code {c}"),
        );
        format!(
            "  {pods} container {}: {} ({code})",
            self.container, self.reason
        )
    }
}

impl Summary {
    /// Whether the block would say nothing the verdict's `error:` line does not: the object
    /// that failed alone is that line's (`no matching resources found` is said once).
    pub fn is_empty(&self) -> bool {
        self.not_ready.is_empty() && self.crashed.is_empty()
    }

    /// The block's lines, as printed (terminal controls are escaped when printed): compact
    /// after `--live`'s last frame, else whole.
    pub fn lines(&self) -> Vec<String> {
        match self.compact {
            Some(width) => self.compact_lines(width),
            None => self.whole_lines(),
        }
    }

    /// The block after `--live`'s last frame, which shows every row's judgement already: each
    /// object not met on a line, and each crashed container with its log's last line, at most
    /// `COMPACT_LINES` lines of `width` columns, so that on a 24-line terminal the frame's
    /// verdict is still on screen above it.
    fn compact_lines(&self, width: usize) -> Vec<String> {
        let whole = self.whole_lines();
        let mut lines = vec![whole[0].clone()];
        let objects: Vec<&String> = whole
            .iter()
            .filter(|line| line.starts_with("    ") && !line.starts_with("     "))
            .filter(|line| !line.starts_with("    |") && !line.starts_with("    last lines"))
            .collect();
        // Each crashed container once per telling line of its log (the last that speaks of an
        // error, else the last), those that tell the same grouped.
        let mut crashes: Vec<(&str, String, String, usize)> = Vec::new();
        for crash in &self.crashed {
            let told = match &crash.log {
                Ok(log) => log
                    .iter()
                    .rev()
                    .find(|line| {
                        let line = line.to_ascii_lowercase();
                        ["error", "fatal", "panic", "exception"]
                            .iter()
                            .any(|word| line.contains(word))
                    })
                    .or_else(|| log.iter().rev().find(|line| !line.trim().is_empty()))
                    .map(|line| format!(" | {line}"))
                    .unwrap_or_default(),
                Err(_) => String::new(),
            };
            let what = format!("container {}: {}", crash.container, crash.reason);
            match crashes
                .iter_mut()
                .find(|(_, w, t, _)| *w == what && *t == told)
            {
                Some((_, _, _, more)) => *more += 1,
                None => crashes.push((&crash.pod, what, told, 0)),
            }
        }
        let crashes = crashes
            .into_iter()
            .map(|(pod, what, told, more)| match more {
                0 => format!("  {pod} {what}{told}"),
                more => format!("  {pod} (and {more} more) {what}{told}"),
            });
        let mut said: Vec<String> = objects.into_iter().cloned().collect();
        said.extend(crashes);
        let room = COMPACT_LINES - 1;
        if said.len() > room {
            let more = said.len() - (room - 1);
            said.truncate(room - 1);
            said.push(format!(
                "  … and {more} more (the whole block: stderr to a file)"
            ));
        }
        lines.extend(said);
        lines.into_iter().map(|line| fit(&line, width)).collect()
    }

    fn whole_lines(&self) -> Vec<String> {
        let mut lines = vec!["kw: summary of the wait:".to_string()];
        // The object that failed is said once, where it is listed, with the verdict's cause
        // (its own reason and its stuck Pod's); on a line of its own only when not listed.
        let failed_object = self.failed.as_deref().and_then(|failed| {
            self.not_ready.iter().find_map(|object| {
                let cause = failed.strip_prefix(&object.label)?.strip_prefix(" (")?;
                Some((
                    object.label.as_str(),
                    cause.strip_suffix(')').unwrap_or(cause),
                ))
            })
        });
        if let (Some(failed), None) = (&self.failed, failed_object) {
            lines.push(format!("  failed: {failed}"));
        }
        match (&self.question, self.not_ready.is_empty()) {
            (_, true) => {}
            (None, false) => lines.push("  not ready:".into()),
            (Some(question), false) => lines.push(format!("  not met ({question}):")),
        }
        for (at, object) in self.not_ready.iter().enumerate() {
            if at == NAMED_OBJECTS {
                let more = self.not_ready.len() - at;
                lines.push(format!("    … and {more} more"));
                break;
            }
            // What the groups below say (its stuck Pods and why) is not said on its line.
            let line = match failed_object {
                Some((label, cause)) if label == object.label => {
                    match grouped::without_stuck(cause, &object.stuck) {
                        Some(own) => format!("    {}: failed: {own}", object.label),
                        None => format!("    {}: failed: its Pods are stuck", object.label),
                    }
                }
                _ => match object.judgement.split_once(": ") {
                    Some((state, why)) => match grouped::without_stuck(why, &object.stuck) {
                        Some(own) => format!("    {}: {state}: {own}", object.label),
                        None => format!("    {}: {state}: its Pods are stuck", object.label),
                    },
                    None => format!("    {}: {}", object.label, object.judgement),
                },
            };
            lines.push(line);
            for (depth, line) in grouped::lines(&object.stuck, &object.warnings) {
                lines.push(format!("      {}{line}", "  ".repeat(depth)));
            }
        }
        // Pods of one workload often print the same log, or one that ends the same (a line
        // that counts attempts aside): it is shown once, the first Pod's, under the line of
        // the Pods whose log ends with the same line; Pods whose container ended alike share
        // that line (`pod/web-1, -2 (2 Pods) container web: CrashLoopBackOff (exit code 1)`).
        let mut shown = vec![false; self.crashed.len()];
        for (at, crash) in self.crashed.iter().enumerate() {
            if shown[at] {
                continue;
            }
            let mut alike = vec![crash];
            let (mut identical, which) = (true, crash.which());
            if let Some(log) = crash.log.as_ref().ok().filter(|log| !log.is_empty()) {
                for (later, other) in self.crashed.iter().enumerate().skip(at + 1) {
                    let Ok(other_log) = &other.log else {
                        continue;
                    };
                    if !shown[later]
                        && other.container == crash.container
                        && other.previous == crash.previous
                        && other_log.last() == log.last()
                    {
                        shown[later] = true;
                        identical &= other_log == log;
                        alike.push(other);
                    }
                }
            }
            let mut headers: Vec<(&Crashed, Vec<&str>)> = Vec::new();
            for one in &alike {
                match headers.iter_mut().find(|(first, _)| {
                    first.reason == one.reason && first.exit_code == one.exit_code
                }) {
                    Some((_, pods)) => pods.push(&one.pod),
                    None => headers.push((one, vec![&one.pod])),
                }
            }
            for (first, pods) in &headers {
                lines.push(first.header(&grouped::names(pods)));
            }
            match &crash.log {
                Ok(log) if log.is_empty() => lines.push(format!("    (its {which} is empty)")),
                Ok(log) => {
                    lines.push(match (alike.len(), identical) {
                        (1, _) => format!("    last lines of its {which}:"),
                        (_, true) => {
                            format!("    last lines of their {which}s (the same in each):")
                        }
                        (_, false) => format!(
                            "    last lines of the first one's {which} (each ends the same):"
                        ),
                    });
                    lines.extend(log.iter().map(|line| format!("    | {line}")));
                }
                Err(why) => lines.push(format!("    (cannot read its {which}: {why})")),
            }
        }
        lines
    }
}

/// Lines of the compact block after `--live`'s last frame.
const COMPACT_LINES: usize = 8;

/// `line` within `width` display columns, cut with `…`.
fn fit(line: &str, width: usize) -> String {
    if unicode_width::UnicodeWidthStr::width(line) <= width {
        return line.to_string();
    }
    let mut used = 0;
    let mut cut = String::new();
    for c in line.chars() {
        used += unicode_width::UnicodeWidthChar::width(c).unwrap_or(0);
        if used + 1 > width {
            break;
        }
        cut.push(c);
    }
    cut.push('…');
    cut
}

/// Characters of a log line shown; the rest is cut with `…`.
const LINE_WIDTH: usize = 400;
/// Bytes of a line kept while reading: enough for `LINE_WIDTH` characters of up to 4 bytes and
/// one more, so that a cut line is cut where it would be if the whole line were kept.
const LINE_BYTES: usize = 4 * LINE_WIDTH + 4;

/// The last `LOG_LINES` lines of a log, kept while it is read: memory in proportion to what
/// is shown (at most `LOG_LINES` lines of `LINE_BYTES`), whatever the body's size. Lines end at
/// `\n` (a `\r` before it is dropped) and are read as UTF-8, invalid bytes replaced.
#[derive(Debug, Default)]
pub struct LogTail {
    lines: VecDeque<Vec<u8>>,
    /// The line being read, its first `LINE_BYTES` bytes.
    current: Vec<u8>,
    /// Whether bytes have come since the last `\n`.
    open: bool,
}

impl LogTail {
    pub fn push(&mut self, bytes: &[u8]) {
        // The line being read ends at the first newline; of the lines after it only the last
        // `LOG_LINES` can be kept, so what comes before them is skipped unread.
        let Some(first) = bytes.iter().position(|&b| b == b'\n') else {
            self.extend_line(bytes);
            return;
        };
        self.extend_line(&bytes[..first]);
        self.end_line(true);
        let mut rest = &bytes[first + 1..];
        let mut newlines_from_end = rest.iter().rev().enumerate().filter(|(_, &b)| b == b'\n');
        if let Some((back, _)) = newlines_from_end.nth(LOG_LINES) {
            rest = &rest[rest.len() - back..];
        }
        for piece in rest.split_inclusive(|&b| b == b'\n') {
            match piece.split_last() {
                Some((b'\n', line)) => {
                    self.extend_line(line);
                    self.end_line(true);
                }
                _ => self.extend_line(piece),
            }
        }
    }

    fn extend_line(&mut self, piece: &[u8]) {
        let room = LINE_BYTES.saturating_sub(self.current.len());
        self.current
            .extend_from_slice(&piece[..piece.len().min(room)]);
        self.open |= !piece.is_empty();
    }

    /// `newline`: the line ended with `\n` (not with the body), so a `\r` before it goes.
    fn end_line(&mut self, newline: bool) {
        let mut line = std::mem::take(&mut self.current);
        if newline && line.len() < LINE_BYTES && line.last() == Some(&b'\r') {
            line.pop();
        }
        if self.lines.len() == LOG_LINES {
            // The oldest line's buffer is reused for the next one.
            if let Some(mut old) = self.lines.pop_front() {
                old.clear();
                self.current = old;
            }
        }
        self.lines.push_back(line);
        self.open = false;
    }

    /// The lines kept, each cut to `LINE_WIDTH` characters.
    pub fn finish(mut self) -> Vec<String> {
        if self.open {
            self.end_line(false);
        }
        self.lines
            .iter()
            .map(|bytes| {
                let line = String::from_utf8_lossy(bytes);
                match line.char_indices().nth(LINE_WIDTH) {
                    Some((at, _)) => format!("{}…", &line[..at]),
                    None => line.into_owned(),
                }
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The last `LOG_LINES` lines of a whole log body, read in one piece.
    fn log_tail(body: &[u8]) -> Vec<String> {
        let mut tail = LogTail::default();
        tail.push(body);
        tail.finish()
    }

    #[test]
    fn the_block_names_the_failure_the_waits_and_the_crashes() {
        let summary = Summary {
            failed: Some(
                "deployment.apps/web (pod/web-1: CrashLoopBackOff (web): back-off)".into(),
            ),
            question: None,
            compact: None,
            not_ready: vec![NotReady {
                label: "deployment.apps/web".into(),
                judgement: "failed: pod/web-1: CrashLoopBackOff (web): back-off".into(),
                stuck: vec![
                    stuck("pod/web-1", "CrashLoopBackOff (web): back-off"),
                    stuck("pod/web-2", "ErrImagePull (web)"),
                    stuck("pod/web-3", "ErrImagePull (web)"),
                ],
                warnings: vec![SaidBy {
                    by: vec!["pod/web-1".into()],
                    said: "Warning BackOff: Back-off restarting".into(),
                }],
            }],
            crashed: vec![
                Crashed {
                    pod: "pod/web-1".into(),
                    container: "web".into(),
                    exit_code: Some(1),
                    reason: "CrashLoopBackOff".into(),
                    log: Ok(vec!["exit status 1".into()]),
                    previous: true,
                },
                Crashed {
                    pod: "pod/web-2".into(),
                    container: "web".into(),
                    exit_code: None,
                    reason: "CrashLoopBackOff".into(),
                    log: Err("pods \"web-2\" not found".into()),
                    previous: true,
                },
            ],
        };
        assert_eq!(
            summary.lines(),
            [
                "kw: summary of the wait:",
                "  not ready:",
                "    deployment.apps/web: failed: its Pods are stuck",
                "      pod/web-1: CrashLoopBackOff (web): back-off",
                "        Warning BackOff: Back-off restarting",
                "      pod/web-2, -3 (2 Pods): ErrImagePull (web)",
                "  pod/web-1 container web: CrashLoopBackOff (exit code 1)",
                "    last lines of its previous log:",
                "    | exit status 1",
                "  pod/web-2 container web: CrashLoopBackOff (exit code unknown)",
                "    (cannot read its previous log: pods \"web-2\" not found)",
            ]
        );
    }

    /// The summary follows the question: an object that did not meet a kubectl condition is
    /// named with it, and the object that failed is said once, with the verdict's cause, where
    /// it is listed; on a line of its own only when it is not.
    #[test]
    fn the_summary_names_what_was_asked_and_the_failed_object_once() {
        let unmet = |label: &str, judgement: &str| NotReady {
            label: label.into(),
            judgement: judgement.into(),
            stuck: Vec::new(),
            warnings: Vec::new(),
        };
        let completed = Judgement {
            state: State::Ready,
            message: "Pod has completed successfully".into(),
        };
        let summary = Summary {
            question: Some("condition=Ready=True".into()),
            not_ready: vec![
                unmet(
                    "pod/job-1",
                    &why_unmet(Some(&completed), Some("condition=Ready=True")),
                ),
                unmet("pod/web-1", "in progress: Pod is running but is not Ready"),
            ],
            ..Summary::default()
        };
        assert_eq!(
            summary.lines(),
            [
                "kw: summary of the wait:",
                "  not met (condition=Ready=True):",
                "    pod/job-1: condition=Ready=True not met; Pod has completed successfully",
                "    pod/web-1: in progress: Pod is running but is not Ready",
            ]
        );
        assert_eq!(why_unmet(None, None), "ready not met");
        let failed_elsewhere = Summary {
            failed: Some("pod/other (Pod has failed)".into()),
            not_ready: vec![unmet("pod/web-1", "in progress: Pod is Pending")],
            ..Summary::default()
        };
        assert_eq!(
            failed_elsewhere.lines()[1],
            "  failed: pod/other (Pod has failed)"
        );
    }

    /// After `--live`'s last frame on a terminal: one line per object and per crash group
    /// (with the log line that tells), each within the width, at most `COMPACT_LINES`.
    #[test]
    fn the_compact_block_fits_the_screen_below_the_last_frame() {
        let object = |name: &str| NotReady {
            label: format!("pod/{name}"),
            judgement: "in progress: Containers in CrashLoop state: web".into(),
            stuck: vec![stuck("pod/x", "CrashLoopBackOff (web): back-off")],
            warnings: vec![SaidBy {
                by: vec!["pod/x".into()],
                said: "Warning BackOff: Back-off restarting failed container".into(),
            }],
        };
        let log = |pod: &str| Crashed {
            pod: format!("pod/{pod}"),
            container: "web".into(),
            exit_code: Some(1),
            reason: "CrashLoopBackOff".into(),
            log: Ok(vec![
                format!("{pod} starting"),
                "error: config key \"listen\" is missing".into(),
                "exit status 1".into(),
            ]),
            previous: true,
        };
        let summary = Summary {
            not_ready: vec![object("a"), object("b")],
            crashed: vec![log("a"), log("b")],
            compact: Some(60),
            ..Summary::default()
        };
        assert_eq!(
            summary.lines(),
            [
                "kw: summary of the wait:",
                "    pod/a: in progress: Containers in CrashLoop state: web",
                "    pod/b: in progress: Containers in CrashLoop state: web",
                "  pod/a (and 1 more) container web: CrashLoopBackOff | erro…",
            ]
        );
        assert!(summary
            .lines()
            .iter()
            .all(|line| unicode_width::UnicodeWidthStr::width(line.as_str()) <= 60));
        let many = Summary {
            not_ready: (0..20).map(|i| object(&i.to_string())).collect(),
            compact: Some(200),
            ..Summary::default()
        };
        let lines = many.lines();
        assert_eq!(lines.len(), COMPACT_LINES);
        assert_eq!(
            lines.last().map(String::as_str),
            Some("  … and 14 more (the whole block: stderr to a file)")
        );
    }

    fn stuck(pod: &str, reason: &str) -> StuckPod {
        StuckPod {
            pod: pod.into(),
            reason: reason.into(),
        }
    }

    fn crashed(pod: &str, log: &[&str], previous: bool) -> Crashed {
        Crashed {
            pod: pod.into(),
            container: "web".into(),
            exit_code: Some(1),
            reason: "Error".into(),
            log: Ok(log.iter().map(|l| l.to_string()).collect()),
            previous,
        }
    }

    #[test]
    fn identical_logs_are_shown_once_under_every_pod() {
        let summary = Summary {
            crashed: vec![
                crashed("pod/a", &["boom"], true),
                crashed("pod/b", &["other"], true),
                crashed("pod/c", &["boom"], true),
                crashed("pod/job-1", &["done"], false),
                crashed("pod/d", &["attempt 1", "boom"], true),
                Crashed {
                    reason: "OOMKilled".into(),
                    exit_code: Some(137),
                    ..crashed("pod/e", &["boom"], true)
                },
            ],
            ..Summary::default()
        };
        assert_eq!(
            summary.lines(),
            [
                "kw: summary of the wait:",
                "  pod/a, pod/c, pod/d (3 Pods) container web: Error (exit code 1)",
                "  pod/e container web: OOMKilled (exit code 137)",
                "    last lines of the first one's previous log (each ends the same):",
                "    | boom",
                "  pod/b container web: Error (exit code 1)",
                "    last lines of its previous log:",
                "    | other",
                "  pod/job-1 container web: Error (exit code 1)",
                "    last lines of its log:",
                "    | done",
            ]
        );
    }

    /// What `log_tail` did before it kept only the tail: every line, then the last ones.
    fn whole_then_tail(body: &[u8]) -> Vec<String> {
        let text = String::from_utf8_lossy(body);
        let lines: Vec<&str> = text.lines().collect();
        lines[lines.len().saturating_sub(LOG_LINES)..]
            .iter()
            .map(|line| match line.char_indices().nth(LINE_WIDTH) {
                Some((at, _)) => format!("{}…", &line[..at]),
                None => line.to_string(),
            })
            .collect()
    }

    #[test]
    fn the_tail_read_in_pieces_is_the_tail_of_the_whole() {
        let long = "é".repeat(LINE_WIDTH + 50);
        let bodies: Vec<Vec<u8>> = vec![
            Vec::new(),
            b"\n".to_vec(),
            b"a".to_vec(),
            b"a\r\nb\r\n\r\n".to_vec(),
            b"a\rb\r".to_vec(),
            b"x\xff\xfey\n\xe2\x82\nz".to_vec(),
            format!("{long}\nshort\n{long}").into_bytes(),
            "\n".repeat(100).into_bytes(),
            (0..50)
                .map(|i| format!("line {i}\r\n"))
                .collect::<String>()
                .into_bytes(),
            [&"a".repeat(LINE_BYTES)[..], "\r\nb"].concat().into_bytes(),
        ];
        for body in &bodies {
            for piece in [1, 3, 7, 4096] {
                let mut tail = LogTail::default();
                for chunk in body.chunks(piece) {
                    tail.push(chunk);
                }
                assert_eq!(
                    tail.finish(),
                    whole_then_tail(body),
                    "{:?} in pieces of {piece}",
                    String::from_utf8_lossy(body)
                );
            }
        }
    }

    #[test]
    fn the_summary_has_a_budget_and_a_reserve_after_a_timeout() {
        assert_eq!(budget(None), BUDGET);
        assert_eq!(
            budget(Some(Duration::from_secs(6))),
            Duration::from_millis(600)
        );
        assert_eq!(budget(Some(Duration::from_secs(600))), RESERVE);
    }

    #[test]
    fn a_log_keeps_its_last_lines() {
        let body: String = (1..=30).map(|i| format!("line {i}\n")).collect();
        let tail = log_tail(body.as_bytes());
        assert_eq!(tail.len(), LOG_LINES);
        assert_eq!(tail[0], "line 11");
        assert_eq!(tail[LOG_LINES - 1], "line 30");
    }
}
