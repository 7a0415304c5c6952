//! One watch stream read: its frames decoded into events and each handled (printed, moving the
//! resourceVersion, or ending the stream), and a stream gone silent parked.

use std::io::{self, Read};
use std::sync::Arc;
use std::time::{Duration, Instant};

use serde_json::value::RawValue;

use crate::watcher::ends::{flow, Interrupted, StreamEnd};
use crate::watcher::error::WatchError;
use crate::watcher::pacing::pause_after_break;
use crate::watcher::state::Phase;
use crate::watcher::state::{listed_event, seen_of, WatchState};
use crate::watcher::streaming;
use kw_base::log;
use kw_base::parking::Parked;
use kw_base::vlog;
use kw_client::client::idle::{EventClock, NoWholeEvent, UntilIdle};
use kw_client::client::probe::Probe;
use kw_events::decode::{self, DecodeError, Framer, ObjectHead, TableBody, WireEvent};
use kw_events::events::{Origin, Sink};
use kw_wire::{EventType, Status};

/// A watch stream being read, kept between the turns of a watch that parks.
pub(super) struct OpenStream {
    framer: Framer<Box<dyn Read + Send + Sync>>,
    /// What its connection buffers, when that can be seen whole.
    probe: Option<Arc<Probe>>,
    events: u64,
    /// When the request was made.
    started: Instant,
    /// When the last whole event came: the idle timeout counts from it, not from the last
    /// byte (a trickle of bytes that never make an event is a dead stream).
    clock: EventClock,
}

impl OpenStream {
    pub(super) fn new(
        stream: kw_client::client::Stream,
        max_object_size: usize,
        started: Instant,
        idle: Duration,
    ) -> OpenStream {
        let (reader, clock) = UntilIdle::new(stream.reader, idle);
        OpenStream {
            framer: Framer::new(Box::new(reader), max_object_size),
            probe: stream.probe,
            events: 0,
            started,
            clock,
        }
    }

    fn ended(&self, end: StreamEnd) -> StreamStep {
        StreamStep::Ended {
            end,
            events: self.events,
            started: self.started,
        }
    }
}

/// How reading a stream stopped.
pub(super) enum StreamStep {
    Ended {
        end: StreamEnd,
        events: u64,
        started: Instant,
    },
    Parked(Parked),
}

/// Read `open` until it ends, or parks (once silent for `park_after`, if given).
pub(super) fn read(
    state: &mut WatchState<'_>,
    phase: &mut Phase,
    open: &mut OpenStream,
    park_after: Option<Duration>,
    sink: &mut dyn Sink,
) -> Result<StreamStep, Interrupted> {
    loop {
        if let Some(step) = wait_or_park(state, open, park_after) {
            return Ok(step);
        }
        let framer = &mut open.framer;
        let events = open.events;
        let (offset, frame) = match framer.next_frame_at() {
            Ok(Some(frame)) => {
                open.clock.whole_event();
                frame
            }
            Ok(None) => return Ok(open.ended(StreamEnd::Clean)),
            Err(DecodeError::Io(e)) => {
                if state.deadline_passed() {
                    return Ok(open.ended(StreamEnd::Deadline));
                }
                let error = state.client.broken(&e);
                kw_base::notices::trouble(&format!("{error}; resuming"));
                let pause = pause_after_break(&mut state.backoff, events);
                return Ok(open.ended(StreamEnd::Broken { pause }));
            }
            Err(e @ DecodeError::TooLarge { .. }) => return Err(e.into()),
            Err(e) => {
                kw_base::notices::trouble(&format!("{e}; resuming"));
                let pause = pause_after_break(&mut state.backoff, events);
                return Ok(open.ended(StreamEnd::Broken { pause }));
            }
        };
        // Each frame is decoded once, for all its event needs: in table mode its object is
        // read as the Table it usually is, or for its head when it is not one.
        let decoded = if state.tables() {
            decode::table_event(frame)
        } else {
            decode::wire_event(frame)
        };
        let event = match decoded {
            Ok(event) => event,
            Err(e) => {
                let error = DecodeError::InvalidJson {
                    offset,
                    reason: e.to_string(),
                };
                kw_base::notices::trouble(&format!("{error}; resuming"));
                let pause = pause_after_break(&mut state.backoff, events);
                return Ok(open.ended(StreamEnd::Broken { pause }));
            }
        };
        open.events += 1;
        state.backoff.healthy(Instant::now());
        if let Some(end) = handle_event(state, phase, event, offset, sink)? {
            return Ok(open.ended(end));
        }
        flow(sink.checkpoint(open.framer.has_buffered_frame()))?;
    }
}

/// Before a read of a drained stream (nothing buffered above its socket; only with
/// `park_after`): wait for its socket that long at most. `None`: read on (the socket is
/// readable, or parking is off, or something is buffered). A stream silent past the idle
/// timeout is broken, as a read that waited that long; one silent for the while parks.
fn wait_or_park(
    state: &mut WatchState<'_>,
    open: &mut OpenStream,
    park_after: Option<Duration>,
) -> Option<StreamStep> {
    let (Some(after), Some(probe)) = (park_after, open.probe.as_ref()) else {
        return None;
    };
    let fd = probe.fd()?;
    if open.framer.has_buffered_frame() || !probe.is_drained() {
        return None;
    }
    let now = Instant::now();
    let idle = state.client.idle_timeout();
    let mut wake_at = now.checked_add(idle.saturating_sub(open.clock.silent_for()))?;
    if let Some(deadline) = state.options.deadline {
        wake_at = wake_at.min(deadline);
    }
    if kw_client::client::probe::wait_readable(
        fd,
        after.min(wake_at.saturating_duration_since(now)),
    ) {
        return None;
    }
    if state.deadline_passed() {
        return Some(open.ended(StreamEnd::Deadline));
    }
    if open.clock.silent_for() >= idle {
        let error = state.client.broken(&io::Error::new(
            io::ErrorKind::TimedOut,
            NoWholeEvent { idle },
        ));
        kw_base::notices::trouble(&format!("{error}; resuming"));
        let pause = pause_after_break(&mut state.backoff, open.events);
        return Some(open.ended(StreamEnd::Broken { pause }));
    }
    Some(StreamStep::Parked(Parked { fd, wake_at }))
}

/// One decoded watch event. Returns how the stream ends, if this event ends it.
fn handle_event(
    state: &mut WatchState<'_>,
    phase: &mut Phase,
    mut event: WireEvent<'_>,
    offset: u64,
    sink: &mut dyn Sink,
) -> Result<Option<StreamEnd>, Interrupted> {
    let Some(kind) = EventType::parse(&event.kind) else {
        kw_base::notices::notice(&format!(
            "the server sent an unknown watch event type {:?} at byte {offset}; resuming",
            event.kind
        ));
        let pause = state.backoff.failed(Instant::now());
        return Ok(Some(StreamEnd::Broken { pause }));
    };
    match kind {
        EventType::Error => {
            let status: Status = serde_json::from_str(event.object.get()).unwrap_or_default();
            if status.is_expired() {
                vlog!(log::REQUESTS, "watch expired: {}", status.message);
                return Ok(Some(StreamEnd::Expired));
            }
            kw_base::notices::notice(&format!(
                "the server reported an error on the watch: {}; resuming",
                if status.message.is_empty() {
                    event.object.get()
                } else {
                    &status.message
                }
            ));
            let pause = state.backoff.failed(Instant::now());
            Ok(Some(StreamEnd::Broken { pause }))
        }
        EventType::Bookmark => {
            let head = event.head().unwrap_or_default();
            let table = if state.tables() {
                event.take_table().ok().flatten()
            } else {
                None
            };
            state.seen_up_to(&bookmark_resource_version(&head, table.as_ref()));
            if phase.syncing().is_some()
                && head
                    .metadata
                    .has_true_annotation(kw_wire::INITIAL_EVENTS_END)
            {
                streaming::finish(state, phase, sink)?;
            }
            Ok(None)
        }
        EventType::Added if phase.syncing().is_some() => {
            // An object of the initial state: compared with what was printed, like a LIST
            // item. Its resourceVersion is not a position in the stream: only the end
            // bookmark says where the stream is.
            let head: ObjectHead = event.head().map_err(|e| bad_event(offset, e))?;
            let seen = seen_of(&head, None);
            let change = state.known.listed(&seen);
            let (origin, print) = phase
                .syncing()
                .map(|p| (p.origin, p.print))
                .unwrap_or((Origin::List, true));
            if print {
                if let Some(kind) = listed_event(change) {
                    state.emit(sink, kind, origin, event.object, &head, None, false)?;
                }
            }
            Ok(None)
        }
        EventType::Added | EventType::Modified | EventType::Deleted => {
            if state.tables() {
                match event.take_table().map_err(|e| bad_event(offset, e))? {
                    Some(table) => {
                        table_rows(state, kind, table, offset, sink)?;
                        return Ok(None);
                    }
                    None => state.tables_unavailable(),
                }
            }
            let head: ObjectHead = event.head().map_err(|e| bad_event(offset, e))?;
            let seen = seen_of(&head, None);
            if state.known.watched(kind, &seen) {
                state.emit(sink, kind, Origin::Watch, event.object, &head, None, false)?;
            }
            state.note_if_left_selector(kind, &head);
            state.seen_up_to(&head.metadata.resource_version);
            Ok(None)
        }
    }
}

/// The rows of one Table watch event (one row, as servers send them).
fn table_rows(
    state: &mut WatchState<'_>,
    kind: EventType,
    table: TableBody<'_>,
    offset: u64,
    sink: &mut dyn Sink,
) -> Result<(), Interrupted> {
    if let Some(columns) = table.column_definitions {
        state.take_columns(columns);
    }
    for row in &table.rows {
        let object = row.object.unwrap_or(RawValue::NULL);
        let head: ObjectHead = row.head().unwrap_or_default();
        let cells = row
            .printed_cells(state.column_count())
            .map_err(|e| bad_event(offset, e))?;
        let seen = seen_of(&head, Some(&cells));
        if state.known.watched(kind, &seen) {
            state.emit(
                sink,
                kind,
                Origin::Watch,
                object,
                &head,
                Some(&cells),
                false,
            )?;
        }
        state.note_if_left_selector(kind, &head);
        state.seen_up_to(&head.metadata.resource_version);
    }
    state.seen_up_to(&table.metadata.resource_version);
    Ok(())
}

/// The resourceVersion a bookmark carries: on its object, or in table mode on the Table it is
/// (or on the Table's first row).
fn bookmark_resource_version(head: &ObjectHead<'_>, table: Option<&TableBody<'_>>) -> String {
    if let Some(table) = table {
        if !table.metadata.resource_version.is_empty() {
            return table.metadata.resource_version.clone().into_owned();
        }
        if let Some(row) = table.rows.first().filter(|row| row.object.is_some()) {
            return row
                .head()
                .unwrap_or_default()
                .metadata
                .resource_version
                .into_owned();
        }
    }
    head.metadata.resource_version.clone().into_owned()
}

fn bad_event(offset: u64, e: serde_json::Error) -> WatchError {
    WatchError::Decode(DecodeError::InvalidJson {
        offset,
        reason: e.to_string(),
    })
}
