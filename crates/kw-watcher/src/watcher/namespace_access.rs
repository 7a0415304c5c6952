//! How to watch several namespaces on this server: one cluster-wide watch filtered by the set
//! when the user may list cluster-wide (one connection, whatever the number of namespaces), one
//! watch per namespace otherwise. A user with rights in only some of the chosen namespaces gets
//! those, and one stderr line names the ones refused.

use crate::watcher::namespaces::NamespaceSet;
use crate::watcher::{Target, WatchError};
use kw_base::notices;
use kw_client::client::{Client, ClientError};

/// `targets` as this server allows them: unchanged where a cluster-wide list is allowed, one
/// target per permitted namespace where it is refused (403).
pub fn allowed_targets(client: &Client, targets: Vec<Target>) -> Result<Vec<Target>, WatchError> {
    let mut allowed = Vec::with_capacity(targets.len());
    for target in targets {
        let Some(set) = target.namespace_set.clone() else {
            allowed.push(target);
            continue;
        };
        match probe(client, &target) {
            Err(e) if e.status_code() == Some(403) => {
                allowed.extend(per_namespace(client, &target, &set, e)?);
            }
            // Anything else (allowed, or failing for another reason) is the watcher's to meet.
            _ => allowed.push(target),
        }
    }
    Ok(allowed)
}

/// One object's worth of the list: enough to learn whether listing is allowed.
fn probe(client: &Client, target: &Target) -> Result<(), ClientError> {
    client
        .get(&target.list_path(1, None), "application/json")
        .map(|_| ())
}

/// One target per namespace of `set` that may be listed. `refused` is the cluster-wide 403,
/// returned when no namespace is allowed either.
fn per_namespace(
    client: &Client,
    target: &Target,
    set: &NamespaceSet,
    refused: ClientError,
) -> Result<Vec<Target>, WatchError> {
    let names = match set.names() {
        Some(names) => names,
        None => namespace_names(client)?
            .into_iter()
            .filter(|name| set.contains(name))
            .collect(),
    };
    let plural = &target.resource.plural;
    let mut targets = Vec::new();
    let mut forbidden = Vec::new();
    for name in names {
        let scoped = Target {
            namespace: Some(name.clone()),
            namespace_set: None,
            ..target.clone()
        };
        match probe(client, &scoped) {
            Err(e) if e.status_code() == Some(403) => forbidden.push(name),
            _ => targets.push(scoped),
        }
    }
    if targets.is_empty() {
        return Err(refused.into());
    }
    if forbidden.is_empty() {
        notices::notice(&format!(
            "listing {plural} in all namespaces is forbidden; watching each of {} on its own",
            set
        ));
    } else {
        notices::notice(&format!(
            "listing {plural} is forbidden in namespace{} {}; showing the others",
            if forbidden.len() == 1 { "" } else { "s" },
            forbidden.join(", ")
        ));
    }
    Ok(targets)
}

/// Every namespace's name (a glob is resolved against them).
pub(crate) fn namespace_names(client: &Client) -> Result<Vec<String>, WatchError> {
    #[derive(serde::Deserialize)]
    struct Item {
        metadata: Meta,
    }
    #[derive(serde::Deserialize)]
    struct Meta {
        name: String,
    }
    #[derive(serde::Deserialize)]
    struct List {
        #[serde(default)]
        items: Vec<Item>,
    }
    const PATH: &str = "/api/v1/namespaces";
    let body = client.get_list(PATH, "application/json")?;
    let list: List = serde_json::from_slice(&body).map_err(|e| WatchError::BadResponse {
        path: PATH.to_string(),
        reason: e.to_string(),
    })?;
    Ok(list.items.into_iter().map(|i| i.metadata.name).collect())
}
