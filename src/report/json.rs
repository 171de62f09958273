//! The JSON report: the [`Report`] serialised as is, by serde_json's pretty printer.

use std::io::{self, Write};

use super::Report;

/// A comparison of two reports (`skill-audit diff -f json`).
pub(crate) fn render_diff(d: &super::diff::Diff, out: &mut dyn Write) -> io::Result<()> {
    pretty(d, out)
}

/// A comparison of two profiles (`skill-audit diff -f json` on profiles).
pub(crate) fn render_profile_diff(
    d: &super::diff::ProfileDiff,
    out: &mut dyn Write,
) -> io::Result<()> {
    pretty(d, out)
}

pub(crate) fn render(report: &Report, out: &mut dyn Write) -> io::Result<()> {
    pretty(report, out)
}

/// `value` pretty-printed, then a line break.
pub(crate) fn pretty(value: &impl serde::Serialize, out: &mut dyn Write) -> io::Result<()> {
    serde_json::to_writer_pretty(&mut *out, value).map_err(io::Error::other)?;
    writeln!(out)
}
