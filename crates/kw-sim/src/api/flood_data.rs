//! What a flood is made of: the pre-serialised byte templates of a flood run (a realistic pod
//! with holes for name and resourceVersion, as JSON events, Table events, list items and rows),
//! built once at start. `flood` streams them; `shared` holds them.

use std::time::SystemTime;

use serde_json::{json, Map, Value};

use crate::api::query::IncludeObject;
use crate::api::table;
use crate::config::{Flood, FloodFraming};
use crate::world::objects;

pub const NAME_SLOT: &str = "kwfloodnameslot";
pub const RV_SLOT: &str = "kwfloodrvslot";
/// Distinct pod names a flood watch cycles through when there is no flood list.
const DEFAULT_NAMES: u64 = 1000;
pub const NAMESPACE: &str = "flood";

#[derive(Debug, Clone, Copy)]
enum Slot {
    Name,
    ResourceVersion,
}

/// Bytes with holes for the name and the resourceVersion.
#[derive(Debug, Clone)]
pub struct Template {
    parts: Vec<Vec<u8>>,
    slots: Vec<Slot>,
}

impl Template {
    fn from_value(value: &Value, suffix: &[u8]) -> Template {
        let mut bytes = serde_json::to_vec(value).unwrap_or_default();
        bytes.extend_from_slice(suffix);
        Template::split(&bytes)
    }

    fn split(bytes: &[u8]) -> Template {
        let mut parts = Vec::new();
        let mut slots = Vec::new();
        let mut current = Vec::new();
        let mut at = 0;
        while at < bytes.len() {
            let rest = &bytes[at..];
            if rest.starts_with(NAME_SLOT.as_bytes()) {
                parts.push(std::mem::take(&mut current));
                slots.push(Slot::Name);
                at += NAME_SLOT.len();
            } else if rest.starts_with(RV_SLOT.as_bytes()) {
                parts.push(std::mem::take(&mut current));
                slots.push(Slot::ResourceVersion);
                at += RV_SLOT.len();
            } else {
                current.push(bytes[at]);
                at += 1;
            }
        }
        parts.push(current);
        Template { parts, slots }
    }

    pub fn render(&self, out: &mut Vec<u8>, name: &str, resource_version: &str) {
        for (index, part) in self.parts.iter().enumerate() {
            out.extend_from_slice(part);
            match self.slots.get(index) {
                Some(Slot::Name) => out.extend_from_slice(name.as_bytes()),
                Some(Slot::ResourceVersion) => out.extend_from_slice(resource_version.as_bytes()),
                None => {}
            }
        }
    }
}

/// The pre-built templates of a flood run.
pub struct FloodData {
    pub watch_events: u64,
    pub list_items: u64,
    pub framing: FloodFraming,
    pub json_event: Template,
    /// An item of a streaming list: an ADDED event at the list's resourceVersion.
    pub json_added_event: Template,
    /// The end-of-initial-events bookmark of a streaming list.
    pub json_end_bookmark: Template,
    pub table_first_event: Template,
    pub table_event: Template,
    pub list_item: Template,
    pub table_row: Template,
    pub columns: Value,
}

pub fn pod_name(index: u64) -> String {
    format!("flood-{index:06}")
}

impl FloodData {
    pub fn build(flood: Flood, now: SystemTime) -> FloodData {
        let mut pod = objects::pod(NAMESPACE, NAME_SLOT, "node-1", now);
        pod["metadata"]["resourceVersion"] = json!(RV_SLOT);
        // Each pod its own uid (its name), as on a real server: clients key what they hold by
        // uid, and one uid for every item made a 20,000-pod list print as a single row.
        pod["metadata"]["uid"] = json!(NAME_SLOT);
        pod["kind"] = json!("Pod");
        pod["apiVersion"] = json!("v1");
        let row = table::row("pods", &pod, IncludeObject::Metadata, now);
        let columns = table::columns("pods");
        let event_table = |columns: Value| {
            let mut metadata = Map::new();
            metadata.insert("resourceVersion".into(), json!(RV_SLOT));
            json!({"type": "MODIFIED", "object": table::table(columns, vec![row.clone()], metadata)})
        };
        let mut item = pod.clone();
        if let Some(map) = item.as_object_mut() {
            map.remove("kind");
            map.remove("apiVersion");
        }
        FloodData {
            watch_events: flood.watch_events,
            list_items: flood.list_items,
            framing: flood.framing,
            json_event: Template::from_value(&json!({"type": "MODIFIED", "object": pod}), b"\n"),
            json_added_event: Template::from_value(&json!({"type": "ADDED", "object": pod}), b"\n"),
            json_end_bookmark: Template::from_value(
                &json!({"type": "BOOKMARK", "object": {
                    "kind": "Pod",
                    "apiVersion": "v1",
                    "metadata": {
                        "resourceVersion": RV_SLOT,
                        "annotations": {kw_wire::INITIAL_EVENTS_END: "true"},
                    },
                }}),
                b"\n",
            ),
            table_first_event: Template::from_value(&event_table(columns.clone()), b"\n"),
            table_event: Template::from_value(&event_table(Value::Null), b"\n"),
            list_item: Template::from_value(&item, b""),
            table_row: Template::from_value(&row, b""),
            columns,
        }
    }

    pub fn names(&self) -> u64 {
        if self.list_items > 0 {
            self.list_items
        } else {
            DEFAULT_NAMES
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn templates_fill_every_slot() {
        let template =
            Template::from_value(&json!({"a": NAME_SLOT, "b": [NAME_SLOT, RV_SLOT]}), b"\n");
        let mut out = Vec::new();
        template.render(&mut out, "p1", "7");
        assert_eq!(out, b"{\"a\":\"p1\",\"b\":[\"p1\",\"7\"]}\n");
    }
}
