//! One connection's life: accepted from the listener, TLS handshake (with the client
//! certificate's identity), then the keep-alive loop that reads each request, asks `api` for
//! the reply, logs it in `shared` and writes it (a body, a watch stream, or a flood).

use std::io::{BufReader, Read, Write};
use std::net::{Shutdown, TcpListener, TcpStream};
use std::panic::AssertUnwindSafe;
use std::sync::atomic::Ordering;
use std::sync::Arc;
use std::time::Duration;

use super::certs;
use crate::api::auth::CertIdentity;
use crate::api::flood;
use crate::api::reply::Reply;
use crate::api::router;
use crate::api::shared::{Shared, REQUESTS_KEPT};
use crate::api::status;
use crate::api::watch;
use crate::http::compress;
use crate::http::{self, ReadError};

/// A TLS handshake or request head must arrive within this long.
const HANDSHAKE_TIMEOUT: Duration = Duration::from_secs(10);
/// An idle keep-alive connection is closed after this long.
const IDLE_TIMEOUT: Duration = Duration::from_secs(600);

pub(super) fn accept_loop(
    shared: &Arc<Shared>,
    listener: &TcpListener,
    tls_config: Option<Arc<rustls::ServerConfig>>,
) {
    for stream in listener.incoming() {
        if shared.shutdown.load(Ordering::SeqCst) || shared.stop_accepting.load(Ordering::SeqCst) {
            break;
        }
        let Ok(stream) = stream else {
            // Accept errors (e.g. too many open files) are transient; back off a little.
            std::thread::sleep(Duration::from_millis(10));
            continue;
        };
        let shared = Arc::clone(shared);
        let tls_config = tls_config.clone();
        let spawned = std::thread::Builder::new()
            .name("sim-conn".into())
            .spawn(move || serve_connection(&shared, stream, tls_config));
        if spawned.is_err() {
            std::thread::sleep(Duration::from_millis(10));
        }
    }
}

/// A byte stream a request can be read from and a response written to.
trait Transport: Read + Write + Send {}
impl<T: Read + Write + Send> Transport for T {}

fn serve_connection(
    shared: &Arc<Shared>,
    stream: TcpStream,
    tls_config: Option<Arc<rustls::ServerConfig>>,
) {
    let id = shared.next_connection.fetch_add(1, Ordering::SeqCst);
    if let Ok(clone) = stream.try_clone() {
        shared.lock_connections().insert(id, clone);
    }
    let _ = stream.set_nodelay(true);
    let _ = stream.set_read_timeout(Some(HANDSHAKE_TIMEOUT));
    if let Some((transport, cert)) = open_transport(shared, stream, tls_config) {
        // A request the sim cannot act out must not take the server down with it, nor leave
        // the client waiting on a socket no thread reads: the panic ends this connection only
        // (the socket is shut down below) and is logged with the request it came from.
        let served = std::panic::catch_unwind(AssertUnwindSafe(|| {
            request_loop(shared, transport, cert.as_ref());
        }));
        if let Err(panic) = served {
            let why = panic
                .downcast_ref::<&str>()
                .map(|s| (*s).to_string())
                .or_else(|| panic.downcast_ref::<String>().cloned())
                .unwrap_or_default();
            eprintln!("kw sim: connection {id} ended by a panic while serving a request: {why}");
        }
    }
    if let Some(stream) = shared.lock_connections().remove(&id) {
        let _ = stream.shutdown(Shutdown::Both);
    }
}

/// Complete the TLS handshake (if any) and read the client certificate's identity.
fn open_transport(
    shared: &Shared,
    mut stream: TcpStream,
    tls_config: Option<Arc<rustls::ServerConfig>>,
) -> Option<(Box<dyn Transport>, Option<CertIdentity>)> {
    let Some(tls_config) = tls_config else {
        let _ = stream.set_read_timeout(Some(IDLE_TIMEOUT));
        return Some((Box::new(stream), None));
    };
    let mut connection = rustls::ServerConnection::new(tls_config).ok()?;
    while connection.is_handshaking() {
        connection.complete_io(&mut stream).ok()?;
    }
    {
        let mut names = shared
            .server_names
            .lock()
            .unwrap_or_else(|p| p.into_inner());
        names.push_back(connection.server_name().map(str::to_string));
        while names.len() > REQUESTS_KEPT {
            names.pop_front();
        }
    }
    let cert = connection
        .peer_certificates()
        .and_then(|chain| chain.first())
        .and_then(|der| certs::identity(der));
    let _ = stream.set_read_timeout(Some(IDLE_TIMEOUT));
    Some((Box::new(rustls::StreamOwned::new(connection, stream)), cert))
}

fn request_loop(shared: &Shared, transport: Box<dyn Transport>, cert: Option<&CertIdentity>) {
    let mut reader = BufReader::with_capacity(16 * 1024, transport);
    while !shared.shutdown.load(Ordering::SeqCst) {
        let request = match http::read_request(&mut reader) {
            Ok(request) => request,
            Err(ReadError::TooLarge) => {
                let status = kw_wire::Status::failure(
                    431,
                    "RequestHeaderFieldsTooLarge",
                    "request header fields too large",
                );
                let body = serde_json::to_vec(&status).unwrap_or_default();
                let _ = http::write_response(reader.get_mut(), 431, &[], &body, true);
                return;
            }
            Err(ReadError::Bad(why)) => {
                let status = status::bad_request(format!("bad request: {why}"));
                let body = serde_json::to_vec(&status).unwrap_or_default();
                let _ = http::write_response(reader.get_mut(), 400, &[], &body, true);
                return;
            }
            Err(ReadError::Closed) | Err(ReadError::Io(_)) => return,
        };
        let reply = router::handle(shared, &request, cert);
        let out: &mut dyn Write = reader.get_mut();
        let keep_going = match reply {
            Reply::Body {
                status,
                mut headers,
                body,
            } => {
                let (body, encoding) = compress::encode(&request, body);
                headers.extend(encoding);
                headers.push(("Date", http::date(shared.store.now())));
                if let Some(bytes) = shared.faults.head_padding() {
                    headers.push(("X-Padding", "p".repeat(bytes)));
                }
                shared.record_sent(&request, status, body.len() as u64);
                http::write_response(out, status, &headers, &body, request.close).is_ok()
            }
            Reply::Watch(watch_request) => {
                shared.record(&request, watch::response_status(&watch_request));
                watch::stream(shared, &watch_request, out) == watch::StreamEnd::Clean
            }
            Reply::LogFollow(log) => {
                shared.record(&request, 200);
                crate::api::pod_logs::follow(shared, &log, out) == watch::StreamEnd::Clean
            }
            Reply::FloodWatch {
                rendering,
                initial_events,
            } => {
                shared.record(&request, 200);
                flood::stream(shared, rendering, initial_events, out) == watch::StreamEnd::Clean
            }
        };
        if !keep_going || request.close {
            return;
        }
    }
}
