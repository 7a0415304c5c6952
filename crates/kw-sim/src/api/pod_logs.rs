//! Container logs, served at `GET /api/v1/namespaces/NS/pods/NAME/log` with the query
//! parameters a client uses to show why a container crashed: `container`, `previous` and
//! `tailLines`. A rollout (`rollout`) writes what its containers print; every other container
//! has printed nothing.
//!
//! Errors are the API server's: 404 for a pod that does not exist, 400 for a container the pod
//! does not have, for a pod of several containers asked without `container`, and for
//! `previous=true` when the container has not terminated before.

use super::reply::Reply;
use super::status::bad_request;
use crate::http::percent_decode;
use crate::world::container_logs::PodLogs;
use crate::world::store::Store;
use kw_wire::{Status, StatusDetails};

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
pub fn handle(store: &Store, logs: &PodLogs, namespace: &str, name: &str, query: &str) -> Reply {
    let query = match parse_query(query) {
        Ok(query) => query,
        Err(status) => return Reply::status(status),
    };
    let pod = store
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
    let log = logs.get(namespace, name, &container);
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
    use crate::world::container_logs::ContainerLog;

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
