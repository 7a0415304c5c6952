//! The server itself: oversized and malformed requests, stopping, and kubectl against it.

use std::io::Write;
use std::net::{SocketAddr, TcpListener, TcpStream};
use std::time::Duration;

use kw_sim::{SimConfig, SimError};
use serde_json::json;

use crate::client::{connect, get, get_with, watch};
use crate::harness::{empty_sim, populated_sim, run_limited, wait_until, READ_LIMIT};

#[test]
fn oversized_headers_get_431_and_garbage_400() {
    let sim = empty_sim();
    let big = "x".repeat(70 * 1024);
    let response = get_with(&sim, "/version", &[("X-Big", &big)]);
    assert_eq!(response.status, 431);
    let mut conn = connect(&sim, false);
    conn.reader
        .get_mut()
        .write_all(b"NONSENSE\r\n\r\n")
        .unwrap();
    assert_eq!(conn.response().status, 400);
}

#[test]
fn stop_closes_open_watches() {
    let sim = populated_sim(SimConfig::default());
    let (_, mut conn) = watch(&sim, "/api/v1/pods?watch=1", None);
    let (events, _) = conn.events(5);
    assert_eq!(events.len(), 5);
    let port = sim.port();
    sim.stop();
    let (_, ending) = conn.events(1);
    assert!(matches!(ending, Some("end") | Some("broken")), "{ending:?}");
    assert!(
        TcpStream::connect(("127.0.0.1", port)).is_err(),
        "listener closed"
    );
}

/// How long one kubectl command may take (`get -w` ends itself after 3 s).
const KUBECTL_LIMIT: Duration = Duration::from_secs(60);

#[test]
fn kubectl_accepts_the_sim() {
    // The goldens are recorded with kubectl against this sim: this test is what shows kubectl
    // accepts it, so a missing kubectl fails it (v1.32 is on PATH on every machine, CI too).
    let kubectl = "kubectl";
    let version = std::process::Command::new(kubectl)
        .args(["version", "--client"])
        .stdin(std::process::Stdio::null())
        .output();
    assert!(
        version.as_ref().is_ok_and(|out| out.status.success()),
        "kubectl is missing or broken on PATH ({version:?}): the test suite needs it (see CONTRIBUTING.md, Testing)"
    );
    let sim = populated_sim(SimConfig::default());
    sim.create(
        "deployments",
        json!({"metadata": {"name": "web", "namespace": "default"},
        "spec": {"replicas": 2}}),
    )
    .unwrap();
    sim.create(
        "widgets",
        json!({"metadata": {"name": "gizmo", "namespace": "default"}}),
    )
    .unwrap();
    let home = tempfile::tempdir().expect("tempdir");
    let kubeconfig = home.path().join("config");
    sim.write_kubeconfig(&kubeconfig).expect("kubeconfig");
    let run = |args: &[&str]| {
        run_limited(
            std::process::Command::new(kubectl)
                .arg("--kubeconfig")
                .arg(&kubeconfig)
                .args(args)
                .env("HOME", home.path())
                .env("KUBECACHEDIR", home.path().join("cache")),
            KUBECTL_LIMIT,
        )
    };
    let pods = run(&["get", "pods", "-A"]);
    let stdout = String::from_utf8_lossy(&pods.stdout);
    assert!(
        pods.status.success(),
        "{}",
        String::from_utf8_lossy(&pods.stderr)
    );
    assert!(stdout.contains("a-1") && stdout.contains("d-3"), "{stdout}");
    let watched = run(&["get", "pods", "-w", "--request-timeout=3s"]);
    assert!(String::from_utf8_lossy(&watched.stdout).contains("d-1"));
    let resources = run(&["api-resources"]);
    let stdout = String::from_utf8_lossy(&resources.stdout);
    assert!(
        resources.status.success(),
        "{}",
        String::from_utf8_lossy(&resources.stderr)
    );
    assert!(
        stdout.contains("widgets") && stdout.contains("deployments"),
        "{stdout}"
    );
    let deploy = run(&["get", "deploy", "-o", "wide"]);
    assert!(
        deploy.status.success(),
        "{}",
        String::from_utf8_lossy(&deploy.stderr)
    );
    assert!(String::from_utf8_lossy(&deploy.stdout).contains("web"));
    let widgets = run(&["get", "widgets"]);
    assert!(
        widgets.status.success(),
        "{}",
        String::from_utf8_lossy(&widgets.stderr)
    );
    assert!(String::from_utf8_lossy(&widgets.stdout).contains("gizmo"));
    let bad = run(&["--context", "sim-bad-token", "get", "pods"]);
    assert!(!bad.status.success());
    assert!(String::from_utf8_lossy(&bad.stderr).contains("Unauthorized"));
}

/// A restart is a server that goes away and comes back on the same port: open connections are
/// cut, new ones are refused while it is down, and it serves the same state once back. The
/// port stays the sim's all along: another program cannot take it in between.
#[test]
fn a_restart_refuses_connections_while_down_and_keeps_its_port() {
    let mut sim = populated_sim(SimConfig::default());
    let port = sim.port();
    let (_, mut open) = watch(&sim, "/api/v1/pods?watch=1", None);
    let (events, _) = open.events(5);
    assert_eq!(events.len(), 5);
    let address = SocketAddr::from(([127, 0, 0, 1], port));
    std::thread::scope(|threads| {
        let restarting = threads.spawn(|| sim.restart(Duration::from_secs(2)));
        wait_until("the sim to refuse connections", || {
            TcpStream::connect_timeout(&address, READ_LIMIT).is_err()
        });
        let taken = TcpListener::bind(address);
        assert!(taken.is_err(), "the port was free while the sim was down");
        restarting
            .join()
            .expect("restart thread")
            .expect("restarts");
    });
    let (more, ending) = open.events(1);
    assert!(more.is_empty());
    assert!(matches!(ending, Some("end") | Some("broken")), "{ending:?}");
    assert_eq!(sim.port(), port);
    let pods = get(&sim, "/api/v1/pods");
    assert_eq!(pods.status, 200);
    assert_eq!(pods.json()["items"].as_array().map(Vec::len), Some(5));
}

/// The hold a restart keeps on its port lets nothing else share it: a second sim asked for the
/// same port fails, before a restart and after.
#[test]
fn a_second_sim_on_a_taken_port_fails_before_and_after_a_restart() {
    let mut sim = empty_sim();
    let port = sim.port();
    let same_port = || SimConfig {
        port,
        empty: true,
        ..SimConfig::default()
    };
    let second = kw_sim::start(same_port());
    assert!(
        matches!(second, Err(SimError::Listen { .. })),
        "{:?}",
        second.map(|s| s.url())
    );
    sim.restart(Duration::from_millis(100)).expect("restarts");
    let second = kw_sim::start(same_port());
    assert!(
        matches!(second, Err(SimError::Listen { .. })),
        "{:?}",
        second.map(|s| s.url())
    );
    assert_eq!(get(&sim, "/version").status, 200);
}
