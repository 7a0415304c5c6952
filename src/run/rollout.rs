//! `kw rollout status`, run: its plan (`crate::plan::rollout`) through `get`'s runner, and the
//! judgement of the object that failed, for kubectl's error line.

use crate::cli::RolloutStatusArgs;
use crate::config::flags::ConfigFlags;
use crate::log::Notices;
use crate::readiness::State;
use crate::report::error::KwError;
use crate::report::rollout::RolloutFinished;

/// `kw rollout status TYPE/NAME`: kubectl's lines on stdout until the rollout is done.
pub fn status(
    args: &RolloutStatusArgs,
    config: &ConfigFlags,
    notices: &Notices,
) -> Result<RolloutFinished, KwError> {
    let mut plan = crate::plan::rollout::plan(args)?;
    plan.request_timeout = match config.request_timeout.as_deref() {
        Some(value) => crate::config::flags::parse_request_timeout(value)
            .map_err(crate::plan::PlanError::from)?,
        None => None,
    };
    let (finished, judge) = super::run_plan(plan, config, notices)?;
    let failure = judge.and_then(|judge| {
        judge
            .unready()
            .into_iter()
            .find(|(_, judgement)| judgement.state == State::Failed)
            .map(|(_, judgement)| judgement.message)
    });
    Ok(RolloutFinished { finished, failure })
}
