//! Reading the objects a controller owns, as every controller here reads them: a leaf.

use serde_json::Value;

use crate::world::store::Store;

pub fn name_of(object: &Value) -> &str {
    object["metadata"]["name"].as_str().unwrap_or("")
}

/// The objects of `resource` in `namespace` whose owner is `owner_uid`.
pub fn owned(store: &Store, resource: &str, namespace: &str, owner_uid: &str) -> Vec<Value> {
    let (_, map) = store.snapshot(resource);
    map.iter()
        .filter(|((ns, _), object)| {
            ns == namespace
                && object["metadata"]["ownerReferences"]
                    .as_array()
                    .is_some_and(|owners| owners.iter().any(|o| o["uid"] == owner_uid))
        })
        .map(|(_, object)| (**object).clone())
        .collect()
}

/// Whether the Pod's `Ready` condition is true.
pub fn is_ready(pod: &Value) -> bool {
    pod["status"]["conditions"]
        .as_array()
        .is_some_and(|conditions| {
            conditions
                .iter()
                .any(|c| c["type"] == "Ready" && c["status"] == "True")
        })
}
