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

/// The environment variables kw reads besides KUBECONFIG/HOME (documented in README), read here
/// and nowhere else.
struct Environment {
    /// `KW_IDLE_TIMEOUT`: overrides `IDLE_TIMEOUT` (e.g. `5s`), for networks that cut idle
    /// connections sooner, and for tests.
    idle_timeout: Duration,
}

impl Environment {
    fn read() -> Result<Environment, KwError> {
        let idle_timeout = match std::env::var("KW_IDLE_TIMEOUT") {
            Ok(text) => humantime::parse_duration(&text)
                .ok()
                .filter(|d| !d.is_zero())
                .ok_or_else(|| {
                    KwError::Usage(format!(
                        "error: KW_IDLE_TIMEOUT {text:?} is not a duration such as 75s"
                    ))
                })?,
            Err(_) => IDLE_TIMEOUT,
        };
        Ok(Environment { idle_timeout })
    }
}

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
    let format: OutputFormat = args
        .output
        .parse()
        .map_err(|e: printer::UnknownFormat| KwError::Usage(format!("error: {e}")))?;
    let requested = parse_targets(&args.targets)?;
    let watching = args.watch || args.watch_only;

    let settings = settings::resolve_from_env(&args.config, args.namespace.as_deref())?;
    if settings.connection.insecure_skip_tls_verify {
        kw::log::notice("warning: --insecure-skip-tls-verify: the server's certificate is not verified; anyone on the network path can read and change this session");
    }
    let environment = Environment::read()?;
    let client = Client::new(&settings.connection, environment.idle_timeout)?;
    let mut groups: Vec<(kw::events::ResourceInfo, Vec<String>)> = Vec::new();
    for (type_name, names) in requested {
        let resource = discovery::resolve(&client, &type_name)?;
        // `pods,po` is one type: kubectl merges them, and so do we.
        match groups.iter_mut().find(|(r, _)| *r == resource) {
            Some((_, existing)) => existing.extend(names),
            None => groups.push((resource, names)),
        }
    }
    if watching {
        if let Some((_, names)) = groups.iter().find(|(_, names)| names.len() > 1) {
            return Err(WatchError::TooManyNames(names.len()).into());
        }
    }
    let several = groups.len() > 1;
    let with_kind = args.show_kind || several;
    let deadline = if watching {
        settings
            .connection
            .request_timeout
            .map(|t| Instant::now() + t)
    } else {
        None
    };
    let options = Options {
        table: format.is_table(),
        chunk_size: args.chunk_size,
        watch: watching,
        print_list: !args.watch_only,
        deadline,
        max_object_size: args.max_object_size,
        streaming_list: true,
    };
    let single_object = !watching && groups.len() == 1 && groups[0].1.len() == 1;
    let print_options = |resource: &kw::events::ResourceInfo| PrintOptions {
        format: format.clone(),
        watch_events: args.output_watch_events,
        watching,
        // Several types under -A keep the column for the cluster-scoped ones too, as kubectl.
        all_namespaces: args.all_namespaces && (resource.namespaced || several),
        no_headers: args.no_headers,
        single_object,
        show_managed_fields: args.show_managed_fields,
    };
    let target = |resource: kw::events::ResourceInfo, names: Vec<String>| Target {
        namespace: if args.all_namespaces || !resource.namespaced {
            None
        } else {
            Some(settings.namespace.clone())
        },
        resource,
        names,
        label_selector: args.selector.clone(),
        field_selector: args.field_selector.clone(),
        include_object: false,
    };
    let no_resources_message = if args.all_namespaces || !groups.iter().any(|(r, _)| r.namespaced) {
        "No resources found".to_string()
    } else {
        format!("No resources found in {} namespace.", settings.namespace)
    };

    let printed = if watching && several {
        let first = print_options(&groups[0].0);
        let targets = groups.into_iter().map(|(r, n)| target(r, n)).collect();
        watch_several(client, targets, options, &first)?
    } else {
        // One type, or several listed one after another: a table per type (fresh column
        // widths, a blank line between), one List or one stream of lines for the others.
        let mut printed = 0;
        let mut output: Option<Output<io::StdoutLock<'static>>> = None;
        for (resource, names) in groups {
            if output.is_none() || format.is_table() {
                if let Some(mut done) = output.take() {
                    finish(&mut done)?;
                    if printed > 0 && !args.no_headers {
                        println!();
                    }
                }
                output = Some(Output::new(
                    printer::new_printer(&print_options(&resource)),
                    io::stdout().lock(),
                ));
            }
            let Some(sink) = output.as_mut() else {
                continue;
            };
            let mut watcher = Watcher::new(&client, target(resource, names), options.clone());
            let outcome = if with_kind {
                watcher.run(&mut kw::sinks::WithKind::new(&mut *sink))
            } else {
                watcher.run(sink)
            };
            match outcome {
                Ok(summary) => printed += summary.printed,
                Err(WatchError::Output(e)) if is_closed_pipe(&e) => return Ok(()),
                Err(e) => {
                    let _ = sink.finish();
                    return Err(e.into());
                }
            }
        }
        if let Some(mut done) = output {
            finish(&mut done)?;
        }
        printed
    };
    if printed == 0 && !watching && format != OutputFormat::Json {
        // kubectl says so on stderr, so that scripts reading stdout see nothing.
        eprintln!("{no_resources_message}");
    }
    Ok(())
}

/// Let the printer close what it holds open; a closed pipe is not an error.
fn finish<W: Write>(output: &mut Output<W>) -> Result<(), KwError> {
    match output.finish() {
        Err(e) if !is_closed_pipe(&e) => Err(WatchError::Output(e).into()),
        _ => Ok(()),
    }
}

/// Several types watched at once (kubectl refuses this): one watcher thread per type, each
/// with every guarantee of a single watch, merged into one output stream. The first fatal
/// error ends kw.
fn watch_several(
    client: Client,
    targets: Vec<Target>,
    options: Options,
    print_options: &PrintOptions,
) -> Result<u64, KwError> {
    let output = Output::new(printer::new_printer(print_options), io::stdout());
    let shared = kw::sinks::Shared(std::sync::Arc::new(std::sync::Mutex::new(output)));
    let client = std::sync::Arc::new(client);
    let (done, results) = std::sync::mpsc::channel();
    let count = targets.len();
    for target in targets {
        let client = std::sync::Arc::clone(&client);
        let options = options.clone();
        let mut sink = kw::sinks::WithKind::new(shared.clone());
        let done = done.clone();
        std::thread::spawn(move || {
            let mut watcher = Watcher::new(&client, target, options);
            let _ = done.send(watcher.run(&mut sink));
        });
    }
    let mut printed = 0;
    for _ in 0..count {
        match results.recv() {
            Ok(Ok(summary)) => printed += summary.printed,
            Ok(Err(WatchError::Output(e))) if is_closed_pipe(&e) => return Ok(printed),
            Ok(Err(e)) => return Err(e.into()),
            Err(_) => break,
        }
    }
    let mut output = shared.0.lock().unwrap_or_else(|p| p.into_inner());
    finish(&mut *output)?;
    Ok(printed)
}

/// `TYPE`, `TYPE NAME...`, `TYPE1,TYPE2`, `TYPE/NAME...` into types and their names, in the
/// order given.
fn parse_targets(targets: &[String]) -> Result<Vec<(String, Vec<String>)>, KwError> {
    let first = &targets[0];
    if !first.contains('/') {
        let types: Vec<&str> = first.split(',').collect();
        if types.iter().any(|t| t.is_empty()) {
            return Err(KwError::Usage(format!(
                "error: resource types must not be empty: {first:?}"
            )));
        }
        let names = targets[1..].to_vec();
        if types.len() > 1 && !names.is_empty() {
            return Err(KwError::Usage(
                "error: names can only be given with a single resource type (or as TYPE/NAME)"
                    .into(),
            ));
        }
        return Ok(types
            .into_iter()
            .map(|t| (t.to_string(), names.clone()))
            .collect());
    }
    let mut groups: Vec<(String, Vec<String>)> = Vec::new();
    for target in targets {
        let Some((kind, name)) = target.split_once('/') else {
            return Err(KwError::Usage(format!(
                "error: there is no need to specify a resource type as a separate argument when passing arguments in resource/name form (e.g. 'kw get resource/<resource_name>' instead of 'kw get resource resource/<resource_name>'): {target}"
            )));
        };
        if kind.is_empty() || name.is_empty() || name.contains('/') {
            return Err(KwError::Usage(format!(
                "error: arguments in resource/name form must have a single resource and name: {target}"
            )));
        }
        match groups.iter_mut().find(|(t, _)| t == kind) {
            Some((_, names)) => names.push(name.to_string()),
            None => groups.push((kind.to_string(), vec![name.to_string()])),
        }
    }
    Ok(groups)
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
        // The exec plugin failed or returned nothing usable: an authentication problem.
        ClientError::Setup(kw::client::SetupError::Credentials(_)) => {
            (vec![format!("error: {e}")], exit::AUTH)
        }
        ClientError::Setup(_) => (vec![format!("error: {e}")], exit::USAGE),
        _ => (vec![format!("error: {e}")], exit::SERVER_ERROR),
    }
}
