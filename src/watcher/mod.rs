//! The watcher: list, then watch from the list's resourceVersion, resume after every clean end or
//! broken connection from the last resourceVersion seen (events and bookmarks), and re-list after
//! 410 Gone/Expired, printing exactly the changes that were missed. A small explicit state machine
//! (as client-go's reflector and kube-rs's watcher are), with backoff kept apart in `backoff`.
//!
//! It hands events to a `Sink` and knows nothing of formats or stdout.

pub mod known;
mod left_selector;
mod list;
pub mod namespace_access;
pub mod namespaces;
mod request;
mod streaming;

use std::io::{self, Read};
use std::sync::Arc;
use std::time::{Duration, Instant};

use serde_json::value::RawValue;

use crate::client::backoff::Backoff;
use crate::client::probe::Probe;
use crate::client::{Client, ClientError};
use crate::decode::{self, DecodeError, Framer, ListBody, ObjectHead, TableBody, WireEvent};
use crate::events::{Event, Flow, Origin, ResourceInfo, Sink, TableRow};
use crate::log;
use crate::parking::Parked;
use crate::permits::Permits;
use crate::vlog;
use crate::wire::{EventType, Status, TableColumnDefinition, TABLE_ACCEPT};

pub use known::Known;
use known::{KnownObject, Listed, Seen};
pub use request::Target;

/// The end of a complete list: write it out, then say it is complete.
fn end_of_sync(sink: &mut dyn Sink) -> Result<(), Interrupted> {
    flow(sink.checkpoint(false))?;
    flow(sink.synced())
}

/// A sink's answer, for `?`: stop when it says so, fail when it failed.
fn flow(answer: io::Result<Flow>) -> Result<(), Interrupted> {
    match answer {
        Ok(Flow::Continue) => Ok(()),
        Ok(Flow::Stop) => Err(Interrupted::Stopped),
        Err(e) => Err(Interrupted::Failed(WatchError::Output(e))),
    }
}

/// Why the watcher's work ends before its time: the sink said stop, or something failed.
/// Private: `run` turns it into a `WatcherReport` or a `WatchError`.
#[derive(Debug)]
enum Interrupted {
    Stopped,
    Failed(WatchError),
}

impl From<WatchError> for Interrupted {
    fn from(e: WatchError) -> Interrupted {
        Interrupted::Failed(e)
    }
}

impl From<ClientError> for Interrupted {
    fn from(e: ClientError) -> Interrupted {
        Interrupted::Failed(e.into())
    }
}

impl From<DecodeError> for Interrupted {
    fn from(e: DecodeError) -> Interrupted {
        Interrupted::Failed(e.into())
    }
}

/// How to watch.
#[derive(Debug, Clone)]
pub struct Options {
    /// Ask the server for Tables (human output) rather than objects.
    pub table: bool,
    /// Page size of lists; 0 means one request.
    pub chunk_size: u64,
    /// Keep watching after the list.
    pub watch: bool,
    /// Print the initial list (false with `--watch-only`).
    pub print_list: bool,
    /// Stop quietly at this moment (`--request-timeout` while watching, as kubectl).
    pub deadline: Option<Instant>,
    /// Refuse any single value larger than this.
    pub max_object_size: usize,
    /// A named object must exist when a watch starts (kubectl's rule); false when waiting for
    /// it to be created is the point (`--until`/`--fail-on`).
    pub named_must_exist: bool,
    /// A server that cannot be reached, or keeps failing, before the first list ends the run (a
    /// typo in the address fails at once). False in a run over several contexts: there a
    /// cluster that is down at the start is waited for while the others are watched.
    pub give_up_at_start: bool,
    /// Get the initial state from a streaming list (`sendInitialEvents=true`) instead of a LIST,
    /// falling back to LIST + WATCH when the server refuses. Never with tables (kubernetes#126206).
    pub streaming_list: bool,
}

/// What kw asks the server for. The server's answers only ever move it down this list: from
/// `Tables` to `Objects` when a server cannot print tables, from `StreamingObjects` to `Objects`
/// when it refuses streaming lists or they keep breaking.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Mode {
    /// Tables (human output), the state from LIST + WATCH (never a streaming list:
    /// kubernetes#126206).
    Tables,
    /// Objects, the state from a streaming list (`sendInitialEvents=true`).
    StreamingObjects,
    /// Objects, the state from LIST + WATCH.
    Objects,
}

/// Where the watcher is in its cycle.
#[derive(Debug, Clone, Copy)]
enum Phase {
    /// Following changes from the resourceVersion seen last. `lost_since`: when the connection
    /// broke, if it has broken since the last clean end (the re-list notice says how long kw was
    /// away).
    Watching { lost_since: Option<Instant> },
    /// Reading the whole state as the first events of a watch stream (a streaming list), until
    /// the end-of-initial-events bookmark.
    StreamingSync(PendingSync),
}

/// A list being read as the first events of a watch stream (a streaming list).
#[derive(Debug, Clone, Copy)]
struct PendingSync {
    origin: Origin,
    print: bool,
    /// When kw lost track (for the re-list notice).
    since: Instant,
    printed_before: u64,
    /// Attempts that ended before the end bookmark, in a row.
    failed_attempts: u32,
}

#[derive(Debug, thiserror::Error)]
pub enum WatchError {
    #[error(transparent)]
    Client(#[from] ClientError),
    /// Writing the output failed (a closed pipe is the common case).
    #[error("writing output: {0}")]
    Output(#[source] io::Error),
    #[error("the server sent a response kw cannot read for {path}: {reason}")]
    BadResponse { path: String, reason: String },
    #[error(transparent)]
    Decode(#[from] DecodeError),
    #[error("the server sent an object of more than {limit} bytes in the list {path} (the limit is --max-object-size)")]
    ItemTooLarge { path: String, limit: usize },
    /// The server answered page after page with a new continue token (or expired the token
    /// again and again): a list that never ends is refused rather than read for ever.
    #[error("the server sent more than {pages} pages for the list {path} (each with a continue token): kw stops there")]
    TooManyPages { path: String, pages: u32 },
    #[error("watch is only supported on individual resources and resource collections, but {0} resources were found")]
    TooManyNames(usize),
    /// Some named objects do not exist (the ones that do were printed).
    #[error("{} objects not found", .0.len())]
    NotFound(Vec<ClientError>),
}

/// The pages one list may take, restarts after an expired continue token included: 10,000
/// pages of `--chunk-size` 500 is five million objects, past any real cluster.
pub const MAX_LIST_PAGES: u32 = 10_000;

/// Streaming lists cut short this many times in a row make kw use LIST + WATCH instead.
const MAX_STREAMING_FAILURES: u32 = 2;

/// How the stream of one watch request ended (the watcher goes on after any of these but
/// `Deadline`).
enum StreamEnd {
    /// The server closed the stream cleanly (timeoutSeconds, or its own timeout).
    Clean,
    /// 410: the resourceVersion is too old; the history is gone.
    Expired,
    /// The connection broke, went silent or carried garbage; resume after a pause.
    Broken { pause: Duration },
    /// The deadline passed.
    Deadline,
}

/// Watches opened again after one ended (the server's timeout, a broken connection, an
/// expired version), counted over every watcher handed the same counter: the runner makes one
/// per run and the live view's footer shows it. Clones share the count.
#[derive(Debug, Clone, Default)]
pub struct Reconnects(std::sync::Arc<std::sync::atomic::AtomicU64>);

impl Reconnects {
    /// How many times the watchers counted here have reconnected.
    pub fn count(&self) -> u64 {
        self.0.load(std::sync::atomic::Ordering::Relaxed)
    }

    fn one_more(&self) {
        self.0.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    }
}

/// What a watcher tells its runner when it is done: how many events it printed (for messages
/// such as "No resources found"), and whether its sink stopped it.
#[derive(Debug, Default, Clone, Copy)]
pub struct WatcherReport {
    pub printed: u64,
    /// The sink stopped the watch (a condition met, a limit reached).
    pub stopped: bool,
}

/// The client a watcher reads through: borrowed, or shared (a watcher that outlives the stack
/// that made it: a parked watch, resumed on another thread).
#[derive(Clone)]
enum ClientRef<'c> {
    Borrowed(&'c Client),
    Shared(Arc<Client>),
}

impl std::ops::Deref for ClientRef<'_> {
    type Target = Client;

    fn deref(&self) -> &Client {
        match self {
            ClientRef::Borrowed(client) => client,
            ClientRef::Shared(client) => client,
        }
    }
}

/// A watch stream being read, kept between the turns of a watch that parks.
struct OpenStream {
    framer: Framer<Box<dyn Read + Send + Sync>>,
    /// What its connection buffers, when that can be seen whole.
    probe: Option<Arc<Probe>>,
    events: u64,
    /// When the request was made.
    started: Instant,
    /// When bytes last came in (as far as kw looked: the last wait that saw the socket
    /// readable, or that followed frames).
    heard: Instant,
    /// Frames were read since the last wait.
    fresh: bool,
}

/// Where a watch that may park has got to.
pub enum Progress {
    /// It ended (the deadline, the sink, or a failure), as `run` would have.
    Finished(WatcherReport),
    /// Its stream has been silent for a while, with nothing read and not handled: resume it
    /// (`run_parkable` again) once the socket is readable, or at `wake_at`.
    Parked(Parked),
}

/// How reading a stream stopped.
enum StreamStep {
    Ended {
        end: StreamEnd,
        events: u64,
        started: Instant,
    },
    Parked(Parked),
}

pub struct Watcher<'c> {
    client: ClientRef<'c>,
    target: Target,
    options: Options,
    known: Known,
    columns: Vec<TableColumnDefinition>,
    /// The generation of `columns` (`events::next_column_generation`), new with every set.
    columns_generation: u64,
    /// The last resourceVersion seen: the list's, then every event's and bookmark's.
    resource_version: String,
    backoff: Backoff,
    printed: u64,
    mode: Mode,
    phase: Phase,
    /// Where DELETED events under a selector go to be told apart from deletions (while a watch
    /// with a selector runs).
    left_selector: Option<left_selector::LeftSelectorChecks>,
    /// Where this watcher counts its reconnects (its own count unless given the run's).
    reconnects: Reconnects,
    /// Park a stream silent this long (`run_parkable`); never when `None`.
    park_after: Option<Duration>,
    /// The stream being read, between the turns of a parked watch.
    open: Option<OpenStream>,
    /// The first list is done (a resumed watch goes straight back to its stream).
    begun: bool,
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
        let keep_cells = options.table;
        let mode = if options.table {
            Mode::Tables
        } else if options.streaming_list && options.watch {
            Mode::StreamingObjects
        } else {
            Mode::Objects
        };
        Watcher {
            mode,
            phase: Phase::Watching { lost_since: None },
            client,
            target,
            options,
            known: Known::new(keep_cells),
            columns: Vec::new(),
            columns_generation: 0,
            resource_version: String::new(),
            backoff: Backoff::default(),
            printed: 0,
            left_selector: None,
            reconnects: Reconnects::default(),
            park_after: None,
            open: None,
            begun: false,
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

    /// The server prints Tables for this type (until it answers with plain objects: an
    /// aggregated API that cannot print, and the printer lays the rows out itself).
    fn tables(&self) -> bool {
        self.mode == Mode::Tables
    }

    /// The streaming list being read, if one is.
    fn syncing(&self) -> Option<PendingSync> {
        match self.phase {
            Phase::StreamingSync(pending) => Some(pending),
            Phase::Watching { .. } => None,
        }
    }

    fn accept(&self) -> &'static str {
        if self.tables() {
            TABLE_ACCEPT
        } else {
            "application/json"
        }
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
        let selected = self.target.label_selector.is_some() || self.target.field_selector.is_some();
        if !(self.options.watch && selected) {
            return self.run_here(sink);
        }
        let client = self.client.clone();
        std::thread::scope(|scope| {
            let (checks, checker) = left_selector::channel();
            scope.spawn(move || checker.run(&client));
            self.left_selector = Some(checks);
            let result = loop {
                match self.run_here(sink) {
                    Ok(Progress::Parked(parked)) => wait_parked(parked),
                    other => break other,
                }
            };
            // Ends the checker (after the request in flight, if any).
            self.left_selector = None;
            result
        })
    }

    fn run_here(&mut self, sink: &mut dyn Sink) -> Result<Progress, Interrupted> {
        if self.begun {
            return self.watch_forever(sink);
        }
        self.begun = true;
        if !self.options.watch && !self.target.names.is_empty() {
            return self.get_named(sink).map(Progress::Finished);
        }
        if self.target.names.len() > 1 {
            return Err(WatchError::TooManyNames(self.target.names.len()).into());
        }
        if self.options.watch && self.options.named_must_exist {
            self.check_named_exists()?;
        }
        let print_list = self.options.print_list;
        if self.mode == Mode::StreamingObjects {
            self.begin_streaming_sync(Origin::List, print_list, Instant::now());
            return self.watch_forever(sink);
        }
        let permits = self.first_list.clone();
        let permit = permits.as_deref().map(Permits::take);
        let listed = self.sync(sink, Origin::List, print_list, true);
        drop(permit);
        match listed {
            Ok(()) => {}
            Err(SyncError::Deadline) => return Ok(self.finished()),
            Err(SyncError::Fatal(e)) => return Err(e),
        }
        end_of_sync(sink)?;
        if !self.options.watch {
            return Ok(self.finished());
        }
        self.say_if_namespace_missing();
        self.watch_forever(sink)
    }

    fn finished(&self) -> Progress {
        Progress::Finished(self.report())
    }

    fn report(&self) -> WatcherReport {
        WatcherReport {
            printed: self.printed,
            stopped: false,
        }
    }

    /// Watch until the deadline (or for ever), or until the stream parks.
    fn watch_forever(&mut self, sink: &mut dyn Sink) -> Result<Progress, Interrupted> {
        loop {
            if self.open.is_none() {
                if self.opened_before {
                    self.reconnects.one_more();
                }
                self.opened_before = true;
                if let Some(pending) = self.syncing() {
                    if pending.failed_attempts >= MAX_STREAMING_FAILURES {
                        // A connection that never lasts long enough for the whole state to
                        // stream can still serve a LIST in pages.
                        if let Some(StreamEnd::Deadline) = self.fall_back_to_list(sink, pending)? {
                            return Ok(self.finished());
                        }
                    }
                }
            }
            let (end, events, started) = match self.watch_once(sink)? {
                StreamStep::Parked(parked) => return Ok(Progress::Parked(parked)),
                StreamStep::Ended {
                    end,
                    events,
                    started,
                } => (end, events, started),
            };
            // Only `watch_forever` begins a streaming list, so one still pending was pending
            // before this attempt too, and the attempt did not finish it.
            if let Phase::StreamingSync(pending) = &mut self.phase {
                pending.failed_attempts += 1;
            }
            match end {
                StreamEnd::Deadline => return Ok(self.finished()),
                StreamEnd::Clean => {
                    if events == 0 && started.elapsed() < Duration::from_secs(1) {
                        // A server that ends every watch at once must not be hammered.
                        let pause = self.backoff.failed(Instant::now());
                        vlog!(
                            log::REQUESTS,
                            "watch closed after {} ms without events; waiting {} ms",
                            started.elapsed().as_millis(),
                            pause.as_millis()
                        );
                        if self.sleep(pause) {
                            return Ok(self.finished());
                        }
                    } else {
                        vlog!(
                            log::REQUESTS,
                            "watch ended; resuming from resourceVersion {}",
                            self.resource_version
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
                        self.resource_version
                    );
                    if self.sleep(pause) {
                        return Ok(self.finished());
                    }
                }
                StreamEnd::Expired => {
                    let since = match self.phase {
                        Phase::Watching { lost_since } => lost_since.unwrap_or(started),
                        Phase::StreamingSync(pending) => pending.since,
                    };
                    if self.mode == Mode::StreamingObjects {
                        vlog!(
                            log::REQUESTS,
                            "watch expired; re-listing with a streaming list"
                        );
                        self.begin_streaming_sync(Origin::Relist, true, since);
                        continue;
                    }
                    self.phase = Phase::Watching { lost_since: None };
                    let before = self.printed;
                    match self.sync(sink, Origin::Relist, true, false) {
                        Ok(()) => {}
                        Err(SyncError::Deadline) => return Ok(self.finished()),
                        Err(SyncError::Fatal(e)) => return Err(e),
                    }
                    end_of_sync(sink)?;
                    self.relist_notice(since, before);
                }
            }
        }
    }

    fn relist_notice(&self, since: Instant, printed_before: u64) {
        let missed = self.printed - printed_before;
        log::notice(&format!(
            "the watch of {} expired (410): re-listed after {} away and printed {} missed change{}",
            self.target.resource.plural,
            humantime::format_duration(Duration::from_secs(since.elapsed().as_secs())),
            missed,
            if missed == 1 { "" } else { "s" }
        ));
    }

    /// Sleep unless the deadline comes first; true if it did.
    fn sleep(&self, pause: Duration) -> bool {
        match self.options.deadline {
            Some(deadline) => {
                let now = Instant::now();
                // A pause too long to add to an Instant certainly outlasts the deadline.
                if now.checked_add(pause).is_none_or(|end| end >= deadline) {
                    std::thread::sleep(deadline.saturating_duration_since(now));
                    return true;
                }
                std::thread::sleep(pause);
                false
            }
            None => {
                std::thread::sleep(pause);
                false
            }
        }
    }

    fn deadline_passed(&self) -> bool {
        self.options.deadline.is_some_and(|d| Instant::now() >= d)
    }

    // ---- watching ------------------------------------------------------------------------

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
        let step = self.read_stream(&mut open, sink);
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
        if self.deadline_passed() {
            return Ok(Some((StreamEnd::Deadline, 0)));
        }
        // Spread reconnects of many clients over time, as client-go does; kube-rs stays under 295.
        let mut timeout_secs = 290 + (self.backoff.random_unit() * 310.0) as u64;
        if let Some(deadline) = self.options.deadline {
            // A stream that goes silent within the idle timeout of the deadline would be noticed
            // only after it (reads wait that long), so the server ends streams by then; the last
            // one reads with the time left as its timeout (see `Client::stream`).
            let left = deadline.saturating_duration_since(Instant::now());
            let idle = self.client.idle_timeout();
            let planned = if left > idle { left - idle } else { left };
            timeout_secs = timeout_secs.min(planned.as_secs() + 1);
        }
        let path = match self.syncing() {
            Some(_) => self
                .target
                .streaming_list_path(&self.resource_version, timeout_secs),
            None => self.target.watch_path(&self.resource_version, timeout_secs),
        };
        let stream = match self
            .client
            .stream_parkable(&path, self.accept(), self.options.deadline)
        {
            Ok(stream) => {
                log::recovered();
                stream
            }
            Err(error) => {
                if let Some(pending) = self.syncing() {
                    if matches!(error.status_code(), Some(400 | 403 | 422)) {
                        return match self.fall_back_to_list(sink, pending)? {
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
                        && self.printed == 0
                        && unreachable
                        && self.options.give_up_at_start
                    {
                        // A typo in the server address should fail at once, as a LIST would.
                        return Err(error.into());
                    }
                }
                return self.watch_request_failed(error).map(|end| Some((end, 0)));
            }
        };
        if self.syncing().is_some() {
            // Each attempt reads the whole state again; objects seen by a failed attempt are
            // recognised as unchanged.
            self.known.begin_sync();
        }
        self.open = Some(OpenStream {
            framer: Framer::new(stream.reader, self.options.max_object_size),
            probe: stream.probe,
            events: 0,
            started,
            heard: Instant::now(),
            fresh: false,
        });
        Ok(None)
    }

    /// Read `open` until it ends, or parks.
    fn read_stream(
        &mut self,
        open: &mut OpenStream,
        sink: &mut dyn Sink,
    ) -> Result<StreamStep, Interrupted> {
        let ended = |end: StreamEnd, open: &OpenStream| StreamStep::Ended {
            end,
            events: open.events,
            started: open.started,
        };
        loop {
            if let Some(step) = self.wait_or_park(open) {
                return Ok(step);
            }
            open.fresh = true;
            let framer = &mut open.framer;
            let events = open.events;
            let (offset, frame) = match framer.next_frame_at() {
                Ok(Some(frame)) => frame,
                Ok(None) => return Ok(ended(StreamEnd::Clean, open)),
                Err(DecodeError::Io(e)) => {
                    if self.deadline_passed() {
                        return Ok(ended(StreamEnd::Deadline, open));
                    }
                    let error = self.client.broken(&e);
                    log::trouble(&format!("{error}; resuming"));
                    let pause = self.pause_after_break(events);
                    return Ok(ended(StreamEnd::Broken { pause }, open));
                }
                Err(e @ DecodeError::TooLarge { .. }) => return Err(e.into()),
                Err(e) => {
                    log::trouble(&format!("{e}; resuming"));
                    let pause = self.pause_after_break(events);
                    return Ok(ended(StreamEnd::Broken { pause }, open));
                }
            };
            if self.tables() {
                // The common case in table mode, decoded in one pass: a row of a Table.
                // Anything else (bookmarks, errors, plain objects) takes the general path.
                if let Ok(event) = decode::table_event(frame) {
                    let kind = EventType::parse(&event.kind);
                    if let (
                        Some(kind @ (EventType::Added | EventType::Modified | EventType::Deleted)),
                        "Table",
                    ) = (kind, event.object.kind.as_ref())
                    {
                        open.events += 1;
                        self.backoff.healthy(Instant::now());
                        self.table_rows(kind, event.object, offset, sink)?;
                        flow(sink.checkpoint(open.framer.has_buffered_frame()))?;
                        continue;
                    }
                }
            }
            let event = match decode::wire_event(frame) {
                Ok(event) => event,
                Err(e) => {
                    let error = DecodeError::InvalidJson {
                        offset,
                        reason: e.to_string(),
                    };
                    log::trouble(&format!("{error}; resuming"));
                    let pause = self.pause_after_break(events);
                    return Ok(ended(StreamEnd::Broken { pause }, open));
                }
            };
            open.events += 1;
            self.backoff.healthy(Instant::now());
            if let Some(end) = self.handle_event(&event, offset, sink)? {
                return Ok(ended(end, open));
            }
            flow(sink.checkpoint(open.framer.has_buffered_frame()))?;
        }
    }

    /// Before a read of a drained stream (nothing buffered above its socket; only with
    /// `parking_after`): wait for its socket that long at most. `None`: read on (the socket is
    /// readable, or parking is off, or something is buffered). A stream silent past the idle
    /// timeout is broken, as a read that waited that long; one silent for the while parks.
    fn wait_or_park(&mut self, open: &mut OpenStream) -> Option<StreamStep> {
        let (Some(after), Some(probe)) = (self.park_after, open.probe.as_ref()) else {
            return None;
        };
        let fd = probe.fd()?;
        if open.framer.has_buffered_frame() || !probe.is_drained() {
            return None;
        }
        let now = Instant::now();
        if open.fresh {
            open.heard = now;
            open.fresh = false;
        }
        let idle = self.client.idle_timeout();
        let mut wake_at = open.heard.checked_add(idle)?;
        if let Some(deadline) = self.options.deadline {
            wake_at = wake_at.min(deadline);
        }
        if crate::client::probe::wait_readable(
            fd,
            after.min(wake_at.saturating_duration_since(now)),
        ) {
            open.heard = Instant::now();
            return None;
        }
        let ended = |end: StreamEnd, open: &OpenStream| StreamStep::Ended {
            end,
            events: open.events,
            started: open.started,
        };
        if self.deadline_passed() {
            return Some(ended(StreamEnd::Deadline, open));
        }
        if open.heard.elapsed() >= idle {
            let error = self
                .client
                .broken(&io::Error::from(io::ErrorKind::TimedOut));
            log::trouble(&format!("{error}; resuming"));
            let pause = self.pause_after_break(open.events);
            return Some(ended(StreamEnd::Broken { pause }, open));
        }
        Some(StreamStep::Parked(Parked { fd, wake_at }))
    }

    /// How long to wait after a watch broke, having delivered `events` events first.
    fn pause_after_break(&mut self, events: u64) -> Duration {
        if events > 0 {
            self.backoff.progressed();
        }
        self.backoff.failed(Instant::now())
    }

    fn watch_request_failed(&mut self, error: ClientError) -> Result<StreamEnd, Interrupted> {
        if self.deadline_passed() {
            return Ok(StreamEnd::Deadline);
        }
        if error.status_code() == Some(406) && self.tables() {
            self.tables_unavailable();
            return Ok(StreamEnd::Broken {
                pause: Duration::ZERO,
            });
        }
        if let ClientError::Status { code, status, .. } = &error {
            if *code == 410 || status.as_deref().is_some_and(Status::is_expired) {
                return Ok(StreamEnd::Expired);
            }
        }
        match retry_pause(&error, &mut self.backoff) {
            Some(pause) => {
                log::trouble(&format!("{error}; retrying in {:.1}s", pause.as_secs_f64()));
                Ok(StreamEnd::Broken { pause })
            }
            None => Err(error.into()),
        }
    }

    /// One decoded watch event. Returns how the watch ends, if this event ends it.
    fn handle_event(
        &mut self,
        event: &WireEvent<'_>,
        offset: u64,
        sink: &mut dyn Sink,
    ) -> Result<Option<StreamEnd>, Interrupted> {
        let Some(kind) = EventType::parse(&event.kind) else {
            log::notice(&format!(
                "the server sent an unknown watch event type {:?} at byte {offset}; resuming",
                event.kind
            ));
            let pause = self.backoff.failed(Instant::now());
            return Ok(Some(StreamEnd::Broken { pause }));
        };
        match kind {
            EventType::Error => {
                let status: Status = serde_json::from_str(event.object.get()).unwrap_or_default();
                if status.is_expired() {
                    vlog!(log::REQUESTS, "watch expired: {}", status.message);
                    return Ok(Some(StreamEnd::Expired));
                }
                log::notice(&format!(
                    "the server reported an error on the watch: {}; resuming",
                    if status.message.is_empty() {
                        event.object.get()
                    } else {
                        &status.message
                    }
                ));
                let pause = self.backoff.failed(Instant::now());
                Ok(Some(StreamEnd::Broken { pause }))
            }
            EventType::Bookmark => {
                let rv = self.event_resource_version(event.object)?;
                self.seen_up_to(&rv);
                if self.syncing().is_some() {
                    let head: ObjectHead =
                        serde_json::from_str(event.object.get()).unwrap_or_default();
                    if head
                        .metadata
                        .has_true_annotation(crate::wire::INITIAL_EVENTS_END)
                    {
                        self.finish_streaming_sync(sink)?;
                    }
                }
                Ok(None)
            }
            EventType::Added if self.syncing().is_some() => {
                // An object of the initial state: compared with what was printed, like a LIST
                // item. Its resourceVersion is not a position in the stream: only the end
                // bookmark says where the stream is.
                let head: ObjectHead = event.head().map_err(|e| self.bad_event(offset, e))?;
                let seen = seen_of(&head, None);
                let change = self.known.listed(&seen);
                let (origin, print) = self
                    .syncing()
                    .map(|p| (p.origin, p.print))
                    .unwrap_or((Origin::List, true));
                if print {
                    if let Some(kind) = listed_event(change) {
                        self.emit(sink, kind, origin, event.object, &head, None, false)?;
                    }
                }
                Ok(None)
            }
            EventType::Added | EventType::Modified | EventType::Deleted => {
                if self.tables() && !is_table(event.object.get().as_bytes()) {
                    self.tables_unavailable();
                }
                if self.tables() {
                    let table: TableBody = serde_json::from_str(event.object.get())
                        .map_err(|e| self.bad_event(offset, e))?;
                    self.table_rows(kind, table, offset, sink)?;
                } else {
                    let head: ObjectHead = event.head().map_err(|e| self.bad_event(offset, e))?;
                    let seen = seen_of(&head, None);
                    if self.known.watched(kind, &seen) {
                        self.emit(sink, kind, Origin::Watch, event.object, &head, None, false)?;
                    }
                    self.note_if_left_selector(kind, &head);
                    self.seen_up_to(&head.metadata.resource_version);
                }
                Ok(None)
            }
        }
    }

    /// The rows of one Table watch event (one row, as servers send them).
    fn table_rows(
        &mut self,
        kind: EventType,
        table: TableBody<'_>,
        offset: u64,
        sink: &mut dyn Sink,
    ) -> Result<(), Interrupted> {
        if let Some(columns) = table.column_definitions {
            self.take_columns(columns);
        }
        for row in &table.rows {
            let object = row.object.unwrap_or(RawValue::NULL);
            let head: ObjectHead = row.head().unwrap_or_default();
            let cells = row
                .printed_cells(self.columns.len())
                .map_err(|e| self.bad_event(offset, e))?;
            let seen = seen_of(&head, Some(&cells));
            if self.known.watched(kind, &seen) {
                self.emit(
                    sink,
                    kind,
                    Origin::Watch,
                    object,
                    &head,
                    Some(&cells),
                    false,
                )?;
            }
            self.note_if_left_selector(kind, &head);
            self.seen_up_to(&head.metadata.resource_version);
        }
        self.seen_up_to(&table.metadata.resource_version);
        Ok(())
    }

    /// New column definitions from the server (empty ones keep the old).
    fn take_columns(&mut self, columns: Vec<TableColumnDefinition>) {
        if !columns.is_empty() {
            self.columns = columns;
            self.columns_generation = crate::events::next_column_generation();
        }
    }

    /// The resourceVersion kw has seen up to, moved by the watch stream: every event and
    /// bookmark passes here (an empty one says nothing and changes nothing). A LIST sets it
    /// outright (`list`), and a streaming sync starts it afresh (`streaming`).
    fn seen_up_to(&mut self, resource_version: &str) {
        if !resource_version.is_empty() {
            self.resource_version.clear();
            self.resource_version.push_str(resource_version);
        }
    }

    /// The server answered a Table request with plain objects (or refused it with 406): from now
    /// on kw asks for objects, and the printer lays the rows out itself, as kubectl does.
    fn tables_unavailable(&mut self) {
        if self.tables() {
            self.mode = Mode::Objects;
            log::notice(&format!(
                "the server cannot print tables for {}; kw lays them out itself",
                self.target.resource.plural
            ));
        }
    }

    /// Under a selector, DELETED also means "no longer matches": hand it to the checker
    /// (`left_selector`), which tells the user when the object still exists.
    fn note_if_left_selector(&self, kind: EventType, head: &ObjectHead<'_>) {
        let Some(checks) = &self.left_selector else {
            return;
        };
        if kind != EventType::Deleted || !self.target.shows(&head.metadata.namespace) {
            return;
        }
        let path = self
            .target
            .object_path_in(&head.metadata.namespace, &head.metadata.name);
        let label = format!("{}/{}", self.target.resource.singular, head.metadata.name);
        checks.check(path, label);
    }

    fn bad_event(&self, offset: u64, e: serde_json::Error) -> WatchError {
        WatchError::Decode(DecodeError::InvalidJson {
            offset,
            reason: e.to_string(),
        })
    }

    /// The resourceVersion a bookmark carries (on the object, or on a Table's row in table mode).
    fn event_resource_version(&self, object: &RawValue) -> Result<String, Interrupted> {
        if self.tables() {
            if let Ok(table) = serde_json::from_str::<TableBody>(object.get()) {
                if !table.metadata.resource_version.is_empty() {
                    return Ok(table.metadata.resource_version.into_owned());
                }
                if let Some(row_object) = table.rows.first().and_then(|r| r.object) {
                    let head: ObjectHead =
                        serde_json::from_str(row_object.get()).unwrap_or_default();
                    return Ok(head.metadata.resource_version.into_owned());
                }
            }
        }
        let head: ObjectHead = decode::object_head(object.get()).unwrap_or_default();
        Ok(head.metadata.resource_version.into_owned())
    }

    // ---- printing ------------------------------------------------------------------------

    #[allow(clippy::too_many_arguments)]
    fn emit(
        &mut self,
        sink: &mut dyn Sink,
        kind: EventType,
        origin: Origin,
        object: &RawValue,
        head: &ObjectHead<'_>,
        cells: Option<&[serde_json::Value]>,
        object_lacks_type: bool,
    ) -> Result<(), Interrupted> {
        if !self.target.shows(&head.metadata.namespace) {
            return Ok(());
        }
        let resource: &ResourceInfo = &self.target.resource;
        let event = Event {
            kind,
            origin,
            resource,
            object,
            object_lacks_type,
            name: &head.metadata.name,
            namespace: &head.metadata.namespace,
            row: cells.map(|cells| TableRow {
                columns: &self.columns,
                cells,
                generation: self.columns_generation,
            }),
            context: None,
        };
        flow(sink.event(&event))?;
        self.printed += 1;
        Ok(())
    }

    /// A DELETED event for an object a re-list no longer contains. kw keeps only identity (and the
    /// last row in table mode), so JSON modes get the object's identity, not its last state.
    fn emit_gone(
        &mut self,
        sink: &mut dyn Sink,
        gone: &KnownObject,
        origin: Origin,
    ) -> Result<(), Interrupted> {
        if !self.target.shows(&gone.namespace) {
            return Ok(());
        }
        let resource = &self.target.resource;
        let mut metadata = serde_json::Map::new();
        metadata.insert("name".into(), gone.name.clone().into());
        if !gone.namespace.is_empty() {
            metadata.insert("namespace".into(), gone.namespace.clone().into());
        }
        metadata.insert(
            "resourceVersion".into(),
            gone.resource_version.clone().into(),
        );
        if !gone.uid.is_empty() {
            metadata.insert("uid".into(), gone.uid.clone().into());
        }
        let stub = serde_json::json!({
            "apiVersion": resource.api_version(),
            "kind": resource.kind,
            "metadata": metadata,
        });
        let object =
            RawValue::from_string(stub.to_string()).map_err(|e| WatchError::BadResponse {
                path: String::new(),
                reason: e.to_string(),
            })?;
        let event = Event {
            kind: EventType::Deleted,
            origin,
            resource,
            object: &object,
            object_lacks_type: false,
            name: &gone.name,
            namespace: &gone.namespace,
            row: if self.tables() {
                Some(TableRow {
                    columns: &self.columns,
                    cells: &gone.cells,
                    generation: self.columns_generation,
                })
            } else {
                None
            },
            context: None,
        };
        flow(sink.event(&event))?;
        self.printed += 1;
        Ok(())
    }
}

enum SyncError {
    Deadline,
    Fatal(Interrupted),
}

/// Wait for a parked watch's socket on this thread (a watcher run whole, not in turns).
fn wait_parked(parked: Parked) {
    let left = parked.wake_at.saturating_duration_since(Instant::now());
    crate::client::probe::wait_readable(parked.fd, left);
}

/// How long to wait before retrying after this error, or `None` if retrying cannot help.
fn retry_pause(error: &ClientError, backoff: &mut Backoff) -> Option<Duration> {
    if !error.is_transient() {
        return None;
    }
    Some(match error {
        ClientError::Status {
            code: 429,
            retry_after,
            ..
        } => retry_after.unwrap_or_else(|| backoff.failed(Instant::now())),
        ClientError::Status { retry_after, .. } => retry_after
            .unwrap_or_default()
            .max(backoff.failed(Instant::now())),
        _ => backoff.failed(Instant::now()),
    })
}

/// Whether a response body is a `meta.k8s.io` `Table` (checked on the head only).
fn is_table(body: &[u8]) -> bool {
    std::str::from_utf8(body)
        .ok()
        .and_then(|text| decode::object_head(text).ok())
        .is_some_and(|head| head.kind == "Table")
}

fn listed_event(change: Listed) -> Option<EventType> {
    match change {
        Listed::New => Some(EventType::Added),
        Listed::Changed => Some(EventType::Modified),
        Listed::Unchanged => None,
    }
}

fn seen_of<'a>(head: &'a ObjectHead<'a>, cells: Option<&'a [serde_json::Value]>) -> Seen<'a> {
    Seen {
        name: &head.metadata.name,
        namespace: &head.metadata.namespace,
        uid: &head.metadata.uid,
        resource_version: &head.metadata.resource_version,
        cells,
    }
}
