//! Go's encodings, byte for byte: what kubectl's output is made of. `json` is `encoding/json`,
//! `yaml` is `sigs.k8s.io/yaml` over go-yaml v2, `kyaml` its `kyaml` package, `fmt` is `fmt.Sprint`, `float` fmt's float verbs, `quote` is
//! `strconv.Quote` (`%q`), `duration` reads `time.ParseDuration`. A leaf: it encodes `serde_json::Value`s and imports nothing else from
//! the crate, so the printers and `jsonpath` share it without depending on each other.

pub mod duration;
pub mod float;
pub mod fmt;
pub mod json;
pub mod kyaml;
pub mod quote;
pub mod yaml;
