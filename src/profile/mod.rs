//! Environment tool profiles: what tools, resources and prompts an environment offers, and
//! where a profile comes from. The model is here; the JSON file format is in `file`, the
//! built-in host profiles in `builtin`, tool-name matching across spellings in `names`.

pub(crate) mod builtin;
mod compose;
pub mod loading;

pub(crate) use compose::Composer;
mod file;
pub(crate) mod machine;
pub(crate) mod names;
pub(crate) mod products;

use std::collections::BTreeMap;
use std::path::PathBuf;

pub use file::{
    CapturedServer, Deny as DenyField, DenyKinds, Entry, Keys, Names, ProfileError, ProfileFile,
    ServerEntry, load, parse, schema,
};
pub use names::NameSet;

use crate::model::DepKind;

/// A loaded profile, ready for lookups.
#[derive(Debug, Clone)]
pub struct Profile {
    pub name: String,
    /// Display path of the file it came from (`builtin:NAME` for built-ins).
    pub path: String,
    pub tools: NameSet,
    pub resources: NameSet,
    pub prompts: NameSet,
    /// The host's tool vocabulary (tool sets, aliases, renamed names), when the profile
    /// runs on a host.
    pub vocabulary: Option<Vocabulary>,
    /// Names removed by `deny`, also where a pattern (`github/*`) would grant them.
    pub(crate) deny: compose::Deny,
    /// What the profile says about the machine (executables, variables, OS, packages).
    pub machine: Machine,
    /// Its `tools` are every tool of the environment, a built-in host's names too: one it
    /// does not list is missing, where a profile without a host leaves it to that host.
    pub(crate) lists_every_tool: bool,
}

/// What a profile says about the machine the skills run on. A kind that is `None` is not
/// described, so requirements of that kind are not judged. Names only: a profile never
/// carries a variable's value. `deny` has been applied.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Machine {
    /// Operating systems, as OpenClaw names them: `darwin`, `linux`, `win32`.
    pub os: Option<std::collections::BTreeSet<String>>,
    /// Executables on `PATH`.
    pub bins: Option<std::collections::BTreeSet<String>>,
    /// Environment variables that are set.
    pub env: Option<std::collections::BTreeSet<String>>,
    /// OpenClaw configuration keys that are truthy.
    pub config: Option<std::collections::BTreeSet<String>>,
    /// Installed Python distributions: normalised name (PEP 503) to version.
    pub packages: Option<BTreeMap<String, String>>,
    /// Tool sets of an environment described by its own file (Hermes' `toolsets`); a
    /// built-in host's tool sets are another namespace and are not listed here.
    pub toolsets: Option<std::collections::BTreeSet<String>>,
}

impl Machine {
    /// The names of a machine `kind` the profile describes (`None` when it does not, and
    /// for packages, whose versions matter: see [`Machine::packages`]).
    pub(crate) fn names(&self, kind: DepKind) -> Option<&std::collections::BTreeSet<String>> {
        match kind {
            DepKind::Os => self.os.as_ref(),
            DepKind::Bins => self.bins.as_ref(),
            DepKind::Env => self.env.as_ref(),
            DepKind::Config => self.config.as_ref(),
            DepKind::Toolsets => self.toolsets.as_ref(),
            DepKind::Tools | DepKind::Resources | DepKind::Prompts | DepKind::Packages => None,
        }
    }
}

/// What a host knows about tool names beyond a flat list.
#[derive(Debug, Clone, Default)]
pub struct Vocabulary {
    pub host: String,
    /// Tool set name -> member tools.
    pub toolsets: BTreeMap<String, Vec<String>>,
    /// Legacy name -> the names that replace it.
    pub renamed: BTreeMap<String, Vec<String>>,
    /// Names the host knows but drops from a tools list.
    pub drops: Vec<String>,
    /// Lower-case alias -> canonical tool name (matched case-insensitively).
    pub aliases: BTreeMap<String, String>,
    /// Agent formats the host loads (`custom`, `chatmode`, `claude`): an agent's `flavor`.
    pub loads: Vec<String>,
    /// Another host's agent tool names mapped to this host's tools, by that host's name.
    pub maps: BTreeMap<String, BTreeMap<String, Vec<String>>>,
    /// Model names the host accepts.
    pub models: Vec<String>,
    /// Hook event names the host runs from `hooks` in frontmatter (empty: it runs none from
    /// there), matched exactly.
    pub hook_events: Vec<String>,
    /// The names the host defines itself, for [`Profile::defines`].
    pub(crate) defined: Defined,
    /// Whether the profile lists MCP servers; if not, `server/tool` names are not judged.
    pub has_servers: bool,
    /// Whether the host takes a server's tool only as `server/tool` (see the profile file's
    /// `qualified-server-tools`).
    pub qualified_server_tools: bool,
    /// The host's name as people write it ("Codex").
    pub title: Option<String>,
    /// How the host loads a SKILL.md, where documented.
    pub skills: Option<loading::SkillLoading>,
    /// What the host profile does not describe.
    pub not_judged: Vec<Undescribed>,
    /// The host's tool that runs shell commands, where its other tools are not judged.
    pub terminal: Option<String>,
}

/// Something a host profile does not describe (`not-judged` in its JSON).
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, serde::Deserialize, schemars::JsonSchema,
)]
#[serde(rename_all = "kebab-case")]
pub enum Undescribed {
    /// The host's own tool names.
    Tools,
    /// Which agent files the host loads.
    Agents,
    /// MCP servers beyond those the profile lists: the host also starts servers it cannot
    /// see (GitHub Copilot's cloud agent, those of the repository's settings). A host
    /// profile that lists no servers describes none, and says so without this.
    Servers,
    /// The host's extensions, whose tools (and MCP servers' tools) it takes by their bare
    /// names (VS Code): such a name is not judged on a profile that lists no servers.
    Extensions,
}

impl Undescribed {
    /// What may provide a tool the profile does not have, for messages.
    pub(crate) fn provider(self) -> &'static str {
        match self {
            Undescribed::Tools => "one of the host's own tools",
            Undescribed::Agents => "an agent file",
            Undescribed::Servers => "an MCP server the profile does not list",
            Undescribed::Extensions => "an extension or an MCP server",
        }
    }
}

impl Vocabulary {
    /// Is `bare` a name the host retired or hides, and drops from a tools list?
    pub(crate) fn is_dropped(&self, bare: &str) -> bool {
        self.drops.iter().any(|d| d == bare)
    }

    /// Is the canonical `name` a `set/tool` of one of the host's tool sets?
    pub(crate) fn in_tool_set(&self, name: &str) -> bool {
        name.split_once('/')
            .is_some_and(|(set, _)| self.toolsets.contains_key(set))
    }
}

/// The names a host defines itself: its tools that are bare or in one of its tool sets
/// (`read/readFile`, and `readFile`), its tool sets, legacy names and aliases. Gathered once
/// per profile, since audits ask about the same names for every agent and skill.
#[derive(Debug, Clone, Default)]
pub(crate) struct Defined {
    names: foldhash::HashSet<String>,
    /// Aliases and the tools they stand for, lower-case: GitHub matches them so.
    folded: foldhash::HashSet<String>,
}

impl Defined {
    fn of(tools: &NameSet, v: &Vocabulary) -> Defined {
        let mut names = foldhash::HashSet::default();
        for t in tools.names().filter(|t| !names::is_pattern(t)) {
            match t.split_once('/') {
                None => {
                    names.insert(t.to_owned());
                }
                Some((_, tool)) if v.in_tool_set(t) => {
                    names.insert(t.to_owned());
                    names.insert(tool.to_owned());
                }
                // An MCP server's tool, built in or not, is not the host's own name.
                Some(_) => {}
            }
        }
        names.extend(v.toolsets.keys().cloned());
        names.extend(v.renamed.keys().cloned());
        // A name the host retired or hides is still its own, not a server's.
        names.extend(v.drops.iter().cloned());
        let folded = v
            .aliases
            .iter()
            .flat_map(|(alias, tool)| [alias.to_lowercase(), tool.to_lowercase()])
            .collect();
        Defined { names, folded }
    }

    /// The names any of `hosts` defines.
    pub(crate) fn union<'a>(hosts: impl Iterator<Item = &'a Profile>) -> Defined {
        let mut out = Defined::default();
        for v in hosts.filter_map(|h| h.vocabulary.as_ref()) {
            out.names.extend(v.defined.names.iter().cloned());
            out.folded.extend(v.defined.folded.iter().cloned());
        }
        out
    }

    pub(crate) fn contains(&self, name: &str) -> bool {
        let bare = names::tool_of(name);
        let canonical = names::canonical(bare);
        self.names.contains(canonical.as_ref()) || self.is_alias(bare)
    }

    /// Is `bare` an alias, or a tool an alias stands for, in any case?
    fn is_alias(&self, bare: &str) -> bool {
        if self.folded.is_empty() {
            return false;
        }
        if bare.bytes().any(|b| b.is_ascii_uppercase()) {
            self.folded.contains(&bare.to_lowercase())
        } else {
            self.folded.contains(bare)
        }
    }
}

/// How a profile sees one tool name.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Verdict {
    Known,
    /// A legacy name the host still maps, with its replacements.
    Renamed(Vec<String>),
    /// A name the host will silently drop (or, without a host, one the profile lacks).
    Unknown,
    /// A name the profile has but removes with `deny`.
    Denied,
}

impl Profile {
    /// The names of an MCP kind (tools, resources, prompts); `None` for machine kinds.
    pub(crate) fn names(&self, kind: DepKind) -> Option<&NameSet> {
        match kind {
            DepKind::Tools => Some(&self.tools),
            DepKind::Resources => Some(&self.resources),
            DepKind::Prompts => Some(&self.prompts),
            _ => None,
        }
    }

    /// Is `name` of `kind` available in this environment? For machine kinds, false also
    /// when the profile does not describe the kind (ask [`Machine::describes`] first).
    pub fn has(&self, kind: DepKind, name: &str) -> bool {
        match kind {
            DepKind::Tools => matches!(self.verdict(name), Verdict::Known | Verdict::Renamed(_)),
            DepKind::Resources | DepKind::Prompts => {
                !self.deny.denies(kind, name) && self.names(kind).is_some_and(|n| n.contains(name))
            }
            _ => self.machine.names(kind).is_some_and(|n| n.contains(name)),
        }
    }

    /// Does the profile describe the MCP side of the environment: a host, or tools,
    /// resources or prompts of its own or of its servers? A machine profile (`capture
    /// --machine`) describes the machine and none of them, so tool, resource and prompt needs
    /// are not judged on it, just as a machine kind a profile leaves out is not. A profile
    /// that describes nothing at all (`{"tools": []}`) is an environment with no tools.
    pub(crate) fn describes_mcp(&self) -> bool {
        self.vocabulary.is_some()
            || !self.tools.is_empty()
            || !self.resources.is_empty()
            || !self.prompts.is_empty()
            || self.machine == Machine::default()
    }

    /// Does the profile describe the resources and prompts that servers offer? A host profile
    /// that lists no resources or prompts, and no servers or not all a user may add
    /// (`builtin:vscode`, `builtin:github-copilot`), describes none, as it describes no such
    /// server's tools: what a skill reads from a server is not judged there. A profile with no
    /// host, or one that describes its servers, does (none there is none).
    pub(crate) fn describes_server_items(&self) -> bool {
        self.vocabulary
            .as_ref()
            .is_none_or(|v| v.has_servers && !v.not_judged.contains(&Undescribed::Servers))
            || !self.resources.is_empty()
            || !self.prompts.is_empty()
    }

    /// The host this profile runs on, if any.
    pub(crate) fn host(&self) -> Option<&str> {
        self.vocabulary.as_ref().map(|v| v.host.as_str())
    }

    /// The host's name as messages write it ("Codex"; else its id).
    pub(crate) fn host_title(&self) -> Option<&str> {
        let v = self.vocabulary.as_ref()?;
        Some(v.title.as_deref().unwrap_or(&v.host))
    }

    /// Does the profile describe `what`? Only a host profile can say it does not.
    pub(crate) fn describes(&self, what: Undescribed) -> bool {
        self.vocabulary
            .as_ref()
            .is_none_or(|v| !v.not_judged.contains(&what))
    }

    /// What the profile does not describe that may provide the tool `name`, which the
    /// profile does not have: an extension (or server) of a host that takes their tools by
    /// bare name, or a server the host starts beyond those listed. `None` for a name a
    /// built-in host defines: that is no server's or extension's.
    pub(crate) fn may_provide(&self, name: &str) -> Option<Undescribed> {
        let v = self.vocabulary.as_ref()?;
        let bare = names::tool_of(name);
        let canonical = names::canonical(bare);
        if v.in_tool_set(&canonical) || v.is_dropped(bare) || builtin::any_defines(bare) {
            return None;
        }
        let undescribed = |what| v.not_judged.contains(&what).then_some(what);
        match canonical.split_once('/') {
            // A profile that lists servers describes the environment the bare names
            // come from, as SA702 takes it to.
            None if v.has_servers => None,
            None => undescribed(Undescribed::Extensions),
            Some((first, _)) if names::looks_like_extension(first) => {
                undescribed(Undescribed::Extensions)
            }
            // A profile that lists no servers describes none.
            Some(_) if !v.has_servers => Some(Undescribed::Servers),
            Some(_) => undescribed(Undescribed::Servers),
        }
    }

    /// How this profile judges a tool name.
    pub(crate) fn verdict(&self, name: &str) -> Verdict {
        let bare = names::tool_of(name);
        if self.deny.denies(DepKind::Tools, bare) {
            return Verdict::Denied;
        }
        let Some(v) = &self.vocabulary else {
            return if self.tools.contains(bare) {
                Verdict::Known
            } else {
                Verdict::Unknown
            };
        };
        if let Some(own) = self.own_verdict(v, bare) {
            return own;
        }
        // MCP servers' and extensions' tools (`server/tool`, `publisher.ext/tool`) are unknown
        // too; whether the profile can judge them is `may_provide`'s question.
        Verdict::Unknown
    }

    /// The verdict of the profile's own lists and vocabulary on `bare`, if they name it.
    fn own_verdict(&self, v: &Vocabulary, bare: &str) -> Option<Verdict> {
        // Legacy names first: `codebase` would otherwise match `search/codebase` as a bare name.
        if let Some(new) = v.renamed.get(bare) {
            return Some(Verdict::Renamed(new.clone()));
        }
        let known =
            self.tools.contains(bare) || v.toolsets.contains_key(bare) || v.defined.is_alias(bare);
        known.then_some(Verdict::Known)
    }

    /// Does this host profile define `name` itself (a built-in tool, tool set, alias or legacy
    /// name)? Always false for a profile without a host. MCP tools (`server/tool`) are not
    /// the host's own, even where the host has the server built in: a profile without a host
    /// judges those.
    pub(crate) fn defines(&self, name: &str) -> bool {
        self.vocabulary
            .as_ref()
            .is_some_and(|v| v.defined.contains(name))
    }

    /// Build a profile from lists of names (tests, built-ins, captures).
    pub fn from_names(
        name: &str,
        path: &str,
        tools: &[&str],
        resources: &[&str],
        prompts: &[&str],
    ) -> Result<Profile, String> {
        Ok(Profile {
            name: name.to_owned(),
            path: path.to_owned(),
            tools: NameSet::new(tools.iter().copied(), true)?,
            resources: NameSet::new(resources.iter().copied(), false)?,
            prompts: NameSet::new(prompts.iter().copied(), false)?,
            vocabulary: None,
            deny: compose::Deny::default(),
            machine: Machine::default(),
            lists_every_tool: false,
        })
    }

    /// Build a profile from names that are all literal, as a live MCP server lists them: a
    /// tool named `*` is that one tool, not every tool.
    pub(crate) fn from_literal_names(
        name: &str,
        path: &str,
        tools: &[&str],
        resources: &[&str],
        prompts: &[&str],
    ) -> Profile {
        Profile {
            name: name.to_owned(),
            path: path.to_owned(),
            tools: NameSet::literal(tools.iter().copied(), true),
            resources: NameSet::literal(resources.iter().copied(), false),
            prompts: NameSet::literal(prompts.iter().copied(), false),
            vocabulary: None,
            deny: compose::Deny::default(),
            machine: Machine::default(),
            lists_every_tool: false,
        }
    }
}

/// Where a profile comes from on the command line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ProfileSource {
    File(PathBuf),
    /// `builtin:NAME`.
    Builtin(String),
    /// `mcp:NAME=COMMAND ARGS...` (or `mcp:NAME=URL`): a live MCP server's lists, read when the
    /// audit starts. `argv` is the text after `=` split on whitespace (no shell); it is empty
    /// when the argument lacks `=` or a command, which loading reports.
    Mcp {
        name: String,
        argv: Vec<String>,
    },
}

impl ProfileSource {
    /// `builtin:NAME`, `mcp:NAME=COMMAND ARGS...` or a file path.
    pub fn parse(arg: &str) -> ProfileSource {
        if let Some(spec) = arg.strip_prefix("mcp:") {
            return match spec.split_once('=') {
                Some((name, command)) => ProfileSource::Mcp {
                    name: name.trim().to_owned(),
                    argv: command.split_whitespace().map(str::to_owned).collect(),
                },
                None => ProfileSource::Mcp {
                    name: spec.trim().to_owned(),
                    argv: Vec::new(),
                },
            };
        }
        match arg.strip_prefix("builtin:") {
            Some(name) => ProfileSource::Builtin(name.to_owned()),
            None => ProfileSource::File(PathBuf::from(arg)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mcp_sources_split_on_whitespace() {
        assert_eq!(
            ProfileSource::parse("mcp:alice=env  MCP_TEST_USER=alice server --stdio"),
            ProfileSource::Mcp {
                name: "alice".into(),
                argv: ["env", "MCP_TEST_USER=alice", "server", "--stdio"]
                    .map(String::from)
                    .to_vec(),
            }
        );
        assert_eq!(
            ProfileSource::parse("mcp:nothing"),
            ProfileSource::Mcp {
                name: "nothing".into(),
                argv: Vec::new()
            }
        );
    }
}
