//! `--diff`: what changed in an object since kw last saw it. kw remembers the last version of
//! each watched object (so memory is bounded by what is watched) and, for a MODIFIED event,
//! lists the changed fields, ignoring `metadata.resourceVersion`, `metadata.managedFields` and
//! `metadata.generation`, which change on every write and say nothing (`--diff=all` in a table
//! keeps them).
//!
//! Changes print as RFC 6902 operations (`{"op":"replace","path":"/status/phase","value":
//! "Running"}`) in JSON, complete; under a table row they print for a person to read, see
//! `diff_lines`.

use std::collections::HashMap;

use serde_json::{json, Map, Value};

use kw_wire::EventType;

/// One changed field.
#[derive(Debug, Clone, PartialEq)]
pub struct Change {
    /// Keys and array indexes from the object's root.
    pub path: Vec<String>,
    pub old: Option<Value>,
    pub new: Option<Value>,
}

/// The last version of every object seen, by namespace and name.
#[derive(Debug, Default)]
pub struct Changes {
    objects: HashMap<(String, String, String), Value>,
    /// Keep the fields that change on every write (`--diff=all`).
    untrimmed: bool,
}

impl Changes {
    /// Remembers objects with the fields that change on every write (`--diff=all`).
    pub fn untrimmed() -> Changes {
        Changes {
            untrimmed: true,
            ..Changes::default()
        }
    }

    /// Remember `object` and return what changed (for MODIFIED events; other events return
    /// nothing, and DELETED forgets the object).
    pub fn record(
        &mut self,
        kind: EventType,
        context: Option<&str>,
        namespace: &str,
        name: &str,
        object: &Value,
    ) -> Vec<Change> {
        let mut changes = Vec::new();
        if let Some((old, new)) = self.remember(kind, context, namespace, name, object) {
            diff(&mut Vec::new(), Some(&old), Some(new), &mut changes);
        }
        changes
    }

    /// Remember `object`; for a MODIFIED event of an object seen before, return the version
    /// seen last and this one as remembered (trimmed unless `untrimmed`). DELETED forgets.
    pub fn remember(
        &mut self,
        kind: EventType,
        context: Option<&str>,
        namespace: &str,
        name: &str,
        object: &Value,
    ) -> Option<(Value, &Value)> {
        // Several contexts can each have `default/web`.
        let key = (
            context.unwrap_or_default().to_string(),
            namespace.to_string(),
            name.to_string(),
        );
        if kind == EventType::Deleted {
            self.objects.remove(&key);
            return None;
        }
        let kept = if self.untrimmed {
            object.clone()
        } else {
            trim(object)
        };
        let old = self.objects.insert(key.clone(), kept);
        match (kind, old) {
            (EventType::Modified, Some(old)) => Some((old, self.objects.get(&key)?)),
            _ => None,
        }
    }
}

/// The object without the fields that change on every write.
pub(crate) fn trim(object: &Value) -> Value {
    let mut copy = object.clone();
    if let Some(Value::Object(metadata)) = copy.get_mut("metadata") {
        metadata.remove("resourceVersion");
        metadata.remove("managedFields");
        metadata.remove("generation");
    }
    copy
}

fn diff(path: &mut Vec<String>, old: Option<&Value>, new: Option<&Value>, out: &mut Vec<Change>) {
    // Objects may nest thousands deep (see `kw_events::decode::value`): grow the stack on the heap.
    stacker::maybe_grow(64 * 1024, 1024 * 1024, || diff_here(path, old, new, out));
}

fn diff_here(
    path: &mut Vec<String>,
    old: Option<&Value>,
    new: Option<&Value>,
    out: &mut Vec<Change>,
) {
    match (old, new) {
        (Some(Value::Object(a)), Some(Value::Object(b))) => diff_maps(path, a, b, out),
        (Some(Value::Array(a)), Some(Value::Array(b))) if a.len() == b.len() => {
            for (index, (x, y)) in a.iter().zip(b).enumerate() {
                path.push(index.to_string());
                diff(path, Some(x), Some(y), out);
                path.pop();
            }
        }
        (a, b) if a != b => out.push(Change {
            path: path.clone(),
            old: a.cloned(),
            new: b.cloned(),
        }),
        _ => {}
    }
}

fn diff_maps(
    path: &mut Vec<String>,
    a: &Map<String, Value>,
    b: &Map<String, Value>,
    out: &mut Vec<Change>,
) {
    let mut keys: Vec<&String> = a.keys().chain(b.keys()).collect();
    keys.sort();
    keys.dedup();
    for key in keys {
        path.push(key.clone());
        diff(path, a.get(key), b.get(key), out);
        path.pop();
    }
}

/// The changes as RFC 6902 operations.
pub fn json_patch(changes: &[Change]) -> Value {
    let ops: Vec<Value> = changes
        .iter()
        .map(|change| {
            let pointer: String = change
                .path
                .iter()
                .map(|part| format!("/{}", part.replace('~', "~0").replace('/', "~1")))
                .collect();
            match (&change.old, &change.new) {
                (None, Some(value)) => json!({"op": "add", "path": pointer, "value": value}),
                (Some(_), None) => json!({"op": "remove", "path": pointer}),
                (_, value) => json!({"op": "replace", "path": pointer, "value": value}),
            }
        })
        .collect();
    Value::Array(ops)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn modified_objects_report_changed_fields_only() {
        let mut changes = Changes::default();
        let v1 = json!({"metadata": {"name": "p", "resourceVersion": "1", "labels": {"a": "1"}},
                        "spec": {"replicas": 2}, "status": {"phase": "Pending"}});
        let v2 = json!({"metadata": {"name": "p", "resourceVersion": "2", "generation": 3,
                                     "labels": {"b": "2"}},
                        "spec": {"replicas": 3}, "status": {"phase": "Running"}});
        assert!(changes
            .record(EventType::Added, None, "ns", "p", &v1)
            .is_empty());
        let found = changes.record(EventType::Modified, None, "ns", "p", &v2);
        let paths: Vec<String> = found.iter().map(|c| c.path.join(".")).collect();
        assert_eq!(
            paths,
            [
                "metadata.labels.a",
                "metadata.labels.b",
                "spec.replicas",
                "status.phase"
            ]
        );
        assert_eq!(
            json_patch(&found),
            json!([
                {"op": "remove", "path": "/metadata/labels/a"},
                {"op": "add", "path": "/metadata/labels/b", "value": "2"},
                {"op": "replace", "path": "/spec/replicas", "value": 3},
                {"op": "replace", "path": "/status/phase", "value": "Running"}
            ])
        );
    }

    #[test]
    fn arrays_and_pointer_escapes() {
        let mut changes = Changes::default();
        changes.record(
            EventType::Added,
            None,
            "",
            "n",
            &json!({"a/b": [1, 2], "c": [1]}),
        );
        let found = changes.record(
            EventType::Modified,
            None,
            "",
            "n",
            &json!({"a/b": [1, 3], "c": [1, 2]}),
        );
        assert_eq!(
            json_patch(&found),
            json!([
                {"op": "replace", "path": "/a~1b/1", "value": 3},
                {"op": "replace", "path": "/c", "value": [1, 2]}
            ])
        );
        assert!(changes
            .record(EventType::Deleted, None, "", "n", &json!({}))
            .is_empty());
        assert!(changes
            .record(EventType::Modified, None, "", "n", &json!({"x": 1}))
            .is_empty());
    }

    #[test]
    fn untrimmed_keeps_what_changes_on_every_write() {
        let v1 = json!({"metadata": {"name": "p", "resourceVersion": "1"}});
        let v2 = json!({"metadata": {"name": "p", "resourceVersion": "2"}});
        let mut trimmed = Changes::default();
        trimmed.remember(EventType::Added, None, "", "p", &v1);
        let (old, new) = trimmed
            .remember(EventType::Modified, None, "", "p", &v2)
            .expect("seen before");
        assert_eq!(
            (old, new.clone()),
            (
                json!({"metadata": {"name": "p"}}),
                json!({"metadata": {"name": "p"}})
            )
        );
        let mut all = Changes::untrimmed();
        all.remember(EventType::Added, None, "", "p", &v1);
        let (old, new) = all
            .remember(EventType::Modified, None, "", "p", &v2)
            .expect("seen before");
        assert_eq!((&old, new), (&v1, &v2));
        assert!(all.remember(EventType::Added, None, "", "q", &v1).is_none());
    }
}
