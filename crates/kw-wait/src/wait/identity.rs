//! Object identity for the judge: the objects the user named (`Named`) and the key every
//! watched object is known by (`Key`), in one context or several, each of a `GroupResource`.

use kw_events::events::{Event, ResourceInfo};

/// An object the user named (`kw get pod web`, `-f manifest.yaml`); `None` namespace: any.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Named {
    pub resource: GroupResource,
    pub namespace: Option<String>,
    pub name: String,
    /// The context it is expected in, in a run over several contexts.
    pub context: Option<String>,
    /// `pod/web-1`, for messages.
    pub(super) label: String,
}

impl Named {
    pub fn new(resource: &ResourceInfo, namespace: Option<String>, name: &str) -> Named {
        Named {
            resource: GroupResource::of(resource),
            namespace,
            name: name.to_string(),
            context: None,
            label: format!(
                "{}/{name}",
                kw_events::events::kind_prefix(&resource.kind, &resource.group)
            ),
        }
    }

    /// Whether `key` is this object.
    pub(super) fn is(&self, key: &Key) -> bool {
        key.resource == self.resource
            && key.name == self.name
            && self.context.as_deref().unwrap_or_default() == key.context
            && self
                .namespace
                .as_ref()
                .is_none_or(|ns| *ns == key.namespace)
    }

    /// The same object, expected in `context` (a run over several contexts).
    pub fn in_context(mut self, context: &str) -> Named {
        self.label = format!("{context}/{}", self.label);
        self.context = Some(context.to_string());
        self
    }
}

/// The resource part of an object's identity, as the API names a resource type (Kubernetes'
/// `GroupResource`): kept as its two parts, so that no reader splits them out of a string.
/// Ordered by plural, then group.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct GroupResource {
    pub plural: String,
    /// Empty for the core group.
    pub group: String,
}

impl GroupResource {
    pub fn of(resource: &ResourceInfo) -> GroupResource {
        GroupResource {
            plural: resource.plural.clone(),
            group: resource.group.clone(),
        }
    }
}

/// One object as the judge knows it: its context (empty with one context), resource,
/// namespace (empty when cluster-scoped) and name. What a consumer of the run's events names a
/// workload by, and what the printer is told of the objects a wait passed over or never saw
/// meet its condition (`Closing`).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Key {
    pub context: String,
    pub resource: GroupResource,
    pub namespace: String,
    pub name: String,
}

impl Key {
    /// The object as a wait's lines name it: `pod/web`, or `CONTEXT/pod/web` in a run over
    /// several contexts.
    pub(super) fn label(event: &Event<'_>) -> String {
        let prefix = kw_events::events::kind_prefix(&event.resource.kind, &event.resource.group);
        match event.context {
            Some(context) => format!("{context}/{prefix}/{}", event.name),
            None => format!("{prefix}/{}", event.name),
        }
    }

    /// The object an event is about.
    pub fn of(event: &Event<'_>) -> Key {
        Key {
            context: event.context.unwrap_or_default().to_string(),
            resource: GroupResource::of(event.resource),
            namespace: event.namespace.to_string(),
            name: event.name.to_string(),
        }
    }
}
