//! The programs the suite runs beside kw, and the one way a test may be skipped.
//!
//! The suite needs the reference kubectl (v1.37.1, pinned: `.ci/reference-tools` installs it
//! under the build directory, [`kubectl`] finds it), bash, bash-completion, zsh, fish and tmux
//! (`.ci/test` installs them all when missing). A test that
//! needs one of them and does not find it FAILS, here as in CI: the completion tests type
//! hostile names into real shells, and a security test that passes because its shell is missing
//! would say nothing while looking green.
//!
//! What the machine may truly lack (an IPv6 loopback) is skipped through [`skip`], which says
//! so in the test output whatever the capture, counts it, and lists it in
//! `$CARGO_TARGET_TMPDIR/skipped-tests.txt` for `.ci/run` to print at the end.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};

/// `Command::new(program)` for a kw or kubectl the suite runs: none of the developer's kuberc
/// (kubectl's preferences, read by both) reaches it, so no output depends on whose machine
/// runs the tests. A test of kuberc names its file (`KUBERC=PATH` replaces the `off`).
pub fn command(program: impl AsRef<std::ffi::OsStr>) -> Command {
    let mut command = Command::new(program);
    command.env("KUBERC", "off").env_remove("KUBECTL_KUBERC");
    command
}

/// Fail the test unless `program probe...` runs and succeeds here.
pub fn require(program: &str, probe: &[&str]) {
    let ran = Command::new(program)
        .args(probe)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status();
    match ran {
        Ok(status) if status.success() => {}
        Ok(status) => panic!(
            "`{program} {}` failed ({status}): the test suite needs {program} (see CONTRIBUTING.md, Testing)",
            probe.join(" ")
        ),
        Err(e) => panic!(
            "{program} is missing ({e}): the test suite needs it (see CONTRIBUTING.md, Testing; .ci/run installs bash-completion, zsh, fish and tmux, kubectl is on PATH)"
        ),
    }
}

/// Fail the test unless `path` (a file a package installs) exists.
pub fn require_file(path: &str, package: &str) {
    assert!(
        Path::new(path).exists(),
        "{path} is missing: the test suite needs {package} (.ci/run installs it)"
    );
}

/// The kubectl kw is compared with: `$KW_REFERENCE_KUBECTL`, else the pinned v1.37.1 that
/// `.ci/reference-tools` installs into `target/reference-tools/bin` (never the image's v1.32 on
/// PATH, whose `wait` is older). Fails the test when it is missing or not v1.37.
pub fn kubectl() -> PathBuf {
    let path = std::env::var_os("KW_REFERENCE_KUBECTL")
        .map(PathBuf::from)
        .unwrap_or_else(|| {
            Path::new(env!("CARGO_TARGET_TMPDIR"))
                .parent()
                .expect("the target directory")
                .join("reference-tools/bin/kubectl")
        });
    let version = Command::new(&path)
        .args(["version", "--client"])
        .stdin(Stdio::null())
        .stderr(Stdio::null())
        .output();
    match version {
        Ok(out) if String::from_utf8_lossy(&out.stdout).contains("v1.37.") => path,
        Ok(out) => panic!(
            "{} is not kubectl v1.37 ({}): run .ci/reference-tools (or .ci/test), or set KW_REFERENCE_KUBECTL",
            path.display(),
            String::from_utf8_lossy(&out.stdout).trim()
        ),
        Err(e) => panic!(
            "the reference kubectl {} is missing ({e}): run .ci/reference-tools (or .ci/test), or set KW_REFERENCE_KUBECTL",
            path.display()
        ),
    }
}

/// The Python of the reference tools' virtual environment (`.ci/reference-tools`), which holds
/// junitparser (PyPI's JUnit XML reader). Fails the test when it is missing.
pub fn reference_python() -> PathBuf {
    let path = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .parent()
        .expect("the target directory")
        .join("reference-tools/bin/python3");
    let found = Command::new(&path)
        .args(["-c", "import junitparser"])
        .stdin(Stdio::null())
        .status();
    assert!(
        found.is_ok_and(|s| s.success()),
        "{} has no junitparser: run .ci/reference-tools (or .ci/test)",
        path.display()
    );
    path
}

static SKIPPED: AtomicUsize = AtomicUsize::new(0);

/// Skip the rest of `test` because of something the machine may lack (never a tool the suite
/// needs): said on the real stderr (libtest captures only `print!`/`eprint!`, so a passing test
/// would otherwise hide it), counted, and listed in the skip file.
pub fn skip(test: &str, why: &str) {
    let count = SKIPPED.fetch_add(1, Ordering::SeqCst) + 1;
    let line = format!("SKIPPED {test}: {why}");
    let _ = writeln!(
        std::io::stderr(),
        "{line} ({count} skipped in this run so far)"
    );
    // The file is how CI learns of the skip: one that cannot be written must fail the test,
    // or CI would say "skipped tests: none" after a skip.
    let list = Path::new(env!("CARGO_TARGET_TMPDIR")).join("skipped-tests.txt");
    if let Err(error) = record_skip(&list, &line) {
        panic!("{test} skipped, but the skip file {list:?} could not be written: {error}");
    }
}

/// Append `line` to the skip file `list`, which `.ci/check-skips` reads.
pub fn record_skip(list: &Path, line: &str) -> std::io::Result<()> {
    let mut file = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(list)?;
    writeln!(file, "{line}")
}
