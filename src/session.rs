//! A session: the watchers of one `kw get` feeding one output. One watcher per target, run one
//! after another (a list, or a watch of one target) or side by side (several targets watched at
//! once, merged into one stream, each with every guarantee of a single watch).
//!
//! Every watcher's sink is wrapped the same way (`wrap`) and every watcher's result is read the
//! same way (`step`): this is the one place that knows what ends a run.

use std::io::{self, Write};
use std::sync::{mpsc, Arc, Mutex};

use crate::client::Client;
use crate::conditions::{ConditionSink, Ended, Judge};
use crate::events::{ResourceInfo, Sink};
use crate::output::{is_closed_pipe, Output};
use crate::printer::{self, PrintOptions};
use crate::sinks::{Shared, WithContext, WithKind};
use crate::watcher::{Options, Summary, Target, WatchError, Watcher};

/// How a session ended, when it did not fail.
#[derive(Debug)]
pub enum Outcome {
    /// Every watcher finished (a list, a deadline): this many events were printed.
    Done { printed: u64 },
    /// A condition or `--max-events` ended the run.
    Ended(Ended),
    /// The reader of stdout went away: nothing more to do, and nothing to report.
    ClosedPipe,
}

/// The run of one `kw get`.
pub struct Session {
    pub client: Client,
    pub targets: Vec<Target>,
    pub options: Options,
    /// Put `kind/` in front of names (several types, or `--show-kind`).
    pub with_kind: bool,
    /// The shared judge of `--until`/`--fail-on`/`--max-events`, if any.
    pub judge: Option<Arc<Mutex<Judge>>>,
}

/// What one watcher's result means for the session.
pub(crate) enum Step {
    Continue(u64),
    Stop(Outcome),
    Fail(WatchError),
}

impl Session {
    /// Run to the end. `print_options` says how to print each target's objects.
    pub fn run(
        self,
        print_options: &dyn Fn(&ResourceInfo) -> PrintOptions,
    ) -> Result<Outcome, WatchError> {
        let together = self.options.watch && self.targets.len() > 1;
        if together {
            let first = print_options(&self.targets[0].resource);
            self.run_together(&first)
        } else {
            self.run_in_turn(print_options)
        }
    }

    /// One target after another: a table per type (fresh column widths, a blank line
    /// between), one List or one stream of lines for the other formats.
    fn run_in_turn(
        self,
        print_options: &dyn Fn(&ResourceInfo) -> PrintOptions,
    ) -> Result<Outcome, WatchError> {
        let mut printed = 0;
        let mut output: Option<Output<io::StdoutLock<'static>>> = None;
        for (index, target) in self.targets.iter().enumerate() {
            let options = print_options(&target.resource);
            if output.is_none() || options.format.is_table() {
                if let Some(mut done) = output.take() {
                    finish(&mut done)?;
                    if printed > 0 && !options.no_headers {
                        match writeln!(io::stdout().lock()) {
                            Err(e) if is_closed_pipe(&e) => return Ok(Outcome::ClosedPipe),
                            Err(e) => return Err(WatchError::Output(e)),
                            Ok(()) => {}
                        }
                    }
                }
                output = Some(Output::new(
                    printer::new_printer(&options),
                    io::stdout().lock(),
                ));
            }
            let Some(sink) = output.as_mut() else {
                continue;
            };
            let mut watcher = Watcher::new(&self.client, target.clone(), self.options.clone());
            let result = run_wrapped(&mut watcher, sink, self.with_kind, &self.judge, index, None);
            match step(result, self.judge.as_ref()) {
                Step::Continue(n) => printed += n,
                Step::Stop(outcome) => {
                    if matches!(outcome, Outcome::Ended(_)) {
                        finish(sink)?;
                    }
                    return Ok(outcome);
                }
                Step::Fail(e) => {
                    let _ = sink.finish();
                    return Err(e);
                }
            }
        }
        if let Some(mut done) = output {
            finish(&mut done)?;
        }
        Ok(Outcome::Done { printed })
    }

    /// Several targets watched at once (kubectl refuses this): one watcher thread per target,
    /// merged into one output stream. The first fatal error, met condition or limit ends the
    /// session; the other threads end with the process.
    fn run_together(self, print_options: &PrintOptions) -> Result<Outcome, WatchError> {
        let output = Output::new(printer::new_printer(print_options), io::stdout());
        let shared = Shared(Arc::new(Mutex::new(output)));
        let client = Arc::new(self.client);
        let (done, results) = mpsc::channel();
        let count = self.targets.len();
        for (index, target) in self.targets.into_iter().enumerate() {
            let client = Arc::clone(&client);
            let options = self.options.clone();
            let mut sink = shared.clone();
            let judge = self.judge.clone();
            let with_kind = self.with_kind;
            let done = done.clone();
            std::thread::spawn(move || {
                let mut watcher = Watcher::new(&client, target, options);
                let result = run_wrapped(&mut watcher, &mut sink, with_kind, &judge, index, None);
                let _ = done.send(result);
            });
        }
        let mut printed = 0;
        let mut end = None;
        for _ in 0..count {
            let Ok(result) = results.recv() else {
                break;
            };
            match step(result, self.judge.as_ref()) {
                Step::Continue(n) => printed += n,
                Step::Stop(Outcome::ClosedPipe) => return Ok(Outcome::ClosedPipe),
                Step::Stop(outcome) => {
                    end = Some(outcome);
                    break;
                }
                Step::Fail(e) => return Err(e),
            }
        }
        let mut output = shared.0.lock().unwrap_or_else(|p| p.into_inner());
        finish(&mut output)?;
        Ok(end.unwrap_or(Outcome::Done { printed }))
    }
}

/// Run `watcher` into `base`, behind the kind prefix and the condition judge when asked for,
/// and (in a run over several contexts) the label of its context, outermost so that the judge
/// sees it too.
pub(crate) fn run_wrapped(
    watcher: &mut Watcher<'_>,
    base: &mut dyn Sink,
    with_kind: bool,
    judge: &Option<Arc<Mutex<Judge>>>,
    index: usize,
    context: Option<&Arc<str>>,
) -> Result<Summary, WatchError> {
    let mut prefixed;
    let base: &mut dyn Sink = if with_kind {
        prefixed = WithKind::new(base);
        &mut prefixed
    } else {
        base
    };
    let mut judged;
    let base: &mut dyn Sink = match judge {
        Some(judge) => {
            judged = ConditionSink::new(Arc::clone(judge), index, base);
            &mut judged
        }
        None => base,
    };
    match context {
        Some(context) => watcher.run(&mut WithContext::new(base, Arc::clone(context))),
        None => watcher.run(base),
    }
}

/// What a watcher's result means: go on, stop the session, or fail it.
pub(crate) fn step(result: Result<Summary, WatchError>, judge: Option<&Arc<Mutex<Judge>>>) -> Step {
    match result {
        Ok(summary) if summary.stopped => {
            // The judge's record: this watcher may be one that was only told to stop because
            // another one's objects met the condition.
            let recorded = judge.and_then(|j| j.lock().unwrap_or_else(|p| p.into_inner()).ended());
            Step::Stop(Outcome::Ended(recorded.unwrap_or(Ended::Elsewhere)))
        }
        Ok(summary) => Step::Continue(summary.printed),
        Err(WatchError::Output(e)) if is_closed_pipe(&e) => Step::Stop(Outcome::ClosedPipe),
        Err(e) => Step::Fail(e),
    }
}

/// Let the printer close what it holds open; a closed pipe is not an error.
pub(crate) fn finish<W: Write>(output: &mut Output<W>) -> Result<(), WatchError> {
    match output.finish() {
        Err(e) if !is_closed_pipe(&e) => Err(WatchError::Output(e)),
        _ => Ok(()),
    }
}
