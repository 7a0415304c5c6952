//! Lists a hostile server never finishes (issue #45 item 4): `--timeout` bounds the first LIST
//! of `rollout status TYPE` and `rollout status -l` as it bounds every request, and a server
//! that answers page after page, each with a new continue token, is read up to a bound
//! (`MAX_LIST_PAGES`, 10,000) and then refused with an error naming it, never for ever. A
//! fleet's first context whose list trickles does not hold up the others' (issue 61, point 4).

use std::time::{Duration, Instant};

use super::{core_discovery, is_pod_list, kubeconfig_for, kw_in, Answer, Hostile, LIMIT};
use crate::harness::run;

/// `rollout status pods` and `rollout status pods -l app=web` at `--timeout=2s` against a
/// server that never answers the pod list: exit 3 with kubectl's timeout line, in about 2 s
/// (before: the list hung until the client's 60 s read timeout).
#[test]
fn the_first_list_of_rollout_status_ends_at_the_timeout() {
    let server = Hostile::serve(|path| match path {
        p if is_pod_list(p) => Answer::Stall,
        "/api/v1" => core_discovery(),
        _ => Answer::NotFound,
    });
    let (home, config) = kubeconfig_for(&server.url);
    for selector in [None, Some("app=web")] {
        let mut cmd = kw_in(home.path());
        cmd.args(["rollout", "status", "pods", "--timeout=2s"])
            .args(selector.map(|s| format!("--selector={s}")))
            .arg("--kubeconfig")
            .arg(&config);
        let started = Instant::now();
        let outcome = run(cmd, Duration::from_secs(30));
        let took = started.elapsed();
        assert_eq!(outcome.code, Some(3), "{selector:?}: {outcome:#?}");
        assert!(
            outcome
                .stderr
                .contains("error: timed out waiting for the condition"),
            "{}",
            outcome.stderr
        );
        assert!(took < Duration::from_secs(10), "{selector:?}: {took:?}");
    }
    assert!(server.asked().iter().any(|p| is_pod_list(p)));
}

/// A server whose every pod list page carries a new continue token: kw stops after 10,000
/// pages with an error naming the bound (exit 6), instead of reading for ever.
#[test]
fn a_list_that_pages_for_ever_is_refused_after_the_bound() {
    let page = std::sync::atomic::AtomicU64::new(0);
    let server = Hostile::serve(move |path| match path {
        p if is_pod_list(p) => {
            let n = page.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
            Answer::json(format!(
                r#"{{"kind":"PodList","apiVersion":"v1","metadata":{{"resourceVersion":"1","continue":"page-{n}"}},"items":[]}}"#
            ))
        }
        "/api/v1" => core_discovery(),
        _ => Answer::NotFound,
    });
    let (home, config) = kubeconfig_for(&server.url);
    let mut cmd = kw_in(home.path());
    cmd.args(["get", "pods", "--timeout=50s"])
        .arg("--kubeconfig")
        .arg(&config);
    let outcome = run(cmd, LIMIT);
    assert_eq!(outcome.code, Some(6), "{outcome:#?}");
    assert!(
        outcome
            .stderr
            .contains("more than 10000 pages for the list"),
        "{}",
        outcome.stderr
    );
    let lists = server.asked().iter().filter(|p| is_pod_list(p)).count();
    assert_eq!(lists, 10_000, "pages asked");
}

/// `kw get pods` over three contexts, the first a server whose pod list trickles a byte every
/// 2 s, the other two the sim (issue 61, point 4): the sim's contexts are printed after 5 s,
/// and kw says the trickling one is late, instead of printing nothing for as long as the list
/// takes (150 s with nothing printed, in the audit).
#[test]
fn a_first_context_whose_list_trickles_does_not_hold_up_a_one_shot_fleet() {
    use base64::Engine as _;
    let list =
        r#"{"kind":"PodList","apiVersion":"v1","metadata":{"resourceVersion":"1"},"items":[]}"#;
    let server = Hostile::serve(move |path| match path {
        p if is_pod_list(p) => Answer::Trickle(list.as_bytes().to_vec()),
        "/api/v1" => core_discovery(),
        _ => Answer::NotFound,
    });
    let cluster = crate::harness::Cluster::seeded();
    let home = tempfile::tempdir().expect("temp dir");
    let config = serde_json::json!({
        "apiVersion": "v1",
        "kind": "Config",
        "current-context": "slow",
        "clusters": [
            {"name": "slow", "cluster": {"server": server.url}},
            {"name": "sim", "cluster": {
                "server": cluster.sim.url(),
                "certificate-authority-data":
                    base64::engine::general_purpose::STANDARD.encode(cluster.sim.ca_pem()),
            }},
        ],
        "contexts": [
            {"name": "slow", "context": {"cluster": "slow", "user": "nobody", "namespace": "default"}},
            {"name": "one", "context": {"cluster": "sim", "user": "admin", "namespace": "default"}},
            {"name": "two", "context": {"cluster": "sim", "user": "admin", "namespace": "default"}},
        ],
        "users": [
            {"name": "nobody", "user": {"token": "not-a-secret"}},
            {"name": "admin", "user": {"token": cluster.sim.admin_token()}},
        ],
    });
    let path = home.path().join("kubeconfig");
    std::fs::write(&path, config.to_string()).expect("kubeconfig");
    let mut cmd = kw_in(home.path());
    cmd.args([
        "get",
        "pods",
        "-o",
        "name",
        "--context",
        "slow,one,two",
        "--kubeconfig",
    ])
    .arg(&path);
    let mut live = crate::harness::Live::spawn(&mut cmd);
    let lines = live.lines_until(LIMIT, |line| line.starts_with("two/"));
    assert!(
        lines.iter().all(|line| !line.starts_with("slow/")),
        "{lines:?}"
    );
    assert!(lines[0].starts_with("one/"), "the fleet's order: {lines:?}");
    let stderr = live.kill();
    assert!(
        stderr.contains("context \"slow\": no answer after 5s"),
        "{stderr}"
    );
    assert!(server.asked().iter().any(|p| is_pod_list(p)));
}
