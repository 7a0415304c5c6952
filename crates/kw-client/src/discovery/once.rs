//! The discovery of identical servers, read once per run: a fleet's contexts that reach the same
//! server (address and trust) as the same user (credentials, impersonation) resolve the requested
//! types once, and the others take that answer instead of asking the server again (a thousand
//! contexts of one cluster asked discovery a thousand times, each holding the documents while it
//! read them). Contexts that differ in any of these resolve on their own, as before.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use crate::config::connection::Connection;
use crate::config::endpoint::TrustRoots;
use crate::discovery::{DiscoveryError, Wanted};

/// What `resolve_requested` answers: the wanted types, and the names this server lacks.
pub type Answer = (Vec<Wanted>, Vec<String>);

/// One server and user's answer, once resolved; locked while it is being resolved.
type Slot = Arc<Mutex<Option<Answer>>>;

/// The answers of a run, per server and user.
#[derive(Default)]
pub struct Discovered {
    answers: Mutex<HashMap<Vec<u8>, Slot>>,
}

impl Discovered {
    /// The answer for `connection`'s server and user: one already resolved, else `resolve`'s.
    /// Contexts of the same server and user that ask at once wait for the first one's answer
    /// rather than each asking; a failure is not kept (the next context asks again).
    pub fn resolve(
        &self,
        connection: &Connection,
        resolve: impl FnOnce() -> Result<Answer, DiscoveryError>,
    ) -> Result<Answer, DiscoveryError> {
        let slot = Arc::clone(
            kw_base::mutex::lock(&self.answers)
                .entry(identity(connection))
                .or_default(),
        );
        let mut answer = kw_base::mutex::lock(&slot);
        if let Some(answer) = &*answer {
            return Ok(answer.clone());
        }
        let resolved = resolve()?;
        *answer = Some(resolved.clone());
        Ok(resolved)
    }
}

/// Everything that tells two servers or two users apart, as bytes, each field length-prefixed
/// (exact: no digest that two identities could share).
fn identity(connection: &Connection) -> Vec<u8> {
    let mut key = Vec::new();
    let mut field = |bytes: &[u8]| {
        key.extend_from_slice(&(bytes.len() as u64).to_le_bytes());
        key.extend_from_slice(bytes);
    };
    field(connection.server.to_string().as_bytes());
    match &connection.roots {
        TrustRoots::Platform => field(b"platform"),
        TrustRoots::Bundle { certs, .. } => certs.iter().for_each(|cert| field(cert)),
    }
    field(&[u8::from(connection.insecure_skip_tls_verify)]);
    field(
        connection
            .tls_server_name
            .as_deref()
            .unwrap_or("")
            .as_bytes(),
    );
    let credentials = &connection.credentials;
    field(credentials.token.as_ref().map_or("", |t| &t.0).as_bytes());
    field(
        credentials
            .token_file
            .as_deref()
            .map(|path| path.as_os_str().as_encoded_bytes())
            .unwrap_or_default(),
    );
    if let Some(identity) = &credentials.client_identity {
        identity.chain.iter().for_each(|cert| field(cert));
        field(identity.key.secret_der());
    }
    if let Some(exec) = &credentials.exec {
        field(exec.api_version.as_bytes());
        field(exec.command.as_bytes());
        exec.args.iter().for_each(|arg| field(arg.as_bytes()));
        for (name, value) in &exec.env {
            field(name.as_bytes());
            field(value.as_bytes());
        }
    }
    let impersonate = &connection.impersonate;
    field(impersonate.user.as_deref().unwrap_or("").as_bytes());
    field(impersonate.uid.as_deref().unwrap_or("").as_bytes());
    impersonate.groups.iter().for_each(|g| field(g.as_bytes()));
    key
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::endpoint::{Scheme, Secret, ServerUrl};

    fn connection(token: &str) -> Connection {
        let mut connection = Connection {
            server: ServerUrl {
                scheme: Scheme::Https,
                host: "127.0.0.1".into(),
                port: 6443,
                base_path: String::new(),
            },
            roots: TrustRoots::Platform,
            insecure_skip_tls_verify: false,
            tls_server_name: None,
            credentials: Default::default(),
            impersonate: Default::default(),
            proxy: None,
            request_timeout: None,
        };
        connection.credentials.token = Some(Secret(token.into()));
        connection
    }

    #[test]
    fn one_server_and_user_is_resolved_once_and_a_failure_is_not_kept() {
        let discovered = Discovered::default();
        let asked = std::cell::Cell::new(0);
        let answer = |unknown: &str| {
            asked.set(asked.get() + 1);
            Ok((Vec::new(), vec![unknown.to_string()]))
        };
        let failing = || {
            asked.set(asked.get() + 1);
            Err(DiscoveryError::UnknownType("x".into(), None))
        };
        assert!(discovered.resolve(&connection("a"), failing).is_err());
        let first = discovered
            .resolve(&connection("a"), || answer("first"))
            .unwrap();
        let again = discovered
            .resolve(&connection("a"), || answer("again"))
            .unwrap();
        assert_eq!(
            (first.1, again.1),
            (vec!["first".into()], vec!["first".into()])
        );
        // Another user of the same server, or the same user elsewhere, asks on its own.
        discovered
            .resolve(&connection("b"), || answer("b"))
            .unwrap();
        let mut elsewhere = connection("a");
        elsewhere.server.port = 7443;
        discovered
            .resolve(&elsewhere, || answer("elsewhere"))
            .unwrap();
        assert_eq!(asked.get(), 4, "the failure, a, b and elsewhere");
    }
}
