//! Several kubeconfig contexts at once: `--context a,b`, `--context 'prod-*'` and
//! `--all-contexts`. kubectl takes one context; kw runs the same `kw get` in every chosen one and
//! merges the streams. This module only chooses the names, from the kubeconfig's own list and in
//! its order; `settings` resolves each one as it resolves a single `--context`.

use crate::config::kubeconfig::Kubeconfig;

/// Why `--context`/`--all-contexts` chose nothing usable. Names the flag and the value.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ContextSetError {
    #[error("invalid --context {value:?}: {reason}")]
    Invalid { value: String, reason: String },
    #[error("context \"{name}\" does not exist{}", which_exist(name, known))]
    NotFound { name: String, known: Vec<String> },
    #[error("no context in the kubeconfig matches --context {0:?}")]
    NoMatch(String),
    #[error("--all-contexts: the kubeconfig has no contexts")]
    NoContexts,
    #[error("--all-contexts chooses every context: drop --context {0:?}")]
    Both(String),
}

/// Whether a `--context` value names several contexts (a comma list or a glob) rather than one
/// (kubectl's meaning, unchanged).
pub fn names_several(value: &str) -> bool {
    value.contains(',') || value.contains(['*', '?', '['])
}

/// The contexts chosen, in the kubeconfig's order, when several are: `None` for kubectl's single
/// context (a plain `--context NAME`, or none at all).
pub fn choose(
    flag: Option<&str>,
    all: bool,
    config: &Kubeconfig,
) -> Result<Option<Vec<String>>, ContextSetError> {
    let known: Vec<&str> = config.contexts.iter().map(|c| c.name.as_str()).collect();
    if all {
        if let Some(value) = flag {
            return Err(ContextSetError::Both(value.to_string()));
        }
        if known.is_empty() {
            return Err(ContextSetError::NoContexts);
        }
        return Ok(Some(dedup(known.iter().map(|s| s.to_string()))));
    }
    let Some(value) = flag.filter(|v| names_several(v)) else {
        return Ok(None);
    };
    let invalid = |reason: String| ContextSetError::Invalid {
        value: value.to_string(),
        reason,
    };
    let mut patterns = Vec::new();
    for part in value.split(',').map(str::trim) {
        if part.is_empty() {
            return Err(invalid("an empty name in the list".into()));
        }
        let pattern = glob::Pattern::new(part).map_err(|e| invalid(format!("{part:?}: {e}")))?;
        let is_glob = part.contains(['*', '?', '[']);
        if !is_glob && !known.contains(&part) {
            return Err(ContextSetError::NotFound {
                name: part.to_string(),
                known: dedup(known.iter().map(|s| s.to_string())),
            });
        }
        if is_glob && !known.iter().any(|name| pattern.matches(name)) {
            return Err(ContextSetError::NoMatch(part.to_string()));
        }
        patterns.push(pattern);
    }
    let chosen = known
        .iter()
        .filter(|name| patterns.iter().any(|p| p.matches(name)))
        .map(|s| s.to_string());
    Ok(Some(dedup(chosen)))
}

/// How many context names an error lists before it counts the rest.
const LISTED: usize = 10;

/// The end of a "context does not exist" message: the name probably meant, and the contexts
/// that exist (`; did you mean "prod-eu"? contexts in the kubeconfig: dev, prod-eu, prod-us`).
pub fn which_exist(name: &str, known: &[String]) -> String {
    if known.is_empty() {
        return "; the kubeconfig has no contexts".to_string();
    }
    let mut listed = known
        .iter()
        .take(LISTED)
        .map(String::as_str)
        .collect::<Vec<_>>()
        .join(", ");
    if known.len() > LISTED {
        listed.push_str(&format!(" and {} more", known.len() - LISTED));
    }
    match kw_base::spelling::nearest(name, known.iter().map(String::as_str)) {
        Some(near) => format!("; did you mean \"{near}\"? contexts in the kubeconfig: {listed}"),
        None => format!("; contexts in the kubeconfig: {listed}"),
    }
}

/// A merged kubeconfig can name a context twice (the first file wins); run it once.
fn dedup(names: impl Iterator<Item = String>) -> Vec<String> {
    let mut seen = Vec::new();
    for name in names {
        if !seen.contains(&name) {
            seen.push(name);
        }
    }
    seen
}

#[cfg(test)]
mod tests {
    use super::*;

    fn config() -> Kubeconfig {
        let text = "contexts:\n\
                    - {name: prod-eu, context: {cluster: a}}\n\
                    - {name: dev, context: {cluster: b}}\n\
                    - {name: prod-us, context: {cluster: c}}\n\
                    - {name: 'arn:aws:eks:eu-west-1:1:cluster/x', context: {cluster: d}}\n";
        crate::config::kubeconfig::parse(text, std::path::Path::new("k")).expect("kubeconfig")
    }

    fn chosen(flag: Option<&str>, all: bool) -> Result<Option<Vec<String>>, ContextSetError> {
        choose(flag, all, &config())
    }

    #[test]
    fn one_plain_context_keeps_kubectls_meaning() {
        assert_eq!(chosen(None, false), Ok(None));
        assert_eq!(chosen(Some("dev"), false), Ok(None));
        assert_eq!(
            chosen(Some("nosuch"), false),
            Ok(None),
            "settings reports it"
        );
        assert_eq!(
            chosen(Some("arn:aws:eks:eu-west-1:1:cluster/x"), false),
            Ok(None)
        );
    }

    #[test]
    fn lists_and_globs_choose_in_kubeconfig_order() {
        let names = |v: Vec<&str>| Ok(Some(v.into_iter().map(String::from).collect()));
        assert_eq!(
            chosen(Some("prod-us,prod-eu"), false),
            names(vec!["prod-eu", "prod-us"])
        );
        assert_eq!(
            chosen(Some("prod-*"), false),
            names(vec!["prod-eu", "prod-us"])
        );
        assert_eq!(
            chosen(Some("dev,prod-*,dev"), false),
            names(vec!["prod-eu", "dev", "prod-us"])
        );
        assert_eq!(
            chosen(None, true),
            names(vec![
                "prod-eu",
                "dev",
                "prod-us",
                "arn:aws:eks:eu-west-1:1:cluster/x"
            ])
        );
    }

    #[test]
    fn mistakes_name_the_value() {
        let missing = chosen(Some("dev,nosuch"), false).unwrap_err();
        assert!(
            matches!(&missing, ContextSetError::NotFound { name, known }
                if name == "nosuch" && known.len() == 4),
            "{missing:?}"
        );
        assert_eq!(
            missing.to_string(),
            "context \"nosuch\" does not exist; contexts in the kubeconfig: prod-eu, dev, \
             prod-us, arn:aws:eks:eu-west-1:1:cluster/x"
        );
        assert_eq!(
            chosen(Some("dev,prod-ue"), false).unwrap_err().to_string(),
            "context \"prod-ue\" does not exist; did you mean \"prod-eu\"? contexts in the \
             kubeconfig: prod-eu, dev, prod-us, arn:aws:eks:eu-west-1:1:cluster/x"
        );
        assert_eq!(
            chosen(Some("staging-*"), false),
            Err(ContextSetError::NoMatch("staging-*".into()))
        );
        assert!(matches!(
            chosen(Some("dev,,prod-eu"), false),
            Err(ContextSetError::Invalid { .. })
        ));
        assert!(matches!(
            chosen(Some("prod-["), false),
            Err(ContextSetError::Invalid { .. })
        ));
        assert_eq!(
            chosen(Some("dev"), true),
            Err(ContextSetError::Both("dev".into()))
        );
        let many: Vec<String> = (1..=12).map(|n| format!("c{n}")).collect();
        assert_eq!(
            which_exist("x", &many),
            "; contexts in the kubeconfig: c1, c2, c3, c4, c5, c6, c7, c8, c9, c10 and 2 more"
        );
        assert_eq!(which_exist("x", &[]), "; the kubeconfig has no contexts");
        let empty =
            crate::config::kubeconfig::parse("{}", std::path::Path::new("k")).expect("empty");
        assert_eq!(choose(None, true, &empty), Err(ContextSetError::NoContexts));
    }
}
