//! Exit codes: the one table every path of kw reports through. Documented in README.md.

/// Done: the listing or watch ended as asked, a limit was reached, or stdout was closed.
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
/// Interrupted by Ctrl-C (SIGINT), as shells report it.
pub const INTERRUPTED: i32 = 130;
