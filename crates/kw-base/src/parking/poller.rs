//! The one thread that waits for every parked job's socket, and hands a job to the pool once
//! its socket is readable (data, its end, an error) or its time has come. The sockets wait in
//! an interest set the kernel keeps across wake-ups (epoll, kqueue: the `polling` crate), so an
//! event on one of a thousand parked sockets costs what it costs with one: the poller looks at
//! the jobs that are ready, never at every parked one (`poll(2)` over every socket on each
//! wake-up spent 1.88 of 2.03 CPU seconds in a fleet of a thousand clusters, issue 59).
//! Without such a set (Windows) there is no poller: the run keeps a thread per watch.

use std::io;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::mpsc::Sender;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use super::job::{Job, Parked};

/// Where a job that is ready goes: back when it could not be taken (no thread to be had).
pub type Ready = Box<dyn Fn(Box<dyn Job>) -> Result<(), Box<dyn Job>> + Send>;

/// A job that could not be handed over is tried again this much later.
#[cfg_attr(not(unix), allow(dead_code))]
const RETRY: Duration = Duration::from_millis(100);

/// The parked jobs' thread, and the way to it.
pub struct Poller {
    parked: Mutex<Sender<(Box<dyn Job>, Parked)>>,
    /// Wakes the thread for a new job.
    #[cfg(unix)]
    interest: Arc<polling::Poller>,
    /// How many parked jobs the thread has looked at (each one ready, or due): its work.
    looked_at: Arc<AtomicU64>,
}

impl Poller {
    /// Start the thread; each job that is ready goes to `ready`.
    #[cfg(unix)]
    pub fn start(ready: Ready) -> io::Result<Poller> {
        let interest = Arc::new(polling::Poller::new()?);
        let looked_at = Arc::new(AtomicU64::new(0));
        let (sender, receiver) = std::sync::mpsc::channel();
        std::thread::Builder::new()
            .name("kw-poller".into())
            .spawn({
                let interest = Arc::clone(&interest);
                let looked_at = Arc::clone(&looked_at);
                move || unix::Parked::new(&interest, &looked_at).watch(&receiver, &ready)
            })?;
        Ok(Poller {
            parked: Mutex::new(sender),
            interest,
            looked_at,
        })
    }

    /// No poller where there is no interest set: the caller keeps its threads.
    #[cfg(not(unix))]
    pub fn start(_ready: Ready) -> io::Result<Poller> {
        Err(io::ErrorKind::Unsupported.into())
    }

    /// Wait for `parked` on behalf of `job`.
    pub fn park(&self, job: Box<dyn Job>, parked: Parked) {
        let sent = self
            .parked
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
            .send((job, parked));
        #[cfg(unix)]
        if sent.is_ok() {
            let _ = self.interest.notify();
        }
        #[cfg(not(unix))]
        let _ = sent;
    }

    /// How many parked jobs the thread has looked at so far.
    pub fn looked_at(&self) -> u64 {
        self.looked_at.load(Ordering::Relaxed)
    }
}

#[cfg(unix)]
mod unix {
    use std::collections::{BTreeSet, HashMap};
    use std::os::fd::BorrowedFd;
    use std::sync::atomic::{AtomicU64, Ordering};
    use std::sync::mpsc::{self, Receiver};
    use std::time::{Duration, Instant};

    use super::super::job::{self, Job};
    use super::{Ready, RETRY};

    /// The parked jobs, by key; their sockets in the interest set under that key, and their
    /// times in order.
    pub(super) struct Parked<'a> {
        interest: &'a polling::Poller,
        looked_at: &'a AtomicU64,
        jobs: HashMap<usize, (Box<dyn Job>, job::Parked)>,
        due: BTreeSet<(Instant, usize)>,
        next_key: usize,
    }

    impl<'a> Parked<'a> {
        pub(super) fn new(interest: &'a polling::Poller, looked_at: &'a AtomicU64) -> Parked<'a> {
            Parked {
                interest,
                looked_at,
                jobs: HashMap::new(),
                due: BTreeSet::new(),
                next_key: 0,
            }
        }

        /// The poller's thread: new jobs in, ready jobs out, until the run parks no more.
        pub(super) fn watch(
            mut self,
            arrivals: &Receiver<(Box<dyn Job>, job::Parked)>,
            ready: &Ready,
        ) {
            let mut events = polling::Events::new();
            loop {
                loop {
                    match arrivals.try_recv() {
                        Ok((job, parked)) => self.park(job, parked),
                        Err(mpsc::TryRecvError::Empty) => break,
                        // The run is over: nothing will be parked any more.
                        Err(mpsc::TryRecvError::Disconnected) if self.jobs.is_empty() => return,
                        Err(mpsc::TryRecvError::Disconnected) => break,
                    }
                }
                let timeout = self.due.first().map(|(at, _)| {
                    // Rounded up to the millisecond epoll counts in: woken before its time, a
                    // job would only be parked again.
                    let left = at.saturating_duration_since(Instant::now());
                    Duration::from_millis(left.as_micros().div_ceil(1000) as u64)
                });
                events.clear();
                // Interrupted by a signal, or woken by `notify` alone: look again.
                if self.interest.wait(&mut events, timeout).is_err() {
                    continue;
                }
                for event in events.iter() {
                    self.hand_over(event.key, ready);
                }
                let now = Instant::now();
                while let Some(&(at, key)) = self.due.first() {
                    if at > now {
                        break;
                    }
                    self.hand_over(key, ready);
                }
            }
        }

        /// Wait for `parked`: its socket into the interest set, its time among the others.
        fn park(&mut self, job: Box<dyn Job>, parked: job::Parked) {
            let key = self.next_key;
            self.next_key = self.next_key.wrapping_add(1);
            if parked.fd >= 0 {
                // SAFETY: the job owns the socket and keeps it open while parked; it is taken
                // out of the set (`hand_over`) before the job runs again and may close it.
                let added = unsafe { self.interest.add(parked.fd, polling::Event::readable(key)) };
                if added.is_err() {
                    // A socket the set refuses: the job reads it itself, now.
                    let later = job::Parked {
                        fd: -1,
                        wake_at: Instant::now(),
                    };
                    return self.park_timed(key, job, later);
                }
            }
            self.park_timed(key, job, parked);
        }

        fn park_timed(&mut self, key: usize, job: Box<dyn Job>, parked: job::Parked) {
            self.due.insert((parked.wake_at, key));
            self.jobs.insert(key, (job, parked));
        }

        /// The job under `key` to the pool: out of the interest set and the times first.
        fn hand_over(&mut self, key: usize, ready: &Ready) {
            let Some((job, parked)) = self.jobs.remove(&key) else {
                return;
            };
            self.looked_at.fetch_add(1, Ordering::Relaxed);
            self.due.remove(&(parked.wake_at, key));
            if parked.fd >= 0 {
                // SAFETY: the job still owns the socket, open: it has not run since it parked.
                let socket = unsafe { BorrowedFd::borrow_raw(parked.fd) };
                let _ = self.interest.delete(socket);
            }
            if let Err(job) = ready(job) {
                // Tried again when its time comes, not as soon as its socket is readable (no
                // socket in the set); the job reads its own socket.
                let later = job::Parked {
                    fd: -1,
                    wake_at: Instant::now() + RETRY,
                };
                self.park_timed(key, job, later);
            }
        }
    }
}
