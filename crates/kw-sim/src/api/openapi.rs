//! The OpenAPI v3 documents kubectl reads before it writes: `/openapi/v3` lists one document
//! per group-version, and each names, per path, the operations and their query parameters.
//! kubectl's `--validate` (strict by default) looks there for the PATCH operation of the
//! object's kind taking `fieldValidation`; finding it, it leaves validation to the server
//! (`?fieldValidation=Strict`) instead of downloading `/openapi/v2` to check the object itself.
//! Schemas are not served: kubectl then computes apply's strategic merge patches from the types
//! compiled into it, as it does for any server without them.

use serde_json::{json, Map, Value};

use super::reply::Reply;
use super::status::not_found_path;
use crate::world::catalog::{self, ResourceInfo};

/// `rest` is the path after `/openapi/v3` (empty for the root).
pub fn reply(rest: &str, crds: bool) -> Reply {
    let served: Vec<String> = group_versions(crds);
    if rest.is_empty() {
        let paths: Map<String, Value> = served
            .iter()
            .map(|path| {
                let url = format!("/openapi/v3/{path}?hash={}", hash(path));
                (path.clone(), json!({ "serverRelativeURL": url }))
            })
            .collect();
        return Reply::json(200, &json!({ "paths": paths }));
    }
    if !served.iter().any(|path| path == rest) {
        return Reply::status(not_found_path());
    }
    Reply::json(200, &document(rest))
}

/// `api/v1`, `apis/apps/v1`, ... in discovery order.
fn group_versions(crds: bool) -> Vec<String> {
    let mut paths = vec!["api/v1".to_string()];
    for (group, version) in catalog::GROUPS {
        if *group == "example.com" && !crds {
            continue;
        }
        paths.push(format!("apis/{group}/{version}"));
    }
    paths
}

/// A stable tag per document: kubectl caches documents by it.
fn hash(path: &str) -> String {
    let mut value: u64 = 0xcbf2_9ce4_8422_2325;
    for byte in path.bytes().chain(env!("CARGO_PKG_VERSION").bytes()) {
        value = (value ^ u64::from(byte)).wrapping_mul(0x0100_0000_01b3);
    }
    format!("{value:016X}")
}

fn document(path: &str) -> Value {
    let mut paths = Map::new();
    for info in catalog::RESOURCES {
        let prefix = if info.group.is_empty() {
            format!("api/{}", info.version)
        } else {
            format!("apis/{}/{}", info.group, info.version)
        };
        if prefix != path {
            continue;
        }
        let item = if info.namespaced {
            format!(
                "/{prefix}/namespaces/{{namespace}}/{}/{{name}}",
                info.plural
            )
        } else {
            format!("/{prefix}/{}/{{name}}", info.plural)
        };
        paths.insert(item, item_operations(info));
    }
    json!({
        "openapi": "3.0.0",
        "info": {"title": "Kubernetes", "version": "unversioned"},
        "paths": paths,
        "components": {"schemas": {}},
    })
}

fn item_operations(info: &ResourceInfo) -> Value {
    let kind = json!({"group": info.group, "version": info.version, "kind": info.kind});
    let query = |name: &str| json!({"name": name, "in": "query", "schema": {"type": "string"}});
    let operation = |verb: &str, extra: Vec<Value>| {
        let mut parameters = vec![query("dryRun"), query("fieldManager")];
        parameters.extend(extra);
        json!({
            "operationId": format!("{verb}{}", info.kind),
            "x-kubernetes-action": verb,
            "x-kubernetes-group-version-kind": kind,
            "parameters": parameters,
            "responses": {"200": {"description": "OK"}},
        })
    };
    json!({
        "get": operation("get", Vec::new()),
        "put": operation("put", vec![query("fieldValidation")]),
        "patch": operation("patch", vec![query("fieldValidation"), query("force")]),
        "delete": operation("delete", Vec::new()),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_kind_has_a_patch_taking_field_validation() {
        for path in group_versions(true) {
            let document = document(&path);
            for info in catalog::RESOURCES.iter().filter(|info| {
                info.group.is_empty() == path.starts_with("api/")
                    && path.ends_with(&info.api_version())
            }) {
                let patch = document["paths"]
                    .as_object()
                    .unwrap()
                    .values()
                    .map(|item| &item["patch"])
                    .find(|patch| patch["x-kubernetes-group-version-kind"]["kind"] == info.kind)
                    .unwrap_or_else(|| panic!("no PATCH for {}", info.kind));
                assert!(patch["parameters"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .any(|p| p["name"] == "fieldValidation"));
            }
        }
    }

    #[test]
    fn the_root_lists_served_group_versions_only() {
        assert!(group_versions(true).contains(&"apis/example.com/v1".to_string()));
        assert!(!group_versions(false).contains(&"apis/example.com/v1".to_string()));
        assert_eq!(group_versions(false)[0], "api/v1");
    }
}
