//! kw's entry point: parse the command line, hand it to its subcommand, and turn the result into
//! stderr lines and an exit code (worded in `kw::report`). Nothing else lives here.

use std::io::{self, Write};
use std::process::ExitCode;

use clap::{FromArgMatches, Parser};

use kw::cli::{Cli, Command, CompletionArgs};
use kw::output::writer::is_closed_pipe;
use kw::report::error::KwError;
use kw::report::exit;
use kw::report::outcome::Ending;
use kw::report::{self, Report};

fn main() -> ExitCode {
    // Before anything is opened: a fleet holds a socket per watch, past the soft limit a shell
    // often starts with (kw_base::descriptors).
    kw_base::descriptors::raise();
    // The completion scripts' TAB: its words are a half-typed command line, which completion
    // reads itself (clap would reject it, or answer with help).
    let args: Vec<String> = std::env::args_os()
        .map(|a| a.to_string_lossy().into_owned())
        .collect();
    let argv0 = kw::cli::help::program_name();
    // kubectl's plugin completion runs kw linked as `kubectl_complete-kw` with the same words.
    if argv0
        .as_deref()
        .is_some_and(kw::completion::kubectl::invoked_as_plugin_completion)
    {
        return kw::completion::kubectl::run(args.get(1..).unwrap_or_default());
    }
    if args.get(1).map(String::as_str) == Some(kw::completion::serve::SUBCOMMAND) {
        return run_complete(&args[2..]);
    }
    // kubectl's verbs (`rollout status`, `wait`) answer --help and -h with kubectl's page.
    let command = kw::cli::kubectl_help::kubectl_style(kw::cli::command(argv0.as_deref()));
    // The user's kuberc, before the verb is chosen (an alias names it): the line kw parses.
    let (line, kuberc) = match with_kuberc(&args, &command) {
        Ok(KubercLine::Run { line, kuberc }) => (line, kuberc),
        Ok(KubercLine::HandOn { verb, why }) => {
            kw_base::vlog!(1, "{why}: handing the command line to kubectl");
            return pass_to_kubectl(&verb);
        }
        Err(code) => return code,
    };
    let mut cli = match kw::cli::with_pflag_booleans(command.clone())
        .try_get_matches_from(&line)
        .and_then(|matches| Cli::from_arg_matches(&matches))
    {
        Ok(cli) => cli,
        // Help is the plain command's, without `[=<BOOL>]` after every switch.
        Err(e) if e.kind() == clap::error::ErrorKind::DisplayHelp => {
            return clap_exit(&command.try_get_matches_from(&line).err().unwrap_or(e))
        }
        Err(e) => return refused(command, &e, &line),
    };
    kw::log::set_level(cli.verbosity);
    if let Command::Logs(args) = &cli.command {
        if !kw::run::logs::takes(args) {
            kw_base::vlog!(
                1,
                "kw logs reads Pods and workloads: handing the command line to kubectl"
            );
            return pass_to_kubectl("logs");
        }
    }
    // kw runs the verb itself: kubectl's warnings about the kuberc, as kubectl writes them
    // (those about the file without a line end), and every exec plugin under its policy.
    for warning in &kuberc.warnings {
        let _ = io::stderr().write_all(warning.as_bytes());
    }
    cli.config.credential_plugin_policy = kuberc.policy.clone();
    // `kw sim` keeps Rust's own hook: a connection thread of the simulator may die alone.
    if !matches!(cli.command, Command::Sim(_)) {
        report::panic::install();
    }
    if matches!(cli.command, Command::Get(_) | Command::Demo(_)) {
        let words: Vec<String> = line[1..]
            .iter()
            .map(|a| a.to_string_lossy().into_owned())
            .collect();
        if let Some(spaced) = kw::cli::spaced_optional_value(&words) {
            return exit_with(&Report {
                lines: vec![report::line::ReportLine::Error(spaced.to_string())],
                code: exit::USAGE,
            });
        }
    }
    // Where notices go; the live view holds them while it draws, and whatever ends kw writes
    // out those held.
    let notices = kw::notices::Notices::new(kw::output::terminal::dims_notices());
    kw::notices::send_notices_to(notices.clone());
    let _ = ctrlc::set_handler({
        let notices = notices.clone();
        move || {
            // Plugins run in groups of their own, out of reach of the terminal's Ctrl-C.
            kw::process_group::end_all();
            kw::demo::remove_leftovers();
            kw::output::live::restore(&notices);
            report_interrupted(exit::INTERRUPTED);
            std::process::exit(exit::INTERRUPTED)
        }
    });
    // After ctrlc's: SIGTERM, SIGHUP and SIGQUIT end kw with 128 + the signal, Ctrl-Z stops
    // it, an abort gives the terminal back; the live view's terminal is restored each time.
    kw::output::signals::install({
        let notices = notices.clone();
        move |signal| {
            kw::process_group::end_all();
            kw::demo::remove_leftovers();
            kw::output::live::restore(&notices);
            report_interrupted(exit::signalled(signal));
            std::process::exit(exit::signalled(signal))
        }
    });
    let awaits_verdict = match &cli.command {
        Command::Get(args) => !args.until.is_empty() || !args.fail_on.is_empty(),
        _ => false,
    };
    if matches!(cli.command, Command::Get(_) | Command::Demo(_)) && !awaits_verdict {
        // A watch that prints nothing for a while still ends, quietly, once its reader has
        // gone (`kw get pods -w | head -1`), as a closed pipe ends it after a write. A run
        // that awaits a verdict goes on to it: its next write to the closed pipe ends it, not
        // quietly (exit::CLOSED_PIPE), as it ends `rollout status` and `wait`.
        let notices = notices.clone();
        kw::output::writer::when_reader_gone(move || {
            kw::demo::remove_leftovers();
            kw::output::live::restore(&notices);
            std::process::exit(exit::OK)
        });
    }
    let env = |name: &str| std::env::var(name).ok();
    let reports = match report::ci::Reports::asked(&cli.report, env) {
        Ok(reports) => reports,
        Err(message) => {
            return exit_with(&Report {
                lines: vec![report::line::ReportLine::Error(message)],
                code: exit::USAGE,
            })
        }
    };
    if reports.github {
        kw_base::stderr_fold::fold_as(kw_base::stderr_fold::Fold::GitHub);
    } else if reports.gitlab {
        kw_base::stderr_fold::fold_as(kw_base::stderr_fold::Fold::GitLab);
    }
    let started = std::time::Instant::now();
    let verb = match &cli.command {
        Command::Get(_) if awaits_verdict => Some("get"),
        Command::Rollout(_) => Some("rollout status"),
        Command::Wait(_) => Some("wait"),
        _ => None,
    };
    if let Some(verb) = verb {
        report::ci::interrupted::arm(&reports, verb, started);
    }
    // kw's own work runs on a stack sized for the deepest object it reads, main's 8 MiB being
    // too little for a debug build's walks (the watch threads get the same).
    let ending = stacker::grow(kw::decode::depth::STACK, || run_command(cli, &notices));
    match ending {
        Ok(ending) => {
            let said = report::ending::report(&ending);
            // Only a wait has a verdict to report: a plain `get` or `version` that fails says
            // so on stderr alone, as kubectl does.
            match verb {
                Some(verb) => {
                    exit_with(&reports.write(verb, &ending, said, started.elapsed(), env))
                }
                None => exit_with(&said),
            }
        }
        Err(code) => code,
    }
}

/// The command, once everything main sets up is in place: how it ended, or the exit code of
/// one that answers by itself (`kw sim`).
fn run_command(cli: Cli, notices: &kw::notices::Notices) -> Result<Ending, ExitCode> {
    let notices = notices.clone();
    let config = &cli.config;
    let ending = match cli.command {
        Command::Get(args) => Ending::of(kw::run::get(&args, config, &notices), Ending::Get),
        Command::Demo(args) => Ending::of(kw::demo::run(args, config, &notices), Ending::Get),
        Command::Sim(passthrough) => return Err(run_sim(passthrough.args)),
        Command::Completion(args) => Ending::of(run_completion(args), |()| Ending::Done),
        Command::Version(args) => Ending::of(kw::version::run(args, config), |()| Ending::Done),
        Command::Logs(args) => Ending::of(kw::run::logs::logs(&args, config, &notices), |ran| {
            ran.map_or(Ending::Done, Ending::Get)
        }),
        Command::Rollout(rollout) => match rollout.command {
            kw::cli::RolloutCommand::Status(args) => {
                let run = kw::run::rollout::status(&args, config, &notices);
                Ending::of(run, Ending::Rollout)
            }
        },
        Command::Wait(args) => {
            Ending::of(kw::run::wait::wait(&args, config, &notices), Ending::Wait)
        }
    };
    Ok(ending)
}

/// A signal ends kw with `code`: the CI reports of the wait so far, when asked
/// (`report::ci::interrupted`).
fn report_interrupted(code: i32) {
    let lines = report::ci::interrupted::ended(code, |name| std::env::var(name).ok());
    Report { lines, code }.print();
}

/// Where a command's final report reaches stderr and becomes the exit code (a context that
/// fails while the others go on is reported by the runner as it happens).
fn exit_with(report: &Report) -> ExitCode {
    report.print();
    ExitCode::from(report.code as u8)
}

/// A command line clap refused for its verb: kubectl's verbs kw does not have go to kubectl,
/// the command line whole; a word no one has gets kubectl's line and the nearest verb; no verb
/// gets the help on stdout, as kubectl prints it.
fn refused(command: clap::Command, error: &clap::Error, args: &[std::ffi::OsString]) -> ExitCode {
    use kw::passthrough::refused::Refused;
    let parsed = kw::cli::with_pflag_booleans(command.clone());
    match kw::passthrough::refused::refused(&parsed, args, error) {
        Refused::HandOn { verb } => pass_to_kubectl(&verb),
        Refused::KubectlFlags {
            verb,
            flags,
            verbosity,
        } => {
            kw::log::set_level(verbosity);
            kw_base::vlog!(
                1,
                "kw {verb} does not take {}: handing the command line to kubectl",
                flags.join(" ")
            );
            pass_to_kubectl(&format!("{verb} {}", flags[0].split('=').next().unwrap_or("")))
        }
        Refused::KwAndKubectl { verb, kubectl, kw } => exit_with(&Report {
            lines: vec![report::line::ReportLine::Error(format!(
                "{kubectl} is kubectl's, for which kw hands \"{verb}\" to kubectl, but {kw} is kw's own, which kubectl would refuse: drop one of them"
            ))],
            code: exit::USAGE,
        }),
        Refused::Unknown {
            command,
            word,
            near,
        } => exit_with(&report::unknown_verb(&command, &word, near.as_deref())),
        Refused::NoVerb { top } => {
            // The plain command's help, without `[=<BOOL>]` after every switch.
            let help = command.try_get_matches().err();
            let text = help.as_ref().unwrap_or(error).render().to_string();
            let mut stdout = io::stdout().lock();
            let _ = stdout
                .write_all(text.as_bytes())
                .and_then(|()| stdout.flush());
            ExitCode::from(if top { exit::OK } else { exit::USAGE } as u8)
        }
        Refused::Later { message } => {
            let _ = io::stderr().write_all(message.as_bytes());
            ExitCode::from(exit::USAGE as u8)
        }
        Refused::Clap => clap_exit(error),
    }
}

/// The command line kw parses, with the user's kuberc applied (`kw::kuberc`), or kubectl's
/// to hand on as typed.
enum KubercLine {
    Run {
        line: Vec<std::ffi::OsString>,
        kuberc: kw::kuberc::Kuberc,
    },
    HandOn {
        verb: String,
        why: String,
    },
}

/// `args` (the program first) with the kuberc read and applied; a kuberc kubectl would refuse
/// ends kw as it ends kubectl (its words, exit 1) before anything runs.
fn with_kuberc(args: &[String], command: &clap::Command) -> Result<KubercLine, ExitCode> {
    let typed: Vec<std::ffi::OsString> = std::env::args_os().collect();
    let words = args.get(1..).unwrap_or_default();
    // The simulator is kw's own, and reads no preferences of kubectl's.
    if words.first().map(String::as_str) == Some("sim") {
        return Ok(KubercLine::Run {
            line: typed,
            kuberc: kw::kuberc::Kuberc::default(),
        });
    }
    let refuse = |error: kw::kuberc::KubercError| {
        let verb = first_word(words);
        let lines = error.lines(verb);
        let _ = writeln!(io::stderr(), "{}", lines.join("\n"));
        ExitCode::from(exit::USAGE as u8)
    };
    let home = std::env::var_os("HOME").map(std::path::PathBuf::from);
    let mut kuberc =
        kw::kuberc::load(words, |name| std::env::var(name).ok(), home).map_err(refuse)?;
    let program = args.first().cloned().unwrap_or_else(|| "kw".to_string());
    let parsing = kw::cli::with_pflag_booleans(command.clone());
    let applied = kw::kuberc::apply::apply(
        words,
        &kuberc.preferences,
        &parsing,
        &program,
        &mut kuberc.warnings,
    )
    .map_err(refuse)?;
    match applied {
        kw::kuberc::apply::Applied::HandOn { verb, why } => Ok(KubercLine::HandOn { verb, why }),
        // Unchanged, the words as the OS gave them (not made UTF-8 on the way).
        kw::kuberc::apply::Applied::Run(line) if line == words => Ok(KubercLine::Run {
            line: typed,
            kuberc,
        }),
        kw::kuberc::apply::Applied::Run(line) => Ok(KubercLine::Run {
            line: std::iter::once(std::ffi::OsString::from(program))
                .chain(line.into_iter().map(std::ffi::OsString::from))
                .collect(),
            kuberc,
        }),
    }
}

/// The verb of `words`: the first that is neither a global flag nor its value.
fn first_word(words: &[String]) -> Option<&str> {
    use kw::passthrough::kubectl_flags::{spelled, takes_next, GLOBAL};
    let mut words = words.iter();
    while let Some(word) = words.next() {
        if !word.starts_with('-') {
            return Some(word);
        }
        if spelled(word, GLOBAL.iter()).is_some_and(|flag| takes_next(word, flag)) {
            words.next();
        }
    }
    None
}

/// `kw VERB ARGS` for a kubectl verb kw does not have: kubectl's run, its exit status ours.
fn pass_to_kubectl(verb: &str) -> ExitCode {
    let args: Vec<std::ffi::OsString> = std::env::args_os().skip(1).collect();
    match kw::passthrough::run(verb, &args) {
        Ok(code) => ExitCode::from(code.clamp(0, 255) as u8),
        Err(error) => exit_with(&report::ending::report(&Ending::Failed(error.into()))),
    }
}

/// `kw sim ARGS`: the simulator, with its own command line (`kw sim --help`).
fn run_sim(args: Vec<std::ffi::OsString>) -> ExitCode {
    let argv = std::iter::once(std::ffi::OsString::from("kw sim")).chain(args);
    let cli = match kw_sim::SimCli::try_parse_from(argv) {
        Ok(cli) => cli,
        Err(e) => return clap_exit(&e),
    };
    let ran = kw_sim::run(cli.args).map_err(KwError::sim);
    exit_with(&report::ending::report(&Ending::of(ran, |()| Ending::Done)))
}

/// clap's own answer (help, version, or a usage error), printed as clap prints it.
fn clap_exit(e: &clap::Error) -> ExitCode {
    use clap::error::ErrorKind;
    let code = match e.kind() {
        ErrorKind::DisplayHelp | ErrorKind::DisplayVersion => exit::OK,
        _ => exit::USAGE,
    };
    let _ = e.print();
    ExitCode::from(code as u8)
}

/// `kw completion SHELL`: the script on stdout.
fn run_completion(args: CompletionArgs) -> Result<(), KwError> {
    let script = kw::completion::script(args.shell);
    let mut stdout = io::stdout().lock();
    match stdout.write_all(&script).and_then(|()| stdout.flush()) {
        Err(e) if !is_closed_pipe(&e) => Err(KwError::Output(e)),
        _ => Ok(()),
    }
}

/// `kw __complete [--] WORD...` (the completion scripts' TAB): candidates on stdout, never an
/// error, always exit 0.
fn run_complete(words: &[String]) -> ExitCode {
    let words = match words.split_first() {
        Some((first, rest)) if first == "--" => rest,
        _ => words,
    };
    let answer = kw::completion::answer(words);
    // A shell that stopped reading gets nothing more, and no message either.
    let _ = kw::completion::serve::print(&answer, &mut io::stdout().lock());
    ExitCode::SUCCESS
}
