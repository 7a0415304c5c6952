//! kw's entry point: parse the command line, wire the stages together (settings → client →
//! discovery → watcher → printer → stdout), and turn every error into one message and one exit
//! code. This is the only place that knows all the stages.

use std::io::{self, Write};
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::{Duration, Instant};

use clap::Parser;

use kw::cli::{Cli, Command, CompletionArgs, ConfigFlags, DemoArgs, GetArgs, VersionArgs};
use kw::client::{Client, ClientError};
use kw::conditions::{Ended, Judge, Named};
use kw::discovery::{self, DiscoveryError, Requested};
use kw::discovery_cache::{ClusterKey, DiscoveryCache};
use kw::exit;
use kw::fleet::{Fleet, FleetOutcome, Member, MemberError};
use kw::output::is_closed_pipe;
use kw::plan::{GetPlan, PlanError, Request};
use kw::session::{Outcome, Session};
use kw::settings::{self, SettingsError};
use kw::watcher::WatchError;

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
    /// `KW_STREAMING_LIST=1`: a JSON watch starts from a streaming list (`sendInitialEvents`)
    /// instead of a gzipped LIST: fewer bytes held at once, many more on the wire.
    streaming_list: bool,
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
        Ok(Environment {
            idle_timeout,
            discovery_cache: kw::discovery_cache::default_dir(),
            streaming_list: std::env::var_os("KW_STREAMING_LIST").is_some_and(|v| v == "1"),
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
    Sim(#[from] kw_sim::SimError),
    #[error(transparent)]
    Manifest(#[from] kw::manifest::ManifestError),
    #[error(transparent)]
    Plan(#[from] PlanError),
    /// A condition or limit ended the watch (exit 0, or CONDITION_FAILED for --fail-on).
    #[error("{0}")]
    Ended(Ended),
    /// `--timeout` ran out.
    #[error("{0}")]
    Timeout(String),
    /// Writing to stdout failed (other than a closed pipe).
    #[error("writing output: {0}")]
    Output(#[source] io::Error),
    #[error("the server sent a response kw cannot read for {path}: {reason}")]
    BadResponse { path: &'static str, reason: String },
    #[error(transparent)]
    Contexts(#[from] kw::contexts::ContextSetError),
    /// A context of a run over several failed, and said so when it did: only the exit code is
    /// left to give.
    #[error("a context failed")]
    ContextFailed(i32),
    #[error(transparent)]
    Member(#[from] MemberError),
    /// A run over several contexts ended while some of them were unreachable.
    #[error("{0}")]
    Unwatched(String),
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
        Err(e) => return clap_exit(&e),
    };
    kw::log::set_level(cli.verbosity);
    let _ = ctrlc::set_handler(|| {
        // Ctrl-C, SIGTERM or SIGHUP: `kw demo` leaves no kubeconfig (with the simulator's
        // tokens) behind.
        if let Some(dir) = DEMO_DIR.get() {
            let _ = std::fs::remove_dir_all(dir);
        }
        std::process::exit(exit::INTERRUPTED)
    });

    let result = match cli.command {
        Command::Get(args) => run_get(args, &cli.config),
        Command::Demo(args) => run_demo(args, &cli.config),
        Command::Sim(passthrough) => return run_sim(passthrough.args),
        Command::Completion(args) => run_completion(args),
        Command::Version(args) => run_version(args, &cli.config),
    };
    exit_with(result)
}

/// The one place a run's result becomes stderr lines and an exit code.
fn exit_with(result: Result<(), KwError>) -> ExitCode {
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(err) => {
            let (lines, code) = report(&err);
            let mut stderr = io::stderr().lock();
            for line in lines {
                let _ = writeln!(stderr, "{}", kw::log::clean(&line));
            }
            ExitCode::from(code as u8)
        }
    }
}

/// What the request names, before discovery: type queries and their names, or a manifest's
/// objects (read once, here).
fn requested(request: &Request) -> Result<Vec<Requested>, KwError> {
    Ok(match request {
        Request::Manifest(path) => kw::manifest::load(path)?
            .into_iter()
            .map(|o| Requested {
                type_name: o.type_query(),
                names: vec![o.name],
                namespace: o.namespace,
            })
            .collect(),
        Request::Types(types) => types
            .iter()
            .map(|(t, names)| Requested {
                type_name: t.clone(),
                names: names.clone(),
                namespace: None,
            })
            .collect(),
    })
}

/// `kw get`: list, and with -w watch (or wait, with --until/--fail-on).
fn run_get(args: GetArgs, config: &ConfigFlags) -> Result<(), KwError> {
    let mut cached: Option<CachedTypes> = None;
    let result = run_get_resolved(args, config, &mut cached);
    // A collection the server no longer serves (a CRD deleted, a version dropped): the cached
    // resolution is stale; forget it so the next run asks discovery again.
    let type_gone = match &result {
        Err(KwError::Watch(WatchError::Client(e))) => is_type_gone(e),
        // A named GET answers 404 both for a missing object and for a missing type; only
        // the second is about the cache.
        Err(KwError::Watch(WatchError::NotFound(errors))) => errors.iter().any(is_type_gone),
        _ => false,
    };
    if let (true, Some(c)) = (type_gone, cached) {
        let mut cache = DiscoveryCache::open(Some(&c.dir), &c.key);
        for resource in &c.resources {
            cache.forget(resource);
        }
        cache.save();
    }
    result
}

/// A 404 about the collection itself ("the server could not find the requested resource"),
/// not about one object in it (whose Status names the object).
fn is_type_gone(error: &ClientError) -> bool {
    match error {
        ClientError::Status {
            code: 404, status, ..
        } => status
            .as_ref()
            .and_then(|s| s.details.as_ref())
            .is_none_or(|details| details.name.is_empty()),
        _ => false,
    }
}

/// Which cache the types of this run were resolved through.
struct CachedTypes {
    dir: PathBuf,
    key: ClusterKey,
    resources: Vec<kw::events::ResourceInfo>,
}

fn run_get_resolved(
    args: GetArgs,
    config: &ConfigFlags,
    cached: &mut Option<CachedTypes>,
) -> Result<(), KwError> {
    let plan = GetPlan::from_args(&args)?.with_namespace_flag(config.namespace.as_deref())?;
    let kubeconfig = settings::load_from_env(config)?;
    if let Some(contexts) =
        kw::contexts::choose(config.context.as_deref(), config.all_contexts, &kubeconfig)?
    {
        return run_fleet(plan, config, &kubeconfig, contexts);
    }
    let settings = settings::resolve_with_env(config, config.namespace.as_deref(), &kubeconfig)?;
    if settings.connection.insecure_skip_tls_verify {
        kw::log::notice("warning: --insecure-skip-tls-verify: the server's certificate is not verified; anyone on the network path can read and change this session");
    }
    let environment = Environment::read()?;
    let plan = plan.with_streaming_list(environment.streaming_list);
    let started = Instant::now();
    let mut client = Client::new(&settings.connection, environment.idle_timeout)?;
    client.limit_objects(plan.max_object_size);
    let deadlines = plan.deadlines(started, settings.connection.request_timeout);
    client.bound_by(deadlines.watcher());
    let key = ClusterKey::new(&settings.connection, settings.context.as_deref());
    let mut cache = DiscoveryCache::open(environment.discovery_cache.as_deref(), &key);
    let (wanted, _) =
        discovery::resolve_requested(&requested(&plan.request)?, &client, &mut cache, false)?;
    cache.save();
    if let Some(dir) = &environment.discovery_cache {
        *cached = Some(CachedTypes {
            dir: dir.clone(),
            key,
            resources: wanted.iter().map(|w| w.resource.clone()).collect(),
        });
    }
    let targets = plan.targets(wanted, &settings.namespace)?;
    let targets = kw::namespace_access::allowed_targets(&client, targets)?;
    let judge = plan.has_rules().then(|| {
        let named = targets
            .iter()
            .flat_map(|t| {
                t.names
                    .iter()
                    .map(|name| Named::new(&t.resource, t.namespace.clone(), name))
            })
            .collect();
        Judge::new(plan.rules.clone(), named, targets.len()).shared()
    });
    let terminal = kw::terminal::stdout_is_terminal();
    let color = kw::terminal::use_color(plan.output.color, terminal);
    let no_resources_message = plan.no_resources_message(&targets, &settings.namespace);
    let print_started = std::time::SystemTime::now();
    let print_targets = targets.clone();
    let print_options = |resource: &kw::events::ResourceInfo| {
        plan.print_options(resource, &print_targets, color, terminal, print_started)
    };
    let session = Session {
        client,
        with_kind: plan.with_kind(&targets),
        targets,
        options: plan.watcher_options(deadlines.watcher()),
        judge,
    };
    let printed = match session.run(&print_options)? {
        Outcome::ClosedPipe => return Ok(()),
        Outcome::Ended(ended) => return Err(KwError::Ended(ended)),
        Outcome::Done { printed } => printed,
    };
    if deadlines.timed_out(Instant::now()) {
        return Err(KwError::Timeout(format!(
            "error: {}",
            plan.timeout_message()
        )));
    }
    if printed == 0 && !plan.watching && !plan.output.format.prints_empty_list() {
        // kubectl says so on stderr, so that scripts reading stdout see nothing.
        eprintln!("{no_resources_message}");
    }
    Ok(())
}

/// `kw get` in several contexts at once (`--context a,b`, `--context 'prod-*'`,
/// `--all-contexts`), merged into one output.
fn run_fleet(
    plan: GetPlan,
    config: &ConfigFlags,
    kubeconfig: &kw::kubeconfig::Kubeconfig,
    contexts: Vec<String>,
) -> Result<(), KwError> {
    for (flag, given) in [
        ("--server", config.server.is_some()),
        ("--cluster", config.cluster.is_some()),
    ] {
        if given {
            return Err(KwError::Usage(format!(
                "error: {flag} would point every context at one cluster: drop it, or name one context"
            )));
        }
    }
    let environment = Environment::read()?;
    let plan = plan
        .for_several_contexts()
        .with_streaming_list(environment.streaming_list);
    let started = Instant::now();
    let request_timeout = match config.request_timeout.as_deref() {
        Some(value) => settings::parse_request_timeout(value)?,
        None => None,
    };
    let members: Vec<Member> = contexts
        .into_iter()
        .map(|name| {
            let flags = ConfigFlags {
                context: Some(name.clone()),
                all_contexts: false,
                ..config.clone()
            };
            Member {
                settings: settings::resolve_with_env(
                    &flags,
                    config.namespace.as_deref(),
                    kubeconfig,
                ),
                context: name.into(),
            }
        })
        .collect();
    let insecure: Vec<&str> = members
        .iter()
        .filter(|m| {
            m.settings
                .as_ref()
                .is_ok_and(|s| s.connection.insecure_skip_tls_verify)
        })
        .map(|m| &*m.context)
        .collect();
    if !insecure.is_empty() {
        kw::log::notice(&format!("warning: insecure-skip-tls-verify in context {}: the server's certificate is not verified; anyone on the network path can read and change this session", insecure.join(", ")));
    }
    let deadlines = plan.deadlines(started, request_timeout);
    let terminal = kw::terminal::stdout_is_terminal();
    let fleet = Fleet {
        requested: requested(&plan.request)?,
        members,
        idle_timeout: environment.idle_timeout,
        discovery_cache: environment.discovery_cache,
        deadline: deadlines.watcher(),
        color: kw::terminal::use_color(plan.output.color, terminal),
        terminal,
        plan: plan.clone(),
    };
    let on_failure = |context: &str, error: &MemberError| {
        let (lines, _) = member_report(error);
        let mut stderr = io::stderr().lock();
        for line in lines {
            let line = line.strip_prefix("error: ").unwrap_or(&line);
            let _ = writeln!(
                stderr,
                "{}",
                kw::log::clean(&format!("error: context \"{context}\": {line}"))
            );
        }
    };
    let FleetOutcome {
        outcome,
        failed,
        still_failing,
    } = fleet.run(&on_failure)?;
    let printed = match outcome {
        Outcome::ClosedPipe => return Ok(()),
        // A met condition decides the code; `--max-events` only ends the run, so a context
        // that failed still sets it (below).
        Outcome::Ended(ended @ (Ended::Until { .. } | Ended::FailOn { .. })) => {
            return Err(KwError::Ended(ended))
        }
        Outcome::Ended(ended) if failed.is_none() && still_failing.is_empty() => {
            return Err(KwError::Ended(ended))
        }
        Outcome::Ended(_) => 0,
        Outcome::Done { printed } => printed,
    };
    if deadlines.timed_out(Instant::now()) {
        return Err(KwError::Timeout(format!(
            "error: {}",
            plan.timeout_message()
        )));
    }
    if let Some((_, error)) = failed {
        return Err(KwError::ContextFailed(member_report(&error).1));
    }
    if !still_failing.is_empty() {
        let names: Vec<String> = still_failing.iter().map(|c| format!("\"{c}\"")).collect();
        return Err(KwError::Unwatched(format!(
            "error: the run ended while context {} could not be reached",
            names.join(", ")
        )));
    }
    if printed == 0 && !plan.watching && !plan.output.format.prints_empty_list() {
        eprintln!("No resources found");
    }
    Ok(())
}

/// `kw demo`: the simulated cluster in-process, with churn, and `kw get` against it over TLS.
fn run_demo(args: DemoArgs, outer: &ConfigFlags) -> Result<(), KwError> {
    if let Some(flag) = outer.cluster_choice() {
        return Err(KwError::Usage(format!(
            "error: kw demo watches its own simulated cluster: drop {flag}"
        )));
    }
    let config = kw_sim::SimConfig {
        churn: Some(args.churn),
        seed: args.seed,
        ..kw_sim::SimConfig::default()
    };
    let sim = kw_sim::start(config)?;
    // The kubeconfig holds the sim's tokens and client key: a fresh directory only the user
    // can enter, under a name nobody can plant in advance (mkdtemp, mode 0700).
    let mut builder = tempfile::Builder::new();
    builder.prefix("kw-demo-");
    #[cfg(unix)]
    builder.permissions(std::os::unix::fs::PermissionsExt::from_mode(0o700));
    let dir = builder.tempdir().map_err(|e| {
        KwError::Usage(format!(
            "error: creating a private directory in {}: {e}",
            std::env::temp_dir().display()
        ))
    })?;
    let _ = DEMO_DIR.set(dir.path().to_path_buf());
    let kubeconfig: PathBuf = dir.path().join("kubeconfig");
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
    let (get, mut config) = match Cli::try_parse_from(&argv) {
        Ok(Cli {
            command: Command::Get(get),
            config,
            ..
        }) => (get, config),
        Ok(_) => return Err(KwError::Usage("error: kw demo runs `kw get`".into())),
        Err(e) => return Err(KwError::Usage(e.to_string().trim_end().to_string())),
    };
    // `kw -n team-a demo` and `kw demo -- pods -n team-a` mean the same.
    config.namespace = config.namespace.or_else(|| outer.namespace.clone());
    config.request_timeout = config
        .request_timeout
        .or_else(|| outer.request_timeout.clone());
    let result = run_get(get, &config);
    drop(dir);
    result
}

/// `kw sim ARGS`: the simulator, with its own command line (`kw sim --help`).
fn run_sim(args: Vec<std::ffi::OsString>) -> ExitCode {
    use clap::Parser;
    let argv = std::iter::once(std::ffi::OsString::from("kw sim")).chain(args);
    let cli = match kw_sim::SimCli::try_parse_from(argv) {
        Ok(cli) => cli,
        Err(e) => return clap_exit(&e),
    };
    exit_with(kw_sim::run(cli.args).map_err(KwError::from))
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

/// `kw version`: kw's version, then (unless --client) the server's `/version`.
fn run_version(args: VersionArgs, config: &ConfigFlags) -> Result<(), KwError> {
    let client_version = concat!("Client Version: v", env!("CARGO_PKG_VERSION"), "\n");
    if !print_stdout(client_version)? || args.client {
        return Ok(());
    }
    let settings = settings::resolve_from_env(config, None)?;
    let environment = Environment::read()?;
    let client = Client::new(&settings.connection, environment.idle_timeout)?;
    let body = client.get("/version", "application/json")?;
    #[derive(serde::Deserialize)]
    struct ServerVersion {
        #[serde(rename = "gitVersion", default)]
        git_version: String,
    }
    let version: ServerVersion =
        serde_json::from_slice(&body).map_err(|e| KwError::BadResponse {
            path: "/version",
            reason: e.to_string(),
        })?;
    // Through `print_stdout`: the reader may have gone since the first line (`| head -1`).
    print_stdout(&format!(
        "Server Version: {}\n",
        kw::escape::escaped(&version.git_version)
    ))?;
    Ok(())
}

/// Write `text` to stdout now. `Ok(false)` when stdout is closed (`kw version | true`): kw then
/// ends quietly with status 0, where `println!` would panic.
fn print_stdout(text: &str) -> Result<bool, KwError> {
    let mut stdout = io::stdout().lock();
    match stdout
        .write_all(text.as_bytes())
        .and_then(|()| stdout.flush())
    {
        Ok(()) => Ok(true),
        Err(e) if is_closed_pipe(&e) => Ok(false),
        Err(e) => Err(KwError::Output(e)),
    }
}

/// Every error becomes its message lines and exit code here, and only here.
fn report(err: &KwError) -> (Vec<String>, i32) {
    match err {
        KwError::Usage(message) => (vec![message.clone()], exit::USAGE),
        KwError::Settings(e) => (vec![format!("error: {e}")], exit::USAGE),
        KwError::Client(e) => client_report(e),
        KwError::Discovery(e) => discovery_report(e),
        KwError::Watch(e) => watch_report(e),
        KwError::Sim(e) => (vec![format!("error: {e}")], exit::USAGE),
        KwError::Manifest(e) => (vec![format!("error: {e}")], exit::USAGE),
        KwError::Plan(e) => (vec![format!("error: {e}")], exit::USAGE),
        KwError::Ended(e @ Ended::FailOn { .. }) => {
            (vec![format!("error: {e}")], exit::CONDITION_FAILED)
        }
        KwError::Ended(e @ Ended::Until { .. }) => (vec![format!("kw: {e}")], exit::OK),
        KwError::Ended(_) => (vec![], exit::OK),
        KwError::Timeout(message) => (vec![message.clone()], exit::TIMEOUT),
        KwError::Output(e) => (vec![format!("error: {e}")], exit::SERVER_ERROR),
        KwError::BadResponse { .. } => (vec![format!("error: {err}")], exit::SERVER_ERROR),
        KwError::Contexts(e) => (vec![format!("error: {e}")], exit::USAGE),
        KwError::ContextFailed(code) => (vec![], *code),
        KwError::Member(e) => member_report(e),
        KwError::Unwatched(message) => (vec![message.clone()], exit::UNREACHABLE),
    }
}

/// A failed context's lines and code, worded as the same error of a single context.
fn member_report(error: &MemberError) -> (Vec<String>, i32) {
    match error {
        MemberError::Settings(e) => (vec![format!("error: {e}")], exit::USAGE),
        MemberError::Client(e) => client_report(e),
        MemberError::Discovery(e) => discovery_report(e),
        MemberError::Watch(e) => watch_report(e),
        MemberError::Plan(e) => (vec![format!("error: {e}")], exit::USAGE),
    }
}

fn discovery_report(error: &DiscoveryError) -> (Vec<String>, i32) {
    match error {
        DiscoveryError::Client(e) => client_report(e),
        e @ DiscoveryError::UnknownType(_) => (vec![format!("error: {e}")], exit::USAGE),
        e => (vec![format!("error: {e}")], exit::SERVER_ERROR),
    }
}

fn watch_report(error: &WatchError) -> (Vec<String>, i32) {
    match error {
        WatchError::Client(e) => client_report(e),
        WatchError::NotFound(errors) => {
            let lines = errors
                .iter()
                .map(|e| client_report(e).0.join(" "))
                .collect();
            (lines, exit::SERVER_ERROR)
        }
        e @ WatchError::TooManyNames(_) => (vec![format!("error: {e}")], exit::USAGE),
        // A printer that cannot print an object (a template that fails on it) says why itself.
        WatchError::Output(e) if e.kind() == io::ErrorKind::InvalidData => {
            (vec![format!("error: {e}")], exit::SERVER_ERROR)
        }
        e => (vec![format!("error: {e}")], exit::SERVER_ERROR),
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
        ClientError::DeadlinePassed { .. } => (vec![format!("error: {e}")], exit::TIMEOUT),
        _ => (vec![format!("error: {e}")], exit::SERVER_ERROR),
    }
}
