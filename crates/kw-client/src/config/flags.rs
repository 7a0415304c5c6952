//! kubectl's global flags: how to reach and authenticate to the cluster, and the namespace. They
//! are the configuration layer's input (`settings` resolves them with the kubeconfig), so they
//! live here and the command line (`cli`) embeds them; configuration never reads the rest of
//! the command line.

use std::path::PathBuf;
use std::time::Duration;

use clap::Args;

/// How to reach and authenticate to the cluster, and the namespace (kubectl's global flags).
/// Every one is `global`: clap accepts it before the subcommand or after it. Each overrides
/// itself: given twice (`alias k='kw -n prod'`, then `k get pods -n dev`), the last one wins, as
/// in kubectl, instead of clap's "cannot be used multiple times".
#[derive(Debug, Args, Default, Clone)]
pub struct ConfigFlags {
    /// Namespace to use (default: the context's, else `default`); a comma list or globs
    /// (`-n web,api`, `-n 'team-*'`) choose several, laid out as with -A.
    #[arg(
        short = 'n',
        long,
        value_name = "NAMESPACE",
        global = true,
        overrides_with = "namespace"
    )]
    pub namespace: Option<String>,

    /// Path to the kubeconfig file to use (that file only; otherwise $KUBECONFIG, then ~/.kube/config).
    #[arg(
        long,
        value_name = "PATH",
        global = true,
        overrides_with = "kubeconfig"
    )]
    pub kubeconfig: Option<PathBuf>,

    /// The kubeconfig context to use; a comma list or globs (`--context eu,us`, `--context
    /// 'prod-*'`) watch several clusters at once, merged into one stream with a CONTEXT column.
    #[arg(long, value_name = "NAME", global = true, overrides_with = "context")]
    pub context: Option<String>,

    /// Run in every context of the kubeconfig at once (as --context with all their names).
    #[arg(long, global = true)]
    pub all_contexts: bool,

    /// The kubeconfig cluster to use.
    #[arg(long, value_name = "NAME", global = true, overrides_with = "cluster")]
    pub cluster: Option<String>,

    /// The kubeconfig user to use.
    #[arg(long, value_name = "NAME", global = true, overrides_with = "user")]
    pub user: Option<String>,

    /// The address of the API server (`https://host:port`).
    #[arg(
        short = 's',
        long,
        value_name = "URL",
        global = true,
        overrides_with = "server"
    )]
    pub server: Option<String>,

    /// Bearer token for authentication.
    #[arg(long, value_name = "TOKEN", global = true, overrides_with = "token")]
    pub token: Option<String>,

    /// Path to a PEM file of CA certificates to verify the server with.
    #[arg(
        long,
        value_name = "PATH",
        global = true,
        overrides_with = "certificate_authority"
    )]
    pub certificate_authority: Option<PathBuf>,

    /// Path to a PEM client certificate.
    #[arg(
        long,
        value_name = "PATH",
        global = true,
        overrides_with = "client_certificate"
    )]
    pub client_certificate: Option<PathBuf>,

    /// Path to the PEM key of the client certificate.
    #[arg(
        long,
        value_name = "PATH",
        global = true,
        overrides_with = "client_key"
    )]
    pub client_key: Option<PathBuf>,

    /// Server name to verify the server's certificate against, instead of the host.
    #[arg(
        long,
        value_name = "NAME",
        global = true,
        overrides_with = "tls_server_name"
    )]
    pub tls_server_name: Option<String>,

    /// Do not verify the server's certificate. Insecure: kw warns every time.
    // `=true`/`=false` as well, since kubectl (pflag) takes them for every boolean flag.
    #[arg(
        long,
        global = true,
        num_args = 0..=1,
        require_equals = true,
        default_missing_value = "true",
        default_value = "false",
        hide_default_value = true,
        value_name = "BOOL",
        value_parser = clap::builder::BoolishValueParser::new(),
        hide_possible_values = true,
        overrides_with = "insecure_skip_tls_verify"
    )]
    pub insecure_skip_tls_verify: bool,

    /// Username to impersonate for the operation (a user or a service account).
    #[arg(
        long = "as",
        value_name = "USER",
        global = true,
        overrides_with = "as_user"
    )]
    pub as_user: Option<String>,

    /// Group to impersonate for the operation; repeat for several groups.
    #[arg(long = "as-group", value_name = "GROUP", global = true)]
    pub as_group: Vec<String>,

    /// UID to impersonate for the operation.
    #[arg(
        long = "as-uid",
        value_name = "UID",
        global = true,
        overrides_with = "as_uid"
    )]
    pub as_uid: Option<String>,

    /// Give up on a request after this long (`30s`, `2m`; a bare number is seconds; 0 = never).
    /// Also cuts a watch after this long, as in kubectl.
    #[arg(
        long,
        value_name = "DURATION",
        global = true,
        overrides_with = "request_timeout"
    )]
    pub request_timeout: Option<String>,

    /// Not a flag: the user's kuberc `credentialPluginPolicy`, which every exec plugin of
    /// every context is checked against before it is started.
    #[arg(skip)]
    pub credential_plugin_policy: crate::config::plugin_policy::PluginPolicy,
}

/// A `--request-timeout` that is not a duration.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("invalid --request-timeout \"{value}\": {reason}")]
pub struct RequestTimeoutError {
    value: String,
    reason: String,
}

impl ConfigFlags {
    /// `--request-timeout`, parsed (`None`: no limit). Pure, so a command checks it with its
    /// other flags, before the kubeconfig is read.
    pub fn request_timeout(&self) -> Result<Option<Duration>, RequestTimeoutError> {
        self.request_timeout
            .as_deref()
            .map_or(Ok(None), parse_request_timeout)
    }

    /// The first flag given that chooses a cluster or credentials (everything but the namespace
    /// and the request timeout), for commands that bring their own cluster (`kw demo`).
    pub fn cluster_choice(&self) -> Option<&'static str> {
        let given = [
            ("--kubeconfig", self.kubeconfig.is_some()),
            ("--context", self.context.is_some()),
            ("--all-contexts", self.all_contexts),
            ("--cluster", self.cluster.is_some()),
            ("--user", self.user.is_some()),
            ("--server", self.server.is_some()),
            ("--token", self.token.is_some()),
            (
                "--certificate-authority",
                self.certificate_authority.is_some(),
            ),
            ("--client-certificate", self.client_certificate.is_some()),
            ("--client-key", self.client_key.is_some()),
            ("--tls-server-name", self.tls_server_name.is_some()),
            ("--insecure-skip-tls-verify", self.insecure_skip_tls_verify),
            ("--as", self.as_user.is_some()),
            ("--as-group", !self.as_group.is_empty()),
            ("--as-uid", self.as_uid.is_some()),
        ];
        given.iter().find(|(_, set)| *set).map(|(flag, _)| *flag)
    }
}

/// `--request-timeout`: `0` means none, a bare integer is seconds, else a Go duration
/// (`30s`, `1m`, `1h30m`, `500ms`, `1.5s`).
pub fn parse_request_timeout(value: &str) -> Result<Option<Duration>, RequestTimeoutError> {
    let error = |reason: &str| RequestTimeoutError {
        value: value.to_string(),
        reason: reason.to_string(),
    };
    let text = value.trim();
    if text.is_empty() {
        return Err(error("empty"));
    }
    let duration = if text.bytes().all(|b| b.is_ascii_digit()) {
        let seconds: u64 = text.parse().map_err(|_| error("number too large"))?;
        Duration::from_secs(seconds)
    } else {
        kw_go::goformat::duration::parse(text).map_err(|reason| error(&reason))?
    };
    Ok(if duration.is_zero() {
        None
    } else {
        Some(duration)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn request_timeouts_follow_kubectl() {
        let parse = |text: &str| parse_request_timeout(text);
        assert_eq!(parse("0").unwrap(), None);
        assert_eq!(parse("0s").unwrap(), None);
        assert_eq!(parse("45").unwrap(), Some(Duration::from_secs(45)));
        assert_eq!(parse("30s").unwrap(), Some(Duration::from_secs(30)));
        assert_eq!(parse("1m").unwrap(), Some(Duration::from_secs(60)));
        assert_eq!(parse("1h30m").unwrap(), Some(Duration::from_secs(5400)));
        assert_eq!(parse("500ms").unwrap(), Some(Duration::from_millis(500)));
        assert_eq!(parse("1.5s").unwrap(), Some(Duration::from_millis(1500)));
        for bad in [
            "",
            "abc",
            "10x",
            "-5s",
            "5 s",
            "1..2s",
            "m",
            "99999999999999999999h",
        ] {
            let error = parse(bad).unwrap_err();
            assert!(
                error.to_string().contains("--request-timeout"),
                "{bad}: {error}"
            );
        }
    }
}
