//! Settings: the kubeconfig and the config flags, resolved once into what the client needs to
//! connect (no network here). kubectl's precedence rules apply: flags beat the kubeconfig,
//! `--context` beats `current-context`, `-n` beats the context's namespace, then `default`.

use std::fmt;
use std::path::PathBuf;
use std::time::Duration;

use rustls_pki_types::{CertificateDer, PrivateKeyDer};

/// A credential: printed as `<redacted>` by `Debug`, so it never leaks into logs.
#[derive(Clone, PartialEq, Eq, serde::Deserialize)]
#[serde(transparent)]
pub struct Secret(pub String);

impl fmt::Debug for Secret {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("<redacted>")
    }
}

/// `http` or `https`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Scheme {
    Http,
    Https,
}

/// The API server's address, split so the client can connect and build paths.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ServerUrl {
    pub scheme: Scheme,
    /// Host name or IP literal, without brackets.
    pub host: String,
    pub port: u16,
    /// A path prefix some servers sit behind (`/k8s/clusters/c-1`), without a trailing `/`;
    /// usually empty.
    pub base_path: String,
}

impl fmt::Display for ServerUrl {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let scheme = match self.scheme {
            Scheme::Http => "http",
            Scheme::Https => "https",
        };
        if self.host.contains(':') {
            write!(
                f,
                "{scheme}://[{}]:{}{}",
                self.host, self.port, self.base_path
            )
        } else {
            write!(
                f,
                "{scheme}://{}:{}{}",
                self.host, self.port, self.base_path
            )
        }
    }
}

/// Where the certificates that verify the server come from.
#[derive(Debug, Clone)]
pub enum TrustRoots {
    /// The well-known public roots.
    Public,
    /// A CA bundle given by the kubeconfig or `--certificate-authority`; it replaces the public
    /// roots, as in kubectl. `origin` names the file or field, for error messages.
    Bundle {
        certs: Vec<CertificateDer<'static>>,
        origin: String,
    },
}

/// A client certificate and its key.
#[derive(Debug)]
pub struct ClientIdentity {
    pub chain: Vec<CertificateDer<'static>>,
    pub key: PrivateKeyDer<'static>,
    /// The file or field they came from, for error messages.
    pub origin: String,
}

impl Clone for ClientIdentity {
    fn clone(&self) -> Self {
        ClientIdentity {
            chain: self.chain.clone(),
            key: self.key.clone_key(),
            origin: self.origin.clone(),
        }
    }
}

/// How to reach and authenticate to one API server.
#[derive(Debug, Clone)]
pub struct Connection {
    pub server: ServerUrl,
    pub roots: TrustRoots,
    pub insecure_skip_tls_verify: bool,
    /// Name to verify the server certificate against instead of `server.host`.
    pub tls_server_name: Option<String>,
    pub token: Option<Secret>,
    /// A file to (re-)read the bearer token from (`tokenFile`).
    pub token_file: Option<PathBuf>,
    pub client_identity: Option<ClientIdentity>,
    /// `--request-timeout`; `None` means no limit.
    pub request_timeout: Option<Duration>,
}

/// Everything resolved from flags and kubeconfig.
#[derive(Debug, Clone)]
pub struct Settings {
    pub connection: Connection,
    /// The namespace to use: `-n`, else the context's, else `default`.
    pub namespace: String,
    /// The context in use, if a kubeconfig was used (for messages).
    pub context: Option<String>,
}
