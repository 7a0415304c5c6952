//! Settings: the kubeconfig and the config flags, resolved once into what the client needs to
//! connect (no network here). kubectl's precedence rules apply: flags beat the kubeconfig,
//! `--context` beats `current-context`, `-n` beats the context's namespace, then `default`.
//!
//! `resolve` is pure (no environment, no network) but reads the certificate, key and token files
//! the kubeconfig or flags name, so a wrong path or a mismatched key is reported before any
//! connection attempt. Exec plugins are checked here but run only when the client needs a
//! credential. `resolve_from_env` adds what the environment decides: the in-cluster
//! configuration when there is no kubeconfig, and `HTTPS_PROXY`/`NO_PROXY`.

use crate::config::auth::config::{CredentialFlags, CredentialsError};
use crate::config::connection::{Connection, Impersonation};
use crate::config::endpoint::parse_server_url;
pub use crate::config::endpoint::{ClientIdentity, Scheme, Secret, ServerUrl, TrustRoots};
use crate::config::flags::{ConfigFlags, RequestTimeoutError};
use crate::config::kubeconfig::{self, Cluster, Context, Kubeconfig, KubeconfigError, User};
use crate::config::material::{Material, MaterialError};
use crate::config::pem::{parse_certificates, PemError};
use crate::config::proxy::{ProxyError, ProxyUrl};

/// Everything resolved from flags and kubeconfig.
#[derive(Debug, Clone)]
pub struct Settings {
    pub connection: Connection,
    /// The namespace to use: `-n`, else the context's, else `default`.
    pub namespace: String,
    /// The context in use, if a kubeconfig was used (for messages).
    pub context: Option<String>,
}

/// Why flags and kubeconfig do not add up to a usable connection. Each message is one line,
/// names the flag, file, cluster or user at fault, and never contains a secret.
#[derive(Debug, thiserror::Error)]
pub enum SettingsError {
    #[error(transparent)]
    Kubeconfig(#[from] KubeconfigError),
    #[error(
        "no configuration has been provided: no kubeconfig found (--kubeconfig, $KUBECONFIG, \
         ~/.kube/config) and no --server given"
    )]
    NoConfiguration,
    /// `KUBECONFIG` names only files that do not exist (kubectl skips them silently, then
    /// asks localhost:8080).
    #[error(
        "no configuration has been provided: KUBECONFIG names {}, {}, and no --server given",
        missing.iter().map(|p| p.display().to_string()).collect::<Vec<_>>().join(", "),
        if missing.len() == 1 { "which does not exist" } else { "none of which exists" }
    )]
    NoKubeconfigListed { missing: Vec<std::path::PathBuf> },
    #[error(
        "no context selected: the kubeconfig sets no current-context; pass --context NAME or \
         --server URL"
    )]
    NoContext,
    #[error(
        "context \"{name}\" does not exist{}",
        crate::config::contexts::which_exist(name, known)
    )]
    ContextNotFound { name: String, known: Vec<String> },
    /// `-n ..` or a context's `namespace: ..`.
    #[error(transparent)]
    InvalidSegment(#[from] PathSegmentError),
    #[error("current-context \"{name}\" does not exist in the kubeconfig")]
    CurrentContextNotFound { name: String },
    #[error("cluster \"{name}\" does not exist{}", referrer(context))]
    ClusterNotFound {
        name: String,
        context: Option<String>,
    },
    #[error("user \"{name}\" does not exist{}", referrer(context))]
    UserNotFound {
        name: String,
        context: Option<String>,
    },
    #[error("context \"{context}\" names no cluster; pass --cluster NAME or --server URL")]
    ContextWithoutCluster { context: String },
    #[error("cluster \"{cluster}\" has no server; pass --server URL")]
    NoServer { cluster: String },
    #[error("invalid server URL in {origin}: {reason}")]
    BadServerUrl { origin: String, reason: String },
    #[error(transparent)]
    RequestTimeout(#[from] RequestTimeoutError),
    #[error(
        "specifying a root certificates file with the insecure flag is not allowed ({origin} \
         with insecure-skip-tls-verify)"
    )]
    InsecureWithCertificateAuthority { origin: String },
    #[error(transparent)]
    Material(#[from] MaterialError),
    #[error(transparent)]
    Pem(#[from] PemError),
    #[error(transparent)]
    Credentials(#[from] CredentialsError),
    #[error("{origin}: {source}")]
    Proxy { origin: String, source: ProxyError },
    #[error(
        "impersonating a group or uid needs a user to impersonate too (--as, or as in the \
         kubeconfig)"
    )]
    ImpersonationWithoutUser,
}

fn referrer(context: &Option<String>) -> String {
    match context {
        Some(context) => format!(" (named by context \"{context}\")"),
        None => String::new(),
    }
}

/// Loads the kubeconfig by kubectl's rules (`--kubeconfig`, `$KUBECONFIG`, `~/.kube/config`) and
/// resolves it with the flags.
pub fn resolve_from_env(
    flags: &ConfigFlags,
    namespace_flag: Option<&str>,
) -> Result<Settings, SettingsError> {
    resolve_with_env(flags, namespace_flag, &load_from_env(flags)?)
}

/// The kubeconfig by kubectl's rules, or the in-cluster configuration when there is none.
pub fn load_from_env(flags: &ConfigFlags) -> Result<Kubeconfig, SettingsError> {
    let config = kubeconfig::load_from_env(flags.kubeconfig.as_deref())?;
    if config.is_empty() {
        // No kubeconfig at all: inside a pod, use its service account (as kubectl does).
        if let Some(in_cluster) =
            crate::config::in_cluster::InClusterEnv::from_process().kubeconfig()
        {
            kw_base::vlog!(
                kw_base::log::REQUESTS,
                "no kubeconfig found; using the in-cluster configuration"
            );
            return Ok(in_cluster);
        }
    }
    Ok(config)
}

/// `resolve` plus what the environment decides (the proxy variables).
pub fn resolve_with_env(
    flags: &ConfigFlags,
    namespace_flag: Option<&str>,
    config: &Kubeconfig,
) -> Result<Settings, SettingsError> {
    let mut settings = resolve(flags, namespace_flag, config)?;
    if settings.connection.proxy.is_none() {
        let env = crate::config::proxy::ProxyEnv::from_process();
        settings.connection.proxy =
            env.proxy_for(&settings.connection.server)
                .map_err(|source| SettingsError::Proxy {
                    origin: "the proxy environment variables (HTTPS_PROXY/HTTP_PROXY)".into(),
                    source,
                })?;
    }
    Ok(settings)
}

/// Resolves flags + kubeconfig into `Settings` with kubectl's precedence. No environment reads
/// and no network; referenced certificate, key and token files are read here so that their
/// errors surface before connecting.
pub fn resolve(
    flags: &ConfigFlags,
    namespace_flag: Option<&str>,
    config: &Kubeconfig,
) -> Result<Settings, SettingsError> {
    let request_timeout = flags.request_timeout()?;
    let selection = select_entries(flags, config)?;
    let cluster = selection.cluster.cloned().unwrap_or_default();
    let user = selection.user.cloned().unwrap_or_default();

    let cluster_label = match &selection.cluster_name {
        Some(name) => format!("cluster \"{name}\""),
        None => "--server".to_string(),
    };
    let server = match non_empty(flags.server.as_deref()) {
        Some(url) => parse_server_url(url).map_err(|reason| SettingsError::BadServerUrl {
            origin: "--server".to_string(),
            reason,
        })?,
        None => match (
            non_empty(cluster.server.as_deref()),
            &selection.cluster_name,
        ) {
            (Some(url), _) => {
                parse_server_url(url).map_err(|reason| SettingsError::BadServerUrl {
                    origin: format!("{cluster_label} (field server)"),
                    reason,
                })?
            }
            (None, Some(name)) => {
                return Err(SettingsError::NoServer {
                    cluster: name.clone(),
                })
            }
            (None, None) => return Err(no_selection_error(config, &selection)),
        },
    };

    let (roots, insecure_skip_tls_verify) = resolve_trust(flags, &cluster, &cluster_label)?;
    let tls_server_name = non_empty(flags.tls_server_name.as_deref())
        .or(non_empty(cluster.tls_server_name.as_deref()))
        .map(str::to_string);
    let proxy = match non_empty(cluster.proxy_url.as_deref()) {
        Some(url) => Some(ProxyUrl::parse(url).map_err(|source| SettingsError::Proxy {
            origin: format!("proxy-url of {cluster_label}"),
            source,
        })?),
        None => None,
    };
    let cluster_info = user
        .exec
        .as_ref()
        .filter(|exec| exec.provide_cluster_info)
        .map(|_| {
            exec_cluster_info(
                &server,
                &cluster,
                tls_server_name.as_deref(),
                insecure_skip_tls_verify,
            )
        });
    let user_label = selection.user_name.as_deref().unwrap_or("");
    let credential_flags = CredentialFlags {
        token: flags.token.as_deref(),
        client_certificate: flags.client_certificate.as_deref(),
        client_key: flags.client_key.as_deref(),
        plugin_policy: Some(&flags.credential_plugin_policy),
    };
    let credentials =
        crate::config::auth::config::resolve(credential_flags, &user, user_label, cluster_info)?;
    let impersonate = resolve_impersonation(flags, &user)?;

    let namespace = non_empty(namespace_flag)
        .or_else(|| {
            selection
                .context
                .and_then(|c| non_empty(c.namespace.as_deref()))
        })
        .unwrap_or("default")
        .to_string();
    // Glob and list characters (`team-*`, `a,b`) are checked per namespace by the plan.
    check_namespace(&namespace)?;

    Ok(Settings {
        connection: Connection {
            server,
            roots,
            insecure_skip_tls_verify,
            tls_server_name,
            credentials,
            impersonate,
            proxy,
            request_timeout,
        },
        namespace,
        context: selection.context_name,
    })
}

/// The `spec.cluster` of `KUBERNETES_EXEC_INFO` (client-go's `clientauthentication.Cluster`).
fn exec_cluster_info(
    server: &ServerUrl,
    cluster: &Cluster,
    tls_server_name: Option<&str>,
    insecure: bool,
) -> serde_json::Value {
    let mut info = serde_json::json!({ "server": server.to_string() });
    if let Some(name) = tls_server_name {
        info["tls-server-name"] = name.into();
    }
    if insecure {
        info["insecure-skip-tls-verify"] = true.into();
    }
    let ca = match (
        non_empty(cluster.certificate_authority_data.as_deref()),
        &cluster.certificate_authority,
    ) {
        (Some(data), _) => Some(data.split_whitespace().collect::<String>()),
        (None, Some(path)) => std::fs::read(path)
            .ok()
            .map(|pem| crate::config::auth::exec::base64_field(&pem)),
        (None, None) => None,
    };
    if let Some(ca) = ca {
        info["certificate-authority-data"] = ca.into();
    }
    if let Some(proxy) = non_empty(cluster.proxy_url.as_deref()) {
        info["proxy-url"] = proxy.into();
    }
    if cluster.disable_compression {
        info["disable-compression"] = true.into();
    }
    // Per-cluster plugin configuration lives in this extension.
    if let Some(config) = cluster
        .extensions
        .iter()
        .find(|e| e.name == "client.authentication.k8s.io/exec")
        .and_then(|e| e.extension.clone())
    {
        info["config"] = config;
    }
    info
}

/// `--as`/`--as-group`/`--as-uid` replace the kubeconfig's `as`/`as-groups`/`as-uid`.
fn resolve_impersonation(flags: &ConfigFlags, user: &User) -> Result<Impersonation, SettingsError> {
    let impersonation = Impersonation {
        user: non_empty(flags.as_user.as_deref())
            .or(non_empty(user.impersonate.as_deref()))
            .map(str::to_string),
        uid: non_empty(flags.as_uid.as_deref())
            .or(non_empty(user.impersonate_uid.as_deref()))
            .map(str::to_string),
        groups: if flags.as_group.is_empty() {
            user.impersonate_groups.clone()
        } else {
            flags.as_group.clone()
        },
    };
    if impersonation.user.is_none()
        && (impersonation.uid.is_some() || !impersonation.groups.is_empty())
    {
        return Err(SettingsError::ImpersonationWithoutUser);
    }
    Ok(impersonation)
}

/// The kubeconfig entries chosen by `--context`/`current-context`, `--cluster` and `--user`.
struct Selection<'a> {
    context_name: Option<String>,
    context: Option<&'a Context>,
    cluster_name: Option<String>,
    cluster: Option<&'a Cluster>,
    user_name: Option<String>,
    user: Option<&'a User>,
}

fn select_entries<'a>(
    flags: &ConfigFlags,
    config: &'a Kubeconfig,
) -> Result<Selection<'a>, SettingsError> {
    let context_name = non_empty(flags.context.as_deref())
        .or(non_empty(config.current_context.as_deref()))
        .map(str::to_string);
    let context = match &context_name {
        Some(name) => Some(config.context(name).ok_or_else(|| {
            if non_empty(flags.context.as_deref()).is_some() {
                let mut known: Vec<String> = Vec::new();
                for context in &config.contexts {
                    if !known.contains(&context.name) {
                        known.push(context.name.clone());
                    }
                }
                SettingsError::ContextNotFound {
                    name: name.clone(),
                    known,
                }
            } else {
                SettingsError::CurrentContextNotFound { name: name.clone() }
            }
        })?),
        None => None,
    };

    // A flag names the entry itself; a context only refers to it, which the error should say.
    let (cluster_name, cluster_referrer) = match non_empty(flags.cluster.as_deref()) {
        Some(name) => (Some(name.to_string()), None),
        None => (
            context
                .and_then(|c| non_empty(Some(c.cluster.as_str())))
                .map(str::to_string),
            context_name.clone(),
        ),
    };
    let cluster = match &cluster_name {
        Some(name) => Some(
            config
                .cluster(name)
                .ok_or_else(|| SettingsError::ClusterNotFound {
                    name: name.clone(),
                    context: cluster_referrer,
                })?,
        ),
        None => None,
    };
    if cluster.is_none() && non_empty(flags.server.as_deref()).is_none() {
        if let Some(context) = &context_name {
            return Err(SettingsError::ContextWithoutCluster {
                context: context.clone(),
            });
        }
    }

    let (user_name, user_referrer) = match non_empty(flags.user.as_deref()) {
        Some(name) => (Some(name.to_string()), None),
        None => (
            context
                .and_then(|c| non_empty(Some(c.user.as_str())))
                .map(str::to_string),
            context_name.clone(),
        ),
    };
    let user = match &user_name {
        Some(name) => Some(
            config
                .user(name)
                .ok_or_else(|| SettingsError::UserNotFound {
                    name: name.clone(),
                    context: user_referrer,
                })?,
        ),
        None => None,
    };
    Ok(Selection {
        context_name,
        context,
        cluster_name,
        cluster,
        user_name,
        user,
    })
}

/// What to say when nothing names a server: an empty config is kubectl's "no configuration";
/// a config without a current-context needs `--context`.
fn no_selection_error(config: &Kubeconfig, selection: &Selection<'_>) -> SettingsError {
    match (&selection.context_name, config.is_empty()) {
        (Some(context), _) => SettingsError::ContextWithoutCluster {
            context: context.clone(),
        },
        (None, true) if !config.missing_from_list.is_empty() => SettingsError::NoKubeconfigListed {
            missing: config.missing_from_list.clone(),
        },
        (None, true) => SettingsError::NoConfiguration,
        (None, false) => SettingsError::NoContext,
    }
}

/// The CA bundle and the insecure flag, with client-go's override rules: `--insecure-skip-tls-
/// verify` alone drops the kubeconfig's CA (else every kubeconfig with a CA would refuse the
/// flag), `--certificate-authority` replaces the kubeconfig's CA file and data.
fn resolve_trust(
    flags: &ConfigFlags,
    cluster: &Cluster,
    cluster_label: &str,
) -> Result<(TrustRoots, bool), SettingsError> {
    let flag_ca = flags
        .certificate_authority
        .as_deref()
        .filter(|path| !path.as_os_str().is_empty());
    let insecure = flags.insecure_skip_tls_verify || cluster.insecure_skip_tls_verify;
    let material = match flag_ca {
        Some(path) => Some(Material::from_flag(
            path,
            "certificate-authority",
            "--certificate-authority",
        )),
        None if flags.insecure_skip_tls_verify => None,
        None => Material::from_kubeconfig(
            cluster.certificate_authority_data.as_deref(),
            cluster.certificate_authority.as_deref(),
            "certificate-authority",
            cluster_label,
        ),
    };
    let Some(material) = material else {
        return Ok((TrustRoots::Platform, insecure));
    };
    if insecure {
        return Err(SettingsError::InsecureWithCertificateAuthority {
            origin: material.origin().to_string(),
        });
    }
    let certs = parse_certificates(&material.read()?, material.origin())?;
    Ok((
        TrustRoots::Bundle {
            certs,
            origin: material.origin().to_string(),
        },
        false,
    ))
}

fn non_empty(value: Option<&str>) -> Option<&str> {
    value.filter(|text| !text.is_empty())
}

/// A name or namespace that cannot be one segment of a request path, in client-go's words;
/// the settings, the plan and manifests refuse it before any request.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PathSegmentError {
    #[error(
        "invalid resource name {}: [{reasons}]",
        kw_go::goformat::quote::quote(name)
    )]
    Name { name: String, reasons: String },
    #[error(
        "invalid namespace {}: [{reasons}]",
        kw_go::goformat::quote::quote(namespace)
    )]
    Namespace { namespace: String, reasons: String },
}

/// `name` as one segment of a request path, or why it cannot be.
pub fn check_name(name: &str) -> Result<(), PathSegmentError> {
    match path_segment_refusal(name) {
        Some(reasons) => Err(PathSegmentError::Name {
            name: name.to_string(),
            reasons,
        }),
        None => Ok(()),
    }
}

/// `namespace` as one segment of a request path, or why it cannot be.
pub fn check_namespace(namespace: &str) -> Result<(), PathSegmentError> {
    match path_segment_refusal(namespace) {
        Some(reasons) => Err(PathSegmentError::Namespace {
            namespace: namespace.to_string(),
            reasons,
        }),
        None => Ok(()),
    }
}

/// client-go's `IsValidPathSegmentName`: why a name or namespace cannot be one segment of a
/// request path (`may not be '..'`, `may not contain '/'`), as kubectl words it; `None` when it
/// can. Checked before any request: `/namespaces/../deployments/..` is another path.
pub fn path_segment_refusal(name: &str) -> Option<String> {
    if name == "." || name == ".." {
        return Some(format!("may not be '{name}'"));
    }
    let reasons: Vec<String> = ["/", "%"]
        .iter()
        .filter(|bad| name.contains(*bad))
        .map(|bad| format!("may not contain '{bad}'"))
        .collect();
    (!reasons.is_empty()).then(|| reasons.join(" "))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::auth::CredentialSource;
    use base64::Engine as _;
    use std::path::Path;
    use std::time::Duration;

    fn config(text: &str) -> Kubeconfig {
        kubeconfig::parse(text, Path::new("/kube/config")).unwrap()
    }

    fn b64(bytes: &[u8]) -> String {
        base64::engine::general_purpose::STANDARD.encode(bytes)
    }

    /// A fresh self-signed certificate and its PKCS#8 key, both PEM.
    fn cert_and_key() -> (String, String) {
        let generated = rcgen::generate_simple_self_signed(vec!["localhost".to_string()]).unwrap();
        (generated.cert.pem(), generated.signing_key.serialize_pem())
    }

    const TWO_CONTEXTS: &str = "\
current-context: dev
clusters:
- name: dev-cluster
  cluster: {server: https://dev.example:6443}
- name: prod-cluster
  cluster: {server: 'https://[fd00::1]:8443/k8s/clusters/c-1/'}
contexts:
- name: dev
  context: {cluster: dev-cluster, user: dev-user, namespace: dev-ns}
- name: prod
  context: {cluster: prod-cluster, user: prod-user}
- name: dangling
  context: {cluster: gone, user: dev-user}
users:
- name: dev-user
  user: {token: dev-token}
- name: prod-user
  user: {token: prod-token}
";

    #[test]
    fn current_context_is_used_by_default() {
        let settings = resolve(&ConfigFlags::default(), None, &config(TWO_CONTEXTS)).unwrap();
        assert_eq!(settings.context.as_deref(), Some("dev"));
        assert_eq!(settings.namespace, "dev-ns");
        assert_eq!(settings.connection.server.host, "dev.example");
        assert_eq!(settings.connection.server.port, 6443);
        assert_eq!(
            settings.connection.credentials.token,
            Some(Secret("dev-token".into()))
        );
        assert!(matches!(settings.connection.roots, TrustRoots::Platform));
    }

    #[test]
    fn context_flag_beats_current_context_and_namespace_flag_beats_all() {
        let flags = ConfigFlags {
            context: Some("prod".into()),
            ..ConfigFlags::default()
        };
        let settings = resolve(&flags, None, &config(TWO_CONTEXTS)).unwrap();
        assert_eq!(settings.namespace, "default");
        assert_eq!(settings.connection.server.host, "fd00::1");
        assert_eq!(settings.connection.server.base_path, "/k8s/clusters/c-1");
        assert_eq!(
            settings.connection.credentials.token,
            Some(Secret("prod-token".into()))
        );

        let settings = resolve(&flags, Some("kube-system"), &config(TWO_CONTEXTS)).unwrap();
        assert_eq!(settings.namespace, "kube-system");
    }

    #[test]
    fn cluster_user_and_connection_flags_override_the_context() {
        let flags = ConfigFlags {
            cluster: Some("prod-cluster".into()),
            user: Some("prod-user".into()),
            tls_server_name: Some("api.internal".into()),
            request_timeout: Some("1m30s".into()),
            ..ConfigFlags::default()
        };
        let settings = resolve(&flags, None, &config(TWO_CONTEXTS)).unwrap();
        assert_eq!(settings.connection.server.host, "fd00::1");
        assert_eq!(
            settings.connection.credentials.token,
            Some(Secret("prod-token".into()))
        );
        assert_eq!(
            settings.namespace, "dev-ns",
            "namespace still from the context"
        );
        assert_eq!(
            settings.connection.tls_server_name.as_deref(),
            Some("api.internal")
        );
        assert_eq!(
            settings.connection.request_timeout,
            Some(Duration::from_secs(90))
        );

        let flags = ConfigFlags {
            server: Some("http://127.0.0.1:8080".into()),
            token: Some("flag-token".into()),
            ..ConfigFlags::default()
        };
        let settings = resolve(&flags, None, &config(TWO_CONTEXTS)).unwrap();
        assert_eq!(
            settings.connection.server.to_string(),
            "http://127.0.0.1:8080"
        );
        assert_eq!(
            settings.connection.credentials.token,
            Some(Secret("flag-token".into()))
        );
    }

    #[test]
    fn server_flag_alone_is_enough() {
        let flags = ConfigFlags {
            server: Some("https://127.0.0.1:6443".into()),
            ..ConfigFlags::default()
        };
        let settings = resolve(&flags, None, &Kubeconfig::default()).unwrap();
        assert_eq!(settings.connection.server.port, 6443);
        assert_eq!(settings.namespace, "default");
        assert!(settings.context.is_none() && settings.connection.credentials.token.is_none());
    }

    #[test]
    fn missing_names_are_reported_by_name() {
        let empty = resolve(&ConfigFlags::default(), None, &Kubeconfig::default()).unwrap_err();
        assert!(matches!(empty, SettingsError::NoConfiguration), "{empty}");
        assert!(empty.to_string().contains("--server"));

        let flags = |context: &str| ConfigFlags {
            context: Some(context.into()),
            ..ConfigFlags::default()
        };
        let error = resolve(&flags("nope"), None, &config(TWO_CONTEXTS)).unwrap_err();
        assert_eq!(
            error.to_string(),
            "context \"nope\" does not exist; contexts in the kubeconfig: dev, prod, dangling"
        );
        let error = resolve(&flags("porod"), None, &config(TWO_CONTEXTS)).unwrap_err();
        assert!(
            error.to_string().contains("; did you mean \"prod\"? "),
            "{error}"
        );
        let error = resolve(&flags("dangling"), None, &config(TWO_CONTEXTS)).unwrap_err();
        assert!(
            matches!(error, SettingsError::ClusterNotFound { .. }),
            "{error}"
        );
        assert!(error.to_string().contains("\"gone\"") && error.to_string().contains("dangling"));

        let user_flag = ConfigFlags {
            user: Some("mallory".into()),
            ..ConfigFlags::default()
        };
        let error = resolve(&user_flag, None, &config(TWO_CONTEXTS)).unwrap_err();
        assert_eq!(error.to_string(), "user \"mallory\" does not exist");

        let no_current = config("clusters:\n- name: c\n  cluster: {server: https://a}\n");
        let error = resolve(&ConfigFlags::default(), None, &no_current).unwrap_err();
        assert!(matches!(error, SettingsError::NoContext), "{error}");
        let stale = config("current-context: old\n");
        let error = resolve(&ConfigFlags::default(), None, &stale).unwrap_err();
        assert!(
            matches!(error, SettingsError::CurrentContextNotFound { .. }),
            "{error}"
        );
    }

    #[test]
    fn server_urls_parse_like_kubectl() {
        let url = parse_server_url("https://10.0.0.1").unwrap();
        assert_eq!(
            (url.scheme, url.host.as_str(), url.port),
            (Scheme::Https, "10.0.0.1", 443)
        );
        let url = parse_server_url("http://localhost").unwrap();
        assert_eq!((url.scheme, url.port), (Scheme::Http, 80));
        let url = parse_server_url("HTTPS://[::1]:6443/").unwrap();
        assert_eq!(
            (url.host.as_str(), url.port, url.base_path.as_str()),
            ("::1", 6443, "")
        );
        assert_eq!(url.to_string(), "https://[::1]:6443");
        let url = parse_server_url("k8s.example:8443").unwrap();
        assert_eq!((url.scheme, url.port), (Scheme::Https, 8443));
        for bad in [
            "ftp://x",
            "https://",
            "https://::1:6443",
            "https://[::1",
            "https://[zz]:1",
            "https://h:0",
            "https://h:99999",
            "https://h:x",
            "https://u:p@h",
            "https://h/?q=1",
            "https://bad host",
        ] {
            assert!(parse_server_url(bad).is_err(), "{bad} should be rejected");
        }
        let text = "current-context: c\ncontexts: [{name: c, context: {cluster: k}}]\n\
                    clusters: [{name: k, cluster: {server: 'ftp://x'}}]\n";
        let error = resolve(&ConfigFlags::default(), None, &config(text)).unwrap_err();
        assert!(
            error.to_string().contains("cluster \"k\" (field server)"),
            "{error}"
        );
    }

    fn tls_config(cluster_fields: &str, user_fields: &str) -> Kubeconfig {
        config(&format!(
            "current-context: c\ncontexts: [{{name: c, context: {{cluster: k, user: u}}}}]\n\
             clusters: [{{name: k, cluster: {{server: 'https://127.0.0.1:6443'{cluster_fields}}}}}]\n\
             users: [{{name: u, user: {{{user_fields}}}}}]\n"
        ))
    }

    #[test]
    fn certificate_authority_data_and_files_become_a_bundle() {
        let (ca, _) = cert_and_key();
        let settings = resolve(
            &ConfigFlags::default(),
            None,
            &tls_config(
                &format!(", certificate-authority-data: {}", b64(ca.as_bytes())),
                "",
            ),
        )
        .unwrap();
        let TrustRoots::Bundle { certs, origin } = &settings.connection.roots else {
            panic!("expected a bundle");
        };
        assert_eq!(certs.len(), 1);
        assert!(origin.contains("certificate-authority-data"));

        let dir = tempfile::tempdir().unwrap();
        let ca_path = dir.path().join("ca.pem");
        std::fs::write(&ca_path, format!("{ca}{ca}")).unwrap();
        let flags = ConfigFlags {
            certificate_authority: Some(ca_path),
            ..ConfigFlags::default()
        };
        let settings = resolve(&flags, None, &tls_config("", "")).unwrap();
        assert!(
            matches!(&settings.connection.roots, TrustRoots::Bundle { certs, .. } if certs.len() == 2)
        );
    }

    #[test]
    fn bad_certificate_authorities_are_named() {
        let cases = [
            (
                ", certificate-authority-data: '!!notbase64'",
                "not valid base64",
            ),
            (
                ", certificate-authority-data: aGVsbG8=",
                "holds no PEM certificate",
            ),
            (
                ", certificate-authority: /no/such/ca.pem",
                "/no/such/ca.pem",
            ),
        ];
        for (fields, expected) in cases {
            let error =
                resolve(&ConfigFlags::default(), None, &tls_config(fields, "")).unwrap_err();
            let message = error.to_string();
            assert!(message.contains(expected), "{fields}: {message}");
            assert!(message.contains("cluster \"k\""), "{fields}: {message}");
        }
        let garbage = "-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----\n";
        let fields = format!(", certificate-authority-data: {}", b64(garbage.as_bytes()));
        let error = resolve(&ConfigFlags::default(), None, &tls_config(&fields, "")).unwrap_err();
        assert!(
            matches!(
                error,
                SettingsError::Pem(PemError::InvalidCertificate { .. })
            ),
            "{error}"
        );
    }

    #[test]
    fn insecure_with_a_ca_is_refused_but_the_insecure_flag_drops_the_kubeconfig_ca() {
        let (ca, _) = cert_and_key();
        let with_ca = format!(", certificate-authority-data: {}", b64(ca.as_bytes()));
        let both = tls_config(&format!("{with_ca}, insecure-skip-tls-verify: true"), "");
        let error = resolve(&ConfigFlags::default(), None, &both).unwrap_err();
        assert!(
            matches!(
                error,
                SettingsError::InsecureWithCertificateAuthority { .. }
            ),
            "{error}"
        );

        let flags = ConfigFlags {
            insecure_skip_tls_verify: true,
            ..ConfigFlags::default()
        };
        let settings = resolve(&flags, None, &tls_config(&with_ca, "")).unwrap();
        assert!(settings.connection.insecure_skip_tls_verify);
        assert!(matches!(settings.connection.roots, TrustRoots::Platform));
    }

    #[test]
    fn client_certificate_and_key_load_and_must_match() {
        let (cert, key) = cert_and_key();
        let (_, other_key) = cert_and_key();
        let fields = |key: &str| {
            format!(
                "client-certificate-data: {}, client-key-data: {}, token: also",
                b64(cert.as_bytes()),
                b64(key.as_bytes())
            )
        };
        let settings = resolve(
            &ConfigFlags::default(),
            None,
            &tls_config("", &fields(&key)),
        )
        .unwrap();
        let identity = settings
            .connection
            .credentials
            .client_identity
            .as_ref()
            .unwrap();
        assert_eq!(identity.chain.len(), 1);
        assert_eq!(
            settings.connection.credentials.token,
            Some(Secret("also".into())),
            "both are used"
        );

        let error = resolve(
            &ConfigFlags::default(),
            None,
            &tls_config("", &fields(&other_key)),
        )
        .unwrap_err();
        assert!(
            matches!(
                error,
                SettingsError::Credentials(CredentialsError::Pem(PemError::KeyMismatch { .. }))
            ),
            "{error}"
        );
        assert!(error.to_string().contains("does not match"));

        let only_cert = format!("client-certificate-data: {}", b64(cert.as_bytes()));
        let error =
            resolve(&ConfigFlags::default(), None, &tls_config("", &only_cert)).unwrap_err();
        assert!(
            matches!(
                error,
                SettingsError::Credentials(CredentialsError::CertificateWithoutKey { .. })
            ),
            "{error}"
        );

        let dir = tempfile::tempdir().unwrap();
        let key_path = dir.path().join("key.pem");
        std::fs::write(&key_path, &key).unwrap();
        let only_key = ConfigFlags {
            client_key: Some(key_path.clone()),
            ..ConfigFlags::default()
        };
        let error = resolve(&only_key, None, &tls_config("", "")).unwrap_err();
        assert!(
            matches!(
                error,
                SettingsError::Credentials(CredentialsError::KeyWithoutCertificate { .. })
            ),
            "{error}"
        );

        // A certificate file where the key should be: no key in it.
        let cert_path = dir.path().join("cert.pem");
        std::fs::write(&cert_path, &cert).unwrap();
        let swapped = ConfigFlags {
            client_certificate: Some(cert_path.clone()),
            client_key: Some(cert_path),
            ..ConfigFlags::default()
        };
        let error = resolve(&swapped, None, &tls_config("", "")).unwrap_err();
        assert!(
            matches!(
                error,
                SettingsError::Credentials(CredentialsError::Pem(PemError::NoPrivateKey { .. }))
            ),
            "{error}"
        );
    }

    #[test]
    fn token_files_are_read_now_and_kept_for_rereading() {
        let dir = tempfile::tempdir().unwrap();
        let token_path = dir.path().join("token");
        std::fs::write(&token_path, "file-token\n").unwrap();
        let text = "current-context: c\ncontexts: [{name: c, context: {cluster: k, user: u}}]\n\
                    clusters: [{name: k, cluster: {server: 'https://h'}}]\n\
                    users: [{name: u, user: {tokenFile: token}}]\n";
        let loaded = kubeconfig::parse(text, &dir.path().join("config")).unwrap();
        let settings = resolve(&ConfigFlags::default(), None, &loaded).unwrap();
        assert_eq!(
            settings.connection.credentials.token,
            Some(Secret("file-token".into()))
        );
        assert_eq!(
            settings.connection.credentials.token_file.as_deref(),
            Some(&*token_path)
        );

        std::fs::remove_file(&token_path).unwrap();
        let error = resolve(&ConfigFlags::default(), None, &loaded).unwrap_err();
        assert!(
            matches!(
                error,
                SettingsError::Credentials(CredentialsError::Material(
                    MaterialError::ReadFile { .. }
                ))
            ),
            "{error}"
        );
        assert!(error.to_string().contains("token"), "{error}");
    }

    #[test]
    fn exec_users_are_checked_and_kept_for_the_client() {
        let exec = "exec: {apiVersion: client.authentication.k8s.io/v1beta1, command: aws, args: null, provideClusterInfo: true}";
        let settings = resolve(&ConfigFlags::default(), None, &tls_config("", exec)).unwrap();
        let plugin = settings.connection.credentials.exec.as_ref().unwrap();
        assert_eq!(plugin.command, "aws");
        let info = plugin.cluster_info.as_ref().unwrap();
        assert_eq!(info["server"], "https://127.0.0.1:6443");
        assert!(matches!(
            settings.connection.credentials.source(),
            CredentialSource::Exec(_)
        ));

        let alpha = "exec: {apiVersion: client.authentication.k8s.io/v1alpha1, command: aws}";
        let error = resolve(&ConfigFlags::default(), None, &tls_config("", alpha)).unwrap_err();
        assert!(error.to_string().contains("user \"u\""), "{error}");
        assert!(error.to_string().contains("regenerate"), "{error}");

        // A token next to the plugin wins, as in client-go.
        let both = format!("token: t, {exec}");
        let settings = resolve(&ConfigFlags::default(), None, &tls_config("", &both)).unwrap();
        assert!(matches!(
            settings.connection.credentials.source(),
            CredentialSource::Token(_)
        ));
    }

    #[test]
    fn legacy_auth_providers_say_what_to_do() {
        for (name, expected) in [("gcp", "gke-gcloud-auth-plugin"), ("azure", "kubelogin")] {
            let provider = format!("auth-provider: {{name: {name}, config: {{access-token: x}}}}");
            let error =
                resolve(&ConfigFlags::default(), None, &tls_config("", &provider)).unwrap_err();
            let message = error.to_string();
            assert!(
                message.contains("removed") && message.contains(expected),
                "{message}"
            );
            assert!(!message.contains('\n'));
        }
        let jwt = |exp: u64| {
            use base64::Engine as _;
            let payload = base64::engine::general_purpose::URL_SAFE_NO_PAD
                .encode(format!("{{\"exp\":{exp}}}"));
            format!("eyJhbGciOiJub25lIn0.{payload}.sig")
        };
        let valid = jwt(4_000_000_000);
        let provider = format!("auth-provider: {{name: oidc, config: {{id-token: '{valid}'}}}}");
        let settings = resolve(&ConfigFlags::default(), None, &tls_config("", &provider)).unwrap();
        assert_eq!(settings.connection.credentials.token, Some(Secret(valid)));
        let expired = jwt(1_000_000_000);
        let provider = format!("auth-provider: {{name: oidc, config: {{id-token: '{expired}'}}}}");
        let error = resolve(&ConfigFlags::default(), None, &tls_config("", &provider)).unwrap_err();
        assert!(
            error.to_string().contains("expired at 2001-09-09"),
            "{error}"
        );
        assert!(!error.to_string().contains(&expired));
    }

    #[test]
    fn impersonation_flags_replace_the_kubeconfig() {
        let user = "token: t, as: jane, as-groups: [dev, ops], as-uid: '42'";
        let settings = resolve(&ConfigFlags::default(), None, &tls_config("", user)).unwrap();
        assert_eq!(
            settings.connection.impersonate,
            Impersonation {
                user: Some("jane".into()),
                uid: Some("42".into()),
                groups: vec!["dev".into(), "ops".into()]
            }
        );
        let flags = ConfigFlags {
            as_user: Some("bob".into()),
            as_group: vec!["qa".into()],
            ..ConfigFlags::default()
        };
        let settings = resolve(&flags, None, &tls_config("", user)).unwrap();
        assert_eq!(settings.connection.impersonate.user.as_deref(), Some("bob"));
        assert_eq!(
            settings.connection.impersonate.groups,
            vec!["qa".to_string()]
        );
        let groups_only = ConfigFlags {
            as_group: vec!["qa".into()],
            ..ConfigFlags::default()
        };
        let error = resolve(&groups_only, None, &tls_config("", "token: t")).unwrap_err();
        assert!(
            matches!(error, SettingsError::ImpersonationWithoutUser),
            "{error}"
        );
    }

    #[test]
    fn proxy_urls_are_checked_by_cluster() {
        let settings = resolve(
            &ConfigFlags::default(),
            None,
            &tls_config(", proxy-url: 'socks5://127.0.0.1:1080'", ""),
        )
        .unwrap();
        assert_eq!(settings.connection.proxy.unwrap().port, 1080);
        let error = resolve(
            &ConfigFlags::default(),
            None,
            &tls_config(", proxy-url: 'ftp://u:hunter2@p'", ""),
        )
        .unwrap_err();
        let message = error.to_string();
        assert!(message.contains("proxy-url of cluster \"k\""), "{message}");
        assert!(!message.contains("hunter2"), "{message}");
    }

    #[test]
    fn errors_never_show_secrets() {
        let (cert, _) = cert_and_key();
        let (_, key) = cert_and_key();
        let key_data = b64(key.as_bytes());
        let fields = format!(
            "token: topsecret, client-certificate-data: {}, client-key-data: {key_data}",
            b64(cert.as_bytes())
        );
        let error = resolve(&ConfigFlags::default(), None, &tls_config("", &fields)).unwrap_err();
        let shown = format!("{error} {error:?}");
        assert!(
            !shown.contains("topsecret") && !shown.contains(&key_data[..20]),
            "{shown}"
        );
    }
}
