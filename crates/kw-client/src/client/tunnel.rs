//! The CONNECT tunnel through an `http://` or `https://` proxy: ureq's own connector, with the
//! proxy's unreadable answer to CONNECT told apart from the server's. Both come out of ureq as
//! the same protocol error, which would otherwise read as the API server's fault.

use ureq::unversioned::transport::{
    ConnectProxyConnector, ConnectionDetails, Connector, Either, Transport,
};

/// ureq's CONNECT connector, its protocol errors marked as the proxy's.
#[derive(Debug, Default)]
pub struct Tunnel(ConnectProxyConnector);

/// The proxy's answer to CONNECT could not be read (too many headers, not HTTP at all).
#[derive(Debug, thiserror::Error)]
#[error("{0}")]
pub struct ProxyAnswerError(pub ureq::Error);

impl<In: Transport> Connector<In> for Tunnel {
    type Out = Either<In, Box<dyn Transport>>;

    fn connect(
        &self,
        details: &ConnectionDetails,
        chained: Option<In>,
    ) -> Result<Option<Self::Out>, ureq::Error> {
        // Only the CONNECT answer is parsed here: the connection to the proxy itself (TCP, its
        // TLS) fails with other errors, and the server's answers come later, through the tunnel.
        self.0
            .connect(details, chained)
            .map_err(|error| match error {
                ureq::Error::Protocol(_) => ureq::Error::Other(Box::new(ProxyAnswerError(error))),
                other => other,
            })
    }
}

/// What was wrong with the proxy's answer, in words (ureq's, without its prefixes: "http parse
/// resulted in too many headers" says "too many headers").
pub fn describe(error: &ProxyAnswerError) -> String {
    let text = match &error.0 {
        ureq::Error::Protocol(inner) => inner.to_string(),
        other => other.to_string(),
    };
    text.trim_start_matches("http parse resulted in ")
        .trim_start_matches("http parse fail: ")
        .to_string()
}
