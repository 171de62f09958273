//! `completions SHELL` and `man`: files for shells and `man`, generated from the command line
//! definition so they never fall behind it.

use clap::CommandFactory;
use clap_complete::aot::{Shell, generate};

use super::{Cli, Outcome, write_stdout};

/// The completion script for `shell`.
pub(crate) fn completions(shell: Shell) -> Result<Outcome, String> {
    let mut buf = Vec::new();
    generate(shell, &mut Cli::command(), "skill-audit", &mut buf);
    write_stdout(&buf)?;
    Ok(Outcome::Clean)
}

/// The manual page, as roff.
pub(crate) fn man() -> Result<Outcome, String> {
    let mut buf = Vec::new();
    clap_mangen::Man::new(Cli::command())
        .render(&mut buf)
        .map_err(|e| format!("cannot render the manual page: {e}"))?;
    write_stdout(&buf)?;
    Ok(Outcome::Clean)
}
