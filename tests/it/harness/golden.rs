//! Golden files under tests/golden/ (kubectl's recorded output) and the diff shown when kw's
//! output differs from one.

use std::path::{Path, PathBuf};

/// The path of a golden file under tests/golden/.
pub fn golden_path(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests")
        .join("golden")
        .join(name)
}

/// The tab-separated fields of case `name` (its first field) in `table`, a .tsv under
/// tests/golden/.
pub fn case_fields(table: &str, name: &str) -> Vec<String> {
    let cases = std::fs::read_to_string(golden_path(table)).expect("cases");
    let line = cases
        .lines()
        .find(|l| l.split('\t').next() == Some(name))
        .unwrap_or_else(|| panic!("no case {name} in {table}"));
    line.split('\t').map(String::from).collect()
}

/// Every case named in the first column of `table` (a .tsv under tests/golden/) is quoted in
/// `source` (a test file's text): a recorded case with no test checking it fails here.
pub fn assert_every_case_quoted(table: &str, source: &str) {
    let cases = std::fs::read_to_string(golden_path(table)).expect("cases");
    let unchecked: Vec<&str> = cases
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .filter_map(|l| l.split('\t').next())
        .filter(|name| !source.contains(&format!("\"{name}\"")))
        .collect();
    assert!(
        unchecked.is_empty(),
        "{table}: cases without a test: {unchecked:?}"
    );
}

/// Compare with a golden file, showing both on mismatch.
pub fn assert_golden(name: &str, actual: &str) {
    let path = golden_path(name);
    let expected = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("reading golden file {}: {e}", path.display()));
    if expected != actual {
        panic!(
            "output differs from {} (- kubectl, + kw):\n{}",
            path.display(),
            line_diff(&expected, actual)
        );
    }
}

/// The lines that differ, with two lines of context: `-` kubectl's, `+` kw's, and a visible
/// end of line so that trailing spaces (column padding) show.
fn line_diff(expected: &str, actual: &str) -> String {
    let old: Vec<&str> = expected.split('\n').collect();
    let new: Vec<&str> = actual.split('\n').collect();
    // The common head and tail; what lies between is the difference.
    let head = old.iter().zip(&new).take_while(|(a, b)| a == b).count();
    let tail = old[head..]
        .iter()
        .rev()
        .zip(new[head..].iter().rev())
        .take_while(|(a, b)| a == b)
        .count();
    let shown = |line: &str| format!("{line}⏎");
    let mut out = String::new();
    for line in &old[head.saturating_sub(2)..head] {
        out.push_str(&format!("  {}\n", shown(line)));
    }
    for line in &old[head..old.len() - tail] {
        out.push_str(&format!("- {}\n", shown(line)));
    }
    for line in &new[head..new.len() - tail] {
        out.push_str(&format!("+ {}\n", shown(line)));
    }
    for line in old[old.len() - tail..].iter().take(2) {
        out.push_str(&format!("  {}\n", shown(line)));
    }
    out
}

#[test]
fn golden_diffs_show_only_the_lines_that_differ() {
    let diff = line_diff("a\nb\nc\nd\ne\n", "a\nb\nX \nd\ne\n");
    assert_eq!(diff, "  a⏎\n  b⏎\n- c⏎\n+ X ⏎\n  d⏎\n  e⏎\n");
}
