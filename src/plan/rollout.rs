//! `kw rollout status`'s plan: the same `GetPlan` that `kw get TYPE/NAME --until ready
//! --fail-on failed` builds, with kubectl's status viewers as the readiness rules and their
//! lines as the printer. Nothing here runs anything; the runner is `get`'s.

use std::time::Duration;

use crate::cli::RolloutStatusArgs;
use crate::output::printer::OutputFormat;
use crate::output::terminal::ColorChoice;
use crate::readiness::status_viewer::Readiness;
use crate::wait::{Expr, For, Rules};

use super::{fail_grace_of, parse_targets, GetPlan, OutputPlan, PlanError, Request};

/// What kubectl's `--max-object-size`-less client accepts, kw's `get` default.
const MAX_OBJECT_SIZE: usize = 64 << 20;

/// The plan of `kw rollout status ARGS`. Pure.
pub fn plan(args: &RolloutStatusArgs) -> Result<GetPlan, PlanError> {
    if args.revision < 0 {
        return Err(PlanError::Value {
            flag: "--revision",
            reason: format!("revision must be a positive integer: {}", args.revision),
        });
    }
    let timeout = timeout_of(&args.timeout)?;
    let request = match &args.filename {
        Some(_) if !args.targets.is_empty() => return Err(PlanError::ManifestWithTargets),
        // The manifest is read with the rest of the run's requests (`run::requested`).
        Some(path) => Request::Manifest(path.clone()),
        None => {
            let targets = parse_targets(&args.targets)?;
            let one_object = matches!(targets.as_slice(), [(_, names)] if names.len() == 1);
            if !one_object {
                return Err(PlanError::Value {
                    flag: "TYPE/NAME",
                    reason: "rollout status is only supported on individual resources: give TYPE NAME or TYPE/NAME".into(),
                });
            }
            Request::Types(targets)
        }
    };
    let revision = args.revision;
    Ok(GetPlan {
        request,
        watching: args.watch,
        live: false,
        // kubectl's viewer prints a line per event it sees: never the once-per-object gate.
        watch_asked: true,
        print_list: true,
        rules: Rules {
            until: vec![Expr::Ready],
            // kubectl's viewer errors (the progress deadline) and a deletion end it, as in
            // kubectl; a Pod of the current revision stuck past the grace ends it too.
            fail_on: vec![Expr::Failed, Expr::Delete],
            mode: For::All,
            max_events: None,
            progress: false,
            fail_grace: fail_grace_of(args.fail_grace.as_deref())?,
            readiness: Readiness::Kubectl { revision },
        },
        timeout,
        request_timeout: None,
        output: OutputPlan {
            format: OutputFormat::RolloutStatus { revision },
            watch_events: false,
            no_headers: false,
            show_kind: false,
            show_managed_fields: false,
            show_labels: false,
            label_columns: Vec::new(),
            sort_by: None,
            timestamps: None,
            color: ColorChoice::Never,
            diff: None,
            ignore_unchanged: false,
            only: Vec::new(),
        },
        all_namespaces: false,
        namespace_set: None,
        label_selector: None,
        field_selector: None,
        chunk_size: 500,
        max_object_size: MAX_OBJECT_SIZE,
        several_contexts: false,
        explain_waits: false,
        streaming_list: false,
    })
}

/// kubectl's `--timeout`: a Go duration, `0` (the default) for never.
fn timeout_of(text: &str) -> Result<Option<Duration>, PlanError> {
    let timeout = crate::goformat::duration::parse(text).map_err(|_| PlanError::Timeout {
        text: text.to_string(),
    })?;
    Ok(Some(timeout).filter(|t| !t.is_zero()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cli::{Cli, Command, RolloutCommand};
    use clap::Parser;

    fn plan_of(args: &[&str]) -> Result<GetPlan, PlanError> {
        let argv = ["kw", "rollout", "status"].iter().chain(args);
        let cli = Cli::try_parse_from(argv).expect("flags parse");
        let Command::Rollout(rollout) = &cli.command else {
            panic!("not kw rollout");
        };
        let RolloutCommand::Status(status) = &rollout.command;
        plan(status)
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
        assert!(message(&["deploy"]).contains("individual resources"));
        assert!(message(&["deploy/web", "-f", "x.yaml"]).contains("-f names the objects"));
        let manifest = plan_of(&["-f", "app.yaml"]).unwrap();
        assert_eq!(manifest.request, Request::Manifest("app.yaml".into()));
    }
}
