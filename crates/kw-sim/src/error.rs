//! Everything that can go wrong starting or driving the simulator ([`SimError`]), and why the
//! `kw sim` flags could not become a configuration ([`SimArgsError`]).

use std::path::PathBuf;

/// Everything that can go wrong starting or driving the simulator.
#[derive(Debug, thiserror::Error)]
pub enum SimError {
    #[error("cannot listen on 127.0.0.1:{port}: {source}")]
    Listen { port: u16, source: std::io::Error },
    #[error("cannot make certificates: {0}")]
    Certs(String),
    #[error("cannot set up TLS: {0}")]
    Tls(String),
    #[error("unknown resource {0:?}")]
    UnknownResource(String),
    #[error("invalid object: {0}")]
    InvalidObject(String),
    #[error("{resource} \"{name}\" already exists")]
    AlreadyExists { resource: String, name: String },
    #[error("{resource} \"{name}\" not found")]
    NotFound { resource: String, name: String },
    /// Other writers changed the object each time a change of it was ready to be stored.
    #[error("{resource} \"{name}\" kept changing under the write")]
    Contended { resource: String, name: String },
    #[error("cannot write {path}: {source}")]
    Write {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error(transparent)]
    Args(#[from] SimArgsError),
    #[error("i/o error: {0}")]
    Io(#[from] std::io::Error),
}

/// Why `SimArgs` could not become a `SimConfig`.
#[derive(Debug, thiserror::Error)]
pub enum SimArgsError {
    #[error("--clock {0:?} is not an RFC 3339 time: {1}")]
    Clock(String, humantime::TimestampError),
    #[error("--bookmark-interval must be a positive number of seconds")]
    BookmarkInterval,
    #[error("--churn must be a positive number")]
    Churn,
    #[error("--rollout: {0}")]
    Rollout(String),
    #[error("--rollout-beat must be a positive number of seconds")]
    RolloutBeat,
}
