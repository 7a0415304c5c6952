//! kw: a kubectl-style watcher for Kubernetes.
//!
//! Data flows one way: flags + kubeconfig → settings → client (HTTP/TLS/auth) → watcher (list,
//! watch, resume, relist) → events → printer → stdout. `main.rs` wires the stages together; the
//! simulated API server (`sim`) is a separate room that shares only `wire` with the rest.

pub mod auth;
pub mod backoff;
pub mod cli;
pub mod client;
pub mod completion;
pub mod conditions;
pub mod connection;
pub mod contexts;
pub mod decode;
pub mod discovery;
pub mod discovery_cache;
pub mod escape;
pub mod events;
pub mod exit;
pub mod fleet;
pub mod goformat;
pub mod in_cluster;
pub mod jsonpath;
pub mod kubeconfig;
pub mod log;
pub mod manifest;
pub mod material;
pub mod namespace_access;
pub mod namespaces;
pub mod output;
pub mod pem;
pub mod plan;
pub mod printer;
pub mod private_file;
pub mod proxy;
pub mod scan;
pub mod session;
pub mod settings;
pub mod sinks;
pub mod terminal;
pub mod watcher;
/// The wire types, shared with `kw-sim` (their own crate, so that neither side owns them).
pub use kw_wire as wire;
