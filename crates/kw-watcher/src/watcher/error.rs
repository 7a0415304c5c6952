//! What ends a watcher for good: the errors it reports to its runner.

use std::io;

use kw_client::client::ClientError;
use kw_events::decode::DecodeError;

#[derive(Debug, thiserror::Error)]
pub enum WatchError {
    #[error(transparent)]
    Client(#[from] ClientError),
    /// Writing the output failed (a closed pipe is the common case).
    #[error("writing output: {0}")]
    Output(#[source] io::Error),
    #[error("the server sent a response kw cannot read for {path}: {reason}")]
    BadResponse { path: String, reason: String },
    #[error(transparent)]
    Decode(#[from] DecodeError),
    #[error("the server sent an object of more than {limit} bytes in the list {path} (the limit is --max-object-size)")]
    ItemTooLarge { path: String, limit: usize },
    /// The server answered page after page with a new continue token (or expired the token
    /// again and again): a list that never ends is refused rather than read for ever.
    #[error("the server sent more than {pages} pages for the list {path} (each with a continue token): kw stops there")]
    TooManyPages { path: String, pages: u32 },
    #[error("watch is only supported on individual resources and resource collections, but {0} resources were found")]
    TooManyNames(usize),
    /// Some named objects do not exist (the ones that do were printed).
    #[error("{} objects not found", .0.len())]
    NotFound(Vec<ClientError>),
}
