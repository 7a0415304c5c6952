//! The directory on systems without `openat` (Windows): the path itself, created if asked;
//! a user's profile directory, where kubectl and kw keep their caches, is private to the user
//! by its ACL. Files are written to a temporary name and renamed into place, so a reader never
//! sees half a file.

use std::fs::{self, File};
use std::io::{self, Read, Write};
use std::path::{Path, PathBuf};

use super::error::DirError;

#[derive(Debug)]
pub struct PrivateDir {
    path: PathBuf,
}

impl PrivateDir {
    pub fn open(path: &Path, create: bool) -> Result<PrivateDir, DirError> {
        match fs::metadata(path) {
            Ok(meta) if meta.is_dir() => {}
            Ok(_) => {
                return Err(DirError::Untrusted {
                    why: "it is not a directory".into(),
                })
            }
            Err(error) if error.kind() == io::ErrorKind::NotFound && create => {
                fs::create_dir_all(path)?;
            }
            Err(error) if error.kind() == io::ErrorKind::NotFound => return Err(DirError::Missing),
            Err(error) => return Err(DirError::Io(error)),
        }
        Ok(PrivateDir {
            path: path.to_path_buf(),
        })
    }

    pub fn read(&self, name: &str, limit: u64) -> io::Result<Vec<u8>> {
        let file = File::open(self.path.join(name))?;
        if !file.metadata()?.is_file() {
            return Err(io::Error::other("not a regular file"));
        }
        let mut bytes = Vec::new();
        file.take(limit + 1).read_to_end(&mut bytes)?;
        if bytes.len() as u64 > limit {
            return Err(io::Error::other("too large"));
        }
        Ok(bytes)
    }

    pub fn write(&self, name: &str, bytes: &[u8]) -> io::Result<()> {
        let temp = self
            .path
            .join(format!(".{name}.{}.tmp", std::process::id()));
        let written = File::create_new(&temp)
            .and_then(|mut file| file.write_all(bytes).and_then(|()| file.sync_all()))
            .and_then(|()| fs::rename(&temp, self.path.join(name)));
        if written.is_err() {
            let _ = fs::remove_file(&temp);
        }
        written
    }
}
