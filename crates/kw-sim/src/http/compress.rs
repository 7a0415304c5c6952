//! Response compression as kube-apiserver does it (`responsewriters`): gzip at level 1 when the
//! client's `Accept-Encoding` allows it and the body is over 128 KiB. Only whole bodies (lists,
//! gets, discovery); watch streams are never compressed.

use std::io::Write;

use flate2::write::GzEncoder;
use flate2::Compression;

use super::Request;

/// The API server's `defaultGzipThresholdBytes`.
pub const THRESHOLD: usize = 128 * 1024;

/// The body to send and, when it was compressed, the header that says so.
pub fn encode(request: &Request, body: Vec<u8>) -> (Vec<u8>, Option<(&'static str, String)>) {
    if body.len() <= THRESHOLD || !accepts_gzip(request) {
        return (body, None);
    }
    let mut encoder = GzEncoder::new(Vec::with_capacity(body.len() / 8), Compression::new(1));
    match encoder.write_all(&body).and_then(|()| encoder.finish()) {
        Ok(compressed) => (compressed, Some(("Content-Encoding", "gzip".to_string()))),
        // Writing into a Vec does not fail; if it did, the plain body is still right.
        Err(_) => (body, None),
    }
}

fn accepts_gzip(request: &Request) -> bool {
    request.header("accept-encoding").is_some_and(|value| {
        value.split(',').any(|coding| {
            let mut parts = coding.split(';');
            let name = parts.next().unwrap_or_default().trim();
            let refused = parts.any(|p| p.trim().replace(' ', "") == "q=0");
            name.eq_ignore_ascii_case("gzip") && !refused
        })
    })
}
