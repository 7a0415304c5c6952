//! Discovery documents: `/version`; aggregated discovery (`apidiscovery.k8s.io` v2 and v2beta1
//! `APIGroupDiscoveryList`) on `/api` and `/apis`, chosen by the Accept header as kube-apiserver
//! does; and the legacy documents `/api`, `/api/v1`, `/apis`, `/apis/GROUP/VERSION` for clients
//! that ask plain JSON (or a sim told to refuse aggregated discovery, as an older server).

use serde_json::Value;

use crate::world::catalog::{self, GROUPS, RESOURCES};
use kw_wire::{
    ApiGroup, ApiGroupDiscovery, ApiGroupDiscoveryList, ApiGroupList, ApiResource,
    ApiResourceDiscovery, ApiResourceList, ApiSubresourceDiscovery, ApiVersionDiscovery,
    ApiVersions, DiscoveryMeta, GroupVersionForDiscovery, GroupVersionKind,
    ServerAddressByClientCidr, VersionInfo, FRESHNESS_STALE, SCOPE_CLUSTER, SCOPE_NAMESPACED,
};

/// Which document `/api` or `/apis` answers with.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    /// `APIGroupDiscoveryList` of `apidiscovery.k8s.io/VERSION` (`v2` or `v2beta1`).
    Aggregated(&'static str),
    /// `APIVersions` or `APIGroupList`.
    Legacy,
}

impl Format {
    /// The `Content-Type` of the answer: an aggregated one names its profile, so that a client
    /// can tell it from the legacy document without reading the body.
    pub fn content_type(self) -> String {
        match self {
            Format::Aggregated(version) => format!(
                "application/json;g=apidiscovery.k8s.io;v={version};as=APIGroupDiscoveryList"
            ),
            Format::Legacy => "application/json".into(),
        }
    }
}

/// The first media type of `accept` the server can answer, in the client's order; no Accept
/// (or an empty one) is plain JSON. `None`: nothing acceptable (406).
pub fn negotiate(accept: Option<&str>, aggregated: bool) -> Option<Format> {
    let accept = accept.map(str::trim).filter(|a| !a.is_empty());
    let Some(accept) = accept else {
        return Some(Format::Legacy);
    };
    for clause in accept.split(',') {
        let mut parts = clause.split(';').map(str::trim);
        let media = parts.next().unwrap_or("");
        if !matches!(media, "application/json" | "*/*" | "application/*") {
            continue;
        }
        let (mut group, mut version, mut as_kind) = (None, None, None);
        for param in parts {
            match param.split_once('=').map(|(k, v)| (k.trim(), v.trim())) {
                Some(("g", v)) => group = Some(v),
                Some(("v", v)) => version = Some(v),
                Some(("as", v)) => as_kind = Some(v),
                _ => {}
            }
        }
        match (group, version, as_kind) {
            (None, None, None) => return Some(Format::Legacy),
            (Some("apidiscovery.k8s.io"), Some(v), Some("APIGroupDiscoveryList")) if aggregated => {
                match v {
                    "v2" => return Some(Format::Aggregated("v2")),
                    "v2beta1" => return Some(Format::Aggregated("v2beta1")),
                    _ => continue,
                }
            }
            _ => continue,
        }
    }
    None
}

/// `GET /api` (`core`) or `GET /apis` as aggregated discovery: every group with its resources.
/// `groups` are the API groups served (not the core group); a group in `down` is an aggregated
/// API whose server does not answer: listed, but `Stale` and without resources, as
/// kube-apiserver's aggregator reports it.
pub fn aggregated(
    version: &str,
    core: bool,
    groups: &[&str],
    down: &[String],
) -> ApiGroupDiscoveryList {
    let items = if core {
        vec![group_discovery("", "v1", false)]
    } else {
        GROUPS
            .iter()
            .filter(|(group, _)| groups.contains(group))
            .map(|(group, gv)| group_discovery(group, gv, down.iter().any(|d| d == group)))
            .collect()
    };
    ApiGroupDiscoveryList {
        kind: "APIGroupDiscoveryList".into(),
        api_version: format!("apidiscovery.k8s.io/{version}"),
        metadata: serde_json::Map::new(),
        items,
    }
}

fn group_discovery(group: &str, version: &str, down: bool) -> ApiGroupDiscovery {
    let resources = if down {
        Vec::new()
    } else {
        RESOURCES
            .iter()
            .filter(|info| info.group == group && info.version == version)
            .map(|info| ApiResourceDiscovery {
                resource: info.plural.into(),
                response_kind: Some(GroupVersionKind {
                    group: group.into(),
                    version: version.into(),
                    kind: info.kind.into(),
                }),
                scope: if info.namespaced {
                    SCOPE_NAMESPACED
                } else {
                    SCOPE_CLUSTER
                }
                .into(),
                singular_resource: info.singular.into(),
                verbs: info.verbs.iter().map(|v| v.to_string()).collect(),
                short_names: info.short_names.iter().map(|s| s.to_string()).collect(),
                categories: info.categories.iter().map(|s| s.to_string()).collect(),
                subresources: info
                    .subresources
                    .iter()
                    .map(|(sub, verbs)| {
                        let (kind, sub_group, sub_version) = subresource_kind(sub, info.kind);
                        ApiSubresourceDiscovery {
                            subresource: sub.to_string(),
                            response_kind: Some(GroupVersionKind {
                                group: sub_group.unwrap_or(group).into(),
                                version: sub_version.unwrap_or(version).into(),
                                kind: kind.into(),
                            }),
                            accepted_types: Vec::new(),
                            verbs: verbs.iter().map(|v| v.to_string()).collect(),
                        }
                    })
                    .collect(),
            })
            .collect()
    };
    ApiGroupDiscovery {
        metadata: DiscoveryMeta {
            name: group.into(),
            creation_timestamp: None,
        },
        versions: vec![ApiVersionDiscovery {
            version: version.into(),
            resources,
            freshness: if down { FRESHNESS_STALE } else { "Current" }.into(),
        }],
    }
}

/// `GET /version`.
pub fn version() -> VersionInfo {
    VersionInfo {
        major: "1".into(),
        minor: "32".into(),
        git_version: "v1.32.0-kw-sim".into(),
        git_commit: "0000000000000000000000000000000000000000".into(),
        git_tree_state: "clean".into(),
        build_date: "2024-12-11T00:00:00Z".into(),
        go_version: "go1.23.3".into(),
        compiler: "gc".into(),
        platform: "linux/amd64".into(),
    }
}

/// `GET /api`.
pub fn core_versions(server_address: &str) -> ApiVersions {
    ApiVersions {
        kind: "APIVersions".into(),
        versions: vec!["v1".into()],
        server_address_by_client_cidrs: vec![ServerAddressByClientCidr {
            client_cidr: "0.0.0.0/0".into(),
            server_address: server_address.into(),
        }],
    }
}

/// `GET /apis`.
pub fn groups() -> ApiGroupList {
    ApiGroupList {
        kind: "APIGroupList".into(),
        api_version: "v1".into(),
        groups: GROUPS
            .iter()
            .map(|(group, version)| {
                let group_version = GroupVersionForDiscovery {
                    group_version: format!("{group}/{version}"),
                    version: (*version).into(),
                };
                ApiGroup {
                    name: (*group).into(),
                    versions: vec![group_version.clone()],
                    preferred_version: group_version,
                }
            })
            .collect(),
    }
}

/// `GET /api/v1` (group "") or `GET /apis/GROUP/VERSION`; `None` if not served.
pub fn resources(group: &str, version: &str) -> Option<ApiResourceList> {
    if !catalog::serves_group_version(group, version) {
        return None;
    }
    let mut resources = Vec::new();
    for info in RESOURCES
        .iter()
        .filter(|info| info.group == group && info.version == version)
    {
        resources.push(ApiResource {
            name: info.plural.into(),
            singular_name: info.singular.into(),
            namespaced: info.namespaced,
            group: None,
            version: None,
            kind: info.kind.into(),
            verbs: info.verbs.iter().map(|verb| verb.to_string()).collect(),
            short_names: info.short_names.iter().map(|s| s.to_string()).collect(),
            categories: info.categories.iter().map(|s| s.to_string()).collect(),
            storage_version_hash: Some(storage_version_hash(info.plural)),
        });
        for (sub, verbs) in info.subresources {
            let (kind, sub_group, sub_version) = subresource_kind(sub, info.kind);
            resources.push(ApiResource {
                name: format!("{}/{}", info.plural, sub),
                singular_name: String::new(),
                namespaced: info.namespaced,
                group: sub_group.map(String::from),
                version: sub_version.map(String::from),
                kind: kind.into(),
                verbs: verbs.iter().map(|verb| verb.to_string()).collect(),
                short_names: Vec::new(),
                categories: Vec::new(),
                storage_version_hash: None,
            });
        }
    }
    Some(ApiResourceList {
        kind: "APIResourceList".into(),
        api_version: if group.is_empty() {
            String::new()
        } else {
            "v1".into()
        },
        group_version: if group.is_empty() {
            version.to_string()
        } else {
            format!("{group}/{version}")
        },
        resources,
    })
}

/// A subresource's kind, and its group and version when they differ from the parent's.
/// Subresources carry the parent's kind, except a few special ones on real servers
/// (scale → autoscaling/v1 Scale, eviction → policy/v1 Eviction).
fn subresource_kind(
    sub: &str,
    parent_kind: &'static str,
) -> (&'static str, Option<&'static str>, Option<&'static str>) {
    match sub {
        "scale" => ("Scale", Some("autoscaling"), Some("v1")),
        "eviction" => ("Eviction", Some("policy"), Some("v1")),
        "binding" => ("Binding", None, None),
        "attach" | "exec" | "portforward" | "proxy" => (subresource_options_kind(sub), None, None),
        _ => (parent_kind, None, None),
    }
}

fn subresource_options_kind(sub: &str) -> &'static str {
    match sub {
        "attach" => "PodAttachOptions",
        "exec" => "PodExecOptions",
        "portforward" => "PodPortForwardOptions",
        _ => "PodProxyOptions",
    }
}

/// A stable, opaque hash per resource, like the real server's base64 of a digest.
fn storage_version_hash(plural: &str) -> String {
    use base64::Engine;
    let mut acc: u64 = 0xcbf2_9ce4_8422_2325;
    for byte in plural.bytes() {
        acc ^= u64::from(byte);
        acc = acc.wrapping_mul(0x0100_0000_01b3);
    }
    base64::engine::general_purpose::STANDARD.encode(acc.to_be_bytes())
}

/// Serialise a discovery document (these types cannot fail to serialise).
pub fn to_json<T: serde::Serialize>(document: &T) -> Value {
    serde_json::to_value(document).unwrap_or(Value::Null)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn core_list_has_pods_with_short_name_and_category() {
        let list = resources("", "v1").expect("core served");
        let pods = list
            .resources
            .iter()
            .find(|r| r.name == "pods")
            .expect("pods");
        assert_eq!(pods.short_names, vec!["po".to_string()]);
        assert_eq!(pods.categories, vec!["all".to_string()]);
        assert!(list.resources.iter().any(|r| r.name == "pods/log"));
        assert!(resources("apps", "v2").is_none());
        assert_eq!(list.group_version, "v1");
    }

    #[test]
    fn accept_chooses_the_document() {
        let kubectl = kw_wire::AGGREGATED_DISCOVERY_ACCEPT;
        assert_eq!(
            negotiate(Some(kubectl), true),
            Some(Format::Aggregated("v2"))
        );
        assert_eq!(negotiate(Some(kubectl), false), Some(Format::Legacy));
        let beta = "application/json;g=apidiscovery.k8s.io;v=v2beta1;as=APIGroupDiscoveryList";
        assert_eq!(
            negotiate(Some(beta), true),
            Some(Format::Aggregated("v2beta1"))
        );
        assert_eq!(negotiate(Some(beta), false), None);
        assert_eq!(negotiate(None, true), Some(Format::Legacy));
        assert_eq!(
            negotiate(Some("application/json, */*"), true),
            Some(Format::Legacy)
        );
        assert_eq!(negotiate(Some("text/plain"), true), None);
        assert_eq!(
            Format::Aggregated("v2").content_type(),
            "application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList"
        );
    }

    #[test]
    fn aggregated_discovery_is_kube_apiservers_shape() {
        let core = to_json(&aggregated("v2", true, &[], &[]));
        assert_eq!(core["kind"], "APIGroupDiscoveryList");
        assert_eq!(core["apiVersion"], "apidiscovery.k8s.io/v2");
        // The core group has no name, and an empty ObjectMeta's null timestamp.
        assert_eq!(
            core["items"][0]["metadata"],
            serde_json::json!({"creationTimestamp": null})
        );
        let v1 = &core["items"][0]["versions"][0];
        assert_eq!(v1["version"], "v1");
        assert_eq!(v1["freshness"], "Current");
        let pods = v1["resources"]
            .as_array()
            .and_then(|r| r.iter().find(|r| r["resource"] == "pods"))
            .expect("pods");
        assert_eq!(pods["scope"], "Namespaced");
        assert_eq!(pods["singularResource"], "pod");
        assert_eq!(pods["shortNames"], serde_json::json!(["po"]));
        assert_eq!(
            pods["responseKind"],
            serde_json::json!({"group": "", "version": "v1", "kind": "Pod"})
        );
        let groups = aggregated("v2", false, &["apps", "batch"], &["batch".to_string()]);
        let names: Vec<_> = groups
            .items
            .iter()
            .map(|g| g.metadata.name.as_str())
            .collect();
        assert_eq!(names, ["apps", "batch"]);
        assert_eq!(groups.items[1].versions[0].freshness, "Stale");
        assert!(groups.items[1].versions[0].resources.is_empty());
        let scale = groups.items[0].versions[0].resources[0]
            .subresources
            .iter()
            .find(|s| s.subresource == "scale")
            .and_then(|s| s.response_kind.clone());
        assert_eq!(scale.map(|k| k.group), Some("autoscaling".to_string()));
    }
}
