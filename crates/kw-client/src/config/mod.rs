//! Configuration: what the flags and the kubeconfig say about how to reach each cluster, resolved
//! once before any request. `settings` is the face: it reads kubeconfig files (`kubeconfig`,
//! `contexts`), the in-cluster service account (`in_cluster`), credentials (`auth`, `material`,
//! `pem`) and proxies (`proxy`), and hands the client a `connection` in the words of `endpoint`.
//! `flags` are its input from the command line (with the user's `plugin_policy`, which
//! exec plugins may run); `environment` reads kw's own environment
//! variables.
//!
//! Public to other crates: what `kw`'s integration tests name (the flags, kubeconfig loading,
//! settings and their errors). Public to this crate: what the client, discovery and the runner
//! take. The rest is this layer's own.

pub mod auth;
pub(crate) mod connection;
pub mod contexts;
pub(crate) mod endpoint;
pub mod environment;
pub mod flags;
mod in_cluster;
pub mod kubeconfig;
pub mod material;
mod pem;
pub mod plugin_policy;
pub(crate) mod proxy;
pub mod settings;
