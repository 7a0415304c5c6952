//! The flags kubectl 1.37 takes for the verbs kw shares with it (`get`, `logs`, `wait`, `rollout
//! status`, `version`) and its global ones (`kubectl options`), as its `--help` lists them: a
//! command line that kw refuses only for such a flag is kubectl's, and goes to kubectl whole
//! (`refused`). A test walks the pinned kubectl's pages against these tables, so a flag a later
//! kubectl adds is noticed.

/// One flag of kubectl's: `-k, --kustomize=''` is `flag(Some('k'), "kustomize", VALUE)`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct KubectlFlag {
    pub short: Option<char>,
    pub long: &'static str,
    /// Whether it takes a value (`--raw /version`), rather than being a pflag boolean, which
    /// takes one only after `=`.
    pub takes_value: bool,
}

const VALUE: bool = true;
const BOOL: bool = false;

const fn flag(short: Option<char>, long: &'static str, takes_value: bool) -> KubectlFlag {
    KubectlFlag {
        short,
        long,
        takes_value,
    }
}

/// `kubectl get --help`.
pub const GET: &[KubectlFlag] = &[
    flag(Some('A'), "all-namespaces", BOOL),
    flag(None, "allow-missing-template-keys", BOOL),
    flag(None, "chunk-size", VALUE),
    flag(None, "field-selector", VALUE),
    flag(Some('f'), "filename", VALUE),
    flag(None, "ignore-not-found", BOOL),
    flag(Some('k'), "kustomize", VALUE),
    flag(Some('L'), "label-columns", VALUE),
    flag(None, "no-headers", BOOL),
    flag(Some('o'), "output", VALUE),
    flag(None, "output-watch-events", BOOL),
    flag(None, "raw", VALUE),
    flag(Some('R'), "recursive", BOOL),
    flag(Some('l'), "selector", VALUE),
    flag(None, "server-print", BOOL),
    flag(None, "show-kind", BOOL),
    flag(None, "show-labels", BOOL),
    flag(None, "show-managed-fields", BOOL),
    flag(None, "sort-by", VALUE),
    flag(None, "subresource", VALUE),
    flag(None, "template", VALUE),
    flag(Some('w'), "watch", BOOL),
    flag(None, "watch-only", BOOL),
];

/// `kubectl logs --help`.
pub const LOGS: &[KubectlFlag] = &[
    flag(None, "all-containers", BOOL),
    flag(None, "all-pods", BOOL),
    flag(Some('c'), "container", VALUE),
    flag(Some('f'), "follow", BOOL),
    flag(None, "ignore-errors", BOOL),
    flag(None, "insecure-skip-tls-verify-backend", BOOL),
    flag(None, "limit-bytes", VALUE),
    flag(None, "max-log-requests", VALUE),
    flag(None, "pod-running-timeout", VALUE),
    flag(None, "prefix", BOOL),
    flag(Some('p'), "previous", BOOL),
    flag(Some('l'), "selector", VALUE),
    flag(None, "since", VALUE),
    flag(None, "since-time", VALUE),
    flag(None, "tail", VALUE),
    flag(None, "timestamps", BOOL),
];

/// `kubectl wait --help`.
pub const WAIT: &[KubectlFlag] = &[
    flag(None, "all", BOOL),
    flag(Some('A'), "all-namespaces", BOOL),
    flag(None, "allow-missing-template-keys", BOOL),
    flag(None, "field-selector", VALUE),
    flag(Some('f'), "filename", VALUE),
    flag(None, "for", VALUE),
    flag(None, "local", BOOL),
    flag(Some('o'), "output", VALUE),
    flag(Some('R'), "recursive", BOOL),
    flag(Some('l'), "selector", VALUE),
    flag(None, "show-managed-fields", BOOL),
    flag(None, "template", VALUE),
    flag(None, "timeout", VALUE),
];

/// `kubectl rollout status --help`.
pub const ROLLOUT_STATUS: &[KubectlFlag] = &[
    flag(Some('f'), "filename", VALUE),
    flag(Some('k'), "kustomize", VALUE),
    flag(Some('R'), "recursive", BOOL),
    flag(None, "revision", VALUE),
    flag(Some('l'), "selector", VALUE),
    flag(None, "timeout", VALUE),
    flag(Some('w'), "watch", BOOL),
];

/// `kubectl version --help`.
pub const VERSION: &[KubectlFlag] = &[flag(None, "client", BOOL), flag(Some('o'), "output", VALUE)];

/// `kubectl options`: the flags every verb takes.
pub const GLOBAL: &[KubectlFlag] = &[
    flag(None, "as", VALUE),
    flag(None, "as-group", VALUE),
    flag(None, "as-uid", VALUE),
    flag(None, "as-user-extra", VALUE),
    flag(None, "cache-dir", VALUE),
    flag(None, "certificate-authority", VALUE),
    flag(None, "client-certificate", VALUE),
    flag(None, "client-key", VALUE),
    flag(None, "cluster", VALUE),
    flag(None, "context", VALUE),
    flag(None, "disable-compression", BOOL),
    flag(None, "insecure-skip-tls-verify", BOOL),
    flag(None, "kubeconfig", VALUE),
    flag(None, "kuberc", VALUE),
    flag(None, "log-flush-frequency", VALUE),
    flag(None, "match-server-version", BOOL),
    flag(Some('n'), "namespace", VALUE),
    flag(None, "password", VALUE),
    flag(None, "profile", VALUE),
    flag(None, "profile-output", VALUE),
    flag(None, "proxy-url", VALUE),
    flag(None, "request-timeout", VALUE),
    flag(Some('s'), "server", VALUE),
    flag(None, "tls-server-name", VALUE),
    flag(None, "token", VALUE),
    flag(None, "user", VALUE),
    flag(None, "username", VALUE),
    flag(Some('v'), "v", VALUE),
    flag(None, "vmodule", VALUE),
    flag(None, "warnings-as-errors", BOOL),
];

/// The verbs kw shares with kubectl, by the path clap names them with, and their tables.
pub const VERBS: &[(&str, &[KubectlFlag])] = &[
    ("get", GET),
    ("logs", LOGS),
    ("wait", WAIT),
    ("rollout status", ROLLOUT_STATUS),
    ("version", VERSION),
];

/// kubectl's flags for `verb` (`"rollout status"`), global ones included; none for a verb
/// kubectl does not share with kw (`sim`).
pub fn of_verb(verb: &str) -> impl Iterator<Item = &'static KubectlFlag> {
    let own = VERBS
        .iter()
        .find(|(name, _)| *name == verb)
        .map(|(_, flags)| *flags);
    own.into_iter()
        .flatten()
        .chain(own.map(|_| GLOBAL).into_iter().flatten())
}

/// The flag `arg` spells (`--raw`, `--raw=/version`, `-k`, `-kdir`), among `flags`.
pub fn spelled<'a>(
    arg: &str,
    mut flags: impl Iterator<Item = &'a KubectlFlag>,
) -> Option<&'a KubectlFlag> {
    if let Some(long) = arg.strip_prefix("--") {
        let name = long.split_once('=').map_or(long, |(name, _)| name);
        flags.find(|flag| flag.long == name)
    } else {
        let short = arg.strip_prefix('-')?.chars().next()?;
        flags.find(|flag| flag.short == Some(short))
    }
}

/// Whether the word after `arg` (a spelling of `flag`) is its value: `--raw /version`, not
/// `--raw=/version`, `-kdir` or a boolean.
pub fn takes_next(arg: &str, flag: &KubectlFlag) -> bool {
    flag.takes_value
        && if arg.starts_with("--") {
            !arg.contains('=')
        } else {
            arg.chars().count() == 2
        }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn flags_are_found_as_kubectl_spells_them() {
        let raw = spelled("--raw=/version", of_verb("get")).expect("raw");
        assert_eq!(raw.long, "raw");
        assert!(!takes_next("--raw=/version", raw));
        assert!(takes_next("--raw", raw));
        let print = spelled("--server-print", of_verb("get")).expect("server-print");
        assert!(!takes_next("--server-print", print));
        let kustomize = spelled("-k", of_verb("rollout status")).expect("k");
        assert_eq!(kustomize.long, "kustomize");
        assert!(!takes_next("-kdir/", kustomize));
        assert!(takes_next("-k", kustomize));
        assert!(spelled("--vmodule=x", of_verb("wait")).is_some());
        assert!(spelled("-k", of_verb("wait")).is_none());
        assert!(spelled("--raw", of_verb("sim")).is_none());
        assert!(spelled("--until", of_verb("get")).is_none());
    }
}
