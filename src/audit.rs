//! The pipeline: discover → parse (+ per-file rules) → library rules → evaluate → findings.
//! Everything a renderer needs ends up in [`AuditResult`]; nothing downstream reads files.

use rayon::prelude::*;
use std::collections::HashSet;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::path::PathBuf;

use crate::config::Settings;
use crate::diagnostic::{Finding, Pos, Sink, sort_findings};
use crate::discover::{self, Candidate, Kind};
use crate::evaluate::{self, Availability};
use crate::model::Skill;
use crate::parse;
use crate::profile::{self, Profile, ProfileError, ProfileSource};
use crate::rules::{self, Rule};

/// What to audit and how.
#[derive(Debug, Clone, Default)]
pub struct AuditOptions {
    pub roots: Vec<PathBuf>,
    pub profiles: Vec<ProfileSource>,
    pub excludes: Vec<String>,
    pub settings: Settings,
    /// Worker threads for the walk and the parse (0 = one per core).
    pub threads: usize,
    /// Paths in the report are relative to this folder when under it.
    pub cwd: PathBuf,
}

/// One skill and its availability in each profile (same order as `AuditResult::profiles`).
#[derive(Debug, Clone)]
pub struct SkillResult {
    pub skill: Skill,
    pub availability: Vec<Availability>,
}

/// Everything one run found.
#[derive(Debug, Clone)]
pub struct AuditResult {
    pub roots: Vec<String>,
    pub profiles: Vec<Profile>,
    pub skills: Vec<SkillResult>,
    pub findings: Vec<Finding>,
    pub files_scanned: usize,
}

/// Why a run could not start: exit code 2.
#[derive(Debug, thiserror::Error)]
pub enum AuditError {
    #[error("{0}")]
    Profile(#[from] ProfileError),
    #[error("{0}")]
    Usage(String),
}

/// Run a whole audit.
pub fn run(opts: &AuditOptions) -> Result<AuditResult, AuditError> {
    let profiles = load_profiles(opts)?;
    for root in &opts.roots {
        if std::fs::symlink_metadata(root).is_err() {
            return Err(AuditError::Usage(format!(
                "{}: no such file or folder",
                root.display()
            )));
        }
    }
    let excludes = discover::compile_excludes(&opts.excludes).map_err(AuditError::Usage)?;
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(opts.threads)
        .build()
        .map_err(|e| AuditError::Usage(format!("cannot start worker threads: {e}")))?;
    Ok(pool.install(|| audit(opts, profiles, &excludes)))
}

fn load_profiles(opts: &AuditOptions) -> Result<Vec<Profile>, AuditError> {
    let mut out: Vec<Profile> = Vec::with_capacity(opts.profiles.len());
    let mut seen = HashSet::new();
    for source in &opts.profiles {
        let p = match source {
            ProfileSource::File(path) => {
                profile::load(path, &discover::display_path(path, &opts.cwd))?
            }
        };
        if !seen.insert(p.name.clone()) {
            return Err(AuditError::Usage(format!(
                "two profiles are named `{}` ({}); give each a distinct `name`",
                p.name, p.path
            )));
        }
        out.push(p);
    }
    Ok(out)
}

fn audit(opts: &AuditOptions, profiles: Vec<Profile>, excludes: &globset::GlobSet) -> AuditResult {
    let found = discover::walk(&opts.roots, excludes, opts.threads, &opts.cwd);
    let per_file: Vec<(Skill, Vec<Finding>)> = found
        .candidates
        .par_iter()
        .map(|c| guarded(c, &opts.settings))
        .collect();
    let files_scanned = per_file.len();
    let mut findings: Vec<Finding> = Vec::new();
    let mut skills = Vec::with_capacity(per_file.len());
    for (skill, f) in per_file {
        findings.extend(f);
        skills.push(skill);
    }
    for e in &found.errors {
        findings.push(Finding::new(
            Rule::ReadError,
            &e.path,
            Pos::START,
            format!("cannot read: {}", e.message),
        ));
    }
    rules::library::duplicate_names(&skills, &mut findings);
    let results: Vec<SkillResult> = skills
        .into_par_iter()
        .map(|skill| {
            let availability = profiles
                .iter()
                .map(|p| evaluate::skill(&skill, p))
                .collect();
            SkillResult {
                skill,
                availability,
            }
        })
        .collect();
    for r in &results {
        let named: Vec<(&str, Availability)> = profiles
            .iter()
            .map(|p| p.name.as_str())
            .zip(r.availability.iter().cloned())
            .collect();
        rules::library::unavailable(&r.skill, &named, &mut findings);
    }
    sort_findings(&mut findings);
    AuditResult {
        roots: opts
            .roots
            .iter()
            .map(|r| discover::display_path(r, &opts.cwd))
            .collect(),
        profiles,
        skills: results,
        findings,
        files_scanned,
    }
}

/// Process one file; a panic becomes an `internal-error` finding and the run goes on.
fn guarded(c: &Candidate, settings: &Settings) -> (Skill, Vec<Finding>) {
    match catch_unwind(AssertUnwindSafe(|| process(c, settings))) {
        Ok(r) => r,
        Err(panic) => {
            let what = panic
                .downcast_ref::<&str>()
                .map(|s| (*s).to_owned())
                .or_else(|| panic.downcast_ref::<String>().cloned())
                .unwrap_or_else(|| "unknown failure".into());
            let skill = Skill::invalid(folder_name(c), c.path.clone(), c.fs_path.clone());
            let f = Finding::new(
                Rule::InternalError,
                &c.path,
                Pos::START,
                format!("internal error: {what}"),
            );
            (skill, vec![f])
        }
    }
}

fn folder_name(c: &Candidate) -> String {
    c.fs_path
        .parent()
        .and_then(|p| p.file_name())
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default()
}

fn process(c: &Candidate, settings: &Settings) -> (Skill, Vec<Finding>) {
    let mut sink = Sink::new(&c.path);
    let Kind::Skill { exact } = c.kind;
    if !exact {
        let name = c
            .fs_path
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        sink.push(
            Rule::SkillFileCasing,
            Pos::START,
            format!("`{name}` should be named `SKILL.md`: Claude Code and Codex look for that exact name"),
        );
    }
    let bytes = match std::fs::read(&c.fs_path) {
        Ok(b) => b,
        Err(e) => {
            sink.push(Rule::ReadError, Pos::START, format!("cannot read: {e}"));
            let skill = Skill::invalid(folder_name(c), c.path.clone(), c.fs_path.clone());
            return (skill, sink.findings);
        }
    };
    let parsed = parse::skill::parse(&bytes, &c.path, &c.fs_path, &mut sink);
    drop(bytes);
    rules::spec::check(&parsed, settings, &mut sink);
    (parsed.skill, sink.findings)
}
