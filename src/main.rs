use clap::Parser;
use std::process::ExitCode;

use skill_audit::cli::{self, Cli, Outcome};

// An audit allocates many small strings on every thread; mimalloc serves them with less
// work and less contention than the system allocator.
#[global_allocator]
static ALLOC: mimalloc::MiMalloc = mimalloc::MiMalloc;

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
