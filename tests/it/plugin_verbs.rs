//! kw's kubectl verbs through kubectl's plugin mechanism: `kubectl kw rollout status ...` runs
//! the real kubectl, which finds `kubectl-kw` (kw) on its PATH and hands it the arguments. What
//! a CI log shows must not depend on the spelling: stdout byte for byte `kw rollout status`'s
//! (itself kubectl's own, recorded in tests/golden), kw's exit code passed through, kubectl's
//! error line on stderr.

use std::path::PathBuf;
use std::process::Stdio;
use std::time::Duration;

use kw_sim::rollout::{Plot, Rollout};
use kw_sim::SimConfig;

use crate::harness::{self, assert_golden, run, Cluster, Outcome};

const LIMIT: Duration = Duration::from_secs(40);

/// The reference kubectl (v1.37, pinned).
fn kubectl() -> PathBuf {
    harness::kubectl()
}

/// A cluster whose `default` namespace plays `plot` for `name` (a beat of 1 s, as the goldens
/// were recorded with), if any.
fn cluster_playing(story: Option<(Plot, &str)>) -> Cluster {
    let cluster = Cluster::start(SimConfig::default());
    if let Some((plot, name)) = story {
        let mut rollout = Rollout::new(plot, "default", name);
        rollout.beat = Duration::from_secs(1);
        cluster.sim.play_rollout(&rollout).expect("rollout plays");
    }
    cluster
}

/// `kubectl kw ARGS --kubeconfig K`, kw on PATH as `kubectl-kw`.
fn through_kubectl(cluster: &Cluster, args: &[&str]) -> Outcome {
    let plugins = cluster.dir.path().join("plugins");
    if !plugins.exists() {
        std::fs::create_dir(&plugins).unwrap();
        std::os::unix::fs::symlink(env!("CARGO_BIN_EXE_kw"), plugins.join("kubectl-kw")).unwrap();
    }
    let path = std::env::join_paths(
        std::iter::once(plugins).chain(std::env::split_paths(&std::env::var_os("PATH").unwrap())),
    )
    .unwrap();
    let mut cmd = crate::harness::tools::command(kubectl());
    cmd.arg("kw")
        .args(args)
        .arg("--kubeconfig")
        .arg(&cluster.kubeconfig)
        .env("PATH", path)
        .env_remove("KUBECONFIG")
        .env("HOME", cluster.dir.path())
        .env("NO_COLOR", "1")
        .stdin(Stdio::null());
    run(&mut cmd, LIMIT)
}

/// `kw ARGS --kubeconfig K`.
fn directly(cluster: &Cluster, args: &[&str]) -> Outcome {
    let mut kw = cluster.kw();
    kw.args(args).arg("--kubeconfig").arg(&cluster.kubeconfig);
    run(kw, LIMIT)
}

/// A rolling Deployment, each spelling against a sim of its own playing the story from its
/// start: both print kubectl's recorded lines, byte for byte, and exit 0.
#[test]
fn rollout_status_through_kubectl_prints_what_kw_prints() {
    let args = ["rollout", "status", "deploy/front"];
    let plugin = through_kubectl(&cluster_playing(Some((Plot::Completes, "front"))), &args);
    let kw = directly(&cluster_playing(Some((Plot::Completes, "front"))), &args);
    assert_eq!(plugin.code, Some(0), "{plugin:#?}");
    assert_eq!(kw.code, Some(0), "{kw:#?}");
    assert_eq!(plugin.stdout, kw.stdout);
    assert_golden("rollout_completes.out", &plugin.stdout);
    assert_eq!(plugin.stderr, "");
}

/// kw's exit codes reach the CI job through kubectl unchanged (kubectl execs the plugin), with
/// kubectl's error line first on stderr: 2 a rollout that cannot finish, 6 not found, 1 usage.
#[test]
fn failures_through_kubectl_keep_kws_exit_code_and_kubectls_error_line() {
    let cluster = cluster_playing(Some((Plot::OnDelete, "ledger")));
    for (args, code, line) in [
        (
            &["rollout", "status", "statefulset", "ledger"][..],
            2,
            "error: rollout status is only available for RollingUpdate strategy type",
        ),
        (
            &["rollout", "status", "deploy/nope"],
            6,
            "Error from server (NotFound): deployments.apps \"nope\" not found",
        ),
        (
            &["rollout", "status", "-l", "app=web"],
            1,
            "error: required resource not specified",
        ),
    ] {
        let plugin = through_kubectl(&cluster, args);
        let kw = directly(&cluster, args);
        assert_eq!(plugin.code, Some(code), "{args:?}: {plugin:#?}");
        assert_eq!(kw.code, Some(code), "{args:?}: {kw:#?}");
        assert_eq!(plugin.stdout, kw.stdout, "{args:?}");
        assert_eq!(
            crate::harness::verdict_lines(&plugin.stderr)
                .first()
                .copied(),
            Some(line),
            "{args:?}: {}",
            plugin.stderr
        );
        assert_eq!(plugin.stderr, kw.stderr, "{args:?}");
    }
}

/// `kubectl kw wait`: kubectl's recorded `condition met` lines through the plugin path, and a
/// timeout keeps kw's exit code (3) and kubectl's error line.
#[test]
fn wait_through_kubectl_prints_kubectls_lines_and_keeps_kws_exit_code() {
    let cluster = cluster_playing(None);
    let met = [
        "wait",
        "--for=condition=Available",
        "deployment/web",
        "--timeout=60s",
    ];
    let plugin = through_kubectl(&cluster, &met);
    let kw = directly(&cluster, &met);
    assert_eq!(plugin.code, Some(0), "{plugin:#?}");
    assert_eq!(plugin.stdout, kw.stdout);
    assert_golden("wait_condition_met.out", &plugin.stdout);

    let timeout = [
        "wait",
        "--for=condition=Ready",
        "pod/flaky-worker",
        "-n",
        "team-b",
        "--timeout=2s",
    ];
    let plugin = through_kubectl(&cluster, &timeout);
    assert_eq!(plugin.code, Some(3), "{plugin:#?}");
    assert_eq!(plugin.stdout, "");
    // kw's progress lines (`kw: ...`) and its cause may come first; kubectl's line is the rest.
    assert_eq!(
        crate::harness::verdict_lines(&plugin.stderr)
            .first()
            .copied(),
        Some("error: timed out waiting for the condition on pods/flaky-worker"),
        "{}",
        plugin.stderr
    );
}
