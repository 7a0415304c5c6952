//! The client: the one place that talks to the API server. HTTP/1.1 over TLS (ureq + rustls),
//! bearer-token or client-certificate auth, and server errors decoded into `Status`. It knows
//! nothing about watching or printing: it sends GETs and hands back bodies or body streams.
//!
//! Credentials go only to the configured server: redirects are never followed.

pub mod tls;

use std::io::Read;
use std::sync::Arc;
use std::time::{Duration, Instant};

use crate::settings::{Connection, Scheme, Secret, TrustRoots};
use crate::vlog;
use crate::wire::Status;

/// The largest non-streamed body kw reads (a LIST page, discovery). Bigger is a broken server.
pub const MAX_BODY_BYTES: u64 = 1 << 30;
/// The largest error body kw reads to find a `Status` in.
const MAX_ERROR_BODY_BYTES: u64 = 1 << 20;

/// How long an ordinary request may wait between two reads when `--request-timeout` is unset.
const DEFAULT_READ_TIMEOUT: Duration = Duration::from_secs(60);
const CONNECT_TIMEOUT: Duration = Duration::from_secs(30);

#[derive(Debug, thiserror::Error)]
pub enum ClientError {
    /// Nothing answered: DNS, connection refused, connect timeout.
    #[error("unable to connect to the server {server}: {reason}")]
    Unreachable { server: String, reason: String },
    /// The TLS handshake failed; `reason` says why in words.
    #[error("unable to connect to the server {server}: {reason}")]
    Tls { server: String, reason: String },
    /// The server answered with an error status.
    #[error("{}", status_text(*code, status.as_deref()))]
    Status {
        code: u16,
        status: Option<Box<Status>>,
        /// From a `Retry-After` header (429, 503).
        retry_after: Option<Duration>,
    },
    /// The connection broke or went silent in the middle of a response.
    #[error("the connection to {server} broke: {reason}")]
    Broken { server: String, reason: String },
    #[error("the server sent a response larger than {limit} bytes")]
    TooLarge { limit: u64 },
    /// The TLS settings could not be turned into a configuration.
    #[error(transparent)]
    Setup(#[from] tls::TlsSetupError),
}

fn status_text(code: u16, status: Option<&Status>) -> String {
    match status {
        Some(s) if !s.message.is_empty() => format!("the server answered {code}: {}", s.message),
        _ => format!("the server answered {code}"),
    }
}

impl ClientError {
    /// The HTTP status, if the server answered with one.
    pub fn status_code(&self) -> Option<u16> {
        match self {
            ClientError::Status { code, .. } => Some(*code),
            _ => None,
        }
    }
}

pub struct Client {
    agent: ureq::Agent,
    watch_agent: ureq::Agent,
    /// `https://host:port/base` without a trailing slash.
    base_url: String,
    token: Option<Secret>,
    server_display: String,
    roots_origin: String,
    request_timeout: Option<Duration>,
}

impl Client {
    /// A client for one server. `idle_timeout` is how long a watch may stay silent before kw
    /// treats the connection as dead.
    pub fn new(conn: &Connection, idle_timeout: Duration) -> Result<Client, ClientError> {
        let tls = match conn.server.scheme {
            Scheme::Https => Some(tls::client_config(conn)?),
            Scheme::Http => None,
        };
        let read_timeout = conn.request_timeout.unwrap_or(DEFAULT_READ_TIMEOUT);
        let agent = build_agent(tls.clone(), read_timeout);
        let watch_agent = build_agent(tls, idle_timeout);
        let roots_origin = match &conn.roots {
            TrustRoots::Public => "the public root certificates".to_string(),
            TrustRoots::Bundle { origin, .. } => origin.clone(),
        };
        let server_display = conn.server.to_string();
        Ok(Client {
            agent,
            watch_agent,
            base_url: server_display.clone(),
            token: conn.token.clone(),
            server_display,
            roots_origin,
            request_timeout: conn.request_timeout,
        })
    }

    /// The server, as `https://host:port`, for messages.
    pub fn server(&self) -> &str {
        &self.server_display
    }

    /// GET a whole body (discovery, a LIST page, a single object).
    pub fn get(&self, path_and_query: &str, accept: &str) -> Result<Vec<u8>, ClientError> {
        let response = self.send(&self.agent, path_and_query, accept, self.request_timeout)?;
        let mut body = Vec::new();
        response
            .into_reader()
            .take(MAX_BODY_BYTES + 1)
            .read_to_end(&mut body)
            .map_err(|e| self.broken(&e))?;
        if body.len() as u64 > MAX_BODY_BYTES {
            return Err(ClientError::TooLarge {
                limit: MAX_BODY_BYTES,
            });
        }
        Ok(body)
    }

    /// GET a streamed body (a watch). Reads that wait longer than the idle timeout fail, so a
    /// silent dead connection is noticed.
    /// With a `deadline`, the whole stream ends there (kubectl's `--request-timeout` on a watch).
    pub fn stream(
        &self,
        path_and_query: &str,
        accept: &str,
        deadline: Option<Instant>,
    ) -> Result<Box<dyn Read + Send + Sync>, ClientError> {
        let timeout = deadline.map(|d| d.saturating_duration_since(Instant::now()));
        let response = self.send(&self.watch_agent, path_and_query, accept, timeout)?;
        Ok(response.into_reader())
    }

    /// Describe an I/O failure while reading a body.
    pub fn broken(&self, err: &std::io::Error) -> ClientError {
        let reason = match err.kind() {
            std::io::ErrorKind::TimedOut | std::io::ErrorKind::WouldBlock => {
                "no data within the read timeout".to_string()
            }
            _ => err.to_string(),
        };
        ClientError::Broken {
            server: self.server_display.clone(),
            reason,
        }
    }

    fn send(
        &self,
        agent: &ureq::Agent,
        path_and_query: &str,
        accept: &str,
        timeout: Option<Duration>,
    ) -> Result<ureq::Response, ClientError> {
        let url = format!("{}{}", self.base_url, path_and_query);
        vlog!(crate::log::REQUESTS, "GET {url}");
        let mut request = agent
            .get(&url)
            .set("Accept", accept)
            .set("User-Agent", concat!("kw/", env!("CARGO_PKG_VERSION")));
        if let Some(timeout) = timeout {
            request = request.timeout(timeout);
        }
        if let Some(token) = &self.token {
            request = request.set("Authorization", &format!("Bearer {}", token.0));
        }
        let started = Instant::now();
        let result = request.call();
        let elapsed = started.elapsed();
        match result {
            Ok(response) => {
                vlog!(
                    crate::log::RESPONSES,
                    "GET {url} {} in {} ms",
                    response.status(),
                    elapsed.as_millis()
                );
                if (300..400).contains(&response.status()) {
                    // Never follow: the credentials were meant for this server only.
                    return Err(ClientError::Status {
                        code: response.status(),
                        status: None,
                        retry_after: None,
                    });
                }
                Ok(response)
            }
            Err(ureq::Error::Status(code, response)) => {
                vlog!(
                    crate::log::RESPONSES,
                    "GET {url} {code} in {} ms",
                    elapsed.as_millis()
                );
                let retry_after = response
                    .header("Retry-After")
                    .and_then(|v| v.trim().parse::<u64>().ok())
                    .map(Duration::from_secs);
                let mut body = Vec::new();
                let _ = response
                    .into_reader()
                    .take(MAX_ERROR_BODY_BYTES)
                    .read_to_end(&mut body);
                let status = serde_json::from_slice::<Status>(&body)
                    .ok()
                    .filter(|s| s.kind == "Status")
                    .map(Box::new);
                Err(ClientError::Status {
                    code,
                    status,
                    retry_after,
                })
            }
            Err(ureq::Error::Transport(transport)) => Err(self.transport_error(&transport)),
        }
    }

    fn transport_error(&self, transport: &ureq::Transport) -> ClientError {
        let server = self.server_display.clone();
        if let Some(tls) = tls::find_tls_error(transport) {
            return ClientError::Tls {
                server,
                reason: tls::describe_tls_error(tls, &self.roots_origin),
            };
        }
        let io = io_error_in(transport);
        let reason = match io.map(|e| e.kind()) {
            Some(std::io::ErrorKind::ConnectionRefused) => "connection refused".to_string(),
            Some(std::io::ErrorKind::TimedOut) | Some(std::io::ErrorKind::WouldBlock) => {
                "timed out".to_string()
            }
            _ => match (transport.message(), io) {
                (_, Some(io)) => io.to_string(),
                (Some(message), None) => message.to_string(),
                (None, None) => transport.kind().to_string(),
            },
        };
        match transport.kind() {
            ureq::ErrorKind::Dns | ureq::ErrorKind::ConnectionFailed => {
                ClientError::Unreachable { server, reason }
            }
            _ => ClientError::Broken { server, reason },
        }
    }
}

fn io_error_in<'a>(err: &'a (dyn std::error::Error + 'static)) -> Option<&'a std::io::Error> {
    let mut current: Option<&(dyn std::error::Error + 'static)> = Some(err);
    while let Some(e) = current {
        if let Some(io) = e.downcast_ref::<std::io::Error>() {
            return Some(io);
        }
        current = e.source();
    }
    None
}

fn build_agent(tls: Option<Arc<rustls::ClientConfig>>, read_timeout: Duration) -> ureq::Agent {
    let mut builder = ureq::AgentBuilder::new()
        .redirects(0)
        .timeout_connect(CONNECT_TIMEOUT)
        .timeout_read(read_timeout)
        .timeout_write(CONNECT_TIMEOUT)
        // Proxies are the kubeconfig's business, not the environment's (a later issue).
        .try_proxy_from_env(false);
    if let Some(tls) = tls {
        builder = builder.tls_config(tls);
    }
    builder.build()
}
