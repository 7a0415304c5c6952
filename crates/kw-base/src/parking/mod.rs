//! Jobs that give up their thread while they wait (issue #47: a fleet's watches are mostly
//! silent, and a thread each is a thread per cluster). A job works in turns (`Job`); a turn
//! that must wait for a socket parks the job with the poller (one thread for every parked
//! socket), which hands it to the pool once the socket is readable or the job's time has come;
//! the pool runs the next turn on a free thread, or a new one, so no job waits for another.
//! No async runtime: an interest set (epoll, kqueue), channels and threads.

mod job;
mod poller;
mod pool;

use std::io;
use std::sync::{Arc, OnceLock};

pub use job::{Fd, Job, Parked, Turn};
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

    /// How many parked jobs the poller has looked at: its work, which grows with the jobs
    /// that became ready, not with the jobs parked.
    pub fn looked_at(&self) -> u64 {
        self.poller.get().map_or(0, Poller::looked_at)
    }

    /// How many threads the pool has ever started: at a steady rate of events, it stays put.
    pub fn threads_started(&self) -> u64 {
        self.pool.started()
    }

    /// Run `job`'s turns from now on in the pool.
    pub fn run(&self, job: Box<dyn Job>) -> Result<(), Box<dyn Job>> {
        self.pool.run(job)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::{ErrorKind, Read, Write};
    use std::os::fd::AsRawFd;
    use std::os::unix::net::UnixStream;
    use std::sync::mpsc;
    use std::time::{Duration, Instant};

    const LIMIT: Duration = Duration::from_secs(30);

    /// Reads its end of a socket pair in turns: parks while nothing is there (until `wake_at`),
    /// says each byte with the thread that read it, and `None` when woken by time alone.
    struct Reader {
        socket: UnixStream,
        wake_in: Duration,
        said: mpsc::Sender<(Option<u8>, String)>,
    }

    impl Job for Reader {
        fn resume(&mut self) -> Turn {
            let thread = std::thread::current().name().unwrap_or("").to_string();
            let mut byte = [0u8];
            let mut read_any = false;
            loop {
                match self.socket.read(&mut byte) {
                    Ok(0) => return Turn::Done,
                    Ok(_) => {
                        read_any = true;
                        let _ = self.said.send((Some(byte[0]), thread.clone()));
                    }
                    Err(e) if e.kind() == ErrorKind::WouldBlock => {
                        if !read_any {
                            let _ = self.said.send((None, thread.clone()));
                        }
                        return Turn::Park(Parked {
                            fd: self.socket.as_raw_fd(),
                            wake_at: Instant::now() + self.wake_in,
                        });
                    }
                    Err(_) => return Turn::Done,
                }
            }
        }
    }

    fn parked(
        parking: &Parking,
        wake_in: Duration,
    ) -> (UnixStream, mpsc::Receiver<(Option<u8>, String)>) {
        let (ours, theirs) = UnixStream::pair().unwrap();
        theirs.set_nonblocking(true).unwrap();
        let (said, heard) = mpsc::channel();
        let mut job = Box::new(Reader {
            socket: theirs,
            wake_in,
            said,
        });
        match job.resume() {
            Turn::Park(at) => parking.park(job, at),
            Turn::Done => panic!("a reader with nothing to read parks"),
        }
        // Its first turn, on this thread, found nothing.
        assert_eq!(heard.recv_timeout(LIMIT).unwrap().0, None);
        (ours, heard)
    }

    #[test]
    fn a_parked_job_resumes_on_the_pool_when_its_socket_has_data_and_only_it() {
        let parking = Parking::start(256 << 10).unwrap();
        let far = Duration::from_secs(3600);
        let mut jobs: Vec<_> = (0..20).map(|_| parked(&parking, far)).collect();
        jobs[7].0.write_all(b"x").unwrap();
        let (byte, thread) = jobs[7].1.recv_timeout(LIMIT).unwrap();
        assert_eq!(byte, Some(b'x'));
        assert_eq!(thread, "kw-turns");
        // Parked again, it comes back for the next byte too.
        jobs[7].0.write_all(b"y").unwrap();
        assert_eq!(jobs[7].1.recv_timeout(LIMIT).unwrap().0, Some(b'y'));
        // The others were never resumed: nothing came for them.
        for (at, (_, heard)) in jobs.iter_mut().enumerate().filter(|(at, _)| *at != 7) {
            assert!(heard.try_recv().is_err(), "job {at} resumed without data");
        }
    }

    #[test]
    fn the_pollers_work_per_event_does_not_grow_with_the_jobs_parked() {
        const EVENTS: u64 = 20;
        let parking = Parking::start(256 << 10).unwrap();
        let far = Duration::from_secs(3600);
        let mut jobs: Vec<_> = (0..200).map(|_| parked(&parking, far)).collect();
        let before = parking.looked_at();
        for _ in 0..EVENTS {
            jobs[7].0.write_all(b"x").unwrap();
            assert_eq!(jobs[7].1.recv_timeout(LIMIT).unwrap().0, Some(b'x'));
        }
        // One look per event (fewer when a byte came before the job parked again); polling
        // every parked socket on each wake-up looked at 200 per event.
        let looked = parking.looked_at() - before;
        assert!(
            (1..=EVENTS).contains(&looked),
            "{looked} looks for {EVENTS} events on one of 200 parked jobs"
        );
    }

    #[test]
    fn a_parked_job_resumes_at_its_time_without_data() {
        let parking = Parking::start(256 << 10).unwrap();
        let (_socket, heard) = parked(&parking, Duration::from_millis(10));
        let (byte, thread) = heard.recv_timeout(LIMIT).unwrap();
        assert_eq!(byte, None, "woken by time");
        assert_eq!(thread, "kw-turns");
    }

    /// A turn that blocks until `release` opens, then says it ran.
    struct Blocker {
        release: Arc<(std::sync::Mutex<bool>, std::sync::Condvar)>,
        ran: mpsc::Sender<()>,
    }

    impl Job for Blocker {
        fn resume(&mut self) -> Turn {
            let (open, opened) = &*self.release;
            let open = open.lock().unwrap();
            let _ = opened.wait_timeout_while(open, LIMIT, |open| !*open);
            let _ = self.ran.send(());
            Turn::Done
        }
    }

    /// Opens `release` when its turn runs.
    struct Opener(Arc<(std::sync::Mutex<bool>, std::sync::Condvar)>);

    impl Job for Opener {
        fn resume(&mut self) -> Turn {
            *self.0 .0.lock().unwrap() = true;
            self.0 .1.notify_all();
            Turn::Done
        }
    }

    #[test]
    fn turns_that_block_every_warm_thread_do_not_hold_up_the_next_job() {
        const BLOCKERS: usize = 16;
        let parking = Parking::start(256 << 10).unwrap();
        let release = Arc::new((std::sync::Mutex::new(false), std::sync::Condvar::new()));
        let (ran, heard) = mpsc::channel();
        for _ in 0..BLOCKERS {
            let blocker = Blocker {
                release: Arc::clone(&release),
                ran: ran.clone(),
            };
            assert!(parking.run(Box::new(blocker)).is_ok());
        }
        // Only a thread beyond the blocked ones can run it, and only it opens their way.
        assert!(parking.run(Box::new(Opener(Arc::clone(&release)))).is_ok());
        for blocked in 0..BLOCKERS {
            assert!(
                heard.recv_timeout(LIMIT).is_ok(),
                "{blocked} of {BLOCKERS} blocked turns ran: the job after them waited"
            );
        }
        assert!(parking.threads_started() > BLOCKERS as u64);
    }
}
