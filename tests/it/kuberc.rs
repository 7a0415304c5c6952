//! The user's kuberc (issue 57), through the real kw against `kw sim`, compared with the pinned
//! kubectl 1.37.1 run live on the same simulated state: the same stdout and stderr byte for
//! byte (and both succeed or both fail) for `defaults` of kw's verbs, `aliases` (of kw's verbs,
//! and of kubectl's, handed on as typed) and every kuberc error kubectl words. Then the
//! credential plugin policy: a plugin the policy refuses is never started, for one context and
//! for a fleet of three, and kw says what kubectl says.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

use serde_json::json;

use crate::harness::{self, run, Cluster, Outcome};

const LIMIT: Duration = Duration::from_secs(30);

const HEAD: &str = "apiVersion: kubectl.config.k8s.io/v1beta1\nkind: Preference\n";

/// A kuberc used by the cases: defaults for `get`, `wait` and `rollout status`, and aliases of
/// kw's verbs and of kubectl's.
const PREFERENCES: &str = "defaults:
- command: get
  options:
  - name: output
    default: wide
- command: wait
  options:
  - name: for
    default: condition=Ready
- command: rollout status
  options:
  - name: watch
    default: \"false\"
aliases:
- name: getn
  command: get
  prependArgs: [namespaces]
  options:
  - name: output
    default: name
- name: gp
  command: get
  prependArgs: [pods]
  appendArgs: [--show-labels]
- name: desc
  command: describe
  prependArgs: [namespace]
- name: rs
  command: rollout status
- name: get
  command: version
";

/// How a case reads its kuberc.
enum Via {
    /// `KUBERC=PATH` (an alias must be the first word: no flag before it).
    Variable,
    /// `--kuberc PATH` after the arguments.
    Flag,
    /// `~/.kube/kuberc`.
    Home,
}

struct Case {
    name: &'static str,
    /// The file's text (`None`: no file at the path given).
    kuberc: Option<String>,
    via: Via,
    args: &'static [&'static str],
    /// Extra environment for both.
    env: &'static [(&'static str, &'static str)],
}

fn case(name: &'static str, kuberc: &str, via: Via, args: &'static [&'static str]) -> Case {
    Case {
        name,
        kuberc: Some(kuberc.to_string()),
        via,
        args,
        env: &[],
    }
}

/// One client's run of a case in `dir` (its own HOME and discovery cache).
fn run_client(cluster: &Cluster, case: &Case, kw: bool, dir: &Path) -> Outcome {
    // One home for both: kubectl's words name the file.
    let home = dir.join("home");
    std::fs::create_dir_all(home.join(".kube")).unwrap();
    let file = match case.via {
        Via::Home => home.join(".kube/kuberc"),
        _ => dir.join("kuberc"),
    };
    if let Some(text) = &case.kuberc {
        std::fs::write(&file, text).unwrap();
    }
    let mut command: Command = if kw {
        let mut command = cluster.kw();
        // A handed verb goes to the reference kubectl.
        command.env("KW_KUBECTL", harness::kubectl());
        command
    } else {
        harness::tools::command(harness::kubectl())
    };
    command
        .current_dir(dir)
        .env("HOME", &home)
        .env("KUBECACHEDIR", home.join("cache"))
        .env("KUBECONFIG", &cluster.kubeconfig)
        .env_remove("KUBERC")
        .args(case.args);
    match case.via {
        Via::Variable => {
            command.env("KUBERC", &file);
        }
        Via::Flag => {
            command.arg("--kuberc").arg(&file);
        }
        Via::Home => {}
    }
    for (name, value) in case.env {
        command.env(name, value);
    }
    run(command, LIMIT)
}

/// Every case through kubectl and kw on one seeded simulator (the cases only read); a list of
/// what differs.
fn conform(cases: &[Case]) {
    let cluster = Cluster::seeded();
    let mut failures = Vec::new();
    for (index, case) in cases.iter().enumerate() {
        let dir = cluster.dir.path().join(format!("case-{index}"));
        std::fs::create_dir_all(&dir).unwrap();
        let theirs = run_client(&cluster, case, false, &dir);
        let ours = run_client(&cluster, case, true, &dir);
        let same = theirs.stdout == ours.stdout
            && theirs.stderr == ours.stderr
            && (theirs.code == Some(0)) == (ours.code == Some(0));
        if !same {
            failures.push(format!(
                "{}: kubectl {:?}\n  stdout {:?}\n  stderr {:?}\nkw {:?}\n  stdout {:?}\n  stderr {:?}",
                case.name,
                theirs.code,
                theirs.stdout,
                theirs.stderr,
                ours.code,
                ours.stdout,
                ours.stderr
            ));
        }
        // A kuberc kubectl refuses is refused with its exit status, 1.
        if theirs.code == Some(1)
            && theirs.stderr.starts_with("error occurred while applying")
            && ours.code != Some(1)
        {
            failures.push(format!("{}: kw exited {:?}, not 1", case.name, ours.code));
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} cases differ:\n{}",
        failures.len(),
        cases.len(),
        failures.join("\n")
    );
}

#[test]
fn defaults_and_aliases_give_kubectls_output() {
    let rc = format!("{HEAD}{PREFERENCES}");
    conform(&[
        // The example: the wide table, unless the line says otherwise.
        case("get defaults", &rc, Via::Flag, &["get", "pods", "-n", "team-a"]),
        case("typed -o wins", &rc, Via::Flag, &["get", "pods", "-n", "team-a", "-o", "name"]),
        case("home kuberc", &rc, Via::Home, &["get", "pods", "-n", "team-a"]),
        case(
            "wait defaults",
            &rc,
            Via::Variable,
            &["wait", "pods", "-l", "app=backend", "-n", "team-a", "--timeout=5s"],
        ),
        case(
            "rollout status defaults",
            &rc,
            Via::Variable,
            &["rollout", "status", "deploy/backend", "-n", "team-a"],
        ),
        // Aliases: expanded, their options as defaults, the `defaults` section not applied.
        case("alias of get", &rc, Via::Variable, &["getn"]),
        case("alias option typed", &rc, Via::Variable, &["getn", "-o", "json"]),
        case("alias appends", &rc, Via::Variable, &["gp", "-n", "team-a"]),
        case(
            "alias appends, refused",
            &rc,
            Via::Variable,
            &["gp", "-n", "team-a", "-o", "name"],
        ),
        case(
            "alias of rollout status",
            &rc,
            Via::Variable,
            &["rs", "deploy/backend", "-n", "team-a"],
        ),
        // kubectl's verb: handed on as typed, and kubectl expands it (once).
        case("alias of describe", &rc, Via::Variable, &["desc", "default"]),
        // A command beats an alias of its name.
        case("command beats alias", &rc, Via::Variable, &["get", "ns", "-o", "name"]),
        case(
            "bool default",
            &format!("{HEAD}defaults:\n- command: get\n  options:\n  - name: show-labels\n    default: \"true\"\n"),
            Via::Flag,
            &["get", "ns"],
        ),
        case(
            "bool default typed off",
            &format!("{HEAD}defaults:\n- command: get\n  options:\n  - name: show-labels\n    default: \"true\"\n"),
            Via::Flag,
            &["get", "ns", "--show-labels=false"],
        ),
        case(
            "global flag default",
            &format!("{HEAD}defaults:\n- command: get\n  options:\n  - name: namespace\n    default: team-a\n"),
            Via::Flag,
            &["get", "pods"],
        ),
        case(
            "v1alpha1",
            "apiVersion: kubectl.config.k8s.io/v1alpha1\nkind: Preference\noverrides:\n- command: get\n  flags:\n  - name: output\n    default: name\naliases:\n- name: gn\n  command: get\n  prependArgs: [ns]\n",
            Via::Variable,
            &["gn"],
        ),
        case(
            "first valid document",
            &format!("apiVersion: kubectl.config.k8s.io/v1beta1\nkind: Other\n---\n{HEAD}defaults:\n- command: get\n  options:\n  - name: output\n    default: name\n"),
            Via::Flag,
            &["get", "ns"],
        ),
        case("empty file", "", Via::Flag, &["get", "ns"]),
    ]);
}

#[test]
fn a_bad_kuberc_is_refused_or_warned_of_in_kubectls_words() {
    let get_output =
        |value: &str| format!("{HEAD}defaults:\n- command: get\n  options:\n  - name: {value}\n");
    conform(&[
        Case {
            name: "missing file",
            kuberc: None,
            via: Via::Flag,
            args: &["get", "ns"],
            env: &[],
        },
        case("not YAML", "a: [", Via::Flag, &["get", "ns"]),
        case("no Preference", "kind: Preference\n", Via::Flag, &["get", "ns"]),
        case("wrong type", &format!("{HEAD}defaults: 5\n"), Via::Flag, &["get", "ns"]),
        case(
            "unquoted boolean",
            &get_output("show-labels\n    default: true"),
            Via::Flag,
            &["get", "ns"],
        ),
        case("unknown option", &get_output("nosuch\n    default: x"), Via::Flag, &["get", "ns"]),
        case("shorthand option", &get_output("o\n    default: name"), Via::Flag, &["get", "ns"]),
        case(
            "bad boolean",
            &get_output("no-headers\n    default: \"yes\""),
            Via::Flag,
            &["get", "ns"],
        ),
        case(
            "unknown command",
            &format!("{HEAD}defaults:\n- command: nosuchcmd\n  options:\n  - name: output\n    default: x\n"),
            Via::Flag,
            &["get", "ns"],
        ),
        case(
            "unknown fields",
            &format!("{HEAD}foo: 1\nbar: 2\ndefaults:\n- command: get\n  zed: 1\n"),
            Via::Flag,
            &["get", "ns"],
        ),
        case(
            "bad alias name",
            &format!("{HEAD}aliases:\n- name: get-n\n  command: get\n"),
            Via::Flag,
            &["get", "ns"],
        ),
        case(
            "duplicate alias",
            &format!("{HEAD}aliases:\n- name: gn\n  command: get\n- name: gn\n  command: wait\n"),
            Via::Flag,
            &["get", "ns"],
        ),
        case("bad file at home", "a: [", Via::Home, &["get", "ns", "-o", "name"]),
        Case {
            name: "KUBERC=off and the flag",
            kuberc: Some(HEAD.to_string()),
            via: Via::Flag,
            args: &["get", "ns"],
            env: &[("KUBERC", "off")],
        },
        Case {
            name: "KUBECTL_KUBERC=false and the flag",
            kuberc: Some(HEAD.to_string()),
            via: Via::Flag,
            args: &["get", "ns"],
            env: &[("KUBECTL_KUBERC", "false")],
        },
        Case {
            name: "KUBECTL_KUBERC=false reads none",
            kuberc: Some("a: [".to_string()),
            via: Via::Home,
            args: &["get", "ns"],
            env: &[("KUBECTL_KUBERC", "false")],
        },
        case(
            "unknown policy",
            &format!("{HEAD}credentialPluginPolicy: denyall\n"),
            Via::Flag,
            &["get", "ns"],
        ),
        case(
            "allowlist without policy",
            &format!("{HEAD}credentialPluginAllowlist:\n- command: x\n"),
            Via::Flag,
            &["get", "ns"],
        ),
        case(
            "empty allowlist",
            &format!("{HEAD}credentialPluginPolicy: Allowlist\ncredentialPluginAllowlist: []\n"),
            Via::Flag,
            &["get", "ns"],
        ),
        case(
            "unclean allowlist entry",
            &format!("{HEAD}credentialPluginPolicy: Allowlist\ncredentialPluginAllowlist:\n- command: /usr/../bin/x\n"),
            Via::Flag,
            &["get", "ns"],
        ),
    ]);
}

// ---- the credential plugin policy -----------------------------------------------------------

/// A kubeconfig whose `contexts` each have a user of their own with the exec plugin `plugin`.
fn exec_kubeconfig(cluster: &Cluster, name: &str, contexts: &[&str], plugin: &str) -> PathBuf {
    use base64::Engine as _;
    let config = json!({
        "apiVersion": "v1",
        "kind": "Config",
        "current-context": contexts[0],
        "clusters": [{"name": "sim", "cluster": {
            "server": cluster.sim.url(),
            "certificate-authority-data":
                base64::engine::general_purpose::STANDARD.encode(cluster.sim.ca_pem()),
        }}],
        "contexts": contexts.iter().map(|name| json!({"name": name, "context": {
            "cluster": "sim", "user": format!("{name}-user"), "namespace": "team-a"}}))
            .collect::<Vec<_>>(),
        "users": contexts.iter().map(|name| json!({"name": format!("{name}-user"),
            "user": {"exec": {
                "apiVersion": "client.authentication.k8s.io/v1",
                "command": plugin,
                "interactiveMode": "Never",
            }}}))
            .collect::<Vec<_>>(),
    });
    let path = cluster.dir.path().join(name);
    std::fs::write(&path, config.to_string()).unwrap();
    path
}

/// `bin/cred-plugin`, which leaves a file in `started/` each time it runs, then prints the
/// sim's admin token.
fn plugin(cluster: &Cluster) -> PathBuf {
    use std::os::unix::fs::PermissionsExt as _;
    let dir = cluster.dir.path();
    std::fs::create_dir_all(dir.join("bin")).unwrap();
    std::fs::create_dir_all(dir.join("started")).unwrap();
    let path = dir.join("bin/cred-plugin");
    std::fs::write(
        &path,
        format!(
            "#!/bin/sh\ntouch '{}/started/'$$\nprintf '{{\"apiVersion\":\"client.authentication.k8s.io/v1\",\"kind\":\"ExecCredential\",\"status\":{{\"token\":\"{}\"}}}}'\n",
            dir.display(),
            cluster.sim.admin_token()
        ),
    )
    .unwrap();
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
    path
}

fn starts(cluster: &Cluster) -> usize {
    std::fs::read_dir(cluster.dir.path().join("started"))
        .map(|dir| dir.count())
        .unwrap_or(0)
}

/// kw under the kuberc `policy` (its body after the head), with `args`.
fn kw_under(cluster: &Cluster, kubeconfig: &Path, policy: &str, args: &[&str]) -> Outcome {
    let rc = cluster.dir.path().join("policy-kuberc");
    std::fs::write(&rc, format!("{HEAD}{policy}")).unwrap();
    let mut command = cluster.kw();
    let path = format!(
        "{}:{}",
        cluster.dir.path().join("bin").display(),
        std::env::var("PATH").unwrap_or_default()
    );
    command
        .env("PATH", path)
        .env("KUBERC", &rc)
        .args(args)
        .arg("--kubeconfig")
        .arg(kubeconfig);
    run(command, LIMIT)
}

#[test]
fn a_plugin_the_policy_refuses_is_never_started_for_a_context_or_a_fleet() {
    let cluster = Cluster::seeded();
    let plugin = plugin(&cluster);
    let absolute = plugin.display().to_string();
    let one = exec_kubeconfig(&cluster, "one", &["c"], &absolute);
    let fleet = exec_kubeconfig(&cluster, "fleet", &["f-1", "f-2", "f-3"], "cred-plugin");
    let deny = "credentialPluginPolicy: DenyAll\n";
    let other = "credentialPluginPolicy: Allowlist\ncredentialPluginAllowlist:\n- command: other-plugin\n- command: /usr/bin/cred-plugin\n";

    let denied = kw_under(&cluster, &one, deny, &["get", "pods", "-o", "name"]);
    assert_eq!(denied.code, Some(1), "{denied:#?}");
    assert_eq!(
        denied.stderr,
        format!("Unable to connect to the server: getting credentials: plugin \"{absolute}\" not allowed: policy set to \"DenyAll\"\n")
    );
    let unlisted = kw_under(&cluster, &one, other, &["get", "pods", "-o", "name"]);
    assert_eq!(unlisted.code, Some(1), "{unlisted:#?}");
    assert_eq!(
        unlisted.stderr,
        format!("Unable to connect to the server: getting credentials: plugin path \"{absolute}\" is not permitted by the credential plugin allowlist\n")
    );
    // A fleet of three, its plugin a bare name found in PATH: each context refused, none run.
    for policy in [deny, other] {
        let outcome = kw_under(
            &cluster,
            &fleet,
            policy,
            &["get", "pods", "-o", "name", "--context", "f-*"],
        );
        assert_ne!(outcome.code, Some(0), "{outcome:#?}");
        for context in ["f-1", "f-2", "f-3"] {
            assert!(
                outcome.stderr.contains(&format!("context \"{context}\"")),
                "{context} is not named: {}",
                outcome.stderr
            );
        }
        assert!(
            outcome.stderr.contains("getting credentials: plugin"),
            "{}",
            outcome.stderr
        );
    }
    // The watch too.
    let watch = kw_under(
        &cluster,
        &one,
        deny,
        &["get", "pods", "-w", "--request-timeout=5s"],
    );
    assert_eq!(watch.code, Some(1), "{watch:#?}");
    assert_eq!(starts(&cluster), 0, "a refused plugin was started");

    // The plugin the allowlist names (by its name in PATH, or its path) runs.
    let listed =
        "credentialPluginPolicy: Allowlist\ncredentialPluginAllowlist:\n- command: cred-plugin\n";
    let ran = kw_under(&cluster, &one, listed, &["get", "ns", "-o", "name"]);
    assert_eq!(ran.code, Some(0), "{ran:#?}");
    assert!(ran.stdout.contains("namespace/team-a"), "{ran:#?}");
    assert!(starts(&cluster) >= 1);
    let by_path = format!(
        "credentialPluginPolicy: Allowlist\ncredentialPluginAllowlist:\n- command: {absolute}\n"
    );
    let fleet_ran = kw_under(
        &cluster,
        &fleet,
        &by_path,
        &["get", "ns", "-o", "name", "--context", "f-*"],
    );
    assert_eq!(fleet_ran.code, Some(0), "{fleet_ran:#?}");
}

/// kw and kubectl refuse the same plugins with the same line (kubectl's discovery errors
/// before it aside).
#[test]
fn a_refused_plugin_is_said_as_kubectl_says_it() {
    let cluster = Cluster::seeded();
    let plugin = plugin(&cluster);
    let kubeconfig_path =
        exec_kubeconfig(&cluster, "absolute", &["c"], &plugin.display().to_string());
    let bare_path = exec_kubeconfig(&cluster, "bare", &["c"], "no-such-plugin");
    let policies = [
        "credentialPluginPolicy: DenyAll\n",
        "credentialPluginPolicy: Allowlist\ncredentialPluginAllowlist:\n- command: cred-plugin-other\n",
        "credentialPluginPolicy: Allowlist\ncredentialPluginAllowlist:\n- name: nope\n",
    ];
    for policy in policies {
        for config in [&kubeconfig_path, &bare_path] {
            let ours = kw_under(&cluster, config, policy, &["get", "ns"]);
            let rc = cluster.dir.path().join("policy-kuberc");
            let mut kubectl = harness::tools::command(harness::kubectl());
            kubectl
                .env("HOME", cluster.dir.path())
                .env("KUBERC", &rc)
                .env("KUBECACHEDIR", cluster.dir.path().join("cache"))
                .args(["get", "ns", "--kubeconfig"])
                .arg(config);
            let theirs = run(kubectl, LIMIT);
            assert_eq!(
                ours.stderr.lines().last(),
                theirs.stderr.lines().last(),
                "{policy}"
            );
            assert_eq!(ours.code, theirs.code, "{policy}: {ours:#?}");
        }
    }
    assert_eq!(starts(&cluster), 0);
}
