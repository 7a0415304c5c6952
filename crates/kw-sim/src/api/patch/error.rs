//! Why a patch could not be applied: a leaf the three formats share.

/// Why a patch could not be applied; the server answers 422 (or 400 for a body that is not
/// JSON) with this message.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PatchError {
    #[error("{0}")]
    Malformed(String),
    #[error("{0}")]
    Unapplicable(String),
    /// Over a bound the server sets on patches (413).
    #[error("{0}")]
    TooLarge(String),
}
