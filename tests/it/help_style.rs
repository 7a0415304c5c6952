//! `kw rollout status --help` (and `kw wait --help`, once kw has the verb) read as kubectl's
//! page: checked against kubectl 1.32's own, in a pipe and on real terminals (a pseudo-terminal
//! per run) of several widths. Only the verb's own flags are compared: kw's globals differ.

use std::io::Read;
use std::os::fd::{AsRawFd, FromRawFd, OwnedFd};
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use crate::harness;
use kw::cli::kubectl_help::{self as cli_help, KubectlVerb, KUBECTL_VERBS};

const LIMIT: Duration = Duration::from_secs(30);

/// kubectl's flags of a verb that kw does not take (yet): their absence from kw's page is
/// right; once kw takes one, its line must be kubectl's.
const NOT_TAKEN: &[(&str, &str, &str)] = &[
    ("rollout status", "kustomize", "kw reads no kustomization"),
    ("wait", "local", "kw always asks a server"),
    ("wait", "show-managed-fields", "not yet"),
    ("wait", "allow-missing-template-keys", "not yet"),
    ("wait", "template", "not yet"),
];

/// kubectl's flags that kw takes with another default, and why: their names must match.
const OTHER_DEFAULT: &[(&str, &str, &str)] =
    &[("wait", "for", "kw's --for repeats, as OR (a list)")];

/// The verbs kw has now, each with kubectl's entry.
fn verbs_kw_has() -> Vec<&'static KubectlVerb> {
    let command = kw::cli::command(None);
    KUBECTL_VERBS
        .iter()
        .filter(|verb| {
            verb.path
                .iter()
                .try_fold(&command, |c, name| c.find_subcommand(name))
                .is_some()
        })
        .collect()
}

#[test]
fn rollout_status_is_among_the_verbs_kw_has() {
    let paths: Vec<_> = verbs_kw_has().iter().map(|v| v.path).collect();
    assert!(paths.contains(&&["rollout", "status"][..]), "{paths:?}");
}

fn piped(program: impl AsRef<std::path::Path>, args: &[&str]) -> String {
    let program = program.as_ref();
    let mut command = crate::harness::tools::command(program);
    command.args(args).stdin(Stdio::null());
    without_width_hints(&mut command);
    let outcome = harness::run(command, LIMIT);
    assert_eq!(
        outcome.code,
        Some(0),
        "{} {args:?}: {}",
        program.display(),
        outcome.stderr
    );
    outcome.stdout
}

/// kw reads `COLUMNS` and its test hook; kubectl reads neither: both must see only the
/// terminal.
fn without_width_hints(command: &mut Command) {
    command
        .env_remove("COLUMNS")
        .env_remove("KW_FORCE_TERMINAL");
}

fn kw() -> &'static str {
    env!("CARGO_BIN_EXE_kw")
}

fn help_args(verb: &KubectlVerb) -> Vec<&'static str> {
    let mut args = verb.path.to_vec();
    args.push("--help");
    args
}

/// A page cut at kubectl's headings.
#[derive(Debug)]
struct Page {
    /// The headings in order (`Examples:`, `Options:`, `Usage:`), then `Use "..."` for the
    /// footer.
    headings: Vec<String>,
    /// Each flag's line (`    -f, --filename=[]:`) and its text lines (behind a tab).
    flags: Vec<Flag>,
    usage: Option<String>,
    footer: Option<String>,
}

#[derive(Debug)]
struct Flag {
    line: String,
    short: Option<String>,
    long: String,
    text: Vec<String>,
}

fn read_page(text: &str) -> Page {
    let lines: Vec<&str> = text.lines().collect();
    let mut page = Page {
        headings: Vec::new(),
        flags: Vec::new(),
        usage: None,
        footer: None,
    };
    assert!(
        lines
            .first()
            .is_some_and(|l| !l.is_empty() && !l.ends_with(':')),
        "a page opens with its description:\n{text}"
    );
    let mut section = "";
    let mut index = 0;
    while index < lines.len() {
        let line = lines[index];
        index += 1;
        if ["Examples:", "Options:", "Usage:"].contains(&line) {
            page.headings.push(line.to_string());
            section = line;
            continue;
        }
        if line.starts_with("Use \"") {
            page.headings.push("Use".to_string());
            page.footer = Some(line.to_string());
            section = "";
            continue;
        }
        match section {
            "Options:" if !line.is_empty() => {
                let flag = flag_line(line).unwrap_or_else(|| {
                    panic!("not a flag line of kubectl's form: {line:?}\n{text}")
                });
                let mut flag = flag;
                while index < lines.len() && lines[index].starts_with('\t') {
                    flag.text.push(lines[index][1..].to_string());
                    index += 1;
                }
                assert!(!flag.text.is_empty(), "{line:?} has no text behind a tab");
                assert!(
                    index == lines.len() || lines[index].is_empty(),
                    "a blank line follows {line:?}'s text"
                );
                page.flags.push(flag);
            }
            "Usage:" if !line.is_empty() => page.usage = Some(line.to_string()),
            _ => {}
        }
    }
    page
}

/// `    -f, --filename=[]:` or `    --revision=0:`.
fn flag_line(line: &str) -> Option<Flag> {
    let body = line.strip_prefix("    ")?.strip_suffix(':')?;
    let (names, _default) = body.split_once('=')?;
    let (short, long) = match names.split_once(", ") {
        Some((short, long)) => (Some(short.strip_prefix('-')?.to_string()), long),
        None => (None, names),
    };
    let long = long.strip_prefix("--")?;
    (!long.is_empty() && !long.contains(' ')).then(|| Flag {
        line: line.to_string(),
        short,
        long: long.to_string(),
        text: Vec::new(),
    })
}

fn listed(list: &[(&str, &str, &str)], verb: &str, flag: &str) -> bool {
    list.iter().any(|(v, f, _)| *v == verb && *f == flag)
}

#[test]
fn every_kubectl_option_line_is_on_kws_page_in_kubectls_form_and_in_kubectls_order() {
    let kubectl = harness::kubectl();
    for verb in verbs_kw_has() {
        let name = verb.path.join(" ");
        let theirs = read_page(&piped(&kubectl, &help_args(verb)));
        let ours_text = piped(kw(), &help_args(verb));
        let ours = read_page(&ours_text);

        assert_eq!(
            ours.headings, theirs.headings,
            "{name}: sections\n{ours_text}"
        );
        assert_eq!(
            ours.headings,
            ["Examples:", "Options:", "Usage:", "Use"],
            "{name}"
        );

        let kubectls: Vec<&str> = theirs.flags.iter().map(|f| f.long.as_str()).collect();

        let mut missing = Vec::new();
        for flag in &theirs.flags {
            match ours.flags.iter().find(|f| f.long == flag.long) {
                Some(mine) if mine.line == flag.line => {}
                Some(mine) if listed(OTHER_DEFAULT, &name, &flag.long) => {
                    assert_eq!(mine.short, flag.short, "{name}: {}", flag.line)
                }
                Some(mine) => missing.push(format!("{:?} is {:?}", flag.line, mine.line)),
                None if listed(NOT_TAKEN, &name, &flag.long) => {}
                None => missing.push(format!("{:?} is missing", flag.line)),
            }
        }
        assert!(
            missing.is_empty(),
            "{name}: kubectl's option lines not on kw's page:\n{}\n{ours_text}",
            missing.join("\n")
        );

        // The rest are kw's, and say so; and the flags come sorted, as pflag sorts them.
        for flag in ours
            .flags
            .iter()
            .filter(|f| !kubectls.contains(&f.long.as_str()))
        {
            assert!(flag.text[0].starts_with("kw: "), "{name}: {flag:?}");
        }
        let longs: Vec<&str> = ours.flags.iter().map(|f| f.long.as_str()).collect();
        let mut sorted = longs.clone();
        sorted.sort_unstable();
        assert_eq!(longs, sorted, "{name}");

        assert_eq!(
            ours.usage,
            theirs.usage.map(|u| u.replacen("kubectl ", "kw ", 1)),
            "{name}"
        );
        assert_eq!(
            ours.footer,
            theirs
                .footer
                .map(|f| f.replace("\"kubectl options\"", "\"kw --help\"")),
            "{name}"
        );
    }
}

/// What kw knows of kubectl's verbs (their flags and synopsis) is what kubectl 1.32 says, the
/// verbs kw does not have yet included.
#[test]
fn kubectl_verbs_lists_kubectls_own_flags_and_usage() {
    let kubectl = harness::kubectl();
    for verb in KUBECTL_VERBS {
        let theirs = read_page(&piped(&kubectl, &help_args(verb)));
        let kubectls: Vec<&str> = theirs.flags.iter().map(|f| f.long.as_str()).collect();
        assert_eq!(verb.kubectl_flags, kubectls, "{:?}", verb.path);
        assert_eq!(
            theirs.usage,
            Some(format!(
                "  kubectl {} {} [options]",
                verb.path.join(" "),
                verb.synopsis
            ))
        );
    }
}

#[test]
fn dash_h_prints_the_same_page_as_kubectls_dash_h_does() {
    let kubectl = harness::kubectl();
    for verb in verbs_kw_has() {
        let mut short = verb.path.to_vec();
        short.push("-h");
        assert_eq!(
            piped(&kubectl, &short),
            piped(&kubectl, &help_args(verb)),
            "kubectl's -h"
        );
        assert_eq!(piped(kw(), &short), piped(kw(), &help_args(verb)));
    }
}

/// kubectl wraps only on a terminal of 80 columns or more, at 80, 100 or 120: each page on a
/// terminal of each width is the piped page wrapped by `fit` (checked on kubectl's pages, of
/// every verb of `KUBECTL_VERBS`, it is kubectl's wrapping; on kw's, kw applies it at the same
/// widths).
#[test]
fn on_a_terminal_both_pages_wrap_at_kubectls_widths_as_kubectl_wraps() {
    let kubectl = harness::kubectl();
    let kw_has = verbs_kw_has();
    for verb in KUBECTL_VERBS {
        let name = verb.path.join(" ");
        let args = help_args(verb);
        let kubectl_piped = piped(&kubectl, &args);
        let kw_piped = kw_has
            .iter()
            .any(|v| v.path == verb.path)
            .then(|| piped(kw(), &args));
        for columns in [60u16, 79, 80, 99, 100, 119, 120, 200] {
            let limit = cli_help::wrap_limit(Some(usize::from(columns)));
            let kubectl_tty = on_terminal(&kubectl, &args, columns);
            assert_eq!(
                kubectl_tty,
                cli_help::fit(&kubectl_piped, limit),
                "kubectl {name} --help on {columns} columns is not what `fit` makes of it"
            );
            if columns == 80 {
                assert_ne!(kubectl_tty, kubectl_piped, "kubectl wraps at 80 columns");
            }
            let Some(kw_piped) = &kw_piped else { continue };
            let kw_tty = on_terminal(kw(), &args, columns);
            assert_eq!(
                kw_tty,
                cli_help::fit(kw_piped, limit),
                "kw {name} --help on {columns} columns"
            );
            let widest = kw_tty.lines().map(|l| l.chars().count()).max();
            if let Some(limit) = limit {
                assert!(
                    widest <= Some(limit),
                    "{name}, {columns} columns:\n{kw_tty}"
                );
            }
        }
    }
}

/// What `program args` prints with its stdout on a terminal `columns` wide (output processing
/// off, so the bytes are the program's own).
fn on_terminal(program: impl AsRef<std::path::Path>, args: &[&str], columns: u16) -> String {
    let program = program.as_ref();
    let (master, slave) = pseudo_terminal(columns);
    let mut command = crate::harness::tools::command(program);
    command
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::from(slave))
        .stderr(Stdio::piped());
    without_width_hints(&mut command);
    let mut child = command.spawn().expect("starts");
    // The child has the terminal now: ours must close, or reading never meets its end.
    drop(command);
    let done = Arc::new(AtomicBool::new(false));
    let reader = {
        let done = done.clone();
        std::thread::spawn(move || read_until_closed(&master, &done))
    };
    let code = harness::wait_with_limit(&mut child, LIMIT);
    done.store(true, Ordering::SeqCst);
    let mut stderr = String::new();
    let _ = child
        .stderr
        .take()
        .expect("stderr")
        .read_to_string(&mut stderr);
    assert_eq!(code, Some(0), "{} {args:?}: {stderr}", program.display());
    String::from_utf8(reader.join().expect("reader")).expect("UTF-8")
}

/// A pseudo-terminal `columns` wide, neither end inherited by other children of the tests.
fn pseudo_terminal(columns: u16) -> (OwnedFd, OwnedFd) {
    let size = libc::winsize {
        ws_row: 50,
        ws_col: columns,
        ws_xpixel: 0,
        ws_ypixel: 0,
    };
    let (mut master, mut slave) = (-1, -1);
    // SAFETY: openpty writes two descriptors into the integers we own and reads `size`.
    let opened = unsafe {
        libc::openpty(
            &mut master,
            &mut slave,
            std::ptr::null_mut(),
            std::ptr::null(),
            &size,
        )
    };
    assert_eq!(opened, 0, "openpty: {}", std::io::Error::last_os_error());
    // SAFETY: both descriptors were just opened and are owned by nothing else.
    let (master, slave) = unsafe { (OwnedFd::from_raw_fd(master), OwnedFd::from_raw_fd(slave)) };
    for fd in [&master, &slave] {
        // SAFETY: fcntl on a descriptor we own.
        unsafe { libc::fcntl(fd.as_raw_fd(), libc::F_SETFD, libc::FD_CLOEXEC) };
    }
    // SAFETY: termios is plain data, read and written on the descriptor we own.
    unsafe {
        let mut modes: libc::termios = std::mem::zeroed();
        assert_eq!(libc::tcgetattr(slave.as_raw_fd(), &mut modes), 0);
        modes.c_oflag &= !libc::OPOST;
        assert_eq!(libc::tcsetattr(slave.as_raw_fd(), libc::TCSANOW, &modes), 0);
    }
    (master, slave)
}

/// Everything written to the terminal: read until the writer's side is closed (EIO), or,
/// once the writer has exited, until nothing more comes.
fn read_until_closed(master: &OwnedFd, done: &AtomicBool) -> Vec<u8> {
    let deadline = Instant::now() + LIMIT;
    let mut out = Vec::new();
    let mut buffer = [0u8; 8192];
    while Instant::now() < deadline {
        let mut poll = libc::pollfd {
            fd: master.as_raw_fd(),
            events: libc::POLLIN,
            revents: 0,
        };
        let finished = done.load(Ordering::SeqCst);
        // SAFETY: one pollfd of ours.
        let ready = unsafe { libc::poll(&mut poll, 1, 100) };
        if ready <= 0 {
            if finished {
                break;
            }
            continue;
        }
        // SAFETY: reads into our buffer, at most its length.
        let n = unsafe { libc::read(master.as_raw_fd(), buffer.as_mut_ptr().cast(), buffer.len()) };
        if n <= 0 {
            break;
        }
        out.extend_from_slice(&buffer[..n as usize]);
    }
    out
}
