//! Every test's watchdog: a hang becomes a failing test with evidence. The helpers that start a
//! sim or spawn a process (`cluster`, `process`) arm the watchdog of the test they run in; when
//! it outlives its limit it reports what the test's children and the sim were doing (each
//! child's command, its stderr and stdout so far, a backtrace of every thread: gdb if installed,
//! else the kernel's view in /proc), then kills the children so the test's waits end and it
//! fails. A test still stuck after that (a deadlock inside the in-process sim) ends the test
//! binary, with the report on the real stderr, instead of a run that never ends.
//!
//! Tests that start neither (parsers fed random input, which could loop) arm it themselves with
//! `watchdog::current()`.
//!
//! A watchdog belongs to the test's thread. Commands built by `Cluster::kw` carry its id in
//! `KW_IT_WATCHDOG`, so a process spawned from a helper thread is still watched by its test.

use std::cell::RefCell;
use std::collections::HashMap;
use std::io::Write;
use std::process::{Child, Command, Stdio};
use std::sync::{Arc, Condvar, Mutex, Weak};
use std::time::{Duration, Instant};

/// How long a test may run before it counts as hung; `KW_IT_WATCHDOG_SECS` overrides it. The
/// slowest tests take about 20 s alone, and several times that on a loaded machine.
const DEFAULT_LIMIT: Duration = Duration::from_secs(180);
/// How long a test may stay stuck after its children were killed before the binary exits.
const GRACE: Duration = Duration::from_secs(30);
/// The environment variable that ties a command to its test's watchdog.
pub const ID_VAR: &str = "KW_IT_WATCHDOG";
/// The tail of a child's output shown in a report.
const SHOWN_BYTES: usize = 4096;
/// Lines of one thread's backtrace shown in a report, and characters of each line.
const FRAME_LINES: usize = 25;
const LINE_CHARS: usize = 200;

/// Output a child has written so far: what a report shows while the child still runs.
#[derive(Clone)]
pub struct Output {
    bytes: Arc<Mutex<Vec<u8>>>,
    /// Keep about this many of the latest bytes (a long watch's stdout), or all.
    keep: usize,
}

impl Default for Output {
    fn default() -> Output {
        Output::tail(usize::MAX)
    }
}

impl Output {
    /// Output of which only the last `keep` bytes or so are kept.
    pub fn tail(keep: usize) -> Output {
        Output {
            bytes: Arc::default(),
            keep,
        }
    }

    pub fn push(&self, more: &[u8]) {
        let mut bytes = self.bytes.lock().unwrap_or_else(|p| p.into_inner());
        bytes.extend_from_slice(more);
        if bytes.len() > self.keep.saturating_mul(2) {
            let cut = bytes.len() - self.keep;
            bytes.drain(..cut);
        }
    }

    pub fn text(&self) -> String {
        String::from_utf8_lossy(&self.bytes.lock().unwrap_or_else(|p| p.into_inner())).into_owned()
    }
}

/// Where a child's stream can be read from while it runs.
#[derive(Clone)]
pub enum Stream {
    Buffer(Output),
    File(std::path::PathBuf),
}

impl Stream {
    /// Everything written so far (all that is kept, for a tail-only buffer).
    pub fn text(&self) -> String {
        match self {
            Stream::Buffer(output) => output.text(),
            Stream::File(path) => std::fs::read_to_string(path).unwrap_or_default(),
        }
    }

    fn tail(&self) -> String {
        let text = self.text();
        let mut from = text.len().saturating_sub(SHOWN_BYTES);
        while !text.is_char_boundary(from) {
            from += 1;
        }
        let cut = if from > 0 { "[…]\n" } else { "" };
        format!("{cut}{}", &text[from..])
    }
}

struct Watched {
    pid: u32,
    command: String,
    stdout: Stream,
    stderr: Stream,
}

struct State {
    children: Vec<Watched>,
    done: bool,
    /// The report, once the watchdog has fired.
    fired: Option<String>,
}

struct Dog {
    test: String,
    /// The kernel's id of the test's thread, to pick it out of a backtrace of the process.
    test_tid: Option<u32>,
    started: Instant,
    limit: Duration,
    state: Mutex<State>,
    wake: Condvar,
}

/// The watchdog of one test; dropping it (when the test's thread ends) stands it down.
pub struct Watchdog(Arc<Dog>);

impl Drop for Watchdog {
    fn drop(&mut self) {
        self.0.lock().done = true;
        self.0.wake.notify_all();
        registry()
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .remove(&self.id());
    }
}

thread_local! {
    static CURRENT: RefCell<Option<Watchdog>> = const { RefCell::new(None) };
}

fn registry() -> &'static Mutex<HashMap<u64, Weak<Dog>>> {
    static DOGS: std::sync::OnceLock<Mutex<HashMap<u64, Weak<Dog>>>> = std::sync::OnceLock::new();
    DOGS.get_or_init(Default::default)
}

/// A handle on a test's watchdog, for helpers that start things on its behalf.
#[derive(Clone)]
pub struct Handle(Arc<Dog>);

impl Handle {
    /// The value of [`ID_VAR`] that ties a command to this watchdog.
    pub fn id(&self) -> String {
        (Arc::as_ptr(&self.0) as usize as u64).to_string()
    }
}

impl Watchdog {
    fn id(&self) -> u64 {
        Arc::as_ptr(&self.0) as usize as u64
    }
}

/// The watchdog of the test running on this thread, armed on first use.
pub fn current() -> Handle {
    current_with_limit(limit())
}

/// As [`current`], with the limit given when the watchdog is armed here (a long soak).
pub fn current_with_limit(limit: Duration) -> Handle {
    CURRENT.with(|current| {
        let mut current = current.borrow_mut();
        let dog = current.get_or_insert_with(|| arm(limit));
        Handle(Arc::clone(&dog.0))
    })
}

fn limit() -> Duration {
    std::env::var("KW_IT_WATCHDOG_SECS")
        .ok()
        .and_then(|s| s.parse().ok())
        .map(Duration::from_secs)
        .unwrap_or(DEFAULT_LIMIT)
}

fn arm(limit: Duration) -> Watchdog {
    let test = std::thread::current()
        .name()
        .unwrap_or("a helper thread")
        .to_string();
    let dog = Arc::new(Dog {
        test,
        test_tid: thread_id(),
        started: Instant::now(),
        limit,
        state: Mutex::new(State {
            children: Vec::new(),
            done: false,
            fired: None,
        }),
        wake: Condvar::new(),
    });
    let watchdog = Watchdog(Arc::clone(&dog));
    registry()
        .lock()
        .unwrap_or_else(|p| p.into_inner())
        .insert(watchdog.id(), Arc::downgrade(&dog));
    // Spawned from the test's thread, the timer writes into the test's captured output.
    std::thread::Builder::new()
        .name("it-watchdog".into())
        .spawn(move || guard(&dog))
        .expect("watchdog thread");
    watchdog
}

/// The watchdog a command belongs to: the one named in its environment, else this thread's.
fn of_command(cmd: &Command) -> Handle {
    let named = cmd.get_envs().find_map(|(key, value)| {
        let id: u64 = (key == ID_VAR).then(|| value?.to_str()?.parse().ok())??;
        registry()
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .get(&id)?
            .upgrade()
    });
    named.map(Handle).unwrap_or_else(current)
}

/// Watch a child spawned from `cmd`, its output readable from `stdout` and `stderr` as it runs.
pub fn watch(cmd: &Command, child: &Child, stdout: Stream, stderr: Stream) {
    let dog = of_command(cmd);
    let mut command = cmd.get_program().to_string_lossy().into_owned();
    for arg in cmd.get_args() {
        command.push(' ');
        command.push_str(&arg.to_string_lossy());
    }
    dog.0.lock().children.push(Watched {
        pid: child.id(),
        command,
        stdout,
        stderr,
    });
}

/// Fail the test if its watchdog has fired: called by the helpers when a wait ends without
/// what it waited for, so the failure says why.
pub fn check() {
    let fired = CURRENT.with(|current| {
        let current = current.borrow();
        let dog = current.as_ref()?;
        let fired = dog.0.lock().fired.is_some();
        fired.then(|| dog.0.limit)
    });
    if let Some(limit) = fired {
        panic!("the test's watchdog fired after {limit:?}: the test hung (report above)");
    }
}

impl Dog {
    fn lock(&self) -> std::sync::MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(|p| p.into_inner())
    }
}

/// The watchdog's thread: wait for the test to end or the limit to pass.
fn guard(dog: &Dog) {
    let deadline = dog.started + dog.limit;
    let mut state = dog.lock();
    while !state.done {
        let left = deadline.saturating_duration_since(Instant::now());
        if left.is_zero() {
            break;
        }
        state = dog
            .wake
            .wait_timeout(state, left)
            .unwrap_or_else(|p| p.into_inner())
            .0;
    }
    if state.done {
        return;
    }
    drop(state);
    let report = report(dog);
    // Into the test's captured output, shown with its failure.
    eprintln!("{report}");
    let pids: Vec<u32> = {
        let mut state = dog.lock();
        state.fired = Some(report.clone());
        state.children.iter().map(|c| c.pid).collect()
    };
    for pid in pids {
        kill(pid);
    }
    let grace = GRACE.min(dog.limit);
    let until = Instant::now() + grace;
    let mut state = dog.lock();
    while !state.done && Instant::now() < until {
        let left = until.saturating_duration_since(Instant::now());
        state = dog
            .wake
            .wait_timeout(state, left)
            .unwrap_or_else(|p| p.into_inner())
            .0;
    }
    if state.done {
        return;
    }
    // Still stuck with its children gone: the hang is in this process. The captured output
    // would never be shown, so the report goes to the real stderr, and the run ends.
    let mut stderr = std::io::stderr();
    let _ = writeln!(
        stderr,
        "{report}\n\nwatchdog: {} still stuck {grace:?} after its children were killed; ending \
         the test binary",
        dog.test
    );
    std::process::exit(101);
}

fn kill(pid: u32) {
    let _ = Command::new("kill")
        .args(["-KILL", &pid.to_string()])
        .stderr(Stdio::null())
        .status();
}

/// What the test's children and the sim were doing.
fn report(dog: &Dog) -> String {
    let children: Vec<(u32, String, String, String)> = dog
        .lock()
        .children
        .iter()
        .map(|c| (c.pid, c.command.clone(), c.stdout.tail(), c.stderr.tail()))
        .collect();
    let mut out = format!(
        "==== watchdog: {} has run for {:?}, longer than its limit of {:?} ====\n",
        dog.test,
        dog.started.elapsed(),
        dog.limit
    );
    for (pid, command, stdout, stderr) in children {
        let alive = std::path::Path::new(&format!("/proc/{pid}")).exists();
        out.push_str(&format!(
            "\n---- child {pid} ({}): {command}\n",
            if alive { "running" } else { "ended" }
        ));
        out.push_str(&format!(
            "-- stderr so far:\n{stderr}\n-- stdout so far:\n{stdout}\n"
        ));
        if alive {
            out.push_str(&format!("-- threads:\n{}\n", backtrace(pid, &|_| true)));
        }
    }
    // The sim runs in this process: the test's own thread and the sim's threads (of every test
    // running now; they are named sim-*).
    let test_tid = dog.test_tid;
    let ours =
        move |thread: &ThreadInfo| Some(thread.tid) == test_tid || thread.name.starts_with("sim-");
    let tid = test_tid.map_or("?".to_string(), |tid| tid.to_string());
    out.push_str(&format!(
        "\n---- this test process: the test's thread (LWP {tid}) and the sim's threads:\n{}\n",
        backtrace(std::process::id(), &ours)
    ));
    out.push_str("==== end of watchdog report ====");
    out
}

struct ThreadInfo {
    tid: u32,
    name: String,
}

/// The kernel's id of this thread.
fn thread_id() -> Option<u32> {
    let link = std::fs::read_link("/proc/thread-self").ok()?;
    link.file_name()?.to_str()?.parse().ok()
}

/// Every thread of `pid` that `keep` selects: gdb's backtrace if gdb is installed, else what
/// /proc says (state, the kernel function it waits in, the kernel stack when readable).
fn backtrace(pid: u32, keep: &dyn Fn(&ThreadInfo) -> bool) -> String {
    gdb_backtrace(pid, keep).unwrap_or_else(|| proc_threads(pid, keep))
}

fn gdb_backtrace(pid: u32, keep: &dyn Fn(&ThreadInfo) -> bool) -> Option<String> {
    // gdb stops the process while it prints; when that process is this one, a pipe could fill
    // with nobody to read it, so gdb writes to a file.
    let file = tempfile::NamedTempFile::new().ok()?;
    let mut gdb = Command::new("gdb")
        .args(["-nx", "-q", "-batch", "-p", &pid.to_string()])
        .args(["-ex", "thread apply all bt"])
        .stdin(Stdio::null())
        .stdout(file.reopen().ok()?)
        .stderr(Stdio::null())
        .spawn()
        .ok()?;
    let deadline = Instant::now() + Duration::from_secs(60);
    loop {
        match gdb.try_wait().ok()? {
            Some(_) => break,
            None if Instant::now() >= deadline => {
                let _ = gdb.kill();
                let _ = gdb.wait();
                break;
            }
            None => std::thread::sleep(Duration::from_millis(100)),
        }
    }
    let text = std::fs::read_to_string(file.path()).ok()?;
    // One block per thread, each opened by `Thread N (Thread 0x… (LWP TID) "NAME"):`.
    let mut out = String::new();
    for block in text.split("\nThread ").skip(1) {
        let head = block.lines().next().unwrap_or_default();
        let tid = head
            .split("(LWP ")
            .nth(1)
            .and_then(|rest| rest.split(')').next())
            .and_then(|tid| tid.parse().ok())
            .unwrap_or(0);
        let name = head.split('"').nth(1).unwrap_or_default().to_string();
        if !keep(&ThreadInfo { tid, name }) {
            continue;
        }
        out.push_str("Thread ");
        for line in block.lines().take(FRAME_LINES) {
            out.extend(line.chars().take(LINE_CHARS));
            out.push('\n');
        }
    }
    (!out.is_empty()).then_some(out)
}

fn proc_threads(pid: u32, keep: &dyn Fn(&ThreadInfo) -> bool) -> String {
    let Ok(tasks) = std::fs::read_dir(format!("/proc/{pid}/task")) else {
        return format!("(process {pid} is gone)");
    };
    let mut out = String::from("(gdb not installed: the kernel's view of each thread)\n");
    for task in tasks.flatten() {
        let dir = task.path();
        let read = |name: &str| std::fs::read_to_string(dir.join(name)).unwrap_or_default();
        let tid = task.file_name().to_string_lossy().parse().unwrap_or(0);
        let name = read("comm").trim().to_string();
        if !keep(&ThreadInfo {
            tid,
            name: name.clone(),
        }) {
            continue;
        }
        let state = read("stat")
            .rsplit(')')
            .next()
            .and_then(|rest| rest.split_whitespace().next())
            .unwrap_or("?")
            .to_string();
        out.push_str(&format!(
            "thread {tid} {name:?} state {state} waiting in {}\n{}",
            read("wchan"),
            read("stack")
        ));
    }
    out
}
