//! What containers printed, kept per container for `pod_logs` to serve. A leaf, so that the
//! shared state can hold it without reaching the request handlers.
//!
//! Every line carries the time it was written, as the kubelet's CRI log files do, so that
//! `timestamps`, `sinceTime` and `sinceSeconds` have something to read. A running container may
//! have a [`Printer`]: it writes a line every so often while it runs, so that a followed log
//! has something to show. Its lines are worked out when read (line `n` is due `n - 1` periods
//! after the start), which keeps the state small and the lines the same for every reader.

use std::collections::HashMap;
use std::sync::Mutex;
use std::time::{Duration, Instant, SystemTime};

/// What one container printed: in its running instance, and in the one before, if it
/// terminated. The lines as a story or the kubelet writes them, all at one moment.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ContainerLog {
    pub current: Vec<String>,
    pub previous: Option<Vec<String>>,
}

/// One line as the kubelet keeps it: when it was written, and its bytes without the newline
/// (`newline: false` for a last write the container did not end).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LogLine {
    pub at: SystemTime,
    pub text: String,
    pub newline: bool,
}

/// How a running container writes lines: `text` (with `{n}` for the line's number) every
/// `every`, `lines` times (`None`: as long as it runs), then `tail` without a newline.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Printer {
    pub every: Duration,
    pub lines: Option<u64>,
    pub text: String,
    pub tail: Option<String>,
}

impl Printer {
    /// How long it takes to write everything (`None`: it never ends).
    pub fn duration(&self) -> Option<Duration> {
        self.lines
            .map(|lines| self.every * lines.saturating_sub(1).min(u32::MAX as u64) as u32)
    }
}

/// A printer at work: since when (on the sim's clock for the stamps, and the machine's for
/// what is due).
#[derive(Debug, Clone)]
struct Running {
    printer: Printer,
    stamped_from: SystemTime,
    began: Instant,
}

/// A printer writes at most this many lines into one read: the kubelet rotates its files, and
/// a sim left running for days stays small.
const KEPT_PRINTED: u64 = 10_000;

#[derive(Debug, Clone, Default)]
struct Kept {
    current: Vec<LogLine>,
    previous: Option<Vec<LogLine>>,
    running: Option<Running>,
}

/// One container's log as read at one moment.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct LogSnapshot {
    pub current: Vec<LogLine>,
    pub previous: Option<Vec<LogLine>>,
    /// A printer is still writing lines into `current`.
    pub printing: bool,
    /// Lines the printer wrote before `current`'s first, no longer kept (`KEPT_PRINTED`): a
    /// follower counts lines from the instance's first, not from what is kept.
    pub dropped: u64,
}

/// Every container's log, by (namespace, pod, container).
#[derive(Debug, Default)]
pub struct PodLogs {
    logs: Mutex<HashMap<(String, String, String), Kept>>,
}

fn key(namespace: &str, pod: &str, container: &str) -> (String, String, String) {
    (namespace.into(), pod.into(), container.into())
}

fn stamped(lines: Vec<String>, at: SystemTime) -> Vec<LogLine> {
    lines
        .into_iter()
        .map(|text| LogLine {
            at,
            text,
            newline: true,
        })
        .collect()
}

impl PodLogs {
    /// Replace what the container printed with `log`, written at `at`; a printer stops.
    pub fn set(
        &self,
        namespace: &str,
        pod: &str,
        container: &str,
        log: ContainerLog,
        at: SystemTime,
    ) {
        let mut logs = self.lock();
        let key = key(namespace, pod, container);
        // The instance that ended is the one that was current: its lines keep the times they
        // were written at, as the kubelet's file of it does (a client resuming from a line's
        // timestamp must find it again).
        let before = logs.remove(&key).map(|kept| kept.current);
        let previous = log.previous.map(|lines| match before {
            Some(before)
                if before.len() == lines.len()
                    && before.iter().zip(&lines).all(|(b, l)| &b.text == l) =>
            {
                before
            }
            _ => stamped(lines, at),
        });
        let kept = Kept {
            current: stamped(log.current, at),
            previous,
            running: None,
        };
        logs.insert(key, kept);
    }

    /// The container starts anew and writes as `printer` says, from `at`.
    pub fn print(
        &self,
        namespace: &str,
        pod: &str,
        container: &str,
        printer: Printer,
        at: SystemTime,
    ) {
        let mut logs = self.lock();
        let kept = logs.entry(key(namespace, pod, container)).or_default();
        kept.current.clear();
        kept.running = Some(Running {
            printer,
            stamped_from: at,
            began: Instant::now(),
        });
    }

    /// The container ran `printer` (of a bounded number of lines) to its end, from `at`: all
    /// its lines written, none to come, as an init container that completed before the Pod's
    /// containers started.
    pub fn printed(
        &self,
        namespace: &str,
        pod: &str,
        container: &str,
        printer: Printer,
        at: SystemTime,
    ) {
        let began = Instant::now();
        let done = began + printer.duration().unwrap_or_default() + printer.every;
        let running = Running {
            printer,
            stamped_from: at,
            began,
        };
        let mut current = Vec::new();
        written(&running, done, 0, &mut current);
        let kept = Kept {
            current,
            previous: None,
            running: None,
        };
        self.lock().insert(key(namespace, pod, container), kept);
    }

    pub fn get(&self, namespace: &str, pod: &str, container: &str) -> LogSnapshot {
        self.get_from(namespace, pod, container, 0)
    }

    /// `get`, a printer's lines from its line `from` (counted from its first): a follower asks
    /// only for what it has not sent, and a long log is not written out again at every look.
    pub fn get_from(&self, namespace: &str, pod: &str, container: &str, from: u64) -> LogSnapshot {
        let Some(kept) = self.lock().get(&key(namespace, pod, container)).cloned() else {
            return LogSnapshot::default();
        };
        let mut current = kept.current;
        let (mut printing, mut dropped) = (false, 0);
        if let Some(running) = &kept.running {
            (printing, dropped) = written(running, Instant::now(), from, &mut current);
        }
        LogSnapshot {
            current,
            previous: kept.previous,
            printing,
            dropped,
        }
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<(String, String, String), Kept>> {
        self.logs.lock().unwrap_or_else(|p| p.into_inner())
    }
}

/// Append what `running` has written by `now` to `lines` (the last `KEPT_PRINTED`, from line
/// `from` on); whether it has more to write, and how many lines it wrote before those appended.
fn written(running: &Running, now: Instant, from: u64, lines: &mut Vec<LogLine>) -> (bool, u64) {
    let printer = &running.printer;
    let every = printer.every.max(Duration::from_micros(1));
    let elapsed = now.saturating_duration_since(running.began);
    let due = (elapsed.as_nanos() / every.as_nanos()) as u64 + 1;
    let total = printer.lines.unwrap_or(u64::MAX);
    let count = due.min(total);
    let first = count.saturating_sub(KEPT_PRINTED).max(from.min(count));
    for index in first..count {
        let offset = every.saturating_mul(index.min(u32::MAX as u64) as u32);
        lines.push(LogLine {
            at: running.stamped_from + offset,
            text: printer.text.replace("{n}", &(index + 1).to_string()),
            newline: true,
        });
    }
    if count < total {
        return (true, first);
    }
    if let Some(tail) = &printer.tail {
        lines.push(LogLine {
            at: running.stamped_from + every.saturating_mul(total.min(u32::MAX as u64) as u32),
            text: tail.clone(),
            newline: false,
        });
    }
    (false, first)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn logs_are_kept_per_container_with_their_time() {
        let logs = PodLogs::default();
        let at = SystemTime::UNIX_EPOCH + Duration::from_secs(1_800_000_000);
        let log = ContainerLog {
            current: vec!["a".into()],
            previous: Some(vec!["b".into()]),
        };
        logs.set("default", "web-1", "web", log, at);
        let read = logs.get("default", "web-1", "web");
        assert_eq!(read.current[0].text, "a");
        assert_eq!(read.current[0].at, at);
        assert!(!read.printing);
        assert_eq!(
            logs.get("default", "web-1", "other"),
            LogSnapshot::default()
        );
    }

    #[test]
    fn a_printer_writes_its_lines_one_period_apart_then_stops() {
        let logs = PodLogs::default();
        let at = SystemTime::UNIX_EPOCH;
        let printer = Printer {
            every: Duration::from_millis(1),
            lines: Some(3),
            text: "line {n}".into(),
            tail: Some("no newline".into()),
        };
        logs.print("ns", "p", "c", printer, at);
        std::thread::sleep(Duration::from_millis(20));
        let read = logs.get("ns", "p", "c");
        let texts: Vec<&str> = read.current.iter().map(|l| l.text.as_str()).collect();
        assert_eq!(texts, ["line 1", "line 2", "line 3", "no newline"]);
        assert_eq!(read.current[2].at, at + Duration::from_millis(2));
        assert!(!read.current[3].newline);
        assert!(!read.printing);
    }

    #[test]
    fn a_long_printer_keeps_its_last_lines_and_counts_the_others() {
        let logs = PodLogs::default();
        let printer = Printer {
            every: Duration::from_micros(1),
            lines: Some(KEPT_PRINTED + 5),
            text: "{n}".into(),
            tail: None,
        };
        logs.print("ns", "p", "c", printer, SystemTime::UNIX_EPOCH);
        std::thread::sleep(Duration::from_millis(50));
        let read = logs.get("ns", "p", "c");
        assert_eq!(read.current.len() as u64, KEPT_PRINTED);
        assert_eq!(read.dropped, 5);
        assert_eq!(read.current[0].text, "6");
    }

    #[test]
    fn a_printer_run_to_its_end_has_every_line_at_once() {
        let logs = PodLogs::default();
        let at = SystemTime::UNIX_EPOCH;
        let printer = Printer {
            every: Duration::from_secs(10),
            lines: Some(3),
            text: "init {n}".into(),
            tail: None,
        };
        logs.printed("ns", "p", "init", printer, at);
        let read = logs.get("ns", "p", "init");
        let texts: Vec<&str> = read.current.iter().map(|l| l.text.as_str()).collect();
        assert_eq!(texts, ["init 1", "init 2", "init 3"]);
        assert_eq!(read.current[2].at, at + Duration::from_secs(20));
        assert!(!read.printing);
    }
}
