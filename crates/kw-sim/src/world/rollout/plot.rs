//! What a rollout is: its [`Plot`], the [`Rollout`] to play (from `PLOT[:NAME]`), and the
//! [`Cue`]s its story is told in.

use std::time::Duration;

use crate::world::churn::Mutation;
use crate::world::container_logs::ContainerLog;

/// The story a rollout tells.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Plot {
    Completes,
    ImagePull,
    CrashLoop,
    JobCompletes,
    JobFails,
    RollingUpdate,
    DaemonSet,
    Partitioned,
    OnDelete,
    ScaleUp,
    ThrottledPull,
}

impl std::str::FromStr for Plot {
    type Err = String;
    fn from_str(text: &str) -> Result<Plot, String> {
        match text {
            "completes" => Ok(Plot::Completes),
            "image-pull" => Ok(Plot::ImagePull),
            "crash-loop" => Ok(Plot::CrashLoop),
            "job-completes" => Ok(Plot::JobCompletes),
            "job-fails" => Ok(Plot::JobFails),
            "rolling-update" => Ok(Plot::RollingUpdate),
            "daemonset" => Ok(Plot::DaemonSet),
            "partitioned" => Ok(Plot::Partitioned),
            "on-delete" => Ok(Plot::OnDelete),
            "scale-up" => Ok(Plot::ScaleUp),
            "throttled-pull" => Ok(Plot::ThrottledPull),
            other => Err(format!(
                "unknown rollout {other:?} (use completes, image-pull, crash-loop, job-completes, job-fails, rolling-update, daemonset, partitioned, on-delete, scale-up or throttled-pull)"
            )),
        }
    }
}

/// `PLOT[:NAME]` (`image-pull:web`; the name defaults to the plot's), in namespace default,
/// each step lasting `beat`.
pub fn parse(text: &str, beat: Duration) -> Result<Rollout, String> {
    let (plot, name) = text.split_once(':').unwrap_or((text, text));
    let plot = plot.parse::<Plot>()?;
    if name.is_empty() {
        return Err(format!("{text:?} names no Deployment"));
    }
    let mut rollout = Rollout::new(plot, "default", name);
    rollout.beat = beat;
    Ok(rollout)
}

/// One rollout to play.
#[derive(Debug, Clone, PartialEq)]
pub struct Rollout {
    pub plot: Plot,
    pub namespace: String,
    pub name: String,
    pub replicas: u32,
    /// How long each step lasts.
    pub beat: Duration,
}

impl Rollout {
    /// A rollout of 3 replicas at 200 ms a step.
    pub fn new(plot: Plot, namespace: &str, name: &str) -> Rollout {
        Rollout {
            plot,
            namespace: namespace.into(),
            name: name.into(),
            replicas: 3,
            beat: Duration::from_millis(200),
        }
    }
}

/// What happens at one moment of the story.
#[derive(Debug, Clone)]
pub struct Cue {
    /// Since the start of the story.
    pub at: Duration,
    pub mutations: Vec<Mutation>,
    /// Logs written at this moment: (pod, container, log).
    pub logs: Vec<(String, String, ContainerLog)>,
}
