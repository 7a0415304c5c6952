//! `kw sim` and `kw-sim`: the simulator's flags ([`SimArgs`], [`SimCli`]), how they become a
//! [`SimConfig`] and the rollouts to play, and [`run`], which serves until told to stop.

use std::path::PathBuf;
use std::time::Duration;

use clap::Args;

use crate::config::{Flood, FloodFraming, SimConfig};
use crate::error::{SimArgsError, SimError};
use crate::faults::Faults;
use crate::server::control;
use crate::server::handle::start;
use crate::world::rollout;

/// `kw sim` flags.
#[derive(Debug, Args, Clone)]
#[command(after_long_help = SIM_HELP)]
pub struct SimArgs {
    /// Port to listen on (127.0.0.1); 0 picks a free one.
    #[arg(long, default_value_t = 0)]
    pub port: u16,

    /// Serve plain HTTP instead of HTTPS, for benchmarks. It has NO authentication: every
    /// client, with or without a token, is the cluster admin (on 127.0.0.1 only).
    #[arg(long)]
    pub http: bool,

    /// Seed of the initial world and of churn (same seed, same story).
    #[arg(long, default_value_t = 1)]
    pub seed: u64,

    /// Churn: mutations per second (e.g. 2, 0.5, 500).
    #[arg(long, value_name = "RATE")]
    pub churn: Option<f64>,

    /// Start with namespaces only, no seed objects.
    #[arg(long)]
    pub empty: bool,

    /// Watch events kept for resume; resuming from an older resourceVersion gets 410 Expired.
    #[arg(long, value_name = "N", default_value_t = 10_000)]
    pub history: usize,

    /// Seconds between BOOKMARK events on watches that allow them.
    #[arg(long, value_name = "SECS", default_value_t = 60.0)]
    pub bookmark_interval: f64,

    /// Do not offer server-side printing (Tables): answer plain JSON, or 406 when only a Table
    /// is acceptable, like an aggregated API server that cannot print.
    #[arg(long)]
    pub no_tables: bool,

    /// Serve no custom resources: the example.com group (widgets) is not installed, as in a
    /// cluster without the CRD.
    #[arg(long)]
    pub no_crds: bool,

    /// Refuse aggregated discovery: /api and /apis answer only the legacy documents, as a
    /// server older than 1.26 does.
    #[arg(long)]
    pub no_aggregated_discovery: bool,

    /// An API group whose aggregated API server is down (repeatable): its aggregated discovery
    /// entry is Stale, its /apis/GROUP/VERSION answers 503.
    #[arg(long, value_name = "GROUP")]
    pub down_group: Vec<String>,

    /// End every watch after SECS at the latest, as a real server's --min-request-timeout does.
    #[arg(long, value_name = "SECS")]
    pub max_watch_secs: Option<f64>,

    /// Freeze "now" at this RFC 3339 time (AGE cells, creationTimestamps), for golden files.
    #[arg(long, value_name = "RFC3339")]
    pub clock: Option<String>,

    /// Act out a rollout in namespace default once started: PLOT is completes, image-pull
    /// (Pods in ImagePullBackOff, the Deployment past its deadline), crash-loop (a growing
    /// back-off, the previous log at pods/NAME/log), job-completes or job-fails (its Pods exit 1
    /// until BackoffLimitExceeded), rolling-update (a Deployment's new template replaces its
    /// old replicas), daemonset, partitioned (a StatefulSet's update held at partition 1),
    /// on-delete (an OnDelete StatefulSet), scale-up (Pods unschedulable until the cluster
    /// autoscaler's node joins) or throttled-pull (pulls refused with 429 at first). Repeatable.
    #[arg(long, value_name = "PLOT[:NAME]")]
    pub rollout: Vec<String>,

    /// Seconds each step of a --rollout lasts, and each step of what the controllers act out
    /// for clients' writes (kubectl apply, set image, scale, rollout undo, delete).
    #[arg(long, value_name = "SECS", default_value_t = 1.0)]
    pub rollout_beat: f64,

    /// Write a kubeconfig for this server to PATH (contexts sim, sim-cert, sim-limited, sim-bad-token).
    #[arg(long, value_name = "PATH")]
    pub kubeconfig_out: Option<PathBuf>,

    /// Drop the TCP connection after N watch events (no terminating chunk).
    #[arg(long, value_name = "N")]
    pub fault_close_after: Option<u64>,

    /// Send half of watch event N+1's chunk, then drop the connection.
    #[arg(long, value_name = "N")]
    pub fault_cut_after: Option<u64>,

    /// After N watch events send a 410 Expired ERROR event and end the stream.
    #[arg(long, value_name = "N")]
    pub fault_expire_after: Option<u64>,

    /// After N watch events stop sending, keeping the connection open --fault-stall-secs seconds.
    #[arg(long, value_name = "N")]
    pub fault_stall_after: Option<u64>,

    /// How long a stalled watch stays open.
    #[arg(long, value_name = "S", default_value_t = 30)]
    pub fault_stall_secs: u64,

    /// Answer the next --fault-list-count LIST requests with this HTTP status (429, 500, 503...).
    #[arg(long, value_name = "CODE")]
    pub fault_list_status: Option<u16>,

    /// How many LIST requests --fault-list-status applies to.
    #[arg(long, value_name = "K", default_value_t = 1)]
    pub fault_list_count: u64,

    /// Answer WATCH requests themselves with this HTTP status (e.g. 410), --fault-times times.
    #[arg(long, value_name = "CODE")]
    pub fault_watch_status: Option<u16>,

    /// After N watch events send a line that is not JSON.
    #[arg(long, value_name = "N")]
    pub fault_invalid_json_after: Option<u64>,

    /// Pad the first event of each watch with an annotation of B bytes.
    #[arg(long, value_name = "B")]
    pub fault_huge_object_bytes: Option<usize>,

    /// Each watch fault fires for the first K watch connections only (default: all).
    #[arg(long, value_name = "K")]
    pub fault_times: Option<u64>,

    /// Flood mode: every pods WATCH streams N pre-serialised MODIFIED events, then ends.
    #[arg(long, value_name = "N")]
    pub flood: Option<u64>,

    /// Flood mode: the pods LIST returns M pods (paged with limit/continue).
    #[arg(long, value_name = "M")]
    pub flood_list: Option<u64>,

    /// Flood mode: pack many events into each ~256 KiB HTTP chunk instead of one chunk per
    /// event as kube-apiserver sends them (a "server is never the bottleneck" ceiling).
    #[arg(long)]
    pub flood_batched: bool,
}

const SIM_HELP: &str = "\
OUTPUT
  Once the listener accepts connections, exactly one line is printed to stdout and flushed:
      ready https://127.0.0.1:PORT      (or ready http://127.0.0.1:PORT with --http)

CONTROL PROTOCOL (stdin/stdout, one JSON object per line)
  Read only when stdin is a pipe or a file: with a terminal on stdin (`kw sim &` in an
  interactive shell) the sim serves on without reading it, until Ctrl-C or SIGTERM.
  {\"op\":\"create\",\"resource\":\"pods\",\"object\":{...}}    -> {\"ok\":true,\"object\":{...stored...}}
  {\"op\":\"update\",\"resource\":\"pods\",\"object\":{...}}
  {\"op\":\"delete\",\"resource\":\"pods\",\"namespace\":\"default\",\"name\":\"web-1\"}
  {\"op\":\"objects\",\"resource\":\"pods\"}                  -> {\"ok\":true,\"objects\":[...]}
  {\"op\":\"changes\"}                                     -> {\"ok\":true,\"changes\":[...]}
  {\"op\":\"requests\"}                                    -> {\"ok\":true,\"requests\":[{method,path,status}]}
  {\"op\":\"rv\"}                                          -> {\"ok\":true,\"resourceVersion\":N}
  {\"op\":\"compact\"}    forget watch history: older resourceVersions get 410 Expired
  {\"op\":\"faults\",\"faults\":{\"close_after\":3,...}}     replace the injected faults
  {\"op\":\"stop\"}       stop the server and exit
  Errors answer {\"ok\":false,\"error\":\"...\"}. EOF on stdin does not stop the server;
  SIGINT, SIGTERM or {\"op\":\"stop\"} do.

FAULTS
  Watch faults count events from zero on each new watch connection and, with --fault-times K,
  apply to the first K watch connections only. List faults answer the next K LISTs with a
  Status body (429 adds Retry-After: 1).

AUTH (see the kubeconfig written by --kubeconfig-out)
  sim            token of user admin: full access
  sim-cert       client certificate CN=cert-user, O=system:masters: full access
  sim-limited    token of user limited: namespace team-a only, 403 elsewhere
  sim-bad-token  a token the server rejects: 401
";

impl SimArgs {
    /// The rollouts `--rollout` asks for (`image-pull:web`; the name defaults to the plot's).
    pub fn rollouts(&self) -> Result<Vec<rollout::Rollout>, SimArgsError> {
        if !(self.rollout_beat.is_finite()
            && self.rollout_beat > 0.0
            && self.rollout_beat <= 3600.0)
        {
            return Err(SimArgsError::RolloutBeat);
        }
        let beat = Duration::from_secs_f64(self.rollout_beat);
        self.rollout
            .iter()
            .map(|text| rollout::parse(text, beat).map_err(SimArgsError::Rollout))
            .collect()
    }

    /// The in-process configuration these flags describe.
    pub fn to_config(&self) -> Result<SimConfig, SimArgsError> {
        let clock = match &self.clock {
            Some(text) => Some(
                humantime::parse_rfc3339_weak(text)
                    .map_err(|err| SimArgsError::Clock(text.clone(), err))?,
            ),
            None => None,
        };
        if !(self.bookmark_interval.is_finite() && self.bookmark_interval > 0.0) {
            return Err(SimArgsError::BookmarkInterval);
        }
        if let Some(rate) = self.churn {
            if !(rate.is_finite() && rate > 0.0) {
                return Err(SimArgsError::Churn);
            }
        }
        let flood = match (self.flood, self.flood_list) {
            (None, None) => None,
            (events, items) => Some(Flood {
                watch_events: events.unwrap_or(0),
                list_items: items.unwrap_or(0),
                framing: if self.flood_batched {
                    FloodFraming::Batched
                } else {
                    FloodFraming::PerEvent
                },
            }),
        };
        // `rollouts` checks the beat; a bad one is refused there before the server starts.
        let controller_beat = Duration::from_secs_f64(self.rollout_beat.clamp(0.001, 3600.0));
        Ok(SimConfig {
            controller_beat,
            port: self.port,
            tls: !self.http,
            seed: self.seed,
            churn: self.churn,
            clock,
            empty: self.empty,
            history: self.history.max(1),
            bookmark_interval: Duration::from_secs_f64(self.bookmark_interval),
            no_tables: self.no_tables,
            no_crds: self.no_crds,
            no_aggregated_discovery: self.no_aggregated_discovery,
            down_groups: self.down_group.clone(),
            max_watch: self
                .max_watch_secs
                .filter(|s| s.is_finite() && *s > 0.0)
                .map(Duration::from_secs_f64),
            faults: Faults {
                close_after: self.fault_close_after,
                cut_after: self.fault_cut_after,
                expire_after: self.fault_expire_after,
                stall_after: self.fault_stall_after,
                stall_secs: self.fault_stall_secs,
                list_status: self.fault_list_status,
                list_count: self.fault_list_count,
                watch_status: self.fault_watch_status,
                invalid_json_after: self.fault_invalid_json_after,
                huge_object_bytes: self.fault_huge_object_bytes,
                times: self.fault_times,
                // Test-only faults (set through the control protocol), not flags.
                first_get_stall_ms: None,
                trickle_after: None,
                trickle_ms: 0,
                slow_lists: Vec::new(),
                slow_list_ms: 0,
                head_padding_bytes: None,
                list_message: None,
                list_retry_after: None,
                watch_resources: Vec::new(),
                log_stall_after: None,
                log_stall_secs: 0,
                log_stall_times: None,
            },
            flood,
            ..SimConfig::default()
        })
    }
}

/// The simulator's own command line, `kw sim ARGS` and `kw-sim ARGS` alike: its flags
/// document the simulator, not the product, so kw passes them through instead of listing them.
#[derive(Debug, clap::Parser)]
#[command(
    name = "kw sim",
    about = "Run the simulated Kubernetes API server (for tests, benchmarks and offline scripts)"
)]
pub struct SimCli {
    #[command(flatten)]
    pub args: SimArgs,
}

/// What `kw sim` without `--kubeconfig-out` says on stderr.
pub const CONNECT_HINT: &str = "kw sim: to connect a client, start it with --kubeconfig-out FILE \
     (the server's CA and tokens), then run kw get pods --kubeconfig FILE";

/// `kw sim`: start the server, print the ready line, serve the control protocol on stdin (a
/// pipe or a file, never a terminal), and return when told to stop (`{"op":"stop"}`);
/// SIGINT/SIGTERM end the process.
pub fn run(args: SimArgs) -> Result<(), SimError> {
    let config = args.to_config()?;
    let rollouts = args.rollouts()?;
    let handle = start(config)?;
    for rollout in &rollouts {
        handle.play_rollout(rollout)?;
    }
    if let Some(path) = &args.kubeconfig_out {
        handle.write_kubeconfig(path)?;
    }
    // The URL alone does not connect: a client needs the sim's CA and a token, which only the
    // kubeconfig carries. On stderr, so the ready line stays stdout's first, and before it, so
    // whoever has read the ready line has been told.
    if args.kubeconfig_out.is_none() {
        eprintln!("{CONNECT_HINT}");
    }
    {
        use std::io::Write;
        let mut out = std::io::stdout().lock();
        writeln!(out, "ready {}", handle.url())?;
        out.flush()?;
    }
    // A terminal on stdin is a person's: reading it would have the shell stop a background
    // `kw sim &` (SIGTTIN, "Stopped (tty input)") with every client waiting on it. Serve on
    // until a signal ends the process.
    if std::io::IsTerminal::is_terminal(&std::io::stdin()) {
        loop {
            std::thread::park();
        }
    }
    control::serve(&handle, std::io::stdin().lock(), std::io::stdout());
    handle.stop();
    Ok(())
}
