//! The query of a container log request (`pods/NAME/log`) as the API server reads it, and what
//! a followed one carries to the connection that streams it (`pod_logs`).

use std::time::SystemTime;

use super::status::bad_request;
use crate::http::percent_decode;
use kw_wire::Status;

/// The query of a log request.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct LogQuery {
    pub container: Option<String>,
    pub previous: bool,
    pub tail_lines: Option<usize>,
    pub timestamps: bool,
    pub since_seconds: Option<u64>,
    pub since_time: Option<SystemTime>,
    pub limit_bytes: Option<u64>,
    pub follow: bool,
}

fn boolean(value: &str) -> bool {
    value == "true" || value == "1"
}

fn positive(key: &str, value: &str) -> Result<u64, Status> {
    match value.parse::<i64>() {
        Ok(number) if number > 0 => Ok(number as u64),
        Ok(_) => Err(bad_request(format!(
            "{key}: Invalid value: {value}: must be greater than 0"
        ))),
        Err(_) => Err(bad_request(format!("{key}: Invalid value: \"{value}\""))),
    }
}

pub fn parse_query(query: &str) -> Result<LogQuery, Status> {
    let mut parsed = LogQuery::default();
    for pair in query.split('&').filter(|p| !p.is_empty()) {
        let (key, value) = pair.split_once('=').unwrap_or((pair, ""));
        let value = percent_decode(value);
        match key {
            "container" => parsed.container = Some(value),
            "previous" => parsed.previous = boolean(&value),
            "timestamps" => parsed.timestamps = boolean(&value),
            "follow" => parsed.follow = boolean(&value),
            "tailLines" => {
                let lines = value
                    .parse::<i64>()
                    .map_err(|_| bad_request(format!("tailLines: Invalid value: \"{value}\"")))?;
                parsed.tail_lines = Some(lines.max(0) as usize);
            }
            "sinceSeconds" => parsed.since_seconds = Some(positive(key, &value)?),
            "limitBytes" => parsed.limit_bytes = Some(positive(key, &value)?),
            "sinceTime" => {
                let at = humantime::parse_rfc3339_weak(&value)
                    .map_err(|_| bad_request(format!("sinceTime: Invalid value: \"{value}\"")))?;
                parsed.since_time = Some(at);
            }
            _ => {}
        }
    }
    if parsed.since_seconds.is_some() && parsed.since_time.is_some() {
        return Err(bad_request(
            "at most one of `sinceTime` or `sinceSeconds` may be specified",
        ));
    }
    Ok(parsed)
}

/// A followed log, for the connection to stream (`follow`).
pub struct LogFollow {
    pub namespace: String,
    pub pod: String,
    pub uid: String,
    pub container: String,
    pub query: LogQuery,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn queries_read_as_the_api_server_reads_them() {
        let parsed =
            parse_query("container=web&previous=true&tailLines=20&timestamps=true&follow=true")
                .unwrap();
        assert_eq!(parsed.container.as_deref(), Some("web"));
        assert!(parsed.previous && parsed.timestamps && parsed.follow);
        assert_eq!(parsed.tail_lines, Some(20));
        assert_eq!(parse_query("").unwrap(), LogQuery::default());
        assert_eq!(parse_query("tailLines=x").unwrap_err().code, 400);
        assert_eq!(parse_query("limitBytes=0").unwrap_err().code, 400);
        let both = parse_query("sinceSeconds=5&sinceTime=2026-01-01T00:00:00Z").unwrap_err();
        assert!(both.message.contains("at most one"), "{}", both.message);
        let at = parse_query("sinceTime=2026-01-01T00%3A00%3A00Z").unwrap();
        assert!(at.since_time.is_some());
    }
}
