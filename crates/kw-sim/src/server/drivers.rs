//! The threads that act the world's stories out on the store: churn (asks
//! `crate::world::churn::Churn` for the next mutations about RATE times a second), rollouts
//! (each plays the cues of `crate::world::rollout::script` at their times, until a client
//! writes its Deployment) and the controllers (`crate::world::controllers`, one step a beat). Both apply
//! mutations the same way, skipping ones that no longer apply (a test changed the world).

use std::sync::atomic::Ordering;
use std::sync::Arc;
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use crate::api::shared::Shared;
use crate::world::churn::{Churn, Mutation};
use crate::world::controllers::ControlLoop;
use crate::world::objects::SeedObject;
use crate::world::rollout::{script, Rollout};

/// Longest sleep between shutdown checks.
const SLICE: Duration = Duration::from_millis(100);

/// Churn RATE mutations a second, seeded with `seed`, from the initial `world`.
pub fn spawn_churn(
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

/// Play `rollout` on the store, from the store's clock now, in a thread of its own.
pub fn spawn_rollout(
    shared: Arc<Shared>,
    seed: u64,
    rollout: &Rollout,
) -> std::io::Result<JoinHandle<()>> {
    let cues = script(rollout, seed, shared.store.now());
    let namespace = rollout.namespace.clone();
    let deployment = rollout.name.clone();
    std::thread::Builder::new()
        .name("sim-rollout".into())
        .spawn(move || {
            let began = Instant::now();
            for cue in cues {
                loop {
                    // A client that wrote the Deployment took it over from the story.
                    if shared.shutdown.load(Ordering::SeqCst)
                        || shared.controllers.has_taken(&namespace, &deployment)
                    {
                        return;
                    }
                    let due = began + cue.at;
                    let now = Instant::now();
                    if now >= due {
                        break;
                    }
                    std::thread::sleep((due - now).min(SLICE));
                }
                // Logs first: a client that reacts to the Pod's change can read them at once.
                for (pod, container, log) in cue.logs {
                    shared
                        .logs
                        .set(&namespace, &pod, &container, log, shared.store.now());
                }
                for mutation in cue.mutations {
                    apply(&shared, mutation);
                }
            }
        })
}

/// Run the controllers one step a beat, in a thread of its own.
pub fn spawn_controllers(shared: Arc<Shared>) -> std::io::Result<JoinHandle<()>> {
    std::thread::Builder::new()
        .name("sim-controllers".into())
        .spawn(move || {
            let mut control = ControlLoop::default();
            let beat = shared.controller_beat;
            while !shared.shutdown.load(Ordering::SeqCst) {
                let began = Instant::now();
                control.tick(&shared.controllers, &shared.store, &shared.logs, beat);
                let spent = began.elapsed();
                std::thread::sleep(beat.saturating_sub(spent).min(SLICE));
            }
        })
}

fn apply(shared: &Shared, mutation: Mutation) {
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
