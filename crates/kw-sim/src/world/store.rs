//! The in-memory object store: objects per resource keyed by (namespace, name), one global
//! resourceVersion counter bumped by every change (like etcd's revision), a bounded history of
//! events for watch resume, the log of every change, and the broadcast that feeds watches.
//!
//! Each resource's map sits behind an `Arc` and is copied on write, so a list page or a watch's
//! initial state is a cheap, consistent snapshot that later changes cannot disturb.

use std::collections::{BTreeMap, HashMap, VecDeque};
use std::sync::mpsc::{self, Receiver, SyncSender, TrySendError};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::SystemTime;

use serde::Serialize;
use serde_json::Value;

use super::catalog::{self, ResourceInfo};
use crate::error::SimError;
use kw_wire::EventType;

/// One resource's objects, sorted by (namespace, name); cluster-scoped objects use namespace "".
pub type ObjectMap = BTreeMap<(String, String), Arc<Value>>;

/// How many events a watcher may fall behind before it is closed, as a real server closes a
/// watcher whose buffer fills.
const WATCHER_BUFFER: usize = 4096;

/// One change, as watches see it.
#[derive(Debug)]
pub struct StoredEvent {
    pub resource_version: u64,
    pub event_type: EventType,
    pub resource: &'static str,
    /// The new state; for DELETED the last state, carrying the delete's resourceVersion.
    pub object: Arc<Value>,
    /// The state before the change (MODIFIED and DELETED), for selector-filtered watches.
    pub previous: Option<Arc<Value>>,
}

/// One entry of [`crate::SimHandle::changes`].
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Change {
    pub resource_version: u64,
    pub event_type: String,
    pub resource: String,
    pub namespace: String,
    pub name: String,
    pub uid: String,
}

/// Where a watch starts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum WatchStart {
    /// The current state as synthetic ADDED events, then live.
    CurrentState,
    /// Every event after this resourceVersion, then live.
    After(u64),
}

/// What a new watch must send before live events.
pub enum Backlog {
    State(Arc<ObjectMap>),
    Events(Vec<Arc<StoredEvent>>),
}

/// A registered watch: its backlog and its live feed.
pub struct Subscription {
    pub backlog: Backlog,
    /// The store's resourceVersion when the watch was registered.
    pub resource_version: u64,
    pub live: Receiver<Arc<StoredEvent>>,
}

/// A watch asked to resume from before the history window.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TooOld {
    pub requested: u64,
    pub oldest: u64,
}

struct Watcher {
    resource: &'static str,
    sender: SyncSender<Arc<StoredEvent>>,
}

struct State {
    resource_version: u64,
    objects: HashMap<&'static str, Arc<ObjectMap>>,
    history: VecDeque<Arc<StoredEvent>>,
    /// A watch from resourceVersion X can resume iff X >= floor: every later event is in history.
    floor: u64,
    changes: Vec<Change>,
    watchers: Vec<Watcher>,
    /// List snapshots kept for `continue` tokens, newest last.
    snapshots: VecDeque<(&'static str, u64, Arc<ObjectMap>)>,
    uids_issued: u64,
}

/// How often `modify` reads, changes and tries to write back an object that other writers
/// keep changing, before it answers 409 (kube-apiserver's `maxRetryWhenPatchConflicts`).
const MODIFY_ATTEMPTS: usize = 5;

/// List snapshots kept for continuation; older tokens get 410 Expired.
const SNAPSHOTS_KEPT: usize = 64;

/// The store; shared by every connection thread.
pub struct Store {
    state: Mutex<State>,
    history_capacity: usize,
    seed: u64,
    clock: Option<SystemTime>,
}

impl Store {
    pub fn new(history_capacity: usize, seed: u64, clock: Option<SystemTime>) -> Store {
        Store {
            state: Mutex::new(State {
                resource_version: 0,
                objects: HashMap::new(),
                history: VecDeque::new(),
                floor: 0,
                changes: Vec::new(),
                watchers: Vec::new(),
                snapshots: VecDeque::new(),
                uids_issued: 0,
            }),
            history_capacity: history_capacity.max(1),
            seed,
            clock,
        }
    }

    fn lock(&self) -> MutexGuard<'_, State> {
        // A panic in another thread while holding the lock leaves consistent data (every change
        // is applied in one step), so keep serving.
        self.state
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    /// "Now": the frozen clock if configured.
    pub fn now(&self) -> SystemTime {
        self.clock.unwrap_or_else(SystemTime::now)
    }

    /// The seed of the world (for objects made later, such as a rollout's).
    pub fn seed(&self) -> u64 {
        self.seed
    }

    pub fn current_resource_version(&self) -> u64 {
        self.lock().resource_version
    }

    /// Store a new object; fills namespace (namespaced resources default to `default`), uid,
    /// creationTimestamp, kind, apiVersion and resourceVersion.
    pub fn create(&self, resource: &str, object: Value) -> Result<Value, SimError> {
        let info = resource_info(resource)?;
        let (namespace, name, mut object) = normalise(info, object)?;
        let mut state = self.lock();
        let key = (namespace, name);
        if state
            .objects
            .get(info.plural)
            .is_some_and(|map| map.contains_key(&key))
        {
            return Err(SimError::AlreadyExists {
                resource: info.plural.into(),
                name: key.1,
            });
        }
        if object["metadata"]["uid"].as_str().is_none_or(str::is_empty) {
            state.uids_issued += 1;
            object["metadata"]["uid"] = Value::String(uid(self.seed, state.uids_issued));
        }
        if object["metadata"]["creationTimestamp"].is_null() {
            object["metadata"]["creationTimestamp"] = Value::String(timestamp(self.now()));
        }
        Ok(self.commit(&mut state, info, key, EventType::Added, object, None))
    }

    /// Replace an existing object; uid and creationTimestamp are kept if the new one lacks them.
    pub fn update(&self, resource: &str, object: Value) -> Result<Value, SimError> {
        let info = resource_info(resource)?;
        let (namespace, name, mut object) = normalise(info, object)?;
        let mut state = self.lock();
        let key = (namespace, name);
        let previous = stored(&state, info, &key)?;
        for field in ["uid", "creationTimestamp"] {
            if object["metadata"][field].is_null() {
                object["metadata"][field] = previous["metadata"][field].clone();
            }
        }
        Ok(self.commit(
            &mut state,
            info,
            key,
            EventType::Modified,
            object,
            Some(previous),
        ))
    }

    /// Change an existing object as etcd's transaction keeps a PATCH whole: `change` sees the
    /// current object and returns the new one (or refuses), and the result is written only if
    /// no other writer (a client, a controller) came in between; else `change` runs again on
    /// what is there now, as kube-apiserver's `GuaranteedUpdate` retries.
    ///
    /// `change` runs outside the lock: a patch that takes long to apply holds up only its own
    /// request, never the GETs, watches and controllers every other client needs.
    pub fn modify<E: From<SimError>>(
        &self,
        resource: &str,
        namespace: &str,
        name: &str,
        mut change: impl FnMut(&Value) -> Result<Value, E>,
    ) -> Result<Value, E> {
        let info = resource_info(resource)?;
        let namespace = if info.namespaced { namespace } else { "" };
        let key = (namespace.to_string(), name.to_string());
        for _ in 0..MODIFY_ATTEMPTS {
            let previous = stored(&self.lock(), info, &key)?;
            let (_, _, mut object) = normalise(info, change(&previous)?)?;
            for field in ["uid", "creationTimestamp", "name", "namespace"] {
                object["metadata"][field] = previous["metadata"][field].clone();
            }
            if !info.namespaced {
                if let Some(metadata) = object["metadata"].as_object_mut() {
                    metadata.remove("namespace");
                }
            }
            let mut state = self.lock();
            if !Arc::ptr_eq(&stored(&state, info, &key)?, &previous) {
                continue;
            }
            return Ok(self.commit(
                &mut state,
                info,
                key,
                EventType::Modified,
                object,
                Some(previous),
            ));
        }
        Err(SimError::Contended {
            resource: info.plural.into(),
            name: key.1,
        }
        .into())
    }

    /// Remove an object; watches get DELETED with its last state and the new resourceVersion.
    pub fn delete(&self, resource: &str, namespace: &str, name: &str) -> Result<Value, SimError> {
        let info = resource_info(resource)?;
        let namespace = if info.namespaced { namespace } else { "" };
        let key = (namespace.to_string(), name.to_string());
        let mut state = self.lock();
        let previous = stored(&state, info, &key)?;
        let last = (*previous).clone();
        Ok(self.commit(
            &mut state,
            info,
            key,
            EventType::Deleted,
            last,
            Some(previous),
        ))
    }

    /// Apply one change under the lock: bump the resourceVersion, update the map, record the
    /// event in history and the change log, and broadcast it.
    fn commit(
        &self,
        state: &mut State,
        info: &'static ResourceInfo,
        key: (String, String),
        event_type: EventType,
        mut object: Value,
        previous: Option<Arc<Value>>,
    ) -> Value {
        state.resource_version += 1;
        let resource_version = state.resource_version;
        object["metadata"]["resourceVersion"] = Value::String(resource_version.to_string());
        let object = Arc::new(object);
        let map = Arc::make_mut(state.objects.entry(info.plural).or_default());
        if event_type == EventType::Deleted {
            map.remove(&key);
        } else {
            map.insert(key.clone(), Arc::clone(&object));
        }
        state.changes.push(Change {
            resource_version,
            event_type: event_type.as_str().into(),
            resource: info.plural.into(),
            namespace: key.0,
            name: key.1,
            uid: object["metadata"]["uid"].as_str().unwrap_or("").into(),
        });
        let event = Arc::new(StoredEvent {
            resource_version,
            event_type,
            resource: info.plural,
            object: Arc::clone(&object),
            previous,
        });
        state.history.push_back(Arc::clone(&event));
        while state.history.len() > self.history_capacity {
            if let Some(dropped) = state.history.pop_front() {
                state.floor = dropped.resource_version;
            }
        }
        state.watchers.retain(|watcher| {
            if watcher.resource != info.plural {
                return true;
            }
            match watcher.sender.try_send(Arc::clone(&event)) {
                Ok(()) => true,
                // Too far behind or gone: dropping the sender ends that watch.
                Err(TrySendError::Full(_)) | Err(TrySendError::Disconnected(_)) => false,
            }
        });
        (*object).clone()
    }

    /// Current objects of a resource, sorted by namespace/name.
    pub fn objects(&self, resource: &str) -> Vec<Value> {
        let (_, map) = self.snapshot(resource);
        map.values().map(|object| (**object).clone()).collect()
    }

    /// The current map of a resource and the resourceVersion it is consistent with.
    pub fn snapshot(&self, resource: &str) -> (u64, Arc<ObjectMap>) {
        let state = self.lock();
        let map = state
            .objects
            .get(resource)
            .cloned()
            .unwrap_or_else(|| Arc::new(ObjectMap::new()));
        (state.resource_version, map)
    }

    /// Keep a list snapshot so that `continue` tokens at this resourceVersion can be served.
    pub fn keep_snapshot(
        &self,
        resource: &'static str,
        resource_version: u64,
        map: Arc<ObjectMap>,
    ) {
        let mut state = self.lock();
        if state
            .snapshots
            .iter()
            .any(|(r, rv, _)| *r == resource && *rv == resource_version)
        {
            return;
        }
        state.snapshots.push_back((resource, resource_version, map));
        while state.snapshots.len() > SNAPSHOTS_KEPT {
            state.snapshots.pop_front();
        }
    }

    /// A kept list snapshot, if it has not expired.
    pub fn kept_snapshot(&self, resource: &str, resource_version: u64) -> Option<Arc<ObjectMap>> {
        self.lock()
            .snapshots
            .iter()
            .find(|(r, rv, _)| *r == resource && *rv == resource_version)
            .map(|(_, _, map)| Arc::clone(map))
    }

    /// Every change ever made, oldest first.
    pub fn changes(&self) -> Vec<Change> {
        self.lock().changes.clone()
    }

    /// Forget history and list snapshots: older resourceVersions and continue tokens get 410.
    pub fn compact(&self) {
        let mut state = self.lock();
        state.history.clear();
        state.floor = state.resource_version;
        state.snapshots.clear();
    }

    /// Register a watch on a resource, atomically with reading its backlog so nothing is lost
    /// or repeated between the two.
    pub fn subscribe(
        &self,
        resource: &'static str,
        start: WatchStart,
    ) -> Result<Subscription, TooOld> {
        let mut state = self.lock();
        let backlog = match start {
            WatchStart::CurrentState => Backlog::State(
                state
                    .objects
                    .get(resource)
                    .cloned()
                    .unwrap_or_else(|| Arc::new(ObjectMap::new())),
            ),
            WatchStart::After(from) => {
                if from < state.floor {
                    return Err(TooOld {
                        requested: from,
                        oldest: state.floor + 1,
                    });
                }
                Backlog::Events(
                    state
                        .history
                        .iter()
                        .filter(|event| event.resource == resource && event.resource_version > from)
                        .cloned()
                        .collect(),
                )
            }
        };
        let (sender, live) = mpsc::sync_channel(WATCHER_BUFFER);
        state.watchers.push(Watcher { resource, sender });
        Ok(Subscription {
            backlog,
            resource_version: state.resource_version,
            live,
        })
    }

    /// Close every watch feed (server stopping).
    pub fn close_watchers(&self) {
        self.lock().watchers.clear();
    }
}

fn resource_info(resource: &str) -> Result<&'static ResourceInfo, SimError> {
    catalog::by_plural(resource).ok_or_else(|| SimError::UnknownResource(resource.into()))
}

/// Check the object has a name, and set namespace, kind and apiVersion as the resource needs.
/// The object stored under `key`, or the NotFound a write to it gets.
fn stored(
    state: &State,
    info: &ResourceInfo,
    key: &(String, String),
) -> Result<Arc<Value>, SimError> {
    state
        .objects
        .get(info.plural)
        .and_then(|map| map.get(key))
        .cloned()
        .ok_or_else(|| SimError::NotFound {
            resource: info.plural.into(),
            name: key.1.clone(),
        })
}

fn normalise(info: &ResourceInfo, mut object: Value) -> Result<(String, String, Value), SimError> {
    if !object.is_object() {
        return Err(SimError::InvalidObject("not a JSON object".into()));
    }
    if !object["metadata"].is_object() {
        object["metadata"] = Value::Object(serde_json::Map::new());
    }
    let name = match object["metadata"]["name"].as_str() {
        Some(name) if !name.is_empty() => name.to_string(),
        _ => return Err(SimError::InvalidObject("metadata.name is required".into())),
    };
    let namespace = if info.namespaced {
        let namespace = object["metadata"]["namespace"]
            .as_str()
            .filter(|ns| !ns.is_empty())
            .unwrap_or("default")
            .to_string();
        object["metadata"]["namespace"] = Value::String(namespace.clone());
        namespace
    } else {
        if let Some(metadata) = object["metadata"].as_object_mut() {
            metadata.remove("namespace");
        }
        String::new()
    };
    object["kind"] = Value::String(info.kind.into());
    object["apiVersion"] = Value::String(info.api_version());
    Ok((namespace, name, object))
}

/// RFC 3339 with seconds, as Kubernetes writes timestamps.
pub fn timestamp(time: SystemTime) -> String {
    humantime::format_rfc3339_seconds(time).to_string()
}

/// A deterministic UUID-shaped uid for (seed, n), so goldens are stable.
fn uid(seed: u64, n: u64) -> String {
    let high = splitmix(seed ^ n.rotate_left(17));
    let low = splitmix(high ^ n);
    let hex = format!("{high:016x}{low:016x}");
    format!(
        "{}-{}-4{}-a{}-{}",
        &hex[0..8],
        &hex[8..12],
        &hex[13..16],
        &hex[17..20],
        &hex[20..32]
    )
}

fn splitmix(mut x: u64) -> u64 {
    x = x.wrapping_add(0x9e37_79b9_7f4a_7c15);
    x = (x ^ (x >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    x = (x ^ (x >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    x ^ (x >> 31)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn pod(name: &str) -> Value {
        json!({"metadata": {"name": name, "namespace": "default"}})
    }

    #[test]
    fn changes_bump_the_resource_version_and_fill_metadata() {
        let store = Store::new(10, 1, None);
        let created = store.create("pods", pod("a")).unwrap();
        assert_eq!(created["metadata"]["resourceVersion"], "1");
        assert_eq!(created["kind"], "Pod");
        assert!(created["metadata"]["uid"]
            .as_str()
            .is_some_and(|u| u.len() == 36));
        let updated = store.update("pods", pod("a")).unwrap();
        assert_eq!(updated["metadata"]["uid"], created["metadata"]["uid"]);
        let deleted = store.delete("pods", "default", "a").unwrap();
        assert_eq!(deleted["metadata"]["resourceVersion"], "3");
        assert!(store.objects("pods").is_empty());
        let kinds: Vec<String> = store.changes().into_iter().map(|c| c.event_type).collect();
        assert_eq!(kinds, ["ADDED", "MODIFIED", "DELETED"]);
        assert!(matches!(
            store.create("pods", json!({"metadata": {}})),
            Err(SimError::InvalidObject(_))
        ));
    }

    #[test]
    fn history_window_decides_resume() {
        let store = Store::new(2, 1, None);
        for name in ["a", "b", "c"] {
            store.create("pods", pod(name)).unwrap();
        }
        assert!(store.subscribe("pods", WatchStart::After(0)).is_err());
        let sub = store.subscribe("pods", WatchStart::After(1)).unwrap();
        match sub.backlog {
            Backlog::Events(events) => assert_eq!(events.len(), 2),
            Backlog::State(_) => panic!("expected events"),
        }
        store.compact();
        assert!(store.subscribe("pods", WatchStart::After(2)).is_err());
        assert!(store.subscribe("pods", WatchStart::After(3)).is_ok());
    }

    #[test]
    fn snapshots_are_not_disturbed_by_later_changes() {
        let store = Store::new(10, 1, None);
        store.create("pods", pod("a")).unwrap();
        let (rv, map) = store.snapshot("pods");
        store.create("pods", pod("b")).unwrap();
        assert_eq!((rv, map.len()), (1, 1));
    }
}
