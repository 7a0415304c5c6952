//! A failed TLS handshake in words a user can act on (kubectl's `x509: certificate signed by
//! unknown authority`, said with what kw checked it against), and whether it is a certificate
//! that kw's trust refuses, which no retry can change. Never a Rust enum's Debug form: rustls's
//! names (`BadSignature`) mean nothing to someone reading a watch's stderr.

use rustls::pki_types::ServerName;
use rustls::{AlertDescription, CertificateError};

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

/// Whether kw itself refused the peer's certificate (its authority, dates, names or shape).
/// kw reads its trust once, so the same certificate is refused at every attempt: kubectl's
/// `x509:` failures, which end its watch at once.
pub fn is_refused_certificate(err: &rustls::Error) -> bool {
    matches!(err, rustls::Error::InvalidCertificate(_))
}

/// Say in words what a TLS failure means for the user. `roots_origin` names the CA bundle used.
pub fn describe_tls_error(err: &rustls::Error, roots_origin: &str) -> String {
    describe(err, "server", roots_origin)
}

/// As [`describe_tls_error`], for the TLS connection to an `https://` proxy.
pub fn describe_proxy_tls_error(err: &rustls::Error, roots_origin: &str) -> String {
    describe(err, "proxy", roots_origin)
}

fn describe(err: &rustls::Error, peer: &str, roots_origin: &str) -> String {
    match err {
        rustls::Error::InvalidCertificate(cert) => certificate(cert, peer, roots_origin),
        rustls::Error::AlertReceived(alert) if peer == "server" => format!(
            "the server rejected the TLS handshake ({}); if you use a client certificate, the server does not accept it",
            alert_words(*alert)
        ),
        rustls::Error::AlertReceived(alert) => {
            format!("the {peer} rejected the TLS handshake ({})", alert_words(*alert))
        }
        other => format!("TLS handshake failed: {other}"),
    }
}

/// Why kw refused the peer's certificate, one variant at a time.
fn certificate(cert: &CertificateError, peer: &str, roots_origin: &str) -> String {
    #[allow(deprecated)] // UnsupportedSignatureAlgorithm: older rustls verifiers still say it
    match cert {
        CertificateError::UnknownIssuer => format!(
            "the {peer}'s certificate is signed by an unknown authority (verified against \
             {roots_origin})"
        ),
        // webpki finds the issuer by name: a CA of the trusted one's name whose key did not
        // sign the certificate is another CA made under the same name (a cluster set up anew).
        CertificateError::BadSignature => format!(
            "the {peer}'s certificate is signed by an unknown authority (verified against \
             {roots_origin}): it names a certificate authority kw trusts, but that authority's \
             key did not sign it (a CA made anew under the same name?)"
        ),
        CertificateError::NotValidForNameContext {
            expected,
            presented,
        } => format!(
            "the {peer}'s certificate is not valid for {}: it is valid for {}",
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
            format!("the {peer}'s certificate is not valid for the {peer}'s name")
        }
        CertificateError::ExpiredContext { time, not_after } => format!(
            "the {peer}'s certificate expired {} ago (at {})",
            ago(time.as_secs().saturating_sub(not_after.as_secs())),
            rfc3339(not_after.as_secs())
        ),
        CertificateError::Expired => format!("the {peer}'s certificate has expired"),
        CertificateError::NotValidYetContext { time, not_before } => format!(
            "the {peer}'s certificate is not valid until {} (in {})",
            rfc3339(not_before.as_secs()),
            ago(not_before.as_secs().saturating_sub(time.as_secs()))
        ),
        CertificateError::NotValidYet => format!("the {peer}'s certificate is not valid yet"),
        CertificateError::BadEncoding => {
            format!("the {peer}'s certificate is not a well-formed X.509 certificate")
        }
        CertificateError::Revoked => format!("the {peer}'s certificate has been revoked"),
        CertificateError::UnhandledCriticalExtension => format!(
            "the {peer}'s certificate has an extension marked critical that kw does not know"
        ),
        CertificateError::UnknownRevocationStatus
        | CertificateError::ExpiredRevocationList
        | CertificateError::ExpiredRevocationListContext { .. } => {
            format!("the {peer}'s certificate could not be checked for revocation")
        }
        CertificateError::UnsupportedSignatureAlgorithm
        | CertificateError::UnsupportedSignatureAlgorithmContext { .. }
        | CertificateError::UnsupportedSignatureAlgorithmForPublicKeyContext { .. } => {
            format!("the {peer}'s certificate is signed with an algorithm kw does not support")
        }
        CertificateError::InvalidPurpose | CertificateError::InvalidPurposeContext { .. } => {
            format!(
                "the {peer}'s certificate is not one for a TLS server (its extended key usage \
                 does not allow server authentication)"
            )
        }
        CertificateError::InvalidOcspResponse => {
            format!("the {peer}'s stapled revocation status (OCSP) is not valid")
        }
        // webpki's own errors print as Debug names too; the variant says no more.
        CertificateError::ApplicationVerificationFailure | CertificateError::Other(_) => {
            format!("the {peer}'s certificate failed verification (kw verified it against {roots_origin})")
        }
        _ => format!(
            "the {peer}'s certificate failed verification (kw verified it against {roots_origin})"
        ),
    }
}

/// A TLS alert the peer sent, as the RFC names it.
fn alert_words(alert: AlertDescription) -> String {
    let words = match alert {
        AlertDescription::HandshakeFailure => "handshake failure",
        AlertDescription::NoCertificate | AlertDescription::CertificateRequired => {
            "certificate required"
        }
        AlertDescription::BadCertificate => "bad certificate",
        AlertDescription::UnsupportedCertificate => "unsupported certificate",
        AlertDescription::CertificateRevoked => "certificate revoked",
        AlertDescription::CertificateExpired => "certificate expired",
        AlertDescription::CertificateUnknown => "certificate unknown",
        AlertDescription::UnknownCA => "unknown certificate authority",
        AlertDescription::AccessDenied => "access denied",
        AlertDescription::ProtocolVersion => "no TLS version in common",
        AlertDescription::InsufficientSecurity => "insufficient security",
        AlertDescription::InternalError => "internal error",
        AlertDescription::UnrecognisedName => "unrecognised name",
        AlertDescription::NoApplicationProtocol => "no application protocol in common",
        AlertDescription::DecryptError => "decrypt error",
        AlertDescription::IllegalParameter => "illegal parameter",
        other => return format!("TLS alert {}", u8::from(other)),
    };
    format!("TLS alert: {words}")
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
        _ => "the name asked for".to_string(),
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

    /// No variant is worded as rustls names it (`BadSignature`, `UnknownIssuer`...).
    #[test]
    fn every_refusal_is_said_in_words() {
        use rustls::pki_types::UnixTime;
        #[allow(deprecated)]
        let refusals = vec![
            CertificateError::BadEncoding,
            CertificateError::Expired,
            CertificateError::ExpiredContext {
                time: UnixTime::since_unix_epoch(std::time::Duration::from_secs(3600)),
                not_after: UnixTime::since_unix_epoch(std::time::Duration::ZERO),
            },
            CertificateError::NotValidYet,
            CertificateError::Revoked,
            CertificateError::UnhandledCriticalExtension,
            CertificateError::UnknownIssuer,
            CertificateError::UnknownRevocationStatus,
            CertificateError::ExpiredRevocationList,
            CertificateError::BadSignature,
            CertificateError::UnsupportedSignatureAlgorithm,
            CertificateError::NotValidForName,
            CertificateError::InvalidPurpose,
            CertificateError::InvalidOcspResponse,
            CertificateError::ApplicationVerificationFailure,
        ];
        for refusal in refusals {
            let debug = format!("{refusal:?}");
            let name = debug.split(['(', ' ', '{']).next().unwrap_or_default();
            let error = rustls::Error::InvalidCertificate(refusal);
            assert!(is_refused_certificate(&error));
            let words = describe_tls_error(&error, "the kubeconfig's CA");
            assert!(words.starts_with("the server's"), "{words}");
            assert!(!words.contains(name), "{name} in {words}");
        }
        let signature = describe_tls_error(
            &rustls::Error::InvalidCertificate(CertificateError::BadSignature),
            "certificate-authority-data of cluster \"sim\"",
        );
        assert!(
            signature.contains("signed by an unknown authority")
                && signature.contains("certificate-authority-data of cluster \"sim\""),
            "{signature}"
        );
        let alert = describe_tls_error(
            &rustls::Error::AlertReceived(AlertDescription::BadCertificate),
            "",
        );
        assert!(alert.contains("(TLS alert: bad certificate)"), "{alert}");
        assert!(!is_refused_certificate(&rustls::Error::AlertReceived(
            AlertDescription::BadCertificate
        )));
    }
}
