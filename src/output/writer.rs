//! Output: the sink between the watcher and stdout. One buffered writer; flushed when the input
//! has nothing more ready, so a flood costs one write per batch and a trickle is seen at once.

use std::io::{self, Write};

use crate::events::{Event, Flow, Sink};
use crate::output::printer::Printer;

pub struct Output<W: Write> {
    printer: Box<dyn Printer>,
    out: io::BufWriter<W>,
}

/// Room for everything one drained read of the stream prints (a read brings at most 128 KiB;
/// `-o json` prints about three times its input), so a flood costs one `write` per read.
const BUFFER: usize = 512 * 1024;

impl<W: Write> Output<W> {
    pub fn new(printer: Box<dyn Printer>, writer: W) -> Output<W> {
        Output {
            printer,
            out: io::BufWriter::with_capacity(BUFFER, writer),
        }
    }

    /// No more events: let the printer close what it holds open, and flush.
    pub fn finish(&mut self) -> io::Result<()> {
        self.printer.finish(&mut self.out)?;
        self.out.flush()
    }
}

impl<W: Write> Sink for Output<W> {
    fn event(&mut self, event: &Event<'_>) -> io::Result<Flow> {
        self.printer.print(event, &mut self.out)?;
        Ok(Flow::Continue)
    }

    fn checkpoint(&mut self, more_ready: bool) -> io::Result<Flow> {
        self.printer.checkpoint(&mut self.out)?;
        if !more_ready {
            self.out.flush()?;
        }
        Ok(Flow::Continue)
    }
}

/// A closed pipe (`kw get pods -w | head -1`) is the reader's way of saying "enough".
pub fn is_closed_pipe(err: &io::Error) -> bool {
    err.kind() == io::ErrorKind::BrokenPipe
}
