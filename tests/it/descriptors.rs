//! File descriptors (issue 59, point 3): a fleet of more contexts than a shell's soft
//! `ulimit -n` allows runs, kw having raised its soft limit to the hard one; a fleet the hard
//! limit cannot hold is refused in one line before anything starts; the programs kw starts get
//! the soft limit kw started with. Each `kw` runs under the limits a `pre_exec` sets, as
//! `ulimit -S -n 256; exec kw ...` would; the test process keeps its own.

use std::collections::BTreeSet;
use std::os::unix::process::CommandExt as _;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

use serde_json::json;

use crate::harness::{Cluster, Live};

const LIMIT: Duration = Duration::from_secs(120);

/// The soft limit of the tests: macOS's default, and well under the fleet's contexts.
const SOFT: libc::rlim_t = 256;
/// More contexts than `SOFT` descriptors can hold, a socket each.
const CONTEXTS: usize = 300;

/// A kubeconfig of `contexts` contexts `c-0`, `c-1` ... on the sim, each with `user`.
fn fleet(cluster: &Cluster, contexts: usize, user: serde_json::Value) -> PathBuf {
    cluster.fleet_kubeconfig(&vec![user; contexts])
}

/// The test process's hard limit, which a child may keep or lower but not raise.
fn hard_limit() -> libc::rlim_t {
    let mut now = libc::rlimit {
        rlim_cur: 0,
        rlim_max: 0,
    };
    // SAFETY: getrlimit(2) fills the struct it is given.
    assert_eq!(unsafe { libc::getrlimit(libc::RLIMIT_NOFILE, &mut now) }, 0);
    now.rlim_max
}

/// `cmd` runs with the soft limit `soft` and the hard limit `hard`, set between fork and exec.
fn with_limits(cmd: &mut Command, soft: libc::rlim_t, hard: libc::rlim_t) {
    let limits = libc::rlimit {
        rlim_cur: soft,
        rlim_max: hard,
    };
    // SAFETY: the child calls only setrlimit(2), async-signal-safe, on a copied struct.
    unsafe {
        cmd.pre_exec(
            move || match libc::setrlimit(libc::RLIMIT_NOFILE, &limits) {
                0 => Ok(()),
                _ => Err(std::io::Error::last_os_error()),
            },
        );
    }
}

/// A hard limit above the soft one that holds the fleet with room to spare, kept below the
/// test process's own (which a child cannot pass).
fn roomy_hard() -> libc::rlim_t {
    let hard = hard_limit();
    assert!(
        hard >= 1024,
        "these tests need a hard limit on open files of 1024 or more (ulimit -Hn is {hard})"
    );
    hard.min(4096)
}

/// Soft limit 256, hard limit higher: kw raises its soft limit to the hard one, so each of 300
/// contexts holds its watch and prints its first rows, and no context fails for want of a
/// descriptor.
#[test]
fn a_fleet_past_the_soft_limit_raises_it_and_every_context_lists() {
    let cluster = Cluster::seeded();
    let admin = json!({"token": cluster.sim.admin_token()});
    let kubeconfig = fleet(&cluster, CONTEXTS, admin);
    let mut cmd = cluster.kw();
    cmd.args(["get", "pods", "-A", "-w", "-o", "name", "--context", "c-*"])
        .arg("--kubeconfig")
        .arg(&kubeconfig);
    let hard = roomy_hard();
    with_limits(&mut cmd, SOFT, hard);
    let live = Live::spawn(&mut cmd);
    let listed = std::cell::RefCell::new(BTreeSet::new());
    live.lines_until(LIMIT, |line| {
        let mut listed = listed.borrow_mut();
        if let Some((context, _)) = line.split_once('/') {
            listed.insert(context.to_string());
        }
        listed.len() == CONTEXTS
    });
    if cfg!(target_os = "linux") {
        let limits = read(Path::new(&format!("/proc/{}/limits", live.child.id())));
        let open_files = limits
            .lines()
            .find(|line| line.starts_with("Max open files"))
            .expect("a line for open files");
        let numbers: Vec<&str> = open_files.split_whitespace().skip(3).take(2).collect();
        assert_eq!(
            numbers,
            [hard.to_string(), hard.to_string()],
            "kw's soft limit raised to the hard one: {open_files}"
        );
    }
    let stderr = live.stop();
    assert!(
        !stderr.contains("Too many open files") && !stderr.contains("file descriptors"),
        "{stderr}"
    );
}

/// Hard limit 256: no raise can hold 300 watches, so kw says so in one line (how many contexts,
/// how many descriptors, which limit to raise) and exits 1 before it sends a single request.
#[test]
fn a_fleet_past_the_hard_limit_is_refused_in_one_line_before_it_starts() {
    let cluster = Cluster::seeded();
    let admin = json!({"token": cluster.sim.admin_token()});
    let kubeconfig = fleet(&cluster, CONTEXTS, admin);
    let mut cmd = cluster.kw();
    cmd.args(["get", "pods", "-A", "-w", "-o", "name", "--context", "c-*"])
        .arg("--kubeconfig")
        .arg(&kubeconfig);
    with_limits(&mut cmd, SOFT, SOFT);
    let live = Live::spawn(&mut cmd);
    let (code, stdout, stderr) = live.finish(Duration::from_secs(30));
    assert_eq!(code, Some(1), "{stderr}");
    assert_eq!(stdout, Vec::<String>::new());
    let lines: Vec<&str> = stderr.lines().collect();
    assert_eq!(lines.len(), 1, "one line: {stderr}");
    for needed in [
        "300 contexts need about 364 file descriptors",
        "kw may open 256 (ulimit -n; the hard limit, ulimit -Hn, is 256)",
        "raise the hard limit to 364 or more",
    ] {
        assert!(lines[0].contains(needed), "{needed:?} in {stderr}");
    }
    assert_eq!(cluster.sim.requests().len(), 0, "nothing started");
}

/// The exec plugin a context's user runs gets the soft limit kw was started with, not the one
/// kw raised for itself: a plugin may use select(2), as Go gives its children theirs back.
#[test]
fn an_exec_plugin_gets_the_soft_limit_kw_started_with() {
    use std::os::unix::fs::PermissionsExt as _;
    let cluster = Cluster::seeded();
    let seen = cluster.dir.path().join("plugin-soft-limit");
    let plugin = cluster.dir.path().join("plugin");
    std::fs::write(
        &plugin,
        format!(
            "#!/bin/sh\nulimit -S -n > '{}'\n\
             echo '{{\"apiVersion\":\"client.authentication.k8s.io/v1\",\"kind\":\"ExecCredential\",\"status\":{{\"token\":\"{}\"}}}}'\n",
            seen.display(),
            cluster.sim.admin_token()
        ),
    )
    .unwrap();
    std::fs::set_permissions(&plugin, std::fs::Permissions::from_mode(0o755)).unwrap();
    let user = json!({"exec": {
        "apiVersion": "client.authentication.k8s.io/v1",
        "command": plugin,
        "interactiveMode": "Never",
    }});
    let kubeconfig = fleet(&cluster, 2, user);
    let mut cmd = cluster.kw();
    cmd.args([
        "get",
        "pods",
        "-n",
        "default",
        "-o",
        "name",
        "--context",
        "c-*",
    ])
    .arg("--kubeconfig")
    .arg(&kubeconfig);
    with_limits(&mut cmd, SOFT, roomy_hard());
    let (code, stdout, stderr) = Live::spawn(&mut cmd).finish(LIMIT);
    assert_eq!(code, Some(0), "{stderr}");
    assert!(stdout.iter().any(|l| l.starts_with("c-1/")), "{stdout:?}");
    assert_eq!(
        read(&seen).trim(),
        SOFT.to_string(),
        "the plugin's soft limit"
    );
}

fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}
