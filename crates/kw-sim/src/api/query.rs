//! The list/watch query parameters (`ListOptions` on the wire) and the `Accept` header, parsed
//! once per request into plain values the handlers use, with the selectors and resourceVersion
//! they name checked (a 400 Status when they are malformed).

use kw_wire::Status;

use super::selector::{self, Filter};
use super::status::bad_request;
use crate::http::{percent_decode, Request};
use crate::world::catalog::ResourceInfo;

/// How the client wants objects rendered.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Rendering {
    /// Plain JSON objects / lists.
    Json,
    /// `meta.k8s.io/v1` `Table` (server-side printing).
    Table,
}

/// `includeObject` of Table requests.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum IncludeObject {
    None,
    Metadata,
    Object,
}

/// The query parameters the server understands, raw where the handler must validate them.
#[derive(Debug, Clone, Default)]
pub struct ListOptions {
    pub watch: bool,
    pub resource_version: Option<String>,
    pub resource_version_match: Option<String>,
    pub label_selector: String,
    pub field_selector: String,
    pub limit: Option<u64>,
    pub continue_token: Option<String>,
    pub timeout_seconds: Option<u64>,
    pub allow_watch_bookmarks: bool,
    pub send_initial_events: Option<bool>,
    pub include_object: Option<String>,
}

fn truthy(value: &str) -> bool {
    matches!(value, "true" | "1" | "True" | "TRUE")
}

impl ListOptions {
    pub fn parse(query: &str) -> ListOptions {
        let mut options = ListOptions::default();
        for pair in query.split('&').filter(|pair| !pair.is_empty()) {
            let (key, value) = pair.split_once('=').unwrap_or((pair, ""));
            let value = percent_decode(value);
            match percent_decode(key).as_str() {
                "watch" => options.watch = truthy(&value),
                "resourceVersion" => options.resource_version = Some(value),
                "resourceVersionMatch" => options.resource_version_match = Some(value),
                "labelSelector" => options.label_selector = value,
                "fieldSelector" => options.field_selector = value,
                // A malformed limit is ignored, as the real server's decoder effectively does.
                "limit" => options.limit = value.parse().ok().filter(|limit| *limit > 0),
                "continue" => options.continue_token = Some(value).filter(|t| !t.is_empty()),
                "timeoutSeconds" => options.timeout_seconds = value.parse().ok(),
                // kubectl's --request-timeout becomes `timeout=3s`; honour it like timeoutSeconds.
                "timeout" if options.timeout_seconds.is_none() => {
                    options.timeout_seconds = humantime::parse_duration(&value)
                        .ok()
                        .map(|d| d.as_secs().max(1));
                }
                "allowWatchBookmarks" => options.allow_watch_bookmarks = truthy(&value),
                "sendInitialEvents" => options.send_initial_events = Some(truthy(&value)),
                "includeObject" => options.include_object = Some(value),
                _ => {}
            }
        }
        options
    }
}

/// Why the `Accept` header cannot be served (→ 406).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NotAcceptable;

/// Pick the first acceptable media type of `Accept`, as the server's negotiation does. Without
/// `tables` (an aggregated API that cannot print), Table clauses are skipped.
pub fn rendering(request: &Request, tables: bool) -> Result<Rendering, NotAcceptable> {
    let Some(accept) = request.header("accept") else {
        return Ok(Rendering::Json);
    };
    if accept.trim().is_empty() {
        return Ok(Rendering::Json);
    }
    for clause in accept.split(',') {
        let mut parts = clause.split(';').map(str::trim);
        let media = parts.next().unwrap_or("");
        let mut as_kind = None;
        let mut group = None;
        let mut version = None;
        for param in parts {
            if let Some((key, value)) = param.split_once('=') {
                match key.trim() {
                    "as" => as_kind = Some(value.trim()),
                    "g" => group = Some(value.trim()),
                    "v" => version = Some(value.trim()),
                    _ => {}
                }
            }
        }
        if !matches!(media, "application/json" | "*/*" | "application/*") {
            continue;
        }
        match (as_kind, group, version) {
            (None, _, _) => return Ok(Rendering::Json),
            (Some("Table"), Some("meta.k8s.io"), Some("v1")) if tables => {
                return Ok(Rendering::Table)
            }
            // Other transformations (v1beta1 Tables, PartialObjectMetadata) are not served.
            _ => continue,
        }
    }
    Err(NotAcceptable)
}

/// `includeObject`, defaulting to Metadata; `Err` carries the bad value.
pub fn include_object(options: &ListOptions) -> Result<IncludeObject, String> {
    match options.include_object.as_deref() {
        None | Some("") | Some("Metadata") => Ok(IncludeObject::Metadata),
        Some("None") => Ok(IncludeObject::None),
        Some("Object") => Ok(IncludeObject::Object),
        Some(other) => Err(other.to_string()),
    }
}

/// Parse the selectors of a request against a resource.
pub fn filter(options: &ListOptions, info: &ResourceInfo) -> Result<Filter, Status> {
    let labels =
        selector::parse_labels(&options.label_selector).map_err(|e| bad_request(e.to_string()))?;
    let fields = selector::parse_fields(&options.field_selector, info.plural)
        .map_err(|e| bad_request(e.to_string()))?;
    Ok(Filter { labels, fields })
}

/// Parse a resourceVersion; `None` for unset, "" and "0" ("any").
pub fn parse_resource_version(text: Option<&str>) -> Result<Option<u64>, Status> {
    match text {
        None | Some("") | Some("0") => Ok(None),
        Some(text) => text.parse().map(Some).map_err(|_| {
            bad_request(format!(
                "resourceVersion: Invalid value: \"{text}\": must be a valid resource version"
            ))
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn request_accepting(accept: &str) -> Request {
        Request {
            method: "GET".into(),
            target: "/".into(),
            headers: vec![("Accept".into(), accept.into())],
            close: false,
            body: Vec::new(),
        }
    }

    #[test]
    fn negotiates_tables_like_the_server() {
        assert_eq!(
            rendering(&request_accepting(kw_wire::TABLE_ACCEPT), true),
            Ok(Rendering::Table)
        );
        assert_eq!(
            rendering(&request_accepting("application/json, */*"), true),
            Ok(Rendering::Json)
        );
        assert_eq!(
            rendering(
                &request_accepting("application/json;as=Table;v=v1beta1;g=meta.k8s.io"),
                true
            ),
            Err(NotAcceptable)
        );
        // A server that cannot print tables falls through to plain JSON, or refuses.
        assert_eq!(
            rendering(&request_accepting(kw_wire::TABLE_ACCEPT), false),
            Ok(Rendering::Json)
        );
        assert_eq!(
            rendering(
                &request_accepting("application/json;as=Table;v=v1;g=meta.k8s.io"),
                false
            ),
            Err(NotAcceptable)
        );
    }

    #[test]
    fn parses_list_options() {
        let options = ListOptions::parse(
            "watch=1&labelSelector=app%3Dweb&limit=5&continue=abc&allowWatchBookmarks=true&timeout=3s",
        );
        assert!(options.watch && options.allow_watch_bookmarks);
        assert_eq!(options.label_selector, "app=web");
        assert_eq!(options.limit, Some(5));
        assert_eq!(options.continue_token.as_deref(), Some("abc"));
        assert_eq!(options.timeout_seconds, Some(3));
    }
}
