//! What a new user trips on first (issue 32): a quiet watch whose reader has gone, optional
//! flag values given with a space, kw's flags that a format would ignore, one header under
//! `--watch-only --diff`, and the short help.

use crate::harness;

use std::io::{BufRead, BufReader};
use std::process::Stdio;
use std::time::Duration;

use harness::{run, Cluster};

const LIMIT: Duration = Duration::from_secs(20);

/// `kw get pods -w | head -1` on a cluster where nothing happens: kw has written everything it
/// had before the reader goes, so no write can fail and tell it; it must notice on its own and
/// end as a closed pipe ends it (exit 0, nothing said). The bound is the behaviour (about a
/// second), not a measure of speed: without the check kw waits for the next event, forever.
#[test]
fn a_quiet_watch_ends_once_its_reader_has_gone() {
    let cluster = Cluster::seeded();
    for format in ["name", "jsonl"] {
        let listed = run(cluster.get(&["pods", "-o", "name"]), LIMIT);
        assert_eq!(listed.code, Some(0), "{}", listed.stderr);
        let pods = listed.stdout.lines().count();
        assert!(pods > 0, "the seeded world has pods");
        let mut child = cluster
            .get(&["pods", "-w", "-o", format])
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let mut reader = BufReader::new(child.stdout.take().unwrap());
        // The whole initial list: after it, kw has nothing more to write.
        for _ in 0..pods {
            let mut line = String::new();
            reader.read_line(&mut line).unwrap();
            assert!(!line.is_empty(), "-o {format}: the list ended early");
        }
        drop(reader); // like `| head -N`
        let code = harness::wait_with_limit(&mut child, Duration::from_secs(2));
        let mut stderr = String::new();
        std::io::Read::read_to_string(child.stderr.as_mut().unwrap(), &mut stderr).unwrap();
        assert_eq!(code, Some(0), "-o {format}: {stderr}");
        assert_eq!(stderr, "", "-o {format}");
    }
}

/// `--timestamps local`, `--diff all`, `--insecure-skip-tls-verify true`: the value after a
/// space is a positional argument to the parser (kubectl's too), which would look up a pod named
/// `local`. kw asks instead, before any request, for every optional-valued flag and value.
#[test]
fn an_optional_value_after_a_space_is_asked_about() {
    let cluster = Cluster::seeded();
    let flags = kw::cli::optional_valued_flags();
    assert!(flags.len() >= 3, "{flags:?}");
    for (flag, values) in &flags {
        for value in values {
            let before = cluster.sim.requests().len();
            let out = run(cluster.get(&["pods", "-w", flag, value]), LIMIT);
            assert_eq!(out.code, Some(1), "{flag} {value}: {}", out.stderr);
            assert_eq!(out.stderr, format!("error: did you mean {flag}={value}?\n"));
            assert_eq!(out.stdout, "");
            assert_eq!(
                cluster.sim.requests().len(),
                before,
                "{flag} {value}: no request"
            );
            // The same words after `kw demo --` are asked about before a cluster is started.
            let mut demo = cluster.kw();
            demo.args(["demo", "--", "pods", flag, value]);
            let out = run(demo, LIMIT);
            assert_eq!(out.code, Some(1), "demo {flag} {value}: {}", out.stderr);
            assert_eq!(out.stderr, format!("error: did you mean {flag}={value}?\n"));
        }
    }
    // Given with `=`, the value is the flag's: no question.
    let out = run(cluster.get(&["pods", "--timestamps=local"]), LIMIT);
    assert_eq!(out.code, Some(0), "{}", out.stderr);
}

/// Watch requests the simulator has seen.
fn watches(cluster: &Cluster) -> usize {
    cluster
        .sim
        .requests()
        .iter()
        .filter(|r| r.path.contains("watch="))
        .count()
}

/// `kw get ARGS --watch-only --max-events 2` while the golden scenario creates a pod and starts
/// it (an ADDED and a MODIFIED event): every stdout line.
fn two_events(args: &[&str]) -> Vec<String> {
    let cluster = Cluster::seeded();
    let mut cmd = cluster.get(args);
    cmd.args(["--watch-only", "--max-events", "2", "--request-timeout=10s"]);
    let before = watches(&cluster);
    let live = harness::Live::spawn(&mut cmd);
    harness::wait_for("kw to watch", LIMIT, || watches(&cluster) > before);
    for op in &harness::scenario_ops()[..2] {
        harness::apply_scenario_op(&cluster, op);
    }
    let (code, lines, stderr) = live.finish(LIMIT);
    assert_eq!(code, Some(0), "{args:?}: {stderr}");
    lines
}

/// No flag of kw's is accepted and then ignored (`--diff -o jsonl` used to add nothing without
/// `--output-watch-events`, and say nothing): over every format, `--timestamps` and `--diff`
/// either show in the output or are refused with one line naming the flag, before any request.
#[test]
fn kw_event_flags_show_in_every_format_or_are_refused() {
    let formats = [
        "",
        "wide",
        "json",
        "jsonl",
        "yaml",
        "name",
        "jsonpath={.metadata.name}",
        "custom-columns=NAME:.metadata.name",
    ];
    let refusals = Cluster::seeded();
    for format in formats {
        for flag in ["--timestamps", "--diff"] {
            for events in [false, true] {
                let mut args = vec!["pods", "-w", flag];
                if !format.is_empty() {
                    args.extend(["-o", format]);
                }
                if events {
                    args.push("--output-watch-events");
                }
                let table = matches!(format, "" | "wide");
                let json = matches!(format, "json" | "jsonl");
                let shows = table || (json && events);
                if !shows {
                    let before = refusals.sim.requests().len();
                    let out = run(refusals.get(&args), LIMIT);
                    assert_eq!(out.code, Some(1), "{args:?}: {}", out.stderr);
                    assert_eq!(out.stderr.lines().count(), 1, "{args:?}: {}", out.stderr);
                    assert!(
                        out.stderr.starts_with(&format!("error: {flag} ")),
                        "{args:?}: {}",
                        out.stderr
                    );
                    if json {
                        assert!(out.stderr.contains("add --output-watch-events"));
                    }
                    assert_eq!(refusals.sim.requests().len(), before, "{args:?}");
                    continue;
                }
                let lines = two_events(&args);
                let text = lines.join("\n");
                let shown = match (flag, table) {
                    ("--timestamps", true) => lines[0].starts_with("TIME "),
                    ("--timestamps", false) => lines.iter().all(|l| l.contains("\"ts\":")),
                    (_, true) => text.contains("    status.phase: Pending → Running"),
                    (_, false) => lines.iter().any(|l| l.contains("\"diff\":[")),
                };
                assert!(shown, "{args:?} shows nothing of {flag}: {text}");
            }
        }
    }
}

fn small_pod(name: &str) -> serde_json::Value {
    serde_json::json!({
        "apiVersion": "v1",
        "kind": "Pod",
        "metadata": {"name": name, "namespace": "default"},
        "spec": {"containers": [{"name": "c", "image": "busybox"}], "nodeName": "node-1"},
        "status": {"phase": "Pending"}
    })
}

/// `--watch-only --diff` on a terminal printed its header again and again: with no list printed,
/// the first event's row set the column widths, and every longer row after it (a longer name, a
/// RESTARTS cell with its `(5s ago)`) widened them and re-printed the header. The list kw reads
/// before watching now sizes the columns (and gives `--diff` the objects' last versions) without
/// being printed: a short new pod, then a change to the longest-named listed one, share one
/// header, and that change shows its diff.
#[test]
fn watch_only_prints_one_header_sized_by_the_unprinted_list() {
    let cluster = Cluster::seeded();
    let pods = cluster.sim.objects("pods");
    let mut longest = pods
        .iter()
        .max_by_key(|p| {
            p["metadata"]["name"].as_str().unwrap_or_default().len()
                + p["metadata"]["namespace"]
                    .as_str()
                    .unwrap_or_default()
                    .len()
        })
        .expect("the seeded world has pods")
        .clone();
    let long_name = longest["metadata"]["name"].as_str().unwrap().to_string();
    assert!(long_name.len() > "a".len() + 10, "{long_name}");
    let mut cmd = cluster.get(&["pods", "-A", "--watch-only", "--diff"]);
    cmd.env("KW_FORCE_TERMINAL", "1").env("COLUMNS", "200");
    let before = watches(&cluster);
    let live = harness::Live::spawn(&mut cmd);
    harness::wait_for("kw to watch", LIMIT, || watches(&cluster) > before);
    cluster.sim.create("pods", small_pod("a")).unwrap();
    longest["metadata"]["labels"]["touched"] = "yes".into();
    cluster.sim.update("pods", longest).unwrap();
    cluster.sim.create("pods", small_pod("z-end")).unwrap();
    let lines = live.lines_until(LIMIT, |line| line.contains("z-end"));
    live.stop();
    let text = lines.join("\n");
    let headers = lines.iter().filter(|l| l.starts_with("NAMESPACE ")).count();
    assert_eq!(headers, 1, "{text}");
    assert!(lines[0].starts_with("NAMESPACE "), "{text}");
    let at = lines
        .iter()
        .position(|l| l.contains(&long_name))
        .expect("the change to the listed pod");
    assert!(
        lines[at + 1].starts_with("    ") && lines[at + 1].contains("touched"),
        "its first change shows a diff: {text}"
    );
    // One layout: every row's NAME column starts where the header's does.
    let name_at = lines[0].find("NAME ").expect("NAME");
    for row in lines[1..].iter().filter(|l| !l.starts_with("    ")) {
        let cell = &row[name_at..];
        assert!(
            cell.starts_with('a') || cell.starts_with(&long_name) || cell.starts_with("z-end"),
            "{text}"
        );
    }
}

/// `kw get -h` is the short form (one line per flag, within 80 columns, in 50 lines at most);
/// `--help` the long one. No `[default: ""]`, `--fail-grace` shows its default, no unexplained
/// `kw:` prefix; `kw demo --help` lists no flag that demo refuses; run as kubectl's plugin, the
/// usage says `kubectl kw`.
#[test]
fn help_is_short_with_h_and_long_with_help() {
    let cluster = Cluster::seeded();
    let help = |args: &[&str]| {
        let mut cmd = cluster.kw();
        cmd.args(args);
        let out = run(cmd, LIMIT);
        assert_eq!(out.code, Some(0), "{args:?}: {}", out.stderr);
        out.stdout
    };
    let short = help(&["get", "-h"]);
    assert!(short.lines().count() <= 50, "{short}");
    for line in short.lines() {
        assert!(line.chars().count() <= 80, "{line:?}");
        let flag = line.trim_start();
        if flag.starts_with('-') {
            // The flag and its help on one line.
            assert!(flag.contains("  "), "{line:?}");
        }
    }
    for flag in ["--watch", "--until", "--diff", "--namespace", "--context"] {
        assert!(short.contains(flag), "{flag}: {short}");
    }
    let long = help(&["get", "--help"]);
    assert!(long.lines().count() > 100, "{long}");
    assert!(!long.contains("[default: \"\"]"), "{long}");
    assert!(!long.contains("kw:"), "{long}");
    let grace = long.find("--fail-grace").expect("--fail-grace");
    let next = long[grace..].find("\n      --").expect("next flag") + grace;
    assert!(long[grace..next].contains("[default: 30s]"), "{long}");
    for flag in [
        "--token",
        "--kubeconfig",
        "--insecure-skip-tls-verify",
        "--server",
    ] {
        assert!(long.contains(flag), "{flag}");
    }

    let demo = help(&["demo", "--help"]);
    for flag in [
        "--token",
        "--kubeconfig",
        "--context",
        "--server",
        "--as-group",
    ] {
        assert!(!demo.contains(flag), "{flag}: {demo}");
    }
    assert!(demo.contains("--namespace"), "{demo}");

    // kubectl finds the plugin as `kubectl-kw` on its PATH.
    let plugin = cluster.dir.path().join("kubectl-kw");
    std::os::unix::fs::symlink(env!("CARGO_BIN_EXE_kw"), &plugin).unwrap();
    let out = run(crate::harness::tools::command(&plugin).arg("--help"), LIMIT);
    assert!(out.stdout.contains("Usage: kubectl kw "), "{}", out.stdout);
    let out = run(
        crate::harness::tools::command(&plugin).args(["get", "-h"]),
        LIMIT,
    );
    assert!(
        out.stdout.contains("Usage: kubectl kw get "),
        "{}",
        out.stdout
    );
}

/// `kw sim … &` in an interactive shell (issue 56): the sim does not read the terminal on its
/// stdin, so the shell does not stop it for that (`Stopped (tty input)`), and a client gets
/// its answer. Before, the get timed out against a stopped sim.
#[test]
fn a_sim_in_the_background_of_an_interactive_shell_keeps_serving() {
    use crate::completion_terminal::Terminal;
    let dir = tempfile::tempdir().expect("tempdir");
    let kw = std::path::Path::new(env!("CARGO_BIN_EXE_kw"));
    let mut path = vec![kw.parent().expect("kw's directory").to_path_buf()];
    path.extend(std::env::split_paths(
        &std::env::var_os("PATH").unwrap_or_default(),
    ));
    let rc = dir.path().join("rc");
    std::fs::write(&rc, "PS1='$ '\n").expect("rc");
    let env = [
        ("PATH", std::env::join_paths(path).expect("PATH joins")),
        ("HOME", dir.path().into()),
        ("TERM", "tmux-256color".into()),
        ("LANG", "C.UTF-8".into()),
    ];
    let rc = rc.display().to_string();
    let shell = ["bash", "--noprofile", "--rcfile", &rc, "-i"];
    let terminal = Terminal::start(dir.path(), &env, &shell);
    terminal.wait_for_prompts("$ ", 1);
    terminal.type_text("kw sim --kubeconfig-out sim.kubeconfig > sim.out 2>&1 &");
    terminal.press("Enter");
    harness::wait_for("the sim's ready line", LIMIT, || {
        std::fs::read_to_string(dir.path().join("sim.out")).is_ok_and(|out| out.contains("ready"))
    });
    terminal.type_text("kw get pods -A --kubeconfig sim.kubeconfig --request-timeout 5s > pods.txt; echo \"got=$?\"");
    terminal.press("Enter");
    let screen = terminal.wait_for("the get's exit", |screen| {
        screen.iter().any(|line| line.starts_with("got="))
    });
    assert!(
        screen.iter().any(|line| line == "got=0"),
        "{}",
        screen.join("\n")
    );
    assert!(
        !screen.iter().any(|line| line.contains("Stopped")),
        "{}",
        screen.join("\n")
    );
    let pods = std::fs::read_to_string(dir.path().join("pods.txt")).expect("pods.txt");
    assert!(pods.starts_with("NAMESPACE"), "{pods}");
    terminal.type_text("kill %1");
    terminal.press("Enter");
}

/// A `KUBECONFIG` that names only files that do not exist is said with their paths, as the
/// `--kubeconfig` form names its file (kubectl skips such files silently and then says only
/// that localhost:8080 refused the connection).
#[test]
fn a_kubeconfig_list_of_missing_files_is_named() {
    let dir = tempfile::tempdir().expect("tempdir");
    let (first, second) = (dir.path().join("nonexistent"), dir.path().join("gone.yaml"));
    let kw = |kubeconfig: &std::ffi::OsStr, args: &[&std::ffi::OsStr]| {
        let mut cmd = crate::harness::tools::command(env!("CARGO_BIN_EXE_kw"));
        cmd.args(["get", "pods"])
            .args(args)
            .env("KUBECONFIG", kubeconfig)
            .env("HOME", dir.path())
            .stdin(Stdio::null());
        run(cmd, LIMIT)
    };
    let one = kw(first.as_os_str(), &[]);
    assert_eq!(one.code, Some(1), "{one:?}");
    assert_eq!(
        one.stderr,
        format!(
            "error: no configuration has been provided: KUBECONFIG names {}, which does not \
             exist, and no --server given\n",
            first.display()
        )
    );
    let list = std::env::join_paths([&first, &second]).expect("a path list");
    let two = kw(&list, &[]);
    assert_eq!(
        two.stderr,
        format!(
            "error: no configuration has been provided: KUBECONFIG names {}, {}, none of which \
             exists, and no --server given\n",
            first.display(),
            second.display()
        )
    );
    let flag = kw(
        &list,
        &[std::ffi::OsStr::new("--kubeconfig"), first.as_os_str()],
    );
    assert_eq!(flag.code, Some(1), "{flag:?}");
    assert!(
        flag.stderr.contains(&first.display().to_string()),
        "{flag:?}"
    );
}

/// `kw sim` without `--kubeconfig-out` says on stderr how a client connects (its URL alone
/// does not: the CA and tokens are in the kubeconfig); with it, nothing.
#[test]
fn kw_sim_says_how_to_connect_without_a_kubeconfig() {
    let dir = tempfile::tempdir().expect("tempdir");
    for (kubeconfig, hint) in [
        (None, true),
        (Some(dir.path().join("sim.kubeconfig")), false),
    ] {
        let stderr = dir.path().join("sim.stderr");
        let mut cmd = crate::harness::tools::command(env!("CARGO_BIN_EXE_kw"));
        cmd.args(["sim", "--http"]).stdin(Stdio::null());
        if let Some(path) = &kubeconfig {
            cmd.arg("--kubeconfig-out").arg(path);
        }
        let mut sim = harness::Live::spawn_stderr_to(&mut cmd, &stderr);
        let ready = sim.next_line(LIMIT).unwrap_or_default();
        assert!(ready.starts_with("ready http://127.0.0.1:"), "{ready}");
        // Said before the ready line, so all of it is there once that is read.
        let said = sim.kill();
        match hint {
            true => assert_eq!(
                said,
                "kw sim: to connect a client, start it with --kubeconfig-out FILE (the server's \
                 CA and tokens), then run kw get pods --kubeconfig FILE\n"
            ),
            false => assert_eq!(said, ""),
        }
    }
}

/// Issue 56, point 9: `kw demo`'s first screen at 100×30. Its banner came before a 20-row first
/// list and scrolled off at once, it never said what it runs, and its "Next," lines were laid
/// out two ways. Now, under the first list: what it runs, and every line of the banner, whole,
/// each "Next," on a line of its own with its commands indented under it.
#[test]
fn the_demos_first_screen_says_what_it_runs_under_the_list() {
    crate::harness::require("tmux", &["-V"]);
    let cluster = Cluster::seeded();
    let dir = tempfile::tempdir().expect("temp dir");
    let terminal = crate::live_terminal::terminal(&cluster, dir.path());
    terminal.tmux(&["resize-window", "-x", "100", "-y", "30"]);
    terminal.wait_for_prompts(crate::live_terminal::PROMPT, 1);
    terminal.type_text("TMPDIR=$HOME kw demo");
    terminal.press("Enter");
    const FIRST: &str =
        "kw demo: kubectl get -w that never drops an event, plus --live, --diff, --until";
    const LAST: &str = "  kw rollout status deploy/web";
    terminal.wait_for("the banner's first and last lines", |screen| {
        screen.iter().any(|l| l == FIRST) && screen.iter().any(|l| l == LAST)
    });
    // The pane as it is, 30 rows: nothing joined back.
    let pane = terminal.tmux(&["capture-pane", "-p"]);
    let rows: Vec<&str> = pane.lines().map(str::trim_end).collect();
    let all = rows.join("\n");
    let first = rows.iter().position(|l| *l == FIRST).expect("the banner");
    let banner = &rows[first..=first + rows[first..].iter().position(|l| *l == LAST).unwrap()];
    assert_eq!(
        banner[1], "Running: kw get pods -A --watch --output-watch-events",
        "what it runs:\n{all}"
    );
    assert!(
        banner[2].starts_with("on a simulated cluster at https://127.0.0.1:")
            && banner[2].ends_with("; Ctrl-C stops it."),
        "{all}"
    );
    let nexts: Vec<usize> = (0..banner.len())
        .filter(|&i| banner[i].starts_with("Next,"))
        .collect();
    assert_eq!(nexts.len(), 3, "{all}");
    for &at in &nexts {
        assert!(banner[at].ends_with(':'), "{all}");
        assert!(banner[at + 1].starts_with("  "), "one way: {all}");
    }
    assert!(
        rows[..first].iter().any(|l| l.starts_with("ADDED ")),
        "the banner comes under the first list:\n{all}"
    );
    terminal.press("C-c");
    // The shell's prompt again, after the `^C` the terminal echoes.
    terminal.wait_for("the prompt again", |screen| {
        screen
            .last()
            .is_some_and(|l| l.ends_with(crate::live_terminal::PROMPT.trim_end()))
    });
}
