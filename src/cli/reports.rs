//! `diff` and `merge`: commands over saved JSON reports (and, for `diff`, profiles).

use clap::ValueEnum;
use std::path::{Path, PathBuf};

use super::{Outcome, OutputArgs, write_outputs, write_stdout};
use crate::profile::{self, Profile, ProfileSource};
use crate::report::{self, Report};

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum DiffFormat {
    Text,
    Json,
    Markdown,
}

/// What one side of `diff` is.
enum Side {
    Report(Box<Report>),
    Profile(Box<Profile>),
}

impl Side {
    fn what(&self) -> &'static str {
        match self {
            Side::Report(_) => "a JSON report",
            Side::Profile(_) => "a profile",
        }
    }
}

/// Read a side of `diff`: `builtin:NAME`, else a file (`-`: standard input) whose content
/// says what it is. A JSON object with a `schema_version` key is a report (a profile has none);
/// anything else is read as a profile.
fn side(arg: &Path) -> Result<Side, String> {
    if let Some(text) = arg.to_str() {
        match ProfileSource::parse(text) {
            ProfileSource::Builtin(name) => {
                return profile::builtin::load(&name)
                    .map(|p| Side::Profile(Box::new(p)))
                    .map_err(|e| e.to_string());
            }
            ProfileSource::Mcp { .. } => {
                return Err(format!(
                    "{text}: diff compares saved profiles; write this one with `skill-audit capture -o FILE` first"
                ));
            }
            ProfileSource::File(_) => {}
        }
    }
    let text = report::diff::read_report(arg)?;
    /// Only the key that tells a report from a profile; the rest is skipped unread.
    #[derive(serde::Deserialize)]
    struct Probe {
        schema_version: Option<serde::de::IgnoredAny>,
    }
    match serde_json::from_str::<Probe>(&text) {
        Ok(Probe {
            schema_version: Some(_),
        }) => report::diff::parse(&text, arg).map(|r| Side::Report(Box::new(r))),
        // Standard input cannot be read twice: its text is the profile's, named `stdin`
        // unless it names itself, as a file is named by its stem.
        _ if report::diff::is_stdin(arg) => {
            profile::parse(&text, Path::new("stdin"), "standard input")
                .map(|p| Side::Profile(Box::new(p)))
                .map_err(|e| e.to_string())
        }
        // Not even JSON, or JSON of another shape: the profile reader says where and why.
        _ => profile::load(arg, &arg.display().to_string())
            .map(|p| Side::Profile(Box::new(p)))
            .map_err(|e| e.to_string()),
    }
}

pub(crate) fn diff(
    old: &Path,
    new: &Path,
    format: DiffFormat,
    output: Option<&Path>,
) -> Result<Outcome, String> {
    if report::diff::is_stdin(old) && report::diff::is_stdin(new) {
        return Err("diff - -: standard input holds one file; name the other one".into());
    }
    let mut buf = Vec::new();
    match (side(old)?, side(new)?) {
        (Side::Report(old), Side::Report(new)) => {
            let d = report::diff::diff(&old, &new);
            match format {
                DiffFormat::Text => report::text::render_diff(&d, &mut buf),
                DiffFormat::Json => report::json::render_diff(&d, &mut buf),
                DiffFormat::Markdown => report::markdown::render_diff(&d, &mut buf),
            }
        }
        (Side::Profile(old), Side::Profile(new)) => {
            let d = report::diff::profiles(&old, &new);
            match format {
                DiffFormat::Text => report::text::render_profile_diff(&d, &mut buf),
                DiffFormat::Json => report::json::render_profile_diff(&d, &mut buf),
                DiffFormat::Markdown => report::markdown::render_profile_diff(&d, &mut buf),
            }
        }
        (a, b) => {
            return Err(format!(
                "cannot compare {} ({}) with {} ({}); give two JSON reports or two profiles",
                a.what(),
                report::diff::shown(old),
                b.what(),
                report::diff::shown(new)
            ));
        }
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
    if paths.iter().filter(|p| report::diff::is_stdin(p)).count() > 1 {
        return Err("merge: standard input (`-`) holds one report; give it once".into());
    }
    // As for an audit: a bad `-o` is refused before any report is read.
    super::check_outputs(out)?;
    let mut reports = Vec::with_capacity(paths.len());
    let mut used = std::collections::BTreeSet::new();
    // A file given twice keeps its label, so that merge finds its paths twice and says so.
    let mut label_of = std::collections::BTreeMap::new();
    for p in paths {
        let key = std::fs::canonicalize(p).unwrap_or_else(|_| p.clone());
        let label = match label_of.get(&key) {
            Some(label) => String::clone(label),
            None => {
                let label = new_label(p, &used);
                used.insert(label.clone());
                label_of.insert(key, label.clone());
                label
            }
        };
        reports.push(report::merge::Shard {
            file: report::diff::shown(p).into_owned(),
            label,
            report: report::diff::load(p)?,
        });
    }
    let merged = report::merge::merge(reports)?;
    write_outputs(&merged, out)?;
    Ok(Outcome::Clean)
}

/// The label of the report file `p`, not one of `used`: its stem. Two reports of one name
/// (`a/report.json`, `b/report.json`) are told apart by their folders, then by a number: their
/// paths must stay distinct.
fn new_label(p: &Path, used: &std::collections::BTreeSet<String>) -> String {
    // `-` has no name of its own.
    let stem = match report::diff::is_stdin(p) {
        true => "stdin".to_owned(),
        false => p
            .file_stem()
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_default(),
    };
    let folder = p
        .parent()
        .and_then(|d| d.file_name())
        .map(|d| format!("{}/{stem}", d.to_string_lossy()));
    std::iter::once(stem.clone())
        .chain(folder)
        .chain((2..).map(|n| format!("{stem}-{n}")))
        .find(|l| !used.contains(l))
        .unwrap_or(stem)
}
