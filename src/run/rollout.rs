//! `kw rollout status`, run: its plan (`crate::plan::rollout`) through `get`'s runner; then the
//! judgement of the object that failed (kubectl's error line) and, on a failure or a timeout,
//! kw's cause: the summary `get --until ready` writes.

use crate::cli::RolloutStatusArgs;
use crate::config::flags::ConfigFlags;
use crate::log::Notices;
use crate::readiness::status_viewer::has_viewer_for_label;
use crate::readiness::State;
use crate::report::error::KwError;
use crate::report::outcome::End;
use crate::report::rollout::RolloutFinished;
use crate::wait::Ended;

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
    let (mut finished, evidence) = super::run_plan(plan, config, notices)?;
    let failure = evidence.judge.as_ref().and_then(|judge| {
        judge
            .unready()
            .into_iter()
            .find(|(_, judgement)| judgement.state == State::Failed)
            // kubectl's viewers name the object in their words; kw's rules do not.
            .map(|(label, judgement)| match has_viewer_for_label(&label) {
                true => judgement.message,
                false => format!("{label}: {}", judgement.message),
            })
    });
    let failed_by = match &finished.end {
        End::Ended(Ended::FailOn { by, .. }) => Some(by.clone()),
        _ => None,
    };
    if failed_by.is_some() || finished.timed_out.is_some() {
        finished.summary = Some(evidence.summary(failed_by)).filter(|s| !s.is_empty());
    }
    Ok(RolloutFinished { finished, failure })
}
