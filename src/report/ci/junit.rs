//! The verdict as a JUnit XML report (`--report junit=FILE`), which every CI reads (GitLab's
//! test reports, Jenkins, Azure, GitHub through a reporter action): one `<testsuite>` per run,
//! one `<testcase>` per object waited on (classname its kind, name its namespace/name, the
//! context in front in a run over several), a `<failure>` with the cause block for one that
//! failed or did not make it, and `<system-out>` with its crashed containers' last lines.

use std::fmt::Write as _;

use super::model::RunVerdict;

pub fn document(verdict: &RunVerdict) -> String {
    let failures = verdict.objects.iter().filter(|o| !o.met).count();
    // A run that ended before judging anything (an error) is one failed case of its own.
    let alone = verdict.objects.is_empty() && verdict.exit_code != 0;
    let tests = verdict.objects.len() + usize::from(alone);
    let seconds = verdict.elapsed.as_secs_f64();
    let mut xml = String::from("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
    let _ = writeln!(
        xml,
        "<testsuites name=\"kw\" tests=\"{tests}\" failures=\"{}\" errors=\"0\" time=\"{seconds:.3}\">",
        failures + usize::from(alone)
    );
    let _ = writeln!(
        xml,
        "  <testsuite name=\"{}\" tests=\"{tests}\" failures=\"{}\" errors=\"0\" skipped=\"0\" time=\"{seconds:.3}\">",
        attr(&format!("kw {}", verdict.verb)),
        failures + usize::from(alone)
    );
    let mut told_crashes = false;
    for object in &verdict.objects {
        let name = match (object.context.is_empty(), object.namespace.is_empty()) {
            (true, true) => object.name.clone(),
            (true, false) => format!("{}/{}", object.namespace, object.name),
            (false, true) => format!("{}/{}", object.context, object.name),
            (false, false) => format!("{}/{}/{}", object.context, object.namespace, object.name),
        };
        let _ = write!(
            xml,
            "    <testcase classname=\"{}\" name=\"{}\" time=\"{seconds:.3}\"",
            attr(&object.kind),
            attr(&name)
        );
        if object.met {
            xml.push_str("/>\n");
            continue;
        }
        xml.push_str(">\n");
        let mut body = vec![format!(
            "{}: {}: {}",
            object.label, object.state, object.message
        )];
        body.extend(object.causes.iter().map(|c| format!("  {c}")));
        let _ = writeln!(
            xml,
            "      <failure message=\"{}\" type=\"{}\">{}</failure>",
            attr(&format!("{}: {}", object.state, object.message)),
            attr(object.state),
            text(&body.join("\n"))
        );
        // Its crashed containers; those no case names go with the first failed one.
        let mut crashes = verdict.crashed_of(object);
        if crashes.is_empty() && !told_crashes {
            crashes = verdict.crashed.iter().collect();
        }
        told_crashes |= !crashes.is_empty();
        if !crashes.is_empty() {
            let mut out = Vec::new();
            for crash in crashes {
                let code = crash
                    .exit_code
                    .map_or_else(|| "exit code unknown".into(), |c| format!("exit code {c}"));
                out.push(format!(
                    "{} container {}: {} ({code})",
                    crash.pod, crash.container, crash.reason
                ));
                match &crash.log {
                    Ok(lines) => out.extend(lines.iter().map(|l| format!("| {l}"))),
                    Err(why) => out.push(format!("(cannot read its log: {why})")),
                }
            }
            let _ = writeln!(
                xml,
                "      <system-out>{}</system-out>",
                text(&out.join("\n"))
            );
        }
        xml.push_str("    </testcase>\n");
    }
    if alone {
        let message = verdict
            .error
            .clone()
            .unwrap_or_else(|| verdict.verdict.into());
        let _ = writeln!(
            xml,
            "    <testcase classname=\"kw\" name=\"{}\" time=\"{seconds:.3}\">\n      <failure message=\"{}\" type=\"{}\"/>\n    </testcase>",
            attr(verdict.verb),
            attr(&message),
            attr(verdict.verdict)
        );
    }
    xml.push_str("  </testsuite>\n</testsuites>\n");
    xml
}

/// Text as XML character data: `&`, `<`, `>` escaped, and the characters XML 1.0 cannot hold
/// at all (controls but tab, newline, carriage return) written out as on stderr.
fn text(value: &str) -> String {
    let mut out = String::with_capacity(value.len());
    for c in value.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '\t' | '\n' | '\r' => out.push(c),
            c if c.is_control() => out.push_str(&format!("\\u{{{:04x}}}", c as u32)),
            c => out.push(c),
        }
    }
    out
}

/// Text as an attribute value: as `text`, quotes and line breaks escaped too.
fn attr(value: &str) -> String {
    text(value)
        .replace('"', "&quot;")
        .replace('\n', "&#10;")
        .replace('\r', "&#13;")
        .replace('\t', "&#9;")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_and_attributes_cannot_break_the_xml() {
        assert_eq!(text("a<b>&\u{1b}"), "a&lt;b&gt;&amp;\\u{001b}");
        assert_eq!(attr("\"x\"\n"), "&quot;x&quot;&#10;");
    }
}
