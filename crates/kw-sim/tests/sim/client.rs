//! A raw HTTP/1.1 client over TLS (or plain HTTP), so the tests see exactly what the server
//! framed: status lines, headers, bodies, and each chunk of a watch. Every read has a time limit
//! (`READ_LIMIT`): a server that stops talking fails the test instead of hanging it.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::sync::Arc;

use kw_sim::SimHandle;
use rustls_pki_types::pem::PemObject;
use rustls_pki_types::{CertificateDer, PrivateKeyDer, ServerName};
use serde_json::{json, Value};

use crate::harness::READ_LIMIT;

pub const TABLE_ACCEPT: &str = kw_wire::TABLE_ACCEPT;

pub trait Transport: Read + Write + Send {}
impl<T: Read + Write + Send> Transport for T {}

/// A raw HTTP/1.1 client connection, so tests see exactly what the server framed.
pub struct Conn {
    pub reader: BufReader<Box<dyn Transport>>,
}

pub enum Chunk {
    Data(Vec<u8>),
    /// The terminating chunk: a clean end.
    End,
    /// EOF or a broken chunk: the connection was dropped.
    Broken,
    /// Nothing arrived within the read timeout.
    Silent,
}

pub struct Response {
    pub status: u16,
    pub headers: Vec<(String, String)>,
    pub body: Vec<u8>,
}

impl Response {
    pub fn json(&self) -> Value {
        serde_json::from_slice(&self.body).unwrap_or(Value::Null)
    }
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(k, _)| k.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }
}

pub fn connect(sim: &SimHandle, client_cert: bool) -> Conn {
    connect_waiting(sim, client_cert, READ_LIMIT)
}

/// A connection whose reads wait up to `limit` (a big write takes a while in a debug build).
pub fn connect_waiting(sim: &SimHandle, client_cert: bool, limit: std::time::Duration) -> Conn {
    let stream = TcpStream::connect(("127.0.0.1", sim.port())).expect("connect");
    stream.set_read_timeout(Some(limit)).expect("timeout");
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
    pub fn send(&mut self, path: &str, headers: &[(&str, &str)]) {
        let mut request = format!("GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\n");
        for (name, value) in headers {
            request.push_str(&format!("{name}: {value}\r\n"));
        }
        request.push_str("\r\n");
        let out = self.reader.get_mut();
        out.write_all(request.as_bytes()).expect("send");
        out.flush().expect("flush");
    }

    /// A request with a body (POST, PUT, PATCH), as the admin.
    pub fn send_body(
        &mut self,
        sim: &SimHandle,
        method: &str,
        path: &str,
        content_type: &str,
        body: &[u8],
    ) {
        let mut request = format!(
            "{method} {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: {}\r\nContent-Type: {content_type}\r\nContent-Length: {}\r\n\r\n",
            bearer(sim),
            body.len()
        );
        let out = self.reader.get_mut();
        out.write_all(request.as_bytes()).expect("send");
        out.write_all(body).expect("send body");
        out.flush().expect("flush");
        request.clear();
    }

    pub fn head(&mut self) -> (u16, Vec<(String, String)>) {
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

    pub fn response(&mut self) -> Response {
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

    pub fn chunk(&mut self) -> Chunk {
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
    pub fn events(&mut self, count: usize) -> (Vec<Value>, Option<&'static str>) {
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

pub fn bearer(sim: &SimHandle) -> String {
    format!("Bearer {}", sim.admin_token())
}

pub fn get_with(sim: &SimHandle, path: &str, headers: &[(&str, &str)]) -> Response {
    let mut conn = connect(sim, false);
    conn.send(path, headers);
    conn.response()
}

/// GET as the admin, with an Accept header.
pub fn get_accepting(sim: &SimHandle, path: &str, accept: &str) -> Response {
    let auth = bearer(sim);
    get_with(sim, path, &[("Authorization", &auth), ("Accept", accept)])
}

pub fn get(sim: &SimHandle, path: &str) -> Response {
    let auth = bearer(sim);
    get_with(sim, path, &[("Authorization", &auth)])
}

pub fn watch(sim: &SimHandle, path: &str, accept: Option<&str>) -> (u16, Conn) {
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

impl Conn {
    pub fn response_body_only(&mut self) -> usize {
        let mut buffer = [0u8; 4096];
        self.reader.read(&mut buffer).unwrap_or(0)
    }
}

/// One write on a connection of its own: the response.
pub fn write(
    sim: &SimHandle,
    method: &str,
    path: &str,
    content_type: &str,
    body: &Value,
) -> Response {
    // Writes may be big (the hostile ones are): their answer may take longer than a read.
    let mut conn = connect_waiting(sim, false, std::time::Duration::from_secs(60));
    conn.send_body(sim, method, path, content_type, body.to_string().as_bytes());
    conn.response()
}
