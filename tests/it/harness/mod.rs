//! The tests' harness: a `kw sim` in-process on loopback (`cluster`), and the real `kw` binary
//! run against it with time limits (`process`), so no test can hang. Starting a sim or a process
//! arms the test's watchdog (`watchdog`): a test that hangs anyway fails with what kw and the sim
//! were doing. Tests import what they use from here, flat: `use crate::harness::{run, Cluster}`.

mod cluster;
mod golden;
mod net;
mod process;
pub mod tools;
mod wait;
pub mod watchdog;

pub use cluster::{
    apply_scenario_op, frozen_now, scenario_ops, start_sim, under_dropped_and_expired_watches,
    Cluster,
};
pub use golden::{assert_every_case_quoted, assert_golden, case_fields, golden_path};
pub use net::RefusedPort;
pub use process::{run, verdict_lines, wait_with_limit, Live, Outcome};
pub use tools::{kubectl, require, require_file, skip};
pub use wait::wait_for;
