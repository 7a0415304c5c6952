//! The running simulator: the listener and the connection threads, [`SimHandle`] (the
//! in-process API that tests and `kw demo` drive), the certificates and kubeconfig it hands out,
//! the threads that act churn and rollouts out on the store, and the control protocol of
//! `kw sim` on stdin/stdout.

pub mod certs;
pub mod connection;
pub mod control;
pub mod drivers;
pub mod handle;
pub mod kubeconfig;
pub mod listener;
