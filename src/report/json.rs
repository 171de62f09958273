//! The JSON report: the [`Report`] serialised as is, pretty-printed.

use std::io::{self, Write};

use super::Report;

pub fn render(report: &Report, out: &mut dyn Write) -> io::Result<()> {
    serde_json::to_writer_pretty(&mut *out, report).map_err(io::Error::other)?;
    writeln!(out)
}
