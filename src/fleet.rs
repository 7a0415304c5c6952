//! A run over several contexts (`--context a,b`, `--context 'prod-*'`, `--all-contexts`): the
//! same `kw get` in every chosen context at once, each with its own settings, client, discovery,
//! namespace rules and watchers (so its own resume state), merged into one output labelled with
//! the context.
//!
//! One cluster never holds up or ends the others. A cluster that cannot be reached, at the start
//! or later, is retried with the usual backoff and costs one stderr line when it fails and one
//! when it is back (`log::trouble`/`log::recovered`). A fatal answer (401, 403, a broken
//! kubeconfig entry) ends that context's stream with one `error:` line; the run goes on without
//! it and exits with that error's code in the end. A type a cluster lacks (a CRD installed in
//! some clusters only) is said once and skipped there.
//!
//! Without `--watch` the contexts are listed one after another, in the kubeconfig's order, so
//! that one-shot output is stable; with it they run side by side.

use std::io;
use std::path::PathBuf;
use std::sync::{mpsc, Arc, Mutex, OnceLock};
use std::time::{Duration, Instant};

use crate::backoff::{self, Backoff};
use crate::client::{Client, ClientError};
use crate::conditions::{Judge, Named};
use crate::discovery::{self, DiscoveryError, Requested};
use crate::discovery_cache::{ClusterKey, DiscoveryCache};
use crate::events::ResourceInfo;
use crate::log;
use crate::output::Output;
use crate::plan::GetPlan;
use crate::printer::{self, PrintOptions};
use crate::session::{finish, run_wrapped, step, Outcome, Step};
use crate::settings::{Settings, SettingsError};
use crate::watcher::{Options, Target, WatchError, Watcher};

/// One chosen context and its settings, or why they could not be resolved (which fails that
/// context only).
pub struct Member {
    pub context: Arc<str>,
    pub settings: Result<Settings, SettingsError>,
}

/// A member and the scope its threads log in (which also knows whether it is failing).
struct Scoped {
    member: Member,
    scope: log::ContextScope,
}

/// Why one context's part of the run ended early.
#[derive(Debug, thiserror::Error)]
pub enum MemberError {
    #[error(transparent)]
    Settings(#[from] SettingsError),
    #[error(transparent)]
    Client(#[from] ClientError),
    #[error(transparent)]
    Discovery(#[from] DiscoveryError),
    #[error(transparent)]
    Watch(#[from] WatchError),
    /// The flags do not fit what this cluster serves (several names of a type under `-w`).
    #[error(transparent)]
    Plan(#[from] crate::plan::PlanError),
}

impl MemberError {
    /// The failures a cluster recovers from on its own: retried while watching.
    fn is_passing(&self) -> bool {
        let client = match self {
            MemberError::Client(e)
            | MemberError::Discovery(DiscoveryError::Client(e))
            | MemberError::Watch(WatchError::Client(e)) => e,
            _ => return false,
        };
        match client {
            ClientError::Unreachable { .. } | ClientError::Broken { .. } => true,
            ClientError::Status { code, .. } => matches!(code, 429 | 500 | 502 | 503 | 504),
            _ => false,
        }
    }
}

/// How a run over several contexts ended.
pub struct FleetOutcome {
    pub outcome: Outcome,
    /// The first context that failed, if any (its code is the run's exit code).
    pub failed: Option<(Arc<str>, MemberError)>,
    /// Contexts whose cluster was still failing (unreachable, 5xx) when the run ended.
    pub still_failing: Vec<Arc<str>>,
}

/// Everything a run over several contexts needs, resolved by `main`.
pub struct Fleet {
    pub plan: GetPlan,
    pub requested: Vec<Requested>,
    pub members: Vec<Member>,
    pub idle_timeout: Duration,
    pub discovery_cache: Option<PathBuf>,
    /// When the watchers stop (`--request-timeout`, `--timeout`).
    pub deadline: Option<Instant>,
    pub color: bool,
    pub terminal: bool,
}

/// What a context's thread tells the run.
enum Report {
    /// A watcher of a context ended.
    Watcher(Arc<str>, Result<crate::watcher::Summary, WatchError>),
    /// A context failed before it could watch anything.
    Failed(Arc<str>, MemberError),
    /// A context lacks every requested type.
    Lacking(DiscoveryError),
    /// A context is done: all its watchers have ended (after their reports).
    Done,
}

/// What every context's thread shares.
struct Run {
    fleet: Fleet,
    judge: Option<Arc<Mutex<Judge>>>,
    /// The one output, made by the first context that knows what it prints.
    output: OnceLock<SharedOutput>,
    started: std::time::SystemTime,
    reports: Mutex<mpsc::Sender<Report>>,
}

type SharedOutput = crate::sinks::Shared<Output<io::Stdout>>;

/// A context ready to watch: its client and targets.
struct Ready {
    client: Arc<Client>,
    targets: Vec<Target>,
}

impl Fleet {
    /// Run to the end; `on_failure` is told about each context that fails, when it fails.
    /// Threads of contexts still watching when a condition, a closed pipe or a failure ends
    /// the run are left to end with the process, as the watchers of several types are.
    pub fn run(self, on_failure: &dyn Fn(&str, &MemberError)) -> Result<FleetOutcome, MemberError> {
        let judge = self
            .plan
            .has_rules()
            .then(|| Judge::for_contexts(self.plan.rules.clone(), self.members.len()).shared());
        let (reports, received) = mpsc::channel::<Report>();
        let mut fleet = self;
        let members: Vec<Scoped> = std::mem::take(&mut fleet.members)
            .into_iter()
            .map(|member| Scoped {
                scope: log::ContextScope::new(Arc::clone(&member.context)),
                member,
            })
            .collect();
        let scopes: Vec<log::ContextScope> = members.iter().map(|m| m.scope.clone()).collect();
        let count = members.len();
        let watching = fleet.plan.watching;
        let shared = Arc::new(Run {
            fleet,
            judge: judge.clone(),
            output: OnceLock::new(),
            started: std::time::SystemTime::now(),
            reports: Mutex::new(reports),
        });
        if watching {
            for member in members {
                let shared = Arc::clone(&shared);
                std::thread::spawn(move || {
                    shared.run_member(member);
                    shared.report(Report::Done);
                });
            }
        } else {
            // One after another, in the kubeconfig's order: one-shot output stays stable.
            let shared = Arc::clone(&shared);
            std::thread::spawn(move || {
                for member in members {
                    shared.run_member(member);
                    shared.report(Report::Done);
                }
            });
        }
        let mut result = collect(&received, count, judge.as_ref(), on_failure);
        if let Ok(outcome) = &mut result {
            outcome.still_failing = scopes
                .iter()
                .filter(|s| s.is_failing())
                .map(|s| s.name())
                .collect();
        }
        if let (Ok(outcome), Some(output)) = (&result, shared.output.get()) {
            if !matches!(outcome.outcome, Outcome::ClosedPipe) {
                let mut out = output.0.lock().unwrap_or_else(|p| p.into_inner());
                finish(&mut out).map_err(MemberError::Watch)?;
            }
        }
        result
    }
}

/// The shared output, which holds a one-shot table until the end so that its columns line up
/// over every context (kubectl aligns a whole list; the contexts' lists are one list here).
struct OneTable {
    inner: SharedOutput,
    hold: bool,
}

impl crate::events::Sink for OneTable {
    fn event(&mut self, event: &crate::events::Event<'_>) -> io::Result<crate::events::Flow> {
        self.inner.event(event)
    }

    fn checkpoint(&mut self, more_ready: bool) -> io::Result<crate::events::Flow> {
        if self.hold {
            return Ok(crate::events::Flow::Continue);
        }
        self.inner.checkpoint(more_ready)
    }

    fn synced(&mut self) -> io::Result<crate::events::Flow> {
        self.inner.synced()
    }
}

/// Read the contexts' reports until every context is done or something ends the run.
fn collect(
    received: &mpsc::Receiver<Report>,
    count: usize,
    judge: Option<&Arc<Mutex<Judge>>>,
    on_failure: &dyn Fn(&str, &MemberError),
) -> Result<FleetOutcome, MemberError> {
    let mut printed = 0;
    let mut done = 0;
    let mut failed: Option<(Arc<str>, MemberError)> = None;
    let mut lacking: Vec<DiscoveryError> = Vec::new();
    while done < count {
        let Ok(report) = received.recv() else {
            break;
        };
        let (context, error) = match report {
            Report::Done => {
                done += 1;
                continue;
            }
            Report::Lacking(error) => {
                lacking.push(error);
                continue;
            }
            Report::Failed(context, error) => (context, error),
            Report::Watcher(context, result) => match step(result, judge) {
                Step::Continue(n) => {
                    printed += n;
                    continue;
                }
                Step::Stop(outcome) => {
                    return Ok(FleetOutcome {
                        outcome,
                        failed,
                        still_failing: Vec::new(),
                    })
                }
                Step::Fail(error) => (context, MemberError::Watch(error)),
            },
        };
        on_failure(&context, &error);
        // `--until` over every context cannot be met without this one.
        let needs_every_context = judge.is_some_and(|j| {
            j.lock()
                .unwrap_or_else(|p| p.into_inner())
                .needs_every_context()
        });
        if needs_every_context {
            return Err(error);
        }
        failed.get_or_insert((context, error));
    }
    if failed.is_none() && lacking.len() == count {
        // No context has the type: kubectl's error, as with one context.
        if let Some(error) = lacking.into_iter().next() {
            return Err(MemberError::Discovery(error));
        }
    }
    Ok(FleetOutcome {
        outcome: Outcome::Done { printed },
        failed,
        still_failing: Vec::new(),
    })
}

impl Run {
    fn report(&self, report: Report) {
        let _ = self
            .reports
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .send(report);
    }

    fn options(&self) -> Options {
        self.fleet.plan.watcher_options(self.fleet.deadline)
    }

    /// One context's part of the run, in this thread: get ready (retrying while watching),
    /// then run its watchers.
    fn run_member(self: &Arc<Self>, scoped: Scoped) {
        let Scoped { member, scope } = scoped;
        scope.enter();
        let settings = match member.settings {
            Ok(settings) => settings,
            Err(e) => return self.member_failed(&member.context, e.into()),
        };
        let context = &member.context;
        let ready = match self.get_ready(&settings, context) {
            Ok(Some(ready)) => ready,
            Ok(None) => return,
            Err(e) => return self.member_failed(&member.context, e),
        };
        let first_index = match &self.judge {
            Some(judge) => {
                let named = ready
                    .targets
                    .iter()
                    .flat_map(|t| {
                        t.names.iter().map(|name| {
                            Named::new(&t.resource, t.namespace.clone(), name)
                                .in_context(&member.context)
                        })
                    })
                    .collect();
                judge
                    .lock()
                    .unwrap_or_else(|p| p.into_inner())
                    .member_resolved(named, ready.targets.len())
            }
            None => 0,
        };
        let output = self.output_for(&ready.targets);
        let with_kind = self.fleet.plan.with_kind(&ready.targets);
        let options = self.options();
        let run_one = |index: usize, target: Target| {
            let mut sink = OneTable {
                inner: output.clone(),
                hold: !self.fleet.plan.watching,
            };
            let mut watcher = Watcher::new(&ready.client, target, options.clone());
            run_wrapped(
                &mut watcher,
                &mut sink,
                with_kind,
                &self.judge,
                first_index + index,
                Some(context),
            )
        };
        if !self.fleet.plan.watching {
            for (index, target) in ready.targets.into_iter().enumerate() {
                let result = run_one(index, target);
                let failed = result.is_err();
                self.report(Report::Watcher(Arc::clone(context), result));
                if failed {
                    return;
                }
            }
            return;
        }
        std::thread::scope(|threads| {
            for (index, target) in ready.targets.into_iter().enumerate() {
                let scope = scope.clone();
                let run_one = &run_one;
                threads.spawn(move || {
                    scope.enter();
                    let result = run_one(index, target);
                    self.report(Report::Watcher(Arc::clone(context), result));
                });
            }
        });
    }

    /// A context that cannot take part: say so, and let the judge stop waiting for it.
    fn member_failed(&self, context: &Arc<str>, error: MemberError) {
        if let Some(judge) = &self.judge {
            judge
                .lock()
                .unwrap_or_else(|p| p.into_inner())
                .member_resolved(Vec::new(), 0);
        }
        self.report(Report::Failed(Arc::clone(context), error));
    }

    /// The shared output, made for the first context's targets (a table's columns depend on
    /// the type).
    fn output_for(&self, targets: &[Target]) -> SharedOutput {
        self.output
            .get_or_init(|| {
                let options = self.print_options(targets);
                crate::sinks::Shared(Arc::new(Mutex::new(Output::new(
                    printer::new_printer(&options),
                    io::stdout(),
                ))))
            })
            .clone()
    }

    fn print_options(&self, targets: &[Target]) -> PrintOptions {
        let plan = &self.fleet.plan;
        let resource = targets.first().map(|t| t.resource.clone());
        let resource = resource.unwrap_or_else(|| ResourceInfo {
            plural: String::new(),
            singular: String::new(),
            kind: String::new(),
            group: String::new(),
            version: String::new(),
            namespaced: true,
        });
        plan.print_options(
            &resource,
            targets,
            self.fleet.color,
            self.fleet.terminal,
            self.started,
        )
    }

    /// The client and targets of one context. While watching, failures a cluster recovers
    /// from are retried with backoff until the deadline (`Ok(None)` when it passes); a type
    /// the cluster lacks is said and skipped (`Ok(None)` when it lacks them all).
    fn get_ready(&self, settings: &Settings, context: &str) -> Result<Option<Ready>, MemberError> {
        let fleet = &self.fleet;
        let mut backoff = Backoff::new(backoff::seed_from_clock());
        loop {
            match self.try_ready(settings, context) {
                Ok(ready) => {
                    log::recovered();
                    return Ok(ready);
                }
                Err(e) if fleet.plan.watching && e.is_passing() => {
                    let pause = backoff.failed(Instant::now());
                    log::trouble(&format!("{e}; retrying in {:.1}s", pause.as_secs_f64()));
                    let wake = Instant::now().checked_add(pause);
                    if let (Some(deadline), Some(wake)) = (fleet.deadline, wake) {
                        if wake >= deadline {
                            std::thread::sleep(deadline.saturating_duration_since(Instant::now()));
                            return Ok(None);
                        }
                    }
                    std::thread::sleep(pause);
                }
                Err(e) => return Err(e),
            }
        }
    }

    fn try_ready(&self, settings: &Settings, context: &str) -> Result<Option<Ready>, MemberError> {
        let fleet = &self.fleet;
        let plan = &fleet.plan;
        let mut client = Client::new(&settings.connection, fleet.idle_timeout)?;
        client.limit_objects(plan.max_object_size);
        client.bound_by(fleet.deadline);
        let key = ClusterKey::new(&settings.connection, Some(context));
        let mut cache = DiscoveryCache::open(fleet.discovery_cache.as_deref(), &key);
        let (wanted, unknown) =
            discovery::resolve_requested(&fleet.requested, &client, &mut cache, true)?;
        cache.save();
        for name in &unknown {
            log::notice(&format!(
                "the server doesn't have a resource type \"{name}\"; not watched in this context"
            ));
        }
        if wanted.is_empty() {
            let name = unknown.into_iter().next().unwrap_or_default();
            self.report(Report::Lacking(DiscoveryError::UnknownType(name)));
            if let Some(judge) = &self.judge {
                judge
                    .lock()
                    .unwrap_or_else(|p| p.into_inner())
                    .member_resolved(Vec::new(), 0);
            }
            return Ok(None);
        }
        let targets = plan.targets(wanted, &settings.namespace)?;
        let targets = crate::namespace_access::allowed_targets(&client, targets)?;
        Ok(Some(Ready {
            client: Arc::new(client),
            targets,
        }))
    }
}
