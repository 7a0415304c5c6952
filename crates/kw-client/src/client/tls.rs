//! TLS: build the rustls client configuration from the resolved connection settings (a failed
//! handshake is worded in `tls_words`). Verification is on unless the user asked for
//! `insecure-skip-tls-verify`; `tls-server-name` swaps the name checked and sent as SNI, never
//! the check.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use rustls::client::danger::{HandshakeSignatureValid, ServerCertVerified, ServerCertVerifier};
use rustls::client::WebPkiServerVerifier;
use rustls::pki_types::{CertificateDer, ServerName, UnixTime};
use rustls::{
    ClientConfig, ClientConnection, DigitallySignedStruct, RootCertStore, SignatureScheme,
    StreamOwned,
};
use std::io::{Read, Write};
use ureq::unversioned::transport::{
    Buffers, ConnectionDetails, Either, LazyBuffers, NextTimeout, Transport, TransportAdapter,
};

use super::probe::{Layer, Probe, Tracked};
use crate::config::connection::Connection;
use crate::config::endpoint::{ClientIdentity, TrustRoots};

/// The TLS layer's buffers, each allocated whole on a connection's first request and kept while it
/// lives, so they are what a connection costs (a fleet of a thousand clusters holds a thousand):
/// decrypted bytes in (rustls hands over at most about one 16 KiB record per read, so more room
/// would stay unused), and a request's head out (its longest line, a URL or a token, must fit:
/// 16 KiB is twice what common proxies in front of API servers accept for one header line).
pub const PLAINTEXT_IN: usize = 32 << 10;
pub const REQUEST_HEAD_OUT: usize = 16 << 10;
/// Under TLS the socket's own buffers (ureq's, sized by the agent) only carry records between
/// the socket and rustls: a few records per read in; out, what kw writes is requests and
/// handshakes, a few KiB (a larger record goes out in pieces). (ureq's default, 128 KiB each
/// way, made 256 KiB per connection at this layer and as much again above it.)
pub const RECORDS_IN: usize = 32 << 10;
pub const RECORDS_OUT: usize = 4 << 10;

/// Why a TLS configuration could not be built from the settings.
#[derive(Debug, thiserror::Error)]
pub enum TlsSetupError {
    #[error("the CA certificates in {origin} could not be used: {reason}")]
    BadRoots { origin: String, reason: String },
    #[error("the client certificate in {origin} could not be used: {reason}")]
    BadIdentity { origin: String, reason: String },
    #[error("invalid tls-server-name {0:?}")]
    BadServerName(String),
}

fn provider() -> Arc<rustls::crypto::CryptoProvider> {
    Arc::new(rustls::crypto::ring::default_provider())
}

/// The rustls configuration for one connection's settings. `identity` replaces the
/// connection's client certificate (an exec plugin may return one).
pub fn client_config(
    conn: &Connection,
    identity: Option<&ClientIdentity>,
) -> Result<Arc<ClientConfig>, TlsSetupError> {
    let builder = ClientConfig::builder_with_provider(provider())
        .with_safe_default_protocol_versions()
        .map_err(|e| TlsSetupError::BadRoots {
            origin: "the TLS library".into(),
            reason: e.to_string(),
        })?;

    let verifier: Arc<dyn ServerCertVerifier> = if conn.insecure_skip_tls_verify {
        Arc::new(NoVerification(provider()))
    } else {
        let (roots, origin) = root_store(&conn.roots)?;
        let webpki = WebPkiServerVerifier::builder_with_provider(Arc::new(roots), provider())
            .build()
            .map_err(|e| TlsSetupError::BadRoots {
                origin,
                reason: e.to_string(),
            })?;
        match &conn.tls_server_name {
            Some(name) => {
                let name = ServerName::try_from(name.clone())
                    .map_err(|_| TlsSetupError::BadServerName(name.clone()))?;
                Arc::new(RenamedVerifier {
                    inner: webpki,
                    name,
                })
            }
            None => webpki,
        }
    };

    let builder = builder
        .dangerous()
        .with_custom_certificate_verifier(verifier);
    let config = match identity.or(conn.credentials.client_identity.as_ref()) {
        Some(identity) => builder
            .with_client_auth_cert(identity.chain.clone(), identity.key.clone_key())
            .map_err(|e| TlsSetupError::BadIdentity {
                origin: identity.origin.clone(),
                reason: e.to_string(),
            })?,
        None => builder.with_no_client_auth(),
    };
    Ok(Arc::new(config))
}

/// The TLS configurations of a run's clients, one per distinct trust setting (the CA bundle or
/// the system's roots, insecure or not, `tls-server-name`, the client certificate): a fleet's
/// contexts that trust alike share one, built once (the system's roots read from disk once, not
/// once per context), and with it rustls's cache of sessions, so that a context's connection to
/// a server another context has reached resumes a session instead of a full handshake.
#[derive(Default)]
pub struct Configs {
    built: Mutex<HashMap<TrustKey, Arc<ClientConfig>>>,
}

/// What a configuration is built from, as bytes.
#[derive(PartialEq, Eq, Hash)]
struct TrustKey {
    insecure: bool,
    /// The bundle's certificates; `None`: the system's roots.
    roots: Option<Vec<Vec<u8>>>,
    server_name: Option<String>,
    /// The client certificate's chain and its key.
    identity: Option<(Vec<Vec<u8>>, Vec<u8>)>,
}

impl TrustKey {
    fn of(conn: &Connection) -> TrustKey {
        let ders = |certs: &[CertificateDer]| certs.iter().map(|c| c.to_vec()).collect();
        TrustKey {
            insecure: conn.insecure_skip_tls_verify,
            roots: match &conn.roots {
                TrustRoots::Platform => None,
                TrustRoots::Bundle { certs, .. } => Some(ders(certs)),
            },
            server_name: conn.tls_server_name.clone(),
            identity: conn
                .credentials
                .client_identity
                .as_ref()
                .map(|identity| (ders(&identity.chain), identity.key.secret_der().to_vec())),
        }
    }
}

impl Configs {
    /// `client_config`, built once per trust setting (with `identity`, an exec plugin's client
    /// certificate, built anew). Built under the lock: a fleet's threads all ask at once at
    /// the start, and one build (the system's roots read once) is the point.
    pub fn client_config(
        &self,
        conn: &Connection,
        identity: Option<&ClientIdentity>,
    ) -> Result<Arc<ClientConfig>, TlsSetupError> {
        if identity.is_some() {
            // An exec plugin's certificate, renewed while the run goes on: not kept, or each
            // renewal would add a configuration for the rest of the run.
            return client_config(conn, identity);
        }
        let key = TrustKey::of(conn);
        let mut built = self
            .built
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        if let Some(config) = built.get(&key) {
            return Ok(Arc::clone(config));
        }
        let config = client_config(conn, identity)?;
        built.insert(key, Arc::clone(&config));
        Ok(config)
    }
}

fn root_store(roots: &TrustRoots) -> Result<(RootCertStore, String), TlsSetupError> {
    let mut store = RootCertStore::empty();
    match roots {
        TrustRoots::Platform => {
            // What kubectl (Go's crypto/x509) trusts: the operating system's store, including a
            // company CA installed there; SSL_CERT_FILE and SSL_CERT_DIR point elsewhere.
            let found = rustls_native_certs::load_native_certs();
            let (added, _unusable) = store.add_parsable_certificates(found.certs);
            if added > 0 {
                return Ok((store, "the system's root certificates".into()));
            }
            // A bare container image without a CA store: the well-known public roots, rather
            // than no trust at all.
            kw_base::vlog!(
                kw_base::log::REQUESTS,
                "no system root certificates found ({} errors); using the bundled public roots",
                found.errors.len()
            );
            store.extend(webpki_roots::TLS_SERVER_ROOTS.iter().cloned());
            Ok((
                store,
                "the bundled public root certificates (the system has none)".into(),
            ))
        }
        TrustRoots::Bundle { certs, origin } => {
            let (added, _ignored) = store.add_parsable_certificates(certs.iter().cloned());
            if added == 0 {
                return Err(TlsSetupError::BadRoots {
                    origin: origin.clone(),
                    reason: "no usable certificate".into(),
                });
            }
            Ok((store, origin.clone()))
        }
    }
}

/// kw's TLS layer in ureq's connector chain: rustls with kw's own configuration, and
/// `tls-server-name` (when set) as the name the handshake sends (SNI) instead of the host
/// connected to, as client-go does, so front ends that route by SNI reach the right cluster.
/// ureq's own TLS settings cannot carry a custom verifier or a renamed SNI, hence this.
/// It also speaks TLS to an `https://` proxy, with the proxy's own trust (see
/// [`proxy_config`]); ureq then sends CONNECT inside that, and this wraps the tunnel in the
/// server's TLS. Plain `http://` servers pass through untouched.
#[derive(Clone)]
pub struct Connector {
    /// For an `https://` server.
    server: Option<Arc<ClientConfig>>,
    server_name: Option<String>,
    /// For an `https://` proxy.
    proxy: Option<Arc<ClientConfig>>,
}

/// The TLS handshake with an `https://` proxy failed (kept apart from the server's failures,
/// which it would otherwise look like).
#[derive(Debug, thiserror::Error)]
#[error("TLS to the proxy failed: {0}")]
pub struct ProxyHandshakeError(pub std::io::Error);

impl Connector {
    pub fn new(
        server: Option<Arc<ClientConfig>>,
        tls_server_name: Option<&str>,
        proxy: Option<Arc<ClientConfig>>,
    ) -> Connector {
        Connector {
            server,
            server_name: tls_server_name.map(str::to_string),
            proxy,
        }
    }
}

impl std::fmt::Debug for Connector {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("tls::Connector")
            .field("server_name", &self.server_name)
            .finish()
    }
}

impl<In: Transport> ureq::unversioned::transport::Connector<In> for Connector {
    type Out = Either<In, TlsTransport>;

    fn connect(
        &self,
        details: &ConnectionDetails,
        chained: Option<In>,
    ) -> Result<Option<Self::Out>, ureq::Error> {
        let Some(transport) = chained else {
            // Nothing below connected: nothing to wrap (ureq reports the failure).
            return Ok(None);
        };
        if !details.needs_tls() || transport.is_tls() {
            return Ok(Some(Either::A(transport)));
        }
        let host = details.uri.host().unwrap_or_default();
        // An IPv6 literal comes bracketed from the URI.
        let host = host
            .strip_prefix('[')
            .and_then(|h| h.strip_suffix(']'))
            .unwrap_or(host);
        // ureq connects to a CONNECT proxy with the proxy taken out of its configuration: with
        // an `https://` proxy configured, that is the only connection without one.
        let (config, name, to_proxy) = match (&self.proxy, details.config.proxy()) {
            (Some(proxy), None) => (proxy, host, true),
            _ => match &self.server {
                Some(server) => (server, self.server_name.as_deref().unwrap_or(host), false),
                None => return Err(ureq::Error::Tls("no TLS configuration for this server")),
            },
        };
        let name = ServerName::try_from(name.to_string())
            .map_err(|_| ureq::Error::Tls("the server's name cannot be used for TLS"))?;
        let mut conn = ClientConnection::new(Arc::clone(config), name)
            .map_err(|e| ureq::Error::Io(std::io::Error::other(e)))?;
        let mut sock = TransportAdapter::new(transport.boxed(), details.current_time.clone());
        sock.set_timeout(details.timeout);
        // rustls hands its own errors back inside io::Error; ureq's (timeouts) come back out.
        match conn.complete_io(&mut sock).map_err(ureq::Error::from) {
            Ok(_) => {}
            Err(ureq::Error::Io(io)) if to_proxy => {
                return Err(ureq::Error::Other(Box::new(ProxyHandshakeError(io))));
            }
            Err(other) => return Err(other),
        }
        // The socket kw opened just now under this TLS (none through a SOCKS proxy).
        let probe = super::probe::take_opened().unwrap_or_else(|| Probe::new(None));
        let buffers = Tracked::new(
            LazyBuffers::new(PLAINTEXT_IN, REQUEST_HEAD_OUT),
            probe,
            Layer::AboveTls,
        );
        let mut transport = TlsTransport {
            buffers,
            stream: StreamOwned { conn, sock },
        };
        transport.count_plaintext();
        Ok(Some(Either::B(transport)))
    }
}

/// TLS to an `https://` proxy: no client certificate (it is meant for the API server), and the
/// proxy's certificate verified against the operating system's store (`SSL_CERT_FILE` and
/// `SSL_CERT_DIR` honoured), where a company installs its proxy CA, and also against the
/// kubeconfig's CA, as client-go does. Returns the configuration and where its roots came from.
pub fn proxy_config(roots: &TrustRoots) -> Result<(Arc<ClientConfig>, String), TlsSetupError> {
    let (mut store, mut origin) = root_store(&TrustRoots::Platform)?;
    if let TrustRoots::Bundle {
        certs,
        origin: from,
    } = roots
    {
        let (added, _ignored) = store.add_parsable_certificates(certs.iter().cloned());
        if added > 0 {
            origin = format!("{origin} and {from}");
        }
    }
    let config = ClientConfig::builder_with_provider(provider())
        .with_safe_default_protocol_versions()
        .map_err(|e| TlsSetupError::BadRoots {
            origin: "the TLS library".into(),
            reason: e.to_string(),
        })?
        .with_root_certificates(store)
        .with_no_client_auth();
    Ok((Arc::new(config), origin))
}

/// One TLS connection as a ureq transport: plaintext goes through ureq's buffers.
pub struct TlsTransport {
    buffers: Tracked,
    stream: StreamOwned<ClientConnection, TransportAdapter>,
}

impl TlsTransport {
    /// Have rustls decrypt every whole record it holds, and count the plaintext it keeps
    /// (`probe`): what remains undecrypted is then part of one record, which needs the socket.
    fn count_plaintext(&mut self) {
        let state = self.stream.conn.process_new_packets();
        let plaintext = match state {
            Ok(state) if !state.peer_has_closed() => Some(state.plaintext_bytes_to_read()),
            _ => None,
        };
        self.buffers.probe().set_tls(plaintext);
    }
}

impl std::fmt::Debug for TlsTransport {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("TlsTransport").finish()
    }
}

impl Transport for TlsTransport {
    fn buffers(&mut self) -> &mut dyn Buffers {
        &mut self.buffers
    }

    fn transmit_output(&mut self, amount: usize, timeout: NextTimeout) -> Result<(), ureq::Error> {
        super::probe::used(self.buffers.probe());
        self.stream.get_mut().set_timeout(timeout);
        let output = &self.buffers.output()[..amount];
        let written = self.stream.write_all(output).map_err(ureq::Error::from);
        self.count_plaintext();
        written
    }

    fn await_input(&mut self, timeout: NextTimeout) -> Result<bool, ureq::Error> {
        // The per-read timeout holds for the whole read of plaintext, not for each read of the
        // socket that rustls makes for it: a server sending one byte of a record every few
        // seconds would otherwise keep rustls reading for ever (issue 61, point 6). Taken as a
        // budget here, it shrinks as the adapter's clock runs.
        let mut whole = timeout.for_read();
        whole.per_read = None;
        self.stream.get_mut().set_timeout(whole);
        let input = self.buffers.input_append_buf();
        let read = self.stream.read(input).map_err(ureq::Error::from);
        self.count_plaintext();
        let amount = read?;
        self.buffers.input_appended(amount);
        Ok(amount > 0)
    }

    fn is_open(&mut self) -> bool {
        self.stream.get_mut().get_mut().is_open()
    }

    fn is_tls(&self) -> bool {
        true
    }
}

/// Verifies the server's chain as usual, but against the configured `tls-server-name` instead of
/// the host the connection was made to. (The connector already hands rustls that name; this
/// keeps the check independent of how the connection was opened.)
#[derive(Debug)]
struct RenamedVerifier {
    inner: Arc<WebPkiServerVerifier>,
    name: ServerName<'static>,
}

impl ServerCertVerifier for RenamedVerifier {
    fn verify_server_cert(
        &self,
        end_entity: &CertificateDer<'_>,
        intermediates: &[CertificateDer<'_>],
        _server_name: &ServerName<'_>,
        ocsp_response: &[u8],
        now: UnixTime,
    ) -> Result<ServerCertVerified, rustls::Error> {
        self.inner
            .verify_server_cert(end_entity, intermediates, &self.name, ocsp_response, now)
    }

    fn verify_tls12_signature(
        &self,
        message: &[u8],
        cert: &CertificateDer<'_>,
        dss: &DigitallySignedStruct,
    ) -> Result<HandshakeSignatureValid, rustls::Error> {
        self.inner.verify_tls12_signature(message, cert, dss)
    }

    fn verify_tls13_signature(
        &self,
        message: &[u8],
        cert: &CertificateDer<'_>,
        dss: &DigitallySignedStruct,
    ) -> Result<HandshakeSignatureValid, rustls::Error> {
        self.inner.verify_tls13_signature(message, cert, dss)
    }

    fn supported_verify_schemes(&self) -> Vec<SignatureScheme> {
        self.inner.supported_verify_schemes()
    }
}

/// `insecure-skip-tls-verify`: accept any certificate, but still check handshake signatures so
/// the session keys belong to whoever presented the certificate.
#[derive(Debug)]
struct NoVerification(Arc<rustls::crypto::CryptoProvider>);

impl ServerCertVerifier for NoVerification {
    fn verify_server_cert(
        &self,
        _end_entity: &CertificateDer<'_>,
        _intermediates: &[CertificateDer<'_>],
        _server_name: &ServerName<'_>,
        _ocsp_response: &[u8],
        _now: UnixTime,
    ) -> Result<ServerCertVerified, rustls::Error> {
        Ok(ServerCertVerified::assertion())
    }

    fn verify_tls12_signature(
        &self,
        message: &[u8],
        cert: &CertificateDer<'_>,
        dss: &DigitallySignedStruct,
    ) -> Result<HandshakeSignatureValid, rustls::Error> {
        rustls::crypto::verify_tls12_signature(
            message,
            cert,
            dss,
            &self.0.signature_verification_algorithms,
        )
    }

    fn verify_tls13_signature(
        &self,
        message: &[u8],
        cert: &CertificateDer<'_>,
        dss: &DigitallySignedStruct,
    ) -> Result<HandshakeSignatureValid, rustls::Error> {
        rustls::crypto::verify_tls13_signature(
            message,
            cert,
            dss,
            &self.0.signature_verification_algorithms,
        )
    }

    fn supported_verify_schemes(&self) -> Vec<SignatureScheme> {
        self.0.signature_verification_algorithms.supported_schemes()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::endpoint::{Scheme, ServerUrl};

    fn self_signed(name: &str) -> CertificateDer<'static> {
        let made = rcgen::generate_simple_self_signed(vec![name.to_string()]).unwrap();
        made.cert.der().clone()
    }

    fn connection(ca: &CertificateDer<'static>, insecure: bool, port: u16) -> Connection {
        Connection {
            server: ServerUrl {
                scheme: Scheme::Https,
                host: "127.0.0.1".into(),
                port,
                base_path: String::new(),
            },
            roots: TrustRoots::Bundle {
                certs: vec![ca.clone()],
                origin: "the test's CA".into(),
            },
            insecure_skip_tls_verify: insecure,
            tls_server_name: None,
            credentials: Default::default(),
            impersonate: Default::default(),
            proxy: None,
            request_timeout: None,
        }
    }

    #[test]
    fn contexts_that_trust_alike_share_one_configuration() {
        let configs = Configs::default();
        let (ca, other) = (self_signed("ca.test"), self_signed("other.test"));
        let config = |conn: &Connection| configs.client_config(conn, None).unwrap();
        let first = config(&connection(&ca, false, 6443));
        // Another server trusted alike (the address is not part of the trust).
        assert!(Arc::ptr_eq(&first, &config(&connection(&ca, false, 7443))));
        assert!(!Arc::ptr_eq(
            &first,
            &config(&connection(&other, false, 6443))
        ));
        assert!(!Arc::ptr_eq(&first, &config(&connection(&ca, true, 6443))));
        let mut renamed = connection(&ca, false, 6443);
        renamed.tls_server_name = Some("api.test".into());
        assert!(!Arc::ptr_eq(&first, &config(&renamed)));
        assert_eq!(configs.built.lock().unwrap().len(), 4);
    }
}
