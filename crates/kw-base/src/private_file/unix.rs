//! The directory handle on Unix: opened component by component without following links
//! blindly, with every check of `super` done on open handles.

use std::ffi::{CString, OsStr, OsString};
use std::fs::File;
use std::io::{self, Read, Write};
use std::os::unix::ffi::OsStrExt;
use std::os::unix::io::{AsRawFd, FromRawFd};
use std::path::{Component, Path, PathBuf};

use super::error::DirError;

/// Links followed while opening one directory, as the kernel's own limit (`MAXSYMLINKS`).
const MAX_LINKS: usize = 40;

/// An open directory that only its owner (the user running kw) may change.
#[derive(Debug)]
pub struct PrivateDir {
    handle: File,
}

impl PrivateDir {
    /// Open `path`, checking every directory on the way and the directory itself; `create`: make
    /// what is missing, mode 0700.
    pub fn open(path: &Path, create: bool) -> Result<PrivateDir, DirError> {
        let handle = walk(path, create)?;
        let stat = fstat(&handle)?;
        let me = euid();
        if stat.st_uid != me {
            return Err(DirError::Untrusted {
                why: format!("it belongs to user id {}, not to you", stat.st_uid),
            });
        }
        if stat.st_mode & 0o022 != 0 {
            return Err(DirError::Untrusted {
                why: format!(
                    "its group or other users may write to it (mode {:o}; chmod 700 fixes that)",
                    stat.st_mode & 0o777
                ),
            });
        }
        Ok(PrivateDir { handle })
    }

    /// The regular file `name` in this directory, if it is at most `limit` bytes (a link there
    /// is not followed).
    pub fn read(&self, name: &str, limit: u64) -> io::Result<Vec<u8>> {
        let file = openat(
            &self.handle,
            OsStr::new(name),
            libc::O_RDONLY | libc::O_NOFOLLOW | libc::O_NONBLOCK,
            0,
        )?;
        let stat = fstat(&file)?;
        if stat.st_mode & libc::S_IFMT != libc::S_IFREG {
            return Err(io::Error::other("not a regular file"));
        }
        let mut bytes = Vec::new();
        file.take(limit + 1).read_to_end(&mut bytes)?;
        if bytes.len() as u64 > limit {
            return Err(io::Error::other("too large"));
        }
        Ok(bytes)
    }

    /// Write `bytes` to `name` in this directory, readable by the owner only.
    pub fn write(&self, name: &str, bytes: &[u8]) -> io::Result<()> {
        let temp = (0..16)
            .map(|attempt| format!(".{name}.{}.{attempt}.tmp", random_suffix()))
            .find_map(|candidate| {
                openat(
                    &self.handle,
                    OsStr::new(&candidate),
                    libc::O_WRONLY | libc::O_CREAT | libc::O_EXCL | libc::O_NOFOLLOW,
                    0o600,
                )
                .ok()
                .map(|file| (candidate, file))
            });
        let Some((temp_name, mut file)) = temp else {
            return Err(io::Error::other(
                "could not create a private temporary file",
            ));
        };
        let written = file
            .write_all(bytes)
            .and_then(|()| file.sync_all())
            .and_then(|()| self.rename(&temp_name, name));
        if written.is_err() {
            let _ = self.unlink(&temp_name);
        }
        written
    }

    fn rename(&self, from: &str, to: &str) -> io::Result<()> {
        let (from, to) = (c_name(OsStr::new(from))?, c_name(OsStr::new(to))?);
        let fd = self.handle.as_raw_fd();
        // SAFETY: both names are NUL-terminated and outlive the call; fd is open.
        check(unsafe { libc::renameat(fd, from.as_ptr(), fd, to.as_ptr()) })
    }

    fn unlink(&self, name: &str) -> io::Result<()> {
        let name = c_name(OsStr::new(name))?;
        // SAFETY: the name is NUL-terminated and outlives the call; the fd is open.
        check(unsafe { libc::unlinkat(self.handle.as_raw_fd(), name.as_ptr(), 0) })
    }
}

/// Resolve `path` component by component from `/`, each step relative to the directory opened
/// before it, checking each directory before trusting what it names.
fn walk(path: &Path, create: bool) -> Result<File, DirError> {
    let path = if path.is_absolute() {
        path.to_path_buf()
    } else {
        std::env::current_dir()?.join(path)
    };
    let root = || -> io::Result<(File, PathBuf)> {
        let root = CString::new("/").expect("no NUL");
        // SAFETY: the path is NUL-terminated and outlives the call.
        let fd = unsafe {
            libc::open(
                root.as_ptr(),
                libc::O_RDONLY | libc::O_DIRECTORY | libc::O_CLOEXEC,
            )
        };
        // SAFETY: a new descriptor that nothing else owns.
        check_fd(fd).map(|fd| (unsafe { File::from_raw_fd(fd) }, PathBuf::from("/")))
    };
    let mut pending: Vec<OsString> = Vec::new();
    push_components(&mut pending, &path);
    let mut opened: Vec<(File, PathBuf)> = vec![root()?];
    let mut links = 0;
    while let Some(name) = pending.pop() {
        if name == ".." {
            if opened.len() > 1 {
                opened.pop();
            }
            continue;
        }
        let (parent, shown) = opened.last().expect("the root is never popped");
        if let Some(why) = may_be_changed_by_others(&fstat(parent)?) {
            return Err(DirError::UntrustedParent {
                dir: shown.clone(),
                why,
            });
        }
        let shown = shown.join(&name);
        let flags = libc::O_RDONLY | libc::O_DIRECTORY | libc::O_NOFOLLOW;
        match openat(parent, &name, flags, 0) {
            Ok(dir) => opened.push((dir, shown)),
            Err(error) if error.raw_os_error() == Some(libc::ENOENT) => {
                if !create {
                    return Err(DirError::Missing);
                }
                mkdirat(parent, &name)?;
                let dir = openat(parent, &name, flags, 0)?;
                opened.push((dir, shown));
            }
            Err(error) => {
                let target = match readlinkat(parent, &name) {
                    Ok(target) => target,
                    Err(_) => return Err(error.into()),
                };
                let owner = lstatat(parent, &name)?.st_uid;
                if owner != 0 && owner != euid() {
                    return Err(DirError::UntrustedParent {
                        dir: shown,
                        why: format!("a symbolic link made by user id {owner}"),
                    });
                }
                links += 1;
                if links > MAX_LINKS {
                    return Err(io::Error::from_raw_os_error(libc::ELOOP).into());
                }
                if target.is_absolute() {
                    opened.truncate(0);
                    opened.push(root()?);
                }
                push_components(&mut pending, &target);
            }
        }
    }
    Ok(opened.pop().expect("the root at least").0)
}

/// Queue `path`'s names to be walked next (`pending` is a stack: the first name last).
fn push_components(pending: &mut Vec<OsString>, path: &Path) {
    let names: Vec<OsString> = path
        .components()
        .filter_map(|component| match component {
            Component::Normal(name) => Some(name.to_os_string()),
            Component::ParentDir => Some(OsString::from("..")),
            _ => None,
        })
        .collect();
    pending.extend(names.into_iter().rev());
}

/// Why a directory on the way is not safe to pass through: someone other than root and the user
/// could rename or replace what it holds. A sticky directory (`/tmp`) owned by root or the user
/// lets others add entries but not replace the user's own. A group that is the user's private
/// group (user-private groups, where `umask 002` leaves `~/.cache` group-writable) is the user
/// alone, as Debian's ssh accepts it.
fn may_be_changed_by_others(stat: &libc::stat) -> Option<String> {
    let owner = stat.st_uid;
    if owner != 0 && owner != euid() {
        return Some(format!("it belongs to user id {owner}"));
    }
    let writable_by_group = stat.st_mode & 0o020 != 0 && !is_private_group(stat.st_gid);
    let writable_by_others = writable_by_group || stat.st_mode & 0o002 != 0;
    let sticky = stat.st_mode & libc::S_ISVTX != 0;
    (writable_by_others && !sticky).then(|| {
        format!(
            "its group or other users may write to it (mode {:o})",
            stat.st_mode & 0o7777
        )
    })
}

/// Whether `gid` is the user's private group: the user's primary group, named as the user, with
/// no other member listed. Anything that cannot be read says no.
fn is_private_group(gid: libc::gid_t) -> bool {
    const BUFFER: usize = 16 * 1024;
    let mut buffer = vec![0 as libc::c_char; BUFFER];
    // SAFETY: all-zero is a valid passwd (null pointers, zero ids) to be filled in.
    let mut user: libc::passwd = unsafe { std::mem::zeroed() };
    let mut found: *mut libc::passwd = std::ptr::null_mut();
    // SAFETY: the buffer is as long as said and outlives every use of `user`'s pointers.
    let read =
        unsafe { libc::getpwuid_r(euid(), &mut user, buffer.as_mut_ptr(), BUFFER, &mut found) };
    if read != 0 || found.is_null() || user.pw_gid != gid || user.pw_name.is_null() {
        return false;
    }
    // SAFETY: a NUL-terminated string in `buffer`, set by getpwuid_r.
    let user_name = unsafe { std::ffi::CStr::from_ptr(user.pw_name) }.to_owned();
    let mut group_buffer = vec![0 as libc::c_char; BUFFER];
    // SAFETY: as above, for a group.
    let mut group: libc::group = unsafe { std::mem::zeroed() };
    let mut found: *mut libc::group = std::ptr::null_mut();
    // SAFETY: the buffer is as long as said and outlives every use of `group`'s pointers.
    let read = unsafe {
        libc::getgrgid_r(
            gid,
            &mut group,
            group_buffer.as_mut_ptr(),
            BUFFER,
            &mut found,
        )
    };
    if read != 0 || found.is_null() || group.gr_name.is_null() {
        return false;
    }
    // SAFETY: a NUL-terminated string in `group_buffer`, set by getgrgid_r.
    if unsafe { std::ffi::CStr::from_ptr(group.gr_name) } != user_name.as_c_str() {
        return false;
    }
    let mut member = group.gr_mem;
    while !member.is_null() {
        // SAFETY: gr_mem is a null-terminated array of NUL-terminated strings in the buffer.
        let name = unsafe { *member };
        if name.is_null() {
            return true;
        }
        // SAFETY: as above.
        if unsafe { std::ffi::CStr::from_ptr(name) } != user_name.as_c_str() {
            return false;
        }
        // SAFETY: within the array, which ends with the null checked above.
        member = unsafe { member.add(1) };
    }
    true
}

fn euid() -> libc::uid_t {
    // SAFETY: geteuid has no preconditions and cannot fail.
    unsafe { libc::geteuid() }
}

fn c_name(name: &OsStr) -> io::Result<CString> {
    CString::new(name.as_bytes()).map_err(|_| io::Error::from_raw_os_error(libc::EINVAL))
}

fn check(result: libc::c_int) -> io::Result<()> {
    if result < 0 {
        Err(io::Error::last_os_error())
    } else {
        Ok(())
    }
}

fn check_fd(fd: libc::c_int) -> io::Result<libc::c_int> {
    if fd < 0 {
        Err(io::Error::last_os_error())
    } else {
        Ok(fd)
    }
}

fn openat(dir: &File, name: &OsStr, flags: libc::c_int, mode: libc::mode_t) -> io::Result<File> {
    let name = c_name(name)?;
    // SAFETY: the name is NUL-terminated and outlives the call; the fd is open.
    let fd = unsafe {
        libc::openat(
            dir.as_raw_fd(),
            name.as_ptr(),
            flags | libc::O_CLOEXEC,
            libc::c_uint::from(mode),
        )
    };
    // SAFETY: a new descriptor that nothing else owns.
    check_fd(fd).map(|fd| unsafe { File::from_raw_fd(fd) })
}

fn mkdirat(dir: &File, name: &OsStr) -> io::Result<()> {
    let name = c_name(name)?;
    // SAFETY: the name is NUL-terminated and outlives the call; the fd is open.
    match check(unsafe { libc::mkdirat(dir.as_raw_fd(), name.as_ptr(), 0o700) }) {
        Err(error) if error.raw_os_error() == Some(libc::EEXIST) => Ok(()),
        other => other,
    }
}

fn readlinkat(dir: &File, name: &OsStr) -> io::Result<PathBuf> {
    let name = c_name(name)?;
    let mut buffer = vec![0u8; libc::PATH_MAX as usize];
    // SAFETY: the buffer is as long as said; the name is NUL-terminated; the fd is open.
    let length = unsafe {
        libc::readlinkat(
            dir.as_raw_fd(),
            name.as_ptr(),
            buffer.as_mut_ptr().cast(),
            buffer.len(),
        )
    };
    if length < 0 {
        return Err(io::Error::last_os_error());
    }
    buffer.truncate(length as usize);
    Ok(PathBuf::from(
        <OsString as std::os::unix::ffi::OsStringExt>::from_vec(buffer),
    ))
}

fn fstat(file: &File) -> io::Result<libc::stat> {
    let mut stat = std::mem::MaybeUninit::<libc::stat>::uninit();
    // SAFETY: fstat fills the buffer when it returns 0.
    check(unsafe { libc::fstat(file.as_raw_fd(), stat.as_mut_ptr()) })?;
    // SAFETY: initialised by the successful call.
    Ok(unsafe { stat.assume_init() })
}

fn lstatat(dir: &File, name: &OsStr) -> io::Result<libc::stat> {
    let name = c_name(name)?;
    let mut stat = std::mem::MaybeUninit::<libc::stat>::uninit();
    // SAFETY: fstatat fills the buffer when it returns 0; the name is NUL-terminated.
    check(unsafe {
        libc::fstatat(
            dir.as_raw_fd(),
            name.as_ptr(),
            stat.as_mut_ptr(),
            libc::AT_SYMLINK_NOFOLLOW,
        )
    })?;
    // SAFETY: initialised by the successful call.
    Ok(unsafe { stat.assume_init() })
}

/// Not a secret, only hard to guess ahead: the clock's nanoseconds and the process id.
fn random_suffix() -> String {
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.subsec_nanos())
        .unwrap_or_default();
    format!("{}{nanos:09}", std::process::id())
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::fs;
    use std::os::unix::fs::{symlink, PermissionsExt};

    fn mode(path: &Path) -> u32 {
        fs::symlink_metadata(path).unwrap().permissions().mode() & 0o7777
    }

    fn private_base() -> tempfile::TempDir {
        let base = tempfile::tempdir().unwrap();
        fs::set_permissions(base.path(), fs::Permissions::from_mode(0o700)).unwrap();
        base
    }

    #[test]
    fn files_are_private_and_replace_a_planted_symlink() {
        let base = private_base();
        let elsewhere = base.path().join("elsewhere");
        fs::write(&elsewhere, "theirs").unwrap();
        symlink(&elsewhere, base.path().join("config")).unwrap();

        let dir = PrivateDir::open(base.path(), false).unwrap();
        assert!(dir.read("config", 100).is_err(), "a link is not read");
        dir.write("config", b"secret").unwrap();

        assert_eq!(fs::read_to_string(&elsewhere).unwrap(), "theirs");
        let target = base.path().join("config");
        assert!(fs::symlink_metadata(&target).unwrap().file_type().is_file());
        assert_eq!(mode(&target), 0o600);
        assert_eq!(dir.read("config", 100).unwrap(), b"secret");
        assert!(dir.read("config", 5).is_err(), "over the limit");
        let leftovers: Vec<_> = fs::read_dir(base.path()).unwrap().collect();
        assert_eq!(leftovers.len(), 2, "no temporary file left behind");
    }

    #[test]
    fn missing_directories_are_made_private_only_when_asked() {
        let base = private_base();
        let path = base.path().join("a/b/c");
        assert!(matches!(
            PrivateDir::open(&path, false),
            Err(DirError::Missing)
        ));
        PrivateDir::open(&path, true).unwrap();
        assert_eq!(mode(&path), 0o700);
        assert_eq!(mode(&base.path().join("a")), 0o700);
    }

    #[test]
    fn a_directory_on_the_way_that_others_may_write_is_refused_unless_sticky() {
        let base = private_base();
        let open = base.path().join("open");
        fs::create_dir(&open).unwrap();
        fs::set_permissions(&open, fs::Permissions::from_mode(0o777)).unwrap();
        let path = open.join("kw");
        match PrivateDir::open(&path, true) {
            Err(DirError::UntrustedParent { dir, why }) => {
                assert_eq!(dir, open);
                assert!(why.contains("mode 777"), "{why}");
            }
            other => panic!("{other:?}"),
        }
        assert!(!path.exists(), "nothing made there");
        fs::set_permissions(&open, fs::Permissions::from_mode(0o1777)).unwrap();
        PrivateDir::open(&path, true).expect("sticky, as /tmp");
    }

    #[test]
    fn a_group_writable_directory_on_the_way_passes_only_for_a_private_group() {
        use std::os::unix::fs::MetadataExt;
        let base = private_base();
        let shared = base.path().join("shared");
        fs::create_dir(&shared).unwrap();
        fs::set_permissions(&shared, fs::Permissions::from_mode(0o770)).unwrap();
        let gid = fs::metadata(&shared).unwrap().gid();
        let opened = PrivateDir::open(&shared.join("kw"), true);
        assert_eq!(opened.is_ok(), is_private_group(gid), "{opened:?}");
        // As root, a group of others (nogroup) can be given to it: never private.
        if euid() == 0 {
            // SAFETY: a NUL-terminated path; lchown has no other preconditions.
            let path = CString::new(shared.as_os_str().as_bytes()).unwrap();
            assert_eq!(unsafe { libc::lchown(path.as_ptr(), 0, 65534) }, 0);
            assert!(!is_private_group(65534));
            assert!(matches!(
                PrivateDir::open(&shared.join("kw"), false),
                Err(DirError::UntrustedParent { .. })
            ));
        }
    }

    #[test]
    fn the_directory_itself_must_be_writable_by_its_owner_only() {
        let base = private_base();
        fs::set_permissions(base.path(), fs::Permissions::from_mode(0o770)).unwrap();
        assert!(matches!(
            PrivateDir::open(base.path(), false),
            Err(DirError::Untrusted { .. })
        ));
    }

    #[test]
    fn the_users_own_links_are_followed() {
        let base = private_base();
        let real = base.path().join("real");
        fs::create_dir(&real).unwrap();
        fs::set_permissions(&real, fs::Permissions::from_mode(0o700)).unwrap();
        symlink("real", base.path().join("link")).unwrap();
        symlink("../link", real.join("up")).unwrap();
        let dir = PrivateDir::open(&base.path().join("link/up/./"), false).unwrap();
        dir.write("f", b"x").unwrap();
        assert_eq!(fs::read(real.join("f")).unwrap(), b"x");
        symlink("loop", base.path().join("loop")).unwrap();
        assert!(matches!(
            PrivateDir::open(&base.path().join("loop"), false),
            Err(DirError::Io(_))
        ));
    }
}
