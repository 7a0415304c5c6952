//! Every flag the pinned kubectl (1.37) takes for `get`, `wait`, `rollout status` and
//! `version`, and every global one (`kubectl options`), is taken by kw: done as kubectl does
//! it, or the command line handed to kubectl whole (with a `-v` line saying so), never refused
//! with clap's usage error. A script with `KUBECTL=kw` then runs every line. Each handed-on flag
//! is named in docs/reference.md's "How kw differs from kubectl".

use std::path::Path;
use std::process::Stdio;
use std::time::Duration;

use kw::passthrough::kubectl_flags::{self, KubectlFlag};

use crate::harness::{self, run, Cluster};

const LIMIT: Duration = Duration::from_secs(30);

/// A flag as kubectl's help page lists it (`    -k, --kustomize='':`).
#[derive(Debug, PartialEq, Eq, PartialOrd, Ord)]
struct Listed {
    long: String,
    short: Option<char>,
    boolean: bool,
}

/// The flags of `kubectl ARGS --help` (or `kubectl options`).
fn listed(args: &[&str]) -> Vec<Listed> {
    let out = crate::harness::tools::command(harness::kubectl())
        .args(args)
        .stdin(Stdio::null())
        .output()
        .expect("kubectl runs");
    let page = String::from_utf8(out.stdout).expect("utf-8");
    let mut flags: Vec<Listed> = page
        .lines()
        .filter_map(|line| {
            let line = line.trim_start();
            let (short, rest) = match line.strip_prefix('-') {
                Some(rest) if !rest.starts_with('-') => {
                    let short = rest.chars().next()?;
                    (Some(short), rest.get(1..)?.strip_prefix(", ")?)
                }
                _ => (None, line),
            };
            let (long, default) = rest.strip_prefix("--")?.split_once('=')?;
            let default = default.strip_suffix(':')?;
            Some(Listed {
                long: long.to_string(),
                short,
                boolean: default == "true" || default == "false",
            })
        })
        .collect();
    flags.sort();
    assert!(flags.len() > 1, "no flags in kubectl {args:?}:\n{page}");
    flags
}

fn ours(table: &[KubectlFlag]) -> Vec<Listed> {
    let mut flags: Vec<Listed> = table
        .iter()
        .map(|flag| Listed {
            long: flag.long.to_string(),
            short: flag.short,
            boolean: !flag.takes_value,
        })
        .collect();
    flags.sort();
    flags
}

/// kw's tables are the pinned kubectl's pages: a flag a later kubectl adds is noticed here.
#[test]
fn kws_tables_are_kubectls_pages() {
    for (verb, table) in kubectl_flags::VERBS {
        let mut args: Vec<&str> = verb.split(' ').collect();
        args.push("--help");
        assert_eq!(ours(table), listed(&args), "kubectl {verb}");
    }
    assert_eq!(ours(kubectl_flags::GLOBAL), listed(&["options"]));
}

/// A value kubectl would take for `flag`, in a directory where files can be made.
fn plausible_value(flag: &str, dir: &Path) -> String {
    let path = |name: &str| dir.join(name).to_string_lossy().into_owned();
    match flag {
        "output" => "name".into(),
        "chunk-size" => "10".into(),
        "field-selector" => "metadata.name=web".into(),
        "filename" => path("manifest.yaml"),
        "kustomize" => dir.to_string_lossy().into_owned(),
        "label-columns" => "app".into(),
        "raw" => "/version".into(),
        "selector" => "app=web".into(),
        "sort-by" => ".metadata.name".into(),
        "subresource" => "status".into(),
        "template" => "{{.metadata.name}}".into(),
        "for" => "condition=Available".into(),
        "timeout" => "2s".into(),
        "container" => "app".into(),
        "limit-bytes" => "10".into(),
        "max-log-requests" => "2".into(),
        "pod-running-timeout" => "5s".into(),
        "since" => "1h".into(),
        "since-time" => "2026-01-01T00:00:00Z".into(),
        "tail" => "1".into(),
        "revision" => "1".into(),
        "as" => "someone".into(),
        "as-group" | "as-uid" | "user" | "username" | "password" | "token" => "x".into(),
        "as-user-extra" => "k=v".into(),
        "cache-dir" => path("cache"),
        "certificate-authority" | "client-certificate" | "client-key" => path("none.pem"),
        "cluster" | "context" => "nope".into(),
        "kubeconfig" => path("kubeconfig"),
        "kuberc" => path("kuberc"),
        "log-flush-frequency" => "5s".into(),
        "namespace" => "default".into(),
        "profile" => "none".into(),
        "profile-output" => path("profile.pprof"),
        "proxy-url" => "http://127.0.0.1:1".into(),
        "request-timeout" => "5s".into(),
        "server" => "https://127.0.0.1:1".into(),
        "tls-server-name" => "localhost".into(),
        "v" => "1".into(),
        "vmodule" => "get=1".into(),
        other => panic!("no plausible value for --{other}: add one"),
    }
}

/// The words of a command line of `verb` that kubectl takes, before the flag under test.
fn base(verb: &str) -> Vec<&str> {
    match verb {
        "get" => vec!["get", "deploy", "web", "-n", "default"],
        "wait" => vec!["wait", "deploy/web", "-n", "default", "--timeout=5s"],
        "rollout status" => vec!["rollout", "status", "deploy/web", "-n", "default"],
        // A selector of no Pod: a followed log would not end.
        "logs" => vec!["logs", "-l", "app=none", "-n", "default"],
        _ => vec![verb],
    }
}

const HANDED_ON: &str = "handing the command line to kubectl";

#[test]
fn no_flag_of_kubectls_is_refused_as_unknown() {
    let cluster = Cluster::seeded();
    let dir = cluster.dir.path();
    std::fs::write(
        dir.join("manifest.yaml"),
        "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: web, namespace: default}\n",
    )
    .expect("manifest");
    std::fs::write(
        dir.join("kustomization.yaml"),
        "resources: [manifest.yaml]\n",
    )
    .expect("kustomization");
    let reference =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/reference.md"))
            .expect("reference");
    let differs = reference
        .split("## How kw differs from kubectl")
        .nth(1)
        .and_then(|rest| rest.split("\n## ").next())
        .expect("the differs section");
    let (mut handed, mut refused, mut undocumented) = (Vec::new(), Vec::new(), Vec::new());
    for (verb, table) in kubectl_flags::VERBS {
        for flag in table.iter().chain(kubectl_flags::GLOBAL) {
            let long = format!("--{}", flag.long);
            // Each spelling kubectl takes: `--flag=value` and `-f value` (or `--flag value`);
            // a boolean alone and with `=false`.
            let lines = if flag.takes_value {
                let value = plausible_value(flag.long, dir);
                let spelled = flag.short.map_or(long.clone(), |short| format!("-{short}"));
                vec![vec![format!("{long}={value}")], vec![spelled, value]]
            } else {
                vec![vec![long.clone()], vec![format!("{long}=false")]]
            };
            for words in lines {
                let mut kw = cluster.kw();
                kw.env("KW_KUBECTL", harness::kubectl())
                    .args(base(verb))
                    .args(&words)
                    .arg("--request-timeout=3s")
                    .arg("--v=1");
                if flag.long != "kubeconfig" {
                    kw.arg("--kubeconfig").arg(&cluster.kubeconfig);
                }
                let outcome = run(kw, LIMIT);
                let line = format!("kw {verb} {}", words.join(" "));
                if ["unexpected argument", "\nUsage: kw", "tip:"]
                    .iter()
                    .any(|clap| outcome.stderr.contains(clap))
                {
                    refused.push(format!("{line} ({:?}):\n{}", outcome.code, outcome.stderr));
                }
                if outcome.stderr.contains(HANDED_ON) {
                    if !differs.contains(&format!("`--{}`", flag.long)) {
                        undocumented.push(line);
                    }
                    handed.push(format!("{verb} --{}", flag.long));
                }
            }
        }
    }
    assert!(
        refused.is_empty(),
        "refused as clap refuses:\n{}",
        refused.join("\n")
    );
    assert!(
        undocumented.is_empty(),
        "handed to kubectl, and not named in \"How kw differs from kubectl\":\n{}",
        undocumented.join("\n")
    );
    // The ones issue 56 found: handed on, not refused.
    for must in ["get --raw", "get --kustomize"] {
        assert!(handed.iter().any(|h| h == must), "{must}: {handed:?}");
    }
}
