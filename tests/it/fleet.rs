//! `kw get` over several kubeconfig contexts (`--context a,b`, globs): each context a `kw sim` of
//! its own, named in one kubeconfig. What kw prints is compared with each sim's own record (its
//! objects, its change log), so that every object and every change of every cluster is seen
//! exactly once, in order per cluster, under the right context name; one cluster failing (down
//! for a while, or refusing the credentials) must not cost the others anything.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

use base64::Engine;
use kw_sim::{SimConfig, SimHandle};
use serde_json::{json, Value};

use crate::harness::{self, Live};

const LIMIT: Duration = Duration::from_secs(30);

/// A token no sim accepts (the `bad` context's user): every request gets 401.
const BAD_TOKEN: &str = "kw-fleet-test-token-nobody-accepts";

/// Several sims named as contexts of one kubeconfig, in the given order, each with its own
/// cluster (`NAME-cluster`) and user (`NAME-admin`, the sim's admin token), namespace
/// `default`; then a context `bad` pointing at the first sim with a token it rejects.
struct Fleet {
    sims: Vec<(&'static str, SimHandle)>,
    dir: tempfile::TempDir,
    kubeconfig: PathBuf,
}

impl Fleet {
    fn start(members: Vec<(&'static str, SimConfig)>) -> Fleet {
        let sims: Vec<(&'static str, SimHandle)> = members
            .into_iter()
            .map(|(name, config)| (name, harness::start_sim(config).expect("sim starts")))
            .collect();
        let dir = tempfile::tempdir().expect("temp dir");
        let kubeconfig = dir.path().join("kubeconfig");
        std::fs::write(&kubeconfig, kubeconfig_text(&sims)).expect("kubeconfig written");
        Fleet {
            sims,
            dir,
            kubeconfig,
        }
    }

    fn sim(&self, context: &str) -> &SimHandle {
        self.sims
            .iter()
            .find(|(name, _)| *name == context)
            .map(|(_, sim)| sim)
            .unwrap_or_else(|| panic!("no sim for context {context}"))
    }

    /// `kw` with HOME in the temp dir and no KUBECONFIG, as `Cluster::kw`.
    fn kw(&self) -> Command {
        let mut cmd = crate::harness::tools::command(env!("CARGO_BIN_EXE_kw"));
        cmd.env_remove("KUBECONFIG")
            .env("HOME", self.dir.path())
            .env("NO_COLOR", "1")
            .stdin(std::process::Stdio::null());
        cmd
    }

    /// `kw get ARGS --kubeconfig FLEET-KUBECONFIG`.
    fn get(&self, args: &[&str]) -> Command {
        let mut cmd = self.kw();
        cmd.arg("get")
            .args(args)
            .arg("--kubeconfig")
            .arg(&self.kubeconfig);
        cmd
    }

    /// `kw get ARGS` against one sim through the kubeconfig the sim writes itself (context
    /// `sim`): the single-cluster path, untouched by the fleet's kubeconfig.
    fn get_alone(&self, context: &str, args: &[&str]) -> Command {
        let own = self.dir.path().join(format!("{context}.kubeconfig"));
        if !own.exists() {
            self.sim(context)
                .write_kubeconfig(&own)
                .expect("kubeconfig written");
        }
        let mut cmd = self.kw();
        cmd.arg("get").args(args).arg("--kubeconfig").arg(own);
        cmd
    }

    fn stderr_file(&self, name: &str) -> PathBuf {
        self.dir.path().join(name)
    }
}

fn kubeconfig_text(sims: &[(&'static str, SimHandle)]) -> String {
    let b64 = |text: &str| base64::engine::general_purpose::STANDARD.encode(text);
    let mut out = String::from("apiVersion: v1\nkind: Config\npreferences: {}\nclusters:\n");
    for (name, sim) in sims {
        out.push_str(&format!(
            "- name: {name}-cluster\n  cluster:\n    server: {}\n    certificate-authority-data: {}\n",
            sim.url(),
            b64(&sim.ca_pem())
        ));
    }
    out.push_str("contexts:\n");
    for (name, _) in sims {
        out.push_str(&format!(
            "- name: {name}\n  context:\n    cluster: {name}-cluster\n    user: {name}-admin\n    namespace: default\n"
        ));
    }
    out.push_str(&format!(
        "- name: bad\n  context:\n    cluster: {}-cluster\n    user: bad-user\n    namespace: default\n",
        sims[0].0
    ));
    out.push_str(&format!("current-context: {}\nusers:\n", sims[0].0));
    for (name, sim) in sims {
        out.push_str(&format!(
            "- name: {name}-admin\n  user:\n    token: {}\n",
            sim.admin_token()
        ));
    }
    out.push_str(&format!(
        "- name: bad-user\n  user:\n    token: {BAD_TOKEN}\n"
    ));
    out
}

/// A sim with the seeded world of `seed`, its clock frozen (stable AGE cells).
fn seeded(seed: u64) -> SimConfig {
    SimConfig {
        seed,
        clock: Some(harness::frozen_now()),
        ..SimConfig::default()
    }
}

/// A sim with namespaces only, its clock frozen.
fn empty(seed: u64) -> SimConfig {
    SimConfig {
        empty: true,
        ..seeded(seed)
    }
}

fn pod(name: &str, phase: &str) -> Value {
    json!({
        "apiVersion": "v1",
        "kind": "Pod",
        "metadata": {"name": name, "namespace": "default", "labels": {"app": "fleet"}},
        "spec": {"containers": [{"name": "c", "image": "busybox"}], "nodeName": "node-1"},
        "status": {"phase": phase}
    })
}

/// A deployment `name` in `default` with these status conditions.
fn deployment(name: &str, conditions: &[(&str, &str)]) -> Value {
    let conditions: Vec<Value> = conditions
        .iter()
        .map(|(kind, status)| json!({"type": kind, "status": status}))
        .collect();
    json!({
        "apiVersion": "apps/v1",
        "kind": "Deployment",
        "metadata": {"name": name, "namespace": "default", "generation": 1},
        "spec": {"replicas": 1, "selector": {"matchLabels": {"app": name}},
                 "template": {"metadata": {"labels": {"app": name}},
                              "spec": {"containers": [{"name": "c", "image": "nginx"}]}}},
        "status": {"replicas": 1, "conditions": conditions}
    })
}

/// A table's cells, line by line (column widths depend on all rows shown, so they differ).
fn cells(table: &str) -> Vec<Vec<String>> {
    table
        .lines()
        .map(|line| line.split_whitespace().map(str::to_string).collect())
        .collect()
}

/// Poll a file kw writes its stderr to until it contains `needle`.
fn wait_for_stderr(path: &Path, needle: &str) -> String {
    let mut text = String::new();
    harness::wait_for(&format!("stderr to say {needle:?}"), LIMIT, || {
        text = std::fs::read_to_string(path).unwrap_or_default();
        text.contains(needle)
    });
    text
}

/// Assert kw has judged every change so far in `contexts` and still waits (a condition not yet
/// met must not end it). The proof: in each context a label no condition reads is put on
/// deploy/web and comes out as `CONTEXT/deployment.apps/web`; kw prints a context's events in
/// order and only while it watches. Lines printed before must have been read.
fn still_waiting(live: &mut Live, fleet: &Fleet, contexts: &[&str]) {
    for context in contexts {
        let sim = fleet.sim(context);
        let mut web = sim
            .objects("deployments")
            .into_iter()
            .find(|d| d["metadata"]["name"] == "web")
            .expect("deploy/web");
        let touches = web["metadata"]["labels"]["touched"]
            .as_str()
            .and_then(|n| n.parse::<u32>().ok())
            .unwrap_or(0);
        web["metadata"]["labels"]["touched"] = json!((touches + 1).to_string());
        sim.update("deployments", web).unwrap();
    }
    let mut waiting: Vec<String> = contexts
        .iter()
        .map(|context| format!("{context}/deployment.apps/web"))
        .collect();
    while !waiting.is_empty() {
        let line = live.next_line(LIMIT).unwrap_or_else(|| {
            panic!("kw printed nothing within {LIMIT:?}; still waiting for {waiting:?}")
        });
        waiting.retain(|marker| *marker != line);
    }
    if let Some(status) = live.child.try_wait().expect("wait") {
        panic!("kw ended early with {status}");
    }
}

/// Read on until a pod created now in each context has been printed: anything printed twice
/// or out of order before it is then in `printed`, without waiting a fixed time for it.
fn read_past_markers(live: &Live, fleet: &Fleet, contexts: &[&str], printed: &mut Vec<Printed>) {
    for context in contexts {
        fleet
            .sim(context)
            .create("pods", pod(&format!("{context}-marker"), "Pending"))
            .unwrap();
    }
    read_until_caught_up(live, fleet, contexts, printed);
}

/// One event printed with `-o jsonl --output-watch-events`, and the context it names.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Printed {
    context: String,
    kind: String,
    uid: String,
    resource_version: String,
}

fn parse(line: &str) -> Printed {
    let v: Value = serde_json::from_str(line).unwrap_or_else(|e| panic!("{e}: {line}"));
    let text = |v: &Value| v.as_str().unwrap_or_default().to_string();
    Printed {
        context: text(&v["kw"]["context"]),
        kind: text(&v["type"]),
        uid: text(&v["object"]["metadata"]["uid"]),
        resource_version: text(&v["object"]["metadata"]["resourceVersion"]),
    }
}

/// The pod changes in `default` of one sim, as (type, uid, rv), oldest first.
fn pod_changes(sim: &SimHandle) -> Vec<(String, String, String)> {
    sim.changes()
        .into_iter()
        .filter(|c| c.resource == "pods" && c.namespace == "default")
        .map(|c| (c.event_type, c.uid, c.resource_version.to_string()))
        .collect()
}

/// What kw printed for one context, as (type, uid, rv), in the order printed.
fn printed_for(printed: &[Printed], context: &str) -> Vec<(String, String, String)> {
    printed
        .iter()
        .filter(|p| p.context == context)
        .map(|p| (p.kind.clone(), p.uid.clone(), p.resource_version.clone()))
        .collect()
}

/// Read JSON lines until, for every context, the last pod change of its sim has been printed.
fn read_until_caught_up(live: &Live, fleet: &Fleet, contexts: &[&str], printed: &mut Vec<Printed>) {
    let deadline = Instant::now() + LIMIT;
    loop {
        let behind: Vec<&str> = contexts
            .iter()
            .copied()
            .filter(|context| {
                let last = pod_changes(fleet.sim(context)).last().map(|c| c.2.clone());
                last.is_some_and(|rv| {
                    !printed
                        .iter()
                        .any(|p| p.context == *context && p.resource_version == rv)
                })
            })
            .collect();
        if behind.is_empty() {
            return;
        }
        let left = deadline.saturating_duration_since(Instant::now());
        let line = live.next_line(left).unwrap_or_else(|| {
            panic!("contexts {behind:?} never caught up within {LIMIT:?}; printed {printed:#?}")
        });
        printed.push(parse(&line));
    }
}

/// Creations, modifications and deletions of pods named `PREFIX-N` in `default`. The pauses only
/// pace the story; no test waits on them.
fn churn(sim: &SimHandle, prefix: &str, rounds: usize) {
    let pause = Duration::from_millis(20);
    for i in 0..rounds {
        let name = format!("{prefix}-{i}");
        sim.create("pods", pod(&name, "Pending")).unwrap();
        std::thread::sleep(pause);
        sim.update("pods", pod(&name, "Running")).unwrap();
        std::thread::sleep(pause);
        if i % 2 == 0 {
            sim.delete("pods", "default", &name).unwrap();
            std::thread::sleep(pause);
        }
    }
}

/// Each context's events, exactly the changes its sim made, in its order.
fn assert_exact_per_context(fleet: &Fleet, contexts: &[&str], printed: &[Printed]) {
    for context in contexts {
        assert_eq!(
            printed_for(printed, context),
            pod_changes(fleet.sim(context)),
            "context {context}"
        );
    }
    let known: Vec<&str> = contexts.to_vec();
    for p in printed {
        assert!(
            known.contains(&p.context.as_str()),
            "an event labelled with no chosen context: {p:?}"
        );
    }
}

#[test]
fn one_shot_lists_every_object_of_each_context_once_under_its_name() {
    let fleet = Fleet::start(vec![("east", seeded(1)), ("west", empty(2))]);
    for name in ["w-alpha", "w-beta", "w-gamma"] {
        fleet
            .sim("west")
            .create("pods", pod(name, "Running"))
            .unwrap();
    }
    // -o name: CONTEXT/kind/name, every pod of each sim once, the contexts in kubeconfig order.
    let expected: Vec<String> = ["east", "west"]
        .iter()
        .flat_map(|context| {
            fleet
                .sim(context)
                .objects("pods")
                .into_iter()
                .map(move |o| format!("{context}/pod/{}", o["metadata"]["name"].as_str().unwrap()))
        })
        .collect();
    assert!(expected.len() > 5, "the seed has pods: {expected:?}");
    for flag in ["east,west", "west,east", "e*,w*", "*st"] {
        let got = harness::run(
            fleet.get(&["pods", "-A", "-o", "name", "--context", flag]),
            LIMIT,
        );
        assert_eq!(got.code, Some(0), "--context {flag}: {}", got.stderr);
        assert_eq!(
            got.stdout.lines().collect::<Vec<_>>(),
            expected,
            "--context {flag}"
        );
        assert_eq!(got.stderr, "", "--context {flag}");
    }

    // The table: a CONTEXT column before NAMESPACE, and each context's rows as it lists them
    // alone, in kubeconfig order, one header for all.
    let both = harness::run(fleet.get(&["pods", "-A", "--context", "east,west"]), LIMIT);
    assert_eq!(both.code, Some(0), "{}", both.stderr);
    let mut expected_rows = Vec::new();
    let mut header = Vec::new();
    for context in ["east", "west"] {
        let alone = harness::run(fleet.get(&["pods", "-A", "--context", context]), LIMIT);
        assert_eq!(alone.code, Some(0), "{}", alone.stderr);
        let mut rows = cells(&alone.stdout);
        header = rows.remove(0);
        assert_eq!(header[0], "NAMESPACE", "no CONTEXT column with one context");
        for mut row in rows {
            row.insert(0, context.to_string());
            expected_rows.push(row);
        }
    }
    header.insert(0, "CONTEXT".to_string());
    let expected_table: Vec<Vec<String>> = std::iter::once(header).chain(expected_rows).collect();
    assert_eq!(cells(&both.stdout), expected_table);
    // One table: every row lines up under the header (the NAMESPACE column starts at the same
    // byte in each line).
    let starts: Vec<usize> = both
        .stdout
        .lines()
        .map(|line| {
            let first = line.split_whitespace().next().unwrap().len();
            first + line[first..].len() - line[first..].trim_start().len()
        })
        .collect();
    assert!(
        starts.windows(2).all(|w| w[0] == w[1]),
        "columns not aligned over both contexts:\n{}",
        both.stdout
    );

    // One context: byte for byte what the sim's own kubeconfig gives (kubectl's output),
    // whether named or current.
    for args in [
        vec!["pods", "-A"],
        vec!["pods", "-A", "-o", "name"],
        vec!["pods", "-o", "wide"],
        vec!["pods", "-o", "json"],
        vec!["pods", "-o", "yaml"],
        vec!["pods", "-o", "jsonl"],
    ] {
        let alone = harness::run(fleet.get_alone("east", &args), LIMIT);
        assert_eq!(alone.code, Some(0), "{}", alone.stderr);
        let mut named_args = args.clone();
        named_args.extend(["--context", "east"]);
        let named = harness::run(fleet.get(&named_args), LIMIT);
        assert_eq!(named.code, Some(0), "{}", named.stderr);
        assert_eq!(named.stdout, alone.stdout, "{args:?} --context east");
        let current = harness::run(fleet.get(&args), LIMIT);
        assert_eq!(current.stdout, alone.stdout, "{args:?} (current context)");
        assert!(!alone.stdout.contains("CONTEXT"), "{}", alone.stdout);
    }
}

#[test]
fn json_and_yaml_name_the_context_of_every_object() {
    let fleet = Fleet::start(vec![("east", empty(61)), ("west", empty(62))]);
    fleet
        .sim("east")
        .create("pods", pod("e-1", "Running"))
        .unwrap();
    fleet
        .sim("west")
        .create("pods", pod("w-1", "Running"))
        .unwrap();
    let uid = |context: &str| {
        fleet.sim(context).objects("pods")[0]["metadata"]["uid"]
            .as_str()
            .unwrap()
            .to_string()
    };
    let both = ["--context", "east,west"];
    let with = |args: &[&'static str]| -> Vec<&'static str> {
        args.iter().chain(both.iter()).copied().collect()
    };

    // JSON lines: the object, then a last top-level member `"kw":{"context":..}`.
    let out = harness::run(fleet.get(&with(&["pods", "-o", "jsonl"])), LIMIT);
    assert_eq!(out.code, Some(0), "{}", out.stderr);
    let lines: Vec<&str> = out.stdout.lines().collect();
    assert_eq!(lines.len(), 2, "{}", out.stdout);
    for (line, context) in lines.iter().zip(["east", "west"]) {
        let v: Value = serde_json::from_str(line).unwrap();
        assert_eq!(v["kw"]["context"], context, "{line}");
        assert_eq!(v["metadata"]["uid"], uid(context), "{line}");
        assert!(
            line.ends_with(&format!(",\"kw\":{{\"context\":\"{context}\"}}}}")),
            "{line}"
        );
    }

    // -o json and -o yaml: each item has a `kw` member, among the keys in sorted order.
    let out = harness::run(fleet.get(&with(&["pods", "-o", "json"])), LIMIT);
    assert_eq!(out.code, Some(0), "{}", out.stderr);
    let v: Value =
        serde_json::from_str(&out.stdout).unwrap_or_else(|e| panic!("{e}: {}", out.stdout));
    let items = v["items"]
        .as_array()
        .unwrap_or_else(|| panic!("a List: {v}"));
    let contexts: Vec<&Value> = items.iter().map(|i| &i["kw"]["context"]).collect();
    assert_eq!(contexts, [&json!("east"), &json!("west")], "{}", out.stdout);
    for (item, context) in items.iter().zip(["east", "west"]) {
        assert_eq!(item["metadata"]["uid"], uid(context));
    }
    let kind = out.stdout.find("\"kind\": \"Pod\"").expect("kind");
    let kw = out.stdout.find("\"kw\": {").expect("kw");
    let metadata = out.stdout[kind..].find("\"metadata\"").expect("metadata") + kind;
    assert!(kind < kw && kw < metadata, "{}", out.stdout);
    let out = harness::run(fleet.get(&with(&["pods", "-o", "yaml"])), LIMIT);
    assert_eq!(out.code, Some(0), "{}", out.stderr);
    let v: Value =
        serde_saphyr::from_str(&out.stdout).unwrap_or_else(|e| panic!("{e}: {}", out.stdout));
    let contexts: Vec<&Value> = v["items"]
        .as_array()
        .unwrap_or_else(|| panic!("a List: {}", out.stdout))
        .iter()
        .map(|i| &i["kw"]["context"])
        .collect();
    assert_eq!(contexts, [&json!("east"), &json!("west")], "{}", out.stdout);

    // Watching without --output-watch-events: the objects carry the member too.
    let live = Live::spawn(&mut fleet.get(&with(&["pods", "-w", "-o", "jsonl"])));
    let mut seen: Vec<(String, String)> = (0..2)
        .map(|_| {
            let line = live.next_line(LIMIT).expect("a listed pod");
            let v: Value = serde_json::from_str(&line).unwrap();
            (
                v["kw"]["context"].as_str().unwrap_or_default().to_string(),
                v["metadata"]["name"]
                    .as_str()
                    .unwrap_or_default()
                    .to_string(),
            )
        })
        .collect();
    seen.sort();
    assert_eq!(
        seen,
        [
            ("east".to_string(), "e-1".to_string()),
            ("west".to_string(), "w-1".to_string())
        ]
    );
    fleet
        .sim("west")
        .create("pods", pod("w-2", "Pending"))
        .unwrap();
    let line = live.next_line(LIMIT).expect("the new pod");
    let v: Value = serde_json::from_str(&line).unwrap();
    assert_eq!(v["kw"], json!({"context": "west"}), "{line}");
    assert_eq!(v["metadata"]["name"], "w-2", "{line}");
    let stderr = live.stop();
    assert_eq!(stderr, "");

    // A watched table with events: EVENT, then CONTEXT, then NAMESPACE; one header.
    let live = Live::spawn(&mut fleet.get(&with(&["pods", "-A", "-w", "--output-watch-events"])));
    let header = live.next_line(LIMIT).expect("a header");
    assert_eq!(
        header.split_whitespace().take(4).collect::<Vec<_>>(),
        ["EVENT", "CONTEXT", "NAMESPACE", "NAME"],
        "{header}"
    );
    let mut rows: Vec<Vec<String>> = (0..3)
        .map(|_| {
            let line = live.next_line(LIMIT).expect("a listed pod");
            line.split_whitespace()
                .take(4)
                .map(str::to_string)
                .collect()
        })
        .collect();
    rows.sort();
    assert_eq!(
        rows,
        [
            ["ADDED", "east", "default", "e-1"],
            ["ADDED", "west", "default", "w-1"],
            ["ADDED", "west", "default", "w-2"],
        ]
    );
    let stderr = live.stop();
    assert_eq!(stderr, "");
}

#[test]
fn a_merged_watch_has_every_change_of_every_cluster_once_in_order() {
    let contexts = ["east", "west", "north"];
    let fleet = Fleet::start(vec![
        ("east", empty(11)),
        ("west", empty(12)),
        ("north", empty(13)),
    ]);
    let live = Live::spawn(&mut fleet.get(&[
        "pods",
        "-w",
        "-o",
        "jsonl",
        "--output-watch-events",
        "--context",
        "east,west,north",
    ]));
    // A first pod in each: once kw printed all three, it watches every cluster.
    for context in contexts {
        fleet
            .sim(context)
            .create("pods", pod(&format!("{context}-first"), "Pending"))
            .unwrap();
    }
    let mut printed = Vec::new();
    read_until_caught_up(&live, &fleet, &contexts, &mut printed);
    // All three clusters change at once.
    std::thread::scope(|threads| {
        for context in contexts {
            let sim = fleet.sim(context);
            threads.spawn(move || churn(sim, context, 6));
        }
    });
    read_until_caught_up(&live, &fleet, &contexts, &mut printed);
    // Nothing more comes (no repeats after the last change) before the markers.
    read_past_markers(&live, &fleet, &contexts, &mut printed);
    assert_exact_per_context(&fleet, &contexts, &printed);
    let stderr = live.stop();
    assert_eq!(stderr, "", "a healthy watch says nothing on stderr");
}

/// What a watching kw holds, from /proc: its open TCP sockets (its connections; the poller's
/// wake pair is a Unix socket) and its threads.
fn sockets_and_threads(pid: u32) -> (usize, usize) {
    // Each socket kw's network namespace has for TCP, by inode (the 10th column).
    let tcp: std::collections::HashSet<String> = ["tcp", "tcp6"]
        .iter()
        .filter_map(|table| std::fs::read_to_string(format!("/proc/{pid}/net/{table}")).ok())
        .flat_map(|text| {
            text.lines()
                .skip(1)
                .filter_map(|line| line.split_whitespace().nth(9).map(str::to_string))
                .collect::<Vec<_>>()
        })
        .collect();
    let sockets = std::fs::read_dir(format!("/proc/{pid}/fd"))
        .expect("kw's fds")
        .flatten()
        .filter(|fd| {
            std::fs::read_link(fd.path()).is_ok_and(|to| {
                let to = to.to_string_lossy();
                to.strip_prefix("socket:[")
                    .and_then(|inode| inode.strip_suffix(']'))
                    .is_some_and(|inode| tcp.contains(inode))
            })
        })
        .count();
    let threads = std::fs::read_dir(format!("/proc/{pid}/task"))
        .expect("kw's threads")
        .count();
    (sockets, threads)
}

/// A fleet of a thousand contexts is paid per context (issue 47): a cluster watched for one
/// type costs one connection (the watch takes the one its discovery and list left, none idles
/// beside it) and one thread, once every context watches.
#[test]
fn a_watched_context_costs_one_connection_and_one_thread() {
    let contexts = ["east", "west", "north", "south"];
    let fleet = Fleet::start(
        contexts
            .iter()
            .zip(31..)
            .map(|(name, seed)| (*name, empty(seed)))
            .collect(),
    );
    let mut live = Live::spawn(&mut fleet.get(&[
        "pods",
        "-w",
        "-o",
        "jsonl",
        "--output-watch-events",
        "--context",
        "east,west,north,south",
    ]));
    let mut printed = Vec::new();
    // A pod before and one after the first list: the second comes through each watch.
    for round in ["first", "second"] {
        for context in contexts {
            fleet
                .sim(context)
                .create("pods", pod(&format!("{context}-{round}"), "Pending"))
                .unwrap();
        }
        read_until_caught_up(&live, &fleet, &contexts, &mut printed);
    }
    let (sockets, threads) = sockets_and_threads(live.child.id());
    let stderr = live.kill();
    assert_eq!(stderr, "");
    assert_eq!(
        sockets,
        contexts.len(),
        "one connection per watched context"
    );
    // At most one per context (a busy watch's turn on the pool's thread; a silent one parks
    // without: `silent_watches_hold_no_thread_each_and_still_get_the_next_change`), and the
    // few of the process, whatever the number of contexts: main, ctrlc's handler, the signal
    // thread that restores the terminal (SIGTERM, Ctrl-Z), the one that notices stdout's
    // reader going away, and the poller of parked watches.
    assert!(
        threads <= contexts.len() + 5,
        "{threads} threads for {} contexts",
        contexts.len()
    );
    assert_exact_per_context(&fleet, &contexts, &printed);
}

/// A fleet whose clusters are silent holds no thread per context (issue 47): a watch whose
/// stream has said nothing for a while, with nothing read and not yet handled, waits parked
/// with one poll thread, and comes back on a thread of the pool when its socket has data. Forty
/// contexts of one server: once their lists are printed and their streams quiet, kw's threads
/// are far fewer than its contexts, and a change then still reaches every context exactly once.
#[test]
fn silent_watches_hold_no_thread_each_and_still_get_the_next_change() {
    const CONTEXTS: usize = 40;
    let fleet = Fleet::start(vec![("east", empty(47))]);
    fleet
        .sim("east")
        .create("pods", pod("before", "Pending"))
        .unwrap();
    let contexts: String = (0..CONTEXTS)
        .map(|i| format!("- name: c-{i}\n  context:\n    cluster: east-cluster\n    user: east-admin\n    namespace: default\n"))
        .collect();
    let text =
        kubeconfig_text(&fleet.sims).replacen("contexts:\n", &format!("contexts:\n{contexts}"), 1);
    std::fs::write(&fleet.kubeconfig, text).unwrap();
    let mut live = Live::spawn(&mut fleet.get(&["pods", "-w", "-o", "name", "--context", "c-*"]));
    let mut listed: Vec<String> = (0..CONTEXTS)
        .map(|_| live.next_line(LIMIT).expect("a listed pod"))
        .collect();
    listed.sort();
    let mut expected: Vec<String> = (0..CONTEXTS).map(|i| format!("c-{i}/pod/before")).collect();
    expected.sort();
    assert_eq!(listed, expected);
    // The streams go quiet: their watches park and their threads end (the pool's idle ones
    // after a while). Looked at until then, within the limit.
    let pid = live.child.id();
    let until = Instant::now() + LIMIT;
    let mut threads = sockets_and_threads(pid).1;
    while threads >= CONTEXTS / 4 && Instant::now() < until {
        std::thread::sleep(Duration::from_millis(100));
        threads = sockets_and_threads(pid).1;
    }
    assert!(
        threads < CONTEXTS / 4,
        "{threads} threads for {CONTEXTS} silent contexts"
    );
    let sockets = sockets_and_threads(pid).0;
    assert_eq!(sockets, CONTEXTS, "each parked watch keeps its connection");
    // A change now wakes every parked watch: each context prints it once.
    fleet
        .sim("east")
        .create("pods", pod("after", "Pending"))
        .unwrap();
    let mut changed: Vec<String> = (0..CONTEXTS)
        .map(|_| live.next_line(LIMIT).expect("the new pod"))
        .collect();
    changed.sort();
    let mut expected: Vec<String> = (0..CONTEXTS).map(|i| format!("c-{i}/pod/after")).collect();
    expected.sort();
    assert_eq!(changed, expected);
    // Nothing more: no change printed twice.
    assert_eq!(live.next_line(Duration::from_millis(500)), None);
    let stderr = live.kill();
    assert_eq!(stderr, "");
}

/// Forty contexts whose server accepts connections and never says a word (a TLS handshake
/// that hangs), named before a healthy one: more than get ready at once (32), so the healthy
/// context's turn comes only because a hanging one gives its place after its patience, long
/// before the hanging handshakes time out (30 s). Its rows come while they all still hang.
#[test]
fn clusters_that_never_answer_do_not_hold_up_the_others_first_rows() {
    const SILENT: usize = 40;
    let fleet = Fleet::start(vec![("east", empty(41))]);
    fleet
        .sim("east")
        .create("pods", pod("east-first", "Pending"))
        .unwrap();
    // Connections complete in the kernel's backlog and are never read or answered.
    let silent = std::net::TcpListener::bind("127.0.0.1:0").expect("a listener");
    let port = silent.local_addr().unwrap().port();
    let text = kubeconfig_text(&fleet.sims);
    let ca = text
        .lines()
        .find_map(|line| line.trim().strip_prefix("certificate-authority-data: "))
        .expect("east's CA")
        .to_string();
    let contexts: String = (0..SILENT)
        .map(|i| {
            format!(
                "- name: silent-{i}\n  context:\n    cluster: silent-cluster\n    user: east-admin\n"
            )
        })
        .collect();
    let text = text
        .replacen(
            "clusters:\n",
            &format!(
                "clusters:\n- name: silent-cluster\n  cluster:\n    server: https://127.0.0.1:{port}\n    certificate-authority-data: {ca}\n"
            ),
            1,
        )
        .replacen("contexts:\n", &format!("contexts:\n{contexts}"), 1);
    std::fs::write(&fleet.kubeconfig, text).unwrap();
    let mut live =
        Live::spawn(&mut fleet.get(&["pods", "-w", "-o", "name", "--context", "silent-*,east"]));
    let lines = live.lines_until(LIMIT, |line| line.starts_with("east/"));
    assert_eq!(
        lines.last().map(String::as_str),
        Some("east/pod/east-first")
    );
    // Every silent context still waits on its handshake: none has given up yet.
    let stderr = live.kill();
    assert!(
        !stderr.contains("silent-"),
        "east printed while the silent ones still hung:\n{stderr}"
    );
}

/// Contexts that reach the same server as the same user read its discovery once per run; a
/// context of another user on that server reads its own (issue 47: a thousand contexts of one
/// cluster asked a thousand times).
#[test]
fn contexts_of_one_server_and_user_read_discovery_once() {
    let fleet = Fleet::start(vec![("east", seeded(43))]);
    let own = fleet.dir.path().join("sim.kubeconfig");
    fleet.sim("east").write_kubeconfig(&own).unwrap();
    // The sim's own kubeconfig (cluster `sim`, users `admin` and `cert-user`), with three more
    // contexts of its admin.
    let same: String = ["a", "b", "c"]
        .iter()
        .map(|name| format!("- name: {name}\n  context:\n    cluster: sim\n    user: admin\n"))
        .collect();
    let text = std::fs::read_to_string(&own).unwrap();
    std::fs::write(
        &own,
        text.replacen("contexts:\n", &format!("contexts:\n{same}"), 1),
    )
    .unwrap();
    let outcome = harness::run(
        fleet
            .kw()
            .args(["get", "pods", "-o", "name", "--context", "a,b,c,sim-cert"])
            .arg("--kubeconfig")
            .arg(&own),
        LIMIT,
    );
    assert_eq!(outcome.code, Some(0), "{outcome:#?}");
    for context in ["a", "b", "c", "sim-cert"] {
        assert!(
            outcome.stdout.contains(&format!("{context}/pod/")),
            "{context} listed: {}",
            outcome.stdout
        );
    }
    // The admin's requests carry its token; the certificate user's carry none.
    let discovery = |bearer: bool| -> Vec<String> {
        fleet
            .sim("east")
            .requests()
            .into_iter()
            .filter(|r| r.path == "/api" || r.path == "/apis")
            .filter(|r| {
                bearer
                    == r.headers
                        .iter()
                        .any(|(n, _)| n.eq_ignore_ascii_case("authorization"))
            })
            .map(|r| r.path)
            .collect()
    };
    // What one context asks (the certificate user's, on its own), the three admins asked once.
    let once = discovery(false);
    assert!(!once.is_empty(), "sim-cert read discovery");
    assert_eq!(
        discovery(true),
        once,
        "a, b and c read it once between them"
    );
}

#[test]
fn a_cluster_that_goes_away_costs_one_line_each_way_and_loses_nothing() {
    let contexts = ["east", "west"];
    let mut fleet = Fleet::start(vec![("east", empty(21)), ("west", empty(22))]);
    let stderr_path = fleet.stderr_file("restart.stderr");
    let live = Live::spawn_stderr_to(
        &mut fleet.get(&[
            "pods",
            "-w",
            "-o",
            "jsonl",
            "--output-watch-events",
            "--context",
            "east,west",
        ]),
        &stderr_path,
    );
    for context in contexts {
        fleet
            .sim(context)
            .create("pods", pod(&format!("{context}-first"), "Pending"))
            .unwrap();
    }
    let mut printed = Vec::new();
    read_until_caught_up(&live, &fleet, &contexts, &mut printed);
    // A second pod, created once kw watches: its event comes after the end of the initial
    // state, so kw has a resourceVersion to resume from (a watch broken while the initial
    // state is still streaming is rightly followed by a new sync, not a resume).
    for context in contexts {
        fleet
            .sim(context)
            .create("pods", pod(&format!("{context}-second"), "Pending"))
            .unwrap();
    }
    read_until_caught_up(&live, &fleet, &contexts, &mut printed);

    let [(_, east), (_, west)] = &mut fleet.sims[..] else {
        panic!("two sims")
    };
    let east: &SimHandle = east;
    std::thread::scope(|threads| {
        // West goes away for a while (listener and connections closed), then listens again on
        // the same port with the same state.
        let restarting = threads.spawn(|| west.restart(Duration::from_secs(4)));
        wait_for_stderr(&stderr_path, "kw: context \"west\": ");
        // East keeps changing, and its changes keep coming.
        churn(east, "east", 4);
        let deadline = Instant::now() + LIMIT;
        let last = pod_changes(east).last().unwrap().2.clone();
        while !printed
            .iter()
            .any(|p| p.context == "east" && p.resource_version == last)
        {
            let left = deadline.saturating_duration_since(Instant::now());
            let line = live
                .next_line(left)
                .unwrap_or_else(|| panic!("east stalled while west was down: {printed:#?}"));
            printed.push(parse(&line));
        }
        restarting.join().unwrap().expect("west listens again");
    });
    // West is back: its changes resume, from where they stopped.
    churn(fleet.sim("west"), "west", 4);
    read_until_caught_up(&live, &fleet, &contexts, &mut printed);
    wait_for_stderr(&stderr_path, "kw: context \"west\": reachable again");
    read_past_markers(&live, &fleet, &contexts, &mut printed);
    let stderr = live.stop();
    assert_exact_per_context(&fleet, &contexts, &printed);
    let west_lines: Vec<&str> = stderr
        .lines()
        .filter(|l| l.starts_with("kw: context \"west\": "))
        .collect();
    assert_eq!(
        west_lines.len(),
        2,
        "one line when west fails, one when it is back:\n{stderr}"
    );
    assert!(
        west_lines[0].ends_with("; resuming") || west_lines[0].contains("; retrying in "),
        "{stderr}"
    );
    assert_eq!(west_lines[1], "kw: context \"west\": reachable again");
    assert_eq!(
        stderr.lines().count(),
        2,
        "nothing else on stderr (nothing about east):\n{stderr}"
    );
}

#[test]
fn a_cluster_down_at_the_start_joins_when_it_is_back() {
    let contexts = ["east", "west"];
    let mut fleet = Fleet::start(vec![("east", empty(23)), ("west", empty(24))]);
    for context in contexts {
        fleet
            .sim(context)
            .create("pods", pod(&format!("{context}-first"), "Pending"))
            .unwrap();
    }
    let stderr_path = fleet.stderr_file("down-at-start.stderr");
    let mut printed = Vec::new();
    let [(_, east), (_, west)] = &mut fleet.sims[..] else {
        panic!("two sims")
    };
    let east: &SimHandle = east;
    let west_address = std::net::SocketAddr::from(([127, 0, 0, 1], west.port()));
    let mut live = None;
    std::thread::scope(|threads| {
        let restarting = threads.spawn(|| west.restart(Duration::from_secs(4)));
        // Start kw once west refuses connections.
        harness::wait_for("west to go down", LIMIT, || {
            std::net::TcpStream::connect_timeout(&west_address, Duration::from_secs(1)).is_err()
        });
        let started = Live::spawn_stderr_to(
            crate::harness::tools::command(env!("CARGO_BIN_EXE_kw"))
                .env_remove("KUBECONFIG")
                .env("HOME", fleet.dir.path())
                .env("NO_COLOR", "1")
                .args([
                    "get",
                    "pods",
                    "-w",
                    "-o",
                    "jsonl",
                    "--output-watch-events",
                    "--context",
                    "east,west",
                    "--kubeconfig",
                ])
                .arg(&fleet.kubeconfig),
            &stderr_path,
        );
        // East is listed and watched while west cannot be reached.
        let line = started.next_line(LIMIT).expect("east's pod");
        let first = parse(&line);
        assert_eq!(first.context, "east", "{line}");
        wait_for_stderr(&stderr_path, "kw: context \"west\": ");
        churn(east, "east", 2);
        live = Some(started);
        printed.push(first);
        restarting.join().unwrap().expect("west listens again");
    });
    let live = live.expect("kw started");
    // West is back: once kw has listed it (west-first printed), its changes come one by one.
    let listed = live.lines_until(LIMIT, |line| parse(line).context == "west");
    printed.extend(listed.iter().map(|line| parse(line)));
    churn(fleet.sim("west"), "west", 3);
    churn(fleet.sim("east"), "east-later", 2);
    read_until_caught_up(&live, &fleet, &contexts, &mut printed);
    wait_for_stderr(&stderr_path, "kw: context \"west\": reachable again");
    read_past_markers(&live, &fleet, &contexts, &mut printed);
    let stderr = live.stop();
    assert_exact_per_context(&fleet, &contexts, &printed);
    let lines: Vec<&str> = stderr.lines().collect();
    assert_eq!(lines.len(), 2, "{stderr}");
    assert!(
        lines[0].starts_with("kw: context \"west\": ") && lines[0].contains("; retrying in "),
        "{stderr}"
    );
    assert_eq!(lines[1], "kw: context \"west\": reachable again");
}

/// A CRD installed in one cluster only: the type is resolved per cluster, the one without it
/// is named once on stderr, and the other's objects print as usual (exit 0).
#[test]
fn a_type_one_cluster_lacks_is_skipped_there_and_said() {
    let fleet = Fleet::start(vec![
        ("east", seeded(81)),
        (
            "west",
            SimConfig {
                no_crds: true,
                ..seeded(82)
            },
        ),
    ]);
    let widgets: Vec<String> = fleet
        .sim("east")
        .objects("widgets")
        .iter()
        .map(|w| {
            format!(
                "east/widget.example.com/{}",
                w["metadata"]["name"].as_str().unwrap()
            )
        })
        .collect();
    assert!(!widgets.is_empty(), "the seeded world has widgets");
    let out = harness::run(
        fleet.get(&["widgets", "-A", "-o", "name", "--context", "east,west"]),
        LIMIT,
    );
    assert_eq!(out.code, Some(0), "{}", out.stderr);
    let mut printed: Vec<String> = out.stdout.lines().map(String::from).collect();
    printed.sort();
    let mut expected = widgets.clone();
    expected.sort();
    assert_eq!(printed, expected);
    assert_eq!(
        out.stderr,
        "kw: context \"west\": the server doesn't have a resource type \"widgets\"; not watched in this context\n"
    );
    // Several types: what west has is still listed there.
    let out = harness::run(
        fleet.get(&[
            "widgets,deploy",
            "-A",
            "-o",
            "name",
            "--context",
            "east,west",
        ]),
        LIMIT,
    );
    assert_eq!(out.code, Some(0), "{}", out.stderr);
    assert!(
        out.stdout
            .lines()
            .any(|l| l.starts_with("west/deployment.apps/")),
        "{}",
        out.stdout
    );
    assert!(!out.stdout.contains("west/widget"), "{}", out.stdout);
}

#[test]
fn a_type_no_context_has_fails_as_kubectl_does() {
    let fleet = Fleet::start(vec![("east", empty(71)), ("west", empty(72))]);
    let out = harness::run(
        fleet.get(&["nosuchthings", "--context", "east,west"]),
        LIMIT,
    );
    assert_eq!(out.code, Some(1), "{}", out.stderr);
    assert_eq!(out.stdout, "");
    for context in ["east", "west"] {
        let notice = format!(
            "kw: context \"{context}\": the server doesn't have a resource type \"nosuchthings\"; not watched in this context"
        );
        assert_eq!(out.stderr.matches(&notice).count(), 1, "{}", out.stderr);
    }
    assert_eq!(
        out.stderr.lines().last(),
        Some("error: the server doesn't have a resource type \"nosuchthings\""),
        "{}",
        out.stderr
    );
}

/// kw's error for a rejected token, as kubectl words it.
const LOGGED_IN: &str = "error: context \"bad\": You must be logged in to the server (the server has asked for the client to provide credentials)";

#[test]
fn a_rejected_token_ends_only_its_own_context_and_sets_the_exit_code() {
    let fleet = Fleet::start(vec![("east", empty(31))]);
    fleet
        .sim("east")
        .create("pods", pod("before", "Running"))
        .unwrap();

    // One-shot: east's list, bad's error, exit 4.
    let once = harness::run(
        fleet.get(&["pods", "-o", "name", "--context", "east,bad"]),
        LIMIT,
    );
    assert_eq!(once.code, Some(4), "{}", once.stderr);
    assert_eq!(once.stdout, "east/pod/before\n");
    assert_eq!(once.stderr.trim_end(), LOGGED_IN);
    // --all-contexts chooses bad too.
    let all = harness::run(fleet.get(&["pods", "-o", "name", "--all-contexts"]), LIMIT);
    assert_eq!(all.code, Some(4), "{}", all.stderr);
    assert_eq!(all.stdout, "east/pod/before\n");
    assert_eq!(all.stderr.trim_end(), LOGGED_IN);

    // Watching: bad ends at once, east goes on, and the run's end exits 4.
    let stderr_path = fleet.stderr_file("bad.stderr");
    let live = Live::spawn_stderr_to(
        &mut fleet.get(&[
            "pods",
            "-w",
            "-o",
            "name",
            "--context",
            "east,bad",
            "--request-timeout",
            "10s",
        ]),
        &stderr_path,
    );
    assert_eq!(
        live.next_line(LIMIT).as_deref(),
        Some("east/pod/before"),
        "east's list"
    );
    wait_for_stderr(&stderr_path, LOGGED_IN);
    for name in ["after-1", "after-2"] {
        fleet
            .sim("east")
            .create("pods", pod(name, "Pending"))
            .unwrap();
        assert_eq!(
            live.next_line(LIMIT),
            Some(format!("east/pod/{name}")),
            "east after bad failed"
        );
    }
    let (code, rest, stderr) = live.finish(LIMIT);
    assert_eq!(code, Some(4), "{stderr}");
    assert!(rest.is_empty(), "{rest:?}");
    assert_eq!(stderr.trim_end(), LOGGED_IN, "said once, nothing else");
}

#[test]
fn max_events_after_a_failed_context_still_exits_with_its_code() {
    let fleet = Fleet::start(vec![("east", empty(32))]);
    fleet
        .sim("east")
        .create("pods", pod("before", "Running"))
        .unwrap();
    let stderr_path = fleet.stderr_file("bad.stderr");
    let live = Live::spawn_stderr_to(
        &mut fleet.get(&[
            "pods",
            "-w",
            "-o",
            "name",
            "--context",
            "east,bad",
            "--max-events",
            "2",
        ]),
        &stderr_path,
    );
    assert_eq!(live.next_line(LIMIT).as_deref(), Some("east/pod/before"));
    wait_for_stderr(&stderr_path, LOGGED_IN);
    fleet
        .sim("east")
        .create("pods", pod("after", "Pending"))
        .unwrap();
    let (code, rest, stderr) = live.finish(LIMIT);
    assert_eq!(rest, vec!["east/pod/after"]);
    assert_eq!(stderr.trim_end(), LOGGED_IN);
    assert_eq!(
        code,
        Some(4),
        "the run ended (--max-events) after context bad failed with 401"
    );
}

#[test]
fn namespace_sets_apply_in_every_context() {
    let fleet = Fleet::start(vec![("east", seeded(41)), ("west", seeded(42))]);
    let all = harness::run(fleet.get(&["pods", "-A", "--context", "east,west"]), LIMIT);
    assert_eq!(all.code, Some(0), "{}", all.stderr);
    let mut rows = cells(&all.stdout);
    let header = rows.remove(0);
    assert_eq!(header[..2], ["CONTEXT", "NAMESPACE"]);
    for (flag, keep) in [
        (
            "team-a,kube-system",
            &(|ns: &str| ns == "team-a" || ns == "kube-system") as &dyn Fn(&str) -> bool,
        ),
        ("team-*", &|ns: &str| ns.starts_with("team-")),
    ] {
        let expected: Vec<Vec<String>> = std::iter::once(header.clone())
            .chain(rows.iter().filter(|row| keep(&row[1])).cloned())
            .collect();
        assert!(
            expected.iter().any(|r| r[0] == "east") && expected.iter().any(|r| r[0] == "west"),
            "{flag}: both seeds have pods there"
        );
        let got = harness::run(
            fleet.get(&["pods", "-n", flag, "--context", "east,west"]),
            LIMIT,
        );
        assert_eq!(got.code, Some(0), "{flag}: {}", got.stderr);
        assert_eq!(cells(&got.stdout), expected, "-n {flag}");
    }
}

/// Two sims, each with a deployment `web` that is not Available yet.
fn two_with_web() -> Fleet {
    let fleet = Fleet::start(vec![("east", empty(51)), ("west", empty(52))]);
    for context in ["east", "west"] {
        fleet
            .sim(context)
            .create("deployments", deployment("web", &[("Available", "False")]))
            .unwrap();
    }
    fleet
}

/// The deployment `web` becomes Available in one context.
fn make_available(fleet: &Fleet, context: &str) {
    let web = deployment("web", &[("Available", "True"), ("Progressing", "True")]);
    fleet.sim(context).update("deployments", web).unwrap();
}

/// Read the two listed lines (one per context, in either order).
fn listed(live: &Live) -> Vec<String> {
    let mut lines = vec![
        live.next_line(LIMIT).expect("a first line"),
        live.next_line(LIMIT).expect("a second line"),
    ];
    lines.sort();
    lines
}

#[test]
fn until_holds_only_when_it_holds_in_every_context() {
    let fleet = two_with_web();
    let mut live = Live::spawn(&mut fleet.get(&[
        "deploy/web",
        "--context",
        "east,west",
        "--until",
        "condition=Available",
        "--timeout",
        "20s",
        "-o",
        "name",
        // Every event printed: `still_waiting` proves the judgement with them.
        "-w",
    ]));
    assert_eq!(
        listed(&live),
        ["east/deployment.apps/web", "west/deployment.apps/web"]
    );
    still_waiting(&mut live, &fleet, &["east", "west"]);
    make_available(&fleet, "east");
    assert_eq!(
        live.next_line(LIMIT).as_deref(),
        Some("east/deployment.apps/web")
    );
    // Available in east only: not done.
    still_waiting(&mut live, &fleet, &["east", "west"]);
    make_available(&fleet, "west");
    let (code, rest, stderr) = live.finish(LIMIT);
    assert_eq!(code, Some(0), "{stderr}");
    assert_eq!(rest, vec!["west/deployment.apps/web"]);
    assert!(!stderr.contains("error"), "{stderr}");
}

#[test]
fn until_with_for_any_holds_when_one_context_has_it() {
    let fleet = two_with_web();
    let mut live = Live::spawn(&mut fleet.get(&[
        "deploy/web",
        "--context",
        "east,west",
        "--until",
        "condition=Available",
        "--for",
        "any",
        "--timeout",
        "20s",
        "-o",
        "name",
        // Every event printed: `still_waiting` proves the judgement with them.
        "-w",
    ]));
    listed(&live);
    still_waiting(&mut live, &fleet, &["east", "west"]);
    make_available(&fleet, "west");
    let (code, rest, stderr) = live.finish(LIMIT);
    assert_eq!(code, Some(0), "{stderr}");
    assert_eq!(rest, vec!["west/deployment.apps/web"]);
}

#[test]
fn fail_on_in_one_context_exits_2_and_names_it() {
    let fleet = two_with_web();
    let mut live = Live::spawn(&mut fleet.get(&[
        "deploy/web",
        "--context",
        "east,west",
        "--until",
        "condition=Available",
        "--fail-on",
        "condition=Progressing=False",
        "--timeout",
        "20s",
        "-o",
        "name",
        // Every event printed: `still_waiting` proves the judgement with them.
        "-w",
    ]));
    listed(&live);
    make_available(&fleet, "east");
    assert_eq!(
        live.next_line(LIMIT).as_deref(),
        Some("east/deployment.apps/web")
    );
    still_waiting(&mut live, &fleet, &["east", "west"]);
    let stuck = deployment("web", &[("Available", "False"), ("Progressing", "False")]);
    fleet.sim("west").update("deployments", stuck).unwrap();
    let (code, rest, stderr) = live.finish(LIMIT);
    assert_eq!(code, Some(2), "{stderr}");
    assert_eq!(rest, vec!["west/deployment.apps/web"]);
    assert_eq!(
        stderr.trim_end(),
        "error: --fail-on condition=Progressing=False met by west/deployment.apps/web"
    );
}

#[test]
fn until_over_contexts_times_out_with_3() {
    let fleet = two_with_web();
    make_available(&fleet, "east");
    let out = harness::run(
        fleet.get(&[
            "deploy/web",
            "--context",
            "east,west",
            "--until",
            "condition=Available",
            "--timeout",
            "2s",
            "-o",
            "name",
        ]),
        LIMIT,
    );
    assert_eq!(out.code, Some(3), "{}", out.stderr);
    // `-o name` names an object once it meets the condition, as kubectl wait does: east only.
    let lines: Vec<&str> = out.stdout.lines().collect();
    assert_eq!(lines, ["east/deployment.apps/web"]);
    assert!(
        out.stderr.contains("error: timed out after 2s"),
        "{}",
        out.stderr
    );
}

#[test]
fn until_over_every_context_ends_at_once_when_one_fails() {
    let fleet = two_with_web();
    let out = harness::run(
        fleet.get(&[
            "deploy/web",
            "--context",
            "east,bad",
            "--until",
            "condition=Available",
            "--timeout",
            "60s",
            "-o",
            "name",
        ]),
        LIMIT,
    );
    // East's deployment never becomes Available and --timeout is beyond the harness's limit: an
    // exit with 4 shows the failure of `bad` ended the run, without waiting for east.
    assert_eq!(out.code, Some(4), "{}", out.stderr);
    assert!(out.stderr.lines().any(|l| l == LOGGED_IN), "{}", out.stderr);
    // At once: the 401 ended `bad` on its first request (a retried 401 would pass the exit code
    // above, only later).
    let refused: Vec<String> = fleet
        .sim("east")
        .requests()
        .into_iter()
        .filter(|r| r.status == 401)
        .map(|r| r.path)
        .collect();
    assert_eq!(refused.len(), 1, "{refused:#?}");
}

/// Credentials named on the command line belong to one context: with several, each flag is
/// refused before any request, so no server ever sees another context's credential.
#[test]
fn credential_flags_are_refused_with_several_contexts_and_nothing_is_sent() {
    let fleet = Fleet::start(vec![("east", empty(81)), ("west", empty(82))]);
    let (cert, key) = fleet.sim("east").client_cert_pem();
    let cert_path = fleet.dir.path().join("east.crt");
    let key_path = fleet.dir.path().join("east.key");
    std::fs::write(&cert_path, cert).unwrap();
    std::fs::write(&key_path, key).unwrap();
    let east_token = fleet.sim("east").admin_token();
    let cert_arg = cert_path.to_str().unwrap();
    let key_arg = key_path.to_str().unwrap();
    let cases: [(&str, Vec<&str>); 5] = [
        (
            "--user",
            vec!["--context", "east,west", "--user", "east-admin"],
        ),
        (
            "--token",
            vec!["--context", "east,west", "--token", &east_token],
        ),
        ("--token", vec!["--all-contexts", "--token", &east_token]),
        (
            "--client-certificate",
            vec![
                "--context",
                "east,west",
                "--client-certificate",
                cert_arg,
                "--client-key",
                key_arg,
            ],
        ),
        (
            "--client-key",
            vec!["--context", "e*", "--client-key", key_arg],
        ),
    ];
    for (flag, flags) in cases {
        let mut args = vec!["pods", "-o", "name"];
        args.extend(flags.iter().copied());
        let out = harness::run(fleet.get(&args), LIMIT);
        assert_eq!(out.code, Some(1), "{args:?}: {}", out.stderr);
        assert_eq!(
            out.stderr,
            format!("error: {flag} would send one credential to the server of every context: drop it, or name one context\n"),
            "{args:?}"
        );
        assert_eq!(out.stdout, "");
    }
    for context in ["east", "west"] {
        assert!(
            fleet.sim(context).requests().is_empty(),
            "{context} was asked something"
        );
    }
    // With one context the flag means what it means in kubectl, sent to that server only.
    let alone = harness::run(
        fleet.get(&[
            "pods",
            "-o",
            "name",
            "--context",
            "west",
            "--user",
            "west-admin",
        ]),
        LIMIT,
    );
    assert_eq!(alone.code, Some(0), "{}", alone.stderr);
    assert!(fleet.sim("east").requests().is_empty());
    assert!(!fleet.sim("west").requests().is_empty());
}

/// The cached resolution of a type the server no longer serves is forgotten after the run that
/// finds it gone, with one context and with several alike.
#[test]
fn a_stale_cached_type_is_forgotten_with_one_context_and_with_two() {
    let fleet = Fleet::start(vec![("east", seeded(83)), ("west", seeded(84))]);
    let cache_home = fleet.dir.path().join("cache");
    let dir = cache_home.join("kw").join("discovery");
    for contexts in ["east", "east,west"] {
        let get = || {
            let mut cmd = fleet.get(&["deploy", "-A", "-o", "name", "--context", contexts]);
            cmd.env("XDG_CACHE_HOME", &cache_home);
            harness::run(cmd, LIMIT)
        };
        let cold = get();
        assert_eq!(cold.code, Some(0), "{contexts}: {}", cold.stderr);
        assert!(!cold.stdout.is_empty());
        for file in std::fs::read_dir(&dir).unwrap() {
            let file = file.unwrap().path();
            let text = std::fs::read_to_string(&file).unwrap();
            std::fs::write(
                &file,
                text.replace("\"plural\":\"deployments\"", "\"plural\":\"gone\""),
            )
            .unwrap();
        }
        let stale = get();
        assert_ne!(stale.code, Some(0), "{contexts}: the stale type fails once");
        let healed = get();
        assert_eq!(healed.code, Some(0), "{contexts}: {}", healed.stderr);
        assert_eq!(healed.stdout, cold.stdout, "{contexts}");
    }
}

/// kubectl's words for an empty one-shot list, with one context and with several in the same
/// namespace.
#[test]
fn an_empty_list_is_said_alike_with_one_context_and_with_two() {
    let fleet = Fleet::start(vec![("east", empty(85)), ("west", empty(86))]);
    for contexts in ["east", "east,west"] {
        let out = harness::run(fleet.get(&["pods", "--context", contexts]), LIMIT);
        assert_eq!(out.code, Some(0), "{contexts}: {}", out.stderr);
        assert_eq!(out.stdout, "", "{contexts}");
        assert_eq!(
            out.stderr, "No resources found in default namespace.\n",
            "{contexts}"
        );
    }
}

/// A certificate kw refuses (here: another cluster's CA) cannot pass by retrying, since kw reads
/// its trust once: with one context the run fails at once, as kubectl's does; with several, that
/// context ends with its error, said once, while the others are watched on, and the run's code is
/// its error's.
#[test]
fn a_refused_certificate_ends_its_context_once_and_the_others_go_on() {
    let fleet = Fleet::start(vec![("east", empty(87)), ("west", empty(88))]);
    fleet
        .sim("east")
        .create("pods", pod("east-pod", "Running"))
        .unwrap();
    // `forged`: west's server, east's CA, so the handshake fails.
    let text = std::fs::read_to_string(&fleet.kubeconfig).unwrap();
    let forged_cluster = format!(
        "- name: forged-cluster\n  cluster:\n    server: {}\n    certificate-authority-data: {}\n",
        fleet.sim("west").url(),
        base64::engine::general_purpose::STANDARD.encode(fleet.sim("east").ca_pem())
    );
    let text = text
        .replacen("clusters:\n", &format!("clusters:\n{forged_cluster}"), 1)
        .replacen(
            "contexts:\n",
            "contexts:\n- name: forged\n  context:\n    cluster: forged-cluster\n    user: west-admin\n    namespace: default\n",
            1,
        );
    std::fs::write(&fleet.kubeconfig, text).unwrap();

    let alone = harness::run(
        fleet.get(&["pods", "-w", "-o", "name", "--context", "forged"]),
        LIMIT,
    );
    assert_eq!(alone.code, Some(5), "{}", alone.stderr);
    assert!(
        alone
            .stderr
            .starts_with("error: unable to connect to the server"),
        "{}",
        alone.stderr
    );

    let stderr_path = fleet.stderr_file("forged.stderr");
    let live = Live::spawn_stderr_to(
        &mut fleet.get(&[
            "pods",
            "-w",
            "-o",
            "name",
            "--context",
            "east,forged",
            "--request-timeout",
            "4s",
        ]),
        &stderr_path,
    );
    assert_eq!(live.next_line(LIMIT).as_deref(), Some("east/pod/east-pod"));
    wait_for_stderr(
        &stderr_path,
        "error: context \"forged\": unable to connect to the server",
    );
    // East goes on after forged has ended.
    fleet
        .sim("east")
        .create("pods", pod("east-later", "Running"))
        .unwrap();
    assert_eq!(
        live.next_line(LIMIT).as_deref(),
        Some("east/pod/east-later")
    );
    let (code, rest, stderr) = live.finish(LIMIT);
    assert!(rest.is_empty(), "{rest:?}");
    assert!(!stderr.contains("retrying in"), "{stderr}");
    assert_eq!(
        stderr
            .matches("the server's certificate is signed by an unknown authority")
            .count(),
        1,
        "{stderr}"
    );
    assert_eq!(code, Some(5), "{stderr}");
}

/// `--until ready --fail-on failed` over two contexts: every stderr line names its context,
/// and the run fails on the one whose rollout fails, naming it.
#[test]
fn readiness_over_two_contexts_names_each_context() {
    use kw_sim::rollout::{Plot, Rollout};
    let fleet = Fleet::start(vec![("east", empty(1)), ("west", empty(2))]);
    let play = |context: &str, plot: Plot| {
        let mut rollout = Rollout::new(plot, "default", "web");
        rollout.beat = Duration::from_millis(100);
        fleet
            .sim(context)
            .play_rollout(&rollout)
            .expect("rollout plays");
    };
    let reports = tempfile::tempdir().unwrap();
    let json = reports.path().join("kw.json");
    let mut get = fleet.get(&[
        "deploy/web",
        "--context",
        "east,west",
        "--until",
        "ready",
        "--fail-on",
        "failed",
        "--timeout",
        "20s",
        "-o",
        "name",
    ]);
    get.args(["--report", "github", "--report"])
        .arg(format!("json={}", json.display()))
        .env("GITHUB_STEP_SUMMARY", reports.path().join("summary.md"));
    let live = Live::spawn(&mut get);
    play("east", Plot::Completes);
    play("west", Plot::ImagePull);
    let (code, _, stderr) = live.finish(Duration::from_secs(30));
    assert_eq!(code, Some(2), "{stderr}");
    // The reports group by context: one row per context and object (issue 55, point 4).
    let verdict: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&json).expect("json")).expect("JSON");
    let objects: Vec<(&str, &str)> = verdict["objects"]
        .as_array()
        .expect("objects")
        .iter()
        .map(|o| (o["context"].as_str().unwrap(), o["state"].as_str().unwrap()))
        .collect();
    assert_eq!(
        objects,
        [("east", "ready"), ("west", "failed")],
        "{verdict}"
    );
    let summary = std::fs::read_to_string(reports.path().join("summary.md")).expect("summary");
    assert!(
        summary.contains("| | Context | Object | Verdict |\n")
            && summary.contains("| ✅ | east | deployment.apps/web | ready: ")
            && summary
                .contains("| ❌ | west | deployment.apps/web | failed: Progress deadline exceeded"),
        "{summary}"
    );
    // The verdict names the stuck Pods' cause too, in their context.
    let verdict = stderr.lines().last().unwrap_or_default();
    assert!(
        verdict.starts_with(
            "error: --fail-on failed met by west/deployment.apps/web (Progress deadline exceeded; west/pod/web-"
        ) && verdict.ends_with(": ImagePullBackOff (web): Back-off pulling image \"nginx:1.99-missing\")"),
        "{stderr}"
    );
    assert!(
        stderr.contains("kw: west/deployment.apps/web: in progress: "),
        "{stderr}"
    );
    // The summary of the failed wait names the context too.
    assert!(
        stderr.contains(
            "\n    west/deployment.apps/web: failed: Progress deadline exceeded\n      west/pod/web-"
        ),
        "{stderr}"
    );
    for line in stderr
        .lines()
        .filter(|l| l.starts_with("kw: ") && l.contains("deployment.apps/web:"))
    {
        assert!(
            line.starts_with("kw: east/") || line.starts_with("kw: west/"),
            "{line}"
        );
    }
}

/// `--logs` over several contexts: each context's Pods followed through its own client, each
/// line's source labelled with its context, in one run.
#[test]
fn logs_while_waiting_come_from_every_context_each_labelled() {
    let fleet = Fleet::start(vec![
        ("east", SimConfig::default()),
        ("west", SimConfig::default()),
    ]);
    for (_, sim) in &fleet.sims {
        let mut rollout =
            kw_sim::rollout::Rollout::new(kw_sim::rollout::Plot::CrashLoop, "default", "db");
        rollout.beat = Duration::from_millis(200);
        sim.play_rollout(&rollout).expect("rollout plays");
    }
    let mut cmd = fleet.kw();
    cmd.args([
        "rollout",
        "status",
        "deploy/db",
        "--context",
        "east,west",
        "--logs",
        "--timeout",
        "5s",
        "--kubeconfig",
    ])
    .arg(&fleet.kubeconfig);
    let outcome = harness::run(cmd, LIMIT);
    assert_eq!(outcome.code, Some(3), "{}", outcome.stderr);
    for context in ["east", "west"] {
        let lines: Vec<&str> = outcome
            .stderr
            .lines()
            .filter(|l| l.starts_with(&format!("{context}/pod/db-")) && l.contains(" web | "))
            .collect();
        assert!(
            lines.iter().any(|l| l.ends_with("starting (attempt 1)")),
            "{context}'s Pods' logs: {}",
            outcome.stderr
        );
    }
}

/// `kw logs -w` over several contexts, `-o jsonl`: one process follows each context's query,
/// each line one JSON object naming its context, namespace, Pod, container and time.
#[test]
fn logs_watch_follows_the_query_in_every_context_as_json_lines() {
    let fleet = Fleet::start(vec![
        ("east", SimConfig::default()),
        ("west", SimConfig::default()),
    ]);
    let pod = json!({
        "apiVersion": "v1",
        "kind": "Pod",
        "metadata": {"name": "talker", "namespace": "default", "labels": {"app": "q"}},
        "spec": {"containers": [{"name": "main", "image": "busybox",
            "env": [{"name": "KW_SIM_LOG_EVERY", "value": "100ms"}]}]}
    });
    let manifest = fleet.dir.path().join("talker.json");
    std::fs::write(&manifest, pod.to_string()).expect("manifest written");
    for context in ["east", "west"] {
        let mut apply = Command::new(harness::kubectl());
        apply
            .args(["apply", "--context", context, "-f"])
            .arg(&manifest)
            .arg("--kubeconfig")
            .arg(&fleet.kubeconfig)
            .env_remove("KUBECONFIG")
            .env("HOME", fleet.dir.path())
            .stdin(std::process::Stdio::null());
        let applied = harness::run(apply, LIMIT);
        assert_eq!(applied.code, Some(0), "{}", applied.stderr);
    }
    let mut cmd = fleet.kw();
    cmd.args([
        "logs",
        "-w",
        "-l",
        "app=q",
        "--context",
        "east,west",
        "-o",
        "jsonl",
        "--kubeconfig",
    ])
    .arg(&fleet.kubeconfig);
    let mut live = Live::spawn(&mut cmd);
    let seen = std::cell::RefCell::new(std::collections::BTreeSet::new());
    let lines = live.lines_until(LIMIT, |line| {
        let line: Value = serde_json::from_str(line).expect("a JSON line");
        assert_eq!(line["namespace"], "default", "{line}");
        assert_eq!(line["pod"], "talker", "{line}");
        assert_eq!(line["container"], "main", "{line}");
        assert!(
            line["timestamp"].as_str().is_some_and(|t| t.ends_with('Z')),
            "{line}"
        );
        assert!(
            line["message"]
                .as_str()
                .is_some_and(|m| m.starts_with("main line ")),
            "{line}"
        );
        let mut seen = seen.borrow_mut();
        seen.insert(line["context"].as_str().unwrap_or("").to_string());
        seen.len() == 2
    });
    assert_eq!(
        seen.into_inner().into_iter().collect::<Vec<_>>(),
        ["east", "west"]
    );
    assert!(!lines.is_empty());
    live.kill();
}
