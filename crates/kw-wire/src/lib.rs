//! Wire types: the JSON shapes the Kubernetes API speaks, shared by the client side and `kw sim`.
//!
//! This is the only module both halves use. It holds data shapes and protocol constants, never
//! logic, so that a bug in the client cannot be hidden by the same bug in the simulator.

use serde::{Deserialize, Serialize};

/// The `Accept` header kubectl sends for server-side printing, on LIST and WATCH alike.
pub const TABLE_ACCEPT: &str = "application/json;as=Table;v=v1;g=meta.k8s.io,application/json;as=Table;v=v1beta1;g=meta.k8s.io,application/json";

/// The annotation on the BOOKMARK that ends the initial events of a streaming list.
pub const INITIAL_EVENTS_END: &str = "k8s.io/initial-events-end";

/// The `type` of a watch event.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum EventType {
    Added,
    Modified,
    Deleted,
    Bookmark,
    Error,
}

impl EventType {
    pub fn as_str(self) -> &'static str {
        match self {
            EventType::Added => "ADDED",
            EventType::Modified => "MODIFIED",
            EventType::Deleted => "DELETED",
            EventType::Bookmark => "BOOKMARK",
            EventType::Error => "ERROR",
        }
    }

    pub fn parse(s: &str) -> Option<EventType> {
        Some(match s {
            "ADDED" => EventType::Added,
            "MODIFIED" => EventType::Modified,
            "DELETED" => EventType::Deleted,
            "BOOKMARK" => EventType::Bookmark,
            "ERROR" => EventType::Error,
            _ => return None,
        })
    }
}

/// `meta.k8s.io/v1` `Status`: the body of every error response and of watch `ERROR` events.
#[derive(Debug, Clone, Default, Serialize, Deserialize, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct Status {
    #[serde(default)]
    pub kind: String,
    #[serde(default)]
    pub api_version: String,
    #[serde(default)]
    pub metadata: serde_json::Map<String, serde_json::Value>,
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub status: String,
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub message: String,
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub reason: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub details: Option<StatusDetails>,
    #[serde(default)]
    pub code: u16,
}

#[derive(Debug, Clone, Default, Serialize, Deserialize, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct StatusDetails {
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub name: String,
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub group: String,
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub kind: String,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub causes: Vec<StatusCause>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub retry_after_seconds: Option<u64>,
}

#[derive(Debug, Clone, Default, Serialize, Deserialize, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct StatusCause {
    #[serde(default, rename = "reason", skip_serializing_if = "String::is_empty")]
    pub cause_type: String,
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub message: String,
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub field: String,
}

impl Status {
    /// A `Failure` status as the API server writes it.
    pub fn failure(code: u16, reason: &str, message: impl Into<String>) -> Status {
        Status {
            kind: "Status".into(),
            api_version: "v1".into(),
            metadata: serde_json::Map::new(),
            status: "Failure".into(),
            message: message.into(),
            reason: reason.into(),
            details: None,
            code,
        }
    }

    /// 410 in either spelling servers have used (`Gone` up to 1.17, `Expired` after).
    pub fn is_expired(&self) -> bool {
        self.code == 410 || self.reason == "Expired" || self.reason == "Gone"
    }
}

/// One column of a `meta.k8s.io/v1` `Table`.
#[derive(Debug, Clone, Default, Serialize, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "camelCase")]
pub struct TableColumnDefinition {
    pub name: String,
    #[serde(rename = "type")]
    pub column_type: String,
    #[serde(default)]
    pub format: String,
    #[serde(default)]
    pub description: String,
    #[serde(default)]
    pub priority: i32,
}

/// `GET /version`.
#[derive(Debug, Clone, Default, Serialize, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "camelCase")]
pub struct VersionInfo {
    pub major: String,
    pub minor: String,
    pub git_version: String,
    pub git_commit: String,
    pub git_tree_state: String,
    pub build_date: String,
    pub go_version: String,
    pub compiler: String,
    pub platform: String,
}

/// `GET /api`: the legacy core group's versions.
#[derive(Debug, Clone, Default, Serialize, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "camelCase")]
pub struct ApiVersions {
    pub kind: String,
    pub versions: Vec<String>,
    #[serde(default, rename = "serverAddressByClientCIDRs")]
    pub server_address_by_client_cidrs: Vec<ServerAddressByClientCidr>,
}

#[derive(Debug, Clone, Default, Serialize, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "camelCase")]
pub struct ServerAddressByClientCidr {
    #[serde(rename = "clientCIDR")]
    pub client_cidr: String,
    pub server_address: String,
}

/// `GET /apis`.
#[derive(Debug, Clone, Default, Serialize, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "camelCase")]
pub struct ApiGroupList {
    pub kind: String,
    pub api_version: String,
    pub groups: Vec<ApiGroup>,
}

#[derive(Debug, Clone, Default, Serialize, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "camelCase")]
pub struct ApiGroup {
    pub name: String,
    pub versions: Vec<GroupVersionForDiscovery>,
    #[serde(default)]
    pub preferred_version: GroupVersionForDiscovery,
}

#[derive(Debug, Clone, Default, Serialize, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "camelCase")]
pub struct GroupVersionForDiscovery {
    pub group_version: String,
    pub version: String,
}

/// `GET /api/v1`, `GET /apis/GROUP/VERSION`.
#[derive(Debug, Clone, Default, Serialize, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "camelCase")]
pub struct ApiResourceList {
    pub kind: String,
    #[serde(default)]
    pub api_version: String,
    pub group_version: String,
    pub resources: Vec<ApiResource>,
}

#[derive(Debug, Clone, Default, Serialize, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "camelCase")]
pub struct ApiResource {
    /// The plural name, or `plural/subresource` for subresources.
    pub name: String,
    #[serde(default)]
    pub singular_name: String,
    pub namespaced: bool,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub group: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub version: Option<String>,
    pub kind: String,
    #[serde(default)]
    pub verbs: Vec<String>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub short_names: Vec<String>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub categories: Vec<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub storage_version_hash: Option<String>,
}

/// The `Accept` header kubectl 1.32 sends to `/api` and `/apis`: aggregated discovery
/// (`apidiscovery.k8s.io` v2, then v2beta1), else the legacy documents.
pub const AGGREGATED_DISCOVERY_ACCEPT: &str = "application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList,application/json;g=apidiscovery.k8s.io;v=v2beta1;as=APIGroupDiscoveryList,application/json";

/// `apidiscovery.k8s.io/v2` (or `v2beta1`, the same shape) `APIGroupDiscoveryList`: every group
/// of `/api` or `/apis` with every version's resources, in one answer. Groups are in priority
/// order, and each group's versions in preference order (the first is preferred).
#[derive(Debug, Clone, Default, Serialize, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "camelCase")]
pub struct ApiGroupDiscoveryList {
    #[serde(default)]
    pub kind: String,
    #[serde(default)]
    pub api_version: String,
    #[serde(default)]
    pub metadata: serde_json::Map<String, serde_json::Value>,
    #[serde(default)]
    pub items: Vec<ApiGroupDiscovery>,
}

#[derive(Debug, Clone, Default, Serialize, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "camelCase")]
pub struct ApiGroupDiscovery {
    /// Only `name` is set; the core group has none (`""`, left out on the wire).
    #[serde(default)]
    pub metadata: DiscoveryMeta,
    #[serde(default)]
    pub versions: Vec<ApiVersionDiscovery>,
}

#[derive(Debug, Clone, Default, Serialize, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "camelCase")]
pub struct DiscoveryMeta {
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub name: String,
    /// Always `null` from kube-apiserver (an empty ObjectMeta's timestamp).
    #[serde(default)]
    pub creation_timestamp: Option<String>,
}

#[derive(Debug, Clone, Default, Serialize, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "camelCase")]
pub struct ApiVersionDiscovery {
    pub version: String,
    #[serde(default)]
    pub resources: Vec<ApiResourceDiscovery>,
    /// `Current`, or `Stale` when the API server behind the version (an aggregated API) could
    /// not be asked: its resources are then not to be trusted.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub freshness: String,
}

/// `freshness` of a version whose aggregated API server is down.
pub const FRESHNESS_STALE: &str = "Stale";

#[derive(Debug, Clone, Default, Serialize, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "camelCase")]
pub struct ApiResourceDiscovery {
    /// The plural name.
    pub resource: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub response_kind: Option<GroupVersionKind>,
    /// `Namespaced` or `Cluster`.
    pub scope: String,
    #[serde(default)]
    pub singular_resource: String,
    #[serde(default)]
    pub verbs: Vec<String>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub short_names: Vec<String>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub categories: Vec<String>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub subresources: Vec<ApiSubresourceDiscovery>,
}

/// `scope` of a namespaced resource.
pub const SCOPE_NAMESPACED: &str = "Namespaced";
/// `scope` of a cluster-wide resource.
pub const SCOPE_CLUSTER: &str = "Cluster";

#[derive(Debug, Clone, Default, Serialize, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "camelCase")]
pub struct ApiSubresourceDiscovery {
    pub subresource: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub response_kind: Option<GroupVersionKind>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub accepted_types: Vec<GroupVersionKind>,
    #[serde(default)]
    pub verbs: Vec<String>,
}

/// `meta.k8s.io/v1` `GroupVersionKind` (every field written, empty or not).
#[derive(Debug, Clone, Default, Serialize, Deserialize, PartialEq, Eq)]
pub struct GroupVersionKind {
    #[serde(default)]
    pub group: String,
    #[serde(default)]
    pub version: String,
    #[serde(default)]
    pub kind: String,
}
