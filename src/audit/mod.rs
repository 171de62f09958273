//! The pipeline, one module per stage job: [`read`] walks the tree and reads each file, [`file`]
//! parses it and runs the rules that need only that file, [`library`] links, evaluates and runs
//! the rules that look at the whole library. Everything a renderer needs ends up in
//! [`AuditResult`]; nothing downstream reads files.

pub(crate) mod file;
pub(crate) mod library;
pub(crate) mod read;

use std::collections::HashSet;
use std::path::PathBuf;

use crate::boundary::{Boundary, FileId};
use crate::config::Settings;
use crate::diagnostic::{Finding, Suppression};
use crate::discover::{self, Candidate, Entry};
use crate::evaluate::{self, Availability};
use crate::model::{Agent, Drift, Link, Manifest, Skill};
use crate::profile::{self, Profile, ProfileError, ProfileSource};

pub(crate) use file::{check_text, panic_message};
pub(crate) use library::judge;
pub(crate) use read::{with_scripts, with_sidecar};

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
    /// The folder relative paths are taken from; paths in the report are shown from it, as
    /// [`AuditOptions::view`] says.
    pub cwd: PathBuf,
    /// Links no manifest records (`[[links]]` in skill-audit.toml).
    pub links: Vec<crate::config::file::ConfigLink>,
    /// Attach each finding's source line (for the text renderer).
    pub snippets: bool,
    /// Attach each finding's line fingerprint (for reports that may be compared later: JSON,
    /// SARIF, or a run with a baseline).
    pub fingerprints: bool,
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

impl AuditOptions {
    /// How this run shows paths: from `cwd`, or all absolute when a root lies above it.
    pub(crate) fn view(&self) -> crate::paths::PathView {
        crate::paths::PathView::new(&self.cwd, &self.roots)
    }
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
    /// The text of each file as the audit read it, for source lines (only when asked for).
    pub texts: crate::report::lines::Texts,
    /// Each line's fingerprint, of the files whose text is not kept (only when asked for).
    pub prints: crate::report::lines::Prints,
}

/// What one file turned out to be.
#[derive(Debug, Clone)]
pub(crate) enum Parsed {
    Skill(Box<Skill>),
    Agent(Box<Agent>),
    Manifests(Vec<Manifest>),
    /// A candidate that is not one after all (a Claude-folder `.md` without frontmatter).
    Nothing,
    /// A `SKILL.md` inside another skill's folder: a file of that skill, not a skill.
    Document,
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
        let s = gather(opts)?;
        Ok(judge(
            opts,
            s.profiles,
            s.files.outputs,
            &s.files.found,
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
pub(crate) struct Gathered {
    pub(crate) profiles: Vec<Profile>,
    pub(crate) files: read::PerFile,
    pub(crate) served: Vec<crate::mcp::skills::ServedSkill>,
    pub(crate) boundary: Boundary,
    pub(crate) excludes: discover::Excludes,
}

/// Walk, read and check every file, and load the profiles: everything that reads the tree or
/// talks to a server. [`judge`] reads nothing.
pub(crate) fn gather(opts: &AuditOptions) -> Result<Gathered, AuditError> {
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
    let mut files = rayon::in_place_scope(|s| {
        s.spawn(|_| loaded = Some(environments(opts)));
        read::read_files(opts, &excludes, &boundary)
    });
    let (profiles, served) = loaded.unwrap_or_else(|| Ok(Default::default()))?;
    read::complete(opts, &mut files, &boundary);
    Ok(Gathered {
        profiles,
        files,
        served,
        boundary,
        excludes,
    })
}

/// The profiles, and the skills an MCP server serves (with that session's tools added as a
/// profile), so each served skill is judged against what the user of that session can call.
fn environments(
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

pub(crate) fn load_profiles(opts: &AuditOptions) -> Result<Vec<Profile>, AuditError> {
    let mut out: Vec<Profile> = Vec::with_capacity(opts.profiles.len());
    let mut seen = HashSet::new();
    // One composer for the run: files several profiles are built on are read once.
    let mut composer = profile::Composer::default();
    let view = opts.view();
    for source in &opts.profiles {
        let p = match source {
            ProfileSource::File(path) => {
                composer.load(path, &crate::paths::display_path(path, &view))?
            }
            ProfileSource::Builtin(name) => profile::builtin::load(name)?,
            ProfileSource::Mcp { name, argv } => {
                crate::mcp::live_profile(name, argv, &opts.mcp_headers, &opts.mcp)?
            }
        };
        if !seen.insert(p.name.clone()) {
            let twice = out.iter().any(|o: &Profile| o.path == p.path);
            return Err(AuditError::Usage(if twice {
                format!("profile `{}` ({}) is given twice", p.name, p.path)
            } else {
                format!(
                    "two profiles are named `{}` ({}); give each a distinct `name`",
                    p.name, p.path
                )
            }));
        }
        out.push(p);
    }
    Ok(out)
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
    /// Its text as read and checked, kept for the report's source lines when asked for.
    pub(crate) text: Option<Vec<u8>>,
    /// Its lines' fingerprints, when they are asked for and the text is not kept.
    pub(crate) prints: Option<Vec<u32>>,
    /// Reached without a link: preferred when one file is reached by several paths.
    direct: bool,
}

impl FileOutput {
    /// The output for `c`; its path is moved in by [`read::check_file`], once the candidate is done with.
    fn new(c: &Candidate, parsed: Parsed, findings: Vec<Finding>, sup: Vec<Suppression>) -> Self {
        FileOutput {
            path: String::new(),
            parsed,
            findings,
            suppressions: sup,
            id: None,
            text: None,
            prints: None,
            direct: c.entry == Entry::File,
        }
    }
}
