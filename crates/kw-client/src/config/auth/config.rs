//! Credentials from configuration: the kubeconfig user and the credential flags resolved into
//! what a connection may authenticate with, checked before any request (a wrong file, a token
//! that cannot be sent, an expired oidc id-token or a removed auth-provider fails here, by name).
//! The runtime side (re-reading token files, running exec plugins) is the parent module's.

use std::path::{Path, PathBuf};
use std::time::Duration;

use super::error::{check_token, AuthError};
use super::exec::{ExecConfigError, ExecPlugin};
use super::CredentialSource;
use crate::config::endpoint::{ClientIdentity, Secret};
use crate::config::kubeconfig::User;
use crate::config::material::{file_origin, Material, MaterialError};
use crate::config::pem::{identity_from_pem, PemError};
use crate::config::plugin_policy::PluginPolicy;

/// Why a user's credentials cannot be used. Each message names the user, field or flag at
/// fault and never contains a secret.
#[derive(Debug, thiserror::Error)]
pub enum CredentialsError {
    #[error(transparent)]
    Material(#[from] MaterialError),
    #[error("a client certificate ({origin}) needs a client key too (client-key or --client-key)")]
    CertificateWithoutKey { origin: String },
    #[error(
        "a client key ({origin}) needs a client certificate too (client-certificate or \
         --client-certificate)"
    )]
    KeyWithoutCertificate { origin: String },
    #[error(transparent)]
    Pem(#[from] PemError),
    #[error("{origin} is empty")]
    EmptyToken { origin: String },
    #[error(transparent)]
    UnsendableToken(#[from] AuthError),
    #[error("user \"{user}\" authenticates with {mechanism}, which kw does not support")]
    UnsupportedAuth {
        user: String,
        mechanism: &'static str,
    },
    #[error(transparent)]
    Exec(#[from] ExecConfigError),
    #[error(
        "user \"{user}\" uses the {provider} auth-provider, which was removed from Kubernetes \
         clients in 1.26; {advice}"
    )]
    RemovedAuthProvider {
        user: String,
        provider: String,
        advice: &'static str,
    },
    #[error("user \"{user}\": {problem}")]
    Oidc { user: String, problem: String },
}

/// The credentials a connection may use, resolved and checked.
#[derive(Debug, Clone, Default)]
pub struct Credentials {
    pub token: Option<Secret>,
    /// A file to (re-)read the bearer token from (`tokenFile`).
    pub token_file: Option<PathBuf>,
    /// The `tokenFile` field or flag that named `token_file`, for messages.
    pub token_file_origin: String,
    pub client_identity: Option<ClientIdentity>,
    /// An exec credential plugin; used when no static token or token file is set.
    pub exec: Option<ExecPlugin>,
}

impl Credentials {
    /// Where each request's credential comes from: a static token beats a token file, which
    /// beats an exec plugin (client-go's order).
    pub fn source(&self) -> CredentialSource {
        match (&self.token, &self.token_file, &self.exec) {
            (Some(token), Some(path), _) => CredentialSource::TokenFile {
                path: path.clone(),
                origin: self.token_file_origin.clone(),
                initial: token.clone(),
            },
            (Some(token), None, _) => CredentialSource::Token(token.clone()),
            (None, _, Some(plugin)) => CredentialSource::Exec(plugin.clone()),
            (None, _, None) => CredentialSource::None,
        }
    }
}

/// The credential flags (`--token`, `--client-certificate`, `--client-key`); they beat the
/// kubeconfig user's fields.
#[derive(Debug, Clone, Copy, Default)]
pub struct CredentialFlags<'a> {
    pub token: Option<&'a str>,
    pub client_certificate: Option<&'a Path>,
    pub client_key: Option<&'a Path>,
    /// kuberc's `credentialPluginPolicy`; `None` is kubectl's default, `AllowAll`.
    pub plugin_policy: Option<&'a PluginPolicy>,
}

/// Token and client certificate, flags first. A static token beats `tokenFile` as in client-go;
/// both a token and a client certificate may be used at once.
pub fn resolve(
    flags: CredentialFlags<'_>,
    user: &User,
    user_name: &str,
    cluster_info: Option<serde_json::Value>,
) -> Result<Credentials, CredentialsError> {
    let user_label = if user_name.is_empty() {
        "the command line".to_string()
    } else {
        format!("user \"{user_name}\"")
    };
    let token_file_origin = match &user.token_file {
        Some(path) => file_origin("tokenFile", path, &user_label),
        None => String::new(),
    };
    // Every token is checked here, before any request, so the HTTP library never gets to
    // quote an `Authorization` header it refuses (with the token in it) in an error.
    let (token, token_file) = match non_empty(flags.token) {
        Some(token) => {
            check_token(token, "--token")?;
            (Some(Secret(token.to_string())), None)
        }
        None => match (&user.token, &user.token_file) {
            (Some(token), _) if !token.0.is_empty() => {
                check_token(&token.0, &format!("the token of {user_label}"))?;
                (Some(token.clone()), None)
            }
            (_, Some(path)) => {
                let token = read_token_file(path, &user_label)?;
                (Some(token), Some(path.clone()))
            }
            _ => (None, None),
        },
    };

    let cert = match flags.client_certificate {
        Some(path) => Some(Material::from_flag(
            path,
            "client-certificate",
            "--client-certificate",
        )),
        None => Material::from_kubeconfig(
            user.client_certificate_data.as_deref(),
            user.client_certificate.as_deref(),
            "client-certificate",
            &user_label,
        ),
    };
    let key = match flags.client_key {
        Some(path) => Some(Material::from_flag(path, "client-key", "--client-key")),
        None => Material::from_kubeconfig(
            user.client_key_data.as_ref().map(|data| data.0.as_str()),
            user.client_key.as_deref(),
            "client-key",
            &user_label,
        ),
    };
    let client_identity = match (cert, key) {
        (Some(cert), Some(key)) => Some(load_client_identity(&cert, &key)?),
        (Some(cert), None) => {
            return Err(CredentialsError::CertificateWithoutKey {
                origin: cert.origin().to_string(),
            })
        }
        (None, Some(key)) => {
            return Err(CredentialsError::KeyWithoutCertificate {
                origin: key.origin().to_string(),
            })
        }
        (None, None) => None,
    };

    // The legacy in-tree providers: gcp and azure are gone from every Kubernetes client, oidc
    // still works for as long as its id-token is valid.
    let mut token = token;
    if let Some(provider) = &user.auth_provider {
        match provider.name.as_str() {
            "gcp" => {
                return Err(CredentialsError::RemovedAuthProvider {
                    user: user_name.to_string(),
                    provider: "gcp".into(),
                    advice: "install gke-gcloud-auth-plugin (`gcloud components install \
                             gke-gcloud-auth-plugin`) and run `gcloud container clusters \
                             get-credentials CLUSTER` to rewrite the kubeconfig with an exec plugin",
                })
            }
            "azure" => {
                return Err(CredentialsError::RemovedAuthProvider {
                    user: user_name.to_string(),
                    provider: "azure".into(),
                    advice: "install kubelogin (https://azure.github.io/kubelogin) and run \
                             `kubelogin convert-kubeconfig -l azurecli` to switch to its exec plugin",
                })
            }
            "oidc" if token.is_none() && token_file.is_none() => {
                let id_token = oidc_id_token(&provider.config.0, user_name)?;
                check_token(
                    &id_token.0,
                    &format!("the oidc id-token of {user_label}"),
                )?;
                token = Some(id_token);
            }
            "oidc" => {}
            other => {
                return Err(CredentialsError::Oidc {
                    user: user_name.to_string(),
                    problem: format!("unknown auth-provider {other:?} (kw knows oidc only)"),
                })
            }
        }
    }
    let exec = match &user.exec {
        Some(config) => Some(ExecPlugin::from_config(
            config,
            &user_label,
            cluster_info,
            flags.plugin_policy.unwrap_or(&PluginPolicy::AllowAll),
        )?),
        None => None,
    };
    if token.is_none()
        && client_identity.is_none()
        && exec.is_none()
        && non_empty(user.username.as_deref()).is_some()
    {
        return Err(CredentialsError::UnsupportedAuth {
            user: user_name.to_string(),
            mechanism: "basic authentication (username/password)",
        });
    }
    Ok(Credentials {
        token,
        token_file,
        token_file_origin,
        client_identity,
        exec,
    })
}

/// The `id-token` of an oidc auth-provider, refused when it has expired: kw cannot refresh it.
fn oidc_id_token(
    config: &std::collections::BTreeMap<String, String>,
    user_name: &str,
) -> Result<Secret, CredentialsError> {
    let problem = |problem: String| CredentialsError::Oidc {
        user: user_name.to_string(),
        problem,
    };
    let Some(id_token) = config.get("id-token").filter(|t| !t.is_empty()) else {
        return Err(problem(
            "the oidc auth-provider has no id-token; log in with your OIDC tool (e.g. \
             `kubectl oidc-login`) or switch to its exec plugin"
                .into(),
        ));
    };
    if let Some(expires) = jwt_expiry(id_token) {
        if expires <= std::time::SystemTime::now() {
            return Err(problem(format!(
                "the oidc id-token expired at {}; kw does not refresh oidc tokens: refresh it \
                 (e.g. with `kubectl get ns` or your OIDC tool) or switch to an exec plugin such \
                 as kubelogin (`kubectl oidc-login`)",
                humantime::format_rfc3339_seconds(expires)
            )));
        }
    }
    Ok(Secret(id_token.clone()))
}

/// The `exp` claim of a JWT, if the token is one.
fn jwt_expiry(token: &str) -> Option<std::time::SystemTime> {
    use base64::Engine as _;
    let payload = token.split('.').nth(1)?;
    let bytes = base64::engine::general_purpose::URL_SAFE_NO_PAD
        .decode(payload.trim_end_matches('='))
        .ok()?;
    let claims: serde_json::Value = serde_json::from_slice(&bytes).ok()?;
    let exp = claims.get("exp")?.as_f64()?;
    if !(0.0..1e12).contains(&exp) {
        return None;
    }
    Some(std::time::UNIX_EPOCH + Duration::from_secs(exp as u64))
}

fn read_token_file(path: &Path, user_label: &str) -> Result<Secret, CredentialsError> {
    let origin = file_origin("tokenFile", path, user_label);
    let bytes = std::fs::read(path).map_err(|source| MaterialError::ReadFile {
        origin: origin.clone(),
        source,
    })?;
    // client-go trims the file: editors add a trailing newline.
    let token = String::from_utf8_lossy(&bytes).trim().to_string();
    if token.is_empty() {
        return Err(CredentialsError::EmptyToken { origin });
    }
    check_token(&token, &origin)?;
    Ok(Secret(token))
}

/// Loads a certificate chain and its key and checks that they belong together, so a mismatch
/// is reported by name instead of as a handshake failure.
fn load_client_identity(
    cert: &Material<'_>,
    key: &Material<'_>,
) -> Result<ClientIdentity, CredentialsError> {
    Ok(identity_from_pem(
        &cert.read()?,
        &key.read()?,
        cert.origin(),
        key.origin(),
    )?)
}

fn non_empty(value: Option<&str>) -> Option<&str> {
    value.filter(|text| !text.is_empty())
}
