//! The threads that run jobs' turns: a few warm threads, one per core, take the jobs that are
//! ready in the order they came, and stay for the run (a thread started per turn cost a fleet
//! of a thousand clusters 13 new threads a second, issue 59). A turn may block (a reconnect to
//! a dead cluster, a backoff, stdout full): when the oldest job waiting has waited `STALL` and
//! no thread is free, one more thread starts, so a blocked turn never holds up the others for
//! longer; a thread beyond the warm ones, idle for `RETIRE`, ends. So the threads are the
//! cores, plus the turns that block at once, lately.

use std::collections::VecDeque;
use std::sync::{Arc, Condvar, Mutex, MutexGuard, PoisonError};
use std::time::{Duration, Instant};

use super::job::{Job, Parked, Turn};

/// How long a thread beyond the warm ones waits for a turn to run before it ends.
const RETIRE: Duration = Duration::from_secs(2);

/// How long a ready job waits for a thread, every thread busy, before one more starts: far
/// above a turn's usual length (a fraction of a millisecond), far below what a person sees.
const STALL: Duration = Duration::from_millis(20);

/// Where a turn that parks sends its job.
pub type Park = Box<dyn Fn(Box<dyn Job>, Parked) + Send + Sync>;

/// The pool's threads.
pub struct Pool {
    state: Mutex<State>,
    /// The threads without a turn wait here for a job.
    queued: Condvar,
    /// The stall watch waits here for a job nobody takes.
    unserved: Condvar,
    stack_size: usize,
    park: Park,
    /// Threads that stay for the run: the cores (turns are short; more at once queue for a core).
    warm: usize,
}

#[derive(Default)]
struct State {
    /// The jobs ready, the oldest first, each with when it came.
    ready: VecDeque<(Box<dyn Job>, Instant)>,
    threads: usize,
    /// Threads waiting for a job.
    idle: usize,
    /// The stall watch's thread is running.
    watched: bool,
    /// How many threads were ever started (what a steady rate must not grow).
    started: u64,
}

impl Pool {
    pub fn new(stack_size: usize, park: Park) -> Arc<Pool> {
        let warm = std::thread::available_parallelism().map_or(2, |cores| cores.get().max(2));
        Arc::new(Pool {
            state: Mutex::default(),
            queued: Condvar::new(),
            unserved: Condvar::new(),
            stack_size,
            park,
            warm,
        })
    }

    fn lock(&self) -> MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Run `job`'s next turn on a pool thread. The job back when there is no thread and none
    /// could be started.
    pub fn run(self: &Arc<Self>, job: Box<dyn Job>) -> Result<(), Box<dyn Job>> {
        let mut state = self.lock();
        if !state.watched {
            let pool = Arc::clone(self);
            let started = std::thread::Builder::new()
                .name("kw-turns-watch".into())
                .spawn(move || pool.watch_stalls());
            state.watched = started.is_ok();
        }
        let busy = state.idle == 0;
        if busy && state.threads < self.warm && !self.start_thread(&mut state) && state.threads == 0
        {
            // No thread at all, and none to be had: the caller keeps the job.
            return Err(job);
        }
        state.ready.push_back((job, Instant::now()));
        match busy {
            false => self.queued.notify_one(),
            true => self.unserved.notify_one(),
        }
        Ok(())
    }

    /// How many threads the pool has ever started.
    pub fn started(&self) -> u64 {
        self.lock().started
    }

    fn start_thread(self: &Arc<Self>, state: &mut State) -> bool {
        let pool = Arc::clone(self);
        let spawned = std::thread::Builder::new()
            .name("kw-turns".into())
            .stack_size(self.stack_size)
            .spawn(move || pool.work());
        if spawned.is_ok() {
            state.threads += 1;
            state.started += 1;
        }
        spawned.is_ok()
    }

    /// A pool thread: the oldest job ready, its turn, and again; ends when it is one of more
    /// than the warm threads and has been idle for `RETIRE`.
    fn work(&self) {
        // Counted out however the thread ends, a job's panic included.
        let _leaving = Leaving(self);
        loop {
            let mut state = self.lock();
            let mut job = loop {
                if let Some((job, _)) = state.ready.pop_front() {
                    if !state.ready.is_empty() {
                        // More came than threads were woken: another, or the stall watch.
                        self.queued.notify_one();
                        self.unserved.notify_one();
                    }
                    break job;
                }
                state.idle += 1;
                let (woken, waited) = self
                    .queued
                    .wait_timeout(state, RETIRE)
                    .unwrap_or_else(PoisonError::into_inner);
                state = woken;
                state.idle -= 1;
                if waited.timed_out() && state.ready.is_empty() && state.threads > self.warm {
                    return;
                }
            };
            drop(state);
            match job.resume() {
                Turn::Park(parked) => (self.park)(job, parked),
                Turn::Done => drop(job),
            }
        }
    }

    /// The stall watch: while jobs wait with every thread busy, one more thread each `STALL`.
    fn watch_stalls(self: Arc<Self>) {
        let mut state = self.lock();
        loop {
            let waited = state.ready.front().map(|(_, since)| since.elapsed());
            let wait = match waited {
                None => None,
                Some(waited) if waited >= STALL && state.idle == 0 => {
                    self.start_thread(&mut state);
                    Some(STALL)
                }
                Some(waited) => Some(STALL.saturating_sub(waited).max(Duration::from_millis(1))),
            };
            state = match wait {
                None => self
                    .unserved
                    .wait(state)
                    .unwrap_or_else(PoisonError::into_inner),
                Some(wait) => {
                    self.unserved
                        .wait_timeout(state, wait)
                        .unwrap_or_else(PoisonError::into_inner)
                        .0
                }
            };
        }
    }
}

/// A pool thread's leaving, counted when it ends.
struct Leaving<'a>(&'a Pool);

impl Drop for Leaving<'_> {
    fn drop(&mut self) {
        self.0.lock().threads -= 1;
    }
}
