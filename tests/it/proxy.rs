//! Proxies through the real `kw` binary: a small HTTP CONNECT proxy and a small SOCKS5 proxy on
//! loopback, used through the kubeconfig's `proxy-url`; the environment's rules (loopback
//! targets are never proxied) are checked here end to end and as pure functions in
//! `crates/kw-client/src/config/proxy.rs`.

use crate::harness;

use std::io::{Read, Write};
use std::net::{Ipv4Addr, Ipv6Addr, SocketAddr, TcpListener, TcpStream};
use std::path::PathBuf;
use std::process::Command;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use base64::Engine as _;
use harness::{run, Cluster, RefusedPort};
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
    write_kubeconfig_trusting(cluster, proxy_url, "")
}

/// As `write_kubeconfig`, with `extra_ca_pem` added to the kubeconfig's CA bundle.
fn write_kubeconfig_trusting(cluster: &Cluster, proxy_url: &str, extra_ca_pem: &str) -> PathBuf {
    let bundle = format!("{}{extra_ca_pem}", cluster.sim.ca_pem());
    let config = json!({
        "apiVersion": "v1", "kind": "Config", "current-context": "c",
        "clusters": [{"name": "sim", "cluster": {
            "server": cluster.sim.url(),
            "certificate-authority-data":
                base64::engine::general_purpose::STANDARD.encode(bundle),
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
fn a_dead_proxy_is_reported_as_unreachable_naming_it() {
    let cluster = Cluster::seeded();
    // Nothing listens there, and nothing can start to while the test holds it.
    let refused = RefusedPort::hold();
    let port = refused.port;
    let config = write_kubeconfig(&cluster, &format!("http://127.0.0.1:{port}"));
    let mut cmd = cluster.kw();
    cmd.args(["get", "namespaces", "--kubeconfig"]).arg(&config);
    let outcome = run(&mut cmd, LIMIT);
    assert_eq!(outcome.code, Some(5), "{outcome:#?}");
    assert!(cluster.sim.requests().is_empty());
    assert!(
        outcome.stderr.contains(&format!(
            "cannot reach the proxy http://127.0.0.1:{port}: connection refused"
        )),
        "{}",
        outcome.stderr
    );
}

/// An `https://` proxy on loopback: TLS with a certificate from its own CA, then CONNECT with
/// Basic credentials required (407 otherwise), then bytes both ways.
struct TlsProxy {
    port: u16,
    /// The proxy's CA, as a company would install it.
    ca_pem: String,
    /// CONNECT request heads.
    seen: Arc<Mutex<Vec<String>>>,
}

impl TlsProxy {
    fn start(user: &str, password: &str) -> TlsProxy {
        let (ca_pem, config) = proxy_tls();
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let port = listener.local_addr().unwrap().port();
        let seen = Arc::new(Mutex::new(Vec::new()));
        let log = Arc::clone(&seen);
        let expected =
            base64::engine::general_purpose::STANDARD.encode(format!("{user}:{password}"));
        // As in TestProxy: the accept thread ends with the test process, each tunnel when a side
        // closes or both stay silent for IO_TIMEOUT.
        std::thread::spawn(move || {
            for client in listener.incoming().flatten() {
                let (log, config, expected) =
                    (Arc::clone(&log), Arc::clone(&config), expected.clone());
                std::thread::spawn(move || {
                    let _ = client.set_read_timeout(Some(IO_TIMEOUT));
                    let Ok(conn) = rustls::ServerConnection::new(config) else {
                        return;
                    };
                    let mut tls = rustls::StreamOwned::new(conn, client);
                    if let Some(upstream) = authorized_connect(&mut tls, &log, &expected) {
                        pump(tls, upstream);
                    }
                });
            }
        });
        TlsProxy { port, ca_pem, seen }
    }
}

/// A CA and a certificate for 127.0.0.1 signed by it; the CA's PEM and the server config.
fn proxy_tls() -> (String, Arc<rustls::ServerConfig>) {
    use rcgen::{BasicConstraints, CertificateParams, DnType, IsCa, Issuer, KeyPair};
    let ca_key = KeyPair::generate().unwrap();
    let mut ca_params = CertificateParams::new(Vec::<String>::new()).unwrap();
    ca_params.is_ca = IsCa::Ca(BasicConstraints::Unconstrained);
    // Named apart from rcgen's default name, which `unrelated_store`'s CA carries.
    ca_params
        .distinguished_name
        .push(DnType::CommonName, "kw test proxy CA");
    let ca = ca_params.self_signed(&ca_key).unwrap();
    let issuer = Issuer::new(ca_params, ca_key);
    let key = KeyPair::generate().unwrap();
    let leaf = CertificateParams::new(vec!["127.0.0.1".to_string()])
        .unwrap()
        .signed_by(&key, &issuer)
        .unwrap();
    let provider = Arc::new(rustls::crypto::ring::default_provider());
    let config = rustls::ServerConfig::builder_with_provider(provider)
        .with_safe_default_protocol_versions()
        .unwrap()
        .with_no_client_auth()
        .with_single_cert(
            vec![leaf.der().clone(), ca.der().clone()],
            rustls::pki_types::PrivateKeyDer::Pkcs8(key.serialize_der().into()),
        )
        .unwrap();
    (ca.pem(), Arc::new(config))
}

/// Reads a CONNECT head; answers 407 unless it carries Basic `expected`, else connects and
/// answers 200.
fn authorized_connect(
    client: &mut impl ReadWrite,
    log: &Mutex<Vec<String>>,
    expected: &str,
) -> Option<TcpStream> {
    let mut head = Vec::new();
    let mut byte = [0u8; 1];
    while !head.ends_with(b"\r\n\r\n") && head.len() < 16 * 1024 {
        client.read_exact(&mut byte).ok()?;
        head.push(byte[0]);
    }
    let head = String::from_utf8_lossy(&head).into_owned();
    log.lock().unwrap().push(head.clone());
    let authorized = head.lines().any(|line| {
        let Some((name, value)) = line.split_once(':') else {
            return false;
        };
        let Some((scheme, credentials)) = value.trim().split_once(' ') else {
            return false;
        };
        name.eq_ignore_ascii_case("proxy-authorization")
            && scheme.eq_ignore_ascii_case("basic")
            && credentials == expected
    });
    if !authorized {
        let _ = client.write_all(
            b"HTTP/1.1 407 Proxy Authentication Required\r\n\
              Proxy-Authenticate: Basic realm=\"test\"\r\nContent-Length: 0\r\n\r\n",
        );
        let _ = client.flush();
        return None;
    }
    let target = head.split_whitespace().nth(1)?.to_string();
    let upstream = TcpStream::connect(&target).ok()?;
    client
        .write_all(b"HTTP/1.1 200 Connection established\r\n\r\n")
        .ok()?;
    client.flush().ok()?;
    Some(upstream)
}

trait ReadWrite: Read + Write {}
impl<T: Read + Write> ReadWrite for T {}

/// Bytes both ways between the TLS client and the upstream, on one thread (a TLS stream cannot
/// be split): each side is read with a short timeout in turn. Ends when a side closes or both
/// stay silent for IO_TIMEOUT.
fn pump(
    mut tls: rustls::StreamOwned<rustls::ServerConnection, TcpStream>,
    mut upstream: TcpStream,
) {
    let tick = Duration::from_millis(5);
    let quiet = |e: &std::io::Error| {
        matches!(
            e.kind(),
            std::io::ErrorKind::WouldBlock | std::io::ErrorKind::TimedOut
        )
    };
    let (Ok(()), Ok(())) = (
        tls.sock.set_read_timeout(Some(tick)),
        upstream.set_read_timeout(Some(tick)),
    ) else {
        return;
    };
    let mut buf = vec![0u8; 64 * 1024];
    let mut last = std::time::Instant::now();
    while last.elapsed() < IO_TIMEOUT {
        match tls.read(&mut buf) {
            Ok(0) => return,
            Ok(n) => {
                if upstream.write_all(&buf[..n]).is_err() {
                    return;
                }
                last = std::time::Instant::now();
            }
            Err(e) if quiet(&e) => {}
            Err(_) => return,
        }
        match upstream.read(&mut buf) {
            Ok(0) => {
                tls.conn.send_close_notify();
                let _ = tls.flush();
                return;
            }
            Ok(n) => {
                if tls.write_all(&buf[..n]).and_then(|()| tls.flush()).is_err() {
                    return;
                }
                last = std::time::Instant::now();
            }
            Err(e) if quiet(&e) => {}
            Err(_) => return,
        }
    }
}

/// A PEM file holding one CA that has signed nothing here: a trust store without the proxy's CA.
fn unrelated_store(cluster: &Cluster) -> PathBuf {
    let path = cluster.dir.path().join("unrelated-ca.pem");
    let unrelated = rcgen::generate_simple_self_signed(vec!["unrelated".to_string()]).unwrap();
    std::fs::write(&path, unrelated.cert.pem()).unwrap();
    path
}

fn kw_through(cluster: &Cluster, config: &std::path::Path, store: &std::path::Path) -> Command {
    let mut cmd = cluster.kw();
    cmd.args(["get", "namespaces", "-v", "9", "--kubeconfig"])
        .arg(config)
        .env("SSL_CERT_FILE", store)
        .env_remove("SSL_CERT_DIR");
    cmd
}

#[test]
fn an_https_proxy_tunnels_with_basic_auth_and_the_password_never_shows() {
    let cluster = Cluster::seeded();
    let proxy = TlsProxy::start("alice", "s@cret");
    let store = cluster.dir.path().join("proxy-ca.pem");
    std::fs::write(&store, &proxy.ca_pem).unwrap();
    let direct = run(&mut cluster.get(&["namespaces"]), LIMIT);
    assert_eq!(direct.code, Some(0), "{direct:#?}");
    assert!(direct.stdout.contains("team-a"));

    let url = format!("https://alice:s%40cret@127.0.0.1:{}", proxy.port);
    let config = write_kubeconfig(&cluster, &url);
    let outcome = run(&mut kw_through(&cluster, &config, &store), LIMIT);
    assert_eq!(outcome.code, Some(0), "{outcome:#?}");
    assert_eq!(outcome.stdout, direct.stdout);

    let seen = proxy.seen.lock().unwrap().clone();
    assert!(!seen.is_empty(), "the proxy saw nothing");
    for head in &seen {
        let connect = format!("CONNECT {} HTTP/1.1\r\n", sim_address(&cluster));
        assert!(head.starts_with(&connect), "{head}");
    }
    let basic = base64::engine::general_purpose::STANDARD.encode("alice:s@cret");
    for secret in ["s@cret", "s%40cret", basic.as_str()] {
        assert!(!outcome.stdout.contains(secret), "{secret}");
        assert!(!outcome.stderr.contains(secret), "{secret}");
    }
    assert!(!cluster.sim.requests().is_empty());
}

#[test]
fn an_https_proxy_signed_by_the_kubeconfig_ca_is_trusted() {
    let cluster = Cluster::seeded();
    let proxy = TlsProxy::start("alice", "pw");
    let url = format!("https://alice:pw@127.0.0.1:{}", proxy.port);
    // The system's store (SSL_CERT_FILE) does not know the proxy's CA; the kubeconfig does.
    let config = write_kubeconfig_trusting(&cluster, &url, &proxy.ca_pem);
    let store = unrelated_store(&cluster);
    let outcome = run(&mut kw_through(&cluster, &config, &store), LIMIT);
    assert_eq!(outcome.code, Some(0), "{outcome:#?}");
    assert!(outcome.stdout.contains("team-a"), "{outcome:#?}");
    assert!(!proxy.seen.lock().unwrap().is_empty());
}

#[test]
fn a_refused_or_untrusted_https_proxy_gets_one_line_naming_it() {
    let cluster = Cluster::seeded();
    let proxy = TlsProxy::start("alice", "s@cret");
    let named = format!("https://<redacted>@127.0.0.1:{}", proxy.port);
    let trusted = cluster.dir.path().join("proxy-ca.pem");
    std::fs::write(&trusted, &proxy.ca_pem).unwrap();
    let error_line = |outcome: &harness::Outcome| -> String {
        assert_eq!(outcome.code, Some(5), "{outcome:#?}");
        let lines: Vec<&str> = outcome
            .stderr
            .lines()
            .filter(|l| l.starts_with("error:"))
            .collect();
        assert_eq!(lines.len(), 1, "{}", outcome.stderr);
        assert!(lines[0].contains(&named), "{}", lines[0]);
        assert!(cluster.sim.requests().is_empty());
        lines[0].to_string()
    };

    // The wrong password: the proxy answers 407.
    let url = format!("https://alice:n0t-the-pa55@127.0.0.1:{}", proxy.port);
    let config = write_kubeconfig(&cluster, &url);
    let outcome = run(&mut kw_through(&cluster, &config, &trusted), LIMIT);
    let line = error_line(&outcome);
    assert!(line.contains("407 Proxy Authentication Required"), "{line}");
    assert!(
        !outcome.stderr.contains("n0t-the-pa55"),
        "{}",
        outcome.stderr
    );

    // A proxy certificate nothing trusts.
    let url = format!("https://alice:s%40cret@127.0.0.1:{}", proxy.port);
    let config = write_kubeconfig(&cluster, &url);
    let outcome = run(
        &mut kw_through(&cluster, &config, &unrelated_store(&cluster)),
        LIMIT,
    );
    let line = error_line(&outcome);
    assert!(line.contains("TLS to the proxy"), "{line}");
    assert!(line.contains("unknown authority"), "{line}");
    assert!(!outcome.stderr.contains("s@cret"), "{}", outcome.stderr);
}

/// A proxy on loopback that reads each CONNECT request, then answers with `answer` (`None`:
/// closes the connection without a word). Returns its port; the accept thread ends with the
/// test process.
fn misbehaving_proxy(answer: Option<Vec<u8>>) -> u16 {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    std::thread::spawn(move || {
        for mut client in listener.incoming().flatten() {
            let _ = client.set_read_timeout(Some(IO_TIMEOUT));
            let mut head = Vec::new();
            let mut byte = [0u8; 1];
            while !head.ends_with(b"\r\n\r\n") && head.len() < 16 * 1024 {
                if client.read_exact(&mut byte).is_err() {
                    break;
                }
                head.push(byte[0]);
            }
            if let Some(answer) = &answer {
                let _ = client.write_all(answer);
            }
        }
    });
    port
}

/// kw's stdout and stderr at `-v 9` must hold no part of the password `s3cretpw`.
fn assert_no_password(outcome: &harness::Outcome) {
    let basic = base64::engine::general_purpose::STANDARD.encode("audituser:s3cretpw");
    for secret in ["s3cretpw", basic.as_str()] {
        assert!(!outcome.stdout.contains(secret), "{outcome:#?}");
        assert!(!outcome.stderr.contains(secret), "{outcome:#?}");
    }
}

fn error_line(outcome: &harness::Outcome) -> &str {
    outcome
        .stderr
        .lines()
        .find(|line| line.starts_with("error:"))
        .unwrap_or_else(|| panic!("an error line: {outcome:#?}"))
}

#[test]
fn a_proxy_url_without_a_scheme_never_shows_its_password() {
    let cluster = Cluster::seeded();
    // No scheme, and `://` in the password: this once read as the scheme "audituser:s3cretpw".
    let config = write_kubeconfig(&cluster, "audituser:s3cretpw://x@127.0.0.1:3128");
    let mut cmd = cluster.kw();
    cmd.args(["get", "namespaces", "-v", "9", "--kubeconfig"])
        .arg(&config);
    let outcome = run(&mut cmd, LIMIT);
    assert_ne!(outcome.code, Some(0), "{outcome:#?}");
    assert_no_password(&outcome);
    let line = error_line(&outcome);
    assert!(line.contains("\"<redacted>@127.0.0.1:3128\""), "{line}");
    assert!(cluster.sim.requests().is_empty());
}

/// Issue #45: no `@` and a password as the "scheme" (`audituser:s3cretpw://127.0.0.1:9`) was
/// printed whole in `proxy URL "…" is invalid: bad host`; an unknown scheme alone was named.
#[test]
fn a_proxy_url_whose_scheme_is_a_password_never_shows_it() {
    let cluster = Cluster::seeded();
    for (url, said) in [
        (
            "audituser:s3cretpw://127.0.0.1:9",
            "\"<redacted>://127.0.0.1:9\" is invalid: bad host",
        ),
        (
            "s3cretpw://127.0.0.1:9",
            "proxy URL has a scheme that is not supported",
        ),
    ] {
        let config = write_kubeconfig(&cluster, url);
        let mut cmd = cluster.kw();
        cmd.args(["get", "namespaces", "-v", "9", "--kubeconfig"])
            .arg(&config);
        let outcome = run(&mut cmd, LIMIT);
        assert_eq!(outcome.code, Some(1), "{outcome:#?}");
        assert_no_password(&outcome);
        let line = error_line(&outcome);
        assert!(line.contains(said), "{line}");
    }
    assert!(cluster.sim.requests().is_empty());
}

#[test]
fn a_proxy_that_breaks_the_tunnel_is_named_as_its_cause() {
    let cluster = Cluster::seeded();
    let headers: String = (0..40).map(|i| format!("X-Padding-{i}: x\r\n")).collect();
    let cases = [
        (None, "did not answer the tunnel request (CONNECT)"),
        (
            Some(format!("HTTP/1.1 200 Connection established\r\n{headers}\r\n").into_bytes()),
            "answered the tunnel request (CONNECT) in a way kw cannot read: too many headers",
        ),
    ];
    for (answer, said) in cases {
        let port = misbehaving_proxy(answer);
        let url = format!("http://audituser:s3cretpw@127.0.0.1:{port}");
        let config = write_kubeconfig(&cluster, &url);
        let mut cmd = cluster.kw();
        cmd.args(["get", "namespaces", "-v", "9", "--kubeconfig"])
            .arg(&config);
        let outcome = run(&mut cmd, LIMIT);
        assert_eq!(outcome.code, Some(5), "{outcome:#?}");
        assert_no_password(&outcome);
        let line = error_line(&outcome);
        let expected = format!(
            "error: unable to connect to the server {}: the proxy \
             http://<redacted>@127.0.0.1:{port} {said}",
            cluster.sim.url()
        );
        assert_eq!(line, expected);
    }
    assert!(cluster.sim.requests().is_empty());
}
