//! Running the members' watchers, and reading what they report. Without `--watch` the members
//! get ready and list side by side (each on a thread), and are printed on this thread, members
//! in the kubeconfig's order and targets in the order given, so one-shot output is stable; a
//! member that hangs is printed after the others instead of holding them up (`one_shot`). With
//! it, each member gets a thread (its own retries never hold up the others) and each target a
//! thread of its own, merged into one stream.
//!
//! Every watcher's sink is wrapped the same way (`run_wrapped`) and all `MemberNews` is read by
//! the same `Collector`: this is the one place that knows what ends a run. One cluster never
//! ends the others: a context that fails says so at once and the run goes on without it (its
//! error sets the exit code at the end), unless the run cannot decide without it.

use std::io;
use std::sync::mpsc;
use std::sync::{Arc, Mutex, OnceLock};
use std::time::{Duration, Instant, SystemTime};

use crate::plan::GetPlan;
use crate::report;
use crate::report::error::KwError;
use crate::report::outcome::{End, Outcome};
use kw_base::log;
use kw_base::notices::ContextScope;
use kw_base::notices::Notices;
use kw_base::parking::{Job, Parking, Turn};
use kw_client::config::environment::Environment;
use kw_client::discovery::{DiscoveryError, Requested};
use kw_events::decode::depth;
use kw_events::events::Reconnects;
use kw_events::events::{Event, ResourceInfo};
use kw_output::output::chain::{self, Links};
use kw_output::output::printer::{Closing, NothingSorted, PrintOptions};
use kw_output::output::writer::is_closed_pipe;
use kw_wait::wait::{Expr, GroupResource, Judge, Key, SharedJudge, Trouble, Verdict};
use kw_watcher::watcher::{Target, WatchError, Watcher, WatcherReport};

mod one_shot;

use super::evidence::Evidence;
use super::member::{Member, Preparation, Prepared, Preparer};
use super::outputs::Outputs;
use super::recording::{Recorder, Recording};
use super::turns::TurnWatch;
use kw_wait::cause::{Causes, SharedCauses, Tell};
use kw_watcher::auxiliary::WatchSet;

/// What every member of a run shares.
pub(super) struct Run {
    plan: GetPlan,
    requested: Vec<Requested>,
    environment: Environment,
    /// When the watchers stop (`--request-timeout`, `--timeout`).
    deadline: Option<Instant>,
    /// `--timeout`'s instant alone: where a go-template run stops.
    timeout: Option<Instant>,
    /// Several contexts: objects and messages are labelled with their context.
    several: bool,
    judge: Option<SharedJudge>,
    /// Every watcher of the run counts its reconnects here (the live view's footer).
    reconnects: Reconnects,
    outputs: Outputs,
    color: bool,
    terminal: bool,
    /// The terminal's width (`COLUMNS` first), read once for every printer; `None` off a terminal.
    width: Option<usize>,
    started: SystemTime,
    /// What kubectl says when the one-shot list is empty: the members' message when they agree.
    when_empty: Mutex<Option<String>>,
    /// Each member's causes, for the summary of a failed wait.
    causes: Mutex<Vec<MemberCauses>>,
    /// kubectl wait's named objects found missing, passed over: said after the others.
    not_found: Mutex<Vec<Key>>,
    /// What the members' clients share (TLS configurations, plugin permits).
    shared: Arc<kw_client::client::Shared>,
    /// A few members get ready at a time, and read their first lists a few at a time (the
    /// bodies of a thousand lists read at once would stay in malloc's arenas once freed).
    readying: Arc<kw_base::permits::Permits>,
    /// The discovery of identical servers (one address, trust and user), read once.
    discovered: kw_client::discovery::once::Discovered,
    /// Where a fleet's silent watches wait without a thread (started by the first to park;
    /// `None` when its thread could not be started: each watch keeps its thread then).
    parking: OnceLock<Option<Parking>>,
    /// `--logs`: where the Pods' log lines go until the verdict.
    logs: Option<Arc<super::following::Shown>>,
}

/// A fleet's watch whose stream has been silent this long parks (`parking`): at once, once
/// nothing is buffered above its socket. Parking costs what a wake-up costs (the parking's
/// interest set), and a turn that lingered held a pool thread while it did: a second of it
/// kept a thread per stream with an event in the last second (issue 59).
const PARK_AFTER: Duration = Duration::ZERO;

/// How long a failure verdict waits for the first lists of the auxiliary watches (ReplicaSets,
/// Pods, Events) before its summary is written: a verdict reached on the primary watch's first
/// list (kw joined a story that had already failed) comes before the lists that hold its cause.
/// On loopback they take milliseconds; a slow server costs at most this.
const CAUSES_LISTED: Duration = Duration::from_secs(3);

/// A member's causes, the client to read its crashed containers' logs with, and the auxiliary
/// watches that gather them (a verdict may have to wait for their first lists: `CAUSES_LISTED`).
struct MemberCauses {
    causes: Arc<Mutex<Causes>>,
    client: Arc<kw_client::client::Client>,
    watches: Arc<WatchSet>,
}

impl Run {
    pub(super) fn new(
        plan: GetPlan,
        requested: Vec<Requested>,
        environment: Environment,
        deadlines: crate::plan::Deadlines,
        members: usize,
        notices: &Notices,
    ) -> Run {
        let several = plan.several_contexts;
        let judge = plan.has_rules().then(|| {
            SharedJudge::new(
                Judge::for_contexts(plan.rules.clone(), members),
                log::progress,
            )
        });
        if let Some(judge) = &judge {
            // A signal that ends the run writes the CI reports from this judge.
            crate::report::ci::interrupted::judging(judge);
        }
        let terminal = kw_output::output::terminal::stdout_is_terminal();
        let outputs = Outputs::new(!several && !plan.watching, several && !plan.watching)
            .saying(plan.after_listing.clone());
        let reconnects = Reconnects::default();
        let logs = plan.logs.map(|_| {
            Arc::new(match plan.logs_on_stdout {
                Some(jsonl) => super::following::Shown::on_stdout(terminal, jsonl),
                None => super::following::Shown::new(kw_output::output::terminal::dims_notices()),
            })
        });
        Run {
            outputs: match plan.live {
                true => outputs.live(
                    judge
                        .clone()
                        .map(|j| Arc::new(j) as Arc<dyn kw_output::output::live::Judging>),
                    plan.rules.needs_judgement(),
                    reconnects.clone(),
                    notices.clone(),
                ),
                false => outputs,
            },
            reconnects,
            color: kw_output::output::terminal::use_color(plan.output.color, terminal),
            terminal,
            width: terminal
                .then(kw_output::output::terminal::stdout_width)
                .flatten(),
            started: SystemTime::now(),
            judge,
            plan,
            requested,
            environment,
            deadline: deadlines.watcher(),
            timeout: deadlines.timeout(),
            several,
            when_empty: Mutex::new(None),
            causes: Mutex::new(Vec::new()),
            not_found: Mutex::new(Vec::new()),
            shared: Arc::default(),
            readying: Arc::new(super::member::readying()),
            discovered: Default::default(),
            parking: OnceLock::new(),
            logs,
        }
    }
}

type MemberSettings =
    Result<kw_client::config::settings::Settings, kw_client::config::settings::SettingsError>;

/// What a member's thread tells the run.
enum MemberNews {
    /// A watcher of a member ended.
    Watcher(Option<Arc<str>>, Result<WatcherReport, WatchError>),
    /// A member failed before it could watch anything.
    Failed(Option<Arc<str>>, KwError),
    /// A member lacks every requested type.
    Lacking(DiscoveryError),
    /// A member is done: all its watchers have ended (after their reports).
    Done,
    /// A workload's child is stuck, or no longer is (`Judge::child_trouble`).
    Child(Key, String, Option<Trouble>),
}

/// Run `members` to the end.
pub(super) fn run(run: Run, members: Vec<Member>) -> Result<(Outcome, Evidence), KwError> {
    let count = members.len();
    let scopes: Vec<Option<ContextScope>> = members
        .iter()
        .map(|m| m.context.clone().map(ContextScope::new))
        .collect();
    let run = Arc::new(run);
    let mut collector = Collector::new(&run, count);
    // Kept after the verdict: the news of stuck children told while the causes' lists come.
    let (reports, received) = mpsc::channel::<MemberNews>();
    let verdict = if run.plan.watching {
        for (member, scope) in members.into_iter().zip(scopes.iter().cloned()) {
            let run = Arc::clone(&run);
            let reports = reports.clone();
            let failed = reports.clone();
            let context = member.context.clone();
            // The last one out drops the run, and with it the objects its printers and judge
            // still hold (serde_json drops a `Value` level by level): a stack sized for the
            // deepest one read, as every watch thread has.
            let spawned = std::thread::Builder::new()
                .stack_size(depth::STACK)
                .spawn(move || {
                    if let Some(scope) = &scope {
                        scope.enter();
                    }
                    let tell = reports.clone();
                    let send = |report| {
                        let _ = reports.send(report);
                    };
                    // A watch handed to the parking says when it is done itself.
                    if !run.watch_member(member, &send, tell) {
                        send(MemberNews::Done);
                    }
                });
            if let Err(error) = spawned {
                let error = io::Error::new(
                    error.kind(),
                    format!("cannot start a thread to watch: {error}"),
                );
                let _ = failed.send(MemberNews::Watcher(context, Err(WatchError::Output(error))));
                let _ = failed.send(MemberNews::Done);
            }
        }
        drop(reports);
        loop {
            // A judgement that changes with time alone (a grace, a window) is made on time,
            // without waiting for an event to prompt it.
            // A watcher's sink may set the judge's next tick itself (a watched Pod stuck: its
            // grace), without news for this loop: with a judge, look again every half second.
            let next_tick = run.judge.as_ref().map(|judge| {
                let look_again = SystemTime::now() + std::time::Duration::from_millis(500);
                judge
                    .next_tick()
                    .map_or(look_again, |at| at.min(look_again))
            });
            let report = match next_tick {
                Some(at) => {
                    let wait = at
                        .duration_since(SystemTime::now())
                        .unwrap_or_default()
                        // A clock stepped back must not make the wait endless.
                        .min(std::time::Duration::from_secs(60));
                    match received.recv_timeout(wait) {
                        Ok(report) => report,
                        Err(mpsc::RecvTimeoutError::Timeout) => {
                            if let Some(verdict) = collector.tick() {
                                break verdict;
                            }
                            continue;
                        }
                        Err(mpsc::RecvTimeoutError::Disconnected) => break collector.all_done(),
                    }
                }
                None => match received.recv() {
                    Ok(report) => report,
                    Err(_) => break collector.all_done(),
                },
            };
            if let Some(verdict) = collector.take(report) {
                break verdict;
            }
        }
    } else {
        drop(reports);
        let work: one_shot::Work = {
            let run = Arc::clone(&run);
            Arc::new(move |settings| run.ready_and_list(settings))
        };
        let mut listing = one_shot::Listing::start(members, &scopes, &work);
        run.list_in_order(&mut listing, &scopes, &mut collector)
    };
    let Collector { failed, .. } = collector;
    // The verdict is in: no Pod's log line after it.
    if let Some(logs) = &run.logs {
        logs.settle_and_stop();
    }
    // kubectl wait goes past the named objects that do not exist: the others' lines are said
    // (the missing ones' slots passed over), and the report says kubectl's NotFound lines in
    // the order named (`report::wait`).
    let missing = kw_base::mutex::lock(&run.not_found).clone();
    let end = match verdict {
        Ok(end) => end,
        Err(error) => {
            // Whatever was printed before the failure is complete on stdout.
            let closing = Closing {
                missing: &missing,
                unmet: &[],
            };
            let _ = run.outputs.finish(&closing);
            return Err(error);
        }
    };
    // A wait that ran out of time: kubectl names no object after the first that never met
    // the condition (its deadline had passed before it came to them), on stdout either.
    let ran_out = run.plan.watching
        && matches!(end, End::Done { .. })
        && run
            .deadline
            .is_some_and(|deadline| Instant::now() >= deadline);
    let unmet = run
        .judge
        .as_ref()
        .filter(|_| ran_out)
        .map_or_else(Vec::new, |judge| judge.not_met());
    if !matches!(end, End::ClosedPipe { .. }) {
        let closing = Closing {
            missing: &missing,
            unmet: &unmet,
        };
        run.outputs.finish(&closing).map_err(KwError::Watch)?;
    }
    let end = match end {
        End::Verdict(Verdict::FailOn { .. }) => reworded(&run, &received).unwrap_or(end),
        end => end,
    };
    let evidence = Evidence {
        judge: run.judge.clone(),
        members: std::mem::take(&mut *kw_base::mutex::lock(&run.causes))
            .into_iter()
            .map(|member| (member.causes, member.client))
            .collect(),
        budget: kw_wait::wait::summary::budget(run.plan.timeout),
    };
    let when_empty = kw_base::mutex::lock(&run.when_empty).take();
    let outcome = Outcome {
        end,
        failed,
        unreachable: scopes
            .iter()
            .flatten()
            .filter(|s| s.is_failing())
            .map(|s| s.name())
            .collect(),
        when_empty,
        // The run words these: it knows the deadline and what the summary is for.
        timed_out: None,
        summary: None,
        objects: Vec::new(),
        sources: Vec::new(),
    };
    Ok((outcome, evidence))
}

/// The failure verdict worded once the causes are known: it may have come before their first
/// lists (kw joined a story that had already failed), and the error line and the summary must
/// name the cause they hold, as when kw watched from the start. Waits for those lists, at most
/// `CAUSES_LISTED`, then gives the judge the stuck children they told of.
fn reworded(run: &Run, received: &mpsc::Receiver<MemberNews>) -> Option<End> {
    let until = Instant::now() + CAUSES_LISTED;
    for member in kw_base::mutex::lock(&run.causes).iter() {
        member.watches.wait_listed(until);
    }
    let judge = run.judge.as_ref()?;
    // Told from the lists' own threads before each list counts as listed: all here by now.
    while let Ok(news) = received.try_recv() {
        if let MemberNews::Child(workload, child, trouble) = news {
            judge.child_trouble(&workload, &child, trouble, SystemTime::now());
        }
    }
    // A failed Job's Pods are done, not stuck: their crash is its cause (after any stuck one).
    for member in kw_base::mutex::lock(&run.causes).iter() {
        let crashed = kw_base::mutex::lock(&member.causes).crashed_children();
        for (workload, child, reason) in crashed {
            let since = SystemTime::now();
            judge.child_trouble(&workload, &child, Some(Trouble { reason, since }), since);
        }
    }
    judge.reword().map(End::Verdict)
}

impl Run {
    /// One member watched: ready it (retrying), then its targets side by side. True when its
    /// watch went on in turns (`watch_in_turns`), which report the member done themselves.
    fn watch_member(
        &self,
        member: Member,
        report: &(dyn Fn(MemberNews) + Sync),
        tell: mpsc::Sender<MemberNews>,
    ) -> bool {
        let preparation = self.prepare(member.settings);
        let Some(prepared) = self.ready(preparation, member.context.as_ref(), &mut |r| {
            report(r);
            true
        }) else {
            return false;
        };
        let tell = match self.watch_in_turns(&prepared, member.context.as_ref(), tell) {
            Ok(()) => return true,
            Err(tell) => tell,
        };
        let first_index = self.judge_members_watchers(&prepared, member.context.as_ref());
        let with_kind = self.plan.with_kind(&prepared.targets);
        let context = member.context.as_ref();
        let scope = kw_base::notices::current_scope();
        // A stuck Pod of a workload's current revision fails it under `--fail-on failed`, even
        // with `--quiet`: the auxiliary watches run for that too.
        let children = self.plan.rules.fail_on.contains(&Expr::Failed);
        let following = self.plan.logs.is_some();
        let watches = (self.plan.summarize || self.plan.explain_waits || children || following)
            .then(|| {
                let tell: Option<Tell> = children.then(|| -> Tell {
                    Box::new(move |workload, child, trouble| {
                        let _ = tell.send(MemberNews::Child(workload, child, trouble));
                    })
                });
                let mut causes = Causes::new(
                    context.cloned(),
                    self.plan.explain_waits,
                    self.plan.summarize,
                    prepared.client.clock(),
                    tell,
                );
                if let (Some(which), Some(shown)) = (self.plan.logs, &self.logs) {
                    let follower = super::following::Follower::start(super::following::Setup {
                        client: Arc::clone(&prepared.client),
                        which,
                        container: self.plan.logs_container.clone(),
                        all_containers: false,
                        deadline: self.deadline,
                        shown: Arc::clone(shown),
                        scope: scope.clone(),
                    });
                    causes = causes.following(kw_wait::following::Following::new(follower.tell()));
                }
                let causes = Arc::new(Mutex::new(causes));
                let watches = WatchSet::new(
                    Arc::clone(&prepared.client),
                    self.plan.watcher_options(self.deadline),
                    Box::new(SharedCauses(Arc::clone(&causes))),
                    scope.clone(),
                    self.reconnects.clone(),
                );
                kw_base::mutex::lock(&self.causes).push(MemberCauses {
                    causes,
                    client: Arc::clone(&prepared.client),
                    watches: Arc::clone(&watches),
                });
                watches
            });
        let watch_target = |index: usize, target: &Target| {
            let at = At {
                index: first_index + index,
                context,
                printed: 0,
                watches: watches.as_ref(),
            };
            let result = self.run_target(&prepared, target, with_kind, at, None);
            report(MemberNews::Watcher(context.cloned(), result));
        };
        // One target (a fleet's usual `get pods -w`) is watched on the member's own thread: a
        // thread per context, not two.
        if let [target] = prepared.targets.as_slice() {
            watch_target(0, target);
            return false;
        }
        if !self.several {
            let orders = prepared
                .targets
                .iter()
                .map(|t| order_of(&prepared.targets, t));
            let no_headers = self
                .print_options(&prepared.targets[0].resource, &prepared)
                .no_headers;
            self.outputs.order_tables(orders, no_headers);
        }
        std::thread::scope(|threads| {
            for (index, target) in prepared.targets.iter().enumerate() {
                let scope = scope.clone();
                let watch_target = &watch_target;
                let watch = move || {
                    if let Some(scope) = &scope {
                        scope.enter();
                    }
                    watch_target(index, target);
                };
                // The thread decodes, judges and prints the target's objects: a stack sized
                // for the deepest one read.
                let spawned = std::thread::Builder::new()
                    .stack_size(depth::STACK)
                    .spawn_scoped(threads, watch);
                if let Err(error) = spawned {
                    let error = io::Error::new(
                        error.kind(),
                        format!(
                            "cannot start a thread to watch {}: {error}",
                            target.resource.plural
                        ),
                    );
                    report(MemberNews::Watcher(
                        context.cloned(),
                        Err(WatchError::Output(error)),
                    ));
                }
            }
        });
        false
    }

    /// How a target's events print: the plan's options with what the run adds (its judge's
    /// judgements, and `--timeout` for a template run), the same for a watch in turns.
    fn print_options(&self, resource: &ResourceInfo, prepared: &Prepared) -> PrintOptions {
        let mut options = self.plan.print_options(
            resource,
            &prepared.targets,
            self.color,
            self.terminal,
            self.width,
            self.started,
        );
        options.deadline = self.timeout;
        options
    }

    /// A fleet member's one target watched in turns: while its stream is silent, it waits
    /// parked, without a thread (`kw_base::parking`). Only what owns all it needs can move from
    /// thread to thread: a plain `get -w` over several contexts (no judge, no auxiliary
    /// watches, no selector's checker); anything else is handed back (`tell` with it) to be
    /// watched on this thread. The first turn runs here.
    fn watch_in_turns(
        &self,
        prepared: &Prepared,
        context: Option<&Arc<str>>,
        tell: mpsc::Sender<MemberNews>,
    ) -> Result<(), mpsc::Sender<MemberNews>> {
        let plan = &self.plan;
        let (Some(context), [target]) = (context, prepared.targets.as_slice()) else {
            return Err(tell);
        };
        let simple = self.several
            && plan.watching
            && self.judge.is_none()
            && !plan.prints_once()
            && !(plan.summarize || plan.explain_waits)
            && !plan.rules.fail_on.contains(&Expr::Failed)
            && target.label_selector.is_none()
            && target.field_selector.is_none();
        if !simple {
            return Err(tell);
        }
        let Some(parking) = self
            .parking
            .get_or_init(|| Parking::start(depth::STACK).ok())
        else {
            return Err(tell);
        };
        let options = self.print_options(&target.resource, prepared);
        let context = Arc::clone(context);
        let output = match self.outputs.sink(options, (&target.resource, 0), 0) {
            Ok(output) => output,
            Err(error) => {
                let _ = tell.send(MemberNews::Watcher(Some(context), Err(error)));
                let _ = tell.send(MemberNews::Done);
                return Ok(());
            }
        };
        let with_kind = plan.with_kind(&prepared.targets);
        let sink = chain::parked(output, Arc::clone(&context), with_kind);
        let watcher = Watcher::sharing(
            Arc::clone(&prepared.client),
            target.clone(),
            plan.watcher_options(self.deadline),
        )
        .counting_reconnects_in(&self.reconnects)
        .first_list_under(Arc::clone(&self.readying))
        .parking_after(PARK_AFTER);
        let mut job = Box::new(TurnWatch {
            watcher,
            sink,
            scope: kw_base::notices::current_scope(),
            stale: prepared.stale.clone(),
            ended: Some(Box::new(move |result| {
                let _ = tell.send(MemberNews::Watcher(Some(context), result));
                let _ = tell.send(MemberNews::Done);
            })),
        });
        if let Turn::Park(parked) = job.resume() {
            parking.park(job, parked);
        }
        Ok(())
    }

    /// A one-shot fleet printed in the order `listing` gives its members; the run's end.
    fn list_in_order(
        &self,
        listing: &mut one_shot::Listing,
        scopes: &[Option<ContextScope>],
        collector: &mut Collector,
    ) -> Result<End, KwError> {
        loop {
            let (member, handed, late) = match listing.next() {
                one_shot::Next::Print {
                    member,
                    handed,
                    late,
                } => (member, handed, late),
                one_shot::Next::Late(late) => {
                    for member in late {
                        one_shot::say_late(scopes[member].as_ref());
                    }
                    continue;
                }
                one_shot::Next::CloseOnTime => {
                    self.outputs
                        .start_block(collector.printed > 0)
                        .map_err(KwError::Watch)?;
                    continue;
                }
                one_shot::Next::Finished => return collector.all_done(),
            };
            let context = scopes[member].as_ref().map(|scope| {
                scope.enter();
                scope.name()
            });
            let (preparation, lists) = match handed {
                one_shot::Handed::InTurn(settings) => (self.prepare(*settings), Vec::new()),
                one_shot::Handed::Listed(handed) => (handed.preparation, handed.lists),
            };
            let mut verdict = None;
            self.list_member(context.as_ref(), preparation, lists, &mut |report| {
                verdict = verdict.take().or_else(|| collector.take(report));
                verdict.is_none()
            });
            if let Some(verdict) = verdict.or_else(|| collector.take(MemberNews::Done)) {
                return verdict;
            }
            // A late member's block is seen as soon as it is printed.
            if late {
                self.outputs
                    .start_block(collector.printed > 0)
                    .map_err(KwError::Watch)?;
            }
        }
    }

    /// A member got ready, and each of its targets' lists read into a recording, to be
    /// printed in its turn (a one-shot fleet's, on the member's own thread).
    fn ready_and_list(&self, settings: MemberSettings) -> one_shot::HandIn {
        let preparation = self.prepare(settings);
        let lists = match &preparation {
            Ok(Preparation::Ready(prepared)) => prepared
                .targets
                .iter()
                .map(|target| {
                    let mut recorder = Recorder::default();
                    let ended = self.watcher(prepared, target, true).run(&mut recorder);
                    recorder.finished(ended)
                })
                .collect(),
            _ => Vec::new(),
        };
        one_shot::HandIn { preparation, lists }
    }

    /// One member listed, once ready (`prepare`): its targets one after another. `report` says
    /// whether to go on.
    fn list_member(
        &self,
        context: Option<&Arc<str>>,
        preparation: Result<Preparation, KwError>,
        lists: Vec<Recording>,
        report: &mut dyn FnMut(MemberNews) -> bool,
    ) {
        let Some(prepared) = self.ready(preparation, context, report) else {
            return;
        };
        let first_index = self.judge_members_watchers(&prepared, context);
        let with_kind = self.plan.with_kind(&prepared.targets);
        let mut printed = 0;
        // kubectl gets every named object it can and reports the missing ones after them all
        // (`get deploy/web ds/nope deploy/x`: the table, then both NotFound lines).
        let mut missing = Vec::new();
        let ignore_not_found = self.plan.ignore_not_found;
        let mut lists = lists.into_iter();
        for (index, target) in prepared.targets.iter().enumerate() {
            let at = At {
                index: first_index + index,
                context,
                printed,
                watches: None,
            };
            let result = match self.run_target(&prepared, target, with_kind, at, lists.next()) {
                Err(WatchError::NotFound(errors)) => {
                    missing.extend(errors);
                    continue;
                }
                result => result,
            };
            let go_on = matches!(result, Ok(WatcherReport { stopped: false, .. }));
            if let Ok(watched) = &result {
                printed += watched.printed;
            }
            if !report(MemberNews::Watcher(context.cloned(), result)) || !go_on {
                return;
            }
        }
        if !missing.is_empty() && !ignore_not_found {
            report(MemberNews::Watcher(
                context.cloned(),
                Err(WatchError::NotFound(missing)),
            ));
        }
    }

    /// Get a member ready (connect, credentials, discovery, access), retrying as `Preparer`
    /// does: the part of a member's run that may wait on the network or on a credential plugin.
    fn prepare(
        &self,
        settings: Result<
            kw_client::config::settings::Settings,
            kw_client::config::settings::SettingsError,
        >,
    ) -> Result<Preparation, KwError> {
        settings
            .map_err(KwError::from)
            .and_then(|settings| self.preparer().prepare(&settings))
    }

    /// The member ready to watch, or `None` after its failure or lack was reported.
    fn ready(
        &self,
        preparation: Result<Preparation, KwError>,
        context: Option<&Arc<str>>,
        report: &mut dyn FnMut(MemberNews) -> bool,
    ) -> Option<Prepared> {
        let prepared = match preparation {
            Ok(Preparation::Ready(prepared)) => prepared,
            Ok(Preparation::Lacking(error)) => {
                self.judge_members_watchers_none();
                report(MemberNews::Lacking(error));
                return None;
            }
            Ok(Preparation::GaveUp) => return None,
            Err(error) => {
                self.judge_members_watchers_none();
                report(MemberNews::Failed(context.cloned(), error));
                return None;
            }
        };
        if let Some(message) = &prepared.when_empty {
            let mut when_empty = kw_base::mutex::lock(&self.when_empty);
            *when_empty = Some(match when_empty.take() {
                Some(said) if &said != message => "No resources found".to_string(),
                _ => message.clone(),
            });
        }
        Some(prepared)
    }

    fn preparer(&self) -> Preparer<'_> {
        Preparer {
            plan: &self.plan,
            requested: &self.requested,
            environment: &self.environment,
            deadline: self.deadline,
            several: self.several,
            shared: &self.shared,
            readying: &self.readying,
            discovered: &self.discovered,
        }
    }

    /// Tell the judge what this member watches; the index of its first watcher.
    fn judge_members_watchers(&self, prepared: &Prepared, context: Option<&Arc<str>>) -> usize {
        let Some(judge) = &self.judge else {
            return 0;
        };
        let (kinds, selector) = prepared.collections();
        judge.watches_collections(kinds, selector);
        judge.member_resolved(prepared.named(context), prepared.targets.len())
    }

    /// A member that watches nothing: the judge stops waiting for it.
    fn judge_members_watchers_none(&self) {
        if let Some(judge) = &self.judge {
            judge.member_resolved(Vec::new(), 0);
        }
    }

    /// Watch one target into the run's output, or print its list read before (`listed`); a
    /// type found gone is forgotten from the cache.
    fn run_target(
        &self,
        prepared: &Prepared,
        target: &Target,
        with_kind: bool,
        at: At<'_>,
        listed: Option<Recording>,
    ) -> Result<WatcherReport, WatchError> {
        let At {
            index,
            context,
            printed,
            watches,
        } = at;
        let options = self.print_options(&target.resource, prepared);
        let order = order_of(&prepared.targets, target);
        let output = self
            .outputs
            .sink(options, (&target.resource, order), printed)?;
        // The auxiliary watches see every event, stdout the ones the gate lets through.
        let mut tap = watches.map(|watches| move |event: &Event<'_>| watches.primary(event));
        let links = Links {
            context: context.cloned(),
            judged: self.judge.as_ref().map(|judge| (judge.clone(), index)),
            with_kind,
            tee: tap.as_mut().map(|tap| tap as &mut dyn FnMut(&Event<'_>)),
            gated: self.plan.prints_once(),
        };
        let mut sink = links.around(output);
        let ended = match listed {
            Some(listed) => listed.replay(&mut sink),
            None => self
                .watcher(prepared, target, self.several && self.plan.watching)
                .run(&mut sink),
        };
        let result = match ended {
            // The table kubectl's sorter refused prints nothing, and kubectl says it found none.
            Err(WatchError::Output(e)) if e.get_ref().is_some_and(|e| e.is::<NothingSorted>()) => {
                Ok(WatcherReport::default())
            }
            result => result,
        };
        if let (Err(WatchError::NotFound(errors)), Some(judge), [name]) =
            (&result, &self.judge, target.names.as_slice())
        {
            if judge.goes_past_missing() {
                kw_base::mutex::lock(&self.not_found).push(Key {
                    context: context.map(|c| c.to_string()).unwrap_or_default(),
                    resource: GroupResource::of(&target.resource),
                    namespace: target.namespace.clone().unwrap_or_default(),
                    name: name.clone(),
                });
                let line = errors
                    .first()
                    .map(crate::report::not_found_line)
                    .unwrap_or_default();
                judge.not_found(index, &target.resource, name, line);
            }
        }
        if let (Err(error), Some(stale)) = (&result, &prepared.stale) {
            match error {
                WatchError::Client(e) => stale.forget_if_gone(e),
                // A named GET answers 404 both for a missing object and for a missing type.
                WatchError::NotFound(errors) => errors.iter().for_each(|e| stale.forget_if_gone(e)),
                _ => {}
            }
        }
        result
    }
}

impl Run {
    /// A watcher of `target`, its first list read under the readying permits when `permitted`
    /// (a fleet's: a thousand lists read at once would stay in malloc's arenas once freed).
    fn watcher<'a>(&self, prepared: &'a Prepared, target: &Target, permitted: bool) -> Watcher<'a> {
        let watcher = Watcher::new(
            &prepared.client,
            target.clone(),
            self.plan.watcher_options(self.deadline),
        )
        .counting_reconnects_in(&self.reconnects);
        match permitted {
            true => watcher.first_list_under(Arc::clone(&self.readying)),
            false => watcher,
        }
    }
}

/// A target's type's place among the types asked for: the first target of its type's.
fn order_of(targets: &[Target], target: &Target) -> usize {
    targets
        .iter()
        .position(|t| t.resource == target.resource)
        .unwrap_or(0)
}

/// Where a target's watcher sits in the run.
struct At<'a> {
    /// Its index among the judge's watchers.
    index: usize,
    context: Option<&'a Arc<str>>,
    /// Events the run printed before it (a blank line goes between tables after some).
    printed: u64,
    /// The member's auxiliary watches, shown every event.
    watches: Option<&'a Arc<WatchSet>>,
}

/// Reads the reports of a run and decides when it ends: `Some(verdict)` once it has.
struct Collector {
    judge: Option<SharedJudge>,
    /// `--until` or `--fail-on` (`rollout status`, `wait`): the run ends on a verdict.
    awaits_verdict: bool,
    several: bool,
    members: usize,
    done: usize,
    printed: u64,
    failed: Option<KwError>,
    lacking: Vec<DiscoveryError>,
}

impl Collector {
    fn new(run: &Run, members: usize) -> Collector {
        Collector {
            judge: run.judge.clone(),
            awaits_verdict: run.plan.rules.has_conditions(),
            several: run.several,
            members,
            done: 0,
            printed: 0,
            failed: None,
            lacking: Vec::new(),
        }
    }

    /// Judge again what changes with time alone; `Some` when that ends the run.
    fn tick(&mut self) -> Option<Result<End, KwError>> {
        let judge = self.judge.as_ref()?;
        let ended = judge.tick(SystemTime::now());
        ended.map(|ended| Ok(End::Verdict(ended)))
    }

    fn take(&mut self, news: MemberNews) -> Option<Result<End, KwError>> {
        let (context, error) = match news {
            MemberNews::Child(workload, child, trouble) => {
                let judge = self.judge.as_ref()?;
                let ended = judge.child_trouble(&workload, &child, trouble, SystemTime::now());
                return ended.map(|ended| Ok(End::Verdict(ended)));
            }
            MemberNews::Done => {
                self.done += 1;
                return (self.done >= self.members).then(|| self.all_done());
            }
            MemberNews::Lacking(error) => {
                self.lacking.push(error);
                return None;
            }
            MemberNews::Failed(context, error) => (context, error),
            MemberNews::Watcher(context, result) => match result {
                Ok(watched) if watched.stopped => {
                    // The judge's record: this watcher may be one that was only told to stop
                    // because another one's objects met the condition.
                    let recorded = self.judge.as_ref().and_then(SharedJudge::ended);
                    return Some(Ok(End::Verdict(recorded.unwrap_or(Verdict::Elsewhere))));
                }
                Ok(watched) => {
                    self.printed += watched.printed;
                    return None;
                }
                Err(WatchError::Output(e)) if is_closed_pipe(&e) => {
                    // Quiet for a stream; a verdict not reached is not a success.
                    let met = self.judge.as_ref().and_then(SharedJudge::ended);
                    let verdict_lost =
                        self.awaits_verdict && !matches!(met, Some(Verdict::Until { .. }));
                    return Some(Ok(End::ClosedPipe { verdict_lost }));
                }
                // kubectl wait goes past a named object that does not exist, and says so
                // after the others (the judge keeps its line); the wait may be decided now.
                Err(WatchError::NotFound(_))
                    if self
                        .judge
                        .as_ref()
                        .is_some_and(SharedJudge::goes_past_missing) =>
                {
                    let ended = self.judge.as_ref().and_then(SharedJudge::ended);
                    return ended.map(|ended| Ok(End::Verdict(ended)));
                }
                Err(error) => (context, KwError::Watch(error)),
            },
        };
        let Some(context) = context.filter(|_| self.several) else {
            // kubectl's one context: its failure is the run's.
            return Some(Err(error));
        };
        let error = error.in_context(&context);
        // `--until` over every context cannot be met without this one.
        let needs_every_context = self
            .judge
            .as_ref()
            .is_some_and(SharedJudge::needs_every_context);
        if needs_every_context {
            return Some(Err(error));
        }
        report::error(&error).print();
        self.failed.get_or_insert(error);
        None
    }

    /// Every member is done.
    fn all_done(&mut self) -> Result<End, KwError> {
        if self.failed.is_none() && !self.lacking.is_empty() && self.lacking.len() == self.members {
            // No context has the type: kubectl's error, as with one context.
            return Err(KwError::Discovery(self.lacking.remove(0)));
        }
        Ok(End::Done {
            printed: self.printed,
        })
    }
}
