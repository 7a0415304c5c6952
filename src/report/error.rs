//! kw's one error type. Every way a command fails is a typed variant holding the failing layer's
//! own error; `report` turns it into its message and exit code, in one place. An error of one
//! context in a run over several is wrapped in `InContext`, so its message names the context
//! and its exit code stays that of the error inside.

use std::io;
use std::sync::Arc;

use crate::plan::manifest::ManifestError;
use crate::plan::PlanError;
use kw_client::client::{ClientError, SetupError};
use kw_client::config::auth::AuthError;
use kw_client::config::contexts::ContextSetError;
use kw_client::config::environment::EnvironmentError;
use kw_client::config::settings::SettingsError;
use kw_client::discovery::DiscoveryError;
use kw_watcher::watcher::WatchError;

use super::exit;

#[derive(Debug, thiserror::Error)]
pub enum KwError {
    #[error(transparent)]
    Usage(#[from] UsageError),
    #[error(transparent)]
    Environment(#[from] EnvironmentError),
    #[error(transparent)]
    Settings(#[from] SettingsError),
    #[error(transparent)]
    Client(#[from] ClientError),
    #[error(transparent)]
    Discovery(#[from] DiscoveryError),
    #[error(transparent)]
    Watch(#[from] WatchError),
    /// The simulator (`kw sim`, `kw demo`) failed. Held as any error, so that this layer does
    /// not name the simulator's crate: only `demo` and `main` start one (tests/it/structure.rs).
    #[error("{0}")]
    Sim(#[source] Box<dyn std::error::Error + Send + Sync>),
    #[error(transparent)]
    Manifest(#[from] ManifestError),
    #[error(transparent)]
    Plan(#[from] PlanError),
    #[error(transparent)]
    Contexts(#[from] ContextSetError),
    /// A kubectl verb kw hands to kubectl, which could not run.
    #[error(transparent)]
    PassThrough(#[from] crate::passthrough::PassError),
    #[error(transparent)]
    Logs(#[from] LogsError),
    /// Writing to stdout failed (other than a closed pipe, which is not an error).
    #[error("writing output: {0}")]
    Output(#[source] io::Error),
    #[error("the server sent a response kw cannot read for {path}: {reason}")]
    BadResponse { path: &'static str, reason: String },
    /// One context of a run over several failed with `error`.
    #[error("context \"{context}\": {error}")]
    InContext {
        context: Arc<str>,
        error: Box<KwError>,
    },
}

/// `kw logs` refused, in kubectl's words.
#[derive(Debug, thiserror::Error)]
pub enum LogsError {
    /// A command line kubectl refuses (its message may run over lines: usage hints).
    #[error("{0}")]
    Usage(String),
    /// The Pod or workload named is not there (kubectl's words for `logs`, not `get`'s).
    #[error("error from server (NotFound): {resource} \"{name}\" not found in namespace \"{namespace}\"")]
    NotFound {
        resource: String,
        name: String,
        namespace: String,
    },
}

/// A command line that cannot run as typed, found outside the flag parser and `plan`.
#[derive(Debug, thiserror::Error)]
pub enum UsageError {
    /// `--server`/`--cluster` with several contexts.
    #[error("{flag} would point every context at one cluster: drop it, or name one context")]
    OneClusterForAll { flag: &'static str },
    /// A credential flag with several contexts: it would go to every context's server.
    #[error("{flag} would send one credential to the server of every context: drop it, or name one context")]
    OneCredentialForAll { flag: &'static str },
    #[error("kw demo watches its own simulated cluster: drop {flag}")]
    DemoOwnCluster { flag: &'static str },
    #[error("invalid --rollout {value:?}: {reason}")]
    DemoRollout { value: String, reason: String },
    #[error("kw demo runs `kw get`")]
    DemoRunsGet,
    /// clap's own message for the words after `kw demo --`, already worded in full.
    #[error("{0}")]
    DemoArguments(String),
    /// kubectl's own line for `version -o name`.
    #[error("--output must be 'yaml' or 'json'")]
    VersionOutput,
    #[error("creating a private directory in {dir}: {error}")]
    PrivateDirectory { dir: String, error: io::Error },
    /// A fleet that needs more file descriptors than kw may open (`run::descriptors`).
    #[error("{contexts} contexts need about {needed} file descriptors (a socket per context and type watched, and {own} of kw's own), but kw may open {soft} (ulimit -n; the hard limit, ulimit -Hn, is {hard}): raise the hard limit to {needed} or more (ulimit -Hn as root, or nofile in /etc/security/limits.conf), or name fewer contexts")]
    TooFewDescriptors {
        contexts: usize,
        needed: u64,
        own: u64,
        soft: u64,
        hard: u64,
    },
}

impl KwError {
    /// Whether the cause can pass on its own (a cluster that is down, a 5xx, a broken
    /// connection): the one rule both retrying and reporting ask.
    pub fn is_transient(&self) -> bool {
        match self {
            KwError::Client(e)
            | KwError::Discovery(DiscoveryError::Client(e))
            | KwError::Watch(WatchError::Client(e)) => e.is_transient(),
            KwError::InContext { error, .. } => error.is_transient(),
            _ => false,
        }
    }

    /// The code kw exits with on this error (`report` words its lines): a flag, a setting or
    /// a type kw cannot use is a usage error, a server's answer or the network says its own.
    pub fn exit_code(&self) -> i32 {
        match self {
            KwError::Usage(_)
            | KwError::Environment(_)
            | KwError::Settings(_)
            | KwError::Sim(_)
            | KwError::Manifest(_)
            | KwError::Plan(_)
            | KwError::Contexts(_)
            | KwError::PassThrough(_)
            | KwError::Logs(_) => exit::USAGE,
            KwError::Client(e) => client_exit_code(e),
            KwError::Discovery(DiscoveryError::Client(e)) => client_exit_code(e),
            KwError::Discovery(DiscoveryError::UnknownType(..)) => exit::USAGE,
            KwError::Discovery(_) => exit::SERVER_ERROR,
            KwError::Watch(WatchError::Client(e)) => client_exit_code(e),
            KwError::Watch(WatchError::TooManyNames(_)) => exit::USAGE,
            // A template (Go or JSONPath) that fails on an object is the template's fault, as
            // kubectl's exit 1 says.
            KwError::Watch(WatchError::Output(e)) if template_failed(e) => exit::USAGE,
            // `--timeout` ran out inside a go-template run: a timeout like any other.
            KwError::Watch(WatchError::Output(e)) if out_of_time(e) => exit::TIMEOUT,
            KwError::Watch(_) | KwError::Output(_) | KwError::BadResponse { .. } => {
                exit::SERVER_ERROR
            }
            KwError::InContext { error, .. } => error.exit_code(),
        }
    }

    /// The simulator's error (see `KwError::Sim`).
    pub fn sim(error: impl std::error::Error + Send + Sync + 'static) -> KwError {
        KwError::Sim(Box::new(error))
    }

    /// The error of one context, labelled with it.
    pub fn in_context(self, context: &Arc<str>) -> KwError {
        KwError::InContext {
            context: Arc::clone(context),
            error: Box::new(self),
        }
    }
}

/// The exit code of a server's answer or a connection's failure: refused credentials or
/// permissions, no server, a deadline, or the server's error.
fn client_exit_code(error: &ClientError) -> i32 {
    match error {
        ClientError::Status {
            code: 401 | 403, ..
        } => exit::AUTH,
        ClientError::Unreachable { .. }
        | ClientError::Tls { .. }
        | ClientError::Certificate { .. } => exit::UNREACHABLE,
        // The user's own kuberc refused the plugin: a configuration matter (kubectl's 1 too).
        ClientError::Setup(SetupError::Credentials(AuthError::Refused { .. })) => exit::USAGE,
        // The exec plugin failed or returned nothing usable: an authentication problem.
        ClientError::Setup(SetupError::Credentials(_)) => exit::AUTH,
        ClientError::Setup(_) => exit::USAGE,
        ClientError::DeadlinePassed { .. } => exit::TIMEOUT,
        _ => exit::SERVER_ERROR,
    }
}

/// Whether `--timeout` ran out while a go-template ran on an object.
pub(super) fn out_of_time(error: &io::Error) -> bool {
    error
        .get_ref()
        .is_some_and(|inner| inner.is::<kw_output::output::printer::GoTemplateOutOfTime>())
}

/// Whether writing an object failed in its template (Go or JSONPath, or `--sort-by`'s), not
/// on stdout.
pub(super) fn template_failed(error: &io::Error) -> bool {
    use kw_output::output::printer::{
        GoTemplateError, SortFieldMissing, TemplateError, Unsortable,
    };
    error.get_ref().is_some_and(|inner| {
        inner.is::<GoTemplateError>()
            || inner.is::<TemplateError>()
            || inner.is::<SortFieldMissing>()
            || inner.is::<Unsortable>()
    })
}
