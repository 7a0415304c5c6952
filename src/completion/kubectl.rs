//! `kubectl kw <TAB>`: kubectl (1.26 and later) completes a plugin's arguments by running an
//! executable named `kubectl_complete-kw` on PATH with the words after `kw`, the last one the
//! word being completed, and reading Cobra's `__complete` answer: one candidate a line, each
//! optionally followed by a TAB and a description, then a last line `:DIRECTIVE`. kw's binary
//! linked under that name answers from the same engine as `kw __complete` (`serve`).
//!
//! kubectl's own shell script inserts the candidates, and what it quotes depends on the Cobra
//! release kubectl was built with: before Cobra 1.10 bash inserts them raw, or expands them
//! once more through `compgen -W` (which runs a `$(...)` during the TAB itself); from 1.10 on
//! it quotes them with `printf %q`. No one answer is right for both, so only `plain` words are
//! offered here: they mean the same quoted or not, expanded or not. Every name Kubernetes
//! checks as a DNS name or label is plain; others are left out.

use std::ffi::OsStr;
use std::io::{self, Write};
use std::path::Path;
use std::process::ExitCode;

use super::candidate;
use super::serve::{self, Answer};

/// The name kubectl looks for on PATH.
pub const PROGRAM: &str = "kubectl_complete-kw";

/// Cobra's ShellCompDirective bits (spf13/cobra `completions.go`).
const NO_SPACE: u32 = 2;
const NO_FILE_COMP: u32 = 4;
/// No bit set: the shell's default, file names.
const DEFAULT: u32 = 0;

/// Whether the program was started as `kubectl_complete-kw` (its `argv[0]`, any directory).
pub fn invoked_as_plugin_completion(argv0: &OsStr) -> bool {
    let name = Path::new(argv0).file_name().unwrap_or_default();
    name == PROGRAM || name == OsStr::new(&format!("{PROGRAM}.exe"))
}

/// Answer kubectl for `words` (argv after the program name) on stdout. Like `kw __complete`,
/// nothing else is printed and the exit status is 0 whatever goes wrong.
pub fn run(words: &[String]) -> ExitCode {
    let answer = serve::answer(words);
    // kubectl that stopped reading gets nothing more, and no message either.
    let _ = print(&answer, &mut io::stdout().lock());
    ExitCode::SUCCESS
}

/// Print `answer` in Cobra's `__complete` format.
pub fn print(answer: &Answer, out: &mut impl Write) -> io::Result<()> {
    let directive = match answer {
        Answer::Files => DEFAULT,
        Answer::Candidates(candidates) => {
            let offered: Vec<_> = candidates
                .iter()
                .filter(|c| candidate::plain(&c.word))
                .collect();
            for c in &offered {
                writeln!(out, "{}", c.to_line())?;
            }
            // Cobra's no-space applies to every candidate: set it only when none is a whole
            // word yet (`--until condition=`, `deploy/`); a single one is what bash inserts.
            let unfinished =
                !offered.is_empty() && offered.iter().all(|c| c.word.ends_with(['=', '/', ',']));
            NO_FILE_COMP | if unfinished { NO_SPACE } else { 0 }
        }
    };
    writeln!(out, ":{directive}")?;
    out.flush()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::completion::Candidate;

    fn printed(answer: &Answer) -> String {
        let mut out = Vec::new();
        print(answer, &mut out).expect("written to memory");
        String::from_utf8(out).expect("UTF-8")
    }

    #[test]
    fn answers_in_cobra_format_with_only_plain_words() {
        let answer = Answer::Candidates(vec![
            Candidate::described("web-1", "shop"),
            Candidate::new("web$(touch${IFS}x)"),
            Candidate::new("web `id`"),
            Candidate::new("system:controller:web"),
        ]);
        assert_eq!(printed(&answer), "web-1\tshop\nsystem:controller:web\n:4\n");
    }

    #[test]
    fn unfinished_words_ask_for_no_space_and_files_for_the_default() {
        let answer = Answer::Candidates(vec![Candidate::new("deploy/")]);
        assert_eq!(printed(&answer), "deploy/\n:6\n");
        let mixed =
            Answer::Candidates(vec![Candidate::new("condition="), Candidate::new("create")]);
        assert_eq!(printed(&mixed), "condition=\ncreate\n:4\n");
        assert_eq!(printed(&Answer::Candidates(Vec::new())), ":4\n");
        assert_eq!(printed(&Answer::Files), ":0\n");
    }

    #[test]
    fn recognises_its_name_in_any_directory() {
        assert!(invoked_as_plugin_completion(OsStr::new(
            "kubectl_complete-kw"
        )));
        assert!(invoked_as_plugin_completion(OsStr::new(
            "/usr/local/bin/kubectl_complete-kw"
        )));
        assert!(!invoked_as_plugin_completion(OsStr::new("/usr/bin/kw")));
        assert!(!invoked_as_plugin_completion(OsStr::new("kubectl-kw")));
    }
}
