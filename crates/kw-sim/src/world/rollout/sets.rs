//! Rollouts told by the workload object's status alone, one state a beat, as its controller
//! writes it (no Pods or ReplicaSets): the states `kubectl rollout status` has a line for.
//!
//! - `rolling-update`: a Deployment at revision 1 gets a new template (generation 2); new
//!   replicas are added and old ones terminated, one at a time (maxSurge 1, maxUnavailable 0).
//! - `daemonset`: a new DaemonSet on 3 nodes, its Pods updated and available one by one.
//! - `partitioned`: a StatefulSet of 3 gets a new template with `partition: 1`: the controller
//!   replaces the Pods above the partition, highest ordinal first, and stops there.
//! - `on-delete`: a StatefulSet whose `updateStrategy` is `OnDelete` (kubectl refuses it).

use serde_json::{json, Value};

use super::story::Story;
use crate::world::objects::{rfc3339, uid};

const REPLICAS: i64 = 3;

fn metadata(story: &Story, resource: &str, generation: i64) -> Value {
    let (namespace, name) = (&story.rollout.namespace, &story.rollout.name);
    json!({
        "name": name,
        "namespace": namespace,
        "uid": uid(story.seed, &format!("{resource}/{namespace}/{name}")),
        "generation": generation,
        "creationTimestamp": rfc3339(story.start),
        "labels": {"app": name}
    })
}

fn template(story: &Story, image: &str) -> Value {
    json!({
        "metadata": {"labels": {"app": story.rollout.name}},
        "spec": {"containers": [{"name": "web", "image": image}]}
    })
}

/// Write each of `statuses` a beat apart (the first now), on `object` with `spec` set.
fn play(story: &mut Story, resource: &'static str, object: Value, statuses: &[Value]) {
    for (step, status) in statuses.iter().enumerate() {
        if step > 0 {
            story.next(1);
        }
        let mut object = object.clone();
        object["status"] = status.clone();
        if step == 0 {
            story.create(resource, object);
        } else {
            story.update(resource, object);
        }
    }
}

pub(super) fn rolling_update(story: &mut Story) {
    let mut metadata = metadata(story, "deployments", 2);
    metadata["annotations"] = json!({"deployment.kubernetes.io/revision": "2"});
    let deployment = json!({
        "apiVersion": "apps/v1",
        "kind": "Deployment",
        "metadata": metadata,
        "spec": {
            "progressDeadlineSeconds": 600,
            "replicas": REPLICAS,
            "selector": {"matchLabels": {"app": story.rollout.name}},
            "strategy": {"type": "RollingUpdate", "rollingUpdate": {"maxSurge": 1, "maxUnavailable": 0}},
            "template": template(story, "nginx:1.28")
        }
    });
    // (replicas, updated, available) as the controller reports them, after observing
    // generation 2; the first state is the old revision's, generation 1 observed.
    let counts = |observed, replicas, updated, available| {
        json!({"observedGeneration": observed, "replicas": replicas, "updatedReplicas": updated,
               "readyReplicas": available, "availableReplicas": available})
    };
    let statuses = [
        counts(1, 3, 3, 3),
        counts(2, 4, 1, 3),
        counts(2, 4, 2, 3),
        counts(2, 4, 3, 3),
        counts(2, 3, 3, 3),
    ];
    play(story, "deployments", deployment, &statuses);
}

pub(super) fn daemon_set(story: &mut Story) {
    let daemon_set = json!({
        "apiVersion": "apps/v1",
        "kind": "DaemonSet",
        "metadata": metadata(story, "daemonsets", 1),
        "spec": {
            "selector": {"matchLabels": {"app": story.rollout.name}},
            "template": template(story, "nginx:1.27"),
            "updateStrategy": {"type": "RollingUpdate", "rollingUpdate": {"maxSurge": 0, "maxUnavailable": 1}}
        }
    });
    let counts = |scheduled, updated, available| {
        json!({"observedGeneration": 1, "desiredNumberScheduled": 3, "currentNumberScheduled": scheduled,
               "updatedNumberScheduled": updated, "numberReady": available,
               "numberAvailable": available, "numberMisscheduled": 0})
    };
    let statuses = [
        json!({}),
        counts(0, 0, 0),
        counts(3, 1, 0),
        counts(3, 3, 1),
        counts(3, 3, 2),
        counts(3, 3, 3),
    ];
    play(story, "daemonsets", daemon_set, &statuses);
}

fn stateful_set(story: &Story, generation: i64, strategy: Value) -> Value {
    json!({
        "apiVersion": "apps/v1",
        "kind": "StatefulSet",
        "metadata": metadata(story, "statefulsets", generation),
        "spec": {
            "replicas": REPLICAS,
            "serviceName": story.rollout.name,
            "podManagementPolicy": "OrderedReady",
            "selector": {"matchLabels": {"app": story.rollout.name}},
            "template": template(story, "postgres:17"),
            "updateStrategy": strategy
        }
    })
}

pub(super) fn partitioned(story: &mut Story) {
    let name = story.rollout.name.clone();
    let strategy = json!({"type": "RollingUpdate", "rollingUpdate": {"partition": 1}});
    let set = stateful_set(story, 2, strategy);
    let (old, new) = (format!("{name}-5d8f7c9b6"), format!("{name}-7f9c6d4b8"));
    // Pods above the partition (ordinals 2, then 1) are replaced: each is down, then ready.
    let counts = |observed, ready, current, updated| {
        json!({"observedGeneration": observed, "replicas": 3, "readyReplicas": ready,
               "availableReplicas": ready, "currentReplicas": current, "updatedReplicas": updated,
               "currentRevision": old, "updateRevision": if observed == 1 { &old } else { &new }})
    };
    let statuses = [
        counts(1, 3, 3, 0),
        counts(2, 2, 2, 0),
        counts(2, 3, 2, 1),
        counts(2, 2, 1, 1),
        counts(2, 3, 1, 2),
    ];
    play(story, "statefulsets", set, &statuses);
}

pub(super) fn on_delete(story: &mut Story) {
    let name = story.rollout.name.clone();
    let set = stateful_set(story, 1, json!({"type": "OnDelete"}));
    let revision = format!("{name}-5d8f7c9b6");
    let status = json!({"observedGeneration": 1, "replicas": 3, "readyReplicas": 3,
        "availableReplicas": 3, "currentReplicas": 3, "updatedReplicas": 3,
        "currentRevision": revision, "updateRevision": revision});
    play(story, "statefulsets", set, &[status]);
}
