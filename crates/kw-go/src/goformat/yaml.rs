//! A YAML encoder that writes bytes exactly as kubectl's `-o yaml` does: `sigs.k8s.io/yaml`
//! marshals the object to JSON, reads that back with go-yaml v2 (so numbers get YAML types) and
//! writes it with go-yaml v2's emitter (a port of libyaml).
//!
//! What users see and this reproduces: map keys in go-yaml's "natural" order (digits compared as
//! numbers, non-letters before letters), sequences in a mapping not indented, empty collections
//! as `{}`/`[]`, strings that would read back as something else (`"123"`, `"true"`, `""`,
//! timestamps) double-quoted, strings starting with an indicator single-quoted, multi-line
//! strings as `|` literal blocks, non-printable characters (tabs, emoji) escaped in double
//! quotes, and long plain or quoted strings folded at column 80. This module only encodes; it
//! does not decide what to print (see `yaml.rs`).

use std::cmp::Ordering;

use serde_json::{Map, Number, Value};

use super::fmt::write_go_float_v;
use super::json::write_json_float;

/// go-yaml's emitter defaults.
const BEST_INDENT: i32 = 2;
const BEST_WIDTH: usize = 80;
/// Longest key written as `key: value`; longer ones use the `? key` form.
const MAX_SIMPLE_KEY: usize = 128;

/// Marshal one value as a YAML document (what `yaml.Marshal` returns), appended to `out`.
pub fn write_document(out: &mut Vec<u8>, value: &Value) {
    let mut emitter = Emitter::new(out);
    emitter.node(value, Context::ROOT);
    emitter.end_document();
}

/// The YAML of kubectl's `List` wrapper, written one item at a time so that a large list is
/// never held whole.
pub struct ListWriter {
    state: State,
    items: usize,
}

impl Default for ListWriter {
    fn default() -> Self {
        ListWriter::new()
    }
}

impl ListWriter {
    pub fn new() -> ListWriter {
        ListWriter {
            state: State::start(),
            items: 0,
        }
    }

    /// Append one item of `items:`; the first one writes the opening too.
    pub fn item(&mut self, out: &mut Vec<u8>, value: &Value) {
        if self.items == 0 {
            out.extend_from_slice(b"apiVersion: v1\nitems:");
            // As the emitter stands after `items:` inside the root mapping, about to write an
            // indentless block sequence.
            self.state = State {
                column: 6,
                indent: 0,
                indents: vec![-1, 0],
                whitespace: false,
                indention: false,
                open_ended: false,
                flow_level: 0,
            };
        }
        self.items += 1;
        let mut emitter = Emitter {
            out,
            state: std::mem::replace(&mut self.state, State::start()),
            context: Context::ROOT,
        };
        emitter.sequence_item(value);
        self.state = emitter.state;
    }

    /// Append the rest of the `List` after the items.
    pub fn finish(&mut self, out: &mut Vec<u8>) {
        if self.items == 0 {
            out.extend_from_slice(b"apiVersion: v1\nitems: []\n");
        } else {
            let mut emitter = Emitter {
                out,
                state: std::mem::replace(&mut self.state, State::start()),
                context: Context::ROOT,
            };
            emitter.state.indent = 0;
            emitter.write_indent();
        }
        out.extend_from_slice(b"kind: List\nmetadata:\n  resourceVersion: \"\"\n");
        self.items = 0;
    }
}

/// Where a node sits, as libyaml tracks it.
#[derive(Debug, Clone, Copy)]
struct Context {
    root: bool,
    mapping: bool,
    simple_key: bool,
}

impl Context {
    const ROOT: Context = Context {
        root: true,
        mapping: false,
        simple_key: false,
    };
    const SEQUENCE: Context = Context {
        root: false,
        mapping: false,
        simple_key: false,
    };
    const VALUE: Context = Context {
        root: false,
        mapping: true,
        simple_key: false,
    };
    const KEY: Context = Context {
        root: false,
        mapping: true,
        simple_key: true,
    };
}

/// The emitter's position and layout state between writes.
#[derive(Debug, Clone)]
struct State {
    /// Characters (not bytes) written on the current line.
    column: usize,
    indent: i32,
    indents: Vec<i32>,
    /// The last thing written was whitespace (no separating space needed).
    whitespace: bool,
    /// Only indentation has been written on the current line.
    indention: bool,
    /// A document end marker (`...`) is needed before the stream ends.
    open_ended: bool,
    flow_level: usize,
}

impl State {
    fn start() -> State {
        State {
            column: 0,
            indent: -1,
            indents: Vec::new(),
            whitespace: true,
            indention: true,
            open_ended: false,
            flow_level: 0,
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Style {
    Plain,
    SingleQuoted,
    DoubleQuoted,
    Literal,
}

struct Emitter<'o> {
    out: &'o mut Vec<u8>,
    state: State,
    context: Context,
}

impl<'o> Emitter<'o> {
    fn new(out: &'o mut Vec<u8>) -> Emitter<'o> {
        Emitter {
            out,
            state: State::start(),
            context: Context::ROOT,
        }
    }

    fn node(&mut self, value: &Value, context: Context) {
        self.context = context;
        match value {
            Value::Null => self.scalar("null", Style::Plain),
            Value::Bool(true) => self.scalar("true", Style::Plain),
            Value::Bool(false) => self.scalar("false", Style::Plain),
            Value::Number(number) => {
                let text = number_text(number);
                self.scalar(&text, Style::Plain)
            }
            Value::String(text) => self.scalar(text, string_style(text)),
            Value::Array(items) if items.is_empty() => self.empty_flow(b"[", b"]"),
            Value::Object(map) if map.is_empty() => self.empty_flow(b"{", b"}"),
            Value::Array(items) => {
                let indentless = context.mapping && !self.state.indention;
                self.increase_indent(false, indentless);
                for item in items {
                    self.sequence_item(item);
                }
                self.pop_indent();
            }
            Value::Object(map) => {
                self.increase_indent(false, false);
                for (key, item) in sorted_members(map) {
                    self.write_indent();
                    if is_simple_key(key) {
                        self.node_str(key, Context::KEY);
                        self.write_indicator(b":", false, false, false);
                    } else {
                        self.write_indicator(b"?", true, false, true);
                        self.node_str(key, Context::VALUE);
                        self.write_indent();
                        self.write_indicator(b":", true, false, true);
                    }
                    self.node(item, Context::VALUE);
                }
                self.pop_indent();
            }
        }
    }

    fn node_str(&mut self, text: &str, context: Context) {
        self.context = context;
        self.scalar(text, string_style(text));
    }

    /// One `- item` of a block sequence whose indentation is already set.
    fn sequence_item(&mut self, item: &Value) {
        self.write_indent();
        self.write_indicator(b"-", true, false, true);
        self.node(item, Context::SEQUENCE);
    }

    fn empty_flow(&mut self, open: &[u8], close: &[u8]) {
        self.write_indicator(open, true, true, false);
        self.increase_indent(true, false);
        self.pop_indent();
        self.write_indicator(close, false, false, false);
    }

    fn scalar(&mut self, value: &str, requested: Style) {
        let analysis = analyze(value);
        let style = self.select_style(value, requested, &analysis);
        self.increase_indent(true, false);
        let allow_breaks = !self.context.simple_key;
        match style {
            Style::Plain => self.write_plain(value, allow_breaks),
            Style::SingleQuoted => self.write_single_quoted(value, allow_breaks),
            Style::DoubleQuoted => self.write_double_quoted(value, allow_breaks),
            Style::Literal => self.write_literal(value),
        }
        self.pop_indent();
    }

    fn select_style(&self, value: &str, requested: Style, analysis: &Analysis) -> Style {
        let flow = self.state.flow_level > 0;
        let mut style = requested;
        if self.context.simple_key && analysis.multiline {
            style = Style::DoubleQuoted;
        }
        if style == Style::Plain
            && ((flow && !analysis.flow_plain_allowed)
                || (!flow && !analysis.block_plain_allowed)
                || (value.is_empty() && (flow || self.context.simple_key)))
        {
            style = Style::SingleQuoted;
        }
        if style == Style::SingleQuoted && !analysis.single_quoted_allowed {
            style = Style::DoubleQuoted;
        }
        if style == Style::Literal && (!analysis.block_allowed || flow || self.context.simple_key) {
            style = Style::DoubleQuoted;
        }
        style
    }

    /// go-yaml v2 as kubectl vendors it writes no `...` end marker, even after a `|+` block.
    fn end_document(&mut self) {
        self.write_indent();
    }

    // --- layout primitives, as libyaml's emitter has them ---

    fn increase_indent(&mut self, flow: bool, indentless: bool) {
        self.state.indents.push(self.state.indent);
        if self.state.indent < 0 {
            self.state.indent = if flow { BEST_INDENT } else { 0 };
        } else if !indentless {
            self.state.indent += BEST_INDENT;
        }
    }

    fn pop_indent(&mut self) {
        self.state.indent = self.state.indents.pop().unwrap_or(-1);
    }

    fn put(&mut self, byte: u8) {
        self.out.push(byte);
        self.state.column += 1;
    }

    fn put_break(&mut self) {
        self.out.push(b'\n');
        self.state.column = 0;
    }

    fn write_char(&mut self, ch: char) {
        let mut buffer = [0u8; 4];
        self.out
            .extend_from_slice(ch.encode_utf8(&mut buffer).as_bytes());
        self.state.column += 1;
    }

    fn write_break_char(&mut self, ch: char) {
        if ch == '\n' {
            self.put_break();
        } else {
            self.write_char(ch);
            self.state.column = 0;
        }
    }

    fn write_indent(&mut self) {
        let indent = self.state.indent.max(0) as usize;
        let state = &self.state;
        if !state.indention
            || state.column > indent
            || (state.column == indent && !state.whitespace)
        {
            self.put_break();
        }
        while self.state.column < indent {
            self.put(b' ');
        }
        self.state.whitespace = true;
        self.state.indention = true;
    }

    fn write_indicator(
        &mut self,
        indicator: &[u8],
        need_whitespace: bool,
        is_whitespace: bool,
        is_indention: bool,
    ) {
        if need_whitespace && !self.state.whitespace {
            self.put(b' ');
        }
        for &byte in indicator {
            self.put(byte);
        }
        self.state.whitespace = is_whitespace;
        self.state.indention = self.state.indention && is_indention;
        self.state.open_ended = false;
    }

    fn write_plain(&mut self, value: &str, allow_breaks: bool) {
        if !self.state.whitespace {
            self.put(b' ');
        }
        let chars: Vec<char> = value.chars().collect();
        let mut spaces = false;
        let mut breaks = false;
        for (index, &ch) in chars.iter().enumerate() {
            if ch == ' ' {
                let next_is_space = chars.get(index + 1) == Some(&' ');
                if allow_breaks && !spaces && self.state.column > BEST_WIDTH && !next_is_space {
                    self.write_indent();
                } else {
                    self.write_char(ch);
                }
                spaces = true;
            } else if is_break(ch) {
                if !breaks && ch == '\n' {
                    self.put_break();
                }
                self.write_break_char(ch);
                self.state.indention = true;
                breaks = true;
            } else {
                if breaks {
                    self.write_indent();
                }
                self.write_char(ch);
                self.state.indention = false;
                spaces = false;
                breaks = false;
            }
        }
        self.state.whitespace = false;
        self.state.indention = false;
        if self.context.root {
            self.state.open_ended = true;
        }
    }

    fn write_single_quoted(&mut self, value: &str, allow_breaks: bool) {
        self.write_indicator(b"'", true, false, false);
        let chars: Vec<char> = value.chars().collect();
        let mut spaces = false;
        let mut breaks = false;
        for (index, &ch) in chars.iter().enumerate() {
            if ch == ' ' {
                let next_is_space = chars.get(index + 1) == Some(&' ');
                if allow_breaks
                    && !spaces
                    && self.state.column > BEST_WIDTH
                    && index > 0
                    && index < chars.len() - 1
                    && !next_is_space
                {
                    self.write_indent();
                } else {
                    self.write_char(ch);
                }
                spaces = true;
            } else if is_break(ch) {
                if !breaks && ch == '\n' {
                    self.put_break();
                }
                self.write_break_char(ch);
                self.state.indention = true;
                breaks = true;
            } else {
                if breaks {
                    self.write_indent();
                }
                if ch == '\'' {
                    self.put(b'\'');
                }
                self.write_char(ch);
                self.state.indention = false;
                spaces = false;
                breaks = false;
            }
        }
        self.write_indicator(b"'", false, false, false);
        self.state.whitespace = false;
        self.state.indention = false;
    }

    fn write_double_quoted(&mut self, value: &str, allow_breaks: bool) {
        const HEX: &[u8; 16] = b"0123456789ABCDEF";
        self.write_indicator(b"\"", true, false, false);
        let chars: Vec<char> = value.chars().collect();
        // libyaml's `is_bom` looks at the start of the value whatever the position, so a value
        // that starts with a byte order mark is escaped whole.
        let starts_with_bom = value.starts_with('\u{feff}');
        let mut spaces = false;
        for (index, &ch) in chars.iter().enumerate() {
            if starts_with_bom || !is_printable(ch) || is_break(ch) || ch == '"' || ch == '\\' {
                self.put(b'\\');
                let short = match ch {
                    '\0' => Some(b'0'),
                    '\x07' => Some(b'a'),
                    '\x08' => Some(b'b'),
                    '\t' => Some(b't'),
                    '\n' => Some(b'n'),
                    '\x0b' => Some(b'v'),
                    '\x0c' => Some(b'f'),
                    '\r' => Some(b'r'),
                    '\x1b' => Some(b'e'),
                    '"' => Some(b'"'),
                    '\\' => Some(b'\\'),
                    '\u{85}' => Some(b'N'),
                    '\u{a0}' => Some(b'_'),
                    '\u{2028}' => Some(b'L'),
                    '\u{2029}' => Some(b'P'),
                    _ => None,
                };
                match short {
                    Some(letter) => self.put(letter),
                    None => {
                        let code = ch as u32;
                        let (letter, digits) = if code <= 0xff {
                            (b'x', 2)
                        } else if code <= 0xffff {
                            (b'u', 4)
                        } else {
                            (b'U', 8)
                        };
                        self.put(letter);
                        for k in (0..digits).rev() {
                            self.put(HEX[((code >> (k * 4)) & 0xf) as usize]);
                        }
                    }
                }
                spaces = false;
            } else if ch == ' ' {
                if allow_breaks
                    && !spaces
                    && self.state.column > BEST_WIDTH
                    && index > 0
                    && index < chars.len() - 1
                {
                    self.write_indent();
                    if chars.get(index + 1) == Some(&' ') {
                        self.put(b'\\');
                    }
                } else {
                    self.write_char(ch);
                }
                spaces = true;
            } else {
                self.write_char(ch);
                spaces = false;
            }
        }
        self.write_indicator(b"\"", false, false, false);
        self.state.whitespace = false;
        self.state.indention = false;
    }

    fn write_literal(&mut self, value: &str) {
        self.write_indicator(b"|", true, false, false);
        self.write_block_hints(value);
        self.put_break();
        self.state.indention = true;
        self.state.whitespace = true;
        let mut breaks = true;
        for ch in value.chars() {
            if is_break(ch) {
                self.write_break_char(ch);
                self.state.indention = true;
                breaks = true;
            } else {
                if breaks {
                    self.write_indent();
                }
                self.write_char(ch);
                self.state.indention = false;
                breaks = false;
            }
        }
    }

    /// The indentation indicator (when the text starts with a space or break) and the chomping
    /// indicator (`-` without a final break, `+` with more than one).
    fn write_block_hints(&mut self, value: &str) {
        let mut chars = value.chars();
        if chars.next().is_some_and(|c| c == ' ' || is_break(c)) {
            let hint = [b'0' + BEST_INDENT as u8];
            self.write_indicator(&hint, false, false, false);
        }
        self.state.open_ended = false;
        let mut from_end = value.chars().rev();
        let chomp = match (from_end.next(), from_end.next()) {
            (None, _) => Some(b'-'),
            (Some(last), _) if !is_break(last) => Some(b'-'),
            (Some(_), None) => Some(b'+'),
            (Some(_), Some(before)) if is_break(before) => Some(b'+'),
            _ => None,
        };
        if let Some(chomp) = chomp {
            if chomp == b'+' {
                self.write_indicator(&[chomp], false, false, false);
                self.state.open_ended = true;
            } else {
                self.write_indicator(&[chomp], false, false, false);
            }
        }
    }
}

/// What libyaml's `yaml_emitter_analyze_scalar` finds out about a scalar.
#[derive(Debug)]
struct Analysis {
    multiline: bool,
    flow_plain_allowed: bool,
    block_plain_allowed: bool,
    single_quoted_allowed: bool,
    block_allowed: bool,
}

fn analyze(value: &str) -> Analysis {
    if value.is_empty() {
        return Analysis {
            multiline: false,
            flow_plain_allowed: false,
            block_plain_allowed: true,
            single_quoted_allowed: true,
            block_allowed: false,
        };
    }
    let mut block_indicators = value.starts_with("---") || value.starts_with("...");
    let mut flow_indicators = block_indicators;
    let mut line_breaks = false;
    let mut special_characters = false;
    let mut leading_space = false;
    let mut leading_break = false;
    let mut trailing_space = false;
    let mut trailing_break = false;
    let mut break_space = false;
    let mut space_break = false;
    let mut preceded_by_whitespace = true;
    let mut previous_space = false;
    let mut previous_break = false;

    let chars: Vec<char> = value.chars().collect();
    let last = chars.len() - 1;
    for (index, &ch) in chars.iter().enumerate() {
        let followed_by_whitespace = chars.get(index + 1).is_none_or(|&c| c == ' ' || c == '\t');
        if index == 0 {
            match ch {
                '#' | ',' | '[' | ']' | '{' | '}' | '&' | '*' | '!' | '|' | '>' | '\'' | '"'
                | '%' | '@' | '`' => {
                    flow_indicators = true;
                    block_indicators = true;
                }
                '?' | ':' => {
                    flow_indicators = true;
                    if followed_by_whitespace {
                        block_indicators = true;
                    }
                }
                '-' if followed_by_whitespace => {
                    flow_indicators = true;
                    block_indicators = true;
                }
                _ => {}
            }
        } else {
            match ch {
                ',' | '?' | '[' | ']' | '{' | '}' => flow_indicators = true,
                ':' => {
                    flow_indicators = true;
                    if followed_by_whitespace {
                        block_indicators = true;
                    }
                }
                '#' if preceded_by_whitespace => {
                    flow_indicators = true;
                    block_indicators = true;
                }
                _ => {}
            }
        }
        if !is_printable(ch) {
            special_characters = true;
        }
        if ch == ' ' {
            leading_space |= index == 0;
            trailing_space |= index == last;
            break_space |= previous_break;
            previous_space = true;
            previous_break = false;
        } else if is_break(ch) {
            line_breaks = true;
            leading_break |= index == 0;
            trailing_break |= index == last;
            space_break |= previous_space;
            previous_space = false;
            previous_break = true;
        } else {
            previous_space = false;
            previous_break = false;
        }
        preceded_by_whitespace = matches!(ch, ' ' | '\t' | '\0') || is_break(ch);
    }

    let mut analysis = Analysis {
        multiline: line_breaks,
        flow_plain_allowed: true,
        block_plain_allowed: true,
        single_quoted_allowed: true,
        block_allowed: true,
    };
    if leading_space || leading_break || trailing_space || trailing_break {
        analysis.flow_plain_allowed = false;
        analysis.block_plain_allowed = false;
    }
    if trailing_space {
        analysis.block_allowed = false;
    }
    if break_space {
        analysis.flow_plain_allowed = false;
        analysis.block_plain_allowed = false;
        analysis.single_quoted_allowed = false;
    }
    if space_break || special_characters {
        analysis.flow_plain_allowed = false;
        analysis.block_plain_allowed = false;
        analysis.single_quoted_allowed = false;
        analysis.block_allowed = false;
    }
    if line_breaks {
        analysis.flow_plain_allowed = false;
        analysis.block_plain_allowed = false;
    }
    if flow_indicators {
        analysis.flow_plain_allowed = false;
    }
    if block_indicators {
        analysis.block_plain_allowed = false;
    }
    analysis
}

/// libyaml's `is_printable` (which leaves out tabs and everything beyond the BMP).
fn is_printable(ch: char) -> bool {
    matches!(ch as u32, 0x0a | 0x20..=0x7e | 0xa0..=0xd7ff | 0xe000..=0xfffd) && ch != '\u{feff}'
}

fn is_break(ch: char) -> bool {
    matches!(ch, '\r' | '\n' | '\u{85}' | '\u{2028}' | '\u{2029}')
}

fn is_simple_key(key: &str) -> bool {
    !key.chars().any(is_break) && key.len() <= MAX_SIMPLE_KEY
}

/// The style go-yaml's encoder asks for a string: double quotes when the plain text would read
/// back as another type, a literal block when it spans lines, plain otherwise (the emitter may
/// still fall back to quotes).
fn string_style(text: &str) -> Style {
    if !resolves_to_string(text) || is_base60_float(text) {
        Style::DoubleQuoted
    } else if text.contains('\n') {
        Style::Literal
    } else {
        Style::Plain
    }
}

/// go-yaml v2's `resolve`: would this text, unquoted, read back as a string?
fn resolves_to_string(text: &str) -> bool {
    let Some(&first) = text.as_bytes().first() else {
        return false; // null
    };
    const MAP: &[&str] = &[
        "y", "Y", "yes", "Yes", "YES", "true", "True", "TRUE", "on", "On", "ON", "n", "N", "no",
        "No", "NO", "false", "False", "FALSE", "off", "Off", "OFF", "~", "null", "Null", "NULL",
        ".nan", ".NaN", ".NAN", ".inf", ".Inf", ".INF", "+.inf", "+.Inf", "+.INF", "-.inf",
        "-.Inf", "-.INF",
    ];
    match first {
        b'y' | b'Y' | b'n' | b'N' | b't' | b'T' | b'f' | b'F' | b'o' | b'O' | b'~' => {
            !MAP.contains(&text)
        }
        b'.' => !MAP.contains(&text) && !go_parses_float(text),
        b'+' | b'-' | b'0'..=b'9' => {
            if MAP.contains(&text) || is_timestamp(text) {
                return false;
            }
            let plain = text.replace('_', "");
            if go_parses_int(&plain) || yaml_style_float(&plain) {
                return false;
            }
            let binary = plain
                .strip_prefix("0b")
                .or_else(|| plain.strip_prefix("-0b"));
            !binary.is_some_and(|digits| {
                !digits.is_empty() && digits.bytes().all(|b| b == b'0' || b == b'1')
            })
        }
        _ => true,
    }
}

/// `strconv.ParseInt(s, 0, 64)` or `ParseUint(s, 0, 64)` succeeds.
fn go_parses_int(text: &str) -> bool {
    let (negative, unsigned) = match text.as_bytes().first() {
        Some(b'+') => (false, &text[1..]),
        Some(b'-') => (true, &text[1..]),
        _ => (false, text),
    };
    let (radix, digits) = if let Some(rest) = unsigned
        .strip_prefix("0x")
        .or_else(|| unsigned.strip_prefix("0X"))
    {
        (16, rest)
    } else if let Some(rest) = unsigned
        .strip_prefix("0b")
        .or_else(|| unsigned.strip_prefix("0B"))
    {
        (2, rest)
    } else if let Some(rest) = unsigned
        .strip_prefix("0o")
        .or_else(|| unsigned.strip_prefix("0O"))
    {
        (8, rest)
    } else if unsigned.len() > 1 && unsigned.starts_with('0') {
        (8, &unsigned[1..])
    } else {
        (10, unsigned)
    };
    if digits.is_empty() || !digits.chars().all(|c| c.is_digit(radix)) {
        return false;
    }
    match u64::from_str_radix(digits, radix) {
        Ok(magnitude) if negative => magnitude <= 1u64 << 63,
        Ok(_) => true,
        Err(_) => false,
    }
}

/// go-yaml's `yamlStyleFloat` pattern, which guards `strconv.ParseFloat`, and that parse
/// succeeding (it fails on overflow: `1e999` stays a string).
fn yaml_style_float(text: &str) -> bool {
    let body = text.strip_prefix(['+', '-']).unwrap_or(text);
    let (mantissa, exponent) = match body.find(['e', 'E']) {
        Some(at) => (&body[..at], Some(&body[at + 1..])),
        None => (body, None),
    };
    let mantissa_ok = match mantissa.split_once('.') {
        Some(("", frac)) => !frac.is_empty() && frac.bytes().all(|b| b.is_ascii_digit()),
        Some((int, frac)) => {
            int.bytes().all(|b| b.is_ascii_digit()) && frac.bytes().all(|b| b.is_ascii_digit())
        }
        None => !mantissa.is_empty() && mantissa.bytes().all(|b| b.is_ascii_digit()),
    };
    let exponent_ok = exponent.is_none_or(|e| {
        let digits = e.strip_prefix(['+', '-']).unwrap_or(e);
        !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit())
    });
    mantissa_ok && exponent_ok && text.parse::<f64>().is_ok_and(f64::is_finite)
}

/// `strconv.ParseFloat` for text starting with `.` (decimal forms only; Go's hex and inf forms
/// cannot start with a dot).
fn go_parses_float(text: &str) -> bool {
    let plain = text.strip_prefix(['+', '-']).unwrap_or(text);
    yaml_style_float(plain) || {
        // Go allows underscores between digits only with a base prefix; a leading dot has none.
        false
    }
}

/// go-yaml's `isBase60Float`: `^[-+]?[0-9][0-9_]*(?::[0-5]?[0-9])+(?:\.[0-9_]*)?$`.
fn is_base60_float(text: &str) -> bool {
    let bytes = text.as_bytes();
    let mut i = 0;
    if matches!(bytes.first(), Some(b'+') | Some(b'-')) {
        i += 1;
    }
    if !bytes.get(i).is_some_and(u8::is_ascii_digit) {
        return false;
    }
    i += 1;
    while bytes
        .get(i)
        .is_some_and(|b| b.is_ascii_digit() || *b == b'_')
    {
        i += 1;
    }
    let mut groups = 0;
    while bytes.get(i) == Some(&b':') {
        i += 1;
        let start = i;
        while i < bytes.len() && i - start < 2 && bytes[i].is_ascii_digit() {
            i += 1;
        }
        let group = &bytes[start..i];
        let valid = match group {
            [d] => d.is_ascii_digit(),
            [a, _] => (b'0'..=b'5').contains(a),
            _ => false,
        };
        if !valid {
            return false;
        }
        groups += 1;
    }
    if groups == 0 {
        return false;
    }
    if bytes.get(i) == Some(&b'.') {
        i += 1;
        while bytes
            .get(i)
            .is_some_and(|b| b.is_ascii_digit() || *b == b'_')
        {
            i += 1;
        }
    }
    i == bytes.len()
}

/// go-yaml's timestamp check: `YYYY-M-D`, optionally followed by `T`/`t`/` ` and `H:M:S` with an
/// optional fraction, and (after `T`/`t`) an optional `Z` or `±hh:mm`; values in range, as Go's
/// `time.Parse` checks them.
fn is_timestamp(text: &str) -> bool {
    let bytes = text.as_bytes();
    if bytes.len() < 5 || !bytes[..4].iter().all(u8::is_ascii_digit) || bytes[4] != b'-' {
        return false;
    }
    let mut pos = 5;
    let number = |pos: &mut usize, max_digits: usize| -> Option<u32> {
        let start = *pos;
        while *pos < bytes.len() && *pos - start < max_digits && bytes[*pos].is_ascii_digit() {
            *pos += 1;
        }
        if *pos == start {
            return None;
        }
        text[start..*pos].parse().ok()
    };
    let year: u32 = text[..4].parse().unwrap_or(0);
    let Some(month) = number(&mut pos, 2) else {
        return false;
    };
    if bytes.get(pos) != Some(&b'-') {
        return false;
    }
    pos += 1;
    let Some(day) = number(&mut pos, 2) else {
        return false;
    };
    if !(1..=12).contains(&month) || day < 1 || day > days_in_month(year, month) {
        return false;
    }
    if pos == bytes.len() {
        return true;
    }
    let separator = bytes[pos];
    if !matches!(separator, b'T' | b't' | b' ') {
        return false;
    }
    pos += 1;
    let Some(hour) = number(&mut pos, 2) else {
        return false;
    };
    if bytes.get(pos) != Some(&b':') {
        return false;
    }
    pos += 1;
    let Some(minute) = number(&mut pos, 2) else {
        return false;
    };
    if bytes.get(pos) != Some(&b':') {
        return false;
    }
    pos += 1;
    let Some(second) = number(&mut pos, 2) else {
        return false;
    };
    if hour > 23 || minute > 59 || second > 59 {
        return false;
    }
    if bytes.get(pos) == Some(&b'.') {
        let start = pos + 1;
        pos = start;
        while pos < bytes.len() && bytes[pos].is_ascii_digit() {
            pos += 1;
        }
        if pos == start {
            return false;
        }
    }
    if separator == b' ' {
        return pos == bytes.len();
    }
    match &bytes[pos..] {
        b"Z" => true,
        [sign, h1, h2, b':', m1, m2]
            if (*sign == b'+' || *sign == b'-')
                && [h1, h2, m1, m2].iter().all(|b| b.is_ascii_digit()) =>
        {
            let hours = (h1 - b'0') * 10 + (h2 - b'0');
            let minutes = (m1 - b'0') * 10 + (m2 - b'0');
            hours < 24 && minutes < 60
        }
        _ => false,
    }
}

fn days_in_month(year: u32, month: u32) -> u32 {
    match month {
        2 if (year.is_multiple_of(4) && !year.is_multiple_of(100)) || year.is_multiple_of(400) => {
            29
        }
        2 => 28,
        4 | 6 | 9 | 11 => 30,
        _ => 31,
    }
}

/// A JSON number as it ends up in kubectl's YAML: Go's JSON text, read back by go-yaml as an
/// int when it looks like one and as a float64 otherwise, then printed with `%g`.
fn number_text(number: &Number) -> String {
    if let Some(integer) = number.as_i64() {
        return integer.to_string();
    }
    let float = match number.as_u64() {
        Some(unsigned) => unsigned as f64,
        None => number.as_f64().unwrap_or(0.0),
    };
    let mut json = Vec::new();
    write_json_float(&mut json, float);
    let json = String::from_utf8_lossy(&json);
    if json.parse::<i64>().is_ok() {
        // `-0` reads back as the integer 0.
        return json
            .parse::<i64>()
            .map(|i| i.to_string())
            .unwrap_or_default();
    }
    if json.parse::<u64>().is_ok() {
        return json.into_owned();
    }
    let mut out = Vec::new();
    write_go_float_v(&mut out, float);
    String::from_utf8_lossy(&out).into_owned()
}

/// A map's members in go-yaml v2's key order.
fn sorted_members(map: &Map<String, Value>) -> Vec<(&String, &Value)> {
    let mut members: Vec<(&String, &Value)> = map.iter().collect();
    merge_sort(&mut members, |a, b| natural_cmp(a.0, b.0));
    members
}

/// A plain merge sort: go-yaml's key order is not guaranteed to be a total order for every
/// input, and the standard library's sort may panic on such comparators; this never does.
fn merge_sort<T: Copy>(items: &mut [T], cmp: impl Fn(&T, &T) -> Ordering + Copy) {
    if items.len() < 2 {
        return;
    }
    let mid = items.len() / 2;
    merge_sort(&mut items[..mid], cmp);
    merge_sort(&mut items[mid..], cmp);
    let mut merged = Vec::with_capacity(items.len());
    let (mut i, mut j) = (0, mid);
    while i < mid && j < items.len() {
        if cmp(&items[j], &items[i]) == Ordering::Less {
            merged.push(items[j]);
            j += 1;
        } else {
            merged.push(items[i]);
            i += 1;
        }
    }
    merged.extend_from_slice(&items[i..mid]);
    merged.extend_from_slice(&items[j..]);
    items.copy_from_slice(&merged);
}

/// go-yaml v2's `keyList.Less` for two strings: letters compare as runes, a non-letter sorts
/// before a letter, runs of digits compare as numbers.
fn natural_cmp(a: &str, b: &str) -> Ordering {
    if natural_less(a, b) {
        Ordering::Less
    } else if natural_less(b, a) {
        Ordering::Greater
    } else {
        Ordering::Equal
    }
}

fn natural_less(a: &str, b: &str) -> bool {
    let ar: Vec<char> = a.chars().collect();
    let br: Vec<char> = b.chars().collect();
    for i in 0..ar.len().min(br.len()) {
        if ar[i] == br[i] {
            continue;
        }
        let al = ar[i].is_alphabetic();
        let bl = br[i].is_alphabetic();
        if al && bl {
            return ar[i] < br[i];
        }
        if al || bl {
            return bl;
        }
        let mut an: i64 = 0;
        let mut bn: i64 = 0;
        if ar[i] == '0' || br[i] == '0' {
            let mut j = i;
            while j > 0 && is_go_digit(ar[j - 1]) {
                j -= 1;
                if ar[j] != '0' {
                    an = 1;
                    bn = 1;
                    break;
                }
            }
        }
        let mut ai = i;
        while ai < ar.len() && is_go_digit(ar[ai]) {
            an = an.wrapping_mul(10).wrapping_add(digit_value(ar[ai]));
            ai += 1;
        }
        let mut bi = i;
        while bi < br.len() && is_go_digit(br[bi]) {
            bn = bn.wrapping_mul(10).wrapping_add(digit_value(br[bi]));
            bi += 1;
        }
        if an != bn {
            return an < bn;
        }
        if ai != bi {
            return ai < bi;
        }
        return ar[i] < br[i];
    }
    ar.len() < br.len()
}

/// `unicode.IsDigit`, for the ASCII digits Kubernetes keys contain (other scripts' decimal
/// digits would count in Go too; kw treats them as other non-letters).
fn is_go_digit(ch: char) -> bool {
    ch.is_ascii_digit()
}

/// Go computes `rune - '0'` even for non-ASCII digits.
fn digit_value(ch: char) -> i64 {
    i64::from(ch as u32) - i64::from(b'0')
}

#[cfg(test)]
mod tests {
    use super::*;

    fn yaml(json: &str) -> String {
        let value: Value = serde_json::from_str(json).unwrap();
        let mut out = Vec::new();
        write_document(&mut out, &value);
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn block_style_with_indentless_sequences() {
        assert_eq!(
            yaml(r#"{"b":{"c":[1,{"d":"e","f":[]}],"g":{}},"a":[[1,2],"x"]}"#),
            "a:\n- - 1\n  - 2\n- x\nb:\n  c:\n  - 1\n  - d: e\n    f: []\n  g: {}\n"
        );
    }

    #[test]
    fn strings_that_read_as_other_types_are_double_quoted() {
        for s in [
            "",
            "123",
            "true",
            "no",
            "null",
            "~",
            "1.5",
            "0x1F",
            "1e3",
            "-1",
            "+1",
            "08",
            "1_000",
            ".5",
            ".inf",
            "12:30",
            "2026-01-01T11:59:30Z",
            "2026-1-2",
            "0b101",
        ] {
            let json = serde_json::to_string(&Value::String(s.into())).unwrap();
            assert_eq!(
                yaml(&format!(r#"{{"k":{json}}}"#)),
                format!("k: \"{s}\"\n"),
                "{s}"
            );
        }
        for s in [
            "yes-no",
            "1.2.3",
            "10.0.0.1",
            "v1",
            "2026-13-01",
            "0xZ",
            ".",
            "1/1",
            "<<",
            "a-",
        ] {
            let json = serde_json::to_string(&Value::String(s.into())).unwrap();
            assert_eq!(
                yaml(&format!(r#"{{"k":{json}}}"#)),
                format!("k: {s}\n"),
                "{s}"
            );
        }
    }

    #[test]
    fn indicators_get_single_quotes() {
        assert_eq!(yaml(r#"{"k":"*"}"#), "k: '*'\n");
        assert_eq!(yaml(r#"{"k":"- a"}"#), "k: '- a'\n");
        assert_eq!(yaml(r#"{"k":"a: b"}"#), "k: 'a: b'\n");
        assert_eq!(yaml(r#"{"k":"it's"}"#), "k: it's\n");
        assert_eq!(yaml(r#"{"k":"'q'"}"#), "k: '''q'''\n");
        assert_eq!(yaml(r#"{"k":" lead"}"#), "k: ' lead'\n");
        assert_eq!(yaml(r#"{"k":"a #b"}"#), "k: 'a #b'\n");
        assert_eq!(yaml(r#"{"k":"a#b"}"#), "k: a#b\n");
        assert_eq!(yaml(r#"{"k":"[x]"}"#), "k: '[x]'\n");
        assert_eq!(yaml(r#"{"k":"-"}"#), "k: '-'\n");
        assert_eq!(yaml(r#"{"k":"a,b"}"#), "k: a,b\n");
    }

    #[test]
    fn special_characters_are_escaped() {
        assert_eq!(yaml(r#"{"k":"a\tb"}"#), "k: \"a\\tb\"\n");
        assert_eq!(yaml(r#"{"k":"🚀"}"#), "k: \"\\U0001F680\"\n");
        assert_eq!(yaml(r#"{"k":"héllo 世界"}"#), "k: héllo 世界\n");
        assert_eq!(yaml(r#"{"k":"\u001b"}"#), "k: \"\\e\"\n");
    }

    #[test]
    fn multi_line_strings_are_literal_blocks() {
        assert_eq!(yaml(r#"{"k":"a\nb"}"#), "k: |-\n  a\n  b\n");
        assert_eq!(yaml(r#"{"k":"a\nb\n"}"#), "k: |\n  a\n  b\n");
        assert_eq!(yaml(r#"{"k":"a\n\nb\n\n"}"#), "k: |+\n  a\n\n  b\n\n");
        assert_eq!(yaml(r#"{"k":" a\nb"}"#), "k: |2-\n   a\n  b\n");
        assert_eq!(yaml(r#"{"k":"a \nb"}"#), "k: \"a \\nb\"\n");
        assert_eq!(
            yaml(r#"{"a":{"k":"x\ny\n"},"b":1}"#),
            "a:\n  k: |\n    x\n    y\nb: 1\n"
        );
    }

    #[test]
    fn long_strings_fold_at_column_80() {
        let words = vec!["word"; 30].join(" ");
        let got = yaml(&format!(r#"{{"k":"{words}"}}"#));
        let lines: Vec<&str> = got.lines().collect();
        assert_eq!(lines.len(), 2, "{got}");
        assert!(lines[0].chars().count() > 80 && lines[0].chars().count() <= 86);
        assert!(lines[1].starts_with("  word"));
    }

    #[test]
    fn numbers_as_go_yaml_reads_them_back() {
        assert_eq!(
            yaml(
                r#"{"a":1,"b":1.5,"c":1.0,"d":1e21,"e":1e20,"f":-0.0,"g":18446744073709551615,"h":0.00001}"#
            ),
            "a: 1\nb: 1.5\nc: 1\nd: 1e+21\ne: 1e+20\nf: 0\ng: 1.8446744073709552e+19\nh: 1e-05\n"
        );
    }

    #[test]
    fn keys_in_natural_order() {
        assert_eq!(
            yaml(r#"{"a10":1,"a2":2,"B":3,"_x":4,"a":5,"1":6,"b-c":7}"#),
            "_x: 4\n\"1\": 6\nB: 3\na: 5\na2: 2\na10: 1\nb-c: 7\n"
        );
    }

    #[test]
    fn long_and_multi_line_keys_use_the_complex_form() {
        let key = "k".repeat(130);
        assert_eq!(
            yaml(&format!(r#"{{"{key}":1}}"#)),
            format!("? {key}\n: 1\n")
        );
        assert_eq!(yaml(r#"{"a\nb":1}"#), "? |-\n  a\n  b\n: 1\n");
    }

    /// `testdata/yaml_cases.json`: tricky values and what kubectl v1.32 printed for them
    /// (`kubectl label --local -f case.json -o yaml z=1`, which needs no server).
    #[test]
    fn matches_kubectl_on_recorded_cases() {
        let path =
            std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("testdata/yaml_cases.json");
        let cases: Vec<Value> =
            serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
        assert!(cases.len() > 100);
        let mut failures = Vec::new();
        for case in &cases {
            let mut out = Vec::new();
            write_document(&mut out, &case["input"]);
            let got = String::from_utf8(out).unwrap();
            if got != case["yaml"].as_str().unwrap() {
                failures.push(format!(
                    "input {}
--- kubectl\n{}--- kw\n{}",
                    case["input"]["v"],
                    case["yaml"].as_str().unwrap(),
                    got
                ));
            }
        }
        assert!(
            failures.is_empty(),
            "{} of {} differ:\n{}",
            failures.len(),
            cases.len(),
            failures.join("\n")
        );
    }

    #[test]
    fn list_writer_streams_items() {
        let mut list = ListWriter::new();
        let mut out = Vec::new();
        list.item(
            &mut out,
            &serde_json::json!({"kind":"Pod","metadata":{"name":"a"}}),
        );
        list.item(
            &mut out,
            &serde_json::json!({"kind":"Pod","spec":{"x":[1]}}),
        );
        list.finish(&mut out);
        assert_eq!(
            String::from_utf8(out).unwrap(),
            "apiVersion: v1\nitems:\n- kind: Pod\n  metadata:\n    name: a\n- kind: Pod\n  spec:\n    x:\n    - 1\nkind: List\nmetadata:\n  resourceVersion: \"\"\n"
        );
        let mut empty = Vec::new();
        ListWriter::new().finish(&mut empty);
        assert_eq!(
            String::from_utf8(empty).unwrap(),
            "apiVersion: v1\nitems: []\nkind: List\nmetadata:\n  resourceVersion: \"\"\n"
        );
    }
}
