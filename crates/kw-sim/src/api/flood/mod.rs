//! Flood mode for benchmarks: pre-serialised pods streamed as fast as the socket takes them.
//! `templates` builds the bytes once at start; `serve` answers the pods LIST and WATCH with them.

pub mod serve;
pub mod templates;

pub use serve::{list, stream, watch};
