//! Object identity for the judge: the objects the user named (`Named`) and the key every
//! watched object is known by (`Key`), in one context or several.

use crate::events::{Event, ResourceInfo};

/// An object the user named (`kw get pod web`, `-f manifest.yaml`); `None` namespace: any.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Named {
    pub resource: String,
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
            resource: resource_key(resource),
            namespace,
            name: name.to_string(),
            context: None,
            label: format!(
                "{}/{name}",
                crate::events::kind_prefix(&resource.kind, &resource.group)
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

/// `plural.group`, the resource part of an object's identity.
fn resource_key(resource: &ResourceInfo) -> String {
    format!("{}.{}", resource.plural, resource.group)
}

/// One object as the judge knows it: its context (empty with one context), `plural.group`,
/// namespace and name. What a consumer of the run's events names a workload by.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Key {
    pub(super) context: String,
    pub(super) resource: String,
    pub(super) namespace: String,
    pub(super) name: String,
}

impl Key {
    /// The object an event is about.
    pub fn of(event: &Event<'_>) -> Key {
        Key {
            context: event.context.unwrap_or_default().to_string(),
            resource: resource_key(event.resource),
            namespace: event.namespace.to_string(),
            name: event.name.to_string(),
        }
    }

    #[cfg(test)]
    pub(super) fn new(context: &str, resource: &ResourceInfo, namespace: &str, name: &str) -> Key {
        Key {
            context: context.to_string(),
            resource: resource_key(resource),
            namespace: namespace.to_string(),
            name: name.to_string(),
        }
    }
}
