//! `kw rollout status`'s plans: the same `GetPlan` that `kw get TYPE/NAME --until ready
//! --fail-on failed` builds, with kubectl's status viewers as the readiness rules and their
//! lines as the printer. Nothing here runs anything; the runner is `get`'s.
//!
//! kubectl watches the objects it is given one after another, in its order (the order given,
//! or the server's list order for a type or a selector), each until it is done, failed or out
//! of its own `--timeout`, then the next: `objects` says which, `for_object` is the plan of one,
//! `selection` the one-shot list that finds what a type or a selector names. Over several
//! contexts kw watches every object at once instead (`everywhere`), each line labelled.

use std::path::PathBuf;
use std::time::Duration;

use crate::cli::RolloutStatusArgs;
use crate::wire::EventType;
use kw_events::readiness::status_viewer::Readiness;
use kw_output::output::printer::OutputFormat;
use kw_wait::wait::{Expr, For, PastGrace, Rules};

use super::flags::fail_grace_of;
use super::{parse_targets, GetPlan, OutputPlan, PlanError, Request};

/// What kubectl's `--max-object-size`-less client accepts, kw's `get` default.
const MAX_OBJECT_SIZE: usize = 64 << 20;

/// What `kw rollout status` was asked to watch, in kubectl's order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Objects {
    /// `TYPE/NAME...` or `TYPE NAME...`: (type as typed, name), in the order given.
    Named(Vec<(String, String)>),
    /// `TYPE[,TYPE...]` with or without `-l`: every object of each type the selector matches
    /// (every one without a selector, as kubectl takes it), as the server lists them.
    Selected {
        types: Vec<String>,
        selector: Option<String>,
    },
    /// `-f FILE...`: the objects the manifests name, in their order.
    Manifest(Vec<PathBuf>),
}

/// kubectl's words when neither objects nor a manifest are given.
const NOTHING_NAMED: &str = "required resource not specified";
/// kubectl's words for names and a selector together.
const NAMES_WITH_SELECTOR: &str =
    "selectors and the all flag cannot be used when passing resource/name arguments";

/// The objects `args` name, checked as kubectl checks them. Pure.
pub fn objects(args: &RolloutStatusArgs) -> Result<Objects, PlanError> {
    check_flags(args)?;
    if !args.filename.is_empty() {
        if !args.targets.is_empty() {
            return Err(PlanError::ManifestWithTargets);
        }
        return Ok(Objects::Manifest(args.filename.clone()));
    }
    if args.targets.is_empty() {
        return Err(PlanError::Value {
            flag: "TYPE/NAME",
            reason: NOTHING_NAMED.into(),
        });
    }
    let targets = parse_targets(&args.targets)?;
    let named = targets.iter().any(|(_, names)| !names.is_empty());
    if !named {
        return Ok(Objects::Selected {
            types: targets.into_iter().map(|(t, _)| t).collect(),
            selector: args.selector.clone(),
        });
    }
    if args.selector.is_some() {
        return Err(PlanError::Value {
            flag: "--selector",
            reason: NAMES_WITH_SELECTOR.into(),
        });
    }
    // `parse_targets` groups `TYPE/NAME`s by type; kubectl keeps the order they were given in.
    let in_order = match args.targets[0].contains('/') {
        true => args
            .targets
            .iter()
            .filter_map(|t| t.split_once('/'))
            .map(|(t, n)| (t.to_string(), n.to_string()))
            .collect(),
        false => targets
            .into_iter()
            .flat_map(|(t, names)| names.into_iter().map(move |n| (t.clone(), n)))
            .collect(),
    };
    Ok(Objects::Named(in_order))
}

/// The plan of watching one object (`request` names it) until its rollout is done, each watch
/// cut after `request_timeout` (the global `--request-timeout`).
pub fn for_object(
    args: &RolloutStatusArgs,
    request: Request,
    request_timeout: Option<&str>,
) -> Result<GetPlan, PlanError> {
    check_flags(args)?;
    let timeout = timeout_of(&args.timeout)?;
    let revision = args.revision;
    Ok(GetPlan {
        request,
        watching: args.watch,
        live: false,
        // kubectl's viewer prints a line per event it sees: never the once-per-object gate.
        watch_asked: true,
        ignore_not_found: false,
        print_list: true,
        rules: Rules {
            until: vec![Expr::Ready],
            // kubectl's viewer errors (the progress deadline) and a deletion end it, as in
            // kubectl; a Pod of the current revision stuck past the grace ends it only when
            // `--fail-grace` asks (kubectl waits on; without it, the moment is said once).
            fail_on: vec![Expr::Failed, Expr::Delete],
            sequence: false,
            mode: For::All,
            max_events: None,
            progress: false,
            fail_grace: fail_grace_of(args.fail_grace.as_deref())?,
            past_grace: match args.fail_grace {
                Some(_) => PastGrace::Fails,
                None => PastGrace::Said,
            },
            readiness: Readiness::Kubectl { revision },
            explain: false,
        },
        timeout,
        request_timeout: super::flags::request_timeout(request_timeout)?,
        output: output(revision, Vec::new()),
        all_namespaces: false,
        namespace_set: None,
        label_selector: None,
        field_selector: None,
        chunk_size: 500,
        max_object_size: MAX_OBJECT_SIZE,
        several_contexts: false,
        explain_waits: false,
        quiet: false,
        after_listing: None,
        // kubectl says nothing of the cause: kw's summary follows its error line.
        summarize: true,
        streaming_list: false,
        logs: super::get::Logs::of(args.logs.as_deref()),
        logs_on_stdout: None,
        logs_container: None,
        subresource: None,
    })
}

/// The one-shot list of `typed` (with `-l`'s selector) that finds the objects to watch, as
/// kubectl's builder lists them first: nothing of it is printed (only deletions would be, and
/// a list has none); the judge keeps what it saw. `--timeout` bounds it (every page of it),
/// as it bounds every request kw makes; each object found then has a `--timeout` of its own.
pub fn selection(
    args: &RolloutStatusArgs,
    typed: &str,
    request_timeout: Option<&str>,
) -> Result<GetPlan, PlanError> {
    let request = Request::Types(vec![(typed.to_string(), Vec::new())]);
    let mut plan = for_object(args, request, request_timeout)?;
    plan.watching = false;
    plan.rules.fail_on = Vec::new();
    plan.label_selector = args.selector.clone();
    plan.output = output(args.revision, vec![EventType::Deleted]);
    Ok(plan)
}

/// Over several contexts: every object `args` name, in every context at once, until each is
/// rolled out (or one fails), each line labelled with its context.
pub fn everywhere(
    args: &RolloutStatusArgs,
    request_timeout: Option<&str>,
) -> Result<GetPlan, PlanError> {
    let request = match objects(args)? {
        Objects::Manifest(paths) => Request::Manifest {
            paths,
            recursive: args.recursive,
        },
        Objects::Named(named) => Request::Types(
            named
                .into_iter()
                .map(|(typed, name)| (typed, vec![name]))
                .collect(),
        ),
        Objects::Selected { types, .. } => {
            Request::Types(types.into_iter().map(|t| (t, Vec::new())).collect())
        }
    };
    let mut plan = for_object(args, request, request_timeout)?;
    plan.label_selector = args.selector.clone();
    Ok(plan)
}

/// The flags' values, checked as kubectl checks them.
fn check_flags(args: &RolloutStatusArgs) -> Result<(), PlanError> {
    if args.revision < 0 {
        return Err(PlanError::Value {
            flag: "--revision",
            reason: format!("revision must be a positive integer: {}", args.revision),
        });
    }
    timeout_of(&args.timeout)?;
    Ok(())
}

fn output(revision: i64, only: Vec<EventType>) -> OutputPlan {
    OutputPlan {
        only,
        ..OutputPlan::plain(OutputFormat::RolloutStatus { revision })
    }
}

/// kubectl's `--timeout`: a Go duration, `0` (the default) for never.
fn timeout_of(text: &str) -> Result<Option<Duration>, PlanError> {
    let timeout = kw_go::goformat::duration::parse(text).map_err(|_| PlanError::Timeout {
        text: text.to_string(),
    })?;
    Ok(Some(timeout).filter(|t| !t.is_zero()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cli::{Cli, Command, RolloutCommand};
    use clap::Parser;

    fn args_of(args: &[&str]) -> RolloutStatusArgs {
        let argv = ["kw", "rollout", "status"].iter().chain(args);
        let cli = Cli::try_parse_from(argv).expect("flags parse");
        let Command::Rollout(rollout) = cli.command else {
            panic!("not kw rollout");
        };
        let RolloutCommand::Status(status) = rollout.command;
        status
    }

    fn plan_of(args: &[&str]) -> Result<GetPlan, PlanError> {
        let argv = ["kw", "rollout", "status"].iter().chain(args);
        let cli = Cli::try_parse_from(argv).expect("flags parse");
        let request_timeout = cli.config.request_timeout;
        let args = args_of(args);
        let request = match objects(&args)? {
            Objects::Named(named) => Request::Types(
                named
                    .into_iter()
                    .map(|(typed, name)| (typed, vec![name]))
                    .collect(),
            ),
            Objects::Manifest(paths) => Request::Manifest {
                paths,
                recursive: false,
            },
            Objects::Selected { .. } => panic!("not one object"),
        };
        for_object(&args, request, request_timeout.as_deref())
    }

    /// The global `--request-timeout` is planned with the verb's own flags, not set afterwards.
    #[test]
    fn the_request_timeout_is_part_of_the_plan() {
        let p = plan_of(&["--request-timeout=5s", "deploy/web"]).unwrap();
        assert_eq!(p.request_timeout, Some(Duration::from_secs(5)));
        assert_eq!(plan_of(&["deploy/web"]).unwrap().request_timeout, None);
        let bad = plan_of(&["--request-timeout=x", "deploy/web"]).unwrap_err();
        assert!(
            bad.to_string()
                .starts_with("invalid --request-timeout \"x\""),
            "{bad}"
        );
    }

    #[test]
    fn kubectls_defaults_watch_for_ever_by_kubectls_rules() {
        let p = plan_of(&["deploy/web"]).unwrap();
        assert!(p.watching);
        assert_eq!(p.timeout, None);
        assert_eq!(
            p.request,
            Request::Types(vec![("deploy".into(), vec!["web".into()])])
        );
        assert_eq!(p.rules.readiness, Readiness::Kubectl { revision: 0 });
        assert_eq!(p.rules.until, [Expr::Ready]);
        let p = plan_of(&[
            "deployment",
            "web",
            "--watch=false",
            "--timeout=40s",
            "--revision",
            "3",
        ])
        .unwrap();
        assert!(!p.watching);
        assert_eq!(p.timeout, Some(Duration::from_secs(40)));
        assert_eq!(p.output.format, OutputFormat::RolloutStatus { revision: 3 });
        assert_eq!(
            plan_of(&["deploy/web", "--timeout", "0"]).unwrap().timeout,
            None
        );
    }

    #[test]
    fn flag_mistakes_name_the_flag() {
        let message = |args: &[&str]| plan_of(args).unwrap_err().to_string();
        assert_eq!(
            message(&["deploy/web", "--revision=-1"]),
            "revision must be a positive integer: -1"
        );
        assert!(message(&["deploy/web", "--timeout", "soon"]).contains("--timeout \"soon\""));
        assert!(message(&["deploy/web", "-f", "x.yaml"]).contains("-f names the objects"));
        let manifest = plan_of(&["-f", "app.yaml"]).unwrap();
        assert_eq!(
            manifest.request,
            Request::Manifest {
                paths: vec!["app.yaml".into()],
                recursive: false
            }
        );
    }

    /// kubectl's order and kubectl's refusals, word for word.
    #[test]
    fn objects_in_kubectls_order_and_its_refusals() {
        let objects_of = |args: &[&str]| objects(&args_of(args));
        let named = |pairs: &[(&str, &str)]| {
            Objects::Named(
                pairs
                    .iter()
                    .map(|(t, n)| (t.to_string(), n.to_string()))
                    .collect(),
            )
        };
        assert_eq!(
            objects_of(&["deploy/web", "sts/db", "deploy/api"]).unwrap(),
            named(&[("deploy", "web"), ("sts", "db"), ("deploy", "api")])
        );
        assert_eq!(
            objects_of(&["deploy", "web", "api"]).unwrap(),
            named(&[("deploy", "web"), ("deploy", "api")])
        );
        assert_eq!(
            objects_of(&["deploy,sts", "-l", "app=web"]).unwrap(),
            Objects::Selected {
                types: vec!["deploy".into(), "sts".into()],
                selector: Some("app=web".into())
            }
        );
        assert_eq!(
            objects_of(&["deploy"]).unwrap(),
            Objects::Selected {
                types: vec!["deploy".into()],
                selector: None
            }
        );
        let message = |args: &[&str]| objects_of(args).unwrap_err().to_string();
        assert_eq!(message(&["-l", "app=web"]), NOTHING_NAMED);
        assert_eq!(
            message(&["deploy/web", "--selector", "app=web"]),
            NAMES_WITH_SELECTOR
        );
        assert_eq!(message(&["deploy", "web", "-l", "a"]), NAMES_WITH_SELECTOR);
    }

    #[test]
    fn the_selection_lists_once_and_prints_nothing() {
        let args = args_of(&["deploy", "-l", "app=web", "--timeout=5s"]);
        let p = selection(&args, "deploy", None).unwrap();
        assert!(!p.watching);
        // Bounded as every request is (issue 45): a stalled list ends at the timeout.
        assert_eq!(p.timeout, Some(Duration::from_secs(5)));
        assert_eq!(p.label_selector.as_deref(), Some("app=web"));
        assert_eq!(p.output.only, [EventType::Deleted]);
        assert!(p.rules.fail_on.is_empty());
    }
}
