//! What the parking runs: a job that works in turns, each until it must wait for a socket.

use std::time::Instant;

/// A socket as `poll(2)` names it.
#[cfg(unix)]
pub type Fd = std::os::fd::RawFd;
/// Elsewhere (Windows) kw polls no socket: no connection has one, so nothing parks; the type
/// only keeps the code one.
#[cfg(not(unix))]
pub type Fd = i32;

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
    pub fd: Fd,
    pub wake_at: Instant,
}
