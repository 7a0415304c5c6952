//! How to reach and authenticate to one API server: the address, trust, credentials, proxy and
//! identity that `settings` resolves and `client` uses. It sits between them so that the client
//! never reaches up into `settings` (and through it `cli`) for its input type.

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
