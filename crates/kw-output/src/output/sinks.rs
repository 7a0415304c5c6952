//! Sink adapters for `kw get` over several resource types or contexts: a prefix that says each
//! row's kind (`pod/web-1`, `deployment.apps/web`, as kubectl prints several types), a label
//! that says each event's context, a sink that several watcher threads can share, merging
//! their events into one output stream, a tee, and the gate of `-o name` under `--until`
//! (`chain` puts them in order, behind the depth bound of `kw_events::events`).

use std::io;
use std::sync::{Arc, Mutex};

use serde_json::Value;

use kw_events::events::{kind_prefix, Event, Flow, Sink, TableRow};

/// Puts `kind/` in front of the name cell of every table row.
pub struct WithKind<S> {
    inner: S,
    cells: Vec<Value>,
}

impl<S: Sink> WithKind<S> {
    pub fn new(inner: S) -> WithKind<S> {
        WithKind {
            inner,
            cells: Vec::new(),
        }
    }

    pub fn into_inner(self) -> S {
        self.inner
    }
}

impl<S: Sink> Sink for WithKind<S> {
    fn event(&mut self, event: &Event<'_>) -> io::Result<Flow> {
        let Some(row) = event.row else {
            return self.inner.event(event);
        };
        let name_column = row.columns.iter().position(|c| c.format == "name");
        let Some(index) = name_column.filter(|i| *i < row.cells.len()) else {
            return self.inner.event(event);
        };
        self.cells.clear();
        self.cells.extend_from_slice(row.cells);
        let name = match &row.cells[index] {
            Value::String(s) => s.clone(),
            other => other.to_string(),
        };
        self.cells[index] = Value::String(format!(
            "{}/{name}",
            kind_prefix(&event.resource.kind, &event.resource.group)
        ));
        let prefixed = Event {
            row: Some(TableRow {
                columns: row.columns,
                cells: &self.cells,
                generation: row.generation,
            }),
            ..*event
        };
        self.inner.event(&prefixed)
    }

    fn checkpoint(&mut self, more_ready: bool) -> io::Result<Flow> {
        self.inner.checkpoint(more_ready)
    }

    fn synced(&mut self) -> io::Result<Flow> {
        self.inner.synced()
    }
}

/// Labels every event with the kubeconfig context it came from (a run over several contexts):
/// the printers then add a CONTEXT column, a `CONTEXT/` prefix or a `"kw":{"context":..}` member.
pub struct WithContext<S> {
    inner: S,
    context: Arc<str>,
}

impl<S: Sink> WithContext<S> {
    pub fn new(inner: S, context: Arc<str>) -> WithContext<S> {
        WithContext { inner, context }
    }
}

impl<S: Sink> Sink for WithContext<S> {
    fn event(&mut self, event: &Event<'_>) -> io::Result<Flow> {
        let labelled = Event {
            context: Some(&self.context),
            ..*event
        };
        self.inner.event(&labelled)
    }

    fn checkpoint(&mut self, more_ready: bool) -> io::Result<Flow> {
        self.inner.checkpoint(more_ready)
    }

    fn synced(&mut self) -> io::Result<Flow> {
        self.inner.synced()
    }
}

/// One sink shared by several watcher threads; each event and checkpoint is written whole.
pub struct Shared<S>(pub Arc<Mutex<S>>);

impl<S> Clone for Shared<S> {
    fn clone(&self) -> Self {
        Shared(Arc::clone(&self.0))
    }
}

impl<S: Sink> Sink for Shared<S> {
    fn event(&mut self, event: &Event<'_>) -> io::Result<Flow> {
        kw_base::mutex::lock(&self.0).event(event)
    }

    fn checkpoint(&mut self, more_ready: bool) -> io::Result<Flow> {
        kw_base::mutex::lock(&self.0).checkpoint(more_ready)
    }

    fn synced(&mut self) -> io::Result<Flow> {
        kw_base::mutex::lock(&self.0).synced()
    }
}

/// `-o name` under `--until` prints what kubectl wait prints: each object once, when it first
/// meets an `--until` condition (`deployment.apps/shop`), not once per event (once per
/// condition met, under kubectl wait's repeated `--for`). The judge says which event that is,
/// on the event itself (`Event::judged`, `JudgeNote::prints`); the gate, just above the output,
/// passes that event on as many times as the judge said (none for an event no judge has seen)
/// and holds back the rest. The run's auxiliary watches still see every event (their tap is
/// above the gate).
pub struct Gate<S> {
    inner: S,
}

impl<S: Sink> Gate<S> {
    pub fn new(inner: S) -> Gate<S> {
        Gate { inner }
    }
}

impl<S: Sink> Sink for Gate<S> {
    fn event(&mut self, event: &Event<'_>) -> io::Result<Flow> {
        let prints = event.judged.map_or(0, |note| note.prints);
        for _ in 0..prints {
            if self.inner.event(event)? == Flow::Stop {
                return Ok(Flow::Stop);
            }
        }
        Ok(Flow::Continue)
    }

    fn checkpoint(&mut self, more_ready: bool) -> io::Result<Flow> {
        self.inner.checkpoint(more_ready)
    }

    fn synced(&mut self) -> io::Result<Flow> {
        self.inner.synced()
    }
}

/// Shows every event to a consumer inside kw (a run's auxiliary watches) before passing it on,
/// whether or not the printer prints it.
pub struct Tee<'a, S> {
    side: &'a mut dyn FnMut(&Event<'_>),
    inner: S,
}

impl<'a, S: Sink> Tee<'a, S> {
    pub fn new(side: &'a mut dyn FnMut(&Event<'_>), inner: S) -> Tee<'a, S> {
        Tee { side, inner }
    }
}

impl<S: Sink> Sink for Tee<'_, S> {
    fn event(&mut self, event: &Event<'_>) -> io::Result<Flow> {
        (self.side)(event);
        self.inner.event(event)
    }

    fn checkpoint(&mut self, more_ready: bool) -> io::Result<Flow> {
        self.inner.checkpoint(more_ready)
    }

    fn synced(&mut self) -> io::Result<Flow> {
        self.inner.synced()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use kw_events::events::{Origin, ResourceInfo};
    use kw_wire::{EventType, TableColumnDefinition};
    use serde_json::value::RawValue;

    #[derive(Default)]
    struct Collect(Vec<Vec<Value>>);

    impl Sink for Collect {
        fn event(&mut self, event: &Event<'_>) -> io::Result<Flow> {
            self.0
                .push(event.row.map(|r| r.cells.to_vec()).unwrap_or_default());
            Ok(Flow::Continue)
        }
        fn checkpoint(&mut self, _: bool) -> io::Result<Flow> {
            Ok(Flow::Continue)
        }
    }

    #[test]
    fn prefixes_the_name_cell_with_kind_and_group() {
        let resource = ResourceInfo {
            plural: "deployments".into(),
            singular: "deployment".into(),
            kind: "Deployment".into(),
            group: "apps".into(),
            version: "v1".into(),
            namespaced: true,
        };
        let columns = vec![
            TableColumnDefinition {
                name: "Name".into(),
                column_type: "string".into(),
                format: "name".into(),
                ..Default::default()
            },
            TableColumnDefinition {
                name: "Ready".into(),
                column_type: "string".into(),
                ..Default::default()
            },
        ];
        let cells = vec![Value::from("web"), Value::from("1/1")];
        let event = Event {
            kind: EventType::Added,
            origin: Origin::List,
            resource: &resource,
            object: RawValue::NULL,
            object_lacks_type: false,
            name: "web",
            namespace: "ns",
            row: Some(TableRow {
                columns: &columns,
                cells: &cells,
                generation: 0,
            }),
            context: None,
            judged: None,
        };
        let mut sink = WithKind::new(Collect::default());
        assert_eq!(sink.event(&event).unwrap(), Flow::Continue);
        assert_eq!(
            sink.into_inner().0,
            vec![vec![Value::from("deployment.apps/web"), Value::from("1/1")]]
        );
    }

    /// The gate passes an event on as many times as the judge's note on it says, and holds
    /// back an event no judge has seen.
    #[test]
    fn the_gate_passes_an_event_as_often_as_the_judge_says() {
        let resource = ResourceInfo {
            plural: "pods".into(),
            singular: "pod".into(),
            kind: "Pod".into(),
            group: String::new(),
            version: "v1".into(),
            namespaced: true,
        };
        let unjudged = Event {
            kind: EventType::Modified,
            origin: Origin::Watch,
            resource: &resource,
            object: RawValue::NULL,
            object_lacks_type: false,
            name: "web",
            namespace: "ns",
            row: None,
            context: None,
            judged: None,
        };
        let passed = |event: &Event<'_>| {
            let mut gate = Gate::new(Collect::default());
            assert_eq!(gate.event(event).unwrap(), Flow::Continue);
            gate.inner.0.len()
        };
        assert_eq!(passed(&unjudged), 0);
        for prints in [0, 1, 2] {
            let note = kw_events::events::JudgeNote {
                prints,
                judgement: None,
            };
            let judged = Event {
                judged: Some(note),
                ..unjudged
            };
            assert_eq!(passed(&judged), prints);
        }
    }
}
