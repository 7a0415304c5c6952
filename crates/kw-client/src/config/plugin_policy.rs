//! Which exec credential plugins may run: the user's `credentialPluginPolicy` (kuberc, read by
//! the root crate, carried in the flags), checked by `auth::exec` before a plugin's process is
//! started, never after. A kubeconfig
//! downloaded from anywhere names a program to run with the user's rights; `DenyAll` and an
//! allowlist are how the user keeps an unknown one from running.
//!
//! The rules and the words are client-go's (`tools/clientcmd/api` PluginPolicy and the exec
//! authenticator), as kubectl 1.37 applies them:
//! - `AllowAll` (and no policy at all, for backward compatibility) runs every plugin;
//! - `DenyAll` runs none;
//! - `Allowlist` runs a plugin whose command is an entry as written, or whose resolved path is
//!   an entry, or is what a bare-name entry resolves to in PATH. Paths are compared as written,
//!   after Go's lexical `filepath.Clean` of the command: no symlink is followed, a relative
//!   entry (`bin/x`) never matches an absolute command. An entry must itself be clean.

use std::path::{Path, PathBuf};

/// The policy's values as kuberc spells them.
pub const ALLOW_ALL: &str = "AllowAll";
pub const DENY_ALL: &str = "DenyAll";
pub const ALLOWLIST: &str = "Allowlist";

/// Which plugins may run.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub enum PluginPolicy {
    /// kubectl's default when kuberc says nothing.
    #[default]
    AllowAll,
    DenyAll,
    /// The entries' `command` (or the deprecated `name`), checked to be clean and non-empty.
    Allowlist(Vec<String>),
}

/// Why a kuberc's policy cannot be used: client-go's words (kubectl prefixes them with
/// "error occurred while applying preferences").
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PolicyError {
    #[error("unknown plugin policy: {0:?}")]
    Unknown(String),
    #[error("credential plugin policy set to \"{ALLOWLIST}\", but allowlist is unspecified")]
    AllowlistUnspecified,
    #[error(
        "credential plugin policy set to \"{ALLOWLIST}\", but allowlist is empty; use \"{DENY_ALL}\" policy instead"
    )]
    AllowlistEmpty,
    #[error("misconfigured credential plugin allowlist: plugin policy is {0:?} but allowlist is non-nil")]
    AllowlistWithout(String),
    #[error("misconfigured credential plugin allowlist: empty allowlist entry #{0}")]
    EmptyEntry(usize),
    #[error("non-normalized file path: {written:?} vs {clean:?}")]
    NotNormalized { written: String, clean: String },
}

/// Why a plugin was not started (client-go's words; the client says "getting credentials: "
/// before them, as kubectl does).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum Refusal {
    #[error("plugin {command:?} not allowed: policy set to \"{DENY_ALL}\"")]
    Denied { command: String },
    #[error("plugin path {path:?} is not permitted by the credential plugin allowlist")]
    NotListed { path: String },
    #[error(
        "plugin path {command:?} cannot be resolved for credential plugin allowlist check: exec: {command:?}: executable file not found in $PATH"
    )]
    Unresolvable { command: String },
}

impl PluginPolicy {
    /// The policy from kuberc's two fields, checked as client-go checks it when kubectl loads
    /// the file. `allowlist` is `None` when the field is absent (YAML null counts as absent).
    pub fn from_kuberc(
        policy: &str,
        allowlist: Option<Vec<String>>,
    ) -> Result<PluginPolicy, PolicyError> {
        match policy {
            "" | ALLOW_ALL | DENY_ALL if allowlist.is_some() => {
                Err(PolicyError::AllowlistWithout(policy.to_string()))
            }
            "" | ALLOW_ALL => Ok(PluginPolicy::AllowAll),
            DENY_ALL => Ok(PluginPolicy::DenyAll),
            ALLOWLIST => {
                let entries = allowlist.ok_or(PolicyError::AllowlistUnspecified)?;
                if entries.is_empty() {
                    return Err(PolicyError::AllowlistEmpty);
                }
                for (index, entry) in entries.iter().enumerate() {
                    if entry.is_empty() {
                        return Err(PolicyError::EmptyEntry(index + 1));
                    }
                    let clean = clean(entry);
                    if clean != *entry {
                        return Err(PolicyError::NotNormalized {
                            written: entry.clone(),
                            clean,
                        });
                    }
                }
                Ok(PluginPolicy::Allowlist(entries))
            }
            other => Err(PolicyError::Unknown(other.to_string())),
        }
    }

    /// Whether the plugin `command` (as the kubeconfig gives it, absolute if it had a `/`) may
    /// be started; `find_in_path` resolves a bare name as the plugin's own start does (Go's
    /// `exec.LookPath`). Checked before every start.
    pub fn check(
        &self,
        command: &str,
        find_in_path: impl Fn(&str) -> Option<PathBuf>,
    ) -> Result<(), Refusal> {
        let configured = clean(command);
        let entries = match self {
            PluginPolicy::AllowAll => return Ok(()),
            PluginPolicy::DenyAll => {
                return Err(Refusal::Denied {
                    command: configured,
                })
            }
            PluginPolicy::Allowlist(entries) => entries,
        };
        if entries.contains(&configured) {
            return Ok(());
        }
        let resolved: PathBuf = if configured.contains('/') {
            PathBuf::from(&configured)
        } else {
            find_in_path(&configured).ok_or_else(|| Refusal::Unresolvable {
                command: configured.clone(),
            })?
        };
        let listed = entries.iter().any(|entry| {
            if entry.contains('/') {
                Path::new(entry) == resolved
            } else {
                find_in_path(entry).is_some_and(|found| found == resolved)
            }
        });
        if listed {
            Ok(())
        } else {
            Err(Refusal::NotListed {
                path: resolved.to_string_lossy().into_owned(),
            })
        }
    }
}

/// Go's `filepath.Clean` on a Unix path: one slash between names, no `.`, a `..` eats the name
/// before it (at the root it is dropped), and `.` for nothing.
pub fn clean(path: &str) -> String {
    let rooted = path.starts_with('/');
    let mut names: Vec<&str> = Vec::new();
    for name in path.split('/') {
        match name {
            "" | "." => {}
            ".." => match names.last() {
                Some(&last) if last != ".." => {
                    names.pop();
                }
                _ if rooted => {}
                _ => names.push(".."),
            },
            name => names.push(name),
        }
    }
    let joined = names.join("/");
    match (rooted, joined.is_empty()) {
        (true, _) => format!("/{joined}"),
        (false, true) => ".".to_string(),
        (false, false) => joined,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::auth::exec::find_in_path;

    #[test]
    fn clean_is_gos() {
        for (path, want) in [
            ("/a/b/../c", "/a/c"),
            ("/a//b", "/a/b"),
            ("./x", "x"),
            ("x/", "x"),
            ("../x", "../x"),
            ("/../x", "/x"),
            ("", "."),
            ("a/..", "."),
            ("/", "/"),
        ] {
            assert_eq!(clean(path), want, "{path}");
        }
    }

    #[test]
    fn kubercs_policy_is_checked_as_client_go_checks_it() {
        let list = |names: &[&str]| Some(names.iter().map(|n| n.to_string()).collect());
        assert_eq!(
            PluginPolicy::from_kuberc("", None),
            Ok(PluginPolicy::AllowAll)
        );
        assert_eq!(
            PluginPolicy::from_kuberc("denyall", None)
                .unwrap_err()
                .to_string(),
            "unknown plugin policy: \"denyall\""
        );
        assert_eq!(
            PluginPolicy::from_kuberc(DENY_ALL, list(&["x"])).unwrap_err().to_string(),
            "misconfigured credential plugin allowlist: plugin policy is \"DenyAll\" but allowlist is non-nil"
        );
        assert_eq!(
            PluginPolicy::from_kuberc(ALLOWLIST, None),
            Err(PolicyError::AllowlistUnspecified)
        );
        assert_eq!(
            PluginPolicy::from_kuberc(ALLOWLIST, list(&[])),
            Err(PolicyError::AllowlistEmpty)
        );
        assert_eq!(
            PluginPolicy::from_kuberc(ALLOWLIST, list(&["a", ""])),
            Err(PolicyError::EmptyEntry(2))
        );
        assert_eq!(
            PluginPolicy::from_kuberc(ALLOWLIST, list(&["./a"]))
                .unwrap_err()
                .to_string(),
            "non-normalized file path: \"./a\" vs \"a\""
        );
    }

    #[test]
    fn an_allowlist_matches_names_in_path_and_paths_as_written() {
        let dir = tempfile::tempdir().unwrap();
        let bin = dir.path().join("bin");
        std::fs::create_dir(&bin).unwrap();
        let plugin = bin.join("plug");
        std::fs::write(&plugin, "#!/bin/sh\n").unwrap();
        use std::os::unix::fs::PermissionsExt as _;
        std::fs::set_permissions(&plugin, std::fs::Permissions::from_mode(0o755)).unwrap();
        let path = |name: &str| find_in_path(name, bin.as_os_str());
        let absolute = plugin.to_str().unwrap();
        let allow = |entries: &[&str]| {
            PluginPolicy::Allowlist(entries.iter().map(|e| e.to_string()).collect())
        };
        // A bare entry is what PATH gives it, for a bare command or an absolute one.
        assert_eq!(allow(&["plug"]).check("plug", path), Ok(()));
        assert_eq!(allow(&["plug"]).check(absolute, path), Ok(()));
        // A path entry is the resolved path, the command cleaned first.
        assert_eq!(allow(&[absolute]).check("plug", path), Ok(()));
        let dotted = format!("{}/../bin/plug", bin.display());
        assert_eq!(allow(&[absolute]).check(&dotted, path), Ok(()));
        // Neither a basename of an absolute command outside PATH nor a relative path matches.
        assert_eq!(
            allow(&["other", "bin/plug"]).check(absolute, path),
            Err(Refusal::NotListed {
                path: absolute.to_string()
            })
        );
        assert_eq!(
            allow(&["plug"])
                .check("missing", path)
                .unwrap_err()
                .to_string(),
            "plugin path \"missing\" cannot be resolved for credential plugin allowlist check: \
             exec: \"missing\": executable file not found in $PATH"
        );
        assert_eq!(
            PluginPolicy::DenyAll
                .check(absolute, path)
                .unwrap_err()
                .to_string(),
            format!("plugin \"{absolute}\" not allowed: policy set to \"DenyAll\"")
        );
    }
}
