//! Output: everything between the events and stdout. `printer` turns events into kubectl's
//! formats, `sinks` adapt them for several types or contexts, `writer` is the one buffered
//! stdout, `live` redraws the current state on a terminal, `terminal` says what kind of place the
//! output goes to, and `escape` shows what a server sent as text, never as terminal controls.

pub mod chain;
pub mod escape;
pub mod live;
pub mod printer;
pub mod signals;
pub mod sinks;
pub mod terminal;
pub mod writer;
