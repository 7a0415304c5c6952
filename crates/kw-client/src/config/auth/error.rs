//! Why no credential could be had, and the rule every bearer token must pass to be sent
//! (visible ASCII only), checked where each token is read: configuration (`config`), plugins
//! (`exec`) and request time (`auth`) all report in these words.

/// Why no credential could be had.
#[derive(Debug, Clone, thiserror::Error)]
pub enum AuthError {
    #[error(
        "{user_label}: exec plugin {command:?} was not found (not on PATH and not a file){}",
        hint.as_deref().map(|h| format!("; install hint: {h}")).unwrap_or_default()
    )]
    PluginNotFound {
        user_label: String,
        command: String,
        hint: Option<String>,
    },
    #[error("{user_label}: exec plugin {command:?} {what}")]
    Plugin {
        user_label: String,
        command: String,
        what: String,
    },
    /// The user's `credentialPluginPolicy` does not let this plugin run; it was not started.
    /// client-go's words after "getting credentials", as kubectl says them.
    #[error("getting credentials: {refusal}")]
    Refused {
        user_label: String,
        refusal: crate::config::plugin_policy::Refusal,
    },
    #[error("cannot read {origin}: {reason}")]
    TokenFile { origin: String, reason: String },
    /// A credential kw refuses to put in a header. Says where it came from, never its value.
    #[error(
        "{origin} contains {what}, which cannot be sent in an HTTP header (the token is not shown)"
    )]
    UnsendableToken { origin: String, what: &'static str },
}

/// What in `token` cannot go into an `Authorization` header, in words, or `None` if all of it
/// can. Only visible ASCII passes: that is every bearer token a server issues, and an HTTP
/// library's own error for anything else would quote the whole header, token included.
pub fn unsendable_character(token: &str) -> Option<&'static str> {
    token.chars().find_map(|c| match c {
        '!'..='~' => None,
        ' ' => Some("a space"),
        '\t' => Some("a tab"),
        '\n' | '\r' => Some("a line break"),
        c if c.is_control() => Some("a control character"),
        _ => Some("a non-ASCII character"),
    })
}

/// `Err` naming `origin` if `token` cannot be sent.
pub fn check_token(token: &str, origin: &str) -> Result<(), AuthError> {
    match unsendable_character(token) {
        Some(what) => Err(AuthError::UnsendableToken {
            origin: origin.to_string(),
            what,
        }),
        None => Ok(()),
    }
}
