//! kubectl's JSONPath dialect against upstream's own test table (client-go
//! `util/jsonpath/jsonpath_test.go`), ported as data to tests/jsonpath/cases.json.

use kw::jsonpath::JsonPath;
use serde_json::Value;

fn table() -> Value {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/jsonpath/cases.json");
    let text = std::fs::read_to_string(&path).expect("tests/jsonpath/cases.json");
    serde_json::from_str(&text).expect("cases.json is JSON")
}

fn words(text: &str) -> Vec<&str> {
    let mut words: Vec<&str> = text.split_whitespace().collect();
    words.sort_unstable();
    words
}

#[test]
fn upstream_cases_pass() {
    crate::harness::watchdog::current();
    let table = table();
    let cases = table["cases"].as_array().expect("cases");
    assert!(cases.len() > 100, "the table has {} cases", cases.len());
    let mut failures = Vec::new();
    for case in cases {
        let name = case["name"].as_str().unwrap_or_default();
        let template = case["template"].as_str().expect("template");
        let input = &table["inputs"][case["input"].as_str().expect("input")];
        let allow_missing = case["allow_missing_keys"].as_bool().unwrap_or(false);
        let wants_error = case["error"].as_bool().unwrap_or(false);
        let outcome = JsonPath::parse(template).and_then(|path| {
            let mut out = Vec::new();
            path.allow_missing_keys(allow_missing)
                .execute(input, &mut out)
                .map(|()| String::from_utf8_lossy(&out).into_owned())
        });
        match (outcome, wants_error) {
            (Ok(got), false) => {
                let expect = case["expect"].as_str().unwrap_or_default();
                let same = if case["sort_output"].as_bool().unwrap_or(false) {
                    words(&got) == words(expect)
                } else {
                    got == expect
                };
                if !same {
                    failures.push(format!(
                        "{name}: {template}\n  expected {expect:?}\n  got      {got:?}"
                    ));
                }
            }
            (Ok(got), true) => failures.push(format!(
                "{name}: {template}: expected an error, got {got:?}"
            )),
            (Err(e), true) => {
                if let Some(message) = case["error_message"].as_str() {
                    if e.to_string() != message {
                        failures.push(format!(
                            "{name}: {template}: error {e:?}, expected {message:?}"
                        ));
                    }
                }
            }
            (Err(e), false) => failures.push(format!("{name}: {template}: unexpected error {e}")),
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} failed:\n{}",
        failures.len(),
        cases.len(),
        failures.join("\n")
    );
}

#[test]
fn upstream_parser_cases_pass() {
    crate::harness::watchdog::current();
    let table = table();
    let mut failures = Vec::new();
    let parser_cases = table["parser_cases"].as_array().expect("parser_cases");
    assert!(parser_cases.len() > 20);
    for case in parser_cases {
        let name = case["name"].as_str().unwrap_or_default();
        let template = case["template"].as_str().expect("template");
        match (kw::jsonpath::parse_dump(template), case.get("nodes")) {
            (Ok(got), Some(nodes)) => {
                let want: Vec<&str> = nodes
                    .as_array()
                    .expect("nodes")
                    .iter()
                    .filter_map(Value::as_str)
                    .collect();
                if got != want {
                    failures.push(format!(
                        "{name}: {template}\n  expected {want:?}\n  got      {got:?}"
                    ));
                }
            }
            (Err(_), None) => {}
            (Ok(got), None) => failures.push(format!(
                "{name}: {template}: parsed as {got:?}, expected an error"
            )),
            (Err(e), Some(_)) => failures.push(format!("{name}: {template}: {e}")),
        }
    }
    for case in table["parser_failures"]
        .as_array()
        .expect("parser_failures")
    {
        let template = case["template"].as_str().expect("template");
        let want = case["error_message"].as_str().expect("error_message");
        match JsonPath::parse(template) {
            Err(e) if e.to_string() == want => {}
            other => failures.push(format!(
                "{template}: expected error {want:?}, got {other:?}"
            )),
        }
    }
    assert!(
        failures.is_empty(),
        "{} failed:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

/// Templates are user input: whatever they are, parsing and running them returns, never
/// panics. A bounded, deterministic sweep over the characters the dialect cares about.
#[test]
fn arbitrary_templates_never_panic() {
    crate::harness::watchdog::current();
    let alphabet: Vec<char> = "{}[]().,:*?@$='\"\\ -+0123456789abrangeditems\n\té"
        .chars()
        .collect();
    let data: Value = serde_json::json!({
        "items": [{"a": 1, "b": [1, 2, {"c": "x"}]}, {"a": "s", "b": null}],
        "a": {"b": 1.5}, "s": "text"
    });
    let mut state: u64 = 0x9e37_79b9_7f4a_7c15;
    for extreme in [
        "{[9223372036854775807]}",
        "{[-9223372036854775808:]}",
        "{.items[:-9223372036854775808]}",
    ] {
        if let Ok(path) = JsonPath::parse(extreme) {
            let _ = path.execute(&data, &mut Vec::new());
        }
    }
    for _ in 0..20_000 {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        let length = (state % 24) as usize;
        let mut template = String::from("{");
        let mut seed = state;
        for _ in 0..length {
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            template.push(alphabet[(seed >> 33) as usize % alphabet.len()]);
        }
        if state.is_multiple_of(3) {
            template.push('}');
        }
        if state.is_multiple_of(5) {
            template = format!("{{.items[{}:{}]}}", state as i64, -(state as i64));
        }
        if let Ok(path) = JsonPath::parse(&template) {
            let mut out = Vec::new();
            let _ = path
                .allow_missing_keys(state.is_multiple_of(2))
                .execute(&data, &mut out);
        }
    }
}
