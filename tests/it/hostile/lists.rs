//! Lists a hostile server never finishes (issue #45 item 4): `--timeout` bounds the first LIST
//! of `rollout status TYPE` and `rollout status -l` as it bounds every request, and a server
//! that answers page after page, each with a new continue token, is read up to a bound
//! (`MAX_LIST_PAGES`, 10,000) and then refused with an error naming it, never for ever.

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
