//! What kw says when a command ends: every error and every verb's outcome becomes its stderr
//! lines and its exit code here, and only here, through one function (`ending::report`): `get`'s
//! words here, `rollout status`'s in `rollout`, `wait`'s in `wait`. Server answers are worded as kubectl
//! words them, so scripts and people see what they know. `main` only prints the lines and
//! exits.

pub mod ci;
pub mod ending;
pub mod error;
pub mod exit;
pub mod line;
pub mod outcome;
pub mod panic;
pub mod rollout;
pub mod wait;

use std::io;

use crate::plan::error::PlanError;
use crate::report::error::{out_of_time, template_failed, KwError};
use crate::report::line::ReportLine;
use kw_client::client::{ClientError, SetupError};
use kw_client::config::auth::AuthError;
use kw_client::discovery::DiscoveryError;
use kw_wait::wait::Verdict;

use crate::report::outcome::{End, Outcome, TimedOut};
use kw_watcher::watcher::WatchError;

/// What to print on stderr, and the exit code.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Report {
    pub lines: Vec<ReportLine>,
    pub code: i32,
}

impl Report {
    fn new(lines: Vec<ReportLine>, code: i32) -> Report {
        Report { lines, code }
    }

    fn error(message: impl std::fmt::Display, code: i32) -> Report {
        Report::new(error_line(message), code)
    }

    /// kubectl's verbs (`rollout status`, `wait`): kw's cause, when the run failed, then
    /// kubectl's line, last, as every verb's verdict is (`finished`): where kubectl puts it,
    /// and where a CI log is read.
    fn after_cause(mut self, finished: &Outcome) -> Report {
        let mut lines = self.cause(finished);
        lines.append(&mut self.lines);
        self.lines = lines;
        self
    }

    /// kw's cause of this verdict, when it failed: the summary's lines.
    fn cause(&self, finished: &Outcome) -> Vec<ReportLine> {
        match &finished.summary {
            Some(summary) if self.code != exit::OK => {
                summary.lines().into_iter().map(ReportLine::Plain).collect()
            }
            _ => Vec::new(),
        }
    }
}

impl Report {
    /// Print the lines on stderr, terminal controls escaped.
    pub fn print(&self) {
        use std::io::Write;
        let mut stderr = io::stderr().lock();
        for line in &self.lines {
            let _ = match line {
                ReportLine::Marker(raw) => writeln!(stderr, "{raw}"),
                line => writeln!(stderr, "{}", kw_base::log::clean(&line.to_string())),
            };
        }
    }
}

/// A word that is no verb of kw's or kubectl's after `command` (`kw`, `kw rollout`), in
/// kubectl's words (cobra's, `kubectl` said as `kw`), with the verb it is nearest to.
pub fn unknown_verb(command: &str, word: &str, near: Option<&str>) -> Report {
    let mut lines = error_line(format!("unknown command \"{word}\" for \"{command}\""));
    if let Some(near) = near {
        lines.extend(["", "Did you mean this?"].map(|line| ReportLine::Plain(line.into())));
        lines.push(ReportLine::Plain(format!("\t{near}")));
    }
    Report::new(lines, exit::USAGE)
}

/// The lines and exit code of `error`: what a context that fails while the others go on says
/// as it happens, and how a command that failed ends.
pub fn error(error: &KwError) -> Report {
    Report::new(error_lines(error), error.exit_code())
}

/// What kw says of `error`: kubectl's words for a server's answer, `error: ...` for the rest.
fn error_lines(error: &KwError) -> Vec<ReportLine> {
    match error {
        KwError::Client(e) => vec![client(e)],
        KwError::Discovery(e) => discovery(e),
        KwError::Watch(e) => watch(e),
        KwError::Output(e) => error_line(e),
        // kubectl's usage hints go on lines of their own after its `error:` line.
        KwError::Logs(e) => {
            let text = e.to_string();
            let mut lines = text.lines();
            let mut said = error_line(lines.next().unwrap_or_default());
            said.extend(lines.map(|line| ReportLine::Plain(line.to_string())));
            said
        }
        // kw's hint before kubectl's line, which stays the last, as every verdict does.
        KwError::Plan(PlanError::Condition(e)) => {
            let mut lines: Vec<ReportLine> = e.hint().map(ReportLine::Plain).into_iter().collect();
            lines.extend(error_line(e));
            lines
        }
        // kw's error about one context, whatever the words that say what went wrong there.
        KwError::InContext { context, error } => error_lines(error)
            .iter()
            .map(|line| ReportLine::Error(format!("context \"{context}\": {}", line.message())))
            .collect(),
        // Every other error says itself (its variant's message is the layer's own).
        _ => error_line(error),
    }
}

/// kw's one line for an error: its message, written after `error: `.
fn error_line(message: impl std::fmt::Display) -> Vec<ReportLine> {
    vec![ReportLine::Error(message.to_string())]
}

/// An error kubectl words over several lines (a JSONPath template's, with the template and the
/// object it ran on): the first is the `error:` line, each other line as it is, so that no
/// line break is escaped into the first.
fn lines_of(message: impl std::fmt::Display) -> Vec<ReportLine> {
    let text = message.to_string();
    let mut lines = text.split('\n');
    let first = ReportLine::Error(lines.next().unwrap_or_default().to_string());
    std::iter::once(first)
        .chain(lines.map(|line| ReportLine::Plain(line.to_string())))
        .collect()
}

/// The lines and exit code of a run that did not fail as a whole. A context that failed on the
/// way has said so when it did: only its exit code is left to give.
fn finished(finished: &Outcome) -> Report {
    let mut report = finished_alone(finished);
    if let Some(summary) = finished.summary.as_ref().filter(|s| !s.is_empty()) {
        // The block first: the verdict is the last line for every verb, where CI logs are
        // read (`Report::after_cause`).
        let mut lines: Vec<ReportLine> =
            summary.lines().into_iter().map(ReportLine::Plain).collect();
        lines.append(&mut report.lines);
        report.lines = lines;
    }
    report
}

fn finished_alone(finished: &Outcome) -> Report {
    let quiet = |code| Report::new(Vec::new(), code);
    let troubled = finished.failed.is_some() || !finished.unreachable.is_empty();
    let printed = match &finished.end {
        End::ClosedPipe {
            verdict_lost: false,
        } => return quiet(exit::OK),
        End::ClosedPipe { verdict_lost: true } => {
            return Report::error(
                "stdout was closed before the wait ended: its verdict is unknown",
                exit::CLOSED_PIPE,
            )
        }
        // A met condition decides the code; `--max-events` only ends the run, so a context that
        // failed still sets it (below).
        End::Verdict(
            ended @ (Verdict::Until { .. } | Verdict::FailOn { .. } | Verdict::Invalid(_)),
        ) => return self::ended(ended),
        End::Verdict(ended) if !troubled => return self::ended(ended),
        End::Verdict(_) => 0,
        End::Done { printed } => *printed,
    };
    if let Some(timed_out) = &finished.timed_out {
        return Report::error(timeout_line(timed_out), exit::TIMEOUT);
    }
    if let Some(failed) = &finished.failed {
        return quiet(error(failed).code);
    }
    if !finished.unreachable.is_empty() {
        let names: Vec<String> = finished
            .unreachable
            .iter()
            .map(|c| format!("\"{c}\""))
            .collect();
        return Report::error(
            format!(
                "the run ended while context {} could not be reached",
                names.join(", ")
            ),
            exit::UNREACHABLE,
        );
    }
    match &finished.when_empty {
        // kubectl says so on stderr, so that scripts reading stdout see nothing.
        Some(message) if printed == 0 => {
            Report::new(vec![ReportLine::Plain(message.clone())], exit::OK)
        }
        _ => quiet(exit::OK),
    }
}

/// `kw get`'s words for `--timeout`: what was being waited for.
fn timeout_line(timed_out: &TimedOut) -> String {
    let waited = humantime::format_duration(timed_out.after);
    let until: Vec<String> = timed_out.until.iter().map(|e| e.to_string()).collect();
    match until.as_slice() {
        [] => format!("--timeout {waited} ran out"),
        until => format!(
            "timed out after {waited} waiting for --until {}",
            until.join(" or ")
        ),
    }
}

fn ended(ended: &Verdict) -> Report {
    match ended {
        Verdict::FailOn { .. } => Report::error(ended, exit::CONDITION_FAILED),
        Verdict::Until { .. } => {
            Report::new(vec![ReportLine::Plain(format!("kw: {ended}"))], exit::OK)
        }
        // The condition asked cannot be judged on the object's shape: the user's to fix.
        Verdict::Invalid(message) => Report::error(message, exit::USAGE),
        _ => Report::new(Vec::new(), exit::OK),
    }
}

fn discovery(error: &DiscoveryError) -> Vec<ReportLine> {
    match error {
        DiscoveryError::Client(e) => vec![client(e)],
        DiscoveryError::UnknownType(..) => {
            let mut lines = error_line(error);
            lines.extend(error.hint().map(ReportLine::Plain));
            lines
        }
        _ => error_line(error),
    }
}

/// kubectl's line for a named object's 404 (`Error from server (NotFound): pods "x" not found`).
pub fn not_found_line(error: &ClientError) -> String {
    client(error).to_string()
}

/// kubectl's words for a server's answer, quoted in a longer line (the summary's note of a log
/// it could not read): without the `error: ` that starts a line of kw's own.
pub fn client_message(error: &ClientError) -> String {
    client(error).message().to_string()
}

fn watch(error: &WatchError) -> Vec<ReportLine> {
    match error {
        WatchError::Client(e) => vec![client(e)],
        WatchError::NotFound(errors) => errors.iter().map(client).collect(),
        // A template that fails on an object (or runs out of `--timeout`), or a printer that
        // cannot print one, says why itself.
        WatchError::Output(e) if template_failed(e) => lines_of(e),
        WatchError::Output(e) if out_of_time(e) || e.kind() == io::ErrorKind::InvalidData => {
            error_line(e)
        }
        _ => error_line(error),
    }
}

/// kubectl's wording for server answers: one line each.
fn client(error: &ClientError) -> ReportLine {
    match error {
        ClientError::Status { code: 401, .. } => ReportLine::Error(
            "You must be logged in to the server (the server has asked for the client to provide credentials)".into(),
        ),
        ClientError::Status {
            status: Some(status),
            ..
        } if !status.message.is_empty() => {
            let reason = if status.reason.is_empty() {
                "Unknown"
            } else {
                status.reason.as_str()
            };
            ReportLine::Plain(format!("Error from server ({reason}): {}", status.message))
        }
        ClientError::Status { code: 403, .. } => ReportLine::Plain(
            "Error from server (Forbidden): the server refused the request".into(),
        ),
        // The user's credentialPluginPolicy refused the plugin: kubectl's line, word for word.
        ClientError::Setup(SetupError::Credentials(refused @ AuthError::Refused { .. })) => {
            ReportLine::Plain(format!("Unable to connect to the server: {refused}"))
        }
        _ => ReportLine::Error(error.to_string()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::error::UsageError;
    use std::sync::Arc;

    #[test]
    fn an_error_of_one_context_names_it_and_keeps_its_code() {
        let unreachable = KwError::Client(ClientError::Unreachable {
            server: "https://b:6443".into(),
            reason: "connection refused".into(),
        });
        let report = error(&unreachable.in_context(&Arc::from("b")));
        assert_eq!(
            report.lines,
            [ReportLine::Error(
                "context \"b\": unable to connect to the server https://b:6443: connection refused"
                    .into()
            )]
        );
        assert_eq!(report.code, exit::UNREACHABLE);
        // A server's answer, said in kubectl's words, becomes kw's error about the context.
        let forbidden = KwError::Client(ClientError::Status {
            code: 403,
            status: None,
            retry_after: None,
        });
        assert_eq!(
            error(&forbidden.in_context(&Arc::from("b"))).lines[0].to_string(),
            "error: context \"b\": Error from server (Forbidden): the server refused the request"
        );
    }

    #[test]
    fn usage_errors_are_one_line_with_the_usage_code() {
        let report = error(&KwError::Usage(UsageError::OneCredentialForAll {
            flag: "--token",
        }));
        assert_eq!(report.lines.len(), 1);
        assert!(
            matches!(&report.lines[0], ReportLine::Error(message) if message.starts_with("--token would send"))
        );
        assert_eq!(report.code, exit::USAGE);
    }

    #[test]
    fn the_timeout_says_what_was_waited_for() {
        let after = std::time::Duration::from_secs(90);
        let plain = TimedOut {
            after,
            until: Vec::new(),
        };
        assert_eq!(timeout_line(&plain), "--timeout 1m 30s ran out");
        let parse = |text| kw_wait::wait::Expr::parse("--until", text).unwrap();
        let until = vec![parse("ready"), parse("jsonpath={.x}=1")];
        assert_eq!(
            timeout_line(&TimedOut { after, until }),
            "timed out after 1m 30s waiting for --until ready or jsonpath={.x}=1"
        );
        // A timeout too far away to represent is still worded, never a panic.
        let far = TimedOut {
            after: std::time::Duration::from_secs(u64::MAX),
            until: Vec::new(),
        };
        assert!(timeout_line(&far).ends_with(" ran out"));
    }

    #[test]
    fn a_run_that_met_its_condition_wins_over_a_failed_context() {
        let failed = KwError::Client(ClientError::Status {
            code: 401,
            status: None,
            retry_after: None,
        });
        let run = Outcome {
            end: End::Verdict(Verdict::Elsewhere),
            timed_out: None,
            failed: Some(failed),
            unreachable: Vec::new(),
            when_empty: None,
            summary: None,
            objects: Vec::new(),
            sources: Vec::new(),
        };
        assert_eq!(finished(&run), Report::new(Vec::new(), exit::AUTH));
        let run = Outcome {
            end: End::Done { printed: 0 },
            failed: None,
            when_empty: Some("No resources found".into()),
            ..run
        };
        assert_eq!(
            finished(&run),
            Report::new(
                vec![ReportLine::Plain("No resources found".into())],
                exit::OK
            )
        );
    }
}
