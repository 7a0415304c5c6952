//! `--live` with `--until`/`--fail-on` in a real terminal (tmux): the rows and the verdict come
//! from the run's one judge, so the last frame says what ended the run (issue 29 item 3), and
//! the causes and the summary follow it on stderr, as with `-w`.
//!
//! The suite needs tmux (`.ci/run` installs it): without it these tests fail.

use std::time::Duration;

use kw_sim::rollout::{Plot, Rollout};

use crate::harness::Cluster;
use crate::live_terminal::{terminal, PROMPT};

fn position(screen: &[String], what: &str, found: impl Fn(&str) -> bool) -> usize {
    screen
        .iter()
        .position(|l| found(l))
        .unwrap_or_else(|| panic!("{what}:\n{}", screen.join("\n")))
}

/// Run `command` in the terminal while the sim plays a crash loop for `shop`; the screen once
/// it has said its exit code (`code=N`).
fn crash_loop_under(
    terminal: &crate::completion_terminal::Terminal,
    cluster: &Cluster,
    command: &str,
) -> Vec<String> {
    terminal.type_text(&format!("{command}; echo \"code=$?\""));
    terminal.press("Enter");
    let mut rollout = Rollout::new(Plot::CrashLoop, "default", "shop");
    rollout.beat = Duration::from_millis(200);
    cluster.sim.play_rollout(&rollout).expect("rollout plays");
    terminal.wait_for("the exit code", |screen| {
        screen.iter().any(|l| l.starts_with("code="))
    })
}

#[test]
fn a_crash_loop_ends_on_a_failed_frame_then_the_summary_and_log() {
    crate::harness::require("tmux", &["-V"]);
    let cluster = Cluster::seeded();
    let dir = tempfile::tempdir().expect("temp dir");
    let terminal = terminal(&cluster, dir.path());
    terminal.tmux(&["resize-window", "-x", "200", "-y", "70"]);
    terminal.wait_for_prompts(PROMPT, 1);
    let screen = crash_loop_under(
        &terminal,
        &cluster,
        "kw get deploy/shop --live --until ready --fail-on failed --fail-grace 0 --timeout 60s",
    );
    let all = screen.join("\n");
    assert!(screen.iter().any(|l| l == "code=2"), "{all}");

    // The last frame: one header, the row failed with its Pod's cause, the footer counting it.
    let headers = screen.iter().filter(|l| l.starts_with("NAME ")).count();
    assert_eq!(headers, 1, "one frame:\n{all}");
    let row = position(&screen, "the row", |l| l.starts_with("shop "));
    assert!(
        screen[row].contains("failed: pod/shop-") && screen[row].contains("CrashLoopBackOff"),
        "the row says failed, with the Pod's cause:\n{all}"
    );
    let footer = position(&screen, "the footer", |l| l.starts_with("1 deployment"));
    assert_eq!(
        screen[footer], "1 deployment: 0 ready, 0 in progress, 1 failed",
        "{all}"
    );
    // The verdict first, so that a narrow screen cuts its detail, never its verb.
    let status = position(&screen, "the status line", |l| {
        l.starts_with("--fail-on failed met by deployment.apps/shop")
    });
    assert!(
        screen[status].ends_with(" · reconnects: 0"),
        "the status line says what ended the view:\n{all}"
    );
    assert!(
        !all.contains("Ctrl-C to end"),
        "no hint left on the last frame:\n{all}"
    );

    // Then, on stderr: the causes, the compact summary (stderr is the terminal) with the line
    // of the crashed container's log that tells, the verdict.
    let warning = status
        + 1
        + position(&screen[status + 1..], "a Warning line", |l| {
            l.starts_with("kw: pod/shop-") && l.contains("Warning BackOff")
        });
    let summary = position(&screen, "the summary", |l| l == "kw: summary of the wait:");
    let log = position(&screen, "the log", |l| {
        l.contains("| error: config key \"listen\" is missing")
    });
    let verdict = position(&screen, "the verdict", |l| {
        l.starts_with("error: --fail-on failed met by deployment.apps/shop (pod/shop-")
    });
    assert!(
        status < warning && warning < summary && summary < log && log < verdict,
        "frame, causes, summary, log, verdict, in that order:\n{all}"
    );
    assert_eq!(
        terminal
            .tmux(&["display", "-p", "#{cursor_flag} #{wrap_flag}"])
            .trim(),
        "1 1",
        "the cursor is shown and auto-wrap is on again"
    );

    // A `--timeout` ends the view with the summary too.
    terminal
        .type_text("clear; kw get deploy/shop --live --until ready --timeout 2s; echo \"code=$?\"");
    terminal.press("Enter");
    let screen = terminal.wait_for("the timeout's exit code", |screen| {
        screen.iter().any(|l| l.starts_with("code="))
    });
    let all = screen.join("\n");
    assert!(screen.iter().any(|l| l == "code=3"), "{all}");
    let footer = position(&screen, "the footer", |l| l.starts_with("1 deployment"));
    let summary = position(&screen, "the summary", |l| l == "kw: summary of the wait:");
    let not_ready = position(&screen, "what was not ready", |l| {
        l.trim_start().starts_with("deployment.apps/shop: ")
    });
    let verdict = position(&screen, "the timeout", |l| {
        l.starts_with("error: timed out")
    });
    assert!(
        footer < summary && summary < not_ready && not_ready < verdict,
        "{all}"
    );
    assert!(!all.contains("Ctrl-C to end"), "{all}");
}

/// Issue 41, item 6: at 80×24 and 100×30, `--live` on a crash loop keeps each row's judgement
/// readable (its state word and the start of its reason, never a bare `in progress:`), the
/// object the verdict blames has a row that says failed, and what follows the last frame on a
/// terminal (the compact summary, the verdict) leaves the frame's verdict line on screen.
#[test]
fn a_crash_loop_tells_its_verdict_at_80_by_24_and_100_by_30() {
    crate::harness::require("tmux", &["-V"]);
    for (columns, rows) in [(80, 24), (100, 30)] {
        let cluster = Cluster::seeded();
        let dir = tempfile::tempdir().expect("temp dir");
        let terminal = terminal(&cluster, dir.path());
        terminal.tmux(&[
            "resize-window",
            "-x",
            &columns.to_string(),
            "-y",
            &rows.to_string(),
        ]);
        terminal.wait_for_prompts(PROMPT, 1);
        let screen = crash_loop_under(
            &terminal,
            &cluster,
            "kw get deploy,pods -l app=shop --live --until ready --fail-on failed \
             --fail-grace 1s --timeout 60s",
        );
        let all = screen.join("\n");
        let at = format!("{columns}×{rows}");
        assert!(screen.iter().any(|l| l == "code=2"), "{at}\n{all}");
        // The frame's verdict line is still on screen, its verb whole.
        let verdict = position(&screen, "the frame's verdict", |l| {
            l.starts_with("--fail-on failed met by ")
        });
        let blamed = screen[verdict]
            .trim_start_matches("--fail-on failed met by ")
            .split(' ')
            .next()
            .unwrap_or_default()
            .to_string();
        // The blamed object's row says failed, in the last frame (maybe scrolled up by what
        // followed it: read with the terminal's history).
        let history: Vec<String> = terminal
            .tmux(&["capture-pane", "-p", "-S", "-200"])
            .lines()
            .map(String::from)
            .collect();
        let last_frame = history
            .iter()
            .rposition(|l| l.starts_with("--fail-on failed met by "))
            .expect("the frame's verdict in the history");
        let frame = &history[..last_frame];
        let row = frame
            .iter()
            .rposition(|l| l.starts_with(&format!("{blamed} ")))
            .unwrap_or_else(|| panic!("{at}: no row of {blamed}:\n{}", history.join("\n")));
        assert!(frame[row].contains("failed"), "{at}: {blamed}\n{all}");
        // Every row's judgement keeps its reason's start.
        for line in frame {
            if let Some((_, reason)) = line.split_once("in progress: ") {
                assert!(
                    reason.trim().len() >= 10,
                    "{at}: cut judgement {line:?}\n{all}"
                );
            }
        }
    }
}

/// Issue 55: at 80×24, of three identically crash-looping Pods one row said failed and two in
/// progress, the Deployment's row in progress, and the run ended on one Pod. Every row agrees
/// with the verdict: while the grace runs each says when it fails (`failing in 4s:
/// CrashLoopBackOff (web)`), and in the last frame the Pods and their Deployment all say
/// failed, RESTARTS still on screen.
#[test]
fn every_row_agrees_with_the_verdict_at_80_by_24() {
    crate::harness::require("tmux", &["-V"]);
    let cluster = Cluster::seeded();
    let dir = tempfile::tempdir().expect("temp dir");
    let terminal = terminal(&cluster, dir.path());
    terminal.tmux(&["resize-window", "-x", "80", "-y", "24"]);
    terminal.wait_for_prompts(PROMPT, 1);
    terminal.type_text(
        "kw get deploy,pods -l app=shop --live --until ready --fail-on failed \
         --fail-grace 5s --timeout 60s; echo \"code=$?\"",
    );
    terminal.press("Enter");
    let mut rollout = Rollout::new(Plot::CrashLoop, "default", "shop");
    rollout.beat = Duration::from_millis(200);
    cluster.sim.play_rollout(&rollout).expect("rollout plays");
    let pod_rows = |screen: &[String]| -> Vec<String> {
        screen
            .iter()
            .filter(|l| l.starts_with("pod/shop-"))
            .cloned()
            .collect()
    };
    // During the grace: every Pod's row, and the Deployment's, say the failure pending.
    let during = terminal.wait_for("the grace counting down on every row", |screen| {
        let pods = pod_rows(screen);
        pods.len() == 3
            && pods.iter().all(|l| l.contains("failing in "))
            && screen
                .iter()
                .any(|l| l.starts_with("deployment.apps/shop ") && l.contains("failing in "))
    });
    let all = during.join("\n");
    for row in pod_rows(&during) {
        let (_, judgement) = row.split_once("failing in ").expect("pending");
        assert!(
            judgement.contains("s: CrashLoopBackOff (web)"),
            "{row:?}\n{all}"
        );
    }
    let header = position(&during, "the Pods' header", |l| {
        l.starts_with("NAME ") && l.contains("RESTARTS")
    });
    assert!(during[header].ends_with("JUDGEMENT"), "{all}");

    let screen = terminal.wait_for("the exit code", |screen| {
        screen.iter().any(|l| l.starts_with("code="))
    });
    let all = screen.join("\n");
    assert!(screen.iter().any(|l| l == "code=2"), "{all}");
    let history: Vec<String> = terminal
        .tmux(&["capture-pane", "-p", "-S", "-200"])
        .lines()
        .map(String::from)
        .collect();
    let verdict = history
        .iter()
        .rposition(|l| l.starts_with("--fail-on failed met by "))
        .expect("the frame's verdict in the history");
    let frame = &history[history[..verdict]
        .iter()
        .rposition(|l| l.starts_with("NAME "))
        .and_then(|pods| history[..pods].iter().rposition(|l| l.starts_with("NAME ")))
        .expect("the last frame's headers")..verdict];
    let shown = frame.join("\n");
    let rows: Vec<&String> = frame
        .iter()
        .filter(|l| l.starts_with("pod/shop-") || l.starts_with("deployment.apps/shop "))
        .collect();
    assert_eq!(rows.len(), 4, "{shown}");
    for row in rows {
        assert!(
            row.contains("   failed: "),
            "every row says failed: {row:?}\n{shown}"
        );
    }
    assert!(
        frame
            .iter()
            .any(|l| l == "3 pods: 0 ready, 0 in progress, 3 failed"),
        "{shown}"
    );
    assert!(
        frame
            .iter()
            .any(|l| l == "1 deployment: 0 ready, 0 in progress, 1 failed"),
        "{shown}"
    );
}
