//! Server-side printing: wrapping objects into `meta.k8s.io/v1` `Table`s, with columns and cells
//! from `crate::world::printers`, and `rows[].object` as `includeObject` asks.

use std::time::SystemTime;

use serde_json::{json, Map, Value};

use super::query::IncludeObject;
use crate::world::printers;

/// `PartialObjectMetadata` for an object: its metadata only.
pub fn partial_metadata(object: &Value) -> Value {
    json!({
        "kind": "PartialObjectMetadata",
        "apiVersion": "meta.k8s.io/v1",
        "metadata": object["metadata"].clone(),
    })
}

/// One row for an object (which must carry kind/apiVersion when `include` is Object).
pub fn row(resource: &str, object: &Value, include: IncludeObject, now: SystemTime) -> Value {
    let embedded = match include {
        IncludeObject::None => Value::Null,
        IncludeObject::Metadata => partial_metadata(object),
        IncludeObject::Object => object.clone(),
    };
    json!({
        "cells": printers::cells(resource, object, now),
        "object": embedded,
    })
}

/// The column definitions, as JSON.
pub fn columns(resource: &str) -> Value {
    serde_json::to_value(printers::columns(resource)).unwrap_or(Value::Null)
}

/// A Table. `columns` is `Value::Null` for watch events after the first, as the real server
/// sends them (it sets NoHeaders, and the field has no omitempty).
pub fn table(columns: Value, rows: Vec<Value>, metadata: Map<String, Value>) -> Value {
    json!({
        "kind": "Table",
        "apiVersion": "meta.k8s.io/v1",
        "metadata": metadata,
        "columnDefinitions": columns,
        "rows": rows,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rows_embed_what_include_object_asks() {
        let pod = json!({"kind": "Pod", "apiVersion": "v1", "metadata": {"name": "a"}, "spec": {}});
        let now = SystemTime::UNIX_EPOCH;
        let metadata_row = row("pods", &pod, IncludeObject::Metadata, now);
        assert_eq!(metadata_row["object"]["kind"], "PartialObjectMetadata");
        assert_eq!(metadata_row["object"]["metadata"]["name"], "a");
        assert!(row("pods", &pod, IncludeObject::None, now)["object"].is_null());
        assert_eq!(
            row("pods", &pod, IncludeObject::Object, now)["object"]["kind"],
            "Pod"
        );
        let table = table(Value::Null, vec![metadata_row], Map::new());
        assert!(table["columnDefinitions"].is_null());
        assert_eq!(table["rows"].as_array().map(Vec::len), Some(1));
    }
}
