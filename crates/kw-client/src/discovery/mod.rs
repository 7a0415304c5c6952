//! Discovery, the layer between a typed resource type and the watcher: resolving names. This file
//! turns what the user typed (`pods`, `po`, `pod`, `Pod`, `deploy`, `deployments.apps`,
//! `deployments.v1.apps`, `widgets.example.com`, a category such as `all`) into `ResourceInfo`s,
//! from what the server serves. The core group is asked first, so the common case costs one
//! request; whatever was asked is kept for the run's other types and for the did-you-mean of a
//! type the server lacks. A whole answer goes into the cluster's cache, and a later run resolves
//! any name from it; a name it does not know is asked again (a CRD installed since), as kubectl
//! does.
//!
//! The layer's other parts, one job each: `served` reads the server's answer (`/api`, `/apis`),
//! `cache` keeps answers on disk per cluster, `cluster` opens a context's client with its cache
//! (`ClusterHandle`) and forgets what the cache got wrong, `error` says why a name failed,
//! `names` keeps names a path cannot carry out of what the server said.

pub mod cache;
pub mod cluster_handle;
mod error;
mod names;
pub mod once;
mod served;

use crate::client::Client;
use crate::discovery::cache::DiscoveryCache;
use kw_events::events::ResourceInfo;
use kw_wire::ApiResource;

pub use error::DiscoveryError;
pub use served::{checked, read_document, Document, GroupVersion, Half};

/// One type of a request, with the names wanted of it (and their namespace, when a manifest
/// says).
#[derive(Debug, Clone)]
pub struct Requested {
    pub asked: TypeAsked,
    pub names: Vec<String>,
    pub namespace: Option<String>,
}

/// A type as a request gives it.
#[derive(Debug, Clone)]
pub enum TypeAsked {
    /// As typed or written in a manifest (`deploy`, `deployment.v1.apps`): for discovery to
    /// resolve.
    Name(String),
    /// As discovery already resolved it earlier in the run: taken as it is.
    Resolved(ResourceInfo),
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
    let mut discovery = Discovery::with_cache(client, cache);
    let mut groups: Vec<Wanted> = Vec::new();
    let mut unknown = Vec::new();
    for request in requested {
        let now = std::time::SystemTime::now();
        let type_name = match &request.asked {
            TypeAsked::Resolved(resource) => {
                want(&mut groups, request, resource.clone());
                continue;
            }
            TypeAsked::Name(name) => name,
        };
        let resources = match cache.get(type_name, now) {
            Some(resources) => resources,
            None => match discovery.resolve_many(type_name) {
                Ok(resources) => {
                    cache.put(type_name, &resources, now);
                    resources
                }
                Err(DiscoveryError::UnknownType(name, _)) if skip_unknown => {
                    unknown.push(name);
                    continue;
                }
                Err(DiscoveryError::UnknownType(name, _)) => {
                    // The run ends here: the answer already read says what was meant.
                    let near = discovery
                        .spellings()
                        .ok()
                        .and_then(|known| nearest_type(&name, &known));
                    return Err(DiscoveryError::UnknownType(name, near));
                }
                Err(e) => return Err(e),
            },
        };
        for resource in resources {
            want(&mut groups, request, resource);
        }
    }
    discovery.remember(cache);
    Ok((groups, unknown))
}

/// `request`'s objects of `resource` into `groups`. A type asked for twice (`pods,po`) is
/// listed once; named objects join only the group just before them, so that they come in the
/// order named (`deploy/a svc/b deploy/c`: three groups, as kubectl prints them).
fn want(groups: &mut Vec<Wanted>, request: &Requested, resource: ResourceInfo) {
    let namespace = request.namespace.clone().filter(|_| resource.namespaced);
    let same = |w: &Wanted| w.resource == resource && w.namespace == namespace;
    let joined = if request.names.is_empty() {
        groups.iter_mut().find(|w| same(w))
    } else {
        groups.last_mut().filter(|w| same(w) && !w.names.is_empty())
    };
    match joined {
        Some(existing) => existing.names.extend(request.names.iter().cloned()),
        None => groups.push(Wanted {
            resource,
            names: request.names.clone(),
            namespace,
        }),
    }
}

/// A whole answer as the cache keeps it: the types of every group version, and which group
/// versions were stale when it was read (a name of theirs is asked of the server again).
#[derive(Debug, serde::Serialize, serde::Deserialize)]
struct Cached {
    versions: Vec<GroupVersion>,
    stale: Vec<String>,
}

/// The server's answer: from the cache when it has one, else read half by half (`/api`, then
/// `/apis`) as resolutions need it, and kept so that nothing is asked twice.
pub struct Discovery<'a> {
    client: &'a Client,
    /// A whole answer from the cache, until it fails to know a name.
    cached: Option<Cached>,
    core: Option<Half>,
    groups: Option<Half>,
}

impl<'a> Discovery<'a> {
    /// Discovery that asks the server only.
    pub fn new(client: &'a Client) -> Discovery<'a> {
        Discovery {
            client,
            cached: None,
            core: None,
            groups: None,
        }
    }

    /// Discovery that answers from the whole answer `cache` keeps, if it has a fresh one.
    pub fn with_cache(client: &'a Client, cache: &DiscoveryCache) -> Discovery<'a> {
        Discovery {
            // Read back from disk: checked as the server's answer was before it was kept.
            cached: cache
                .answer::<Cached>(std::time::SystemTime::now())
                .map(|cached| Cached {
                    versions: cached
                        .versions
                        .into_iter()
                        .flat_map(|gv| {
                            let core = gv.group.is_empty();
                            let half = Half {
                                versions: vec![gv],
                                stale: Vec::new(),
                            };
                            checked(half, core).versions
                        })
                        .collect(),
                    ..cached
                }),
            ..Discovery::new(client)
        }
    }

    /// Keep what was read from the server in `cache`, when it was read whole. Subresources are
    /// left out: nothing resolves to them.
    pub fn remember(&self, cache: &mut DiscoveryCache) {
        let (Some(core), Some(groups)) = (&self.core, &self.groups) else {
            return;
        };
        let versions: Vec<GroupVersion> = core
            .versions
            .iter()
            .chain(&groups.versions)
            .map(|gv| GroupVersion {
                resources: gv
                    .resources
                    .iter()
                    .filter(|r| !r.name.contains('/'))
                    .cloned()
                    .collect(),
                ..gv.clone()
            })
            .collect();
        let cached = Cached {
            versions,
            stale: self.stale(),
        };
        cache.put_answer(&cached, std::time::SystemTime::now());
    }

    fn core(&mut self) -> Result<&Half, DiscoveryError> {
        if self.core.is_none() {
            self.core = Some(served::half(self.client, true)?);
        }
        Ok(self.core.get_or_insert_with(Half::default))
    }

    fn groups(&mut self) -> Result<&Half, DiscoveryError> {
        if self.groups.is_none() {
            self.groups = Some(served::half(self.client, false)?);
        }
        Ok(self.groups.get_or_insert_with(Half::default))
    }

    /// Every group version, the core group first: the cached answer, else the server's.
    fn all(&mut self) -> Result<Vec<&GroupVersion>, DiscoveryError> {
        if self.cached.is_none() {
            self.core()?;
            self.groups()?;
        }
        if let Some(cached) = &self.cached {
            return Ok(cached.versions.iter().collect());
        }
        Ok(self
            .core
            .iter()
            .chain(self.groups.iter())
            .flat_map(|half| &half.versions)
            .collect())
    }

    /// The group versions set aside because the server could not vouch for them (so far, in
    /// what was read from the server).
    pub fn stale(&self) -> Vec<String> {
        self.core
            .iter()
            .chain(self.groups.iter())
            .flat_map(|half| half.stale.iter().cloned())
            .collect()
    }

    /// Resolve a typed name to the types it means: one type, or every type of a category
    /// (`all`, or a custom resource's own category) when no type has that name, as kubectl
    /// does.
    pub fn resolve_many(&mut self, typed: &str) -> Result<Vec<ResourceInfo>, DiscoveryError> {
        if let Some(cached) = &self.cached {
            if let Some(found) = resolve_in(cached.versions.iter(), typed) {
                return Ok(found);
            }
            // Not in the cached answer: perhaps new since; the server says.
            self.cached = None;
        }
        let query = parse_query(typed);
        let core_allowed = matches!(query.group.as_deref(), None | Some(""))
            && matches!(query.version.as_deref(), None | Some("v1"));
        if core_allowed {
            if let Some(found) = find(self.core()?.versions.iter(), &query) {
                return Ok(vec![found]);
            }
        }
        resolve_in(self.all()?.into_iter(), typed)
            .ok_or_else(|| DiscoveryError::UnknownType(typed.to_string(), None))
    }

    /// Every type the server can list, in each group's preferred version, the core group
    /// first: what `kw get <TAB>` offers.
    pub fn listable(&mut self) -> Result<Vec<ResourceInfo>, DiscoveryError> {
        // A cached answer that lacked a group would leave its types out for hours: ask again.
        if self.cached.as_ref().is_some_and(|c| !c.stale.is_empty()) {
            self.cached = None;
        }
        Ok(self
            .all()?
            .into_iter()
            .filter(|gv| gv.preferred)
            .flat_map(listable_in)
            .map(|(_, info)| info)
            .collect())
    }

    /// Every name the server's listable types answer to (plural, singular, short names), in
    /// discovery order: what a typo is compared with.
    fn spellings(&mut self) -> Result<Vec<String>, DiscoveryError> {
        let mut names = Vec::new();
        for gv in self.all()?.into_iter().filter(|gv| gv.preferred) {
            for (resource, _) in listable_in(gv) {
                names.push(resource.name.clone());
                if !resource.singular_name.is_empty() {
                    names.push(resource.singular_name.clone());
                }
                names.extend(resource.short_names.iter().cloned());
            }
        }
        Ok(names)
    }
}

/// What `typed` means among `versions` (the core group first): the type it names, else (for a
/// name without a group) every listable type of the category it names, in discovery order.
fn resolve_in<'v>(
    versions: impl Iterator<Item = &'v GroupVersion> + Clone,
    typed: &str,
) -> Option<Vec<ResourceInfo>> {
    if let Some(found) = find(versions.clone(), &parse_query(typed)) {
        return Some(vec![found]);
    }
    if typed.contains('.') {
        return None;
    }
    let name = typed.to_ascii_lowercase();
    let members: Vec<ResourceInfo> = versions
        .filter(|gv| gv.preferred)
        .flat_map(|gv| listable_in(gv).filter(|(r, _)| r.categories.iter().any(|c| c == &name)))
        .map(|(_, info)| info)
        .collect();
    (!members.is_empty()).then_some(members)
}

/// The type `query` names among `versions`: in the version it gives, else in each group's
/// preferred version, else in any other version (a type only an older version still serves).
fn find<'v>(
    versions: impl Iterator<Item = &'v GroupVersion> + Clone,
    query: &TypeQuery,
) -> Option<ResourceInfo> {
    let candidates = || {
        versions.clone().filter(|gv| {
            query.group.as_ref().is_none_or(|g| &gv.group == g)
                && query.version.as_ref().is_none_or(|v| &gv.version == v)
        })
    };
    let preferred = candidates().filter(|gv| gv.preferred || query.version.is_some());
    let others = candidates().filter(|gv| !gv.preferred && query.version.is_none());
    preferred.chain(others).find_map(|gv| {
        gv.resources
            .iter()
            .find(|r| matches(r, &query.name))
            .map(|r| info(r, &gv.group, &gv.version))
    })
}

/// The listable types of a group version (no subresources), with what discovery said of them.
fn listable_in(gv: &GroupVersion) -> impl Iterator<Item = (&ApiResource, ResourceInfo)> + '_ {
    gv.resources
        .iter()
        .filter(|r| !r.name.contains('/'))
        .filter(|r| r.verbs.iter().any(|v| v == "list"))
        .map(move |r| (r, info(r, &gv.group, &gv.version)))
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

/// The known type name nearest to `typed` (see `spelling::nearest`). `typed` with a group
/// (`deploymnets.apps`) is compared by its name, and the suggestion keeps the group.
pub fn nearest_type(typed: &str, known: &[String]) -> Option<String> {
    let lower = typed.to_ascii_lowercase();
    let (name, rest) = match lower.split_once('.') {
        Some((name, rest)) => (name, Some(rest)),
        None => (lower.as_str(), None),
    };
    let found = kw_base::spelling::nearest(name, known.iter().map(String::as_str))?;
    Some(match rest {
        Some(rest) => format!("{found}.{rest}"),
        None => found.to_string(),
    })
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

    fn gv(group: &str, version: &str, preferred: bool, names: &[&str]) -> GroupVersion {
        GroupVersion {
            group: group.into(),
            version: version.into(),
            preferred,
            resources: names
                .iter()
                .map(|name| ApiResource {
                    name: name.to_string(),
                    kind: name.trim_end_matches('s').to_string(),
                    verbs: vec!["list".into()],
                    categories: vec!["all".into()],
                    ..Default::default()
                })
                .collect(),
        }
    }

    #[test]
    fn the_preferred_version_wins_and_an_older_one_still_answers() {
        let versions = [
            gv("", "v1", true, &["pods"]),
            gv("autoscaling", "v2", true, &["hpas"]),
            gv("autoscaling", "v1", false, &["hpas", "olds"]),
        ];
        let version = |typed: &str| {
            resolve_in(versions.iter(), typed)
                .map(|found| found.iter().map(|t| t.api_version()).collect::<Vec<_>>())
        };
        assert_eq!(version("hpas"), Some(vec!["autoscaling/v2".to_string()]));
        assert_eq!(
            version("hpas.v1.autoscaling"),
            Some(vec!["autoscaling/v1".to_string()])
        );
        assert_eq!(version("olds"), Some(vec!["autoscaling/v1".to_string()]));
        assert_eq!(version("pods.autoscaling"), None);
        // A category: the preferred versions' members, the core group first.
        assert_eq!(
            version("all"),
            Some(vec!["v1".to_string(), "autoscaling/v2".to_string()])
        );
        assert_eq!(version("all.autoscaling"), None);
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
