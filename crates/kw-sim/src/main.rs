//! `kw-sim`: the simulator on its own, for scripts that do not need kw (`kw sim` is the same).

use std::process::ExitCode;

use clap::Parser;

fn main() -> ExitCode {
    let cli = kw_sim::SimCli::parse();
    match kw_sim::run(cli.args) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::from(1)
        }
    }
}
