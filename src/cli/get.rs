//! `kw get`'s flags: kubectl's, and kw's own for watching and waiting.

use std::path::PathBuf;

use clap::Args;

use super::pflag::go_bool;

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

    /// Get this subresource of the named objects (`status`, `scale`).
    ///
    /// Get this subresource of the named objects (`status`, `scale`), as kubectl does: a
    /// one-shot get of named objects only (a whole collection is refused); a watch reads the
    /// objects themselves, as kubectl's does.
    #[arg(long, value_name = "SUBRESOURCE", hide_short_help = true)]
    pub subresource: Option<String>,

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

    /// Show the Pods' logs on stderr while waiting.
    ///
    /// While waiting (`--until`, `--fail-on`), stream on stderr the container logs of the Pods
    /// waited on and of the current revision of each workload waited on, each line after
    /// `pod/NAME CONTAINER | `; Pods that start later are picked up, restarted containers
    /// followed again. `--logs=failed`: only containers that crashed or are not ready.
    #[arg(
        long,
        value_name = "WHICH",
        num_args = 0..=1,
        require_equals = true,
        default_missing_value = "all",
        value_parser = ["all", "failed"],
        help_heading = "Waiting and limits",
        hide_short_help = true
    )]
    pub logs: Option<String>,

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

    /// With =false, kw lays tables out itself: NAME and AGE.
    ///
    /// kubectl's --server-print: with =false the server is asked for plain objects and the
    /// table is kubectl's client-side one, NAME and AGE for every kind (NAMESPACE with -A,
    /// labels with --show-labels and -L).
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
    pub server_print: bool,

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
