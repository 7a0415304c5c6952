//! The judge: kubectl wait's conditions (--for, --until, --fail-on, --max-events) parsed and
//! judged over exactly the events the watcher hands on, with the readiness rules for ready and
//! failed, a stuck child's grace, and the summary of a wait that failed. It never talks to the
//! server and knows nothing of formats.

pub mod wait;
