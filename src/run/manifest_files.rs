//! Reading the manifests `-f` names, as kubectl visits them: files, stdin (`-`), directories
//! walked in name order (`-R` into subdirectories). The I/O of a run's start, done here so that
//! the plan (`plan::manifest`) only parses what was read.

use std::io::Read;
use std::path::{Path, PathBuf};

use crate::plan::manifest::{self, ManifestError, ManifestObject};

/// The objects every one of `paths` names (`load_from`), file after file, as kubectl visits
/// repeated `-f`s.
pub fn load_all(paths: &[PathBuf], recursive: bool) -> Result<Vec<ManifestObject>, ManifestError> {
    let mut objects = Vec::new();
    for path in paths {
        objects.extend(load_from(path, recursive)?);
    }
    Ok(objects)
}

/// Read `path` (`-` for stdin) and return the objects it names, in order. A directory is read
/// as kubectl reads it: its `.json`, `.yaml` and `.yml` files in name order, and with
/// `recursive` (`-R`) its subdirectories' too, each where its name falls (Go's
/// `filepath.Walk`); without it, subdirectories are skipped.
pub fn load_from(path: &Path, recursive: bool) -> Result<Vec<ManifestObject>, ManifestError> {
    if path == Path::new("-") || !path.is_dir() {
        return load(path);
    }
    let mut files = Vec::new();
    manifest_files(path, recursive, &mut files)?;
    if files.is_empty() {
        return Err(ManifestError::NoManifestFiles {
            path: path.to_path_buf(),
        });
    }
    let mut objects = Vec::new();
    for file in files {
        match load(&file) {
            // A file of comments only names nothing; the directory may name the rest.
            Err(ManifestError::Empty { .. }) => {}
            read => objects.extend(read?),
        }
    }
    if objects.is_empty() {
        return Err(ManifestError::Empty {
            path: path.to_path_buf(),
        });
    }
    Ok(objects)
}

/// The manifest files of directory `dir`, in walking order, appended to `files`. A link to a
/// directory is not followed (`filepath.Walk` does not follow it either).
fn manifest_files(
    dir: &Path,
    recursive: bool,
    files: &mut Vec<PathBuf>,
) -> Result<(), ManifestError> {
    let read_error = |source| ManifestError::Read {
        path: dir.to_path_buf(),
        source,
    };
    let mut entries: Vec<std::fs::DirEntry> = std::fs::read_dir(dir)
        .map_err(read_error)?
        .collect::<Result<_, _>>()
        .map_err(read_error)?;
    entries.sort_by_key(|entry| entry.file_name());
    for entry in entries {
        let path = entry.path();
        if entry.file_type().map_err(read_error)?.is_dir() {
            if recursive {
                manifest_files(&path, recursive, files)?;
            }
        } else if path
            .extension()
            .and_then(|e| e.to_str())
            .is_some_and(|e| manifest::MANIFEST_EXTENSIONS.contains(&e))
        {
            files.push(path);
        }
    }
    Ok(())
}

/// Read the file `path` (`-` for stdin) and return the objects it names, in order.
pub fn load(path: &Path) -> Result<Vec<ManifestObject>, ManifestError> {
    let read_error = |source| ManifestError::Read {
        path: path.to_path_buf(),
        source,
    };
    let text = if path == Path::new("-") {
        let mut text = String::new();
        std::io::stdin()
            .read_to_string(&mut text)
            .map_err(read_error)?;
        text
    } else {
        std::fs::read_to_string(path).map_err(read_error)?
    };
    manifest::parse(path, &text)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_file_that_cannot_be_read_is_named() {
        let err = load(Path::new("/nonexistent/m.yaml"))
            .unwrap_err()
            .to_string();
        assert!(err.starts_with("-f /nonexistent/m.yaml: "), "{err}");
    }

    /// kubectl's walk: manifests only, in name order, subdirectories with `-R` where their
    /// name falls, a comment-only file naming nothing.
    #[test]
    fn a_directory_is_read_as_kubectl_reads_it() {
        let dir = tempfile::tempdir().unwrap();
        let write = |name: &str, text: &str| {
            let path = dir.path().join(name);
            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
            std::fs::write(path, text).unwrap();
        };
        let deployment = |name: &str| {
            format!("{{\"apiVersion\":\"apps/v1\",\"kind\":\"Deployment\",\"metadata\":{{\"name\":\"{name}\"}}}}")
        };
        write("web.yaml", &deployment("web"));
        write("agent.json", &deployment("agent"));
        write("notes.txt", &deployment("not-read"));
        write("empty.yml", "# nothing yet\n");
        write("middle/api.yml", &deployment("api"));
        write("middle/deeper/db.yaml", &deployment("db"));
        let loaded = |recursive| -> Vec<String> {
            load_from(dir.path(), recursive)
                .unwrap()
                .into_iter()
                .map(|o| o.name)
                .collect()
        };
        assert_eq!(loaded(false), ["agent", "web"]);
        assert_eq!(loaded(true), ["agent", "api", "db", "web"]);
        let empty = tempfile::tempdir().unwrap();
        assert_eq!(
            load_from(empty.path(), true).unwrap_err().to_string(),
            format!(
                "error reading [{}]: recognized file extensions are [.json .yaml .yml]",
                empty.path().display()
            )
        );
    }
}
