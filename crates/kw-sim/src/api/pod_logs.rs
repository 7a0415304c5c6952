//! Container logs, served at `GET /api/v1/namespaces/NS/pods/NAME/log` with the kubelet's
//! query parameters: `container`, `previous`, `tailLines`, `timestamps`, `sinceSeconds`,
//! `sinceTime`, `limitBytes` and `follow`. What a container printed is in `container_logs`.
//!
//! As the kubelet reads its log files: `tailLines` counts from the end first, then lines
//! written before `sinceTime` (or `sinceSeconds` ago) are skipped, then `limitBytes` cuts the
//! rest, mid-line if need be. `timestamps` puts the time each line was written before it, in
//! RFC 3339 with nine fractional digits (the kubelet's fixed-width form). `follow=true` answers
//! chunked, one chunk a line, while the container runs: the stream ends when it stops, when
//! the Pod goes, or after the sim's `--max-watch` (as a rotated or dropped stream ends, for a
//! client to reopen). The `log_stall_after` fault stops a followed stream's lines while it
//! holds the connection (a stall only a client's idle rule notices).
//!
//! A container waiting to start again after a crash answers with the log of the instance that
//! terminated, as the kubelet reads `lastState.terminated`'s container.
//!
//! Errors are the API server's: 404 for a pod that does not exist, 400 for a container the pod
//! does not have, for a pod of several containers asked without `container`, for
//! `previous=true` when the container has not terminated before, and for a container that has
//! not started (the kubelet's `is waiting to start: REASON`).

use std::io::Write;
use std::sync::atomic::Ordering;
use std::time::{Duration, Instant, SystemTime};

use serde_json::Value;

use super::log_query::{parse_query, LogFollow, LogQuery};
use super::reply::Reply;
use super::shared::Shared;
use super::status::bad_request;
use super::watch::StreamEnd;
use crate::http;
use crate::world::container_logs::{LogLine, PodLogs};
use crate::world::store::Store;
use kw_wire::{Status, StatusDetails};

/// How often a followed log looks for new lines.
const POLL: Duration = Duration::from_millis(50);
/// A followed log ends after this long when the sim sets no `--max-watch`.
const FOLLOW_LIMIT: Duration = Duration::from_secs(3600);

/// Serve one log request for pod `name` in `namespace` (access already checked).
pub fn handle(store: &Store, logs: &PodLogs, namespace: &str, name: &str, query: &str) -> Reply {
    let query = match parse_query(query) {
        Ok(query) => query,
        Err(status) => return Reply::status(status),
    };
    let Some(pod) = find_pod(store, namespace, name) else {
        let mut status = Status::failure(404, "NotFound", format!("pods \"{name}\" not found"));
        status.details = Some(StatusDetails {
            name: name.to_string(),
            kind: "pods".into(),
            ..StatusDetails::default()
        });
        return Reply::status(status);
    };
    let names = |field: &str| -> Vec<&str> {
        pod["spec"][field]
            .as_array()
            .into_iter()
            .flatten()
            .filter_map(|c| c["name"].as_str())
            .collect()
    };
    let (containers, init) = (names("containers"), names("initContainers"));
    let known = |asked: &str| {
        containers.contains(&asked)
            || init.contains(&asked)
            || names("ephemeralContainers").contains(&asked)
    };
    let container = match (&query.container, containers.as_slice()) {
        (Some(asked), _) if known(asked) => asked.clone(),
        (Some(asked), _) => {
            return Reply::status(bad_request(format!(
                "container {asked} is not valid for pod {name}"
            )))
        }
        (None, [one]) if init.is_empty() => one.to_string(),
        (None, many) => {
            let mut message = format!(
                "a container name must be specified for pod {name}, choose one of: [{}]",
                many.join(" ")
            );
            if !init.is_empty() {
                message.push_str(&format!(
                    " or one of the init containers: [{}]",
                    init.join(" ")
                ));
            }
            return Reply::status(bad_request(message));
        }
    };
    if !query.previous {
        if let Some(reason) = waiting_to_start(&pod, &container) {
            return Reply::status(bad_request(format!(
                "container \"{container}\" in pod \"{name}\" is waiting to start: {reason}"
            )));
        }
    }
    let log = logs.get(namespace, name, &container);
    let mut waiting = false;
    let lines = if query.previous {
        match log.previous {
            Some(lines) => lines,
            None => {
                return Reply::status(bad_request(format!(
                    "previous terminated container \"{container}\" in pod \"{name}\" not found"
                )))
            }
        }
    } else if between_instances(&pod, &container) {
        // Waiting to restart: the kubelet reads the instance that last terminated, whole, and
        // a followed read ends with it (nothing runs to follow).
        waiting = true;
        log.previous.unwrap_or_default()
    } else {
        log.current
    };
    if query.follow && !query.previous && !waiting {
        return Reply::LogFollow(Box::new(LogFollow {
            namespace: namespace.into(),
            pod: name.into(),
            uid: pod["metadata"]["uid"].as_str().unwrap_or("").into(),
            container,
            query,
        }));
    }
    let mut body = Vec::new();
    let mut left = query.limit_bytes.unwrap_or(u64::MAX);
    for line in selected(&lines, &query, store.now()) {
        if !put(&mut body, line, query.timestamps, &mut left) {
            break;
        }
    }
    Reply::Body {
        status: 200,
        headers: vec![("Content-Type", "text/plain".into())],
        body,
    }
}

fn find_pod(store: &Store, namespace: &str, name: &str) -> Option<Value> {
    store
        .objects("pods")
        .into_iter()
        .find(|p| p["metadata"]["namespace"] == namespace && p["metadata"]["name"] == name)
}

fn container_status<'a>(pod: &'a Value, container: &str) -> Option<&'a Value> {
    ["containerStatuses", "initContainerStatuses"]
        .iter()
        .filter_map(|field| pod["status"][field].as_array())
        .flatten()
        .find(|status| status["name"] == container)
}

/// The kubelet's words for a container that has not run yet (no instance, now or before, to
/// read); `None` when there is a log to read.
fn waiting_to_start(pod: &Value, container: &str) -> Option<String> {
    let status = container_status(pod, container)?;
    let waiting = status["state"].get("waiting")?;
    if status["lastState"].get("terminated").is_some() {
        return None;
    }
    Some(match waiting["reason"].as_str().unwrap_or("") {
        "ErrImagePull" => "image can't be pulled".into(),
        "ImagePullBackOff" => "trying and failing to pull image".into(),
        reason => reason.to_string(),
    })
}

/// Whether the container waits to start again after an instance terminated (CrashLoopBackOff).
fn between_instances(pod: &Value, container: &str) -> bool {
    container_status(pod, container).is_some_and(|status| {
        status["state"].get("waiting").is_some() && status["lastState"].get("terminated").is_some()
    })
}

fn running(pod: &Value, container: &str) -> bool {
    container_status(pod, container).is_some_and(|status| status["state"].get("running").is_some())
}

/// The lines a query asks for, in order: the last `tailLines`, then those not before `since`.
fn selected<'a>(
    lines: &'a [LogLine],
    query: &LogQuery,
    now: SystemTime,
) -> impl Iterator<Item = &'a LogLine> {
    let skip = query
        .tail_lines
        .map_or(0, |tail| lines.len().saturating_sub(tail));
    let since = since(query, now);
    lines[skip..]
        .iter()
        .filter(move |line| since.is_none_or(|since| line.at >= since))
}

fn since(query: &LogQuery, now: SystemTime) -> Option<SystemTime> {
    query.since_time.or_else(|| {
        query.since_seconds.map(|seconds| {
            now.checked_sub(Duration::from_secs(seconds))
                .unwrap_or(SystemTime::UNIX_EPOCH)
        })
    })
}

/// Append `line` as the kubelet writes it, within `left` bytes; false once the limit is hit.
fn put(out: &mut Vec<u8>, line: &LogLine, timestamps: bool, left: &mut u64) -> bool {
    let start = out.len();
    if timestamps {
        out.extend_from_slice(
            humantime::format_rfc3339_nanos(line.at)
                .to_string()
                .as_bytes(),
        );
        out.push(b' ');
    }
    out.extend_from_slice(line.text.as_bytes());
    if line.newline {
        out.push(b'\n');
    }
    let written = (out.len() - start) as u64;
    if written >= *left {
        out.truncate(start + *left as usize);
        *left = 0;
        return false;
    }
    *left -= written;
    true
}

/// Stream a followed log on `out` until the container stops, the Pod goes, the limit is hit
/// or the stream's time is up.
pub fn follow(shared: &Shared, request: &LogFollow, out: &mut dyn Write) -> StreamEnd {
    if http::write_stream_head_as(out, "text/plain").is_err() {
        return StreamEnd::Drop;
    }
    let deadline = Instant::now() + shared.max_watch.unwrap_or(FOLLOW_LIMIT);
    let mut stall = Stall {
        at: shared.faults.start_log_follow(),
        sent: 0,
    };
    let query = &request.query;
    let mut left = query.limit_bytes.unwrap_or(u64::MAX);
    let first = shared
        .logs
        .get(&request.namespace, &request.pod, &request.container);
    let (first, dropped) = (first.current, first.dropped);
    // Lines counted from the instance's first: what is kept of a long log slides on.
    let mut sent = dropped + first.len() as u64;
    let mut chunk = Vec::new();
    for line in selected(&first, query, shared.store.now()) {
        if stall.due() {
            return stall.hold(shared, deadline);
        }
        chunk.clear();
        let more = put(&mut chunk, line, query.timestamps, &mut left);
        if http::write_chunk(out, &chunk).is_err() {
            return StreamEnd::Drop;
        }
        if !more {
            return end(out);
        }
    }
    loop {
        if shared.shutdown.load(Ordering::SeqCst) {
            return StreamEnd::Drop;
        }
        if Instant::now() >= deadline {
            return end(out);
        }
        std::thread::sleep(POLL);
        // Read the Pod before the log: lines written before it stopped are still sent.
        let pod = find_pod(&shared.store, &request.namespace, &request.pod)
            .filter(|pod| pod["metadata"]["uid"].as_str() == Some(request.uid.as_str()));
        let still = pod
            .as_ref()
            .is_some_and(|pod| running(pod, &request.container));
        let log = shared
            .logs
            .get_from(&request.namespace, &request.pod, &request.container, sent);
        let written = log.dropped + log.current.len() as u64;
        if written < sent {
            // A new instance: the old one's file is gone.
            return end(out);
        }
        // Lines dropped before they were sent are lost, as a slow reader of a rotated file's.
        let from = sent
            .saturating_sub(log.dropped)
            .min(log.current.len() as u64) as usize;
        for line in &log.current[from..] {
            if stall.due() {
                return stall.hold(shared, deadline);
            }
            chunk.clear();
            let more = put(&mut chunk, line, query.timestamps, &mut left);
            if http::write_chunk(out, &chunk).is_err() {
                return StreamEnd::Drop;
            }
            if !more {
                return end(out);
            }
        }
        sent = written;
        if !still {
            return end(out);
        }
    }
}

/// A followed log's `log_stall_after` fault: after how many lines it stalls, and for how long.
struct Stall {
    at: Option<(u64, Duration)>,
    sent: u64,
}

impl Stall {
    /// Count the line about to be sent; true when the stream stalls instead.
    fn due(&mut self) -> bool {
        let due = self.at.is_some_and(|(after, _)| self.sent >= after);
        self.sent += 1;
        due
    }

    /// Send nothing more, the connection held open for the stall (within the stream's time),
    /// then dropped.
    fn hold(&self, shared: &Shared, deadline: Instant) -> StreamEnd {
        shared.faults.fired(crate::faults::Fired::LogStalled);
        let held = self.at.map_or(Duration::ZERO, |(_, secs)| secs);
        let until = (Instant::now() + held).min(deadline);
        while Instant::now() < until && !shared.shutdown.load(Ordering::SeqCst) {
            std::thread::sleep(POLL);
        }
        StreamEnd::Drop
    }
}

fn end(out: &mut dyn Write) -> StreamEnd {
    match http::write_stream_end(out) {
        Ok(()) => StreamEnd::Clean,
        Err(_) => StreamEnd::Drop,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn line(seconds: u64, text: &str) -> LogLine {
        LogLine {
            at: SystemTime::UNIX_EPOCH + Duration::from_secs(seconds),
            text: text.into(),
            newline: true,
        }
    }

    #[test]
    fn tail_then_since_then_the_byte_limit() {
        let lines = [line(10, "a"), line(20, "b"), line(30, "c")];
        let query = LogQuery {
            tail_lines: Some(2),
            since_time: Some(SystemTime::UNIX_EPOCH + Duration::from_secs(25)),
            ..LogQuery::default()
        };
        let texts: Vec<&str> = selected(&lines, &query, SystemTime::UNIX_EPOCH)
            .map(|l| l.text.as_str())
            .collect();
        assert_eq!(texts, ["c"]);
        let mut out = Vec::new();
        let mut left = 3;
        assert!(put(&mut out, &lines[0], false, &mut left));
        assert!(!put(&mut out, &lines[1], false, &mut left));
        assert_eq!(out, b"a\nb");
        let mut stamped = Vec::new();
        put(&mut stamped, &lines[0], true, &mut u64::MAX.clone());
        assert_eq!(stamped, b"1970-01-01T00:00:10.000000000Z a\n");
    }

    #[test]
    fn a_container_not_started_answers_in_the_kubelets_words() {
        let pod = serde_json::json!({"status": {"containerStatuses": [
            {"name": "web", "state": {"waiting": {"reason": "ContainerCreating"}}},
            {"name": "pull", "state": {"waiting": {"reason": "ImagePullBackOff"}}},
            {"name": "crash", "state": {"waiting": {"reason": "CrashLoopBackOff"}},
             "lastState": {"terminated": {"exitCode": 1}}},
        ]}});
        assert_eq!(
            waiting_to_start(&pod, "web").as_deref(),
            Some("ContainerCreating")
        );
        assert_eq!(
            waiting_to_start(&pod, "pull").as_deref(),
            Some("trying and failing to pull image")
        );
        assert_eq!(waiting_to_start(&pod, "crash"), None);
    }
}
