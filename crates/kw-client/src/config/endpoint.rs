//! The words a connection is made of: a secret that never prints, the server's address (scheme,
//! host, port, base path), where trust comes from (the platform's roots or a CA bundle), and a
//! client identity (a certificate chain and its key). Configuration chooses them; the client and
//! the discovery cache's key read them.

use std::fmt;

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
    /// The operating system's roots (as kubectl uses them), else the bundled public roots.
    Platform,
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

/// Parses `scheme://host[:port][/path]`. A missing scheme means https: kw never sends
/// credentials in clear text unless `http://` is written out.
pub fn parse_server_url(url: &str) -> Result<ServerUrl, String> {
    let url = url.trim();
    let (scheme, rest) = match url.split_once("://") {
        Some((scheme, rest)) => match scheme.to_ascii_lowercase().as_str() {
            "https" => (Scheme::Https, rest),
            "http" => (Scheme::Http, rest),
            other => {
                return Err(format!(
                    "unsupported scheme \"{other}\" (use https or http)"
                ))
            }
        },
        None => (Scheme::Https, url),
    };
    if rest.contains(['?', '#']) {
        return Err("a query or fragment is not allowed".to_string());
    }
    let (authority, path) = match rest.find('/') {
        Some(index) => rest.split_at(index),
        None => (rest, ""),
    };
    if authority.contains('@') {
        return Err("user info in the URL is not supported".to_string());
    }
    let (host, port) = split_host_port(authority)?;
    let port = match port {
        Some(port) => port,
        None => match scheme {
            Scheme::Https => 443,
            Scheme::Http => 80,
        },
    };
    if path.chars().any(|c| c.is_whitespace() || c.is_control()) {
        return Err("the path contains spaces or control characters".to_string());
    }
    Ok(ServerUrl {
        scheme,
        host,
        port,
        base_path: path.trim_end_matches('/').to_string(),
    })
}

fn split_host_port(authority: &str) -> Result<(String, Option<u16>), String> {
    let (host, port_text) = if let Some(bracketed) = authority.strip_prefix('[') {
        let (host, after) = bracketed
            .split_once(']')
            .ok_or("unclosed '[' in an IPv6 address")?;
        if host.parse::<std::net::Ipv6Addr>().is_err() {
            return Err(format!("\"{host}\" is not an IPv6 address"));
        }
        let port = match after {
            "" => None,
            _ => Some(after.strip_prefix(':').ok_or("expected ':' after ']'")?),
        };
        (host.to_string(), port)
    } else {
        match authority.matches(':').count() {
            0 => (authority.to_string(), None),
            1 => {
                let (host, port) = authority.split_once(':').unwrap_or((authority, ""));
                (host.to_string(), Some(port))
            }
            _ => return Err("an IPv6 address must be in brackets: https://[::1]:6443".to_string()),
        }
    };
    if host.is_empty() {
        return Err("no host".to_string());
    }
    let is_host_char = |c: char| c.is_ascii_alphanumeric() || matches!(c, '-' | '.' | '_' | ':');
    if !host.chars().all(is_host_char) {
        return Err(format!("\"{host}\" is not a host name or IP address"));
    }
    let port = match port_text {
        None => None,
        Some(text) => match text.parse::<u16>() {
            Ok(port) if port != 0 => Some(port),
            _ => return Err(format!("bad port \"{text}\"")),
        },
    };
    Ok((host, port))
}
