//! The loopback listener and the hold on its port across a restart. A restarted server must be
//! down (connections refused) yet keep its port, which other programs' listeners and outgoing
//! connections would otherwise take in the meantime. So before the listener closes, a second
//! socket is bound to the same port without listening: the kernel refuses connections to it and
//! lets no other socket have the port, and that socket listens when the server is back. Binding
//! a port twice needs SO_REUSEPORT on both sockets; the listener gets it only once it listens,
//! so that a second `kw sim --port N` still finds the port taken.

use std::io;
use std::net::{SocketAddr, TcpListener};

/// A listener on `address`, ready to be held across a restart ([`reserve`]).
pub fn bind(address: SocketAddr) -> io::Result<TcpListener> {
    let listener = TcpListener::bind(address)?;
    imp::share(&listener)?;
    Ok(listener)
}

/// The port of `address`, bound and not listening, while the listener on it still runs.
pub fn reserve(address: SocketAddr) -> io::Result<Reserved> {
    imp::reserve(address).map(Reserved)
}

/// A port held by a socket that does not listen: connections to it are refused.
pub struct Reserved(imp::Socket);

impl Reserved {
    /// Listen on the held port again.
    pub fn listen(self) -> io::Result<TcpListener> {
        imp::listen(self.0)
    }
}

#[cfg(unix)]
mod imp {
    use std::io;
    use std::mem::size_of;
    use std::net::{SocketAddr, TcpListener};
    use std::os::fd::{AsRawFd, FromRawFd, OwnedFd};

    /// Connections waiting to be accepted, as std's listeners allow.
    const BACKLOG: libc::c_int = 128;

    pub type Socket = OwnedFd;

    fn check(result: libc::c_int) -> io::Result<()> {
        if result < 0 {
            Err(io::Error::last_os_error())
        } else {
            Ok(())
        }
    }

    fn set_option(socket: &impl AsRawFd, option: libc::c_int) -> io::Result<()> {
        let on: libc::c_int = 1;
        // SAFETY: the descriptor is open for the borrow, and `on` outlives the call, which
        // reads exactly the length given.
        check(unsafe {
            libc::setsockopt(
                socket.as_raw_fd(),
                libc::SOL_SOCKET,
                option,
                (&on as *const libc::c_int).cast(),
                size_of::<libc::c_int>() as libc::socklen_t,
            )
        })
    }

    pub fn share(listener: &TcpListener) -> io::Result<()> {
        set_option(listener, libc::SO_REUSEPORT)
    }

    /// A TCP socket that no child process inherits: one that did would keep the port
    /// listening after the server closed it.
    fn socket(address: &SocketAddr) -> io::Result<OwnedFd> {
        let family = match address {
            SocketAddr::V4(_) => libc::AF_INET,
            SocketAddr::V6(_) => libc::AF_INET6,
        };
        #[cfg(any(target_os = "linux", target_os = "android", target_os = "freebsd"))]
        // SAFETY: plain system call; the descriptor it returns is owned below.
        let raw = unsafe { libc::socket(family, libc::SOCK_STREAM | libc::SOCK_CLOEXEC, 0) };
        #[cfg(not(any(target_os = "linux", target_os = "android", target_os = "freebsd")))]
        // SAFETY: as above; FD_CLOEXEC is set before the descriptor is handed out.
        let raw = unsafe {
            let raw = libc::socket(family, libc::SOCK_STREAM, 0);
            if raw >= 0 {
                libc::fcntl(raw, libc::F_SETFD, libc::FD_CLOEXEC);
            }
            raw
        };
        check(raw)?;
        // SAFETY: `raw` is a fresh descriptor that nothing else owns.
        Ok(unsafe { OwnedFd::from_raw_fd(raw) })
    }

    pub fn reserve(address: SocketAddr) -> io::Result<OwnedFd> {
        let socket = socket(&address)?;
        // SO_REUSEPORT alone: it shares the port with the listener (and its connections, in
        // TIME_WAIT or not), which have it too. SO_REUSEADDR, as std's listeners set it, would
        // let any of them bind the port beside a socket that does not listen.
        set_option(&socket, libc::SO_REUSEPORT)?;
        match address {
            SocketAddr::V4(v4) => {
                // SAFETY: all-zero is a valid sockaddr_in; the fields that matter are set.
                let mut raw: libc::sockaddr_in = unsafe { std::mem::zeroed() };
                raw.sin_family = libc::AF_INET as libc::sa_family_t;
                raw.sin_port = v4.port().to_be();
                raw.sin_addr.s_addr = u32::from_ne_bytes(v4.ip().octets());
                // SAFETY: `raw` is a sockaddr_in of the length given, alive for the call.
                check(unsafe {
                    libc::bind(
                        socket.as_raw_fd(),
                        (&raw as *const libc::sockaddr_in).cast(),
                        size_of::<libc::sockaddr_in>() as libc::socklen_t,
                    )
                })?;
            }
            SocketAddr::V6(v6) => {
                // SAFETY: all-zero is a valid sockaddr_in6; the fields that matter are set.
                let mut raw: libc::sockaddr_in6 = unsafe { std::mem::zeroed() };
                raw.sin6_family = libc::AF_INET6 as libc::sa_family_t;
                raw.sin6_port = v6.port().to_be();
                raw.sin6_addr.s6_addr = v6.ip().octets();
                raw.sin6_scope_id = v6.scope_id();
                // SAFETY: `raw` is a sockaddr_in6 of the length given, alive for the call.
                check(unsafe {
                    libc::bind(
                        socket.as_raw_fd(),
                        (&raw as *const libc::sockaddr_in6).cast(),
                        size_of::<libc::sockaddr_in6>() as libc::socklen_t,
                    )
                })?;
            }
        }
        Ok(socket)
    }

    pub fn listen(socket: OwnedFd) -> io::Result<TcpListener> {
        // SAFETY: plain system call on a descriptor this function owns.
        check(unsafe { libc::listen(socket.as_raw_fd(), BACKLOG) })?;
        Ok(TcpListener::from(socket))
    }
}

/// Without SO_REUSEPORT the port cannot be held: it is bound again when the server comes back,
/// and may be taken by then.
#[cfg(not(unix))]
mod imp {
    use std::io;
    use std::net::{SocketAddr, TcpListener};
    use std::time::Duration;

    pub type Socket = SocketAddr;

    pub fn share(_: &TcpListener) -> io::Result<()> {
        Ok(())
    }

    pub fn reserve(address: SocketAddr) -> io::Result<SocketAddr> {
        Ok(address)
    }

    pub fn listen(address: SocketAddr) -> io::Result<TcpListener> {
        // The kernel may take a moment to let the closed listener's port go.
        let mut last = None;
        for _ in 0..50 {
            match TcpListener::bind(address) {
                Ok(listener) => return Ok(listener),
                Err(e) => last = Some(e),
            }
            std::thread::sleep(Duration::from_millis(40));
        }
        Err(last.unwrap_or_else(|| io::Error::other("bind failed")))
    }
}
