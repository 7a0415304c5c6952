//! The grammar of the wait-for conditions: `--until`/`--fail-on` EXPRs as kubectl wait spells
//! them (plus the readiness words `ready` and `failed`), `--for all|any`, and what an EXPR says
//! of one object.

use std::fmt;

use serde_json::Value;

use kw_events::readiness::{Judgement, State};
use kw_go::goformat::fmt::write_go_value;
use kw_go::jsonpath::{self, JsonPath};

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ConditionError {
    #[error(
        "{flag} {text:?}: unknown condition{} (use {})",
        did_you_mean(near.as_deref()),
        vocabulary(flag)
    )]
    Unknown {
        flag: &'static str,
        text: String,
        /// The EXPR it is one slip away from (`ready` for `redy`).
        near: Option<String>,
    },
    /// `ready` given to `--fail-on`, or `failed` to `--until`.
    #[error(
        "{flag} {text:?}: {word} is a word for {owner} (use {owner} {word}, or {flag} {})",
        opposite(word)
    )]
    WrongFlag {
        flag: &'static str,
        text: String,
        word: &'static str,
        owner: &'static str,
    },
    #[error("{flag} {text:?}: {reason}")]
    Invalid {
        flag: &'static str,
        text: String,
        reason: String,
    },
    #[error("--for {0:?}: use all or any")]
    BadFor(String),
    /// `kw wait --for`'s mistakes, in kubectl wait's own words (no flag named, as kubectl's).
    #[error("{0}")]
    Kubectl(String),
    /// kubectl wait's `unrecognized condition: "condtion=Ready"`, and what it is one slip away
    /// from, which kw says on a line of its own before kubectl's ([`ConditionError::hint`]).
    #[error("unrecognized condition: {quoted}")]
    Unrecognized {
        quoted: String,
        near: Option<String>,
    },
}

impl ConditionError {
    /// kw's line after kubectl's, when kw can tell what was meant.
    pub fn hint(&self) -> Option<String> {
        match self {
            ConditionError::Unrecognized {
                near: Some(near), ..
            } => Some(format!("kw: did you mean --for={near}?")),
            _ => None,
        }
    }
}

fn did_you_mean(near: Option<&str>) -> String {
    near.map(|near| format!("; did you mean {near:?}?"))
        .unwrap_or_default()
}

/// The EXPR `text` is most likely a slip for: a word of `words`, or `condition=` and
/// `jsonpath=` with the word before `=` mistyped. `any_case`: kw's `--until` takes its words in
/// any case, kubectl wait's `--for` its prefixes in lower case only (`Condition=` is a slip).
fn meant(text: &str, words: &[&str], any_case: bool) -> Option<String> {
    let fold = |word: &str| match any_case {
        true => word.to_ascii_lowercase(),
        false => word.to_string(),
    };
    match text.split_once('=') {
        Some((prefix, rest)) => {
            kw_base::spelling::nearest(&fold(prefix), ["condition", "jsonpath"])
                .map(|prefix| format!("{prefix}={rest}"))
        }
        None => kw_base::spelling::nearest(&text.to_ascii_lowercase(), words.iter().copied())
            .map(str::to_string),
    }
}

/// kubectl wait's line for a JSONPath `--for` it cannot split into a path and a value.
const JSONPATH_FORMAT: &str = "jsonpath wait format must be --for=jsonpath='{.status.readyReplicas}'=3 or --for=jsonpath='{.status.readyReplicas}'";

/// The words `flag` takes, for the error that lists them.
fn vocabulary(flag: &str) -> &'static str {
    if flag == "--fail-on" {
        "failed, delete, create, condition=NAME[=VALUE] or jsonpath='{.PATH}'[=VALUE]"
    } else {
        "ready, delete, create, condition=NAME[=VALUE] or jsonpath='{.PATH}'[=VALUE]"
    }
}

/// The readiness word of the other flag: what the user most likely meant.
fn opposite(word: &str) -> &'static str {
    if word == "ready" {
        "failed"
    } else {
        "ready"
    }
}

/// One condition, as kubectl wait spells it, or a readiness word.
#[derive(Debug, Clone, PartialEq)]
pub enum Expr {
    /// `--until ready`: the object has reached the state its spec asks for (`readiness`).
    Ready,
    /// `--fail-on failed`: the object will not get there without someone acting.
    Failed,
    /// The object is deleted (or, for a named object, does not exist).
    Delete,
    /// The object exists.
    Create,
    /// `status.conditions[type=NAME].status == VALUE` (both case-insensitive; VALUE defaults to
    /// `True`), as `kubectl wait --for=condition=NAME[=VALUE]`.
    Condition { name: String, value: String },
    /// The one value at PATH, printed as Go's `%v`, equals VALUE (both trimmed), or with no
    /// VALUE, exists: `kubectl wait --for=jsonpath=...`, with kubectl's full JSONPath dialect
    /// (filters such as `[?(@.type=="Ready")]` included).
    JsonPath {
        text: String,
        path: JsonPath,
        value: Option<String>,
    },
    /// Under `--fail-on` only, never typed: the first lists found no object at all (`kw wait -l`
    /// on a selector that matches nothing, which kubectl refuses at once).
    Nothing,
}

impl fmt::Display for Expr {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Expr::Ready => f.write_str("ready"),
            Expr::Failed => f.write_str("failed"),
            Expr::Delete => f.write_str("delete"),
            Expr::Create => f.write_str("create"),
            Expr::Condition { name, value } => write!(f, "condition={name}={}", typed(value)),
            Expr::JsonPath { text, value, .. } => {
                let tail = value
                    .as_deref()
                    .map(|v| format!("={}", typed(v)))
                    .unwrap_or_default();
                let bare = format!("{text}{tail}");
                if split_jsonpath(&bare).is_ok_and(|(template, _)| template == text) {
                    write!(f, "jsonpath={bare}")
                } else {
                    write!(f, "jsonpath={}{tail}", quoted(text))
                }
            }
            Expr::Nothing => f.write_str("nothing"),
        }
    }
}

/// A VALUE as it must be typed to read back as itself: in quotes when it has the quotes or the
/// spaces at its ends that reading takes off (`''x''` read as `'x'`, which printed bare read
/// back as `x`: found by the `selectors` fuzz target), bare otherwise.
fn typed(value: &str) -> std::borrow::Cow<'_, str> {
    if unquote(value) == value && value.trim() == value {
        value.into()
    } else {
        quoted(value).into()
    }
}

fn quoted(text: &str) -> String {
    if text.contains('\'') {
        format!("\"{text}\"")
    } else {
        format!("'{text}'")
    }
}

impl Expr {
    /// Parse one EXPR given to `flag` (for the error message).
    pub fn parse(flag: &'static str, text: &str) -> Result<Expr, ConditionError> {
        let invalid = |reason: &str| ConditionError::Invalid {
            flag,
            text: text.to_string(),
            reason: reason.to_string(),
        };
        let trimmed = text.trim();
        let wrong_flag = |word: &'static str, owner: &'static str| ConditionError::WrongFlag {
            flag,
            text: text.to_string(),
            word,
            owner,
        };
        match (trimmed.to_ascii_lowercase().as_str(), flag) {
            ("delete", _) => return Ok(Expr::Delete),
            ("create", _) => return Ok(Expr::Create),
            ("ready", "--fail-on") => return Err(wrong_flag("ready", "--until")),
            ("ready", _) => return Ok(Expr::Ready),
            ("failed", "--fail-on") => return Ok(Expr::Failed),
            ("failed", _) => return Err(wrong_flag("failed", "--fail-on")),
            _ => {}
        }
        if let Some(rest) = strip_prefix_ci(trimmed, "condition=") {
            let (name, value) = match rest.split_once('=') {
                Some((name, value)) => (name, unquote(value)),
                None => (rest, "True"),
            };
            if name.is_empty() || value.is_empty() {
                return Err(invalid("condition=NAME[=VALUE] needs a NAME and a VALUE"));
            }
            return Ok(Expr::Condition {
                name: name.to_string(),
                value: value.to_string(),
            });
        }
        if let Some(rest) = strip_prefix_ci(trimmed, "jsonpath=") {
            let (template, value) = split_jsonpath(rest).map_err(|r| invalid(&r))?;
            let path = jsonpath::relaxed(template)
                .filter(|t| !t.is_empty())
                .ok_or_else(|| {
                    invalid("a path such as {.status.phase} (braces of its own are not allowed)")
                })
                .and_then(|t| JsonPath::parse(&t).map_err(|e| invalid(&e.to_string())))?
                .allow_missing_keys(true);
            return Ok(Expr::JsonPath {
                text: template.to_string(),
                path,
                value: value.map(|v| unquote(v).to_string()),
            });
        }
        let words: &[&str] = match flag {
            "--fail-on" => &["failed", "delete", "create"],
            _ => &["ready", "delete", "create"],
        };
        Err(ConditionError::Unknown {
            flag,
            text: text.to_string(),
            near: meant(trimmed, words, true),
        })
    }

    /// Parse one `kw wait --for` value as kubectl wait does (`conditionFuncsFor`): its words
    /// compared whole and case-insensitively, `condition=` and `jsonpath=` case-sensitively,
    /// the condition's value as typed (default `True`), the JSONPath split on single `=`s (a
    /// `==` of a filter stays), and kubectl's error lines; plus kw's `ready`.
    pub fn parse_for(text: &str) -> Result<Expr, ConditionError> {
        let kubectl = |message: &str| ConditionError::Kubectl(message.to_string());
        match text.to_lowercase().as_str() {
            "delete" => return Ok(Expr::Delete),
            "create" => return Ok(Expr::Create),
            "ready" => return Ok(Expr::Ready),
            "failed" => {
                return Err(ConditionError::WrongFlag {
                    flag: "--for",
                    text: text.to_string(),
                    word: "failed",
                    owner: "--fail-on",
                })
            }
            _ => {}
        }
        if let Some(rest) = text.strip_prefix("condition=") {
            // kubectl's default is `true`; compared case-insensitively, `True` says the same
            // and reads as the server writes it.
            let (name, value) = rest.split_once('=').unwrap_or((rest, "True"));
            return Ok(Expr::Condition {
                name: name.to_string(),
                value: value.to_string(),
            });
        }
        if let Some(rest) = text.strip_prefix("jsonpath=") {
            let parts = split_on_single_equals(rest);
            let (template, value) = match parts.as_slice() {
                [template] => (*template, None),
                [template, value] => (*template, Some(value.trim_matches(['\'', '"']))),
                _ => return Err(kubectl(JSONPATH_FORMAT)),
            };
            let relaxed = jsonpath::relaxed(template).ok_or_else(|| {
                kubectl("unexpected path string, expected a 'name1.name2' or '.name1.name2' or '{name1.name2}' or '{.name1.name2}'")
            })?;
            if value == Some("") {
                return Err(kubectl("jsonpath wait has to have a value after equal sign, like --for=jsonpath='{.status.readyReplicas}'=3"));
            }
            if relaxed.is_empty() {
                return Err(kubectl("jsonpath expression cannot be empty"));
            }
            let path = JsonPath::parse(&relaxed)
                .map_err(|e| kubectl(&e.to_string()))?
                .allow_missing_keys(true);
            return Ok(Expr::JsonPath {
                text: template.to_string(),
                path,
                value: value.map(str::to_string),
            });
        }
        Err(ConditionError::Unrecognized {
            quoted: kw_go::gotemplate::go_quote(text),
            near: meant(text, &["delete", "create", "ready"], false),
        })
    }

    /// Whether judging this needs the whole object (not only its name).
    pub fn needs_object(&self) -> bool {
        matches!(
            self,
            Expr::Condition { .. } | Expr::JsonPath { .. } | Expr::Ready | Expr::Failed
        )
    }

    /// Whether judging this needs the readiness rules' judgement of the object.
    pub(super) fn needs_judgement(&self) -> bool {
        matches!(self, Expr::Ready | Expr::Failed)
    }

    /// Whether an existing object, judged `judgement` by the readiness rules when that is
    /// needed, meets this (`Delete` never does).
    pub(super) fn holds_for(&self, object: Option<&Value>, judgement: Option<&Judgement>) -> bool {
        match self {
            Expr::Ready => judgement.is_some_and(|j| j.state == State::Ready),
            Expr::Failed => judgement.is_some_and(|j| j.state == State::Failed),
            Expr::Delete | Expr::Nothing => false,
            Expr::Create => true,
            Expr::Condition { name, value } => object.is_some_and(|o| condition_is(o, name, value)),
            Expr::JsonPath { path, value, .. } => {
                object.is_some_and(|o| jsonpath_holds(path, value.as_deref(), o))
            }
        }
    }
}

impl Expr {
    /// Why this can never be judged on `object`, in kubectl wait's words: a JSONPath that
    /// finds several values, or leads to a map or list when a VALUE is asked (kubectl fails
    /// at once on such an object; nothing it could become would change the path's shape).
    pub(super) fn invalid_for(&self, object: &Value) -> Option<String> {
        let Expr::JsonPath { path, value, .. } = self else {
            return None;
        };
        let groups = path.find(object).ok()?;
        let first = groups.first().filter(|group| !group.is_empty())?;
        if groups.len() > 1 {
            return Some("given jsonpath expression matches more than one list".into());
        }
        if first.len() > 1 {
            return Some("given jsonpath expression matches more than one value".into());
        }
        let nested = matches!(first[0].as_ref(), Value::Object(_) | Value::Array(_));
        (value.is_some() && nested)
            .then(|| "jsonpath leads to a nested object or list which is not supported".into())
    }
}

/// kubectl wait's JSONPath rule: exactly one value found; with VALUE, a scalar whose `%v`
/// equals it (both trimmed). Several values or a map or list never meet a VALUE (kubectl
/// reports those as errors; a watch keeps waiting for the object to take a shape that does).
fn jsonpath_holds(path: &JsonPath, expected: Option<&str>, object: &Value) -> bool {
    let Ok(groups) = path.find(object) else {
        return false;
    };
    let [group] = groups.as_slice() else {
        return false;
    };
    let [found] = group.as_slice() else {
        return false;
    };
    match (expected, found.as_ref()) {
        (None, found) => !found.is_null(),
        (Some(_), Value::Object(_) | Value::Array(_)) => false,
        (Some(expected), found) => {
            let mut text = Vec::new();
            write_go_value(&mut text, found);
            String::from_utf8_lossy(&text).trim() == expected.trim()
        }
    }
}

fn strip_prefix_ci<'a>(text: &'a str, prefix: &str) -> Option<&'a str> {
    let head = text.get(..prefix.len())?;
    head.eq_ignore_ascii_case(prefix)
        .then(|| &text[prefix.len()..])
}

/// Quotes a shell left in place (`'Succeeded'` typed inside double quotes).
fn unquote(text: &str) -> &str {
    for q in ['\'', '"'] {
        if let Some(inner) = text.strip_prefix(q).and_then(|t| t.strip_suffix(q)) {
            return inner;
        }
    }
    text
}

/// `{.status.phase}=Succeeded` → (`{.status.phase}`, Some(`Succeeded`)); also without braces
/// (kubectl's relaxed form `.status.phase=Succeeded`) and with quotes around the template.
fn split_jsonpath(text: &str) -> Result<(&str, Option<&str>), String> {
    let text = text.trim();
    for q in ['\'', '"'] {
        if let Some(inner) = text.strip_prefix(q) {
            let Some(end) = inner.find(q) else {
                return Err("unbalanced quote".into());
            };
            let rest = &inner[end + 1..];
            return Ok((&inner[..end], value_after(rest)?));
        }
    }
    if text.starts_with('{') {
        let mut depth = 0usize;
        for (i, c) in text.char_indices() {
            match c {
                '{' => depth += 1,
                '}' => {
                    depth -= 1;
                    if depth == 0 {
                        return Ok((&text[..=i], value_after(&text[i + 1..])?));
                    }
                }
                _ => {}
            }
        }
        return Err("unbalanced braces in the JSONPath".into());
    }
    // kubectl's split: on a single `=`, so that a filter's `==` stays in the path.
    match split_on_single_equals(text).as_slice() {
        [path] => Ok((path, None)),
        [path, value] => Ok((path, Some(value))),
        _ => Err(JSONPATH_FORMAT.into()),
    }
}

/// kubectl wait's `splitJSONPathInput`: `text` split at each single `=`; a `==` (a filter's
/// comparison) is kept whole.
fn split_on_single_equals(text: &str) -> Vec<&str> {
    let bytes = text.as_bytes();
    let mut parts = Vec::new();
    let (mut start, mut i) = (0, 0);
    while i < bytes.len() {
        if bytes[i] == b'=' {
            if bytes.get(i + 1) == Some(&b'=') {
                i += 2;
                continue;
            }
            parts.push(&text[start..i]);
            start = i + 1;
        }
        i += 1;
    }
    parts.push(&text[start..]);
    parts
}

fn value_after(rest: &str) -> Result<Option<&str>, String> {
    if rest.is_empty() {
        return Ok(None);
    }
    match rest.strip_prefix('=') {
        Some(value) if !value.is_empty() => Ok(Some(value)),
        Some(_) => Err("an empty VALUE after '='".into()),
        None => Err(format!("unexpected {rest:?} after the JSONPath")),
    }
}

/// kubectl wait's rule (`checkCondition`): the first condition whose type matches (both
/// compared as Unicode simple case folding would) decides, unless it was observed for an older
/// generation of the object: the condition's own `observedGeneration`, else the status's.
fn condition_is(object: &Value, name: &str, value: &str) -> bool {
    let generation = object
        .pointer("/metadata/generation")
        .and_then(Value::as_i64);
    let status_observed = object
        .pointer("/status/observedGeneration")
        .and_then(Value::as_i64);
    let Some(conditions) = object
        .pointer("/status/conditions")
        .and_then(Value::as_array)
    else {
        return false;
    };
    let first = conditions.iter().find_map(|c| {
        let type_matches = fold_eq(c.get("type")?.as_str()?, name);
        let status = c.get("status")?.as_str()?;
        type_matches.then_some((c, status))
    });
    let Some((condition, status)) = first else {
        return false;
    };
    let observed = condition
        .get("observedGeneration")
        .and_then(Value::as_i64)
        .or(status_observed);
    if let (Some(generation), Some(observed)) = (generation, observed) {
        if observed < generation {
            return false;
        }
    }
    fold_eq(status, value)
}

/// Go's `strings.EqualFold`, near enough: equal once both are lower-cased char by char.
fn fold_eq(a: &str, b: &str) -> bool {
    a.chars()
        .flat_map(char::to_lowercase)
        .eq(b.chars().flat_map(char::to_lowercase))
}

/// `--for`: must every watched object meet an `--until` condition, or does one suffice?
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum For {
    #[default]
    All,
    Any,
}

impl std::str::FromStr for For {
    type Err = ConditionError;
    fn from_str(text: &str) -> Result<For, ConditionError> {
        match text.to_ascii_lowercase().as_str() {
            "all" => Ok(For::All),
            "any" => Ok(For::Any),
            _ => Err(ConditionError::BadFor(text.to_string())),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn parse(text: &str) -> Expr {
        Expr::parse("--until", text).unwrap()
    }

    #[test]
    fn an_expr_prints_as_it_reads_back() {
        for (text, printed) in [
            ("condition=Ready", "condition=Ready=True"),
            ("condition=a=''x''", "condition=a=\"'x'\""),
            ("condition=a=' x '", "condition=a=' x '"),
            (
                "jsonpath={.status.phase}=Running",
                "jsonpath={.status.phase}=Running",
            ),
            ("jsonpath='.a=b'", "jsonpath='.a=b'"),
            ("jsonpath=\"a=b\"='Tru'", "jsonpath='a=b'=Tru"),
            ("jsonpath=\"{.a['k']}\"", "jsonpath={.a['k']}"),
        ] {
            let expr = parse(text);
            assert_eq!(expr.to_string(), printed, "{text}");
            assert_eq!(parse(printed), expr, "{printed}");
        }
    }

    #[test]
    fn parses_kubectl_wait_vocabulary() {
        assert_eq!(parse("delete"), Expr::Delete);
        assert_eq!(parse("Create"), Expr::Create);
        assert_eq!(
            parse("condition=Ready"),
            Expr::Condition {
                name: "Ready".into(),
                value: "True".into()
            }
        );
        assert_eq!(
            parse("condition=Available=False"),
            Expr::Condition {
                name: "Available".into(),
                value: "False".into()
            }
        );
        for text in [
            "jsonpath={.status.phase}=Succeeded",
            "jsonpath='{.status.phase}'=Succeeded",
            "jsonpath=.status.phase=Succeeded",
            "jsonpath={.status.phase}='Succeeded'",
        ] {
            match parse(text) {
                Expr::JsonPath { value, .. } => {
                    assert_eq!(value.as_deref(), Some("Succeeded"), "{text}")
                }
                other => panic!("{text}: {other:?}"),
            }
        }
        assert!(matches!(
            parse("jsonpath={.status.readyReplicas}"),
            Expr::JsonPath { value: None, .. }
        ));
        // kubectl's relaxed form: a bare field name is a path.
        assert!(matches!(
            parse("jsonpath=status.phase=Running"),
            Expr::JsonPath { value: Some(_), .. }
        ));
    }

    #[test]
    fn rejects_bad_exprs_naming_the_flag() {
        for text in [
            "ready",
            "condition=",
            "condition=Ready=",
            "jsonpath={.a",
            "jsonpath={.a}x",
            "jsonpath={.a}=",
            "jsonpath={.a[x]}",
            "jsonpath={.a}}",
            "jsonpath={}",
        ] {
            let err = Expr::parse("--fail-on", text).unwrap_err().to_string();
            assert!(err.starts_with("--fail-on"), "{text}: {err}");
        }
        assert!("some".parse::<For>().is_err());
        assert_eq!("ANY".parse::<For>(), Ok(For::Any));
    }

    #[test]
    fn jsonpath_conditions_use_kubectls_dialect() {
        let object = json!({"status": {
            "containerStatuses": [{"ready": true}],
            "phase": "Running",
            "replicas": 3,
            "conditions": [
                {"type": "Available", "status": "False"},
                {"type": "Ready", "status": "True"}
            ]
        }});
        let holds = |text: &str| parse(text).holds_for(Some(&object), None);
        assert!(holds("jsonpath={.status.containerStatuses[0].ready}=true"));
        assert!(holds("jsonpath=.status.phase=Running"));
        assert!(holds("jsonpath=status.phase=Running"));
        assert!(holds("jsonpath={.status.replicas}=3"));
        assert!(holds("jsonpath={.status.phase}"));
        assert!(!holds("jsonpath={.status.nope}"));
        assert!(!holds("jsonpath={.status.phase}=Pending"));
        // The filter form `kubectl wait` accepts, as the shell hands it over.
        assert!(holds(
            r#"jsonpath={.status.conditions[?(@.type=="Ready")].status}=True"#
        ));
        assert!(!holds(
            r#"jsonpath={.status.conditions[?(@.type=="Available")].status}=True"#
        ));
        // Several values, or a map, never meet a VALUE.
        assert!(!holds("jsonpath={.status.conditions[*].status}=True"));
        assert!(!holds("jsonpath={.status.containerStatuses[0]}=true"));
    }

    #[test]
    fn conditions_match_kubectl_wait() {
        let object = json!({
            "metadata": {"generation": 2},
            "status": {"conditions": [
                {"type": "Available", "status": "False"},
                {"type": "Ready", "status": "True", "observedGeneration": 2},
                {"type": "Progressing", "status": "True", "observedGeneration": 1}
            ]}
        });
        assert!(parse("condition=ready").holds_for(Some(&object), None));
        assert!(parse("condition=Available=false").holds_for(Some(&object), None));
        assert!(!parse("condition=Available").holds_for(Some(&object), None));
        // Observed for an older generation: not yet true of this one.
        assert!(!parse("condition=Progressing").holds_for(Some(&object), None));
        assert!(!parse("condition=Ready").holds_for(None, None));
    }

    #[test]
    fn readiness_words_parse_on_their_own_flag_only() {
        assert_eq!(parse("ready"), Expr::Ready);
        assert_eq!(parse(" READY "), Expr::Ready);
        assert_eq!(Expr::parse("--fail-on", "Failed"), Ok(Expr::Failed));
        assert!(matches!(
            Expr::parse("--fail-on", "ready"),
            Err(ConditionError::WrongFlag { word: "ready", .. })
        ));
        assert!(matches!(
            Expr::parse("--until", "failed"),
            Err(ConditionError::WrongFlag { word: "failed", .. })
        ));
        assert_eq!(Expr::Ready.to_string(), "ready");
        assert!(Expr::Failed.needs_object());
    }

    /// A slip of the fingers in a word or a prefix gets what it was meant as; a word that is
    /// nowhere near gets nothing.
    #[test]
    fn a_slip_is_told_what_it_was_meant_as() {
        let near = |flag, text| match Expr::parse(flag, text) {
            Err(ConditionError::Unknown { near, .. }) => near,
            other => panic!("{other:?}"),
        };
        assert_eq!(near("--until", "redy").as_deref(), Some("ready"));
        assert_eq!(near("--until", "Redy").as_deref(), Some("ready"));
        assert_eq!(near("--fail-on", "faild").as_deref(), Some("failed"));
        assert_eq!(
            near("--until", "condtion=Ready").as_deref(),
            Some("condition=Ready")
        );
        assert_eq!(
            near("--until", "jsonpth={.a}").as_deref(),
            Some("jsonpath={.a}")
        );
        assert_eq!(near("--until", "banana"), None);
        let message = Expr::parse("--until", "redy").unwrap_err().to_string();
        assert!(
            message.starts_with(
                "--until \"redy\": unknown condition; did you mean \"ready\"? (use ready,"
            ),
            "{message}"
        );
        let for_ = Expr::parse_for("condtion=Ready").unwrap_err();
        assert_eq!(
            for_.to_string(),
            "unrecognized condition: \"condtion=Ready\""
        );
        assert_eq!(
            for_.hint().as_deref(),
            Some("kw: did you mean --for=condition=Ready?")
        );
        let cased = Expr::parse_for("Condition=Ready").unwrap_err();
        assert_eq!(
            cased.hint().as_deref(),
            Some("kw: did you mean --for=condition=Ready?")
        );
        assert_eq!(Expr::parse_for("banana").unwrap_err().hint(), None);
    }
}
