//! The Kubernetes API, request by request: routing, who is asking and what they may do,
//! discovery, list options and selectors, paging, Tables, watches, pod logs, flood mode, writes
//! and patches with the OpenAPI documents kubectl checks first, the Status answers, and the
//! state all of them share. A request comes in as an
//! [`crate::http::Request`] and leaves as a [`reply::Reply`], which `server` writes.

pub mod auth;
pub mod defaults;
pub mod discovery;
pub mod flood;
pub mod flood_data;
pub mod log_query;
pub mod names;
pub mod openapi;
pub mod paging;
pub mod patch;
pub mod pod_logs;
pub mod query;
pub mod reply;
pub mod router;
pub mod selector;
pub mod shape;
pub mod shared;
pub mod status;
pub mod table;
pub mod watch;
pub mod write;
