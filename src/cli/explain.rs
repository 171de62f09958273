//! `explain PATH`: audit a library and show everything known about one skill or agent in it —
//! its fields, the links it is part of and their drift, its availability per profile, and its
//! findings.

use clap::ValueHint;
use std::path::{Path, PathBuf};

use super::{AuditArgs, LibraryArgs, Outcome, print};
use crate::audit::{self, AuditResult};
use crate::paths::PathView;
use crate::report::Report;
use crate::report::explain::{Entry, explain};

#[derive(Debug, clap::Args)]
pub struct ExplainArgs {
    /// A skill (its `SKILL.md` or its folder) or an agent file.
    #[arg(value_name = "PATH", value_hint = ValueHint::AnyPath)]
    pub path: PathBuf,
    /// The library to audit around PATH (its skill-audit.toml applies, as for an audit).
    #[arg(long, value_name = "DIR", default_value = ".", value_hint = ValueHint::DirPath)]
    pub root: PathBuf,
    #[command(flatten)]
    pub library: LibraryArgs,
}

pub(crate) fn run(args: ExplainArgs) -> Result<Outcome, String> {
    let cwd =
        std::env::current_dir().map_err(|e| format!("cannot read the current directory: {e}"))?;
    if std::fs::symlink_metadata(&args.path).is_err() {
        return Err(format!("{}: no such file or folder", args.path.display()));
    }
    // The same options an audit of the root would use, settings file included.
    let audit_args = AuditArgs::quiet(vec![args.root.clone()], args.library);
    let opts = super::audit::options(&audit_args, cwd)?.opts;
    let result = audit::run(&opts).map_err(|e| e.to_string())?;
    let entry = find(&result, &args.path, &opts.view()).ok_or_else(|| {
        format!(
            "{} is neither a skill nor an agent found under {}",
            args.path.display(),
            args.root.display()
        )
    })?;
    let report = Report::new(result);
    print(&explain(&report, &entry))
}

/// The skill or agent at `path`: the same file, or for a skill also its folder.
fn find(result: &AuditResult, path: &Path, view: &PathView) -> Option<Entry> {
    let canon = |p: &Path| std::fs::canonicalize(p).ok();
    let target = canon(path);
    let shown = crate::paths::display_path(path, view);
    let same = |fs_path: &Path, display: &str| {
        display == shown || (target.is_some() && canon(fs_path) == target)
    };
    if let Some(i) = result.skills.iter().position(|r| {
        let s = &r.skill;
        same(&s.fs_path, &s.path)
            || (target.is_some() && s.fs_path.parent().and_then(canon) == target)
    }) {
        return Some(Entry::Skill(i));
    }
    result
        .agents
        .iter()
        .position(|r| same(&r.agent.fs_path, &r.agent.path))
        .map(Entry::Agent)
}
