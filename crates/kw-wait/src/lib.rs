//! The judge: kubectl wait's conditions (--for, --until, --fail-on, --max-events) parsed and
//! judged over exactly the events the watcher hands on, with the readiness rules for ready and
//! failed, a stuck child's grace, and the summary of a wait that failed (`wait`), which never
//! talks to the server and knows nothing of formats; and the cause engine beside it (`cause`):
//! the Warning events and stuck or crashed children of what the judge waits on, read from the
//! auxiliary watches it asks for, told to the judge and kept for the summary.

pub mod cause;
pub mod following;
pub mod recovery;
pub mod wait;
