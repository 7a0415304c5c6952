//! `kw logs -w`'s choice of containers and lines, as stern's flags make it: `-c REGEX` (the
//! containers whose name it matches, unanchored as stern's: `^app$` for `app` alone),
//! `--exclude-container REGEX`, and the line filters `--include REGEX` / `--exclude REGEX`
//! (a line is shown when it matches an include, if any is given, and no exclude). Compiled once,
//! before any I/O, so a bad pattern is a usage error naming its flag.
//!
//! `regex-lite`: the regex crate's maintainers' small engine, already in Cargo.lock (divan's),
//! with the same syntax and a linear-time match whatever the pattern; kw needs no Unicode
//! classes for container names and log lines, and it adds little to the binary.

use regex_lite::Regex;

/// Which containers and which of their lines are shown.
#[derive(Debug, Clone, Default)]
pub struct LogFilters {
    /// `-c`: only the containers whose name this matches (of any kind: init, ephemeral too).
    container: Option<Regex>,
    exclude_container: Vec<Regex>,
    include: Vec<Regex>,
    exclude: Vec<Regex>,
}

/// A pattern that does not compile, said with its flag.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("invalid {flag} pattern {pattern:?}: {reason}")]
pub struct FilterError {
    flag: &'static str,
    pattern: String,
    reason: String,
}

fn compile(flag: &'static str, pattern: &str) -> Result<Regex, FilterError> {
    Regex::new(pattern).map_err(|e| FilterError {
        flag,
        pattern: pattern.to_string(),
        reason: e.to_string(),
    })
}

fn compile_all(flag: &'static str, patterns: &[String]) -> Result<Vec<Regex>, FilterError> {
    patterns.iter().map(|p| compile(flag, p)).collect()
}

impl LogFilters {
    /// The filters of `-c`, `--exclude-container`, `--include` and `--exclude`.
    pub fn parse(
        container: Option<&str>,
        exclude_container: &[String],
        include: &[String],
        exclude: &[String],
    ) -> Result<LogFilters, FilterError> {
        Ok(LogFilters {
            container: container.map(|c| compile("--container", c)).transpose()?,
            exclude_container: compile_all("--exclude-container", exclude_container)?,
            include: compile_all("--include", include)?,
            exclude: compile_all("--exclude", exclude)?,
        })
    }

    /// Only the containers of this exact name (a wait's `--logs` with `kw logs -c NAME`).
    pub fn exact_container(name: &str) -> LogFilters {
        LogFilters {
            container: Regex::new(&format!("^{}$", regex_lite::escape(name))).ok(),
            ..LogFilters::default()
        }
    }

    /// `-c` chose the containers: then they are followed whatever their kind.
    pub fn names_containers(&self) -> bool {
        self.container.is_some()
    }

    /// Whether the container `name` is followed.
    pub fn container(&self, name: &str) -> bool {
        self.container.as_ref().is_none_or(|c| c.is_match(name))
            && !self.exclude_container.iter().any(|c| c.is_match(name))
    }

    /// Whether a line (`text`, without its line break) is shown.
    pub fn line(&self, text: &[u8]) -> bool {
        if self.include.is_empty() && self.exclude.is_empty() {
            return true;
        }
        let text = String::from_utf8_lossy(text);
        (self.include.is_empty() || self.include.iter().any(|r| r.is_match(&text)))
            && !self.exclude.iter().any(|r| r.is_match(&text))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(list: &[&str]) -> Vec<String> {
        list.iter().map(|w| w.to_string()).collect()
    }

    #[test]
    fn a_line_is_shown_when_it_matches_an_include_and_no_exclude() {
        let filters =
            LogFilters::parse(None, &[], &words(&["GET", "POST"]), &words(&["health"])).unwrap();
        assert!(filters.line(b"GET /index"));
        assert!(filters.line(b"POST /form"));
        assert!(!filters.line(b"GET /healthz"));
        assert!(!filters.line(b"PUT /x"));
        let none = LogFilters::default();
        assert!(none.line(b"anything"));
        let only_exclude = LogFilters::parse(None, &[], &[], &words(&["^debug"])).unwrap();
        assert!(only_exclude.line(b"info: x"));
        assert!(!only_exclude.line(b"debug: x"));
    }

    #[test]
    fn containers_match_the_pattern_unanchored_less_the_excluded() {
        let filters = LogFilters::parse(Some("app"), &words(&["-sidecar$"]), &[], &[]).unwrap();
        assert!(filters.container("app"));
        assert!(filters.container("my-app"));
        assert!(!filters.container("app-sidecar"));
        assert!(!filters.container("db"));
        assert!(filters.names_containers());
        let exact = LogFilters::exact_container("a.b");
        assert!(exact.container("a.b"));
        assert!(!exact.container("axb"));
        assert!(!exact.container("a.bc"));
    }

    #[test]
    fn a_bad_pattern_names_its_flag() {
        let error = LogFilters::parse(None, &[], &[], &words(&["("])).unwrap_err();
        let said = error.to_string();
        assert!(
            said.starts_with("invalid --exclude pattern \"(\": "),
            "{said}"
        );
        assert!(!said.contains('\n'), "{said}");
        let error = LogFilters::parse(Some("[a"), &[], &[], &[]).unwrap_err();
        assert!(error.to_string().starts_with("invalid --container pattern"));
    }
}
