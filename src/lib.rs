//! skill-audit: audit libraries of agent skills (`SKILL.md`) against environment tool profiles.
//!
//! The pipeline, one module per stage, data flowing one way:
//! [`discover`] → [`parse`] → [`resolve`] / [`evaluate`] → [`rules`] → [`report`], orchestrated
//! by [`audit`].
//! The command-line interface in [`cli`] is a thin shell over [`audit::run`] and [`report::render`].

#![forbid(unsafe_code)]

/// `eprintln!` that never panics: every diagnostic on standard error goes through
/// [`stderr_line`]. Defined before the modules below, so that they can use it.
macro_rules! say {
    ($($arg:tt)*) => {
        $crate::stderr_line(format_args!($($arg)*))
    };
}

pub mod audit;
pub mod boundary;
pub mod cli;
pub mod config;
pub mod diagnostic;
pub mod discover;
pub mod evaluate;
pub mod files;
pub mod fix;
pub mod lsp;
pub(crate) mod machine;
pub mod mcp;
pub mod model;
pub mod parse;
pub(crate) mod paths;
pub mod profile;
pub mod report;
pub mod resolve;
pub mod rules;
pub mod span;
pub(crate) mod typos;
pub mod vecmap;
pub mod words;
pub mod workspace;

#[cfg(test)]
#[path = "../tests/support/corpus.rs"]
mod corpus;
#[cfg(test)]
mod generated;

/// Write one line to standard error, ignoring a failed write: `eprintln!` panics when standard
/// error is closed or full (`2>/dev/full`, a reader that went away), which would end the run
/// with a panic's exit code instead of the documented 0, 1 or 2. The CLI, the language server
/// and the MCP server all write through it.
pub fn stderr_line(line: std::fmt::Arguments<'_>) {
    use std::io::Write;
    let _ = writeln!(std::io::stderr().lock(), "{line}");
}

pub use audit::{AuditError, AuditOptions, AuditResult, run};
pub use diagnostic::{Finding, Severity};
pub use report::{Format, Report};
pub use rules::Rule;
