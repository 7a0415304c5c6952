//! The user's kuberc (kubectl's preferences file, KEP-3104), read as kubectl 1.37 reads it:
//! `location` finds it, `file` decodes it into `preferences`, this module checks it (aliases'
//! names, the credential plugin policy) and `apply` turns a command line into the one kw runs
//! (an alias expanded, the defaults of kw's own verbs added where the user gave no value).
//! `error` words every refusal as kubectl does.
//!
//! kubectl reads the same file when kw hands it a command line, so what kw hands on is the line
//! as the user typed it: nothing here is applied twice.

pub mod apply;
pub mod error;
pub mod file;
pub mod location;
pub mod preferences;

use std::path::PathBuf;

use kw_client::config::auth::PluginPolicy;

pub use error::KubercError;
use location::Source;
pub use preferences::Preferences;

/// A kuberc read and checked.
#[derive(Debug, Clone, Default)]
pub struct Kuberc {
    pub preferences: Preferences,
    pub policy: PluginPolicy,
    /// What kubectl writes on stderr before it runs the command (each as it writes it: the
    /// warnings about the file itself end without a line end, as kubectl's do).
    pub warnings: Vec<String>,
}

/// The kuberc for the command line `args` (after the program name), as the environment
/// (`env`) and the home directory place it.
pub fn load(
    args: &[String],
    env: impl Fn(&str) -> Option<String>,
    home: Option<PathBuf>,
) -> Result<Kuberc, KubercError> {
    let flag = location::flag_value(args);
    let source = location::locate(flag.as_deref(), env, home)?;
    let (path, named) = match source {
        Source::Off => return Ok(Kuberc::default()),
        Source::Named(path) => (path, true),
        Source::Default(path) => (path, false),
    };
    let shown = path.to_string_lossy().into_owned();
    let text = match std::fs::read(&path) {
        Ok(bytes) => String::from_utf8_lossy(&bytes).into_owned(),
        Err(error) if !named && error.kind() == std::io::ErrorKind::NotFound => {
            return Ok(Kuberc::default())
        }
        Err(error) if !named => {
            return Ok(Kuberc {
                warnings: vec![format!(
                    "kuberc: no preferences loaded from {shown}: {}",
                    unreadable(&shown, &error)
                        .to_string()
                        .trim_start_matches("kuberc error kuberc: ")
                )],
                ..Kuberc::default()
            })
        }
        Err(error) => return Err(unreadable(&shown, &error)),
    };
    let decoded = match file::decode(&text, &shown) {
        Ok(decoded) => decoded,
        Err(file::NoValidPreferences) if named => {
            return Err(KubercError::NoValidPreferences { path: shown })
        }
        // At the default place a bad file is left out, with kubectl's warning (no line end).
        Err(file::NoValidPreferences) => {
            return Ok(Kuberc {
                warnings: vec![format!(
                    "kuberc: no preferences loaded from {shown}: no valid preferences found in {shown}, use --v=5 to see details"
                )],
                ..Kuberc::default()
            })
        }
    };
    if let Some((entry, version)) = &decoded.entry {
        kw_base::vlog!(5, "kuberc: using entry {entry} ({version}) in {shown}");
    }
    let preferences = decoded.preferences;
    check_aliases(&preferences)?;
    let policy = PluginPolicy::from_kuberc(
        &preferences.plugin_policy,
        preferences.plugin_allowlist.clone(),
    )?;
    Ok(Kuberc {
        preferences,
        policy,
        warnings: decoded.warning.into_iter().collect(),
    })
}

/// Go's words for a file it could not read.
fn unreadable(shown: &str, error: &std::io::Error) -> KubercError {
    use std::io::ErrorKind;
    let (operation, reason) = match error.kind() {
        ErrorKind::NotFound => ("open", "no such file or directory".to_string()),
        ErrorKind::PermissionDenied => ("open", "permission denied".to_string()),
        ErrorKind::IsADirectory => ("read", "is a directory".to_string()),
        _ => ("read", error.to_string()),
    };
    KubercError::Unreadable {
        operation,
        path: shown.to_string(),
        reason,
    }
}

/// kubectl's checks of every alias, whichever command runs: letters only, each name once.
fn check_aliases(preferences: &Preferences) -> Result<(), KubercError> {
    let mut seen = std::collections::BTreeSet::new();
    for alias in &preferences.aliases {
        if alias.name.is_empty() || !alias.name.chars().all(|c| c.is_ascii_alphabetic()) {
            return Err(KubercError::AliasName);
        }
        if !seen.insert(alias.name.as_str()) {
            return Err(KubercError::DuplicateAlias(alias.name.clone()));
        }
    }
    Ok(())
}

/// The policy alone, for a TAB completion (which runs plugins to ask the server): a kuberc
/// that cannot be read allows none, rather than the plugins it may have meant to refuse.
pub fn policy_for_completion(kuberc_flag: Option<&str>) -> PluginPolicy {
    let args: Vec<String> = kuberc_flag
        .map(|path| vec![format!("{}={path}", location::FLAG)])
        .unwrap_or_default();
    let home = std::env::var_os("HOME").map(PathBuf::from);
    match load(&args, |name| std::env::var(name).ok(), home) {
        Ok(kuberc) => kuberc.policy,
        Err(_) => PluginPolicy::DenyAll,
    }
}
