//! How deep an object from the server nests, and the two bounds that follow from it: the depth
//! kw reads at all, and the stack a thread needs to walk anything that deep.
//!
//! The API server refuses a request body nested more than 10,000 levels (its JSON decoder's
//! limit, Go's `encoding/json` one); kubectl's decoder refuses the same past 10,000 with
//! `exceeded max depth`. kw reads every object the API server can store and refuses deeper
//! ones, so that every walk after this one (parsing into a `Value`, dropping it, the judge, the
//! printers, JSONPath) is bounded, and runs on threads whose stack is sized for that bound
//! (`STACK`). This scan itself never recurses.

/// The deepest object kw reads: the API server's own limit. An event or a list adds a few
/// levels around it; the bound is the object's own nesting, counted from the object.
pub const MAX_DEPTH: usize = 10_000;

/// The stack of a thread that decodes, judges or prints server objects: enough for every
/// recursive walk kw makes over an object `MAX_DEPTH` levels deep, in a debug build (the
/// deepest, `--diff` on a watch, took between 8 and 16 MiB there; a release build a third of
/// that), with room to spare. Only the pages a walk touches are ever resident.
pub const STACK: usize = 64 << 20;

/// Whether `text` (valid JSON, as a `RawValue` holds it) nests more than `limit` levels.
/// Cheap for the common object: one under `2 * limit` bytes cannot (each level takes an opening
/// and a closing bracket), and one with no more than `limit` brackets cannot either; only then
/// are the levels counted.
pub fn exceeds(text: &str, limit: usize) -> bool {
    let bytes = text.as_bytes();
    if bytes.len() <= 2 * limit {
        return false;
    }
    if memchr::memchr2_iter(b'{', b'[', bytes).nth(limit).is_none() {
        return false;
    }
    depth(bytes) > limit
}

/// The deepest nesting of brackets in `bytes`, outside strings. Meant for valid JSON; on
/// anything else it still ends, with some count.
pub fn depth(bytes: &[u8]) -> usize {
    let (mut depth, mut deepest) = (0usize, 0usize);
    let mut pos = 0;
    while let Some(found) = memchr::memchr3(b'"', b'{', b'[', &bytes[pos..]) {
        let at = pos + found;
        // Closing brackets between `pos` and the one found (none can be inside a string: the
        // strings before were skipped whole).
        depth = depth.saturating_sub(closings(&bytes[pos..at]));
        match bytes[at] {
            b'"' => pos = string_end(bytes, at + 1),
            _ => {
                depth += 1;
                deepest = deepest.max(depth);
                pos = at + 1;
            }
        }
    }
    deepest
}

fn closings(bytes: &[u8]) -> usize {
    memchr::memchr2_iter(b'}', b']', bytes).count()
}

/// The position after the closing quote of the string whose text starts at `pos`.
fn string_end(bytes: &[u8], mut pos: usize) -> usize {
    while let Some(found) = memchr::memchr2(b'"', b'\\', &bytes[pos..]) {
        let at = pos + found;
        if bytes[at] == b'"' {
            return at + 1;
        }
        pos = (at + 2).min(bytes.len());
    }
    bytes.len()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn nested(levels: usize) -> String {
        format!("{}1{}", "{\"n\":".repeat(levels), "}".repeat(levels))
    }

    #[test]
    fn counts_the_deepest_nesting_outside_strings() {
        assert_eq!(depth(b"1"), 0);
        assert_eq!(depth(b"{}"), 1);
        assert_eq!(depth(br#"{"a":[1,{"b":[]}],"c":{}}"#), 4);
        assert_eq!(depth(br#"{"a":"{{[[\"{{","b":{}}"#), 2);
        assert_eq!(depth(br#"["\\",[[]]]"#), 3);
        assert_eq!(depth(nested(12_345).as_bytes()), 12_345);
        // Siblings do not add up: `[[],[],[]]` is two deep.
        assert_eq!(depth(b"[[],[],[[]],[]]"), 3);
    }

    #[test]
    fn exceeds_only_past_the_limit() {
        assert!(!exceeds(&nested(MAX_DEPTH), MAX_DEPTH));
        assert!(exceeds(&nested(MAX_DEPTH + 1), MAX_DEPTH));
        // Many brackets, side by side, are not depth.
        let wide = format!("[{}[]]", "[],".repeat(3 * MAX_DEPTH));
        assert!(!exceeds(&wide, MAX_DEPTH));
        // Brackets inside a string are text.
        let quoted = format!("{{\"s\":\"{}\"}}", "{".repeat(3 * MAX_DEPTH));
        assert!(!exceeds(&quoted, MAX_DEPTH));
        assert!(!exceeds(&nested(3), 2 + 1));
        assert!(exceeds(&format!("{:>40}", nested(3)), 2));
    }
}
