//! kw's output against kubectl's, byte for byte: each case in tests/golden/cases.tsv was run with
//! kubectl (the pinned v1.37.1, record.sh) against `kw sim`, and is run here with kw against the same simulated
//! state.

use crate::harness;

use std::time::Duration;

use harness::{assert_golden, golden_path, run, Cluster, Live};

struct Case {
    compare: String,
    scenario: bool,
    args: Vec<String>,
}

fn case(name: &str) -> Case {
    let table = std::fs::read_to_string(golden_path("cases.tsv")).expect("cases.tsv");
    for line in table.lines() {
        if line.starts_with('#') || line.trim().is_empty() {
            continue;
        }
        let fields: Vec<&str> = line.split('\t').collect();
        assert_eq!(fields.len(), 4, "malformed line in cases.tsv: {line}");
        if fields[0] == name {
            return Case {
                compare: fields[1].to_string(),
                scenario: fields[2] == "scenario",
                args: fields[3].split(' ').map(String::from).collect(),
            };
        }
    }
    panic!("no case {name} in cases.tsv");
}

fn last_line(s: &str) -> String {
    s.lines().last().unwrap_or_default().to_string() + "\n"
}

/// Play watch-scenario.jsonl against the simulator, as record.sh does against kubectl's.
fn play_scenario(cluster: &Cluster) {
    for op in harness::scenario_ops() {
        harness::apply_scenario_op(cluster, &op);
    }
}

/// Wait until kw has opened its watch, so the scenario's events arrive on it (as the fixed pause
/// in record.sh gives kubectl time to do).
fn wait_for_watch(cluster: &Cluster) {
    harness::wait_for("kw to watch", Duration::from_secs(10), || {
        let requests = cluster.sim.requests();
        requests
            .iter()
            .any(|r| r.path.contains("watch=1") || r.path.contains("watch=true"))
    });
}

/// kubectl's global flags that take a value and appear in cases.tsv: kw accepts them before the
/// subcommand or after it, as kubectl does.
const GLOBAL_FLAGS: &[&str] = &[
    "--kubeconfig",
    "--context",
    "-n",
    "--namespace",
    "--request-timeout",
];

/// A case's arguments split into its global flags, each written `FLAG=VALUE` (`-n=team-a`, as
/// kubectl also takes it), and the rest: the subcommand, its arguments and its own flags.
fn split_globals(args: &[String]) -> (Vec<String>, Vec<String>) {
    let mut globals = Vec::new();
    let mut rest = Vec::new();
    let mut words = args.iter();
    while let Some(word) = words.next() {
        let flag = word.split('=').next().unwrap_or_default();
        if !GLOBAL_FLAGS.contains(&flag) {
            rest.push(word.clone());
        } else if word.contains('=') {
            globals.push(word.clone());
        } else {
            let value = words
                .next()
                .expect("a global flag in cases.tsv has a value");
            globals.push(format!("{word}={value}"));
        }
    }
    (globals, rest)
}

/// Each case runs twice, and both runs must match kubectl's output byte for byte:
/// - as written, with `--kubeconfig K` after it and the kubeconfig's current context (token);
/// - with every global flag moved before the subcommand in `--flag=value` form, and, unless the
///   case names a context itself, `--context=sim-cert`: the output must depend neither on where
///   the flags are nor on how kw authenticates.
fn check(name: &str) {
    let case = case(name);
    let mut after = case.args.clone();
    after.push("--kubeconfig".into());
    after.push(kubeconfig_placeholder());
    check_with(name, &case, &after, "flags after the subcommand");

    let (mut globals, rest) = split_globals(&case.args);
    globals.push(format!("--kubeconfig={}", kubeconfig_placeholder()));
    if !globals.iter().any(|g| g.starts_with("--context")) {
        globals.push("--context=sim-cert".into());
    }
    let before: Vec<String> = globals.into_iter().chain(rest).collect();
    check_with(name, &case, &before, "flags before the subcommand");
}

/// Stands for the path of each run's own kubeconfig in an argument list.
fn kubeconfig_placeholder() -> String {
    "{kubeconfig}".into()
}

fn check_with(name: &str, case: &Case, args: &[String], variant: &str) {
    let cluster = Cluster::seeded();
    let kubeconfig = cluster.kubeconfig.display().to_string();
    let args: Vec<String> = args
        .iter()
        .map(|a| a.replace(&kubeconfig_placeholder(), &kubeconfig))
        .collect();
    let mut cmd = cluster.kw();
    cmd.args(&args);
    let (code, stdout, stderr) = if case.scenario {
        let live = Live::spawn(&mut cmd);
        wait_for_watch(&cluster);
        play_scenario(&cluster);
        let (code, lines, stderr) = live.finish(Duration::from_secs(20));
        let mut stdout = lines.join("\n");
        if !lines.is_empty() {
            stdout.push('\n');
        }
        (code, stdout, stderr)
    } else {
        let outcome = run(&mut cmd, Duration::from_secs(20));
        (outcome.code, outcome.stdout, outcome.stderr)
    };
    match case.compare.as_str() {
        "out" => {
            assert_eq!(code, Some(0), "kw {args:?} ({variant}) failed: {stderr}");
            assert_golden(&format!("{name}.out"), &stdout);
        }
        "err" => {
            assert_ne!(
                code,
                Some(0),
                "kw {args:?} ({variant}) succeeded; stdout: {stdout}"
            );
            assert_golden(&format!("{name}.err"), &last_line(&stderr));
        }
        "out+err" => {
            // A success that says something on stderr (record.sh records only those).
            assert_eq!(code, Some(0), "kw {args:?} ({variant}) failed: {stderr}");
            assert_golden(&format!("{name}.out"), &stdout);
            assert_golden(&format!("{name}.err"), &last_line(&stderr));
        }
        "out+fail" => {
            // What was printed before a failure (a template's execution error), then the error.
            assert_ne!(
                code,
                Some(0),
                "kw {args:?} ({variant}) succeeded; stdout: {stdout}"
            );
            assert_golden(&format!("{name}.out"), &stdout);
            assert_golden(&format!("{name}.err"), &last_line(&stderr));
        }
        other => panic!("unknown comparison {other}"),
    }
}

macro_rules! golden {
    ($($name:ident),* $(,)?) => {
        $( #[test] fn $name() { check(stringify!($name)); } )*
        const TESTED: &[&str] = &[$(stringify!($name)),*];
    };
}

golden!(
    pods,
    pods_all,
    pods_wide,
    pods_no_headers,
    pods_name,
    pods_json,
    pods_json_selector,
    pods_field_selector,
    pod_named_json,
    pod_named_table,
    pods_slash_names,
    pods_cert,
    deploy_wide,
    deploy_name,
    rs,
    nodes,
    nodes_wide,
    namespaces,
    services,
    services_wide,
    endpoints,
    configmaps,
    secrets,
    pvc,
    events,
    widgets,
    widgets_json,
    chunked,
    empty,
    empty_json,
    unknown_type,
    not_found,
    not_found_watch,
    not_found_watch_json,
    forbidden,
    allowed_namespace,
    unauthorized,
    several_types,
    several_types_asked_order,
    several_types_no_headers,
    several_types_name,
    several_types_json,
    several_slash_names,
    several_types_all_namespaces,
    several_types_empty,
    same_type_twice,
    show_kind,
    get_all,
    get_all_wide,
    watch_table,
    watch_events_table,
    watch_events_all,
    watch_wide,
    watch_only,
    watch_json,
    watch_events_json,
    watch_name,
    watch_named_pod,
    pods_yaml,
    pod_named_yaml,
    empty_yaml,
    nodes_yaml,
    configmaps_yaml,
    events_yaml,
    widgets_yaml,
    watch_yaml,
    watch_events_yaml,
    pods_jsonpath,
    pods_jsonpath_file,
    pods_jsonpath_filter,
    pod_named_jsonpath,
    empty_jsonpath,
    pods_custom_columns,
    pods_custom_columns_file,
    pods_custom_columns_no_headers,
    empty_custom_columns,
    watch_jsonpath,
    watch_events_jsonpath,
    watch_custom_columns,
    watch_events_custom_columns,
    pods_show_labels,
    pods_label_columns,
    pods_wide_labels,
    pods_sort_by_start,
    pods_sort_by_restarts,
    pods_sort_by_name,
    nodes_sort_by_memory,
    watch_sort_by,
    watch_show_labels,
    show_labels_json,
    label_columns_custom,
    pods_json_sort_by,
    pods_name_sort_by,
    pods_custom_columns_sort_by,
    pods_jsonpath_sort_by,
    watch_name_sort_by,
    pods_jsonpath_as_json,
    pods_custom_columns_file_no_headers,
    nodes_label_hostname,
    pods_yaml_events_only,
    several_types_with_an_empty_one,
    gotmpl_secret_password,
    gotmpl_names,
    gotmpl_running,
    gotmpl_templatefile,
    gotmpl_template_flag,
    gotmpl_template_format,
    gotmpl_flag_with_format,
    gotmpl_controls,
    gotmpl_values,
    gotmpl_functions,
    gotmpl_numbers,
    gotmpl_nodes,
    gotmpl_configmaps,
    gotmpl_whole_object,
    gotmpl_empty,
    gotmpl_watch,
    gotmpl_watch_events,
    gotmpl_parse_unclosed,
    gotmpl_parse_function,
    gotmpl_parse_end,
    gotmpl_parse_eof,
    gotmpl_parse_if,
    gotmpl_parse_variable,
    gotmpl_no_template,
    gotmpl_no_file,
    gotmpl_exec_field,
    gotmpl_exec_list,
    gotmpl_exec_nil,
    gotmpl_exec_index,
    gotmpl_exec_base64,
    gotmpl_exec_base64_missing,
    gotmpl_exec_compare,
    gotmpl_exec_len,
    gotmpl_builtins,
    gotmpl_exec_call,
    gotmpl_exec_slice,
    gotmpl_printf,
    gotmpl_printf_floats,
    gotmpl_parse_character,
    gotmpl_parse_range_decls,
    gotmpl_exec_wrong_args,
    gotmpl_exec_nil_command,
    gotmpl_flag_with_jsonpath,
    gotmpl_flag_with_jsonpath_file,
    get_manifests_several,
    get_manifest_dir_missing_name,
    get_named_in_order,
    get_named_in_order_name,
    get_named_missing_between,
    bool_flags_with_values,
    bool_flags_false,
    ignore_not_found_named,
    ignore_not_found_between,
    pods_kyaml,
    pod_named_kyaml,
    pods_named_kyaml,
    empty_kyaml,
    nodes_kyaml,
    configmaps_kyaml,
    events_kyaml,
    widgets_kyaml,
    deploy_kyaml,
    services_kyaml,
    watch_kyaml,
    watch_events_kyaml,
    pods_kyaml_events_only,
    subresource_scale,
    subresource_scale_several_wide,
    subresource_scale_json,
    subresource_scale_name,
    subresource_scale_kyaml,
    subresource_scale_show_kind,
    subresource_status,
    subresource_status_pod,
    subresource_status_node,
    subresource_unknown,
    subresource_not_served,
    subresource_bulk,
    subresource_missing_between,
    watch_subresource,
    wait_kyaml,
    wait_output_unknown,
);

/// A case added to cases.tsv must get a test here too.
#[test]
fn every_case_is_tested() {
    let table = std::fs::read_to_string(golden_path("cases.tsv")).expect("cases.tsv");
    let names: Vec<&str> = table
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .filter_map(|l| l.split('\t').next())
        .collect();
    assert_eq!(names, TESTED);
}

/// The stored files are kubectl's (issue 60): every case that plays no scenario is run again
/// through the pinned kubectl against the same frozen simulator, and what it prints must be the
/// stored file, byte for byte, as `record.sh` would write it. A file written by kw, or left
/// from an older kubectl, fails here naming the case.
#[test]
fn the_pinned_kubectl_prints_every_stored_golden() {
    let kubectl = harness::kubectl();
    let table = std::fs::read_to_string(golden_path("cases.tsv")).expect("cases.tsv");
    // Every table of goldens says which kubectl recorded it: the pinned one. (The rollout and
    // wait stories take seconds each; their record scripts are run by hand, see README.md.)
    let recorded_with = format!("recorded with kubectl {}", pinned_version(&kubectl));
    for name in ["cases.tsv", "rollout_cases.tsv", "wait_cases.tsv"] {
        let text = std::fs::read_to_string(golden_path(name)).expect("a table of goldens");
        assert!(
            text.contains(&recorded_with),
            "{name}'s header does not name the kubectl that recorded it"
        );
    }
    let cases: Vec<(String, Case)> = table
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .filter_map(|l| l.split('\t').next())
        .map(|name| (name.to_string(), case(name)))
        .filter(|(_, case)| !case.scenario)
        .collect();
    assert!(cases.len() > 100, "only {} cases", cases.len());
    let differ: Vec<String> = std::thread::scope(|scope| {
        let mut differ = Vec::new();
        for chunk in cases.chunks(8) {
            let runs: Vec<_> = chunk
                .iter()
                .map(|(name, case)| scope.spawn(|| kubectl_differs(&kubectl, name, case)))
                .collect();
            differ.extend(
                runs.into_iter()
                    .filter_map(|r| r.join().expect("case runs")),
            );
        }
        differ
    });
    assert!(
        differ.is_empty(),
        "{} of {} stored goldens are not what the pinned kubectl prints:\n{}",
        differ.len(),
        cases.len(),
        differ.join("\n")
    );
}

/// `v1.37.1`, from `kubectl version --client`.
fn pinned_version(kubectl: &std::path::Path) -> String {
    let out = std::process::Command::new(kubectl)
        .args(["version", "--client"])
        .output()
        .expect("kubectl version");
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    let version = text.split_whitespace().find(|w| w.starts_with("v1."));
    version.expect("a version").to_string()
}

/// Case `name` through kubectl as record.sh runs it: `None` when it prints the stored files.
fn kubectl_differs(kubectl: &std::path::Path, name: &str, case: &Case) -> Option<String> {
    let cluster = Cluster::seeded();
    let mut cmd = std::process::Command::new(kubectl);
    cmd.current_dir(env!("CARGO_MANIFEST_DIR"))
        .env_remove("KUBECONFIG")
        .env("HOME", cluster.dir.path())
        .env("KUBECACHEDIR", cluster.dir.path().join("cache"))
        .arg("--kubeconfig")
        .arg(&cluster.kubeconfig)
        .args(&case.args);
    let outcome = run(&mut cmd, Duration::from_secs(20));
    let stored = |file: &str| std::fs::read_to_string(golden_path(&format!("{name}.{file}"))).ok();
    let succeeds = matches!(case.compare.as_str(), "out" | "out+err");
    let mut wrong = Vec::new();
    if (outcome.code == Some(0)) != succeeds {
        wrong.push(format!("exited {:?}", outcome.code));
    }
    if case.compare != "err" && stored("out").as_deref() != Some(outcome.stdout.as_str()) {
        wrong.push("stdout".to_string());
    }
    if case.compare != "out" && stored("err") != Some(last_line(&outcome.stderr)) {
        wrong.push(format!(
            "stderr's last line {:?}",
            last_line(&outcome.stderr)
        ));
    }
    (!wrong.is_empty()).then(|| format!("{name}: {}", wrong.join(", ")))
}
