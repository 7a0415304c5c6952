//! Evaluating a parsed template against a JSON value, as upstream's `jsonpath.go` does for the
//! `map[string]interface{}` values kubectl hands it: the same results, the same order (map keys
//! in sorted order, where Go's order is random), the same errors.

use std::borrow::Cow;
use std::cmp::Ordering;

use serde_json::{Number, Value};

use super::error::JsonPathError;
use super::parser::{Node, Param};

type Val<'a> = Cow<'a, Value>;

/// A template's top level with `{range ...}` ... `{end}` blocks nested.
#[derive(Debug, Clone, PartialEq)]
pub enum Item {
    Text(String),
    Action(Vec<Node>),
    Range {
        head: Vec<Node>,
        body: Vec<Item>,
        /// Whether an `{end}` closed it.
        closed: bool,
    },
    /// An `{end}` outside any range: an error when executed, as upstream.
    StrayEnd,
}

/// Group the top-level nodes into items; a `range` without `end` runs to the end.
pub fn structure(nodes: Vec<Node>) -> Vec<Item> {
    let mut iter = nodes.into_iter();
    let (items, _) = structure_block(&mut iter, false);
    items
}

/// Returns the items and whether the block was closed by `{end}`.
fn structure_block(nodes: &mut impl Iterator<Item = Node>, in_range: bool) -> (Vec<Item>, bool) {
    let mut items = Vec::new();
    while let Some(node) = nodes.next() {
        match node {
            Node::Text(text) => items.push(Item::Text(text)),
            Node::List(list) => match list.first() {
                Some(Node::Identifier(name)) if name == "range" => {
                    let head = list[1..].to_vec();
                    let (body, closed) = structure_block(nodes, true);
                    items.push(Item::Range { head, body, closed });
                }
                Some(Node::Identifier(name)) if name == "end" => {
                    if in_range {
                        return (items, true);
                    }
                    items.push(Item::StrayEnd);
                }
                _ => items.push(Item::Action(list)),
            },
            other => items.push(Item::Action(vec![other])),
        }
    }
    (items, false)
}

/// Evaluation settings.
#[derive(Debug, Clone, Copy)]
pub struct Evaluator {
    pub allow_missing_keys: bool,
}

impl Evaluator {
    /// All result groups of the template, in order (upstream's `FindResults`).
    pub fn find<'a>(
        &self,
        items: &[Item],
        data: &'a Value,
        out: &mut Vec<Vec<Val<'a>>>,
    ) -> Result<(), JsonPathError> {
        for item in items {
            match item {
                Item::Text(text) => out.push(vec![Cow::Owned(Value::String(text.clone()))]),
                Item::Action(nodes) => out.push(self.list(vec![Cow::Borrowed(data)], nodes)?),
                Item::Range { head, body, closed } => {
                    let values = self.list(vec![Cow::Borrowed(data)], head)?;
                    self.range(body, values, out)?;
                    if !closed {
                        // Upstream's loop, finding no `{end}` to resume after, goes on with
                        // what follows the range on the data outside it: the body once more,
                        // from after its last closed range (the last `{end}` it met).
                        let last_end = body
                            .iter()
                            .rposition(|item| matches!(item, Item::Range { closed: true, .. }));
                        let rest = last_end.map_or(&body[..], |at| &body[at + 1..]);
                        self.find(rest, data, out)?;
                    }
                }
                Item::StrayEnd => return Err(exec("not in range, nothing to end")),
            }
        }
        Ok(())
    }

    /// A range's body for each value of its head.
    fn range<'a>(
        &self,
        body: &[Item],
        values: Vec<Val<'a>>,
        out: &mut Vec<Vec<Val<'a>>>,
    ) -> Result<(), JsonPathError> {
        for value in values {
            match value {
                Cow::Borrowed(value) => self.find(body, value, out)?,
                Cow::Owned(value) => {
                    let mut nested = Vec::new();
                    self.find(body, &value, &mut nested)?;
                    out.extend(nested.into_iter().map(|group| {
                        group
                            .into_iter()
                            .map(|v| Cow::Owned(v.into_owned()))
                            .collect()
                    }));
                }
            }
        }
        Ok(())
    }

    fn list<'a>(&self, input: Vec<Val<'a>>, nodes: &[Node]) -> Result<Vec<Val<'a>>, JsonPathError> {
        let mut current = input;
        for node in nodes {
            current = self.walk(current, node)?;
        }
        Ok(current)
    }

    fn walk<'a>(&self, input: Vec<Val<'a>>, node: &Node) -> Result<Vec<Val<'a>>, JsonPathError> {
        match node {
            Node::List(nodes) => self.list(input, nodes),
            Node::Text(text) => Ok(vec![Cow::Owned(Value::String(text.clone()))]),
            Node::Field(name) => self.field(input, name),
            Node::Array(params) => array(input, params),
            Node::Filter {
                left,
                right,
                operator,
            } => self.filter(input, left, right, operator),
            Node::Int(value) => Ok(input
                .iter()
                .map(|_| Cow::Owned(Value::Number((*value).into())))
                .collect()),
            Node::Float(value) => Ok(input
                .iter()
                .map(|_| Cow::Owned(Number::from_f64(*value).map_or(Value::Null, Value::Number)))
                .collect()),
            Node::Bool(value) => Ok(input
                .iter()
                .map(|_| Cow::Owned(Value::Bool(*value)))
                .collect()),
            Node::Wildcard => Ok(input.into_iter().flat_map(children).collect()),
            Node::Recursive => Ok(recursive(input)),
            Node::Union(members) => {
                let mut result = Vec::new();
                for member in members {
                    result.extend(self.list(input.clone(), member)?);
                }
                Ok(result)
            }
            Node::Identifier(name) => match name.as_str() {
                "range" => Ok(input),
                "end" => Err(exec("not in range, nothing to end")),
                other => Err(exec(format!("unrecognized identifier {other}"))),
            },
        }
    }

    fn field<'a>(&self, input: Vec<Val<'a>>, name: &str) -> Result<Vec<Val<'a>>, JsonPathError> {
        if input.is_empty() {
            return Ok(Vec::new());
        }
        let mut results = Vec::new();
        for value in input {
            match value {
                Cow::Borrowed(Value::Object(map)) => {
                    if let Some(found) = map.get(name) {
                        results.push(Cow::Borrowed(found));
                    }
                }
                Cow::Owned(Value::Object(mut map)) => {
                    if let Some(found) = map.remove(name) {
                        results.push(Cow::Owned(found));
                    }
                }
                _ => {}
            }
        }
        if results.is_empty() && !self.allow_missing_keys {
            return Err(exec(format!("{name} is not found")));
        }
        Ok(results)
    }

    fn filter<'a>(
        &self,
        input: Vec<Val<'a>>,
        left: &[Node],
        right: &[Node],
        operator: &str,
    ) -> Result<Vec<Val<'a>>, JsonPathError> {
        let mut results = Vec::new();
        for value in input {
            let items: Vec<Val<'a>> = match value {
                Cow::Borrowed(Value::Array(items)) => items.iter().map(Cow::Borrowed).collect(),
                Cow::Owned(Value::Array(items)) => items.into_iter().map(Cow::Owned).collect(),
                other => {
                    return Err(exec(format!(
                        "{} is not array or slice and cannot be filtered",
                        go_kind(&other)
                    )))
                }
            };
            for item in items {
                let lefts = self.list(vec![item.clone()], left);
                if operator == "exists" {
                    if lefts.is_ok_and(|l| !l.is_empty()) {
                        results.push(item);
                    }
                    continue;
                }
                let lefts = lefts?;
                let left_value = match lefts.as_slice() {
                    [] => continue,
                    [one] => one.clone(),
                    _ => return Err(exec("can only compare one element at a time")),
                };
                let rights = self.list(vec![item.clone()], right)?;
                let right_value = match rights.as_slice() {
                    [] => continue,
                    [one] => one.clone(),
                    _ => return Err(exec("can only compare one element at a time")),
                };
                if compare(&left_value, &right_value, operator)? {
                    results.push(item);
                }
            }
        }
        Ok(results)
    }
}

fn exec(message: impl Into<String>) -> JsonPathError {
    JsonPathError::Execute(message.into())
}

/// What Go's reflection would call this value's kind, for error messages.
fn go_kind(value: &Value) -> &'static str {
    match value {
        Value::Null => "<nil>",
        Value::Bool(_) => "bool",
        Value::Number(n) if n.is_i64() => "int64",
        Value::Number(_) => "float64",
        Value::String(_) => "string",
        Value::Array(_) => "[]interface {}",
        Value::Object(_) => "map[string]interface {}",
    }
}

fn array<'a>(input: Vec<Val<'a>>, params: &[Param; 3]) -> Result<Vec<Val<'a>>, JsonPathError> {
    let mut result = Vec::new();
    for value in input {
        let items: Vec<Val<'a>> = match value {
            Cow::Borrowed(Value::Null) | Cow::Owned(Value::Null) => continue,
            Cow::Borrowed(Value::Array(items)) => items.iter().map(Cow::Borrowed).collect(),
            Cow::Owned(Value::Array(items)) => items.into_iter().map(Cow::Owned).collect(),
            other => return Err(exec(format!("{} is not array or slice", go_kind(&other)))),
        };
        let length = items.len() as i64;
        let mut start = if params[0].known { params[0].value } else { 0 };
        if start < 0 {
            start = start.saturating_add(length);
        }
        let mut end = if params[1].known {
            params[1].value
        } else {
            length
        };
        if end < 0 || (end == 0 && params[1].derived) {
            end = end.saturating_add(length);
        }
        if end == start {
            // Upstream returns here, skipping any further input values.
            return Ok(result);
        }
        if start >= length || start < 0 {
            return Err(exec(format!(
                "array index out of bounds: index {start}, length {length}"
            )));
        }
        if end > length || end < 0 {
            return Err(exec(format!(
                "array index out of bounds: index {}, length {length}",
                end.saturating_sub(1)
            )));
        }
        if start > end {
            return Err(exec(format!(
                "starting index {start} is greater than ending index {end}"
            )));
        }
        let step = if params[2].known {
            if params[2].value <= 0 {
                return Err(exec("step must be > 0"));
            }
            params[2].value as usize
        } else {
            1
        };
        result.extend(
            items
                .into_iter()
                .skip(start as usize)
                .take((end - start) as usize)
                .step_by(step),
        );
    }
    Ok(result)
}

/// The members of a map (sorted by key), the items of an array, the bytes of a string.
fn children(value: Val<'_>) -> Vec<Val<'_>> {
    match value {
        Cow::Borrowed(Value::Object(map)) => map.values().map(Cow::Borrowed).collect(),
        Cow::Borrowed(Value::Array(items)) => items.iter().map(Cow::Borrowed).collect(),
        Cow::Owned(Value::Object(map)) => map.into_iter().map(|(_, v)| Cow::Owned(v)).collect(),
        Cow::Owned(Value::Array(items)) => items.into_iter().map(Cow::Owned).collect(),
        Cow::Borrowed(Value::String(text)) => string_bytes(text),
        Cow::Owned(Value::String(text)) => string_bytes(&text),
        _ => Vec::new(),
    }
}

fn string_bytes<'a>(text: &str) -> Vec<Val<'a>> {
    text.bytes()
        .map(|b| Cow::Owned(Value::Number(b.into())))
        .collect()
}

/// `..`: every value that has children, followed by its descendants.
fn recursive(input: Vec<Val<'_>>) -> Vec<Val<'_>> {
    let mut result = Vec::new();
    for value in input {
        let kids = children(value.clone());
        if !kids.is_empty() {
            result.push(value);
            result.extend(recursive(kids));
        }
    }
    result
}

#[derive(Debug, Clone, Copy, PartialEq)]
enum Basic<'v> {
    Bool(bool),
    Int(i64),
    Float(f64),
    Str(&'v str),
}

fn basic(value: &Value) -> Result<Basic<'_>, JsonPathError> {
    match value {
        Value::Bool(b) => Ok(Basic::Bool(*b)),
        Value::Number(n) => Ok(match n.as_i64() {
            Some(i) => Basic::Int(i),
            None => Basic::Float(n.as_f64().unwrap_or(f64::NAN)),
        }),
        Value::String(s) => Ok(Basic::Str(s)),
        _ => Err(exec("invalid type for comparison")),
    }
}

/// Go's `text/template` comparison functions, as upstream's filter uses them.
fn compare(left: &Value, right: &Value, operator: &str) -> Result<bool, JsonPathError> {
    if !matches!(operator, "==" | "!=" | "<" | "<=" | ">" | ">=") {
        return Err(exec(format!("unrecognized filter operator {operator}")));
    }
    let a = basic(left)?;
    let b = basic(right)?;
    let equal = || -> Result<bool, JsonPathError> {
        Ok(match (a, b) {
            (Basic::Bool(x), Basic::Bool(y)) => x == y,
            (Basic::Int(x), Basic::Int(y)) => x == y,
            (Basic::Float(x), Basic::Float(y)) => x == y,
            (Basic::Str(x), Basic::Str(y)) => x == y,
            _ => return Err(exec("incompatible types for comparison")),
        })
    };
    let less = || -> Result<bool, JsonPathError> {
        Ok(match (a, b) {
            (Basic::Bool(_), Basic::Bool(_)) => return Err(exec("invalid type for comparison")),
            (Basic::Int(x), Basic::Int(y)) => x < y,
            (Basic::Float(x), Basic::Float(y)) => x.partial_cmp(&y) == Some(Ordering::Less),
            (Basic::Str(x), Basic::Str(y)) => x < y,
            _ => return Err(exec("incompatible types for comparison")),
        })
    };
    match operator {
        "==" => equal(),
        "!=" => equal().map(|e| !e),
        "<" => less(),
        "<=" => Ok(less()? || equal()?),
        ">" => Ok(!(less()? || equal()?)),
        ">=" => less().map(|l| !l),
        other => Err(exec(format!("unrecognized filter operator {other}"))),
    }
}
