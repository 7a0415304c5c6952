//! Proxies, by kubectl's (Go's) rules: the kubeconfig's `proxy-url` always applies; otherwise
//! `HTTPS_PROXY` (https targets) or `HTTP_PROXY` (http targets), unless `NO_PROXY` names the
//! target by host, domain, IP or CIDR range, and never for loopback targets. The rules are pure
//! functions of a [`ProxyEnv`] snapshot so they can be tested without touching the environment;
//! [`ProxyEnv::from_process`] is the one place that reads it.

use std::net::IpAddr;

use crate::config::endpoint::{Scheme, ServerUrl};

/// How kw talks to the proxy.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ProxyScheme {
    /// HTTP `CONNECT`.
    Http,
    /// HTTP `CONNECT` inside TLS to the proxy.
    Https,
    Socks5,
}

/// A checked proxy URL. `Debug` and `Display` never show a password.
#[derive(Clone, PartialEq, Eq)]
pub struct ProxyUrl {
    pub scheme: ProxyScheme,
    /// Host name or IP literal, without brackets.
    pub host: String,
    pub port: u16,
    /// `user:password@` from the URL, percent-decoded.
    pub credentials: Option<(String, String)>,
}

impl std::fmt::Display for ProxyUrl {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let scheme = match self.scheme {
            ProxyScheme::Http => "http",
            ProxyScheme::Https => "https",
            ProxyScheme::Socks5 => "socks5",
        };
        let user = if self.credentials.is_some() {
            "<redacted>@"
        } else {
            ""
        };
        if self.host.contains(':') {
            write!(f, "{scheme}://{user}[{}]:{}", self.host, self.port)
        } else {
            write!(f, "{scheme}://{user}{}:{}", self.host, self.port)
        }
    }
}

impl std::fmt::Debug for ProxyUrl {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "ProxyUrl({self})")
    }
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ProxyError {
    #[error("proxy URL {url:?} is invalid: {reason}")]
    BadUrl { url: String, reason: String },
    #[error("proxy scheme {scheme:?} is not supported (use http, https or socks5)")]
    UnsupportedScheme { scheme: String },
    /// A scheme no URL scheme list knows: it may be a password (`audituser:s3cret://host`
    /// without `@`), so it is not shown.
    #[error("proxy URL has a scheme that is not supported (use http, https or socks5)")]
    UnknownScheme,
}

impl ProxyUrl {
    /// Parses `scheme://[user:pass@]host[:port]`; a missing scheme means `http` (as in Go's
    /// environment handling).
    pub fn parse(text: &str) -> Result<ProxyUrl, ProxyError> {
        let bad = |reason: &str| ProxyError::BadUrl {
            // Never echo a password back.
            url: redact_userinfo(text),
            reason: reason.to_string(),
        };
        let text = text.trim();
        // Only a scheme as RFC 3986 spells one: `user:pass://x@host` has none (and its
        // password must not be shown as one).
        let (scheme, rest) = match split_scheme(text) {
            Some((scheme, rest)) => (scheme.to_ascii_lowercase(), rest),
            None => ("http".to_string(), text),
        };
        let scheme = match scheme.as_str() {
            "http" => ProxyScheme::Http,
            "https" => ProxyScheme::Https,
            "socks5" | "socks5h" => ProxyScheme::Socks5,
            _ if WELL_KNOWN_SCHEMES.contains(&scheme.as_str()) => {
                return Err(ProxyError::UnsupportedScheme { scheme })
            }
            _ => return Err(ProxyError::UnknownScheme),
        };
        let authority = rest.split(['/', '?', '#']).next().unwrap_or("");
        let (credentials, host_port) = match authority.rsplit_once('@') {
            Some((userinfo, host_port)) => {
                let (user, password) = userinfo.split_once(':').unwrap_or((userinfo, ""));
                (
                    Some((percent_decode(user), percent_decode(password))),
                    host_port,
                )
            }
            None => (None, authority),
        };
        let default_port = match scheme {
            ProxyScheme::Http => 80,
            ProxyScheme::Https => 443,
            ProxyScheme::Socks5 => 1080,
        };
        let (host, port) = if let Some(bracketed) = host_port.strip_prefix('[') {
            let (host, after) = bracketed
                .split_once(']')
                .ok_or_else(|| bad("unclosed [ in the host"))?;
            host.parse::<std::net::Ipv6Addr>()
                .map_err(|_| bad("not an IPv6 address in [ ]"))?;
            let port = match after.strip_prefix(':') {
                Some(port) => Some(port),
                None if after.is_empty() => None,
                None => return Err(bad("junk after ]")),
            };
            (host.to_string(), port)
        } else {
            match host_port.rsplit_once(':') {
                Some((host, port)) => (host.to_string(), Some(port)),
                None => (host_port.to_string(), None),
            }
        };
        if host.is_empty() {
            return Err(bad("no host"));
        }
        let bracketed_v6 = host.contains(':') && host.parse::<std::net::Ipv6Addr>().is_ok();
        if !bracketed_v6 && host.contains(|c: char| c.is_whitespace() || ":@[]\\".contains(c)) {
            return Err(bad("bad host"));
        }
        let port = match port {
            Some(port) => match port.parse::<u16>() {
                Ok(port) if port > 0 => port,
                _ => return Err(bad("bad port")),
            },
            None => default_port,
        };
        Ok(ProxyUrl {
            scheme,
            host,
            port,
            credentials,
        })
    }

    /// The proxy for ureq. (TLS to an `https://` proxy is kw's own: `client::tls`.)
    pub fn to_ureq(&self) -> Result<ureq::Proxy, ProxyError> {
        let protocol = match self.scheme {
            ProxyScheme::Http => ureq::ProxyProtocol::Http,
            ProxyScheme::Https => ureq::ProxyProtocol::Https,
            ProxyScheme::Socks5 => ureq::ProxyProtocol::Socks5,
        };
        let host = if self.host.contains(':') {
            format!("[{}]", self.host)
        } else {
            self.host.clone()
        };
        let mut builder = ureq::Proxy::builder(protocol).host(&host).port(self.port);
        if let Some((user, password)) = &self.credentials {
            // The builder percent-encodes them again for the URI it keeps.
            builder = builder.username(user).password(password);
        }
        builder.build().map_err(|error| ProxyError::BadUrl {
            url: self.to_string(),
            reason: error.to_string(),
        })
    }
}

/// `scheme` and what follows `scheme://`, if `text` starts with a scheme: a letter, then letters,
/// digits, `+`, `-` or `.` (RFC 3986), so never anything holding `:` or `@`.
fn split_scheme(text: &str) -> Option<(&str, &str)> {
    let (scheme, rest) = text.split_once("://")?;
    let mut chars = scheme.chars();
    let valid = chars.next().is_some_and(|c| c.is_ascii_alphabetic())
        && chars.all(|c| c.is_ascii_alphanumeric() || "+-.".contains(c));
    valid.then_some((scheme, rest))
}

/// Schemes kw names in an error when they are not supported: URL schemes a user may mean,
/// never a secret. Any other is not shown (it may be a password).
const WELL_KNOWN_SCHEMES: [&str; 8] = [
    "ftp", "socks", "socks4", "socks4a", "ws", "wss", "file", "unix",
];

/// `text` as an error may show it: everything before its last `@` (after the scheme) redacted,
/// whatever the URL's shape, since a password sits there; and what precedes `://` unless it is a
/// scheme kw knows (`audituser:s3cretPW://127.0.0.1:9` has no `@`, and a password as its
/// "scheme").
fn redact_userinfo(text: &str) -> String {
    let (prefix, rest) = match text.split_once("://") {
        Some((scheme, rest)) if is_known_scheme(scheme) => (format!("{scheme}://"), rest),
        // Redacted up to the last `@` below, the "scheme" with it.
        Some((_, rest)) if rest.contains('@') => (String::new(), text),
        Some((_, rest)) => ("<redacted>://".to_string(), rest),
        None => (String::new(), text),
    };
    match rest.rfind('@') {
        Some(at) => format!("{prefix}<redacted>{}", &rest[at..]),
        None => format!("{prefix}{rest}"),
    }
}

fn is_known_scheme(scheme: &str) -> bool {
    let scheme = scheme.to_ascii_lowercase();
    matches!(scheme.as_str(), "http" | "https" | "socks5" | "socks5h")
        || WELL_KNOWN_SCHEMES.contains(&scheme.as_str())
}

fn percent_decode(text: &str) -> String {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%' && i + 3 <= bytes.len() {
            let hex = |b: u8| (b as char).to_digit(16);
            if let (Some(high), Some(low)) = (hex(bytes[i + 1]), hex(bytes[i + 2])) {
                out.push((high * 16 + low) as u8);
                i += 3;
                continue;
            }
        }
        out.push(bytes[i]);
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// The proxy variables, as read from the environment (upper case first, as Go does).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ProxyEnv {
    pub https_proxy: Option<String>,
    pub http_proxy: Option<String>,
    pub no_proxy: Option<String>,
}

impl ProxyEnv {
    /// The one place kw reads the proxy variables.
    pub fn from_process() -> ProxyEnv {
        let get = |upper: &str, lower: &str| {
            [upper, lower]
                .iter()
                .filter_map(|name| std::env::var(name).ok())
                .find(|value| !value.is_empty())
        };
        ProxyEnv {
            https_proxy: get("HTTPS_PROXY", "https_proxy"),
            http_proxy: get("HTTP_PROXY", "http_proxy"),
            no_proxy: get("NO_PROXY", "no_proxy"),
        }
    }

    /// The proxy the environment chooses for `target`, if any.
    pub fn proxy_for(&self, target: &ServerUrl) -> Result<Option<ProxyUrl>, ProxyError> {
        let proxy = match target.scheme {
            Scheme::Https => self.https_proxy.as_deref(),
            Scheme::Http => self.http_proxy.as_deref(),
        };
        let Some(proxy) = proxy.map(str::trim).filter(|p| !p.is_empty()) else {
            return Ok(None);
        };
        if !use_proxy(
            &target.host,
            target.port,
            self.no_proxy.as_deref().unwrap_or(""),
        ) {
            return Ok(None);
        }
        ProxyUrl::parse(proxy).map(Some)
    }
}

/// Go's `useProxy`: false for loopback targets and for targets `NO_PROXY` matches.
pub fn use_proxy(host: &str, port: u16, no_proxy: &str) -> bool {
    let host = host.trim_start_matches('[').trim_end_matches(']');
    if host.eq_ignore_ascii_case("localhost") {
        return false;
    }
    let ip = host.parse::<IpAddr>().ok();
    if ip.is_some_and(|ip| ip.is_loopback()) {
        return false;
    }
    let host = host.to_ascii_lowercase();
    let port = port.to_string();
    for entry in no_proxy.split(',') {
        let entry = entry.trim().to_ascii_lowercase();
        if entry.is_empty() {
            continue;
        }
        if entry == "*" {
            return false;
        }
        if let Some((net, bits)) = parse_cidr(&entry) {
            if ip.is_some_and(|ip| cidr_contains(net, bits, ip)) {
                return false;
            }
            continue;
        }
        let (entry_host, entry_port) = split_host_port(&entry);
        if let Ok(entry_ip) = entry_host.parse::<IpAddr>() {
            if ip == Some(entry_ip) && entry_port.is_none_or(|p| p == port) {
                return false;
            }
            continue;
        }
        if entry_host.is_empty() {
            continue;
        }
        // "*.example.com" is ".example.com"; "example.com" matches itself and subdomains;
        // ".example.com" matches subdomains only.
        let entry_host = entry_host.strip_prefix('*').unwrap_or(entry_host);
        let (suffix, match_host) = if entry_host.starts_with('.') {
            (entry_host.to_string(), false)
        } else {
            (format!(".{entry_host}"), true)
        };
        let matched = host.ends_with(&suffix) || (match_host && host == suffix[1..]);
        if matched && entry_port.is_none_or(|p| p == port) {
            return false;
        }
    }
    true
}

/// `host:port`, `[v6]:port` or a bare host.
fn split_host_port(entry: &str) -> (&str, Option<&str>) {
    if let Some(rest) = entry.strip_prefix('[') {
        if let Some((host, after)) = rest.split_once(']') {
            return (host, after.strip_prefix(':').filter(|p| !p.is_empty()));
        }
    }
    match entry.rsplit_once(':') {
        // A bare IPv6 address has several colons and no port.
        Some((host, port)) if !host.contains(':') && !port.is_empty() => (host, Some(port)),
        _ => (entry, None),
    }
}

fn parse_cidr(entry: &str) -> Option<(IpAddr, u8)> {
    let (net, bits) = entry.split_once('/')?;
    let net: IpAddr = net.parse().ok()?;
    let bits: u8 = bits.parse().ok()?;
    let max = if net.is_ipv4() { 32 } else { 128 };
    (bits <= max).then_some((net, bits))
}

fn cidr_contains(net: IpAddr, bits: u8, ip: IpAddr) -> bool {
    let (net, ip, width) = match (net, ip) {
        (IpAddr::V4(net), IpAddr::V4(ip)) => {
            (u128::from(u32::from(net)), u128::from(u32::from(ip)), 32u32)
        }
        (IpAddr::V6(net), IpAddr::V6(ip)) => (u128::from(net), u128::from(ip), 128u32),
        _ => return false,
    };
    if bits == 0 {
        return true;
    }
    let shift = width - u32::from(bits);
    (net >> shift) == (ip >> shift)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn target(url: &str) -> ServerUrl {
        crate::config::endpoint::parse_server_url(url).unwrap()
    }

    fn env(https: Option<&str>, http: Option<&str>, no: Option<&str>) -> ProxyEnv {
        ProxyEnv {
            https_proxy: https.map(str::to_string),
            http_proxy: http.map(str::to_string),
            no_proxy: no.map(str::to_string),
        }
    }

    #[test]
    fn https_proxy_for_https_and_http_proxy_for_http_only() {
        let e = env(Some("http://p1:3128"), Some("p2:8080"), None);
        let chosen = e.proxy_for(&target("https://api.example.com")).unwrap();
        assert_eq!(chosen.map(|p| p.host), Some("p1".to_string()));
        let chosen = e.proxy_for(&target("http://api.example.com")).unwrap();
        assert_eq!(
            chosen.map(|p| (p.host, p.port, p.scheme)),
            Some(("p2".to_string(), 8080, ProxyScheme::Http))
        );
        let only_http = env(None, Some("http://p2"), None);
        assert_eq!(
            only_http.proxy_for(&target("https://a.example")).unwrap(),
            None
        );
    }

    #[test]
    fn loopback_targets_are_never_proxied_by_the_environment() {
        let e = env(Some("http://p:1"), Some("http://p:1"), None);
        for url in [
            "https://127.0.0.1:6443",
            "https://127.3.4.5",
            "https://[::1]:6443",
            "https://localhost:6443",
            "http://LOCALHOST",
        ] {
            assert_eq!(e.proxy_for(&target(url)).unwrap(), None, "{url}");
        }
        assert!(e.proxy_for(&target("https://10.0.0.1")).unwrap().is_some());
    }

    #[test]
    fn no_proxy_matches_hosts_domains_ips_and_ranges() {
        let no = "example.com, .internal,*.corp.test,10.0.0.0/8,192.168.1.7,[fd00::1],fe80::/10,api.port.test:6443";
        let cases = [
            ("example.com", 443, false),
            ("API.example.com", 443, false),
            ("notexample.com", 443, true),
            ("internal", 443, true),
            ("k8s.internal", 443, false),
            ("a.corp.test", 443, false),
            ("corp.test", 443, true),
            ("10.1.2.3", 443, false),
            ("11.1.2.3", 443, true),
            ("192.168.1.7", 443, false),
            ("192.168.1.8", 443, true),
            ("fd00::1", 443, false),
            ("fe80::abcd", 443, false),
            ("fd00::2", 443, true),
            ("api.port.test", 6443, false),
            ("api.port.test", 443, true),
        ];
        for (host, port, proxied) in cases {
            assert_eq!(use_proxy(host, port, no), proxied, "{host}:{port}");
        }
        assert!(!use_proxy("anything.example", 443, "*"));
        assert!(use_proxy("anything.example", 443, " , "));
        assert!(use_proxy("10.0.0.1", 443, "10.0.0.0/99"));
    }

    #[test]
    fn proxy_urls_parse_and_never_show_passwords() {
        let p = ProxyUrl::parse("socks5://me:p%40ss@[fd00::9]:1081").unwrap();
        assert_eq!(p.scheme, ProxyScheme::Socks5);
        assert_eq!((p.host.as_str(), p.port), ("fd00::9", 1081));
        assert_eq!(p.credentials, Some(("me".to_string(), "p@ss".to_string())));
        let shown = format!("{p} {p:?}");
        assert!(
            !shown.contains("p@ss") && !shown.contains("p%40ss"),
            "{shown}"
        );
        assert_eq!(ProxyUrl::parse("https://proxy").unwrap().port, 443);
        assert_eq!(
            ProxyUrl::parse("proxy.corp:3128").unwrap().scheme,
            ProxyScheme::Http
        );
        for bad in [
            "ftp://x",
            "http://",
            "http://h:0",
            "http://h:x",
            "http://[zz]:1",
            "http://u:secret@h:99999",
        ] {
            let error = ProxyUrl::parse(bad).unwrap_err().to_string();
            assert!(!error.contains("secret"), "{error}");
        }
        // Whatever the shape, what precedes the last `@` is never shown.
        for bad in [
            "audituser:s3cretpw://x@127.0.0.1:3128",
            "audituser:s3cret://pw@127.0.0.1:3128",
            "http://audituser:s3cret://pw@h:99999",
            "audituser:s3cretpw@h:99999",
            "ftp://audituser:s3cretpw@h",
            "audituser:s3cretpw@[zz]:1",
            // No `@`: the "scheme" is the password (issue 45).
            "audituser:s3cretPW://127.0.0.1:9",
            "s3cretPW://127.0.0.1:9",
        ] {
            let error = ProxyUrl::parse(bad).unwrap_err().to_string();
            assert!(!error.contains("s3cret"), "{bad}: {error}");
        }
        assert_eq!(
            ProxyUrl::parse("audituser:s3cretPW://127.0.0.1:9")
                .unwrap_err()
                .to_string(),
            "proxy URL \"<redacted>://127.0.0.1:9\" is invalid: bad host"
        );
        assert_eq!(
            ProxyUrl::parse("ftp://u:pw@h").unwrap_err().to_string(),
            "proxy scheme \"ftp\" is not supported (use http, https or socks5)"
        );
        let https = ProxyUrl::parse("https://u:p@p").unwrap().to_ureq().unwrap();
        assert_eq!(https.protocol(), ureq::ProxyProtocol::Https);
        assert_eq!((https.host(), https.port()), ("p", 443));
        assert!(ProxyUrl::parse("http://u:p@127.0.0.1:3128")
            .unwrap()
            .to_ureq()
            .is_ok());
    }
}
