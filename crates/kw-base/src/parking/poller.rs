//! The one thread that waits for every parked job's socket with `poll(2)`, and hands a job
//! to the pool once its socket is readable (data, its end, an error) or its time has come.
//! Without `poll(2)` (Windows) there is no poller: the run keeps a thread per watch.

use std::io;
use std::sync::mpsc::Sender;
use std::sync::Mutex;
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
    /// The end of the socket pair that wakes the thread for a new job.
    #[cfg(unix)]
    wake: std::os::unix::net::UnixStream,
}

impl Poller {
    /// Start the thread; each job that is ready goes to `ready`.
    #[cfg(unix)]
    pub fn start(ready: Ready) -> io::Result<Poller> {
        // A socket pair rather than pipe2, which macOS lacks; both ends close with their owner.
        let (wake, woken) = std::os::unix::net::UnixStream::pair()?;
        wake.set_nonblocking(true)?;
        woken.set_nonblocking(true)?;
        let (sender, receiver) = std::sync::mpsc::channel();
        std::thread::Builder::new()
            .name("kw-poller".into())
            .spawn(move || unix::watch(&woken, &receiver, &ready))?;
        Ok(Poller {
            parked: Mutex::new(sender),
            wake,
        })
    }

    /// No poller where there is no `poll(2)`: the caller keeps its threads.
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
            use std::io::Write;
            // A full socket already wakes the thread.
            let _ = (&self.wake).write(&[1]);
        }
        #[cfg(not(unix))]
        let _ = sent;
    }
}

#[cfg(unix)]
mod unix {
    use std::io::Read;
    use std::os::fd::AsRawFd;
    use std::os::unix::net::UnixStream;
    use std::sync::mpsc::{self, Receiver};
    use std::time::Instant;

    use super::super::job::{Fd, Job, Parked};
    use super::{Ready, RETRY};

    /// The poller's thread: its wake pipe first, then each parked job's socket.
    pub(super) fn watch(
        woken: &UnixStream,
        arrivals: &Receiver<(Box<dyn Job>, Parked)>,
        ready: &Ready,
    ) {
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
            fds.push(pollfd(woken.as_raw_fd()));
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
                drain(woken);
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

    fn pollfd(fd: Fd) -> libc::pollfd {
        libc::pollfd {
            fd,
            events: libc::POLLIN,
            revents: 0,
        }
    }

    /// Empty the wake socket.
    fn drain(mut woken: &UnixStream) {
        let mut buf = [0u8; 256];
        // It does not block: read until nothing is left.
        while matches!(woken.read(&mut buf), Ok(n) if n > 0) {}
    }
}
