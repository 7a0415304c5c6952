//! `kw logs -w --until EXPR` / `--fail-on EXPR` (issue 62, point 4): the logs of what a wait is
//! about, until its verdict. The wait is `kw get`'s own (`TARGET --until EXPR`, the same judge,
//! summary and exit codes), its printed lines silenced and its `--logs` written on stdout as
//! `kw logs -w` writes lines: a Job's Pods until it completes, a rollout's new Pods until it is
//! available or fails with its cause.

use clap::Parser;

use super::logs_watch;
use crate::cli::{GetArgs, LogsArgs};
use crate::plan::Logs;
use crate::report::error::{KwError, LogsError};
use crate::report::outcome::Outcome;
use kw_base::notices::Notices;
use kw_client::config::flags::ConfigFlags;

/// The command line of the `get` that waits.
#[derive(Parser)]
#[command(no_binary_name = true)]
struct Waiting {
    #[command(flatten)]
    get: GetArgs,
}

/// What the logs are of: `kw get`'s words for it.
pub enum Of {
    Pod(String),
    Selector(String),
    /// `deployments.apps/web`.
    Workload(String),
}

/// Follow the logs of `of` until the wait `args` asks for ends.
pub fn until(
    args: &LogsArgs,
    of: Of,
    config: &ConfigFlags,
    notices: &Notices,
) -> Result<Outcome, KwError> {
    logs_watch::refused_flags(args)?;
    let filters = logs_watch::filters(args, args.container.as_deref())?;
    let mut line: Vec<String> = match of {
        Of::Pod(name) => vec![format!("pod/{name}")],
        Of::Selector(selector) => vec!["pods".into(), "-l".into(), selector],
        Of::Workload(named) => vec![named],
    };
    for (flag, values) in [("--until", &args.until), ("--fail-on", &args.fail_on)] {
        for value in values {
            line.extend([flag.to_string(), value.clone()]);
        }
    }
    if args.all_namespaces {
        line.push("--all-namespaces".into());
    }
    if let Some(timeout) = &args.timeout {
        line.extend(["--timeout".into(), timeout.clone()]);
    }
    // The wait's own lines (the objects as they meet the question) are not this verb's
    // output: a template that prints nothing for each.
    line.extend(["-o".into(), "jsonpath={\"\"}".into()]);
    let waiting = Waiting::try_parse_from(&line)
        .map_err(|e| LogsError::Usage(e.render().to_string().trim_end().to_string()))?;
    let jsonl = matches!(args.output.as_deref(), Some("json" | "jsonl"));
    super::get_shaped(&waiting.get, config, notices, |plan| {
        plan.logs = Some(Logs::All);
        plan.logs_on_stdout = Some(jsonl);
        plan.logs_container = filters;
    })
}
