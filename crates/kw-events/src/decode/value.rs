//! A whole object as a `Value`, however deeply it nests.

/// A whole object as a `Value`, however deeply it nests. Custom resources may nest far beyond
/// serde_json's default limit of 128 levels (the API server's own decoder allows 10,000), and
/// such an object must print like any other: the recursion limit is off, and the stack grows on
/// the heap as needed (serde_stacker) instead of overflowing.
pub fn value(text: &str) -> serde_json::Result<serde_json::Value> {
    use serde::Deserialize;
    let mut deserializer = serde_json::Deserializer::from_str(text);
    deserializer.disable_recursion_limit();
    let value =
        serde_json::Value::deserialize(serde_stacker::Deserializer::new(&mut deserializer))?;
    deserializer.end()?;
    Ok(value)
}
