//! Decoding what the server sends: framing a watch body into JSON values, and reading only the
//! fields kw needs (event type, identity, resourceVersion, table cells) while borrowing the rest
//! from the buffer untouched. Hostile input gives errors with byte offsets, never a panic, and a
//! value larger than the configured limit is refused before it exhausts memory.

pub mod depth;
mod event;
mod fields;
mod framer;
mod head;
mod list;
pub mod scan;
mod table;
mod value;

pub use event::{table_event, wire_event, WireEvent};
pub use framer::{DecodeError, Framer};
pub use head::{object_head, object_head_by_serde, MetaHead, ObjectHead};
pub use list::{ListBody, ListMeta};
pub use table::{RowBody, TableBody};
pub use value::value;
