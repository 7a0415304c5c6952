//! Shell completion and man pages.
//!
//! Completion is served by kw itself: the bash, zsh and fish scripts `kw completion SHELL`
//! prints are a few lines that, on TAB, run `kw __complete` with the words typed so far and
//! show what it prints (`serve`). kw reads the words tolerantly (`words`), decides what the
//! word under the cursor asks for (`question`), and answers from its own flag definitions
//! (`vocabulary`), the kubeconfig, or the cluster and its discovery cache (`answers`). So the
//! scripts never go stale, and completion knows what only the cluster knows: its resource
//! types, objects and namespaces. PowerShell and elvish get clap's static scripts (flags and
//! subcommands only). kw linked as `kubectl_complete-kw` answers `kubectl kw <TAB>` from the
//! same engine, in Cobra's format (`kubectl`). The verbs kw hands to kubectl are completed by
//! kubectl (`handed`).
//!
//! Names from the cluster are chosen by whoever can create an object: `candidate` leaves out
//! those no shell can be trusted with, and each script quotes the rest as its shell needs.
//!
//! The same scripts and the man pages (generated from the clap definitions in `cli`) are
//! committed under `completions/`; `tests/completions.rs` fails when those copies are stale.

pub mod answers;
mod candidate;
mod handed;
pub mod kubectl;
pub mod question;
pub mod serve;
pub mod vocabulary;
pub mod words;

pub use candidate::Candidate;
pub use serve::{answer, Answer};

use clap::CommandFactory;
use clap_complete::Shell;

use crate::cli::Cli;

/// Every shell kw prints completions for.
pub const SHELLS: [Shell; 5] = [
    Shell::Bash,
    Shell::Zsh,
    Shell::Fish,
    Shell::PowerShell,
    Shell::Elvish,
];

/// The completion script for `shell`.
pub fn script(shell: Shell) -> Vec<u8> {
    match shell {
        Shell::Bash => return include_bytes!("scripts/kw.bash").to_vec(),
        Shell::Zsh => return include_bytes!("scripts/_kw").to_vec(),
        Shell::Fish => return include_bytes!("scripts/kw.fish").to_vec(),
        _ => {}
    }
    let mut cmd = Cli::command();
    let mut out = Vec::new();
    clap_complete::generate(shell, &mut cmd, "kw", &mut out);
    out
}

/// The file name under `completions/` of each shell's script (what each shell looks for).
pub fn script_file(shell: Shell) -> String {
    match shell {
        Shell::Bash => "kw.bash".into(),
        Shell::Zsh => "_kw".into(),
        Shell::Fish => "kw.fish".into(),
        Shell::PowerShell => "_kw.ps1".into(),
        Shell::Elvish => "kw.elv".into(),
        other => format!("kw.{other}"),
    }
}

/// The man pages: `kw.1`, then one per subcommand (`kw-get.1`, ...), as (file name, roff).
pub fn man_pages() -> std::io::Result<Vec<(String, Vec<u8>)>> {
    let mut cmd = crate::cli::command(None).disable_help_subcommand(true);
    cmd.build();
    let mut pages = Vec::new();
    render(&cmd, &mut pages)?;
    Ok(pages)
}

fn render(cmd: &clap::Command, pages: &mut Vec<(String, Vec<u8>)>) -> std::io::Result<()> {
    let man = clap_mangen::Man::new(cmd.clone());
    let mut out = Vec::new();
    man.render(&mut out)?;
    pages.push((man.get_filename(), out));
    for sub in cmd.get_subcommands().filter(|s| !s.is_hide_set()) {
        render(sub, pages)?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scripts_ask_kw_or_list_the_wait_flags() {
        for shell in SHELLS {
            let text = String::from_utf8(script(shell)).unwrap_or_default();
            match shell {
                Shell::Bash | Shell::Zsh | Shell::Fish => {
                    assert!(text.contains("__complete --"), "{shell}")
                }
                _ => {
                    assert!(text.contains("until"), "{shell}");
                    assert!(text.contains("fail-on"), "{shell}");
                }
            }
        }
    }

    #[test]
    fn man_pages_cover_each_subcommand() {
        let pages = man_pages().unwrap_or_default();
        let names: Vec<&str> = pages.iter().map(|(n, _)| n.as_str()).collect();
        assert!(names.contains(&"kw.1"), "{names:?}");
        assert!(names.contains(&"kw-get.1"), "{names:?}");
    }
}
