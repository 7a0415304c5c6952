//! `kw get --live` as a person sees it: a real terminal (tmux, through `completion_terminal`'s
//! `Terminal`), a shell, a churning `kw sim`, and a burst of changes in the namespace watched.
//! The screen must end up holding one header and one row per current object, deleted ones gone;
//! a resize must redraw; Ctrl-C and `--timeout` must leave the last frame and a usable terminal.
//!
//! The suite needs tmux (`.ci/run` installs it): without it these tests fail.

use crate::completion_terminal::Terminal;
use crate::harness;

use std::ffi::OsString;
use std::path::Path;
use std::time::Duration;

use harness::Cluster;
use kw_sim::SimConfig;
use serde_json::json;

pub(crate) const PROMPT: &str = "live$ ";

/// The seeded world churning (elsewhere), and `shop` holding `web-00` .. `web-07`.
fn shop() -> Cluster {
    let cluster = Cluster::start(SimConfig {
        churn: Some(20.0),
        ..SimConfig::default()
    });
    // The namespace exists, so the watch has nothing to say about it.
    let _ = cluster
        .sim
        .create("namespaces", json!({"metadata": {"name": "shop"}}));
    for index in 0..8 {
        create_pod(&cluster, &format!("web-{index:02}"));
    }
    cluster
}

fn create_pod(cluster: &Cluster, name: &str) {
    cluster
        .sim
        .create(
            "pods",
            json!({"metadata": {"name": name, "namespace": "shop", "labels": {"app": "web"}}}),
        )
        .expect("pod created");
}

/// A bash in tmux with kw on PATH and the cluster's kubeconfig (160 x 50; `resize-window` for
/// another size). The other `--live` tests use it too.
pub(crate) fn terminal(cluster: &Cluster, dir: &Path) -> Terminal {
    let rc = dir.join("bashrc");
    std::fs::write(&rc, format!("PS1='{PROMPT}'\n")).expect("rc");
    let kw = Path::new(env!("CARGO_BIN_EXE_kw"));
    let bin = dir.join("bin");
    std::fs::create_dir_all(&bin).expect("bin dir");
    std::os::unix::fs::symlink(kw, bin.join("kw")).expect("link");
    let mut path = vec![bin];
    path.extend(std::env::split_paths(
        &std::env::var_os("PATH").unwrap_or_default(),
    ));
    let env: Vec<(&str, OsString)> = vec![
        ("PATH", std::env::join_paths(path).expect("PATH joins")),
        ("HOME", dir.into()),
        ("KUBECONFIG", cluster.kubeconfig.clone().into()),
        ("TERM", "tmux-256color".into()),
        ("LANG", "C.UTF-8".into()),
    ];
    let rc = rc.display().to_string();
    Terminal::start(dir, &env, &["bash", "--noprofile", "--rcfile", &rc, "-i"])
}

/// The live frame on `screen`: its header lines, the names in its rows, and its footer.
struct Frame {
    headers: usize,
    names: Vec<String>,
    footer: Option<String>,
    more: bool,
}

fn frame(screen: &[String]) -> Frame {
    let start = screen
        .iter()
        .position(|l| l.contains("kw get pods"))
        .map_or(0, |i| i + 1);
    let mut frame = Frame {
        headers: 0,
        names: Vec::new(),
        footer: None,
        more: false,
    };
    for line in &screen[start..] {
        if line.starts_with("NAME ") {
            frame.headers += 1;
        } else if line.starts_with("… and ") {
            frame.more = true;
        } else if line.contains(" pod") && line.chars().next().is_some_and(|c| c.is_ascii_digit()) {
            frame.footer = Some(line.clone());
        } else if frame.headers > 0 && frame.footer.is_none() {
            if let Some(name) = line.split_whitespace().next() {
                frame.names.push(name.to_string());
            }
        }
    }
    frame
}

fn names(list: &[&str]) -> Vec<String> {
    list.iter().map(|s| s.to_string()).collect()
}

#[test]
fn the_screen_holds_the_current_objects_after_a_burst_and_a_resize_redraws() {
    crate::harness::require("tmux", &["-V"]);
    let cluster = shop();
    let dir = tempfile::tempdir().expect("temp dir");
    let terminal = terminal(&cluster, dir.path());
    terminal.wait_for_prompts(PROMPT, 1);
    terminal.type_text("kw get pods -n shop --live");
    terminal.press("Enter");
    terminal.wait_for("the listed pods", |screen| {
        frame(screen)
            .footer
            .is_some_and(|f| f.starts_with("8 pods"))
    });

    // The burst: four deleted, five created, one changed.
    for index in 0..4 {
        cluster
            .sim
            .delete("pods", "shop", &format!("web-{index:02}"))
            .expect("pod deleted");
    }
    for index in 0..5 {
        create_pod(&cluster, &format!("new-{index:02}"));
    }
    let mut changed = json!({"metadata": {"name": "web-05", "namespace": "shop",
        "labels": {"app": "web", "changed": "yes"}}});
    changed["metadata"]["labels"]["burst"] = json!("1");
    cluster.sim.update("pods", changed).expect("pod updated");

    let expected = names(&[
        "new-00", "new-01", "new-02", "new-03", "new-04", "web-04", "web-05", "web-06", "web-07",
    ]);
    // Deleted rows linger dimmed for a few seconds, then go.
    let screen = terminal.wait_for("the current pods only", |screen| {
        let frame = frame(screen);
        frame.names == expected && frame.footer.is_some_and(|f| f.starts_with("9 pods"))
    });
    let shown = frame(&screen);
    assert_eq!(shown.headers, 1, "one header:\n{}", screen.join("\n"));
    assert!(
        screen.iter().any(|l| l.starts_with("reconnects: ")),
        "a status line:\n{}",
        screen.join("\n")
    );

    // Smaller than the frame: it is redrawn to fit, the rest counted.
    terminal.tmux(&["resize-window", "-x", "60", "-y", "8"]);
    let screen = terminal.wait_for("a frame fitted to 60x8", |screen| {
        let frame = frame(screen);
        frame.more && frame.headers == 1 && screen.len() <= 8
    });
    assert!(
        screen.iter().all(|l| l.chars().count() <= 60),
        "every line fits:\n{}",
        screen.join("\n")
    );
    // Larger again: every row is back.
    terminal.tmux(&["resize-window", "-x", "120", "-y", "30"]);
    terminal.wait_for("every row after growing", |screen| {
        let frame = frame(screen);
        frame.names == expected && !frame.more && frame.headers == 1
    });
}

#[test]
fn ctrl_c_and_timeout_leave_the_last_frame_and_a_sane_terminal() {
    crate::harness::require("tmux", &["-V"]);
    let cluster = shop();
    let dir = tempfile::tempdir().expect("temp dir");
    let terminal = terminal(&cluster, dir.path());
    terminal.wait_for_prompts(PROMPT, 1);
    terminal.type_text("kw get pods -n shop --live; echo \"code=$?\"");
    terminal.press("Enter");
    terminal.wait_for("the listed pods", |screen| {
        frame(screen)
            .footer
            .is_some_and(|f| f.starts_with("8 pods"))
    });
    terminal.press("C-c");
    let screen = terminal.wait_for("the exit code", |screen| {
        screen.iter().any(|l| l.contains("code=130"))
    });
    let last = frame(&screen);
    assert_eq!(
        last.headers,
        1,
        "the last frame stays:\n{}",
        screen.join("\n")
    );
    assert_eq!(last.names.len(), 8, "{}", screen.join("\n"));
    assert_eq!(
        terminal.tmux(&["display", "-p", "#{cursor_flag}"]).trim(),
        "1",
        "the cursor is shown again"
    );
    // The terminal still echoes and reads lines.
    terminal.type_text("clear; echo \"sa\"ne");
    terminal.press("Enter");
    terminal.wait_for("the shell answering", |screen| {
        screen.iter().any(|l| l == "sane")
    });

    // --timeout ends the view with its exit code, the last frame above the message.
    terminal.type_text("kw get pods -n shop --live --timeout 2s; echo \"code=$?\"");
    terminal.press("Enter");
    let screen = terminal.wait_for("the timeout's exit code", |screen| {
        screen.iter().any(|l| l.contains("code=3"))
    });
    let last = frame(&screen);
    assert_eq!(last.headers, 1, "{}", screen.join("\n"));
    assert_eq!(last.names.len(), 8, "{}", screen.join("\n"));
    let footer = screen
        .iter()
        .position(|l| l.starts_with("8 pods"))
        .expect("footer");
    let message = screen
        .iter()
        .position(|l| l.contains("ran out"))
        .expect("the timeout message");
    assert!(footer < message, "{}", screen.join("\n"));
    assert_eq!(
        terminal.tmux(&["display", "-p", "#{cursor_flag}"]).trim(),
        "1"
    );
}

/// The terminal's cursor and auto-wrap flags as tmux sees them (`1 1`: shown, wrapping).
fn cursor_and_wrap(terminal: &Terminal) -> String {
    terminal
        .tmux(&["display", "-p", "#{cursor_flag} #{wrap_flag}"])
        .trim()
        .to_string()
}

/// Wait until the terminal's flags are `flags` (at most 20 s).
fn wait_for_flags(terminal: &Terminal, flags: &str, what: &str) {
    let deadline = std::time::Instant::now() + Duration::from_secs(20);
    while cursor_and_wrap(terminal) != flags {
        assert!(
            std::time::Instant::now() < deadline,
            "{what}: the flags stay {}; the screen:\n{}",
            cursor_and_wrap(terminal),
            terminal.screen().join("\n")
        );
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// Ctrl-Z gives the terminal back while kw is stopped and `fg` brings the view back; SIGTERM
/// ends it with 143 and the terminal given back (issue #45, item 7; before, the prompt came
/// back after Ctrl-Z with the cursor hidden and auto-wrap off, and SIGTERM exited 130).
#[test]
fn ctrl_z_and_sigterm_give_the_terminal_back() {
    crate::harness::require("tmux", &["-V"]);
    let cluster = shop();
    let dir = tempfile::tempdir().expect("temp dir");
    let terminal = terminal(&cluster, dir.path());
    terminal.wait_for_prompts(PROMPT, 1);
    terminal.type_text("kw get pods -n shop --live");
    terminal.press("Enter");
    terminal.wait_for("the listed pods", |screen| {
        frame(screen)
            .footer
            .is_some_and(|f| f.starts_with("8 pods"))
    });
    wait_for_flags(
        &terminal,
        "0 0",
        "the view hides the cursor and stops wrapping",
    );

    terminal.press("C-z");
    terminal.wait_for("the job stopped", |screen| {
        screen.iter().any(|l| l.contains("Stopped"))
    });
    assert_eq!(
        cursor_and_wrap(&terminal),
        "1 1",
        "given back while stopped"
    );

    terminal.type_text("fg");
    terminal.press("Enter");
    wait_for_flags(&terminal, "0 0", "the view draws again once continued");
    let screen = terminal.wait_for("a frame after fg", |screen| {
        let after = screen.iter().rposition(|l| {
            l.trim() == "kw get pods -n shop --live; echo \"code=$?\"" || l.ends_with("fg")
        });
        after.is_some_and(|at| frame(&screen[at..]).footer.is_some())
    });
    assert!(frame(&screen).headers >= 1, "{}", screen.join("\n"));

    // kw is the shell's one child: its pid, for SIGTERM.
    let shell = terminal.tmux(&["display", "-p", "#{pane_pid}"]);
    let children = std::fs::read_to_string(format!("/proc/{0}/task/{0}/children", shell.trim()))
        .expect("the shell's children");
    let kw: libc::pid_t = children
        .split_whitespace()
        .next()
        .and_then(|pid| pid.parse().ok())
        .expect("kw's pid");
    // SAFETY: kill(2) of the process this test started in its terminal.
    assert_eq!(unsafe { libc::kill(kw, libc::SIGTERM) }, 0);
    wait_for_flags(&terminal, "1 1", "given back at the end");
    // `fg` returns kw's status.
    terminal.type_text("echo \"code=$?\"");
    terminal.press("Enter");
    let screen = terminal.wait_for("the exit code", |screen| {
        screen.iter().any(|l| l.starts_with("code="))
    });
    assert!(
        screen.iter().any(|l| l == "code=143"),
        "{}",
        screen.join("\n")
    );
}

/// An abort while the view holds the terminal (a stack overflow ends in one; debug builds can
/// be told to abort): the cursor shown and auto-wrap on again, from the SIGABRT handler, and
/// the abort's own exit (issue #45, item 7).
#[test]
fn an_abort_in_the_view_gives_the_terminal_back() {
    crate::harness::require("tmux", &["-V"]);
    let cluster = shop();
    let dir = tempfile::tempdir().expect("temp dir");
    let terminal = terminal(&cluster, dir.path());
    terminal.wait_for_prompts(PROMPT, 1);
    terminal.type_text("KW_TEST_ABORT_IN_VIEW=1 kw get pods -n shop --live; echo \"code=$?\"");
    terminal.press("Enter");
    let screen = terminal.wait_for("the exit code", |screen| {
        screen.iter().any(|l| l.starts_with("code="))
    });
    assert!(
        screen.iter().any(|l| l == "code=134"),
        "{}",
        screen.join("\n")
    );
    assert_eq!(cursor_and_wrap(&terminal), "1 1", "given back");
}

/// A bug in kw (a panic, which debug builds can be told to meet while the view draws) still
/// ends as an error does: one line on stderr, exit code 70, and the terminal given back: the
/// cursor shown, the frame's last line not claiming a Ctrl-C, no Rust backtrace.
#[test]
fn a_panic_in_the_view_gives_the_terminal_back_and_says_one_line() {
    crate::harness::require("tmux", &["-V"]);
    let cluster = shop();
    let dir = tempfile::tempdir().expect("temp dir");
    let terminal = terminal(&cluster, dir.path());
    terminal.wait_for_prompts(PROMPT, 1);
    let err = dir.path().join("err");
    terminal.type_text(&format!(
        "KW_TEST_PANIC_IN_VIEW=1 RUST_BACKTRACE=0 kw get pods -n shop --live 2>{}; echo \"code=$?\"",
        err.display()
    ));
    terminal.press("Enter");
    let screen = terminal.wait_for("the exit code", |screen| {
        screen.iter().any(|l| l.starts_with("code="))
    });
    assert!(
        screen.iter().any(|l| l.starts_with("code=70")),
        "{}",
        screen.join("\n")
    );
    assert!(
        !screen.iter().any(|l| l.contains("interrupted")),
        "{}",
        screen.join("\n")
    );
    assert_eq!(
        terminal.tmux(&["display", "-p", "#{cursor_flag}"]).trim(),
        "1",
        "the cursor is shown again"
    );
    let said = std::fs::read_to_string(&err).expect("stderr file");
    let lines: Vec<&str> = said.lines().collect();
    assert_eq!(lines.len(), 1, "{said}");
    assert!(
        lines[0].starts_with("kw: internal error: KW_TEST_PANIC_IN_VIEW set"),
        "{said}"
    );
}

#[test]
fn live_in_a_pipe_is_a_usage_error_pointing_to_watch() {
    let cluster = Cluster::seeded();
    let outcome = harness::run(cluster.get(&["pods", "--live"]), Duration::from_secs(20));
    assert_eq!(outcome.code, Some(1), "{outcome:?}");
    assert_eq!(outcome.stdout, "");
    assert_eq!(outcome.stderr.lines().count(), 1, "{outcome:?}");
    assert!(outcome.stderr.contains("-w"), "{outcome:?}");
}

/// Between events AGE and `RESTARTS (Xs ago)` move on; on a narrow screen whole columns go
/// from the right (no value cut short) and the crash-looping Pod stays on screen, though the
/// Pods outnumber the lines (issue 32 item 4).
#[test]
fn clocks_tick_between_events_and_a_narrow_screen_keeps_whole_cells_and_the_failing_row() {
    crate::harness::require("tmux", &["-V"]);
    // The seeded world, still: no event after the first list.
    let cluster = Cluster::seeded();
    let dir = tempfile::tempdir().expect("temp dir");
    let terminal = terminal(&cluster, dir.path());
    terminal.tmux(&["resize-window", "-x", "80", "-y", "10"]);
    terminal.wait_for_prompts(PROMPT, 1);
    terminal.type_text("kw get pods -A --live");
    terminal.press("Enter");
    let footer = |screen: &[String]| screen.iter().find(|l| l.contains(" pods: ")).cloned();
    // More pods than lines, the crash-looping one (last in list order) on screen. Waited
    // for, as a frame may be drawn while the list is still arriving; without it, a timeout.
    let shown = |screen: &[String]| {
        footer(screen).is_some()
            && screen.iter().any(|l| l.starts_with("… and "))
            && screen
                .iter()
                .any(|l| l.contains("flaky-worker") && l.contains("CrashLoopBackOff"))
    };
    let screen = terminal.wait_for("the failing row above `… and N more`", shown);
    let all = screen.join("\n");
    let header = screen
        .iter()
        .find(|l| l.starts_with("NAMESPACE "))
        .unwrap_or_else(|| panic!("a header:\n{all}"));
    for word in header.split_whitespace() {
        assert!(
            ["NAMESPACE", "NAME", "READY", "STATUS", "RESTARTS", "AGE"].contains(&word),
            "whole column names only: {header:?}\n{all}"
        );
    }
    assert!(screen.iter().all(|l| l.chars().count() <= 80), "{all}");
    let flaky = screen
        .iter()
        .find(|l| l.contains("flaky-worker"))
        .expect("the row");
    assert!(
        !flaky.contains('(') || flaky.ends_with(" ago)"),
        "a restart's time whole or not at all: {flaky:?}\n{all}"
    );

    // Wide enough for every column: the crash loop's clocks, twice, with no event between.
    terminal.tmux(&["resize-window", "-x", "160", "-y", "40"]);
    let flaky = |screen: &[String]| {
        screen
            .iter()
            .find(|l| l.contains("flaky-worker") && l.contains(" ago)"))
            .cloned()
    };
    let ago = |row: &str| {
        row.split_once('(')
            .and_then(|(_, rest)| rest.split_once(" ago)"))
            .map(|(duration, _)| duration.to_string())
            .expect("(X ago)")
    };
    let first = terminal.wait_for("every column", |screen| {
        flaky(screen).is_some()
            && screen
                .iter()
                .any(|l| l.starts_with("NAMESPACE ") && l.ends_with(" AGE"))
    });
    let before = flaky(&first).expect("the row");
    let later = terminal.wait_for("the clocks to move", |screen| {
        flaky(screen).is_some_and(|row| ago(&row) != ago(&before))
    });
    let after = flaky(&later).expect("the row");
    assert_ne!(ago(&before), ago(&after), "{before}\n{after}");
    let age = |row: &str| row.split_whitespace().last().map(str::to_string);
    assert_eq!(age(&before), age(&after), "AGE in minutes moves in minutes");
    assert_eq!(
        footer(&first),
        footer(&later),
        "nothing changed but the clocks:\n{}",
        later.join("\n")
    );
    assert!(
        later
            .iter()
            .any(|l| l.contains("last event ") && !l.contains("last event 0s")),
        "no event since the list:\n{}",
        later.join("\n")
    );
}
