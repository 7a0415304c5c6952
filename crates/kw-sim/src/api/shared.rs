//! The state every connection thread shares: the store, faults, tokens, the server's settings,
//! the flood data, and the logs of requests, TLS server names and open connections. A leaf:
//! every handler reads it, and it knows none of them.

use std::collections::{HashMap, VecDeque};
use std::net::TcpStream;
use std::sync::atomic::{AtomicBool, AtomicU64};
use std::sync::Mutex;
use std::time::Duration;

use serde::Serialize;

use super::auth::Tokens;
use super::flood_data::FloodData;
use crate::faults::FaultState;
use crate::http::Request;
use crate::world::store::Store;

/// Requests (and TLS server names) kept for `SimHandle::requests`; older ones are forgotten.
pub const REQUESTS_KEPT: usize = 10_000;

/// What a client sent, for tests to assert on.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct RequestRecord {
    pub method: String,
    /// Path and query, as sent.
    pub path: String,
    /// Headers in order; `Authorization` is redacted to its scheme (e.g. `Bearer <redacted>`).
    pub headers: Vec<(String, String)>,
    /// The response status (200 for watch streams).
    pub status: u16,
    /// Bytes of the body as sent (compressed, when it was); 0 for streams.
    pub body_bytes: u64,
}

/// State shared by every connection thread.
pub struct Shared {
    pub store: Store,
    pub faults: FaultState,
    pub tokens: Tokens,
    /// `127.0.0.1:PORT`.
    pub address: String,
    pub bookmark_interval: Duration,
    /// The longest any watch may run, whatever the client asked (a real server's
    /// --min-request-timeout; 60–120 s for custom resources).
    pub max_watch: Option<Duration>,
    /// Whether Table rendering is offered (an old aggregated API cannot print tables).
    pub tables: bool,
    /// Whether the custom resources (the `example.com` group) are installed.
    pub crds: bool,
    /// Whether `/api` and `/apis` offer aggregated discovery.
    pub aggregated_discovery: bool,
    /// API groups whose aggregated API server is down (`SimConfig::down_groups`).
    pub down_groups: Vec<String>,
    pub shutdown: AtomicBool,
    /// What containers printed (`pods/NAME/log`), written by rollouts.
    pub logs: crate::world::container_logs::PodLogs,
    /// The highest resourceVersion any watch bookmark has carried (0: none yet), so a test can
    /// wait for a bookmark instead of for time.
    pub last_bookmark: AtomicU64,
    /// The accept loop ends (for `restart`) while the rest keeps running.
    pub stop_accepting: AtomicBool,
    pub flood: Option<FloodData>,
    /// Plain HTTP serves anonymous requests as admin, as the old insecure port did: kubectl
    /// sends no credentials over plain HTTP (clientcmd reads auth info only for TLS).
    pub anonymous_is_admin: bool,
    pub requests: Mutex<VecDeque<RequestRecord>>,
    /// The SNI name of each TLS handshake (`None`: the client sent none), the last 10 000.
    pub server_names: Mutex<VecDeque<Option<String>>>,
    pub connections: Mutex<HashMap<u64, TcpStream>>,
    pub next_connection: AtomicU64,
    /// What clients wrote, for the controllers to act out.
    pub controllers: crate::world::controllers::Controllers,
    /// How long a controller step lasts (`--rollout-beat`).
    pub controller_beat: Duration,
}

impl Shared {
    pub fn flood_watch_events(&self) -> u64 {
        self.flood.as_ref().map_or(0, |flood| flood.watch_events)
    }

    pub fn flood_list_items(&self) -> u64 {
        self.flood.as_ref().map_or(0, |flood| flood.list_items)
    }

    pub fn record(&self, request: &Request, status: u16) {
        self.record_sent(request, status, 0);
    }

    /// Record a request and the bytes of the body sent for it (0 for streams).
    pub fn record_sent(&self, request: &Request, status: u16, body_bytes: u64) {
        let headers = request
            .headers
            .iter()
            .map(|(name, value)| {
                if name.eq_ignore_ascii_case("authorization") {
                    let scheme = value.split(' ').next().unwrap_or("");
                    (name.clone(), format!("{scheme} <redacted>"))
                } else {
                    (name.clone(), value.clone())
                }
            })
            .collect();
        let mut requests = self.requests.lock().unwrap_or_else(|p| p.into_inner());
        requests.push_back(RequestRecord {
            method: request.method.clone(),
            path: request.target.clone(),
            headers,
            status,
            body_bytes,
        });
        while requests.len() > REQUESTS_KEPT {
            requests.pop_front();
        }
    }

    pub fn lock_connections(&self) -> std::sync::MutexGuard<'_, HashMap<u64, TcpStream>> {
        self.connections.lock().unwrap_or_else(|p| p.into_inner())
    }
}
