//! The block kw prints on stderr when a wait for `ready` fails (exit 2) or times out (exit 3):
//! every object not ready with its judgement and its last Warning events (and those of what
//! it owns), the object that failed and why, and each crashed container's exit code and the
//! end of its previous log. A CI log then shows the cause without a second command.
//!
//! What it holds is gathered by the runner (`run`); how it reads is decided here only, and
//! `report` puts it before the verdict's `error:` line.

/// Warning events kept per object for the summary (the newest).
pub const WARNINGS_PER_OBJECT: usize = 3;
/// Lines of a crashed container's previous log shown.
pub const LOG_LINES: usize = 20;
/// Crashed containers whose logs are read: one request each, when the summary is written.
pub const MAX_LOGS: usize = 10;

/// What the summary says.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Summary {
    /// The object that failed and why (exit 2): `deployment.apps/web (pod/web-1: ...)`.
    pub failed: Option<String>,
    pub not_ready: Vec<NotReady>,
    pub crashed: Vec<Crashed>,
}

/// An object the wait was still waiting for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NotReady {
    /// `deployment.apps/web`, its context in front in a run over several.
    pub label: String,
    /// `in progress: Updated: 1/3`.
    pub judgement: String,
    /// Its last Warning events, and those of what it owns, oldest first
    /// (`pod/web-1: Warning BackOff: Back-off restarting failed container`).
    pub warnings: Vec<String>,
}

/// A container that crashed, and the end of its previous log.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Crashed {
    /// `pod/web-1`.
    pub pod: String,
    pub container: String,
    pub exit_code: Option<i64>,
    /// `CrashLoopBackOff`, `OOMKilled`, `Error`.
    pub reason: String,
    /// The last lines of its previous log, or why it could not be read.
    pub log: Result<Vec<String>, String>,
}

impl Summary {
    pub fn is_empty(&self) -> bool {
        self.failed.is_none() && self.not_ready.is_empty() && self.crashed.is_empty()
    }

    /// The block's lines, as printed (terminal controls are escaped when printed).
    pub fn lines(&self) -> Vec<String> {
        let mut lines = vec!["kw: summary of the wait:".to_string()];
        if let Some(failed) = &self.failed {
            lines.push(format!("  failed: {failed}"));
        }
        if !self.not_ready.is_empty() {
            lines.push("  not ready:".into());
        }
        for object in &self.not_ready {
            // The object that failed was named just above, with why: not twice.
            let named_above = self
                .failed
                .as_ref()
                .is_some_and(|f| f.starts_with(&format!("{} (", object.label)));
            if named_above && object.judgement.starts_with("failed: ") {
                lines.push(format!("    {}: failed (above)", object.label));
            } else {
                lines.push(format!("    {}: {}", object.label, object.judgement));
            }
            for warning in &object.warnings {
                lines.push(format!("      {warning}"));
            }
        }
        for crash in &self.crashed {
            let code = crash.exit_code.map_or_else(
                || "exit code unknown".to_string(),
                |c| format!("exit code {c}"),
            );
            lines.push(format!(
                "  {} container {}: {} ({code})",
                crash.pod, crash.container, crash.reason
            ));
            match &crash.log {
                Ok(log) if log.is_empty() => lines.push("    (its previous log is empty)".into()),
                Ok(log) => {
                    lines.push("    last lines of its previous log:".into());
                    lines.extend(log.iter().map(|line| format!("    | {line}")));
                }
                Err(why) => lines.push(format!("    (cannot read its previous log: {why})")),
            }
        }
        lines
    }
}

/// The last `LOG_LINES` lines of a log body, each cut to a line's length.
pub fn log_tail(body: &[u8]) -> Vec<String> {
    const WIDTH: usize = 400;
    let text = String::from_utf8_lossy(body);
    let lines: Vec<&str> = text.lines().collect();
    lines[lines.len().saturating_sub(LOG_LINES)..]
        .iter()
        .map(|line| match line.char_indices().nth(WIDTH) {
            Some((at, _)) => format!("{}…", &line[..at]),
            None => line.to_string(),
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_block_names_the_failure_the_waits_and_the_crashes() {
        let summary = Summary {
            failed: Some(
                "deployment.apps/web (pod/web-1: CrashLoopBackOff (web): back-off)".into(),
            ),
            not_ready: vec![NotReady {
                label: "deployment.apps/web".into(),
                judgement: "failed: pod/web-1: CrashLoopBackOff (web): back-off".into(),
                warnings: vec!["pod/web-1: Warning BackOff: Back-off restarting".into()],
            }],
            crashed: vec![
                Crashed {
                    pod: "pod/web-1".into(),
                    container: "web".into(),
                    exit_code: Some(1),
                    reason: "CrashLoopBackOff".into(),
                    log: Ok(vec!["exit status 1".into()]),
                },
                Crashed {
                    pod: "pod/web-2".into(),
                    container: "web".into(),
                    exit_code: None,
                    reason: "CrashLoopBackOff".into(),
                    log: Err("pods \"web-2\" not found".into()),
                },
            ],
        };
        assert_eq!(
            summary.lines(),
            [
                "kw: summary of the wait:",
                "  failed: deployment.apps/web (pod/web-1: CrashLoopBackOff (web): back-off)",
                "  not ready:",
                "    deployment.apps/web: failed (above)",
                "      pod/web-1: Warning BackOff: Back-off restarting",
                "  pod/web-1 container web: CrashLoopBackOff (exit code 1)",
                "    last lines of its previous log:",
                "    | exit status 1",
                "  pod/web-2 container web: CrashLoopBackOff (exit code unknown)",
                "    (cannot read its previous log: pods \"web-2\" not found)",
            ]
        );
    }

    #[test]
    fn a_log_keeps_its_last_lines() {
        let body: String = (1..=30).map(|i| format!("line {i}\n")).collect();
        let tail = log_tail(body.as_bytes());
        assert_eq!(tail.len(), LOG_LINES);
        assert_eq!(tail[0], "line 11");
        assert_eq!(tail[LOG_LINES - 1], "line 30");
    }
}
