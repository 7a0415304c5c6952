//! `--help` in kubectl's layout for the verbs that CI scripts share between kubectl and kw
//! (`rollout status`, `wait`): whoever swaps `kubectl` for `kw` in a pipeline and asks for help
//! finds the page they know, with kw's additions marked `kw:`.
//!
//! The layout is kubectl 1.32's help template: the description, `Examples:`, `Options:` (each
//! flag as `    -f, --filename=[]:`, its default after `=` as pflag spells it, and its text on
//! the next lines behind a tab), `Usage:`, and a last line that says where the global options
//! are. Only the verb's own flags are listed, as kubectl does; kw's globals are on `kw --help`
//! (kw has no `options` command). `-h` prints the same page as `--help`, as kubectl's does.
//!
//! Wrapping is kubectl's too: none in a pipe or on a terminal narrower than 80 columns;
//! otherwise every line at 80, 100 or 120 columns (the widest that fits), the flags' texts at
//! 10 columns less, greedily at spaces, a word longer than the line left whole.
//!
//! Applied by path (`["rollout", "status"]`): a verb the command line does not have is skipped,
//! so a verb added later gets the page by being named in [`KUBECTL_VERBS`].

use clap::{Arg, ArgAction, Command};

use kw_output::output::terminal;

/// A kubectl verb that kw spells the same way.
#[derive(Debug, Clone, Copy)]
pub struct KubectlVerb {
    /// The subcommand's path under `kw`.
    pub path: &'static [&'static str],
    /// What follows the verb on kubectl's `Usage:` line, before ` [options]`.
    pub synopsis: &'static str,
    /// kubectl 1.32's own flags of the verb, by long name: any other flag of kw's is marked
    /// `kw:` in its text.
    pub kubectl_flags: &'static [&'static str],
}

/// The verbs whose `--help` is kubectl's page.
pub const KUBECTL_VERBS: &[KubectlVerb] = &[
    KubectlVerb {
        path: &["rollout", "status"],
        synopsis: "(TYPE NAME | TYPE/NAME) [flags]",
        kubectl_flags: &[
            "filename",
            "kustomize",
            "recursive",
            "revision",
            "selector",
            "timeout",
            "watch",
        ],
    },
    KubectlVerb {
        path: &["wait"],
        synopsis: "([-f FILENAME] | resource.group/resource.name | resource.group [(-l label | \
                   --all)]) [--for=create|--for=delete|--for condition=available|\
                   --for=jsonpath='{}'[=value]]",
        kubectl_flags: &[
            "all",
            "all-namespaces",
            "allow-missing-template-keys",
            "field-selector",
            "filename",
            "for",
            "local",
            "output",
            "recursive",
            "selector",
            "show-managed-fields",
            "template",
            "timeout",
        ],
    },
];

/// kubectl wraps a flag's text this many columns narrower than the page.
const FLAG_TEXT_NARROWER: usize = 10;

/// `command` with kubectl's page as the help of each verb of [`KUBECTL_VERBS`] it has, wrapped
/// for where stdout goes now (the terminal's width, or `COLUMNS` as everywhere in kw).
pub fn kubectl_style(command: Command) -> Command {
    let limit = if terminal::stdout_is_terminal() {
        wrap_limit(terminal::stdout_width())
    } else {
        None
    };
    with_kubectl_help(command, KUBECTL_VERBS, limit)
}

/// `command` with kubectl's page, wrapped at `limit` columns (`None`: not wrapped), as the help
/// of each of `verbs` it has.
pub fn with_kubectl_help(
    mut command: Command,
    verbs: &[KubectlVerb],
    limit: Option<usize>,
) -> Command {
    let root = command
        .get_bin_name()
        .unwrap_or(command.get_name())
        .to_string();
    for verb in verbs {
        let Some(subcommand) = find(&command, verb.path) else {
            continue;
        };
        let help = fit(&page(subcommand, &root, verb), limit);
        command = with_help_at(command, verb.path, help);
    }
    command
}

/// kubectl's wrap limit for a terminal `width` columns wide: none below 80.
pub fn wrap_limit(width: Option<usize>) -> Option<usize> {
    match width? {
        w if w >= 120 => Some(120),
        w if w >= 100 => Some(100),
        w if w >= 80 => Some(80),
        _ => None,
    }
}

fn find<'a>(command: &'a Command, path: &[&str]) -> Option<&'a Command> {
    path.iter()
        .try_fold(command, |command, name| command.find_subcommand(name))
}

fn with_help_at(command: Command, path: &[&str], help: String) -> Command {
    match path.split_first() {
        None => command.override_help(help),
        Some((name, rest)) => command.mut_subcommand(*name, |sub| with_help_at(sub, rest, help)),
    }
}

/// The page of `command` (the verb at `verb.path` under `root`), not yet wrapped.
pub fn page(command: &Command, root: &str, verb: &KubectlVerb) -> String {
    let about = command
        .get_long_about()
        .or(command.get_about())
        .map(ToString::to_string)
        .unwrap_or_default();
    let after = command
        .get_after_long_help()
        .or(command.get_after_help())
        .map(ToString::to_string)
        .unwrap_or_default();
    let notes = Notes::read(&after);
    let mut description: Vec<String> = paragraphs(&about).into_iter().map(sentence).collect();
    description.extend(notes.paragraphs);

    let mut page = description.join("\n\n");
    page.push_str("\n\n");
    if !notes.examples.is_empty() {
        page.push_str("Examples:\n");
        page.push_str(&notes.examples.join("\n"));
        page.push_str("\n\n");
    }
    let flags: Vec<String> = shown_flags(command)
        .into_iter()
        .map(|arg| flag_block(arg, verb))
        .collect();
    if !flags.is_empty() {
        page.push_str("Options:\n");
        page.push_str(&flags.join("\n\n"));
        page.push_str("\n\n");
    }
    page.push_str(&format!(
        "Usage:\n  {root} {} {} [options]\n\n",
        verb.path.join(" "),
        verb.synopsis
    ));
    page.push_str(&format!(
        "Use \"{root} --help\" for a list of global command-line options (applies to all \
         commands).\n"
    ));
    page
}

/// What the help after the flags says (clap's `after_help`): its `Examples:` block, shown under
/// kubectl's heading, and any other paragraph, which joins the description (kubectl's page has
/// no place after the flags for prose).
#[derive(Debug, Default, PartialEq)]
struct Notes {
    examples: Vec<String>,
    paragraphs: Vec<String>,
}

impl Notes {
    fn read(text: &str) -> Notes {
        let mut examples = Vec::new();
        let mut prose = String::new();
        let mut in_examples = false;
        for line in text.lines() {
            if line.trim_end() == "Examples:" {
                in_examples = true;
                continue;
            }
            if in_examples && (line.trim().is_empty() || line.starts_with(char::is_whitespace)) {
                examples.push(line.trim_end().to_string());
                continue;
            }
            in_examples = false;
            prose.push_str(line);
            prose.push('\n');
        }
        while examples.last().is_some_and(|l| l.is_empty()) {
            examples.pop();
        }
        // kubectl indents every line of its examples, the empty ones too.
        for line in &mut examples {
            if line.is_empty() {
                line.push_str("  ");
            }
        }
        Notes {
            examples,
            paragraphs: paragraphs(&prose),
        }
    }
}

/// `text`'s paragraphs (split at empty lines), each on one line unless it is indented (a
/// block laid out by hand): the terminal's width, not the source's, decides where lines break.
fn paragraphs(text: &str) -> Vec<String> {
    text.split("\n\n")
        .map(|p| p.trim_matches('\n'))
        .filter(|p| !p.trim().is_empty())
        .map(|p| {
            if p.lines().any(|l| l.starts_with(char::is_whitespace)) {
                p.trim_end().to_string()
            } else {
                p.lines().map(str::trim).collect::<Vec<_>>().join(" ")
            }
        })
        .collect()
}

/// kubectl's texts are sentences; clap's derive drops a summary's final period.
fn sentence(text: String) -> String {
    let text = text.trim_end();
    if text.is_empty() || text.ends_with(['.', '!', '?', ':']) {
        text.to_string()
    } else {
        format!("{text}.")
    }
}

/// The verb's own flags as kubectl lists them: sorted by name, without help, version and the
/// global flags.
fn shown_flags(command: &Command) -> Vec<&Arg> {
    let mut flags: Vec<&Arg> = command
        .get_arguments()
        .filter(|arg| !arg.is_positional() && !arg.is_hide_set() && !arg.is_global_set())
        .filter(|arg| {
            !matches!(
                arg.get_action(),
                ArgAction::Help | ArgAction::HelpShort | ArgAction::HelpLong | ArgAction::Version
            )
        })
        .collect();
    flags.sort_by_key(|arg| name(arg));
    flags
}

fn name(arg: &Arg) -> String {
    arg.get_long()
        .map(str::to_string)
        .or_else(|| arg.get_short().map(String::from))
        .unwrap_or_else(|| arg.get_id().to_string())
}

/// `    -f, --filename=[]:` and, behind a tab, the flag's text on one line.
fn flag_block(arg: &Arg, verb: &KubectlVerb) -> String {
    let spelled = match (arg.get_short(), arg.get_long()) {
        (Some(short), Some(long)) => format!("-{short}, --{long}"),
        (None, Some(long)) => format!("--{long}"),
        (Some(short), None) => format!("-{short}"),
        (None, None) => arg.get_id().to_string(),
    };
    format!(
        "    {spelled}={}:\n\t{}",
        shown_default(arg),
        flag_text(arg, verb)
    )
}

/// The flag's text, marked `kw:` when kubectl's verb has no such flag.
fn flag_text(arg: &Arg, verb: &KubectlVerb) -> String {
    let help = arg
        .get_long_help()
        .or(arg.get_help())
        .map(ToString::to_string)
        .unwrap_or_default();
    let text = sentence(
        help.lines()
            .map(str::trim)
            .filter(|l| !l.is_empty())
            .collect::<Vec<_>>()
            .join(" "),
    );
    let kubectls = arg
        .get_long()
        .is_some_and(|long| verb.kubectl_flags.contains(&long));
    if kubectls || text.starts_with("kw:") {
        text
    } else {
        format!("kw: {text}")
    }
}

/// The default as pflag prints it: a list in brackets, a string in single quotes, a bool,
/// number or duration bare; a flag without a default shows its type's empty value.
fn shown_default(arg: &Arg) -> String {
    let defaults: Vec<String> = arg
        .get_default_values()
        .iter()
        .map(|v| v.to_string_lossy().into_owned())
        .collect();
    let first = defaults.first().map(String::as_str);
    let many = arg
        .get_num_args()
        .is_some_and(|range| range.max_values() > 1);
    match arg.get_action() {
        ArgAction::SetTrue => first.unwrap_or("false").to_string(),
        ArgAction::SetFalse => first.unwrap_or("true").to_string(),
        ArgAction::Count => first.unwrap_or("0").to_string(),
        ArgAction::Append => format!("[{}]", defaults.join(",")),
        _ if many => format!("[{}]", defaults.join(",")),
        _ => match first {
            Some(value) if is_bare(value) => value.to_string(),
            Some(value) => format!("'{value}'"),
            None => "''".to_string(),
        },
    }
}

/// Whether pflag would print `value` unquoted: a bool, a number or a duration.
fn is_bare(value: &str) -> bool {
    value == "true" || value == "false" || is_number(value) || is_duration(value)
}

fn is_number(value: &str) -> bool {
    let digits = value.strip_prefix('-').unwrap_or(value);
    let mut parts = digits.splitn(2, '.');
    let whole = parts.next().unwrap_or("");
    let fraction = parts.next();
    !whole.is_empty()
        && whole.bytes().all(|b| b.is_ascii_digit())
        && fraction.is_none_or(|f| !f.is_empty() && f.bytes().all(|b| b.is_ascii_digit()))
}

/// Go's duration spelling: numbers each followed by a unit (`0s`, `1m30s`, `1.5h`).
fn is_duration(value: &str) -> bool {
    let mut rest = value;
    if rest.is_empty() {
        return false;
    }
    while !rest.is_empty() {
        let number_end = rest
            .find(|c: char| !(c.is_ascii_digit() || c == '.'))
            .unwrap_or(rest.len());
        if !is_number(&rest[..number_end]) {
            return false;
        }
        rest = &rest[number_end..];
        let Some(unit) = ["ns", "us", "µs", "ms", "s", "m", "h"]
            .into_iter()
            .find(|unit| rest.starts_with(unit))
        else {
            return false;
        };
        rest = &rest[unit.len()..];
    }
    true
}

/// `page` wrapped as kubectl wraps its help at `limit` columns (`None`: as it is): the flags'
/// texts (the lines behind a tab) first, narrower, then every line.
pub fn fit(page: &str, limit: Option<usize>) -> String {
    let Some(limit) = limit else {
        return page.to_string();
    };
    let flag_limit = limit.saturating_sub(FLAG_TEXT_NARROWER);
    let staged: Vec<String> = page
        .split('\n')
        .map(|line| match line.strip_prefix('\t') {
            Some(text) => format!("\t{}", wrap(text, flag_limit).replace('\n', "\n\t")),
            None => line.to_string(),
        })
        .collect();
    wrap(&staged.join("\n"), limit)
}

/// Greedy word wrap at `limit` characters, as kubectl's (go-wordwrap): a line breaks at the
/// spaces before the word that would pass the limit and those spaces are dropped; a word of
/// `limit` characters or more is never broken (nor moved to a new line while what precedes it,
/// spaces included, is one character); spaces that end a line stay if they fit.
pub fn wrap(text: &str, limit: usize) -> String {
    text.split('\n')
        .map(|line| wrap_line(line, limit))
        .collect::<Vec<_>>()
        .join("\n")
}

fn wrap_line(line: &str, limit: usize) -> String {
    let is_space = |c: char| c.is_whitespace() && c != '\u{a0}';
    let mut out = String::with_capacity(line.len() + 8);
    let mut current = 0;
    let mut rest = line;
    loop {
        let (spaces, after) = rest.split_at(rest.find(|c| !is_space(c)).unwrap_or(rest.len()));
        let (word, tail) = after.split_at(after.find(is_space).unwrap_or(after.len()));
        let before = current + spaces.chars().count();
        if word.is_empty() {
            if before <= limit {
                out.push_str(spaces);
            }
            return out;
        }
        let width = word.chars().count();
        // go-wordwrap looks at the word a character at a time: the line breaks at the first
        // character past the limit, unless the word is by then `limit` characters long.
        let first_past = (limit + 1).saturating_sub(before).max(1);
        if before + width > limit && first_past < limit {
            out.push('\n');
            current = width;
        } else {
            out.push_str(spaces);
            current = before + width;
        }
        out.push_str(word);
        rest = tail;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::Parser;

    /// A verb shaped like kw's `rollout status`.
    #[derive(Debug, Parser)]
    #[command(name = "kw")]
    struct Cli {
        #[command(subcommand)]
        command: Top,
        /// A global flag: listed by `kw --help`, never on the verb's page.
        #[arg(short = 'n', long, global = true)]
        namespace: Option<String>,
    }

    #[derive(Debug, clap::Subcommand)]
    enum Top {
        Rollout {
            #[command(subcommand)]
            command: Rollout,
        },
    }

    #[derive(Debug, clap::Subcommand)]
    enum Rollout {
        /// Show the status of the rollout
        #[command(after_help = EXAMPLES)]
        Status(StatusArgs),
    }

    const EXAMPLES: &str = "\
Examples:
  # Watch the rollout status of a deployment
  kw rollout status deployment/nginx

  # Once
  kw rollout status deployment/nginx --watch=false

Exit codes: 0 rolled out,
3 --timeout.";

    #[derive(Debug, clap::Args)]
    struct StatusArgs {
        /// TYPE/NAME.
        targets: Vec<String>,
        /// The object a manifest names.
        #[arg(short = 'f', long)]
        filename: Vec<String>,
        /// Watch the status of the rollout until it's done
        #[arg(short = 'w', long, default_value_t = true, action = ArgAction::Set)]
        watch: bool,
        /// Pin to a specific revision.
        #[arg(long, default_value_t = 0)]
        revision: i64,
        /// The length of time to wait
        #[arg(long, default_value = "0s")]
        timeout: String,
        /// Selector (label query) to filter on.
        #[arg(short = 'l', long)]
        selector: Option<String>,
        /// Process the directory used in -f recursively.
        #[arg(short = 'R', long)]
        recursive: bool,
        /// How long a Pod may stay stuck
        /// before the rollout fails.
        #[arg(long)]
        fail_grace: Option<String>,
        /// kw: already marked.
        #[arg(long)]
        quiet: bool,
    }

    fn status_page(limit: Option<usize>) -> String {
        use clap::CommandFactory;
        let command = with_kubectl_help(Cli::command(), KUBECTL_VERBS, limit);
        let mut command = command;
        command.build();
        let status = find(&command, &["rollout", "status"]).expect("status");
        status.clone().render_help().to_string()
    }

    #[test]
    fn the_page_is_kubectls_layout_with_the_verbs_own_flags_sorted_and_kws_marked() {
        let page = status_page(None);
        let expected = "\
Show the status of the rollout.

Exit codes: 0 rolled out, 3 --timeout.

Examples:
  # Watch the rollout status of a deployment
  kw rollout status deployment/nginx
  \n  # Once
  kw rollout status deployment/nginx --watch=false

Options:
    --fail-grace='':
\tkw: How long a Pod may stay stuck before the rollout fails.

    -f, --filename=[]:
\tThe object a manifest names.

    --quiet=false:
\tkw: already marked.

    -R, --recursive=false:
\tProcess the directory used in -f recursively.

    --revision=0:
\tPin to a specific revision.

    -l, --selector='':
\tSelector (label query) to filter on.

    --timeout=0s:
\tThe length of time to wait.

    -w, --watch=true:
\tWatch the status of the rollout until it's done.

Usage:
  kw rollout status (TYPE NAME | TYPE/NAME) [flags] [options]

Use \"kw --help\" for a list of global command-line options (applies to all commands).
";
        assert_eq!(page, expected);
    }

    #[test]
    fn short_help_is_the_same_page_as_kubectls_dash_h() {
        use clap::CommandFactory;
        let command = with_kubectl_help(Cli::command(), KUBECTL_VERBS, None);
        let long = command
            .clone()
            .try_get_matches_from(["kw", "rollout", "status", "--help"])
            .unwrap_err()
            .to_string();
        let short = command
            .try_get_matches_from(["kw", "rollout", "status", "-h"])
            .unwrap_err()
            .to_string();
        assert_eq!(long, short);
        assert!(
            long.starts_with("Show the status of the rollout.\n"),
            "{long}"
        );
    }

    #[test]
    fn a_verb_the_command_line_lacks_is_skipped_and_the_rest_untouched() {
        use clap::CommandFactory;
        let mut command = with_kubectl_help(Cli::command(), KUBECTL_VERBS, None);
        command.build();
        assert!(find(&command, &["wait"]).is_none());
        let rollout = find(&command, &["rollout"]).expect("rollout").clone();
        assert!(!rollout
            .clone()
            .render_help()
            .to_string()
            .contains("Options:\n    "));
    }

    #[test]
    fn the_root_as_invoked_names_the_usage_line_and_the_footer() {
        use clap::CommandFactory;
        let mut command =
            with_kubectl_help(Cli::command().bin_name("kubectl kw"), KUBECTL_VERBS, None);
        command.build();
        let page = find(&command, &["rollout", "status"])
            .expect("status")
            .clone()
            .render_help()
            .to_string();
        assert!(
            page.contains("\n  kubectl kw rollout status (TYPE NAME"),
            "{page}"
        );
        assert!(
            page.contains("Use \"kubectl kw --help\" for a list"),
            "{page}"
        );
    }

    #[test]
    fn wrapped_pages_keep_flag_texts_ten_columns_narrower_behind_a_tab() {
        let page = status_page(Some(80));
        for line in page.lines() {
            let width = line.chars().count();
            match line.strip_prefix('\t') {
                Some(text) => assert!(text.chars().count() <= 70, "{line:?}"),
                None => assert!(width <= 80, "{line:?}"),
            }
        }
        assert!(page.contains("\n\tkw: How long a Pod may stay stuck before the rollout fails.\n"));
    }

    #[test]
    fn kubectl_wraps_only_terminals_of_80_columns_and_more_at_three_widths() {
        assert_eq!(wrap_limit(None), None);
        assert_eq!(wrap_limit(Some(79)), None);
        assert_eq!(wrap_limit(Some(80)), Some(80));
        assert_eq!(wrap_limit(Some(99)), Some(80));
        assert_eq!(wrap_limit(Some(100)), Some(100));
        assert_eq!(wrap_limit(Some(119)), Some(100));
        assert_eq!(wrap_limit(Some(120)), Some(120));
        assert_eq!(wrap_limit(Some(300)), Some(120));
    }

    #[test]
    fn wrap_breaks_at_the_space_before_the_word_that_passes_the_limit() {
        assert_eq!(wrap("aaa bbb ccc", 7), "aaa bbb\nccc");
        assert_eq!(wrap("aaa bbb ccc", 6), "aaa\nbbb\nccc");
        // Several spaces at the break go; inside a line they stay.
        assert_eq!(wrap("aa   bb  cc", 6), "aa\nbb  cc");
    }

    #[test]
    fn wrap_keeps_long_words_whole_and_existing_lines_apart() {
        assert_eq!(wrap("abcdefghij", 4), "abcdefghij");
        assert_eq!(wrap("a abcdefghij", 4), "a\nabcdefghij");
        // go-wordwrap's quirk: no break while the line before the word is one character.
        assert_eq!(wrap(" abcdefghij", 4), " abcdefghij");
        assert_eq!(wrap("aaa\nbbb ccc", 5), "aaa\nbbb\nccc");
        // Indentation counts, and is lost where a line breaks.
        assert_eq!(wrap("  # one two", 8), "  # one\ntwo");
        // Trailing spaces stay only if they fit.
        assert_eq!(wrap("ab  ", 4), "ab  ");
        assert_eq!(wrap("ab   ", 4), "ab");
        assert_eq!(wrap("", 4), "");
    }

    #[test]
    fn wrap_counts_characters_not_bytes_and_a_tab_as_one() {
        assert_eq!(wrap("éé éé", 5), "éé éé");
        assert_eq!(wrap("\tabc def", 7), "\tabc\ndef");
        assert_eq!(wrap("\u{a0}abc def", 7), "\u{a0}abc\ndef");
    }

    #[test]
    fn fit_wraps_flag_texts_first_then_the_page() {
        let page = "Intro words here\n\n    --x='':\n\tone two three four\n";
        assert_eq!(
            fit(page, Some(12)),
            "Intro words\nhere\n\n    --x='':\n\tone\n\ttwo\n\tthree\n\tfour\n"
        );
        assert_eq!(fit(page, None), page);
    }

    #[test]
    fn defaults_are_spelled_as_pflag_spells_them() {
        assert!(is_bare("0s") && is_bare("1m30s") && is_bare("1.5h") && is_bare("500ms"));
        assert!(is_bare("0") && is_bare("-1") && is_bare("2.5") && is_bare("true"));
        assert!(!is_bare("") && !is_bare("s") && !is_bare("json") && !is_bare("1x"));
        assert!(!is_bare("1.") && !is_bare(".5s") && !is_bare("--"));
        let arg = |a: Arg| shown_default(&a);
        assert_eq!(
            arg(Arg::new("a").long("a").action(ArgAction::SetTrue)),
            "false"
        );
        assert_eq!(
            arg(Arg::new("a").long("a").action(ArgAction::SetFalse)),
            "true"
        );
        assert_eq!(arg(Arg::new("a").long("a").action(ArgAction::Append)), "[]");
        assert_eq!(
            arg(Arg::new("a")
                .long("a")
                .action(ArgAction::Append)
                .default_values(["x", "y"])),
            "[x,y]"
        );
        assert_eq!(arg(Arg::new("a").long("a").action(ArgAction::Set)), "''");
        assert_eq!(arg(Arg::new("a").long("a").default_value("json")), "'json'");
        assert_eq!(arg(Arg::new("a").long("a").default_value("30s")), "30s");
    }

    #[test]
    fn notes_split_examples_from_prose() {
        let notes = Notes::read("Examples:\n  # a\n  kw a\n\n  kw b\n\nMore\nprose.\n\nEnd.");
        assert_eq!(
            notes,
            Notes {
                examples: vec![
                    "  # a".into(),
                    "  kw a".into(),
                    "  ".into(),
                    "  kw b".into()
                ],
                paragraphs: vec!["More prose.".into(), "End.".into()],
            }
        );
        assert_eq!(Notes::read(""), Notes::default());
    }

    #[test]
    fn every_verb_of_the_list_names_kubectls_flags_once_in_pflags_order() {
        for verb in KUBECTL_VERBS {
            let mut sorted = verb.kubectl_flags.to_vec();
            sorted.sort_unstable();
            sorted.dedup();
            assert_eq!(sorted, verb.kubectl_flags, "{:?}", verb.path);
        }
    }
}
