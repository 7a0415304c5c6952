//! kubectl's boolean flags as pflag parses them: `-A=true`, `--no-headers=false`.

/// `command` with kubectl's booleans, for parsing: every switch also takes `=true`/`=false` (and
/// the other spellings Go's `strconv.ParseBool` reads), as pflag's boolean flags do, so that
/// `-A=true` and `--no-headers=false` from a kubectl script work. Help, man pages and completions
/// keep the plain switches (`-A, --all-namespaces`, not `-A, --all-namespaces[=<BOOL>]`).
pub fn with_pflag_booleans(command: clap::Command) -> clap::Command {
    pflag_booleans(command)
}

fn pflag_booleans(mut command: clap::Command) -> clap::Command {
    let switches: Vec<String> = command
        .get_arguments()
        .filter(|a| matches!(a.get_action(), clap::ArgAction::SetTrue))
        .map(|a| a.get_id().to_string())
        .collect();
    for id in switches {
        command = command.mut_arg(id.as_str(), |arg| {
            arg.num_args(0..=1)
                .require_equals(true)
                .default_missing_value("true")
                .default_value("false")
                .hide_default_value(true)
                .value_name("BOOL")
                .value_parser(go_bool)
                .action(clap::ArgAction::Set)
        });
    }
    in_every_subcommand(command, pflag_booleans)
}

/// `change` applied to each subcommand of `command` (which `change` may recurse into).
pub(super) fn in_every_subcommand(
    mut command: clap::Command,
    change: fn(clap::Command) -> clap::Command,
) -> clap::Command {
    let names: Vec<String> = command
        .get_subcommands()
        .map(|c| c.get_name().to_string())
        .collect();
    for name in names {
        command = command.mut_subcommand(name, change);
    }
    command
}

/// Go's `strconv.ParseBool`, which pflag reads a boolean flag's value with.
pub fn go_bool(text: &str) -> Result<bool, String> {
    match text {
        "1" | "t" | "T" | "true" | "TRUE" | "True" => Ok(true),
        "0" | "f" | "F" | "false" | "FALSE" | "False" => Ok(false),
        _ => Err(format!(
            "strconv.ParseBool: parsing \"{text}\": invalid syntax"
        )),
    }
}
