//! kw: a kubectl-style watcher for Kubernetes.
//!
//! Data flows one way: flags + kubeconfig → settings → client (HTTP/TLS/auth) → watcher (list,
//! watch, resume, relist) → events → printer → stdout. `main.rs` wires the stages together; the
//! simulated API server (`sim`) is a separate room that shares only `wire` with the rest.

pub mod backoff;
pub mod cli;
pub mod client;
pub mod decode;
pub mod discovery;
pub mod events;
pub mod exit;
pub mod jsonpath;
pub mod kubeconfig;
pub mod log;
pub mod output;
pub mod printer;
pub mod settings;
pub mod sim;
pub mod watcher;
pub mod wire;
