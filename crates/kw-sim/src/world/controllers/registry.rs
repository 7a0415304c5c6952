//! The sim's image registry and what a container does once started, read off the Pod spec as a
//! user writes it, so a manifest or a `kubectl set image` chooses the story:
//!
//! - An image **does not exist** (ErrImagePull, then ImagePullBackOff) when its repository is
//!   not one the registry holds, or its name says so (`missing`, `nonexistent`,
//!   `does-not-exist`, `typo`): `nginx:1.99-missing`, `registry.example/app:1`.
//! - A container **crashes** (exit 1, CrashLoopBackOff) when its command or args end in
//!   `exit N` with N > 0 (`sh -c "exit 1"`), or its image's name holds `crash`.
//! - Otherwise it pulls, starts and is ready; a Job's container runs and exits 0.
//! - What a started container **prints** (`printer`): a Deployment's (`restartPolicy: Always`)
//!   writes `CONTAINER line N` once a second while it runs; its environment can say otherwise,
//!   for any container: `KW_SIM_LOG_EVERY` (`100ms`, `2s`, `10us`), `KW_SIM_LOG_LINES` (then it stops,
//!   and a Job's container exits 0 once they are written), `KW_SIM_LOG_TEXT` (`{n}` is the
//!   line's number) and `KW_SIM_LOG_TAIL_BYTES` (a last write of that many `x` with no newline).

use std::time::Duration;

use serde_json::Value;

use crate::world::container_logs::Printer;

/// Repositories the registry holds (any tag), as short names or under docker.io's library.
const REPOSITORIES: &[&str] = &[
    "nginx",
    "busybox",
    "alpine",
    "redis",
    "postgres",
    "httpd",
    "memcached",
    "perl",
    "python",
    "ubuntu",
    "debian",
    "registry.k8s.io/pause",
    "registry.k8s.io/e2e-test-images/agnhost",
    "ghcr.io/kw-demo/web",
    "ghcr.io/kw-demo/shop",
    "ghcr.io/kw-demo/crash",
];

const MISSING_WORDS: &[&str] = &["missing", "nonexistent", "does-not-exist", "typo"];

/// Whether `image` can be pulled.
pub fn exists(image: &str) -> bool {
    if image.is_empty() || MISSING_WORDS.iter().any(|word| image.contains(word)) {
        return false;
    }
    let name = image.split('@').next().unwrap_or(image);
    // The tag is after the last ':' that comes after the last '/' (a port has a '/' after it).
    let repository = match (name.rfind(':'), name.rfind('/')) {
        (Some(colon), slash) if slash.is_none_or(|slash| colon > slash) => &name[..colon],
        _ => name,
    };
    let repository = repository
        .strip_prefix("docker.io/library/")
        .or_else(|| repository.strip_prefix("docker.io/"))
        .unwrap_or(repository);
    REPOSITORIES.contains(&repository)
}

/// Whether a container with this spec exits with a failure once started.
pub fn crashes(container: &Value) -> bool {
    if container["image"]
        .as_str()
        .is_some_and(|image| image.contains("crash"))
    {
        return true;
    }
    let words: Vec<&str> = ["command", "args"]
        .iter()
        .filter_map(|field| container[field].as_array())
        .flatten()
        .filter_map(Value::as_str)
        .flat_map(str::split_whitespace)
        .collect();
    words.windows(2).any(|pair| {
        pair[0].trim_start_matches(';') == "exit"
            && pair[1]
                .trim_end_matches(';')
                .parse::<u32>()
                .is_ok_and(|code| code > 0)
    })
}

/// What a crashing container printed before it exited: a crash image's complaint, nothing for
/// a shell told to `exit`.
pub fn crash_output(container: &Value) -> Vec<String> {
    let image = container["image"].as_str().unwrap_or("");
    if !image.contains("crash") {
        return Vec::new();
    }
    vec![
        format!("{image} starting"),
        "loading configuration from /etc/app/config.yaml".into(),
        "error: config key \"listen\" is missing".into(),
        "exit status 1".into(),
    ]
}

/// The longest unterminated last write a container may ask for.
const MAX_TAIL_BYTES: usize = 64 << 20;

/// How a started container writes its log (`None`: it prints nothing as it runs).
pub fn printer(container: &Value, restart_policy: &str) -> Option<Printer> {
    let env = |name: &str| {
        container["env"]
            .as_array()
            .into_iter()
            .flatten()
            .find(|var| var["name"] == name)
            .and_then(|var| var["value"].as_str())
    };
    let asked = [
        "KW_SIM_LOG_EVERY",
        "KW_SIM_LOG_LINES",
        "KW_SIM_LOG_TEXT",
        "KW_SIM_LOG_TAIL_BYTES",
    ]
    .iter()
    .any(|name| env(name).is_some());
    if !asked && restart_policy != "Always" {
        return None;
    }
    let every = env("KW_SIM_LOG_EVERY")
        .and_then(|text| {
            let (number, unit) = text.split_at(text.find(|c: char| !c.is_ascii_digit())?);
            let number: u64 = number.parse().ok()?;
            match unit {
                // Microseconds: a printer fast enough for a benchmark to saturate its reader.
                "us" => Some(Duration::from_micros(number)),
                "ms" => Some(Duration::from_millis(number)),
                "s" => Some(Duration::from_secs(number)),
                _ => None,
            }
        })
        .unwrap_or(Duration::from_secs(1));
    let name = container["name"].as_str().unwrap_or("");
    Some(Printer {
        every,
        lines: env("KW_SIM_LOG_LINES").and_then(|n| n.parse().ok()),
        text: env("KW_SIM_LOG_TEXT").map_or_else(|| format!("{name} line {{n}}"), str::to_string),
        tail: env("KW_SIM_LOG_TAIL_BYTES")
            .and_then(|n| n.parse::<usize>().ok())
            .map(|bytes| "x".repeat(bytes.min(MAX_TAIL_BYTES))),
    })
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn known_repositories_pull_and_others_do_not() {
        assert!(exists("nginx:1.27"));
        assert!(exists("docker.io/library/nginx:1.28"));
        assert!(exists("busybox"));
        assert!(exists("registry.k8s.io/pause:3.10"));
        assert!(exists("nginx@sha256:abc"));
        assert!(!exists("nginx:1.99-missing"));
        assert!(!exists("registry.example:5000/app:1"));
        assert!(!exists("ngnix:1.27"));
        assert!(!exists(""));
    }

    #[test]
    fn a_failing_exit_or_a_crash_image_crashes() {
        assert!(crashes(
            &json!({"image": "busybox", "command": ["sh", "-c", "exit 1"]})
        ));
        assert!(crashes(
            &json!({"image": "busybox", "args": ["echo hi; exit 3"]})
        ));
        assert!(crashes(&json!({"image": "ghcr.io/kw-demo/crash:1"})));
        assert!(!crashes(
            &json!({"image": "busybox", "command": ["sh", "-c", "exit 0"]})
        ));
        assert!(!crashes(&json!({"image": "nginx:1.27"})));
    }
}
