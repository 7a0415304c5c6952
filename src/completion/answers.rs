//! Answers only the kubeconfig or the cluster has: contexts, clusters and users (the
//! kubeconfig, no network), and resource types, namespaces, object names and condition types
//! (the server). The cluster is the one the line names with its connection flags, resolved by
//! `settings` as `kw get` would.
//!
//! Resource types come from the discovery cache when it has them (kw's own `kw get` runs fill
//! it, and so does completion), so a warm `kw get po<TAB>` asks the server nothing. Every
//! failure means "no answer": a completion must never put an error in front of the user.

use std::path::PathBuf;
use std::time::{Duration, Instant, SystemTime};

use serde::Deserialize;

use super::candidate::Candidate;
use super::question::Need;
use super::words::Line;
use kw_client::client::Client;
use kw_client::config::flags::ConfigFlags;
use kw_client::config::kubeconfig;
use kw_client::config::settings;
use kw_client::discovery;
use kw_client::discovery::cache::DiscoveryCache;
use kw_client::discovery::cluster_handle::ClusterHandle;
use kw_events::events::ResourceInfo;
use kw_watcher::watcher::Target;

/// How many object names completion asks for: enough to choose from, little to transfer.
const NAME_LIMIT: u64 = 1000;
/// How many objects completion reads conditions from.
const CONDITION_SAMPLE: u64 = 100;
/// kubectl's own Accept for metadata-only lists; servers that do not know it send JSON.
const METADATA_ACCEPT: &str =
    "application/json;as=PartialObjectMetadataList;v=v1;g=meta.k8s.io,application/json";

/// How to reach the cluster the line names, and what part of it the line looks at.
#[derive(Debug, Clone)]
pub struct Reach {
    flags: ConfigFlags,
    namespace: Option<String>,
    all_namespaces: bool,
    label_selector: Option<String>,
    field_selector: Option<String>,
    /// When the budget ends: no request and no exec plugin outlives it.
    deadline: Instant,
}

impl Reach {
    /// The connection flags wherever the line gives them; `budget` bounds every request.
    pub fn of(line: &Line, budget: Duration) -> Reach {
        let text = |flag: &str| line.value(flag).map(String::from);
        let path = |flag: &str| line.value(flag).map(PathBuf::from);
        let flags = ConfigFlags {
            namespace: text("namespace"),
            kubeconfig: path("kubeconfig"),
            // Several contexts (`--context a,b`): candidates come from the first one.
            context: text("context")
                .and_then(|c| c.split(',').next().map(String::from))
                .filter(|c| !kw_client::config::contexts::names_several(c)),
            cluster: text("cluster"),
            user: text("user"),
            server: text("server"),
            token: text("token"),
            certificate_authority: path("certificate-authority"),
            client_certificate: path("client-certificate"),
            client_key: path("client-key"),
            tls_server_name: text("tls-server-name"),
            insecure_skip_tls_verify: line.has("insecure-skip-tls-verify"),
            all_contexts: false,
            as_user: text("as"),
            as_group: line.values("as-group").to_vec(),
            as_uid: text("as-uid"),
            request_timeout: Some(format!("{}ms", budget.as_millis().max(1))),
            // A TAB asks the server, running the context's exec plugin: under the user's policy.
            credential_plugin_policy: crate::kuberc::policy_for_completion(line.value("kuberc")),
        };
        Reach {
            flags,
            namespace: text("namespace"),
            all_namespaces: line.has("all-namespaces"),
            label_selector: text("selector"),
            field_selector: text("field-selector"),
            deadline: Instant::now() + budget,
        }
    }
}

/// The kubeconfig's contexts, clusters or users (`need` is one of those); nothing for any other
/// need or a kubeconfig that cannot be read.
pub fn from_kubeconfig(need: &Need, reach: &Reach) -> Vec<Candidate> {
    let Ok(config) = kubeconfig::load_from_env(reach.flags.kubeconfig.as_deref()) else {
        return Vec::new();
    };
    let current = config.current_context.clone().unwrap_or_default();
    match need {
        Need::Contexts => config
            .contexts
            .iter()
            .map(|c| {
                let mut about = format!("cluster {}, user {}", c.context.cluster, c.context.user);
                if let Some(ns) = c.context.namespace.as_deref().filter(|ns| !ns.is_empty()) {
                    about.push_str(&format!(", namespace {ns}"));
                }
                if c.name == current {
                    about.push_str(" (current)");
                }
                Candidate::described(&c.name, about)
            })
            .collect(),
        Need::Clusters => config
            .clusters
            .iter()
            .map(|c| Candidate::described(&c.name, c.cluster.server.clone().unwrap_or_default()))
            .collect(),
        Need::Users => config
            .users
            .iter()
            .map(|u| Candidate::new(&u.name))
            .collect(),
        _ => Vec::new(),
    }
}

/// What the cluster says to `need`, with `typed` the part of the answer typed so far. `None`
/// when the cluster could not be asked or did not answer.
pub fn from_server(need: &Need, typed: &str, line: &Line, reach: &Reach) -> Option<Vec<Candidate>> {
    let settings = settings::resolve_from_env(&reach.flags, reach.namespace.as_deref()).ok()?;
    let budget = settings.connection.request_timeout;
    let ClusterHandle {
        mut client,
        mut cache,
        ..
    } = ClusterHandle::open_quietly(
        &settings.connection,
        settings.context.as_deref(),
        budget.unwrap_or(Duration::from_secs(2)),
        kw_client::config::environment::discovery_cache_dir().as_deref(),
    )
    .ok()?;
    // Ends a hanging exec plugin too, which would otherwise outlive `kw __complete`.
    client.bound_by(Some(reach.deadline));
    let namespace = (!reach.all_namespaces).then(|| settings.namespace.clone());
    let answer = match need {
        Need::Types => Some(type_candidates(&all_types(&client, &mut cache)?, typed)),
        Need::Names { type_typed } => {
            let types = resolve(&client, &mut cache, type_typed)?;
            let mut names = Vec::new();
            for resource in types {
                names.extend(object_names(&client, reach, resource, namespace.clone())?);
            }
            Some(names)
        }
        Need::Namespaces => {
            let namespaces = ResourceInfo {
                plural: "namespaces".into(),
                singular: "namespace".into(),
                kind: "Namespace".into(),
                group: String::new(),
                version: "v1".into(),
                namespaced: false,
            };
            let unfiltered = Reach {
                label_selector: None,
                field_selector: None,
                ..reach.clone()
            };
            object_names(&client, &unfiltered, namespaces, None)
        }
        Need::ConditionTypes => {
            let type_typed = line.arguments.first().map(|first| {
                let types = first.split('/').next().unwrap_or(first);
                types.split(',').next().unwrap_or(types).to_string()
            })?;
            let types = resolve(&client, &mut cache, &type_typed)?;
            let mut kinds = Vec::new();
            for resource in types {
                kinds.extend(condition_types(
                    &client,
                    reach,
                    resource,
                    namespace.clone(),
                )?);
            }
            Some(kinds.into_iter().map(Candidate::new).collect())
        }
        _ => None,
    };
    cache.save();
    answer
}

/// Every listable type: from the cluster's cached answer, else from the server (the same
/// aggregated answer `kw get` reads, which then goes into the cache).
fn all_types(client: &Client, cache: &mut DiscoveryCache) -> Option<Vec<ResourceInfo>> {
    let mut discovery = discovery::Discovery::with_cache(client, cache);
    let types = discovery.listable().ok()?;
    discovery.remember(cache);
    Some(types)
}

/// The types a typed name means, as `kw get` resolves them: the cache, then the cached answer,
/// then the server.
fn resolve(client: &Client, cache: &mut DiscoveryCache, typed: &str) -> Option<Vec<ResourceInfo>> {
    let now = SystemTime::now();
    if let Some(types) = cache.get(typed, now) {
        return Some(types);
    }
    let mut discovery = discovery::Discovery::with_cache(client, cache);
    let types = discovery.resolve_many(typed).ok()?;
    discovery.remember(cache);
    cache.put(typed, &types, now);
    Some(types)
}

/// Types as words: plural names, or `plural.group` once the user types a `.` (to pick a
/// group, or a type two groups share).
fn type_candidates(types: &[ResourceInfo], typed: &str) -> Vec<Candidate> {
    types
        .iter()
        .map(|t| {
            let word = if typed.contains('.') && !t.group.is_empty() {
                format!("{}.{}", t.plural, t.group)
            } else {
                t.plural.clone()
            };
            Candidate::described(word, format!("{} ({})", t.kind, t.api_version()))
        })
        .collect()
}

fn target(reach: &Reach, resource: ResourceInfo, namespace: Option<String>) -> Target {
    Target {
        resource,
        namespace,
        namespace_set: None,
        names: Vec::new(),
        label_selector: reach.label_selector.clone(),
        field_selector: reach.field_selector.clone(),
        include_object: false,
        subresource: None,
    }
}

#[derive(Deserialize)]
struct ObjectList {
    #[serde(default)]
    items: Vec<Object>,
}

#[derive(Deserialize)]
struct Object {
    #[serde(default)]
    metadata: Metadata,
    #[serde(default)]
    status: Option<ObjectStatus>,
}

#[derive(Default, Deserialize)]
struct Metadata {
    #[serde(default)]
    name: String,
    #[serde(default)]
    namespace: String,
}

#[derive(Deserialize)]
struct ObjectStatus {
    #[serde(default)]
    conditions: Vec<Condition>,
}

#[derive(Deserialize)]
struct Condition {
    #[serde(default, rename = "type")]
    kind: String,
}

fn object_names(
    client: &Client,
    reach: &Reach,
    resource: ResourceInfo,
    namespace: Option<String>,
) -> Option<Vec<Candidate>> {
    // Under -A, the namespace each name is in.
    let namespace_shown = namespace.is_none() && resource.namespaced;
    let path = target(reach, resource, namespace).list_path(NAME_LIMIT, None);
    let body = client.get_list(&path, METADATA_ACCEPT).ok()?;
    let list: ObjectList = serde_json::from_slice(&body).ok()?;
    Some(
        list.items
            .into_iter()
            .filter(|o| !o.metadata.name.is_empty())
            .map(|o| match namespace_shown {
                true => Candidate::described(o.metadata.name, o.metadata.namespace),
                false => Candidate::new(o.metadata.name),
            })
            .collect(),
    )
}

fn condition_types(
    client: &Client,
    reach: &Reach,
    resource: ResourceInfo,
    namespace: Option<String>,
) -> Option<Vec<String>> {
    let path = target(reach, resource, namespace).list_path(CONDITION_SAMPLE, None);
    let body = client.get_list(&path, "application/json").ok()?;
    let list: ObjectList = serde_json::from_slice(&body).ok()?;
    Some(
        list.items
            .into_iter()
            .filter_map(|o| o.status)
            .flat_map(|s| s.conditions)
            .map(|c| c.kind)
            .filter(|kind| !kind.is_empty())
            .collect(),
    )
}
