//! `kw logs`, run as kubectl 1.37 runs it: the Pods the arguments name (a Pod; a workload's
//! first Pod, picked as kubectl picks it; or every Pod of `-l`), their containers (`-c`, the
//! default one, or `--all-containers`), then each container's log copied to stdout
//! (`container_log`). One-shot logs are read one after the other; followed ones (`-f`) all at
//! once, each on a thread of its own, at most `--max-log-requests` of them. The Pods are those
//! present at the start, as kubectl's.

use std::io::{self, Write};
use std::sync::Mutex;
use std::time::Duration;

use serde_json::Value;

use super::container_log::{self, Copied, CopyError, LogOut};
use crate::cli::LogsArgs;
use crate::report::error::{KwError, LogsError};
use kw_client::client::{Client, ClientError};
use kw_client::config::environment::Environment;
use kw_client::config::flags::ConfigFlags;
use kw_client::config::settings;
use kw_client::pod_log::{self, encode, LogRequest};

/// kubectl's usage line, as its errors quote it.
const USAGE: &str = "expected 'logs [-f] [-p] (POD | TYPE/NAME) [-c CONTAINER]'.\nPOD or TYPE/NAME is a required argument for the logs command\nSee 'kw logs -h' for help and examples";

/// What the arguments name.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Target {
    Pod(String),
    /// A workload, by its API path segment (`deployments` of `apps/v1`) and name.
    Workload {
        group_version: &'static str,
        plural: &'static str,
        /// As kubectl names it in messages (`deployments.apps`).
        resource: &'static str,
        name: String,
    },
    Selector(String),
}

/// The workload types kw reads a selector of, by the names kubectl takes for them.
const WORKLOADS: &[(&[&str], &str, &str, &str)] = &[
    (
        &[
            "deployment",
            "deployments",
            "deploy",
            "deployment.apps",
            "deployments.apps",
        ],
        "apps/v1",
        "deployments",
        "deployments.apps",
    ),
    (
        &[
            "replicaset",
            "replicasets",
            "rs",
            "replicaset.apps",
            "replicasets.apps",
        ],
        "apps/v1",
        "replicasets",
        "replicasets.apps",
    ),
    (
        &[
            "statefulset",
            "statefulsets",
            "sts",
            "statefulset.apps",
            "statefulsets.apps",
        ],
        "apps/v1",
        "statefulsets",
        "statefulsets.apps",
    ),
    (
        &[
            "daemonset",
            "daemonsets",
            "ds",
            "daemonset.apps",
            "daemonsets.apps",
        ],
        "apps/v1",
        "daemonsets",
        "daemonsets.apps",
    ),
    (
        &["job", "jobs", "job.batch", "jobs.batch"],
        "batch/v1",
        "jobs",
        "jobs.batch",
    ),
];

const POD_WORDS: &[&str] = &["pod", "pods", "po"];

/// Whether kw reads the log of what `args` names itself; a type it does not know (a Service,
/// a CronJob, ...) is kubectl's to resolve, and the command line goes to kubectl.
pub fn takes(args: &LogsArgs) -> bool {
    match args.targets.first().and_then(|t| t.split_once('/')) {
        None => true,
        Some((kind, _)) => {
            let kind = kind.to_ascii_lowercase();
            POD_WORDS.contains(&kind.as_str())
                || WORKLOADS
                    .iter()
                    .any(|(words, ..)| words.contains(&kind.as_str()))
        }
    }
}

/// The command line checked, in kubectl's order and words.
struct Plan {
    target: Target,
    container: Option<String>,
    request: LogRequest,
    follow: bool,
}

fn plan(args: &LogsArgs) -> Result<Plan, LogsError> {
    let usage = |message: &str| LogsError::Usage(message.to_string());
    let mut container = args.container.clone();
    let target = match (args.targets.as_slice(), &args.selector) {
        ([], None) => return Err(usage(USAGE)),
        ([], Some(selector)) => Target::Selector(selector.clone()),
        (_, Some(_)) => return Err(usage(
            "only a selector (-l) or a POD name is allowed\nSee 'kw logs -h' for help and examples",
        )),
        ([first, rest @ ..], None) => {
            match rest {
                [] => {}
                [inline] if container.is_none() => container = Some(inline.clone()),
                [_] => {
                    return Err(usage(
                        "only one of -c or an inline [CONTAINER] arg is allowed",
                    ))
                }
                _ => return Err(usage(USAGE)),
            }
            target_of(first)
        }
    };
    if args.limit_bytes < 0 {
        return Err(usage("--limit-bytes must be greater than 0"));
    }
    if args.tail < -1 {
        return Err(usage("--tail must be greater than or equal to -1"));
    }
    if let (true, Some(name)) = (args.all_containers, &container) {
        return Err(LogsError::Usage(format!(
            "--all-containers=true should not be specified with container name {name}"
        )));
    }
    let since_seconds = match &args.since {
        None => None,
        Some(text) => {
            let since = parse_since(text)?;
            Some(since.as_secs() + u64::from(since.subsec_millis() >= 500))
        }
    };
    if let Some(text) = &args.since_time {
        if humantime::parse_rfc3339_weak(text).is_err() {
            return Err(LogsError::Usage(format!(
                "parsing time \"{text}\" as \"2006-01-02T15:04:05Z07:00\": cannot parse \"{text}\" as \"2006\""
            )));
        }
    }
    if since_seconds.is_some() && args.since_time.is_some() {
        return Err(usage(
            "at most one of `sinceTime` or `sinceSeconds` may be specified",
        ));
    }
    match kw_go::goformat::duration::parse(&args.pod_running_timeout) {
        Ok(timeout) if !timeout.is_zero() => {}
        _ => return Err(usage("--pod-running-timeout must be higher than zero")),
    }
    // kubectl shows the last 10 lines of each Pod of a selector unless told otherwise.
    let tail = match (args.tail, &target) {
        (-1, Target::Selector(_)) => Some(10),
        (-1, _) => None,
        (lines, _) => Some(lines as u64),
    };
    Ok(Plan {
        target,
        container,
        request: LogRequest {
            follow: args.follow,
            previous: args.previous,
            timestamps: args.timestamps,
            tail_lines: tail,
            since_seconds,
            since_time: args.since_time.clone(),
            limit_bytes: (args.limit_bytes > 0).then_some(args.limit_bytes as u64),
            ..LogRequest::default()
        },
        follow: args.follow,
    })
}

fn parse_since(text: &str) -> Result<Duration, LogsError> {
    if text.starts_with('-') {
        return Err(LogsError::Usage("--since must be greater than 0".into()));
    }
    match kw_go::goformat::duration::parse(text) {
        Ok(since) if !since.is_zero() => Ok(since),
        Ok(_) => Err(LogsError::Usage("--since must be greater than 0".into())),
        Err(_) => Err(LogsError::Usage(format!(
            "invalid argument \"{text}\" for \"--since\" flag: time: invalid duration \"{text}\""
        ))),
    }
}

fn target_of(word: &str) -> Target {
    let Some((kind, name)) = word.split_once('/') else {
        return Target::Pod(word.to_string());
    };
    let kind = kind.to_ascii_lowercase();
    if POD_WORDS.contains(&kind.as_str()) {
        return Target::Pod(name.to_string());
    }
    let (_, group_version, plural, resource) = WORKLOADS
        .iter()
        .find(|(words, ..)| words.contains(&kind.as_str()))
        .copied()
        .unwrap_or(WORKLOADS[0]);
    Target::Workload {
        group_version,
        plural,
        resource,
        name: name.to_string(),
    }
}

/// One container's log to read.
struct Source {
    request: LogRequest,
    prefix: String,
}

/// `kw logs`.
/// `kw logs`: how a wait it ran ended (`-w --until`), if it ran one.
pub fn logs(
    args: &LogsArgs,
    config: &ConfigFlags,
    notices: &kw_base::notices::Notices,
) -> Result<Option<super::Outcome>, KwError> {
    let plan = plan(args)?;
    let environment = Environment::read()?;
    let waits = !args.until.is_empty() || !args.fail_on.is_empty() || args.timeout.is_some();
    if args.watch && waits {
        let of = match &plan.target {
            Target::Pod(name) => super::logs_until::Of::Pod(name.clone()),
            Target::Selector(selector) => super::logs_until::Of::Selector(selector.clone()),
            Target::Workload { resource, name, .. } => {
                super::logs_until::Of::Workload(format!("{resource}/{name}"))
            }
        };
        return super::logs_until::until(args, of, config, notices).map(Some);
    }
    if args.watch {
        return watch(args, &plan, config, &environment).map(|()| None);
    }
    for (flag, given) in [
        ("-o", args.output.is_some()),
        ("--until", !args.until.is_empty()),
        ("--fail-on", !args.fail_on.is_empty()),
        ("--timeout", args.timeout.is_some()),
        ("--exclude-container", !args.exclude_container.is_empty()),
        ("--all-namespaces", args.all_namespaces),
        ("--include", !args.include.is_empty()),
        ("--exclude", !args.exclude.is_empty()),
    ] {
        if given {
            return Err(LogsError::Usage(format!("{flag} takes effect with -w: add -w")).into());
        }
    }
    logs_once(args, &plan, config, &environment).map(|()| None)
}

/// kubectl's `logs`: the Pods there now, each container read once or followed.
fn logs_once(
    args: &LogsArgs,
    plan: &Plan,
    config: &ConfigFlags,
    environment: &Environment,
) -> Result<(), KwError> {
    let settings = settings::resolve_from_env(config, None)?;
    let client = Client::new(&settings.connection, environment.idle_timeout)?;
    let namespace = settings.namespace.clone();
    let pods = pods(&client, &namespace, &plan.target)?;
    if pods.is_empty() {
        eprintln!("No resources found in {namespace} namespace.");
        return Ok(());
    }
    let mut sources = Vec::new();
    for pod in &pods {
        let name = pod["metadata"]["name"].as_str().unwrap_or("").to_string();
        for container in containers(pod, plan.container.as_deref(), args.all_containers)? {
            let prefix = if args.prefix {
                format!("[pod/{name}/{container}] ")
            } else {
                String::new()
            };
            sources.push(Source {
                request: LogRequest {
                    namespace: namespace.clone(),
                    pod: name.clone(),
                    container,
                    ..plan.request.clone()
                },
                prefix,
            });
        }
    }
    let out: Mutex<Box<dyn Write + Send>> = Mutex::new(Box::new(io::stdout()));
    let sink = LogOut {
        out: &out,
        escape: kw_output::output::terminal::stdout_is_terminal(),
    };
    if plan.follow && sources.len() > 1 {
        let limit = args.max_log_requests.max(0) as usize;
        if sources.len() > limit {
            return Err(LogsError::Usage(format!(
                "you are attempting to follow {} log streams, but maximum allowed concurrency is {limit}, use --max-log-requests to increase the limit",
                sources.len()
            ))
            .into());
        }
        return follow_all(&client, &sources, &sink, args.ignore_errors);
    }
    for source in &sources {
        match read_one(&client, source, &sink) {
            Ok(Copied::Ended) => {}
            Ok(Copied::Closed) => return Ok(()),
            Err(error) => return Err(error),
        }
    }
    Ok(())
}

/// `kw logs -w`: the query followed in each context the flags choose (one, or several).
fn watch(
    args: &LogsArgs,
    plan: &Plan,
    config: &ConfigFlags,
    environment: &Environment,
) -> Result<(), KwError> {
    super::logs_watch::refused_flags(args)?;
    let filters = super::logs_watch::filters(args, plan.container.as_deref())?;
    let kubeconfig = settings::load_from_env(config)?;
    let chosen = kw_client::config::contexts::choose(
        config.context.as_deref(),
        config.all_contexts,
        &kubeconfig,
    )?;
    let member = |context: Option<std::sync::Arc<str>>, flags: &ConfigFlags| {
        let settings = settings::resolve_with_env(flags, config.namespace.as_deref(), &kubeconfig)?;
        Ok::<_, KwError>(super::logs_watch::Member {
            context,
            client: Client::new(&settings.connection, environment.idle_timeout)?,
            namespace: settings.namespace,
        })
    };
    let members = match chosen {
        None => vec![member(None, config)?],
        Some(names) => names
            .into_iter()
            .map(|name| {
                let flags = ConfigFlags {
                    context: Some(name.clone()),
                    all_contexts: false,
                    ..config.clone()
                };
                member(Some(name.into()), &flags)
            })
            .collect::<Result<_, _>>()?,
    };
    let across = |namespace: &str| {
        let namespaces = super::logs_watch::Namespaces::of(args.all_namespaces, namespace)?;
        if !matches!(namespaces, super::logs_watch::Namespaces::One(_))
            && !matches!(plan.target, Target::Selector(_))
        {
            return Err(LogsError::Usage(
                "kw logs -w across namespaces (-A, or -n with a list or a glob) takes a selector (-l), not a name".into(),
            ));
        }
        Ok(namespaces)
    };
    // Each member's namespaces checked before any of them connects.
    for member in &members {
        across(&member.namespace)?;
    }
    let resolve = |client: &Client, namespace: &str| {
        let (label_selector, field_selector) = match &plan.target {
            Target::Selector(selector) => (Some(selector.clone()), None),
            Target::Pod(name) => (None, Some(format!("metadata.name={name}"))),
            workload => (Some(workload_selector(client, namespace, workload)?), None),
        };
        Ok(super::logs_watch::Query {
            namespace: across(namespace)?,
            label_selector,
            field_selector,
            container: filters.clone(),
            all_containers: args.all_containers,
        })
    };
    let jsonl = matches!(args.output.as_deref(), Some("json" | "jsonl"));
    super::logs_watch::follow(members, &resolve, jsonl)
}

/// kubectl's line for a follow's error it was told to ignore, written among the logs on
/// stdout as kubectl writes it: the server's message alone.
fn ignored(error: &KwError, sink: &LogOut<'_>) {
    let message = match error {
        KwError::Client(ClientError::Status {
            status: Some(status),
            ..
        }) if !status.message.is_empty() => status.message.clone(),
        other => other.to_string(),
    };
    let mut out = kw_base::mutex::lock(sink.out);
    let _ = writeln!(out, "error: {message}").and_then(|()| out.flush());
}

/// Every source followed at once; the first error ends the run unless errors are ignored.
fn follow_all(
    client: &Client,
    sources: &[Source],
    sink: &LogOut<'_>,
    ignore_errors: bool,
) -> Result<(), KwError> {
    let results: Vec<Result<Copied, KwError>> = std::thread::scope(|scope| {
        let handles: Vec<_> = sources
            .iter()
            .map(|source| scope.spawn(move || read_one(client, source, sink)))
            .collect();
        handles
            .into_iter()
            .map(|handle| {
                handle.join().unwrap_or_else(|_| {
                    Err(KwError::Output(io::Error::other("a log reader failed")))
                })
            })
            .collect()
    });
    for result in results {
        match result {
            Ok(_) => {}
            Err(error) if ignore_errors => ignored(&error, sink),
            Err(error) => return Err(error),
        }
    }
    Ok(())
}

fn read_one(client: &Client, source: &Source, sink: &LogOut<'_>) -> Result<Copied, KwError> {
    let mut stream = pod_log::open(client, &source.request, None)?;
    match container_log::copy(&mut stream, &source.prefix, sink) {
        Ok(copied) => Ok(copied),
        Err(CopyError::Read(e)) => Err(KwError::Client(client.broken(&e))),
        Err(CopyError::Write(e)) => Err(KwError::Output(e)),
    }
}

/// The Pods `target` names, as kubectl finds them.
fn pods(client: &Client, namespace: &str, target: &Target) -> Result<Vec<Value>, KwError> {
    match target {
        Target::Pod(name) => {
            let path = format!(
                "/api/v1/namespaces/{}/pods/{}",
                encode(namespace),
                encode(name)
            );
            Ok(vec![object(client, &path, namespace, "pods", name)?])
        }
        Target::Selector(selector) => list_pods(client, namespace, selector),
        Target::Workload { resource, name, .. } => {
            let selector = workload_selector(client, namespace, target)?;
            let mut pods = list_pods(client, namespace, &selector)?;
            if pods.is_empty() {
                return Err(LogsError::Usage(format!(
                    "timed out waiting for the condition: no pods of {resource}/{name} found"
                ))
                .into());
            }
            sort_by_logging(&mut pods);
            if pods.len() > 1 {
                eprintln!(
                    "Found {} pods, using pod/{}",
                    pods.len(),
                    pods[0]["metadata"]["name"].as_str().unwrap_or("")
                );
            }
            pods.truncate(1);
            Ok(pods)
        }
    }
}

/// The label selector of the workload `target` names (read from the server), as kubectl
/// reads it to find the workload's Pods.
fn workload_selector(client: &Client, namespace: &str, target: &Target) -> Result<String, KwError> {
    let Target::Workload {
        group_version,
        plural,
        resource,
        name,
    } = target
    else {
        return Ok(String::new());
    };
    let path = format!(
        "/apis/{group_version}/namespaces/{}/{plural}/{}",
        encode(namespace),
        encode(name)
    );
    let workload = object(client, &path, namespace, resource, name)?;
    Ok(selector_of(&workload["spec"]["selector"]))
}

/// GET one object; a missing one in kubectl's words for `logs`.
fn object(
    client: &Client,
    path: &str,
    namespace: &str,
    resource: &str,
    name: &str,
) -> Result<Value, KwError> {
    let body = client
        .get(path, "application/json")
        .map_err(|error| match error {
            ClientError::Status { code: 404, .. } => KwError::from(LogsError::NotFound {
                resource: resource.to_string(),
                name: name.to_string(),
                namespace: namespace.to_string(),
            }),
            other => KwError::Client(other),
        })?;
    serde_json::from_slice(&body).map_err(|e| KwError::BadResponse {
        path: "a Pod's or workload's object",
        reason: e.to_string(),
    })
}

fn list_pods(client: &Client, namespace: &str, selector: &str) -> Result<Vec<Value>, KwError> {
    let path = format!(
        "/api/v1/namespaces/{}/pods?labelSelector={}",
        encode(namespace),
        encode(selector)
    );
    let body = client.get_list(&path, "application/json")?;
    let list: Value = serde_json::from_slice(&body).map_err(|e| KwError::BadResponse {
        path: "a list of Pods",
        reason: e.to_string(),
    })?;
    Ok(list["items"].as_array().cloned().unwrap_or_default())
}

/// A `LabelSelector` written as a selector string (matchLabels, then matchExpressions).
fn selector_of(selector: &Value) -> String {
    let mut parts: Vec<String> = selector["matchLabels"]
        .as_object()
        .into_iter()
        .flatten()
        .map(|(key, value)| format!("{key}={}", value.as_str().unwrap_or("")))
        .collect();
    for expression in selector["matchExpressions"]
        .as_array()
        .into_iter()
        .flatten()
    {
        let key = expression["key"].as_str().unwrap_or("");
        let values: Vec<&str> = expression["values"]
            .as_array()
            .into_iter()
            .flatten()
            .filter_map(Value::as_str)
            .collect();
        parts.push(match expression["operator"].as_str().unwrap_or("") {
            "In" => format!("{key} in ({})", values.join(",")),
            "NotIn" => format!("{key} notin ({})", values.join(",")),
            "Exists" => key.to_string(),
            _ => format!("!{key}"),
        });
    }
    parts.join(",")
}

/// kubectl's `podutils.ByLogging`: the Pod whose log is most worth reading first.
fn sort_by_logging(pods: &mut [Value]) {
    fn phase_rank(pod: &Value) -> u8 {
        match pod["status"]["phase"].as_str() {
            Some("Running") => 0,
            Some("Unknown") => 1,
            Some("Pending") => 2,
            _ => 3,
        }
    }
    fn ready_since(pod: &Value) -> Option<String> {
        pod["status"]["conditions"]
            .as_array()
            .into_iter()
            .flatten()
            .find(|c| c["type"] == "Ready" && c["status"] == "True")
            .map(|c| c["lastTransitionTime"].as_str().unwrap_or("").to_string())
    }
    fn restarts(pod: &Value) -> u64 {
        pod["status"]["containerStatuses"]
            .as_array()
            .into_iter()
            .flatten()
            .filter_map(|s| s["restartCount"].as_u64())
            .max()
            .unwrap_or(0)
    }
    // A stable insertion sort, as Go's sort.Sort is on a slice this small.
    let before = |a: &Value, b: &Value| -> bool {
        let assigned = |p: &Value| {
            p["spec"]["nodeName"]
                .as_str()
                .is_some_and(|n| !n.is_empty())
        };
        if assigned(a) != assigned(b) {
            return assigned(a);
        }
        if phase_rank(a) != phase_rank(b) {
            return phase_rank(a) < phase_rank(b);
        }
        let (ready_a, ready_b) = (ready_since(a), ready_since(b));
        if ready_a.is_some() != ready_b.is_some() {
            return ready_a.is_some();
        }
        if let (Some(x), Some(y)) = (&ready_a, &ready_b) {
            if x != y {
                // Ready for longer first; an unset time last.
                return !x.is_empty() && (y.is_empty() || x < y);
            }
        }
        if restarts(a) != restarts(b) {
            return restarts(a) > restarts(b);
        }
        let created = |p: &Value| {
            p["metadata"]["creationTimestamp"]
                .as_str()
                .unwrap_or("")
                .to_string()
        };
        let (x, y) = (created(a), created(b));
        x != y && !x.is_empty() && (y.is_empty() || x < y)
    };
    for i in 1..pods.len() {
        let mut j = i;
        while j > 0 && before(&pods[j], &pods[j - 1]) {
            pods.swap(j, j - 1);
            j -= 1;
        }
    }
}

/// The containers of `pod` to read: `-c`'s, all (init, then the others, then ephemeral ones),
/// or the default one, said on stderr when there was a choice (kubectl's `Defaulted container`).
fn containers(pod: &Value, asked: Option<&str>, all: bool) -> Result<Vec<String>, KwError> {
    let names = |field: &str| -> Vec<String> {
        pod["spec"][field]
            .as_array()
            .into_iter()
            .flatten()
            .filter_map(|c| c["name"].as_str().map(str::to_string))
            .collect()
    };
    let (regular, init, ephemeral) = (
        names("containers"),
        names("initContainers"),
        names("ephemeralContainers"),
    );
    if all {
        return Ok(init.into_iter().chain(regular).chain(ephemeral).collect());
    }
    let pod_name = pod["metadata"]["name"].as_str().unwrap_or("");
    let described = || {
        regular
            .iter()
            .cloned()
            .chain(init.iter().map(|n| format!("{n} (init)")))
            .chain(ephemeral.iter().map(|n| format!("{n} (ephem)")))
            .collect::<Vec<_>>()
            .join(", ")
    };
    if let Some(asked) = asked {
        let known = regular
            .iter()
            .chain(&init)
            .chain(&ephemeral)
            .any(|n| n == asked);
        if !known {
            return Err(LogsError::Usage(format!(
                "container {asked} is not valid for pod {pod_name} out of: {}",
                described()
            ))
            .into());
        }
        return Ok(vec![asked.to_string()]);
    }
    let annotated = pod["metadata"]["annotations"]["kubectl.kubernetes.io/default-container"]
        .as_str()
        .filter(|name| regular.iter().any(|n| n == name));
    let chosen = match annotated.or(regular.first().map(String::as_str)) {
        Some(name) => name.to_string(),
        None => return Ok(Vec::new()),
    };
    if annotated.is_none() && (regular.len() > 1 || !init.is_empty() || !ephemeral.is_empty()) {
        eprintln!("Defaulted container \"{chosen}\" out of: {}", described());
    }
    Ok(vec![chosen])
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn targets_read_as_kubectl_reads_them() {
        assert_eq!(target_of("web-1"), Target::Pod("web-1".into()));
        assert_eq!(target_of("pod/web-1"), Target::Pod("web-1".into()));
        assert!(matches!(
            target_of("deploy/web"),
            Target::Workload {
                plural: "deployments",
                ..
            }
        ));
        assert!(matches!(
            target_of("jobs.batch/m"),
            Target::Workload { plural: "jobs", .. }
        ));
    }

    #[test]
    fn the_selector_of_a_workload_is_its_labels_then_its_expressions() {
        let selector = json!({"matchLabels": {"app": "web"},
            "matchExpressions": [{"key": "tier", "operator": "In", "values": ["a", "b"]}]});
        assert_eq!(selector_of(&selector), "app=web,tier in (a,b)");
    }

    #[test]
    fn a_running_ready_pod_is_read_before_a_pending_one() {
        let mut pods = vec![
            json!({"metadata": {"name": "b"}, "spec": {}, "status": {"phase": "Pending"}}),
            json!({"metadata": {"name": "a"}, "spec": {"nodeName": "n"}, "status": {"phase": "Running"}}),
        ];
        sort_by_logging(&mut pods);
        assert_eq!(pods[0]["metadata"]["name"], "a");
    }
}
