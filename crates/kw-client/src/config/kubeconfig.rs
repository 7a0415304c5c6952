//! Kubeconfig: the file format (apiVersion v1 `Config`) and kubectl's rules for finding, loading
//! and merging the files (client-go `loader.go`). This module only reads and merges YAML; it
//! does not decide which context, cluster or user is used, and never touches certificates or
//! token contents: `settings` does that.
//!
//! Rules followed, and why they matter:
//! - `--kubeconfig PATH` means that file only, and a missing file is an error: the user named it.
//! - Otherwise `KUBECONFIG` is a `:`-separated list; empty entries are ignored and missing files
//!   skipped, because shells and tools routinely leave stale entries there. A file that exists but
//!   does not parse is an error, so a typo never silently switches clusters.
//! - Merge is first-wins: `current-context` from the first file that sets it, and each named
//!   cluster/user/context from the first file that defines that name, whole (no field merge).
//! - Relative paths inside a file are relative to that file, so they are made absolute at load
//!   time; after the merge nobody knows which file an entry came from.

use std::collections::HashSet;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Deserializer};

use crate::config::endpoint::Secret;

/// A kubeconfig: one file as parsed, or the merge of several.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(default)]
pub struct Kubeconfig {
    #[serde(rename = "apiVersion")]
    pub api_version: Option<String>,
    pub kind: Option<String>,
    #[serde(deserialize_with = "null_as_default")]
    pub clusters: Vec<NamedCluster>,
    #[serde(deserialize_with = "null_as_default")]
    pub users: Vec<NamedUser>,
    #[serde(deserialize_with = "null_as_default")]
    pub contexts: Vec<NamedContext>,
    #[serde(rename = "current-context")]
    pub current_context: Option<String>,
    /// Kept as free-form data: kw reads nothing from it.
    pub preferences: Option<serde_json::Value>,
    #[serde(deserialize_with = "null_as_default")]
    pub extensions: Vec<NamedExtension>,
    /// The files this config was loaded from, in precedence order (empty when none existed).
    /// Not part of the file format.
    #[serde(skip)]
    pub sources: Vec<PathBuf>,
    /// The files `KUBECONFIG` names that do not exist, skipped as kubectl skips them: what to
    /// name when no file was found at all.
    #[serde(skip)]
    pub missing_from_list: Vec<PathBuf>,
}

#[derive(Debug, Clone, Default, Deserialize)]
#[serde(default)]
pub struct NamedCluster {
    pub name: String,
    #[serde(deserialize_with = "null_as_default")]
    pub cluster: Cluster,
}

/// How to reach one API server.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(default, rename_all = "kebab-case")]
pub struct Cluster {
    pub server: Option<String>,
    /// A PEM file path; absolute after loading.
    pub certificate_authority: Option<PathBuf>,
    /// Base64 of PEM, as written in the file.
    pub certificate_authority_data: Option<String>,
    #[serde(deserialize_with = "null_as_default")]
    pub insecure_skip_tls_verify: bool,
    pub tls_server_name: Option<String>,
    pub proxy_url: Option<String>,
    #[serde(deserialize_with = "null_as_default")]
    pub disable_compression: bool,
    #[serde(deserialize_with = "null_as_default")]
    pub extensions: Vec<NamedExtension>,
}

#[derive(Debug, Clone, Default, Deserialize)]
#[serde(default)]
pub struct NamedUser {
    pub name: String,
    #[serde(deserialize_with = "null_as_default")]
    pub user: User,
}

/// How to authenticate (client-go calls it `AuthInfo`). Secrets are `Secret` so that `Debug`
/// never prints them.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(default, rename_all = "kebab-case")]
pub struct User {
    pub token: Option<Secret>,
    /// A file holding the bearer token; absolute after loading.
    #[serde(rename = "tokenFile")]
    pub token_file: Option<PathBuf>,
    pub client_certificate: Option<PathBuf>,
    /// Base64 of PEM.
    pub client_certificate_data: Option<String>,
    pub client_key: Option<PathBuf>,
    /// Base64 of PEM.
    pub client_key_data: Option<Secret>,
    pub username: Option<String>,
    pub password: Option<Secret>,
    /// Impersonation (`--as`).
    #[serde(rename = "as")]
    pub impersonate: Option<String>,
    #[serde(rename = "as-groups", deserialize_with = "null_as_default")]
    pub impersonate_groups: Vec<String>,
    #[serde(rename = "as-uid")]
    pub impersonate_uid: Option<String>,
    pub exec: Option<ExecConfig>,
    pub auth_provider: Option<AuthProvider>,
    #[serde(deserialize_with = "null_as_default")]
    pub extensions: Vec<NamedExtension>,
}

/// An exec credential plugin (`users[].user.exec`); checked and run by `auth::exec`.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct ExecConfig {
    pub api_version: Option<String>,
    /// The program; absolute after loading if it contained a `/` (else looked up in `PATH`).
    pub command: String,
    /// `args: null` occurs in real files.
    #[serde(deserialize_with = "null_as_default")]
    pub args: Vec<String>,
    /// `env: null` occurs in real files (AKS).
    #[serde(deserialize_with = "null_as_default")]
    pub env: Vec<ExecEnvVar>,
    pub install_hint: Option<String>,
    #[serde(deserialize_with = "null_as_default")]
    pub provide_cluster_info: bool,
    pub interactive_mode: Option<String>,
}

#[derive(Debug, Clone, Default, Deserialize)]
#[serde(default)]
pub struct ExecEnvVar {
    pub name: String,
    pub value: String,
}

/// A legacy in-tree auth provider (`oidc`, `gcp`, `azure`); `settings` uses an oidc id-token
/// and explains how to replace the others.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(default)]
pub struct AuthProvider {
    pub name: String,
    /// May hold refresh tokens: kept opaque, and not printed by `Debug`.
    #[serde(deserialize_with = "null_as_default")]
    pub config: OpaqueMap,
}

/// A string map whose values are never shown by `Debug` (auth-provider configs hold tokens).
#[derive(Clone, Default, Deserialize)]
pub struct OpaqueMap(pub std::collections::BTreeMap<String, String>);

impl std::fmt::Debug for OpaqueMap {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_list().entries(self.0.keys()).finish()
    }
}

#[derive(Debug, Clone, Default, Deserialize)]
#[serde(default)]
pub struct NamedContext {
    pub name: String,
    #[serde(deserialize_with = "null_as_default")]
    pub context: Context,
}

/// A (cluster, user, namespace) triple under a name.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(default)]
pub struct Context {
    pub cluster: String,
    pub user: String,
    pub namespace: Option<String>,
    #[serde(deserialize_with = "null_as_default")]
    pub extensions: Vec<NamedExtension>,
}

/// `extensions: [{name, extension}]`: free-form data some tools attach (minikube, kind).
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(default)]
pub struct NamedExtension {
    pub name: String,
    pub extension: Option<serde_json::Value>,
}

impl Kubeconfig {
    pub fn cluster(&self, name: &str) -> Option<&Cluster> {
        self.clusters
            .iter()
            .find(|entry| entry.name == name)
            .map(|entry| &entry.cluster)
    }

    pub fn user(&self, name: &str) -> Option<&User> {
        self.users
            .iter()
            .find(|entry| entry.name == name)
            .map(|entry| &entry.user)
    }

    pub fn context(&self, name: &str) -> Option<&Context> {
        self.contexts
            .iter()
            .find(|entry| entry.name == name)
            .map(|entry| &entry.context)
    }

    /// True when no file contributed anything: kubectl's "no configuration has been provided".
    pub fn is_empty(&self) -> bool {
        self.clusters.is_empty()
            && self.users.is_empty()
            && self.contexts.is_empty()
            && self.current_context.as_deref().unwrap_or("").is_empty()
    }
}

/// Why no kubeconfig could be loaded. Each message is one line naming the file.
#[derive(Debug, thiserror::Error)]
pub enum KubeconfigError {
    #[error("kubeconfig {path} (given by --kubeconfig) does not exist")]
    ExplicitMissing { path: PathBuf },
    #[error("cannot read kubeconfig {path}: {source}")]
    Read {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("kubeconfig {path} is not UTF-8 text")]
    NotText { path: PathBuf },
    /// `message` already says where ("at line 3, column 4") when the parser knows.
    #[error("cannot parse kubeconfig {path}: {message}")]
    Parse {
        path: PathBuf,
        line: Option<u64>,
        message: String,
    },
}

/// Where to look for kubeconfig files, as kubectl decides it.
#[derive(Debug, Clone, Default)]
pub struct LoadSources<'a> {
    /// `--kubeconfig`.
    pub explicit: Option<&'a Path>,
    /// The value of `KUBECONFIG`, if set.
    pub kubeconfig_env: Option<&'a str>,
    /// The home directory, for `~/.kube/config`.
    pub home: Option<&'a Path>,
}

/// Loads and merges kubeconfig files by kubectl's rules, reading nothing from the environment.
/// With no file found at all the result is an empty config: the caller decides whether flags
/// alone (`--server`) are enough.
pub fn load(sources: &LoadSources<'_>) -> Result<Kubeconfig, KubeconfigError> {
    // An empty `--kubeconfig ""` counts as not given, as in client-go.
    if let Some(path) = sources.explicit.filter(|path| !path.as_os_str().is_empty()) {
        return match read_file(path)? {
            Some(config) => Ok(config),
            None => Err(KubeconfigError::ExplicitMissing {
                path: path.to_path_buf(),
            }),
        };
    }
    // client-go treats an empty KUBECONFIG as unset.
    let list = sources.kubeconfig_env.filter(|list| !list.is_empty());
    let candidates: Vec<PathBuf> = match list {
        Some(list) => split_path_list(list),
        None => sources
            .home
            .map(|home| vec![home.join(".kube").join("config")])
            .unwrap_or_default(),
    };
    let mut merged = Kubeconfig::default();
    let mut missing = Vec::new();
    for path in candidates {
        match read_file(&path)? {
            Some(config) => merge_into(&mut merged, config),
            None => missing.push(path),
        }
    }
    if list.is_some() {
        merged.missing_from_list = missing;
    }
    Ok(merged)
}

/// Loads by kubectl's rules, taking `KUBECONFIG` and the home directory from the environment.
pub fn load_from_env(explicit: Option<&Path>) -> Result<Kubeconfig, KubeconfigError> {
    let kubeconfig_env = std::env::var_os("KUBECONFIG");
    let home = super::environment::home_dir();
    let kubeconfig_env = kubeconfig_env.as_ref().map(|value| value.to_string_lossy());
    load(&LoadSources {
        explicit,
        kubeconfig_env: kubeconfig_env.as_deref(),
        home: home.as_deref(),
    })
}

/// Parses one kubeconfig text. `path` names the file in errors and anchors relative paths.
pub fn parse(text: &str, path: &Path) -> Result<Kubeconfig, KubeconfigError> {
    // Go's YAML decoder lets a later duplicate key win; follow it rather than refuse the file.
    let options = serde_saphyr::options! {
        duplicate_keys: serde_saphyr::DuplicateKeyPolicy::LastWins,
    };
    // An empty (or comment-only) file is an empty config, as in client-go.
    let parsed: Option<Kubeconfig> =
        serde_saphyr::from_str_with_options(text, options).map_err(|error| {
            KubeconfigError::Parse {
                path: path.to_path_buf(),
                line: error.location().map(|location| location.line()),
                message: one_line(&error.without_snippet().to_string()),
            }
        })?;
    let mut config = parsed.unwrap_or_default();
    let base = absolute(path);
    let base_dir = base.parent().unwrap_or(Path::new("/"));
    resolve_relative_paths(&mut config, base_dir);
    config.sources = vec![base];
    Ok(config)
}

/// Reads and parses one file; `Ok(None)` when it does not exist.
fn read_file(path: &Path) -> Result<Option<Kubeconfig>, KubeconfigError> {
    let bytes = match std::fs::read(path) {
        Ok(bytes) => bytes,
        Err(error) if error.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(source) => {
            return Err(KubeconfigError::Read {
                path: path.to_path_buf(),
                source,
            })
        }
    };
    let text = String::from_utf8(bytes).map_err(|_| KubeconfigError::NotText {
        path: path.to_path_buf(),
    })?;
    parse(&text, path).map(Some)
}

/// Splits `KUBECONFIG` on the platform's list separator, dropping empty entries and repeats
/// (client-go deduplicates so a file listed twice is not merged with itself).
pub fn split_path_list(list: &str) -> Vec<PathBuf> {
    let mut seen = HashSet::new();
    std::env::split_paths(list)
        .filter(|path| !path.as_os_str().is_empty())
        .filter(|path| seen.insert(path.clone()))
        .collect()
}

/// Merges `next` (a later file) into `merged`: whatever `merged` already has wins.
pub fn merge_into(merged: &mut Kubeconfig, next: Kubeconfig) {
    let has_current = merged
        .current_context
        .as_deref()
        .is_some_and(|name| !name.is_empty());
    if !has_current
        && next
            .current_context
            .as_deref()
            .is_some_and(|n| !n.is_empty())
    {
        merged.current_context = next.current_context;
    }
    if merged.api_version.is_none() {
        merged.api_version = next.api_version;
    }
    if merged.kind.is_none() {
        merged.kind = next.kind;
    }
    if merged.preferences.is_none() {
        merged.preferences = next.preferences;
    }
    add_new_names(&mut merged.clusters, next.clusters, |entry| &entry.name);
    add_new_names(&mut merged.users, next.users, |entry| &entry.name);
    add_new_names(&mut merged.contexts, next.contexts, |entry| &entry.name);
    add_new_names(&mut merged.extensions, next.extensions, |entry| &entry.name);
    merged.sources.extend(next.sources);
}

/// Appends the entries whose name is not taken yet. Within one file the first entry of a name
/// also wins, so a duplicated name behaves the same wherever the duplicate is.
fn add_new_names<T>(into: &mut Vec<T>, from: Vec<T>, name: impl Fn(&T) -> &String) {
    let mut taken: HashSet<String> = into.iter().map(|entry| name(entry).clone()).collect();
    for entry in from {
        if taken.insert(name(&entry).clone()) {
            into.push(entry);
        }
    }
}

/// Makes file references relative to `base_dir` (the directory of the defining file).
fn resolve_relative_paths(config: &mut Kubeconfig, base_dir: &Path) {
    for entry in &mut config.clusters {
        resolve_path(&mut entry.cluster.certificate_authority, base_dir);
    }
    for entry in &mut config.users {
        let user = &mut entry.user;
        resolve_path(&mut user.client_certificate, base_dir);
        resolve_path(&mut user.client_key, base_dir);
        resolve_path(&mut user.token_file, base_dir);
        if let Some(exec) = &mut user.exec {
            // A bare command name is looked up in PATH when run; only a path is file-relative.
            if exec.command.contains(std::path::MAIN_SEPARATOR) && !exec.command.is_empty() {
                let command = Path::new(&exec.command);
                if command.is_relative() {
                    exec.command = base_dir.join(command).to_string_lossy().into_owned();
                }
            }
        }
    }
}

fn resolve_path(path: &mut Option<PathBuf>, base_dir: &Path) {
    if let Some(value) = path {
        if value.as_os_str().is_empty() {
            *path = None;
        } else if value.is_relative() {
            *value = base_dir.join(&*value);
        }
    }
}

/// The absolute form of `path` without touching the file system (no symlink resolution, as in
/// Go's `filepath.Abs`); falls back to `path` itself if the working directory is unknown.
fn absolute(path: &Path) -> PathBuf {
    std::path::absolute(path).unwrap_or_else(|_| path.to_path_buf())
}

fn one_line(message: &str) -> String {
    message.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// `null` means "not set": real kubeconfigs write `args: null`, `env: null`, `clusters: null`.
fn null_as_default<'de, D, T>(deserializer: D) -> Result<T, D::Error>
where
    D: Deserializer<'de>,
    T: Default + Deserialize<'de>,
{
    Ok(Option::<T>::deserialize(deserializer)?.unwrap_or_default())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn write(dir: &Path, name: &str, text: &str) -> PathBuf {
        let path = dir.join(name);
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent).unwrap();
        }
        std::fs::write(&path, text).unwrap();
        path
    }

    fn env_list(paths: &[&Path]) -> String {
        std::env::join_paths(paths).unwrap().into_string().unwrap()
    }

    const FIRST: &str = "\
apiVersion: v1
kind: Config
current-context: one
clusters:
- name: shared
  cluster:
    server: https://first.example:6443
    certificate-authority: ca.pem
contexts:
- name: one
  context: {cluster: shared, user: alice, namespace: team-a}
users:
- name: alice
  user:
    client-certificate: certs/alice.crt
    client-key: /abs/alice.key
    tokenFile: token
";

    const SECOND: &str = "\
current-context: two
clusters:
- name: shared
  cluster:
    server: https://second.example
    insecure-skip-tls-verify: true
- name: only-second
  cluster: {server: https://only.example}
contexts:
- name: two
  context: {cluster: only-second, user: bob}
users:
- name: alice
  user: {token: second-token}
- name: bob
  user: {token: bob-token}
";

    #[test]
    fn kubeconfig_list_merges_first_wins_and_skips_missing_files() {
        let dir = tempfile::tempdir().unwrap();
        let first = write(dir.path(), "a/config", FIRST);
        let second = write(dir.path(), "b/config", SECOND);
        let missing = dir.path().join("missing");
        let list = format!("{}::{}", env_list(&[&missing, &first]), second.display());
        let config = load(&LoadSources {
            kubeconfig_env: Some(&list),
            ..LoadSources::default()
        })
        .unwrap();

        assert_eq!(config.current_context.as_deref(), Some("one"));
        let shared = config.cluster("shared").unwrap();
        assert_eq!(shared.server.as_deref(), Some("https://first.example:6443"));
        // Whole-entry wins: the second file's insecure flag must not leak into the first's entry.
        assert!(!shared.insecure_skip_tls_verify);
        assert_eq!(
            config.cluster("only-second").unwrap().server.as_deref(),
            Some("https://only.example")
        );
        let alice = config.user("alice").unwrap();
        assert!(
            alice.token.is_none(),
            "alice comes whole from the first file"
        );
        assert_eq!(
            config.user("bob").unwrap().token.as_ref().unwrap().0,
            "bob-token"
        );
        assert_eq!(config.contexts.len(), 2);
        assert_eq!(config.sources, vec![first, second]);
    }

    #[test]
    fn relative_paths_resolve_against_the_defining_file() {
        let dir = tempfile::tempdir().unwrap();
        let first = write(dir.path(), "a/config", FIRST);
        let config = load(&LoadSources {
            explicit: Some(&first),
            ..LoadSources::default()
        })
        .unwrap();
        let base = dir.path().join("a");
        let cluster = config.cluster("shared").unwrap();
        assert_eq!(
            cluster.certificate_authority.as_deref(),
            Some(&*base.join("ca.pem"))
        );
        let alice = config.user("alice").unwrap();
        assert_eq!(
            alice.client_certificate.as_deref(),
            Some(&*base.join("certs/alice.crt"))
        );
        assert_eq!(
            alice.client_key.as_deref(),
            Some(Path::new("/abs/alice.key"))
        );
        assert_eq!(alice.token_file.as_deref(), Some(&*base.join("token")));
    }

    #[test]
    fn exec_command_is_resolved_only_when_it_is_a_path() {
        let text = "\
users:
- name: bare
  user: {exec: {apiVersion: client.authentication.k8s.io/v1beta1, command: aws, args: null, env: null}}
- name: relative
  user: {exec: {command: ./bin/plugin}}
- name: absolute
  user: {exec: {command: /usr/bin/plugin}}
";
        let config = parse(text, Path::new("/home/me/.kube/config")).unwrap();
        let command = |name: &str| {
            config
                .user(name)
                .unwrap()
                .exec
                .as_ref()
                .unwrap()
                .command
                .clone()
        };
        assert_eq!(command("bare"), "aws");
        assert_eq!(command("relative"), "/home/me/.kube/./bin/plugin");
        assert_eq!(command("absolute"), "/usr/bin/plugin");
        let bare = config.user("bare").unwrap().exec.as_ref().unwrap();
        assert!(bare.args.is_empty() && bare.env.is_empty());
    }

    #[test]
    fn explicit_path_is_that_file_only_and_must_exist() {
        let dir = tempfile::tempdir().unwrap();
        let second = write(dir.path(), "second", SECOND);
        let missing = dir.path().join("nope.yaml");
        let list = env_list(&[&second]);
        let error = load(&LoadSources {
            explicit: Some(&missing),
            kubeconfig_env: Some(&list),
            home: None,
        })
        .unwrap_err();
        assert!(matches!(error, KubeconfigError::ExplicitMissing { .. }));
        assert!(error.to_string().contains("nope.yaml"), "{error}");
    }

    #[test]
    fn home_config_is_the_fallback_and_its_absence_is_an_empty_config() {
        let home = tempfile::tempdir().unwrap();
        let empty = load(&LoadSources {
            home: Some(home.path()),
            ..LoadSources::default()
        })
        .unwrap();
        assert!(empty.is_empty() && empty.sources.is_empty());

        write(home.path(), ".kube/config", SECOND);
        // An empty KUBECONFIG counts as unset, as in client-go.
        let config = load(&LoadSources {
            kubeconfig_env: Some(""),
            home: Some(home.path()),
            ..LoadSources::default()
        })
        .unwrap();
        assert_eq!(config.current_context.as_deref(), Some("two"));
    }

    #[test]
    fn kubeconfig_list_with_only_missing_files_is_empty_not_an_error() {
        let dir = tempfile::tempdir().unwrap();
        let list = env_list(&[&dir.path().join("x"), &dir.path().join("y")]);
        let config = load(&LoadSources {
            kubeconfig_env: Some(&list),
            ..LoadSources::default()
        })
        .unwrap();
        assert!(config.is_empty());
        // Named when nothing else is found (kubectl says nothing of them).
        assert_eq!(
            config.missing_from_list,
            [dir.path().join("x"), dir.path().join("y")]
        );
    }

    #[test]
    fn json_kubeconfig_loads() {
        let text = r#"{"apiVersion":"v1","kind":"Config","current-context":"j",
            "clusters":[{"name":"c","cluster":{"server":"https://10.0.0.1","insecure-skip-tls-verify":true}}],
            "contexts":[{"name":"j","context":{"cluster":"c","user":"u"}}],
            "users":[{"name":"u","user":{"token":"t"}}],"preferences":{}}"#;
        let config = parse(text, Path::new("/k/config.json")).unwrap();
        assert_eq!(config.current_context.as_deref(), Some("j"));
        assert!(config.cluster("c").unwrap().insecure_skip_tls_verify);
    }

    #[test]
    fn bad_yaml_names_the_file_and_line() {
        let dir = tempfile::tempdir().unwrap();
        let good = write(dir.path(), "good", SECOND);
        let bad = write(dir.path(), "bad", "clusters:\n  - name: a\n   oops: : x\n");
        let list = env_list(&[&good, &bad]);
        let error = load(&LoadSources {
            kubeconfig_env: Some(&list),
            ..LoadSources::default()
        })
        .unwrap_err();
        let KubeconfigError::Parse { path, line, .. } = &error else {
            panic!("expected a parse error, got {error}");
        };
        assert_eq!(path, &bad);
        assert_eq!(*line, Some(3));
        let message = error.to_string();
        assert!(
            message.contains("bad") && message.contains("line 3"),
            "{message}"
        );
        assert!(!message.contains('\n'), "one line: {message}");
    }

    #[test]
    fn wrong_types_are_errors_with_a_line() {
        let error = parse(
            "clusters:\n- name: a\n  cluster: [1, 2]\n",
            Path::new("/k/c"),
        )
        .unwrap_err();
        assert!(
            matches!(error, KubeconfigError::Parse { line: Some(3), .. }),
            "{error}"
        );
        let error = parse("current-context: [x]\n", Path::new("/k/c")).unwrap_err();
        assert!(matches!(error, KubeconfigError::Parse { .. }), "{error}");
    }

    #[test]
    fn nulls_empty_files_and_unknown_fields_are_accepted() {
        let text = "\
apiVersion: v1
clusters: null
users:
- name: aks
  user:
    exec: {apiVersion: client.authentication.k8s.io/v1beta1, command: kubelogin, args: [get-token], env: null, interactiveMode: IfAvailable}
    future-field: {nested: [1, 2]}
contexts:
- name: c
  context: null
preferences: {colors: true}
extensions:
- name: minikube
  extension: {provider: minikube.sigs.k8s.io, version: v1.30.1}
some-new-top-level: 3
";
        let config = parse(text, Path::new("/k/c")).unwrap();
        assert!(config.clusters.is_empty());
        let exec = config.user("aks").unwrap().exec.as_ref().unwrap();
        assert_eq!(exec.args, vec!["get-token".to_string()]);
        assert!(exec.env.is_empty());
        assert_eq!(config.context("c").unwrap().cluster, "");
        assert_eq!(config.extensions.len(), 1);
        assert!(parse("", Path::new("/k/c")).unwrap().is_empty());
        assert!(parse("# nothing\n", Path::new("/k/c")).unwrap().is_empty());
    }

    #[test]
    fn debug_output_never_shows_secrets() {
        let text = "\
users:
- name: u
  user:
    token: very-secret-token
    client-key-data: c2VjcmV0LWtleQ==
    password: hunter2
    auth-provider: {name: oidc, config: {refresh-token: oidc-refresh}}
";
        let shown = format!("{:?}", parse(text, Path::new("/k/c")).unwrap());
        for secret in [
            "very-secret-token",
            "c2VjcmV0LWtleQ==",
            "hunter2",
            "oidc-refresh",
        ] {
            assert!(!shown.contains(secret), "{secret} leaked: {shown}");
        }
    }

    #[test]
    fn split_path_list_drops_empty_and_repeated_entries() {
        assert_eq!(
            split_path_list("/a::/b:/a:"),
            vec![PathBuf::from("/a"), PathBuf::from("/b")]
        );
    }

    /// xorshift64*: a tiny deterministic PRNG so the mutation test is reproducible.
    struct Prng(u64);

    impl Prng {
        fn next(&mut self) -> u64 {
            self.0 ^= self.0 >> 12;
            self.0 ^= self.0 << 25;
            self.0 ^= self.0 >> 27;
            self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
        }

        fn below(&mut self, bound: usize) -> usize {
            (self.next() % bound.max(1) as u64) as usize
        }
    }

    #[test]
    fn mutated_kubeconfigs_never_panic() {
        const PIECES: &[&str] = &[
            ":",
            "-",
            " ",
            "\n",
            "  ",
            "{",
            "}",
            "[",
            "]",
            "\"",
            "'",
            "&a",
            "*a",
            "null",
            "~",
            "!!binary",
            "|",
            ">",
            "#",
            "\t",
            "clusters:",
            "- name: x",
            "user:",
            "exec:",
            "args:",
            "0x1F",
            "1e400",
            "\u{feff}",
            "\u{0}",
            "current-context:",
            "? ",
            ",",
            "%YAML 1.2",
            "---",
            "...",
        ];
        let seeds = [
            FIRST,
            SECOND,
            "{\"clusters\":[{\"name\":\"c\",\"cluster\":{}}]}",
        ];
        let mut prng = Prng(0x9E37_79B9_7F4A_7C15);
        let mut outcomes = [0usize; 2];
        for case in 0..600 {
            let mut text: Vec<char> = seeds[case % seeds.len()].chars().collect();
            for _ in 0..1 + prng.below(6) {
                let at = prng.below(text.len() + 1);
                match prng.below(3) {
                    0 => {
                        let piece = PIECES[prng.below(PIECES.len())];
                        text.splice(at..at, piece.chars());
                    }
                    1 if at < text.len() => {
                        let end = (at + 1 + prng.below(8)).min(text.len());
                        text.drain(at..end);
                    }
                    _ => {
                        let byte = (prng.below(95) + 32) as u8;
                        text.insert(at.min(text.len()), byte as char);
                    }
                }
            }
            let text: String = text.into_iter().collect();
            let result = parse(&text, Path::new("/fuzz/config"));
            outcomes[usize::from(result.is_ok())] += 1;
            if let Err(error) = result {
                assert!(
                    !error.to_string().contains('\n'),
                    "multi-line error: {error}"
                );
            }
        }
        // Both branches must be exercised, or the mutations are too weak or too strong.
        assert!(outcomes[0] > 0 && outcomes[1] > 0, "{outcomes:?}");
    }
}
