//! The client: the one place that talks to the API server. HTTP/1.1 over TLS (ureq + rustls),
//! through a proxy if configured, with the credential `auth` hands out for each request
//! (renewed once and retried after a 401, so callers never see a 401 a refresh would fix),
//! impersonation headers, and server errors decoded into `Status`. It knows nothing about
//! watching or printing: it sends GETs and hands back bodies or body streams.
//!
//! Credentials go only to the configured server: redirects are never followed, and request
//! logs (`-v 8`) show `Authorization: Bearer <redacted>`.

pub mod backoff;
mod clock;
pub mod idle;
pub mod probe;
mod shared;
mod socket;
pub mod tls;
pub mod tls_words;
mod tunnel;

use std::io::Read;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use crate::config::auth::{AuthError, Authenticator, Credential};
use crate::config::connection::{Connection, Impersonation};
use crate::config::endpoint::{ClientIdentity, Scheme, TrustRoots};
use crate::config::proxy::{ProxyError, ProxyScheme};
pub use clock::ServerClock;
use kw_base::vlog;
use kw_wire::Status;
pub use shared::Shared;
use ureq::unversioned::resolver::DefaultResolver;
use ureq::unversioned::transport::{Connector as _, SocksConnector};

type Response = ureq::http::Response<ureq::Body>;

const USER_AGENT: &str = concat!("kw/", env!("CARGO_PKG_VERSION"));

/// The largest LIST page kw reads. Bigger is a broken server.
pub const MAX_BODY_BYTES: u64 = 1 << 30;

/// `--max-object-size`'s default (64 MiB; etcd itself refuses values over 1.5 MiB by default).
pub const DEFAULT_OBJECT_LIMIT: u64 = 64 << 20;
/// The largest error body kw reads to find a `Status` in.
const MAX_ERROR_BODY_BYTES: u64 = 1 << 20;

/// How long an ordinary request may wait between two reads when `--request-timeout` is unset.
const DEFAULT_READ_TIMEOUT: Duration = Duration::from_secs(60);
const CONNECT_TIMEOUT: Duration = Duration::from_secs(30);
/// `-v` level that logs request headers (kubectl's `-v 8`), credentials redacted.
const HEADERS_LEVEL: u8 = 8;

#[derive(Debug, thiserror::Error)]
pub enum ClientError {
    /// Nothing answered: DNS, connection refused, connect timeout.
    #[error("unable to connect to the server {server}: {reason}")]
    Unreachable { server: String, reason: String },
    /// The TLS handshake failed; `reason` says why in words.
    #[error("unable to connect to the server {server}: {reason}")]
    Tls { server: String, reason: String },
    /// kw refused the server's (or the proxy's) certificate: its authority, dates or names.
    /// The trust is read once per run, so every attempt would be refused alike.
    #[error("unable to connect to the server {server}: {reason}")]
    Certificate { server: String, reason: String },
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
    /// A body over its limit: `--max-object-size` for one object or document, kw's cap for a
    /// list page.
    #[error("the server sent more than {limit} bytes for {path} (the limit is {limit_name})")]
    TooLarge {
        path: String,
        limit: u64,
        limit_name: &'static str,
    },
    /// The status line and headers of an answer are more than kw holds: the same request
    /// would get the same head, so this is said once, never retried.
    #[error(
        "the server {server} sent a response head (status line and headers) of more than \
         {limit} bytes, more than kw reads (kubectl reads up to 10 MiB)"
    )]
    HeadTooLarge { server: String, limit: usize },
    /// No usable TLS configuration, proxy or credential: retrying cannot help.
    #[error(transparent)]
    Setup(#[from] SetupError),
    /// The run's deadline (`bound_by`) passed before the server, or the exec plugin, answered.
    #[error("{reason}")]
    DeadlinePassed { reason: String },
    /// A path that no URL can carry (a name with a line break in it): never sent.
    #[error("cannot ask for {path:?}: the path holds a character a URL does not allow")]
    BadPath { path: String },
}

impl ClientError {
    /// Whether the cause can pass on its own: nothing answered, the handshake broke off (a
    /// server or proxy restarting), the connection broke, or the server said it is overloaded
    /// or failing (429, 5xx). Everything else needs someone to act, a certificate kw refuses
    /// among them (kubectl's watch ends on its first `x509:` error too).
    pub fn is_transient(&self) -> bool {
        match self {
            ClientError::Unreachable { .. }
            | ClientError::Tls { .. }
            | ClientError::Broken { .. } => true,
            ClientError::Status { code, .. } => matches!(code, 429 | 500 | 502 | 503 | 504),
            ClientError::TooLarge { .. }
            | ClientError::HeadTooLarge { .. }
            | ClientError::Certificate { .. }
            | ClientError::Setup(_)
            | ClientError::DeadlinePassed { .. }
            | ClientError::BadPath { .. } => false,
        }
    }
}

/// What must be fixed on the user's side before any request can succeed.
#[derive(Debug, thiserror::Error)]
pub enum SetupError {
    #[error(transparent)]
    Tls(#[from] tls::TlsSetupError),
    #[error(transparent)]
    Credentials(#[from] AuthError),
    #[error(transparent)]
    Proxy(#[from] ProxyError),
    /// ureq refused a header value; its own text would quote the header, token and all.
    #[error(
        "a request header holds a character HTTP does not allow (check --as, --as-group and \
         --as-uid, or the kubeconfig's as and as-groups)"
    )]
    BadHeader,
    /// A line of the request's head does not fit the buffer it is written into (ureq says only
    /// "output too small").
    #[error(
        "{what} is too long to send: {bytes} bytes in one line of the request, more than the \
         {limit} bytes kw writes a line into (check the token, --as and --as-group, or the \
         request's path)"
    )]
    HeadLineTooLong {
        /// `the header Impersonate-Group`, `the request line (GET and the path)`.
        what: String,
        bytes: usize,
        limit: usize,
    },
}

impl From<tls::TlsSetupError> for ClientError {
    fn from(error: tls::TlsSetupError) -> Self {
        ClientError::Setup(error.into())
    }
}

impl From<AuthError> for ClientError {
    fn from(error: AuthError) -> Self {
        ClientError::Setup(error.into())
    }
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
    /// The settings the TLS configuration is built from (again when an exec plugin returns a
    /// new client certificate).
    connection: Connection,
    auth: Authenticator,
    transport: Mutex<Transport>,
    proxy: Option<ureq::Proxy>,
    /// The proxy as messages name it (credentials redacted).
    proxy_display: Option<String>,
    /// TLS to an `https://` proxy, and where its roots came from.
    proxy_tls: Option<(Arc<rustls::ClientConfig>, String)>,
    read_timeout: Duration,
    idle_timeout: Duration,
    /// `https://host:port/base` without a trailing slash.
    base_url: String,
    server_display: String,
    roots_origin: String,
    request_timeout: Option<Duration>,
    /// `--max-object-size`, for bodies that hold one object or document.
    object_limit: u64,
    impersonation: Vec<(String, String)>,
    /// The run's deadline (`bound_by`): no request and no exec plugin waits past it.
    deadline: Option<Instant>,
    /// The server's clock, from its responses.
    clock: Arc<ServerClock>,
    /// What this client shares with the others of the run (TLS configurations).
    shared: Arc<Shared>,
}

/// A streamed body, and what its connection buffers (`None` when that cannot be seen whole).
pub struct Stream {
    pub reader: Box<dyn Read + Send + Sync>,
    pub probe: Option<Arc<probe::Probe>>,
}

/// The HTTP agent for one client identity. Rebuilt when the identity changes, which also drops
/// pooled connections made with the old certificate. One agent for lists and watches alike (a
/// watch sets its own read timeout), so that the watch takes the connection its list and the
/// discovery before it left in the pool: one connection per cluster, not one idle beside it.
struct Transport {
    identity: Option<Arc<ClientIdentity>>,
    agent: ureq::Agent,
}

impl Client {
    /// A client for one server. `idle_timeout` is how long a watch may stay silent before kw
    /// treats the connection as dead. No request is made and no plugin run here.
    pub fn new(conn: &Connection, idle_timeout: Duration) -> Result<Client, ClientError> {
        Client::sharing(conn, idle_timeout, &Arc::default())
    }

    /// `new`, sharing with the other clients of a run what `shared` holds.
    pub fn sharing(
        conn: &Connection,
        idle_timeout: Duration,
        shared: &Arc<Shared>,
    ) -> Result<Client, ClientError> {
        let proxy = match &conn.proxy {
            Some(proxy) => Some(proxy.to_ureq().map_err(SetupError::from)?),
            None => None,
        };
        let read_timeout = conn.request_timeout.unwrap_or(DEFAULT_READ_TIMEOUT);
        let proxy_tls = match &conn.proxy {
            Some(proxy) if proxy.scheme == ProxyScheme::Https => {
                Some(tls::proxy_config(&conn.roots)?)
            }
            _ => None,
        };
        let proxy_display = conn.proxy.as_ref().map(|proxy| proxy.to_string());
        let transport = build_transport(
            &shared.tls,
            conn,
            None,
            &proxy,
            proxy_tls.as_ref().map(|(config, _)| config),
            read_timeout,
        )?;
        let roots_origin = match &conn.roots {
            TrustRoots::Platform => "the system's root certificates".to_string(),
            TrustRoots::Bundle { origin, .. } => origin.clone(),
        };
        let server_display = conn.server.to_string();
        Ok(Client {
            connection: conn.clone(),
            auth: Authenticator::new(conn.credentials.source())
                .plugins_limited_by(Arc::clone(&shared.plugins)),
            transport: Mutex::new(transport),
            proxy,
            proxy_display,
            proxy_tls,
            read_timeout,
            idle_timeout,
            base_url: server_display.clone(),
            server_display,
            roots_origin,
            request_timeout: conn.request_timeout,
            impersonation: impersonation_headers(&conn.impersonate),
            object_limit: DEFAULT_OBJECT_LIMIT,
            deadline: None,
            clock: Arc::default(),
            shared: Arc::clone(shared),
        })
    }

    /// End every request, exec plugin run included, by `deadline` (`--timeout`; a watch's
    /// `--request-timeout`) at the latest. The read timeout bounds each read only, so without a
    /// limit on the whole request a server that answers slowly enough would hold kw past it.
    pub fn bound_by(&mut self, deadline: Option<Instant>) {
        self.deadline = deadline;
    }

    /// How long the next request (or exec plugin run) may take: `timeout`, and no longer than
    /// `deadline` (the run's, or the summary's) leaves. Past it, nothing more is sent.
    fn time_limit_by(
        &self,
        deadline: Option<Instant>,
        timeout: Option<Duration>,
    ) -> Result<Option<Duration>, ClientError> {
        let Some(deadline) = deadline else {
            return Ok(timeout);
        };
        match deadline.checked_duration_since(Instant::now()) {
            Some(left) if !left.is_zero() => Ok(Some(timeout.map_or(left, |t| t.min(left)))),
            _ => Err(ClientError::DeadlinePassed {
                reason: format!(
                    "the deadline (--timeout) passed before a request could be sent to {}",
                    self.server_display
                ),
            }),
        }
    }

    /// `error`, or `DeadlinePassed` saying why when the deadline is what cut it short.
    fn unless_past_deadline(&self, error: ClientError) -> ClientError {
        self.unless_past(self.deadline, error)
    }

    /// `unless_past_deadline`, by `deadline` instead of the run's.
    fn unless_past(&self, deadline: Option<Instant>, error: ClientError) -> ClientError {
        let past = deadline.is_some_and(|d| Instant::now() >= d);
        match error {
            ClientError::Unreachable { .. } | ClientError::Broken { .. } if past => {
                ClientError::DeadlinePassed {
                    reason: format!(
                        "no answer from {} before the deadline (--timeout)",
                        self.server_display
                    ),
                }
            }
            ClientError::Setup(SetupError::Credentials(error)) if past => {
                ClientError::DeadlinePassed {
                    reason: error.to_string(),
                }
            }
            error => error,
        }
    }

    /// The server, as `https://host:port`, for messages.
    /// The server's clock, as its responses tell it (shared: it follows later responses).
    pub fn clock(&self) -> Arc<ServerClock> {
        Arc::clone(&self.clock)
    }

    pub fn server(&self) -> &str {
        &self.server_display
    }

    /// `--max-object-size`: the most one object, or one discovery document, may take.
    pub fn limit_objects(&mut self, limit: usize) {
        self.object_limit = limit as u64;
    }

    /// GET one object or document (a named object, discovery, `/version`), at most
    /// `--max-object-size` bytes.
    pub fn get(&self, path_and_query: &str, accept: &str) -> Result<Vec<u8>, ClientError> {
        self.get_at_most(
            path_and_query,
            accept,
            self.object_limit,
            "--max-object-size",
        )
    }

    /// GET a body of at most `--max-object-size` bytes and hand it to `each` piece by piece as
    /// it arrives, so that the caller keeps only what it needs (a log's last lines). The whole
    /// request ends by `until`, which may fall after the run's deadline: the summary of a wait
    /// that timed out reads its logs in a reserve of its own (`wait::summary::budget`).
    pub fn read_by(
        &self,
        path_and_query: &str,
        accept: &str,
        until: Instant,
        each: &mut dyn FnMut(&[u8]),
    ) -> Result<(), ClientError> {
        let until = Some(until);
        let limit = self.object_limit;
        let response = self
            .send_within(false, path_and_query, accept, self.request_timeout, until)
            .map_err(|error| self.unless_past(until, error))?;
        let mut reader = response.into_body().into_reader();
        let mut buffer = vec![0u8; 64 << 10];
        let mut total: u64 = 0;
        loop {
            let read = reader
                .read(&mut buffer)
                .map_err(|e| self.unless_past(until, self.broken(&e)))?;
            if read == 0 {
                return Ok(());
            }
            total += read as u64;
            if total > limit {
                return Err(ClientError::TooLarge {
                    path: path_and_query
                        .split('?')
                        .next()
                        .unwrap_or_default()
                        .to_string(),
                    limit,
                    limit_name: "--max-object-size",
                });
            }
            each(&buffer[..read]);
        }
    }

    /// GET a LIST page: many objects (each checked against `--max-object-size` by its reader),
    /// at most `MAX_BODY_BYTES` in all.
    pub fn get_list(&self, path_and_query: &str, accept: &str) -> Result<Vec<u8>, ClientError> {
        self.get_at_most(
            path_and_query,
            accept,
            MAX_BODY_BYTES,
            "1 GiB per list page; a smaller --chunk-size makes pages smaller",
        )
    }

    fn get_at_most(
        &self,
        path_and_query: &str,
        accept: &str,
        limit: u64,
        limit_name: &'static str,
    ) -> Result<Vec<u8>, ClientError> {
        let response = self.send(false, path_and_query, accept, self.request_timeout)?;
        let mut body = Vec::new();
        response
            .into_body()
            .into_reader()
            .take(limit.saturating_add(1))
            .read_to_end(&mut body)
            .map_err(|e| self.unless_past_deadline(self.broken(&e)))?;
        if body.len() as u64 > limit {
            return Err(ClientError::TooLarge {
                path: path_and_query
                    .split('?')
                    .next()
                    .unwrap_or_default()
                    .to_string(),
                limit,
                limit_name,
            });
        }
        Ok(body)
    }

    /// GET a streamed body (a watch). Reads that wait longer than the idle timeout fail, so a
    /// silent dead connection is noticed.
    /// With a `deadline`, the whole stream ends there (kubectl's `--request-timeout` on a watch,
    /// `--timeout`), and reads still fail after the idle timeout. ureq's whole-request timeout
    /// is used only when the time left is shorter than the idle timeout (each read then waits
    /// at most the time left); before that kw's own reader checks the deadline between reads,
    /// which costs no system call per read. (The watcher asks the server to end streams early
    /// enough for this to be exact.)
    pub fn stream(
        &self,
        path_and_query: &str,
        accept: &str,
        deadline: Option<Instant>,
    ) -> Result<Box<dyn Read + Send + Sync>, ClientError> {
        Ok(self
            .stream_parkable(path_and_query, accept, deadline)?
            .reader)
    }

    /// `stream`, with the probe of its connection when every byte it may buffer can be seen
    /// (`probe`): a plain or TLS connection kw opened itself, no proxy, no compressed body.
    pub fn stream_parkable(
        &self,
        path_and_query: &str,
        accept: &str,
        deadline: Option<Instant>,
    ) -> Result<Stream, ClientError> {
        let left = deadline.map(|d| d.saturating_duration_since(Instant::now()));
        let timeout = left.filter(|left| *left <= self.idle_timeout);
        probe::begin_request();
        let response = self.send(true, path_and_query, accept, timeout)?;
        let used = probe::take_used();
        // ureq decodes gzip with a buffer of its own, which nothing can look into.
        let encoded = response
            .headers()
            .get("Content-Encoding")
            .is_some_and(|value| value.as_bytes() != b"identity");
        let probe = used.filter(|_| !encoded && self.proxy.is_none());
        let reader = response.into_body().into_reader();
        let reader: Box<dyn Read + Send + Sync> = match deadline {
            Some(deadline) if timeout.is_none() => Box::new(UntilDeadline {
                inner: Box::new(reader),
                deadline,
            }),
            _ => Box::new(reader),
        };
        Ok(Stream { reader, probe })
    }

    /// The longest line of a request's head that fits what it is written into: the TLS
    /// layer's buffer, or ureq's own over plain HTTP.
    fn head_line_limit(&self) -> usize {
        match self.connection.server.scheme {
            Scheme::Https => tls::REQUEST_HEAD_OUT,
            Scheme::Http => ureq::config::Config::default().output_buffer_size(),
        }
    }

    /// How long a watch may stay silent before its connection counts as dead.
    pub fn idle_timeout(&self) -> Duration {
        self.idle_timeout
    }

    /// Describe an I/O failure while reading a body.
    pub fn broken(&self, err: &std::io::Error) -> ClientError {
        let silence = err
            .get_ref()
            .and_then(|inner| inner.downcast_ref::<idle::NoWholeEvent>());
        let reason = if let Some(silence) = silence {
            silence.to_string()
        } else if timed_out(err) {
            "no data within the read timeout".to_string()
        } else {
            match err.get_ref().and_then(|e| e.downcast_ref::<ureq::Error>()) {
                // ureq's own errors come wrapped; show them without the wrapping.
                Some(ureq::Error::Io(io)) => io.to_string(),
                _ => err.to_string(),
            }
        };
        ClientError::Broken {
            server: self.server_display.clone(),
            reason,
        }
    }

    /// One request with the current credential, and after a 401 one more with a renewed one.
    /// `timeout` bounds the request; an ordinary request (and any exec plugin run) is bounded
    /// by the deadline too. A watch bounds itself by it (`stream`).
    fn send(
        &self,
        watch: bool,
        path_and_query: &str,
        accept: &str,
        timeout: Option<Duration>,
    ) -> Result<Response, ClientError> {
        self.send_within(watch, path_and_query, accept, timeout, self.deadline)
            .map_err(|error| self.unless_past_deadline(error))
    }

    /// The credential got now (an exec plugin run, within the deadline), as the first request
    /// would get it: a fleet gets its contexts' credentials side by side before their lists are
    /// read in turn, so one slow plugin does not hold up the others'.
    pub fn get_credential(&self) -> Result<(), ClientError> {
        let limit = self.time_limit_by(self.deadline, self.request_timeout)?;
        self.auth.current(limit)?;
        Ok(())
    }

    /// `send`, bounded by `deadline` (the run's, or the summary's own).
    fn send_within(
        &self,
        watch: bool,
        path_and_query: &str,
        accept: &str,
        timeout: Option<Duration>,
        deadline: Option<Instant>,
    ) -> Result<Response, ClientError> {
        let timeout = if watch {
            timeout
        } else {
            self.time_limit_by(deadline, timeout)?
        };
        let plugin_limit = || self.time_limit_by(deadline, self.request_timeout);
        let credential = self.auth.current(plugin_limit()?)?;
        let result = self.send_once(&credential, watch, path_and_query, accept, timeout);
        let unauthorized = matches!(result, Err(ClientError::Status { code: 401, .. }));
        if !unauthorized || !self.auth.can_refresh() {
            return result;
        }
        match self.auth.refresh(&credential, plugin_limit()?)? {
            Some(renewed) => {
                vlog!(
                    kw_base::log::REQUESTS,
                    "401 Unauthorized: retrying once with a renewed credential"
                );
                let timeout = if watch {
                    timeout
                } else {
                    self.time_limit_by(deadline, self.request_timeout)?
                };
                self.send_once(&renewed, watch, path_and_query, accept, timeout)
            }
            // Nothing new to offer: the server's own answer stands.
            None => result,
        }
    }

    /// The agent for this credential's client certificate.
    fn agent_for(&self, credential: &Credential) -> Result<ureq::Agent, ClientError> {
        let mut transport = kw_base::mutex::lock(&self.transport);
        let same = match (&transport.identity, &credential.identity) {
            (None, None) => true,
            (Some(a), Some(b)) => Arc::ptr_eq(a, b),
            _ => false,
        };
        if !same {
            vlog!(
                kw_base::log::REQUESTS,
                "using a new client certificate from the exec plugin"
            );
            *transport = build_transport(
                &self.shared.tls,
                &self.connection,
                credential.identity.clone(),
                &self.proxy,
                self.proxy_tls.as_ref().map(|(config, _)| config),
                self.read_timeout,
            )?;
        }
        Ok(transport.agent.clone())
    }

    fn send_once(
        &self,
        credential: &Credential,
        watch: bool,
        path_and_query: &str,
        accept: &str,
        timeout: Option<Duration>,
    ) -> Result<Response, ClientError> {
        let agent = self.agent_for(credential)?;
        let url = format!("{}{}", self.base_url, path_and_query);
        // Checked here, so that ureq's refusal below can only be a header's.
        if url.parse::<ureq::http::Uri>().is_err() {
            return Err(ClientError::BadPath {
                path: path_and_query.to_string(),
            });
        }
        vlog!(kw_base::log::REQUESTS, "GET {url}");
        let mut request = agent
            .get(&url)
            .header_raw("Accept", accept.as_bytes())
            .header_raw("User-Agent", USER_AGENT.as_bytes());
        if watch || timeout.is_some() {
            let mut config = request.config().timeout_global(timeout);
            if watch {
                // A watch silent this long is dead (the agent's own is an ordinary request's).
                config = config.timeout_per_read(Some(self.idle_timeout));
            }
            request = config.build();
        }
        if let Some(token) = &credential.token {
            // Every source checks its tokens already; this is the last door before the header.
            crate::config::auth::check_token(&token.0, "the bearer token")
                .map_err(SetupError::from)?;
            let value = format!("Bearer {}", token.0);
            request = request.header_raw("Authorization", value.as_bytes());
        }
        // Names go out as written here (ureq would lower-case them), as Go's clients send them.
        for (name, value) in &self.impersonation {
            request = request.header_raw(name, value.as_bytes());
        }
        if kw_base::log::enabled(HEADERS_LEVEL) {
            for (name, value) in request.headers_ref().into_iter().flatten() {
                let value = String::from_utf8_lossy(value.as_bytes());
                let shown = if name == ureq::http::header::AUTHORIZATION {
                    redact_authorization(&value)
                } else {
                    value.into_owned()
                };
                vlog!(HEADERS_LEVEL, "Request Header: {name}: {shown}");
            }
        }
        let longest = longest_head_line(path_and_query, request.headers_ref());
        let started = Instant::now();
        let result = request.call();
        let elapsed = started.elapsed();
        let response = match result {
            Ok(response) => response,
            Err(ureq::Error::Protocol(error)) if is_output_overflow(&error.to_string()) => {
                let (what, bytes) = longest;
                return Err(ClientError::Setup(SetupError::HeadLineTooLong {
                    what,
                    bytes,
                    limit: self.head_line_limit(),
                }));
            }
            Err(error) => return Err(self.transport_error(error)),
        };
        let code = response.status().as_u16();
        vlog!(
            kw_base::log::RESPONSES,
            "GET {url} {code} in {} ms",
            elapsed.as_millis()
        );
        let header = |name: &str| {
            response
                .headers()
                .get(name)
                .and_then(|value| value.to_str().ok())
        };
        if let Some(date) = header("Date") {
            self.clock.heard(date, std::time::SystemTime::now());
        }
        if (300..400).contains(&code) {
            // Never follow: the credentials were meant for this server only.
            let location = header("Location").unwrap_or("(no Location)");
            let message = format!(
                "the server redirected the request to {location}; kw does not follow \
                 redirects, so credentials never go anywhere but the configured server"
            );
            return Err(ClientError::Status {
                code,
                status: Some(Box::new(Status::failure(code, "Redirect", message))),
                retry_after: None,
            });
        }
        if code < 400 {
            return Ok(response);
        }
        let retry_after = header("Retry-After").and_then(crate::client::backoff::server_pause);
        let mut body = Vec::new();
        let _ = response
            .into_body()
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

    /// A request that got no response: what failed, in words. With a proxy, every connection
    /// goes to it first, so a failure to connect is the proxy's and the message names it.
    fn transport_error(&self, error: ureq::Error) -> ClientError {
        use std::io::ErrorKind as Kind;
        use ureq::Timeout;
        let server = self.server_display.clone();
        if let ureq::Error::Io(io) = &error {
            if let Some(tls) = tls_words::find_tls_error(io) {
                let reason = tls_words::describe_tls_error(tls, &self.roots_origin);
                return match tls_words::is_refused_certificate(tls) {
                    true => ClientError::Certificate { server, reason },
                    false => ClientError::Tls { server, reason },
                };
            }
        }
        let proxy = self.proxy_display.as_deref().unwrap_or("(none)");
        if let ureq::Error::Other(inner) = &error {
            if let Some(tls::ProxyHandshakeError(io)) = inner.downcast_ref() {
                let origin = self.proxy_tls.as_ref().map_or("", |(_, origin)| origin);
                let found = tls_words::find_tls_error(io);
                let why = match found {
                    Some(tls) => tls_words::describe_proxy_tls_error(tls, origin),
                    None => io.to_string(),
                };
                let reason = format!("TLS to the proxy {proxy} failed: {why}");
                return match found.is_some_and(tls_words::is_refused_certificate) {
                    true => ClientError::Certificate { server, reason },
                    false => ClientError::Tls { server, reason },
                };
            }
        }
        if let ureq::Error::Other(inner) = &error {
            if let Some(answer) = inner.downcast_ref::<tunnel::ProxyAnswerError>() {
                return ClientError::Unreachable {
                    server,
                    reason: format!(
                        "the proxy {proxy} answered the tunnel request (CONNECT) in a way kw \
                         cannot read: {}",
                        tunnel::describe(answer)
                    ),
                };
            }
        }
        let unreachable = |reason: String| match &self.proxy_display {
            Some(proxy) => ClientError::Unreachable {
                server: server.clone(),
                reason: format!("cannot reach the proxy {proxy}: {reason}"),
            },
            None => ClientError::Unreachable {
                server: server.clone(),
                reason,
            },
        };
        match error {
            // A header name or value HTTP does not allow (checked when the request is sent).
            ureq::Error::Http(_) => ClientError::Setup(SetupError::BadHeader),
            ureq::Error::LargeResponseHeader(_, limit) => {
                ClientError::HeadTooLarge { server, limit }
            }
            ureq::Error::HostNotFound => unreachable("no such host".to_string()),
            ureq::Error::ConnectionFailed => unreachable("the connection failed".to_string()),
            ureq::Error::ConnectProxyFailed(reason) => {
                // ureq says "proxy server responded 407/407"; kw says "answered 407 <reason>".
                let code = reason
                    .strip_prefix("proxy server responded ")
                    .and_then(|status| status.split('/').next())
                    .and_then(|code| code.parse::<u16>().ok());
                let Some(code) = code else {
                    // ureq's "proxy server did not respond": the proxy closed the connection or
                    // went silent before answering.
                    return ClientError::Unreachable {
                        server,
                        reason: format!(
                            "the proxy {proxy} did not answer the tunnel request (CONNECT)"
                        ),
                    };
                };
                let text = ureq::http::StatusCode::from_u16(code)
                    .ok()
                    .and_then(|status| status.canonical_reason())
                    .unwrap_or("");
                let answer = format!("answered {code} {text}").trim_end().to_string();
                let hint = match code {
                    407 => " (check the user and password in the proxy URL)",
                    403 => " (the proxy does not allow this destination)",
                    _ => "",
                };
                ClientError::Unreachable {
                    server,
                    reason: format!("the proxy {proxy} refused the tunnel: it {answer}{hint}"),
                }
            }
            ureq::Error::Timeout(Timeout::Resolve | Timeout::Connect) => {
                unreachable("timed out".to_string())
            }
            ureq::Error::Timeout(_) => ClientError::Broken {
                server,
                reason: "timed out".to_string(),
            },
            ureq::Error::Io(io) => {
                let reason = match io.kind() {
                    Kind::ConnectionRefused => "connection refused".to_string(),
                    Kind::TimedOut | Kind::WouldBlock => "timed out".to_string(),
                    _ => io.to_string(),
                };
                match io.kind() {
                    Kind::ConnectionRefused
                    | Kind::HostUnreachable
                    | Kind::NetworkUnreachable
                    | Kind::AddrNotAvailable
                    | Kind::NotFound => unreachable(reason),
                    _ => ClientError::Broken { server, reason },
                }
            }
            other => ClientError::Broken {
                server,
                reason: other.to_string(),
            },
        }
    }
}

/// A body that fails with `TimedOut` once `deadline` has passed, for a server that keeps
/// streaming past the `timeoutSeconds` it was given.
struct UntilDeadline {
    inner: Box<dyn Read + Send + Sync>,
    deadline: Instant,
}

impl Read for UntilDeadline {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        if Instant::now() >= self.deadline {
            return Err(std::io::Error::new(
                std::io::ErrorKind::TimedOut,
                "the deadline passed",
            ));
        }
        self.inner.read(buf)
    }
}

/// ureq-proto's `OutputOverflow` ("output too small to write output"), as ureq passes it on:
/// its type is not ureq's to name, only its text.
fn is_output_overflow(text: &str) -> bool {
    text.contains("output too small")
}

/// The longest line of a request's head, in words and bytes: the request line (`GET path
/// HTTP/1.1`) or a header (`Name: value`), named without its value (a token).
fn longest_head_line(
    path_and_query: &str,
    headers: Option<&ureq::http::HeaderMap>,
) -> (String, usize) {
    let request_line = (
        "the request line (GET and the path)".to_string(),
        "GET  HTTP/1.1\r\n".len() + path_and_query.len(),
    );
    headers
        .into_iter()
        .flatten()
        .map(|(name, value)| {
            (
                format!("the header {}", header_case(name.as_str())),
                name.as_str().len() + ": \r\n".len() + value.as_bytes().len(),
            )
        })
        .fold(request_line, |longest, line| {
            if line.1 > longest.1 {
                line
            } else {
                longest
            }
        })
}

/// A header's name as Go's clients write it (`impersonate-group` is `Impersonate-Group`).
fn header_case(name: &str) -> String {
    name.split('-')
        .map(|word| {
            let mut chars = word.chars();
            chars.next().map_or(String::new(), |first| {
                first.to_ascii_uppercase().to_string() + chars.as_str()
            })
        })
        .collect::<Vec<_>>()
        .join("-")
}

/// A read that failed for want of data in time: the socket's own timeout, or ureq's.
fn timed_out(err: &std::io::Error) -> bool {
    matches!(
        err.kind(),
        std::io::ErrorKind::TimedOut | std::io::ErrorKind::WouldBlock
    ) || matches!(
        err.get_ref().and_then(|e| e.downcast_ref::<ureq::Error>()),
        Some(ureq::Error::Timeout(_))
    )
}

/// `Authorization: Bearer xyz` as kubectl logs it: the scheme, never the secret.
pub fn redact_authorization(value: &str) -> String {
    match value.split_once(' ') {
        Some((scheme, _)) => format!("{scheme} <redacted>"),
        None => "<redacted>".to_string(),
    }
}

/// The `Impersonate-*` headers, one `Impersonate-Group` per group (ureq appends repeated names).
fn impersonation_headers(impersonate: &Impersonation) -> Vec<(String, String)> {
    let mut headers = Vec::new();
    if let Some(user) = &impersonate.user {
        headers.push(("Impersonate-User".to_string(), user.clone()));
    }
    if let Some(uid) = &impersonate.uid {
        headers.push(("Impersonate-Uid".to_string(), uid.clone()));
    }
    for group in &impersonate.groups {
        headers.push(("Impersonate-Group".to_string(), group.clone()));
    }
    headers
}

fn build_transport(
    configs: &tls::Configs,
    conn: &Connection,
    identity: Option<Arc<ClientIdentity>>,
    proxy: &Option<ureq::Proxy>,
    proxy_tls: Option<&Arc<rustls::ClientConfig>>,
    read_timeout: Duration,
) -> Result<Transport, ClientError> {
    let server_tls = match conn.server.scheme {
        Scheme::Https => Some(configs.client_config(conn, identity.as_deref())?),
        Scheme::Http => None,
    };
    let tls = tls::Connector::new(
        server_tls,
        conn.tls_server_name.as_deref(),
        proxy_tls.cloned(),
    );
    Ok(Transport {
        agent: build_agent(tls, proxy.clone(), read_timeout, conn.server.scheme),
        identity,
    })
}

fn build_agent(
    tls: tls::Connector,
    proxy: Option<ureq::Proxy>,
    read_timeout: Duration,
    scheme: Scheme,
) -> ureq::Agent {
    let mut config = ureq::Agent::config_builder();
    if scheme == Scheme::Https {
        // A head must fit the plaintext buffer above TLS whole; one byte under it, ureq says
        // the head is too large (which kw reports once) instead of "no progress", a broken
        // connection kw would retry for ever.
        config = config
            .input_buffer_size(tls::RECORDS_IN)
            .output_buffer_size(tls::RECORDS_OUT)
            .max_response_header_size(tls::PLAINTEXT_IN - 1);
    }
    let config = config
        // kw reads every status itself (a `Status` body, `Retry-After`, 3xx refused).
        .http_status_as_error(false)
        .max_redirects(0)
        // The environment's proxy rules are applied in `settings` (Go's rules, not ureq's).
        .proxy(proxy)
        .timeout_connect(Some(CONNECT_TIMEOUT))
        .timeout_per_read(Some(read_timeout))
        .timeout_per_write(Some(CONNECT_TIMEOUT))
        // Also what a proxy's CONNECT request carries.
        .user_agent(USER_AGENT)
        .build();
    // SOCKS and CONNECT proxies, then TCP, then kw's own TLS over whichever came up. (ureq
    // opens the connection to a CONNECT proxy through this same chain, so an `https://` proxy
    // gets its TLS here too.)
    let connector =
        ().chain(SocksConnector::default())
            .chain(tunnel::Tunnel::default())
            .chain(socket::Tcp)
            .chain(tls);
    ureq::Agent::with_parts(config, connector, DefaultResolver::default())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_group_is_one_more_impersonate_group_header() {
        let headers = impersonation_headers(&Impersonation {
            user: Some("jane".into()),
            uid: None,
            groups: vec!["a".into(), "b".into(), "c".into()],
        });
        let expected = [
            ("Impersonate-User", "jane"),
            ("Impersonate-Group", "a"),
            ("Impersonate-Group", "b"),
            ("Impersonate-Group", "c"),
        ];
        let got: Vec<(&str, &str)> = headers
            .iter()
            .map(|(n, v)| (n.as_str(), v.as_str()))
            .collect();
        assert_eq!(got, expected);
    }

    #[test]
    fn authorization_is_redacted_to_its_scheme() {
        assert_eq!(redact_authorization("Bearer abc.def"), "Bearer <redacted>");
        assert_eq!(redact_authorization("abc"), "<redacted>");
    }
}
