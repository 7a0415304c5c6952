//! Container logs, served at `GET /api/v1/namespaces/NS/pods/NAME/log` with the query
//! parameters a client uses to show why a container crashed: `container`, `previous` and
//! `tailLines`. A rollout (`rollout`) writes what its containers print; every other container
//! has printed nothing.
//!
//! Errors are the API server's: 404 for a pod that does not exist, 400 for a container the pod
//! does not have, for a pod of several containers asked without `container`, and for
//! `previous=true` when the container has not terminated before.

use std::collections::HashMap;
use std::sync::Mutex;

use super::api::{bad_request, Reply};
use super::http::percent_decode;
use super::server::Shared;
use kw_wire::{Status, StatusDetails};

/// What one container printed: in its running instance, and in the one before, if it
/// terminated.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ContainerLog {
    pub current: Vec<String>,
    pub previous: Option<Vec<String>>,
}

/// Every container's log, by (namespace, pod, container).
#[derive(Debug, Default)]
pub struct PodLogs {
    logs: Mutex<HashMap<(String, String, String), ContainerLog>>,
}

impl PodLogs {
    pub fn set(&self, namespace: &str, pod: &str, container: &str, log: ContainerLog) {
        let key = (
            namespace.to_string(),
            pod.to_string(),
            container.to_string(),
        );
        self.logs
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .insert(key, log);
    }

    fn get(&self, namespace: &str, pod: &str, container: &str) -> ContainerLog {
        let key = (
            namespace.to_string(),
            pod.to_string(),
            container.to_string(),
        );
        self.logs
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .get(&key)
            .cloned()
            .unwrap_or_default()
    }
}

/// The query of a log request.
#[derive(Debug, Default, PartialEq, Eq)]
struct LogQuery {
    container: Option<String>,
    previous: bool,
    tail_lines: Option<usize>,
}

fn parse_query(query: &str) -> Result<LogQuery, Status> {
    let mut parsed = LogQuery::default();
    for pair in query.split('&').filter(|p| !p.is_empty()) {
        let (key, value) = pair.split_once('=').unwrap_or((pair, ""));
        let value = percent_decode(value);
        match key {
            "container" => parsed.container = Some(value),
            "previous" => parsed.previous = value == "true" || value == "1",
            "tailLines" => {
                let lines = value
                    .parse::<i64>()
                    .map_err(|_| bad_request(format!("tailLines: Invalid value: \"{value}\"")))?;
                parsed.tail_lines = Some(lines.max(0) as usize);
            }
            _ => {}
        }
    }
    Ok(parsed)
}

/// Serve one log request for pod `name` in `namespace` (access already checked).
pub fn handle(shared: &Shared, namespace: &str, name: &str, query: &str) -> Reply {
    let query = match parse_query(query) {
        Ok(query) => query,
        Err(status) => return Reply::status(status),
    };
    let pod = shared
        .store
        .objects("pods")
        .into_iter()
        .find(|p| p["metadata"]["namespace"] == namespace && p["metadata"]["name"] == name);
    let Some(pod) = pod else {
        let mut status = Status::failure(404, "NotFound", format!("pods \"{name}\" not found"));
        status.details = Some(StatusDetails {
            name: name.to_string(),
            kind: "pods".into(),
            ..StatusDetails::default()
        });
        return Reply::status(status);
    };
    let containers: Vec<&str> = pod["spec"]["containers"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|c| c["name"].as_str())
        .collect();
    let container = match (&query.container, containers.as_slice()) {
        (Some(asked), _) if containers.contains(&asked.as_str()) => asked.clone(),
        (Some(asked), _) => {
            return Reply::status(bad_request(format!(
                "container {asked} is not valid for pod {name}"
            )))
        }
        (None, [one]) => one.to_string(),
        (None, many) => {
            return Reply::status(bad_request(format!(
                "a container name must be specified for pod {name}, choose one of: [{}]",
                many.join(" ")
            )))
        }
    };
    let log = shared.logs.get(namespace, name, &container);
    let lines = if query.previous {
        match log.previous {
            Some(lines) => lines,
            None => {
                return Reply::status(bad_request(format!(
                    "previous terminated container \"{container}\" in pod \"{name}\" not found"
                )))
            }
        }
    } else {
        log.current
    };
    let skip = query
        .tail_lines
        .map_or(0, |tail| lines.len().saturating_sub(tail));
    let mut body = String::new();
    for line in &lines[skip..] {
        body.push_str(line);
        body.push('\n');
    }
    Reply::Body {
        status: 200,
        headers: vec![("Content-Type", "text/plain".into())],
        body: body.into_bytes(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn queries_read_as_the_api_server_reads_them() {
        assert_eq!(
            parse_query("container=web&previous=true&tailLines=20").unwrap(),
            LogQuery {
                container: Some("web".into()),
                previous: true,
                tail_lines: Some(20)
            }
        );
        assert_eq!(parse_query("").unwrap(), LogQuery::default());
        assert_eq!(parse_query("tailLines=x").unwrap_err().code, 400);
    }

    #[test]
    fn logs_are_kept_per_container() {
        let logs = PodLogs::default();
        logs.set(
            "default",
            "web-1",
            "web",
            ContainerLog {
                current: vec!["a".into()],
                previous: Some(vec!["b".into()]),
            },
        );
        assert_eq!(logs.get("default", "web-1", "web").current, ["a"]);
        assert_eq!(
            logs.get("default", "web-1", "other"),
            ContainerLog::default()
        );
    }
}
