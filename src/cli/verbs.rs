//! kw's command line as clap derives it: the global flags (kubectl's, and `-v`) and the verbs,
//! with the arguments of those too small for a file of their own.

use clap::{Args, Parser, Subcommand};

use super::demo::DemoArgs;
use super::get::GetArgs;
use super::logs::{LogsArgs, LOGS_EXAMPLES};
use super::rollout::RolloutArgs;
use super::wait::{WaitArgs, WAIT_EXAMPLES};
use kw_client::config::flags::ConfigFlags;

#[derive(Debug, Parser)]
#[command(
    name = "kw",
    version,
    about = "Watch Kubernetes resources like `kubectl get -w`, without losing or repeating events",
    propagate_version = true,
    // A flag given twice is its last value, as pflag takes it (`--timeout=1m ... --timeout=5m`
    // from a script's variable and a line's own), not an error.
    args_override_self = true,
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

    /// Write the verdict of a wait (get --until, rollout status, wait) for the CI too, as
    /// well as on stderr (repeatable): github (step summary, annotations, outputs; on under
    /// GITHUB_ACTIONS=true), gitlab (a collapsible section; on under GITLAB_CI=true),
    /// junit=FILE, json=FILE, or none (also KW_REPORT=none).
    #[arg(
        long = "report",
        global = true,
        value_name = "FORMAT",
        help_heading = GLOBAL_HEADING
    )]
    pub report: Vec<String>,

    /// The kuberc to read preferences (defaults, aliases, credentialPluginPolicy) from, as
    /// kubectl does: else $KUBERC, else ~/.kube/kuberc; KUBERC=off or KUBECTL_KUBERC=false
    /// reads none.
    #[arg(
        long = "kuberc",
        global = true,
        value_name = "PATH",
        help_heading = GLOBAL_HEADING,
        overrides_with = "kuberc"
    )]
    pub kuberc: Option<std::path::PathBuf>,
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
    /// Print the logs of a Pod's containers, as `kubectl logs` (its lines on stdout, byte for
    /// byte); -f follows them until the containers end.
    #[command(after_help = LOGS_EXAMPLES)]
    Logs(LogsArgs),
    /// Print kw's version and, when a cluster is reachable, the server's.
    Version(VersionArgs),
    /// Manage the rollout of a resource (kubectl's `rollout`): `status`; the others go to
    /// kubectl.
    #[command(after_help = ROLLOUT_HANDED)]
    Rollout(RolloutArgs),
    /// Wait for a condition on one or many resources, as `kubectl wait` (its lines on stdout,
    /// byte for byte).
    #[command(after_help = WAIT_EXAMPLES)]
    Wait(WaitArgs),
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

    /// One of 'yaml' or 'json': clientVersion (kw's) and serverVersion, as kubectl's.
    #[arg(short = 'o', long, value_name = "FORMAT")]
    pub output: Option<String>,
}

/// `kw sim`'s arguments, handed to the simulator's own parser (`kw_sim::SimCli`).
#[derive(Debug, Args)]
pub struct SimPassthrough {
    #[arg(trailing_var_arg = true, allow_hyphen_values = true, num_args = 0.., hide = true)]
    pub args: Vec<std::ffi::OsString>,
}

/// Shown under `kw --help`.
const TOP_EXAMPLES: &str = "\
Examples:
  kw get pods -w                                  watch pods in the current namespace
  kw get pods,deploy -A -w --output-watch-events  several types at once, with event types
  kw get pods -w -o jsonl | jq -c .metadata.name  one JSON object per line for jq
  kw get job/migrate --until condition=Complete --fail-on condition=Failed --timeout 10m
  kw logs -f deploy/web --prefix                  follow a workload's Pod, as kubectl logs
  kw demo                                         a simulated cluster, no cluster needed
  source <(kw completion bash)                    shell completion

kw's commands are the ones above; kubectl's others (describe, apply, delete, exec, rollout undo,
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

/// Shown under `kw rollout --help`: the verbs clap does not list, which kw hands on.
const ROLLOUT_HANDED: &str = "\
kubectl's other rollout commands (history, pause, restart, resume, undo) are handed to kubectl
with the same arguments, input, output and exit status: `kw rollout undo deployment/web` runs
`kubectl rollout undo deployment/web`.";

/// Shown under `kw completion --help`.
const COMPLETION_EXAMPLES: &str = "\
Examples:
  source <(kw completion bash)                       bash, this shell only
  kw completion zsh > \"${fpath[1]}/_kw\"              zsh
  kw completion fish > ~/.config/fish/completions/kw.fish
  kw completion powershell | Out-String | Invoke-Expression
  eval (kw completion elvish | slurp)                elvish";
