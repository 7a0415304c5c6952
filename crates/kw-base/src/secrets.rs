//! The credentials kw holds, remembered where they are read (`config/auth/`) so that nothing
//! written to stderr carries them: a server or proxy that echoes the `Authorization` header into
//! an error message must not put the token in a CI log. `log::clean` cuts them out.

use std::borrow::Cow;
use std::sync::Mutex;

use crate::mutex::lock;

/// The credentials in use, to be cut out of anything written to stderr.
static SECRETS: Mutex<Vec<String>> = Mutex::new(Vec::new());

/// Shorter strings are not redacted: cutting every `ab` out of messages would garble them, and
/// no server issues a bearer token that short.
const MIN_SECRET_LEN: usize = 6;

/// Remember a credential so that [`redact`] cuts it out.
pub fn register_secret(secret: &str) {
    if secret.len() < MIN_SECRET_LEN {
        return;
    }
    let mut secrets = lock(&SECRETS);
    if !secrets.iter().any(|known| known == secret) {
        secrets.push(secret.to_string());
    }
}

/// `text` with every registered credential replaced by `<redacted>`.
pub fn redact(text: &str) -> Cow<'_, str> {
    let secrets = lock(&SECRETS);
    let mut text = Cow::Borrowed(text);
    for secret in secrets.iter() {
        if text.contains(secret.as_str()) {
            text = Cow::Owned(text.replace(secret.as_str(), "<redacted>"));
        }
    }
    text
}
