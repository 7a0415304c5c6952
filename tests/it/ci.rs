//! kw in scripts: `--until`, `--fail-on`, `--for`, `--timeout`, `--max-events`, `-f`, `kw
//! version`, and the exit code of each ending, against `kw sim` over TLS on loopback. The reference's
//! (docs/reference.md) "kw in CI" recipes are run here word for word (plus `--kubeconfig`).
//!
//! The sim has no Job resource: a "job" here is a widget (a custom resource whose status the
//! test sets), which is how a Job's `status.conditions` look to kw anyway.

use crate::harness;

use std::io::Write;
use std::process::Stdio;
use std::time::{Duration, Instant};

use harness::{run, Cluster, Live};
use kw_sim::{Faults, SimConfig};
use serde_json::{json, Value};

const LIMIT: Duration = Duration::from_secs(20);

fn pod(name: &str, labels: Value, phase: &str) -> Value {
    json!({
        "apiVersion": "v1",
        "kind": "Pod",
        "metadata": {"name": name, "namespace": "default", "labels": labels},
        "spec": {"containers": [{"name": "c", "image": "busybox"}], "nodeName": "node-1"},
        "status": {"phase": phase}
    })
}

fn with_condition(mut object: Value, kind: &str, status: &str) -> Value {
    object["status"]["conditions"] = json!([{"type": kind, "status": status}]);
    object
}

fn job(name: &str) -> Value {
    json!({
        "apiVersion": "example.com/v1",
        "kind": "Widget",
        "metadata": {"name": name, "namespace": "default"},
        "spec": {"size": 1},
        "status": {}
    })
}

fn deployment(name: &str, available: &str) -> Value {
    with_condition(
        json!({
            "apiVersion": "apps/v1",
            "kind": "Deployment",
            "metadata": {"name": name, "namespace": "default", "generation": 1},
            "spec": {"replicas": 1, "selector": {"matchLabels": {"app": name}},
                     "template": {"metadata": {"labels": {"app": name}},
                                  "spec": {"containers": [{"name": "c", "image": "nginx"}]}}},
            "status": {"replicas": 1}
        }),
        "Available",
        available,
    )
}

/// Assert kw has judged every change so far and still waits (a condition not yet met must not
/// end the watch). The proof: a change no condition looks at (a label on the object) comes out
/// as `printed`. kw prints the events of a watch in order and only while it watches, so every
/// earlier change was judged without ending the wait. Lines printed before must have been read.
fn still_waiting(live: &mut Live, cluster: &Cluster, object: (&str, &str, &str), printed: &str) {
    let (resource, namespace, name) = object;
    let mut current = cluster
        .sim
        .objects(resource)
        .into_iter()
        .find(|o| o["metadata"]["namespace"] == namespace && o["metadata"]["name"] == name)
        .unwrap_or_else(|| panic!("no {resource} {namespace}/{name} to touch"));
    let touches = current["metadata"]["labels"]["touched"]
        .as_str()
        .and_then(|n| n.parse::<u32>().ok())
        .unwrap_or(0);
    current["metadata"]["labels"]["touched"] = json!((touches + 1).to_string());
    cluster.sim.update(resource, current).unwrap();
    live.lines_until(LIMIT, |line| line == printed);
    still_running(live);
}

/// Assert kw has opened `watches` watches in all (so it judged what it listed) and still runs.
fn still_waiting_on_watches(live: &mut Live, cluster: &Cluster, watches: usize) {
    harness::wait_for("kw to watch", LIMIT, || watch_requests(cluster) >= watches);
    still_running(live);
}

fn watch_requests(cluster: &Cluster) -> usize {
    let requests = cluster.sim.requests();
    requests
        .iter()
        .filter(|r| r.path.contains("watch="))
        .count()
}

fn still_running(live: &mut Live) {
    if let Some(status) = live.child.try_wait().expect("wait") {
        panic!("kw ended early with {status}");
    }
}

/// `Cluster::get` with stdout/stderr read line by line, and `-w`: every event printed (`-o
/// name` under `--until` alone prints each object once, when it meets the condition), which
/// `still_waiting` proves kw's judgement with.
fn spawn(cluster: &Cluster, args: &[&str]) -> Live {
    let watch = (!args.contains(&"-w")).then_some("-w");
    let args: Vec<&str> = args.iter().copied().chain(watch).collect();
    Live::spawn(&mut cluster.get(&args))
}

#[test]
fn a_job_that_completes_exits_0_and_one_that_fails_exits_2() {
    let cluster = Cluster::seeded();
    for (name, condition, code) in [("migrate-ok", "Complete", 0), ("migrate-bad", "Failed", 2)] {
        cluster.sim.create("widgets", job(name)).unwrap();
        let target = format!("wd/{name}");
        let mut live = spawn(
            &cluster,
            &[
                &target,
                "--until",
                "condition=Complete",
                "--fail-on",
                "condition=Failed",
                "--timeout",
                "20s",
                "-o",
                "name",
            ],
        );
        let first = live.lines_until(LIMIT, |_| true);
        assert_eq!(first, vec![format!("widget.example.com/{name}")]);
        still_waiting(&mut live, &cluster, ("widgets", "default", name), &first[0]);
        let updated = with_condition(job(name), condition, "True");
        cluster.sim.update("widgets", updated).unwrap();
        let (got, rest, stderr) = live.finish(LIMIT);
        assert_eq!(got, Some(code), "{condition}: {stderr}");
        assert_eq!(rest, vec![format!("widget.example.com/{name}")]);
        if code == 2 {
            assert_eq!(
                stderr.trim_end(),
                format!("error: --fail-on condition=Failed=True met by widget.example.com/{name}")
            );
        }
    }
}

#[test]
fn waits_for_a_pod_that_does_not_exist_yet() {
    let cluster = Cluster::seeded();
    let mut live = spawn(
        &cluster,
        &[
            "pod/late",
            "--until",
            "create",
            "--timeout",
            "20s",
            "-o",
            "name",
        ],
    );
    still_waiting_on_watches(&mut live, &cluster, 1);
    cluster
        .sim
        .create("pods", pod("late", json!({}), "Pending"))
        .unwrap();
    let (code, lines, stderr) = live.finish(LIMIT);
    assert_eq!(code, Some(0), "{stderr}");
    assert_eq!(lines, vec!["pod/late"]);
    // Said once, so that waiting for a typo does not look like a hang.
    let waiting = "pod/late does not exist yet; waiting for it to be created";
    assert_eq!(stderr.matches(waiting).count(), 1, "{stderr}");
}

#[test]
fn a_selector_that_matches_nothing_says_once_what_it_waits_for() {
    let cluster = Cluster::seeded();
    let wait = [
        "deploy,pods",
        "--until",
        "ready",
        "--fail-on",
        "failed",
        "-o",
        "name",
    ];
    let mut live = spawn(&cluster, &[&wait[..], &["-l", "app=typo"]].concat());
    still_waiting_on_watches(&mut live, &cluster, 2);
    cluster
        .sim
        .create(
            "pods",
            with_condition(
                pod("typo", json!({"app": "typo"}), "Running"),
                "Ready",
                "True",
            ),
        )
        .unwrap();
    let (code, _, stderr) = live.finish(LIMIT);
    assert_eq!(code, Some(0), "{stderr}");
    // Said once, in the words of a named object's wait: a typo must not look like a hang.
    let waiting = "kw: no deployment or pod matches app=typo yet; waiting for one to be created";
    assert_eq!(stderr.matches(waiting).count(), 1, "{stderr}");

    // Not under -q; and not when the selector matches something.
    let mut quiet = spawn(&cluster, &[&wait[..], &["-l", "app=nosuch", "-q"]].concat());
    still_waiting_on_watches(&mut quiet, &cluster, 4);
    assert_eq!(quiet.stop(), "");
    let out = run(
        cluster.get(&[
            "pods",
            "-l",
            "app=typo",
            "--until",
            "ready",
            "--timeout",
            "20s",
        ]),
        LIMIT,
    );
    assert_eq!(out.code, Some(0), "{}", out.stderr);
    assert!(!out.stderr.contains("yet; waiting"), "{}", out.stderr);
}

#[test]
fn a_plain_watch_of_a_missing_object_fails_as_kubectl_does() {
    let cluster = Cluster::seeded();
    for args in [
        &["pod", "nosuch", "-w"][..],
        &["pod/nosuch", "--watch-only", "-o", "name"],
    ] {
        let out = run(&mut cluster.get(args), LIMIT);
        // kw's documented code for a named object the server does not have (kubectl: 1).
        assert_eq!(out.code, Some(6), "{args:?}: {out:#?}");
        assert_eq!(
            out.stderr.trim_end(),
            r#"Error from server (NotFound): pods "nosuch" not found"#,
            "{args:?}"
        );
    }
}

#[test]
fn a_selector_wait_needs_every_matching_object_by_default_and_one_with_for_any() {
    let cluster = Cluster::seeded();
    let done = "jsonpath='{.status.phase}'=Succeeded";
    let args = ["pods", "-l", "suite=ci", "--until", done, "-o", "name"];
    let mut all = spawn(&cluster, &[&args[..], &["--timeout", "20s"]].concat());
    let any = spawn(
        &cluster,
        &[&args[..], &["--for", "any", "--timeout", "20s"]].concat(),
    );
    // Nothing matches yet: an empty selection is not "all done".
    still_waiting_on_watches(&mut all, &cluster, 2);
    for name in ["ci-a", "ci-b"] {
        let p = pod(name, json!({"suite": "ci"}), "Running");
        cluster.sim.create("pods", p).unwrap();
    }
    let p = pod("ci-a", json!({"suite": "ci"}), "Succeeded");
    cluster.sim.update("pods", p).unwrap();
    let (code, _, stderr) = any.finish(LIMIT);
    assert_eq!(code, Some(0), "--for any: {stderr}");
    assert!(stderr.contains("met by pod/ci-a"), "{stderr}");
    // Both created, then ci-a succeeded: judged, and not all are done.
    for _ in 0..3 {
        all.next_line(LIMIT).expect("an event");
    }
    still_waiting(&mut all, &cluster, ("pods", "default", "ci-b"), "pod/ci-b");
    let p = pod("ci-b", json!({"suite": "ci"}), "Succeeded");
    cluster.sim.update("pods", p).unwrap();
    let (code, _, stderr) = all.finish(LIMIT);
    assert_eq!(code, Some(0), "--for all: {stderr}");
    assert!(stderr.contains("met by all 2 objects"), "{stderr}");
}

#[test]
fn an_already_true_condition_returns_at_once_in_every_output_mode() {
    let cluster = Cluster::seeded();
    cluster
        .sim
        .create("deployments", deployment("ready", "True"))
        .unwrap();
    // Table mode asks for whole objects so that the condition can be read from the rows.
    const DEPLOYMENTS: &str = "/apis/apps/v1/namespaces/default/deployments";
    for output in ["", "json", "jsonl", "name", "wide"] {
        let out = run(
            cluster.get(&[
                "deploy",
                "ready",
                "--until",
                "condition=Available",
                "-o",
                output,
            ]),
            LIMIT,
        );
        assert_eq!(out.code, Some(0), "-o {output:?}: {}", out.stderr);
        assert!(
            out.stdout.contains("ready"),
            "-o {output:?}: {}",
            out.stdout
        );
        // At once: decided from the list, without waiting on a watch for news.
        let watches: Vec<String> = cluster
            .sim
            .requests()
            .into_iter()
            .filter(|r| r.path.starts_with(DEPLOYMENTS) && r.path.contains("watch="))
            .map(|r| r.path)
            .collect();
        assert_eq!(watches, Vec::<String>::new(), "-o {output:?}");
    }
    let out = run(
        cluster.get(&[
            "deploy",
            "ready",
            "--until",
            "condition=Available=False",
            "--timeout",
            "1s",
        ]),
        LIMIT,
    );
    assert_eq!(out.code, Some(3), "{}", out.stderr);
}

#[test]
fn timeout_exits_3_and_request_timeout_exits_0() {
    let cluster = Cluster::seeded();
    let out = run(
        cluster.get(&["pod/never", "--until", "create", "--timeout", "1s"]),
        LIMIT,
    );
    assert_eq!(out.code, Some(3), "{}", out.stderr);
    assert_eq!(
        out.stderr.trim_end(),
        "kw: pod/never does not exist yet; waiting for it to be created\n\
         error: timed out after 1s waiting for --until create"
    );
    let out = run(
        cluster.get(&["pods", "-w", "--timeout", "1s", "-o", "name"]),
        LIMIT,
    );
    assert_eq!(out.code, Some(3), "{}", out.stderr);
    assert!(out.stdout.contains("pod/init-demo"), "{}", out.stdout);
    assert_eq!(out.stderr.trim_end(), "error: --timeout 1s ran out");
    // --request-timeout is kubectl's quiet end of a watch; the earlier deadline decides.
    let out = run(
        cluster.get(&[
            "pod/never",
            "--until",
            "create",
            "--timeout",
            "30s",
            "--request-timeout",
            "1s",
        ]),
        LIMIT,
    );
    assert_eq!(out.code, Some(0), "{}", out.stderr);
}

#[test]
fn max_events_stops_after_n_printed_events() {
    let cluster = Cluster::seeded();
    let out = run(
        cluster.get(&["pods", "-A", "-w", "--max-events", "2", "-o", "name"]),
        LIMIT,
    );
    assert_eq!(out.code, Some(0), "{}", out.stderr);
    assert_eq!(out.stdout.lines().count(), 2, "{}", out.stdout);
    // Watch events count too: the creation is the first, the change the second.
    let live = spawn(
        &cluster,
        &["pod/counted", "-w", "--max-events", "2", "-o", "name"],
    );
    cluster
        .sim
        .create("pods", pod("counted", json!({}), "Pending"))
        .unwrap();
    let first = live.lines_until(LIMIT, |_| true);
    assert_eq!(first, vec!["pod/counted"]);
    let p = pod("counted", json!({}), "Running");
    cluster.sim.update("pods", p).unwrap();
    let (code, rest, stderr) = live.finish(LIMIT);
    assert_eq!(code, Some(0), "{stderr}");
    assert_eq!(rest, vec!["pod/counted"]);
    let out = run(cluster.get(&["pods", "--max-events", "0"]), LIMIT);
    assert_eq!(out.code, Some(1));
}

#[test]
fn conditions_survive_dropped_connections_and_relists() {
    let cluster = Cluster::start(SimConfig::default());
    cluster
        .sim
        .create("pods", pod("victim", json!({}), "Running"))
        .unwrap();
    let mut live = spawn(
        &cluster,
        &[
            "pod/victim",
            "--until",
            "delete",
            "--timeout",
            "20s",
            "-o",
            "name",
        ],
    );
    assert_eq!(live.lines_until(LIMIT, |_| true), vec!["pod/victim"]);
    // Cut kw off while the pod goes, and compact the history: whether kw resumes or re-lists,
    // the deletion it is told of ends the wait (the judge does not look at an event's origin).
    cluster.sim.set_faults(Faults {
        watch_status: Some(503),
        ..Faults::default()
    });
    cluster.sim.drop_connections();
    cluster.sim.delete("pods", "default", "victim").unwrap();
    cluster
        .sim
        .create("pods", pod("other", json!({}), "Running"))
        .unwrap();
    cluster.sim.compact();
    // kw tried to watch again while cut off, and kept going.
    harness::wait_for("a refused watch", LIMIT, || {
        let requests = cluster.sim.requests();
        requests
            .iter()
            .any(|r| r.path.contains("watch=") && r.status == 503)
    });
    still_running(&mut live);
    cluster.sim.set_faults(Faults::default());
    let (code, rest, stderr) = live.finish(LIMIT);
    assert_eq!(code, Some(0), "{stderr}");
    assert_eq!(rest, vec!["pod/victim"], "{stderr}");
}

#[test]
fn each_exit_code_of_the_table() {
    let cluster = Cluster::seeded();
    let wait = ["--until", "condition=Ready", "--timeout", "10s"];
    fn with<'a>(wait: &[&'a str], extra: &[&'a str]) -> Vec<&'a str> {
        [&["pods"][..], wait, extra].concat()
    }
    let cases: Vec<(Vec<&str>, i32, &str)> = vec![
        (
            vec!["pods", "--until", "readyy"],
            1,
            "error: --until \"readyy\": unknown condition",
        ),
        (
            vec!["pods", "--until", "create", "--for", "some"],
            1,
            "--for \"some\": use all or any",
        ),
        (
            vec!["pods", "--until", "create", "--timeout", "soon"],
            1,
            "--timeout \"soon\" is not a duration",
        ),
        (
            vec!["pods", "--until", "create", "--watch-only"],
            1,
            "drop --watch-only",
        ),
        (
            vec!["pods", "-f", "nope.yaml"],
            1,
            "give no TYPE or NAME with it",
        ),
        (
            vec!["-f", "/nonexistent/m.yaml"],
            1,
            "error: -f /nonexistent/m.yaml: ",
        ),
        (
            with(&wait, &["--context", "sim-bad-token"]),
            4,
            "You must be logged in",
        ),
        (
            with(&wait, &["--context", "sim-limited", "-n", "default"]),
            4,
            "forbidden",
        ),
        (with(&wait, &["--server", "https://127.0.0.1:1"]), 5, ""),
    ];
    for (args, code, message) in cases {
        let out = run(cluster.get(&args), LIMIT);
        assert_eq!(out.code, Some(code), "{args:?}: {}", out.stderr);
        assert!(out.stderr.contains(message), "{args:?}: {}", out.stderr);
        assert_eq!(out.stderr.lines().count(), 1, "{args:?}: {}", out.stderr);
    }
}

#[test]
fn manifests_name_the_objects_to_wait_for() {
    let cluster = Cluster::seeded();
    let manifest = "\
apiVersion: apps/v1
kind: Deployment
metadata:
  name: shop-api
spec: {replicas: 1}
---
apiVersion: apps/v1
kind: Deployment
metadata:
  name: shop-worker
  namespace: default
";
    let path = cluster.dir.path().join("app.yaml");
    std::fs::write(&path, manifest).unwrap();
    for name in ["shop-api", "shop-worker"] {
        cluster
            .sim
            .create("deployments", deployment(name, "False"))
            .unwrap();
    }
    let file = path.display().to_string();
    let mut live = spawn(
        &cluster,
        &[
            "-f",
            &file,
            "--until",
            "condition=Available",
            "--timeout",
            "20s",
            "-o",
            "name",
        ],
    );
    for _ in 0..2 {
        live.next_line(LIMIT).expect("a listed deployment");
    }
    let api = ("deployments", "default", "shop-api");
    still_waiting(&mut live, &cluster, api, "deployment.apps/shop-api");
    cluster
        .sim
        .update("deployments", deployment("shop-api", "True"))
        .unwrap();
    live.lines_until(LIMIT, |line| line == "deployment.apps/shop-api");
    still_waiting(&mut live, &cluster, api, "deployment.apps/shop-api");
    cluster
        .sim
        .update("deployments", deployment("shop-worker", "True"))
        .unwrap();
    let (code, _, stderr) = live.finish(LIMIT);
    assert_eq!(code, Some(0), "{stderr}");

    // `-f -` reads the manifest from stdin; without a watch it lists the objects once.
    let mut cmd = cluster.get(&["-f", "-", "-o", "name"]);
    let mut child = cmd
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(manifest.as_bytes())
        .unwrap();
    let code = harness::wait_with_limit(&mut child, LIMIT);
    let mut stdout = String::new();
    std::io::Read::read_to_string(&mut child.stdout.take().unwrap(), &mut stdout).unwrap();
    assert_eq!(code, Some(0));
    assert_eq!(
        stdout,
        "deployment.apps/shop-api\ndeployment.apps/shop-worker\n"
    );
}

#[test]
fn version_prints_the_client_and_the_server() {
    let cluster = Cluster::seeded();
    let mut cmd = cluster.kw();
    cmd.args(["version", "--client"]);
    let out = run(cmd, LIMIT);
    assert_eq!(out.code, Some(0));
    assert_eq!(
        out.stdout,
        format!("Client Version: v{}\n", env!("CARGO_PKG_VERSION"))
    );
    let mut cmd = cluster.kw();
    cmd.arg("version")
        .arg("--kubeconfig")
        .arg(&cluster.kubeconfig);
    let out = run(cmd, LIMIT);
    assert_eq!(out.code, Some(0), "{}", out.stderr);
    let lines: Vec<&str> = out.stdout.lines().collect();
    assert_eq!(lines.len(), 2, "{}", out.stdout);
    assert!(
        lines[1].starts_with("Server Version: v1."),
        "{}",
        out.stdout
    );
    let mut cmd = cluster.kw();
    cmd.args([
        "version",
        "--server",
        "https://127.0.0.1:1",
        "--insecure-skip-tls-verify",
    ]);
    let out = run(cmd, LIMIT);
    assert_eq!(out.code, Some(5), "{}", out.stderr);
    assert!(out.stdout.starts_with("Client Version: "));
}

/// `kw version -o json|yaml` is kubectl's document: the server's part byte for byte, kw's own
/// `clientVersion` in the same shape, no `kustomizeVersion`; another format is kubectl's error.
#[test]
fn version_output_is_kubectls_document_with_kw_as_the_client() {
    let cluster = Cluster::seeded();
    let both = |args: &[&str]| {
        let mut kw = cluster.kw();
        kw.args(args).arg("--kubeconfig").arg(&cluster.kubeconfig);
        let mut kubectl = crate::harness::tools::command(harness::kubectl());
        kubectl
            .env_remove("KUBECONFIG")
            .stdin(Stdio::null())
            .args(args)
            .arg("--kubeconfig")
            .arg(&cluster.kubeconfig);
        (run(kw, LIMIT), run(kubectl, LIMIT))
    };
    let (ours, theirs) = both(&["version", "-o", "json"]);
    assert_eq!(ours.code, Some(0), "{}", ours.stderr);
    let (ours_json, theirs_json): (Value, Value) = (
        serde_json::from_str(&ours.stdout).expect("kw's JSON"),
        serde_json::from_str(&theirs.stdout).expect("kubectl's JSON"),
    );
    assert_eq!(ours_json["serverVersion"], theirs_json["serverVersion"]);
    assert!(theirs_json["kustomizeVersion"].is_string());
    assert_eq!(ours_json.get("kustomizeVersion"), None);
    let version = format!("v{}", env!("CARGO_PKG_VERSION"));
    assert_eq!(ours_json["clientVersion"]["gitVersion"], version.as_str());
    // The server's part as kubectl writes it: its field order and indentation.
    let server_part =
        |text: &str| text[text.find("\"serverVersion\"").expect("server")..].to_string();
    assert_eq!(server_part(&ours.stdout), server_part(&theirs.stdout));

    let (ours, theirs) = both(&["version", "--output=yaml"]);
    assert_eq!(ours.code, Some(0), "{}", ours.stderr);
    let server_part = |text: &str| text[text.find("serverVersion:").expect("server")..].to_string();
    assert_eq!(server_part(&ours.stdout), server_part(&theirs.stdout));
    assert!(
        ours.stdout.contains(&format!("  gitVersion: {version}\n")),
        "{}",
        ours.stdout
    );

    let (ours, theirs) = both(&["version", "--client", "-o", "json"]);
    assert_eq!(ours.code, Some(0), "{}", ours.stderr);
    let ours_json: Value = serde_json::from_str(&ours.stdout).expect("kw's JSON");
    assert_eq!(
        ours_json.as_object().map(|o| o.len()),
        Some(1),
        "{}",
        ours.stdout
    );
    assert!(theirs.stdout.contains("clientVersion"));

    let (ours, theirs) = both(&["version", "-o", "name"]);
    assert_eq!((ours.code, theirs.code), (Some(1), Some(1)));
    assert_eq!(ours.stderr, "error: --output must be 'yaml' or 'json'\n");
    assert!(theirs.stderr.ends_with(&ours.stderr), "{}", theirs.stderr);
    assert_eq!(ours.stdout, "");
}

#[test]
fn help_shows_groups_examples_and_the_environment() {
    let cluster = Cluster::seeded();
    let mut cmd = cluster.kw();
    cmd.args(["get", "--help"]);
    let out = run(cmd, LIMIT);
    assert_eq!(out.code, Some(0));
    for needle in [
        "Waiting and limits:",
        "Global options (before or after the subcommand):",
        "--context <NAME>",
        "Examples:",
        "| jq",
        "--fail-on condition=Failed",
        "KW_IDLE_TIMEOUT",
    ] {
        assert!(out.stdout.contains(needle), "{needle}: {}", out.stdout);
    }
    let mut cmd = cluster.kw();
    cmd.args(["completion", "fish"]);
    let out = run(cmd, LIMIT);
    assert_eq!(out.code, Some(0));
    assert!(out.stdout.contains("complete -c kw"), "{}", out.stdout);
}

/// The first ```sh block of the reference's "kw in CI" section: its `kw get` lines, split as a
/// shell would (single quotes only, which is all the recipes use).
fn reference_recipes() -> Vec<Vec<String>> {
    let reference = include_str!("../../docs/reference.md");
    let section = reference
        .split("## kw in CI")
        .nth(1)
        .expect("docs/reference.md has a kw in CI section");
    let block = section
        .split("```sh\n")
        .nth(1)
        .and_then(|b| b.split("```").next())
        .expect("the section has a sh block");
    block
        .lines()
        .filter_map(|line| line.strip_prefix("kw get "))
        .map(|line| {
            let mut words = Vec::new();
            let mut word = String::new();
            let mut quoted = false;
            for c in line.chars() {
                match c {
                    '\'' => quoted = !quoted,
                    ' ' if !quoted => {
                        if !word.is_empty() {
                            words.push(std::mem::take(&mut word));
                        }
                    }
                    c => word.push(c),
                }
            }
            words.push(word);
            words
        })
        .collect()
}

fn in_shop(mut object: Value) -> Value {
    object["metadata"]["namespace"] = json!("shop");
    object
}

#[test]
fn the_reference_recipes_work() {
    let recipes = reference_recipes();
    assert_eq!(recipes.len(), 3, "{recipes:?}");
    let cluster = Cluster::seeded();
    let sim = &cluster.sim;
    let manifest = "\
apiVersion: apps/v1
kind: Deployment
metadata: {name: web}
---
apiVersion: apps/v1
kind: Deployment
metadata: {name: cart}
";
    std::fs::write(cluster.dir.path().join("app.yaml"), manifest).unwrap();
    let start = |recipe: &Vec<String>| {
        let args: Vec<&str> = recipe.iter().map(String::as_str).collect();
        let mut cmd = cluster.get(&args);
        cmd.current_dir(cluster.dir.path());
        Live::spawn(&mut cmd)
    };

    // 1. The rollout: not available yet, then available. `-o name` prints it once, when it
    // is (as kubectl wait does), however many events came before.
    sim.create("deployments", in_shop(deployment("web", "False")))
        .unwrap();
    let watches = watch_requests(&cluster);
    let mut live = start(&recipes[0]);
    still_waiting_on_watches(&mut live, &cluster, watches + 1);
    for touch in 1..=3 {
        let mut touched = in_shop(deployment("web", "False"));
        touched["metadata"]["labels"] = json!({"touched": touch.to_string()});
        sim.update("deployments", touched).unwrap();
    }
    sim.update("deployments", in_shop(deployment("web", "True")))
        .unwrap();
    let (code, lines, stderr) = live.finish(LIMIT);
    assert_eq!(code, Some(0), "recipe 1: {stderr}");
    assert_eq!(lines, ["deployment.apps/web"], "once: {stderr}");

    // 2. The release's pods: both Ready ends it with 0; one failing ends it with 2.
    let web = |name: &str, phase: &str, ready: &str| {
        in_shop(with_condition(
            pod(name, json!({"app": "web"}), phase),
            "Ready",
            ready,
        ))
    };
    sim.create("pods", web("web-1", "Running", "False"))
        .unwrap();
    sim.create("pods", web("web-2", "Running", "False"))
        .unwrap();
    let watches = watch_requests(&cluster);
    let mut live = start(&recipes[1]);
    still_waiting_on_watches(&mut live, &cluster, watches + 1);
    sim.update("pods", web("web-1", "Running", "True")).unwrap();
    // Each object is printed when it meets the condition: web-1 now, web-2 at the end.
    assert_eq!(live.lines_until(LIMIT, |_| true), ["pod/web-1"]);
    still_running(&mut live);
    sim.update("pods", web("web-2", "Running", "True")).unwrap();
    let (code, lines, stderr) = live.finish(LIMIT);
    assert_eq!(code, Some(0), "recipe 2: {stderr}");
    assert_eq!(lines, ["pod/web-2"], "{stderr}");
    // web-2 is not Ready again, so the failure decides whether it is listed or watched.
    sim.update("pods", web("web-2", "Running", "False"))
        .unwrap();
    let live = start(&recipes[1]);
    sim.create("pods", web("web-3", "Failed", "False")).unwrap();
    let (code, _, stderr) = live.finish(LIMIT);
    assert_eq!(code, Some(2), "recipe 2 failing: {stderr}");
    assert!(stderr.contains("met by pod/web-3"), "{stderr}");

    // 3. The manifest: web is available already, cart not yet.
    sim.create("deployments", in_shop(deployment("cart", "False")))
        .unwrap();
    let mut live = start(&recipes[2]);
    // web is available when listed: printed then; cart once it is.
    assert_eq!(live.lines_until(LIMIT, |_| true), ["deployment.apps/web"]);
    still_running(&mut live);
    sim.update("deployments", in_shop(deployment("cart", "True")))
        .unwrap();
    let (code, lines, stderr) = live.finish(LIMIT);
    assert_eq!(code, Some(0), "recipe 3: {stderr}");
    assert_eq!(lines, ["deployment.apps/cart"], "{stderr}");
}

#[test]
fn a_jsonpath_filter_waits_as_kubectl_wait_does() {
    let cluster = Cluster::seeded();
    cluster.sim.create("widgets", job("filtered")).unwrap();
    // The form kubectl's docs give, as the shell hands it over (the single quotes removed).
    let ready = r#"jsonpath={.status.conditions[?(@.type=="Ready")].status}=True"#;
    let mut live = spawn(
        &cluster,
        &[
            "wd/filtered",
            "--until",
            ready,
            "--timeout",
            "20s",
            "-o",
            "name",
        ],
    );
    live.lines_until(LIMIT, |_| true);
    // Another condition being True is not the one asked about.
    let other = with_condition(job("filtered"), "Synced", "True");
    cluster.sim.update("widgets", other).unwrap();
    let filtered = "widget.example.com/filtered";
    live.lines_until(LIMIT, |line| line == filtered);
    still_waiting(
        &mut live,
        &cluster,
        ("widgets", "default", "filtered"),
        filtered,
    );
    let done = with_condition(job("filtered"), "Ready", "True");
    cluster.sim.update("widgets", done).unwrap();
    let (code, _, stderr) = live.finish(LIMIT);
    assert_eq!(code, Some(0), "{stderr}");
    assert!(
        stderr.contains("met by widget.example.com/filtered"),
        "{stderr}"
    );
}

/// Numbers from the server or the command line too big for a clock (issue #11, item 4).
#[test]
fn a_huge_retry_after_and_a_huge_timeout_end_cleanly() {
    let cluster = Cluster::seeded();
    // Retry-After: u64::MAX with a deadline set: the pause is capped, the deadline ends it.
    cluster.sim.set_faults(Faults {
        list_status: Some(429),
        list_count: 1,
        list_retry_after: Some("18446744073709551615".into()),
        ..Faults::default()
    });
    let started = Instant::now();
    let outcome = run(
        &mut cluster.get(&["pods", "--until", "create", "--timeout", "2s"]),
        LIMIT,
    );
    assert_eq!(outcome.code, Some(3), "{outcome:#?}");
    assert!(
        outcome.stderr.contains("retrying in 60.0s"),
        "the server's pause is capped at a minute: {}",
        outcome.stderr
    );
    assert!(!outcome.stderr.contains("panicked"), "{}", outcome.stderr);
    // The 2 s deadline ends the capped minute's pause: 10 s is five deadlines and a sixth of the
    // pause (the harness's own limit, 20 s, would let a third of it through).
    let took = started.elapsed();
    assert!(took < Duration::from_secs(10), "ended after {took:?}");

    // --timeout u64::MAX seconds: no deadline kw could ever reach, so none at all.
    cluster.sim.set_faults(Faults::default());
    for timeout in ["18446744073709551615", "584542046090years"] {
        let outcome = run(
            &mut cluster.get(&[
                "pods",
                "--until",
                "create",
                "--timeout",
                timeout,
                "-o",
                "name",
            ]),
            LIMIT,
        );
        assert_eq!(outcome.code, Some(0), "--timeout {timeout}: {outcome:#?}");
        assert!(outcome.stdout.contains("pod/"), "{outcome:#?}");
    }
}

/// `kw version | true` (issue #11, item 10): stdout closed before kw writes is a quiet exit 0,
/// not a panic; the same for completion scripts.
#[test]
fn version_and_completion_exit_0_quietly_into_a_closed_pipe() {
    let cluster = Cluster::seeded();
    let mut commands = vec![cluster.kw(), cluster.kw(), cluster.kw()];
    commands[0]
        .args(["version", "--kubeconfig"])
        .arg(&cluster.kubeconfig);
    commands[1].args(["version", "--client"]);
    commands[2].args(["completion", "bash"]);
    for mut cmd in commands {
        let mut child = cmd
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("kw starts");
        // Close the reading end at once, as `| true` does.
        drop(child.stdout.take());
        let mut stderr = String::new();
        let _ = std::io::Read::read_to_string(&mut child.stderr.take().unwrap(), &mut stderr);
        let code = harness::wait_with_limit(&mut child, LIMIT);
        assert_eq!(code, Some(0), "{cmd:?}: {stderr}");
        assert!(stderr.is_empty(), "{cmd:?}: {stderr}");
    }
}
