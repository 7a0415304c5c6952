//! kw's entry point: parse the command line, wire the stages together (settings → client →
//! discovery → watcher → printer → stdout), and turn every error into one message and one exit
//! code. This is the only place that knows all the stages.

use std::io::{self, Write};
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::{Duration, Instant};

use clap::Parser;

use kw::cli::{Cli, Command, CompletionArgs, DemoArgs, GetArgs, VersionArgs};
use kw::client::{Client, ClientError};
use kw::conditions::{ConditionSink, Ended, Expr, For, Judge, Named, Rules};
use kw::discovery::{self, DiscoveryError};
use kw::discovery_cache::DiscoveryCache;
use kw::exit;
use kw::output::{is_closed_pipe, Output};
use kw::printer::{self, OutputFormat, PrintOptions};
use kw::settings::{self, SettingsError};
use kw::watcher::{Options, Sink, Target, WatchError, Watcher};

/// The temporary directory of a running `kw demo`, for the Ctrl-C handler to remove.
static DEMO_DIR: std::sync::OnceLock<PathBuf> = std::sync::OnceLock::new();

/// How long a watch may stay silent before kw treats the connection as dead. Real API servers
/// send a bookmark about once a minute to watchers that ask for them.
const IDLE_TIMEOUT: Duration = Duration::from_secs(75);

/// The environment variables kw reads besides KUBECONFIG/HOME (documented in README), read here
/// and nowhere else.
struct Environment {
    /// `KW_IDLE_TIMEOUT`: overrides `IDLE_TIMEOUT` (e.g. `5s`), for networks that cut idle
    /// connections sooner, and for tests.
    idle_timeout: Duration,
    /// Where resolved resource types are cached: `$XDG_CACHE_HOME/kw/discovery`, else
    /// `$HOME/.cache/kw/discovery`.
    discovery_cache: Option<PathBuf>,
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
        let cache_base = std::env::var_os("XDG_CACHE_HOME")
            .filter(|v| !v.is_empty())
            .map(PathBuf::from)
            .or_else(|| {
                std::env::var_os("HOME")
                    .filter(|v| !v.is_empty())
                    .map(|home| PathBuf::from(home).join(".cache"))
            });
        Ok(Environment {
            idle_timeout,
            discovery_cache: cache_base.map(|base| base.join("kw").join("discovery")),
        })
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
    #[error(transparent)]
    Manifest(#[from] kw::manifest::ManifestError),
    /// A condition or limit ended the watch (exit 0, or CONDITION_FAILED for --fail-on).
    #[error("{0}")]
    Ended(Ended),
    /// `--timeout` ran out.
    #[error("{0}")]
    Timeout(String),
}

fn main() -> ExitCode {
    // The completion scripts' TAB: its words are a half-typed command line, which completion
    // reads itself (clap would reject it, or answer with help).
    let args: Vec<String> = std::env::args_os()
        .map(|a| a.to_string_lossy().into_owned())
        .collect();
    if args.get(1).map(String::as_str) == Some(kw::completion::serve::SUBCOMMAND) {
        return run_complete(&args[2..]);
    }
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
    let _ = ctrlc::set_handler(|| {
        // `kw demo` leaves no kubeconfig (with the simulator's tokens) behind.
        if let Some(dir) = DEMO_DIR.get() {
            let _ = std::fs::remove_dir_all(dir);
        }
        std::process::exit(exit::INTERRUPTED)
    });

    let result = match cli.command {
        Command::Get(args) => run_get(args),
        Command::Demo(args) => run_demo(args),
        Command::Sim(args) => kw::sim::run(args).map_err(KwError::from),
        Command::Completion(args) => run_completion(args),
        Command::Version(args) => run_version(args),
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

/// The wait-for rules of `kw get` from its flags (`--until`, `--fail-on`, `--for`, ...).
fn rules_of(args: &GetArgs) -> Result<Rules, KwError> {
    let usage = |e: kw::conditions::ConditionError| KwError::Usage(format!("error: {e}"));
    let parse_all = |flag: &'static str, texts: &[String]| -> Result<Vec<Expr>, KwError> {
        texts
            .iter()
            .map(|t| Expr::parse(flag, t).map_err(usage))
            .collect()
    };
    if args.max_events == Some(0) {
        return Err(KwError::Usage(
            "error: --max-events must be at least 1".into(),
        ));
    }
    Ok(Rules {
        until: parse_all("--until", &args.until)?,
        fail_on: parse_all("--fail-on", &args.fail_on)?,
        mode: args.for_objects.parse::<For>().map_err(usage)?,
        max_events: args.max_events,
    })
}

/// `--timeout`: humantime (`30s`, `5m`, `1h30m`), or a bare number of seconds.
fn timeout_of(args: &GetArgs) -> Result<Option<Duration>, KwError> {
    let Some(text) = &args.timeout else {
        return Ok(None);
    };
    let parsed = match text.parse::<u64>() {
        Ok(seconds) => Some(Duration::from_secs(seconds)),
        Err(_) => humantime::parse_duration(text).ok(),
    };
    match parsed {
        Some(d) if !d.is_zero() => Ok(Some(d)),
        _ => Err(KwError::Usage(format!(
            "error: --timeout {text:?} is not a duration such as 30s, 5m or 1h30m"
        ))),
    }
}

/// One resource type and the objects of it to get: the names, and a namespace of their own
/// when a manifest says so.
struct Wanted {
    resource: kw::events::ResourceInfo,
    names: Vec<String>,
    namespace: Option<String>,
}

/// What the command line (or `-f`) asks for, resolved by discovery, in order; `pods,po` and
/// repeated types merge as in kubectl.
fn wanted(
    args: &GetArgs,
    client: &Client,
    cache: &mut DiscoveryCache,
) -> Result<Vec<Wanted>, KwError> {
    let requested: Vec<(String, Vec<String>, Option<String>)> = match &args.filename {
        Some(_) if !args.targets.is_empty() => {
            return Err(KwError::Usage(
                "error: -f names the objects to get: give no TYPE or NAME with it".into(),
            ))
        }
        Some(path) => kw::manifest::load(path)?
            .into_iter()
            .map(|o| (o.type_query(), vec![o.name], o.namespace))
            .collect(),
        None => parse_targets(&args.targets)?
            .into_iter()
            .map(|(t, names)| (t, names, None))
            .collect(),
    };
    let mut groups: Vec<Wanted> = Vec::new();
    for (type_name, names, namespace) in requested {
        let now = std::time::SystemTime::now();
        let resources = match cache.get(&type_name, now) {
            Some(resources) => resources,
            None => {
                let resources = discovery::resolve_many(client, &type_name)?;
                cache.put(&type_name, &resources, now);
                resources
            }
        };
        for resource in resources {
            let namespace = namespace.clone().filter(|_| resource.namespaced);
            match groups
                .iter_mut()
                .find(|w| w.resource == resource && w.namespace == namespace)
            {
                Some(existing) => existing.names.extend(names.iter().cloned()),
                None => groups.push(Wanted {
                    resource,
                    names: names.clone(),
                    namespace,
                }),
            }
        }
    }
    Ok(groups)
}

/// `kw get`: list, and with -w watch (or wait, with --until/--fail-on).
fn run_get(args: GetArgs) -> Result<(), KwError> {
    let mut cached: Option<CachedTypes> = None;
    let result = run_get_resolved(args, &mut cached);
    // A collection the server no longer serves (a CRD deleted, a version dropped): the cached
    // resolution is stale; forget it so the next run asks discovery again.
    if let (
        Err(KwError::Watch(WatchError::Client(ClientError::Status { code: 404, .. }))),
        Some(c),
    ) = (&result, cached)
    {
        let mut cache = DiscoveryCache::open(Some(&c.dir), &c.server);
        for resource in &c.resources {
            cache.forget(resource);
        }
        cache.save();
    }
    result
}

/// Which cache the types of this run were resolved through.
struct CachedTypes {
    dir: PathBuf,
    server: String,
    resources: Vec<kw::events::ResourceInfo>,
}

fn run_get_resolved(args: GetArgs, cached: &mut Option<CachedTypes>) -> Result<(), KwError> {
    let rules = rules_of(&args)?;
    let timeout = timeout_of(&args)?;
    if rules.has_conditions() && args.watch_only {
        return Err(KwError::Usage(
            "error: --until and --fail-on judge the initial list too: drop --watch-only".into(),
        ));
    }
    let watching = args.watch || args.watch_only || rules.has_conditions();
    if args.output_watch_events && !watching {
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
    if args.filename.is_none() {
        // Flag mistakes are reported before any file or network is touched.
        parse_targets(&args.targets)?;
    }

    let settings = settings::resolve_from_env(&args.config, args.namespace.as_deref())?;
    if settings.connection.insecure_skip_tls_verify {
        kw::log::notice("warning: --insecure-skip-tls-verify: the server's certificate is not verified; anyone on the network path can read and change this session");
    }
    let environment = Environment::read()?;
    let started = Instant::now();
    let client = Client::new(&settings.connection, environment.idle_timeout)?;
    let mut cache = DiscoveryCache::open(environment.discovery_cache.as_deref(), client.server());
    let mut groups = wanted(&args, &client, &mut cache)?;
    cache.save();
    if let Some(dir) = &environment.discovery_cache {
        *cached = Some(CachedTypes {
            dir: dir.clone(),
            server: client.server().to_string(),
            resources: groups.iter().map(|w| w.resource.clone()).collect(),
        });
    }
    // Objects named one by one (several names, or a manifest) are watched one watcher each
    // when waiting on them; a plain watch keeps kubectl's rule of one name per type.
    let split_names = rules.has_conditions() || args.filename.is_some();
    if watching {
        if let Some(w) = groups.iter().find(|w| w.names.len() > 1) {
            if !split_names {
                return Err(WatchError::TooManyNames(w.names.len()).into());
            }
        }
        if split_names {
            groups = groups
                .into_iter()
                .flat_map(|w| {
                    if w.names.len() <= 1 {
                        return vec![w];
                    }
                    w.names
                        .iter()
                        .map(|name| Wanted {
                            resource: w.resource.clone(),
                            names: vec![name.clone()],
                            namespace: w.namespace.clone(),
                        })
                        .collect()
                })
                .collect();
        }
    }
    let several_types = groups.iter().any(|w| w.resource != groups[0].resource);
    let several = groups.len() > 1;
    let with_kind = args.show_kind || several_types;

    // --request-timeout cuts a watch quietly (kubectl's meaning); --timeout is a failure of its
    // own. The watcher gets the earlier of the two, and kw remembers which one it was.
    let request_deadline = if watching {
        settings.connection.request_timeout.map(|t| started + t)
    } else {
        None
    };
    let timeout_deadline = timeout.map(|t| started + t);
    let deadline = match (request_deadline, timeout_deadline) {
        (Some(r), Some(t)) => Some(r.min(t)),
        (r, t) => r.or(t),
    };
    let timed_out = || {
        timeout_deadline
            .is_some_and(|t| Instant::now() >= t && request_deadline.is_none_or(|r| t <= r))
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
    let single_object = !watching && groups.len() == 1 && groups[0].names.len() == 1;
    let print_options = |resource: &kw::events::ResourceInfo| PrintOptions {
        format: format.clone(),
        watch_events: args.output_watch_events,
        watching,
        // Several types under -A keep the column for the cluster-scoped ones too, as kubectl.
        all_namespaces: args.all_namespaces && (resource.namespaced || several_types),
        no_headers: args.no_headers,
        single_object,
        show_managed_fields: args.show_managed_fields,
        show_labels: args.show_labels,
        label_columns: args.label_columns.clone(),
        sort_by: sort_by.clone(),
        timestamps,
        started: Some(std::time::SystemTime::now()),
        color: printer::terminal::use_color(color_choice, terminal),
        terminal,
        diff: args.diff,
        ignore_unchanged: args.ignore_unchanged,
        only: only.clone(),
    };
    let target = |w: Wanted| Target {
        namespace: if args.all_namespaces || !w.resource.namespaced {
            None
        } else {
            Some(w.namespace.unwrap_or_else(|| settings.namespace.clone()))
        },
        resource: w.resource,
        names: w.names,
        label_selector: args.selector.clone(),
        field_selector: args.field_selector.clone(),
        // Table rows carry only metadata unless a printer or a condition needs the object.
        include_object: format.is_table()
            && (rules.needs_object() || sort_by.is_some() || args.diff),
    };
    let no_resources_message =
        if args.all_namespaces || !groups.iter().any(|w| w.resource.namespaced) {
            "No resources found".to_string()
        } else {
            format!("No resources found in {} namespace.", settings.namespace)
        };
    let has_rules = rules.has_conditions() || rules.max_events.is_some();
    let until_text: Vec<String> = rules.until.iter().map(|e| e.to_string()).collect();

    let targets: Vec<Target> = groups.into_iter().map(target).collect();
    let judge = has_rules.then(|| {
        let named = targets
            .iter()
            .flat_map(|t| {
                t.names
                    .iter()
                    .map(|name| Named::new(&t.resource, t.namespace.clone(), name))
            })
            .collect();
        Judge::new(rules, named, targets.len()).shared()
    });

    let printed = if watching && several {
        let first = print_options(&targets[0].resource);
        watch_several(client, targets, options, &first, with_kind, judge)?
    } else {
        // One type, or several listed one after another: a table per type (fresh column
        // widths, a blank line between), one List or one stream of lines for the others.
        let mut printed = 0;
        let mut output: Option<Output<io::StdoutLock<'static>>> = None;
        for (index, target) in targets.into_iter().enumerate() {
            if output.is_none() || format.is_table() {
                if let Some(mut done) = output.take() {
                    finish(&mut done)?;
                    if printed > 0 && !args.no_headers {
                        println!();
                    }
                }
                output = Some(Output::new(
                    printer::new_printer(&print_options(&target.resource)),
                    io::stdout().lock(),
                ));
            }
            let Some(sink) = output.as_mut() else {
                continue;
            };
            let mut watcher = Watcher::new(&client, target, options.clone());
            let mut prefixed;
            let base: &mut dyn Sink = if with_kind {
                prefixed = kw::sinks::WithKind::new(&mut *sink);
                &mut prefixed
            } else {
                sink
            };
            let outcome = match &judge {
                Some(judge) => watcher.run(&mut ConditionSink::new(judge.clone(), index, base)),
                None => watcher.run(base),
            };
            match outcome {
                Ok(summary) => printed += summary.printed,
                Err(WatchError::Output(e)) if is_closed_pipe(&e) => return Ok(()),
                Err(WatchError::Output(e)) if Ended::from_io(&e).is_some() => {
                    finish(sink)?;
                    return Err(ended(judge.as_ref(), &e));
                }
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
    if timed_out() {
        let waited = humantime::format_duration(timeout.unwrap_or_default());
        return Err(KwError::Timeout(if until_text.is_empty() {
            format!("error: --timeout {waited} ran out")
        } else {
            format!(
                "error: timed out after {waited} waiting for --until {}",
                until_text.join(" or ")
            )
        }));
    }
    if printed == 0 && !watching && !format.prints_empty_list() {
        // kubectl says so on stderr, so that scripts reading stdout see nothing.
        eprintln!("{no_resources_message}");
    }
    Ok(())
}

/// The condition or limit that ended a watch: the judge's own record, since the watcher thread
/// that reports first may be one that was only told to stop.
fn ended(judge: Option<&std::sync::Arc<std::sync::Mutex<Judge>>>, e: &io::Error) -> KwError {
    let recorded = judge.and_then(|j| j.lock().unwrap_or_else(|p| p.into_inner()).ended());
    let ended = recorded
        .or_else(|| Ended::from_io(e).cloned())
        .unwrap_or(Ended::Elsewhere);
    KwError::Ended(ended)
}

/// Let the printer close what it holds open; a closed pipe is not an error.
fn finish<W: Write>(output: &mut Output<W>) -> Result<(), KwError> {
    match output.finish() {
        Err(e) if !is_closed_pipe(&e) => Err(WatchError::Output(e).into()),
        _ => Ok(()),
    }
}

/// Several types (or several named objects) watched at once (kubectl refuses this): one watcher
/// thread per target, each with every guarantee of a single watch, merged into one output
/// stream. The first fatal error, met condition or limit ends kw.
fn watch_several(
    client: Client,
    targets: Vec<Target>,
    options: Options,
    print_options: &PrintOptions,
    with_kind: bool,
    judge: Option<std::sync::Arc<std::sync::Mutex<Judge>>>,
) -> Result<u64, KwError> {
    let output = Output::new(printer::new_printer(print_options), io::stdout());
    let shared = kw::sinks::Shared(std::sync::Arc::new(std::sync::Mutex::new(output)));
    let client = std::sync::Arc::new(client);
    let (done, results) = std::sync::mpsc::channel();
    let count = targets.len();
    for (index, target) in targets.into_iter().enumerate() {
        let client = std::sync::Arc::clone(&client);
        let options = options.clone();
        let shared = shared.clone();
        let judge = judge.clone();
        let done = done.clone();
        std::thread::spawn(move || {
            let mut watcher = Watcher::new(&client, target, options);
            let mut prefixed;
            let mut plain = shared;
            let base: &mut dyn Sink = if with_kind {
                prefixed = kw::sinks::WithKind::new(plain.clone());
                &mut prefixed
            } else {
                &mut plain
            };
            let result = match judge {
                Some(judge) => watcher.run(&mut ConditionSink::new(judge, index, base)),
                None => watcher.run(base),
            };
            let _ = done.send(result);
        });
    }
    let mut printed = 0;
    let mut end: Option<KwError> = None;
    for _ in 0..count {
        match results.recv() {
            Ok(Ok(summary)) => printed += summary.printed,
            Ok(Err(WatchError::Output(e))) if is_closed_pipe(&e) => return Ok(printed),
            Ok(Err(WatchError::Output(e))) if Ended::from_io(&e).is_some() => {
                end = Some(ended(judge.as_ref(), &e));
                break;
            }
            Ok(Err(e)) => return Err(e.into()),
            Err(_) => break,
        }
    }
    let mut output = shared.0.lock().unwrap_or_else(|p| p.into_inner());
    finish(&mut *output)?;
    match end {
        Some(e) => Err(e),
        None => Ok(printed),
    }
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
    let _ = DEMO_DIR.set(dir.clone());
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

/// `kw completion SHELL`: the script on stdout.
fn run_completion(args: CompletionArgs) -> Result<(), KwError> {
    let script = kw::completion::script(args.shell);
    let mut stdout = io::stdout().lock();
    match stdout.write_all(&script).and_then(|()| stdout.flush()) {
        Err(e) if !is_closed_pipe(&e) => Err(WatchError::Output(e).into()),
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

/// `kw version`: kw's version, then (unless --client) the server's `/version`.
fn run_version(args: VersionArgs) -> Result<(), KwError> {
    println!("Client Version: v{}", env!("CARGO_PKG_VERSION"));
    if args.client {
        return Ok(());
    }
    let settings = settings::resolve_from_env(&args.config, None)?;
    let environment = Environment::read()?;
    let client = Client::new(&settings.connection, environment.idle_timeout)?;
    let body = client.get("/version", "application/json")?;
    #[derive(serde::Deserialize)]
    struct ServerVersion {
        #[serde(rename = "gitVersion", default)]
        git_version: String,
    }
    let version: ServerVersion = serde_json::from_slice(&body).map_err(|e| {
        KwError::Watch(WatchError::BadResponse {
            path: "/version".into(),
            reason: e.to_string(),
        })
    })?;
    println!("Server Version: {}", version.git_version);
    Ok(())
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
        // A printer that cannot print an object (a template that fails on it) says why itself.
        KwError::Watch(WatchError::Output(e)) if e.kind() == io::ErrorKind::InvalidData => {
            (vec![format!("error: {e}")], exit::SERVER_ERROR)
        }
        KwError::Watch(e) => (vec![format!("error: {e}")], exit::SERVER_ERROR),
        KwError::Sim(e) => (vec![format!("error: {e}")], exit::USAGE),
        KwError::Manifest(e) => (vec![format!("error: {e}")], exit::USAGE),
        KwError::Ended(e @ Ended::FailOn { .. }) => {
            (vec![format!("error: {e}")], exit::CONDITION_FAILED)
        }
        KwError::Ended(e @ Ended::Until { .. }) => (vec![format!("kw: {e}")], exit::OK),
        KwError::Ended(_) => (vec![], exit::OK),
        KwError::Timeout(message) => (vec![message.clone()], exit::TIMEOUT),
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
