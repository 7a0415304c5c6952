//! Where `--logs` lines go: stderr, each after its source (`pod/web-1 app | `), coloured per
//! Pod on a terminal, its controls shown as text (a log line is the container's, and cannot move
//! the cursor or forge a CI's workflow command: the source comes first on every line), folded
//! per run of one stream in a CI's log (`kw_base::stderr_fold`). Once the verdict is in, nothing
//! more is shown (`stop`): the verdict is the last word.

use std::sync::Mutex;
use std::time::{Duration, Instant, SystemTime};

use kw_output::output::escape;

/// The most of one line shown on stderr (`--logs`); `kw logs -w`'s stdout takes up to
/// `DATA_LINE_BYTES`, its lines being the output, not a diagnostic beside it.
pub const LINE_BYTES: usize = 4096;
pub const DATA_LINE_BYTES: usize = 1 << 20;

/// Colours a Pod's source may take on a terminal (ANSI foreground, not red: red is failure).
const PALETTE: [u8; 6] = [32, 33, 34, 35, 36, 94];

/// Where the lines go.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Out {
    /// A wait's `--logs`: stderr, `pod/NAME CONTAINER | line`.
    Stderr,
    /// `kw logs -w`: stdout, as `kubectl logs --prefix` writes it (`[pod/NAME/CONTAINER] line`,
    /// the bytes as they came in a pipe, their controls shown as text on a terminal); or, with
    /// `jsonl`, one JSON object a line.
    Stdout { escape: bool, jsonl: bool },
}

/// Where a line comes from.
pub struct Source<'a> {
    /// `pod/web-1`, its context in front over several (`east/pod/web-1`).
    pub label: &'a str,
    pub namespace: &'a str,
    pub pod: &'a str,
    pub container: &'a str,
    /// The context, in a run over several.
    pub context: Option<&'a str>,
}

/// The run's log lines.
pub struct Shown {
    /// The verdict is in: no more lines.
    stopped: Mutex<bool>,
    /// When the last line was shown.
    last_line: Mutex<Option<Instant>>,
    colour: bool,
    out: Out,
}

impl Shown {
    /// A wait's lines, on stderr.
    pub fn new(colour: bool) -> Shown {
        Shown {
            stopped: Mutex::new(false),
            last_line: Mutex::new(None),
            colour,
            out: Out::Stderr,
        }
    }

    /// `kw logs -w`'s lines, on stdout; `terminal`: stdout is one (controls shown as text,
    /// sources coloured unless `NO_COLOR`); `jsonl`: one JSON object a line (`-o jsonl`).
    pub fn on_stdout(terminal: bool, jsonl: bool) -> Shown {
        Shown {
            stopped: Mutex::new(false),
            last_line: Mutex::new(None),
            colour: terminal && !jsonl && std::env::var_os("NO_COLOR").is_none(),
            out: Out::Stdout {
                escape: terminal && !jsonl,
                jsonl,
            },
        }
    }

    /// Show one line of `source` (`text` without its line break, written `at`); false once
    /// the verdict is in.
    pub fn line(&self, source: &Source<'_>, text: &[u8], at: Option<SystemTime>) -> bool {
        let stopped = kw_base::mutex::lock(&self.stopped);
        if *stopped {
            return false;
        }
        *kw_base::mutex::lock(&self.last_line) = Some(Instant::now());
        let (label, container) = (source.label, source.container);
        match self.out {
            Out::Stdout { jsonl: true, .. } => return write_stdout(&json_line(source, text, at)),
            Out::Stdout { escape, .. } => {
                return self.stdout_line(label, container, text, escape);
            }
            Out::Stderr => {}
        }
        let source = kw_base::log::clean(&format!("{label} {container}")).into_owned();
        let mut out = Vec::with_capacity(source.len() + text.len() + 16);
        if self.colour {
            let colour = PALETTE[hash(label) % PALETTE.len()];
            out.extend_from_slice(format!("\x1b[{colour}m{source} |\x1b[0m ").as_bytes());
        } else {
            out.extend_from_slice(source.as_bytes());
            out.extend_from_slice(b" | ");
        }
        escape::write_escaped(&mut out, &String::from_utf8_lossy(text));
        out.push(b'\n');
        kw_base::stderr_fold::folded(&source, &out);
        true
    }

    /// `[pod/NAME/CONTAINER] line` on stdout, flushed (a pipe sees it at once). A reader that
    /// has gone ends kw quietly, with 0, as it ends `kubectl logs -f | head`.
    fn stdout_line(&self, label: &str, container: &str, text: &[u8], escape: bool) -> bool {
        let source = kw_base::log::clean(&format!("[{label}/{container}]")).into_owned();
        let mut out = Vec::with_capacity(source.len() + text.len() + 16);
        if self.colour {
            let colour = PALETTE[hash(label) % PALETTE.len()];
            out.extend_from_slice(format!("\x1b[{colour}m{source}\x1b[0m ").as_bytes());
        } else {
            out.extend_from_slice(source.as_bytes());
            out.push(b' ');
        }
        match escape {
            true => escape::write_escaped(&mut out, &String::from_utf8_lossy(text)),
            false => out.extend_from_slice(text),
        }
        out.push(b'\n');
        write_stdout(&out)
    }

    /// The most of one line shown: a diagnostic's bound on stderr, a larger one on stdout.
    pub fn line_bytes(&self) -> usize {
        match self.out {
            Out::Stderr => LINE_BYTES,
            Out::Stdout { .. } => DATA_LINE_BYTES,
        }
    }

    /// Whether a line may still be shown (the verdict is not in yet).
    pub fn line_possible(&self) -> bool {
        !*kw_base::mutex::lock(&self.stopped)
    }

    /// The verdict is in, where the lines are the output (`kw logs -w --until`): let the
    /// streams say what they hold already (a Job's last lines come with its completion), until
    /// they have been quiet for `QUIET`, at most `SETTLE`; then `stop`. On stderr, `stop` at once:
    /// there the verdict is the last word.
    pub fn settle_and_stop(&self) {
        const QUIET: Duration = Duration::from_millis(500);
        const SETTLE: Duration = Duration::from_secs(3);
        if self.out != Out::Stderr {
            let began = Instant::now();
            while began.elapsed() < SETTLE {
                let last = kw_base::mutex::lock(&self.last_line).map_or(began, |at| at.max(began));
                if last.elapsed() >= QUIET {
                    break;
                }
                std::thread::sleep(Duration::from_millis(50));
            }
        }
        self.stop();
    }

    /// The verdict is in: no line after this one, and the fold open is closed.
    pub fn stop(&self) {
        let mut stopped = kw_base::mutex::lock(&self.stopped);
        *stopped = true;
        kw_base::stderr_fold::close();
    }
}

/// `-o jsonl`'s line: `{"context":…,"namespace":…,"pod":…,"container":…,"timestamp":…,
/// "message":…}`, the context only over several, the message as text (invalid UTF-8 replaced).
fn json_line(source: &Source<'_>, text: &[u8], at: Option<SystemTime>) -> Vec<u8> {
    let mut line = serde_json::Map::new();
    if let Some(context) = source.context {
        line.insert("context".into(), context.into());
    }
    line.insert("namespace".into(), source.namespace.into());
    line.insert("pod".into(), source.pod.into());
    line.insert("container".into(), source.container.into());
    if let Some(at) = at {
        line.insert(
            "timestamp".into(),
            humantime::format_rfc3339_nanos(at).to_string().into(),
        );
    }
    line.insert(
        "message".into(),
        String::from_utf8_lossy(text).into_owned().into(),
    );
    let mut out = serde_json::Value::Object(line).to_string().into_bytes();
    out.push(b'\n');
    out
}

/// Write `bytes` on stdout, flushed (a pipe sees them at once). A reader that has gone ends
/// kw quietly, with 0, as it ends `kubectl logs -f | head`.
fn write_stdout(bytes: &[u8]) -> bool {
    use std::io::Write;
    let mut stdout = std::io::stdout().lock();
    match stdout.write_all(bytes).and_then(|()| stdout.flush()) {
        Ok(()) => true,
        Err(e) if kw_output::output::writer::is_closed_pipe(&e) => std::process::exit(0),
        // As every other failure to write stdout ends kw (`KwError::Output`).
        Err(e) => {
            kw_base::stderr_fold::unfolded(format!("error: writing output: {e}\n").as_bytes());
            std::process::exit(crate::report::exit::SERVER_ERROR)
        }
    }
}

/// A Pod's colour stays the same for the whole run.
fn hash(text: &str) -> usize {
    text.bytes()
        .fold(5381usize, |h, b| h.wrapping_mul(33) ^ usize::from(b))
}
