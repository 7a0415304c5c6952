//! The simulated API server over real TLS on loopback, as a client on the wire sees it:
//! discovery, list/get, selectors, paging, resourceVersion semantics, watches (replay, 410,
//! timeouts, bookmarks, streaming lists, selector transitions, Tables), auth, every fault,
//! flood mode, pod logs, stopping and restarting, and kubectl against it. One test binary; the
//! sim runs in-process (`harness`), the requests are raw HTTP (`client`).

mod client;
mod harness;

mod auth;
mod discovery;
mod faults;
mod flood;
mod hostile_writes;
mod lists;
mod logs;
mod server;
mod watches;
