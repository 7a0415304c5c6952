//! The one function that words how a command ended, whichever verb it was: its stderr lines
//! and its exit code.

use crate::report::outcome::Ending;
use crate::report::{exit, rollout, wait, Report};

/// The lines and exit code of a command's end.
pub fn report(ending: &Ending) -> Report {
    match ending {
        Ending::Get(outcome) => super::finished(outcome),
        Ending::Rollout(run) => rollout::run(run),
        Ending::Wait(run) => wait::finished(run),
        Ending::Done => Report::new(Vec::new(), exit::OK),
        Ending::Failed(failed) => super::error(failed),
    }
}
