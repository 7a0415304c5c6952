//! `kw wait`'s flags, as kubectl 1.32 takes them, and kw's readiness words.

use std::path::PathBuf;

use clap::Args;

/// `kw wait`: kubectl 1.32's flags and defaults, and kw's readiness words.
#[derive(Debug, Args)]
pub struct WaitArgs {
    /// TYPE/NAME..., TYPE NAME..., or TYPE with -l or --all (`pod/web`, `deploy web api`).
    #[arg(value_name = "TYPE[/NAME]")]
    pub targets: Vec<String>,

    /// The condition: create, delete, condition=NAME[=VALUE], jsonpath='{EXPR}'[=VALUE], or
    /// kw's ready. Repeated, each object meets them all, one after the other (AND, as kubectl
    /// 1.35+; create is waited first); for any one of them, kw get --until A --until B.
    #[arg(long = "for", value_name = "CONDITION")]
    pub for_conditions: Vec<String>,

    /// kw: fail (exit 2) once an object meets EXPR: failed (it will not get ready without
    /// someone acting), delete, condition=NAME[=VALUE], ... Default with --for=ready: failed.
    #[arg(long, value_name = "EXPR")]
    pub fail_on: Vec<String>,

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

    /// kw: under --fail-on failed, how long a Pod of a workload's current revision may stay
    /// stuck (CrashLoopBackOff, ImagePullBackOff, ...) before it fails the workload. Default 30s.
    #[arg(long, value_name = "DURATION")]
    pub fail_grace: Option<String>,

    /// The objects a manifest names (YAML or JSON; `-` reads stdin; a directory: its .json,
    /// .yaml and .yml files). Repeatable: the files' objects in the order given.
    #[arg(short = 'f', long, value_name = "FILE")]
    pub filename: Vec<PathBuf>,

    /// Process the directory used in -f, --filename recursively (kubectl's default for wait:
    /// `-R=false` reads only the directory's own files).
    #[arg(
        short = 'R',
        long,
        value_name = "BOOL",
        num_args = 0..=1,
        require_equals = true,
        default_value_t = true,
        default_missing_value = "true",
        action = clap::ArgAction::Set
    )]
    pub recursive: bool,

    /// Label selector (`app=web,tier!=db`).
    #[arg(short = 'l', long, value_name = "SELECTOR")]
    pub selector: Option<String>,

    /// Field selector (`status.phase=Running`).
    #[arg(long, value_name = "SELECTOR")]
    pub field_selector: Option<String>,

    /// Every object of the types given, in the namespace.
    #[arg(long)]
    pub all: bool,

    /// Across all namespaces.
    #[arg(short = 'A', long)]
    pub all_namespaces: bool,

    /// The length of time to wait before giving up (e.g. 30s, 5m). Zero means check once and
    /// don't wait, negative means wait for a week.
    #[arg(
        long,
        value_name = "DURATION",
        default_value = "30s",
        allow_hyphen_values = true
    )]
    pub timeout: String,

    /// Print each object that met the condition as FORMAT: name, json, yaml,
    /// jsonpath=TEMPLATE, go-template=TEMPLATE, ... (default: `TYPE/NAME condition met`).
    #[arg(short = 'o', long, value_name = "FORMAT")]
    pub output: Option<String>,

    /// kw: say nothing on stderr about why a wait for ready goes on.
    #[arg(short = 'q', long)]
    pub quiet: bool,
}

/// Shown under `kw wait --help`.
pub(super) const WAIT_EXAMPLES: &str = "\
Examples:
  # Wait for the pod \"busybox1\" to contain the status condition of type \"Ready\"
  kw wait --for=condition=Ready pod/busybox1

  # Wait for the pod \"busybox1\" to contain the status phase to be \"Running\"
  kw wait --for=jsonpath='{.status.phase}'=Running pod/busybox1

  # Wait for the pod \"busybox1\" to be deleted, with a timeout of 60s
  kw wait --for=delete pod/busybox1 --timeout=60s

  # kw: wait for a deployment to be rolled out, failing at once if it cannot be
  kw wait --for=ready deploy/web --timeout=5m

Exit codes: 0 met, 1 usage, 2 a --fail-on condition met (--for=ready: failed), 3 --timeout
(or not met with --timeout=0), 6 not found (kubectl exits 1 for every failure).";
