//! Discovery against `kw sim`, counted in the sim's request log: aggregated discovery (`/api` and
//! `/apis`, once each, with kubectl's Accept), the per-group fallback for a server that refuses
//! it, the cluster's cache, and an aggregated API that is down.
//!
//! The counts kw must not exceed were measured with kubectl v1.32 against the same sim, from a
//! fresh `~/.kube/cache` (`kubectl get widgets -v=6`, counting GETs of /api and /apis paths).

use crate::harness;

use std::path::PathBuf;
use std::process::Command;
use std::time::Duration;

use harness::{run, Cluster, Outcome};
use kw_sim::SimConfig;

const LIMIT: Duration = Duration::from_secs(20);

/// A cold `kubectl get widgets` on a server with aggregated discovery: GET /api, GET /apis.
const KUBECTL_COLD_AGGREGATED: usize = 2;
/// The same on a server without it: /api, /apis, then /api/v1, /apis/apps/v1, /apis/batch/v1
/// and /apis/example.com/v1.
const KUBECTL_COLD_LEGACY: usize = 6;

/// Discovery is /api, /api/v1, /apis and /apis/GROUP/VERSION; a list such as
/// /apis/apps/v1/namespaces/default/deployments is not.
pub(crate) fn is_discovery(target: &str) -> bool {
    let path = target.split('?').next().unwrap_or_default();
    let segments = path.split('/').filter(|s| !s.is_empty()).count();
    match path.split('/').nth(1) {
        Some("api") => segments <= 2,
        Some("apis") => segments <= 3,
        _ => false,
    }
}

/// A cluster, and `kw get` with a discovery cache of its own (cold until the first run).
struct Counted {
    cluster: Cluster,
    cache: PathBuf,
    /// How many requests of the log the last `discovery_since` call has seen.
    seen: usize,
}

impl Counted {
    fn start(config: SimConfig) -> Counted {
        let cluster = Cluster::start(SimConfig {
            clock: Some(harness::frozen_now()),
            ..config
        });
        let cache = cluster.dir.path().join("cache");
        Counted {
            cluster,
            cache,
            seen: 0,
        }
    }

    fn get(&self, args: &[&str]) -> Outcome {
        let mut cmd: Command = self.cluster.get(args);
        cmd.env("XDG_CACHE_HOME", &self.cache);
        run(cmd, LIMIT)
    }

    /// The discovery requests (paths without the query, and Accept) since the last call.
    fn discovery_since(&mut self) -> Vec<(String, String)> {
        let requests = self.cluster.sim.requests();
        let new = requests[self.seen.min(requests.len())..]
            .iter()
            .filter(|r| is_discovery(&r.path))
            .map(|r| {
                let path = r.path.split('?').next().unwrap_or_default().to_string();
                let accept = r
                    .headers
                    .iter()
                    .find(|(k, _)| k.eq_ignore_ascii_case("accept"))
                    .map(|(_, v)| v.clone())
                    .unwrap_or_default();
                (path, accept)
            })
            .collect();
        self.seen = requests.len();
        new
    }
}

fn paths(requests: &[(String, String)]) -> Vec<&str> {
    let mut paths: Vec<&str> = requests.iter().map(|(p, _)| p.as_str()).collect();
    paths.sort_unstable();
    paths
}

#[test]
fn a_cold_get_reads_the_aggregated_answer_in_two_requests_as_kubectl_does() {
    let mut sim = Counted::start(SimConfig::default());
    let out = sim.get(&["widgets", "-o", "name"]);
    assert_eq!(out.code, Some(0), "{}", out.stderr);
    assert!(out.stdout.contains("widget.example.com/"), "{}", out.stdout);
    let asked = sim.discovery_since();
    assert_eq!(paths(&asked), ["/api", "/apis"]);
    assert!(asked.len() <= KUBECTL_COLD_AGGREGATED);
    for (path, accept) in &asked {
        assert_eq!(
            accept,
            kw_wire::AGGREGATED_DISCOVERY_ACCEPT,
            "{path} asked as kubectl asks"
        );
    }

    // Warm: the same type, another type, a short name and a category cost nothing.
    for typed in ["widgets", "deployments", "deploy", "all"] {
        let out = sim.get(&[typed, "-o", "name"]);
        assert_eq!(out.code, Some(0), "{typed}: {}", out.stderr);
        assert_eq!(sim.discovery_since(), [], "{typed} comes from the cache");
    }

    // A name the cached answer lacks is asked again (it may be new), and the did-you-mean
    // comes from that same answer.
    let out = sim.get(&["pdos"]);
    assert_eq!(out.code, Some(1), "{}", out.stderr);
    assert!(
        out.stderr
            .contains("the server doesn't have a resource type \"pdos\""),
        "{}",
        out.stderr
    );
    assert!(
        out.stderr.contains("did you mean \"pods\"?"),
        "{}",
        out.stderr
    );
    assert_eq!(paths(&sim.discovery_since()), ["/api", "/apis"]);
}

#[test]
fn a_core_type_costs_one_request() {
    let mut sim = Counted::start(SimConfig::default());
    let out = sim.get(&["pods", "-o", "name"]);
    assert_eq!(out.code, Some(0), "{}", out.stderr);
    assert!(out.stdout.contains("pod/"), "{}", out.stdout);
    assert_eq!(paths(&sim.discovery_since()), ["/api"]);
}

#[test]
fn a_server_without_aggregated_discovery_is_asked_group_by_group() {
    let mut sim = Counted::start(SimConfig {
        no_aggregated_discovery: true,
        ..SimConfig::default()
    });
    let out = sim.get(&["widgets", "-o", "name"]);
    assert_eq!(out.code, Some(0), "{}", out.stderr);
    let asked = sim.discovery_since();
    assert_eq!(
        paths(&asked),
        [
            "/api",
            "/api/v1",
            "/apis",
            "/apis/apps/v1",
            "/apis/batch/v1",
            "/apis/example.com/v1"
        ]
    );
    assert!(asked.len() <= KUBECTL_COLD_LEGACY);

    // The same objects as from the aggregated answer.
    let aggregated = Counted::start(SimConfig::default());
    let expected = aggregated.get(&["widgets", "-o", "name"]);
    assert_eq!(out.stdout, expected.stdout);

    let out = sim.get(&["deploy", "-o", "name"]);
    assert_eq!(out.code, Some(0), "{}", out.stderr);
    assert_eq!(sim.discovery_since(), [], "warm");

    let out = sim.get(&["widgts"]);
    assert_eq!(out.code, Some(1), "{}", out.stderr);
    assert!(
        out.stderr.contains("did you mean \"widgets\"?"),
        "{}",
        out.stderr
    );
}

#[test]
fn a_stale_group_does_not_hide_the_others() {
    for no_aggregated_discovery in [false, true] {
        let mut sim = Counted::start(SimConfig {
            no_aggregated_discovery,
            down_groups: vec!["batch".into()],
            ..SimConfig::default()
        });
        let how = if no_aggregated_discovery {
            "legacy"
        } else {
            "aggregated"
        };
        for typed in ["widgets", "deployments", "pods"] {
            let out = sim.get(&[typed, "-o", "name"]);
            assert_eq!(out.code, Some(0), "{how} {typed}: {}", out.stderr);
            assert!(!out.stdout.is_empty(), "{how} {typed}");
        }
        // The down group's own types are unknown, as kubectl says it.
        let out = sim.get(&["jobs"]);
        assert_eq!(out.code, Some(1), "{how}: {}", out.stderr);
        assert!(
            out.stderr
                .contains("the server doesn't have a resource type \"jobs\""),
            "{how}: {}",
            out.stderr
        );
        // Nothing was asked more than kubectl asks (the failing type asks again, as kubectl).
        let asked = sim.discovery_since();
        let cold = if no_aggregated_discovery {
            KUBECTL_COLD_LEGACY
        } else {
            KUBECTL_COLD_AGGREGATED
        };
        assert!(asked.len() <= 2 * cold, "{how}: {asked:?}");
    }
}
