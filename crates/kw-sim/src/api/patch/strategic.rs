//! The strategic merge patch, for the built-in types kubectl patches: objects merge as in a
//! merge patch, but a list of named things (containers, env, volumes, ports, conditions...)
//! merges element by element on its merge key, as the Go types' `patchMergeKey` tags say, and
//! the patch may carry directives: `$patch: replace|delete|merge`, `$retainKeys`,
//! `$setElementOrder/FIELD` and `$deleteFromPrimitiveList/FIELD`. Lists without a merge key
//! are replaced whole, as the Go types mark them atomic.

use std::collections::HashMap;

use serde_json::{Map, Value};

use super::error::PatchError;

const PATCH: &str = "$patch";
const RETAIN_KEYS: &str = "$retainKeys";
const SET_ORDER: &str = "$setElementOrder/";
const DELETE_PRIMITIVE: &str = "$deleteFromPrimitiveList/";

pub fn apply(current: &Value, patch: &Value) -> Result<Value, PatchError> {
    match patch {
        Value::Object(members) => merge_map(current, members),
        _ => Err(PatchError::Malformed(
            "unable to find api field in struct for the patch: the patch is not a JSON object"
                .into(),
        )),
    }
}

/// How the elements of the list under `field` merge: on this key, or as a set of primitives;
/// `None` replaces the list whole.
fn list_strategy(field: &str, items: &[Value]) -> Option<ListMerge> {
    let key = match field {
        "containers"
        | "initContainers"
        | "ephemeralContainers"
        | "volumes"
        | "env"
        | "imagePullSecrets"
        | "resourceClaims" => "name",
        "volumeMounts" => "mountPath",
        "volumeDevices" => "devicePath",
        "conditions" => "type",
        "ownerReferences" => "uid",
        "hostAliases" => "ip",
        "topologySpreadConstraints" => "topologyKey",
        // Container ports merge on containerPort, a Service's on port.
        "ports" if items.iter().any(|item| item.get("containerPort").is_some()) => "containerPort",
        "ports" => "port",
        "finalizers" => return Some(ListMerge::Set),
        _ => return None,
    };
    Some(ListMerge::Key(key))
}

#[derive(Debug, Clone, Copy)]
enum ListMerge {
    Key(&'static str),
    Set,
}

fn merge_map(current: &Value, patch: &Map<String, Value>) -> Result<Value, PatchError> {
    match patch.get(PATCH).and_then(Value::as_str) {
        Some("replace") => {
            let mut replaced = patch.clone();
            replaced.remove(PATCH);
            return Ok(Value::Object(strip_directives(replaced)));
        }
        Some("delete") => return Ok(Value::Null),
        Some("merge") | None => {}
        Some(other) => {
            return Err(PatchError::Unapplicable(format!(
                "Unknown patch type: {other} in map: {}",
                Value::Object(patch.clone())
            )))
        }
    }
    let mut merged = match current {
        Value::Object(map) => map.clone(),
        _ => Map::new(),
    };
    for (name, value) in patch {
        if name == PATCH || name == RETAIN_KEYS || name.starts_with(SET_ORDER) {
            continue;
        }
        if let Some(field) = name.strip_prefix(DELETE_PRIMITIVE) {
            let doomed = value.as_array().cloned().unwrap_or_default();
            if let Some(Value::Array(items)) = merged.get_mut(field) {
                items.retain(|item| !doomed.contains(item));
            }
            continue;
        }
        if value.is_null() {
            merged.remove(name);
            continue;
        }
        let before = merged.get(name).cloned().unwrap_or(Value::Null);
        let after = match value {
            Value::Object(members) => merge_map(&before, members)?,
            Value::Array(items) => merge_list(name, &before, items)?,
            other => other.clone(),
        };
        if after.is_null() {
            merged.remove(name);
        } else {
            merged.insert(name.clone(), after);
        }
    }
    for (name, order) in patch {
        if let (Some(field), Some(order)) = (name.strip_prefix(SET_ORDER), order.as_array()) {
            if let Some(Value::Array(items)) = merged.get_mut(field) {
                reorder(field, items, order);
            }
        }
    }
    if let Some(keep) = patch.get(RETAIN_KEYS).and_then(Value::as_array) {
        merged.retain(|name, _| keep.iter().any(|kept| kept.as_str() == Some(name)));
    }
    Ok(Value::Object(merged))
}

fn merge_list(field: &str, current: &Value, patch: &[Value]) -> Result<Value, PatchError> {
    let existing = current.as_array().cloned().unwrap_or_default();
    // `[{"$patch": "replace"}, ...]`: the rest of the patch is the whole list.
    if patch
        .iter()
        .any(|item| item.get(PATCH).and_then(Value::as_str) == Some("replace"))
    {
        let rest = patch
            .iter()
            .filter(|item| item.get(PATCH).is_none())
            .cloned()
            .collect();
        return Ok(Value::Array(rest));
    }
    let mut items = existing;
    match list_strategy(field, &items).or_else(|| list_strategy(field, patch)) {
        None => return Ok(Value::Array(strip_items(patch))),
        Some(ListMerge::Set) => {
            for item in patch {
                if !items.contains(item) {
                    items.push(item.clone());
                }
            }
        }
        Some(ListMerge::Key(key)) => return merge_keyed(items, key, patch),
    }
    Ok(Value::Array(items))
}

/// Merge `patch` into `items` element by element on `key`. The elements are found through a
/// map from key to place, so a patch of n elements into a list of m costs n + m, not n × m: a
/// patch naming 40,000 containers must not hold the server for minutes.
fn merge_keyed(items: Vec<Value>, key: &str, patch: &[Value]) -> Result<Value, PatchError> {
    let mut slots: Vec<Option<Value>> = items.into_iter().map(Some).collect();
    let mut places: HashMap<String, usize> = HashMap::with_capacity(slots.len());
    for (at, item) in slots.iter().enumerate() {
        if let Some(identity) = item.as_ref().and_then(|item| item.get(key)) {
            // The first element with a key is the one a patch merges into, as before.
            places.entry(identity.to_string()).or_insert(at);
        }
    }
    for item in patch {
        let Some(wanted) = item.get(key) else {
            return Err(PatchError::Unapplicable(format!(
                "map: {item} does not contain declared merge key: {key}"
            )));
        };
        let identity = wanted.to_string();
        let deleting = item.get(PATCH).and_then(Value::as_str) == Some("delete");
        let members = item.as_object().cloned().unwrap_or_default();
        match (places.get(&identity).copied(), deleting) {
            (Some(at), true) => {
                slots[at] = None;
                places.remove(&identity);
            }
            (None, true) => {}
            (Some(at), false) => {
                let merged = merge_map(slots[at].as_ref().unwrap_or(&Value::Null), &members)?;
                slots[at] = Some(merged);
            }
            (None, false) => {
                places.insert(identity, slots.len());
                slots.push(Some(merge_map(&Value::Null, &members)?));
            }
        }
    }
    Ok(Value::Array(slots.into_iter().flatten().collect()))
}

/// Order `items` as `order` lists them (by merge key or value); those it does not name keep
/// their place after the named ones, as the server sorts them.
fn reorder(field: &str, items: &mut [Value], order: &[Value]) {
    let key = match list_strategy(field, items) {
        Some(ListMerge::Key(key)) => Some(key),
        _ => None,
    };
    // Ranks by identity looked up in a map, as the merge above: linear in the two lists.
    let mut ranks: HashMap<String, usize> = HashMap::with_capacity(order.len());
    for (at, wanted) in order.iter().enumerate() {
        if let Some(named) = key.map_or(Some(wanted), |key| wanted.get(key)) {
            ranks.entry(named.to_string()).or_insert(at);
        }
    }
    let rank = |item: &Value| {
        key.map_or(Some(item), |key| item.get(key))
            .and_then(|identity| ranks.get(&identity.to_string()).copied())
            .unwrap_or(usize::MAX)
    };
    items.sort_by_cached_key(|item| rank(item));
}

fn strip_items(items: &[Value]) -> Vec<Value> {
    items
        .iter()
        .map(|item| match item {
            Value::Object(map) => Value::Object(strip_directives(map.clone())),
            other => other.clone(),
        })
        .collect()
}

fn strip_directives(mut map: Map<String, Value>) -> Map<String, Value> {
    map.retain(|name, _| {
        name != PATCH
            && name != RETAIN_KEYS
            && !name.starts_with(SET_ORDER)
            && !name.starts_with(DELETE_PRIMITIVE)
    });
    map
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn deployment() -> Value {
        json!({"spec": {"replicas": 3, "template": {"metadata": {"labels": {"app": "web"}},
        "spec": {"containers": [
            {"name": "web", "image": "nginx:1.27", "ports": [{"containerPort": 80}]},
            {"name": "log", "image": "busybox"}
        ]}}}})
    }

    #[test]
    fn set_image_merges_the_container_by_name() {
        let patch = json!({"spec": {"template": {"spec": {"containers": [
            {"image": "nginx:1.28", "name": "web"}]}}}});
        let patched = apply(&deployment(), &patch).unwrap();
        let containers = &patched["spec"]["template"]["spec"]["containers"];
        assert_eq!(containers[0]["image"], "nginx:1.28");
        assert_eq!(containers[0]["ports"][0]["containerPort"], 80);
        assert_eq!(containers[1]["image"], "busybox");
    }

    #[test]
    fn directives_delete_replace_order_and_retain() {
        let patch = json!({"spec": {"template": {"spec": {
            "$setElementOrder/containers": [{"name": "log"}, {"name": "web"}, {"name": "new"}],
            "containers": [{"name": "new", "image": "redis"}, {"name": "gone", "$patch": "delete"}]
        }}, "strategy": {"$retainKeys": ["type"], "type": "Recreate"}}});
        let mut current = deployment();
        current["spec"]["strategy"] =
            json!({"type": "RollingUpdate", "rollingUpdate": {"maxSurge": 1}});
        let patched = apply(&current, &patch).unwrap();
        let names: Vec<&str> = patched["spec"]["template"]["spec"]["containers"]
            .as_array()
            .unwrap()
            .iter()
            .map(|c| c["name"].as_str().unwrap())
            .collect();
        assert_eq!(names, ["log", "web", "new"]);
        assert_eq!(patched["spec"]["strategy"], json!({"type": "Recreate"}));

        let replaced = apply(
            &current,
            &json!({"spec": {"template": {"spec": {"containers": [
            {"$patch": "replace"}, {"name": "only", "image": "x"}]}}}}),
        )
        .unwrap();
        assert_eq!(
            replaced["spec"]["template"]["spec"]["containers"],
            json!([{"name": "only", "image": "x"}])
        );
    }

    #[test]
    fn atomic_lists_are_replaced_and_nulls_remove() {
        let current = json!({"spec": {"args": ["a", "b"], "paused": true}, "metadata": {"finalizers": ["x"]}});
        let patch = json!({"spec": {"args": ["c"], "paused": null}, "metadata": {"finalizers": ["y"],
            "$deleteFromPrimitiveList/finalizers": ["x"]}});
        assert_eq!(
            apply(&current, &patch).unwrap(),
            json!({"spec": {"args": ["c"]}, "metadata": {"finalizers": ["y"]}})
        );
    }

    #[test]
    fn a_long_list_merges_by_key_in_one_pass() {
        // 40,000 containers named in a patch onto 40,000 stored: one map lookup each (the
        // pairwise search took minutes); every element is merged into its own.
        let count = 40_000;
        let stored: Vec<Value> = (0..count)
            .map(|i| json!({"name": format!("c{i}"), "image": "old"}))
            .collect();
        let patch: Vec<Value> = (0..count)
            .rev()
            .map(|i| json!({"name": format!("c{i}"), "image": format!("new{i}")}))
            .collect();
        let current = json!({"spec": {"containers": stored}});
        let patched = apply(&current, &json!({"spec": {"containers": patch,
            "$setElementOrder/containers": (0..count).rev().map(|i| json!({"name": format!("c{i}")})).collect::<Vec<_>>()}}))
        .unwrap();
        let containers = patched["spec"]["containers"].as_array().unwrap();
        assert_eq!(containers.len(), count);
        assert_eq!(
            containers[0],
            json!({"name": "c39999", "image": "new39999"})
        );
        assert_eq!(
            containers[count - 1],
            json!({"name": "c0", "image": "new0"})
        );
    }

    #[test]
    fn an_element_without_its_merge_key_is_refused() {
        let patch = json!({"spec": {"template": {"spec": {"containers": [{"image": "x"}]}}}});
        assert!(apply(&deployment(), &patch).is_err());
        assert!(apply(&deployment(), &json!([1])).is_err());
    }
}
