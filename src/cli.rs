//! The command line exactly as the user typed it (clap derive). Nothing here is resolved or
//! checked against a kubeconfig or a server; `settings` does that. Flag names and meanings follow
//! kubectl's.

use std::path::PathBuf;

use clap::{Args, Parser, Subcommand};

#[derive(Debug, Parser)]
#[command(
    name = "kw",
    version,
    about = "Watch Kubernetes resources like `kubectl get -w`, without losing or repeating events",
    propagate_version = true
)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,

    /// Log level for diagnostics on stderr (kubectl's -v): 4 logs requests, reconnects and
    /// re-lists; 6 and up adds response statuses. Tokens are always redacted.
    #[arg(
        short = 'v',
        long = "v",
        global = true,
        value_name = "N",
        default_value_t = 0
    )]
    pub verbosity: u8,
}

// Parsed once per run: the size of the largest variant costs nothing worth boxing for.
#[allow(clippy::large_enum_variant)]
#[derive(Debug, Subcommand)]
pub enum Command {
    /// List resources, and with -w watch them for changes.
    Get(GetArgs),
    /// Watch the built-in simulated cluster: `kw sim` with churn, and `kw get` against it.
    Demo(DemoArgs),
    /// Run the simulated Kubernetes API server (for tests, benchmarks and offline scripts).
    Sim(crate::sim::SimArgs),
}

#[derive(Debug, Args)]
pub struct GetArgs {
    /// TYPE, TYPE NAME..., or TYPE/NAME... (e.g. `pods`, `pod nginx`, `deploy/web`).
    #[arg(value_name = "TYPE[/NAME]", required = true, num_args = 1..)]
    pub targets: Vec<String>,

    /// After listing, watch for changes.
    #[arg(short = 'w', long)]
    pub watch: bool,

    /// Watch for changes without printing the initial list.
    #[arg(long)]
    pub watch_only: bool,

    /// Namespace to use (default: the context's, else `default`).
    #[arg(short = 'n', long, value_name = "NAMESPACE")]
    pub namespace: Option<String>,

    /// List and watch across all namespaces.
    #[arg(short = 'A', long)]
    pub all_namespaces: bool,

    /// Label selector (`app=web,tier!=db`, `env in (a,b)`).
    #[arg(short = 'l', long, value_name = "SELECTOR")]
    pub selector: Option<String>,

    /// Field selector (`status.phase=Running`, `spec.nodeName=node-1`).
    #[arg(long, value_name = "SELECTOR")]
    pub field_selector: Option<String>,

    /// Page size of the initial list; 0 lists in one request.
    #[arg(long, value_name = "N", default_value_t = 500)]
    pub chunk_size: u64,

    /// Output format (default: the table printed by the server): wide, json, jsonl, yaml, name,
    /// jsonpath=TEMPLATE, jsonpath-file=FILE, jsonpath-as-json=TEMPLATE, custom-columns=SPEC,
    /// custom-columns-file=FILE.
    /// Go templates (go-template, template) are not supported.
    #[arg(short = 'o', long, value_name = "FORMAT", default_value = "")]
    pub output: String,

    /// With -w/--watch-only, say the type of each event (ADDED/MODIFIED/DELETED).
    #[arg(long)]
    pub output_watch_events: bool,

    /// Do not print table headers.
    #[arg(long)]
    pub no_headers: bool,

    /// Keep metadata.managedFields in -o json and -o yaml output (kubectl drops them by default).
    #[arg(long)]
    pub show_managed_fields: bool,

    /// In tables, show all labels as the last column (LABELS).
    #[arg(long)]
    pub show_labels: bool,

    /// In tables, show these labels as columns (`-L app,tier`; repeatable). The header is the
    /// key's last `/` segment, upper-cased.
    #[arg(
        short = 'L',
        long = "label-columns",
        value_name = "KEY,...",
        value_delimiter = ','
    )]
    pub label_columns: Vec<String>,

    /// Sort the initial list by this JSONPath (`.metadata.name`, `{.status.startTime}`, as
    /// kubectl); events that arrive later are printed as they come.
    #[arg(long, value_name = "JSONPATH")]
    pub sort_by: Option<String>,

    /// kw: say when kw received each event: a TIME column in tables, a "ts" field in JSON
    /// event lines. FORMAT: rfc3339 (UTC, the default), local, or relative (since kw started).
    #[arg(
        long,
        value_name = "FORMAT",
        num_args = 0..=1,
        require_equals = true,
        default_missing_value = "rfc3339",
        value_parser = ["rfc3339", "local", "relative"]
    )]
    pub timestamps: Option<String>,

    /// kw: colour event types, status words and headers: auto (on a terminal, unless NO_COLOR
    /// is set; CLICOLOR_FORCE forces it in a pipe), always, never.
    #[arg(
        long,
        value_name = "WHEN",
        default_value = "auto",
        value_parser = ["auto", "always", "never"]
    )]
    pub color: String,

    /// kw: under each MODIFIED row, the fields that changed since kw last saw the object
    /// (`status.phase: Pending → Running`; a "diff" field of RFC 6902 operations in JSON event
    /// lines). resourceVersion, managedFields and generation are ignored. kw keeps the last
    /// version of every watched object in memory to compare with.
    #[arg(long)]
    pub diff: bool,

    /// kw: do not print a MODIFIED event whose visible row (or, in other formats, the object
    /// without resourceVersion, managedFields and generation) is the same as the last one
    /// printed for that object: node heartbeats, status-only churn. Off by default, as kubectl.
    #[arg(long)]
    pub ignore_unchanged: bool,

    /// kw: print only these event types (`--only added,deleted`). The initial list counts as
    /// added.
    #[arg(long, value_name = "TYPE,...", value_delimiter = ',')]
    pub only: Vec<String>,

    #[command(flatten)]
    pub config: ConfigFlags,
}

/// How to reach and authenticate to the cluster (kubectl's global flags).
#[derive(Debug, Args, Default, Clone)]
pub struct ConfigFlags {
    /// Path to the kubeconfig file to use (that file only; otherwise $KUBECONFIG, then ~/.kube/config).
    #[arg(long, value_name = "PATH", global = true)]
    pub kubeconfig: Option<PathBuf>,

    /// The kubeconfig context to use.
    #[arg(long, value_name = "NAME", global = true)]
    pub context: Option<String>,

    /// The kubeconfig cluster to use.
    #[arg(long, value_name = "NAME", global = true)]
    pub cluster: Option<String>,

    /// The kubeconfig user to use.
    #[arg(long, value_name = "NAME", global = true)]
    pub user: Option<String>,

    /// The address of the API server (`https://host:port`).
    #[arg(short = 's', long, value_name = "URL", global = true)]
    pub server: Option<String>,

    /// Bearer token for authentication.
    #[arg(long, value_name = "TOKEN", global = true)]
    pub token: Option<String>,

    /// Path to a PEM file of CA certificates to verify the server with.
    #[arg(long, value_name = "PATH", global = true)]
    pub certificate_authority: Option<PathBuf>,

    /// Path to a PEM client certificate.
    #[arg(long, value_name = "PATH", global = true)]
    pub client_certificate: Option<PathBuf>,

    /// Path to the PEM key of the client certificate.
    #[arg(long, value_name = "PATH", global = true)]
    pub client_key: Option<PathBuf>,

    /// Server name to verify the server's certificate against, instead of the host.
    #[arg(long, value_name = "NAME", global = true)]
    pub tls_server_name: Option<String>,

    /// Do not verify the server's certificate. Insecure: kw warns every time.
    #[arg(long, global = true)]
    pub insecure_skip_tls_verify: bool,

    /// Give up on a request after this long (`30s`, `2m`; a bare number is seconds; 0 = never).
    /// Also cuts a watch after this long, as in kubectl.
    #[arg(long, value_name = "DURATION", global = true)]
    pub request_timeout: Option<String>,
}

#[derive(Debug, Args)]
pub struct DemoArgs {
    /// Events per second the simulated cluster produces.
    #[arg(long, value_name = "RATE", default_value_t = 2.0)]
    pub churn: f64,

    /// Seed for the simulated cluster's churn (the same seed, the same story).
    #[arg(long, default_value_t = 1)]
    pub seed: u64,

    /// Arguments for `kw get` (default: `pods -A --watch --output-watch-events`).
    #[arg(
        trailing_var_arg = true,
        allow_hyphen_values = true,
        value_name = "GET ARGS"
    )]
    pub get_args: Vec<String>,
}
