//! `kw version`: kw's version, then (unless --client) the server's `/version`.

use std::io::{self, Write};

use crate::cli::VersionArgs;
use crate::report::error::KwError;
use kw_client::client::Client;
use kw_client::config::environment::Environment;
use kw_client::config::flags::ConfigFlags;
use kw_client::config::settings;
use kw_output::output::writer::is_closed_pipe;

pub fn run(args: VersionArgs, config: &ConfigFlags) -> Result<(), KwError> {
    let client_version = concat!("Client Version: v", env!("CARGO_PKG_VERSION"), "\n");
    if !print_stdout(client_version)? || args.client {
        return Ok(());
    }
    let settings = settings::resolve_from_env(config, None)?;
    let environment = Environment::read()?;
    let client = Client::new(&settings.connection, environment.idle_timeout)?;
    let body = client.get("/version", "application/json")?;
    #[derive(serde::Deserialize)]
    struct ServerVersion {
        #[serde(rename = "gitVersion", default)]
        git_version: String,
    }
    let version: ServerVersion =
        serde_json::from_slice(&body).map_err(|e| KwError::BadResponse {
            path: "/version",
            reason: e.to_string(),
        })?;
    // Through `print_stdout`: the reader may have gone since the first line (`| head -1`).
    print_stdout(&format!(
        "Server Version: {}\n",
        kw_output::output::escape::escaped(&version.git_version)
    ))?;
    Ok(())
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
