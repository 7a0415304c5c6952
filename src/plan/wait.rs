//! `kw wait`'s plan: the same `GetPlan` that `kw get TARGETS --until EXPR` builds, with kubectl
//! wait's printer (`pod/web condition met`, or the object in the `-o` format, each object once,
//! in kubectl's order) and kubectl wait's defaults (30 s). Nothing here runs anything; the
//! runner is `get`'s.

use std::time::Duration;

use crate::cli::WaitArgs;
use kw_events::readiness::status_viewer::Readiness;
use kw_output::output::printer::format::{parse_output_spec, OutputSpec};
use kw_output::output::printer::FormatError;
use kw_output::output::printer::OutputFormat;
use kw_wait::wait::{ConditionError, Expr, For, PastGrace, Rules};

use super::flags::fail_grace_of;
use super::{parse_targets, GetPlan, OutputPlan, PlanError, ReadFile, Request};

/// kw's `get` default.
const MAX_OBJECT_SIZE: usize = 64 << 20;

/// What kubectl makes of a negative `--timeout`: a week.
const A_WEEK: Duration = Duration::from_secs(168 * 3600);

/// The plan of `kw wait ARGS`, each watch cut after `request_timeout` (the global
/// `--request-timeout`). Pure.
pub fn plan(
    args: &WaitArgs,
    request_timeout: Option<&str>,
    read: ReadFile<'_>,
) -> Result<GetPlan, PlanError> {
    let until = conditions_of(&args.for_conditions)?;
    let mut fail_on = args
        .fail_on
        .iter()
        .map(|text| Ok(Expr::parse("--fail-on", text)?))
        .collect::<Result<Vec<Expr>, PlanError>>()?;
    if fail_on.is_empty() && until.contains(&Expr::Ready) {
        fail_on.push(Expr::Failed);
    }
    let timeout = timeout_of(&args.timeout)?;
    let (request, order) = request_of(args)?;
    let collection = order.is_empty() && matches!(request, Request::Types(_));
    if collection && !until.contains(&Expr::Delete) {
        // kubectl refuses a selector that matches nothing at once.
        fail_on.push(Expr::Nothing);
    }
    let inner = match args.output.as_deref() {
        None | Some("") => None,
        Some(format) => Some(Box::new(output_of(format, read)?)),
    };
    // Why a wait on an object's state failed or ran out (its Pods, their Warning events, a
    // crashed container's log): for kubectl's conditions too, which say nothing of the cause.
    // Not for `create`/`delete`, whose objects have no state to explain.
    let summarize = until
        .iter()
        .chain(&fail_on)
        .any(|e| !matches!(e, Expr::Create | Expr::Delete | Expr::Nothing));
    Ok(GetPlan {
        request,
        // `--timeout=0` checks once, as kubectl's does.
        watching: timeout != Some(Duration::ZERO),
        live: false,
        watch_asked: false,
        ignore_not_found: false,
        print_list: true,
        rules: Rules {
            until,
            // kubectl's repeated `--for`: AND, in order.
            sequence: true,
            fail_on,
            mode: For::All,
            max_events: None,
            progress: !args.quiet,
            fail_grace: fail_grace_of(args.fail_grace.as_deref())?,
            // kw's `--for=ready` fails on a stuck Pod (its `--fail-on failed`); kubectl's
            // conditions never guard Pods, so nothing here changes kubectl's ending.
            past_grace: PastGrace::Fails,
            readiness: Readiness::Kw,
            explain: summarize,
        },
        timeout: timeout.filter(|t| !t.is_zero()),
        request_timeout: super::flags::request_timeout(request_timeout)?,
        output: OutputPlan::plain(OutputFormat::ConditionMet {
            inner,
            order,
            steps: args.for_conditions.len(),
        }),
        all_namespaces: args.all_namespaces,
        namespace_set: None,
        label_selector: args.selector.clone(),
        field_selector: args.field_selector.clone(),
        chunk_size: 500,
        max_object_size: MAX_OBJECT_SIZE,
        several_contexts: false,
        explain_waits: summarize && !args.quiet,
        quiet: args.quiet,
        after_listing: None,
        summarize,
        streaming_list: false,
        logs: super::get::Logs::of(args.logs.as_deref()),
        logs_on_stdout: None,
        logs_container: None,
        subresource: None,
    })
}

/// `--for`, kubectl's vocabulary (in its words) and kw's `ready`; repeated, each object meets
/// them all, in order (`create` first wherever it is given), as today's kubectl.
fn conditions_of(texts: &[String]) -> Result<Vec<Expr>, PlanError> {
    if texts.is_empty() {
        // kubectl's `%q` of its empty list of conditions.
        return Err(PlanError::Value {
            flag: "--for",
            reason: "unrecognized condition: []".into(),
        });
    }
    // kubectl waits for every object to exist before it judges anything when `create` is
    // among them; an object must exist to meet any condition but `delete` anyway, so only a
    // `delete` before `create` waits for the object to come first (`Judge::sequence_done`).
    Ok(texts
        .iter()
        .map(|text| Expr::parse_for(text))
        .collect::<Result<Vec<Expr>, ConditionError>>()?)
}

/// kubectl's `--timeout`: a Go duration; `0` checks once, a negative one waits for a week.
fn timeout_of(text: &str) -> Result<Option<Duration>, PlanError> {
    let bad = || PlanError::Timeout {
        text: text.to_string(),
    };
    if let Some(positive) = text.strip_prefix('-') {
        kw_go::goformat::duration::parse(positive).map_err(|_| bad())?;
        return Ok(Some(A_WEEK));
    }
    kw_go::goformat::duration::parse(text)
        .map(Some)
        .map_err(|_| bad())
}

/// What to wait on, and the names in kubectl's order (empty for a selector or `--all`, whose
/// objects come in the server's order, and for a manifest, whose order the run fills in once it
/// has read the file: `GetPlan::with_manifest_order`).
fn request_of(args: &WaitArgs) -> Result<(Request, Vec<String>), PlanError> {
    if !args.filename.is_empty() {
        if !args.targets.is_empty() {
            return Err(PlanError::ManifestWithTargets);
        }
        let request = Request::Manifest {
            paths: args.filename.clone(),
            recursive: args.recursive,
        };
        return Ok((request, Vec::new()));
    }
    if args.targets.is_empty() {
        return Err(PlanError::Value {
            flag: "TYPE/NAME",
            reason: "You must provide one or more resources by argument or filename.".into(),
        });
    }
    let targets = parse_targets(&args.targets)?;
    let order: Vec<String> = targets
        .iter()
        .flat_map(|(_, names)| names.iter().cloned())
        .collect();
    let collection = args.all || args.selector.is_some() || args.field_selector.is_some();
    if order.is_empty() && !collection {
        return Err(PlanError::Value {
            flag: "TYPE/NAME",
            reason: "resource(s) were provided, but no name was specified".into(),
        });
    }
    if !order.is_empty() && (args.selector.is_some() || args.all) {
        return Err(PlanError::Value {
            flag: "-l",
            reason: "name cannot be provided when a selector is specified".into(),
        });
    }
    Ok((Request::Types(targets), order))
}

/// The `-o` formats kubectl wait prints with.
fn output_of(text: &str, read: ReadFile<'_>) -> Result<OutputFormat, PlanError> {
    let format = match parse_output_spec(text) {
        Ok(OutputSpec::Format(format)) => Some(format),
        Ok(OutputSpec::File(file)) => Some(file.parse(read(file.path()))?),
        // An unknown name gets wait's list of formats, not get's.
        Err(FormatError::Unknown(_)) => None,
        Err(e) => return Err(e.into()),
    };
    match format {
        Some(
            format @ (OutputFormat::Name
            | OutputFormat::Json
        | OutputFormat::Yaml
        | OutputFormat::Kyaml
        | OutputFormat::JsonPath { .. }
            | OutputFormat::GoTemplate { .. }),
        ) => Ok(format),
        _ => Err(PlanError::Value {
            flag: "-o",
            reason: format!(
                "unable to match a printer suitable for the output format {:?}, allowed formats are: \
                 go-template,go-template-file,json,jsonpath,jsonpath-as-json,jsonpath-file,kyaml,name,template,templatefile,yaml",
                text
            ),
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cli::{Cli, Command};
    use clap::Parser;

    fn plan_of(args: &[&str]) -> Result<GetPlan, PlanError> {
        let argv = ["kw", "wait"].iter().chain(args);
        let cli = Cli::try_parse_from(argv).expect("flags parse");
        let Command::Wait(wait) = &cli.command else {
            panic!("not kw wait");
        };
        // Planning reads no file itself: one a test names is not there.
        plan(wait, cli.config.request_timeout.as_deref(), &|path| {
            Err(std::io::Error::other(format!(
                "{} is not read in unit tests",
                path.display()
            )))
        })
    }

    fn message(args: &[&str]) -> String {
        plan_of(args).unwrap_err().to_string()
    }

    /// The global `--request-timeout` is planned with the verb's own flags, not set afterwards.
    #[test]
    fn the_request_timeout_is_part_of_the_plan() {
        let p = plan_of(&["--request-timeout=5s", "--for=delete", "pod/a"]).unwrap();
        assert_eq!(p.request_timeout, Some(Duration::from_secs(5)));
        assert_eq!(
            plan_of(&["--for=delete", "pod/a"]).unwrap().request_timeout,
            None
        );
        let bad = message(&["--request-timeout=x", "--for=delete", "pod/a"]);
        assert!(bad.starts_with("invalid --request-timeout \"x\""), "{bad}");
    }

    #[test]
    fn kubectls_defaults_thirty_seconds_one_line_per_object() {
        let p = plan_of(&["--for=condition=Ready", "pod/a", "pod/b"]).unwrap();
        assert!(p.watching);
        assert_eq!(p.timeout, Some(Duration::from_secs(30)));
        assert_eq!(
            p.output.format,
            OutputFormat::ConditionMet {
                inner: None,
                order: vec!["a".into(), "b".into()],
                steps: 1,
            }
        );
        assert!(p.prints_once());
        assert_eq!(
            p.rules.until,
            [Expr::Condition {
                name: "Ready".into(),
                value: "True".into()
            }]
        );
        assert!(p.rules.fail_on.is_empty());
        let once = plan_of(&["--for", "delete", "pod", "a", "--timeout=0"]).unwrap();
        assert!(!once.watching);
        assert_eq!(once.timeout, None);
        let week = plan_of(&["--for=create", "pod/a", "--timeout=-1s"]).unwrap();
        assert_eq!(week.timeout, Some(A_WEEK));
    }

    #[test]
    fn a_selector_that_matches_nothing_fails_but_for_delete() {
        let p = plan_of(&["--for=condition=Ready", "pods", "-l", "app=web"]).unwrap();
        assert_eq!(p.rules.fail_on, [Expr::Nothing]);
        let p = plan_of(&["--for=delete", "pods", "--all"]).unwrap();
        assert!(p.rules.fail_on.is_empty());
    }

    #[test]
    fn ready_fails_on_failed_unless_told_otherwise_and_for_repeats_in_order() {
        let p = plan_of(&["--for=ready", "deploy/web"]).unwrap();
        assert_eq!(p.rules.fail_on, [Expr::Failed]);
        assert!(p.explain_waits);
        let p = plan_of(&["--for=ready", "deploy/web", "--fail-on=delete", "-q"]).unwrap();
        assert_eq!(p.rules.fail_on, [Expr::Delete]);
        assert!(!p.explain_waits && !p.rules.progress);
        let p = plan_of(&["--for=delete", "--for=condition=Ready", "pod/a"]).unwrap();
        assert_eq!(p.rules.until.len(), 2);
        assert!(p.rules.sequence);
    }

    #[test]
    fn kubectls_words_for_mistakes() {
        assert_eq!(message(&["pod/a"]), "unrecognized condition: []");
        assert_eq!(
            message(&["--for=foo", "pod/a"]),
            "unrecognized condition: \"foo\""
        );
        assert_eq!(
            message(&["--for=delete", "pods"]),
            "resource(s) were provided, but no name was specified"
        );
        assert_eq!(
            message(&["--for=delete"]),
            "You must provide one or more resources by argument or filename."
        );
        assert!(message(&["--for=delete", "pod/a", "--timeout=soon"]).contains("--timeout"));
        assert!(message(&["--for=delete", "pod/a", "-o", "wide"]).contains("allowed formats"));
        assert!(message(&["--for=ready", "pod/a", "--fail-on=ready"]).contains("--fail-on"));
    }
}
