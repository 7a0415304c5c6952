//! Object names as kube-apiserver takes them, with its exact messages: every name must be a
//! path segment (not `.` or `..`, no `/` or `%`: it is a key in the store and a segment of the
//! URL), and a new object's name must be what its kind allows (an RFC 1123 subdomain for most,
//! an RFC 1035 label for a Service, an RFC 1123 label for a Namespace).

/// Why `name` cannot be a segment of a path (apimachinery's `IsValidPathSegmentName`).
pub fn path_segment_errors(name: &str) -> Vec<String> {
    if let Some(illegal) = [".", ".."].into_iter().find(|illegal| name == *illegal) {
        return vec![format!("may not be '{illegal}'")];
    }
    ["/", "%"]
        .into_iter()
        .filter(|illegal| name.contains(illegal))
        .map(|illegal| format!("may not contain '{illegal}'"))
        .collect()
}

/// The 400 message for a name on a request's path that cannot be a key in the store.
pub fn path_segment_refusal(name: &str) -> Option<String> {
    let errors = path_segment_errors(name);
    (!errors.is_empty()).then(|| format!("Name parameter invalid: {name:?}: {}", errors.join(";")))
}

const SUBDOMAIN_MESSAGE: &str = "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";
const LABEL_MESSAGE: &str = "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')";
const DNS1035_MESSAGE: &str = "a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')";

/// Why `name` cannot name a new object of `kind`, one message per rule broken, as the
/// server's validation lists them (`Invalid value: "a/b": ...`).
pub fn new_name_errors(kind: &str, name: &str) -> Vec<String> {
    let (limit, fits, message) = match kind {
        "Service" => (63, dns1035_label(name), DNS1035_MESSAGE),
        "Namespace" => (63, dns1123_label(name), LABEL_MESSAGE),
        _ => (253, dns1123_subdomain(name), SUBDOMAIN_MESSAGE),
    };
    let mut errors = Vec::new();
    if name.len() > limit {
        errors.push(format!("must be no more than {limit} characters"));
    }
    if !fits {
        errors.push(message.to_string());
    }
    errors
}

/// `[a-z0-9]([-a-z0-9]*[a-z0-9])?`
fn dns1123_label(label: &str) -> bool {
    let bytes = label.as_bytes();
    let alphanumeric = |b: &u8| b.is_ascii_lowercase() || b.is_ascii_digit();
    match (bytes.first(), bytes.last()) {
        (Some(first), Some(last)) => {
            alphanumeric(first)
                && alphanumeric(last)
                && bytes.iter().all(|b| alphanumeric(b) || *b == b'-')
        }
        _ => false,
    }
}

/// Labels of [`dns1123_label`] joined by dots.
fn dns1123_subdomain(name: &str) -> bool {
    name.split('.').all(dns1123_label)
}

/// `[a-z]([-a-z0-9]*[a-z0-9])?`
fn dns1035_label(name: &str) -> bool {
    name.as_bytes()
        .first()
        .is_some_and(|first| first.is_ascii_lowercase())
        && dns1123_label(name)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_that_are_no_path_segment_are_refused_in_the_servers_words() {
        assert_eq!(path_segment_errors(".."), ["may not be '..'"]);
        assert_eq!(path_segment_errors("."), ["may not be '.'"]);
        assert_eq!(
            path_segment_errors("../x%"),
            ["may not contain '/'", "may not contain '%'"]
        );
        assert!(path_segment_errors("web-1.a").is_empty());
        assert_eq!(
            path_segment_refusal("a%2Fb").as_deref(),
            Some("Name parameter invalid: \"a%2Fb\": may not contain '%'")
        );
    }

    #[test]
    fn new_names_follow_their_kinds_rule() {
        for bad in ["../x", "a/b", "..", "a%2Fb", "Web", "-a", "a..b", ""] {
            assert_eq!(
                new_name_errors("Deployment", bad),
                [SUBDOMAIN_MESSAGE],
                "{bad}"
            );
        }
        assert!(new_name_errors("Deployment", "web.v1-2").is_empty());
        assert_eq!(new_name_errors("Service", "1web"), [DNS1035_MESSAGE]);
        assert_eq!(new_name_errors("Namespace", "a.b"), [LABEL_MESSAGE]);
        assert_eq!(
            new_name_errors("Pod", &"a".repeat(254)),
            ["must be no more than 253 characters"]
        );
    }
}
