//! One line of what kw says on stderr when a command ends, kept as what it is until written.

use std::fmt;

/// A line of a report. kubectl starts its own errors with `error: `, but neither a server's
/// answer (`Error from server (NotFound): ...`) nor each of several errors said together: the
/// prefix is written with the line, so that nothing has to take it off again to reword one.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ReportLine {
    /// An error in kw's (or kubectl's) own words, written after `error: `.
    Error(String),
    /// Written as worded: a server's answer, one of several errors, a summary's line, a verdict.
    Plain(String),
    /// A CI's marker, written raw (GitLab's section markers hold terminal controls; GitHub's
    /// workflow commands are escaped by their own rules): kw's own words only, whatever a
    /// server sent in them already escaped.
    Marker(String),
}

impl ReportLine {
    /// The words, without the prefix an error is written with: what a longer line quotes.
    pub fn message(&self) -> &str {
        match self {
            ReportLine::Error(message)
            | ReportLine::Plain(message)
            | ReportLine::Marker(message) => message,
        }
    }

    /// The line as one of several errors said together, which kubectl writes without `error: `.
    pub fn among_several(self) -> ReportLine {
        match self {
            ReportLine::Error(message) => ReportLine::Plain(message),
            other => other,
        }
    }
}

impl fmt::Display for ReportLine {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ReportLine::Error(message) => write!(f, "error: {message}"),
            ReportLine::Plain(message) | ReportLine::Marker(message) => f.write_str(message),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::ReportLine;

    #[test]
    fn only_an_error_is_written_with_the_prefix_and_only_on_its_own() {
        let error = ReportLine::Error("timed out waiting for the condition".into());
        assert_eq!(
            error.to_string(),
            "error: timed out waiting for the condition"
        );
        assert_eq!(error.message(), "timed out waiting for the condition");
        assert_eq!(
            error.among_several().to_string(),
            "timed out waiting for the condition"
        );
        let answer = ReportLine::Plain("Error from server (NotFound): pods \"x\" not found".into());
        assert_eq!(answer.to_string(), answer.message());
        assert_eq!(answer.clone().among_several(), answer);
    }
}
