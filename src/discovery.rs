//! Discovery: turn what the user typed (`pods`, `po`, `pod`, `Pod`, `deploy`, `deployments.apps`,
//! `deployments.v1.apps`, `widgets.example.com`) into a `ResourceInfo`, by asking the server's
//! `/api` and `/apis` endpoints as kubectl does. The core group is asked first, so the common case
//! costs one request.

use crate::client::{Client, ClientError};
use crate::discovery_cache::DiscoveryCache;
use crate::events::ResourceInfo;
use crate::wire::{ApiGroupList, ApiResource, ApiResourceList};

/// One type query of a request, with the names wanted of it (and their namespace, when a
/// manifest says).
#[derive(Debug, Clone)]
pub struct Requested {
    pub type_name: String,
    pub names: Vec<String>,
    pub namespace: Option<String>,
}

/// One resource type and the objects of it to get, as discovery resolved them: the names, and a
/// namespace of their own when a manifest says so.
#[derive(Debug, Clone, PartialEq)]
pub struct Wanted {
    pub resource: ResourceInfo,
    pub names: Vec<String>,
    pub namespace: Option<String>,
}

/// What `requested` names, resolved through `cache` then the server, in order; `pods,po` and
/// repeated types merge as in kubectl. With `skip_unknown` (a run over several contexts, where a
/// CRD may exist in some clusters only), a type this server lacks is left out and returned
/// in the second list instead of failing the run.
pub fn resolve_requested(
    requested: &[Requested],
    client: &Client,
    cache: &mut DiscoveryCache,
    skip_unknown: bool,
) -> Result<(Vec<Wanted>, Vec<String>), DiscoveryError> {
    let mut groups: Vec<Wanted> = Vec::new();
    let mut unknown = Vec::new();
    for request in requested {
        let now = std::time::SystemTime::now();
        let resources = match cache.get(&request.type_name, now) {
            Some(resources) => resources,
            None => match resolve_many(client, &request.type_name) {
                Ok(resources) => {
                    cache.put(&request.type_name, &resources, now);
                    resources
                }
                Err(DiscoveryError::UnknownType(name, _)) if skip_unknown => {
                    unknown.push(name);
                    continue;
                }
                Err(DiscoveryError::UnknownType(name, _)) => {
                    // The run ends here: worth one more look at discovery to say what was meant.
                    let near = spellings(client)
                        .ok()
                        .and_then(|known| nearest_type(&name, &known));
                    return Err(DiscoveryError::UnknownType(name, near));
                }
                Err(e) => return Err(e),
            },
        };
        for resource in resources {
            let namespace = request.namespace.clone().filter(|_| resource.namespaced);
            match groups
                .iter_mut()
                .find(|w| w.resource == resource && w.namespace == namespace)
            {
                Some(existing) => existing.names.extend(request.names.iter().cloned()),
                None => groups.push(Wanted {
                    resource,
                    names: request.names.clone(),
                    namespace,
                }),
            }
        }
    }
    Ok((groups, unknown))
}

#[derive(Debug, thiserror::Error)]
pub enum DiscoveryError {
    /// A type the server lacks, and the nearest one it has, if one is near (see `hint`).
    #[error("the server doesn't have a resource type \"{0}\"")]
    UnknownType(String, Option<String>),
    #[error(transparent)]
    Client(#[from] ClientError),
    #[error("the server's discovery document {path} is not valid: {reason}")]
    BadDocument { path: String, reason: String },
}

impl DiscoveryError {
    /// A second line for the message: the type the user probably meant (kubectl's own line,
    /// the first, stays as kubectl words it).
    pub fn hint(&self) -> Option<String> {
        match self {
            DiscoveryError::UnknownType(_, Some(near)) => Some(format!("did you mean \"{near}\"?")),
            _ => None,
        }
    }
}

/// What the user typed, split into its parts.
#[derive(Debug, Clone, PartialEq, Eq)]
struct TypeQuery {
    name: String,
    version: Option<String>,
    group: Option<String>,
}

fn parse_query(typed: &str) -> TypeQuery {
    let lower = typed.to_ascii_lowercase();
    let Some((name, rest)) = lower.split_once('.') else {
        return TypeQuery {
            name: lower,
            version: None,
            group: None,
        };
    };
    // `deployments.v1.apps`: a version segment before the group.
    if let Some((first, group)) = rest.split_once('.') {
        if looks_like_version(first) {
            return TypeQuery {
                name: name.to_string(),
                version: Some(first.to_string()),
                group: Some(group.to_string()),
            };
        }
    }
    TypeQuery {
        name: name.to_string(),
        version: None,
        group: Some(rest.to_string()),
    }
}

/// `v1`, `v2beta1`, `v1alpha3`.
fn looks_like_version(s: &str) -> bool {
    let Some(rest) = s.strip_prefix('v') else {
        return false;
    };
    let digits = rest.chars().take_while(|c| c.is_ascii_digit()).count();
    if digits == 0 {
        return false;
    }
    let tail = &rest[digits..];
    tail.is_empty()
        || ["alpha", "beta"].iter().any(|p| {
            tail.strip_prefix(p)
                .is_some_and(|n| !n.is_empty() && n.chars().all(|c| c.is_ascii_digit()))
        })
}

fn matches(resource: &ApiResource, name: &str) -> bool {
    if resource.name.contains('/') {
        return false; // a subresource such as pods/log
    }
    resource.name == name
        || resource.singular_name == name
        || resource.kind.to_ascii_lowercase() == name
        || resource.short_names.iter().any(|s| s == name)
}

fn info(resource: &ApiResource, group: &str, version: &str) -> ResourceInfo {
    ResourceInfo {
        plural: resource.name.clone(),
        singular: if resource.singular_name.is_empty() {
            resource.kind.to_ascii_lowercase()
        } else {
            resource.singular_name.clone()
        },
        kind: resource.kind.clone(),
        group: group.to_string(),
        version: version.to_string(),
        namespaced: resource.namespaced,
    }
}

fn fetch<T: serde::de::DeserializeOwned>(client: &Client, path: &str) -> Result<T, DiscoveryError> {
    let body = client.get(path, "application/json")?;
    serde_json::from_slice(&body).map_err(|e| DiscoveryError::BadDocument {
        path: path.to_string(),
        reason: e.to_string(),
    })
}

/// A group version's resources, or `None` when its server fails to serve them: a broken
/// aggregated API server should not hide every other group.
fn resource_list(client: &Client, path: &str) -> Result<Option<ApiResourceList>, DiscoveryError> {
    match fetch(client, path) {
        Ok(list) => Ok(Some(list)),
        Err(DiscoveryError::Client(ClientError::Status { code, .. }))
            if code >= 500 || code == 404 =>
        {
            Ok(None)
        }
        Err(e) => Err(e),
    }
}

fn find_in(
    client: &Client,
    path: &str,
    query: &TypeQuery,
    group: &str,
    version: &str,
) -> Result<Option<ResourceInfo>, DiscoveryError> {
    Ok(resource_list(client, path)?.and_then(|list| {
        list.resources
            .iter()
            .find(|r| matches(r, &query.name))
            .map(|r| info(r, group, version))
    }))
}

/// Resolve a typed name to the types it means: one type, or every type of a category
/// (`all`, or a custom resource's own category) when no type has that name, as kubectl does.
pub fn resolve_many(client: &Client, typed: &str) -> Result<Vec<ResourceInfo>, DiscoveryError> {
    match resolve(client, typed) {
        Ok(found) => Ok(vec![found]),
        Err(DiscoveryError::UnknownType(name, _)) if !typed.contains('.') => {
            let members = category(client, &typed.to_ascii_lowercase())?;
            if members.is_empty() {
                Err(DiscoveryError::UnknownType(name, None))
            } else {
                Ok(members)
            }
        }
        Err(e) => Err(e),
    }
}

/// Every listable type in a category, in discovery order (the core group first).
fn category(client: &Client, name: &str) -> Result<Vec<ResourceInfo>, DiscoveryError> {
    let mut lists: Vec<(ApiResourceList, String, String)> = Vec::new();
    let core: ApiResourceList = fetch(client, "/api/v1")?;
    lists.push((core, String::new(), "v1".to_string()));
    let groups: ApiGroupList = fetch(client, "/apis")?;
    for group in &groups.groups {
        let version = &group.preferred_version.version;
        if version.is_empty() {
            continue;
        }
        let path = format!("/apis/{}/{}", group.name, version);
        if let Some(list) = resource_list(client, &path)? {
            lists.push((list, group.name.clone(), version.clone()));
        }
    }
    Ok(lists
        .iter()
        .flat_map(|(list, group, version)| {
            list.resources
                .iter()
                .filter(|r| !r.name.contains('/'))
                .filter(|r| r.categories.iter().any(|c| c == name))
                .filter(|r| r.verbs.iter().any(|v| v == "list"))
                .map(move |r| info(r, group, version))
        })
        .collect())
}

/// Every type the server can list, in each group's preferred version, the core group first:
/// what `kw get <TAB>` offers.
pub fn listable(client: &Client) -> Result<Vec<ResourceInfo>, DiscoveryError> {
    let lists = preferred_lists(client)?;
    Ok(lists
        .iter()
        .flat_map(|(list, group, version)| listable_in(list, group, version))
        .collect())
}

/// Every group version's resource list, in each group's preferred version, the core group
/// first. Group versions are asked in parallel, since a cluster serves dozens and completion
/// has little time; one that fails is skipped, as in `category`.
fn preferred_lists(
    client: &Client,
) -> Result<Vec<(ApiResourceList, String, String)>, DiscoveryError> {
    let core: ApiResourceList = fetch(client, "/api/v1")?;
    let groups: ApiGroupList = fetch(client, "/apis")?;
    let wanted: Vec<(&str, &str)> = groups
        .groups
        .iter()
        .map(|g| (g.name.as_str(), g.preferred_version.version.as_str()))
        .filter(|(_, version)| !version.is_empty())
        .collect();
    let lists = std::thread::scope(|scope| {
        let asked: Vec<_> = wanted
            .iter()
            .map(|(group, version)| {
                scope.spawn(move || resource_list(client, &format!("/apis/{group}/{version}")))
            })
            .collect();
        asked
            .into_iter()
            .map(|handle| handle.join().unwrap_or(Ok(None)))
            .collect::<Result<Vec<_>, _>>()
    })?;
    let mut found = vec![(core, String::new(), "v1".to_string())];
    for (list, (group, version)) in lists.into_iter().zip(&wanted) {
        if let Some(list) = list {
            found.push((list, group.to_string(), version.to_string()));
        }
    }
    Ok(found)
}

/// Every name the server's listable types answer to (plural, singular, short names), in
/// discovery order: what a typo is compared with.
fn spellings(client: &Client) -> Result<Vec<String>, DiscoveryError> {
    let lists = preferred_lists(client)?;
    let mut names = Vec::new();
    for (list, _, _) in &lists {
        for resource in list.resources.iter().filter(|r| !r.name.contains('/')) {
            if !resource.verbs.iter().any(|v| v == "list") {
                continue;
            }
            names.push(resource.name.clone());
            if !resource.singular_name.is_empty() {
                names.push(resource.singular_name.clone());
            }
            names.extend(resource.short_names.iter().cloned());
        }
    }
    Ok(names)
}

/// The known type name nearest to `typed` (see `spelling::nearest`). `typed` with a group
/// (`deploymnets.apps`) is compared by its name, and the suggestion keeps the group.
pub fn nearest_type(typed: &str, known: &[String]) -> Option<String> {
    let lower = typed.to_ascii_lowercase();
    let (name, rest) = match lower.split_once('.') {
        Some((name, rest)) => (name, Some(rest)),
        None => (lower.as_str(), None),
    };
    let found = crate::spelling::nearest(name, known.iter().map(String::as_str))?;
    Some(match rest {
        Some(rest) => format!("{found}.{rest}"),
        None => found.to_string(),
    })
}

fn listable_in<'a>(
    list: &'a ApiResourceList,
    group: &'a str,
    version: &'a str,
) -> impl Iterator<Item = ResourceInfo> + 'a {
    list.resources
        .iter()
        .filter(|r| !r.name.contains('/'))
        .filter(|r| r.verbs.iter().any(|v| v == "list"))
        .map(move |r| info(r, group, version))
}

/// Resolve a typed resource type against the server.
pub fn resolve(client: &Client, typed: &str) -> Result<ResourceInfo, DiscoveryError> {
    let query = parse_query(typed);
    let core_allowed = matches!(query.group.as_deref(), None | Some(""))
        && matches!(query.version.as_deref(), None | Some("v1"));
    if core_allowed {
        if let Some(found) = find_in(client, "/api/v1", &query, "", "v1")? {
            return Ok(found);
        }
    }
    let groups: ApiGroupList = fetch(client, "/apis")?;
    for group in &groups.groups {
        if let Some(wanted) = &query.group {
            if &group.name != wanted {
                continue;
            }
        }
        let version = match &query.version {
            Some(v) => match group.versions.iter().find(|gv| &gv.version == v) {
                Some(gv) => gv.version.clone(),
                None => continue,
            },
            None => group.preferred_version.version.clone(),
        };
        if version.is_empty() {
            continue;
        }
        let path = format!("/apis/{}/{}", group.name, version);
        if let Some(found) = find_in(client, &path, &query, &group.name, &version)? {
            return Ok(found);
        }
    }
    Err(DiscoveryError::UnknownType(typed.to_string(), None))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_type_queries() {
        assert_eq!(
            parse_query("Pods"),
            TypeQuery {
                name: "pods".into(),
                version: None,
                group: None
            }
        );
        assert_eq!(
            parse_query("deployments.apps"),
            TypeQuery {
                name: "deployments".into(),
                version: None,
                group: Some("apps".into())
            }
        );
        assert_eq!(
            parse_query("deployments.v1.apps"),
            TypeQuery {
                name: "deployments".into(),
                version: Some("v1".into()),
                group: Some("apps".into())
            }
        );
        assert_eq!(
            parse_query("widgets.example.com"),
            TypeQuery {
                name: "widgets".into(),
                version: None,
                group: Some("example.com".into())
            }
        );
        assert_eq!(
            parse_query("widgets.v1beta2.example.com")
                .version
                .as_deref(),
            Some("v1beta2")
        );
    }

    #[test]
    fn recognises_versions() {
        for v in ["v1", "v2", "v1beta1", "v1alpha3", "v10"] {
            assert!(looks_like_version(v), "{v}");
        }
        for v in ["example", "v", "vx", "v1beta", "v1gamma1", "apps"] {
            assert!(!looks_like_version(v), "{v}");
        }
    }

    #[test]
    fn nearest_known_name_for_a_slip_of_the_fingers() {
        let known: Vec<String> = [
            "pods",
            "pod",
            "po",
            "services",
            "service",
            "svc",
            "nodes",
            "node",
            "no",
            "deployments",
            "deployment",
            "deploy",
            "configmaps",
            "configmap",
            "cm",
        ]
        .map(String::from)
        .to_vec();
        let near = |typed: &str| nearest_type(typed, &known);
        assert_eq!(near("pdos").as_deref(), Some("pods"));
        assert_eq!(near("Pdos").as_deref(), Some("pods"));
        assert_eq!(near("posd").as_deref(), Some("pods"));
        // The singular and the short name both one edit away: the first known wins.
        assert_eq!(near("pdo").as_deref(), Some("pod"));
        assert_eq!(near("servics").as_deref(), Some("services"));
        assert_eq!(near("deplyo").as_deref(), Some("deploy"));
        assert_eq!(near("deploymnets").as_deref(), Some("deployments"));
        assert_eq!(
            near("deploymnets.apps").as_deref(),
            Some("deployments.apps")
        );
        assert_eq!(near("sv").as_deref(), Some("svc"));
        assert_eq!(near("configmpas").as_deref(), Some("configmaps"));
        // Too far from anything: no guess (kubectl's golden `get foo` stays one line).
        assert_eq!(near("foo"), None);
        assert_eq!(near("widgets"), None);
        assert_eq!(near("xyzzy"), None);
        assert_eq!(near(""), None);
        // A name that exists is not a typo.
        assert_eq!(near("pods"), None);
    }

    #[test]
    fn the_hint_is_a_line_of_its_own() {
        let near = DiscoveryError::UnknownType("pdos".into(), Some("pods".into()));
        assert_eq!(
            near.to_string(),
            "the server doesn't have a resource type \"pdos\""
        );
        assert_eq!(near.hint().as_deref(), Some("did you mean \"pods\"?"));
        assert_eq!(DiscoveryError::UnknownType("foo".into(), None).hint(), None);
    }

    #[test]
    fn matches_every_name_kubectl_accepts() {
        let pods = ApiResource {
            name: "pods".into(),
            singular_name: "pod".into(),
            namespaced: true,
            kind: "Pod".into(),
            short_names: vec!["po".into()],
            ..Default::default()
        };
        for n in ["pods", "pod", "po"] {
            assert!(matches(&pods, n), "{n}");
        }
        let log = ApiResource {
            name: "pods/log".into(),
            kind: "Pod".into(),
            ..Default::default()
        };
        assert!(!matches(&log, "pod"));
        assert!(!matches(&pods, "deploy"));
    }
}
