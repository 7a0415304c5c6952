//! The judge over a workload's stuck children and their grace, as the stories play them: a
//! child stuck past the grace, the Pod's own evidence, a short recovery, a verdict worded with
//! the Pod told after it.

use super::tests::{deployment, deployments, feed_object, resource, rules};
use super::*;
use crate::wait::identity::GroupResource;
use serde_json::json;
use std::time::Duration;

/// The key of the object `name` of `resource` in the namespace `ns`, in a run of one context.
fn key(resource: &ResourceInfo, name: &str) -> Key {
    Key {
        context: String::new(),
        resource: GroupResource::of(resource),
        namespace: "ns".into(),
        name: name.into(),
    }
}

/// kubectl's `rollout status` (`PastGrace::Said`): a child stuck past the grace fails nothing
/// (kubectl waits on); the moment is said once, naming the child and the flag that ends it.
#[test]
fn past_the_grace_kubectls_rollout_runs_on_and_says_so_once() {
    let resource = deployments();
    let key = key(&resource, "web");
    let stuck = |since| {
        Some(Trouble {
            reason: "CrashLoopBackOff (web): back-off".into(),
            since,
        })
    };
    let rules = Rules {
        past_grace: PastGrace::Said,
        ..rules(&["ready"], &["failed"], For::All)
    };
    let mut judge = Judge::new(rules, vec![], 1);
    judge.synced(0);
    feed_object(
        &mut judge,
        &resource,
        deployment("web", 1, "ReplicaSetUpdated"),
    );
    let t0 = SystemTime::now();
    assert_eq!(judge.child_trouble(&key, "pod/web-1", stuck(t0), t0), None);
    judge.take_progress();
    for after in [30, 31, 90] {
        assert_eq!(
            judge.tick(t0 + Duration::from_secs(after)),
            None,
            "{after}s"
        );
    }
    let later = t0 + Duration::from_secs(95);
    assert_eq!(
        judge.child_trouble(&key, "pod/web-2", stuck(t0), later),
        None
    );
    let said = judge.take_progress();
    assert_eq!(
        said,
        ["deployment.apps/web: pod/web-1: CrashLoopBackOff (web): back-off, for 30s now: this rollout runs on until its progress deadline or --timeout, as kubectl's does; --fail-grace 30s ends it at this point (exit 2)"],
    );
    assert_eq!(judge.ended(), None);
}

/// A stuck child fails its workload once the grace has passed, on a tick with no event;
/// one that recovers within the grace fails nothing; a grace of 0 fails at once.
#[test]
fn a_stuck_child_fails_its_workload_after_the_grace() {
    let resource = deployments();
    let key = key(&resource, "web");
    let stuck = |since| {
        Some(Trouble {
            reason: "ImagePullBackOff (web): Back-off".into(),
            since,
        })
    };
    let mut judge = Judge::new(rules(&["ready"], &["failed"], For::All), vec![], 1);
    assert_eq!(judge.synced(0), None);
    assert_eq!(
        feed_object(
            &mut judge,
            &resource,
            deployment("web", 1, "ReplicaSetUpdated")
        ),
        None
    );
    let t0 = SystemTime::now();
    assert_eq!(judge.child_trouble(&key, "pod/web-1", stuck(t0), t0), None);
    assert_eq!(judge.next_tick(), Some(t0 + Duration::from_secs(30)));
    // Said again later (ErrImagePull, then ImagePullBackOff): the first moment counts.
    let t10 = t0 + Duration::from_secs(10);
    assert_eq!(
        judge.child_trouble(&key, "pod/web-1", stuck(t10), t10),
        None
    );
    assert_eq!(judge.tick(t0 + Duration::from_secs(29)), None);
    let ended = judge.tick(t0 + Duration::from_secs(30));
    assert_eq!(
        ended,
        Some(Verdict::FailOn {
            expr: Expr::Failed,
            by: "deployment.apps/web (pod/web-1: ImagePullBackOff (web): Back-off)".into()
        })
    );

    let mut judge = Judge::new(rules(&["ready"], &["failed"], For::All), vec![], 1);
    judge.synced(0);
    feed_object(
        &mut judge,
        &resource,
        deployment("web", 1, "ReplicaSetUpdated"),
    );
    judge.child_trouble(&key, "pod/web-1", stuck(t0), t0);
    assert_eq!(judge.child_trouble(&key, "pod/web-1", None, t10), None);
    assert_eq!(judge.next_tick(), None);
    assert_eq!(judge.tick(t0 + Duration::from_secs(60)), None);
    assert_eq!(
        judge.findings().not_ready(),
        ["deployment.apps/web: in progress: Updated: 1/3"]
    );

    let mut zero = rules(&["ready"], &["failed"], For::All);
    zero.fail_grace = Duration::ZERO;
    let mut judge = Judge::new(zero, vec![], 1);
    judge.synced(0);
    feed_object(
        &mut judge,
        &resource,
        deployment("web", 1, "ReplicaSetUpdated"),
    );
    assert!(matches!(
        judge.child_trouble(&key, "pod/web-1", stuck(t0), t0),
        Some(Verdict::FailOn { .. })
    ));
}

/// A Pod of its own in `CrashLoopBackOff` is held to the grace as a Deployment's Pod is:
/// in progress, with the pending verdict said once, then failed with its cause on a tick.
#[test]
/// The grace counts from when the trouble began as the Pod's evidence shows it (told by
/// the causes, on kw's clock), not from when kw joined: a Pod stuck for 25 s of a 30 s grace
/// fails 5 s later; one stuck for a minute fails at once. The evidence never makes a Pod
/// stuck that the judge does not see stuck, and never moves the start later.
fn the_grace_counts_from_the_pods_own_evidence() {
    let crashing = json!({"metadata": {"name": "x", "namespace": "ns"},
                          "status": {"phase": "Running", "containerStatuses": [{
                              "name": "web", "state": {"waiting": {
                                  "reason": "CrashLoopBackOff"}}}]}});
    let key = key(&resource(), "x");
    let told = |ago: u64| {
        Some(Trouble {
            reason: "CrashLoopBackOff (web)".into(),
            since: SystemTime::now() - Duration::from_secs(ago),
        })
    };
    let mut judge = Judge::new(rules(&["ready"], &["failed"], For::All), vec![], 1);
    judge.synced(0);
    assert_eq!(feed_object(&mut judge, &resource(), crashing.clone()), None);
    let start = SystemTime::now();
    assert_eq!(judge.child_trouble(&key, "pod/x", told(25), start), None);
    let due = judge.next_tick().expect("judged again when the grace ends");
    let left = due.duration_since(start).unwrap_or_default();
    assert!(left <= Duration::from_secs(6), "{left:?}");
    // Later evidence does not move it back.
    assert_eq!(judge.child_trouble(&key, "pod/x", told(1), start), None);
    assert_eq!(judge.next_tick(), Some(due));
    assert!(judge.tick(due).is_some());

    let fails_at_once = |ended: Option<Verdict>| {
        assert!(
            matches!(&ended, Some(Verdict::FailOn { by, .. }) if by.starts_with("pod/x (CrashLoopBackOff")),
            "{ended:?}"
        )
    };
    let mut judge = Judge::new(rules(&["ready"], &["failed"], For::All), vec![], 1);
    judge.synced(0);
    assert_eq!(feed_object(&mut judge, &resource(), crashing.clone()), None);
    fails_at_once(judge.child_trouble(&key, "pod/x", told(60), SystemTime::now()));

    // The evidence may come before the judge has seen the Pod stuck: it is kept for then.
    let running = json!({"metadata": {"name": "x", "namespace": "ns"},
                         "status": {"phase": "Running", "containerStatuses": [{
                             "name": "web", "state": {"running": {}}}]}});
    let mut judge = Judge::new(rules(&["ready"], &["failed"], For::All), vec![], 1);
    judge.synced(0);
    assert_eq!(feed_object(&mut judge, &resource(), running), None);
    assert_eq!(
        judge.child_trouble(&key, "pod/x", told(60), SystemTime::now()),
        None
    );
    fails_at_once(feed_object(&mut judge, &resource(), crashing));
}

#[test]
/// A crash loop's Pod flaps between failed and in progress: each judgement is said once.
fn a_flapping_object_says_each_judgement_once() {
    let pod = |crashing: bool| {
        let state = match crashing {
            true => json!({"waiting": {"reason": "CrashLoopBackOff"}}),
            false => json!({"running": {}}),
        };
        json!({"metadata": {"name": "x", "namespace": "ns"},
               "status": {"phase": "Running",
                          "containerStatuses": [{"name": "web", "state": state}]}})
    };
    let mut judge = Judge::new(rules(&["ready"], &[], For::All), vec![], 1);
    judge.synced(0);
    let mut said = Vec::new();
    for round in 0..6 {
        feed_object(&mut judge, &resource(), pod(round % 2 == 0));
        said.extend(judge.take_progress());
    }
    assert_eq!(
        said,
        [
            "pod/x: failed: Containers in CrashLoop state: web",
            "pod/x: in progress: Pod is running but is not Ready"
        ]
    );
}

#[test]
fn a_watched_pod_gets_the_grace_too() {
    let crashing = json!({"metadata": {"name": "x", "namespace": "ns"},
                          "status": {"phase": "Running", "containerStatuses": [{
                              "name": "web", "state": {"waiting": {
                                  "reason": "CrashLoopBackOff",
                                  "message": "back-off 10s restarting failed container"}}}]}});
    let mut judge = Judge::new(rules(&["ready"], &["failed"], For::All), vec![], 1);
    assert_eq!(judge.synced(0), None);
    assert_eq!(feed_object(&mut judge, &resource(), crashing.clone()), None);
    let progress = judge.take_progress();
    assert_eq!(progress.len(), 2, "{progress:?}");
    assert_eq!(
        progress[0],
        "pod/x: in progress: Containers in CrashLoop state: web"
    );
    assert!(
        progress[1].starts_with(
            "pod/x: CrashLoopBackOff (web): back-off restarting failed container; failing in "
        ) && progress[1].ends_with("s unless it recovers"),
        "{progress:?}"
    );
    // Said again (the same back-off): no news, and the pending verdict is not said twice.
    assert_eq!(feed_object(&mut judge, &resource(), crashing.clone()), None);
    assert!(judge.take_progress().is_empty());
    let due = judge.next_tick().expect("judged again when the grace ends");
    assert_eq!(
        judge.tick(due),
        Some(Verdict::FailOn {
            expr: Expr::Failed,
            by: "pod/x (CrashLoopBackOff (web): back-off restarting failed container)".into()
        })
    );

    // With a grace of 0 it fails at once, with the same cause.
    let mut zero = rules(&["ready"], &["failed"], For::All);
    zero.fail_grace = Duration::ZERO;
    let mut judge = Judge::new(zero, vec![], 1);
    judge.synced(0);
    assert_eq!(
        feed_object(&mut judge, &resource(), crashing.clone()),
        Some(Verdict::FailOn {
            expr: Expr::Failed,
            by: "pod/x (CrashLoopBackOff (web): back-off restarting failed container)".into()
        })
    );
    assert!(judge
        .take_progress()
        .iter()
        .all(|line| !line.contains("failing in")));

    // A Pod that recovers within the grace fails nothing.
    let mut judge = Judge::new(rules(&["ready"], &["failed"], For::All), vec![], 1);
    judge.synced(0);
    feed_object(&mut judge, &resource(), crashing);
    let ready = json!({"metadata": {"name": "x", "namespace": "ns"},
                       "status": {"phase": "Running",
                                  "conditions": [{"type": "Ready", "status": "True"}]}});
    assert!(matches!(
        feed_object(&mut judge, &resource(), ready),
        Some(Verdict::Until { .. })
    ));
}

/// A crash loop's running spell between two back-offs is no recovery: stuck again within
/// the grace, the first moment counts, and the pending failure is not said again.
#[test]
fn a_short_recovery_keeps_the_first_moment_stuck() {
    let resource = deployments();
    let key = key(&resource, "web");
    let crash = |since| {
        Some(Trouble {
            reason: "CrashLoopBackOff (web): back-off".into(),
            since,
        })
    };
    let mut judge = Judge::new(rules(&["ready"], &["failed"], For::All), vec![], 1);
    judge.synced(0);
    feed_object(
        &mut judge,
        &resource,
        deployment("web", 1, "ReplicaSetUpdated"),
    );
    judge.take_progress();
    let t0 = SystemTime::now();
    let at = |secs| t0 + Duration::from_secs(secs);
    assert_eq!(judge.child_trouble(&key, "pod/web-1", crash(t0), t0), None);
    assert_eq!(judge.take_progress().len(), 1);
    assert_eq!(judge.child_trouble(&key, "pod/web-1", None, at(10)), None);
    assert_eq!(
        judge.child_trouble(&key, "pod/web-1", crash(at(20)), at(20)),
        None
    );
    assert!(judge.take_progress().is_empty(), "said once");
    assert_eq!(judge.next_tick(), Some(at(30)));
    // Recovered for longer than the grace: a new spell, a new deadline, said.
    assert_eq!(judge.child_trouble(&key, "pod/web-1", None, at(25)), None);
    assert_eq!(
        judge.child_trouble(&key, "pod/web-1", crash(at(60)), at(60)),
        None
    );
    assert_eq!(
        judge.take_progress(),
        ["deployment.apps/web: pod/web-1: CrashLoopBackOff (web): back-off; failing in 30s unless it recovers"]
    );
}

/// A workload failed for a reason of its own names its stuck Pod's cause in the verdict.
#[test]
fn the_verdict_names_a_stuck_pods_cause() {
    let resource = deployments();
    let key = key(&resource, "web");
    let mut judge = Judge::new(rules(&["ready"], &["failed"], For::All), vec![], 1);
    judge.synced(0);
    feed_object(
        &mut judge,
        &resource,
        deployment("web", 1, "ReplicaSetUpdated"),
    );
    let t0 = SystemTime::now();
    let pulling = Trouble {
        reason: "ImagePullBackOff (web): Back-off pulling image \"nginx:1.99-missing\"".into(),
        since: t0,
    };
    assert_eq!(
        judge.child_trouble(&key, "pod/web-1", Some(pulling), t0),
        None
    );
    assert_eq!(
        judge.take_progress().last().map(String::as_str),
        Some("deployment.apps/web: pod/web-1: ImagePullBackOff (web): Back-off pulling image \"nginx:1.99-missing\"; failing in 30s unless it recovers")
    );
    assert_eq!(
        feed_object(&mut judge, &resource, deployment("web", 1, "ProgressDeadlineExceeded")),
        Some(Verdict::FailOn {
            expr: Expr::Failed,
            by: "deployment.apps/web (Progress deadline exceeded; pod/web-1: ImagePullBackOff (web): Back-off pulling image \"nginx:1.99-missing\")".into()
        })
    );
}

/// A workload failed on its first list, its stuck Pod told only after the verdict: the
/// verdict is worded again with the Pod's cause, and is not changed otherwise.
#[test]
fn a_verdict_reached_first_is_worded_with_the_pods_told_after_it() {
    let resource = deployments();
    let key = key(&resource, "web");
    let mut judge = Judge::new(rules(&["ready"], &["failed"], For::All), vec![], 1);
    judge.synced(0);
    let ended = feed_object(
        &mut judge,
        &resource,
        deployment("web", 1, "ProgressDeadlineExceeded"),
    );
    assert_eq!(judge.record(ended.clone()), Flow::Stop);
    assert_eq!(judge.reword(), ended, "nothing learnt yet");
    let t0 = SystemTime::now();
    let pulling = |reason: &str| Trouble {
        reason: format!("{reason} (web): Back-off pulling image \"x\""),
        since: t0,
    };
    assert_eq!(
        judge.child_trouble(&key, "pod/web-1", Some(pulling("ErrImagePull")), t0),
        None
    );
    judge.child_trouble(&key, "pod/web-1", Some(pulling("ImagePullBackOff")), t0);
    judge.child_trouble(&key, "pod/web-2", Some(pulling("ErrImagePull")), t0);
    judge.child_trouble(&key, "pod/web-2", None, t0);
    let worded = Some(Verdict::FailOn {
        expr: Expr::Failed,
        by: "deployment.apps/web (Progress deadline exceeded; pod/web-1: ImagePullBackOff (web): Back-off pulling image \"x\")".into(),
    });
    assert_eq!(judge.reword(), worded);
    assert_eq!(judge.ended(), worded);
    assert_eq!(judge.reword(), worded, "worded once");
}

/// A Pod of ReplicaSet `owner` in `CrashLoopBackOff`.
fn crash_looping(name: &str, owner: &str) -> Value {
    json!({"metadata": {"name": name, "namespace": "ns",
                        "ownerReferences": [{"kind": "ReplicaSet", "name": owner,
                                             "uid": owner, "controller": true}]},
           "status": {"phase": "Running", "containerStatuses": [{
               "name": "web", "state": {"waiting": {
                   "reason": "CrashLoopBackOff",
                   "message": "back-off 10s restarting failed container"}}}]}})
}

/// Issue 55: three identically crash-looping Pods of one ReplicaSet, seen stuck at
/// different moments, were judged apart (one failed, two in progress) and the run ended on
/// one of them. Pods of one owner stuck for the same reason run on one clock, from the first
/// of them: they fail together, and a Pod of another owner keeps its own.
#[test]
fn pods_of_one_owner_stuck_alike_fail_together() {
    let pods = resource();
    let mut judge = Judge::new(rules(&["ready"], &["failed"], For::All), vec![], 1);
    judge.synced(0);
    for (name, owner) in [("a", "rs-1"), ("b", "rs-1"), ("other", "rs-2")] {
        assert_eq!(
            feed_object(&mut judge, &pods, crash_looping(name, owner)),
            None
        );
    }
    // a's own evidence says it has been stuck for 20 s: the cohort's clock starts there.
    let early = SystemTime::now() - Duration::from_secs(20);
    let told = Trouble {
        reason: "CrashLoopBackOff (web): back-off 10s restarting failed container".into(),
        since: early,
    };
    assert_eq!(
        judge.child_trouble(&key(&pods, "a"), "pod/a", Some(told), SystemTime::now()),
        None
    );
    let due = early + Duration::from_secs(30);
    assert_eq!(judge.grace.due(&key(&pods, "a")), Some(due));
    assert_eq!(
        judge.grace.due(&key(&pods, "b")),
        Some(due),
        "b runs on a's clock"
    );
    assert!(
        judge
            .grace
            .due(&key(&pods, "other"))
            .is_some_and(|other| other > due),
        "another owner's Pod keeps its own clock"
    );
    // While the grace runs, each row can say when it falls and why.
    let (at, cause) = judge.pending_failure(&key(&pods, "b")).expect("pending");
    assert_eq!((at, cause.as_str()), (due, "CrashLoopBackOff (web)"));

    assert!(matches!(judge.tick(due), Some(Verdict::FailOn { .. })));
    let states: Vec<(String, State)> = {
        let mut states: Vec<_> = judge
            .findings()
            .judgements()
            .map(|(key, judgement)| (key.name.clone(), judgement.state))
            .collect();
        states.sort_by(|x, y| x.0.cmp(&y.0));
        states
    };
    assert_eq!(
        states,
        [
            ("a".to_string(), State::Failed),
            ("b".to_string(), State::Failed),
            ("other".to_string(), State::InProgress),
        ]
    );
}

/// A Pod watched itself and counted as its Deployment's child has one clock: the two fail at
/// the same moment (the Deployment's row said `in progress` while the run failed on its Pod).
/// The Deployment's row, pending, names the Pod after the reason.
#[test]
fn a_pod_and_its_workload_fail_at_one_moment() {
    let pods = resource();
    let deploys = deployments();
    let mut judge = Judge::new(rules(&["ready"], &["failed"], For::All), vec![], 2);
    judge.synced(0);
    judge.synced(1);
    feed_object(
        &mut judge,
        &deploys,
        deployment("web", 1, "ReplicaSetUpdated"),
    );
    let before = SystemTime::now();
    feed_object(&mut judge, &pods, crash_looping("a", "rs-1"));
    // The causes tell of the Deployment's child later than kw first saw the Pod stuck.
    let later = SystemTime::now() + Duration::from_secs(5);
    let told = Trouble {
        reason: "CrashLoopBackOff (web): back-off 10s restarting failed container".into(),
        since: later,
    };
    assert_eq!(
        judge.child_trouble(&key(&deploys, "web"), "pod/a", Some(told), later),
        None
    );
    let due = judge.grace.due(&key(&pods, "a")).expect("the Pod's grace");
    assert!(due >= before + Duration::from_secs(30) && due < later + Duration::from_secs(30));
    assert_eq!(judge.grace.due(&key(&deploys, "web")), Some(due));
    let (_, cause) = judge
        .pending_failure(&key(&deploys, "web"))
        .expect("pending");
    assert_eq!(cause, "CrashLoopBackOff (web) in pod/a");

    assert!(matches!(judge.tick(due), Some(Verdict::FailOn { .. })));
    assert!(
        judge
            .findings()
            .judgements()
            .all(|(_, judgement)| judgement.state == State::Failed),
        "{:?}",
        judge.findings().not_ready()
    );
}

/// A cohort is the owner and the reason's head: a growing back-off, or a failed pull and its
/// back-off in turn, change nothing; another container or no controller does.
#[test]
fn a_cohort_is_the_owner_and_the_reasons_head() {
    use crate::wait::grace::cohort;
    let pod = crash_looping("a", "rs-1");
    let looping = cohort(&pod, "CrashLoopBackOff (web): back-off 10s restarting");
    assert!(looping.is_some());
    assert_eq!(
        looping,
        cohort(&pod, "CrashLoopBackOff (web): back-off 5m0s restarting")
    );
    assert_ne!(
        looping,
        cohort(&pod, "CrashLoopBackOff (sidecar): back-off 10s")
    );
    assert_eq!(
        cohort(&pod, "ErrImagePull (web): rpc error"),
        cohort(&pod, "ImagePullBackOff (web): Back-off pulling image")
    );
    let own = json!({"metadata": {"name": "bare", "namespace": "ns"}});
    assert_eq!(cohort(&own, "CrashLoopBackOff (web)"), None);
}
