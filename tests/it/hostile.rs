//! A hostile API server (issue #22): test code on loopback that answers discovery like a real
//! server and then misbehaves on purpose (a cell bomb, a list that never answers, a version
//! string with terminal controls), against the real `kw` binary. Each test states what kw
//! guarantees under that attack.

use std::io::{BufRead, BufReader, Write};
use std::net::{TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::{Arc, Condvar, Mutex};
use std::time::{Duration, Instant};

use crate::harness::run;
use crate::harness::watchdog::{self, Output, Stream};

// Further attacks, each in its own file, using the hostile server below.
mod cache_race;
mod depth;
mod discovery_names;
mod lists;

const LIMIT: Duration = Duration::from_secs(60);

/// What the hostile server does with one request.
enum Answer {
    /// 200 with this JSON body, gzip-compressed on the wire when `gzip`.
    Json {
        body: Vec<u8>,
        gzip: bool,
    },
    /// Read the request, then never answer (until the server is dropped).
    Stall,
    NotFound,
    /// 200 with a chunked body (a watch): these bytes in one chunk, then nothing more, the
    /// response held open until the server is dropped.
    Stream(Vec<u8>),
    /// 200 with this body's length, the body sent a byte every 2 s (each read a timer resets).
    Trickle(Vec<u8>),
}

impl Answer {
    fn json(body: impl Into<Vec<u8>>) -> Answer {
        Answer::Json {
            body: body.into(),
            gzip: false,
        }
    }
}

/// A plain-HTTP server on 127.0.0.1 answering each request with what `answer` decides for its
/// path, keeping connections alive as API servers do (so kw reuses pooled connections).
struct Hostile {
    url: String,
    /// Paths asked, in order.
    asked: Arc<Mutex<Vec<String>>>,
    /// Set when the server is dropped: stalled answers end then.
    stop: Arc<(Mutex<bool>, Condvar)>,
}

impl Hostile {
    fn serve(answer: impl Fn(&str) -> Answer + Send + Sync + 'static) -> Hostile {
        // A test that starts a server is watched, as one that starts a sim.
        watchdog::current();
        let listener = TcpListener::bind("127.0.0.1:0").expect("bind");
        let url = format!("http://{}", listener.local_addr().expect("address"));
        let asked = Arc::new(Mutex::new(Vec::new()));
        let stop = Arc::new((Mutex::new(false), Condvar::new()));
        let answer = Arc::new(answer);
        let (asked_, stop_) = (asked.clone(), stop.clone());
        std::thread::spawn(move || {
            for stream in listener.incoming().flatten() {
                let (answer, asked, stop) = (answer.clone(), asked_.clone(), stop_.clone());
                if *stop.0.lock().unwrap() {
                    break;
                }
                std::thread::spawn(move || connection(stream, &*answer, &asked, &stop));
            }
        });
        Hostile { url, asked, stop }
    }

    fn asked(&self) -> Vec<String> {
        self.asked.lock().unwrap().clone()
    }
}

impl Drop for Hostile {
    fn drop(&mut self) {
        *self.stop.0.lock().unwrap() = true;
        self.stop.1.notify_all();
        // Wake the accept loop so that it sees the flag.
        let _ = TcpStream::connect(self.url.trim_start_matches("http://"));
    }
}

fn connection(
    stream: TcpStream,
    answer: &dyn Fn(&str) -> Answer,
    asked: &Mutex<Vec<String>>,
    stop: &(Mutex<bool>, Condvar),
) {
    let _ = stream.set_read_timeout(Some(LIMIT));
    let mut reader = BufReader::new(&stream);
    loop {
        let mut request_line = String::new();
        match reader.read_line(&mut request_line) {
            Ok(0) | Err(_) => return,
            Ok(_) => {}
        }
        // The headers, up to the blank line (GETs have no body).
        loop {
            let mut line = String::new();
            match reader.read_line(&mut line) {
                Ok(0) | Err(_) => return,
                Ok(_) if line == "\r\n" => break,
                Ok(_) => {}
            }
        }
        let path = request_line
            .split(' ')
            .nth(1)
            .unwrap_or_default()
            .to_string();
        asked.lock().unwrap().push(path.clone());
        // Hold the connection open and silent until the test ends (at most LIMIT).
        let hold = || {
            let (lock, wake) = stop;
            let stopped = lock.lock().unwrap();
            let _ = wake.wait_timeout_while(stopped, LIMIT, |stopped| !*stopped);
        };
        let (status, body, gzip) = match answer(&path) {
            Answer::Json { body, gzip } => ("200 OK", body, gzip),
            Answer::NotFound => ("404 Not Found", b"{}".to_vec(), false),
            Answer::Stall => return hold(),
            Answer::Trickle(body) => return trickle(&stream, &body, stop),
            Answer::Stream(body) => {
                let mut answer = format!(
                    "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n\
                     Transfer-Encoding: chunked\r\n\r\n{:x}\r\n",
                    body.len()
                )
                .into_bytes();
                answer.extend_from_slice(&body);
                answer.extend_from_slice(b"\r\n");
                let mut writer = &stream;
                if writer.write_all(&answer).is_ok() {
                    hold();
                }
                return;
            }
        };
        let body = if gzip { gzipped(&body) } else { body };
        let head =
            format!(
            "HTTP/1.1 {status}\r\nContent-Type: application/json\r\nContent-Length: {}\r\n{}\r\n",
            body.len(),
            if gzip { "Content-Encoding: gzip\r\n" } else { "" }
        );
        // One write: a head and a body written apart wait out the client's delayed ACK
        // (Nagle), 40 ms a request, which a test of ten thousand pages cannot afford.
        let mut answer = head.into_bytes();
        answer.extend_from_slice(&body);
        let mut writer = &stream;
        if writer.write_all(&answer).is_err() {
            return;
        }
    }
}

/// `Answer::Trickle`: the head, then a byte of `body` every 2 s until the server is dropped.
fn trickle(stream: &TcpStream, body: &[u8], stop: &(Mutex<bool>, Condvar)) {
    let head = format!(
        "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n",
        body.len()
    );
    let mut writer = stream;
    if writer.write_all(head.as_bytes()).is_err() {
        return;
    }
    for byte in body {
        let (lock, wake) = stop;
        let stopped = lock.lock().unwrap();
        let (stopped, _) = wake
            .wait_timeout_while(stopped, Duration::from_secs(2), |stopped| !*stopped)
            .unwrap();
        if *stopped || writer.write_all(&[*byte]).is_err() {
            return;
        }
    }
}

fn gzipped(body: &[u8]) -> Vec<u8> {
    let mut encoder = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
    encoder.write_all(body).expect("gzip");
    encoder.finish().expect("gzip")
}

/// `/api/v1` with the one resource these tests ask for.
fn core_discovery() -> Answer {
    Answer::json(
        serde_json::json!({
            "kind": "APIResourceList", "apiVersion": "v1", "groupVersion": "v1",
            "resources": [{"name": "pods", "singularName": "pod", "namespaced": true,
                "kind": "Pod", "verbs": ["get", "list", "watch"]}]
        })
        .to_string(),
    )
}

fn is_pod_list(path: &str) -> bool {
    path.starts_with("/api/v1/namespaces/default/pods")
}

/// A temp dir (kw's HOME, so no discovery cache is shared) holding a kubeconfig for `server`.
fn kubeconfig_for(server: &str) -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().expect("temp dir");
    let path = write_kubeconfig(dir.path(), server, "{token: not-a-secret}");
    (dir, path)
}

/// `dir/kubeconfig`, one context for `server` with `user` (YAML flow) as its user.
fn write_kubeconfig(dir: &Path, server: &str, user: &str) -> PathBuf {
    let path = dir.join("kubeconfig");
    let config = format!(
        "apiVersion: v1\nkind: Config\ncurrent-context: c\n\
         clusters:\n- name: c\n  cluster:\n    server: {server}\n\
         contexts:\n- name: c\n  context: {{cluster: c, user: u}}\n\
         users:\n- name: u\n  user: {user}\n"
    );
    std::fs::write(&path, config).expect("kubeconfig");
    path
}

fn kw_in(home: &Path) -> Command {
    let mut cmd = crate::harness::tools::command(env!("CARGO_BIN_EXE_kw"));
    cmd.env_remove("KUBECONFIG")
        .env("HOME", home)
        .env("NO_COLOR", "1")
        .env(watchdog::ID_VAR, watchdog::current().id())
        .stdin(Stdio::null());
    cmd
}

/// Run `cmd` to the end (killed after `limit`), returning its exit code, stdout, stderr and
/// peak resident set size in bytes: the kernel's high-water mark of kw's own memory
/// (`VmHWM`, read while it runs), else `wait4`'s `ru_maxrss`. The latter alone is not kw's:
/// it keeps the test process's size at the fork before the exec, which a full suite's earlier
/// tests grow to hundreds of MiB (seen at 630 MiB for a kw whose own peak was 78).
// The child is reaped by `wait4`, which clippy does not know of.
#[allow(clippy::zombie_processes)]
fn run_measured(cmd: &mut Command, limit: Duration) -> (Option<i32>, String, String, u64) {
    let mut child = cmd
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("kw starts");
    let read = |mut r: Box<dyn std::io::Read + Send>| {
        let so_far = Output::default();
        let output = so_far.clone();
        let reader = std::thread::spawn(move || {
            let mut buffer = [0u8; 8192];
            while let Ok(n @ 1..) = r.read(&mut buffer) {
                output.push(&buffer[..n]);
            }
            output.text()
        });
        (reader, so_far)
    };
    let (stdout, stdout_so_far) = read(Box::new(child.stdout.take().unwrap()));
    let (stderr, stderr_so_far) = read(Box::new(child.stderr.take().unwrap()));
    watchdog::watch(
        cmd,
        &child,
        Stream::Buffer(stdout_so_far),
        Stream::Buffer(stderr_so_far),
    );
    let pid = child.id() as libc::pid_t;
    let deadline = Instant::now() + limit;
    let mut high_water = None;
    let (status, usage) = loop {
        // The exec'd kw's own peak; gone once it has exited, so the last read is kept.
        if let Some(kb) = std::fs::read_to_string(format!("/proc/{pid}/status"))
            .ok()
            .and_then(|status| {
                status
                    .lines()
                    .find_map(|line| line.strip_prefix("VmHWM:"))
                    .and_then(|kb| kb.trim().trim_end_matches("kB").trim().parse::<u64>().ok())
            })
        {
            high_water = Some(kb * 1024);
        }
        let mut status = 0;
        // SAFETY: plain wait4 on our own child, with pointers to locals that outlive the call.
        let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
        let done = unsafe { libc::wait4(pid, &mut status, libc::WNOHANG, &mut usage) };
        if done == pid {
            break (status, usage);
        }
        if Instant::now() >= deadline {
            let _ = child.kill();
            let _ = child.wait();
            watchdog::check();
            panic!("kw did not finish within {limit:?}");
        }
        watchdog::check();
        std::thread::sleep(Duration::from_millis(5));
    };
    let code = libc::WIFEXITED(status).then(|| libc::WEXITSTATUS(status));
    (
        code,
        stdout.join().unwrap(),
        stderr.join().unwrap(),
        high_water.unwrap_or(usage.ru_maxrss as u64 * 1024),
    )
}

// ---- item 3: table cells count against --max-object-size, and only printed ones are built --

/// A Table list whose one row holds `cell_bytes` of `0,` cells after its name: a few hundred
/// kB gzipped, tens of MB of JSON, and (built as values) over a GB of memory.
fn cell_bomb(cell_bytes: usize) -> Vec<u8> {
    let mut body = br#"{"kind":"Table","apiVersion":"meta.k8s.io/v1","metadata":{"resourceVersion":"1"},"columnDefinitions":[{"name":"Name","type":"string","format":"name","description":"","priority":0}],"rows":[{"cells":["bomb","#.to_vec();
    body.extend(b"0,".repeat(cell_bytes / 2));
    body.extend(br#"0],"object":{"kind":"PartialObjectMetadata","apiVersion":"meta.k8s.io/v1","metadata":{"name":"bomb","namespace":"default","resourceVersion":"1"}}}]}"#);
    body
}

#[test]
fn a_cell_bomb_is_refused_over_the_limit_and_costs_no_more_than_its_bytes_under_it() {
    const CELLS: usize = 32 << 20;
    let bomb = Arc::new(cell_bomb(CELLS));
    let server = Hostile::serve(move |path| match path {
        "/api/v1" => core_discovery(),
        p if is_pod_list(p) => Answer::Json {
            body: bomb.to_vec(),
            gzip: true,
        },
        _ => Answer::NotFound,
    });
    let (home, config) = kubeconfig_for(&server.url);

    // The cells count with the row's object against --max-object-size, as they would in a
    // watch event's line.
    let mut cmd = kw_in(home.path());
    cmd.args(["get", "pods", "--max-object-size", "16Mi", "--kubeconfig"])
        .arg(&config);
    let outcome = run(cmd, LIMIT);
    assert_eq!(outcome.code, Some(6), "{outcome:#?}");
    assert!(
        outcome.stderr.contains("(the limit is --max-object-size)"),
        "{}",
        outcome.stderr
    );

    // Under the limit the row prints, and memory follows the bytes received, not the millions
    // of cells no column shows (built as JSON values they take over 1 GB). The bound leaves
    // room for how the body's buffer grows, which varies with how the reads arrive (a loaded
    // machine was seen at 7.7×); the failure it guards against is 30× and more.
    let mut cmd = kw_in(home.path());
    cmd.args(["get", "pods", "--kubeconfig"]).arg(&config);
    let (code, stdout, stderr, peak) = run_measured(&mut cmd, LIMIT);
    assert_eq!(code, Some(0), "{stderr}");
    assert_eq!(stdout, "NAME\nbomb\n");
    assert!(
        peak < 12 * CELLS as u64,
        "peak RSS {} MiB for {} MiB of cells",
        peak >> 20,
        CELLS >> 20
    );
}

// ---- item 4: --timeout bounds every request, discovery included ---------------------------

/// `kw get pods --until create --timeout 2s` against a server that never answers `stalled`
/// paths: kw must end on time with exit 3, however far it got.
fn stalled_run_times_out(stalled: fn(&str) -> bool) -> crate::harness::Outcome {
    let server = Hostile::serve(move |path| match path {
        p if stalled(p) => Answer::Stall,
        "/api/v1" => core_discovery(),
        _ => Answer::NotFound,
    });
    let (home, config) = kubeconfig_for(&server.url);
    let mut cmd = kw_in(home.path());
    cmd.args(["get", "pods", "--until", "create", "--timeout", "2s"])
        .arg("--kubeconfig")
        .arg(&config);
    // Far beyond 2 s, far below ureq's 60 s read timeout (and the forever of a pooled
    // connection, whose read timeout ureq 2 cleared).
    let outcome = run(cmd, Duration::from_secs(20));
    assert!(
        server.asked().iter().any(|p| stalled(p)),
        "{:?}",
        server.asked()
    );
    outcome
}

#[test]
fn a_list_that_never_answers_on_a_pooled_connection_ends_at_the_timeout() {
    let outcome = stalled_run_times_out(is_pod_list);
    assert_eq!(outcome.code, Some(3), "{outcome:#?}");
    assert!(
        outcome
            .stderr
            .contains("timed out after 2s waiting for --until create"),
        "{}",
        outcome.stderr
    );
}

#[test]
fn discovery_that_never_answers_ends_at_the_timeout() {
    let outcome = stalled_run_times_out(|path| path == "/api/v1");
    assert_eq!(outcome.code, Some(3), "{outcome:#?}");
    assert!(outcome.stderr.contains("deadline"), "{}", outcome.stderr);
}

// ---- item 5: an exec plugin that hangs is stopped by the deadline ------------------------

/// A kubeconfig whose user's exec plugin records its process id in `dir/plugin.pid` and then
/// hangs (as the process that wrote it: `exec`).
fn hanging_plugin(dir: &Path, server: &str) -> (PathBuf, Plugin) {
    use std::os::unix::fs::PermissionsExt;
    let plugin = dir.join("hang");
    let pid_file = dir.join("plugin.pid");
    std::fs::write(
        &plugin,
        format!(
            "#!/bin/sh\necho $$ > '{}'\nexec sleep 600\n",
            pid_file.display()
        ),
    )
    .expect("plugin");
    std::fs::set_permissions(&plugin, std::fs::Permissions::from_mode(0o755)).expect("chmod");
    let user = format!(
        "{{exec: {{apiVersion: client.authentication.k8s.io/v1, command: '{}', interactiveMode: Never}}}}",
        plugin.display()
    );
    (write_kubeconfig(dir, server, &user), Plugin { pid_file })
}

/// The hanging plugin's process, killed when the test ends whatever happened, so that a
/// failing test leaves nothing behind.
struct Plugin {
    pid_file: PathBuf,
}

impl Plugin {
    fn pid(&self) -> Option<libc::pid_t> {
        std::fs::read_to_string(&self.pid_file)
            .ok()?
            .trim()
            .parse()
            .ok()
    }

    /// Whether the plugin still runs (not even as a zombie: kw must reap what it kills).
    fn still_running(&self) -> bool {
        let pid = self.pid().expect("the plugin ran and wrote its pid");
        Path::new(&format!("/proc/{pid}")).exists()
    }
}

impl Drop for Plugin {
    fn drop(&mut self) {
        if let Some(pid) = self.pid().filter(|_| self.still_running()) {
            // SAFETY: a plain kill(2) of the process this test's plugin started.
            unsafe { libc::kill(pid, libc::SIGKILL) };
        }
    }
}

/// Run `cmd` to its end (killed after `limit`) with stderr to a file: a plugin kw leaves
/// running keeps its inherited stderr open, and a pipe would then never end.
fn run_stderr_to_file(mut cmd: Command, dir: &Path, limit: Duration) -> crate::harness::Outcome {
    let stderr_path = dir.join("stderr");
    let stderr = std::fs::File::create(&stderr_path).expect("stderr file");
    let stdout_path = dir.join("stdout");
    let stdout = std::fs::File::create(&stdout_path).expect("stdout file");
    let mut child = cmd
        .stdout(stdout)
        .stderr(stderr)
        .spawn()
        .expect("kw starts");
    watchdog::watch(
        &cmd,
        &child,
        Stream::File(stdout_path.clone()),
        Stream::File(stderr_path.clone()),
    );
    let code = crate::harness::wait_with_limit(&mut child, limit);
    crate::harness::Outcome {
        code,
        stdout: std::fs::read_to_string(&stdout_path).expect("stdout"),
        stderr: std::fs::read_to_string(&stderr_path).expect("stderr"),
    }
}

#[test]
fn a_hanging_exec_plugin_is_stopped_at_the_timeout_and_named() {
    let server = Hostile::serve(|path| match path {
        "/api/v1" => core_discovery(),
        _ => Answer::NotFound,
    });
    let dir = tempfile::tempdir().expect("temp dir");
    let (config, plugin) = hanging_plugin(dir.path(), &server.url);
    let mut cmd = kw_in(dir.path());
    cmd.args(["get", "pods", "--until", "create", "--timeout", "2s"])
        .arg("--kubeconfig")
        .arg(&config);
    let outcome = run_stderr_to_file(cmd, dir.path(), Duration::from_secs(20));
    assert_eq!(outcome.code, Some(3), "{outcome:#?}");
    // One line, naming the plugin and saying what kw did.
    let named = format!(
        "error: user \"u\": exec plugin \"{}\" did not finish within ",
        dir.path().join("hang").display()
    );
    assert!(
        outcome.stderr.starts_with(&named)
            && outcome.stderr.ends_with("; kw stopped it\n")
            && outcome.stderr.lines().count() == 1,
        "{}",
        outcome.stderr
    );
    assert!(!plugin.still_running(), "the plugin is still running");
    // It hung before any request: the server was never asked.
    assert!(server.asked().is_empty(), "{:?}", server.asked());
}

#[test]
fn completion_leaves_no_hanging_exec_plugin_behind() {
    let server = Hostile::serve(|path| match path {
        "/api/v1" => core_discovery(),
        _ => Answer::NotFound,
    });
    let dir = tempfile::tempdir().expect("temp dir");
    let (config, plugin) = hanging_plugin(dir.path(), &server.url);
    let mut cmd = kw_in(dir.path());
    cmd.args(["__complete", "--", "get", "pods", "--kubeconfig"])
        .arg(&config)
        .arg("");
    let outcome = run_stderr_to_file(cmd, dir.path(), Duration::from_secs(20));
    assert_eq!(outcome.code, Some(0), "{outcome:#?}");
    assert_eq!(outcome.stdout, "", "no candidates");
    assert_eq!(outcome.stderr, "", "nothing reaches the terminal");
    assert!(!plugin.still_running(), "the plugin is still running");
}

// ---- item 6: terminal controls from the server are shown, not obeyed ----------------------

/// The control characters in `text` other than newline and tab: none may reach a terminal.
fn raw_controls(text: &str) -> Vec<char> {
    text.chars()
        .filter(|c| c.is_control() && *c != '\n' && *c != '\t')
        .collect()
}

/// OSC 52 (write the clipboard) ended by BEL, an 8-bit CSI that clears the screen, a backspace.
const HOSTILE_TEXT: &str = "v1.32.0\x1b]52;c;Y2xpcGJvYXJk\x07\u{9b}2J\x08";
const HOSTILE_SHOWN: &str = "v1.32.0^[]52;c;Y2xpcGJvYXJk^G\\u{9b}2J^H";

#[test]
fn version_and_table_cells_show_terminal_controls_as_text() {
    let server = Hostile::serve(|path| match path {
        "/version" => Answer::json(serde_json::json!({"gitVersion": HOSTILE_TEXT}).to_string()),
        "/api/v1" => core_discovery(),
        p if is_pod_list(p) => Answer::json(
            serde_json::json!({
                "kind": "Table", "apiVersion": "meta.k8s.io/v1",
                "metadata": {"resourceVersion": "1"},
                "columnDefinitions": [
                    {"name": "Name", "type": "string", "format": "name", "priority": 0},
                    {"name": "Status", "type": "string", "format": "", "priority": 0},
                    {"name": "Restarts", "type": "string", "format": "", "priority": 0},
                ],
                "rows": [{"cells": ["web", HOSTILE_TEXT, [HOSTILE_TEXT]], "object": {
                    "kind": "PartialObjectMetadata", "apiVersion": "meta.k8s.io/v1",
                    "metadata": {"name": "web", "namespace": "default"}}}]
            })
            .to_string(),
        ),
        _ => Answer::NotFound,
    });
    let (home, config) = kubeconfig_for(&server.url);

    let mut cmd = kw_in(home.path());
    cmd.arg("version").arg("--kubeconfig").arg(&config);
    let outcome = run(cmd, LIMIT);
    assert_eq!(outcome.code, Some(0), "{outcome:#?}");
    assert!(
        raw_controls(&outcome.stdout).is_empty(),
        "{:?}",
        outcome.stdout
    );
    assert!(
        outcome
            .stdout
            .ends_with(&format!("Server Version: {HOSTILE_SHOWN}\n")),
        "{:?}",
        outcome.stdout
    );

    let mut cmd = kw_in(home.path());
    cmd.args(["get", "pods", "--kubeconfig"]).arg(&config);
    let outcome = run(cmd, LIMIT);
    assert_eq!(outcome.code, Some(0), "{outcome:#?}");
    assert!(
        raw_controls(&outcome.stdout).is_empty(),
        "{:?}",
        outcome.stdout
    );
    // A string cell and a composite one (printed as Go prints it), both escaped.
    let row = outcome.stdout.lines().nth(1).unwrap_or_default();
    assert!(
        row.contains(&format!("{HOSTILE_SHOWN}   [{HOSTILE_SHOWN}]")),
        "{row:?}"
    );
}

#[test]
fn diff_lines_show_terminal_controls_as_text() {
    let cluster = crate::harness::Cluster::seeded();
    let pod = |note: &str| {
        serde_json::json!({
            "apiVersion": "v1", "kind": "Pod",
            "metadata": {"name": "noted", "namespace": "default",
                         "annotations": {"note": note}},
            "spec": {"containers": [{"name": "c", "image": "busybox"}]},
            "status": {"phase": "Pending"}
        })
    };
    cluster.sim.create("pods", pod("quiet")).expect("create");
    let live = crate::harness::Live::spawn(&mut cluster.get(&[
        "pods",
        "noted",
        "-w",
        "--diff",
        "--request-timeout=20s",
    ]));
    live.lines_until(LIMIT, |line| line.starts_with("noted "));
    cluster
        .sim
        .update("pods", pod(HOSTILE_TEXT))
        .expect("update");
    let lines = live.lines_until(LIMIT, |line| line.contains("metadata.annotations.note"));
    let diff = lines.last().expect("a diff line");
    assert!(raw_controls(diff).is_empty(), "{diff:?}");
    assert_eq!(
        diff,
        &format!("    metadata.annotations.note: quiet → {HOSTILE_SHOWN}")
    );
}

// ---- also: a discovery cache directory others may write is not used ------------------------

#[cfg(unix)]
#[test]
fn a_discovery_cache_others_may_write_is_refused_with_a_warning() {
    use std::os::unix::fs::PermissionsExt;
    let table = |name: &str| {
        Answer::json(
            serde_json::json!({
                "kind": "Table", "apiVersion": "meta.k8s.io/v1",
                "metadata": {"resourceVersion": "1"},
                "columnDefinitions": [{"name": "Name", "type": "string", "format": "name"}],
                "rows": [{"cells": [name], "object": {"kind": "PartialObjectMetadata",
                    "apiVersion": "meta.k8s.io/v1",
                    "metadata": {"name": name, "namespace": "default"}}}]
            })
            .to_string(),
        )
    };
    let server = Hostile::serve(move |path| match path {
        "/api/v1" => core_discovery(),
        p if is_pod_list(p) => table("a-pod"),
        p if p.starts_with("/api/v1/namespaces/default/secrets") => table("a-secret"),
        _ => Answer::NotFound,
    });
    let (home, config) = kubeconfig_for(&server.url);
    let get_pods = || {
        let mut cmd = kw_in(home.path());
        cmd.env("XDG_CACHE_HOME", home.path().join(".cache"))
            .args(["get", "pods", "--kubeconfig"])
            .arg(&config);
        run(cmd, LIMIT)
    };
    // A first run fills the cache; someone who may write to its directory then makes `pods`
    // mean secrets.
    assert_eq!(get_pods().stdout, "NAME\na-pod\n");
    let dir = home.path().join(".cache/kw/discovery");
    let file = std::fs::read_dir(&dir)
        .expect("the cache directory")
        .flatten()
        .map(|entry| entry.path())
        .find(|path| path.extension().is_some_and(|e| e == "json"))
        .expect("a cache file");
    let text = std::fs::read_to_string(&file).expect("cache file");
    assert!(text.contains(r#""plural":"pods""#), "{text}");
    let poisoned = text
        .replace(r#""plural":"pods""#, r#""plural":"secrets""#)
        .replace(r#""kind":"Pod""#, r#""kind":"Secret""#);
    std::fs::write(&file, poisoned).expect("poisoned");
    std::fs::set_permissions(&dir, std::fs::Permissions::from_mode(0o777)).expect("chmod");

    let outcome = get_pods();
    assert_eq!(outcome.code, Some(0), "{outcome:#?}");
    assert_eq!(outcome.stdout, "NAME\na-pod\n");
    assert_eq!(
        outcome.stderr,
        format!(
            "kw: warning: not using the discovery cache {}: its group or other users may write \
             to it (mode 777; chmod 700 fixes that)\n",
            dir.display()
        )
    );
    assert!(
        !server.asked().iter().any(|p| p.contains("secrets")),
        "{:?}",
        server.asked()
    );
}
