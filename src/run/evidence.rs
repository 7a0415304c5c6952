//! Gathering the summary of a failed or timed-out wait for `ready`: the judge's objects not
//! ready, each member's causes (Warning events, crashed containers), and each crashed
//! container's previous log, read once, here, one request per container. A log that cannot be
//! read is a note in the summary, never an error of the run.

use std::sync::{Arc, Mutex};

use crate::client::Client;
use crate::report::error::KwError;
use crate::wait::summary::{self, Crashed, NotReady, Summary};
use crate::wait::SharedJudge;

use super::cause::Causes;

/// What a run keeps to write its summary, if it needs one.
#[derive(Default)]
pub struct Evidence {
    pub(super) judge: Option<SharedJudge>,
    /// Each member's causes, and its client to read logs with.
    pub(super) members: Vec<(Arc<Mutex<Causes>>, Arc<Client>)>,
}

impl Evidence {
    /// The summary; `failed`: the object that failed and why (exit 2).
    pub fn summary(&self, failed: Option<String>) -> Summary {
        let unready = match &self.judge {
            Some(judge) => judge.unready(),
            None => Vec::new(),
        };
        let gathered: Vec<_> = self
            .members
            .iter()
            .map(|(causes, client)| {
                let findings = crate::log::lock(causes).findings();
                (findings, client)
            })
            .collect();
        let not_ready = unready
            .into_iter()
            .map(|(label, judgement)| NotReady {
                warnings: gathered
                    .iter()
                    .find_map(|(e, _)| e.warnings.get(&label).cloned())
                    .unwrap_or_default(),
                judgement: judgement.to_string(),
                label,
            })
            .collect();
        let mut crashed = Vec::new();
        for (findings, client) in &gathered {
            for pod in &findings.crashed {
                for crash in &pod.crashes {
                    let log = if crashed.len() < summary::MAX_LOGS {
                        previous_log(client, &pod.namespace, &pod.name, &crash.container)
                    } else {
                        Err("not read: too many crashed containers".into())
                    };
                    crashed.push(Crashed {
                        pod: pod.label.clone(),
                        container: crash.container.clone(),
                        exit_code: crash.exit_code,
                        reason: crash.reason.clone(),
                        log,
                    });
                }
            }
        }
        Summary {
            failed,
            not_ready,
            crashed,
        }
    }
}

/// The last lines of `container`'s previous log, or why they cannot be read.
fn previous_log(
    client: &Client,
    namespace: &str,
    pod: &str,
    container: &str,
) -> Result<Vec<String>, String> {
    // Names a server sent go into a path: only what the API allows in them.
    let plain = |name: &str| {
        !name.is_empty()
            && name
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'.')
    };
    if ![namespace, pod, container].into_iter().all(plain) {
        return Err("the name is not one the API allows".into());
    }
    let path = format!(
        "/api/v1/namespaces/{namespace}/pods/{pod}/log?container={container}&previous=true&tailLines={}",
        summary::LOG_LINES
    );
    client
        .get(&path, "text/plain, */*")
        .map(|body| summary::log_tail(&body))
        .map_err(|e| {
            let said = crate::report::error(&KwError::Client(e)).lines.join(" ");
            said.trim_start_matches("error: ").to_string()
        })
}
