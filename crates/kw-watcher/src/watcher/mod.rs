//! The watcher: list, then watch from the list's resourceVersion, resume after every clean end or
//! broken connection from the last resourceVersion seen (events and bookmarks), and re-list after
//! 410 Gone/Expired, printing exactly the changes that were missed. A small explicit state machine
//! (as client-go's reflector and kube-rs's watcher are): one `Phase` (start, watching, reading a
//! streaming list), moved by one step function (`Watcher::step`), with backoff kept apart.
//!
//! It hands events to a `Sink` and knows nothing of formats or stdout. Its rooms call one way,
//! down: this cycle of requests, the reading of one stream (`stream`), streaming lists
//! (`streaming`), LISTs (`list`), each over the `WatchState` it is handed (`state`).

mod ends;
mod error;
pub mod known;
mod left_selector;
mod list;
pub mod namespace_access;
pub mod namespaces;
mod options;
mod pacing;
mod request;
mod state;
mod stream;
mod streaming;

use std::sync::Arc;
use std::time::{Duration, Instant};

use kw_base::log;
use kw_base::parking::Parked;
use kw_base::permits::Permits;
use kw_base::vlog;
use kw_client::client::{Client, ClientError};
use kw_events::events::{Origin, Sink};
use kw_wire::Status;

pub use ends::WatcherReport;
pub use error::WatchError;
pub use known::Known;
pub use list::MAX_LIST_PAGES;
pub use options::Options;
pub use request::Target;

use kw_events::events::Reconnects;

use ends::{end_of_sync, Interrupted, StreamEnd};
use list::SyncError;
use pacing::{retry_pause, wait_parked};
use state::{ClientRef, Mode, Phase, WatchState};
use stream::{OpenStream, StreamStep};
use streaming::MAX_STREAMING_FAILURES;

/// Where a watch that may park has got to.
pub enum Progress {
    /// It ended (the deadline, the sink, or a failure), as `run` would have.
    Finished(WatcherReport),
    /// Its stream has been silent for a while, with nothing read and not handled: resume it
    /// (`run_parkable` again) once the socket is readable, or at `wake_at`.
    Parked(Parked),
}

pub struct Watcher<'c> {
    state: WatchState<'c>,
    phase: Phase,
    /// Where this watcher counts its reconnects (its own count unless given the run's).
    reconnects: Reconnects,
    /// Park a stream silent this long (`run_parkable`); never when `None`.
    park_after: Option<Duration>,
    /// The stream being read, between the turns of a parked watch.
    open: Option<OpenStream>,
    /// A watch was opened before (the next one is a reconnect).
    opened_before: bool,
    /// The first LIST is read under one of these (a fleet's members, a few at a time).
    first_list: Option<Arc<Permits>>,
}

impl<'c> Watcher<'c> {
    pub fn new(client: &'c Client, target: Target, options: Options) -> Watcher<'c> {
        Watcher::with_client(ClientRef::Borrowed(client), target, options)
    }

    fn with_client(client: ClientRef<'c>, target: Target, options: Options) -> Watcher<'c> {
        Watcher {
            state: WatchState::new(client, target, options),
            phase: Phase::Start,
            reconnects: Reconnects::default(),
            park_after: None,
            open: None,
            opened_before: false,
            first_list: None,
        }
    }

    /// Read the first LIST under one of `permits` (a streaming list, which is a watch, is
    /// not held back).
    pub fn first_list_under(mut self, permits: Arc<Permits>) -> Self {
        self.first_list = Some(permits);
        self
    }

    /// A watcher that holds its client (`Arc`), so that it can be moved to another thread
    /// between turns (`run_parkable`).
    pub fn sharing(client: Arc<Client>, target: Target, options: Options) -> Watcher<'static> {
        Watcher::with_client(ClientRef::Shared(client), target, options)
    }

    /// Let `run_parkable` park the stream once it has been silent for `after` with nothing
    /// buffered above its socket.
    pub fn parking_after(mut self, after: Duration) -> Self {
        self.park_after = Some(after);
        self
    }

    /// Count this watcher's reconnects in `reconnects` (shared with the rest of the run).
    pub fn counting_reconnects_in(mut self, reconnects: &Reconnects) -> Watcher<'c> {
        self.reconnects = reconnects.clone();
        self
    }

    /// List (and with `watch`, watch until the deadline or forever).
    pub fn run(&mut self, sink: &mut dyn Sink) -> Result<WatcherReport, WatchError> {
        loop {
            match self.run_parkable(sink)? {
                Progress::Finished(watched) => return Ok(watched),
                // Only with `parking_after`: this thread waits for the stream itself.
                Progress::Parked(parked) => wait_parked(parked),
            }
        }
    }

    /// `run`, in turns when `parking_after` allows: a stream silent for that long, with
    /// nothing buffered above its socket, parks, and the watcher (moved anywhere) resumes it
    /// with `run_parkable` again once its socket is readable or its `wake_at` has come. A watch
    /// under a selector never parks (its checker of objects that left the selector is a thread
    /// of the watch's own).
    pub fn run_parkable(&mut self, sink: &mut dyn Sink) -> Result<Progress, WatchError> {
        match self.run_selected(sink) {
            Ok(progress) => Ok(progress),
            Err(Interrupted::Stopped) => Ok(Progress::Finished(WatcherReport {
                stopped: true,
                ..self.report()
            })),
            Err(Interrupted::Failed(e)) => Err(e),
        }
    }

    fn run_selected(&mut self, sink: &mut dyn Sink) -> Result<Progress, Interrupted> {
        let selected = self.state.target.label_selector.is_some()
            || self.state.target.field_selector.is_some();
        if !(self.state.options.watch && selected) {
            return self.run_here(sink);
        }
        let client = self.state.client.clone();
        std::thread::scope(|scope| {
            let (checks, checker) = left_selector::channel();
            scope.spawn(move || checker.run(&client));
            self.state.left_selector = Some(checks);
            let result = loop {
                match self.run_here(sink) {
                    Ok(Progress::Parked(parked)) => wait_parked(parked),
                    other => break other,
                }
            };
            // Ends the checker (after the request in flight, if any).
            self.state.left_selector = None;
            result
        })
    }

    fn run_here(&mut self, sink: &mut dyn Sink) -> Result<Progress, Interrupted> {
        loop {
            if let Some(progress) = self.step(sink)? {
                return Ok(progress);
            }
        }
    }

    /// One step of the cycle, from the phase the watcher is in: the first list from `Start`,
    /// else one watch request (or the rest of a parked stream) and what its end calls for (a
    /// resume, a pause, a re-list). `Some` once the watch has finished or parked.
    fn step(&mut self, sink: &mut dyn Sink) -> Result<Option<Progress>, Interrupted> {
        match self.phase {
            Phase::Start => self.begin(sink),
            Phase::Watching { .. } | Phase::StreamingSync(_) => self.watch_step(sink),
        }
    }

    /// The first step: the named GET, the LIST, or the start of a streaming list.
    fn begin(&mut self, sink: &mut dyn Sink) -> Result<Option<Progress>, Interrupted> {
        self.phase = Phase::Watching { lost_since: None };
        if !self.state.options.watch && !self.state.target.names.is_empty() {
            return list::get_named(&mut self.state, sink).map(|()| Some(self.finished()));
        }
        if self.state.target.names.len() > 1 {
            return Err(WatchError::TooManyNames(self.state.target.names.len()).into());
        }
        if self.state.options.watch && self.state.options.named_must_exist {
            list::check_named_exists(&self.state)?;
        }
        let print_list = self.state.options.print_list;
        if self.state.mode == Mode::StreamingObjects {
            let now = Instant::now();
            streaming::begin(
                &mut self.state,
                &mut self.phase,
                Origin::List,
                print_list,
                now,
            );
            return Ok(None);
        }
        let permits = self.first_list.clone();
        let permit = permits.as_deref().map(Permits::take);
        let listed = list::sync(&mut self.state, sink, Origin::List, print_list, true);
        drop(permit);
        match listed {
            Ok(()) => {}
            Err(SyncError::Deadline) => return Ok(Some(self.finished())),
            Err(SyncError::Fatal(e)) => return Err(e),
        }
        end_of_sync(sink)?;
        if !self.state.options.watch {
            return Ok(Some(self.finished()));
        }
        list::say_if_namespace_missing(&self.state);
        Ok(None)
    }

    fn finished(&self) -> Progress {
        Progress::Finished(self.report())
    }

    fn report(&self) -> WatcherReport {
        WatcherReport {
            printed: self.state.printed,
            stopped: false,
        }
    }

    /// One watch request (or the rest of a parked stream), and what its end calls for.
    fn watch_step(&mut self, sink: &mut dyn Sink) -> Result<Option<Progress>, Interrupted> {
        if self.open.is_none() {
            if self.opened_before {
                self.reconnects.one_more();
            }
            self.opened_before = true;
            if let Some(pending) = self.phase.syncing() {
                if pending.failed_attempts >= MAX_STREAMING_FAILURES {
                    // A connection that never lasts long enough for the whole state to
                    // stream can still serve a LIST in pages.
                    if let Some(StreamEnd::Deadline) = streaming::fall_back_to_list(
                        &mut self.state,
                        &mut self.phase,
                        sink,
                        pending,
                    )? {
                        return Ok(Some(self.finished()));
                    }
                }
            }
        }
        let (end, events, started) = match self.watch_once(sink)? {
            StreamStep::Parked(parked) => return Ok(Some(Progress::Parked(parked))),
            StreamStep::Ended {
                end,
                events,
                started,
            } => (end, events, started),
        };
        // A streaming list begins only between steps (the first, an expired watch), so one
        // still pending was pending before this attempt too, and the attempt did not finish it.
        if let Phase::StreamingSync(pending) = &mut self.phase {
            pending.failed_attempts += 1;
        }
        match end {
            StreamEnd::Deadline => return Ok(Some(self.finished())),
            StreamEnd::Clean => {
                if events == 0 && started.elapsed() < Duration::from_secs(1) {
                    // A server that ends every watch at once must not be hammered.
                    let pause = self.state.backoff.failed(Instant::now());
                    vlog!(
                        log::REQUESTS,
                        "watch closed after {} ms without events; waiting {} ms",
                        started.elapsed().as_millis(),
                        pause.as_millis()
                    );
                    if self.state.sleep(pause) {
                        return Ok(Some(self.finished()));
                    }
                } else {
                    vlog!(
                        log::REQUESTS,
                        "watch ended; resuming from resourceVersion {}",
                        self.state.resource_version
                    );
                }
                if let Phase::Watching { lost_since } = &mut self.phase {
                    *lost_since = None;
                }
            }
            StreamEnd::Broken { pause } => {
                if let Phase::Watching { lost_since } = &mut self.phase {
                    lost_since.get_or_insert(started);
                }
                vlog!(
                    log::REQUESTS,
                    "waiting {} ms before resuming from resourceVersion {}",
                    pause.as_millis(),
                    self.state.resource_version
                );
                if self.state.sleep(pause) {
                    return Ok(Some(self.finished()));
                }
            }
            StreamEnd::Expired => {
                let since = match self.phase {
                    Phase::Watching { lost_since } => lost_since.unwrap_or(started),
                    Phase::StreamingSync(pending) => pending.since,
                    // A watch comes only after the start.
                    Phase::Start => started,
                };
                if self.state.mode == Mode::StreamingObjects {
                    vlog!(
                        log::REQUESTS,
                        "watch expired; re-listing with a streaming list"
                    );
                    streaming::begin(
                        &mut self.state,
                        &mut self.phase,
                        Origin::Relist,
                        true,
                        since,
                    );
                    return Ok(None);
                }
                self.phase = Phase::Watching { lost_since: None };
                let before = self.state.printed;
                match list::sync(&mut self.state, sink, Origin::Relist, true, false) {
                    Ok(()) => {}
                    Err(SyncError::Deadline) => return Ok(Some(self.finished())),
                    Err(SyncError::Fatal(e)) => return Err(e),
                }
                end_of_sync(sink)?;
                self.state.relist_notice(since, before);
            }
        }
        Ok(None)
    }

    /// One watch request, or the stream of the last one (a parked watch resumed): how it
    /// ended, or that it parked.
    fn watch_once(&mut self, sink: &mut dyn Sink) -> Result<StreamStep, Interrupted> {
        if self.open.is_none() {
            let started = Instant::now();
            if let Some((end, events)) = self.open_stream(sink, started)? {
                return Ok(StreamStep::Ended {
                    end,
                    events,
                    started,
                });
            }
        }
        // Taken while it is read: every way out of the loop but parking ends it.
        let Some(mut open) = self.open.take() else {
            return Ok(StreamStep::Ended {
                end: StreamEnd::Broken {
                    pause: Duration::ZERO,
                },
                events: 0,
                started: Instant::now(),
            });
        };
        let step = stream::read(
            &mut self.state,
            &mut self.phase,
            &mut open,
            self.park_after,
            sink,
        );
        if let Ok(StreamStep::Parked(_)) = step {
            self.open = Some(open);
        }
        step
    }

    /// Make a watch request and keep its stream in `open`; how the watch ended when it did
    /// before a stream opened.
    fn open_stream(
        &mut self,
        sink: &mut dyn Sink,
        started: Instant,
    ) -> Result<Option<(StreamEnd, u64)>, Interrupted> {
        if self.state.deadline_passed() {
            return Ok(Some((StreamEnd::Deadline, 0)));
        }
        // Spread reconnects of many clients over time, as client-go does; kube-rs stays under 295.
        let mut timeout_secs = 290 + (self.state.backoff.random_unit() * 310.0) as u64;
        if let Some(deadline) = self.state.options.deadline {
            // A stream that goes silent within the idle timeout of the deadline would be noticed
            // only after it (reads wait that long), so the server ends streams by then; the last
            // one reads with the time left as its timeout (see `Client::stream`).
            let left = deadline.saturating_duration_since(Instant::now());
            let idle = self.state.client.idle_timeout();
            let planned = if left > idle { left - idle } else { left };
            timeout_secs = timeout_secs.min(planned.as_secs() + 1);
        }
        let path = match self.phase.syncing() {
            Some(_) => self
                .state
                .target
                .streaming_list_path(&self.state.resource_version, timeout_secs),
            None => self
                .state
                .target
                .watch_path(&self.state.resource_version, timeout_secs),
        };
        let stream = match self.state.client.stream_parkable(
            &path,
            self.state.accept(),
            self.state.options.deadline,
        ) {
            Ok(stream) => {
                kw_base::notices::recovered();
                stream
            }
            Err(error) => {
                if let Some(pending) = self.phase.syncing() {
                    if matches!(error.status_code(), Some(400 | 403 | 422)) {
                        return match streaming::fall_back_to_list(
                            &mut self.state,
                            &mut self.phase,
                            sink,
                            pending,
                        )? {
                            Some(end) => Ok(Some((end, 0))),
                            // Not an empty watch: the LIST stood in for it.
                            None => Ok(Some((StreamEnd::Clean, 1))),
                        };
                    }
                    let unreachable = matches!(
                        error,
                        ClientError::Unreachable { .. } | ClientError::Tls { .. }
                    );
                    if pending.origin == Origin::List
                        && self.state.printed == 0
                        && unreachable
                        && self.state.options.give_up_at_start
                    {
                        // A typo in the server address should fail at once, as a LIST would.
                        return Err(error.into());
                    }
                }
                return self.watch_request_failed(error).map(|end| Some((end, 0)));
            }
        };
        if self.phase.syncing().is_some() {
            // Each attempt reads the whole state again; objects seen by a failed attempt are
            // recognised as unchanged.
            self.state.known.begin_sync();
        }
        self.open = Some(OpenStream::new(
            stream,
            self.state.options.max_object_size,
            started,
            self.state.client.idle_timeout(),
        ));
        Ok(None)
    }

    fn watch_request_failed(&mut self, error: ClientError) -> Result<StreamEnd, Interrupted> {
        if self.state.deadline_passed() {
            return Ok(StreamEnd::Deadline);
        }
        if error.status_code() == Some(406) && self.state.tables() {
            self.state.tables_unavailable();
            return Ok(StreamEnd::Broken {
                pause: Duration::ZERO,
            });
        }
        if let ClientError::Status { code, status, .. } = &error {
            if *code == 410 || status.as_deref().is_some_and(Status::is_expired) {
                return Ok(StreamEnd::Expired);
            }
        }
        match retry_pause(&error, &mut self.state.backoff) {
            Some(pause) => {
                kw_base::notices::trouble(&format!(
                    "{error}; retrying in {:.1}s",
                    pause.as_secs_f64()
                ));
                Ok(StreamEnd::Broken { pause })
            }
            None => Err(error.into()),
        }
    }
}
