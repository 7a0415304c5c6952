//! `kw wait`, run: its plan (`crate::plan::wait`) through `get`'s runner; then what kubectl's
//! error line needs (the first object that did not meet the condition) and, on a failure or a
//! timeout, kw's cause: the summary `get --until ready` writes.

use crate::cli::WaitArgs;
use crate::report::error::KwError;
use crate::report::outcome::WaitOutcome;
use kw_base::notices::Notices;
use kw_client::config::flags::ConfigFlags;
use kw_wait::wait::Expr;

/// `kw wait --for=CONDITION TARGETS`: kubectl's lines on stdout as each object meets it.
pub fn wait(
    args: &WaitArgs,
    config: &ConfigFlags,
    notices: &Notices,
) -> Result<WaitOutcome, KwError> {
    let request_timeout = config.request_timeout.as_deref();
    let plan =
        crate::plan::wait::plan(args, request_timeout, &|path| std::fs::read_to_string(path))?;
    let checked_once = !plan.watching;
    let only_create = plan.rules.until.iter().all(|e| *e == Expr::Create);
    let (finished, evidence) = super::run_plan(plan, config, notices)?;
    let objects = evidence
        .judge
        .as_ref()
        .map(|judge| judge.in_order())
        .unwrap_or_default();
    Ok(WaitOutcome {
        finished,
        objects,
        checked_once,
        only_create,
    })
}
