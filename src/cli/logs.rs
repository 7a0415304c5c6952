//! `kw logs`'s flags, kubectl 1.37's: the Pod (or workload, or `-l`) whose containers' logs to
//! print, and `PodLogOptions` as its flags spell them. `--all-pods` and
//! `--insecure-skip-tls-verify-backend` are kubectl's alone: a line with them goes to kubectl.

use clap::Args;

/// `kw logs [-f] [-p] (POD | TYPE/NAME) [-c CONTAINER]`.
#[derive(Debug, Args)]
pub struct LogsArgs {
    /// POD, TYPE/NAME (`pod/web-1`, `deploy/web`), or nothing with -l; then a container name,
    /// as kubectl's old form (`kw logs web-1 app`).
    #[arg(value_name = "POD | TYPE/NAME")]
    pub targets: Vec<String>,

    /// Print the logs of this container (with -w: of each container whose name matches this
    /// regex, unanchored, as stern's `--container`).
    #[arg(short = 'c', long, value_name = "CONTAINER")]
    pub container: Option<String>,

    /// kw: with -w, leave out the containers whose name matches REGEX. Repeatable.
    #[arg(long, value_name = "REGEX")]
    pub exclude_container: Vec<String>,

    /// kw: with -w, show only the lines that match REGEX (any one, when repeated).
    #[arg(long, value_name = "REGEX")]
    pub include: Vec<String>,

    /// kw: with -w, leave out the lines that match REGEX. Repeatable.
    #[arg(long, value_name = "REGEX")]
    pub exclude: Vec<String>,

    /// Get all containers' logs in the pod(s).
    #[arg(long)]
    pub all_containers: bool,

    /// Specify if the logs should be streamed.
    #[arg(short = 'f', long)]
    pub follow: bool,

    /// If true, print the logs for the previous instance of the container in a pod if it
    /// exists.
    #[arg(short = 'p', long)]
    pub previous: bool,

    /// Selector (label query) to filter on (`app=web,tier!=db`).
    #[arg(short = 'l', long, value_name = "SELECTOR")]
    pub selector: Option<String>,

    /// Lines of recent log file to display. Defaults to -1 with no selector, showing all log
    /// lines otherwise 10, if a selector is provided.
    #[arg(long, value_name = "N", default_value_t = -1, allow_hyphen_values = true)]
    pub tail: i64,

    /// Only return logs newer than a relative duration like 5s, 2m, or 3h.
    #[arg(long, value_name = "DURATION")]
    pub since: Option<String>,

    /// Only return logs after a specific date (RFC3339).
    #[arg(long, value_name = "TIME")]
    pub since_time: Option<String>,

    /// Include timestamps on each line in the log output.
    #[arg(long)]
    pub timestamps: bool,

    /// Prefix each log line with the log source (pod name and container name).
    #[arg(long)]
    pub prefix: bool,

    /// Maximum bytes of logs to return. Defaults to no limit.
    #[arg(long, value_name = "BYTES", default_value_t = 0)]
    pub limit_bytes: i64,

    /// Specify maximum number of concurrent logs to follow when using by a selector.
    #[arg(long, value_name = "N", default_value_t = 5)]
    pub max_log_requests: i64,

    /// The length of time (like 5s, 2m, or 3h, higher than zero) to wait until at least one
    /// pod is running.
    #[arg(long, value_name = "DURATION", default_value = "20s")]
    pub pod_running_timeout: String,

    /// If watching / following pod logs, allow for any errors that occur to be non-fatal.
    #[arg(long)]
    pub ignore_errors: bool,

    /// kw: follow the query, as stern does: every container of every Pod the selector (or the
    /// workload's, or the Pod's name) matches, Pods that start later too, each stream reopened
    /// from its last line when it ends; each line after `[pod/NAME/CONTAINER] `. Runs until
    /// Ctrl-C.
    #[arg(short = 'w', long)]
    pub watch: bool,

    /// kw: with -w and -l, the Pods of every namespace (`-n 'team-*'`, `-n a,b`: of those);
    /// each line's source then names its namespace (`[team-a/pod/NAME/CONTAINER]`).
    #[arg(short = 'A', long)]
    pub all_namespaces: bool,

    /// kw: with -w, how each line is written: `raw` (the default, kubectl's `--prefix` form)
    /// or `jsonl` (also `json`): one JSON object a line, with the context (over several),
    /// namespace, pod, container, timestamp and message.
    #[arg(short = 'o', long, value_name = "FORMAT", value_parser = ["raw", "json", "jsonl"])]
    pub output: Option<String>,

    /// kw: with -w, end once what the Pods belong to meets EXPR, as `kw get --until` judges
    /// it (`ready`, `complete` for a Job, `condition=NAME`, ...), with get's exit codes.
    /// Repeatable.
    #[arg(long, value_name = "EXPR")]
    pub until: Vec<String>,

    /// kw: with -w, fail (exit 2) once it meets EXPR (`failed`: it will not get ready without
    /// someone acting, with the cause said).
    #[arg(long, value_name = "EXPR")]
    pub fail_on: Vec<String>,

    /// kw: with -w, give up after DURATION with exit 3.
    #[arg(long, value_name = "DURATION")]
    pub timeout: Option<String>,
}

/// Shown under `kw logs --help`.
pub const LOGS_EXAMPLES: &str = "\
Examples:
  kw logs web-1                        the Pod's only (or default) container
  kw logs deploy/web -c app --tail=20  the first Pod of the Deployment, as kubectl picks it
  kw logs -l app=web --prefix          every Pod of the selector, each line with its source
  kw logs -f job/migrate               follow until the container ends

On a terminal, control characters in a log (ESC, CR, BEL...) are shown as text (^[, \\r, ^G),
never obeyed; in a pipe the bytes are kubectl's, unchanged.";
