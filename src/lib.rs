//! kw: a kubectl-style watcher for Kubernetes.
//!
//! Data flows one way, and the crates are its stages, each knowing only the ones below it:
//! flags + kubeconfig → settings and the client (`kw-client`) → the watcher (`kw-watcher`) →
//! events (`kw-events`) → the judge (`kw-wait`) → the printer (`kw-output`) → stdout, over the
//! Go engines (`kw-go`) and the plumbing (`kw-base`). This crate is the command: `cli` reads
//! the flags, `plan` decides what to do without any I/O, `run` wires the layers together,
//! `report` words every ending and its exit code, and `main.rs` only dispatches. The simulated
//! API server (`kw-sim`) shares only `kw-wire` with the rest.

pub mod cli;
pub mod completion;
pub mod demo;
pub mod kuberc;
pub mod passthrough;
pub mod plan;
pub mod report;
pub mod run;
pub mod version;

// The layers, under the names the tests, benches and fuzz targets know them by
// (`kw::watcher::Watcher`). kw's own modules name the crates.
pub use kw_base::{
    log, mutex, notices, parking, permits, private_file, process_group, secrets, spelling,
};
pub use kw_client::{client, config, discovery};
pub use kw_events::{decode, events, readiness};
pub use kw_go::{goformat, gotemplate, jsonpath};
pub use kw_output::output;
pub use kw_wait::wait;
pub use kw_watcher::watcher;
/// The wire types, shared with `kw-sim` (their own crate, so that neither side owns them).
pub use kw_wire as wire;
