//! A hostile server's discovery names (issue #31 item 6): group, version and resource names go
//! into request paths, so a group named `apps/v1/namespaces/kube-system/secrets?x=` would make
//! `kw get widgets` ask for secrets. Only names the API allows are used; the others are left out
//! (as kubectl ignores what it cannot parse), with a note at `-v`.

use super::cache_race::table;
use super::{core_discovery, kubeconfig_for, kw_in, Answer, Hostile, LIMIT};
use crate::harness::{run, Outcome};

/// Group names no API server may send, each with a `widgets` type of its own.
const HOSTILE_GROUPS: [&str; 5] = [
    "apps/v1/namespaces/kube-system/secrets?x=",
    "..",
    "evil.example.com#",
    "evil\r\nX-Injected: 1",
    "Evil.Example.Com",
];

/// What no request path may hold if the names above were refused.
const NEVER_ASKED: [&str; 6] = ["secrets", "..", "#", "X-Injected", "Evil", "gadgets"];

fn resource(name: &str, kind: &str) -> serde_json::Value {
    serde_json::json!({"resource": name, "responseKind": {"group": "", "version": "v1", "kind": kind},
        "scope": "Namespaced", "singularResource": name.trim_end_matches('s'),
        "verbs": ["get", "list", "watch"]})
}

/// `/apis`, aggregated: `apps` with deployments (and a resource named `../gadgets`, and a version
/// named `v1/../..`), and every hostile group with widgets.
fn aggregated() -> String {
    let mut items = vec![
        serde_json::json!({"metadata": {"name": "apps"}, "versions": [
        {"version": "v1", "resources": [resource("deployments", "Deployment"),
                                        resource("../gadgets", "Gadget")]},
        {"version": "v1/../..", "resources": [resource("gadgets", "Gadget")]}]}),
    ];
    for group in HOSTILE_GROUPS {
        items.push(
            serde_json::json!({"metadata": {"name": group}, "versions": [
            {"version": "v1", "resources": [resource("widgets", "Widget")]}]}),
        );
    }
    serde_json::json!({"kind": "APIGroupDiscoveryList", "apiVersion": "apidiscovery.k8s.io/v2",
        "metadata": {}, "items": items})
    .to_string()
}

/// `/apis`, the legacy list of the same groups.
fn legacy() -> String {
    let groups: Vec<_> = std::iter::once("apps")
        .chain(HOSTILE_GROUPS)
        .map(|name| {
            serde_json::json!({"name": name,
                "versions": [{"groupVersion": format!("{name}/v1"), "version": "v1"}],
                "preferredVersion": {"groupVersion": format!("{name}/v1"), "version": "v1"}})
        })
        .collect();
    serde_json::json!({"kind": "APIGroupList", "apiVersion": "v1", "groups": groups}).to_string()
}

fn resource_list(group_version: &str, resources: &[(&str, &str)]) -> Answer {
    let resources: Vec<_> = resources
        .iter()
        .map(|(name, kind)| {
            serde_json::json!({"name": name, "singularName": "", "namespaced": true,
                "kind": kind, "verbs": ["get", "list", "watch"]})
        })
        .collect();
    Answer::json(
        serde_json::json!({"kind": "APIResourceList", "apiVersion": "v1",
            "groupVersion": group_version, "resources": resources})
        .to_string(),
    )
}

fn server(aggregated_discovery: bool) -> Hostile {
    Hostile::serve(move |path| match path {
        "/api" => Answer::json(r#"{"kind":"APIVersions","versions":["v1"]}"#),
        "/api/v1" => core_discovery(),
        "/apis" if aggregated_discovery => Answer::json(aggregated()),
        "/apis" => Answer::json(legacy()),
        "/apis/apps/v1" => resource_list(
            "apps/v1",
            &[("deployments", "Deployment"), ("../gadgets", "Gadget")],
        ),
        p if p.starts_with("/apis/apps/v1/namespaces/default/deployments") => table("a-deploy"),
        // Whatever else is asked (the test fails if a hostile name is), answered as if served.
        p if p.ends_with("/v1") => resource_list("x/v1", &[("widgets", "Widget")]),
        _ => table("planted"),
    })
}

fn kw_get(server: &Hostile, args: &[&str]) -> Outcome {
    let (home, config) = kubeconfig_for(&server.url);
    let mut cmd = kw_in(home.path());
    cmd.args(["get", "--kubeconfig"]).arg(&config).args(args);
    run(cmd, LIMIT)
}

#[test]
fn hostile_group_version_and_resource_names_never_reach_a_request_path() {
    for aggregated_discovery in [true, false] {
        let server = server(aggregated_discovery);
        let deployments = kw_get(&server, &["deployments", "-v", "4"]);
        assert_eq!(deployments.code, Some(0), "{deployments:#?}");
        assert_eq!(deployments.stdout, "NAME\na-deploy\n");
        let note = "discovery: ignoring group \"apps/v1/namespaces/kube-system/secrets?x=\" \
                    version \"v1\": not a valid group and version name";
        assert!(deployments.stderr.contains(note), "{}", deployments.stderr);
        assert!(
            deployments
                .stderr
                .contains(r#"ignoring group "evil\r\nX-Injected: 1""#),
            "a line break is shown as text: {}",
            deployments.stderr
        );

        // The only widgets are in groups that may not be named: there are none.
        let widgets = kw_get(&server, &["widgets"]);
        assert_eq!(widgets.code, Some(1), "{widgets:#?}");
        assert!(
            widgets
                .stderr
                .contains(r#"the server doesn't have a resource type "widgets""#),
            "{}",
            widgets.stderr
        );
        assert!(!widgets.stderr.contains("--as"), "{}", widgets.stderr);
        let gadgets = kw_get(&server, &["gadgets"]);
        assert_ne!(gadgets.code, Some(0), "{gadgets:#?}");

        let asked = server.asked();
        for path in &asked {
            for never in NEVER_ASKED {
                assert!(!path.contains(never), "{never:?} asked: {asked:#?}");
            }
        }
        assert!(!asked.iter().any(|p| p.contains("widgets")), "{asked:#?}");
    }
}
