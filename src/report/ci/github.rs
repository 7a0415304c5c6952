//! The verdict where a GitHub reviewer looks (`--report github`, on by default under
//! `GITHUB_ACTIONS=true`): a Markdown block appended to `$GITHUB_STEP_SUMMARY` (a table of the
//! objects and their verdicts, the cause block, the crashed containers' last lines folded in
//! `<details>`), an `::error` or `::warning` workflow command per object that failed or did not
//! make it in time (annotations on the run's page), and `verdict=`, `failed=`, `cause=` in
//! `$GITHUB_OUTPUT` for the next steps.
//!
//! Everything in them comes from a server and is escaped as GitHub documents it, so that no
//! object can forge a command (`::add-mask::`, `::set-output`) or break out of the Markdown:
//! a command's data has `%`, `\r` and `\n` escaped (`%25`, `%0D`, `%0A`), its properties `:`
//! and `,` too; terminal controls are escaped first, as on stderr. The runner reads workflow
//! commands from stderr as from stdout, so stdout stays kubectl's.

use std::fmt::Write as _;

use super::model::{ObjectVerdict, RunVerdict};

/// The workflow command lines (`::error title=...::...`), one per object that failed or did
/// not meet the question, at most `COMMANDS` (GitHub shows 10 error annotations per step).
pub fn commands(verdict: &RunVerdict) -> Vec<String> {
    let mut lines: Vec<String> = verdict
        .objects
        .iter()
        .filter(|o| !o.met)
        .take(COMMANDS)
        .map(|object| {
            let level = match object.state {
                "failed" => "error",
                _ => "warning",
            };
            let title = format!("kw {}: {} {}", verdict.verb, object.label, object.state);
            let mut message = format!("{}: {}", object.label, object.message);
            for cause in &object.causes {
                message.push('\n');
                message.push_str(cause);
            }
            let file = object
                .source
                .as_ref()
                .map_or_else(String::new, |(file, line)| {
                    format!("file={},line={line},", property(file))
                });
            format!(
                "::{level} {file}title={}::{}",
                property(&title),
                data(&message)
            )
        })
        .collect();
    if lines.is_empty() && verdict.exit_code != 0 {
        let message = verdict
            .error
            .clone()
            .unwrap_or_else(|| verdict.verdict.into());
        lines.push(format!(
            "::error title={}::{}",
            property(&format!("kw {}: {}", verdict.verb, verdict.verdict)),
            data(&message)
        ));
    }
    lines
}

/// Annotations kw writes at most per run.
const COMMANDS: usize = 10;

/// `verdict=`, `failed=` (the labels that failed or were not met, comma-separated), `cause=`
/// (the verdict's line), for `$GITHUB_OUTPUT`; a multi-line value in GitHub's delimiter form.
pub fn outputs(verdict: &RunVerdict) -> String {
    let failed: Vec<&str> = verdict
        .objects
        .iter()
        .filter(|o| !o.met)
        .map(|o| o.label.as_str())
        .collect();
    let mut out = String::new();
    for (name, value) in [
        ("verdict", verdict.verdict.to_string()),
        ("failed", failed.join(",")),
        ("cause", verdict.error.clone().unwrap_or_default()),
    ] {
        let value = kw_base::log::clean(&value).replace(['\r', '\n'], " ");
        let _ = writeln!(out, "{name}={value}");
    }
    out
}

/// The step summary's Markdown.
pub fn summary(verdict: &RunVerdict) -> String {
    let mut md = String::new();
    let mark = if verdict.exit_code == 0 { "✅" } else { "❌" };
    let _ = writeln!(
        md,
        "### {mark} kw {}: {} (exit {}, {:.1}s)\n",
        verdict.verb,
        verdict.verdict,
        verdict.exit_code,
        verdict.elapsed.as_secs_f64()
    );
    if let Some(error) = &verdict.error {
        let _ = writeln!(md, "{}\n", inline(error));
    }
    // Over several contexts, a column of its own: one row per context and object, grouped by
    // context (the objects come sorted by label, the context first).
    let several = verdict.objects.iter().any(|o| !o.context.is_empty());
    if !verdict.objects.is_empty() {
        md.push_str(match several {
            true => "| | Context | Object | Verdict |\n|---|---|---|---|\n",
            false => "| | Object | Verdict |\n|---|---|---|\n",
        });
        for object in &verdict.objects {
            let context = match several {
                true => format!(" {} |", cell(&object.context)),
                false => String::new(),
            };
            let label = object
                .label
                .strip_prefix(&format!("{}/", object.context))
                .filter(|_| several)
                .unwrap_or(&object.label);
            let _ = writeln!(
                md,
                "| {} |{context} {} | {} |",
                icon(object),
                cell(label),
                cell(&format!("{}: {}", object.state, object.message))
            );
        }
        md.push('\n');
    }
    let cause = verdict.cause_lines();
    if !cause.is_empty() {
        md.push_str("**Cause**\n\n");
        md.push_str(&fenced(&cause));
    }
    for crash in &verdict.crashed {
        let code = crash
            .exit_code
            .map_or_else(|| "exit code unknown".into(), |c| format!("exit code {c}"));
        let _ = writeln!(
            md,
            "<details><summary>{} container {}: {} ({code})</summary>\n",
            html(&crash.pod),
            html(&crash.container),
            html(&crash.reason)
        );
        let lines = match &crash.log {
            Ok(lines) => lines.clone(),
            Err(why) => vec![format!("(cannot read its log: {why})")],
        };
        md.push_str(&fenced(&lines));
        md.push_str("</details>\n\n");
    }
    md
}

fn icon(object: &ObjectVerdict) -> &'static str {
    match object.state {
        "ready" => "✅",
        "failed" => "❌",
        _ => "⏳",
    }
}

/// A workflow command's data: `%` and line breaks escaped, after terminal controls.
pub fn data(text: &str) -> String {
    // Each line's controls written out as on stderr (a `\r` becomes `\\r`), the line breaks
    // kw joined them with escaped: nothing of it can end the command's line.
    text.split('\n')
        .map(|line| {
            kw_base::log::clean(line)
                .replace('%', "%25")
                .replace('\r', "%0D")
        })
        .collect::<Vec<_>>()
        .join("%0A")
}

/// A workflow command's property value: as its data, and `:` and `,` too.
pub fn property(text: &str) -> String {
    data(text).replace(':', "%3A").replace(',', "%2C")
}

/// Text for Markdown outside code: HTML escaped (a summary renders HTML), one line.
fn html(text: &str) -> String {
    kw_base::log::clean(text)
        .replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace(['\r', '\n'], " ")
}

/// A line of prose: as `html`, Markdown's own marks escaped.
fn inline(text: &str) -> String {
    let mut out = String::new();
    for c in html(text).chars() {
        if "\\`*_[]()#|!~".contains(c) {
            out.push('\\');
        }
        out.push(c);
    }
    out
}

/// A table cell: as `inline` (its `|` escaped too).
fn cell(text: &str) -> String {
    inline(text)
}

/// `lines` in a code block whose fence no line can close: longer than any run of backticks
/// in them.
fn fenced(lines: &[String]) -> String {
    let longest = lines
        .iter()
        .flat_map(|line| line.split(|c| c != '`'))
        .map(str::len)
        .max()
        .unwrap_or(0);
    let fence = "`".repeat(longest.max(2) + 1);
    let mut out = format!("{fence}text\n");
    for line in lines {
        out.push_str(&kw_base::log::clean(line).replace('\r', " "));
        out.push('\n');
    }
    out.push_str(&fence);
    out.push_str("\n\n");
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A message holding a newline and a command cannot start a command of its own: every
    /// line break is escaped, so the whole annotation stays one line.
    #[test]
    fn a_hostile_message_cannot_forge_a_workflow_command() {
        let hostile = "boom\n::add-mask::secret\r\n::set-output name=x::y 100%";
        let escaped = data(hostile);
        assert_eq!(
            escaped,
            "boom%0A::add-mask::secret\\r%0A::set-output name=x::y 100%25"
        );
        assert!(!escaped.contains('\n') && !escaped.contains('\r'));
        assert_eq!(property("a:b,c%"), "a%3Ab%2Cc%25");
    }

    #[test]
    fn markdown_cannot_be_left_from_a_cell_or_a_block() {
        assert_eq!(cell("a|b<script>"), "a\\|b&lt;script&gt;");
        let block = fenced(&["```".to_string(), "x".to_string()]);
        assert!(block.starts_with("````text\n"), "{block}");
    }
}
