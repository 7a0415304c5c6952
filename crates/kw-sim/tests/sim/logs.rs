//! Pod logs: a crash-looping rollout's previous container log, and the API server's errors.

use std::time::Duration;

use serde_json::{json, Value};

use crate::client::get;
use crate::harness::{empty_sim, wait_for_object};

/// A crash-looping rollout serves the previous container's log as the API server does, with
/// `container`, `previous` and `tailLines`, and the API server's errors.
#[test]
fn a_crash_loop_serves_the_previous_containers_log() {
    use kw_sim::rollout::{Plot, Rollout};
    let sim = empty_sim();
    let mut rollout = Rollout::new(Plot::CrashLoop, "default", "crashy");
    rollout.beat = Duration::from_millis(50);
    sim.play_rollout(&rollout).expect("rollout plays");
    let pod = wait_for_object(&sim, "pods", |p| {
        p["status"]["containerStatuses"][0]["restartCount"].as_u64() >= Some(2)
    });
    let name = pod["metadata"]["name"].as_str().unwrap().to_string();
    assert_eq!(pod["metadata"]["ownerReferences"][0]["kind"], "ReplicaSet");
    let base = format!("/api/v1/namespaces/default/pods/{name}/log");

    let previous = get(
        &sim,
        &format!("{base}?container=web&previous=true&tailLines=2"),
    );
    assert_eq!(previous.status, 200);
    assert_eq!(previous.header("content-type"), Some("text/plain"));
    assert_eq!(
        String::from_utf8_lossy(&previous.body),
        "error: config key \"listen\" is missing\nexit status 1\n"
    );
    // One container: `container` may be left out.
    let whole = get(&sim, &format!("{base}?previous=true"));
    assert_eq!(String::from_utf8_lossy(&whole.body).lines().count(), 5);

    let wrong = get(&sim, &format!("{base}?container=db"));
    assert_eq!(wrong.status, 400);
    assert_eq!(
        wrong.json()["message"],
        format!("container db is not valid for pod {name}")
    );
    let missing = get(&sim, "/api/v1/namespaces/default/pods/nope/log");
    assert_eq!(missing.status, 404);
    assert_eq!(missing.json()["reason"], "NotFound");

    // A pod whose container has not terminated before has no previous log.
    sim.create("pods", pod_with_container("default", "steady"))
        .expect("create");
    let none = get(
        &sim,
        "/api/v1/namespaces/default/pods/steady/log?previous=true",
    );
    assert_eq!(none.status, 400);
    assert_eq!(
        none.json()["message"],
        "previous terminated container \"web\" in pod \"steady\" not found"
    );
}

fn pod_with_container(namespace: &str, name: &str) -> Value {
    json!({"metadata": {"name": name, "namespace": namespace},
        "spec": {"nodeName": "node-1", "containers": [{"name": "web", "image": "nginx"}]},
        "status": {"phase": "Running"}})
}
