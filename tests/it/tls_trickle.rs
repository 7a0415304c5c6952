//! A TLS record trickled a byte at a time (issue 61, point 6): rustls reads the socket until a
//! record is whole, and each of its reads got a byte within the per-read timeout, so a watch
//! waited for ever on a record the server never finished. Between kw and the sim, a relay that
//! passes TLS records whole, except one, which it sends a byte every 500 ms.

use std::io::{Read, Write};
use std::net::{TcpListener, TcpStream};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;
use std::time::Duration;

use crate::harness::{Cluster, Live};

const LIMIT: Duration = Duration::from_secs(30);

/// Relays connections to the sim; once armed, the next record from the sim is trickled.
struct Relay {
    url: String,
    armed: Arc<AtomicBool>,
    trickled: Arc<AtomicU64>,
    stop: Arc<AtomicBool>,
}

impl Relay {
    fn start(to: &str) -> Relay {
        let listener = TcpListener::bind("127.0.0.1:0").expect("relay binds");
        let url = format!("https://{}", listener.local_addr().unwrap());
        let target = to.to_string();
        let armed = Arc::new(AtomicBool::new(false));
        let trickled = Arc::new(AtomicU64::new(0));
        let stop = Arc::new(AtomicBool::new(false));
        let (a, t, s) = (armed.clone(), trickled.clone(), stop.clone());
        std::thread::spawn(move || {
            for client in listener.incoming() {
                let Ok(client) = client else { return };
                if s.load(Ordering::SeqCst) {
                    return;
                }
                let Ok(server) = TcpStream::connect(&target) else {
                    continue;
                };
                let (to_server, from_client) =
                    (server.try_clone().unwrap(), client.try_clone().unwrap());
                std::thread::spawn(move || copy(from_client, to_server));
                let (a, t, s) = (a.clone(), t.clone(), s.clone());
                std::thread::spawn(move || records(server, client, &a, &t, &s));
            }
        });
        Relay {
            url,
            armed,
            trickled,
            stop,
        }
    }
}

impl Drop for Relay {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::SeqCst);
        // Wake the accept loop so that it sees the flag.
        let _ = TcpStream::connect(self.url.trim_start_matches("https://"));
    }
}

fn copy(mut from: TcpStream, mut to: TcpStream) {
    let _ = std::io::copy(&mut from, &mut to);
    let _ = to.shutdown(std::net::Shutdown::Write);
}

/// The sim's TLS records to the client, each whole, but the first after arming a byte at a
/// time (bounded by the record's length, at most 16 KiB, and by the relay's end).
fn records(
    mut from: TcpStream,
    mut to: TcpStream,
    armed: &AtomicBool,
    trickled: &AtomicU64,
    stop: &AtomicBool,
) {
    loop {
        let mut header = [0u8; 5];
        if from.read_exact(&mut header).is_err() {
            break;
        }
        let length = usize::from(u16::from_be_bytes([header[3], header[4]]));
        let mut record = header.to_vec();
        record.resize(5 + length, 0);
        if from.read_exact(&mut record[5..]).is_err() {
            break;
        }
        if !armed.swap(false, Ordering::SeqCst) {
            if to.write_all(&record).is_err() {
                break;
            }
            continue;
        }
        trickled.fetch_add(1, Ordering::SeqCst);
        for byte in &record {
            if stop.load(Ordering::SeqCst) || to.write_all(&[*byte]).is_err() {
                return;
            }
            std::thread::sleep(Duration::from_millis(500));
        }
    }
    let _ = to.shutdown(std::net::Shutdown::Write);
}

#[test]
fn a_tls_record_trickled_a_byte_at_a_time_ends_the_stream_and_kw_resumes() {
    let cluster = Cluster::seeded();
    let relay = Relay::start(cluster.sim.url().trim_start_matches("https://"));
    let kubeconfig = std::fs::read_to_string(&cluster.kubeconfig)
        .expect("kubeconfig")
        .replace(&cluster.sim.url(), &relay.url);
    let path = cluster.dir.path().join("relayed");
    std::fs::write(&path, kubeconfig).unwrap();
    let mut kw = cluster.kw();
    kw.env("KW_IDLE_TIMEOUT", "3s")
        .args(["get", "pods", "-w", "-o", "name", "--kubeconfig"])
        .arg(&path);
    let mut live = Live::spawn(&mut kw);
    // The list has come: what comes next is the watch's.
    live.next_line(LIMIT).expect("the list is printed");
    relay.armed.store(true, Ordering::SeqCst);
    cluster
        .sim
        .create(
            "pods",
            serde_json::json!({
                "apiVersion": "v1", "kind": "Pod",
                "metadata": {"name": "late", "namespace": "default"},
                "spec": {"containers": [{"name": "c", "image": "busybox"}]},
            }),
        )
        .unwrap();
    live.lines_until(LIMIT, |line| line == "pod/late");
    let stderr = live.kill();
    assert_eq!(relay.trickled.load(Ordering::SeqCst), 1, "{stderr}");
    assert!(stderr.contains("broke"), "{stderr}");
}
