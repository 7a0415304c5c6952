//! The sinks between a watcher and the printer's sink, assembled here and only here, always in
//! one order. Outermost first, as an event meets them:
//!
//! 1. `DepthBound`: no object deeper than the threads' stacks are sized for goes further.
//! 2. `WithContext`: over several contexts, the context's label, set before the judge looks.
//! 3. `ConditionSink`: the judge's word on the event (`Event::judged`).
//! 4. `WithKind`: the kind prefix of a list of several types.
//! 5. `Tee`: a consumer inside kw shown every event (a run's auxiliary watches).
//! 6. `Gate`: under `-o name` with `--until`, only what the judge says is printed.
//!
//! then the printer's own sink (a table, a stream, the live view).

use std::sync::Arc;

use kw_events::events::{DepthBound, Event, Sink};
use kw_wait::wait::{ConditionSink, SharedJudge};

use crate::output::sinks::{Gate, Tee, WithContext, WithKind};

/// Which links a watcher's chain has.
#[derive(Default)]
pub struct Links<'a> {
    /// The context whose label each event carries (a run over several contexts).
    pub context: Option<Arc<str>>,
    /// The run's judge, and the watcher's index among its watchers.
    pub judged: Option<(SharedJudge, usize)>,
    pub with_kind: bool,
    /// Shown every event, printed or not.
    pub tee: Option<&'a mut dyn FnMut(&Event<'_>)>,
    /// Print only the events the judge says to print (`-o name` under `--until`).
    pub gated: bool,
}

impl<'a> Links<'a> {
    /// The chain of these links in front of `output`.
    pub fn around(self, output: impl Sink + 'a) -> Box<dyn Sink + 'a> {
        let mut sink: Box<dyn Sink + 'a> = Box::new(output);
        if self.gated {
            sink = Box::new(Gate::new(sink));
        }
        if let Some(side) = self.tee {
            sink = Box::new(Tee::new(side, sink));
        }
        if self.with_kind {
            sink = Box::new(WithKind::new(sink));
        }
        if let Some((judge, index)) = self.judged {
            sink = Box::new(ConditionSink::new(judge, index, sink));
        }
        if let Some(context) = self.context {
            sink = Box::new(WithContext::new(sink, context));
        }
        Box::new(DepthBound::new(sink))
    }
}

/// The chain of a watch that parks between turns and moves from thread to thread: one that
/// has no judge, tee or gate (only such a watch parks), so only links 1, 2 and 4, in the same
/// order as `Links::around`.
pub fn parked(
    output: impl Sink + Send + 'static,
    context: Arc<str>,
    with_kind: bool,
) -> Box<dyn Sink + Send> {
    if with_kind {
        Box::new(DepthBound::new(WithContext::new(
            WithKind::new(output),
            context,
        )))
    } else {
        Box::new(DepthBound::new(WithContext::new(output, context)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::output::sinks::Shared;
    use kw_events::events::{Flow, JudgeNote, Origin, ResourceInfo, TableRow};
    use kw_wire::{EventType, TableColumnDefinition};
    use serde_json::value::RawValue;
    use serde_json::Value;
    use std::io;

    /// What reached the printer: each event's context and name cell.
    #[derive(Default)]
    struct Printed(Vec<(Option<String>, Value)>);

    impl Sink for Printed {
        fn event(&mut self, event: &Event<'_>) -> io::Result<Flow> {
            let name = event.row.map_or(Value::Null, |row| row.cells[0].clone());
            self.0.push((event.context.map(str::to_string), name));
            Ok(Flow::Continue)
        }
        fn checkpoint(&mut self, _: bool) -> io::Result<Flow> {
            Ok(Flow::Continue)
        }
    }

    /// Every link in its place: the tee sees each event, the gate passes what the judge's note
    /// says, and the printer gets the event labelled with its context and kind.
    #[test]
    fn the_links_stand_in_one_order() {
        let resource = ResourceInfo {
            plural: "deployments".into(),
            singular: "deployment".into(),
            kind: "Deployment".into(),
            group: "apps".into(),
            version: "v1".into(),
            namespaced: true,
        };
        let columns = [TableColumnDefinition {
            name: "Name".into(),
            column_type: "string".into(),
            format: "name".into(),
            ..Default::default()
        }];
        let cells = [Value::from("web")];
        let unjudged = Event {
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
        let note = JudgeNote {
            prints: 1,
            judgement: None,
        };
        let judged = Event {
            judged: Some(note),
            ..unjudged
        };
        let mut printed = Printed::default();
        let mut seen = 0;
        let mut tee = |_: &Event<'_>| seen += 1;
        let links = Links {
            context: Some(Arc::from("eu")),
            with_kind: true,
            tee: Some(&mut tee),
            gated: true,
            ..Links::default()
        };
        let mut chain = links.around(&mut printed);
        assert_eq!(chain.event(&unjudged).unwrap(), Flow::Continue);
        assert_eq!(chain.event(&judged).unwrap(), Flow::Continue);
        drop(chain);
        assert_eq!(seen, 2);
        let label = Some("eu".to_string());
        assert_eq!(printed.0, [(label, Value::from("deployment.apps/web"))]);
        // A parked watch's chain: its context's label, no kind prefix, nothing held back.
        let shared = Shared(Arc::new(std::sync::Mutex::new(Printed::default())));
        let mut chain = parked(shared.clone(), Arc::from("us"), false);
        assert_eq!(chain.event(&unjudged).unwrap(), Flow::Continue);
        let printed = &kw_base::mutex::lock(&shared.0).0;
        assert_eq!(printed, &[(Some("us".to_string()), Value::from("web"))]);
    }
}
