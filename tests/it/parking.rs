//! What lets a silent watch park (issue 47): its connection counts as drained only when the
//! next byte it can read must first come in on the socket, so that `poll(2)` on the socket is
//! exact. Read through kw's own client, over the sim's TLS, with no mock in between.

use std::io::Read;
use std::time::Duration;

use kw::client::probe::wait_readable;
use kw::client::Client;
use kw::config::flags::ConfigFlags;
use kw::config::kubeconfig::{self, LoadSources};
use kw::config::settings;
use kw_sim::SimConfig;
use serde_json::json;

use crate::harness;

const LIMIT: Duration = Duration::from_secs(30);

fn pod(name: &str) -> serde_json::Value {
    json!({
        "apiVersion": "v1",
        "kind": "Pod",
        "metadata": {"name": name, "namespace": "default"},
        "spec": {"containers": [{"name": "c", "image": "busybox"}]},
    })
}

/// Bytes buffered anywhere above the socket (ureq's buffers, rustls's plaintext) keep a stream
/// from counting as drained; read byte by byte, every frame comes whole and none twice; once
/// drained and quiet, the socket is what says a new change has come.
#[test]
fn a_stream_is_drained_only_when_its_next_byte_must_come_from_the_socket() {
    let sim = harness::start_sim(SimConfig {
        seed: 47,
        ..SimConfig::default()
    })
    .expect("sim starts");
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("kubeconfig");
    sim.write_kubeconfig(&path).unwrap();
    let config = kubeconfig::load(&LoadSources {
        explicit: Some(&path),
        ..LoadSources::default()
    })
    .unwrap();
    let settings = settings::resolve(&ConfigFlags::default(), None, &config).unwrap();
    let client = Client::new(&settings.connection, LIMIT).unwrap();
    let list: serde_json::Value = serde_json::from_slice(
        &client
            .get_list("/api/v1/namespaces/default/pods", "application/json")
            .unwrap(),
    )
    .unwrap();
    let version = list["metadata"]["resourceVersion"].as_str().unwrap();
    let mut stream = client
        .stream_parkable(
            &format!("/api/v1/namespaces/default/pods?watch=true&resourceVersion={version}"),
            "application/json",
            None,
        )
        .unwrap();
    let probe = stream
        .probe
        .clone()
        .expect("kw's own TLS connection is probed");
    let fd = probe.fd().expect("its socket");
    // Five changes at once: several frames come in together.
    let names: Vec<String> = (0..5).map(|i| format!("parked-{i}")).collect();
    for name in &names {
        sim.create("pods", pod(name)).unwrap();
    }
    assert!(wait_readable(fd, LIMIT), "the changes come");
    let mut byte = [0u8; 1];
    stream.reader.read_exact(&mut byte).unwrap();
    assert!(
        !probe.is_drained(),
        "one byte read of a frame: the rest is buffered above the socket"
    );
    let mut text = vec![byte[0]];
    // Byte by byte: while anything is buffered, reading never waits for the socket; when the
    // socket has more, it is readable.
    while text.iter().filter(|b| **b == b'\n').count() < names.len() {
        if probe.is_drained() {
            assert!(wait_readable(fd, LIMIT), "more of the five changes");
        }
        stream.reader.read_exact(&mut byte).unwrap();
        text.push(byte[0]);
    }
    assert!(probe.is_drained(), "every byte sent was read");
    let text = String::from_utf8(text).unwrap();
    let frames: Vec<serde_json::Value> = text
        .lines()
        .map(|line| serde_json::from_str(line).unwrap())
        .collect();
    let seen: Vec<&str> = frames
        .iter()
        .map(|f| f["object"]["metadata"]["name"].as_str().unwrap_or_default())
        .collect();
    assert_eq!(seen, names.iter().map(String::as_str).collect::<Vec<_>>());
    // Drained and quiet: one more change, and the socket says so.
    sim.create("pods", pod("after")).unwrap();
    assert!(wait_readable(fd, LIMIT));
    let mut line = Vec::new();
    while line.last() != Some(&b'\n') {
        stream.reader.read_exact(&mut byte).unwrap();
        line.push(byte[0]);
    }
    let frame: serde_json::Value = serde_json::from_slice(&line).unwrap();
    assert_eq!(frame["object"]["metadata"]["name"], "after");
}
