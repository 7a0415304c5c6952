//! The completion scripts and man pages committed under `completions/` must be what kw generates
//! now: this test fails when a flag changed and they were not regenerated. To regenerate:
//! `KW_BLESS=1 cargo test --test it completions::`.

use std::path::{Path, PathBuf};

fn dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("completions")
}

fn generated() -> Vec<(PathBuf, Vec<u8>)> {
    let mut files: Vec<(PathBuf, Vec<u8>)> = kw::completion::SHELLS
        .iter()
        .map(|shell| {
            (
                dir().join(kw::completion::script_file(*shell)),
                kw::completion::script(*shell),
            )
        })
        .collect();
    let pages = kw::completion::man_pages().expect("man pages render");
    files.extend(
        pages
            .into_iter()
            .map(|(name, roff)| (dir().join("man").join(name), roff)),
    );
    files
}

#[test]
fn committed_completions_and_man_pages_are_current() {
    let bless = std::env::var_os("KW_BLESS").is_some();
    let mut stale = Vec::new();
    for (path, content) in generated() {
        if bless {
            std::fs::create_dir_all(path.parent().expect("has a parent")).expect("mkdir");
            std::fs::write(&path, &content).expect("write");
            continue;
        }
        match std::fs::read(&path) {
            Ok(committed) if committed == content => {}
            _ => stale.push(path.display().to_string()),
        }
    }
    assert!(
        stale.is_empty(),
        "stale or missing (regenerate with `KW_BLESS=1 cargo test --test it completions::`): {stale:#?}"
    );
}

/// What the binary prints is the file committed under `completions/` (what users install and
/// packagers ship), byte for byte, for every shell.
#[test]
fn kw_completion_prints_the_committed_script() {
    for shell in kw::completion::SHELLS {
        let name = shell.to_string();
        let out = crate::harness::tools::command(env!("CARGO_BIN_EXE_kw"))
            .args(["completion", &name])
            .output()
            .expect("kw runs");
        assert!(out.status.success(), "{name}: {out:?}");
        let path = dir().join(kw::completion::script_file(shell));
        let committed = std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        assert!(
            out.stdout == committed,
            "`kw completion {name}` differs from {} (regenerate with `KW_BLESS=1 cargo test --test it completions::`)",
            path.display()
        );
    }
}

// ---- Completion served by kw, driven through the real shells ----

use crate::harness;

use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use harness::Cluster;

/// The directory of the `kw` under test, put first on PATH so the scripts' `kw` is this one.
fn path_with_kw() -> std::ffi::OsString {
    let bin = Path::new(env!("CARGO_BIN_EXE_kw"))
        .parent()
        .expect("kw has a directory")
        .to_path_buf();
    let mut dirs = vec![bin];
    dirs.extend(std::env::split_paths(
        &std::env::var_os("PATH").unwrap_or_default(),
    ));
    std::env::join_paths(dirs).expect("PATH joins")
}

/// What bash's completion function leaves in COMPREPLY for `line` (the cursor at its end), as
/// bash sets COMP_WORDS and friends for a line split at spaces.
const BASH_DRIVER: &str = r#"
source <(kw completion bash)
COMP_LINE=$1
COMP_POINT=${#COMP_LINE}
read -r -a COMP_WORDS <<< "$COMP_LINE"
[[ $COMP_LINE == *" " ]] && COMP_WORDS+=("")
COMP_CWORD=$(( ${#COMP_WORDS[@]} - 1 ))
_kw
printf '%s\n' "${COMPREPLY[@]}"
"#;

struct Completed {
    words: Vec<String>,
    /// Whatever else reached the terminal (bash's and kw's stderr).
    stderr: String,
}

/// Run bash's completion of `line` with `home` as HOME and `kubeconfig` as KUBECONFIG.
fn bash_complete(home: &Path, kubeconfig: &Path, line: &str) -> Completed {
    let mut cmd = Command::new("bash");
    cmd.args(["--norc", "--noprofile", "-c", BASH_DRIVER, "bash", line])
        .env("PATH", path_with_kw())
        .env("HOME", home)
        .env("KUBECONFIG", kubeconfig)
        .env_remove("XDG_CACHE_HOME")
        .stdin(Stdio::null());
    let outcome = harness::run(cmd, Duration::from_secs(20));
    assert_eq!(outcome.code, Some(0), "{line}: {outcome:?}");
    Completed {
        words: outcome
            .stdout
            .lines()
            .filter(|l| !l.is_empty())
            .map(String::from)
            .collect(),
        stderr: outcome.stderr,
    }
}

fn names_in(cluster: &Cluster, resource: &str, namespace: &str) -> Vec<String> {
    cluster
        .sim
        .objects(resource)
        .iter()
        .filter(|o| o["metadata"]["namespace"] == namespace)
        .filter_map(|o| o["metadata"]["name"].as_str().map(String::from))
        .collect()
}

#[test]
fn bash_completes_types_names_namespaces_and_contexts_from_the_cluster() {
    let cluster = Cluster::seeded();
    let home = cluster.dir.path();
    let complete = |line: &str| {
        let done = bash_complete(home, &cluster.kubeconfig, line);
        assert_eq!(done.stderr, "", "{line}: nothing but candidates");
        done.words
    };

    let types = complete("kw get po");
    assert!(types.contains(&"pods".to_string()), "{types:?}");
    assert!(types.iter().all(|t| t.starts_with("po")), "{types:?}");
    // The server's custom resources too.
    assert_eq!(complete("kw get wid"), ["widgets"]);
    assert_eq!(complete("kw get widgets.ex"), ["widgets.example.com"]);
    assert_eq!(complete("kw get pods,dep"), ["pods,deployments"]);

    // Object names, in the context's namespace (default) unless -n says otherwise.
    let default_pods = names_in(&cluster, "pods", "default");
    let pods = complete("kw get pods ");
    assert!(!pods.is_empty());
    assert!(pods.iter().all(|p| default_pods.contains(p)), "{pods:?}");
    assert!(default_pods.iter().all(|p| pods.contains(p)), "{pods:?}");
    let team_a = names_in(&cluster, "pods", "team-a");
    let first = &team_a[0];
    let prefix = &first[..3];
    let named = complete(&format!("kw get pods -n team-a {prefix}"));
    assert!(named.contains(first), "{named:?}");
    assert!(named.iter().all(|n| n.starts_with(prefix)), "{named:?}");
    let deploys = complete("kw get deploy/");
    let expected: Vec<String> = names_in(&cluster, "deployments", "default")
        .iter()
        .map(|n| format!("deploy/{n}"))
        .collect();
    assert!(!expected.is_empty());
    assert_eq!(deploys.len(), expected.len(), "{deploys:?}");
    assert!(deploys.iter().all(|d| expected.contains(d)), "{deploys:?}");

    // Namespaces after -n.
    let namespaces = complete("kw get pods -n ");
    for ns in ["default", "kube-system", "team-a", "team-b"] {
        assert!(namespaces.contains(&ns.to_string()), "{namespaces:?}");
    }
    assert_eq!(
        complete("kw get pods --namespace team-"),
        ["team-a", "team-b"]
    );

    // The kubeconfig's contexts, clusters and users.
    assert_eq!(
        complete("kw --context "),
        ["sim", "sim-bad-token", "sim-cert", "sim-limited"]
    );
    assert_eq!(complete("kw get pods --context sim-l"), ["sim-limited"]);
    assert_eq!(complete("kw get --cluster "), ["sim"]);
    assert_eq!(
        complete("kw get --user "),
        ["admin", "bad-token", "cert-user", "limited"]
    );

    // kw's own vocabulary.
    assert_eq!(
        complete("kw get pods -o js"),
        [
            "json",
            "jsonl",
            "jsonpath-as-json=",
            "jsonpath-file=",
            "jsonpath="
        ]
    );
    assert_eq!(
        complete("kw get pods --until "),
        ["condition=", "create", "delete", "jsonpath=", "ready"]
    );
    assert!(complete("kw get pods --wat").contains(&"--watch".to_string()));
}

#[test]
fn connection_flags_anywhere_on_the_line_choose_the_cluster_and_namespace() {
    let cluster = Cluster::seeded();
    let home = cluster.dir.path();
    // KUBECONFIG names nothing: the line's --kubeconfig must be found wherever it is.
    let nowhere = home.join("missing-kubeconfig");
    let kubeconfig = cluster.kubeconfig.display().to_string();
    let team_a = names_in(&cluster, "pods", "team-a");
    for line in [
        format!("kw --kubeconfig {kubeconfig} --context sim-limited get pods "),
        format!("kw get --kubeconfig={kubeconfig} pods --context=sim-limited "),
        format!("kw get pods --kubeconfig {kubeconfig} -nteam-a "),
        format!("kw -n team-a --kubeconfig {kubeconfig} get pods "),
    ] {
        let done = bash_complete(home, &nowhere, &line);
        assert_eq!(done.stderr, "", "{line}");
        assert!(!done.words.is_empty(), "{line}");
        assert!(
            done.words.iter().all(|p| team_a.contains(p)),
            "{line}: {:?}",
            done.words
        );
    }
    // Without a kubeconfig, nothing (and nothing printed).
    let done = bash_complete(home, &nowhere, "kw get pods ");
    assert_eq!((done.words.len(), done.stderr.as_str()), (0, ""));
}

#[test]
fn a_stopped_cluster_completes_nothing_quickly_and_silently() {
    let cluster = Cluster::seeded();
    let Cluster {
        sim,
        dir,
        kubeconfig,
        ..
    } = cluster;
    sim.stop();
    let home = dir.path();
    for line in [
        "kw get pods ",
        "kw get po",
        "kw get pods -n ",
        "kw get deploy/",
    ] {
        let done = bash_complete(home, &kubeconfig, line);
        assert!(done.words.is_empty(), "{line}: {:?}", done.words);
        assert_eq!(done.stderr, "", "{line}: nothing reaches the terminal");
        // Quickly: kw gives up at the refused connection instead of retrying through its 2 s
        // budget. Timed on kw alone, as the script runs it (bash's start-up is no part of it),
        // the best of three, so that a busy machine alone cannot fail the test: half the
        // budget tells the two apart.
        let fastest = (0..3)
            .map(|_| {
                let mut cmd = crate::harness::tools::command(env!("CARGO_BIN_EXE_kw"));
                cmd.arg("__complete")
                    .arg("--")
                    .args(line.split(' ').skip(1))
                    .env("HOME", home)
                    .env("KUBECONFIG", &kubeconfig)
                    .env_remove("XDG_CACHE_HOME");
                let started = Instant::now();
                let outcome = harness::run(cmd, Duration::from_secs(20));
                let took = started.elapsed();
                assert_eq!(outcome.code, Some(0), "{line}: {outcome:?}");
                took
            })
            .min()
            .unwrap_or_default();
        assert!(
            fastest < kw::completion::serve::BUDGET / 2,
            "{line}: {fastest:?}"
        );
    }
    // What the kubeconfig alone knows still completes.
    let done = bash_complete(home, &kubeconfig, "kw --context sim-c");
    assert_eq!(done.words, ["sim-cert"]);
}

#[test]
fn a_cluster_that_never_answers_completes_nothing_within_the_budget() {
    // Connections are accepted (by the kernel) and then nothing: no TLS handshake, no reply.
    let silent = std::net::TcpListener::bind("127.0.0.1:0").expect("bind");
    let port = silent.local_addr().expect("address").port();
    let dir = tempfile::tempdir().expect("temp dir");
    let kubeconfig = dir.path().join("kubeconfig");
    std::fs::write(
        &kubeconfig,
        format!(
            "apiVersion: v1\nkind: Config\nclusters:\n- name: silent\n  cluster:\n    server: https://127.0.0.1:{port}\n    insecure-skip-tls-verify: true\ncontexts:\n- name: silent\n  context:\n    cluster: silent\n    user: u\nusers:\n- name: u\n  user:\n    token: t\ncurrent-context: silent\n"
        ),
    )
    .expect("kubeconfig written");
    // harness::run fails the test if this outlives its limit; kw gives up after its 2 s budget.
    let done = bash_complete(dir.path(), &kubeconfig, "kw get pods ");
    assert!(done.words.is_empty(), "{:?}", done.words);
    assert_eq!(done.stderr, "");
    drop(silent);
}

#[test]
fn a_warm_discovery_cache_answers_type_completion_without_asking_the_server() {
    let cluster = Cluster::seeded();
    let home = cluster.dir.path();
    // Discovery is /api, /api/v1, /apis and /apis/GROUP/VERSION; a list such as
    // /apis/apps/v1/namespaces/default/deployments is not.
    let is_discovery = |target: &str| {
        let path = target.split('?').next().unwrap_or_default();
        let segments = path.split('/').filter(|s| !s.is_empty()).count();
        match path.split('/').nth(1) {
            Some("api") => segments <= 2,
            Some("apis") => segments <= 3,
            _ => false,
        }
    };
    let discovery_requests = || {
        cluster
            .sim
            .requests()
            .iter()
            .filter(|r| is_discovery(&r.path))
            .count()
    };
    let first = bash_complete(home, &cluster.kubeconfig, "kw get de");
    assert!(
        first.words.contains(&"deployments".to_string()),
        "{:?}",
        first.words
    );
    let asked = discovery_requests();
    assert!(asked > 0, "the first completion asks discovery");
    let second = bash_complete(home, &cluster.kubeconfig, "kw get wi");
    assert_eq!(second.words, ["widgets"]);
    assert_eq!(
        discovery_requests(),
        asked,
        "the second one reads the cache"
    );
    // Names need their type resolved: that too comes from the cached list, not discovery.
    let names = bash_complete(home, &cluster.kubeconfig, "kw get deployments ");
    assert!(!names.words.is_empty());
    assert_eq!(discovery_requests(), asked);
    // A short name the list does not carry is asked once, then cached under that name.
    let short = bash_complete(home, &cluster.kubeconfig, "kw get deploy ");
    assert_eq!(short.words.len(), names.words.len(), "{:?}", short.words);
    let asked = discovery_requests();
    let again = bash_complete(home, &cluster.kubeconfig, "kw get deploy ");
    assert_eq!(again.words.len(), names.words.len(), "{:?}", again.words);
    assert_eq!(discovery_requests(), asked);
}

#[test]
fn kw_complete_prints_only_candidates_and_always_exits_0() {
    for words in [
        vec!["--", "get", "--until", ""],
        vec!["--", "--help"],
        vec!["--", "get", "pods", "--kubeconfig", "/nonexistent", ""],
        vec!["--", "--no-such-flag", "x", "-"],
        vec![],
    ] {
        let out = crate::harness::tools::command(env!("CARGO_BIN_EXE_kw"))
            .arg("__complete")
            .args(&words)
            .env_remove("KUBECONFIG")
            .env("HOME", "/nonexistent")
            .stdin(Stdio::null())
            .output()
            .expect("kw runs");
        assert!(out.status.success(), "{words:?}");
        assert!(
            out.stderr.is_empty(),
            "{words:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
}

#[test]
fn fish_completes_from_the_cluster() {
    harness::require("fish", &["--no-config", "-c", "exit 0"]);
    let cluster = Cluster::seeded();
    let mut cmd = Command::new("fish");
    cmd.args([
        "--no-config",
        "-c",
        "kw completion fish | source; complete -C 'kw get po'; complete -C 'kw --context sim-l'",
    ])
    .env("PATH", path_with_kw())
    .env("HOME", cluster.dir.path())
    .env("KUBECONFIG", &cluster.kubeconfig)
    .stdin(Stdio::null());
    let outcome = harness::run(cmd, Duration::from_secs(20));
    assert_eq!(outcome.code, Some(0), "{outcome:?}");
    assert!(
        outcome.stdout.lines().any(|l| l.starts_with("pods\t")),
        "{outcome:?}"
    );
    assert!(
        outcome
            .stdout
            .lines()
            .any(|l| l.starts_with("sim-limited\t")),
        "{outcome:?}"
    );
}

#[test]
fn zsh_completes_from_the_cluster() {
    harness::require("zsh", &["-fc", "exit 0"]);
    let cluster = Cluster::seeded();
    // Outside a completion widget `words`, CURRENT and PREFIX are plain parameters, so the
    // script's function runs as zsh would run it on TAB; `_describe` is replaced by one that
    // prints the WORD:DESCRIPTION entries it is given instead of drawing a menu.
    let driver = r#"
autoload -U compinit && compinit -u -d "$HOME/.zcompdump"
source <(kw completion zsh)
_describe() { local name=$4; print -rl -- ${(P)name} }
words=(kw get po); CURRENT=3; PREFIX=po; _kw
words=(kw --context sim-l); CURRENT=3; PREFIX=sim-l; _kw
"#;
    let mut cmd = Command::new("zsh");
    cmd.args(["-f", "-c", driver])
        .env("PATH", path_with_kw())
        .env("HOME", cluster.dir.path())
        .env("KUBECONFIG", &cluster.kubeconfig)
        .stdin(Stdio::null());
    let outcome = harness::run(cmd, Duration::from_secs(20));
    assert_eq!(outcome.code, Some(0), "{outcome:?}");
    assert_eq!(outcome.stderr, "", "{outcome:?}");
    let words: Vec<&str> = outcome
        .stdout
        .lines()
        .map(|l| l.split(':').next().unwrap_or_default())
        .collect();
    assert!(words.contains(&"pods"), "{outcome:?}");
    assert!(words.contains(&"sim-limited"), "{outcome:?}");
    assert!(
        words
            .iter()
            .all(|w| w.starts_with("po") || w.starts_with("sim-l")),
        "{outcome:?}"
    );
}

#[test]
fn zsh_script_loads_and_registers() {
    harness::require("zsh", &["-fc", "exit 0"]);
    let mut cmd = Command::new("zsh");
    cmd.args([
        "-f",
        "-c",
        "autoload -U compinit && compinit -u -d \"$HOME/.zcompdump\" && source <(kw completion zsh) && print -r -- $_comps[kw]",
    ])
    .env("PATH", path_with_kw())
    .env("HOME", tempfile::tempdir().expect("temp dir").keep())
    .stdin(Stdio::null());
    let outcome = harness::run(cmd, Duration::from_secs(20));
    assert_eq!(outcome.code, Some(0), "{outcome:?}");
    assert_eq!(outcome.stdout.trim(), "_kw");
    assert_eq!(outcome.stderr, "");
}
