//! A `kw sim` in-process on loopback with a kubeconfig for it, and `kw` commands aimed at it;
//! the seeded world's frozen clock; the golden watch scenario played against the sim.

use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::time::Duration;

use kw_sim::{Faults, FaultsFired, SimConfig, SimHandle};

use super::golden::golden_path;
use super::watchdog;

/// `kw_sim::start`, with the test's watchdog armed first.
pub fn start_sim(config: SimConfig) -> Result<SimHandle, kw_sim::SimError> {
    watchdog::current();
    kw_sim::start(config)
}

/// Runs `check` twice, each time on a fresh cluster whose watches fail mid-story: every
/// connection dropped after two events (no terminating chunk), then every watch told its
/// resourceVersion expired (410). Asserts that a fault did fire (a run where none did is run
/// again, up to `ATTEMPTS_FOR_A_FAULT` in all), so a story too short to reach one cannot pass
/// unseen.
pub fn under_dropped_and_expired_watches(mut check: impl FnMut(&Faults, &Cluster)) {
    let dropped = Faults {
        close_after: Some(2),
        times: Some(3),
        ..Faults::default()
    };
    let expired = Faults {
        expire_after: Some(2),
        times: Some(2),
        ..Faults::default()
    };
    for faults in [dropped, expired] {
        // A story plays on the sim's clock from before kw starts: on a loaded machine kw may
        // list late, with so much of the story in its list that its watch sees fewer events
        // than the fault waits for. Such a run must still pass `check`, but it proves nothing
        // of the fault, so it is tried again on a fresh cluster, a bounded number of times.
        let mut fired = FaultsFired::default();
        for _attempt in 0..ATTEMPTS_FOR_A_FAULT {
            let cluster = Cluster::start(SimConfig {
                faults: faults.clone(),
                ..SimConfig::default()
            });
            check(&faults, &cluster);
            fired = cluster.sim.faults_fired();
            if fired.closed + fired.expired >= 1 {
                break;
            }
        }
        assert!(
            fired.closed + fired.expired >= 1,
            "{faults:?}: no fault fired in {ATTEMPTS_FOR_A_FAULT} runs: {fired:?}"
        );
    }
}

/// Runs of a story under faults before one that fired is required.
const ATTEMPTS_FOR_A_FAULT: usize = 3;

/// A simulated cluster and a kubeconfig for it in a temporary directory.
pub struct Cluster {
    pub sim: SimHandle,
    pub dir: tempfile::TempDir,
    pub kubeconfig: PathBuf,
    /// The test's watchdog, which every command from `kw` reports to.
    watchdog: watchdog::Handle,
}

impl Cluster {
    pub fn start(config: SimConfig) -> Cluster {
        let watchdog = watchdog::current();
        let sim = start_sim(config).expect("sim starts");
        let dir = tempfile::tempdir().expect("temp dir");
        let kubeconfig = dir.path().join("kubeconfig");
        sim.write_kubeconfig(&kubeconfig)
            .expect("kubeconfig written");
        Cluster {
            sim,
            dir,
            kubeconfig,
            watchdog,
        }
    }

    /// The default: the seeded world, no churn, a frozen clock for stable AGE cells.
    pub fn seeded() -> Cluster {
        Cluster::start(SimConfig {
            clock: Some(frozen_now()),
            ..SimConfig::default()
        })
    }

    /// A kubeconfig `fleet` for this sim: a context per user given, `c-0`, `c-1` ... in order,
    /// each with its own user (`c-N-user`), all in `default`.
    pub fn fleet_kubeconfig(&self, users: &[serde_json::Value]) -> PathBuf {
        use base64::Engine as _;
        let names: Vec<String> = (0..users.len()).map(|i| format!("c-{i}")).collect();
        let config = serde_json::json!({
            "apiVersion": "v1",
            "kind": "Config",
            "current-context": "c-0",
            "clusters": [{"name": "sim", "cluster": {
                "server": self.sim.url(),
                "certificate-authority-data":
                    base64::engine::general_purpose::STANDARD.encode(self.sim.ca_pem()),
            }}],
            "contexts": names.iter().map(|name| serde_json::json!({"name": name, "context": {
                "cluster": "sim", "user": format!("{name}-user"), "namespace": "default"}}))
                .collect::<Vec<_>>(),
            "users": names.iter().zip(users).map(|(name, user)| serde_json::json!({
                "name": format!("{name}-user"), "user": user}))
                .collect::<Vec<_>>(),
        });
        let path = self.dir.path().join("fleet");
        std::fs::write(&path, config.to_string()).expect("the fleet's kubeconfig");
        path
    }

    /// `kw` with `--kubeconfig` set, HOME pointing into the temp dir (no kuberc there), no
    /// KUBECONFIG and no KUBERC or KUBECTL_KUBERC of the developer's.
    pub fn kw(&self) -> Command {
        let mut cmd = Command::new(env!("CARGO_BIN_EXE_kw"));
        cmd.env_remove("KUBECONFIG")
            .env_remove("KUBERC")
            .env_remove("KUBECTL_KUBERC")
            // A CI's own variables would turn its report on in every test (`--report`).
            .env_remove("GITHUB_ACTIONS")
            .env_remove("GITLAB_CI")
            .env_remove("KW_REPORT")
            .env("HOME", self.dir.path())
            .env("NO_COLOR", "1")
            .env(watchdog::ID_VAR, self.watchdog.id())
            .stdin(Stdio::null());
        cmd
    }

    /// `kw get ARGS --kubeconfig K`.
    pub fn get(&self, args: &[&str]) -> Command {
        let mut cmd = self.kw();
        cmd.arg("get")
            .args(args)
            .arg("--kubeconfig")
            .arg(&self.kubeconfig);
        cmd
    }
}

/// The moment the simulated clock is frozen at in tests and golden files.
pub fn frozen_now() -> std::time::SystemTime {
    humantime::parse_rfc3339("2026-01-01T12:00:00Z").expect("valid time")
}

/// The operations of tests/golden/watch-scenario.jsonl (a pod created, started, terminating,
/// deleted), which record.sh plays against kubectl's watch.
pub fn scenario_ops() -> Vec<serde_json::Value> {
    let text = std::fs::read_to_string(golden_path("watch-scenario.jsonl")).expect("scenario");
    text.lines()
        .map(|line| serde_json::from_str(line).expect("scenario line"))
        .collect()
}

/// Apply one scenario operation to the simulator, then pause as record.sh does: the replay keeps
/// the cadence kubectl's output was recorded at (each event on its own). It paces; nothing waits
/// on it, and some cases print nothing for an operation, so there is no line to wait for.
pub fn apply_scenario_op(cluster: &Cluster, op: &serde_json::Value) {
    let resource = op["resource"].as_str().expect("resource");
    match op["op"].as_str() {
        Some("create") => {
            cluster
                .sim
                .create(resource, op["object"].clone())
                .expect("create");
        }
        Some("update") => {
            cluster
                .sim
                .update(resource, op["object"].clone())
                .expect("update");
        }
        Some("delete") => {
            cluster
                .sim
                .delete(
                    resource,
                    op["namespace"].as_str().unwrap_or_default(),
                    op["name"].as_str().expect("name"),
                )
                .expect("delete");
        }
        other => panic!("unknown scenario op {other:?}"),
    }
    std::thread::sleep(Duration::from_millis(100));
}
