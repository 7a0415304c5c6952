//! Server-side printing: the `Table` columns and cells a v1.32 kube-apiserver computes per kind.
//!
//! A re-implementation of `pkg/printers/internalversion/printers.go` (and the CRD table
//! convertor for widgets) as pure functions of JSON objects. The server prints with
//! `Wide: true`, so every row carries the priority-1 cells too; clients drop them unless asked.
//! Malformed objects never panic: missing fields print as the upstream zero values would.

mod age;
mod columns;
mod kinds;
mod pod;

use std::time::SystemTime;

use serde_json::Value;

use kw_wire::TableColumnDefinition;

pub use age::human_duration;

/// The columns for a resource (URL plural), including the `priority > 0` (wide) ones.
pub fn columns(resource: &str) -> Vec<TableColumnDefinition> {
    columns::for_resource(resource)
}

/// The cells of one object's row, in the order of `columns`.
pub fn cells(resource: &str, object: &Value, now: SystemTime) -> Vec<Value> {
    match resource {
        "pods" => pod::cells(object, now),
        "nodes" => kinds::node(object, now),
        "namespaces" => kinds::namespace(object, now),
        "services" => kinds::service(object, now),
        "endpoints" => kinds::endpoints(object, now),
        "configmaps" => kinds::config_map(object, now),
        "secrets" => kinds::secret(object, now),
        "persistentvolumeclaims" => kinds::claim(object, now),
        "events" => kinds::event(object, now),
        "deployments" => kinds::deployment(object, now),
        "replicasets" => kinds::replica_set(object, now),
        "widgets" => kinds::widget(object, now),
        "scales" => kinds::scale(object),
        _ => kinds::default_row(object),
    }
}

#[cfg(test)]
mod tests;
