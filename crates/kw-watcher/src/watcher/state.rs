//! What a watcher keeps between its requests, and what each of its parts does with it: the
//! phase of its cycle, the client and the target, what was printed, where the watch has got to
//! (the resourceVersion, the columns), the backoff, and the printing of one event to the sink.

use std::sync::Arc;
use std::time::{Duration, Instant};

use serde_json::value::RawValue;

use crate::watcher::ends::{flow, Interrupted};
use crate::watcher::error::WatchError;
use crate::watcher::known::{Known, KnownObject, Listed, Seen};
use crate::watcher::left_selector::LeftSelectorChecks;
use crate::watcher::options::Options;
use crate::watcher::pacing;
use crate::watcher::request::Target;
use kw_base::notices;
use kw_client::client::backoff::Backoff;
use kw_client::client::Client;
use kw_events::decode::ObjectHead;
use kw_events::events::{Event, Origin, ResourceInfo, Sink, TableRow};
use kw_wire::{EventType, TableColumnDefinition, TABLE_ACCEPT};

/// Where the watcher is in its cycle: the one value `Watcher::step` goes by. It starts at
/// `Start`; the first list moves it to `Watching` (or, with a streaming list, to
/// `StreamingSync`, which the end-of-initial-events bookmark moves to `Watching`); an expired
/// watch re-lists and comes back to one of the two.
#[derive(Debug, Clone, Copy)]
pub(super) enum Phase {
    /// Nothing asked yet: the first LIST, named GET or streaming list is next.
    Start,
    /// Following changes from the resourceVersion seen last. `lost_since`: when the connection
    /// broke, if it has broken since the last clean end (the re-list notice says how long kw was
    /// away).
    Watching { lost_since: Option<Instant> },
    /// Reading the whole state as the first events of a watch stream (a streaming list), until
    /// the end-of-initial-events bookmark.
    StreamingSync(PendingSync),
}

impl Phase {
    /// The streaming list being read, if one is.
    pub(super) fn syncing(&self) -> Option<PendingSync> {
        match self {
            Phase::StreamingSync(pending) => Some(*pending),
            Phase::Start | Phase::Watching { .. } => None,
        }
    }
}

/// A list being read as the first events of a watch stream (a streaming list).
#[derive(Debug, Clone, Copy)]
pub(super) struct PendingSync {
    pub(super) origin: Origin,
    pub(super) print: bool,
    /// When kw lost track (for the re-list notice).
    pub(super) since: Instant,
    pub(super) printed_before: u64,
    /// Attempts that ended before the end bookmark, in a row.
    pub(super) failed_attempts: u32,
}

/// The client a watcher reads through: borrowed, or shared (a watcher that outlives the stack
/// that made it: a parked watch, resumed on another thread).
#[derive(Clone)]
pub(super) enum ClientRef<'c> {
    Borrowed(&'c Client),
    Shared(Arc<Client>),
}

impl std::ops::Deref for ClientRef<'_> {
    type Target = Client;

    fn deref(&self) -> &Client {
        match self {
            ClientRef::Borrowed(client) => client,
            ClientRef::Shared(client) => client,
        }
    }
}

/// What kw asks the server for. The server's answers only ever move it down this list: from
/// `Tables` to `Objects` when a server cannot print tables, from `StreamingObjects` to `Objects`
/// when it refuses streaming lists or they keep breaking.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Mode {
    /// Tables (human output), the state from LIST + WATCH (never a streaming list:
    /// kubernetes#126206).
    Tables,
    /// Objects, the state from a streaming list (`sendInitialEvents=true`).
    StreamingObjects,
    /// Objects, the state from LIST + WATCH.
    Objects,
}

/// A watcher's state, shared by its listing, its streaming lists and its stream reading, each
/// handed it explicitly.
pub(super) struct WatchState<'c> {
    pub(super) client: ClientRef<'c>,
    pub(super) target: Target,
    pub(super) options: Options,
    pub(super) known: Known,
    columns: Vec<TableColumnDefinition>,
    /// The generation of `columns` (`events::next_column_generation`), new with every set.
    columns_generation: u64,
    /// The last resourceVersion seen: the list's, then every event's and bookmark's.
    pub(super) resource_version: String,
    pub(super) backoff: Backoff,
    pub(super) printed: u64,
    pub(super) mode: Mode,
    /// Where DELETED events under a selector go to be told apart from deletions (while a watch
    /// with a selector runs).
    pub(super) left_selector: Option<LeftSelectorChecks>,
}

impl<'c> WatchState<'c> {
    pub(super) fn new(client: ClientRef<'c>, target: Target, options: Options) -> WatchState<'c> {
        let mode = if options.table {
            Mode::Tables
        } else if options.streaming_list && options.watch {
            Mode::StreamingObjects
        } else {
            Mode::Objects
        };
        WatchState {
            client,
            target,
            known: Known::new(options.table),
            options,
            columns: Vec::new(),
            columns_generation: 0,
            resource_version: String::new(),
            backoff: Backoff::default(),
            printed: 0,
            mode,
            left_selector: None,
        }
    }

    /// The server prints Tables for this type (until it answers with plain objects: an
    /// aggregated API that cannot print, and the printer lays the rows out itself).
    pub(super) fn tables(&self) -> bool {
        self.mode == Mode::Tables
    }

    pub(super) fn accept(&self) -> &'static str {
        if self.tables() {
            TABLE_ACCEPT
        } else {
            "application/json"
        }
    }

    /// How many columns the server defined (a row's cells past them are never printed).
    pub(super) fn column_count(&self) -> usize {
        self.columns.len()
    }

    /// New column definitions from the server (empty ones keep the old).
    pub(super) fn take_columns(&mut self, columns: Vec<TableColumnDefinition>) {
        if !columns.is_empty() {
            self.columns = columns;
            self.columns_generation = kw_events::events::next_column_generation();
        }
    }

    /// The resourceVersion kw has seen up to, moved by the watch stream: every event and
    /// bookmark passes here (an empty one says nothing and changes nothing). A LIST sets it
    /// outright (`list`), and a streaming sync starts it afresh (`streaming`).
    pub(super) fn seen_up_to(&mut self, resource_version: &str) {
        if !resource_version.is_empty() {
            self.resource_version.clear();
            self.resource_version.push_str(resource_version);
        }
    }

    /// The server answered a Table request with plain objects (or refused it with 406): from now
    /// on kw asks for objects, and the printer lays the rows out itself, as kubectl does.
    pub(super) fn tables_unavailable(&mut self) {
        if self.tables() {
            self.mode = Mode::Objects;
            notices::notice(&format!(
                "the server cannot print tables for {}; kw lays them out itself",
                self.target.resource.plural
            ));
        }
    }

    /// Under a selector, DELETED also means "no longer matches": hand it to the checker
    /// (`left_selector`), which tells the user when the object still exists.
    pub(super) fn note_if_left_selector(&self, kind: EventType, head: &ObjectHead<'_>) {
        let Some(checks) = &self.left_selector else {
            return;
        };
        if kind != EventType::Deleted || !self.target.shows(&head.metadata.namespace) {
            return;
        }
        let path = self
            .target
            .object_path_in(&head.metadata.namespace, &head.metadata.name);
        let label = format!("{}/{}", self.target.resource.singular, head.metadata.name);
        checks.check(path, label);
    }

    pub(super) fn deadline_passed(&self) -> bool {
        self.options.deadline.is_some_and(|d| Instant::now() >= d)
    }

    /// Sleep unless the deadline comes first; true if it did.
    pub(super) fn sleep(&self, pause: Duration) -> bool {
        pacing::sleep_unless_past(self.options.deadline, pause)
    }

    pub(super) fn relist_notice(&self, since: Instant, printed_before: u64) {
        let missed = self.printed - printed_before;
        notices::notice(&format!(
            "the watch of {} expired (410): re-listed after {} away and printed {} missed change{}",
            self.target.resource.plural,
            humantime::format_duration(Duration::from_secs(since.elapsed().as_secs())),
            missed,
            if missed == 1 { "" } else { "s" }
        ));
    }

    #[allow(clippy::too_many_arguments)]
    pub(super) fn emit(
        &mut self,
        sink: &mut dyn Sink,
        kind: EventType,
        origin: Origin,
        object: &RawValue,
        head: &ObjectHead<'_>,
        cells: Option<&[serde_json::Value]>,
        object_lacks_type: bool,
    ) -> Result<(), Interrupted> {
        if !self.target.shows(&head.metadata.namespace) {
            return Ok(());
        }
        let subresource_kind = self.subresource_kind(head, cells.is_some());
        let resource: &ResourceInfo = subresource_kind.as_ref().unwrap_or(&self.target.resource);
        let event = Event {
            kind,
            origin,
            resource,
            object,
            object_lacks_type,
            name: &head.metadata.name,
            namespace: &head.metadata.namespace,
            row: cells.map(|cells| TableRow {
                columns: &self.columns,
                cells,
                generation: self.columns_generation,
            }),
            context: None,
            judged: None,
        };
        flow(sink.event(&event))?;
        self.printed += 1;
        Ok(())
    }

    /// A subresource read whole (`--subresource=scale -o name`) is its own kind
    /// (`scale.autoscaling/web`), as kubectl names it from the object; a table row keeps the
    /// type asked for (`deployment.apps/web` under `--show-kind`), as kubectl's does.
    fn subresource_kind(&self, head: &ObjectHead<'_>, row: bool) -> Option<ResourceInfo> {
        let resource = &self.target.resource;
        if row
            || self.target.subresource.is_none()
            || head.kind.is_empty()
            || head.kind == resource.kind
        {
            return None;
        }
        let (group, version) = match head.api_version.split_once('/') {
            Some((group, version)) => (group, version),
            None => ("", head.api_version.as_ref()),
        };
        Some(ResourceInfo {
            plural: resource.plural.clone(),
            singular: head.kind.to_lowercase(),
            kind: head.kind.to_string(),
            group: group.to_string(),
            version: version.to_string(),
            namespaced: resource.namespaced,
        })
    }

    /// A DELETED event for an object a re-list no longer contains. kw keeps only identity (and the
    /// last row in table mode), so JSON modes get the object's identity, not its last state.
    pub(super) fn emit_gone(
        &mut self,
        sink: &mut dyn Sink,
        gone: &KnownObject,
        origin: Origin,
    ) -> Result<(), Interrupted> {
        if !self.target.shows(&gone.namespace) {
            return Ok(());
        }
        let resource = &self.target.resource;
        let mut metadata = serde_json::Map::new();
        metadata.insert("name".into(), gone.name.clone().into());
        if !gone.namespace.is_empty() {
            metadata.insert("namespace".into(), gone.namespace.clone().into());
        }
        metadata.insert(
            "resourceVersion".into(),
            gone.resource_version.clone().into(),
        );
        if !gone.uid.is_empty() {
            metadata.insert("uid".into(), gone.uid.clone().into());
        }
        let stub = serde_json::json!({
            "apiVersion": resource.api_version(),
            "kind": resource.kind,
            "metadata": metadata,
        });
        let object =
            RawValue::from_string(stub.to_string()).map_err(|e| WatchError::BadResponse {
                path: String::new(),
                reason: e.to_string(),
            })?;
        let event = Event {
            kind: EventType::Deleted,
            origin,
            resource,
            object: &object,
            object_lacks_type: false,
            name: &gone.name,
            namespace: &gone.namespace,
            row: if self.tables() {
                Some(TableRow {
                    columns: &self.columns,
                    cells: &gone.cells,
                    generation: self.columns_generation,
                })
            } else {
                None
            },
            context: None,
            judged: None,
        };
        flow(sink.event(&event))?;
        self.printed += 1;
        Ok(())
    }
}

/// The event a listed object prints as, if any.
pub(super) fn listed_event(change: Listed) -> Option<EventType> {
    match change {
        Listed::New => Some(EventType::Added),
        Listed::Changed => Some(EventType::Modified),
        Listed::Unchanged => None,
    }
}

pub(super) fn seen_of<'a>(
    head: &'a ObjectHead<'a>,
    cells: Option<&'a [serde_json::Value]>,
) -> Seen<'a> {
    Seen {
        name: &head.metadata.name,
        namespace: &head.metadata.namespace,
        uid: &head.metadata.uid,
        resource_version: &head.metadata.resource_version,
        cells,
    }
}
