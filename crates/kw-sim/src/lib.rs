//! `kw sim`: a simulated Kubernetes API server on loopback, for tests, benchmarks, `kw demo` and
//! offline scripts. It speaks real HTTP/1.1 (chunked watches) over real TLS, and shares only
//! `kw_wire` with the client side: none of the client's logic is used here.
//!
//! This file is the crate's face: its layers, and the names the client and the tests use. In
//! the order a request meets them: `cli` (the flags and `run`), `server` (listener, connections,
//! [`SimHandle`]), `http` (bytes to requests), `api` (one request at a time), `world` (the cluster
//! as data); beside them `config`, `faults` and `error`.

// Handlers return `Result<_, wire::Status>`: the Status *is* the error response, it is built
// once per failed request, and boxing it everywhere would only add noise.
#![allow(clippy::result_large_err)]

mod api;
mod cli;
mod config;
mod error;
mod faults;
mod http;
mod server;
mod world;

pub use api::shared::RequestRecord;
pub use cli::{run, SimArgs, SimCli};
pub use config::{Flood, FloodFraming, SimConfig};
pub use error::{SimArgsError, SimError};
pub use faults::{Faults, FaultsFired};
pub use server::handle::{start, SimHandle};
pub use world::store::Change;
pub use world::{churn, objects, printers, rollout};
