//! The `kw sim` control protocol: one JSON request per stdin line, one JSON response per stdout
//! line. EOF on stdin does not stop the server; `{"op":"stop"}` does.

use std::io::{BufRead, Write};

use serde::Deserialize;
use serde_json::{json, Value};

use super::handle::SimHandle;
use crate::faults::Faults;

#[derive(Debug, Deserialize)]
#[serde(tag = "op", rename_all = "lowercase")]
enum Op {
    Create {
        resource: String,
        object: Value,
    },
    Update {
        resource: String,
        object: Value,
    },
    Delete {
        resource: String,
        #[serde(default)]
        namespace: String,
        name: String,
    },
    Objects {
        resource: String,
    },
    Changes,
    /// The requests served so far, method and path (`{"op":"requests"}`), for benchmarks that
    /// count what a client asked.
    Requests,
    Rv,
    Compact,
    Faults {
        // Boxed: the fault set is the largest variant by far.
        #[serde(default)]
        faults: Box<Faults>,
    },
    /// Act out a rollout (`rollout`): `{"op":"rollout","plot":"image-pull","name":"web"}`.
    Rollout {
        plot: String,
        #[serde(default = "default_namespace")]
        namespace: String,
        name: String,
        #[serde(default)]
        replicas: Option<u32>,
        #[serde(default)]
        beat_ms: Option<u64>,
    },
    Stop,
}

fn default_namespace() -> String {
    "default".into()
}

/// Serve the protocol until `stop`; after EOF, keep the server running until the process ends.
pub fn serve(handle: &SimHandle, input: impl BufRead, mut output: impl Write) {
    for line in input.lines() {
        let Ok(line) = line else { break };
        if line.trim().is_empty() {
            continue;
        }
        let (response, stop) = answer(handle, &line);
        let _ = writeln!(output, "{response}");
        let _ = output.flush();
        if stop {
            return;
        }
    }
    // EOF: the server keeps serving; SIGINT/SIGTERM end the process.
    loop {
        std::thread::park();
    }
}

/// One request line → (response, whether to stop).
pub fn answer(handle: &SimHandle, line: &str) -> (Value, bool) {
    let op: Op = match serde_json::from_str(line) {
        Ok(op) => op,
        Err(err) => return (json!({"ok": false, "error": err.to_string()}), false),
    };
    let result = match op {
        Op::Create { resource, object } => handle
            .create(&resource, object)
            .map(|object| json!({"ok": true, "object": object})),
        Op::Update { resource, object } => handle
            .update(&resource, object)
            .map(|object| json!({"ok": true, "object": object})),
        Op::Delete {
            resource,
            namespace,
            name,
        } => handle
            .delete(&resource, &namespace, &name)
            .map(|object| json!({"ok": true, "object": object})),
        Op::Objects { resource } => Ok(json!({"ok": true, "objects": handle.objects(&resource)})),
        Op::Changes => Ok(json!({"ok": true, "changes": handle.changes()})),
        Op::Requests => {
            let requests: Vec<Value> = handle
                .requests()
                .into_iter()
                .map(|r| json!({"method": r.method, "path": r.path, "status": r.status}))
                .collect();
            Ok(json!({"ok": true, "requests": requests}))
        }
        Op::Rv => Ok(json!({"ok": true, "resourceVersion": handle.current_resource_version()})),
        Op::Compact => {
            handle.compact();
            Ok(json!({"ok": true}))
        }
        Op::Faults { faults } => {
            handle.set_faults(*faults);
            Ok(json!({"ok": true}))
        }
        Op::Rollout {
            plot,
            namespace,
            name,
            replicas,
            beat_ms,
        } => match plot.parse::<crate::world::rollout::Plot>() {
            Ok(plot) => {
                let mut rollout = crate::world::rollout::Rollout::new(plot, &namespace, &name);
                rollout.replicas = replicas.unwrap_or(rollout.replicas).clamp(1, 100);
                if let Some(ms) = beat_ms {
                    rollout.beat = std::time::Duration::from_millis(ms.clamp(1, 60_000));
                }
                handle.play_rollout(&rollout).map(|()| json!({"ok": true}))
            }
            Err(error) => Ok(json!({"ok": false, "error": error})),
        },
        Op::Stop => return (json!({"ok": true}), true),
    };
    match result {
        Ok(value) => (value, false),
        Err(err) => (json!({"ok": false, "error": err.to_string()}), false),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::SimConfig;
    use crate::server::handle::start;

    #[test]
    fn control_lines_drive_the_store() {
        let handle = start(SimConfig {
            empty: true,
            ..SimConfig::default()
        })
        .unwrap();
        let (created, stop) = answer(
            &handle,
            r#"{"op":"create","resource":"pods","object":{"metadata":{"name":"p","namespace":"default"}}}"#,
        );
        assert_eq!((created["ok"].as_bool(), stop), (Some(true), false));
        assert_eq!(created["object"]["kind"], "Pod");
        let (objects, _) = answer(&handle, r#"{"op":"objects","resource":"pods"}"#);
        assert_eq!(objects["objects"].as_array().map(Vec::len), Some(1));
        let (faults, _) = answer(
            &handle,
            r#"{"op":"faults","faults":{"list_status":500,"list_count":1}}"#,
        );
        assert_eq!(faults["ok"], true);
        let (missing, _) = answer(
            &handle,
            r#"{"op":"delete","resource":"pods","namespace":"default","name":"x"}"#,
        );
        assert_eq!(missing["ok"], false);
        let (rollout, _) = answer(
            &handle,
            r#"{"op":"rollout","plot":"completes","name":"web2","beat_ms":1}"#,
        );
        assert_eq!(rollout["ok"], true);
        let (unknown, _) = answer(&handle, r#"{"op":"rollout","plot":"explodes","name":"x"}"#);
        assert_eq!(
            unknown["error"],
            "unknown rollout \"explodes\" (use completes, image-pull, crash-loop, job-completes, job-fails, rolling-update, daemonset, partitioned, on-delete, scale-up or throttled-pull)"
        );
        let (bad, _) = answer(&handle, "not json");
        assert_eq!(bad["ok"], false);
        let (_, stop) = answer(&handle, r#"{"op":"stop"}"#);
        assert!(stop);
    }
}
