//! List pages: `limit` + `continue`. A continue token is opaque base64 JSON naming the snapshot's
//! resourceVersion and the key to resume at, shaped like the real server's
//! (`{"v":"meta.k8s.io/v1","rv":N,"start":"KEY"}`); the store keeps that snapshot for a while.

use std::ops::Bound;
use std::sync::Arc;

use base64::Engine;
use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::selector::Filter;
use crate::world::store::ObjectMap;

/// A decoded continue token.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ContinueToken {
    pub resource_version: u64,
    /// The (namespace, name) key of the first object of the next page.
    pub start: (String, String),
}

#[derive(Serialize, Deserialize)]
struct TokenJson {
    v: String,
    rv: u64,
    start: String,
}

/// A token that is not one of ours.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("continue key is not valid: {0}")]
pub struct BadToken(&'static str);

impl ContinueToken {
    pub fn encode(&self) -> String {
        let json = TokenJson {
            v: "meta.k8s.io/v1".into(),
            rv: self.resource_version,
            start: format!("{}/{}\u{0}", self.start.0, self.start.1),
        };
        let text = serde_json::to_string(&json).unwrap_or_default();
        base64::engine::general_purpose::URL_SAFE.encode(text)
    }

    pub fn decode(token: &str) -> Result<ContinueToken, BadToken> {
        let bytes = base64::engine::general_purpose::URL_SAFE
            .decode(token)
            .or_else(|_| base64::engine::general_purpose::STANDARD.decode(token))
            .map_err(|_| BadToken("not base64"))?;
        let json: TokenJson =
            serde_json::from_slice(&bytes).map_err(|_| BadToken("not a continue token"))?;
        if json.v != "meta.k8s.io/v1" {
            return Err(BadToken("unknown version"));
        }
        let start = json.start.trim_end_matches('\u{0}');
        let (namespace, name) = start.split_once('/').ok_or(BadToken("bad start key"))?;
        Ok(ContinueToken {
            resource_version: json.rv,
            start: (namespace.into(), name.into()),
        })
    }
}

/// One page of a list.
pub struct Page {
    pub items: Vec<Arc<Value>>,
    pub next_start: Option<(String, String)>,
    /// Items after this page (only computed without selectors, as the real server does).
    pub remaining: Option<u64>,
}

/// Select a page of `map`: objects in `namespace` (all if `None`) matching `filter`, starting at
/// `start`, at most `limit` of them.
pub fn page(
    map: &ObjectMap,
    namespace: Option<&str>,
    filter: &Filter,
    start: Option<&(String, String)>,
    limit: Option<u64>,
) -> Page {
    let lower = match (start, namespace) {
        (Some(start), _) => Bound::Included(start.clone()),
        (None, Some(namespace)) => Bound::Included((namespace.to_string(), String::new())),
        (None, None) => Bound::Unbounded,
    };
    let mut matching = map
        .range((lower, Bound::Unbounded))
        .take_while(|((ns, _), _)| namespace.is_none_or(|want| ns == want))
        .filter(|(_, object)| filter.matches(object));
    let limit = limit.unwrap_or(u64::MAX);
    let mut items = Vec::new();
    for (_, object) in matching.by_ref() {
        items.push(Arc::clone(object));
        if items.len() as u64 >= limit {
            break;
        }
    }
    let next = matching.next();
    let next_start = next.map(|(key, _)| key.clone());
    let remaining = match next {
        Some(_) if filter.is_empty() => Some(1 + matching.count() as u64),
        _ => None,
    };
    Page {
        items,
        next_start,
        remaining,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn map() -> ObjectMap {
        let mut map = ObjectMap::new();
        for (ns, name) in [("a", "1"), ("b", "1"), ("b", "2"), ("b", "3"), ("c", "1")] {
            map.insert(
                (ns.into(), name.into()),
                Arc::new(json!({"metadata": {"name": name, "namespace": ns}})),
            );
        }
        map
    }

    #[test]
    fn tokens_round_trip_and_reject_garbage() {
        let token = ContinueToken {
            resource_version: 42,
            start: ("ns".into(), "pod-1".into()),
        };
        assert_eq!(ContinueToken::decode(&token.encode()), Ok(token));
        assert!(ContinueToken::decode("!!!").is_err());
        assert!(ContinueToken::decode("e30=").is_err());
    }

    #[test]
    fn pages_walk_a_namespace() {
        let map = map();
        let filter = Filter::default();
        let first = page(&map, Some("b"), &filter, None, Some(2));
        assert_eq!(first.items.len(), 2);
        assert_eq!(first.remaining, Some(1));
        let second = page(&map, Some("b"), &filter, first.next_start.as_ref(), Some(2));
        assert_eq!(second.items.len(), 1);
        assert_eq!(second.items[0]["metadata"]["name"], "3");
        assert!(second.next_start.is_none());
        let all = page(&map, None, &filter, None, None);
        assert_eq!(all.items.len(), 5);
    }
}
