//! kubectl's own unit tests of `wait` and `rollout status`, run through both command lines.
//!
//! `tests/conformance/wait_test_go.json` holds the table cases of kubectl's
//! `pkg/cmd/wait/wait_test.go` (kubernetes/kubectl, as of kubectl 1.37) written as data, and
//! `rollout_status_test_go.json` those of `pkg/polymorphichelpers/rollout_status_test.go` and
//! `pkg/cmd/rollout/rollout_status_test.go` (each once with `--watch=false`, once watched): per
//! case, the objects the server holds, what happens to them while the command waits, the command
//! line, and the outcome kubectl 1.37 gives on `kw sim` (recorded from it). Where the Go case
//! cannot be reached through the command line (it hands the waiter objects or a fake client
//! directly), the case's `note` says what the command line does instead.
//!
//! Each case runs twice, on a fresh simulator each time: through the reference kubectl
//! (`harness::kubectl`, v1.37.1) and through kw. Both must give the recorded outcome: the same
//! stdout byte for byte, the same `error:` lines, success or failure; kw's exit code is its own
//! documented one (`kw_exit`, default 0 on success, 3 on a timeout's failure) and its cause
//! (the lines from `kw:` on) is kw's addition. `KW_CONFORMANCE_RECORD=1` rewrites each case's
//! `expect` from kubectl's run (to review with `git diff`).

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use kw_sim::{Faults, FaultsFired, SimConfig};
use serde_json::{json, Value};

use crate::harness::{self, run, Cluster};

/// Where the cases' objects live.
const NAMESPACE: &str = "conformance";

/// kubectl's and kw's outcome of one case: stdout, the error lines, success.
#[derive(Debug, Clone, PartialEq)]
struct Outcome {
    stdout: String,
    errors: Vec<String>,
    ok: bool,
}

impl Outcome {
    fn from_json(value: &Value) -> Option<Outcome> {
        Some(Outcome {
            stdout: value.get("stdout")?.as_str()?.to_string(),
            errors: value
                .get("errors")?
                .as_array()?
                .iter()
                .filter_map(|l| Some(l.as_str()?.to_string()))
                .collect(),
            ok: value.get("ok")?.as_bool()?,
        })
    }

    fn to_json(&self) -> Value {
        json!({"stdout": self.stdout, "errors": self.errors, "ok": self.ok})
    }
}

fn cases_path(file: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/conformance")
        .join(file)
}

/// A Pod as the Go tests' fixtures shape it: `bare` is `newUnstructured` (metadata only, plus
/// what the case adds); otherwise a Running Pod on node `knode0` with one ready container
/// `nginx` on port 80 and the four usual conditions.
fn pod(spec: &Value) -> Value {
    let name = spec["name"].as_str().expect("a served Pod has a name");
    let mut pod = json!({
        "apiVersion": "v1",
        "kind": "Pod",
        "metadata": {"name": name, "namespace": NAMESPACE, "labels": {"app": "conformance"}},
    });
    if spec["bare"] != json!(true) {
        pod["spec"] = json!({
            "nodeName": "knode0",
            "containers": [{"name": "nginx", "image": "nginx:1.27",
                            "ports": [{"containerPort": 80, "protocol": "TCP"}]}],
        });
        let conditions: Vec<Value> = ["Initialized", "Ready", "ContainersReady", "PodScheduled"]
            .iter()
            .map(|t| json!({"type": t, "status": "True"}))
            .collect();
        pod["status"] = json!({
            "phase": "Running",
            "containerStatuses": [{"name": "nginx", "ready": true, "restartCount": 0,
                                   "image": "nginx:1.27", "started": true}],
            "conditions": conditions,
        });
    }
    if let Some(generation) = spec.get("generation") {
        pod["metadata"]["generation"] = generation.clone();
    }
    if let Some(labels) = spec.get("labels").and_then(Value::as_object) {
        for (k, v) in labels {
            pod["metadata"]["labels"][k] = v.clone();
        }
    }
    if let Some(observed) = spec.get("observedGeneration") {
        pod["status"]["observedGeneration"] = observed.clone();
    }
    if let Some(phase) = spec.get("phase") {
        pod["status"]["phase"] = phase.clone();
    }
    if let Some(conditions) = spec.get("conditions").and_then(Value::as_array) {
        let conditions: Vec<Value> = conditions
            .iter()
            .map(|c| {
                let mut condition = json!({"type": c[0], "status": c[1]});
                if let Some(observed) = c.get(2) {
                    condition["observedGeneration"] = observed.clone();
                }
                condition
            })
            .collect();
        pod["status"]["conditions"] = Value::Array(conditions);
    }
    if let Some(raw) = spec.get("raw_conditions") {
        pod["status"]["conditions"] = raw.clone();
    }
    pod
}

/// A real object of `tests/fixtures/objects` (see its SOURCE.md) in the cases' namespace, and
/// the resource it is created as; what the server sets anew (uid, resourceVersion) is dropped.
fn fixture(file: &str) -> (&'static str, Value) {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/objects")
        .join(file);
    let text = std::fs::read_to_string(&path).expect("fixture");
    let mut object: Value = serde_json::from_str(&text).expect("a fixture is JSON");
    let resource = match object["kind"].as_str().expect("a fixture has a kind") {
        "Pod" => "pods",
        "Deployment" => "deployments",
        "Service" => "services",
        "Secret" => "secrets",
        "ConfigMap" => "configmaps",
        "Job" => "jobs",
        "CronJob" => "cronjobs",
        "DaemonSet" => "daemonsets",
        "StatefulSet" => "statefulsets",
        "ReplicaSet" => "replicasets",
        "PersistentVolumeClaim" => "persistentvolumeclaims",
        kind => panic!("no resource for a fixture of kind {kind}"),
    };
    if let Some(metadata) = object["metadata"].as_object_mut() {
        for server_set in ["uid", "resourceVersion", "selfLink", "managedFields"] {
            metadata.remove(server_set);
        }
        metadata.insert("namespace".into(), json!(NAMESPACE));
    }
    (resource, object)
}

/// What happens to the server `after_ms` after the command starts.
fn act(cluster: &Cluster, step: &Value) {
    if let Some(spec) = step.get("create") {
        cluster.sim.create("pods", pod(spec)).expect("create");
    } else if let Some(spec) = step.get("update") {
        cluster.sim.update("pods", pod(spec)).expect("update");
    } else if let Some(name) = step.get("delete").and_then(Value::as_str) {
        cluster.sim.delete("pods", NAMESPACE, name).expect("delete");
    } else if step.get("drop").is_some() {
        cluster.sim.drop_connections();
    } else {
        panic!("unknown step {step}");
    }
}

/// kubectl's lines on stderr, without client-go's log lines (`E1128 07:10:23.510943 ...`) but
/// for a fatal one (`F1203 06:10:00.123456   4242 sorter.go:329] Field ...`, kubectl's
/// `klog.Exitf`), whose header (severity, time, PID, Go file and line) is cut and `error: `
/// put in its place: kw says the same message as an `error:` line.
fn kubectl_errors(stderr: &str) -> Vec<String> {
    stderr
        .lines()
        .filter_map(|line| {
            let b = line.as_bytes();
            let klog =
                b.len() > 5 && b"IWEF".contains(&b[0]) && b[1..5].iter().all(u8::is_ascii_digit);
            match klog {
                false => Some(line.to_string()),
                true if b[0] == b'F' => {
                    let (_, message) = line.split_once("] ")?;
                    Some(format!("error: {message}"))
                }
                true => None,
            }
        })
        .collect()
}

/// kw's kubectl lines on stderr: every line but kw's own (its notices, its cause), wherever
/// they come, so that a stray `error:` after a notice is seen too.
fn kw_errors(stderr: &str) -> Vec<String> {
    crate::harness::verdict_lines(stderr)
        .into_iter()
        .map(str::to_string)
        .collect()
}

/// What a case's faults and drops must have done for it to test anything, as the simulator
/// recorded it: a fault set that never fired, or a dropped watch never re-opened, leaves both
/// clients agreeing on nothing tested. Each line names what did not happen.
fn unproven(case: &Value, cluster: &Cluster) -> Vec<String> {
    let mut missing = Vec::new();
    if case.get("faults").is_some() && cluster.sim.faults_fired() == FaultsFired::default() {
        missing.push(format!("its faults {} never fired", case["faults"]));
    }
    let drops = case["then"]
        .as_array()
        .into_iter()
        .flatten()
        .filter(|step| step.get("drop").is_some())
        .count();
    if drops > 0 || case.get("faults").is_some() {
        let requests = cluster.sim.requests();
        let pods = format!("/namespaces/{NAMESPACE}/pods?");
        let first_watch = requests
            .iter()
            .position(|r| r.path.contains(&pods) && r.path.contains("watch="));
        // After the watch that broke, the client asked again (a watch, or a list after a 410).
        let asked_again = first_watch.map_or(0, |at| {
            requests[at + 1..]
                .iter()
                .filter(|r| r.path.contains(&pods))
                .count()
        });
        if asked_again < drops.max(1) {
            let asked: Vec<String> = requests
                .iter()
                .map(|r| format!("{} {} {}", r.method, r.path, r.status))
                .collect();
            missing.push(format!(
                "its watch was broken but it asked for the pods only {asked_again} time(s) after:\n{}",
                asked.join("\n")
            ));
        }
    }
    missing
}

/// The case run through `client` (kubectl or kw) on a fresh simulator: its outcome, exit,
/// stderr, and what its faults failed to do ([`unproven`]).
fn run_case(
    case: &Value,
    client: &Path,
    is_kw: bool,
) -> (Outcome, Option<i32>, String, Vec<String>) {
    // A case whose table shows AGE freezes the server's clock, so that its record keeps.
    let clock = case["clock"]
        .as_str()
        .map(|at| humantime::parse_rfc3339(at).expect("a case's clock is RFC 3339"));
    let cluster = Cluster::start(SimConfig {
        clock,
        ..SimConfig::default()
    });
    cluster
        .sim
        .create(
            "namespaces",
            json!({"apiVersion": "v1", "kind": "Namespace", "metadata": {"name": NAMESPACE}}),
        )
        .expect("namespace");
    if let Some(faults) = case.get("faults") {
        let faults: Faults = serde_json::from_value(faults.clone()).expect("faults");
        cluster.sim.set_faults(faults);
    }
    for spec in case["serve"].as_array().into_iter().flatten() {
        match spec.get("resource").and_then(Value::as_str) {
            // An object as written, in the cases' namespace.
            Some(resource) => {
                let mut object = spec["object"].clone();
                object["metadata"]["namespace"] = json!(NAMESPACE);
                cluster.sim.create(resource, object).expect("serve")
            }
            None => cluster.sim.create("pods", pod(spec)).expect("serve"),
        };
    }
    for file in case["fixtures"].as_array().into_iter().flatten() {
        let (resource, object) = fixture(file.as_str().expect("a fixture is a file name"));
        cluster.sim.create(resource, object).expect("fixture");
    }
    let dir = cluster.dir.path();
    if let Some(manifest) = case.get("manifest") {
        std::fs::write(dir.join("m.json"), manifest.to_string()).expect("manifest");
    }
    // Files a flag names (`custom-columns-file=cols.txt`), written as given.
    for (name, text) in case["files"].as_object().into_iter().flatten() {
        let text = text.as_str().expect("a file's text is a string");
        std::fs::write(dir.join(name), text).expect("a case's file");
    }
    let mut command = if is_kw {
        cluster.kw()
    } else {
        crate::harness::tools::command(client)
    };
    command
        .current_dir(dir)
        .env_remove("KUBECONFIG")
        .env("HOME", dir)
        .env("KUBECACHEDIR", dir.join("cache"))
        .args(
            case["args"]
                .as_array()
                .expect("args")
                .iter()
                .map(|a| a.as_str().expect("an argument is a string")),
        )
        .args(["-n", NAMESPACE, "--kubeconfig"])
        .arg(&cluster.kubeconfig);
    if is_kw && case["args"][0] == "wait" {
        // kw's running commentary is not kubectl's; its cause comes after kubectl's lines.
        command.arg("-q");
    }
    let steps: Vec<Value> = case["then"].as_array().cloned().unwrap_or_default();
    // The steps count from the moment the client watches the cases' namespace (or, with
    // `"anchor": "request"`, first asks it anything: kubectl polls for a `create`), so that
    // neither client is raced by a change made before it looked.
    let needle = match case["anchor"].as_str() {
        Some("request") => "",
        _ => "watch=",
    };
    let outcome = std::thread::scope(|scope| {
        scope.spawn(|| {
            if steps.is_empty() {
                return;
            }
            let looking = Instant::now();
            while looking.elapsed() < Duration::from_secs(15) {
                let reached = cluster.sim.requests().iter().any(|r| {
                    r.path.contains(&format!("/namespaces/{NAMESPACE}/")) && r.path.contains(needle)
                });
                if reached {
                    break;
                }
                std::thread::sleep(Duration::from_millis(20));
            }
            let started = Instant::now();
            for step in &steps {
                let at = Duration::from_millis(step["after_ms"].as_u64().expect("after_ms"));
                std::thread::sleep(at.saturating_sub(started.elapsed()));
                act(&cluster, step);
            }
        });
        run(command, Duration::from_secs(30))
    });
    let errors = match is_kw {
        true => kw_errors(&outcome.stderr),
        false => kubectl_errors(&outcome.stderr),
    };
    let result = Outcome {
        stdout: outcome.stdout,
        errors,
        ok: outcome.code == Some(0),
    };
    let missing = unproven(case, &cluster);
    (result, outcome.code, outcome.stderr, missing)
}

/// Every case of `file` through kubectl and kw, a few at a time; a list of what differs. The
/// file is the cases, or an object of them (`cases`) and the Go cases left out with why
/// (`skipped`: each with its `source` and `why`, never run).
fn conform(file: &str) {
    let path = cases_path(file);
    let text = std::fs::read_to_string(&path).expect("cases");
    let mut document: Value = serde_json::from_str(&text).expect("cases are JSON");
    if let Some(skipped) = document.get("skipped").and_then(Value::as_array) {
        for left_out in skipped {
            assert!(
                left_out["source"].is_string() && left_out["why"].is_string(),
                "{file}: a skipped case says where it comes from and why: {left_out}"
            );
        }
    }
    let mut cases: Vec<Value> = match document.get_mut("cases") {
        Some(cases) => serde_json::from_value(cases.take()).expect("cases are a list"),
        None => serde_json::from_value(document.take()).expect("cases are a list"),
    };
    let kubectl = harness::kubectl();
    let record = std::env::var_os("KW_CONFORMANCE_RECORD").is_some();
    type Run = (Outcome, Outcome, Option<i32>, String, Vec<String>);
    let results: Vec<Run> = std::thread::scope(|scope| {
        let mut results = Vec::new();
        for chunk in cases.chunks(6) {
            let handles: Vec<_> = chunk
                .iter()
                .map(|case| {
                    let kubectl = &kubectl;
                    scope.spawn(move || {
                        let (theirs, _, _, mut missing) = run_case(case, kubectl, false);
                        for line in &mut missing {
                            *line = format!("under kubectl, {line}");
                        }
                        let (ours, code, stderr, ours_missing) = run_case(case, kubectl, true);
                        missing.extend(ours_missing.into_iter().map(|l| format!("under kw, {l}")));
                        (theirs, ours, code, stderr, missing)
                    })
                })
                .collect();
            results.extend(handles.into_iter().map(|h| h.join().expect("case runs")));
        }
        results
    });
    let mut failures = Vec::new();
    for (case, (theirs, ours, code, stderr, missing)) in cases.iter_mut().zip(&results) {
        let name = format!("{} / {}", case["source"], case["case"]);
        failures.extend(missing.iter().map(|line| format!("{name}: {line}")));
        if record {
            case["expect"] = theirs.to_json();
        }
        match Outcome::from_json(&case["expect"]) {
            Some(expected) if expected == *theirs => {}
            expected => failures.push(format!(
                "{name}: kubectl gave {theirs:?}, the case records {expected:?}"
            )),
        }
        if ours != theirs {
            failures.push(format!(
                "{name}: kw gave {ours:?}, kubectl {theirs:?}; kw's stderr:\n{stderr}"
            ));
        }
        let kw_exit = case["kw_exit"]
            .as_i64()
            .map(|c| c as i32)
            .unwrap_or(if theirs.ok { 0 } else { 3 });
        if *code != Some(kw_exit) {
            failures.push(format!("{name}: kw exited {code:?}, not {kw_exit}"));
        }
    }
    if record {
        let written = match document.as_object_mut() {
            Some(fields) => {
                fields.insert("cases".into(), Value::Array(cases.clone()));
                Value::Object(fields.clone())
            }
            None => Value::Array(cases.clone()),
        };
        let text = serde_json::to_string_pretty(&written).expect("JSON") + "\n";
        std::fs::write(&path, text).expect("cases written");
    }
    assert!(
        failures.is_empty(),
        "{} of {} cases differ:\n{}",
        failures.len(),
        cases.len(),
        failures.join("\n")
    );
}

#[test]
fn kubectls_wait_test_go_cases_give_kubectls_outcome_through_kw() {
    conform("wait_test_go.json");
}

#[test]
fn kubectls_rollout_status_test_go_cases_give_kubectls_outcome_through_kw() {
    conform("rollout_status_test_go.json");
}

/// Issue 58's printer cases: JSONPath and custom-columns errors in kubectl's words (with the
/// object Go's `%#v` prints), managedFields seen by a template, `{range}` without `{end}`.
#[test]
fn printer_cases_of_issue_58_give_kubectls_outcome_through_kw() {
    conform("printers_issue_58.json");
}

/// client-go's `util/jsonpath/jsonpath_test.go`, the cases that run on JSON input: each input
/// is a Widget's fields, read by `kubectl get widget input -o jsonpath=...` (with
/// `--allow-missing-template-keys=false` where the Go test does not allow missing keys; the
/// Go test pinned at client-go 32ce75a7). `allfields` (`{@.*}`), `recurfields` and
/// `recurdotfields` (`{..Price}`) are left out: Go walks a map in random order, so kubectl
/// prints them differently run to run. Each
/// case keeps the Go test's expectation under `upstream`; kubectl 1.37.1 is the reference.
#[test]
fn client_gos_jsonpath_test_go_cases_give_kubectls_outcome_through_kw() {
    conform("jsonpath_test_go.json");
}

/// Expressions from public scripts (`tests/conformance/public_expressions.json`, each with the
/// repository and file it was found in): `-o jsonpath`, `custom-columns` and `--sort-by` as
/// people write them, on the real objects of `tests/fixtures/objects`.
#[test]
fn public_scripts_expressions_give_kubectls_outcome_through_kw() {
    conform("public_expressions.json");
}

/// kubectl's `pkg/cmd/get/sorter_test.go` (`TestSortingPrinter`, `TestRuntimeSortLess`) as data:
/// each sorted list served and sorted by `get --sort-by`, printed by name so that the order is
/// what is compared; `upstream` keeps the Go test's expected order or error.
#[test]
fn kubectls_sorter_test_go_cases_give_kubectls_outcome_through_kw() {
    conform("sorter_test_go.json");
}

/// kubectl's `pkg/cmd/get/customcolumn_test.go` as data: each spec, template file and column
/// printed by `get -o custom-columns=`/`custom-columns-file=`; where the Go test compares the
/// columns a spec makes, the case compares the table they print. `upstream` keeps the Go
/// test's expectation.
#[test]
fn kubectls_customcolumn_test_go_cases_give_kubectls_outcome_through_kw() {
    conform("customcolumn_test_go.json");
}

/// cli-runtime's `pkg/printers/template_test.go` as data: go-templates over Secrets, Events,
/// Pods, lists and Endpoints served by the sim, `upstream` keeping the Go test's expectation.
#[test]
fn cli_runtimes_template_test_go_cases_give_kubectls_outcome_through_kw() {
    conform("template_test_go.json");
}

/// cli-runtime's `pkg/printers/jsonpath_test.go` (`TestPrinters`) as data: `{.metadata.name}`
/// through `-o jsonpath` and `-o jsonpath-as-json` over a Pod, lists and Endpoints.
#[test]
fn cli_runtimes_printers_jsonpath_test_go_cases_give_kubectls_outcome_through_kw() {
    conform("printers_jsonpath_test_go.json");
}

/// cli-runtime's `pkg/printers/json_test.go` and `yaml_test.go` as data: `-o json`, `-o yaml`
/// and `-o kyaml` of the Go tests' objects, byte for byte where the Go tests read them back.
#[test]
fn cli_runtimes_json_and_yaml_test_go_cases_give_kubectls_outcome_through_kw() {
    conform("printers_json_yaml_test_go.json");
}

/// cli-runtime's `pkg/printers/tableprinter_test.go` as data: the Go test's Tables are served
/// Pods and Widgets printed by `get` with the flag each `PrintOptions` stands for (`-o wide`,
/// `--no-headers`, `-A`, `--show-kind`, `--show-labels`, `-L`, `--server-print=false`), the
/// clock frozen so that AGE keeps; the cases with no command line are listed under `skipped`.
#[test]
fn cli_runtimes_tableprinter_test_go_cases_give_kubectls_outcome_through_kw() {
    conform("tableprinter_test_go.json");
}
