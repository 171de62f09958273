//! `skill-audit mcp --serve-skills`: the library's skills served the SEP-2640 way
//! (`skills/list`, `skills/get`, `resources/read`), gated by the server's first profile: only
//! the skills a host would list for the model there, or, with `--mark-unavailable`, every
//! skill with its availability and reason in its `_meta`.
//!
//! A skill's URI is `skill://<its folder's parent, relative to its root>/<name>/SKILL.md`,
//! so the last segment is its name, as the extension requires; each segment is
//! percent-encoded (RFC 3986). When two skills would share that URI, the one whose folder
//! bears its name keeps it and the other is served under `<its folder>/<name>`. Its files
//! are the regular files of its folder the audit's walk would see (not through links, not
//! hidden, not ignored, not excluded), each listed with its `sha256:` digest and size. Only a
//! listed URI is ever read, so a request cannot name a file of its own choosing.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use rmcp::model::{MetaObject, Skill as Served, SkillFrontmatter, SkillResource, SkillResources};

use super::server::{Library, Stamp, stamp};
use crate::boundary::{Boundary, Contents, Refusal};
use crate::discover::Excludes;
use crate::report::prompt;

/// Most files served per skill besides its SKILL.md (what `--mcp` reads of one).
const MAX_FILES: usize = super::MAX_FILES_PER_SKILL;
/// Folders below a skill's own that are looked into.
const MAX_DEPTH: usize = 8;
/// Bytes read for the digests of one listing, at most: files past it are left out, so a
/// library of huge (or sparse) files cannot hold the server up.
const MAX_LISTING_BYTES: u64 = super::MAX_SESSION_BYTES;
/// The `_meta` key of a skill's availability.
pub(crate) const META_KEY: &str = "io.github.skill-audit/availability";

/// The skills served, and the file behind each URI they list.
#[derive(Default)]
pub(crate) struct Listing {
    pub(crate) skills: Vec<Served>,
    files: HashMap<String, Listed>,
    /// The library's boundary, which every read of a listed file goes through.
    boundary: Boundary,
    /// Bytes read for digests so far.
    spent: u64,
}

/// A listed file: where it is, the digest listed, and how it looked before it was read.
struct Listed {
    path: PathBuf,
    digest: String,
    stamp: Stamp,
}

impl Listing {
    /// The file a listed URI stands for, read now: `None` when the listing has no such URI.
    /// A file made a link leading out since it was listed is refused.
    pub(crate) fn read(&self, uri: &str) -> Option<Result<Contents, Refusal>> {
        let listed = self.files.get(uri)?;
        Some(
            self.boundary
                .read(&listed.path, super::MAX_RESOURCE_BYTES as u64),
        )
    }

    /// Whether `bytes`, read for `uri`, are what the listing states.
    pub(crate) fn matches(&self, uri: &str, bytes: &[u8]) -> bool {
        self.files
            .get(uri)
            .is_some_and(|l| SkillResource::from_bytes(uri, bytes).digest == l.digest)
    }

    /// Whether a listed file changed since it was listed: its digest may be wrong.
    pub(crate) fn stale(&self) -> bool {
        self.files.values().any(|l| stamp(&l.path) != l.stamp)
    }

    /// `path` read for its digest, within the listing's budget.
    fn resource(&mut self, uri: &str, path: &Path) -> Option<SkillResource> {
        let before = stamp(path);
        let len = before.as_ref().map_or(0, |l| l.len);
        if self.spent.saturating_add(len) > MAX_LISTING_BYTES {
            return None;
        }
        let read = self
            .boundary
            .read(path, super::MAX_RESOURCE_BYTES as u64)
            .ok()?;
        self.spent = self.spent.saturating_add(read.bytes.len() as u64);
        Some(SkillResource::from_bytes(uri, &read.bytes)).inspect(|r| {
            self.files.insert(
                uri.to_owned(),
                Listed {
                    path: path.to_owned(),
                    digest: r.digest.clone(),
                    stamp: before,
                },
            );
        })
    }
}

/// The listing of `lib`'s skills in its first profile.
pub(crate) fn listing(lib: &Library, mark_unavailable: bool) -> Listing {
    let mut out = Listing {
        boundary: lib.ws.boundary().clone(),
        ..Listing::default()
    };
    let Some(profile) = lib.profiles().first() else {
        return out;
    };
    let walk = Walk::of(lib);
    let mut skills: Vec<&crate::audit::SkillResult> = lib.ws.result().skills.iter().collect();
    // A skill in a folder of its own name first: it keeps the plain URI on a clash.
    skills.sort_by_key(|s| (!named_folder(&s.skill), s.skill.path.clone()));
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
        let Some(base) = free_base(lib, &out, folder, &skill.name) else {
            say!(
                "skill-audit mcp: `{}` is not served: another skill has its URI",
                skill.path
            );
            continue;
        };
        let uri = format!("{base}/SKILL.md");
        let Some(first) = out.resource(&uri, &md) else {
            continue;
        };
        let mut resources = vec![first];
        for (rel, path) in walk.files(folder, &md) {
            if let Some(r) = out.resource(&format!("{base}/{rel}"), &path) {
                resources.push(r);
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
            forget(&mut out, &served);
            continue;
        }
        out.skills.push(served);
    }
    out.skills.sort_by(|a, b| a.uri.cmp(&b.uri));
    out
}

/// Whether a skill's folder bears its name.
fn named_folder(skill: &crate::model::Skill) -> bool {
    skill
        .fs_path
        .parent()
        .and_then(Path::file_name)
        .is_some_and(|f| f.to_str() == Some(skill.name.as_str()))
}

/// Drop the files of a skill that is not served after all.
fn forget(out: &mut Listing, skill: &Served) {
    if let SkillResources::Files(files) = &skill.resources {
        for f in files {
            out.files.remove(&f.uri);
        }
    }
}

/// The first of `<parent>/<name>` and `<folder>/<name>` no skill listed so far has.
fn free_base(lib: &Library, out: &Listing, folder: &Path, name: &str) -> Option<String> {
    let parent = folder.parent()?;
    [parent, folder]
        .into_iter()
        .filter_map(|dir| base_uri(lib, dir, name))
        .find(|base| !out.files.contains_key(&format!("{base}/SKILL.md")))
}

/// `skill://<dir>/<name>`, `dir` relative to its root, each segment percent-encoded.
fn base_uri(lib: &Library, dir: &Path, name: &str) -> Option<String> {
    let root = lib.roots.iter().find(|r| dir.starts_with(r))?;
    let mut segments: Vec<String> = Vec::new();
    for c in dir.strip_prefix(root).ok()?.components() {
        segments.push(encode(c.as_os_str().to_str()?));
    }
    segments.push(encode(name));
    Some(format!("skill://{}", segments.join("/")))
}

/// `segment` percent-encoded: every byte but RFC 3986's unreserved characters.
pub(crate) fn encode(segment: &str) -> String {
    crate::paths::percent_encode(segment, b"")
}

/// How the audit's walk sees a library: what it skips, and whether ignore files count.
struct Walk {
    excludes: Option<Excludes>,
    roots: Vec<PathBuf>,
    honour: bool,
}

impl Walk {
    fn of(lib: &Library) -> Walk {
        let o = lib.ws.options();
        let excludes = Excludes::new(
            &o.excludes,
            &o.config_excludes,
            &o.config_dir,
            &o.roots,
            &o.cwd,
        );
        Walk {
            // The audit compiled the same patterns; were they to fail now, no file is served.
            excludes: excludes.ok(),
            roots: lib.roots.clone(),
            honour: !o.no_ignore,
        }
    }

    /// The files of a skill's folder besides its SKILL.md, by percent-encoded path relative
    /// to the folder, sorted: the regular files the audit's walk would pass (links not
    /// followed, so nothing outside the folder is read; ignore files and excludes honoured
    /// as the audit honours them), hidden entries left out, at most [`MAX_FILES`]. A SKILL.md
    /// in a subfolder is one of them: the audit reads it as a document of this skill, not as
    /// a skill (SA114).
    fn files(&self, folder: &Path, md: &Path) -> Vec<(String, PathBuf)> {
        let Some(excludes) = self.excludes.clone() else {
            return Vec::new();
        };
        // An ignore file that is not a plain file could hold the walk up, or hide nothing:
        // then nothing beside the SKILL.md is served.
        if self.honour && !folder.ancestors().all(plain_ignore_files) {
            return Vec::new();
        }
        let honour = self.honour;
        let roots = self.roots.clone();
        let mut walker = crate::discover::walk_builder(folder, honour);
        walker
            .hidden(true)
            .max_depth(Some(MAX_DEPTH + 1))
            .filter_entry(move |e| {
                if e.depth() == 0 {
                    return true;
                }
                let dir = e.file_type().is_some_and(|t| t.is_dir());
                if dir
                    && crate::discover::SKIPPED_DIRS
                        .iter()
                        .any(|d| e.file_name() == *d)
                {
                    return false;
                }
                if dir && honour && !plain_ignore_files(e.path()) {
                    return false;
                }
                !excludes.skips(e.path(), &roots)
            });
        let mut out = Vec::new();
        for e in walker.build().filter_map(Result::ok) {
            if !e.file_type().is_some_and(|t| t.is_file()) || e.path() == md {
                continue;
            }
            let Ok(rel) = e.path().strip_prefix(folder) else {
                continue;
            };
            let rel: Option<Vec<String>> = rel
                .components()
                .map(|c| c.as_os_str().to_str().map(encode))
                .collect();
            if let Some(rel) = rel {
                out.push((rel.join("/"), e.path().to_owned()));
            }
        }
        out.sort();
        out.truncate(MAX_FILES);
        out
    }
}

/// Whether the walk may read `dir`'s ignore files: each one there is a plain file of a bounded
/// size, as the audit's walk asks.
fn plain_ignore_files(dir: &Path) -> bool {
    crate::discover::unsafe_ignore_file(dir).is_none()
}

#[cfg(test)]
mod tests {
    use super::encode;

    #[test]
    fn segments_are_percent_encoded_but_for_unreserved_characters() {
        assert_eq!(encode("a-b_c.d~e"), "a-b_c.d~e");
        assert_eq!(encode("a b#?%"), "a%20b%23%3F%25");
        assert_eq!(encode("%2e%2e"), "%252e%252e");
        assert_eq!(encode("é"), "%C3%A9");
    }
}
