//! Composition: a profile file's `host`, `extends`, `servers.NAME.from` and `deny` turn it,
//! and the files it names, into one environment.
//!
//! Order, for one file: the profiles it `extends` (in order), then its `host`'s built-in
//! profile, then its own lists and servers (each server's `from` file first, then its inline
//! lists) and its machine keys; the union of all of them, minus what any `deny` of the file or
//! of a profile it extends matches. Files are named relative to the file that names them.

use globset::{Glob, GlobBuilder, GlobSet, GlobSetBuilder};
use std::path::{Path, PathBuf};

use super::file::{self, ProfileError, ProfileFile};
use super::machine::{self, MachineParts};
use super::{NameSet, Profile, Vocabulary, builtin, names};
use crate::diagnostic::quote;
use crate::model::DepKind;

/// What a profile and the profiles it is built from list, before the name sets are built.
#[derive(Debug, Default, Clone)]
pub(super) struct Parts {
    tools: Vec<String>,
    resources: Vec<String>,
    prompts: Vec<String>,
    vocabulary: Option<Vocabulary>,
    /// Whether any part lists MCP servers (then `server/tool` names are judged).
    servers: bool,
    /// Whether a user's file lists the environment's servers, so that those a host profile
    /// cannot see (`not-judged: servers`) are described after all.
    servers_described: bool,
    /// `deny` entries: of one kind, or (`None`, the list form) a tool, resource or prompt.
    deny: Vec<(Option<DepKind>, String)>,
    machine: MachineParts,
}

impl Parts {
    /// Add everything `other` lists; the first host stays this profile's host, the other
    /// hosts' vocabularies join it.
    fn absorb(&mut self, other: Parts) {
        self.tools.extend(other.tools);
        self.resources.extend(other.resources);
        self.prompts.extend(other.prompts);
        self.servers |= other.servers;
        self.servers_described |= other.servers_described;
        self.deny.extend(other.deny);
        self.machine.absorb(other.machine);
        match (&mut self.vocabulary, other.vocabulary) {
            (_, None) => {}
            (None, Some(v)) => self.vocabulary = Some(v),
            (Some(mine), Some(v)) => mine.absorb(v),
        }
    }

    /// The finished profile: denied literal names dropped, the rest in name sets.
    fn into_profile(
        mut self,
        name: String,
        display: &str,
        err: impl Fn(String) -> ProfileError,
    ) -> Result<Profile, ProfileError> {
        let deny = Deny::new(&self.deny).map_err(&err)?;
        if !deny.is_empty() {
            self.tools.retain(|t| !deny.denies(DepKind::Tools, t));
            self.resources
                .retain(|r| !deny.denies(DepKind::Resources, r));
            self.prompts.retain(|p| !deny.denies(DepKind::Prompts, p));
        }
        let tools = NameSet::new(self.tools, true).map_err(&err)?;
        if let Some(v) = &mut self.vocabulary {
            v.has_servers = self.servers;
            if self.servers_described {
                v.not_judged.retain(|w| *w != super::Undescribed::Servers);
            }
            v.defined = super::Defined::of(&tools, v);
        }
        Ok(Profile {
            name,
            path: display.to_owned(),
            tools,
            resources: NameSet::new(self.resources, false).map_err(&err)?,
            prompts: NameSet::new(self.prompts, false).map_err(&err)?,
            vocabulary: self.vocabulary,
            machine: self.machine.into_machine(&deny),
            deny,
            lists_every_tool: false,
        })
    }
}

impl Vocabulary {
    fn absorb(&mut self, other: Vocabulary) {
        self.toolsets.extend(other.toolsets);
        self.renamed.extend(other.renamed);
        self.drops.extend(other.drops);
        self.aliases.extend(other.aliases);
        self.qualified_server_tools |= other.qualified_server_tools;
        for l in other.loads {
            if !self.loads.contains(&l) {
                self.loads.push(l);
            }
        }
        for (host, map) in other.maps {
            self.maps.entry(host).or_default().extend(map);
        }
        self.models.extend(other.models);
        self.models.sort();
        self.models.dedup();
        self.hook_events.extend(other.hook_events);
        self.hook_events.sort();
        self.hook_events.dedup();
        // A later part that names its host or its loading rules speaks for the host.
        if other.title.is_some() {
            self.title = other.title;
        }
        if other.skills.is_some() {
            self.skills = other.skills;
        }
        if other.terminal.is_some() {
            self.terminal = other.terminal;
        }
        self.not_judged.extend(other.not_judged);
        self.not_judged.sort();
        self.not_judged.dedup();
    }
}

/// Names and globs removed from a composed profile. A tool entry with a `/` (`github/*`,
/// `payments/refund`) is matched against the canonical `server/tool` name; one without
/// (`dispute_*`) against the tool's own name on any server. Resource URIs, prompt names and
/// machine names are matched as written (OS and package names normalised).
#[derive(Debug, Clone, Default)]
pub(crate) struct Deny {
    /// Tool entries with a `/`: for a tool's `server/tool` name.
    qualified: Matcher,
    /// Tool entries without: for a tool's own name.
    bare: Matcher,
    /// The other kinds' entries, in `DepKind::ALL` order after tools.
    others: Vec<(DepKind, Matcher)>,
    /// No entry at all: every lookup asks, so the common case answers at once.
    empty: bool,
}

/// Literal names in a hash set, globs in one glob set: every lookup of every tool of every
/// item asks the deny list, so it must not walk its entries.
#[derive(Debug, Clone, Default)]
struct Matcher {
    literal: foldhash::HashSet<String>,
    /// Globs that are a literal text and one final `*` (`kusto/*`, `dispute_*`).
    prefixes: Vec<String>,
    globs: GlobSet,
}

impl Matcher {
    fn is_match(&self, s: &str) -> bool {
        self.literal.contains(s)
            || self.prefixes.iter().any(|p| s.starts_with(p.as_str()))
            || (!self.globs.is_empty() && self.globs.is_match(s))
    }

    fn is_empty(&self) -> bool {
        self.literal.is_empty() && self.prefixes.is_empty() && self.globs.is_empty()
    }
}

/// Entries sorted into literals and globs.
struct MatcherBuilder {
    literal: foldhash::HashSet<String>,
    prefixes: Vec<String>,
    globs: GlobSetBuilder,
}

impl Default for MatcherBuilder {
    fn default() -> Self {
        MatcherBuilder {
            literal: Default::default(),
            prefixes: Vec::new(),
            globs: GlobSetBuilder::new(),
        }
    }
}

impl MatcherBuilder {
    fn add(&mut self, entry: &str, glob: Option<&Glob>) {
        match glob {
            Some(_) if let Some(prefix) = names::literal_prefix(entry) => {
                self.prefixes.push(prefix.to_owned());
            }
            Some(g) => {
                self.globs.add(g.clone());
            }
            None => {
                self.literal.insert(entry.to_owned());
            }
        }
    }

    fn build(self) -> Result<Matcher, String> {
        Ok(Matcher {
            literal: self.literal,
            prefixes: self.prefixes,
            globs: self.globs.build().map_err(|e| e.to_string())?,
        })
    }
}

/// A `deny` entry as a glob, when it is one.
fn deny_glob(entry: &str, shown: &str) -> Result<Option<Glob>, String> {
    if !names::is_pattern(entry) {
        return Ok(None);
    }
    GlobBuilder::new(entry)
        .literal_separator(false)
        .backslash_escape(true)
        .build()
        .map(Some)
        .map_err(|g| format!("`deny` entry {} is not a valid glob: {g}", quote(shown)))
}

impl Deny {
    /// From `deny` entries: each of one kind, or (`None`, the list form) a tool, a resource
    /// URI or a prompt name.
    fn new(entries: &[(Option<DepKind>, String)]) -> Result<Deny, String> {
        let (mut qualified, mut bare) = (MatcherBuilder::default(), MatcherBuilder::default());
        let mut others: Vec<(DepKind, MatcherBuilder)> = DepKind::ALL
            .iter()
            .filter(|k| **k != DepKind::Tools)
            .map(|k| (*k, MatcherBuilder::default()))
            .collect();
        for (kind, e) in entries {
            let tools = matches!(kind, None | Some(DepKind::Tools));
            if tools {
                let canonical = names::canonical(e.trim()).into_owned();
                let glob = deny_glob(&canonical, e)?;
                let side = if canonical.contains('/') {
                    &mut qualified
                } else {
                    &mut bare
                };
                side.add(&canonical, glob.as_ref());
            }
            // The list form also names resource URIs and prompt names, as written.
            let rest = match kind {
                None => &[DepKind::Resources, DepKind::Prompts][..],
                Some(DepKind::Tools) => &[],
                Some(k) => std::slice::from_ref(k),
            };
            for k in rest {
                let name = match kind {
                    None => e.trim().to_owned(),
                    Some(_) => machine::normalise(*k, e),
                };
                let glob = deny_glob(&name, e)?;
                if let Some((_, m)) = others.iter_mut().find(|(o, _)| o == k) {
                    m.add(&name, glob.as_ref());
                }
            }
        }
        let others = others
            .into_iter()
            .map(|(k, m)| m.build().map(|m| (k, m)))
            .collect::<Result<Vec<_>, _>>()?;
        let (qualified, bare) = (qualified.build()?, bare.build()?);
        let empty =
            qualified.is_empty() && bare.is_empty() && others.iter().all(|(_, m)| m.is_empty());
        Ok(Deny {
            qualified,
            bare,
            others,
            empty,
        })
    }

    pub(crate) fn is_empty(&self) -> bool {
        self.empty
    }

    /// Is `name` of `kind` (a tool, resource URI, prompt name or machine name) denied?
    pub(crate) fn denies(&self, kind: DepKind, name: &str) -> bool {
        if self.empty {
            return false;
        }
        if kind != DepKind::Tools {
            return self
                .others
                .iter()
                .find(|(k, _)| *k == kind)
                .is_some_and(|(_, m)| m.is_match(name.trim()));
        }
        let canonical = names::canonical(names::tool_of(name));
        let tool = canonical.rsplit('/').next().unwrap_or(&canonical);
        self.qualified.is_match(&canonical) || self.bare.is_match(tool)
    }
}

/// Composes profile files, remembering which are open so that a cycle is an error, and
/// which `extends` reached, so that a file several profiles are built on (staging and prod
/// both extending base.json) is read once. A profile loaded in its own right is not kept: a
/// copy of its names would cost more than reading it again in the rare run where another
/// profile also extends it.
#[derive(Default)]
pub(crate) struct Composer {
    open: Vec<PathBuf>,
    done: std::collections::HashMap<PathBuf, Parts>,
}

/// How a file is read: a user's profile, or a built-in host's own definition (whose `host`
/// is itself, not a profile to add).
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum Role {
    Profile,
    Definition,
}

impl Composer {
    /// Load and compose the profile file at `path`.
    pub(crate) fn load(&mut self, path: &Path, display: &str) -> Result<Profile, ProfileError> {
        let text = crate::boundary::read_text(path).map_err(|e| {
            // `-p vscode` for the built-in: said so where no such file is there.
            let bare = path.to_str().filter(|p| !p.contains(['/', '\\', '.']));
            let hint = match bare {
                Some(name) if super::builtin::host_names().any(|h| h == name) => {
                    format!("; did you mean `builtin:{name}`?")
                }
                _ => String::new(),
            };
            ProfileError {
                path: display.to_owned(),
                line: 0,
                column: 0,
                message: format!("cannot read profile: {e}{hint}"),
            }
        })?;
        self.text(&text, path, display, Role::Profile)
    }

    /// Compose profile JSON `text`, read from `path`.
    pub(super) fn text(
        &mut self,
        text: &str,
        path: &Path,
        display: &str,
        role: Role,
    ) -> Result<Profile, ProfileError> {
        let file = file::read(text, display)?;
        let name = file
            .name
            .clone()
            .filter(|n| !n.trim().is_empty())
            .unwrap_or_else(|| {
                path.file_stem()
                    .map(|s| s.to_string_lossy().into_owned())
                    .unwrap_or_default()
            });
        self.open.push(identity(path));
        let parts = self.parts(file, text, path, display, role);
        self.open.pop();
        let err = |message| ProfileError {
            path: display.to_owned(),
            line: 1,
            column: 1,
            message,
        };
        parts?.into_profile(name, display, err)
    }

    /// Load the file an entry of `from_display` names, as parts.
    fn file_parts(
        &mut self,
        path: &Path,
        entry_err: &dyn Fn(String) -> ProfileError,
    ) -> Result<Parts, ProfileError> {
        let key = identity(path);
        if let Some(at) = self.open.iter().position(|p| *p == key) {
            let chain: Vec<String> = self.open[at..]
                .iter()
                .chain(std::iter::once(&key))
                .map(|p| p.display().to_string())
                .collect();
            return Err(entry_err(format!(
                "profiles extend each other in a cycle: {}",
                chain
                    .iter()
                    .map(|c| file_name(c))
                    .collect::<Vec<_>>()
                    .join(" → ")
            )));
        }
        if let Some(parts) = self.done.get(&key) {
            return Ok(parts.clone());
        }
        let display = path.display().to_string();
        let text = crate::boundary::read_text(path)
            .map_err(|e| entry_err(format!("cannot read {}: {e}", quote(&display))))?;
        let file = file::read(&text, &display).map_err(|e| entry_err(e.to_string()))?;
        self.open.push(key.clone());
        let parts = self.parts(file, &text, path, &display, Role::Profile);
        self.open.pop();
        if let Ok(parts) = &parts {
            self.done.insert(key, parts.clone());
        }
        // An error inside the named file already names that file and place; the entry that
        // led there is added in front.
        parts.map_err(|e| entry_err(e.to_string()))
    }

    fn parts(
        &mut self,
        mut file: ProfileFile,
        text: &str,
        path: &Path,
        display: &str,
        role: Role,
    ) -> Result<Parts, ProfileError> {
        use std::mem::take;
        let dir = path.parent().unwrap_or(Path::new(""));
        let at = |needle: &str, message: String| {
            let (line, column) = locate(text, needle);
            ProfileError {
                path: display.to_owned(),
                line,
                column,
                message,
            }
        };
        let mut parts = Parts::default();
        // A copy of a built-in profile says again that its servers are not all there are.
        let servers_beyond = file.not_judged.contains(&super::Undescribed::Servers);
        for entry in take(&mut file.extends) {
            let entry_err =
                |m: String| at(&entry, format!("`extends` entry {}: {m}", quote(&entry)));
            let sub = match entry.strip_prefix("builtin:") {
                Some(host) => builtin_parts(host).map_err(entry_err)?,
                None => self.file_parts(&dir.join(&entry), &entry_err)?,
            };
            parts.absorb(sub);
        }
        // The tool sets a user's file declares are the machine's too (a built-in host's
        // are the host's vocabulary, another namespace). A copy of a built-in profile
        // (`skill-audit profiles NAME`) repeats its host's sets: those stay the host's.
        if role == Role::Profile
            && let Some(sets) = &file.toolsets
        {
            let host_sets = file
                .host
                .as_deref()
                .and_then(|h| builtin_parts(h).ok())
                .and_then(|p| p.vocabulary)
                .map(|v| v.toolsets)
                .unwrap_or_default();
            let own: Vec<String> = sets
                .iter()
                .filter(|(name, members)| host_sets.get(*name) != Some(*members))
                .map(|(name, _)| name.clone())
                .collect();
            if !own.is_empty() || sets.is_empty() {
                parts.machine.toolsets = Some(own);
            }
        }
        let defines = file.toolsets.as_ref().is_some_and(|t| !t.is_empty())
            || !file.renamed.is_empty()
            || !file.drops.is_empty()
            || !file.aliases.is_empty()
            || file.qualified_server_tools
            || !file.loads.is_empty()
            || file.skills.is_some()
            || file.terminal.is_some()
            || !file.not_judged.is_empty();
        if let Some(host) = file.host.clone() {
            let known = builtin::host_names().any(|n| n == host);
            if role == Role::Profile && known {
                let sub = builtin_parts(&host).map_err(|m| at(&host, m))?;
                parts.absorb(sub);
            } else if role == Role::Profile && !defines {
                return Err(at(
                    &host,
                    format!(
                        "`host` {} is not a built-in host; known: {}",
                        quote(&host),
                        builtin::host_names().collect::<Vec<_>>().join(", ")
                    ),
                ));
            }
            if defines || role == Role::Definition {
                parts.absorb(Parts {
                    vocabulary: Some(Vocabulary {
                        host,
                        toolsets: take(&mut file.toolsets).unwrap_or_default(),
                        renamed: take(&mut file.renamed),
                        drops: take(&mut file.drops),
                        aliases: take(&mut file.aliases)
                            .into_iter()
                            .map(|(k, v)| (k.to_lowercase(), v))
                            .collect(),
                        loads: take(&mut file.loads),
                        maps: take(&mut file.maps),
                        models: take(&mut file.models),
                        hook_events: take(&mut file.hook_events),
                        defined: Default::default(),
                        has_servers: false,
                        qualified_server_tools: file.qualified_server_tools,
                        title: take(&mut file.title),
                        skills: take(&mut file.skills),
                        not_judged: take(&mut file.not_judged),
                        terminal: take(&mut file.terminal).map(|t| t.tool),
                    }),
                    ..Parts::default()
                });
            }
        }
        if let Some((entry, m)) = bad_pattern(&file.tools.0, &file.resources.0, &file.prompts.0) {
            return Err(at(entry, m));
        }
        parts.tools.extend(take(&mut file.tools).0);
        parts.resources.extend(take(&mut file.resources).0);
        parts.prompts.extend(take(&mut file.prompts).0);
        parts.servers |= !file.servers.is_empty();
        parts.servers_described |=
            role == Role::Profile && !file.servers.is_empty() && !servers_beyond;
        for (server, mut entry) in take(&mut file.servers) {
            if let Some(from) = entry.from.take() {
                let entry_err = |m: String| {
                    at(
                        &from,
                        format!(
                            "{} {}: {m}",
                            quote(&format!("servers.{server}.from")),
                            quote(&from)
                        ),
                    )
                };
                let sub = self.file_parts(&dir.join(&from), &entry_err)?;
                parts.absorb(imported(&server, sub));
            }
            if let Some((bad, m)) =
                bad_pattern(&entry.tools.0, &entry.resources.0, &entry.prompts.0)
            {
                return Err(at(bad, m));
            }
            // The entries' strings move into the lists; only `server/tool` names are built.
            parts
                .tools
                .extend(entry.tools.0.iter().map(|t| [&server, "/", t].concat()));
            parts.resources.extend(entry.resources.0);
            parts.prompts.extend(entry.prompts.0);
        }
        machine_keys(&mut parts, &mut file, text, display)?;
        Ok(parts)
    }
}

/// The first entry of a file's (or a server's) tools, resources and prompts that is a pattern
/// the name sets cannot compile, and why: checked where the file is read, so the error can
/// point at the entry.
fn bad_pattern<'a>(
    tools: &'a [String],
    resources: &'a [String],
    prompts: &'a [String],
) -> Option<(&'a str, String)> {
    let lists = [(tools, true), (resources, false), (prompts, false)];
    lists.into_iter().find_map(|(entries, tools)| {
        entries
            .iter()
            .filter(|e| names::is_pattern(e) || e.contains('*'))
            .find_map(|e| {
                NameSet::new([e.as_str()], tools)
                    .err()
                    .map(|m| (e.as_str(), m))
            })
    })
}

/// The file's own `os`, `bins`, `env`, `config` and `packages`, and its `deny`, checked
/// (errors point at the entry) and normalised into `parts`.
fn machine_keys(
    parts: &mut Parts,
    file: &mut ProfileFile,
    text: &str,
    display: &str,
) -> Result<(), ProfileError> {
    use std::mem::take;
    let at = |path: &[&str], needle: &str, message: String| {
        let (line, column) = locate_in(text, path, needle);
        ProfileError {
            path: display.to_owned(),
            line,
            column,
            message,
        }
    };
    let own = [
        (DepKind::Os, take(&mut file.os).map(|n| n.0)),
        (DepKind::Bins, take(&mut file.bins)),
        (DepKind::Env, take(&mut file.env)),
        (DepKind::Config, take(&mut file.config)),
    ];
    for (kind, names) in own {
        let Some(names) = names else { continue };
        let key = kind.key();
        for n in &names {
            if let Some(m) = machine::problem(kind, key, n, false) {
                return Err(at(&[key], n, m));
            }
        }
        let names = names.iter().map(|n| machine::normalise(kind, n)).collect();
        if let Some(slot) = parts.machine.names_mut(kind) {
            match slot {
                Some(have) => have.extend(names),
                None => *slot = Some(names),
            }
        }
    }
    if let Some(pkgs) = take(&mut file.packages) {
        let pkgs = pkgs
            .into_iter()
            .map(|(name, version)| (machine::normalise(DepKind::Packages, &name), version));
        parts
            .machine
            .packages
            .get_or_insert_with(Vec::new)
            .extend(pkgs);
    }
    match take(&mut file.deny) {
        file::Deny::List(entries) => parts.deny.extend(entries.into_iter().map(|e| (None, e))),
        file::Deny::Kinds(k) => {
            let by_kind = [
                (DepKind::Tools, k.tools),
                (DepKind::Resources, k.resources),
                (DepKind::Prompts, k.prompts),
                (DepKind::Bins, k.bins),
                (DepKind::Env, k.env),
                (DepKind::Os, k.os),
                (DepKind::Config, k.config),
                (DepKind::Packages, k.packages),
                (DepKind::Toolsets, k.toolsets),
            ];
            for (kind, entries) in by_kind {
                let key = format!("deny.{}", kind.key());
                for e in &entries {
                    let glob = names::is_pattern(e);
                    if let Some(m) = kind
                        .is_machine()
                        .then(|| machine::problem(kind, &key, e, glob))
                        .flatten()
                    {
                        return Err(at(&["deny", kind.key()], e, m));
                    }
                }
                parts
                    .deny
                    .extend(entries.into_iter().map(|e| (Some(kind), e)));
            }
        }
    }
    Ok(())
}

/// A profile imported as server `server`'s offering: its bare tool names become
/// `server/tool`; names it already gives a server keep theirs; its host, if any, is not
/// imported (a server brings tools, not a host).
fn imported(server: &str, mut sub: Parts) -> Parts {
    for t in &mut sub.tools {
        let canonical = names::canonical(t);
        if !canonical.contains('/') {
            *t = [server, "/", canonical.as_ref()].concat();
        } else if let std::borrow::Cow::Owned(c) = canonical {
            *t = c;
        }
    }
    sub.vocabulary = None;
    // Nor a machine: only its tools, resources and prompts are the server's.
    sub.machine = MachineParts::default();
    sub.servers = true;
    sub
}

/// A built-in host's profile, as parts to compose with: each built-in is read once, and
/// every profile naming it gets a copy.
fn builtin_parts(host: &str) -> Result<Parts, String> {
    static CELL: std::sync::OnceLock<Vec<(&'static str, Result<Parts, String>)>> =
        std::sync::OnceLock::new();
    let all = CELL.get_or_init(|| {
        builtin::BUILTINS
            .iter()
            .map(|(name, json)| {
                let display = format!("builtin:{name}");
                let parts = file::read(json, &display)
                    .and_then(|file| {
                        Composer::default().parts(
                            file,
                            json,
                            Path::new(name),
                            &display,
                            Role::Definition,
                        )
                    })
                    .map_err(|e| e.to_string());
                (*name, parts)
            })
            .collect()
    });
    match all.iter().find(|(n, _)| *n == host) {
        Some((_, parts)) => parts.clone(),
        None => Err(format!(
            "no such built-in profile; known: {}",
            builtin::names().join(", ")
        )),
    }
}

/// The key a file is known by in cycle checks: its canonical path where it has one.
fn identity(path: &Path) -> PathBuf {
    std::fs::canonicalize(path).unwrap_or_else(|_| path.to_owned())
}

fn file_name(path: &str) -> String {
    Path::new(path)
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| path.to_owned())
}

/// Line and column (1-based) of the first JSON string literal `needle` in `text`, so an
/// error about an entry points at it; the file's start when it is not found.
fn locate(text: &str, needle: &str) -> (usize, usize) {
    locate_in(text, &[], needle)
}

/// As [`locate`], for the first `needle` after the keys of `path` (`["deny", "env"]`), each
/// found after the one before: the same name may be written under another key first. Falls
/// back to the first `needle` anywhere.
fn locate_in(text: &str, path: &[&str], needle: &str) -> (usize, usize) {
    let quoted = serde_json::to_string(needle).unwrap_or_default();
    let mut from = 0;
    for key in path {
        let key = serde_json::to_string(key).unwrap_or_default();
        let after_key = text[from..].match_indices(&key).find_map(|(i, _)| {
            let end = from + i + key.len();
            text[end..].trim_start().starts_with(':').then_some(end)
        });
        match after_key {
            Some(end) => from = end,
            None => {
                from = 0;
                break;
            }
        }
    }
    let found = text[from..]
        .find(&quoted)
        .map(|i| from + i)
        .or_else(|| text.find(&quoted));
    let Some(at) = found else {
        return (1, 1);
    };
    let before = &text[..at];
    let line = before.matches('\n').count() + 1;
    let column = before.rfind('\n').map_or(at, |nl| at - nl - 1) + 1;
    (line, column)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A deny of the list form.
    fn listed(entries: &[&str]) -> Result<Deny, String> {
        let entries: Vec<_> = entries.iter().map(|e| (None, (*e).to_owned())).collect();
        Deny::new(&entries)
    }

    #[test]
    fn deny_entries_with_and_without_a_server() {
        let d = listed(&[
            "payments/dispute_chargeback",
            "github/*",
            "dispute_*",
            "docs://secret/*",
        ])
        .unwrap();
        let t = DepKind::Tools;
        assert!(d.denies(t, "payments/dispute_chargeback"));
        assert!(d.denies(t, "mcp__payments__dispute_chargeback"));
        assert!(d.denies(t, "github/get_issue"));
        assert!(d.denies(t, "kusto/dispute_open"), "bare glob, any server");
        assert!(d.denies(t, "dispute_open"));
        assert!(!d.denies(t, "payments/get_order"));
        assert!(!d.denies(t, "githubRepo"));
        assert!(d.denies(DepKind::Resources, "docs://secret/a.md"));
        assert!(!d.denies(DepKind::Resources, "docs://public/a.md"));
        assert!(listed(&["a["]).is_err());
        // A glob that is more than a prefix goes through the glob set.
        let d = listed(&["s/[ab]?", "q*z"]).unwrap();
        assert!(d.denies(t, "s/a1") && d.denies(t, "x/quiz") && !d.denies(t, "s/c1"));
        assert!(!d.denies(t, "quiet"));
    }

    #[test]
    fn imported_servers_qualify_bare_names() {
        let sub = Parts {
            tools: vec![
                "run_query".into(),
                "kusto/list".into(),
                "mcp__kusto__x".into(),
            ],
            ..Parts::default()
        };
        let got = imported("kusto", sub);
        assert_eq!(got.tools, ["kusto/run_query", "kusto/list", "kusto/x"]);
        assert!(got.servers);
    }

    /// Compose the files `(name, json)` written to a temporary folder, from the last one.
    fn composed(files: &[(&str, &str)]) -> Result<Profile, ProfileError> {
        let dir = tempfile::tempdir().unwrap();
        for (name, json) in files {
            std::fs::write(dir.path().join(name), json).unwrap();
        }
        let (last, _) = files.last().unwrap();
        Composer::default().load(&dir.path().join(last), last)
    }

    #[test]
    fn only_files_reached_by_extends_are_kept() {
        let dir = tempfile::tempdir().unwrap();
        let file = |name: &str, json: &str| {
            let path = dir.path().join(name);
            std::fs::write(&path, json).unwrap();
            path
        };
        let base = file("base.json", r#"{"tools": ["a"]}"#);
        let prod = file("prod.json", r#"{"extends": ["base.json"], "tools": ["b"]}"#);
        let staging = file(
            "staging.json",
            r#"{"extends": ["prod.json"], "deny": ["a"]}"#,
        );
        let mut c = Composer::default();
        let p = c.load(&prod, "prod.json").unwrap();
        assert!(p.has(DepKind::Tools, "a") && p.has(DepKind::Tools, "b"));
        assert!(c.done.contains_key(&identity(&base)));
        assert!(
            !c.done.contains_key(&identity(&prod)),
            "loaded in its own right"
        );
        // A profile built on one loaded before reads it again and gets all of it.
        let s = c.load(&staging, "staging.json").unwrap();
        assert!(!s.has(DepKind::Tools, "a") && s.has(DepKind::Tools, "b"));
        assert!(c.done.contains_key(&identity(&prod)));
    }

    /// GitHub Copilot's built-in profile lists only its built-in servers; a profile of one's
    /// own that lists servers describes them, and a copy of the built-in does not.
    #[test]
    fn servers_a_user_lists_are_all_there_are() {
        use crate::profile::Undescribed;
        let builtin = builtin::load("github-copilot").unwrap();
        assert_eq!(
            builtin.may_provide("sfdx-mcp/*"),
            Some(Undescribed::Servers)
        );
        let own = composed(&[(
            "gh.json",
            r#"{"host": "github-copilot", "servers": {"kusto": {"tools": ["query"]}}}"#,
        )])
        .unwrap();
        assert_eq!(own.may_provide("sfdx-mcp/*"), None);
        let bare = composed(&[("gh.json", r#"{"host": "github-copilot"}"#)]).unwrap();
        assert_eq!(bare.may_provide("sfdx-mcp/*"), Some(Undescribed::Servers));
        let (_, json) = builtin::BUILTINS
            .iter()
            .find(|(n, _)| *n == "github-copilot")
            .expect("github-copilot");
        let copy = composed(&[("copy.json", json)]).unwrap();
        assert_eq!(copy.may_provide("sfdx-mcp/*"), Some(Undescribed::Servers));
    }

    /// A copy of a built-in profile judges what the built-in judges: the host's tool sets it
    /// repeats are not the machine's; a set of its own, or one it changes, is.
    #[test]
    fn a_copy_of_a_builtin_keeps_its_hosts_tool_sets_the_hosts() {
        let (_, json) = builtin::BUILTINS
            .iter()
            .find(|(n, _)| *n == "vscode")
            .expect("vscode");
        let copy = composed(&[("copy.json", json)]).unwrap();
        assert_eq!(copy.machine.toolsets, None);
        let mut changed: serde_json::Value = serde_json::from_str(json).unwrap();
        changed["toolsets"]["web"] = serde_json::json!(["fetch"]);
        changed["toolsets"]["mine"] = serde_json::json!(["a"]);
        let changed = composed(&[("changed.json", &changed.to_string())]).unwrap();
        let own = Some(["mine".to_owned(), "web".to_owned()].into());
        assert_eq!(changed.machine.toolsets, own);
    }

    #[test]
    fn machines_union_through_extends_and_deny_removes() {
        let p = composed(&[
            (
                "base.json",
                r#"{"os": "linux", "bins": ["git", "jq"], "env": ["HOME"],
                    "packages": {"Requests": "2.0", "numpy": "2.1.0"},
                    "deny": {"bins": ["jq"]}}"#,
            ),
            (
                "mine.json",
                r#"{"extends": ["base.json", "builtin:vscode"], "os": ["macos"],
                    "bins": ["rg"], "config": ["browser.enabled"],
                    "packages": {"requests": "2.32.3", "Zope.Interface": "7"},
                    "toolsets": {"web": ["fetch"]},
                    "deny": {"env": ["HO*"], "packages": ["numpy"], "tools": ["fetch"]}}"#,
            ),
        ])
        .unwrap();
        let m = &p.machine;
        let set = |names: &[&str]| Some(names.iter().map(|n| (*n).to_owned()).collect());
        assert_eq!(m.os, set(&["darwin", "linux"]));
        assert_eq!(m.bins, set(&["git", "rg"]), "denied in what it extends");
        assert_eq!(m.env, set(&[]), "described, and denied by a glob");
        assert_eq!(m.config, set(&["browser.enabled"]));
        assert_eq!(m.toolsets, set(&["web"]), "the file's own, not VS Code's");
        let pkgs: Vec<_> = m.packages.iter().flatten().collect();
        assert_eq!(
            format!("{pkgs:?}"),
            r#"[("requests", "2.32.3"), ("zope-interface", "7")]"#
        );
        assert!(p.has(DepKind::Bins, "git") && !p.has(DepKind::Bins, "jq"));
        assert!(
            !p.has(DepKind::Tools, "fetch"),
            "the object form denies tools"
        );
        // Nothing about the machine: not described; a built-in's tool sets are not the machine's.
        let p = composed(&[("plain.json", r#"{"host": "vscode", "tools": ["a"]}"#)]).unwrap();
        assert_eq!(p.machine, crate::profile::Machine::default());
    }

    #[test]
    fn deny_kinds_keep_to_their_kind() {
        let entries = [
            (Some(DepKind::Bins), "git".to_owned()),
            (Some(DepKind::Os), "windows".to_owned()),
            (Some(DepKind::Packages), "Foo_Bar".to_owned()),
            (Some(DepKind::Resources), "docs://a".to_owned()),
            (None, "summarize".to_owned()),
        ];
        let d = Deny::new(&entries).unwrap();
        assert!(d.denies(DepKind::Bins, "git") && !d.denies(DepKind::Tools, "git"));
        assert!(d.denies(DepKind::Os, "win32"), "aliases normalised");
        assert!(d.denies(DepKind::Packages, "foo-bar"), "PEP 503");
        assert!(d.denies(DepKind::Resources, "docs://a"));
        assert!(!d.denies(DepKind::Prompts, "docs://a"));
        // The list form names tools, resources and prompts, never the machine.
        assert!(d.denies(DepKind::Prompts, "summarize") && d.denies(DepKind::Tools, "summarize"));
        assert!(!d.denies(DepKind::Bins, "summarize"));
        assert!(Deny::new(&[]).unwrap().is_empty());
    }

    #[test]
    fn machine_errors_point_at_the_entry() {
        let at = |json: &str| {
            let e = composed(&[("p.json", json)]).unwrap_err();
            (e.line, e.column, e.message)
        };
        let (line, column, m) =
            at("{\n  \"name\": \"linux\",\n  \"os\": [\"linux\", \"freebsd\"]\n}");
        assert_eq!((line, column), (3, 19), "{m}");
        assert!(m.contains("`freebsd`") && m.contains("win32"), "{m}");
        let (line, column, m) = at("{\"env\": [\"HOME\",\n   \"TOKEN=hunter2\"]}");
        assert_eq!((line, column), (2, 4));
        assert!(m.contains("names only") && !m.contains("hunter2"), "{m}");
        // In `deny`, the entry under `deny.env`, not a same-named one before it.
        let (line, column, m) =
            at("{\"env\": [\"A\"],\n \"deny\": {\"env\": [\"A=1\"], \"os\": [\"beos\"]}}");
        assert_eq!((line, column), (2, 19), "{m}");
        assert!(m.contains("`deny.env`"), "{m}");
        let (_, _, m) = at(r#"{"deny": {"os": ["beos"]}}"#);
        assert!(m.contains("`deny.os` entry `beos`"), "{m}");
        let (_, _, m) = at(r#"{"deny": {"widgets": ["x"]}}"#);
        assert!(m.contains("unknown field `widgets`"), "{m}");
        let (_, _, m) = at(r#"{"os": 3}"#);
        assert!(m.contains("a name or a list of names"), "{m}");
        let (_, _, m) = at(r#"{"bins": [""]}"#);
        assert!(m.contains("empty"), "{m}");
        // An error in a file it extends names both places.
        let e = composed(&[
            ("base.json", "{\n\"os\": \"plan9\"}"),
            ("top.json", r#"{"extends": ["base.json"]}"#),
        ])
        .unwrap_err();
        assert_eq!((e.path.as_str(), e.line, e.column), ("top.json", 1, 14));
        assert!(
            e.message.contains(":2:7: `os` entry `plan9`"),
            "{}",
            e.message
        );
    }

    #[test]
    fn locate_finds_the_entry() {
        let text = "{\n  \"extends\": [\"a.json\",\n    \"b.json\"]\n}";
        assert_eq!(locate(text, "b.json"), (3, 5));
        assert_eq!(locate(text, "zzz"), (1, 1));
        let text = "{\"a\": [\"x\"], \"b\" : [\"x\"]}";
        assert_eq!(locate_in(text, &["b"], "x"), (1, 21));
        assert_eq!(
            locate_in(text, &["c"], "x"),
            (1, 8),
            "no such key: the first"
        );
    }
}
