//! Who is asking and what they may do: bearer tokens (random per run), the client certificate's
//! CN and O, and the tiny RBAC model of the sim (admin and cert users see everything; `limited`
//! sees namespace `team-a` only). Builds the 401/403 Status bodies a real server sends.

use std::hash::{BuildHasher, Hasher};

use crate::world::catalog::ResourceInfo;
use kw_wire::{Status, StatusDetails};

/// The group that grants everything, as on a real cluster.
const MASTERS: &str = "system:masters";
/// The one namespace the limited user may read.
pub const LIMITED_NAMESPACE: &str = "team-a";

/// The per-run bearer tokens.
#[derive(Debug, Clone)]
pub struct Tokens {
    pub admin: String,
    pub limited: String,
    /// Never accepted: the kubeconfig's `sim-bad-token` context uses it to provoke 401s.
    pub bad: String,
}

impl Tokens {
    pub fn random() -> Tokens {
        Tokens {
            admin: random_token(),
            limited: random_token(),
            bad: random_token(),
        }
    }
}

/// 128 bits from the std library's per-process random hasher keys mixed with the time; tokens
/// only need to be unguessable by other local tests, not cryptographically strong.
fn random_token() -> String {
    let mut out = String::new();
    for round in 0..2u64 {
        let mut hasher = std::collections::hash_map::RandomState::new().build_hasher();
        hasher.write_u64(round);
        if let Ok(elapsed) = std::time::UNIX_EPOCH.elapsed() {
            hasher.write_u128(elapsed.as_nanos());
        }
        out.push_str(&format!("{:016x}", hasher.finish()));
    }
    out
}

/// An authenticated user.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct User {
    pub name: String,
    pub groups: Vec<String>,
}

impl User {
    fn has_full_access(&self) -> bool {
        self.name == "admin" || self.groups.iter().any(|g| g == MASTERS)
    }
}

/// The identity in a verified client certificate.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CertIdentity {
    pub common_name: String,
    pub organizations: Vec<String>,
}

/// The outcome of authentication.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Authn {
    User(User),
    /// No credentials at all.
    Anonymous,
    /// Credentials the server does not accept.
    Rejected,
}

/// Authenticate a request: a verified client cert wins (x509 runs first on real servers), then
/// the bearer token.
pub fn authenticate(
    tokens: &Tokens,
    authorization: Option<&str>,
    cert: Option<&CertIdentity>,
) -> Authn {
    if let Some(cert) = cert {
        return Authn::User(User {
            name: cert.common_name.clone(),
            groups: cert.organizations.clone(),
        });
    }
    let Some(header) = authorization else {
        return Authn::Anonymous;
    };
    let token = match header.split_once(' ') {
        Some((scheme, token)) if scheme.eq_ignore_ascii_case("bearer") => token.trim(),
        _ => return Authn::Rejected,
    };
    if token == tokens.admin {
        Authn::User(User {
            name: "admin".into(),
            groups: vec!["system:authenticated".into()],
        })
    } else if token == tokens.limited {
        Authn::User(User {
            name: "limited".into(),
            groups: vec!["system:authenticated".into()],
        })
    } else {
        Authn::Rejected
    }
}

/// The 401 body.
pub fn unauthorized() -> Status {
    Status::failure(401, "Unauthorized", "Unauthorized")
}

/// One request to authorize.
pub struct Access<'a> {
    pub verb: &'a str,
    pub resource: &'a ResourceInfo,
    /// `None` for cluster-scoped requests and all-namespace lists.
    pub namespace: Option<&'a str>,
    pub name: Option<&'a str>,
}

/// Decide; `Err` is the 403 Status the real authorizer's wording produces.
pub fn authorize(user: &User, access: &Access<'_>) -> Result<(), Status> {
    if user.has_full_access() {
        return Ok(());
    }
    if user.name == "limited" && access.namespace == Some(LIMITED_NAMESPACE) {
        return Ok(());
    }
    Err(forbidden(user, access))
}

fn forbidden(user: &User, access: &Access<'_>) -> Status {
    let subject = match access.name {
        Some(name) => format!("{} \"{}\"", access.resource.plural, name),
        None => access.resource.plural.to_string(),
    };
    let scope = match access.namespace {
        Some(namespace) => format!("in the namespace \"{namespace}\""),
        None => "at the cluster scope".to_string(),
    };
    let message = format!(
        "{subject} is forbidden: User \"{}\" cannot {} resource \"{}\" in API group \"{}\" {scope}",
        user.name, access.verb, access.resource.plural, access.resource.group
    );
    let mut status = Status::failure(403, "Forbidden", message);
    status.details = Some(StatusDetails {
        name: access.name.unwrap_or("").into(),
        group: access.resource.group.into(),
        kind: access.resource.plural.into(),
        ..StatusDetails::default()
    });
    status
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::world::catalog::by_plural;

    fn tokens() -> Tokens {
        Tokens {
            admin: "a".into(),
            limited: "l".into(),
            bad: "b".into(),
        }
    }

    #[test]
    fn tokens_and_certs_authenticate() {
        let tokens = tokens();
        assert!(
            matches!(authenticate(&tokens, Some("Bearer a"), None), Authn::User(u) if u.name == "admin")
        );
        assert_eq!(
            authenticate(&tokens, Some("Bearer b"), None),
            Authn::Rejected
        );
        assert_eq!(
            authenticate(&tokens, Some("Basic x"), None),
            Authn::Rejected
        );
        assert_eq!(authenticate(&tokens, None, None), Authn::Anonymous);
        let cert = CertIdentity {
            common_name: "cert-user".into(),
            organizations: vec![MASTERS.into()],
        };
        assert!(
            matches!(authenticate(&tokens, None, Some(&cert)), Authn::User(u) if u.name == "cert-user")
        );
        assert_ne!(Tokens::random().admin, Tokens::random().admin);
    }

    #[test]
    fn limited_user_is_confined_to_team_a() {
        let limited = User {
            name: "limited".into(),
            groups: vec![],
        };
        let pods = by_plural("pods").unwrap();
        let mut access = Access {
            verb: "list",
            resource: pods,
            namespace: Some("team-a"),
            name: None,
        };
        assert!(authorize(&limited, &access).is_ok());
        access.namespace = Some("default");
        let status = authorize(&limited, &access).unwrap_err();
        assert_eq!(status.message, "pods is forbidden: User \"limited\" cannot list resource \"pods\" in API group \"\" in the namespace \"default\"");
        access.namespace = None;
        access.verb = "watch";
        let status = authorize(&limited, &access).unwrap_err();
        assert!(status
            .message
            .ends_with("cannot watch resource \"pods\" in API group \"\" at the cluster scope"));
    }
}
