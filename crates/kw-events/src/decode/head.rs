//! An object's head: its kind, apiVersion and the parts of its metadata kw tracks, read without
//! walking the rest of the object.

use std::borrow::Cow;

use serde::Deserialize;
use serde_json::value::RawValue;

use crate::decode::fields::{plain_string, raw_value, Fields};
use crate::decode::scan::Scanner;

/// The parts of an object's `metadata` kw keeps track of.
#[derive(Debug, Clone, Default, Deserialize)]
pub struct MetaHead<'a> {
    #[serde(borrow, default)]
    pub name: Cow<'a, str>,
    #[serde(borrow, default)]
    pub namespace: Cow<'a, str>,
    #[serde(borrow, default)]
    pub uid: Cow<'a, str>,
    #[serde(borrow, default, rename = "resourceVersion")]
    pub resource_version: Cow<'a, str>,
    #[serde(borrow, default)]
    pub annotations: Option<&'a RawValue>,
}

impl MetaHead<'_> {
    /// Whether `annotations` holds `key: "true"` (the end-of-initial-events bookmark).
    pub fn has_true_annotation(&self, key: &str) -> bool {
        let Some(raw) = self.annotations else {
            return false;
        };
        serde_json::from_str::<std::collections::HashMap<Cow<'_, str>, Cow<'_, str>>>(raw.get())
            .map(|m| m.get(key).is_some_and(|v| v == "true"))
            .unwrap_or(false)
    }
}

/// The head of an object: its type and identity; everything else skipped.
#[derive(Debug, Clone, Default, Deserialize)]
pub struct ObjectHead<'a> {
    #[serde(borrow, default)]
    pub kind: Cow<'a, str>,
    #[serde(borrow, default, rename = "apiVersion")]
    pub api_version: Cow<'a, str>,
    #[serde(borrow, default)]
    pub metadata: MetaHead<'a>,
}

/// Read an object's head without walking the rest of it.
///
/// The API server writes `kind`, `apiVersion` and `metadata` first; everything after them
/// (spec, status: most of the bytes) is never looked at here. The caller has already checked
/// that `raw` is valid JSON (it came out of a `RawValue`), so skipping is safe: the bytes
/// are passed on untouched anyway. The scanner reads the head; what it leaves (escaped keys
/// or names, duplicates, a value of an unexpected type) serde_json reads.
pub fn object_head(raw: &str) -> Result<ObjectHead<'_>, serde_json::Error> {
    match scanned_head(raw) {
        Some(head) => Ok(head),
        None => object_head_by_serde(raw),
    }
}

fn scanned_head(raw: &str) -> Option<ObjectHead<'_>> {
    let scanner = Scanner::text(raw);
    head_members(&scanner, scanner.skip_ws(0), false).map(|(head, _)| head)
}

/// The head of the object at `pos`, and (with `whole`) the object checked to its end and where
/// that is; without `whole`, reading stops once kind, apiVersion and metadata are read.
fn head_members<'a>(
    scanner: &Scanner<'a>,
    pos: usize,
    whole: bool,
) -> Option<(ObjectHead<'a>, usize)> {
    let mut fields = Fields::<3>::new(scanner, pos)?;
    let mut head = ObjectHead::default();
    let slot = |key: &str| match key {
        "kind" => Some(0),
        "apiVersion" => Some(1),
        "metadata" => Some(2),
        _ => None,
    };
    while whole || !fields.all_read() {
        let Some((field, value)) = fields.next(slot)? else {
            break;
        };
        let end = if field == 2 {
            let (metadata, _, end) = scanned_meta(scanner, value)?;
            head.metadata = metadata;
            end
        } else {
            let end = scanner.value_end(value).ok()?;
            let text = Cow::Borrowed(plain_string(scanner, value, end)?);
            if field == 0 {
                head.kind = text;
            } else {
                head.api_version = text;
            }
            end
        };
        fields.skip_to(end);
    }
    Some((head, fields.end()))
}

/// The value at `pos` checked whole, and where it ends; the head read on the way when it is an
/// object the scanner can read (else `object_head` reads it later, the way it reads any).
pub(super) fn checked_object<'a>(
    scanner: &Scanner<'a>,
    pos: usize,
) -> Option<(Option<ObjectHead<'a>>, usize)> {
    if scanner.byte(pos) == Some(b'{') {
        if let Some((head, end)) = head_members(scanner, pos, true) {
            return Some((Some(head), end));
        }
    }
    Some((None, scanner.value_end(pos).ok()?))
}

/// An object's `metadata` starting at `pos`, its `continue` token (a Table's metadata is a
/// list's, read in the same walk as the head), and where it ends.
pub(super) fn scanned_meta<'a>(
    scanner: &Scanner<'a>,
    pos: usize,
) -> Option<(MetaHead<'a>, Option<&'a str>, usize)> {
    let mut fields = Fields::<6>::new(scanner, pos)?;
    let mut meta = MetaHead::default();
    let mut continue_token = None;
    let slot = |key: &str| match key {
        "name" => Some(0),
        "namespace" => Some(1),
        "uid" => Some(2),
        "resourceVersion" => Some(3),
        "annotations" => Some(4),
        "continue" => Some(5),
        _ => None,
    };
    while let Some((field, value)) = fields.next(slot)? {
        let end = scanner.value_end(value).ok()?;
        if field >= 4 {
            let text = scanner.slice(value, end).ok()?;
            if text == "null" {
                fields.skip_to(end);
                continue;
            }
            if field == 4 {
                meta.annotations = Some(raw_value(text)?);
            } else {
                continue_token = Some(plain_string(scanner, value, end)?);
            }
        } else {
            let text = Cow::Borrowed(plain_string(scanner, value, end)?);
            match field {
                0 => meta.name = text,
                1 => meta.namespace = text,
                2 => meta.uid = text,
                _ => meta.resource_version = text,
            }
        }
        fields.skip_to(end);
    }
    Some((meta, continue_token, fields.end()))
}

/// `object_head` by serde_json, for whatever the scanner leaves to it (public as the fuzz
/// targets' oracle).
#[doc(hidden)]
pub fn object_head_by_serde(raw: &str) -> Result<ObjectHead<'_>, serde_json::Error> {
    let bytes = raw.as_bytes();
    let mut head = ObjectHead::default();
    let mut pos = skip_ws(bytes, 0);
    if bytes.get(pos) != Some(&b'{') {
        // Not an object: let serde say what it is.
        return serde_json::from_str(raw);
    }
    pos = skip_ws(bytes, pos + 1);
    let (mut have_kind, mut have_version, mut have_metadata) = (false, false, false);
    while bytes.get(pos) == Some(&b'"') && !(have_kind && have_version && have_metadata) {
        let (key, used) = value_at::<Cow<'_, str>>(raw, pos)?;
        pos = skip_ws(bytes, pos + used);
        if bytes.get(pos) != Some(&b':') {
            return serde_json::from_str(raw);
        }
        pos = skip_ws(bytes, pos + 1);
        let used = match key.as_ref() {
            "kind" => {
                let (kind, used) = value_at(raw, pos)?;
                head.kind = kind;
                have_kind = true;
                used
            }
            "apiVersion" => {
                let (version, used) = value_at(raw, pos)?;
                head.api_version = version;
                have_version = true;
                used
            }
            "metadata" => {
                let (metadata, used) = value_at(raw, pos)?;
                head.metadata = metadata;
                have_metadata = true;
                used
            }
            _ => value_at::<serde::de::IgnoredAny>(raw, pos)?.1,
        };
        pos = skip_ws(bytes, pos + used);
        if bytes.get(pos) == Some(&b',') {
            pos = skip_ws(bytes, pos + 1);
        }
    }
    Ok(head)
}

/// Deserialize one value starting at `pos`; returns it and how many bytes it took.
fn value_at<'a, T: Deserialize<'a>>(
    raw: &'a str,
    pos: usize,
) -> Result<(T, usize), serde_json::Error> {
    let mut values = serde_json::Deserializer::from_str(&raw[pos..]).into_iter::<T>();
    match values.next() {
        Some(Ok(value)) => Ok((value, values.byte_offset())),
        Some(Err(e)) => Err(e),
        // Only whitespace left where a value should be.
        None => serde_json::from_str::<T>("").map(|v| (v, 0)),
    }
}

fn skip_ws(bytes: &[u8], mut pos: usize) -> usize {
    while bytes.get(pos).is_some_and(|b| b.is_ascii_whitespace()) {
        pos += 1;
    }
    pos
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_object_heads_in_any_key_order() {
        let cases = [
            r#"{"kind":"Pod","apiVersion":"v1","metadata":{"name":"a","uid":"u","resourceVersion":"5"},"spec":{"x":1}}"#,
            r#"{"spec":{"x":[1,{"metadata":{"name":"decoy"}}]}, "metadata" : {"name":"a","uid":"u","resourceVersion":"5"},"apiVersion":"v1","kind":"Pod"}"#,
            r#" { "kind" : "Pod" , "apiVersion":"v1", "metadata": {"name":"a","uid":"u","resourceVersion":"5","labels":{"k":"v"}} }"#,
            r#"{"kind":"Pod","apiVersion":"v1","metadata":{"name":"a","uid":"u","resourceVersion":"5","annotations":{"n":"\"}"}}}"#,
        ];
        for raw in cases {
            let fast = object_head(raw).unwrap();
            let slow: ObjectHead = serde_json::from_str(raw).unwrap();
            assert_eq!(fast.kind, "Pod", "{raw}");
            assert_eq!(fast.api_version, "v1", "{raw}");
            assert_eq!(fast.metadata.name, slow.metadata.name, "{raw}");
            assert_eq!(fast.metadata.uid, "u", "{raw}");
            assert_eq!(fast.metadata.resource_version, "5", "{raw}");
        }
        // A list item without kind and apiVersion, and non-objects.
        let item = object_head(r#"{"metadata":{"name":"b"},"status":{}}"#).unwrap();
        assert_eq!((item.kind.as_ref(), item.metadata.name.as_ref()), ("", "b"));
        assert!(object_head("[1]").is_err());
        assert!(object_head(r#"{"metadata":3}"#).is_err());
    }
}
