//! `--logs` (issue 55, point 2): while `rollout status`, `wait` and `get --until` wait, the logs
//! of the Pods they wait on stream on stderr, each line after `pod/NAME CONTAINER | `, stdout
//! left kubectl's: the new revision's Pods only, Pods that start later picked up, a restarted
//! container followed again, a stream the server cuts resumed with no line twice and none lost,
//! nothing after the verdict, and in a GitHub job each run of one stream folded, no log line
//! able to pass for a workflow command.

use std::path::Path;
use std::process::Command;
use std::time::Duration;

use kw_sim::rollout::{Plot, Rollout};
use kw_sim::SimConfig;
use serde_json::{json, Value};

use crate::harness::{self, run, Cluster, Outcome};

const LIMIT: Duration = Duration::from_secs(60);

/// A Deployment `name` of `replicas` Pods whose container `app` prints a line each 100 ms
/// (with `text`, `{n}` its number), created through the API so the sim's controllers run it.
fn deployment(name: &str, replicas: u32, image: &str, text: Option<&str>) -> Value {
    let mut env = vec![json!({"name": "KW_SIM_LOG_EVERY", "value": "100ms"})];
    if let Some(text) = text {
        env.push(json!({"name": "KW_SIM_LOG_TEXT", "value": text}));
    }
    json!({
        "apiVersion": "apps/v1",
        "kind": "Deployment",
        "metadata": {"name": name, "namespace": "default"},
        "spec": {
            "replicas": replicas,
            "selector": {"matchLabels": {"app": name}},
            "template": {
                "metadata": {"labels": {"app": name}},
                "spec": {"containers": [{"name": "app", "image": image, "env": env}]}
            }
        }
    })
}

/// `kubectl ARGS` (the reference kubectl) on `cluster`, which must succeed.
fn kubectl(cluster: &Cluster, args: &[&str], stdin: Option<&Value>) {
    let mut cmd = Command::new(harness::kubectl());
    cmd.args(args)
        .arg("--kubeconfig")
        .arg(&cluster.kubeconfig)
        .env_remove("KUBECONFIG")
        .env("HOME", cluster.dir.path())
        .stdin(std::process::Stdio::null());
    if let Some(object) = stdin {
        let file = cluster.dir.path().join("manifest.json");
        std::fs::write(&file, object.to_string()).expect("manifest written");
        cmd.arg("-f").arg(&file);
    }
    let outcome = run(cmd, LIMIT);
    assert_eq!(
        outcome.code,
        Some(0),
        "kubectl {args:?}: {}",
        outcome.stderr
    );
}

/// `deployment` created, and rolled out before the test goes on.
fn rolled_out(cluster: &Cluster, deployment: &Value) {
    kubectl(cluster, &["apply"], Some(deployment));
    let name = deployment["metadata"]["name"].as_str().expect("a name");
    let deploy = format!("deploy/{name}");
    let ready = kw(
        cluster,
        &["rollout", "status", &deploy, "--timeout", "30s"],
        false,
        &[],
    );
    assert_eq!(ready.code, Some(0), "{}", ready.stderr);
}

/// `kw ARGS` on `cluster`, stderr and stdout in one pipe (`2>&1`, so their order is kept), or
/// apart; `env` added.
fn kw(cluster: &Cluster, args: &[&str], merged: bool, env: &[(&str, &Path)]) -> Outcome {
    let mut cmd = if merged {
        let mut sh = Command::new("sh");
        sh.arg("-c")
            .arg("exec \"$0\" \"$@\" 2>&1")
            .arg(env!("CARGO_BIN_EXE_kw"));
        sh
    } else {
        Command::new(env!("CARGO_BIN_EXE_kw"))
    };
    cmd.args(args)
        .arg("--kubeconfig")
        .arg(&cluster.kubeconfig)
        .env_remove("KUBECONFIG")
        .env_remove("GITHUB_ACTIONS")
        .env_remove("GITLAB_CI")
        .env_remove("KW_REPORT")
        .env("HOME", cluster.dir.path())
        .stdin(std::process::Stdio::null());
    for (name, value) in env {
        cmd.env(name, value);
    }
    run(cmd, LIMIT)
}

/// The log lines of `output` (`SOURCE | text`): (source, text).
fn log_lines(output: &str) -> Vec<(&str, &str)> {
    output
        .lines()
        .filter_map(|line| line.split_once(" | "))
        .filter(|(source, _)| source.starts_with("pod/"))
        .collect()
}

/// The name of the newest ReplicaSet of Deployment `name`.
fn newest_replica_set(cluster: &Cluster, name: &str) -> String {
    cluster
        .sim
        .objects("replicasets")
        .into_iter()
        .filter(|rs| {
            rs["metadata"]["name"]
                .as_str()
                .unwrap_or("")
                .starts_with(name)
        })
        .max_by_key(|rs| {
            rs["metadata"]["annotations"]["deployment.kubernetes.io/revision"]
                .as_str()
                .and_then(|r| r.parse::<u64>().ok())
        })
        .and_then(|rs| rs["metadata"]["name"].as_str().map(str::to_string))
        .expect("a ReplicaSet")
}

#[test]
fn a_rollouts_new_pods_log_while_it_waits_and_nothing_comes_after_the_verdict() {
    let cluster = Cluster::start(SimConfig::default());
    rolled_out(&cluster, &deployment("chatty", 2, "nginx:1.27", None));
    // The old revision runs on and logs while the new one rolls out one Pod at a time.
    kubectl(
        &cluster,
        &["set", "image", "deploy/chatty", "app=nginx:1.28"],
        None,
    );
    let outcome = kw(
        &cluster,
        &[
            "rollout",
            "status",
            "deploy/chatty",
            "--logs",
            "--timeout",
            "30s",
        ],
        true,
        &[],
    );
    assert_eq!(outcome.code, Some(0), "{}", outcome.stdout);
    let new = newest_replica_set(&cluster, "chatty");
    let ours = |source: &str| source.starts_with(&format!("pod/{new}-"));
    // kw may join before the new ReplicaSet is seen: the old revision is current until then,
    // and let go once it is.
    let all = log_lines(&outcome.stdout);
    let first_new = all.iter().position(|(source, _)| ours(source));
    let lines: Vec<(&str, &str)> = all[first_new.unwrap_or(all.len())..].to_vec();
    let mut pods: Vec<&str> = lines.iter().map(|(source, _)| *source).collect();
    pods.sort_unstable();
    pods.dedup();
    assert_eq!(
        pods.len(),
        2,
        "both new Pods' logs, the second started while kw waited: {}",
        outcome.stdout
    );
    for pod in &pods {
        assert!(
            ours(pod) && pod.ends_with(" app"),
            "once the new revision's Pods ({new}) log, only theirs: {pod}\n{}",
            outcome.stdout
        );
    }
    // Each Pod's log from its first line: kw saw them start.
    for pod in &pods {
        let first_line = lines.iter().find(|(source, _)| source == pod).map(|l| l.1);
        assert_eq!(first_line, Some("app line 1"), "{}", outcome.stdout);
    }
    assert_eq!(
        outcome.stdout.lines().last(),
        Some("deployment \"chatty\" successfully rolled out"),
        "the verdict is the last word: {}",
        outcome.stdout
    );
    // stdout alone is kubectl's: the log is on stderr only.
    let apart = kw(
        &cluster,
        &[
            "rollout",
            "status",
            "deploy/chatty",
            "--logs",
            "--timeout",
            "30s",
        ],
        false,
        &[],
    );
    assert_eq!(
        apart.stdout,
        "deployment \"chatty\" successfully rolled out\n"
    );
}

#[test]
fn a_stream_the_server_cuts_resumes_with_no_line_twice_and_none_lost() {
    // Every followed stream (and watch) ends after 700 ms, as rotation or a proxy's timeout
    // ends it: five seconds of a line each 100 ms take several streams.
    let cluster = Cluster::start(SimConfig {
        max_watch: Some(Duration::from_millis(700)),
        ..SimConfig::default()
    });
    rolled_out(
        &cluster,
        &deployment("steady", 1, "nginx:1.27", Some("steady {n}")),
    );
    let outcome = kw(
        &cluster,
        &[
            "wait",
            "--for=delete",
            "pod",
            "-l",
            "app=steady",
            "--timeout",
            "5s",
            "--logs",
        ],
        false,
        &[],
    );
    assert_ne!(outcome.code, Some(0), "the Pod stays: the wait runs out");
    let numbers: Vec<u64> = log_lines(&outcome.stderr)
        .iter()
        .map(|(_, text)| {
            text.strip_prefix("steady ")
                .and_then(|n| n.parse().ok())
                .unwrap_or_else(|| panic!("a line of the container: {text}"))
        })
        .collect();
    assert!(
        numbers.len() >= 20,
        "lines on after the first streams were cut: {}",
        outcome.stderr
    );
    for pair in numbers.windows(2) {
        assert_eq!(
            pair[1],
            pair[0] + 1,
            "each line once, in order, none missing: {numbers:?}"
        );
    }
}

#[test]
fn a_restarted_container_is_followed_again_each_instance_once() {
    let cluster = Cluster::start(SimConfig::default());
    let mut rollout = Rollout::new(Plot::CrashLoop, "default", "db");
    rollout.beat = Duration::from_millis(200);
    cluster.sim.play_rollout(&rollout).expect("rollout plays");
    let outcome = kw(
        &cluster,
        &[
            "rollout",
            "status",
            "deploy/db",
            "--logs",
            "--timeout",
            "8s",
        ],
        false,
        &[],
    );
    assert_eq!(outcome.code, Some(3), "{}", outcome.stderr);
    let starts: Vec<(&str, &str)> = log_lines(&outcome.stderr)
        .into_iter()
        .filter(|(_, text)| text.contains("starting (attempt"))
        .collect();
    let mut pods: Vec<&str> = starts.iter().map(|(pod, _)| *pod).collect();
    pods.sort_unstable();
    pods.dedup();
    assert_eq!(pods.len(), 3, "{}", outcome.stderr);
    for pod in pods {
        let attempts: Vec<&str> = starts
            .iter()
            .filter(|(source, _)| *source == pod)
            .map(|(_, text)| *text)
            .collect();
        assert!(attempts.len() >= 2, "restarts followed: {attempts:?}");
        for (at, text) in attempts.iter().enumerate() {
            assert!(
                text.ends_with(&format!("(attempt {})", at + 1)),
                "each instance once, in order: {attempts:?}"
            );
        }
    }
    // The log comes before the summary, and none after it.
    let summary = outcome
        .stderr
        .find("kw: summary of the wait:")
        .expect("a summary");
    assert!(
        log_lines(&outcome.stderr[summary..]).is_empty(),
        "{}",
        outcome.stderr
    );
}

#[test]
fn logs_failed_shows_only_the_containers_that_crashed() {
    let cluster = Cluster::start(SimConfig::default());
    rolled_out(&cluster, &deployment("chatty", 1, "nginx:1.27", None));
    let mut rollout = Rollout::new(Plot::CrashLoop, "default", "db");
    rollout.beat = Duration::from_millis(200);
    cluster.sim.play_rollout(&rollout).expect("rollout plays");
    let wait = |which: &str| {
        kw(
            &cluster,
            &[
                "wait",
                "--for=condition=Available",
                "deploy/chatty",
                "deploy/db",
                which,
                "--timeout",
                "4s",
            ],
            false,
            &[],
        )
    };
    let sources = |outcome: &Outcome| -> Vec<String> {
        let mut pods: Vec<String> = log_lines(&outcome.stderr)
            .iter()
            .map(|(source, _)| source.split('-').next().unwrap_or("").to_string())
            .collect();
        pods.sort_unstable();
        pods.dedup();
        pods
    };
    let failed = wait("--logs=failed");
    assert_eq!(sources(&failed), ["pod/db"], "{}", failed.stderr);
    let all = wait("--logs");
    assert_eq!(sources(&all), ["pod/chatty", "pod/db"], "{}", all.stderr);
}

#[test]
fn in_a_github_job_each_run_of_a_stream_is_folded_and_no_line_passes_for_a_command() {
    let cluster = Cluster::start(SimConfig::default());
    let dir = tempfile::tempdir().expect("temp dir");
    let summary = dir.path().join("summary.md");
    let output = dir.path().join("output");
    kubectl(
        &cluster,
        &["apply"],
        Some(&deployment(
            "hostile",
            1,
            "nginx:1.27",
            Some("::error::forged {n}\r::add-mask::x"),
        )),
    );
    let outcome = kw(
        &cluster,
        &[
            "get",
            "deploy/hostile",
            "--until",
            "delete",
            "--logs",
            "--timeout",
            "4s",
            "-o",
            "name",
        ],
        false,
        &[
            ("GITHUB_ACTIONS", Path::new("true")),
            ("GITHUB_STEP_SUMMARY", &summary),
            ("GITHUB_OUTPUT", &output),
        ],
    );
    assert_eq!(outcome.code, Some(3), "runs out: {}", outcome.stderr);
    let stderr: Vec<&str> = outcome.stderr.lines().collect();
    let mut open = None;
    for line in &stderr {
        if let Some(title) = line.strip_prefix("::group::") {
            assert_eq!(open, None, "groups never nest: {stderr:?}");
            open = Some(title);
        } else if *line == "::endgroup::" {
            assert!(open.is_some(), "{stderr:?}");
            open = None;
        } else if line.starts_with("kw:") || line.starts_with("error:") {
            assert_eq!(open, None, "kw's own lines are never folded: {stderr:?}");
        } else {
            assert!(
                !line.starts_with("::") || kws_own_command(line),
                "a log line passes for a workflow command: {line}"
            );
            if line.contains(" | ") {
                let (source, text) = line.split_once(" | ").expect("a log line");
                assert_eq!(open, Some(source), "{stderr:?}");
                assert!(text.starts_with("::error::forged "), "{text}");
                assert!(text.contains("\\r::add-mask::x"), "controls shown: {text}");
            }
        }
    }
    assert_eq!(open, None, "the last fold is closed: {stderr:?}");
    assert!(
        stderr
            .iter()
            .any(|l| l.starts_with("::group::pod/hostile-")),
        "{stderr:?}"
    );
}

/// One of the workflow commands kw writes itself (an object's annotation), not a log's.
fn kws_own_command(line: &str) -> bool {
    (line.starts_with("::error title=") || line.starts_with("::warning title="))
        && !line.contains("forged")
}

#[test]
fn logs_is_refused_on_a_get_that_waits_for_nothing() {
    let cluster = Cluster::start(SimConfig::default());
    let outcome = kw(&cluster, &["get", "pods", "--logs"], false, &[]);
    assert_eq!(outcome.code, Some(1));
    assert_eq!(
        outcome.stderr,
        "error: --logs shows the Pods' logs while kw waits: add --until or --fail-on\n"
    );
}
