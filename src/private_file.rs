//! Files only their owner may read (kubeconfigs, caches), written so that another local user can
//! neither read them nor swap them: created exclusively with mode 0600 under a name nobody can
//! predict, then renamed into place (a rename replaces a symlink planted at the target instead
//! of following it), so a reader never sees half a file either.

use std::fs::{self, OpenOptions};
use std::io::{self, Write};
use std::path::Path;

/// Write `bytes` to `path`, readable by the owner only.
pub fn write(path: &Path, bytes: &[u8]) -> io::Result<()> {
    let dir = match path.parent() {
        Some(dir) if !dir.as_os_str().is_empty() => dir,
        _ => Path::new("."),
    };
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let temp = (0..16)
        .map(|attempt| dir.join(format!(".{name}.{}.{attempt}.tmp", random_suffix())))
        .find_map(|candidate| {
            create_private(&candidate)
                .ok()
                .map(|file| (candidate, file))
        });
    let Some((temp_path, mut file)) = temp else {
        return Err(io::Error::other(format!(
            "could not create a private temporary file in {}",
            dir.display()
        )));
    };
    let written = file
        .write_all(bytes)
        .and_then(|()| file.sync_all())
        .and_then(|()| fs::rename(&temp_path, path));
    if written.is_err() {
        let _ = fs::remove_file(&temp_path);
    }
    written
}

fn create_private(path: &Path) -> io::Result<fs::File> {
    let mut options = OpenOptions::new();
    options.write(true).create_new(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options.mode(0o600);
    }
    options.open(path)
}

/// Not a secret, only hard to guess ahead: the clock's nanoseconds and the process id.
fn random_suffix() -> String {
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.subsec_nanos())
        .unwrap_or_default();
    format!("{}{nanos:09}", std::process::id())
}

#[cfg(all(test, unix))]
mod tests {
    use super::*;
    use std::os::unix::fs::PermissionsExt;

    #[test]
    fn files_are_private_and_replace_a_planted_symlink() {
        let dir = tempfile::tempdir().unwrap();
        let elsewhere = dir.path().join("elsewhere");
        fs::write(&elsewhere, "theirs").unwrap();
        let target = dir.path().join("config");
        std::os::unix::fs::symlink(&elsewhere, &target).unwrap();

        write(&target, b"secret").unwrap();

        assert_eq!(fs::read_to_string(&elsewhere).unwrap(), "theirs");
        let meta = fs::symlink_metadata(&target).unwrap();
        assert!(meta.file_type().is_file(), "the link was replaced");
        assert_eq!(meta.permissions().mode() & 0o777, 0o600);
        assert_eq!(fs::read_to_string(&target).unwrap(), "secret");
        let leftovers: Vec<_> = fs::read_dir(dir.path()).unwrap().collect();
        assert_eq!(leftovers.len(), 2, "no temporary file left behind");
    }
}
