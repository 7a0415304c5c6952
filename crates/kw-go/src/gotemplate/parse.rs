//! Go's `text/template` lexer and parser, for the subset kubectl's users write: text, comments,
//! `{{- -}}` trimming, `if`/`else if`/`else`, `range` (with `break`/`continue`), `with`,
//! variables, pipelines and parenthesised pipelines. Errors are worded as Go words them
//! (`template: output:LINE: ...`), so kubectl's "error parsing template" line is reproduced.

/// The functions a template may call (Go's builtins kw runs, and kubectl's additions).
pub const FUNCTIONS: [&str; 21] = [
    "and",
    "or",
    "not",
    "len",
    "index",
    "print",
    "printf",
    "println",
    "eq",
    "ne",
    "lt",
    "le",
    "gt",
    "ge",
    "base64decode",
    "exists",
    "slice",
    "html",
    "js",
    "urlquery",
    "call",
];

/// One parsed template: its nodes.
#[derive(Debug, Clone, PartialEq)]
pub enum Node {
    Text(String),
    Action(Pipe),
    If(Control),
    With(Control),
    Range(Control),
    Break(usize),
    Continue(usize),
}

/// `if`, `with` and `range`: the pipeline, the list it runs, and the `else` list.
#[derive(Debug, Clone, PartialEq)]
pub struct Control {
    pub pipe: Pipe,
    pub list: Vec<Node>,
    pub else_list: Vec<Node>,
}

#[derive(Debug, Clone, PartialEq)]
pub struct Pipe {
    pub pos: usize,
    /// Variables the pipeline declares (`$x :=`) or assigns (`$x =`).
    pub decl: Vec<String>,
    pub is_assign: bool,
    pub cmds: Vec<Command>,
}

#[derive(Debug, Clone, PartialEq)]
pub struct Command {
    pub pos: usize,
    pub args: Vec<Operand>,
}

#[derive(Debug, Clone, PartialEq)]
pub enum Operand {
    /// `.a.b`: field names off dot.
    Field {
        pos: usize,
        names: Vec<String>,
    },
    /// `$x.a.b`.
    Variable {
        pos: usize,
        name: String,
        names: Vec<String>,
    },
    /// `(pipeline).a.b`.
    Chain {
        pos: usize,
        pipe: Box<Pipe>,
        names: Vec<String>,
    },
    Pipe(Box<Pipe>),
    Function {
        pos: usize,
        name: String,
    },
    Dot(usize),
    Nil(usize),
    Bool(bool),
    /// A number constant, with its text as written.
    Number(Number, String),
    Str(String),
}

/// A number constant as Go types it when given to a function: an `int` unless it has a point or
/// an exponent (then a `float64`).
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Number {
    Int(i64),
    Float(f64),
}

impl Operand {
    pub fn pos(&self) -> usize {
        match self {
            Operand::Field { pos, .. }
            | Operand::Variable { pos, .. }
            | Operand::Chain { pos, .. }
            | Operand::Function { pos, .. }
            | Operand::Dot(pos)
            | Operand::Nil(pos) => *pos,
            Operand::Pipe(pipe) => pipe.pos,
            _ => 0,
        }
    }

    /// The node as Go's `String()` prints it, for error contexts (`at <.a.b>`).
    pub fn context(&self) -> String {
        let fields = |names: &[String]| names.iter().map(|n| format!(".{n}")).collect::<String>();
        match self {
            Operand::Field { names, .. } => fields(names),
            Operand::Variable { name, names, .. } => format!("{name}{}", fields(names)),
            Operand::Chain { pipe, names, .. } => format!("({}){}", pipe.context(), fields(names)),
            Operand::Pipe(pipe) => format!("({})", pipe.context()),
            Operand::Function { name, .. } => name.clone(),
            Operand::Dot(_) => ".".into(),
            Operand::Nil(_) => "nil".into(),
            Operand::Bool(b) => b.to_string(),
            Operand::Number(_, text) => text.clone(),
            Operand::Str(s) => format!("{s:?}"),
        }
    }
}

impl Command {
    pub fn context(&self) -> String {
        let args: Vec<String> = self.args.iter().map(Operand::context).collect();
        args.join(" ")
    }
}

impl Pipe {
    pub fn context(&self) -> String {
        let mut text = String::new();
        if !self.decl.is_empty() {
            text.push_str(&self.decl.join(", "));
            text.push_str(if self.is_assign { " = " } else { " := " });
        }
        let cmds: Vec<String> = self.cmds.iter().map(Command::context).collect();
        text.push_str(&cmds.join(" | "));
        text
    }
}

#[derive(Debug, Clone, PartialEq)]
enum Tok {
    Text(String),
    Left,
    Right,
    Space,
    Field(String),
    Variable(String),
    Ident(String),
    Keyword(&'static str),
    Dot,
    Str(String),
    Number(String),
    Char(char),
    /// Printable ASCII with no meaning in an action (`@`).
    Other(char),
    Pipe,
    LeftParen,
    RightParen,
    Declare,
    Assign,
    Comma,
    Eof,
    Error(String),
}

#[derive(Debug, Clone)]
struct Token {
    tok: Tok,
    pos: usize,
    line: usize,
}

const KEYWORDS: [&str; 11] = [
    "if", "else", "end", "range", "with", "break", "continue", "define", "template", "block", "nil",
];

/// Split the template into tokens as Go's lexer does; an error ends the list.
fn lex(text: &str) -> Vec<Token> {
    let mut tokens = Vec::new();
    let bytes = text.as_bytes();
    let mut pos = 0;
    let line_at = |pos: usize| 1 + text[..pos].matches('\n').count();
    let mut trim_next_text = false;
    while pos < bytes.len() {
        let start = text[pos..].find("{{").map(|i| pos + i);
        let text_end = start.unwrap_or(bytes.len());
        let mut segment = &text[pos..text_end];
        if trim_next_text {
            segment = segment.trim_start_matches([' ', '\t', '\r', '\n']);
        }
        let Some(start) = start else {
            if !segment.is_empty() {
                tokens.push(Token {
                    tok: Tok::Text(segment.into()),
                    pos,
                    line: line_at(pos),
                });
            }
            pos = bytes.len();
            break;
        };
        let trims_left = text[start + 2..].starts_with("- ")
            || text[start + 2..].starts_with("-\t")
            || text[start + 2..].starts_with("-\r")
            || text[start + 2..].starts_with("-\n");
        if trims_left {
            segment = segment.trim_end_matches([' ', '\t', '\r', '\n']);
        }
        if !segment.is_empty() {
            tokens.push(Token {
                tok: Tok::Text(segment.into()),
                pos,
                line: line_at(pos),
            });
        }
        let mut inner = start + 2 + if trims_left { 2 } else { 0 };
        // A comment is the whole action.
        let comment_at = text[inner..].trim_start_matches(if trims_left {
            &[' ', '\t', '\r', '\n'][..]
        } else {
            &[][..]
        });
        let comment_start = text.len() - comment_at.len();
        if text[if trims_left { comment_start } else { inner }..].starts_with("/*") {
            let from = if trims_left { comment_start } else { inner };
            let Some(close) = text[from + 2..].find("*/") else {
                tokens.push(Token {
                    tok: Tok::Error("unclosed comment".into()),
                    pos: from,
                    line: line_at(from),
                });
                return tokens;
            };
            let after = from + 2 + close + 2;
            let (end, trims_right) = if text[after..].starts_with(" -}}") {
                (after + 4, true)
            } else if text[after..].starts_with("}}") {
                (after + 2, false)
            } else {
                tokens.push(Token {
                    tok: Tok::Error("comment ends before closing delimiter".into()),
                    pos: after,
                    line: line_at(after),
                });
                return tokens;
            };
            trim_next_text = trims_right;
            pos = end;
            continue;
        }
        tokens.push(Token {
            tok: Tok::Left,
            pos: start,
            line: line_at(start),
        });
        let mut depth = 0usize;
        loop {
            let rest = &text[inner..];
            let here = inner;
            let push = |tokens: &mut Vec<Token>, tok: Tok| {
                tokens.push(Token {
                    tok,
                    pos: here,
                    line: line_at(here),
                })
            };
            if rest.starts_with("}}") {
                if depth > 0 {
                    push(&mut tokens, Tok::Error("unclosed left paren".into()));
                    return tokens;
                }
                push(&mut tokens, Tok::Right);
                inner += 2;
                trim_next_text = false;
                break;
            }
            let Some(c) = rest.chars().next() else {
                push(&mut tokens, Tok::Error("unclosed action".into()));
                return tokens;
            };
            match c {
                ' ' | '\t' | '\r' | '\n' => {
                    let len = rest.len() - rest.trim_start_matches([' ', '\t', '\r', '\n']).len();
                    if rest[len..].starts_with("-}}") {
                        if depth > 0 {
                            push(&mut tokens, Tok::Error("unclosed left paren".into()));
                            return tokens;
                        }
                        push(&mut tokens, Tok::Right);
                        inner += len + 3;
                        trim_next_text = true;
                        break;
                    }
                    push(&mut tokens, Tok::Space);
                    inner += len;
                }
                '|' => {
                    push(&mut tokens, Tok::Pipe);
                    inner += 1;
                }
                '(' => {
                    depth += 1;
                    push(&mut tokens, Tok::LeftParen);
                    inner += 1;
                }
                ')' => {
                    if depth == 0 {
                        push(&mut tokens, Tok::Error("unexpected right paren".into()));
                        return tokens;
                    }
                    depth -= 1;
                    push(&mut tokens, Tok::RightParen);
                    inner += 1;
                }
                ',' => {
                    push(&mut tokens, Tok::Comma);
                    inner += 1;
                }
                ':' => {
                    if !rest.starts_with(":=") {
                        push(&mut tokens, Tok::Error("expected :=".into()));
                        return tokens;
                    }
                    push(&mut tokens, Tok::Declare);
                    inner += 2;
                }
                '=' => {
                    push(&mut tokens, Tok::Assign);
                    inner += 1;
                }
                '"' => match scan_quoted(rest) {
                    Ok((value, len)) => {
                        push(&mut tokens, Tok::Str(value));
                        inner += len;
                    }
                    Err(message) => {
                        push(&mut tokens, Tok::Error(message));
                        return tokens;
                    }
                },
                '`' => match rest[1..].find('`') {
                    Some(end) => {
                        push(&mut tokens, Tok::Str(rest[1..1 + end].into()));
                        inner += end + 2;
                    }
                    None => {
                        push(
                            &mut tokens,
                            Tok::Error("unterminated raw quoted string".into()),
                        );
                        return tokens;
                    }
                },
                '\'' => {
                    let mut chars = rest[1..].chars();
                    match (chars.next(), chars.next()) {
                        (Some(ch), Some('\'')) if ch != '\\' => {
                            push(&mut tokens, Tok::Char(ch));
                            inner += 2 + ch.len_utf8();
                        }
                        _ => {
                            push(
                                &mut tokens,
                                Tok::Error("unterminated character constant".into()),
                            );
                            return tokens;
                        }
                    }
                }
                '$' | '.' => {
                    let name_len = rest[1..]
                        .find(|c: char| !(c.is_alphanumeric() || c == '_'))
                        .unwrap_or(rest.len() - 1);
                    let name = &rest[..1 + name_len];
                    if c == '.' && name_len == 0 {
                        if rest[1..].starts_with(|c: char| c.is_ascii_digit()) {
                            let len = number_len(rest);
                            push(&mut tokens, Tok::Number(rest[..len].into()));
                            inner += len;
                        } else {
                            push(&mut tokens, Tok::Dot);
                            inner += 1;
                        }
                    } else if c == '.' {
                        push(&mut tokens, Tok::Field(name[1..].into()));
                        inner += name.len();
                    } else {
                        push(&mut tokens, Tok::Variable(name.into()));
                        inner += name.len();
                    }
                }
                '0'..='9' | '+' | '-' => {
                    let len = number_len(rest);
                    if len == 0 || rest[len..].starts_with(|c: char| c.is_alphanumeric()) {
                        let bad = &rest[..len.max(1)
                            + rest[len.max(1)..]
                                .find(|c: char| !c.is_alphanumeric())
                                .unwrap_or(0)];
                        push(
                            &mut tokens,
                            Tok::Error(format!("bad number syntax: {bad:?}")),
                        );
                        return tokens;
                    }
                    push(&mut tokens, Tok::Number(rest[..len].into()));
                    inner += len;
                }
                c if c.is_alphabetic() || c == '_' => {
                    let len = rest
                        .find(|c: char| !(c.is_alphanumeric() || c == '_'))
                        .unwrap_or(rest.len());
                    let word = &rest[..len];
                    let tok = match KEYWORDS.iter().find(|k| **k == word) {
                        Some(keyword) => Tok::Keyword(keyword),
                        None if word == "true" || word == "false" => Tok::Ident(word.into()),
                        None => Tok::Ident(word.into()),
                    };
                    push(&mut tokens, tok);
                    inner += len;
                }
                // Go passes other printable ASCII on for the parser to refuse in context.
                other if other.is_ascii_graphic() => {
                    push(&mut tokens, Tok::Other(other));
                    inner += 1;
                }
                other => {
                    push(
                        &mut tokens,
                        Tok::Error(format!(
                            "unrecognized character in action: {}",
                            go_quote_rune(other)
                        )),
                    );
                    return tokens;
                }
            }
        }
        pos = inner;
    }
    let _ = pos;
    tokens.push(Token {
        tok: Tok::Eof,
        pos: text.len(),
        line: line_at(text.len()),
    });
    tokens
}

fn go_quote_rune(c: char) -> String {
    format!("U+{:04X} '{c}'", c as u32)
}

fn number_len(text: &str) -> usize {
    let bytes = text.as_bytes();
    let mut i = 0;
    if i < bytes.len() && (bytes[i] == b'+' || bytes[i] == b'-') {
        i += 1;
    }
    let hex = text[i..].starts_with("0x") || text[i..].starts_with("0X");
    if hex {
        i += 2;
    }
    let digit = |b: u8| {
        if hex {
            b.is_ascii_hexdigit() || b == b'_'
        } else {
            b.is_ascii_digit() || b == b'_'
        }
    };
    while i < bytes.len() && digit(bytes[i]) {
        i += 1;
    }
    if i < bytes.len() && bytes[i] == b'.' {
        i += 1;
        while i < bytes.len() && digit(bytes[i]) {
            i += 1;
        }
    }
    if !hex && i < bytes.len() && (bytes[i] == b'e' || bytes[i] == b'E') {
        i += 1;
        if i < bytes.len() && (bytes[i] == b'+' || bytes[i] == b'-') {
            i += 1;
        }
        while i < bytes.len() && bytes[i].is_ascii_digit() {
            i += 1;
        }
    }
    let signed_only = i == 1 && (bytes[0] == b'+' || bytes[0] == b'-');
    if signed_only {
        0
    } else {
        i
    }
}

/// A Go interpreted string literal at the start of `text`: its value and its length.
fn scan_quoted(text: &str) -> Result<(String, usize), String> {
    let mut value = String::new();
    let mut chars = text.char_indices().skip(1);
    while let Some((i, c)) = chars.next() {
        match c {
            '"' => return Ok((value, i + 1)),
            '\n' => break,
            '\\' => {
                let Some((_, escaped)) = chars.next() else {
                    break;
                };
                match escaped {
                    'n' => value.push('\n'),
                    't' => value.push('\t'),
                    'r' => value.push('\r'),
                    '\\' => value.push('\\'),
                    '"' => value.push('"'),
                    '\'' => value.push('\''),
                    'a' => value.push('\x07'),
                    'b' => value.push('\x08'),
                    'f' => value.push('\x0c'),
                    'v' => value.push('\x0b'),
                    'x' | 'u' | 'U' => {
                        let digits = match escaped {
                            'x' => 2,
                            'u' => 4,
                            _ => 8,
                        };
                        let hex: String = (0..digits)
                            .filter_map(|_| chars.next().map(|(_, c)| c))
                            .collect();
                        let code = u32::from_str_radix(&hex, 16)
                            .map_err(|_| "invalid syntax".to_string())?;
                        value.push(char::from_u32(code).ok_or("invalid syntax")?);
                    }
                    _ => return Err("invalid syntax".into()),
                }
            }
            c => value.push(c),
        }
    }
    Err("unterminated quoted string".into())
}

fn parse_number(text: &str) -> Option<Number> {
    let clean: String = text.chars().filter(|c| *c != '_').collect();
    let (negative, digits) = match clean.strip_prefix('-') {
        Some(rest) => (true, rest),
        None => (false, clean.strip_prefix('+').unwrap_or(&clean)),
    };
    let sign = if negative { -1 } else { 1 };
    if let Some(hex) = digits
        .strip_prefix("0x")
        .or_else(|| digits.strip_prefix("0X"))
    {
        return i64::from_str_radix(hex, 16)
            .ok()
            .map(|n| Number::Int(sign * n));
    }
    if !digits.contains(['.', 'e', 'E']) {
        if let Ok(n) = digits.parse::<i64>() {
            return Some(Number::Int(sign * n));
        }
    }
    clean.parse::<f64>().ok().map(Number::Float)
}

/// A parse error, worded as Go's (`template: output:1: unexpected EOF`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ParseError(pub String);

/// How deep parentheses and control actions may nest. Parsing and running recurse once per
/// level, and a template is a user's input that must never overflow the stack (a fuzzed
/// `{{((((…1…))))}}` 511 levels deep did, in a test thread's 2 MiB). Go allows 10,000
/// parentheses on its growable stacks and says `max expression depth exceeded`; real templates
/// nest a handful.
const MAX_DEPTH: usize = 100;

struct Parser<'a> {
    name: &'a str,
    tokens: Vec<Token>,
    at: usize,
    vars: Vec<String>,
    range_depth: usize,
    /// Parentheses and control actions open around the current token (`MAX_DEPTH`).
    depth: usize,
}

/// Parse a template named `name` (kubectl names it `output`).
pub fn parse(name: &str, text: &str) -> Result<Vec<Node>, ParseError> {
    let mut parser = Parser {
        name,
        tokens: lex(text),
        at: 0,
        vars: vec!["$".into()],
        range_depth: 0,
        depth: 0,
    };
    let mut list = Vec::new();
    while parser.peek().tok != Tok::Eof {
        match parser.text_or_action()? {
            Item::Node(node) => list.push(node),
            Item::End => return Err(parser.error("unexpected {{end}}")),
            Item::Else(_) => return Err(parser.error("unexpected {{else}}")),
        }
    }
    Ok(list)
}

enum Item {
    Node(Node),
    End,
    /// `{{else}}`, or `{{else if}}` / `{{else with}}` (the keyword not yet read).
    Else(Option<&'static str>),
}

impl Parser<'_> {
    fn peek(&self) -> &Token {
        &self.tokens[self.at.min(self.tokens.len() - 1)]
    }

    fn next(&mut self) -> Result<Token, ParseError> {
        let token = self.peek().clone();
        if self.at < self.tokens.len() {
            self.at += 1;
        }
        if let Tok::Error(message) = &token.tok {
            return Err(ParseError(format!(
                "template: {}:{}: {message}",
                self.name, token.line
            )));
        }
        Ok(token)
    }

    fn next_non_space(&mut self) -> Result<Token, ParseError> {
        loop {
            let token = self.next()?;
            if token.tok != Tok::Space {
                return Ok(token);
            }
        }
    }

    fn peek_non_space(&mut self) -> Result<Token, ParseError> {
        let token = self.next_non_space()?;
        self.at -= 1;
        Ok(token)
    }

    fn error(&self, message: &str) -> ParseError {
        let line = self.tokens[self.at.saturating_sub(1).min(self.tokens.len() - 1)].line;
        ParseError(format!("template: {}:{line}: {message}", self.name))
    }

    fn unexpected(&self, token: &Token, context: &str) -> ParseError {
        self.error(&format!("unexpected {} in {context}", describe(&token.tok)))
    }

    fn text_or_action(&mut self) -> Result<Item, ParseError> {
        let token = self.next_non_space()?;
        match token.tok {
            Tok::Text(text) => Ok(Item::Node(Node::Text(text))),
            Tok::Left => self.action(),
            other => Err(self.unexpected(
                &Token {
                    tok: other,
                    ..token
                },
                "input",
            )),
        }
    }

    fn item_list(&mut self) -> Result<(Vec<Node>, Item), ParseError> {
        let mut list = Vec::new();
        while self.peek_non_space()?.tok != Tok::Eof {
            match self.text_or_action()? {
                Item::Node(node) => list.push(node),
                ending => return Ok((list, ending)),
            }
        }
        Err(self.error("unexpected EOF"))
    }

    fn action(&mut self) -> Result<Item, ParseError> {
        let token = self.next_non_space()?;
        match token.tok {
            Tok::Keyword("if") => self.control("if").map(|c| Item::Node(Node::If(c))),
            Tok::Keyword("with") => self.control("with").map(|c| Item::Node(Node::With(c))),
            Tok::Keyword("range") => self.control("range").map(|c| Item::Node(Node::Range(c))),
            Tok::Keyword("end") => {
                self.expect_right("end")?;
                Ok(Item::End)
            }
            Tok::Keyword("else") => {
                let peek = self.peek_non_space()?;
                match peek.tok {
                    Tok::Keyword(keyword @ ("if" | "with")) => Ok(Item::Else(Some(keyword))),
                    _ => {
                        self.expect_right("else")?;
                        Ok(Item::Else(None))
                    }
                }
            }
            Tok::Keyword(keyword @ ("break" | "continue")) => {
                if self.range_depth == 0 {
                    return Err(self.error(&format!("{{{{{keyword}}}}} outside {{{{range}}}}")));
                }
                self.expect_right(keyword)?;
                Ok(Item::Node(if keyword == "break" {
                    Node::Break(token.pos)
                } else {
                    Node::Continue(token.pos)
                }))
            }
            Tok::Keyword(keyword @ ("define" | "template" | "block")) => {
                Err(self.error(&format!("kw does not support {{{{{keyword}}}}}")))
            }
            _ => {
                self.at -= 1;
                let pipe = self.pipeline("command", Tok::Right)?;
                Ok(Item::Node(Node::Action(pipe)))
            }
        }
    }

    fn expect_right(&mut self, context: &str) -> Result<(), ParseError> {
        let token = self.next_non_space()?;
        if token.tok != Tok::Right {
            return Err(self.unexpected(&token, context));
        }
        Ok(())
    }

    fn control(&mut self, context: &'static str) -> Result<Control, ParseError> {
        self.deeper()?;
        let control = self.control_body(context);
        self.depth -= 1;
        control
    }

    /// One more level of nesting, refused past `MAX_DEPTH` in Go's words.
    fn deeper(&mut self) -> Result<(), ParseError> {
        if self.depth >= MAX_DEPTH {
            return Err(self.error("max expression depth exceeded"));
        }
        self.depth += 1;
        Ok(())
    }

    fn control_body(&mut self, context: &'static str) -> Result<Control, ParseError> {
        let vars = self.vars.len();
        let pipe = self.pipeline(context, Tok::Right)?;
        if context == "range" {
            self.range_depth += 1;
        }
        let (list, ending) = self.item_list()?;
        if context == "range" {
            self.range_depth -= 1;
        }
        let else_list = match ending {
            Item::End => Vec::new(),
            Item::Else(Some(keyword)) if context != "range" => {
                self.next_non_space()?;
                let control = self.control(keyword)?;
                vec![if keyword == "if" {
                    Node::If(control)
                } else {
                    Node::With(control)
                }]
            }
            _ => {
                let (else_list, ending) = self.item_list()?;
                if !matches!(ending, Item::End) {
                    return Err(self.error("expected end; found {{else}}"));
                }
                else_list
            }
        };
        self.vars.truncate(vars);
        Ok(Control {
            pipe,
            list,
            else_list,
        })
    }

    fn pipeline(&mut self, context: &str, end: Tok) -> Result<Pipe, ParseError> {
        let pos = self.peek_non_space()?.pos;
        let mut pipe = Pipe {
            pos,
            decl: Vec::new(),
            is_assign: false,
            cmds: Vec::new(),
        };
        let start = self.at;
        if let Tok::Variable(name) = self.peek_non_space()?.tok {
            self.next_non_space()?;
            let next = self.peek_non_space()?;
            match next.tok {
                Tok::Declare | Tok::Assign => {
                    self.next_non_space()?;
                    pipe.is_assign = next.tok == Tok::Assign;
                    pipe.decl.push(name.clone());
                    self.vars.push(name);
                }
                Tok::Comma => {
                    self.next_non_space()?;
                    pipe.decl.push(name.clone());
                    self.vars.push(name);
                    if context == "range" && pipe.decl.len() < 2 {
                        if let Tok::Variable(second) = self.next_non_space()?.tok {
                            let assign = self.next_non_space()?;
                            if assign.tok == Tok::Comma {
                                return Err(self.error("too many declarations in range"));
                            }
                            if assign.tok != Tok::Declare && assign.tok != Tok::Assign {
                                return Err(self.error("range can only initialize variables"));
                            }
                            pipe.is_assign = assign.tok == Tok::Assign;
                            pipe.decl.push(second.clone());
                            self.vars.push(second);
                        } else {
                            return Err(self.error("range can only initialize variables"));
                        }
                    } else {
                        return Err(self.error(&format!("too many declarations in {context}")));
                    }
                }
                _ => self.at = start,
            }
        }
        loop {
            let token = self.next_non_space()?;
            if token.tok == end {
                if pipe.cmds.is_empty() {
                    return Err(self.error(&format!("missing value for {context}")));
                }
                for (index, cmd) in pipe.cmds.iter().enumerate().skip(1) {
                    if matches!(
                        cmd.args[0],
                        Operand::Bool(_)
                            | Operand::Dot(_)
                            | Operand::Nil(_)
                            | Operand::Number(..)
                            | Operand::Str(_)
                    ) {
                        return Err(self.error(&format!(
                            "non executable command in pipeline stage {}",
                            index + 1
                        )));
                    }
                }
                return Ok(pipe);
            }
            match token.tok {
                Tok::Ident(_)
                | Tok::Keyword("nil")
                | Tok::Dot
                | Tok::Field(_)
                | Tok::Variable(_)
                | Tok::Number(_)
                | Tok::Str(_)
                | Tok::Char(_)
                | Tok::LeftParen => {
                    self.at -= 1;
                    let cmd = self.command()?;
                    pipe.cmds.push(cmd);
                }
                _ => return Err(self.unexpected(&token, context)),
            }
        }
    }

    fn command(&mut self) -> Result<Command, ParseError> {
        let pos = self.peek_non_space()?.pos;
        let mut cmd = Command {
            pos,
            args: Vec::new(),
        };
        loop {
            self.peek_non_space()?;
            if let Some(operand) = self.operand()? {
                cmd.args.push(operand);
            }
            let token = self.next()?;
            match token.tok {
                Tok::Space => continue,
                Tok::Right | Tok::RightParen => self.at -= 1,
                Tok::Pipe => {}
                _ => return Err(self.unexpected(&token, "operand")),
            }
            break;
        }
        if cmd.args.is_empty() {
            return Err(self.error("empty command"));
        }
        Ok(cmd)
    }

    fn operand(&mut self) -> Result<Option<Operand>, ParseError> {
        let Some(term) = self.term()? else {
            return Ok(None);
        };
        let mut names = Vec::new();
        // Go places a chained field (`.a.b`, `$x.a`) at its second token.
        let chain_pos = self.peek().pos;
        while let Tok::Field(name) = &self.peek().tok {
            names.push(name.clone());
            self.at += 1;
        }
        if names.is_empty() {
            return Ok(Some(term));
        }
        Ok(Some(match term {
            Operand::Field {
                names: mut first, ..
            } => {
                first.extend(names);
                Operand::Field {
                    pos: chain_pos,
                    names: first,
                }
            }
            Operand::Variable {
                name,
                names: mut first,
                ..
            } => {
                first.extend(names);
                Operand::Variable {
                    pos: chain_pos,
                    name,
                    names: first,
                }
            }
            Operand::Pipe(pipe) => Operand::Chain {
                pos: chain_pos,
                pipe,
                names,
            },
            // Go chains fields off a function's result (`len.a` calls `len` with no arguments).
            function @ Operand::Function { pos, .. } => {
                let pipe = Pipe {
                    pos,
                    decl: Vec::new(),
                    is_assign: false,
                    cmds: vec![Command {
                        pos,
                        args: vec![function],
                    }],
                };
                Operand::Chain {
                    pos: chain_pos,
                    pipe: Box::new(pipe),
                    names,
                }
            }
            other => {
                return Err(self.error(&format!("unexpected . after term {:?}", other.context())))
            }
        }))
    }

    fn term(&mut self) -> Result<Option<Operand>, ParseError> {
        let token = self.next_non_space()?;
        let pos = token.pos;
        Ok(Some(match token.tok {
            Tok::Ident(name) if name == "true" || name == "false" => Operand::Bool(name == "true"),
            Tok::Ident(name) => {
                if !FUNCTIONS.contains(&name.as_str()) {
                    return Err(self.error(&format!("function {name:?} not defined")));
                }
                Operand::Function { pos, name }
            }
            Tok::Dot => Operand::Dot(pos),
            Tok::Keyword("nil") => Operand::Nil(pos),
            Tok::Variable(name) => {
                if !self.vars.contains(&name) {
                    return Err(self.error(&format!("undefined variable {name:?}")));
                }
                Operand::Variable {
                    pos,
                    name,
                    names: Vec::new(),
                }
            }
            Tok::Field(name) => Operand::Field {
                pos,
                names: vec![name],
            },
            Tok::Number(text) => match parse_number(&text) {
                Some(number) => Operand::Number(number, text),
                None => return Err(self.error(&format!("illegal number syntax: {text:?}"))),
            },
            Tok::Char(c) => Operand::Number(Number::Int(c as i64), format!("{c:?}")),
            Tok::Str(text) => Operand::Str(text),
            Tok::LeftParen => {
                self.deeper()?;
                let pipe = self.pipeline("parenthesized pipeline", Tok::RightParen);
                self.depth -= 1;
                Operand::Pipe(Box::new(pipe?))
            }
            _ => {
                self.at -= 1;
                return Ok(None);
            }
        }))
    }
}

/// A token as Go's `item.String()` shows it in "unexpected ..." errors.
fn describe(tok: &Tok) -> String {
    match tok {
        Tok::Eof => "EOF".into(),
        Tok::Right => "\"}}\"".into(),
        Tok::Left => "\"{{\"".into(),
        Tok::Keyword(k) => format!("<{k}>"),
        Tok::Text(t) | Tok::Ident(t) | Tok::Number(t) => format!("{t:?}"),
        Tok::Field(f) => format!("\".{f}\""),
        Tok::Variable(v) => format!("{v:?}"),
        Tok::Str(s) => format!("{:?}", format!("{s:?}")),
        Tok::Pipe => "\"|\"".into(),
        Tok::LeftParen => "\"(\"".into(),
        Tok::RightParen => "\")\"".into(),
        Tok::Declare => "\":=\"".into(),
        Tok::Assign => "\"=\"".into(),
        Tok::Comma => "\",\"".into(),
        Tok::Dot => "\".\"".into(),
        Tok::Space => "space".into(),
        Tok::Char(c) => format!("{c:?}"),
        Tok::Other(c) => format!("\"{c}\""),
        Tok::Error(e) => e.clone(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn error(text: &str) -> String {
        parse("output", text).unwrap_err().0
    }

    #[test]
    fn trims_and_comments() {
        let nodes = parse("output", "a  {{- /* c */ -}}  b {{- .x -}} \n c").unwrap();
        assert_eq!(nodes[0], Node::Text("a".into()));
        assert_eq!(nodes[1], Node::Text("b".into()));
        assert!(matches!(&nodes[2], Node::Action(p) if p.context() == ".x"));
        assert_eq!(nodes[3], Node::Text("c".into()));
    }

    #[test]
    fn pipelines_and_declarations() {
        let nodes = parse(
            "output",
            r#"{{range $i, $v := .items}}{{$v.a | printf "%s" }}{{end}}"#,
        )
        .unwrap();
        let Node::Range(control) = &nodes[0] else {
            panic!("not a range")
        };
        assert_eq!(control.pipe.decl, ["$i", "$v"]);
        let Node::Action(pipe) = &control.list[0] else {
            panic!("not an action")
        };
        assert_eq!(pipe.context(), r#"$v.a | printf "%s""#);
        let nodes = parse("output", "{{(index .a 1).b}}").unwrap();
        assert!(matches!(&nodes[0], Node::Action(p) if p.context() == "(index .a 1).b"));
    }

    #[test]
    fn nesting_is_bounded_not_a_stack_overflow() {
        let deep = |open: &str, close: &str, n: usize| {
            format!("{{{{{}1{}}}}}", open.repeat(n), close.repeat(n))
        };
        assert!(parse("output", &deep("(", ")", MAX_DEPTH)).is_ok());
        assert_eq!(
            error(&deep("(", ")", 5_000)),
            "template: output:1: max expression depth exceeded"
        );
        let ifs = format!("{}{}", "{{if 1}}".repeat(5_000), "{{end}}".repeat(5_000));
        assert_eq!(
            error(&ifs),
            "template: output:1: max expression depth exceeded"
        );
        let nested = format!(
            "{}x{}",
            "{{if 1}}".repeat(MAX_DEPTH),
            "{{end}}".repeat(MAX_DEPTH)
        );
        assert!(parse("output", &nested).is_ok());
    }

    #[test]
    fn errors_as_go_words_them() {
        assert_eq!(error("{{.a"), "template: output:1: unclosed action");
        assert_eq!(error("{{if .a}}x"), "template: output:1: unexpected EOF");
        assert_eq!(error("{{end}}"), "template: output:1: unexpected {{end}}");
        assert_eq!(
            error("{{foo}}"),
            "template: output:1: function \"foo\" not defined"
        );
        assert_eq!(
            error("{{if}}{{end}}"),
            "template: output:1: missing value for if"
        );
        assert_eq!(
            error("\n{{$x}}"),
            "template: output:2: undefined variable \"$x\""
        );
        assert_eq!(
            error("{{@}}"),
            "template: output:1: unexpected \"@\" in command"
        );
        assert_eq!(
            error("{{range $i, $v, $w := .x}}{{end}}"),
            "template: output:1: too many declarations in range"
        );
        assert_eq!(
            error("{{break}}"),
            "template: output:1: {{break}} outside {{range}}"
        );
    }
}
