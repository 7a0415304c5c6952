//! Reading a kuberc's text as kubectl 1.37 does: YAML, one or more documents, the first that
//! is a `Preference` of `kubectl.config.k8s.io/v1beta1` or `v1alpha1` and decodes is used.
//! Decoding is Go's JSON into typed fields: a value of the wrong type (a number or an unquoted
//! `true` where text is expected) makes the document invalid; an unknown field is ignored with
//! kubectl's warning, which names every such field, sorted. A file with no document is empty
//! preferences; a file with documents none of which is valid is an error.

use serde_json::{Map, Value};

use super::preferences::{Alias, CommandDefaults, OptionDefault, Preferences};

pub const GROUP: &str = "kubectl.config.k8s.io";
pub const V1BETA1: &str = "kubectl.config.k8s.io/v1beta1";
pub const V1ALPHA1: &str = "kubectl.config.k8s.io/v1alpha1";

/// What a kuberc's text gives.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Decoded {
    pub preferences: Preferences,
    /// kubectl's warning for the unknown fields of the document used, when there are some:
    /// written as kubectl writes it, without a line end.
    pub warning: Option<String>,
    /// The document used (1 is the first) and its apiVersion, for `-v=5`.
    pub entry: Option<(usize, String)>,
}

/// No document in the text is a preference that can be read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NoValidPreferences;

/// The preferences in `text`; `shown` is the file as the user named it, for the warning.
pub fn decode(text: &str, shown: &str) -> Result<Decoded, NoValidPreferences> {
    let documents: Vec<Value> = if text.trim().is_empty() {
        Vec::new()
    } else {
        serde_saphyr::from_multiple(text).map_err(|_| NoValidPreferences)?
    };
    let documents: Vec<Value> = documents.into_iter().filter(|d| !d.is_null()).collect();
    if documents.is_empty() {
        return Ok(Decoded {
            preferences: Preferences::default(),
            warning: None,
            entry: None,
        });
    }
    for (index, document) in documents.iter().enumerate() {
        let Some(object) = document.as_object() else {
            continue;
        };
        let version = object.get("apiVersion").and_then(Value::as_str);
        let kind = object.get("kind").and_then(Value::as_str);
        if kind != Some("Preference") {
            continue;
        }
        let mut unknown = Vec::new();
        let read = match version {
            Some(V1BETA1) => v1beta1(object, &mut unknown),
            Some(V1ALPHA1) => v1alpha1(object, &mut unknown),
            _ => continue,
        };
        let Ok(preferences) = read else { continue };
        unknown.sort();
        let warning = (!unknown.is_empty()).then(|| {
            let fields: Vec<String> = unknown
                .iter()
                .map(|field| format!("unknown field \"{field}\""))
                .collect();
            format!(
                "kuberc: ignoring strict decoding error in {shown}: strict decoding error: {}",
                fields.join(", ")
            )
        });
        return Ok(Decoded {
            preferences,
            warning,
            entry: Some((index + 1, version.unwrap_or_default().to_string())),
        });
    }
    Err(NoValidPreferences)
}

/// A value of the wrong type somewhere in a document.
struct WrongType;

type Read<T> = Result<T, WrongType>;

fn v1beta1(object: &Map<String, Value>, unknown: &mut Vec<String>) -> Read<Preferences> {
    note_unknown(
        object,
        &[
            "apiVersion",
            "kind",
            "defaults",
            "aliases",
            "credentialPluginPolicy",
            "credentialPluginAllowlist",
        ],
        "",
        unknown,
    );
    let defaults = command_defaults(object, "defaults", "options", unknown)?;
    let aliases = list(
        object,
        "aliases",
        "aliases",
        unknown,
        |entry, at, unknown| alias(entry, "options", at, unknown),
    )?;
    let allowlist = match object.get("credentialPluginAllowlist") {
        None | Some(Value::Null) => None,
        Some(_) => Some(list(
            object,
            "credentialPluginAllowlist",
            "credentialPluginAllowlist",
            unknown,
            |entry, at, unknown| {
                note_unknown(entry, &["command", "name"], at, unknown);
                // 1.36 named the field `command`; `name` still reads, and the two must agree.
                let command = text(entry, "command")?;
                let name = text(entry, "name")?;
                match (command.is_empty(), name.is_empty()) {
                    (false, false) if command != name => Err(WrongType),
                    (true, _) => Ok(name),
                    _ => Ok(command),
                }
            },
        )?),
    };
    Ok(Preferences {
        defaults,
        aliases,
        plugin_policy: text(object, "credentialPluginPolicy")?,
        plugin_allowlist: allowlist,
    })
}

/// Each command's defaults, under `field` (`defaults`; v1alpha1's `overrides`), each entry's
/// options under `options_field` (`options`; v1alpha1's `flags`).
fn command_defaults(
    object: &Map<String, Value>,
    field: &str,
    options_field: &str,
    unknown: &mut Vec<String>,
) -> Read<Vec<CommandDefaults>> {
    list(object, field, field, unknown, |entry, at, unknown| {
        note_unknown(entry, &["command", options_field], at, unknown);
        Ok(CommandDefaults {
            command: text(entry, "command")?,
            options: options(entry, options_field, at, unknown)?,
        })
    })
}

/// v1alpha1: `overrides[].flags` for v1beta1's `defaults[].options`, `aliases[].flags` for
/// `options`, and no credential plugin policy.
fn v1alpha1(object: &Map<String, Value>, unknown: &mut Vec<String>) -> Read<Preferences> {
    note_unknown(
        object,
        &["apiVersion", "kind", "overrides", "aliases"],
        "",
        unknown,
    );
    let defaults = command_defaults(object, "overrides", "flags", unknown)?;
    let aliases = list(
        object,
        "aliases",
        "aliases",
        unknown,
        |entry, at, unknown| alias(entry, "flags", at, unknown),
    )?;
    Ok(Preferences {
        defaults,
        aliases,
        ..Preferences::default()
    })
}

fn alias(
    entry: &Map<String, Value>,
    options_field: &str,
    at: &str,
    unknown: &mut Vec<String>,
) -> Read<Alias> {
    note_unknown(
        entry,
        &[
            "name",
            "command",
            "prependArgs",
            "appendArgs",
            options_field,
        ],
        at,
        unknown,
    );
    Ok(Alias {
        name: text(entry, "name")?,
        command: text(entry, "command")?,
        prepend_args: texts(entry, "prependArgs")?,
        append_args: texts(entry, "appendArgs")?,
        options: options(entry, options_field, at, unknown)?,
    })
}

fn options(
    entry: &Map<String, Value>,
    field: &str,
    at: &str,
    unknown: &mut Vec<String>,
) -> Read<Vec<OptionDefault>> {
    list(
        entry,
        field,
        &format!("{at}.{field}"),
        unknown,
        |option, at, unknown| {
            note_unknown(option, &["name", "default"], at, unknown);
            Ok(OptionDefault {
                name: text(option, "name")?,
                default: text(option, "default")?,
            })
        },
    )
}

/// A list of objects (absent or null: none), each read by `read` with its path (`defaults[0]`).
fn list<T>(
    object: &Map<String, Value>,
    field: &str,
    path: &str,
    unknown: &mut Vec<String>,
    read: impl Fn(&Map<String, Value>, &str, &mut Vec<String>) -> Read<T>,
) -> Read<Vec<T>> {
    match object.get(field) {
        None | Some(Value::Null) => Ok(Vec::new()),
        Some(Value::Array(items)) => items
            .iter()
            .enumerate()
            .map(|(index, item)| match item {
                Value::Object(entry) => read(entry, &format!("{path}[{index}]"), unknown),
                Value::Null => read(&Map::new(), &format!("{path}[{index}]"), unknown),
                _ => Err(WrongType),
            })
            .collect(),
        Some(_) => Err(WrongType),
    }
}

/// A text field: absent or null is "", anything but a string is the wrong type.
fn text(object: &Map<String, Value>, field: &str) -> Read<String> {
    match object.get(field) {
        None | Some(Value::Null) => Ok(String::new()),
        Some(Value::String(text)) => Ok(text.clone()),
        Some(_) => Err(WrongType),
    }
}

fn texts(object: &Map<String, Value>, field: &str) -> Read<Vec<String>> {
    match object.get(field) {
        None | Some(Value::Null) => Ok(Vec::new()),
        Some(Value::Array(items)) => items
            .iter()
            .map(|item| match item {
                Value::String(text) => Ok(text.clone()),
                Value::Null => Ok(String::new()),
                _ => Err(WrongType),
            })
            .collect(),
        Some(_) => Err(WrongType),
    }
}

/// Records the fields of `object` that are not `known`, by their path from the document.
fn note_unknown(object: &Map<String, Value>, known: &[&str], at: &str, unknown: &mut Vec<String>) {
    for key in object.keys() {
        if !known.contains(&key.as_str()) {
            unknown.push(if at.is_empty() {
                key.clone()
            } else {
                format!("{at}.{key}")
            });
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const HEAD: &str = "apiVersion: kubectl.config.k8s.io/v1beta1\nkind: Preference\n";

    #[test]
    fn the_first_valid_preference_is_used() {
        let text = format!(
            "apiVersion: kubectl.config.k8s.io/v1beta1\nkind: Other\n---\n{HEAD}defaults:\n- command: get\n  options:\n  - name: output\n    default: name\n---\n{HEAD}defaults: []\n"
        );
        let decoded = decode(&text, "rc").unwrap();
        assert_eq!(decoded.preferences.defaults_of("get")[0].default, "name");
        assert_eq!(decoded.entry, Some((2, V1BETA1.to_string())));
    }

    #[test]
    fn unknown_fields_are_warned_of_sorted_and_wrong_types_invalidate() {
        let text = format!("{HEAD}foo: 1\nbar: 2\ndefaults:\n- command: get\n  zed: 1\n");
        let decoded = decode(&text, "m2").unwrap();
        assert_eq!(
            decoded.warning.as_deref(),
            Some("kuberc: ignoring strict decoding error in m2: strict decoding error: unknown field \"bar\", unknown field \"defaults[0].zed\", unknown field \"foo\"")
        );
        let wrong = format!("{HEAD}defaults:\n- command: get\n  options:\n  - name: show-labels\n    default: true\n");
        assert_eq!(decode(&wrong, "x"), Err(NoValidPreferences));
        assert_eq!(
            decode(&format!("{HEAD}defaults: 5\n"), "x"),
            Err(NoValidPreferences)
        );
        assert_eq!(decode("a: [", "x"), Err(NoValidPreferences));
        assert_eq!(decode("kind: Preference\n", "x"), Err(NoValidPreferences));
        assert!(decode("", "x").unwrap().entry.is_none());
    }

    #[test]
    fn v1alpha1_has_overrides_and_flags_and_no_policy() {
        let text = "apiVersion: kubectl.config.k8s.io/v1alpha1\nkind: Preference\noverrides:\n- command: get\n  flags:\n  - name: output\n    default: name\ncredentialPluginPolicy: DenyAll\n";
        let decoded = decode(text, "a").unwrap();
        assert_eq!(decoded.preferences.defaults_of("get").len(), 1);
        assert_eq!(decoded.preferences.plugin_policy, "");
        assert!(decoded
            .warning
            .unwrap()
            .ends_with("unknown field \"credentialPluginPolicy\""));
    }

    #[test]
    fn allowlist_entries_take_command_or_the_older_name() {
        let text = format!("{HEAD}credentialPluginPolicy: Allowlist\ncredentialPluginAllowlist:\n- command: a\n- name: b\n- {{name: c, command: c}}\n");
        let decoded = decode(&text, "x").unwrap().preferences;
        assert_eq!(decoded.plugin_allowlist.unwrap(), ["a", "b", "c"]);
        let clash = format!("{HEAD}credentialPluginAllowlist:\n- {{name: c, command: d}}\n");
        assert_eq!(decode(&clash, "x"), Err(NoValidPreferences));
        let null = format!("{HEAD}credentialPluginAllowlist: null\n");
        assert_eq!(
            decode(&null, "x").unwrap().preferences.plugin_allowlist,
            None
        );
    }
}
