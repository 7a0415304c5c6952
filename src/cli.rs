//! The command line exactly as the user typed it (clap derive). Nothing here is resolved or
//! checked against a kubeconfig or a server; `settings` does that. Flag names and meanings follow
//! kubectl's.

use std::path::PathBuf;

use clap::{Args, Parser, Subcommand};

use crate::config::flags::ConfigFlags;

#[derive(Debug, Parser)]
#[command(
    name = "kw",
    version,
    about = "Watch Kubernetes resources like `kubectl get -w`, without losing or repeating events",
    propagate_version = true,
    after_help = TOP_EXAMPLES
)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,

    /// kubectl's global flags: accepted before or after the subcommand (`kw --context prod get
    /// pods`, `kw get pods --context prod`), so kubectl habits and aliases carry over.
    #[command(flatten, next_help_heading = GLOBAL_HEADING)]
    pub config: ConfigFlags,

    /// Log level for diagnostics on stderr (kubectl's -v): 4 logs requests, reconnects and
    /// re-lists; 6 and up adds response statuses. Tokens are always redacted.
    #[arg(
        short = 'v',
        long = "v",
        global = true,
        value_name = "N",
        default_value_t = 0,
        help_heading = GLOBAL_HEADING,
        overrides_with = "verbosity"
    )]
    pub verbosity: u8,
}

/// Where `--help` lists the flags that go anywhere on the command line.
const GLOBAL_HEADING: &str = "Global options (before or after the subcommand)";

// Parsed once per run: the size of the largest variant costs nothing worth boxing for.
#[allow(clippy::large_enum_variant)]
#[derive(Debug, Subcommand)]
pub enum Command {
    /// List resources, and with -w watch them for changes.
    Get(GetArgs),
    /// Watch the built-in simulated cluster: `kw sim` with churn, and `kw get` against it.
    Demo(DemoArgs),
    /// Run the simulated Kubernetes API server (for tests, benchmarks and offline scripts; `kw
    /// sim --help` lists its flags).
    #[command(disable_help_flag = true)]
    Sim(SimPassthrough),
    /// Print a shell completion script (bash, zsh, fish, powershell, elvish).
    #[command(after_help = COMPLETION_EXAMPLES)]
    Completion(CompletionArgs),
    /// Print kw's version and, when a cluster is reachable, the server's.
    Version(VersionArgs),
    /// Manage the rollout of a resource (kubectl's `rollout`): `status`.
    Rollout(RolloutArgs),
    /// Wait for a condition on one or many resources, as `kubectl wait` (its lines on stdout,
    /// byte for byte).
    #[command(after_help = WAIT_EXAMPLES)]
    Wait(WaitArgs),
}

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

    /// kw: how long a Pod of the rollout's current revision may stay stuck (CrashLoopBackOff,
    /// ImagePullBackOff, unschedulable...) before the rollout fails, with exit 2 (kubectl waits
    /// for the progress deadline); `0` fails at once. Default 30s.
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
const WAIT_EXAMPLES: &str = "\
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

#[derive(Debug, Args)]
#[command(after_help = GET_MORE, after_long_help = GET_EXAMPLES)]
pub struct GetArgs {
    /// TYPE, TYPE NAME..., or TYPE/NAME... (`pods`, `deploy/web`).
    ///
    /// TYPE, TYPE NAME..., or TYPE/NAME... (e.g. `pods`, `pod nginx`, `deploy/web`).
    #[arg(value_name = "TYPE[/NAME]", num_args = 0..)]
    pub targets: Vec<String>,

    /// After listing, watch for changes.
    #[arg(short = 'w', long)]
    pub watch: bool,

    /// Watch without printing the initial list.
    ///
    /// Watch for changes without printing the initial list.
    #[arg(long)]
    pub watch_only: bool,

    /// Redraw the current state in place (terminal).
    ///
    /// On a terminal, show the current state in place (one row per object, redrawn as events
    /// arrive, a footer with counts) instead of a log of events. Implies --watch.
    #[arg(long)]
    pub live: bool,

    /// List and watch across all namespaces.
    #[arg(short = 'A', long)]
    pub all_namespaces: bool,

    /// Say nothing of named objects that do not exist.
    ///
    /// A one-shot get says nothing of named objects that do not exist, nor "No resources
    /// found", and exits 0 (kubectl's --ignore-not-found). A watch still needs its object.
    #[arg(long, hide_short_help = true)]
    pub ignore_not_found: bool,

    /// Label selector (`app=web,tier!=db`).
    ///
    /// Label selector (`app=web,tier!=db`, `env in (a,b)`).
    #[arg(short = 'l', long, value_name = "SELECTOR")]
    pub selector: Option<String>,

    /// Field selector (`status.phase=Running`).
    ///
    /// Field selector (`status.phase=Running`, `spec.nodeName=node-1`).
    #[arg(long, value_name = "SELECTOR")]
    pub field_selector: Option<String>,

    /// Page size of the initial list.
    ///
    /// Page size of the initial list; 0 lists in one request.
    #[arg(long, value_name = "N", default_value_t = 500)]
    pub chunk_size: u64,

    /// Largest object accepted.
    ///
    /// Refuse any object larger than SIZE bytes (a broken or hostile server must not exhaust
    /// memory). Suffixes Ki, Mi, Gi.
    #[arg(long, value_name = "SIZE", default_value = "64Mi", value_parser = parse_size)]
    pub max_object_size: usize,

    // ---- waiting, limits and manifests (kw in scripts; see conditions.rs, manifest.rs) ----
    /// Watch the objects of a manifest (`-`: stdin).
    ///
    /// Watch the objects a manifest names (YAML or JSON, several documents; `-` reads stdin; a
    /// directory: its .json, .yaml and .yml files). Repeatable: the files' objects in the order
    /// given.
    #[arg(
        short = 'f',
        long,
        value_name = "FILE",
        help_heading = "Waiting and limits"
    )]
    pub filename: Vec<PathBuf>,

    /// Read -f's directories with their subdirectories.
    ///
    /// Process the directory used in -f, --filename recursively.
    #[arg(short = 'R', long, help_heading = "Waiting and limits")]
    pub recursive: bool,

    /// End with exit 0 once EXPR holds (e.g. `ready`).
    ///
    /// End the watch with exit 0 once EXPR holds: `ready` (rolled out: kstatus's rules per
    /// kind), `delete`, `create`, `condition=Ready`, `condition=Available=False`,
    /// `jsonpath='{.status.phase}'=Succeeded`. Repeatable: any one met ends the watch. Implies
    /// --watch; the initial list counts.
    #[arg(long, value_name = "EXPR", help_heading = "Waiting and limits")]
    pub until: Vec<String>,

    /// End with exit 2 once EXPR holds (e.g. `failed`).
    ///
    /// End the watch with exit 2 once EXPR holds for any watched object: `failed` (it will not
    /// get ready without someone acting), or the EXPRs of --until but `ready`. Repeatable.
    /// Implies --watch.
    #[arg(long, value_name = "EXPR", help_heading = "Waiting and limits")]
    pub fail_on: Vec<String>,

    /// --until: `all` objects or `any`.
    ///
    /// `all`: --until needs every watched object (every named one, or every one the selector
    /// matches, at least one); `any`: one object suffices.
    #[arg(
        long = "for",
        value_name = "all|any",
        default_value = "all",
        help_heading = "Waiting and limits"
    )]
    pub for_objects: String,

    /// Say nothing on stderr about why a wait goes on.
    ///
    /// While waiting for `ready`/`failed`, say nothing on stderr about why the wait goes on
    /// (each change of an object's judgement, and the Warning events of the objects and of what
    /// they own); the verdict, its summary and errors are still said.
    #[arg(short = 'q', long, help_heading = "Waiting and limits")]
    pub quiet: bool,

    /// Time a Pod may stay stuck.
    ///
    /// Under `--fail-on failed`: how long a Pod of a workload's current revision may stay stuck
    /// (CrashLoopBackOff, ImagePullBackOff, ErrImagePull, InvalidImageName,
    /// CreateContainerConfigError, unschedulable) before it fails the workload; `0` fails at once.
    // The default is plan's DEFAULT_FAIL_GRACE (a plan test checks they agree).
    #[arg(
        long,
        value_name = "DURATION",
        default_value = "30s",
        help_heading = "Waiting and limits"
    )]
    pub fail_grace: Option<String>,

    /// Give up after DURATION with exit 3.
    ///
    /// Give up after DURATION (`30s`, `5m`, `1h30m`) with exit 3.
    #[arg(long, value_name = "DURATION", help_heading = "Waiting and limits")]
    pub timeout: Option<String>,

    /// Stop after N printed events, with exit 0.
    ///
    /// Stop after N printed events (list items count), with exit 0.
    #[arg(long, value_name = "N", help_heading = "Waiting and limits")]
    pub max_events: Option<u64>,

    /// Format: wide, json, jsonl, yaml, name, ...
    ///
    /// Output format (default: the table printed by the server): wide, json, jsonl, yaml, name,
    /// jsonpath=TEMPLATE, jsonpath-file=FILE, jsonpath-as-json=TEMPLATE, custom-columns=SPEC,
    /// custom-columns-file=FILE, go-template=TEMPLATE, go-template-file=FILE.
    #[arg(
        short = 'o',
        long,
        value_name = "FORMAT",
        default_value = "",
        hide_default_value = true,
        help_heading = "Output"
    )]
    pub output: String,

    /// The Go template of -o go-template; alone, it means -o go-template=TEMPLATE.
    #[arg(
        long,
        value_name = "TEMPLATE",
        help_heading = "Output",
        hide_short_help = true
    )]
    pub template: Option<String>,

    /// With =false, a jsonpath or go-template key an object lacks is an error.
    ///
    /// kubectl's --allow-missing-template-keys: with =false, a key that a -o jsonpath or -o
    /// go-template reads and an object lacks is an error instead of nothing (`<no value>`).
    #[arg(
        long,
        value_name = "BOOL",
        num_args = 0..=1,
        require_equals = true,
        default_value = "true",
        default_missing_value = "true",
        value_parser = go_bool,
        action = clap::ArgAction::Set,
        help_heading = "Output",
        hide_short_help = true
    )]
    pub allow_missing_template_keys: bool,

    /// Say each event's type (ADDED/MODIFIED/DELETED).
    ///
    /// With -w/--watch-only, say the type of each event (ADDED/MODIFIED/DELETED).
    #[arg(long, help_heading = "Output")]
    pub output_watch_events: bool,

    /// Do not print table headers.
    #[arg(long, help_heading = "Output")]
    pub no_headers: bool,

    /// Put the kind before each name (`pod/web-1`).
    ///
    /// Put the kind in front of each name (`pod/web-1`); always on for several types.
    #[arg(long, help_heading = "Output")]
    pub show_kind: bool,

    /// Keep metadata.managedFields in -o json|yaml.
    ///
    /// Keep metadata.managedFields in -o json and -o yaml output (kubectl drops them by default).
    #[arg(long, help_heading = "Output")]
    pub show_managed_fields: bool,

    /// Show all labels as a last column (LABELS).
    ///
    /// In tables, show all labels as the last column (LABELS).
    #[arg(long, help_heading = "Output")]
    pub show_labels: bool,

    /// Show these labels as columns (`-L app,tier`).
    ///
    /// In tables, show these labels as columns (`-L app,tier`; repeatable). The header is the
    /// key's last `/` segment, upper-cased.
    #[arg(
        help_heading = "Output",
        short = 'L',
        long = "label-columns",
        value_name = "KEY,...",
        value_delimiter = ','
    )]
    pub label_columns: Vec<String>,

    /// Sort the initial list by this JSONPath.
    ///
    /// Sort the initial list by this JSONPath (`.metadata.name`, `{.status.startTime}`, as
    /// kubectl); events that arrive later are printed as they come.
    #[arg(long, value_name = "JSONPATH", help_heading = "Output")]
    pub sort_by: Option<String>,

    /// Time kw got each event: rfc3339|local|relative.
    ///
    /// Say when kw received each event: a TIME column in tables, a "ts" field in JSON event
    /// lines (-o json|jsonl --output-watch-events). FORMAT: rfc3339 (UTC, the default), local
    /// (a short clock, 13:04:01.993, in tables; RFC 3339 with the offset in JSON), or relative
    /// (since kw started). Give FORMAT with `=`: `--timestamps=local`.
    #[arg(
        long,
        hide_possible_values = true,
        help_heading = "Output",
        value_name = "FORMAT",
        num_args = 0..=1,
        require_equals = true,
        default_missing_value = "rfc3339",
        value_parser = ["rfc3339", "local", "relative"]
    )]
    pub timestamps: Option<String>,

    /// Colour: auto|always|never.
    ///
    /// Colour event types, status words and headers: auto (on a terminal, unless NO_COLOR
    /// is set; CLICOLOR_FORCE forces it in a pipe), always, never.
    #[arg(
        long,
        hide_possible_values = true,
        help_heading = "Output",
        value_name = "WHEN",
        default_value = "auto",
        value_parser = ["auto", "always", "never"]
    )]
    pub color: String,

    /// Changed fields under MODIFIED rows: brief|all.
    ///
    /// Under each MODIFIED row, the fields that changed since kw last saw the object, one
    /// line each (`status.phase: Pending → Running`, `Ready: False → True`), values shortened.
    /// brief (the default) hides bookkeeping (resourceVersion, managedFields, generation,
    /// last*Time, containerID, imageID, observedGeneration); all shows every field. JSON event
    /// lines (-o json|jsonl --output-watch-events) get a complete "diff" field of RFC 6902
    /// operations. kw keeps the last version of every watched object in memory to compare with.
    /// Give DETAIL with `=`: `--diff=all`.
    #[arg(
        long,
        hide_possible_values = true,
        help_heading = "Output",
        value_name = "DETAIL",
        num_args = 0..=1,
        require_equals = true,
        default_missing_value = "brief",
        value_parser = ["brief", "all"]
    )]
    pub diff: Option<String>,

    /// Skip MODIFIED events that change nothing shown.
    ///
    /// Do not print a MODIFIED event whose visible row (or, in other formats, the object
    /// without resourceVersion, managedFields and generation) is the same as the last one
    /// printed for that object: node heartbeats, status-only churn. Off by default, as kubectl.
    #[arg(long, help_heading = "Output")]
    pub ignore_unchanged: bool,

    /// Print only these event types (`added,deleted`).
    ///
    /// Print only these event types (`--only added,deleted`). The initial list counts as
    /// added.
    #[arg(
        long,
        value_name = "TYPE,...",
        value_delimiter = ',',
        help_heading = "Output"
    )]
    pub only: Vec<String>,
}

#[derive(Debug, Args)]
pub struct CompletionArgs {
    /// The shell to print the script for.
    #[arg(value_enum)]
    pub shell: clap_complete::Shell,
}

#[derive(Debug, Args)]
pub struct VersionArgs {
    /// Print only kw's version; do not ask the server.
    #[arg(long)]
    pub client: bool,
}

/// Shown under `kw --help`.
const TOP_EXAMPLES: &str = "\
Examples:
  kw get pods -w                                  watch pods in the current namespace
  kw get pods,deploy -A -w --output-watch-events  several types at once, with event types
  kw get pods -w -o jsonl | jq -c .metadata.name  one JSON object per line for jq
  kw get job/migrate --until condition=Complete --fail-on condition=Failed --timeout 10m
  kw demo                                         a simulated cluster, no cluster needed
  source <(kw completion bash)                    shell completion

kw's commands are the ones above; kubectl's others (describe, apply, delete, logs, rollout undo,
...) are handed to kubectl with the same arguments, input, output and exit status.

Environment:
  KUBECONFIG       kubeconfig files (':'-separated; the first to set a value wins)
  HOME             ~/.kube/config when KUBECONFIG is unset
  KW_KUBECTL       the kubectl to hand kubectl's other commands to (default: kubectl on PATH)
  KW_IDLE_TIMEOUT  silence after which a watch connection counts as dead (default 75s)
  NO_COLOR         no colours in diagnostics

Exit codes: 0 done, 1 usage/config, 2 --fail-on met, 3 --timeout, 4 auth refused (401/403),
5 server unreachable, 6 server error, 130 interrupted, 141 stdout closed before a verdict,
128 + N ended by signal N (143 SIGTERM).";

/// Shown under `kw get --help`.
const GET_EXAMPLES: &str = "\
Examples:
  In a terminal:
    kw get pods                                  list once, like kubectl get pods
    kw get pods -A -w --output-watch-events      watch every namespace, with an EVENT column
    kw get deploy web -n prod -w                 one object (also notices it being created)
  With jq:
    kw get pods -w -o jsonl | jq -c 'select(.status.phase==\"Failed\")'
    kw get pods -w -o jsonl --output-watch-events | jq -r '.type + \" \" + .object.metadata.name'
  In CI (exit 0 when met, 2 on --fail-on, 3 on --timeout):
    kw get deploy/web --until ready --fail-on failed --timeout 5m   # rolled out, or why not
    kw get -f app.yaml --until ready --fail-on failed --timeout 5m
    kw get job/migrate --until condition=Complete --fail-on condition=Failed --timeout 10m
    kw get pods -l app=web --until condition=Ready --timeout 5m -o name
    kw get pod/setup --until create --timeout 2m          # wait for a pod to appear
    kw get -f deploy.yaml --until condition=Available --timeout 5m
    kw get pods -w --max-events 1 -o name                 # the first event, then exit

  --for all (the default) waits until every watched object meets --until: every named object,
  or every object the selector matches (at least one; objects deleted meanwhile drop out).
  --for any ends at the first object that meets it. --fail-on always trips on one object.

Environment: KUBECONFIG, HOME (~/.kube/config), KW_IDLE_TIMEOUT (default 75s), NO_COLOR.";

/// Shown under `kw get -h`.
const GET_MORE: &str = "\
`kw get --help`: every option in full (connection flags too), and examples.";

/// Shown under `kw completion --help`.
const COMPLETION_EXAMPLES: &str = "\
Examples:
  source <(kw completion bash)                       bash, this shell only
  kw completion zsh > \"${fpath[1]}/_kw\"              zsh
  kw completion fish > ~/.config/fish/completions/kw.fish
  kw completion powershell | Out-String | Invoke-Expression
  eval (kw completion elvish | slurp)                elvish";

/// `kw sim`'s arguments, handed to the simulator's own parser (`kw_sim::SimCli`).
#[derive(Debug, Args)]
pub struct SimPassthrough {
    #[arg(trailing_var_arg = true, allow_hyphen_values = true, num_args = 0.., hide = true)]
    pub args: Vec<std::ffi::OsString>,
}

#[derive(Debug, Args)]
pub struct DemoArgs {
    /// Events per second the simulated cluster produces.
    #[arg(long, value_name = "RATE", default_value_t = 2.0)]
    pub churn: f64,

    /// Seed for the simulated cluster's churn (the same seed, the same story).
    #[arg(long, default_value_t = 1)]
    pub seed: u64,

    /// Act out a rollout in namespace default as the demo starts: PLOT is completes,
    /// image-pull, crash-loop, job-completes or job-fails; NAME defaults to PLOT. Repeatable.
    /// Try `kw demo --rollout image-pull:shop -- deploy/shop --until ready --fail-on failed`.
    #[arg(long, value_name = "PLOT[:NAME]")]
    pub rollout: Vec<String>,

    /// Arguments for `kw get` (default: `pods -A --watch --output-watch-events`).
    #[arg(
        trailing_var_arg = true,
        allow_hyphen_values = true,
        value_name = "GET ARGS"
    )]
    pub get_args: Vec<String>,
}

/// The global flags `-h` shows (`--help` shows them all): the ones used every day.
const GLOBALS_IN_SHORT_HELP: [&str; 2] = ["namespace", "context"];

/// The short help of those, one line each (their doc comments are the long help).
const GLOBAL_SHORT_HELP: [(&str, &str); 2] = [
    (
        "namespace",
        "Namespace; a comma list or globs choose several",
    ),
    ("context", "Context; a comma list or globs choose several"),
];

/// The global flags that choose a cluster or a credential, which `kw demo` refuses (it runs
/// its own cluster: `ConfigFlags::cluster_choice`); its help does not list them.
pub const DEMO_REFUSES: [&str; 15] = [
    "kubeconfig",
    "context",
    "all_contexts",
    "cluster",
    "user",
    "server",
    "token",
    "certificate_authority",
    "client_certificate",
    "client_key",
    "tls_server_name",
    "insecure_skip_tls_verify",
    "as_user",
    "as_group",
    "as_uid",
];

/// `command` with kubectl's booleans, for parsing: every switch also takes `=true`/`=false` (and
/// the other spellings Go's `strconv.ParseBool` reads), as pflag's boolean flags do, so that
/// `-A=true` and `--no-headers=false` from a kubectl script work. Help, man pages and completions
/// keep the plain switches (`-A, --all-namespaces`, not `-A, --all-namespaces[=<BOOL>]`).
pub fn with_pflag_booleans(command: clap::Command) -> clap::Command {
    pflag_booleans(command)
}

fn pflag_booleans(mut command: clap::Command) -> clap::Command {
    let switches: Vec<String> = command
        .get_arguments()
        .filter(|a| matches!(a.get_action(), clap::ArgAction::SetTrue))
        .map(|a| a.get_id().to_string())
        .collect();
    for id in switches {
        command = command.mut_arg(id.as_str(), |arg| {
            arg.num_args(0..=1)
                .require_equals(true)
                .default_missing_value("true")
                .default_value("false")
                .hide_default_value(true)
                .value_name("BOOL")
                .value_parser(go_bool)
                .action(clap::ArgAction::Set)
        });
    }
    in_every_subcommand(command, pflag_booleans)
}

/// `change` applied to each subcommand of `command` (which `change` may recurse into).
fn in_every_subcommand(
    mut command: clap::Command,
    change: fn(clap::Command) -> clap::Command,
) -> clap::Command {
    let names: Vec<String> = command
        .get_subcommands()
        .map(|c| c.get_name().to_string())
        .collect();
    for name in names {
        command = command.mut_subcommand(name, change);
    }
    command
}

/// Go's `strconv.ParseBool`, which pflag reads a boolean flag's value with.
fn go_bool(text: &str) -> Result<bool, String> {
    match text {
        "1" | "t" | "T" | "true" | "TRUE" | "True" => Ok(true),
        "0" | "f" | "F" | "false" | "FALSE" | "False" => Ok(false),
        _ => Err(format!(
            "strconv.ParseBool: parsing \"{text}\": invalid syntax"
        )),
    }
}

/// kw's command line as clap parses it and prints its help: the derived `Cli`, with `-h` kept
/// short (the everyday global flags only, one line each; `--help` has them all), `kw demo`'s help
/// without the flags it refuses, and the usage said as `kubectl kw` when kw runs as a kubectl
/// plugin (`argv0` is `kubectl-kw`).
pub fn command(argv0: Option<&std::ffi::OsStr>) -> clap::Command {
    use clap::CommandFactory;
    let mut command = Cli::command();
    let globals: Vec<String> = command
        .get_arguments()
        .filter(|a| a.is_global_set())
        .map(|a| a.get_id().to_string())
        .collect();
    for id in globals {
        let short = GLOBAL_SHORT_HELP.iter().find(|(g, _)| *g == id);
        let shown = GLOBALS_IN_SHORT_HELP.contains(&id.as_str());
        command = command.mut_arg(id.as_str(), |arg| {
            let arg = match short {
                Some((_, help)) => match arg.get_long_help().or(arg.get_help()).cloned() {
                    Some(long) => arg.long_help(long).help(*help),
                    None => arg.help(*help),
                },
                None => arg,
            };
            arg.hide_short_help(!shown)
        });
    }
    command = without_summary_in_long_help(command);
    if argv0.is_some_and(invoked_as_plugin) {
        command = command.bin_name("kubectl kw");
    }
    // A subcommand that has an argument of a global's id keeps its own (clap propagates
    // globals only where they are missing): demo gets hidden copies, parsed as before.
    let refused: Vec<clap::Arg> = command
        .get_arguments()
        .filter(|a| DEMO_REFUSES.contains(&a.get_id().as_str()))
        .cloned()
        .collect();
    command.mut_subcommand("demo", |mut demo| {
        for arg in refused {
            demo = demo.arg(arg.hide(true));
        }
        demo
    })
}

/// clap's derive makes a doc comment's first paragraph the short help and the whole comment
/// the long help; kw's first paragraphs are one-line summaries of the text after them, which
/// `--help` then need not repeat.
fn without_summary_in_long_help(command: clap::Command) -> clap::Command {
    let ids: Vec<String> = command
        .get_arguments()
        .map(|a| a.get_id().to_string())
        .collect();
    let mut command = command;
    for id in ids {
        command = command.mut_arg(id.as_str(), |arg| {
            let (Some(short), Some(long)) = (arg.get_help(), arg.get_long_help()) else {
                return arg;
            };
            let (short, long) = (short.to_string(), long.to_string());
            let rest = long
                .strip_prefix(short.as_str())
                .map(|rest| rest.strip_prefix('.').unwrap_or(rest))
                .and_then(|rest| rest.strip_prefix("\n\n"));
            match rest {
                Some(rest) => arg.long_help(rest.to_string()),
                None => arg,
            }
        });
    }
    in_every_subcommand(command, without_summary_in_long_help)
}

/// kubectl runs a plugin `kw` as the program `kubectl-kw` (on its PATH).
fn invoked_as_plugin(argv0: &std::ffi::OsStr) -> bool {
    std::path::Path::new(argv0)
        .file_stem()
        .is_some_and(|name| name == "kubectl-kw")
}

/// An optional flag value given after a space (`--timestamps local`): clap, as kubectl's
/// parser, takes the flag alone and the value as a positional argument, which would then be
/// looked up as an object named `local`. kw knows both words, so it asks instead.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("did you mean {flag}={value}?")]
pub struct SpacedOptionalValue {
    pub flag: String,
    pub value: String,
}

/// The flags whose value is optional (`--diff`, `--timestamps`, `--insecure-skip-tls-verify`,
/// any added later: those that take `0..=1` values, `=` required), each with the values it
/// takes (its possible values, or for a boolean `true` and `false`).
pub fn optional_valued_flags() -> Vec<(String, Vec<String>)> {
    use clap::CommandFactory;
    let mut command = Cli::command();
    command.build();
    let get = command
        .find_subcommand("get")
        .expect("kw has a get subcommand")
        .clone();
    command
        .get_arguments()
        .chain(get.get_arguments())
        .filter(|arg| {
            arg.is_require_equals_set() && arg.get_num_args().is_some_and(|n| n.min_values() == 0)
        })
        .filter_map(|arg| {
            let long = arg.get_long()?;
            let mut values: Vec<String> = arg
                .get_possible_values()
                .iter()
                .map(|v| v.get_name().to_string())
                .collect();
            // A boolean (`=true`/`=false`, as pflag takes them) lists no possible values.
            if values.is_empty() {
                values = vec!["true".into(), "false".into()];
            }
            Some((format!("--{long}"), values))
        })
        .collect()
}

/// The first optional-valued flag in `args` (the words after the program's name) followed by
/// one of its values as a word of its own (for `kw get` and `kw demo`; `kw sim` has its own).
pub fn spaced_optional_value(args: &[String]) -> Option<SpacedOptionalValue> {
    let flags = optional_valued_flags();
    args.windows(2).find_map(|pair| {
        let (_, values) = flags.iter().find(|(flag, _)| *flag == pair[0])?;
        values.contains(&pair[1]).then(|| SpacedOptionalValue {
            flag: pair[0].clone(),
            value: pair[1].clone(),
        })
    })
}

/// `64Mi`, `512Ki`, `1Gi` or plain bytes.
fn parse_size(text: &str) -> Result<usize, String> {
    let (digits, unit) = match text.find(|c: char| !c.is_ascii_digit()) {
        Some(i) => text.split_at(i),
        None => (text, ""),
    };
    let shift = match unit {
        "" => 0,
        "Ki" => 10,
        "Mi" => 20,
        "Gi" => 30,
        _ => return Err(format!("unknown unit {unit:?} (use Ki, Mi or Gi)")),
    };
    let value: usize = digits
        .parse()
        .map_err(|_| format!("{text:?} is not a size"))?;
    value
        .checked_shl(shift)
        .filter(|v| *v > 0 && v >> shift == value)
        .ok_or_else(|| format!("{text:?} is out of range"))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(line: &str) -> Vec<String> {
        line.split_whitespace().map(String::from).collect()
    }

    #[test]
    fn finds_the_optional_valued_flags() {
        let flags = optional_valued_flags();
        let names: Vec<&str> = flags.iter().map(|(f, _)| f.as_str()).collect();
        for flag in ["--timestamps", "--diff", "--insecure-skip-tls-verify"] {
            assert!(names.contains(&flag), "{flag} in {names:?}");
        }
        for (flag, values) in &flags {
            assert!(!values.is_empty(), "{flag} has values");
        }
    }

    #[test]
    fn a_spaced_optional_value_is_asked_about() {
        let asked = |line: &str| spaced_optional_value(&words(line)).map(|e| e.to_string());
        assert_eq!(
            asked("get pods -w --timestamps local").as_deref(),
            Some("did you mean --timestamps=local?")
        );
        assert_eq!(
            asked("get pods --diff all -w").as_deref(),
            Some("did you mean --diff=all?")
        );
        assert_eq!(asked("get pods -w --timestamps=local"), None);
        assert_eq!(asked("get pods --diff -w"), None);
        assert_eq!(asked("get pods --diff web"), None);
        assert_eq!(asked("get all --diff"), None);
    }

    /// `kw demo --help` hides exactly the global flags demo refuses.
    #[test]
    fn demo_hides_the_flags_it_refuses() {
        use clap::CommandFactory;
        let root = Cli::command();
        for arg in root.get_arguments().filter(|a| a.is_global_set()) {
            let long = format!("--{}", arg.get_long().expect("a long name"));
            let takes_value = arg.get_action().takes_values() && !arg.is_require_equals_set();
            let mut argv = vec!["kw".to_string(), long.clone()];
            if takes_value {
                argv.push("1".into());
            }
            argv.push("demo".into());
            let cli = Cli::try_parse_from(&argv).expect("parses");
            let refused = cli.config.cluster_choice();
            let hidden = DEMO_REFUSES.contains(&arg.get_id().as_str());
            assert_eq!(refused.is_some(), hidden, "{argv:?}");
        }
    }

    #[test]
    fn parses_sizes() {
        assert_eq!(parse_size("64Mi"), Ok(64 << 20));
        assert_eq!(parse_size("512Ki"), Ok(512 << 10));
        assert_eq!(parse_size("1000"), Ok(1000));
        assert!(parse_size("0").is_err());
        assert!(parse_size("5MB").is_err());
        assert!(parse_size("x").is_err());
    }
}
