//! Churn replays the same story for a seed, keeps the world bounded, and only ever asks the
//! store for changes that make sense (create new, update or delete existing).

use std::collections::{BTreeMap, BTreeSet};
use std::time::{Duration, SystemTime};

use serde_json::Value;

use super::{Churn, Mutation};
use crate::world::objects::seed_world;
use crate::world::printers;

fn start() -> SystemTime {
    SystemTime::UNIX_EPOCH + Duration::from_secs(1_750_000_000)
}

fn describe(mutation: &Mutation) -> String {
    match mutation {
        Mutation::Create { resource, object } => format!("create {resource} {object}"),
        Mutation::Update { resource, object } => format!("update {resource} {object}"),
        Mutation::Delete {
            resource,
            namespace,
            name,
        } => format!("delete {resource} {namespace}/{name}"),
    }
}

fn run(seed: u64, ticks: u64) -> Vec<String> {
    let world = seed_world(seed, start());
    let mut churn = Churn::new(seed, &world);
    (0..ticks)
        .flat_map(|tick| churn.tick(start() + Duration::from_millis(250 * tick)))
        .map(|m| describe(&m))
        .collect()
}

#[test]
fn same_seed_same_story() {
    let first = run(11, 400);
    assert_eq!(first, run(11, 400));
    assert_ne!(first, run(12, 400));
    assert!(first.len() >= 400);
}

type Key = (&'static str, String, String);

fn key(resource: &'static str, object: &Value) -> Key {
    let metadata = &object["metadata"];
    (
        resource,
        metadata["namespace"].as_str().unwrap_or("").to_string(),
        metadata["name"].as_str().unwrap_or("").to_string(),
    )
}

#[test]
fn story_is_coherent_bounded_and_complete() {
    let seed = 4;
    let world = seed_world(seed, start());
    let mut store: BTreeMap<Key, Value> = world
        .iter()
        .map(|o| (key(o.resource, &o.object), o.object.clone()))
        .collect();
    let pods_at_start = store.keys().filter(|k| k.0 == "pods").count();
    let mut churn = Churn::new(seed, &world);
    let mut seen: BTreeSet<String> = BTreeSet::new();
    let mut most_pods = 0;

    for tick in 0..20_000u64 {
        let now = start() + Duration::from_secs(tick);
        let mutations = churn.tick(now);
        assert!(
            !mutations.is_empty() && mutations.len() <= 2,
            "tick {tick}: {} mutations",
            mutations.len()
        );
        for mutation in mutations {
            match mutation {
                Mutation::Create { resource, object } => {
                    assert!(object["metadata"].get("resourceVersion").is_none());
                    let previous = store.insert(key(resource, &object), object);
                    assert!(
                        previous.is_none(),
                        "tick {tick}: created an existing {resource}"
                    );
                    seen.insert(format!("create {resource}"));
                }
                Mutation::Update { resource, object } => {
                    assert!(
                        object["apiVersion"].is_string() && object["kind"].is_string(),
                        "whole object expected"
                    );
                    let status = if resource == "pods" {
                        let row = printers::cells("pods", &object, now);
                        row[2].as_str().unwrap_or("").to_string()
                    } else {
                        String::new()
                    };
                    let previous = store.insert(key(resource, &object), object);
                    assert!(
                        previous.is_some(),
                        "tick {tick}: updated a missing {resource}"
                    );
                    seen.insert(format!("update {resource} {status}").trim_end().to_string());
                }
                Mutation::Delete {
                    resource,
                    namespace,
                    name,
                } => {
                    let removed = store.remove(&(resource, namespace, name));
                    assert!(
                        removed.is_some(),
                        "tick {tick}: deleted a missing {resource}"
                    );
                    seen.insert(format!("delete {resource}"));
                }
            }
        }
        let pods = store.keys().filter(|k| k.0 == "pods").count();
        most_pods = most_pods.max(pods);
    }

    // Four workloads can grow to five replicas each, plus a few disposable pods.
    assert!(
        most_pods <= pods_at_start + 4 * 4 + 4,
        "{most_pods} pods at most, {pods_at_start} at start"
    );
    for beat in [
        "create pods",
        "update pods ContainerCreating",
        "update pods Running",
        "update pods Terminating",
        "update pods CrashLoopBackOff",
        "delete pods",
        "update nodes",
        "update deployments",
        "update replicasets",
        "update configmaps",
        "update widgets",
        "update events",
    ] {
        assert!(seen.contains(beat), "never saw {beat:?}; saw {seen:?}");
    }
}

#[test]
fn workload_counters_settle_to_match_their_pods() {
    let seed = 9;
    let world = seed_world(seed, start());
    let mut store: BTreeMap<Key, Value> = world
        .iter()
        .map(|o| (key(o.resource, &o.object), o.object.clone()))
        .collect();
    let mut churn = Churn::new(seed, &world);
    let mut checked = 0;
    for tick in 0..3_000u64 {
        for mutation in churn.tick(start() + Duration::from_secs(tick)) {
            match mutation {
                Mutation::Create { resource, object } | Mutation::Update { resource, object } => {
                    store.insert(key(resource, &object), object);
                }
                Mutation::Delete {
                    resource,
                    namespace,
                    name,
                } => {
                    store.remove(&(resource, namespace, name));
                }
            }
        }
        let quiet = churn.follow_ups.is_empty()
            && churn.pods.iter().all(|p| {
                !matches!(
                    p.step,
                    super::Step::Pending | super::Step::Creating | super::Step::Terminating
                )
            });
        if !quiet {
            continue;
        }
        for ((resource, namespace, name), replicaset) in
            store.iter().filter(|(k, _)| k.0 == "replicasets")
        {
            let uid = &replicaset["metadata"]["uid"];
            let owned = store
                .iter()
                .filter(|(k, pod)| {
                    k.0 == "pods"
                        && &k.1 == namespace
                        && &pod["metadata"]["ownerReferences"][0]["uid"] == uid
                })
                .count() as u64;
            assert_eq!(
                replicaset["spec"]["replicas"].as_u64(),
                Some(owned),
                "{resource} {name} at tick {tick}"
            );
            assert_eq!(
                replicaset["status"]["readyReplicas"].as_u64(),
                Some(owned),
                "{name} ready at tick {tick}"
            );
        }
        checked += 1;
    }
    assert!(checked > 10, "the story was never quiet ({checked})");
}
