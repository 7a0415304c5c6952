//! Why a wait is not over yet, told on stderr as it happens: every Warning event about an object
//! the run waits on, or about one it owns (a Deployment's ReplicaSets and their Pods; a
//! StatefulSet's, DaemonSet's or Job's Pods), each once. kubedog does this for Deployments;
//! here it is every kind, through the ownerReferences a control plane writes.
//!
//! It costs auxiliary watches per namespace (Warning Events, and Pods and ReplicaSets where a
//! workload is waited on), added once an object in that namespace is seen, never a request per
//! event. Memory follows what exists: objects, owners and said events are dropped when deleted.
//!
//! The same watches find a workload's children that fail (item 3 of issue 23): a Pod of the
//! workload's current revision stuck in `ImagePullBackOff`, `CrashLoopBackOff`, ... is told to
//! the judge (through `tell`, never while a lock of the watches is held), which fails the
//! workload once the grace has passed. And they keep, bounded, what the summary of a failed
//! wait shows: the last few Warning events per object, and the containers that crashed.
//!
//! The lists arrive in any order (each watch runs on its own): a Pod can come before the
//! ReplicaSet that owns it, and that before its Deployment is known. So what a Pod says (its
//! crashes, its trouble) is kept by the Pod's uid with its owners, whoever they turn out to be,
//! and resolved against what is known when it is asked for; never decided once on arrival.

use std::collections::{HashMap, HashSet, VecDeque};
use std::sync::{Arc, Mutex};
use std::time::SystemTime;

use serde::Deserialize;
use serde_json::Value;

use crate::events::{kind_prefix, Event, ResourceInfo};
use crate::log;
use crate::readiness::children::{self, Crash, Revision};
use crate::wait::summary::WARNINGS_PER_OBJECT;
use crate::wait::{Key, Trouble};
use crate::wire::EventType;

use super::watches::{Consumer, WatchKey, WatchSet};

/// How many Warning events about objects not known yet are kept, waiting for their owner to
/// be seen (the watches run side by side, so a Pod's event can come before the Pod), and how
/// many bytes they may hold in all: a server's events may each be up to the object size limit
/// (64 MiB), and only what is shown of them is kept (`MESSAGE_CHARS`, `FIELD_CHARS`).
const PENDING: usize = 256;
const PENDING_BYTES: usize = 256 << 10;
/// Characters of a Warning's message said and kept; the rest is cut with `…` (as a log line in
/// the summary is).
const MESSAGE_CHARS: usize = 400;
/// Characters kept of an event's other words (reason, the object's kind and name, uids): an
/// API name is at most 253.
const FIELD_CHARS: usize = 253;
/// Objects whose last Warning events are kept for the summary: beyond, those whose newest
/// event is the oldest are forgotten.
const RECENT_OBJECTS: usize = 1024;
/// How far up the owner chain an object is followed (Pod → ReplicaSet → Deployment).
const OWNER_DEPTH: usize = 4;

/// News for the judge: workload `Key`'s child (`pod/web-1`) is stuck, or no longer is.
pub type Tell = Box<dyn Fn(Key, String, Option<Trouble>) + Send>;

/// The Warning events of what a run waits on.
pub struct Causes {
    /// The context, in a run over several: lines name it (`east/pod/web`).
    context: Option<Arc<str>>,
    /// Say each Warning event on stderr as it comes (not with `--quiet`).
    explain: bool,
    /// Tell the judge of stuck children (`--fail-on failed`).
    tell: Option<Tell>,
    /// uid → the workloads waited on that own Pods, and how their current Pods are marked.
    workloads: HashMap<String, Workload>,
    /// uid → (owner uid, revision) of the ReplicaSets seen.
    replica_sets: HashMap<String, (Vec<String>, u64)>,
    /// uid → the Pods stuck now (the few fields `children::is_current` reads), current or not:
    /// a ReplicaSet seen later may make one current.
    stuck: HashMap<String, Stuck>,
    /// uid → the workload a stuck Pod was told against, to tell it when the Pod recovers.
    told: HashMap<String, (Key, String, String)>,
    /// about uid → its last Warning events (sequence number, line).
    recent: HashMap<String, VecDeque<(u64, String)>>,
    sequence: u64,
    /// Pod uid → its crashed containers, for every Pod that has some: its owners may be seen
    /// after it (the summary keeps those of the objects waited on).
    crashed: HashMap<String, CrashedPod>,
    /// uid → label of the objects waited on.
    watched: HashMap<String, String>,
    /// uid → label and owners' uids of objects that may belong to them.
    owned: HashMap<String, Owned>,
    /// Events already said (by uid), until they are deleted.
    said: HashSet<String>,
    /// Warning events about objects not known (yet), and their size in bytes.
    pending: VecDeque<Warning>,
    pending_bytes: usize,
    /// Whether dropping held events was said (once).
    dropped_said: bool,
}

struct Owned {
    label: String,
    owners: Vec<String>,
}

struct Workload {
    key: Key,
    revision: Revision,
}

struct Stuck {
    label: String,
    /// Labels and ownerReferences only.
    pod: Value,
    reason: String,
}

/// A Pod with containers that crashed.
#[derive(Clone)]
pub struct CrashedPod {
    pub namespace: String,
    pub name: String,
    pub label: String,
    pub crashes: Vec<Crash>,
}

/// What the summary takes from the causes.
pub struct Findings {
    /// Label of an object waited on → its last Warning events and those of what it owns.
    pub warnings: HashMap<String, Vec<String>>,
    pub crashed: Vec<CrashedPod>,
}

#[derive(Debug, Clone)]
struct Warning {
    uid: String,
    about_uid: String,
    about: String,
    reason: String,
    message: String,
}

impl Warning {
    /// What it holds, in bytes.
    fn size(&self) -> usize {
        [
            &self.uid,
            &self.about_uid,
            &self.about,
            &self.reason,
            &self.message,
        ]
        .iter()
        .map(|s| s.len())
        .sum::<usize>()
            + std::mem::size_of::<Warning>()
    }
}

/// `text`, at most `chars` characters of it: the rest is cut with `…`.
fn cut(mut text: String, chars: usize) -> String {
    if let Some((at, _)) = text.char_indices().nth(chars) {
        text.truncate(at);
        text.push('…');
        text.shrink_to_fit();
    }
    text
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
    pub fn new(context: Option<Arc<str>>, explain: bool, tell: Option<Tell>) -> Causes {
        Causes {
            context,
            explain,
            tell,
            workloads: HashMap::new(),
            replica_sets: HashMap::new(),
            stuck: HashMap::new(),
            told: HashMap::new(),
            recent: HashMap::new(),
            sequence: 0,
            crashed: HashMap::new(),
            watched: HashMap::new(),
            owned: HashMap::new(),
            said: HashSet::new(),
            pending: VecDeque::new(),
            pending_bytes: 0,
            dropped_said: false,
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
        self.root(uid, depth).is_some()
    }

    /// The object waited on that `uid` is, or that owns it (through up to `OWNER_DEPTH`).
    fn root<'a>(&'a self, uid: &'a str, depth: usize) -> Option<&'a str> {
        if self.watched.contains_key(uid) {
            return Some(uid);
        }
        if depth >= OWNER_DEPTH {
            return None;
        }
        self.owned
            .get(uid)?
            .owners
            .iter()
            .find_map(|owner| self.root(owner, depth + 1))
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
        let line = format!(
            "{about}: Warning {}: {}",
            warning.reason,
            message.trim_end()
        );
        if self.explain {
            log::notice_unscoped(&line);
        }
        self.sequence += 1;
        if self.recent.len() >= RECENT_OBJECTS && !self.recent.contains_key(&warning.about_uid) {
            let stalest = self
                .recent
                .iter()
                .min_by_key(|(_, events)| events.back().map_or(0, |(sequence, _)| *sequence))
                .map(|(uid, _)| uid.clone());
            if let Some(uid) = stalest {
                self.recent.remove(&uid);
            }
        }
        let recent = self.recent.entry(warning.about_uid.clone()).or_default();
        if recent.len() == WARNINGS_PER_OBJECT {
            recent.pop_front();
        }
        recent.push_back((self.sequence, line));
    }

    /// What the summary of a failed wait shows from here.
    pub fn findings(&self) -> Findings {
        let mut by_root: HashMap<&str, Vec<&(u64, String)>> = HashMap::new();
        for (about, recent) in &self.recent {
            if let Some(root) = self.root(about, 0) {
                by_root.entry(root).or_default().extend(recent);
            }
        }
        let warnings = by_root
            .into_iter()
            .filter_map(|(root, mut lines)| {
                lines.sort_by_key(|(sequence, _)| *sequence);
                let newest = lines.len().saturating_sub(WARNINGS_PER_OBJECT);
                let label = self.watched.get(root)?.clone();
                Some((
                    label,
                    lines[newest..].iter().map(|(_, l)| l.clone()).collect(),
                ))
            })
            .collect();
        let mut crashed: Vec<CrashedPod> = self
            .crashed
            .iter()
            .filter(|(uid, _)| self.concerns(uid, 0))
            .map(|(_, pod)| pod.clone())
            .collect();
        crashed.sort_by(|a, b| a.label.cmp(&b.label));
        Findings { warnings, crashed }
    }

    /// The crashed Pods of each Job waited on (under `--fail-on failed`), as the cause a failed
    /// Job's verdict names: (the Job, `pod/x`, `Error (web): exit code 1`), by the Pods' labels.
    /// A Job's Pods that failed are not stuck (they are done), so the judge hears of them only
    /// here, once the verdict is in (`Judge::reword`).
    pub fn crashed_children(&self) -> Vec<(Key, String, String)> {
        let mut found: Vec<(Key, String, String)> = self
            .crashed
            .iter()
            .filter_map(|(uid, pod)| {
                let owners = &self.owned.get(uid)?.owners;
                let workload = self.workloads.get(self.workload_of(owners)?)?;
                if workload.revision != Revision::Every {
                    return None;
                }
                let crash = pod.crashes.first()?;
                let code = crash.exit_code.map_or_else(
                    || "exit code unknown".to_string(),
                    |code| format!("exit code {code}"),
                );
                let reason = format!("{} ({}): {code}", crash.reason, crash.container);
                Some((workload.key.clone(), pod.label.clone(), reason))
            })
            .collect();
        found.sort_by(|a, b| a.1.cmp(&b.1));
        found
    }

    /// The workload (uid) a Pod owned by `owners` belongs to: one that owns it directly
    /// (StatefulSet, DaemonSet, Job), or a Deployment owning its ReplicaSet.
    fn workload_of(&self, owners: &[String]) -> Option<&str> {
        owners.iter().find_map(|owner| {
            if let Some((uid, _)) = self.workloads.get_key_value(owner) {
                return Some(uid.as_str());
            }
            let (rs_owners, _) = self.replica_sets.get(owner)?;
            rs_owners
                .iter()
                .find_map(|o| self.workloads.get_key_value(o))
                .map(|(uid, _)| uid.as_str())
        })
    }

    /// The newest ReplicaSet of Deployment `uid`.
    fn newest_replica_set(&self, uid: &str) -> Option<&str> {
        children::newest_replica_set(
            self.replica_sets
                .iter()
                .filter(|(_, (owners, _))| owners.iter().any(|o| o == uid))
                .map(|(rs, (_, revision))| (rs.as_str(), *revision)),
        )
    }

    /// A Pod changed (`pod`: `None` when deleted): tell the judge if it is a stuck child of the
    /// current revision of a workload waited on, or no longer is.
    fn pod_news(&mut self, uid: &str, label: String, pod: Option<&Value>) {
        match pod.and_then(children::trouble) {
            Some(reason) => {
                let pod = pod.map_or(Value::Null, |p| {
                    serde_json::json!({"metadata": {
                        "labels": p.pointer("/metadata/labels"),
                        "ownerReferences": p.pointer("/metadata/ownerReferences"),
                    }})
                });
                self.stuck
                    .insert(uid.to_string(), Stuck { label, pod, reason });
            }
            None => {
                self.stuck.remove(uid);
            }
        }
        self.judge_child(uid);
    }

    /// Tell the judge where stuck Pod `uid` stands now, if that changed.
    fn judge_child(&mut self, uid: &str) {
        let Some(tell) = &self.tell else {
            return;
        };
        let now_stuck = self.stuck.get(uid).and_then(|stuck| {
            let owners: Vec<String> = stuck
                .pod
                .pointer("/metadata/ownerReferences")
                .and_then(Value::as_array)
                .into_iter()
                .flatten()
                .filter_map(|o| Some(o.get("uid")?.as_str()?.to_string()))
                .collect();
            let workload_uid = self.workload_of(&owners)?;
            let workload = self.workloads.get(workload_uid)?;
            let newest = self.newest_replica_set(workload_uid);
            children::is_current(&workload.revision, &stuck.pod, newest).then(|| {
                (
                    workload.key.clone(),
                    stuck.reason.clone(),
                    stuck.label.clone(),
                )
            })
        });
        let before = self.told.get(uid).cloned();
        match (before, now_stuck) {
            (Some((key, reason, _)), Some((now_key, now_reason, _)))
                if key == now_key && reason == now_reason => {}
            (before, Some((key, reason, label))) => {
                if let Some((old, _, old_label)) = before.filter(|(old, ..)| *old != key) {
                    tell(old, old_label, None);
                }
                self.told.insert(
                    uid.to_string(),
                    (key.clone(), reason.clone(), label.clone()),
                );
                let since = SystemTime::now();
                tell(key, label, Some(Trouble { reason, since }));
            }
            (Some((key, _, label)), None) => {
                self.told.remove(uid);
                tell(key, label, None);
            }
            (None, None) => {}
        }
    }

    /// A workload or ReplicaSet changed: the stuck Pods may have changed revision.
    fn judge_stuck_again(&mut self) {
        if self.tell.is_none() {
            return;
        }
        let stuck: Vec<String> = self.stuck.keys().chain(self.told.keys()).cloned().collect();
        for uid in stuck {
            self.judge_child(&uid);
        }
    }

    /// Say the pending warnings that concern what is known now.
    fn say_pending(&mut self) {
        if self.pending.is_empty() {
            return;
        }
        let pending = std::mem::take(&mut self.pending);
        self.pending_bytes = 0;
        for warning in pending {
            if self.concerns(&warning.about_uid, 0) {
                self.say(&warning);
            } else {
                self.pending_bytes += warning.size();
                self.pending.push_back(warning);
            }
        }
    }

    /// Hold `warning` until its object is seen; the oldest held go when there are too many,
    /// or too many bytes of them, and that is said once.
    fn hold(&mut self, warning: Warning) {
        let size = warning.size();
        let mut dropped = false;
        while !self.pending.is_empty()
            && (self.pending.len() >= PENDING || self.pending_bytes + size > PENDING_BYTES)
        {
            if let Some(old) = self.pending.pop_front() {
                self.pending_bytes -= old.size();
                dropped = true;
            }
        }
        self.pending_bytes += size;
        self.pending.push_back(warning);
        if dropped && !self.dropped_said {
            self.dropped_said = true;
            log::notice(&format!(
                "more Warning events about objects not seen yet than kw holds ({PENDING}, {} KiB): the oldest are dropped, unsaid",
                PENDING_BYTES >> 10
            ));
        }
    }

    fn warning_event(&mut self, kind: EventType, event: CoreEvent) {
        let uid = cut(event.metadata.uid, FIELD_CHARS);
        if kind == EventType::Deleted {
            self.said.remove(&uid);
            let before = self.pending.len();
            self.pending.retain(|w| w.uid != uid);
            if self.pending.len() != before {
                self.pending_bytes = self.pending.iter().map(Warning::size).sum();
            }
            return;
        }
        if event.kind != "Warning" || self.said.contains(&uid) {
            return;
        }
        let warning = Warning {
            uid,
            about_uid: cut(event.involved.uid, FIELD_CHARS),
            about: format!(
                "{}/{}",
                kind_prefix(&cut(event.involved.kind, FIELD_CHARS), ""),
                cut(event.involved.name, FIELD_CHARS)
            ),
            reason: cut(event.reason, FIELD_CHARS),
            message: cut(event.message, MESSAGE_CHARS),
        };
        if self.concerns(&warning.about_uid, 0) {
            self.say(&warning);
        } else {
            self.hold(warning);
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

/// Whether a Pod's JSON may tell of trouble or a crash: most Pods of a busy namespace do not,
/// and are not parsed further.
fn may_be_troubled(json: &str) -> bool {
    [
        "BackOff",
        "ErrImagePull",
        "InvalidImageName",
        "ConfigError",
        "Unschedulable",
        "exitCode",
    ]
    .iter()
    .any(|word| json.contains(word))
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
            if self.workloads.remove(&uid).is_some() {
                self.judge_stuck_again();
            }
            return;
        }
        let label = self.label(format!(
            "{}/{}",
            kind_prefix(&event.resource.kind, &event.resource.group),
            event.name
        ));
        self.watched.insert(uid.clone(), label);
        let owns_pods = owns_pods(event.resource);
        if self.tell.is_some() && owns_pods {
            let revision = serde_json::from_str::<Value>(event.object.get())
                .ok()
                .and_then(|o| {
                    children::current_revision(&event.resource.group, &event.resource.kind, &o)
                });
            let changed = match revision {
                Some(revision) => {
                    let key = Key::of(event);
                    let before = self.workloads.insert(
                        uid,
                        Workload {
                            key,
                            revision: revision.clone(),
                        },
                    );
                    before.is_none_or(|b| b.revision != revision)
                }
                None => self.workloads.remove(&uid).is_some(),
            };
            if changed {
                self.judge_stuck_again();
            }
        }
        if !event.namespace.is_empty() {
            if self.explain {
                watches.add(
                    core("events", "Event"),
                    event.namespace,
                    Some("type=Warning"),
                );
            }
            if owns_pods {
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
        let is_pod = watch.resource == "pods";
        let is_replica_set = watch.resource == "replicasets.apps";
        let label = self.label(format!(
            "{}/{}",
            kind_prefix(&event.resource.kind, &event.resource.group),
            meta.metadata.name
        ));
        if event.kind == EventType::Deleted {
            self.owned.remove(&uid);
            self.recent.remove(&uid);
            if is_pod {
                self.crashed.remove(&uid);
                self.pod_news(&uid, label, None);
            }
            if is_replica_set && self.replica_sets.remove(&uid).is_some() {
                self.judge_stuck_again();
            }
            return;
        }
        let owners: Vec<String> = meta
            .metadata
            .owner_references
            .into_iter()
            .map(|o| o.uid)
            .collect();
        if is_replica_set && self.tell.is_some() {
            let revision = serde_json::from_str::<Value>(event.object.get())
                .ok()
                .and_then(|rs| children::replica_set_revision(&rs));
            // One without the annotation (not written by a Deployment controller, or not yet)
            // still owns its Pods: the oldest revision, so a marked one stays the newest.
            let entry = (owners.clone(), revision.unwrap_or(0));
            if self.replica_sets.insert(uid.clone(), entry.clone()) != Some(entry) {
                self.judge_stuck_again();
            }
        }
        self.owned.insert(
            uid.clone(),
            Owned {
                label: label.clone(),
                owners,
            },
        );
        if is_pod {
            let json = event.object.get();
            let pod = may_be_troubled(json)
                .then(|| serde_json::from_str::<Value>(json).ok())
                .flatten();
            let crashes = pod.as_ref().map(children::crashes).unwrap_or_default();
            if crashes.is_empty() {
                self.crashed.remove(&uid);
            } else {
                self.crashed.insert(
                    uid.clone(),
                    CrashedPod {
                        namespace: event.namespace.to_string(),
                        name: meta.metadata.name.clone(),
                        label: label.clone(),
                        crashes,
                    },
                );
            }
            self.pod_news(&uid, label, pod.as_ref());
        }
        self.say_pending();
    }
}

/// The causes of one member, shared between its watches (the consumer) and the runner (which
/// reads the evidence for the summary at the end).
pub struct SharedCauses(pub Arc<Mutex<Causes>>);

impl SharedCauses {
    fn causes(&self) -> std::sync::MutexGuard<'_, Causes> {
        crate::log::lock(&self.0)
    }
}

impl Consumer for SharedCauses {
    fn primary(&mut self, event: &Event<'_>, watches: &Arc<WatchSet>) {
        self.causes().primary(event, watches);
    }

    fn event(&mut self, watch: &WatchKey, event: &Event<'_>, watches: &Arc<WatchSet>) {
        self.causes().event(watch, event, watches);
    }
}
