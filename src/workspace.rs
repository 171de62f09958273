//! An audit kept in memory and brought up to date one file at a time, for the language
//! server: the tree is walked and parsed once; after that a changed file is parsed again from
//! the text it is given (an editor's buffer, not the disk), and only the library-level stage
//! (links, availability, drift, library rules) runs again, over the cached per-file outputs.

use std::path::{Path, PathBuf};

use crate::audit::{self, AuditError, AuditOptions, AuditResult, FileOutput, Parsed};
use crate::boundary::Boundary;
use crate::discover::{self, Candidate, Discovery, Entry};
use crate::files::Files;
use crate::model::Manifest;
use crate::profile::Profile;

/// A library, audited, with the files an editor changed parsed from their text.
pub struct Workspace {
    opts: AuditOptions,
    /// How the options show paths, decided once.
    view: crate::paths::PathView,
    boundary: Boundary,
    excludes: discover::Excludes,
    found: Discovery,
    /// Every file's own output, sorted by display path.
    files: Vec<FileOutput>,
    /// The skills an MCP server serves (`--mcp`), read once.
    served: Vec<crate::mcp::skills::ServedSkill>,
    result: AuditResult,
}

impl Workspace {
    /// Walk, parse and judge the whole library once. MCP servers are never contacted: the
    /// options' `mcp:` profiles and served skills are left out. A profile that cannot be
    /// loaded does not stop it: the library is judged without profiles, and the error is
    /// returned beside it (the profiles can be loaded again once it is fixed).
    pub fn open(opts: AuditOptions) -> Result<(Workspace, Option<AuditError>), AuditError> {
        match Workspace::open_with(opts.clone()) {
            Ok(ws) => Ok((ws, None)),
            Err(e @ AuditError::Profile(_)) => {
                let without = AuditOptions {
                    profiles: Vec::new(),
                    ..opts.clone()
                };
                let mut ws = Workspace::open_with(without)?;
                ws.opts.profiles = opts.profiles;
                Ok((ws, Some(e)))
            }
            Err(e) => Err(e),
        }
    }

    fn open_with(mut opts: AuditOptions) -> Result<Workspace, AuditError> {
        opts.profiles
            .retain(|p| !matches!(p, crate::profile::ProfileSource::Mcp { .. }));
        opts.mcp_skills = None;
        opts.snippets = false;
        Workspace::audit(opts)
    }

    /// Audit the whole library once, as `audit::run` does (MCP servers included), keeping what
    /// each file yielded so that files can be checked again one at a time: what `--fix` does
    /// between its passes.
    pub fn audit(opts: AuditOptions) -> Result<Workspace, AuditError> {
        let s = audit::in_pool(&opts, || audit::gather(&opts))?;
        let mut ws = Workspace {
            view: opts.view(),
            opts,
            boundary: s.boundary,
            excludes: s.excludes,
            found: s.files.found,
            files: s.files.outputs,
            served: s.served,
            result: empty_result(s.profiles),
        };
        drop(ws.judge());
        Ok(ws)
    }

    /// The latest judgement, taken out.
    pub fn into_result(self) -> AuditResult {
        self.result
    }

    pub fn options(&self) -> &AuditOptions {
        &self.opts
    }

    /// The latest judgement: every finding, skill, agent and link of the library.
    pub fn result(&self) -> &AuditResult {
        &self.result
    }

    pub fn profiles(&self) -> &[Profile] {
        &self.result.profiles
    }

    /// The manifests of the library, as last parsed.
    pub fn manifests(&self) -> impl Iterator<Item = &Manifest> {
        self.files.iter().flat_map(|o| match &o.parsed {
            Parsed::Manifests(m) => m.as_slice(),
            _ => &[],
        })
    }

    /// How `path` is shown in findings.
    pub fn display_path(&self, path: &Path) -> String {
        crate::paths::display_path(path, &self.view)
    }

    /// The file at `path` as the audit sees it: a file the walk found, or a new one the
    /// audit would read (a skill, an agent or a manifest under a root, not excluded).
    pub fn candidate(&self, path: &Path) -> Option<Candidate> {
        let shown = self.display_path(path);
        if let Ok(i) = self
            .found
            .candidates
            .binary_search_by(|c| c.path.as_str().cmp(&shown))
        {
            return Some(self.found.candidates[i].clone());
        }
        let kind = discover::classify(path)?;
        let under = self
            .opts
            .roots
            .iter()
            .any(|r| path.starts_with(crate::paths::normalize(&self.opts.cwd.join(r))));
        if !under || self.excludes.skips(path, &self.opts.roots) {
            return None;
        }
        Some(Candidate {
            fs_path: path.to_owned(),
            path: shown,
            kind,
            entry: Entry::File,
        })
    }

    /// The boundary of the audited tree, for a [`Files`] over it.
    pub fn boundary(&self) -> &Boundary {
        &self.boundary
    }

    /// Parse the file at `path` again from `text`, with `files` answering what its body refers
    /// to. False when the audit does not read such a file (then nothing changed).
    /// [`Workspace::judge`] brings the findings up to date.
    pub fn update(&mut self, path: &Path, text: &[u8], files: &dyn Files) -> bool {
        let Some(c) = self.candidate(path) else {
            return false;
        };
        let mut out = audit::check_text(&c, text, &self.opts.settings, &self.boundary, files);
        out.text = self.opts.snippets.then(|| text.to_vec());
        audit::with_sidecar(&mut out, &self.found.sidecars, &self.boundary);
        if !self.found.scripts.is_empty() {
            audit::with_scripts(&mut out, &self.found.scripts, &self.found.skill_dirs());
        }
        match self.files.binary_search_by(|o| o.path.cmp(&c.path)) {
            Ok(i) => {
                // The same file on disk, so a link to it is still told apart.
                out.id = self.files[i].id.clone();
                self.files[i] = out;
            }
            Err(i) => self.files.insert(i, out),
        }
        true
    }

    /// The files the walk found (skills, agents, manifests), by file-system path.
    pub fn files(&self) -> impl Iterator<Item = &Path> {
        self.found.candidates.iter().map(|c| c.fs_path.as_path())
    }

    /// The library judged against `profiles` instead of its own, leaving its own judgement as
    /// it is.
    pub fn judge_against(&self, profiles: Vec<Profile>) -> AuditResult {
        use rayon::prelude::*;
        let files = self.files.par_iter().cloned().collect();
        audit::judge(
            &self.opts,
            profiles,
            files,
            &self.found,
            self.served.clone(),
            &self.boundary,
        )
    }

    /// Forget the file at `path` (it was deleted).
    pub fn remove(&mut self, path: &Path) {
        let shown = self.display_path(path);
        self.files.retain(|o| o.path != shown);
    }

    /// Replace the profiles (a profile file changed) and judge every file again.
    pub fn set_profiles(&mut self, profiles: Vec<Profile>) {
        self.result.profiles = profiles;
        drop(self.judge());
    }

    /// Load the profiles the options name again, from their files.
    pub fn load_profiles(&self) -> Result<Vec<Profile>, AuditError> {
        audit::load_profiles(&self.opts)
    }

    /// The profile files the options name, to tell when one changes.
    pub fn profile_files(&self) -> Vec<PathBuf> {
        self.opts
            .profiles
            .iter()
            .filter_map(|p| match p {
                crate::profile::ProfileSource::File(f) => {
                    Some(crate::paths::normalize(&self.opts.cwd.join(f)))
                }
                _ => None,
            })
            .collect()
    }

    /// Run the library-level stage again over the cached outputs. Returns the previous
    /// result, for the caller to drop once it has answered: freeing a whole library's models
    /// takes about as long as copying them.
    pub fn judge(&mut self) -> AuditResult {
        use rayon::prelude::*;
        // The profiles move from the last result into the next one; only the per-file
        // outputs are copied (on every thread), since the stage consumes them.
        let profiles = std::mem::take(&mut self.result.profiles);
        let files = self.files.par_iter().cloned().collect();
        let next = audit::judge(
            &self.opts,
            profiles,
            files,
            &self.found,
            self.served.clone(),
            &self.boundary,
        );
        std::mem::replace(&mut self.result, next)
    }
}

fn empty_result(profiles: Vec<Profile>) -> AuditResult {
    AuditResult {
        roots: Vec::new(),
        profiles,
        skills: Vec::new(),
        agents: Vec::new(),
        links: Vec::new(),
        drift: Vec::new(),
        findings: Vec::new(),
        files_scanned: 0,
        ignored: 0,
        texts: Default::default(),
        prints: Default::default(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::Rule;

    fn write(root: &Path, rel: &str, text: &str) {
        let p = root.join(rel);
        std::fs::create_dir_all(p.parent().expect("a folder")).expect("folder");
        std::fs::write(p, text).expect("write");
    }

    fn rules_at<'a>(ws: &'a Workspace, shown: &str) -> Vec<Rule> {
        let of = |f: &'a crate::diagnostic::Finding| (f.path == shown).then_some(f.rule);
        ws.result().findings.iter().filter_map(of).collect()
    }

    #[test]
    fn a_file_is_judged_from_the_text_it_is_given_and_its_dependents_again() {
        let dir = tempfile::tempdir().expect("temporary folder");
        let root = dir.path().canonicalize().expect("real path");
        let skill = "---\nname: pdf\ndescription: Reads PDF files. Use when a PDF is given.\ntools: [read, pdftool]\n---\n";
        write(&root, "skills/pdf/SKILL.md", skill);
        write(
            &root,
            "agents/w.agent.md",
            "---\nname: w\ndescription: Writes.\ntools: ['read']\nskills: [pdf]\n---\n",
        );
        let opts = AuditOptions {
            roots: vec![root.clone()],
            cwd: root.clone(),
            config_dir: root.clone(),
            ..AuditOptions::default()
        };
        let (mut ws, problem) = Workspace::open(opts).expect("opens");
        assert!(problem.is_none());
        let drift = |ws: &Workspace| rules_at(ws, "agents/w.agent.md").contains(&Rule::Drift);
        assert!(drift(&ws), "{:?}", ws.result().findings);
        let path = root.join("skills/pdf/SKILL.md");
        let misspelt = skill.replace("name:", "nmae:");
        let boundary = ws.boundary().clone();
        let tree = crate::files::Tree::new(&boundary);
        assert!(ws.update(&path, misspelt.as_bytes(), &tree));
        drop(ws.judge());
        assert!(rules_at(&ws, "skills/pdf/SKILL.md").contains(&Rule::UnknownKey));
        // The skill no longer asks for `pdftool`: the agent's drift goes with it.
        assert!(ws.update(&path, skill.replace(", pdftool", "").as_bytes(), &tree));
        drop(ws.judge());
        assert!(rules_at(&ws, "skills/pdf/SKILL.md").is_empty());
        assert!(!drift(&ws), "{:?}", ws.result().findings);
        // New files under the root are read; others are not the audit's.
        assert!(ws.candidate(&root.join("skills/new/SKILL.md")).is_some());
        assert!(ws.candidate(&root.join("README.md")).is_none());
        assert!(ws.candidate(Path::new("/elsewhere/x/SKILL.md")).is_none());
        assert!(!ws.update(&root.join("notes.md"), b"text", &tree));
    }
}
