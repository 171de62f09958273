//! What the parse stage produces and every later stage reads.

use serde::{Deserialize, Serialize};
use std::collections::HashMap;
use std::collections::hash_map::Entry;
use std::path::PathBuf;

/// What a discovered file is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Kind {
    /// A skill file; `exact` is false for casings other than `SKILL.md`.
    Skill { exact: bool },
    /// A custom agent: `*.agent.md`, a `.md` directly in `.github/agents/`, a legacy
    /// `*.chatmode.md`, or a Claude Code agent (`.md` under `agents/` of `.claude/` or of a
    /// Claude plugin; those only count when they have frontmatter).
    Agent(AgentFlavor),
    /// A plugin or marketplace manifest.
    Manifest(ManifestKind),
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum AgentFlavor {
    /// `*.agent.md` or `.github/agents/*.md`.
    Custom,
    /// Legacy `*.chatmode.md`.
    ChatMode,
    /// A Claude Code agent file.
    Claude,
}

impl AgentFlavor {
    /// The flavor as `Agent::flavor` and the host profiles' `loads` lists spell it.
    pub(crate) fn as_str(self) -> &'static str {
        match self {
            AgentFlavor::Custom => "custom",
            AgentFlavor::ChatMode => "chatmode",
            AgentFlavor::Claude => "claude",
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum ManifestKind {
    /// Agent Plugins / Copilot `plugin.json` (at a plugin root or in `.github/plugin/`).
    AgentPlugin,
    /// `plugin.json` in a format's own folder at the plugin root (`.claude-plugin/`, ...):
    /// its paths resolve from the folder above.
    FolderPlugin(PluginFormat),
    /// `marketplace.json` in `.claude-plugin/`, `.cursor-plugin/`, `.github/plugin/` or
    /// `.agents/plugins/`: entries resolve from the folder holding that one.
    Marketplace,
}

/// The format of a plugin manifest kept in a folder of its own at the plugin root.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum PluginFormat {
    /// `.claude-plugin/plugin.json` (Claude Code).
    Claude,
    /// `.codex-plugin/plugin.json` (Codex).
    Codex,
    /// `.cursor-plugin/plugin.json` (Cursor).
    Cursor,
    /// `.plugin/plugin.json` (legacy OpenPlugin, read by VS Code).
    Open,
}

impl PluginFormat {
    /// The format of a `plugin.json` in the folder named `dir`, if that is a format's folder.
    pub(crate) fn of_folder(dir: &[u8]) -> Option<Self> {
        match dir {
            b".claude-plugin" => Some(PluginFormat::Claude),
            b".codex-plugin" => Some(PluginFormat::Codex),
            b".cursor-plugin" => Some(PluginFormat::Cursor),
            b".plugin" => Some(PluginFormat::Open),
            _ => None,
        }
    }

    /// How links from such a plugin are labelled (`codex-plugin:NAME`).
    pub(crate) fn label(self) -> &'static str {
        match self {
            PluginFormat::Claude => "claude-plugin",
            PluginFormat::Codex => "codex-plugin",
            PluginFormat::Cursor => "cursor-plugin",
            PluginFormat::Open => "open-plugin",
        }
    }
}

use crate::diagnostic::Pos;
use crate::vecmap::VecMap;

/// The kinds of things a skill can depend on: what an MCP session lists (tools, resources,
/// prompts) and what a machine has (executables, variables, configuration, packages, OS).
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
    /// Hermes tool sets (`requires_toolsets`).
    Toolsets,
    /// Executables on `PATH`.
    Bins,
    /// Environment variables that are set (names only).
    Env,
    /// OpenClaw configuration keys that are truthy.
    Config,
    /// Operating systems (`darwin`, `linux`, `win32`); a list is met by any of them.
    Os,
    /// Python distributions (PEP 508 requirements).
    Packages,
}

impl DepKind {
    /// Every kind, in report order.
    pub(crate) const ALL: [DepKind; 9] = [
        DepKind::Tools,
        DepKind::Resources,
        DepKind::Prompts,
        DepKind::Toolsets,
        DepKind::Bins,
        DepKind::Env,
        DepKind::Config,
        DepKind::Os,
        DepKind::Packages,
    ];
    pub(crate) fn key(self) -> &'static str {
        match self {
            DepKind::Tools => "tools",
            DepKind::Resources => "resources",
            DepKind::Prompts => "prompts",
            DepKind::Toolsets => "toolsets",
            DepKind::Bins => "bins",
            DepKind::Env => "env",
            DepKind::Config => "config",
            DepKind::Os => "os",
            DepKind::Packages => "packages",
        }
    }
    /// Singular noun for messages.
    pub(crate) fn noun(self) -> &'static str {
        match self {
            DepKind::Tools => "tool",
            DepKind::Resources => "resource",
            DepKind::Prompts => "prompt",
            DepKind::Toolsets => "tool set",
            DepKind::Bins => "executable",
            DepKind::Env => "environment variable",
            DepKind::Config => "config key",
            DepKind::Os => "OS",
            DepKind::Packages => "package",
        }
    }
    /// Plural noun for messages.
    pub(crate) fn nouns(self) -> &'static str {
        match self {
            DepKind::Tools => "tools",
            DepKind::Resources => "resources",
            DepKind::Prompts => "prompts",
            DepKind::Toolsets => "tool sets",
            DepKind::Bins => "executables",
            DepKind::Env => "environment variables",
            DepKind::Config => "config keys",
            DepKind::Os => "OSes",
            DepKind::Packages => "packages",
        }
    }
    /// Is this a kind a machine profile describes (rather than an MCP session)?
    pub(crate) fn is_machine(self) -> bool {
        !matches!(self, DepKind::Tools | DepKind::Resources | DepKind::Prompts)
    }
}

/// Where a requirement comes from (the report's `source` key): the proposed field, or a dialect
/// that hosts or registries already read.
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
#[serde(rename_all = "kebab-case")]
pub enum Origin {
    /// The proposed `dependencies` field.
    Dependencies,
    /// The agent-style `tools` and `mcp-servers` fields on SKILL.md.
    #[serde(alias = "tools-field")]
    AgentFields,
    /// Claude Code's `allowed-tools`: a permission list that names the tools the skill uses.
    AllowedTools,
    /// OpenClaw's `metadata.openclaw` (or `clawdbot`, `clawdis`, `moltbot`): `requires`, `os`.
    Openclaw,
    /// Codex's `agents/openai.yaml` beside SKILL.md: `dependencies.tools`.
    Codex,
    /// Hermes' `metadata.hermes` and `prerequisites`, `platforms`,
    /// `required_environment_variables`.
    Hermes,
    /// A PEP 508 package list written as `dependencies: [...]`.
    Packages,
    /// Read from what the body's shell blocks and the skill's scripts run, import and read, and
    /// the tools the body names: never declared, so never an error.
    Inferred,
}

impl Origin {
    pub(crate) fn as_str(self) -> &'static str {
        match self {
            Origin::Dependencies => "dependencies",
            Origin::AgentFields => "agent-fields",
            Origin::AllowedTools => "allowed-tools",
            Origin::Openclaw => "openclaw",
            Origin::Codex => "codex",
            Origin::Hermes => "hermes",
            Origin::Packages => "packages",
            Origin::Inferred => "inferred",
        }
    }
    /// How messages tag what this source declares: nothing for the proposal's field.
    pub(crate) fn tag(self) -> &'static str {
        match self {
            Origin::Dependencies => "",
            Origin::AgentFields => " (agent-fields)",
            Origin::AllowedTools => " (allowed-tools)",
            Origin::Openclaw => " (openclaw)",
            Origin::Codex => " (codex)",
            Origin::Hermes => " (hermes)",
            Origin::Packages => " (packages)",
            // Each inferred need says where it was read: `(inferred from `x.sh:3`)`.
            Origin::Inferred => "",
        }
    }
    /// Where the source is written, for people.
    /// `place`, naming `block` instead of the usual key where it is OpenClaw's and another.
    pub(crate) fn place_in(self, block: &str) -> std::borrow::Cow<'static, str> {
        match self {
            Origin::Openclaw if !block.is_empty() && block != "openclaw" => {
                format!("OpenClaw's `metadata.{block}`").into()
            }
            _ => self.place().into(),
        }
    }

    pub(crate) fn place(self) -> &'static str {
        match self {
            Origin::Dependencies => "the `dependencies` field",
            Origin::AgentFields => "the `tools` / `mcp-servers` fields",
            Origin::AllowedTools => "`allowed-tools`",
            Origin::Openclaw => "OpenClaw's `metadata.openclaw`",
            Origin::Codex => "Codex's `agents/openai.yaml`",
            Origin::Hermes => "Hermes' `metadata.hermes` / prerequisites",
            Origin::Packages => "the package list in `dependencies`",
            Origin::Inferred => "what its body and scripts use",
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
    /// The skill stands in for these: its host hides it while any of them is available
    /// (Hermes' `fallback_for_tools` / `fallback_for_toolsets`).
    #[serde(rename = "fallback-for", skip_serializing_if = "Vec::is_empty")]
    pub fallback_for: Vec<String>,
}

impl Group {
    pub(crate) fn is_empty(&self) -> bool {
        self.all.is_empty()
            && self.any.as_ref().is_none_or(Vec::is_empty)
            && self.fallback_for.is_empty()
    }

    /// Add each of `names` to `all` unless it is there ([`extend_unique`]).
    pub(crate) fn extend_all<S: AsRef<str>>(&mut self, names: impl IntoIterator<Item = S>) {
        extend_unique(&mut self.all, names);
    }
}

/// Append each of `names` that `list` lacks, in order, once: one set for the whole list, as a
/// declared list may hold thousands of names.
pub(crate) fn extend_unique<S: AsRef<str>>(
    list: &mut Vec<String>,
    names: impl IntoIterator<Item = S>,
) {
    let mut seen: foldhash::HashSet<String> = list.iter().cloned().collect();
    for name in names {
        let name = name.as_ref();
        if !seen.contains(name) {
            seen.insert(name.to_owned());
            list.push(name.to_owned());
        }
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
    /// What the machine must have. Boxed: most skills ask nothing of it, and six empty groups
    /// in every skill cost more memory than the rest of its requirements.
    #[serde(flatten, skip_serializing_if = "Option::is_none")]
    pub machine: Option<Box<MachineNeeds>>,
}

/// The kinds of [`Requirements`] a machine provides.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(default)]
pub struct MachineNeeds {
    #[serde(skip_serializing_if = "Group::is_empty")]
    pub toolsets: Group,
    #[serde(skip_serializing_if = "Group::is_empty")]
    pub bins: Group,
    #[serde(skip_serializing_if = "Group::is_empty")]
    pub env: Group,
    #[serde(skip_serializing_if = "Group::is_empty")]
    pub config: Group,
    #[serde(skip_serializing_if = "Group::is_empty")]
    pub os: Group,
    #[serde(skip_serializing_if = "Group::is_empty")]
    pub packages: Group,
}

const EMPTY_GROUP: Group = Group {
    all: Vec::new(),
    any: None,
    fallback_for: Vec::new(),
};
static NO_GROUP: Group = EMPTY_GROUP;
static NO_REQUIREMENTS: Requirements = Requirements {
    tools: EMPTY_GROUP,
    resources: EMPTY_GROUP,
    prompts: EMPTY_GROUP,
    machine: None,
};

impl Requirements {
    pub(crate) fn group(&self, kind: DepKind) -> &Group {
        let machine = |f: fn(&MachineNeeds) -> &Group| self.machine.as_deref().map_or(&NO_GROUP, f);
        match kind {
            DepKind::Tools => &self.tools,
            DepKind::Resources => &self.resources,
            DepKind::Prompts => &self.prompts,
            DepKind::Toolsets => machine(|m| &m.toolsets),
            DepKind::Bins => machine(|m| &m.bins),
            DepKind::Env => machine(|m| &m.env),
            DepKind::Config => machine(|m| &m.config),
            DepKind::Os => machine(|m| &m.os),
            DepKind::Packages => machine(|m| &m.packages),
        }
    }
    pub(crate) fn group_mut(&mut self, kind: DepKind) -> &mut Group {
        match kind {
            DepKind::Tools => &mut self.tools,
            DepKind::Resources => &mut self.resources,
            DepKind::Prompts => &mut self.prompts,
            _ => {
                let m = self.machine.get_or_insert_with(Box::default);
                match kind {
                    DepKind::Toolsets => &mut m.toolsets,
                    DepKind::Bins => &mut m.bins,
                    DepKind::Env => &mut m.env,
                    DepKind::Config => &mut m.config,
                    DepKind::Os => &mut m.os,
                    _ => &mut m.packages,
                }
            }
        }
    }
    pub(crate) fn is_empty(&self) -> bool {
        DepKind::ALL.iter().all(|k| self.group(*k).is_empty())
    }
}

/// The requirements one source declares, and where.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct Declared {
    pub source: Origin,
    /// The file it is written in, when that is not the SKILL.md (Codex's sidecar).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub file: Option<String>,
    /// Where the declaration starts (1-based; 0 when not known).
    #[serde(default)]
    pub line: u32,
    #[serde(default)]
    pub column: u32,
    #[serde(flatten)]
    pub requirements: Requirements,
    /// For the `inferred` source: each use it was read from, where, and the text that shows it.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub uses: Vec<Use>,
    /// The key of the block it is written in where the source has several names for it
    /// (OpenClaw's `clawdbot`, `moltbot`, ...); empty for the source's usual place.
    #[serde(skip)]
    #[schemars(skip)]
    pub block: &'static str,
}

impl Declared {
    /// Where it is written, for a message: the block's own key when it has one.
    pub(crate) fn place(&self) -> std::borrow::Cow<'static, str> {
        self.source.place_in(self.block)
    }

    /// Where the declaration starts, when that is known.
    pub(crate) fn at(&self) -> Option<Pos> {
        (self.line > 0).then(|| Pos::new(self.line, self.column))
    }
}

/// One thing a skill's body or scripts use (an executable run, a package imported, a variable
/// read, a tool named), where, and the text that shows it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct Use {
    pub kind: DepKind,
    /// As the requirement is written: `gh`, `PyYAML`, `npm:@scope/pkg`, `GITHUB_TOKEN`,
    /// `github/create_issue`.
    pub name: String,
    /// The file, from the skill's folder; absent for the SKILL.md.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub file: Option<String>,
    /// 1-based.
    pub line: u32,
    pub column: u32,
    /// The line that shows the use (trimmed, at most 160 characters).
    pub evidence: String,
    /// Named only by "use the `X` tool": a requirement only where a built-in host defines X.
    #[serde(skip)]
    #[schemars(skip)]
    pub phrase: bool,
    /// One of several tools the body lists in a table where no step says which it calls, or of
    /// the names the body's ways each use one of (`Option A`, `Option B`): the skill uses some
    /// of them, so the requirement lists them under `any`.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub one_of: bool,
}

impl Use {
    /// `scripts/fetch.sh:12`, or `line 12` for the SKILL.md.
    pub(crate) fn place(&self) -> String {
        match &self.file {
            Some(f) => format!("{f}:{}", self.line),
            None => format!("SKILL.md:{}", self.line),
        }
    }
}

/// Where a skill's first requirements were declared (`requirements` lists every source).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum DeclaredBy {
    /// The `dependencies` field.
    Dependencies,
    /// The agent-style `tools` (and `mcp-servers`) fields, used when there is no `dependencies`.
    ToolsField,
    /// Claude Code's `allowed-tools`.
    AllowedTools,
    /// OpenClaw's `metadata.openclaw` (and its older keys).
    Openclaw,
    /// Codex's `agents/openai.yaml`.
    Codex,
    /// Hermes' fields.
    Hermes,
    /// A package list under `dependencies`.
    Packages,
    /// Nothing to check.
    Nothing,
}

impl From<Origin> for DeclaredBy {
    fn from(s: Origin) -> DeclaredBy {
        match s {
            Origin::Dependencies => DeclaredBy::Dependencies,
            Origin::AgentFields => DeclaredBy::ToolsField,
            Origin::AllowedTools => DeclaredBy::AllowedTools,
            Origin::Openclaw => DeclaredBy::Openclaw,
            Origin::Codex => DeclaredBy::Codex,
            Origin::Hermes => DeclaredBy::Hermes,
            Origin::Packages => DeclaredBy::Packages,
            // Inferred needs are not declared.
            Origin::Inferred => DeclaredBy::Nothing,
        }
    }
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
    /// The size of the skill's file in bytes, for hosts that skip large ones.
    #[serde(skip)]
    #[schemars(skip)]
    pub file_bytes: u64,
    /// The SHA-256 of the file's bytes: two skills of one name with the same digest are
    /// copies of one file (SA401).
    #[serde(skip)]
    #[schemars(skip)]
    pub file_digest: [u8; 32],
    /// Where the frontmatter's closing `---` line is, for fixes that add a key at its end.
    #[serde(skip)]
    #[schemars(skip)]
    pub frontmatter_end: Option<FrontmatterEnd>,
    /// Where the agent-style `tools` or `mcp-servers` key is written, the first of the two.
    #[serde(skip)]
    #[schemars(skip)]
    pub tools_at: Option<crate::diagnostic::Pos>,
    /// Where `allowed-tools` is written.
    #[serde(skip)]
    #[schemars(skip)]
    pub allowed_tools_at: Option<crate::diagnostic::Pos>,
    /// The agent-style `tools` entries no built-in host defines, each where it is written:
    /// SA326 reports those no profile of the run has either.
    #[serde(skip)]
    #[schemars(skip)]
    pub undefined_tools: Vec<(String, crate::diagnostic::Pos)>,
    /// `metadata` holds OpenClaw's own block (`openclaw`, or an older key): the skill is meant
    /// for OpenClaw, whether or not the block gates anything.
    #[serde(skip)]
    #[schemars(skip)]
    pub openclaw_block: bool,
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
    /// `hooks`: the file it names or the handlers written inline, by event.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub hooks: Option<Hooks>,
    /// Keys no host knows, in document order.
    #[serde(rename = "unknown-keys", skip_serializing_if = "Vec::is_empty")]
    pub unknown_keys: Vec<String>,
    /// `name` as written, when it is a string (empty too): what a host's loading rules judge.
    #[serde(skip)]
    #[schemars(skip)]
    pub name_written: Option<String>,
    /// `description` as written, when it is a string (empty too).
    #[serde(skip)]
    #[schemars(skip)]
    pub description_written: Option<String>,
    /// Whether `name` is written as something other than text (a number, a list, nothing).
    #[serde(skip)]
    #[schemars(skip)]
    pub name_not_text: bool,
    /// Whether `description` is written as something other than text.
    #[serde(skip)]
    #[schemars(skip)]
    pub description_not_text: bool,
    /// The keys at the start of a line of a frontmatter that does not parse as YAML, or whose
    /// `name` or `description` is not a string, with their text: what a host that falls back
    /// to reading lines finds there, each key with the indentation before it (`None`: no
    /// frontmatter delimited by `---` lines, one with no line between them, or one with both
    /// as strings).
    #[serde(skip)]
    #[schemars(skip)]
    pub line_keys: Option<Vec<(String, String)>>,
    /// For a delimited frontmatter that does not parse as YAML: its `name` and `description`
    /// (when strings) once every top-level value holding a colon is made block text, as a host
    /// that retries that way reads them (`None`: still not YAML, or no delimited frontmatter).
    #[serde(skip)]
    #[schemars(skip)]
    pub colons_quoted: Option<Written>,
    /// Why the frontmatter gave no fields, when it did not.
    #[serde(skip)]
    #[schemars(skip)]
    pub unreadable: Option<Unreadable>,
    /// `name` and `description` written as a scalar other than a string (a number, `true`,
    /// `~`), as their text is written; nothing after the colon is empty text.
    #[serde(skip)]
    #[schemars(skip)]
    pub scalars: Written,
    /// Whether the first line opens the frontmatter with blanks after its `---`.
    #[serde(skip)]
    #[schemars(skip)]
    pub open_padded: bool,
    /// The frontmatter as a host that opens it at a first line starting with `---` and ends it
    /// at the next line starting with `---` (`----`, `--- x`) reads it, when those lines are
    /// not where skill-audit opens and ends it.
    #[serde(skip)]
    #[schemars(skip)]
    pub dash_fenced: Option<Box<DashFenced>>,
    /// For a delimited frontmatter that does not parse as YAML: its `name` and `description`
    /// as js-yaml 3 reads them, which takes a line indented with tabs as indented by the
    /// spaces before its first tab (`None`: not YAML that way either, or no tabs to read so).
    #[serde(skip)]
    #[schemars(skip)]
    pub tabs_read: Option<Box<Written>>,
    /// Whether `metadata` is written, as something other than a mapping.
    #[serde(skip)]
    #[schemars(skip)]
    pub metadata_not_mapping: bool,
    /// Whether the frontmatter is delimited by `---` lines and holds nothing but blanks.
    #[serde(skip)]
    #[schemars(skip)]
    pub frontmatter_empty: bool,
    /// Whether the file starts with a UTF-8 byte order mark and then `---`.
    #[serde(skip)]
    #[schemars(skip)]
    pub bom: bool,
    /// The frontmatter as a host that ends it at the first line that is `---` once trimmed
    /// reads it, when that line is an indented `---` above where skill-audit ends it (or where
    /// no line ends it).
    #[serde(skip)]
    #[schemars(skip)]
    pub trimmed_close: Option<TrimmedClose>,
    /// Executables and variables a declaration in the SKILL.md lists that its text after the
    /// frontmatter never names (as a word), each once; the skill's scripts, once read, strike
    /// out those they use or name.
    #[serde(skip)]
    #[schemars(skip)]
    pub unnamed: Vec<Unnamed>,
    /// The file names of the scripts that install or set up a skill that the text after the
    /// frontmatter names (`setup.sh` in "run the setup.sh included in resources"), sorted: such
    /// a script it names may be the skill's work.
    #[serde(skip)]
    #[schemars(skip)]
    pub installers_named: Vec<String>,
    /// The file names of the scripts the text after the frontmatter names only in a section
    /// that offers one way among others, sorted: what they use is not the skill's need.
    #[serde(skip)]
    #[schemars(skip)]
    pub scripts_of_other_ways: Vec<String>,
}

/// A declared executable or variable that the SKILL.md's text does not name.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Unnamed {
    pub name: String,
    /// `Bins` or `Env`.
    pub kind: DepKind,
    /// The declaration that lists it.
    pub source: Origin,
    /// Its entry in the declaration, else the declaration, else the skill's `name`.
    pub at: Pos,
    /// The key of the list it is an entry of (`bins`, `env_vars`, ...), when found.
    pub list: Option<&'static str>,
    /// The declaration's block key (`Declared::block`).
    pub block: &'static str,
}

/// Why a file's frontmatter gave no fields; the finding is already in the sink.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Unreadable {
    /// Not UTF-8 text.
    NotText,
    /// The file does not start with a `---` line.
    NoFrontmatter,
    /// No `---` line closes it.
    Unclosed,
    /// Delimited, and not YAML.
    NotYaml,
    /// YAML, but not a mapping (a list, a scalar, or nothing at all).
    NotMapping,
}

/// A frontmatter ended at a line other than skill-audit's closing one (an indented `---`, as
/// a host that trims lines reads it; a `----`, as a host that only looks for `---` at a line's
/// start reads it).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TrimmedClose {
    /// The line that ends it.
    pub line: u32,
    /// Its `name` and `description`; `None` when what is above that line is empty, not YAML,
    /// or not a mapping.
    pub read: Option<Written>,
}

/// A frontmatter ended at the first line after the opening one that starts with `---`
/// (`----`, `--- x`, `---foo`), where skill-audit ends it only at a `---` line: the block above
/// that line as each kind of host reads it.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct DashFenced {
    /// The line that ends it.
    pub line: u32,
    /// That line, as written (its first 40 characters).
    pub close: String,
    /// Whether the first line is a `---` line, where skill-audit opens a frontmatter too.
    pub opened: bool,
    /// `name` and `description` with YAML's other scalars, lists and mappings made text, or,
    /// when the block is not a YAML mapping, from its `key: value` lines at the left margin.
    pub coerced: Written,
    /// `name` and `description` when strings, when the block is YAML (none when it is YAML
    /// but not a mapping); `None`: not YAML.
    pub yaml: Option<Written>,
    /// The block's `key: value` lines, as [`SkillFields::line_keys`] holds them.
    pub lines: Vec<(String, String)>,
    /// The block read once every top-level value holding a colon is made block text, as
    /// [`SkillFields::colons_quoted`] holds it.
    pub colons_quoted: Option<Written>,
}

/// `name` and `description` as a host reads them, when they are strings.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Written {
    pub name: Option<String>,
    pub description: Option<String>,
}

impl Written {
    /// `name` and `description`, each as `read` gives it.
    pub(crate) fn by(read: impl Fn(&str) -> Option<String>) -> Written {
        Written {
            name: read("name"),
            description: read("description"),
        }
    }
}

/// The closing `---` line of a skill's frontmatter, and whether the keys fixes add
/// (`dependencies`, `metadata`, `prerequisites`) are above it: what a fix needs to add one
/// without the file's text.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct FrontmatterEnd {
    /// Byte offset of the line's start in the file as read (files are at most 16 MiB).
    pub offset: u32,
    pub line: u32,
    /// The file's line break is `\r\n`.
    pub crlf: bool,
    pub has_dependencies: bool,
    pub has_metadata: bool,
    pub has_prerequisites: bool,
    /// Where OpenClaw's `requires` can be written into `metadata`, when there is room.
    pub metadata_room: Option<MetadataRoom>,
    /// Why there is no room, when the frontmatter has a `metadata` and no `metadata_room`.
    pub metadata_blocked: Option<Blocked>,
}

/// Why a fix cannot write OpenClaw's `requires` into the frontmatter's `metadata`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Blocked {
    /// `metadata` is a string or a list.
    NotMapping,
    /// The OpenClaw block of `metadata`, under this key, has a `requires` already.
    Requires(&'static str),
    /// A mapping laid out in a way no line can be added to (keys on its own key's line).
    Layout,
}

/// Where a fix can write OpenClaw's `requires` into the frontmatter's `metadata`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MetadataRoom {
    /// A block mapping: a line goes at byte `offset`, the start of line `line` (the line
    /// after the mapping), indented by `indent` as its keys are. `inner` when the mapping is
    /// the OpenClaw block (which has no `requires`), else `metadata`, which has none.
    Block {
        offset: u32,
        line: u32,
        indent: u32,
        inner: bool,
    },
    /// A flow mapping (`metadata: {...}`): entries go before the closing `}` at byte
    /// `offset`, at `at`. `inner` when that `}` closes the OpenClaw block (which has no
    /// `requires`), else `metadata` itself, which has none; `empty` when the mapping is `{}`,
    /// `compact` when it is written without blanks after `:` and `,`.
    Flow {
        offset: u32,
        at: crate::diagnostic::Pos,
        inner: bool,
        empty: bool,
        compact: bool,
    },
    /// `metadata` holds nothing (`metadata:`, `metadata: ~`): bytes `start..end` after its
    /// colon (up to any comment), at `at..end_at`, are replaced by a mapping.
    Null {
        start: u32,
        end: u32,
        at: crate::diagnostic::Pos,
        end_at: crate::diagnostic::Pos,
    },
}

impl FrontmatterEnd {
    /// The file's line break, for lines a fix adds.
    pub(crate) fn line_break(&self) -> &'static str {
        if self.crlf { "\r\n" } else { "\n" }
    }
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
    pub declared_by: DeclaredBy,
    /// What each source declares, in the order of [`Origin::ALL`]; all of them must hold.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub requirements: Vec<Declared>,
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
    /// The proposal's requirements: the `dependencies` field, or without one the agent-style
    /// `tools` and `mcp-servers` (what drift is judged by, and the report's `dependencies`).
    pub fn dependencies(&self) -> &Requirements {
        let source = match self.declared_by {
            DeclaredBy::Dependencies => Origin::Dependencies,
            _ => Origin::AgentFields,
        };
        self.requirements
            .iter()
            .find(|d| d.source == source)
            .map_or(&NO_REQUIREMENTS, |d| &d.requirements)
    }

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
            declared_by: DeclaredBy::Nothing,
            requirements: Vec::new(),
            tools: None,
            mcp_servers: Vec::new(),
            model: Vec::new(),
            fields: Box::default(),
        }
    }
}

/// The skills of one name, in library order. Names are nearly always unique, so only a
/// repeated one gets a list, not every skill.
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
    /// Where each of `handoffs` is written (its `agent:` value), in the same order.
    #[serde(skip)]
    pub handoff_positions: Vec<crate::diagnostic::Pos>,
    #[serde(skip)]
    pub agents_pos: crate::diagnostic::Pos,
    /// Where each of `agents` is written, in the same order.
    #[serde(skip)]
    pub agent_positions: Vec<crate::diagnostic::Pos>,
    /// Where each of `skills` is written, in the same order.
    #[serde(skip)]
    pub skill_positions: Vec<crate::diagnostic::Pos>,
    /// Where `model` is written.
    #[serde(skip)]
    pub model_pos: crate::diagnostic::Pos,
    /// What the skills it loads add to its grants under the proposal that skills declare
    /// `tools` and `mcp-servers` (which union with the agent's); absent when they add nothing.
    #[serde(rename = "proposal_grants", skip_serializing_if = "Option::is_none")]
    pub proposal: Option<ProposalGrants>,
    /// The file's text through its frontmatter (a byte order mark included), for the fixes of
    /// library rules that edit its `tools` list.
    #[serde(skip)]
    #[schemars(skip)]
    pub head: Option<std::sync::Arc<str>>,
}

/// The tools and MCP servers that loaded skills add to an agent's own, under the proposal.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct ProposalGrants {
    /// Tools the agent does not list itself (none when it may use every tool).
    #[serde(skip_serializing_if = "Vec::is_empty", default)]
    pub tools: Vec<String>,
    #[serde(rename = "mcp-servers", skip_serializing_if = "Vec::is_empty", default)]
    pub mcp_servers: Vec<String>,
    /// The skills that grant them, by path.
    pub from: Vec<String>,
}

impl Agent {
    /// Where each tool of `tools` is first written: what [`Agent::tool_pos`] answers, for a
    /// caller that asks about every tool of a list that may hold thousands.
    pub(crate) fn tool_places(&self) -> foldhash::HashMap<&str, crate::diagnostic::Pos> {
        let mut places = foldhash::HashMap::default();
        for (i, t) in self.tools.iter().flatten().enumerate() {
            places.entry(t.as_str()).or_insert_with(|| {
                self.tool_positions
                    .get(i)
                    .copied()
                    .unwrap_or(self.tools_pos)
            });
        }
        places
    }

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
    /// How links from this manifest are labelled: `plugin`, `claude-plugin`, `codex-plugin`,
    /// `cursor-plugin`, `open-plugin` (`.plugin/`), `marketplace`.
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

/// One kind of thing a drifting link lacks, as every report names it.
#[derive(Debug, PartialEq)]
pub struct Lacking<'a> {
    /// `tool`, `tools`, `one of`, `MCP server` or `MCP servers`.
    pub what: &'static str,
    pub names: &'a [String],
}

impl Drift {
    /// What the agent does not grant, in the one order reports give it: tools, each unmet
    /// `any` group, MCP servers.
    pub fn lacking(&self) -> Vec<Lacking<'_>> {
        let counted = |names: &[String], one, many| if names.len() == 1 { one } else { many };
        let mut out = Vec::new();
        if !self.missing_tools.is_empty() {
            out.push(Lacking {
                what: counted(&self.missing_tools, "tool", "tools"),
                names: &self.missing_tools,
            });
        }
        out.extend(self.unmet_any.iter().map(|g| Lacking {
            what: "one of",
            names: g,
        }));
        if !self.missing_mcp_servers.is_empty() {
            out.push(Lacking {
                what: counted(&self.missing_mcp_servers, "MCP server", "MCP servers"),
                names: &self.missing_mcp_servers,
            });
        }
        out
    }
}

/// The `hooks` of a skill or agent: a path to a hooks file, or handlers written inline. When it
/// names a file, `events` holds what the file declares once it has been read.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(default)]
pub struct Hooks {
    /// The hooks file, as written, when `hooks` is a path.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub file: Option<String>,
    /// The events, in the order written.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub events: Vec<HookEvent>,
    /// Where `hooks` is written: findings about a file's content point here.
    #[serde(skip)]
    pub pos: Pos,
}

/// One hook event and the shell commands of its command handlers.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(default)]
pub struct HookEvent {
    /// The event name, as written (`PreToolUse`).
    pub name: String,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub commands: Vec<HookCommand>,
    /// Where the event's key is (the `hooks` value, for a file's events).
    #[serde(skip)]
    pub pos: Pos,
}

/// A command handler's command line (`command`, or a per-platform one).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(default)]
pub struct HookCommand {
    pub command: String,
    /// The handler's `cwd`, which changes what a relative script path is relative to.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cwd: Option<String>,
    #[serde(skip)]
    pub pos: Pos,
}
