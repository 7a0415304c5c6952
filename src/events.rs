//! Events: what the watcher hands to a `Sink` (a printer, behind conditions and prefixes).
//! Borrowed from the decoder's line buffer, so a sink that needs something later must copy it.

use std::io;

use serde_json::value::RawValue;

use crate::wire::{EventType, TableColumnDefinition};

/// What a resource type is, as discovery described it. Enough to build request paths and to
/// print `-o name` (`pod/nginx`, `deployment.apps/web`).
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct ResourceInfo {
    /// Plural, lower case: `pods`, `deployments`, `widgets`.
    pub plural: String,
    /// Singular, lower case: `pod`.
    pub singular: String,
    /// `Pod`.
    pub kind: String,
    /// `""` for the core group, `apps`, `example.com`.
    pub group: String,
    /// `v1`.
    pub version: String,
    pub namespaced: bool,
}

impl ResourceInfo {
    /// `v1` or `apps/v1`: the `apiVersion` of objects of this type.
    pub fn api_version(&self) -> String {
        if self.group.is_empty() {
            self.version.clone()
        } else {
            format!("{}/{}", self.group, self.version)
        }
    }
}

/// Where an event came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Origin {
    /// An item of the initial list, printed as ADDED.
    List,
    /// An event the server sent on a watch.
    Watch,
    /// Synthesised by kw after a re-list, to bring the reader up to the server's state.
    Relist,
}

/// One server-side-printed row (table mode only).
#[derive(Debug, Clone, Copy)]
pub struct TableRow<'a> {
    /// The column definitions in force: the server sends them once per watch, kw remembers them.
    pub columns: &'a [TableColumnDefinition],
    pub cells: &'a [serde_json::Value],
    /// Which definitions these are: rows with the same non-zero generation have the same
    /// `columns` (from `next_column_generation`); 0 means unknown, compare the definitions.
    pub generation: u64,
}

/// A fresh column generation, unique in the process (several watchers share one printer).
pub fn next_column_generation() -> u64 {
    static NEXT: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(1);
    NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed)
}

/// One thing to print.
#[derive(Debug, Clone, Copy)]
pub struct Event<'a> {
    /// `Added`, `Modified` or `Deleted`; bookmarks and errors never reach a printer.
    pub kind: EventType,
    pub origin: Origin,
    pub resource: &'a ResourceInfo,
    /// JSON modes: the whole object, bytes as the server sent them. Table mode: the row's
    /// `object` (a `PartialObjectMetadata`), or `null` when the server sent none.
    pub object: &'a RawValue,
    /// True when `object` lacks `apiVersion`/`kind` (items of a LIST): printers that emit whole
    /// objects add them, as kubectl does.
    pub object_lacks_type: bool,
    pub name: &'a str,
    /// Empty for cluster-scoped objects.
    pub namespace: &'a str,
    /// Table mode only.
    pub row: Option<TableRow<'a>>,
    /// The kubeconfig context the object came from, when a run watches several (`--context
    /// a,b`); `None` otherwise, so single-context output stays kubectl's.
    pub context: Option<&'a str>,
}

/// What a sink tells the watcher after each call: go on, or stop watching. A sink that stops
/// (a condition met, `--max-events` reached) keeps its reason; the watcher only ends.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[must_use]
pub enum Flow {
    Continue,
    Stop,
}

/// Where events go: a printer and stdout, possibly behind conditions and a kind prefix. Errors
/// are output errors (a closed pipe is the common case).
pub trait Sink {
    fn event(&mut self, event: &Event<'_>) -> io::Result<Flow>;
    /// The end of a group of events (the initial list, one watch event). `more_ready` says more
    /// events are already buffered: a sink may wait with flushing until they are out too.
    fn checkpoint(&mut self, more_ready: bool) -> io::Result<Flow>;

    /// A complete list (the first, or a re-list) has been delivered: the events so far describe
    /// every object that exists. Conditions over "all objects" are decided here.
    fn synced(&mut self) -> io::Result<Flow> {
        Ok(Flow::Continue)
    }
}

impl<S: Sink + ?Sized> Sink for &mut S {
    fn event(&mut self, event: &Event<'_>) -> io::Result<Flow> {
        (**self).event(event)
    }

    fn checkpoint(&mut self, more_ready: bool) -> io::Result<Flow> {
        (**self).checkpoint(more_ready)
    }

    fn synced(&mut self) -> io::Result<Flow> {
        (**self).synced()
    }
}
