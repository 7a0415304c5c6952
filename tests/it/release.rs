//! Releases (issue 44): `scripts/release.sh` builds an archive that holds what a user and krew
//! need, with its checksum, byte for byte the same whatever the files' times and the umask; the
//! krew manifest it fills installs kw as krew lays a plugin out, and `kubectl kw` then runs
//! from there against `kw sim`; the workflows that run the script pass actionlint.

use crate::harness::{self, run, Cluster};

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Duration;

use serde_json::Value;

/// The script copies and compresses a debug build of kw three times (about 120 MB each).
const SCRIPT_LIMIT: Duration = Duration::from_secs(150);
const LIMIT: Duration = Duration::from_secs(20);
const HOST: &str = "x86_64-unknown-linux-gnu";
/// 2023-11-14 22:13:20 UTC, the time every entry of the test's archives carries.
const EPOCH: &str = "1700000000";
const EPOCH_TEXT: &str = "2023-11-14 22:13:20";

fn repo() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn version() -> &'static str {
    env!("CARGO_PKG_VERSION")
}

/// `scripts/release.sh ARGS` with a copy of the krew manifest, so the tracked one stays as it is.
fn release(args: &[&str], manifest: &Path, out: &Path) -> Command {
    std::fs::copy(repo().join("plugins/kw.yaml"), manifest).expect("plugins/kw.yaml");
    let mut cmd = Command::new("bash");
    cmd.arg(repo().join("scripts/release.sh"))
        .args(args)
        .arg("--manifest")
        .arg(manifest)
        .arg("--out")
        .arg(out)
        .env("SOURCE_DATE_EPOCH", EPOCH)
        .stdin(Stdio::null());
    cmd
}

/// `sha256sum FILE`'s line: what the archive's .sha256 must hold.
fn sha256sum(dir: &Path, name: &str) -> String {
    let out = run(Command::new("sha256sum").arg(name).current_dir(dir), LIMIT);
    assert_eq!(out.code, Some(0), "{out:#?}");
    out.stdout
}

/// What every archive holds under its folder, in the order `--sort=name` gives; `exe` is
/// Windows' suffix.
fn expected_entries(folder: &str, exe: &str, with_dirs: bool) -> Vec<String> {
    let mut names: Vec<String> = ["CHANGELOG.md", "LICENSE", "README.md"]
        .iter()
        .map(|s| s.to_string())
        .chain(
            ["kw.bash", "_kw", "kw.fish", "_kw.ps1", "kw.elv"]
                .iter()
                .map(|s| format!("completions/{s}")),
        )
        .chain(
            ["kw", "kubectl-kw", "kubectl_complete-kw"]
                .iter()
                .map(|s| format!("{s}{exe}")),
        )
        .collect();
    let mut pages: Vec<String> = std::fs::read_dir(repo().join("completions/man"))
        .expect("completions/man")
        .map(|entry| entry.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|name| name.ends_with(".1"))
        .collect();
    assert!(pages.len() >= 5, "man pages: {pages:?}");
    pages.sort();
    names.extend(pages.iter().map(|page| format!("man/{page}")));
    if with_dirs {
        names.extend(["", "completions/", "man/"].map(String::from));
    }
    let mut entries: Vec<String> = names.iter().map(|n| format!("{folder}/{n}")).collect();
    entries.sort();
    entries
}

/// The platform of the manifest for `os`/`arch`, which must be the only one.
fn platform<'a>(manifest: &'a Value, os: &str, arch: &str) -> &'a Value {
    let matching: Vec<&Value> = manifest["spec"]["platforms"]
        .as_array()
        .expect("spec.platforms")
        .iter()
        .filter(|p| {
            p["selector"]["matchLabels"]["os"] == os && p["selector"]["matchLabels"]["arch"] == arch
        })
        .collect();
    assert_eq!(matching.len(), 1, "{os}/{arch} in {manifest:#}");
    matching[0]
}

/// What krew does with a downloaded archive: unpack it, move each `files` entry's matches
/// (`from` is a glob) into the plugin's folder in the store, then link `bin/kubectl-NAME` to
/// `bin` there. Returns the link.
fn install_as_krew(archive: &Path, platform: &Value, krew_root: &Path) -> PathBuf {
    let download = krew_root.join("download");
    std::fs::create_dir_all(&download).unwrap();
    let out = run(
        Command::new("tar")
            .arg("-xzf")
            .arg(archive)
            .arg("-C")
            .arg(&download),
        LIMIT,
    );
    assert_eq!(out.code, Some(0), "{out:#?}");
    let store = krew_root.join(format!("store/kw/v{}", version()));
    for file in platform["files"].as_array().expect("files") {
        let (from, to) = (file["from"].as_str().unwrap(), file["to"].as_str().unwrap());
        let pattern = download.join(from);
        let matches: Vec<PathBuf> = glob::glob(pattern.to_str().unwrap())
            .unwrap()
            .map(Result::unwrap)
            .collect();
        assert_eq!(matches.len(), 1, "files.from {from} matches {matches:?}");
        // `to: .` is the plugin's folder itself (create_dir_all cannot make "DIR/." anew).
        let into: PathBuf = store.join(to).components().collect();
        std::fs::create_dir_all(&into).unwrap();
        std::fs::rename(&matches[0], into.join(matches[0].file_name().unwrap())).unwrap();
    }
    let bin = store.join(platform["bin"].as_str().expect("bin"));
    let link = krew_root.join("bin/kubectl-kw");
    std::fs::create_dir_all(link.parent().unwrap()).unwrap();
    std::os::unix::fs::symlink(&bin, &link).unwrap();
    link
}

#[test]
fn the_archive_installs_as_krew_would_and_runs_under_kubectl() {
    let kubectl = harness::kubectl();
    let dir = tempfile::tempdir().unwrap();
    let (manifest_path, dist) = (dir.path().join("kw.yaml"), dir.path().join("dist"));
    let binary = env!("CARGO_BIN_EXE_kw");
    let out = run(
        release(
            &["--target", HOST, "--binary", binary, "--gzip-level", "1"],
            &manifest_path,
            &dist,
        ),
        SCRIPT_LIMIT,
    );
    assert_eq!(out.code, Some(0), "{out:#?}");
    let folder = format!("kw-{}-{HOST}", version());
    let name = format!("{folder}.tar.gz");
    let archive = dist.join(&name);
    assert_eq!(out.stdout.trim_end(), archive.to_str().unwrap(), "{out:#?}");

    // The checksum file is sha256sum's own line, so `sha256sum --check` reads it.
    let sum = std::fs::read_to_string(dist.join(format!("{name}.sha256"))).unwrap();
    assert_eq!(sum, sha256sum(&dist, &name));
    let sha = sum.split_whitespace().next().unwrap().to_string();

    // gzip -n: no file name (FLG.FNAME) and no time in the header.
    let bytes = std::fs::read(&archive).unwrap();
    assert_eq!(&bytes[..3], &[0x1f, 0x8b, 8], "a gzip stream");
    assert_eq!(bytes[3] & 0x08, 0, "gzip header names no file");
    assert_eq!(&bytes[4..8], &[0, 0, 0, 0], "gzip header carries no time");

    // Every entry, in name order, owned by 0/0, at SOURCE_DATE_EPOCH, 755 or 644.
    let listing = run(
        Command::new("tar")
            .args([
                "--list",
                "--verbose",
                "--numeric-owner",
                "--full-time",
                "-zf",
            ])
            .arg(&archive)
            .env("TZ", "UTC"),
        LIMIT,
    );
    assert_eq!(listing.code, Some(0), "{listing:#?}");
    let rows: Vec<Vec<&str>> = listing
        .stdout
        .lines()
        .map(|line| line.split_whitespace().collect())
        .collect();
    let names: Vec<String> = rows.iter().map(|row| row[5].to_string()).collect();
    assert_eq!(
        names,
        expected_entries(&folder, "", true),
        "{}",
        listing.stdout
    );
    for row in &rows {
        let name = row[5];
        let program = ["kw", "kubectl-kw", "kubectl_complete-kw"]
            .iter()
            .any(|p| name == format!("{folder}/{p}"));
        let mode = if name.ends_with('/') {
            "drwxr-xr-x"
        } else if program {
            "-rwxr-xr-x"
        } else {
            "-rw-r--r--"
        };
        assert_eq!(row[0], mode, "{}", listing.stdout);
        assert_eq!(row[1], "0/0", "{}", listing.stdout);
        assert_eq!(
            format!("{} {}", row[3], row[4]),
            EPOCH_TEXT,
            "{}",
            listing.stdout
        );
        // Documents, completions and man pages are the repository's own; kw the binary, and
        // the plugin names small scripts (the archive carried three copies of 15 MB).
        let rel = name.strip_prefix(&format!("{folder}/")).unwrap_or_default();
        if program && rel != "kw" {
            let size: u64 = row[2].parse().unwrap();
            assert!(size < 1024, "{name} is {size} bytes: {}", listing.stdout);
        } else if !name.ends_with('/') {
            let source = if program {
                PathBuf::from(binary)
            } else if let Some(page) = rel.strip_prefix("man/") {
                repo().join("completions/man").join(page)
            } else {
                repo().join(rel)
            };
            let size = std::fs::metadata(&source).unwrap().len();
            assert_eq!(
                row[2],
                size.to_string(),
                "{name} against {}",
                source.display()
            );
        }
    }

    // Unpacked by hand and put on PATH, kubectl finds the plugin names, which run the kw beside
    // them under their names; kubectl_complete-kw also through a link to it (krew's caveat).
    let unpacked = dir.path().join("unpacked");
    std::fs::create_dir_all(&unpacked).unwrap();
    let untar = run(
        Command::new("tar")
            .arg("-xzf")
            .arg(&archive)
            .arg("-C")
            .arg(&unpacked),
        LIMIT,
    );
    assert_eq!(untar.code, Some(0), "{untar:#?}");
    let programs = unpacked.join(&folder);
    plugin_names_run_kw(&kubectl, &programs, dir.path());

    // The manifest the script filled: this archive's uri and sha256 for linux/amd64, among the
    // five platforms a release builds.
    let manifest: Value =
        serde_saphyr::from_str(&std::fs::read_to_string(&manifest_path).unwrap()).unwrap();
    assert_eq!(
        manifest["apiVersion"],
        "krew.googlecontainertools.github.com/v1alpha2"
    );
    assert_eq!(manifest["kind"], "Plugin");
    assert_eq!(manifest["metadata"]["name"], "kw");
    assert_eq!(manifest["spec"]["version"], format!("v{}", version()));
    for (os, arch) in [
        ("linux", "amd64"),
        ("linux", "arm64"),
        ("darwin", "amd64"),
        ("darwin", "arm64"),
        ("windows", "amd64"),
    ] {
        let p = platform(&manifest, os, arch);
        let exe = if os == "windows" { ".exe" } else { "" };
        assert_eq!(p["bin"], format!("kw{exe}"), "{p:#}");
    }
    assert_eq!(manifest["spec"]["platforms"].as_array().unwrap().len(), 5);
    let linux = platform(&manifest, "linux", "amd64");
    assert_eq!(linux["sha256"], sha.as_str(), "{linux:#}");
    let uri = linux["uri"].as_str().unwrap();
    assert!(
        uri.starts_with("https://") && uri.ends_with(&format!("/v{}/{name}", version())),
        "{uri}"
    );

    // Installed as krew lays a plugin out, kubectl finds kw as its plugin and runs it.
    let krew_root = dir.path().join("krew");
    let link = install_as_krew(&archive, linux, &krew_root);
    let store = krew_root.join(format!("store/kw/v{}", version()));
    for installed in ["kw", "kubectl_complete-kw", "LICENSE"] {
        assert!(store.join(installed).is_file(), "{installed} in the store");
    }
    // krew's caveat: kubectl_complete-kw linked from the store onto PATH.
    let linked = dir.path().join("linked-bin");
    std::fs::create_dir_all(&linked).unwrap();
    std::os::unix::fs::symlink(
        store.join("kubectl_complete-kw"),
        linked.join("kubectl_complete-kw"),
    )
    .unwrap();
    assert_completes(&linked.join("kubectl_complete-kw"));
    assert_eq!(
        std::fs::read(store.join("kw")).unwrap(),
        std::fs::read(binary).unwrap(),
        "the archive's kw is the binary given"
    );
    let cluster = Cluster::seeded();
    let path = std::env::join_paths(
        std::iter::once(link.parent().unwrap().to_path_buf())
            .chain(std::env::split_paths(&std::env::var_os("PATH").unwrap())),
    )
    .unwrap();
    let kubectl_kw = |args: &[&str]| {
        let mut cmd = crate::harness::tools::command(&kubectl);
        cmd.args(args)
            .arg("--kubeconfig")
            .arg(&cluster.kubeconfig)
            .env("PATH", &path)
            .env_remove("KUBECONFIG")
            .env("HOME", dir.path())
            .stdin(Stdio::null());
        run(cmd, LIMIT)
    };
    let plugins = run(
        crate::harness::tools::command(&kubectl)
            .args(["plugin", "list"])
            .env("PATH", &path)
            .stdin(Stdio::null()),
        LIMIT,
    );
    assert!(
        plugins
            .stdout
            .lines()
            .any(|line| line == link.to_str().unwrap()),
        "kubectl finds the krew link: {plugins:#?}"
    );
    let out = kubectl_kw(&["kw", "version"]);
    assert_eq!(out.code, Some(0), "{out:#?}");
    assert!(
        out.stdout
            .starts_with(&format!("Client Version: v{}\n", version())),
        "{out:#?}"
    );
    assert!(out.stdout.contains("Server Version: "), "{out:#?}");
    let out = kubectl_kw(&["kw", "get", "pods", "-o", "name"]);
    assert_eq!(out.code, Some(0), "{out:#?}");
    assert!(out.stdout.contains("pod/init-demo"), "{out:#?}");
}

/// `kubectl_complete-kw get --until rea` answers as kw's kubectl completion does, whichever
/// name or link it is run by.
fn assert_completes(program: &Path) {
    let out = run(
        crate::harness::tools::command(program)
            .args(["get", "--until", "rea"])
            .env_remove("KUBECONFIG")
            .stdin(Stdio::null()),
        LIMIT,
    );
    assert_eq!(out.code, Some(0), "{out:#?}");
    assert!(out.stdout.starts_with("ready\t"), "{out:#?}");
    assert!(out.stdout.ends_with("\n:4\n"), "{out:#?}");
}

/// The unpacked archive's plugin names: scripts that run the kw beside them under their names,
/// found by kubectl on PATH, and through a link from elsewhere.
fn plugin_names_run_kw(kubectl: &Path, programs: &Path, scratch: &Path) {
    for script in ["kubectl-kw", "kubectl_complete-kw"] {
        let text = std::fs::read_to_string(programs.join(script)).unwrap();
        assert!(text.starts_with("#!/bin/sh\n"), "{script}: {text}");
    }
    let path = std::env::join_paths(
        std::iter::once(programs.to_path_buf())
            .chain(std::env::split_paths(&std::env::var_os("PATH").unwrap())),
    )
    .unwrap();
    let help = run(
        crate::harness::tools::command(kubectl)
            .args(["kw", "-h"])
            .env("PATH", &path)
            .env("HOME", scratch)
            .stdin(Stdio::null()),
        LIMIT,
    );
    assert_eq!(help.code, Some(0), "{help:#?}");
    assert!(
        help.stdout
            .contains("Usage: kubectl kw [OPTIONS] <COMMAND>"),
        "{help:#?}"
    );
    assert_completes(&programs.join("kubectl_complete-kw"));
    let elsewhere = scratch.join("elsewhere");
    std::fs::create_dir_all(&elsewhere).unwrap();
    std::os::unix::fs::symlink(
        programs.join("kubectl_complete-kw"),
        elsewhere.join("kubectl_complete-kw"),
    )
    .unwrap();
    assert_completes(&elsewhere.join("kubectl_complete-kw"));
    // The name is kw's alone: the kubectl it hands a verb to does not inherit it.
    let fake = scratch.join("fake-kubectl");
    std::fs::write(&fake, "#!/bin/sh\necho \"${KW_PLUGIN_NAME-unset} $*\"\n").unwrap();
    std::fs::set_permissions(&fake, std::os::unix::fs::PermissionsExt::from_mode(0o755)).unwrap();
    let handed = run(
        crate::harness::tools::command(programs.join("kubectl-kw"))
            .args(["describe", "pod", "x"])
            .env("KW_KUBECTL", &fake)
            .stdin(Stdio::null()),
        LIMIT,
    );
    assert_eq!(handed.code, Some(0), "{handed:#?}");
    assert_eq!(handed.stdout, "unset describe pod x\n", "{handed:#?}");
}

/// The same tree and binary give the same bytes, whatever the files' times and the umask: the
/// tar.gz and the Windows zip. The stand-in binary is small, so this costs little.
#[test]
fn archives_are_byte_identical_whatever_the_times_and_umask() {
    let dir = tempfile::tempdir().unwrap();
    let stand_in = dir.path().join("kw");
    std::fs::write(&stand_in, b"\x7fELF not really kw").unwrap();
    let targets = [
        ("aarch64-unknown-linux-gnu", "tar.gz"),
        ("x86_64-pc-windows-msvc", "zip"),
    ];
    let mut built = Vec::new();
    for (round, (umask, mtime)) in [("022", "2020-01-01"), ("077", "2024-06-30 12:34:56")]
        .iter()
        .enumerate()
    {
        let out_dir = dir.path().join(format!("dist{round}"));
        let touched = run(
            Command::new("touch").args(["-d", mtime]).arg(&stand_in),
            LIMIT,
        );
        assert_eq!(touched.code, Some(0), "{touched:#?}");
        for (target, format) in targets {
            let cmd = release(
                &["--target", target, "--binary", stand_in.to_str().unwrap()],
                &dir.path().join("kw.yaml"),
                &out_dir,
            );
            // The umask the script's copies are made under.
            let script: Vec<String> = cmd.get_args().map(|a| a.to_string_lossy().into()).collect();
            let mut in_umask = Command::new("bash");
            in_umask
                .arg("-c")
                .arg(format!("umask {umask} && exec bash \"$@\""))
                .arg("bash")
                .args(&script)
                .envs(cmd.get_envs().filter_map(|(k, v)| v.map(|v| (k, v))))
                .stdin(Stdio::null());
            let out = run(&mut in_umask, SCRIPT_LIMIT);
            assert_eq!(out.code, Some(0), "{target}: {out:#?}");
            let archive = out_dir.join(format!("kw-{}-{target}.{format}", version()));
            built.push((round, archive));
        }
    }
    // Round 0's archives, then round 1's, in the same target order.
    for (first, second) in built[..2].iter().zip(&built[2..]) {
        assert_eq!(
            std::fs::read(&first.1).unwrap(),
            std::fs::read(&second.1).unwrap(),
            "{} and {} differ",
            first.1.display(),
            second.1.display()
        );
    }

    // The zip holds what the tar.gz holds, with Windows' names for the programs.
    let zip = &built[1].1;
    let listing = run(
        Command::new("python3")
            .args([
                "-c",
                "import sys, zipfile; print('\\n'.join(zipfile.ZipFile(sys.argv[1]).namelist()))",
            ])
            .arg(zip),
        LIMIT,
    );
    assert_eq!(listing.code, Some(0), "{listing:#?}");
    let folder = format!("kw-{}-x86_64-pc-windows-msvc", version());
    let names: Vec<&str> = listing.stdout.lines().collect();
    assert_eq!(names, expected_entries(&folder, ".exe", false));
}

/// A missing binary or an unknown flag stops the script at once with one line saying so.
#[test]
fn the_script_says_what_is_wrong_in_one_line() {
    let dir = tempfile::tempdir().unwrap();
    let missing = dir.path().join("no-such-kw");
    let out = run(
        release(
            &["--target", HOST, "--binary", missing.to_str().unwrap()],
            &dir.path().join("kw.yaml"),
            &dir.path().join("dist"),
        ),
        LIMIT,
    );
    assert_eq!(out.code, Some(1), "{out:#?}");
    assert_eq!(
        out.stderr,
        format!("release.sh: no kw binary at {}\n", missing.display())
    );
    let out = run(
        release(
            &["--gzip-level", "11"],
            &dir.path().join("kw.yaml"),
            &dir.path().join("dist"),
        ),
        LIMIT,
    );
    assert_eq!(out.code, Some(1), "{out:#?}");
    assert_eq!(
        out.stderr,
        "release.sh: --gzip-level must be 1 to 9, not '11'\n"
    );
}

/// The pinned actionlint that `.ci/actionlint` installs, and the shellcheck beside it.
fn actionlint() -> (PathBuf, PathBuf) {
    let bin = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .parent()
        .expect("the target directory")
        .join("actionlint/bin");
    let actionlint = std::env::var_os("KW_ACTIONLINT")
        .map(PathBuf::from)
        .unwrap_or_else(|| bin.join("actionlint"));
    let shellcheck = bin.join("shellcheck");
    for tool in [&actionlint, &shellcheck] {
        assert!(
            tool.exists(),
            "{} is missing: run .ci/actionlint (or .ci/test), which installs it",
            tool.display()
        );
    }
    (actionlint, shellcheck)
}

#[test]
fn the_workflows_pass_actionlint() {
    let (actionlint, shellcheck) = actionlint();
    let lint = |files: &[PathBuf], stdin: Option<&str>| {
        let mut cmd = Command::new(&actionlint);
        cmd.args(["-no-color", "-oneline", "-shellcheck"])
            .arg(&shellcheck)
            .args(files)
            .current_dir(repo());
        if let Some(text) = stdin {
            let input = tempfile::NamedTempFile::new().unwrap();
            std::fs::write(input.path(), text).unwrap();
            cmd.arg("-")
                .stdin(std::fs::File::open(input.path()).unwrap());
        } else {
            cmd.stdin(Stdio::null());
        }
        run(cmd, LIMIT)
    };
    // The linter finds what it is there for: an untrusted expression in a script, and
    // shellcheck's findings in one; else an empty report would prove nothing.
    let out = lint(
        &[],
        Some(
            "on: issues\njobs:\n  x:\n    runs-on: ubuntu-24.04\n    steps:\n      \
             - run: echo ${{ github.event.issue.title }}\n      - run: cd $HOME/x\n",
        ),
    );
    assert_eq!(out.code, Some(1), "{out:#?}");
    assert!(out.stdout.contains("potentially untrusted"), "{out:#?}");
    assert!(out.stdout.contains("SC2086"), "{out:#?}");

    let mut workflows: Vec<PathBuf> = std::fs::read_dir(repo().join(".github/workflows"))
        .expect(".github/workflows")
        .map(|entry| entry.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "yml" || e == "yaml"))
        .collect();
    workflows.sort();
    let names: Vec<_> = workflows.iter().map(|p| p.file_name().unwrap()).collect();
    assert_eq!(names, ["ci.yml", "release.yml"]);
    let out = lint(&workflows, None);
    assert_eq!((out.code, out.stdout.as_str()), (Some(0), ""), "{out:#?}");
}

/// The release's shell scripts pass the same shellcheck, warnings and notes included.
#[test]
fn the_release_scripts_pass_shellcheck() {
    let (_, shellcheck) = actionlint();
    let scripts = [
        "scripts/release.sh",
        ".ci/actionlint",
        "fuzz/run.sh",
        "fuzz/seeds.sh",
    ];
    let out = run(
        Command::new(&shellcheck)
            .args(scripts)
            .current_dir(repo())
            .stdin(Stdio::null()),
        LIMIT,
    );
    assert_eq!((out.code, out.stdout.as_str()), (Some(0), ""), "{out:#?}");
}

/// The release workflow's smoke step, run as the runner runs it (issue 56): GitHub's `shell:
/// bash` (`bash --noprofile --norc -eo pipefail`), a fresh HOME, no kubeconfig, the binary where
/// the step looks for it. A step that cannot pass here cannot pass there; the step as it was
/// (`kw version`, which like kubectl's needs a kubeconfig) fails here too.
#[test]
fn the_release_workflows_smoke_step_passes_as_the_runner_runs_it() {
    let workflow =
        std::fs::read_to_string(repo().join(".github/workflows/release.yml")).expect("release.yml");
    let workflow: Value = serde_saphyr::from_str(&workflow).expect("release.yml is YAML");
    let steps = workflow["jobs"]["build"]["steps"]
        .as_array()
        .expect("steps");
    let smoke = steps
        .iter()
        .find(|step| {
            step["name"]
                .as_str()
                .is_some_and(|n| n.starts_with("The binary runs here"))
        })
        .and_then(|step| step["run"].as_str())
        .expect("the smoke step");
    let dir = tempfile::tempdir().expect("tempdir");
    let release = dir.path().join("target/host/release");
    std::fs::create_dir_all(&release).expect("target dir");
    std::os::unix::fs::symlink(env!("CARGO_BIN_EXE_kw"), release.join("kw")).expect("link");
    let home = dir.path().join("home");
    std::fs::create_dir_all(&home).expect("home");
    let run_step = |script: &str| {
        // What the step starts in the background ends with it, whichever line fails.
        let script = format!("trap 'kill $(jobs -p) 2> /dev/null || true' EXIT\n{script}");
        let mut bash = Command::new("bash");
        bash.args(["--noprofile", "--norc", "-eo", "pipefail", "-c", &script])
            .current_dir(dir.path())
            .env_clear()
            .env("PATH", std::env::var_os("PATH").unwrap_or_default())
            .env("HOME", &home)
            .env("TARGET", "host")
            .stdin(Stdio::null());
        run(bash, Duration::from_secs(60))
    };
    let passed = run_step(smoke);
    assert_eq!(passed.code, Some(0), "the smoke step: {passed:?}");
    assert!(passed.stdout.contains("Client Version:"), "{passed:?}");
    assert!(passed.stdout.contains("Running"), "{passed:?}");
    // Without `--client`, `kw version` asks a server there is none of: the step stops there.
    let without_client = smoke.replace("version --client", "version");
    let failed = run_step(&without_client);
    assert_ne!(failed.code, Some(0), "{failed:?}");
    assert!(
        failed.stderr.contains("no configuration has been provided"),
        "{failed:?}"
    );
}
