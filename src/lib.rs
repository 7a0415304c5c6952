//! kw: a kubectl-style watcher for Kubernetes.
//!
//! Data flows one way: flags + kubeconfig → settings → client (HTTP/TLS/auth) → watcher (list,
//! watch, resume, relist) → events → printer → stdout. `run` wires them together for `kw get`,
//! `report` words every ending, and `main.rs` only dispatches. The simulated API server (`sim`)
//! is a separate room that shares only `wire` with the rest.

pub mod cli;
pub mod cli_help;
pub mod client;
pub mod completion;
pub mod config;
pub mod decode;
pub mod demo;
pub mod discovery;
pub mod events;
pub mod goformat;
pub mod gotemplate;
pub mod jsonpath;
pub mod log;
pub mod mutex;
pub mod notices;
pub mod output;
pub mod parking;
pub mod passthrough;
pub mod permits;
pub mod plan;
pub mod private_file;
pub mod readiness;
pub mod report;
pub mod run;
pub mod secrets;
pub mod spelling;
pub mod version;
pub mod wait;
pub mod watcher;
/// The wire types, shared with `kw-sim` (their own crate, so that neither side owns them).
pub use kw_wire as wire;
