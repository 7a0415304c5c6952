//! The environment variables kw reads besides KUBECONFIG/HOME (documented in README), read here
//! and nowhere else.

use std::path::PathBuf;
use std::time::Duration;

use crate::error::UsageError;

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

impl Environment {
    pub fn read() -> Result<Environment, UsageError> {
        let idle_timeout = match std::env::var("KW_IDLE_TIMEOUT") {
            Ok(text) => humantime::parse_duration(&text)
                .ok()
                .filter(|d| !d.is_zero())
                .ok_or(UsageError::Environment {
                    name: "KW_IDLE_TIMEOUT",
                    value: text,
                    expected: "a duration such as 75s",
                })?,
            Err(_) => IDLE_TIMEOUT,
        };
        Ok(Environment {
            idle_timeout,
            discovery_cache: crate::discovery_cache::default_dir(),
            streaming_list: std::env::var_os("KW_STREAMING_LIST").is_some_and(|v| v == "1"),
        })
    }
}
