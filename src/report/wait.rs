//! How `kw wait` ends, in kubectl's words: nothing on stderr once every object met the
//! condition, kubectl's `error: ...` line when one did not in time (`timed out waiting for the
//! condition on pods/web`, `condition not met for pods/web` under `--timeout=0`, `no matching
//! resources found`), then kw's cause (the summary of a wait for `ready`). The exit codes are
//! kw's (the one difference a script can see: kubectl exits 1 for every failure): 2 a
//! `--fail-on` condition, 3 the timeout, 6 nothing found.

use crate::report::exit;
use crate::report::line::ReportLine;
use crate::report::outcome::{End, WaitOutcome};
use crate::report::Report;
use kw_wait::wait::summary::NAMED_OBJECTS;
use kw_wait::wait::{Expr, Standing, Verdict};

/// The lines and exit code of a finished `wait`: kw's cause, then kubectl's line, last.
pub(super) fn finished(run: &WaitOutcome) -> Report {
    verdict(run).after_cause(&run.finished)
}

fn verdict(run: &WaitOutcome) -> Report {
    let finished = &run.finished;
    // kubectl's line for a missing object is the server's answer, written as it is.
    let missing: Vec<ReportLine> = run
        .objects
        .iter()
        .filter_map(|(_, standing)| match standing {
            Standing::Missing(line) => Some(ReportLine::Plain(line.clone())),
            _ => None,
        })
        .collect();
    match &finished.end {
        End::ClosedPipe {
            verdict_lost: false,
        }
        | End::Verdict(Verdict::Until { .. })
            if missing.is_empty() =>
        {
            Report::new(Vec::new(), exit::OK)
        }
        End::ClosedPipe { verdict_lost: true } => super::finished(finished),
        // The others met it; the named ones that do not exist fail the wait, each said in
        // the order named, as kubectl says them after the others' lines.
        End::Verdict(Verdict::Until { .. }) | End::Done { .. }
            if !missing.is_empty() && finished.timed_out.is_none() && !run.checked_once =>
        {
            Report::new(missing, exit::SERVER_ERROR)
        }
        End::Verdict(Verdict::FailOn {
            expr: Expr::Nothing,
            ..
        }) => Report::error("no matching resources found", exit::SERVER_ERROR),
        End::Verdict(ended @ Verdict::FailOn { .. }) => {
            Report::error(ended, exit::CONDITION_FAILED)
        }
        End::Verdict(Verdict::Invalid(message)) => Report::error(message, exit::USAGE),
        _ if finished.timed_out.is_some() => {
            // kubectl waits on the objects in turn under one deadline: once it has passed on
            // one, every object after it times out too. A named one that does not exist is
            // said where it was named, before or after. Past NAMED_OBJECTS lines, the rest are
            // counted in one.
            let first_unmet = run
                .objects
                .iter()
                .position(|(_, standing)| *standing == Standing::NotMet);
            let messages: Vec<ReportLine> = named(
                run.objects.iter().enumerate().filter_map(
                    |(at, (object, standing))| match standing {
                        Standing::Missing(line) => Some(ReportLine::Plain(line.clone())),
                        _ if first_unmet.is_some_and(|first| at >= first) => {
                            Some(ReportLine::Error(format!(
                                "timed out waiting for the condition on {object}"
                            )))
                        }
                        _ => None,
                    },
                ),
                |more| {
                    ReportLine::Error(format!(
                        "timed out waiting for the condition on {more} more objects"
                    ))
                },
            );
            match first_unmet.is_none() || run.only_create {
                true if missing.is_empty() => {
                    Report::error("timed out waiting for the condition", exit::TIMEOUT)
                }
                // Only the missing ones failed: what is wrong is that they do not exist.
                _ if first_unmet.is_none() => errors(messages, exit::SERVER_ERROR),
                _ => errors(messages, exit::TIMEOUT),
            }
        }
        End::Done { .. } if run.checked_once && finished.failed.is_none() => {
            let messages: Vec<ReportLine> = named(
                run.objects
                    .iter()
                    .filter_map(|(object, standing)| match standing {
                        Standing::Met => None,
                        Standing::NotMet => {
                            Some(ReportLine::Error(format!("condition not met for {object}")))
                        }
                        Standing::Missing(line) => Some(ReportLine::Plain(line.clone())),
                    }),
                |more| ReportLine::Error(format!("condition not met for {more} more objects")),
            );
            let unmet = run.objects.iter().any(|(_, s)| *s == Standing::NotMet);
            errors(
                messages,
                if unmet {
                    exit::TIMEOUT
                } else {
                    exit::SERVER_ERROR
                },
            )
        }
        _ => super::finished(finished),
    }
}

/// kubectl's line for each object, of the first `NAMED_OBJECTS`; the others counted in one.
fn named(
    lines: impl Iterator<Item = ReportLine>,
    more: impl Fn(usize) -> ReportLine,
) -> Vec<ReportLine> {
    let mut named = Vec::new();
    let mut unnamed = 0;
    for line in lines {
        if named.len() < NAMED_OBJECTS {
            named.push(line);
        } else {
            unnamed += 1;
        }
    }
    if unnamed > 0 {
        named.push(more(unnamed));
    }
    named
}

/// kubectl's words for its errors: one is said as it is (kubectl's own an `error:` line, an
/// API error as the server answered), several each on a line without `error: `.
fn errors(lines: Vec<ReportLine>, code: i32) -> Report {
    match lines.len() {
        0 => Report::error("condition not met", code),
        1 => Report::new(lines, code),
        _ => Report::new(
            lines.into_iter().map(ReportLine::among_several).collect(),
            code,
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::outcome::Outcome;

    fn run(end: End, timed_out: bool, objects: &[(&str, bool)], checked_once: bool) -> Report {
        finished(&WaitOutcome {
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
            objects: objects
                .iter()
                .map(|(o, met)| {
                    let standing = if *met {
                        Standing::Met
                    } else {
                        Standing::NotMet
                    };
                    (o.to_string(), standing)
                })
                .collect(),
            checked_once,
            only_create: false,
        })
    }

    #[test]
    fn kubectls_error_lines_with_kws_exit_codes() {
        let met = Verdict::Until {
            expr: "condition=Ready=True".into(),
            by: "pod/web".into(),
        };
        assert_eq!(
            run(End::Verdict(met), false, &[], false),
            Report::new(vec![], 0)
        );
        assert_eq!(
            run(
                End::Done { printed: 0 },
                true,
                &[("pods/never", false)],
                false
            ),
            Report::new(
                vec![ReportLine::Error(
                    "timed out waiting for the condition on pods/never".into()
                )],
                exit::TIMEOUT
            )
        );
        assert_eq!(
            run(
                End::Done { printed: 0 },
                false,
                &[("pods/web", false)],
                true
            ),
            Report::new(
                vec![ReportLine::Error("condition not met for pods/web".into())],
                exit::TIMEOUT
            )
        );
        let nothing = Verdict::FailOn {
            expr: Expr::Nothing,
            by: "no matching resources found".into(),
        };
        assert_eq!(
            run(End::Verdict(nothing), false, &[], false),
            Report::new(
                vec![ReportLine::Error("no matching resources found".into())],
                exit::SERVER_ERROR
            )
        );
    }

    /// A missing object is said in the line the server's answer gave, as it is: a 404 with no
    /// Status body words it as kw's error, which keeps its one `error: `.
    #[test]
    fn a_missing_object_is_said_in_its_own_line() {
        let missing = "error: the server could not find the requested resource";
        let report = finished(&WaitOutcome {
            finished: Outcome {
                end: End::Done { printed: 0 },
                timed_out: None,
                failed: None,
                unreachable: Vec::new(),
                when_empty: None,
                summary: None,
                objects: Vec::new(),
                sources: Vec::new(),
            },
            objects: vec![("pods/gone".into(), Standing::Missing(missing.into()))],
            checked_once: true,
            only_create: false,
        });
        let written: Vec<String> = report.lines.iter().map(ToString::to_string).collect();
        assert_eq!(written, [missing]);
        assert_eq!(report.code, exit::SERVER_ERROR);
    }

    /// As kubectl: the objects in turn under one deadline, so every object after the first
    /// that timed out times out too; each error on a line of its own when there are several.
    #[test]
    fn several_objects_say_each_error_on_a_line() {
        let objects = [
            ("deployments/api", true),
            ("deployments/crashy", false),
            ("deployments/front", true),
        ];
        assert_eq!(
            run(End::Done { printed: 2 }, true, &objects, false).lines,
            [
                ReportLine::Plain(
                    "timed out waiting for the condition on deployments/crashy".into()
                ),
                ReportLine::Plain(
                    "timed out waiting for the condition on deployments/front".into()
                )
            ]
        );
        assert_eq!(
            run(End::Done { printed: 2 }, false, &objects, true).lines,
            [ReportLine::Error(
                "condition not met for deployments/crashy".into()
            )]
        );
    }
}
