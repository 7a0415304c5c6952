//! A command line with the kuberc applied, as kubectl 1.37 applies it, for the verbs kw runs
//! itself (`get`, `wait`, `rollout status`, `version`):
//! - an alias (the first word, when it is no command of kw's or kubectl's) expands to its
//!   command, `prependArgs`, the user's words, `appendArgs`, its options as defaults; an alias
//!   of any other command leaves the line to kubectl as typed (kubectl expands it itself);
//! - the defaults of the verb (or the alias's options, never both) are added as `--name=value`
//!   for each option the user did not give: a value typed wins, `-o` for `output` too.
//!
//! A default must be one of kubectl's flags for the verb (else kubectl's "invalid flag"); a
//! boolean's must read as Go's `strconv.ParseBool` reads it. A default for a flag of kubectl's
//! that kw does not take makes the line kubectl's: it is handed on as typed.

use clap::parser::ValueSource;
use clap::ArgMatches;

use super::error::KubercError;
use super::preferences::{OptionDefault, Preferences};
use crate::passthrough::kubectl_flags;
use crate::passthrough::KUBECTL_COMMANDS;

/// Top-level commands that are neither kw's subcommands nor in `KUBECTL_COMMANDS` (kw's own
/// verbs kubectl shares, and kubectl's that kw never hands on by that table).
const OTHER_COMMANDS: &[&str] = &["completion", "help", "kuberc", "rollout", "version"];

/// What to do with the command line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Applied {
    /// kw parses and runs this line (the program name not included).
    Run(Vec<String>),
    /// The line is kubectl's, to be handed on as typed: `verb` for messages, `why` for `-v`.
    HandOn { verb: String, why: String },
}

/// `args` (after the program name) with `preferences` applied; `command` is kw's command as
/// it parses (pflag booleans), `program` the name kw was started by (kubectl's words name it).
/// The warnings kubectl writes before running are pushed onto `warnings`.
pub fn apply(
    args: &[String],
    preferences: &Preferences,
    command: &clap::Command,
    program: &str,
    warnings: &mut Vec<String>,
) -> Result<Applied, KubercError> {
    for entry in &preferences.defaults {
        let first = entry.command.split_whitespace().next().unwrap_or_default();
        if !is_builtin(command, first) {
            warnings.push(format!(
                "Warning: command {:?} not found to set kuberc override\n",
                entry.command
            ));
        }
    }
    let alias = args
        .first()
        .filter(|first| !is_builtin(command, first))
        .and_then(|first| preferences.aliases.iter().find(|a| &a.name == first));
    let (line, options, alias_name) = match alias {
        Some(alias) => {
            let words: Vec<&str> = alias.command.split_whitespace().collect();
            if !matches!(
                words.as_slice(),
                ["get"] | ["wait"] | ["version"] | ["rollout", "status"]
            ) {
                return Ok(Applied::HandOn {
                    verb: alias.name.clone(),
                    why: format!(
                        "the kuberc alias {:?} is kubectl's {:?}, which kw does not run",
                        alias.name, alias.command
                    ),
                });
            }
            let line: Vec<String> = words
                .iter()
                .map(|w| w.to_string())
                .chain(alias.prepend_args.iter().cloned())
                .chain(args[1..].iter().cloned())
                .chain(alias.append_args.iter().cloned())
                .collect();
            (line, Some(alias.options.clone()), Some(alias.name.as_str()))
        }
        None => (args.to_vec(), None, None),
    };
    let parsed = command
        .clone()
        .try_get_matches_from(std::iter::once(program.to_string()).chain(line.iter().cloned()));
    // A line kw refuses goes its usual way (kubectl's flags hand it on as typed).
    let Ok(matches) = parsed else {
        return Ok(Applied::Run(line));
    };
    let Some((verb, chain)) = verb_of(command, &matches) else {
        return Ok(Applied::Run(line));
    };
    let options = options.unwrap_or_else(|| preferences.defaults_of(&verb));
    let mut added = Vec::new();
    for OptionDefault { name, default } in &options {
        let unknown = || match alias_name {
            Some(_) => KubercError::UnknownAliasOption {
                flag: name.clone(),
                program: program.to_string(),
            },
            None => KubercError::UnknownOption {
                flag: name.clone(),
                command: verb.clone(),
            },
        };
        let kubectls = kubectl_flags::of_verb(&verb)
            .find(|flag| flag.long == name)
            .ok_or_else(unknown)?;
        if !kubectls.takes_value {
            if let Err(reason) = crate::cli::pflag::go_bool(default) {
                return Err(KubercError::BadValue {
                    value: default.clone(),
                    flag: name.clone(),
                    command: verb.clone(),
                    reason,
                });
            }
        }
        let ours = chain.iter().find_map(|(cmd, matches)| {
            cmd.get_arguments()
                .find(|arg| arg.get_long() == Some(name.as_str()))
                .map(|arg| (arg.get_id().as_str().to_string(), *matches))
        });
        let Some((id, _)) = ours else {
            return Ok(Applied::HandOn {
                verb: verb.clone(),
                why: format!("kw {verb} does not take --{name}, which the kuberc's defaults set"),
            });
        };
        let typed = chain.iter().any(|(_, matches)| {
            matches.ids().any(|known| known.as_str() == id)
                && matches.value_source(&id) == Some(ValueSource::CommandLine)
        });
        if !typed {
            added.push(format!("--{name}={default}"));
        }
    }
    if added.is_empty() {
        return Ok(Applied::Run(line));
    }
    kw_base::vlog!(5, "kuberc: {verb} defaults {}", added.join(" "));
    let at = line
        .iter()
        .position(|word| word == "--")
        .unwrap_or(line.len());
    let mut line = line;
    line.splice(at..at, added);
    Ok(Applied::Run(line))
}

/// Whether `word` is a command of kw's or kubectl's (which wins over an alias of that name).
fn is_builtin(command: &clap::Command, word: &str) -> bool {
    KUBECTL_COMMANDS.contains(&word)
        || OTHER_COMMANDS.contains(&word)
        || command
            .get_subcommands()
            .any(|sub| sub.get_name() == word || sub.get_all_aliases().any(|a| a == word))
}

/// The verb kuberc's defaults are for (`rollout status`), with the commands and matches from
/// the verb up to the top (where the global flags are), when kw runs it itself.
fn verb_of<'a>(
    command: &'a clap::Command,
    matches: &'a ArgMatches,
) -> Option<(String, Vec<(&'a clap::Command, &'a ArgMatches)>)> {
    let (name, sub_matches) = matches.subcommand()?;
    let sub = command.find_subcommand(name)?;
    match name {
        "get" | "wait" | "version" => Some((
            name.to_string(),
            vec![(sub, sub_matches), (command, matches)],
        )),
        "rollout" => {
            let (leaf_name, leaf_matches) = sub_matches.subcommand()?;
            let leaf = sub.find_subcommand(leaf_name)?;
            (leaf_name == "status").then(|| {
                (
                    "rollout status".to_string(),
                    vec![(leaf, leaf_matches), (sub, sub_matches), (command, matches)],
                )
            })
        }
        _ => None,
    }
}
