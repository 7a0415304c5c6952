//! Where a run's events go. One context's one-shot list prints kubectl's layout: a table per
//! type (fresh column widths, a blank line between), one List or one stream of lines for the
//! other formats. Everything else (a watch, several contexts) is one stream shared by every
//! watcher; a one-shot list over several contexts is held to the end, so that its columns line
//! up over every context (kubectl aligns a whole list; the contexts' lists are one list here).
//! A table watch of several types in one context has a table per type instead, in the order
//! asked for (`ordered`). With `--live`, every watcher feeds the live view
//! (`kw_output::output::live`) and nothing is printed.

use std::io::{self, Write};
use std::sync::{Arc, Mutex};

use kw_base::notices::Notices;
use kw_events::events::Reconnects;
use kw_events::events::{Event, Flow, ResourceInfo, Sink};
use kw_output::output::live;
use kw_output::output::printer::{self, Closing, PrintOptions};
use kw_output::output::sinks::Shared;
use kw_output::output::writer::{is_closed_pipe, Output};
use kw_watcher::watcher::WatchError;

use super::ordered::Gate;

pub(super) type SharedOutput = Shared<Output<Separated>>;

/// Stdout, with a separator owed before the next table or block (a blank line, a YAML
/// document's start): written with its first bytes, so a type with no rows costs no blank line
/// (kubectl's layout).
pub(super) struct Separated {
    owed: &'static [u8],
    out: io::Stdout,
    /// A table of several, at its order: its bytes go through the gate.
    gate: Option<(Arc<Gate>, usize)>,
}

impl Write for Separated {
    fn write(&mut self, bytes: &[u8]) -> io::Result<usize> {
        if let Some((gate, order)) = &self.gate {
            gate.write(*order, bytes)?;
            return Ok(bytes.len());
        }
        if !self.owed.is_empty() && !bytes.is_empty() {
            self.out.write_all(self.owed)?;
            self.owed = b"";
        }
        self.out.write(bytes)
    }

    fn flush(&mut self) -> io::Result<()> {
        match &self.gate {
            Some((gate, _)) => gate.flush(),
            None => self.out.flush(),
        }
    }
}

pub(super) struct Outputs {
    per_type: bool,
    hold: bool,
    /// `--live`: every watcher feeds the live view instead.
    live: Option<Arc<live::View>>,
    /// The output being printed to (one context's list opens one per table).
    current: Mutex<Option<SharedOutput>>,
    /// A table watch of several types: the order their tables go out in, and each table.
    ordered: Mutex<Option<Ordered>>,
    /// Said on stderr once the first list is printed (`GetPlan::after_listing`); taken then.
    after_listing: Arc<Mutex<Option<String>>>,
    /// `start_block` was called: the next sink opens a fresh output, after a separator if
    /// something was printed before (`Some(true)`).
    block: Mutex<Option<bool>>,
}

struct Ordered {
    gate: Arc<Gate>,
    tables: Vec<(usize, SharedOutput)>,
}

impl Outputs {
    /// `per_type`: a table per type (one context's list); `hold`: print a table only at the end.
    pub(super) fn new(per_type: bool, hold: bool) -> Outputs {
        Outputs {
            per_type,
            hold,
            live: None,
            current: Mutex::new(None),
            ordered: Mutex::new(None),
            after_listing: Arc::default(),
            block: Mutex::new(None),
        }
    }

    /// A watch of one context whose watchers are at these orders among its types: tables of
    /// two types or more go out in that order, each its own (`ordered`).
    pub(super) fn order_tables(&self, orders: impl IntoIterator<Item = usize>, no_headers: bool) {
        if self.live.is_some() || self.per_type || self.hold {
            return;
        }
        let gate = Gate::new(orders, !no_headers);
        if gate.orders_several() {
            *kw_base::mutex::lock(&self.ordered) = Some(Ordered {
                gate: Arc::new(gate),
                tables: Vec::new(),
            });
        }
    }

    /// Say `text` on stderr once the first list is printed, under its rows.
    pub(super) fn saying(self, text: Option<String>) -> Outputs {
        *kw_base::mutex::lock(&self.after_listing) = text;
        self
    }

    /// Send every event to the live view (which starts drawing now, counting `reconnects` and
    /// holding `notices`); its rows show `judge`'s judgements when `judging`.
    pub(super) fn live(
        mut self,
        judge: Option<Arc<dyn live::Judging>>,
        judging: bool,
        reconnects: Reconnects,
        notices: Notices,
    ) -> Outputs {
        self.live = Some(live::View::start(judge, judging, reconnects, notices));
        self
    }

    fn current(&self) -> std::sync::MutexGuard<'_, Option<SharedOutput>> {
        kw_base::mutex::lock(&self.current)
    }

    /// The sink for a target printed with `options`, after `printed` events of the run. The
    /// first target's options decide a shared stream's printer. The live view shows the
    /// target's `resource` in a block of its own, at its `order` among the run's types.
    pub(super) fn sink(
        &self,
        options: PrintOptions,
        (resource, order): (&ResourceInfo, usize),
        printed: u64,
    ) -> Result<HeldSink, WatchError> {
        if let Some(view) = &self.live {
            return Ok(HeldSink {
                inner: Inner::Live(Box::new(view.sink(&options, resource, order))),
                hold: false,
                listed: None,
                after_listing: None,
            });
        }
        if options.format.is_table() {
            if let Some(ordered) = kw_base::mutex::lock(&self.ordered).as_mut() {
                return Ok(ordered.sink(options, order, &self.after_listing));
            }
        }
        let mut current = self.current();
        let block = kw_base::mutex::lock(&self.block).take();
        let reuse = match *current {
            None => false,
            Some(_) if block.is_some() => false,
            Some(_) if !self.per_type => true,
            // A new table starts at every type; the other formats are one document.
            Some(_) => !options.format.is_table(),
        };
        let output = match (&*current, reuse) {
            (Some(open), true) => open.clone(),
            _ => {
                let mut owed: &'static [u8] = b"";
                if let Some(done) = current.take() {
                    finish(&done, &Closing::default())?;
                    if printed > 0 && !options.no_headers {
                        owed = b"\n";
                    }
                }
                if block == Some(true) {
                    owed = separator(&options);
                }
                let fresh = Shared(Arc::new(Mutex::new(Output::new(
                    printer::new_printer(&options),
                    Separated {
                        owed,
                        out: io::stdout(),
                        gate: None,
                    },
                ))));
                *current = Some(fresh.clone());
                fresh
            }
        };
        Ok(HeldSink {
            inner: Inner::Shared(output),
            hold: self.hold,
            listed: None,
            after_listing: Some(Arc::clone(&self.after_listing)),
        })
    }

    /// Close what is printed so far (a one-shot fleet's contexts that answered in time) and
    /// print what comes next as a block of its own (a context late to answer): its own
    /// printer, its own header and column widths, after a separator when `after_some` events
    /// were printed before.
    pub(super) fn start_block(&self, after_some: bool) -> Result<(), WatchError> {
        if let Some(done) = self.current().take() {
            finish(&done, &Closing::default())?;
        }
        *kw_base::mutex::lock(&self.block) = Some(after_some);
        Ok(())
    }

    /// Let the printer close what it holds open, with what the run knows once it is over, and
    /// flush; a closed pipe is not an error.
    pub(super) fn finish(&self, closing: &Closing<'_>) -> Result<(), WatchError> {
        if let Some(view) = &self.live {
            view.finish();
            return Ok(());
        }
        if let Some(ordered) = kw_base::mutex::lock(&self.ordered).as_mut() {
            ordered.tables.sort_by_key(|(order, _)| *order);
            for (_, table) in &ordered.tables {
                finish(table, closing)?;
            }
            match ordered.gate.finish() {
                Err(e) if !is_closed_pipe(&e) => return Err(WatchError::Output(e)),
                _ => {}
            }
        }
        match self.current().as_ref() {
            Some(output) => finish(output, closing),
            None => Ok(()),
        }
    }
}

impl Ordered {
    /// The table of the type at `order` (one for every watcher of the type), its own printer.
    fn sink(
        &mut self,
        options: PrintOptions,
        order: usize,
        after_listing: &Arc<Mutex<Option<String>>>,
    ) -> HeldSink {
        let output = match self.tables.iter().find(|(at, _)| *at == order) {
            Some((_, table)) => table.clone(),
            None => {
                let table = Shared(Arc::new(Mutex::new(Output::new(
                    printer::new_printer(&options),
                    Separated {
                        owed: b"",
                        out: io::stdout(),
                        gate: Some((Arc::clone(&self.gate), order)),
                    },
                ))));
                self.tables.push((order, table.clone()));
                table
            }
        };
        HeldSink {
            inner: Inner::Shared(output),
            hold: false,
            listed: Some((Arc::clone(&self.gate), order)),
            after_listing: Some(Arc::clone(after_listing)),
        }
    }
}

/// What goes between two blocks of one format: a blank line between tables (as between
/// kubectl's tables of several types), a document start between YAML documents; JSON values
/// and lines follow one another as they are.
fn separator(options: &PrintOptions) -> &'static [u8] {
    use kw_output::output::printer::format::OutputFormat;
    match &options.format {
        format if format.is_table() && !options.no_headers => b"\n",
        OutputFormat::Yaml | OutputFormat::Kyaml => b"---\n",
        _ => b"",
    }
}

fn finish(output: &SharedOutput, closing: &Closing<'_>) -> Result<(), WatchError> {
    let mut output = kw_base::mutex::lock(&output.0);
    match output.finish(closing) {
        Err(e) if !is_closed_pipe(&e) => Err(WatchError::Output(e)),
        _ => Ok(()),
    }
}

/// A watcher's way into the shared output; with `hold`, checkpoints do not print, so a table
/// is laid out once over everything listed.
pub(super) struct HeldSink {
    inner: Inner,
    hold: bool,
    /// A table of several: the gate hears once that its list is out, or that it ended first.
    listed: Option<(Arc<Gate>, usize)>,
    /// `Outputs::after_listing`, shared by the run's sinks: the first to have listed says it.
    after_listing: Option<Arc<Mutex<Option<String>>>>,
}

impl HeldSink {
    fn tell_listed(&mut self) -> io::Result<()> {
        match self.listed.take() {
            Some((gate, order)) => gate.listed(order),
            None => Ok(()),
        }
    }
}

impl Drop for HeldSink {
    /// A watcher that ends before its list is out (`--max-events` met, an error): what its
    /// printer holds goes to the gate first, as a part of its list.
    fn drop(&mut self) {
        if self.listed.is_some() {
            let _ = self.inner.sink().checkpoint(false);
        }
        let _ = self.tell_listed();
    }
}

enum Inner {
    Shared(SharedOutput),
    Live(Box<live::LiveSink>),
}

impl Inner {
    fn sink(&mut self) -> &mut dyn Sink {
        match self {
            Inner::Shared(shared) => shared,
            Inner::Live(live) => live.as_mut(),
        }
    }
}

impl Sink for HeldSink {
    fn event(&mut self, event: &Event<'_>) -> io::Result<Flow> {
        self.inner.sink().event(event)
    }

    fn checkpoint(&mut self, more_ready: bool) -> io::Result<Flow> {
        if self.hold {
            return Ok(Flow::Continue);
        }
        self.inner.sink().checkpoint(more_ready)
    }

    fn synced(&mut self) -> io::Result<Flow> {
        let flow = self.inner.sink().synced()?;
        self.tell_listed()?;
        let said = self
            .after_listing
            .as_ref()
            .and_then(|text| kw_base::mutex::lock(text).take());
        if let Some(text) = said {
            // The rows first, so that the text lands under them.
            let _ = self.inner.sink().checkpoint(false)?;
            let _ = io::stderr().lock().write_all(text.as_bytes());
        }
        Ok(flow)
    }
}
