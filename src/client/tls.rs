//! TLS: build the rustls client configuration from the resolved connection settings, and turn a
//! failed handshake into a message that says what failed. Verification is on unless the user
//! asked for `insecure-skip-tls-verify`; `tls-server-name` swaps the name checked and sent as SNI,
//! never the check.

use std::sync::Arc;

use rustls::client::danger::{HandshakeSignatureValid, ServerCertVerified, ServerCertVerifier};
use rustls::client::WebPkiServerVerifier;
use rustls::pki_types::{CertificateDer, ServerName, UnixTime};
use rustls::{
    CertificateError, ClientConfig, DigitallySignedStruct, RootCertStore, SignatureScheme,
};

use crate::connection::Connection;
use crate::endpoint::{ClientIdentity, TrustRoots};

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
            crate::vlog!(
                crate::log::REQUESTS,
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

/// ureq's rustls connector, with `tls-server-name` (when set) as the name the handshake sends
/// (SNI) instead of the host connected to, as client-go does, so front ends that route by SNI
/// reach the right cluster.
pub struct Connector {
    config: Arc<ClientConfig>,
    server_name: Option<String>,
}

impl Connector {
    pub fn new(config: Arc<ClientConfig>, tls_server_name: Option<&str>) -> Connector {
        Connector {
            config,
            server_name: tls_server_name.map(str::to_string),
        }
    }
}

impl ureq::TlsConnector for Connector {
    fn connect(
        &self,
        dns_name: &str,
        io: Box<dyn ureq::ReadWrite>,
    ) -> Result<Box<dyn ureq::ReadWrite>, ureq::Error> {
        let name = self.server_name.as_deref().unwrap_or(dns_name);
        self.config.connect(name, io)
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

/// Find the rustls error inside a transport failure, if the failure was TLS.
pub fn find_tls_error<'a>(err: &'a (dyn std::error::Error + 'static)) -> Option<&'a rustls::Error> {
    let mut current: Option<&(dyn std::error::Error + 'static)> = Some(err);
    while let Some(e) = current {
        if let Some(tls) = e.downcast_ref::<rustls::Error>() {
            return Some(tls);
        }
        // io::Error hides a wrapped error from `source()`; look inside explicitly.
        if let Some(io) = e.downcast_ref::<std::io::Error>() {
            if let Some(inner) = io.get_ref() {
                if let Some(tls) = inner.downcast_ref::<rustls::Error>() {
                    return Some(tls);
                }
            }
        }
        current = e.source();
    }
    None
}

/// Say in words what a TLS failure means for the user. `roots_origin` names the CA bundle used.
pub fn describe_tls_error(err: &rustls::Error, roots_origin: &str) -> String {
    match err {
        rustls::Error::InvalidCertificate(cert) => match cert {
            CertificateError::UnknownIssuer => format!(
                "the server's certificate is signed by an unknown authority (verified against {roots_origin})"
            ),
            CertificateError::NotValidForNameContext { expected, presented } => format!(
                "the server's certificate is not valid for {}: it is valid for {}",
                server_name_text(expected),
                if presented.is_empty() {
                    "no names".to_string()
                } else {
                    presented
                        .iter()
                        .map(|name| presented_name(name))
                        .collect::<Vec<_>>()
                        .join(", ")
                }
            ),
            CertificateError::NotValidForName => {
                "the server's certificate is not valid for the server's name".to_string()
            }
            CertificateError::ExpiredContext { time, not_after } => format!(
                "the server's certificate expired {} ago (at {})",
                ago(time.as_secs().saturating_sub(not_after.as_secs())),
                rfc3339(not_after.as_secs())
            ),
            CertificateError::Expired => "the server's certificate has expired".to_string(),
            CertificateError::NotValidYetContext { time, not_before } => format!(
                "the server's certificate is not valid until {} (in {})",
                rfc3339(not_before.as_secs()),
                ago(not_before.as_secs().saturating_sub(time.as_secs()))
            ),
            CertificateError::NotValidYet => "the server's certificate is not valid yet".to_string(),
            other => format!("the server's certificate was rejected: {other:?}"),
        },
        rustls::Error::AlertReceived(alert) => format!(
            "the server rejected the TLS handshake ({alert:?}); if you use a client certificate, the server does not accept it"
        ),
        other => format!("TLS handshake failed: {other}"),
    }
}

/// rustls lists a certificate's names in Debug form (`DnsName("a.example")`); show the name.
fn presented_name(name: &str) -> &str {
    match (name.find("(\""), name.strip_suffix("\")")) {
        (Some(start), Some(inner)) if start + 2 <= inner.len() => &inner[start + 2..],
        _ => name,
    }
}

fn server_name_text(name: &ServerName<'_>) -> String {
    match name {
        ServerName::DnsName(dns) => dns.as_ref().to_string(),
        ServerName::IpAddress(ip) => std::net::IpAddr::from(*ip).to_string(),
        other => format!("{other:?}"),
    }
}

fn ago(secs: u64) -> String {
    humantime::format_duration(std::time::Duration::from_secs(secs)).to_string()
}

fn rfc3339(secs: u64) -> String {
    humantime::format_rfc3339_seconds(std::time::UNIX_EPOCH + std::time::Duration::from_secs(secs))
        .to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn presented_names_lose_their_debug_wrapping() {
        assert_eq!(presented_name("DnsName(\"a.example\")"), "a.example");
        assert_eq!(presented_name("10.0.0.1"), "10.0.0.1");
        assert_eq!(presented_name("(\")"), "(\")");
        assert_eq!(presented_name(""), "");
    }
}
