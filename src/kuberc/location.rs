//! Which kuberc kubectl 1.37 reads: `--kuberc PATH`, else `$KUBERC`, else `~/.kube/kuberc`.
//! `KUBERC=off` reads none (and refuses `--kuberc` beside it); `KUBECTL_KUBERC=false` turns the
//! feature off, the flag with it. A file named by the flag or `$KUBERC` must be readable and
//! valid; the one at the default place may be missing, and a bad one there is only warned of.

use std::path::PathBuf;

use super::error::KubercError;

/// The flag: `--kuberc PATH` or `--kuberc=PATH`.
pub const FLAG: &str = "--kuberc";

/// Where the preferences come from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Source {
    /// None is read.
    Off,
    /// Named by the flag or `$KUBERC`: it must be there and valid.
    Named(PathBuf),
    /// `~/.kube/kuberc`: may be missing; a bad one is warned of and left out.
    Default(PathBuf),
}

/// The last `--kuberc` of `args` (the command line after the program), before any `--`.
pub fn flag_value(args: &[String]) -> Option<String> {
    let mut value = None;
    let mut words = args.iter().take_while(|word| *word != "--");
    while let Some(word) = words.next() {
        if word == FLAG {
            value = Some(words.next().cloned().unwrap_or_default());
        } else if let Some(given) = word.strip_prefix("--kuberc=") {
            value = Some(given.to_string());
        }
    }
    value
}

/// The source of `flag` (the flag's value), the environment and the home directory.
pub fn locate(
    flag: Option<&str>,
    env: impl Fn(&str) -> Option<String>,
    home: Option<PathBuf>,
) -> Result<Source, KubercError> {
    // kubectl reads the gate with strconv.ParseBool; what it cannot read leaves it on.
    let gate_off = env("KUBECTL_KUBERC").is_some_and(|value| {
        matches!(
            value.as_str(),
            "0" | "f" | "F" | "false" | "FALSE" | "False"
        )
    });
    if gate_off {
        return match flag {
            Some(_) => Err(KubercError::FlagTurnedOff),
            None => Ok(Source::Off),
        };
    }
    let variable = env("KUBERC");
    if variable.as_deref() == Some("off") {
        return match flag {
            Some(_) => Err(KubercError::OffAndFlag),
            None => Ok(Source::Off),
        };
    }
    match flag {
        Some("") => return Err(KubercError::EmptyPath),
        Some(path) => return Ok(Source::Named(PathBuf::from(path))),
        None => {}
    }
    if let Some(path) = variable.filter(|path| !path.is_empty()) {
        return Ok(Source::Named(PathBuf::from(path)));
    }
    Ok(match home {
        Some(home) => Source::Default(home.join(".kube").join("kuberc")),
        None => Source::Off,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn env<'a>(vars: &'a [(&'a str, &'a str)]) -> impl Fn(&str) -> Option<String> + 'a {
        move |name| {
            vars.iter()
                .find(|(n, _)| *n == name)
                .map(|(_, v)| v.to_string())
        }
    }

    #[test]
    fn flag_then_variable_then_home() {
        let home = Some(PathBuf::from("/h"));
        assert_eq!(
            locate(Some("f"), env(&[("KUBERC", "v")]), home.clone()),
            Ok(Source::Named("f".into()))
        );
        assert_eq!(
            locate(None, env(&[("KUBERC", "v")]), home.clone()),
            Ok(Source::Named("v".into()))
        );
        assert_eq!(
            locate(None, env(&[]), home.clone()),
            Ok(Source::Default("/h/.kube/kuberc".into()))
        );
        assert_eq!(
            locate(None, env(&[("KUBERC", "off")]), home.clone()),
            Ok(Source::Off)
        );
        assert_eq!(
            locate(Some("f"), env(&[("KUBERC", "off")]), home.clone()),
            Err(KubercError::OffAndFlag)
        );
        assert_eq!(
            locate(None, env(&[("KUBECTL_KUBERC", "false")]), home.clone()),
            Ok(Source::Off)
        );
        assert_eq!(
            locate(Some("f"), env(&[("KUBECTL_KUBERC", "false")]), home.clone()),
            Err(KubercError::FlagTurnedOff)
        );
        assert_eq!(
            locate(Some(""), env(&[]), home),
            Err(KubercError::EmptyPath)
        );
    }

    #[test]
    fn the_last_flag_before_a_double_dash_counts() {
        let words = |line: &str| line.split(' ').map(String::from).collect::<Vec<_>>();
        assert_eq!(
            flag_value(&words("get --kuberc a --kuberc=b pods")),
            Some("b".into())
        );
        assert_eq!(flag_value(&words("--kuberc a get")), Some("a".into()));
        assert_eq!(flag_value(&words("get -- --kuberc a")), None);
    }
}
