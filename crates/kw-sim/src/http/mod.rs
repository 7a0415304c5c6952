//! A small HTTP/1.1 server side: read one request (bounded header size), write responses with
//! `Content-Length`, and chunked streams for watches; `compress` gzips bodies for clients that
//! accept it. Knows nothing about Kubernetes.

pub mod compress;

use std::io::{self, BufRead, Read, Write};

/// Headers larger than this get 431, as Go's default limit does (1 MiB there; 64 KiB here).
pub const MAX_HEADER_BYTES: usize = 64 * 1024;
/// Request bodies (objects and patches) are bounded as kube-apiserver bounds them: 3 MiB.
const MAX_BODY_BYTES: u64 = 3 * 1024 * 1024;

/// One parsed request.
#[derive(Debug, Clone)]
pub struct Request {
    pub method: String,
    /// Path and query as sent, e.g. `/api/v1/pods?watch=1`.
    pub target: String,
    pub headers: Vec<(String, String)>,
    /// The client asked to close after this response (or spoke HTTP/1.0).
    pub close: bool,
    /// What the client sent after the head (`Content-Length` bytes; empty without one).
    pub body: Vec<u8>,
}

impl Request {
    /// First header with this name (case-insensitive).
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(key, _)| key.eq_ignore_ascii_case(name))
            .map(|(_, value)| value.as_str())
    }

    /// The path without the query.
    pub fn path(&self) -> &str {
        self.target.split('?').next().unwrap_or("")
    }

    /// The raw query string (may be empty).
    pub fn query(&self) -> &str {
        self.target.split_once('?').map(|(_, q)| q).unwrap_or("")
    }
}

/// Why no request could be read.
#[derive(Debug, thiserror::Error)]
pub enum ReadError {
    /// The peer closed the connection between requests: not an error worth answering.
    #[error("connection closed")]
    Closed,
    #[error("request header fields too large")]
    TooLarge,
    #[error("bad request: {0}")]
    Bad(&'static str),
    #[error(transparent)]
    Io(#[from] io::Error),
}

/// Read one line (ending in LF), counting its bytes against the header budget.
fn read_line(reader: &mut impl BufRead, budget: &mut usize) -> Result<Vec<u8>, ReadError> {
    let mut line = Vec::new();
    let limit = (*budget as u64) + 1;
    let read = reader.by_ref().take(limit).read_until(b'\n', &mut line)?;
    if read > *budget {
        return Err(ReadError::TooLarge);
    }
    *budget -= read;
    Ok(line)
}

/// Read the next request: its head and its body.
pub fn read_request(reader: &mut impl BufRead) -> Result<Request, ReadError> {
    let mut budget = MAX_HEADER_BYTES;
    let mut line = read_line(reader, &mut budget)?;
    // Tolerate blank lines before a request line (RFC 9112 §2.2).
    while line == b"\r\n" || line == b"\n" {
        line = read_line(reader, &mut budget)?;
    }
    if line.is_empty() {
        return Err(ReadError::Closed);
    }
    if !line.ends_with(b"\n") {
        return Err(ReadError::Bad("truncated request line"));
    }
    let text = std::str::from_utf8(&line).map_err(|_| ReadError::Bad("request line not UTF-8"))?;
    let mut parts = text.trim_end().split(' ');
    let (Some(method), Some(target), Some(version), None) =
        (parts.next(), parts.next(), parts.next(), parts.next())
    else {
        return Err(ReadError::Bad("malformed request line"));
    };
    // Servers must accept the absolute form (RFC 9112 §3.2.2); clients behind an HTTP proxy
    // send it even inside a CONNECT tunnel (ureq does), and Go's server accepts it.
    let target = match target.split_once("://") {
        Some((scheme, rest))
            if scheme.eq_ignore_ascii_case("https") || scheme.eq_ignore_ascii_case("http") =>
        {
            rest.find('/').map_or("/", |at| &rest[at..])
        }
        _ => target,
    };
    if !version.starts_with("HTTP/1.") || !target.starts_with('/') || method.is_empty() {
        return Err(ReadError::Bad("malformed request line"));
    }
    let mut headers = Vec::new();
    loop {
        let line = read_line(reader, &mut budget)?;
        if line.is_empty() || !line.ends_with(b"\n") {
            return Err(ReadError::Bad("truncated headers"));
        }
        if line == b"\r\n" || line == b"\n" {
            break;
        }
        let text = std::str::from_utf8(&line).map_err(|_| ReadError::Bad("header not UTF-8"))?;
        let Some((name, value)) = text.split_once(':') else {
            return Err(ReadError::Bad("malformed header"));
        };
        if name.is_empty() || name.contains(' ') {
            return Err(ReadError::Bad("malformed header name"));
        }
        headers.push((name.to_string(), value.trim().to_string()));
    }
    let mut request = Request {
        method: method.to_string(),
        target: target.to_string(),
        headers,
        close: version == "HTTP/1.0",
        body: Vec::new(),
    };
    if let Some(connection) = request.header("connection") {
        if connection.eq_ignore_ascii_case("close") {
            request.close = true;
        }
    }
    if request
        .header("transfer-encoding")
        .is_some_and(|te| !te.eq_ignore_ascii_case("identity"))
    {
        // kubectl and client-go send bodies with a Content-Length; chunked ones are not needed.
        return Err(ReadError::Bad("chunked request bodies are not supported"));
    }
    if let Some(length) = request.header("content-length") {
        let length: u64 = length
            .parse()
            .map_err(|_| ReadError::Bad("bad Content-Length"))?;
        if length > MAX_BODY_BYTES {
            return Err(ReadError::Bad("body too large"));
        }
        reader
            .by_ref()
            .take(length)
            .read_to_end(&mut request.body)?;
        if request.body.len() as u64 != length {
            return Err(ReadError::Bad("truncated body"));
        }
    }
    Ok(request)
}

/// The reason phrase for the status codes the server uses.
pub fn reason_phrase(status: u16) -> &'static str {
    match status {
        200 => "OK",
        400 => "Bad Request",
        401 => "Unauthorized",
        403 => "Forbidden",
        404 => "Not Found",
        405 => "Method Not Allowed",
        406 => "Not Acceptable",
        409 => "Conflict",
        410 => "Gone",
        422 => "Unprocessable Entity",
        429 => "Too Many Requests",
        431 => "Request Header Fields Too Large",
        500 => "Internal Server Error",
        503 => "Service Unavailable",
        504 => "Gateway Timeout",
        _ => "Status",
    }
}

/// `at` as an HTTP `Date` (RFC 9110's IMF-fixdate: `Sat, 28 Nov 2026 05:05:20 GMT`), which a
/// real API server sends on every response: clients read the server's clock from it.
pub fn date(at: std::time::SystemTime) -> String {
    const WEEKDAYS: [&str; 7] = ["Thu", "Fri", "Sat", "Sun", "Mon", "Tue", "Wed"];
    const MONTHS: [&str; 12] = [
        "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec",
    ];
    let seconds = at
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    // `2026-11-28T05:05:20Z`
    let rfc3339 = humantime::format_rfc3339_seconds(at).to_string();
    let field = |range: std::ops::Range<usize>| rfc3339.get(range).unwrap_or("00");
    let month: usize = field(5..7).parse().unwrap_or(1);
    format!(
        "{}, {} {} {} {} GMT",
        WEEKDAYS[(seconds / 86_400 % 7) as usize],
        field(8..10),
        MONTHS[month.clamp(1, 12) - 1],
        field(0..4),
        field(11..19),
    )
}

/// Write a complete response with a body and `Content-Length`.
pub fn write_response(
    out: &mut (impl Write + ?Sized),
    status: u16,
    extra_headers: &[(&str, String)],
    body: &[u8],
    close: bool,
) -> io::Result<()> {
    // JSON unless the reply says otherwise (a log, a health check): one Content-Type only.
    let content_type = extra_headers
        .iter()
        .any(|(name, _)| name.eq_ignore_ascii_case("content-type"));
    let mut head = format!(
        "HTTP/1.1 {status} {}\r\n{}Cache-Control: no-cache, private\r\nContent-Length: {}\r\n",
        reason_phrase(status),
        if content_type {
            ""
        } else {
            "Content-Type: application/json\r\n"
        },
        body.len()
    );
    for (name, value) in extra_headers {
        head.push_str(&format!("{name}: {value}\r\n"));
    }
    if close {
        head.push_str("Connection: close\r\n");
    }
    head.push_str("\r\n");
    let mut buffer = Vec::with_capacity(head.len() + body.len());
    buffer.extend_from_slice(head.as_bytes());
    buffer.extend_from_slice(body);
    out.write_all(&buffer)?;
    out.flush()
}

/// Start a chunked 200 response (a watch stream).
pub fn write_stream_head(out: &mut (impl Write + ?Sized)) -> io::Result<()> {
    write_stream_head_as(out, "application/json")
}

/// Start a chunked 200 response of `content_type` (a followed log is `text/plain`).
pub fn write_stream_head_as(out: &mut (impl Write + ?Sized), content_type: &str) -> io::Result<()> {
    let head = format!(
        "HTTP/1.1 200 OK\r\nContent-Type: {content_type}\r\nCache-Control: no-cache, private\r\nTransfer-Encoding: chunked\r\n\r\n"
    );
    out.write_all(head.as_bytes())?;
    out.flush()
}

/// Frame `data` as one chunk into `buffer` (nothing for empty data: that would end the stream).
pub fn frame_chunk(buffer: &mut Vec<u8>, data: &[u8]) {
    if data.is_empty() {
        return;
    }
    // Into the buffer directly: a flood frames ~200,000 chunks a second.
    let _ = write!(buffer, "{:x}\r\n", data.len());
    buffer.extend_from_slice(data);
    buffer.extend_from_slice(b"\r\n");
}

/// Write one chunk and flush it, so the client sees the event now.
pub fn write_chunk(out: &mut (impl Write + ?Sized), data: &[u8]) -> io::Result<()> {
    let mut buffer = Vec::with_capacity(data.len() + 16);
    frame_chunk(&mut buffer, data);
    out.write_all(&buffer)?;
    out.flush()
}

/// End a chunked stream cleanly.
pub fn write_stream_end(out: &mut (impl Write + ?Sized)) -> io::Result<()> {
    out.write_all(b"0\r\n\r\n")?;
    out.flush()
}

/// Percent-decode a query component (`+` is a space in form encoding).
pub fn percent_decode(text: &str) -> String {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut at = 0;
    while at < bytes.len() {
        match bytes[at] {
            b'+' => {
                out.push(b' ');
                at += 1;
            }
            b'%' if at + 2 < bytes.len() => {
                let hex = std::str::from_utf8(&bytes[at + 1..at + 3]).ok();
                match hex.and_then(|hex| u8::from_str_radix(hex, 16).ok()) {
                    Some(byte) => {
                        out.push(byte);
                        at += 3;
                    }
                    None => {
                        out.push(b'%');
                        at += 1;
                    }
                }
            }
            byte => {
                out.push(byte);
                at += 1;
            }
        }
    }
    String::from_utf8_lossy(&out).into_owned()
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Cursor;

    #[test]
    fn the_date_header_is_an_imf_fixdate() {
        let at = |text: &str| humantime::parse_rfc3339(text).unwrap();
        assert_eq!(
            date(at("2026-11-28T05:05:20Z")),
            "Sat, 28 Nov 2026 05:05:20 GMT"
        );
        assert_eq!(
            date(at("1994-11-06T08:49:37Z")),
            "Sun, 06 Nov 1994 08:49:37 GMT"
        );
        assert_eq!(
            date(at("2026-01-01T12:00:00Z")),
            "Thu, 01 Jan 2026 12:00:00 GMT"
        );
    }

    #[test]
    fn reads_a_request_and_skips_its_body() {
        let raw = b"GET /api/v1/pods?watch=1 HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\n\r\nabcGET / HTTP/1.1\r\nConnection: close\r\n\r\n";
        let mut reader = Cursor::new(&raw[..]);
        let first = read_request(&mut reader).unwrap();
        assert_eq!((first.path(), first.query()), ("/api/v1/pods", "watch=1"));
        assert_eq!(first.header("HOST"), Some("x"));
        assert!(!first.close);
        let second = read_request(&mut reader).unwrap();
        assert!(second.close);
        assert!(matches!(read_request(&mut reader), Err(ReadError::Closed)));
    }

    #[test]
    fn rejects_oversized_and_malformed_heads() {
        let mut raw = b"GET / HTTP/1.1\r\nX: ".to_vec();
        raw.extend(std::iter::repeat_n(b'a', MAX_HEADER_BYTES));
        raw.extend_from_slice(b"\r\n\r\n");
        assert!(matches!(
            read_request(&mut Cursor::new(raw)),
            Err(ReadError::TooLarge)
        ));
        for bad in [
            &b"GARBAGE\r\n\r\n"[..],
            b"GET / HTTP/1.1\r\nnocolon\r\n\r\n",
            b"GET / SPDY\r\n\r\n",
        ] {
            assert!(matches!(
                read_request(&mut Cursor::new(bad)),
                Err(ReadError::Bad(_))
            ));
        }
    }

    #[test]
    fn decodes_percent_escapes() {
        assert_eq!(
            percent_decode("app%3Dweb%2Ctier+in+(a)"),
            "app=web,tier in (a)"
        );
        assert_eq!(percent_decode("100%"), "100%");
        assert_eq!(percent_decode("%zz"), "%zz");
    }

    #[test]
    fn frames_chunks() {
        let mut buffer = Vec::new();
        frame_chunk(&mut buffer, b"hello world\n");
        frame_chunk(&mut buffer, b"");
        assert_eq!(buffer, b"c\r\nhello world\n\r\n");
    }
}
