//! Completion as a person meets it: a real shell in a real terminal (tmux), kw's completion
//! loaded, objects named by an attacker in the cluster, `kw get pods w<TAB>` typed and Enter
//! pressed. Nothing may run: each name must reach the command line quoted, and the command must
//! receive it as it is. The same through `kubectl kw` with kubectl's own completion, where kw
//! answers as `kubectl_complete-kw`.
//!
//! The suite needs every shell here, tmux, bash-completion and kubectl: a missing one fails the
//! test on every machine (`harness::require`; `.ci/run` installs them, kubectl is on PATH).

use crate::harness;

use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use harness::Cluster;
use kw_sim::SimConfig;
use serde_json::json;

/// How long the screen may take to show what a key press leads to (a completion asks the sim).
const LIMIT: Duration = Duration::from_secs(20);

/// What every hostile name tries to create, in the shell's working directory.
const MARKER: &str = "pwned";

/// Names that run `touch pwned` if a shell inserts them unquoted, each under its own first
/// letter so that one TAB completes it whole.
const HOSTILE: [&str; 5] = [
    "web$(touch${IFS}pwned)",
    "tick`touch${IFS}pwned`",
    "semi;touch${IFS}pwned;x",
    // A backslash and a colon, which zsh's `_describe` and bash's word breaks treat specially.
    "back\\slash$(touch${IFS}pwned)",
    "colon:x$(touch${IFS}pwned)",
];

/// Names that must never be offered: one would be a flag, one holds a newline and one an
/// escape sequence.
const NEVER_OFFERED: [&str; 3] = [
    "--server=127.0.0.1:9",
    "nl\ntouch${IFS}pwned",
    "esc\u{1b}]0;owned\u{7}",
];

/// A cluster holding the hostile pods (and nothing else) in `default`, and `web-1` in `shop`.
fn hostile_cluster() -> Cluster {
    let cluster = Cluster::start(SimConfig {
        clock: Some(harness::frozen_now()),
        empty: true,
        ..SimConfig::default()
    });
    for name in HOSTILE.iter().chain(&NEVER_OFFERED) {
        cluster
            .sim
            .create(
                "pods",
                json!({"metadata": {"name": name, "namespace": "default"}}),
            )
            .expect("the sim takes any name");
    }
    cluster
        .sim
        .create(
            "pods",
            json!({"metadata": {"name": "web-1", "namespace": "shop"}}),
        )
        .expect("pod created");
    cluster
}

/// A shell in a tmux pane of its own (its own server socket), with a clean environment. The
/// live view's tests (`live_terminal`) use it too.
pub(crate) struct Terminal {
    socket: PathBuf,
}

impl Terminal {
    pub(crate) fn start(dir: &Path, env: &[(&str, OsString)], shell: &[&str]) -> Terminal {
        let socket = dir.join("tmux.sock");
        let mut command: Vec<OsString> = vec!["env".into(), "-i".into()];
        command.extend(env.iter().map(|(k, v)| {
            let mut kv = OsString::from(format!("{k}="));
            kv.push(v);
            kv
        }));
        command.extend(shell.iter().map(OsString::from));
        let mut tmux = Command::new("tmux");
        tmux.arg("-S")
            .arg(&socket)
            .args([
                "-f",
                "/dev/null",
                "new-session",
                "-d",
                "-x",
                "160",
                "-y",
                "50",
            ])
            .arg("-c")
            .arg(dir)
            .arg("--")
            .args(command)
            .stdin(Stdio::null());
        let outcome = harness::run(tmux, LIMIT);
        assert_eq!(outcome.code, Some(0), "tmux starts: {outcome:?}");
        Terminal { socket }
    }

    pub(crate) fn tmux(&self, args: &[&str]) -> String {
        let mut tmux = Command::new("tmux");
        tmux.arg("-S")
            .arg(&self.socket)
            .args(args)
            .stdin(Stdio::null());
        let outcome = harness::run(tmux, LIMIT);
        assert_eq!(outcome.code, Some(0), "tmux {args:?}: {outcome:?}");
        outcome.stdout
    }

    /// Type `text` as it is.
    pub(crate) fn type_text(&self, text: &str) {
        self.tmux(&["send-keys", "-l", "--", text]);
    }

    /// Press a key by its tmux name (`Tab`, `Enter`, `C-u`).
    pub(crate) fn press(&self, key: &str) {
        self.tmux(&["send-keys", key]);
    }

    /// The screen's lines, wrapped lines joined, without trailing blanks.
    pub(crate) fn screen(&self) -> Vec<String> {
        let text = self.tmux(&["capture-pane", "-p", "-J"]);
        let mut lines: Vec<String> = text.lines().map(|l| l.trim_end().to_string()).collect();
        while lines.last().is_some_and(String::is_empty) {
            lines.pop();
        }
        lines
    }

    /// Wait until the screen satisfies `done`, at most `LIMIT`; the screen then.
    pub(crate) fn wait_for(&self, what: &str, done: impl Fn(&[String]) -> bool) -> Vec<String> {
        let deadline = Instant::now() + LIMIT;
        loop {
            let screen = self.screen();
            if done(&screen) {
                return screen;
            }
            assert!(
                Instant::now() < deadline,
                "waited {LIMIT:?} for {what}; the screen:\n{}",
                screen.join("\n")
            );
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    /// Wait until the shell has drawn `prompt` `count` times.
    pub(crate) fn wait_for_prompts(&self, prompt: &str, count: usize) -> Vec<String> {
        self.wait_for(&format!("prompt #{count}"), |screen| {
            screen
                .iter()
                .filter(|l| l.starts_with(prompt.trim_end()))
                .count()
                >= count
        })
    }
}

impl Drop for Terminal {
    fn drop(&mut self) {
        let _ = Command::new("tmux")
            .arg("-S")
            .arg(&self.socket)
            .arg("kill-server")
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status();
    }
}

/// A directory for links named as kubectl looks for them, and kw's.
fn bin_dir(dir: &Path) -> PathBuf {
    let bin = dir.join("bin");
    std::fs::create_dir_all(&bin).expect("bin dir");
    let kw = Path::new(env!("CARGO_BIN_EXE_kw"));
    for name in ["kw", "kubectl-kw", "kubectl_complete-kw"] {
        std::os::unix::fs::symlink(kw, bin.join(name)).expect("link");
    }
    bin
}

/// PATH: kw's links first, then the system's (where the shells and kubectl are).
fn path(bin: &Path) -> OsString {
    let mut dirs = vec![bin.to_path_buf()];
    dirs.extend(std::env::split_paths(
        &std::env::var_os("PATH").unwrap_or_default(),
    ));
    std::env::join_paths(dirs).expect("PATH joins")
}

fn environment(cluster: &Cluster, home: &Path, bin: &Path) -> Vec<(&'static str, OsString)> {
    vec![
        ("PATH", path(bin)),
        ("HOME", home.into()),
        ("KUBECONFIG", cluster.kubeconfig.clone().into()),
        ("TERM", "tmux-256color".into()),
        ("LANG", "C.UTF-8".into()),
        ("NO_COLOR", "1".into()),
    ]
}

/// The name a `pods "NAME" not found` message on `screen` gives, percent-escapes decoded (kw
/// escapes the name in the request's path; the sim names the path segment it was given).
fn name_not_found(screen: &[String]) -> Option<String> {
    let line = screen.iter().find(|l| l.contains("not found"))?;
    let quoted = line.split("pods \"").nth(1)?.rsplit_once("\" not found")?.0;
    let bytes = quoted.as_bytes();
    let mut out = Vec::new();
    let mut at = 0;
    while at < bytes.len() {
        match (bytes[at], quoted.get(at + 1..at + 3)) {
            (b'%', Some(hex)) if u8::from_str_radix(hex, 16).is_ok() => {
                out.push(u8::from_str_radix(hex, 16).unwrap_or_default());
                at += 3;
            }
            (byte, _) => {
                out.push(byte);
                at += 1;
            }
        }
    }
    String::from_utf8(out).ok()
}

/// In `terminal`, whose shell draws `prompt`: for each hostile name, type `kw get pods` and its
/// first letters, TAB, Enter. The line must show the name quoted (not as it is), the command
/// must have received the name itself, and no marker file may appear. Then no offered word may
/// be one of `NEVER_OFFERED`.
fn complete_every_hostile_name(terminal: &Terminal, prompt: &str, dir: &Path) {
    let mut prompts = 1;
    terminal.wait_for_prompts(prompt, prompts);
    // Each name from its first letters, and one from a word the shell quoted half-way (what
    // a TAB leaves when two names share a start): the shell must unquote it to ask kw.
    let cases = HOSTILE
        .iter()
        .map(|name| (name[..2].to_string(), *name))
        .chain([(r"web\$\(to".to_string(), HOSTILE[0])]);
    for (start, name) in cases {
        let typed = format!("kw get pods {start}");
        terminal.type_text(&typed);
        terminal.press("Tab");
        let before = format!("{prompt}{typed}");
        let screen = terminal.wait_for(&format!("{name} completed"), |screen| {
            screen
                .iter()
                .rev()
                .find(|l| l.starts_with(prompt.trim_end()))
                .is_some_and(|l| l.len() > before.len() + 4 && l.starts_with(&before))
        });
        let line = screen
            .iter()
            .rev()
            .find(|l| l.starts_with(prompt.trim_end()))
            .cloned()
            .unwrap_or_default();
        let inserted = line[prompt.len()..].trim_end();
        assert_ne!(inserted, format!("kw get pods {name}"), "inserted unquoted");
        assert!(
            !Path::new(dir).join(MARKER).exists(),
            "{name}: completing it ran it"
        );
        terminal.press("Enter");
        prompts += 1;
        let screen = terminal.wait_for_prompts(prompt, prompts);
        assert!(
            !dir.join(MARKER).exists(),
            "{name}: Enter ran it; the screen:\n{}",
            screen.join("\n")
        );
        assert_eq!(
            name_not_found(&screen).as_deref(),
            Some(name),
            "the command got the name itself; the screen:\n{}",
            screen.join("\n")
        );
        terminal.press("C-l");
        prompts = 1;
        terminal.wait_for("a cleared screen", |screen| {
            screen.len() == 1 && screen[0].starts_with(prompt.trim_end())
        });
    }
    // What the shell would offer for every pod: none of the names that must never be offered.
    terminal.type_text("kw get pods ");
    terminal.press("Tab");
    terminal.press("Tab");
    let screen = terminal.wait_for("the list of pods", |screen| {
        screen.iter().any(|l| l.contains("semi"))
    });
    let shown = screen.join("\n");
    let offered = |start: &str| shown.split_whitespace().any(|w| w.starts_with(start));
    for start in ["--server", "nl", "esc"] {
        assert!(
            !offered(start),
            "a name starting {start:?} offered:\n{shown}"
        );
    }
    assert!(!dir.join(MARKER).exists());
}

#[test]
fn bash_inserts_hostile_names_quoted_and_nothing_runs() {
    harness::require("tmux", &["-V"]);
    harness::require("bash", &["-c", "exit 0"]);
    let cluster = hostile_cluster();
    let dir = cluster.dir.path();
    let bin = bin_dir(dir);
    let rc = dir.join("bashrc");
    std::fs::write(&rc, "PS1='kw-test$ '\nsource <(kw completion bash)\n").expect("rc");
    let rc = rc.display().to_string();
    let terminal = Terminal::start(
        dir,
        &environment(&cluster, dir, &bin),
        &["bash", "--noprofile", "--rcfile", &rc, "-i"],
    );
    complete_every_hostile_name(&terminal, "kw-test$ ", dir);
}

#[test]
fn zsh_inserts_hostile_names_quoted_and_nothing_runs() {
    harness::require("tmux", &["-V"]);
    harness::require("zsh", &["-fc", "exit 0"]);
    let cluster = hostile_cluster();
    let dir = cluster.dir.path();
    let bin = bin_dir(dir);
    std::fs::write(
        dir.join(".zshrc"),
        "PS1='kw-test%% '\nautoload -U compinit && compinit -u -d \"$HOME/.zcompdump\"\nsource <(kw completion zsh)\n",
    )
    .expect("zshrc");
    let mut env = environment(&cluster, dir, &bin);
    env.push(("ZDOTDIR", dir.into()));
    // -d: no /etc/zsh startup files, only the test's own .zshrc.
    let terminal = Terminal::start(dir, &env, &["zsh", "-d", "-i"]);
    complete_every_hostile_name(&terminal, "kw-test% ", dir);
}

#[test]
fn fish_inserts_hostile_names_quoted_and_nothing_runs() {
    harness::require("tmux", &["-V"]);
    harness::require("fish", &["--no-config", "-c", "exit 0"]);
    let cluster = hostile_cluster();
    let dir = cluster.dir.path();
    let bin = bin_dir(dir);
    let terminal = Terminal::start(
        dir,
        &environment(&cluster, dir, &bin),
        &[
            "fish",
            "--no-config",
            "-i",
            "-C",
            "set -g fish_greeting; function fish_prompt; echo -n 'kw-test> '; end; kw completion fish | source",
        ],
    );
    complete_every_hostile_name(&terminal, "kw-test> ", dir);
}

/// kubectl (1.26 and later) completes `kubectl kw ...` by running `kubectl_complete-kw`; its
/// bash script needs Debian's bash-completion.
#[test]
fn kubectl_kw_completes_through_kubectl_and_offers_only_plain_names() {
    const BASH_COMPLETION: &str = "/usr/share/bash-completion/bash_completion";
    harness::require("tmux", &["-V"]);
    let reference_kubectl = harness::kubectl();
    harness::require_file(BASH_COMPLETION, "bash-completion");
    let cluster = hostile_cluster();
    let dir = cluster.dir.path();
    let bin = bin_dir(dir);
    // The shell's `kubectl` is the reference one, ahead of the image's on PATH.
    std::os::unix::fs::symlink(&reference_kubectl, bin.join("kubectl")).expect("kubectl link");
    let rc = dir.join("bashrc");
    std::fs::write(
        &rc,
        format!("PS1='kw-test$ '\nsource {BASH_COMPLETION}\nsource <(kubectl completion bash)\n"),
    )
    .expect("rc");
    let rc = rc.display().to_string();
    let terminal = Terminal::start(
        dir,
        &environment(&cluster, dir, &bin),
        &["bash", "--noprofile", "--rcfile", &rc, "-i"],
    );
    let prompt = "kw-test$ ";
    terminal.wait_for_prompts(prompt, 1);
    let last_line = |screen: &[String]| {
        screen
            .iter()
            .rev()
            .find(|l| l.starts_with(prompt.trim_end()))
            .cloned()
            .unwrap_or_default()
    };

    // A resource type, from the sim's discovery.
    terminal.type_text("kubectl kw get pod");
    terminal.press("Tab");
    terminal.wait_for("pods completed", |screen| {
        last_line(screen) == format!("{prompt}kubectl kw get pods")
    });
    terminal.press("C-u");

    // A plain name is inserted; flags before it (-n) are read by kw's engine.
    terminal.type_text("kubectl kw get pods -n shop w");
    terminal.press("Tab");
    terminal.wait_for("web-1 completed", |screen| {
        last_line(screen) == format!("{prompt}kubectl kw get pods -n shop web-1")
    });
    terminal.press("C-u");

    // Hostile names are not offered at all: older kubectl would even run them during the TAB
    // (its script expands candidates with `compgen -W`).
    for name in HOSTILE {
        let typed = format!("kubectl kw get pods {}", &name[..2]);
        terminal.type_text(&typed);
        terminal.press("Tab");
        terminal.press("Tab");
        terminal.type_text("#");
        terminal.wait_for("the TABs answered", |screen| {
            last_line(screen) == format!("{prompt}{typed}#")
        });
        assert!(!dir.join(MARKER).exists(), "{name}: completing it ran it");
        terminal.press("C-u");
    }
    // And kubectl's own answer, as its script reads it: plain words, then the directive.
    let mut kubectl = crate::harness::tools::command(&reference_kubectl);
    kubectl
        .args(["__complete", "kw", "get", "pods", ""])
        .env("PATH", path(&bin))
        .env("HOME", dir)
        .env("KUBECONFIG", &cluster.kubeconfig)
        .current_dir(dir)
        .stdin(Stdio::null());
    let outcome = harness::run(kubectl, LIMIT);
    assert_eq!(outcome.code, Some(0), "{outcome:?}");
    let lines: Vec<&str> = outcome.stdout.lines().collect();
    assert_eq!(lines, [":4"], "{outcome:?}");
    assert!(!dir.join(MARKER).exists());
}

/// The answers themselves, as the scripts and kubectl read them: `kw __complete` offers every
/// hostile name as it is (the scripts quote it) and none of those no quoting makes safe;
/// `kubectl_complete-kw` offers only the plain ones, then Cobra's directive.
#[test]
fn kw_offers_hostile_names_to_its_scripts_and_only_plain_ones_to_kubectl() {
    let cluster = hostile_cluster();
    let dir = cluster.dir.path();
    let bin = bin_dir(dir);
    let answer = |program: &str, words: &[&str]| {
        let mut cmd = crate::harness::tools::command(bin.join(program));
        cmd.args(words)
            .env("HOME", dir)
            .env("KUBECONFIG", &cluster.kubeconfig)
            .current_dir(dir)
            .stdin(Stdio::null());
        let outcome = harness::run(cmd, LIMIT);
        assert_eq!((outcome.code, outcome.stderr.as_str()), (Some(0), ""));
        outcome.stdout
    };

    let mut expected: Vec<&str> = HOSTILE.to_vec();
    expected.sort();
    let offered = answer("kw", &["__complete", "--", "get", "pods", ""]);
    assert_eq!(offered.lines().collect::<Vec<_>>(), expected, "{offered:?}");
    // The same engine reads the flags: `-n shop` has only `web-1`.
    let shop = answer("kw", &["__complete", "--", "get", "pods", "-n", "shop", ""]);
    assert_eq!(shop, "web-1\n");

    assert_eq!(answer("kubectl_complete-kw", &["get", "pods", ""]), ":4\n");
    assert_eq!(
        answer("kubectl_complete-kw", &["get", "pods", "-n", "shop", "w"]),
        "web-1\n:4\n"
    );
    assert_eq!(
        answer("kubectl_complete-kw", &["get", "deploy/"]),
        ":4\n",
        "no deployments"
    );
    let flags = answer("kubectl_complete-kw", &["get", "--until", "con"]);
    assert_eq!(
        flags.lines().last(),
        Some(":6"),
        "condition= wants no space: {flags:?}"
    );
    assert!(!dir.join(MARKER).exists());
}
