//! Events: what the watcher hands to a `Sink` (a printer, behind conditions and prefixes).
//! Borrowed from the decoder's line buffer, so a sink that needs something later must copy it.

use std::io;

use serde_json::value::RawValue;

use kw_wire::{EventType, TableColumnDefinition};

use crate::decode::depth::{self, MAX_DEPTH};
use crate::readiness::Judgement;

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

/// `pod`, `deployment.apps`: how kubectl names a type in front of an object's name (`-o name`,
/// `get` over several types), and, qualified by `version.group`, how a type is asked for
/// (`deployment.v1.apps`). `qualifier` follows a dot unless it is empty (the core group).
///
/// The kind is lower-cased as kubectl does it, with Go's `strings.ToLower`: each character's
/// simple lower case, so the KELVIN SIGN and `İ` become `k` and `i` (the API server lower-cases
/// a CRD's kind the same way before it requires a DNS label, so both can be in a kind). Neither
/// ASCII-only lowering (which keeps them) nor Rust's `to_lowercase` (`İ` → `i̇`, a final `Σ` →
/// `ς`) says what kubectl says.
pub fn kind_prefix(kind: &str, qualifier: &str) -> String {
    let mut prefix = String::with_capacity(kind.len() + 1 + qualifier.len());
    if kind.is_ascii() {
        prefix.extend(kind.chars().map(|c| c.to_ascii_lowercase()));
    } else {
        // Only `İ` has a lower case of several characters (`i` and a combining dot); its simple
        // lower case, Go's, is the first of them.
        prefix.extend(kind.chars().map(|c| c.to_lowercase().next().unwrap_or(c)));
    }
    if !qualifier.is_empty() {
        prefix.push('.');
        prefix.push_str(qualifier);
    }
    prefix
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
    /// What the run's judge said of this event, once it has passed the judge (`--until`,
    /// `--fail-on`, `wait`, `rollout status`); `None` before, or with no judge.
    pub judged: Option<JudgeNote<'a>>,
}

/// The judge's word on one event, carried by the event to what prints it: the printer below
/// the judge reads it here, never from a channel beside the event.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct JudgeNote<'a> {
    /// How many times kubectl wait prints this event's object: once when it first meets an
    /// `--until` condition (once per condition met under kubectl wait's repeated `--for`), else
    /// none. What `-o name` under `--until` prints.
    pub prints: usize,
    /// The object's judgement by this event under the readiness rules, before a stuck child's
    /// grace weighs in: the line `rollout status` says for a kind kubectl has no viewer of.
    pub judgement: Option<&'a Judgement>,
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

impl<S: Sink + ?Sized> Sink for Box<S> {
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

/// An object nested deeper than the API server allows, refused before any sink walks it.
#[derive(Debug, thiserror::Error)]
#[error("{object}: exceeded max depth: it nests more than {limit} levels, the API server's limit")]
pub struct TooDeep {
    /// `deployment.apps/web`, as `-o name` says it.
    pub object: String,
    pub limit: usize,
}

/// Refuses every object nested more than `MAX_DEPTH` levels (kubectl's `exceeded max depth`),
/// outermost in front of the printers and the judge: what gets past it is what their walks and
/// the threads' stacks (`depth::STACK`) are sized for. The check costs nothing for an object
/// too small or with too few brackets to be that deep (`depth::exceeds`).
pub struct DepthBound<S> {
    inner: S,
}

impl<S: Sink> DepthBound<S> {
    pub fn new(inner: S) -> DepthBound<S> {
        DepthBound { inner }
    }
}

impl<S: Sink> Sink for DepthBound<S> {
    fn event(&mut self, event: &Event<'_>) -> io::Result<Flow> {
        if depth::exceeds(event.object.get(), MAX_DEPTH) {
            let kind = kind_prefix(&event.resource.kind, &event.resource.group);
            let too_deep = TooDeep {
                object: format!("{kind}/{}", event.name),
                limit: MAX_DEPTH,
            };
            return Err(io::Error::new(io::ErrorKind::InvalidData, too_deep));
        }
        self.inner.event(event)
    }

    fn checkpoint(&mut self, more_ready: bool) -> io::Result<Flow> {
        self.inner.checkpoint(more_ready)
    }

    fn synced(&mut self) -> io::Result<Flow> {
        self.inner.synced()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_kind_prefix_is_the_kind_lowered_and_its_group() {
        assert_eq!(kind_prefix("Pod", ""), "pod");
        assert_eq!(kind_prefix("Deployment", "apps"), "deployment.apps");
        assert_eq!(kind_prefix("Deployment", "v1.apps"), "deployment.v1.apps");
        assert_eq!(
            kind_prefix("HorizontalPodAutoscaler", "autoscaling"),
            "horizontalpodautoscaler.autoscaling"
        );
    }

    /// Go's `strings.ToLower` (kubectl's) where ASCII lowering and Rust's `to_lowercase` say
    /// otherwise: the KELVIN SIGN (U+212A) and `İ` (U+0130) lower to ASCII in Go, and Go has no
    /// final-sigma rule.
    #[test]
    fn the_kind_is_lowered_as_go_lowers_it() {
        let kelvin = "\u{212A}elvin";
        assert_eq!(kind_prefix(kelvin, "example.com"), "kelvin.example.com");
        assert_ne!(kelvin.to_ascii_lowercase(), "kelvin");
        let dotted = "\u{130}tem";
        assert_eq!(kind_prefix(dotted, ""), "item");
        assert_ne!(dotted.to_ascii_lowercase(), "item");
        assert_ne!(dotted.to_lowercase(), "item");
        assert_eq!(kind_prefix("\u{39F}\u{3A3}", ""), "\u{3BF}\u{3C3}");
        assert_ne!("\u{39F}\u{3A3}".to_lowercase(), "\u{3BF}\u{3C3}");
    }
}

/// Watches opened again after one ended (the server's timeout, a broken connection, an
/// expired version), counted over every watcher handed the same counter: the runner makes one
/// per run and the live view's footer shows it. Clones share the count.
#[derive(Debug, Clone, Default)]
pub struct Reconnects(std::sync::Arc<std::sync::atomic::AtomicU64>);

impl Reconnects {
    /// How many times the watchers counted here have reconnected.
    pub fn count(&self) -> u64 {
        self.0.load(std::sync::atomic::Ordering::Relaxed)
    }

    /// One more watch opened again (the watcher counts its own).
    pub fn one_more(&self) {
        self.0.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    }
}
