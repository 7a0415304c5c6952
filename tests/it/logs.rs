//! `kw logs` against the reference kubectl (v1.37.1) on one `kw sim`: for each one-shot form and
//! `-f` on a container that has ended, both run on the same cluster and must print the same
//! stdout and stderr byte for byte (kubectl's `kubectl logs -h` hint read as `kw logs -h`) and
//! both succeed or both fail (kw's exit code is its own documented one). Then what only kw is
//! asked: a followed log streams while its container runs and ends with it; a hostile line
//! passes through a pipe as kubectl's bytes; a 10 MB line with no newline is copied in bounded
//! memory.

use std::process::Command;
use std::time::{Duration, Instant};

use kw_sim::SimConfig;
use serde_json::{json, Value};

use crate::harness::{self, run, Cluster, Live};

const LIMIT: Duration = Duration::from_secs(30);

/// A Pod of one container `main` that prints as its environment says (`registry::printer`).
fn printing_pod(name: &str, restart_policy: &str, env: &[(&str, &str)]) -> Value {
    let env: Vec<Value> = env
        .iter()
        .map(|(name, value)| json!({"name": name, "value": value}))
        .collect();
    json!({
        "apiVersion": "v1",
        "kind": "Pod",
        "metadata": {"name": name, "namespace": "default"},
        "spec": {
            "restartPolicy": restart_policy,
            "containers": [{"name": "main", "image": "busybox", "env": env}]
        }
    })
}

/// Create `pod` through the API, as a user does, so that the sim's kubelet runs it.
fn apply(cluster: &Cluster, pod: &Value) {
    let name = pod["metadata"]["name"].as_str().expect("a name");
    let file = cluster.dir.path().join(format!("{name}.json"));
    std::fs::write(&file, pod.to_string()).expect("manifest written");
    let mut cmd = Command::new(harness::kubectl());
    cmd.args(["apply", "-f"])
        .arg(&file)
        .arg("--kubeconfig")
        .arg(&cluster.kubeconfig)
        .env_remove("KUBECONFIG")
        .env("HOME", cluster.dir.path())
        .stdin(std::process::Stdio::null());
    let outcome = run(cmd, LIMIT);
    assert_eq!(outcome.code, Some(0), "{}", outcome.stderr);
}

fn pod_phase(cluster: &Cluster, name: &str) -> String {
    cluster
        .sim
        .objects("pods")
        .into_iter()
        .find(|p| p["metadata"]["name"] == name)
        .and_then(|p| p["status"]["phase"].as_str().map(str::to_string))
        .unwrap_or_default()
}

fn waiting_reason(cluster: &Cluster, name: &str) -> Option<String> {
    let pod = cluster
        .sim
        .objects("pods")
        .into_iter()
        .find(|p| p["metadata"]["name"] == name)?;
    let reason = &pod["status"]["containerStatuses"][0]["state"]["waiting"]["reason"];
    reason.as_str().map(str::to_string)
}

fn wait_for_phase(cluster: &Cluster, name: &str, phase: &str) {
    let until = Instant::now() + LIMIT;
    while pod_phase(cluster, name) != phase {
        assert!(Instant::now() < until, "{name} never reached {phase}");
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// kubectl 1.37 keeps a Pod's log requests in a Go map (`logsForObjectWithClient` in
/// `polymorphichelpers`) and reads them in the map's order, which Go randomises from run to run;
/// kw reads them in the Pod's order (init containers, containers, ephemeral containers). So
/// where several containers print one after another, kubectl's output matches kw's only up to
/// the order of the containers' blocks: the same blocks, each whole and in its own order. A
/// block is a run of lines with one `--prefix` source; output without prefixes is one block
/// and compared exactly.
fn same_blocks_in_any_order(theirs: &str, ours: &str) -> bool {
    fn blocks(text: &str) -> Vec<String> {
        let mut blocks: Vec<String> = Vec::new();
        let mut source = None;
        for line in text.split_inclusive('\n') {
            let this = line
                .strip_prefix('[')
                .and_then(|rest| rest.split_once("] "))
                .map(|(source, _)| source);
            match blocks.last_mut() {
                Some(block) if this == source => block.push_str(line),
                _ => blocks.push(line.to_string()),
            }
            source = this;
        }
        blocks.sort();
        blocks
    }
    blocks(theirs) == blocks(ours)
}

fn kubectl(cluster: &Cluster, args: &[&str]) -> harness::Outcome {
    let mut cmd = Command::new(harness::kubectl());
    cmd.arg("logs")
        .args(args)
        .arg("--kubeconfig")
        .arg(&cluster.kubeconfig)
        .env_remove("KUBECONFIG")
        .env("HOME", cluster.dir.path())
        .stdin(std::process::Stdio::null());
    run(cmd, LIMIT)
}

fn kw(cluster: &Cluster, args: &[&str]) -> harness::Outcome {
    let mut cmd = cluster.kw();
    cmd.arg("logs")
        .args(args)
        .arg("--kubeconfig")
        .arg(&cluster.kubeconfig);
    run(cmd, LIMIT)
}

/// The seeded world with two Pods that printed and ended, `printer` (five lines) and
/// `hostile` (terminal controls in its line), and `crasher`, crash-looping.
fn cluster_with_printers() -> Cluster {
    // The sim's own clock: a frozen one would never move its kubelet on.
    let cluster = Cluster::start(SimConfig {
        controller_beat: Duration::from_millis(50),
        ..SimConfig::default()
    });
    let printer = printing_pod(
        "printer",
        "Never",
        &[("KW_SIM_LOG_EVERY", "10ms"), ("KW_SIM_LOG_LINES", "5")],
    );
    let hostile = printing_pod(
        "hostile",
        "Never",
        &[
            ("KW_SIM_LOG_EVERY", "10ms"),
            ("KW_SIM_LOG_LINES", "2"),
            (
                "KW_SIM_LOG_TEXT",
                "\u{1b}]52;c;aGk=\u{7}\u{1b}[31mred {n}\r\u{9b}2J",
            ),
        ],
    );
    let mut crasher = printing_pod("crasher", "Always", &[]);
    crasher["spec"]["containers"][0]["image"] = json!("ghcr.io/kw-demo/crash:1");
    apply(&cluster, &printer);
    apply(&cluster, &hostile);
    apply(&cluster, &crasher);
    wait_for_phase(&cluster, "printer", "Succeeded");
    wait_for_phase(&cluster, "hostile", "Succeeded");
    let until = Instant::now() + LIMIT;
    while waiting_reason(&cluster, "crasher").as_deref() != Some("CrashLoopBackOff") {
        assert!(Instant::now() < until, "crasher never crash-looped");
        std::thread::sleep(Duration::from_millis(20));
    }
    cluster
}

#[test]
fn kw_logs_prints_what_kubectl_prints() {
    let cluster = cluster_with_printers();
    let cases: &[&[&str]] = &[
        &["printer"],
        &["pod/printer", "--timestamps"],
        &["printer", "--tail=2"],
        &["printer", "--tail", "0"],
        &["printer", "--limit-bytes=15"],
        &["printer", "--prefix", "--timestamps", "--tail=3"],
        &["printer", "-c", "main"],
        &["printer", "main"],
        &["printer", "--since=1h"],
        &[
            "printer",
            "--since-time=2026-01-01T11:00:00Z",
            "--timestamps",
        ],
        &["printer", "--since-time=2027-01-01T00:00:00Z"],
        &["printer", "-f"],
        &["printer", "-f", "--prefix", "--tail=1"],
        &["printer", "--previous"],
        &["printer", "--all-containers", "--prefix"],
        &["hostile"],
        // Between restarts: the instance that crashed, now and as --previous.
        &["crasher"],
        &["crasher", "--previous", "--tail=2"],
        &["crasher", "-f"],
        &["mesh-demo"],
        &["mesh-demo", "--all-containers", "--prefix"],
        &["mesh-demo", "-c", "proxy"],
        &["mesh-demo", "-c", "nope"],
        &["init-demo"],
        &["deploy/web"],
        &["deployment.apps/web", "--prefix"],
        &["rs/web-j2l6mbb984"],
        &["-l", "app=web", "--prefix"],
        &["-l", "app=web", "-f", "--max-log-requests=2"],
        &["-l", "app=nothing"],
        &["nope"],
        &["deploy/nope"],
        &["svc/kubernetes"],
        &[],
        &["-l", "app=web", "printer"],
        &["printer", "main", "-c", "other"],
        &["printer", "--since=1s", "--since-time=2026-01-01T00:00:00Z"],
        &["printer", "--since=-1s"],
        &["printer", "--tail=-2"],
        &["printer", "--limit-bytes=-1"],
        &["printer", "--all-containers", "-c", "main"],
        &["printer", "--pod-running-timeout=0"],
        &["printer", "--since-time=yesterday"],
    ];
    let mut differ = Vec::new();
    for args in cases {
        let theirs = kubectl(&cluster, args);
        let ours = kw(&cluster, args);
        let their_stderr = theirs.stderr.replace("'kubectl logs -h'", "'kw logs -h'");
        let same = same_blocks_in_any_order(&theirs.stdout, &ours.stdout)
            && their_stderr == ours.stderr
            && (theirs.code == Some(0)) == (ours.code == Some(0));
        if !same {
            differ.push(format!(
                "logs {args:?}\n  kubectl ({:?}): {:?} {:?}\n  kw      ({:?}): {:?} {:?}",
                theirs.code, theirs.stdout, their_stderr, ours.code, ours.stdout, ours.stderr
            ));
        }
    }
    assert!(differ.is_empty(), "{}", differ.join("\n"));
    // Something was compared: the printer's lines, stamped as the kubelet stamps them (nine
    // fractional digits), the last 40 ms after the first.
    let stamped = kw(&cluster, &["printer", "--timestamps"]);
    let stamps: Vec<std::time::SystemTime> = stamped
        .stdout
        .lines()
        .map(|line| {
            let (stamp, text) = line.split_once(' ').expect("a stamp");
            assert!(text.starts_with("main line "), "{line}");
            assert_eq!(
                stamp.len(),
                "2026-01-01T12:00:00.000000000Z".len(),
                "{line}"
            );
            humantime::parse_rfc3339(stamp).expect("RFC 3339")
        })
        .collect();
    assert_eq!(stamps.len(), 5, "{}", stamped.stdout);
    assert_eq!(
        stamps[4].duration_since(stamps[0]).ok(),
        Some(Duration::from_millis(40))
    );
}

#[test]
fn a_followed_log_streams_while_the_container_runs_and_ends_with_it() {
    let cluster = Cluster::start(SimConfig {
        controller_beat: Duration::from_millis(50),
        ..SimConfig::default()
    });
    let pod = printing_pod(
        "slow",
        "Never",
        &[("KW_SIM_LOG_EVERY", "100ms"), ("KW_SIM_LOG_LINES", "20")],
    );
    apply(&cluster, &pod);
    wait_for_phase(&cluster, "slow", "Running");
    let mut cmd = cluster.kw();
    cmd.args(["logs", "-f", "slow", "--kubeconfig"])
        .arg(&cluster.kubeconfig);
    let live = Live::spawn(&mut cmd);
    let first = live.next_line(LIMIT).expect("a first line");
    assert_eq!(first, "main line 1");
    // The first line came while the container still ran: the log is streamed, not read once.
    assert_eq!(pod_phase(&cluster, "slow"), "Running");
    let (code, rest, stderr) = live.finish(LIMIT);
    assert_eq!(code, Some(0), "{stderr}");
    let expected: Vec<String> = (2..=20).map(|n| format!("main line {n}")).collect();
    assert_eq!(rest, expected, "{stderr}");
    assert_eq!(pod_phase(&cluster, "slow"), "Succeeded");
}

#[test]
fn a_container_not_started_is_refused_in_the_kubelets_words() {
    let cluster = Cluster::seeded();
    // Stored as the kubelet writes it while it creates the container (no kubelet runs it).
    let mut pod = printing_pod("early", "Always", &[]);
    pod["spec"]["nodeName"] = json!("node-1");
    pod["status"] = json!({"phase": "Pending", "containerStatuses": [{
        "name": "main", "image": "busybox", "imageID": "", "ready": false, "restartCount": 0,
        "started": false, "state": {"waiting": {"reason": "ContainerCreating"}}}]});
    cluster.sim.create("pods", pod).expect("created");
    let theirs = kubectl(&cluster, &["early"]);
    let ours = kw(&cluster, &["early"]);
    let words = "Error from server (BadRequest): container \"main\" in pod \"early\" is waiting to start: ContainerCreating\n";
    assert_eq!(theirs.stderr, words);
    assert_eq!(ours.stderr, words);
    assert_ne!(ours.code, Some(0));
}

#[test]
fn a_ten_megabyte_line_without_a_newline_is_copied_in_bounded_memory() {
    const BYTES: usize = 10 << 20;
    let cluster = Cluster::start(SimConfig {
        controller_beat: Duration::from_millis(50),
        ..SimConfig::default()
    });
    let bytes = BYTES.to_string();
    let pod = printing_pod(
        "huge",
        "Never",
        &[
            ("KW_SIM_LOG_LINES", "1"),
            ("KW_SIM_LOG_TAIL_BYTES", bytes.as_str()),
        ],
    );
    apply(&cluster, &pod);
    let small = printing_pod("small", "Never", &[("KW_SIM_LOG_LINES", "1")]);
    apply(&cluster, &small);
    wait_for_phase(&cluster, "huge", "Succeeded");
    wait_for_phase(&cluster, "small", "Succeeded");
    let ours = kw(&cluster, &["huge", "--prefix"]);
    assert_eq!(ours.code, Some(0), "{}", ours.stderr);
    let prefix = "[pod/huge/main] ";
    assert_eq!(
        ours.stdout.len(),
        2 * prefix.len() + "main line 1\n".len() + BYTES
    );
    assert!(ours.stdout.ends_with("xxxx") && !ours.stdout.ends_with('\n'));
    assert_eq!(ours.stdout.matches(prefix).count(), 2);
    let peak = |pod: &str| {
        let mut cmd = cluster.kw();
        cmd.args(["logs", pod, "--kubeconfig"])
            .arg(&cluster.kubeconfig);
        let (code, peak_kib, stderr) = crate::summary_logs::peak_memory_kib(&mut cmd, LIMIT);
        assert_eq!(code, Some(0), "{stderr}");
        peak_kib
    };
    let (huge, small) = (peak("huge"), peak("small"));
    // The line is never held whole: reading it costs less than half its size over a log of
    // one short line.
    assert!(
        huge - small < (BYTES / 2 / 1024) as i64,
        "kw's peak RSS: {huge} KiB for the 10 MB line, {small} KiB for one short line"
    );
}

/// `kw logs -w -l`: the query is watched, as stern watches it. A Pod created after kw started
/// is followed too, its lines after `[pod/NAME/CONTAINER] `; a stream the server cuts (the
/// sim's `--max-watch`, as rotation or a proxy's timeout) is reopened from its last line, no
/// line twice and none lost; `| head` ends kw at once, quietly; a flag `-w` does not take is
/// refused by name.
#[test]
fn a_watched_query_follows_pods_that_start_later_and_resumes_cut_streams() {
    let cluster = Cluster::start(SimConfig {
        max_watch: Some(Duration::from_millis(700)),
        ..SimConfig::default()
    });
    let labelled = |name: &str| {
        let mut pod = printing_pod(name, "Always", &[("KW_SIM_LOG_EVERY", "100ms")]);
        pod["metadata"]["labels"] = json!({"app": "q"});
        pod
    };
    apply(&cluster, &labelled("first"));
    wait_for_phase(&cluster, "first", "Running");
    let mut cmd = cluster.kw();
    cmd.args(["logs", "-w", "-l", "app=q", "--kubeconfig"])
        .arg(&cluster.kubeconfig);
    let live = Live::spawn(&mut cmd);
    let mut lines = live.lines_until(LIMIT, |line| line.starts_with("[pod/first/main] "));
    apply(&cluster, &labelled("second"));
    lines.extend(live.lines_until(LIMIT, |line| line.starts_with("[pod/second/main] ")));
    // A few seconds more: several cut streams of each.
    let until = Instant::now() + Duration::from_secs(3);
    while let Some(line) = live.next_line(until.saturating_duration_since(Instant::now())) {
        lines.push(line);
    }
    let numbers = |pod: &str| -> Vec<u64> {
        let prefix = format!("[pod/{pod}/main] main line ");
        lines
            .iter()
            .filter_map(|l| l.strip_prefix(&prefix))
            .map(|n| n.parse().expect("a number"))
            .collect()
    };
    for pod in ["first", "second"] {
        let seen = numbers(pod);
        assert!(seen.len() >= 10, "{pod}: {lines:#?}");
        for pair in seen.windows(2) {
            assert_eq!(
                pair[1],
                pair[0] + 1,
                "{pod}: each line once, none lost: {seen:?}"
            );
        }
    }
    // The second Pod was seen start: its log from its first line.
    assert_eq!(numbers("second").first(), Some(&1), "{lines:#?}");
    assert!(
        lines
            .iter()
            .all(|l| l.starts_with("[pod/first/main] ") || l.starts_with("[pod/second/main] ")),
        "{lines:#?}"
    );
    let mut live = live;
    live.kill();
    // A reader that goes ends kw at once and quietly.
    let mut sh = Command::new("sh");
    sh.arg("-c")
        .arg("\"$0\" \"$@\" | head -n 3")
        .arg(env!("CARGO_BIN_EXE_kw"))
        .args(["logs", "-w", "-l", "app=q", "--kubeconfig"])
        .arg(&cluster.kubeconfig)
        .env_remove("KUBECONFIG")
        .env("HOME", cluster.dir.path())
        .stdin(std::process::Stdio::null());
    let outcome = run(sh, LIMIT);
    assert_eq!(outcome.code, Some(0), "{}", outcome.stderr);
    assert_eq!(outcome.stdout.lines().count(), 3);
    assert_eq!(outcome.stderr, "");
    let mut cmd = cluster.kw();
    cmd.args(["logs", "-w", "-l", "app=q", "--tail", "5", "--kubeconfig"])
        .arg(&cluster.kubeconfig);
    let refused = run(cmd, LIMIT);
    assert_eq!(refused.code, Some(1));
    assert!(
        refused
            .stderr
            .starts_with("error: kw logs -w does not take --tail: "),
        "{}",
        refused.stderr
    );
}

/// `kw logs -w job/NAME --until ready`: the Job's Pods' logs on stdout while it runs, ending
/// with the Job's verdict and get's exit code: 0 once it completes, its every line out first
/// (the last come with its completion); with `--fail-on failed`, 2 once it fails, its cause in
/// the summary on stderr.
#[test]
fn a_jobs_logs_follow_it_until_it_completes_or_fails() {
    use kw_sim::rollout::{Plot, Rollout};
    let follow = |cluster: &Cluster| {
        let mut cmd = cluster.kw();
        cmd.args([
            "logs",
            "-w",
            "job/migrate",
            "--until",
            "ready",
            "--fail-on",
            "failed",
            "--timeout",
            "40s",
            "--kubeconfig",
        ])
        .arg(&cluster.kubeconfig);
        Live::spawn(&mut cmd)
    };
    // A Job through the API: its container prints ten lines, then exits 0.
    let cluster = Cluster::start(SimConfig::default());
    let live = follow(&cluster);
    let job = json!({
        "apiVersion": "batch/v1",
        "kind": "Job",
        "metadata": {"name": "migrate", "namespace": "default"},
        "spec": {"template": {"spec": {"restartPolicy": "Never", "containers": [{
            "name": "main", "image": "busybox", "env": [
                {"name": "KW_SIM_LOG_EVERY", "value": "100ms"},
                {"name": "KW_SIM_LOG_LINES", "value": "10"}]}]}}}
    });
    apply(&cluster, &job);
    let (exit, lines, stderr) = live.finish(LIMIT);
    assert_eq!(exit, Some(0), "{stderr}");
    let texts: Vec<&str> = lines
        .iter()
        .filter_map(|l| l.split_once("/main] ").map(|(_, text)| text))
        .collect();
    let expected: Vec<String> = (1..=10).map(|n| format!("main line {n}")).collect();
    assert_eq!(texts, expected, "{lines:#?}\n{stderr}");
    // The failing story: its Pods' lines, then exit 2 with the cause.
    let cluster = Cluster::start(SimConfig::default());
    let live = follow(&cluster);
    let mut rollout = Rollout::new(Plot::JobFails, "default", "migrate");
    rollout.beat = Duration::from_millis(200);
    cluster.sim.play_rollout(&rollout).expect("rollout plays");
    let (exit, lines, stderr) = live.finish(LIMIT);
    assert_eq!(exit, Some(2), "{stderr}");
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("[pod/migrate-") && l.ends_with("/web] exit status 1")),
        "{lines:#?}\n{stderr}"
    );
    assert!(stderr.contains("kw: summary of the wait:"), "{stderr}");
}

/// How many watches the sim has been asked for so far.
fn watches(cluster: &Cluster) -> usize {
    let requests = cluster.sim.requests();
    requests
        .iter()
        .filter(|r| r.path.contains("watch="))
        .count()
}

/// A Pod labelled `app=LABEL` in `namespace` whose containers (by name) each print `lines`
/// lines (`NAME line N`) every `every`, then end.
fn printing_pods_of(namespace: &str, name: &str, label: &str, containers: &[&str]) -> Value {
    let containers: Vec<Value> = containers
        .iter()
        .map(|container| {
            json!({"name": container, "image": "busybox", "env": [
                {"name": "KW_SIM_LOG_EVERY", "value": "20ms"},
                {"name": "KW_SIM_LOG_LINES", "value": "30"},
            ]})
        })
        .collect();
    json!({
        "apiVersion": "v1",
        "kind": "Pod",
        "metadata": {"name": name, "namespace": namespace, "labels": {"app": label}},
        "spec": {"restartPolicy": "Never", "containers": containers}
    })
}

/// `kw logs -w -c REGEX --exclude-container REGEX --include REGEX --exclude REGEX`, as stern's:
/// the containers whose name the pattern matches (unanchored) less the excluded ones, the lines
/// that match any include and no exclude. A bad pattern is one line naming its flag; the
/// patterns are refused without -w, where `-c` is kubectl's exact name.
#[test]
fn a_watched_querys_containers_and_lines_are_chosen_by_pattern() {
    let cluster = Cluster::start(SimConfig {
        controller_beat: Duration::from_millis(50),
        ..SimConfig::default()
    });
    let mut cmd = cluster.kw();
    cmd.args(["logs", "-w", "-l", "app=f", "-c", "app"])
        .args(["--exclude-container", "sidecar$"])
        .args(["--include", "[05]$", "--include", "^app line 1$"])
        .args(["--exclude", "^app line 10$", "--kubeconfig"])
        .arg(&cluster.kubeconfig);
    let before = watches(&cluster);
    let live = Live::spawn(&mut cmd);
    harness::wait_for("kw to watch", LIMIT, || watches(&cluster) > before);
    let pod = printing_pods_of("default", "multi", "f", &["app", "app-sidecar", "db"]);
    apply(&cluster, &pod);
    let lines = live.lines_until(LIMIT, |line| line == "[pod/multi/app] app line 30");
    let mut live = live;
    live.kill();
    let expected: Vec<String> = [1, 5, 15, 20, 25, 30]
        .iter()
        .map(|n| format!("[pod/multi/app] app line {n}"))
        .collect();
    assert_eq!(lines, expected);

    let bad = kw(&cluster, &["-w", "-l", "app=f", "--exclude", "("]);
    assert_eq!(bad.code, Some(1), "{}", bad.stderr);
    assert!(
        bad.stderr
            .starts_with("error: invalid --exclude pattern \"(\": "),
        "{}",
        bad.stderr
    );
    assert_eq!(bad.stderr.lines().count(), 1, "{}", bad.stderr);
    let without = kw(&cluster, &["multi", "-c", "app", "--include", "x"]);
    assert_eq!(without.code, Some(1), "{}", without.stderr);
    assert_eq!(
        without.stderr,
        "error: --include takes effect with -w: add -w\n"
    );
}

/// `kw logs -w -l SELECTOR` across namespaces: `-n 'team-*'` (a glob, as `kw get` takes it)
/// follows the Pods of the namespaces it matches and no other, `-A` of every one; each line's
/// source then names its namespace (`[team-a/pod/NAME/CONTAINER]`). A name across namespaces
/// and `-A` without `-w` are refused.
#[test]
fn a_watched_query_follows_pods_across_namespaces() {
    let cluster = Cluster::start(SimConfig {
        controller_beat: Duration::from_millis(50),
        ..SimConfig::default()
    });
    for (namespace, name) in [("default", "d1"), ("team-a", "a1"), ("team-b", "b1")] {
        let mut pod = printing_pod(
            name,
            "Never",
            &[("KW_SIM_LOG_EVERY", "10ms"), ("KW_SIM_LOG_LINES", "3")],
        );
        pod["metadata"]["namespace"] = json!(namespace);
        pod["metadata"]["labels"] = json!({"app": "n"});
        apply(&cluster, &pod);
    }
    // Every line of the Pods `args` follows, once each has shown its last.
    let followed = |args: &[&str], pods: usize| -> Vec<String> {
        let mut cmd = cluster.kw();
        cmd.args(["logs", "-w", "-l", "app=n"])
            .args(args)
            .arg("--kubeconfig")
            .arg(&cluster.kubeconfig);
        let mut live = Live::spawn(&mut cmd);
        let ended = std::cell::Cell::new(0);
        let mut lines = live.lines_until(LIMIT, |line| {
            ended.set(ended.get() + usize::from(line.ends_with(" main line 3")));
            ended.get() == pods
        });
        live.kill();
        lines.sort();
        lines
    };
    let pattern = followed(&["-n", "team-*"], 2);
    let expected: Vec<String> = ["team-a/pod/a1", "team-b/pod/b1"]
        .iter()
        .flat_map(|pod| (1..=3).map(move |n| format!("[{pod}/main] main line {n}")))
        .collect();
    assert_eq!(pattern, expected);
    let all = followed(&["-A"], 3);
    assert_eq!(all.len(), 9, "{all:#?}");
    assert!(
        all.contains(&"[default/pod/d1/main] main line 1".to_string()),
        "{all:#?}"
    );
    // One namespace: the prefix as kubectl's --prefix writes it.
    let one = followed(&["-n", "team-a"], 1);
    assert_eq!(one[0], "[pod/a1/main] main line 1", "{one:#?}");

    let named = kw(&cluster, &["-w", "a1", "-n", "team-*"]);
    assert_eq!(named.code, Some(1), "{}", named.stderr);
    assert!(
        named
            .stderr
            .starts_with("error: kw logs -w across namespaces "),
        "{}",
        named.stderr
    );
    let once = kw(&cluster, &["-l", "app=n", "-A"]);
    assert_eq!(once.code, Some(1), "{}", once.stderr);
    assert_eq!(
        once.stderr,
        "error: --all-namespaces takes effect with -w: add -w\n"
    );
}

/// A followed log that stalls (the sim's `log_stall_after`: five lines, then nothing while the
/// connection stays open longer than this test may run) while its container still prints is
/// noticed by the idle rule (`KW_IDLE_TIMEOUT`, shortened here) and reopened from its last
/// line: every line once, none lost, the reopening said once at `-v 4`.
#[test]
fn a_stalled_log_stream_is_reopened_from_its_last_line() {
    let cluster = Cluster::start(SimConfig {
        controller_beat: Duration::from_millis(50),
        faults: kw_sim::Faults {
            log_stall_after: Some(5),
            log_stall_secs: 120,
            log_stall_times: Some(1),
            ..kw_sim::Faults::default()
        },
        ..SimConfig::default()
    });
    let mut pod = printing_pod("quiet", "Always", &[("KW_SIM_LOG_EVERY", "50ms")]);
    pod["metadata"]["labels"] = json!({"app": "s"});
    apply(&cluster, &pod);
    wait_for_phase(&cluster, "quiet", "Running");
    let mut cmd = cluster.kw();
    cmd.args(["logs", "-w", "-l", "app=s", "-v", "4", "--kubeconfig"])
        .arg(&cluster.kubeconfig)
        .env("KW_IDLE_TIMEOUT", "1s");
    let mut live = Live::spawn(&mut cmd);
    let prefix = "[pod/quiet/main] main line ";
    let number = |line: &str| -> u64 {
        let n = line
            .strip_prefix(prefix)
            .unwrap_or_else(|| panic!("{line:?}"));
        n.parse().expect("a number")
    };
    let first = live.lines_until(LIMIT, |_| true);
    let from = number(&first[0]);
    let lines = live.lines_until(LIMIT, |line| number(line) >= from + 40);
    let stderr = live.kill();
    let numbers: Vec<u64> = first.iter().chain(&lines).map(|l| number(l)).collect();
    let expected: Vec<u64> = (from..=from + 40).collect();
    assert_eq!(numbers, expected, "each line once, none lost");
    assert_eq!(cluster.sim.faults_fired().logs_stalled, 1);
    let said: Vec<&str> = stderr
        .lines()
        .filter(|l| l.contains("pod/quiet main: no line for 1s; reopened from its last line"))
        .collect();
    assert_eq!(said.len(), 1, "{stderr}");
    let reopened = cluster
        .sim
        .requests()
        .iter()
        .filter(|r| r.path.contains("/pods/quiet/log?") && r.path.contains("sinceTime="))
        .count();
    assert!(reopened >= 1, "{:#?}", cluster.sim.requests());
}

/// The sim's kubelet runs init containers as printers too: each one's lines are written before
/// the Pod's containers start, so kw's `--all-containers` shows them first, in order. kubectl
/// prints the same blocks in its map's order (`same_blocks_in_any_order`).
#[test]
fn init_containers_print_before_the_pods_containers() {
    let cluster = Cluster::start(SimConfig {
        controller_beat: Duration::from_millis(50),
        ..SimConfig::default()
    });
    let printing = |name: &str, lines: u64| {
        json!({"name": name, "image": "busybox", "env": [
            {"name": "KW_SIM_LOG_EVERY", "value": "10ms"},
            {"name": "KW_SIM_LOG_LINES", "value": lines.to_string()},
        ]})
    };
    let mut pod = printing_pod("inits", "Never", &[]);
    pod["spec"]["initContainers"] = json!([printing("setup", 3), printing("migrate", 2)]);
    pod["spec"]["containers"] = json!([printing("main", 2)]);
    apply(&cluster, &pod);
    wait_for_phase(&cluster, "inits", "Succeeded");
    let args = ["inits", "--all-containers", "--prefix", "--timestamps"];
    let ours = kw(&cluster, &args);
    let theirs = kubectl(&cluster, &args);
    assert_eq!(ours.code, Some(0), "{}", ours.stderr);
    assert!(
        same_blocks_in_any_order(&theirs.stdout, &ours.stdout),
        "kubectl:\n{}\nkw:\n{}",
        theirs.stdout,
        ours.stdout
    );
    let sources: Vec<&str> = ours
        .stdout
        .lines()
        .map(|l| l.split(' ').next().unwrap_or(""))
        .collect();
    assert_eq!(
        sources,
        [
            "[pod/inits/setup]",
            "[pod/inits/setup]",
            "[pod/inits/setup]",
            "[pod/inits/migrate]",
            "[pod/inits/migrate]",
            "[pod/inits/main]",
            "[pod/inits/main]",
        ],
        "{}",
        ours.stdout
    );
    // Written one after the other: each line's time after the one before.
    let times: Vec<&str> = ours
        .stdout
        .lines()
        .map(|l| l.split(' ').nth(1).unwrap_or(""))
        .collect();
    assert!(
        times.windows(2).all(|pair| pair[0] < pair[1]),
        "{}",
        ours.stdout
    );
}

/// A fast container's followed log goes on past the lines the sim keeps at once (its kubelet
/// keeps the last 10,000 of a printer's): `kw logs -f | head -n 30000` gets 30,000 lines, each
/// once and in order, then ends (the stream stalled at 10,000 before).
#[test]
fn a_fast_containers_followed_log_goes_on_past_what_is_kept() {
    let cluster = Cluster::start(SimConfig {
        controller_beat: Duration::from_millis(50),
        ..SimConfig::default()
    });
    let pod = printing_pod("fast", "Always", &[("KW_SIM_LOG_EVERY", "50us")]);
    apply(&cluster, &pod);
    wait_for_phase(&cluster, "fast", "Running");
    let mut sh = Command::new("sh");
    sh.arg("-c")
        .arg("\"$0\" \"$@\" | head -n 30000")
        .arg(env!("CARGO_BIN_EXE_kw"))
        .args(["logs", "-f", "fast", "--kubeconfig"])
        .arg(&cluster.kubeconfig)
        .env_remove("KUBECONFIG")
        .env("HOME", cluster.dir.path())
        .stdin(std::process::Stdio::null());
    let outcome = run(sh, LIMIT);
    assert_eq!(outcome.code, Some(0), "{}", outcome.stderr);
    let numbers: Vec<u64> = outcome
        .stdout
        .lines()
        .map(|l| l.strip_prefix("main line ").expect(l).parse().expect(l))
        .collect();
    assert_eq!(numbers.len(), 30_000);
    // A reader slower than the printer loses what slid out of the kept lines, as a reader of a
    // rotated file does: each line once and in order is what holds under any load.
    assert!(
        numbers.windows(2).all(|p| p[1] > p[0]),
        "each line once, in order"
    );
}
