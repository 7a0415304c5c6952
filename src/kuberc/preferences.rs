//! What a kuberc says, in kubectl's v1beta1 terms (a v1alpha1 file's `overrides` and `flags`
//! are read into the same): per-command defaults, aliases, and the credential plugin policy as
//! written (checked by `kw_client`'s `PluginPolicy::from_kuberc`).

/// One option's default (`name` is the long flag without dashes; `default` is text, parsed as
/// the flag parses it).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct OptionDefault {
    pub name: String,
    pub default: String,
}

/// `defaults[]`: a command (`get`, `rollout status`) and its options' defaults.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct CommandDefaults {
    pub command: String,
    pub options: Vec<OptionDefault>,
}

/// `aliases[]`: `kubectl NAME ARGS` runs `COMMAND PREPEND ARGS APPEND` with `options` as its
/// defaults (the `defaults` section does not apply to it).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Alias {
    pub name: String,
    pub command: String,
    pub prepend_args: Vec<String>,
    pub append_args: Vec<String>,
    pub options: Vec<OptionDefault>,
}

/// One kuberc document, read.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Preferences {
    pub defaults: Vec<CommandDefaults>,
    pub aliases: Vec<Alias>,
    /// `credentialPluginPolicy`, as written ("" when absent).
    pub plugin_policy: String,
    /// `credentialPluginAllowlist`: `None` when absent or null, as Go's nil slice.
    pub plugin_allowlist: Option<Vec<String>>,
}

impl Preferences {
    /// The defaults kuberc gives `command` (a verb's path: `rollout status`).
    pub fn defaults_of(&self, command: &str) -> Vec<OptionDefault> {
        self.defaults
            .iter()
            .filter(|entry| entry.command == command)
            .flat_map(|entry| entry.options.iter().cloned())
            .collect()
    }
}
