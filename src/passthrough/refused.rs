//! A command line clap refused for its verb, sorted out: a kubectl verb that kw hands on
//! (`describe`; `undo` of `rollout undo`), a word that neither kw nor kubectl has (said as
//! kubectl says it, with the verb of either that it is nearest to, when clap has no suggestion
//! of its own), or no verb at all (`kw`, `kw rollout`: the help, as kubectl prints it). A word
//! kubectl does not know is never handed on: kubectl would only refuse it, without kw's verbs
//! among its suggestions. A line of a verb kw shares with kubectl that clap refused only for
//! flags kubectl takes and kw lacks (`get --raw /version`, `version -o json`) is kubectl's too,
//! handed on whole, unless it also sets a flag of kw's own, which kubectl would refuse.

use std::ffi::OsString;

use clap::error::{ContextKind, ContextValue, ErrorKind};
use clap::parser::ValueSource;

use super::kubectl_flags::{self, KubectlFlag};
use super::{KUBECTL_COMMANDS, KUBECTL_ROLLOUT_COMMANDS};

/// What a command line clap refused is.
#[derive(Debug, PartialEq, Eq)]
pub enum Refused {
    /// A kubectl verb kw does not have, as messages name it (`describe`, `rollout undo`).
    HandOn { verb: String },
    /// A word that is no verb of kw's or kubectl's after `command` (`kw`, `kw rollout`), and
    /// the verb it is nearest to, if any.
    Unknown {
        command: String,
        word: String,
        near: Option<String>,
    },
    /// No verb where one is needed: the help is the answer. `top`: after `kw` itself, which
    /// kubectl answers with exit 0 (its `rollout` alone exits 1).
    NoVerb { top: bool },
    /// A verb of kw's (`get`) with `flags` of kubectl's that kw lacks (`--raw`): kubectl's run.
    /// `verbosity`: the line's `-v`, for the line that says so.
    KubectlFlags {
        verb: String,
        flags: Vec<String>,
        verbosity: u8,
    },
    /// Such a flag of kubectl's with one of kw's own that kubectl would refuse (`--until`).
    KwAndKubectl {
        verb: String,
        kubectl: String,
        kw: String,
    },
    /// clap's error for a word neither kw nor kubectl takes, found once kubectl's flags before
    /// it were taken out (`get --raw /v --nope`: `--nope`, not `--raw` and its tip), rendered.
    Later { message: String },
    /// clap's error stands: its own suggestion (`gett` for `get`), or another mistake.
    Clap,
}

/// Sort out `error`, clap's refusal of `args` (the program name first) under `command`.
pub fn refused(command: &clap::Command, args: &[OsString], error: &clap::Error) -> Refused {
    let kind = error.kind();
    if kind == ErrorKind::UnknownArgument {
        return kubectls_flags(command, args).unwrap_or(Refused::Clap);
    }
    if !matches!(
        kind,
        ErrorKind::InvalidSubcommand | ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand
    ) {
        return Refused::Clap;
    }
    let Some((path, word)) = verb_at(command, args) else {
        return Refused::Clap;
    };
    let Some(word) = word else {
        return match kind {
            ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand => Refused::NoVerb {
                top: path.is_empty(),
            },
            _ => Refused::Clap,
        };
    };
    let handed = match path.as_slice() {
        [] => KUBECTL_COMMANDS,
        [rollout] if rollout == "rollout" => KUBECTL_ROLLOUT_COMMANDS,
        _ => &[],
    };
    if handed.contains(&word.as_str()) {
        let verb = path.iter().chain([&word]).cloned().collect::<Vec<_>>();
        return Refused::HandOn {
            verb: verb.join(" "),
        };
    }
    if error.get(ContextKind::SuggestedSubcommand).is_some() {
        return Refused::Clap;
    }
    let Some(level) = path
        .iter()
        .try_fold(command, |command, name| command.find_subcommand(name))
    else {
        return Refused::Clap;
    };
    let ours = level
        .get_subcommands()
        .filter(|sub| !sub.is_hide_set())
        .map(|sub| sub.get_name());
    let near = kw_base::spelling::nearest(&word, ours.chain(handed.iter().copied()));
    let root = command.get_bin_name().unwrap_or(command.get_name());
    Refused::Unknown {
        command: std::iter::once(root)
            .chain(path.iter().map(String::as_str))
            .collect::<Vec<_>>()
            .join(" "),
        near: near.map(str::to_string),
        word,
    }
}

/// `args` refused for flags (`--raw /version`) that are all kubectl's for the verb the rest
/// names: the line without them parsed again, each taken out with its value, until it parses.
fn kubectls_flags(command: &clap::Command, args: &[OsString]) -> Option<Refused> {
    let any_verb = || {
        kubectl_flags::VERBS
            .iter()
            .flat_map(|(_, flags)| flags.iter())
            .chain(kubectl_flags::GLOBAL)
    };
    let mut args = args.to_vec();
    let mut flags = Vec::new();
    let matches = loop {
        match command.clone().try_get_matches_from(&args) {
            Ok(matches) => break matches,
            Err(e) if e.kind() == ErrorKind::UnknownArgument => {
                let Some(ContextValue::String(arg)) = e.get(ContextKind::InvalidArg) else {
                    return None;
                };
                // After `--` a word is no flag; in a cluster (`-Ak`) it is not one word.
                let end = args.iter().position(|a| a == "--").unwrap_or(args.len());
                // clap names `--server-print=false` by its flag.
                let spelling = |word: &&OsString| {
                    word.to_str().is_some_and(|word| {
                        word.strip_prefix(arg.as_str())
                            .is_some_and(|rest| rest.is_empty() || rest.starts_with('='))
                    })
                };
                let at = 1 + args[1..end].iter().position(|a| spelling(&a))?;
                let word = args[at].to_string_lossy().into_owned();
                let Some(flag) = kubectl_flags::spelled(&word, any_verb()) else {
                    return (!flags.is_empty()).then(|| Refused::Later {
                        message: e.render().to_string(),
                    });
                };
                let with_value = kubectl_flags::takes_next(&word, flag) && at + 1 < end;
                flags.push(word);
                args.drain(at..=at + usize::from(with_value));
            }
            Err(_) => return None,
        }
    };
    let (mut level, mut at) = (command, &matches);
    let mut levels = vec![(level, at)];
    let mut path = Vec::new();
    while let Some((name, sub)) = at.subcommand() {
        level = level.find_subcommand(name)?;
        at = sub;
        path.push(name);
        levels.push((level, at));
    }
    let verb = path.join(" ");
    if flags
        .iter()
        .any(|flag| kubectl_flags::spelled(flag, kubectl_flags::of_verb(&verb)).is_none())
    {
        return None;
    }
    let kubectl = flags
        .first()?
        .split('=')
        .next()
        .unwrap_or_default()
        .to_string();
    if let Some(kw) = levels
        .iter()
        .find_map(|(level, at)| own_flag(level, at, &verb))
    {
        return Some(Refused::KwAndKubectl { verb, kubectl, kw });
    }
    Some(Refused::KubectlFlags {
        verb,
        verbosity: matches
            .try_get_one::<u8>("verbosity")
            .ok()
            .flatten()
            .copied()
            .unwrap_or(0),
        flags,
    })
}

/// A flag of kw's that the line sets at `level` and kubectl's `verb` does not take (`--until`).
fn own_flag(level: &clap::Command, at: &clap::ArgMatches, verb: &str) -> Option<String> {
    level.get_arguments().find_map(|arg| {
        let long = arg.get_long()?;
        let set = at.value_source(arg.get_id().as_str()) == Some(ValueSource::CommandLine);
        let kubectls = kubectl_flags::of_verb(verb).any(|flag: &KubectlFlag| flag.long == long);
        (set && !kubectls).then(|| format!("--{long}"))
    })
}

/// The verbs `args` name under `command` (`["rollout"]`), and the word after them that is no
/// verb of kw's, if one is: `args` parsed again with every level open to verbs it does not
/// know, so that each word is read as clap reads it (after global flags and their values).
fn verb_at(command: &clap::Command, args: &[OsString]) -> Option<(Vec<String>, Option<String>)> {
    let matches = open(command.clone()).try_get_matches_from(args).ok()?;
    let (mut level, mut matches) = (command, &matches);
    let mut path = Vec::new();
    while let Some((name, sub)) = matches.subcommand() {
        match level.find_subcommand(name) {
            Some(known) => {
                path.push(name.to_string());
                (level, matches) = (known, sub);
            }
            None => return Some((path, Some(name.to_string()))),
        }
    }
    Some((path, None))
}

/// `command` with every level that has verbs taking any word as one, and none required.
fn open(command: clap::Command) -> clap::Command {
    let groups: Vec<String> = command
        .get_subcommands()
        .filter(|sub| sub.has_subcommands())
        .map(|sub| sub.get_name().to_string())
        .collect();
    let mut command = command
        .allow_external_subcommands(true)
        .subcommand_required(false)
        .arg_required_else_help(false);
    for name in groups {
        command = command.mut_subcommand(name, open);
    }
    command
}

#[cfg(test)]
mod tests {
    use super::*;

    fn refusal(argv: &[&str]) -> Refused {
        let command = crate::cli::with_pflag_booleans(crate::cli::command(None));
        let args: Vec<OsString> = argv.iter().map(OsString::from).collect();
        let error = command
            .clone()
            .try_get_matches_from(&args)
            .expect_err("refused");
        refused(&command, &args, &error)
    }

    fn handed(verb: &str) -> Refused {
        Refused::HandOn { verb: verb.into() }
    }

    fn unknown(command: &str, word: &str, near: Option<&str>) -> Refused {
        Refused::Unknown {
            command: command.into(),
            word: word.into(),
            near: near.map(str::to_string),
        }
    }

    #[test]
    fn kubectls_verbs_are_handed_on_and_typos_are_not() {
        assert_eq!(refusal(&["kw", "describe", "pod", "x"]), handed("describe"));
        assert_eq!(
            refusal(&["kw", "--context", "c", "-n", "ns", "apply", "-f", "x.yaml"]),
            handed("apply")
        );
        assert_eq!(
            refusal(&["kw", "-n", "undo", "rollout", "undo", "deploy/web"]),
            handed("rollout undo")
        );
        // A rollout verb is not a verb of its own, nor a verb of rollout's one.
        assert_eq!(refusal(&["kw", "undo"]), unknown("kw", "undo", None));
        assert_eq!(
            refusal(&["kw", "rollout", "describe"]),
            unknown("kw rollout", "describe", None)
        );
        let _ = crate::cli::command(None)
            .try_get_matches_from(["kw", "get", "pods"])
            .expect("kw's own");
    }

    /// kw's verbs and kubectl's are suggested alike; clap's own suggestion is left to clap.
    #[test]
    fn a_typo_gets_the_nearest_verb_of_kw_or_kubectl() {
        assert_eq!(
            refusal(&["kw", "aplpy", "foo"]),
            unknown("kw", "aplpy", Some("apply"))
        );
        assert_eq!(
            refusal(&["kw", "gte", "pods"]),
            unknown("kw", "gte", Some("get"))
        );
        assert_eq!(
            refusal(&["kw", "--context", "prod", "descirbe"]),
            unknown("kw", "descirbe", Some("describe"))
        );
        assert_eq!(
            refusal(&["kw", "rollout", "undoo"]),
            unknown("kw rollout", "undoo", Some("undo"))
        );
        assert_eq!(
            refusal(&["kw", "qqqqqqqq"]),
            unknown("kw", "qqqqqqqq", None)
        );
        assert_eq!(refusal(&["kw", "gett", "pods"]), Refused::Clap);
        assert_eq!(refusal(&["kw", "wiat"]), Refused::Clap);
    }

    #[test]
    fn no_verb_is_an_answer_with_the_help() {
        assert_eq!(refusal(&["kw"]), Refused::NoVerb { top: true });
        assert_eq!(
            refusal(&["kw", "-n", "x", "rollout"]),
            Refused::NoVerb { top: false }
        );
        assert_eq!(refusal(&["kw", "get", "--nope"]), Refused::Clap);
    }

    #[test]
    fn a_line_refused_only_for_kubectls_flags_is_kubectls() {
        let kubectls = |verb: &str, flags: &[&str], verbosity| Refused::KubectlFlags {
            verb: verb.into(),
            flags: flags.iter().map(|f| f.to_string()).collect(),
            verbosity,
        };
        assert_eq!(
            refusal(&["kw", "get", "--raw", "/version"]),
            kubectls("get", &["--raw"], 0)
        );
        assert_eq!(
            refusal(&[
                "kw",
                "-v",
                "1",
                "get",
                "pods",
                "--server-print=false",
                "-k",
                "d/"
            ]),
            kubectls("get", &["-k"], 1)
        );
        assert_eq!(
            refusal(&["kw", "--vmodule", "x=1", "rollout", "status", "deploy/web"]),
            kubectls("rollout status", &["--vmodule"], 0)
        );
        assert_eq!(
            refusal(&["kw", "get", "--raw=/version", "--until", "ready"]),
            Refused::KwAndKubectl {
                verb: "get".into(),
                kubectl: "--raw".into(),
                kw: "--until".into()
            }
        );
        // kubectl's wait has no -k, and no one has --nope.
        assert_eq!(refusal(&["kw", "wait", "-k", "d/"]), Refused::Clap);
        let Refused::Later { message } = refusal(&["kw", "get", "--raw", "/v", "--nope"]) else {
            panic!("--nope is no one's");
        };
        assert!(message.contains("'--nope'"), "{message}");
        assert!(!message.contains("--raw"), "{message}");
        let _ = crate::cli::command(None)
            .try_get_matches_from(["kw", "version", "-o", "json"])
            .expect("kw's own");
    }

    /// `kw rollout --help` names every rollout verb it hands to kubectl.
    #[test]
    fn rollout_help_names_the_handed_verbs() {
        let mut command = crate::cli::command(None);
        let rollout = command
            .find_subcommand_mut("rollout")
            .expect("rollout")
            .render_long_help()
            .to_string();
        for verb in KUBECTL_ROLLOUT_COMMANDS {
            assert!(rollout.contains(verb), "{verb} in {rollout}");
        }
    }
}
