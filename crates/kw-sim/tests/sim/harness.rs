//! Starting sims for the tests, and waits that end: the sim runs in-process on 127.0.0.1 with a
//! port the kernel picks, every wait has a limit, and a program a test runs (kubectl) is killed
//! when it outlives its own.

use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

use kw_sim::{SimConfig, SimError, SimHandle};
use serde_json::{json, Value};

/// How long a read from the sim may wait for its next byte.
pub const READ_LIMIT: Duration = Duration::from_secs(5);
/// How long a test waits for the sim's world to reach a state.
pub const WAIT_LIMIT: Duration = Duration::from_secs(20);
/// How often a wait looks again.
const POLL: Duration = Duration::from_millis(20);

/// The sim in-process on 127.0.0.1, on a port the kernel picks (whatever `config` says), so
/// tests running side by side never share one.
pub fn start(config: SimConfig) -> Result<SimHandle, SimError> {
    kw_sim::start(SimConfig {
        port: 0,
        ipv6: false,
        ..config
    })
}

pub fn pod(namespace: &str, name: &str, labels: Value, phase: &str) -> Value {
    json!({"metadata": {"name": name, "namespace": namespace, "labels": labels},
        "spec": {"nodeName": "node-1"}, "status": {"phase": phase}})
}

pub fn empty_sim() -> SimHandle {
    start(SimConfig {
        empty: true,
        ..SimConfig::default()
    })
    .expect("start sim")
}

/// A sim with pods a-1, a-2 (team-a), d-1..d-3 (default).
pub fn populated_sim(config: SimConfig) -> SimHandle {
    let sim = start(SimConfig {
        empty: true,
        ..config
    })
    .expect("start sim");
    for (ns, name, app, phase) in [
        ("team-a", "a-1", "web", "Running"),
        ("team-a", "a-2", "db", "Pending"),
        ("default", "d-1", "web", "Running"),
        ("default", "d-2", "web", "Pending"),
        ("default", "d-3", "db", "Running"),
    ] {
        sim.create("pods", pod(ns, name, json!({"app": app}), phase))
            .expect("create");
    }
    sim
}

pub fn names(list: &Value) -> Vec<String> {
    list["items"]
        .as_array()
        .map(|items| {
            items
                .iter()
                .filter_map(|i| i["metadata"]["name"].as_str().map(String::from))
                .collect()
        })
        .unwrap_or_default()
}

/// Wait (bounded) until the sim's `resource` holds an object that `done` accepts.
pub fn wait_for_object(sim: &SimHandle, resource: &str, done: impl Fn(&Value) -> bool) -> Value {
    let deadline = Instant::now() + WAIT_LIMIT;
    loop {
        if let Some(found) = sim.objects(resource).into_iter().find(|o| done(o)) {
            return found;
        }
        assert!(
            Instant::now() < deadline,
            "no such {resource} within {WAIT_LIMIT:?}"
        );
        std::thread::sleep(POLL);
    }
}

/// Wait until `done` holds, looking every 20 ms; fail the test after `WAIT_LIMIT`, saying
/// `what` it waited for.
pub fn wait_until(what: &str, mut done: impl FnMut() -> bool) {
    let deadline = Instant::now() + WAIT_LIMIT;
    while !done() {
        assert!(
            Instant::now() < deadline,
            "waited {WAIT_LIMIT:?} for {what}"
        );
        std::thread::sleep(POLL);
    }
}

/// Run `command` to its end, its output captured; kill it and fail the test after `limit`.
pub fn run_limited(command: &mut Command, limit: Duration) -> Output {
    let mut child = command
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn");
    let deadline = Instant::now() + limit;
    while child.try_wait().expect("wait").is_none() {
        if Instant::now() >= deadline {
            let _ = child.kill();
            let _ = child.wait();
            panic!("{command:?} still ran after {limit:?}");
        }
        std::thread::sleep(POLL);
    }
    child.wait_with_output().expect("output")
}
