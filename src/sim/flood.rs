//! Flood mode for benchmarks: pods WATCHes stream N pre-serialised MODIFIED events as fast as
//! the socket takes them (JSON or Table), and the pods LIST returns M synthetic pods. Events are
//! rendered from byte templates (a realistic pod with placeholders for name and
//! resourceVersion), batched into large chunks, so the server is never the bottleneck.

use std::io::Write;
use std::time::SystemTime;

use serde_json::{json, Map, Value};

use super::api;
use super::objects;
use super::paging::ContinueToken;
use super::query::{IncludeObject, ListOptions, Rendering};
use super::server::Shared;
use super::table;
use super::watch::StreamEnd;
use super::{http, Flood};

const NAME_SLOT: &str = "kwfloodnameslot";
const RV_SLOT: &str = "kwfloodrvslot";
/// Bytes per HTTP chunk in a flood stream.
const BATCH_BYTES: usize = 256 * 1024;
/// Distinct pod names a flood watch cycles through when there is no flood list.
const DEFAULT_NAMES: u64 = 1000;
const NAMESPACE: &str = "flood";

#[derive(Debug, Clone, Copy)]
enum Slot {
    Name,
    ResourceVersion,
}

/// Bytes with holes for the name and the resourceVersion.
#[derive(Debug, Clone)]
struct Template {
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

    fn render(&self, out: &mut Vec<u8>, name: &str, resource_version: &str) {
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
    json_event: Template,
    table_first_event: Template,
    table_event: Template,
    list_item: Template,
    table_row: Template,
    columns: Value,
}

fn pod_name(index: u64) -> String {
    format!("flood-{index:06}")
}

impl FloodData {
    pub fn build(flood: Flood, now: SystemTime) -> FloodData {
        let mut pod = objects::pod(NAMESPACE, NAME_SLOT, "node-1", now);
        pod["metadata"]["resourceVersion"] = json!(RV_SLOT);
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
            json_event: Template::from_value(&json!({"type": "MODIFIED", "object": pod}), b"\n"),
            table_first_event: Template::from_value(&event_table(columns.clone()), b"\n"),
            table_event: Template::from_value(&event_table(Value::Null), b"\n"),
            list_item: Template::from_value(&item, b""),
            table_row: Template::from_value(&row, b""),
            columns,
        }
    }

    fn names(&self) -> u64 {
        if self.list_items > 0 {
            self.list_items
        } else {
            DEFAULT_NAMES
        }
    }
}

/// Stream the flood watch: N MODIFIED events, then a clean end.
pub fn stream(shared: &Shared, rendering: Rendering, out: &mut dyn Write) -> StreamEnd {
    let Some(data) = &shared.flood else {
        return StreamEnd::Drop;
    };
    if http::write_stream_head(out).is_err() {
        return StreamEnd::Drop;
    }
    let base = shared.store.current_resource_version();
    let mut batch = Vec::with_capacity(BATCH_BYTES + 8192);
    let mut framed = Vec::with_capacity(BATCH_BYTES + 8192);
    for index in 0..data.watch_events {
        let name = pod_name(index % data.names());
        let resource_version = (base + 1 + index).to_string();
        let template = match rendering {
            Rendering::Json => &data.json_event,
            Rendering::Table if index == 0 => &data.table_first_event,
            Rendering::Table => &data.table_event,
        };
        template.render(&mut batch, &name, &resource_version);
        if batch.len() >= BATCH_BYTES {
            framed.clear();
            http::frame_chunk(&mut framed, &batch);
            batch.clear();
            if out.write_all(&framed).is_err() {
                return StreamEnd::Drop;
            }
        }
        if index % 4096 == 0 && shared.shutdown.load(std::sync::atomic::Ordering::SeqCst) {
            return StreamEnd::Drop;
        }
    }
    framed.clear();
    http::frame_chunk(&mut framed, &batch);
    framed.extend_from_slice(b"0\r\n\r\n");
    match out.write_all(&framed).and_then(|()| out.flush()) {
        Ok(()) => StreamEnd::Clean,
        Err(_) => StreamEnd::Drop,
    }
}

/// The flood pods LIST body (selectors are ignored: every pod is a flood pod).
pub fn list(
    shared: &Shared,
    options: &ListOptions,
    rendering: Rendering,
    _include: IncludeObject,
) -> Result<Vec<u8>, crate::wire::Status> {
    let Some(data) = &shared.flood else {
        return Ok(Vec::new());
    };
    let (resource_version, start) = match &options.continue_token {
        Some(token) => {
            let token =
                ContinueToken::decode(token).map_err(|err| api::bad_request(err.to_string()))?;
            let start = token
                .start
                .1
                .parse::<u64>()
                .map_err(|_| api::bad_request("continue key is not valid"))?;
            (token.resource_version, start)
        }
        None => (shared.store.current_resource_version(), 0),
    };
    let end = match options.limit {
        Some(limit) => start.saturating_add(limit).min(data.list_items),
        None => data.list_items,
    };
    let rv_text = resource_version.to_string();
    let mut metadata = json!({"resourceVersion": rv_text});
    if end < data.list_items {
        metadata["continue"] = json!(ContinueToken {
            resource_version,
            start: (NAMESPACE.into(), end.to_string()),
        }
        .encode());
        metadata["remainingItemCount"] = json!(data.list_items - end);
    }
    let metadata = serde_json::to_string(&metadata).unwrap_or_default();
    let mut body = Vec::with_capacity(((end - start.min(end)) as usize) * 4096 + 1024);
    let template = match rendering {
        Rendering::Json => {
            body.extend_from_slice(b"{\"kind\":\"PodList\",\"apiVersion\":\"v1\",\"metadata\":");
            body.extend_from_slice(metadata.as_bytes());
            body.extend_from_slice(b",\"items\":[");
            &data.list_item
        }
        Rendering::Table => {
            body.extend_from_slice(
                b"{\"kind\":\"Table\",\"apiVersion\":\"meta.k8s.io/v1\",\"metadata\":",
            );
            body.extend_from_slice(metadata.as_bytes());
            body.extend_from_slice(b",\"columnDefinitions\":");
            body.extend_from_slice(&serde_json::to_vec(&data.columns).unwrap_or_default());
            body.extend_from_slice(b",\"rows\":[");
            &data.table_row
        }
    };
    for index in start..end {
        if index > start {
            body.push(b',');
        }
        template.render(&mut body, &pod_name(index), &rv_text);
    }
    body.extend_from_slice(b"]}");
    Ok(body)
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
