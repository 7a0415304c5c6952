//! `kw version`: kw's version, then (unless --client) the server's `/version`; with `-o
//! json|yaml`, both in kubectl's shape (`clientVersion`, `serverVersion`), kw's in place of
//! kubectl's and no `kustomizeVersion` (kw has no kustomize; `-k` goes to kubectl).

use std::io::{self, Write};

use serde::{Deserialize, Serialize};

use crate::cli::VersionArgs;
use crate::report::error::{KwError, UsageError};
use kw_client::client::Client;
use kw_client::config::environment::Environment;
use kw_client::config::flags::ConfigFlags;
use kw_client::config::settings;
use kw_output::output::writer::is_closed_pipe;

/// `-o`'s formats.
#[derive(Clone, Copy)]
enum Format {
    Json,
    Yaml,
}

/// apimachinery's `version.Info`, in its field order, as kubectl reads the server's answer and
/// writes it again: fields it lacks dropped, missing ones empty.
#[derive(Debug, Default, Deserialize, Serialize)]
#[serde(rename_all = "camelCase", default)]
struct Info {
    major: String,
    minor: String,
    #[serde(skip_serializing_if = "String::is_empty")]
    emulation_major: String,
    #[serde(skip_serializing_if = "String::is_empty")]
    emulation_minor: String,
    #[serde(skip_serializing_if = "String::is_empty")]
    min_compatibility_major: String,
    #[serde(skip_serializing_if = "String::is_empty")]
    min_compatibility_minor: String,
    git_version: String,
    git_commit: String,
    git_tree_state: String,
    build_date: String,
    go_version: String,
    compiler: String,
    platform: String,
}

/// kw's own, in the server's shape: what kw knows of itself (no commit, no Go).
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
struct ClientInfo {
    major: &'static str,
    minor: &'static str,
    git_version: String,
    compiler: &'static str,
    platform: String,
}

#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
struct Versions {
    client_version: ClientInfo,
    #[serde(skip_serializing_if = "Option::is_none")]
    server_version: Option<Info>,
}

pub fn run(args: VersionArgs, config: &ConfigFlags) -> Result<(), KwError> {
    let format = match args.output.as_deref() {
        None => None,
        Some("json") => Some(Format::Json),
        Some("yaml") => Some(Format::Yaml),
        Some(_) => return Err(UsageError::VersionOutput.into()),
    };
    let Some(format) = format else {
        return plain(&args, config);
    };
    // kubectl prints the client's part when the server cannot be asked, then says why.
    let server = (!args.client).then(|| server_version(config));
    let (server_version, failed) = match server {
        Some(Ok(info)) => (Some(info), None),
        Some(Err(e)) => (None, Some(e)),
        None => (None, None),
    };
    let versions = Versions {
        client_version: client_info(),
        server_version,
    };
    let text = match format {
        Format::Json => {
            let mut text = serde_json::to_string_pretty(&versions).map_err(json_error)?;
            text.push('\n');
            text
        }
        Format::Yaml => {
            let value = serde_json::to_value(&versions).map_err(json_error)?;
            let mut out = Vec::new();
            kw_go::goformat::yaml::write_document(&mut out, &value);
            // kubectl's `fmt.Println` of the document.
            out.push(b'\n');
            String::from_utf8_lossy(&out).into_owned()
        }
    };
    let text = kw_output::output::escape::escaped(&text);
    if !print_stdout(&text)? {
        return Ok(());
    }
    failed.map_or(Ok(()), Err)
}

fn json_error(e: serde_json::Error) -> KwError {
    KwError::Output(io::Error::other(e))
}

fn client_info() -> ClientInfo {
    let arch = match std::env::consts::ARCH {
        "x86_64" => "amd64",
        "aarch64" => "arm64",
        "x86" => "386",
        other => other,
    };
    ClientInfo {
        major: env!("CARGO_PKG_VERSION_MAJOR"),
        minor: env!("CARGO_PKG_VERSION_MINOR"),
        git_version: concat!("v", env!("CARGO_PKG_VERSION")).to_string(),
        compiler: "rustc",
        platform: format!("{}/{arch}", std::env::consts::OS),
    }
}

fn plain(args: &VersionArgs, config: &ConfigFlags) -> Result<(), KwError> {
    let client_version = concat!("Client Version: v", env!("CARGO_PKG_VERSION"), "\n");
    if !print_stdout(client_version)? || args.client {
        return Ok(());
    }
    let version = server_version(config)?;
    // Through `print_stdout`: the reader may have gone since the first line (`| head -1`).
    print_stdout(&format!(
        "Server Version: {}\n",
        kw_output::output::escape::escaped(&version.git_version)
    ))?;
    Ok(())
}

/// The server's `/version`.
fn server_version(config: &ConfigFlags) -> Result<Info, KwError> {
    let settings = settings::resolve_from_env(config, None)?;
    let environment = Environment::read()?;
    let client = Client::new(&settings.connection, environment.idle_timeout)?;
    let body = client.get("/version", "application/json")?;
    serde_json::from_slice(&body).map_err(|e| KwError::BadResponse {
        path: "/version",
        reason: e.to_string(),
    })
}

/// Write `text` to stdout now. `Ok(false)` when stdout is closed (`kw version | true`): kw then
/// ends quietly with status 0, where `println!` would panic.
pub fn print_stdout(text: &str) -> Result<bool, KwError> {
    let mut stdout = io::stdout().lock();
    match stdout
        .write_all(text.as_bytes())
        .and_then(|()| stdout.flush())
    {
        Ok(()) => Ok(true),
        Err(e) if is_closed_pipe(&e) => Ok(false),
        Err(e) => Err(KwError::Output(e)),
    }
}
