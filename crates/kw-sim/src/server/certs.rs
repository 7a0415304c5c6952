//! TLS material for one run: a fresh CA, a server certificate for the loopback names, and a client
//! certificate (CN `cert-user`, O `system:masters`); the rustls server configuration (ALPN
//! `http/1.1` only, client certificates optional); and reading the identity out of a verified
//! client certificate.

use std::sync::Arc;

use rcgen::{
    BasicConstraints, CertificateParams, DistinguishedName, DnType, ExtendedKeyUsagePurpose, IsCa,
    Issuer, KeyPair, KeyUsagePurpose,
};
use rustls::server::WebPkiClientVerifier;
use rustls::RootCertStore;
use rustls_pki_types::{CertificateDer, PrivateKeyDer, PrivatePkcs8KeyDer};

use crate::api::auth::CertIdentity;
use crate::error::SimError;

/// The client certificate's user and group.
pub const CLIENT_CN: &str = "cert-user";
pub const CLIENT_ORG: &str = "system:masters";

/// The server certificate's names unless a test asks for others.
pub const DEFAULT_SERVER_NAMES: [&str; 3] = ["127.0.0.1", "localhost", "::1"];

/// Everything TLS needs, in DER for rustls and PEM for kubeconfigs.
pub struct Certs {
    pub ca_pem: String,
    ca_der: CertificateDer<'static>,
    server_der: CertificateDer<'static>,
    server_key_der: Vec<u8>,
    pub client_cert_pem: String,
    pub client_key_pem: String,
}

fn certs_error(err: rcgen::Error) -> SimError {
    SimError::Certs(err.to_string())
}

fn named(common_name: &str, organization: Option<&str>) -> DistinguishedName {
    let mut name = DistinguishedName::new();
    if let Some(organization) = organization {
        name.push(DnType::OrganizationName, organization);
    }
    name.push(DnType::CommonName, common_name);
    name
}

impl Certs {
    /// Make a fresh CA and the server and client certificates it signs. `server_names` are the
    /// server certificate's names (IP addresses become IP SANs); `expired` makes it one that
    /// expired in 2001.
    pub fn generate(server_names: &[String], expired: bool) -> Result<Certs, SimError> {
        let ca_key = KeyPair::generate().map_err(certs_error)?;
        let mut ca_params = CertificateParams::new(Vec::<String>::new()).map_err(certs_error)?;
        ca_params.distinguished_name = named("kw-sim-ca", None);
        ca_params.is_ca = IsCa::Ca(BasicConstraints::Unconstrained);
        ca_params.key_usages = vec![
            KeyUsagePurpose::KeyCertSign,
            KeyUsagePurpose::CrlSign,
            KeyUsagePurpose::DigitalSignature,
        ];
        let ca_cert = ca_params.self_signed(&ca_key).map_err(certs_error)?;
        let issuer = Issuer::new(ca_params, ca_key);

        let server_key = KeyPair::generate().map_err(certs_error)?;
        let mut server_params =
            CertificateParams::new(server_names.to_vec()).map_err(certs_error)?;
        if expired {
            server_params.not_before = rcgen::date_time_ymd(2000, 1, 1);
            server_params.not_after = rcgen::date_time_ymd(2001, 1, 1);
        }
        server_params.distinguished_name = named("kw-sim", None);
        server_params.extended_key_usages = vec![ExtendedKeyUsagePurpose::ServerAuth];
        let server_cert = server_params
            .signed_by(&server_key, &issuer)
            .map_err(certs_error)?;

        let client_key = KeyPair::generate().map_err(certs_error)?;
        let mut client_params =
            CertificateParams::new(Vec::<String>::new()).map_err(certs_error)?;
        client_params.distinguished_name = named(CLIENT_CN, Some(CLIENT_ORG));
        client_params.extended_key_usages = vec![ExtendedKeyUsagePurpose::ClientAuth];
        let client_cert = client_params
            .signed_by(&client_key, &issuer)
            .map_err(certs_error)?;

        Ok(Certs {
            ca_pem: ca_cert.pem(),
            ca_der: ca_cert.der().clone(),
            server_der: server_cert.der().clone(),
            server_key_der: server_key.serialize_der(),
            client_cert_pem: client_cert.pem(),
            client_key_pem: client_key.serialize_pem(),
        })
    }

    /// The rustls server configuration: our chain, HTTP/1.1 only, optional client certs.
    pub fn server_config(&self) -> Result<Arc<rustls::ServerConfig>, SimError> {
        let provider = Arc::new(rustls::crypto::ring::default_provider());
        let mut roots = RootCertStore::empty();
        roots
            .add(self.ca_der.clone())
            .map_err(|err| SimError::Tls(err.to_string()))?;
        let verifier =
            WebPkiClientVerifier::builder_with_provider(Arc::new(roots), provider.clone())
                .allow_unauthenticated()
                .build()
                .map_err(|err| SimError::Tls(err.to_string()))?;
        let key = PrivateKeyDer::Pkcs8(PrivatePkcs8KeyDer::from(self.server_key_der.clone()));
        let mut config = rustls::ServerConfig::builder_with_provider(provider)
            .with_safe_default_protocol_versions()
            .map_err(|err| SimError::Tls(err.to_string()))?
            .with_client_cert_verifier(verifier)
            .with_single_cert(vec![self.server_der.clone(), self.ca_der.clone()], key)
            .map_err(|err| SimError::Tls(err.to_string()))?;
        // Offering only http/1.1 is what makes Go clients (kubectl) skip HTTP/2.
        config.alpn_protocols = vec![b"http/1.1".to_vec()];
        Ok(Arc::new(config))
    }
}

/// One DER TLV: (tag, contents, rest).
fn der_item(input: &[u8]) -> Option<(u8, &[u8], &[u8])> {
    let (&tag, rest) = input.split_first()?;
    let (&first, rest) = rest.split_first()?;
    let (length, rest) = if first < 0x80 {
        (usize::from(first), rest)
    } else {
        let count = usize::from(first & 0x7f);
        if count == 0 || count > 4 || rest.len() < count {
            return None;
        }
        let length = rest[..count]
            .iter()
            .fold(0usize, |acc, byte| (acc << 8) | usize::from(*byte));
        (length, &rest[count..])
    };
    if rest.len() < length {
        return None;
    }
    Some((tag, &rest[..length], &rest[length..]))
}

const OID_COMMON_NAME: &[u8] = &[0x55, 0x04, 0x03];
const OID_ORGANIZATION: &[u8] = &[0x55, 0x04, 0x0a];

/// The subject CN and O values of a DER certificate (rustls has verified it already).
pub fn identity(cert_der: &[u8]) -> Option<CertIdentity> {
    let (_, certificate, _) = der_item(cert_der)?;
    let (_, tbs, _) = der_item(certificate)?;
    let mut rest = tbs;
    // Optional [0] version, then serial, signature algorithm, issuer, validity, subject.
    let (tag, _, after) = der_item(rest)?;
    if tag == 0xa0 {
        rest = after;
    }
    for _ in 0..4 {
        let (_, _, after) = der_item(rest)?;
        rest = after;
    }
    let (_, subject, _) = der_item(rest)?;
    let mut common_name = None;
    let mut organizations = Vec::new();
    let mut sets = subject;
    while !sets.is_empty() {
        let (_, set, after) = der_item(sets)?;
        sets = after;
        let mut attributes = set;
        while !attributes.is_empty() {
            let (_, attribute, after) = der_item(attributes)?;
            attributes = after;
            let (_, oid, value_item) = der_item(attribute)?;
            let (_, value, _) = der_item(value_item)?;
            let value = String::from_utf8_lossy(value).into_owned();
            if oid == OID_COMMON_NAME {
                common_name = Some(value);
            } else if oid == OID_ORGANIZATION {
                organizations.push(value);
            }
        }
    }
    Some(CertIdentity {
        common_name: common_name?,
        organizations,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The DER of the first certificate in a PEM text.
    fn first_pem_der(pem: &str) -> Option<Vec<u8>> {
        use base64::Engine;
        let body: String = pem
            .lines()
            .skip_while(|line| !line.starts_with("-----BEGIN"))
            .skip(1)
            .take_while(|line| !line.starts_with("-----END"))
            .collect();
        base64::engine::general_purpose::STANDARD.decode(body).ok()
    }

    #[test]
    fn client_cert_identity_is_read_back() {
        let certs = Certs::generate(&DEFAULT_SERVER_NAMES.map(String::from), false).unwrap();
        let der = first_pem_der(&certs.client_cert_pem).unwrap();
        let identity = identity(&der).unwrap();
        assert_eq!(identity.common_name, CLIENT_CN);
        assert_eq!(identity.organizations, vec![CLIENT_ORG.to_string()]);
        assert!(certs.server_config().is_ok());
        assert!(identity_of_garbage_is_none());
    }

    fn identity_of_garbage_is_none() -> bool {
        identity(&[0x30, 0x05, 0x01]).is_none() && identity(&[]).is_none()
    }
}
