//! Completion of the verbs kw hands to kubectl (`kw describe <TAB>`, `kw rollout undo <TAB>`):
//! kubectl knows their flags and arguments, so kubectl is asked, through Cobra's hidden
//! `__complete` command with the same words, and its candidates are answered as kw's own
//! (those no shell can be trusted with left out, as for every word from outside). kubectl gets
//! the same budget as the cluster: a kubectl that hangs costs the TAB that much, once.

use std::io::Read;
use std::process::{Command, Stdio};
use std::sync::mpsc;
use std::time::Duration;

use super::candidate::{self, Candidate};
use crate::passthrough;
use crate::process_group;

/// Cobra's directive bit that asks for no file names.
const NO_FILE_COMP: u32 = 4;
/// kubectl's answer is a few lines; more than this is not a completion answer.
const MAX_ANSWER: u64 = 1024 * 1024;

/// What kubectl answered: candidates, or (none, and no bit against it) file names.
pub enum Handed {
    Candidates(Vec<Candidate>),
    Files,
}

/// kubectl's answer for `words` (after `kw`, the last under the cursor), when they name a verb
/// kw hands on; `None` for kw's own verbs. No kubectl, a failing or a slow one: no candidates.
pub fn answer(
    subcommand: Option<&str>,
    first_argument: Option<&str>,
    words: &[String],
    budget: Duration,
) -> Option<Handed> {
    let verb = subcommand?;
    if !passthrough::is_handed_on(verb, first_argument) {
        return None;
    }
    let Some(kubectl) = passthrough::kubectl_for_completion() else {
        return Some(Handed::Candidates(Vec::new()));
    };
    let mut command = Command::new(kubectl);
    command
        .arg("__complete")
        .args(words)
        .env(passthrough::HANDED_ON, verb)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::null());
    // No terminal is kubectl's here, so it may lead a group of its own: the exec plugin it
    // starts for the cluster, and that plugin's children, end with it at the budget.
    process_group::own_group(&mut command);
    kw_base::descriptors::for_child(&mut command);
    let mut child = match command.spawn() {
        Ok(child) => child,
        Err(_) => return Some(Handed::Candidates(Vec::new())),
    };
    let group = process_group::Group::track(&child);
    let Some(mut stdout) = child.stdout.take() else {
        group.end(&mut child);
        return None;
    };
    let (sender, receiver) = mpsc::channel();
    std::thread::spawn(move || {
        let mut text = String::new();
        let _ = (&mut stdout).take(MAX_ANSWER).read_to_string(&mut text);
        let _ = sender.send(text);
    });
    let text = receiver.recv_timeout(budget).unwrap_or_default();
    group.end(&mut child);
    let typed = words.last().map_or("", String::as_str);
    Some(parse(&text, typed))
}

/// Cobra's `__complete` output: a candidate a line (a TAB before its description), then
/// `:DIRECTIVE`; its debug lines (`Completion ended with directive`) go to stderr.
fn parse(text: &str, typed: &str) -> Handed {
    let mut candidates = Vec::new();
    let mut directive = None;
    for line in text.lines() {
        if let Some(bits) = line.strip_prefix(':') {
            directive = bits.trim().parse::<u32>().ok();
            continue;
        }
        let (word, description) = line.split_once('\t').unwrap_or((line, ""));
        // kubectl's flag names start with `-`, which no name from outside may (it would be a
        // flag): one is taken only while a flag is being typed, and only in a flag's shape.
        let flag = typed.starts_with('-') && is_flag_name(word);
        if !flag && !candidate::fit_for_a_command_line(word) {
            continue;
        }
        let mut found = Candidate::new(word);
        if candidate::fit_for_a_command_line(description) {
            found.description = description.to_string();
        }
        candidates.push(found);
    }
    match directive {
        Some(bits) if candidates.is_empty() && bits & NO_FILE_COMP == 0 && bits < 8 => {
            Handed::Files
        }
        _ => Handed::Candidates(candidates),
    }
}

/// `-n`, `--kubeconfig`, `--dry-run=`: dashes, then lowercase letters, digits and dashes.
fn is_flag_name(word: &str) -> bool {
    let name = word.trim_start_matches('-').trim_end_matches('=');
    word.starts_with('-')
        && word.len() - name.len() <= 3
        && !name.is_empty()
        && name
            .bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-')
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(handed: Handed) -> Vec<String> {
        match handed {
            Handed::Candidates(found) => found.into_iter().map(|c| c.word).collect(),
            Handed::Files => vec![":files".into()],
        }
    }

    #[test]
    fn cobras_answer_becomes_candidates_without_the_unsafe_ones() {
        // Quoting is the scripts' job (a `$(...)` is offered quoted); what no quoting makes
        // safe (an escape sequence, a leading dash) is left out.
        let text = "deployments\tapps/v1\npods\n$(x)\nbad\u{1b}[2J\n--server=evil\n:4\n";
        assert_eq!(words(parse(text, "")), ["deployments", "pods", "$(x)"]);
        assert_eq!(words(parse(":0\n", "")), [":files"]);
        assert!(words(parse(":4\n", "")).is_empty());
        assert!(words(parse("", "")).is_empty());
    }

    #[test]
    fn flag_names_are_taken_only_while_a_flag_is_typed() {
        let text = "--kubeconfig\tPath to the kubeconfig file\n--server=$(x)\n-n\n:4\n";
        assert_eq!(words(parse(text, "-")), ["--kubeconfig", "-n"]);
        assert!(words(parse(text, "")).is_empty());
    }
}
