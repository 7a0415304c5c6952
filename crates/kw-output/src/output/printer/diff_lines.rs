//! `--diff` for people: the changes between two versions of an object as short lines under a
//! table row, one per changed leaf field (`status.phase: Pending → Running`).
//!
//! What a person watching wants to see is what moved, so by default (`DiffDetail::Brief`):
//! - bookkeeping is left out: `managedFields`, `resourceVersion`, the `last*Time` stamps of
//!   conditions, `containerID`, `imageID`, `observedGeneration` (they change with every restart
//!   or write and say nothing a person acts on);
//! - a condition reads as `Ready: False → True` (with its reason in brackets), not as four
//!   fields of an array element at an index;
//! - list elements that carry a `name` (containers) or `type` (conditions) are matched by it
//!   and named by it (`containerStatuses[web].restartCount`), so an element added in front does
//!   not make every later one look changed;
//! - a part of the object that appeared or went away is one line of its leaves
//!   (`lastState.terminated: (none) → exitCode=137 reason=Error …`), fields at their zero value
//!   (`false`, `0`, `""`, `{}`, `[]`, `null`) left out: they are defaults, not news;
//! - `podIPs`/`hostIPs` are left out while they only repeat `podIP`/`hostIP`.
//!
//! `DiffDetail::All` (`--diff=all`) shows every changed leaf. Either way values are shortened to
//! about 60 columns and a line to the terminal's width; the RFC 6902 `"diff"` of JSON lines
//! (`changes::json_patch`) is not touched by any of this.

use std::collections::{HashMap, HashSet};

use serde_json::{Map, Value};
use unicode_width::UnicodeWidthChar;

/// `--diff[=brief|all]`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum DiffDetail {
    /// Bookkeeping hidden, conditions folded (the default).
    #[default]
    Brief,
    /// Every changed leaf.
    All,
}

impl std::str::FromStr for DiffDetail {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s {
            "brief" => Ok(DiffDetail::Brief),
            "all" => Ok(DiffDetail::All),
            other => Err(format!("--diff must be brief or all, not {other:?}")),
        }
    }
}

/// Fields that change with every write or restart and say nothing a person acts on.
const BOOKKEEPING: &[&str] = &[
    "managedFields",
    "resourceVersion",
    "lastTransitionTime",
    "lastHeartbeatTime",
    "lastProbeTime",
    "lastUpdateTime",
    "containerID",
    "imageID",
    "observedGeneration",
];

/// Stack to keep free before going a level deeper, and how much to add when there is less.
const RED_ZONE: usize = 64 * 1024;
const STACK_STEP: usize = 1024 * 1024;

/// The longest value shown, in terminal columns.
pub const VALUE_WIDTH: usize = 60;

/// One changed field, ready to be laid out: its path and its values as text (`None`: absent).
#[derive(Debug, Clone, PartialEq)]
pub struct FieldChange {
    pub path: String,
    pub old: Option<String>,
    pub new: Option<String>,
}

/// What changed from `old` to `new`, one entry per changed leaf, in key order.
pub fn field_changes(old: &Value, new: &Value, detail: DiffDetail) -> Vec<FieldChange> {
    let mut walk = Walk {
        detail,
        out: Vec::new(),
    };
    walk.value(&mut String::new(), None, Some(old), Some(new), &[]);
    walk.out
}

struct Walk {
    detail: DiffDetail,
    out: Vec<FieldChange>,
}

impl Walk {
    fn brief(&self) -> bool {
        self.detail == DiffDetail::Brief
    }

    /// Compare the values at `path` (`key`: the last object key on the way, for the filter;
    /// `skip`: fields of these objects already said by the path, such as an element's name).
    fn value(
        &mut self,
        path: &mut String,
        key: Option<&str>,
        a: Option<&Value>,
        b: Option<&Value>,
        skip: &[&str],
    ) {
        // Objects may nest thousands deep (see `kw_events::decode::value`): the stack grows on
        // the heap rather than overflowing, and nothing below compares or copies whole
        // subtrees (serde_json's `==` and `clone` recurse on the thread's own stack).
        stacker::maybe_grow(RED_ZONE, STACK_STEP, || self.compare(path, key, a, b, skip));
    }

    fn compare(
        &mut self,
        path: &mut String,
        key: Option<&str>,
        a: Option<&Value>,
        b: Option<&Value>,
        skip: &[&str],
    ) {
        if self.brief() && key.is_some_and(|k| BOOKKEEPING.contains(&k)) {
            return;
        }
        // A part that appeared or went away is one line of its non-default leaves
        // (`(none) → exitCode=137 reason=Error`); conditions still get a line each.
        let one_sided = a.is_none() != b.is_none();
        let conditions = path == "status.conditions"
            && a.or(b)
                .and_then(Value::as_array)
                .is_some_and(|c| !c.is_empty());
        if self.brief() && one_sided && !conditions {
            let (old, new) = (a.map(|v| summary(v, skip)), b.map(|v| summary(v, skip)));
            if old.iter().chain(&new).all(String::is_empty) {
                return;
            }
            self.out.push(FieldChange {
                path: path.clone(),
                old,
                new,
            });
            return;
        }
        match (a, b) {
            (None, None) => {}
            (Some(Value::Object(x)), Some(Value::Object(y))) => {
                self.maps(path, Some(x), Some(y), skip)
            }
            (Some(Value::Object(x)), None) if !x.is_empty() => self.maps(path, Some(x), None, skip),
            (None, Some(Value::Object(y))) if !y.is_empty() => self.maps(path, None, Some(y), skip),
            (Some(Value::Array(x)), Some(Value::Array(y))) => self.arrays(path, Some(x), Some(y)),
            (Some(Value::Array(x)), None) if !x.is_empty() => self.arrays(path, Some(x), None),
            (None, Some(Value::Array(y))) if !y.is_empty() => self.arrays(path, None, Some(y)),
            // Values of different kinds are unequal at once, without looking inside.
            (Some(x), Some(y)) if x == y => {}
            _ => self.out.push(FieldChange {
                path: path.clone(),
                old: a.map(text),
                new: b.map(text),
            }),
        }
    }

    fn maps(
        &mut self,
        path: &mut String,
        a: Option<&Map<String, Value>>,
        b: Option<&Map<String, Value>>,
        skip: &[&str],
    ) {
        let mut keys: Vec<&String> = a.into_iter().chain(b).flat_map(|m| m.keys()).collect();
        keys.sort();
        keys.dedup();
        for key in keys {
            if skip.contains(&key.as_str()) {
                continue;
            }
            if self.brief() && [a, b].iter().all(|m| m.is_none_or(|m| echoes(m, key))) {
                continue;
            }
            let length = path.len();
            if !path.is_empty() {
                path.push('.');
            }
            path.push_str(key);
            self.value(
                path,
                Some(key),
                a.and_then(|m| m.get(key)),
                b.and_then(|m| m.get(key)),
                &[],
            );
            path.truncate(length);
        }
    }

    fn arrays(&mut self, path: &mut String, a: Option<&Vec<Value>>, b: Option<&Vec<Value>>) {
        let empty = Vec::new();
        let (x, y) = (a.unwrap_or(&empty), b.unwrap_or(&empty));
        if let Some(field) = element_key(x, y) {
            let conditions = self.brief() && field == "type" && path == "status.conditions";
            // New order first, then what went away, in its old order.
            let mut names: Vec<&str> = y
                .iter()
                .chain(x)
                .filter_map(|e| name_of(e, field))
                .collect();
            let mut seen = HashSet::with_capacity(names.len());
            names.retain(|name| seen.insert(*name));
            // Named lists can be long (thousands of entries in a custom resource): look
            // elements up by name rather than scanning for each.
            let (olds, news) = (by_name(x, field), by_name(y, field));
            for name in names {
                let (old, new) = (olds.get(name).copied(), news.get(name).copied());
                if conditions {
                    self.condition(name, old, new);
                    continue;
                }
                let length = path.len();
                path.push('[');
                path.push_str(name);
                path.push(']');
                // The element's name is in the path already.
                self.value(path, None, old, new, &[field]);
                path.truncate(length);
            }
            return;
        }
        let scalars = x.iter().chain(y).all(|v| !v.is_object() && !v.is_array());
        if x.len() != y.len() && scalars {
            // `[a, b] → [a, b, c]` says it best for a list of words.
            let list = |v: &Vec<Value>| Value::Array(v.clone()).to_string();
            self.out.push(FieldChange {
                path: path.clone(),
                old: a.map(list),
                new: b.map(list),
            });
            return;
        }
        for index in 0..x.len().max(y.len()) {
            let length = path.len();
            path.push('[');
            path.push_str(&index.to_string());
            path.push(']');
            self.value(path, None, x.get(index), y.get(index), &[]);
            path.truncate(length);
        }
    }

    /// A condition of `status.conditions`: `Ready: False (ContainersNotReady) → True` when its
    /// status changed (or it appeared or went away), `Ready.reason: …` lines otherwise.
    fn condition(&mut self, name: &str, old: Option<&Value>, new: Option<&Value>) {
        fn word<'v>(v: Option<&'v Value>, key: &str) -> Option<&'v str> {
            v.and_then(|c| c.get(key)).and_then(Value::as_str)
        }
        if old.is_none() || new.is_none() || word(old, "status") != word(new, "status") {
            let shown = |v: Option<&Value>| {
                let status = word(v, "status").unwrap_or("(none)");
                Some(match word(v, "reason") {
                    Some(reason) if !reason.is_empty() => format!("{status} ({reason})"),
                    _ => status.to_string(),
                })
                .filter(|_| v.is_some())
            };
            self.out.push(FieldChange {
                path: name.to_string(),
                old: shown(old),
                new: shown(new),
            });
            return;
        }
        let (Some(Value::Object(old)), Some(Value::Object(new))) = (old, new) else {
            return;
        };
        self.maps(
            &mut name.to_string(),
            Some(old),
            Some(new),
            &["type", "status"],
        );
    }
}

/// Whether `map[key]` only repeats a field beside it: `podIPs: [{ip: X}]` next to `podIP: X`
/// (and `hostIPs`), which a single-stack cluster always sends. A second address is news.
fn echoes(map: &Map<String, Value>, key: &str) -> bool {
    let Some(single) = key.strip_suffix('s').filter(|s| s.ends_with("IP")) else {
        return false;
    };
    let Some(list) = map.get(key) else {
        return true;
    };
    let one = map.get(single).and_then(Value::as_str);
    match list.as_array().map(Vec::as_slice) {
        Some([only]) => only.get("ip").and_then(Value::as_str) == one && one.is_some(),
        Some([]) => true,
        _ => false,
    }
}

/// The field that names the elements of both lists, if every element has a distinct one:
/// `name` (containers, ports, volumes) or `type` (conditions).
fn element_key(x: &[Value], y: &[Value]) -> Option<&'static str> {
    if x.is_empty() && y.is_empty() {
        return None;
    }
    ["name", "type"].into_iter().find(|field| {
        [x, y].iter().all(|list| {
            let mut names: Vec<&str> = list.iter().filter_map(|e| name_of(e, field)).collect();
            let all_named = names.len() == list.len();
            names.sort_unstable();
            names.dedup();
            all_named && names.len() == list.len()
        })
    })
}

/// A part of an object on one line: its leaves as `path=value`, bookkeeping, zero values and
/// the fields in `skip` left out (`state.waiting.reason=ContainerCreating`).
fn summary(value: &Value, skip: &[&str]) -> String {
    let mut parts = Vec::new();
    leaves(&mut String::new(), value, skip, &mut parts);
    parts.join(" ")
}

fn leaves(path: &mut String, value: &Value, skip: &[&str], out: &mut Vec<String>) {
    stacker::maybe_grow(RED_ZONE, STACK_STEP, || leaves_here(path, value, skip, out));
}

fn leaves_here(path: &mut String, value: &Value, skip: &[&str], out: &mut Vec<String>) {
    let length = path.len();
    match value {
        Value::Object(map) => {
            for (key, value) in map {
                if BOOKKEEPING.contains(&key.as_str()) || skip.contains(&key.as_str()) {
                    continue;
                }
                if !path.is_empty() {
                    path.push('.');
                }
                path.push_str(key);
                leaves(path, value, &[], out);
                path.truncate(length);
            }
        }
        Value::Array(items) => {
            let field = element_key(items, items);
            for (index, item) in items.iter().enumerate() {
                path.push('[');
                match field.and_then(|f| Some((f, name_of(item, f)?))) {
                    Some((field, name)) => {
                        path.push_str(name);
                        path.push(']');
                        leaves(path, item, &[field], out);
                    }
                    None => {
                        path.push_str(&index.to_string());
                        path.push(']');
                        leaves(path, item, &[], out);
                    }
                }
                path.truncate(length);
            }
        }
        leaf if is_zero(leaf) => {}
        leaf if path.is_empty() => out.push(text(leaf)),
        leaf => out.push(format!("{path}={}", text(leaf))),
    }
}

/// The elements of a named list by name.
fn by_name<'v>(list: &'v [Value], field: &str) -> HashMap<&'v str, &'v Value> {
    list.iter()
        .filter_map(|e| Some((name_of(e, field)?, e)))
        .collect()
}

fn name_of<'v>(element: &'v Value, field: &str) -> Option<&'v str> {
    element.get(field).and_then(Value::as_str)
}

fn is_zero(value: &Value) -> bool {
    match value {
        Value::Null => true,
        Value::Bool(b) => !b,
        Value::Number(n) => n.as_f64() == Some(0.0),
        Value::String(s) => s.is_empty(),
        Value::Array(a) => a.is_empty(),
        Value::Object(m) => m.is_empty(),
    }
}

/// A value as a person reads it: strings bare, other scalars as JSON, a list or an object as
/// its leaves (`ip=10.0.0.1`; `{}` and `[]` when empty).
fn text(value: &Value) -> String {
    match value {
        Value::String(s) => s.clone(),
        Value::Object(m) if m.is_empty() => "{}".to_string(),
        Value::Array(a) if a.is_empty() => "[]".to_string(),
        Value::Object(_) | Value::Array(_) => summary(value, &[]),
        scalar => scalar.to_string(),
    }
}

/// `text` on one line and harmless to a terminal: line breaks and tabs become spaces, and other
/// control characters are shown as table cells show them (`crate::output::escape`: ESC as `^[`, BEL as
/// `^G`, CSI as `\u{9b}`).
fn one_line(text: &str) -> String {
    let flat = text.replace(['\t', '\n', '\r'], " ");
    crate::output::escape::escaped(&flat).into_owned()
}

/// `path: old → new` (`(none)` for an absent value), values cut to `VALUE_WIDTH` columns and
/// the whole to `width` columns when one is given.
pub fn describe_field(change: &FieldChange, width: Option<usize>) -> String {
    let shown = |v: &Option<String>| one_line(v.as_deref().unwrap_or("(none)"));
    let (old, new) = (shown(&change.old), shown(&change.new));
    let path = one_line(&change.path);
    let (mut old_limit, mut new_limit) = (VALUE_WIDTH, VALUE_WIDTH);
    if let Some(width) = width {
        // Room left for the two values once the path and the separators are placed; a short
        // value leaves the rest of it to the other.
        let fixed = columns(&path) + ": ".len() + " → ".chars().count();
        let room = width.saturating_sub(fixed);
        let (old_width, new_width) = (
            columns(&old).min(VALUE_WIDTH),
            columns(&new).min(VALUE_WIDTH),
        );
        if old_width + new_width > room {
            let half = (room / 2).max(8);
            (old_limit, new_limit) = if old_width <= half {
                (old_width, room.saturating_sub(old_width).max(8))
            } else if new_width <= half {
                (room.saturating_sub(new_width).max(8), new_width)
            } else {
                (half, half)
            };
        }
    }
    let line = format!(
        "{path}: {} → {}",
        shorten(&old, old_limit),
        shorten(&new, new_limit)
    );
    match width {
        Some(width) => shorten(&line, width),
        None => line,
    }
}

/// `text` in at most `limit` terminal columns, ending in `…` when it was cut.
pub fn shorten(text: &str, limit: usize) -> String {
    if columns(text) <= limit {
        return text.to_string();
    }
    let mut out = String::new();
    let mut used = 0;
    for ch in text.chars() {
        let w = ch.width().unwrap_or(0);
        if used + w + 1 > limit {
            break;
        }
        used += w;
        out.push(ch);
    }
    if limit > 0 {
        out.push('…');
    }
    out
}

fn columns(text: &str) -> usize {
    text.chars().map(|c| c.width().unwrap_or(0)).sum()
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn lines(old: Value, new: Value, detail: DiffDetail) -> Vec<String> {
        field_changes(&old, &new, detail)
            .iter()
            .map(|c| describe_field(c, None))
            .collect()
    }

    fn pod(ready: &str, restarts: u64, id: &str) -> Value {
        json!({
            "metadata": {"name": "web", "resourceVersion": id, "managedFields": [{"manager": id}]},
            "status": {
                "phase": if ready == "True" { "Running" } else { "Pending" },
                "observedGeneration": restarts,
                "conditions": [
                    {"type": "PodScheduled", "status": "True", "lastTransitionTime": "t0"},
                    {"type": "Ready", "status": ready, "lastTransitionTime": id,
                     "lastProbeTime": null,
                     "reason": if ready == "True" { "" } else { "ContainersNotReady" }}
                ],
                "containerStatuses": [
                    {"name": "web", "restartCount": restarts, "containerID": id,
                     "imageID": id, "ready": ready == "True"}
                ]
            }
        })
    }

    #[test]
    fn bookkeeping_is_hidden_and_conditions_read_as_words() {
        let found = lines(
            pod("False", 26, "1"),
            pod("True", 27, "2"),
            DiffDetail::Brief,
        );
        assert_eq!(
            found,
            [
                "Ready: False (ContainersNotReady) → True",
                "status.containerStatuses[web].ready: false → true",
                "status.containerStatuses[web].restartCount: 26 → 27",
                "status.phase: Pending → Running",
            ]
        );
    }

    #[test]
    fn all_shows_every_changed_leaf() {
        let found = lines(pod("False", 26, "1"), pod("True", 27, "2"), DiffDetail::All);
        for expected in [
            "metadata.managedFields[0].manager: 1 → 2",
            "metadata.resourceVersion: 1 → 2",
            "status.conditions[Ready].lastTransitionTime: 1 → 2",
            "status.conditions[Ready].reason: ContainersNotReady → ",
            "status.conditions[Ready].status: False → True",
            "status.containerStatuses[web].containerID: 1 → 2",
            "status.containerStatuses[web].imageID: 1 → 2",
            "status.observedGeneration: 26 → 27",
            "status.phase: Pending → Running",
        ] {
            assert!(
                found.iter().any(|l| l == expected),
                "{expected}: {found:#?}"
            );
        }
    }

    #[test]
    fn a_condition_whose_status_stays_shows_what_else_moved() {
        let old = json!({"status": {"conditions": [
            {"type": "Progressing", "status": "True", "reason": "ReplicaSetUpdated",
             "lastUpdateTime": "a"}]}});
        let new = json!({"status": {"conditions": [
            {"type": "Progressing", "status": "True", "reason": "NewReplicaSetAvailable",
             "lastUpdateTime": "b"}]}});
        assert_eq!(
            lines(old, new, DiffDetail::Brief),
            ["Progressing.reason: ReplicaSetUpdated → NewReplicaSetAvailable"]
        );
        let appeared = json!({"status": {"conditions": [
            {"type": "Ready", "status": "False", "reason": "ContainersNotReady",
             "message": "containers with unready status: [web]"}]}});
        assert_eq!(
            lines(json!({"status": {}}), appeared.clone(), DiffDetail::Brief),
            ["Ready: (none) → False (ContainersNotReady)"]
        );
        assert_eq!(
            lines(
                appeared,
                json!({"status": {"conditions": []}}),
                DiffDetail::Brief
            ),
            ["Ready: False (ContainersNotReady) → (none)"]
        );
    }

    #[test]
    fn a_part_that_appears_is_one_line_without_defaults() {
        let old = json!({"status": {"containerStatuses": [
            {"name": "web", "restartCount": 0, "lastState": {}}]}});
        let new = json!({"status": {"containerStatuses": [
            {"name": "web", "restartCount": 1, "lastState": {"terminated": {
                "exitCode": 137, "reason": "Error", "signal": 0, "containerID": "c",
                "finishedAt": "2026-01-01T12:00:00Z"}}},
            {"name": "sidecar", "ready": false, "image": "envoy", "restartCount": 0,
             "state": {"waiting": {"reason": "ContainerCreating"}}}],
            "podIPs": [{"ip": "10.0.0.1"}]}});
        assert_eq!(
            lines(old, new.clone(), DiffDetail::Brief),
            [
                "status.containerStatuses[web].lastState.terminated: (none) → \
                 exitCode=137 finishedAt=2026-01-01T12:00:00Z reason=Error",
                "status.containerStatuses[web].restartCount: 0 → 1",
                "status.containerStatuses[sidecar]: (none) → \
                 image=envoy state.waiting.reason=ContainerCreating",
                "status.podIPs: (none) → [0].ip=10.0.0.1",
            ]
        );
        // Going away reads the same way round; a part of defaults only is not news.
        assert_eq!(
            lines(
                json!({"s": {"waiting": {"reason": "ContainerCreating"}}, "d": {"a": false}}),
                json!({"s": {}}),
                DiffDetail::Brief
            ),
            ["s.waiting: reason=ContainerCreating → (none)"]
        );
        // `all` shows each leaf of it.
        let found = lines(
            json!({"s": {}}),
            json!({"s": {"t": {"a": 0, "b": "x"}}}),
            DiffDetail::All,
        );
        assert_eq!(found, ["s.t.a: (none) → 0", "s.t.b: (none) → x"]);
    }

    #[test]
    fn address_lists_that_repeat_the_address_are_left_out() {
        let pod = |ip: Value, ips: Value| json!({"status": {"podIP": ip, "podIPs": ips}});
        assert_eq!(
            lines(
                json!({"status": {}}),
                pod(json!("10.0.0.1"), json!([{"ip": "10.0.0.1"}])),
                DiffDetail::Brief
            ),
            ["status.podIP: (none) → 10.0.0.1"]
        );
        let dual = json!([{"ip": "10.0.0.1"}, {"ip": "fd00::1"}]);
        assert_eq!(
            lines(
                pod(json!("10.0.0.1"), json!([{"ip": "10.0.0.1"}])),
                pod(json!("10.0.0.1"), dual),
                DiffDetail::Brief
            ),
            ["status.podIPs[1]: (none) → ip=fd00::1"]
        );
        let all = lines(
            json!({"status": {}}),
            pod(json!("10.0.0.1"), json!([{"ip": "10.0.0.1"}])),
            DiffDetail::All,
        );
        assert_eq!(all.len(), 2, "{all:?}");
    }

    #[test]
    fn lists_without_names_go_by_index_or_as_a_whole() {
        assert_eq!(
            lines(
                json!({"a": [1, 2]}),
                json!({"a": [1, 2, 3]}),
                DiffDetail::Brief
            ),
            ["a: [1,2] → [1,2,3]"]
        );
        assert_eq!(
            lines(
                json!({"ips": [{"ip": "a"}]}),
                json!({"ips": [{"ip": "b"}, {"ip": "c"}]}),
                DiffDetail::Brief
            ),
            ["ips[0].ip: a → b", "ips[1]: (none) → ip=c"]
        );
        // Two elements with one name: matching by name would lose one.
        assert_eq!(
            lines(
                json!({"e": [{"name": "x", "v": 1}, {"name": "x", "v": 2}]}),
                json!({"e": [{"name": "x", "v": 1}, {"name": "x", "v": 3}]}),
                DiffDetail::Brief
            ),
            ["e[1].v: 2 → 3"]
        );
    }

    #[test]
    fn long_values_are_shortened_and_lines_fit_the_width() {
        let long = "x".repeat(100);
        let change = FieldChange {
            path: "metadata.annotations.note".into(),
            old: None,
            new: Some(long.clone()),
        };
        let line = describe_field(&change, None);
        assert_eq!(
            line,
            format!("metadata.annotations.note: (none) → {}…", "x".repeat(59))
        );
        for width in [20, 40, 76, 200] {
            let line = describe_field(&change, Some(width));
            assert!(columns(&line) <= width, "{width}: {line}");
            assert!(line.starts_with("metadata.annot"), "{line}");
        }
        let short = FieldChange {
            path: "status.phase".into(),
            old: Some("Pending".into()),
            new: Some("Running".into()),
        };
        // A short value leaves its room to the long one.
        assert_eq!(
            describe_field(&change, Some(40)),
            "metadata.annotations.note: (none) → xxx…"
        );
        let both = FieldChange {
            path: "a".into(),
            old: Some("o".repeat(30)),
            new: Some("n".repeat(30)),
        };
        assert_eq!(
            describe_field(&both, Some(30)),
            format!("a: {}… → {}…", "o".repeat(11), "n".repeat(11))
        );
        assert_eq!(
            describe_field(&short, Some(76)),
            "status.phase: Pending → Running"
        );
        // Wide characters count twice.
        assert_eq!(shorten("日本語のテキスト", 7), "日本語…");
        assert_eq!(shorten("abc", 3), "abc");
        assert_eq!(shorten("abcd", 3), "ab…");
    }

    #[test]
    fn deep_objects_need_no_deep_stack() {
        let nested = |leaf: &str| {
            let depth = 3_000;
            let text = format!("{}\"{leaf}\"{}", "{\"a\":".repeat(depth), "}".repeat(depth));
            kw_events::decode::value(&text).expect("json")
        };
        // The values themselves are built and dropped where the stack is ample (serde_json
        // drops recursively); the walk runs on a small one, and must grow its own.
        let on_stack = |size: usize, work: Box<dyn FnOnce() + Send>| {
            std::thread::Builder::new()
                .stack_size(size)
                .spawn(work)
                .expect("thread")
                .join()
                .expect("no overflow");
        };
        on_stack(
            64 << 20,
            Box::new(move || {
                let (old, new) = (nested("x"), nested("y"));
                std::thread::scope(|scope| {
                    let walk = std::thread::Builder::new()
                        .stack_size(128 << 10)
                        .spawn_scoped(scope, || {
                            let changed = field_changes(&old, &new, DiffDetail::Brief);
                            assert_eq!(changed.len(), 1);
                            assert_eq!(changed[0].new.as_deref(), Some("y"));
                            assert_eq!(changed[0].path.matches('a').count(), 3_000);
                            let appeared = field_changes(&json!({}), &new, DiffDetail::Brief);
                            assert!(appeared[0]
                                .new
                                .as_deref()
                                .is_some_and(|t| t.ends_with("=y")));
                            let replaced = field_changes(&json!({"a": 1}), &new, DiffDetail::All);
                            assert_eq!(replaced.len(), 1);
                        })
                        .expect("thread");
                    walk.join().expect("the walk did not overflow");
                });
            }),
        );
    }

    #[test]
    fn values_stay_on_one_line_and_cannot_drive_the_terminal() {
        assert_eq!(
            lines(
                json!({"m": "a"}),
                json!({"m": "b\nc\td"}),
                DiffDetail::Brief
            ),
            ["m: a → b c d"]
        );
        assert_eq!(
            lines(
                json!({"k\x1b[2J": "a"}),
                json!({"k\x1b[2J": "\x1b]0;title\x07"}),
                DiffDetail::Brief
            ),
            ["k^[[2J: a → ^[]0;title^G"]
        );
    }
}
