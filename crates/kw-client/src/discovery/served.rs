//! What the server serves: every group version with its resources, read from `/api` and `/apis`.
//! Both are asked for aggregated discovery (`apidiscovery.k8s.io` v2, then v2beta1, with the
//! Accept header kubectl 1.32 sends), so the whole answer costs two requests. A server that does
//! not support it answers the legacy documents instead, and only then is every group version
//! asked on its own (in parallel, as kubectl does).
//!
//! A version the server cannot vouch for (an aggregated API that is down: `Stale` in the
//! aggregated answer, an error status on its legacy document) is set aside and named in
//! `stale`; it never hides the others. Nothing here decides what a typed name means (`super`).

use crate::client::{Client, ClientError};
use kw_wire::{
    ApiGroupDiscoveryList, ApiGroupList, ApiResource, ApiResourceDiscovery, ApiResourceList,
    ApiVersions, AGGREGATED_DISCOVERY_ACCEPT, FRESHNESS_STALE, SCOPE_NAMESPACED,
};

use super::error::DiscoveryError;
use super::names;

/// One group version the server serves, with its resources (subresources included, as
/// `plural/sub`, in the legacy shape).
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct GroupVersion {
    /// "" for the core group.
    pub group: String,
    pub version: String,
    /// The group's preferred version (the first of its versions in the aggregated answer).
    pub preferred: bool,
    pub resources: Vec<ApiResource>,
}

/// One half of the server's answer: the core group (`/api`) or the named groups (`/apis`).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Half {
    /// In discovery order: groups in the server's priority order, each group's versions in
    /// preference order.
    pub versions: Vec<GroupVersion>,
    /// `group/version` (or `version` in the core group) of every version set aside as stale.
    pub stale: Vec<String>,
}

/// The kind and apiVersion of a discovery document, to tell the two shapes apart. The
/// Content-Type says it too, but a client reads bodies; the body says it as surely.
#[derive(serde::Deserialize)]
#[serde(rename_all = "camelCase")]
struct TypeMeta {
    #[serde(default)]
    kind: String,
    #[serde(default)]
    api_version: String,
}

/// `/api` (`core`) or `/apis`, aggregated when the server can, else the legacy way.
pub fn half(client: &Client, core: bool) -> Result<Half, DiscoveryError> {
    let path = if core { "/api" } else { "/apis" };
    let body = match client.get(path, AGGREGATED_DISCOVERY_ACCEPT) {
        Ok(body) => body,
        // A server (or a proxy in front of one) that does not serve the list itself: the core
        // group is then asked at v1 directly, as kw always did; no list of groups is no group.
        Err(ClientError::Status { code: 404, .. }) if core => {
            let core_v1 = legacy_versions(client, &[(String::new(), "v1".into(), true)])?;
            return Ok(checked(core_v1, core));
        }
        Err(ClientError::Status { code: 404, .. }) => return Ok(Half::default()),
        Err(e) => return Err(e.into()),
    };
    let wanted = match read_document(path, &body, core)? {
        Document::Whole(half) => return Ok(half),
        Document::Asks(wanted) => wanted,
    };
    Ok(checked(legacy_versions(client, &wanted)?, core))
}

/// What one `/api` or `/apis` body says.
#[derive(Debug, Clone, PartialEq)]
pub enum Document {
    /// Aggregated discovery: the whole answer, checked.
    Whole(Half),
    /// The legacy list: the group versions to ask for, (group, version, preferred), each a name
    /// that may go into a path.
    Asks(Vec<(String, String, bool)>),
}

/// Reads an `/api` (`core`) or `/apis` body, before any legacy group version is asked for.
/// Public for the `discovery` fuzz target (fuzz/, issue 33): the body is the server's.
pub fn read_document(path: &str, body: &[u8], core: bool) -> Result<Document, DiscoveryError> {
    let meta: TypeMeta = parse(path, body)?;
    let aggregated = meta.kind == "APIGroupDiscoveryList"
        && matches!(
            meta.api_version.as_str(),
            "apidiscovery.k8s.io/v2" | "apidiscovery.k8s.io/v2beta1"
        );
    if aggregated {
        return Ok(Document::Whole(checked(
            from_aggregated(parse(path, body)?),
            core,
        )));
    }
    let wanted: Vec<(String, String, bool)> = if core {
        let versions: ApiVersions = parse(path, body)?;
        versions
            .versions
            .iter()
            .enumerate()
            .map(|(i, v)| (String::new(), v.clone(), i == 0))
            .collect()
    } else {
        let groups: ApiGroupList = parse(path, body)?;
        groups
            .groups
            .iter()
            .flat_map(|g| {
                let preferred = g.preferred_version.version.clone();
                g.versions
                    .iter()
                    .map(move |gv| (g.name.clone(), gv.version.clone(), gv.version == preferred))
            })
            .filter(|(_, version, _)| !version.is_empty())
            .collect()
    };
    // A name that may not go into a path is never asked for.
    let (wanted, skipped): (Vec<_>, Vec<_>) = wanted
        .into_iter()
        .partition(|(group, version, _)| names::is_group_version(group, version, core));
    for (group, version, _) in &skipped {
        names::skipped_version(group, version);
    }
    Ok(Document::Asks(wanted))
}

/// `half` without the group versions and resources whose names may not go into a path, each
/// left out with a note at `-v`. Public for the `discovery` fuzz target, which checks legacy
/// resource lists through it.
pub fn checked(half: Half, core: bool) -> Half {
    let versions = half
        .versions
        .into_iter()
        .filter(|gv| {
            let ok = names::is_group_version(&gv.group, &gv.version, core);
            if !ok {
                names::skipped_version(&gv.group, &gv.version);
            }
            ok
        })
        .map(|gv| GroupVersion {
            resources: gv
                .resources
                .into_iter()
                .filter(|resource| {
                    let ok = names::is_resource(&resource.name);
                    if !ok {
                        names::skipped_resource(&resource.name, &gv.group, &gv.version);
                    }
                    ok
                })
                .collect(),
            ..gv
        })
        .collect();
    // Stale ones are only named in a warning, but a name that is not one is not repeated.
    let stale = half
        .stale
        .into_iter()
        .filter(|named| {
            let (group, version) = match named.split_once('/') {
                Some((group, version)) if !core => (group, version),
                _ => ("", named.as_str()),
            };
            let ok = names::is_group_version(group, version, core);
            if !ok {
                names::skipped_version(group, version);
            }
            ok
        })
        .collect();
    Half { versions, stale }
}

fn parse<T: serde::de::DeserializeOwned>(path: &str, body: &[u8]) -> Result<T, DiscoveryError> {
    serde_json::from_slice(body).map_err(|e| DiscoveryError::BadDocument {
        path: path.to_string(),
        reason: e.to_string(),
    })
}

fn from_aggregated(list: ApiGroupDiscoveryList) -> Half {
    let mut half = Half::default();
    for group in list.items {
        let name = group.metadata.name;
        for (i, version) in group.versions.into_iter().enumerate() {
            if version.freshness == FRESHNESS_STALE {
                half.stale.push(group_version(&name, &version.version));
                continue;
            }
            half.versions.push(GroupVersion {
                group: name.clone(),
                version: version.version,
                preferred: i == 0,
                resources: version
                    .resources
                    .into_iter()
                    .flat_map(legacy_shape)
                    .collect(),
            });
        }
    }
    half
}

/// An aggregated resource as the legacy list would carry it: the resource, then each
/// subresource as `plural/sub`.
fn legacy_shape(resource: ApiResourceDiscovery) -> Vec<ApiResource> {
    let namespaced = resource.scope == SCOPE_NAMESPACED;
    let kind = resource
        .response_kind
        .as_ref()
        .map(|k| k.kind.clone())
        .unwrap_or_default();
    let mut shaped = vec![ApiResource {
        name: resource.resource.clone(),
        singular_name: resource.singular_resource,
        namespaced,
        group: None,
        version: None,
        kind,
        verbs: resource.verbs,
        short_names: resource.short_names,
        categories: resource.categories,
        storage_version_hash: None,
    }];
    for sub in resource.subresources {
        shaped.push(ApiResource {
            name: format!("{}/{}", resource.resource, sub.subresource),
            namespaced,
            kind: sub.response_kind.map(|k| k.kind).unwrap_or_default(),
            verbs: sub.verbs,
            ..ApiResource::default()
        });
    }
    shaped
}

fn group_version(group: &str, version: &str) -> String {
    if group.is_empty() {
        version.to_string()
    } else {
        format!("{group}/{version}")
    }
}

/// Every legacy group version document, asked in parallel since a cluster serves dozens. One
/// that fails with a server error or 404 is set aside as stale; other failures end discovery.
fn legacy_versions(
    client: &Client,
    wanted: &[(String, String, bool)],
) -> Result<Half, DiscoveryError> {
    let answers = std::thread::scope(|scope| {
        let asked: Vec<_> = wanted
            .iter()
            .map(|(group, version, _)| {
                let path = if group.is_empty() {
                    format!("/api/{version}")
                } else {
                    format!("/apis/{group}/{version}")
                };
                scope.spawn(move || {
                    let body = client.get(&path, "application/json")?;
                    parse::<ApiResourceList>(&path, &body)
                })
            })
            .collect();
        asked
            .into_iter()
            .map(|handle| {
                handle.join().unwrap_or_else(|_| {
                    Err(DiscoveryError::Client(ClientError::Broken {
                        server: client.server().to_string(),
                        reason: "a discovery request failed".into(),
                    }))
                })
            })
            .collect::<Vec<_>>()
    });
    let mut half = Half::default();
    for (answer, (group, version, preferred)) in answers.into_iter().zip(wanted) {
        match answer {
            Ok(list) => half.versions.push(GroupVersion {
                group: group.clone(),
                version: version.clone(),
                preferred: *preferred,
                resources: list.resources,
            }),
            Err(DiscoveryError::Client(ClientError::Status { code, .. }))
                if code >= 500 || code == 404 =>
            {
                half.stale.push(group_version(group, version));
            }
            Err(e) => return Err(e),
        }
    }
    Ok(half)
}

#[cfg(test)]
mod tests {
    use super::*;
    use kw_wire::{ApiGroupDiscovery, ApiSubresourceDiscovery, ApiVersionDiscovery};

    #[test]
    fn an_aggregated_answer_reads_as_the_legacy_lists_and_sets_stale_versions_aside() {
        let body = r#"{"kind":"APIGroupDiscoveryList","apiVersion":"apidiscovery.k8s.io/v2",
            "metadata":{},"items":[
            {"metadata":{"name":"apps","creationTimestamp":null},"versions":[
              {"version":"v1","freshness":"Current","resources":[
                {"resource":"deployments","responseKind":{"group":"apps","version":"v1",
                 "kind":"Deployment"},"scope":"Namespaced","singularResource":"deployment",
                 "verbs":["get","list"],"shortNames":["deploy"],"categories":["all"],
                 "subresources":[{"subresource":"scale","responseKind":{"group":"autoscaling",
                 "version":"v1","kind":"Scale"},"verbs":["get"]}]}]},
              {"version":"v1beta1","resources":[]}]},
            {"metadata":{"name":"metrics.k8s.io"},"versions":[
              {"version":"v1beta1","freshness":"Stale","resources":[]}]}]}"#;
        let list: ApiGroupDiscoveryList = parse("/apis", body.as_bytes()).unwrap();
        let half = from_aggregated(list);
        assert_eq!(half.stale, ["metrics.k8s.io/v1beta1"]);
        let versions: Vec<_> = half
            .versions
            .iter()
            .map(|gv| (gv.group.as_str(), gv.version.as_str(), gv.preferred))
            .collect();
        assert_eq!(versions, [("apps", "v1", true), ("apps", "v1beta1", false)]);
        let deployments = &half.versions[0].resources[0];
        assert_eq!(deployments.name, "deployments");
        assert_eq!(deployments.kind, "Deployment");
        assert!(deployments.namespaced);
        assert_eq!(deployments.short_names, ["deploy"]);
        assert_eq!(half.versions[0].resources[1].name, "deployments/scale");
        assert_eq!(half.versions[0].resources[1].kind, "Scale");
    }

    #[test]
    fn a_cluster_scoped_resource_is_not_namespaced() {
        let group = ApiGroupDiscovery {
            versions: vec![ApiVersionDiscovery {
                version: "v1".into(),
                resources: vec![ApiResourceDiscovery {
                    resource: "nodes".into(),
                    scope: "Cluster".into(),
                    subresources: vec![ApiSubresourceDiscovery {
                        subresource: "status".into(),
                        ..Default::default()
                    }],
                    ..Default::default()
                }],
                freshness: String::new(),
            }],
            ..Default::default()
        };
        let half = from_aggregated(ApiGroupDiscoveryList {
            items: vec![group],
            ..Default::default()
        });
        assert_eq!(half.versions[0].group, "");
        assert!(!half.versions[0].resources[0].namespaced);
        assert!(!half.versions[0].resources[1].namespaced);
        assert_eq!(half.versions[0].resources[1].name, "nodes/status");
    }
}
