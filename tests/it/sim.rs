//! The simulated API server over real TLS on loopback: discovery, list/get, selectors, paging,
//! resourceVersion semantics, watches (replay, 410, timeouts, bookmarks, streaming lists,
//! selector transitions, Tables), auth, every fault, flood mode, and kubectl against it.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::sync::Arc;
use std::time::Duration;

use crate::common::start_sim as start;
use kw_sim::{Faults, Flood, FloodFraming, SimConfig, SimHandle};
use rustls_pki_types::pem::PemObject;
use rustls_pki_types::{CertificateDer, PrivateKeyDer, ServerName};
use serde_json::{json, Value};

const TABLE_ACCEPT: &str = kw::wire::TABLE_ACCEPT;

trait Transport: Read + Write + Send {}
impl<T: Read + Write + Send> Transport for T {}

/// A raw HTTP/1.1 client connection, so tests see exactly what the server framed.
struct Conn {
    reader: BufReader<Box<dyn Transport>>,
}

enum Chunk {
    Data(Vec<u8>),
    /// The terminating chunk: a clean end.
    End,
    /// EOF or a broken chunk: the connection was dropped.
    Broken,
    /// Nothing arrived within the read timeout.
    Silent,
}

struct Response {
    status: u16,
    headers: Vec<(String, String)>,
    body: Vec<u8>,
}

impl Response {
    fn json(&self) -> Value {
        serde_json::from_slice(&self.body).unwrap_or(Value::Null)
    }
    fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(k, _)| k.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }
}

fn connect(sim: &SimHandle, client_cert: bool) -> Conn {
    let stream = TcpStream::connect(("127.0.0.1", sim.port())).expect("connect");
    stream
        .set_read_timeout(Some(Duration::from_secs(5)))
        .expect("timeout");
    if sim.url().starts_with("http://") {
        return Conn {
            reader: BufReader::new(Box::new(stream)),
        };
    }
    let provider = Arc::new(rustls::crypto::ring::default_provider());
    let mut roots = rustls::RootCertStore::empty();
    roots
        .add(CertificateDer::from_pem_slice(sim.ca_pem().as_bytes()).expect("ca pem"))
        .expect("add ca");
    let builder = rustls::ClientConfig::builder_with_provider(provider)
        .with_safe_default_protocol_versions()
        .expect("versions")
        .with_root_certificates(roots);
    let config = if client_cert {
        let (cert, key) = sim.client_cert_pem();
        builder
            .with_client_auth_cert(
                vec![CertificateDer::from_pem_slice(cert.as_bytes()).expect("cert")],
                PrivateKeyDer::from_pem_slice(key.as_bytes()).expect("key"),
            )
            .expect("client auth")
    } else {
        builder.with_no_client_auth()
    };
    let name = ServerName::try_from("127.0.0.1").expect("name");
    let connection = rustls::ClientConnection::new(Arc::new(config), name).expect("tls");
    Conn {
        reader: BufReader::new(Box::new(rustls::StreamOwned::new(connection, stream))),
    }
}

impl Conn {
    fn send(&mut self, path: &str, headers: &[(&str, &str)]) {
        let mut request = format!("GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\n");
        for (name, value) in headers {
            request.push_str(&format!("{name}: {value}\r\n"));
        }
        request.push_str("\r\n");
        let out = self.reader.get_mut();
        out.write_all(request.as_bytes()).expect("send");
        out.flush().expect("flush");
    }

    fn head(&mut self) -> (u16, Vec<(String, String)>) {
        let mut line = String::new();
        self.reader.read_line(&mut line).expect("status line");
        let status = line
            .split(' ')
            .nth(1)
            .and_then(|s| s.parse().ok())
            .unwrap_or(0);
        let mut headers = Vec::new();
        loop {
            let mut line = String::new();
            self.reader.read_line(&mut line).expect("header");
            let line = line.trim_end();
            if line.is_empty() {
                break;
            }
            if let Some((k, v)) = line.split_once(':') {
                headers.push((k.to_string(), v.trim().to_string()));
            }
        }
        (status, headers)
    }

    fn response(&mut self) -> Response {
        let (status, headers) = self.head();
        let length: usize = headers
            .iter()
            .find(|(k, _)| k.eq_ignore_ascii_case("content-length"))
            .and_then(|(_, v)| v.parse().ok())
            .unwrap_or(0);
        let mut body = vec![0; length];
        self.reader.read_exact(&mut body).expect("body");
        Response {
            status,
            headers,
            body,
        }
    }

    fn chunk(&mut self) -> Chunk {
        let mut size_line = String::new();
        match self.reader.read_line(&mut size_line) {
            Ok(0) => return Chunk::Broken,
            Ok(_) => {}
            Err(err)
                if matches!(
                    err.kind(),
                    std::io::ErrorKind::WouldBlock | std::io::ErrorKind::TimedOut
                ) =>
            {
                return Chunk::Silent
            }
            Err(_) => return Chunk::Broken,
        }
        let Ok(size) = usize::from_str_radix(size_line.trim(), 16) else {
            return Chunk::Broken;
        };
        let mut data = vec![0; size + 2];
        if self.reader.read_exact(&mut data).is_err() {
            return Chunk::Broken;
        }
        if size == 0 {
            return Chunk::End;
        }
        data.truncate(size);
        Chunk::Data(data)
    }

    /// Read watch events until `count` arrived or the stream ended; returns the events and how
    /// the reading stopped (`None` = count reached).
    fn events(&mut self, count: usize) -> (Vec<Value>, Option<&'static str>) {
        let mut events = Vec::new();
        while events.len() < count {
            match self.chunk() {
                Chunk::Data(data) => {
                    for line in data.split(|b| *b == b'\n').filter(|l| !l.is_empty()) {
                        events.push(serde_json::from_slice(line).unwrap_or(json!({"invalid":
                            String::from_utf8_lossy(line)})));
                    }
                }
                Chunk::End => return (events, Some("end")),
                Chunk::Broken => return (events, Some("broken")),
                Chunk::Silent => return (events, Some("silent")),
            }
        }
        (events, None)
    }
}

fn bearer(sim: &SimHandle) -> String {
    format!("Bearer {}", sim.admin_token())
}

fn get_with(sim: &SimHandle, path: &str, headers: &[(&str, &str)]) -> Response {
    let mut conn = connect(sim, false);
    conn.send(path, headers);
    conn.response()
}

/// GET as the admin, with an Accept header.
fn get_accepting(sim: &SimHandle, path: &str, accept: &str) -> Response {
    let auth = bearer(sim);
    get_with(sim, path, &[("Authorization", &auth), ("Accept", accept)])
}

fn get(sim: &SimHandle, path: &str) -> Response {
    let auth = bearer(sim);
    get_with(sim, path, &[("Authorization", &auth)])
}

fn watch(sim: &SimHandle, path: &str, accept: Option<&str>) -> (u16, Conn) {
    let auth = bearer(sim);
    let mut headers = vec![("Authorization", auth.as_str())];
    if let Some(accept) = accept {
        headers.push(("Accept", accept));
    }
    let mut conn = connect(sim, false);
    conn.send(path, &headers);
    let (status, _) = conn.head();
    (status, conn)
}

fn pod(namespace: &str, name: &str, labels: Value, phase: &str) -> Value {
    json!({"metadata": {"name": name, "namespace": namespace, "labels": labels},
        "spec": {"nodeName": "node-1"}, "status": {"phase": phase}})
}

fn empty_sim() -> SimHandle {
    start(SimConfig {
        empty: true,
        ..SimConfig::default()
    })
    .expect("start sim")
}

/// A sim with pods a-1, a-2 (team-a), d-1..d-3 (default).
fn populated_sim(config: SimConfig) -> SimHandle {
    let sim = start(SimConfig {
        empty: true,
        ..config
    })
    .expect("start sim");
    for (ns, name, app, phase) in [
        ("team-a", "a-1", "web", "Running"),
        ("team-a", "a-2", "db", "Pending"),
        ("default", "d-1", "web", "Running"),
        ("default", "d-2", "web", "Pending"),
        ("default", "d-3", "db", "Running"),
    ] {
        sim.create("pods", pod(ns, name, json!({"app": app}), phase))
            .expect("create");
    }
    sim
}

fn names(list: &Value) -> Vec<String> {
    list["items"]
        .as_array()
        .map(|items| {
            items
                .iter()
                .filter_map(|i| i["metadata"]["name"].as_str().map(String::from))
                .collect()
        })
        .unwrap_or_default()
}

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

#[test]
fn list_get_and_not_found() {
    let sim = populated_sim(SimConfig::default());
    let all = get(&sim, "/api/v1/pods");
    assert_eq!(all.status, 200);
    let list = all.json();
    assert_eq!(list["kind"], "PodList");
    assert_eq!(names(&list), ["d-1", "d-2", "d-3", "a-1", "a-2"]);
    assert!(
        list["items"][0].get("kind").is_none(),
        "items carry no kind"
    );
    assert_eq!(
        list["metadata"]["resourceVersion"],
        sim.current_resource_version().to_string()
    );
    assert_eq!(
        names(&get(&sim, "/api/v1/namespaces/team-a/pods").json()),
        ["a-1", "a-2"]
    );
    let one = get(&sim, "/api/v1/namespaces/default/pods/d-1").json();
    assert_eq!(
        (one["kind"].as_str(), one["apiVersion"].as_str()),
        (Some("Pod"), Some("v1"))
    );
    let missing = get(&sim, "/api/v1/namespaces/default/pods/nope");
    assert_eq!(missing.status, 404);
    let status = missing.json();
    assert_eq!(status["message"], "pods \"nope\" not found");
    assert_eq!(status["details"]["name"], "nope");
    assert_eq!(status["details"]["kind"], "pods");
    let namespaces = get(&sim, "/api/v1/namespaces").json();
    assert!(names(&namespaces).contains(&"team-a".to_string()));
}

#[test]
fn label_and_field_selectors() {
    let sim = populated_sim(SimConfig::default());
    let cases = [
        ("labelSelector=app%3Dweb", vec!["d-1", "d-2", "a-1"]),
        ("labelSelector=app!%3Dweb", vec!["d-3", "a-2"]),
        ("labelSelector=app+in+(db)", vec!["d-3", "a-2"]),
        ("labelSelector=!app", vec![]),
        ("fieldSelector=status.phase%3DPending", vec!["d-2", "a-2"]),
        ("fieldSelector=metadata.name%3Dd-1", vec!["d-1"]),
        (
            "fieldSelector=metadata.namespace!%3Ddefault,status.phase%3DRunning",
            vec!["a-1"],
        ),
    ];
    for (query, expected) in cases {
        let list = get(&sim, &format!("/api/v1/pods?{query}")).json();
        assert_eq!(names(&list), expected, "{query}");
    }
    let unsupported = get(&sim, "/api/v1/pods?fieldSelector=spec.foo%3D1");
    assert_eq!(unsupported.status, 400);
    assert_eq!(
        unsupported.json()["message"],
        "field label not supported: spec.foo"
    );
    assert_eq!(unsupported.json()["reason"], "BadRequest");
    let malformed = get(&sim, "/api/v1/pods?labelSelector=a+b");
    assert_eq!(malformed.status, 400);
    assert!(malformed.json()["message"]
        .as_str()
        .unwrap()
        .contains("found 'b'"));
}

#[test]
fn limit_continue_and_expired_continue() {
    let sim = populated_sim(SimConfig::default());
    let first = get(&sim, "/api/v1/pods?limit=2").json();
    assert_eq!(names(&first), ["d-1", "d-2"]);
    assert_eq!(first["metadata"]["remainingItemCount"], 3);
    let token = first["metadata"]["continue"].as_str().unwrap().to_string();
    // A change between pages must not show up: pages come from the first page's snapshot.
    sim.create("pods", pod("default", "d-0", json!({}), "Running"))
        .unwrap();
    let second = get(&sim, &format!("/api/v1/pods?limit=2&continue={token}")).json();
    assert_eq!(names(&second), ["d-3", "a-1"]);
    assert_eq!(
        second["metadata"]["resourceVersion"],
        first["metadata"]["resourceVersion"]
    );
    let token = second["metadata"]["continue"].as_str().unwrap().to_string();
    let third = get(&sim, &format!("/api/v1/pods?limit=2&continue={token}")).json();
    assert_eq!(names(&third), ["a-2"]);
    assert!(third["metadata"].get("continue").is_none());
    sim.compact();
    let expired = get(&sim, &format!("/api/v1/pods?limit=2&continue={token}"));
    assert_eq!(expired.status, 410);
    assert_eq!(expired.json()["reason"], "Expired");
    assert!(expired.json()["message"]
        .as_str()
        .unwrap()
        .starts_with("The provided continue parameter is too old"));
    assert_eq!(get(&sim, "/api/v1/pods?continue=garbage").status, 400);
}

#[test]
fn resource_version_semantics() {
    let sim = populated_sim(SimConfig::default());
    let current = sim.current_resource_version();
    assert_eq!(get(&sim, "/api/v1/pods?resourceVersion=0").status, 200);
    let exact = get(
        &sim,
        &format!("/api/v1/pods?resourceVersion={current}&resourceVersionMatch=Exact"),
    );
    assert_eq!(exact.status, 200);
    let old = get(
        &sim,
        "/api/v1/pods?resourceVersion=2&resourceVersionMatch=Exact",
    );
    assert_eq!(old.status, 410);
    let future = current + 100;
    let too_large = get(
        &sim,
        &format!("/api/v1/pods?resourceVersion={future}&resourceVersionMatch=NotOlderThan"),
    );
    assert_eq!(too_large.status, 504);
    assert_eq!(
        too_large.json()["details"]["causes"][0]["reason"],
        "ResourceVersionTooLarge"
    );
    assert!(too_large.json()["message"]
        .as_str()
        .unwrap()
        .contains("Too large resource version"));
}

#[test]
fn watch_replays_history_then_goes_live() {
    let sim = populated_sim(SimConfig::default());
    let from = sim.current_resource_version();
    sim.update(
        "pods",
        pod("default", "d-1", json!({"app": "web"}), "Succeeded"),
    )
    .unwrap();
    sim.delete("pods", "default", "d-2").unwrap();
    let (status, mut conn) = watch(
        &sim,
        &format!("/api/v1/pods?watch=1&resourceVersion={from}"),
        None,
    );
    assert_eq!(status, 200);
    let (events, _) = conn.events(2);
    let kinds: Vec<&str> = events.iter().filter_map(|e| e["type"].as_str()).collect();
    assert_eq!(kinds, ["MODIFIED", "DELETED"]);
    assert_eq!(events[0]["object"]["kind"], "Pod");
    assert_eq!(
        events[1]["object"]["metadata"]["resourceVersion"],
        (from + 2).to_string()
    );
    sim.create("pods", pod("default", "live", json!({}), "Running"))
        .unwrap();
    let (events, _) = conn.events(1);
    assert_eq!(events[0]["type"], "ADDED");
    assert_eq!(events[0]["object"]["metadata"]["name"], "live");
}

#[test]
fn watch_from_rv_zero_sends_synthetic_adds() {
    let sim = populated_sim(SimConfig::default());
    let (_, mut conn) = watch(
        &sim,
        "/api/v1/namespaces/team-a/pods?watch=true&resourceVersion=0",
        None,
    );
    let (events, _) = conn.events(2);
    assert!(events.iter().all(|e| e["type"] == "ADDED"));
    assert_eq!(events[1]["object"]["metadata"]["name"], "a-2");
}

#[test]
fn watch_from_too_old_rv_gets_410_event() {
    let sim = populated_sim(SimConfig {
        history: 2,
        ..SimConfig::default()
    });
    let (status, mut conn) = watch(&sim, "/api/v1/pods?watch=1&resourceVersion=1", None);
    assert_eq!(status, 200);
    let (events, ending) = conn.events(5);
    assert_eq!(ending, Some("end"));
    assert_eq!(events.len(), 1);
    assert_eq!(events[0]["type"], "ERROR");
    assert_eq!(events[0]["object"]["code"], 410);
    assert_eq!(events[0]["object"]["reason"], "Expired");
    assert!(events[0]["object"]["message"]
        .as_str()
        .unwrap()
        .starts_with("too old resource version: 1 ("));
}

#[test]
fn watch_timeout_ends_cleanly_and_bookmarks_arrive() {
    let sim = populated_sim(SimConfig {
        bookmark_interval: Duration::from_millis(200),
        ..SimConfig::default()
    });
    let rv = sim.current_resource_version();
    let (_, mut conn) = watch(
        &sim,
        &format!(
            "/api/v1/pods?watch=1&resourceVersion={rv}&allowWatchBookmarks=true&timeoutSeconds=1"
        ),
        None,
    );
    let (events, ending) = conn.events(100);
    assert_eq!(
        ending,
        Some("end"),
        "timeoutSeconds ends with the terminating chunk"
    );
    assert!(!events.is_empty());
    for event in &events {
        assert_eq!(event["type"], "BOOKMARK");
        assert_eq!(event["object"]["kind"], "Pod");
        assert_eq!(
            event["object"]["metadata"]["resourceVersion"],
            rv.to_string()
        );
    }
}

#[test]
fn streaming_list_ends_initial_events_with_bookmark() {
    let sim = populated_sim(SimConfig::default());
    let (status, mut conn) = watch(
        &sim,
        "/api/v1/namespaces/default/pods?watch=1&sendInitialEvents=true&resourceVersionMatch=NotOlderThan&allowWatchBookmarks=true",
        None,
    );
    assert_eq!(status, 200);
    let (events, _) = conn.events(4);
    let kinds: Vec<&str> = events.iter().filter_map(|e| e["type"].as_str()).collect();
    assert_eq!(kinds, ["ADDED", "ADDED", "ADDED", "BOOKMARK"]);
    assert_eq!(
        events[3]["object"]["metadata"]["annotations"]["k8s.io/initial-events-end"],
        "true"
    );
    let invalid = get(&sim, "/api/v1/pods?watch=1&sendInitialEvents=true");
    assert_eq!(invalid.status, 422);
    assert_eq!(invalid.json()["reason"], "Invalid");
}

#[test]
fn selector_watch_turns_transitions_into_added_and_deleted() {
    let sim = populated_sim(SimConfig::default());
    let rv = sim.current_resource_version();
    let (_, mut conn) = watch(
        &sim,
        &format!(
            "/api/v1/namespaces/default/pods?watch=1&resourceVersion={rv}&labelSelector=app%3Dweb"
        ),
        None,
    );
    sim.update(
        "pods",
        pod("default", "d-1", json!({"app": "other"}), "Running"),
    )
    .unwrap();
    sim.update(
        "pods",
        pod("default", "d-3", json!({"app": "web"}), "Running"),
    )
    .unwrap();
    sim.update(
        "pods",
        pod("default", "d-2", json!({"app": "web"}), "Running"),
    )
    .unwrap();
    let (events, _) = conn.events(3);
    let summary: Vec<(String, String)> = events
        .iter()
        .map(|e| {
            (
                e["type"].as_str().unwrap_or("").to_string(),
                e["object"]["metadata"]["name"]
                    .as_str()
                    .unwrap_or("")
                    .to_string(),
            )
        })
        .collect();
    assert_eq!(
        summary,
        [
            ("DELETED".to_string(), "d-1".to_string()),
            ("ADDED".to_string(), "d-3".to_string()),
            ("MODIFIED".to_string(), "d-2".to_string())
        ]
    );
    // The DELETED carries the previous content with the new resourceVersion.
    assert_eq!(events[0]["object"]["metadata"]["labels"]["app"], "web");
    assert_eq!(
        events[0]["object"]["metadata"]["resourceVersion"],
        (rv + 1).to_string()
    );
}

#[test]
fn tables_for_list_and_watch() {
    let sim = populated_sim(SimConfig::default());
    let auth = bearer(&sim);
    let list = get_with(
        &sim,
        "/api/v1/namespaces/default/pods",
        &[("Authorization", &auth), ("Accept", TABLE_ACCEPT)],
    );
    let table = list.json();
    assert_eq!(table["kind"], "Table");
    assert_eq!(table["apiVersion"], "meta.k8s.io/v1");
    assert!(table["columnDefinitions"]
        .as_array()
        .is_some_and(|c| !c.is_empty()));
    assert_eq!(table["rows"].as_array().map(Vec::len), Some(3));
    assert_eq!(table["rows"][0]["object"]["kind"], "PartialObjectMetadata");
    assert!(table["metadata"]["resourceVersion"].is_string());
    let full = get_with(
        &sim,
        "/api/v1/pods?includeObject=Object",
        &[("Authorization", &auth), ("Accept", TABLE_ACCEPT)],
    );
    assert_eq!(full.json()["rows"][0]["object"]["kind"], "Pod");
    let v1beta1 = get_with(
        &sim,
        "/api/v1/pods",
        &[
            ("Authorization", &auth),
            (
                "Accept",
                "application/json;as=Table;v=v1beta1;g=meta.k8s.io",
            ),
        ],
    );
    assert_eq!(v1beta1.status, 406);

    let (_, mut conn) = watch(
        &sim,
        "/api/v1/namespaces/default/pods?watch=1",
        Some(TABLE_ACCEPT),
    );
    let (events, _) = conn.events(3);
    assert_eq!(events[0]["object"]["kind"], "Table");
    assert!(events[0]["object"]["columnDefinitions"].is_array());
    assert!(events[1]["object"]["columnDefinitions"].is_null());
    assert!(events[2]["object"]["columnDefinitions"].is_null());
    assert_eq!(
        events[1]["object"]["rows"].as_array().map(Vec::len),
        Some(1)
    );
    assert!(events[1]["object"]["metadata"]["resourceVersion"].is_string());
}

#[test]
fn unauthorized_and_forbidden_bodies() {
    let sim = populated_sim(SimConfig::default());
    let anonymous = get_with(&sim, "/api/v1/pods", &[]);
    assert_eq!(anonymous.status, 401);
    assert_eq!(anonymous.json()["message"], "Unauthorized");
    let bad = get_with(&sim, "/api/v1/pods", &[("Authorization", "Bearer wrong")]);
    assert_eq!(bad.status, 401);
    let limited = format!("Bearer {}", sim.limited_token());
    let allowed = get_with(
        &sim,
        "/api/v1/namespaces/team-a/pods",
        &[("Authorization", &limited)],
    );
    assert_eq!(allowed.status, 200);
    let denied = get_with(
        &sim,
        "/api/v1/namespaces/default/pods",
        &[("Authorization", &limited)],
    );
    assert_eq!(denied.status, 403);
    let status = denied.json();
    assert_eq!(status["message"], "pods is forbidden: User \"limited\" cannot list resource \"pods\" in API group \"\" in the namespace \"default\"");
    assert_eq!(status["reason"], "Forbidden");
    assert_eq!(status["details"]["kind"], "pods");
    let cluster = get_with(&sim, "/api/v1/pods?watch=1", &[("Authorization", &limited)]);
    assert_eq!(cluster.status, 403);
    assert!(cluster.json()["message"]
        .as_str()
        .unwrap()
        .ends_with("cannot watch resource \"pods\" in API group \"\" at the cluster scope"));
    // The client certificate is a user of its own (system:masters).
    let mut conn = connect(&sim, true);
    conn.send("/api/v1/namespaces/default/pods", &[]);
    assert_eq!(conn.response().status, 200);
    // Requests are logged with the token redacted.
    let logged = sim.requests();
    let header = logged
        .iter()
        .flat_map(|r| r.headers.iter())
        .find(|(k, _)| k == "Authorization")
        .map(|(_, v)| v.clone());
    assert_eq!(header.as_deref(), Some("Bearer <redacted>"));
}

/// Watch with a fault set, after creating `extra` pods so there are events to count.
fn watch_with_fault(faults: Faults) -> (SimHandle, Conn) {
    let sim = populated_sim(SimConfig {
        faults,
        ..SimConfig::default()
    });
    let (status, conn) = watch(&sim, "/api/v1/pods?watch=1", None);
    assert_eq!(status, 200);
    (sim, conn)
}

#[test]
fn fault_close_after_drops_without_terminating_chunk() {
    let (_sim, mut conn) = watch_with_fault(Faults {
        close_after: Some(2),
        ..Faults::default()
    });
    let (events, ending) = conn.events(10);
    assert_eq!(events.len(), 2);
    assert_eq!(ending, Some("broken"));
}

#[test]
fn fault_cut_after_sends_half_a_chunk() {
    let (_sim, mut conn) = watch_with_fault(Faults {
        cut_after: Some(1),
        ..Faults::default()
    });
    let (events, ending) = conn.events(10);
    assert_eq!(events.len(), 1);
    assert_eq!(ending, Some("broken"));
}

#[test]
fn fault_expire_after_sends_410_and_ends() {
    let (_sim, mut conn) = watch_with_fault(Faults {
        expire_after: Some(3),
        ..Faults::default()
    });
    let (events, ending) = conn.events(10);
    assert_eq!(events.len(), 4);
    assert_eq!(events[3]["type"], "ERROR");
    assert_eq!(events[3]["object"]["code"], 410);
    assert_eq!(ending, Some("end"));
}

#[test]
fn fault_stall_keeps_the_connection_silent() {
    let sim = populated_sim(SimConfig {
        faults: Faults {
            stall_after: Some(1),
            stall_secs: 2,
            ..Faults::default()
        },
        ..SimConfig::default()
    });
    let (_, mut conn) = watch(&sim, "/api/v1/pods?watch=1", None);
    let (events, _) = conn.events(1);
    assert_eq!(events.len(), 1);
    // Nothing arrives for a while (read timeout 5 s > stall 2 s: then the drop).
    let started = std::time::Instant::now();
    let (more, ending) = conn.events(10);
    assert!(more.is_empty());
    assert_eq!(ending, Some("broken"));
    assert!(started.elapsed() >= Duration::from_millis(1500));
}

#[test]
fn fault_invalid_json_and_huge_object() {
    let (_sim, mut conn) = watch_with_fault(Faults {
        invalid_json_after: Some(1),
        huge_object_bytes: Some(200_000),
        ..Faults::default()
    });
    let (events, _) = conn.events(3);
    let padding = events[0]["object"]["metadata"]["annotations"]["kw.sim/padding"].as_str();
    assert_eq!(padding.map(str::len), Some(200_000));
    assert!(
        events[1].get("invalid").is_some(),
        "second line is not JSON"
    );
    assert_eq!(events[2]["type"], "ADDED");
}

#[test]
fn fault_list_and_watch_status_with_times() {
    let sim = populated_sim(SimConfig {
        faults: Faults {
            list_status: Some(429),
            list_count: 2,
            watch_status: Some(410),
            times: Some(1),
            ..Faults::default()
        },
        ..SimConfig::default()
    });
    for _ in 0..2 {
        let throttled = get(&sim, "/api/v1/pods");
        assert_eq!(throttled.status, 429);
        assert_eq!(throttled.header("retry-after"), Some("1"));
        assert_eq!(throttled.json()["reason"], "TooManyRequests");
    }
    assert_eq!(get(&sim, "/api/v1/pods").status, 200);
    let (first, mut conn) = watch(&sim, "/api/v1/pods?watch=1", None);
    assert_eq!(first, 410);
    assert!(conn.response_body_only() > 0, "a Status body follows");
    let (second, _) = watch(&sim, "/api/v1/pods?watch=1", None);
    assert_eq!(second, 200);
    sim.set_faults(Faults {
        list_status: Some(503),
        list_count: 1,
        ..Faults::default()
    });
    assert_eq!(get(&sim, "/api/v1/pods").status, 503);
    assert_eq!(get(&sim, "/api/v1/pods").status, 200);
}

impl Conn {
    fn response_body_only(&mut self) -> usize {
        let mut buffer = [0u8; 4096];
        self.reader.read(&mut buffer).unwrap_or(0)
    }
}

#[test]
fn flood_streams_n_events_then_ends() {
    let sim = start(SimConfig {
        empty: true,
        tls: false,
        flood: Some(Flood {
            watch_events: 5000,
            list_items: 1200,
            ..Flood::default()
        }),
        ..SimConfig::default()
    })
    .expect("start");
    assert!(sim.url().starts_with("http://"));
    let (_, mut conn) = watch(&sim, "/api/v1/pods?watch=1", None);
    let (events, ending) = conn.events(6000);
    assert_eq!(ending, Some("end"));
    assert_eq!(events.len(), 5000);
    assert!(events.iter().all(|e| e["type"] == "MODIFIED"));
    assert_eq!(events[4999]["object"]["metadata"]["name"], "flood-000199");
    let (_, mut conn) = watch(&sim, "/api/v1/pods?watch=1", Some(TABLE_ACCEPT));
    let (events, _) = conn.events(6000);
    assert_eq!(events.len(), 5000);
    assert!(events[0]["object"]["columnDefinitions"].is_array());
    assert!(events[1]["object"]["columnDefinitions"].is_null());
    let page = get(&sim, "/api/v1/pods?limit=1000").json();
    assert_eq!(page["items"].as_array().map(Vec::len), Some(1000));
    let token = page["metadata"]["continue"].as_str().unwrap().to_string();
    let rest = get(&sim, &format!("/api/v1/pods?limit=1000&continue={token}")).json();
    assert_eq!(rest["items"].as_array().map(Vec::len), Some(200));
}

/// Read a flood watch chunk by chunk: how many events each chunk held, until the clean end.
fn events_per_chunk(sim: &SimHandle, path: &str, limit: usize) -> Vec<usize> {
    let (status, mut conn) = watch(sim, path, None);
    assert_eq!(status, 200);
    let mut counts = Vec::new();
    for _ in 0..limit {
        match conn.chunk() {
            Chunk::Data(data) => counts.push(data.iter().filter(|b| **b == b'\n').count()),
            Chunk::End => return counts,
            Chunk::Broken | Chunk::Silent => panic!("flood watch did not end cleanly"),
        }
    }
    panic!("flood watch sent more than {limit} chunks");
}

/// kube-apiserver frames a busy watch as one HTTP chunk per event; the flood does too unless
/// asked to batch, and a streaming list's ADDED events and bookmark are framed the same way.
#[test]
fn flood_frames_one_event_per_chunk_unless_batched() {
    let flood = |framing| {
        start(SimConfig {
            empty: true,
            tls: false,
            flood: Some(Flood {
                watch_events: 300,
                list_items: 20,
                framing,
            }),
            ..SimConfig::default()
        })
        .expect("start")
    };
    let per_event = flood(FloodFraming::PerEvent);
    let counts = events_per_chunk(&per_event, "/api/v1/pods?watch=1", 1000);
    assert_eq!(counts.len(), 300);
    assert!(counts.iter().all(|&n| n == 1), "{counts:?}");
    let streaming = events_per_chunk(
        &per_event,
        "/api/v1/pods?watch=1&sendInitialEvents=true&resourceVersionMatch=NotOlderThan",
        1000,
    );
    assert_eq!(streaming.len(), 20 + 1 + 300);
    assert!(streaming.iter().all(|&n| n == 1), "{streaming:?}");
    let batched = flood(FloodFraming::Batched);
    let counts = events_per_chunk(&batched, "/api/v1/pods?watch=1", 1000);
    assert_eq!(counts.iter().sum::<usize>(), 300);
    assert!(counts.len() < 30, "batched into {} chunks", counts.len());
}

/// What benches/bench.sh relies on: kubectl sends no credentials over plain HTTP, a streaming
/// list gets the flood list before the flood, and a watch resuming after the flood gets a 400.
#[test]
fn flood_serves_streaming_lists_anonymous_http_and_ends_for_resumers() {
    let sim = start(SimConfig {
        empty: true,
        tls: false,
        flood: Some(Flood {
            watch_events: 30,
            list_items: 20,
            ..Flood::default()
        }),
        ..SimConfig::default()
    })
    .expect("start");
    let anonymous = get_with(&sim, "/api/v1/namespaces/default/pods?limit=5", &[]);
    assert_eq!(anonymous.status, 200);
    let (status, mut conn) = watch(
        &sim,
        "/api/v1/pods?watch=1&sendInitialEvents=true&resourceVersionMatch=NotOlderThan&allowWatchBookmarks=true",
        None,
    );
    assert_eq!(status, 200);
    let (events, ending) = conn.events(100);
    assert_eq!(ending, Some("end"));
    assert_eq!(events.len(), 20 + 1 + 30);
    assert!(events[..20].iter().all(|e| e["type"] == "ADDED"));
    assert_eq!(events[20]["type"], "BOOKMARK");
    assert_eq!(
        events[20]["object"]["metadata"]["annotations"]["k8s.io/initial-events-end"],
        "true"
    );
    let last = events[50]["object"]["metadata"]["resourceVersion"]
        .as_str()
        .expect("rv")
        .to_string();
    let (status, _) = watch(
        &sim,
        &format!("/api/v1/pods?watch=1&resourceVersion={last}"),
        None,
    );
    assert_eq!(status, 400);
}

#[test]
fn oversized_headers_get_431_and_garbage_400() {
    let sim = empty_sim();
    let big = "x".repeat(70 * 1024);
    let response = get_with(&sim, "/version", &[("X-Big", &big)]);
    assert_eq!(response.status, 431);
    let mut conn = connect(&sim, false);
    conn.reader
        .get_mut()
        .write_all(b"NONSENSE\r\n\r\n")
        .unwrap();
    assert_eq!(conn.response().status, 400);
}

#[test]
fn stop_closes_open_watches() {
    let sim = populated_sim(SimConfig::default());
    let (_, mut conn) = watch(&sim, "/api/v1/pods?watch=1", None);
    let (events, _) = conn.events(5);
    assert_eq!(events.len(), 5);
    let port = sim.port();
    sim.stop();
    let (_, ending) = conn.events(1);
    assert!(matches!(ending, Some("end") | Some("broken")), "{ending:?}");
    assert!(
        TcpStream::connect(("127.0.0.1", port)).is_err(),
        "listener closed"
    );
}

#[test]
fn kubectl_accepts_the_sim() {
    let kubectl = std::path::Path::new("/usr/bin/kubectl");
    if !kubectl.exists() {
        println!("skipping: /usr/bin/kubectl not found");
        return;
    }
    let sim = populated_sim(SimConfig::default());
    sim.create(
        "deployments",
        json!({"metadata": {"name": "web", "namespace": "default"},
        "spec": {"replicas": 2}}),
    )
    .unwrap();
    sim.create(
        "widgets",
        json!({"metadata": {"name": "gizmo", "namespace": "default"}}),
    )
    .unwrap();
    let home = tempfile::tempdir().expect("tempdir");
    let kubeconfig = home.path().join("config");
    sim.write_kubeconfig(&kubeconfig).expect("kubeconfig");
    let run = |args: &[&str]| {
        std::process::Command::new(kubectl)
            .arg("--kubeconfig")
            .arg(&kubeconfig)
            .args(args)
            .env("HOME", home.path())
            .env("KUBECACHEDIR", home.path().join("cache"))
            .output()
            .expect("run kubectl")
    };
    let pods = run(&["get", "pods", "-A"]);
    let stdout = String::from_utf8_lossy(&pods.stdout);
    assert!(
        pods.status.success(),
        "{}",
        String::from_utf8_lossy(&pods.stderr)
    );
    assert!(stdout.contains("a-1") && stdout.contains("d-3"), "{stdout}");
    let watched = run(&["get", "pods", "-w", "--request-timeout=3s"]);
    assert!(String::from_utf8_lossy(&watched.stdout).contains("d-1"));
    let resources = run(&["api-resources"]);
    let stdout = String::from_utf8_lossy(&resources.stdout);
    assert!(
        resources.status.success(),
        "{}",
        String::from_utf8_lossy(&resources.stderr)
    );
    assert!(
        stdout.contains("widgets") && stdout.contains("deployments"),
        "{stdout}"
    );
    let deploy = run(&["get", "deploy", "-o", "wide"]);
    assert!(
        deploy.status.success(),
        "{}",
        String::from_utf8_lossy(&deploy.stderr)
    );
    assert!(String::from_utf8_lossy(&deploy.stdout).contains("web"));
    let widgets = run(&["get", "widgets"]);
    assert!(
        widgets.status.success(),
        "{}",
        String::from_utf8_lossy(&widgets.stderr)
    );
    assert!(String::from_utf8_lossy(&widgets.stdout).contains("gizmo"));
    let bad = run(&["--context", "sim-bad-token", "get", "pods"]);
    assert!(!bad.status.success());
    assert!(String::from_utf8_lossy(&bad.stderr).contains("Unauthorized"));
}

/// Wait (bounded) until the sim's `resource` holds an object that `done` accepts.
fn wait_for_object(sim: &SimHandle, resource: &str, done: impl Fn(&Value) -> bool) -> Value {
    let deadline = std::time::Instant::now() + Duration::from_secs(20);
    loop {
        if let Some(found) = sim.objects(resource).into_iter().find(|o| done(o)) {
            return found;
        }
        assert!(
            std::time::Instant::now() < deadline,
            "no such {resource} within 20s"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// A crash-looping rollout serves the previous container's log as the API server does, with
/// `container`, `previous` and `tailLines`, and the API server's errors.
#[test]
fn a_crash_loop_serves_the_previous_containers_log() {
    use kw_sim::rollout::{Plot, Rollout};
    let sim = empty_sim();
    let mut rollout = Rollout::new(Plot::CrashLoop, "default", "crashy");
    rollout.beat = Duration::from_millis(50);
    sim.play_rollout(&rollout).expect("rollout plays");
    let pod = wait_for_object(&sim, "pods", |p| {
        p["status"]["containerStatuses"][0]["restartCount"].as_u64() >= Some(2)
    });
    let name = pod["metadata"]["name"].as_str().unwrap().to_string();
    assert_eq!(pod["metadata"]["ownerReferences"][0]["kind"], "ReplicaSet");
    let base = format!("/api/v1/namespaces/default/pods/{name}/log");

    let previous = get(
        &sim,
        &format!("{base}?container=web&previous=true&tailLines=2"),
    );
    assert_eq!(previous.status, 200);
    assert_eq!(previous.header("content-type"), Some("text/plain"));
    assert_eq!(
        String::from_utf8_lossy(&previous.body),
        "error: config key \"listen\" is missing\nexit status 1\n"
    );
    // One container: `container` may be left out.
    let whole = get(&sim, &format!("{base}?previous=true"));
    assert_eq!(String::from_utf8_lossy(&whole.body).lines().count(), 5);

    let wrong = get(&sim, &format!("{base}?container=db"));
    assert_eq!(wrong.status, 400);
    assert_eq!(
        wrong.json()["message"],
        format!("container db is not valid for pod {name}")
    );
    let missing = get(&sim, "/api/v1/namespaces/default/pods/nope/log");
    assert_eq!(missing.status, 404);
    assert_eq!(missing.json()["reason"], "NotFound");

    // A pod whose container has not terminated before has no previous log.
    sim.create("pods", pod_with_container("default", "steady"))
        .expect("create");
    let none = get(
        &sim,
        "/api/v1/namespaces/default/pods/steady/log?previous=true",
    );
    assert_eq!(none.status, 400);
    assert_eq!(
        none.json()["message"],
        "previous terminated container \"web\" in pod \"steady\" not found"
    );
}

fn pod_with_container(namespace: &str, name: &str) -> Value {
    json!({"metadata": {"name": name, "namespace": namespace},
        "spec": {"nodeName": "node-1", "containers": [{"name": "web", "image": "nginx"}]},
        "status": {"phase": "Running"}})
}
