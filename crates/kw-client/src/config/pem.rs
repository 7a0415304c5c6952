//! PEM: certificates and keys from files, kubeconfig fields and exec plugins, checked when they
//! are read (a wrong file fails by name here, not as a vague handshake failure later): the CA
//! bundle when settings are resolved, a client identity from the kubeconfig or from an exec
//! plugin at request time.

use rustls::sign::CertifiedKey;
use rustls_pki_types::pem::PemObject;
use rustls_pki_types::{CertificateDer, PrivateKeyDer};

use crate::config::endpoint::ClientIdentity;

/// A PEM bundle or key that cannot be used; each names the file or field at fault.
#[derive(Debug, thiserror::Error)]
pub enum PemError {
    #[error("{origin} holds no PEM certificate")]
    NoCertificate { origin: String },
    #[error("{origin} holds an invalid certificate: {reason}")]
    InvalidCertificate { origin: String, reason: String },
    #[error("{origin} holds no PEM private key (PKCS#8, PKCS#1 or SEC1)")]
    NoPrivateKey { origin: String },
    #[error("{origin} holds a private key kw cannot use: {reason}")]
    UnusablePrivateKey { origin: String, reason: String },
    #[error("the client key ({key_origin}) does not match the client certificate ({cert_origin})")]
    KeyMismatch {
        cert_origin: String,
        key_origin: String,
    },
}

/// Every certificate in a PEM bundle, each checked to be a certificate rustls can use as a
/// trust anchor, so a wrong file fails here rather than as a vague TLS error later.
pub fn parse_certificates(
    pem: &[u8],
    origin: &str,
) -> Result<Vec<CertificateDer<'static>>, PemError> {
    let mut certs = Vec::new();
    for item in CertificateDer::pem_slice_iter(pem) {
        let cert = item.map_err(|error| PemError::InvalidCertificate {
            origin: origin.to_string(),
            reason: error.to_string(),
        })?;
        let mut store = rustls::RootCertStore::empty();
        store
            .add(cert.clone())
            .map_err(|error| PemError::InvalidCertificate {
                origin: origin.to_string(),
                reason: error.to_string(),
            })?;
        certs.push(cert);
    }
    if certs.is_empty() {
        return Err(PemError::NoCertificate {
            origin: origin.to_string(),
        });
    }
    Ok(certs)
}

/// A client identity from PEM bytes (files, kubeconfig fields, or an exec plugin's output):
/// the chain must hold certificates and the key must belong to the first one.
pub fn identity_from_pem(
    cert_pem: &[u8],
    key_pem: &[u8],
    cert_origin: &str,
    key_origin: &str,
) -> Result<ClientIdentity, PemError> {
    let chain = parse_certificates(cert_pem, cert_origin)?;
    let private_key = PrivateKeyDer::from_pem_slice(key_pem).map_err(|error| match error {
        rustls_pki_types::pem::Error::NoItemsFound => PemError::NoPrivateKey {
            origin: key_origin.to_string(),
        },
        other => PemError::UnusablePrivateKey {
            origin: key_origin.to_string(),
            reason: other.to_string(),
        },
    })?;
    let provider = rustls::crypto::ring::default_provider();
    match CertifiedKey::from_der(chain.clone(), private_key.clone_key(), &provider) {
        Ok(_) => {}
        Err(rustls::Error::InconsistentKeys(rustls::InconsistentKeys::KeyMismatch)) => {
            return Err(PemError::KeyMismatch {
                cert_origin: cert_origin.to_string(),
                key_origin: key_origin.to_string(),
            })
        }
        Err(error) => {
            return Err(PemError::UnusablePrivateKey {
                origin: key_origin.to_string(),
                reason: error.to_string(),
            })
        }
    }
    Ok(ClientIdentity {
        chain,
        key: private_key,
        origin: cert_origin.to_string(),
    })
}
