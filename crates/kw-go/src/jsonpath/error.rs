//! What goes wrong with a template: a leaf, so that the parser, the evaluator and the printer in
//! `mod.rs` all name it without importing each other.

/// A template could not be parsed or run.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum JsonPathError {
    #[error("{0}")]
    Parse(String),
    #[error("{0}")]
    Execute(String),
}
