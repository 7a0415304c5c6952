//! Credentials against `kw sim` through the real `kw` binary: exec credential plugins (v1 and
//! v1beta1, tokens and client certificates, expiry, 401 refresh, failures), tokenFile rotation
//! during a watch, in-cluster configuration, impersonation headers and `-v` redaction.

use crate::harness;

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

use harness::{run, Cluster, Live, Outcome};
use kw_sim::{Faults, SimConfig};
use serde_json::json;

const LIMIT: Duration = Duration::from_secs(30);

/// A kubeconfig for the sim with one user given as JSON (JSON is YAML).
fn write_kubeconfig(cluster: &Cluster, name: &str, user: serde_json::Value) -> PathBuf {
    use base64::Engine as _;
    let config = json!({
        "apiVersion": "v1",
        "kind": "Config",
        "current-context": "c",
        "clusters": [{"name": "sim", "cluster": {
            "server": cluster.sim.url(),
            "certificate-authority-data":
                base64::engine::general_purpose::STANDARD.encode(cluster.sim.ca_pem()),
        }}],
        "contexts": [{"name": "c", "context": {"cluster": "sim", "user": "u", "namespace": "team-a"}}],
        "users": [{"name": "u", "user": user}],
    });
    let path = cluster.dir.path().join(name);
    std::fs::write(&path, config.to_string()).unwrap();
    path
}

/// An executable shell script in the cluster's temp dir.
fn write_script(cluster: &Cluster, name: &str, body: &str) -> PathBuf {
    use std::os::unix::fs::PermissionsExt as _;
    let path = cluster.dir.path().join(name);
    std::fs::write(&path, format!("#!/bin/sh\n{body}")).unwrap();
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
    path
}

fn kw_get(cluster: &Cluster, kubeconfig: &Path, args: &[&str]) -> Command {
    let mut cmd = cluster.kw();
    cmd.arg("get")
        .args(args)
        .arg("--kubeconfig")
        .arg(kubeconfig);
    cmd
}

/// How many times a plugin ran (each run appends a line to `runs`).
fn runs(cluster: &Cluster) -> usize {
    std::fs::read_to_string(cluster.dir.path().join("runs"))
        .map(|text| text.lines().count())
        .unwrap_or(0)
}

fn exec_user(api_version: &str, command: &Path) -> serde_json::Value {
    json!({"exec": {
        "apiVersion": api_version,
        "command": command,
        "args": null,
        "env": [{"name": "KW_TEST_VAR", "value": "from-kubeconfig"}],
        "interactiveMode": "Never",
        "provideClusterInfo": true,
    }})
}

/// A plugin body that records its run and prints `status` as an ExecCredential.
fn plugin_body(cluster: &Cluster, api_version: &str, status: &str) -> String {
    let dir = cluster.dir.path().display();
    format!(
        "echo run >> '{dir}/runs'\n\
         printf '%s' \"$KUBERNETES_EXEC_INFO\" > '{dir}/exec_info'\n\
         printf '%s' \"$KW_TEST_VAR\" > '{dir}/test_var'\n\
         cat <<EOF\n{{\"apiVersion\":\"{api_version}\",\"kind\":\"ExecCredential\",\"status\":{status}}}\nEOF\n"
    )
}

fn assert_ok(outcome: &Outcome) {
    assert_eq!(outcome.code, Some(0), "{outcome:#?}");
}

#[test]
fn exec_plugin_v1_token_is_used_and_cached() {
    let cluster = Cluster::seeded();
    let token = cluster.sim.admin_token();
    let plugin = write_script(
        &cluster,
        "plugin",
        &plugin_body(
            &cluster,
            "client.authentication.k8s.io/v1",
            &format!("{{\"token\":\"{token}\"}}"),
        ),
    );
    assert_eq!(plugin.parent(), Some(cluster.dir.path()));
    // A command with a path separator is relative to the kubeconfig's directory, not to the
    // working directory kw runs in.
    let config = write_kubeconfig(
        &cluster,
        "config",
        exec_user("client.authentication.k8s.io/v1", Path::new("./plugin")),
    );
    let outcome = run(kw_get(&cluster, &config, &["pods"]).current_dir("/"), LIMIT);
    assert_ok(&outcome);
    assert!(outcome.stdout.starts_with("NAME"), "{}", outcome.stdout);
    // Discovery and the list are several requests; a credential without expiry is reused.
    assert!(cluster.sim.requests().len() >= 2);
    assert_eq!(runs(&cluster), 1);

    let info: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(cluster.dir.path().join("exec_info")).unwrap(),
    )
    .unwrap();
    assert_eq!(info["apiVersion"], "client.authentication.k8s.io/v1");
    assert_eq!(info["kind"], "ExecCredential");
    assert_eq!(info["spec"]["interactive"], false);
    assert_eq!(info["spec"]["cluster"]["server"], cluster.sim.url());
    assert!(info["spec"]["cluster"]["certificate-authority-data"].is_string());
    assert_eq!(
        std::fs::read_to_string(cluster.dir.path().join("test_var")).unwrap(),
        "from-kubeconfig"
    );
    for request in cluster.sim.requests() {
        assert!(
            request
                .headers
                .iter()
                .any(|(n, v)| n.eq_ignore_ascii_case("authorization") && v == "Bearer <redacted>"),
            "{request:?}"
        );
    }
}

#[test]
fn exec_plugin_v1beta1_client_certificate_is_used() {
    let cluster = Cluster::seeded();
    let (cert, key) = cluster.sim.client_cert_pem();
    let status = json!({"clientCertificateData": cert, "clientKeyData": key}).to_string();
    let plugin = write_script(
        &cluster,
        "plugin",
        &plugin_body(&cluster, "client.authentication.k8s.io/v1beta1", &status),
    );
    // v1beta1 may leave interactiveMode out.
    let user = json!({"exec": {
        "apiVersion": "client.authentication.k8s.io/v1beta1",
        "command": plugin,
    }});
    let config = write_kubeconfig(&cluster, "config", user);
    let outcome = run(&mut kw_get(&cluster, &config, &["pods", "-A"]), LIMIT);
    assert_ok(&outcome);
    assert!(
        outcome.stdout.starts_with("NAMESPACE"),
        "{}",
        outcome.stdout
    );
    let requests = cluster.sim.requests();
    assert!(requests.iter().all(|r| r.status == 200), "{requests:#?}");
    assert!(requests.iter().all(|r| !r
        .headers
        .iter()
        .any(|(n, _)| n.eq_ignore_ascii_case("authorization"))));
}

#[test]
fn exec_plugin_is_rerun_after_a_401() {
    let cluster = Cluster::seeded();
    let admin = cluster.sim.admin_token();
    let dir = cluster.dir.path().display().to_string();
    let body = format!(
        "echo run >> '{dir}/runs'\n\
         if [ \"$(wc -l < '{dir}/runs')\" -le 1 ]; then token=rejected-token; else token={admin}; fi\n\
         echo '{{\"apiVersion\":\"client.authentication.k8s.io/v1\",\"kind\":\"ExecCredential\",\"status\":{{\"token\":\"'$token'\"}}}}'\n"
    );
    let plugin = write_script(&cluster, "plugin", &body);
    let config = write_kubeconfig(
        &cluster,
        "config",
        exec_user("client.authentication.k8s.io/v1", &plugin),
    );
    let outcome = run(&mut kw_get(&cluster, &config, &["pods"]), LIMIT);
    assert_ok(&outcome);
    assert_eq!(runs(&cluster), 2);
    let statuses: Vec<u16> = cluster.sim.requests().iter().map(|r| r.status).collect();
    assert_eq!(statuses[0], 401, "{statuses:?}");
    assert!(statuses[1..].iter().all(|s| *s == 200), "{statuses:?}");
}

#[test]
fn expiring_exec_token_is_renewed_during_a_watch() {
    // The first watches are refused with 500, so kw reconnects after backoffs of about 1 s and
    // 2 s; every new request must carry a fresh token because each expires within a second.
    let cluster = Cluster::start(SimConfig {
        clock: Some(harness::frozen_now()),
        faults: Faults {
            watch_status: Some(500),
            times: Some(2),
            ..Faults::default()
        },
        ..SimConfig::default()
    });
    let admin = cluster.sim.admin_token();
    let dir = cluster.dir.path().display().to_string();
    let body = format!(
        "echo run >> '{dir}/runs'\n\
         expires=$(date -u -d \"@$(( $(date +%s) + 1 ))\" +%Y-%m-%dT%H:%M:%SZ)\n\
         echo '{{\"apiVersion\":\"client.authentication.k8s.io/v1beta1\",\"kind\":\"ExecCredential\",\"status\":{{\"token\":\"{admin}\",\"expirationTimestamp\":\"'$expires'\"}}}}'\n"
    );
    let plugin = write_script(&cluster, "plugin", &body);
    let config = write_kubeconfig(
        &cluster,
        "config",
        exec_user("client.authentication.k8s.io/v1beta1", &plugin),
    );
    let live = Live::spawn(&mut kw_get(
        &cluster,
        &config,
        &["pods", "-w", "--request-timeout", "8s"],
    ));
    live.lines_until(LIMIT, |line| line.starts_with("NAME"));
    let (code, _, stderr) = live.finish(LIMIT);
    assert_eq!(code, Some(0), "{stderr}");
    let requests = cluster.sim.requests();
    let watches = requests
        .iter()
        .filter(|r| r.path.contains("watch=1"))
        .count();
    assert!(watches >= 3, "{requests:#?}");
    assert!(
        runs(&cluster) >= requests.len(),
        "{} runs for {} requests",
        runs(&cluster),
        requests.len()
    );
    assert!(requests.iter().all(|r| r.status != 401), "{requests:#?}");
}

#[test]
fn failing_plugin_passes_its_stderr_and_names_the_user() {
    let cluster = Cluster::seeded();
    let plugin = write_script(
        &cluster,
        "plugin",
        "echo 'plugin: please run aws sso login' >&2\nexit 3\n",
    );
    let config = write_kubeconfig(
        &cluster,
        "config",
        exec_user("client.authentication.k8s.io/v1", &plugin),
    );
    let outcome = run(&mut kw_get(&cluster, &config, &["pods"]), LIMIT);
    assert_eq!(outcome.code, Some(4), "{outcome:#?}");
    assert!(outcome.stderr.contains("plugin: please run aws sso login"));
    assert!(
        outcome.stderr.contains("user \"u\": exec plugin")
            && outcome.stderr.contains("exited with status 3"),
        "{}",
        outcome.stderr
    );
    assert!(
        cluster.sim.requests().is_empty(),
        "nothing sent without a credential"
    );
}

#[test]
fn missing_plugin_shows_the_install_hint() {
    let cluster = Cluster::seeded();
    let user = json!({"exec": {
        "apiVersion": "client.authentication.k8s.io/v1beta1",
        "command": "kw-no-such-plugin",
        "installHint": "Install kw-no-such-plugin:\n  brew install it",
    }});
    let config = write_kubeconfig(&cluster, "config", user);
    let outcome = run(&mut kw_get(&cluster, &config, &["pods"]), LIMIT);
    assert_eq!(outcome.code, Some(4), "{outcome:#?}");
    let stderr = outcome.stderr.trim_end();
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(
        stderr.contains("\"kw-no-such-plugin\" was not found")
            && stderr.contains("install hint: Install kw-no-such-plugin: brew install it"),
        "{stderr}"
    );
}

#[test]
fn bad_plugin_configurations_and_outputs_are_explained() {
    let cluster = Cluster::seeded();
    let alpha =
        json!({"exec": {"apiVersion": "client.authentication.k8s.io/v1alpha1", "command": "aws"}});
    let config = write_kubeconfig(&cluster, "alpha", alpha);
    let outcome = run(&mut kw_get(&cluster, &config, &["pods"]), LIMIT);
    assert_eq!(outcome.code, Some(1), "{outcome:#?}");
    assert!(
        outcome.stderr.contains("v1alpha1 was removed"),
        "{}",
        outcome.stderr
    );

    let no_mode =
        json!({"exec": {"apiVersion": "client.authentication.k8s.io/v1", "command": "aws"}});
    let config = write_kubeconfig(&cluster, "no-mode", no_mode);
    let outcome = run(&mut kw_get(&cluster, &config, &["pods"]), LIMIT);
    assert!(
        outcome.stderr.contains("must set interactiveMode"),
        "{}",
        outcome.stderr
    );

    let plugin = write_script(
        &cluster,
        "wrong-version",
        &plugin_body(
            &cluster,
            "client.authentication.k8s.io/v1beta1",
            "{\"token\":\"x\"}",
        ),
    );
    let config = write_kubeconfig(
        &cluster,
        "mismatch",
        exec_user("client.authentication.k8s.io/v1", &plugin),
    );
    let outcome = run(&mut kw_get(&cluster, &config, &["pods"]), LIMIT);
    assert_eq!(outcome.code, Some(4), "{outcome:#?}");
    assert!(
        outcome.stderr.contains(
            "is configured to use API version client.authentication.k8s.io/v1, plugin returned version client.authentication.k8s.io/v1beta1"
        ),
        "{}",
        outcome.stderr
    );
}

#[test]
fn token_file_rotation_is_picked_up_during_a_watch() {
    // Every watch connection is dropped at its first event, so kw reconnects whenever something
    // changes; the reconnect after the rotation must use the new token. The new token belongs
    // to the limited user, which the server refuses for an all-namespaces watch: that refusal
    // proves the file was read again.
    let cluster = Cluster::start(SimConfig {
        clock: Some(harness::frozen_now()),
        faults: Faults {
            close_after: Some(0),
            ..Faults::default()
        },
        ..SimConfig::default()
    });
    let token_path = cluster.dir.path().join("token");
    std::fs::write(&token_path, format!("{}\n", cluster.sim.admin_token())).unwrap();
    let config = write_kubeconfig(&cluster, "config", json!({"tokenFile": "token"}));
    let live = Live::spawn(&mut kw_get(&cluster, &config, &["pods", "-A", "-w"]));
    live.lines_until(LIMIT, |line| line.starts_with("NAMESPACE"));
    // Let the first watch start with the old token.
    harness::wait_for("a watch to start", LIMIT, || {
        let requests = cluster.sim.requests();
        requests.iter().any(|r| r.path.contains("watch=1"))
    });
    std::fs::write(&token_path, cluster.sim.limited_token()).unwrap();
    cluster
        .sim
        .create(
            "pods",
            json!({"metadata": {"name": "rotate-1", "namespace": "default"}}),
        )
        .unwrap();
    let (code, _, stderr) = live.finish(LIMIT);
    assert_eq!(code, Some(4), "{stderr}");
    assert!(stderr.contains("User \"limited\" cannot watch"), "{stderr}");
}

#[test]
fn in_cluster_configuration_uses_the_service_account() {
    let cluster = Cluster::seeded();
    let sa = cluster.dir.path().join("serviceaccount");
    std::fs::create_dir_all(&sa).unwrap();
    std::fs::write(sa.join("token"), cluster.sim.admin_token()).unwrap();
    std::fs::write(sa.join("ca.crt"), cluster.sim.ca_pem()).unwrap();
    std::fs::write(sa.join("namespace"), "team-a\n").unwrap();
    let in_pod = |cmd: &mut Command| {
        cmd.env("KUBERNETES_SERVICE_HOST", "127.0.0.1")
            .env("KUBERNETES_SERVICE_PORT", cluster.sim.port().to_string())
            .env("KW_SERVICE_ACCOUNT_DIR", &sa)
            .env_remove("POD_NAMESPACE");
    };
    let mut cmd = cluster.kw();
    cmd.args(["get", "pods"]);
    in_pod(&mut cmd);
    let outcome = run(&mut cmd, LIMIT);
    assert_ok(&outcome);
    // The same rows as through the kubeconfig for namespace team-a.
    let expected = run(&mut cluster.get(&["pods", "-n", "team-a"]), LIMIT);
    assert_eq!(outcome.stdout, expected.stdout);
    assert!(!outcome.stdout.is_empty());

    // Without the token file it is not a pod: kubectl's "no configuration" error.
    std::fs::remove_file(sa.join("token")).unwrap();
    let mut cmd = cluster.kw();
    cmd.args(["get", "pods"]);
    in_pod(&mut cmd);
    let outcome = run(&mut cmd, LIMIT);
    assert_eq!(outcome.code, Some(1));
    assert!(
        outcome.stderr.contains("no configuration"),
        "{}",
        outcome.stderr
    );
}

#[test]
fn impersonation_headers_reach_the_server() {
    let cluster = Cluster::seeded();
    let outcome = run(
        &mut cluster.get(&[
            "namespaces",
            "--as",
            "jane",
            "--as-group",
            "dev",
            "--as-group",
            "ops",
            "--as-uid",
            "1234",
        ]),
        LIMIT,
    );
    assert_ok(&outcome);
    let requests = cluster.sim.requests();
    assert!(!requests.is_empty());
    for request in requests {
        let values = |name: &str| -> Vec<String> {
            request
                .headers
                .iter()
                .filter(|(n, _)| n.eq_ignore_ascii_case(name))
                .map(|(_, v)| v.clone())
                .collect()
        };
        assert_eq!(values("impersonate-user"), ["jane"]);
        assert_eq!(values("impersonate-group"), ["dev", "ops"]);
        assert_eq!(values("impersonate-uid"), ["1234"]);
    }

    // The kubeconfig's as/as-groups do the same.
    let user = json!({"token": cluster.sim.admin_token(), "as": "sa", "as-groups": ["g1"]});
    let config = write_kubeconfig(&cluster, "as", user);
    let before = cluster.sim.requests().len();
    let outcome = run(&mut kw_get(&cluster, &config, &["pods"]), LIMIT);
    assert_ok(&outcome);
    let request = &cluster.sim.requests()[before];
    assert!(request
        .headers
        .contains(&("Impersonate-User".to_string(), "sa".to_string())));
    assert!(request
        .headers
        .contains(&("Impersonate-Group".to_string(), "g1".to_string())));
}

/// One header line of 15,000 bytes (a long group name; an OIDC token with many groups is as
/// long) still fits what kw writes a request's head into (16 KiB a line since issue 47).
#[test]
fn a_header_line_of_fifteen_thousand_bytes_reaches_the_server() {
    let cluster = Cluster::seeded();
    let group = "g".repeat(15_000);
    let outcome = run(
        &mut cluster.get(&["namespaces", "--as-group", &group, "--as", "jane"]),
        LIMIT,
    );
    assert_ok(&outcome);
    let requests = cluster.sim.requests();
    assert!(!requests.is_empty());
    for request in requests {
        assert!(
            request
                .headers
                .iter()
                .any(|(name, value)| name == "Impersonate-Group" && *value == group),
            "{} {}",
            request.method,
            request.path
        );
    }
}

/// A header line longer than the 16 KiB kw writes a line into fails at once with one line
/// that names the header (ureq's own words were "output too small to write output", and the
/// run retried them as a broken connection), as a usage error, and nothing reaches the server.
#[test]
fn a_header_line_over_sixteen_kibibytes_is_named_in_one_clear_line() {
    let cluster = Cluster::seeded();
    let group = "g".repeat(17_000);
    let outcome = run(
        &mut cluster.get(&["namespaces", "--as-group", &group, "--as", "jane"]),
        LIMIT,
    );
    assert_eq!(outcome.code, Some(1), "{}", outcome.stderr);
    assert_eq!(outcome.stderr.lines().count(), 1, "{}", outcome.stderr);
    assert!(
        outcome.stderr.contains(
            "the header Impersonate-Group is too long to send: 17021 bytes in one line of the \
             request, more than the 16384 bytes"
        ),
        "{}",
        outcome.stderr
    );
    assert!(!outcome.stderr.contains("output too small"));
    assert!(cluster.sim.requests().is_empty());
}

#[test]
fn verbose_logs_redact_the_bearer_token() {
    let cluster = Cluster::seeded();
    let outcome = run(&mut cluster.get(&["pods", "-v", "9"]), LIMIT);
    assert_ok(&outcome);
    assert!(
        outcome
            .stderr
            .contains("Request Header: authorization: Bearer <redacted>"),
        "{}",
        outcome.stderr
    );
    assert!(!outcome.stderr.contains(&cluster.sim.admin_token()));
    assert!(!outcome.stdout.contains(&cluster.sim.admin_token()));
}

#[test]
fn redirects_are_not_followed_so_the_token_stays_home() {
    use std::io::{BufRead, BufReader, Write};
    use std::net::TcpListener;
    let elsewhere = TcpListener::bind("127.0.0.1:0").unwrap();
    let elsewhere_port = elsewhere.local_addr().unwrap().port();
    elsewhere.set_nonblocking(true).unwrap();
    let server = TcpListener::bind("127.0.0.1:0").unwrap();
    let server_port = server.local_addr().unwrap().port();
    // Answers every request on one connection with a redirect to the other listener.
    std::thread::spawn(move || {
        for stream in server.incoming().flatten() {
            let _ = stream.set_read_timeout(Some(Duration::from_secs(10)));
            let mut reader = BufReader::new(&stream);
            let mut line = String::new();
            loop {
                line.clear();
                match reader.read_line(&mut line) {
                    Ok(0) | Err(_) => break,
                    Ok(_) if line == "\r\n" => {
                        let response = format!(
                            "HTTP/1.1 302 Found\r\nLocation: http://127.0.0.1:{elsewhere_port}/api/v1\r\nContent-Length: 0\r\n\r\n"
                        );
                        if (&stream).write_all(response.as_bytes()).is_err() {
                            break;
                        }
                    }
                    Ok(_) => {}
                }
            }
        }
    });
    let cluster = Cluster::seeded();
    let mut cmd = cluster.kw();
    cmd.args(["get", "pods", "--token", "very-secret", "--server"])
        .arg(format!("http://127.0.0.1:{server_port}"));
    let outcome = run(&mut cmd, LIMIT);
    assert_ne!(outcome.code, Some(0), "{outcome:#?}");
    assert!(
        outcome.stderr.contains(&format!(
            "redirected the request to http://127.0.0.1:{elsewhere_port}/api/v1"
        )),
        "{}",
        outcome.stderr
    );
    assert!(!outcome.stderr.contains("very-secret"));
    assert!(
        elsewhere.accept().is_err(),
        "kw connected to the redirect target"
    );
}

#[test]
fn an_unchanged_token_file_is_not_retried_after_a_401() {
    let cluster = Cluster::seeded();
    std::fs::write(cluster.dir.path().join("token"), "rejected-token\n").unwrap();
    let config = write_kubeconfig(&cluster, "config", json!({"tokenFile": "token"}));
    let outcome = run(&mut kw_get(&cluster, &config, &["pods"]), LIMIT);
    assert_eq!(outcome.code, Some(4), "{outcome:#?}");
    assert!(
        outcome
            .stderr
            .contains("You must be logged in to the server"),
        "{}",
        outcome.stderr
    );
    // The file was read again after the 401, found unchanged, and not sent a second time.
    assert_eq!(cluster.sim.requests().len(), 1);
}

// ---- credentials never reach stderr (issue #11, item 1) -----------------------------------

/// Every 8-character piece of `secret` that shows up in `text`: a leak of part of a token is
/// a leak too.
fn leaked_pieces<'a>(secret: &'a str, text: &str) -> Vec<&'a str> {
    let chars: Vec<(usize, char)> = secret.char_indices().collect();
    (0..chars.len().saturating_sub(7))
        .filter_map(|i| {
            let start = chars[i].0;
            let end = chars.get(i + 8).map_or(secret.len(), |c| c.0);
            let piece = &secret[start..end];
            text.contains(piece).then_some(piece)
        })
        .collect()
}

/// Where a test token is put: the three places a kubeconfig user gets a bearer token from.
#[derive(Debug, Clone, Copy)]
enum TokenPlace {
    Inline,
    File,
    Exec,
}

/// A kubeconfig whose user gets `token` from `place`.
fn kubeconfig_with_token(cluster: &Cluster, place: TokenPlace, token: &str) -> PathBuf {
    match place {
        TokenPlace::Inline => write_kubeconfig(cluster, "config", json!({"token": token})),
        TokenPlace::File => {
            std::fs::write(cluster.dir.path().join("token"), token).unwrap();
            write_kubeconfig(cluster, "config", json!({"tokenFile": "token"}))
        }
        TokenPlace::Exec => {
            let credential = json!({
                "apiVersion": "client.authentication.k8s.io/v1",
                "kind": "ExecCredential",
                "status": {"token": token},
            });
            let path = cluster.dir.path().join("credential.json");
            std::fs::write(&path, credential.to_string()).unwrap();
            let script = write_script(cluster, "plugin", &format!("cat '{}'\n", path.display()));
            write_kubeconfig(
                cluster,
                "config",
                exec_user("client.authentication.k8s.io/v1", &script),
            )
        }
    }
}

#[test]
fn tokens_http_cannot_carry_are_refused_by_name_and_never_shown() {
    let cluster = Cluster::seeded();
    let secret = "SUPERSECRETTOKEN123";
    let bad = [
        (format!("{secret}\n{secret}"), "a line break"),
        (format!("{secret}\t{secret}"), "a tab"),
        (format!("{secret}é{secret}"), "a non-ASCII character"),
        (format!("{secret}\x1b[31m{secret}"), "a control character"),
    ];
    for place in [TokenPlace::Inline, TokenPlace::File, TokenPlace::Exec] {
        for (token, what) in &bad {
            for verbosity in ["0", "6", "9"] {
                let config = kubeconfig_with_token(&cluster, place, token);
                let outcome = run(
                    &mut kw_get(&cluster, &config, &["pods", "-v", verbosity]),
                    LIMIT,
                );
                let context = format!("{place:?} {what} -v {verbosity}: {outcome:#?}");
                assert!(!outcome.stderr.contains(secret), "{context}");
                assert!(outcome.stderr.contains(what), "{context}");
                assert!(outcome.stderr.contains("user \"u\""), "{context}");
                let expected = match place {
                    TokenPlace::Exec => 4,
                    TokenPlace::Inline | TokenPlace::File => 1,
                };
                assert_eq!(outcome.code, Some(expected), "{context}");
            }
        }
    }
    // A trailing newline in a token file is an editor's, and trimmed as client-go does; inline
    // (a YAML `token: |` block) it is part of the token, and refused.
    let token = format!("{}\n", cluster.sim.admin_token());
    let config = kubeconfig_with_token(&cluster, TokenPlace::File, &token);
    assert_ok(&run(&mut kw_get(&cluster, &config, &["pods"]), LIMIT));
    let config = kubeconfig_with_token(&cluster, TokenPlace::Inline, &token);
    let outcome = run(&mut kw_get(&cluster, &config, &["pods", "-v", "9"]), LIMIT);
    assert_eq!(outcome.code, Some(1), "{outcome:#?}");
    assert!(leaked_pieces(&cluster.sim.admin_token(), &outcome.stderr).is_empty());
}

/// xorshift64*: reproducible random cases without a dependency; the seed is in every message.
struct Cases(u64);

impl Cases {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }

    fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[self.below(items.len())]
    }

    /// A token of the characters tokens are made of, with now and then one they must not hold.
    fn token(&mut self) -> String {
        const PLAIN: &[u8] =
            b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~+/";
        const HOSTILE: &[&str] = &[
            "\n", "\r\n", "\t", " ", "\x7f", "\x1b[31m", "\0", "é", "\u{2028}", "😀", "\"", "\\",
        ];
        let len = 16 + self.below(40);
        let mut token = String::new();
        while token.chars().count() < len {
            if self.below(12) == 0 {
                let piece: &str = HOSTILE[self.below(HOSTILE.len())];
                token.push_str(piece);
            } else {
                token.push(*self.pick(PLAIN) as char);
            }
        }
        token
    }
}

#[test]
fn no_credential_reaches_stderr_whatever_the_token_or_the_server_says() {
    let cluster = Cluster::seeded();
    let seed = 0x5eed_0011;
    let mut cases = Cases(seed);
    // Kubeconfig token fields: random tokens, sendable or not, from every source, at every -v.
    for case in 0..24 {
        let token = cases.token();
        let place = *cases.pick(&[TokenPlace::Inline, TokenPlace::File, TokenPlace::Exec]);
        let verbosity = *cases.pick(&["0", "4", "6", "9"]);
        let config = kubeconfig_with_token(&cluster, place, &token);
        let outcome = run(
            &mut kw_get(&cluster, &config, &["pods", "-v", verbosity]),
            LIMIT,
        );
        let leaks = leaked_pieces(token.trim(), &outcome.stderr);
        assert!(
            leaks.is_empty(),
            "seed {seed:#x} case {case} {place:?} -v {verbosity} token {token:?}: {leaks:?} in {}",
            outcome.stderr
        );
        assert!(
            matches!(outcome.code, Some(1 | 4)),
            "seed {seed:#x} case {case}: {outcome:#?}"
        );
    }
    // Server error bodies that echo the credential back amid random junk, on a fatal error and
    // on a retried one.
    let admin = cluster.sim.admin_token();
    for case in 0..8 {
        let message = format!(
            "{} Authorization: Bearer {admin} {}",
            cases.token(),
            cases.token()
        );
        let code = *cases.pick(&[403u16, 500, 401]);
        let verbosity = *cases.pick(&["0", "6", "9"]);
        cluster.sim.set_faults(Faults {
            list_status: Some(code),
            list_count: 1,
            list_message: Some(message.clone()),
            ..Faults::default()
        });
        let outcome = run(&mut cluster.get(&["pods", "-v", verbosity]), LIMIT);
        let leaks = leaked_pieces(&admin, &outcome.stderr);
        assert!(
            leaks.is_empty(),
            "seed {seed:#x} case {case} code {code}: {leaks:?} in {}",
            outcome.stderr
        );
        if code == 403 {
            assert!(outcome.stderr.contains("<redacted>"), "{}", outcome.stderr);
        }
    }
}

// ---- exec plugins: where they are found, how much is read (issue #11, item 10) ----------

#[test]
fn a_bare_plugin_name_is_not_found_through_the_current_directory() {
    let cluster = Cluster::seeded();
    let plugin = write_script(
        &cluster,
        "kw-dot-plugin",
        &plugin_body(
            &cluster,
            "client.authentication.k8s.io/v1",
            &format!(r#"{{"token":"{}"}}"#, cluster.sim.admin_token()),
        ),
    );
    let mut user = exec_user(
        "client.authentication.k8s.io/v1",
        Path::new("kw-dot-plugin"),
    );
    user["exec"]["provideClusterInfo"] = false.into();
    let config = write_kubeconfig(&cluster, "config", user);
    let system = std::env::var("PATH").unwrap_or_default();
    // `.` and an empty entry both mean the current directory, where the plugin is.
    for path in [
        format!(".:{system}"),
        format!(":{system}"),
        format!("{system}:"),
    ] {
        let mut cmd = kw_get(&cluster, &config, &["pods"]);
        cmd.current_dir(cluster.dir.path()).env("PATH", &path);
        let outcome = run(&mut cmd, LIMIT);
        assert_eq!(outcome.code, Some(4), "PATH={path}: {outcome:#?}");
        assert!(
            outcome.stderr.contains("\"kw-dot-plugin\" was not found"),
            "{}",
            outcome.stderr
        );
        assert_eq!(runs(&cluster), 0, "the plugin in . must not run");
    }
    // From an absolute PATH entry, the same plugin is found and used.
    let dir = plugin.parent().unwrap().display().to_string();
    let mut cmd = kw_get(&cluster, &config, &["pods"]);
    cmd.current_dir(cluster.dir.path())
        .env("PATH", format!("{dir}:{system}"));
    assert_ok(&run(&mut cmd, LIMIT));
    assert_eq!(runs(&cluster), 1);
}

#[test]
fn a_plugin_that_prints_without_end_is_stopped_at_one_mebibyte() {
    let cluster = Cluster::seeded();
    let plugin = write_script(&cluster, "plugin", "exec yes\n");
    let config = write_kubeconfig(
        &cluster,
        "config",
        exec_user("client.authentication.k8s.io/v1", &plugin),
    );
    let outcome = run(&mut kw_get(&cluster, &config, &["pods"]), LIMIT);
    assert_eq!(outcome.code, Some(4), "{outcome:#?}");
    assert!(
        outcome.stderr.contains("printed more than 1 MiB"),
        "{}",
        outcome.stderr
    );
}

// ---- exec plugins of a fleet: a few at a time (issue #47) ---------------------------------

/// Twelve contexts, each with a user of its own whose exec plugin takes a while: kw watching all
/// of them runs every plugin, a few at a time however many contexts start at once.
#[test]
fn a_fleet_runs_its_exec_plugins_a_few_at_a_time() {
    const CONTEXTS: usize = 12;
    let cluster = Cluster::seeded();
    let dir = cluster.dir.path().display();
    // Each run counts the runs under way (itself included) while it lasts; the count read can
    // only be short of the truth (two runs may each miss the other), never over it.
    let plugin = write_script(
        &cluster,
        "plugin",
        &format!(
            "mkdir -p '{dir}/running'\n\
             touch '{dir}/running/'$$\n\
             ls '{dir}/running' | wc -l >> '{dir}/under_way'\n\
             sleep 0.3\n\
             rm '{dir}/running/'$$\n\
             echo run >> '{dir}/runs'\n\
             cat <<EOF\n{{\"apiVersion\":\"client.authentication.k8s.io/v1\",\"kind\":\"ExecCredential\",\"status\":{{\"token\":\"{}\"}}}}\nEOF\n",
            cluster.sim.admin_token()
        ),
    );
    let user = exec_user("client.authentication.k8s.io/v1", &plugin);
    let path = cluster.fleet_kubeconfig(&vec![user; CONTEXTS]);
    let mut live = Live::spawn(&mut kw_get(
        &cluster,
        &path,
        &["pods", "-A", "-w", "-o", "name", "--context", "c-*"],
    ));
    // Every context lists (its plugin ran) before kw is stopped.
    let listed = std::cell::RefCell::new(std::collections::BTreeSet::new());
    live.lines_until(LIMIT, |line| {
        let mut listed = listed.borrow_mut();
        listed.insert(line.split('/').next().unwrap_or_default().to_string());
        listed.len() == CONTEXTS
    });
    let stderr = live.kill();
    assert_eq!(runs(&cluster), CONTEXTS, "one run per context: {stderr}");
    let under_way: Vec<usize> = std::fs::read_to_string(cluster.dir.path().join("under_way"))
        .unwrap()
        .lines()
        .map(|n| n.trim().parse().unwrap())
        .collect();
    let most = under_way.iter().max().copied().unwrap_or_default();
    assert!(
        (1..=4).contains(&most),
        "at most 4 plugins at once, {most} were: {under_way:?}"
    );
}

/// A one-shot list over several contexts gets them ready side by side (issue 61, point 4):
/// each context's plugin takes a while, and they run at once, not one after another (a slow
/// first context held up every other); the rows still come in the fleet's order.
#[test]
fn a_one_shot_fleet_runs_its_contexts_plugins_side_by_side_and_prints_in_order() {
    const CONTEXTS: usize = 4;
    let cluster = Cluster::seeded();
    let dir = cluster.dir.path().display();
    // Each run waits (bounded) until another is under way too, and records how many were.
    let plugin = write_script(
        &cluster,
        "plugin",
        &format!(
            "mkdir -p '{dir}/running'\n\
             touch '{dir}/running/'$$\n\
             i=0\n\
             while [ \"$(ls '{dir}/running' | wc -l)\" -lt 2 ] && [ $i -lt 40 ]; do sleep 0.05; i=$((i+1)); done\n\
             ls '{dir}/running' | wc -l >> '{dir}/under_way'\n\
             sleep 0.2\n\
             rm '{dir}/running/'$$\n\
             cat <<EOF\n{{\"apiVersion\":\"client.authentication.k8s.io/v1\",\"kind\":\"ExecCredential\",\"status\":{{\"token\":\"{}\"}}}}\nEOF\n",
            cluster.sim.admin_token()
        ),
    );
    let names: Vec<String> = (0..CONTEXTS).map(|i| format!("c-{i}")).collect();
    let user = exec_user("client.authentication.k8s.io/v1", &plugin);
    let path = cluster.fleet_kubeconfig(&vec![user; CONTEXTS]);
    let out = run(
        kw_get(&cluster, &path, &["pods", "-o", "name", "--context", "c-*"]),
        LIMIT,
    );
    assert_ok(&out);
    let under_way: Vec<usize> = std::fs::read_to_string(cluster.dir.path().join("under_way"))
        .unwrap()
        .lines()
        .map(|n| n.trim().parse().unwrap())
        .collect();
    assert_eq!(under_way.len(), CONTEXTS, "{under_way:?}");
    let most = under_way.iter().max().copied().unwrap_or_default();
    assert!(
        most >= 2,
        "the contexts' plugins ran one after another: {under_way:?}"
    );
    // Every context's rows, a block each, in the fleet's order.
    let contexts: Vec<&str> = out
        .stdout
        .lines()
        .map(|line| line.split('/').next().unwrap_or_default())
        .collect();
    let mut blocks = contexts.clone();
    blocks.dedup();
    assert_eq!(blocks, names, "{}", out.stdout);
}

/// A plugin that hangs (for `secs`, then fails, writing `exited` in the cluster's dir), its
/// stderr apart from kw's so that a test reading kw's stderr to its end never waits for it.
fn hung_plugin(cluster: &Cluster, secs: u32) -> PathBuf {
    let dir = cluster.dir.path().display();
    write_script(
        cluster,
        "hung",
        &format!("sleep {secs} 2>/dev/null\necho $$ >> '{dir}/exited'\nexit 1\n"),
    )
}

/// A plugin that answers at once with the sim's admin token.
fn quick_plugin(cluster: &Cluster) -> PathBuf {
    write_script(
        cluster,
        "quick",
        &format!(
            "cat <<EOF\n{{\"apiVersion\":\"client.authentication.k8s.io/v1\",\"kind\":\"ExecCredential\",\"status\":{{\"token\":\"{}\"}}}}\nEOF\n",
            cluster.sim.admin_token()
        ),
    )
}

/// The contexts that `-o name` lines (`CONTEXT/kind/name`) came from, each once, in order.
fn contexts_of(lines: &[String]) -> Vec<String> {
    let mut contexts: Vec<String> = lines
        .iter()
        .map(|line| line.split('/').next().unwrap_or_default().to_string())
        .collect();
    contexts.dedup();
    contexts
}

/// A one-shot list over three contexts whose first one's plugin hangs, with no deadline
/// (issue 61, point 4): the other two are printed after 5 s instead of waiting for it (before:
/// nothing was printed until the plugin ended), kw says once which context is late, and the
/// late context's error comes after them when its plugin gives up.
#[test]
fn a_hung_first_context_does_not_hold_up_a_one_shot_fleet() {
    let cluster = Cluster::seeded();
    let hung = exec_user(
        "client.authentication.k8s.io/v1",
        &hung_plugin(&cluster, 12),
    );
    let quick = exec_user("client.authentication.k8s.io/v1", &quick_plugin(&cluster));
    let path = cluster.fleet_kubeconfig(&[hung, quick.clone(), quick]);
    let live = Live::spawn(&mut kw_get(
        &cluster,
        &path,
        &["pods", "-o", "name", "--context", "c-*"],
    ));
    let lines = live.lines_until(LIMIT, |line| line.starts_with("c-2/"));
    assert!(
        !cluster.dir.path().join("exited").exists(),
        "the others waited for the hung plugin: {lines:?}"
    );
    let (code, rest, stderr) = live.finish(LIMIT);
    let all: Vec<String> = lines.into_iter().chain(rest).collect();
    assert_eq!(contexts_of(&all), ["c-1", "c-2"], "{all:?}\n{stderr}");
    assert_eq!(
        stderr
            .matches("context \"c-0\": no answer after 5s: the other contexts are printed")
            .count(),
        1,
        "{stderr}"
    );
    // The hung context fails when its plugin does: the run's exit says so.
    assert!(stderr.contains("error: context \"c-0\""), "{stderr}");
    assert_ne!(code, Some(0), "{stderr}");
}

/// A watch over a fleet where 8 contexts' plugins hang and 8 answer at once (issue 61, point
/// 4): every healthy context's first rows come before any hung plugin ends (8 s). With 10 s of
/// patience per plugin permit, the hung ones held the healthy ones' first rows for 10 and 20 s.
#[test]
fn hung_plugins_in_a_watched_fleet_cost_the_healthy_contexts_little() {
    const HUNG: usize = 8;
    let cluster = Cluster::seeded();
    let hung = exec_user("client.authentication.k8s.io/v1", &hung_plugin(&cluster, 8));
    let quick = exec_user("client.authentication.k8s.io/v1", &quick_plugin(&cluster));
    // Each context's plugin its own (an argument apart): identical ones would run once.
    let users: Vec<serde_json::Value> = (0..2 * HUNG)
        .map(|i| {
            let mut user = if i < HUNG {
                hung.clone()
            } else {
                quick.clone()
            };
            user["exec"]["args"] = json!([format!("context-{i}")]);
            user
        })
        .collect();
    let path = cluster.fleet_kubeconfig(&users);
    let mut live = Live::spawn(&mut kw_get(
        &cluster,
        &path,
        &["pods", "-w", "-o", "name", "--context", "c-*"],
    ));
    let listed = std::cell::RefCell::new(std::collections::BTreeSet::new());
    live.lines_until(LIMIT, |line| {
        let mut listed = listed.borrow_mut();
        listed.insert(line.split('/').next().unwrap_or_default().to_string());
        listed.len() == HUNG
    });
    let exited = cluster.dir.path().join("exited").exists();
    let stderr = live.kill();
    assert!(
        !exited,
        "a hung plugin ended before the healthy contexts' first rows: {stderr}"
    );
    let healthy: std::collections::BTreeSet<String> =
        (HUNG..2 * HUNG).map(|i| format!("c-{i}")).collect();
    assert_eq!(*listed.borrow(), healthy, "{stderr}");
}
