//! The helpers kw starts and may have to stop (exec credential plugins, a kubectl asked for
//! completions), each the leader of a process group of its own: a helper's own children (a
//! plugin's `sleep`, kubectl's plugin) are in that group too, so ending the group ends all of
//! them, where killing the leader alone leaves its children holding kw's stderr open (issue 61).
//!
//! The groups running are known process-wide, so that a signal ending kw ends them too: a
//! helper in a group of its own no longer gets the terminal's Ctrl-C.

use std::process::{Child, Command};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Mutex, PoisonError};
use std::time::{Duration, Instant};

/// How long a group has from SIGTERM to SIGKILL: enough to tidy up, short next to a deadline.
pub const GRACE: Duration = Duration::from_millis(300);

/// The groups started and not yet ended, by leader pid.
static RUNNING: Mutex<Vec<u32>> = Mutex::new(Vec::new());
/// Set once a signal's handler ends the groups on its way to ending kw.
static ENDING: AtomicBool = AtomicBool::new(false);

/// Makes `command`'s child the leader of a new process group. Only for a helper that does not
/// use the terminal: a background group reading it would be stopped (SIGTTIN).
pub fn own_group(command: &mut Command) {
    #[cfg(unix)]
    {
        use std::os::unix::process::CommandExt as _;
        command.process_group(0);
    }
    #[cfg(not(unix))]
    let _ = command;
}

/// A child started by a command that `own_group` was given, known until ended or dropped.
pub struct Group {
    leader: u32,
}

impl Group {
    /// Known from now on: a signal ending kw ends it (`end_all`).
    pub fn track(child: &Child) -> Group {
        let leader = child.id();
        RUNNING
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .push(leader);
        Group { leader }
    }

    /// Ends the whole group: SIGTERM, then SIGKILL once the leader has ended or `GRACE` has
    /// passed, then the leader waited on. The leader is waited on last: until then its pid, the
    /// group's id, cannot be reused, so no other process is signalled.
    pub fn end(self, child: &mut Child) {
        #[cfg(unix)]
        {
            signal_group(self.leader, libc::SIGTERM);
            let until = Instant::now() + GRACE;
            while !has_ended(self.leader) && Instant::now() < until {
                std::thread::sleep(Duration::from_millis(10));
            }
            signal_group(self.leader, libc::SIGKILL);
        }
        let _ = child.kill();
        let _ = child.wait();
    }
}

impl Drop for Group {
    fn drop(&mut self) {
        let mut running = RUNNING.lock().unwrap_or_else(PoisonError::into_inner);
        running.retain(|leader| *leader != self.leader);
    }
}

/// Ends every group still running: for the handler of a signal that ends kw, which exits next.
pub fn end_all() {
    ENDING.store(true, Ordering::SeqCst);
    let running = RUNNING
        .lock()
        .unwrap_or_else(PoisonError::into_inner)
        .clone();
    if running.is_empty() {
        return;
    }
    #[cfg(unix)]
    {
        for leader in &running {
            signal_group(*leader, libc::SIGTERM);
        }
        let until = Instant::now() + GRACE;
        while running.iter().any(|leader| !has_ended(*leader)) && Instant::now() < until {
            std::thread::sleep(Duration::from_millis(10));
        }
        for leader in &running {
            signal_group(*leader, libc::SIGKILL);
        }
    }
}

/// For the thread that waited on a helper which has just died: when it died because a signal
/// is ending kw, the thread waits for that handler to exit, not to report the death as the
/// helper's failure with an exit code of its own (bounded: the handler exits soon after).
pub fn hold_while_ending() {
    let until = Instant::now() + GRACE * 10;
    while ENDING.load(Ordering::SeqCst) && Instant::now() < until {
        std::thread::sleep(Duration::from_millis(50));
    }
}

#[cfg(unix)]
fn signal_group(leader: u32, signal: libc::c_int) {
    if let Ok(group) = libc::pid_t::try_from(leader) {
        // SAFETY: killpg(2) with a group id kw made and has not reaped the leader of.
        unsafe { libc::killpg(group, signal) };
    }
}

/// Whether the leader has exited, without reaping it (its pid stays the group's).
#[cfg(unix)]
fn has_ended(leader: u32) -> bool {
    // SAFETY: a zeroed siginfo_t is valid for waitid(2) to fill; WNOWAIT leaves the child
    // waitable, WNOHANG returns at once.
    unsafe {
        let mut info: libc::siginfo_t = std::mem::zeroed();
        let done = libc::waitid(
            libc::P_PID,
            leader as libc::id_t,
            &mut info,
            libc::WEXITED | libc::WNOHANG | libc::WNOWAIT,
        );
        // An error (no such child: already reaped) counts as ended.
        done != 0 || info.si_pid() != 0
    }
}

#[cfg(all(test, target_os = "linux"))]
mod tests {
    use super::*;

    #[test]
    fn ending_a_group_ends_the_leaders_children() {
        let dir = std::env::temp_dir().join(format!("kw-group-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let pid_file = dir.join("pid");
        let mut command = Command::new("/bin/sh");
        command
            .arg("-c")
            .arg(format!("sleep 60 & echo $! > {}; wait", pid_file.display()));
        own_group(&mut command);
        let mut child = command.spawn().unwrap();
        let group = Group::track(&child);
        let mut grandchild = None;
        for _ in 0..500 {
            grandchild = std::fs::read_to_string(&pid_file)
                .ok()
                .and_then(|text| text.trim().parse::<libc::pid_t>().ok());
            if grandchild.is_some() {
                break;
            }
            std::thread::sleep(Duration::from_millis(10));
        }
        let grandchild = grandchild.expect("the script wrote its child's pid");
        group.end(&mut child);
        // The grandchild was reparented (to init or a subreaper) which reaps it: poll, bounded.
        let mut alive = true;
        for _ in 0..300 {
            // A zombie is dead: what reaps orphans here may be slow to.
            alive = std::fs::read_to_string(format!("/proc/{grandchild}/stat")).is_ok_and(|stat| {
                !stat
                    .rsplit(')')
                    .next()
                    .unwrap_or("")
                    .trim_start()
                    .starts_with('Z')
            });
            if !alive {
                break;
            }
            std::thread::sleep(Duration::from_millis(10));
        }
        let _ = std::fs::remove_dir_all(&dir);
        assert!(!alive, "the plugin's child {grandchild} outlived its group");
        assert!(RUNNING.lock().unwrap().is_empty());
    }
}
