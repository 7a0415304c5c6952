//! The verdict as one JSON document (`--report json=FILE`), for any other CI or a script: the
//! shape is documented in docs/reference.md ("CI reports"), `kind` and `version` first.

use serde_json::{json, Value};

use super::model::{CrashedLog, RunVerdict, KIND, VERSION};

pub fn document(verdict: &RunVerdict) -> Value {
    let objects: Vec<Value> = verdict
        .objects
        .iter()
        .map(|object| {
            let crashed: Vec<Value> = verdict.crashed_of(object).into_iter().map(crash).collect();
            json!({
                "context": object.context,
                "kind": object.kind,
                "namespace": object.namespace,
                "name": object.name,
                "label": object.label,
                "state": object.state,
                "met": object.met,
                "message": object.message,
                "causes": object.causes,
                "crashed": crashed,
            })
        })
        .collect();
    let crashed: Vec<Value> = verdict.crashed.iter().map(crash).collect();
    json!({
        "kind": KIND,
        "version": VERSION,
        "verb": verdict.verb,
        "exitCode": verdict.exit_code,
        "verdict": verdict.verdict,
        "error": verdict.error,
        "seconds": (verdict.elapsed.as_secs_f64() * 1000.0).round() / 1000.0,
        "objects": objects,
        "crashed": crashed,
    })
}

fn crash(crash: &CrashedLog) -> Value {
    json!({
        "pod": crash.pod,
        "container": crash.container,
        "reason": crash.reason,
        "exitCode": crash.exit_code,
        "log": crash.log.as_ref().ok(),
        "logError": crash.log.as_ref().err(),
    })
}
