//! Request paths: what to list and watch, turned into API paths and query strings.

use std::sync::Arc;

use crate::watcher::namespaces::NamespaceSet;
use kw_events::events::ResourceInfo;

/// What to list and watch.
#[derive(Debug, Clone)]
pub struct Target {
    pub resource: ResourceInfo,
    /// `None`: all namespaces (or a cluster-scoped type).
    pub namespace: Option<String>,
    /// Several namespaces (`-n a,b`, `-n 'team-*'`): watched cluster-wide (`namespace` is
    /// `None`), and only objects in these are shown.
    pub namespace_set: Option<Arc<NamespaceSet>>,
    /// Named objects (`kw get pod a b`); empty for the whole collection.
    pub names: Vec<String>,
    pub label_selector: Option<String>,
    pub field_selector: Option<String>,
    /// Table mode: ask for whole objects in the rows (`includeObject=Object`), for printers
    /// that need more than metadata (`--sort-by`, `--diff`).
    pub include_object: bool,
    /// `kw get TYPE NAME --subresource=scale`: named objects are read through this
    /// subresource (`.../NAME/scale`); lists and watches never are, as in kubectl.
    pub subresource: Option<String>,
}

impl Target {
    fn collection_path(&self) -> String {
        let r = &self.resource;
        let prefix = if r.group.is_empty() {
            format!("/api/{}", r.version)
        } else {
            format!("/apis/{}/{}", r.group, r.version)
        };
        match (&self.namespace, r.namespaced) {
            (Some(ns), true) => format!("{prefix}/namespaces/{}/{}", encode(ns), r.plural),
            _ => format!("{prefix}/{}", r.plural),
        }
    }

    /// Whether objects of `namespace` are shown (always, unless several namespaces were chosen).
    pub fn shows(&self, namespace: &str) -> bool {
        self.namespace_set
            .as_ref()
            .is_none_or(|set| set.contains(namespace))
    }

    /// `GET` of the namespace the target watches in, if it watches in one.
    pub fn namespace_path(&self) -> Option<String> {
        match (&self.namespace, self.resource.namespaced) {
            (Some(ns), true) => Some(format!("/api/v1/namespaces/{}", encode(ns))),
            _ => None,
        }
    }

    /// `GET` of one named object.
    pub fn object_path(&self, name: &str) -> String {
        format!("{}/{}", self.collection_path(), encode(name))
    }

    /// `GET` of one named object as a one-shot get reads it: through `--subresource` if given.
    pub fn named_get_path(&self, name: &str) -> String {
        match &self.subresource {
            Some(sub) => format!("{}/{}", self.object_path(name), encode(sub)),
            None => self.object_path(name),
        }
    }

    /// `GET` of one named object in a given namespace (for objects seen under `-A`).
    pub fn object_path_in(&self, namespace: &str, name: &str) -> String {
        let scoped = Target {
            namespace: (!namespace.is_empty()).then(|| namespace.to_string()),
            ..self.clone()
        };
        scoped.object_path(name)
    }

    /// The field selector sent: the user's, plus `metadata.name=` for a single named object,
    /// its value escaped as client-go's `fields.EscapeValue` escapes it (`\`, `,` and `=`), so
    /// a name can never add a term of its own.
    fn field_selector(&self) -> Option<String> {
        let by_name = self
            .names
            .first()
            .map(|name| format!("metadata.name={}", escape_selector_value(name)));
        match (by_name, &self.field_selector) {
            (Some(a), Some(b)) => Some(format!("{a},{b}")),
            (Some(a), None) => Some(a),
            (None, Some(b)) => Some(b.clone()),
            (None, None) => None,
        }
    }

    fn selectors(&self, query: &mut Query) {
        if let Some(labels) = &self.label_selector {
            query.push("labelSelector", labels);
        }
        if let Some(fields) = self.field_selector() {
            query.push("fieldSelector", &fields);
        }
        if self.include_object {
            query.push("includeObject", "Object");
        }
    }

    /// One page of a LIST.
    pub fn list_path(&self, limit: u64, continue_token: Option<&str>) -> String {
        let mut query = Query::default();
        self.selectors(&mut query);
        if limit > 0 {
            query.push("limit", &limit.to_string());
        }
        if let Some(token) = continue_token {
            query.push("continue", token);
        }
        format!("{}{}", self.collection_path(), query.0)
    }

    /// A streaming list: a WATCH that starts with the current state (ADDED events) and marks its
    /// end with a bookmark. An empty `resource_version` asks for a consistent (quorum) read.
    pub fn streaming_list_path(&self, resource_version: &str, timeout_secs: u64) -> String {
        let mut query = Query::default();
        self.selectors(&mut query);
        query.push("watch", "1");
        query.push("sendInitialEvents", "true");
        query.push("resourceVersionMatch", "NotOlderThan");
        if !resource_version.is_empty() {
            query.push("resourceVersion", resource_version);
        }
        query.push("allowWatchBookmarks", "true");
        query.push("timeoutSeconds", &timeout_secs.to_string());
        format!("{}{}", self.collection_path(), query.0)
    }

    /// A WATCH from `resource_version`, ending after `timeout_secs` at the latest.
    pub fn watch_path(&self, resource_version: &str, timeout_secs: u64) -> String {
        let mut query = Query::default();
        self.selectors(&mut query);
        query.push("watch", "1");
        query.push("resourceVersion", resource_version);
        query.push("allowWatchBookmarks", "true");
        query.push("timeoutSeconds", &timeout_secs.to_string());
        format!("{}{}", self.collection_path(), query.0)
    }
}

#[derive(Default)]
struct Query(String);

impl Query {
    fn push(&mut self, key: &str, value: &str) {
        self.0.push(if self.0.is_empty() { '?' } else { '&' });
        self.0.push_str(key);
        self.0.push('=');
        self.0.push_str(&encode(value));
    }
}

/// Percent-encode everything but RFC 3986's unreserved characters.
pub fn encode(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for b in s.bytes() {
        if b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_' | b'.' | b'~') {
            out.push(b as char);
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

/// A field selector's value with its operators escaped (`\\`, `\,`, `\=`), as client-go's
/// `fields.EscapeValue` writes it and the API server reads it.
pub fn escape_selector_value(value: &str) -> String {
    let mut out = String::with_capacity(value.len());
    for c in value.chars() {
        if matches!(c, '\\' | ',' | '=') {
            out.push('\\');
        }
        out.push(c);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn target(group: &str, namespaced: bool, namespace: Option<&str>) -> Target {
        Target {
            resource: ResourceInfo {
                plural: "things".into(),
                singular: "thing".into(),
                kind: "Thing".into(),
                group: group.into(),
                version: "v1".into(),
                namespaced,
            },
            namespace: namespace.map(String::from),
            namespace_set: None,
            names: Vec::new(),
            label_selector: None,
            field_selector: None,
            include_object: false,
            subresource: None,
        }
    }

    #[test]
    fn builds_paths_for_every_scope() {
        assert_eq!(
            target("", true, Some("ns")).list_path(0, None),
            "/api/v1/namespaces/ns/things"
        );
        assert_eq!(target("", true, None).list_path(0, None), "/api/v1/things");
        assert_eq!(
            target("", false, Some("ns")).list_path(0, None),
            "/api/v1/things"
        );
        assert_eq!(
            target("apps", true, Some("ns")).object_path("web"),
            "/apis/apps/v1/namespaces/ns/things/web"
        );
    }

    #[test]
    fn encodes_queries() {
        let mut t = target("", true, Some("ns"));
        t.label_selector = Some("app in (a,b),!x".into());
        t.names = vec!["web-1".into()];
        t.field_selector = Some("status.phase=Running".into());
        assert_eq!(
            t.list_path(500, Some("tok=en")),
            "/api/v1/namespaces/ns/things?labelSelector=app%20in%20%28a%2Cb%29%2C%21x&fieldSelector=metadata.name%3Dweb-1%2Cstatus.phase%3DRunning&limit=500&continue=tok%3Den"
        );
        assert_eq!(
            target("", true, Some("ns")).watch_path("42", 300),
            "/api/v1/namespaces/ns/things?watch=1&resourceVersion=42&allowWatchBookmarks=true&timeoutSeconds=300"
        );
    }
}
