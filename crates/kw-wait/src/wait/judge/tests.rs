use super::*;
use kw_events::events::{Origin, ResourceInfo};
use serde_json::json;
use serde_json::value::RawValue;
use std::time::Duration;

fn parse(text: &str) -> Expr {
    Expr::parse("--until", text).unwrap()
}

pub(super) fn resource() -> ResourceInfo {
    ResourceInfo {
        plural: "pods".into(),
        singular: "pod".into(),
        kind: "Pod".into(),
        group: String::new(),
        version: "v1".into(),
        namespaced: true,
    }
}

/// Feed events (kind, name, phase) to a judge; returns what ended it, and when.
fn feed(judge: &mut Judge, steps: &[(&str, &str, &str)]) -> Option<(usize, Verdict)> {
    let resource = resource();
    for (i, (kind, name, phase)) in steps.iter().enumerate() {
        if *kind == "SYNC" {
            if let Some(e) = judge.synced(0) {
                return Some((i, e));
            }
            continue;
        }
        let text =
            json!({"metadata": {"name": name, "namespace": "ns"}, "status": {"phase": phase}})
                .to_string();
        let raw = RawValue::from_string(text).unwrap();
        let event = Event {
            kind: match *kind {
                "ADDED" => EventType::Added,
                "MODIFIED" => EventType::Modified,
                _ => EventType::Deleted,
            },
            origin: Origin::Watch,
            resource: &resource,
            object: &raw,
            object_lacks_type: false,
            name,
            namespace: "ns",
            row: None,
            context: None,
            judged: None,
        };
        if let Some(e) = judge.event(&event) {
            return Some((i, e));
        }
    }
    None
}

pub(super) fn rules(until: &[&str], fail_on: &[&str], mode: For) -> Rules {
    Rules {
        until: until.iter().map(|t| parse(t)).collect(),
        fail_on: fail_on
            .iter()
            .map(|t| Expr::parse("--fail-on", t).unwrap())
            .collect(),
        mode,
        max_events: None,
        progress: true,
        fail_grace: Duration::from_secs(30),
        ..Rules::default()
    }
}

/// The event an object first meets `--until` with opens the gate of `-o name`; later
/// events of it, and events of objects that do not meet it, do not.
#[test]
fn each_object_opens_once_when_it_first_meets_until() {
    let resource = deployments();
    let mut judge = Judge::new(rules(&["ready"], &[], For::All), vec![], 1);
    let opened = |judge: &mut Judge, object: Value| {
        feed_object(judge, &resource, object);
        judge.opened() > 0
    };
    assert!(!opened(
        &mut judge,
        deployment("web", 1, "ReplicaSetUpdated")
    ));
    assert!(opened(
        &mut judge,
        deployment("api", 3, "NewReplicaSetAvailable")
    ));
    assert!(!opened(
        &mut judge,
        deployment("api", 3, "NewReplicaSetAvailable")
    ));
    assert!(opened(
        &mut judge,
        deployment("web", 3, "NewReplicaSetAvailable")
    ));
    assert!(!opened(
        &mut judge,
        deployment("web", 1, "ReplicaSetUpdated")
    ));
    assert!(!opened(
        &mut judge,
        deployment("web", 3, "NewReplicaSetAvailable")
    ));
}

const DONE: &str = "jsonpath={.status.phase}=Succeeded";

/// Feed one object of kind `kind` (group `group`) as an event to `judge`.
pub(super) fn feed_object(
    judge: &mut Judge,
    resource: &ResourceInfo,
    object: Value,
) -> Option<Verdict> {
    let name = object["metadata"]["name"]
        .as_str()
        .unwrap_or_default()
        .to_string();
    let raw = RawValue::from_string(object.to_string()).unwrap();
    judge.event(&Event {
        kind: EventType::Modified,
        origin: Origin::Watch,
        resource,
        object: &raw,
        object_lacks_type: false,
        name: &name,
        namespace: "ns",
        row: None,
        context: None,
        judged: None,
    })
}

pub(super) fn deployments() -> ResourceInfo {
    ResourceInfo {
        plural: "deployments".into(),
        singular: "deployment".into(),
        kind: "Deployment".into(),
        group: "apps".into(),
        version: "v1".into(),
        namespaced: true,
    }
}

/// A Deployment of 3 replicas, `updated` of them on the current template, whose
/// `Progressing` condition has `reason`.
pub(super) fn deployment(name: &str, updated: u32, reason: &str) -> Value {
    json!({"metadata": {"name": name, "namespace": "ns", "generation": 2},
           "spec": {"replicas": 3, "progressDeadlineSeconds": 600},
           "status": {"observedGeneration": 2, "replicas": 3, "updatedReplicas": updated,
                      "readyReplicas": 3, "availableReplicas": 3,
                      "conditions": [
                          {"type": "Available", "status": "True"},
                          {"type": "Progressing",
                           "status": if reason == "ProgressDeadlineExceeded" {"False"} else {"True"},
                           "reason": reason}]}})
}

/// kubectl wait's repeated `--for`: the conditions are met in turn, each printed once; the
/// object is done after the last; one that never comes is named as the one waited for.
#[test]
fn in_sequence_each_condition_is_met_in_turn_and_the_one_waited_for_is_named() {
    let resource = deployments();
    let mut in_turn = rules(
        &[
            "condition=Available",
            "condition=Progressing",
            "condition=Nope",
        ],
        &[],
        For::All,
    );
    in_turn.sequence = true;
    let mut judge = Judge::new(
        in_turn,
        vec![Named::new(&resource, Some("ns".into()), "web")],
        1,
    );
    assert_eq!(judge.synced(0), None);
    let ended = feed_object(
        &mut judge,
        &resource,
        deployment("web", 3, "NewReplicaSetAvailable"),
    );
    assert_eq!(ended, None, "the third never holds");
    assert_eq!(judge.opened(), 2, "Available, then Progressing");
    let unmet = judge.findings().unmet();
    assert_eq!(
        unmet[0].pending.as_deref(),
        Some("condition=Nope=True (condition=Available=True and condition=Progressing=True met)")
    );
    // Met already: a later event meets nothing again.
    feed_object(
        &mut judge,
        &resource,
        deployment("web", 3, "NewReplicaSetAvailable"),
    );
    assert_eq!(judge.opened(), 0);
}

/// `--until ready` is not met by an available Deployment mid-rollout (where
/// `condition=Available` is), and is once every replica is updated.
#[test]
fn ready_waits_for_the_rollout_not_for_availability() {
    let resource = deployments();
    let mut judge = Judge::new(
        rules(&["ready"], &["failed"], For::All),
        vec![Named::new(&resource, Some("ns".into()), "web")],
        1,
    );
    assert_eq!(judge.synced(0), None);
    assert_eq!(
        feed_object(
            &mut judge,
            &resource,
            deployment("web", 1, "ReplicaSetUpdated")
        ),
        None
    );
    assert_eq!(
        judge.findings().not_ready(),
        ["deployment.apps/web: in progress: Updated: 1/3"]
    );
    assert_eq!(
        feed_object(
            &mut judge,
            &resource,
            deployment("web", 3, "NewReplicaSetAvailable")
        ),
        Some(Verdict::Until {
            expr: "ready".into(),
            by: "deployment.apps/web (Deployment is available. Replicas: 3)".into()
        })
    );
    assert!(judge.findings().not_ready().is_empty());
    assert_eq!(
        judge.take_progress(),
        [
            "deployment.apps/web: in progress: Updated: 1/3",
            "deployment.apps/web: ready: Deployment is available. Replicas: 3"
        ]
    );
    // The same judgement again is no news; nor is an object ready when first seen.
    feed_object(
        &mut judge,
        &resource,
        deployment("api", 3, "NewReplicaSetAvailable"),
    );
    feed_object(
        &mut judge,
        &resource,
        deployment("web", 3, "NewReplicaSetAvailable"),
    );
    assert!(judge.take_progress().is_empty());
}

#[test]
fn failed_trips_on_one_object_and_says_why() {
    let resource = deployments();
    let mut judge = Judge::new(rules(&["ready"], &["failed"], For::All), vec![], 1);
    assert_eq!(
        feed_object(
            &mut judge,
            &resource,
            deployment("api", 3, "NewReplicaSetAvailable")
        ),
        None,
        "not decided before the list is complete"
    );
    assert_eq!(
        feed_object(
            &mut judge,
            &resource,
            deployment("web", 1, "ProgressDeadlineExceeded")
        ),
        Some(Verdict::FailOn {
            expr: Expr::Failed,
            by: "deployment.apps/web (Progress deadline exceeded)".into()
        })
    );
    let printed = Verdict::FailOn {
        expr: Expr::Failed,
        by: "deployment.apps/web (Progress deadline exceeded)".into(),
    }
    .to_string();
    assert_eq!(
        printed,
        "--fail-on failed met by deployment.apps/web (Progress deadline exceeded)"
    );
}

/// A Pod the scheduler cannot place fails once the window has passed, with no event to
/// prompt the judge: `tick` judges it again.
#[test]
fn an_unschedulable_pod_fails_on_a_tick_after_the_window() {
    let now = SystemTime::now();
    let since = now - std::time::Duration::from_secs(10);
    let pod = json!({"metadata": {"name": "web-1", "namespace": "ns",
                                  "creationTimestamp": humantime::format_rfc3339_seconds(since).to_string()},
                     "status": {"phase": "Pending", "conditions": [{
                         "type": "PodScheduled", "status": "False", "reason": "Unschedulable",
                         "message": "0/3 nodes are available: 3 Insufficient cpu."}]}});
    let mut judge = Judge::new(rules(&["ready"], &["failed"], For::All), vec![], 1);
    assert_eq!(judge.next_tick(), None);
    assert_eq!(feed_object(&mut judge, &resource(), pod), None);
    assert_eq!(judge.synced(0), None);
    let due = judge.next_tick().expect("judged again later");
    assert!(due > now && due <= now + std::time::Duration::from_secs(6));
    assert_eq!(judge.tick(now), None, "still within the window");
    assert_eq!(
        judge.tick(due),
        Some(Verdict::FailOn {
            expr: Expr::Failed,
            by: "pod/web-1 (Pod could not be scheduled: 0/3 nodes are available: 3 Insufficient cpu.)".into()
        })
    );
    assert!(judge.ended().is_some());
}

/// `ready` mixes with kubectl's words: any --until met ends the wait.
#[test]
fn ready_mixes_with_other_conditions() {
    let resource = deployments();
    let mut judge = Judge::new(
        rules(
            &["ready", "jsonpath={.metadata.labels.skip}=yes"],
            &[],
            For::All,
        ),
        vec![],
        1,
    );
    assert_eq!(judge.synced(0), None);
    let mut skipped = deployment("web", 1, "ReplicaSetUpdated");
    skipped["metadata"]["labels"] = json!({"skip": "yes"});
    assert!(matches!(
        feed_object(&mut judge, &resource, skipped),
        Some(Verdict::Until { expr, .. }) if expr.starts_with("jsonpath=")
    ));
}

#[test]
fn all_waits_for_every_object_after_the_list() {
    let mut judge = Judge::new(rules(&[DONE], &[], For::All), vec![], 1);
    let ended = feed(
        &mut judge,
        &[
            ("ADDED", "a", "Succeeded"),
            ("ADDED", "b", "Running"),
            ("SYNC", "", ""),
            ("MODIFIED", "b", "Succeeded"),
        ],
    );
    assert!(
        matches!(ended, Some((3, Verdict::Until { .. }))),
        "{ended:?}"
    );

    // Already true at the list: decided when the list is complete, not before.
    let mut judge = Judge::new(rules(&[DONE], &[], For::All), vec![], 1);
    let ended = feed(&mut judge, &[("ADDED", "a", "Succeeded"), ("SYNC", "", "")]);
    assert!(
        matches!(ended, Some((1, Verdict::Until { .. }))),
        "{ended:?}"
    );

    // A selector that matches nothing yet waits for objects to appear.
    let mut judge = Judge::new(rules(&[DONE], &[], For::All), vec![], 1);
    let ended = feed(&mut judge, &[("SYNC", "", ""), ("ADDED", "a", "Succeeded")]);
    assert!(
        matches!(ended, Some((1, Verdict::Until { .. }))),
        "{ended:?}"
    );
}

#[test]
fn deleted_objects_leave_the_all_set() {
    let mut judge = Judge::new(rules(&[DONE], &[], For::All), vec![], 1);
    let ended = feed(
        &mut judge,
        &[
            ("ADDED", "a", "Succeeded"),
            ("ADDED", "b", "Running"),
            ("SYNC", "", ""),
            ("DELETED", "b", "Running"),
        ],
    );
    assert!(
        matches!(ended, Some((3, Verdict::Until { .. }))),
        "{ended:?}"
    );
}

#[test]
fn any_and_fail_on_trip_on_one_object() {
    let mut judge = Judge::new(rules(&[DONE], &[], For::Any), vec![], 1);
    let ended = feed(
        &mut judge,
        &[("ADDED", "a", "Running"), ("ADDED", "b", "Succeeded")],
    );
    assert!(
        matches!(ended, Some((1, Verdict::Until { .. }))),
        "{ended:?}"
    );

    let failed = "jsonpath={.status.phase}=Failed";
    let mut judge = Judge::new(rules(&[DONE], &[failed], For::All), vec![], 1);
    let ended = feed(
        &mut judge,
        &[
            ("ADDED", "a", "Running"),
            ("SYNC", "", ""),
            ("MODIFIED", "a", "Failed"),
        ],
    );
    assert!(
        matches!(ended, Some((2, Verdict::FailOn { .. }))),
        "{ended:?}"
    );
}

#[test]
fn named_objects_must_exist_and_delete_counts_absence() {
    let named = vec![Named::new(&resource(), Some("ns".into()), "a")];
    let mut judge = Judge::new(rules(&["create"], &[], For::All), named.clone(), 1);
    let ended = feed(&mut judge, &[("SYNC", "", ""), ("ADDED", "a", "Pending")]);
    assert!(
        matches!(ended, Some((1, Verdict::Until { .. }))),
        "{ended:?}"
    );

    let mut judge = Judge::new(rules(&["delete"], &[], For::All), named.clone(), 1);
    let ended = feed(&mut judge, &[("SYNC", "", "")]);
    assert!(
        matches!(ended, Some((0, Verdict::Until { .. }))),
        "{ended:?}"
    );

    let mut judge = Judge::new(rules(&["delete"], &[], For::All), named, 1);
    let ended = feed(
        &mut judge,
        &[
            ("ADDED", "a", "Running"),
            ("SYNC", "", ""),
            ("DELETED", "a", "Running"),
        ],
    );
    assert!(
        matches!(ended, Some((2, Verdict::Until { .. }))),
        "{ended:?}"
    );
}

#[test]
fn max_events_counts_printed_events() {
    let rules = Rules {
        max_events: Some(2),
        ..Rules::default()
    };
    let mut judge = Judge::new(rules, vec![], 1);
    let ended = feed(
        &mut judge,
        &[
            ("ADDED", "a", ""),
            ("SYNC", "", ""),
            ("ADDED", "b", ""),
            ("ADDED", "c", ""),
        ],
    );
    assert_eq!(ended, Some((2, Verdict::MaxEvents(2))));
}

/// The same named pod in two contexts: `--for all` needs it in both, `--fail-on` names the
/// context, and a context still unresolved holds the decision back.
#[test]
fn several_contexts_are_judged_as_one_fleet() {
    let resource = resource();
    let event = |context: &'static str, phase: &str| {
        let text = json!({"metadata": {"name": "web", "namespace": "ns"},
                          "status": {"phase": phase}})
        .to_string();
        (context, RawValue::from_string(text).unwrap())
    };
    let judge_event = |judge: &mut Judge, (context, raw): &(&str, Box<RawValue>)| {
        judge.event(&Event {
            kind: EventType::Added,
            origin: Origin::Watch,
            resource: &resource,
            object: raw,
            object_lacks_type: false,
            name: "web",
            namespace: "ns",
            row: None,
            context: Some(context),
            judged: None,
        })
    };
    let named = |context: &str| vec![Named::new(&resource, None, "web").in_context(context)];
    let until = rules(&["jsonpath={.status.phase}=Running"], &[], For::All);
    let mut judge = Judge::for_contexts(until.clone(), 2);
    let east = judge.member_resolved(named("east"), 1);
    assert_eq!(judge.synced(east), None);
    assert_eq!(judge_event(&mut judge, &event("east", "Running")), None);
    // west has not even resolved its types yet.
    assert_eq!(judge.synced(east), None);
    let west = judge.member_resolved(named("west"), 1);
    assert_eq!(west, 1);
    assert_eq!(judge.synced(west), None, "west/web does not exist yet");
    assert_eq!(judge_event(&mut judge, &event("west", "Pending")), None);
    assert!(matches!(
        judge_event(&mut judge, &event("west", "Running")),
        Some(Verdict::Until { .. })
    ));
    assert!(judge.needs_every_context());

    let fail = rules(&[], &["jsonpath={.status.phase}=Failed"], For::All);
    let mut judge = Judge::for_contexts(fail, 2);
    judge.member_resolved(named("east"), 1);
    judge.member_resolved(named("west"), 1);
    assert_eq!(
        judge_event(&mut judge, &event("west", "Failed")),
        Some(Verdict::FailOn {
            expr: Expr::parse("--fail-on", "jsonpath={.status.phase}=Failed").unwrap(),
            by: "west/pod/web".into()
        })
    );
    assert!(!judge.needs_every_context());
}
