//! GET and LIST: not found, label and field selectors, limit and continue (and an expired
//! continue), resourceVersion semantics, and Tables.

use kw_sim::SimConfig;
use serde_json::json;

use crate::client::{bearer, get, get_with, watch, TABLE_ACCEPT};
use crate::harness::{names, pod, populated_sim};

#[test]
fn list_get_and_not_found() {
    let sim = populated_sim(SimConfig::default());
    let all = get(&sim, "/api/v1/pods");
    assert_eq!(all.status, 200);
    let list = all.json();
    assert_eq!(list["kind"], "PodList");
    assert_eq!(names(&list), ["d-1", "d-2", "d-3", "a-1", "a-2"]);
    assert!(
        list["items"][0].get("kind").is_none(),
        "items carry no kind"
    );
    assert_eq!(
        list["metadata"]["resourceVersion"],
        sim.current_resource_version().to_string()
    );
    assert_eq!(
        names(&get(&sim, "/api/v1/namespaces/team-a/pods").json()),
        ["a-1", "a-2"]
    );
    let one = get(&sim, "/api/v1/namespaces/default/pods/d-1").json();
    assert_eq!(
        (one["kind"].as_str(), one["apiVersion"].as_str()),
        (Some("Pod"), Some("v1"))
    );
    let missing = get(&sim, "/api/v1/namespaces/default/pods/nope");
    assert_eq!(missing.status, 404);
    let status = missing.json();
    assert_eq!(status["message"], "pods \"nope\" not found");
    assert_eq!(status["details"]["name"], "nope");
    assert_eq!(status["details"]["kind"], "pods");
    let namespaces = get(&sim, "/api/v1/namespaces").json();
    assert!(names(&namespaces).contains(&"team-a".to_string()));
}

#[test]
fn label_and_field_selectors() {
    let sim = populated_sim(SimConfig::default());
    let cases = [
        ("labelSelector=app%3Dweb", vec!["d-1", "d-2", "a-1"]),
        ("labelSelector=app!%3Dweb", vec!["d-3", "a-2"]),
        ("labelSelector=app+in+(db)", vec!["d-3", "a-2"]),
        ("labelSelector=!app", vec![]),
        ("fieldSelector=status.phase%3DPending", vec!["d-2", "a-2"]),
        ("fieldSelector=metadata.name%3Dd-1", vec!["d-1"]),
        (
            "fieldSelector=metadata.namespace!%3Ddefault,status.phase%3DRunning",
            vec!["a-1"],
        ),
    ];
    for (query, expected) in cases {
        let list = get(&sim, &format!("/api/v1/pods?{query}")).json();
        assert_eq!(names(&list), expected, "{query}");
    }
    let unsupported = get(&sim, "/api/v1/pods?fieldSelector=spec.foo%3D1");
    assert_eq!(unsupported.status, 400);
    assert_eq!(
        unsupported.json()["message"],
        "field label not supported: spec.foo"
    );
    assert_eq!(unsupported.json()["reason"], "BadRequest");
    let malformed = get(&sim, "/api/v1/pods?labelSelector=a+b");
    assert_eq!(malformed.status, 400);
    assert!(malformed.json()["message"]
        .as_str()
        .unwrap()
        .contains("found 'b'"));
}

#[test]
fn limit_continue_and_expired_continue() {
    let sim = populated_sim(SimConfig::default());
    let first = get(&sim, "/api/v1/pods?limit=2").json();
    assert_eq!(names(&first), ["d-1", "d-2"]);
    assert_eq!(first["metadata"]["remainingItemCount"], 3);
    let token = first["metadata"]["continue"].as_str().unwrap().to_string();
    // A change between pages must not show up: pages come from the first page's snapshot.
    sim.create("pods", pod("default", "d-0", json!({}), "Running"))
        .unwrap();
    let second = get(&sim, &format!("/api/v1/pods?limit=2&continue={token}")).json();
    assert_eq!(names(&second), ["d-3", "a-1"]);
    assert_eq!(
        second["metadata"]["resourceVersion"],
        first["metadata"]["resourceVersion"]
    );
    let token = second["metadata"]["continue"].as_str().unwrap().to_string();
    let third = get(&sim, &format!("/api/v1/pods?limit=2&continue={token}")).json();
    assert_eq!(names(&third), ["a-2"]);
    assert!(third["metadata"].get("continue").is_none());
    sim.compact();
    let expired = get(&sim, &format!("/api/v1/pods?limit=2&continue={token}"));
    assert_eq!(expired.status, 410);
    assert_eq!(expired.json()["reason"], "Expired");
    assert!(expired.json()["message"]
        .as_str()
        .unwrap()
        .starts_with("The provided continue parameter is too old"));
    assert_eq!(get(&sim, "/api/v1/pods?continue=garbage").status, 400);
}

#[test]
fn resource_version_semantics() {
    let sim = populated_sim(SimConfig::default());
    let current = sim.current_resource_version();
    assert_eq!(get(&sim, "/api/v1/pods?resourceVersion=0").status, 200);
    let exact = get(
        &sim,
        &format!("/api/v1/pods?resourceVersion={current}&resourceVersionMatch=Exact"),
    );
    assert_eq!(exact.status, 200);
    let old = get(
        &sim,
        "/api/v1/pods?resourceVersion=2&resourceVersionMatch=Exact",
    );
    assert_eq!(old.status, 410);
    let future = current + 100;
    let too_large = get(
        &sim,
        &format!("/api/v1/pods?resourceVersion={future}&resourceVersionMatch=NotOlderThan"),
    );
    assert_eq!(too_large.status, 504);
    assert_eq!(
        too_large.json()["details"]["causes"][0]["reason"],
        "ResourceVersionTooLarge"
    );
    assert!(too_large.json()["message"]
        .as_str()
        .unwrap()
        .contains("Too large resource version"));
}

#[test]
fn tables_for_list_and_watch() {
    let sim = populated_sim(SimConfig::default());
    let auth = bearer(&sim);
    let list = get_with(
        &sim,
        "/api/v1/namespaces/default/pods",
        &[("Authorization", &auth), ("Accept", TABLE_ACCEPT)],
    );
    let table = list.json();
    assert_eq!(table["kind"], "Table");
    assert_eq!(table["apiVersion"], "meta.k8s.io/v1");
    assert!(table["columnDefinitions"]
        .as_array()
        .is_some_and(|c| !c.is_empty()));
    assert_eq!(table["rows"].as_array().map(Vec::len), Some(3));
    assert_eq!(table["rows"][0]["object"]["kind"], "PartialObjectMetadata");
    assert!(table["metadata"]["resourceVersion"].is_string());
    let full = get_with(
        &sim,
        "/api/v1/pods?includeObject=Object",
        &[("Authorization", &auth), ("Accept", TABLE_ACCEPT)],
    );
    assert_eq!(full.json()["rows"][0]["object"]["kind"], "Pod");
    let v1beta1 = get_with(
        &sim,
        "/api/v1/pods",
        &[
            ("Authorization", &auth),
            (
                "Accept",
                "application/json;as=Table;v=v1beta1;g=meta.k8s.io",
            ),
        ],
    );
    assert_eq!(v1beta1.status, 406);

    let (_, mut conn) = watch(
        &sim,
        "/api/v1/namespaces/default/pods?watch=1",
        Some(TABLE_ACCEPT),
    );
    let (events, _) = conn.events(3);
    assert_eq!(events[0]["object"]["kind"], "Table");
    assert!(events[0]["object"]["columnDefinitions"].is_array());
    assert!(events[1]["object"]["columnDefinitions"].is_null());
    assert!(events[2]["object"]["columnDefinitions"].is_null());
    assert_eq!(
        events[1]["object"]["rows"].as_array().map(Vec::len),
        Some(1)
    );
    assert!(events[1]["object"]["metadata"]["resourceVersion"].is_string());
}
