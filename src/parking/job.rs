//! What the parking runs: a job that works in turns, each until it must wait for a socket.

use std::os::fd::RawFd;
use std::time::Instant;

/// A job run in turns (a watch): each turn runs until the job must wait, or is done.
pub trait Job: Send {
    fn resume(&mut self) -> Turn;
}

/// How a turn ended.
pub enum Turn {
    /// Resume the job once `fd` is readable, or at `wake_at` at the latest.
    Park(Parked),
    /// The job has ended.
    Done,
}

/// What a parked job waits for.
#[derive(Debug, Clone, Copy)]
pub struct Parked {
    pub fd: RawFd,
    pub wake_at: Instant,
}
