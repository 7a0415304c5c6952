//! The parser of kubectl's JSONPath template dialect (`k8s.io/client-go/util/jsonpath`,
//! `parser.go`): text outside `{...}` is printed as is; inside, `.field`, `[index]`,
//! `[start:end:step]`, `[*]`, `['key']`, `[a,b]` unions, `[?(@.x=="y")]` filters, `..`
//! recursive descent, `*`, quoted text, numbers, `true`/`false`, and the `range`/`end`
//! keywords. Error messages are upstream's wording.

use super::error::JsonPathError;

/// One node of a parsed template, as upstream's node types.
#[derive(Debug, Clone, PartialEq)]
pub enum Node {
    Text(String),
    /// The nodes of one `{...}` action (or one side of a filter, or one union member).
    List(Vec<Node>),
    Field(String),
    Array([Param; 3]),
    Filter {
        left: Vec<Node>,
        right: Vec<Node>,
        operator: String,
    },
    Int(i64),
    Float(f64),
    Bool(bool),
    Wildcard,
    Recursive,
    Union(Vec<Vec<Node>>),
    Identifier(String),
}

/// One of the three numbers of a slice `[start:end:step]`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Param {
    pub value: i64,
    pub known: bool,
    /// `end` of a plain index `[i]`, set to `i + 1`.
    pub derived: bool,
}

struct Parser<'t> {
    input: &'t str,
    pos: usize,
    start: usize,
}

/// Parse a whole template into its top-level nodes (`Text` and `List`).
pub fn parse(text: &str) -> Result<Vec<Node>, JsonPathError> {
    let mut parser = Parser {
        input: text,
        pos: 0,
        start: 0,
    };
    let mut root = Vec::new();
    parser.parse_text(&mut root)?;
    Ok(root)
}

/// Parse `text` as the inside of one action: upstream's `parseAction`.
fn parse_action(text: &str) -> Result<Vec<Node>, JsonPathError> {
    let root = parse(&format!("{{{text}}}"))?;
    match root.into_iter().next() {
        Some(Node::List(nodes)) => Ok(nodes),
        _ => Ok(Vec::new()),
    }
}

fn syntax(message: impl Into<String>) -> JsonPathError {
    JsonPathError::Parse(message.into())
}

impl Parser<'_> {
    fn rest(&self) -> &str {
        &self.input[self.pos..]
    }

    fn consume_text(&mut self) -> String {
        let value = self.input[self.start..self.pos].to_string();
        self.start = self.pos;
        value
    }

    fn next(&mut self) -> Option<char> {
        let ch = self.rest().chars().next()?;
        self.pos += ch.len_utf8();
        Some(ch)
    }

    fn peek(&self) -> Option<char> {
        self.rest().chars().next()
    }

    fn backup(&mut self, ch: Option<char>) {
        if let Some(ch) = ch {
            self.pos -= ch.len_utf8();
        }
    }

    fn parse_text(&mut self, root: &mut Vec<Node>) -> Result<(), JsonPathError> {
        loop {
            if self.rest().starts_with('{') {
                if self.pos > self.start {
                    root.push(Node::Text(self.consume_text()));
                }
                self.pos += 1;
                self.consume_text();
                let mut action = Vec::new();
                let result = self.parse_inside_action(&mut action);
                root.push(Node::List(action));
                result?;
                // The right delimiter was consumed; go on with the text after it.
                continue;
            }
            if self.next().is_none() {
                break;
            }
        }
        if self.pos > self.start {
            root.push(Node::Text(self.consume_text()));
        }
        Ok(())
    }

    /// Parse the inside of an action up to and including its `}`.
    fn parse_inside_action(&mut self, cur: &mut Vec<Node>) -> Result<(), JsonPathError> {
        loop {
            if self.rest().starts_with('}') {
                self.pos += 1;
                self.consume_text();
                return Ok(());
            }
            if self.rest().starts_with("[?(") {
                self.parse_filter(cur)?;
                continue;
            }
            if self.rest().starts_with("..") {
                self.parse_recursive(cur)?;
                continue;
            }
            let ch = self.next();
            match ch {
                None | Some('\r') | Some('\n') => return Err(syntax("unclosed action")),
                Some(' ') | Some('@') | Some('$') => {
                    self.consume_text();
                }
                Some('[') => self.parse_array(cur)?,
                Some(quote @ ('"' | '\'')) => self.parse_quote(cur, quote)?,
                Some('.') => self.parse_field(cur),
                Some(c) if c == '+' || c == '-' || c.is_ascii_digit() => {
                    self.backup(ch);
                    self.parse_number(cur)?;
                }
                Some(c) if is_alphanumeric(c) => {
                    self.backup(ch);
                    self.parse_identifier(cur);
                }
                Some(c) => {
                    return Err(syntax(format!(
                        "unrecognized character in action: U+{:04X} '{c}'",
                        c as u32
                    )))
                }
            }
        }
    }

    fn parse_identifier(&mut self, cur: &mut Vec<Node>) {
        loop {
            let ch = self.next();
            if is_terminator(ch) {
                self.backup(ch);
                break;
            }
        }
        let value = self.consume_text();
        cur.push(match value.as_str() {
            "true" => Node::Bool(true),
            "false" => Node::Bool(false),
            _ => Node::Identifier(value),
        });
    }

    fn parse_recursive(&mut self, cur: &mut Vec<Node>) -> Result<(), JsonPathError> {
        if cur.last() == Some(&Node::Recursive) {
            return Err(syntax("invalid multiple recursive descent"));
        }
        self.pos += 2;
        self.consume_text();
        cur.push(Node::Recursive);
        if self.peek().is_some_and(is_alphanumeric) {
            self.parse_field(cur);
        }
        Ok(())
    }

    fn parse_number(&mut self, cur: &mut Vec<Node>) -> Result<(), JsonPathError> {
        if matches!(self.peek(), Some('+') | Some('-')) {
            self.next();
        }
        loop {
            let ch = self.next();
            if !ch.is_some_and(|c| c == '.' || c.is_ascii_digit()) {
                self.backup(ch);
                break;
            }
        }
        let value = self.consume_text();
        let digits = value.strip_prefix('+').unwrap_or(&value);
        if let Ok(int) = digits.parse::<i64>() {
            cur.push(Node::Int(int));
        } else if let Some(float) = parse_go_float(&value) {
            cur.push(Node::Float(float));
        } else {
            return Err(syntax(format!("cannot parse number {value}")));
        }
        Ok(())
    }

    fn parse_array(&mut self, cur: &mut Vec<Node>) -> Result<(), JsonPathError> {
        loop {
            match self.next() {
                None | Some('\n') => return Err(syntax("unterminated array")),
                Some(']') => break,
                Some(_) => {}
            }
        }
        let consumed = self.consume_text();
        let mut text = &consumed[1..consumed.len() - 1];
        if text == "*" {
            text = ":";
        }
        let parts: Vec<&str> = text.split(',').collect();
        if parts.len() > 1 {
            let mut union = Vec::new();
            for part in parts {
                union.push(parse_action(&format!("[{}]", part.trim_matches(' ')))?);
            }
            cur.push(Node::Union(union));
            return Ok(());
        }
        if let Some(key) = text
            .strip_prefix('\'')
            .and_then(|t| t.strip_suffix('\''))
            .filter(|k| !k.contains('\''))
        {
            cur.extend(parse_action(&format!(".{key}"))?);
            return Ok(());
        }
        cur.push(Node::Array(parse_slice(text)?));
        Ok(())
    }

    fn parse_filter(&mut self, cur: &mut Vec<Node>) -> Result<(), JsonPathError> {
        self.pos += 3;
        self.consume_text();
        let mut begin = false;
        let mut end = false;
        let mut pair = '\0';
        loop {
            let ch = self.next();
            match ch {
                None | Some('\n') => return Err(syntax("unterminated filter")),
                Some(quote @ ('"' | '\'')) => {
                    if !begin {
                        begin = true;
                        pair = quote;
                        continue;
                    }
                    let escaped = self.pos >= 2 && self.input.as_bytes()[self.pos - 2] == b'\\';
                    if !escaped && quote == pair {
                        end = true;
                    }
                }
                Some(')') if begin == end => break,
                Some(_) => {}
            }
        }
        if self.next() != Some(']') {
            return Err(syntax("unclosed array expect ]"));
        }
        let consumed = self.consume_text();
        let text = &consumed[..consumed.len() - 2];
        match split_comparison(text) {
            Some((left, operator, right)) => cur.push(Node::Filter {
                left: parse_action(left)?,
                right: parse_action(right)?,
                operator: operator.to_string(),
            }),
            None => cur.push(Node::Filter {
                left: parse_action(text)?,
                right: Vec::new(),
                operator: "exists".into(),
            }),
        }
        Ok(())
    }

    fn parse_quote(&mut self, cur: &mut Vec<Node>, quote: char) -> Result<(), JsonPathError> {
        loop {
            match self.next() {
                None | Some('\n') => return Err(syntax("unterminated quoted string")),
                Some(c) if c == quote && self.input.as_bytes()[self.pos - 2] != b'\\' => break,
                Some(_) => {}
            }
        }
        let value = self.consume_text();
        let text = unquote(&value)
            .ok_or_else(|| syntax(format!("unquote string {value} error invalid syntax")))?;
        cur.push(Node::Text(text));
        Ok(())
    }

    fn parse_field(&mut self, cur: &mut Vec<Node>) {
        self.consume_text();
        loop {
            let ch = self.next();
            if ch == Some('\\') {
                self.next();
            } else if is_terminator(ch) {
                self.backup(ch);
                break;
            }
        }
        let value = self.consume_text();
        if value == "*" {
            cur.push(Node::Wildcard);
        } else {
            cur.push(Node::Field(value.replace('\\', "")));
        }
    }
}

/// The nodes in upstream's `collectNode` order, each as upstream's `String()` prints it
/// (`NodeField: name`): what upstream's parser tests compare.
pub fn dump(nodes: &[Node]) -> Vec<String> {
    let mut out = Vec::new();
    for node in nodes {
        dump_node(node, &mut out);
    }
    out
}

fn dump_node(node: &Node, out: &mut Vec<String>) {
    let params = |p: &[Param; 3]| {
        p.iter()
            .map(|e| format!("{{{} {} {}}}", e.value, e.known, e.derived))
            .collect::<Vec<_>>()
            .join(" ")
    };
    match node {
        Node::Text(text) => out.push(format!("NodeText: {text}")),
        Node::List(nodes) => {
            out.push("NodeList".into());
            for node in nodes {
                dump_node(node, out);
            }
        }
        Node::Field(name) => out.push(format!("NodeField: {name}")),
        Node::Array(p) => out.push(format!("NodeArray: [{}]", params(p))),
        Node::Filter {
            left,
            right,
            operator,
        } => {
            out.push(format!("NodeFilter: NodeList {operator} NodeList"));
            dump_node(&Node::List(left.clone()), out);
            dump_node(&Node::List(right.clone()), out);
        }
        Node::Int(value) => out.push(format!("NodeInt: {value}")),
        Node::Float(value) => out.push(format!("NodeFloat: {value}")),
        Node::Bool(value) => out.push(format!("NodeBool: {value}")),
        Node::Wildcard => out.push("NodeWildcard".into()),
        Node::Recursive => out.push("NodeRecursive".into()),
        Node::Union(members) => {
            out.push("NodeUnion".into());
            for member in members {
                dump_node(&Node::List(member.clone()), out);
            }
        }
        Node::Identifier(name) => out.push(format!("NodeIdentifier: {name}")),
    }
}

/// upstream's `^([^!<>=]+)([!<>=]+)(.+?)$`.
fn split_comparison(text: &str) -> Option<(&str, &str, &str)> {
    let is_op = |c: char| matches!(c, '!' | '<' | '>' | '=');
    let op_start = text.find(is_op)?;
    if op_start == 0 {
        return None;
    }
    let op_len = text[op_start..]
        .find(|c: char| !is_op(c))
        .unwrap_or(text.len() - op_start);
    let right = &text[op_start + op_len..];
    if right.is_empty() || right.contains(['\n']) {
        return None;
    }
    Some((&text[..op_start], &text[op_start..op_start + op_len], right))
}

/// upstream's slice pattern `^(-?[\d]*)(:-?[\d]*)?(:-?[\d]*)?$` and its reading of the parts.
fn parse_slice(text: &str) -> Result<[Param; 3], JsonPathError> {
    let invalid = || syntax(format!("invalid array index {text}"));
    let parts: Vec<&str> = text.split(':').collect();
    if parts.len() > 3 {
        return Err(invalid());
    }
    let well_formed = |part: &str| {
        let digits = part.strip_prefix('-').unwrap_or(part);
        digits.bytes().all(|b| b.is_ascii_digit())
    };
    if !parts.iter().all(|p| well_formed(p)) {
        return Err(invalid());
    }
    let mut params = [Param::default(); 3];
    for i in 0..3 {
        match parts.get(i) {
            Some(part) if !part.is_empty() => {
                params[i].known = true;
                params[i].value = part
                    .parse()
                    .map_err(|_| syntax(format!("array index {part} is not a number")))?;
            }
            // `[:x]`: the start is unknown; `[x:]`, `[x::]`: so is the end or step.
            Some(_) => {}
            None if i == 1 => {
                params[1] = Param {
                    value: params[0].value.saturating_add(1),
                    known: true,
                    derived: true,
                };
            }
            None => {}
        }
    }
    Ok(params)
}

fn is_terminator(ch: Option<char>) -> bool {
    match ch {
        None => true,
        Some(c) => matches!(
            c,
            ' ' | '\t' | '\r' | '\n' | '.' | ',' | '[' | ']' | '$' | '@' | '{' | '}'
        ),
    }
}

/// `_`, letters and digits (upstream's `unicode.IsLetter || unicode.IsDigit`).
fn is_alphanumeric(ch: char) -> bool {
    ch == '_' || ch.is_alphabetic() || ch.is_ascii_digit()
}

/// `strconv.ParseFloat` for what `parseNumber` collects: sign, digits and dots.
fn parse_go_float(text: &str) -> Option<f64> {
    let body = text.strip_prefix(['+', '-']).unwrap_or(text);
    if body.is_empty() || body == "." || body.matches('.').count() > 1 {
        return None;
    }
    text.parse().ok()
}

/// upstream's `UnquoteExtend`: Go's `strconv.Unquote` rules for `"..."` and `'...'`.
fn unquote(quoted: &str) -> Option<String> {
    let quote = quoted.chars().next()?;
    if quoted.len() < 2 || !quoted.ends_with(quote) || !matches!(quote, '"' | '\'') {
        return None;
    }
    let body = &quoted[1..quoted.len() - 1];
    let mut out = String::with_capacity(body.len());
    let mut chars = body.chars().peekable();
    while let Some(ch) = chars.next() {
        if ch == quote {
            return None;
        }
        if ch != '\\' {
            out.push(ch);
            continue;
        }
        let escaped = chars.next()?;
        let mut hex = |count: usize| -> Option<u32> {
            let digits: String = (0..count).filter_map(|_| chars.next()).collect();
            if digits.len() != count {
                return None;
            }
            u32::from_str_radix(&digits, 16).ok()
        };
        let decoded = match escaped {
            'a' => '\x07',
            'b' => '\x08',
            'f' => '\x0c',
            'n' => '\n',
            'r' => '\r',
            't' => '\t',
            'v' => '\x0b',
            '\\' => '\\',
            '\'' | '"' if escaped == quote => escaped,
            'x' => char::from_u32(hex(2)?)?,
            'u' => char::from_u32(hex(4)?)?,
            'U' => char::from_u32(hex(8)?)?,
            '0'..='7' => {
                let mut value = escaped.to_digit(8)?;
                for _ in 0..2 {
                    value = value * 8 + chars.next()?.to_digit(8)?;
                }
                char::from_u32(value).filter(|_| value <= 255)?
            }
            _ => return None,
        };
        out.push(decoded);
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_and_actions() {
        assert_eq!(
            parse("hello {.a.b} x").unwrap(),
            vec![
                Node::Text("hello ".into()),
                Node::List(vec![Node::Field("a".into()), Node::Field("b".into())]),
                Node::Text(" x".into()),
            ]
        );
    }

    #[test]
    fn arrays_slices_and_unions() {
        let nodes = parse("{[1:3:2]}").unwrap();
        let Node::List(inner) = &nodes[0] else {
            panic!("{nodes:?}")
        };
        assert_eq!(
            inner[0],
            Node::Array([
                Param {
                    value: 1,
                    known: true,
                    derived: false
                },
                Param {
                    value: 3,
                    known: true,
                    derived: false
                },
                Param {
                    value: 2,
                    known: true,
                    derived: false
                },
            ])
        );
        assert!(
            matches!(&parse("{[0,2]}").unwrap()[0], Node::List(v) if matches!(v[0], Node::Union(_)))
        );
        assert!(parse("{[a]}").is_err());
    }

    #[test]
    fn quotes_and_escapes() {
        assert_eq!(
            parse(r#"{"\n\t\u00e9"}"#).unwrap(),
            vec![Node::List(vec![Node::Text("\n\té".into())])]
        );
        assert_eq!(unquote("'a'"), Some("a".into()));
        assert_eq!(unquote(r#""\x41\101""#), Some("AA".into()));
    }

    #[test]
    fn errors_are_reported_not_panicked() {
        // Each bad template is an error, worded as client-go's parser words it.
        for (bad, message) in [
            ("{", "unclosed action"),
            ("{.a", "unclosed action"),
            ("{[", "unterminated array"),
            ("{[?(@.a", "unterminated filter"),
            ("{#}", "unrecognized character in action: U+0023 '#'"),
            ("{\"a}", "unterminated quoted string"),
            ("{.a[1:2:3:4]}", "invalid array index 1:2:3:4"),
            ("{..\u{e9}", "unclosed action"),
        ] {
            match parse(bad) {
                Err(JsonPathError::Parse(m)) => assert_eq!(m, message, "{bad:?}"),
                other => panic!("{bad:?}: {other:?}"),
            }
        }
    }
}
