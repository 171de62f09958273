//! `diff` and `merge`: commands over saved JSON reports.

use clap::ValueEnum;
use std::path::PathBuf;

use super::{Outcome, OutputArgs, write_outputs, write_stdout};
use crate::report;

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum DiffFormat {
    Text,
    Json,
    Markdown,
}

pub(crate) fn diff(
    old: &std::path::Path,
    new: &std::path::Path,
    format: DiffFormat,
    output: Option<&std::path::Path>,
) -> Result<Outcome, String> {
    let (old, new) = (report::diff::load(old)?, report::diff::load(new)?);
    let d = report::diff::diff(&old, &new);
    let mut buf = Vec::new();
    match format {
        DiffFormat::Text => report::text::render_diff(&d, &mut buf),
        DiffFormat::Json => report::json::render_diff(&d, &mut buf),
        DiffFormat::Markdown => report::markdown::render_diff(&d, &mut buf),
    }
    .map_err(|e| e.to_string())?;
    match output {
        Some(p) => {
            std::fs::write(p, &buf).map_err(|e| format!("cannot write {}: {e}", p.display()))?
        }
        None => write_stdout(&buf)?,
    }
    Ok(Outcome::Clean)
}

pub(crate) fn merge(paths: &[PathBuf], out: &OutputArgs) -> Result<Outcome, String> {
    let mut reports = Vec::with_capacity(paths.len());
    for p in paths {
        let label = p
            .file_stem()
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_default();
        reports.push((label, report::diff::load(p)?));
    }
    let merged = report::merge::merge(reports).ok_or("no reports to merge")?;
    write_outputs(&merged, out)?;
    Ok(Outcome::Clean)
}
