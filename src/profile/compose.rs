//! Composition: a profile file's `host`, `extends`, `servers.NAME.from` and `deny` turn it,
//! and the files it names, into one environment.
//!
//! Order, for one file: the profiles it `extends` (in order), then its `host`'s built-in
//! profile, then its own lists and servers (each server's `from` file first, then its inline
//! lists); the union of all of them, minus what any `deny` of the file or of a profile it
//! extends matches. Files are named relative to the file that names them.

use globset::{Glob, GlobBuilder, GlobSet, GlobSetBuilder};
use std::path::{Path, PathBuf};

use super::file::{self, ProfileError, ProfileFile};
use super::{NameSet, Profile, Vocabulary, builtin, names};
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
    deny: Vec<String>,
}

impl Parts {
    /// Add everything `other` lists; the first host stays this profile's host, the other
    /// hosts' vocabularies join it.
    fn absorb(&mut self, other: Parts) {
        self.tools.extend(other.tools);
        self.resources.extend(other.resources);
        self.prompts.extend(other.prompts);
        self.servers |= other.servers;
        self.deny.extend(other.deny);
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
            v.defined = super::Defined::of(&tools, v);
        }
        Ok(Profile {
            name,
            path: display.to_owned(),
            tools,
            resources: NameSet::new(self.resources, false).map_err(&err)?,
            prompts: NameSet::new(self.prompts, false).map_err(&err)?,
            vocabulary: self.vocabulary,
            deny,
        })
    }
}

impl Vocabulary {
    fn absorb(&mut self, other: Vocabulary) {
        self.toolsets.extend(other.toolsets);
        self.renamed.extend(other.renamed);
        self.aliases.extend(other.aliases);
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
    }
}

/// Names and globs removed from a composed profile. An entry with a `/` (`github/*`,
/// `payments/refund`) is matched against the canonical `server/tool` name; one without
/// (`dispute_*`) against the tool's own name on any server. Resource URIs and prompt names
/// are matched as written.
#[derive(Debug, Clone, Default)]
pub(crate) struct Deny {
    /// Every entry: for resource URIs and prompt names.
    all: Matcher,
    /// Entries with a `/`: for a tool's `server/tool` name.
    qualified: Matcher,
    /// Entries without: for a tool's own name.
    bare: Matcher,
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

impl Deny {
    fn new(entries: &[String]) -> Result<Deny, String> {
        let (mut all, mut qualified, mut bare) = (
            MatcherBuilder::default(),
            MatcherBuilder::default(),
            MatcherBuilder::default(),
        );
        for e in entries {
            let canonical = names::canonical(e.trim()).into_owned();
            let glob = if names::is_pattern(&canonical) {
                let glob = GlobBuilder::new(&canonical)
                    .literal_separator(false)
                    .backslash_escape(true)
                    .build()
                    .map_err(|g| format!("`deny` entry `{e}` is not a valid glob: {g}"))?;
                Some(glob)
            } else {
                None
            };
            all.add(&canonical, glob.as_ref());
            let side: &mut MatcherBuilder = if canonical.contains('/') {
                &mut qualified
            } else {
                &mut bare
            };
            side.add(&canonical, glob.as_ref());
        }
        Ok(Deny {
            all: all.build()?,
            qualified: qualified.build()?,
            bare: bare.build()?,
        })
    }

    pub(crate) fn is_empty(&self) -> bool {
        self.all.is_empty()
    }

    /// Is `name` (a tool, resource URI or prompt name) denied?
    pub(crate) fn denies(&self, kind: DepKind, name: &str) -> bool {
        if self.all.is_empty() {
            return false;
        }
        if kind != DepKind::Tools {
            return self.all.is_match(name.trim());
        }
        let canonical = names::canonical(names::tool_of(name));
        let tool = canonical.rsplit('/').next().unwrap_or(&canonical);
        self.qualified.is_match(&canonical) || self.bare.is_match(tool)
    }
}

/// Composes profile files, remembering which are open so that a cycle is an error, and
/// which are done, so that a file several profiles name (staging and prod both built on
/// prod.json) is read once.
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
        let text = crate::source::read_text(path).map_err(|e| ProfileError {
            path: display.to_owned(),
            line: 0,
            column: 0,
            message: format!("cannot read profile: {e}"),
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
        let key = identity(path);
        self.open.push(key.clone());
        let parts = self.parts(file, text, path, display, role);
        self.open.pop();
        if role == Role::Profile
            && let Ok(parts) = &parts
        {
            self.done.insert(key, parts.clone());
        }
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
        let text = crate::source::read_text(path)
            .map_err(|e| entry_err(format!("cannot read `{display}`: {e}")))?;
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
        for entry in take(&mut file.extends) {
            let entry_err = |m: String| at(&entry, format!("`extends` entry `{entry}`: {m}"));
            let sub = match entry.strip_prefix("builtin:") {
                Some(host) => builtin_parts(host).map_err(entry_err)?,
                None => self.file_parts(&dir.join(&entry), &entry_err)?,
            };
            parts.absorb(sub);
        }
        let defines = !file.toolsets.is_empty()
            || !file.renamed.is_empty()
            || !file.aliases.is_empty()
            || !file.loads.is_empty();
        if let Some(host) = file.host.clone() {
            let known = builtin::BUILTINS.iter().any(|(n, _)| *n == host);
            if role == Role::Profile && known {
                let sub = builtin_parts(&host).map_err(|m| at(&host, m))?;
                parts.absorb(sub);
            } else if role == Role::Profile && !defines {
                return Err(at(
                    &host,
                    format!(
                        "`host` `{host}` is not a built-in host; known: {}",
                        builtin_names()
                    ),
                ));
            }
            if defines || role == Role::Definition {
                parts.absorb(Parts {
                    vocabulary: Some(Vocabulary {
                        host,
                        toolsets: take(&mut file.toolsets),
                        renamed: take(&mut file.renamed),
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
                    }),
                    ..Parts::default()
                });
            }
        }
        parts.tools.extend(take(&mut file.tools).0);
        parts.resources.extend(take(&mut file.resources).0);
        parts.prompts.extend(take(&mut file.prompts).0);
        parts.servers |= !file.servers.is_empty();
        for (server, mut entry) in take(&mut file.servers) {
            if let Some(from) = entry.from.take() {
                let entry_err =
                    |m: String| at(&from, format!("`servers.{server}.from` `{from}`: {m}"));
                let sub = self.file_parts(&dir.join(&from), &entry_err)?;
                parts.absorb(imported(&server, sub));
            }
            // The entries' strings move into the lists; only `server/tool` names are built.
            parts
                .tools
                .extend(entry.tools.0.iter().map(|t| [&server, "/", t].concat()));
            parts.resources.extend(entry.resources.0);
            parts.prompts.extend(entry.prompts.0);
        }
        parts.deny.extend(take(&mut file.deny));
        Ok(parts)
    }
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
            builtin_names()
        )),
    }
}

fn builtin_names() -> String {
    builtin::BUILTINS
        .iter()
        .map(|(n, _)| format!("builtin:{n}"))
        .collect::<Vec<_>>()
        .join(", ")
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
    let quoted = serde_json::to_string(needle).unwrap_or_default();
    let Some(at) = text.find(&quoted) else {
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

    #[test]
    fn deny_entries_with_and_without_a_server() {
        let d = Deny::new(&[
            "payments/dispute_chargeback".into(),
            "github/*".into(),
            "dispute_*".into(),
            "docs://secret/*".into(),
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
        assert!(Deny::new(&["a[".into()]).is_err());
        // A glob that is more than a prefix goes through the glob set.
        let d = Deny::new(&["s/[ab]?".into(), "q*z".into()]).unwrap();
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

    #[test]
    fn locate_finds_the_entry() {
        let text = "{\n  \"extends\": [\"a.json\",\n    \"b.json\"]\n}";
        assert_eq!(locate(text, "b.json"), (3, 5));
        assert_eq!(locate(text, "zzz"), (1, 1));
    }
}
