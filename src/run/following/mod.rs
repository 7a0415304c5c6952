//! `--logs`: the container logs of the Pods a wait is about, shown on stderr while it waits, as
//! kubedog shows a rollout's. The cause engine tells which Pods are current
//! (`kw_wait::following`); a follower per member keeps, for each container, one stream at a
//! time (`stream`), and decides when to open one:
//!
//! - a container that runs, or has run and was not read yet, is opened: from its start when kw
//!   saw it start, else its last `FIRST_TAIL` lines;
//! - a stream that ends while its container still runs (rotation, a dropped connection, the
//!   API server's timeout) or once it runs again (a restart) is reopened from its last line,
//!   after a pause that grows while reopening finds nothing new (`PAUSE`..`MAX_PAUSE`);
//! - a stream silent for the client's idle timeout (`stream::Ended::Idle`: stalled, or a quiet
//!   container) is reopened from its last line at once, said at `-v 4` once per container;
//! - a Pod deleted or no longer of the current revision is let go (its stream runs out);
//! - with `--logs=failed`, only containers that crashed or are not ready;
//! - with `kw logs -w`'s patterns (`LogFilters`), only the containers and lines they choose.
//!
//! Every stream ends at the verdict (`Shown::stop`).

mod shown;
mod stream;

use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{mpsc, Arc};
use std::time::{Duration, Instant};

use kw_base::notices::{self, ContextScope};
use kw_client::client::Client;
use kw_wait::following::{ContainerKind, ContainerRun, FollowedPod, PodNews, TellPods};

use crate::plan::{LogFilters, Logs};
pub use shown::Shown;
use stream::{Asked, Ended, Resume};

/// Lines shown first of a container already running when kw first saw it.
const FIRST_TAIL: u64 = 10;
/// The first pause before a stream is reopened, and the longest.
const PAUSE: Duration = Duration::from_secs(1);
const MAX_PAUSE: Duration = Duration::from_secs(8);

/// What the follower hears.
enum Heard {
    Pod(PodNews),
    /// The stream of Pod `uid`'s `container` ended, leaving off at `resume`.
    Ended {
        uid: String,
        container: String,
        resume: Resume,
        ended: Ended,
    },
}

/// What a follower follows with.
pub struct Setup {
    pub client: Arc<Client>,
    pub which: Logs,
    /// Only the containers and lines these choose (`kw logs -w -c REGEX`, `--include`...).
    pub container: Option<LogFilters>,
    /// Init and ephemeral containers too (`kw logs -w --all-containers`).
    pub all_containers: bool,
    pub deadline: Option<Instant>,
    pub shown: Arc<Shown>,
    /// The member's context, in a run over several: its notices and lines name it.
    pub scope: Option<ContextScope>,
}

/// One member's follower: where its cause engine sends the news of the current Pods.
pub struct Follower {
    heard: mpsc::Sender<Heard>,
}

impl Follower {
    /// Start following what the news tells, as `setup` says, until the process ends or its
    /// `shown` stops.
    pub fn start(setup: Setup) -> Follower {
        let Setup {
            client,
            which,
            container,
            all_containers,
            deadline,
            shown,
            scope,
        } = setup;
        let (heard, hearing) = mpsc::channel();
        let state = State {
            client,
            choice: Choice {
                which,
                filters: container.map(Arc::new),
                all_containers,
            },
            deadline,
            shown,
            scope: scope.clone(),
            heard: heard.clone(),
            pods: HashMap::new(),
        };
        // No thread to be had: no logs are shown, the wait goes on.
        let _ = std::thread::Builder::new()
            .name("kw-logs".into())
            .spawn(move || {
                if let Some(scope) = &scope {
                    scope.enter();
                }
                state.run(&hearing);
            });
        Follower { heard }
    }

    /// What the cause engine tells the follower with.
    pub fn tell(&self) -> TellPods {
        let heard = self.heard.clone();
        Box::new(move |news| {
            let _ = heard.send(Heard::Pod(news));
        })
    }
}

struct State {
    client: Arc<Client>,
    choice: Choice,
    deadline: Option<Instant>,
    shown: Arc<Shown>,
    scope: Option<ContextScope>,
    heard: mpsc::Sender<Heard>,
    pods: HashMap<String, Followed>,
}

struct Followed {
    pod: FollowedPod,
    containers: HashMap<String, Container>,
    /// Set when the Pod is let go: its open streams show no more.
    let_go: Arc<AtomicBool>,
}

impl Drop for Followed {
    fn drop(&mut self) {
        self.let_go.store(true, Ordering::SeqCst);
    }
}

/// Where one container's following stands.
#[derive(Default)]
struct Container {
    /// A stream is open.
    open: bool,
    /// Followed no more (it showed `stream::TOTAL`).
    full: bool,
    resume: Resume,
    /// kw saw it before it started: its log is shown from the start.
    seen_starting: bool,
    /// The instance (restart count) a stream last read, if any.
    read: Option<u64>,
    /// Not reopened before this.
    not_before: Option<Instant>,
    /// A silent stream of it was reopened, and said so at `-v` (once).
    said_idle: bool,
    pause: Duration,
    /// Set while its lines are not to be shown (`--logs=failed`, and it is healthy now): an
    /// open stream ends.
    quiet: Arc<AtomicBool>,
}

/// Which containers are followed.
struct Choice {
    which: Logs,
    /// Only the containers and lines these choose.
    filters: Option<Arc<LogFilters>>,
    /// Init and ephemeral containers too.
    all_containers: bool,
}

impl Choice {
    /// Whether a stream of `run` should be opened at `now`.
    fn wanted(&self, run: &ContainerRun, container: &Container, now: Instant) -> bool {
        let shown = match self.which {
            Logs::All => true,
            Logs::Failed => run.troubled,
        } && self.filters.as_ref().is_none_or(|f| f.container(&run.name))
            && (self.all_containers
                || self.filters.as_ref().is_some_and(|f| f.names_containers())
                || run.kind == ContainerKind::Regular);
        let unread = container.read != Some(run.restarts);
        // A new instance is read at once: the kubelet keeps only the one before it.
        shown
            && !container.open
            && !container.full
            && run.started
            && (run.running || unread)
            && (unread || container.not_before.is_none_or(|at| at <= now))
    }
}

/// The soonest moment after `now` a paused container that would be opened then may be: only
/// those, or a container read to its end would wake the follower again and again.
fn next_try(pods: &HashMap<String, Followed>, choice: &Choice, now: Instant) -> Option<Instant> {
    let mut soonest: Option<Instant> = None;
    for followed in pods.values() {
        for run in &followed.pod.containers {
            let Some(container) = followed.containers.get(&run.name) else {
                continue;
            };
            let Some(at) = container.not_before.filter(|at| *at > now) else {
                continue;
            };
            if choice.wanted(run, container, at) {
                soonest = Some(soonest.map_or(at, |s| s.min(at)));
            }
        }
    }
    soonest
}

impl State {
    fn run(mut self, hearing: &mpsc::Receiver<Heard>) {
        loop {
            let wait = self
                .next_try()
                .map(|at| at.saturating_duration_since(Instant::now()));
            let heard = match wait {
                Some(wait) => match hearing.recv_timeout(wait) {
                    Ok(heard) => Some(heard),
                    Err(mpsc::RecvTimeoutError::Timeout) => None,
                    Err(mpsc::RecvTimeoutError::Disconnected) => return,
                },
                None => match hearing.recv() {
                    Ok(heard) => Some(heard),
                    Err(_) => return,
                },
            };
            match heard {
                Some(Heard::Pod(PodNews::Now { uid, pod })) => self.pod_now(uid, pod),
                Some(Heard::Pod(PodNews::Gone { uid })) => {
                    self.pods.remove(&uid);
                }
                Some(Heard::Ended {
                    uid,
                    container,
                    resume,
                    ended,
                }) => self.ended(&uid, &container, resume, ended),
                None => {}
            }
            if self.stopped() {
                return;
            }
            self.open_what_is_due();
        }
    }

    fn stopped(&self) -> bool {
        !self.shown.line_possible()
    }

    fn next_try(&self) -> Option<Instant> {
        next_try(&self.pods, &self.choice, Instant::now())
    }

    fn pod_now(&mut self, uid: String, pod: FollowedPod) {
        let followed = self.pods.entry(uid).or_insert_with(|| Followed {
            pod: pod.clone(),
            containers: HashMap::new(),
            let_go: Arc::default(),
        });
        for run in &pod.containers {
            let container = followed
                .containers
                .entry(run.name.clone())
                .or_insert_with(|| Container {
                    seen_starting: !run.started,
                    pause: PAUSE,
                    ..Container::default()
                });
            let quiet = self.choice.which == Logs::Failed && !run.troubled;
            container.quiet.store(quiet, Ordering::SeqCst);
        }
        followed.pod = pod;
    }

    fn ended(&mut self, uid: &str, name: &str, resume: Resume, ended: Ended) {
        let Some(followed) = self.pods.get_mut(uid) else {
            return;
        };
        let label = &followed.pod.label;
        let Some(container) = followed.containers.get_mut(name) else {
            return;
        };
        container.open = false;
        container.full = ended == Ended::Full;
        if container.full {
            notices::notice(&format!(
                "--logs: {} bytes of {name}'s log shown; the rest is not followed",
                stream::TOTAL
            ));
        }
        // A stream that brought lines is reopened soon; one that keeps ending with nothing
        // new, ever later.
        container.pause = match resume.lines {
            0 => (container.pause * 2).min(MAX_PAUSE),
            _ => PAUSE,
        };
        container.not_before = Some(Instant::now() + container.pause);
        if ended == Ended::Idle {
            // Silent for the idle timeout already: no pause on top of it.
            container.not_before = Some(Instant::now());
            if !container.said_idle {
                container.said_idle = true;
                kw_base::vlog!(
                    kw_base::log::REQUESTS,
                    "{label} {name}: no line for {}s; reopened from its last line (said once)",
                    self.client.idle_timeout().as_secs_f32()
                );
            }
        }
        container.resume = resume;
    }

    /// Open a stream for every container that should have one and may now.
    fn open_what_is_due(&mut self) {
        let now = Instant::now();
        let mut due = Vec::new();
        for (uid, followed) in &self.pods {
            for run in &followed.pod.containers {
                let Some(container) = followed.containers.get(&run.name) else {
                    continue;
                };
                if self.choice.wanted(run, container, now) {
                    due.push((uid.clone(), run.clone()));
                }
            }
        }
        for (uid, run) in due {
            self.open(&uid, &run);
        }
    }

    fn open(&mut self, uid: &str, run: &ContainerRun) {
        let Some(followed) = self.pods.get_mut(uid) else {
            return;
        };
        let Some(container) = followed.containers.get_mut(&run.name) else {
            return;
        };
        container.open = true;
        container.read = Some(run.restarts);
        let tail = (!container.seen_starting).then_some(FIRST_TAIL);
        let mut resume = container.resume.clone();
        let pod = followed.pod.clone();
        let let_go = Arc::clone(&followed.let_go);
        let quiet = Arc::clone(&container.quiet);
        let filters = self.choice.filters.clone();
        let (client, shown, deadline) = (
            Arc::clone(&self.client),
            Arc::clone(&self.shown),
            self.deadline,
        );
        let (heard, scope) = (self.heard.clone(), self.scope.clone());
        let context = self.scope.as_ref().map(ContextScope::name);
        let (uid, name) = (uid.to_string(), run.name.clone());
        let spawned = std::thread::Builder::new()
            .name("kw-log".into())
            .spawn(move || {
                if let Some(scope) = &scope {
                    scope.enter();
                }
                let asked = Asked {
                    client: &client,
                    namespace: &pod.namespace,
                    pod: &pod.name,
                    container: &name,
                    label: &pod.label,
                    context: context.as_deref(),
                    tail,
                    deadline,
                    let_go: &let_go,
                    quiet: &quiet,
                    filters: filters.as_deref(),
                };
                let ended = match stream::follow(&asked, &mut resume, &shown) {
                    Ok(ended) => ended,
                    Err(why) => {
                        kw_base::vlog!(
                            kw_base::log::REQUESTS,
                            "--logs: {} {name}: {why}; trying again",
                            pod.label
                        );
                        Ended::Closed
                    }
                };
                let _ = heard.send(Heard::Ended {
                    uid,
                    container: name,
                    resume,
                    ended,
                });
            });
        if spawned.is_err() {
            container.open = false;
            container.not_before = Some(Instant::now() + MAX_PAUSE);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn followed(running: bool, not_before: Instant) -> HashMap<String, Followed> {
        let run = ContainerRun {
            name: "app".into(),
            kind: ContainerKind::Regular,
            restarts: 0,
            running,
            started: true,
            troubled: false,
        };
        let container = Container {
            read: Some(0),
            not_before: Some(not_before),
            pause: PAUSE,
            ..Container::default()
        };
        let pod = FollowedPod {
            namespace: "default".into(),
            name: "web-1".into(),
            label: "pod/web-1".into(),
            containers: vec![run],
        };
        let followed = Followed {
            pod,
            containers: HashMap::from([("app".to_string(), container)]),
            let_go: Arc::default(),
        };
        HashMap::from([("uid".to_string(), followed)])
    }

    #[test]
    fn only_a_container_that_would_be_reopened_sets_a_time_to_wake() {
        let choice = Choice {
            which: Logs::All,
            filters: None,
            all_containers: false,
        };
        let now = Instant::now();
        let later = now + Duration::from_secs(2);
        // Still running: its stream is reopened after the pause.
        assert_eq!(next_try(&followed(true, later), &choice, now), Some(later));
        // Ended and read to its end: nothing to wake for, now or later.
        assert_eq!(next_try(&followed(false, later), &choice, now), None);
        // A pause already over is not a time to wait for.
        assert_eq!(next_try(&followed(true, now), &choice, later), None);
    }
}
