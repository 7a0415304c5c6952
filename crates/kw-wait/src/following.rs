//! Which Pods' logs a wait shows while it waits (`--logs`): the Pods of the current revision of
//! each workload waited on, and the Pods waited on themselves, each with its containers as its
//! status shows them. The cause engine (`cause`) decides which Pods are current (it knows the
//! revisions); this keeps what a log follower needs of each Pod and tells it what changed, never
//! while a lock of the watches is held by the follower (the news is sent, not acted on here).
//!
//! Memory follows what exists: a Pod is forgotten when it is deleted.

use std::collections::HashMap;

use serde::Deserialize;
use serde_json::Value;

/// Which of a Pod's lists a container is in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ContainerKind {
    /// `spec.containers`.
    Regular,
    /// `spec.initContainers`: run to completion before the others.
    Init,
    /// `spec.ephemeralContainers`: added to a running Pod (`kubectl debug`).
    Ephemeral,
}

/// A container of a followed Pod, as the Pod's status shows it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ContainerRun {
    pub name: String,
    pub kind: ContainerKind,
    /// `restartCount`: a new instance writes a new log.
    pub restarts: u64,
    /// It runs now: its log grows.
    pub running: bool,
    /// It has run (now or before): it has a log to read.
    pub started: bool,
    /// It crashed, or is not ready: what `--logs=failed` shows.
    pub troubled: bool,
}

/// A Pod whose logs are followed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FollowedPod {
    pub namespace: String,
    pub name: String,
    /// `pod/web-1`, with its context in a run over several (`east/pod/web-1`).
    pub label: String,
    pub containers: Vec<ContainerRun>,
}

/// What changed among the followed Pods.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PodNews {
    /// Pod `uid` is followed, as it is now.
    Now { uid: String, pod: FollowedPod },
    /// Pod `uid` is no longer followed: deleted, or no longer of the current revision.
    Gone { uid: String },
}

/// Where the news goes (a channel's sender, in the runner).
pub type TellPods = Box<dyn Fn(PodNews) + Send>;

/// The Pods seen, current or not, and what was told of them.
pub struct Following {
    tell: TellPods,
    pods: HashMap<String, Seen>,
}

struct Seen {
    /// Labels and ownerReferences: what tells whether the Pod is current.
    meta: Value,
    pod: FollowedPod,
    /// Whether the follower was told of it (and has not been told it went).
    told: bool,
    /// It changed since it was last told.
    changed: bool,
}

#[derive(Deserialize, Default)]
struct PodShape {
    #[serde(default)]
    metadata: Value,
    #[serde(default)]
    spec: SpecShape,
    #[serde(default)]
    status: StatusShape,
}

#[derive(Deserialize, Default)]
struct SpecShape {
    #[serde(default)]
    containers: Vec<Named>,
    #[serde(default, rename = "initContainers")]
    init_containers: Vec<Named>,
    #[serde(default, rename = "ephemeralContainers")]
    ephemeral_containers: Vec<Named>,
}

#[derive(Deserialize, Default)]
struct Named {
    #[serde(default)]
    name: String,
}

#[derive(Deserialize, Default)]
struct StatusShape {
    #[serde(default, rename = "containerStatuses")]
    container_statuses: Vec<ContainerStatus>,
    #[serde(default, rename = "initContainerStatuses")]
    init_container_statuses: Vec<ContainerStatus>,
    #[serde(default, rename = "ephemeralContainerStatuses")]
    ephemeral_container_statuses: Vec<ContainerStatus>,
}

#[derive(Deserialize, Default)]
struct ContainerStatus {
    #[serde(default)]
    name: String,
    #[serde(default)]
    ready: bool,
    #[serde(default, rename = "restartCount")]
    restart_count: u64,
    #[serde(default)]
    state: Value,
    #[serde(default, rename = "lastState")]
    last_state: Value,
}

impl Following {
    pub fn new(tell: TellPods) -> Following {
        Following {
            tell,
            pods: HashMap::new(),
        }
    }

    /// Pod `uid` (`json`, as the watch sent it) changed: kept, its labels and owners returned
    /// so the caller can say whether it is current (`set_current`).
    pub fn pod(
        &mut self,
        uid: &str,
        namespace: &str,
        name: &str,
        label: &str,
        json: &str,
    ) -> Option<&Value> {
        let shape = serde_json::from_str::<PodShape>(json).ok()?;
        let pod = FollowedPod {
            namespace: namespace.to_string(),
            name: name.to_string(),
            label: label.to_string(),
            containers: containers(&shape),
        };
        let meta = serde_json::json!({
            "metadata": {
                "labels": shape.metadata.get("labels"),
                "ownerReferences": shape.metadata.get("ownerReferences"),
            }
        });
        let seen = self.pods.entry(uid.to_string()).or_insert(Seen {
            meta: Value::Null,
            pod: pod.clone(),
            told: false,
            changed: false,
        });
        seen.changed |= seen.pod != pod;
        seen.meta = meta;
        seen.pod = pod;
        Some(&self.pods.get(uid)?.meta)
    }

    /// Whether Pod `uid` is current now: the follower is told if that, or the Pod, changed.
    pub fn set_current(&mut self, uid: &str, current: bool) {
        let Some(seen) = self.pods.get_mut(uid) else {
            return;
        };
        if current && (!seen.told || seen.changed) {
            seen.told = true;
            seen.changed = false;
            (self.tell)(PodNews::Now {
                uid: uid.to_string(),
                pod: seen.pod.clone(),
            });
        } else if !current && seen.told {
            seen.told = false;
            (self.tell)(PodNews::Gone {
                uid: uid.to_string(),
            });
        }
    }

    /// Pod `uid` was deleted.
    pub fn gone(&mut self, uid: &str) {
        if self.pods.remove(uid).is_some_and(|seen| seen.told) {
            (self.tell)(PodNews::Gone {
                uid: uid.to_string(),
            });
        }
    }

    /// Every Pod seen, with its labels and owners: to say again which are current once a
    /// workload or ReplicaSet changed.
    pub(crate) fn seen(&self) -> Vec<(String, Value)> {
        self.pods
            .iter()
            .map(|(uid, seen)| (uid.clone(), seen.meta.clone()))
            .collect()
    }
}

/// The Pod's containers, each as its status shows it: init containers, then the others, then
/// ephemeral ones (kubectl's `--all-containers` order), each list in its spec's order.
fn containers(shape: &PodShape) -> Vec<ContainerRun> {
    let (spec, status) = (&shape.spec, &shape.status);
    let lists = [
        (
            ContainerKind::Init,
            &spec.init_containers,
            &status.init_container_statuses,
        ),
        (
            ContainerKind::Regular,
            &spec.containers,
            &status.container_statuses,
        ),
        (
            ContainerKind::Ephemeral,
            &spec.ephemeral_containers,
            &status.ephemeral_container_statuses,
        ),
    ];
    lists
        .into_iter()
        .flat_map(|(kind, named, statuses)| {
            named.iter().map(move |container| {
                let status = statuses.iter().find(|s| s.name == container.name);
                run_of(&container.name, kind, status)
            })
        })
        .collect()
}

/// One container as `status` shows it (none yet: not started).
fn run_of(name: &str, kind: ContainerKind, status: Option<&ContainerStatus>) -> ContainerRun {
    let Some(status) = status else {
        return ContainerRun {
            name: name.to_string(),
            kind,
            restarts: 0,
            running: false,
            started: false,
            troubled: false,
        };
    };
    let running = status.state.get("running").is_some();
    let terminated = status.state.get("terminated");
    let crashed = terminated
        .and_then(|t| t.get("exitCode"))
        .and_then(Value::as_i64)
        .is_some_and(|code| code != 0)
        || status.restart_count > 0;
    ContainerRun {
        name: name.to_string(),
        kind,
        restarts: status.restart_count,
        running,
        started: running || terminated.is_some() || status.last_state.get("terminated").is_some(),
        // An init container that finished is not ready, and is fine.
        troubled: crashed || (!status.ready && (kind != ContainerKind::Init || running)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::{Arc, Mutex};

    fn following() -> (Following, Arc<Mutex<Vec<PodNews>>>) {
        let heard = Arc::new(Mutex::new(Vec::new()));
        let kept = Arc::clone(&heard);
        let tell: TellPods = Box::new(move |news| kw_base::mutex::lock(&kept).push(news));
        (Following::new(tell), heard)
    }

    const RUNNING: &str = r#"{"metadata":{"labels":{"app":"web"}},
        "spec":{"containers":[{"name":"app"},{"name":"side"}]},
        "status":{"containerStatuses":[
            {"name":"app","ready":true,"restartCount":0,"state":{"running":{}}},
            {"name":"side","ready":false,"restartCount":2,"state":{"waiting":{"reason":"CrashLoopBackOff"}},
             "lastState":{"terminated":{"exitCode":1}}}]}}"#;

    #[test]
    fn a_current_pod_is_told_once_with_its_containers_then_let_go() {
        let (mut following, heard) = following();
        following.pod("u1", "ns", "web-1", "pod/web-1", RUNNING);
        following.set_current("u1", true);
        following.pod("u1", "ns", "web-1", "pod/web-1", RUNNING);
        following.set_current("u1", true);
        let told = kw_base::mutex::lock(&heard).clone();
        assert_eq!(told.len(), 1, "the same Pod again tells nothing: {told:?}");
        let PodNews::Now { pod, .. } = &told[0] else {
            panic!("{told:?}")
        };
        assert_eq!(
            pod.containers,
            vec![
                ContainerRun {
                    name: "app".into(),
                    kind: ContainerKind::Regular,
                    restarts: 0,
                    running: true,
                    started: true,
                    troubled: false
                },
                ContainerRun {
                    name: "side".into(),
                    kind: ContainerKind::Regular,
                    restarts: 2,
                    running: false,
                    started: true,
                    troubled: true
                },
            ]
        );
        following.gone("u1");
        assert_eq!(
            kw_base::mutex::lock(&heard).last(),
            Some(&PodNews::Gone { uid: "u1".into() })
        );
    }

    #[test]
    fn a_changed_pod_is_told_again_and_one_no_longer_current_goes() {
        let (mut following, heard) = following();
        following.pod("u1", "ns", "web-1", "pod/web-1", RUNNING);
        following.set_current("u1", true);
        let restarted = RUNNING.replace("\"restartCount\":2", "\"restartCount\":3");
        following.pod("u1", "ns", "web-1", "pod/web-1", &restarted);
        following.set_current("u1", true);
        following.set_current("u1", false);
        let told = kw_base::mutex::lock(&heard).clone();
        assert_eq!(told.len(), 3, "{told:?}");
        assert!(matches!(&told[1], PodNews::Now { pod, .. } if pod.containers[1].restarts == 3));
        assert_eq!(told[2], PodNews::Gone { uid: "u1".into() });
    }

    #[test]
    fn init_containers_come_first_and_one_that_finished_is_not_troubled() {
        let pod = r#"{"spec":{"initContainers":[{"name":"setup"}],"containers":[{"name":"app"}],
            "ephemeralContainers":[{"name":"debug"}]},
            "status":{"initContainerStatuses":[{"name":"setup","ready":false,"restartCount":0,
                "state":{"terminated":{"exitCode":0}}}],
              "containerStatuses":[{"name":"app","ready":true,"state":{"running":{}}}]}}"#;
        let shape: PodShape = serde_json::from_str(pod).unwrap();
        let runs: Vec<(String, ContainerKind, bool, bool)> = containers(&shape)
            .into_iter()
            .map(|c| (c.name, c.kind, c.started, c.troubled))
            .collect();
        assert_eq!(
            runs,
            [
                ("setup".into(), ContainerKind::Init, true, false),
                ("app".into(), ContainerKind::Regular, true, false),
                ("debug".into(), ContainerKind::Ephemeral, false, false),
            ]
        );
    }
}
