//! What kw's own definitions say can be typed, without asking any cluster: subcommands and
//! flags (read from clap's definitions in `cli`, so completion never offers a flag kw dropped or
//! misses one it gained), a flag's fixed values, which flags name files, the `-o` formats and
//! the `--until`/`--fail-on` vocabulary.

use clap::builder::ValueHint;
use clap::CommandFactory;

use super::candidate::Candidate;
use super::words::{FlagBook, FlagSpec, CONNECTION_FLAGS};
use crate::cli::Cli;

/// The `-o` formats, as `printer::format::parse_output_spec` accepts them. The ones ending in `=` need an
/// argument after them.
pub const OUTPUT_FORMATS: [(&str, &str); 13] = [
    ("wide", "the table with extra columns"),
    ("json", "kubectl's -o json"),
    ("jsonl", "one compact JSON object per line"),
    ("yaml", "kubectl's -o yaml"),
    ("name", "TYPE/NAME"),
    ("jsonpath=", "a JSONPath template"),
    ("jsonpath-as-json=", "a JSONPath template, values as JSON"),
    ("jsonpath-file=", "a JSONPath template in a file"),
    ("custom-columns=", "HEADER:JSONPATH,..."),
    ("custom-columns-file=", "custom columns from a file"),
    ("go-template=", "a Go template"),
    ("go-template-file=", "a Go template in a file"),
    ("template=", "a Go template (as go-template=)"),
];

/// What `--until` and `--fail-on` take (`conditions::Expr`).
pub const CONDITIONS: [(&str, &str); 4] = [
    (
        "condition=",
        "a status condition: condition=Ready, condition=Available=False",
    ),
    ("jsonpath=", "a field: jsonpath='{.status.phase}'=Succeeded"),
    ("delete", "the object is gone"),
    ("create", "the object exists"),
];

/// `--until`'s readiness word (`conditions::Expr::Ready`).
pub const READY: (&str, &str) = ("ready", "rolled out: the state its spec asks for");

/// `--fail-on`'s readiness word (`conditions::Expr::Failed`).
pub const FAILED: (&str, &str) = ("failed", "will not get ready without someone acting");

/// Condition types common enough to offer after `condition=` when the cluster says nothing.
pub const COMMON_CONDITION_TYPES: [&str; 6] = [
    "Available",
    "Complete",
    "Failed",
    "Progressing",
    "Ready",
    "Succeeded",
];

/// kw's command tree, built once (globals propagated to every subcommand).
pub struct Vocabulary {
    root: clap::Command,
}

impl Vocabulary {
    pub fn of_kw() -> Vocabulary {
        let mut root = Cli::command();
        root.build();
        Vocabulary { root }
    }

    /// Every flag of every subcommand, for reading a line whose subcommand is not known yet.
    pub fn book(&self) -> FlagBook {
        // Verbs of verbs too (`kw rollout status --timeout 5m`).
        let nested = self
            .root
            .get_subcommands()
            .flat_map(|cmd| cmd.get_subcommands());
        let commands = std::iter::once(&self.root)
            .chain(self.root.get_subcommands())
            .chain(nested);
        FlagBook::new(
            commands
                .flat_map(|cmd| cmd.get_arguments())
                .filter(|arg| !arg.is_positional())
                .filter_map(|arg| {
                    Some(FlagSpec {
                        long: arg.get_long()?.to_string(),
                        short: arg.get_short(),
                        // `--watch=false`, `--timestamps=local`: a value only after `=`.
                        takes_value: arg.get_action().takes_values()
                            && !arg.is_require_equals_set(),
                    })
                }),
        )
    }

    /// The subcommand named `name`, or the top level when there is none (or no such one).
    fn command(&self, name: Option<&str>) -> &clap::Command {
        name.and_then(|name| self.root.find_subcommand(name))
            .unwrap_or(&self.root)
    }

    /// The subcommands a user may type.
    pub fn subcommands(&self) -> Vec<Candidate> {
        self.root
            .get_subcommands()
            .filter(|cmd| !cmd.is_hide_set())
            .map(|cmd| Candidate::described(cmd.get_name(), summary(cmd.get_about())))
            .collect()
    }

    /// The long flags of `subcommand` (and the top level's), as `--name`. Before the
    /// subcommand: the top level's and kubectl's connection flags, which kubectl users type
    /// there (`kw --context prod get pods`).
    pub fn flags(&self, subcommand: Option<&str>) -> Vec<Candidate> {
        let mut commands = vec![self.command(subcommand)];
        let before_subcommand = subcommand.is_none();
        if before_subcommand {
            commands.extend(self.root.get_subcommands());
        } else {
            // A verb of verbs (`kw rollout status`): its verbs' flags.
            commands.extend(self.command(subcommand).get_subcommands());
            commands.push(&self.root);
        }
        let connection = |arg: &clap::Arg| {
            arg.get_long()
                .is_some_and(|long| CONNECTION_FLAGS.iter().any(|(name, _, _)| *name == long))
        };
        let root_args: Vec<&clap::Arg> = self.root.get_arguments().collect();
        let mut flags: Vec<Candidate> = commands
            .iter()
            .flat_map(|cmd| cmd.get_arguments())
            .filter(|arg| !arg.is_positional() && !arg.is_hide_set())
            .filter(|arg| !before_subcommand || connection(arg) || root_args.contains(arg))
            .filter_map(|arg| {
                let long = arg.get_long()?;
                Some(Candidate::described(
                    format!("--{long}"),
                    summary(arg.get_help()),
                ))
            })
            .collect();
        flags.sort();
        flags.dedup_by(|a, b| a.word == b.word);
        flags
    }

    fn flag(&self, subcommand: Option<&str>, long: &str) -> Option<&clap::Arg> {
        let mut commands = vec![self.command(subcommand)];
        commands.extend(self.command(subcommand).get_subcommands());
        commands.extend(self.root.get_subcommands());
        commands
            .into_iter()
            .flat_map(|cmd| cmd.get_arguments())
            .find(|arg| arg.get_long() == Some(long))
    }

    /// The values clap lists for a flag (`--color auto|always|never`), if it lists any.
    pub fn fixed_values(&self, subcommand: Option<&str>, long: &str) -> Vec<Candidate> {
        self.flag(subcommand, long)
            .map(possible_values)
            .unwrap_or_default()
    }

    /// Whether a flag's value is a file (`--kubeconfig`, `-f`, `--client-key`).
    pub fn is_path(&self, subcommand: Option<&str>, long: &str) -> bool {
        self.flag(subcommand, long).is_some_and(|arg| {
            matches!(
                arg.get_value_hint(),
                ValueHint::AnyPath | ValueHint::FilePath | ValueHint::DirPath
            )
        })
    }

    /// The verbs of a subcommand that has some (`kw rollout status`).
    pub fn subcommands_of(&self, subcommand: &str) -> Vec<Candidate> {
        self.root
            .find_subcommand(subcommand)
            .into_iter()
            .flat_map(|cmd| cmd.get_subcommands())
            .filter(|cmd| !cmd.is_hide_set())
            .map(|cmd| Candidate::described(cmd.get_name(), summary(cmd.get_about())))
            .collect()
    }

    /// The fixed values of a subcommand's first argument (`kw completion SHELL`).
    pub fn argument_values(&self, subcommand: &str) -> Vec<Candidate> {
        self.root
            .find_subcommand(subcommand)
            .and_then(|cmd| cmd.get_positionals().next())
            .map(possible_values)
            .unwrap_or_default()
    }
}

fn possible_values(arg: &clap::Arg) -> Vec<Candidate> {
    arg.get_possible_values()
        .iter()
        .filter(|value| !value.is_hide_set())
        .map(|value| {
            Candidate::described(
                value.get_name(),
                value.get_help().map(|h| h.to_string()).unwrap_or_default(),
            )
        })
        .collect()
}

/// The first sentence of a help text: what fits beside a candidate.
fn summary(help: Option<&clap::builder::StyledStr>) -> String {
    let text = help.map(|h| h.to_string()).unwrap_or_default();
    let first_line = text.lines().next().unwrap_or("").trim();
    match first_line.find(". ") {
        Some(end) => first_line[..end].to_string(),
        None => first_line.trim_end_matches('.').to_string(),
    }
}

/// `OUTPUT_FORMATS` as candidates.
pub fn output_formats() -> Vec<Candidate> {
    OUTPUT_FORMATS
        .iter()
        .map(|(word, about)| Candidate::described(*word, *about))
        .collect()
}

/// `CONDITIONS` as candidates for `flag` (`until` or `fail-on`), with the readiness word that
/// flag alone takes.
pub fn conditions(flag: &str) -> Vec<Candidate> {
    let readiness = if flag == "fail-on" { FAILED } else { READY };
    CONDITIONS
        .iter()
        .chain([&readiness])
        .map(|(word, about)| Candidate::described(*word, *about))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_output_format_offered_is_one_kw_accepts() {
        for (format, _) in OUTPUT_FORMATS {
            let value = match format.strip_suffix('=') {
                Some(name) if name.ends_with("-file") => format!("{name}=/any/file"),
                Some(name) if name == "custom-columns" => format!("{name}=NAME:.metadata.name"),
                Some(name) => format!("{name}={{.metadata.name}}"),
                None => format.to_string(),
            };
            assert!(
                kw_output::output::printer::format::parse_output_spec(&value).is_ok(),
                "{value}"
            );
        }
    }

    #[test]
    fn every_condition_offered_is_one_kw_accepts() {
        for (word, _) in CONDITIONS {
            let example = match word {
                "condition=" => "condition=Ready".to_string(),
                "jsonpath=" => "jsonpath={.status.phase}=Running".to_string(),
                other => other.to_string(),
            };
            assert!(
                kw_wait::wait::Expr::parse("--until", &example).is_ok(),
                "{example}"
            );
        }
        assert!(kw_wait::wait::Expr::parse("--until", READY.0).is_ok());
        assert!(kw_wait::wait::Expr::parse("--fail-on", FAILED.0).is_ok());
    }

    #[test]
    fn reads_flags_and_their_values_from_kws_definitions() {
        let vocabulary = Vocabulary::of_kw();
        let flags: Vec<String> = vocabulary
            .flags(Some("get"))
            .into_iter()
            .map(|c| c.word)
            .collect();
        for flag in ["--watch", "--until", "--context", "--namespace", "--output"] {
            assert!(flags.iter().any(|f| f == flag), "{flag} in {flags:?}");
        }
        let colors: Vec<String> = vocabulary
            .fixed_values(Some("get"), "color")
            .into_iter()
            .map(|c| c.word)
            .collect();
        assert_eq!(colors, ["auto", "always", "never"]);
        assert!(vocabulary.is_path(Some("get"), "kubeconfig"));
        assert!(vocabulary.is_path(Some("get"), "filename"));
        assert!(!vocabulary.is_path(Some("get"), "context"));
        let book = vocabulary.book();
        assert!(book.short('o').is_some_and(|f| f.takes_value));
        assert!(book.short('w').is_some_and(|f| !f.takes_value));
        let subcommands: Vec<String> = vocabulary
            .subcommands()
            .into_iter()
            .map(|c| c.word)
            .collect();
        assert!(subcommands.contains(&"get".to_string()));
        assert!(!subcommands.iter().any(|s| s.starts_with("__")));
        let shells: Vec<String> = vocabulary
            .argument_values("completion")
            .into_iter()
            .map(|c| c.word)
            .collect();
        assert!(shells.contains(&"fish".to_string()), "{shells:?}");
    }
}
