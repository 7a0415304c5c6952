//! Go's formats as kubectl prints them, from Rust: fmt's verbs, strconv's quoting, Go durations,
//! encoding/json and sigs.k8s.io/yaml output (goformat), text/template (gotemplate) and client-go's
//! JSONPath (jsonpath). Engines over serde_json values; they know nothing of kw.

pub mod goformat;
pub mod gotemplate;
pub mod jsonpath;
