//! How `kw wait` ends, in kubectl's words: nothing on stderr once every object met the
//! condition, kubectl's `error: ...` line when one did not in time (`timed out waiting for the
//! condition on pods/web`, `condition not met for pods/web` under `--timeout=0`, `no matching
//! resources found`), then kw's cause (the summary of a wait for `ready`). The exit codes are
//! kw's (the one difference a script can see: kubectl exits 1 for every failure): 2 a
//! `--fail-on` condition, 3 the timeout, 6 nothing found.

use crate::report::exit;
use crate::report::outcome::{End, Finished};
use crate::report::Report;
use crate::wait::Ended;

/// How a `wait` run finished.
#[derive(Debug)]
pub struct WaitFinished {
    pub finished: Finished,
    /// The first object (`pods/web`) that did not meet the condition, in kubectl's order.
    pub not_met: Option<String>,
    /// `--timeout=0`: the objects were looked at once.
    pub checked_once: bool,
    /// `--for=create` alone: kubectl's timeout names no object then.
    pub only_create: bool,
}

/// The lines and exit code of a finished `wait`: kubectl's line first, then kw's cause.
pub fn finished(run: &WaitFinished) -> Report {
    let mut report = verdict(run);
    if report.code != exit::OK {
        if let Some(summary) = &run.finished.summary {
            report.lines.extend(summary.lines());
        }
    }
    report
}

fn verdict(run: &WaitFinished) -> Report {
    let finished = &run.finished;
    let timed_out = |what: &str| match (&run.not_met, run.only_create) {
        (Some(object), false) => format!("{what} {object}"),
        _ => "timed out waiting for the condition".to_string(),
    };
    match &finished.end {
        End::ClosedPipe | End::Ended(Ended::Until { .. }) => Report::new(Vec::new(), exit::OK),
        End::Ended(Ended::FailOn { expr, .. }) if expr == "nothing" => {
            Report::error("no matching resources found", exit::SERVER_ERROR)
        }
        End::Ended(ended @ Ended::FailOn { .. }) => Report::error(ended, exit::CONDITION_FAILED),
        _ if finished.timed_out.is_some() => Report::error(
            timed_out("timed out waiting for the condition on"),
            exit::TIMEOUT,
        ),
        End::Done { .. } if run.checked_once && finished.failed.is_none() => Report::error(
            match &run.not_met {
                Some(object) => format!("condition not met for {object}"),
                None => "condition not met".to_string(),
            },
            exit::TIMEOUT,
        ),
        _ => super::finished(finished),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(end: End, timed_out: bool, not_met: Option<&str>, checked_once: bool) -> Report {
        finished(&WaitFinished {
            finished: Finished {
                end,
                timed_out: timed_out.then(|| "timed out".to_string()),
                failed: None,
                unreachable: Vec::new(),
                when_empty: None,
                summary: None,
            },
            not_met: not_met.map(str::to_string),
            checked_once,
            only_create: false,
        })
    }

    #[test]
    fn kubectls_error_lines_with_kws_exit_codes() {
        let met = Ended::Until {
            expr: "condition=Ready=True".into(),
            by: "pod/web".into(),
        };
        assert_eq!(
            run(End::Ended(met), false, None, false),
            Report::new(vec![], 0)
        );
        assert_eq!(
            run(End::Done { printed: 0 }, true, Some("pods/never"), false),
            Report::new(
                vec!["error: timed out waiting for the condition on pods/never".into()],
                exit::TIMEOUT
            )
        );
        assert_eq!(
            run(End::Done { printed: 0 }, false, Some("pods/web"), true),
            Report::new(
                vec!["error: condition not met for pods/web".into()],
                exit::TIMEOUT
            )
        );
        let nothing = Ended::FailOn {
            expr: "nothing".into(),
            by: "no matching resources found".into(),
        };
        assert_eq!(
            run(End::Ended(nothing), false, None, false),
            Report::new(
                vec!["error: no matching resources found".into()],
                exit::SERVER_ERROR
            )
        );
    }
}
