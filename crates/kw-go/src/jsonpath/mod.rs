//! kubectl's JSONPath template dialect (`k8s.io/client-go/util/jsonpath`), used by
//! `-o jsonpath=`, `-o custom-columns=` and `--sort-by`. No crate implements this dialect (it is
//! not RFC 9535: it has `range`/`end`, quoted text, Go-style printing), so kw has its own, checked
//! against upstream's test table (`tests/jsonpath/cases.json`).
//!
//! `parser` turns the template into nodes, `eval` runs them against a `serde_json::Value`;
//! this module prints results as upstream's `PrintResults` does: strings raw, maps and arrays
//! as compact JSON (Go's encoding), numbers as Go prints them, results of one action separated
//! by a space.

mod error;
mod eval;
mod parser;

use std::borrow::Cow;

use serde_json::Value;

use crate::goformat::fmt::write_go_float_v;
use crate::goformat::json::write_compact;

pub use error::JsonPathError;
pub use eval::Item;

/// A parsed template.
#[derive(Debug, Clone, PartialEq)]
pub struct JsonPath {
    items: Vec<Item>,
    allow_missing_keys: bool,
}

impl JsonPath {
    /// Parse `template`. Missing keys are errors until `allow_missing_keys`.
    pub fn parse(template: &str) -> Result<JsonPath, JsonPathError> {
        Ok(JsonPath {
            items: eval::structure(parser::parse(template)?),
            allow_missing_keys: false,
        })
    }

    /// kubectl's `--allow-missing-template-keys` (on by default in kubectl's printers).
    pub fn allow_missing_keys(mut self, allow: bool) -> JsonPath {
        self.allow_missing_keys = allow;
        self
    }

    /// The result groups of the template (one per action or text), unprinted.
    pub fn find<'a>(&self, data: &'a Value) -> Result<Vec<Vec<Cow<'a, Value>>>, JsonPathError> {
        let evaluator = eval::Evaluator {
            allow_missing_keys: self.allow_missing_keys,
        };
        let mut groups = Vec::new();
        evaluator.find(&self.items, data, &mut groups)?;
        Ok(groups)
    }

    /// Run the template and append its text to `out` (upstream's `Execute`). Nothing is
    /// appended when it fails.
    pub fn execute(&self, data: &Value, out: &mut Vec<u8>) -> Result<(), JsonPathError> {
        let groups = self.find(data)?;
        for group in groups {
            for (index, value) in group.iter().enumerate() {
                if index > 0 {
                    out.push(b' ');
                }
                write_result(out, value);
            }
        }
        Ok(())
    }
}

/// kubectl's `RelaxedJSONPathExpression`, for paths typed without the template syntax
/// (custom columns, `--sort-by`, wait conditions): `a.b`, `.a.b`, `{a.b}` and `{.a.b}` all mean
/// `{.a.b}`. `None` when the path is empty inside braces or holds braces of its own.
pub fn relaxed(path: &str) -> Option<String> {
    if path.is_empty() {
        return Some(String::new());
    }
    let inner = match path.strip_prefix('{').and_then(|p| p.strip_suffix('}')) {
        Some(inner) => inner,
        None => path,
    };
    let inner = inner.strip_prefix('.').unwrap_or(inner);
    if inner.is_empty() || inner.contains(['{', '}']) {
        return None;
    }
    Some(format!("{{.{inner}}}"))
}

/// The parsed nodes of `template` as upstream's parser tests list them (for those tests).
pub fn parse_dump(template: &str) -> Result<Vec<String>, JsonPathError> {
    parser::parse(template).map(|nodes| parser::dump(&nodes))
}

impl JsonPath {
    /// Upstream's `EnableJSONOutput` (`-o jsonpath-as-json`): each action's results as one
    /// JSON array, indented as `json.MarshalIndent` with four spaces, and a newline.
    pub fn execute_json(&self, data: &Value, out: &mut Vec<u8>) -> Result<(), JsonPathError> {
        for group in self.find(data)? {
            let array = Value::Array(group.into_iter().map(Cow::into_owned).collect());
            crate::goformat::json::write_indented(out, &array, 0);
            out.push(b'\n');
        }
        Ok(())
    }
}

/// One result as upstream prints it.
pub fn write_result(out: &mut Vec<u8>, value: &Value) {
    match value {
        Value::String(text) => out.extend_from_slice(text.as_bytes()),
        Value::Array(_) | Value::Object(_) => write_compact(out, value),
        Value::Number(number) => match number.as_i64() {
            Some(integer) => out.extend_from_slice(integer.to_string().as_bytes()),
            None => write_go_float_v(out, number.as_f64().unwrap_or(0.0)),
        },
        Value::Bool(true) => out.extend_from_slice(b"true"),
        Value::Bool(false) => out.extend_from_slice(b"false"),
        Value::Null => out.extend_from_slice(b"null"),
    }
}
