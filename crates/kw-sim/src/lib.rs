//! `kw sim`: a simulated Kubernetes API server on loopback, for tests, benchmarks, `kw demo` and
//! offline scripts. It speaks real HTTP/1.1 (chunked watches) over real TLS, and shares only
//! `kw_wire` with the client side: none of the client's logic is used here.
//!
//! This module owns the public face of the simulator: the `kw sim` flags, [`SimConfig`], the
//! error type, and [`run`] (the CLI entry point). [`start`] and [`SimHandle`] live in `server`.

// Handlers return `Result<_, wire::Status>`: the Status *is* the error response, it is built
// once per failed request, and boxing it everywhere would only add noise.
#![allow(clippy::result_large_err)]

mod api;
mod faults;
mod http;
mod server;
mod world;

use std::path::PathBuf;
use std::time::{Duration, SystemTime};

use clap::Args;

pub use api::shared::RequestRecord;
pub use faults::Faults;
pub use server::handle::{start, SimHandle};
pub use world::store::Change;
pub use world::{churn, objects, printers, rollout};

/// Everything that can go wrong starting or driving the simulator.
#[derive(Debug, thiserror::Error)]
pub enum SimError {
    #[error("cannot listen on 127.0.0.1:{port}: {source}")]
    Listen { port: u16, source: std::io::Error },
    #[error("cannot make certificates: {0}")]
    Certs(String),
    #[error("cannot set up TLS: {0}")]
    Tls(String),
    #[error("unknown resource {0:?}")]
    UnknownResource(String),
    #[error("invalid object: {0}")]
    InvalidObject(String),
    #[error("{resource} \"{name}\" already exists")]
    AlreadyExists { resource: String, name: String },
    #[error("{resource} \"{name}\" not found")]
    NotFound { resource: String, name: String },
    #[error("cannot write {path}: {source}")]
    Write {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error(transparent)]
    Args(#[from] SimArgsError),
    #[error("i/o error: {0}")]
    Io(#[from] std::io::Error),
}

/// Flood mode: pre-serialised events and lists as fast as the socket takes them (benchmarks).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Flood {
    /// Every pods WATCH streams this many MODIFIED events, then ends cleanly.
    pub watch_events: u64,
    /// The pods LIST returns this many pods (paged with limit/continue); 0 = the real store.
    pub list_items: u64,
    /// How the flood's events are cut into HTTP chunks.
    pub framing: FloodFraming,
}

/// How a flood watch frames its events on the wire.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum FloodFraming {
    /// One HTTP chunk per event, as kube-apiserver sends a busy watch: its watch handler
    /// writes and flushes each event, and Go's HTTP server frames each write as a chunk.
    #[default]
    PerEvent,
    /// Many events packed into ~256 KiB chunks, so the server is never the bottleneck
    /// (a ceiling for the client, not what a real API server sends).
    Batched,
}

/// How to run the simulator in-process (`kw demo`, tests) or from `kw sim`.
#[derive(Debug, Clone)]
pub struct SimConfig {
    /// 127.0.0.1 port; 0 picks a free one.
    pub port: u16,
    /// Serve HTTPS (default) or plain HTTP (benchmarks).
    pub tls: bool,
    /// Seed of the initial world and of churn.
    pub seed: u64,
    /// Churn mutations per second; `None` = a still world.
    pub churn: Option<f64>,
    /// A frozen "now" for AGE cells and creationTimestamps (goldens); `None` = the wall clock.
    pub clock: Option<SystemTime>,
    /// Start with namespaces only, no seed objects.
    pub empty: bool,
    /// Events kept for watch resume; resuming from an older resourceVersion gets 410.
    pub history: usize,
    /// How often watches with `allowWatchBookmarks=true` get a BOOKMARK.
    pub bookmark_interval: Duration,
    /// End every watch after this long at the latest, whatever timeoutSeconds asked for.
    pub max_watch: Option<Duration>,
    /// Do not offer Table rendering, like an aggregated API server that cannot print.
    pub no_tables: bool,
    /// Serve no custom resources (the `example.com` group, widgets), like a cluster where the
    /// CRD is not installed.
    pub no_crds: bool,
    /// Refuse aggregated discovery (`apidiscovery.k8s.io`): `/api` and `/apis` answer only the
    /// legacy documents, as a server older than 1.26 (or with the feature off) does.
    pub no_aggregated_discovery: bool,
    /// API groups whose (aggregated) API server is down: their aggregated entry is `Stale` with
    /// no resources, and their legacy `/apis/GROUP/VERSION` answers 503.
    pub down_groups: Vec<String>,
    /// Faults injected into lists and watches.
    pub faults: Faults,
    /// Flood mode for benchmarks.
    pub flood: Option<Flood>,
    /// The names in the server certificate; `None` = 127.0.0.1, localhost and ::1. Tests of
    /// `tls-server-name` use a certificate that lacks the address.
    pub server_names: Option<Vec<String>>,
    /// Serve a certificate that expired long ago (tests of TLS error messages).
    pub server_cert_expired: bool,
    /// Listen on [::1] instead of 127.0.0.1.
    pub ipv6: bool,
}

impl Default for SimConfig {
    fn default() -> Self {
        SimConfig {
            port: 0,
            tls: true,
            seed: 1,
            churn: None,
            clock: None,
            empty: false,
            history: 10_000,
            bookmark_interval: Duration::from_secs(60),
            max_watch: None,
            no_tables: false,
            no_crds: false,
            no_aggregated_discovery: false,
            down_groups: Vec::new(),
            faults: Faults::default(),
            flood: None,
            server_names: None,
            server_cert_expired: false,
            ipv6: false,
        }
    }
}

/// `kw sim` flags.
#[derive(Debug, Args, Clone)]
#[command(after_long_help = SIM_HELP)]
pub struct SimArgs {
    /// Port to listen on (127.0.0.1); 0 picks a free one.
    #[arg(long, default_value_t = 0)]
    pub port: u16,

    /// Serve plain HTTP instead of HTTPS (benchmarks).
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
    /// until BackoffLimitExceeded). Repeatable.
    #[arg(long, value_name = "PLOT[:NAME]")]
    pub rollout: Vec<String>,

    /// Seconds each step of a --rollout lasts.
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

/// Why `SimArgs` could not become a `SimConfig`.
#[derive(Debug, thiserror::Error)]
pub enum SimArgsError {
    #[error("--clock {0:?} is not an RFC 3339 time: {1}")]
    Clock(String, humantime::TimestampError),
    #[error("--bookmark-interval must be a positive number of seconds")]
    BookmarkInterval,
    #[error("--churn must be a positive number")]
    Churn,
    #[error("--rollout: {0}")]
    Rollout(String),
    #[error("--rollout-beat must be a positive number of seconds")]
    RolloutBeat,
}

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
        Ok(SimConfig {
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
                list_message: None,
                list_retry_after: None,
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

/// `kw sim`: start the server, print the ready line, serve the control protocol on stdin, and
/// return when told to stop (`{"op":"stop"}`); SIGINT/SIGTERM end the process.
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
    {
        use std::io::Write;
        let mut out = std::io::stdout().lock();
        writeln!(out, "ready {}", handle.url())?;
        out.flush()?;
    }
    server::control::serve(&handle, std::io::stdin().lock(), std::io::stdout());
    handle.stop();
    Ok(())
}
