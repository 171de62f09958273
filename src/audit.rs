//! The pipeline: discover → parse (+ per-file rules) → library rules → evaluate → findings.
//! Everything a renderer needs ends up in [`AuditResult`]; nothing downstream reads files.

use rayon::prelude::*;
use std::collections::HashSet;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::path::PathBuf;

use crate::config::Settings;
use crate::diagnostic::{Finding, Pos, Sink, Suppression, sort_findings};
use crate::discover::{self, Candidate, Kind};
use crate::evaluate::{self, Availability};
use crate::model::{Agent, Drift, Link, Manifest, Skill};
use crate::parse;
use crate::profile::{self, Profile, ProfileError, ProfileSource};
use crate::resolve;
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
    /// Links no manifest records (`[[links]]` in skill-audit.toml): agent file, skill names.
    pub links: Vec<(PathBuf, Vec<String>)>,
    /// Attach each finding's source line (for the text renderer).
    pub snippets: bool,
    /// How to talk to MCP servers (`mcp:` profiles, `mcp_skills`): timeout, standard error.
    pub mcp: crate::mcp::Settings,
    /// `Name: value` headers for HTTP MCP servers named by `mcp:NAME=URL` profiles.
    pub mcp_headers: Vec<String>,
    /// Audit the skills this MCP server serves, and add its tools as the last profile column
    /// (`mcp:<server-name>`), all from one session.
    pub mcp_skills: Option<crate::mcp::Server>,
}

/// One skill and its availability in each profile (same order as `AuditResult::profiles`).
#[derive(Debug, Clone)]
pub struct SkillResult {
    /// Boxed from parsing on: moving a pointer, not the whole skill, through each stage.
    pub skill: Box<Skill>,
    pub availability: Vec<Availability>,
}

/// One agent and its availability in each profile.
#[derive(Debug, Clone)]
pub struct AgentResult {
    pub agent: Agent,
    pub availability: Vec<Availability>,
}

/// Everything one run found.
#[derive(Debug, Clone)]
pub struct AuditResult {
    pub roots: Vec<String>,
    pub profiles: Vec<Profile>,
    pub skills: Vec<SkillResult>,
    pub agents: Vec<AgentResult>,
    pub links: Vec<Link>,
    pub drift: Vec<Drift>,
    pub findings: Vec<Finding>,
    pub files_scanned: usize,
}

/// What one file turned out to be.
enum Parsed {
    Skill(Box<Skill>),
    Agent(Box<Agent>),
    Manifests(Vec<Manifest>),
    /// A candidate that is not one after all (a Claude-folder `.md` without frontmatter).
    Nothing,
}

/// Why a run could not start: exit code 2.
#[derive(Debug, thiserror::Error)]
pub enum AuditError {
    #[error("{0}")]
    Profile(#[from] ProfileError),
    #[error("{0}")]
    Usage(String),
    #[error("{0}")]
    Mcp(#[from] crate::mcp::Error),
}

/// Run a whole audit.
pub fn run(opts: &AuditOptions) -> Result<AuditResult, AuditError> {
    for root in &opts.roots {
        if std::fs::symlink_metadata(root).is_err() {
            return Err(AuditError::Usage(format!(
                "{}: no such file or folder",
                root.display()
            )));
        }
    }
    let excludes = discover::compile_excludes(&opts.excludes).map_err(AuditError::Usage)?;
    let work = || {
        // This thread walks the library, which mostly means waiting for the walker's own
        // threads, while the pool parses each file found and loads the profiles (MCP servers
        // answer meanwhile): a pool thread that walked would parse nothing until the walk ends.
        let mut loaded = None;
        let scan = rayon::in_place_scope(|s| {
            s.spawn(|_| loaded = Some(sources(opts)));
            scan(opts, &excludes)
        });
        let (profiles, served) = loaded.unwrap_or_else(|| Ok(Default::default()))?;
        Ok(audit(opts, profiles, scan, served))
    };
    // The caller's pool when it has the size asked for (the CLI sizes the global pool from
    // `-j`, and its renderers use it too); otherwise a pool of that size for this run.
    if opts.threads == 0 || opts.threads == rayon::current_num_threads() {
        return work();
    }
    rayon::ThreadPoolBuilder::new()
        .num_threads(opts.threads)
        .build()
        .map_err(|e| AuditError::Usage(format!("cannot start worker threads: {e}")))?
        .install(work)
}

/// The profiles, and the skills an MCP server serves (with that session's tools added as a
/// profile), so each served skill is judged against what the user of that session can call.
fn sources(
    opts: &AuditOptions,
) -> Result<(Vec<Profile>, Vec<crate::mcp::skills::ServedSkill>), AuditError> {
    let mut profiles = load_profiles(opts)?;
    let Some(server) = &opts.mcp_skills else {
        return Ok((profiles, Vec::new()));
    };
    let listing = crate::mcp::session(server, &opts.mcp, true)?;
    let name = listing.column_name();
    if profiles.iter().any(|p| p.name == name) {
        return Err(AuditError::Usage(format!(
            "two profiles are named `{name}`; rename the other one"
        )));
    }
    profiles.push(listing.profile(&name).map_err(AuditError::Usage)?);
    Ok((profiles, listing.skills))
}

/// The files found, each read, parsed and checked on its own.
struct Scan {
    found: discover::Discovery,
    per_file: Vec<FileOutput>,
}

fn scan(opts: &AuditOptions, excludes: &globset::GlobSet) -> Scan {
    // Each file is parsed on the pool as soon as the walk finds it, so parsing fills the time
    // the walk spends waiting on the file system.
    let parsed = std::sync::Mutex::new(Vec::new());
    let found = rayon::in_place_scope(|s| {
        discover::walk_each(&opts.roots, excludes, opts.threads, &opts.cwd, &|c| {
            let c = c.clone();
            let parsed = &parsed;
            s.spawn(move |_| {
                let out = guarded(&c, &opts.settings);
                parsed
                    .lock()
                    .unwrap_or_else(|p| p.into_inner())
                    .push((c.path, out));
            });
        })
    });
    // In the walk's (sorted, de-duplicated) order, whatever order the parses finished in.
    let mut parsed = parsed.into_inner().unwrap_or_else(|p| p.into_inner());
    parsed.par_sort_by(|a, b| a.0.cmp(&b.0));
    parsed.dedup_by(|a, b| a.0 == b.0);
    let per_file = parsed.into_iter().map(|(_, out)| out).collect();
    Scan { found, per_file }
}

fn load_profiles(opts: &AuditOptions) -> Result<Vec<Profile>, AuditError> {
    let mut out: Vec<Profile> = Vec::with_capacity(opts.profiles.len());
    let mut seen = HashSet::new();
    for source in &opts.profiles {
        let p = match source {
            ProfileSource::File(path) => {
                profile::load(path, &discover::display_path(path, &opts.cwd))?
            }
            ProfileSource::Builtin(name) => profile::builtin::load(name)?,
            ProfileSource::Mcp { name, argv } => {
                crate::mcp::live_profile(name, argv, &opts.mcp_headers, &opts.mcp)?
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

fn audit(
    opts: &AuditOptions,
    profiles: Vec<Profile>,
    Scan { found, per_file }: Scan,
    served: Vec<crate::mcp::skills::ServedSkill>,
) -> AuditResult {
    // Sized up front: growing by doubling would hold up to twice the skills (and findings) at
    // the peak, and copy them each time.
    let mut findings: Vec<Finding> =
        Vec::with_capacity(per_file.iter().map(|(_, f, _)| f.len()).sum());
    let count = |want: fn(&Parsed) -> bool| per_file.iter().filter(|(p, _, _)| want(p)).count();
    let mut skills = Vec::with_capacity(count(|p| matches!(p, Parsed::Skill(_))) + served.len());
    let mut agents = Vec::with_capacity(count(|p| matches!(p, Parsed::Agent(_))));
    let mut manifests = Vec::new();
    let mut files_scanned = 0;
    let mut suppressions = Vec::new();
    for (parsed, f, sup) in per_file {
        findings.extend(f);
        suppressions.extend(sup);
        match parsed {
            Parsed::Skill(s) => skills.push(s),
            Parsed::Agent(a) => agents.push(*a),
            Parsed::Manifests(m) => manifests.extend(m),
            Parsed::Nothing => continue,
        }
        files_scanned += 1;
    }
    // Skills served over MCP are audited like local files; their path is their URI.
    for (parsed, f, sup) in served
        .par_iter()
        .map(|s| {
            let c = Candidate {
                fs_path: crate::mcp::skills::pseudo_path(&s.uri),
                path: s.uri.clone(),
                kind: Kind::Skill { exact: true },
            };
            contain(&c, || {
                let (skill, f, sup) = crate::mcp::skills::audit(s, &opts.settings);
                (Parsed::Skill(Box::new(skill)), f, sup)
            })
        })
        .collect::<Vec<_>>()
    {
        findings.extend(f);
        suppressions.extend(sup);
        if let Parsed::Skill(s) = parsed {
            skills.push(s);
            files_scanned += 1;
        }
    }
    // Claude plugins may name agent files outside an `agents/` folder; the walk cannot know
    // them until the manifests are read, so they are picked up in a second, small pass.
    let extra = manifest_agents(&manifests, &found.candidates, &opts.cwd);
    for (parsed, f, sup) in extra
        .par_iter()
        .map(|c| guarded(c, &opts.settings))
        .collect::<Vec<_>>()
    {
        findings.extend(f);
        suppressions.extend(sup);
        if let Parsed::Agent(a) = parsed {
            agents.push(*a);
            files_scanned += 1;
        }
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
    rules::agent::check_targets(&agents, &mut findings);
    rules::host::check(&agents, &profiles, &mut findings);
    let mut links = resolve::links(
        &skills,
        &agents,
        &manifests,
        &opts.roots,
        &opts.cwd,
        &mut findings,
    );
    links.extend(resolve::configured(
        &skills,
        &agents,
        &opts.links,
        &opts.cwd,
        &mut findings,
    ));
    links.sort();
    links.dedup();
    let drift = drift(&links, &skills, &agents, &mut findings);
    let skills: Vec<SkillResult> = skills
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
    let agents: Vec<AgentResult> = agents
        .into_par_iter()
        .map(|agent| {
            let availability = profiles
                .iter()
                .map(|p| evaluate::agent(&agent, p))
                .collect();
            AgentResult {
                agent,
                availability,
            }
        })
        .collect();
    let names: Vec<&str> = profiles.iter().map(|p| p.name.as_str()).collect();
    // Room for them made first: one finding per unmet profile can mean hundreds of thousands,
    // and pushing them one by one grew the list (and copied it) many times over.
    let unmet = |availability: &[Availability]| {
        availability
            .iter()
            .filter(|a| a.status == evaluate::Status::Unavailable)
            .count()
    };
    findings.reserve_exact(
        skills.iter().map(|r| unmet(&r.availability)).sum::<usize>()
            + agents.iter().map(|r| unmet(&r.availability)).sum::<usize>(),
    );
    for r in &skills {
        rules::library::unavailable(
            &r.skill.path,
            r.skill.name_pos,
            "skill",
            &names,
            &r.availability,
            &mut findings,
        );
    }
    for r in &agents {
        rules::library::unavailable(
            &r.agent.path,
            r.agent.tools_pos,
            "agent",
            &names,
            &r.availability,
            &mut findings,
        );
    }
    rules::config::apply_suppressions(&mut findings, &suppressions);
    rules::config::apply_severities(&mut findings, &opts.settings.severities);
    sort_findings(&mut findings);
    if opts.snippets {
        attach_sources(&mut findings, &skills, &agents, &manifests);
        crate::mcp::skills::attach_sources(&mut findings, &served);
    }
    AuditResult {
        roots: opts
            .roots
            .iter()
            .map(|r| discover::display_path(r, &opts.cwd))
            .collect(),
        profiles,
        skills,
        agents,
        links,
        drift,
        findings,
        files_scanned,
    }
}

/// `.md` files that Claude plugin manifests list as agents (directly or as a folder) and the
/// walk did not already classify.
fn manifest_agents(
    manifests: &[Manifest],
    known: &[Candidate],
    cwd: &std::path::Path,
) -> Vec<Candidate> {
    // Built on first use: most libraries have no Claude plugin that lists agents.
    let seen = std::cell::OnceCell::new();
    let mut out: Vec<Candidate> = Vec::new();
    for m in manifests.iter().filter(|m| m.via == "claude-plugin") {
        for (p, _) in m.agents.iter().flatten() {
            let target = discover::normalize(&m.base.join(p.trim_start_matches("./")));
            let mut files = Vec::new();
            collect_md(&target, 0, &mut files);
            let seen: &HashSet<PathBuf> = seen.get_or_init(|| {
                known
                    .iter()
                    .map(|c| discover::normalize(&c.fs_path))
                    .collect()
            });
            for f in files {
                if !seen.contains(&f) && !out.iter().any(|c| c.fs_path == f) {
                    out.push(Candidate {
                        path: discover::display_path(&f, cwd),
                        fs_path: f,
                        kind: Kind::Agent(discover::AgentFlavor::Claude),
                    });
                }
            }
        }
    }
    out.sort_by(|a, b| a.path.cmp(&b.path));
    out
}

/// `.md` files at `path` (a file, or a folder searched a few levels deep).
fn collect_md(path: &std::path::Path, depth: usize, out: &mut Vec<PathBuf>) {
    let Ok(meta) = std::fs::metadata(path) else {
        return;
    };
    if meta.is_file() {
        if path
            .extension()
            .is_some_and(|e| e.eq_ignore_ascii_case("md"))
        {
            out.push(path.to_owned());
        }
    } else if meta.is_dir() && depth < 4 {
        let Ok(entries) = std::fs::read_dir(path) else {
            return;
        };
        let mut children: Vec<PathBuf> = entries.filter_map(|e| e.ok().map(|e| e.path())).collect();
        children.sort();
        for c in children {
            collect_md(&c, depth + 1, out);
        }
    }
}

/// Read the lines findings point at, once per file (only files with findings are read).
fn attach_sources(
    findings: &mut [Finding],
    skills: &[SkillResult],
    agents: &[AgentResult],
    manifests: &[Manifest],
) {
    let mut fs_paths: std::collections::HashMap<&str, &std::path::Path> =
        std::collections::HashMap::new();
    fs_paths.extend(
        skills
            .iter()
            .map(|s| (s.skill.path.as_str(), s.skill.fs_path.as_path())),
    );
    fs_paths.extend(
        agents
            .iter()
            .map(|a| (a.agent.path.as_str(), a.agent.fs_path.as_path())),
    );
    fs_paths.extend(
        manifests
            .iter()
            .map(|m| (m.path.as_str(), m.fs_path.as_path())),
    );
    let mut start = 0;
    while start < findings.len() {
        let path = findings[start].path.clone();
        let end = start
            + findings[start..]
                .iter()
                .take_while(|f| f.path == path)
                .count();
        // Findings are sorted by path, so each file is read once; a file too large to show
        // (over 4 MiB) keeps the plain one-line form.
        let text = fs_paths
            .get(path.as_str())
            .filter(|p| std::fs::metadata(p).is_ok_and(|m| m.len() <= 4 << 20))
            .and_then(|p| std::fs::read(p).ok())
            .map(|b| String::from_utf8_lossy(&b).into_owned());
        if let Some(text) = text {
            let lines: Vec<&str> = text.lines().collect();
            for f in &mut findings[start..end] {
                let i = usize::try_from(f.line)
                    .unwrap_or(usize::MAX)
                    .saturating_sub(1);
                f.source = lines
                    .get(i)
                    .map(|l| l.trim_start_matches('\u{feff}').to_owned());
            }
        }
        start = end;
    }
}

/// Drift for every link, with one finding per drifting link.
fn drift(
    links: &[Link],
    skills: &[Box<Skill>],
    agents: &[Agent],
    findings: &mut Vec<Finding>,
) -> Vec<Drift> {
    // foldhash: SipHash over 100,000 skill paths was a good part of this step.
    let skill_by_path: foldhash::HashMap<&str, &Skill> =
        skills.iter().map(|s| (s.path.as_str(), &**s)).collect();
    let agent_ix: foldhash::HashMap<&str, &Agent> =
        agents.iter().map(|a| (a.path.as_str(), a)).collect();
    // Links come sorted by agent: each agent's links are judged on their own, on all threads,
    // with its grants built once and only when a linked skill needs tools. Results keep the
    // links' order.
    let per_agent: Vec<(Vec<Drift>, Vec<Finding>)> = links
        .par_chunk_by(|a, b| a.agent == b.agent)
        .map(|group| {
            let (mut drift, mut found) = (Vec::new(), Vec::new());
            let Some(agent) = group.first().and_then(|l| agent_ix.get(l.agent.as_str())) else {
                return (drift, found);
            };
            let grants = std::cell::OnceCell::new();
            for l in group {
                let Some(skill) = skill_by_path.get(l.skill_path.as_str()) else {
                    continue;
                };
                let grants = || grants.get_or_init(|| evaluate::Grants::of(agent));
                if let Some(d) = evaluate::drift(l, agent, grants, skill) {
                    found.push(rules::links::drift_finding(&d, agent));
                    drift.push(d);
                }
                found.extend(rules::links::model_drift(l, agent, skill));
            }
            (drift, found)
        })
        .collect();
    let mut out = Vec::new();
    for (drift, found) in per_agent {
        out.extend(drift);
        findings.extend(found);
    }
    out
}

/// What one file yields: its model, its findings and its suppression comments.
type FileOutput = (Parsed, Vec<Finding>, Vec<Suppression>);

/// Process one file; a panic becomes an `internal-error` finding and the run goes on.
fn guarded(c: &Candidate, settings: &Settings) -> FileOutput {
    contain(c, || process(c, settings))
}

/// Run `work` for `c`, turning a panic into an `internal-error` finding on that file.
fn contain(c: &Candidate, work: impl FnOnce() -> FileOutput) -> FileOutput {
    match catch_unwind(AssertUnwindSafe(work)) {
        Ok(r) => r,
        Err(panic) => {
            let what = panic
                .downcast_ref::<&str>()
                .map(|s| (*s).to_owned())
                .or_else(|| panic.downcast_ref::<String>().cloned())
                .unwrap_or_else(|| "unknown failure".into());
            let f = Finding::new(
                Rule::InternalError,
                &c.path,
                Pos::START,
                format!("internal error: {what}"),
            );
            (placeholder(c), vec![f], Vec::new())
        }
    }
}

/// An invalid entry for a file that could not be processed, so it still shows in the report.
fn placeholder(c: &Candidate) -> Parsed {
    match c.kind {
        Kind::Skill { .. } => Parsed::Skill(Box::new(Skill::invalid(
            folder_name(c),
            c.path.clone(),
            c.fs_path.clone(),
        ))),
        Kind::Agent(_) => {
            let file = c
                .fs_path
                .file_name()
                .map(|n| n.to_string_lossy().into_owned())
                .unwrap_or_default();
            let stem = parse::agent::stem(&file).to_owned();
            Parsed::Agent(Box::new(Agent {
                name: stem.clone(),
                stem,
                path: c.path.clone(),
                fs_path: c.fs_path.clone(),
                invalid: true,
                ..Agent::default()
            }))
        }
        Kind::Manifest(_) => Parsed::Manifests(Vec::new()),
    }
}

fn folder_name(c: &Candidate) -> String {
    c.fs_path
        .parent()
        .and_then(|p| p.file_name())
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default()
}

fn process(c: &Candidate, settings: &Settings) -> FileOutput {
    let mut sink = Sink::new(&c.path);
    if let Kind::Skill { exact: false } = c.kind {
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
            return (placeholder(c), sink.findings, sink.suppressions);
        }
    };
    let parsed = match c.kind {
        Kind::Skill { .. } => {
            // Only broken links are reported: a body whose links all resolve is not parsed.
            let dir = c.fs_path.parent().unwrap_or(std::path::Path::new(""));
            let parsed = parse::skill::parse(&bytes, &c.path, &c.fs_path, &mut sink, |t| {
                rules::spec::link_is_broken(dir, t)
            });
            rules::spec::check(&parsed, settings, &mut sink);
            Parsed::Skill(Box::new(parsed.skill))
        }
        Kind::Agent(flavor) => {
            match parse::agent::parse(&bytes, &c.path, &c.fs_path, flavor, &mut sink) {
                Some(parsed) => {
                    rules::agent::check(&parsed, &mut sink);
                    Parsed::Agent(Box::new(parsed.agent))
                }
                None => Parsed::Nothing,
            }
        }
        Kind::Manifest(kind) => Parsed::Manifests(parse::manifest::parse(
            &bytes, &c.path, &c.fs_path, kind, &mut sink,
        )),
    };
    (parsed, sink.findings, sink.suppressions)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_panic_in_one_file_becomes_a_finding_and_an_invalid_entry() {
        let c = Candidate {
            fs_path: PathBuf::from("skills/x/SKILL.md"),
            path: "skills/x/SKILL.md".into(),
            kind: Kind::Skill { exact: true },
        };
        // Keep the expected panic's message out of the test output.
        let hook = std::panic::take_hook();
        std::panic::set_hook(Box::new(|_| {}));
        let (parsed, findings, _) = contain(&c, || panic!("boom"));
        std::panic::set_hook(hook);
        assert_eq!(findings.len(), 1);
        assert_eq!(findings[0].rule, Rule::InternalError);
        assert!(findings[0].message.contains("boom"));
        assert!(matches!(parsed, Parsed::Skill(s) if s.invalid && s.path == "skills/x/SKILL.md"));
    }
}
