//! The one thread that waits for every parked job's socket with `poll(2)`, and hands a job
//! to the pool once its socket is readable (data, its end, an error) or its time has come.

use std::io;
use std::os::fd::RawFd;
use std::sync::mpsc::{self, Receiver, Sender};
use std::sync::Mutex;
use std::time::{Duration, Instant};

use super::job::{Job, Parked};

/// Where a job that is ready goes: back when it could not be taken (no thread to be had).
pub type Ready = Box<dyn Fn(Box<dyn Job>) -> Result<(), Box<dyn Job>> + Send>;

/// A job that could not be handed over is tried again this much later.
const RETRY: Duration = Duration::from_millis(100);

/// The parked jobs' thread, and the way to it.
pub struct Poller {
    parked: Mutex<Sender<(Box<dyn Job>, Parked)>>,
    /// The write end of the pipe that wakes the thread for a new job.
    wake: RawFd,
}

impl Poller {
    /// Start the thread; each job that is ready goes to `ready`.
    pub fn start(ready: Ready) -> io::Result<Poller> {
        let mut fds = [0 as libc::c_int; 2];
        // SAFETY: a two-element array, as pipe2 wants.
        if unsafe { libc::pipe2(fds.as_mut_ptr(), libc::O_CLOEXEC | libc::O_NONBLOCK) } != 0 {
            return Err(io::Error::last_os_error());
        }
        let [read, write] = fds;
        let (sender, receiver) = mpsc::channel();
        let started = std::thread::Builder::new()
            .name("kw-poller".into())
            .spawn(move || watch(read, &receiver, &ready));
        if let Err(error) = started {
            // SAFETY: both ends are ours and used nowhere else.
            unsafe {
                libc::close(read);
                libc::close(write);
            }
            return Err(error);
        }
        Ok(Poller {
            parked: Mutex::new(sender),
            wake: write,
        })
    }

    /// Wait for `parked` on behalf of `job`.
    pub fn park(&self, job: Box<dyn Job>, parked: Parked) {
        let sent = self
            .parked
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
            .send((job, parked));
        if sent.is_ok() {
            let byte = 1u8;
            // SAFETY: one byte from a valid address; a full pipe already wakes the thread.
            unsafe { libc::write(self.wake, (&byte as *const u8).cast(), 1) };
        }
    }
}

/// The poller's thread: its wake pipe first, then each parked job's socket.
fn watch(wake: RawFd, arrivals: &Receiver<(Box<dyn Job>, Parked)>, ready: &Ready) {
    let mut parked: Vec<(Box<dyn Job>, Parked)> = Vec::new();
    let mut fds: Vec<libc::pollfd> = Vec::new();
    loop {
        loop {
            match arrivals.try_recv() {
                Ok(job) => parked.push(job),
                Err(mpsc::TryRecvError::Empty) => break,
                // The run is over: nothing will be parked any more.
                Err(mpsc::TryRecvError::Disconnected) if parked.is_empty() => return,
                Err(mpsc::TryRecvError::Disconnected) => break,
            }
        }
        fds.clear();
        fds.push(pollfd(wake));
        fds.extend(parked.iter().map(|(_, p)| pollfd(p.fd)));
        let now = Instant::now();
        let timeout = parked
            .iter()
            .map(|(_, p)| p.wake_at.saturating_duration_since(now))
            .min()
            // Rounded up: woken before its time, a job would only be parked again.
            .map_or(-1, |left| {
                (left.as_micros().div_ceil(1000)).min(i32::MAX as u128) as libc::c_int
            });
        // SAFETY: `fds` holds `fds.len()` valid pollfds.
        let ready_count =
            unsafe { libc::poll(fds.as_mut_ptr(), fds.len() as libc::nfds_t, timeout) };
        if ready_count < 0 {
            // Interrupted by a signal: look again.
            continue;
        }
        if fds[0].revents != 0 {
            drain(wake);
        }
        let now = Instant::now();
        // From the back, so that `swap_remove` only moves entries already looked at.
        for at in (0..parked.len()).rev() {
            if fds[at + 1].revents == 0 && parked[at].1.wake_at > now {
                continue;
            }
            let (job, _) = parked.swap_remove(at);
            if let Err(job) = ready(job) {
                // Tried again when its time comes, not as soon as its socket is readable (no
                // socket: poll passes over a negative one); the job reads its own socket.
                let later = Parked {
                    fd: -1,
                    wake_at: now + RETRY,
                };
                parked.push((job, later));
            }
        }
    }
}

fn pollfd(fd: RawFd) -> libc::pollfd {
    libc::pollfd {
        fd,
        events: libc::POLLIN,
        revents: 0,
    }
}

/// Empty the wake pipe.
fn drain(fd: RawFd) {
    let mut buf = [0u8; 256];
    // SAFETY: reads into a buffer of the length given; the pipe does not block.
    while unsafe { libc::read(fd, buf.as_mut_ptr().cast(), buf.len()) } > 0 {}
}
