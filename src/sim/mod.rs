//! `kw sim`: a simulated Kubernetes API server on loopback, for tests, benchmarks, `kw demo` and
//! offline scripts. It speaks real HTTP/1.1 (chunked watches) over real TLS, and shares only
//! `crate::wire` with the client side: none of the client's logic is used here.

pub mod churn;
pub mod objects;
pub mod printers;

use clap::Args;

/// `kw sim` flags.
#[derive(Debug, Args, Clone)]
pub struct SimArgs {
    /// Port to listen on (127.0.0.1); 0 picks a free one.
    #[arg(long, default_value_t = 0)]
    pub port: u16,
}
