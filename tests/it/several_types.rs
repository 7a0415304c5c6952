//! A table watch of several types (`kw get pods,deploy -w`; kubectl refuses it: "you may only
//! specify a single resource type"): the initial lists as a one-shot prints them (kubectl's
//! golden, the types in the order asked, a blank line between), then every event under the
//! one header of its type, laid out in that type's widths.

use std::time::{Duration, Instant};

use kw_sim::SimConfig;

use crate::harness::{golden_path, run, Cluster, Live};

const LIMIT: Duration = Duration::from_secs(30);

#[test]
fn the_lists_of_a_watch_are_the_one_shot_tables_in_the_order_asked() {
    let cluster = Cluster::seeded();
    let golden =
        std::fs::read_to_string(golden_path("several_types_asked_order.out")).expect("golden");
    let expected: Vec<&str> = golden.lines().collect();
    // The three lists are read at once, on three threads: each order of arrival is likely in a
    // few runs, and each must print the order asked.
    for _ in 0..3 {
        let live = Live::spawn(&mut cluster.get(&["rs,deploy,pods", "-n", "team-a", "-w"]));
        let mut got = Vec::new();
        while got.len() < expected.len() {
            match live.next_line(LIMIT) {
                Some(line) => got.push(line),
                None => break,
            }
        }
        assert_eq!(got, expected, "the initial lists of the watch");
        // The watch goes on, silent: the clock is frozen and nothing changes.
        assert_eq!(live.next_line(Duration::from_millis(300)), None);
        live.stop();
    }
    // Ended by --max-events within the lists: what was printed still goes out in order, the
    // last table after its blank line.
    let rows = expected
        .iter()
        .filter(|l| !l.is_empty() && !l.starts_with("NAME "))
        .count();
    let max = rows.to_string();
    let ended = run(
        cluster.get(&["rs,deploy,pods", "-n", "team-a", "-w", "--max-events", &max]),
        LIMIT,
    );
    assert_eq!(ended.code, Some(0), "{}", ended.stderr);
    assert_eq!(ended.stdout, golden);
}

/// The cells of a table line: runs of two spaces or more part them (a cell such as
/// `3 (8s ago)` has single spaces).
fn cells(line: &str) -> Vec<&str> {
    line.split("  ")
        .map(str::trim)
        .filter(|cell| !cell.is_empty())
        .collect()
}

/// Where each cell of `line` starts.
fn offsets(line: &str) -> Vec<usize> {
    let bytes = line.as_bytes();
    (0..bytes.len())
        .filter(|&i| bytes[i] != b' ' && (i == 0 || (i >= 2 && &bytes[i - 2..i] == b"  ")))
        .collect()
}

/// Where kubectl's tabwriter starts each cell of a table of `lines` (three spaces of padding).
fn laid_out(lines: &[&str]) -> Vec<usize> {
    let rows: Vec<Vec<&str>> = lines.iter().map(|l| cells(l)).collect();
    let columns = rows.iter().map(Vec::len).max().unwrap_or(0);
    let mut at = 0;
    let mut starts = Vec::new();
    for column in 0..columns {
        starts.push(at);
        let width = rows
            .iter()
            .filter_map(|r| r.get(column))
            .map(|c| c.chars().count())
            .max()
            .unwrap_or(0);
        at += width + 3;
    }
    starts
}

#[test]
fn a_watch_only_pipe_of_several_types_has_one_header_per_type_in_its_widths() {
    let cluster = Cluster::start(SimConfig {
        churn: Some(20.0),
        seed: 3,
        ..SimConfig::default()
    });
    let live =
        Live::spawn(&mut cluster.get(&["pods,deploy", "-n", "team-a", "-w", "--watch-only"]));
    let deadline = Instant::now() + LIMIT;
    let mut lines = Vec::new();
    let kinds = |lines: &[String]| {
        ["pod/", "deployment.apps/"]
            .iter()
            .all(|kind| lines.iter().any(|l| l.starts_with(kind)))
    };
    while (lines.len() < 30 || !kinds(&lines)) && Instant::now() < deadline {
        match live.next_line(deadline.saturating_duration_since(Instant::now())) {
            Some(line) => lines.push(line),
            None => break,
        }
    }
    live.stop();
    assert!(kinds(&lines), "both types changed: {lines:#?}");
    let headers: Vec<usize> = (0..lines.len())
        .filter(|&i| lines[i].starts_with("NAME "))
        .collect();
    assert_eq!(headers.len(), 2, "one header per type: {lines:#?}");
    for &at in &headers {
        let header = &lines[at];
        let first = &lines[at + 1];
        let kind = &first[..=first.find('/').expect("TYPE/NAME")];
        // The header is laid out with its type's first row, as kubectl lays out a table, not in
        // widths another type left.
        assert_eq!(
            offsets(header),
            laid_out(&[header, first]),
            "{header:?} over {first:?}:\n{lines:#?}"
        );
        // Each later row in its type's widths: those of its header and the type's rows so far
        // (a column grows for a wider cell and stays grown, as kubectl's does), never another's.
        let mut table: Vec<&str> = vec![header];
        for row in lines[at + 1..].iter().filter(|l| l.starts_with(kind)) {
            table.push(row);
            assert_eq!(
                offsets(row),
                laid_out(&table),
                "{row:?} under {header:?}:\n{lines:#?}"
            );
        }
    }
    for line in &lines {
        assert!(
            line.starts_with("NAME ")
                || line.starts_with("pod/")
                || line.starts_with("deployment.apps/"),
            "{line:?}: every row says its type:\n{lines:#?}"
        );
    }
}
