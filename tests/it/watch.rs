//! The promise, under fault injection: no event printed twice; while the server holds the
//! history, none skipped; after a 410, the smallest set of events that brings the reader to the
//! server's state. Each test compares what kw printed with the simulator's own record of changes.

use crate::harness;

use std::collections::{HashMap, HashSet};
use std::time::{Duration, Instant};

use harness::{Cluster, Live};
use kw_sim::{Faults, FaultsFired, SimConfig};
use serde_json::{json, Value};

const LIMIT: Duration = Duration::from_secs(30);

/// One event as kw printed it with `-o jsonl --output-watch-events`.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Printed {
    kind: String,
    uid: String,
    resource_version: String,
    synthetic: bool,
}

fn parse(line: &str) -> Printed {
    let v: Value = serde_json::from_str(line).unwrap_or_else(|e| panic!("{e}: {line}"));
    Printed {
        kind: v["type"].as_str().unwrap_or_default().to_string(),
        uid: v["object"]["metadata"]["uid"]
            .as_str()
            .unwrap_or_default()
            .to_string(),
        resource_version: v["object"]["metadata"]["resourceVersion"]
            .as_str()
            .unwrap_or_default()
            .to_string(),
        synthetic: v["kw"]["synthetic"] == json!(true),
    }
}

fn pod(name: &str, phase: &str) -> Value {
    json!({
        "apiVersion": "v1",
        "kind": "Pod",
        "metadata": {"name": name, "namespace": "default", "labels": {"app": "churn"}},
        "spec": {"containers": [{"name": "c", "image": "busybox"}], "nodeName": "node-1"},
        "status": {"phase": phase}
    })
}

/// A watcher under test: kw printing events as JSON lines, and what it printed so far.
struct Watch {
    live: Live,
    printed: Vec<Printed>,
    initial: usize,
}

impl Watch {
    fn start(cluster: &Cluster, extra: &[&str], env: &[(&str, &str)]) -> Watch {
        let mut args = vec!["pods", "-w", "-o", "jsonl", "--output-watch-events"];
        args.extend_from_slice(extra);
        let mut cmd = cluster.get(&args);
        for (k, v) in env {
            cmd.env(k, v);
        }
        let live = Live::spawn(&mut cmd);
        let initial = cluster
            .sim
            .objects("pods")
            .iter()
            .filter(|o| o["metadata"]["namespace"] == "default")
            .count();
        let mut watch = Watch {
            live,
            printed: Vec::new(),
            initial,
        };
        while watch.printed.len() < initial {
            watch.read_one();
        }
        watch
    }

    fn read_one(&mut self) {
        let line = self.live.next_line(LIMIT).unwrap_or_else(|| {
            panic!(
                "kw printed nothing for {LIMIT:?}; so far {:#?}",
                self.printed
            )
        });
        self.printed.push(parse(&line));
    }

    /// Read until an event at `resource_version` has been printed.
    fn read_until(&mut self, resource_version: u64) {
        let target = resource_version.to_string();
        let deadline = Instant::now() + LIMIT;
        while !self.printed.iter().any(|p| p.resource_version == target) {
            assert!(
                Instant::now() < deadline,
                "never printed rv {target}: {:#?}",
                self.printed
            );
            self.read_one();
        }
    }

    /// Stop kw and return its stderr (what was printed stays readable).
    fn stop(&mut self) -> String {
        self.live.kill()
    }

    fn after_list(&self) -> &[Printed] {
        &self.printed[self.initial..]
    }

    /// Read until replaying what kw printed gives what the server holds (a re-list's trailing
    /// events included), failing the test at once if something was printed twice.
    fn read_until_converged(&mut self, cluster: &Cluster) {
        let deadline = Instant::now() + LIMIT;
        while replayed(self).unwrap_or_else(|why| panic!("{why}")) != truth(cluster) {
            assert!(
                Instant::now() < deadline,
                "never converged: {:#?}",
                self.printed
            );
            self.read_one();
        }
    }

    /// Create a pod and read until kw has printed it: what kw prints after the changes before
    /// it (a repeat, a late re-list) has come out by then, without waiting a fixed time.
    fn read_past_marker(&mut self, cluster: &Cluster) -> Printed {
        cluster
            .sim
            .create("pods", pod("marker", "Pending"))
            .unwrap();
        self.read_until(cluster.sim.current_resource_version());
        self.printed.last().cloned().expect("the marker")
    }
}

/// A story of changes to pods in `default`: creations, modifications and deletions. The pauses
/// only pace the story (changes spread out, so faults fall between them); no test waits on them.
fn churn(cluster: &Cluster, prefix: &str, rounds: usize, pause: Duration) {
    for i in 0..rounds {
        let name = format!("{prefix}{i}");
        cluster.sim.create("pods", pod(&name, "Pending")).unwrap();
        std::thread::sleep(pause);
        cluster.sim.update("pods", pod(&name, "Running")).unwrap();
        std::thread::sleep(pause);
        if i % 2 == 0 {
            cluster.sim.delete("pods", "default", &name).unwrap();
            std::thread::sleep(pause);
        }
    }
}

/// The changes to pods in `default` after `from`, as (type, uid, rv).
fn changes_after(cluster: &Cluster, from: u64) -> Vec<(String, String, String)> {
    cluster
        .sim
        .changes()
        .into_iter()
        .filter(|c| c.resource_version > from && c.resource == "pods" && c.namespace == "default")
        .map(|c| (c.event_type, c.uid, c.resource_version.to_string()))
        .collect()
}

/// Nothing missing, nothing twice, in the server's order.
fn assert_exact(cluster: &Cluster, watch: &Watch, from: u64) {
    let expected = changes_after(cluster, from);
    let printed: Vec<(String, String, String)> = watch
        .after_list()
        .iter()
        .map(|p| (p.kind.clone(), p.uid.clone(), p.resource_version.clone()))
        .collect();
    assert_eq!(printed, expected);
}

/// Replaying what kw printed gives what the server holds, and no (uid, rv) is printed twice.
fn assert_converged(cluster: &Cluster, watch: &Watch) {
    let state = replayed(watch).unwrap_or_else(|why| panic!("{why}"));
    assert_eq!(state, truth(cluster));
}

/// uid → resourceVersion, as replaying what kw printed gives it; an error for a (uid, rv) printed
/// twice or the deletion of an object never printed.
fn replayed(watch: &Watch) -> Result<HashMap<String, String>, String> {
    let mut state: HashMap<String, String> = HashMap::new();
    let mut seen = HashSet::new();
    for p in &watch.printed {
        if !seen.insert((p.kind.clone(), p.uid.clone(), p.resource_version.clone())) {
            return Err(format!("printed twice: {p:?}"));
        }
        match p.kind.as_str() {
            "DELETED" => {
                if state.remove(&p.uid).is_none() {
                    return Err(format!("deleted unknown {p:?}"));
                }
            }
            _ => {
                state.insert(p.uid.clone(), p.resource_version.clone());
            }
        }
    }
    Ok(state)
}

/// uid → resourceVersion of the pods in `default`, as the server holds them.
fn truth(cluster: &Cluster) -> HashMap<String, String> {
    cluster
        .sim
        .objects("pods")
        .iter()
        .filter(|o| o["metadata"]["namespace"] == "default")
        .map(|o| {
            (
                o["metadata"]["uid"].as_str().unwrap().to_string(),
                o["metadata"]["resourceVersion"]
                    .as_str()
                    .unwrap()
                    .to_string(),
            )
        })
        .collect()
}

fn faulty(faults: Faults) -> Cluster {
    Cluster::start(SimConfig {
        faults,
        ..SimConfig::default()
    })
}

/// The LISTs of pods in `default` kw made (the initial list, then one per re-list).
fn pod_lists(cluster: &Cluster) -> usize {
    cluster
        .sim
        .requests()
        .iter()
        .filter(|r| {
            r.method == "GET"
                && r.path.starts_with("/api/v1/namespaces/default/pods?")
                && !r.path.contains("watch=")
        })
        .count()
}

/// The watches of pods in `default` kw asked for, in order: the resourceVersion each started
/// from (`None`: none given) and the status it was answered with.
fn pod_watches(cluster: &Cluster) -> Vec<(Option<u64>, u16)> {
    cluster
        .sim
        .requests()
        .iter()
        .filter(|r| {
            r.path.starts_with("/api/v1/namespaces/default/pods?") && r.path.contains("watch=")
        })
        .map(|r| {
            let from = r
                .path
                .split(['?', '&'])
                .find_map(|kv| kv.strip_prefix("resourceVersion="))
                .and_then(|v| v.parse().ok());
            (from, r.status)
        })
        .collect()
}

/// The reaction to a broken connection: kw watched again from where it was, and did not list
/// again. Each new watch starts from a resourceVersion kw had already printed (or the list's, for
/// the first), never going back; at least one more watch than breaks.
fn assert_resumed_without_relisting(cluster: &Cluster, watch: &Watch, breaks: u64) {
    assert_eq!(
        pod_lists(cluster),
        1,
        "kw re-listed after a break it could resume from"
    );
    let watches = pod_watches(cluster);
    assert!(
        watches.len() as u64 > breaks,
        "{breaks} broken watches, yet only {} watch requests: {watches:?}",
        watches.len()
    );
    let printed: HashSet<u64> = watch
        .after_list()
        .iter()
        .filter_map(|p| p.resource_version.parse().ok())
        .collect();
    let first = watches[0]
        .0
        .expect("the first watch starts from the list's resourceVersion");
    let mut last = first;
    for (from, _) in &watches[1..] {
        let from = from.expect("a resumed watch says where from");
        assert!(
            from == first || printed.contains(&from),
            "resumed from {from}, which kw never printed: {watches:?}"
        );
        assert!(from >= last, "resumed from {from} after {last}: went back");
        last = from;
    }
}

/// The faults fired, only those asked for (a fault never reached proves nothing).
fn assert_fired(cluster: &Cluster, expected: FaultsFired) {
    assert_eq!(cluster.sim.faults_fired(), expected);
}

/// Churn under `faults`, then check kw printed every change exactly once. Returns the cluster,
/// the watch and kw's stderr, for the fault's own checks.
fn exact_under(faults: Faults, env: &[(&str, &str)]) -> (Cluster, Watch, String) {
    let cluster = faulty(faults);
    let from = cluster.sim.current_resource_version();
    let mut watch = Watch::start(&cluster, &[], env);
    churn(&cluster, "p", 6, Duration::from_millis(30));
    watch.read_until(cluster.sim.current_resource_version());
    assert_exact(&cluster, &watch, from);
    assert_converged(&cluster, &watch);
    let stderr = watch.stop();
    (cluster, watch, stderr)
}

#[test]
fn abrupt_closes_are_resumed_without_loss_or_repeats() {
    let (cluster, watch, _) = exact_under(
        Faults {
            close_after: Some(3),
            ..Faults::default()
        },
        &[],
    );
    let fired = cluster.sim.faults_fired();
    assert!(fired.closed >= 1, "no connection was closed: {fired:?}");
    assert_fired(
        &cluster,
        FaultsFired {
            closed: fired.closed,
            ..FaultsFired::default()
        },
    );
    assert_resumed_without_relisting(&cluster, &watch, fired.closed);
}

#[test]
fn events_cut_mid_chunk_are_resumed() {
    let (cluster, watch, _) = exact_under(
        Faults {
            cut_after: Some(2),
            ..Faults::default()
        },
        &[],
    );
    let fired = cluster.sim.faults_fired();
    assert!(fired.cut >= 1, "no event was cut: {fired:?}");
    assert_fired(
        &cluster,
        FaultsFired {
            cut: fired.cut,
            ..FaultsFired::default()
        },
    );
    assert_resumed_without_relisting(&cluster, &watch, fired.cut);
}

#[test]
fn clean_ends_are_resumed() {
    let cluster = Cluster::start(SimConfig {
        max_watch: Some(Duration::from_millis(700)),
        ..SimConfig::default()
    });
    let from = cluster.sim.current_resource_version();
    let mut watch = Watch::start(&cluster, &[], &[]);
    churn(&cluster, "p", 8, Duration::from_millis(100));
    watch.read_until(cluster.sim.current_resource_version());
    assert_exact(&cluster, &watch, from);
    let watches = cluster
        .sim
        .requests()
        .iter()
        .filter(|r| r.path.contains("watch="))
        .count();
    assert!(
        watches >= 2,
        "the server ended watches, kw watched again ({watches})"
    );
    assert_resumed_without_relisting(&cluster, &watch, 1);
}

/// The initial state comes from a LIST, gzipped as kubectl gets it; a streaming list
/// (`sendInitialEvents`, never compressed) only when asked for with `KW_STREAMING_LIST=1`, and
/// then it keeps every promise too, across cut connections.
#[test]
fn streaming_lists_are_opt_in() {
    for streaming in [false, true] {
        let cluster = faulty(Faults {
            cut_after: Some(2),
            ..Faults::default()
        });
        let from = cluster.sim.current_resource_version();
        let env: &[(&str, &str)] = if streaming {
            &[("KW_STREAMING_LIST", "1")]
        } else {
            &[]
        };
        let mut watch = Watch::start(&cluster, &[], env);
        churn(&cluster, "p", 3, Duration::from_millis(30));
        watch.read_until(cluster.sim.current_resource_version());
        assert_exact(&cluster, &watch, from);
        let requests = cluster.sim.requests();
        let streamed = requests
            .iter()
            .any(|r| r.path.contains("sendInitialEvents=true"));
        let listed = requests.iter().any(|r| {
            r.path.starts_with("/api/v1/namespaces/default/pods?") && !r.path.contains("watch=")
        });
        assert_eq!(streamed, streaming, "{requests:#?}");
        assert!(cluster.sim.faults_fired().cut >= 1, "no event was cut");
        // A streaming list that keeps breaking falls back to a LIST, so only its absence says
        // something.
        assert!(streaming || listed, "{requests:#?}");
    }
}

#[test]
fn invalid_json_is_reported_and_resumed() {
    let cluster = faulty(Faults {
        invalid_json_after: Some(2),
        times: Some(3),
        ..Faults::default()
    });
    let from = cluster.sim.current_resource_version();
    let mut watch = Watch::start(&cluster, &[], &[]);
    churn(&cluster, "p", 4, Duration::from_millis(30));
    watch.read_until(cluster.sim.current_resource_version());
    assert_exact(&cluster, &watch, from);
    let stderr = watch.stop();
    let fired = cluster.sim.faults_fired();
    assert!(
        fired.invalid_json >= 1,
        "no line of bad JSON was sent: {fired:?}"
    );
    assert_fired(
        &cluster,
        FaultsFired {
            invalid_json: fired.invalid_json,
            ..FaultsFired::default()
        },
    );
    // Reported: one line each time, naming the fault and saying what kw does about it.
    let reports = stderr
        .lines()
        .filter(|l| l.contains("the server sent invalid JSON at byte") && l.ends_with("; resuming"))
        .count() as u64;
    assert_eq!(reports, fired.invalid_json, "{stderr}");
    // Resumed: from the last event before the bad line, not re-listed.
    assert_resumed_without_relisting(&cluster, &watch, fired.invalid_json);
}

#[test]
fn a_stalled_connection_is_noticed_and_resumed() {
    let cluster = faulty(Faults {
        stall_after: Some(1),
        stall_secs: 20,
        times: Some(2),
        ..Faults::default()
    });
    let from = cluster.sim.current_resource_version();
    let mut watch = Watch::start(&cluster, &[], &[("KW_IDLE_TIMEOUT", "1s")]);
    churn(&cluster, "p", 3, Duration::from_millis(30));
    watch.read_until(cluster.sim.current_resource_version());
    assert_exact(&cluster, &watch, from);
    watch.stop();
    // Both faulty connections stalled after their first event (the churn left enough behind).
    assert_fired(
        &cluster,
        FaultsFired {
            stalled: 2,
            ..FaultsFired::default()
        },
    );
    assert_resumed_without_relisting(&cluster, &watch, 2);
}

/// One byte of an event every 300 ms, never the rest (issue 61, point 6): each read got a
/// byte well within the idle timeout, which counted reads, so the watch hung on the half event
/// for minutes with no word. The idle timeout counts whole events: the stream is dead 2 s after
/// its last one, kw says so and resumes, and the change arrives on the next stream.
#[test]
fn a_trickled_event_ends_the_stream_at_the_idle_timeout_and_kw_resumes() {
    let cluster = faulty(Faults {
        trickle_after: Some(0),
        trickle_ms: 300,
        times: Some(1),
        watch_resources: vec!["pods".into()],
        ..Faults::default()
    });
    let from = cluster.sim.current_resource_version();
    let mut watch = Watch::start(&cluster, &[], &[("KW_IDLE_TIMEOUT", "2s")]);
    churn(&cluster, "p", 2, Duration::from_millis(30));
    watch.read_until(cluster.sim.current_resource_version());
    assert_exact(&cluster, &watch, from);
    let stderr = watch.stop();
    assert_fired(
        &cluster,
        FaultsFired {
            trickled: 1,
            ..FaultsFired::default()
        },
    );
    assert!(
        stderr.contains("broke: no whole watch event within the idle timeout (2s); resuming"),
        "{stderr}"
    );
    assert_resumed_without_relisting(&cluster, &watch, 1);
}

#[test]
fn list_errors_are_retried() {
    for (status, count) in [(429u16, 2u64), (500, 2), (503, 1)] {
        let cluster = faulty(Faults {
            list_status: Some(status),
            list_count: count,
            ..Faults::default()
        });
        // Every mode lists with LIST (a streaming list only with KW_STREAMING_LIST=1).
        let out = harness::run(cluster.get(&["pods", "-o", "wide"]), LIMIT);
        assert_eq!(out.code, Some(0), "{status}: {}", out.stderr);
        assert_eq!(out.stdout.lines().count(), 8, "{status}: {}", out.stdout);
        assert!(out.stderr.contains("retrying"), "{status}: {}", out.stderr);
        assert_eq!(
            cluster.sim.faults_fired(),
            FaultsFired {
                lists_failed: count,
                ..FaultsFired::default()
            },
            "{status}"
        );
        // Each failed LIST was asked again, and the last one answered.
        assert_eq!(pod_lists(&cluster) as u64, count + 1, "{status}");
    }
}

#[test]
fn watch_request_errors_are_retried() {
    for status in [429u16, 500, 503] {
        let (cluster, watch, stderr) = exact_under(
            Faults {
                watch_status: Some(status),
                times: Some(2),
                ..Faults::default()
            },
            &[],
        );
        assert_fired(
            &cluster,
            FaultsFired {
                watches_refused: 2,
                ..FaultsFired::default()
            },
        );
        let answered: Vec<u16> = pod_watches(&cluster).iter().map(|w| w.1).collect();
        assert_eq!(answered, [status, status, 200], "{status}");
        assert!(stderr.contains("retrying"), "{status}: {stderr}");
        assert_resumed_without_relisting(&cluster, &watch, 2);
    }
}

#[test]
fn a_410_error_event_relists_and_prints_only_what_changed() {
    let cluster = faulty(Faults {
        expire_after: Some(2),
        times: Some(3),
        ..Faults::default()
    });
    let mut watch = Watch::start(&cluster, &[], &[]);
    churn(&cluster, "p", 5, Duration::from_millis(30));
    watch.read_until(cluster.sim.current_resource_version());
    // A relist's trailing events (deletions come last) included.
    watch.read_until_converged(&cluster);
    // And nothing more: no repeat before a change made now.
    watch.read_past_marker(&cluster);
    assert_converged(&cluster, &watch);
    // A re-list's notice follows what it printed: wait for one per 410 sent so far.
    let notices = |stderr: &str| {
        stderr
            .lines()
            .filter(|l| l.contains("the watch of pods expired (410): re-listed after"))
            .count() as u64
    };
    harness::wait_for("a notice for each 410", LIMIT, || {
        notices(&watch.live.stderr_so_far()) == cluster.sim.faults_fired().expired
    });
    let stderr = watch.stop();
    let fired = cluster.sim.faults_fired();
    assert!(fired.expired >= 1, "no 410 was sent: {fired:?}");
    assert_fired(
        &cluster,
        FaultsFired {
            expired: fired.expired,
            ..FaultsFired::default()
        },
    );
    // Each 410 was answered with a LIST (never a watch from an expired resourceVersion), and
    // said so.
    assert_eq!(pod_lists(&cluster) as u64, 1 + fired.expired);
    assert_eq!(notices(&stderr), fired.expired, "{stderr}");
}

#[test]
fn a_410_status_relists() {
    let cluster = faulty(Faults {
        watch_status: Some(410),
        times: Some(1),
        ..Faults::default()
    });
    let mut watch = Watch::start(&cluster, &[], &[]);
    cluster.sim.create("pods", pod("after", "Pending")).unwrap();
    watch.read_until(cluster.sim.current_resource_version());
    assert_converged(&cluster, &watch);
    // The new pod may come with the re-list: wait for the watch after it.
    harness::wait_for("kw to watch after the re-list", LIMIT, || {
        pod_watches(&cluster).len() >= 2
    });
    let stderr = watch.stop();
    assert_fired(
        &cluster,
        FaultsFired {
            watches_refused: 1,
            ..FaultsFired::default()
        },
    );
    // The reaction to a 410 reply: a new LIST (a retry of the same watch would ask again for
    // history the server said is gone), then a watch from the new list's resourceVersion.
    assert_eq!(pod_lists(&cluster), 2, "{:#?}", cluster.sim.requests());
    let watches = pod_watches(&cluster);
    assert_eq!(watches.len(), 2, "{watches:?}");
    assert_eq!(watches[0].1, 410);
    assert!(watches[1].0 >= watches[0].0, "{watches:?}");
    assert!(
        stderr.contains("the watch of pods expired (410): re-listed after"),
        "{stderr}"
    );
}

/// The history kw needs is gone while it is away: the re-list prints exactly the difference,
/// marked as synthetic, and says so on stderr.
#[test]
fn compaction_while_away_prints_exactly_the_missed_changes() {
    let cluster = Cluster::start(SimConfig::default());
    let mut watch = Watch::start(&cluster, &[], &[]);
    let before: HashMap<String, String> = cluster
        .sim
        .objects("pods")
        .iter()
        .filter(|o| o["metadata"]["namespace"] == "default")
        .map(|o| {
            (
                o["metadata"]["name"].as_str().unwrap().to_string(),
                o["metadata"]["resourceVersion"]
                    .as_str()
                    .unwrap()
                    .to_string(),
            )
        })
        .collect();
    // Cut kw off: its watch breaks, and every new one is refused while the cluster changes.
    cluster.sim.set_faults(Faults {
        watch_status: Some(503),
        ..Faults::default()
    });
    cluster.sim.drop_connections();
    cluster
        .sim
        .create("pods", pod("new-while-away", "Pending"))
        .unwrap();
    cluster
        .sim
        .create("pods", pod("short-lived", "Pending"))
        .unwrap();
    cluster
        .sim
        .delete("pods", "default", "short-lived")
        .unwrap();
    let victim = before
        .keys()
        .find(|n| n.starts_with("web-"))
        .unwrap()
        .clone();
    cluster.sim.delete("pods", "default", &victim).unwrap();
    let mut changed = cluster
        .sim
        .objects("pods")
        .into_iter()
        .find(|o| o["metadata"]["name"] == "init-demo")
        .unwrap();
    changed["metadata"]["labels"]["touched"] = json!("yes");
    cluster.sim.update("pods", changed).unwrap();
    cluster.sim.compact();
    cluster.sim.set_faults(Faults::default());
    let printed_before = watch.printed.len();
    watch.read_until_converged(&cluster);
    // Nothing more about the time away comes before a change made now.
    let marker = watch.read_past_marker(&cluster);
    assert_eq!((marker.kind.as_str(), marker.synthetic), ("ADDED", false));
    let missed: Vec<(String, bool)> = watch.printed[printed_before..watch.printed.len() - 1]
        .iter()
        .map(|p| (p.kind.clone(), p.synthetic))
        .collect();
    // init-demo modified, new-while-away added, the web pod deleted; short-lived never shown.
    let mut kinds: Vec<&str> = missed.iter().map(|(k, _)| k.as_str()).collect();
    kinds.sort();
    assert_eq!(kinds, ["ADDED", "DELETED", "MODIFIED"], "{missed:?}");
    assert!(missed.iter().all(|(_, synthetic)| *synthetic), "{missed:?}");
    assert_converged(&cluster, &watch);
    let stderr = watch.live.stop();
    assert!(stderr.contains("re-listed"), "{stderr}");
    // The history was gone when kw came back (refused or not while away): one more LIST.
    assert_eq!(pod_lists(&cluster), 2);
}

#[test]
fn a_huge_object_within_the_limit_passes_and_beyond_it_fails_clearly() {
    let cluster = faulty(Faults {
        huge_object_bytes: Some(3 << 20),
        times: Some(1),
        ..Faults::default()
    });
    let mut watch = Watch::start(&cluster, &[], &[]);
    cluster
        .sim
        .create("pods", pod("big-neighbour", "Pending"))
        .unwrap();
    watch.read_until(cluster.sim.current_resource_version());
    // The event kw printed was the padded one (3 MiB, under the default limit).
    assert_fired(
        &cluster,
        FaultsFired {
            padded: 1,
            ..FaultsFired::default()
        },
    );

    let cluster = faulty(Faults {
        huge_object_bytes: Some(3 << 20),
        ..Faults::default()
    });
    let cmd = cluster.get(&["pods", "-w", "-o", "jsonl", "--max-object-size", "1Mi"]);
    let run = std::thread::spawn(move || harness::run(cmd, LIMIT));
    // The initial state comes from a LIST (never padded); the watch's first event is the huge
    // one, so make one once the watch is there.
    harness::wait_for("kw to watch", LIMIT, || {
        let requests = cluster.sim.requests();
        requests.iter().any(|r| r.path.contains("watch="))
    });
    cluster
        .sim
        .create("pods", pod("over-the-limit", "Pending"))
        .unwrap();
    let out = run.join().expect("kw ran");
    assert_eq!(cluster.sim.faults_fired().padded, 1);
    assert_eq!(out.code, Some(6), "{}", out.stderr);
    assert!(out.stderr.contains("--max-object-size"), "{}", out.stderr);
    assert_eq!(out.stderr.lines().count(), 1, "{}", out.stderr);
}

#[test]
fn a_server_restart_is_survived() {
    let mut cluster = Cluster::start(SimConfig::default());
    let from = cluster.sim.current_resource_version();
    let mut watch = Watch::start(&cluster, &[], &[]);
    cluster.sim.restart(Duration::from_millis(1500)).unwrap();
    cluster
        .sim
        .create("pods", pod("after-restart", "Pending"))
        .unwrap();
    watch.read_until(cluster.sim.current_resource_version());
    assert_exact(&cluster, &watch, from);
}

#[test]
fn a_soak_of_random_faults_keeps_the_promise() {
    let cluster = Cluster::start(SimConfig::default());
    let from = cluster.sim.current_resource_version();
    let plans = [
        Faults {
            close_after: Some(2),
            ..Faults::default()
        },
        Faults {
            cut_after: Some(1),
            ..Faults::default()
        },
        Faults {
            invalid_json_after: Some(3),
            ..Faults::default()
        },
        Faults {
            watch_status: Some(500),
            times: Some(1),
            ..Faults::default()
        },
        Faults::default(),
    ];
    // A watch takes its faults when it starts: the first one must start under the first plan.
    // (Set after kw had listed, they missed a watch that came sooner, once kw's watch stopped
    // waiting for a handshake of its own: its connection is the list's since issue 47.)
    cluster.sim.set_faults(plans[0].clone());
    let mut watch = Watch::start(&cluster, &[], &[("KW_IDLE_TIMEOUT", "1s")]);
    for (round, plan) in plans.iter().cycle().take(10).enumerate() {
        cluster.sim.set_faults(plan.clone());
        churn(
            &cluster,
            &format!("r{round}-"),
            2,
            Duration::from_millis(15),
        );
    }
    cluster.sim.set_faults(Faults::default());
    watch.read_until(cluster.sim.current_resource_version());
    assert_exact(&cluster, &watch, from);
    assert_converged(&cluster, &watch);
    // The soak broke watches (which of its faults fired depends on the timing), and kw resumed
    // each without a re-list.
    watch.stop();
    let fired = cluster.sim.faults_fired();
    let breaks = fired.closed + fired.cut + fired.invalid_json + fired.watches_refused;
    assert!(breaks >= 1, "no fault fired: {fired:?}");
    assert_resumed_without_relisting(&cluster, &watch, breaks);
}

#[test]
fn several_types_are_watched_at_once_into_one_stream() {
    let cluster = Cluster::seeded();
    let live =
        Live::spawn(&mut cluster.get(&["pods,deployments", "-n", "team-a", "-w", "-o", "name"]));
    // team-a: six pods and two deployments, in some interleaving.
    let mut initial: Vec<String> = (0..8)
        .map(|_| live.next_line(LIMIT).expect("list"))
        .collect();
    initial.sort();
    assert_eq!(initial.iter().filter(|l| l.starts_with("pod/")).count(), 6);
    assert!(
        initial.contains(&"deployment.apps/backend".to_string()),
        "{initial:?}"
    );
    let mut web = cluster
        .sim
        .objects("deployments")
        .into_iter()
        .find(|d| d["metadata"]["name"] == "frontend")
        .unwrap();
    web["spec"]["replicas"] = json!(5);
    cluster.sim.update("deployments", web).unwrap();
    let mut pod = pod("team-pod", "Pending");
    pod["metadata"]["namespace"] = json!("team-a");
    cluster.sim.create("pods", pod).unwrap();
    let mut next: Vec<String> = (0..2)
        .map(|_| live.next_line(LIMIT).expect("events"))
        .collect();
    next.sort();
    assert_eq!(next, ["deployment.apps/frontend", "pod/team-pod"]);
}

#[test]
fn an_object_leaving_the_selector_is_not_called_deleted() {
    let cluster = Cluster::seeded();
    let mut cmd = cluster.get(&["pods", "-l", "app=web", "-w", "--output-watch-events"]);
    let live = Live::spawn(&mut cmd);
    // Header and three web pods.
    for _ in 0..4 {
        live.next_line(LIMIT).expect("list");
    }
    let mut pod = cluster
        .sim
        .objects("pods")
        .into_iter()
        .find(|p| p["metadata"]["labels"]["app"] == "web")
        .unwrap();
    let name = pod["metadata"]["name"].as_str().unwrap().to_string();
    pod["metadata"]["labels"]["app"] = json!("retired");
    cluster.sim.update("pods", pod).unwrap();
    let line = live.next_line(LIMIT).expect("the DELETED row");
    assert!(
        line.starts_with("DELETED") && line.contains(&name),
        "{line}"
    );
    live.wait_for_stderr(
        &format!("pod/{name} left the selector; it was not deleted"),
        LIMIT,
    );
}

#[test]
fn deletions_under_a_selector_never_wait_for_the_left_selector_check() {
    let cluster = Cluster::seeded();
    const PODS: usize = 40;
    for i in 0..PODS {
        let mut p = pod(&format!("mass-{i:02}"), "Running");
        p["metadata"]["labels"] = json!({"wave": "one"});
        cluster.sim.create("pods", p).unwrap();
    }
    // The server takes 3 s to answer the first "does it still exist?" question.
    cluster.sim.set_faults(Faults {
        first_get_stall_ms: Some(3000),
        ..Faults::default()
    });
    let mut cmd = cluster.get(&["pods", "-l", "wave=one", "-w", "--output-watch-events"]);
    let live = Live::spawn(&mut cmd);
    for _ in 0..=PODS {
        live.next_line(LIMIT).expect("header and list");
    }
    for i in 0..PODS {
        cluster
            .sim
            .delete("pods", "default", &format!("mass-{i:02}"))
            .unwrap();
    }
    for _ in 0..PODS {
        let line = live.next_line(LIMIT).expect("a DELETED row");
        assert!(line.starts_with("DELETED"), "{line}");
    }
    let object_gets = |cluster: &Cluster| {
        cluster
            .sim
            .requests()
            .iter()
            .filter(|r| {
                r.method == "GET" && r.path.starts_with("/api/v1/namespaces/default/pods/mass-")
            })
            .count()
    };
    // Every row arrived while the first check was still waiting for its answer.
    assert_eq!(
        object_gets(&cluster),
        0,
        "a DELETED row waited for a request"
    );
    // Once it is answered, the queued checks run and the rest of the burst is summed up (after
    // the queue is empty): the burst costs the server a bounded number of requests, not one per
    // object.
    live.wait_for_stderr("too many at once to check which", LIMIT);
    let stderr = live.stop();
    let gets = object_gets(&cluster);
    assert!(
        gets <= 1 + 8,
        "{gets} GETs for one burst of {PODS} deletions"
    );
    let unchecked = PODS - gets;
    assert!(
        stderr.contains(&format!(
            "{unchecked} more objects left the selector or were deleted; too many at once to check which"
        )),
        "{stderr}"
    );
    assert!(!stderr.contains("it was not deleted"), "{stderr}");
}

#[test]
fn a_relist_in_table_mode_prints_the_missed_rows() {
    let cluster = Cluster::seeded();
    let live = Live::spawn(&mut cluster.get(&["pods", "-w", "--output-watch-events"]));
    for _ in 0..8 {
        live.next_line(LIMIT).expect("header and list");
    }
    cluster.sim.set_faults(Faults {
        watch_status: Some(503),
        ..Faults::default()
    });
    cluster.sim.drop_connections();
    cluster.sim.delete("pods", "default", "mesh-demo").unwrap();
    cluster.sim.create("pods", pod("fresh", "Pending")).unwrap();
    cluster.sim.compact();
    cluster.sim.set_faults(Faults::default());
    let mut rows = vec![
        live.next_line(LIMIT).expect("row"),
        live.next_line(LIMIT).expect("row"),
    ];
    rows.sort();
    assert!(
        rows[0].starts_with("ADDED ") && rows[0].contains("fresh"),
        "{rows:?}"
    );
    // The deleted pod's last row, as it was printed: 2/2 Running.
    assert!(
        rows[1].starts_with("DELETED ") && rows[1].contains("mesh-demo") && rows[1].contains("2/2"),
        "{rows:?}"
    );
    // Nothing more comes before a pod created now.
    cluster
        .sim
        .create("pods", pod("marker", "Pending"))
        .unwrap();
    let next = live.next_line(LIMIT).expect("the marker's row");
    assert!(
        next.starts_with("ADDED ") && next.contains("marker"),
        "{next}"
    );
    let stderr = live.stop();
    assert!(stderr.contains("re-listed"), "{stderr}");
    assert_eq!(pod_lists(&cluster), 2);
}

/// The soak: `kw sim` churning at a high rate while faults change every half second. Runs a
/// few seconds in CI; `KW_SOAK_SECS=300 cargo test --release --test it watch::soak_with_churn`
/// runs it for minutes.
#[test]
fn soak_with_churn_and_faults() {
    let seconds: u64 = std::env::var("KW_SOAK_SECS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(3);
    // A long soak outlives the default watchdog.
    crate::harness::watchdog::current_with_limit(Duration::from_secs(seconds) + 3 * LIMIT);
    let cluster = Cluster::start(SimConfig {
        churn: Some(200.0),
        seed: 7,
        ..SimConfig::default()
    });
    let mut cmd = cluster.get(&["pods", "-A", "-w", "-o", "jsonl", "--output-watch-events"]);
    cmd.env("KW_IDLE_TIMEOUT", "1s");
    let live = Live::spawn(&mut cmd);
    // Everything printed, list included, goes into one replay. The reader stops once kw has
    // printed past `target` (set when the faults stop), after 30 s of silence, or when the soak
    // and 2 × LIMIT are over (the churn never stops, so silence alone might never come).
    let target = std::sync::Arc::new(std::sync::atomic::AtomicU64::new(u64::MAX));
    let reader_target = std::sync::Arc::clone(&target);
    let reader_deadline = Instant::now() + Duration::from_secs(seconds) + 2 * LIMIT;
    let reader = std::thread::spawn(move || {
        let mut printed: Vec<Printed> = Vec::new();
        while let Some(line) = live.next_line(Duration::from_secs(30)) {
            if Instant::now() > reader_deadline {
                break;
            }
            let event = parse(&line);
            let rv: u64 = event.resource_version.parse().unwrap_or(0);
            printed.push(event);
            if rv >= reader_target.load(std::sync::atomic::Ordering::SeqCst) {
                break;
            }
        }
        (printed, live.stop())
    });
    let plans = [
        Faults {
            close_after: Some(40),
            ..Faults::default()
        },
        Faults {
            cut_after: Some(25),
            ..Faults::default()
        },
        Faults {
            invalid_json_after: Some(30),
            ..Faults::default()
        },
        Faults {
            watch_status: Some(500),
            times: Some(1),
            ..Faults::default()
        },
        Faults {
            stall_after: Some(10),
            stall_secs: 5,
            times: Some(1),
            ..Faults::default()
        },
        Faults::default(),
    ];
    let started = Instant::now();
    let mut round = 0usize;
    while started.elapsed() < Duration::from_secs(seconds) {
        cluster.sim.set_faults(plans[round % plans.len()].clone());
        round += 1;
        // The soak's schedule: a new fault plan every half second.
        std::thread::sleep(Duration::from_millis(500));
    }
    cluster.sim.set_faults(Faults::default());
    let end = cluster.sim.current_resource_version();
    target.store(end, std::sync::atomic::Ordering::SeqCst);
    let (printed, stderr) = reader.join().expect("reader");
    let changes = cluster.sim.changes();
    let upto = |rv: &str| rv.parse::<u64>().map(|v| v <= end).unwrap_or(false);
    // After the list, every pod change up to `end`, exactly once, in order. List items are all
    // ADDED, so the first MODIFIED or DELETED printed is surely a watch event: compare from it.
    let printed_rvs: Vec<(String, String, String)> = printed
        .iter()
        .filter(|p| upto(&p.resource_version))
        .map(|p| (p.kind.clone(), p.uid.clone(), p.resource_version.clone()))
        .collect();
    let mut seen = HashSet::new();
    for p in &printed_rvs {
        assert!(seen.insert(p.clone()), "printed twice: {p:?}");
    }
    let list_rv = changes
        .iter()
        .filter(|c| c.resource == "pods")
        .map(|c| c.resource_version)
        .filter(|rv| {
            let rv = rv.to_string();
            printed_rvs.iter().any(|p| p.0 != "ADDED" && p.2 == rv)
        })
        .min()
        .unwrap_or(end);
    let expected: Vec<(String, String, String)> = changes
        .iter()
        .filter(|c| {
            c.resource == "pods" && c.resource_version >= list_rv && c.resource_version <= end
        })
        .map(|c| {
            (
                c.event_type.clone(),
                c.uid.clone(),
                c.resource_version.to_string(),
            )
        })
        .collect();
    let watched: Vec<(String, String, String)> = printed_rvs
        .into_iter()
        .filter(|p| p.2.parse::<u64>().is_ok_and(|v| v >= list_rv))
        .collect();
    assert!(
        expected.len() > 100,
        "the soak produced too few events: {}",
        expected.len()
    );
    let fired = cluster.sim.faults_fired();
    assert!(
        fired.closed + fired.cut + fired.invalid_json + fired.watches_refused + fired.stalled >= 1,
        "the soak's faults never fired: {fired:?}"
    );
    assert_eq!(watched.len(), expected.len(), "stderr: {stderr}");
    assert_eq!(watched, expected);
    eprintln!(
        "soak: {seconds}s, {} fault rounds, {} pod events checked",
        round,
        expected.len()
    );
}

/// A quiet watch still moves forward: bookmarks carry the resourceVersion, so a reconnect
/// resumes from the latest one instead of an old one the server may have forgotten.
#[test]
fn bookmarks_advance_the_resume_point() {
    let cluster = Cluster::start(SimConfig {
        bookmark_interval: Duration::from_millis(200),
        ..SimConfig::default()
    });
    let live = Live::spawn(&mut cluster.get(&["pods", "-n", "team-b", "-w", "-o", "name"]));
    assert!(live.next_line(LIMIT).is_some(), "the team-b pod");
    // Changes elsewhere move the cluster's resourceVersion on.
    for i in 0..5 {
        cluster
            .sim
            .create("pods", pod(&format!("elsewhere-{i}"), "Pending"))
            .unwrap();
    }
    let latest = cluster.sim.current_resource_version();
    // A bookmark has carried it to kw (sent before the cut, so read before the end of stream).
    harness::wait_for("a bookmark at the latest resourceVersion", LIMIT, || {
        cluster.sim.last_bookmark() >= latest
    });
    cluster.sim.drop_connections();
    let resumed = || -> Vec<u64> {
        let requests = cluster.sim.requests();
        requests
            .iter()
            .filter(|r| r.path.contains("watch=") && r.path.contains("resourceVersion="))
            .filter_map(|r| {
                r.path
                    .split(['?', '&'])
                    .find_map(|kv| kv.strip_prefix("resourceVersion="))
                    .and_then(|v| v.parse().ok())
            })
            .collect()
    };
    let watches_before = resumed().len();
    harness::wait_for("kw to watch again", LIMIT, || {
        resumed().len() > watches_before
    });
    let from = resumed()[watches_before];
    assert!(from >= latest, "resumed from {from}, not {latest}");
    drop(live);
}

/// A deadline far away must not switch the idle timeout off (issue #11, item 5): a half-open
/// connection under `--timeout 1h` is noticed after the idle timeout and resumed, not waited on
/// for the hour.
#[test]
fn a_stalled_connection_under_a_distant_deadline_is_resumed_after_the_idle_timeout() {
    for deadline in ["--timeout", "--request-timeout"] {
        let cluster = faulty(Faults {
            stall_after: Some(1),
            // Far longer than the test waits: only kw's idle timeout can end the stall.
            stall_secs: 600,
            times: Some(2),
            ..Faults::default()
        });
        let from = cluster.sim.current_resource_version();
        let mut watch = Watch::start(&cluster, &[deadline, "1h"], &[("KW_IDLE_TIMEOUT", "1s")]);
        churn(&cluster, "p", 3, Duration::from_millis(30));
        watch.read_until(cluster.sim.current_resource_version());
        assert_exact(&cluster, &watch, from);
        watch.stop();
        assert_fired(
            &cluster,
            FaultsFired {
                stalled: 2,
                ..FaultsFired::default()
            },
        );
        assert_resumed_without_relisting(&cluster, &watch, 2);
    }
}

/// kw reads watch streams in big buffers and writes once per read; a lone event must still reach
/// a pipe on its own, without a later event (or a full buffer) to push it out. Each pod is
/// created only after the previous one was printed, so an event held back would stall the test.
#[test]
fn a_slow_trickle_of_events_reaches_a_pipe_at_once() {
    let cluster = Cluster::seeded();
    for format in [&["-o", "jsonl"][..], &["-o", "json"], &["-o", "name"], &[]] {
        let mut args = vec!["pods", "-w"];
        args.extend_from_slice(format);
        let live = Live::spawn(&mut cluster.get(&args));
        let label = format.join(" ");
        for i in 0..5 {
            let name = format!("trickle-{}-{i}", label.replace([' ', '-'], ""));
            cluster.sim.create("pods", pod(&name, "Pending")).unwrap();
            // Fails the test if the line never comes: a held-back event stalls here.
            live.lines_until(LIMIT, |line| line.contains(&name));
        }
        live.stop();
    }
}
