//! `--live` against names a terminal and kw measure differently, or that would move its columns
//! (issue 31 items 5 and 6): U+3164 (zero columns for `unicode-width`, two for glibc and tmux),
//! the soft hyphen (zero and one), a TAB, and a 20 MiB name. The frame must stay where it is
//! (auto-wrap is off while it draws, each line clipped), the columns and the footer's status
//! words must hold, and a huge name must cost what the screen shows.
//!
//! The suite needs tmux (`.ci/run` installs it): without it the terminal test fails.

use std::time::Duration;

use kw_sim::SimConfig;
use serde_json::json;

use crate::harness::{self, Cluster};
use crate::live_terminal::{terminal, PROMPT};

/// A cluster holding only namespace `shop` and pods with the names given.
fn shop_with(names: &[String]) -> Cluster {
    let cluster = Cluster::start(SimConfig {
        clock: Some(harness::frozen_now()),
        empty: true,
        ..SimConfig::default()
    });
    let _ = cluster
        .sim
        .create("namespaces", json!({"metadata": {"name": "shop"}}));
    for name in names {
        cluster
            .sim
            .create(
                "pods",
                json!({"metadata": {"name": name, "namespace": "shop"},
                    "status": {"phase": "Running"}}),
            )
            .expect("the sim takes any name");
    }
    cluster
}

#[test]
fn names_wider_than_measured_or_holding_a_tab_move_nothing() {
    crate::harness::require("tmux", &["-V"]);
    let names = [
        "web-1".to_string(),
        format!("hangul-{}", "\u{3164}".repeat(40)),
        format!("soft-{}", "\u{ad}".repeat(60)),
        "tab\tbed".to_string(),
    ];
    let cluster = shop_with(&names);
    let dir = tempfile::tempdir().expect("temp dir");
    let terminal = terminal(&cluster, dir.path());
    terminal.tmux(&["resize-window", "-x", "80", "-y", "24"]);
    terminal.wait_for_prompts(PROMPT, 1);
    terminal.type_text("kw get pods -n shop --live");
    terminal.press("Enter");
    terminal.wait_for("the listed pods", |screen| {
        screen.iter().any(|l| l.starts_with("4 pods"))
    });
    // The status line counts seconds: three redraws at least.
    terminal.wait_for("three seconds of redraws", |screen| {
        screen.iter().any(|l| l.contains("last event 3s ago"))
    });
    let joined = terminal.screen();
    let all = joined.join("\n");
    let headers = joined.iter().filter(|l| l.starts_with("NAME ")).count();
    assert_eq!(headers, 1, "one header, no stale frames:\n{all}");
    // `screen` joins wrapped lines: a row that wrapped would be two lines here.
    let raw = terminal.tmux(&["capture-pane", "-p"]);
    let raw: Vec<&str> = raw.lines().map(str::trim_end).collect();
    let raw_len = raw.iter().rposition(|l| !l.is_empty()).map_or(0, |i| i + 1);
    assert_eq!(raw_len, joined.len(), "no row wrapped:\n{}", raw.join("\n"));

    // The TAB is shown, not laid out: its row has the columns of the others.
    let row = joined
        .iter()
        .find(|l| l.starts_with("tab"))
        .unwrap_or_else(|| panic!("the TAB row:\n{all}"));
    assert!(row.starts_with("tab^Ibed "), "{all}");
    let web = joined
        .iter()
        .find(|l| l.starts_with("web-1 "))
        .unwrap_or_else(|| panic!("web-1's row:\n{all}"));
    let columns = |line: &str| line.split_whitespace().count();
    assert_eq!(columns(row), columns(web), "{all}");
    // The footer counts status words only.
    let footer = joined
        .iter()
        .find(|l| l.starts_with("4 pods"))
        .unwrap_or_else(|| panic!("the footer:\n{all}"));
    let counted: usize = footer
        .split_once(": ")
        .map(|(_, counts)| counts)
        .unwrap_or_default()
        .split(", ")
        .map(|part| {
            let (count, word) = part
                .split_once(' ')
                .unwrap_or_else(|| panic!("`N word`: {footer}\n{all}"));
            assert!(
                word.chars().all(|c| c.is_ascii_alphabetic()),
                "a status word, not a cell: {footer}"
            );
            count.parse::<usize>().expect("a count")
        })
        .sum();
    assert_eq!(counted, 4, "{footer}");

    terminal.press("C-c");
    terminal.wait_for_prompts(PROMPT, 2);
    assert_eq!(
        terminal.tmux(&["display", "-p", "#{wrap_flag}"]).trim(),
        "1",
        "auto-wrap is on again after Ctrl-C"
    );
}

/// A huge name (4 MiB: a debug build's sim takes seconds to serve 20): the view keeps what a
/// screen can show of it, so it costs the object, not copies of it at every frame (before:
/// a 20 MiB name cost 500 MB and 7 s of CPU in 11 s).
#[test]
fn a_huge_name_costs_what_the_screen_shows() {
    const NAME: usize = 4 << 20;
    let huge = format!("huge-{}", "x".repeat(NAME));
    let cluster = shop_with(&["web-1".to_string(), huge]);
    let out = cluster.dir.path().join("frames");
    let mut cmd = cluster.get(&["pods", "-n", "shop", "--live"]);
    cmd.env("KW_FORCE_TERMINAL", "1")
        .env("COLUMNS", "100")
        .stdout(std::fs::File::create(&out).expect("frames file"))
        .stderr(std::process::Stdio::null());
    // Shown, then drawn again for a second and a half (a frame a second at least).
    let shown = || {
        std::fs::read(&out)
            .is_ok_and(|frames| String::from_utf8_lossy(&frames).contains("2 pods: 2 Running"))
    };
    let (code, peak_kib) = peak_memory_kib(&mut cmd, shown, Duration::from_secs(60));
    assert_eq!(code, Some(130), "Ctrl-C ends it");
    assert!(
        peak_kib * 1024 < 16 * NAME as i64,
        "peak {} MiB with a {} MiB name (before: 109 MiB)",
        peak_kib / 1024,
        NAME >> 20
    );
}

/// kw's peak resident memory (KiB) and exit code, running `cmd` within `limit` until `done`
/// has held for 1.5 s, then interrupting it (Ctrl-C): the largest `VmHWM` read while it runs
/// (as `summary_logs` measures it: not `ru_maxrss`, which carries the forked test binary's
/// memory across `exec`).
// The child is reaped by `waitpid` (polled beside the memory reads), not by `Child::wait`.
#[allow(clippy::zombie_processes)]
fn peak_memory_kib(
    cmd: &mut std::process::Command,
    done: impl Fn() -> bool,
    limit: Duration,
) -> (Option<i32>, i64) {
    let mut child = cmd.spawn().expect("kw starts");
    let pid = child.id() as libc::pid_t;
    let deadline = std::time::Instant::now() + limit;
    let status_file = format!("/proc/{pid}/status");
    let mut peak: i64 = 0;
    let mut done_at: Option<std::time::Instant> = None;
    loop {
        if done_at.is_none() && done() {
            done_at = Some(std::time::Instant::now());
        }
        if done_at.is_some_and(|at| at.elapsed() >= Duration::from_millis(1500)) {
            // SAFETY: a signal to our own child, not yet reaped.
            unsafe { libc::kill(pid, libc::SIGINT) };
        }
        if let Ok(status) = std::fs::read_to_string(&status_file) {
            let hwm = status
                .lines()
                .find_map(|line| line.strip_prefix("VmHWM:"))
                .and_then(|kib| kib.trim().trim_end_matches("kB").trim().parse::<i64>().ok());
            peak = peak.max(hwm.unwrap_or(0));
        }
        let mut status = 0;
        // SAFETY: a plain out-parameter for waitpid on our own child.
        let reaped = unsafe { libc::waitpid(pid, &mut status, libc::WNOHANG) };
        if reaped == pid {
            let code = libc::WIFEXITED(status).then(|| libc::WEXITSTATUS(status));
            return (code, peak);
        }
        assert!(reaped == 0, "waitpid failed");
        if std::time::Instant::now() >= deadline {
            let _ = child.kill();
            let _ = child.wait();
            panic!("kw did not finish within {limit:?}");
        }
        std::thread::sleep(Duration::from_millis(5));
    }
}

/// Issue 56, point 8: at 80 columns a crash-looping Pod's row kept NAME, READY and STATUS and
/// dropped RESTARTS, what people watch Pods for, with nothing on screen to say so. The
/// columns give way AGE first, then from the right, RESTARTS last.
#[test]
fn restarts_survive_at_80_columns() {
    crate::harness::require("tmux", &["-V"]);
    let cluster = Cluster::start(SimConfig {
        clock: Some(harness::frozen_now()),
        empty: true,
        ..SimConfig::default()
    });
    let _ = cluster
        .sim
        .create("namespaces", json!({"metadata": {"name": "shop-prod"}}));
    for name in [
        "payments-worker-7c9f8d6b5-r6977",
        "payments-worker-7c9f8d6b5-6zjwc",
    ] {
        let pod = json!({
            "metadata": {"name": name, "namespace": "shop-prod",
                         "creationTimestamp": "2025-12-28T00:00:00Z"},
            "spec": {"containers": [{"name": "web", "image": "shop:1"}]},
            "status": {"phase": "Running", "containerStatuses": [{
                "name": "web", "ready": false, "restartCount": 7,
                "state": {"waiting": {"reason": "CrashLoopBackOff"}},
                "lastState": {"terminated": {"exitCode": 1,
                                             "finishedAt": "2026-01-01T11:57:50Z"}}}]}
        });
        cluster
            .sim
            .create("pods", pod)
            .expect("the sim takes the pod");
    }
    let dir = tempfile::tempdir().expect("temp dir");
    let terminal = terminal(&cluster, dir.path());
    terminal.tmux(&["resize-window", "-x", "80", "-y", "24"]);
    terminal.wait_for_prompts(PROMPT, 1);
    terminal.type_text("kw get pods -A --live");
    terminal.press("Enter");
    let screen = terminal.wait_for("the listed pods", |screen| {
        screen.iter().any(|l| l.starts_with("2 pods"))
    });
    let all = screen.join("\n");
    let header = screen
        .iter()
        .find(|l| l.starts_with("NAMESPACE "))
        .unwrap_or_else(|| panic!("the header:\n{all}"));
    let header: Vec<&str> = header.split_whitespace().collect();
    // Kept: which object (NAMESPACE, NAME), what is wrong (STATUS), and RESTARTS; AGE and
    // READY gave way.
    assert_eq!(header, ["NAMESPACE", "NAME", "STATUS", "RESTARTS"], "{all}");
    let row = screen
        .iter()
        .find(|l| l.contains("-r6977 "))
        .unwrap_or_else(|| panic!("a Pod's row:\n{all}"));
    assert!(
        row.ends_with("CrashLoopBackOff   7 (2m10s ago)"),
        "{row:?}\n{all}"
    );
    terminal.press("C-c");
    terminal.wait_for_prompts(PROMPT, 2);
}
