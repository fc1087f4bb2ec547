//! The `navmap` binary: parses the command line, sends logs to stderr, runs the command.

use std::io::IsTerminal;
use std::process::ExitCode;

use clap::Parser;
use navmap::cli::{Cli, run};
use tracing_subscriber::EnvFilter;

fn main() -> ExitCode {
    navmap::memory::one_arena_per_core();
    let cli = Cli::parse();
    // stdout belongs to MCP frames and command output: logs go to stderr only.
    // NAVMAP_LOG takes an EnvFilter directive (e.g. `navmap=debug`).
    let filter = EnvFilter::try_from_env("NAVMAP_LOG").unwrap_or_else(|_| EnvFilter::new("warn"));
    tracing_subscriber::fmt()
        .with_writer(std::io::stderr)
        .with_ansi(std::io::stderr().is_terminal())
        .with_env_filter(filter)
        .init();
    let runtime = match tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
    {
        Ok(rt) => rt,
        Err(e) => {
            eprintln!("navmap: cannot start the async runtime: {e}");
            return ExitCode::FAILURE;
        }
    };
    runtime.block_on(run(cli))
}
