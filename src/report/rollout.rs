//! How `kw rollout status` ends, in kubectl's words: nothing on stderr when the rollout is
//! done (or `--watch=false` printed its line), kubectl's `error: ...` line when it fails or
//! times out, then kw's cause (the summary of `get --until ready`: what is not ready and why).
//! The exit codes are kw's (the one difference a script can see: kubectl exits 1 for every
//! failure): 2 the rollout cannot finish as asked, 3 `--timeout`, 6 not found.

use crate::report::error::KwError;
use crate::report::exit;
use crate::report::line::ReportLine;
use crate::report::outcome::{End, Outcome};
use crate::report::Report;
use kw_wait::wait::{Expr, Verdict};

/// How a `rollout status` run finished.
#[derive(Debug)]
pub struct RolloutOutcome {
    pub finished: Outcome,
    /// What kubectl's viewer (or kw's rules) said of the object that failed: kubectl's error.
    pub failure: Option<String>,
}

/// A `rollout status` run over its objects, one after another, as kubectl watches them.
#[derive(Debug, Default)]
pub struct RolloutRun {
    /// Each object's end, in the order watched: an error is the object's own (not found).
    pub objects: Vec<Result<RolloutOutcome, KwError>>,
    /// What kubectl says on stderr when a type or a selector matched nothing.
    pub when_empty: Option<String>,
}

/// The lines and exit code of a whole run. kubectl says each object's error once every object
/// has been watched: one failure as its `error:` line, several each on a line of its own
/// without the prefix. kw's causes follow, and the exit code is the first failure's.
pub fn run(run: &RolloutRun) -> Report {
    if run.objects.is_empty() {
        let lines = run
            .when_empty
            .iter()
            .cloned()
            .map(ReportLine::Plain)
            .collect();
        return Report::new(lines, exit::OK);
    }
    let reports: Vec<Report> = run
        .objects
        .iter()
        .map(|object| match object {
            Ok(ended) => finished(ended),
            Err(error) => super::error(error),
        })
        .collect();
    let failed: Vec<&Report> = reports.iter().filter(|r| r.code != exit::OK).collect();
    match failed.as_slice() {
        [] => Report::new(Vec::new(), exit::OK),
        [one] => (*one).clone(),
        several => {
            let mut lines: Vec<ReportLine> = several
                .iter()
                .filter_map(|r| r.lines.first())
                .map(|line| line.clone().among_several())
                .collect();
            lines.extend(several.iter().flat_map(|r| r.lines.iter().skip(1).cloned()));
            Report::new(lines, several[0].code)
        }
    }
}

/// The lines and exit code of a finished `rollout status`: kubectl's line first, where a
/// kubectl user looks for it, then kw's cause.
pub fn finished(run: &RolloutOutcome) -> Report {
    verdict(run).then_cause(&run.finished)
}

fn verdict(run: &RolloutOutcome) -> Report {
    let finished = &run.finished;
    match &finished.end {
        End::ClosedPipe {
            verdict_lost: false,
        }
        | End::Verdict(Verdict::Until { .. }) => Report::new(Vec::new(), exit::OK),
        End::ClosedPipe { verdict_lost: true } => super::finished(finished),
        End::Verdict(Verdict::FailOn { expr, by }) => {
            let message = if *expr == Expr::Delete {
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
        finished(&RolloutOutcome {
            finished: Outcome {
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
    fn several_objects_say_their_errors_at_the_end_as_kubectl_does() {
        let ended = |by: &str, failure: Option<&str>| RolloutOutcome {
            finished: Outcome {
                end: End::Verdict(match failure {
                    Some(_) => Verdict::FailOn {
                        expr: Expr::Failed,
                        by: by.into(),
                    },
                    None => Verdict::Until {
                        expr: "ready".into(),
                        by: by.into(),
                    },
                }),
                timed_out: None,
                failed: None,
                unreachable: Vec::new(),
                when_empty: None,
                summary: None,
            },
            failure: failure.map(str::to_string),
        };
        let empty = RolloutRun {
            objects: Vec::new(),
            when_empty: Some("No resources found in default namespace.".into()),
        };
        assert_eq!(
            super::run(&empty),
            Report::new(
                vec![ReportLine::Plain(
                    "No resources found in default namespace.".into()
                )],
                0
            )
        );
        let one = RolloutRun {
            objects: vec![Ok(ended("a", None)), Ok(ended("b", Some("b broke")))],
            when_empty: None,
        };
        assert_eq!(
            super::run(&one),
            Report::new(
                vec![ReportLine::Error("b broke".into())],
                exit::CONDITION_FAILED
            )
        );
        let two = RolloutRun {
            objects: vec![
                Ok(ended("a", Some("a broke"))),
                Ok(ended("b", None)),
                Ok(ended("c", Some("c broke"))),
            ],
            when_empty: None,
        };
        assert_eq!(
            super::run(&two),
            Report::new(
                vec![
                    ReportLine::Plain("a broke".into()),
                    ReportLine::Plain("c broke".into())
                ],
                exit::CONDITION_FAILED
            )
        );
    }

    #[test]
    fn kubectls_error_lines_with_kws_exit_codes() {
        let until = Verdict::Until {
            expr: "ready".into(),
            by: "deployment.apps/web".into(),
        };
        assert_eq!(
            run(End::Verdict(until), false, None),
            Report::new(vec![], 0)
        );
        let failed = Verdict::FailOn {
            expr: Expr::Failed,
            by: "deployment.apps/web".into(),
        };
        let message = "deployment \"web\" exceeded its progress deadline";
        assert_eq!(
            run(End::Verdict(failed), false, Some(message)),
            Report::new(
                vec![ReportLine::Error(message.into())],
                exit::CONDITION_FAILED
            )
        );
        let deleted = Verdict::FailOn {
            expr: Expr::Delete,
            by: "web".into(),
        };
        assert_eq!(
            run(End::Verdict(deleted), false, None).lines,
            [ReportLine::Error("object has been deleted".into())]
        );
        assert_eq!(
            run(End::Done { printed: 2 }, true, None),
            Report::new(
                vec![ReportLine::Error(
                    "timed out waiting for the condition".into()
                )],
                exit::TIMEOUT
            )
        );
        assert_eq!(run(End::Done { printed: 1 }, false, None).code, exit::OK);
    }
}
