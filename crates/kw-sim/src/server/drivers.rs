//! The churn thread: asks `crate::world::churn::Churn` for the next mutations about RATE times a second
//! and applies them to the store, skipping ones that no longer apply (a test changed the world).

use std::sync::atomic::Ordering;
use std::sync::Arc;
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use crate::api::shared::Shared;
use crate::world::churn::{Churn, Mutation};
use crate::world::objects::SeedObject;

/// Longest sleep between shutdown checks.
const SLICE: Duration = Duration::from_millis(100);

pub fn spawn(
    shared: Arc<Shared>,
    seed: u64,
    world: Vec<SeedObject>,
    rate: f64,
) -> std::io::Result<JoinHandle<()>> {
    std::thread::Builder::new()
        .name("sim-churn".into())
        .spawn(move || run(&shared, seed, &world, rate))
}

fn run(shared: &Shared, seed: u64, world: &[SeedObject], rate: f64) {
    let mut churn = Churn::new(seed, world);
    let interval = Duration::from_secs_f64(1.0 / rate.clamp(0.001, 1_000_000.0));
    let mut next = Instant::now() + interval;
    while !shared.shutdown.load(Ordering::SeqCst) {
        let now = Instant::now();
        if now < next {
            std::thread::sleep((next - now).min(SLICE));
            continue;
        }
        next += interval;
        // After a long stall, do not burst to catch up.
        if now > next + Duration::from_secs(1) {
            next = now + interval;
        }
        for mutation in churn.tick(shared.store.now()) {
            apply(shared, mutation);
        }
    }
}

pub(crate) fn apply(shared: &Shared, mutation: Mutation) {
    // Errors mean the mutation no longer applies (already exists / gone); skipping is the rule.
    let _ = match mutation {
        Mutation::Create { resource, object } => shared.store.create(resource, object),
        Mutation::Update { resource, object } => shared.store.update(resource, object),
        Mutation::Delete {
            resource,
            namespace,
            name,
        } => shared.store.delete(resource, &namespace, &name),
    };
}
