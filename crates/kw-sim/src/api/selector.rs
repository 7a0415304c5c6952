//! Label and field selectors as the API server parses and applies them, with its error messages
//! (`found 'X', expected: ...`, `field label not supported: ...`), so clients see real 400s.

use serde_json::Value;

/// A selector the server cannot use; the message is the real server's wording.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SelectorError {
    #[error("unable to parse requirement: found '{found}', expected: {expected}")]
    LabelSyntax { found: String, expected: String },
    #[error("invalid selector: '{selector}'; can't understand '{term}'")]
    FieldSyntax { selector: String, term: String },
    #[error("field label not supported: {0}")]
    UnsupportedField(String),
}

#[derive(Debug, Clone, PartialEq, Eq)]
enum LabelOp {
    Exists,
    DoesNotExist,
    Equals(String),
    NotEquals(String),
    In(Vec<String>),
    NotIn(Vec<String>),
    GreaterThan(i64),
    LessThan(i64),
}

#[derive(Debug, Clone, PartialEq, Eq)]
struct Requirement {
    key: String,
    op: LabelOp,
}

/// A parsed `labelSelector`; all requirements must hold (comma = AND).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct LabelSelector {
    requirements: Vec<Requirement>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
enum Token {
    Ident(String),
    Not,
    Equals,
    DoubleEquals,
    NotEquals,
    Comma,
    Open,
    Close,
    End,
}

impl Token {
    fn describe(&self) -> String {
        match self {
            Token::Ident(text) => text.clone(),
            Token::Not => "!".into(),
            Token::Equals => "=".into(),
            Token::DoubleEquals => "==".into(),
            Token::NotEquals => "!=".into(),
            Token::Comma => ",".into(),
            Token::Open => "(".into(),
            Token::Close => ")".into(),
            Token::End => "".into(),
        }
    }
}

fn tokenize(text: &str) -> Vec<Token> {
    let chars: Vec<char> = text.chars().collect();
    let mut tokens = Vec::new();
    let mut at = 0;
    while at < chars.len() {
        let here = chars[at];
        let next = chars.get(at + 1).copied();
        match here {
            c if c.is_whitespace() => at += 1,
            '!' if next == Some('=') => {
                tokens.push(Token::NotEquals);
                at += 2;
            }
            '!' => {
                tokens.push(Token::Not);
                at += 1;
            }
            '=' if next == Some('=') => {
                tokens.push(Token::DoubleEquals);
                at += 2;
            }
            '=' => {
                tokens.push(Token::Equals);
                at += 1;
            }
            ',' => {
                tokens.push(Token::Comma);
                at += 1;
            }
            '(' => {
                tokens.push(Token::Open);
                at += 1;
            }
            ')' => {
                tokens.push(Token::Close);
                at += 1;
            }
            _ => {
                let start = at;
                while at < chars.len() && !is_special(chars[at]) {
                    at += 1;
                }
                tokens.push(Token::Ident(chars[start..at].iter().collect()));
            }
        }
    }
    tokens.push(Token::End);
    tokens
}

fn is_special(c: char) -> bool {
    c.is_whitespace() || matches!(c, '!' | '=' | ',' | '(' | ')')
}

struct Parser {
    tokens: Vec<Token>,
    at: usize,
}

impl Parser {
    fn peek(&self) -> &Token {
        self.tokens.get(self.at).unwrap_or(&Token::End)
    }

    fn next(&mut self) -> Token {
        let token = self.peek().clone();
        if self.at < self.tokens.len() {
            self.at += 1;
        }
        token
    }

    fn error(found: &Token, expected: &str) -> SelectorError {
        SelectorError::LabelSyntax {
            found: found.describe(),
            expected: expected.into(),
        }
    }

    fn requirement(&mut self) -> Result<Requirement, SelectorError> {
        let first = self.next();
        let (key, negated) = match first {
            Token::Not => match self.next() {
                Token::Ident(key) => (key, true),
                other => return Err(Self::error(&other, "identifier")),
            },
            Token::Ident(key) => (key, false),
            other => return Err(Self::error(&other, "!, identifier, or 'end of string'")),
        };
        if negated {
            return Ok(Requirement {
                key,
                op: LabelOp::DoesNotExist,
            });
        }
        let op = match self.peek().clone() {
            Token::Comma | Token::End => LabelOp::Exists,
            Token::Equals | Token::DoubleEquals => {
                self.next();
                LabelOp::Equals(self.value()?)
            }
            Token::NotEquals => {
                self.next();
                LabelOp::NotEquals(self.value()?)
            }
            Token::Ident(word) if word == "in" => {
                self.next();
                LabelOp::In(self.values()?)
            }
            Token::Ident(word) if word == "notin" => {
                self.next();
                LabelOp::NotIn(self.values()?)
            }
            Token::Ident(word) if word == "gt" || word == "lt" => {
                self.next();
                let value = self.value()?;
                let number: i64 = value.parse().map_err(|_| SelectorError::LabelSyntax {
                    found: value.clone(),
                    expected: "an integer".into(),
                })?;
                if word == "gt" {
                    LabelOp::GreaterThan(number)
                } else {
                    LabelOp::LessThan(number)
                }
            }
            other => return Err(Self::error(&other, "in, notin, =, ==, !=, gt, lt")),
        };
        Ok(Requirement { key, op })
    }

    /// A single value; empty is allowed (`app=`).
    fn value(&mut self) -> Result<String, SelectorError> {
        match self.peek().clone() {
            Token::Ident(value) => {
                self.next();
                Ok(value)
            }
            Token::Comma | Token::End => Ok(String::new()),
            other => Err(Self::error(&other, "identifier")),
        }
    }

    /// `( a, b )`.
    fn values(&mut self) -> Result<Vec<String>, SelectorError> {
        match self.next() {
            Token::Open => {}
            other => return Err(Self::error(&other, "'('")),
        }
        let mut values = Vec::new();
        loop {
            match self.next() {
                Token::Ident(value) => values.push(value),
                Token::Close if values.is_empty() => return Ok(values),
                other => return Err(Self::error(&other, "identifier")),
            }
            match self.next() {
                Token::Comma => continue,
                Token::Close => return Ok(values),
                other => return Err(Self::error(&other, "',' or ')'")),
            }
        }
    }
}

/// Parse a `labelSelector` query parameter.
pub fn parse_labels(text: &str) -> Result<LabelSelector, SelectorError> {
    let mut parser = Parser {
        tokens: tokenize(text),
        at: 0,
    };
    let mut requirements = Vec::new();
    if parser.peek() == &Token::End {
        return Ok(LabelSelector { requirements });
    }
    loop {
        requirements.push(parser.requirement()?);
        match parser.next() {
            Token::Comma => continue,
            Token::End => break,
            other => return Err(Parser::error(&other, "',' or 'end of string'")),
        }
    }
    Ok(LabelSelector { requirements })
}

impl LabelSelector {
    /// Whether an object with these `metadata.labels` matches.
    pub fn matches(&self, labels: Option<&serde_json::Map<String, Value>>) -> bool {
        self.requirements.iter().all(|requirement| {
            let value = labels
                .and_then(|labels| labels.get(&requirement.key))
                .and_then(Value::as_str);
            match &requirement.op {
                LabelOp::Exists => value.is_some(),
                LabelOp::DoesNotExist => value.is_none(),
                LabelOp::Equals(want) => value == Some(want.as_str()),
                LabelOp::NotEquals(want) => value != Some(want.as_str()),
                LabelOp::In(wanted) => value.is_some_and(|v| wanted.iter().any(|w| w == v)),
                LabelOp::NotIn(wanted) => !value.is_some_and(|v| wanted.iter().any(|w| w == v)),
                LabelOp::GreaterThan(bound) => value
                    .and_then(|v| v.parse::<i64>().ok())
                    .is_some_and(|v| v > *bound),
                LabelOp::LessThan(bound) => value
                    .and_then(|v| v.parse::<i64>().ok())
                    .is_some_and(|v| v < *bound),
            }
        })
    }
}

/// A parsed `fieldSelector`: `path=value` / `path==value` / `path!=value`, comma = AND.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct FieldSelector {
    terms: Vec<(String, bool, String)>,
}

/// The fields a real server lets you select on, per resource (besides metadata.name/namespace).
fn selectable_fields(resource: &str) -> &'static [&'static str] {
    match resource {
        "pods" => &[
            "spec.nodeName",
            "spec.restartPolicy",
            "spec.schedulerName",
            "spec.serviceAccountName",
            "spec.hostNetwork",
            "status.phase",
            "status.podIP",
            "status.nominatedNodeName",
        ],
        "events" => &[
            "involvedObject.kind",
            "involvedObject.namespace",
            "involvedObject.name",
            "involvedObject.uid",
            "involvedObject.apiVersion",
            "involvedObject.resourceVersion",
            "involvedObject.fieldPath",
            "reason",
            "reportingComponent",
            "source",
            "type",
        ],
        "secrets" => &["type"],
        "namespaces" => &["status.phase"],
        "nodes" => &["spec.unschedulable"],
        "replicasets" => &["status.replicas"],
        _ => &[],
    }
}

/// Parse a `fieldSelector` query parameter for a resource. Values may escape the operators
/// (`\\`, `\,`, `\=`), as client-go's `fields.EscapeValue` writes them: terms split at the
/// commas that are not escaped, and a value is read with its escapes undone.
pub fn parse_fields(text: &str, resource: &str) -> Result<FieldSelector, SelectorError> {
    let mut terms = Vec::new();
    for term in split_unescaped(text, ',')
        .into_iter()
        .filter(|term| !term.trim().is_empty())
    {
        let syntax = || SelectorError::FieldSyntax {
            selector: text.into(),
            term: term.to_string(),
        };
        let Some(at) = first_unescaped(term, '=') else {
            return Err(syntax());
        };
        let (field, equal, value) = if at > 0 && term.as_bytes()[at - 1] == b'!' {
            (&term[..at - 1], false, &term[at + 1..])
        } else if term[at + 1..].starts_with('=') {
            (&term[..at], true, &term[at + 2..])
        } else {
            (&term[..at], true, &term[at + 1..])
        };
        let field = field.trim();
        let supported = field == "metadata.name"
            || field == "metadata.namespace"
            || selectable_fields(resource).contains(&field);
        if !supported {
            return Err(SelectorError::UnsupportedField(field.into()));
        }
        // An Event's `source` is its `source.component`, as the API server selects it.
        let path = match (resource, field) {
            ("events", "source") => "source.component",
            _ => field,
        };
        terms.push((path.to_string(), equal, unescape(value.trim())));
    }
    Ok(FieldSelector { terms })
}

/// `text` split at every `separator` not escaped by a backslash.
fn split_unescaped(text: &str, separator: char) -> Vec<&str> {
    let mut parts = Vec::new();
    let mut start = 0;
    let mut escaped = false;
    for (at, c) in text.char_indices() {
        match c {
            _ if escaped => escaped = false,
            '\\' => escaped = true,
            c if c == separator => {
                parts.push(&text[start..at]);
                start = at + c.len_utf8();
            }
            _ => {}
        }
    }
    parts.push(&text[start..]);
    parts
}

/// Where the first `wanted` not escaped by a backslash is.
fn first_unescaped(text: &str, wanted: char) -> Option<usize> {
    let mut escaped = false;
    for (at, c) in text.char_indices() {
        match c {
            _ if escaped => escaped = false,
            '\\' => escaped = true,
            c if c == wanted => return Some(at),
            _ => {}
        }
    }
    None
}

fn unescape(value: &str) -> String {
    let mut out = String::with_capacity(value.len());
    let mut escaped = false;
    for c in value.chars() {
        if escaped || c != '\\' {
            out.push(c);
            escaped = false;
        } else {
            escaped = true;
        }
    }
    out
}

impl FieldSelector {
    pub fn matches(&self, object: &Value) -> bool {
        self.terms.iter().all(|(field, equal, want)| {
            let mut at = object;
            for part in field.split('.') {
                at = &at[part];
            }
            let actual = match at {
                Value::String(text) => text.clone(),
                Value::Null => String::new(),
                other => other.to_string(),
            };
            (actual == *want) == *equal
        })
    }
}

/// Both selectors of a request.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Filter {
    pub labels: LabelSelector,
    pub fields: FieldSelector,
}

impl Filter {
    pub fn matches(&self, object: &Value) -> bool {
        self.labels
            .matches(object["metadata"]["labels"].as_object())
            && self.fields.matches(object)
    }

    /// No selector at all (the real server then reports remainingItemCount).
    pub fn is_empty(&self) -> bool {
        self.labels.requirements.is_empty() && self.fields.terms.is_empty()
    }
}

#[cfg(test)]
mod tests {

    #[test]
    fn an_escaped_value_is_one_term_read_back_whole() {
        let one = parse_fields("metadata.name=a\\,metadata.namespace\\=x", "pods").unwrap();
        assert_eq!(
            one.terms,
            [(
                "metadata.name".into(),
                true,
                "a,metadata.namespace=x".into()
            )]
        );
        let two = parse_fields("metadata.name=a,metadata.namespace!=x", "pods").unwrap();
        assert_eq!(two.terms.len(), 2);
        assert!(!two.terms[1].1);
        let slash = parse_fields("metadata.name==a\\\\b", "pods").unwrap();
        assert_eq!(slash.terms[0].2, "a\\b");
    }

    use super::*;
    use serde_json::json;

    fn labels(value: Value) -> serde_json::Map<String, Value> {
        value.as_object().cloned().unwrap_or_default()
    }

    #[test]
    fn label_operators_match_like_the_server() {
        let web = labels(json!({"app": "web", "tier": "front"}));
        let cases = [
            ("app=web", true),
            ("app==web", true),
            ("app!=web", false),
            ("app!=db", true),
            ("missing!=x", true),
            ("app in (web, db)", true),
            ("app notin (web)", false),
            ("missing notin (web)", true),
            ("tier", true),
            ("!tier", false),
            ("!missing", true),
            ("app=web,tier=back", false),
            ("app=web, tier=front", true),
            ("", true),
        ];
        let numbered = labels(json!({"rank": "5"}));
        assert!(parse_labels("rank gt 3").unwrap().matches(Some(&numbered)));
        assert!(!parse_labels("rank lt 3").unwrap().matches(Some(&numbered)));
        for (text, expected) in cases {
            let selector = parse_labels(text).unwrap_or_else(|e| panic!("{text}: {e}"));
            assert_eq!(selector.matches(Some(&web)), expected, "{text}");
        }
    }

    #[test]
    fn malformed_label_selectors_get_the_server_message() {
        let err = parse_labels("a b").unwrap_err();
        assert_eq!(
            err.to_string(),
            "unable to parse requirement: found 'b', expected: in, notin, =, ==, !=, gt, lt"
        );
        assert!(parse_labels("app in (a").is_err());
        assert!(parse_labels("=x").is_err());
        assert!(parse_labels("app=web,").is_err());
    }

    #[test]
    fn field_selectors_check_support_and_match() {
        let pod = json!({"metadata": {"name": "a", "namespace": "ns"}, "spec": {"nodeName": "n1"},
            "status": {"phase": "Running"}});
        let selector = parse_fields("spec.nodeName=n1,status.phase!=Pending", "pods").unwrap();
        assert!(selector.matches(&pod));
        let selector = parse_fields("metadata.name==b", "pods").unwrap();
        assert!(!selector.matches(&pod));
        assert_eq!(
            parse_fields("spec.foo=1", "pods").unwrap_err().to_string(),
            "field label not supported: spec.foo"
        );
        assert_eq!(
            parse_fields("nonsense", "pods").unwrap_err().to_string(),
            "invalid selector: 'nonsense'; can't understand 'nonsense'"
        );
        assert!(parse_fields("spec.nodeName=n1", "deployments").is_err());
    }
}
