//! In-cluster configuration: inside a pod with no kubeconfig, kubectl talks to
//! `https://$KUBERNETES_SERVICE_HOST:$KUBERNETES_SERVICE_PORT` with the pod's service-account
//! token, CA and namespace. This module turns that into an ordinary in-memory kubeconfig (one
//! cluster, one user with a `tokenFile`, one context), so flags override it and the rotating
//! token is re-read exactly as a kubeconfig `tokenFile` is.
//!
//! The service-account directory can be moved for tests only through `KW_SERVICE_ACCOUNT_DIR`,
//! read in [`InClusterEnv::from_process`] and nowhere else.

use std::path::{Path, PathBuf};

use crate::config::kubeconfig::{
    Cluster, Context, Kubeconfig, NamedCluster, NamedContext, NamedUser, User,
};

/// Where Kubernetes mounts the service-account token, CA and namespace.
pub const SERVICE_ACCOUNT_DIR: &str = "/var/run/secrets/kubernetes.io/serviceaccount";
/// Test hook: another directory to read the service-account files from.
pub const SERVICE_ACCOUNT_DIR_ENV: &str = "KW_SERVICE_ACCOUNT_DIR";
/// The name of the cluster, user and context in the generated kubeconfig.
pub const NAME: &str = "in-cluster";

/// The environment that decides whether kw runs in a pod.
#[derive(Debug, Clone, Default)]
pub struct InClusterEnv {
    pub host: Option<String>,
    pub port: Option<String>,
    /// `POD_NAMESPACE` (set through the downward API) beats the namespace file.
    pub pod_namespace: Option<String>,
    pub dir: PathBuf,
}

impl InClusterEnv {
    /// The one place the in-cluster variables are read.
    pub fn from_process() -> InClusterEnv {
        let var = |name: &str| std::env::var(name).ok().filter(|v| !v.is_empty());
        InClusterEnv {
            host: var("KUBERNETES_SERVICE_HOST"),
            port: var("KUBERNETES_SERVICE_PORT"),
            pod_namespace: var("POD_NAMESPACE"),
            dir: std::env::var_os(SERVICE_ACCOUNT_DIR_ENV)
                .filter(|v| !v.is_empty())
                .map(PathBuf::from)
                .unwrap_or_else(|| PathBuf::from(SERVICE_ACCOUNT_DIR)),
        }
    }

    /// The in-cluster kubeconfig, when the service variables are set and the token file exists
    /// (client-go's `Possible()`).
    pub fn kubeconfig(&self) -> Option<Kubeconfig> {
        let (host, port) = (self.host.as_deref()?, self.port.as_deref()?);
        let token = self.dir.join("token");
        if !std::fs::metadata(&token).is_ok_and(|meta| meta.is_file()) {
            return None;
        }
        // An IPv6 service address must be bracketed in a URL.
        let server = if host.contains(':') && !host.starts_with('[') {
            format!("https://[{host}]:{port}")
        } else {
            format!("https://{host}:{port}")
        };
        let namespace = self
            .pod_namespace
            .clone()
            .or_else(|| read_trimmed(&self.dir.join("namespace")));
        let ca = self.dir.join("ca.crt");
        Some(Kubeconfig {
            clusters: vec![NamedCluster {
                name: NAME.into(),
                cluster: Cluster {
                    server: Some(server),
                    certificate_authority: ca.exists().then_some(ca),
                    ..Cluster::default()
                },
            }],
            users: vec![NamedUser {
                name: NAME.into(),
                user: User {
                    token_file: Some(token),
                    ..User::default()
                },
            }],
            contexts: vec![NamedContext {
                name: NAME.into(),
                context: Context {
                    cluster: NAME.into(),
                    user: NAME.into(),
                    namespace,
                    ..Context::default()
                },
            }],
            current_context: Some(NAME.into()),
            ..Kubeconfig::default()
        })
    }
}

fn read_trimmed(path: &Path) -> Option<String> {
    let text = std::fs::read_to_string(path).ok()?;
    Some(text.trim().to_string()).filter(|t| !t.is_empty())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn needs_both_variables_and_a_token_file() {
        let dir = tempfile::tempdir().unwrap();
        let mut env = InClusterEnv {
            host: Some("10.96.0.1".into()),
            port: Some("443".into()),
            pod_namespace: None,
            dir: dir.path().to_path_buf(),
        };
        assert!(env.kubeconfig().is_none(), "no token file yet");
        std::fs::write(dir.path().join("token"), "t\n").unwrap();
        std::fs::write(dir.path().join("namespace"), "apps\n").unwrap();
        let config = env.kubeconfig().unwrap();
        assert_eq!(
            config.cluster(NAME).unwrap().server.as_deref(),
            Some("https://10.96.0.1:443")
        );
        assert!(config
            .cluster(NAME)
            .unwrap()
            .certificate_authority
            .is_none());
        assert_eq!(
            config.context(NAME).unwrap().namespace.as_deref(),
            Some("apps")
        );

        env.host = Some("fd00::1".into());
        env.pod_namespace = Some("from-downward-api".into());
        let config = env.kubeconfig().unwrap();
        assert_eq!(
            config.cluster(NAME).unwrap().server.as_deref(),
            Some("https://[fd00::1]:443")
        );
        assert_eq!(
            config.context(NAME).unwrap().namespace.as_deref(),
            Some("from-downward-api")
        );
        env.port = None;
        assert!(env.kubeconfig().is_none());
    }
}
