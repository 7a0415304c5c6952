//! Discovery kept on disk, one small file per cluster, so that a warm `kw get deploy` asks
//! the server nothing before its LIST: resolved type names, and the server's whole answer (every
//! group version's types, as `discovery` reads them; opaque here), so that any other name, a
//! category or completion is answered without asking either. Entries are kept six hours, as
//! kubectl keeps its discovery cache; a type the server no longer serves (404 on its collection)
//! is forgotten with the answer that named it, and a name the cache does not know goes to the
//! server. A broken or unwritable cache is ignored: it can only make kw slower, never wrong.
//!
//! A cluster is its server address *and* who vouches for it (the CA, the TLS server name) and
//! the context: kind, minikube, k3d and port-forwards all live at `https://127.0.0.1:PORT`, and
//! one of them must never answer for another. Files are the user's own (0600, directory 0700),
//! and a directory that already exists is used only if it is too: one that another user owns or
//! may write could hold a planted file that sends `kw get pods` to some other resource. The
//! directory is opened once and checked as opened, and every directory on the way to it must be
//! safe from other users too (`private_file::PrivateDir`): a symlink swapped in between a check
//! and a read cannot redirect either.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use serde::{Deserialize, Serialize};

use crate::config::connection::Connection;
use crate::config::endpoint::TrustRoots;
use kw_base::private_file::{DirError, PrivateDir};
use kw_events::events::ResourceInfo;

/// How long a resolution is trusted.
pub const TTL: Duration = Duration::from_secs(6 * 60 * 60);

#[derive(Debug, Default, Serialize, Deserialize)]
struct CacheFile {
    /// What the user typed (lower-cased) → when it was resolved, and to which types.
    entries: BTreeMap<String, Entry>,
    /// The server's whole discovery answer, when one was read whole.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    answer: Option<Answer>,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
struct Answer {
    resolved_at: u64,
    served: serde_json::Value,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
struct Entry {
    resolved_at: u64,
    types: Vec<ResourceInfo>,
}

pub struct DiscoveryCache {
    /// The directory as named, and the file's name in it (`None`: no cache).
    place: Option<(PathBuf, String)>,
    /// The directory, opened once and checked (`None`: not there yet, or not to be trusted).
    dir: Option<PrivateDir>,
    /// The directory was refused: never write to it, even if it is made later.
    refused: bool,
    file: CacheFile,
    dirty: bool,
}

/// Which cluster a cache belongs to: the server address (readable, in the file name) and a
/// digest of everything else that tells two clusters at one address apart.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ClusterKey {
    server: String,
    digest: u64,
}

impl ClusterKey {
    pub fn new(connection: &Connection, context: Option<&str>) -> ClusterKey {
        let mut digest = Fnv64::default();
        match &connection.roots {
            TrustRoots::Platform => digest.write(b"platform"),
            TrustRoots::Bundle { certs, .. } => {
                for cert in certs {
                    digest.write(cert.as_ref());
                }
            }
        }
        digest.write(&[0, u8::from(connection.insecure_skip_tls_verify)]);
        digest.write(
            connection
                .tls_server_name
                .as_deref()
                .unwrap_or("")
                .as_bytes(),
        );
        digest.write(&[0]);
        digest.write(context.unwrap_or("").as_bytes());
        ClusterKey {
            server: connection.server.to_string(),
            digest: digest.0,
        }
    }

    fn file_name(&self) -> String {
        format!("{}-{:016x}.json", file_name(&self.server), self.digest)
    }
}

/// FNV-1a: stable across Rust versions and builds (a file name must not change with them),
/// and plenty to tell a handful of clusters apart. Not a security boundary.
struct Fnv64(u64);

impl Default for Fnv64 {
    fn default() -> Fnv64 {
        Fnv64(0xcbf2_9ce4_8422_2325)
    }
}

impl Fnv64 {
    fn write(&mut self, bytes: &[u8]) {
        for &byte in bytes {
            self.0 ^= u64::from(byte);
            self.0 = self.0.wrapping_mul(0x0100_0000_01b3);
        }
    }
}

/// A cache file larger than this is not read: kw writes a few hundred KiB at most, and a
/// discovery answer over 64 MiB is refused anyway.
const MAX_FILE: u64 = 64 << 20;

/// Warn once per run, however many clusters open the cache.
fn warn_once(dir: &Path, why: &str) {
    static WARNED: std::sync::Once = std::sync::Once::new();
    WARNED.call_once(|| {
        kw_base::notices::notice(&format!(
            "warning: not using the discovery cache {}: {why}",
            dir.display()
        ))
    });
}

/// Say why the cache directory `dir` is not used: a directory that is not the user's alone with
/// `distrusted` (a warning, normally: it was changed after kw made it); a directory on the way
/// that others may change, or any other failure, at `-v` only. The command goes on either way.
fn explain(dir: &Path, error: DirError, distrusted: &dyn Fn(&Path, &str)) {
    match error {
        DirError::Missing => {}
        DirError::Untrusted { why } => distrusted(dir, &why),
        error => kw_base::vlog!(
            kw_base::log::REQUESTS,
            "not using the discovery cache {}: {error}",
            dir.display()
        ),
    }
}

impl DiscoveryCache {
    /// The cache of the cluster `key` in `dir` (`None`: no cache at all). A directory kw
    /// cannot trust (`PrivateDir::open`) means no cache, with a one-line warning.
    pub fn open(dir: Option<&Path>, key: &ClusterKey) -> DiscoveryCache {
        DiscoveryCache::open_trusted(dir, key, warn_once)
    }

    /// As `open`, but silent about a directory it cannot trust (completion writes nothing
    /// but candidates).
    pub fn open_quietly(dir: Option<&Path>, key: &ClusterKey) -> DiscoveryCache {
        DiscoveryCache::open_trusted(dir, key, |_, _| {})
    }

    fn open_trusted(
        dir: Option<&Path>,
        key: &ClusterKey,
        distrusted: impl Fn(&Path, &str),
    ) -> DiscoveryCache {
        let name = key.file_name();
        let (handle, refused) = match dir.map(|dir| (dir, PrivateDir::open(dir, false))) {
            None | Some((_, Err(DirError::Missing))) => (None, false),
            Some((_, Ok(handle))) => (Some(handle), false),
            Some((dir, Err(error))) => {
                explain(dir, error, &distrusted);
                (None, true)
            }
        };
        let file = handle
            .as_ref()
            .and_then(|handle| handle.read(&name, MAX_FILE).ok())
            .and_then(|bytes| serde_json::from_slice(&bytes).ok())
            .unwrap_or_default();
        DiscoveryCache {
            place: dir.map(|dir| (dir.to_path_buf(), name)),
            dir: handle,
            refused,
            file,
            dirty: false,
        }
    }

    /// A cache holding what `bytes` say, read as `open` reads its file, with nowhere to save
    /// to. Public for the `discovery` fuzz target (fuzz/, issue 33): a file on disk may hold
    /// anything, whatever kw wrote there.
    pub fn from_file_bytes(bytes: &[u8]) -> DiscoveryCache {
        DiscoveryCache {
            place: None,
            dir: None,
            refused: false,
            file: serde_json::from_slice(bytes).unwrap_or_default(),
            dirty: false,
        }
    }

    /// What `save` writes.
    pub fn file_bytes(&self) -> Option<Vec<u8>> {
        serde_json::to_vec(&self.file).ok()
    }

    /// The types `typed` resolved to, if resolved less than `TTL` ago.
    pub fn get(&self, typed: &str, now: SystemTime) -> Option<Vec<ResourceInfo>> {
        let entry = self.file.entries.get(&typed.to_ascii_lowercase())?;
        let age = seconds(now).saturating_sub(entry.resolved_at);
        // The file may hold what kw did not write there: a type whose names may not go into a
        // path (`a/../b`, found by the `discovery` fuzz target) leaves the name to the server.
        let fit = entry.types.iter().all(|info| {
            super::names::is_label(&info.plural)
                && super::names::is_group_version(&info.group, &info.version, info.group.is_empty())
        });
        (age < TTL.as_secs() && !entry.types.is_empty() && fit).then(|| entry.types.clone())
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

    /// The server's whole answer, if read less than `TTL` ago (and still of the shape `T`).
    pub fn answer<T: serde::de::DeserializeOwned>(&self, now: SystemTime) -> Option<T> {
        let answer = self.file.answer.as_ref()?;
        let age = seconds(now).saturating_sub(answer.resolved_at);
        if age >= TTL.as_secs() {
            return None;
        }
        serde_json::from_value(answer.served.clone()).ok()
    }

    pub fn put_answer<T: Serialize>(&mut self, served: &T, now: SystemTime) {
        let Ok(served) = serde_json::to_value(served) else {
            return;
        };
        self.file.answer = Some(Answer {
            resolved_at: seconds(now),
            served,
        });
        self.dirty = true;
    }

    /// Drop every resolution that led to `resource` (the server no longer serves it), and the
    /// whole answer, which named it too.
    pub fn forget(&mut self, resource: &ResourceInfo) {
        let before = self.file.entries.len();
        self.file
            .entries
            .retain(|_, entry| !entry.types.contains(resource));
        self.dirty |= self.file.entries.len() != before || self.file.answer.is_some();
        self.file.answer = None;
    }

    /// Write the cache back if it changed; failures are ignored (it is only a cache). It goes into
    /// the directory checked at `open`, or, if there was none then, one made now and checked.
    pub fn save(&mut self) {
        let Some((path, name)) = &self.place else {
            return;
        };
        if !self.dirty || self.refused {
            return;
        }
        let Some(bytes) = self.file_bytes() else {
            return;
        };
        if self.dir.is_none() {
            self.dir = PrivateDir::open(path, true)
                .map_err(|error| explain(path, error, &|_, _| {}))
                .ok();
        }
        let Some(dir) = &self.dir else {
            return;
        };
        // Private, and renamed into place: a concurrent kw never reads half a file, and a
        // symlink planted at the name is replaced rather than written through.
        let _ = dir.write(name, &bytes);
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

    fn key(server: &str, digest: u64) -> ClusterKey {
        ClusterKey {
            server: server.into(),
            digest,
        }
    }

    #[test]
    fn a_type_whose_names_may_not_go_into_a_path_is_not_answered() {
        let file = r#"{"entries":{"x":{"resolved_at":0,"types":[{"plural":"a/../b",
            "singular":"","kind":"X","group":"","version":"v1","namespaced":true}]},
            "y":{"resolved_at":0,"types":[{"plural":"ys","singular":"y","kind":"Y",
            "group":"Ex/..","version":"v1","namespaced":true}]}}}"#;
        let cache = DiscoveryCache::from_file_bytes(file.as_bytes());
        assert!(cache.get("x", UNIX_EPOCH).is_none());
        assert!(cache.get("y", UNIX_EPOCH).is_none());
        let mut cache = DiscoveryCache::from_file_bytes(b"{}");
        cache.put("deploy", &[deployments()], UNIX_EPOCH);
        assert_eq!(cache.get("deploy", UNIX_EPOCH), Some(vec![deployments()]));
    }

    #[test]
    fn remembers_resolutions_across_opens_until_they_expire() {
        let dir = tempfile::tempdir().unwrap();
        let now = SystemTime::now();
        let mut cache = DiscoveryCache::open(Some(dir.path()), &key("https://127.0.0.1:6443", 1));
        assert!(cache.get("deploy", now).is_none());
        cache.put("Deploy", &[deployments()], now);
        cache.save();

        let cache = DiscoveryCache::open(Some(dir.path()), &key("https://127.0.0.1:6443", 1));
        assert_eq!(cache.get("deploy", now), Some(vec![deployments()]));
        assert!(cache.get("deploy", now + TTL).is_none(), "expired");
        let other = DiscoveryCache::open(Some(dir.path()), &key("https://127.0.0.1:7443", 1));
        assert!(other.get("deploy", now).is_none(), "per server");
        let same_address =
            DiscoveryCache::open(Some(dir.path()), &key("https://127.0.0.1:6443", 2));
        assert!(
            same_address.get("deploy", now).is_none(),
            "per cluster at one address"
        );
    }

    #[test]
    fn forgets_a_type_the_server_no_longer_serves() {
        let dir = tempfile::tempdir().unwrap();
        let now = SystemTime::now();
        let mut cache = DiscoveryCache::open(Some(dir.path()), &key("s", 0));
        cache.put("deploy", &[deployments()], now);
        cache.put("deployments.apps", &[deployments()], now);
        cache.put_answer(&vec!["apps/v1".to_string()], now);
        cache.save();
        let mut cache = DiscoveryCache::open(Some(dir.path()), &key("s", 0));
        assert_eq!(
            cache.answer::<Vec<String>>(now),
            Some(vec!["apps/v1".to_string()])
        );
        assert!(cache.answer::<Vec<String>>(now + TTL).is_none(), "expired");
        cache.forget(&deployments());
        cache.save();
        let cache = DiscoveryCache::open(Some(dir.path()), &key("s", 0));
        assert!(cache.get("deploy", now).is_none());
        assert!(cache.get("deployments.apps", now).is_none());
        assert!(cache.answer::<Vec<String>>(now).is_none());
    }

    #[cfg(unix)]
    #[test]
    fn the_cache_is_the_users_own() {
        use std::os::unix::fs::PermissionsExt;
        let base = tempfile::tempdir().unwrap();
        let dir = base.path().join("kw").join("discovery");
        let mut cache = DiscoveryCache::open(Some(&dir), &key("s", 0));
        cache.put("deploy", &[deployments()], SystemTime::now());
        cache.save();
        let mode = |p: &Path| std::fs::metadata(p).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode(&dir), 0o700);
        assert_eq!(mode(&dir.join(key("s", 0).file_name())), 0o600);
    }

    #[cfg(unix)]
    #[test]
    fn a_directory_others_may_write_is_not_used() {
        use std::os::unix::fs::PermissionsExt;
        let dir = tempfile::tempdir().unwrap();
        let now = SystemTime::now();
        let mut cache = DiscoveryCache::open(Some(dir.path()), &key("s", 0));
        cache.put("deploy", &[deployments()], now);
        cache.save();
        for mode in [0o720, 0o702, 0o777] {
            std::fs::set_permissions(dir.path(), std::fs::Permissions::from_mode(mode)).unwrap();
            let mut cache = DiscoveryCache::open_quietly(Some(dir.path()), &key("s", 0));
            assert!(cache.get("deploy", now).is_none(), "{mode:o}: not read");
            cache.put("pods", &[deployments()], now);
            cache.save();
        }
        std::fs::set_permissions(dir.path(), std::fs::Permissions::from_mode(0o700)).unwrap();
        let cache = DiscoveryCache::open(Some(dir.path()), &key("s", 0));
        assert!(
            cache.get("deploy", now).is_some(),
            "a private directory is used"
        );
        assert!(
            cache.get("pods", now).is_none(),
            "and was not written while open"
        );
    }

    #[test]
    fn a_broken_cache_file_is_ignored() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join(key("s", 0).file_name()), "{not json").unwrap();
        let cache = DiscoveryCache::open(Some(dir.path()), &key("s", 0));
        assert!(cache.get("deploy", SystemTime::now()).is_none());
        assert_eq!(
            file_name("https://[::1]:6443/k8s/c-1"),
            "https_1_6443_k8s_c-1"
        );
    }
}
