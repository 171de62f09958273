//! `skill-audit mcp --serve-skills`: the library's skills served the SEP-2640 way
//! (`skills/list`, `skills/get`, `resources/read`), gated by the server's first profile: only
//! the skills a host would list for the model there, or, with `--mark-unavailable`, every
//! skill with its availability and reason in its `_meta`.
//!
//! A skill's URI is `skill://<its folder's parent, relative to its root>/<name>/SKILL.md`,
//! so the last segment is its name, as the extension requires; its files are the regular
//! files of its folder (not through links, not in hidden folders), each listed with its `sha256:` digest and size. Only a listed URI is ever read, so a
//! request cannot name a file of its own choosing.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use rmcp::model::{MetaObject, Skill as Served, SkillFrontmatter, SkillResource, SkillResources};

use super::server::Library;
use crate::boundary::{Boundary, Contents, Refusal};
use crate::report::prompt;

/// Most files served per skill besides its SKILL.md (what `--mcp` reads of one).
const MAX_FILES: usize = super::MAX_FILES_PER_SKILL;
/// Folders below a skill's own that are looked into.
const MAX_DEPTH: usize = 8;
/// The `_meta` key of a skill's availability.
pub(crate) const META_KEY: &str = "io.github.skill-audit/availability";

/// The skills served, and the file behind each URI they list.
#[derive(Default)]
pub(crate) struct Listing {
    pub(crate) skills: Vec<Served>,
    files: HashMap<String, PathBuf>,
    /// The library's boundary, which every read of a listed file goes through.
    boundary: Boundary,
}

impl Listing {
    /// The file a listed URI stands for, read now: `None` when the listing has no such URI.
    /// A file made a link leading out since it was listed is refused.
    pub(crate) fn read(&self, uri: &str) -> Option<Result<Contents, Refusal>> {
        let path = self.files.get(uri)?;
        Some(self.boundary.read(path, super::MAX_RESOURCE_BYTES as u64))
    }
}

/// The listing of `lib`'s skills in its first profile.
pub(crate) fn listing(lib: &Library, mark_unavailable: bool) -> Listing {
    let boundary = lib.ws.boundary();
    let mut out = Listing {
        boundary: boundary.clone(),
        ..Listing::default()
    };
    let Some(profile) = lib.profiles().first() else {
        return out;
    };
    let mut skills: Vec<&crate::audit::SkillResult> = lib.ws.result().skills.iter().collect();
    skills.sort_by(|a, b| a.skill.path.cmp(&b.skill.path));
    for s in skills {
        let skill = s.skill.as_ref();
        let Some(a) = s.availability.first() else {
            continue;
        };
        if skill.invalid || skill.fs_path.as_os_str().is_empty() {
            continue;
        }
        let listed = prompt::list(std::iter::once((skill, a)), true, None);
        let Some(entry) = listed.first() else {
            continue;
        };
        if !entry.surfaced && !mark_unavailable {
            continue;
        }
        let md = crate::paths::normalize(&lib.cwd.join(&skill.fs_path));
        let Some(folder) = md.parent() else { continue };
        let Some(base) = base_uri(lib, folder, &skill.name) else {
            continue;
        };
        let uri = format!("{base}/SKILL.md");
        if out.files.contains_key(&uri) {
            continue;
        }
        let Ok(text) = boundary.read(&md, super::MAX_RESOURCE_BYTES as u64) else {
            continue;
        };
        let mut resources = vec![SkillResource::from_bytes(&uri, &text.bytes)];
        let mut files = vec![(uri.clone(), md.clone())];
        for (rel, path) in folder_files(folder, &md) {
            let file_uri = format!("{base}/{rel}");
            if let Ok(c) = boundary.read(&path, super::MAX_RESOURCE_BYTES as u64) {
                resources.push(SkillResource::from_bytes(&file_uri, &c.bytes));
                files.push((file_uri, path));
            }
        }
        let frontmatter = SkillFrontmatter::new(
            skill.name.clone(),
            skill.description.clone().unwrap_or_default(),
        );
        let mut served = Served::new(&uri, frontmatter, SkillResources::Files(resources));
        if mark_unavailable {
            let mut meta = serde_json::Map::new();
            meta.insert(
                META_KEY.into(),
                serde_json::json!({
                    "profile": profile.name,
                    "status": entry.status,
                    "available": entry.surfaced,
                    "reason": entry.reason,
                }),
            );
            served = served.with_meta(MetaObject(meta));
        }
        // What the extension's rules refuse (a name it does not allow) is not served.
        if served.validate().is_err() {
            continue;
        }
        out.skills.push(served);
        out.files.extend(files);
    }
    out
}

/// `skill://<parent>/<name>`, when every segment can stand in a URI as it is.
fn base_uri(lib: &Library, folder: &Path, name: &str) -> Option<String> {
    let root = lib.roots.iter().find(|r| folder.starts_with(r))?;
    let parent = folder.strip_prefix(root).ok()?.parent()?;
    let mut segments: Vec<String> = Vec::new();
    for c in parent.components() {
        segments.push(c.as_os_str().to_str()?.to_owned());
    }
    segments.push(name.to_owned());
    let plain = |s: &String| {
        !s.is_empty()
            && s.bytes()
                .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_' | b'.'))
    };
    segments
        .iter()
        .all(plain)
        .then(|| format!("skill://{}", segments.join("/")))
}

/// The files of a skill's folder besides its SKILL.md, by path relative to the folder,
/// sorted: regular files only (a link is not followed, so nothing outside the folder is
/// read), hidden entries left out, at most [`MAX_FILES`]. A SKILL.md in a subfolder is one of
/// them: the audit reads it as a document of this skill, not as a skill (SA114).
fn folder_files(folder: &Path, md: &Path) -> Vec<(String, PathBuf)> {
    let mut out = Vec::new();
    let mut stack = vec![(folder.to_owned(), 0usize)];
    while let Some((dir, depth)) = stack.pop() {
        let Ok(entries) = std::fs::read_dir(&dir) else {
            continue;
        };
        let mut entries: Vec<_> = entries.filter_map(Result::ok).collect();
        entries.sort_by_key(std::fs::DirEntry::file_name);
        for e in entries {
            let name = e.file_name();
            let Some(name) = name.to_str() else { continue };
            let Ok(kind) = e.file_type() else { continue };
            let path = e.path();
            if name.starts_with('.') || path == md {
                continue;
            }
            if kind.is_dir() && depth < MAX_DEPTH {
                stack.push((path, depth + 1));
            } else if kind.is_file() {
                let Ok(rel) = path.strip_prefix(folder) else {
                    continue;
                };
                let rel: Vec<&str> = rel
                    .components()
                    .filter_map(|c| c.as_os_str().to_str())
                    .collect();
                out.push((rel.join("/"), path));
            }
        }
    }
    out.sort();
    out.truncate(MAX_FILES);
    out
}
