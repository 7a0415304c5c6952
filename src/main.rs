use clap::Parser;

fn main() {
    let cli = kw::cli::Cli::parse();
    let _ = cli;
}
