//! Running a parsed template over kubectl's decoded object, as Go's `text/template` runs it with
//! `missingkey=default`: a missing key is an invalid value (`<no value>`), a field of `null` is
//! an error. Errors are worded as Go's (`template: output:1:2: executing "output" at <.a.b>:
//! ...`) and carry what was written before them, which kubectl prints.

use std::time::Instant;

use serde_json::Value as Json;

use super::parse::{Command, Control, Node, Number, Operand, Pipe};
use super::value::{go_quote, sprint, sprintf, sprintln, write_v, Value};

/// An execution error, worded as Go's.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ExecError(pub String);

/// Why a run ended early: the template failed, or the deadline passed (`--timeout`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Stopped {
    Failed(ExecError),
    /// The deadline passed while the template ran: it was stopped at its next step.
    OutOfTime,
}

/// Dot, or a field's receiver: `boxed` when it came out of a map or a slice, so Go sees an
/// `interface {}` (which its errors name).
#[derive(Debug, Clone)]
struct Dot<'a> {
    value: Value<'a>,
    boxed: bool,
}

enum Flow {
    Normal,
    Break,
    Continue,
}

/// Bounds a template's work on untrusted data: range iterations over all executions.
const MAX_ITERATIONS: usize = 10_000_000;

pub struct State<'a> {
    name: &'a str,
    text: &'a str,
    out: &'a mut String,
    /// Variables refer to the data (`Value` borrows it): `$` is the object itself, not a copy.
    vars: Vec<(String, Value<'a>)>,
    iterations: usize,
    /// The run stops at its first step past this instant (`--timeout`).
    deadline: Option<Instant>,
    /// The deadline passed: the error being returned is that, not the template's.
    out_of_time: bool,
    /// Go's `missingkey=error` (kubectl's `--allow-missing-template-keys=false`): a key a map
    /// lacks is an error instead of `<no value>`.
    missing_key_error: bool,
}

type Result<T> = std::result::Result<T, ExecError>;

pub fn execute<'a>(
    name: &'a str,
    text: &'a str,
    nodes: &[Node],
    data: &'a Json,
    out: &'a mut String,
    missing_key_error: bool,
    deadline: Option<Instant>,
) -> std::result::Result<(), Stopped> {
    let root = Value::from_json(data);
    let mut state = State {
        name,
        text,
        out,
        vars: vec![("$".into(), root.clone())],
        iterations: 0,
        deadline,
        out_of_time: false,
        missing_key_error,
    };
    let dot = Dot {
        value: root,
        boxed: false,
    };
    match state.walk_list(&dot, nodes) {
        Ok(_) => Ok(()),
        Err(_) if state.out_of_time => Err(Stopped::OutOfTime),
        Err(error) => Err(Stopped::Failed(error)),
    }
}

impl<'a> State<'a> {
    fn error(&self, pos: usize, context: &str, message: &str) -> ExecError {
        let before = &self.text[..pos.min(self.text.len())];
        let line = 1 + before.matches('\n').count();
        let column = match before.rfind('\n') {
            Some(newline) => pos - newline - 1,
            None => pos,
        };
        ExecError(format!(
            "template: {}:{line}:{column}: executing {} at <{context}>: {message}",
            self.name,
            go_quote(self.name)
        ))
    }

    fn walk_list(&mut self, dot: &Dot<'a>, nodes: &[Node]) -> Result<Flow> {
        for node in nodes {
            match self.walk(dot, node)? {
                Flow::Normal => {}
                other => return Ok(other),
            }
        }
        Ok(Flow::Normal)
    }

    /// One step of the run (a node, a range iteration): past the deadline, the run stops. The
    /// clock is read at every step: a step can print a whole object, and reading it costs less.
    fn step(&mut self) -> Result<()> {
        match self.deadline {
            Some(deadline) if Instant::now() >= deadline => {
                self.out_of_time = true;
                Err(ExecError("the deadline passed".into()))
            }
            _ => Ok(()),
        }
    }

    fn walk(&mut self, dot: &Dot<'a>, node: &Node) -> Result<Flow> {
        self.step()?;
        match node {
            Node::Text(text) => self.out.push_str(text),
            Node::Action(pipe) => {
                let value = self.eval_pipeline(dot, pipe)?;
                if pipe.decl.is_empty() {
                    match value {
                        Value::Missing => self.out.push_str("<no value>"),
                        value => write_v(self.out, &value),
                    }
                }
            }
            Node::If(control) | Node::With(control) => {
                let with = matches!(node, Node::With(_));
                let mark = self.vars.len();
                let value = self.eval_pipeline(dot, &control.pipe)?;
                let flow = if value.truth() {
                    let inner = if with {
                        Dot {
                            value,
                            boxed: false,
                        }
                    } else {
                        dot.clone()
                    };
                    self.walk_list(&inner, &control.list)?
                } else {
                    self.walk_list(dot, &control.else_list)?
                };
                self.vars.truncate(mark);
                return Ok(flow);
            }
            Node::Range(control) => return self.walk_range(dot, control),
            Node::Break(_) => return Ok(Flow::Break),
            Node::Continue(_) => return Ok(Flow::Continue),
        }
        Ok(Flow::Normal)
    }

    fn walk_range(&mut self, dot: &Dot<'a>, control: &Control) -> Result<Flow> {
        let mark = self.vars.len();
        let value = self.eval_pipeline(dot, &control.pipe)?;
        let elements: Vec<(Value<'a>, &'a Json)> = match value {
            Value::List(items) => items
                .iter()
                .enumerate()
                .map(|(i, item)| (Value::GoInt(i as i64), item))
                .collect(),
            Value::Map(map) => {
                let mut members: Vec<(&String, &'a Json)> = map.iter().collect();
                members.sort_by(|a, b| a.0.as_bytes().cmp(b.0.as_bytes()));
                members
                    .into_iter()
                    .map(|(key, item)| (Value::Str(key.clone()), item))
                    .collect()
            }
            Value::Missing | Value::Nil => Vec::new(),
            other => {
                let mut shown = String::new();
                write_v(&mut shown, &other);
                return Err(self.error(
                    control.pipe.pos,
                    &control.pipe.context(),
                    &format!("range can't iterate over {shown}"),
                ));
            }
        };
        if elements.is_empty() {
            let flow = self.walk_list(dot, &control.else_list)?;
            self.vars.truncate(mark);
            return Ok(flow);
        }
        for (index, element) in elements {
            self.step()?;
            self.iterations += 1;
            if self.iterations > MAX_ITERATIONS {
                return Err(self.error(
                    control.pipe.pos,
                    &control.pipe.context(),
                    "too many range iterations",
                ));
            }
            let element = Value::from_json(element);
            match control.pipe.decl.as_slice() {
                [one] => self.set_var(one, element.clone(), mark),
                [first, second] => {
                    self.set_var(first, index, mark);
                    self.set_var(second, element.clone(), mark);
                }
                _ => {}
            }
            let inner = Dot {
                value: element,
                boxed: true,
            };
            let flow = self.walk_list(&inner, &control.list)?;
            self.vars.truncate(mark + control.pipe.decl.len());
            if let Flow::Break = flow {
                break;
            }
        }
        self.vars.truncate(mark);
        Ok(Flow::Normal)
    }

    /// Range variables live just above `mark`: set them in place, declaring on first use.
    fn set_var(&mut self, name: &str, value: Value<'a>, mark: usize) {
        match self.vars[mark..].iter_mut().find(|(n, _)| n == name) {
            Some(slot) => slot.1 = value,
            None => self.vars.push((name.to_string(), value)),
        }
    }

    fn eval_pipeline(&mut self, dot: &Dot<'a>, pipe: &Pipe) -> Result<Value<'a>> {
        let mut value: Option<Value<'a>> = None;
        for cmd in &pipe.cmds {
            let result = self.eval_command(dot, cmd, value.take())?;
            // Go digs a nil interface out to an invalid value.
            value = Some(match result {
                Value::Nil => Value::Missing,
                other => other,
            });
        }
        let value = value.unwrap_or(Value::Missing);
        for name in &pipe.decl {
            if pipe.is_assign {
                if let Some(slot) = self.vars.iter_mut().rev().find(|(n, _)| n == name) {
                    slot.1 = value.clone();
                }
            } else {
                self.vars.push((name.clone(), value.clone()));
            }
        }
        Ok(value)
    }

    fn eval_command(
        &mut self,
        dot: &Dot<'a>,
        cmd: &Command,
        last: Option<Value<'a>>,
    ) -> Result<Value<'a>> {
        let first = &cmd.args[0];
        let has_args = cmd.args.len() > 1 || last.is_some();
        match first {
            Operand::Function { name, .. } => return self.call(dot, cmd, name, last),
            Operand::Field { pos, names } => {
                if has_args {
                    return Err(self.error(
                        *pos,
                        &first.context(),
                        &format!(
                            "{} is not a method but has arguments",
                            names[names.len() - 1]
                        ),
                    ));
                }
                return self.field_chain(&dot.value, dot.boxed, names, *pos, first);
            }
            Operand::Variable { .. } | Operand::Chain { .. } if has_args => {}
            Operand::Variable { .. } | Operand::Chain { .. } => return self.operand(dot, first),
            Operand::Pipe(pipe) if !has_args => return self.eval_pipeline(dot, pipe),
            Operand::Nil(pos) => return Err(self.error(*pos, "nil", "nil is not a command")),
            _ if !has_args => return self.operand(dot, first),
            _ => {}
        }
        Err(self.error(
            first.pos(),
            &first.context(),
            &format!("can't give argument to non-function {}", first.context()),
        ))
    }

    /// The value of an operand given as an argument.
    fn operand(&mut self, dot: &Dot<'a>, operand: &Operand) -> Result<Value<'a>> {
        Ok(match operand {
            Operand::Field { pos, names } => {
                self.field_chain(&dot.value, dot.boxed, names, *pos, operand)?
            }
            Operand::Variable { pos, name, names } => {
                let Some((_, value)) = self.vars.iter().rev().find(|(n, _)| n == name) else {
                    return Err(self.error(*pos, name, &format!("undefined variable: {name}")));
                };
                self.field_chain(value, false, names, *pos, operand)?
            }
            Operand::Chain { pos, pipe, names } => {
                let value = self.eval_pipeline(dot, pipe)?;
                self.field_chain(&value, false, names, *pos, operand)?
            }
            Operand::Pipe(pipe) => self.eval_pipeline(dot, pipe)?,
            Operand::Function { pos, name } => {
                let cmd = Command {
                    pos: *pos,
                    args: vec![operand.clone()],
                };
                self.call(dot, &cmd, name, None)?
            }
            Operand::Dot(_) => dot.value.clone(),
            // An untyped nil: Go's invalid value.
            Operand::Nil(_) => Value::Missing,
            Operand::Bool(b) => Value::Bool(*b),
            Operand::Number(Number::Int(i), _) => Value::GoInt(*i),
            Operand::Number(Number::Float(f), _) => Value::Float(*f),
            Operand::Str(s) => Value::Str(s.clone()),
        })
    }

    /// `.a.b.c` off a receiver, walked by reference so that only the result is copied (a
    /// template that reads `$.kind` per item must not copy the whole list each time).
    fn field_chain(
        &self,
        receiver: &Value<'a>,
        boxed: bool,
        names: &[String],
        pos: usize,
        node: &Operand,
    ) -> Result<Value<'a>> {
        let Some((first, rest)) = names.split_first() else {
            return Ok(receiver.clone());
        };
        let nil = |name: &str| {
            self.error(
                pos,
                &node.context(),
                &format!("nil pointer evaluating interface {{}}.{name}"),
            )
        };
        let not_a_map = |name: &str, type_name: &str| {
            self.error(
                pos,
                &node.context(),
                &format!("can't evaluate field {name} in type {type_name}"),
            )
        };
        let missing = |name: &str| {
            if self.missing_key_error {
                Err(self.error(
                    pos,
                    &node.context(),
                    &format!("map has no entry for key {}", go_quote(name)),
                ))
            } else {
                Ok(Value::Missing)
            }
        };
        let mut current: &'a Json = match receiver {
            Value::Missing => return Ok(Value::Missing),
            Value::Nil => return Err(nil(first)),
            Value::Map(map) => match map.get(first) {
                Some(json) => json,
                None => return missing(first),
            },
            other => {
                let type_name = if boxed {
                    "interface {}"
                } else {
                    other.type_name()
                };
                return Err(not_a_map(first, type_name));
            }
        };
        for name in rest {
            current = match current {
                Json::Object(map) => match map.get(name) {
                    Some(json) => json,
                    None => return missing(name),
                },
                Json::Null => return Err(nil(name)),
                // Out of a map, every value is an `interface {}` to Go.
                _ => return Err(not_a_map(name, "interface {}")),
            };
        }
        Ok(Value::from_json(current))
    }

    fn call(
        &mut self,
        dot: &Dot<'a>,
        cmd: &Command,
        name: &str,
        last: Option<Value<'a>>,
    ) -> Result<Value<'a>> {
        let args = &cmd.args[1..];
        let count = args.len() + usize::from(last.is_some());
        let at = |state: &Self, message: &str| state.error(cmd.pos, &cmd.context(), message);
        let want = |state: &Self, want: usize, at_least: bool| {
            let (ok, word) = if at_least {
                (count >= want, "at least ")
            } else {
                (count == want, "")
            };
            if ok {
                Ok(())
            } else {
                // Go places this error at the function's name.
                Err(state.error(
                    cmd.pos,
                    name,
                    &format!("wrong number of args for {name}: want {word}{want} got {count}"),
                ))
            }
        };
        if name == "and" || name == "or" {
            want(self, 1, true)?;
            let mut value = Value::Missing;
            for arg in args {
                value = self.operand(dot, arg)?;
                if value.truth() == (name == "or") {
                    return Ok(value);
                }
            }
            if let Some(last) = last {
                value = last;
            }
            return Ok(value);
        }
        let mut values = Vec::with_capacity(count);
        for arg in args {
            values.push(self.operand(dot, arg)?);
        }
        values.extend(last);
        let fail = |state: &Self, message: String| {
            Err(at(state, &format!("error calling {name}: {message}")))
        };
        match name {
            "not" => {
                want(self, 1, false)?;
                Ok(Value::Bool(!values[0].truth()))
            }
            "len" => {
                want(self, 1, false)?;
                match &values[0] {
                    Value::Str(s) => Ok(Value::GoInt(s.len() as i64)),
                    Value::List(items) => Ok(Value::GoInt(items.len() as i64)),
                    Value::Map(map) => Ok(Value::GoInt(map.len() as i64)),
                    Value::Missing => fail(
                        self,
                        "reflect: call of reflect.Value.Type on zero Value".into(),
                    ),
                    Value::Nil => fail(self, "len of nil pointer".into()),
                    other => fail(self, format!("len of type {}", other.type_name())),
                }
            }
            "index" => {
                want(self, 1, true)?;
                let mut item = values[0].clone();
                for index in &values[1..] {
                    item = match (&item, index) {
                        (Value::Missing, _) => return fail(self, "index of untyped nil".into()),
                        (Value::Nil, _) => return fail(self, "index of nil pointer".into()),
                        (Value::List(_) | Value::Str(_), Value::Int(i) | Value::GoInt(i)) => {
                            let len = match &item {
                                Value::List(items) => items.len(),
                                Value::Str(s) => s.len(),
                                _ => 0,
                            };
                            if *i < 0 || *i as usize >= len {
                                return fail(self, format!("index out of range: {i}"));
                            }
                            match &item {
                                Value::List(items) => Value::from_json(&items[*i as usize]),
                                Value::Str(s) => Value::GoInt(i64::from(s.as_bytes()[*i as usize])),
                                _ => Value::Missing,
                            }
                        }
                        (Value::List(_) | Value::Str(_), Value::Missing | Value::Nil) => {
                            return fail(self, "cannot index slice/array with nil".into())
                        }
                        (Value::List(_) | Value::Str(_), other) => {
                            return fail(
                                self,
                                format!("cannot index slice/array with type {}", other.type_name()),
                            )
                        }
                        (Value::Map(map), Value::Str(key)) => match map.get(key) {
                            Some(json) => Value::from_json(json),
                            None => Value::Nil,
                        },
                        (Value::Map(_), other) => {
                            return fail(
                                self,
                                format!("value has type {}; should be string", other.type_name()),
                            )
                        }
                        (other, _) => {
                            return fail(
                                self,
                                format!("can't index item of type {}", other.type_name()),
                            )
                        }
                    };
                }
                Ok(item)
            }
            "print" => Ok(Value::Str(sprint(&values))),
            "println" => Ok(Value::Str(sprintln(&values))),
            "printf" => {
                want(self, 1, true)?;
                let Value::Str(format) = &values[0] else {
                    return Err(at(
                        self,
                        &format!(
                            "wrong type for value; expected string; got {}",
                            values[0].type_name()
                        ),
                    ));
                };
                Ok(Value::Str(sprintf(format, &values[1..])))
            }
            "eq" => {
                want(self, 1, true)?;
                let first = &values[0];
                for other in &values[1..] {
                    match compare(first, other) {
                        Ok(Some(std::cmp::Ordering::Equal)) => return Ok(Value::Bool(true)),
                        Ok(_) => {}
                        Err(message)
                            if matches!(first, Value::Missing | Value::Nil)
                                || matches!(other, Value::Missing | Value::Nil) =>
                        {
                            let _ = message;
                        }
                        Err(message) => return fail(self, message),
                    }
                }
                Ok(Value::Bool(false))
            }
            "ne" | "lt" | "le" | "gt" | "ge" => {
                want(self, 2, false)?;
                if name == "ne"
                    && (matches!(values[0], Value::Missing | Value::Nil)
                        || matches!(values[1], Value::Missing | Value::Nil))
                {
                    return Ok(Value::Bool(values[0] != values[1]));
                }
                if name != "ne"
                    && matches!(
                        values[0],
                        Value::Bool(_)
                            | Value::List(_)
                            | Value::Map(_)
                            | Value::Missing
                            | Value::Nil
                    )
                {
                    return fail(self, "invalid type for comparison".into());
                }
                let ordering = match compare(&values[0], &values[1]) {
                    Ok(Some(ordering)) => ordering,
                    Ok(None) => std::cmp::Ordering::Less,
                    Err(message) => return fail(self, message),
                };
                use std::cmp::Ordering::*;
                Ok(Value::Bool(match name {
                    "ne" => ordering != Equal,
                    "lt" => ordering == Less,
                    "le" => ordering != Greater,
                    "gt" => ordering == Greater,
                    _ => ordering != Less,
                }))
            }
            "base64decode" => {
                want(self, 1, false)?;
                let text = match &values[0] {
                    Value::Str(s) => s,
                    Value::Missing | Value::Nil => {
                        let (pos, context) = match args.first() {
                            Some(arg) => (arg.pos(), arg.context()),
                            None => (cmd.pos, cmd.context()),
                        };
                        return Err(self.error(pos, &context, "invalid value; expected string"));
                    }
                    other => {
                        return Err(at(
                            self,
                            &format!(
                                "wrong type for value; expected string; got {}",
                                other.type_name()
                            ),
                        ))
                    }
                };
                use base64::Engine;
                match base64::engine::general_purpose::STANDARD.decode(text) {
                    Ok(bytes) => Ok(Value::Str(String::from_utf8_lossy(&bytes).into_owned())),
                    Err(e) => fail(
                        self,
                        format!("base64 decode failed: {}", go_base64_error(&e)),
                    ),
                }
            }
            "exists" => {
                want(self, 1, true)?;
                let mut item = values[0].clone();
                for index in &values[1..] {
                    item = match (&item, index) {
                        (Value::Map(map), Value::Str(key)) => match map.get(key) {
                            Some(json) => Value::from_json(json),
                            None => return Ok(Value::Bool(false)),
                        },
                        (Value::List(items), Value::Int(i) | Value::GoInt(i))
                            if *i >= 0 && (*i as usize) < items.len() =>
                        {
                            Value::from_json(&items[*i as usize])
                        }
                        _ => return Ok(Value::Bool(false)),
                    };
                }
                Ok(Value::Bool(true))
            }
            "slice" => {
                want(self, 1, true)?;
                slice(&values[0], &values[1..]).or_else(|message| fail(self, message))
            }
            "html" | "js" | "urlquery" => {
                let text = escaped_args(&values);
                Ok(Value::Str(match name {
                    "html" => html_escape(&text),
                    "js" => js_escape(&text),
                    _ => query_escape(&text),
                }))
            }
            // Objects decoded from JSON hold no functions: Go's `call` refuses every value.
            "call" => {
                want(self, 1, true)?;
                match &values[0] {
                    Value::Missing | Value::Nil => fail(self, "call of nil".into()),
                    other => {
                        let callee = args.first().map(Operand::context).unwrap_or_default();
                        fail(
                            self,
                            format!("non-function {callee} of type {}", other.type_name()),
                        )
                    }
                }
            }
            _ => Err(at(self, &format!("can't call {name}"))),
        }
    }
}

/// Go's `slice x 1 2`: strings and lists, `int` indexes.
fn slice<'a>(item: &Value<'a>, indexes: &[Value<'_>]) -> std::result::Result<Value<'a>, String> {
    let len = match item {
        Value::Str(s) => s.len(),
        Value::List(items) => items.len(),
        Value::Missing | Value::Nil => return Err("slice of untyped nil".into()),
        other => return Err(format!("can't slice item of type {}", other.type_name())),
    };
    if indexes.len() > 3 {
        return Err(format!("too many slice indexes: {}", indexes.len()));
    }
    if indexes.len() == 3 && matches!(item, Value::Str(_)) {
        return Err("cannot 3-index slice a string".into());
    }
    let mut bounds = [0, len, len];
    for (slot, index) in indexes.iter().enumerate() {
        let value = match index {
            Value::Int(i) | Value::GoInt(i) => *i,
            Value::Missing | Value::Nil => return Err("cannot index slice/array with nil".into()),
            other => {
                return Err(format!(
                    "cannot index slice/array with type {}",
                    other.type_name()
                ))
            }
        };
        if value < 0 || value as usize > len {
            return Err(format!("index out of range: {value}"));
        }
        bounds[slot] = value as usize;
    }
    if bounds[0] > bounds[1] {
        return Err(format!(
            "invalid slice index: {} > {}",
            bounds[0], bounds[1]
        ));
    }
    if indexes.len() == 3 && bounds[1] > bounds[2] {
        return Err(format!(
            "invalid slice index: {} > {}",
            bounds[1], bounds[2]
        ));
    }
    Ok(match item {
        Value::Str(s) => match s.get(bounds[0]..bounds[1]) {
            Some(part) => Value::Str(part.to_string()),
            None => Value::Str(
                String::from_utf8_lossy(&s.as_bytes()[bounds[0]..bounds[1]]).into_owned(),
            ),
        },
        Value::List(items) => Value::List(&items[bounds[0]..bounds[1]]),
        _ => Value::Missing,
    })
}

/// Go's `evalArgs` for `html`, `js`, `urlquery`: one string as is, else `fmt.Sprint` of the
/// arguments with a missing value as `<no value>`.
fn escaped_args(values: &[Value]) -> String {
    if let [Value::Str(s)] = values {
        return s.clone();
    }
    let printable: Vec<Value> = values
        .iter()
        .map(|v| match v {
            Value::Missing | Value::Nil => Value::Str("<no value>".into()),
            other => other.clone(),
        })
        .collect();
    sprint(&printable)
}

/// Go's `template.HTMLEscapeString`.
fn html_escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '"' => out.push_str("&#34;"),
            '\'' => out.push_str("&#39;"),
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '\0' => out.push('\u{FFFD}'),
            c => out.push(c),
        }
    }
    out
}

/// Go's `template.JSEscapeString`.
fn js_escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '\\' => out.push_str("\\\\"),
            '\'' => out.push_str("\\'"),
            '"' => out.push_str("\\\""),
            '<' => out.push_str("\\u003C"),
            '>' => out.push_str("\\u003E"),
            '&' => out.push_str("\\u0026"),
            '=' => out.push_str("\\u003D"),
            c if (c as u32) < 0x20 => out.push_str(&format!("\\u{:04X}", c as u32)),
            c => out.push(c),
        }
    }
    out
}

/// Go's `url.QueryEscape`.
fn query_escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for byte in text.bytes() {
        match byte {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'_' | b'.' | b'~' => {
                out.push(byte as char)
            }
            b' ' => out.push('+'),
            other => out.push_str(&format!("%{other:02X}")),
        }
    }
    out
}

/// Go's `illegal base64 data at input byte N`.
fn go_base64_error(error: &base64::DecodeError) -> String {
    match error {
        base64::DecodeError::InvalidByte(offset, _)
        | base64::DecodeError::InvalidLastSymbol(offset, _) => {
            format!("illegal base64 data at input byte {offset}")
        }
        _ => "illegal base64 data at input byte 0".into(),
    }
}

/// Go's `eq`/`lt` rules: numbers of one kind, strings, booleans; `int` and `float64` do not mix
/// (the error names both types, as Go's text/template has since kubectl 1.3x's Go).
fn compare(a: &Value, b: &Value) -> std::result::Result<Option<std::cmp::Ordering>, String> {
    match (a, b) {
        (Value::Int(x) | Value::GoInt(x), Value::Int(y) | Value::GoInt(y)) => Ok(Some(x.cmp(y))),
        (Value::Float(x), Value::Float(y)) => Ok(x.partial_cmp(y)),
        (Value::Str(x), Value::Str(y)) => Ok(Some(x.as_bytes().cmp(y.as_bytes()))),
        (Value::Bool(x), Value::Bool(y)) => Ok(Some(x.cmp(y))),
        (Value::List(_) | Value::Map(_), Value::List(_) | Value::Map(_)) => {
            Err("non-comparable type".into())
        }
        _ => Err(format!(
            "incompatible types for comparison: {} and {}",
            a.type_name(),
            b.type_name()
        )),
    }
}
