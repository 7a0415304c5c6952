//! Why a wait is not over yet, told on stderr as it happens: every Warning event about an object
//! the run waits on, or about one it owns (a Deployment's ReplicaSets and their Pods; a
//! StatefulSet's, DaemonSet's or Job's Pods), each once. kubedog does this for Deployments;
//! here it is every kind, through the ownerReferences a control plane writes.
//!
//! It costs auxiliary watches per namespace (Warning Events, and Pods and ReplicaSets where a
//! workload is waited on), added once an object in that namespace is seen, never a request per
//! event. Memory follows what exists: objects, owners and said events are dropped when deleted.

use std::collections::{HashMap, HashSet, VecDeque};
use std::sync::Arc;

use serde::Deserialize;

use crate::events::{Event, ResourceInfo};
use crate::log;
use crate::sinks::kind_prefix;
use crate::wire::EventType;

use super::watches::{Consumer, WatchKey, WatchSet};

/// How many Warning events about objects not known yet are kept, waiting for their owner to
/// be seen (the watches run side by side, so a Pod's event can come before the Pod).
const PENDING: usize = 256;
/// How far up the owner chain an object is followed (Pod → ReplicaSet → Deployment).
const OWNER_DEPTH: usize = 4;

/// The Warning events of what a run waits on.
pub struct Causes {
    /// The context, in a run over several: lines name it (`east/pod/web`).
    context: Option<Arc<str>>,
    /// uid → label of the objects waited on.
    watched: HashMap<String, String>,
    /// uid → label and owners' uids of objects that may belong to them.
    owned: HashMap<String, Owned>,
    /// Events already said (by uid), until they are deleted.
    said: HashSet<String>,
    /// Warning events about objects not known (yet).
    pending: VecDeque<Warning>,
}

struct Owned {
    label: String,
    owners: Vec<String>,
}

#[derive(Debug, Clone)]
struct Warning {
    uid: String,
    about_uid: String,
    about: String,
    reason: String,
    message: String,
}

#[derive(Deserialize)]
struct Meta {
    #[serde(default)]
    metadata: Metadata,
}

#[derive(Deserialize, Default)]
struct Metadata {
    #[serde(default)]
    uid: String,
    #[serde(default)]
    name: String,
    #[serde(default, rename = "ownerReferences")]
    owner_references: Vec<OwnerReference>,
}

#[derive(Deserialize)]
struct OwnerReference {
    #[serde(default)]
    uid: String,
}

#[derive(Deserialize)]
struct CoreEvent {
    #[serde(default)]
    metadata: Metadata,
    #[serde(default, rename = "type")]
    kind: String,
    #[serde(default)]
    reason: String,
    #[serde(default)]
    message: String,
    #[serde(default, rename = "involvedObject")]
    involved: Involved,
}

#[derive(Deserialize, Default)]
struct Involved {
    #[serde(default)]
    kind: String,
    #[serde(default)]
    name: String,
    #[serde(default)]
    uid: String,
}

impl Causes {
    pub fn new(context: Option<Arc<str>>) -> Causes {
        Causes {
            context,
            watched: HashMap::new(),
            owned: HashMap::new(),
            said: HashSet::new(),
            pending: VecDeque::new(),
        }
    }

    fn label(&self, kind_and_name: String) -> String {
        match &self.context {
            Some(context) => format!("{context}/{kind_and_name}"),
            None => kind_and_name,
        }
    }

    /// Whether `uid` is waited on, or owned (through up to `OWNER_DEPTH` owners) by one that is.
    fn concerns(&self, uid: &str, depth: usize) -> bool {
        if self.watched.contains_key(uid) {
            return true;
        }
        depth < OWNER_DEPTH
            && self.owned.get(uid).is_some_and(|owned| {
                owned
                    .owners
                    .iter()
                    .any(|owner| self.concerns(owner, depth + 1))
            })
    }

    fn say(&mut self, warning: &Warning) {
        if !self.said.insert(warning.uid.clone()) {
            return;
        }
        let about = self
            .owned
            .get(&warning.about_uid)
            .map(|o| o.label.clone())
            .or_else(|| self.watched.get(&warning.about_uid).cloned())
            .unwrap_or_else(|| self.label(warning.about.clone()));
        // One line per event, whatever the message holds.
        let message = warning.message.replace(['\n', '\r'], " ");
        log::notice_unscoped(&format!(
            "{about}: Warning {}: {}",
            warning.reason,
            message.trim_end()
        ));
    }

    /// Say the pending warnings that concern what is known now.
    fn say_pending(&mut self) {
        let pending = std::mem::take(&mut self.pending);
        for warning in pending {
            if self.concerns(&warning.about_uid, 0) {
                self.say(&warning);
            } else {
                self.pending.push_back(warning);
            }
        }
    }

    fn warning_event(&mut self, kind: EventType, event: CoreEvent) {
        let uid = event.metadata.uid;
        if kind == EventType::Deleted {
            self.said.remove(&uid);
            self.pending.retain(|w| w.uid != uid);
            return;
        }
        if event.kind != "Warning" || self.said.contains(&uid) {
            return;
        }
        let warning = Warning {
            uid,
            about_uid: event.involved.uid,
            about: format!(
                "{}/{}",
                event.involved.kind.to_ascii_lowercase(),
                event.involved.name
            ),
            reason: event.reason,
            message: event.message,
        };
        if self.concerns(&warning.about_uid, 0) {
            self.say(&warning);
        } else {
            if self.pending.len() == PENDING {
                self.pending.pop_front();
            }
            self.pending.push_back(warning);
        }
    }
}

/// Whether objects of `resource` own Pods (through ReplicaSets for Deployments).
fn owns_pods(resource: &ResourceInfo) -> bool {
    matches!(
        (resource.group.as_str(), resource.plural.as_str()),
        (
            "apps",
            "deployments" | "statefulsets" | "daemonsets" | "replicasets"
        ) | ("batch", "jobs" | "cronjobs")
    )
}

fn core(plural: &str, kind: &str) -> ResourceInfo {
    ResourceInfo {
        plural: plural.into(),
        singular: kind.to_ascii_lowercase(),
        kind: kind.into(),
        group: String::new(),
        version: "v1".into(),
        namespaced: true,
    }
}

fn replica_sets() -> ResourceInfo {
    ResourceInfo {
        group: "apps".into(),
        ..core("replicasets", "ReplicaSet")
    }
}

impl Consumer for Causes {
    fn primary(&mut self, event: &Event<'_>, watches: &Arc<WatchSet>) {
        let Ok(meta) = serde_json::from_str::<Meta>(event.object.get()) else {
            return;
        };
        let uid = meta.metadata.uid;
        if uid.is_empty() {
            return;
        }
        if event.kind == EventType::Deleted {
            self.watched.remove(&uid);
            return;
        }
        let label = self.label(format!("{}/{}", kind_prefix(event.resource), event.name));
        self.watched.insert(uid, label);
        if !event.namespace.is_empty() {
            watches.add(
                core("events", "Event"),
                event.namespace,
                Some("type=Warning"),
            );
            if owns_pods(event.resource) {
                watches.add(core("pods", "Pod"), event.namespace, None);
                if event.resource.plural == "deployments" {
                    watches.add(replica_sets(), event.namespace, None);
                }
            }
        }
        self.say_pending();
    }

    fn event(&mut self, watch: &WatchKey, event: &Event<'_>, _watches: &Arc<WatchSet>) {
        if watch.resource == "events" {
            if let Ok(core_event) = serde_json::from_str::<CoreEvent>(event.object.get()) {
                self.warning_event(event.kind, core_event);
            }
            return;
        }
        let Ok(meta) = serde_json::from_str::<Meta>(event.object.get()) else {
            return;
        };
        let uid = meta.metadata.uid;
        if event.kind == EventType::Deleted {
            self.owned.remove(&uid);
            return;
        }
        let label = self.label(format!(
            "{}/{}",
            kind_prefix(event.resource),
            meta.metadata.name
        ));
        let owners = meta
            .metadata
            .owner_references
            .into_iter()
            .map(|o| o.uid)
            .collect();
        self.owned.insert(uid, Owned { label, owners });
        self.say_pending();
    }
}
