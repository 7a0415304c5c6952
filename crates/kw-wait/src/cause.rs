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

use crate::following::Following;
use crate::recovery::{Recovery, AUTOSCALER};
use crate::wait::grouped::{SaidBy, StuckPod};
use crate::wait::summary::WARNINGS_PER_OBJECT;
use crate::wait::{Key, Trouble};
use kw_base::notices;
use kw_client::client::ServerClock;
use kw_events::events::{kind_prefix, Event, ResourceInfo};
use kw_events::readiness::children::{self, Crash, Revision};
use kw_events::readiness::kubelet_text;
use kw_wire::EventType;

use kw_watcher::auxiliary::{Consumer, WatchKey, WatchSet};

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
    /// Keep the Warning events for the summary, said or not (`rollout status` says none as
    /// they come, as kubectl; its summary still tells them).
    gather: bool,
    /// The server's clock: the times its objects and events hold are read on it.
    clock: Arc<ServerClock>,
    /// uid → a Pod waited on itself that is stuck: its key and label, why, and the start its
    /// status shows (server's clock).
    own_stuck: HashMap<String, OwnStuck>,
    /// Tell the judge of stuck children (`--fail-on failed`).
    tell: Option<Tell>,
    /// What the Pods and the cluster say of a stuck Pod's recovery: such a Pod is not told
    /// stuck (`recovery`).
    recovery: Recovery,
    /// uid → the workloads waited on that own Pods, and how their current Pods are marked.
    workloads: HashMap<String, Workload>,
    /// uid → (owner uid, revision) of the ReplicaSets seen.
    replica_sets: HashMap<String, (Vec<String>, u64)>,
    /// uid → the Pods stuck now (the few fields `children::is_current` reads), current or not:
    /// a ReplicaSet seen later may make one current.
    stuck: HashMap<String, Stuck>,
    /// uid → the workload a stuck Pod was told against (with the reason and since when), to
    /// tell it when the Pod recovers, or when an earlier start of its trouble comes to light.
    told: HashMap<String, Told>,
    /// uid → the first moment a Warning event about it says it happened (its
    /// `firstTimestamp`): a crash loop's first back-off, an image's first failed pull.
    first_warning: HashMap<String, SystemTime>,
    /// about uid → its last Warning events, each message once.
    recent: HashMap<String, VecDeque<Recent>>,
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
    /// Owner uid (a ReplicaSet, a Job; the object itself when it has none) → the Warning
    /// messages said on stderr of what it owns: Pods of one revision that say the same thing
    /// say it once.
    said_by_owner: HashMap<String, Vec<String>>,
    /// Warning events about objects not known (yet), and their size in bytes.
    pending: VecDeque<Warning>,
    pending_bytes: usize,
    /// Whether dropping held events was said (once).
    dropped_said: bool,
    /// The current Pods whose logs are shown while the run waits (`--logs`).
    following: Option<Following>,
}

/// A Warning event kept for the summary.
#[derive(Clone)]
struct Recent {
    sequence: u64,
    /// When it first happened, as the event says (the server's clock).
    at: Option<SystemTime>,
    /// `pod/web-1`.
    about: String,
    /// `Warning Failed: Failed to pull image "x": ...`.
    said: String,
}

/// Warning events kept per object: more than the summary shows, so that the kubelet's short
/// restatements (`Error: ErrImagePull`) coming after the message that says why do not push it
/// out.
const KEPT_PER_OBJECT: usize = 2 * WARNINGS_PER_OBJECT;

struct OwnStuck {
    key: Key,
    label: String,
    reason: String,
    since: Option<SystemTime>,
}

#[derive(Clone)]
struct Told {
    workload: Key,
    reason: String,
    label: String,
    since: SystemTime,
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
    /// When the trouble began, as the Pod's status shows it.
    since: Option<SystemTime>,
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
    /// Label of an object waited on → its last Warning events and those of what it owns, each
    /// message once with the objects that said it.
    pub warnings: HashMap<String, Vec<SaidBy>>,
    /// Label of an object waited on → its Pods stuck now, and why.
    pub stuck: HashMap<String, Vec<StuckPod>>,
    pub crashed: Vec<CrashedPod>,
}

#[derive(Debug, Clone)]
struct Warning {
    /// When it first happened, if the event says.
    first: Option<SystemTime>,
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
    /// When the event (aggregated: `count` of them) first happened.
    #[serde(default, rename = "firstTimestamp")]
    first_timestamp: Option<String>,
    #[serde(default, rename = "eventTime")]
    event_time: Option<String>,
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
    pub fn new(
        context: Option<Arc<str>>,
        explain: bool,
        gather: bool,
        clock: Arc<ServerClock>,
        tell: Option<Tell>,
    ) -> Causes {
        Causes {
            context,
            explain,
            gather,
            clock,
            own_stuck: HashMap::new(),
            tell,
            recovery: Recovery::default(),
            workloads: HashMap::new(),
            replica_sets: HashMap::new(),
            stuck: HashMap::new(),
            told: HashMap::new(),
            first_warning: HashMap::new(),
            recent: HashMap::new(),
            sequence: 0,
            crashed: HashMap::new(),
            watched: HashMap::new(),
            owned: HashMap::new(),
            said: HashSet::new(),
            said_by_owner: HashMap::new(),
            pending: VecDeque::new(),
            pending_bytes: 0,
            dropped_said: false,
            following: None,
        }
    }

    /// Tell `following` of the current Pods, as they change (`--logs`).
    pub fn following(mut self, following: Following) -> Causes {
        self.following = Some(following);
        self
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
        let said = format!("Warning {}: {}", warning.reason, message.trim_end());
        if let Some(first) = warning.first {
            let earliest = self
                .first_warning
                .entry(warning.about_uid.clone())
                .or_insert(first);
            if first < *earliest {
                *earliest = first;
            }
            // A Pod told stuck may have been stuck since before kw saw it.
            if self.told.contains_key(&warning.about_uid) {
                self.judge_child(&warning.about_uid.clone());
            }
            self.tell_own(&warning.about_uid.clone());
        }
        if self.explain && self.is_news(&warning.about_uid, &said) {
            notices::notice_unscoped(&format!("{about}: {said}"));
        }
        self.sequence += 1;
        if self.recent.len() >= RECENT_OBJECTS && !self.recent.contains_key(&warning.about_uid) {
            let stalest = self
                .recent
                .iter()
                .min_by_key(|(_, events)| events.back().map_or(0, |r| r.sequence))
                .map(|(uid, _)| uid.clone());
            if let Some(uid) = stalest {
                self.recent.remove(&uid);
            }
        }
        let recent = self.recent.entry(warning.about_uid.clone()).or_default();
        recent.retain(|r| r.said != said);
        if recent.len() == KEPT_PER_OBJECT {
            recent.pop_front();
        }
        recent.push_back(Recent {
            sequence: self.sequence,
            at: warning.first,
            about,
            said,
        });
    }

    /// Whether a Warning (`said`) about `about_uid` is news on stderr: not when another object
    /// of the same owner (a Pod of the same ReplicaSet or Job) said it already, nor when it
    /// restates a state (`Error: ImagePullBackOff`) after a message of that owner said why.
    fn is_news(&mut self, about_uid: &str, said: &str) -> bool {
        let owner = self
            .owned
            .get(about_uid)
            .and_then(|owned| owned.owners.first())
            .map_or(about_uid, String::as_str)
            .to_string();
        if self.said_by_owner.len() >= RECENT_OBJECTS && !self.said_by_owner.contains_key(&owner) {
            self.said_by_owner.clear();
        }
        let messages = self.said_by_owner.entry(owner).or_default();
        if messages.iter().any(|m| m == said)
            || (restates(said) && messages.iter().any(|m| !restates(m)))
        {
            return false;
        }
        if messages.len() < KEPT_PER_OBJECT * 4 {
            messages.push(said.to_string());
        }
        true
    }

    /// What the summary of a failed wait shows from here.
    pub fn findings(&self) -> Findings {
        let mut by_root: HashMap<&str, Vec<&Recent>> = HashMap::new();
        for (about, recent) in &self.recent {
            if let Some(root) = self.root(about, 0) {
                by_root.entry(root).or_default().extend(recent);
            }
        }
        let warnings = by_root
            .into_iter()
            .filter_map(|(root, events)| {
                let label = self.watched.get(root)?.clone();
                Some((label, telling(events)))
            })
            .collect();
        let mut stuck: HashMap<String, Vec<StuckPod>> = HashMap::new();
        for (uid, pod) in &self.stuck {
            // A Pod waited on itself says its own state on its own line; a workload's count
            // when of its current revision.
            if self.current_workload(pod).is_none() {
                continue;
            }
            let root = self.root(uid, 0).filter(|root| *root != uid);
            if let Some(label) = root.and_then(|root| self.watched.get(root)) {
                stuck.entry(label.clone()).or_default().push(StuckPod {
                    pod: pod.label.clone(),
                    reason: pod.reason.clone(),
                });
            }
        }
        let mut crashed: Vec<CrashedPod> = self
            .crashed
            .iter()
            .filter(|(uid, _)| self.concerns(uid, 0))
            .map(|(_, pod)| pod.clone())
            .collect();
        crashed.sort_by(|a, b| a.label.cmp(&b.label));
        Findings {
            warnings,
            stuck,
            crashed,
        }
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
        match pod {
            Some(pod) => {
                self.recovery.pod(uid, pod);
            }
            None => self.recovery.forget(uid),
        }
        match pod.and_then(children::trouble) {
            Some(reason) => {
                let since = pod.and_then(children::trouble_since);
                let pod = pod.map_or(Value::Null, |p| {
                    serde_json::json!({"metadata": {
                        "labels": p.pointer("/metadata/labels"),
                        "ownerReferences": p.pointer("/metadata/ownerReferences"),
                    }})
                });
                self.stuck.insert(
                    uid.to_string(),
                    Stuck {
                        label,
                        pod,
                        reason,
                        since,
                    },
                );
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
        let now = SystemTime::now();
        let now_stuck = self.stuck.get(uid).and_then(|stuck| {
            if self.recovery.recovering(uid, &stuck.reason, now).is_some() {
                return None;
            }
            let workload = self.current_workload(stuck)?;
            let since = self
                .evidence_since(stuck.since, uid)
                .map_or(now, |t| t.min(now));
            Some(Told {
                workload: workload.key.clone(),
                reason: stuck.reason.clone(),
                label: stuck.label.clone(),
                since,
            })
        });
        let before = self.told.get(uid).cloned();
        match (before, now_stuck) {
            (Some(before), Some(now))
                if before.workload == now.workload
                    && before.reason == now.reason
                    && before.since <= now.since => {}
            (before, Some(now)) => {
                if let Some(old) = before.filter(|old| old.workload != now.workload) {
                    tell(old.workload, old.label, None);
                }
                self.told.insert(uid.to_string(), now.clone());
                let trouble = Trouble {
                    reason: now.reason,
                    since: now.since,
                };
                tell(now.workload, now.label, Some(trouble));
            }
            (Some(before), None) => {
                self.told.remove(uid);
                tell(before.workload, before.label, None);
            }
            (None, None) => {}
        }
    }

    /// The workload waited on whose current revision `stuck` belongs to: old-revision Pods
    /// being replaced never count.
    fn current_workload(&self, stuck: &Stuck) -> Option<&Workload> {
        self.current_workload_of(&stuck.pod)
    }

    /// The workload waited on whose current revision the Pod of `meta` (its labels and
    /// ownerReferences) belongs to.
    fn current_workload_of(&self, meta: &Value) -> Option<&Workload> {
        let owners: Vec<String> = meta
            .pointer("/metadata/ownerReferences")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
            .filter_map(|o| Some(o.get("uid")?.as_str()?.to_string()))
            .collect();
        let workload_uid = self.workload_of(&owners)?;
        let workload = self.workloads.get(workload_uid)?;
        let newest = self.newest_replica_set(workload_uid);
        children::is_current(&workload.revision, meta, newest).then_some(workload)
    }

    /// When the trouble of `uid` began by its evidence, on kw's clock: the earliest of what its
    /// status shows (`status_since`) and its first Warning event, both written on the server's
    /// clock; `None` while that clock is unknown.
    fn evidence_since(&self, status_since: Option<SystemTime>, uid: &str) -> Option<SystemTime> {
        [status_since, self.first_warning.get(uid).copied()]
            .into_iter()
            .flatten()
            .min()
            .and_then(|at| self.clock.to_local(at))
    }

    /// A Pod waited on itself changed: keep whether it is stuck (the judge decides that from
    /// the same event; here only its evidence of when it began is kept and told).
    fn own_news(&mut self, uid: &str, key: Key, label: &str, pod: Option<&Value>) {
        if self.tell.is_none() {
            return;
        }
        let reason = pod
            .and_then(children::trouble)
            .filter(|reason| !reason.starts_with("Unschedulable"));
        match reason {
            None => {
                self.own_stuck.remove(uid);
            }
            Some(reason) => {
                let since = pod.and_then(children::trouble_since);
                self.own_stuck.insert(
                    uid.to_string(),
                    OwnStuck {
                        key,
                        label: label.to_string(),
                        reason,
                        since,
                    },
                );
                self.tell_own(uid);
            }
        }
    }

    /// Tell the judge the start of a watched Pod's trouble as its evidence shows it: on each of
    /// its events, since the judge may hear this before it has judged the event that made the
    /// Pod stuck (it keeps the earliest start, and ignores a Pod it does not see stuck).
    fn tell_own(&self, uid: &str) {
        let (Some(tell), Some(own)) = (&self.tell, self.own_stuck.get(uid)) else {
            return;
        };
        let Some(since) = self.evidence_since(own.since, uid) else {
            return;
        };
        let trouble = Trouble {
            reason: own.reason.clone(),
            since: since.min(SystemTime::now()),
        };
        tell(own.key.clone(), own.label.clone(), Some(trouble));
    }

    /// A workload or ReplicaSet changed: the stuck Pods may have changed revision.
    fn judge_stuck_again(&mut self) {
        self.follow_again();
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
            notices::notice(&format!(
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
        let about_uid = cut(event.involved.uid.clone(), FIELD_CHARS);
        if self
            .recovery
            .event(&about_uid, &event.reason, &event.message, SystemTime::now())
        {
            self.judge_child(&about_uid);
        }
        if event.kind != "Warning" || self.said.contains(&uid) {
            return;
        }
        let first = [event.first_timestamp, event.event_time]
            .into_iter()
            .flatten()
            .filter_map(|at| humantime::parse_rfc3339_weak(&cut(at, FIELD_CHARS)).ok())
            .min()
            // Whole seconds: the end of the second, so the grace is never cut short.
            .map(|at| at + std::time::Duration::from_secs(1));
        let warning = Warning {
            first,
            uid,
            about_uid,
            about: format!(
                "{}/{}",
                kind_prefix(&cut(event.involved.kind, FIELD_CHARS), ""),
                cut(event.involved.name, FIELD_CHARS)
            ),
            reason: cut(event.reason, FIELD_CHARS),
            message: kubelet_text(&cut(event.message, MESSAGE_CHARS)),
        };
        if self.concerns(&warning.about_uid, 0) {
            self.say(&warning);
        } else {
            self.hold(warning);
        }
    }
}

/// The Warning events the summary shows for one object (and what it owns): each message once,
/// with every object that said it, without the kubelet's restatements of a state (`Error:
/// ImagePullBackOff`) when one says why, the newest `WARNINGS_PER_OBJECT`, in the order they
/// first happened.
fn telling(events: Vec<&Recent>) -> Vec<SaidBy> {
    // When an event happened: by its own time (events listed come in the server's order, not
    // the order they happened in), then as kw heard of it.
    type When = (bool, Option<SystemTime>, u64);
    // The newest sequence of a message, and the objects that said it, each once, by their
    // first time.
    type Heard<'a> = (u64, Vec<(When, &'a str)>);
    let when = |event: &Recent| (event.at.is_none(), event.at, event.sequence);
    let mut by_message: HashMap<&str, Heard> = HashMap::new();
    for event in events {
        let entry = by_message.entry(&event.said).or_insert((0, Vec::new()));
        entry.0 = entry.0.max(event.sequence);
        match entry.1.iter_mut().find(|(_, about)| *about == event.about) {
            Some((first, _)) => *first = (*first).min(when(event)),
            None => entry.1.push((when(event), &event.about)),
        }
    }
    let mut ranked: Vec<(&str, Heard)> = by_message.into_iter().collect();
    // A restatement says nothing the summary's judgement does not, once a message says why.
    if ranked.iter().any(|(said, _)| !restates(said)) {
        ranked.retain(|(said, _)| !restates(said));
    }
    ranked.sort_by_key(|(_, (sequence, _))| std::cmp::Reverse(*sequence));
    ranked.truncate(WARNINGS_PER_OBJECT);
    // In time order: the oldest first, as they happened.
    ranked.sort_by_key(|(_, (_, by))| by.iter().map(|(first, _)| *first).min());
    ranked
        .into_iter()
        .map(|(said, (_, mut by))| {
            by.sort();
            SaidBy {
                by: by.into_iter().map(|(_, about)| about.to_string()).collect(),
                said: said.to_string(),
            }
        })
        .collect()
}

/// Whether a Warning (`Warning Failed: Error: ImagePullBackOff`) only restates a state, the
/// kubelet's words for what a message before it said why.
fn restates(said: &str) -> bool {
    said.split_once(": ")
        .and_then(|(_, message)| message.strip_prefix("Error: "))
        .is_some_and(|state| !state.contains(' '))
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
        let is_pod = event.resource.group.is_empty() && event.resource.plural == "pods";
        if event.kind == EventType::Deleted {
            if let Some(following) = &mut self.following {
                following.gone(&uid);
            }
            self.watched.remove(&uid);
            self.crashed.remove(&uid);
            self.own_stuck.remove(&uid);
            self.first_warning.remove(&uid);
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
        // A Pod waited on itself: its crashed containers are the summary's, as a workload's
        // Pods' are.
        if is_pod {
            let pod = self.note_crashes(&uid, event, event.name, &label);
            self.own_news(&uid, Key::of(event), &label, pod.as_ref());
            if let Some(following) = &mut self.following {
                // Waited on itself: followed whatever owns it.
                following.pod(
                    &uid,
                    event.namespace,
                    event.name,
                    &label,
                    event.object.get(),
                );
                following.set_current(&uid, true);
            }
        }
        self.watched.insert(uid.clone(), label);
        let owns_pods = owns_pods(event.resource);
        // Revisions tell which stuck Pods count: for the judge, and for the summary.
        if (self.tell.is_some() || self.gather || self.following.is_some()) && owns_pods {
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
            if self.explain || self.gather {
                watches.add(
                    core("events", "Event"),
                    event.namespace,
                    Some("type=Warning"),
                );
            }
            if owns_pods {
                watches.add(core("pods", "Pod"), event.namespace, None);
                if self.tell.is_some() {
                    // The autoscaler's words are Normal events: a scale-up under way is
                    // progress (`recovery`).
                    let source = format!("source={AUTOSCALER}");
                    watches.add(core("events", "Event"), event.namespace, Some(&source));
                }
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
            self.first_warning.remove(&uid);
            if is_pod {
                self.crashed.remove(&uid);
                self.pod_news(&uid, label, None);
                if let Some(following) = &mut self.following {
                    following.gone(&uid);
                }
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
        if is_replica_set && (self.tell.is_some() || self.gather || self.following.is_some()) {
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
            let pod = self.note_crashes(&uid, event, &meta.metadata.name, &label);
            self.follow_pod(&uid, event, &meta.metadata.name, &label);
            self.pod_news(&uid, label, pod.as_ref());
        }
        self.say_pending();
    }
}

impl Causes {
    /// Keep Pod `uid`'s crashed containers, or forget them once it has none; the Pod, parsed,
    /// when it may tell of trouble.
    fn note_crashes(
        &mut self,
        uid: &str,
        event: &Event<'_>,
        name: &str,
        label: &str,
    ) -> Option<Value> {
        let json = event.object.get();
        let pod = may_be_troubled(json)
            .then(|| serde_json::from_str::<Value>(json).ok())
            .flatten();
        let crashes = pod.as_ref().map(children::crashes).unwrap_or_default();
        if crashes.is_empty() {
            self.crashed.remove(uid);
        } else {
            self.crashed.insert(
                uid.to_string(),
                CrashedPod {
                    namespace: event.namespace.to_string(),
                    name: name.to_string(),
                    label: label.to_string(),
                    crashes,
                },
            );
        }
        pod
    }
}

impl Causes {
    /// A Pod of an auxiliary watch changed: followed if it is current (`--logs`). A Pod waited
    /// on itself is followed from the primary watch.
    fn follow_pod(&mut self, uid: &str, event: &Event<'_>, name: &str, label: &str) {
        if self.watched.contains_key(uid) {
            return;
        }
        let Some(mut following) = self.following.take() else {
            return;
        };
        if let Some(meta) = following.pod(uid, event.namespace, name, label, event.object.get()) {
            let current = self.current_workload_of(meta).is_some();
            following.set_current(uid, current);
        }
        self.following = Some(following);
    }

    /// A workload or ReplicaSet changed: the Pods seen may have changed revision.
    fn follow_again(&mut self) {
        let Some(mut following) = self.following.take() else {
            return;
        };
        for (uid, meta) in following.seen() {
            if !self.watched.contains_key(&uid) {
                let current = self.current_workload_of(&meta).is_some();
                following.set_current(&uid, current);
            }
        }
        self.following = Some(following);
    }
}

/// The causes of one member, shared between its watches (the consumer) and the runner (which
/// reads the evidence for the summary at the end).
pub struct SharedCauses(pub Arc<Mutex<Causes>>);

impl SharedCauses {
    fn causes(&self) -> std::sync::MutexGuard<'_, Causes> {
        kw_base::mutex::lock(&self.0)
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
