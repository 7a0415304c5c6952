//! The verdict where reviewers look (issue 55, point 3): `--report github` (step summary,
//! annotations, outputs), `gitlab` (a collapsible section), `junit=FILE` (read by PyPI's
//! junitparser, a consumer nobody here wrote) and `json=FILE`, on the image-pull, crash-loop
//! and job-fails stories, on `--timeout` too; a hostile object's message forges no workflow
//! command; a report that cannot be written is one line and leaves the exit code alone.

use std::path::Path;
use std::process::Command;
use std::time::Duration;

use kw_sim::rollout::{Plot, Rollout};
use kw_sim::SimConfig;
use serde_json::Value;

use crate::harness::tools::reference_python;
use crate::harness::{run, Cluster, Live, Outcome};

const LIMIT: Duration = Duration::from_secs(60);

/// A sim playing `plot` as `name` at 200 ms a beat.
fn story(plot: Plot, name: &str) -> Cluster {
    let cluster = Cluster::start(SimConfig::default());
    let mut rollout = Rollout::new(plot, "default", name);
    rollout.beat = Duration::from_millis(200);
    cluster.sim.play_rollout(&rollout).expect("rollout plays");
    cluster
}

/// `kw ARGS` on `cluster`, as a GitHub runner would run it when `github` (its variables set,
/// its files in `dir`).
fn kw(cluster: &Cluster, args: &[&str], github: Option<&Path>) -> Outcome {
    let mut kw = cluster.kw();
    kw.args(args).arg("--kubeconfig").arg(&cluster.kubeconfig);
    if let Some(dir) = github {
        kw.env("GITHUB_ACTIONS", "true")
            .env("GITHUB_STEP_SUMMARY", dir.join("summary.md"))
            .env("GITHUB_OUTPUT", dir.join("output"));
    }
    run(kw, LIMIT)
}

/// The JUnit file as junitparser reads it: (suite name, [(classname, name, failure message)]).
fn junit(path: &Path) -> Value {
    let script = r#"
import json, sys
from junitparser import JUnitXml, Failure
xml = JUnitXml.fromfile(sys.argv[1])
suites = []
for suite in xml:
    cases = []
    for case in suite:
        failures = [r.message for r in case.result if isinstance(r, Failure)]
        cases.append({"classname": case.classname, "name": case.name,
                      "failure": failures[0] if failures else None,
                      "out": case.system_out})
    suites.append({"name": suite.name, "tests": suite.tests, "failures": suite.failures,
                   "cases": cases})
print(json.dumps(suites))
"#;
    let out = Command::new(reference_python())
        .args(["-c", script])
        .arg(path)
        .output()
        .expect("python runs");
    assert!(
        out.status.success(),
        "junitparser refused {}: {}",
        path.display(),
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).expect("JSON")
}

#[test]
fn an_image_pull_gives_the_step_summary_annotations_outputs_and_junit() {
    let cluster = story(Plot::ImagePull, "shop");
    let dir = tempfile::tempdir().unwrap();
    let xml = dir.path().join("kw.xml");
    let junit_flag = format!("junit={}", xml.display());
    let outcome = kw(
        &cluster,
        &["rollout", "status", "deploy/shop", "--report", &junit_flag],
        Some(dir.path()),
    );
    assert_eq!(outcome.code, Some(2), "{}", outcome.stderr);
    // stdout stays kubectl's: no CI line there.
    assert!(!outcome.stdout.contains("::"), "{}", outcome.stdout);
    let lines: Vec<&str> = outcome.stderr.lines().collect();
    let annotation = lines
        .iter()
        .find(|l| l.starts_with("::error title=kw rollout status%3A deployment.apps/shop failed::"))
        .unwrap_or_else(|| panic!("no annotation: {}", outcome.stderr));
    assert!(
        annotation.contains("%0Apod/shop-") && annotation.contains("ImagePullBackOff (web)"),
        "{annotation}"
    );
    assert_eq!(
        lines.last(),
        Some(&"error: deployment \"shop\" exceeded its progress deadline"),
        "the verdict stays last"
    );
    let summary = std::fs::read_to_string(dir.path().join("summary.md")).expect("step summary");
    assert!(
        summary.starts_with("### ❌ kw rollout status: failed (exit 2, "),
        "{summary}"
    );
    assert!(
        summary.contains(
            "| ❌ | deployment.apps/shop | failed: deployment \"shop\" exceeded its progress deadline |"
        ),
        "{summary}"
    );
    assert!(
        summary.contains(
            "(3 Pods): ImagePullBackOff (web): Back-off pulling image \"nginx:1.99-missing\""
        ) && summary.contains("Failed to pull image \"nginx:1.99-missing\""),
        "{summary}"
    );
    let output = std::fs::read_to_string(dir.path().join("output")).expect("outputs");
    assert_eq!(
        output,
        "verdict=failed\nfailed=deployment.apps/shop\ncause=error: deployment \"shop\" exceeded its progress deadline\n"
    );
    let suites = junit(&xml);
    assert_eq!(suites[0]["name"], "kw rollout status");
    assert_eq!(suites[0]["tests"], 1);
    assert_eq!(suites[0]["failures"], 1);
    let case = &suites[0]["cases"][0];
    assert_eq!(case["classname"], "deployment.apps");
    assert_eq!(case["name"], "default/shop");
    assert_eq!(
        case["failure"],
        "failed: deployment \"shop\" exceeded its progress deadline"
    );
}

/// A crash loop failed by `get --until`: the JUnit case carries the crashed containers' last
/// lines, the JSON verdict its documented shape.
#[test]
fn a_crash_loop_gives_the_logs_in_junit_and_the_json_verdict() {
    let cluster = story(Plot::CrashLoop, "crashy");
    let dir = tempfile::tempdir().unwrap();
    let (xml, json) = (dir.path().join("kw.xml"), dir.path().join("kw.json"));
    let outcome = kw(
        &cluster,
        &[
            "get",
            "deploy/crashy",
            "--until",
            "ready",
            "--fail-on",
            "failed",
            "--fail-grace",
            "1s",
            "--report",
            &format!("junit={}", xml.display()),
            "--report",
            &format!("json={}", json.display()),
        ],
        None,
    );
    assert_eq!(outcome.code, Some(2), "{}", outcome.stderr);
    let suites = junit(&xml);
    let case = &suites[0]["cases"][0];
    assert_eq!(case["name"], "default/crashy");
    assert!(
        case["out"]
            .as_str()
            .is_some_and(|out| out.contains("| error: config key \"listen\" is missing")),
        "{case}"
    );
    let verdict: Value =
        serde_json::from_str(&std::fs::read_to_string(&json).expect("json")).expect("JSON");
    assert_eq!(verdict["kind"], "kw.verdict");
    assert_eq!(verdict["version"], 1);
    assert_eq!(verdict["verb"], "get");
    assert_eq!(verdict["exitCode"], 2);
    assert_eq!(verdict["verdict"], "failed");
    let object = &verdict["objects"][0];
    assert_eq!(object["label"], "deployment.apps/crashy");
    assert_eq!(object["state"], "failed");
    assert_eq!(object["met"], false);
    assert!(
        object["causes"][0]
            .as_str()
            .is_some_and(|c| c.contains("CrashLoopBackOff (web)")),
        "{object}"
    );
    assert!(
        verdict["crashed"]
            .as_array()
            .is_some_and(|c| !c.is_empty() && c[0]["exitCode"] == 1),
        "{verdict}"
    );
}

/// A failed Job through `wait`, under GitLab: the summary in one collapsed section, the
/// verdict's line after it.
#[test]
fn a_failed_job_under_gitlab_is_one_section_and_the_verdict_after_it() {
    let cluster = story(Plot::JobFails, "broken");
    let mut kw = cluster.kw();
    kw.args([
        "wait",
        "--for=condition=Complete",
        "job/broken",
        "--fail-on",
        "failed",
        "--timeout=30s",
    ])
    .arg("--kubeconfig")
    .arg(&cluster.kubeconfig)
    .env("GITLAB_CI", "true");
    let outcome = run(kw, LIMIT);
    assert_eq!(outcome.code, Some(2), "{}", outcome.stderr);
    let lines: Vec<&str> = outcome.stderr.lines().collect();
    let start = lines
        .iter()
        .position(|l| {
            l.starts_with("\x1b[0Ksection_start:")
                && l.ends_with(":kw_summary[collapsed=true]\r\x1b[0Kkw: summary of the wait:")
        })
        .unwrap_or_else(|| panic!("no section: {:?}", outcome.stderr));
    let end = lines
        .iter()
        .position(|l| l.starts_with("\x1b[0Ksection_end:") && l.ends_with(":kw_summary\r\x1b[0K"))
        .expect("the section ends");
    assert!(start < end && end == lines.len() - 2, "{lines:?}");
    assert!(lines[lines.len() - 1].starts_with("error: "), "{lines:?}");
    assert!(
        lines[start + 1..end].iter().all(|l| l.starts_with(' ')),
        "only the block inside: {lines:?}"
    );
}

/// On `--timeout` the reports are written too: the rollout in progress is a failed case.
#[test]
fn a_timeout_writes_the_reports_too() {
    let cluster = story(Plot::CrashLoop, "slow");
    let dir = tempfile::tempdir().unwrap();
    let xml = dir.path().join("kw.xml");
    let outcome = kw(
        &cluster,
        &[
            "rollout",
            "status",
            "deploy/slow",
            "--timeout=3s",
            "--report",
            &format!("junit={}", xml.display()),
        ],
        Some(dir.path()),
    );
    assert_eq!(outcome.code, Some(3), "{}", outcome.stderr);
    let suites = junit(&xml);
    assert_eq!(suites[0]["failures"], 1, "{suites}");
    assert!(
        suites[0]["cases"][0]["failure"]
            .as_str()
            .is_some_and(|f| f.starts_with("in progress: ")),
        "{suites}"
    );
    let output = std::fs::read_to_string(dir.path().join("output")).expect("outputs");
    assert!(output.starts_with("verdict=timed out\n"), "{output}");
    assert!(
        outcome.stderr.lines().any(|l| l.starts_with(
            "::warning title=kw rollout status%3A deployment.apps/slow in progress::"
        )),
        "{}",
        outcome.stderr
    );
}

/// A CI cancels a job with SIGTERM (or SIGINT from its UI): kw ends at once with 128 + the
/// signal, its reports written with the objects it was waiting on and where each stood.
#[test]
fn a_signal_writes_the_reports_of_the_wait_so_far() {
    for (signal, code) in [("TERM", 143), ("INT", 130)] {
        let name = format!("cancelled-{}", signal.to_lowercase());
        let cluster = story(Plot::CrashLoop, &name);
        let dir = tempfile::tempdir().unwrap();
        let xml = dir.path().join("kw.xml");
        let mut kw = cluster.kw();
        kw.args(["rollout", "status", &format!("deploy/{name}")])
            .args(["--report", &format!("junit={}", xml.display())])
            .arg("--kubeconfig")
            .arg(&cluster.kubeconfig)
            .env("GITHUB_ACTIONS", "true")
            .env("GITHUB_OUTPUT", dir.path().join("output"));
        let live = Live::spawn(&mut kw);
        // Under way once kubectl's line about available replicas is out.
        live.lines_until(LIMIT, |l| l.contains("updated replicas are available"));
        live.signal(signal);
        let (ended, _, stderr) = live.finish(LIMIT);
        assert_eq!(ended, Some(code), "{signal}: {stderr}");
        let suites = junit(&xml);
        assert_eq!(suites[0]["failures"], 1, "{signal}: {suites}");
        let case = &suites[0]["cases"][0];
        assert_eq!(case["name"], format!("default/{name}"), "{suites}");
        assert!(
            case["failure"]
                .as_str()
                .is_some_and(|f| f.starts_with("in progress: ")),
            "{signal}: {suites}"
        );
        let output = std::fs::read_to_string(dir.path().join("output")).expect("outputs");
        assert!(output.starts_with("verdict=cancelled\n"), "{output}");
        assert!(
            stderr
                .lines()
                .any(|l| l.starts_with("::warning title=kw rollout status%3A deployment.apps/")),
            "{signal}: {stderr}"
        );
    }
}

/// An object whose message holds line breaks and commands: each annotation stays one line of
/// kw's, so nothing a server sends becomes a command of its own.
#[test]
fn a_hostile_message_forges_no_workflow_command() {
    let cluster = Cluster::start(SimConfig::default());
    let hostile =
        "no gadgets\n::add-mask::s3cr3t\n::set-output name=verdict::passed\r\n::error::fake";
    cluster
        .sim
        .create(
            "widgets",
            serde_json::json!({
                "apiVersion": "example.com/v1",
                "kind": "Widget",
                "metadata": {"name": "evil", "namespace": "default", "generation": 1},
                "spec": {"color": "red", "size": 1},
                "status": {"observedGeneration": 1, "conditions": [
                    {"type": "Stalled", "status": "True", "reason": "Quota", "message": hostile}
                ]}
            }),
        )
        .expect("created");
    let dir = tempfile::tempdir().unwrap();
    let outcome = kw(
        &cluster,
        &["rollout", "status", "widget", "evil"],
        Some(dir.path()),
    );
    assert_eq!(outcome.code, Some(2), "{}", outcome.stderr);
    let commands: Vec<&str> = outcome
        .stderr
        .lines()
        .filter(|l| l.trim_start().starts_with("::"))
        .collect();
    assert_eq!(commands.len(), 1, "{}", outcome.stderr);
    assert!(
        commands[0]
            .starts_with("::error title=kw rollout status%3A widget.example.com/evil failed::"),
        "{}",
        commands[0]
    );
    let output = std::fs::read_to_string(dir.path().join("output")).expect("outputs");
    assert_eq!(output.lines().count(), 3, "one line per output: {output}");
    assert!(output.starts_with("verdict=failed\n"), "{output}");
}

/// A report that cannot be written: one line naming it, the wait's exit code unchanged.
#[test]
fn a_report_that_cannot_be_written_is_one_line_and_keeps_the_exit_code() {
    let cluster = story(Plot::Completes, "fine");
    let outcome = kw(
        &cluster,
        &[
            "rollout",
            "status",
            "deploy/fine",
            "--report",
            "junit=/nonexistent/dir/kw.xml",
        ],
        None,
    );
    assert_eq!(outcome.code, Some(0), "{}", outcome.stderr);
    assert_eq!(
        outcome.stderr,
        "kw: cannot write the JUnit report to /nonexistent/dir/kw.xml: No such file or directory (os error 2)\n"
    );
    let bad = kw(
        &cluster,
        &["rollout", "status", "deploy/fine", "--report", "xml"],
        None,
    );
    assert_eq!(bad.code, Some(1));
    assert_eq!(
        bad.stderr,
        "error: --report \"xml\" is not one of github, gitlab, junit=FILE, json=FILE or none\n"
    );
}

/// Only a wait has a verdict to report: a plain `get` that fails under GitHub Actions says so on
/// stderr alone, as kubectl does; a wait that cannot reach its cluster is one failed report.
#[test]
fn a_plain_get_writes_no_report_and_a_wait_that_fails_at_once_does() {
    let cluster = Cluster::start(SimConfig::default());
    let dir = tempfile::tempdir().unwrap();
    let dead = crate::harness::RefusedPort::hold();
    let at_dead = |args: &[&str]| {
        let mut kw = cluster.kw();
        kw.args(args)
            .args(["--server", &format!("https://127.0.0.1:{}", dead.port)])
            .arg("--insecure-skip-tls-verify")
            .env("GITHUB_ACTIONS", "true")
            .env("GITHUB_OUTPUT", dir.path().join("output"));
        run(kw, LIMIT)
    };
    let get = at_dead(&["get", "pods"]);
    assert_ne!(get.code, Some(0));
    assert!(!get.stderr.contains("::"), "{}", get.stderr);
    assert!(!dir.path().join("output").exists());
    let status = at_dead(&["rollout", "status", "deploy/web"]);
    assert_ne!(status.code, Some(0));
    assert!(
        status
            .stderr
            .lines()
            .any(|l| l.starts_with("::error title=kw rollout status%3A error::")),
        "{}",
        status.stderr
    );
    let output = std::fs::read_to_string(dir.path().join("output")).expect("outputs");
    assert!(output.starts_with("verdict=error\n"), "{output}");
}

/// An object `-f` names is annotated at its manifest's document (`file=…,line=…`), the path as
/// the command line gave it, relative as in a checkout, so GitHub shows the annotation on the
/// manifest line the change touched; an object from stdin names no file.
#[test]
fn an_object_from_a_manifest_is_annotated_at_its_document() {
    let cluster = story(Plot::ImagePull, "shop");
    let dir = tempfile::tempdir().unwrap();
    let manifests = dir.path().join("deploy");
    std::fs::create_dir(&manifests).unwrap();
    std::fs::write(
        manifests.join("shop.yaml"),
        "# the shop\n---\n# its config comes later\n---\n\napiVersion: apps/v1\nkind: Deployment\n\
         metadata:\n  name: shop\n",
    )
    .unwrap();
    let mut cmd = cluster.kw();
    cmd.current_dir(dir.path())
        .args([
            "rollout",
            "status",
            "-f",
            "deploy/shop.yaml",
            "--kubeconfig",
        ])
        .arg(&cluster.kubeconfig)
        .env("GITHUB_ACTIONS", "true")
        .env("GITHUB_STEP_SUMMARY", dir.path().join("summary.md"))
        .env("GITHUB_OUTPUT", dir.path().join("output"));
    let outcome = run(cmd, LIMIT);
    assert_eq!(outcome.code, Some(2), "{}", outcome.stderr);
    assert!(
        outcome.stderr.lines().any(|l| l.starts_with(
            "::error file=deploy/shop.yaml,line=6,title=kw rollout status%3A deployment.apps/shop failed::"
        )),
        "{}",
        outcome.stderr
    );
    let manifest = std::fs::File::open(manifests.join("shop.yaml")).unwrap();
    let mut cmd = cluster.kw();
    cmd.stdin(manifest)
        .args(["rollout", "status", "-f", "-", "--kubeconfig"])
        .arg(&cluster.kubeconfig)
        .env("GITHUB_ACTIONS", "true")
        .env("GITHUB_STEP_SUMMARY", dir.path().join("summary.md"))
        .env("GITHUB_OUTPUT", dir.path().join("output"));
    let outcome = run(cmd, LIMIT);
    assert!(
        outcome
            .stderr
            .lines()
            .any(|l| l
                .starts_with("::error title=kw rollout status%3A deployment.apps/shop failed::")),
        "{}",
        outcome.stderr
    );
}
