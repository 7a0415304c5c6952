//! The real `kw` binary run with time limits: to completion (`run`), or live with its stdout
//! lines arriving as printed (`Live`). Every process is reported to the test's watchdog.

use std::io::{BufRead, BufReader, Read};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use super::wait::{wait_for, POLL};
use super::watchdog::{self, Output, Stream};

/// What a finished command produced.
#[derive(Debug)]
pub struct Outcome {
    pub code: Option<i32>,
    pub stdout: String,
    pub stderr: String,
}

/// Run to completion, killing the process if it outlives `limit`.
pub fn run(mut cmd: impl std::borrow::BorrowMut<Command>, limit: Duration) -> Outcome {
    let cmd = cmd.borrow_mut();
    let mut child = cmd
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("kw starts");
    let (stdout, stdout_so_far) = drain(child.stdout.take().expect("stdout"));
    let (stderr, stderr_so_far) = drain(child.stderr.take().expect("stderr"));
    watchdog::watch(
        cmd,
        &child,
        Stream::Buffer(stdout_so_far),
        Stream::Buffer(stderr_so_far.clone()),
    );
    let code = wait_with_limit(&mut child, limit);
    Outcome {
        code,
        stdout: stdout.join().expect("stdout reader"),
        stderr: stderr.join().expect("stderr reader"),
    }
}

/// Read `r` to its end on a thread; what has arrived so far is readable meanwhile.
fn drain<R: Read + Send + 'static>(mut r: R) -> (std::thread::JoinHandle<String>, Output) {
    let so_far = Output::default();
    let output = so_far.clone();
    let reader = std::thread::spawn(move || {
        let mut buffer = [0u8; 8192];
        while let Ok(n @ 1..) = r.read(&mut buffer) {
            output.push(&buffer[..n]);
        }
        output.text()
    });
    (reader, so_far)
}

/// Wait for the child; kill it and fail the test if it takes longer than `limit`.
pub fn wait_with_limit(child: &mut Child, limit: Duration) -> Option<i32> {
    let deadline = Instant::now() + limit;
    loop {
        match child.try_wait().expect("wait") {
            Some(status) => return status.code(),
            None if Instant::now() >= deadline => {
                let _ = child.kill();
                let _ = child.wait();
                watchdog::check();
                panic!("kw did not finish within {limit:?}");
            }
            None => std::thread::sleep(POLL),
        }
    }
}

/// A running `kw` whose stdout lines arrive on a channel as they are printed.
pub struct Live {
    pub child: Child,
    lines: mpsc::Receiver<String>,
    stderr: Option<std::thread::JoinHandle<String>>,
    stderr_file: Option<PathBuf>,
    /// What kw has written to stderr so far.
    stderr_so_far: Stream,
}

/// Each line of `stdout` as it is printed, on a channel; the last few also kept for a
/// watchdog report.
fn stdout_lines(stdout: std::process::ChildStdout) -> (mpsc::Receiver<String>, Output) {
    let (tx, lines) = mpsc::channel();
    let recent = Output::tail(16 * 1024);
    let output = recent.clone();
    std::thread::spawn(move || {
        for line in BufReader::new(stdout).lines() {
            let Ok(line) = line else { break };
            output.push(line.as_bytes());
            output.push(b"\n");
            if tx.send(line).is_err() {
                break;
            }
        }
    });
    (lines, recent)
}

impl Live {
    pub fn spawn(cmd: &mut Command) -> Live {
        let mut child = cmd
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("kw starts");
        let (lines, recent) = stdout_lines(child.stdout.take().expect("stdout"));
        let (stderr, stderr_so_far) = drain(child.stderr.take().expect("stderr"));
        let stderr_so_far = Stream::Buffer(stderr_so_far);
        watchdog::watch(cmd, &child, Stream::Buffer(recent), stderr_so_far.clone());
        let stderr = Some(stderr);
        Live {
            child,
            lines,
            stderr,
            stderr_file: None,
            stderr_so_far,
        }
    }

    /// As `spawn`, but stderr goes to the file `stderr` (readable while kw runs, to see when a
    /// notice has been written); `finish` and `stop` then return it read from the file.
    pub fn spawn_stderr_to(cmd: &mut Command, stderr: &Path) -> Live {
        let file = std::fs::File::create(stderr).expect("stderr file");
        cmd.stderr(file);
        let mut child = cmd.stdout(Stdio::piped()).spawn().expect("kw starts");
        let (lines, recent) = stdout_lines(child.stdout.take().expect("stdout"));
        let stderr_so_far = Stream::File(stderr.to_path_buf());
        watchdog::watch(cmd, &child, Stream::Buffer(recent), stderr_so_far.clone());
        Live {
            child,
            lines,
            stderr: None,
            stderr_file: Some(stderr.to_path_buf()),
            stderr_so_far,
        }
    }

    /// Wait until kw's stderr says `needle`, failing the test after `limit`; returns stderr so
    /// far.
    pub fn wait_for_stderr(&self, needle: &str, limit: Duration) -> String {
        let mut text = String::new();
        wait_for(&format!("stderr to say {needle:?}"), limit, || {
            text = self.stderr_so_far.text();
            text.contains(needle)
        });
        text
    }

    /// What kw has written to stderr so far.
    pub fn stderr_so_far(&self) -> String {
        self.stderr_so_far.text()
    }

    /// The next line, or `None` if none comes within `limit` (or kw has ended).
    pub fn next_line(&self, limit: Duration) -> Option<String> {
        let line = self.lines.recv_timeout(limit).ok();
        if line.is_none() {
            watchdog::check();
        }
        line
    }

    /// Lines until one satisfies `done` (included), failing the test after `limit`.
    pub fn lines_until(&self, limit: Duration, done: impl Fn(&str) -> bool) -> Vec<String> {
        let deadline = Instant::now() + limit;
        let mut got = Vec::new();
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.lines.recv_timeout(left) {
                Ok(line) => {
                    let stop = done(&line);
                    got.push(line);
                    if stop {
                        return got;
                    }
                }
                Err(_) => {
                    watchdog::check();
                    panic!("no matching line within {limit:?}; got {got:#?}")
                }
            }
        }
    }

    /// Wait for exit (killing after `limit`), returning the exit code, the remaining stdout lines
    /// and stderr.
    pub fn finish(mut self, limit: Duration) -> (Option<i32>, Vec<String>, String) {
        let code = wait_with_limit(&mut self.child, limit);
        let mut rest = Vec::new();
        while let Ok(line) = self.lines.recv_timeout(Duration::from_millis(500)) {
            rest.push(line);
        }
        let stderr = self.take_stderr();
        (code, rest, stderr)
    }

    /// Kill kw (a watch never ends by itself) and return what it wrote to stderr.
    pub fn stop(mut self) -> String {
        self.kill()
    }

    /// As `stop`, keeping the `Live` (its owner still holds what was read from it).
    pub fn kill(&mut self) -> String {
        let _ = self.child.kill();
        let _ = self.child.wait();
        self.take_stderr()
    }

    /// What kw wrote to stderr (call after it ended).
    fn take_stderr(&mut self) -> String {
        if let Some(path) = &self.stderr_file {
            return std::fs::read_to_string(path).unwrap_or_default();
        }
        self.stderr
            .take()
            .map(|h| h.join().unwrap_or_default())
            .unwrap_or_default()
    }

    /// Send SIGINT, as Ctrl-C in a terminal does.
    pub fn interrupt(&self) {
        self.signal("INT");
    }

    /// Send the signal `name` (`TERM`, as a CI cancelling a job does).
    pub fn signal(&self, name: &str) {
        let status = Command::new("kill")
            .arg(format!("-{name}"))
            .arg(self.child.id().to_string())
            .status()
            .expect("kill runs");
        assert!(status.success());
    }
}

impl Drop for Live {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// The lines of `stderr` that are not kw's own: kubectl's lines (`error: ...`, `Error from
/// server ...`), in order, without kw's commentary (`kw: ...`) and its summary block (the
/// `kw: summary of the wait:` line and the indented lines under it). kw's verdict comes last,
/// after its cause, for every verb.
pub fn verdict_lines(stderr: &str) -> Vec<&str> {
    stderr
        .lines()
        .filter(|line| !line.starts_with("kw: ") && !line.starts_with(' '))
        .collect()
}
