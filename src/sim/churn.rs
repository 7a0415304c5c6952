//! Churn: a deterministic story of changes to the simulated cluster, one tick at a time.

use std::time::SystemTime;

use serde_json::Value;

use super::objects::SeedObject;

/// One change churn wants made. The store assigns `resourceVersion`; a mutation of an object the
/// store no longer has (a test deleted it) is skipped.
#[derive(Debug, Clone)]
pub enum Mutation {
    Create {
        resource: &'static str,
        object: Value,
    },
    /// The whole new object (name and namespace identify it).
    Update {
        resource: &'static str,
        object: Value,
    },
    Delete {
        resource: &'static str,
        namespace: String,
        name: String,
    },
}

/// The churn scenario's own model of the world.
pub struct Churn {}

impl Churn {
    pub fn new(_seed: u64, _world: &[SeedObject]) -> Churn {
        Churn {}
    }

    /// The next changes, usually one; called about `--churn RATE` times a second.
    pub fn tick(&mut self, _now: SystemTime) -> Vec<Mutation> {
        Vec::new()
    }
}
