//! Proxies through the real `kw` binary: a small HTTP CONNECT proxy and a small SOCKS5 proxy on
//! loopback, used through the kubeconfig's `proxy-url`; the environment's rules (loopback
//! targets are never proxied) are checked here end to end and as pure functions in
//! `src/proxy.rs`.

use crate::common;

use std::io::{Read, Write};
use std::net::{Ipv4Addr, Ipv6Addr, SocketAddr, TcpListener, TcpStream};
use std::path::PathBuf;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use base64::Engine as _;
use common::{run, Cluster};
use serde_json::json;

const LIMIT: Duration = Duration::from_secs(30);
const IO_TIMEOUT: Duration = Duration::from_secs(20);

/// A proxy on loopback that records what each client asked for.
struct TestProxy {
    port: u16,
    /// CONNECT request heads, or `socks5 HOST:PORT` lines.
    seen: Arc<Mutex<Vec<String>>>,
}

impl TestProxy {
    fn start(socks: bool) -> TestProxy {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let port = listener.local_addr().unwrap().port();
        let seen = Arc::new(Mutex::new(Vec::new()));
        let log = Arc::clone(&seen);
        // The accept thread ends with the test process; each tunnel ends when either side
        // closes or stays silent for IO_TIMEOUT.
        std::thread::spawn(move || {
            for client in listener.incoming().flatten() {
                let log = Arc::clone(&log);
                std::thread::spawn(move || {
                    let _ = client.set_read_timeout(Some(IO_TIMEOUT));
                    let upstream = if socks {
                        socks5_handshake(&client, &log)
                    } else {
                        connect_handshake(&client, &log)
                    };
                    if let Some(upstream) = upstream {
                        pipe(client, upstream);
                    }
                });
            }
        });
        TestProxy { port, seen }
    }

    fn seen(&self) -> Vec<String> {
        self.seen.lock().unwrap().clone()
    }
}

/// Reads `CONNECT host:port HTTP/1.1` and its headers, connects, answers 200.
fn connect_handshake(mut client: &TcpStream, log: &Mutex<Vec<String>>) -> Option<TcpStream> {
    let mut head = Vec::new();
    let mut byte = [0u8; 1];
    while !head.ends_with(b"\r\n\r\n") && head.len() < 16 * 1024 {
        client.read_exact(&mut byte).ok()?;
        head.push(byte[0]);
    }
    let head = String::from_utf8_lossy(&head).into_owned();
    log.lock().unwrap().push(head.clone());
    let target = head.split_whitespace().nth(1)?.to_string();
    match TcpStream::connect(&target) {
        Ok(upstream) => {
            client
                .write_all(b"HTTP/1.1 200 Connection established\r\n\r\n")
                .ok()?;
            Some(upstream)
        }
        Err(_) => {
            let _ = client.write_all(b"HTTP/1.1 502 Bad Gateway\r\n\r\n");
            None
        }
    }
}

/// RFC 1928 without authentication: greeting, CONNECT, success reply.
fn socks5_handshake(mut client: &TcpStream, log: &Mutex<Vec<String>>) -> Option<TcpStream> {
    let mut greeting = [0u8; 2];
    client.read_exact(&mut greeting).ok()?;
    // ureq 2 waits for its SOCKS handshake thread on a condition variable without checking
    // whether the thread already finished; a handshake that completes before ureq starts
    // waiting (only plausible on loopback) then costs the whole connect timeout. A short pause
    // keeps this proxy as slow as a real one.
    std::thread::sleep(Duration::from_millis(100));
    let mut methods = vec![0u8; usize::from(greeting[1])];
    client.read_exact(&mut methods).ok()?;
    client.write_all(&[5, 0]).ok()?;
    let mut request = [0u8; 4];
    client.read_exact(&mut request).ok()?;
    let host = match request[3] {
        1 => {
            let mut ip = [0u8; 4];
            client.read_exact(&mut ip).ok()?;
            Ipv4Addr::from(ip).to_string()
        }
        4 => {
            let mut ip = [0u8; 16];
            client.read_exact(&mut ip).ok()?;
            Ipv6Addr::from(ip).to_string()
        }
        3 => {
            let mut len = [0u8; 1];
            client.read_exact(&mut len).ok()?;
            let mut name = vec![0u8; usize::from(len[0])];
            client.read_exact(&mut name).ok()?;
            String::from_utf8_lossy(&name).into_owned()
        }
        _ => return None,
    };
    let mut port = [0u8; 2];
    client.read_exact(&mut port).ok()?;
    let port = u16::from_be_bytes(port);
    log.lock().unwrap().push(format!("socks5 {host}:{port}"));
    let upstream = TcpStream::connect((host.as_str(), port)).ok()?;
    client.write_all(&[5, 0, 0, 1, 0, 0, 0, 0, 0, 0]).ok()?;
    Some(upstream)
}

fn pipe(client: TcpStream, upstream: TcpStream) {
    let _ = upstream.set_read_timeout(Some(IO_TIMEOUT));
    let (Ok(mut client_read), Ok(mut upstream_write)) = (client.try_clone(), upstream.try_clone())
    else {
        return;
    };
    let forward = std::thread::spawn(move || {
        let _ = std::io::copy(&mut client_read, &mut upstream_write);
        let _ = upstream_write.shutdown(std::net::Shutdown::Write);
    });
    let (mut upstream_read, mut client_write) = (upstream, client);
    let _ = std::io::copy(&mut upstream_read, &mut client_write);
    let _ = client_write.shutdown(std::net::Shutdown::Write);
    let _ = forward.join();
}

fn write_kubeconfig(cluster: &Cluster, proxy_url: &str) -> PathBuf {
    let config = json!({
        "apiVersion": "v1", "kind": "Config", "current-context": "c",
        "clusters": [{"name": "sim", "cluster": {
            "server": cluster.sim.url(),
            "certificate-authority-data":
                base64::engine::general_purpose::STANDARD.encode(cluster.sim.ca_pem()),
            "proxy-url": proxy_url,
        }}],
        "contexts": [{"name": "c", "context": {"cluster": "sim", "user": "u"}}],
        "users": [{"name": "u", "user": {"token": cluster.sim.admin_token()}}],
    });
    let path = cluster.dir.path().join("proxied");
    std::fs::write(&path, config.to_string()).unwrap();
    path
}

fn sim_address(cluster: &Cluster) -> SocketAddr {
    SocketAddr::from(([127, 0, 0, 1], cluster.sim.port()))
}

#[test]
fn proxy_url_http_tunnels_through_connect() {
    let cluster = Cluster::seeded();
    let proxy = TestProxy::start(false);
    let config = write_kubeconfig(
        &cluster,
        &format!("http://alice:s%40cret@127.0.0.1:{}", proxy.port),
    );
    let mut cmd = cluster.kw();
    cmd.args(["get", "namespaces", "--kubeconfig"]).arg(&config);
    let outcome = run(&mut cmd, LIMIT);
    assert_eq!(outcome.code, Some(0), "{outcome:#?}");
    assert!(outcome.stdout.contains("team-a"));

    let seen = proxy.seen();
    assert!(!seen.is_empty(), "the proxy saw nothing");
    for head in &seen {
        assert!(
            head.starts_with(&format!("CONNECT {} HTTP/1.1\r\n", sim_address(&cluster))),
            "{head}"
        );
        // The proxy gets its own credentials, never the cluster's bearer token.
        let basic = base64::engine::general_purpose::STANDARD.encode("alice:s@cret");
        // The auth scheme is case-insensitive (RFC 9110): ureq 2 sent `basic`, ureq 3 `Basic`.
        let credentials = head.lines().find_map(|line| {
            let (name, value) = line.split_once(':')?;
            let (scheme, credentials) = value.trim().split_once(' ')?;
            (name.eq_ignore_ascii_case("proxy-authorization")
                && scheme.eq_ignore_ascii_case("basic"))
            .then_some(credentials)
        });
        assert_eq!(credentials, Some(basic.as_str()), "{head}");
        assert!(
            !head.to_ascii_lowercase().contains("\r\nauthorization"),
            "{head}"
        );
    }
    assert!(!cluster.sim.requests().is_empty());
}

#[test]
fn proxy_url_socks5_tunnels() {
    let cluster = Cluster::seeded();
    let proxy = TestProxy::start(true);
    let config = write_kubeconfig(&cluster, &format!("socks5://127.0.0.1:{}", proxy.port));
    let mut cmd = cluster.kw();
    cmd.args(["get", "pods", "-A", "--kubeconfig"]).arg(&config);
    let outcome = run(&mut cmd, LIMIT);
    assert_eq!(outcome.code, Some(0), "{outcome:#?}");
    let seen = proxy.seen();
    assert!(!seen.is_empty(), "the proxy saw nothing");
    let expected = format!("socks5 {}", sim_address(&cluster));
    assert!(seen.iter().all(|line| *line == expected), "{seen:?}");
}

#[test]
fn the_environment_never_proxies_loopback() {
    let cluster = Cluster::seeded();
    let proxy = TestProxy::start(false);
    let url = format!("http://127.0.0.1:{}", proxy.port);
    let outcome = run(
        cluster
            .get(&["namespaces"])
            .env("HTTPS_PROXY", &url)
            .env("https_proxy", &url)
            .env_remove("NO_PROXY")
            .env_remove("no_proxy"),
        LIMIT,
    );
    assert_eq!(outcome.code, Some(0), "{outcome:#?}");
    assert!(proxy.seen().is_empty(), "{:?}", proxy.seen());
}

#[test]
fn a_dead_proxy_is_reported_as_unreachable_and_https_proxies_are_refused() {
    let cluster = Cluster::seeded();
    // A port that was free a moment ago: nothing listens there.
    let port = TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let config = write_kubeconfig(&cluster, &format!("http://127.0.0.1:{port}"));
    let mut cmd = cluster.kw();
    cmd.args(["get", "namespaces", "--kubeconfig"]).arg(&config);
    let outcome = run(&mut cmd, LIMIT);
    assert_eq!(outcome.code, Some(5), "{outcome:#?}");
    assert!(cluster.sim.requests().is_empty());

    let config = write_kubeconfig(&cluster, "https://proxy.example:3129");
    let mut cmd = cluster.kw();
    cmd.args(["get", "namespaces", "--kubeconfig"]).arg(&config);
    let outcome = run(&mut cmd, LIMIT);
    assert_eq!(outcome.code, Some(1), "{outcome:#?}");
    assert!(
        outcome
            .stderr
            .contains("proxy-url of cluster \"sim\": https:// proxies"),
        "{}",
        outcome.stderr
    );
}
