//! Output: the sink between the watcher and stdout. One buffered writer; flushed when the input
//! has nothing more ready, so a flood costs one write per batch and a trickle is seen at once.

use std::io::{self, Write};

use crate::output::printer::{Closing, Printer};
use kw_events::events::{Event, Flow, Sink};

pub struct Output<W: Write> {
    printer: Box<dyn Printer>,
    out: io::BufWriter<W>,
}

/// Room for everything one drained read of the stream prints (a read brings at most 128 KiB;
/// `-o json` prints about three times its input), so a flood costs one `write` per read.
const BUFFER: usize = 512 * 1024;

impl<W: Write> Output<W> {
    pub fn new(printer: Box<dyn Printer>, writer: W) -> Output<W> {
        Output {
            printer,
            out: io::BufWriter::with_capacity(BUFFER, writer),
        }
    }

    /// No more events: let the printer close what it holds open, with what the run knows once
    /// it is over, and flush.
    pub fn finish(&mut self, closing: &Closing<'_>) -> io::Result<()> {
        self.printer.finish(closing, &mut self.out)?;
        self.out.flush()
    }
}

impl<W: Write> Sink for Output<W> {
    fn event(&mut self, event: &Event<'_>) -> io::Result<Flow> {
        self.printer.print(event, &mut self.out)?;
        Ok(Flow::Continue)
    }

    fn checkpoint(&mut self, more_ready: bool) -> io::Result<Flow> {
        self.printer.checkpoint(&mut self.out)?;
        if !more_ready {
            self.out.flush()?;
        }
        Ok(Flow::Continue)
    }
}

/// A closed pipe (`kw get pods -w | head -1`) is the reader's way of saying "enough".
pub fn is_closed_pipe(err: &io::Error) -> bool {
    err.kind() == io::ErrorKind::BrokenPipe
}

/// Run `gone` on a thread of its own once the reader of stdout has gone (`| head -1` has its
/// line, `jq` exited), even while nothing is written: a quiet watch would otherwise learn it
/// only from the next event's write. As GNU `tail -f` does, stdout is polled with no events
/// asked for: the kernel still reports `POLLERR` (a pipe with no reader left) or `POLLHUP` (a
/// socket or terminal hung up). A file or `/dev/null` never reports either, and the thread
/// sleeps in `poll` until the process ends.
#[cfg(unix)]
pub fn when_reader_gone(gone: impl FnOnce() + Send + 'static) {
    let _ = std::thread::Builder::new()
        .name("stdout-reader".into())
        .spawn(move || {
            if reader_gone(libc::STDOUT_FILENO) {
                gone();
            }
        });
}

#[cfg(not(unix))]
pub fn when_reader_gone(_gone: impl FnOnce() + Send + 'static) {}

/// Block until `fd`'s reader has gone (`true`), or `fd` cannot be polled (`false`: closed,
/// `kw >&-`; its writes fail on their own).
#[cfg(unix)]
fn reader_gone(fd: libc::c_int) -> bool {
    loop {
        let mut watched = libc::pollfd {
            fd,
            events: 0,
            revents: 0,
        };
        // SAFETY: one valid pollfd, for the duration of the call.
        let ready = unsafe { libc::poll(&mut watched, 1, -1) };
        if ready < 0 {
            if io::Error::last_os_error().kind() == io::ErrorKind::Interrupted {
                continue;
            }
            return false;
        }
        if watched.revents & libc::POLLNVAL != 0 {
            return false;
        }
        if watched.revents & (libc::POLLERR | libc::POLLHUP) != 0 {
            return true;
        }
    }
}

#[cfg(all(test, unix))]
mod tests {
    use super::*;

    fn pipe() -> (libc::c_int, libc::c_int) {
        let mut fds = [0; 2];
        // SAFETY: room for the two descriptors pipe(2) writes.
        assert_eq!(unsafe { libc::pipe(fds.as_mut_ptr()) }, 0);
        (fds[0], fds[1])
    }

    /// The write end of a pipe learns that its reader has gone without writing anything.
    #[test]
    fn a_pipe_whose_reader_closed_is_noticed() {
        let (read, write) = pipe();
        let (told, heard) = std::sync::mpsc::channel();
        let watcher = std::thread::spawn(move || {
            let _ = told.send(reader_gone(write));
        });
        // While the reader is there, nothing is said.
        assert!(heard
            .recv_timeout(std::time::Duration::from_millis(200))
            .is_err());
        // SAFETY: closing descriptors this test opened.
        unsafe { libc::close(read) };
        let gone = heard
            .recv_timeout(std::time::Duration::from_secs(10))
            .expect("the watcher answers once the reader has gone");
        assert!(gone);
        watcher.join().unwrap();
        unsafe { libc::close(write) };
    }
}
