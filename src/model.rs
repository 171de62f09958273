//! What the parse stage produces and every later stage reads.

use serde::{Deserialize, Serialize};
use std::collections::HashMap;
use std::collections::hash_map::Entry;
use std::path::PathBuf;

use crate::diagnostic::Pos;
use crate::vecmap::VecMap;

/// The kinds of things a skill can depend on.
#[derive(
    Clone,
    Copy,
    Debug,
    PartialEq,
    Eq,
    PartialOrd,
    Ord,
    Hash,
    Serialize,
    Deserialize,
    schemars::JsonSchema,
)]
#[serde(rename_all = "lowercase")]
pub enum DepKind {
    Tools,
    Resources,
    Prompts,
}

impl DepKind {
    pub(crate) const ALL: [DepKind; 3] = [DepKind::Tools, DepKind::Resources, DepKind::Prompts];
    pub(crate) fn key(self) -> &'static str {
        match self {
            DepKind::Tools => "tools",
            DepKind::Resources => "resources",
            DepKind::Prompts => "prompts",
        }
    }
    /// Singular noun for messages.
    pub(crate) fn noun(self) -> &'static str {
        match self {
            DepKind::Tools => "tool",
            DepKind::Resources => "resource",
            DepKind::Prompts => "prompt",
        }
    }
}

/// One `all` / `any` group of names.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(default)]
pub struct Group {
    /// Every entry must be available.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub all: Vec<String>,
    /// At least one entry must be available (absent when not declared).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub any: Option<Vec<String>>,
}

impl Group {
    pub(crate) fn is_empty(&self) -> bool {
        self.all.is_empty() && self.any.as_ref().is_none_or(Vec::is_empty)
    }
}

/// What a skill needs, by kind. Only non-empty kinds are serialised.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(default)]
pub struct Requirements {
    #[serde(skip_serializing_if = "Group::is_empty")]
    pub tools: Group,
    #[serde(skip_serializing_if = "Group::is_empty")]
    pub resources: Group,
    #[serde(skip_serializing_if = "Group::is_empty")]
    pub prompts: Group,
}

impl Requirements {
    pub(crate) fn group(&self, kind: DepKind) -> &Group {
        match kind {
            DepKind::Tools => &self.tools,
            DepKind::Resources => &self.resources,
            DepKind::Prompts => &self.prompts,
        }
    }
    pub(crate) fn group_mut(&mut self, kind: DepKind) -> &mut Group {
        match kind {
            DepKind::Tools => &mut self.tools,
            DepKind::Resources => &mut self.resources,
            DepKind::Prompts => &mut self.prompts,
        }
    }
    pub(crate) fn is_empty(&self) -> bool {
        DepKind::ALL.iter().all(|k| self.group(*k).is_empty())
    }
}

/// Where a skill's requirements were declared.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum DeclaredBy {
    /// The `dependencies` field.
    Dependencies,
    /// The agent-style `tools` (and `mcp-servers`) fields, used when there is no `dependencies`.
    ToolsField,
    /// Nothing to check.
    Nothing,
}

/// Who may invoke a skill or an agent, as skills and agents both declare it.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(default)]
pub struct Invocation {
    #[serde(rename = "user-invocable", skip_serializing_if = "Option::is_none")]
    pub user_invocable: Option<bool>,
    #[serde(
        rename = "disable-model-invocation",
        skip_serializing_if = "Option::is_none"
    )]
    pub disable_model_invocation: Option<bool>,
}

/// Every frontmatter field of a SKILL.md that skill-audit understands: the Agent Skills spec,
/// the host-specific fields, and the capability fields proposed for skills.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(default)]
pub struct SkillFields {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub license: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub compatibility: Option<String>,
    #[serde(skip_serializing_if = "VecMap::is_empty")]
    pub metadata: VecMap<String, String>,
    #[serde(rename = "allowed-tools", skip_serializing_if = "Vec::is_empty")]
    pub allowed_tools: Vec<String>,
    #[serde(rename = "argument-hint", skip_serializing_if = "Option::is_none")]
    pub argument_hint: Option<String>,
    /// Who may invoke it: `user-invocable`, `disable-model-invocation`.
    #[serde(flatten)]
    pub invocation: Invocation,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub context: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub agent: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub effort: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub when_to_use: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub arguments: Option<String>,
    #[serde(rename = "disallowed-tools", skip_serializing_if = "Vec::is_empty")]
    pub disallowed_tools: Vec<String>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub paths: Vec<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub shell: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub background: Option<bool>,
    /// Names of the hook events declared (hooks are not evaluated, only modelled).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub hooks: Vec<String>,
    /// Keys no host knows, in document order.
    #[serde(rename = "unknown-keys", skip_serializing_if = "Vec::is_empty")]
    pub unknown_keys: Vec<String>,
}

/// A parsed skill. Bodies are not kept: what rules need from them is extracted while parsing.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Skill {
    /// Frontmatter `name`, else the folder name.
    pub name: String,
    /// Display path of the SKILL.md.
    pub path: String,
    #[serde(skip)]
    pub fs_path: PathBuf,
    #[serde(skip)]
    pub name_pos: Pos,
    /// True when the frontmatter could not be read: nothing else is known.
    #[serde(skip)]
    pub invalid: bool,
    /// True when `dependencies` (or the capability fields) had structural errors, so the
    /// skill cannot be evaluated.
    #[serde(skip)]
    pub requirements_invalid: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    #[serde(skip_serializing_if = "Requirements::is_empty")]
    pub dependencies: Requirements,
    pub declared_by: DeclaredBy,
    /// The agent-style `tools` field, as written.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tools: Option<Vec<String>>,
    #[serde(rename = "mcp-servers", skip_serializing_if = "Vec::is_empty")]
    pub mcp_servers: Vec<String>,
    /// Advisory model hints, in priority order.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub model: Vec<String>,
    pub fields: Box<SkillFields>,
}

impl Skill {
    /// A skill whose frontmatter could not be read.
    pub(crate) fn invalid(name: String, path: String, fs_path: PathBuf) -> Self {
        Skill {
            name,
            path,
            fs_path,
            name_pos: Pos::START,
            invalid: true,
            requirements_invalid: false,
            description: None,
            dependencies: Requirements::default(),
            declared_by: DeclaredBy::Nothing,
            tools: None,
            mcp_servers: Vec::new(),
            model: Vec::new(),
            fields: Box::default(),
        }
    }
}

/// The skills of one name, in library order. Names are nearly always unique, so only a
/// repeated one gets a list: a list per skill was 100,000 allocations at 100,000 skills.
pub(crate) struct Named<'a> {
    pub first: &'a Skill,
    pub more: Vec<&'a Skill>,
}

impl<'a> Named<'a> {
    pub(crate) fn all(&self) -> impl Iterator<Item = &'a Skill> + '_ {
        std::iter::once(self.first).chain(self.more.iter().copied())
    }
}

/// `skills` grouped by name, each group in the order given.
pub(crate) fn by_name<'a>(
    skills: impl Iterator<Item = &'a Skill>,
) -> HashMap<&'a str, Named<'a>, foldhash::fast::RandomState> {
    // Sized for all of them (a filter's upper bound): most names are distinct.
    let (least, most) = skills.size_hint();
    let mut map: HashMap<&str, Named, _> =
        HashMap::with_capacity_and_hasher(most.unwrap_or(least), Default::default());
    for s in skills {
        match map.entry(s.name.as_str()) {
            Entry::Occupied(mut e) => e.get_mut().more.push(s),
            Entry::Vacant(e) => {
                e.insert(Named {
                    first: s,
                    more: Vec::new(),
                });
            }
        }
    }
    map
}

/// A custom agent (`.agent.md`, legacy `.chatmode.md`, or a Claude Code agent).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(default)]
pub struct Agent {
    /// Frontmatter `name`, else the file name without `.agent.md` / `.chatmode.md` / `.md`.
    pub name: String,
    pub path: String,
    #[serde(skip)]
    pub fs_path: PathBuf,
    /// The file name without its agent suffix: the key hosts dedupe agents by.
    #[serde(skip)]
    pub stem: String,
    #[serde(skip)]
    pub invalid: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// `None` when the agent has no `tools` list (or `*`): it may use every tool.
    pub tools: Option<Vec<String>>,
    #[serde(skip)]
    pub tools_pos: crate::diagnostic::Pos,
    /// Where each of `tools` is written, in the same order.
    #[serde(skip)]
    pub tool_positions: Vec<crate::diagnostic::Pos>,
    #[serde(rename = "mcp-servers", skip_serializing_if = "Vec::is_empty")]
    pub mcp_servers: Vec<String>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub model: Vec<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub target: Option<String>,
    /// Agents named by `handoffs[].agent`.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub handoffs: Vec<String>,
    /// Sub-agents allowed by `agents:` (`*` means all).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub agents: Option<Vec<String>>,
    /// Skills preloaded by a Claude agent's `skills:` list.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub skills: Vec<String>,
    /// Who may invoke it: `user-invocable`, `disable-model-invocation`.
    #[serde(flatten)]
    pub invocation: Invocation,
    /// Deprecated `infer`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub infer: Option<bool>,
    /// Deprecated `mode`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub mode: Option<String>,
    /// `chatmode`, `custom` or `claude`.
    pub flavor: String,
    /// Display paths of files the body links to (relative links, resolved).
    #[serde(skip)]
    pub body_links: Vec<(PathBuf, crate::diagnostic::Pos)>,
    #[serde(skip)]
    pub handoffs_pos: crate::diagnostic::Pos,
    #[serde(skip)]
    pub agents_pos: crate::diagnostic::Pos,
}

impl Agent {
    /// Where the tool `name` of `tools` is written (the list's place when not known).
    pub(crate) fn tool_pos(&self, name: &str) -> crate::diagnostic::Pos {
        self.tools
            .iter()
            .flatten()
            .position(|t| t == name)
            .and_then(|i| self.tool_positions.get(i).copied())
            .unwrap_or(self.tools_pos)
    }
}

/// A plugin or marketplace manifest: which agents and skills travel together.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Manifest {
    pub path: String,
    pub fs_path: PathBuf,
    /// The plugin's name (or the marketplace entry's).
    pub name: String,
    /// The folder paths are resolved from first.
    pub base: PathBuf,
    /// How links from this manifest are labelled: `plugin`, `claude-plugin`, `marketplace`.
    pub via: &'static str,
    /// Agent paths as written, with their line; `None` means "every agent in `agents/`".
    pub agents: Option<Vec<(String, crate::diagnostic::Pos)>>,
    /// Skill paths as written; `None` means "every skill in `skills/`".
    pub skills: Option<Vec<(String, crate::diagnostic::Pos)>>,
}

/// An agent that may load a skill, and how that was found.
#[derive(
    Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize, schemars::JsonSchema,
)]
pub struct Link {
    /// Agent display path.
    pub agent: String,
    /// Skill name.
    pub skill: String,
    pub skill_path: String,
    /// `plugin:NAME`, `claude-plugin:NAME`, `codex-plugin:NAME`, `cursor-plugin:NAME`,
    /// `open-plugin:NAME`, `marketplace:NAME`, `skills-field`, `body-link`, or `config`.
    pub via: String,
}

/// A link whose agent does not grant what the skill needs.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct Drift {
    pub agent: String,
    pub skill: String,
    pub skill_path: String,
    pub via: String,
    pub missing_tools: Vec<String>,
    pub unmet_any: Vec<Vec<String>>,
    pub missing_mcp_servers: Vec<String>,
}
