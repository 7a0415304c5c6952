//! The strategic merge patch, for the built-in types kubectl patches: objects merge as in a
//! merge patch, but a list of named things (containers, env, volumes, ports, conditions...)
//! merges element by element on its merge key, as the Go types' `patchMergeKey` tags say, and
//! the patch may carry directives: `$patch: replace|delete|merge`, `$retainKeys`,
//! `$setElementOrder/FIELD` and `$deleteFromPrimitiveList/FIELD`. Lists without a merge key
//! are replaced whole, as the Go types mark them atomic.

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
        Some(ListMerge::Key(key)) => {
            for item in patch {
                let Some(wanted) = item.get(key) else {
                    return Err(PatchError::Unapplicable(format!(
                        "map: {item} does not contain declared merge key: {key}"
                    )));
                };
                let at = items.iter().position(|have| have.get(key) == Some(wanted));
                let deleting = item.get(PATCH).and_then(Value::as_str) == Some("delete");
                match (at, deleting) {
                    (Some(at), true) => {
                        items.remove(at);
                    }
                    (None, true) => {}
                    (Some(at), false) => {
                        let members = item.as_object().cloned().unwrap_or_default();
                        items[at] = merge_map(&items[at], &members)?;
                    }
                    (None, false) => {
                        let members = item.as_object().cloned().unwrap_or_default();
                        items.push(merge_map(&Value::Null, &members)?);
                    }
                }
            }
        }
    }
    Ok(Value::Array(items))
}

/// Order `items` as `order` lists them (by merge key or value); those it does not name keep
/// their place after the named ones, as the server sorts them.
fn reorder(field: &str, items: &mut [Value], order: &[Value]) {
    let key = match list_strategy(field, items) {
        Some(ListMerge::Key(key)) => Some(key),
        _ => None,
    };
    let rank = |item: &Value| {
        let identity = key.map_or(Some(item), |key| item.get(key));
        order
            .iter()
            .position(|wanted| {
                let named = key.map_or(Some(wanted), |key| wanted.get(key));
                named.is_some() && named == identity
            })
            .unwrap_or(usize::MAX)
    };
    items.sort_by_key(|item| rank(item));
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
    fn an_element_without_its_merge_key_is_refused() {
        let patch = json!({"spec": {"template": {"spec": {"containers": [{"image": "x"}]}}}});
        assert!(apply(&deployment(), &patch).is_err());
        assert!(apply(&deployment(), &json!([1])).is_err());
    }
}
