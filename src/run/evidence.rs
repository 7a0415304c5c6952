//! Gathering the summary of a failed or timed-out wait for `ready`: the judge's objects not
//! ready, each member's causes (Warning events, crashed containers), and each crashed
//! container's previous log (its log, when it never restarted), read here, side by side, within
//! the summary's own budget (`wait::summary::budget`). A log that cannot be read in time, or at
//! all, is a note in the summary, never an error of the run.

use std::sync::{mpsc, Arc, Mutex};
use std::time::{Duration, Instant};

use kw_client::client::{Client, ClientError};
use kw_wait::wait::summary::{self, Crashed, LogTail, NotReady, Summary};
use kw_wait::wait::SharedJudge;

use kw_wait::cause::Causes;

/// What a run keeps to write its summary, if it needs one.
pub struct Evidence {
    pub(super) judge: Option<SharedJudge>,
    /// Each member's causes, and its client to read logs with.
    pub(super) members: Vec<(Arc<Mutex<Causes>>, Arc<Client>)>,
    /// How long reading the logs may take, from when the summary is written.
    pub(super) budget: Duration,
}

/// One log to read: which, and with what.
struct LogAsked {
    client: Arc<Client>,
    namespace: String,
    pod: String,
    container: String,
    /// The container waits in `CrashLoopBackOff`: it has restarted, its previous log exists.
    looping: bool,
}

/// A log read, or why not; and whether it is the previous one.
type LogRead = (Result<Vec<String>, String>, bool);

impl Evidence {
    /// The summary; `failed`: the object that failed and why (exit 2).
    pub fn summary(&self, failed: Option<String>) -> Summary {
        let until = Instant::now() + self.budget;
        let (unmet, question) = match &self.judge {
            Some(judge) => judge.unmet(),
            None => (Vec::new(), None),
        };
        let gathered: Vec<_> = self
            .members
            .iter()
            .map(|(causes, client)| {
                let findings = kw_base::mutex::lock(causes).findings();
                (findings, client)
            })
            .collect();
        let not_ready = unmet
            .into_iter()
            .map(
                |kw_wait::wait::Unmet {
                     label,
                     judgement,
                     pending,
                 }| NotReady {
                    warnings: gathered
                        .iter()
                        .find_map(|(e, _)| e.warnings.get(&label).cloned())
                        .unwrap_or_default(),
                    stuck: gathered
                        .iter()
                        .find_map(|(e, _)| e.stuck.get(&label).cloned())
                        .unwrap_or_default(),
                    judgement: summary::why_unmet(
                        judgement.as_ref(),
                        pending.as_deref().or(question.as_deref()),
                    ),
                    label,
                },
            )
            .collect();
        let mut crashed = Vec::new();
        let mut asked = Vec::new();
        for (findings, client) in &gathered {
            for pod in &findings.crashed {
                for crash in &pod.crashes {
                    let log = if crashed.len() < summary::MAX_LOGS {
                        asked.push((
                            crashed.len(),
                            LogAsked {
                                client: Arc::clone(client),
                                namespace: pod.namespace.clone(),
                                pod: pod.name.clone(),
                                container: crash.container.clone(),
                                looping: crash.reason == "CrashLoopBackOff",
                            },
                        ));
                        Err(late(self.budget))
                    } else {
                        Err("not read: too many crashed containers".into())
                    };
                    crashed.push(Crashed {
                        pod: pod.label.clone(),
                        container: crash.container.clone(),
                        exit_code: crash.exit_code,
                        reason: crash.reason.clone(),
                        log,
                        previous: true,
                    });
                }
            }
        }
        for (at, (log, previous)) in read_logs(asked, until, self.budget) {
            crashed[at].log = log;
            crashed[at].previous = previous;
        }
        Summary {
            failed,
            compact: None,
            question,
            not_ready,
            crashed,
        }
    }
}

/// A log that did not come (whole) within the summary's budget: a server that stalls, or
/// trickles.
fn late(budget: Duration) -> String {
    // `5s`, `0.6s`.
    let seconds = budget.as_millis() as f64 / 1000.0;
    format!("it did not come within the summary's {seconds}s")
}

/// Read every log asked, one thread each (at most `MAX_LOGS`), all by `until`: what has not
/// come by then is left out (its thread ends with its request, bounded by `until` too).
fn read_logs(
    asked: Vec<(usize, LogAsked)>,
    until: Instant,
    budget: Duration,
) -> Vec<(usize, LogRead)> {
    let (tell, told) = mpsc::channel();
    let count = asked.len();
    for (at, log) in asked {
        let tell = tell.clone();
        // No thread to be had: that log stays unread, as one that came too late.
        let _ = std::thread::Builder::new()
            .name("kw-summary-log".into())
            .spawn(move || {
                let _ = tell.send((at, read_log(&log, until, budget)));
            });
    }
    drop(tell);
    let mut read = Vec::with_capacity(count);
    while read.len() < count {
        // A request ends by `until`; a little more lets its answer travel the channel.
        let left = (until + Duration::from_millis(100)).saturating_duration_since(Instant::now());
        match told.recv_timeout(left) {
            Ok(one) => read.push(one),
            Err(_) => break,
        }
    }
    read
}

/// The last lines of a container's previous log; of its log, when it has none because it never
/// restarted (a Job's Pod that failed once: the API server answers 400).
fn read_log(log: &LogAsked, until: Instant, budget: Duration) -> LogRead {
    match tail(log, true, until) {
        Err(Some(ClientError::Status { code: 400, .. })) if !log.looping => {
            (tail(log, false, until).map_err(|e| why(e, budget)), false)
        }
        other => (other.map_err(|e| why(e, budget)), true),
    }
}

/// Why a log could not be read, in the summary's words.
fn why(error: Option<ClientError>, budget: Duration) -> String {
    match error {
        None => "the name is not one the API allows".into(),
        Some(ClientError::DeadlinePassed { .. }) => late(budget),
        Some(error) => crate::report::client_message(&error),
    }
}

/// The last lines of the container's log (`previous`: of its instance before), kept while
/// read; `None` for a name the API does not allow.
fn tail(
    log: &LogAsked,
    previous: bool,
    until: Instant,
) -> Result<Vec<String>, Option<ClientError>> {
    // Names a server sent go into a path: only what the API allows in them.
    let plain = |name: &str| {
        !name.is_empty()
            && name
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'.')
    };
    let (namespace, pod, container) = (&log.namespace, &log.pod, &log.container);
    if ![namespace, pod, container].into_iter().all(|n| plain(n)) {
        return Err(None);
    }
    let path = format!(
        "/api/v1/namespaces/{namespace}/pods/{pod}/log?container={container}&previous={previous}&tailLines={}",
        summary::LOG_LINES
    );
    let mut kept = LogTail::default();
    log.client
        .read_by(&path, "text/plain, */*", until, &mut |bytes| {
            kept.push(bytes)
        })
        .map_err(Some)?;
    Ok(kept.finish())
}
