//! What every printer is: the `Printer` trait the output drives, the one decode of an event's
//! object that the printers on its way share (`DecodedObject`), and the error of an object a
//! printer must decode and cannot.

use std::cell::OnceCell;
use std::io::{self, Write};

use serde_json::value::RawValue;
use serde_json::Value;

use kw_events::events::Event;

use kw_wait::wait::Key;

/// An object that is not valid JSON reached a printer that must decode it.
#[derive(Debug, thiserror::Error)]
#[error("cannot decode object {name:?} for printing: {source}")]
pub struct ObjectDecodeError {
    pub name: String,
    #[source]
    pub source: serde_json::Error,
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
    fn finish(&mut self, closing: &Closing<'_>, out: &mut dyn Write) -> io::Result<()>;

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
}

/// What the run knows once it is over, handed to `finish`: the last lines of kubectl wait's
/// output depend on it (which objects it names, in its order). Empty for every other run.
#[derive(Debug, Default, Clone, Copy)]
pub struct Closing<'a> {
    /// Named objects that do not exist. kubectl wait says its NotFound for each and goes on to
    /// the next, so it names the ones after them all the same.
    pub missing: &'a [Key],
    /// When a wait ran out of time: the objects that never met what it asked. kubectl wait
    /// names the objects in turn, so it never names one after them.
    pub unmet: &'a [Key],
}

/// What an object that does not decode reads as where a value is optional (labels, diffs).
static NULL: Value = Value::Null;

/// An event's object, decoded at most once however many parts of a printer read it.
///
/// Label cells, `--sort-by`, `--diff` and a row laid out from the whole object each need the
/// object as a tree; decoding the same bytes for each of them cost a full parse apiece. One
/// `DecodedObject` is made per event where the event enters the printers (`Printer::print`),
/// and the parts, and printers wrapped in others, take it instead of the event's raw object, so
/// a second parse has nowhere to happen. A printer that keeps or edits the object takes the
/// value out (`into_value`) rather than copying it.
pub struct DecodedObject<'a> {
    raw: &'a RawValue,
    /// Filled on the first read: an event no part asks about is never decoded.
    decoded: OnceCell<serde_json::Result<Value>>,
}

impl<'a> DecodedObject<'a> {
    pub fn new(raw: &'a RawValue) -> DecodedObject<'a> {
        DecodedObject {
            raw,
            decoded: OnceCell::new(),
        }
    }

    pub fn get(&self) -> Result<&Value, &serde_json::Error> {
        self.decoded.get_or_init(|| decode(self.raw)).as_ref()
    }

    /// The object as its owner's: decoded now unless something read it before.
    pub fn into_value(self) -> serde_json::Result<Value> {
        let raw = self.raw;
        self.decoded.into_inner().unwrap_or_else(|| decode(raw))
    }

    /// The object, or `null` when it does not decode.
    pub fn or_null(&self) -> &Value {
        self.get().unwrap_or(&NULL)
    }

    /// The object, or the decode error as an I/O error for a printer that cannot go without it.
    /// The error carries the decoder's message (a `serde_json::Error` cannot be cloned out of
    /// the cell), which is all an `InvalidData` error ever showed of it.
    pub fn or_invalid_data(&self) -> io::Result<&Value> {
        self.get()
            .map_err(|e| io::Error::new(io::ErrorKind::InvalidData, e.to_string()))
    }
}

fn decode(raw: &RawValue) -> serde_json::Result<Value> {
    decoder::value(raw.get())
}

/// Where the printers' objects are decoded: the depth-limited decoder.
#[cfg(not(test))]
mod decoder {
    pub(super) use kw_events::decode::value;
}

/// Under test, the same decoder, counted: how many objects this thread has decoded, so tests
/// can hold a printer to one decode per event (per thread, as tests run in parallel).
#[cfg(test)]
pub mod decoder {
    use std::cell::Cell;

    thread_local! {
        static DECODES: Cell<usize> = const { Cell::new(0) };
    }

    pub(super) fn value(text: &str) -> serde_json::Result<serde_json::Value> {
        DECODES.with(|d| d.set(d.get() + 1));
        kw_events::decode::value(text)
    }

    pub fn decodes() -> usize {
        DECODES.with(Cell::get)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_read_after_the_first_is_the_same_decode() {
        let raw = RawValue::from_string(r#"{"metadata":{"name":"web"}}"#.into()).unwrap();
        let object = DecodedObject::new(&raw);
        let before = decoder::decodes();
        assert_eq!(decoder::decodes(), before, "nothing decoded until asked");
        assert_eq!(object.or_null()["metadata"]["name"], "web");
        assert!(object.get().is_ok());
        assert!(object.or_invalid_data().is_ok());
        assert_eq!(object.into_value().unwrap()["metadata"]["name"], "web");
        assert_eq!(decoder::decodes(), before + 1);
    }

    #[test]
    fn an_object_nothing_read_is_decoded_when_taken() {
        let raw = RawValue::from_string(r#"{"kind":"Pod"}"#.into()).unwrap();
        let before = decoder::decodes();
        let value = DecodedObject::new(&raw).into_value().unwrap();
        assert_eq!(value["kind"], "Pod");
        assert_eq!(decoder::decodes(), before + 1);
    }

    #[test]
    fn an_object_that_does_not_decode_is_null_or_an_error_and_is_tried_once() {
        // A `RawValue` only checks the syntax; a number beyond `f64` fails to decode.
        let raw = RawValue::from_string("[1e999]".into()).unwrap();
        let object = DecodedObject::new(&raw);
        let before = decoder::decodes();
        assert!(object.get().is_err());
        assert_eq!(object.or_null(), &Value::Null);
        let error = object.or_invalid_data().unwrap_err();
        assert_eq!(error.kind(), io::ErrorKind::InvalidData);
        let decoder_says = kw_events::decode::value(raw.get()).unwrap_err().to_string();
        assert_eq!(error.to_string(), decoder_says);
        assert_eq!(decoder::decodes(), before + 1);
    }
}
