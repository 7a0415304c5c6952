//! A container's log as the API server serves it (`GET .../pods/NAME/log`): the query that
//! kubectl's `logs` flags make (`PodLogOptions`), and the body opened as a stream, read as it
//! comes. One-shot and followed logs are the same request (`follow=true` keeps it open), so a
//! verb that follows (`logs -f`, a rollout's Pods) and one that reads once share this.

use std::io::Read;
use std::time::Instant;

use crate::client::{Client, ClientError};

/// What to ask for one container's log, as `PodLogOptions` names it.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct LogRequest {
    pub namespace: String,
    pub pod: String,
    pub container: String,
    pub follow: bool,
    pub previous: bool,
    pub timestamps: bool,
    pub tail_lines: Option<u64>,
    pub since_seconds: Option<u64>,
    /// RFC 3339, as the user gave it (the server parses it).
    pub since_time: Option<String>,
    pub limit_bytes: Option<u64>,
}

impl LogRequest {
    /// The request's path and query, parameters in kubectl's order.
    pub fn path(&self) -> String {
        let mut path = format!(
            "/api/v1/namespaces/{}/pods/{}/log?container={}",
            encode(&self.namespace),
            encode(&self.pod),
            encode(&self.container)
        );
        let mut add = |key: &str, value: String| {
            path.push('&');
            path.push_str(key);
            path.push('=');
            path.push_str(&encode(&value));
        };
        if self.follow {
            add("follow", "true".into());
        }
        if let Some(bytes) = self.limit_bytes {
            add("limitBytes", bytes.to_string());
        }
        if self.previous {
            add("previous", "true".into());
        }
        if let Some(seconds) = self.since_seconds {
            add("sinceSeconds", seconds.to_string());
        }
        if let Some(time) = &self.since_time {
            add("sinceTime", time.clone());
        }
        if let Some(lines) = self.tail_lines {
            add("tailLines", lines.to_string());
        }
        if self.timestamps {
            add("timestamps", "true".into());
        }
        path
    }
}

/// Percent-encode everything but RFC 3986's unreserved characters.
pub fn encode(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for byte in text.bytes() {
        if byte.is_ascii_alphanumeric() || b"-._~".contains(&byte) {
            out.push(byte as char);
        } else {
            out.push_str(&format!("%{byte:02X}"));
        }
    }
    out
}

/// Open the log: its body as it arrives, until the server ends it or `deadline`. A server's
/// error (a container not started, not found) is the `Status` error it sent.
pub fn open(
    client: &Client,
    request: &LogRequest,
    deadline: Option<Instant>,
) -> Result<Box<dyn Read + Send + Sync>, ClientError> {
    client.stream(&request.path(), "application/json, */*", deadline)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_query_is_kubectls() {
        let request = LogRequest {
            namespace: "default".into(),
            pod: "web-1".into(),
            container: "app".into(),
            follow: true,
            timestamps: true,
            tail_lines: Some(5),
            since_time: Some("2026-01-01T00:00:00Z".into()),
            ..LogRequest::default()
        };
        assert_eq!(
            request.path(),
            "/api/v1/namespaces/default/pods/web-1/log?container=app&follow=true\
             &sinceTime=2026-01-01T00%3A00%3A00Z&tailLines=5&timestamps=true"
        );
    }
}
