//! kw's entry point: parse the command line, wire the stages together (settings → client →
//! discovery → watcher → printer → stdout), and turn every error into one message and one exit
//! code. This is the only place that knows all the stages.

use std::io::{self, Write};
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::{Duration, Instant};

use clap::Parser;

use kw::cli::{Cli, Command, DemoArgs, GetArgs};
use kw::client::{Client, ClientError};
use kw::discovery::{self, DiscoveryError};
use kw::exit;
use kw::output::{is_closed_pipe, Output};
use kw::printer::{self, OutputFormat, PrintOptions};
use kw::settings::{self, SettingsError};
use kw::watcher::{Options, Target, WatchError, Watcher};

/// How long a watch may stay silent before kw treats the connection as dead. Real API servers
/// send a bookmark about once a minute to watchers that ask for them.
const IDLE_TIMEOUT: Duration = Duration::from_secs(75);
/// Objects larger than this are refused rather than buffered (etcd's own limit is 1.5 MiB).
const MAX_OBJECT_SIZE: usize = 64 << 20;

#[derive(Debug, thiserror::Error)]
enum KwError {
    #[error("{0}")]
    Usage(String),
    #[error(transparent)]
    Settings(#[from] SettingsError),
    #[error(transparent)]
    Client(#[from] ClientError),
    #[error(transparent)]
    Discovery(#[from] DiscoveryError),
    #[error(transparent)]
    Watch(#[from] WatchError),
    #[error(transparent)]
    Sim(#[from] kw::sim::SimError),
}

fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => {
            use clap::error::ErrorKind;
            let code = match e.kind() {
                ErrorKind::DisplayHelp | ErrorKind::DisplayVersion => exit::OK,
                _ => exit::USAGE,
            };
            let _ = e.print();
            return ExitCode::from(code as u8);
        }
    };
    kw::log::set_level(cli.verbosity);
    let _ = ctrlc::set_handler(|| std::process::exit(exit::INTERRUPTED));

    let result = match cli.command {
        Command::Get(args) => run_get(args),
        Command::Demo(args) => run_demo(args),
        Command::Sim(args) => kw::sim::run(args).map_err(KwError::from),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(err) => {
            let (lines, code) = report(&err);
            let mut stderr = io::stderr().lock();
            for line in lines {
                let _ = writeln!(stderr, "{line}");
            }
            ExitCode::from(code as u8)
        }
    }
}

/// `kw get`: list, and with -w watch.
fn run_get(args: GetArgs) -> Result<(), KwError> {
    if args.output_watch_events && !(args.watch || args.watch_only) {
        return Err(KwError::Usage(
            "error: --output-watch-events option can only be used with --watch or --watch-only"
                .into(),
        ));
    }
    let format: OutputFormat = printer::check_show_labels(&args.output, args.show_labels)
        .and_then(|()| printer::parse_output(&args.output))
        .map_err(|e| KwError::Usage(format!("error: {e}")))?;
    let usage = |e: String| KwError::Usage(format!("error: {e}"));
    let only = printer::parse_only(&args.only).map_err(usage)?;
    let timestamps = args
        .timestamps
        .as_deref()
        .map(str::parse::<printer::TimestampFormat>)
        .transpose()
        .map_err(usage)?;
    let color_choice: printer::ColorChoice = args.color.parse().map_err(usage)?;
    let terminal = printer::terminal::stdout_is_terminal();
    let sort_by = match &args.sort_by {
        Some(value) => {
            Some(printer::SortBy::parse(value).map_err(|e| KwError::Usage(format!("error: {e}")))?)
        }
        None => None,
    };
    let (type_name, names) = parse_targets(&args.targets)?;

    let settings = settings::resolve_from_env(&args.config, args.namespace.as_deref())?;
    if settings.connection.insecure_skip_tls_verify {
        kw::log::notice("warning: --insecure-skip-tls-verify: the server's certificate is not verified; anyone on the network path can read and change this session");
    }
    let client = Client::new(&settings.connection, IDLE_TIMEOUT)?;
    let resource = discovery::resolve(&client, &type_name)?;

    let watching = args.watch || args.watch_only;
    let namespace = if args.all_namespaces || !resource.namespaced {
        None
    } else {
        Some(settings.namespace.clone())
    };
    let no_resources_message = match &namespace {
        Some(ns) => format!("No resources found in {ns} namespace."),
        None => "No resources found".to_string(),
    };
    let print_options = PrintOptions {
        format: format.clone(),
        watch_events: args.output_watch_events,
        watching,
        all_namespaces: args.all_namespaces && resource.namespaced,
        no_headers: args.no_headers,
        single_object: !watching && names.len() == 1,
        show_managed_fields: args.show_managed_fields,
        show_labels: args.show_labels,
        label_columns: args.label_columns.clone(),
        sort_by,
        timestamps,
        started: Some(std::time::SystemTime::now()),
        color: printer::terminal::use_color(color_choice, terminal),
        terminal,
        diff: args.diff,
        ignore_unchanged: args.ignore_unchanged,
        only,
    };
    let deadline = if watching {
        settings
            .connection
            .request_timeout
            .map(|t| Instant::now() + t)
    } else {
        None
    };
    let target = Target {
        resource,
        namespace,
        names,
        label_selector: args.selector.clone(),
        field_selector: args.field_selector.clone(),
        // Table rows carry only metadata unless a printer needs the whole object.
        include_object: format.is_table() && (print_options.sort_by.is_some() || args.diff),
    };
    let options = Options {
        table: format.is_table(),
        chunk_size: args.chunk_size,
        watch: watching,
        print_list: !args.watch_only,
        deadline,
        max_object_size: MAX_OBJECT_SIZE,
        streaming_list: true,
    };

    let mut output = Output::new(printer::new_printer(&print_options), io::stdout().lock());
    let mut watcher = Watcher::new(&client, target, options);
    let outcome = watcher.run(&mut output);
    let finished = output.finish();
    let summary = match outcome {
        Ok(summary) => summary,
        Err(WatchError::Output(e)) if is_closed_pipe(&e) => return Ok(()),
        Err(e) => return Err(e.into()),
    };
    match finished {
        Err(e) if is_closed_pipe(&e) => return Ok(()),
        Err(e) => return Err(WatchError::Output(e).into()),
        Ok(()) => {}
    }
    if summary.printed == 0 && !watching && !format.prints_empty_list() {
        // kubectl says so on stderr, so that scripts reading stdout see nothing.
        eprintln!("{no_resources_message}");
    }
    Ok(())
}

/// `TYPE`, `TYPE NAME...`, `TYPE/NAME...` into the type and the names.
fn parse_targets(targets: &[String]) -> Result<(String, Vec<String>), KwError> {
    let first = &targets[0];
    if first.contains(',') {
        return Err(KwError::Usage(format!(
            "error: several resource types at once ({first}) are not supported yet; run one kw per type"
        )));
    }
    if !first.contains('/') {
        return Ok((first.clone(), targets[1..].to_vec()));
    }
    let mut type_name: Option<String> = None;
    let mut names = Vec::new();
    for target in targets {
        let Some((kind, name)) = target.split_once('/') else {
            return Err(KwError::Usage(format!(
                "error: there is no need to specify a resource type as a separate argument when passing arguments in resource/name form (e.g. 'kw get resource/<resource_name>' instead of 'kw get resource resource/<resource_name>'): {target}"
            )));
        };
        if kind.is_empty() || name.is_empty() {
            return Err(KwError::Usage(format!(
                "error: arguments in resource/name form must have a single resource and name: {target}"
            )));
        }
        match &type_name {
            Some(t) if t != kind => {
                return Err(KwError::Usage(
                    "error: watching several resource types at once is not supported yet".into(),
                ))
            }
            Some(_) => {}
            None => type_name = Some(kind.to_string()),
        }
        names.push(name.to_string());
    }
    Ok((type_name.unwrap_or_default(), names))
}

/// `kw demo`: the simulated cluster in-process, with churn, and `kw get` against it over TLS.
fn run_demo(args: DemoArgs) -> Result<(), KwError> {
    let config = kw::sim::SimConfig {
        churn: Some(args.churn),
        seed: args.seed,
        ..kw::sim::SimConfig::default()
    };
    let sim = kw::sim::start(config)?;
    let dir = std::env::temp_dir().join(format!("kw-demo-{}", std::process::id()));
    std::fs::create_dir_all(&dir)
        .map_err(|e| KwError::Usage(format!("error: creating {}: {e}", dir.display())))?;
    let kubeconfig: PathBuf = dir.join("kubeconfig");
    sim.write_kubeconfig(&kubeconfig)?;
    eprintln!(
        "kw demo: a simulated cluster is running at {} (kubeconfig: {}); Ctrl-C to stop",
        sim.url(),
        kubeconfig.display()
    );
    let mut argv: Vec<String> = vec!["kw".into(), "get".into()];
    if args.get_args.is_empty() {
        argv.extend(
            ["pods", "-A", "--watch", "--output-watch-events"]
                .iter()
                .map(|s| s.to_string()),
        );
    } else {
        argv.extend(args.get_args.iter().cloned());
    }
    argv.push("--kubeconfig".into());
    argv.push(kubeconfig.display().to_string());
    let get = match Cli::try_parse_from(&argv) {
        Ok(Cli {
            command: Command::Get(get),
            ..
        }) => get,
        Ok(_) => return Err(KwError::Usage("error: kw demo runs `kw get`".into())),
        Err(e) => return Err(KwError::Usage(e.to_string().trim_end().to_string())),
    };
    let result = run_get(get);
    let _ = std::fs::remove_dir_all(&dir);
    result
}

/// Every error becomes its message lines and exit code here, and only here.
fn report(err: &KwError) -> (Vec<String>, i32) {
    match err {
        KwError::Usage(message) => (vec![message.clone()], exit::USAGE),
        KwError::Settings(e) => (vec![format!("error: {e}")], exit::USAGE),
        KwError::Client(e) => client_report(e),
        KwError::Discovery(DiscoveryError::Client(e)) => client_report(e),
        KwError::Discovery(e @ DiscoveryError::UnknownType(_)) => {
            (vec![format!("error: {e}")], exit::USAGE)
        }
        KwError::Discovery(e) => (vec![format!("error: {e}")], exit::SERVER_ERROR),
        KwError::Watch(WatchError::Client(e)) => client_report(e),
        KwError::Watch(WatchError::NotFound(errors)) => {
            let lines = errors
                .iter()
                .map(|e| client_report(e).0.join(" "))
                .collect();
            (lines, exit::SERVER_ERROR)
        }
        KwError::Watch(e @ WatchError::TooManyNames(_)) => {
            (vec![format!("error: {e}")], exit::USAGE)
        }
        KwError::Watch(e) => (vec![format!("error: {e}")], exit::SERVER_ERROR),
        KwError::Sim(e) => (vec![format!("error: {e}")], exit::USAGE),
    }
}

/// kubectl's wording for server answers, so scripts and people see what they know.
fn client_report(e: &ClientError) -> (Vec<String>, i32) {
    match e {
        ClientError::Status { code: 401, .. } => (
            vec!["error: You must be logged in to the server (the server has asked for the client to provide credentials)".into()],
            exit::AUTH,
        ),
        ClientError::Status {
            code,
            status: Some(status),
            ..
        } if !status.message.is_empty() => {
            let reason = if status.reason.is_empty() {
                "Unknown"
            } else {
                status.reason.as_str()
            };
            let code_exit = if *code == 403 {
                exit::AUTH
            } else {
                exit::SERVER_ERROR
            };
            (
                vec![format!("Error from server ({reason}): {}", status.message)],
                code_exit,
            )
        }
        ClientError::Status { code: 403, .. } => (
            vec!["Error from server (Forbidden): the server refused the request".into()],
            exit::AUTH,
        ),
        ClientError::Unreachable { .. } | ClientError::Tls { .. } => {
            (vec![format!("error: {e}")], exit::UNREACHABLE)
        }
        ClientError::Setup(_) => (vec![format!("error: {e}")], exit::USAGE),
        _ => (vec![format!("error: {e}")], exit::SERVER_ERROR),
    }
}
