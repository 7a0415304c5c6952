//! The threads that run jobs' turns: one free thread takes each job that is ready, and a new
//! one starts when none is free, so a job never waits for another's turn (a turn may block: a
//! reconnect to a dead cluster, a backoff). Up to `warm` threads wait for turns for as long as
//! the run lasts (a thread started per turn cost a fleet of a thousand clusters 13 new threads
//! a second, issue 59); one more than that, idle for `RETIRE`, ends. So the threads are the
//! turns that run at once, lately, and at most `warm` more.

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
    /// How many idle threads stay: the cores (turns are short; more at once queue for a core).
    warm: usize,
}

impl Pool {
    pub fn new(stack_size: usize, park: Park) -> Arc<Pool> {
        let warm = std::thread::available_parallelism().map_or(2, |cores| cores.get().max(2));
        Arc::new(Pool {
            idle: Mutex::new(Vec::new()),
            next_id: Mutex::new(0),
            stack_size,
            park,
            warm,
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
            job = match self.next_job(id, jobs) {
                Some(job) => job,
                None => return,
            };
        }
    }

    /// The thread `id`'s next job, once one is handed to it; `None` when it is to end: one of
    /// more than `warm` idle threads, idle for `RETIRE`.
    fn next_job(&self, id: u64, jobs: &mpsc::Receiver<Box<dyn Job>>) -> Option<Box<dyn Job>> {
        loop {
            match jobs.recv_timeout(RETIRE) {
                Ok(job) => return Some(job),
                Err(RecvTimeoutError::Disconnected) => return None,
                Err(RecvTimeoutError::Timeout) => {
                    let mut idle = lock(&self.idle);
                    let Some(at) = idle.iter().position(|(free, _)| *free == id) else {
                        // Taken off the list just now: its job is on the way.
                        drop(idle);
                        return jobs.recv().ok();
                    };
                    if idle.len() > self.warm {
                        idle.remove(at);
                        return None;
                    }
                }
            }
        }
    }
}

fn lock<T>(mutex: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    mutex
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
}
