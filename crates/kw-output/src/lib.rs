//! The printer: every -o kubectl has (tables as the server sends them, json, yaml, name,
//! jsonpath, custom-columns, go-template) and kw's own (jsonl, the live view), written as events
//! arrive, with server text escaped, widths kept and stdout flushed when nothing more is held.
//! It knows no flags: a PrintOptions says what to print.

pub mod output;
