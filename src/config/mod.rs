//! Configuration: what the flags and the kubeconfig say about how to reach each cluster, resolved
//! once before any request. `settings` is the face: it reads kubeconfig files (`kubeconfig`,
//! `contexts`), the in-cluster service account (`in_cluster`), credentials (`auth`, `material`,
//! `pem`) and proxies (`proxy`), and hands the client a `connection` in the words of `endpoint`.
//! `environment` reads kw's own environment variables.

pub mod auth;
pub mod connection;
pub mod contexts;
pub mod endpoint;
pub mod environment;
pub mod flags;
pub mod in_cluster;
pub mod kubeconfig;
pub mod material;
pub mod pem;
pub mod proxy;
pub mod settings;
