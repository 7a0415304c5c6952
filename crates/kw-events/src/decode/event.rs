//! A watch event's envelope (`type` and `object`), plain or in table mode, read by the scanner
//! or, for what it leaves, by serde_json.

use std::borrow::Cow;

use serde::Deserialize;
use serde_json::value::RawValue;

use crate::decode::fields::{plain_string, raw_value, Fields};
use crate::decode::head::{checked_object, object_head, ObjectHead};
use crate::decode::scan::Scanner;
use crate::decode::table::{scanned_table_or_head, TableBody};

/// A watch event's envelope: the type, and the object's bytes.
#[derive(Debug, Deserialize)]
pub struct WireEvent<'a> {
    #[serde(rename = "type", borrow)]
    pub kind: Cow<'a, str>,
    #[serde(borrow)]
    pub object: &'a RawValue,
    /// The object's head, when the scanner read it while checking the frame.
    #[serde(skip)]
    pub scanned_head: Option<ObjectHead<'a>>,
    /// The object as a Table, when the scanner read it while checking the frame in table mode
    /// (`table_event`) and its kind says it is one.
    #[serde(skip)]
    pub scanned_table: Option<TableBody<'a>>,
}

impl<'a> WireEvent<'a> {
    /// The object's head: as read while the frame was checked, or read now.
    pub fn head(&self) -> Result<ObjectHead<'a>, serde_json::Error> {
        match &self.scanned_head {
            Some(head) => Ok(head.clone()),
            None => object_head(self.object.get()),
        }
    }

    /// The object as a Table, if its head says it is one (an object whose head cannot be read
    /// is none): as read while the frame was checked, or read now.
    pub fn take_table(&mut self) -> Result<Option<TableBody<'a>>, serde_json::Error> {
        if let Some(table) = self.scanned_table.take() {
            return Ok(Some(table));
        }
        match self.head() {
            Ok(head) if head.kind == "Table" => serde_json::from_str(self.object.get()).map(Some),
            _ => Ok(None),
        }
    }
}

/// Decode one watch event's envelope, checking that the whole frame is valid JSON: the object's
/// bytes are passed on untouched, so nothing invalid may get past this point.
///
/// The scanner (`crate::decode::scan`) checks the frame and finds the two fields without building
/// anything; whatever it does not take on itself (a key or a type with escapes, a duplicate
/// field, anything malformed) goes to serde_json, which decides and words the error.
pub fn wire_event(frame: &[u8]) -> Result<WireEvent<'_>, serde_json::Error> {
    match scanned_event(frame, ObjectRead::Head) {
        Some(event) => Ok(event),
        None => checked(frame),
    }
}

/// `wire_event` for a watch in table mode: in the same pass, the object is read as the Table
/// it usually is (one row), or, when it is not one (a bookmark, an error's Status, a plain
/// object from a server that cannot print tables), for its head. serde_json only reads the
/// small parts (the column definitions, the cells), never a row's object.
pub fn table_event(frame: &[u8]) -> Result<WireEvent<'_>, serde_json::Error> {
    match scanned_event(frame, ObjectRead::TableOrHead) {
        Some(event) => Ok(event),
        None => checked(frame),
    }
}

/// A frame by serde_json, checked whole first: serde_json does not check the UTF-8 of the
/// fields a type ignores, and no frame that is not JSON may get past `decode`.
fn checked<'a, T: Deserialize<'a>>(frame: &'a [u8]) -> Result<T, serde_json::Error> {
    let whole: &RawValue = serde_json::from_slice(frame)?;
    serde_json::from_str(whole.get())
}

/// What the scanner reads of an event's object as it checks it.
#[derive(Clone, Copy)]
enum ObjectRead {
    Head,
    TableOrHead,
}

/// The envelope by the scanner, or `None` for serde_json to decide.
fn scanned_event(frame: &[u8], read: ObjectRead) -> Option<WireEvent<'_>> {
    let scanner = Scanner::frame(frame).ok()?;
    let mut fields = Fields::<2>::new(&scanner, scanner.skip_ws(0))?;
    let (mut kind, mut object, mut head, mut table) = (None, None, None, None);
    while let Some((field, value)) = fields.next(envelope_slot)? {
        let end = if field == 0 {
            let end = scanner.value_end(value).ok()?;
            kind = Some(plain_string(&scanner, value, end)?);
            end
        } else {
            let end = match read {
                ObjectRead::Head => {
                    let (read, end) = checked_object(&scanner, value)?;
                    head = read;
                    end
                }
                ObjectRead::TableOrHead => match table_or_head(&scanner, value) {
                    Some((read, as_table, end)) => {
                        (head, table) = (Some(read), as_table);
                        end
                    }
                    // Left for `head` and `take_table` to read, the way they read any object.
                    None => scanner.value_end(value).ok()?,
                },
            };
            object = Some(raw_value(scanner.slice(value, end).ok()?)?);
            end
        };
        fields.skip_to(end);
    }
    scanner.finish(fields.end()).ok()?;
    Some(WireEvent {
        kind: Cow::Borrowed(kind?),
        object: object?,
        scanned_head: head,
        scanned_table: table,
    })
}

/// The object at `pos` read as a Table or for its head, if it is an object the scanner reads.
fn table_or_head<'a>(
    scanner: &Scanner<'a>,
    pos: usize,
) -> Option<(ObjectHead<'a>, Option<TableBody<'a>>, usize)> {
    if scanner.byte(pos) != Some(b'{') {
        return None;
    }
    scanned_table_or_head(scanner, pos)
}

/// A watch event's two fields: `type` and `object`.
fn envelope_slot(key: &str) -> Option<usize> {
    match key {
        "type" => Some(0),
        "object" => Some(1),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::decode::head::object_head_by_serde;

    #[test]
    fn decodes_event_heads_borrowing() {
        let line = br#"{"type":"MODIFIED","object":{"kind":"Pod","apiVersion":"v1","metadata":{"name":"a","namespace":"ns","uid":"u1","resourceVersion":"42","annotations":{"k8s.io/initial-events-end":"true"}},"spec":{"x":[1,2,{"y":null}]}}}"#;
        let event: WireEvent = serde_json::from_slice(line).unwrap();
        assert_eq!(event.kind, "MODIFIED");
        let head: ObjectHead = serde_json::from_str(event.object.get()).unwrap();
        assert!(matches!(head.metadata.name, Cow::Borrowed("a")));
        assert_eq!(head.metadata.resource_version, "42");
        assert!(head
            .metadata
            .has_true_annotation("k8s.io/initial-events-end"));
        assert!(!head.metadata.has_true_annotation("other"));
    }

    #[test]
    fn scanned_events_match_serde_json() {
        let frame = br#" {"kind":"x","type":"ADDED","object":{"kind":"Pod","metadata":{"name":"a","namespace":"n","uid":"u","resourceVersion":"9","annotations":null}},"extra":[1,{"a":null}]} "#;
        let event = wire_event(frame).unwrap();
        assert!(matches!(event.kind, Cow::Borrowed("ADDED")));
        let slow: WireEvent = serde_json::from_slice(frame).unwrap();
        assert_eq!(event.object.get(), slow.object.get());
        let head = object_head(event.object.get()).unwrap();
        assert_eq!(
            (head.kind.as_ref(), head.metadata.name.as_ref()),
            ("Pod", "a")
        );
        // Read while the frame was checked, the same head.
        let scanned = event.scanned_head.as_ref().unwrap();
        assert_eq!(
            (scanned.kind.as_ref(), scanned.metadata.uid.as_ref()),
            ("Pod", "u")
        );
        assert!(head.metadata.annotations.is_none());
        // Left to serde_json: an escaped key, a duplicate, an escaped type.
        for frame in [
            &br#"{"typ\u0065":"ADDED","object":{}}"#[..],
            br#"{"type":"ADDED","type":"DELETED","object":{}}"#,
            br#"{"type":"ADD\u0045D","object":{}}"#,
        ] {
            let fast = wire_event(frame).map(|e| e.kind.into_owned());
            let slow = serde_json::from_slice::<WireEvent>(frame).map(|e| e.kind.into_owned());
            assert_eq!(fast.ok(), slow.ok(), "{}", String::from_utf8_lossy(frame));
        }
    }

    /// A tiny deterministic generator (xorshift64), so failures reproduce from the seed.
    struct Rng(u64);

    impl Rng {
        fn next(&mut self) -> u64 {
            self.0 ^= self.0 << 13;
            self.0 ^= self.0 >> 7;
            self.0 ^= self.0 << 17;
            self.0
        }

        fn below(&mut self, n: usize) -> usize {
            (self.next() % n.max(1) as u64) as usize
        }
    }

    /// Real objects (the sim's fixtures, taken from a real cluster) as watch events: plain ones
    /// compact and as written, and Table events with the object as the row's.
    fn real_events() -> Vec<Vec<u8>> {
        let fixtures = [
            include_str!("../../../../crates/kw-sim/src/fixtures/po.json"),
            include_str!("../../../../crates/kw-sim/src/fixtures/dp.json"),
            include_str!("../../../../crates/kw-sim/src/fixtures/no.json"),
            include_str!("../../../../crates/kw-sim/src/fixtures/cm.json"),
            include_str!("../../../../crates/kw-sim/src/fixtures/crd.json"),
            include_str!("../../../../crates/kw-sim/src/fixtures/ev.json"),
        ];
        let mut events = Vec::new();
        for text in fixtures {
            let compact = serde_json::from_str::<serde_json::Value>(text)
                .unwrap()
                .to_string();
            for object in [compact.as_str(), text.trim()] {
                events.push(format!(r#"{{"type":"MODIFIED","object":{object}}}"#).into_bytes());
            }
            events.push(
                format!(
                    r#"{{"type":"ADDED","object":{{"kind":"Table","apiVersion":"meta.k8s.io/v1","metadata":{{"resourceVersion":"7"}},"columnDefinitions":[{{"name":"Name","type":"string","format":"name","description":"","priority":0}}],"rows":[{{"cells":["a",1,null,{{"x":[true]}}],"object":{compact}}}]}}}}"#
                )
                .into_bytes(),
            );
        }
        events
    }

    /// One random corruption: a changed byte, a cut, bytes deleted or inserted, a broken escape,
    /// invalid UTF-8.
    fn corrupt(rng: &mut Rng, frame: &mut Vec<u8>) {
        const NASTY: &[&[u8]] = &[
            b"\"",
            b"\\",
            b"{",
            b"}",
            b"[",
            b"]",
            b",",
            b":",
            b"0",
            b"-",
            b"e",
            b".",
            b" ",
            b"\t",
            b"\n",
            b"\x00",
            b"\x1f",
            b"\\x",
            b"\\u12",
            b"\\u",
            b"\\",
            b"\\ud800",
            b"\x80",
            b"\xff",
            b"\xc3",
            b"\xed\xa0\x80",
            b"\xf4\x90\x80\x80",
            b"\xe2\x82",
            b"nul",
            b"tru",
            b"1e",
            b"01",
            b"\"type\":\"DELETED\"",
            b"\"object\":{}",
        ];
        let at = rng.below(frame.len() + 1);
        match rng.below(6) {
            0 if at < frame.len() => frame[at] = rng.next() as u8,
            1 if at < frame.len() => frame[at] ^= 1 << rng.below(8),
            2 => frame.truncate(at),
            3 => {
                let to = (at + 1 + rng.below(8)).min(frame.len());
                frame.drain(at.min(to)..to);
            }
            _ => {
                let nasty = NASTY[rng.below(NASTY.len())];
                frame.splice(at..at, nasty.iter().copied());
            }
        }
    }

    fn assert_same_head(head: &ObjectHead, reference: &ObjectHead, shown: &str) {
        assert_eq!(head.kind, reference.kind, "{shown}");
        assert_eq!(head.api_version, reference.api_version, "{shown}");
        let (m, r) = (&head.metadata, &reference.metadata);
        assert_eq!(
            (&m.name, &m.namespace, &m.uid, &m.resource_version),
            (&r.name, &r.namespace, &r.uid, &r.resource_version),
            "{shown}"
        );
        assert_eq!(
            m.annotations.map(RawValue::get),
            r.annotations.map(RawValue::get),
            "{shown}"
        );
    }

    /// Property test: real events, randomly corrupted, are either refused by the decoders or
    /// accepted exactly when the frame is JSON and serde_json reads it the same way, so nothing
    /// invalid reaches a printer.
    #[test]
    fn corrupted_real_events_never_get_through() {
        let events = real_events();
        let mut rng = Rng(0x2545_F491_4F6C_DD1D);
        let mut accepted = 0;
        for case in 0..6000 {
            let mut frame = events[case % events.len()].clone();
            for _ in 0..=rng.below(3) {
                corrupt(&mut rng, &mut frame);
            }
            let shown = || format!("case {case}: {}", String::from_utf8_lossy(&frame));
            let valid = serde_json::from_slice::<&RawValue>(&frame).is_ok();

            let fast = wire_event(&frame);
            let slow = serde_json::from_slice::<&RawValue>(&frame)
                .and_then(|whole| serde_json::from_str::<WireEvent>(whole.get()));
            assert_eq!(fast.is_ok(), slow.is_ok(), "{}", shown());
            if let (Ok(fast), Ok(slow)) = (&fast, &slow) {
                accepted += 1;
                assert!(valid, "{}", shown());
                assert_eq!(fast.kind, slow.kind, "{}", shown());
                assert_eq!(fast.object.get(), slow.object.get(), "{}", shown());
                let reference = object_head_by_serde(fast.object.get());
                for head in [object_head(fast.object.get()), fast.head()] {
                    assert_eq!(head.is_ok(), reference.is_ok(), "{}", shown());
                    if let (Ok(head), Ok(reference)) = (&head, &reference) {
                        assert_same_head(head, reference, &shown());
                    }
                }
            }

            // Table mode accepts exactly the frames `wire_event` does, with the same envelope;
            // what it reads of the object is what serde_json reads.
            let table_mode = table_event(&frame);
            assert_eq!(table_mode.is_ok(), fast.is_ok(), "{}", shown());
            if let (Ok(mut event), Ok(slow)) = (table_mode, &slow) {
                assert_eq!(event.kind, slow.kind, "{}", shown());
                assert_eq!(event.object.get(), slow.object.get(), "{}", shown());
                let reference = object_head_by_serde(event.object.get());
                assert_eq!(event.head().is_ok(), reference.is_ok(), "{}", shown());
                if let (Ok(head), Ok(reference)) = (event.head(), &reference) {
                    assert_same_head(&head, reference, &shown());
                }
                let is_table = reference.is_ok_and(|head| head.kind == "Table");
                let slow_table = serde_json::from_str::<TableBody>(event.object.get());
                let table = event.take_table();
                if !is_table {
                    assert!(matches!(table, Ok(None)), "{}", shown());
                    continue;
                }
                assert_eq!(table.is_ok(), slow_table.is_ok(), "{}", shown());
                let (Ok(Some(t)), Ok(s)) = (table, slow_table) else {
                    continue;
                };
                assert_eq!(&t.kind, &s.kind, "{}", shown());
                assert_eq!(
                    (&t.metadata.resource_version, &t.metadata.continue_token),
                    (&s.metadata.resource_version, &s.metadata.continue_token),
                    "{}",
                    shown()
                );
                assert_eq!(
                    t.column_definitions.as_ref().map(Vec::len),
                    s.column_definitions.as_ref().map(Vec::len),
                    "{}",
                    shown()
                );
                assert_eq!(t.rows.len(), s.rows.len(), "{}", shown());
                for (a, b) in t.rows.iter().zip(&s.rows) {
                    assert_eq!(
                        a.cells.map(RawValue::get),
                        b.cells.map(RawValue::get),
                        "{}",
                        shown()
                    );
                    assert_eq!(
                        a.object.map(RawValue::get),
                        b.object.map(RawValue::get),
                        "{}",
                        shown()
                    );
                    let reference = object_head_by_serde(a.object.unwrap_or(RawValue::NULL).get());
                    assert_eq!(a.head().is_ok(), reference.is_ok(), "{}", shown());
                    if let (Ok(head), Ok(reference)) = (a.head(), reference) {
                        assert_same_head(&head, &reference, &shown());
                    }
                }
            }
        }
        // The corruption is not so heavy that nothing is ever accepted (a cut after the last
        // brace, a changed letter inside a string).
        assert!(accepted > 100, "{accepted}");
    }
}
