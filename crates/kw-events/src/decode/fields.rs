//! The walk shared by the shapes the scanner reads: an object's members matched to the fields kw
//! reads, plain strings, and checked text handed to serde_json as a `RawValue`.

use serde::Deserialize;
use serde_json::value::RawValue;

use crate::decode::scan::{Member, Members, Scanner};

/// The members of one object, as the fields kw reads: the walk that matches each key to its
/// field (one of `N`, by the caller's `slot`), refuses a field given twice, and checks and skips
/// the members kw does not read. `None` from it (an escaped key, which might spell a field; a
/// field given twice; malformed JSON) leaves the whole value to serde_json, which decides and
/// words the error.
///
/// Every watch event goes through here (`benches/hot_paths.rs`, BENCHMARKS.md): the caller
/// reads each field's value in its own loop and says where it ended (`skip_to`), and the fields
/// read are bits of one word, so the walk measures as fast as the hand-written walks it
/// replaced, where a closure per field and an array of flags measured 2-4% slower.
pub(super) struct Fields<'s, 'a, const N: usize> {
    scanner: &'s Scanner<'a>,
    members: Members,
    /// Bit `i` set once field `i` has been read (so `N` is at most 32).
    seen: u32,
}

impl<'s, 'a, const N: usize> Fields<'s, 'a, N> {
    /// The object whose `{` is at `pos`.
    #[inline]
    pub(super) fn new(scanner: &'s Scanner<'a>, pos: usize) -> Option<Self> {
        Some(Fields {
            scanner,
            members: scanner.members(pos).ok()?,
            seen: 0,
        })
    }

    /// The next field kw reads, as its slot and the position of its value; `Some(None)` after
    /// the object's end.
    #[inline(always)]
    pub(super) fn next(
        &mut self,
        slot: impl Fn(&str) -> Option<usize>,
    ) -> Option<Option<(usize, usize)>> {
        while let Some(member) = self.scanner.member(&mut self.members).ok()? {
            let Some(field) = slot(known_key(&member)?) else {
                let end = self.scanner.value_end(member.value).ok()?;
                self.members.skip_to(end);
                continue;
            };
            let bit = 1u32.checked_shl(field as u32)?;
            if self.seen & bit != 0 {
                return None;
            }
            self.seen |= bit;
            return Some(Some((field, member.value)));
        }
        Some(None)
    }

    /// Every field has been read (the rest of the object need not be walked).
    #[inline]
    pub(super) fn all_read(&self) -> bool {
        self.seen.count_ones() as usize == N
    }

    /// Moves past the value of the field last returned, which ends at `end`.
    #[inline]
    pub(super) fn skip_to(&mut self, end: usize) {
        self.members.skip_to(end);
    }

    /// Where the object ends, once `next` has returned `Some(None)`.
    #[inline]
    pub(super) fn end(&self) -> usize {
        self.members.end()
    }
}

/// A member's key, unless it is escaped (then serde_json decodes it: it might spell a field).
fn known_key<'a>(member: &Member<'a>) -> Option<&'a str> {
    (!member.key_escaped).then_some(member.key)
}

/// The text of the string value between `from` and `to`, if it needs no unescaping.
pub(super) fn plain_string<'a>(scanner: &Scanner<'a>, from: usize, to: usize) -> Option<&'a str> {
    if scanner.byte(from) != Some(b'"') || to < from + 2 {
        return None;
    }
    let text = scanner.slice(from + 1, to - 1).ok()?;
    (!text.contains('\\')).then_some(text)
}

/// serde_json's `&RawValue` for text the scanner has already checked, without checking it
/// again: the value is handed over the way serde_json's own deserializer hands it (a one-entry
/// map under its private key). Should that ever stop working, serde_json checks the text
/// itself (slower, never wrong); a unit test says which of the two runs.
pub(super) fn raw_value(text: &str) -> Option<&RawValue> {
    use serde::de::value::{BorrowedStrDeserializer, MapDeserializer};
    const TOKEN: &str = "$serde_json::private::RawValue";
    let entry = (
        BorrowedStrDeserializer::<serde_json::Error>::new(TOKEN),
        BorrowedStrDeserializer::<serde_json::Error>::new(text),
    );
    let handed = MapDeserializer::new(std::iter::once(entry));
    match <&RawValue>::deserialize(handed) {
        Ok(raw) => Some(raw),
        Err(_) => serde_json::from_str(text).ok(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hands_over_raw_values_without_checking_them_again() {
        // The fast hand-over, not serde_json's checking fallback, is what runs: text that is
        // not JSON comes back as it is (decode only ever passes text the scanner checked).
        assert_eq!(raw_value("{not json").map(RawValue::get), Some("{not json"));
    }
}
