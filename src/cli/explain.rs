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
    /// The library to audit around PATH (its skill-audit.toml applies, as for an audit)
    /// [default: `.` when PATH is inside it, else the nearest folder above PATH that holds
    /// `.git` or `skill-audit.toml`, else the folder holding PATH's skill or agent].
    #[arg(long, value_name = "DIR", value_hint = ValueHint::DirPath)]
    pub root: Option<PathBuf>,
    #[command(flatten)]
    pub library: LibraryArgs,
}

pub(crate) fn run(args: ExplainArgs) -> Result<Outcome, String> {
    let cwd =
        std::env::current_dir().map_err(|e| format!("cannot read the current directory: {e}"))?;
    if std::fs::symlink_metadata(&args.path).is_err() {
        return Err(format!("{}: no such file or folder", args.path.display()));
    }
    let root = args.root.unwrap_or_else(|| root_around(&args.path, &cwd));
    // The same options an audit of the root would use, settings file included.
    let audit_args = AuditArgs::quiet(vec![root.clone()], args.library);
    let opts = super::audit::options(&audit_args, cwd)?.opts;
    let result = audit::run(&opts).map_err(|e| e.to_string())?;
    let entry = find(&result, &args.path, &opts.view()).ok_or_else(|| {
        format!(
            "{} is neither a skill nor an agent found under {} (`--root` names the library that holds it)",
            args.path.display(),
            root.display()
        )
    })?;
    let report = Report::new(result);
    print(&explain(&report, &entry))
}

/// The library to audit when `--root` is not given: the current folder where it holds `path`
/// (so its settings file applies), else the nearest folder above `path` that is a repository's
/// or holds a settings file, else the folder around `path`'s skill or agent. Auditing the
/// current folder for a path outside it would read an unrelated tree and find nothing.
fn root_around(path: &Path, cwd: &Path) -> PathBuf {
    let Ok(target) = std::fs::canonicalize(path) else {
        return PathBuf::from(".");
    };
    if std::fs::canonicalize(cwd).is_ok_and(|c| target.starts_with(c)) {
        return PathBuf::from(".");
    }
    // A skill is its folder; an agent, or a skill's `SKILL.md`, is a file in one.
    let item = if target.is_dir() {
        target.as_path()
    } else {
        target.parent().unwrap_or(&target)
    };
    let item = if item.join("SKILL.md").is_file() {
        item.parent().unwrap_or(item)
    } else {
        item
    };
    item.ancestors()
        .find(|d| d.join(".git").exists() || d.join("skill-audit.toml").is_file())
        .unwrap_or(item)
        .to_path_buf()
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
