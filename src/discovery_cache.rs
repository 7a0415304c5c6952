//! A small on-disk cache of resolved resource types, one file per server, so that a warm
//! `kw get deploy` asks the server nothing before its LIST (discovery of a non-core type costs
//! three requests). Only successful resolutions are kept, for six hours as kubectl keeps its
//! discovery cache; a type the server no longer serves (404 on its collection) is forgotten, and
//! a name the cache does not know goes to the server. A broken or unwritable cache is ignored:
//! it can only make kw slower, never wrong.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use serde::{Deserialize, Serialize};

use crate::events::ResourceInfo;

/// How long a resolution is trusted.
pub const TTL: Duration = Duration::from_secs(6 * 60 * 60);

#[derive(Debug, Default, Serialize, Deserialize)]
struct CacheFile {
    /// What the user typed (lower-cased) → when it was resolved, and to which types.
    entries: BTreeMap<String, Entry>,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
struct Entry {
    resolved_at: u64,
    types: Vec<ResourceInfo>,
}

pub struct DiscoveryCache {
    path: Option<PathBuf>,
    file: CacheFile,
    dirty: bool,
}

impl DiscoveryCache {
    /// The cache for `server` in `dir` (`None`: no cache at all).
    pub fn open(dir: Option<&Path>, server: &str) -> DiscoveryCache {
        let path = dir.map(|dir| dir.join(format!("{}.json", file_name(server))));
        let file = path
            .as_ref()
            .and_then(|p| std::fs::read(p).ok())
            .and_then(|bytes| serde_json::from_slice(&bytes).ok())
            .unwrap_or_default();
        DiscoveryCache {
            path,
            file,
            dirty: false,
        }
    }

    /// The types `typed` resolved to, if resolved less than `TTL` ago.
    pub fn get(&self, typed: &str, now: SystemTime) -> Option<Vec<ResourceInfo>> {
        let entry = self.file.entries.get(&typed.to_ascii_lowercase())?;
        let age = seconds(now).saturating_sub(entry.resolved_at);
        (age < TTL.as_secs() && !entry.types.is_empty()).then(|| entry.types.clone())
    }

    pub fn put(&mut self, typed: &str, types: &[ResourceInfo], now: SystemTime) {
        self.file.entries.insert(
            typed.to_ascii_lowercase(),
            Entry {
                resolved_at: seconds(now),
                types: types.to_vec(),
            },
        );
        self.dirty = true;
    }

    /// Drop every resolution that led to `resource` (the server no longer serves it).
    pub fn forget(&mut self, resource: &ResourceInfo) {
        let before = self.file.entries.len();
        self.file
            .entries
            .retain(|_, entry| !entry.types.contains(resource));
        self.dirty |= self.file.entries.len() != before;
    }

    /// Write the cache back if it changed; failures are ignored (it is only a cache).
    pub fn save(&mut self) {
        let Some(path) = &self.path else {
            return;
        };
        if !self.dirty {
            return;
        }
        let Ok(bytes) = serde_json::to_vec(&self.file) else {
            return;
        };
        if let Some(dir) = path.parent() {
            let _ = std::fs::create_dir_all(dir);
        }
        // Write then rename, so a concurrent kw never reads half a file.
        let temp = path.with_extension(format!("tmp{}", std::process::id()));
        if std::fs::write(&temp, bytes).is_ok() && std::fs::rename(&temp, path).is_err() {
            let _ = std::fs::remove_file(&temp);
        }
        self.dirty = false;
    }
}

fn seconds(time: SystemTime) -> u64 {
    time.duration_since(UNIX_EPOCH)
        .map(|d| d.as_secs())
        .unwrap_or(0)
}

/// `https://10.0.0.1:6443/k8s` → `https_10.0.0.1_6443_k8s`: one file per server address.
fn file_name(server: &str) -> String {
    server
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '.' || c == '-' {
                c
            } else {
                '_'
            }
        })
        .collect::<String>()
        .split('_')
        .filter(|part| !part.is_empty())
        .collect::<Vec<_>>()
        .join("_")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn deployments() -> ResourceInfo {
        ResourceInfo {
            plural: "deployments".into(),
            singular: "deployment".into(),
            kind: "Deployment".into(),
            group: "apps".into(),
            version: "v1".into(),
            namespaced: true,
        }
    }

    #[test]
    fn remembers_resolutions_across_opens_until_they_expire() {
        let dir = tempfile::tempdir().unwrap();
        let now = SystemTime::now();
        let mut cache = DiscoveryCache::open(Some(dir.path()), "https://127.0.0.1:6443");
        assert!(cache.get("deploy", now).is_none());
        cache.put("Deploy", &[deployments()], now);
        cache.save();

        let cache = DiscoveryCache::open(Some(dir.path()), "https://127.0.0.1:6443");
        assert_eq!(cache.get("deploy", now), Some(vec![deployments()]));
        assert!(cache.get("deploy", now + TTL).is_none(), "expired");
        let other = DiscoveryCache::open(Some(dir.path()), "https://127.0.0.1:7443");
        assert!(other.get("deploy", now).is_none(), "per server");
    }

    #[test]
    fn forgets_a_type_the_server_no_longer_serves() {
        let dir = tempfile::tempdir().unwrap();
        let now = SystemTime::now();
        let mut cache = DiscoveryCache::open(Some(dir.path()), "s");
        cache.put("deploy", &[deployments()], now);
        cache.put("deployments.apps", &[deployments()], now);
        cache.forget(&deployments());
        cache.save();
        let cache = DiscoveryCache::open(Some(dir.path()), "s");
        assert!(cache.get("deploy", now).is_none());
        assert!(cache.get("deployments.apps", now).is_none());
    }

    #[test]
    fn a_broken_cache_file_is_ignored() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(
            dir.path().join(format!("{}.json", file_name("s"))),
            "{not json",
        )
        .unwrap();
        let cache = DiscoveryCache::open(Some(dir.path()), "s");
        assert!(cache.get("deploy", SystemTime::now()).is_none());
        assert_eq!(
            file_name("https://[::1]:6443/k8s/c-1"),
            "https_1_6443_k8s_c-1"
        );
    }
}
