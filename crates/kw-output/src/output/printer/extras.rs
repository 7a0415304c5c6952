//! kw's own fields in JSON event lines (`-o json|jsonl --output-watch-events`): `"ts"`, when kw
//! received the event (`--timestamps`), and `"diff"`, the RFC 6902 operations that turn the
//! object kw saw last into this one (`--diff`, MODIFIED events only). They come after
//! `"object"` (and kw's `"kw"` marker), so kubectl-shaped readers still find what they expect.

use std::time::SystemTime;

use serde_json::Value;

use kw_events::events::{Event, Origin};
use kw_wire::EventType;

use super::changes::{json_patch, Changes};
use super::timestamp::{format_timestamp, TimestampFormat};
use super::PrintOptions;
use kw_go::goformat::json::{write_compact, write_string};

/// kw's marker on a JSON event line: `,"kw":{"context":"prod","synthetic":true}`, with the
/// members that apply (the context with several contexts, `synthetic` for events kw made up
/// after a re-list), or nothing when none does.
pub fn append_kw_member(out: &mut Vec<u8>, event: &Event<'_>) {
    let synthetic = event.origin == Origin::Relist;
    if event.context.is_none() && !synthetic {
        return;
    }
    out.extend_from_slice(b",\"kw\":{");
    if let Some(context) = event.context {
        out.extend_from_slice(b"\"context\":");
        write_string(out, context);
        if synthetic {
            out.push(b',');
        }
    }
    if synthetic {
        out.extend_from_slice(b"\"synthetic\":true");
    }
    out.push(b'}');
}

/// The same marker as a value, for the YAML envelope.
pub fn kw_member(event: &Event<'_>) -> Option<Value> {
    let mut member = serde_json::Map::new();
    if let Some(context) = event.context {
        member.insert("context".into(), Value::String(context.into()));
    }
    if event.origin == Origin::Relist {
        member.insert("synthetic".into(), Value::Bool(true));
    }
    (!member.is_empty()).then_some(Value::Object(member))
}

pub struct EventExtras {
    timestamps: Option<TimestampFormat>,
    started: SystemTime,
    changes: Option<Changes>,
}

impl EventExtras {
    pub fn new(options: &PrintOptions) -> EventExtras {
        EventExtras {
            timestamps: options.timestamps,
            started: options.started.unwrap_or_else(SystemTime::now),
            changes: options.diff.map(|_| Changes::default()),
        }
    }

    /// Whether `append` needs the decoded object (for `--diff`).
    pub fn needs_object(&self) -> bool {
        self.changes.is_some()
    }

    /// Append `,"ts":..` and `,"diff":[..]` as asked for. `object` is the event's object, which
    /// the caller decodes (once, for everything it prints) when `needs_object` says so.
    pub fn append(&mut self, out: &mut Vec<u8>, event: &Event<'_>, object: Option<&Value>) {
        if let Some(format) = self.timestamps {
            out.extend_from_slice(b",\"ts\":");
            write_string(
                out,
                &format_timestamp(format, SystemTime::now(), self.started),
            );
        }
        let Some(changes) = self.changes.as_mut() else {
            return;
        };
        let object = object.unwrap_or(&Value::Null);
        let found = changes.record(
            event.kind,
            event.context,
            event.namespace,
            event.name,
            object,
        );
        if event.kind == EventType::Modified {
            out.extend_from_slice(b",\"diff\":");
            write_compact(out, &json_patch(&found));
        }
    }
}
