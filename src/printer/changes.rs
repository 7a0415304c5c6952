//! `--diff`: what changed in an object since kw last saw it. kw remembers the last version of
//! each watched object (so memory is bounded by what is watched) and, for a MODIFIED event,
//! lists the changed fields, ignoring `metadata.resourceVersion`, `metadata.managedFields` and
//! `metadata.generation`, which change on every write and say nothing.
//!
//! Changes print as `status.phase: Pending → Running` lines under a table row, and as RFC 6902
//! operations (`{"op":"replace","path":"/status/phase","value":"Running"}`) in JSON.

use std::collections::HashMap;

use serde_json::{json, Map, Value};

use crate::wire::EventType;

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
}

impl Changes {
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
        // Several contexts can each have `default/web`.
        let key = (
            context.unwrap_or_default().to_string(),
            namespace.to_string(),
            name.to_string(),
        );
        if kind == EventType::Deleted {
            self.objects.remove(&key);
            return Vec::new();
        }
        let trimmed = trim(object);
        let changes = match (kind, self.objects.get(&key)) {
            (EventType::Modified, Some(old)) => {
                let mut changes = Vec::new();
                diff(&mut Vec::new(), Some(old), Some(&trimmed), &mut changes);
                changes
            }
            _ => Vec::new(),
        };
        self.objects.insert(key, trimmed);
        changes
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

/// `status.phase: Pending → Running` (`(none)` for a field that was added or removed).
pub fn describe(change: &Change) -> String {
    let show = |value: &Option<Value>| match value {
        None => "(none)".to_string(),
        Some(Value::String(text)) => text.clone(),
        Some(other) => other.to_string(),
    };
    format!(
        "{}: {} → {}",
        change.path.join("."),
        show(&change.old),
        show(&change.new)
    )
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
        let text: Vec<String> = found.iter().map(describe).collect();
        assert_eq!(
            text,
            [
                "metadata.labels.a: 1 → (none)",
                "metadata.labels.b: (none) → 2",
                "spec.replicas: 2 → 3",
                "status.phase: Pending → Running"
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
}
