//! A member's auxiliary watches: watches whose events go to a consumer inside kw, not to stdout
//! (kube-runtime's `Controller::owns`). The primary watches are the ones the command line
//! names; a consumer sees their events too (the chain's tee) and may add auxiliary watches while the run
//! goes on, for what it can only name once it has seen it (the Events of a namespace once an
//! object in it is seen). Adding a watch that already exists does nothing.
//!
//! Auxiliary watches resume and re-list like every other (they are ordinary `Watcher`s), never
//! print, and never take part in a condition's "every watch has synced". One that fails for good
//! (a namespace where RBAC forbids the list) is said once and dropped: the run goes on without.
//!
//! A verdict can come on the primary watch's first list, before the auxiliary lists that hold
//! its causes have arrived (kw joined a story that had already failed): `wait_listed` lets the
//! runner wait, bounded, until every auxiliary watch started so far has delivered its first
//! list (or ended), so the summary is written from the whole picture.

use std::collections::HashSet;
use std::io;
use std::sync::{Arc, Condvar, Mutex};
use std::time::Instant;

use crate::watcher::{Options, Target, WatchError, Watcher};
use kw_base::notices;
use kw_base::notices::ContextScope;
use kw_client::client::Client;
use kw_events::decode::depth;
use kw_events::events::Reconnects;
use kw_events::events::{DepthBound, Event, Flow, ResourceInfo, Sink};

/// Which auxiliary watch: a type, a namespace and a field selector.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct WatchKey {
    /// `pods`, `replicasets.apps`.
    pub resource: String,
    pub namespace: String,
    pub field_selector: Option<String>,
}

impl WatchKey {
    fn of(target: &Target) -> WatchKey {
        let r = &target.resource;
        WatchKey {
            resource: if r.group.is_empty() {
                r.plural.clone()
            } else {
                format!("{}.{}", r.plural, r.group)
            },
            namespace: target.namespace.clone().unwrap_or_default(),
            field_selector: target.field_selector.clone(),
        }
    }
}

/// What an auxiliary watch feeds. Called from the watches' threads, one call at a time.
pub trait Consumer: Send {
    /// An event of a primary watch: what the run prints.
    fn primary(&mut self, event: &Event<'_>, watches: &Arc<WatchSet>);
    /// An event of the auxiliary watch `watch`.
    fn event(&mut self, watch: &WatchKey, event: &Event<'_>, watches: &Arc<WatchSet>);
}

/// The auxiliary watches of one member, and their consumer.
pub struct WatchSet {
    client: Arc<Client>,
    options: Options,
    consumer: Mutex<Box<dyn Consumer>>,
    started: Mutex<HashSet<WatchKey>>,
    /// The watches started whose first list has not arrived yet, nor have they ended.
    unlisted: Mutex<HashSet<WatchKey>>,
    /// Woken each time a watch leaves `unlisted`.
    listed: Condvar,
    /// The member's context: the watches' notices name it.
    scope: Option<ContextScope>,
    /// The run's count of reconnects, which the watches add to.
    reconnects: Reconnects,
}

impl WatchSet {
    /// Watches through `client`, each with `options` made fit for a consumer (whole objects,
    /// the initial state included, never given up at the start).
    pub fn new(
        client: Arc<Client>,
        options: Options,
        consumer: Box<dyn Consumer>,
        scope: Option<ContextScope>,
        reconnects: Reconnects,
    ) -> Arc<WatchSet> {
        Arc::new(WatchSet {
            client,
            options: Options {
                table: false,
                watch: true,
                print_list: true,
                named_must_exist: false,
                give_up_at_start: false,
                streaming_list: false,
                ..options
            },
            consumer: Mutex::new(consumer),
            started: Mutex::new(HashSet::new()),
            unlisted: Mutex::new(HashSet::new()),
            listed: Condvar::new(),
            scope,
            reconnects,
        })
    }

    /// Start watching `resource` in `namespace` (with `field_selector`), unless that watch
    /// runs already. Returns whether it was started.
    pub fn add(
        self: &Arc<Self>,
        resource: ResourceInfo,
        namespace: &str,
        field_selector: Option<&str>,
    ) -> bool {
        let target = Target {
            resource,
            namespace: Some(namespace.to_string()),
            namespace_set: None,
            names: Vec::new(),
            label_selector: None,
            field_selector: field_selector.map(str::to_string),
            include_object: false,
            subresource: None,
        };
        let key = WatchKey::of(&target);
        if !kw_base::mutex::lock(&self.started).insert(key.clone()) {
            return false;
        }
        kw_base::mutex::lock(&self.unlisted).insert(key.clone());
        let watches = Arc::clone(self);
        let unstarted = key.clone();
        // Left to end with the process, as the primary watchers are once the run has ended.
        // Its objects reach the judge's causes: a stack sized for the deepest one read.
        let spawned = std::thread::Builder::new()
            .stack_size(depth::STACK)
            .spawn(move || {
                if let Some(scope) = &watches.scope {
                    scope.enter();
                }
                let mut watcher = Watcher::new(&watches.client, target, watches.options.clone())
                    .counting_reconnects_in(&watches.reconnects);
                let mut sink = Feed {
                    watches: &watches,
                    key: &key,
                };
                if let Err(error) = watcher.run(&mut DepthBound::new(&mut sink)) {
                    watches.failed(&key, &error);
                }
                watches.first_list_done(&key);
            });
        if spawned.is_err() {
            // No thread to be had: that watch is missing, as one the server refused.
            self.first_list_done(&unstarted);
            return false;
        }
        true
    }

    /// Watch `key` has delivered its first list, or ended without one.
    fn first_list_done(&self, key: &WatchKey) {
        if kw_base::mutex::lock(&self.unlisted).remove(key) {
            self.listed.notify_all();
        }
    }

    /// Wait until every watch started so far has delivered its first list (or ended), but not
    /// past `until`. Returns whether they all have.
    pub fn wait_listed(&self, until: Instant) -> bool {
        let mut unlisted = kw_base::mutex::lock(&self.unlisted);
        loop {
            if unlisted.is_empty() {
                return true;
            }
            let Some(left) = until.checked_duration_since(Instant::now()) else {
                return false;
            };
            unlisted = match self.listed.wait_timeout(unlisted, left) {
                Ok((guard, _)) => guard,
                // A thread that panicked holding the lock left a set that is still a set.
                Err(poisoned) => poisoned.into_inner().0,
            };
        }
    }

    fn failed(&self, key: &WatchKey, error: &WatchError) {
        notices::notice(&format!(
            "cannot watch {} in namespace {}: {error}; going on without them",
            key.resource, key.namespace
        ));
    }

    /// Shows the consumer an event of a primary watch (one printed on stdout).
    pub fn primary(self: &Arc<Self>, event: &Event<'_>) {
        self.consumer().primary(event, self);
    }

    fn consumer(&self) -> std::sync::MutexGuard<'_, Box<dyn Consumer>> {
        kw_base::mutex::lock(&self.consumer)
    }
}

/// An auxiliary watch's sink: every event to the consumer, nothing printed.
struct Feed<'a> {
    watches: &'a Arc<WatchSet>,
    key: &'a WatchKey,
}

impl Sink for Feed<'_> {
    fn event(&mut self, event: &Event<'_>) -> io::Result<Flow> {
        self.watches.consumer().event(self.key, event, self.watches);
        Ok(Flow::Continue)
    }

    fn checkpoint(&mut self, _more_ready: bool) -> io::Result<Flow> {
        Ok(Flow::Continue)
    }

    fn synced(&mut self) -> io::Result<Flow> {
        self.watches.first_list_done(self.key);
        Ok(Flow::Continue)
    }
}
