//! `kw get --live`: the current state on the terminal, redrawn in place from the watch stream.
//! One row per object (the table printer's row), in list order, a block per type, a footer of
//! counts; a changed row highlighted for a moment, a deleted one dimmed for a few seconds.
//!
//! The runner hands each watcher a `LiveSink` instead of a printer (`run::outputs`). Sinks only
//! update the `Board` under a lock; one drawing thread wakes every `TICK` and redraws when
//! something changed, so a flood of events costs at most ten frames a second. `finish` draws
//! the last frame and gives the terminal back.
//!
//! With `--until`/`--fail-on`, rows show the run's judge's judgement of each object (children
//! included) and the last frame the verdict that ended the run: the view reads the one judge
//! (`Judging`), it never judges on its own.
//!
//! - `board`: the objects and the frame's layout (pure, tested without a terminal);
//! - `cells`: a row's cells as the view may show them (TABs shown, each cell bounded);
//! - `clock`: AGE and `RESTARTS (Xs ago)` kept moving between events;
//! - `screen`: drawing frames in place, the cursor and auto-wrap.

mod board;
mod cells;
mod clock;
mod screen;

pub use kw_wait::wait::{Judged, Judging};

use std::borrow::Cow;
use std::io;
use std::sync::{Arc, Mutex, MutexGuard};
use std::thread::JoinHandle;
use std::time::{Duration, Instant, SystemTime};

use crate::output::printer::{fallback_row, DecodedObject, PrintOptions, TablePrinter};
use kw_base::notices::Notices;
use kw_events::events::Reconnects;
use kw_events::events::{Event, Flow, Origin, Sink, TableRow};

use board::{BlockKey, Board, Update};
use screen::Screen;

/// Give the terminal back (the cursor) and write out the notices held while drawing: at the
/// end of the view, and from the Ctrl-C handler.
pub fn restore(notices: &Notices) {
    screen::restore();
    notices.release();
}

/// Ctrl-Z: give the terminal back while kw is stopped; the view draws anew once continued.
pub fn suspend() {
    screen::suspend();
}

/// From a signal handler (an abort): the cursor shown and auto-wrap on, nothing else (no lock,
/// no allocation). Unix only, as the handler is.
#[cfg(unix)]
pub fn restore_in_signal_handler() {
    screen::restore_in_signal_handler();
}

/// After a panic: the cursor shown and auto-wrap on again. The notices held are left: their
/// lock may be the one the panicking thread holds.
pub fn restore_after_panic() {
    screen::restore_if_free();
}

/// How often the screen may be redrawn: at most ten frames a second.
const TICK: Duration = Duration::from_millis(100);

/// The status line's tail while the view runs, and as Ctrl-C leaves it.
const RUNNING: &str = "Ctrl-C to end";
const INTERRUPTED: &str = "interrupted (Ctrl-C)";

/// The live view of a run: its board, and the thread drawing it.
pub struct View {
    board: Mutex<Board>,
    /// The run's judge: rows show its judgements when `judging`, the last frame its verdict.
    judge: Option<Arc<dyn Judging>>,
    judging: bool,
    /// The run's reconnects, for the footer.
    reconnects: Reconnects,
    /// Held while the view draws; the footer shows the latest.
    notices: Notices,
    drawing: Mutex<Option<(JoinHandle<()>, Arc<std::sync::atomic::AtomicBool>)>>,
}

impl View {
    /// Start drawing. `judge`: the run's judge, if it has one; `judging`: rows show its
    /// judgement of each object (`--until ready`, `--fail-on failed`). The footer counts
    /// `reconnects` and shows the latest of `notices`, held from now on.
    pub fn start(
        judge: Option<Arc<dyn Judging>>,
        judging: bool,
        reconnects: Reconnects,
        notices: Notices,
    ) -> Arc<View> {
        notices.hold();
        let judging = judging && judge.is_some();
        let view = Arc::new(View {
            board: Mutex::new(Board::new(judging)),
            judge,
            judging,
            reconnects,
            notices,
            drawing: Mutex::new(None),
        });
        let stop = Arc::new(std::sync::atomic::AtomicBool::new(false));
        let handle = {
            let view = Arc::clone(&view);
            let stop = Arc::clone(&stop);
            std::thread::spawn(move || view.draw_until(&stop))
        };
        *kw_base::mutex::lock(&view.drawing) = Some((handle, stop));
        view
    }

    fn board(&self) -> MutexGuard<'_, Board> {
        kw_base::mutex::lock(&self.board)
    }

    /// A sink for one target's watcher, printing rows as `options` say.
    /// `order`: the type's place among the run's types (blocks are shown in that order).
    pub fn sink(
        self: &Arc<View>,
        options: &PrintOptions,
        resource: &kw_events::events::ResourceInfo,
        order: usize,
    ) -> LiveSink {
        let options = PrintOptions {
            // The view shows state, not events: no EVENT or TIME column, no diff lines.
            watch_events: false,
            timestamps: None,
            diff: None,
            sort_by: None,
            no_headers: false,
            ..options.clone()
        };
        let block = self.board().block(
            BlockKey {
                group: resource.group.clone(),
                plural: resource.plural.clone(),
                singular: resource.singular.clone(),
            },
            order,
        );
        LiveSink {
            view: Arc::clone(self),
            block,
            printer: TablePrinter::new(&options),
        }
    }

    /// The drawing thread: a frame whenever something changed, at most every `TICK`; the last
    /// one once told to stop.
    fn draw_until(&self, stop: &std::sync::atomic::AtomicBool) {
        let mut screen = Screen::new();
        let mut last_draw: Option<Instant> = None;
        loop {
            let stopping = stop.load(std::sync::atomic::Ordering::SeqCst);
            let now = Instant::now();
            let ((width, height), resized) = screen.measure();
            // The footer counts seconds since the last event: a frame a second at least.
            let stale = last_draw.is_none_or(|at| now.duration_since(at) >= Duration::from_secs(1));
            // Read the judge before taking the board (a sink holds the judge, then the board),
            // for a frame that is due for more than a fading highlight: at most ten times a
            // second in a flood, once a second when quiet. A judgement may change with no event
            // for its row (a child's crash, a grace run out): it shows within the second.
            let judge_due = stopping || resized || stale || self.board().dirty;
            let judged = self
                .judge
                .as_ref()
                .filter(|_| self.judging && judge_due)
                .map(|j| j.judged());
            let verdict = match (stopping, &self.judge) {
                (true, Some(judge)) => judge.verdict().map(|verdict| cells::shown(&verdict)),
                _ => None,
            };
            let tail = match (&verdict, stopping) {
                (Some(verdict), _) => board::StatusTail::Decided(verdict),
                (None, false) => board::StatusTail::Running(RUNNING),
                (None, true) => board::StatusTail::Running("ended"),
            };
            let frame = {
                let mut board = self.board();
                if let Some(judged) = &judged {
                    board.judge(judged);
                }
                let fading = board.expire(now);
                let due = board.dirty || fading || resized || stopping || stale;
                due.then(|| {
                    board.dirty = false;
                    last_draw = Some(now);
                    // The last frame leaves the latest notice out: every held notice follows
                    // it on stderr, that one too, and it is said once.
                    let notice = self
                        .notices
                        .latest()
                        .filter(|_| !stopping)
                        .map(|notice| cells::shown(&notice));
                    let reconnects = self.reconnects.count();
                    let interrupted = (!stopping).then(|| {
                        board::cut(&board.status_line(now, reconnects, INTERRUPTED), width)
                    });
                    let lines = board.frame(now, width, height, reconnects, notice, tail);
                    (lines, interrupted)
                })
            };
            if let Some((lines, interrupted)) = frame {
                // A terminal that went away ends the drawing, not the run.
                if screen.draw(&lines, resized, interrupted).is_err() {
                    return;
                }
                // The panic hook's test (tests/it/live_terminal.rs) needs a bug to meet; only
                // in debug builds, which are never shipped.
                #[cfg(debug_assertions)]
                if std::env::var_os("KW_TEST_PANIC_IN_VIEW").is_some() {
                    panic!("KW_TEST_PANIC_IN_VIEW set: a panic while the view holds the terminal");
                }
                // And an abort (what a stack overflow ends in), for the SIGABRT handler's.
                #[cfg(debug_assertions)]
                if std::env::var_os("KW_TEST_ABORT_IN_VIEW").is_some() {
                    std::process::abort();
                }
            }
            if stopping {
                return;
            }
            std::thread::park_timeout(TICK);
        }
    }

    /// Draw the last frame and give the terminal back (the cursor); the frame stays on screen.
    pub fn finish(&self) {
        let drawing = kw_base::mutex::lock(&self.drawing).take();
        if let Some((handle, stop)) = drawing {
            stop.store(true, std::sync::atomic::Ordering::SeqCst);
            handle.thread().unpark();
            let _ = handle.join();
        }
        restore(&self.notices);
    }
}

/// One watcher's way into the view: renders each event's row with the table printer and puts
/// it on the board.
pub struct LiveSink {
    view: Arc<View>,
    block: BlockKey,
    printer: TablePrinter,
}

impl Sink for LiveSink {
    fn event(&mut self, event: &Event<'_>) -> io::Result<Flow> {
        // The row's labels and diff, a row laid out from the object and its age all read this.
        let object = DecodedObject::new(event.object);
        let (header, line) = render(&mut self.printer, event, &object)?;
        let update = Update {
            kind: event.kind,
            listed: event.origin == Origin::List,
            context: event.context.unwrap_or_default().to_string(),
            namespace: event.namespace.to_string(),
            name: event.name.to_string(),
            age: header
                .windows(3)
                .any(|w| w == b"AGE")
                .then(|| age_by_our_clock(&object))
                .flatten(),
            header,
            line,
        };
        self.view
            .board()
            .update(&self.block, update, Instant::now());
        Ok(Flow::Continue)
    }

    fn checkpoint(&mut self, _more_ready: bool) -> io::Result<Flow> {
        Ok(Flow::Continue)
    }
}

/// The header and row of `event` as the view shows them: its cells fitted (`cells`), laid out
/// from the whole object when the server sent no row, as the table printer would.
fn render(
    printer: &mut TablePrinter,
    event: &Event<'_>,
    object: &DecodedObject<'_>,
) -> io::Result<(Vec<u8>, Vec<u8>)> {
    let fallback;
    let row = match event.row {
        Some(row) => row,
        None => {
            let object = object.or_invalid_data()?;
            fallback = fallback_row(event.resource, object, SystemTime::now());
            TableRow {
                columns: &fallback.0,
                cells: &fallback.1,
                generation: 0,
            }
        }
    };
    let columns = cells::fit_columns(row.columns);
    let values = cells::fit_values(row.cells);
    let namespace = cells::fit_text(event.namespace);
    let context = event.context.map(cells::fit_text);
    let generation = match columns {
        Cow::Borrowed(_) => row.generation,
        // Made here for this event: compare the definitions.
        Cow::Owned(_) => 0,
    };
    let fitted = Event {
        row: Some(TableRow {
            columns: &columns,
            cells: &values,
            generation,
        }),
        namespace: &namespace,
        context: context.as_deref(),
        ..*event
    };
    let (header, line) = printer.render_row(&fitted, object)?;
    Ok((header, cells::cut_cells(line)))
}

/// The object's age by kw's clock, in seconds, from its `creationTimestamp` (in table mode the
/// row's object is the object's metadata).
fn age_by_our_clock(object: &DecodedObject<'_>) -> Option<u64> {
    let created = object
        .get()
        .ok()?
        .pointer("/metadata/creationTimestamp")?
        .as_str()?;
    let created = humantime::parse_rfc3339_weak(created).ok()?;
    Some(SystemTime::now().duration_since(created).ok()?.as_secs())
}
