//! kw: a kubectl-style watcher for Kubernetes.
//!
//! Data flows one way: flags + kubeconfig → settings → client (HTTP/TLS/auth) → watcher (list,
//! watch, resume, relist) → events → printer → stdout. `run` wires them together for `kw get`,
//! `report` words every ending, and `main.rs` only dispatches. The simulated API server (`sim`)
//! is a separate room that shares only `wire` with the rest.

pub mod auth;
pub mod backoff;
pub mod cli;
pub mod client;
pub mod cluster;
pub mod completion;
pub mod conditions;
pub mod connection;
pub mod contexts;
pub mod decode;
pub mod demo;
pub mod discovery;
pub mod discovery_cache;
pub mod endpoint;
pub mod environment;
pub mod error;
pub mod escape;
pub mod events;
pub mod exit;
pub mod goformat;
pub mod in_cluster;
pub mod jsonpath;
pub mod kubeconfig;
pub mod live;
pub mod log;
pub mod manifest;
pub mod material;
pub mod namespace_access;
pub mod namespaces;
pub mod outcome;
pub mod output;
pub mod pem;
pub mod plan;
pub mod printer;
pub mod private_file;
pub mod proxy;
pub mod readiness;
pub mod report;
pub mod run;
pub mod scan;
pub mod settings;
pub mod sinks;
pub mod spelling;
pub mod summary;
pub mod terminal;
pub mod version;
pub mod watcher;
/// The wire types, shared with `kw-sim` (their own crate, so that neither side owns them).
pub use kw_wire as wire;
