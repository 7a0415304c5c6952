//! An exec credential plugin's own children end with it (issue 61, point 2): a plugin that
//! forks keeps kw's stderr open through its child, so kw ending the plugin alone left
//! `kw get pods --request-timeout 2s 2>&1 | cat` waiting a minute, and a handed verb's
//! completion left kubectl's plugin running. kw's deadline, a signal to kw and the completion
//! budget each end the whole tree.

use std::io::Read;
use std::path::PathBuf;
use std::process::{Child, Command};
use std::sync::mpsc;
use std::time::Duration;

use crate::harness::{self, wait_for, wait_with_limit, watchdog, Cluster};

const LIMIT: Duration = Duration::from_secs(30);

/// A kubeconfig whose user's plugin starts `sleep 60` (its pid in `child.pid`) and waits on it.
fn forking_plugin(cluster: &Cluster) -> (PathBuf, Grandchild) {
    use base64::Engine as _;
    use std::os::unix::fs::PermissionsExt as _;
    let dir = cluster.dir.path();
    let pid_file = dir.join("child.pid");
    let plugin = dir.join("forking-plugin");
    std::fs::write(
        &plugin,
        format!(
            "#!/bin/sh\nsleep 60 &\necho $! > '{}'\nwait\n",
            pid_file.display()
        ),
    )
    .unwrap();
    std::fs::set_permissions(&plugin, std::fs::Permissions::from_mode(0o755)).unwrap();
    let config = serde_json::json!({
        "apiVersion": "v1",
        "kind": "Config",
        "current-context": "c",
        "clusters": [{"name": "sim", "cluster": {
            "server": cluster.sim.url(),
            "certificate-authority-data":
                base64::engine::general_purpose::STANDARD.encode(cluster.sim.ca_pem()),
        }}],
        "contexts": [{"name": "c", "context": {"cluster": "sim", "user": "u", "namespace": "default"}}],
        "users": [{"name": "u", "user": {"exec": {
            "apiVersion": "client.authentication.k8s.io/v1",
            "command": plugin,
            "interactiveMode": "Never",
        }}}],
    });
    let path = dir.join("forking-config");
    std::fs::write(&path, config.to_string()).unwrap();
    (path, Grandchild { pid_file })
}

/// The plugin's child: killed when the test ends, whatever happened, so a failing test leaves
/// nothing behind.
struct Grandchild {
    pid_file: PathBuf,
}

impl Grandchild {
    fn pid(&self) -> Option<libc::pid_t> {
        std::fs::read_to_string(&self.pid_file)
            .ok()?
            .trim()
            .parse()
            .ok()
    }

    fn wait_started(&self) {
        wait_for("the plugin to start its child", LIMIT, || {
            self.pid().is_some()
        });
    }

    /// Whether it runs (a zombie has ended: whatever adopted it may be slow to reap it).
    fn alive(&self) -> bool {
        let pid = self.pid().expect("the plugin started its child");
        std::fs::read_to_string(format!("/proc/{pid}/stat")).is_ok_and(|stat| {
            !stat
                .rsplit(')')
                .next()
                .unwrap_or_default()
                .trim_start()
                .starts_with('Z')
        })
    }

    fn assert_ended(&self, what: &str) {
        // Signalled before kw returned; the kernel may take a moment to finish it.
        for _ in 0..100 {
            if !self.alive() {
                return;
            }
            std::thread::sleep(Duration::from_millis(20));
        }
        panic!("{what}: the plugin's child {:?} outlived kw", self.pid());
    }
}

impl Drop for Grandchild {
    fn drop(&mut self) {
        if let Some(pid) = self.pid() {
            // SAFETY: kill(2) of the sleep this test's plugin started.
            unsafe { libc::kill(pid, libc::SIGKILL) };
        }
    }
}

/// kw started with stdout and stderr on one pipe, as `2>&1 | cat` has them; the receiver gets
/// everything once the pipe's last writer has closed it.
fn spawn_piped(mut cmd: Command) -> (Child, mpsc::Receiver<String>) {
    let (mut reader, writer) = std::io::pipe().expect("pipe");
    let child = cmd
        .stdout(writer.try_clone().expect("pipe"))
        .stderr(writer)
        .spawn()
        .expect("kw starts");
    let so_far = watchdog::Output::default();
    watchdog::watch(
        &cmd,
        &child,
        watchdog::Stream::Buffer(so_far.clone()),
        watchdog::Stream::Buffer(so_far.clone()),
    );
    // The command holds our copies of the write end: only kw and what it started keep it open.
    drop(cmd);
    let (sender, receiver) = mpsc::channel();
    std::thread::spawn(move || {
        let mut buffer = [0u8; 8192];
        while let Ok(n @ 1..) = reader.read(&mut buffer) {
            so_far.push(&buffer[..n]);
        }
        let _ = sender.send(so_far.text());
    });
    (child, receiver)
}

/// The pipe's end: every process holding it has closed it. Fails after `LIMIT`.
fn pipe_closed(output: &mpsc::Receiver<String>, what: &str) -> String {
    output
        .recv_timeout(LIMIT)
        .unwrap_or_else(|_| panic!("{what}: something kw started still holds its output open"))
}

#[test]
fn at_the_request_timeout_the_plugins_children_end_and_the_pipe_closes() {
    let cluster = Cluster::seeded();
    let (config, grandchild) = forking_plugin(&cluster);
    let mut kw = cluster.kw();
    kw.args(["get", "pods", "--request-timeout", "2s", "--kubeconfig"])
        .arg(&config);
    let (mut child, output) = spawn_piped(kw);
    let code = wait_with_limit(&mut child, LIMIT);
    let text = pipe_closed(&output, "--request-timeout 2s");
    assert_ne!(code, Some(0), "{text}");
    assert!(text.contains("kw stopped it"), "{text}");
    grandchild.assert_ended("--request-timeout 2s");
}

#[test]
fn a_signal_to_kw_ends_the_plugin_it_waits_on_and_the_plugins_children() {
    for (signal, name) in [(libc::SIGTERM, "TERM"), (libc::SIGINT, "INT")] {
        let cluster = Cluster::seeded();
        let (config, grandchild) = forking_plugin(&cluster);
        let mut kw = cluster.kw();
        kw.args(["get", "pods", "-w", "--kubeconfig"]).arg(&config);
        let (mut child, output) = spawn_piped(kw);
        grandchild.wait_started();
        // SAFETY: kill(2) of the kw this test started.
        unsafe { libc::kill(child.id() as libc::pid_t, signal) };
        let code = wait_with_limit(&mut child, LIMIT);
        let text = pipe_closed(&output, name);
        assert_eq!(code, Some(128 + signal), "SIG{name}: {text}");
        grandchild.assert_ended(&format!("SIG{name}"));
    }
}

/// `kw describe pod <TAB>`: kubectl asks the cluster, through the plugin, which forks and
/// hangs; at the budget kw ends kubectl, its plugin and the plugin's child.
#[test]
fn completing_a_handed_verb_leaves_none_of_kubectls_plugin_tree_behind() {
    let cluster = Cluster::seeded();
    let (config, grandchild) = forking_plugin(&cluster);
    let mut kw = cluster.kw();
    kw.env("KW_KUBECTL", harness::kubectl())
        .args(["__complete", "describe", "pod", "--kubeconfig"])
        .arg(&config)
        .arg("");
    let (mut child, output) = spawn_piped(kw);
    let code = wait_with_limit(&mut child, LIMIT);
    let text = pipe_closed(&output, "__complete describe");
    assert_eq!(code, Some(0), "{text}");
    assert!(grandchild.pid().is_some(), "kubectl ran the plugin: {text}");
    grandchild.assert_ended("__complete describe");
}
