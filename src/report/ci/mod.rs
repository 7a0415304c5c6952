//! CI reports (issue 55): the verdict written where reviewers look, as well as on stderr,
//! never instead of it. `--report github` (on by default under `GITHUB_ACTIONS=true`): the step
//! summary, annotations and step outputs; `--report gitlab` (under `GITLAB_CI=true`): the
//! summary in a collapsible section of the job log; `--report junit=FILE` and `json=FILE`: a
//! file any CI reads. `--report none` or `KW_REPORT=none` turns the defaults off.
//!
//! - `model`: the verdict every report formats;
//! - `github`, `gitlab`, `junit`, `json`: each report's format;
//! - `interrupted`: the reports of a run a signal ends.
//!
//! A report that cannot be written is one line on stderr and leaves the exit code alone.

pub mod github;
pub mod gitlab;
pub mod interrupted;
pub mod json;
pub mod junit;
pub mod model;

use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime};

use crate::report::line::ReportLine;
use crate::report::outcome::Ending;
use crate::report::Report;

/// Which reports a run writes.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Reports {
    pub github: bool,
    pub gitlab: bool,
    pub junit: Option<PathBuf>,
    pub json: Option<PathBuf>,
}

/// The words for a `--report` value kw does not know.
const KNOWN: &str = "github, gitlab, junit=FILE, json=FILE or none";

impl Reports {
    /// The reports `flags` (`--report`, repeatable) ask for, else `KW_REPORT`'s (the same
    /// values, comma-separated), and those the CI kw runs in turns on (`GITHUB_ACTIONS=true`,
    /// `GITLAB_CI=true`) unless `none` is among them. `env` reads the environment.
    pub fn asked(
        flags: &[String],
        env: impl Fn(&str) -> Option<String>,
    ) -> Result<Reports, String> {
        let from_env = env("KW_REPORT").unwrap_or_default();
        let (values, origin): (Vec<&str>, &str) = match flags.is_empty() {
            false => (flags.iter().map(String::as_str).collect(), "--report"),
            true => (
                from_env
                    .split(',')
                    .filter(|v| !v.trim().is_empty())
                    .collect(),
                "KW_REPORT",
            ),
        };
        let mut reports = Reports::default();
        let mut none = false;
        for value in values {
            let value = value.trim();
            match value.split_once('=') {
                None if value == "github" => reports.github = true,
                None if value == "gitlab" => reports.gitlab = true,
                None if value == "none" => none = true,
                Some(("junit", file)) if !file.is_empty() => reports.junit = Some(file.into()),
                Some(("json", file)) if !file.is_empty() => reports.json = Some(file.into()),
                _ => return Err(format!("{origin} {value:?} is not one of {KNOWN}")),
            }
        }
        if none {
            return Ok(Reports::default());
        }
        let on = |name: &str| env(name).is_some_and(|v| v == "true");
        reports.github |= on("GITHUB_ACTIONS");
        reports.gitlab |= on("GITLAB_CI");
        Ok(reports)
    }

    fn any(&self) -> bool {
        self.github || self.gitlab || self.junit.is_some() || self.json.is_some()
    }

    /// `report` with the reports of `ending` (a run of `verb`) written (`elapsed` after the start): the files,
    /// the CI's own lines (annotations, sections) among the report's, a line for each report
    /// that could not be written, the verdict's line still the last.
    pub fn write(
        &self,
        verb: &'static str,
        ending: &Ending,
        mut report: Report,
        elapsed: Duration,
        env: impl Fn(&str) -> Option<String>,
    ) -> Report {
        if !self.any() {
            return report;
        }
        let Some(verdict) = model::verdict(verb, ending, &report, elapsed) else {
            return report;
        };
        let mut before = self.write_verdict(&verdict, env);
        if self.gitlab {
            let now = SystemTime::now()
                .duration_since(SystemTime::UNIX_EPOCH)
                .map_or(0, |d| d.as_secs());
            report.lines = gitlab::sectioned(report.lines, now);
        }
        before.append(&mut report.lines);
        report.lines = before;
        report
    }
}

impl Reports {
    /// The files of `verdict` written; the lines to say before the report's: one per report
    /// that could not be written, and GitHub's workflow commands.
    fn write_verdict(
        &self,
        verdict: &model::RunVerdict,
        env: impl Fn(&str) -> Option<String>,
    ) -> Vec<ReportLine> {
        let mut lines: Vec<ReportLine> = Vec::new();
        let mut failed = |what: &str, path: &Path, error: std::io::Error| {
            lines.push(ReportLine::Plain(format!(
                "kw: cannot write the {what} to {}: {error}",
                path.display()
            )));
        };
        if let Some(path) = &self.junit {
            if let Err(e) = std::fs::write(path, junit::document(verdict)) {
                failed("JUnit report", path, e);
            }
        }
        if let Some(path) = &self.json {
            let text = json::document(verdict).to_string() + "\n";
            if let Err(e) = std::fs::write(path, text) {
                failed("JSON report", path, e);
            }
        }
        if self.github {
            for (variable, what, text) in [
                (
                    "GITHUB_STEP_SUMMARY",
                    "step summary",
                    github::summary(verdict),
                ),
                ("GITHUB_OUTPUT", "step outputs", github::outputs(verdict)),
            ] {
                if let Some(path) = env(variable).filter(|p| !p.is_empty()) {
                    let path = PathBuf::from(path);
                    if let Err(e) = append(&path, &text) {
                        failed(what, &path, e);
                    }
                }
            }
            lines.extend(
                github::commands(verdict)
                    .into_iter()
                    .map(ReportLine::Marker),
            );
        }
        lines
    }
}

/// Append `text` to the file at `path` (GitHub's files are shared by every step).
fn append(path: &Path, text: &str) -> std::io::Result<()> {
    let mut file = std::fs::OpenOptions::new()
        .append(true)
        .create(true)
        .open(path)?;
    file.write_all(text.as_bytes())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn env<'a>(vars: &'a [(&'a str, &'a str)]) -> impl Fn(&str) -> Option<String> + 'a {
        move |name| {
            vars.iter()
                .find(|(n, _)| *n == name)
                .map(|(_, v)| v.to_string())
        }
    }

    #[test]
    fn the_ci_turns_its_report_on_unless_none_is_asked() {
        let github = [("GITHUB_ACTIONS", "true")];
        assert!(Reports::asked(&[], env(&github)).unwrap().github);
        assert_eq!(
            Reports::asked(&["none".into()], env(&github)),
            Ok(Reports::default())
        );
        let off = [("GITHUB_ACTIONS", "true"), ("KW_REPORT", "none")];
        assert_eq!(Reports::asked(&[], env(&off)), Ok(Reports::default()));
        let asked = Reports::asked(&["junit=out.xml".into(), "json=v.json".into()], env(&[]));
        assert_eq!(
            asked,
            Ok(Reports {
                junit: Some("out.xml".into()),
                json: Some("v.json".into()),
                ..Reports::default()
            })
        );
        assert_eq!(
            Reports::asked(&["junit".into()], env(&[])),
            Err(format!("--report \"junit\" is not one of {KNOWN}"))
        );
        let gitlab = [("GITLAB_CI", "true"), ("KW_REPORT", "json=x.json")];
        let both = Reports::asked(&[], env(&gitlab)).unwrap();
        assert!(both.gitlab && both.json.is_some());
    }
}
