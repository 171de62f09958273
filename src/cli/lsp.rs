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
    // The protocol's exit codes: 1 for `exit` without `shutdown` before it.
    match crate::lsp::serve(&load)? {
        crate::lsp::Ended::ExitedUnasked => Ok(Outcome::Failed),
        crate::lsp::Ended::Exited | crate::lsp::Ended::Disconnected => Ok(Outcome::Clean),
    }
}
