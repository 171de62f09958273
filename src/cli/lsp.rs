//! `skill-audit lsp`: the language server, with each workspace folder's settings file read as
//! the audit command reads it.

use std::path::Path;

use super::LibraryArgs;
use super::Outcome;
use super::audit::{AuditArgs, options};

pub(crate) fn run() -> Result<Outcome, String> {
    let load = |root: &Path| {
        let args = AuditArgs::quiet(vec![root.to_owned()], LibraryArgs::default());
        options(&args, root.to_owned()).map(|plan| plan.opts)
    };
    crate::lsp::serve(&load)?;
    Ok(Outcome::Clean)
}
