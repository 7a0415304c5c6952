//! Flood mode: N pre-serialised events, framed one per chunk unless batched, streaming lists,
//! plain HTTP, and the end that a resuming client is told of.

use kw_sim::{Flood, FloodFraming, SimConfig, SimHandle};

use crate::client::{get, get_with, watch, Chunk, TABLE_ACCEPT};
use crate::harness::start;

#[test]
fn flood_streams_n_events_then_ends() {
    let sim = start(SimConfig {
        empty: true,
        tls: false,
        flood: Some(Flood {
            watch_events: 5000,
            list_items: 1200,
            ..Flood::default()
        }),
        ..SimConfig::default()
    })
    .expect("start");
    assert!(sim.url().starts_with("http://"));
    let (_, mut conn) = watch(&sim, "/api/v1/pods?watch=1", None);
    let (events, ending) = conn.events(6000);
    assert_eq!(ending, Some("end"));
    assert_eq!(events.len(), 5000);
    assert!(events.iter().all(|e| e["type"] == "MODIFIED"));
    assert_eq!(events[4999]["object"]["metadata"]["name"], "flood-000199");
    let (_, mut conn) = watch(&sim, "/api/v1/pods?watch=1", Some(TABLE_ACCEPT));
    let (events, _) = conn.events(6000);
    assert_eq!(events.len(), 5000);
    assert!(events[0]["object"]["columnDefinitions"].is_array());
    assert!(events[1]["object"]["columnDefinitions"].is_null());
    let page = get(&sim, "/api/v1/pods?limit=1000").json();
    assert_eq!(page["items"].as_array().map(Vec::len), Some(1000));
    let token = page["metadata"]["continue"].as_str().unwrap().to_string();
    let rest = get(&sim, &format!("/api/v1/pods?limit=1000&continue={token}")).json();
    assert_eq!(rest["items"].as_array().map(Vec::len), Some(200));
    // Every item is its own object: a client that keys objects by uid must see 1,000 of them.
    let uids: std::collections::BTreeSet<&str> = page["items"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|item| item["metadata"]["uid"].as_str())
        .collect();
    assert_eq!(uids.len(), 1000);
}

/// Read a flood watch chunk by chunk: how many events each chunk held, until the clean end.
fn events_per_chunk(sim: &SimHandle, path: &str, limit: usize) -> Vec<usize> {
    let (status, mut conn) = watch(sim, path, None);
    assert_eq!(status, 200);
    let mut counts = Vec::new();
    for _ in 0..limit {
        match conn.chunk() {
            Chunk::Data(data) => counts.push(data.iter().filter(|b| **b == b'\n').count()),
            Chunk::End => return counts,
            Chunk::Broken | Chunk::Silent => panic!("flood watch did not end cleanly"),
        }
    }
    panic!("flood watch sent more than {limit} chunks");
}

/// kube-apiserver frames a busy watch as one HTTP chunk per event; the flood does too unless
/// asked to batch, and a streaming list's ADDED events and bookmark are framed the same way.
#[test]
fn flood_frames_one_event_per_chunk_unless_batched() {
    let flood = |framing| {
        start(SimConfig {
            empty: true,
            tls: false,
            flood: Some(Flood {
                watch_events: 300,
                list_items: 20,
                framing,
            }),
            ..SimConfig::default()
        })
        .expect("start")
    };
    let per_event = flood(FloodFraming::PerEvent);
    let counts = events_per_chunk(&per_event, "/api/v1/pods?watch=1", 1000);
    assert_eq!(counts.len(), 300);
    assert!(counts.iter().all(|&n| n == 1), "{counts:?}");
    let streaming = events_per_chunk(
        &per_event,
        "/api/v1/pods?watch=1&sendInitialEvents=true&resourceVersionMatch=NotOlderThan",
        1000,
    );
    assert_eq!(streaming.len(), 20 + 1 + 300);
    assert!(streaming.iter().all(|&n| n == 1), "{streaming:?}");
    let batched = flood(FloodFraming::Batched);
    let counts = events_per_chunk(&batched, "/api/v1/pods?watch=1", 1000);
    assert_eq!(counts.iter().sum::<usize>(), 300);
    assert!(counts.len() < 30, "batched into {} chunks", counts.len());
}

/// What benches/bench.sh relies on: kubectl sends no credentials over plain HTTP, a streaming
/// list gets the flood list before the flood, and a watch resuming after the flood gets a 400.
#[test]
fn flood_serves_streaming_lists_anonymous_http_and_ends_for_resumers() {
    let sim = start(SimConfig {
        empty: true,
        tls: false,
        flood: Some(Flood {
            watch_events: 30,
            list_items: 20,
            ..Flood::default()
        }),
        ..SimConfig::default()
    })
    .expect("start");
    let anonymous = get_with(&sim, "/api/v1/namespaces/default/pods?limit=5", &[]);
    assert_eq!(anonymous.status, 200);
    let (status, mut conn) = watch(
        &sim,
        "/api/v1/pods?watch=1&sendInitialEvents=true&resourceVersionMatch=NotOlderThan&allowWatchBookmarks=true",
        None,
    );
    assert_eq!(status, 200);
    let (events, ending) = conn.events(100);
    assert_eq!(ending, Some("end"));
    assert_eq!(events.len(), 20 + 1 + 30);
    assert!(events[..20].iter().all(|e| e["type"] == "ADDED"));
    assert_eq!(events[20]["type"], "BOOKMARK");
    assert_eq!(
        events[20]["object"]["metadata"]["annotations"]["k8s.io/initial-events-end"],
        "true"
    );
    let last = events[50]["object"]["metadata"]["resourceVersion"]
        .as_str()
        .expect("rv")
        .to_string();
    let (status, _) = watch(
        &sim,
        &format!("/api/v1/pods?watch=1&resourceVersion={last}"),
        None,
    );
    assert_eq!(status, 400);
}
