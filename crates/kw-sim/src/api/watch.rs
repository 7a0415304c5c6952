//! WATCH streams: validate the watch options, register with the store, send the backlog
//! (synthetic ADDED for the current state, or history replayed from a resourceVersion), then live
//! events, bookmarks and the deadline, with selector transitions (ADDED when an object starts
//! matching, DELETED when it stops) and the injected faults of this connection.

use std::io::{self, Write};
use std::sync::atomic::Ordering;
use std::sync::mpsc::RecvTimeoutError;
use std::sync::Arc;
use std::time::{Duration, Instant};

use serde_json::{json, Map, Value};

use super::query::{self, parse_resource_version, IncludeObject, ListOptions, Rendering};
use super::selector::Filter;
use super::shared::Shared;
use super::status::{self, expired_status, refused_status};
use super::table;
use crate::faults::{self, Fired, WatchFaults};
use crate::http;
use crate::world::catalog::ResourceInfo;
use crate::world::store::{Backlog, StoredEvent, TooOld, WatchStart};
use kw_wire::{EventType, Status, INITIAL_EVENTS_END};

/// Without `timeoutSeconds` a real server picks 30–60 minutes; use the low end.
const DEFAULT_TIMEOUT: Duration = Duration::from_secs(1800);
/// How often an idle watch checks for shutdown and deadlines.
const TICK: Duration = Duration::from_millis(200);

/// A validated watch, ready to stream.
pub struct WatchRequest {
    info: &'static ResourceInfo,
    namespace: Option<String>,
    filter: Filter,
    start: WatchStart,
    /// Streaming list: end the initial events with the `initial-events-end` bookmark.
    initial_events_end: bool,
    bookmarks: bool,
    timeout: Duration,
    rendering: Rendering,
    include: IncludeObject,
    faults: faults::WatchStart,
}

/// Validate a watch request as the real server does.
pub fn prepare(
    shared: &Shared,
    info: &'static ResourceInfo,
    namespace: Option<&str>,
    options: &ListOptions,
    rendering: Rendering,
) -> Result<WatchRequest, Status> {
    let match_rule = options.resource_version_match.as_deref().unwrap_or("");
    let send_initial_events = options.send_initial_events;
    let mut errors = Vec::new();
    match send_initial_events {
        Some(_) => {
            if match_rule != "NotOlderThan" {
                errors.push((
                    "resourceVersionMatch",
                    "sendInitialEvents requires setting resourceVersionMatch to NotOlderThan",
                ));
            }
            if !options.allow_watch_bookmarks {
                errors.push((
                    "allowWatchBookmarks",
                    "sendInitialEvents requires setting allowWatchBookmarks to true",
                ));
            }
        }
        None if !match_rule.is_empty() => errors.push((
            "resourceVersionMatch",
            "resourceVersionMatch is forbidden for watch unless sendInitialEvents is provided",
        )),
        None => {}
    }
    if !errors.is_empty() {
        return Err(status::invalid_options(&errors));
    }
    let filter = query::filter(options, info)?;
    let include = super::query::include_object(options).map_err(|value| {
        status::bad_request(format!("includeObject: Unsupported value: \"{value}\""))
    })?;
    let requested = parse_resource_version(options.resource_version.as_deref())?;
    let start = match (send_initial_events, requested) {
        (Some(true), _) | (None, None) => WatchStart::CurrentState,
        (Some(false), None) => WatchStart::After(shared.store.current_resource_version()),
        (_, Some(from)) => WatchStart::After(from),
    };
    Ok(WatchRequest {
        info,
        namespace: namespace.map(String::from),
        filter,
        start,
        initial_events_end: send_initial_events == Some(true),
        bookmarks: options.allow_watch_bookmarks,
        timeout: options
            .timeout_seconds
            .map(Duration::from_secs)
            .unwrap_or(DEFAULT_TIMEOUT)
            .min(shared.max_watch.unwrap_or(Duration::MAX)),
        rendering,
        include,
        faults: shared.faults.start_watch(info.plural),
    })
}

/// How a stream ended, for the connection loop.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum StreamEnd {
    /// Terminating chunk sent; the connection may be reused.
    Clean,
    /// The connection must be dropped (faults, errors, shutdown).
    Drop,
}

/// The HTTP status the watch request was answered with (for the request log).
pub fn response_status(request: &WatchRequest) -> u16 {
    match request.faults {
        faults::WatchStart::Refuse(code) => code,
        faults::WatchStart::Stream(_) => 200,
    }
}

/// Serve the watch on `out`.
pub fn stream(shared: &Shared, request: &WatchRequest, out: &mut dyn Write) -> StreamEnd {
    let watch_faults = match request.faults {
        faults::WatchStart::Refuse(code) => {
            let status = refused_status(code);
            let body = serde_json::to_vec(&status).unwrap_or_default();
            let headers: Vec<(&str, String)> = if code == 429 {
                vec![("Retry-After", "1".into())]
            } else {
                Vec::new()
            };
            return match http::write_response(out, code, &headers, &body, false) {
                Ok(()) => StreamEnd::Clean,
                Err(_) => StreamEnd::Drop,
            };
        }
        faults::WatchStart::Stream(watch_faults) => watch_faults,
    };
    let subscription = shared.store.subscribe(request.info.plural, request.start);
    if http::write_stream_head(out).is_err() {
        return StreamEnd::Drop;
    }
    let mut emitter = Emitter {
        shared,
        request,
        out,
        faults: watch_faults,
        sent: 0,
        columns_sent: false,
    };
    let subscription = match subscription {
        Ok(subscription) => subscription,
        Err(TooOld { requested, oldest }) => {
            let status = expired_status(requested, oldest);
            return match emitter.write_event(EventType::Error, status_value(&status)) {
                Ok(()) => emitter.finish(),
                Err(_) => StreamEnd::Drop,
            };
        }
    };
    let mut last_rv = subscription.resource_version;
    let backlog_flow = match subscription.backlog {
        Backlog::State(map) => {
            let mut flow = Flow::Continue;
            for object in map.values() {
                if request.selects(object) {
                    flow = emitter.emit(EventType::Added, object);
                    if flow != Flow::Continue {
                        break;
                    }
                }
            }
            if flow == Flow::Continue && request.initial_events_end {
                flow = emitter.bookmark(last_rv, true);
            }
            flow
        }
        Backlog::Events(events) => {
            let mut flow = Flow::Continue;
            for event in events {
                last_rv = last_rv.max(event.resource_version);
                flow = emitter.emit_stored(&event);
                if flow != Flow::Continue {
                    break;
                }
            }
            flow
        }
    };
    match backlog_flow {
        Flow::Continue => {}
        Flow::End => return emitter.finish(),
        Flow::Drop => return StreamEnd::Drop,
    }
    let started = Instant::now();
    let deadline = started + request.timeout;
    let interval = shared.bookmark_interval;
    let mut next_bookmark = started + interval;
    loop {
        if shared.shutdown.load(Ordering::SeqCst) {
            return StreamEnd::Drop;
        }
        let now = Instant::now();
        if now >= deadline {
            return emitter.finish();
        }
        if request.bookmarks && now >= next_bookmark {
            next_bookmark = now + interval;
            match emitter.bookmark(last_rv, false) {
                Flow::Continue => {}
                Flow::End => return emitter.finish(),
                Flow::Drop => return StreamEnd::Drop,
            }
        }
        let mut wait = TICK.min(deadline - now);
        if request.bookmarks {
            wait = wait.min(next_bookmark.saturating_duration_since(now));
        }
        match subscription.live.recv_timeout(wait) {
            Ok(event) => {
                last_rv = last_rv.max(event.resource_version);
                match emitter.emit_stored(&event) {
                    Flow::Continue => {}
                    Flow::End => return emitter.finish(),
                    Flow::Drop => return StreamEnd::Drop,
                }
            }
            Err(RecvTimeoutError::Timeout) => {}
            // The store dropped us: too far behind, or stopping. End the stream as a real
            // server does when it closes a slow watcher.
            Err(RecvTimeoutError::Disconnected) => return emitter.finish(),
        }
    }
}

impl WatchRequest {
    fn selects(&self, object: &Value) -> bool {
        let namespace_ok = match &self.namespace {
            Some(namespace) => object["metadata"]["namespace"].as_str() == Some(namespace),
            None => true,
        };
        namespace_ok && self.filter.matches(object)
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Flow {
    Continue,
    /// Send the terminating chunk and stop.
    End,
    /// Drop the connection without ending the stream.
    Drop,
}

struct Emitter<'a> {
    shared: &'a Shared,
    request: &'a WatchRequest,
    out: &'a mut dyn Write,
    faults: WatchFaults,
    /// Non-bookmark events sent so far; the faults count these.
    sent: u64,
    columns_sent: bool,
}

impl Emitter<'_> {
    /// Translate a stored change for this watch's selection, and send it.
    fn emit_stored(&mut self, event: &StoredEvent) -> Flow {
        let now_matches = self.request.selects(&event.object);
        let before_matched = event
            .previous
            .as_ref()
            .is_some_and(|previous| self.request.selects(previous));
        match event.event_type {
            EventType::Added if now_matches => self.emit(EventType::Added, &event.object),
            EventType::Modified => match (before_matched, now_matches) {
                (true, true) => self.emit(EventType::Modified, &event.object),
                (false, true) => self.emit(EventType::Added, &event.object),
                (true, false) => {
                    // Left the selection: DELETED with the previous content and the new RV.
                    let mut last = event.previous.as_deref().cloned().unwrap_or(Value::Null);
                    last["metadata"]["resourceVersion"] = json!(event.resource_version.to_string());
                    self.emit(EventType::Deleted, &Arc::new(last))
                }
                (false, false) => Flow::Continue,
            },
            EventType::Deleted if now_matches => self.emit(EventType::Deleted, &event.object),
            _ => Flow::Continue,
        }
    }

    /// Send one object event, applying this connection's faults first.
    fn emit(&mut self, event_type: EventType, object: &Arc<Value>) -> Flow {
        let faults = self.faults;
        let at = Some(self.sent);
        if faults.close_after == at {
            self.shared.faults.fired(Fired::Closed);
            return Flow::Drop;
        }
        if faults.expire_after == at {
            let status = Status::failure(
                410,
                "Expired",
                format!(
                    "too old resource version: {} ({})",
                    object["metadata"]["resourceVersion"]
                        .as_str()
                        .unwrap_or("0"),
                    self.shared.store.current_resource_version()
                ),
            );
            self.shared.faults.fired(Fired::Expired);
            return match self.write_event(EventType::Error, status_value(&status)) {
                Ok(()) => Flow::End,
                Err(_) => Flow::Drop,
            };
        }
        if faults.stall_after == at {
            self.shared.faults.fired(Fired::Stalled);
            let until = Instant::now() + Duration::from_secs(faults.stall_secs);
            while Instant::now() < until && !self.shared.shutdown.load(Ordering::SeqCst) {
                std::thread::sleep(TICK.min(until.saturating_duration_since(Instant::now())));
            }
            return Flow::Drop;
        }
        if faults.invalid_json_after == at {
            self.faults.invalid_json_after = None;
            self.shared.faults.fired(Fired::InvalidJson);
            if http::write_chunk(
                self.out,
                b"{\"type\":\"MODIFIED\",\"object\":{this is not json\n",
            )
            .is_err()
            {
                return Flow::Drop;
            }
        }
        let mut object = (**object).clone();
        if let (Some(bytes), 0) = (faults.huge_object_bytes, self.sent) {
            self.shared.faults.fired(Fired::Padded);
            object["metadata"]["annotations"]["kw.sim/padding"] = json!("x".repeat(bytes));
        }
        let rendered = self.render(object);
        let line = event_line(event_type, &rendered);
        if faults.cut_after == at {
            self.shared.faults.fired(Fired::Cut);
            let half = &line[..line.len() / 2];
            let mut framed = format!("{:x}\r\n", line.len()).into_bytes();
            framed.extend_from_slice(half);
            let _ = self.out.write_all(&framed).and_then(|()| self.out.flush());
            return Flow::Drop;
        }
        if faults.trickle_after == at {
            self.shared.faults.fired(Fired::Trickled);
            self.trickle(&line, Duration::from_millis(faults.trickle_ms));
            return Flow::Drop;
        }
        self.sent += 1;
        match http::write_chunk(self.out, &line) {
            Ok(()) => Flow::Continue,
            Err(_) => Flow::Drop,
        }
    }

    /// The chunk of `line` announced whole, then its first half a byte at a time, `pause`
    /// apart, until the client goes or the server stops.
    fn trickle(&mut self, line: &[u8], pause: Duration) {
        let head = format!("{:x}\r\n", line.len());
        if self
            .out
            .write_all(head.as_bytes())
            .and_then(|()| self.out.flush())
            .is_err()
        {
            return;
        }
        for byte in &line[..line.len() / 2] {
            let until = Instant::now() + pause;
            while Instant::now() < until {
                if self.shared.shutdown.load(Ordering::SeqCst) {
                    return;
                }
                std::thread::sleep(TICK.min(until.saturating_duration_since(Instant::now())));
            }
            let sent = self
                .out
                .write_all(std::slice::from_ref(byte))
                .and_then(|()| self.out.flush());
            if sent.is_err() {
                return;
            }
        }
    }

    /// Render an object as the client asked: itself, or a one-row Table.
    fn render(&mut self, object: Value) -> Value {
        match self.request.rendering {
            Rendering::Json => object,
            Rendering::Table => {
                let plural = self.request.info.plural;
                let row = table::row(
                    plural,
                    &object,
                    self.request.include,
                    self.shared.store.now(),
                );
                let mut metadata = Map::new();
                metadata.insert(
                    "resourceVersion".into(),
                    object["metadata"]["resourceVersion"].clone(),
                );
                table::table(self.columns(), vec![row], metadata)
            }
        }
    }

    /// Column definitions for the first Table event of the stream only.
    fn columns(&mut self) -> Value {
        if self.columns_sent {
            Value::Null
        } else {
            self.columns_sent = true;
            table::columns(self.request.info.plural)
        }
    }

    fn bookmark(&mut self, resource_version: u64, initial_events_end: bool) -> Flow {
        let info = self.request.info;
        let mut metadata = json!({"resourceVersion": resource_version.to_string()});
        if initial_events_end {
            metadata["annotations"] = json!({ INITIAL_EVENTS_END: "true" });
        }
        let object = json!({
            "kind": info.kind,
            "apiVersion": info.api_version(),
            "metadata": metadata,
        });
        let rendered = match self.request.rendering {
            Rendering::Json => object,
            Rendering::Table => {
                let row = json!({
                    "cells": [],
                    "object": table::partial_metadata(&object),
                });
                let mut table_metadata = Map::new();
                table_metadata.insert(
                    "resourceVersion".into(),
                    json!(resource_version.to_string()),
                );
                table::table(self.columns(), vec![row], table_metadata)
            }
        };
        match self.write_event(EventType::Bookmark, rendered) {
            Ok(()) => {
                self.shared
                    .last_bookmark
                    .fetch_max(resource_version, Ordering::SeqCst);
                Flow::Continue
            }
            Err(_) => Flow::Drop,
        }
    }

    fn write_event(&mut self, event_type: EventType, object: Value) -> io::Result<()> {
        http::write_chunk(self.out, &event_line(event_type, &object))
    }

    fn finish(&mut self) -> StreamEnd {
        match http::write_stream_end(self.out) {
            Ok(()) => StreamEnd::Clean,
            Err(_) => StreamEnd::Drop,
        }
    }
}

/// `{"type":T,"object":O}` and a newline.
fn event_line(event_type: EventType, object: &Value) -> Vec<u8> {
    let mut line = Vec::with_capacity(256);
    line.extend_from_slice(b"{\"type\":\"");
    line.extend_from_slice(event_type.as_str().as_bytes());
    line.extend_from_slice(b"\",\"object\":");
    // Writing a Value into a Vec cannot fail.
    let _ = serde_json::to_writer(&mut line, object);
    line.extend_from_slice(b"}\n");
    line
}

fn status_value(status: &Status) -> Value {
    serde_json::to_value(status).unwrap_or(Value::Null)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn event_lines_are_one_json_object_per_line() {
        let line = event_line(EventType::Modified, &json!({"a": 1}));
        assert_eq!(line, b"{\"type\":\"MODIFIED\",\"object\":{\"a\":1}}\n");
        let parsed: Value = serde_json::from_slice(&line).unwrap();
        assert_eq!(parsed["type"], "MODIFIED");
    }
}
