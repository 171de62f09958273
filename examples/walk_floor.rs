//! The I/O floor of an audit: walk the roots with skill-audit's own walker
//! (`discover::walk`: parallel `ignore` walk, same filters and file classification) and read
//! every file it would audit, and every script the walk found (the audit reads those of its
//! skills for what they run), in parallel, doing nothing with the bytes.
//!
//! ```sh
//! cargo run --release --example walk_floor -- DIR...
//! ```
//!
//! `bench/compare.sh` divides skill-audit's time by this one: the ratio is what parsing,
//! rules, evaluation and rendering add on top of finding and reading the files.

use std::path::PathBuf;
use std::process::ExitCode;

use rayon::prelude::*;
use skill_audit::discover;

fn main() -> ExitCode {
    let roots: Vec<PathBuf> = std::env::args_os().skip(1).map(PathBuf::from).collect();
    if roots.is_empty() {
        eprintln!("usage: walk_floor DIR...");
        return ExitCode::from(2);
    }
    let cwd = std::env::current_dir().unwrap_or_default();
    let found = discover::walk(&roots, &globset::GlobSet::empty(), 0, &cwd);
    let files: Vec<&PathBuf> = found
        .candidates
        .iter()
        .map(|c| &c.fs_path)
        .chain(&found.scripts)
        .collect();
    let bytes: u64 = files
        .par_iter()
        .map(|p| std::fs::read(p).map_or(0, |b| b.len() as u64))
        .sum();
    println!("{} files, {bytes} bytes", files.len());
    ExitCode::SUCCESS
}
