//! The words of a half-typed command line, read tolerantly: which connection flags it gives
//! (anywhere, before or after the subcommand, as `--flag value`, `--flag=value`, `-nVALUE` or
//! `-n=VALUE`), which subcommand and arguments it has, and what the word under the cursor is (a
//! flag, a flag's value, or an argument). Nothing here rejects a line: a completion asked for
//! in the middle of typing must make the best of whatever is there, so unknown flags are
//! skipped, not reported.
//!
//! Which flags take a value comes from a `FlagBook` (built from clap's definitions in
//! `vocabulary`), plus the kubectl connection flags below, which are known here whatever clap's
//! layout of them is at the moment.

use std::collections::BTreeMap;

/// One flag: its long name, its short letter, whether it takes a value.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FlagSpec {
    pub long: String,
    pub short: Option<char>,
    pub takes_value: bool,
}

/// kubectl's connection flags as kw accepts them: `(long, short, takes a value)`. They locate
/// the cluster a completion asks, so they are read wherever they appear on the line.
pub const CONNECTION_FLAGS: [(&str, Option<char>, bool); 18] = [
    ("kubeconfig", None, true),
    ("context", None, true),
    ("cluster", None, true),
    ("user", None, true),
    ("namespace", Some('n'), true),
    ("server", Some('s'), true),
    ("token", None, true),
    ("certificate-authority", None, true),
    ("client-certificate", None, true),
    ("client-key", None, true),
    ("tls-server-name", None, true),
    ("insecure-skip-tls-verify", None, false),
    ("as", None, true),
    ("as-group", None, true),
    ("as-uid", None, true),
    ("request-timeout", None, true),
    ("v", Some('v'), true),
    ("all-namespaces", Some('A'), false),
];

/// The flags kw knows, by long name and by short letter.
#[derive(Debug, Clone, Default)]
pub struct FlagBook {
    by_long: BTreeMap<String, FlagSpec>,
    by_short: BTreeMap<char, String>,
}

impl FlagBook {
    /// A book of `flags`, with the connection flags added (the given flags win on a clash).
    pub fn new(flags: impl IntoIterator<Item = FlagSpec>) -> FlagBook {
        let mut book = FlagBook::default();
        for (long, short, takes_value) in CONNECTION_FLAGS {
            book.add(FlagSpec {
                long: long.to_string(),
                short,
                takes_value,
            });
        }
        for flag in flags {
            book.add(flag);
        }
        book
    }

    fn add(&mut self, flag: FlagSpec) {
        if let Some(short) = flag.short {
            self.by_short.insert(short, flag.long.clone());
        }
        self.by_long.insert(flag.long.clone(), flag);
    }

    pub fn long(&self, name: &str) -> Option<&FlagSpec> {
        self.by_long.get(name)
    }

    pub fn short(&self, letter: char) -> Option<&FlagSpec> {
        self.by_short.get(&letter).and_then(|long| self.long(long))
    }
}

/// What the word under the cursor is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Cursor {
    /// The value of flag `flag` (its long name). `lead` is what the word holds before the value
    /// (`--context=`, `-n`, or nothing when the value is a word of its own), `typed` the value
    /// typed so far.
    FlagValue {
        flag: String,
        lead: String,
        typed: String,
    },
    /// A flag name (`-`, `--con`).
    FlagName { typed: String },
    /// The subcommand (no subcommand yet).
    Subcommand { typed: String },
    /// The subcommand's argument number `index` (0 is the first after the subcommand).
    Argument { index: usize, typed: String },
}

/// A command line read up to the cursor.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Line {
    /// The subcommand (`get`), if one was typed before the cursor.
    pub subcommand: Option<String>,
    /// The subcommand's arguments before the cursor.
    pub arguments: Vec<String>,
    /// Every flag given before the cursor, by long name, with its values in order (empty for a
    /// flag without a value).
    pub flags: BTreeMap<String, Vec<String>>,
    pub cursor: Cursor,
}

impl Line {
    /// The last value given for `flag`.
    pub fn value(&self, flag: &str) -> Option<&str> {
        self.flags
            .get(flag)
            .and_then(|values| values.last())
            .map(String::as_str)
    }

    /// Every value given for a repeatable flag.
    pub fn values(&self, flag: &str) -> &[String] {
        self.flags.get(flag).map(Vec::as_slice).unwrap_or(&[])
    }

    pub fn has(&self, flag: &str) -> bool {
        self.flags.contains_key(flag)
    }
}

/// Read `words` (the words after `kw`; the last one is under the cursor, empty after a space).
pub fn parse(words: &[String], book: &FlagBook) -> Line {
    let (current, before) = match words.split_last() {
        Some((last, before)) => (last.as_str(), before),
        None => ("", &[][..]),
    };
    let mut line = Line {
        subcommand: None,
        arguments: Vec::new(),
        flags: BTreeMap::new(),
        cursor: Cursor::FlagName {
            typed: String::new(),
        },
    };
    let mut awaiting: Option<String> = None;
    let mut only_arguments = false;
    for word in before.iter().map(|w| unquote(w)) {
        if let Some(flag) = awaiting.take() {
            record(&mut line, &flag, Some(word));
            continue;
        }
        if only_arguments || !word.starts_with('-') || word == "-" {
            push_argument(&mut line, word);
            continue;
        }
        if word == "--" {
            only_arguments = true;
            continue;
        }
        awaiting = read_flag(&mut line, &word, book);
    }
    let current = unquote(current);
    line.cursor = match awaiting {
        Some(flag) => Cursor::FlagValue {
            flag,
            lead: String::new(),
            typed: current,
        },
        None if !only_arguments && current.starts_with('-') && current != "-" => {
            flag_cursor(&current, book)
        }
        None if line.subcommand.is_none() => Cursor::Subcommand { typed: current },
        None => Cursor::Argument {
            index: line.arguments.len(),
            typed: current,
        },
    };
    line
}

fn push_argument(line: &mut Line, word: String) {
    if line.subcommand.is_none() {
        line.subcommand = Some(word);
    } else {
        line.arguments.push(word);
    }
}

fn record(line: &mut Line, flag: &str, value: Option<String>) {
    let values = line.flags.entry(flag.to_string()).or_default();
    values.extend(value);
}

/// Record the flag(s) in `word`; the long name of a flag that takes its value from the next
/// word, if any.
fn read_flag(line: &mut Line, word: &str, book: &FlagBook) -> Option<String> {
    if let Some(long) = word.strip_prefix("--") {
        let (name, value) = match long.split_once('=') {
            Some((name, value)) => (name, Some(value.to_string())),
            None => (long, None),
        };
        let takes_value = book.long(name).is_some_and(|f| f.takes_value);
        if takes_value && value.is_none() {
            return Some(name.to_string());
        }
        record(line, name, value);
        return None;
    }
    // A cluster of short flags (`-wA`), the last of which may take a value (`-wn team-a`,
    // `-nteam-a`, `-n=team-a`).
    let letters = &word[1..];
    for (at, letter) in letters.char_indices() {
        let Some(flag) = book.short(letter) else {
            continue;
        };
        if !flag.takes_value {
            record(line, &flag.long, None);
            continue;
        }
        let rest = &letters[at + letter.len_utf8()..];
        let rest = rest.strip_prefix('=').unwrap_or(rest);
        if rest.is_empty() {
            return Some(flag.long.clone());
        }
        record(line, &flag.long, Some(rest.to_string()));
        return None;
    }
    None
}

/// The cursor inside a word that starts with `-`.
fn flag_cursor(word: &str, book: &FlagBook) -> Cursor {
    if let Some(long) = word.strip_prefix("--") {
        if let Some((name, value)) = long.split_once('=') {
            if book.long(name).is_some_and(|f| f.takes_value) {
                return Cursor::FlagValue {
                    flag: name.to_string(),
                    lead: format!("--{name}="),
                    typed: value.to_string(),
                };
            }
        }
        return Cursor::FlagName {
            typed: word.to_string(),
        };
    }
    // `-nte`, `-n=te`: the value of -n. `-n` alone is still the flag itself.
    let letters = &word[1..];
    for (at, letter) in letters.char_indices() {
        match book.short(letter) {
            Some(flag) if flag.takes_value => {
                let end = at + letter.len_utf8();
                let rest = &letters[end..];
                if rest.is_empty() {
                    break;
                }
                let (lead_end, typed) = match rest.strip_prefix('=') {
                    Some(typed) => (end + 2, typed),
                    None => (end + 1, rest),
                };
                return Cursor::FlagValue {
                    flag: flag.long.clone(),
                    lead: word[..lead_end].to_string(),
                    typed: typed.to_string(),
                };
            }
            _ => continue,
        }
    }
    Cursor::FlagName {
        typed: word.to_string(),
    }
}

/// A word as the program would receive it: surrounding quotes removed, a leading `~/` made the
/// home directory. Shells pass words as typed; a tolerant reading of the common cases is enough
/// to find a kubeconfig or a namespace.
pub fn unquote(word: &str) -> String {
    let mut text = word.to_string();
    for quote in ['\'', '"'] {
        if let Some(inner) = text.strip_prefix(quote) {
            text = inner.strip_suffix(quote).unwrap_or(inner).to_string();
            break;
        }
    }
    if let Some(rest) = text.strip_prefix("~/") {
        if let Some(home) = std::env::var_os("HOME").filter(|h| !h.is_empty()) {
            return format!("{}/{rest}", home.to_string_lossy());
        }
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    fn book() -> FlagBook {
        FlagBook::new([
            FlagSpec {
                long: "watch".into(),
                short: Some('w'),
                takes_value: false,
            },
            FlagSpec {
                long: "output".into(),
                short: Some('o'),
                takes_value: true,
            },
            FlagSpec {
                long: "until".into(),
                short: None,
                takes_value: true,
            },
        ])
    }

    fn line(text: &str) -> Line {
        let mut words: Vec<String> = text.split(' ').map(String::from).collect();
        if text.is_empty() {
            words = vec![String::new()];
        }
        parse(&words, &book())
    }

    #[test]
    fn finds_connection_flags_before_and_after_the_subcommand_in_every_form() {
        for text in [
            "--context prod -n web get pods ",
            "--context=prod --namespace=web get pods ",
            "get pods --context prod -nweb ",
            "get --context prod pods -n=web ",
            "-wn web get --context=prod pods ",
        ] {
            let line = line(text);
            assert_eq!(line.value("context"), Some("prod"), "{text}");
            assert_eq!(line.value("namespace"), Some("web"), "{text}");
            assert_eq!(line.subcommand.as_deref(), Some("get"), "{text}");
            assert_eq!(line.arguments, ["pods"], "{text}");
            assert_eq!(
                line.cursor,
                Cursor::Argument {
                    index: 1,
                    typed: String::new()
                },
                "{text}"
            );
        }
    }

    #[test]
    fn knows_when_the_cursor_is_on_a_flags_value() {
        let value = |text: &str| match line(text).cursor {
            Cursor::FlagValue { flag, lead, typed } => (flag, lead, typed),
            other => panic!("{text}: {other:?}"),
        };
        assert_eq!(
            value("get pods -n "),
            ("namespace".into(), "".into(), "".into())
        );
        assert_eq!(
            value("--context pr"),
            ("context".into(), "".into(), "pr".into())
        );
        assert_eq!(
            value("get --context=pr"),
            ("context".into(), "--context=".into(), "pr".into())
        );
        assert_eq!(
            value("get -nte"),
            ("namespace".into(), "-n".into(), "te".into())
        );
        assert_eq!(
            value("get -n=te"),
            ("namespace".into(), "-n=".into(), "te".into())
        );
        assert_eq!(
            value("get pods -o j"),
            ("output".into(), "".into(), "j".into())
        );
        assert_eq!(
            value("get pods --until condition="),
            ("until".into(), "".into(), "condition=".into())
        );
    }

    #[test]
    fn tells_flag_names_subcommands_and_arguments_apart() {
        assert_eq!(
            line("get pods --con").cursor,
            Cursor::FlagName {
                typed: "--con".into()
            }
        );
        assert_eq!(
            line("get pods -n").cursor,
            Cursor::FlagName { typed: "-n".into() }
        );
        assert_eq!(
            line("--context x g").cursor,
            Cursor::Subcommand { typed: "g".into() }
        );
        assert_eq!(line("").cursor, Cursor::Subcommand { typed: "".into() });
        assert_eq!(
            line("get -w po").cursor,
            Cursor::Argument {
                index: 0,
                typed: "po".into()
            }
        );
        // An unknown flag is taken to have no value, and skipped.
        let l = line("get --frobnicate pods we");
        assert_eq!(l.arguments, ["pods"]);
        assert!(l.has("frobnicate"));
        // After `--`, everything is an argument.
        assert_eq!(line("get -- -x -").arguments, ["-x"]);
    }

    #[test]
    fn unquotes_what_the_shell_would() {
        assert_eq!(unquote("'team-a'"), "team-a");
        assert_eq!(unquote("\"prod"), "prod");
        assert_eq!(unquote("plain"), "plain");
    }
}
