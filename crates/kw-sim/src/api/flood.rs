//! Flood mode for benchmarks: pods WATCHes stream N pre-serialised MODIFIED events as fast as
//! the socket takes them (JSON or Table), and the pods LIST returns M synthetic pods. Events are
//! rendered from byte templates (a realistic pod with placeholders for name and
//! resourceVersion). By default each event is its own HTTP chunk, as kube-apiserver frames a
//! busy watch; `FloodFraming::Batched` packs them into large chunks, so the server is never the
//! bottleneck.
//!
//! A streaming list (`sendInitialEvents=true`, JSON) gets the M pods as ADDED events and the
//! end-of-initial-events bookmark before the flood. A watch that resumes from the flood's last
//! resourceVersion (or later) is answered 400 "the flood is over", so a client that resumes
//! (kw) stops after exactly one flood, as kubectl does at the end of its one watch.

use std::io::Write;

use serde_json::json;

use crate::api::flood_data::{pod_name, NAMESPACE};
use crate::api::paging::ContinueToken;
use crate::api::query::{self, IncludeObject, ListOptions, Rendering};
use crate::api::reply::Reply;
use crate::api::shared::Shared;
use crate::api::status;
use crate::api::watch::StreamEnd;
use crate::config::FloodFraming;
use crate::http;

/// Bytes per HTTP chunk in a batched flood stream.
const BATCH_BYTES: usize = 256 * 1024;

/// How to answer a pods WATCH in flood mode: the flood, or (for a watch that resumes after the
/// flood's last event) a 400 that tells the client there is nothing more to come.
pub fn watch(shared: &Shared, options: &ListOptions, rendering: Rendering) -> Reply {
    let base = shared.store.current_resource_version();
    let last = base.saturating_add(shared.flood_watch_events());
    let requested = match query::parse_resource_version(options.resource_version.as_deref()) {
        Ok(requested) => requested,
        Err(status) => return Reply::status(status),
    };
    if requested.is_some_and(|rv| rv >= last) {
        return Reply::status(status::bad_request(format!(
            "kw sim --flood: the flood ended at resourceVersion {last}; nothing more will come"
        )));
    }
    Reply::FloodWatch {
        rendering,
        initial_events: options.send_initial_events == Some(true) && rendering == Rendering::Json,
    }
}

/// Bytes of framed chunks a per-event flood hands the socket in one write: a busy server
/// always has the next event queued, so it does not flush between events (kube-apiserver's
/// watch handler flushes only when its queue is empty), and the sim's system calls must not be
/// what a benchmark measures. Each event is still its own HTTP chunk.
const WRITE_BYTES: usize = 64 * 1024;

/// Cuts rendered events into HTTP chunks: one per event, or batches of about `BATCH_BYTES`.
struct Chunker<'w> {
    out: &'w mut dyn Write,
    /// Close a chunk once the batch holds this many bytes (1: after every event).
    chunk_bytes: usize,
    batch: Vec<u8>,
    /// Framed chunks not yet written.
    framed: Vec<u8>,
}

impl Chunker<'_> {
    /// Close the chunk if it is big enough, and write once enough is framed; false when the
    /// client has gone.
    fn maybe_send(&mut self) -> bool {
        if self.batch.len() < self.chunk_bytes {
            return true;
        }
        http::frame_chunk(&mut self.framed, &self.batch);
        self.batch.clear();
        if self.framed.len() < WRITE_BYTES {
            return true;
        }
        let sent = self.out.write_all(&self.framed).is_ok();
        self.framed.clear();
        sent
    }

    /// Send what is left and the terminating chunk.
    fn finish(mut self) -> bool {
        http::frame_chunk(&mut self.framed, &self.batch);
        self.framed.extend_from_slice(b"0\r\n\r\n");
        self.out
            .write_all(&self.framed)
            .and_then(|()| self.out.flush())
            .is_ok()
    }
}

/// Stream the flood watch: with `initial_events`, the flood list as ADDED events and the end
/// bookmark; then N MODIFIED events, then a clean end.
pub fn stream(
    shared: &Shared,
    rendering: Rendering,
    initial_events: bool,
    out: &mut dyn Write,
) -> StreamEnd {
    let Some(data) = &shared.flood else {
        return StreamEnd::Drop;
    };
    if http::write_stream_head(out).is_err() {
        return StreamEnd::Drop;
    }
    let base = shared.store.current_resource_version();
    let chunk_bytes = match data.framing {
        FloodFraming::PerEvent => 1,
        FloodFraming::Batched => BATCH_BYTES,
    };
    let mut chunker = Chunker {
        out,
        chunk_bytes,
        batch: Vec::with_capacity(BATCH_BYTES + 8192),
        framed: Vec::with_capacity(BATCH_BYTES + 8192),
    };
    if initial_events {
        let rv_text = base.to_string();
        for index in 0..data.list_items {
            data.json_added_event
                .render(&mut chunker.batch, &pod_name(index), &rv_text);
            if !chunker.maybe_send() {
                return StreamEnd::Drop;
            }
        }
        data.json_end_bookmark
            .render(&mut chunker.batch, "", &rv_text);
        if !chunker.maybe_send() {
            return StreamEnd::Drop;
        }
    }
    for index in 0..data.watch_events {
        let name = pod_name(index % data.names());
        let resource_version = (base + 1 + index).to_string();
        let template = match rendering {
            Rendering::Json => &data.json_event,
            Rendering::Table if index == 0 => &data.table_first_event,
            Rendering::Table => &data.table_event,
        };
        template.render(&mut chunker.batch, &name, &resource_version);
        if !chunker.maybe_send() {
            return StreamEnd::Drop;
        }
        if index % 4096 == 0 && shared.shutdown.load(std::sync::atomic::Ordering::SeqCst) {
            return StreamEnd::Drop;
        }
    }
    if chunker.finish() {
        StreamEnd::Clean
    } else {
        StreamEnd::Drop
    }
}

/// The flood pods LIST body (selectors are ignored: every pod is a flood pod).
pub fn list(
    shared: &Shared,
    options: &ListOptions,
    rendering: Rendering,
    _include: IncludeObject,
) -> Result<Vec<u8>, kw_wire::Status> {
    let Some(data) = &shared.flood else {
        return Ok(Vec::new());
    };
    let (resource_version, start) = match &options.continue_token {
        Some(token) => {
            let token =
                ContinueToken::decode(token).map_err(|err| status::bad_request(err.to_string()))?;
            let start = token
                .start
                .1
                .parse::<u64>()
                .map_err(|_| status::bad_request("continue key is not valid"))?;
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
