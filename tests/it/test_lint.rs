//! A lint over the suite itself: no assertion that cannot fail of the shape
//! `started.elapsed() < LIMIT` right after a helper that already gives up at `LIMIT`
//! (`live.finish(LIMIT)`, `run(cmd, LIMIT)`, `wait_with_limit(child, LIMIT)`): the helper makes it
//! true whatever kw did. Assert what the helper returns instead (an exit code, `Some`).

use std::path::Path;

/// How many lines before an `elapsed() <` a bounding call is looked for.
const WINDOW: usize = 3;

/// `(line number, line)` of every vacuous elapsed-time assertion in `source`.
fn vacuous(source: &str) -> Vec<(usize, String)> {
    let lines: Vec<&str> = source.lines().collect();
    let mut found = Vec::new();
    for (at, line) in lines.iter().enumerate() {
        let Some((_, bound)) = line.split_once("elapsed() <") else {
            continue;
        };
        let bound = bound
            .trim_start_matches(['=', ' '])
            .split([',', ')', ';', ' '])
            .next()
            .unwrap_or_default()
            .trim();
        if bound.is_empty() || !line.contains("assert") {
            continue;
        }
        let bounded_call = lines[at.saturating_sub(WINDOW)..at].iter().any(|before| {
            before.contains(&format!("({bound})")) || before.contains(&format!(", {bound})"))
        });
        if bounded_call {
            found.push((at + 1, line.trim().to_string()));
        }
    }
    found
}

#[test]
fn the_lint_finds_the_pattern_and_passes_a_real_bound() {
    let seeded = "    let started = Instant::now();\n    let (code, _, stderr) = live.finish(LIMIT);\n    assert!(started.elapsed() < LIMIT, \"{stderr}\");\n";
    assert_eq!(
        vacuous(seeded).len(),
        1,
        "the lint must catch its own example"
    );
    let ran = "    let out = run(cmd, LIMIT);\n    assert!(t.elapsed() < LIMIT);\n";
    assert_eq!(vacuous(ran).len(), 1);
    // A bound below the helper's limit can fail: it says the run ended early.
    let real = "    let out = run(cmd, Duration::from_secs(40));\n    assert!(started.elapsed() < Duration::from_secs(25), \"ended by the timeout\");\n";
    assert!(vacuous(real).is_empty());
}

#[test]
fn no_test_asserts_an_elapsed_time_its_helper_already_bounds() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/it");
    let mut found = Vec::new();
    let mut dirs = vec![root];
    while let Some(dir) = dirs.pop() {
        for entry in std::fs::read_dir(&dir).expect("tests/it") {
            let path = entry.expect("entry").path();
            if path.is_dir() {
                dirs.push(path);
            } else if path.extension().is_some_and(|e| e == "rs")
                && path.file_name().is_some_and(|n| n != "test_lint.rs")
            {
                let source = std::fs::read_to_string(&path).expect("source");
                for (line, text) in vacuous(&source) {
                    found.push(format!("{}:{line}: {text}", path.display()));
                }
            }
        }
    }
    assert!(
        found.is_empty(),
        "assertions that cannot fail:\n{}",
        found.join("\n")
    );
}

/// A skip passes CI only where `.ci/skips-allowed` says why (issue 60): `.ci/check-skips` fails
/// naming a skip it does not allow, and a skip that cannot be recorded fails its test.
#[test]
fn ci_fails_on_a_skip_it_does_not_allow() {
    let dir = tempfile::tempdir().expect("temp dir");
    let check = |skips: &str| {
        let file = dir.path().join("skipped-tests.txt");
        std::fs::write(&file, skips).expect("skip file");
        let script = Path::new(env!("CARGO_MANIFEST_DIR")).join(".ci/check-skips");
        let out = std::process::Command::new(script)
            .arg(&file)
            .output()
            .expect("check-skips runs");
        (
            out.status.code(),
            String::from_utf8_lossy(&out.stderr).into_owned(),
        )
    };
    let allowed = "SKIPPED tls::ipv6_loopback_works_where_the_machine_has_it: no IPv6 loopback\n";
    assert_eq!(check(allowed), (Some(0), String::new()));
    assert_eq!(check(""), (Some(0), String::new()));
    let (code, stderr) = check(&format!("{allowed}SKIPPED fleet::big: no time\n"));
    assert_eq!(code, Some(1));
    assert_eq!(
        stderr.lines().collect::<Vec<_>>(),
        [
            "error: fleet::big skipped, and .ci/skips-allowed does not allow it".replace(
                ".ci/skips-allowed",
                &Path::new(env!("CARGO_MANIFEST_DIR"))
                    .join(".ci/skips-allowed")
                    .display()
                    .to_string()
            )
        ]
    );
    // A skip file that is a directory cannot be appended to: the skip says so, never silently.
    assert!(crate::harness::tools::record_skip(dir.path(), "SKIPPED x: y").is_err());
}
