//! `kw logs -w`: following a query as stern does (issue 62, point 2). The Pods a selector
//! matches (a workload's selector, or one Pod by name) are watched, not listed once: every
//! container of each is followed (`following`), Pods that start later are picked up, deleted
//! ones let go, and a stream that ends is reopened from its last line, never showing one twice.
//! Lines go to stdout as `kubectl logs --prefix` writes them. It runs until Ctrl-C, or until
//! stdout's reader has gone.

use std::io;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;

use kw_client::client::Client;
use kw_events::events::DepthBound;
use kw_events::events::{Event, Flow, ResourceInfo, Sink};
use kw_wait::following::Following;
use kw_watcher::watcher::namespaces::NamespaceSet;
use kw_watcher::watcher::{Options, Target, Watcher};
use kw_wire::EventType;

use super::following::{Follower, Setup, Shown};
use crate::plan::{LogFilters, Logs};
use crate::report::error::{KwError, LogsError};
use kw_base::notices::ContextScope;
use kw_events::decode::depth;

/// What `kw logs -w` follows in one context: Pods of `namespace` matching `label_selector` (or
/// the one named by `field_selector`), their `container` only when given.
pub struct Query {
    pub namespace: Namespaces,
    pub label_selector: Option<String>,
    pub field_selector: Option<String>,
    /// Only the containers and lines these choose (`-c`, `--exclude-container`, `--include`,
    /// `--exclude`).
    pub container: Option<LogFilters>,
    /// Init and ephemeral containers too (`--all-containers`).
    pub all_containers: bool,
}

/// Where a query's Pods are: one namespace, a set (`-n 'team-*'`, `-n a,b`), or all (`-A`).
/// Across several, each line's source names its namespace.
#[derive(Debug, Clone)]
pub enum Namespaces {
    One(String),
    Set(Arc<NamespaceSet>),
    All,
}

impl Namespaces {
    /// What `-A` and `-n` (a name, a comma list or a glob) choose, or why not.
    pub fn of(all: bool, namespace: &str) -> Result<Namespaces, LogsError> {
        if all {
            return Ok(Namespaces::All);
        }
        match NamespaceSet::parse(namespace) {
            Ok(None) => Ok(Namespaces::One(namespace.to_string())),
            Ok(Some(set)) => Ok(Namespaces::Set(Arc::new(set))),
            Err(e) => Err(LogsError::Usage(e.to_string())),
        }
    }

    fn several(&self) -> bool {
        !matches!(self, Namespaces::One(_))
    }
}

/// One context followed: its name (over several), its client, and what it follows (read from
/// its server by `resolve`, since a workload's selector is each cluster's own).
pub struct Member {
    pub context: Option<Arc<str>>,
    pub client: Client,
    pub namespace: String,
}

/// The flags of one-shot and followed logs that `-w` does not take (yet): refused by name
/// rather than ignored.
pub fn refused_flags(args: &crate::cli::LogsArgs) -> Result<(), LogsError> {
    let given = [
        ("--previous", args.previous),
        ("--timestamps", args.timestamps),
        ("--since", args.since.is_some()),
        ("--since-time", args.since_time.is_some()),
        ("--limit-bytes", args.limit_bytes != 0),
        ("--tail", args.tail != -1),
    ];
    match given.into_iter().find(|(_, given)| *given) {
        Some((flag, _)) => Err(LogsError::Usage(format!(
            "kw logs -w does not take {flag}: it shows each container from its start (its last 10 lines when it was already running)"
        ))),
        None => Ok(()),
    }
}

/// `-w`'s container and line patterns (`container`: `-c`'s, or the inline CONTAINER), compiled
/// before any I/O; `None` when none is given.
pub fn filters(
    args: &crate::cli::LogsArgs,
    container: Option<&str>,
) -> Result<Option<LogFilters>, LogsError> {
    let none = container.is_none()
        && args.exclude_container.is_empty()
        && args.include.is_empty()
        && args.exclude.is_empty();
    if none {
        return Ok(None);
    }
    LogFilters::parse(
        container,
        &args.exclude_container,
        &args.include,
        &args.exclude,
    )
    .map(Some)
    .map_err(|e| LogsError::Usage(e.to_string()))
}

/// How a member's query is read from its server.
pub type Resolve<'a> = dyn Fn(&Client, &str) -> Result<Query, KwError> + Sync + 'a;

/// Follow each member's query, side by side, until the process ends; `jsonl`: one JSON object
/// a line (`-o jsonl`). A context that fails says so and the others go on; the run ends with
/// the first error once every context has ended.
pub fn follow(members: Vec<Member>, resolve: &Resolve<'_>, jsonl: bool) -> Result<(), KwError> {
    let shown = Arc::new(Shown::on_stdout(
        kw_output::output::terminal::stdout_is_terminal(),
        jsonl,
    ));
    let several = members.len() > 1;
    let remaining = AtomicUsize::new(members.len());
    let remaining = &remaining;
    // Each context's end: whether it ended well (false: it failed and said so), or the error
    // that is the run's.
    let results: Vec<Result<bool, KwError>> = std::thread::scope(|threads| {
        let running: Vec<_> = members
            .into_iter()
            .map(|member| {
                let shown = Arc::clone(&shown);
                std::thread::Builder::new()
                    .stack_size(depth::STACK)
                    .spawn_scoped(threads, move || {
                        let scope = member.context.clone().map(ContextScope::new);
                        if let Some(scope) = &scope {
                            scope.enter();
                        }
                        let context = member.context.clone();
                        let result = follow_one(member, resolve, shown, scope);
                        let others = remaining.fetch_sub(1, Ordering::SeqCst) > 1;
                        // Over several contexts, one that fails says so at once while others
                        // go on; the last one's error is the run's, said once, at its end.
                        match (result, context) {
                            (Err(error), Some(context)) if others => {
                                crate::report::error(&KwError::InContext {
                                    context,
                                    error: Box::new(error),
                                })
                                .print();
                                Ok(false)
                            }
                            (Err(error), Some(context)) if several => Err(KwError::InContext {
                                context,
                                error: Box::new(error),
                            }),
                            (result, _) => result.map(|()| true),
                        }
                    })
            })
            .collect();
        running
            .into_iter()
            .map(|spawned| match spawned {
                Ok(thread) => thread.join().unwrap_or_else(|_| {
                    Err(KwError::Output(io::Error::other("a follower failed")))
                }),
                Err(error) => Err(KwError::Output(error)),
            })
            .collect()
    });
    match results.into_iter().find(Result::is_err) {
        Some(Err(error)) => Err(error),
        _ => Ok(()),
    }
}

/// One context's query watched and followed.
fn follow_one(
    member: Member,
    resolve: &Resolve<'_>,
    shown: Arc<Shown>,
    scope: Option<ContextScope>,
) -> Result<(), KwError> {
    let query = resolve(&member.client, &member.namespace)?;
    let client = Arc::new(member.client);
    let follower = Follower::start(Setup {
        client: Arc::clone(&client),
        which: Logs::All,
        container: query.container.clone(),
        all_containers: query.all_containers,
        deadline: None,
        shown,
        scope,
    });
    let (namespace, namespace_set) = match &query.namespace {
        Namespaces::One(namespace) => (Some(namespace.clone()), None),
        Namespaces::Set(set) => (None, Some(Arc::clone(set))),
        Namespaces::All => (None, None),
    };
    let target = Target {
        resource: pods(),
        namespace,
        namespace_set,
        names: Vec::new(),
        label_selector: query.label_selector.clone(),
        field_selector: query.field_selector.clone(),
        include_object: false,
        subresource: None,
    };
    let options = Options {
        table: false,
        chunk_size: 500,
        watch: true,
        print_list: true,
        deadline: None,
        // The API server's own bound on an object, as `rollout status` and `wait` take it.
        max_object_size: 64 << 20,
        named_must_exist: false,
        give_up_at_start: member.context.is_none(),
        streaming_list: false,
        tells_waits: false,
    };
    let mut feed = Feed {
        following: Following::new(follower.tell()),
        context: member.context,
        namespaced: query.namespace.several(),
    };
    let mut watcher = Watcher::new(&client, target, options);
    watcher
        .run(&mut DepthBound::new(&mut feed))
        .map_err(KwError::Watch)?;
    Ok(())
}

/// The Pods watched, told to the follower: each one current while it exists.
struct Feed {
    following: Following,
    /// Over several contexts, each line's source names its context.
    context: Option<Arc<str>>,
    /// Over several namespaces, each line's source names its namespace.
    namespaced: bool,
}

impl Sink for Feed {
    fn event(&mut self, event: &Event<'_>) -> io::Result<Flow> {
        let Some(uid) = uid_of(event.object.get()) else {
            return Ok(Flow::Continue);
        };
        if event.kind == EventType::Deleted {
            self.following.gone(&uid);
            return Ok(Flow::Continue);
        }
        let mut label = format!("pod/{}", event.name);
        if self.namespaced {
            label = format!("{}/{label}", event.namespace);
        }
        if let Some(context) = &self.context {
            label = format!("{context}/{label}");
        }
        let json = event.object.get();
        if self
            .following
            .pod(&uid, event.namespace, event.name, &label, json)
            .is_some()
        {
            self.following.set_current(&uid, true);
        }
        Ok(Flow::Continue)
    }

    fn checkpoint(&mut self, _more_ready: bool) -> io::Result<Flow> {
        Ok(Flow::Continue)
    }
}

fn uid_of(json: &str) -> Option<String> {
    #[derive(serde::Deserialize)]
    struct Meta {
        metadata: Uid,
    }
    #[derive(serde::Deserialize)]
    struct Uid {
        uid: String,
    }
    serde_json::from_str::<Meta>(json)
        .ok()
        .map(|m| m.metadata.uid)
        .filter(|uid| !uid.is_empty())
}

fn pods() -> ResourceInfo {
    ResourceInfo {
        plural: "pods".into(),
        singular: "pod".into(),
        kind: "Pod".into(),
        group: String::new(),
        version: "v1".into(),
        namespaced: true,
    }
}
