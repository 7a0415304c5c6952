//! `kw __complete -- WORD...`: what the shell scripts of `kw completion` run on TAB. The words are
//! the command line after `kw` up to the cursor, the last one the word being completed (empty
//! after a space). kw prints one candidate per line, each optionally followed by a TAB and a
//! description, or the single line `:files` when the shell should complete file names. Nothing
//! else is ever printed, on stdout or stderr, and the exit status is 0: whatever goes wrong
//! (no kubeconfig, a dead cluster, a refused token) the answer is just "no candidates".
//!
//! A word is printed as it is, unquoted: the scripts quote it for their shell. Words from the
//! kubeconfig or the cluster that no quoting makes safe are never printed (`candidate`).
//!
//! The cluster gets `BUDGET` in all: asked from a thread of its own, and whatever it has not
//! answered by then is given up (the process exits, taking the thread with it), so a cluster
//! that does not answer at all costs the user two seconds, once per TAB, and a refused
//! connection costs nothing noticeable.

use std::io::{self, Write};
use std::sync::mpsc;
use std::time::Duration;

use super::answers::{self, Reach};
use super::candidate::{self, Candidate};
use super::handed;
use super::question::{self, Need};
use super::vocabulary::{self, Vocabulary};
use super::words;

/// The hidden subcommand the scripts run. main.rs hands it its words before clap sees them.
pub const SUBCOMMAND: &str = "__complete";

/// How long completion waits for the cluster, in all.
pub const BUDGET: Duration = Duration::from_secs(2);
/// How much longer it waits for the cluster's thread to end after the budget, while the client
/// stops what is still running (an exec plugin it must not leave behind).
const WIND_DOWN: Duration = Duration::from_millis(500);

/// What completion answers.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Answer {
    Candidates(Vec<Candidate>),
    /// Let the shell complete file names.
    Files,
}

/// The answer for `words` (the words after `kw`, the last under the cursor).
pub fn answer(words: &[String]) -> Answer {
    let vocabulary = Vocabulary::of_kw();
    let line = words::parse(words, &vocabulary.book());
    let first_argument = line.arguments.first().map(String::as_str);
    if let Some(handed) = handed::answer(line.subcommand.as_deref(), first_argument, words, BUDGET)
    {
        return match handed {
            handed::Handed::Files => Answer::Files,
            handed::Handed::Candidates(found) => Answer::Candidates(found),
        };
    }
    let question = question::ask(&line, &vocabulary);
    let answers = match &question.need {
        Need::Nothing => Vec::new(),
        Need::Fixed(candidates) => candidates.clone(),
        Need::Files => return Answer::Files,
        Need::Contexts | Need::Clusters | Need::Users => from_outside(answers::from_kubeconfig(
            &question.need,
            &Reach::of(&line, BUDGET),
        )),
        Need::Namespaces | Need::Types | Need::Names { .. } => {
            from_outside(ask_server(&question.need, &question.typed, &line).unwrap_or_default())
        }
        Need::ConditionTypes => ask_server(&question.need, &question.typed, &line)
            .map(from_outside)
            .filter(|found| !found.is_empty())
            .unwrap_or_else(|| {
                vocabulary::COMMON_CONDITION_TYPES
                    .into_iter()
                    .map(Candidate::new)
                    .collect()
            }),
    };
    Answer::Candidates(question.finish(answers))
}

/// Answers from the kubeconfig or the cluster, without those no shell can be trusted with.
fn from_outside(answers: Vec<Candidate>) -> Vec<Candidate> {
    answers
        .into_iter()
        .filter(|c| candidate::fit_for_a_command_line(&c.word))
        .collect()
}

/// The cluster's answer, or `None` if it has none within `BUDGET`.
fn ask_server(need: &Need, typed: &str, line: &words::Line) -> Option<Vec<Candidate>> {
    let (need, typed, line) = (need.clone(), typed.to_string(), line.clone());
    let (done, answer) = mpsc::channel();
    // Left running if it overruns: `kw __complete` exits right after answering.
    std::thread::spawn(move || {
        let reach = Reach::of(&line, BUDGET);
        let _ = done.send(answers::from_server(&need, &typed, &line, &reach));
    });
    answer.recv_timeout(BUDGET + WIND_DOWN).ok().flatten()
}

/// Print `answer` in the protocol the scripts read.
pub fn print(answer: &Answer, out: &mut impl Write) -> io::Result<()> {
    match answer {
        Answer::Files => writeln!(out, ":files")?,
        Answer::Candidates(candidates) => {
            for candidate in candidates {
                writeln!(out, "{}", candidate.to_line())?;
            }
        }
    }
    out.flush()
}
