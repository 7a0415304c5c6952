//! Kubeconfig files on disk through `kubeconfig::load` and `settings::resolve` together: the
//! path a real `kw get` takes before it connects (no network here).

use std::path::{Path, PathBuf};

use kw::cli::ConfigFlags;
use kw::kubeconfig::{self, LoadSources};
use kw::settings::{self, SettingsError, TrustRoots};

fn write(path: &Path, text: &str) {
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, text).unwrap();
}

/// A directory holding a CA, a client certificate and its key, referenced by relative paths
/// from a kubeconfig that sits next to them.
fn cluster_dir() -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let ca = rcgen::generate_simple_self_signed(vec!["ca.test".to_string()]).unwrap();
    let client = rcgen::generate_simple_self_signed(vec!["client.test".to_string()]).unwrap();
    write(&dir.path().join("kube/pki/ca.crt"), &ca.cert.pem());
    write(&dir.path().join("kube/pki/client.crt"), &client.cert.pem());
    write(
        &dir.path().join("kube/pki/client.key"),
        &client.signing_key.serialize_pem(),
    );
    let config = dir.path().join("kube/config");
    write(
        &config,
        "apiVersion: v1
kind: Config
current-context: lab
clusters:
- name: lab
  cluster:
    server: https://127.0.0.1:6443
    certificate-authority: pki/ca.crt
contexts:
- name: lab
  context: {cluster: lab, user: admin, namespace: lab-ns}
users:
- name: admin
  user:
    client-certificate: pki/client.crt
    client-key: ./pki/client.key
",
    );
    (dir, config)
}

#[test]
fn relative_certificate_paths_work_from_any_working_directory() {
    let (_dir, config_path) = cluster_dir();
    let list = config_path.display().to_string();
    let config = kubeconfig::load(&LoadSources {
        kubeconfig_env: Some(&list),
        ..LoadSources::default()
    })
    .unwrap();
    let settings = settings::resolve(&ConfigFlags::default(), None, &config).unwrap();
    assert_eq!(settings.namespace, "lab-ns");
    assert!(
        matches!(settings.connection.roots, TrustRoots::Bundle { ref certs, .. } if certs.len() == 1)
    );
    let identity = settings
        .connection
        .client_identity
        .expect("client identity");
    assert!(
        identity.origin.contains("client.crt"),
        "{}",
        identity.origin
    );
}

#[test]
fn a_missing_referenced_file_is_named_with_its_user() {
    let (dir, config_path) = cluster_dir();
    std::fs::remove_file(dir.path().join("kube/pki/client.key")).unwrap();
    let config = kubeconfig::load(&LoadSources {
        explicit: Some(&config_path),
        ..LoadSources::default()
    })
    .unwrap();
    let error = settings::resolve(&ConfigFlags::default(), None, &config).unwrap_err();
    assert!(matches!(error, SettingsError::ReadFile { .. }), "{error}");
    let message = error.to_string();
    assert!(
        message.contains("client.key") && message.contains("user \"admin\""),
        "{message}"
    );
}

#[test]
fn a_later_file_cannot_replace_an_earlier_user() {
    let (dir, config_path) = cluster_dir();
    let later = dir.path().join("later/config");
    write(
        &later,
        "current-context: other\nusers:\n- name: admin\n  user: {token: impostor}\n",
    );
    let list = std::env::join_paths([&config_path, &later]).unwrap();
    let list = list.to_str().unwrap();
    let config = kubeconfig::load(&LoadSources {
        kubeconfig_env: Some(list),
        ..LoadSources::default()
    })
    .unwrap();
    let settings = settings::resolve(&ConfigFlags::default(), None, &config).unwrap();
    assert_eq!(settings.context.as_deref(), Some("lab"));
    assert!(settings.connection.token.is_none());
    assert!(settings.connection.client_identity.is_some());
}

#[test]
fn an_empty_explicit_path_counts_as_not_given() {
    let home = tempfile::tempdir().unwrap();
    let config = kubeconfig::load(&LoadSources {
        explicit: Some(Path::new("")),
        kubeconfig_env: None,
        home: Some(home.path()),
    })
    .unwrap();
    assert!(config.is_empty());
    let error = settings::resolve(&ConfigFlags::default(), None, &config).unwrap_err();
    assert!(matches!(error, SettingsError::NoConfiguration), "{error}");
}
