//! What kw has printed, per object: the smallest state that lets a re-list be turned into exactly
//! the events that were missed, and lets a replayed event be recognised as one already printed.
//! Per object: its identity, its last printed resourceVersion and, in table mode, its last row
//! (a synthesised DELETED row needs it). Never the whole object.

use std::collections::HashMap;

use serde_json::Value;

use kw_wire::EventType;

#[derive(Debug, Clone, PartialEq)]
pub struct KnownObject {
    pub name: String,
    pub namespace: String,
    pub uid: String,
    pub resource_version: String,
    /// The last printed row's cells (table mode only; empty otherwise).
    pub cells: Vec<Value>,
    /// The sync pass that last saw this object in a list.
    epoch: u64,
}

/// How a listed object compares with what was printed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Listed {
    New,
    Changed,
    Unchanged,
}

/// Identity and state of an object as the decoder saw it, borrowed.
#[derive(Debug, Clone, Copy)]
pub struct Seen<'a> {
    pub name: &'a str,
    pub namespace: &'a str,
    pub uid: &'a str,
    pub resource_version: &'a str,
    pub cells: Option<&'a [Value]>,
}

impl<'a> Seen<'a> {
    /// uid when the server sent one; otherwise namespace/name, built in `scratch`. Borrowed, so
    /// that looking up a known object (every event of a busy watch) allocates nothing.
    fn key<'k>(&self, scratch: &'k mut String) -> &'k str
    where
        'a: 'k,
    {
        if self.uid.is_empty() {
            scratch.clear();
            scratch.push_str(self.namespace);
            scratch.push('/');
            scratch.push_str(self.name);
            scratch
        } else {
            self.uid
        }
    }
}

#[derive(Debug, Default)]
pub struct Known {
    objects: HashMap<String, KnownObject>,
    epoch: u64,
    keep_cells: bool,
    /// Reused to build namespace/name keys.
    scratch: String,
}

impl Known {
    pub fn new(keep_cells: bool) -> Known {
        Known {
            objects: HashMap::new(),
            epoch: 0,
            keep_cells,
            scratch: String::new(),
        }
    }

    pub fn len(&self) -> usize {
        self.objects.len()
    }

    pub fn is_empty(&self) -> bool {
        self.objects.is_empty()
    }

    /// Whether any object known is in a namespace `shows` accepts.
    pub fn any_in(&self, shows: impl Fn(&str) -> bool) -> bool {
        self.objects.values().any(|known| shows(&known.namespace))
    }

    /// A complete list is about to be read (again): objects it does not contain will be gone.
    pub fn begin_sync(&mut self) {
        self.epoch += 1;
    }

    /// An object of the list in progress.
    pub fn listed(&mut self, seen: &Seen<'_>) -> Listed {
        let epoch = self.epoch;
        let keep_cells = self.keep_cells;
        let key = seen.key(&mut self.scratch);
        match self.objects.get_mut(key) {
            Some(known) => {
                known.epoch = epoch;
                if known.resource_version == seen.resource_version {
                    Listed::Unchanged
                } else {
                    update(known, seen, keep_cells);
                    Listed::Changed
                }
            }
            None => {
                self.objects
                    .insert(key.to_string(), new_known(seen, epoch, keep_cells));
                Listed::New
            }
        }
    }

    /// The list is complete: the objects it did not contain, now forgotten.
    pub fn end_sync(&mut self) -> Vec<KnownObject> {
        let epoch = self.epoch;
        let mut gone: Vec<KnownObject> = Vec::new();
        self.objects.retain(|_, known| {
            if known.epoch == epoch {
                true
            } else {
                gone.push(known.clone());
                false
            }
        });
        gone.sort_by(|a, b| (&a.namespace, &a.name).cmp(&(&b.namespace, &b.name)));
        gone
    }

    /// A watch event. Returns false when it repeats what was already printed (the same object at
    /// the same resourceVersion), so the caller does not print it twice.
    pub fn watched(&mut self, kind: EventType, seen: &Seen<'_>) -> bool {
        let key = seen.key(&mut self.scratch);
        match kind {
            // A deletion of something never printed is passed on: kw cannot tell it is stale.
            EventType::Deleted => self
                .objects
                .remove(key)
                .is_none_or(|known| known.resource_version != seen.resource_version),
            _ => {
                let epoch = self.epoch;
                let keep_cells = self.keep_cells;
                match self.objects.get_mut(key) {
                    Some(known) if known.resource_version == seen.resource_version => false,
                    Some(known) => {
                        update(known, seen, keep_cells);
                        true
                    }
                    None => {
                        self.objects
                            .insert(key.to_string(), new_known(seen, epoch, keep_cells));
                        true
                    }
                }
            }
        }
    }
}

fn new_known(seen: &Seen<'_>, epoch: u64, keep_cells: bool) -> KnownObject {
    KnownObject {
        name: seen.name.to_string(),
        namespace: seen.namespace.to_string(),
        uid: seen.uid.to_string(),
        resource_version: seen.resource_version.to_string(),
        cells: match (keep_cells, seen.cells) {
            (true, Some(cells)) => cells.to_vec(),
            _ => Vec::new(),
        },
        epoch,
    }
}

fn update(known: &mut KnownObject, seen: &Seen<'_>, keep_cells: bool) {
    // Reuse the allocations: this runs once per event on a busy watch.
    known.resource_version.clear();
    known.resource_version.push_str(seen.resource_version);
    if keep_cells {
        if let Some(cells) = seen.cells {
            known.cells.clear();
            known.cells.extend_from_slice(cells);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn seen<'a>(name: &'a str, uid: &'a str, rv: &'a str) -> Seen<'a> {
        Seen {
            name,
            namespace: "ns",
            uid,
            resource_version: rv,
            cells: None,
        }
    }

    #[test]
    fn a_relist_yields_exactly_the_differences() {
        let mut known = Known::new(false);
        known.begin_sync();
        assert_eq!(known.listed(&seen("a", "1", "10")), Listed::New);
        assert_eq!(known.listed(&seen("b", "2", "11")), Listed::New);
        assert_eq!(known.listed(&seen("c", "3", "12")), Listed::New);
        assert!(known.end_sync().is_empty());

        known.begin_sync();
        assert_eq!(known.listed(&seen("a", "1", "10")), Listed::Unchanged);
        assert_eq!(known.listed(&seen("b", "2", "20")), Listed::Changed);
        // c was deleted and re-created under the same name: a new uid.
        assert_eq!(known.listed(&seen("c", "4", "21")), Listed::New);
        assert_eq!(known.listed(&seen("d", "5", "22")), Listed::New);
        let gone = known.end_sync();
        assert_eq!(gone.len(), 1);
        assert_eq!((gone[0].name.as_str(), gone[0].uid.as_str()), ("c", "3"));
        assert_eq!(known.len(), 4);
    }

    #[test]
    fn repeated_watch_events_are_recognised() {
        let mut known = Known::new(false);
        assert!(known.watched(EventType::Added, &seen("a", "1", "10")));
        assert!(!known.watched(EventType::Added, &seen("a", "1", "10")));
        assert!(!known.watched(EventType::Modified, &seen("a", "1", "10")));
        assert!(known.watched(EventType::Modified, &seen("a", "1", "11")));
        assert!(known.watched(EventType::Deleted, &seen("a", "1", "12")));
        assert!(known.is_empty());
        // A deletion of something never printed is still passed on.
        assert!(known.watched(EventType::Deleted, &seen("z", "9", "13")));
    }

    #[test]
    fn objects_without_uid_are_known_by_namespace_and_name() {
        let mut known = Known::new(false);
        assert!(known.watched(EventType::Added, &seen("a", "", "10")));
        assert!(!known.watched(EventType::Modified, &seen("a", "", "10")));
        let other_namespace = Seen {
            namespace: "other",
            ..seen("a", "", "10")
        };
        assert!(known.watched(EventType::Added, &other_namespace));
        assert_eq!(known.len(), 2);
        assert!(known.watched(EventType::Deleted, &seen("a", "", "11")));
        assert_eq!(known.len(), 1);
    }

    #[test]
    fn keeps_cells_only_when_asked() {
        let cells = vec![Value::from("a"), Value::from(1)];
        let with_cells = Seen {
            cells: Some(&cells),
            ..seen("a", "1", "10")
        };
        let mut table = Known::new(true);
        table.begin_sync();
        table.listed(&with_cells);
        let mut json = Known::new(false);
        json.begin_sync();
        json.listed(&with_cells);
        table.begin_sync();
        json.begin_sync();
        assert_eq!(table.end_sync()[0].cells, cells);
        assert!(json.end_sync()[0].cells.is_empty());
    }
}
