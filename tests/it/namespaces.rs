//! Several namespaces in one `kw get`: `-n a,b` and `-n 'team-*'` print what `-A` prints for
//! those namespaces, a glob picks up a namespace created during the watch, and a user allowed in
//! only some namespaces gets those with one line naming the others.

use std::time::Duration;

use serde_json::json;

use crate::harness::{self, Cluster, Live};

const LIMIT: Duration = Duration::from_secs(30);

/// A table's cells, line by line (column widths depend on the rows shown, so they differ).
fn cells(table: &str) -> Vec<Vec<String>> {
    table
        .lines()
        .map(|line| line.split_whitespace().map(str::to_string).collect())
        .collect()
}

/// The cells of `kw get pods -A` (and its header) in the rows whose namespace passes `keep`.
fn all_namespaces_filtered(cluster: &Cluster, keep: impl Fn(&str) -> bool) -> Vec<Vec<String>> {
    let all = harness::run(cluster.get(&["pods", "-A"]), LIMIT);
    assert_eq!(all.code, Some(0), "{}", all.stderr);
    let mut rows = cells(&all.stdout);
    let header = rows.remove(0);
    std::iter::once(header)
        .chain(rows.into_iter().filter(|row| keep(&row[0])))
        .collect()
}

#[test]
fn a_list_and_a_glob_print_what_all_namespaces_prints_for_them() {
    let cluster = Cluster::seeded();
    for (flag, keep) in [
        (
            "team-a,kube-system",
            &(|ns: &str| ns == "team-a" || ns == "kube-system") as &dyn Fn(&str) -> bool,
        ),
        ("team-*", &|ns: &str| ns.starts_with("team-")),
        ("team-?,default", &|ns: &str| {
            ns == "default" || (ns.starts_with("team-") && ns.len() == 6)
        }),
    ] {
        let expected = all_namespaces_filtered(&cluster, keep);
        assert!(expected.len() > 2, "{flag}: the seed has pods there");
        let got = harness::run(cluster.get(&["pods", "-n", flag]), LIMIT);
        assert_eq!(got.code, Some(0), "{flag}: {}", got.stderr);
        assert_eq!(cells(&got.stdout), expected, "-n {flag}");
    }
    // Placed before `get`, as kubectl's global flag, it means the same.
    let mut before = cluster.kw();
    before
        .args(["-n", "team-*", "get", "pods", "--kubeconfig"])
        .arg(&cluster.kubeconfig);
    let got = harness::run(before, LIMIT);
    assert_eq!(
        cells(&got.stdout),
        all_namespaces_filtered(&cluster, |ns| ns.starts_with("team-"))
    );
}

#[test]
fn a_glob_picks_up_a_namespace_created_during_the_watch() {
    let cluster = Cluster::seeded();
    let live = Live::spawn(&mut cluster.get(&["pods", "-n", "team-*", "-w", "-o", "name"]));
    let listed = live.lines_until(LIMIT, |line| line.contains("frontend"));
    assert!(!listed.is_empty());
    cluster
        .sim
        .create("namespaces", json!({"metadata": {"name": "team-new"}}))
        .unwrap();
    for (namespace, name) in [("elsewhere", "ignored-1"), ("team-new", "arrived-1")] {
        cluster
            .sim
            .create(
                "pods",
                json!({"metadata": {"name": name, "namespace": namespace}}),
            )
            .unwrap();
    }
    let seen = live.lines_until(LIMIT, |line| line.contains("arrived-1"));
    assert!(seen.iter().any(|l| l == "pod/arrived-1"), "{seen:?}");
    let stderr = live.stop();
    assert!(
        !seen.iter().chain(&listed).any(|l| l.contains("ignored-1")),
        "{seen:?} {stderr}"
    );
}

#[test]
fn a_user_allowed_in_some_namespaces_gets_those_and_one_line_about_the_rest() {
    let cluster = Cluster::seeded();
    let got = harness::run(
        cluster.get(&["pods", "-n", "team-a,team-b", "--context", "sim-limited"]),
        LIMIT,
    );
    assert_eq!(got.code, Some(0), "{}", got.stderr);
    let expected = all_namespaces_filtered(&cluster, |ns| ns == "team-a");
    assert_eq!(cells(&got.stdout), expected);
    assert_eq!(
        got.stderr,
        "kw: listing pods is forbidden in namespace team-b; showing the others\n"
    );
}

#[test]
fn bad_namespace_sets_are_refused_by_name() {
    let cluster = Cluster::seeded();
    for (flag, words) in [
        ("team-a,,b", "an empty name"),
        ("Team-*", "\"Team-*\" contains 'T'"),
    ] {
        let got = harness::run(cluster.get(&["pods", "-n", flag]), LIMIT);
        assert_eq!(got.code, Some(1), "{flag}: {got:?}");
        assert!(
            got.stderr
                .starts_with(&format!("error: invalid --namespace \"{flag}\""))
                && got.stderr.contains(words),
            "{flag}: {}",
            got.stderr
        );
        assert!(got.stdout.is_empty());
    }
    let named = harness::run(cluster.get(&["pods", "web", "-n", "a,b"]), LIMIT);
    assert_eq!(named.code, Some(1));
    assert!(named
        .stderr
        .contains("cannot be retrieved by name across several namespaces"));
}

/// Wait until the file `path` (kw's stderr) contains `needle`; its text then.
fn wait_for_file(path: &std::path::Path, needle: &str) -> String {
    let deadline = std::time::Instant::now() + LIMIT;
    loop {
        let text = std::fs::read_to_string(path).unwrap_or_default();
        if text.contains(needle) {
            return text;
        }
        assert!(
            std::time::Instant::now() < deadline,
            "stderr never said {needle:?}; it has:\n{text}"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
}

#[test]
fn a_watch_in_a_missing_namespace_says_so_once_and_waits_for_it() {
    let cluster = Cluster::seeded();
    let stderr = cluster.dir.path().join("missing-ns.err");
    let live = Live::spawn_stderr_to(
        &mut cluster.get(&["pods,deployments", "-n", "nosuchns", "-w", "-o", "name"]),
        &stderr,
    );
    let notice = "kw: namespace \"nosuchns\" does not exist yet; waiting for it to be created\n";
    wait_for_file(&stderr, notice);
    cluster
        .sim
        .create("namespaces", json!({"metadata": {"name": "nosuchns"}}))
        .unwrap();
    cluster
        .sim
        .create(
            "pods",
            json!({"metadata": {"name": "arrived", "namespace": "nosuchns"}}),
        )
        .unwrap();
    let seen = live.lines_until(LIMIT, |line| line == "pod/arrived");
    assert_eq!(seen, ["pod/arrived"]);
    let said = live.stop();
    // Two watches (pods, deployments) met the missing namespace: one line.
    assert_eq!(said, notice);

    // A namespace that exists but is empty is nothing to say.
    cluster
        .sim
        .create("namespaces", json!({"metadata": {"name": "quiet"}}))
        .unwrap();
    let live = Live::spawn(&mut cluster.get(&["pods", "-n", "quiet", "-w", "-o", "name"]));
    // The watch starts after the empty list (and after the look at the namespace).
    let deadline = std::time::Instant::now() + LIMIT;
    while !cluster
        .sim
        .requests()
        .iter()
        .any(|r| r.path.contains("/namespaces/quiet/pods") && r.path.contains("watch="))
    {
        assert!(std::time::Instant::now() < deadline, "no watch in quiet");
        std::thread::sleep(Duration::from_millis(20));
    }
    cluster
        .sim
        .create(
            "pods",
            json!({"metadata": {"name": "later", "namespace": "quiet"}}),
        )
        .unwrap();
    live.lines_until(LIMIT, |line| line == "pod/later");
    assert_eq!(live.stop(), "");

    // A one-shot list keeps kubectl's words, and only them.
    let listed = harness::run(cluster.get(&["pods", "-n", "gone"]), LIMIT);
    assert_eq!(listed.code, Some(0));
    assert_eq!(listed.stderr, "No resources found in gone namespace.\n");
}

#[test]
fn a_glob_that_matches_no_namespace_says_so_once_and_waits_for_one() {
    let cluster = Cluster::seeded();
    // Under -q nothing is said: the watch starts after the look at the namespaces.
    let live = Live::spawn(&mut cluster.get(&["pods", "-n", "nosuch*", "-w", "-q", "-o", "name"]));
    harness::wait_for("the quiet watch to start", LIMIT, || {
        cluster
            .sim
            .requests()
            .iter()
            .any(|r| r.path.starts_with("/api/v1/pods?") && r.path.contains("watch="))
    });
    assert_eq!(live.stop(), "");

    let stderr = cluster.dir.path().join("no-ns-matches.err");
    let live = Live::spawn_stderr_to(
        &mut cluster.get(&["pods,deployments", "-n", "nosuch*", "-w", "-o", "name"]),
        &stderr,
    );
    let notice = "kw: no namespace matches \"nosuch*\" yet; waiting for one to be created\n";
    wait_for_file(&stderr, notice);
    cluster
        .sim
        .create("namespaces", json!({"metadata": {"name": "nosuch-1"}}))
        .unwrap();
    cluster
        .sim
        .create(
            "pods",
            json!({"metadata": {"name": "arrived", "namespace": "nosuch-1"}}),
        )
        .unwrap();
    assert_eq!(
        live.lines_until(LIMIT, |line| line == "pod/arrived"),
        ["pod/arrived"]
    );
    // Two watches met the glob that matched nothing: one line.
    assert_eq!(live.stop(), notice);

    // A glob that matches a namespace, empty or not, is nothing to say.
    let out = harness::run(
        cluster.get(&[
            "pods",
            "-n",
            "kube-*,nosuch-*",
            "-w",
            "--timeout",
            "1s",
            "-o",
            "name",
        ]),
        LIMIT,
    );
    assert_eq!(out.stderr, "error: --timeout 1s ran out\n");
}
