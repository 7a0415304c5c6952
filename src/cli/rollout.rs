//! `kw rollout status`'s flags, as kubectl 1.32 takes them.

use std::path::PathBuf;

use clap::{Args, Subcommand};

/// `kw rollout SUBCOMMAND`.
#[derive(Debug, Args)]
pub struct RolloutArgs {
    #[command(subcommand)]
    pub command: RolloutCommand,
}

#[derive(Debug, Subcommand)]
pub enum RolloutCommand {
    /// Show the status of the rollout, as `kubectl rollout status` (its lines on stdout, byte
    /// for byte), until it is done.
    #[command(after_help = ROLLOUT_STATUS_EXAMPLES)]
    Status(RolloutStatusArgs),
}

/// `kw rollout status`: kubectl 1.32's flags and defaults.
#[derive(Debug, Args)]
pub struct RolloutStatusArgs {
    /// TYPE NAME... or TYPE/NAME... (`deployment/web`, `daemonset agent`, `sts/db`), or TYPE
    /// alone (every object of the type, or those `-l` selects), watched one after another.
    #[arg(value_name = "TYPE[/NAME]", num_args = 0..)]
    pub targets: Vec<String>,

    /// The objects a manifest names (YAML or JSON; `-` reads stdin; a directory: its .json,
    /// .yaml and .yml files). Repeatable: the files' objects in the order given.
    #[arg(short = 'f', long, value_name = "FILE")]
    pub filename: Vec<PathBuf>,

    /// Process the directory used in -f, --filename recursively.
    #[arg(short = 'R', long)]
    pub recursive: bool,

    /// Selector (label query) to filter on, supports '=', '==', '!=', 'in', 'notin' (e.g.
    /// -l key1=value1,key2=value2): the objects of TYPE it matches, one after another.
    #[arg(short = 'l', long, value_name = "SELECTOR")]
    pub selector: Option<String>,

    /// Watch the status of the rollout until it's done (`--watch=false`: print the status once).
    #[arg(
        short = 'w',
        long,
        value_name = "BOOL",
        num_args = 0..=1,
        require_equals = true,
        default_value_t = true,
        default_missing_value = "true",
        action = clap::ArgAction::Set
    )]
    pub watch: bool,

    /// Pin to a specific revision for showing its status (Deployments). Defaults to 0 (last
    /// revision).
    #[arg(
        long,
        value_name = "N",
        default_value_t = 0,
        allow_negative_numbers = true
    )]
    pub revision: i64,

    /// The length of time to wait before ending watch, zero means never (e.g. 1s, 2m, 3h).
    #[arg(long, value_name = "DURATION", default_value = "0s")]
    pub timeout: String,

    /// kw: while waiting, stream the container logs of the Pods being rolled out on stderr
    /// (`pod/NAME CONTAINER | line`), picking up Pods that start later; `--logs=failed`: only
    /// containers that crashed or are not ready.
    #[arg(
        long,
        value_name = "WHICH",
        num_args = 0..=1,
        require_equals = true,
        default_missing_value = "all",
        value_parser = ["all", "failed"],
    )]
    pub logs: Option<String>,

    /// kw: end the rollout, with exit 2, once a Pod of its current revision has stayed stuck
    /// this long (CrashLoopBackOff, ImagePullBackOff, unschedulable...); `0` ends it at once.
    /// Without it kw waits as kubectl does (the progress deadline, --timeout) and says once
    /// when a Pod has been stuck for 30s.
    #[arg(long, value_name = "DURATION")]
    pub fail_grace: Option<String>,
}

/// Shown under `kw rollout status --help`.
const ROLLOUT_STATUS_EXAMPLES: &str = "\
Examples:
  # Watch the rollout status of a deployment
  kw rollout status deployment/nginx

  # Every deployment labelled app=shop, one after another
  kw rollout status deployment -l app=shop

Exit codes: 0 rolled out (or --watch=false), 1 usage, 2 the rollout failed (progress deadline
exceeded, OnDelete), 3 --timeout, 6 not found (kubectl exits 1 for every failure).";
