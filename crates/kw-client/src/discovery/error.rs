//! Why discovery could not say what a typed name means: the server lacks the type (with the
//! nearest one it has), the request failed, or the answer could not be read. A leaf, so that
//! reading the server (`served`) and resolving names (`discovery`) report in the same words.

use crate::client::ClientError;

#[derive(Debug, thiserror::Error)]
pub enum DiscoveryError {
    /// A type the server lacks, and the nearest one it has, if one is near (see `hint`).
    #[error("the server doesn't have a resource type \"{0}\"")]
    UnknownType(String, Option<String>),
    #[error(transparent)]
    Client(#[from] ClientError),
    #[error("the server's discovery document {path} is not valid: {reason}")]
    BadDocument { path: String, reason: String },
}

impl DiscoveryError {
    /// A second line for the message: the type the user probably meant (kubectl's own line,
    /// the first, stays as kubectl words it).
    pub fn hint(&self) -> Option<String> {
        match self {
            DiscoveryError::UnknownType(_, Some(near)) => Some(format!("did you mean \"{near}\"?")),
            _ => None,
        }
    }
}
