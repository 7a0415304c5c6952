//! kubectl's verbs that kw does not implement (`describe`, `apply`, `rollout undo`, ...), handed
//! to kubectl whole: the same arguments (global flags before the verb included), stdin, stdout,
//! stderr and exit status, so that a CI script with `kubectl` replaced by `kw` runs every line.
//! kubectl is `$KW_KUBECTL`, else `$KUBECTL_PATH` (the kubectl that runs kw as its plugin) when
//! it is not kw, else the first `kubectl` on PATH that is not kw itself; a kubectl that
//! would hand the verb back to kw (a `kubectl` linked to kw) is refused rather than looped.
//! Which words of a command line clap refused are such verbs: `refused`.

pub mod kubectl_flags;
pub mod refused;

use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::process::Command;

/// kubectl's own commands (1.37), top level.
pub const KUBECTL_COMMANDS: &[&str] = &[
    "alpha",
    "annotate",
    "api-resources",
    "api-versions",
    "apply",
    "attach",
    "auth",
    "autoscale",
    "certificate",
    "cluster-info",
    "config",
    "cordon",
    "cp",
    "create",
    "debug",
    "delete",
    "describe",
    "diff",
    "drain",
    "edit",
    "events",
    "exec",
    "explain",
    "expose",
    "kustomize",
    "label",
    "logs",
    "options",
    "patch",
    "plugin",
    "port-forward",
    "proxy",
    "replace",
    "run",
    "scale",
    "set",
    "taint",
    "top",
    "uncordon",
];

/// `kubectl rollout`'s subcommands other than `status` (kw's own).
pub const KUBECTL_ROLLOUT_COMMANDS: &[&str] = &["history", "pause", "restart", "resume", "undo"];

/// Set in kubectl's environment when kw hands it a verb: a kw started under it that would hand
/// a verb on again refuses instead (a `kubectl` that is kw under another name).
pub const HANDED_ON: &str = "KW_HANDED_TO_KUBECTL";

/// The environment variable naming the kubectl to hand verbs to.
pub const KUBECTL_VAR: &str = "KW_KUBECTL";

#[derive(Debug, thiserror::Error)]
pub enum PassError {
    #[error("\"{verb}\" is a kubectl command, which kw hands to kubectl, and kubectl is not on PATH (or set {KUBECTL_VAR} to its path)")]
    NoKubectl { verb: String },
    #[error("\"{verb}\" is a kubectl command, and the kubectl found ({path}) is kw itself: set {KUBECTL_VAR} to the real kubectl")]
    Loop { verb: String, path: PathBuf },
    #[error("\"{verb}\" is a kubectl command, and this kw runs under a kubectl kw handed \"{handed}\" to ({HANDED_ON} is set): handing it on again could loop; unset {HANDED_ON} to run it")]
    HandedBack { verb: String, handed: String },
    #[error("\"{verb}\": cannot run kubectl ({path}): {source}")]
    Spawn {
        verb: String,
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
}

/// Whether kw hands `verb` (with its first argument, for `rollout`) to kubectl.
pub fn is_handed_on(verb: &str, first_argument: Option<&str>) -> bool {
    KUBECTL_COMMANDS.contains(&verb)
        || (verb == "rollout"
            && first_argument.is_some_and(|sub| KUBECTL_ROLLOUT_COMMANDS.contains(&sub)))
}

/// The kubectl completion asks about the verbs kw hands on; none when kw was itself started by
/// kubectl for a handed verb (it would ask itself again).
pub fn kubectl_for_completion() -> Option<PathBuf> {
    if std::env::var_os(HANDED_ON).is_some() {
        return None;
    }
    find_kubectl("__complete").ok()
}

/// Run kubectl with `args` (kw's own, without the program name), inheriting stdin, stdout and
/// stderr; its exit status, or 128 + the signal that ended it.
pub fn run(verb: &str, args: &[OsString]) -> Result<i32, PassError> {
    // Set for everything that kubectl starts (an `$EDITOR` under `kubectl edit`), not only
    // for a kw that is kubectl: say what was found, not that the kubectl is kw.
    if let Some(handed) = std::env::var_os(HANDED_ON) {
        return Err(PassError::HandedBack {
            verb: verb.to_string(),
            handed: handed.to_string_lossy().into_owned(),
        });
    }
    let kubectl = find_kubectl(verb)?;
    let spawn_error = |source| PassError::Spawn {
        verb: verb.to_string(),
        path: kubectl.clone(),
        source,
    };
    let mut command = Command::new(&kubectl);
    command.args(args).env(HANDED_ON, verb);
    // kubectl's soft limit on open files as the user set it, not the one kw raised.
    kw_base::descriptors::for_child(&mut command);
    let mut child = command.spawn().map_err(spawn_error)?;
    // A signal to kw reaches kubectl too, and kw ends with it (issue 61, point 1).
    kw_output::output::signals::forward_to_child(child.id());
    let status = child.wait();
    kw_output::output::signals::child_ended();
    Ok(exit_code(status.map_err(spawn_error)?))
}

fn exit_code(status: std::process::ExitStatus) -> i32 {
    #[cfg(unix)]
    {
        use std::os::unix::process::ExitStatusExt;
        if let Some(signal) = status.signal() {
            return 128 + signal;
        }
    }
    status.code().unwrap_or(1)
}

/// `$KW_KUBECTL`, else the first executable `kubectl` in an absolute PATH entry that is not
/// this very program.
fn find_kubectl(verb: &str) -> Result<PathBuf, PassError> {
    if let Some(path) = std::env::var_os(KUBECTL_VAR).filter(|p| !p.is_empty()) {
        let path = PathBuf::from(path);
        if is_kw(&path) {
            return Err(PassError::Loop {
                verb: verb.to_string(),
                path,
            });
        }
        return Ok(path);
    }
    // kubectl sets KUBECTL_PATH for the plugins it runs (`kubectl kw ...`): that kubectl, the
    // one the user ran, unless it is kw itself.
    if let Some(path) = std::env::var_os("KUBECTL_PATH").filter(|p| !p.is_empty()) {
        let path = PathBuf::from(path);
        if !is_kw(&path) && path.is_file() {
            return Ok(path);
        }
    }
    let path = std::env::var_os("PATH").unwrap_or_default();
    let mut found_kw = None;
    let name = if cfg!(windows) {
        "kubectl.exe"
    } else {
        "kubectl"
    };
    // As an exec plugin is found (and Go's exec.LookPath): absolute entries, executables only.
    for candidate in kw_client::config::auth::executables_in_path(name, &path) {
        if is_kw(&candidate) {
            found_kw.get_or_insert(candidate);
            continue;
        }
        return Ok(candidate);
    }
    match found_kw {
        Some(path) => Err(PassError::Loop {
            verb: verb.to_string(),
            path,
        }),
        None => Err(PassError::NoKubectl {
            verb: verb.to_string(),
        }),
    }
}

/// Whether `path` is this program (a link to it included).
fn is_kw(path: &Path) -> bool {
    let ours = std::env::current_exe().and_then(|p| p.canonicalize());
    match (ours, path.canonicalize()) {
        (Ok(ours), Ok(theirs)) => ours == theirs,
        _ => false,
    }
}
