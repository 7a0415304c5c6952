//! One member of a run: a context with its settings, got ready to watch (client, discovery
//! through its cache, targets, the namespaces it may read). While several contexts are watched,
//! a cluster that is failing for a cause that can pass is retried with backoff until the
//! deadline; kubectl's one context fails at once (a typo in the address should not wait).

use std::sync::Arc;
use std::time::{Duration, Instant};

use crate::plan::GetPlan;
use crate::report::error::KwError;
use kw_base::notices;
use kw_base::permits::Permits;
use kw_client::client::backoff::{self, Backoff};
use kw_client::client::{Client, Shared};
use kw_client::config::environment::Environment;
use kw_client::config::settings::{Settings, SettingsError};
use kw_client::discovery::cluster_handle::{CachedTypes, ClusterHandle};
use kw_client::discovery::once::Discovered;
use kw_client::discovery::{self, DiscoveryError, Requested};
use kw_wait::wait::Named;
use kw_watcher::watcher::Target;

/// How many members get ready (connect, discover, check access) at once: a fleet of a thousand
/// contexts does not open a thousand connections and handshakes in the same instant.
const READYING_AT_ONCE: usize = 32;
/// How long one member's attempt counts against that: a cluster that answers nothing (its
/// connect waits out the timeout) lets the next member start then, never holding up the others'
/// first rows for longer.
const READYING_PATIENCE: Duration = Duration::from_secs(2);

/// The permits of getting ready, one set per run.
pub(super) fn readying() -> Permits {
    Permits::new(READYING_AT_ONCE, READYING_PATIENCE)
}

/// A context of the run (`None`: kubectl's one context) and its settings, or why they could
/// not be resolved (which fails that context only).
pub(super) struct Member {
    pub context: Option<Arc<str>>,
    pub settings: Result<Settings, SettingsError>,
}

/// A member ready to watch.
pub(super) struct Prepared {
    pub client: Arc<Client>,
    pub targets: Vec<Target>,
    /// To forget the cached types when the server says one is gone.
    pub stale: Option<CachedTypes>,
    /// What kubectl says when this member's one-shot list is empty.
    pub when_empty: Option<String>,
}

/// How getting a member ready ended, when it did not fail.
pub(super) enum Preparation {
    Ready(Prepared),
    /// The cluster lacks every requested type (several contexts only; said on stderr).
    Lacking(DiscoveryError),
    /// The deadline passed while the cluster was failing.
    GaveUp,
}

impl Prepared {
    /// The objects this member's targets name, for the judge of `--until`/`--fail-on`.
    pub(super) fn named(&self, context: Option<&Arc<str>>) -> Vec<Named> {
        self.targets
            .iter()
            .flat_map(|t| {
                t.names.iter().map(|name| {
                    let named = Named::new(&t.resource, t.namespace.clone(), name);
                    match context {
                        Some(context) => named.in_context(context),
                        None => named,
                    }
                })
            })
            .collect()
    }

    /// The types this member watches as collections (not by name), and their selectors
    /// (`label,field`, as one set of terms): what the judge says when none lists an object.
    pub(super) fn collections(&self) -> (Vec<String>, Option<String>) {
        let collections = self.targets.iter().filter(|t| t.names.is_empty());
        let kinds = collections
            .clone()
            .map(|t| t.resource.singular.clone())
            .collect();
        let selector = collections
            .map(|t| {
                [&t.label_selector, &t.field_selector]
                    .into_iter()
                    .flatten()
                    .map(String::as_str)
                    .collect::<Vec<_>>()
                    .join(",")
            })
            .find(|terms| !terms.is_empty());
        (kinds, selector)
    }
}

/// What getting a member ready reads of the run.
pub(super) struct Preparer<'a> {
    pub plan: &'a GetPlan,
    pub requested: &'a [Requested],
    pub environment: &'a Environment,
    /// When the watchers stop: retries give up then.
    pub deadline: Option<Instant>,
    /// Several contexts: a cluster failing for a cause that can pass is retried.
    pub several: bool,
    /// What the run's clients share (TLS configurations, plugin permits).
    pub shared: &'a Arc<Shared>,
    /// The discovery of identical servers, read once.
    pub discovered: &'a Discovered,
    /// A few members get ready at a time (`readying`); none holds a permit while it waits to
    /// retry.
    pub readying: &'a Permits,
}

impl Preparer<'_> {
    /// Get `settings` ready, retrying causes that can pass while several contexts are watched.
    pub(super) fn prepare(&self, settings: &Settings) -> Result<Preparation, KwError> {
        let retry = self.several && self.plan.watching;
        let mut backoff = Backoff::new(backoff::seed_from_clock());
        loop {
            let permit = self.readying.take();
            let attempt = self.try_prepare(settings);
            drop(permit);
            match attempt {
                Ok(ready) => {
                    notices::recovered();
                    return Ok(ready);
                }
                Err(e) if retry && e.is_transient() => {
                    let pause = backoff.failed(Instant::now());
                    notices::trouble(&format!("{e}; retrying in {:.1}s", pause.as_secs_f64()));
                    let wake = Instant::now().checked_add(pause);
                    if let (Some(deadline), Some(wake)) = (self.deadline, wake) {
                        if wake >= deadline {
                            std::thread::sleep(deadline.saturating_duration_since(Instant::now()));
                            return Ok(Preparation::GaveUp);
                        }
                    }
                    std::thread::sleep(pause);
                }
                Err(e) => return Err(e),
            }
        }
    }

    fn try_prepare(&self, settings: &Settings) -> Result<Preparation, KwError> {
        let plan = self.plan;
        let mut cluster = ClusterHandle::open(
            &settings.connection,
            settings.context.as_deref(),
            self.environment.idle_timeout,
            self.environment.discovery_cache.as_deref(),
            self.shared,
        )?;
        cluster.client.limit_objects(plan.max_object_size);
        cluster.client.bound_by(self.deadline);
        // With several contexts a CRD may exist in some clusters only: a type this one lacks
        // is said and skipped, not fatal.
        let (wanted, unknown) = self.discovered.resolve(&settings.connection, || {
            discovery::resolve_requested(
                self.requested,
                &cluster.client,
                &mut cluster.cache,
                self.several,
            )
        })?;
        cluster.cache.save();
        for name in &unknown {
            notices::notice(&format!(
                "the server doesn't have a resource type \"{name}\"; not watched in this context"
            ));
        }
        if wanted.is_empty() && !unknown.is_empty() {
            let name = unknown.into_iter().next().unwrap_or_default();
            return Ok(Preparation::Lacking(DiscoveryError::UnknownType(
                name, None,
            )));
        }
        let stale = cluster.stale_types(wanted.iter().map(|w| w.resource.clone()).collect());
        let targets = plan.targets(wanted, &settings.namespace)?;
        let targets =
            kw_watcher::watcher::namespace_access::allowed_targets(&cluster.client, targets)?;
        // Discovery may have come from the cache, without a request: the credential is got here
        // all the same, where members get ready side by side, not at the first list.
        cluster.client.get_credential()?;
        Ok(Preparation::Ready(Prepared {
            when_empty: plan.no_resources_message(&targets, &settings.namespace),
            client: Arc::new(cluster.client),
            targets,
            stale,
        }))
    }
}
