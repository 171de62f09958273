use clap::Parser;
use std::process::ExitCode;

use skill_audit::cli::{self, Cli, Outcome};

fn main() -> ExitCode {
    let cli = Cli::parse();
    match cli::run(cli) {
        Ok(Outcome::Clean) => ExitCode::SUCCESS,
        Ok(Outcome::Failed) => ExitCode::from(1),
        Err(msg) => {
            eprintln!("skill-audit: error: {msg}");
            ExitCode::from(2)
        }
    }
}
