//! kw's TCP connections: ureq's TCP transport as ureq builds it (each resolved address in turn
//! within the connect timeout, no Nagle, the socket registered for ureq's shutdown), with its
//! input counted in a `Probe` and its socket known, so that an idle watch can be polled
//! instead of read (`probe`). A connection a SOCKS proxy opened passes through untouched.

use std::io::{self, Read, Write};
use std::net::TcpStream;
use std::sync::Arc;
use std::time::Duration;

use ureq::unversioned::transport::{
    Buffers, ConnectionDetails, Connector, Either, LazyBuffers, NextTimeout, ShutdownHandle,
    Transport,
};

use super::probe::{self, Layer, Probe, Tracked};

/// Opens TCP connections whose buffers a probe counts.
#[derive(Debug, Default)]
pub struct Tcp;

impl<In: Transport> Connector<In> for Tcp {
    type Out = Either<In, Socket>;

    fn connect(
        &self,
        details: &ConnectionDetails,
        chained: Option<In>,
    ) -> Result<Option<Self::Out>, ureq::Error> {
        if let Some(chained) = chained {
            // A SOCKS proxy's connection: no socket of kw's own to poll.
            return Ok(Some(Either::A(chained)));
        }
        let stream = Arc::new(connect(details)?);
        if details.config.no_delay() {
            stream.set_nodelay(true)?;
        }
        let handle: Arc<dyn ShutdownHandle> = Arc::clone(&stream) as Arc<dyn ShutdownHandle>;
        (details.register_shutdown)(Arc::downgrade(&handle))?;
        let probe = Probe::new(pollable(&stream));
        probe::opened(&probe);
        let buffers = LazyBuffers::new(
            details.config.input_buffer_size(),
            details.config.output_buffer_size(),
        );
        Ok(Some(Either::B(Socket {
            stream,
            buffers: Tracked::new(buffers, probe, Layer::Socket),
            read_timeout: None,
            write_timeout: None,
        })))
    }
}

/// The socket as `poll(2)` names it: none where kw does not poll sockets (Windows).
#[cfg(unix)]
fn pollable(stream: &TcpStream) -> Option<kw_base::parking::Fd> {
    use std::os::fd::AsRawFd;
    Some(stream.as_raw_fd())
}

#[cfg(not(unix))]
fn pollable(_stream: &TcpStream) -> Option<kw_base::parking::Fd> {
    None
}

/// Each address in turn, sharing the connect timeout.
fn connect(details: &ConnectionDetails) -> Result<TcpStream, ureq::Error> {
    let mut last = None;
    let started = std::time::Instant::now();
    let budget = details.timeout.not_zero().map(|t| *t);
    for addr in details.addrs.iter() {
        let left = budget.map(|t| t.saturating_sub(started.elapsed()));
        let attempt = match left {
            Some(left) if left.is_zero() => {
                return Err(ureq::Error::Timeout(details.timeout.reason));
            }
            Some(left) => TcpStream::connect_timeout(addr, left),
            None => TcpStream::connect(addr),
        };
        match attempt {
            Ok(stream) => return Ok(stream),
            Err(e)
                if matches!(
                    e.kind(),
                    io::ErrorKind::TimedOut | io::ErrorKind::WouldBlock
                ) =>
            {
                last = Some(ureq::Error::Timeout(details.timeout.reason));
            }
            Err(e) => last = Some(ureq::Error::Io(e)),
        }
    }
    Err(last.unwrap_or_else(|| {
        ureq::Error::Io(io::Error::new(
            io::ErrorKind::ConnectionRefused,
            "Connection refused",
        ))
    }))
}

/// One TCP connection as a ureq transport.
pub struct Socket {
    stream: Arc<TcpStream>,
    buffers: Tracked,
    read_timeout: Option<Duration>,
    write_timeout: Option<Duration>,
}

impl std::fmt::Debug for Socket {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Socket").finish()
    }
}

/// The time `timeout` leaves, or ureq's timeout error when none is left.
fn left(timeout: NextTimeout) -> Result<Option<Duration>, ureq::Error> {
    if timeout.after.is_zero() {
        return Err(ureq::Error::Timeout(timeout.reason));
    }
    Ok(timeout.not_zero().map(|t| *t))
}

/// A read or write that ran out of time is ureq's timeout error.
fn timed(e: io::Error, timeout: NextTimeout) -> ureq::Error {
    match e.kind() {
        io::ErrorKind::TimedOut | io::ErrorKind::WouldBlock => ureq::Error::Timeout(timeout.reason),
        _ => ureq::Error::Io(e),
    }
}

impl Transport for Socket {
    fn buffers(&mut self) -> &mut dyn Buffers {
        &mut self.buffers
    }

    fn transmit_output(&mut self, amount: usize, timeout: NextTimeout) -> Result<(), ureq::Error> {
        probe::used(self.buffers.probe());
        let timeout = timeout.for_write();
        let wanted = left(timeout)?;
        if wanted != self.write_timeout {
            self.stream.set_write_timeout(wanted)?;
            self.write_timeout = wanted;
        }
        let output = &self.buffers.output()[..amount];
        (&*self.stream)
            .write_all(output)
            .map_err(|e| timed(e, timeout))
    }

    fn await_input(&mut self, timeout: NextTimeout) -> Result<bool, ureq::Error> {
        let timeout = timeout.for_read();
        let wanted = left(timeout)?;
        if wanted != self.read_timeout {
            self.stream.set_read_timeout(wanted)?;
            self.read_timeout = wanted;
        }
        let input = self.buffers.input_append_buf();
        let amount = loop {
            match (&*self.stream).read(input) {
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                other => break other.map_err(|e| timed(e, timeout))?,
            }
        };
        self.buffers.input_appended(amount);
        Ok(amount > 0)
    }

    fn is_open(&mut self) -> bool {
        // As ureq's: a pooled connection with nothing to read and no error is still open.
        if self.stream.set_nonblocking(true).is_err() {
            return false;
        }
        let mut byte = [0u8];
        let open = matches!(
            (&*self.stream).read(&mut byte),
            Err(e) if e.kind() == io::ErrorKind::WouldBlock
        );
        open && self.stream.set_nonblocking(false).is_ok()
    }
}
