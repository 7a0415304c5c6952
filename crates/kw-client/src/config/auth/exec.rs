//! Exec credential plugins (`users[].user.exec`): the checked configuration, running the plugin
//! the way client-go does, and reading the `ExecCredential` it prints. Caching and refreshing
//! live in `auth`; this module runs the plugin once per call and never logs what it returns.
//!
//! Protocol: <https://kubernetes.io/docs/reference/access-authn-authz/authentication/#client-go-credential-plugins>.

use std::ffi::OsStr;
use std::io::{IsTerminal, Read};
use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant, SystemTime};

use base64::Engine;
use kw_base::process_group::Group;
use serde::Deserialize;

use super::error::{unsendable_character, AuthError};
use crate::config::endpoint::Secret;
use crate::config::plugin_policy::PluginPolicy;

pub const V1: &str = "client.authentication.k8s.io/v1";
pub const V1BETA1: &str = "client.authentication.k8s.io/v1beta1";
pub const V1ALPHA1: &str = "client.authentication.k8s.io/v1alpha1";

/// The largest ExecCredential kw reads from a plugin; real ones are a few kilobytes.
const MAX_OUTPUT_BYTES: usize = 1 << 20;

/// When the plugin may talk to the user on the terminal.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum InteractiveMode {
    Never,
    IfAvailable,
    Always,
}

/// A checked exec plugin configuration: everything needed to run it, no I/O done yet.
#[derive(Debug, Clone)]
pub struct ExecPlugin {
    pub api_version: String,
    /// A bare name (looked up in PATH) or an absolute path (resolved at load time).
    pub command: String,
    pub args: Vec<String>,
    /// Added to kw's own environment, in order (a later entry wins).
    pub env: Vec<(String, String)>,
    pub install_hint: Option<String>,
    pub interactive_mode: InteractiveMode,
    /// The `spec.cluster` object of `KUBERNETES_EXEC_INFO`, when `provideClusterInfo` is set.
    pub cluster_info: Option<serde_json::Value>,
    /// `user "NAME"`, for messages.
    pub user_label: String,
    /// Which plugins the user lets run (kuberc's `credentialPluginPolicy`), checked before the
    /// process is started.
    pub policy: PluginPolicy,
}

/// Why an exec configuration in the kubeconfig cannot be used (found before connecting).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ExecConfigError {
    #[error("{user_label}: exec plugin has no command")]
    NoCommand { user_label: String },
    #[error("{user_label}: exec plugin has no apiVersion; use {V1} (or {V1BETA1})")]
    NoApiVersion { user_label: String },
    #[error(
        "{user_label}: exec plugin apiVersion {V1ALPHA1} was removed in Kubernetes 1.24; \
         regenerate the kubeconfig with a current version of the tool that wrote it \
         (e.g. `aws eks update-kubeconfig`) or change exec.apiVersion to {V1BETA1}"
    )]
    Alpha { user_label: String },
    #[error(
        "{user_label}: exec plugin apiVersion {version:?} is not supported (use {V1} or {V1BETA1})"
    )]
    UnknownApiVersion { user_label: String, version: String },
    #[error("{user_label}: exec plugin with apiVersion {V1} must set interactiveMode (Never, IfAvailable or Always)")]
    InteractiveModeRequired { user_label: String },
    #[error(
        "{user_label}: exec plugin interactiveMode {mode:?} is invalid (use Never, IfAvailable or Always)"
    )]
    BadInteractiveMode { user_label: String, mode: String },
}

impl ExecPlugin {
    /// Checks a kubeconfig `exec` entry as client-go does when it loads it.
    pub fn from_config(
        config: &crate::config::kubeconfig::ExecConfig,
        user_label: &str,
        cluster_info: Option<serde_json::Value>,
        policy: &PluginPolicy,
    ) -> Result<ExecPlugin, ExecConfigError> {
        let user_label = user_label.to_string();
        if config.command.is_empty() {
            return Err(ExecConfigError::NoCommand { user_label });
        }
        let api_version = config.api_version.clone().unwrap_or_default();
        match api_version.as_str() {
            V1 | V1BETA1 => {}
            "" => return Err(ExecConfigError::NoApiVersion { user_label }),
            V1ALPHA1 => return Err(ExecConfigError::Alpha { user_label }),
            _ => {
                return Err(ExecConfigError::UnknownApiVersion {
                    user_label,
                    version: api_version,
                })
            }
        }
        let interactive_mode = match config.interactive_mode.as_deref().unwrap_or("") {
            "Never" => InteractiveMode::Never,
            "IfAvailable" => InteractiveMode::IfAvailable,
            "Always" => InteractiveMode::Always,
            // v1beta1 defaults to IfAvailable; v1 made the field required.
            "" if api_version == V1BETA1 => InteractiveMode::IfAvailable,
            "" => return Err(ExecConfigError::InteractiveModeRequired { user_label }),
            other => {
                return Err(ExecConfigError::BadInteractiveMode {
                    user_label,
                    mode: other.to_string(),
                })
            }
        };
        Ok(ExecPlugin {
            api_version,
            command: config.command.clone(),
            args: config.args.clone(),
            env: config
                .env
                .iter()
                .map(|var| (var.name.clone(), var.value.clone()))
                .collect(),
            install_hint: config
                .install_hint
                .as_deref()
                .map(one_line)
                .filter(|hint| !hint.is_empty()),
            interactive_mode,
            cluster_info: if config.provide_cluster_info {
                cluster_info
            } else {
                None
            },
            user_label,
            policy: policy.clone(),
        })
    }
}

/// What a plugin returned.
#[derive(Debug, Clone)]
pub struct ExecOutput {
    pub token: Option<Secret>,
    /// PEM certificate chain and key.
    pub client_certificate: Option<(String, Secret)>,
    pub expires: Option<SystemTime>,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct ExecCredential {
    #[serde(default)]
    api_version: String,
    #[serde(default)]
    kind: String,
    status: Option<ExecStatus>,
}

#[derive(Deserialize, Default)]
#[serde(default, rename_all = "camelCase")]
struct ExecStatus {
    token: Option<Secret>,
    client_certificate_data: Option<String>,
    client_key_data: Option<Secret>,
    expiration_timestamp: Option<String>,
}

/// Runs the plugin once and returns its credential. A plugin still running after `limit` (the
/// time `--timeout` or `--request-timeout` leaves) is killed: it runs while the context's
/// credential is locked, so a plugin that hangs would hold every request of the context.
pub fn run(plugin: &ExecPlugin, limit: Option<Duration>) -> Result<ExecOutput, AuthError> {
    // The user's policy first: a refused plugin is never started, whatever else is wrong.
    let path = std::env::var_os("PATH").unwrap_or_default();
    plugin
        .policy
        .check(&plugin.command, |name| find_in_path(name, &path))
        .map_err(|refusal| AuthError::Refused {
            user_label: plugin.user_label.clone(),
            refusal,
        })?;
    let deadline = limit.and_then(|limit| Instant::now().checked_add(limit));
    let stdin_is_terminal = std::io::stdin().is_terminal();
    let interactive = match plugin.interactive_mode {
        InteractiveMode::Never => false,
        InteractiveMode::IfAvailable => stdin_is_terminal,
        InteractiveMode::Always if stdin_is_terminal => true,
        InteractiveMode::Always => {
            return Err(plugin_error(
                plugin,
                "needs an interactive terminal (interactiveMode: Always) but standard input is not a terminal",
            ))
        }
    };
    let mut spec = serde_json::json!({ "interactive": interactive });
    if let Some(cluster) = &plugin.cluster_info {
        spec["cluster"] = cluster.clone();
    }
    let exec_info = serde_json::json!({
        "apiVersion": plugin.api_version,
        "kind": "ExecCredential",
        "spec": spec,
    });

    let not_found = || AuthError::PluginNotFound {
        user_label: plugin.user_label.clone(),
        command: plugin.command.clone(),
        hint: plugin.install_hint.clone(),
    };
    let program = if plugin.command.contains(std::path::MAIN_SEPARATOR) {
        PathBuf::from(&plugin.command)
    } else {
        // Looked up by kw, not by the OS: execvp would also search `.` and empty PATH entries,
        // running whatever a bare name matches in the current directory (Go refuses since 1.19).
        find_in_path(&plugin.command, &path).ok_or_else(not_found)?
    };
    let mut command = Command::new(&program);
    command
        .args(&plugin.args)
        .envs(plugin.env.iter().map(|(k, v)| (k, v)))
        .env("KUBERNETES_EXEC_INFO", exec_info.to_string())
        // stderr is the plugin's channel to the user (prompts, warnings): pass it through.
        .stderr(Stdio::inherit())
        .stdout(Stdio::piped())
        .stdin(if interactive {
            Stdio::inherit()
        } else {
            Stdio::null()
        });
    // A plugin's own children (a login helper, a `sleep`) must end with it on kw's deadline:
    // in a group of their own they can all be ended. Not while the plugin talks to the user:
    // a background group that reads the terminal is stopped.
    if !interactive {
        kw_base::process_group::own_group(&mut command);
    }
    // The plugin's soft limit on open files as the user set it, not the one kw raised.
    kw_base::descriptors::for_child(&mut command);
    let mut child = command.spawn().map_err(|error| {
        if error.kind() == std::io::ErrorKind::NotFound {
            not_found()
        } else {
            plugin_error(plugin, &format!("could not be started: {error}"))
        }
    })?;
    let mut group = (!interactive).then(|| Group::track(&child));
    // Read at most one byte past the limit: a plugin printing without end must not fill memory.
    // Read on a thread of its own, so that the time limit holds while the plugin is silent.
    let (read_all, output) = mpsc::channel();
    if let Some(out) = child.stdout.take() {
        std::thread::spawn(move || {
            let mut stdout = Vec::new();
            let read = out
                .take(MAX_OUTPUT_BYTES as u64 + 1)
                .read_to_end(&mut stdout)
                .map(|_| ());
            let _ = read_all.send((read, stdout));
        });
    } else {
        let _ = read_all.send((Ok(()), Vec::new()));
    }
    let out_of_time = |child: &mut std::process::Child, group: &mut Option<Group>| {
        end(child, group);
        let limit = limit.unwrap_or_default().as_secs_f64();
        plugin_error(
            plugin,
            &format!("did not finish within {limit:.1}s; kw stopped it"),
        )
    };
    let received = match deadline {
        Some(deadline) => output.recv_timeout(deadline.saturating_duration_since(Instant::now())),
        None => output
            .recv()
            .map_err(|_| mpsc::RecvTimeoutError::Disconnected),
    };
    let (read, stdout) = match received {
        Ok(received) => received,
        Err(mpsc::RecvTimeoutError::Timeout) => return Err(out_of_time(&mut child, &mut group)),
        Err(mpsc::RecvTimeoutError::Disconnected) => (Ok(()), Vec::new()),
    };
    if stdout.len() > MAX_OUTPUT_BYTES {
        end(&mut child, &mut group);
        return Err(plugin_error(plugin, "printed more than 1 MiB"));
    }
    // Its output has ended; the plugin may still linger (or hang) before it exits.
    let not_waited =
        |error: std::io::Error| plugin_error(plugin, &format!("could not be waited for: {error}"));
    let status = match deadline {
        None => child.wait().map_err(not_waited)?,
        Some(deadline) => loop {
            match child.try_wait().map_err(not_waited)? {
                Some(status) => break status,
                None if Instant::now() >= deadline => {
                    return Err(out_of_time(&mut child, &mut group))
                }
                None => std::thread::sleep(Duration::from_millis(5)),
            }
        },
    };
    if !status.success() {
        kw_base::process_group::hold_while_ending();
        let how = match status.code() {
            Some(code) => format!("exited with status {code}"),
            None => "was killed by a signal".to_string(),
        };
        return Err(plugin_error(plugin, &how));
    }
    read.map_err(|error| plugin_error(plugin, &format!("could not be read: {error}")))?;
    parse_output(plugin, &stdout)
}

/// Ends the plugin, with its whole group when it has one of its own.
fn end(child: &mut std::process::Child, group: &mut Option<Group>) {
    match group.take() {
        Some(group) => group.end(child),
        None => {
            let _ = child.kill();
            let _ = child.wait();
        }
    }
}

/// The executable file `name` in an absolute directory of `path` (a PATH value). Empty and
/// relative entries (`.`, `bin`) are skipped: they depend on the current directory.
pub fn find_in_path(name: &str, path: &OsStr) -> Option<PathBuf> {
    executables_in_path(name, path).next()
}

/// Every executable file `name` in the absolute directories of `path`, in PATH's order, as Go's
/// `exec.LookPath` takes them since Go 1.19: no empty or relative entry (a cloned repository's
/// `./kubectl` is never run), and a file that is not executable is passed over, as a shell does.
pub fn executables_in_path<'a>(
    name: &'a str,
    path: &'a OsStr,
) -> impl Iterator<Item = PathBuf> + 'a {
    std::env::split_paths(path)
        .filter(|dir| dir.is_absolute())
        .map(move |dir| dir.join(name))
        .filter(|candidate| is_executable(candidate))
}

#[cfg(unix)]
fn is_executable(path: &std::path::Path) -> bool {
    use std::os::unix::fs::PermissionsExt as _;
    std::fs::metadata(path)
        .is_ok_and(|meta| meta.is_file() && meta.permissions().mode() & 0o111 != 0)
}

#[cfg(not(unix))]
fn is_executable(path: &std::path::Path) -> bool {
    std::fs::metadata(path).is_ok_and(|meta| meta.is_file())
}

/// Reads the plugin's `ExecCredential` from its standard output.
pub fn parse_output(plugin: &ExecPlugin, stdout: &[u8]) -> Result<ExecOutput, AuthError> {
    let credential: ExecCredential = serde_json::from_slice(stdout).map_err(|error| {
        // A data error quotes the value it did not expect (`invalid type: string "..."`),
        // which may be the token in the wrong place: say only where it is.
        let what = match error.classify() {
            serde_json::error::Category::Data => format!(
                "a field of the wrong type at line {} column {}",
                error.line(),
                error.column()
            ),
            _ => error.to_string(),
        };
        plugin_error(
            plugin,
            &format!("printed something that is not an ExecCredential: {what}"),
        )
    })?;
    if credential.kind != "ExecCredential" {
        return Err(plugin_error(
            plugin,
            &format!(
                "returned kind {:?}, expected ExecCredential",
                credential.kind
            ),
        ));
    }
    if credential.api_version != plugin.api_version {
        return Err(plugin_error(
            plugin,
            &format!(
                "is configured to use API version {}, plugin returned version {}",
                plugin.api_version,
                if credential.api_version.is_empty() {
                    "(none)"
                } else {
                    &credential.api_version
                }
            ),
        ));
    }
    let Some(status) = credential.status else {
        return Err(plugin_error(plugin, "did not return a status field"));
    };
    let token = status.token.filter(|token| !token.0.is_empty());
    if let Some(what) = token.as_ref().and_then(|t| unsendable_character(&t.0)) {
        return Err(plugin_error(
            plugin,
            &format!(
                "returned a token that contains {what}, which cannot be sent in an HTTP header \
                 (the token is not shown)"
            ),
        ));
    }
    let cert = status
        .client_certificate_data
        .filter(|data| !data.is_empty());
    let key = status.client_key_data.filter(|data| !data.0.is_empty());
    let client_certificate = match (cert, key) {
        (Some(cert), Some(key)) => Some((cert, key)),
        (None, None) => None,
        (Some(_), None) => {
            return Err(plugin_error(
                plugin,
                "returned clientCertificateData without clientKeyData",
            ))
        }
        (None, Some(_)) => {
            return Err(plugin_error(
                plugin,
                "returned clientKeyData without clientCertificateData",
            ))
        }
    };
    if token.is_none() && client_certificate.is_none() {
        return Err(plugin_error(
            plugin,
            "returned neither a token nor a client certificate and key",
        ));
    }
    let expires = match status.expiration_timestamp.as_deref() {
        None | Some("") => None,
        Some(text) => Some(parse_timestamp(text).ok_or_else(|| {
            plugin_error(
                plugin,
                &format!("returned an invalid expirationTimestamp {text:?} (want RFC 3339)"),
            )
        })?),
    };
    Ok(ExecOutput {
        token,
        client_certificate,
        expires,
    })
}

fn plugin_error(plugin: &ExecPlugin, what: &str) -> AuthError {
    AuthError::Plugin {
        user_label: plugin.user_label.clone(),
        command: plugin.command.clone(),
        what: what.to_string(),
    }
}

/// An RFC 3339 time (`2026-01-01T12:00:00Z`, with fractions or a `+02:00` offset).
pub fn parse_timestamp(text: &str) -> Option<SystemTime> {
    let text = text.trim();
    if !text.is_ascii() {
        return None;
    }
    if let Some(utc) = text.strip_suffix('Z').or_else(|| text.strip_suffix('z')) {
        return humantime::parse_rfc3339_weak(utc).ok();
    }
    // A numeric offset: parse the local part as UTC, then move by the offset.
    let split = text.len().checked_sub(6)?;
    let (local, offset) = text.split_at(split);
    let bytes = offset.as_bytes();
    let sign = match bytes[0] {
        b'+' => 1i64,
        b'-' => -1i64,
        _ => return None,
    };
    if bytes[3] != b':' {
        return None;
    }
    let hours: u64 = offset[1..3].parse().ok()?;
    let minutes: u64 = offset[4..6].parse().ok()?;
    let shift = Duration::from_secs(hours * 3600 + minutes * 60);
    let local = humantime::parse_rfc3339_weak(local).ok()?;
    // 12:00+02:00 is 10:00Z.
    if sign > 0 {
        local.checked_sub(shift)
    } else {
        local.checked_add(shift)
    }
}

/// Decodes the certificate-authority bytes for `KUBERNETES_EXEC_INFO`, which carries them as
/// base64 (Go's encoding of `[]byte`).
pub fn base64_field(pem: &[u8]) -> String {
    base64::engine::general_purpose::STANDARD.encode(pem)
}

fn one_line(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[cfg(unix)]
    #[test]
    fn bare_names_are_found_in_absolute_path_entries_only() {
        use std::os::unix::fs::PermissionsExt as _;
        let dir = tempfile::tempdir().unwrap();
        let plugin = dir.path().join("kw-plugin");
        std::fs::write(&plugin, "#!/bin/sh\n").unwrap();
        std::fs::set_permissions(&plugin, std::fs::Permissions::from_mode(0o755)).unwrap();
        let absolute = dir.path().as_os_str().to_owned();
        assert_eq!(find_in_path("kw-plugin", &absolute), Some(plugin.clone()));
        // The same directory as `.`, as an empty entry, or relative: never searched.
        let cwd = std::env::current_dir().unwrap();
        let relative = pathdiff(dir.path(), &cwd);
        for path in [".", "", ":", "::/nonexistent", relative.as_str()] {
            assert_eq!(
                find_in_path("kw-plugin", OsStr::new(path)),
                None,
                "{path:?}"
            );
        }
        // Not executable: not a command.
        std::fs::set_permissions(&plugin, std::fs::Permissions::from_mode(0o644)).unwrap();
        assert_eq!(find_in_path("kw-plugin", &absolute), None);
    }

    /// `to` written relative to `from` (`../../tmp/x`), for a relative PATH entry.
    fn pathdiff(to: &std::path::Path, from: &std::path::Path) -> String {
        let ups = from.components().count().saturating_sub(1);
        let mut text = "../".repeat(ups);
        text.push_str(to.strip_prefix("/").unwrap().to_str().unwrap());
        text
    }
    use crate::config::kubeconfig::ExecConfig;

    fn config(api_version: &str, mode: Option<&str>) -> ExecConfig {
        ExecConfig {
            api_version: Some(api_version.to_string()),
            command: "plugin".into(),
            interactive_mode: mode.map(str::to_string),
            ..ExecConfig::default()
        }
    }

    fn plugin(api_version: &str) -> ExecPlugin {
        ExecPlugin::from_config(
            &config(api_version, Some("Never")),
            "user \"u\"",
            None,
            &PluginPolicy::AllowAll,
        )
        .unwrap()
    }

    #[test]
    fn versions_and_interactive_modes_are_checked() {
        let label = "user \"u\"";
        assert_eq!(
            ExecPlugin::from_config(&config(V1BETA1, None), label, None, &PluginPolicy::AllowAll)
                .unwrap()
                .interactive_mode,
            InteractiveMode::IfAvailable
        );
        let error =
            ExecPlugin::from_config(&config(V1, None), label, None, &PluginPolicy::AllowAll)
                .unwrap_err();
        assert!(matches!(
            error,
            ExecConfigError::InteractiveModeRequired { .. }
        ));
        let error = ExecPlugin::from_config(
            &config(V1ALPHA1, None),
            label,
            None,
            &PluginPolicy::AllowAll,
        )
        .unwrap_err();
        let message = error.to_string();
        assert!(
            message.contains("v1alpha1") && message.contains("regenerate"),
            "{message}"
        );
        assert!(ExecPlugin::from_config(
            &config("", Some("Never")),
            label,
            None,
            &PluginPolicy::AllowAll
        )
        .is_err());
        assert!(ExecPlugin::from_config(
            &config(V1, Some("Sometimes")),
            label,
            None,
            &PluginPolicy::AllowAll
        )
        .is_err());
        assert!(ExecPlugin::from_config(
            &config("v2", Some("Never")),
            label,
            None,
            &PluginPolicy::AllowAll
        )
        .is_err());
    }

    #[test]
    fn cluster_info_only_when_asked() {
        let info = Some(serde_json::json!({"server": "https://x"}));
        let mut with = config(V1, Some("Never"));
        assert!(
            ExecPlugin::from_config(&with, "u", info.clone(), &PluginPolicy::AllowAll)
                .unwrap()
                .cluster_info
                .is_none()
        );
        with.provide_cluster_info = true;
        assert!(
            ExecPlugin::from_config(&with, "u", info, &PluginPolicy::AllowAll)
                .unwrap()
                .cluster_info
                .is_some()
        );
    }

    #[test]
    fn outputs_are_checked() {
        let p = plugin(V1);
        let ok = br#"{"apiVersion":"client.authentication.k8s.io/v1","kind":"ExecCredential",
            "status":{"token":"t","expirationTimestamp":"2030-01-01T00:00:00Z"}}"#;
        let out = parse_output(&p, ok).unwrap();
        assert_eq!(out.token.unwrap().0, "t");
        assert_eq!(
            out.expires,
            humantime::parse_rfc3339("2030-01-01T00:00:00Z").ok()
        );

        let cases: [(&[u8], &str); 7] = [
            (b"not json", "not an ExecCredential"),
            (
                br#"{"apiVersion":"client.authentication.k8s.io/v1","kind":"ExecCredential","status":"tok-abcdef-123"}"#,
                "a field of the wrong type at line 1 column",
            ),
            (
                br#"{"apiVersion":"client.authentication.k8s.io/v1beta1","kind":"ExecCredential","status":{"token":"t"}}"#,
                "plugin returned version client.authentication.k8s.io/v1beta1",
            ),
            (
                br#"{"apiVersion":"client.authentication.k8s.io/v1","kind":"ExecCredential"}"#,
                "status",
            ),
            (
                br#"{"apiVersion":"client.authentication.k8s.io/v1","kind":"ExecCredential","status":{}}"#,
                "neither a token",
            ),
            (
                br#"{"apiVersion":"client.authentication.k8s.io/v1","kind":"ExecCredential","status":{"clientCertificateData":"x"}}"#,
                "without clientKeyData",
            ),
            (
                br#"{"apiVersion":"client.authentication.k8s.io/v1","kind":"ExecCredential","status":{"token":"t","expirationTimestamp":"soon"}}"#,
                "expirationTimestamp",
            ),
        ];
        for (output, expected) in cases {
            let message = parse_output(&p, output).unwrap_err().to_string();
            assert!(message.contains(expected), "{message}");
            assert!(message.contains("user \"u\""), "{message}");
            assert!(!message.contains('\n'), "{message}");
            assert!(
                !message.contains("tok-abcdef"),
                "values are not quoted: {message}"
            );
        }
    }

    #[test]
    fn secrets_in_outputs_are_not_shown_by_debug() {
        let p = plugin(V1);
        let out = parse_output(
            &p,
            br#"{"apiVersion":"client.authentication.k8s.io/v1","kind":"ExecCredential",
            "status":{"token":"sekrit","clientCertificateData":"c","clientKeyData":"keysekrit"}}"#,
        )
        .unwrap();
        let shown = format!("{out:?}");
        assert!(
            !shown.contains("sekrit") && !shown.contains("keysekrit"),
            "{shown}"
        );
    }

    #[test]
    fn timestamps_with_offsets() {
        let utc = parse_timestamp("2026-01-01T10:00:00Z").unwrap();
        assert_eq!(parse_timestamp("2026-01-01T12:00:00+02:00"), Some(utc));
        assert_eq!(parse_timestamp("2026-01-01T08:00:00-02:00"), Some(utc));
        assert_eq!(
            parse_timestamp("2026-01-01T10:00:00.5Z").map(|t| t > utc),
            Some(true)
        );
        for bad in ["", "x", "2026-01-01", "2026-01-01T10:00:00+0200", "ééééééé"] {
            assert!(parse_timestamp(bad).is_none(), "{bad}");
        }
    }
}
