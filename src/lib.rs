//! kw: a kubectl-style watcher for Kubernetes.
//!
//! Data flows one way: flags + kubeconfig → settings → client (HTTP/TLS/auth) → watcher (list,
//! watch, resume, relist) → events → printer → stdout. `run` wires them together for `kw get`,
//! `report` words every ending, and `main.rs` only dispatches. The simulated API server (`sim`)
//! is a separate room that shares only `wire` with the rest.

pub mod cli;
pub mod cli_help;
pub mod completion;
pub mod demo;
pub mod passthrough;
pub mod plan;
pub mod report;
pub mod run;
pub mod version;
pub use kw_base::{log, mutex, notices, parking, permits, private_file, secrets, spelling};
pub use kw_client::{client, config, discovery};
pub use kw_events::{decode, events, readiness};
pub use kw_go::{goformat, gotemplate, jsonpath};
pub use kw_output::output;
pub use kw_wait::wait;
pub use kw_watcher::watcher;
/// The wire types, shared with `kw-sim` (their own crate, so that neither side owns them).
pub use kw_wire as wire;
