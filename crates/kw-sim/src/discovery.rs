//! Legacy (non-aggregated) discovery documents: `/version`, `/api`, `/api/v1`, `/apis`,
//! `/apis/GROUP/VERSION`. kubectl asks for aggregated discovery first; plain `application/json`
//! answers make it fall back to these, as with an older server.

use serde_json::Value;

use super::catalog::{self, GROUPS, RESOURCES};
use kw_wire::{
    ApiGroup, ApiGroupList, ApiResource, ApiResourceList, ApiVersions, GroupVersionForDiscovery,
    ServerAddressByClientCidr, VersionInfo,
};

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
            // Subresources carry the parent's kind, except a few special ones on real servers
            // (scale → autoscaling/v1 Scale, eviction → policy/v1 Eviction); those matter to
            // nothing kw does, so keep the parent's kind but the real group/version where known.
            let (kind, sub_group, sub_version) = match *sub {
                "scale" => ("Scale", Some("autoscaling"), Some("v1")),
                "eviction" => ("Eviction", Some("policy"), Some("v1")),
                "binding" => ("Binding", None, None),
                "attach" | "exec" | "portforward" | "proxy" => {
                    (subresource_options_kind(sub), None, None)
                }
                _ => (info.kind, None, None),
            };
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
}
