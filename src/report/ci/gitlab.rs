//! The verdict where a GitLab reviewer looks (`--report gitlab`, on by default under
//! `GITLAB_CI=true`): the summary of the cause in a collapsible section of the job log
//! (`section_start`/`section_end`, GitLab's markers), so that the log shows its title and the
//! verdict's line stays the last, outside it.

use crate::report::line::ReportLine;

/// The section's name: letters, digits and `_` only, as GitLab asks.
const SECTION: &str = "kw_summary";

/// `lines` (the report's, in order) with the summary block inside a collapsed section; the
/// marker lines written raw (`ReportLine::Marker`), `now` the section's Unix time.
pub fn sectioned(lines: Vec<ReportLine>, now: u64) -> Vec<ReportLine> {
    let Some(start) = lines
        .iter()
        .position(|l| l.message() == "kw: summary of the wait:")
    else {
        return lines;
    };
    let end = lines[start + 1..]
        .iter()
        .position(|l| !l.message().starts_with(' '))
        .map_or(lines.len(), |at| start + 1 + at);
    let mut out = lines;
    out.insert(
        end,
        ReportLine::Marker(format!("\x1b[0Ksection_end:{now}:{SECTION}\r\x1b[0K")),
    );
    let title = out[start].message().to_string();
    out[start] = ReportLine::Marker(format!(
        "\x1b[0Ksection_start:{now}:{SECTION}[collapsed=true]\r\x1b[0K{title}"
    ));
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_summary_is_one_collapsed_section_and_the_verdict_stays_outside() {
        let lines = vec![
            ReportLine::Plain("kw: summary of the wait:".into()),
            ReportLine::Plain("  not ready:".into()),
            ReportLine::Plain("    deployment.apps/web: failed: x".into()),
            ReportLine::Error("timed out waiting for the condition".into()),
        ];
        let out = sectioned(lines, 1700000000);
        let text: Vec<String> = out.iter().map(ToString::to_string).collect();
        assert_eq!(
            text,
            [
                "\x1b[0Ksection_start:1700000000:kw_summary[collapsed=true]\r\x1b[0Kkw: summary of the wait:",
                "  not ready:",
                "    deployment.apps/web: failed: x",
                "\x1b[0Ksection_end:1700000000:kw_summary\r\x1b[0K",
                "error: timed out waiting for the condition",
            ]
        );
    }
}
