//! The pipeline: discover → parse (+ per-file rules) → library rules → evaluate → findings.
//! Everything a renderer needs ends up in [`AuditResult`]; nothing downstream reads files.

use rayon::prelude::*;
use std::collections::HashSet;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::path::PathBuf;

use crate::config::Settings;
use crate::diagnostic::{Finding, Sink, Suppression, sort_findings};
use crate::discover::{self, Candidate, Entry, Kind};
use crate::evaluate::{self, Availability};
use crate::files::{Files, Tree};
use crate::model::{Agent, Drift, Link, Manifest, Skill};
use crate::parse;
use crate::profile::{self, Profile, ProfileError, ProfileSource};
use crate::report::sources::Sources;
use crate::resolve;
use crate::rules;
use crate::source::{self, Boundary, FileId, MAX_FILE_BYTES, Refusal};

/// What to audit and how.
#[derive(Debug, Clone, Default)]
pub struct AuditOptions {
    pub roots: Vec<PathBuf>,
    pub profiles: Vec<ProfileSource>,
    /// `--exclude` globs, matched relative to the root a path is under.
    pub excludes: Vec<String>,
    /// The settings file's `exclude` globs, matched relative to `config_dir`.
    pub config_excludes: Vec<String>,
    /// The settings file's folder (the current one when there is no file).
    pub config_dir: PathBuf,
    pub settings: Settings,
    /// Worker threads for the walk and the parse (0 = one per core).
    pub threads: usize,
    /// Paths in the report are relative to this folder when under it.
    pub cwd: PathBuf,
    /// Links no manifest records (`[[links]]` in skill-audit.toml): agent file, skill names.
    pub links: Vec<(PathBuf, Vec<String>)>,
    /// Attach each finding's source line (for the text renderer).
    pub snippets: bool,
    /// How skills' `tools` and `mcp-servers` are read when agents load them.
    pub semantics: evaluate::Semantics,
    /// How to talk to MCP servers (`mcp:` profiles, `mcp_skills`): timeout, standard error.
    pub mcp: crate::mcp::Settings,
    /// `Name: value` headers for HTTP MCP servers named by `mcp:NAME=URL` profiles.
    pub mcp_headers: Vec<String>,
    /// Audit the skills this MCP server serves, and add its tools as the last profile column
    /// (`mcp:<server-name>`), all from one session.
    pub mcp_skills: Option<crate::mcp::Server>,
    /// `--no-ignore`: audit files that `.gitignore` and other ignore rules hide.
    pub no_ignore: bool,
    /// `--follow-outside`: read files whose real path leaves the audited tree (unsafe for
    /// trees you do not trust).
    pub follow_outside: bool,
    /// Text to audit instead of what a file holds, by file-system path: the fixes of earlier
    /// passes (`fix::run`), not yet written.
    pub overlay: std::sync::Arc<std::collections::BTreeMap<PathBuf, Vec<u8>>>,
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
    /// Skill, agent and manifest files that ignore rules kept out of the audit.
    pub ignored: usize,
    /// Where each file can be read again for source lines (only when asked for).
    pub sources: Sources,
}

/// What one file turned out to be.
#[derive(Debug, Clone)]
pub(crate) enum Parsed {
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

impl From<crate::mcp::LiveError> for AuditError {
    fn from(e: crate::mcp::LiveError) -> Self {
        match e {
            crate::mcp::LiveError::Usage(m) => AuditError::Usage(m),
            crate::mcp::LiveError::Server(e) => AuditError::Mcp(e),
        }
    }
}

/// Run a whole audit.
pub fn run(opts: &AuditOptions) -> Result<AuditResult, AuditError> {
    in_pool(opts, || {
        let s = scanned(opts)?;
        Ok(judge(
            opts,
            s.profiles,
            s.scan.per_file,
            &s.scan.found,
            s.served,
            &s.boundary,
        ))
    })
}

/// Run `work` on the caller's pool when it has the size asked for (the CLI sizes the global
/// pool from `-j`, and its renderers use it too); otherwise on a pool of that size.
pub(crate) fn in_pool<R: Send>(
    opts: &AuditOptions,
    work: impl FnOnce() -> Result<R, AuditError> + Send,
) -> Result<R, AuditError> {
    if opts.threads == 0 || opts.threads == rayon::current_num_threads() {
        return work();
    }
    rayon::ThreadPoolBuilder::new()
        .num_threads(opts.threads)
        .build()
        .map_err(|e| AuditError::Usage(format!("cannot start worker threads: {e}")))?
        .install(work)
}

/// Everything read from the tree and the profiles, before the library-level stage.
pub(crate) struct Scanned {
    pub(crate) profiles: Vec<Profile>,
    pub(crate) scan: Scan,
    pub(crate) served: Vec<crate::mcp::skills::ServedSkill>,
    pub(crate) boundary: Boundary,
    pub(crate) excludes: discover::Excludes,
}

/// Walk and parse every file, and load the profiles.
pub(crate) fn scanned(opts: &AuditOptions) -> Result<Scanned, AuditError> {
    for root in &opts.roots {
        if std::fs::symlink_metadata(root).is_err() {
            return Err(AuditError::Usage(format!(
                "{}: no such file or folder",
                root.display()
            )));
        }
    }
    let excludes = discover::Excludes::new(
        &opts.excludes,
        &opts.config_excludes,
        &opts.config_dir,
        &opts.roots,
        &opts.cwd,
    )
    .map_err(AuditError::Usage)?;
    // This thread walks the library, which mostly means waiting for the walker's own
    // threads, while the pool parses each file found and loads the profiles (MCP servers
    // answer meanwhile): a pool thread that walked would parse nothing until the walk ends.
    let mut loaded = None;
    let boundary = Boundary::new(&opts.roots, opts.follow_outside);
    let mut scan = rayon::in_place_scope(|s| {
        s.spawn(|_| loaded = Some(sources(opts)));
        scan(opts, &excludes, &boundary)
    });
    let (profiles, served) = loaded.unwrap_or_else(|| Ok(Default::default()))?;
    complete(opts, &mut scan, &boundary);
    Ok(Scanned {
        profiles,
        scan,
        served,
        boundary,
        excludes,
    })
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
pub(crate) struct Scan {
    pub(crate) found: discover::Discovery,
    /// Sorted by display path, one per path.
    pub(crate) per_file: Vec<FileOutput>,
}

pub(crate) fn scan(
    opts: &AuditOptions,
    excludes: &discover::Excludes,
    boundary: &Boundary,
) -> Scan {
    // Each file is parsed on the pool as soon as the walk finds it, so parsing fills the time
    // the walk spends waiting on the file system.
    let parsed = std::sync::Mutex::new(Vec::new());
    let rules = if opts.no_ignore {
        discover::IgnoreRules::Off
    } else {
        discover::IgnoreRules::Honour
    };
    let found = rayon::in_place_scope(|s| {
        discover::walk_each(
            &opts.roots,
            excludes,
            opts.threads,
            &opts.cwd,
            rules,
            &|c| {
                let c = c.clone();
                let parsed = &parsed;
                s.spawn(move |_| {
                    let out = guarded(c, opts, boundary);
                    parsed.lock().unwrap_or_else(|p| p.into_inner()).push(out);
                });
            },
        )
    });
    // In the walk's (sorted, de-duplicated) order, whatever order the parses finished in.
    let mut per_file: Vec<FileOutput> = parsed.into_inner().unwrap_or_else(|p| p.into_inner());
    per_file.par_sort_by(|a, b| a.path.cmp(&b.path));
    per_file.dedup_by(|a, b| a.path == b.path);
    Scan { found, per_file }
}

pub(crate) fn load_profiles(opts: &AuditOptions) -> Result<Vec<Profile>, AuditError> {
    let mut out: Vec<Profile> = Vec::with_capacity(opts.profiles.len());
    let mut seen = HashSet::new();
    // One composer for the run: files several profiles are built on are read once.
    let mut composer = profile::Composer::default();
    for source in &opts.profiles {
        let p = match source {
            ProfileSource::File(path) => {
                composer.load(path, &discover::display_path(path, &opts.cwd))?
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

/// The file-level work that needs the whole scan: Codex sidecars beside the skills, agent files
/// that manifests list, one output per file. Reads files; [`judge`] reads none.
pub(crate) fn complete(opts: &AuditOptions, scan: &mut Scan, boundary: &Boundary) {
    let Scan { found, per_file } = scan;
    // Codex's sidecars, for the skills beside one the walk passed.
    if !found.sidecars.is_empty() {
        per_file
            .par_iter_mut()
            .for_each(|o| with_sidecar(o, &found.sidecars, boundary));
    }
    // Claude plugins may name agent files outside an `agents/` folder; the walk cannot know
    // them until the manifests are read, so they are picked up in a second, small pass.
    let extra = {
        let manifests = per_file.iter().filter_map(|o| match &o.parsed {
            Parsed::Manifests(m) => Some(m.as_slice()),
            _ => None,
        });
        discover::manifest_agents(manifests.flatten(), &found.candidates, &opts.cwd, boundary)
    };
    per_file.par_extend(extra.into_par_iter().map(|c| guarded(c, opts, boundary)));
    once_per_file(per_file);
}

/// Read the Codex sidecar beside `o`'s skill into it, when the walk passed one (`sidecars`,
/// sorted by their bytes).
pub(crate) fn with_sidecar(o: &mut FileOutput, sidecars: &[PathBuf], boundary: &Boundary) {
    // Most libraries have no sidecar at all: no path is made for each skill then.
    if sidecars.is_empty() {
        return;
    }
    let Parsed::Skill(skill) = &mut o.parsed else {
        return;
    };
    let Some(dir) = skill.fs_path.parent() else {
        return;
    };
    let sidecar = dir.join(parse::codex::SIDECAR);
    let found = sidecars.binary_search_by(|s| s.as_os_str().cmp(sidecar.as_os_str()));
    if skill.invalid || found.is_err() {
        return;
    }
    let shown = skill.path.clone();
    codex_sidecar(&shown, &sidecar, boundary, skill, &mut o.findings);
}

/// The library-level stage over parsed files: links, availability per profile, drift and
/// the library rules. Reads no file, so it can be run again from cached outputs.
pub(crate) fn judge(
    opts: &AuditOptions,
    profiles: Vec<Profile>,
    per_file: Vec<FileOutput>,
    found: &discover::Discovery,
    served: Vec<crate::mcp::skills::ServedSkill>,
    boundary: &Boundary,
) -> AuditResult {
    // Where each file was read from (kept only when asked for), for renderers that show the
    // source lines of findings.
    let mut sources = Sources::default();
    // Sized up front: growing by doubling would hold up to twice the skills (and findings) at
    // the peak, and copy them each time.
    let mut findings: Vec<Finding> =
        Vec::with_capacity(per_file.iter().map(|o| o.findings.len()).sum());
    let count = |want: fn(&Parsed) -> bool| per_file.iter().filter(|o| want(&o.parsed)).count();
    let mut skills = Vec::with_capacity(count(|p| matches!(p, Parsed::Skill(_))) + served.len());
    let mut agents = Vec::with_capacity(count(|p| matches!(p, Parsed::Agent(_))));
    let mut manifests = Vec::new();
    let mut files_scanned = 0;
    let mut suppressions = Vec::new();
    // Skills served over MCP are audited like local files; their path is their URI.
    let served_outputs: Vec<FileOutput> = served
        .par_iter()
        .map(|s| {
            let c = Candidate {
                fs_path: crate::mcp::skills::pseudo_path(&s.uri),
                path: s.uri.clone(),
                kind: Kind::Skill { exact: true },
                entry: Entry::File,
            };
            let mut out = contain(&c, || {
                let (skill, f, sup) = crate::mcp::skills::audit(s, &opts.settings);
                FileOutput::new(&c, Parsed::Skill(Box::new(skill)), f, sup)
            });
            out.path = c.path;
            out
        })
        .collect();
    // Served skills' bytes, no longer needed by the audit, move to the report's sources.
    if opts.snippets {
        sources.served = served
            .into_iter()
            .filter_map(|s| Some((s.uri, s.content.ok()?)))
            .collect();
    }
    for o in per_file.into_iter().chain(served_outputs) {
        if let Some(read_from) = o.read_from {
            sources.files.insert(o.path, read_from);
        }
        findings.extend(o.findings);
        suppressions.extend(o.suppressions);
        match o.parsed {
            Parsed::Skill(s) => skills.push(s),
            Parsed::Agent(a) => agents.push(*a),
            Parsed::Manifests(m) => manifests.extend(m),
            Parsed::Nothing => continue,
        }
        files_scanned += 1;
    }
    for e in &found.errors {
        findings.push(rules::file::read_error(&e.path, &e.message));
    }
    findings.extend(
        skills
            .iter()
            .filter_map(|s| rules::deps::only_in_dialect(s)),
    );
    rules::agent::check_targets(&agents, &mut findings);
    rules::host::check(&agents, &profiles, &mut findings);
    let (mut links, members) = resolve::links_and_members(
        &skills,
        &agents,
        &manifests,
        &opts.roots,
        &opts.cwd,
        boundary,
        &mut findings,
    );
    // After resolving: plugins namespace the skills they hold.
    rules::library::duplicate_names(&skills, &members, &mut findings);
    links.extend(resolve::configured(
        &skills,
        &agents,
        &opts.links,
        &opts.cwd,
        boundary,
        &mut findings,
    ));
    links.sort();
    links.dedup();
    evaluate::proposal_grants(&links, &skills, &mut agents);
    let semantics = opts.semantics;
    let drift = evaluate::drift_of_links(&links, &skills, &agents, semantics, &mut findings);
    let skills = judged(
        skills,
        &profiles,
        |s, p| evaluate::skill(s, p),
        |skill, availability| SkillResult {
            skill,
            availability,
        },
    );
    let judge_agent =
        |a: &Agent, p: &Profile| evaluate::agent(&evaluate::effective(a, semantics), p);
    let agents = judged(agents, &profiles, judge_agent, |agent, availability| {
        AgentResult {
            agent,
            availability,
        }
    });
    let names: Vec<&str> = profiles.iter().map(|p| p.name.as_str()).collect();
    // Room for them made first: one finding per unmet profile can mean hundreds of thousands,
    // and pushing them one by one grew the list (and copied it) many times over.
    let unmet = |availability: &[Availability]| {
        availability
            .iter()
            .filter(|a| {
                matches!(
                    a.status,
                    evaluate::Status::Unavailable | evaluate::Status::Partial
                )
            })
            .count()
    };
    // Skills are reported at their name, agents at their tools list (a partial agent at its
    // first missing tool).
    findings.reserve_exact(
        skills.iter().map(|r| unmet(&r.availability)).sum::<usize>()
            + agents.iter().map(|r| unmet(&r.availability)).sum::<usize>(),
    );
    for r in &skills {
        rules::library::skill_findings(&r.skill, &names, &r.availability, &mut findings);
    }
    for r in &agents {
        let a = &r.agent;
        rules::library::unavailable(
            &a.path,
            a.tools_pos,
            "agent",
            &names,
            &r.availability,
            &mut findings,
        );
        rules::library::partial(a, &profiles, &r.availability, &mut findings);
    }
    rules::config::apply_suppressions(&mut findings, &suppressions);
    rules::config::apply_severities(&mut findings, &opts.settings.severities);
    sort_findings(&mut findings);
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
        ignored: found.ignored,
        sources,
    }
}

/// Each of `items` judged against every profile, on all threads, in order.
fn judged<T: Send, R: Send>(
    items: Vec<T>,
    profiles: &[Profile],
    judge: impl Fn(&T, &Profile) -> Availability + Sync,
    result: impl Fn(T, Vec<Availability>) -> R + Sync + Send,
) -> Vec<R> {
    items
        .into_par_iter()
        .map(|item| {
            let availability = profiles.iter().map(|p| judge(&item, p)).collect();
            result(item, availability)
        })
        .collect()
}

/// Keep one output per file: a file reached by several paths (a symlink, a hard link, two
/// spellings of a root or of a manifest path) is audited under the path that reached it
/// without a link, else under the first; the others become one SA113 finding
/// ([`rules::file::same_file`]).
fn once_per_file(outputs: &mut [FileOutput]) {
    let mut kept: foldhash::HashMap<&FileId, usize> = foldhash::HashMap::default();
    let mut repeats: Vec<usize> = Vec::new();
    for (i, o) in outputs.iter().enumerate() {
        let Some(id) = &o.id else { continue };
        match kept.entry(id) {
            std::collections::hash_map::Entry::Vacant(e) => {
                e.insert(i);
            }
            std::collections::hash_map::Entry::Occupied(mut e) => {
                if o.direct && !outputs[*e.get()].direct {
                    repeats.push(e.insert(i));
                } else {
                    repeats.push(i);
                }
            }
        }
    }
    // A later, better path may have replaced a kept one: each repeat names the final keeper.
    let keeper: Vec<(usize, String)> = repeats
        .into_iter()
        .map(|dup| {
            let k = outputs[dup]
                .id
                .as_ref()
                .and_then(|id| kept.get(id))
                .copied();
            (dup, k.map(|k| outputs[k].path.clone()).unwrap_or_default())
        })
        .collect();
    for (dup, kept_path) in keeper {
        let o = &mut outputs[dup];
        o.parsed = Parsed::Nothing;
        o.suppressions.clear();
        o.read_from = None;
        o.findings = vec![rules::file::same_file(&o.path, &kept_path)];
    }
}

/// What one file yields: its model, its findings and its suppression comments, and what is
/// known of the file itself.
#[derive(Debug, Clone)]
pub(crate) struct FileOutput {
    /// The candidate's display path.
    pub(crate) path: String,
    pub(crate) parsed: Parsed,
    pub(crate) findings: Vec<Finding>,
    suppressions: Vec<Suppression>,
    /// The file's identity, when it was read.
    pub(crate) id: Option<FileId>,
    /// Where it was read from (its real path, when reached through a link).
    read_from: Option<PathBuf>,
    /// Reached without a link: preferred when one file is reached by several paths.
    direct: bool,
}

impl FileOutput {
    /// The output for `c`; its path is moved in by [`guarded`], once the candidate is done with.
    fn new(c: &Candidate, parsed: Parsed, findings: Vec<Finding>, sup: Vec<Suppression>) -> Self {
        FileOutput {
            path: String::new(),
            parsed,
            findings,
            suppressions: sup,
            id: None,
            read_from: None,
            direct: c.entry == Entry::File,
        }
    }
}

/// Process one file; a panic becomes an `internal-error` finding and the run goes on.
/// `keep_source`: remember where the file was read from, for source lines in the report.
fn guarded(c: Candidate, opts: &AuditOptions, boundary: &Boundary) -> FileOutput {
    let mut out = contain(&c, || process(&c, opts, boundary));
    out.path = c.path;
    out
}

/// Run `work` for `c`, turning a panic into an `internal-error` finding on that file.
fn contain(c: &Candidate, work: impl FnOnce() -> FileOutput) -> FileOutput {
    match catch_unwind(AssertUnwindSafe(work)) {
        Ok(r) => r,
        Err(panic) => {
            let f = rules::file::internal_error(&c.path, &panic_message(panic.as_ref()));
            FileOutput::new(c, placeholder(c), vec![f], Vec::new())
        }
    }
}

/// What a caught panic says, for the finding or the log that reports it.
pub(crate) fn panic_message(panic: &(dyn std::any::Any + Send)) -> String {
    panic
        .downcast_ref::<&str>()
        .map(|s| (*s).to_owned())
        .or_else(|| panic.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "unknown failure".into())
}

/// An invalid entry for a file that could not be processed, so it still shows in the report.
fn placeholder(c: &Candidate) -> Parsed {
    match c.kind {
        Kind::Skill { .. } => Parsed::Skill(Box::new(Skill::invalid(
            crate::paths::folder_name_text(&c.fs_path),
            c.path.clone(),
            c.fs_path.clone(),
        ))),
        Kind::Agent(_) => {
            let file = crate::paths::file_name_text(&c.fs_path);
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

fn process(c: &Candidate, opts: &AuditOptions, boundary: &Boundary) -> FileOutput {
    let (settings, keep_source) = (&opts.settings, opts.snippets);
    let mut sink = Sink::new(&c.path);
    file_name_rules(c, &mut sink);
    // A file the walk found under a root is read where it is; anything reached through a link
    // or named by a manifest is read at its real path, once that is known to be inside.
    let read = match c.entry {
        Entry::Special(what) => Err(Refusal::Special(what)),
        Entry::File => source::read(&c.fs_path, MAX_FILE_BYTES).map(|r| (r, None)),
        Entry::Indirect => boundary
            .resolve(&c.fs_path)
            .and_then(|real| Ok((source::read(&real, MAX_FILE_BYTES)?, Some(real)))),
    };
    let (contents, read_from) = match read {
        Ok(r) => r,
        Err(why) => {
            sink.findings.push(rules::file::refused(&c.path, &why));
            return FileOutput::new(c, placeholder(c), sink.findings, sink.suppressions);
        }
    };
    // The file is still read, for its identity, when an earlier fix pass changed its text.
    let bytes = match opts.overlay.get(&c.fs_path) {
        Some(fixed) => fixed.clone(),
        None => contents.bytes,
    };
    // Rules that make fixes find their ranges in the text as read.
    sink.source = &bytes;
    let parsed = parse_bytes(
        c,
        &bytes,
        settings,
        boundary,
        &Tree::new(boundary),
        &mut sink,
    );
    let Sink {
        findings,
        suppressions,
        ..
    } = sink;
    FileOutput {
        id: contents.id,
        read_from: keep_source.then(|| read_from.unwrap_or_else(|| c.fs_path.clone())),
        ..FileOutput::new(c, parsed, findings, suppressions)
    }
}

/// One file from its text rather than from the disk (an editor's unsaved buffer), checked as
/// [`process`] checks a file read from the tree, with `files` answering what its body refers
/// to; a panic becomes an `internal-error` finding.
pub(crate) fn guarded_bytes(
    c: &Candidate,
    bytes: &[u8],
    settings: &Settings,
    boundary: &Boundary,
    files: &dyn Files,
) -> FileOutput {
    let mut out = contain(c, || {
        let mut sink = Sink::new(&c.path);
        sink.source = bytes;
        file_name_rules(c, &mut sink);
        let parsed = parse_bytes(c, bytes, settings, boundary, files, &mut sink);
        FileOutput::new(c, parsed, sink.findings, sink.suppressions)
    });
    out.path = c.path.clone();
    out
}

/// Parse one file's bytes by its kind and run the rules that need only that file.
fn parse_bytes(
    c: &Candidate,
    bytes: &[u8],
    settings: &Settings,
    boundary: &Boundary,
    files: &dyn Files,
    sink: &mut Sink,
) -> Parsed {
    match c.kind {
        Kind::Skill { .. } => {
            let mut parsed = parse::skill::parse(bytes, &c.path, &c.fs_path, sink);
            let dir = c.fs_path.parent().unwrap_or(std::path::Path::new(""));
            rules::references::check(&parsed.references, dir, files, sink);
            rules::spec::check(&parsed, settings, sink);
            parse::hooks::load_skill(&mut parsed.skill, boundary, sink);
            rules::deps::check_skill_hooks(&parsed.skill, boundary, sink);
            if let Some(root) = &parsed.root {
                rules::host::check_skill_model(root, sink);
            }
            Parsed::Skill(Box::new(parsed.skill))
        }
        Kind::Agent(flavor) => {
            match parse::agent::parse(bytes, &c.path, &c.fs_path, flavor, sink) {
                Some(parsed) => {
                    rules::agent::check(&parsed, sink);
                    if let Some(root) = &parsed.root {
                        let a = &parsed.agent;
                        if let Some(hooks) = parse::hooks::of_agent(a, root, boundary, sink) {
                            rules::deps::check_agent_hooks(a, &hooks, boundary, sink);
                        }
                        rules::host::check_agent_model(a, root, sink);
                    }
                    Parsed::Agent(Box::new(parsed.agent))
                }
                None => Parsed::Nothing,
            }
        }
        Kind::Manifest(kind) => Parsed::Manifests(parse::manifest::parse(
            bytes, &c.path, &c.fs_path, kind, sink,
        )),
    }
}

/// The rules on a file's name, before it is read.
fn file_name_rules(c: &Candidate, sink: &mut Sink) {
    if let Kind::Skill { exact: false } = c.kind {
        let name = crate::paths::file_name_text(&c.fs_path);
        rules::file::skill_file_casing(sink, &name);
    }
}

/// Codex's `agents/openai.yaml` at `path`, beside the skill shown as `shown`: read at its real
/// path once that is known to be inside the tree, like every file.
fn codex_sidecar(
    shown: &str,
    path: &std::path::Path,
    boundary: &Boundary,
    skill: &mut Skill,
    findings: &mut Vec<crate::diagnostic::Finding>,
) {
    let display = match shown.rsplit_once('/') {
        Some((folder, _)) => format!("{folder}/{}", parse::codex::SIDECAR),
        None => parse::codex::SIDECAR.to_owned(),
    };
    // A sidecar is a few lines: a large one is not worth reading whole.
    const LIMIT: u64 = 1 << 20;
    match boundary.resolve(path).and_then(|r| source::read(&r, LIMIT)) {
        Err(why) => findings.push(rules::file::refused(&display, &why)),
        Ok(contents) => {
            let mut sink = Sink::new(&display);
            if let Some(d) = parse::codex::parse(&contents.bytes, &display, &mut sink) {
                if skill.declared_by == crate::model::DeclaredBy::Nothing {
                    skill.declared_by = d.source.into();
                }
                skill.requirements.push(d);
                skill.requirements.sort_by_key(|d| d.source);
            }
            findings.extend(sink.findings);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::Rule;

    #[test]
    fn a_panic_in_one_file_becomes_a_finding_and_an_invalid_entry() {
        let c = Candidate {
            fs_path: PathBuf::from("skills/x/SKILL.md"),
            path: "skills/x/SKILL.md".into(),
            kind: Kind::Skill { exact: true },
            entry: Entry::File,
        };
        // Keep the expected panic's message out of the test output.
        let hook = std::panic::take_hook();
        std::panic::set_hook(Box::new(|_| {}));
        let out = contain(&c, || panic!("boom"));
        std::panic::set_hook(hook);
        assert_eq!(out.findings.len(), 1);
        assert_eq!(out.findings[0].rule, Rule::InternalError);
        assert!(out.findings[0].message.contains("boom"));
        assert!(
            matches!(out.parsed, Parsed::Skill(s) if s.invalid && s.path == "skills/x/SKILL.md")
        );
    }
}
