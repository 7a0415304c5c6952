//! Credentials, from configuration (`config`: the kubeconfig user and the flags, checked before
//! any request) to request time: which bearer token and client certificate the next request
//! carries, and getting fresh ones. A static token never changes; a `tokenFile` (and the
//! in-cluster service-account token) is re-read when the file changes and at least once a
//! minute, because bound tokens rotate; an exec plugin's credential is cached until shortly
//! before its `expirationTimestamp` and the plugin is re-run then, or after a 401.
//!
//! The client asks [`Authenticator::current`] before each request and
//! [`Authenticator::refresh`] once after a 401. Nothing here logs or prints a credential.

pub mod config;
mod error;
pub(super) mod exec;

use std::path::PathBuf;
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, Instant, SystemTime};

use crate::config::endpoint::{ClientIdentity, Secret};
use kw_base::permits::Permits;
use kw_base::vlog;

pub use crate::config::plugin_policy::PluginPolicy;
pub use error::{check_token, AuthError};
pub use exec::{executables_in_path, ExecPlugin};
/// The readers of a plugin's stdout, public for the `exec_credential` fuzz target (fuzz/,
/// issue 33): what a plugin prints is untrusted bytes like any server's.
pub use exec::{parse_output as parse_exec_output, parse_timestamp};

/// How often a token file is re-read even when it looks unchanged (client-go: one minute).
const TOKEN_FILE_MAX_AGE: Duration = Duration::from_secs(60);
/// An exec credential is renewed this long before it expires, so that a request never starts
/// with a token that dies on the way.
const EXPIRY_MARGIN: Duration = Duration::from_secs(10);

/// Where the bearer token / client certificate of each request comes from.
#[derive(Debug, Clone, Default)]
pub enum CredentialSource {
    /// Anonymous, or a client certificate from the kubeconfig only.
    #[default]
    None,
    Token(Secret),
    /// Re-read from a file; `initial` is what `settings` read (so errors show early).
    TokenFile {
        path: PathBuf,
        origin: String,
        initial: Secret,
    },
    Exec(ExecPlugin),
}

/// What one request carries.
#[derive(Debug, Clone, Default)]
pub struct Credential {
    pub token: Option<Secret>,
    /// A client certificate that replaces the kubeconfig's (exec plugins may return one).
    pub identity: Option<Arc<ClientIdentity>>,
}

impl Credential {
    fn same_as(&self, other: &Credential) -> bool {
        self.token == other.token
            && match (&self.identity, &other.identity) {
                (None, None) => true,
                (Some(a), Some(b)) => Arc::ptr_eq(a, b),
                _ => false,
            }
    }
}

/// The credential cache for one client.
pub struct Authenticator {
    source: CredentialSource,
    state: Mutex<State>,
    /// Shared with the other clients of the run: a few plugins run at a time.
    plugins: Option<Arc<Permits>>,
}

#[derive(Default)]
struct State {
    credential: Option<Credential>,
    /// Exec: when the plugin said the credential expires.
    expires: Option<SystemTime>,
    /// Token file: when it was read, and its (modified time, length) then.
    read_at: Option<Instant>,
    file_stamp: Option<(Option<SystemTime>, u64)>,
}

impl Authenticator {
    pub fn new(source: CredentialSource) -> Authenticator {
        let mut state = State::default();
        match &source {
            CredentialSource::Token(token) => {
                kw_base::secrets::register_secret(&token.0);
                state.credential = Some(Credential {
                    token: Some(token.clone()),
                    identity: None,
                })
            }
            CredentialSource::TokenFile { path, initial, .. } => {
                kw_base::secrets::register_secret(&initial.0);
                state.credential = Some(Credential {
                    token: Some(initial.clone()),
                    identity: None,
                });
                state.read_at = Some(Instant::now());
                state.file_stamp = file_stamp(path);
            }
            CredentialSource::None | CredentialSource::Exec(_) => {}
        }
        Authenticator {
            source,
            state: Mutex::new(state),
            plugins: None,
        }
    }

    /// Run the exec plugin only with a permit of `plugins` (shared by the clients of a run).
    pub fn plugins_limited_by(mut self, plugins: Arc<Permits>) -> Authenticator {
        self.plugins = Some(plugins);
        self
    }

    fn lock(&self) -> MutexGuard<'_, State> {
        kw_base::mutex::lock(&self.state)
    }

    /// The credential for the next request, renewed if it is due; an exec plugin run for it
    /// is stopped after `limit`.
    pub fn current(&self, limit: Option<Duration>) -> Result<Credential, AuthError> {
        let mut state = self.lock();
        match &self.source {
            CredentialSource::None => Ok(Credential::default()),
            CredentialSource::Token(_) => Ok(state.credential.clone().unwrap_or_default()),
            CredentialSource::TokenFile { path, origin, .. } => {
                let stale = state
                    .read_at
                    .is_none_or(|at| at.elapsed() >= TOKEN_FILE_MAX_AGE)
                    || file_stamp(path) != state.file_stamp;
                if stale {
                    reread_token_file(&mut state, path, origin);
                }
                Ok(state.credential.clone().unwrap_or_default())
            }
            CredentialSource::Exec(plugin) => {
                let fresh = state.credential.is_some()
                    && state
                        .expires
                        .is_none_or(|expires| SystemTime::now() + EXPIRY_MARGIN < expires);
                if !fresh {
                    if state.credential.is_some() {
                        vlog!(
                            kw_base::log::REQUESTS,
                            "exec credential of {} expires; running the plugin again",
                            plugin.user_label
                        );
                    }
                    let still_valid = state.credential.is_some()
                        && state.expires.is_some_and(|e| SystemTime::now() < e);
                    match run_plugin(&mut state, plugin, limit, self.plugins.as_deref()) {
                        Ok(()) => {}
                        // A hiccup renewing early must not end a long watch while the old
                        // credential still works; the next request tries again.
                        Err(error) if still_valid => kw_base::notices::notice(&format!(
                            "{error}; using the current credential until it expires"
                        )),
                        Err(error) => return Err(error),
                    }
                }
                Ok(state.credential.clone().unwrap_or_default())
            }
        }
    }

    /// Whether a 401 can be cured by asking again (a token file or an exec plugin).
    pub fn can_refresh(&self) -> bool {
        matches!(
            self.source,
            CredentialSource::TokenFile { .. } | CredentialSource::Exec(_)
        )
    }

    /// After a 401 with `used`: get a new credential if the source can give one. `Ok(None)`
    /// means nothing changed, so retrying is pointless.
    pub fn refresh(
        &self,
        used: &Credential,
        limit: Option<Duration>,
    ) -> Result<Option<Credential>, AuthError> {
        let mut state = self.lock();
        // Another request may have renewed it already; then use that one.
        if let Some(current) = &state.credential {
            if !current.same_as(used) {
                return Ok(Some(current.clone()));
            }
        }
        match &self.source {
            CredentialSource::None | CredentialSource::Token(_) => Ok(None),
            CredentialSource::TokenFile { path, origin, .. } => {
                reread_token_file(&mut state, path, origin);
                Ok(state
                    .credential
                    .clone()
                    .filter(|credential| !credential.same_as(used)))
            }
            CredentialSource::Exec(plugin) => {
                vlog!(
                    kw_base::log::REQUESTS,
                    "the server refused the exec credential of {}; running the plugin again",
                    plugin.user_label
                );
                run_plugin(&mut state, plugin, limit, self.plugins.as_deref())?;
                Ok(state.credential.clone())
            }
        }
    }
}

fn file_stamp(path: &std::path::Path) -> Option<(Option<SystemTime>, u64)> {
    std::fs::metadata(path)
        .ok()
        .map(|meta| (meta.modified().ok(), meta.len()))
}

/// Re-reads a token file. A failed read keeps the previous token (as client-go does): a file
/// being replaced is briefly missing or empty, and the old token is usually still valid.
fn reread_token_file(state: &mut State, path: &std::path::Path, origin: &str) {
    state.read_at = Some(Instant::now());
    state.file_stamp = file_stamp(path);
    match std::fs::read(path) {
        Ok(bytes) => {
            let token = String::from_utf8_lossy(&bytes).trim().to_string();
            if token.is_empty() {
                kw_base::notices::notice(&format!("{origin} is empty; keeping the previous token"));
                return;
            }
            if let Err(error) = check_token(&token, origin) {
                kw_base::notices::notice(&format!("{error}; keeping the previous token"));
                return;
            }
            let token = Secret(token);
            let unchanged = state
                .credential
                .as_ref()
                .is_some_and(|c| c.token.as_ref() == Some(&token));
            if !unchanged {
                kw_base::secrets::register_secret(&token.0);
                vlog!(kw_base::log::REQUESTS, "read a new token from {origin}");
                state.credential = Some(Credential {
                    token: Some(token),
                    identity: None,
                });
            }
        }
        Err(error) => kw_base::notices::notice(&format!(
            "cannot read {origin}: {error}; keeping the previous token"
        )),
    }
}

fn run_plugin(
    state: &mut State,
    plugin: &ExecPlugin,
    limit: Option<Duration>,
    plugins: Option<&Permits>,
) -> Result<(), AuthError> {
    let permit = plugins.map(Permits::take);
    let output = exec::run(plugin, limit);
    drop(permit);
    let output = output?;
    if let Some(token) = &output.token {
        kw_base::secrets::register_secret(&token.0);
    }
    let identity = match &output.client_certificate {
        Some((cert, key)) => {
            let origin = format!(
                "the client certificate returned by the exec plugin of {}",
                plugin.user_label
            );
            let identity = crate::config::pem::identity_from_pem(
                cert.as_bytes(),
                key.0.as_bytes(),
                &origin,
                &format!(
                    "the client key returned by the exec plugin of {}",
                    plugin.user_label
                ),
            )
            .map_err(|error| AuthError::Plugin {
                user_label: plugin.user_label.clone(),
                command: plugin.command.clone(),
                what: format!("returned an unusable certificate: {error}"),
            })?;
            Some(Arc::new(identity))
        }
        None => None,
    };
    if let Some(expires) = output.expires {
        if expires <= SystemTime::now() {
            kw_base::notices::notice(&format!(
                "the exec plugin of {} returned a credential that has already expired",
                plugin.user_label
            ));
        }
    }
    state.credential = Some(Credential {
        token: output.token,
        identity,
    });
    state.expires = output.expires;
    Ok(())
}
