//! Stage 1: walk the roots in parallel and list the files to audit.
//!
//! Honours `.gitignore` (also outside git repositories), enters hidden folders such as
//! `.github`, `.claude` and `.agents`, never `.git` or `node_modules`, and skips `--exclude`
//! globs. Walk errors (unreadable folders, symlink loops) are returned, not raised.

use globset::{GlobBuilder, GlobSet, GlobSetBuilder};
use ignore::{WalkBuilder, WalkState};
use std::ffi::OsStr;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use crate::model::{AgentFlavor, Kind, ManifestKind, PluginFormat};
use crate::paths::{PathView, display_path, normalize};

/// A file to audit.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Candidate {
    pub fs_path: PathBuf,
    /// Display path (see [`display_path`]).
    pub path: String,
    pub kind: Kind,
    /// How it was reached, which says what must be checked before it is opened.
    pub entry: Entry,
}

/// How a candidate was reached.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Entry {
    /// A regular file the walk found under a root: inside the audited tree by construction.
    File,
    /// A symlink, or a path a manifest named: its real path must lie inside the tree.
    Indirect,
    /// Not a regular file (what it is): never opened.
    Special(&'static str),
}

/// Something the walk could not read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WalkError {
    pub path: String,
    pub message: String,
}

/// The walk's result, sorted by path.
#[derive(Debug, Default)]
pub struct Discovery {
    pub candidates: Vec<Candidate>,
    pub errors: Vec<WalkError>,
    /// Skill, agent and manifest files that ignore rules (`.gitignore`, `.ignore`, git's
    /// exclude files) kept out of the walk.
    pub ignored: usize,
    /// Folders holding an ignore file, whose rules apply below them.
    ignore_dirs: Vec<PathBuf>,
    /// Codex sidecars (`agents/openai.yaml`) the walk passed, sorted by their bytes: only the
    /// skills beside one look for it, so the others cost no lookup.
    pub sidecars: Vec<PathBuf>,
    /// Scripts and package lists (`.py`, `.sh`, `requirements.txt`, ...) the walk passed as
    /// regular files, sorted by their bytes: what a skill's folder holds, for reading what the
    /// skill uses.
    pub scripts: Vec<PathBuf>,
    /// Links to a folder in a `skills` folder (a linked skill folder), by display path: hosts
    /// that scan `skills/*/SKILL.md` follow them, the walk does not.
    pub skill_links: Vec<(String, PathBuf)>,
}

impl Discovery {
    /// Add what another walk found.
    fn merge(&mut self, mut other: Discovery) {
        self.candidates.append(&mut other.candidates);
        self.errors.append(&mut other.errors);
        self.ignore_dirs.append(&mut other.ignore_dirs);
        self.sidecars.append(&mut other.sidecars);
        self.scripts.append(&mut other.scripts);
        self.skill_links.append(&mut other.skill_links);
    }

    /// The folders holding a `SKILL.md` the walk found, sorted: a nested skill's folder is
    /// told from its parent's by them, without asking the file system again.
    pub(crate) fn skill_dirs(&self) -> Vec<&Path> {
        let mut dirs: Vec<&Path> = self
            .candidates
            .iter()
            .filter(|c| c.kind == Kind::Skill { exact: true })
            .filter_map(|c| c.fs_path.parent())
            .collect();
        dirs.sort_unstable();
        dirs
    }
}

/// Whether the walk honours ignore rules.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub(crate) enum IgnoreRules {
    /// Honour them, and count the files they hide.
    #[default]
    Honour,
    /// `--no-ignore`: audit every file.
    Off,
}

/// Files whose rules apply below their folder.
const IGNORE_FILES: &[&str] = &[".gitignore", ".ignore"];

/// Git's exclude file, relative to the folder of a repository.
const GIT_EXCLUDE: &str = ".git/info/exclude";

/// The largest ignore file that the walk reads. The walker compiles every pattern of every
/// ignore file it meets, at hundreds of bytes of memory per byte of wildcard patterns, and the
/// tree is untrusted; real ignore files are a few kilobytes.
const MAX_IGNORE_FILE: u64 = 256 * 1024;

/// An ignore file of `dir` (one of [`IGNORE_FILES`], or git's exclude file) that the walker
/// must not read, with why. The walker opens them as it enters a folder, following links and
/// with no limit: a link may lead out of the tree or to `/dev/zero`, a FIFO blocks the open
/// for ever, a sparse file holds gigabytes.
pub(crate) fn unsafe_ignore_file(dir: &Path) -> Option<(PathBuf, String)> {
    if let Some(bad) = IGNORE_FILES.iter().find_map(|f| unsafe_file(dir.join(f))) {
        return Some(bad);
    }
    let git = dir.join(".git");
    let t = std::fs::symlink_metadata(&git).ok()?.file_type();
    if t.is_dir() {
        return unsafe_file(dir.join(GIT_EXCLUDE));
    }
    if t.is_symlink() {
        return Some((git, "is a link, which may lead out of the tree".to_owned()));
    }
    if !t.is_file() {
        return None; // The walker reads nothing through it.
    }
    // A submodule's or worktree's `.git` file: the walker follows its `gitdir:` line (as
    // written, from the working folder) and, where that folder has a `commondir` file, reads
    // the exclude file of the folder it names.
    if let Some(bad) = unsafe_file(git.clone()) {
        return Some(bad);
    }
    // Through the bounded reader: the file checked above may have been replaced since.
    let text = crate::boundary::read_text(&git).ok()?;
    let gitdir = Path::new(text.lines().next()?.strip_prefix("gitdir: ")?);
    // What is wrong there is said of the `.git` file: the paths it names may be anywhere.
    let elsewhere = |which: &str, (_, why): (PathBuf, String)| {
        (
            git.clone(),
            format!("names a repository whose `{which}` {why}"),
        )
    };
    let commondir = gitdir.join("commondir");
    std::fs::symlink_metadata(&commondir).ok()?;
    if let Some(bad) = unsafe_file(commondir.clone()) {
        return Some(elsewhere("commondir", bad));
    }
    let text = crate::boundary::read_text(&commondir).ok()?;
    let common = text.lines().next()?;
    let common = if common.starts_with('.') {
        gitdir.join(common)
    } else {
        PathBuf::from(common)
    };
    unsafe_file(common.join("info/exclude")).map(|bad| elsewhere("info/exclude", bad))
}

/// The error for `file`, which [`unsafe_ignore_file`] refused for `why`: no ignore rule is
/// honoured in `scope` (`in this run`, or in a folder).
fn refused_ignore_file(file: &Path, why: &str, scope: &str, view: &PathView) -> WalkError {
    let noun = if file.file_name() == Some(OsStr::new(".git")) {
        "this file"
    } else {
        "this ignore file"
    };
    WalkError {
        path: display_path(file, view),
        message: format!(
            "{noun} {why}, so no ignore rule is honoured {scope}; fix it, or audit with --no-ignore"
        ),
    }
}

/// `path`, with why, when it is there but is not a regular file within [`MAX_IGNORE_FILE`].
fn unsafe_file(path: PathBuf) -> Option<(PathBuf, String)> {
    let m = std::fs::symlink_metadata(&path).ok()?;
    if m.file_type().is_symlink() {
        return Some((path, "is a link, which may lead out of the tree".to_owned()));
    }
    if let Some(kind) = crate::boundary::special_kind(m.file_type()) {
        return Some((path, format!("is {kind}, not a regular file")));
    }
    let limit = MAX_IGNORE_FILE;
    (m.len() > limit).then(|| {
        let why = format!("is {} bytes, over the {} KiB limit", m.len(), limit / 1024);
        (path, why)
    })
}

/// The folders a walk did not enter because of an ignore file it must not read: each folder,
/// the file and why.
#[derive(Default)]
struct Refused(Arc<Mutex<Vec<(PathBuf, PathBuf, String)>>>);

impl Refused {
    fn into_inner(self) -> Vec<(PathBuf, PathBuf, String)> {
        let mut v = std::mem::take(&mut *self.0.lock().unwrap_or_else(|p| p.into_inner()));
        v.sort();
        v
    }
}

/// Folders never entered.
pub(crate) const SKIPPED_DIRS: &[&str] = &[".git", "node_modules"];

/// A walk of `root` that reads ignore files as the audit's does: with `honour`, `.gitignore`,
/// `.ignore` and git's exclude file, of `root` and of the folders above it; never links
/// followed. Also what the MCP server walks to serve a skill's files.
pub(crate) fn walk_builder(root: &Path, honour: bool) -> WalkBuilder {
    let mut builder = WalkBuilder::new(root);
    builder
        .require_git(false)
        .follow_links(false)
        .parents(honour)
        .ignore(honour)
        .git_ignore(honour)
        .git_exclude(honour)
        // A user's own global excludes file would make the same library audit differently on
        // each machine.
        .git_global(false);
    builder
}

/// Paths the walk skips: `--exclude` globs, matched relative to the root a path is under, and
/// the settings file's `exclude` globs, matched relative to the file's folder.
#[derive(Debug, Clone, Default)]
pub(crate) struct Excludes {
    flags: GlobSet,
    file: GlobSet,
    /// Per audited root, where it lies in the settings file's folder (`None` for a root
    /// outside it, where the file's globs match relative to the root, as `--exclude` does).
    file_base: Vec<Option<PathBuf>>,
}

impl Excludes {
    /// `flags` relative to each of `roots`; `file` relative to `dir` (both as given, made
    /// absolute from `cwd` and compared by name: a symlinked root counts where its link is).
    pub(crate) fn new(
        flags: &[String],
        file: &[String],
        dir: &Path,
        roots: &[PathBuf],
        cwd: &Path,
    ) -> Result<Self, String> {
        let dir = normalize(&cwd.join(dir));
        let file_base = roots
            .iter()
            .map(|r| {
                normalize(&cwd.join(r))
                    .strip_prefix(&dir)
                    .ok()
                    .map(Path::to_owned)
            })
            .collect();
        Ok(Excludes {
            flags: compile_excludes(flags, "--exclude pattern")?,
            file: compile_excludes(file, "exclude pattern in the settings file")?,
            file_base,
        })
    }

    fn is_empty(&self) -> bool {
        self.flags.is_empty() && self.file.is_empty()
    }

    /// Is `path`, under one of `roots` (the audit's, in order), skipped?
    pub(crate) fn skips(&self, path: &Path, roots: &[PathBuf]) -> bool {
        let (base, rel) = roots
            .iter()
            .enumerate()
            .find_map(|(i, r)| {
                let rel = path.strip_prefix(r).ok()?;
                Some((self.file_base.get(i).and_then(Option::as_deref), rel))
            })
            .unwrap_or((None, path));
        if self.flags.is_match(rel) {
            return true;
        }
        match base {
            _ if self.file.is_empty() => false,
            Some(base) if !base.as_os_str().is_empty() => self.file.is_match(base.join(rel)),
            _ => self.file.is_match(rel),
        }
    }
}

impl From<GlobSet> for Excludes {
    fn from(flags: GlobSet) -> Self {
        Excludes {
            flags,
            ..Excludes::default()
        }
    }
}

/// Whether `raw` is a pattern `--exclude` and `exclude` take; the error says why not.
pub(crate) fn check_exclude(raw: &str) -> Result<(), String> {
    compile_excludes(&[raw.to_owned()], "exclude pattern").map(|_| ())
}

/// Compile exclude globs (`what` names them in errors). A pattern without `/` also matches
/// any single path component.
fn compile_excludes(patterns: &[String], what: &str) -> Result<GlobSet, String> {
    let mut b = GlobSetBuilder::new();
    for raw in patterns {
        // `drafts/` and `./skills/drafts` mean the folder, as in .gitignore.
        let trimmed = raw.trim_start_matches("./").trim_end_matches('/');
        // Trimmed to nothing (empty, `.`, `./`, `/`), a pattern would match every path, and the
        // run would pass having audited nothing: almost surely not what was meant.
        if trimmed.split('/').all(|c| c.is_empty() || c == ".") {
            let pattern = if raw.is_empty() {
                format!("an empty {what}")
            } else {
                format!("{what} `{raw}`")
            };
            return Err(format!(
                "{pattern} would exclude everything (it matches every path); name a file or folder, such as `drafts` or `skills/old/**`, or remove the pattern"
            ));
        }
        let p = &trimmed.to_owned();
        let glob = GlobBuilder::new(p)
            .literal_separator(true)
            .build()
            .map_err(|e| format!("invalid {what} `{raw}`: {e}"))?;
        b.add(glob);
        if !p.contains('/') {
            // `drafts` or `*.tmp.md` match at any depth, as in .gitignore.
            let deep = format!("**/{p}");
            if let Ok(g) = GlobBuilder::new(&deep).literal_separator(true).build() {
                b.add(g);
            }
        }
    }
    // Each glob compiles, but all of them together may not (thousands of them exceed the
    // matcher's size limit): say which list it was.
    b.build().map_err(|e| {
        let n = patterns.len();
        format!("{n} patterns (each an {what}) are too many to match together: {e}; use fewer")
    })
}

/// Could a link to `path` (normalised) name a skill: is it a skill file by its name, or a
/// folder, which may hold one? Lets a parser skip links that cannot tie an agent to a skill.
pub(crate) fn may_name_skill(path: &Path) -> bool {
    let skill_file = path
        .file_name()
        .and_then(|n| n.to_str())
        .is_none_or(|n| n.eq_ignore_ascii_case("SKILL.md"));
    skill_file || std::fs::metadata(path).is_ok_and(|m| m.is_dir())
}

/// Classify a file by its name and place. Checks the file system only for `.md` files under
/// an `agents/` folder (is there a Claude plugin manifest beside that folder?).
pub(crate) fn classify(path: &Path) -> Option<Kind> {
    // The walker asks for every file: the names are split off the path's bytes once rather
    // than asking `Path` for each parent and its name in turn.
    let mut above = names_back(path);
    let name = std::str::from_utf8(above.next()?).ok()?;
    if name.eq_ignore_ascii_case("SKILL.md") {
        return Some(Kind::Skill {
            exact: name == "SKILL.md",
        });
    }
    let parent_name = above.clone().next().unwrap_or(b"");
    let grandparent_name = above.clone().nth(1).unwrap_or(b"");
    if name == "plugin.json" {
        return match PluginFormat::of_folder(parent_name) {
            Some(format) => Some(Kind::Manifest(ManifestKind::FolderPlugin(format))),
            None => Some(Kind::Manifest(ManifestKind::AgentPlugin)),
        };
    }
    if name == "marketplace.json"
        && matches!(
            (grandparent_name, parent_name),
            (_, b".claude-plugin" | b".cursor-plugin")
                | (b".github", b"plugin")
                | (b".agents", b"plugins")
        )
    {
        return Some(Kind::Manifest(ManifestKind::Marketplace));
    }
    let ends_with = |suffix: &str| strip_suffix_ignore_case(name.as_bytes(), suffix).is_some();
    if ends_with(".agent.md") {
        return Some(Kind::Agent(AgentFlavor::Custom));
    }
    if ends_with(".chatmode.md") {
        return Some(Kind::Agent(AgentFlavor::ChatMode));
    }
    if !ends_with(".md") || name.eq_ignore_ascii_case("readme.md") {
        return None;
    }
    if parent_name == b"agents" && grandparent_name == b".github" {
        return Some(Kind::Agent(AgentFlavor::Custom));
    }
    // Claude agents may nest (`agents/review/security.md`): find the nearest `agents` folder.
    let depth = above.clone().take(4).position(|n| n == b"agents")?;
    if above.nth(depth + 1) == Some(b".claude") {
        return Some(Kind::Agent(AgentFlavor::Claude));
    }
    // The folder holding `agents`: the path's ancestor two above that folder's place.
    let owner = path.ancestors().nth(depth + 2)?;
    owner
        .join(".claude-plugin")
        .join("plugin.json")
        .is_file()
        .then_some(Kind::Agent(AgentFlavor::Claude))
}

/// `bytes` without `suffix`, an ASCII file name ending matched whatever its case (`.MD`).
pub(crate) fn strip_suffix_ignore_case<'b>(bytes: &'b [u8], suffix: &str) -> Option<&'b [u8]> {
    let start = bytes.len().checked_sub(suffix.len())?;
    bytes[start..]
        .eq_ignore_ascii_case(suffix.as_bytes())
        .then_some(&bytes[..start])
}

/// The names in `path`, last first, as `Path::file_name` and `Path::parent` see them: empty
/// and `.` parts are skipped (`..` is kept, and matches no name looked for).
fn names_back(path: &Path) -> impl Iterator<Item = &[u8]> + Clone {
    path.as_os_str()
        .as_encoded_bytes()
        .rsplit(|&b| b == b'/' || (cfg!(windows) && b == b'\\'))
        .filter(|n| !matches!(n, [] | [b'.']))
}

/// Walk `roots` with `threads` workers (0 = automatic), honouring ignore rules.
pub fn walk(roots: &[PathBuf], excludes: &GlobSet, threads: usize, cwd: &Path) -> Discovery {
    let excludes = Excludes::from(excludes.clone());
    let view = PathView::new(cwd, roots);
    walk_each(
        roots,
        &excludes,
        threads,
        &view,
        IgnoreRules::Honour,
        &|_| {},
    )
}

/// [`walk`], also handing each candidate to `found` on the walker's thread as soon as it is
/// seen, so work on it can start while the walk goes on. A file reached through two roots is
/// handed over once per root; the returned list has it once. When ignore rules are honoured,
/// the files they hide are counted (not audited) in [`Discovery::ignored`].
pub(crate) fn walk_each(
    roots: &[PathBuf],
    excludes: &Excludes,
    threads: usize,
    view: &PathView,
    rules: IgnoreRules,
    found: &(dyn Fn(&Candidate) + Sync),
) -> Discovery {
    // The ignore files of the roots and of the folders above them are read as the walk
    // starts: one the walker must not read there means no ignore rule is honoured, which
    // hides nothing. Those of the folders inside are checked as each folder is reached.
    let mut refused_at_start = None;
    let mut rules = rules;
    if rules == IgnoreRules::Honour {
        refused_at_start = roots.iter().find_map(|r| {
            normalize(&view.cwd().join(r))
                .ancestors()
                .find_map(unsafe_ignore_file)
        });
        if refused_at_start.is_some() {
            rules = IgnoreRules::Off;
        }
    }
    let refused = Refused::default();
    let Some(walker) = builder(roots, roots, excludes, threads, rules, &refused) else {
        return Discovery::default();
    };
    let mut d = run(walker, view, found);
    let refused = refused.into_inner();
    if !refused.is_empty() {
        // The folders the walk did not enter, walked again reading no ignore file: what
        // they hold is audited as with --no-ignore.
        let dirs: Vec<PathBuf> = refused.iter().map(|(dir, _, _)| dir.clone()).collect();
        let off = IgnoreRules::Off;
        if let Some(walker) = builder(&dirs, roots, excludes, threads, off, &Refused::default()) {
            d.merge(run(walker, view, found));
        }
    }
    if let Some((file, why)) = refused_at_start {
        d.errors
            .push(refused_ignore_file(&file, &why, "in this run", view));
    }
    d.errors.extend(refused.into_iter().map(|(dir, file, why)| {
        let scope = format!("in `{}`", display_path(&dir, view));
        refused_ignore_file(&file, &why, &scope, view)
    }));
    d.candidates.sort_by(|a, b| a.path.cmp(&b.path));
    d.candidates.dedup_by(|a, b| a.path == b.path);
    d.errors
        .sort_by(|a, b| (&a.path, &a.message).cmp(&(&b.path, &b.message)));
    d.errors.dedup();
    // By bytes, which is how they are searched: a `Path` compares component by component.
    d.sidecars.sort_by(|a, b| a.as_os_str().cmp(b.as_os_str()));
    d.sidecars.dedup();
    d.scripts.sort_by(|a, b| a.as_os_str().cmp(b.as_os_str()));
    d.scripts.dedup();
    d.skill_links.sort();
    d.skill_links.dedup();
    if rules == IgnoreRules::Honour {
        d.ignored = count_ignored(&d, roots, excludes, threads, view);
    }
    d
}

/// A walker over `roots`: hidden folders entered, `.git` and `node_modules` never, links
/// not followed, `excludes` (matched relative to `audited`, the roots of the audit, or to the
/// settings file's folder) skipped; ignore rules as asked.
fn builder(
    roots: &[PathBuf],
    audited: &[PathBuf],
    excludes: &Excludes,
    threads: usize,
    rules: IgnoreRules,
    refused: &Refused,
) -> Option<WalkBuilder> {
    let (first, rest) = roots.split_first()?;
    let honour = rules == IgnoreRules::Honour;
    let mut builder = walk_builder(first, honour);
    for r in rest {
        builder.add(r);
    }
    let roots_owned: Vec<PathBuf> = audited.to_vec();
    let excludes_for_filter = excludes.clone();
    let refused = Arc::clone(&refused.0);
    builder
        .hidden(false)
        .threads(threads)
        .filter_entry(move |e| {
            let name = name_of(e);
            if e.depth() > 0 && SKIPPED_DIRS.iter().any(|d| d.as_bytes() == name) {
                return false;
            }
            // A folder is looked at before the walker enters it and reads its ignore files.
            if honour
                && e.depth() > 0
                && e.file_type().is_some_and(|t| t.is_dir())
                && let Some((file, why)) = unsafe_ignore_file(e.path())
            {
                let mut r = refused.lock().unwrap_or_else(|p| p.into_inner());
                r.push((e.path().to_owned(), file, why));
                return false;
            }
            if excludes_for_filter.is_empty() || e.depth() == 0 {
                return true;
            }
            !excludes_for_filter.skips(e.path(), &roots_owned)
        });
    Some(builder)
}

/// Is a file of this name one whose uses are read: a script or a package list?
fn is_script(name: &[u8]) -> bool {
    if name == b"requirements.txt" || name == b"package.json" {
        return true;
    }
    let Some(dot) = name.iter().rposition(|b| *b == b'.') else {
        return false;
    };
    matches!(
        &name[dot + 1..],
        b"py" | b"sh" | b"bash" | b"ps1" | b"psm1" | b"js" | b"mjs" | b"cjs" | b"ts"
    ) && !name.ends_with(b".d.ts")
}

/// The entry's file name. Below the root, the walker makes each path by joining a name to
/// its folder's, so the name is what follows the last separator; `DirEntry::file_name`
/// parses the path's components from the end instead, which cost more than the rest of
/// the walk's own work on every entry.
fn name_of(e: &ignore::DirEntry) -> &[u8] {
    let path = e.path().as_os_str().as_encoded_bytes();
    let sep = path
        .iter()
        .rposition(|&b| b == b'/' || (cfg!(windows) && b == b'\\'));
    match sep {
        Some(i) if e.depth() > 0 => &path[i + 1..],
        _ => e.file_name().as_encoded_bytes(),
    }
}

/// Run a walk, collecting candidates (handed to `found` as they come), errors and the
/// folders whose ignore rules apply below them.
fn run(builder: WalkBuilder, view: &PathView, found: &(dyn Fn(&Candidate) + Sync)) -> Discovery {
    let all = Mutex::new(Discovery::default());
    builder.build_parallel().run(|| {
        let all = &all;
        // Each worker collects locally and merges once, when its closure is dropped.
        let mut guard = MergeOnDrop {
            local: Discovery::default(),
            into: all,
        };
        Box::new(move |entry| {
            match entry {
                Ok(e) => {
                    let Some(t) = e.file_type() else {
                        return WalkState::Continue;
                    };
                    let name = name_of(&e);
                    // Every entry passes here: the first byte rules out almost all of them.
                    if name.first() == Some(&b'.')
                        && IGNORE_FILES.iter().any(|f| f.as_bytes() == name)
                        && let Some(dir) = e.path().parent()
                    {
                        guard.local.ignore_dirs.push(dir.to_owned());
                    }
                    if t.is_dir() {
                        return WalkState::Continue;
                    }
                    if name == b"openai.yaml"
                        && e.path().parent().and_then(Path::file_name) == Some(OsStr::new("agents"))
                    {
                        guard.local.sidecars.push(e.path().to_owned());
                    }
                    // Only regular files: read like the skill files the walk reached without a
                    // link, they lie inside the tree; a link may lead anywhere.
                    if t.is_file() && is_script(name) {
                        guard.local.scripts.push(e.path().to_owned());
                    }
                    let kind = classify(e.path());
                    if kind.is_none()
                        && t.is_symlink()
                        && e.path().parent().and_then(Path::file_name) == Some(OsStr::new("skills"))
                        && links_to_a_folder_name(e.path())
                    {
                        let shown = display_path(e.path(), view);
                        guard.local.skill_links.push((shown, e.path().to_owned()));
                    }
                    if let Some(kind) = kind {
                        let entry = match crate::boundary::special_kind(t) {
                            Some(what) => Entry::Special(what),
                            None if t.is_symlink() => Entry::Indirect,
                            None => Entry::File,
                        };
                        let c = Candidate {
                            path: display_path(e.path(), view),
                            fs_path: e.into_path(),
                            kind,
                            entry,
                        };
                        found(&c);
                        guard.local.candidates.push(c);
                    }
                }
                Err(err) => guard.local.errors.push(walk_error(&err, view)),
            }
            WalkState::Continue
        })
    });
    all.into_inner().unwrap_or_else(|p| p.into_inner())
}

/// Whether the link at `path` names, as its text reads, a folder rather than a file: its last
/// part has no extension (`../shared/pdf`, not `../notes/SKILL.md`). Only the link is read:
/// what is at its target, outside the tree perhaps, is not looked at.
fn links_to_a_folder_name(path: &Path) -> bool {
    std::fs::read_link(path).is_ok_and(|target| {
        target
            .file_name()
            .is_some_and(|n| !n.to_string_lossy().trim_start_matches('.').contains('.'))
    })
}

/// How many files ignore rules hid from the walk `d`: the candidates a walk without them
/// finds that `d` lacks. That walk covers only what rules can apply to: the folders holding
/// an ignore file, or every root when rules come from above the roots (a parent's
/// `.gitignore`, git's exclude file).
fn count_ignored(
    d: &Discovery,
    roots: &[PathBuf],
    excludes: &Excludes,
    threads: usize,
    view: &PathView,
) -> usize {
    let rules_from_above = roots.iter().any(|r| rules_above(r, view.cwd()));
    let mut dirs: Vec<PathBuf> = if rules_from_above {
        roots.to_vec()
    } else {
        d.ignore_dirs.clone()
    };
    if dirs.is_empty() {
        return 0;
    }
    dirs.sort();
    dirs.dedup_by(|later, earlier| later.starts_with(earlier));
    let refused = Refused::default();
    let Some(builder) = builder(&dirs, roots, excludes, threads, IgnoreRules::Off, &refused) else {
        return 0;
    };
    let found: Vec<String> = if rules_from_above {
        run(builder, view, &|_| {})
            .candidates
            .into_iter()
            .map(|c| c.path)
            .collect()
    } else {
        // A few small folders, typically: walked on this thread, sparing the walker's own.
        builder
            .build()
            .flatten()
            .filter(|e| e.file_type().is_some_and(|t| !t.is_dir()) && classify(e.path()).is_some())
            .map(|e| display_path(e.path(), view))
            .collect()
    };
    let mut hidden: Vec<&str> = found
        .iter()
        .map(String::as_str)
        .filter(|p| {
            d.candidates
                .binary_search_by(|c| c.path.as_str().cmp(p))
                .is_err()
        })
        .collect();
    hidden.sort_unstable();
    hidden.dedup();
    hidden.len()
}

/// Whether ignore rules from outside `root` apply inside it: an ignore file in a folder above
/// it, or git's exclude file of a repository holding it.
fn rules_above(root: &Path, cwd: &Path) -> bool {
    let abs = normalize(&cwd.join(root));
    abs.ancestors().skip(1).any(|dir| {
        IGNORE_FILES.iter().any(|f| dir.join(f).is_file())
            || std::fs::metadata(dir.join(GIT_EXCLUDE)).is_ok_and(|m| m.len() > 0)
    }) || std::fs::metadata(abs.join(GIT_EXCLUDE)).is_ok_and(|m| m.len() > 0)
}

struct MergeOnDrop<'a> {
    local: Discovery,
    into: &'a Mutex<Discovery>,
}

impl Drop for MergeOnDrop<'_> {
    fn drop(&mut self) {
        let mut all = self.into.lock().unwrap_or_else(|p| p.into_inner());
        all.merge(std::mem::take(&mut self.local));
    }
}

fn walk_error(err: &ignore::Error, view: &PathView) -> WalkError {
    fn path_of(err: &ignore::Error) -> Option<&Path> {
        match err {
            ignore::Error::WithPath { path, .. } => Some(path),
            ignore::Error::WithDepth { err, .. } | ignore::Error::WithLineNumber { err, .. } => {
                path_of(err)
            }
            ignore::Error::Loop { child, .. } => Some(child),
            _ => None,
        }
    }
    let path = path_of(err).map_or_else(|| ".".to_owned(), |p| display_path(p, view));
    let message = match err {
        ignore::Error::Loop { ancestor, .. } => {
            format!("symlink loop back to {}", display_path(ancestor, view))
        }
        other => {
            let m = other.to_string();
            // The path is already in the finding; keep only the cause.
            m.rsplit_once(": ")
                .map_or(m.clone(), |(_, cause)| cause.to_owned())
        }
    };
    WalkError { path, message }
}

/// The second, small pass of discovery: `.md` files that Claude plugin manifests list as agents
/// (directly or as a folder) and the walk did not already classify; the walk cannot know them
/// until the manifests are read. Their real paths are checked when they are opened; a path
/// that leads outside the tree is reported when links are resolved.
pub(crate) fn manifest_agents<'m>(
    manifests: impl Iterator<Item = &'m crate::model::Manifest>,
    known: &[Candidate],
    view: &PathView,
    boundary: &crate::boundary::Boundary,
) -> Vec<Candidate> {
    // Built on first use: most libraries have no Claude plugin that lists agents.
    let seen = std::cell::OnceCell::new();
    let mut out: Vec<Candidate> = Vec::new();
    for m in manifests.filter(|m| m.via == "claude-plugin") {
        for (p, _) in m.agents.iter().flatten() {
            let target = normalize(&m.base.join(p.trim_start_matches("./")));
            // Not even listed when it leads outside: no folder outside the tree is read.
            if boundary.resolve(&target).is_err() {
                continue;
            }
            let mut files = Vec::new();
            collect_md(&target, 0, &mut files);
            let seen: &std::collections::HashSet<PathBuf> =
                seen.get_or_init(|| known.iter().map(|c| normalize(&c.fs_path)).collect());
            for f in files {
                if !seen.contains(&f) && !out.iter().any(|c| c.fs_path == f) {
                    out.push(Candidate {
                        path: display_path(&f, view),
                        fs_path: f,
                        kind: Kind::Agent(AgentFlavor::Claude),
                        entry: Entry::Indirect,
                    });
                }
            }
        }
    }
    out.sort_by(|a, b| a.path.cmp(&b.path));
    out
}

/// `.md` files at `path` (a file, or a folder searched a few levels deep). As in the walk,
/// links to folders are not followed, so no listing outside the tree is read; a link to a
/// file is kept, for its real path to be checked when it is opened.
fn collect_md(path: &Path, depth: usize, out: &mut Vec<PathBuf>) {
    let meta = if depth == 0 {
        std::fs::metadata(path)
    } else {
        std::fs::symlink_metadata(path)
    };
    let Ok(meta) = meta else {
        return;
    };
    if meta.is_file() || meta.is_symlink() {
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

#[cfg(test)]
mod tests {
    use super::*;

    /// The name read from the path is the walker's own, for every entry, the roots too
    /// (given with `./`, a trailing slash, or as a file).
    #[test]
    fn entry_names_are_the_walkers() {
        let dir = tempfile::tempdir().expect("temp dir");
        let names = [
            "SKILL.md",
            "a.b.c",
            "é x",
            ".hidden",
            "back\\slash",
            "..dots",
        ];
        for (i, name) in names.iter().enumerate() {
            let sub = dir.path().join(format!("d{i}"));
            std::fs::create_dir_all(&sub).expect("dir");
            std::fs::write(sub.join(name), "x").expect("file");
        }
        let file = dir.path().join("d0/SKILL.md");
        let roots = [
            dir.path().to_owned(),
            PathBuf::from(format!("{}/", dir.path().display())),
            dir.path().join("d1/."),
            file,
        ];
        let mut seen = 0;
        for root in roots {
            for e in ignore::WalkBuilder::new(&root).hidden(false).build() {
                let e = e.expect("entry");
                assert_eq!(
                    name_of(&e),
                    e.file_name().as_encoded_bytes(),
                    "{:?}",
                    e.path()
                );
                seen += 1;
            }
        }
        assert!(seen > names.len() * 2, "{seen} entries");
    }

    #[test]
    fn classifies_by_name_and_place() {
        let c = |p: &str| classify(Path::new(p));
        assert_eq!(c("s/SKILL.md"), Some(Kind::Skill { exact: true }));
        assert_eq!(c("s/skill.md"), Some(Kind::Skill { exact: false }));
        assert_eq!(c("s/Skill.MD"), Some(Kind::Skill { exact: false }));
        assert_eq!(c("s/README.md"), None);
        assert_eq!(
            c("agents/a.agent.md"),
            Some(Kind::Agent(AgentFlavor::Custom))
        );
        assert_eq!(
            c("x/.github/agents/a.md"),
            Some(Kind::Agent(AgentFlavor::Custom))
        );
        assert_eq!(
            c("chatmodes/a.chatmode.md"),
            Some(Kind::Agent(AgentFlavor::ChatMode))
        );
        assert_eq!(
            c("x/.claude/agents/review/sec.md"),
            Some(Kind::Agent(AgentFlavor::Claude))
        );
        assert_eq!(c("x/agents/plain.md"), None, "not a Claude plugin");
        assert_eq!(c("x/agents/a/b/c/d/e.md"), None, "too deep for an agent");
        assert_eq!(
            c("./.claude/agents/./a.AGENT.MD"),
            Some(Kind::Agent(AgentFlavor::Custom))
        );
        assert_eq!(c("./.claude//agents/a/"), None, "not a `.md` name");
        assert_eq!(c("docs/notes.md"), None);
        assert_eq!(c("agents/README.md"), None);
        assert_eq!(c("SKILL.md/"), Some(Kind::Skill { exact: true }));
        assert_eq!(c("/"), None);
        assert_eq!(
            c("p/plugin.json"),
            Some(Kind::Manifest(ManifestKind::AgentPlugin))
        );
        assert_eq!(
            c("p/.claude-plugin/plugin.json"),
            Some(Kind::Manifest(ManifestKind::FolderPlugin(
                PluginFormat::Claude
            )))
        );
        for (path, format) in [
            ("p/.codex-plugin/plugin.json", PluginFormat::Codex),
            ("p/.cursor-plugin/plugin.json", PluginFormat::Cursor),
            ("p/.plugin/plugin.json", PluginFormat::Open),
        ] {
            assert_eq!(
                c(path),
                Some(Kind::Manifest(ManifestKind::FolderPlugin(format))),
                "{path}"
            );
        }
        for path in [
            "m/.claude-plugin/marketplace.json",
            "m/.cursor-plugin/marketplace.json",
            "m/.github/plugin/marketplace.json",
            "m/.agents/plugins/marketplace.json",
        ] {
            assert_eq!(
                c(path),
                Some(Kind::Manifest(ManifestKind::Marketplace)),
                "{path}"
            );
        }
        assert_eq!(c("m/plugins/marketplace.json"), None);
        assert_eq!(c("m/marketplace.json"), None);
    }

    #[test]
    fn suffixes_are_stripped_whatever_their_case() {
        assert_eq!(
            strip_suffix_ignore_case(b"a.Agent.MD", ".agent.md"),
            Some(&b"a"[..])
        );
        assert_eq!(strip_suffix_ignore_case(b".md", ".md"), Some(&b""[..]));
        assert_eq!(strip_suffix_ignore_case(b"md", ".md"), None);
        assert_eq!(strip_suffix_ignore_case(b"a.mdx", ".md"), None);
    }

    #[test]
    fn normalising_removes_dots_lexically() {
        for (path, normal) in [
            ("", ""),
            (".", ""),
            ("./a/./b/", "a/b"),
            ("a//b", "a/b"),
            ("a/../b", "b"),
            ("a/b/../../c", "c"),
            ("../a", "../a"),
            ("../../a/../b", "../../b"),
            ("a/../..", ".."),
            ("/", "/"),
            ("//a/./b/..", "/a"),
            ("/..", "/"),
            ("/../a", "/a"),
            ("/a/b/../../../c", "/c"),
        ] {
            assert_eq!(normalize(Path::new(path)), Path::new(normal), "{path}");
        }
    }

    #[test]
    fn claude_plugin_agents_are_found_beside_the_manifest() {
        let dir = tempfile::tempdir().expect("temp dir");
        let plugin = dir.path().join("p");
        std::fs::create_dir_all(plugin.join(".claude-plugin")).expect("mkdir");
        std::fs::write(plugin.join(".claude-plugin/plugin.json"), "{}").expect("write");
        let claude = Some(Kind::Agent(AgentFlavor::Claude));
        assert_eq!(classify(&plugin.join("agents/a.md")), claude);
        assert_eq!(classify(&plugin.join("agents/review/./deep/a.md")), claude);
        assert_eq!(classify(&plugin.join("other/a.md")), None);
        assert_eq!(classify(&dir.path().join("agents/a.md")), None);
    }

    #[test]
    fn links_may_name_skills_by_file_name_or_as_folders() {
        let dir = tempfile::tempdir().expect("temp dir");
        std::fs::write(dir.path().join("guide.md"), "# Guide\n").expect("write");
        assert!(may_name_skill(&dir.path().join("pdf/SKILL.md")), "by name");
        assert!(
            may_name_skill(&dir.path().join("pdf/skill.md")),
            "any casing"
        );
        assert!(may_name_skill(dir.path()), "an existing folder");
        assert!(
            !may_name_skill(&dir.path().join("guide.md")),
            "another file"
        );
        assert!(!may_name_skill(&dir.path().join("gone")), "nothing there");
    }

    #[test]
    fn display_paths_are_relative_under_cwd() {
        let cwd = &PathView::new(Path::new("/srv/library"), &[]);
        assert_eq!(
            display_path(Path::new("./skills/a/SKILL.md"), cwd),
            "skills/a/SKILL.md"
        );
        assert_eq!(
            display_path(Path::new("/srv/library/skills/a/SKILL.md"), cwd),
            "skills/a/SKILL.md"
        );
        assert_eq!(
            display_path(Path::new("/elsewhere/SKILL.md"), cwd),
            "/elsewhere/SKILL.md"
        );
        assert_eq!(display_path(Path::new("../library/x"), cwd), "x");
        assert_eq!(display_path(Path::new("."), cwd), ".");
        assert_eq!(display_path(Path::new("./"), cwd), ".");
        assert_eq!(display_path(Path::new("a/./b//c"), cwd), "a/b/c");
        assert_eq!(display_path(Path::new("a/../b"), cwd), "b");
    }

    #[test]
    fn settings_file_excludes_match_from_the_file_folder() {
        let cwd = Path::new("/repo");
        let roots = [PathBuf::from("skills"), PathBuf::from("/elsewhere/lib")];
        let ex = Excludes::new(
            &["a/b".into()],
            &["skills/drafts".into(), "a/c".into()],
            Path::new(""),
            &roots,
            cwd,
        )
        .unwrap();
        // `--exclude` from the root, the file's globs from its folder (`/repo`).
        assert!(ex.skips(Path::new("skills/a/b"), &roots));
        assert!(ex.skips(Path::new("skills/drafts"), &roots));
        assert!(!ex.skips(Path::new("skills/skills/drafts"), &roots));
        assert!(!ex.skips(Path::new("skills/a/c"), &roots));
        // A root outside the file's folder: the file's globs match from the root.
        assert!(ex.skips(Path::new("/elsewhere/lib/a/c"), &roots));
        assert!(ex.skips(Path::new("/elsewhere/lib/a/b"), &roots));
        assert!(!ex.skips(Path::new("/elsewhere/lib/x"), &roots));
        // The file in the root itself: both from the root.
        let ex = Excludes::new(&[], &["a/c".into()], Path::new("skills"), &roots, cwd).unwrap();
        assert!(ex.skips(Path::new("skills/a/c"), &roots));
        assert!(Excludes::new(&[], &["a[".into()], Path::new(""), &roots, cwd).is_err());
    }

    #[test]
    fn excludes_match_paths_and_names() {
        let set = compile_excludes(
            &["**/drafts/**".into(), "scratch".into()],
            "--exclude pattern",
        )
        .unwrap();
        assert!(set.is_match("skills/drafts/x/SKILL.md"));
        assert!(set.is_match("a/scratch"));
        assert!(!set.is_match("skills/ok/SKILL.md"));
        assert!(compile_excludes(&["a[".into()], "--exclude pattern").is_err());
        let set = compile_excludes(
            &["drafts/".into(), "./skills/old".into()],
            "--exclude pattern",
        )
        .unwrap();
        assert!(set.is_match("skills/drafts"));
        assert!(set.is_match("skills/old"));
        // Each compiles; together they are too many, and the message says which list.
        let many: Vec<String> = (0..8000).map(|i| format!("**/*a*b*c*d*{i}*/**")).collect();
        let err = compile_excludes(&many, "--exclude pattern").unwrap_err();
        assert!(
            err.starts_with("8000 patterns (each an --exclude pattern)"),
            "{err}"
        );
    }
}
