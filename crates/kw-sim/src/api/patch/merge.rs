//! JSON Merge Patch (RFC 7386): objects merge member by member, `null` removes a member, and
//! anything else (lists included) replaces what was there.

use serde_json::Value;

pub fn apply(current: &Value, patch: &Value) -> Value {
    let Value::Object(members) = patch else {
        return patch.clone();
    };
    let mut merged = match current {
        Value::Object(map) => map.clone(),
        _ => serde_json::Map::new(),
    };
    for (name, value) in members {
        if value.is_null() {
            merged.remove(name);
        } else {
            let before = merged.get(name).unwrap_or(&Value::Null);
            let after = apply(before, value);
            merged.insert(name.clone(), after);
        }
    }
    Value::Object(merged)
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn merges_objects_removes_nulls_and_replaces_lists() {
        let current = json!({"spec": {"replicas": 3, "paused": true, "list": [1, 2]}, "keep": 1});
        let patch = json!({"spec": {"replicas": 5, "paused": null, "list": [3]}});
        assert_eq!(
            apply(&current, &patch),
            json!({"spec": {"replicas": 5, "list": [3]}, "keep": 1})
        );
    }

    #[test]
    fn the_rfc_examples_hold() {
        assert_eq!(
            apply(&json!({"a": "b"}), &json!({"a": "c"})),
            json!({"a": "c"})
        );
        assert_eq!(
            apply(&json!({"a": "b"}), &json!({"b": "c"})),
            json!({"a": "b", "b": "c"})
        );
        assert_eq!(apply(&json!({"a": "b"}), &json!({"a": null})), json!({}));
        assert_eq!(apply(&json!({"a": "foo"}), &json!("bar")), json!("bar"));
        assert_eq!(
            apply(&json!({"e": null}), &json!({"a": 1})),
            json!({"e": null, "a": 1})
        );
        assert_eq!(
            apply(&json!([1, 2]), &json!({"a": {"bb": {"ccc": null}}})),
            json!({"a": {"bb": {}}})
        );
    }
}
