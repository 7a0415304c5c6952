//! The vocabulary every layer above the client shares: a watch event as kw hands it on (events),
//! the wire's bytes read once (decode: framing, scanning, depth-limited values) and the readiness
//! rules that judge one object (readiness), as kubectl's status viewers do.

pub mod decode;
pub mod events;
pub mod readiness;
