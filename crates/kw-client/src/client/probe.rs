//! What a connection holds above its socket, so that a watch may give up its thread while its
//! stream is silent (`kw_base::parking`) only when nothing it has not read yet is held anywhere
//! above the socket: once `Probe::is_drained` is true, the next byte the watch can read must
//! first arrive on the socket, and `poll(2)` on `Probe::fd` says when it has.
//!
//! The layers between the socket and the watch's reader, and where each buffers:
//! - kw's socket transport (`socket`): ureq's input buffer, counted by `Tracked`.
//! - Under TLS, rustls: decrypted bytes not yet read, and received records not yet decrypted.
//!   `tls` asks rustls to process every whole record after each read and write and counts the
//!   plaintext left (`set_tls`); what stays undecrypted is then part of one record, which
//!   yields nothing before the rest of it comes in on the socket. A peer's close_notify, or an
//!   error, marks the connection not drained (the next read returns without the socket).
//! - Above TLS, ureq's input buffer again (counted by `Tracked`), from which ureq's chunked
//!   decoder takes bytes straight into the reader's buffer (it keeps only a state, no bytes).
//! - A compressed body (gzip) is decoded with a buffer of its own, which cannot be inspected:
//!   the client hands out no probe for it (`Client::stream_parkable`).
//!
//! A probe is found for the request just sent through the thread's last transport write
//! (`begin_request` / `used`): everything ureq does for one request happens on the caller's
//! thread.

use std::cell::RefCell;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::Duration;

use ureq::unversioned::transport::{Buffers, LazyBuffers};

use kw_base::parking::Fd;

/// One connection's buffered bytes, layer by layer.
#[derive(Debug)]
pub struct Probe {
    /// The socket; `None` when kw did not open it itself (through a SOCKS proxy).
    fd: Option<Fd>,
    /// Unread bytes in the socket transport's input buffer.
    socket: AtomicUsize,
    /// Unread plaintext in the buffer above TLS.
    above_tls: AtomicUsize,
    /// Plaintext rustls decrypted and nobody read yet.
    tls_plaintext: AtomicUsize,
    /// rustls saw the peer close, or failed: the next read returns without the socket.
    tls_unsure: AtomicBool,
}

/// Which of the probe's counts a `Tracked` buffer keeps.
#[derive(Debug, Clone, Copy)]
pub enum Layer {
    Socket,
    AboveTls,
}

impl Probe {
    pub fn new(fd: Option<Fd>) -> Arc<Probe> {
        Arc::new(Probe {
            fd,
            socket: AtomicUsize::new(0),
            above_tls: AtomicUsize::new(0),
            tls_plaintext: AtomicUsize::new(0),
            tls_unsure: AtomicBool::new(false),
        })
    }

    /// The socket to `poll`, if kw knows it.
    pub fn fd(&self) -> Option<Fd> {
        self.fd
    }

    /// Nothing is buffered above the socket: a read would wait for the socket.
    pub fn is_drained(&self) -> bool {
        self.fd.is_some()
            && self.socket.load(Ordering::Relaxed) == 0
            && self.above_tls.load(Ordering::Relaxed) == 0
            && self.tls_plaintext.load(Ordering::Relaxed) == 0
            && !self.tls_unsure.load(Ordering::Relaxed)
    }

    /// What rustls holds after a read or write: `plaintext` bytes unread, or `None` when it has
    /// failed or the peer has closed.
    pub fn set_tls(&self, plaintext: Option<usize>) {
        self.tls_plaintext
            .store(plaintext.unwrap_or(0), Ordering::Relaxed);
        self.tls_unsure
            .store(plaintext.is_none(), Ordering::Relaxed);
    }

    fn count(&self, layer: Layer) -> &AtomicUsize {
        match layer {
            Layer::Socket => &self.socket,
            Layer::AboveTls => &self.above_tls,
        }
    }
}

/// ureq's buffers, with the count of unread input kept in a probe.
#[derive(Debug)]
pub struct Tracked {
    inner: LazyBuffers,
    probe: Arc<Probe>,
    layer: Layer,
}

impl Tracked {
    pub fn new(inner: LazyBuffers, probe: Arc<Probe>, layer: Layer) -> Tracked {
        Tracked {
            inner,
            probe,
            layer,
        }
    }

    pub fn probe(&self) -> &Arc<Probe> {
        &self.probe
    }

    fn recount(&self) {
        self.probe
            .count(self.layer)
            .store(self.inner.input().len(), Ordering::Relaxed);
    }
}

impl Buffers for Tracked {
    fn output(&mut self) -> &mut [u8] {
        self.inner.output()
    }

    fn input(&self) -> &[u8] {
        self.inner.input()
    }

    fn input_append_buf(&mut self) -> &mut [u8] {
        self.inner.input_append_buf()
    }

    fn input_appended(&mut self, amount: usize) {
        self.inner.input_appended(amount);
        self.recount();
    }

    fn input_consume(&mut self, amount: usize) {
        self.inner.input_consume(amount);
        self.recount();
    }

    fn tmp_and_output(&mut self) -> (&mut [u8], &mut [u8]) {
        self.inner.tmp_and_output()
    }

    fn can_use_input(&self) -> bool {
        self.inner.can_use_input()
    }
}

/// Wait until `fd` is readable (data, its end, or an error to read), at most `timeout`: whether
/// it is. An interrupted wait counts as readable (the read that follows waits as reads do).
#[cfg(unix)]
pub fn wait_readable(fd: Fd, timeout: Duration) -> bool {
    let mut poll = libc::pollfd {
        fd,
        events: libc::POLLIN,
        revents: 0,
    };
    let millis = timeout.as_millis().min(i32::MAX as u128) as libc::c_int;
    // SAFETY: one valid pollfd, for the length given.
    let ready = unsafe { libc::poll(&mut poll, 1, millis) };
    ready != 0
}

/// Without `poll(2)` no connection has a socket to wait on, so no watch parks and none waits
/// here: a read that follows waits as reads do.
#[cfg(not(unix))]
pub fn wait_readable(_fd: Fd, _timeout: Duration) -> bool {
    true
}

thread_local! {
    /// The socket the connector chain opened last on this thread (taken by the TLS layer over it).
    static OPENED: RefCell<Option<Arc<Probe>>> = const { RefCell::new(None) };
    /// The connection this thread wrote to last.
    static USED: RefCell<Option<Arc<Probe>>> = const { RefCell::new(None) };
}

/// The socket transport opened a connection with `probe`.
pub fn opened(probe: &Arc<Probe>) {
    OPENED.with(|o| *o.borrow_mut() = Some(Arc::clone(probe)));
}

/// The probe of the socket opened just now on this thread, for the TLS layer over it.
pub fn take_opened() -> Option<Arc<Probe>> {
    OPENED.with(|o| o.borrow_mut().take())
}

/// A transport wrote on behalf of this thread's request.
pub fn used(probe: &Arc<Probe>) {
    USED.with(|u| {
        let mut used = u.borrow_mut();
        if !used.as_ref().is_some_and(|p| Arc::ptr_eq(p, probe)) {
            *used = Some(Arc::clone(probe));
        }
    });
}

/// Forget the last connection used, before a request.
pub fn begin_request() {
    USED.with(|u| *u.borrow_mut() = None);
}

/// The connection the request sent since `begin_request` went out on.
pub fn take_used() -> Option<Arc<Probe>> {
    USED.with(|u| u.borrow_mut().take())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn any_unread_byte_at_any_layer_keeps_a_connection_from_counting_as_drained() {
        let probe = Probe::new(Some(3));
        assert!(probe.is_drained());
        let mut socket = Tracked::new(LazyBuffers::new(64, 64), Arc::clone(&probe), Layer::Socket);
        socket.input_append_buf()[..5].copy_from_slice(b"hello");
        socket.input_appended(5);
        assert!(!probe.is_drained(), "bytes in the socket's buffer");
        socket.input_consume(3);
        assert!(!probe.is_drained(), "two bytes left");
        socket.input_consume(2);
        assert!(probe.is_drained());
        let mut above = Tracked::new(
            LazyBuffers::new(64, 64),
            Arc::clone(&probe),
            Layer::AboveTls,
        );
        above.input_append_buf()[..1].copy_from_slice(b"x");
        above.input_appended(1);
        assert!(!probe.is_drained(), "plaintext above TLS");
        above.input_consume(1);
        probe.set_tls(Some(10));
        assert!(!probe.is_drained(), "plaintext inside rustls");
        probe.set_tls(None);
        assert!(!probe.is_drained(), "the peer closed");
        probe.set_tls(Some(0));
        assert!(probe.is_drained());
        assert!(!Probe::new(None).is_drained(), "no socket to poll");
    }
}
