//! One named object as kubectl's `get` prints it: apimachinery's unstructured decoder takes any
//! object with an `items` array for a list (a custom resource's own `items` field included), and
//! `get` prints a list as a `List` of its items under the object's resourceVersion, its other
//! fields gone. An item with neither `apiVersion` nor `kind` gets the object's apiVersion and
//! kind (less a `List` suffix), as the decoder's `decodeToList` gives them.

use serde_json::{json, Value};

/// Whether kubectl would read `object` as a list.
pub fn reads_as_list(object: &Value) -> bool {
    object.get("items").is_some_and(Value::is_array)
}

/// `object` as kubectl prints it when it [`reads_as_list`]; any other object as it is.
pub fn read_as_list(object: Value) -> Value {
    let Value::Object(mut fields) = object else {
        return object;
    };
    if !fields.get("items").is_some_and(Value::is_array) {
        return Value::Object(fields);
    }
    let resource_version = fields
        .get("metadata")
        .and_then(|m| m.get("resourceVersion"))
        .cloned()
        .unwrap_or_else(|| Value::String(String::new()));
    let text = |name: &str| fields.get(name).and_then(Value::as_str).unwrap_or_default();
    let api_version = text("apiVersion").to_string();
    let kind = text("kind");
    let item_kind = kind.strip_suffix("List").unwrap_or(kind).to_string();
    let mut items = fields.remove("items").unwrap_or_default();
    for item in items.as_array_mut().into_iter().flatten() {
        let Value::Object(item) = item else { continue };
        let lacks = |name: &str| {
            item.get(name)
                .and_then(Value::as_str)
                .unwrap_or("")
                .is_empty()
        };
        if lacks("apiVersion") && lacks("kind") {
            item.insert("apiVersion".into(), json!(api_version));
            item.insert("kind".into(), json!(item_kind));
        }
    }
    json!({
        "apiVersion": "v1",
        "items": items,
        "kind": "List",
        "metadata": {"resourceVersion": resource_version},
    })
}

/// The items of `object` read as a list, each with its type as [`read_as_list`] gives it:
/// what a watch prints, one object each, for a listed object that [`reads_as_list`].
pub fn list_items(object: Value) -> Vec<Value> {
    match read_as_list(object) {
        Value::Object(mut list) => match list.remove("items") {
            Some(Value::Array(items)) => items,
            _ => Vec::new(),
        },
        _ => Vec::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn items_without_a_type_take_the_holders_and_the_rest_is_gone() {
        let holder = json!({"apiVersion": "example.com/v1", "kind": "WidgetList",
            "metadata": {"name": "h", "resourceVersion": "7"}, "spec": {},
            "items": [{"name": "a"}, {"kind": "Pod", "apiVersion": "v1"}]});
        assert_eq!(
            read_as_list(holder),
            json!({"apiVersion": "v1", "kind": "List", "metadata": {"resourceVersion": "7"},
                "items": [{"name": "a", "apiVersion": "example.com/v1", "kind": "Widget"},
                          {"kind": "Pod", "apiVersion": "v1"}]})
        );
        let plain = json!({"kind": "Pod", "items": "not an array"});
        assert_eq!(read_as_list(plain.clone()), plain);
    }
}
