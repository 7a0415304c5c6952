//! The simulated cluster itself, as data: the resource catalog, the store with its history and
//! watchers, the seed objects, the sim's server-side printers, the containers' logs, and the
//! stories told to the store over time (churn, rollouts), and the controllers that act out what
//! clients write. Nothing here knows of HTTP or of the requests that read it.

pub mod catalog;
pub mod churn;
pub mod container_logs;
pub mod controllers;
pub mod objects;
pub mod printers;
pub mod rollout;
pub mod store;
