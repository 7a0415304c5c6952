//! Kubeconfig files on disk through `kubeconfig::load` and `settings::resolve` together: the
//! path a real `kw get` takes before it connects (no network here).

use std::path::{Path, PathBuf};

use kw::config::auth::config::CredentialsError;
use kw::config::flags::ConfigFlags;
use kw::config::kubeconfig::{self, LoadSources};
use kw::config::material::MaterialError;
use kw::config::settings::{self, SettingsError, TrustRoots};

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
    crate::harness::watchdog::current();
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
        .credentials
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
    crate::harness::watchdog::current();
    let (dir, config_path) = cluster_dir();
    std::fs::remove_file(dir.path().join("kube/pki/client.key")).unwrap();
    let config = kubeconfig::load(&LoadSources {
        explicit: Some(&config_path),
        ..LoadSources::default()
    })
    .unwrap();
    let error = settings::resolve(&ConfigFlags::default(), None, &config).unwrap_err();
    assert!(
        matches!(
            error,
            SettingsError::Credentials(CredentialsError::Material(MaterialError::ReadFile { .. }))
        ),
        "{error}"
    );
    let message = error.to_string();
    assert!(
        message.contains("client.key") && message.contains("user \"admin\""),
        "{message}"
    );
}

#[test]
fn a_later_file_cannot_replace_an_earlier_user() {
    crate::harness::watchdog::current();
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
    assert!(settings.connection.credentials.token.is_none());
    assert!(settings.connection.credentials.client_identity.is_some());
}

#[test]
fn an_empty_explicit_path_counts_as_not_given() {
    crate::harness::watchdog::current();
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

/// xorshift64*: a tiny deterministic PRNG so the property test is reproducible.
struct Prng(u64);

impl Prng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    /// The first (valid) choice half of the time, else any: so that enough whole configs
    /// survive to exercise the later stages.
    fn pick<'a>(&mut self, choices: &[&'a str]) -> &'a str {
        if self.next().is_multiple_of(2) {
            return choices[0];
        }
        choices[(self.next() % choices.len() as u64) as usize]
    }
}

/// Random kubeconfigs built from plausible and broken field values (bad base64, PEM that is
/// not a certificate, keys that do not match, odd exec and auth-provider entries, bad proxy and
/// server URLs), each also mutated byte-wise, go through load, resolve and client setup: every
/// outcome is a value or a one-line error that names something and shows no secret.
#[test]
fn random_and_mutated_kubeconfigs_give_errors_never_panics() {
    crate::harness::watchdog::current();
    use base64::Engine as _;
    let b64 = |text: &str| base64::engine::general_purpose::STANDARD.encode(text);
    let (dir, _) = cluster_dir();
    let pki = dir.path().join("kube/pki");
    let ca = std::fs::read_to_string(pki.join("ca.crt")).unwrap();
    let cert = std::fs::read_to_string(pki.join("client.crt")).unwrap();
    let key = std::fs::read_to_string(pki.join("client.key")).unwrap();
    let other = rcgen::generate_simple_self_signed(vec!["x".to_string()]).unwrap();
    let other_key = other.signing_key.serialize_pem();
    let not_cert = "-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----\n";
    let secret = "S3CRET-token-value";

    let cas = [
        format!("certificate-authority-data: {}", b64(&ca)),
        String::new(),
        format!("certificate-authority-data: {}", b64(not_cert)),
        "certificate-authority-data: '%%%not base64'".to_string(),
        "certificate-authority: pki/ca.crt".to_string(),
        "certificate-authority: pki/missing.crt".to_string(),
        format!("certificate-authority-data: {}", b64(&key)),
        "insecure-skip-tls-verify: true".to_string(),
        "insecure-skip-tls-verify: 'yes please'".to_string(),
    ];
    let certs = [
        String::new(),
        format!(
            "client-certificate-data: {}, client-key-data: {}",
            b64(&cert),
            b64(&key)
        ),
        format!(
            "client-certificate-data: {}, client-key-data: {}",
            b64(&cert),
            b64(&other_key)
        ),
        format!(
            "client-certificate-data: {}, client-key-data: {}",
            b64(not_cert),
            b64(&key)
        ),
        "client-certificate: pki/client.crt, client-key: pki/ca.crt".to_string(),
        "client-certificate: pki/client.crt".to_string(),
        "client-key-data: '!!'".to_string(),
    ];
    let servers = [
        "https://127.0.0.1:6443",
        "https://[::1]:1",
        "http://h",
        "ftp://x",
        "https://",
        "https://h:99999",
        "''",
        "[1, 2]",
        "https://u:S3CRET-token-value@h",
    ];
    let users = [
        "token: S3CRET-token-value",
        "tokenFile: missing-token",
        "tokenFile: pki/ca.crt",
        "exec: {apiVersion: client.authentication.k8s.io/v1, command: aws, interactiveMode: Never}",
        "exec: {apiVersion: client.authentication.k8s.io/v1alpha1, command: aws}",
        "exec: {apiVersion: client.authentication.k8s.io/v1, command: aws}",
        "exec: {apiVersion: client.authentication.k8s.io/v1beta1, command: '', env: null, args: null}",
        "exec: {apiVersion: client.authentication.k8s.io/v1beta1, command: ./x, interactiveMode: Sometimes}",
        "exec: {apiVersion: client.authentication.k8s.io/v1beta1, command: x, provideClusterInfo: 3}",
        "auth-provider: {name: gcp, config: {access-token: S3CRET-token-value}}",
        "auth-provider: {name: azure}",
        "auth-provider: {name: oidc, config: {id-token: S3CRET-token-value}}",
        "auth-provider: {name: oidc, config: {refresh-token: S3CRET-token-value}}",
        "auth-provider: {name: weird, config: null}",
        "username: admin, password: S3CRET-token-value",
        "as: jane, as-groups: [a, b], token: S3CRET-token-value",
        "as-groups: [a], token: S3CRET-token-value",
        "as-groups: x",
        "{}",
    ];
    let extras = [
        "",
        "proxy-url: 'http://p:3128'",
        "proxy-url: 'socks5://u:S3CRET-token-value@p'",
        "proxy-url: 'https://p'",
        "proxy-url: 'gopher://p'",
        "proxy-url: 'http://p:0'",
        "tls-server-name: api.internal",
        "tls-server-name: 'not a name!'",
        "tls-server-name: [x]",
    ];

    let mut prng = Prng(0xD1B5_4A32_D192_ED03);
    let mut outcomes = [0usize; 2];
    for case in 0..600 {
        let fields: Vec<String> = [
            prng.pick(&cas.iter().map(String::as_str).collect::<Vec<_>>())
                .to_string(),
            prng.pick(&extras).to_string(),
        ]
        .into_iter()
        .filter(|f| !f.is_empty())
        .collect();
        let cluster_fields = if fields.is_empty() {
            String::new()
        } else {
            format!(", {}", fields.join(", "))
        };
        let mut user = prng.pick(&users).to_string();
        let cert_fields = prng.pick(&certs.iter().map(String::as_str).collect::<Vec<_>>());
        if !cert_fields.is_empty() && user != "{}" {
            user = format!("{user}, {cert_fields}");
        }
        let user = if user == "{}" { String::new() } else { user };
        let mut text = format!(
            "current-context: c\ncontexts: [{{name: c, context: {{cluster: k, user: u}}}}]\n\
             clusters: [{{name: k, cluster: {{server: {}{cluster_fields}}}}}]\n\
             users: [{{name: u, user: {{{user}}}}}]\n",
            prng.pick(&servers)
        );
        // Every other case also gets a few byte-level mutations.
        if case % 2 == 1 {
            let mut bytes: Vec<char> = text.chars().collect();
            for _ in 0..1 + prng.next() % 4 {
                let at = (prng.next() % (bytes.len() as u64 + 1)) as usize;
                match prng.next() % 3 {
                    0 if at < bytes.len() => {
                        bytes.remove(at);
                    }
                    1 => bytes.insert(
                        at,
                        prng.pick(&[":", "{", "]", "'", "\n", " ", "-", "\u{0}"])
                            .chars()
                            .next()
                            .unwrap_or(' '),
                    ),
                    _ => bytes.insert(at, (b'a' + (prng.next() % 26) as u8) as char),
                }
            }
            text = bytes.into_iter().collect();
        }
        let path = dir.path().join("kube/fuzzed");
        std::fs::write(&path, &text).unwrap();
        let result = kubeconfig::load(&LoadSources {
            explicit: Some(&path),
            ..LoadSources::default()
        })
        .map_err(SettingsError::from)
        .and_then(|config| settings::resolve(&ConfigFlags::default(), None, &config));
        match result {
            Ok(settings) => {
                outcomes[1] += 1;
                // Building the client checks TLS material and proxies without connecting.
                if let Err(error) =
                    kw::client::Client::new(&settings.connection, std::time::Duration::from_secs(1))
                {
                    let message = error.to_string();
                    assert!(!message.contains('\n'), "{text}\n=> {message}");
                    assert!(!message.contains(secret), "{text}\n=> {message}");
                }
            }
            Err(error) => {
                outcomes[0] += 1;
                let message = error.to_string();
                assert!(!message.contains('\n'), "{text}\n=> {message}");
                assert!(!message.contains(secret), "{text}\n=> {message}");
                assert!(!message.is_empty());
            }
        }
    }
    assert!(outcomes[0] > 50 && outcomes[1] > 25, "{outcomes:?}");
}
