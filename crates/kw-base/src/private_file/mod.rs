//! Directories and files only their owner may write or read (the discovery cache), opened so that
//! another local user can neither plant nor redirect them.
//!
//! A directory is opened once, one component at a time from `/`, without following a link
//! blindly (`O_NOFOLLOW | O_DIRECTORY`); everything after that is relative to the open handle
//! (`openat`, `renameat`), so swapping a path for a symlink between the check and the use changes
//! nothing. Every directory on the way must be one nobody else may change (owned by root or the
//! user; not writable by group, unless it is the user's private group, nor by others; or sticky
//! as `/tmp` is: as ssh checks `~/.ssh`); the directory itself must be the user's and writable
//! by the user alone. A symlink on the way is followed only when root or the user made it.
//! Files are created exclusively with mode 0600 under a name nobody can predict, then renamed
//! into place (a rename replaces a symlink planted at the target instead of following it), so a
//! reader never sees half a file either.
//!
//! Elsewhere (Windows), where a user's profile directory is private by its ACL and there is no
//! `openat`, the directory is the plain path (`portable`), files are still written to a
//! temporary name and renamed into place.

mod error;
#[cfg(not(unix))]
mod portable;
#[cfg(unix)]
mod unix;

pub use error::DirError;
#[cfg(not(unix))]
pub use portable::PrivateDir;
#[cfg(unix)]
pub use unix::PrivateDir;
