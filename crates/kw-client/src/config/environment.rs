//! kw's own run-wide environment variables (`KW_IDLE_TIMEOUT`, `KW_STREAMING_LIST`) and where its
//! discovery cache lives (`XDG_CACHE_HOME`, `HOME`), read once per run (documented in
//! docs/reference.md). Every other variable is read by the module it concerns: `KUBECONFIG` and
//! `HOME` by `kubeconfig`, the service account's (and the test hook `KW_SERVICE_ACCOUNT_DIR`) by
//! `in_cluster`, the proxy variables by `proxy`, `PATH` by exec plugins, the terminal's
//! (`COLUMNS`, `NO_COLOR`, `CLICOLOR_FORCE`, `KW_FORCE_TERMINAL`) by `output::terminal`,
//! `NO_COLOR` for stderr by `log`, and `HOME` by completion (to expand `~`).

use std::path::PathBuf;
use std::time::Duration;

/// How long a watch may stay silent before kw treats the connection as dead. Real API servers
/// send a bookmark about once a minute to watchers that ask for them.
pub const IDLE_TIMEOUT: Duration = Duration::from_secs(75);

#[derive(Debug, Clone)]
pub struct Environment {
    /// `KW_IDLE_TIMEOUT`: overrides `IDLE_TIMEOUT` (e.g. `5s`), for networks that cut idle
    /// connections sooner, and for tests.
    pub idle_timeout: Duration,
    /// Where resolved resource types are cached: `$XDG_CACHE_HOME/kw/discovery`, else
    /// `$HOME/.cache/kw/discovery`.
    pub discovery_cache: Option<PathBuf>,
    /// `KW_STREAMING_LIST=1`: a JSON watch starts from a streaming list (`sendInitialEvents`)
    /// instead of a gzipped LIST: fewer bytes held at once, many more on the wire.
    pub streaming_list: bool,
}

/// An environment variable kw reads holds something it cannot use.
#[derive(Debug, thiserror::Error)]
#[error("{name} {value:?} is not {expected}")]
pub struct EnvironmentError {
    pub name: &'static str,
    pub value: String,
    pub expected: &'static str,
}

impl Environment {
    pub fn read() -> Result<Environment, EnvironmentError> {
        let idle_timeout = match std::env::var("KW_IDLE_TIMEOUT") {
            Ok(text) => humantime::parse_duration(&text)
                .ok()
                .filter(|d| !d.is_zero())
                .ok_or(EnvironmentError {
                    name: "KW_IDLE_TIMEOUT",
                    value: text,
                    expected: "a duration such as 75s",
                })?,
            Err(_) => IDLE_TIMEOUT,
        };
        Ok(Environment {
            idle_timeout,
            discovery_cache: discovery_cache_dir(),
            streaming_list: std::env::var_os("KW_STREAMING_LIST").is_some_and(|v| v == "1"),
        })
    }
}

/// The user's home: `HOME`, else (as client-go's `homedir` on Windows) `USERPROFILE`.
pub fn home_dir() -> Option<PathBuf> {
    let home = std::env::var_os("HOME").filter(|v| !v.is_empty());
    let home = if cfg!(windows) {
        home.or_else(|| std::env::var_os("USERPROFILE").filter(|v| !v.is_empty()))
    } else {
        home
    };
    home.map(PathBuf::from)
}

/// Where discovery is cached: `$XDG_CACHE_HOME/kw/discovery`, else `$HOME/.cache/kw/discovery`.
pub fn discovery_cache_dir() -> Option<PathBuf> {
    let base = std::env::var_os("XDG_CACHE_HOME")
        .filter(|v| !v.is_empty())
        .map(PathBuf::from)
        .or_else(|| home_dir().map(|home| home.join(".cache")))?;
    Some(base.join("kw").join("discovery"))
}
