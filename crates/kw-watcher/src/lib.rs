//! The watcher: list, then watch from the list's resourceVersion; resume from the last one seen
//! after a drop or an expired watch, keep up with BOOKMARKs, and on 410 Gone list again and hand on
//! exactly what changed. One watcher per (context, type); what it sees goes to a Sink as events.
//! `auxiliary`: watches whose events go to a consumer inside kw (the cause engine), not stdout.

pub mod auxiliary;
pub mod watcher;
