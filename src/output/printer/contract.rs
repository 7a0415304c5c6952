//! What every printer is: the `Printer` trait the output drives, and the error of an object a
//! printer must decode and cannot.

use std::io::{self, Write};

use crate::events::Event;

use super::decoded::DecodedObject;

/// An object that is not valid JSON reached a printer that must decode it.
#[derive(Debug, thiserror::Error)]
#[error("cannot decode object {name:?} for printing: {source}")]
pub struct ObjectDecodeError {
    pub name: String,
    #[source]
    pub source: serde_json::Error,
}

/// An object that never met what a wait asked, as kubectl wait's order places it: its type,
/// context, namespace and name.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NotMet {
    pub group: String,
    pub plural: String,
    pub context: String,
    pub namespace: String,
    pub name: String,
}

/// A printer receives events, one at a time, and writes them out.
/// `Send`: several watcher threads may share one printer (`kw get pods,deploy -w`).
pub trait Printer: Send {
    /// Print one event. A printer may hold rows back to align columns until `checkpoint`.
    fn print(&mut self, event: &Event<'_>, out: &mut dyn Write) -> io::Result<()> {
        self.print_decoded(event, DecodedObject::new(event.object), out)
    }

    /// `print` with the event's object as the one decode every printer on the way shares: a
    /// printer wrapped in another gets the object its wrapper may have read already, and reads
    /// it from there, never from `event.object`.
    fn print_decoded(
        &mut self,
        event: &Event<'_>,
        object: DecodedObject<'_>,
        out: &mut dyn Write,
    ) -> io::Result<()>;

    /// Everything printed so far belongs together (the end of the initial list, or one watch
    /// event): write out whatever is held back. kubectl flushes its tabwriter at the same points.
    fn checkpoint(&mut self, out: &mut dyn Write) -> io::Result<()>;

    /// No more events will come: close anything still open (the `List` of `-o json` without
    /// `--watch`).
    fn finish(&mut self, out: &mut dyn Write) -> io::Result<()>;

    /// Take in an event that is not to be printed (the initial list under `--watch-only`):
    /// a terminal table sizes its columns by it, `--diff` remembers its object.
    fn measure(&mut self, event: &Event<'_>) -> io::Result<()> {
        self.measure_decoded(event, DecodedObject::new(event.object))
    }

    /// `measure` with the event's one decode, as `print_decoded`.
    fn measure_decoded(
        &mut self,
        _event: &Event<'_>,
        _object: DecodedObject<'_>,
    ) -> io::Result<()> {
        Ok(())
    }

    /// Before `finish`, when a wait ran out of time: the objects that never met what it
    /// asked. kubectl wait names the objects in turn, so it never names one after them.
    fn not_met(&mut self, _objects: &[NotMet]) {}

    /// Before `finish`: named objects that do not exist. kubectl wait says its NotFound for
    /// each and goes on to the next, so it names the ones after them all the same.
    fn not_found(&mut self, _objects: &[NotMet]) {}
}
