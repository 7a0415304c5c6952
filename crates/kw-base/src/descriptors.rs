//! File descriptors. A fleet holds a socket per watch, and the soft `RLIMIT_NOFILE` many
//! systems start a shell with (1,024 on Linux, 256 on macOS) is sized for select(2), which kw
//! does not use. So kw raises its soft limit to the hard one when it starts, as Go's runtime
//! raises kubectl's (Go 1.19), and gives the original back to the programs it starts (kubectl
//! for a handed verb, exec plugins), as Go does since 1.21: one of them may use select(2).
//! Nothing on Windows, which has no such limit on sockets.

use std::process::Command;

/// The soft limit kw started with, when kw raised it: what a child gets back.
#[cfg(unix)]
static STARTED_WITH: std::sync::OnceLock<libc::rlim_t> = std::sync::OnceLock::new();

/// kw's descriptor limits as they stand: the soft one, which opening past fails
/// (`Too many open files`), and the hard one, which only root may raise.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limits {
    pub soft: u64,
    pub hard: u64,
}

/// Raises the soft limit to the hard limit (on macOS no higher than the kernel's per-process
/// maximum, which setrlimit refuses to pass), once, before kw opens anything much. A failure
/// leaves the limit as it was: `limits` then says what kw has.
pub fn raise() {
    #[cfg(unix)]
    {
        let Some(now) = get() else { return };
        if now.rlim_cur == now.rlim_max || STARTED_WITH.get().is_some() {
            return;
        }
        let raised = libc::rlimit {
            rlim_cur: ceiling(now.rlim_max),
            rlim_max: now.rlim_max,
        };
        // SAFETY: setrlimit(2) reads the struct it is given.
        if raised.rlim_cur > now.rlim_cur
            && unsafe { libc::setrlimit(libc::RLIMIT_NOFILE, &raised) } == 0
        {
            let _ = STARTED_WITH.set(now.rlim_cur);
        }
    }
}

/// kw's limits now; `None` where there are none to tell (Windows) or they are unlimited.
pub fn limits() -> Option<Limits> {
    #[cfg(unix)]
    {
        let now = get()?;
        // rlim_t is u64 on most targets but not on all (32-bit Linux).
        #[allow(clippy::unnecessary_cast)]
        (now.rlim_cur != libc::RLIM_INFINITY).then_some(Limits {
            soft: now.rlim_cur as u64,
            hard: now.rlim_max as u64,
        })
    }
    #[cfg(not(unix))]
    None
}

/// Gives `command`'s child the soft limit kw started with, when kw raised its own.
pub fn for_child(command: &mut Command) {
    #[cfg(unix)]
    if let (Some(&soft), Some(now)) = (STARTED_WITH.get(), get()) {
        use std::os::unix::process::CommandExt as _;
        let original = libc::rlimit {
            rlim_cur: soft,
            rlim_max: now.rlim_max,
        };
        // SAFETY: between fork and exec the child calls only setrlimit(2), which is
        // async-signal-safe, on a struct copied into the closure; a failure leaves the child
        // kw's limit, which is no worse than running it.
        unsafe {
            command.pre_exec(move || {
                libc::setrlimit(libc::RLIMIT_NOFILE, &original);
                Ok(())
            });
        }
    }
    #[cfg(not(unix))]
    let _ = command;
}

#[cfg(unix)]
fn get() -> Option<libc::rlimit> {
    let mut now = libc::rlimit {
        rlim_cur: 0,
        rlim_max: 0,
    };
    // SAFETY: getrlimit(2) fills the struct it is given.
    (unsafe { libc::getrlimit(libc::RLIMIT_NOFILE, &mut now) } == 0).then_some(now)
}

/// How high the soft limit may go under `hard`.
#[cfg(all(unix, not(target_vendor = "apple")))]
fn ceiling(hard: libc::rlim_t) -> libc::rlim_t {
    hard
}

/// macOS refuses a soft limit past `kern.maxfilesperproc` (an unlimited hard limit is usual), as
/// Go found (its `adjustFileLimit`); without the sysctl, `OPEN_MAX` as setrlimit(2)'s page says.
#[cfg(target_vendor = "apple")]
fn ceiling(hard: libc::rlim_t) -> libc::rlim_t {
    const OPEN_MAX: libc::rlim_t = 10240;
    let mut most: libc::c_int = 0;
    let mut size = std::mem::size_of::<libc::c_int>();
    // SAFETY: a NUL-terminated name, and an int with its size for the kernel to fill.
    let read = unsafe {
        libc::sysctlbyname(
            c"kern.maxfilesperproc".as_ptr(),
            (&mut most as *mut libc::c_int).cast(),
            &mut size,
            std::ptr::null_mut(),
            0,
        )
    };
    let most = match read {
        0 if most > 0 => most as libc::rlim_t,
        _ => OPEN_MAX,
    };
    hard.min(most)
}

#[cfg(all(test, target_os = "linux"))]
mod tests {
    use super::*;

    /// The raise and the child's limit, in a child process of the test binary's own
    /// (`/bin/sh`), so that the test process keeps its limits.
    #[test]
    fn a_child_gets_back_the_soft_limit_kw_started_with() {
        let before = limits().expect("Linux has a limit");
        if before.soft == before.hard {
            // Nothing to raise here: lower the soft limit first, which any process may.
            let lowered = libc::rlimit {
                rlim_cur: (before.hard / 2) as libc::rlim_t,
                rlim_max: before.hard as libc::rlim_t,
            };
            // SAFETY: setrlimit(2) reads the struct it is given.
            assert_eq!(unsafe { libc::setrlimit(libc::RLIMIT_NOFILE, &lowered) }, 0);
        }
        let started = limits().unwrap();
        raise();
        let raised = limits().unwrap();
        assert_eq!(raised.soft, raised.hard, "raised to the hard limit");
        assert!(raised.soft > started.soft);
        let mut command = Command::new("/bin/sh");
        command.arg("-c").arg("ulimit -Sn");
        for_child(&mut command);
        let out = command.output().expect("sh runs");
        assert_eq!(
            String::from_utf8_lossy(&out.stdout).trim(),
            started.soft.to_string(),
            "the child's soft limit is the one kw started with"
        );
    }
}
