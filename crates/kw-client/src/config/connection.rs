//! How to reach and authenticate to one API server: the address, trust, credentials, proxy,
//! identity and request timeout that `settings` resolves from the flags and the kubeconfig, in
//! the shape `Client::new` builds from.

use std::time::Duration;

use crate::config::auth::config::Credentials;
use crate::config::endpoint::{ServerUrl, TrustRoots};
use crate::config::proxy::ProxyUrl;

/// How to reach and authenticate to one API server.
#[derive(Debug, Clone)]
pub struct Connection {
    pub server: ServerUrl,
    pub roots: TrustRoots,
    pub insecure_skip_tls_verify: bool,
    /// Name to verify the server certificate against instead of `server.host`.
    pub tls_server_name: Option<String>,
    /// Bearer token, token file, client certificate, exec plugin: `auth` owns them.
    pub credentials: Credentials,
    /// `--as`/`--as-group`/`--as-uid` or the user's `as`/`as-groups`/`as-uid`.
    pub impersonate: Impersonation,
    /// The proxy to connect through (`proxy-url`, else the environment's), already checked.
    pub proxy: Option<ProxyUrl>,
    /// `--request-timeout`; `None` means no limit.
    pub request_timeout: Option<Duration>,
}

/// Who to act as (`Impersonate-*` headers). Empty when not impersonating.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Impersonation {
    pub user: Option<String>,
    pub uid: Option<String>,
    pub groups: Vec<String>,
}
