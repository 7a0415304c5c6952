//! JSON Patch (RFC 6902): a list of operations on JSON Pointers (RFC 6901), applied in order;
//! any failing operation fails the whole patch, as kube-apiserver's json-patch library does.
//!
//! Bounded as kube-apiserver bounds it (the CVE-2019-11253 class: a short patch whose copies
//! double a list each time): at most [`MAX_OPERATIONS`] operations (413), and the values
//! `copy` duplicates may add up to [`MAX_COPY_BYTES`] of JSON (422), as apiserver's
//! `JSONPatchMaxCopyBytes` arms json-patch's `AccumulatedCopySizeLimit`.

use std::io::Write;

use serde_json::Value;

use super::error::PatchError;

/// kube-apiserver's `maxJSONPatchOperations`.
pub const MAX_OPERATIONS: usize = 10_000;
/// kube-apiserver's `JSONPatchMaxCopyBytes` (3 MiB, its request body limit).
pub const MAX_COPY_BYTES: u64 = 3 * 1024 * 1024;

pub fn apply(current: &Value, patch: &Value) -> Result<Value, PatchError> {
    let Value::Array(operations) = patch else {
        return Err(PatchError::Malformed(
            "json: cannot unmarshal object into Go value of type jsonpatch.Patch".into(),
        ));
    };
    if operations.len() > MAX_OPERATIONS {
        return Err(PatchError::TooLarge(format!(
            "The allowed maximum operations in a JSON patch is {MAX_OPERATIONS}, got {}",
            operations.len()
        )));
    }
    let mut copied: u64 = 0;
    let mut document = current.clone();
    for operation in operations {
        let op = operation["op"].as_str().unwrap_or("");
        let path = member(operation, "path")?;
        match op {
            "add" => add(&mut document, path, value_of(operation)?)?,
            "remove" => {
                remove(&mut document, path)?;
            }
            "replace" => {
                remove(&mut document, path)?;
                add(&mut document, path, value_of(operation)?)?;
            }
            "move" => {
                let value = remove(&mut document, member(operation, "from")?)?;
                add(&mut document, path, value)?;
            }
            "copy" => {
                let from = member(operation, "from")?;
                let source = document.pointer(from).ok_or_else(|| missing(from))?;
                // Measured before it is cloned: the clone is what must not happen unbounded.
                copied = copied.saturating_add(json_size(
                    source,
                    MAX_COPY_BYTES - copied.min(MAX_COPY_BYTES),
                ));
                if copied > MAX_COPY_BYTES {
                    return Err(PatchError::Unapplicable(format!(
                        "Unable to complete the copy, the accumulated size increase of copy is {copied}, exceeding the limit {MAX_COPY_BYTES}"
                    )));
                }
                let value = source.clone();
                add(&mut document, path, value)?;
            }
            "test" => {
                if document.pointer(path) != Some(&value_of(operation)?) {
                    return Err(PatchError::Unapplicable(format!(
                        "testing value {path} failed: test failed"
                    )));
                }
            }
            other => {
                return Err(PatchError::Unapplicable(format!(
                    "Unexpected kind: {other}"
                )))
            }
        }
    }
    Ok(document)
}

/// The length of `value` as JSON, counted without building the text, and only up to just past
/// `limit` (a value larger than the budget is not walked to its end).
fn json_size(value: &Value, limit: u64) -> u64 {
    struct Counter {
        count: u64,
        limit: u64,
    }
    impl Write for Counter {
        fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
            self.count += bytes.len() as u64;
            if self.count > self.limit {
                return Err(std::io::Error::other("over the limit"));
            }
            Ok(bytes.len())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }
    let mut counter = Counter { count: 0, limit };
    let _ = serde_json::to_writer(&mut counter, value);
    counter.count
}

fn member<'a>(operation: &'a Value, name: &str) -> Result<&'a str, PatchError> {
    operation[name]
        .as_str()
        .ok_or_else(|| PatchError::Unapplicable(format!("operation missing {name} field")))
}

fn value_of(operation: &Value) -> Result<Value, PatchError> {
    operation
        .get("value")
        .cloned()
        .ok_or_else(|| PatchError::Unapplicable("operation missing value field".into()))
}

fn missing(path: &str) -> PatchError {
    PatchError::Unapplicable(format!("doc is missing path: \"{path}\": missing value"))
}

/// The parent's pointer and the last token, unescaped (`~1` is `/`, `~0` is `~`).
fn split(path: &str) -> Result<(&str, String), PatchError> {
    let at = path.rfind('/').ok_or_else(|| missing(path))?;
    let token = path[at + 1..].replace("~1", "/").replace("~0", "~");
    Ok((&path[..at], token))
}

fn add(document: &mut Value, path: &str, value: Value) -> Result<(), PatchError> {
    if path.is_empty() {
        *document = value;
        return Ok(());
    }
    let (parent, token) = split(path)?;
    match document.pointer_mut(parent) {
        Some(Value::Object(map)) => {
            map.insert(token, value);
            Ok(())
        }
        Some(Value::Array(items)) => {
            let index = if token == "-" {
                items.len()
            } else {
                token
                    .parse::<usize>()
                    .ok()
                    .filter(|index| *index <= items.len())
                    .ok_or_else(|| missing(path))?
            };
            items.insert(index, value);
            Ok(())
        }
        _ => Err(missing(path)),
    }
}

fn remove(document: &mut Value, path: &str) -> Result<Value, PatchError> {
    let (parent, token) = split(path)?;
    let removed = match document.pointer_mut(parent) {
        Some(Value::Object(map)) => map.remove(&token),
        Some(Value::Array(items)) => token
            .parse::<usize>()
            .ok()
            .filter(|index| *index < items.len())
            .map(|index| items.remove(index)),
        _ => None,
    };
    removed.ok_or_else(|| missing(path))
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn replaces_adds_removes_in_order() {
        let current =
            json!({"spec": {"template": {"a": 1}}, "metadata": {"annotations": {"x": "1"}}});
        let patch = json!([
            {"op": "replace", "path": "/spec/template", "value": {"b": 2}},
            {"op": "replace", "path": "/metadata/annotations", "value": {"y": "2"}},
            {"op": "add", "path": "/spec/list", "value": [1]},
            {"op": "add", "path": "/spec/list/-", "value": 2},
            {"op": "add", "path": "/spec/list/0", "value": 0},
            {"op": "remove", "path": "/spec/list/1"},
            {"op": "add", "path": "/metadata/labels", "value": {"a~b/c": "v"}},
            {"op": "test", "path": "/metadata/labels/a~0b~1c", "value": "v"},
        ]);
        assert_eq!(
            apply(&current, &patch).unwrap(),
            json!({"spec": {"template": {"b": 2}, "list": [0, 2]},
                   "metadata": {"annotations": {"y": "2"}, "labels": {"a~b/c": "v"}}})
        );
    }

    #[test]
    fn copies_that_double_a_list_are_stopped_at_the_servers_limit() {
        let mut operations = vec![json!({"op": "add", "path": "/x", "value": [0]})];
        operations.extend((0..25).map(|_| json!({"op": "copy", "from": "/x", "path": "/x/-"})));
        let error = apply(&json!({}), &Value::Array(operations)).unwrap_err();
        assert!(
            matches!(&error, PatchError::Unapplicable(m) if m.contains("exceeding the limit 3145728")),
            "{error:?}"
        );
        let many = vec![json!({"op": "test", "path": "", "value": {}}); MAX_OPERATIONS + 1];
        let error = apply(&json!({}), &Value::Array(many)).unwrap_err();
        assert_eq!(
            error,
            PatchError::TooLarge(
                "The allowed maximum operations in a JSON patch is 10000, got 10001".into()
            )
        );
    }

    #[test]
    fn a_failing_operation_fails_the_patch() {
        let current = json!({"spec": {}});
        let error = apply(
            &current,
            &json!([{"op": "replace", "path": "/spec/nope", "value": 1}]),
        );
        assert!(matches!(error, Err(PatchError::Unapplicable(m)) if m.contains("/spec/nope")));
        assert!(apply(&current, &json!({"op": "add"})).is_err());
        assert!(apply(
            &current,
            &json!([{"op": "test", "path": "/spec", "value": 1}])
        )
        .is_err());
    }
}
