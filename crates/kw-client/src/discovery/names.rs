//! Which names from a discovery answer may go into a request path. Group, version and resource
//! names are put into paths as they are (`/apis/{group}/{version}/{resource}`), so a server
//! that names a group `apps/v1/namespaces/kube-system/secrets?x=` would otherwise choose what kw
//! asks for. Only what the API itself allows passes: a group is a DNS subdomain (RFC 1123), a
//! version and a resource (and a subresource, after its `/`) a DNS label. An entry that fails
//! is left out with a note at `-v` (by `served`), as kubectl ignores discovery entries it cannot
//! parse.

/// A DNS label (RFC 1123): 1 to 63 lower-case letters, digits and `-`, starting and ending with
/// a letter or digit.
pub fn is_label(name: &str) -> bool {
    let bytes = name.as_bytes();
    let edge = |b: &u8| b.is_ascii_lowercase() || b.is_ascii_digit();
    (1..=63).contains(&bytes.len())
        && bytes.first().is_some_and(edge)
        && bytes.last().is_some_and(edge)
        && bytes.iter().all(|b| edge(b) || *b == b'-')
}

/// A DNS subdomain (RFC 1123): at most 253 characters, labels joined by dots.
pub fn is_subdomain(name: &str) -> bool {
    name.len() <= 253 && name.split('.').all(is_label)
}

/// Whether `group` (`""`: the core group, only from `/api`) and `version` may be asked for.
pub fn is_group_version(group: &str, version: &str, core: bool) -> bool {
    let group_ok = if core {
        group.is_empty()
    } else {
        is_subdomain(group)
    };
    group_ok && is_label(version)
}

/// `pods` or `pods/log`.
pub fn is_resource(name: &str) -> bool {
    match name.split_once('/') {
        Some((resource, sub)) => is_label(resource) && is_label(sub),
        None => is_label(name),
    }
}

/// Say at `-v` that a group version was left out, and why.
pub fn skipped_version(group: &str, version: &str) {
    kw_base::vlog!(
        kw_base::log::REQUESTS,
        "discovery: ignoring group {group:?} version {version:?}: not a valid group and version \
         name"
    );
}

/// Say at `-v` that a resource was left out.
pub fn skipped_resource(resource: &str, group: &str, version: &str) {
    kw_base::vlog!(
        kw_base::log::REQUESTS,
        "discovery: ignoring resource {resource:?} of {group:?} {version:?}: not a resource name"
    );
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_names_the_api_allows_pass() {
        for good in ["apps", "metrics.k8s.io", "example.com", "a", "x-1.y"] {
            assert!(is_subdomain(good), "{good}");
        }
        for bad in [
            "",
            "apps/v1/namespaces/kube-system/secrets?x=",
            "..",
            "a..b",
            ".apps",
            "apps#",
            "Apps",
            "a\r\nb",
            "-a",
            "a b",
            "a%2Fb",
            &"a".repeat(254),
        ] {
            assert!(!is_subdomain(bad), "{bad:?}");
        }
        assert!(is_label("v1beta1") && !is_label("v1.0") && !is_label(&"v".repeat(64)));
        assert!(is_resource("pods") && is_resource("deployments/scale"));
        for bad in ["pods/log/x", "../secrets", "pods?x=", "/", "pods/", ""] {
            assert!(!is_resource(bad), "{bad:?}");
        }
        assert!(is_group_version("", "v1", true));
        assert!(
            !is_group_version("apps", "v1", true),
            "a named group is not core"
        );
        assert!(
            !is_group_version("", "v1", false),
            "nor /apis the core group"
        );
    }
}
