//! How `kw rollout status` ends, in kubectl's words: nothing on stderr when the rollout is
//! done (or `--watch=false` printed its line), kubectl's `error: ...` line when it fails or
//! times out, then kw's cause (the summary of `get --until ready`: what is not ready and why).
//! The exit codes are kw's (the one difference a script can see: kubectl exits 1 for every
//! failure): 2 the rollout cannot finish as asked, 3 `--timeout`, 6 not found.

use crate::report::exit;
use crate::report::line::ReportLine;
use crate::report::outcome::{End, RolloutOutcome, RolloutRun};
use crate::report::Report;
use kw_wait::wait::{Expr, Unready, Verdict};

/// The lines and exit code of a whole run. kubectl says each object's error once every object
/// has been watched: one failure as its `error:` line, several each on a line of its own
/// without the prefix. kw's causes come before them (the verdict is last, for every verb), and
/// the exit code is the first failure's.
pub(super) fn run(run: &RolloutRun) -> Report {
    if run.objects.is_empty() {
        let lines = run
            .when_empty
            .iter()
            .cloned()
            .map(ReportLine::Plain)
            .collect();
        return Report::new(lines, exit::OK);
    }
    let ended: Vec<(Report, Vec<ReportLine>)> = run
        .objects
        .iter()
        .map(|object| match object {
            Ok(ended) => {
                let said = verdict(ended);
                let cause = said.cause(&ended.finished);
                (said, cause)
            }
            Err(error) => (super::error(error), Vec::new()),
        })
        .collect();
    let failed: Vec<&(Report, Vec<ReportLine>)> =
        ended.iter().filter(|(r, _)| r.code != exit::OK).collect();
    let Some((first, _)) = failed.first() else {
        return Report::new(Vec::new(), exit::OK);
    };
    let mut lines: Vec<ReportLine> = failed.iter().flat_map(|(_, cause)| cause.clone()).collect();
    match failed.as_slice() {
        [(one, _)] => lines.extend(one.lines.iter().cloned()),
        several => {
            lines.extend(
                several
                    .iter()
                    .filter_map(|(r, _)| r.lines.first())
                    .map(|line| line.clone().among_several()),
            );
            lines.extend(
                several
                    .iter()
                    .flat_map(|(r, _)| r.lines.iter().skip(1).cloned()),
            );
        }
    }
    Report::new(lines, first.code)
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
                run.failed.as_ref().map_or_else(|| by.clone(), failure_line)
            };
            Report::error(message, exit::CONDITION_FAILED)
        }
        _ if finished.timed_out.is_some() => {
            Report::error("timed out waiting for the condition", exit::TIMEOUT)
        }
        _ => super::finished(finished),
    }
}

/// kubectl's words for an object that failed: its viewer's message, which names the object
/// (`deployment "web" exceeded its progress deadline`), after its context over several
/// (`prod-eu: deployment ...`, as the stdout lines are labelled); kw's rules' message after
/// the object's label (`job.batch/migrate: ...`, `prod-eu/job.batch/migrate: ...`).
fn failure_line(object: &Unready) -> String {
    let message = &object.judgement.message;
    match (object.viewed, object.context.is_empty()) {
        (true, true) => message.clone(),
        (true, false) => format!("{}: {message}", object.context),
        (false, _) => format!("{}: {message}", object.label),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::outcome::Outcome;
    use kw_events::readiness::{Judgement, State};

    fn failed(label: &str, context: &str, viewed: bool, message: &str) -> Unready {
        Unready {
            label: label.to_string(),
            context: context.to_string(),
            viewed,
            judgement: Judgement {
                state: State::Failed,
                message: message.to_string(),
            },
        }
    }

    #[test]
    fn a_failure_is_worded_as_kubectl_words_it_with_its_context_in_front() {
        let deadline = "deployment \"web\" exceeded its progress deadline";
        let web = |context: &str| {
            let label = match context {
                "" => "deployment.apps/web".to_string(),
                context => format!("{context}/deployment.apps/web"),
            };
            failed(&label, context, true, deadline)
        };
        assert_eq!(failure_line(&web("")), deadline);
        assert_eq!(
            failure_line(&web("prod-eu")),
            format!("prod-eu: {deadline}")
        );
        // An EKS context name has slashes of its own.
        assert_eq!(
            failure_line(&web("arn:aws:eks:eu:1:cluster/prod")),
            format!("arn:aws:eks:eu:1:cluster/prod: {deadline}")
        );
        let migrate = failed("job.batch/migrate", "", false, "failed: backoff limit");
        assert_eq!(
            failure_line(&migrate),
            "job.batch/migrate: failed: backoff limit"
        );
        let migrate = failed("eu/job.batch/migrate", "eu", false, "failed");
        assert_eq!(failure_line(&migrate), "eu/job.batch/migrate: failed");
    }

    fn run(end: End, timed_out: bool, failure: Option<&str>) -> Report {
        verdict(&RolloutOutcome {
            finished: Outcome {
                end,
                timed_out: timed_out.then(|| crate::report::outcome::TimedOut {
                    after: std::time::Duration::from_secs(1),
                    until: Vec::new(),
                }),
                failed: None,
                unreachable: Vec::new(),
                when_empty: None,
                summary: None,
                objects: Vec::new(),
                sources: Vec::new(),
            },
            failed: failure.map(|message| failed("deployment.apps/web", "", true, message)),
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
                objects: Vec::new(),
                sources: Vec::new(),
            },
            failed: failure.map(|message| failed("deployment.apps/web", "", true, message)),
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
