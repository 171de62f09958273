//! Stage 3a: link agents to the skills they may load, from plugin manifests, the Claude
//! `skills:` list and links in agent bodies. Everything is looked up through indexes
//! built once, so the cost is linear in agents, skills and manifest entries.

use std::borrow::Cow;
use std::cell::OnceCell;
use std::collections::HashMap;
use std::ffi::{OsStr, OsString};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use rayon::prelude::*;

use crate::boundary::Boundary;
use crate::diagnostic::{Finding, Pos};
use crate::discover::strip_suffix_ignore_case;
use crate::model::{Agent, Link, Manifest, Named, Skill, by_name};
use crate::paths::normalize;
use crate::rules;

/// Hash maps here are keyed by paths and names; foldhash hashes those several times faster
/// than the default hasher.
type Map<K, V> = HashMap<K, V, foldhash::fast::RandomState>;

/// Absolute, lexically normalised form of `p`, the key of every index here.
fn key<'p>(p: &'p Path, cwd: &Path) -> Cow<'p, Path> {
    Cow::Owned(normalize(&cwd.join(p)))
}

/// The scanned root holding `dir` (the innermost), where relative manifest paths are tried
/// after the plugin's own folder.
fn scanned_root(dir: &Path, scanned_roots: &[PathBuf]) -> Option<PathBuf> {
    scanned_roots
        .iter()
        .filter(|r| dir.starts_with(r))
        .max_by_key(|r| r.as_os_str().len())
        .cloned()
}

/// The nearest folder at or above a folder that holds `.git`, remembered per folder: plugins
/// share their ancestors, so each folder is looked at on disk once, not once per manifest.
#[derive(Default)]
struct GitRoots(Map<OsString, Option<PathBuf>>);

impl GitRoots {
    fn of(&mut self, dir: &Path) -> Option<PathBuf> {
        if let Some(known) = self.0.get(dir.as_os_str()) {
            return known.clone();
        }
        let found = if dir.join(".git").exists() {
            Some(dir.to_owned())
        } else {
            dir.parent().and_then(|p| self.of(p))
        };
        self.0.insert(dir.as_os_str().to_owned(), found.clone());
        found
    }
}

/// Files by key, sorted by the keys' bytes, each key once: looked up by binary search, and
/// everything under a folder is one contiguous run. Byte order, unlike `Path`'s component
/// order, compares without re-parsing components on every step.
struct Files<'a, T>(Vec<(Cow<'a, Path>, &'a T)>);

/// A path's bytes, the order and equality of [`Files`] keys.
fn bytes(p: &Path) -> &[u8] {
    p.as_os_str().as_encoded_bytes()
}

impl<'a, T: Sync> Files<'a, T> {
    fn new(mut files: Vec<(Cow<'a, Path>, &'a T)>) -> Self {
        files.par_sort_by(|a, b| bytes(&a.0).cmp(bytes(&b.0)));
        // A file reached twice keeps its last entry, as a map would.
        files.dedup_by(|later, kept| {
            let same = bytes(&later.0) == bytes(&kept.0);
            if same {
                kept.1 = later.1;
            }
            same
        });
        Files(files)
    }

    fn get(&self, p: &Path) -> Option<&'a T> {
        self.0
            .binary_search_by(|(f, _)| bytes(f).cmp(bytes(p)))
            .ok()
            .map(|i| self.0[i].1)
    }

    /// The values whose paths lie under `dir` (or are `dir`).
    fn under(&self, dir: &Path) -> Vec<&'a T> {
        let prefix = bytes(dir);
        let start = self.0.partition_point(|(f, _)| bytes(f) < prefix);
        self.0[start..]
            .iter()
            .take_while(|(f, _)| bytes(f).starts_with(prefix))
            .filter(|(f, _)| {
                // `skills-extra/x` shares the bytes of `skills` but is not under it.
                match bytes(f).get(prefix.len()) {
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
}

struct Index<'a> {
    skill_files: Files<'a, Skill>,
    agent_files: Files<'a, Agent>,
    skill_by_dir: Map<Cow<'a, OsStr>, &'a Skill>,
    skill_by_name: Map<&'a str, Named<'a>>,
}

/// A number for each skill, the same for skills of one display path (what members are known
/// by), so that plugins' members are kept as numbers rather than copies of paths.
#[derive(Default)]
struct SkillIds<'a> {
    /// By the skill's address.
    of: Map<usize, u32>,
    /// By display path.
    by_path: Map<&'a str, u32>,
}

impl<'a> SkillIds<'a> {
    fn new(skills: &'a [Box<Skill>]) -> Self {
        let mut by_path: Map<&str, u32> = Map::default();
        let of = skills
            .iter()
            .filter(|s| !s.invalid)
            .map(|s| {
                let next = u32::try_from(by_path.len()).expect("fewer than 2^32 skills");
                let id = *by_path.entry(s.path.as_str()).or_insert(next);
                (address(s), id)
            })
            .collect();
        SkillIds { of, by_path }
    }

    /// The skill's number; every valid skill of the library has one.
    fn id(&self, s: &Skill) -> Option<u32> {
        self.of.get(&address(s)).copied()
    }
}

/// What tells skills apart while resolving, as in [`listed`]: the same skill is one value.
fn address(s: &Skill) -> usize {
    std::ptr::from_ref(s) as usize
}

impl<'a> Index<'a> {
    fn new(skills: &'a [Box<Skill>], agents: &'a [Agent], cwd: &Path) -> Self {
        // Keys, and the folders of skill files, are worked out on all threads; the maps are
        // filled in library order, so of two skills in one folder the later one is found.
        let skill_keys: Vec<_> = skills
            .par_iter()
            .filter(|s| !s.invalid)
            .map(|s| {
                let f = key(&s.fs_path, cwd);
                let dir = parent(&f);
                (f, dir, &**s)
            })
            .collect();
        let n = skill_keys.len();
        let mut skill_files = Vec::with_capacity(n);
        let mut skill_by_dir = Map::with_capacity_and_hasher(n, Default::default());
        let skill_by_name = by_name(skill_keys.iter().map(|&(_, _, s)| s));
        for (f, dir, s) in skill_keys {
            if let Some(dir) = dir {
                skill_by_dir.insert(dir, s);
            }
            skill_files.push((f, s));
        }
        let agent_keys = agents
            .par_iter()
            .filter(|a| !a.invalid)
            .map(|a| (key(&a.fs_path, cwd), a))
            .collect();
        Index {
            skill_files: Files::new(skill_files),
            agent_files: Files::new(agent_keys),
            skill_by_dir,
            skill_by_name,
        }
    }

    /// The agent a manifest path names: `./agents/x.md` also matches `agents/x.agent.md`.
    fn agent_at(&self, p: &Path) -> Option<&'a Agent> {
        if let Some(a) = self.agent_files.get(p) {
            return Some(a);
        }
        let named = |suffix| strip_suffix_ignore_case(bytes(p), suffix).is_some();
        if named(".md") && !named(".agent.md") {
            let s = p.to_string_lossy();
            let alt = PathBuf::from(format!("{}.agent.md", &s[..s.len() - 3]));
            return self.agent_files.get(&alt);
        }
        None
    }

    /// Agents whose files are under `dir`.
    fn agents_under(&self, dir: &Path) -> Vec<&'a Agent> {
        self.agent_files.under(dir)
    }

    /// Skills whose files are under `dir`.
    fn skills_under(&self, dir: &Path) -> Vec<&'a Skill> {
        self.skill_files.under(dir)
    }

    fn skill_at(&self, p: &Path) -> Option<&'a Skill> {
        self.skill_by_dir
            .get(p.as_os_str())
            .copied()
            .or_else(|| self.skill_files.get(p))
    }
}

/// The folder holding the file at key `f`, borrowed as `f` is, keyed by its bytes.
fn parent<'a>(f: &Cow<'a, Path>) -> Option<Cow<'a, OsStr>> {
    match f {
        Cow::Borrowed(f) => f.parent().map(|d| Cow::Borrowed(d.as_os_str())),
        Cow::Owned(f) => f.parent().map(|d| Cow::Owned(d.as_os_str().to_owned())),
    }
}

/// Build every link and report manifest paths and skill names that resolve to nothing.
pub fn links(
    skills: &[Box<Skill>],
    agents: &[Agent],
    manifests: &[Manifest],
    scanned_roots: &[PathBuf],
    cwd: &Path,
    boundary: &Boundary,
    findings: &mut Vec<Finding>,
) -> Vec<Link> {
    let (links, _, _) = links_and_members(
        skills,
        agents,
        manifests,
        scanned_roots,
        cwd,
        boundary,
        findings,
    );
    links
}

/// An agent that a plugin's manifest names, or that lies in its `agents/` folder when it
/// names none.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct AgentMember {
    /// The agent's display path.
    pub agent: String,
    /// The plugin's name.
    pub name: String,
}

/// A plugin that holds a skill, which makes the plugin the skill's namespace
/// (`/plugin:skill`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Member<'a> {
    /// What tells plugins apart: a plugin manifest's root (two formats' manifests at one
    /// root are one plugin), or a marketplace entry's file and name.
    pub plugin: &'a str,
    /// The plugin's name, for messages.
    pub name: &'a str,
    /// For a skill under the plugin's root, that root's length (the nearest root holds the
    /// skill); `None` for a skill the plugin lists from elsewhere.
    pub under: Option<usize>,
}

/// The skills each plugin holds. A plugin holds every skill under its root and nested
/// plugins' roots lie under it, and many marketplace entries may list one folder: kept as one
/// (plugin, skill) pair each, these would be as many as plugins times skills. Instead each
/// set of skills that plugins hold alike is kept once, as skill numbers, with the plugins
/// that hold it; a skill's plugins are put together when asked for.
pub(crate) struct Members<'a> {
    ids: Map<&'a str, u32>,
    /// Each manifest's plugin, in manifest order: what tells it apart and its name.
    plugins: Vec<(String, &'a str)>,
    /// Each set: the root length its plugins hold it under (`None`: listed from elsewhere),
    /// and the manifests holding it, in order.
    sets: Vec<(Option<usize>, Vec<u32>)>,
    /// The sets holding each skill number: `of_skill[start[id]..start[id + 1]]`.
    start: Vec<u32>,
    of_skill: Vec<u32>,
}

impl Members<'_> {
    /// The plugins holding the skill at display path `skill`, in manifest order.
    pub(crate) fn of(&self, skill: &str) -> Vec<Member<'_>> {
        let Some(&id) = self.ids.get(skill) else {
            return Vec::new();
        };
        let id = id as usize;
        let sets = &self.of_skill[self.start[id] as usize..self.start[id + 1] as usize];
        // A manifest holds a skill through one set at most: under its root or listed.
        let mut held: Vec<(u32, Option<usize>)> = sets
            .iter()
            .flat_map(|&set| {
                let (under, manifests) = &self.sets[set as usize];
                manifests.iter().map(|&m| (m, *under))
            })
            .collect();
        held.sort_unstable_by_key(|&(m, _)| m);
        held.into_iter()
            .map(|(m, under)| {
                let (plugin, name) = &self.plugins[m as usize];
                Member {
                    plugin,
                    name,
                    under,
                }
            })
            .collect()
    }
}

/// The sets of skills plugins hold, each kept once, numbered as they are first met while the
/// manifests are resolved: by the root length they are held under (`None`: listed from
/// elsewhere), then by their skill numbers.
#[derive(Default)]
struct Sets {
    numbers: Map<Option<usize>, Map<Box<[u32]>, u32>>,
    count: u32,
}

impl Sets {
    /// The number of the set of skill numbers `ids` held under `under`.
    fn number(&mut self, under: Option<usize>, ids: Vec<u32>) -> u32 {
        let of_root = self.numbers.entry(under).or_default();
        if let Some(&n) = of_root.get(ids.as_slice()) {
            return n;
        }
        let n = self.count;
        self.count += 1;
        of_root.insert(ids.into_boxed_slice(), n);
        n
    }

    /// The members, given the skills' numbers by display path, each manifest's plugin and
    /// the sets each manifest holds, in manifest order.
    fn members<'a>(
        self,
        ids: Map<&'a str, u32>,
        plugins: Vec<(String, &'a str)>,
        held: &[[Option<u32>; 2]],
    ) -> Members<'a> {
        let mut by_number: Vec<(Option<usize>, Box<[u32]>)> =
            vec![(None, Box::default()); self.count as usize];
        for (under, of_root) in self.numbers {
            for (skills, n) in of_root {
                by_number[n as usize] = (under, skills);
            }
        }
        let mut sets: Vec<(Option<usize>, Vec<u32>)> = by_number
            .iter()
            .map(|(under, _)| (*under, Vec::new()))
            .collect();
        for (m, of_manifest) in (0u32..).zip(held) {
            for &set in of_manifest.iter().flatten() {
                sets[set as usize].1.push(m);
            }
        }
        // Each skill's sets, laid end to end in one list: counted, then placed.
        let mut start = vec![0u32; ids.len() + 1];
        for (_, skills) in &by_number {
            for &id in skills {
                start[id as usize + 1] += 1;
            }
        }
        for i in 1..start.len() {
            start[i] += start[i - 1];
        }
        let mut next = start.clone();
        let mut of_skill = vec![0u32; start[ids.len()] as usize];
        for (set, (_, skills)) in (0u32..).zip(&by_number) {
            for &id in skills {
                let at = &mut next[id as usize];
                of_skill[*at as usize] = set;
                *at += 1;
            }
        }
        Members {
            ids,
            plugins,
            sets,
            start,
            of_skill,
        }
    }
}

/// [`links`], the skills each plugin holds (under its root or listed by it) and the agents
/// each names.
pub(crate) fn links_and_members<'a>(
    skills: &'a [Box<Skill>],
    agents: &[Agent],
    manifests: &'a [Manifest],
    scanned_roots: &[PathBuf],
    cwd: &Path,
    boundary: &Boundary,
    findings: &mut Vec<Finding>,
) -> (Vec<Link>, Members<'a>, Vec<AgentMember>) {
    let ix = Index::new(skills, agents, cwd);
    // Only plugins have members: a library without manifests numbers no skill.
    let ids = if manifests.is_empty() {
        SkillIds::default()
    } else {
        SkillIds::new(skills)
    };
    let shared = Shared {
        ids: &ids,
        sets: Mutex::new(Sets::default()),
        lists: Mutex::default(),
    };
    let roots: Vec<PathBuf> = scanned_roots
        .iter()
        .map(|r| key(r, cwd).into_owned())
        .collect();
    // Manifests share the `.git` lookups above them; most never need one.
    let git = Mutex::new(GitRoots::default());
    // Each manifest and each agent is resolved on its own, on all threads; findings keep the
    // order of a serial pass.
    let (from_manifests, from_agents) = rayon::join(
        || {
            manifests
                .par_iter()
                .map(|m| {
                    let base = key(&m.base, cwd);
                    let places = Places {
                        root: scanned_root(&base, &roots),
                        base,
                        git: &git,
                        git_root: OnceCell::new(),
                    };
                    manifest_links(&ix, &shared, m, &places, boundary)
                })
                .collect::<Vec<_>>()
        },
        || {
            agents
                .par_iter()
                .filter(|a| !a.invalid)
                .map(|a| agent_links(&ix, a, cwd))
                .collect::<Vec<_>>()
        },
    );
    // Sized first: a large library's links would otherwise be copied as the list grows.
    let count = |v: &[(Vec<Link>, Vec<Finding>)]| v.iter().map(|(l, _)| l.len()).sum::<usize>();
    let (from_manifests, held): (Vec<_>, Vec<_>) = from_manifests.into_iter().unzip();
    let mut plugins = Vec::with_capacity(held.len());
    let mut of_manifests = Vec::with_capacity(held.len());
    let mut agent_members = Vec::new();
    for ((plugin, sets), agents) in held {
        plugins.push(plugin);
        of_manifests.push(sets);
        agent_members.extend(agents);
    }
    let mut out = Vec::with_capacity(count(&from_manifests) + count(&from_agents));
    for (links, found) in from_manifests.into_iter().chain(from_agents) {
        out.extend(links);
        findings.extend(found);
    }
    out.par_sort_unstable();
    out.dedup();
    let sets = shared.sets.into_inner().unwrap_or_else(|e| e.into_inner());
    let plugins = manifests
        .iter()
        .zip(plugins)
        .map(|(m, key)| (key, m.name.as_str()))
        .collect();
    (
        out,
        sets.members(ids.by_path, plugins, &of_manifests),
        agent_members,
    )
}

/// Where one manifest's relative paths are tried: the plugin folder (`base`, a key), then the
/// scanned root holding it, then the git work tree holding it (a library may sit inside a
/// larger repository). The work tree is looked for on disk only when the others name nothing.
struct Places<'a> {
    base: Cow<'a, Path>,
    root: Option<PathBuf>,
    git: &'a Mutex<GitRoots>,
    git_root: OnceCell<Option<PathBuf>>,
}

impl Places<'_> {
    /// `p` joined to the plugin folder and, when it is another folder, the scanned root.
    fn near(&self, p: &str) -> Vec<PathBuf> {
        let p = relative(p);
        let mut out = vec![normalize(&self.base.join(p))];
        if let Some(root) = self.root.as_deref().filter(|r| *r != self.base.as_ref()) {
            out.push(normalize(&root.join(p)));
        }
        out
    }

    /// `p` joined to the git work tree holding the plugin, when that is neither of the near
    /// places; the work tree is looked for on first use.
    fn far(&self, p: &str) -> Option<PathBuf> {
        let git = self.git_root.get_or_init(|| {
            let mut git = self.git.lock().unwrap_or_else(|e| e.into_inner());
            git.of(&self.base)
        });
        git.as_deref()
            .filter(|g| *g != self.base.as_ref() && Some(*g) != self.root.as_deref())
            .map(|g| normalize(&g.join(relative(p))))
    }

    /// Whether `p`, tried from every place, leads outside the audited tree.
    fn leave(&self, p: &str, boundary: &Boundary) -> bool {
        self.near(p)
            .into_iter()
            .chain(self.far(p))
            .any(|c| boundary.leads_outside(&c))
    }
}

/// A manifest path as it is joined to a folder: without `./`, and without a trailing `/`
/// (`skills/x/`), which normalising drops anyway, so the joined path usually needs none.
fn relative(p: &str) -> &str {
    let p = p.trim_start_matches("./");
    match p.trim_end_matches('/') {
        "" => p,
        trimmed => trimmed,
    }
}

/// The links one manifest makes (every agent it names to every skill it names) and the
/// paths it lists that resolve to nothing.
fn manifest_links<'a>(
    ix: &Index<'a>,
    shared: &Shared<'a>,
    m: &Manifest,
    places: &Places,
    boundary: &Boundary,
) -> ((Vec<Link>, Vec<Finding>), Held) {
    let mut findings = Vec::new();
    let base = &places.base;
    // A path that names nothing in the library: outside the tree, or simply wrong.
    let mut unresolved = |what: &str, list: &[(String, crate::diagnostic::Pos)], i: usize| {
        let (p, pos) = &list[i];
        findings.push(if places.leave(p, boundary) {
            rules::file::manifest_path_outside(&m.path, *pos, what, p)
        } else {
            rules::links::manifest_path_missing(&m.path, *pos, what, p)
        });
    };
    let (m_agents, missing) = listed(
        m.agents.as_deref(),
        &base.join("agents"),
        places,
        |p| ix.agent_at(p),
        |d| ix.agents_under(d),
    );
    for i in missing {
        unresolved("agent", m.agents.as_deref().unwrap_or_default(), i);
    }
    let m_skills = shared.skills_of(ix, m, places);
    for &i in &m_skills.missing {
        unresolved("skill", m.skills.as_deref().unwrap_or_default(), i);
    }
    let via = format!("{}:{}", m.via, m.name);
    let links = m_agents
        .iter()
        .flat_map(|a| m_skills.skills.iter().map(|s| link(a, s, &via)))
        .collect();
    let agent_members = m_agents
        .iter()
        .map(|a| AgentMember {
            agent: a.path.clone(),
            name: m.name.clone(),
        })
        .collect();
    let plugin = if m.via == "marketplace" {
        format!("{}#{}", m.path, m.name)
    } else {
        base.to_string_lossy().into_owned()
    };
    ((links, findings), ((plugin, m_skills.sets), agent_members))
}

/// What one manifest's plugin holds: what tells the plugin apart, the numbers of the sets of
/// skills it holds under its root and lists from elsewhere, and its agents.
type Held = ((String, [Option<u32>; 2]), Vec<AgentMember>);

/// The skills one manifest names and its plugin holds.
struct SkillList<'a> {
    /// The skills its list names, or its `skills/` folder holds.
    skills: Vec<&'a Skill>,
    /// The entries of its list that name nothing, by place in the list.
    missing: Vec<usize>,
    /// The numbers of the sets of skills its plugin holds under its root and lists from
    /// elsewhere.
    sets: [Option<u32>; 2],
}

/// What the manifests, resolved on all threads, share.
struct Shared<'a> {
    ids: &'a SkillIds<'a>,
    sets: Mutex<Sets>,
    /// The skill lists of marketplace entries, by folder and list: a marketplace may repeat
    /// one `source` and `skills` in many entries, which then resolve them once.
    lists: Mutex<Map<ListKey, Arc<SkillList<'a>>>>,
}

/// A marketplace entry's folder and the paths its `skills` list names.
type ListKey = (PathBuf, Option<Vec<String>>);

impl<'a> Shared<'a> {
    fn skills_of(&self, ix: &Index<'a>, m: &Manifest, places: &Places) -> Arc<SkillList<'a>> {
        let marketplace = m.via == "marketplace";
        let resolve = || {
            let (skills, missing) = listed(
                m.skills.as_deref(),
                &places.base.join("skills"),
                places,
                |p| ix.skill_at(p),
                |d| ix.skills_under(d),
            );
            let sets = self.members(ix, marketplace, &places.base, &skills);
            Arc::new(SkillList {
                skills,
                missing,
                sets,
            })
        };
        if !marketplace {
            return resolve();
        }
        let key = (
            places.base.to_path_buf(),
            m.skills
                .as_ref()
                .map(|l| l.iter().map(|(p, _)| p.clone()).collect()),
        );
        let lists = || self.lists.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(known) = lists().get(&key) {
            return Arc::clone(known);
        }
        // Resolved unlocked: entries of another list go on meanwhile, and an entry of this
        // list resolved twice at once resolves alike.
        let found = resolve();
        Arc::clone(lists().entry(key).or_insert(found))
    }

    /// The numbers of the sets of skills a plugin holds: for a plugin manifest every skill
    /// under its root `base`, and any skill it lists from elsewhere. A marketplace entry's
    /// root is often the whole repository, shared by entries that each list a few skills:
    /// only its list counts.
    fn members(
        &self,
        ix: &Index,
        marketplace: bool,
        base: &Path,
        listed: &[&Skill],
    ) -> [Option<u32>; 2] {
        // Numbers, sorted and each once: equal sets are found equal whatever order the
        // skills came in, and a path reached twice is one member.
        let numbers = |skills: &mut dyn Iterator<Item = &Skill>| {
            let mut out: Vec<u32> = skills.filter_map(|s| self.ids.id(s)).collect();
            out.sort_unstable();
            out.dedup();
            out
        };
        let held = if marketplace {
            Vec::new()
        } else {
            numbers(&mut ix.skills_under(base).into_iter())
        };
        let from_elsewhere = numbers(&mut listed.iter().copied().filter(|s| {
            self.ids
                .id(s)
                .is_some_and(|id| held.binary_search(&id).is_err())
        }));
        let number = |under, ids: Vec<u32>| {
            (!ids.is_empty()).then(|| {
                let mut sets = self.sets.lock().unwrap_or_else(|e| e.into_inner());
                sets.number(under, ids)
            })
        };
        [
            number(Some(base.as_os_str().len()), held),
            number(None, from_elsewhere),
        ]
    }
}

/// What a manifest's agent or skill list names: each path the agent or skill there, or else
/// every one under that folder (`./skills/`), tried from each of `places` in turn (the file
/// anywhere before a folder anywhere); without a list, everything under `default`. Also the
/// places in the list of the paths that name nothing.
fn listed<'a, T>(
    list: Option<&[(String, crate::diagnostic::Pos)]>,
    default: &Path,
    places: &Places,
    at: impl Fn(&Path) -> Option<&'a T>,
    under: impl Fn(&Path) -> Vec<&'a T>,
) -> (Vec<&'a T>, Vec<usize>) {
    let Some(list) = list else {
        return (under(default), Vec::new());
    };
    let mut seen = std::collections::HashSet::<_, foldhash::fast::RandomState>::default();
    let mut missing = Vec::new();
    let found = list
        .iter()
        .enumerate()
        .flat_map(|(i, (p, _))| {
            let near = places.near(p);
            let found = match near.iter().find_map(|c| at(c)) {
                Some(one) => vec![one],
                None => {
                    let far = places.far(p);
                    match far.as_deref().and_then(&at) {
                        Some(one) => vec![one],
                        None => near
                            .iter()
                            .chain(&far)
                            .map(|c| under(c))
                            .find(|v| !v.is_empty())
                            .unwrap_or_default(),
                    }
                }
            };
            if found.is_empty() {
                missing.push(i);
            }
            found
        })
        // A file listed twice (or a folder and a file in it) is one member: each repeat
        // would multiply the plugin's links.
        .filter(|t| seen.insert(std::ptr::from_ref(*t)))
        .collect();
    (found, missing)
}

/// The links one agent makes itself (its `skills:` list and links in its body) and the
/// names in that list that are no skill.
fn agent_links(ix: &Index, a: &Agent, cwd: &Path) -> (Vec<Link>, Vec<Finding>) {
    let mut links = Vec::new();
    let mut findings = Vec::new();
    // A name listed twice links the same skills: each repeat would add them all again.
    let mut seen = std::collections::HashSet::new();
    let at = |i: usize| a.skill_positions.get(i).copied().unwrap_or(Pos::START);
    let listed = a.skills.iter().enumerate().map(|(i, name)| (name, at(i)));
    for (name, pos) in listed.filter(|(n, _)| seen.insert(n.as_str())) {
        match ix.skill_by_name.get(name.as_str()) {
            Some(found) => links.extend(found.all().map(|s| link(a, s, "skills-field"))),
            None => findings.push(rules::links::unknown_skill_reference(&a.path, pos, name)),
        }
    }
    for (target, _) in &a.body_links {
        if let Some(s) = ix.skill_at(&key(target, cwd)) {
            links.push(link(a, s, "body-link"));
        }
    }
    (links, findings)
}

/// Links from `[[links]]` in skill-audit.toml: an agent file and skill names. An agent or
/// skill that does not exist is a configuration mistake reported as SA606.
pub(crate) fn configured(
    skills: &[Box<Skill>],
    agents: &[Agent],
    entries: &[crate::config::file::ConfigLink],
    cwd: &Path,
    boundary: &Boundary,
    findings: &mut Vec<Finding>,
) -> Vec<Link> {
    // Most libraries have no `[[links]]`: do not index the whole library for nothing.
    if entries.is_empty() {
        return Vec::new();
    }
    let ix = Index::new(skills, agents, cwd);
    let mut out = Vec::new();
    for entry in entries {
        let at = key(&entry.agent, cwd);
        let Some(agent) = ix.agent_at(&at) else {
            if boundary.leads_outside(&at) {
                findings.push(rules::file::link_agent_outside(entry));
                continue;
            }
            findings.push(rules::links::link_agent_unresolved(entry));
            continue;
        };
        for (name, pos) in &entry.skills {
            match ix.skill_by_name.get(name.as_str()) {
                Some(found) => out.extend(found.all().map(|s| link(agent, s, "config"))),
                None => findings.push(rules::links::link_skill_unresolved(entry, *pos, name)),
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

#[cfg(test)]
mod tests {
    use super::*;

    fn files(paths: &[(&'static str, &'static u32)]) -> Files<'static, u32> {
        Files::new(
            paths
                .iter()
                .map(|&(p, v)| (Cow::Borrowed(Path::new(p)), v))
                .collect(),
        )
    }

    #[test]
    fn under_takes_descendants_only() {
        let files = files(&[
            ("/l/skills/b/c/SKILL.md", &2),
            ("/l/skills", &0),
            ("/l/skills/a/SKILL.md", &1),
            ("/l/skills-extra/d/SKILL.md", &3),
            ("/l/skillz/SKILL.md", &4),
            ("/l/agents/x.agent.md", &5),
        ]);
        let under =
            |dir: &str| -> Vec<u32> { files.under(Path::new(dir)).into_iter().copied().collect() };
        assert_eq!(under("/l/skills"), [0, 1, 2]);
        assert_eq!(under("/l/skills/b"), [2]);
        assert_eq!(under("/l/skill"), Vec::<u32>::new());
        assert_eq!(under("/l").len(), 6);
        assert_eq!(under("/").len(), 6);
    }

    #[test]
    fn a_skills_list_links_every_skill_of_the_name() {
        let skill = |dir: &str, name: &str| {
            let path = format!("{dir}/SKILL.md");
            let mut s = Skill::invalid(name.into(), path.clone(), PathBuf::from(&path));
            s.invalid = false;
            Box::new(s)
        };
        let skills = [
            skill("/l/a/pdf", "pdf"),
            skill("/l/b/xlsx", "xlsx"),
            skill("/l/c/pdf", "pdf"),
            skill("/l/d/pdf", "pdf"),
        ];
        let agent = Agent {
            path: "/l/agents/x.md".into(),
            fs_path: PathBuf::from("/l/agents/x.md"),
            skills: vec!["pdf".into(), "xlsx".into()],
            ..Agent::default()
        };
        let mut findings = Vec::new();
        let got = links(
            &skills,
            &[agent],
            &[],
            &[],
            Path::new("/"),
            &Boundary::none(),
            &mut findings,
        );
        // Links come sorted: by skill name, then path.
        let paths: Vec<&str> = got.iter().map(|l| l.skill_path.as_str()).collect();
        assert_eq!(
            paths,
            [
                "/l/a/pdf/SKILL.md",
                "/l/c/pdf/SKILL.md",
                "/l/d/pdf/SKILL.md",
                "/l/b/xlsx/SKILL.md"
            ]
        );
        assert!(findings.is_empty());
    }

    #[test]
    fn a_file_listed_twice_keeps_its_last_entry() {
        let files = files(&[("/l/a", &1), ("/l/b", &2), ("/l/a", &3)]);
        assert_eq!(files.get(Path::new("/l/a")), Some(&3));
        assert_eq!(files.get(Path::new("/l/b")), Some(&2));
        assert_eq!(files.get(Path::new("/l/c")), None);
        assert_eq!(files.under(Path::new("/l")), [&3, &2]);
    }

    #[test]
    fn the_git_work_tree_is_found_once_per_folder() {
        let dir = tempfile::tempdir().expect("temp dir");
        let root = dir.path();
        std::fs::create_dir_all(root.join("repo/.git")).expect("mkdir");
        std::fs::create_dir_all(root.join("repo/plugins/a")).expect("mkdir");
        let mut git = GitRoots::default();
        let expected = Some(root.join("repo"));
        assert_eq!(git.of(&root.join("repo/plugins/a")), expected);
        assert_eq!(git.of(&root.join("repo/plugins/b")), expected);
        assert_eq!(git.of(&root.join("repo")), expected);
        assert!(git.0.contains_key(root.join("repo/plugins").as_os_str()));
        assert_eq!(
            git.of(root),
            root.ancestors()
                .find(|a| a.join(".git").exists())
                .map(Path::to_owned)
        );
    }
}
