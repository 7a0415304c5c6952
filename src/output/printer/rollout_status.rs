//! `kw rollout status`: kubectl's status-viewer line for each state of the object, printed
//! when kubectl prints it: on every ADDED or MODIFIED event (kubectl's informer hands it one
//! per event, unchanged lines included), nothing for a deletion or for a state the viewer
//! answers with an error (kubectl's `error:` line is the verdict's, on stderr). Kinds kubectl
//! has no viewer for are judged by kw's readiness rules, one line per change of judgement.

use std::io::{self, Write};
use std::time::SystemTime;

use crate::events::{kind_prefix, Event};
use crate::readiness::status_viewer::{self, Readiness};
use crate::readiness::Judgement;
use crate::wire::EventType;

use super::Printer;

pub struct RolloutStatusPrinter {
    revision: i64,
    /// Per object without a viewer: the judgement last printed.
    judged: Vec<(String, Judgement)>,
    /// Objects whose rollout has been said to be done: kubectl stops watching one there, so
    /// nothing more is printed of it while the run waits for others (other contexts').
    done: Vec<String>,
}

impl RolloutStatusPrinter {
    pub fn new(revision: i64) -> RolloutStatusPrinter {
        RolloutStatusPrinter {
            revision,
            judged: Vec::new(),
            done: Vec::new(),
        }
    }

    /// kw's line for an object kubectl has no viewer for, when its judgement changed, and
    /// whether it is ready.
    fn judged_line(
        &mut self,
        event: &Event<'_>,
        object: &serde_json::Value,
    ) -> Option<(String, bool)> {
        let resource = event.resource;
        let judgement =
            Readiness::Kw.judge(&resource.group, &resource.kind, object, SystemTime::now());
        let label = format!(
            "{}/{}",
            kind_prefix(&resource.kind, &resource.group),
            event.name
        );
        match self.judged.iter_mut().find(|(l, _)| *l == label) {
            Some((_, before)) if *before == judgement => return None,
            Some((_, before)) => *before = judgement.clone(),
            None => self.judged.push((label.clone(), judgement.clone())),
        }
        let ready = judgement.state == crate::readiness::State::Ready;
        Some((format!("{label}: {judgement}\n"), ready))
    }
}

impl Printer for RolloutStatusPrinter {
    fn print(&mut self, event: &Event<'_>, out: &mut dyn Write) -> io::Result<()> {
        if event.kind == EventType::Deleted {
            return Ok(());
        }
        // An object that cannot be read has no status to say; the judge says the same of it.
        let Ok(object) = crate::decode::value(event.object.get()) else {
            return Ok(());
        };
        let resource = event.resource;
        let key = format!(
            "{}/{}.{}/{}/{}",
            event.context.unwrap_or_default(),
            resource.plural,
            resource.group,
            event.namespace,
            event.name
        );
        if self.done.contains(&key) {
            return Ok(());
        }
        let line =
            match status_viewer::status(&resource.group, &resource.kind, &object, self.revision) {
                Some(Ok(status)) => Some((status.message, status.done)),
                Some(Err(_)) => None,
                None => self.judged_line(event, &object),
            };
        match line {
            Some((line, done)) => {
                if done {
                    self.done.push(key);
                }
                if let Some(context) = event.context {
                    write!(out, "{context}: ")?;
                }
                out.write_all(line.as_bytes())
            }
            None => Ok(()),
        }
    }

    fn checkpoint(&mut self, _out: &mut dyn Write) -> io::Result<()> {
        Ok(())
    }

    fn finish(&mut self, _out: &mut dyn Write) -> io::Result<()> {
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;
    use serde_json::value::RawValue;

    use super::*;
    use crate::events::{Origin, ResourceInfo};

    fn print(
        printer: &mut RolloutStatusPrinter,
        kind: &str,
        group: &str,
        object: serde_json::Value,
    ) -> String {
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
            name: "web",
            namespace: "default",
            row: None,
            context: None,
        };
        let mut out = Vec::new();
        printer.print(&event, &mut out).unwrap();
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn every_event_prints_kubectls_line_and_an_error_prints_nothing() {
        let mut printer = RolloutStatusPrinter::new(0);
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
        let mut printer = RolloutStatusPrinter::new(0);
        let done = json!({"metadata": {"name": "web", "generation": 1}, "spec": {"replicas": 1},
            "status": {"observedGeneration": 1, "replicas": 1, "updatedReplicas": 1, "availableReplicas": 1}});
        let said = print(&mut printer, "Deployment", "apps", done.clone());
        assert_eq!(said, "deployment \"web\" successfully rolled out\n");
        assert_eq!(print(&mut printer, "Deployment", "apps", done), "");
    }

    #[test]
    fn kinds_without_a_viewer_print_kws_judgement_when_it_changes() {
        let mut printer = RolloutStatusPrinter::new(0);
        let running = json!({"metadata": {"name": "web"}, "status": {"active": 1}});
        let first = print(&mut printer, "Job", "batch", running.clone());
        assert!(first.starts_with("job.batch/web: in progress"), "{first}");
        assert_eq!(print(&mut printer, "Job", "batch", running), "");
    }
}
