//! The threads that run jobs' turns: one free thread takes each job that is ready, and a new
//! one starts when none is free, so a job never waits for another's turn (a turn may block: a
//! reconnect to a dead cluster, a backoff). A thread idle for `RETIRE` ends, so the threads
//! are as many as the turns that run at once, lately.

use std::sync::mpsc::{self, RecvTimeoutError, Sender};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use super::job::{Job, Parked, Turn};

/// How long a thread without a turn to run waits for one before it ends.
const RETIRE: Duration = Duration::from_secs(2);

/// Where a turn that parks sends its job.
pub type Park = Box<dyn Fn(Box<dyn Job>, Parked) + Send + Sync>;

/// A thread waiting for a turn: its id, and the way to hand it one.
type Free = (u64, Sender<Box<dyn Job>>);

/// The pool's threads.
pub struct Pool {
    /// The threads waiting for a turn, the last to finish one last.
    idle: Mutex<Vec<Free>>,
    next_id: Mutex<u64>,
    stack_size: usize,
    park: Park,
}

impl Pool {
    pub fn new(stack_size: usize, park: Park) -> Arc<Pool> {
        Arc::new(Pool {
            idle: Mutex::new(Vec::new()),
            next_id: Mutex::new(0),
            stack_size,
            park,
        })
    }

    /// Run `job`'s next turn on a free thread, or a new one. The job back when no thread
    /// could be started.
    pub fn run(self: &Arc<Self>, job: Box<dyn Job>) -> Result<(), Box<dyn Job>> {
        let mut job = job;
        loop {
            let free = lock(&self.idle).pop();
            let Some((_, thread)) = free else {
                break;
            };
            // A thread in the list waits for this send (it leaves the list before it ends).
            match thread.send(job) {
                Ok(()) => return Ok(()),
                Err(mpsc::SendError(back)) => job = back,
            }
        }
        let id = {
            let mut next = lock(&self.next_id);
            *next += 1;
            *next
        };
        let (sender, receiver) = mpsc::channel::<Box<dyn Job>>();
        let pool = Arc::clone(self);
        // Where the first job waits for the thread: back from there if none can be started.
        let first = Arc::new(Mutex::new(Some(job)));
        let spawned = std::thread::Builder::new()
            .name("kw-turns".into())
            .stack_size(self.stack_size)
            .spawn({
                let first = Arc::clone(&first);
                move || {
                    let job = lock(&first).take();
                    if let Some(job) = job {
                        pool.work(id, job, &sender, &receiver);
                    }
                }
            });
        match spawned {
            Ok(_) => Ok(()),
            Err(_) => lock(&first).take().map_or(Ok(()), Err),
        }
    }

    fn work(
        &self,
        id: u64,
        first: Box<dyn Job>,
        me: &Sender<Box<dyn Job>>,
        jobs: &mpsc::Receiver<Box<dyn Job>>,
    ) {
        let mut job = first;
        loop {
            match job.resume() {
                Turn::Park(parked) => (self.park)(job, parked),
                Turn::Done => drop(job),
            }
            lock(&self.idle).push((id, me.clone()));
            job = match jobs.recv_timeout(RETIRE) {
                Ok(job) => job,
                Err(RecvTimeoutError::Timeout) => {
                    let mut idle = lock(&self.idle);
                    match idle.iter().position(|(free, _)| *free == id) {
                        Some(at) => {
                            idle.remove(at);
                            return;
                        }
                        // Taken off the list just now: its job is on the way.
                        None => {
                            drop(idle);
                            match jobs.recv() {
                                Ok(job) => job,
                                Err(_) => return,
                            }
                        }
                    }
                }
                Err(RecvTimeoutError::Disconnected) => return,
            };
        }
    }
}

fn lock<T>(mutex: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    mutex
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
}
