//! `kw wait` against kubectl 1.32's recorded output: for each case of
//! tests/golden/wait_cases.tsv, kw runs with kubectl's arguments against the same sim (the same
//! rollout story, or the same frozen clock, and the same control line sent as late as
//! `record_wait.sh` sends it), and its stdout must be byte for byte kubectl's, its `error:` line
//! kubectl's, and its exit code kubectl's where kubectl succeeds and kw's documented one where
//! kubectl fails. Then what kw adds: `--for` repeated as OR, `--for=ready` and its cause.

use std::time::Duration;

use kw_sim::rollout::{Plot, Rollout};
use kw_sim::SimConfig;

use crate::harness::{
    apply_scenario_op, assert_golden, frozen_now, golden_path, run, Cluster, Outcome,
};

const LIMIT: Duration = Duration::from_secs(40);

/// One line of wait_cases.tsv.
struct Case {
    rollout: Option<(Plot, String)>,
    beat: Duration,
    /// A control line, and how long after the start to send it.
    op: Option<(Duration, serde_json::Value)>,
    args: Vec<String>,
}

fn case(name: &str) -> Case {
    let table = std::fs::read_to_string(golden_path("wait_cases.tsv")).expect("cases");
    let line = table
        .lines()
        .find(|l| l.split('\t').next() == Some(name))
        .unwrap_or_else(|| panic!("no case {name} in wait_cases.tsv"));
    let fields: Vec<&str> = line.split('\t').collect();
    let rollout = (fields[1] != "-").then(|| {
        let (plot, object) = fields[1].split_once(':').expect("PLOT:NAME");
        (plot.parse::<Plot>().expect("a plot"), object.to_string())
    });
    let op = (fields[4] != "-").then(|| {
        let after = Duration::from_secs_f64(fields[3].parse().expect("seconds"));
        (
            after,
            serde_json::from_str(fields[4]).expect("a control line"),
        )
    });
    Case {
        rollout,
        beat: Duration::from_secs_f64(fields[2].parse().expect("a beat")),
        op,
        args: fields[5].split(' ').map(str::to_string).collect(),
    }
}

/// The sim a case runs against: its story playing, or its clock frozen as record_wait.sh
/// freezes it.
fn cluster_for(case: &Case) -> Cluster {
    match &case.rollout {
        Some((plot, object)) => {
            let cluster = Cluster::start(SimConfig::default());
            let mut rollout = Rollout::new(*plot, "default", object);
            rollout.beat = case.beat;
            cluster.sim.play_rollout(&rollout).expect("rollout plays");
            cluster
        }
        None => Cluster::start(SimConfig {
            clock: Some(frozen_now()),
            ..SimConfig::default()
        }),
    }
}

/// Run `args` with kw against `cluster`, sending the case's control line on time.
fn run_kw(cluster: &Cluster, case: &Case, args: &[String]) -> Outcome {
    std::thread::scope(|scope| {
        if let Some((after, op)) = &case.op {
            scope.spawn(move || {
                std::thread::sleep(*after);
                apply_scenario_op(cluster, op);
            });
        }
        let mut kw = cluster.kw();
        kw.args(args).arg("--kubeconfig").arg(&cluster.kubeconfig);
        run(kw, LIMIT)
    })
}

/// Run case `name` with kw and compare with kubectl's recording; `code` is kw's exit code
/// where kubectl's differs (kubectl exits 1 for every failure).
fn check(name: &str, code: i32) -> Outcome {
    let case = case(name);
    let cluster = cluster_for(&case);
    let outcome = run_kw(&cluster, &case, &case.args);
    assert_golden(&format!("{name}.out"), &outcome.stdout);
    let recorded = std::fs::read_to_string(golden_path(&format!("{name}.code"))).expect("code");
    let kubectl_code: i32 = recorded.split(' ').next().unwrap().parse().unwrap();
    assert_eq!(outcome.code, Some(code), "{name}: {}", outcome.stderr);
    assert_eq!(
        kubectl_code == 0,
        code == 0,
        "{name}: kubectl exited {kubectl_code}"
    );
    // kw's progress lines (`kw: ...`) may come first; kubectl's line is the first of the rest,
    // and kw's cause may follow it.
    let mut theirs = outcome.stderr.lines().filter(|l| !l.starts_with("kw: "));
    match std::fs::read_to_string(golden_path(&format!("{name}.err"))) {
        Ok(kubectl_err) => assert_eq!(
            theirs.next().unwrap_or_default(),
            kubectl_err.trim_end(),
            "{name}: {}",
            outcome.stderr
        ),
        Err(_) => assert_eq!(theirs.next(), None, "{name}: {}", outcome.stderr),
    }
    outcome
}

#[test]
fn a_condition_already_met() {
    check("wait_condition_met", 0);
}

#[test]
fn a_condition_met_later_in_a_rollout() {
    check("wait_condition_later", 0);
}

#[test]
fn a_condition_met_by_an_update() {
    check("wait_condition_update", 0);
}

#[test]
fn a_condition_with_a_value() {
    check("wait_condition_false", 0);
}

#[test]
fn delete_of_an_object_deleted_meanwhile() {
    check("wait_delete_later", 0);
}

#[test]
fn delete_of_an_absent_object_says_nothing() {
    check("wait_delete_absent", 0);
}

#[test]
fn create_of_an_object_created_meanwhile() {
    check("wait_create_later", 0);
}

#[test]
fn create_that_never_comes_times_out_naming_nothing() {
    check("wait_create_timeout", 3);
}

#[test]
fn jsonpath_with_a_value_and_without() {
    check("wait_jsonpath_value", 0);
    check("wait_jsonpath_exists", 0);
}

#[test]
fn a_timeout_names_the_object_with_kws_exit_code() {
    check("wait_timeout", 3);
}

#[test]
fn timeout_zero_checks_once() {
    check("wait_check_once", 3);
}

#[test]
fn an_object_that_does_not_exist_fails_at_once() {
    check("wait_not_found", 6);
}

#[test]
fn a_selector_says_each_object_in_the_lists_order() {
    check("wait_selector", 0);
    check("wait_name", 0);
}

#[test]
fn a_selector_that_matches_nothing_fails_at_once() {
    check("wait_selector_none", 6);
}

#[test]
fn all_in_a_namespace_and_in_every_namespace() {
    check("wait_all", 0);
    check("wait_all_namespaces", 0);
}

#[test]
fn a_field_selector() {
    check("wait_field_selector", 0);
}

#[test]
fn named_objects_in_the_order_named() {
    check("wait_names_in_order", 0);
    check("wait_for_spaced", 0);
}

#[test]
fn json_and_yaml_print_the_objects() {
    check("wait_json", 0);
    check("wait_yaml", 0);
}

#[test]
fn the_objects_a_manifest_names() {
    check("wait_manifest", 0);
}

#[test]
fn usage_mistakes_in_kubectls_words() {
    check("wait_no_for", 1);
    check("wait_bad_for", 1);
    check("wait_no_name", 1);
}
