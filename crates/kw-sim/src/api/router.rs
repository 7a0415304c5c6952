//! Request handling for the API: routing paths to discovery, GET and LIST (with selectors,
//! paging, resourceVersion semantics, Tables), authentication and authorization, list faults,
//! handing WATCH requests to `watch` (or `flood`), writes to `write` and the OpenAPI documents
//! kubectl validates against to `openapi`. Produces a [`Reply`]; `server` writes it.

use std::sync::Arc;
use std::time::SystemTime;

use serde_json::{json, Map, Value};

use super::auth::{self, Access, Authn, CertIdentity, User};
use super::discovery;
use super::flood;
use super::names;
use super::openapi;
use super::paging::{self, ContinueToken};
use super::query::{self, filter, parse_resource_version, IncludeObject, ListOptions, Rendering};
use super::reply::Reply;
use super::shared::Shared;
use super::status::{
    bad_request, expired, invalid_options, list_fault_status, not_acceptable, not_found,
    not_found_path, too_large,
};
use super::table;
use super::watch;
use super::write;
use crate::http::Request;
use crate::world::catalog::{self, ResourceInfo};
use kw_wire::{Status, StatusDetails};

enum Route<'a> {
    Version,
    Health,
    CoreVersions,
    Groups,
    Group(&'a str),
    Resources(&'a str, &'a str),
    Collection {
        info: &'static ResourceInfo,
        namespace: Option<&'a str>,
    },
    Item {
        info: &'static ResourceInfo,
        namespace: Option<&'a str>,
        name: &'a str,
    },
    /// `.../NAME/scale` of a workload.
    Scale {
        info: &'static ResourceInfo,
        namespace: Option<&'a str>,
        name: &'a str,
    },
    /// `.../NAME/status` of a kind with a status subresource: GET only (`kubectl get
    /// --subresource=status`), the object as its kind prints.
    Status {
        info: &'static ResourceInfo,
        namespace: Option<&'a str>,
        name: &'a str,
    },
    /// `/openapi/v3` and `/openapi/v3/GROUP-VERSION-PATH` (`openapi`).
    OpenApi(&'a str),
    /// `namespaces/NS/pods/NAME/log` (`pod_logs`).
    PodLog {
        namespace: &'a str,
        name: &'a str,
    },
    NotFound,
}

/// The custom resources' group, `/apis/example.com/...`.
fn is_custom(path: &str) -> bool {
    let rest = path.trim_start_matches('/');
    rest == "apis/example.com" || rest.starts_with("apis/example.com/")
}

fn route(path: &str) -> Route<'_> {
    let segments: Vec<&str> = path
        .trim_start_matches('/')
        .trim_end_matches('/')
        .split('/')
        .collect();
    match segments.as_slice() {
        ["version"] => Route::Version,
        ["openapi", "v3", ..] => Route::OpenApi(
            path.trim_start_matches('/')
                .trim_start_matches("openapi/v3")
                .trim_matches('/'),
        ),
        ["healthz"] | ["livez"] | ["readyz"] => Route::Health,
        ["api"] => Route::CoreVersions,
        ["api", "v1"] => Route::Resources("", "v1"),
        ["api", "v1", rest @ ..] => resource_route("", "v1", rest),
        ["apis"] => Route::Groups,
        ["apis", group] if catalog::GROUPS.iter().any(|(g, _)| g == group) => Route::Group(group),
        ["apis", group, version] if catalog::serves_group_version(group, version) => {
            Route::Resources(group, version)
        }
        ["apis", group, version, rest @ ..] => resource_route(group, version, rest),
        _ => Route::NotFound,
    }
}

fn resource_route<'a>(group: &str, version: &str, rest: &[&'a str]) -> Route<'a> {
    let find = |plural: &str| catalog::lookup(group, version, plural);
    match rest {
        [plural] => match find(plural) {
            Some(info) => Route::Collection {
                info,
                namespace: None,
            },
            None => Route::NotFound,
        },
        ["namespaces", namespace, plural] => match find(plural) {
            Some(info) if info.namespaced => Route::Collection {
                info,
                namespace: Some(namespace),
            },
            _ => Route::NotFound,
        },
        ["namespaces", namespace, plural, name] => match find(plural) {
            Some(info) if info.namespaced => Route::Item {
                info,
                namespace: Some(namespace),
                name,
            },
            _ => Route::NotFound,
        },
        ["namespaces", namespace, "pods", name, "log"] if group.is_empty() => {
            Route::PodLog { namespace, name }
        }
        ["namespaces", namespace, plural, name, "scale"] => match find(plural) {
            Some(info) if info.subresources.iter().any(|(sub, _)| *sub == "scale") => {
                Route::Scale {
                    info,
                    namespace: Some(namespace),
                    name,
                }
            }
            _ => Route::NotFound,
        },
        ["namespaces", namespace, plural, name, "status"] => match find(plural) {
            Some(info) if info.namespaced && has_status(info) => Route::Status {
                info,
                namespace: Some(namespace),
                name,
            },
            _ => Route::NotFound,
        },
        [plural, name, "status"] => match find(plural) {
            Some(info) if !info.namespaced && has_status(info) => Route::Status {
                info,
                namespace: None,
                name,
            },
            _ => Route::NotFound,
        },
        [plural, name] => match find(plural) {
            Some(info) if !info.namespaced => Route::Item {
                info,
                namespace: None,
                name,
            },
            _ => Route::NotFound,
        },
        _ => Route::NotFound,
    }
}

fn has_status(info: &ResourceInfo) -> bool {
    info.subresources.iter().any(|(sub, _)| *sub == "status")
}

/// Handle one request.
pub fn handle(shared: &Shared, request: &Request, cert: Option<&CertIdentity>) -> Reply {
    let method = request.method.as_str();
    let allowed = match route(request.path()) {
        Route::Collection { .. } => matches!(method, "GET" | "POST"),
        Route::Item { .. } => matches!(method, "GET" | "PUT" | "PATCH" | "DELETE"),
        Route::Scale { .. } => matches!(method, "GET" | "PUT" | "PATCH"),
        _ => method == "GET",
    };
    if !allowed {
        let mut status = Status::failure(
            405,
            "MethodNotAllowed",
            "the server does not allow this method on the requested resource",
        );
        status.details = Some(StatusDetails::default());
        return Reply::status(status);
    }
    let route = match route(request.path()) {
        // A cluster without the CRD knows nothing of its group.
        _ if !shared.crds && is_custom(request.path()) => Route::NotFound,
        route => route,
    };
    let user = match auth::authenticate(&shared.tokens, request.header("authorization"), cert) {
        Authn::User(user) => Some(user),
        Authn::Rejected => return Reply::status(auth::unauthorized()),
        Authn::Anonymous if shared.anonymous_is_admin => Some(User {
            name: "admin".into(),
            groups: vec!["system:authenticated".into()],
        }),
        Authn::Anonymous => None,
    };
    // Like the default RBAC: version and health are public, the rest needs a user.
    let user = match (&route, user) {
        (Route::Version | Route::Health | Route::OpenApi(_), _) => None,
        (_, Some(user)) => Some(user),
        (_, None) => return Reply::status(auth::unauthorized()),
    };
    // A name on the path is a key in the store: `..`, `a%2Fb` cannot be one (the server's
    // key function refuses them before any verb runs).
    let named = match &route {
        Route::Item { name, .. }
        | Route::Scale { name, .. }
        | Route::Status { name, .. }
        | Route::PodLog { name, .. } => Some(*name),
        _ => None,
    };
    // Checked as the name the path spells once decoded, as the server sees it (`web%24x` is
    // `web$x`).
    let named = named.map(crate::http::percent_decode);
    if let Some(why) = named.as_deref().and_then(names::path_segment_refusal) {
        return Reply::status(bad_request(why));
    }
    match route {
        Route::Version => Reply::json(200, &discovery::version()),
        Route::Health => Reply::Body {
            status: 200,
            headers: vec![("Content-Type", "text/plain".into())],
            body: b"ok".to_vec(),
        },
        Route::CoreVersions | Route::Groups => {
            let core = matches!(route, Route::CoreVersions);
            match discovery::negotiate(request.header("accept"), shared.aggregated_discovery) {
                Some(discovery::Format::Aggregated(version)) => {
                    let groups: Vec<&str> = catalog::GROUPS
                        .iter()
                        .map(|(group, _)| *group)
                        .filter(|group| shared.crds || !is_custom(&format!("/apis/{group}")))
                        .collect();
                    let list = discovery::aggregated(version, core, &groups, &shared.down_groups);
                    discovery_reply(&list, discovery::Format::Aggregated(version))
                }
                Some(discovery::Format::Legacy) if core => discovery_reply(
                    &discovery::core_versions(&shared.address),
                    discovery::Format::Legacy,
                ),
                Some(discovery::Format::Legacy) => {
                    let mut groups = discovery::groups();
                    if !shared.crds {
                        groups
                            .groups
                            .retain(|g| !is_custom(&format!("/apis/{}", g.name)));
                    }
                    discovery_reply(&groups, discovery::Format::Legacy)
                }
                None => Reply::status(not_acceptable()),
            }
        }
        Route::Group(name) => {
            let group = discovery::groups()
                .groups
                .into_iter()
                .find(|group| group.name == name);
            let mut value = discovery::to_json(&group);
            value["kind"] = json!("APIGroup");
            value["apiVersion"] = json!("v1");
            Reply::json(200, &value)
        }
        // An aggregated API whose server is down: the aggregator cannot proxy to it.
        Route::Resources(group, _) if shared.down_groups.iter().any(|d| d == group) => {
            Reply::status(list_fault_status(503))
        }
        Route::Resources(group, version) => match discovery::resources(group, version) {
            Some(list) => Reply::json(200, &list),
            None => Reply::status(not_found_path()),
        },
        Route::NotFound => Reply::status(not_found_path()),
        Route::OpenApi(rest) => openapi::reply(rest, shared.crds),
        Route::Collection { info, namespace } if method == "POST" => {
            let user = user.unwrap_or_else(anonymous);
            if let Err(status) = check_access(&user, "create", info, namespace, None) {
                return Reply::status(status);
            }
            write::create(shared, &write::Target { info, namespace }, request)
        }
        Route::Scale {
            info,
            namespace,
            name,
        } => {
            let user = user.unwrap_or_else(anonymous);
            let verb = match method {
                "GET" => "get",
                "PUT" => "update",
                _ => "patch",
            };
            if let Err(status) = check_access(&user, verb, info, namespace, Some(name)) {
                return Reply::status(status);
            }
            if method == "GET" {
                let Ok(rendering) = query::rendering(request, shared.tables) else {
                    return Reply::status(not_acceptable());
                };
                let options = ListOptions::parse(request.query());
                let one = One {
                    info,
                    namespace,
                    name,
                    view: View::Scale,
                };
                return get(shared, &one, &options, rendering);
            }
            write::scale(shared, &write::Target { info, namespace }, name, request)
        }
        Route::Status {
            info,
            namespace,
            name,
        } => {
            let user = user.unwrap_or_else(anonymous);
            if let Err(status) = check_access(&user, "get", info, namespace, Some(name)) {
                return Reply::status(status);
            }
            let Ok(rendering) = query::rendering(request, shared.tables) else {
                return Reply::status(not_acceptable());
            };
            let options = ListOptions::parse(request.query());
            let one = One {
                info,
                namespace,
                name,
                view: View::Whole,
            };
            get(shared, &one, &options, rendering)
        }
        Route::Item {
            info,
            namespace,
            name,
        } if method == "PUT" || method == "PATCH" => {
            let user = user.unwrap_or_else(anonymous);
            let verb = if method == "PUT" { "update" } else { "patch" };
            if let Err(status) = check_access(&user, verb, info, namespace, Some(name)) {
                return Reply::status(status);
            }
            let target = write::Target { info, namespace };
            if method == "PUT" {
                write::replace(shared, &target, name, request)
            } else {
                write::patch(shared, &target, name, request)
            }
        }
        Route::Collection { info, namespace } => {
            let user = user.unwrap_or_else(anonymous);
            let options = ListOptions::parse(request.query());
            let verb = if options.watch { "watch" } else { "list" };
            if let Err(status) = check_access(&user, verb, info, namespace, None) {
                return Reply::status(status);
            }
            let rendering = match query::rendering(request, shared.tables) {
                Ok(rendering) => rendering,
                Err(_) => return Reply::status(not_acceptable()),
            };
            if options.watch {
                if shared.flood_watch_events() > 0 && info.plural == "pods" {
                    return flood::watch(shared, &options, rendering);
                }
                return match watch::prepare(shared, info, namespace, &options, rendering) {
                    Ok(prepared) => Reply::Watch(Box::new(prepared)),
                    Err(status) => Reply::status(status),
                };
            }
            list(shared, info, namespace, &options, rendering)
        }
        Route::Item {
            info,
            namespace,
            name,
        } if method == "DELETE" => {
            let user = user.unwrap_or_else(anonymous);
            if let Err(status) = check_access(&user, "delete", info, namespace, Some(name)) {
                return Reply::status(status);
            }
            match shared
                .store
                .delete(info.plural, namespace.unwrap_or(""), name)
            {
                Ok(object) => {
                    shared
                        .controllers
                        .written(info.plural, namespace.unwrap_or(""), name);
                    Reply::json(200, &object)
                }
                Err(_) => Reply::status(not_found(info, name)),
            }
        }
        Route::Item {
            info,
            namespace,
            name,
        } => {
            let user = user.unwrap_or_else(anonymous);
            if let Err(status) = check_access(&user, "get", info, namespace, Some(name)) {
                return Reply::status(status);
            }
            let rendering = match query::rendering(request, shared.tables) {
                Ok(rendering) => rendering,
                Err(_) => return Reply::status(not_acceptable()),
            };
            let options = ListOptions::parse(request.query());
            if let Some(stall) = shared.faults.take_get_stall() {
                std::thread::sleep(stall);
            }
            let one = One {
                info,
                namespace,
                name,
                view: View::Whole,
            };
            get(shared, &one, &options, rendering)
        }
        Route::PodLog { namespace, name } => {
            let user = user.unwrap_or_else(anonymous);
            let pods = catalog::lookup("", "v1", "pods");
            if let Some(Err(status)) =
                pods.map(|info| check_access(&user, "get", info, Some(namespace), Some(name)))
            {
                return Reply::status(status);
            }
            super::pod_logs::handle(
                &shared.store,
                &shared.logs,
                namespace,
                name,
                request.query(),
            )
        }
    }
}

/// A discovery document with the Content-Type naming what it is, and `Vary: Accept` (the same
/// path answers two documents), as kube-apiserver sends them.
fn discovery_reply(document: &impl serde::Serialize, format: discovery::Format) -> Reply {
    Reply::Body {
        status: 200,
        headers: vec![
            ("Content-Type", format.content_type()),
            ("Vary", "Accept".into()),
        ],
        body: serde_json::to_vec(document).unwrap_or_default(),
    }
}

fn anonymous() -> User {
    User {
        name: "system:anonymous".into(),
        groups: Vec::new(),
    }
}

fn check_access(
    user: &User,
    verb: &str,
    info: &ResourceInfo,
    namespace: Option<&str>,
    name: Option<&str>,
) -> Result<(), Status> {
    auth::authorize(
        user,
        &Access {
            verb,
            resource: info,
            namespace,
            name,
        },
    )
}

/// An object as list items carry it: without kind/apiVersion.
fn list_item(object: &Value) -> Value {
    let mut item = object.clone();
    if let Some(map) = item.as_object_mut() {
        map.remove("kind");
        map.remove("apiVersion");
    }
    item
}

fn include_object(options: &ListOptions) -> Result<IncludeObject, Status> {
    query::include_object(options).map_err(|value| {
        bad_request(format!(
            "includeObject: Unsupported value: \"{value}\": supported values: \"None\", \"Metadata\", \"Object\""
        ))
    })
}

fn list(
    shared: &Shared,
    info: &'static ResourceInfo,
    namespace: Option<&str>,
    options: &ListOptions,
    rendering: Rendering,
) -> Reply {
    if let Some(fault) = shared.faults.take_list_fault() {
        let mut status = list_fault_status(fault.code);
        if let Some(message) = fault.message {
            status.message = message;
        }
        let mut reply = Reply::status(status);
        if let (Some(value), Reply::Body { headers, .. }) = (fault.retry_after, &mut reply) {
            headers.retain(|(name, _)| *name != "Retry-After");
            headers.push(("Retry-After", value));
        }
        return reply;
    }
    if let Some(stall) = shared.faults.list_stall(info.plural) {
        std::thread::sleep(stall);
    }
    if options.send_initial_events.is_some() {
        return Reply::status(invalid_options(&[(
            "sendInitialEvents",
            "sendInitialEvents is forbidden for list",
        )]));
    }
    let include = match include_object(options) {
        Ok(include) => include,
        Err(status) => return Reply::status(status),
    };
    let filter = match filter(options, info) {
        Ok(filter) => filter,
        Err(status) => return Reply::status(status),
    };
    if info.plural == "pods" && shared.flood_list_items() > 0 {
        return match flood::list(shared, options, rendering, include) {
            Ok(body) => Reply::Body {
                status: 200,
                headers: Vec::new(),
                body,
            },
            Err(status) => Reply::status(status),
        };
    }
    let requested = match parse_resource_version(options.resource_version.as_deref()) {
        Ok(requested) => requested,
        Err(status) => return Reply::status(status),
    };
    let match_rule = options.resource_version_match.as_deref().unwrap_or("");
    if !match_rule.is_empty() && options.resource_version.is_none() {
        return Reply::status(invalid_options(&[(
            "resourceVersionMatch",
            "resourceVersionMatch is forbidden unless resourceVersion is provided",
        )]));
    }
    let (resource_version, map, start) = match &options.continue_token {
        Some(token) => {
            let token = match ContinueToken::decode(token) {
                Ok(token) => token,
                Err(err) => return Reply::status(bad_request(err.to_string())),
            };
            match shared.store.kept_snapshot(info.plural, token.resource_version) {
                Some(map) => (token.resource_version, map, Some(token.start)),
                None => {
                    return Reply::status(expired(
                        "The provided continue parameter is too old to display a consistent list result. You can start a new list without the continue parameter.",
                    ))
                }
            }
        }
        None => {
            let (current, map) = shared.store.snapshot(info.plural);
            if let Some(requested) = requested {
                if requested > current {
                    return Reply::status(too_large(requested, current));
                }
                if match_rule == "Exact" && requested != current {
                    return Reply::status(expired(format!(
                        "too old resource version: {requested} ({current})"
                    )));
                }
            }
            (current, map, None)
        }
    };
    let page = paging::page(&map, namespace, &filter, start.as_ref(), options.limit);
    let continue_token = page.next_start.map(|start| {
        shared
            .store
            .keep_snapshot(info.plural, resource_version, Arc::clone(&map));
        ContinueToken {
            resource_version,
            start,
        }
        .encode()
    });
    let mut metadata = Map::new();
    metadata.insert(
        "resourceVersion".into(),
        json!(resource_version.to_string()),
    );
    if let Some(token) = continue_token {
        metadata.insert("continue".into(), json!(token));
    }
    if let Some(remaining) = page.remaining {
        metadata.insert("remainingItemCount".into(), json!(remaining));
    }
    let body = match rendering {
        Rendering::Json => json!({
            "kind": info.list_kind(),
            "apiVersion": info.api_version(),
            "metadata": metadata,
            "items": page.items.iter().map(|object| list_item(object)).collect::<Vec<_>>(),
        }),
        Rendering::Table => {
            let now = shared.store.now();
            let rows = page
                .items
                .iter()
                .map(|object| table::row(info.plural, object, include, now))
                .collect();
            table::table(table::columns(info.plural), rows, metadata)
        }
    };
    Reply::json(200, &body)
}

/// One object a GET names, and how it is seen.
struct One<'a> {
    info: &'static ResourceInfo,
    namespace: Option<&'a str>,
    name: &'a str,
    view: View,
}

/// The object itself (also through `/status`, as the server's status storage answers), or its
/// `autoscaling/v1` Scale (`/scale`, printed with the server's Scale columns).
#[derive(Clone, Copy)]
enum View {
    Whole,
    Scale,
}

fn get(shared: &Shared, one: &One<'_>, options: &ListOptions, rendering: Rendering) -> Reply {
    let include = match include_object(options) {
        Ok(include) => include,
        Err(status) => return Reply::status(status),
    };
    let (_, map) = shared.store.snapshot(one.info.plural);
    let key = (
        one.namespace.unwrap_or("").to_string(),
        one.name.to_string(),
    );
    let Some(stored) = map.get(&key) else {
        return Reply::status(not_found(one.info, one.name));
    };
    let (object, printed_as) = match one.view {
        View::Whole => ((**stored).clone(), one.info.plural),
        View::Scale => (write::scale_of(stored), "scales"),
    };
    match rendering {
        Rendering::Json => Reply::json(200, &object),
        Rendering::Table => {
            let mut metadata = Map::new();
            metadata.insert(
                "resourceVersion".into(),
                object["metadata"]["resourceVersion"].clone(),
            );
            let row = table::row(printed_as, &object, include, now_of(shared));
            Reply::json(
                200,
                &table::table(table::columns(printed_as), vec![row], metadata),
            )
        }
    }
}

fn now_of(shared: &Shared) -> SystemTime {
    shared.store.now()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn routes_paths_like_the_server() {
        assert!(matches!(route("/version"), Route::Version));
        assert!(matches!(route("/api/v1"), Route::Resources("", "v1")));
        assert!(matches!(
            route("/api/v1/pods"),
            Route::Collection {
                namespace: None,
                ..
            }
        ));
        assert!(matches!(
            route("/api/v1/namespaces/ns/pods/x"),
            Route::Item {
                namespace: Some("ns"),
                name: "x",
                ..
            }
        ));
        assert!(matches!(
            route("/api/v1/namespaces/team-a"),
            Route::Item {
                namespace: None,
                name: "team-a",
                ..
            }
        ));
        assert!(matches!(route("/api/v1/pods/x"), Route::NotFound));
        assert!(matches!(
            route("/apis/apps/v1/namespaces/a/deployments"),
            Route::Collection {
                namespace: Some("a"),
                ..
            }
        ));
        assert!(matches!(route("/apis/apps/v2"), Route::NotFound));
        assert!(matches!(route("/nonsense"), Route::NotFound));
    }

    #[test]
    fn invalid_options_reads_like_the_server() {
        let status = invalid_options(&[("a", "x"), ("b", "y")]);
        assert_eq!(
            status.message,
            "ListOptions.meta.k8s.io \"\" is invalid: [a: Forbidden: x, b: Forbidden: y]"
        );
        assert_eq!(status.code, 422);
    }
}
