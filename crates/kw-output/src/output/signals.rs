//! The signals that stop or end kw while the live view may hold the terminal (its cursor
//! hidden, auto-wrap off), so that none leaves the terminal broken and each ends kw with the
//! code shells give a process it kills, 128 + its number:
//!
//! - SIGTSTP (Ctrl-Z): the terminal given back, then kw stops as by default; SIGCONT (`fg`)
//!   lets the view draw its next frame anew.
//! - SIGTERM, SIGHUP, SIGQUIT: `end` runs (it gives the terminal back and exits 143, 129, 131).
//! - SIGABRT (a stack overflow, a failed allocation): the cursor and auto-wrap given back from
//!   the handler itself, which may take no lock; then the abort goes on.
//!
//! SIGINT stays with the `ctrlc` handler (exit 130), which is installed first: these handlers
//! replace its SIGTERM and SIGHUP ones, which exited 130 too. Handlers only write the signal's
//! number to a pipe; a thread of its own reads it and acts, where locks may be taken.

/// Install the handlers; `end` is called with the signal's number, on the handlers' thread,
/// and must not return (it exits). Without a pipe or a thread, the defaults stay.
#[cfg(unix)]
pub fn install(end: impl Fn(i32) + Send + 'static) {
    unix::install(Box::new(end));
}

#[cfg(not(unix))]
pub fn install(_end: impl Fn(i32) + Send + 'static) {}

/// While kw waits on the child `pid` it handed its whole command line to (kubectl, for a verb kw
/// does not have): SIGINT, SIGTERM, SIGHUP and SIGQUIT sent to kw go to the child too, from the
/// handler itself, and kw waits on: the child ends as it would alone, and kw with its status,
/// so nothing kw started outlives it (`kill <kw>` from a supervisor or a script's trap).
#[cfg(unix)]
pub fn forward_to_child(pid: u32) {
    unix::forward_to_child(pid);
}

#[cfg(not(unix))]
pub fn forward_to_child(_pid: u32) {}

/// The child has been waited on: a signal no longer goes to its (maybe reused) pid.
#[cfg(unix)]
pub fn child_ended() {
    unix::child_ended();
}

#[cfg(not(unix))]
pub fn child_ended() {}

#[cfg(unix)]
mod unix {
    use std::sync::atomic::{AtomicI32, Ordering};

    use crate::output::live;

    /// The pipe's write end, for the handlers; -1 until installed.
    static PIPE: AtomicI32 = AtomicI32::new(-1);

    const FORWARDED: [libc::c_int; 5] = [
        libc::SIGTERM,
        libc::SIGHUP,
        libc::SIGQUIT,
        libc::SIGTSTP,
        libc::SIGCONT,
    ];

    pub(super) fn install(end: Box<dyn Fn(i32) + Send>) {
        let mut fds = [0 as libc::c_int; 2];
        // SAFETY: pipe(2) fills the two descriptors of the array it is given.
        if unsafe { libc::pipe(fds.as_mut_ptr()) } != 0 {
            return;
        }
        for fd in fds {
            // SAFETY: plain fcntl(2) on descriptors just made: not inherited by children
            // (kubectl, exec plugins).
            unsafe { libc::fcntl(fd, libc::F_SETFD, libc::FD_CLOEXEC) };
        }
        let [read, write] = fds;
        // SAFETY: fcntl(2) on the descriptor just made: a handler never blocks on a full pipe
        // (a storm of signals loses bytes, never hangs a thread in its handler).
        unsafe {
            let flags = libc::fcntl(write, libc::F_GETFL);
            libc::fcntl(write, libc::F_SETFL, flags | libc::O_NONBLOCK);
        }
        let spawned = std::thread::Builder::new()
            .name("kw-signals".into())
            .spawn(move || serve(read, &*end));
        if spawned.is_err() {
            return;
        }
        PIPE.store(write, Ordering::SeqCst);
        for signal in FORWARDED {
            handle(signal, forward, 0);
        }
        // On the alternate stack: after a stack overflow, the thread's own has no room.
        handle(libc::SIGABRT, on_abort, libc::SA_ONSTACK);
    }

    fn handle(signal: libc::c_int, handler: extern "C" fn(libc::c_int), flags: libc::c_int) {
        // SAFETY: a zeroed sigaction is a valid one (empty mask); the handlers only call
        // async-signal-safe functions.
        unsafe {
            let mut action: libc::sigaction = std::mem::zeroed();
            action.sa_sigaction = handler as *const () as libc::sighandler_t;
            action.sa_flags = libc::SA_RESTART | flags;
            libc::sigemptyset(&mut action.sa_mask);
            libc::sigaction(signal, &action, std::ptr::null_mut());
        }
    }

    extern "C" fn forward(signal: libc::c_int) {
        let fd = PIPE.load(Ordering::SeqCst);
        let byte = signal as u8;
        // SAFETY: write(2) is async-signal-safe; one byte from the stack.
        unsafe { libc::write(fd, (&byte as *const u8).cast(), 1) };
    }

    /// The child signals are forwarded to; 0 for none.
    static CHILD: AtomicI32 = AtomicI32::new(0);

    pub(super) fn forward_to_child(pid: u32) {
        CHILD.store(i32::try_from(pid).unwrap_or(0), Ordering::SeqCst);
        for signal in [libc::SIGINT, libc::SIGTERM, libc::SIGHUP, libc::SIGQUIT] {
            handle(signal, to_child, 0);
        }
    }

    pub(super) fn child_ended() {
        CHILD.store(0, Ordering::SeqCst);
    }

    extern "C" fn to_child(signal: libc::c_int) {
        let pid = CHILD.load(Ordering::SeqCst);
        if pid > 0 {
            // SAFETY: kill(2) is async-signal-safe; `pid` is the child kw waits on.
            unsafe { libc::kill(pid, signal) };
        }
    }

    extern "C" fn on_abort(_signal: libc::c_int) {
        live::restore_in_signal_handler();
    }

    /// The handlers' thread: acts on each signal forwarded, in order.
    fn serve(read: libc::c_int, end: &dyn Fn(i32)) {
        loop {
            let mut byte = 0u8;
            // SAFETY: read(2) of one byte into a local.
            let got = unsafe { libc::read(read, (&mut byte as *mut u8).cast(), 1) };
            if got == 0 {
                return;
            }
            if got < 0 {
                if std::io::Error::last_os_error().kind() == std::io::ErrorKind::Interrupted {
                    continue;
                }
                return;
            }
            match libc::c_int::from(byte) {
                libc::SIGTSTP => stop(),
                // The next frame is drawn anew (`live::suspend` asked for it): nothing to do.
                libc::SIGCONT => {}
                signal => end(signal),
            }
        }
    }

    /// Ctrl-Z: give the terminal back, then stop as the default action would; continued, catch
    /// the next one again.
    fn stop() {
        live::suspend();
        // SAFETY: the default action for SIGTSTP, raised: the whole process stops here until
        // SIGCONT; then this thread's handler is put back.
        unsafe {
            libc::signal(libc::SIGTSTP, libc::SIG_DFL);
            libc::raise(libc::SIGTSTP);
        }
        handle(libc::SIGTSTP, forward, 0);
    }
}
