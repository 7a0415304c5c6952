//! Go's `text/template` as kubectl's `-o go-template` runs it: the template is named `output`,
//! its data is the unstructured object (integers `int64`, other numbers
//! `float64`), missing keys print `<no value>`, and the functions are Go's builtins plus
//! kubectl's `base64decode`. A leaf beside `jsonpath`: it reads `serde_json::Value`s and uses
//! only `goformat` for Go's number printing.

mod exec;
mod parse;
mod value;

pub use exec::{ExecError, Stopped};
pub use parse::{ParseError, FUNCTIONS};
pub use value::go_quote;

/// A parsed template.
#[derive(Debug, Clone, PartialEq)]
pub struct GoTemplate {
    text: String,
    nodes: Vec<parse::Node>,
    missing_key_error: bool,
}

impl GoTemplate {
    /// Parse `text` as kubectl does (a template named `output`).
    pub fn parse(text: &str) -> Result<GoTemplate, ParseError> {
        Ok(GoTemplate {
            text: text.to_string(),
            nodes: parse::parse("output", text)?,
            missing_key_error: false,
        })
    }

    /// Go's `missingkey=error`: a key a map lacks fails the run (kubectl's
    /// `--allow-missing-template-keys=false`); by default it prints `<no value>`.
    pub fn missing_keys_refused(mut self, refused: bool) -> GoTemplate {
        self.missing_key_error = refused;
        self
    }

    /// Run the template over `data`, appending to `out`; on an error `out` keeps what was
    /// written before it, as Go's writer does.
    pub fn execute(&self, data: &serde_json::Value, out: &mut String) -> Result<(), ExecError> {
        self.execute_until(data, out, None)
            .map_err(|stopped| match stopped {
                Stopped::Failed(error) => error,
                // Not without a deadline; worded all the same.
                Stopped::OutOfTime => ExecError("the deadline passed".into()),
            })
    }

    /// `execute`, stopped at its first step past `deadline` (a verb's `--timeout`): a template
    /// over a big list ends when the run must, not only at the cap on range iterations.
    pub fn execute_until(
        &self,
        data: &serde_json::Value,
        out: &mut String,
        deadline: Option<std::time::Instant>,
    ) -> Result<(), Stopped> {
        let depth = depth_of(data);
        let mut run = || {
            exec::execute(
                "output",
                &self.text,
                &self.nodes,
                data,
                out,
                self.missing_key_error,
                deadline,
            )
        };
        if depth <= SHALLOW {
            return run();
        }
        if depth > MAX_DATA_DEPTH {
            return Err(Stopped::Failed(ExecError(format!(
                "the object nests {depth} levels deep, more than the API server's {MAX_DATA_DEPTH}"
            ))));
        }
        // Values are cloned, printed and dropped level by level (serde_json's own `Clone` and
        // `Drop` recurse too): a stack of its own, sized to the object, holds all of it.
        stacker::grow(STACK_PER_LEVEL * depth + 1024 * 1024, run)
    }
}

/// Objects this shallow run on the caller's stack.
const SHALLOW: usize = 64;
/// The API server's own decoder refuses deeper objects; only a hostile server sends one.
const MAX_DATA_DEPTH: usize = 10_000;
/// Generous for a debug build (a 3,000-level object overflowed a 2 MiB test thread).
const STACK_PER_LEVEL: usize = 8 * 1024;

/// How deeply `data` nests, counted without recursion: its arrays and objects, as the API
/// server counts them (`{}` is one level, a string none), so that every object kw reads runs.
fn depth_of(data: &serde_json::Value) -> usize {
    let mut deepest = 0;
    let mut pending = vec![(data, 1)];
    while let Some((value, depth)) = pending.pop() {
        match value {
            serde_json::Value::Array(items) => {
                deepest = deepest.max(depth);
                pending.extend(items.iter().map(|v| (v, depth + 1)));
            }
            serde_json::Value::Object(map) => {
                deepest = deepest.max(depth);
                pending.extend(map.values().map(|v| (v, depth + 1)));
            }
            _ => {}
        }
    }
    deepest
}

/// `%+v` of the decoded object, as kubectl's debugging dump prints it.
pub fn go_value_text(data: &serde_json::Value) -> String {
    let mut out = String::new();
    let depth = depth_of(data);
    if depth <= SHALLOW {
        value::write_json_v(&mut out, data);
    } else if depth > MAX_DATA_DEPTH {
        out = format!("<an object nested {depth} levels deep>");
    } else {
        // Printed level by level: a stack of its own, as for `execute`.
        stacker::grow(STACK_PER_LEVEL * depth + 1024 * 1024, || {
            value::write_json_v(&mut out, data)
        });
    }
    out
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn run(template: &str, data: serde_json::Value) -> Result<String, String> {
        let template = GoTemplate::parse(template).map_err(|e| e.0)?;
        let mut out = String::new();
        template
            .execute(&data, &mut out)
            .map_err(|e| format!("{out}|{}", e.0))?;
        Ok(out)
    }

    #[test]
    fn fields_ranges_and_conditions() {
        let pod = json!({"metadata": {"name": "web", "labels": {"b": "2", "a": "1"}},
            "spec": {"replicas": 3, "containers": [{"name": "c1"}, {"name": "c2"}]},
            "status": {"phase": "Running"}});
        assert_eq!(
            run(
                "{{.metadata.name}} {{.spec.replicas}} {{.x}} {{.x.y}}",
                pod.clone()
            )
            .unwrap(),
            "web 3 <no value> <no value>"
        );
        assert_eq!(
            run(
                "{{range $k, $v := .metadata.labels}}{{$k}}={{$v}};{{end}}",
                pod.clone()
            )
            .unwrap(),
            "a=1;b=2;"
        );
        assert_eq!(
            run(
                "{{range $i, $c := .spec.containers}}{{$i}}:{{$c.name}} {{end}}",
                pod.clone()
            )
            .unwrap(),
            "0:c1 1:c2 "
        );
        assert_eq!(run(r#"{{if eq .status.phase "Pending"}}p{{else if eq .status.phase "Running"}}r{{else}}x{{end}}"#, pod.clone()).unwrap(), "r");
        assert_eq!(
            run(
                "{{with .metadata}}{{.name}}{{end}}{{with .nope}}y{{else}}n{{end}}",
                pod.clone()
            )
            .unwrap(),
            "webn"
        );
        assert_eq!(
            run(
                "{{range .spec.containers}}{{if eq .name \"c2\"}}{{break}}{{end}}{{.name}}{{end}}",
                pod.clone()
            )
            .unwrap(),
            "c1"
        );
        assert_eq!(
            run(
                "{{$n := len .spec.containers}}{{$n}} {{(index .spec.containers 1).name}}",
                pod.clone()
            )
            .unwrap(),
            "2 c2"
        );
        assert_eq!(
            run("{{.metadata.labels}} {{.spec.containers}}", pod).unwrap(),
            "map[a:1 b:2] [map[name:c1] map[name:c2]]"
        );
    }

    #[test]
    fn functions() {
        let data = json!({"s": "aGVsbG8=", "n": 2, "e": []});
        assert_eq!(run("{{.s | base64decode}}", data.clone()).unwrap(), "hello");
        assert_eq!(run(r#"{{printf "%s-%v" "a" .n}} {{print 1 "b" 2}} {{not .e}} {{and 1 0}} {{or 0 "x"}}"#, data.clone()).unwrap(), "a-2 1b2 true 0 x");
        assert_eq!(
            run("{{lt 1 2}} {{ge .n 2}} {{ne \"a\" \"b\"}}", data.clone()).unwrap(),
            "true true true"
        );
        assert_eq!(run("{{eq .n 2}}", data.clone()).unwrap(), "true");
        assert_eq!(
            run("a{{eq .n 2.0}}", data).unwrap_err(),
            "a|template: output:1:3: executing \"output\" at <eq .n 2.0>: error calling eq: incompatible types for comparison: int64 and float64"
        );
    }

    #[test]
    fn slice_and_escapers() {
        let data = json!({"s": "abcdef", "l": [1, 2, 3]});
        assert_eq!(
            run("{{slice .s 1 3}} {{slice .l 1}} {{slice .s}}", data.clone()).unwrap(),
            "bc [2 3] abcdef"
        );
        assert_eq!(
            run(
                r#"{{html "<a&'\">"}} {{js "a'b\n<"}} {{urlquery "a b/é"}}"#,
                data.clone()
            )
            .unwrap(),
            r#"&lt;a&amp;&#39;&#34;&gt; a\'b\u000A\u003C a+b%2F%C3%A9"#
        );
        assert_eq!(
            run("{{slice .l 2 1}}", data.clone()).unwrap_err(),
            "|template: output:1:2: executing \"output\" at <slice .l 2 1>: error calling slice: invalid slice index: 2 > 1"
        );
        assert_eq!(
            run("{{call .s}}", data).unwrap_err(),
            "|template: output:1:2: executing \"output\" at <call .s>: error calling call: non-function .s of type string"
        );
    }

    #[test]
    fn execution_errors_as_go_words_them() {
        let data = json!({"a": {"s": "x", "z": null}, "l": [1]});
        assert_eq!(run("{{.a.s.x}}", data.clone()).unwrap_err(), "|template: output:1:4: executing \"output\" at <.a.s.x>: can't evaluate field x in type interface {}");
        assert_eq!(run("{{.a.z.x}}", data.clone()).unwrap_err(), "|template: output:1:4: executing \"output\" at <.a.z.x>: nil pointer evaluating interface {}.x");
        assert_eq!(run("{{index .l 3}}", data.clone()).unwrap_err(), "|template: output:1:2: executing \"output\" at <index .l 3>: error calling index: index out of range: 3");
        assert_eq!(run("{{len 3}}", data).unwrap_err(), "|template: output:1:2: executing \"output\" at <len 3>: error calling len: len of type int");
    }
}

#[cfg(test)]
mod deadline_tests {
    use std::time::{Duration, Instant};

    use super::{GoTemplate, Stopped};

    /// A run past its deadline stops at its next step (the range's first iteration here), not
    /// at the cap on range iterations; one whose deadline is far runs to its end.
    #[test]
    fn a_run_stops_at_its_first_step_past_the_deadline() {
        let data = serde_json::json!({"l": [1, 2, 3]});
        let template = GoTemplate::parse("a{{range .l}}{{.}}{{end}}").unwrap();
        let mut out = String::new();
        let passed = Instant::now().checked_sub(Duration::from_millis(1));
        assert_eq!(
            template.execute_until(&data, &mut out, passed),
            Err(Stopped::OutOfTime)
        );
        assert_eq!(out, "");
        let far = Instant::now().checked_add(Duration::from_secs(3600));
        out.clear();
        template.execute_until(&data, &mut out, far).unwrap();
        assert_eq!(out, "a123");
    }
}
