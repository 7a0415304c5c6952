//! `kw get`, run: the one runner, for one context and for several. A run is a set of members,
//! each a context with its settings, client, discovery, targets and watchers, all feeding one
//! output. One context is a set of one and prints exactly as kubectl does (no CONTEXT column,
//! kubectl's messages and exit codes); several contexts label each object with its context.
//!
//! - `member`: getting one context ready (client, discovery and its cache, targets), retried
//!   while a cluster recovers.
//! - `drive`: running the members' watchers and reading what they report; the one place that
//!   knows what ends a run.
//! - `outputs`: where the events go (a table per type for one context's list, else one stream).
//! - `evidence`: what the run found for the summary. A member's auxiliary watches
//!   (`kw_watcher::auxiliary`) feed the cause engine (`kw_wait::cause`), telling why a wait
//!   goes on.

mod container_log;
mod descriptors;
mod drive;
mod evidence;
mod following;
mod in_order;
pub mod logs;
mod logs_until;
mod logs_watch;
mod manifest_files;
mod member;
mod ordered;
mod outputs;
mod recording;
pub mod rollout;
mod turns;
pub mod wait;

use std::time::Instant;

use crate::cli::GetArgs;
use crate::plan::manifest::ManifestObject;
use crate::plan::{FlagPlan, GetPlan, PlanError, Request};
use crate::report::error::{KwError, UsageError};
use kw_base::notices;
use kw_base::notices::Notices;
use kw_client::config::environment::Environment;
use kw_client::config::flags::ConfigFlags;
use kw_client::config::settings;
use kw_client::discovery::{Requested, TypeAsked};

use crate::report::outcome::TimedOut;
pub use crate::report::outcome::{End, Outcome};

/// `kw get`: list, and with -w watch (or wait, with --until/--fail-on). `notices` are where
/// this process's notices go: `--live` holds them while it draws.
pub fn get(args: &GetArgs, config: &ConfigFlags, notices: &Notices) -> Result<Outcome, KwError> {
    get_saying(args, config, notices, None)
}

/// `get`, with `after_listing` said on stderr once the first list is printed (`kw demo`'s
/// banner, under the rows it explains).
pub fn get_saying(
    args: &GetArgs,
    config: &ConfigFlags,
    notices: &Notices,
    after_listing: Option<String>,
) -> Result<Outcome, KwError> {
    get_shaped(args, config, notices, |plan| {
        plan.after_listing = after_listing
    })
}

/// `get`, its plan shaped by `shape` before it runs (`kw logs -w --until`: the wait's own
/// output silenced, the logs on stdout).
fn get_shaped(
    args: &GetArgs,
    config: &ConfigFlags,
    notices: &Notices,
    shape: impl FnOnce(&mut GetPlan),
) -> Result<Outcome, KwError> {
    let mut plan = FlagPlan::from_args(args)?
        .with_namespace_flag(config.namespace.as_deref())?
        .with_request_timeout(config.request_timeout.as_deref())?
        .read_files(&|path| std::fs::read_to_string(path))?;
    shape(&mut plan);
    run_plan(plan, config, notices).map(|(finished, _)| finished)
}

/// Run a plan, whichever verb built it: how it finished, and what it found on the way (for a
/// verb that words the verdict itself, as `rollout status` does).
fn run_plan(
    plan: GetPlan,
    config: &ConfigFlags,
    notices: &Notices,
) -> Result<(Outcome, evidence::Evidence), KwError> {
    if plan.live && !kw_output::output::terminal::stdout_is_terminal() {
        return Err(PlanError::LiveWithoutTerminal.into());
    }
    let kubeconfig = settings::load_from_env(config)?;
    let chosen = kw_client::config::contexts::choose(
        config.context.as_deref(),
        config.all_contexts,
        &kubeconfig,
    )?;
    let members = match chosen {
        // kubectl's one context: its settings must resolve, or the run fails at once.
        None => vec![member::Member {
            context: None,
            settings: Ok(settings::resolve_with_env(
                config,
                config.namespace.as_deref(),
                &kubeconfig,
            )?),
        }],
        Some(names) => {
            refuse_flags_for_one_cluster(config)?;
            names
                .into_iter()
                .map(|name| {
                    let flags = ConfigFlags {
                        context: Some(name.clone()),
                        all_contexts: false,
                        ..config.clone()
                    };
                    member::Member {
                        settings: settings::resolve_with_env(
                            &flags,
                            config.namespace.as_deref(),
                            &kubeconfig,
                        ),
                        context: Some(name.into()),
                    }
                })
                .collect()
        }
    };
    let several = members.first().is_some_and(|m| m.context.is_some());
    let environment = Environment::read()?;
    let plan = if several {
        plan.for_several_contexts()
    } else {
        plan
    };
    let plan = plan.with_streaming_list(environment.streaming_list);
    let started = Instant::now();
    let deadlines = plan.deadlines(started);
    let kubectl_wait = matches!(
        plan.output.format,
        kw_output::output::printer::OutputFormat::ConditionMet { .. }
    );
    let (requested, sources) = requested(&plan.request, kubectl_wait)?;
    let plan = plan.with_manifest_order(requested.iter().flat_map(|r| r.names.iter().cloned()));
    // A fleet kw cannot hold open fails here, before any connection, in one line.
    if several {
        let limits = kw_base::descriptors::limits();
        descriptors::check(members.len(), requested.len(), limits)?;
    }
    warn_insecure(&members);
    let (mut outcome, evidence) = drive::run(
        drive::Run::new(
            plan.clone(),
            requested,
            environment,
            deadlines,
            members.len(),
            notices,
        ),
        members,
    )?;
    outcome.objects = evidence
        .judge
        .as_ref()
        .map_or_else(Vec::new, |judge| judge.every());
    outcome.sources = sources;
    outcome.timed_out = deadlines.timed_out(Instant::now()).then(|| TimedOut {
        after: plan.timeout.unwrap_or_default(),
        until: plan.rules.until.clone(),
    });
    let failed_by = match &outcome.end {
        End::Verdict(kw_wait::wait::Verdict::FailOn { by, .. }) => Some(by.clone()),
        _ => None,
    };
    // Why the wait failed or ran out, decided here once for every verb (its logs read once),
    // and said once, with the verdict.
    outcome.summary = (plan.summarize && (failed_by.is_some() || outcome.timed_out.is_some()))
        .then(|| evidence.summary(failed_by))
        .filter(|summary| !summary.is_empty())
        .map(|mut summary| {
            // Below `--live`'s last frame on a terminal, the compact block: the frame's verdict
            // stays on screen. Stderr to a file gets it whole.
            if plan.live && std::io::IsTerminal::is_terminal(&std::io::stderr()) {
                summary.compact = kw_output::output::terminal::stdout_width();
            }
            summary
        });
    if plan.watching || plan.output.format.prints_empty_list() {
        outcome.when_empty = None;
    }
    Ok((outcome, evidence))
}

/// Flags that would point every context at one cluster, or send one context's credential to
/// every context's server, make no sense with several contexts.
fn refuse_flags_for_one_cluster(config: &ConfigFlags) -> Result<(), UsageError> {
    for (flag, given) in [
        ("--server", config.server.is_some()),
        ("--cluster", config.cluster.is_some()),
    ] {
        if given {
            return Err(UsageError::OneClusterForAll { flag });
        }
    }
    for (flag, given) in [
        ("--user", config.user.is_some()),
        ("--token", config.token.is_some()),
        ("--client-certificate", config.client_certificate.is_some()),
        ("--client-key", config.client_key.is_some()),
    ] {
        if given {
            return Err(UsageError::OneCredentialForAll { flag });
        }
    }
    Ok(())
}

/// One warning for every context whose server's certificate will not be checked.
fn warn_insecure(members: &[member::Member]) {
    let insecure: Vec<&member::Member> = members
        .iter()
        .filter(|m| {
            m.settings
                .as_ref()
                .is_ok_and(|s| s.connection.insecure_skip_tls_verify)
        })
        .collect();
    let consequence = "the server's certificate is not verified; anyone on the network path can read and change this session";
    match insecure.as_slice() {
        [] => {}
        [one] if one.context.is_none() => notices::notice(&format!(
            "warning: --insecure-skip-tls-verify: {consequence}"
        )),
        several => {
            let names: Vec<&str> = several
                .iter()
                .filter_map(|m| m.context.as_deref())
                .collect();
            notices::notice(&format!(
                "warning: insecure-skip-tls-verify in context {}: {consequence}",
                names.join(", ")
            ))
        }
    }
}

/// What the request names, before discovery: type queries and their names, or a manifest's
/// objects (read once, here; a nameless one refused in kubectl wait's words under `wait`).
/// The manifest's objects come back too, each with its file and line (the CI reports'
/// annotations point there).
fn requested(
    request: &Request,
    kubectl_wait: bool,
) -> Result<(Vec<Requested>, Vec<ManifestObject>), KwError> {
    let requested = match request {
        Request::Manifest { paths, recursive } => {
            let objects =
                manifest_files::load_all(paths, *recursive).map_err(|e| match kubectl_wait {
                    true => e.in_kubectl_wait_words(),
                    false => e,
                })?;
            let requested = objects
                .iter()
                .map(|o| Requested {
                    asked: TypeAsked::Name(o.type_query()),
                    names: vec![o.name.clone()],
                    namespace: o.namespace.clone(),
                })
                .collect();
            return Ok((requested, objects));
        }
        Request::Types(types) => types
            .iter()
            .map(|(t, names)| Requested {
                asked: TypeAsked::Name(t.clone()),
                names: names.clone(),
                namespace: None,
            })
            .collect(),
        Request::Resolved(types) => types
            .iter()
            .map(|(resource, names)| Requested {
                asked: TypeAsked::Resolved(resource.clone()),
                names: names.clone(),
                namespace: None,
            })
            .collect(),
    };
    Ok((requested, Vec::new()))
}
