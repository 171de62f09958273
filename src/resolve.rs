//! Stage 3a: link agents to the skills they may load, from plugin manifests, the Claude
//! `skills:` list and links in agent bodies. Everything is looked up through hash indexes
//! built once, so the cost is linear in agents, skills and manifest entries.

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::ffi::{OsStr, OsString};
use std::ops::Bound;
use std::path::{Path, PathBuf};

use crate::diagnostic::Finding;
use crate::discover::normalize;
use crate::model::{Agent, Link, Manifest, Skill};
use crate::rules::Rule;

/// Absolute, lexically normalised form of `p`, the key of every index here.
fn key(p: &Path, cwd: &Path) -> PathBuf {
    if p.is_absolute() {
        normalize(p)
    } else {
        normalize(&cwd.join(p))
    }
}

/// Where relative manifest paths are tried after the plugin's own folder: the scanned root
/// holding it, then the git work tree holding it (a library may sit inside a larger repository).
pub fn fallback_roots(dir: &Path, scanned_roots: &[PathBuf]) -> Vec<PathBuf> {
    let mut out: Vec<PathBuf> = Vec::new();
    if let Some(r) = scanned_roots
        .iter()
        .filter(|r| dir.starts_with(r))
        .max_by_key(|r| r.as_os_str().len())
    {
        out.push(r.clone());
    }
    if let Some(git) = dir.ancestors().find(|a| a.join(".git").exists())
        && !out.iter().any(|o| o == git)
    {
        out.push(git.to_owned());
    }
    out
}

struct Index<'a> {
    skill_by_file: HashMap<PathBuf, &'a Skill>,
    skill_by_dir: HashMap<PathBuf, &'a Skill>,
    skill_by_name: HashMap<&'a str, Vec<&'a Skill>>,
    agent_by_file: HashMap<PathBuf, &'a Agent>,
    /// Sorted by path bytes, so everything under a folder is one contiguous range.
    skill_files: BTreeMap<OsString, &'a Skill>,
    agent_files: BTreeMap<OsString, &'a Agent>,
}

/// The values whose paths lie under `dir` (or are `dir`): a range scan of a map sorted by the
/// paths' bytes, where everything starting with `dir`'s bytes is contiguous. Byte order, unlike
/// `Path`'s component order, compares without re-parsing components on every step.
fn under<T: Copy>(map: &BTreeMap<OsString, T>, dir: &Path) -> Vec<T> {
    let prefix = dir.as_os_str().as_encoded_bytes();
    map.range::<OsStr, _>((Bound::Included(dir.as_os_str()), Bound::Unbounded))
        .take_while(|(f, _)| f.as_encoded_bytes().starts_with(prefix))
        .filter(|(f, _)| {
            // `skills-extra/x` shares the bytes of `skills` but is not under it.
            match f.as_encoded_bytes().get(prefix.len()) {
                None => true,
                Some(&b) => {
                    std::path::is_separator(char::from(b))
                        || prefix
                            .last()
                            .is_some_and(|&l| std::path::is_separator(char::from(l)))
                }
            }
        })
        .map(|(_, v)| *v)
        .collect()
}

impl<'a> Index<'a> {
    fn new(skills: &'a [Box<Skill>], agents: &'a [Agent], cwd: &Path) -> Self {
        let mut ix = Index {
            skill_by_file: HashMap::new(),
            skill_by_dir: HashMap::new(),
            skill_by_name: HashMap::new(),
            agent_by_file: HashMap::new(),
            skill_files: BTreeMap::new(),
            agent_files: BTreeMap::new(),
        };
        for s in skills.iter().filter(|s| !s.invalid) {
            let f = key(&s.fs_path, cwd);
            if let Some(d) = f.parent() {
                ix.skill_by_dir.insert(d.to_owned(), s);
            }
            ix.skill_files.insert(f.clone().into_os_string(), s);
            ix.skill_by_file.insert(f, s);
            ix.skill_by_name.entry(s.name.as_str()).or_default().push(s);
        }
        for a in agents.iter().filter(|a| !a.invalid) {
            let f = key(&a.fs_path, cwd);
            ix.agent_files.insert(f.clone().into_os_string(), a);
            ix.agent_by_file.insert(f, a);
        }
        ix
    }

    /// The agent a manifest path names: `./agents/x.md` also matches `agents/x.agent.md`.
    fn agent_at(&self, p: &Path) -> Option<&'a Agent> {
        if let Some(a) = self.agent_by_file.get(p) {
            return Some(a);
        }
        let s = p.to_string_lossy();
        let lower = s.to_ascii_lowercase();
        if lower.ends_with(".md") && !lower.ends_with(".agent.md") {
            let alt = PathBuf::from(format!("{}.agent.md", &s[..s.len() - 3]));
            return self.agent_by_file.get(&alt).copied();
        }
        None
    }

    /// Agents whose files are under `dir`.
    fn agents_under(&self, dir: &Path) -> Vec<&'a Agent> {
        under(&self.agent_files, dir)
    }

    /// Skills whose files are under `dir`.
    fn skills_under(&self, dir: &Path) -> Vec<&'a Skill> {
        under(&self.skill_files, dir)
    }

    fn skill_at(&self, p: &Path) -> Option<&'a Skill> {
        self.skill_by_dir
            .get(p)
            .or_else(|| self.skill_by_file.get(p))
            .copied()
    }
}

/// Build every link and report manifest paths and skill names that resolve to nothing.
pub fn links(
    skills: &[Box<Skill>],
    agents: &[Agent],
    manifests: &[Manifest],
    scanned_roots: &[PathBuf],
    cwd: &Path,
    findings: &mut Vec<Finding>,
) -> Vec<Link> {
    let ix = Index::new(skills, agents, cwd);
    let roots: Vec<PathBuf> = scanned_roots.iter().map(|r| key(r, cwd)).collect();
    let mut out: BTreeSet<Link> = BTreeSet::new();
    for m in manifests {
        let base = key(&m.base, cwd);
        let fallbacks = fallback_roots(&base, &roots);
        let via = format!("{}:{}", m.via, m.name);
        let resolve = |p: &str| -> Vec<PathBuf> {
            let p = p.trim_start_matches("./");
            let mut c = vec![normalize(&base.join(p))];
            c.extend(
                fallbacks
                    .iter()
                    .filter(|r| **r != base)
                    .map(|r| normalize(&r.join(p))),
            );
            c
        };
        let m_agents: Vec<&Agent> = match &m.agents {
            None => ix.agents_under(&base.join("agents")),
            Some(list) => list
                .iter()
                .flat_map(|(p, pos)| {
                    let tried = resolve(p);
                    let found: Vec<&Agent> = match tried.iter().find_map(|c| ix.agent_at(c)) {
                        Some(a) => vec![a],
                        // A folder path names every agent under it.
                        None => tried
                            .iter()
                            .map(|c| ix.agents_under(c))
                            .find(|v| !v.is_empty())
                            .unwrap_or_default(),
                    };
                    if found.is_empty() {
                        findings.push(missing(m, "agent", p, *pos));
                    }
                    found
                })
                .collect(),
        };
        let m_skills: Vec<&Skill> = match &m.skills {
            None => ix.skills_under(&base.join("skills")),
            Some(list) => list
                .iter()
                .flat_map(|(p, pos)| {
                    let tried = resolve(p);
                    let found: Vec<&Skill> = match tried.iter().find_map(|c| ix.skill_at(c)) {
                        Some(sk) => vec![sk],
                        // A folder of skills (`./skills/`) names every skill under it.
                        None => tried
                            .iter()
                            .map(|c| ix.skills_under(c))
                            .find(|v| !v.is_empty())
                            .unwrap_or_default(),
                    };
                    if found.is_empty() {
                        findings.push(missing(m, "skill", p, *pos));
                    }
                    found
                })
                .collect(),
        };
        for a in &m_agents {
            for s in &m_skills {
                out.insert(link(a, s, &via));
            }
        }
    }
    for a in agents.iter().filter(|a| !a.invalid) {
        for name in &a.skills {
            match ix.skill_by_name.get(name.as_str()) {
                Some(found) => {
                    for s in found {
                        out.insert(link(a, s, "skills-field"));
                    }
                }
                None => findings.push(Finding::new(
                    Rule::UnknownSkillReference,
                    &a.path,
                    crate::diagnostic::Pos::START,
                    format!("`skills:` names `{name}`, which is not a skill in the library"),
                )),
            }
        }
        for (target, _) in &a.body_links {
            if let Some(s) = ix.skill_at(&key(target, cwd)) {
                out.insert(link(a, s, "body-link"));
            }
        }
    }
    out.into_iter().collect()
}

/// Links from `[[links]]` in skill-audit.toml: an agent file and skill names. An agent or
/// skill that does not exist is a configuration mistake reported as SA606.
pub fn configured(
    skills: &[Box<Skill>],
    agents: &[Agent],
    entries: &[(PathBuf, Vec<String>)],
    cwd: &Path,
    findings: &mut Vec<Finding>,
) -> Vec<Link> {
    // Most libraries have no `[[links]]`: do not index the whole library for nothing.
    if entries.is_empty() {
        return Vec::new();
    }
    let ix = Index::new(skills, agents, cwd);
    let mut out = Vec::new();
    for (agent_path, names) in entries {
        let Some(agent) = ix.agent_at(&key(agent_path, cwd)) else {
            findings.push(Finding::new(
                Rule::ConfigLinkUnresolved,
                crate::config::file::FILE_NAME,
                crate::diagnostic::Pos::START,
                format!(
                    "[[links]] agent `{}` is not an agent in the library",
                    agent_path.display()
                ),
            ));
            continue;
        };
        for name in names {
            match ix.skill_by_name.get(name.as_str()) {
                Some(found) => out.extend(found.iter().map(|s| link(agent, s, "config"))),
                None => findings.push(Finding::new(
                    Rule::ConfigLinkUnresolved,
                    crate::config::file::FILE_NAME,
                    crate::diagnostic::Pos::START,
                    format!("[[links]] skill `{name}` is not a skill in the library"),
                )),
            }
        }
    }
    out
}

fn link(a: &Agent, s: &Skill, via: &str) -> Link {
    Link {
        agent: a.path.clone(),
        skill: s.name.clone(),
        skill_path: s.path.clone(),
        via: via.to_owned(),
    }
}

fn missing(m: &Manifest, what: &str, path: &str, pos: crate::diagnostic::Pos) -> Finding {
    Finding::new(
        Rule::ManifestPathMissing,
        &m.path,
        pos,
        format!(
            "{what} path `{path}` resolves to no {what} from the plugin folder or the repository root; fix the path"
        ),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn under_takes_descendants_only() {
        let map: BTreeMap<OsString, u32> = [
            ("/l/skills", 0),
            ("/l/skills/a/SKILL.md", 1),
            ("/l/skills/b/c/SKILL.md", 2),
            ("/l/skills-extra/d/SKILL.md", 3),
            ("/l/skillz/SKILL.md", 4),
            ("/l/agents/x.agent.md", 5),
        ]
        .into_iter()
        .map(|(p, v)| (OsString::from(p), v))
        .collect();
        assert_eq!(under(&map, Path::new("/l/skills")), [0, 1, 2]);
        assert_eq!(under(&map, Path::new("/l/skills/b")), [2]);
        assert_eq!(under(&map, Path::new("/l/skill")), Vec::<u32>::new());
        assert_eq!(under(&map, Path::new("/l")).len(), 6);
        assert_eq!(under(&map, Path::new("/")).len(), 6);
    }
}
