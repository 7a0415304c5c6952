//! One completion candidate: the word a shell may insert, and a short description that zsh and
//! fish show beside it (bash shows none).
//!
//! Candidates from the cluster or the kubeconfig are chosen by whoever can create an object or
//! write a context, and a shell inserts them into a command line the user then runs. So this
//! module also says which words can travel at all (`fit_for_a_command_line`): a word that no
//! quoting makes safe to show and insert (a control byte, an invisible or bidirectional
//! formatting character) or that a command would read as a flag (a leading `-`) is left out.
//! Quoting the rest is each shell script's job (`scripts/`), as each shell quotes differently;
//! `plain` says which words need no quoting in any shell, for callers that cannot quote
//! (kubectl's plugin completion, `kubectl`).

#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub struct Candidate {
    pub word: String,
    pub description: String,
}

impl Candidate {
    pub fn new(word: impl Into<String>) -> Candidate {
        Candidate {
            word: word.into(),
            description: String::new(),
        }
    }

    pub fn described(word: impl Into<String>, description: impl Into<String>) -> Candidate {
        Candidate {
            word: word.into(),
            description: description.into(),
        }
    }

    /// The line kw prints for it: `WORD` or `WORD<TAB>DESCRIPTION`, on one line whatever the
    /// description held. Words that are not `fit_for_a_command_line` never get here.
    pub fn to_line(&self) -> String {
        if self.description.is_empty() {
            return self.word.clone();
        }
        format!("{}\t{}", self.word, one_line(&self.description))
    }
}

/// Whether `word`, from outside kw, may be offered at all: it is not empty, does not start
/// with `-` (after `kw get pods` a name `--server=evil.example` would be a flag sending the
/// user's token elsewhere), and holds no character that could not be shown or carried on
/// one line: no control character (C0, DEL, C1: a newline would split it, an ESC would drive
/// the terminal), none that is invisible or reorders text (a name that looks like another).
pub fn fit_for_a_command_line(word: &str) -> bool {
    !word.is_empty() && !word.starts_with('-') && !word.chars().any(is_hidden)
}

/// Whether `word` means itself in every shell, unquoted and through one more round of
/// expansion (Cobra's bash script runs candidates through `compgen -W`, which expands them):
/// only ASCII letters, digits and `.` `_` `-` `/` `:` `,` `=` `@` `+` `%`, which covers every
/// name Kubernetes validates as a DNS name or label, and RBAC's `system:...` names.
pub fn plain(word: &str) -> bool {
    !word.is_empty()
        && word
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b".-_/:,=@+%".contains(&b))
}

/// A character that must not reach a command line or a completion menu.
fn is_hidden(c: char) -> bool {
    c.is_control()
        || matches!(c,
            // Zero-width spaces and joiners, marks that set direction, the bidirectional
            // embeddings, overrides and isolates, the word joiner and invisible operators, and
            // the byte-order mark.
            '\u{200B}'..='\u{200F}'
                | '\u{202A}'..='\u{202E}'
                | '\u{2060}'..='\u{2069}'
                | '\u{FEFF}'
                | '\u{00AD}'
                | '\u{061C}'
        )
}

/// A description on one line, with nothing that drives the terminal or hides text.
fn one_line(text: &str) -> String {
    text.chars()
        .map(|c| if is_hidden(c) { ' ' } else { c })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hostile_words_are_left_out() {
        for word in [
            "",
            "--server=evil.example",
            "-n",
            "web\nrm -rf ~",
            "web\tx",
            "web\u{1b}]52;c;aGk=\u{7}",
            "web\u{9b}31m",
            "admin\u{202E}nimda",
            "we\u{200B}b",
            "web\u{7f}",
        ] {
            assert!(!fit_for_a_command_line(word), "{word:?}");
        }
        for word in [
            "web",
            "web$(touch${IFS}x)",
            "a b",
            "it's",
            "*",
            "system:controller:x",
            "ünïcode",
        ] {
            assert!(fit_for_a_command_line(word), "{word:?}");
        }
    }

    #[test]
    fn plain_words_need_no_quoting_anywhere() {
        for word in [
            "web-1",
            "pods,deployments",
            "deploy/web",
            "--context=sim",
            "system:auth-delegator",
            "a@b+c%d_e.f",
        ] {
            assert!(plain(word), "{word:?}");
        }
        for word in [
            "",
            "web$(x)",
            "a`b`",
            "a b",
            "it's",
            "a\"b",
            "*",
            "a?",
            "[a]",
            "{a,b}",
            "~root",
            "#x",
            "a!b",
            "a;b",
            "a&b",
            "a|b",
            "a<b",
            "a\\b",
            "ünïcode",
            "^x",
        ] {
            assert!(!plain(word), "{word:?}");
        }
    }

    #[test]
    fn descriptions_stay_on_one_line_and_drive_no_terminal() {
        let c = Candidate::described("web", "a\nb\u{1b}[31m\u{9b}c\u{202E}d");
        assert_eq!(c.to_line(), "web\ta b [31m c d");
        assert_eq!(Candidate::new("web").to_line(), "web");
    }
}
