//! `-o json` without a tree: re-encodes an object's JSON text exactly as `gojson` would print
//! it after decoding it into a `serde_json::Value`, in one pass over the borrowed text.
//!
//! Building a `Value` per event only to sort its keys cost ~35% of `-o json`'s CPU (a `String`
//! per key and per string, a `BTreeMap` per object, all freed again). Here serde_json's parser
//! drives a visitor that writes Go's bytes straight into the output; an object's members are
//! written in the order they come, each member's byte range and key remembered, and when the
//! object closes the ranges are put in key order (one copy through a scratch buffer, only when
//! the keys were not already sorted). Strings are re-escaped from the borrowed text, numbers are
//! the parser's i64/u64/f64 as `Value` would hold them, and a repeated key keeps its last value
//! as in `Value` (and Go's `map`). Nothing is allocated per event once the buffers have grown,
//! except for keys that contain escapes.

use std::io::Write as _;

use serde::de::{self, DeserializeSeed, Deserializer, IgnoredAny, MapAccess, SeqAccess, Visitor};

use kw_go::goformat::json::{write_json_float, write_newline_indent, write_string};

/// `apiVersion` and `kind` to add to a top-level object that lacks them (items of a LIST).
pub struct TypeFill<'a> {
    pub api_version: &'a str,
    pub kind: &'a str,
}

/// How to print: `json.Marshal` or `json.MarshalIndent` for a value nested `depth` levels deep.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Layout {
    Compact,
    Indented { depth: usize },
}

/// What to change in the top-level object while printing it.
pub struct Edits<'a> {
    pub fill: Option<TypeFill<'a>>,
    /// Drop `metadata.managedFields`, as kubectl's printers do.
    pub strip_managed_fields: bool,
    /// Add `"kw": {"context": ..}`: the context the object came from, in a run over several.
    pub context: Option<&'a str>,
}

/// Buffers reused from one object to the next.
#[derive(Default)]
pub struct Reencoder {
    scratch: Vec<u8>,
    members: Vec<Member>,
    side_keys: String,
}

/// Where a member's key text lives.
#[derive(Debug, Clone, Copy)]
enum Key {
    /// A byte range of the input (a key without escapes, borrowed by the parser).
    Input(usize, usize),
    /// A byte range of `side_keys` (a key the parser had to unescape).
    Side(usize, usize),
    /// A key kw adds.
    Fixed(&'static str),
}

/// One member of an object being written: its key and its bytes in the output.
#[derive(Debug, Clone, Copy)]
struct Member {
    key: Key,
    start: usize,
    end: usize,
}

impl Reencoder {
    /// Append `text` re-encoded to `out`. On a parse error `out` is left as it was.
    pub fn encode(
        &mut self,
        out: &mut Vec<u8>,
        text: &str,
        layout: Layout,
        edits: &Edits<'_>,
    ) -> Result<(), serde_json::Error> {
        let mark = out.len();
        self.members.clear();
        self.side_keys.clear();
        let depth = match layout {
            Layout::Compact => 0,
            Layout::Indented { depth } => depth,
        };
        let mut state = State {
            out,
            scratch: &mut self.scratch,
            members: &mut self.members,
            side_keys: &mut self.side_keys,
            input: text,
            indented: layout != Layout::Compact,
            edits,
        };
        // However deep the object nests (see `kw_events::decode::value`).
        let mut deserializer = serde_json::Deserializer::from_str(text);
        deserializer.disable_recursion_limit();
        let result = ValueSeed {
            state: &mut state,
            depth,
            role: Role::Root,
        }
        .deserialize(serde_stacker::Deserializer::new(&mut deserializer))
        .and_then(|()| deserializer.end());
        if result.is_err() {
            out.truncate(mark);
        }
        result
    }
}

struct State<'s> {
    out: &'s mut Vec<u8>,
    scratch: &'s mut Vec<u8>,
    members: &'s mut Vec<Member>,
    side_keys: &'s mut String,
    input: &'s str,
    indented: bool,
    edits: &'s Edits<'s>,
}

/// Where a value sits: the edits apply to the top-level object and its `metadata` only.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Role {
    Root,
    RootMetadata,
    Nested,
}

/// A key's text, wherever it lives; empty if a range is somehow out of bounds.
fn key_text<'k>(key: Key, input: &'k str, side: &'k str) -> &'k [u8] {
    let bytes = match key {
        Key::Input(start, end) => input.as_bytes().get(start..end),
        Key::Side(start, end) => side.as_bytes().get(start..end),
        Key::Fixed(text) => return text.as_bytes(),
    };
    bytes.unwrap_or_default()
}

impl State<'_> {
    /// Remember a key the parser handed over, by position where possible.
    fn key_ref(&mut self, key: &KeyText<'_>) -> Key {
        if let KeyText::Borrowed(text) = key {
            let offset = (text.as_ptr() as usize).checked_sub(self.input.as_ptr() as usize);
            if let Some(start) = offset.filter(|start| start + text.len() <= self.input.len()) {
                return Key::Input(start, start + text.len());
            }
        }
        let start = self.side_keys.len();
        self.side_keys.push_str(key.as_str());
        Key::Side(start, self.side_keys.len())
    }

    /// Start a member: the separator, the indentation, the key. Returns where it starts.
    fn begin_member(&mut self, base: usize, key: &str, depth: usize) -> usize {
        if self.members.len() > base {
            self.out.push(b',');
        }
        let start = self.out.len();
        if self.indented {
            write_newline_indent(self.out, depth + 1);
        }
        write_string(self.out, key);
        self.out
            .extend_from_slice(if self.indented { b": " } else { b":" });
        start
    }

    /// Add `"key": "value"` unless the object (members from `base`) has the key already.
    fn fill_member(&mut self, base: usize, key: &'static str, value: &str, depth: usize) {
        let present = self.members[base..]
            .iter()
            .any(|member| key_text(member.key, self.input, &*self.side_keys) == key.as_bytes());
        if present {
            return;
        }
        let start = self.begin_member(base, key, depth);
        write_string(self.out, value);
        self.members.push(Member {
            key: Key::Fixed(key),
            start,
            end: self.out.len(),
        });
    }

    /// Add `"kw": {"context": "NAME"}` as a member of the object whose members start at `base`.
    fn context_member(&mut self, base: usize, context: &str, depth: usize) {
        let start = self.begin_member(base, "kw", depth);
        self.out.push(b'{');
        if self.indented {
            write_newline_indent(self.out, depth + 2);
        }
        write_string(self.out, "context");
        self.out
            .extend_from_slice(if self.indented { b": " } else { b":" });
        write_string(self.out, context);
        if self.indented {
            write_newline_indent(self.out, depth + 1);
        }
        self.out.push(b'}');
        self.members.push(Member {
            key: Key::Fixed("kw"),
            start,
            end: self.out.len(),
        });
    }

    /// Close the object whose members start at `base` and whose first member's bytes start at
    /// `first`: put the members in key order (the last of equal keys wins), then the brace.
    fn close_object(&mut self, base: usize, first: usize, depth: usize) {
        let (input, side) = (self.input, self.side_keys.as_str());
        let members = &mut self.members[base..];
        if members.is_empty() {
            self.out.push(b'}');
            return;
        }
        let in_order = members
            .windows(2)
            .all(|pair| key_text(pair[0].key, input, side) < key_text(pair[1].key, input, side));
        if !in_order {
            // Stable, so that among equal keys the last one written stays last.
            members.sort_by(|a, b| key_text(a.key, input, side).cmp(key_text(b.key, input, side)));
            self.scratch.clear();
            self.scratch.extend_from_slice(&self.out[first..]);
            self.out.truncate(first);
            let mut written = 0;
            for (index, member) in members.iter().enumerate() {
                let superseded = members.get(index + 1).is_some_and(|next| {
                    key_text(next.key, input, side) == key_text(member.key, input, side)
                });
                if superseded {
                    continue;
                }
                if written > 0 {
                    self.out.push(b',');
                }
                written += 1;
                if let Some(bytes) = self.scratch.get(member.start - first..member.end - first) {
                    self.out.extend_from_slice(bytes);
                }
            }
        }
        self.members.truncate(base);
        if self.indented {
            write_newline_indent(self.out, depth);
        }
        self.out.push(b'}');
    }
}

/// A key as the parser gives it: borrowed from the input unless it had escapes.
enum KeyText<'de> {
    Borrowed(&'de str),
    Owned(String),
}

impl KeyText<'_> {
    fn as_str(&self) -> &str {
        match self {
            KeyText::Borrowed(text) => text,
            KeyText::Owned(text) => text,
        }
    }
}

struct KeySeed;

impl<'de> DeserializeSeed<'de> for KeySeed {
    type Value = KeyText<'de>;

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<KeyText<'de>, D::Error> {
        deserializer.deserialize_str(self)
    }
}

impl<'de> Visitor<'de> for KeySeed {
    type Value = KeyText<'de>;

    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str("an object key")
    }

    fn visit_borrowed_str<E: de::Error>(self, text: &'de str) -> Result<KeyText<'de>, E> {
        Ok(KeyText::Borrowed(text))
    }

    fn visit_str<E: de::Error>(self, text: &str) -> Result<KeyText<'de>, E> {
        Ok(KeyText::Owned(text.to_owned()))
    }
}

/// Writes one value (and everything inside it) as the parser reads it.
struct ValueSeed<'v, 's> {
    state: &'v mut State<'s>,
    depth: usize,
    role: Role,
}

impl<'de> DeserializeSeed<'de> for ValueSeed<'_, '_> {
    type Value = ();

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<(), D::Error> {
        deserializer.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for ValueSeed<'_, '_> {
    type Value = ();

    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str("a JSON value")
    }

    fn visit_unit<E: de::Error>(self) -> Result<(), E> {
        self.state.out.extend_from_slice(b"null");
        Ok(())
    }

    fn visit_bool<E: de::Error>(self, value: bool) -> Result<(), E> {
        let text: &[u8] = if value { b"true" } else { b"false" };
        self.state.out.extend_from_slice(text);
        Ok(())
    }

    fn visit_i64<E: de::Error>(self, value: i64) -> Result<(), E> {
        // Writing to a Vec cannot fail.
        let _ = write!(self.state.out, "{value}");
        Ok(())
    }

    fn visit_u64<E: de::Error>(self, value: u64) -> Result<(), E> {
        if i64::try_from(value).is_ok() {
            let _ = write!(self.state.out, "{value}");
        } else {
            // Above int64: Go's decoder falls back to float64 (as `goformat::json::write_number`).
            write_json_float(self.state.out, value as f64);
        }
        Ok(())
    }

    fn visit_f64<E: de::Error>(self, value: f64) -> Result<(), E> {
        write_json_float(self.state.out, value);
        Ok(())
    }

    fn visit_str<E: de::Error>(self, value: &str) -> Result<(), E> {
        write_string(self.state.out, value);
        Ok(())
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<(), A::Error> {
        let state = self.state;
        state.out.push(b'[');
        let mut count = 0usize;
        loop {
            // The separator goes before an element that may not exist; taken back if not.
            let mark = state.out.len();
            if count > 0 {
                state.out.push(b',');
            }
            if state.indented {
                write_newline_indent(state.out, self.depth + 1);
            }
            let element = ValueSeed {
                state: &mut *state,
                depth: self.depth + 1,
                role: Role::Nested,
            };
            if seq.next_element_seed(element)?.is_none() {
                state.out.truncate(mark);
                break;
            }
            count += 1;
        }
        if count > 0 && state.indented {
            write_newline_indent(state.out, self.depth);
        }
        state.out.push(b']');
        Ok(())
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<(), A::Error> {
        let state = self.state;
        state.out.push(b'{');
        let base = state.members.len();
        let first = state.out.len();
        while let Some(key) = map.next_key_seed(KeySeed)? {
            let name = key.as_str();
            if self.role == Role::RootMetadata
                && state.edits.strip_managed_fields
                && name == "managedFields"
            {
                map.next_value::<IgnoredAny>()?;
                continue;
            }
            let start = state.begin_member(base, name, self.depth);
            let role = if self.role == Role::Root && name == "metadata" {
                Role::RootMetadata
            } else {
                Role::Nested
            };
            let key = state.key_ref(&key);
            map.next_value_seed(ValueSeed {
                state: &mut *state,
                depth: self.depth + 1,
                role,
            })?;
            state.members.push(Member {
                key,
                start,
                end: state.out.len(),
            });
        }
        if self.role == Role::Root {
            if let Some(fill) = &state.edits.fill {
                state.fill_member(base, "apiVersion", fill.api_version, self.depth);
                state.fill_member(base, "kind", fill.kind, self.depth);
            }
            if let Some(context) = state.edits.context {
                state.context_member(base, context, self.depth);
            }
        }
        state.close_object(base, first, self.depth);
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use serde_json::Value;

    use super::*;
    use kw_go::goformat::json::{write_compact, write_indented};

    const NO_EDITS: Edits<'static> = Edits {
        fill: None,
        strip_managed_fields: false,
        context: None,
    };

    fn encode(text: &str, layout: Layout, edits: &Edits<'_>) -> String {
        let mut out = b"prefix ".to_vec();
        Reencoder::default()
            .encode(&mut out, text, layout, edits)
            .unwrap();
        String::from_utf8(out).unwrap()
    }

    /// What the tree path prints: decode into a `Value`, then `gojson`.
    fn via_tree(text: &str, layout: Layout) -> String {
        let value: Value = serde_json::from_str(text).unwrap();
        let mut out = b"prefix ".to_vec();
        match layout {
            Layout::Compact => write_compact(&mut out, &value),
            Layout::Indented { depth } => write_indented(&mut out, &value, depth),
        }
        String::from_utf8(out).unwrap()
    }

    const SAMPLES: &[&str] = &[
        "{}",
        "[]",
        "null",
        "\"s\"",
        "-0",
        "-0.0",
        r#"{"b":1,"a":2,"B":3,"_":4,"aa":5}"#,
        r#"{"z":{"y":[],"x":{},"w":[{"b":1,"a":[1,{"d":null,"c":true}]}]},"a":false}"#,
        r#"{"k":1,"k":2,"j":0,"k":3}"#,
        r#"{"a\u003cb":1,"a<c":2,"a\"":3,"a":{"\u00e9":1,"e":2}}"#,
        r#"["<a href=\"x\">&</a>","a\u2028b","\b\f\n\r\t\u0001\u007f","héllo 世界 🚀"]"#,
        "[0,-1,9223372036854775807,-9223372036854775808,9223372036854775808,18446744073709551615,100000000000000000000000]",
        "[1.0,1.5,1e3,1e21,1e20,0.000001,0.0000001,1.5e-10,-2.5e300,0.1,123456789.125]",
        " { \"spaced\" : [ 1 , 2 ] ,\n \"a\" : { } } ",
    ];

    #[test]
    fn matches_the_tree_path_compact_and_indented() {
        for sample in SAMPLES {
            for layout in [
                Layout::Compact,
                Layout::Indented { depth: 0 },
                Layout::Indented { depth: 2 },
            ] {
                assert_eq!(
                    encode(sample, layout, &NO_EDITS),
                    via_tree(sample, layout),
                    "{sample} {layout:?}"
                );
            }
        }
    }

    #[test]
    fn real_objects_match_the_tree_path() {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../kw-sim/src/fixtures");
        let mut checked = 0;
        for entry in std::fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            if path.extension().and_then(|e| e.to_str()) != Some("json") {
                continue;
            }
            let text = std::fs::read_to_string(&path).unwrap();
            for layout in [Layout::Compact, Layout::Indented { depth: 0 }] {
                assert_eq!(
                    encode(&text, layout, &NO_EDITS),
                    via_tree(&text, layout),
                    "{}",
                    path.display()
                );
            }
            checked += 1;
        }
        assert!(checked > 10, "fixtures not found");
    }

    #[test]
    fn fills_missing_type_fields_at_the_top_level_only() {
        let fill = Edits {
            fill: Some(TypeFill {
                api_version: "apps/v1",
                kind: "Deployment",
            }),
            strip_managed_fields: false,
            context: None,
        };
        assert_eq!(
            encode(
                r#"{"metadata":{"name":"a"},"spec":{}}"#,
                Layout::Compact,
                &fill
            ),
            r#"prefix {"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"a"},"spec":{}}"#
        );
        assert_eq!(
            encode(r#"{"kind":"Other","x":{}}"#, Layout::Compact, &fill),
            r#"prefix {"apiVersion":"apps/v1","kind":"Other","x":{}}"#
        );
        assert_eq!(
            encode("{}", Layout::Indented { depth: 0 }, &fill),
            "prefix {\n    \"apiVersion\": \"apps/v1\",\n    \"kind\": \"Deployment\"\n}"
        );
        assert_eq!(encode("[{}]", Layout::Compact, &fill), "prefix [{}]");
    }

    #[test]
    fn strips_managed_fields_of_the_top_level_metadata_only() {
        let strip = Edits {
            fill: None,
            strip_managed_fields: true,
            context: None,
        };
        assert_eq!(
            encode(
                r#"{"metadata":{"managedFields":[{"a":1}],"name":"a"},"spec":{"metadata":{"managedFields":1}}}"#,
                Layout::Compact,
                &strip
            ),
            r#"prefix {"metadata":{"name":"a"},"spec":{"metadata":{"managedFields":1}}}"#
        );
        assert_eq!(
            encode(
                r#"{"metadata":{"managedFields":[]}}"#,
                Layout::Indented { depth: 0 },
                &strip
            ),
            "prefix {\n    \"metadata\": {}\n}"
        );
    }

    #[test]
    fn invalid_text_is_an_error_and_leaves_the_output_alone() {
        for bad in [r#""\ud800""#, "{\"a\":1", "{} x", "[1,]", "", "1e400"] {
            assert!(serde_json::from_str::<Value>(bad).is_err(), "{bad}");
            let mut out = b"kept".to_vec();
            let result = Reencoder::default().encode(&mut out, bad, Layout::Compact, &NO_EDITS);
            assert!(result.is_err(), "{bad}");
            assert_eq!(out, b"kept");
        }
    }
}
