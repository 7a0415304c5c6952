//! Jobs that give up their thread while they wait (issue #47: a fleet's watches are mostly
//! silent, and a thread each is a thread per cluster). A job works in turns (`Job`); a turn
//! that must wait for a socket parks the job with the poller (one thread for every parked
//! socket), which hands it to the pool once the socket is readable or the job's time has come;
//! the pool runs the next turn on a free thread, or a new one, so no job waits for another.
//! No async runtime: `poll(2)`, channels and threads.

mod job;
mod poller;
mod pool;

use std::io;
use std::sync::{Arc, OnceLock};

pub use job::{Job, Parked, Turn};
use poller::Poller;
use pool::Pool;

/// The poller and the pool of one run.
pub struct Parking {
    poller: Arc<OnceLock<Poller>>,
    pool: Arc<Pool>,
}

impl Parking {
    /// Start the poller; the pool's threads get stacks of `stack_size`.
    pub fn start(stack_size: usize) -> io::Result<Parking> {
        let poller: Arc<OnceLock<Poller>> = Arc::new(OnceLock::new());
        let pool = Pool::new(stack_size, {
            let poller = Arc::clone(&poller);
            Box::new(move |job, parked| {
                if let Some(poller) = poller.get() {
                    poller.park(job, parked);
                }
            })
        });
        let started = Poller::start({
            let pool = Arc::clone(&pool);
            Box::new(move |job| pool.run(job))
        })?;
        let _ = poller.set(started);
        Ok(Parking { poller, pool })
    }

    /// Park `job` until `parked` (its first turn ran elsewhere: the thread that started it).
    pub fn park(&self, job: Box<dyn Job>, parked: Parked) {
        if let Some(poller) = self.poller.get() {
            poller.park(job, parked);
        }
    }

    /// Run `job`'s turns from now on in the pool.
    pub fn run(&self, job: Box<dyn Job>) -> Result<(), Box<dyn Job>> {
        self.pool.run(job)
    }
}
