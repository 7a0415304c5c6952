//! kw's command line as it parses and prints its help: `-h` short, `--help` without repeating
//! each flag's summary, `kw demo` without the flags it refuses, and the usage as `kubectl kw`
//! when run as a kubectl plugin.

use super::demo::DEMO_REFUSES;
use super::pflag::in_every_subcommand;
use super::verbs::Cli;

/// The global flags `-h` shows (`--help` shows them all): the ones used every day.
const GLOBALS_IN_SHORT_HELP: [&str; 2] = ["namespace", "context"];

/// The short help of those, one line each (their doc comments are the long help).
const GLOBAL_SHORT_HELP: [(&str, &str); 2] = [
    (
        "namespace",
        "Namespace; a comma list or globs choose several",
    ),
    ("context", "Context; a comma list or globs choose several"),
];

/// kw's command line as clap parses it and prints its help: the derived `Cli`, with `-h` kept
/// short (the everyday global flags only, one line each; `--help` has them all), `kw demo`'s help
/// without the flags it refuses, and the usage said as `kubectl kw` when kw runs as a kubectl
/// plugin (`argv0` is `kubectl-kw`).
pub fn command(argv0: Option<&std::ffi::OsStr>) -> clap::Command {
    use clap::CommandFactory;
    let mut command = Cli::command();
    let globals: Vec<String> = command
        .get_arguments()
        .filter(|a| a.is_global_set())
        .map(|a| a.get_id().to_string())
        .collect();
    for id in globals {
        let short = GLOBAL_SHORT_HELP.iter().find(|(g, _)| *g == id);
        let shown = GLOBALS_IN_SHORT_HELP.contains(&id.as_str());
        command = command.mut_arg(id.as_str(), |arg| {
            let arg = match short {
                Some((_, help)) => match arg.get_long_help().or(arg.get_help()).cloned() {
                    Some(long) => arg.long_help(long).help(*help),
                    None => arg.help(*help),
                },
                None => arg,
            };
            arg.hide_short_help(!shown)
        });
    }
    command = without_summary_in_long_help(command);
    if argv0.is_some_and(invoked_as_plugin) {
        command = command.bin_name("kubectl kw");
    }
    // A subcommand that has an argument of a global's id keeps its own (clap propagates
    // globals only where they are missing): demo gets hidden copies, parsed as before.
    let refused: Vec<clap::Arg> = command
        .get_arguments()
        .filter(|a| DEMO_REFUSES.contains(&a.get_id().as_str()))
        .cloned()
        .collect();
    command.mut_subcommand("demo", |mut demo| {
        for arg in refused {
            demo = demo.arg(arg.hide(true));
        }
        demo
    })
}

/// clap's derive makes a doc comment's first paragraph the short help and the whole comment
/// the long help; kw's first paragraphs are one-line summaries of the text after them, which
/// `--help` then need not repeat.
fn without_summary_in_long_help(command: clap::Command) -> clap::Command {
    let ids: Vec<String> = command
        .get_arguments()
        .map(|a| a.get_id().to_string())
        .collect();
    let mut command = command;
    for id in ids {
        command = command.mut_arg(id.as_str(), |arg| {
            let (Some(short), Some(long)) = (arg.get_help(), arg.get_long_help()) else {
                return arg;
            };
            let (short, long) = (short.to_string(), long.to_string());
            let rest = long
                .strip_prefix(short.as_str())
                .map(|rest| rest.strip_prefix('.').unwrap_or(rest))
                .and_then(|rest| rest.strip_prefix("\n\n"));
            match rest {
                Some(rest) => arg.long_help(rest.to_string()),
                None => arg,
            }
        });
    }
    in_every_subcommand(command, without_summary_in_long_help)
}

/// The variable by which the release archive's plugin scripts (`kubectl-kw`,
/// `kubectl_complete-kw`, which run the `kw` beside them) say the name kw runs under: POSIX sh's
/// `exec` cannot set `argv[0]`.
pub const PLUGIN_NAME_VAR: &str = "KW_PLUGIN_NAME";

/// The name kw runs under: a plugin name that [`PLUGIN_NAME_VAR`] gives, else `argv[0]`. Read
/// once, before any thread starts, and taken out of the environment, so that the programs kw
/// runs (kubectl for a handed verb, exec credential plugins) do not run under it too.
pub fn program_name() -> Option<std::ffi::OsString> {
    let named = std::env::var_os(PLUGIN_NAME_VAR);
    if named.is_some() {
        std::env::remove_var(PLUGIN_NAME_VAR);
    }
    named
        .filter(|name| name == "kubectl-kw" || name == "kubectl_complete-kw")
        .or_else(|| std::env::args_os().next())
}

/// kubectl runs a plugin `kw` as the program `kubectl-kw` (on its PATH).
fn invoked_as_plugin(argv0: &std::ffi::OsStr) -> bool {
    std::path::Path::new(argv0)
        .file_stem()
        .is_some_and(|name| name == "kubectl-kw")
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::Parser;

    /// `kw demo --help` hides exactly the global flags demo refuses.
    #[test]
    fn demo_hides_the_flags_it_refuses() {
        use clap::CommandFactory;
        let root = Cli::command();
        for arg in root.get_arguments().filter(|a| a.is_global_set()) {
            let long = format!("--{}", arg.get_long().expect("a long name"));
            let takes_value = arg.get_action().takes_values() && !arg.is_require_equals_set();
            let mut argv = vec!["kw".to_string(), long.clone()];
            if takes_value {
                argv.push("1".into());
            }
            argv.push("demo".into());
            let cli = Cli::try_parse_from(&argv).expect("parses");
            let refused = cli.config.cluster_choice();
            let hidden = DEMO_REFUSES.contains(&arg.get_id().as_str());
            assert_eq!(refused.is_some(), hidden, "{argv:?}");
        }
    }
}
