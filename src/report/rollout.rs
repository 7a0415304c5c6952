//! How `kw rollout status` ends, in kubectl's words: nothing on stderr when the rollout is
//! done (or `--watch=false` printed its line), kubectl's `error: ...` line when it fails or
//! times out, then kw's cause (the summary of `get --until ready`: what is not ready and why).
//! The exit codes are kw's (the one difference a script can see: kubectl exits 1 for every
//! failure): 2 the rollout cannot finish as asked, 3 `--timeout`, 6 not found.

use crate::report::exit;
use crate::report::outcome::{End, Finished};
use crate::report::Report;
use crate::wait::Ended;

/// How a `rollout status` run finished.
#[derive(Debug)]
pub struct RolloutFinished {
    pub finished: Finished,
    /// What kubectl's viewer (or kw's rules) said of the object that failed: kubectl's error.
    pub failure: Option<String>,
}

/// The lines and exit code of a finished `rollout status`: kubectl's line first, where a
/// kubectl user looks for it, then kw's cause.
pub fn finished(run: &RolloutFinished) -> Report {
    let mut report = verdict(run);
    if report.code != exit::OK {
        if let Some(summary) = &run.finished.summary {
            report.lines.extend(summary.lines());
        }
    }
    report
}

fn verdict(run: &RolloutFinished) -> Report {
    let finished = &run.finished;
    match &finished.end {
        End::ClosedPipe | End::Ended(Ended::Until { .. }) => Report::new(Vec::new(), exit::OK),
        End::Ended(Ended::FailOn { expr, by }) => {
            let message = if expr == "delete" {
                // kubectl will not watch a new object of the same name.
                "object has been deleted".to_string()
            } else {
                run.failure.clone().unwrap_or_else(|| by.clone())
            };
            Report::error(message, exit::CONDITION_FAILED)
        }
        _ if finished.timed_out.is_some() => {
            Report::error("timed out waiting for the condition", exit::TIMEOUT)
        }
        _ => super::finished(finished),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(end: End, timed_out: bool, failure: Option<&str>) -> Report {
        finished(&RolloutFinished {
            finished: Finished {
                end,
                timed_out: timed_out.then(|| "timed out".to_string()),
                failed: None,
                unreachable: Vec::new(),
                when_empty: None,
                summary: None,
            },
            failure: failure.map(str::to_string),
        })
    }

    #[test]
    fn kubectls_error_lines_with_kws_exit_codes() {
        let until = Ended::Until {
            expr: "ready".into(),
            by: "deployment.apps/web".into(),
        };
        assert_eq!(run(End::Ended(until), false, None), Report::new(vec![], 0));
        let failed = Ended::FailOn {
            expr: "failed".into(),
            by: "deployment.apps/web".into(),
        };
        let message = "deployment \"web\" exceeded its progress deadline";
        assert_eq!(
            run(End::Ended(failed), false, Some(message)),
            Report::new(vec![format!("error: {message}")], exit::CONDITION_FAILED)
        );
        let deleted = Ended::FailOn {
            expr: "delete".into(),
            by: "web".into(),
        };
        assert_eq!(
            run(End::Ended(deleted), false, None).lines,
            ["error: object has been deleted"]
        );
        assert_eq!(
            run(End::Done { printed: 2 }, true, None),
            Report::new(
                vec!["error: timed out waiting for the condition".into()],
                exit::TIMEOUT
            )
        );
        assert_eq!(run(End::Done { printed: 1 }, false, None).code, exit::OK);
    }
}
