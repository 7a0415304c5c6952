//! WATCH: history replayed then live events, resourceVersion 0, 410 for a too old one,
//! timeouts and bookmarks, streaming lists, and selectors turning changes into ADDED/DELETED.

use std::time::Duration;

use kw_sim::SimConfig;
use serde_json::json;

use crate::client::{get, watch};
use crate::harness::{pod, populated_sim};

#[test]
fn watch_replays_history_then_goes_live() {
    let sim = populated_sim(SimConfig::default());
    let from = sim.current_resource_version();
    sim.update(
        "pods",
        pod("default", "d-1", json!({"app": "web"}), "Succeeded"),
    )
    .unwrap();
    sim.delete("pods", "default", "d-2").unwrap();
    let (status, mut conn) = watch(
        &sim,
        &format!("/api/v1/pods?watch=1&resourceVersion={from}"),
        None,
    );
    assert_eq!(status, 200);
    let (events, _) = conn.events(2);
    let kinds: Vec<&str> = events.iter().filter_map(|e| e["type"].as_str()).collect();
    assert_eq!(kinds, ["MODIFIED", "DELETED"]);
    assert_eq!(events[0]["object"]["kind"], "Pod");
    assert_eq!(
        events[1]["object"]["metadata"]["resourceVersion"],
        (from + 2).to_string()
    );
    sim.create("pods", pod("default", "live", json!({}), "Running"))
        .unwrap();
    let (events, _) = conn.events(1);
    assert_eq!(events[0]["type"], "ADDED");
    assert_eq!(events[0]["object"]["metadata"]["name"], "live");
}

#[test]
fn watch_from_rv_zero_sends_synthetic_adds() {
    let sim = populated_sim(SimConfig::default());
    let (_, mut conn) = watch(
        &sim,
        "/api/v1/namespaces/team-a/pods?watch=true&resourceVersion=0",
        None,
    );
    let (events, _) = conn.events(2);
    assert!(events.iter().all(|e| e["type"] == "ADDED"));
    assert_eq!(events[1]["object"]["metadata"]["name"], "a-2");
}

#[test]
fn watch_from_too_old_rv_gets_410_event() {
    let sim = populated_sim(SimConfig {
        history: 2,
        ..SimConfig::default()
    });
    let (status, mut conn) = watch(&sim, "/api/v1/pods?watch=1&resourceVersion=1", None);
    assert_eq!(status, 200);
    let (events, ending) = conn.events(5);
    assert_eq!(ending, Some("end"));
    assert_eq!(events.len(), 1);
    assert_eq!(events[0]["type"], "ERROR");
    assert_eq!(events[0]["object"]["code"], 410);
    assert_eq!(events[0]["object"]["reason"], "Expired");
    assert!(events[0]["object"]["message"]
        .as_str()
        .unwrap()
        .starts_with("too old resource version: 1 ("));
}

#[test]
fn watch_timeout_ends_cleanly_and_bookmarks_arrive() {
    let sim = populated_sim(SimConfig {
        bookmark_interval: Duration::from_millis(200),
        ..SimConfig::default()
    });
    let rv = sim.current_resource_version();
    let (_, mut conn) = watch(
        &sim,
        &format!(
            "/api/v1/pods?watch=1&resourceVersion={rv}&allowWatchBookmarks=true&timeoutSeconds=1"
        ),
        None,
    );
    let (events, ending) = conn.events(100);
    assert_eq!(
        ending,
        Some("end"),
        "timeoutSeconds ends with the terminating chunk"
    );
    assert!(!events.is_empty());
    for event in &events {
        assert_eq!(event["type"], "BOOKMARK");
        assert_eq!(event["object"]["kind"], "Pod");
        assert_eq!(
            event["object"]["metadata"]["resourceVersion"],
            rv.to_string()
        );
    }
}

#[test]
fn streaming_list_ends_initial_events_with_bookmark() {
    let sim = populated_sim(SimConfig::default());
    let (status, mut conn) = watch(
        &sim,
        "/api/v1/namespaces/default/pods?watch=1&sendInitialEvents=true&resourceVersionMatch=NotOlderThan&allowWatchBookmarks=true",
        None,
    );
    assert_eq!(status, 200);
    let (events, _) = conn.events(4);
    let kinds: Vec<&str> = events.iter().filter_map(|e| e["type"].as_str()).collect();
    assert_eq!(kinds, ["ADDED", "ADDED", "ADDED", "BOOKMARK"]);
    assert_eq!(
        events[3]["object"]["metadata"]["annotations"]["k8s.io/initial-events-end"],
        "true"
    );
    let invalid = get(&sim, "/api/v1/pods?watch=1&sendInitialEvents=true");
    assert_eq!(invalid.status, 422);
    assert_eq!(invalid.json()["reason"], "Invalid");
}

#[test]
fn selector_watch_turns_transitions_into_added_and_deleted() {
    let sim = populated_sim(SimConfig::default());
    let rv = sim.current_resource_version();
    let (_, mut conn) = watch(
        &sim,
        &format!(
            "/api/v1/namespaces/default/pods?watch=1&resourceVersion={rv}&labelSelector=app%3Dweb"
        ),
        None,
    );
    sim.update(
        "pods",
        pod("default", "d-1", json!({"app": "other"}), "Running"),
    )
    .unwrap();
    sim.update(
        "pods",
        pod("default", "d-3", json!({"app": "web"}), "Running"),
    )
    .unwrap();
    sim.update(
        "pods",
        pod("default", "d-2", json!({"app": "web"}), "Running"),
    )
    .unwrap();
    let (events, _) = conn.events(3);
    let summary: Vec<(String, String)> = events
        .iter()
        .map(|e| {
            (
                e["type"].as_str().unwrap_or("").to_string(),
                e["object"]["metadata"]["name"]
                    .as_str()
                    .unwrap_or("")
                    .to_string(),
            )
        })
        .collect();
    assert_eq!(
        summary,
        [
            ("DELETED".to_string(), "d-1".to_string()),
            ("ADDED".to_string(), "d-3".to_string()),
            ("MODIFIED".to_string(), "d-2".to_string())
        ]
    );
    // The DELETED carries the previous content with the new resourceVersion.
    assert_eq!(events[0]["object"]["metadata"]["labels"]["app"], "web");
    assert_eq!(
        events[0]["object"]["metadata"]["resourceVersion"],
        (rv + 1).to_string()
    );
}
