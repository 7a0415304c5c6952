//! The plumbing under every layer: diagnostics and notices (worded over the secrets they cut out),
//! a lock that survives a panic, the file-descriptor limit, permits for first lists, process groups for the helpers kw starts, parking silent watches, private files,
//! and the spelling of suggestions. It knows nothing of Kubernetes.

pub mod descriptors;
pub mod log;
pub mod mutex;
pub mod notices;
pub mod parking;
pub mod permits;
pub mod private_file;
pub mod process_group;
pub mod secrets;
pub mod spelling;
pub mod stderr_fold;
