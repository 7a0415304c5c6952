//! Loopback ports for tests that need one, held for as long as the test needs it, so no other
//! test or process can take it in between.

use std::net::{TcpListener, TcpStream};

/// A loopback port where connections are refused, kept so while this lives: the port is the
/// local end of a connection held open (no one can bind or listen there meanwhile), and nothing
/// listens on it. Learning a free port by binding and dropping a listener instead leaves a moment
/// in which another test's listener can take it.
pub struct RefusedPort {
    pub port: u16,
    /// Both ends of the connection that holds the port.
    _held: (TcpStream, TcpStream),
}

impl RefusedPort {
    pub fn hold() -> RefusedPort {
        let listener = TcpListener::bind("127.0.0.1:0").expect("bind");
        let client = TcpStream::connect(listener.local_addr().expect("address")).expect("connect");
        // Accepted, so dropping the listener does not reset the connection (a reset frees the port).
        let (server, _) = listener.accept().expect("accept");
        let port = client.local_addr().expect("address").port();
        RefusedPort {
            port,
            _held: (client, server),
        }
    }
}
