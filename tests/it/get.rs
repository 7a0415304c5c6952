//! `kw get` end to end against `kw sim` over TLS: errors and exit codes, live output in a pipe,
//! closed pipes, Ctrl-C. (Output formats are compared with kubectl's in tests/golden.rs.)

use crate::harness;

use std::io::{BufRead, BufReader};
use std::process::Stdio;
use std::time::{Duration, Instant};

use harness::{run, Cluster, Live};
use serde_json::json;

const LIMIT: Duration = Duration::from_secs(20);

fn pod(name: &str) -> serde_json::Value {
    json!({
        "apiVersion": "v1",
        "kind": "Pod",
        "metadata": {"name": name, "namespace": "default", "labels": {"app": "test"}},
        "spec": {"containers": [{"name": "c", "image": "busybox"}], "nodeName": "node-1"},
        "status": {"phase": "Pending"}
    })
}

#[test]
fn lists_with_the_token_and_the_certificate_contexts() {
    let cluster = Cluster::seeded();
    for context in ["sim", "sim-cert"] {
        let out = run(
            cluster.get(&["pods", "-o", "name", "--context", context]),
            LIMIT,
        );
        assert_eq!(out.code, Some(0), "{context}: {}", out.stderr);
        assert!(
            out.stdout.contains("pod/init-demo\n"),
            "{context}: {}",
            out.stdout
        );
    }
    let headers: Vec<_> = cluster
        .sim
        .requests()
        .into_iter()
        .flat_map(|r| r.headers)
        .filter(|(k, _)| k.eq_ignore_ascii_case("authorization"))
        .collect();
    assert!(headers.iter().any(|(_, v)| v == "Bearer <redacted>"));
}

#[test]
fn exit_codes_say_what_went_wrong() {
    let cluster = Cluster::seeded();
    let cases: &[(&[&str], i32, &str)] = &[
        (
            &["pods", "--context", "sim-bad-token"],
            4,
            "You must be logged in",
        ),
        (
            &["pods", "--context", "sim-limited", "-n", "default"],
            4,
            "forbidden",
        ),
        (&["pod", "nosuch"], 6, "pods \"nosuch\" not found"),
        (
            &["foo"],
            1,
            "the server doesn't have a resource type \"foo\"",
        ),
        (
            &["pods", "--context", "nosuch"],
            1,
            "context \"nosuch\" does not exist",
        ),
        (&["pods", "-o", "bogus"], 1, "output format \"bogus\""),
        (
            &["pods", "--output-watch-events"],
            1,
            "can only be used with --watch",
        ),
    ];
    for (args, code, message) in cases {
        let out = run(cluster.get(args), LIMIT);
        assert_eq!(out.code, Some(*code), "{args:?}: {}", out.stderr);
        assert!(out.stderr.contains(message), "{args:?}: {}", out.stderr);
        assert_eq!(
            out.stderr.lines().count(),
            1,
            "{args:?}: one line: {}",
            out.stderr
        );
        assert!(!out.stderr.contains("panicked"), "{}", out.stderr);
    }
}

/// `--ignore-not-found`, as kubectl: a one-shot get of missing objects, or an empty list, says
/// nothing at all and exits 0; a watch still needs its object.
#[test]
fn ignore_not_found_says_nothing_of_what_is_missing() {
    let cluster = Cluster::seeded();
    for args in [
        &["pod", "nosuch", "--ignore-not-found"][..],
        &["pods", "-l", "app=nosuch", "--ignore-not-found"],
        &["pods", "-n", "nosuch", "--ignore-not-found=true"],
    ] {
        let out = run(cluster.get(args), LIMIT);
        assert_eq!(
            (out.code, out.stdout.as_str(), out.stderr.as_str()),
            (Some(0), "", ""),
            "{args:?}"
        );
    }
    let out = run(cluster.get(&["pods", "-l", "app=nosuch"]), LIMIT);
    assert_eq!(out.stderr, "No resources found in default namespace.\n");
    let out = run(
        cluster.get(&["pod", "nosuch", "-w", "--ignore-not-found"]),
        LIMIT,
    );
    assert_ne!(out.code, Some(0), "{}", out.stderr);
    assert!(
        out.stderr.contains("\"nosuch\" not found"),
        "{}",
        out.stderr
    );
}

#[test]
fn mistakes_are_answered_with_what_was_meant() {
    let cluster = Cluster::seeded();
    // A typo in a type: kubectl's line, then the nearest type the server has.
    for (typed, meant) in [
        ("pdos", "pods"),
        ("deploymnets.apps", "deployments.apps"),
        ("svcs", "svc"),
        ("widgts", "widgets"),
    ] {
        let out = run(cluster.get(&[typed]), LIMIT);
        assert_eq!(out.code, Some(1), "{typed}: {}", out.stderr);
        assert_eq!(
            out.stderr,
            format!(
                "error: the server doesn't have a resource type \"{typed}\"\n\
                 did you mean \"{meant}\"?\n"
            )
        );
    }
    // Two letters, one of them another (`eb`: `ev`? `ep`?), are no slip to guess at.
    let out = run(cluster.get(&["eb"]), LIMIT);
    assert_eq!(
        out.stderr,
        "error: the server doesn't have a resource type \"eb\"\n"
    );
    // No type at all: kubectl's words, and what to give.
    let out = run(cluster.get(&[]), LIMIT);
    assert_eq!(out.code, Some(1));
    assert_eq!(
        out.stderr,
        "error: Required resource not specified: give a TYPE (`kw get pods`), TYPE/NAME, or -f FILE\n"
    );
    // A boolean flag's value is one Go's ParseBool reads, and the error names the flag.
    let out = run(cluster.get(&["pods", "-A=yes"]), LIMIT);
    assert_eq!(out.code, Some(1));
    let first = out.stderr.lines().next().unwrap_or_default();
    assert!(
        first.contains("'yes'") && first.contains("--all-namespaces"),
        "{}",
        out.stderr
    );
    // Watching, too.
    let out = run(cluster.get(&["pdos", "-w"]), LIMIT);
    assert_eq!(out.code, Some(1));
    assert!(
        out.stderr.ends_with("did you mean \"pods\"?\n"),
        "{}",
        out.stderr
    );

    // A context that does not exist: the ones that do, and the near one.
    let out = run(cluster.get(&["pods", "--context", "nosuch"]), LIMIT);
    assert_eq!(out.code, Some(1));
    assert_eq!(
        out.stderr,
        "error: context \"nosuch\" does not exist; contexts in the kubeconfig: sim, sim-cert, \
         sim-limited, sim-bad-token\n"
    );
    let out = run(cluster.get(&["pods", "--context", "sim-limted"]), LIMIT);
    assert_eq!(out.code, Some(1));
    assert!(
        out.stderr.starts_with(
            "error: context \"sim-limted\" does not exist; did you mean \"sim-limited\"? "
        ),
        "{}",
        out.stderr
    );
    let out = run(cluster.get(&["pods", "--context", "sim,nosuch"]), LIMIT);
    assert_eq!(out.code, Some(1));
    assert!(
        out.stderr
            .contains("context \"nosuch\" does not exist; contexts in the kubeconfig: sim, "),
        "{}",
        out.stderr
    );
}

#[test]
fn bad_kubeconfigs_are_named() {
    let cluster = Cluster::seeded();
    let broken = cluster.dir.path().join("broken.yaml");
    std::fs::write(
        &broken,
        "apiVersion: v1\nclusters: [\n  - name: x\n    cluster: {server: 1\n",
    )
    .unwrap();
    let out = run(
        cluster
            .kw()
            .args(["get", "pods", "--kubeconfig"])
            .arg(&broken),
        LIMIT,
    );
    assert_eq!(out.code, Some(1));
    assert!(out.stderr.contains("broken.yaml"), "{}", out.stderr);

    let missing = cluster.dir.path().join("missing.yaml");
    let out = run(
        cluster
            .kw()
            .args(["get", "pods", "--kubeconfig"])
            .arg(&missing),
        LIMIT,
    );
    assert_eq!(out.code, Some(1));
    assert!(out.stderr.contains("missing.yaml"), "{}", out.stderr);
}

#[test]
fn unreachable_and_untrusted_servers_fail_fast_with_reasons() {
    let cluster = Cluster::seeded();
    let token = cluster.sim.admin_token();

    // Nothing listens on port 1.
    let out = run(
        cluster.kw().args([
            "get",
            "pods",
            "--server",
            "https://127.0.0.1:1",
            "--token",
            &token,
        ]),
        LIMIT,
    );
    assert_eq!(out.code, Some(5), "{}", out.stderr);
    assert!(out.stderr.contains("connection refused"), "{}", out.stderr);
    assert!(
        !out.stderr.contains(&token),
        "the token leaked: {}",
        out.stderr
    );

    // Without the sim's CA, the public roots do not know it.
    let out = run(
        cluster.kw().args([
            "get",
            "pods",
            "--server",
            &cluster.sim.url(),
            "--token",
            &token,
        ]),
        LIMIT,
    );
    assert_eq!(out.code, Some(5), "{}", out.stderr);
    assert!(out.stderr.contains("unknown authority"), "{}", out.stderr);

    // With the CA, but checking a name the certificate does not have.
    let out = run(
        cluster.get(&["pods", "--tls-server-name", "elsewhere.example"]),
        LIMIT,
    );
    assert_eq!(out.code, Some(5), "{}", out.stderr);
    assert!(
        out.stderr.contains("not valid for elsewhere.example") && out.stderr.contains("127.0.0.1"),
        "{}",
        out.stderr
    );

    // Insecure works, and says so.
    let out = run(
        cluster.kw().args([
            "get",
            "pods",
            "-o",
            "name",
            "--server",
            &cluster.sim.url(),
            "--token",
            &token,
            "--insecure-skip-tls-verify",
        ]),
        LIMIT,
    );
    assert_eq!(out.code, Some(0), "{}", out.stderr);
    assert!(out.stderr.contains("insecure"), "{}", out.stderr);
}

#[test]
fn a_client_key_that_does_not_match_its_certificate_is_refused() {
    let cluster = Cluster::seeded();
    let (cert, _key) = cluster.sim.client_cert_pem();
    let other = rcgen::KeyPair::generate().unwrap().serialize_pem();
    let dir = cluster.dir.path();
    std::fs::write(dir.join("client.crt"), cert).unwrap();
    std::fs::write(dir.join("other.key"), other).unwrap();
    std::fs::write(dir.join("ca.crt"), cluster.sim.ca_pem()).unwrap();
    let out = run(
        cluster.kw().args([
            "get",
            "pods",
            "--server",
            &cluster.sim.url(),
            "--certificate-authority",
            &dir.join("ca.crt").display().to_string(),
            "--client-certificate",
            &dir.join("client.crt").display().to_string(),
            "--client-key",
            &dir.join("other.key").display().to_string(),
        ]),
        LIMIT,
    );
    assert_eq!(out.code, Some(1), "{}", out.stderr);
    assert!(out.stderr.contains("does not match"), "{}", out.stderr);
}

#[test]
fn events_reach_a_pipe_as_they_happen() {
    let cluster = Cluster::seeded();
    let live = Live::spawn(&mut cluster.get(&["pods", "-w", "-o", "jsonl"]));
    // The initial list: seven pods in default.
    for _ in 0..7 {
        assert!(live.next_line(LIMIT).is_some(), "initial list");
    }
    cluster.sim.create("pods", pod("live-1")).unwrap();
    // The line comes while kw still runs: not held for a buffer to fill or the watch to end
    // (nothing else is printed, and the watch never ends by itself).
    let line = live
        .next_line(LIMIT)
        .expect("the event arrives without kw exiting");
    assert!(line.contains("\"name\":\"live-1\""), "{line}");
    let mut live = live;
    assert!(
        live.child.try_wait().expect("kw's status").is_none(),
        "kw ended: the line may have waited for the end"
    );
    drop(live);
}

#[test]
fn a_closed_pipe_ends_kw_quietly() {
    let cluster = Cluster::seeded();
    let mut child = cluster
        .get(&["pods", "-w", "-o", "jsonl"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut reader = BufReader::new(child.stdout.take().unwrap());
    let mut first = String::new();
    reader.read_line(&mut first).unwrap();
    assert!(first.starts_with('{'));
    drop(reader); // like `| head -1`
                  // New pods until kw, writing them into the closed pipe, has ended.
    let mut created = 0;
    harness::wait_for("kw to end once its stdout is closed", LIMIT, || {
        let name = format!("pipe-{created}");
        cluster.sim.create("pods", pod(&name)).unwrap();
        created += 1;
        child.try_wait().expect("wait").is_some()
    });
    let code = harness::wait_with_limit(&mut child, LIMIT);
    let mut stderr = String::new();
    std::io::Read::read_to_string(child.stderr.as_mut().unwrap(), &mut stderr).unwrap();
    assert_eq!(code, Some(0), "{stderr}");
    assert_eq!(stderr, "");
}

#[test]
fn ctrl_c_exits_130() {
    let cluster = Cluster::seeded();
    let live = Live::spawn(&mut cluster.get(&["pods", "-w"]));
    assert!(live.next_line(LIMIT).is_some());
    live.interrupt();
    let (code, _, stderr) = live.finish(LIMIT);
    assert_eq!(code, Some(130), "{stderr}");
    assert!(!stderr.contains("panicked"), "{stderr}");
}

#[test]
fn request_timeout_ends_a_watch_with_status_0() {
    let cluster = Cluster::seeded();
    let started = Instant::now();
    let out = run(
        cluster.get(&["pods", "-w", "-o", "name", "--request-timeout", "2s"]),
        LIMIT,
    );
    assert_eq!(out.code, Some(0), "{}", out.stderr);
    assert!(started.elapsed() >= Duration::from_secs(2));
    assert_eq!(out.stdout.lines().count(), 7);
}

#[test]
fn a_named_object_waited_for_is_noticed_when_it_is_created() {
    let cluster = Cluster::seeded();
    // A plain -w fails for a missing object (kubectl's rule); any condition makes kw wait.
    let live = Live::spawn(&mut cluster.get(&[
        "pod",
        "later",
        "-o",
        "name",
        "--fail-on",
        "condition=Failed",
    ]));
    // Wait for the watch to be open, then create the object.
    harness::wait_for("kw to watch", LIMIT, || {
        let requests = cluster.sim.requests();
        requests.iter().any(|r| r.path.contains("watch="))
    });
    cluster.sim.create("pods", pod("later")).unwrap();
    cluster.sim.create("pods", pod("other")).unwrap();
    assert_eq!(live.next_line(LIMIT).as_deref(), Some("pod/later"));
    cluster.sim.delete("pods", "default", "later").unwrap();
    assert_eq!(live.next_line(LIMIT).as_deref(), Some("pod/later"));
    // Only the named pod: the next thing printed is `later` made again, not `other`.
    cluster.sim.create("pods", pod("later")).unwrap();
    assert_eq!(
        live.next_line(LIMIT).as_deref(),
        Some("pod/later"),
        "only the named pod"
    );
}

#[test]
fn cluster_scoped_types_ignore_the_namespace() {
    let cluster = Cluster::seeded();
    let out = run(cluster.get(&["nodes", "-n", "team-a", "-o", "name"]), LIMIT);
    assert_eq!(out.code, Some(0), "{}", out.stderr);
    assert_eq!(out.stdout, "node/node-1\nnode/node-2\nnode/node-3\n");
    let listed = cluster
        .sim
        .requests()
        .into_iter()
        .any(|r| r.path.starts_with("/api/v1/nodes"));
    assert!(listed);
}

/// A server that cannot print tables (an old aggregated API) answers with plain objects: kw lays
/// the rows out itself, with the kind's usual columns, and says so once.
#[test]
fn types_the_server_cannot_print_are_laid_out_by_kw() {
    use kw_sim::SimConfig;
    // Same seed, real clock on both: ages are computed from the same creation times.
    let printing = Cluster::start(SimConfig::default());
    let plain = Cluster::start(SimConfig {
        no_tables: true,
        ..SimConfig::default()
    });
    for args in [
        &["pods"][..],
        &["deploy", "-n", "team-a"],
        &["nodes"],
        &["svc", "-A"],
    ] {
        // Ages move on between the two runs only at a minute boundary: try again then.
        let mut attempts = 0;
        loop {
            let expected = run(printing.get(args), LIMIT);
            let actual = run(plain.get(args), LIMIT);
            assert_eq!(actual.code, Some(0), "{}", actual.stderr);
            assert!(
                actual.stderr.contains("kw lays them out itself"),
                "{}",
                actual.stderr
            );
            attempts += 1;
            if actual.stdout == expected.stdout || attempts == 3 {
                assert_eq!(actual.stdout, expected.stdout, "{args:?}");
                break;
            }
        }
    }
    let (code, lines, _) = Live::spawn(&mut plain.get(&[
        "pods",
        "-w",
        "--output-watch-events",
        "--request-timeout",
        "1s",
    ]))
    .finish(LIMIT);
    assert_eq!(code, Some(0));
    assert!(lines[0].starts_with("EVENT      NAME"), "{lines:?}");
    assert_eq!(lines.len(), 8, "{lines:?}");
}

/// A warm `kw get` asks discovery nothing: resolved types are cached per server (in
/// `$XDG_CACHE_HOME/kw/discovery`), and a cached type the server no longer serves is forgotten.
#[test]
fn resolved_types_are_cached_and_stale_ones_forgotten() {
    let cluster = Cluster::seeded();
    let cache_home = cluster.dir.path().join("cache");
    let discovery_requests = |cluster: &Cluster| {
        cluster
            .sim
            .requests()
            .iter()
            .filter(|r| {
                let path = r.path.split('?').next().unwrap_or_default();
                path == "/api"
                    || path == "/api/v1"
                    || path == "/apis"
                    || path.starts_with("/apis/apps/v1") && !path.contains("/namespaces/")
            })
            .count()
    };
    let get = || {
        let mut cmd = cluster.get(&["deploy", "-n", "team-a", "-o", "name"]);
        cmd.env("XDG_CACHE_HOME", &cache_home);
        run(cmd, LIMIT)
    };
    let cold = get();
    assert_eq!(cold.code, Some(0), "{}", cold.stderr);
    let after_cold = discovery_requests(&cluster);
    assert!(after_cold >= 2, "a cold run discovers ({after_cold})");
    let warm = get();
    assert_eq!(warm.stdout, cold.stdout);
    assert_eq!(
        discovery_requests(&cluster),
        after_cold,
        "a warm run asks discovery nothing"
    );

    // Make the cached resolution stale: a plural the server does not serve.
    let dir = cache_home.join("kw").join("discovery");
    let file = std::fs::read_dir(&dir)
        .unwrap()
        .next()
        .unwrap()
        .unwrap()
        .path();
    let text = std::fs::read_to_string(&file).unwrap();
    std::fs::write(
        &file,
        text.replace("\"plural\":\"deployments\"", "\"plural\":\"gone\""),
    )
    .unwrap();
    let stale = get();
    assert_ne!(stale.code, Some(0), "the stale type fails once");
    let healed = get();
    assert_eq!(healed.code, Some(0), "{}", healed.stderr);
    assert_eq!(healed.stdout, cold.stdout);
}

/// One address, two clusters (kind, minikube and port-forwards all live at 127.0.0.1): the
/// cached types of one never answer for another, and a named GET that finds the type itself
/// gone clears the stale resolution.
#[test]
fn cached_types_belong_to_one_cluster_and_a_gone_type_is_forgotten() {
    let cluster = Cluster::seeded();
    let cache_home = cluster.dir.path().join("cache");
    let get = |args: &[&str]| {
        let mut cmd = cluster.get(args);
        cmd.env("XDG_CACHE_HOME", &cache_home);
        run(cmd, LIMIT)
    };
    let dir = cache_home.join("kw").join("discovery");
    let files = || -> Vec<std::path::PathBuf> {
        let mut files: Vec<_> = std::fs::read_dir(&dir)
            .unwrap()
            .map(|e| e.unwrap().path())
            .collect();
        files.sort();
        files
    };
    assert_eq!(get(&["deploy", "-n", "team-a", "-o", "name"]).code, Some(0));
    assert_eq!(files().len(), 1);
    // The same server through another context: its own cache.
    let other = get(&[
        "deploy",
        "-n",
        "team-a",
        "-o",
        "name",
        "--context",
        "sim-cert",
    ]);
    assert_eq!(other.code, Some(0), "{}", other.stderr);
    assert_eq!(files().len(), 2, "one cache per cluster, not per address");

    // A resolution gone stale, met by a named GET: the 404 is about the type, not the object.
    for file in files() {
        let text = std::fs::read_to_string(&file).unwrap();
        std::fs::write(
            &file,
            text.replace("\"plural\":\"deployments\"", "\"plural\":\"gone\""),
        )
        .unwrap();
    }
    let stale = get(&["deploy", "backend", "-n", "team-a", "-o", "name"]);
    assert_ne!(stale.code, Some(0), "the stale type fails once");
    let healed = get(&["deploy", "backend", "-n", "team-a", "-o", "name"]);
    assert_eq!(healed.code, Some(0), "{}", healed.stderr);
    assert_eq!(healed.stdout.trim(), "deployment.apps/backend");
    // A missing object is not a missing type: the resolution stays.
    let before = std::fs::read_to_string(&files()[0]).unwrap();
    let missing = get(&["deploy", "nosuch", "-n", "team-a", "-o", "name"]);
    assert_eq!(missing.code, Some(6), "{}", missing.stderr);
    assert_eq!(std::fs::read_to_string(&files()[0]).unwrap(), before);
}

/// `kw demo` works with nothing but the binary, and Ctrl-C ends it with 130, leaving no
/// kubeconfig behind.
#[test]
fn the_demo_runs_and_ctrl_c_cleans_up() {
    let tmp = tempfile::tempdir().unwrap();
    let mut cmd = crate::harness::tools::command(env!("CARGO_BIN_EXE_kw"));
    cmd.args(["demo", "pods", "-n", "team-a", "-w", "-o", "name"])
        .env("TMPDIR", tmp.path())
        .env("HOME", tmp.path())
        .env_remove("KUBECONFIG")
        .stdin(Stdio::null());
    let live = Live::spawn(&mut cmd);
    let first = live.next_line(LIMIT).expect("the demo prints pods");
    assert!(first.starts_with("pod/"), "{first}");
    let demo_dir = only_demo_dir(tmp.path());
    assert_private(&demo_dir, &demo_dir.join("kubeconfig"));
    live.interrupt();
    let (code, _, stderr) = live.finish(LIMIT);
    assert_eq!(code, Some(130), "{stderr}");
    assert!(!demo_dir.exists(), "the demo's kubeconfig is removed");
}

/// The one `kw-demo-*` directory a demo made in `tmp`.
fn only_demo_dir(tmp: &std::path::Path) -> std::path::PathBuf {
    let dirs: Vec<_> = std::fs::read_dir(tmp)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| {
            p.file_name()
                .unwrap()
                .to_string_lossy()
                .starts_with("kw-demo-")
        })
        .collect();
    assert_eq!(dirs.len(), 1, "{dirs:?}");
    dirs[0].clone()
}

/// Only the user may enter `dir` or read `file` (they hold the sim's credentials).
fn assert_private(dir: &std::path::Path, file: &std::path::Path) {
    use std::os::unix::fs::PermissionsExt;
    let mode = |p: &std::path::Path| std::fs::metadata(p).unwrap().permissions().mode() & 0o777;
    assert_eq!(mode(dir), 0o700, "{}", dir.display());
    assert_eq!(mode(file), 0o600, "{}", file.display());
}

/// The demo's directory has a name nobody can plant in advance, and goes away on SIGTERM and
/// SIGHUP too.
#[test]
fn the_demo_directory_is_private_and_removed_on_termination() {
    for signal in [libc::SIGTERM, libc::SIGHUP] {
        let tmp = tempfile::tempdir().unwrap();
        let mut cmd = crate::harness::tools::command(env!("CARGO_BIN_EXE_kw"));
        cmd.args(["demo", "pods", "-n", "team-a", "-w", "-o", "name"])
            .env("TMPDIR", tmp.path())
            .env("HOME", tmp.path())
            .env_remove("KUBECONFIG")
            .stdin(Stdio::null());
        let live = Live::spawn(&mut cmd);
        live.next_line(LIMIT).expect("the demo prints pods");
        let demo_dir = only_demo_dir(tmp.path());
        assert!(
            !demo_dir.ends_with(format!("kw-demo-{}", live.child.id())),
            "not the predictable kw-demo-<pid>"
        );
        assert_private(&demo_dir, &demo_dir.join("kubeconfig"));
        // SAFETY: kill(2) on our own child's pid.
        unsafe { libc::kill(live.child.id() as i32, signal) };
        let (code, _, stderr) = live.finish(LIMIT);
        // 128 + the signal, as shells report a process it killed (143, 129).
        assert_eq!(code, Some(128 + signal), "signal {signal}: {stderr}");
        assert!(
            !demo_dir.exists(),
            "signal {signal}: the directory is removed"
        );
    }
}

/// `kw sim --kubeconfig-out` writes a file only its owner can read, replacing (never writing
/// through) whatever was planted at the path.
#[test]
fn the_sim_kubeconfig_is_private() {
    let tmp = tempfile::tempdir().unwrap();
    let planted = tmp.path().join("theirs");
    std::fs::write(&planted, "theirs").unwrap();
    let out = tmp.path().join("kubeconfig");
    std::os::unix::fs::symlink(&planted, &out).unwrap();
    let sim = harness::start_sim(kw_sim::SimConfig::default()).unwrap();
    sim.write_kubeconfig(&out).unwrap();
    use std::os::unix::fs::PermissionsExt;
    let meta = std::fs::symlink_metadata(&out).unwrap();
    assert!(
        meta.file_type().is_file(),
        "the planted symlink was replaced"
    );
    assert_eq!(meta.permissions().mode() & 0o777, 0o600);
    assert_eq!(std::fs::read_to_string(&planted).unwrap(), "theirs");
    assert!(std::fs::read_to_string(&out)
        .unwrap()
        .contains("current-context: sim"));
    sim.stop();
}

/// A server's `Status.message` is text, not terminal commands (issue #11, item 10): escape
/// sequences are shown as `^[` as kubectl shows them in table cells, line breaks as `\n`.
#[test]
fn escape_sequences_in_a_server_message_are_shown_not_obeyed() {
    let cluster = Cluster::seeded();
    for code in [403u16, 500] {
        cluster.sim.set_faults(kw_sim::Faults {
            list_status: Some(code),
            list_count: 1,
            list_message: Some("denied\x1b]0;pwned\x07\x1b[2J\r\nerror: fake line".into()),
            ..kw_sim::Faults::default()
        });
        let outcome = run(cluster.get(&["pods", "-o", "wide"]), LIMIT);
        assert!(
            !outcome.stderr.contains('\x1b'),
            "{code}: {:?}",
            outcome.stderr
        );
        assert!(
            !outcome.stderr.contains('\x07'),
            "{code}: {:?}",
            outcome.stderr
        );
        assert!(
            outcome
                .stderr
                .contains("denied^[]0;pwned\\u{0007}^[[2J\\r\\nerror: fake line"),
            "{code}: {:?}",
            outcome.stderr
        );
        assert!(
            !outcome.stderr.lines().any(|l| l.starts_with("error: fake")),
            "{code}: {:?}",
            outcome.stderr
        );
    }
}

/// kubectl's plugin mechanism: on PATH as `kubectl-kw`, kw runs as `kubectl kw ...`, with
/// kubectl passing the arguments through. Run through the installed kubectl itself.
#[test]
fn kw_runs_as_a_kubectl_plugin() {
    let kubectl = harness::kubectl();
    let cluster = Cluster::seeded();
    let plugins = cluster.dir.path().join("plugins");
    std::fs::create_dir(&plugins).unwrap();
    std::os::unix::fs::symlink(env!("CARGO_BIN_EXE_kw"), plugins.join("kubectl-kw")).unwrap();
    let path = std::env::join_paths(
        std::iter::once(plugins).chain(std::env::split_paths(&std::env::var_os("PATH").unwrap())),
    )
    .unwrap();
    let started = Instant::now();
    let mut cmd = crate::harness::tools::command(kubectl);
    cmd.args([
        "kw",
        "get",
        "pods",
        "-w",
        "--request-timeout",
        "3s",
        "-o",
        "name",
    ])
    .arg("--kubeconfig")
    .arg(&cluster.kubeconfig)
    .env("PATH", path)
    .env_remove("KUBECONFIG")
    .env("HOME", cluster.dir.path())
    .stdin(std::process::Stdio::null());
    let out = run(&mut cmd, LIMIT);
    assert_eq!(out.code, Some(0), "{out:#?}");
    assert!(out.stdout.contains("pod/init-demo"), "{}", out.stdout);
    assert!(
        started.elapsed() >= Duration::from_secs(3),
        "the watch lasted its 3 s"
    );
}

/// `--max-object-size` holds for every object kw reads: list items (tables and JSON), a named
/// GET, as it does for watch events (issue #11, item 6).
#[test]
fn max_object_size_covers_lists_and_gets() {
    let cluster = Cluster::seeded();
    let mut big = pod("big");
    big["metadata"]["annotations"] = json!({"padding": "x".repeat(200 * 1024)});
    cluster.sim.create("pods", big).unwrap();
    for args in [
        &["pods", "--max-object-size", "100Ki"][..],
        &["pods", "--max-object-size", "100Ki", "-o", "json"],
        &[
            "pods",
            "--max-object-size",
            "100Ki",
            "-w",
            "--request-timeout",
            "2s",
        ],
    ] {
        let out = run(cluster.get(args), LIMIT);
        assert_eq!(out.code, Some(6), "{args:?}: {out:#?}");
        assert_eq!(
            out.stderr.trim_end(),
            "error: the server sent an object of more than 102400 bytes in the list \
             /api/v1/namespaces/default/pods (the limit is --max-object-size)",
            "{args:?}"
        );
    }
    let out = run(
        cluster.get(&["pod", "big", "-o", "json", "--max-object-size", "100Ki"]),
        LIMIT,
    );
    assert_eq!(out.code, Some(6), "{out:#?}");
    assert_eq!(
        out.stderr.trim_end(),
        "error: the server sent more than 102400 bytes for \
         /api/v1/namespaces/default/pods/big (the limit is --max-object-size)"
    );
    // Under the limit, the same objects print.
    let out = run(
        cluster.get(&["pods", "--max-object-size", "1Mi", "-o", "name"]),
        LIMIT,
    );
    assert_eq!(out.code, Some(0), "{}", out.stderr);
    assert!(out.stdout.contains("pod/big"));
}

/// kubectl asks for gzip, and kube-apiserver compresses whole bodies over 128 KiB (never watch
/// streams): kw asks the same way and reads the compressed lists (issue #13, item 3).
#[test]
fn big_lists_come_gzipped_and_small_bodies_do_not() {
    let cluster = Cluster::seeded();
    for i in 0..200 {
        let mut p = pod(&format!("padded-{i:03}"));
        p["metadata"]["annotations"] =
            json!({"note": "a fairly repetitive annotation ".repeat(40)});
        cluster.sim.create("pods", p).unwrap();
    }
    for args in [
        &["pods", "-o", "name"][..],
        &["pods", "-o", "json"],
        &["pods"],
    ] {
        let out = run(cluster.get(args), LIMIT);
        assert_eq!(out.code, Some(0), "{args:?}: {}", out.stderr);
        assert!(out.stdout.contains("padded-199"), "{args:?}");
    }
    let requests = cluster.sim.requests();
    let asked_gzip = |r: &kw_sim::RequestRecord| {
        r.headers
            .iter()
            .any(|(k, v)| k.eq_ignore_ascii_case("accept-encoding") && v.contains("gzip"))
    };
    let lists: Vec<_> = requests
        .iter()
        .filter(|r| r.path.starts_with("/api/v1/namespaces/default/pods?"))
        .collect();
    assert_eq!(lists.len(), 3, "{lists:#?}");
    for list in &lists {
        assert!(asked_gzip(list), "{list:?}");
        // Over 200 KiB of JSON before compression; a small part of it on the wire.
        assert!(
            list.body_bytes < 64 * 1024,
            "{} bytes sent for {}",
            list.body_bytes,
            list.path
        );
    }
    // A small body is sent as it is.
    let out = run(cluster.get(&["namespaces", "-o", "name"]), LIMIT);
    assert_eq!(out.code, Some(0), "{}", out.stderr);
    let small = cluster.sim.requests();
    let namespaces = small
        .iter()
        .rev()
        .find(|r| r.path.starts_with("/api/v1/namespaces?"))
        .unwrap();
    assert!(asked_gzip(namespaces));
    assert!(namespaces.body_bytes > 0 && namespaces.body_bytes < 128 * 1024);
}

/// `--server-print=false` is kw's own (issue 58), not handed to kubectl: with no kubectl to
/// hand it to, kw asks for plain objects and prints kubectl's client-side NAME and AGE table.
/// (`kubectl_cases.rs` compares its bytes with the pinned kubectl's.)
#[test]
fn server_print_false_is_laid_out_by_kw_itself() {
    let cluster = Cluster::seeded();
    cluster.sim.create("pods", pod("client-side")).unwrap();
    let nowhere = tempfile::tempdir().unwrap();
    let mut command = cluster.get(&["pod", "client-side", "--server-print=false"]);
    command
        .env("PATH", nowhere.path())
        .env_remove("KUBECTL_PATH")
        .env_remove("KW_KUBECTL");
    let out = run(command, LIMIT);
    assert_eq!(out.code, Some(0), "{}", out.stderr);
    let mut lines = out.stdout.lines();
    assert_eq!(lines.next(), Some("NAME          AGE"), "{}", out.stdout);
    assert!(
        lines
            .next()
            .is_some_and(|l| l.starts_with("client-side   ")),
        "{}",
        out.stdout
    );
    let plain = cluster
        .sim
        .requests()
        .into_iter()
        .any(|r| r.path.contains("/pods/client-side"));
    assert!(plain, "kw asked the server itself");
}
