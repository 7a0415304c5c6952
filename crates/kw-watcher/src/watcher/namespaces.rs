//! Several namespaces at once: `-n a,b,c` and shell-style globs (`-n 'team-*'`). kubectl takes
//! one namespace or all; kw watches a chosen set through one cluster-wide watch and shows only
//! the objects whose namespace the set matches. A glob is matched against each object's
//! namespace as it arrives, so a namespace created later that matches is picked up (its
//! objects arrive as ADDED) and one deleted is dropped (its objects arrive as DELETED).

use std::fmt;

/// The namespaces `-n` chose, when it chose more than one (a comma list or a glob).
#[derive(Debug, Clone)]
pub struct NamespaceSet {
    patterns: Vec<glob::Pattern>,
}

/// Why a `-n` value is not a namespace set.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("invalid --namespace {value:?}: {reason}")]
pub struct NamespaceSetError {
    value: String,
    reason: String,
}

impl NamespaceSet {
    /// `Ok(None)` for a single plain namespace (kubectl's meaning, unchanged), a set for a comma
    /// list or a glob.
    pub fn parse(value: &str) -> Result<Option<NamespaceSet>, NamespaceSetError> {
        let several = value.contains(',') || value.contains(['*', '?', '[']);
        if !several {
            return Ok(None);
        }
        let error = |reason: String| NamespaceSetError {
            value: value.to_string(),
            reason,
        };
        let mut patterns = Vec::new();
        for part in value.split(',').map(str::trim) {
            if part.is_empty() {
                return Err(error("an empty name in the list".into()));
            }
            if let Some(bad) = part
                .chars()
                .find(|c| !(c.is_ascii_lowercase() || c.is_ascii_digit() || "-*?[]!".contains(*c)))
            {
                return Err(error(format!(
                    "{part:?} contains {bad:?}; namespaces are lowercase letters, digits and '-' \
                     (globs may use *, ? and [...])"
                )));
            }
            let pattern = glob::Pattern::new(part).map_err(|e| error(format!("{part:?}: {e}")))?;
            patterns.push(pattern);
        }
        Ok(Some(NamespaceSet { patterns }))
    }

    /// The names, when none is a glob (then no namespace list is needed to know them).
    pub fn names(&self) -> Option<Vec<String>> {
        self.patterns
            .iter()
            .map(|p| p.as_str())
            .map(|text| (!text.contains(['*', '?', '['])).then(|| text.to_string()))
            .collect()
    }

    /// Whether objects of `namespace` are shown. Cluster-scoped objects (no namespace) are.
    pub fn contains(&self, namespace: &str) -> bool {
        namespace.is_empty() || self.patterns.iter().any(|p| p.matches(namespace))
    }
}

impl fmt::Display for NamespaceSet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let parts: Vec<&str> = self.patterns.iter().map(|p| p.as_str()).collect();
        f.write_str(&parts.join(","))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn set(value: &str) -> NamespaceSet {
        match NamespaceSet::parse(value) {
            Ok(Some(set)) => set,
            other => panic!("{value}: {other:?}"),
        }
    }

    #[test]
    fn one_plain_namespace_is_not_a_set() {
        assert!(matches!(NamespaceSet::parse("web"), Ok(None)));
        assert!(matches!(NamespaceSet::parse("kube-system"), Ok(None)));
    }

    #[test]
    fn lists_and_globs_match_by_name() {
        let list = set("web, api");
        assert!(list.contains("web") && list.contains("api"));
        assert!(!list.contains("webx") && !list.contains("kube-system"));
        let teams = set("team-*,db");
        assert!(teams.contains("team-a") && teams.contains("team-") && teams.contains("db"));
        assert!(!teams.contains("teams") && !teams.contains("a-team-b"));
        assert!(set("ns-?").contains("ns-1") && !set("ns-?").contains("ns-10"));
        assert!(set("[ab]*").contains("beta") && !set("[ab]*").contains("gamma"));
        assert!(list.contains(""), "cluster-scoped objects are not filtered");
        assert_eq!(teams.to_string(), "team-*,db");
        assert_eq!(teams.names(), None);
        assert_eq!(
            list.names(),
            Some(vec!["web".to_string(), "api".to_string()])
        );
    }

    #[test]
    fn bad_values_are_named() {
        for bad in ["a,,b", "a,", "Web,api", "a b,c", "team-[", "ns/x,y"] {
            let error = NamespaceSet::parse(bad).expect_err(bad);
            assert!(error.to_string().contains(&format!("{bad:?}")), "{error}");
        }
    }
}
