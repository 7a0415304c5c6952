//! What to run: [`SimConfig`], the simulator's configuration in-process (`kw demo`, tests) and
//! from `kw sim`'s flags, with the flood mode of benchmarks ([`Flood`]).

use std::time::{Duration, SystemTime};

use crate::faults::Faults;

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
    /// Listen on `[::1]` instead of 127.0.0.1.
    pub ipv6: bool,
    /// How long a step of the controllers lasts (what clients write is acted out a step a beat).
    pub controller_beat: Duration,
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
            controller_beat: Duration::from_millis(200),
        }
    }
}
