//! `kw rollout status`, run: each object's plan (`crate::plan::rollout`) through `get`'s runner,
//! one object after another as kubectl watches them; then the judgement of the object that
//! failed (kubectl's error line) and, on a failure or a timeout, kw's cause: the summary
//! `get --until ready` writes. Over several contexts, one run watches every object everywhere.

use crate::cli::RolloutStatusArgs;
use crate::plan::rollout::Objects;
use crate::plan::{GetPlan, Request};
use crate::report::error::KwError;
use crate::report::exit;
use crate::report::outcome::End;
use crate::report::outcome::{RolloutOutcome, RolloutRun};
use kw_base::notices::Notices;
use kw_client::config::flags::ConfigFlags;
use kw_events::readiness::State;

/// `kw rollout status TYPE/NAME...`: kubectl's lines on stdout until each rollout is done.
/// An object that fails (or does not exist) does not stop the next, as in kubectl; an error
/// that is not the object's own (a bad type, no cluster) ends the run at once.
pub fn status(
    args: &RolloutStatusArgs,
    config: &ConfigFlags,
    notices: &Notices,
) -> Result<RolloutRun, KwError> {
    if several_contexts(config)? {
        let plan = crate::plan::rollout::everywhere(args, config.request_timeout.as_deref())?;
        return Ok(RolloutRun {
            objects: vec![Ok(one(plan, config, notices)?)],
            when_empty: None,
        });
    }
    let mut run = RolloutRun::default();
    // Whether stdout's reader has gone: nobody reads the next object's lines.
    let mut closed = false;
    // `sources`: the manifest's object, where the CI reports point.
    let mut watch = |request: Request,
                     namespace: Option<String>,
                     sources: Vec<crate::plan::manifest::ManifestObject>|
     -> Result<(), KwError> {
        if closed {
            return Ok(());
        }
        let plan =
            crate::plan::rollout::for_object(args, request, config.request_timeout.as_deref())?;
        let config = ConfigFlags {
            namespace: namespace.or_else(|| config.namespace.clone()),
            ..config.clone()
        };
        let result = one(plan, &config, notices).map(|mut ended| {
            ended.finished.sources = sources;
            ended
        });
        match result {
            Err(error) if !is_the_objects_own(&error) => Err(error),
            result => {
                closed = matches!(&result, Ok(ended) if matches!(ended.finished.end, End::ClosedPipe { .. }));
                run.objects.push(result);
                Ok(())
            }
        }
    };
    match crate::plan::rollout::objects(args)? {
        Objects::Named(named) => {
            for (typed, name) in named {
                watch(Request::Types(vec![(typed, vec![name])]), None, Vec::new())?;
            }
        }
        Objects::Manifest(paths) => {
            for object in super::manifest_files::load_all(&paths, args.recursive)? {
                let request =
                    Request::Types(vec![(object.type_query(), vec![object.name.clone()])]);
                let namespace = object.namespace.clone();
                watch(request, namespace, vec![object])?;
            }
        }
        Objects::Selected { types, .. } => {
            let mut found = false;
            for typed in types {
                let request_timeout = config.request_timeout.as_deref();
                let plan = crate::plan::rollout::selection(args, &typed, request_timeout)?;
                let (finished, evidence) = super::run_plan(plan, config, notices)?;
                if finished.timed_out.is_some() && finished.failed.is_none() {
                    // The list itself outlasted `--timeout`: kubectl's timeout line, exit 3.
                    run.objects.push(Ok(RolloutOutcome {
                        finished,
                        failed: None,
                    }));
                    return Ok(run);
                }
                if let Some(failed) = finished.failed {
                    return Err(failed);
                }
                let seen = evidence.judge.map(|j| j.seen()).unwrap_or_default();
                if seen.is_empty() && run.when_empty.is_none() {
                    run.when_empty = finished.when_empty;
                }
                for (resource, namespace, name) in seen {
                    found = true;
                    // The list resolved the type: the watch takes it as it is.
                    watch(
                        Request::Resolved(vec![(resource, vec![name])]),
                        Some(namespace),
                        Vec::new(),
                    )?;
                }
            }
            if found {
                run.when_empty = None;
            }
        }
    }
    Ok(run)
}

/// Whether `--context`/`--all-contexts` chose several contexts (a glob or a list, even of one).
fn several_contexts(config: &ConfigFlags) -> Result<bool, KwError> {
    if config.context.is_none() && !config.all_contexts {
        return Ok(false);
    }
    let kubeconfig = kw_client::config::settings::load_from_env(config)?;
    let chosen = kw_client::config::contexts::choose(
        config.context.as_deref(),
        config.all_contexts,
        &kubeconfig,
    )?;
    Ok(chosen.is_some())
}

/// An error that belongs to one object (the server's 404 for it), after which kubectl goes on
/// to the next object.
fn is_the_objects_own(error: &KwError) -> bool {
    error.exit_code() == exit::SERVER_ERROR
}

/// Watch what `plan` names until its rollout is done: how it ended, and the object that
/// failed (kubectl's error names it).
fn one(plan: GetPlan, config: &ConfigFlags, notices: &Notices) -> Result<RolloutOutcome, KwError> {
    let (finished, evidence) = super::run_plan(plan, config, notices)?;
    let failed = evidence.judge.as_ref().and_then(|judge| {
        let mut unready = judge.unready().into_iter();
        unready.find(|object| object.judgement.state == State::Failed)
    });
    Ok(RolloutOutcome { finished, failed })
}
