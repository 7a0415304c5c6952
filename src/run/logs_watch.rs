//! `kw logs -w`: following a query as stern does (issue 62, point 2). The Pods a selector
//! matches (a workload's selector, or one Pod by name) are watched, not listed once: every
//! container of each is followed (`following`), Pods that start later are picked up, deleted
//! ones let go, and a stream that ends is reopened from its last line, never showing one twice.
//! Lines go to stdout as `kubectl logs --prefix` writes them. It runs until Ctrl-C, or until
//! stdout's reader has gone.

use std::io;
use std::sync::Arc;

use kw_client::client::Client;
use kw_events::events::DepthBound;
use kw_events::events::{Event, Flow, ResourceInfo, Sink};
use kw_wait::following::Following;
use kw_watcher::watcher::{Options, Target, Watcher};
use kw_wire::EventType;

use super::following::{Follower, Shown};
use crate::plan::Logs;
use crate::report::error::{KwError, LogsError};

/// What `kw logs -w` follows: Pods of `namespace` matching `label_selector` (or the one named
/// by `field_selector`), their `container` only when given.
pub struct Query {
    pub namespace: String,
    pub label_selector: Option<String>,
    pub field_selector: Option<String>,
    pub container: Option<String>,
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

/// Follow `query` through `client` until the process ends.
pub fn follow(client: Client, query: Query) -> Result<(), KwError> {
    let client = Arc::new(client);
    let shown = Arc::new(Shown::on_stdout(
        kw_output::output::terminal::stdout_is_terminal(),
    ));
    let follower = Follower::of_containers(
        Arc::clone(&client),
        Logs::All,
        query.container.clone(),
        None,
        shown,
        None,
    );
    let target = Target {
        resource: pods(),
        namespace: Some(query.namespace.clone()),
        namespace_set: None,
        names: Vec::new(),
        label_selector: query.label_selector.clone(),
        field_selector: query.field_selector.clone(),
        include_object: false,
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
        give_up_at_start: true,
        streaming_list: false,
        tells_waits: false,
    };
    let mut feed = Feed {
        following: Following::new(follower.tell()),
    };
    // On main's stack, sized for the deepest object read (`main`).
    let mut watcher = Watcher::new(&client, target, options);
    watcher
        .run(&mut DepthBound::new(&mut feed))
        .map_err(KwError::Watch)?;
    Ok(())
}

/// The Pods watched, told to the follower: each one current while it exists.
struct Feed {
    following: Following,
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
        let label = format!("pod/{}", event.name);
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
