//! A hostile local user against the discovery cache (issue #31 item 4): someone who may write to
//! a directory on the way to `$XDG_CACHE_HOME/kw/discovery` swaps it for a symlink to a directory
//! holding a planted cache that makes `pods` mean `secrets`. kw must never read that cache (never
//! ask for secrets) and never write a cache anywhere but its own directory.

use std::os::unix::fs::PermissionsExt;
use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

use super::{core_discovery, is_pod_list, kubeconfig_for, kw_in, Answer, Hostile, LIMIT};
use crate::harness::{run, Outcome};

/// Runs of kw while the link is swapped: before the fix, about one in ten read the planted
/// cache (31 of 300 in the audit), so this many make a miss very unlikely.
const RUNS: usize = 40;

pub(super) fn table(name: &str) -> Answer {
    Answer::json(
        serde_json::json!({
            "kind": "Table", "apiVersion": "meta.k8s.io/v1",
            "metadata": {"resourceVersion": "1"},
            "columnDefinitions": [{"name": "Name", "type": "string", "format": "name"}],
            "rows": [{"cells": [name], "object": {"kind": "PartialObjectMetadata",
                "apiVersion": "meta.k8s.io/v1",
                "metadata": {"name": name, "namespace": "default"}}}]
        })
        .to_string(),
    )
}

fn pods_and_secrets() -> Hostile {
    Hostile::serve(move |path| match path {
        "/api/v1" => core_discovery(),
        p if is_pod_list(p) => table("a-pod"),
        p if p.starts_with("/api/v1/namespaces/default/secrets") => table("a-secret"),
        _ => Answer::NotFound,
    })
}

/// Every file under `dir` with its bytes, links not followed.
fn contents(dir: &Path) -> Vec<(String, Vec<u8>)> {
    let mut files: Vec<_> = std::fs::read_dir(dir)
        .expect("readable")
        .flatten()
        .map(|entry| {
            let bytes = std::fs::read(entry.path()).unwrap_or_default();
            (entry.file_name().to_string_lossy().into_owned(), bytes)
        })
        .collect();
    files.sort();
    files
}

fn mode(path: &Path, mode: u32) {
    std::fs::set_permissions(path, std::fs::Permissions::from_mode(mode)).expect("chmod");
}

/// A cache filled by a first run, and a planted copy of it that sends `pods` to secrets.
struct Scene {
    server: Hostile,
    home: tempfile::TempDir,
    config: std::path::PathBuf,
}

impl Scene {
    fn new() -> Scene {
        let server = pods_and_secrets();
        let (home, config) = kubeconfig_for(&server.url);
        mode(home.path(), 0o700);
        let scene = Scene {
            server,
            home,
            config,
        };
        let first = scene.get_pods(&[]);
        assert_eq!(first.stdout, "NAME\na-pod\n", "{first:#?}");
        scene
    }

    fn get_pods(&self, flags: &[&str]) -> Outcome {
        let mut cmd = kw_in(self.home.path());
        cmd.env("XDG_CACHE_HOME", self.home.path().join("cache"))
            .args(["get", "pods", "--kubeconfig"])
            .arg(&self.config)
            .args(flags);
        run(cmd, LIMIT)
    }

    fn kw_dir(&self) -> std::path::PathBuf {
        self.home.path().join("cache/kw")
    }

    /// `home/planted`, private, holding the cache file poisoned.
    fn plant(&self) -> std::path::PathBuf {
        let cache = self.kw_dir().join("discovery");
        let (name, text) = contents(&cache)
            .into_iter()
            .find(|(name, _)| name.ends_with(".json"))
            .expect("a cache file");
        let text = String::from_utf8(text).expect("text");
        assert!(text.contains(r#""plural":"pods""#), "{text}");
        let poisoned = text
            .replace(r#""plural":"pods""#, r#""plural":"secrets""#)
            .replace(r#""kind":"Pod""#, r#""kind":"Secret""#);
        let planted = self.home.path().join("planted");
        std::fs::create_dir(&planted).expect("planted dir");
        mode(&planted, 0o700);
        std::fs::write(planted.join(name), poisoned).expect("planted cache");
        planted
    }

    fn asked_for_secrets(&self) -> bool {
        self.server.asked().iter().any(|p| p.contains("secrets"))
    }
}

/// With the directory above the cache writable by all, every run stops at that directory's
/// check before any link matters: this holds the outcome (never read, never written) under a
/// swap; the race that passes the checks is [`another_users_link_in_a_sticky_directory_is_refused_by_its_maker`].
#[test]
fn a_cache_directory_swapped_for_a_symlink_while_kw_runs_is_never_read_nor_written() {
    let scene = Scene::new();
    let planted = scene.plant();
    let planted_before = contents(&planted);
    let kw_dir = scene.kw_dir();
    let real = kw_dir.join("discovery");
    let real_before = contents(&real);
    // The attacker may write to the directory holding the cache directory.
    mode(&kw_dir, 0o777);

    let stop = Arc::new(AtomicBool::new(false));
    let swapper = {
        let (stop, kw_dir, planted) = (stop.clone(), kw_dir.clone(), planted.clone());
        std::thread::spawn(move || {
            let (link, aside) = (kw_dir.join("discovery"), kw_dir.join("aside"));
            let mut swaps = 0u64;
            while !stop.load(Ordering::Relaxed) {
                let _ = std::fs::rename(&link, &aside);
                let _ = std::os::unix::fs::symlink(&planted, &link);
                std::thread::yield_now();
                let _ = std::fs::remove_file(&link);
                let _ = std::fs::rename(&aside, &link);
                std::thread::yield_now();
                swaps += 1;
            }
            swaps
        })
    };
    let outcomes: Vec<Outcome> = (0..RUNS).map(|_| scene.get_pods(&[])).collect();
    stop.store(true, Ordering::Relaxed);
    let swaps = swapper.join().expect("swapper");
    assert!(
        swaps > RUNS as u64,
        "the link was swapped while kw ran ({swaps})"
    );

    for outcome in &outcomes {
        assert_eq!(outcome.code, Some(0), "{outcome:#?}");
        assert_eq!(outcome.stdout, "NAME\na-pod\n", "{outcome:#?}");
        assert_eq!(outcome.stderr, "", "{outcome:#?}");
    }
    assert!(!scene.asked_for_secrets(), "{:?}", scene.server.asked());
    assert_eq!(contents(&planted), planted_before, "nothing written there");
    assert_eq!(contents(&real), real_before, "nor in the refused directory");
    let names: Vec<String> = contents(&kw_dir).into_iter().map(|(n, _)| n).collect();
    assert_eq!(names, ["discovery"], "nor next to it");
}

#[test]
fn a_directory_others_may_write_on_the_way_to_the_cache_is_refused_at_v() {
    let scene = Scene::new();
    let kw_dir = scene.kw_dir();
    let real = kw_dir.join("discovery");
    // Poison the cache in place: if kw read it, it would ask for secrets.
    let planted = scene.plant();
    for (name, bytes) in contents(&planted) {
        std::fs::write(real.join(name), bytes).expect("poisoned");
    }
    let before = contents(&real);
    mode(&kw_dir, 0o777);

    let quiet = scene.get_pods(&[]);
    assert_eq!(quiet.code, Some(0), "{quiet:#?}");
    assert_eq!(quiet.stdout, "NAME\na-pod\n");
    assert_eq!(quiet.stderr, "", "no warning without -v");
    let told = scene.get_pods(&["-v", "4"]);
    assert_eq!(told.stdout, "NAME\na-pod\n");
    let note = format!(
        "not using the discovery cache {}: {}: its group or other users may write to it \
         (mode 777)",
        real.display(),
        kw_dir.display()
    );
    assert!(told.stderr.contains(&note), "{}", told.stderr);
    assert!(!scene.asked_for_secrets(), "{:?}", scene.server.asked());
    assert_eq!(contents(&real), before, "not written");

    // Sticky, as /tmp: others may add names but not replace the user's own, so it is used.
    mode(&kw_dir, 0o1777);
    let sticky = scene.get_pods(&[]);
    assert_eq!(
        sticky.stdout, "NAME\na-secret\n",
        "the poisoned cache was read"
    );
}

/// The user id the attacker runs as: not kw's, not root.
const ATTACKER: u32 = 65534;

/// As [`ATTACKER`], run `script` in `sh` with `$1`... the arguments; its exit status.
fn as_attacker(script: &str, args: &[&Path]) -> std::process::Child {
    use std::os::unix::process::CommandExt;
    std::process::Command::new("sh")
        .arg("-c")
        .arg(script)
        .arg("attacker")
        .args(args)
        .uid(ATTACKER)
        .gid(ATTACKER)
        .spawn()
        .expect("the attacker's shell starts")
}

/// The walk's check and its open are one step on an open directory: another user who may add
/// names to a sticky directory on the way (a shared `/tmp`-like `$XDG_CACHE_HOME`) plants
/// `kw` there as a link to a poisoned cache, and keeps planting it while kw runs (the test
/// removes kw's own directory between runs, so every run meets the race afresh). Each run
/// either uses its own directory or refuses the link by its maker (`-v`), never the planted
/// cache. Needs a second user id, so the suite runs as root (CONTRIBUTING.md).
#[test]
fn another_users_link_in_a_sticky_directory_is_refused_by_its_maker() {
    assert_eq!(
        unsafe { libc::geteuid() },
        0,
        "the race needs a second user id: run the suite as root"
    );
    let scene = Scene::new();
    let planted = scene.plant();
    let arena = tempfile::tempdir().expect("temp dir");
    mode(arena.path(), 0o755);
    let shared = arena.path().join("shared");
    std::fs::create_dir(&shared).expect("shared");
    mode(&shared, 0o1777);
    // The attacker's own directory, holding the poisoned cache as `discovery/`.
    let evil = arena.path().join("evil");
    std::fs::create_dir(&evil).expect("the attacker's directory");
    std::os::unix::fs::chown(&evil, Some(ATTACKER), Some(ATTACKER)).expect("chown");
    mode(scene.home.path(), 0o755);
    mode(&planted, 0o755);
    let copy = as_attacker(
        r#"mkdir -p "$1/discovery" && cp "$2"/* "$1/discovery/""#,
        &[&evil, &planted],
    );
    assert!(copy.wait_with_output().expect("copy").status.success());
    mode(&planted, 0o700);
    mode(scene.home.path(), 0o700);
    let evil_before = contents(&evil.join("discovery"));
    let get = |flags: &[&str]| {
        let mut cmd = kw_in(scene.home.path());
        cmd.env("XDG_CACHE_HOME", &shared)
            .args(["get", "pods", "--kubeconfig"])
            .arg(&scene.config)
            .args(flags);
        run(cmd, LIMIT)
    };
    let link = shared.join("kw");
    let refusal = format!(
        "not using the discovery cache {}: {}: a symbolic link made by user id {ATTACKER}",
        link.join("discovery").display(),
        link.display()
    );

    // Planted before kw looks: refused by its maker, by name.
    let plant = as_attacker(r#"ln -s "$1" "$2""#, &[&evil, &link]);
    assert!(plant.wait_with_output().expect("plant").status.success());
    let told = get(&["-v", "4"]);
    assert_eq!(told.code, Some(0), "{told:#?}");
    assert_eq!(told.stdout, "NAME\na-pod\n", "{told:#?}");
    assert!(told.stderr.contains(&refusal), "{}", told.stderr);
    std::fs::remove_file(&link).expect("unlink");

    // Planted over and over while kw runs.
    let racer = as_attacker(
        r#"i=0; while [ $i -lt 200000 ] && [ ! -e "$3" ]; do ln -s "$1" "$2" 2>/dev/null; rm -f "$2" 2>/dev/null; i=$((i+1)); done"#,
        &[&evil, &link, &arena.path().join("stop")],
    );
    let mut refused = 0;
    for _ in 0..RUNS {
        let outcome = get(&["-v", "4"]);
        assert_eq!(outcome.code, Some(0), "{outcome:#?}");
        assert_eq!(outcome.stdout, "NAME\na-pod\n", "{outcome:#?}");
        refused += usize::from(outcome.stderr.contains(&refusal));
        // kw's own directory, if it made one, goes: the next run meets the race afresh.
        if std::fs::symlink_metadata(&link).is_ok_and(|m| m.is_dir()) {
            let _ = std::fs::remove_dir_all(&link);
        }
    }
    std::fs::write(arena.path().join("stop"), "").expect("stop");
    let _ = racer.wait_with_output();
    assert!(!scene.asked_for_secrets(), "{:?}", scene.server.asked());
    assert_eq!(
        contents(&evil.join("discovery")),
        evil_before,
        "nothing written there"
    );
    eprintln!(
        "cache race in a sticky directory: {refused} of {RUNS} runs met the link and refused it"
    );
}
