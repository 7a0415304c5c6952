//! `kw demo`: the simulated cluster in-process, with churn, and `kw get` against it over TLS,
//! through the same runner and client path a real cluster uses.

use std::path::PathBuf;
use std::sync::OnceLock;

use clap::Parser;

use crate::cli::{Cli, Command, DemoArgs};
use crate::report::error::{KwError, UsageError};
use crate::report::outcome::Outcome;
use kw_client::config::flags::ConfigFlags;

/// How long each step of a demo's rollout lasts: slow enough to read along.
const ROLLOUT_BEAT: std::time::Duration = std::time::Duration::from_secs(1);

/// The temporary directory of a running `kw demo`, for the Ctrl-C handler to remove.
static DEMO_DIR: OnceLock<PathBuf> = OnceLock::new();

/// Ctrl-C, SIGTERM or SIGHUP: `kw demo` leaves no kubeconfig (with the simulator's tokens)
/// behind.
pub fn remove_leftovers() {
    if let Some(dir) = DEMO_DIR.get() {
        let _ = std::fs::remove_dir_all(dir);
    }
}

/// The demo's banner, on stderr under the first list (before the run with `--live`, whose
/// view owns the screen): what it runs, where the cluster is, what kw adds over kubectl, and the
/// next commands to try, each "Next," with its commands indented under it. Every line fits 80
/// columns (the command and the kubeconfig's path as long as they allow), and the whole of it
/// fits a 30-row screen under the list's last rows.
pub fn banner(command: &str, url: &str, kubeconfig: &str) -> String {
    format!(
        "kw demo: kubectl get -w that never drops an event, plus --live, --diff, --until\n\
         Running: {command}\n\
         on a simulated cluster at {url}; Ctrl-C stops it.\n\
         Next, the state in place:\n\
         \x20 kw demo -- pods -A --live\n\
         Next, a rollout judged as in CI:\n\
         \x20 kw demo --rollout crash-loop:db -- deploy/db --until ready --fail-on failed\n\
         Next, break a rollout from another shell, and let kw tell why it fails:\n\
         \x20 export KUBECONFIG={kubeconfig}\n\
         \x20 kubectl set image deploy/web web=nginx:1.99-missing\n\
         \x20 kw rollout status deploy/web\n"
    )
}

/// `kw get ARGS` as a shell would take it back: an argument with a space or a shell's special
/// character in single quotes.
fn command_line(get_args: &[String]) -> String {
    let quoted = get_args.iter().map(|arg| {
        let plain = !arg.is_empty()
            && arg
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || "-_=./:,@%+".contains(c));
        match plain {
            true => arg.clone(),
            false => format!("'{}'", arg.replace('\'', r"'\''")),
        }
    });
    std::iter::once("kw get".to_string())
        .chain(quoted)
        .collect::<Vec<_>>()
        .join(" ")
}

pub fn run(
    args: DemoArgs,
    outer: &ConfigFlags,
    notices: &kw_base::notices::Notices,
) -> Result<Outcome, KwError> {
    if let Some(flag) = outer.cluster_choice() {
        return Err(UsageError::DemoOwnCluster { flag }.into());
    }
    let config = kw_sim::SimConfig {
        churn: Some(args.churn),
        seed: args.seed,
        controller_beat: ROLLOUT_BEAT,
        ..kw_sim::SimConfig::default()
    };
    let rollouts = args
        .rollout
        .iter()
        .map(|text| {
            kw_sim::rollout::parse(text, ROLLOUT_BEAT).map_err(|reason| UsageError::DemoRollout {
                value: text.clone(),
                reason,
            })
        })
        .collect::<Result<Vec<_>, _>>()?;
    let sim = kw_sim::start(config).map_err(KwError::sim)?;
    for rollout in &rollouts {
        sim.play_rollout(rollout).map_err(KwError::sim)?;
    }
    // The kubeconfig holds the sim's tokens and client key: a fresh directory only the user
    // can enter, under a name nobody can plant in advance (mkdtemp, mode 0700).
    let mut builder = tempfile::Builder::new();
    builder.prefix("kw-demo-");
    #[cfg(unix)]
    builder.permissions(std::os::unix::fs::PermissionsExt::from_mode(0o700));
    let dir = builder
        .tempdir()
        .map_err(|error| UsageError::PrivateDirectory {
            dir: std::env::temp_dir().display().to_string(),
            error,
        })?;
    let _ = DEMO_DIR.set(dir.path().to_path_buf());
    let kubeconfig: PathBuf = dir.path().join("kubeconfig");
    sim.write_kubeconfig(&kubeconfig).map_err(KwError::sim)?;
    let get_args: Vec<String> = match args.get_args.is_empty() {
        true => ["pods", "-A", "--watch", "--output-watch-events"]
            .iter()
            .map(|s| s.to_string())
            .collect(),
        false => args.get_args.clone(),
    };
    let banner = banner(
        &command_line(&get_args),
        &sim.url(),
        &kubeconfig.display().to_string(),
    );
    let mut argv: Vec<String> = vec!["kw".into(), "get".into()];
    argv.extend(get_args);
    argv.push("--kubeconfig".into());
    argv.push(kubeconfig.display().to_string());
    let (get, mut config) = match Cli::try_parse_from(&argv) {
        Ok(Cli {
            command: Command::Get(get),
            config,
            ..
        }) => (get, config),
        Ok(_) => return Err(UsageError::DemoRunsGet.into()),
        Err(e) => {
            return Err(UsageError::DemoArguments(e.to_string().trim_end().to_string()).into())
        }
    };
    // `kw -n team-a demo` and `kw demo -- pods -n team-a` mean the same.
    config.namespace = config.namespace.or_else(|| outer.namespace.clone());
    config.request_timeout = config
        .request_timeout
        .or_else(|| outer.request_timeout.clone());
    // Under the first list, which would otherwise scroll it off at once; the live view owns the
    // screen, so there it comes first.
    let after_listing = match get.live {
        true => {
            eprint!("{banner}");
            None
        }
        false => Some(banner),
    };
    let result = crate::run::get_saying(&get, &config, notices, after_listing);
    // The run is over, but its watchers' threads still hold connections to the sim: stopping
    // the sim would make them say `the connection ... broke; resuming` under the story the
    // demo just told. Nothing they say now is news: their notices are held, never written.
    notices.hold();
    sim.stop();
    drop(dir);
    result
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_banner_fits_80_columns_and_hints_the_next_commands() {
        let command = command_line(&[
            "pods".into(),
            "-A".into(),
            "--watch".into(),
            "--output-watch-events".into(),
        ]);
        let text = banner(
            &command,
            "https://127.0.0.1:43567",
            "/tmp/kw-demo-AbC123/kubeconfig",
        );
        for line in text.lines() {
            assert!(line.chars().count() <= 80, "{line:?}");
        }
        assert!(text.contains("\nRunning: kw get pods -A --watch --output-watch-events\n"));
        assert!(text.contains("\n  kw demo -- pods -A --live\n"), "{text}");
        assert!(text.contains(
            "\n  kw demo --rollout crash-loop:db -- deploy/db --until ready --fail-on failed\n"
        ));
        assert!(text.contains("https://127.0.0.1:43567"));
        assert!(text.contains("\n  kubectl set image deploy/web web=nginx:1.99-missing\n"));
        // Every "Next," is laid out one way: its own line, its commands indented under it.
        for (at, line) in text.lines().enumerate() {
            if line.starts_with("Next,") {
                assert!(line.ends_with(':'), "{line:?}");
                let next = text.lines().nth(at + 1).unwrap_or_default();
                assert!(
                    next.starts_with("  kw ") || next.starts_with("  export "),
                    "{next:?}"
                );
            }
        }
        assert!(text.lines().count() <= 11, "{text}");
    }

    #[test]
    fn the_command_is_shown_as_a_shell_takes_it() {
        let args = [
            "pods".to_string(),
            "-l".into(),
            "app in (web)".into(),
            "-w".into(),
        ];
        assert_eq!(command_line(&args), "kw get pods -l 'app in (web)' -w");
        assert_eq!(command_line(&["it's".to_string()]), r"kw get 'it'\''s'");
    }
}
