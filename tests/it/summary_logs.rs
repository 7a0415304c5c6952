//! The logs in the summary of a failed wait (issues #29 and #31): read side by side within the
//! summary's own budget, whatever the log endpoint does (stall, trickle, a 60 MiB body of
//! newlines, kept in memory in proportion to what is printed); read in a reserve after
//! `--timeout`; a Job's Pod that never restarted shows its log; identical logs are shown once;
//! and `kw demo` ends on its story, without the noise of its own sim stopping.
//!
//! The hostile log endpoints are a small plain-HTTP server in front of `kw sim --http`: it
//! passes every request to the sim, one connection each, except log requests, which it answers
//! itself.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{SocketAddr, TcpListener, TcpStream};
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use kw_sim::rollout::{Plot, Rollout};
use kw_sim::SimConfig;

use crate::harness::{frozen_now, Cluster, Live};

const LIMIT: Duration = Duration::from_secs(60);

/// What the server in front of the sim does with a log request.
#[derive(Clone, Copy)]
enum LogEndpoint {
    /// Read the request, never answer (until the test ends).
    Stall,
    /// Answer 200 and one byte every 2 s.
    Trickle,
    /// Answer 200 with this many bytes of `\n` (tailLines ignored).
    Newlines(usize),
}

/// The server in front of the sim, and a kubeconfig that points kw at it.
struct Front {
    cluster: Cluster,
    kubeconfig: std::path::PathBuf,
    stop: Arc<AtomicBool>,
    address: SocketAddr,
}

impl Front {
    fn start(log: LogEndpoint) -> Front {
        let cluster = Cluster::start(SimConfig {
            tls: false,
            clock: Some(frozen_now()),
            ..SimConfig::default()
        });
        let listener = TcpListener::bind("127.0.0.1:0").expect("bind");
        let address = listener.local_addr().expect("address");
        let sim: SocketAddr = cluster
            .sim
            .url()
            .trim_start_matches("http://")
            .parse()
            .expect("sim address");
        let text = std::fs::read_to_string(&cluster.kubeconfig).expect("kubeconfig");
        let kubeconfig = cluster.dir.path().join("kubeconfig-front");
        std::fs::write(
            &kubeconfig,
            text.replace(&cluster.sim.url(), &format!("http://{address}")),
        )
        .expect("kubeconfig written");
        let stop = Arc::new(AtomicBool::new(false));
        let stopped = stop.clone();
        std::thread::spawn(move || {
            for stream in listener.incoming().flatten() {
                if stopped.load(Ordering::SeqCst) {
                    break;
                }
                let stopped = stopped.clone();
                std::thread::spawn(move || serve(stream, sim, log, &stopped));
            }
        });
        Front {
            cluster,
            kubeconfig,
            stop,
            address,
        }
    }

    fn get(&self, args: &[&str]) -> Command {
        let mut cmd = self.cluster.kw();
        cmd.arg("get")
            .args(args)
            .arg("--kubeconfig")
            .arg(&self.kubeconfig);
        cmd
    }
}

impl Drop for Front {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::SeqCst);
        let _ = TcpStream::connect(self.address);
    }
}

/// One connection from kw: log requests answered as `log` says, every other request passed to
/// the sim on a connection of its own and its answer passed back, then the connection closed.
fn serve(client: TcpStream, sim: SocketAddr, log: LogEndpoint, stop: &AtomicBool) {
    let _ = client.set_read_timeout(Some(LIMIT));
    let mut reader = BufReader::new(&client);
    loop {
        let mut head = Vec::new();
        loop {
            let mut line = String::new();
            match reader.read_line(&mut line) {
                Ok(0) | Err(_) => return,
                Ok(_) if line == "\r\n" => break,
                Ok(_) => head.push(line),
            }
        }
        let path = head
            .first()
            .and_then(|l| l.split(' ').nth(1))
            .unwrap_or_default()
            .to_string();
        let mut writer = &client;
        if !path.contains("/log?") {
            pass_to_sim(&head, &client, sim);
            return;
        }
        match log {
            LogEndpoint::Stall => {
                let until = Instant::now() + LIMIT;
                while !stop.load(Ordering::SeqCst) && Instant::now() < until {
                    std::thread::sleep(Duration::from_millis(50));
                }
                return;
            }
            LogEndpoint::Trickle => {
                let head = "HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\n\
                            Content-Length: 1000\r\n\r\n";
                if writer.write_all(head.as_bytes()).is_err() {
                    return;
                }
                let until = Instant::now() + LIMIT;
                while !stop.load(Ordering::SeqCst) && Instant::now() < until {
                    if writer.write_all(b"x").is_err() {
                        return;
                    }
                    std::thread::sleep(Duration::from_secs(2));
                }
                return;
            }
            LogEndpoint::Newlines(size) => {
                let head = format!(
                    "HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: {size}\r\n\r\n"
                );
                if writer.write_all(head.as_bytes()).is_err() {
                    return;
                }
                let chunk = vec![b'\n'; 1 << 20];
                let mut left = size;
                while left > 0 {
                    let n = left.min(chunk.len());
                    if writer.write_all(&chunk[..n]).is_err() {
                        return;
                    }
                    left -= n;
                }
            }
        }
    }
}

/// Send the request `head` to the sim with `Connection: close`, and its answer, whole, to kw
/// (a watch streams until the sim or kw ends it).
fn pass_to_sim(head: &[String], client: &TcpStream, sim: SocketAddr) {
    let Ok(mut upstream) = TcpStream::connect(sim) else {
        return;
    };
    let mut request = String::new();
    for line in head {
        if !line.to_ascii_lowercase().starts_with("connection:") {
            request.push_str(line);
        }
    }
    request.push_str("Connection: close\r\n\r\n");
    if upstream.write_all(request.as_bytes()).is_err() {
        return;
    }
    let mut buffer = vec![0u8; 64 << 10];
    let mut writer = client;
    while let Ok(n @ 1..) = upstream.read(&mut buffer) {
        if writer.write_all(&buffer[..n]).is_err() {
            break;
        }
    }
    let _ = client.shutdown(std::net::Shutdown::Both);
}

fn play(cluster: &Cluster, plot: Plot, name: &str, beat: Duration) {
    let mut rollout = Rollout::new(plot, "default", name);
    rollout.beat = beat;
    cluster.sim.play_rollout(&rollout).expect("rollout plays");
}

/// The wait of the crash-loop story that fails at the first back-off, with no `--timeout`,
/// against a log endpoint that never gives a log: the verdict and the summary come within the
/// summary's budget (5 s) of the failure, each log named as not read.
fn stalled_logs_do_not_hold_the_verdict(log: LogEndpoint) {
    let front = Front::start(log);
    let started = Instant::now();
    let live = Live::spawn(&mut front.get(&[
        "deploy/stall",
        "--until",
        "ready",
        "--fail-on",
        "failed",
        "--fail-grace",
        "0",
        "-o",
        "name",
    ]));
    play(
        &front.cluster,
        Plot::CrashLoop,
        "stall",
        Duration::from_millis(100),
    );
    let (code, _, stderr) = live.finish(Duration::from_secs(40));
    let took = started.elapsed();
    eprintln!("the verdict and summary came {took:?} after kw started");
    assert_eq!(code, Some(2), "{stderr}");
    // The failure comes after a few beats; the logs get 5 s; the rest is slack.
    assert!(took < Duration::from_secs(20), "took {took:?}: {stderr}");
    let summary = &stderr[stderr.find("kw: summary of the wait:\n").expect(&stderr)..];
    let crashed = summary
        .lines()
        .filter(|l| l.starts_with("  pod/stall-") && l.contains(" container web: "))
        .count();
    let unread = summary
        .matches("    (cannot read its previous log: it did not come within the summary's 5s)\n")
        .count();
    assert!(crashed >= 1, "{summary}");
    assert_eq!(unread, crashed, "one line per log not read: {summary}");
}

#[test]
fn a_stalled_log_endpoint_does_not_hold_the_verdict() {
    stalled_logs_do_not_hold_the_verdict(LogEndpoint::Stall);
}

#[test]
fn a_trickling_log_endpoint_does_not_hold_the_verdict() {
    stalled_logs_do_not_hold_the_verdict(LogEndpoint::Trickle);
}

/// kw's peak resident memory (KiB), after running `cmd` to its end within `limit`: the largest
/// `VmHWM` of its own memory map, read while it runs. Not `ru_maxrss` from `wait4`: Linux
/// carries a child's high-water mark from before its `exec`, when it was a fork of this test
/// binary, so a busy test binary's memory (the other tests' servers) would count as kw's.
/// Also returns its exit code and stderr.
// The child is reaped by `waitpid` (polled beside the memory reads), not by `Child::wait`.
#[allow(clippy::zombie_processes)]
pub(crate) fn peak_memory_kib(cmd: &mut Command, limit: Duration) -> (Option<i32>, i64, String) {
    let mut child = cmd
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("kw starts");
    let mut stderr = child.stderr.take().expect("stderr");
    let reader = std::thread::spawn(move || {
        let mut text = String::new();
        let _ = stderr.read_to_string(&mut text);
        text
    });
    let pid = child.id() as libc::pid_t;
    let deadline = Instant::now() + limit;
    let status_file = format!("/proc/{pid}/status");
    let mut peak: i64 = 0;
    let code = loop {
        // The high-water mark only grows, so the last read before kw exits is its peak (to
        // within the few milliseconds between reads; the growth it guards against takes far
        // longer, a whole log read).
        if let Ok(status) = std::fs::read_to_string(&status_file) {
            let hwm = status
                .lines()
                .find_map(|line| line.strip_prefix("VmHWM:"))
                .and_then(|kib| kib.trim().trim_end_matches("kB").trim().parse::<i64>().ok());
            peak = peak.max(hwm.unwrap_or(0));
        }
        let mut status = 0;
        // SAFETY: a plain out-parameter for waitpid on our own child.
        let reaped = unsafe { libc::waitpid(pid, &mut status, libc::WNOHANG) };
        if reaped == pid {
            break libc::WIFEXITED(status).then(|| libc::WEXITSTATUS(status));
        }
        assert!(reaped == 0, "waitpid failed");
        if Instant::now() >= deadline {
            let _ = child.kill();
            let _ = child.wait();
            panic!("kw did not finish within {limit:?}");
        }
        std::thread::sleep(Duration::from_millis(2));
    };
    (code, peak, reader.join().expect("stderr reader"))
}

/// A log endpoint that ignores `tailLines` and sends 60 MiB of newlines (under the 64 MiB
/// cap) for each of the crashed containers: kw keeps the last 20 lines while reading, so its
/// peak memory stays far below one body, let alone three.
#[test]
fn a_huge_log_of_newlines_costs_what_is_printed() {
    let front = Front::start(LogEndpoint::Newlines(60 << 20));
    let mut cmd = front.get(&[
        "deploy/huge",
        "--until",
        "ready",
        "--fail-on",
        "failed",
        "--fail-grace",
        "0",
        "-o",
        "name",
    ]);
    // The rollout is played while kw runs: spawn first, then play.
    let started = std::thread::scope(|scope| {
        let run = scope.spawn(|| peak_memory_kib(&mut cmd, LIMIT));
        play(
            &front.cluster,
            Plot::CrashLoop,
            "huge",
            Duration::from_millis(100),
        );
        run.join().expect("kw run")
    });
    let (code, peak_kib, stderr) = started;
    assert_eq!(code, Some(2), "{stderr}");
    assert!(
        stderr.contains("    last lines of its previous log:\n    | \n")
            || stderr
                .contains("    last lines of their previous logs (the same in each):\n    | \n"),
        "{stderr}"
    );
    eprintln!(
        "kw's peak RSS with 60 MiB logs of newlines: {} MiB",
        peak_kib / 1024
    );
    // Measured at 22 MiB. Below one body: a kw that held one whole 60 MiB log (let alone the
    // three) would be over 80 MiB, which the former bound of 150 MiB let through.
    assert!(
        peak_kib < 60 * 1024,
        "kw's peak RSS was {} MiB: {stderr}",
        peak_kib / 1024
    );
}

/// `--timeout` ends the wait with exit 3 and the summary still reads each crashed container's
/// previous log, in the reserve it gets after the deadline (a tenth of the timeout, at most 2 s).
#[test]
fn a_timeout_leaves_the_summary_a_reserve_to_read_logs_in() {
    let cluster = Cluster::seeded();
    let live = Live::spawn(&mut cluster.get(&[
        "deploy/late",
        "--until",
        "ready",
        "--fail-on",
        "failed",
        "--fail-grace",
        "10m",
        "--timeout",
        "5s",
        "-o",
        "name",
    ]));
    play(
        &cluster,
        Plot::CrashLoop,
        "late",
        Duration::from_millis(100),
    );
    let (code, _, stderr) = live.finish(Duration::from_secs(30));
    assert_eq!(code, Some(3), "{stderr}");
    let summary = &stderr[stderr.find("kw: summary of the wait:\n").expect(&stderr)..];
    assert!(
        !summary.contains("deadline (--timeout) passed"),
        "{summary}"
    );
    assert!(!summary.contains("cannot read"), "{summary}");
    assert!(summary.contains("    | exit status 1\n"), "{summary}");
    assert!(
        summary.contains(" container web: CrashLoopBackOff (exit code 1)\n"),
        "{summary}"
    );
}

/// Pods of one workload that printed the same log: the log is shown once, under the lines
/// naming each of them.
#[test]
fn identical_logs_of_several_pods_are_shown_once() {
    let cluster = Cluster::seeded();
    let live = Live::spawn(&mut cluster.get(&[
        "deploy/same",
        "--until",
        "ready",
        "--fail-on",
        "failed",
        "--fail-grace",
        "1s",
        "--timeout",
        "25s",
        "-o",
        "name",
    ]));
    play(
        &cluster,
        Plot::CrashLoop,
        "same",
        Duration::from_millis(100),
    );
    let (code, _, stderr) = live.finish(Duration::from_secs(40));
    assert_eq!(code, Some(2), "{stderr}");
    let summary = &stderr[stderr.find("kw: summary of the wait:\n").expect(&stderr)..];
    let crashed: usize = summary
        .lines()
        .filter(|l| {
            // The state word is the container's at the verdict: `CrashLoopBackOff`, or `Error`
            // between two back-offs.
            l.starts_with("  pod/same-")
                && l.contains(" container web: ")
                && l.ends_with(" (exit code 1)")
        })
        .map(pods_named)
        .sum();
    assert_eq!(crashed, 3, "{summary}");
    // Each log's first line names its attempt: no log is shown twice.
    let firsts: Vec<&str> = summary
        .lines()
        .filter(|l| l.starts_with("    | web 2.0.1 starting (attempt "))
        .collect();
    let distinct: std::collections::HashSet<&&str> = firsts.iter().collect();
    assert_eq!(firsts.len(), distinct.len(), "{summary}");
    assert!(
        summary.contains("    last lines of their previous logs (the same in each):\n"),
        "{summary}"
    );
}

/// A Job's Pod that failed and was never restarted (`restartPolicy: Never`) has no previous
/// log: kw reads its log as it ended (`previous=false`) and shows it.
#[test]
fn a_job_pod_that_never_restarted_shows_its_log() {
    let cluster = Cluster::seeded();
    let live = Live::spawn(&mut cluster.get(&[
        "job/migrate",
        "--until",
        "ready",
        "--fail-on",
        "failed",
        "--timeout",
        "25s",
        "-o",
        "name",
    ]));
    play(
        &cluster,
        Plot::JobFails,
        "migrate",
        Duration::from_millis(100),
    );
    let (code, _, stderr) = live.finish(Duration::from_secs(40));
    assert_eq!(code, Some(2), "{stderr}");
    let summary = &stderr[stderr.find("kw: summary of the wait:\n").expect(&stderr)..];
    // Its log (`previous=false`), shown once for the Job's Pods whose logs end the same.
    assert!(
        summary.contains(" container web: Error (exit code 1)\n    last lines of its log:\n")
            || summary.contains(
                " container web: Error (exit code 1)\n    last lines of the first one's log (each ends the same):\n"
            ),
        "{summary}"
    );
    assert!(summary.contains("    | exit status 1\n"), "{summary}");
    assert!(!summary.contains("cannot read"), "{summary}");
    let current: Vec<String> = cluster
        .sim
        .requests()
        .into_iter()
        .map(|r| r.path)
        .filter(|p| p.contains("/log?") && p.contains("previous=false"))
        .collect();
    assert!(!current.is_empty(), "{stderr}");
}

/// `kw demo` stops kw's watchers before its sim: the story ends on its cause and summary, with
/// no broken connection, TLS end-of-file or resuming line.
#[test]
fn the_demo_ends_on_its_story_without_connection_noise() {
    let tmp = tempfile::tempdir().unwrap();
    let demo = |args: &[&str]| {
        let mut cmd = crate::harness::tools::command(env!("CARGO_BIN_EXE_kw"));
        cmd.arg("demo")
            .args(args)
            .env("TMPDIR", tmp.path())
            .env("HOME", tmp.path())
            .env("NO_COLOR", "1")
            .env_remove("KUBECONFIG")
            .stdin(Stdio::null());
        crate::harness::run(cmd, LIMIT)
    };
    let quiet = |stderr: &str| {
        for noise in ["broke", "unexpected-eof", "resuming", "retrying"] {
            assert!(!stderr.contains(noise), "{noise}: {stderr}");
        }
    };
    let pull = demo(&[
        "--rollout",
        "image-pull:shop",
        "--",
        "deploy/shop",
        "--until",
        "ready",
        "--fail-on",
        "failed",
    ]);
    assert_eq!(pull.code, Some(2), "{}", pull.stderr);
    assert!(pull.stderr.contains("ImagePullBackOff"), "{}", pull.stderr);
    assert!(
        pull.stderr.contains("kw: summary of the wait:\n"),
        "{}",
        pull.stderr
    );
    quiet(&pull.stderr);
    let crash = demo(&[
        "--rollout",
        "crash-loop:cart",
        "--",
        "deploy/cart",
        "--until",
        "ready",
        "--fail-on",
        "failed",
        "--fail-grace",
        "0",
    ]);
    assert_eq!(crash.code, Some(2), "{}", crash.stderr);
    assert!(
        crash.stderr.contains("CrashLoopBackOff"),
        "{}",
        crash.stderr
    );
    assert!(
        crash.stderr.contains("    | exit status 1\n"),
        "{}",
        crash.stderr
    );
    quiet(&crash.stderr);
}

/// How many Pods a line of the block names: `pod/a, -b (2 Pods) ...` two, `pod/a ...` one.
fn pods_named(line: &str) -> usize {
    line.split_once(" Pods) ")
        .and_then(|(names, _)| names.rsplit_once(" (")?.1.parse().ok())
        .unwrap_or(1)
}
