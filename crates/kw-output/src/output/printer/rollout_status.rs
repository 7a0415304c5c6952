//! `kw rollout status`: kubectl's status-viewer line for each state of the object, printed
//! when kubectl prints it: on every ADDED or MODIFIED event (kubectl's informer hands it one
//! per event, unchanged lines included), nothing for a deletion or for a state the viewer
//! answers with an error (kubectl's `error:` line is the verdict's, on stderr). Kinds kubectl
//! has no viewer for are said by kw's readiness rules, one line per change of judgement.
//!
//! Nothing here judges: the run's judge judges each event by kubectl's viewers
//! (`Readiness::Kubectl`, whose judgement carries kubectl's message) before it comes down, and
//! the event carries that judgement here (`Event::judged`).
//!
//! Every line is server text (a name, a condition's message, a revision): it is written as one
//! line with terminal controls shown (`escape::write_escaped_line`), as stderr writes its own, so
//! an OSC 52 in a Job's message reaches stdout as `^[]52;...` and a name cannot forge a line.

use std::collections::{HashMap, HashSet};
use std::io::{self, Write};

use crate::output::escape::write_escaped_line;
use kw_events::events::{kind_prefix, Event};
use kw_events::readiness::status_viewer::has_viewer;
use kw_events::readiness::{Judgement, State};
use kw_wait::wait::Key;
use kw_wire::EventType;

use super::contract::DecodedObject;
use super::Printer;

#[derive(Default)]
pub struct RolloutStatusPrinter {
    /// Per object without a viewer (by context, resource, namespace and name): the judgement
    /// last printed. Forgotten when the object is deleted.
    said: HashMap<Key, Judgement>,
    /// Objects whose rollout has been said to be done: kubectl stops watching one there, so
    /// nothing more is printed of it while the run waits for others (other contexts').
    done: HashSet<Key>,
}

impl RolloutStatusPrinter {
    /// kw's line for an object kubectl has no viewer for, when its judgement changed.
    fn judged_line(&mut self, key: Key, label: String, judgement: Judgement) -> Option<String> {
        if self.said.get(&key) == Some(&judgement) {
            return None;
        }
        let line = format!("{label}: {judgement}");
        self.said.insert(key, judgement);
        Some(line)
    }
}

impl Printer for RolloutStatusPrinter {
    fn print_decoded(
        &mut self,
        event: &Event<'_>,
        _object: DecodedObject<'_>,
        out: &mut dyn Write,
    ) -> io::Result<()> {
        if event.kind == EventType::Deleted {
            self.said.remove(&Key::of(event));
            return Ok(());
        }
        // An event no judge has seen, or an object that cannot be read, has no judgement: no
        // status to say.
        let Some(judgement) = event.judged.and_then(|note| note.judgement).cloned() else {
            return Ok(());
        };
        let resource = event.resource;
        let key = Key::of(event);
        if self.done.contains(&key) {
            return Ok(());
        }
        let done = judgement.state == State::Ready;
        let line = if has_viewer(&resource.group, &resource.kind) {
            // kubectl's viewer: its message on every event; an error is the verdict's.
            (judgement.state != State::Failed).then(|| judgement.message.clone())
        } else {
            let label = format!(
                "{}/{}",
                kind_prefix(&resource.kind, &resource.group),
                event.name
            );
            self.judged_line(key.clone(), label, judgement)
        };
        let Some(line) = line else {
            return Ok(());
        };
        if done {
            self.done.insert(key);
        }
        let mut bytes = Vec::with_capacity(line.len() + 32);
        if let Some(context) = event.context {
            write_escaped_line(&mut bytes, context);
            bytes.extend_from_slice(b": ");
        }
        write_escaped_line(&mut bytes, line.trim_end_matches('\n'));
        bytes.push(b'\n');
        out.write_all(&bytes)
    }

    fn checkpoint(&mut self, _out: &mut dyn Write) -> io::Result<()> {
        Ok(())
    }

    fn finish(&mut self, _closing: &super::Closing<'_>, _out: &mut dyn Write) -> io::Result<()> {
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;
    use serde_json::value::RawValue;

    use super::*;
    use kw_events::events::{JudgeNote, Origin, ResourceInfo};

    /// Print `object`'s event as the run does: judged first (by kubectl's viewers, as the
    /// judge of `rollout status` judges), then printed.
    fn print(
        printer: &mut RolloutStatusPrinter,
        kind: &str,
        group: &str,
        object: serde_json::Value,
    ) -> String {
        print_named(printer, kind, group, "web", object)
    }

    fn print_named(
        printer: &mut RolloutStatusPrinter,
        kind: &str,
        group: &str,
        name: &str,
        object: serde_json::Value,
    ) -> String {
        print_in(printer, None, kind, group, name, object)
    }

    fn print_in(
        printer: &mut RolloutStatusPrinter,
        context: Option<&str>,
        kind: &str,
        group: &str,
        name: &str,
        object: serde_json::Value,
    ) -> String {
        let judgement = kw_events::readiness::status_viewer::Readiness::Kubectl { revision: 0 }
            .judge(group, kind, &object, std::time::SystemTime::now());
        let resource = ResourceInfo {
            plural: format!("{}s", kind.to_lowercase()),
            singular: kind.to_lowercase(),
            kind: kind.into(),
            group: group.into(),
            version: "v1".into(),
            namespaced: true,
        };
        let raw = RawValue::from_string(object.to_string()).unwrap();
        let event = Event {
            kind: EventType::Modified,
            origin: Origin::Watch,
            resource: &resource,
            object: &raw,
            object_lacks_type: false,
            name,
            namespace: "default",
            row: None,
            context,
            judged: Some(JudgeNote {
                prints: 0,
                judgement: Some(&judgement),
            }),
        };
        let mut out = Vec::new();
        printer.print(&event, &mut out).unwrap();
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn every_event_prints_kubectls_line_and_an_error_prints_nothing() {
        let mut printer = RolloutStatusPrinter::default();
        let waiting = json!({"metadata": {"name": "web", "generation": 2}, "status": {"observedGeneration": 1}});
        let line = "Waiting for deployment spec update to be observed...\n";
        assert_eq!(
            print(&mut printer, "Deployment", "apps", waiting.clone()),
            line
        );
        // kubectl says it again for an event that changes nothing it looks at.
        assert_eq!(print(&mut printer, "Deployment", "apps", waiting), line);
        let failed = json!({"metadata": {"name": "web"}, "status": {"conditions": [{"type": "Progressing", "reason": "ProgressDeadlineExceeded"}]}});
        assert_eq!(print(&mut printer, "Deployment", "apps", failed), "");
    }

    /// kubectl stops watching an object once its rollout is done: a run that goes on for
    /// other objects (other contexts') prints nothing more of it.
    #[test]
    fn nothing_more_is_printed_of_an_object_once_it_is_done() {
        let mut printer = RolloutStatusPrinter::default();
        let done = json!({"metadata": {"name": "web", "generation": 1}, "spec": {"replicas": 1},
            "status": {"observedGeneration": 1, "replicas": 1, "updatedReplicas": 1, "availableReplicas": 1}});
        let said = print(&mut printer, "Deployment", "apps", done.clone());
        assert_eq!(said, "deployment \"web\" successfully rolled out\n");
        assert_eq!(print(&mut printer, "Deployment", "apps", done), "");
    }

    #[test]
    fn kinds_without_a_viewer_print_kws_judgement_when_it_changes() {
        let mut printer = RolloutStatusPrinter::default();
        let running = json!({"metadata": {"name": "web"}, "status": {"active": 1}});
        let first = print(&mut printer, "Job", "batch", running.clone());
        assert!(first.starts_with("job.batch/web: in progress"), "{first}");
        assert_eq!(print(&mut printer, "Job", "batch", running), "");
    }

    /// Two objects of one name in two contexts are two objects: each says its judgement.
    #[test]
    fn a_judgement_is_said_once_per_object_not_per_label() {
        let mut printer = RolloutStatusPrinter::default();
        let running = json!({"metadata": {"name": "web"}, "status": {"active": 1}});
        let said = |printer: &mut RolloutStatusPrinter, context| {
            print_in(
                printer,
                Some(context),
                "Job",
                "batch",
                "web",
                running.clone(),
            )
        };
        assert!(said(&mut printer, "eu").starts_with("eu: job.batch/web: in progress"));
        assert!(said(&mut printer, "us").starts_with("us: job.batch/web: in progress"));
        assert_eq!(said(&mut printer, "eu"), "");
    }

    /// Server text reaches stdout shown, not obeyed, and on one line: a Job's message with
    /// OSC 52, OSC 0, the 8-bit CSI and SGR 8, a name holding a line break.
    #[test]
    fn terminal_controls_and_line_breaks_from_the_server_are_shown_on_one_line() {
        let mut printer = RolloutStatusPrinter::default();
        let message = "copy\x1b]52;c;ZXZpbA==\x07 title\x1b]0;pwned\x07 \u{9b}2J \x1b[8mhidden";
        let failed = json!({"metadata": {"name": "web\nkw: forged"}, "status": {"conditions": [
            {"type": "Failed", "status": "True", "reason": "BackoffLimitExceeded", "message": message}]}});
        let said = print_named(&mut printer, "Job", "batch", "web\nkw: forged", failed);
        assert_eq!(said.matches('\n').count(), 1, "{said:?}");
        assert!(said.starts_with("job.batch/web\\nkw: forged: "), "{said:?}");
        assert!(
            said.contains("copy^[]52;c;ZXZpbA==^G title^[]0;pwned^G \\u{9b}2J ^[[8mhidden"),
            "{said:?}"
        );
        assert!(
            !said.chars().any(|c| c.is_control() && c != '\n'),
            "{said:?}"
        );
    }
}
