//! The completion scripts and man pages committed under `completions/` must be what kw generates
//! now: this test fails when a flag changed and they were not regenerated. To regenerate:
//! `KW_BLESS=1 cargo test --test completions`.

use std::path::{Path, PathBuf};

fn dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("completions")
}

fn generated() -> Vec<(PathBuf, Vec<u8>)> {
    let mut files: Vec<(PathBuf, Vec<u8>)> = kw::completion::SHELLS
        .iter()
        .map(|shell| {
            (
                dir().join(kw::completion::script_file(*shell)),
                kw::completion::script(*shell),
            )
        })
        .collect();
    let pages = kw::completion::man_pages().expect("man pages render");
    files.extend(
        pages
            .into_iter()
            .map(|(name, roff)| (dir().join("man").join(name), roff)),
    );
    files
}

#[test]
fn committed_completions_and_man_pages_are_current() {
    let bless = std::env::var_os("KW_BLESS").is_some();
    let mut stale = Vec::new();
    for (path, content) in generated() {
        if bless {
            std::fs::create_dir_all(path.parent().expect("has a parent")).expect("mkdir");
            std::fs::write(&path, &content).expect("write");
            continue;
        }
        match std::fs::read(&path) {
            Ok(committed) if committed == content => {}
            _ => stale.push(path.display().to_string()),
        }
    }
    assert!(
        stale.is_empty(),
        "stale or missing (regenerate with `KW_BLESS=1 cargo test --test completions`): {stale:#?}"
    );
}

#[test]
fn kw_completion_prints_the_committed_script() {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_kw"))
        .args(["completion", "bash"])
        .output()
        .expect("kw runs");
    assert!(out.status.success());
    assert_eq!(
        out.stdout,
        kw::completion::script(clap_complete::Shell::Bash)
    );
}
