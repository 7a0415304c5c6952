//! The running simulator: `handle` ([`handle::SimHandle`], the in-process API that tests and
//! `kw demo` drive, and `start`), `listener` (the port, held across a restart), `connection`
//! (each connection's thread), `certs` and `kubeconfig` (what it hands out), `drivers` (the
//! threads that act churn and rollouts out on the store), and `control` (the protocol of
//! `kw sim` on stdin/stdout).

pub mod certs;
pub mod connection;
pub mod control;
pub mod drivers;
pub mod handle;
pub mod kubeconfig;
pub mod listener;
