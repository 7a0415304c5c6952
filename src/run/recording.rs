//! A one-shot list read on a fleet member's own thread, kept to be printed on the run's thread
//! in its turn (`in_order`): what the watcher told its sink, owned, and how the watcher ended.
//! Replayed into the real sink, it tells that sink exactly what the watcher would have, so the
//! output is the same bytes as a list printed as it is read. It sits below the run's links
//! (context, judge, gate), which see the events when they are replayed, in the fleet's order.

use std::io;
use std::sync::Arc;

use kw_events::events::{Event, Flow, Origin, ResourceInfo, Sink, TableRow};
use kw_watcher::watcher::{WatchError, WatcherReport};
use kw_wire::{EventType, TableColumnDefinition};
use serde_json::value::RawValue;

/// What a watcher told its sink, and how it ended (`finished`).
pub(super) struct Recording {
    told: Vec<Told>,
    ended: Result<WatcherReport, WatchError>,
}

enum Told {
    Event(Owned),
    Checkpoint(bool),
    Synced,
}

/// An `Event`, owned. Rows of one set of columns share them, as the watcher's rows do.
struct Owned {
    kind: EventType,
    origin: Origin,
    resource: Arc<ResourceInfo>,
    object: Box<RawValue>,
    object_lacks_type: bool,
    name: String,
    namespace: String,
    row: Option<(Arc<[TableColumnDefinition]>, Vec<serde_json::Value>, u64)>,
}

/// Records what a watcher tells it; `finished` once the watcher has ended.
#[derive(Default)]
pub(super) struct Recorder {
    told: Vec<Told>,
}

impl Recorder {
    pub(super) fn finished(self, ended: Result<WatcherReport, WatchError>) -> Recording {
        Recording {
            told: self.told,
            ended,
        }
    }

    /// The last recorded event's resource and columns, shared when the next one's are the same.
    fn last(&self) -> Option<&Owned> {
        self.told.iter().rev().find_map(|told| match told {
            Told::Event(owned) => Some(owned),
            _ => None,
        })
    }
}

impl Sink for Recorder {
    fn event(&mut self, event: &Event<'_>) -> io::Result<Flow> {
        let last = self.last();
        let resource = match last {
            Some(last) if *last.resource == *event.resource => Arc::clone(&last.resource),
            _ => Arc::new(event.resource.clone()),
        };
        let row = event.row.map(|row| {
            let shared =
                last.and_then(|last| last.row.as_ref())
                    .filter(|(columns, _, at)| match row.generation {
                        0 => **columns == *row.columns,
                        generation => *at == generation,
                    });
            let columns = match shared {
                Some((columns, _, _)) => Arc::clone(columns),
                None => Arc::from(row.columns),
            };
            (columns, row.cells.to_vec(), row.generation)
        });
        self.told.push(Told::Event(Owned {
            kind: event.kind,
            origin: event.origin,
            resource,
            object: event.object.to_owned(),
            object_lacks_type: event.object_lacks_type,
            name: event.name.to_string(),
            namespace: event.namespace.to_string(),
            row,
        }));
        Ok(Flow::Continue)
    }

    fn checkpoint(&mut self, more_ready: bool) -> io::Result<Flow> {
        self.told.push(Told::Checkpoint(more_ready));
        Ok(Flow::Continue)
    }

    fn synced(&mut self) -> io::Result<Flow> {
        self.told.push(Told::Synced);
        Ok(Flow::Continue)
    }
}

impl Recording {
    /// Tell `sink` what the watcher told, and end as the watcher did, or where `sink` stops
    /// or fails (counting the events printed as the watcher counts them).
    pub(super) fn replay(self, sink: &mut dyn Sink) -> Result<WatcherReport, WatchError> {
        let mut printed = 0;
        for told in self.told {
            let flow = match &told {
                Told::Event(owned) => sink.event(&Event {
                    kind: owned.kind,
                    origin: owned.origin,
                    resource: &owned.resource,
                    object: &owned.object,
                    object_lacks_type: owned.object_lacks_type,
                    name: &owned.name,
                    namespace: &owned.namespace,
                    row: owned
                        .row
                        .as_ref()
                        .map(|(columns, cells, generation)| TableRow {
                            columns,
                            cells,
                            generation: *generation,
                        }),
                    context: None,
                    judged: None,
                }),
                Told::Checkpoint(more_ready) => sink.checkpoint(*more_ready),
                Told::Synced => sink.synced(),
            };
            match flow {
                Ok(Flow::Continue) => printed += u64::from(matches!(told, Told::Event(_))),
                Ok(Flow::Stop) => {
                    return Ok(WatcherReport {
                        printed,
                        stopped: true,
                    })
                }
                Err(error) => return Err(WatchError::Output(error)),
            }
        }
        self.ended
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Writes what it is told as lines, and stops at the event named `stop`.
    #[derive(Default)]
    struct Lines(Vec<String>);

    impl Sink for Lines {
        fn event(&mut self, event: &Event<'_>) -> io::Result<Flow> {
            let cells = event.row.map(|row| (row.columns.len(), row.cells.to_vec()));
            self.0
                .push(format!("{:?} {} {:?}", event.kind, event.name, cells));
            Ok(match event.name {
                "stop" => Flow::Stop,
                _ => Flow::Continue,
            })
        }

        fn checkpoint(&mut self, more_ready: bool) -> io::Result<Flow> {
            self.0.push(format!("checkpoint {more_ready}"));
            Ok(Flow::Continue)
        }

        fn synced(&mut self) -> io::Result<Flow> {
            self.0.push("synced".to_string());
            Ok(Flow::Continue)
        }
    }

    fn resource() -> ResourceInfo {
        ResourceInfo {
            plural: "pods".into(),
            singular: "pod".into(),
            kind: "Pod".into(),
            group: String::new(),
            version: "v1".into(),
            namespaced: true,
        }
    }

    fn tell(recorder: &mut Recorder, resource: &ResourceInfo, name: &str) {
        let columns = [TableColumnDefinition::default()];
        let cells = [serde_json::json!(name)];
        let object = RawValue::from_string("{}".to_string()).unwrap();
        let _ = recorder.event(&Event {
            kind: EventType::Added,
            origin: Origin::List,
            resource,
            object: &object,
            object_lacks_type: true,
            name,
            namespace: "default",
            row: Some(TableRow {
                columns: &columns,
                cells: &cells,
                generation: 7,
            }),
            context: None,
            judged: None,
        });
    }

    #[test]
    fn a_replay_tells_the_sink_what_the_watcher_told_and_ends_as_it_did() {
        let resource = resource();
        let mut recorder = Recorder::default();
        tell(&mut recorder, &resource, "a");
        tell(&mut recorder, &resource, "b");
        let _ = recorder.checkpoint(false);
        let _ = recorder.synced();
        let recording = recorder.finished(Ok(WatcherReport {
            printed: 2,
            stopped: false,
        }));
        let mut lines = Lines::default();
        let ended = recording.replay(&mut lines).unwrap();
        assert_eq!(
            lines.0,
            [
                "Added a Some((1, [String(\"a\")]))",
                "Added b Some((1, [String(\"b\")]))",
                "checkpoint false",
                "synced"
            ]
        );
        assert_eq!((ended.printed, ended.stopped), (2, false));
    }

    #[test]
    fn a_sink_that_stops_ends_the_replay_there_as_it_would_the_watcher() {
        let resource = resource();
        let mut recorder = Recorder::default();
        for name in ["a", "stop", "c"] {
            tell(&mut recorder, &resource, name);
        }
        let recording = recorder.finished(Ok(WatcherReport {
            printed: 3,
            stopped: false,
        }));
        let mut lines = Lines::default();
        let ended = recording.replay(&mut lines).unwrap();
        assert_eq!(lines.0.len(), 2, "{:?}", lines.0);
        assert_eq!((ended.printed, ended.stopped), (1, true));
    }
}
