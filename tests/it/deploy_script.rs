//! Whole deploy scripts switched from kubectl to kw (`tests/scripts/deploy/deploy.sh`: apply,
//! rollout status, `set image`, on failure `describe` and `rollout undo`, `get -o jsonpath`,
//! `wait`, `delete`, `wait --for=delete`; `migrate.sh`: a Job applied from stdin, waited on,
//! its log shown when it fails), run as written and with `KUBECTL=kw` against two sims
//! told the same story: kw runs its own verbs and hands the rest to kubectl, and the script
//! reads the same stdout, the same stderr (but kw's own `kw:` lines) and ends with the same
//! status.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

use kw_sim::SimConfig;

use crate::harness::{self, run, Cluster, Outcome};

const LIMIT: Duration = Duration::from_secs(120);

fn script(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join(format!("tests/scripts/deploy/{name}"))
}

/// What a run is: the script, and the variable that picks the story (`IMAGE`, `COMMAND`).
struct Story<'a> {
    name: &'a str,
    script: &'a str,
    variable: (&'a str, &'a str),
}

/// The script with `KUBECTL=tool`, kubectl on PATH (for kw to hand verbs to), on its own sim.
fn run_script(tool: &Path, story: &Story<'_>) -> (Outcome, Duration) {
    let cluster = Cluster::start(SimConfig::default());
    let bin = cluster.dir.path().join("bin");
    std::fs::create_dir_all(&bin).expect("bin dir");
    std::os::unix::fs::symlink(harness::kubectl(), bin.join("kubectl")).expect("link");
    let path = format!(
        "{}:{}",
        bin.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let mut command = Command::new("bash");
    command
        .arg(script(story.script))
        .env("KUBECTL", tool)
        .env(story.variable.0, story.variable.1)
        .env("KUBECONFIG", &cluster.kubeconfig)
        .env("HOME", cluster.dir.path())
        .env("PATH", path)
        .env("NO_COLOR", "1")
        .env_remove("KW_KUBECTL");
    let started = Instant::now();
    let outcome = run(command, LIMIT);
    (outcome, started.elapsed())
}

/// stdout without the progress lines of `rollout status`, which [`progress_reads_the_same`]
/// compares on its own terms.
fn verdict_lines(stdout: &str) -> Vec<&str> {
    stdout
        .lines()
        .filter(|line| !line.starts_with("Waiting for"))
        .collect()
}

/// The progress lines of each `rollout status` in the script (those before each verdict line,
/// "successfully rolled out" or the script's word of a failure), each run of a repeated line
/// said once.
fn progress_by_rollout(stdout: &str) -> Vec<Vec<&str>> {
    let mut rollouts = vec![Vec::new()];
    for line in stdout.lines() {
        let current = rollouts.last_mut().expect("one at least");
        if line.starts_with("Waiting for") {
            if current.last() != Some(&line) {
                current.push(line);
            }
        } else if line.contains("successfully rolled out") || line.starts_with("rollout of ") {
            rollouts.push(Vec::new());
        }
    }
    rollouts
}

/// Which progress lines a client prints depends on when its watch starts against the story's
/// beat (two runs of kubectl differ there too): a client that looks sooner sees earlier states
/// (`Waiting for deployment spec update to be observed...` just after `set image`). After the
/// later one's start both see every state, so per rollout one client's lines end the other's,
/// and kw, which starts sooner, says something whenever kubectl does.
fn progress_reads_the_same(kubectl: &str, kw: &str) {
    let (theirs, ours) = (progress_by_rollout(kubectl), progress_by_rollout(kw));
    assert_eq!(
        theirs.len(),
        ours.len(),
        "rollouts:\n{kw}\nkubectl's:\n{kubectl}"
    );
    for (at, (theirs, ours)) in theirs.iter().zip(&ours).enumerate() {
        assert!(
            ours.ends_with(theirs) || theirs.ends_with(ours),
            "rollout {at}: kw's progress {ours:#?} and kubectl's {theirs:#?} differ after both started"
        );
        assert!(
            theirs.is_empty() || !ours.is_empty(),
            "rollout {at}: kubectl said {theirs:#?}, kw nothing"
        );
    }
}

/// Run the script both ways and compare what a CI log and the pipeline read.
fn switched_script_reads_the_same(story: &Story<'_>, expected_exit: i32) -> Outcome {
    let kw = PathBuf::from(env!("CARGO_BIN_EXE_kw"));
    let kubectl = harness::kubectl();
    let (theirs, ours) = std::thread::scope(|scope| {
        let theirs = scope.spawn(|| run_script(&kubectl, story));
        let ours = scope.spawn(|| run_script(&kw, story));
        (
            theirs.join().expect("kubectl run"),
            ours.join().expect("kw run"),
        )
    });
    let ((theirs, their_time), (ours, our_time)) = (theirs, ours);
    let same = verdict_lines(&theirs.stdout) == verdict_lines(&ours.stdout);
    // The figures for the note: story, exit and seconds each way, stdout identical.
    eprintln!(
        "{} | {} | kubectl: exit {:?}, {:.1} s | kw: exit {:?}, {:.1} s | stdout identical: {same} (byte for byte: {})",
        story.script,
        story.name,
        theirs.code,
        their_time.as_secs_f64(),
        ours.code,
        our_time.as_secs_f64(),
        theirs.stdout == ours.stdout
    );
    assert_eq!(
        theirs.code,
        Some(expected_exit),
        "kubectl: {}",
        theirs.stderr
    );
    assert_eq!(ours.code, theirs.code, "kw: {}", ours.stderr);
    assert_eq!(
        verdict_lines(&ours.stdout),
        verdict_lines(&theirs.stdout),
        "kw's stdout:\n{}\nkubectl's:\n{}",
        ours.stdout,
        theirs.stdout
    );
    progress_reads_the_same(&theirs.stdout, &ours.stdout);
    // Every line of stderr but kw's own commentary and summary: kubectl's `error:` lines,
    // `Error from server …`, the warnings of handed verbs, in order.
    assert_eq!(
        harness::verdict_lines(&ours.stderr),
        theirs.stderr.lines().collect::<Vec<_>>(),
        "kw's stderr:\n{}\nkubectl's:\n{}",
        ours.stderr,
        theirs.stderr
    );
    ours
}

fn deploy<'a>(name: &'a str, image: &'a str) -> Story<'a> {
    Story {
        name,
        script: "deploy.sh",
        variable: ("IMAGE", image),
    }
}

fn directory<'a>(name: &'a str, image: &'a str) -> Story<'a> {
    Story {
        name,
        script: "directory.sh",
        variable: ("IMAGE", image),
    }
}

fn migrate<'a>(name: &'a str, command: &'a str) -> Story<'a> {
    Story {
        name,
        script: "migrate.sh",
        variable: ("COMMAND", command),
    }
}

#[test]
fn a_good_image_rolls_out_the_same_way() {
    let ours = switched_script_reads_the_same(&deploy("completes", "nginx:1.28"), 0);
    assert!(
        ours.stdout.contains("running nginx:1.28"),
        "{}",
        ours.stdout
    );
    assert!(!ours.stdout.contains("rolling back"), "{}", ours.stdout);
}

#[test]
fn an_image_that_does_not_exist_is_rolled_back_the_same_way() {
    let ours = switched_script_reads_the_same(&deploy("image-pull", "nginx:1.99-missing"), 1);
    // The rollback ran (kubectl's `rollout undo`, handed on by kw) and brought the old image.
    assert!(ours.stdout.contains("rolled back"), "{}", ours.stdout);
    assert!(
        ours.stdout.contains("deployment.apps \"shop\" deleted"),
        "{}",
        ours.stdout
    );
    assert!(
        ours.stdout.contains("running nginx:1.27"),
        "{}",
        ours.stdout
    );
    // kw named the cause where kubectl only says the deadline passed.
    assert!(ours.stderr.contains("ImagePullBackOff"), "{}", ours.stderr);
}

#[test]
fn a_crashing_container_is_rolled_back_the_same_way() {
    let ours = switched_script_reads_the_same(&deploy("crash-loop", "ghcr.io/kw-demo/crash:1"), 1);
    assert!(
        ours.stdout.contains("running nginx:1.27"),
        "{}",
        ours.stdout
    );
    assert!(ours.stderr.contains("CrashLoopBackOff"), "{}", ours.stderr);
}

#[test]
fn a_migration_job_that_completes_reads_the_same() {
    let ours = switched_script_reads_the_same(&migrate("job-completes", "echo migrated"), 0);
    assert!(
        ours.stdout.contains("job.batch/migrate condition met\n"),
        "{}",
        ours.stdout
    );
    assert!(ours.stdout.contains("1 succeeded\n"), "{}", ours.stdout);
}

#[test]
fn a_migration_job_that_fails_reads_the_same() {
    let ours = switched_script_reads_the_same(&migrate("job-fails", "exit 1"), 1);
    // Both attempts failed (backoffLimit 1), the script said so and cleaned up.
    assert!(ours.stdout.contains("2 failed, "), "{}", ours.stdout);
    assert!(
        ours.stdout.contains("job.batch \"migrate\" deleted"),
        "{}",
        ours.stdout
    );
    // kw's summary names the Job's failure where kubectl only timed out.
    assert!(
        ours.stderr.contains("BackoffLimitExceeded"),
        "{}",
        ours.stderr
    );
}

#[test]
fn a_directory_of_manifests_rolls_out_the_same_way() {
    let ours =
        switched_script_reads_the_same(&directory("completes", "ghcr.io/kw-demo/shop:1.4.2"), 0);
    for line in [
        "namespace/shop created",
        "service/shop created",
        "condition met",
        "service at 10.96.",
    ] {
        assert!(ours.stdout.contains(line), "{line}: {}", ours.stdout);
    }
}

#[test]
fn a_directory_whose_image_does_not_exist_fails_the_same_way() {
    let ours = switched_script_reads_the_same(
        &directory("image-pull", "ghcr.io/kw-demo/shop:1.4.3-typo"),
        1,
    );
    assert!(
        ours.stdout
            .contains("Progressing=False ProgressDeadlineExceeded"),
        "{}",
        ours.stdout
    );
}
