//! Discovery as kube-apiserver serves it: /version, /api, /apis, the groups' resource lists, and
//! aggregated discovery chosen by the Accept header.

use kw_sim::SimConfig;
use serde_json::json;

use crate::client::{get, get_accepting, get_with};
use crate::harness::{empty_sim, start};

#[test]
fn discovery_documents() {
    let sim = empty_sim();
    let version = get_with(&sim, "/version", &[]);
    assert_eq!(version.status, 200);
    assert_eq!(version.json()["gitVersion"], "v1.32.0-kw-sim");
    assert_eq!(version.json()["minor"], "32");
    assert_eq!(get(&sim, "/api").json()["versions"], json!(["v1"]));
    let groups = get(&sim, "/apis").json();
    let group_names: Vec<&str> = groups["groups"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|g| g["name"].as_str())
        .collect();
    assert_eq!(group_names, ["apps", "batch", "example.com"]);
    let core = get(&sim, "/api/v1");
    assert_eq!(core.header("content-type"), Some("application/json"));
    let core = core.json();
    let pods = core["resources"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["name"] == "pods")
        .cloned()
        .unwrap();
    assert_eq!(pods["shortNames"], json!(["po"]));
    assert_eq!(pods["categories"], json!(["all"]));
    let widgets = get(&sim, "/apis/example.com/v1").json();
    assert_eq!(widgets["resources"][0]["kind"], "Widget");
    assert_eq!(get(&sim, "/apis/apps/v1").json()["groupVersion"], "apps/v1");
    let missing = get(&sim, "/api/v1/nonsense");
    assert_eq!(missing.status, 404);
    assert_eq!(
        missing.json()["message"],
        "the server could not find the requested resource"
    );
}

#[test]
fn aggregated_discovery_by_accept_with_its_profile_named() {
    let accept = kw_wire::AGGREGATED_DISCOVERY_ACCEPT;
    let sim = empty_sim();
    let apis = get_accepting(&sim, "/apis", accept);
    assert_eq!(apis.status, 200);
    assert_eq!(
        apis.header("content-type"),
        Some("application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList")
    );
    let apis = apis.json();
    assert_eq!(apis["kind"], "APIGroupDiscoveryList");
    assert_eq!(apis["apiVersion"], "apidiscovery.k8s.io/v2");
    let names: Vec<&str> = apis["items"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|g| g["metadata"]["name"].as_str())
        .collect();
    assert_eq!(names, ["apps", "batch", "example.com"]);
    let apps = &apis["items"][0]["versions"][0];
    assert_eq!(apps["version"], "v1");
    assert_eq!(apps["freshness"], "Current");
    assert_eq!(apps["resources"][0]["resource"], "deployments");
    assert_eq!(apps["resources"][0]["scope"], "Namespaced");
    let core = get_accepting(&sim, "/api", accept).json();
    assert_eq!(core["items"][0]["versions"][0]["version"], "v1");
    // v2beta1 alone is served as v2beta1; plain JSON is the legacy document.
    let beta = "application/json;g=apidiscovery.k8s.io;v=v2beta1;as=APIGroupDiscoveryList";
    let apis = get_accepting(&sim, "/apis", beta);
    assert_eq!(
        apis.header("content-type"),
        Some("application/json;g=apidiscovery.k8s.io;v=v2beta1;as=APIGroupDiscoveryList")
    );
    assert_eq!(apis.json()["apiVersion"], "apidiscovery.k8s.io/v2beta1");
    assert_eq!(get(&sim, "/apis").json()["kind"], "APIGroupList");

    // A sim that refuses it answers the legacy documents, or 406 when only it is acceptable.
    let old = start(SimConfig {
        empty: true,
        no_aggregated_discovery: true,
        down_groups: vec!["batch".into()],
        ..SimConfig::default()
    })
    .expect("sim starts");
    let apis = get_accepting(&old, "/apis", accept);
    assert_eq!(apis.header("content-type"), Some("application/json"));
    assert_eq!(apis.json()["kind"], "APIGroupList");
    assert_eq!(get_accepting(&old, "/apis", beta).status, 406);
    // A group whose aggregated API is down: 503 on its legacy document, Stale when aggregated.
    assert_eq!(get(&old, "/apis/batch/v1").status, 503);
    let down = start(SimConfig {
        empty: true,
        down_groups: vec!["batch".into()],
        ..SimConfig::default()
    })
    .expect("sim starts");
    let batch = &get_accepting(&down, "/apis", accept).json()["items"][1];
    assert_eq!(batch["metadata"]["name"], "batch");
    assert_eq!(batch["versions"][0]["freshness"], "Stale");
    assert_eq!(batch["versions"][0]["resources"], json!([]));
}
