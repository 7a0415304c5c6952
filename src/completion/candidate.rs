//! One completion candidate: the word a shell may insert, and a short description that zsh and
//! fish show beside it (bash shows none).

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
    /// description held.
    pub fn to_line(&self) -> String {
        let word = one_line(&self.word);
        if self.description.is_empty() {
            return word;
        }
        format!("{word}\t{}", one_line(&self.description))
    }
}

fn one_line(text: &str) -> String {
    text.chars()
        .map(|c| if c.is_control() { ' ' } else { c })
        .collect()
}
