//! The command line exactly as the user typed it (clap derive). Nothing here is resolved or
//! checked against a kubeconfig or a server; `settings` does that. Flag names and meanings follow
//! kubectl's.
//!
//! - `verbs`: the global flags and the verbs; `get`, `rollout`, `wait`, `demo`: each verb's flags.
//! - `help`: the command as it parses and prints its help; `kubectl_help`: kubectl's `--help`
//!   page for the verbs kw shares with kubectl (`rollout status`, `wait`).
//! - `pflag`, `spaced`: the two places kw reads argv as kubectl's parser would (booleans with a
//!   value; an optional value after a space).

pub mod demo;
pub mod get;
pub mod help;
pub mod kubectl_help;
pub mod logs;
pub mod pflag;
pub mod rollout;
pub mod spaced;
pub mod verbs;
pub mod wait;

pub use demo::{DemoArgs, DEMO_REFUSES};
pub use get::GetArgs;
pub use help::command;
pub use logs::LogsArgs;
pub use pflag::with_pflag_booleans;
pub use rollout::{RolloutArgs, RolloutCommand, RolloutStatusArgs};
pub use spaced::{optional_valued_flags, spaced_optional_value, SpacedOptionalValue};
pub use verbs::{Cli, Command, CompletionArgs, SimPassthrough, VersionArgs};
pub use wait::WaitArgs;
