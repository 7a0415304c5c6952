//! Deep objects (issue #45 item 1): the API server stores objects nested up to 10,000 levels,
//! and every verb reads one that deep as kubectl does (before: `get -w -o yaml`, `wait`,
//! `rollout status`, `get --until`, `get -w` and one-shot JSONPath aborted with a stack
//! overflow, exit 134, from about 7,000 levels in a debug build). Deeper ones, which only a
//! hostile server sends, are refused in one line naming the object (kubectl: `exceeded max
//! depth`), exit 6, never an abort.

use super::{kubeconfig_for, kw_in, Answer, Hostile, LIMIT};
use crate::harness::{run, tools, Outcome};

/// The API server's limit, counted from the object: `{}` is one level.
const MAX: usize = 10_000;

/// A Deployment whose `spec.deep` nests `levels - 2` objects around `leaf` (so that the whole
/// object nests `levels` deep), or arrays when `arrays` (whose YAML is one line); rolled out and
/// Available when `ready`, else its new generation not yet observed.
fn deployment(levels: usize, arrays: bool, leaf: &str, ready: bool) -> String {
    let inner = levels - 2;
    let deep = if arrays {
        format!("{}\"{leaf}\"{}", "[".repeat(inner), "]".repeat(inner))
    } else {
        format!("{}\"{leaf}\"{}", "{\"d\":".repeat(inner), "}".repeat(inner))
    };
    let observed = if ready { 1 } else { 0 };
    format!(
        r#"{{"apiVersion":"apps/v1","kind":"Deployment","metadata":{{"name":"web","namespace":"default","uid":"u-1","resourceVersion":"5","generation":1,"creationTimestamp":"2026-01-01T00:00:00Z"}},"spec":{{"replicas":1,"deep":{deep}}},"status":{{"observedGeneration":{observed},"replicas":1,"updatedReplicas":1,"readyReplicas":1,"availableReplicas":1,"conditions":[{{"type":"Available","status":"True","reason":"MinimumReplicasAvailable"}},{{"type":"Progressing","status":"True","reason":"NewReplicaSetAvailable"}}]}}}}"#
    )
}

/// A server with one Deployment `web`: `object` for a GET and in a list; a watch sends
/// `watched` as one MODIFIED event, then holds the stream open.
fn server(object: String, watched: String) -> Hostile {
    let list = format!(
        r#"{{"kind":"DeploymentList","apiVersion":"apps/v1","metadata":{{"resourceVersion":"5"}},"items":[{object}]}}"#
    );
    // A later resourceVersion than the list's: a new state, not one seen again.
    let watched = watched.replacen(r#""resourceVersion":"5""#, r#""resourceVersion":"6""#, 1);
    let event = format!("{{\"type\":\"MODIFIED\",\"object\":{watched}}}\n");
    Hostile::serve(move |path| {
        let (route, query) = path.split_once('?').unwrap_or((path, ""));
        match route {
            "/api" => Answer::json(r#"{"kind":"APIVersions","versions":["v1"]}"#),
            "/api/v1" => super::core_discovery(),
            "/apis" => Answer::json(
                r#"{"kind":"APIGroupList","apiVersion":"v1","groups":[{"name":"apps","versions":[{"groupVersion":"apps/v1","version":"v1"}],"preferredVersion":{"groupVersion":"apps/v1","version":"v1"}}]}"#,
            ),
            "/apis/apps/v1" => Answer::json(
                r#"{"kind":"APIResourceList","apiVersion":"v1","groupVersion":"apps/v1","resources":[{"name":"deployments","singularName":"deployment","namespaced":true,"kind":"Deployment","shortNames":["deploy"],"verbs":["get","list","watch"]}]}"#,
            ),
            "/apis/apps/v1/namespaces/default/deployments/web" => Answer::json(object.clone()),
            "/apis/apps/v1/namespaces/default/deployments" if query.contains("watch=") => {
                Answer::Stream(event.clone().into_bytes())
            }
            "/apis/apps/v1/namespaces/default/deployments" => Answer::json(list.clone()),
            _ => Answer::NotFound,
        }
    })
}

fn kw(home: &std::path::Path, config: &std::path::Path, args: &[&str]) -> Outcome {
    let mut cmd = kw_in(home);
    cmd.arg("--kubeconfig").arg(config).args(args);
    run(cmd, LIMIT)
}

fn no_abort(outcome: &Outcome, args: &[&str]) {
    for word in ["overflow", "panicked", "fatal"] {
        assert!(
            !outcome.stderr.contains(word),
            "{args:?}: {}",
            outcome.stderr
        );
    }
}

/// An object exactly as deep as the API server allows, nested objects all the way down: every
/// verb that aborted on it before reads it, judges it and prints it.
#[test]
fn an_object_as_deep_as_the_api_server_allows_is_read_by_every_verb() {
    let server = server(
        deployment(MAX, false, "bottom", true),
        deployment(MAX, false, "top", true),
    );
    let (home, config) = kubeconfig_for(&server.url);
    let cases: [(&[&str], &str); 7] = [
        (
            &["rollout", "status", "deployment/web", "--timeout=30s"],
            "deployment \"web\" successfully rolled out\n",
        ),
        (
            &[
                "wait",
                "--for=condition=Available",
                "deployment/web",
                "--timeout=30s",
            ],
            "deployment.apps/web condition met\n",
        ),
        (
            &[
                "get",
                "deploy",
                "web",
                "--until",
                "ready",
                "--timeout",
                "30s",
                "-o",
                "name",
            ],
            "deployment.apps/web\n",
        ),
        (
            &["get", "deploy", "-w", "--max-events", "2", "-o", "name"],
            "deployment.apps/web\ndeployment.apps/web\n",
        ),
        // The watch event's leaf changed, 10,000 levels down: `--diff` walks down to it.
        (
            &["get", "deploy", "-w", "--max-events", "2", "--diff"],
            ".d: bottom → top\n",
        ),
        (
            &["get", "deploy", "-w", "--max-events", "1", "-o", "yaml"],
            "d: bottom\n",
        ),
        (
            &[
                "get",
                "deploy",
                "web",
                "-o",
                "go-template={{.metadata.name}}",
            ],
            "web",
        ),
    ];
    for (args, expected) in cases {
        let outcome = kw(home.path(), &config, args);
        no_abort(&outcome, args);
        assert_eq!(outcome.code, Some(0), "{args:?}: {}", outcome.stderr);
        if expected.starts_with('.') {
            assert!(
                outcome.stdout.ends_with(expected),
                "{args:?}: {}",
                tail(&outcome.stdout)
            );
        } else if expected.starts_with('d') {
            assert!(
                outcome.stdout.contains(expected),
                "{args:?}: {}",
                tail(&outcome.stdout)
            );
        } else {
            assert_eq!(outcome.stdout, expected, "{args:?}");
        }
    }
}

fn tail(text: &str) -> &str {
    let mut from = text.len().saturating_sub(200);
    while !text.is_char_boundary(from) {
        from += 1;
    }
    &text[from..]
}

/// The same depth, as kubectl prints it: YAML (nested arrays, one line in YAML) and JSONPath's
/// compact JSON, byte for byte. (In a list, two levels deeper, kubectl refuses the object, its
/// decoder counting from the list; kw counts from the object, and prints it.)
#[test]
fn an_object_as_deep_as_the_api_server_allows_prints_as_kubectl_prints_it() {
    let object = deployment(MAX, true, "bottom", true);
    let server = server(object.clone(), object);
    let (home, config) = kubeconfig_for(&server.url);
    for args in [
        &["get", "deploy", "web", "-o", "yaml"][..],
        &["get", "deploy", "web", "-o", "jsonpath={.spec.deep}"],
    ] {
        let ours = kw(home.path(), &config, args);
        no_abort(&ours, args);
        assert_eq!(ours.code, Some(0), "{args:?}: {}", ours.stderr);
        let mut theirs = crate::harness::tools::command(tools::kubectl());
        theirs
            .env("HOME", home.path())
            .arg("--kubeconfig")
            .arg(&config)
            .args(args);
        let theirs = run(theirs, LIMIT);
        assert_eq!(theirs.code, Some(0), "kubectl {args:?}: {}", theirs.stderr);
        assert!(ours.stdout.contains("bottom"), "{args:?}");
        assert!(
            ours.stdout == theirs.stdout,
            "{args:?}: kw and kubectl differ"
        );
    }
}

/// One level more, and far more: refused in one line that names the object, exit 6, whether the
/// object comes from a GET, a list or a watch event, for every verb.
#[test]
fn an_object_deeper_than_the_api_server_allows_is_refused_in_one_line() {
    let every_verb: [&[&str]; 5] = [
        &["get", "deploy", "-w", "-o", "json"],
        &["get", "deploy", "-w"],
        &["rollout", "status", "deployment/web", "--timeout=30s"],
        &[
            "wait",
            "--for=condition=Available=False",
            "deployment/web",
            "--timeout=30s",
        ],
        &[
            "get",
            "deploy",
            "web",
            "--until",
            "delete",
            "--timeout",
            "30s",
        ],
    ];
    for levels in [MAX + 1, 100_000] {
        let deep = deployment(levels, false, "bottom", true);
        // The deep object from a GET and a list; then a shallow one, not rolled out, listed,
        // and the deep one in a watch event.
        let from_lists = server(deep.clone(), deep.clone());
        let from_watch = server(deployment(3, false, "x", false), deep);
        let one_shot: &[&str] = &["get", "deploy", "web", "-o", "yaml"];
        let runs = std::iter::once((&from_lists, one_shot))
            .chain(every_verb.iter().map(|args| (&from_lists, *args)))
            .chain(every_verb.iter().map(|args| (&from_watch, *args)));
        for (server, args) in runs {
            let (home, config) = kubeconfig_for(&server.url);
            let outcome = kw(home.path(), &config, args);
            no_abort(&outcome, args);
            assert_eq!(
                outcome.code,
                Some(6),
                "{levels} {args:?}: {}",
                outcome.stderr
            );
            let refusal: Vec<&str> = outcome
                .stderr
                .lines()
                .filter(|line| line.contains("exceeded max depth"))
                .collect();
            assert_eq!(
                refusal,
                ["error: deployment.apps/web: exceeded max depth: it nests more than 10000 levels, the API server's limit"],
                "{levels} {args:?}: {}",
                outcome.stderr
            );
        }
    }
}
