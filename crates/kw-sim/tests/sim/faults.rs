//! Every injected fault of lists and watches, as a client on the wire sees it.

use std::time::Duration;

use kw_sim::{Faults, SimConfig, SimHandle};

use crate::client::{get, watch, Conn};
use crate::harness::populated_sim;

/// Watch with a fault set, after creating `extra` pods so there are events to count.
fn watch_with_fault(faults: Faults) -> (SimHandle, Conn) {
    let sim = populated_sim(SimConfig {
        faults,
        ..SimConfig::default()
    });
    let (status, conn) = watch(&sim, "/api/v1/pods?watch=1", None);
    assert_eq!(status, 200);
    (sim, conn)
}

#[test]
fn fault_close_after_drops_without_terminating_chunk() {
    let (_sim, mut conn) = watch_with_fault(Faults {
        close_after: Some(2),
        ..Faults::default()
    });
    let (events, ending) = conn.events(10);
    assert_eq!(events.len(), 2);
    assert_eq!(ending, Some("broken"));
}

#[test]
fn fault_cut_after_sends_half_a_chunk() {
    let (_sim, mut conn) = watch_with_fault(Faults {
        cut_after: Some(1),
        ..Faults::default()
    });
    let (events, ending) = conn.events(10);
    assert_eq!(events.len(), 1);
    assert_eq!(ending, Some("broken"));
}

#[test]
fn fault_expire_after_sends_410_and_ends() {
    let (_sim, mut conn) = watch_with_fault(Faults {
        expire_after: Some(3),
        ..Faults::default()
    });
    let (events, ending) = conn.events(10);
    assert_eq!(events.len(), 4);
    assert_eq!(events[3]["type"], "ERROR");
    assert_eq!(events[3]["object"]["code"], 410);
    assert_eq!(ending, Some("end"));
}

#[test]
fn fault_stall_keeps_the_connection_silent() {
    let sim = populated_sim(SimConfig {
        faults: Faults {
            stall_after: Some(1),
            stall_secs: 2,
            ..Faults::default()
        },
        ..SimConfig::default()
    });
    let (_, mut conn) = watch(&sim, "/api/v1/pods?watch=1", None);
    let (events, _) = conn.events(1);
    assert_eq!(events.len(), 1);
    // Nothing arrives for a while (read timeout 5 s > stall 2 s: then the drop).
    let started = std::time::Instant::now();
    let (more, ending) = conn.events(10);
    assert!(more.is_empty());
    assert_eq!(ending, Some("broken"));
    assert!(started.elapsed() >= Duration::from_millis(1500));
}

#[test]
fn fault_invalid_json_and_huge_object() {
    let (_sim, mut conn) = watch_with_fault(Faults {
        invalid_json_after: Some(1),
        huge_object_bytes: Some(200_000),
        ..Faults::default()
    });
    let (events, _) = conn.events(3);
    let padding = events[0]["object"]["metadata"]["annotations"]["kw.sim/padding"].as_str();
    assert_eq!(padding.map(str::len), Some(200_000));
    assert!(
        events[1].get("invalid").is_some(),
        "second line is not JSON"
    );
    assert_eq!(events[2]["type"], "ADDED");
}

#[test]
fn fault_list_and_watch_status_with_times() {
    let sim = populated_sim(SimConfig {
        faults: Faults {
            list_status: Some(429),
            list_count: 2,
            watch_status: Some(410),
            times: Some(1),
            ..Faults::default()
        },
        ..SimConfig::default()
    });
    for _ in 0..2 {
        let throttled = get(&sim, "/api/v1/pods");
        assert_eq!(throttled.status, 429);
        assert_eq!(throttled.header("retry-after"), Some("1"));
        assert_eq!(throttled.json()["reason"], "TooManyRequests");
    }
    assert_eq!(get(&sim, "/api/v1/pods").status, 200);
    let (first, mut conn) = watch(&sim, "/api/v1/pods?watch=1", None);
    assert_eq!(first, 410);
    assert!(conn.response_body_only() > 0, "a Status body follows");
    let (second, _) = watch(&sim, "/api/v1/pods?watch=1", None);
    assert_eq!(second, 200);
    sim.set_faults(Faults {
        list_status: Some(503),
        list_count: 1,
        ..Faults::default()
    });
    assert_eq!(get(&sim, "/api/v1/pods").status, 503);
    assert_eq!(get(&sim, "/api/v1/pods").status, 200);
}
