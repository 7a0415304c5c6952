//! Exit codes: the one table every path of kw reports through. Documented in README.md.

/// Done: the listing or watch ended as asked, a limit was reached, or the stdout of a watch
/// that awaits no verdict (`get -w`) was closed.
pub const OK: i32 = 0;
/// Usage or configuration error: bad flags, kubeconfig, unknown resource type.
pub const USAGE: i32 = 1;
/// A `--fail-on` condition was met.
pub const CONDITION_FAILED: i32 = 2;
/// `--timeout` ran out before a condition was met.
pub const TIMEOUT: i32 = 3;
/// The server refused our credentials (401) or our permissions (403).
pub const AUTH: i32 = 4;
/// The server could not be reached: DNS, connection refused, TLS failure.
pub const UNREACHABLE: i32 = 5;
/// The server answered with an error kw cannot recover from (404 for a named object, a broken
/// response, a 5xx that outlasted every retry).
pub const SERVER_ERROR: i32 = 6;
/// kw itself failed: a bug (a panic), reported in one line instead of a backtrace.
/// sysexits.h's EX_SOFTWARE, clear of the codes above and of the shells' 126–165.
pub const INTERNAL: i32 = 70;
/// The reader of stdout went away before a run that awaits a verdict (`rollout status`, `wait`,
/// `get --until`/`--fail-on`) reached it: 128 + SIGPIPE, as shells report kubectl killed by it.
/// Never 0: `kw rollout status deploy/web | head -1` must not pass for a finished rollout.
pub const CLOSED_PIPE: i32 = 141;
/// Interrupted by Ctrl-C (SIGINT), as shells report it.
pub const INTERRUPTED: i32 = 130;
/// Ended by SIGTERM (143), SIGHUP (129) or SIGQUIT (131): 128 + the signal's number, as shells
/// report a process the signal killed (the terminal given back first).
pub fn signalled(signal: i32) -> i32 {
    128 + signal
}
