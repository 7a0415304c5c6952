//! Reading the few fields the readiness rules look at, leniently: a field that is missing or of
//! another type than the API says reads as absent, never as an error, because a judgement must
//! be made of every object a server sends (a custom resource may spell its status any way).

use std::time::SystemTime;

use serde_json::Value;

/// Longest text taken from a server (a condition's message) into a judgement's message.
const MAX_MESSAGE: usize = 240;

/// An integer at `pointer` (JSON numbers written as floats included).
pub fn int(object: &Value, pointer: &str) -> Option<i64> {
    let value = object.pointer(pointer)?;
    value.as_i64().or_else(|| value.as_f64().map(|f| f as i64))
}

/// An integer at `pointer`, or `default` where the API defaults an absent field.
pub fn int_or(object: &Value, pointer: &str, default: i64) -> i64 {
    int(object, pointer).unwrap_or(default)
}

/// A string at `pointer`.
pub fn text<'a>(object: &'a Value, pointer: &str) -> Option<&'a str> {
    object.pointer(pointer).and_then(Value::as_str)
}

/// An RFC 3339 time at `pointer` (`metadata.creationTimestamp`, `lastTransitionTime`).
pub fn time(object: &Value, pointer: &str) -> Option<SystemTime> {
    humantime::parse_rfc3339_weak(text(object, pointer)?).ok()
}

/// One entry of `status.conditions`, as the API conventions define it.
#[derive(Debug, Clone, Copy)]
pub struct Condition<'a> {
    pub kind: &'a str,
    pub status: &'a str,
    pub reason: &'a str,
    pub message: &'a str,
    pub entry: &'a Value,
}

impl Condition<'_> {
    pub fn is_true(&self) -> bool {
        self.status == "True"
    }

    pub fn is_false(&self) -> bool {
        self.status == "False"
    }

    /// What the condition says, for a judgement: its message, else its reason, else its type;
    /// cut to a line's length.
    pub fn describe(&self) -> String {
        let said = [self.message, self.reason, self.kind]
            .into_iter()
            .map(str::trim)
            .find(|t| !t.is_empty())
            .unwrap_or_default();
        short(said)
    }
}

/// The object's `status.conditions`, skipping entries without a type.
pub fn conditions(object: &Value) -> impl Iterator<Item = Condition<'_>> {
    object
        .pointer("/status/conditions")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(|entry| {
            let field = |name: &str| entry.get(name).and_then(Value::as_str).unwrap_or_default();
            let kind = entry.get("type").and_then(Value::as_str)?;
            Some(Condition {
                kind,
                status: field("status"),
                reason: field("reason"),
                message: field("message"),
                entry,
            })
        })
}

/// The condition of type `kind`, if the object has one.
pub fn condition<'a>(object: &'a Value, kind: &str) -> Option<Condition<'a>> {
    conditions(object).find(|c| c.kind == kind)
}

/// `text` on one line and at most [`MAX_MESSAGE`] characters.
pub fn short(text: &str) -> String {
    let one_line: String = text
        .trim()
        .chars()
        .map(|c| if c == '\n' || c == '\r' { ' ' } else { c })
        .collect();
    match one_line.char_indices().nth(MAX_MESSAGE) {
        Some((cut, _)) => format!("{}…", &one_line[..cut]),
        None => one_line,
    }
}

/// The kubelet's back-off words, shortened to what a reader needs where the Pod and container
/// are named already: `back-off 40s restarting failed container=web pod=web-1_default(uid)`
/// (a waiting state's message) and `Back-off restarting failed container web in pod
/// web-1_default(uid)` (its Warning event) lose the Pod's name and uid, and the delay, which
/// grows with every restart and would make one cause read as a new one each time.
pub fn kubelet_text(text: &str) -> String {
    let mut text = text.trim();
    for tail in [" pod=", " in pod "] {
        if let Some(at) = text.find(tail).filter(|_| text.ends_with(')')) {
            text = &text[..at];
        }
    }
    const BACK_OFF: &str = "back-off ";
    if !text
        .get(..BACK_OFF.len())
        .is_some_and(|start| start.eq_ignore_ascii_case(BACK_OFF))
    {
        return text.to_string();
    }
    let rest = &text[BACK_OFF.len()..];
    // `back-off 1m20s restarting…`: a Go duration, then a space.
    match rest.split_once(' ') {
        Some((delay, after))
            if delay.starts_with(|c: char| c.is_ascii_digit())
                && delay
                    .bytes()
                    .all(|b| b.is_ascii_alphanumeric() || b == b'.') =>
        {
            format!("{}{after}", &text[..BACK_OFF.len()])
        }
        _ => text.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn fields_read_leniently() {
        let object = json!({"spec": {"replicas": 3.0, "name": 7},
                            "status": {"conditions": [{"status": "True"},
                                                      {"type": "Ready", "status": "False"}]}});
        assert_eq!(int(&object, "/spec/replicas"), Some(3));
        assert_eq!(int_or(&object, "/spec/missing", 1), 1);
        assert_eq!(text(&object, "/spec/name"), None);
        assert_eq!(
            conditions(&object).count(),
            1,
            "an entry without a type is skipped"
        );
        let ready = condition(&object, "Ready").unwrap();
        assert!(ready.is_false());
        assert_eq!(ready.describe(), "Ready");
    }

    #[test]
    fn messages_are_cut_to_one_short_line() {
        assert_eq!(short(" a\nb "), "a b");
        assert_eq!(
            kubelet_text("back-off 1m20s restarting failed container=web pod=shop-2xk6m8hss-6zjwc_default(af022b9e-70fd-43fe-b760-38a04dcc8d32)"),
            "back-off restarting failed container=web"
        );
        assert_eq!(
            kubelet_text("Back-off restarting failed container web in pod shop-2xk6m8hss-6zjwc_default(af022b9e-70fd)"),
            "Back-off restarting failed container web"
        );
        assert_eq!(
            kubelet_text("Back-off pulling image \"nginx:1.99\""),
            "Back-off pulling image \"nginx:1.99\""
        );
        assert_eq!(kubelet_text("back-off é"), "back-off é");
        assert_eq!(kubelet_text("pod= in pod x"), "pod= in pod x");
        let long = "x".repeat(1000);
        assert_eq!(short(&long).chars().count(), MAX_MESSAGE + 1);
    }
}
