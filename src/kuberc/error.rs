//! Why kw will not run with the kuberc it found, in kubectl 1.37's words: kubectl writes each
//! after "error occurred while applying preferences " (`line`) and exits 1, and so does kw, so
//! a script sees the same failure from both. Never a run with the wrong defaults.

use kw_client::config::plugin_policy::PolicyError;

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum KubercError {
    /// `KUBECTL_KUBERC=false` takes the flag away: pflag's words for a flag it does not know.
    #[error("unknown flag: --kuberc")]
    FlagTurnedOff,
    #[error("kuberc error disabling kuberc via KUBERC=off and passing kuberc flag are mutually exclusive")]
    OffAndFlag,
    /// `--kuberc=`.
    #[error("kuberc file is not found")]
    EmptyPath,
    /// The file named by `--kuberc` or `$KUBERC` cannot be read (Go's `open PATH: REASON`).
    #[error("kuberc error kuberc: {operation} {path}: {reason}")]
    Unreadable {
        operation: &'static str,
        path: String,
        reason: String,
    },
    /// Not YAML, or no document is a Preference kw and kubectl can read.
    #[error("kuberc error kuberc: no valid preferences found in {path}, use --v=5 to see details")]
    NoValidPreferences { path: String },
    #[error(transparent)]
    Policy(#[from] PolicyError),
    #[error("invalid alias name, can only include alphabetical characters")]
    AliasName,
    #[error("duplicate alias name {0}")]
    DuplicateAlias(String),
    /// A default for an option the command has under neither kw nor kubectl.
    #[error("invalid flag {flag} for command {command}")]
    UnknownOption { flag: String, command: String },
    /// kubectl names the program here (its `argv[0]`), not the alias.
    #[error("invalid alias flag {flag} in alias {program}")]
    UnknownAliasOption { flag: String, program: String },
    /// A boolean's default that Go's `strconv.ParseBool` does not read.
    #[error(
        "could not apply override value {value} to flag {flag} in command {command} err: invalid argument \"{value}\" for \"--{flag}\" flag: {reason}"
    )]
    BadValue {
        value: String,
        flag: String,
        command: String,
        reason: String,
    },
}

impl KubercError {
    /// The lines kubectl writes for it on stderr; `verb` is the command it was given.
    pub fn lines(&self, verb: Option<&str>) -> Vec<String> {
        match self {
            KubercError::FlagTurnedOff => vec![
                format!("error: {self}"),
                match verb {
                    Some(verb) => format!("See 'kubectl {verb} --help' for usage."),
                    None => "See 'kubectl --help' for usage.".to_string(),
                },
            ],
            _ => vec![format!("error occurred while applying preferences {self}")],
        }
    }
}
