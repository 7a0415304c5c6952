//! kubectl's verbs kw does not have (`describe`, `create`, `rollout history`, ...) are handed to
//! kubectl: the same arguments, stdin, stdout, stderr and exit status, global flags before the
//! verb included; no kubectl is one error line, and a kubectl that is kw is refused, not looped.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Duration;

use crate::harness::{self, run, Cluster, Outcome};

const LIMIT: Duration = Duration::from_secs(30);

/// A directory holding `kubectl` (the reference one), for PATH.
fn kubectl_dir(cluster: &Cluster) -> PathBuf {
    let dir = cluster.dir.path().join("kubectl-bin");
    std::fs::create_dir_all(&dir).expect("dir");
    std::os::unix::fs::symlink(harness::kubectl(), dir.join("kubectl")).expect("link");
    dir
}

fn kw_with_path(cluster: &Cluster, path: &Path, args: &[&str]) -> Outcome {
    let mut kw = cluster.kw();
    kw.env("PATH", path).env_remove("KW_KUBECTL").args(args);
    run(kw, LIMIT)
}

fn kubectl(cluster: &Cluster, args: &[&str]) -> Outcome {
    let mut kubectl = crate::harness::tools::command(harness::kubectl());
    kubectl
        .env_remove("KUBECONFIG")
        .env("HOME", cluster.dir.path())
        .stdin(Stdio::null())
        .args(args);
    run(kubectl, LIMIT)
}

#[test]
fn a_kubectl_verb_runs_kubectl_with_the_same_words_output_and_status() {
    let cluster = Cluster::seeded();
    let path = kubectl_dir(&cluster);
    let kubeconfig = cluster.kubeconfig.to_str().unwrap();
    for args in [
        // Global flags before the verb reach kubectl as typed.
        vec![
            "--kubeconfig",
            kubeconfig,
            "-n",
            "default",
            "describe",
            "deploy",
            "web",
        ],
        vec![
            "rollout",
            "history",
            "deploy/web",
            "--kubeconfig",
            kubeconfig,
        ],
        vec!["get", "--kubeconfig", kubeconfig, "pods", "-o", "name"],
        vec!["describe", "pod", "nope", "--kubeconfig", kubeconfig],
    ] {
        let ours = kw_with_path(&cluster, &path, &args);
        let theirs = kubectl(&cluster, &args);
        assert_eq!(ours.stdout, theirs.stdout, "{args:?}");
        assert_eq!(ours.stderr, theirs.stderr, "{args:?}");
        assert_eq!(ours.code, theirs.code, "{args:?}: {}", ours.stderr);
    }
    // The last one failed, with kubectl's status and words (kw's get is its own).
    let failed = kubectl(
        &cluster,
        &["describe", "pod", "nope", "--kubeconfig", kubeconfig],
    );
    assert_eq!(failed.code, Some(1));
    assert!(
        failed.stderr.contains("\"nope\" not found"),
        "{}",
        failed.stderr
    );
}

#[test]
fn stdin_reaches_kubectl() {
    let cluster = Cluster::seeded();
    let path = kubectl_dir(&cluster);
    let mut kw = cluster.kw();
    kw.env("PATH", &path)
        .args([
            "create",
            "--dry-run=client",
            "--validate=false",
            "-f",
            "-",
            "-o",
            "name",
        ])
        .arg("--kubeconfig")
        .arg(&cluster.kubeconfig)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    let mut child = kw.spawn().expect("kw starts");
    child
        .stdin
        .take()
        .unwrap()
        .write_all(b"{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"from-stdin\"}}")
        .unwrap();
    let code = harness::wait_with_limit(&mut child, LIMIT);
    let (mut stdout, mut stderr) = (String::new(), String::new());
    std::io::Read::read_to_string(&mut child.stdout.take().unwrap(), &mut stdout).unwrap();
    std::io::Read::read_to_string(&mut child.stderr.take().unwrap(), &mut stderr).unwrap();
    assert_eq!(code, Some(0), "{stderr}");
    assert_eq!(stdout, "configmap/from-stdin\n");
}

#[test]
fn without_kubectl_one_line_says_so_and_a_kubectl_that_is_kw_is_refused() {
    let cluster = Cluster::seeded();
    let empty = cluster.dir.path().join("empty");
    std::fs::create_dir_all(&empty).unwrap();
    let missing = kw_with_path(&cluster, &empty, &["describe", "pod", "x"]);
    assert_eq!(missing.code, Some(1));
    assert_eq!(
        missing.stderr,
        "error: \"describe\" is a kubectl command, which kw hands to kubectl, and kubectl is not on PATH (or set KW_KUBECTL to its path)\n"
    );

    // A `kubectl` on PATH that is kw itself (a link) would hand the verb back for ever.
    let linked = cluster.dir.path().join("linked");
    std::fs::create_dir_all(&linked).unwrap();
    std::os::unix::fs::symlink(env!("CARGO_BIN_EXE_kw"), linked.join("kubectl")).unwrap();
    let looped = kw_with_path(&cluster, &linked, &["apply", "-f", "x.yaml"]);
    assert_eq!(looped.code, Some(1), "{}", looped.stderr);
    assert!(looped.stderr.contains("is kw itself"), "{}", looped.stderr);
    assert_eq!(looped.stderr.lines().count(), 1, "{}", looped.stderr);

    // A typo of kw's own verbs stays kw's error, not kubectl's.
    let typo = kw_with_path(&cluster, &linked, &["gte", "pods"]);
    assert_eq!(typo.code, Some(1));
    assert!(
        typo.stderr
            .starts_with("error: unknown command \"gte\" for \"kw\""),
        "{}",
        typo.stderr
    );

    // A handed rollout verb is named whole.
    let undo = kw_with_path(&cluster, &empty, &["rollout", "undo", "deploy/web"]);
    assert_eq!(undo.code, Some(1));
    assert_eq!(
        undo.stderr,
        "error: \"rollout undo\" is a kubectl command, which kw hands to kubectl, and kubectl is not on PATH (or set KW_KUBECTL to its path)\n"
    );
}

/// kubectl is found as Go's `exec.LookPath` finds a program since Go 1.19 (issue 61, point 3):
/// an empty or relative PATH entry is never searched (a cloned repository's `./kubectl` is not
/// run from TAB or a handed verb), and a `kubectl` that is not executable is passed over.
#[test]
fn kubectl_is_found_in_absolute_path_entries_and_only_if_executable() {
    use std::os::unix::fs::PermissionsExt as _;
    let cluster = Cluster::seeded();
    let write = |dir: &Path, says: &str, mode: u32| {
        std::fs::create_dir_all(dir).unwrap();
        let script = dir.join("kubectl");
        std::fs::write(&script, format!("#!/bin/sh\necho {says}\n")).unwrap();
        std::fs::set_permissions(&script, std::fs::Permissions::from_mode(mode)).unwrap();
    };
    let repo = cluster.dir.path().join("repo");
    let unusable = cluster.dir.path().join("unusable");
    let real = cluster.dir.path().join("real");
    write(&repo, "the-repositorys-kubectl", 0o755);
    write(&unusable, "not-executable", 0o644);
    write(&real, "the-real-kubectl", 0o755);
    for path in [
        format!(":{}:{}", unusable.display(), real.display()),
        format!(".:{}:{}", unusable.display(), real.display()),
        format!("bin:{}", real.display()),
    ] {
        let mut kw = cluster.kw();
        kw.current_dir(&repo)
            .env("PATH", &path)
            .env_remove("KW_KUBECTL")
            .args(["describe", "pod", "x"]);
        let handed = run(kw, LIMIT);
        assert_eq!(handed.code, Some(0), "PATH={path}: {}", handed.stderr);
        assert_eq!(handed.stdout, "the-real-kubectl\n", "PATH={path}");
    }
}

/// A kw started by what a handed kubectl runs (an `$EDITOR` under `kubectl edit`) inherits
/// `KW_HANDED_TO_KUBECTL`: it refuses to hand a verb on again, and says why in those words, not
/// that the kubectl found is kw (issue 61, point 9).
#[test]
fn a_kw_under_a_handed_kubectl_says_what_it_found() {
    let cluster = Cluster::seeded();
    let dir = kubectl_dir(&cluster);
    let mut kw = cluster.kw();
    kw.env("PATH", &dir)
        .env_remove("KW_KUBECTL")
        .env("KW_HANDED_TO_KUBECTL", "edit")
        .args(["describe", "pod", "x"]);
    let refused = run(kw, LIMIT);
    assert_eq!(refused.code, Some(1), "{}", refused.stderr);
    assert_eq!(
        refused.stderr,
        "error: \"describe\" is a kubectl command, and this kw runs under a kubectl kw handed \"edit\" to (KW_HANDED_TO_KUBECTL is set): handing it on again could loop; unset KW_HANDED_TO_KUBECTL to run it\n"
    );
}

/// A signal to kw reaches the kubectl it handed a verb to (issue 61, point 1): `kill <kw>` from
/// a supervisor or a script's trap ends kubectl as it would end kubectl alone, kw ends with it,
/// and nothing kw started is left running.
#[test]
fn a_signal_to_kw_ends_the_kubectl_it_handed_a_verb_to() {
    use std::os::unix::fs::PermissionsExt as _;
    let cluster = Cluster::seeded();
    let bin = cluster.dir.path().join("slow-bin");
    std::fs::create_dir_all(&bin).unwrap();
    let pid_file = cluster.dir.path().join("kubectl.pid");
    let script = bin.join("kubectl");
    std::fs::write(
        &script,
        format!(
            "#!/bin/sh\necho $$ > {}\ntrap 'exit 143' TERM\necho watching\nwhile :; do sleep 0.1; done\n",
            pid_file.display()
        ),
    )
    .unwrap();
    std::fs::set_permissions(&script, std::fs::Permissions::from_mode(0o755)).unwrap();
    let mut kw = cluster.kw();
    kw.env("PATH", format!("{}:/usr/bin:/bin", bin.display()))
        .env_remove("KW_KUBECTL")
        .args(["events", "-w"]);
    let live = crate::harness::Live::spawn(&mut kw);
    assert_eq!(live.next_line(LIMIT).as_deref(), Some("watching"));
    let kubectl_pid = std::fs::read_to_string(&pid_file)
        .expect("pid")
        .trim()
        .to_string();
    live.signal("TERM");
    let (code, _, stderr) = live.finish(LIMIT);
    assert_eq!(code, Some(143), "{stderr}");
    let alive = Command::new("kill")
        .args(["-0", &kubectl_pid])
        .stderr(Stdio::null())
        .status()
        .expect("kill runs");
    assert!(!alive.success(), "kubectl ({kubectl_pid}) outlived kw");
}

/// A word that is no verb of kw's or kubectl's gets kubectl's line (cobra's, `kubectl` said as
/// `kw`) and the nearest verb of either, never handed on: kubectl would refuse it without kw's
/// verbs. Only where clap has no suggestion of its own (`gett`).
#[test]
fn a_typo_of_a_verb_is_answered_as_kubectl_answers_it_with_kws_verbs_too() {
    let cluster = Cluster::seeded();
    let path = kubectl_dir(&cluster);
    for (typo, near) in [
        ("aplpy", Some("apply")),
        ("gte", Some("get")),
        ("qqqqqqqq", None),
    ] {
        let ours = kw_with_path(&cluster, &path, &[typo, "pods"]);
        let theirs = kubectl(&cluster, &[typo, "pods"]);
        assert_eq!(ours.code, Some(1), "{typo}: {}", ours.stderr);
        assert_eq!(ours.code, theirs.code, "{typo}");
        assert_eq!(ours.stdout, "", "{typo}");
        assert_eq!(
            ours.stderr,
            theirs.stderr.replace("\"kubectl\"", "\"kw\""),
            "{typo}"
        );
        let expected = match near {
            Some(near) => format!(
                "error: unknown command \"{typo}\" for \"kw\"\n\nDid you mean this?\n\t{near}\n"
            ),
            None => format!("error: unknown command \"{typo}\" for \"kw\"\n"),
        };
        assert_eq!(ours.stderr, expected, "{typo}");
    }
    // kw's own verbs are among the suggestions (kubectl has no `sim`).
    let sim = kw_with_path(&cluster, &path, &["sm"]);
    assert!(
        sim.stderr.ends_with("Did you mean this?\n\tsim\n"),
        "{}",
        sim.stderr
    );
    let clap = kw_with_path(&cluster, &path, &["gett", "pods"]);
    assert!(
        clap.stderr.contains("a similar subcommand exists: 'get'"),
        "{}",
        clap.stderr
    );
    assert_eq!(clap.code, Some(1));
    // A rollout verb's typo, among kw's and kubectl's rollout verbs.
    let undo = kw_with_path(&cluster, &path, &["rollout", "undoo", "deploy/web"]);
    assert_eq!(
        undo.stderr,
        "error: unknown command \"undoo\" for \"kw rollout\"\n\nDid you mean this?\n\tundo\n"
    );
    // Nothing reached the server: no verb was handed on.
    assert!(
        cluster.sim.requests().is_empty(),
        "{:?}",
        cluster.sim.requests()
    );
}

/// `kw` and `kw rollout` alone print their help on stdout, as kubectl does, with kubectl's exit
/// codes (0 for `kubectl`, 1 for `kubectl rollout`); `kw rollout --help` says which rollout
/// verbs go to kubectl.
#[test]
fn no_verb_is_answered_with_the_help_on_stdout() {
    let cluster = Cluster::seeded();
    let path = kubectl_dir(&cluster);
    for (args, usage) in [
        (&[][..], "Usage: kw [OPTIONS] <COMMAND>"),
        (&["rollout"][..], "Usage: kw rollout [OPTIONS] <COMMAND>"),
    ] {
        let ours = kw_with_path(&cluster, &path, args);
        let theirs = kubectl(&cluster, args);
        assert_eq!(ours.stderr, "", "{args:?}");
        assert_eq!(theirs.stderr, "", "{args:?}");
        assert!(ours.stdout.contains(usage), "{args:?}: {}", ours.stdout);
        assert!(!theirs.stdout.is_empty(), "{args:?}");
        assert_eq!(ours.code, theirs.code, "{args:?}");
    }
    let help = kw_with_path(&cluster, &path, &["rollout", "--help"]);
    assert_eq!(help.code, Some(0));
    assert!(
        help.stdout.contains(
            "kubectl's other rollout commands (history, pause, restart, resume, undo) are handed to kubectl"
        ),
        "{}",
        help.stdout
    );
}

/// Through real kubectl: `kubectl kw describe ...` runs kw as a plugin, which hands `describe`
/// to kubectl, which describes (and does not run the plugin again).
#[test]
fn kubectl_kw_describe_describes() {
    let cluster = Cluster::seeded();
    let path = kubectl_dir(&cluster);
    std::os::unix::fs::symlink(env!("CARGO_BIN_EXE_kw"), path.join("kubectl-kw")).unwrap();
    let kubeconfig = cluster.kubeconfig.to_str().unwrap();
    let mut plugin = crate::harness::tools::command(harness::kubectl());
    plugin
        .env_remove("KUBECONFIG")
        .env("HOME", cluster.dir.path())
        .env("PATH", &path)
        .stdin(Stdio::null())
        .args([
            "kw",
            "describe",
            "deploy",
            "web",
            "-n",
            "default",
            "--kubeconfig",
            kubeconfig,
        ]);
    let ours = run(plugin, LIMIT);
    let theirs = kubectl(
        &cluster,
        &[
            "describe",
            "deploy",
            "web",
            "-n",
            "default",
            "--kubeconfig",
            kubeconfig,
        ],
    );
    assert_eq!(ours.code, Some(0), "{}", ours.stderr);
    assert!(ours.stdout.starts_with("Name:"), "{}", ours.stdout);
    assert_eq!(ours.stdout, theirs.stdout);
}

/// A script's `kubectl delete` then `kubectl wait --for=delete`, both through kw: the sim takes
/// kubectl's DELETE, kw hands `delete` to kubectl and waits on the deletion itself.
#[test]
fn delete_then_wait_for_delete_through_kw() {
    let cluster = Cluster::seeded();
    let path = kubectl_dir(&cluster);
    let kubeconfig = cluster.kubeconfig.to_str().unwrap();
    let deleted = kw_with_path(
        &cluster,
        &path,
        &[
            "delete",
            "pod",
            "init-demo",
            "-n",
            "default",
            "--kubeconfig",
            kubeconfig,
        ],
    );
    assert_eq!(deleted.code, Some(0), "{}", deleted.stderr);
    assert_eq!(
        deleted.stdout,
        "pod \"init-demo\" deleted from default namespace\n"
    );
    let waited = kw_with_path(
        &cluster,
        &path,
        &[
            "wait",
            "--for=delete",
            "pod/init-demo",
            "-n",
            "default",
            "--timeout=10s",
            "--kubeconfig",
            kubeconfig,
        ],
    );
    assert_eq!(waited.code, Some(0), "{}", waited.stderr);
    assert!(cluster
        .sim
        .objects("pods")
        .iter()
        .all(|p| p["metadata"]["name"] != "init-demo"));
    // Deleting it again: kubectl's NotFound and exit status, through kw.
    let again = kw_with_path(
        &cluster,
        &path,
        &[
            "delete",
            "pod",
            "init-demo",
            "-n",
            "default",
            "--kubeconfig",
            kubeconfig,
        ],
    );
    assert_eq!(again.code, Some(1));
    assert_eq!(
        again.stderr,
        "Error from server (NotFound): pods \"init-demo\" not found\n"
    );
}

/// kubectl's Cobra answer, candidate words only.
fn candidates(stdout: &str) -> Vec<String> {
    stdout
        .lines()
        .filter(|line| !line.starts_with(':'))
        .map(|line| line.split('\t').next().unwrap_or("").to_string())
        .collect()
}

#[test]
fn completing_a_handed_verb_asks_kubectl() {
    let cluster = Cluster::seeded();
    let path = kubectl_dir(&cluster);
    let kubeconfig = cluster.kubeconfig.to_str().unwrap();
    for words in [
        vec!["describe", "deploy", ""],
        vec!["--kubeconfig", kubeconfig, "rollout", "undo", ""],
        vec!["describe", "--namesp"],
    ] {
        let mut typed: Vec<&str> = words.clone();
        if !typed.contains(&"--kubeconfig") {
            typed.splice(0..0, ["--kubeconfig", kubeconfig]);
        }
        let mut ours = vec!["__complete", "--"];
        ours.extend(&typed);
        let kw = kw_with_path(&cluster, &path, &ours);
        let mut theirs = vec!["__complete"];
        theirs.extend(&typed);
        let kubectl = kubectl(&cluster, &theirs);
        let expected = candidates(&kubectl.stdout);
        assert!(!expected.is_empty(), "{typed:?}: kubectl offered nothing");
        assert_eq!(candidates(&kw.stdout), expected, "{typed:?}");
        assert_eq!(kw.code, Some(0));
    }
    // The seeded Deployments were among them: kubectl asked the cluster.
    let mut typed = vec!["__complete", "--", "--kubeconfig", kubeconfig];
    typed.extend(["describe", "deploy", ""]);
    let kw = kw_with_path(&cluster, &path, &typed);
    assert!(
        candidates(&kw.stdout).contains(&"web".to_string()),
        "{}",
        kw.stdout
    );
    // kw's own verbs stay kw's: `get` is answered from kw's engine, not kubectl's.
    let own = kw_with_path(
        &cluster,
        Path::new("/nonexistent"),
        &["__complete", "--", "get", "--watch-o"],
    );
    // `__complete` exits 0 whatever it finds, so the candidates are what tells: with no kubectl
    // on PATH only kw's own engine can offer `--watch-only`, while a handed verb gets nothing.
    assert_eq!(
        candidates(&own.stdout),
        ["--watch-only".to_string()],
        "{}",
        own.stdout
    );
    let handed = kw_with_path(
        &cluster,
        Path::new("/nonexistent"),
        &["__complete", "--", "describe", "--namesp"],
    );
    assert!(candidates(&handed.stdout).is_empty(), "{}", handed.stdout);
}

/// A fake kubectl in its own directory: it writes its arguments, one a line, to `record`.
fn recording_kubectl(cluster: &Cluster, dir: &str, record: &Path) -> PathBuf {
    use std::os::unix::fs::PermissionsExt;
    let dir = cluster.dir.path().join(dir);
    std::fs::create_dir_all(&dir).expect("dir");
    let script = dir.join("kubectl");
    std::fs::write(
        &script,
        format!(
            "#!/bin/sh\nprintf '%s\\n' \"$@\" > '{}'\n",
            record.display()
        ),
    )
    .expect("script");
    std::fs::set_permissions(&script, std::fs::Permissions::from_mode(0o755)).expect("chmod");
    script
}

/// kubectl 1.37 sets KUBECTL_PATH for the plugin it runs (`kubectl kw describe ...`): a handed
/// verb goes to that kubectl, not to another one on PATH; a KUBECTL_PATH that is kw itself (or
/// a link to it) is passed over for PATH's, so kw never hands a verb to itself.
#[test]
fn kubectl_path_names_the_kubectl_a_handed_verb_runs_unless_it_is_kw() {
    let cluster = Cluster::seeded();
    let from_kubectl_path = cluster.dir.path().join("kubectl-path.args");
    let from_path = cluster.dir.path().join("path.args");
    let named = recording_kubectl(&cluster, "named", &from_kubectl_path);
    let on_path = recording_kubectl(&cluster, "on-path", &from_path);
    let path_dir = on_path.parent().expect("its directory");
    let linked_kw = cluster.dir.path().join("kubectl-link");
    std::os::unix::fs::symlink(env!("CARGO_BIN_EXE_kw"), &linked_kw).expect("link");

    let handed = |kubectl_path: &Path| {
        let _ = std::fs::remove_file(&from_kubectl_path);
        let _ = std::fs::remove_file(&from_path);
        let mut kw = cluster.kw();
        kw.env("PATH", path_dir)
            .env_remove("KW_KUBECTL")
            .env("KUBECTL_PATH", kubectl_path)
            .args(["describe", "pod", "x"]);
        let outcome = run(kw, LIMIT);
        assert_eq!(outcome.code, Some(0), "{}", outcome.stderr);
        let read = |file: &Path| std::fs::read_to_string(file).ok();
        (read(&from_kubectl_path), read(&from_path))
    };

    let words = Some("describe\npod\nx\n".to_string());
    assert_eq!(
        handed(&named),
        (words.clone(), None),
        "KUBECTL_PATH's kubectl"
    );
    for kw_itself in [Path::new(env!("CARGO_BIN_EXE_kw")), linked_kw.as_path()] {
        assert_eq!(
            handed(kw_itself),
            (None, words.clone()),
            "KUBECTL_PATH={} is kw: PATH's kubectl",
            kw_itself.display()
        );
    }
}
