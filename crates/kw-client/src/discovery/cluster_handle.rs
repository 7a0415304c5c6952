//! Opening a cluster to ask: a context's client and its discovery cache (`ClusterHandle`), built
//! the same way for `kw get` (every member of a run) and for completion, from the connection and
//! the context name alone. Forgetting what the cache got wrong (a type the server no longer
//! serves) is decided here too, once.

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

use crate::client::{Client, ClientError, Shared};
use crate::config::connection::Connection;
use crate::discovery::cache::{ClusterKey, DiscoveryCache};
use kw_events::events::ResourceInfo;

/// A context's client, and the discovery cache kept for its cluster.
pub struct ClusterHandle {
    pub client: Client,
    pub cache: DiscoveryCache,
    /// Where the cache lives and under which key, to forget entries later (`None`: no cache).
    place: Option<(PathBuf, ClusterKey)>,
}

impl ClusterHandle {
    /// The client for `connection` (a watch silent for `idle_timeout` is dead), sharing what
    /// `shared` holds with the run's other clients, and the cache in `cache_dir` (none when
    /// `None`), kept under the cluster's address and `context`.
    pub fn open(
        connection: &Connection,
        context: Option<&str>,
        idle_timeout: Duration,
        cache_dir: Option<&Path>,
        shared: &Arc<Shared>,
    ) -> Result<ClusterHandle, ClientError> {
        ClusterHandle::open_with(
            Client::sharing(connection, idle_timeout, shared)?,
            connection,
            context,
            cache_dir,
            DiscoveryCache::open,
        )
    }

    /// As `open`, silent about a cache directory it cannot trust: completion prints nothing but
    /// candidates.
    pub fn open_quietly(
        connection: &Connection,
        context: Option<&str>,
        idle_timeout: Duration,
        cache_dir: Option<&Path>,
    ) -> Result<ClusterHandle, ClientError> {
        ClusterHandle::open_with(
            Client::new(connection, idle_timeout)?,
            connection,
            context,
            cache_dir,
            DiscoveryCache::open_quietly,
        )
    }

    fn open_with(
        client: Client,
        connection: &Connection,
        context: Option<&str>,
        cache_dir: Option<&Path>,
        open_cache: fn(Option<&Path>, &ClusterKey) -> DiscoveryCache,
    ) -> Result<ClusterHandle, ClientError> {
        let key = ClusterKey::new(connection, context);
        let cache = open_cache(cache_dir, &key);
        Ok(ClusterHandle {
            client,
            cache,
            place: cache_dir.map(|dir| (dir.to_path_buf(), key)),
        })
    }

    /// A handle that can later forget the cached resolution of `resources`.
    pub fn stale_types(&self, resources: Vec<ResourceInfo>) -> Option<CachedTypes> {
        let (dir, key) = self.place.clone()?;
        Some(CachedTypes {
            dir,
            key,
            resources,
        })
    }
}

/// The types a run resolved through the cache, kept so that a run that finds one gone makes the
/// next run ask discovery again.
#[derive(Debug, Clone)]
pub struct CachedTypes {
    dir: PathBuf,
    key: ClusterKey,
    resources: Vec<ResourceInfo>,
}

impl CachedTypes {
    /// After `error`: when it says a collection itself is gone (a CRD deleted, a version
    /// dropped), forget the cached resolution of this run's types.
    pub fn forget_if_gone(&self, error: &ClientError) {
        if !is_type_gone(error) {
            return;
        }
        let mut cache = DiscoveryCache::open(Some(&self.dir), &self.key);
        for resource in &self.resources {
            cache.forget(resource);
        }
        cache.save();
    }
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
