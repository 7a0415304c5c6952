//! The event recorder the controllers and the kubelet share: an Event per (object, reason,
//! message), whose count and last time move on a repeat, as client-go's recorder aggregates.

use std::collections::HashMap;
use std::time::SystemTime;

use serde_json::json;

use crate::world::objects::{hex, pod_event, rfc3339, uid, PodEvent};
use crate::world::store::Store;

/// The object an event is about: (apiVersion, kind, namespace, name, uid).
pub struct Involved<'a> {
    pub api_version: &'a str,
    pub kind: &'a str,
    pub namespace: &'a str,
    pub name: &'a str,
    pub uid: &'a str,
}

/// Who says it: the component and, for the kubelet, its node.
pub struct Source<'a> {
    pub component: &'a str,
    pub host: &'a str,
    /// `spec.containers{web}`, or empty for the object as a whole.
    pub field_path: &'a str,
}

#[derive(Default)]
pub struct Recorder {
    /// (count, first time) per event name.
    seen: HashMap<String, (u32, SystemTime)>,
}

impl Recorder {
    #[allow(clippy::too_many_arguments)]
    pub fn record(
        &mut self,
        store: &Store,
        involved: &Involved<'_>,
        source: &Source<'_>,
        event_type: &str,
        reason: &str,
        message: &str,
        now: SystemTime,
    ) {
        let seed = store.seed();
        let key = format!(
            "{}/{}/{}/{}/{reason}/{message}",
            involved.kind, involved.namespace, involved.name, involved.uid
        );
        let name = format!("{}.{}", involved.name, hex(seed, &key, 16));
        let (count, first) = {
            let entry = self.seen.entry(name.clone()).or_insert((0, now));
            entry.0 += 1;
            *entry
        };
        let mut event = pod_event(
            seed,
            &PodEvent {
                namespace: involved.namespace,
                pod: involved.name,
                field_path: source.field_path,
                event_type,
                reason,
                message,
                component: source.component,
                host: source.host,
                count,
                first,
                last: now,
            },
        );
        event["metadata"]["name"] = json!(name);
        event["metadata"]["uid"] = json!(uid(seed, &format!("events/{}", name)));
        event["metadata"]["creationTimestamp"] = json!(rfc3339(first));
        event["involvedObject"]["apiVersion"] = json!(involved.api_version);
        event["involvedObject"]["kind"] = json!(involved.kind);
        event["involvedObject"]["uid"] = json!(involved.uid);
        // A store that lost the event (a test deleted it) gets it back.
        if count == 1 || store.update("events", event.clone()).is_err() {
            let _ = store.create("events", event);
        }
    }

    /// Forget the events of objects that are gone, so the recorder stays as small as the world.
    pub fn forget(&mut self, name_prefix: &str) {
        self.seen
            .retain(|name, _| !name.starts_with(&format!("{name_prefix}.")));
    }
}
