//! An optional flag value typed after a space (`--timestamps local`): found before clap takes
//! the value for an object's name, so kw can ask what was meant.

use super::verbs::Cli;

/// An optional flag value given after a space (`--timestamps local`): clap, as kubectl's
/// parser, takes the flag alone and the value as a positional argument, which would then be
/// looked up as an object named `local`. kw knows both words, so it asks instead.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("did you mean {flag}={value}?")]
pub struct SpacedOptionalValue {
    pub flag: String,
    pub value: String,
}

/// The flags whose value is optional (`--diff`, `--timestamps`, `--insecure-skip-tls-verify`,
/// any added later: those that take `0..=1` values, `=` required), each with the values it
/// takes (its possible values, or for a boolean `true` and `false`).
pub fn optional_valued_flags() -> Vec<(String, Vec<String>)> {
    use clap::CommandFactory;
    let mut command = Cli::command();
    command.build();
    let get = command
        .find_subcommand("get")
        .expect("kw has a get subcommand")
        .clone();
    command
        .get_arguments()
        .chain(get.get_arguments())
        .filter(|arg| {
            arg.is_require_equals_set() && arg.get_num_args().is_some_and(|n| n.min_values() == 0)
        })
        .filter_map(|arg| {
            let long = arg.get_long()?;
            let mut values: Vec<String> = arg
                .get_possible_values()
                .iter()
                .map(|v| v.get_name().to_string())
                .collect();
            // A boolean (`=true`/`=false`, as pflag takes them) lists no possible values.
            if values.is_empty() {
                values = vec!["true".into(), "false".into()];
            }
            Some((format!("--{long}"), values))
        })
        .collect()
}

/// The first optional-valued flag in `args` (the words after the program's name) followed by
/// one of its values as a word of its own (for `kw get` and `kw demo`; `kw sim` has its own).
pub fn spaced_optional_value(args: &[String]) -> Option<SpacedOptionalValue> {
    let flags = optional_valued_flags();
    args.windows(2).find_map(|pair| {
        let (_, values) = flags.iter().find(|(flag, _)| *flag == pair[0])?;
        values.contains(&pair[1]).then(|| SpacedOptionalValue {
            flag: pair[0].clone(),
            value: pair[1].clone(),
        })
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(line: &str) -> Vec<String> {
        line.split_whitespace().map(String::from).collect()
    }

    #[test]
    fn finds_the_optional_valued_flags() {
        let flags = optional_valued_flags();
        let names: Vec<&str> = flags.iter().map(|(f, _)| f.as_str()).collect();
        for flag in ["--timestamps", "--diff", "--insecure-skip-tls-verify"] {
            assert!(names.contains(&flag), "{flag} in {names:?}");
        }
        for (flag, values) in &flags {
            assert!(!values.is_empty(), "{flag} has values");
        }
    }

    #[test]
    fn a_spaced_optional_value_is_asked_about() {
        let asked = |line: &str| spaced_optional_value(&words(line)).map(|e| e.to_string());
        assert_eq!(
            asked("get pods -w --timestamps local").as_deref(),
            Some("did you mean --timestamps=local?")
        );
        assert_eq!(
            asked("get pods --diff all -w").as_deref(),
            Some("did you mean --diff=all?")
        );
        assert_eq!(asked("get pods -w --timestamps=local"), None);
        assert_eq!(asked("get pods --diff -w"), None);
        assert_eq!(asked("get pods --diff web"), None);
        assert_eq!(asked("get all --diff"), None);
    }
}
