//! The answer the rules give: a state (ready, in progress, failed) and why. A leaf of its own,
//! so that every kind's rules (`pod`, `workloads`, `batch`, `plain`) and the dispatcher in
//! `mod.rs` share it without importing each other.

use std::fmt;

/// The three answers. kstatus's `Terminating` is in progress here: a wait for `ready` must go
/// on while an object is being deleted, and nothing has failed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum State {
    Ready,
    InProgress,
    Failed,
}

impl fmt::Display for State {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            State::Ready => "ready",
            State::InProgress => "in progress",
            State::Failed => "failed",
        })
    }
}

/// A state and a short message (`Updated: 1/3`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Judgement {
    pub state: State,
    pub message: String,
}

impl Judgement {
    pub(super) fn ready(message: impl Into<String>) -> Judgement {
        Judgement {
            state: State::Ready,
            message: message.into(),
        }
    }

    pub(super) fn in_progress(message: impl Into<String>) -> Judgement {
        Judgement {
            state: State::InProgress,
            message: message.into(),
        }
    }

    pub(super) fn failed(message: impl Into<String>) -> Judgement {
        Judgement {
            state: State::Failed,
            message: message.into(),
        }
    }
}

/// `in progress: Updated: 1/3`
impl fmt::Display for Judgement {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.state, self.message)
    }
}
