//! Why a private directory was not opened: a leaf both ways of opening share.

use std::io;
use std::path::PathBuf;

/// Why a directory was not opened.
#[derive(Debug)]
pub enum DirError {
    /// It does not exist (and was not to be made).
    Missing,
    /// `dir`, on the way to it, may be changed by another user.
    UntrustedParent {
        dir: PathBuf,
        why: String,
    },
    /// The directory itself belongs to another user, or others may write to it.
    Untrusted {
        why: String,
    },
    Io(io::Error),
}

impl std::fmt::Display for DirError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            DirError::Missing => write!(f, "it does not exist"),
            DirError::UntrustedParent { dir, why } => write!(f, "{}: {why}", dir.display()),
            DirError::Untrusted { why } => write!(f, "{why}"),
            DirError::Io(error) => write!(f, "{error}"),
        }
    }
}

impl From<io::Error> for DirError {
    fn from(error: io::Error) -> DirError {
        DirError::Io(error)
    }
}
