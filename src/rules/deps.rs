//! SA3xx: the `dependencies` field and the agent-style capability fields on SKILL.md (and the
//! same fields on agents). `parse::dependencies`, `parse::skill` and `parse::agent` find these
//! as they read the fields and call the constructors here; a skill with an SA301-SA303 or
//! SA306 error cannot be evaluated and is reported `invalid`.

use super::{FixDoc, NameShape, Rule, RuleDoc};
use crate::diagnostic::{Applicability, Finding, Fix, Pos, Severity, Sink, quote};
use crate::model::{DepKind, Origin};
use crate::parse::yaml::Node;
use crate::span;

pub(crate) const DEPENDENCIES_TYPE: RuleDoc = RuleDoc {
    code: "SA301",
    name: "dependencies-type",
    severity: Severity::Error,
    summary: "`dependencies` or one of its types has the wrong shape",
    what: "`dependencies` is not a mapping, or a type under it (`tools`, `resources`, `prompts`) is neither a list nor a mapping of `all`/`any` lists.",
    why: "Hosts that evaluate dependencies cannot read a wrong shape, so the skill's prerequisites are unknown and it cannot be checked.",
    example: "dependencies:\n  tools: get_order\n\nFix:\ndependencies:\n  tools: [get_order]",
    fix: None,
};

/// `dependencies` (`value`) is not a mapping.
pub(crate) fn dependencies_type(sink: &mut Sink, value: &Node) {
    sink.push(
        Rule::DependenciesType,
        value.pos,
        format!(
            "`dependencies` must be a mapping with `tools`, `resources` or `prompts`, found {}",
            value.kind()
        ),
    );
}

/// The value of a dependency type (`value`) is neither a list nor a mapping.
pub(crate) fn dependency_group_type(sink: &mut Sink, kind: DepKind, value: &Node) {
    sink.push(
        Rule::DependenciesType,
        value.pos,
        format!(
            "`{}` must be a list of names or a mapping with `all` / `any`, found {}",
            field(kind, None),
            value.kind()
        ),
    );
}

/// A list of a dependency type (bare, or its `group`, `all` or `any`) is not a list (`value`).
pub(crate) fn dependency_list_type(
    sink: &mut Sink,
    kind: DepKind,
    group: Option<&str>,
    value: &Node,
) {
    sink.push(
        Rule::DependenciesType,
        value.pos,
        format!(
            "`{}` must be a list of names, found {}",
            field(kind, group),
            value.kind()
        ),
    );
}

/// The field's path as a message shows it: `dependencies.tools`, `dependencies.tools.any`.
fn field(kind: DepKind, group: Option<&str>) -> String {
    match group {
        Some(g) => format!("dependencies.{}.{g}", kind.key()),
        None => format!("dependencies.{}", kind.key()),
    }
}

pub(crate) const DEPENDENCY_ENTRY_TYPE: RuleDoc = RuleDoc {
    code: "SA302",
    name: "dependency-entry-type",
    severity: Severity::Error,
    summary: "A dependency entry is not a string",
    what: "An entry of an `all` or `any` list is not a non-empty string.",
    why: "Names are matched against the environment's tool, resource and prompt names; a number or mapping matches nothing.",
    example: "dependencies:\n  tools:\n    all: [get_order, {name: x}]\n\nFix: all: [get_order, x]",
    fix: None,
};

/// An entry (`item`) of a dependency list is not a non-empty string.
pub(crate) fn dependency_entry_type(
    sink: &mut Sink,
    kind: DepKind,
    group: Option<&str>,
    item: &Node,
) {
    sink.push(
        Rule::DependencyEntryType,
        item.pos,
        format!(
            "entries of `{}` must be non-empty strings, found {}; quote it",
            field(kind, group),
            item.kind()
        ),
    );
}

pub(crate) const DEPENDENCY_UNKNOWN_GROUP: RuleDoc = RuleDoc {
    code: "SA303",
    name: "dependency-unknown-group",
    severity: Severity::Error,
    summary: "A key under a dependency type is not `all` or `any`",
    what: "A key under a dependency type is neither `all` nor `any`.",
    why: "Only `all` (every entry required) and `any` (one entry required) have a meaning; anything else is most likely a typo that drops a requirement.",
    example: "dependencies:\n  tools:\n    alll: [get_order]\n\nFix: all: [get_order]",
    fix: None,
};

/// `key`, under a dependency type, is neither `all` nor `any`.
pub(crate) fn dependency_unknown_group(sink: &mut Sink, kind: DepKind, key: &Node) {
    sink.push(
        Rule::DependencyUnknownGroup,
        key.pos,
        format!(
            "`{}` may only hold `all` and `any`, found {}",
            field(kind, None),
            quote(&key.scalar_text().unwrap_or_else(|| key.kind().to_owned()))
        ),
    );
}

pub(crate) const DEPENDENCY_EMPTY_ANY: RuleDoc = RuleDoc {
    code: "SA304",
    name: "dependency-empty-any",
    severity: Severity::Warning,
    summary: "An `any` group is empty",
    what: "An `any` list is empty.",
    why: "An empty `any` requires nothing, which is rarely what was meant.",
    example: "dependencies:\n  tools:\n    any: []\n\nFix: list the alternatives, e.g. any: [dispute_chargeback, dispute_chargeback_v2], or remove it.",
    fix: None,
};

/// The `any` list of a dependency type is empty, at `pos`.
pub(crate) fn dependency_empty_any(sink: &mut Sink, kind: DepKind, pos: Pos) {
    sink.push(
        Rule::DependencyEmptyAny,
        pos,
        format!(
            "`{}` is empty, so it requires nothing; list alternatives or remove it",
            field(kind, Some("any"))
        ),
    );
}

pub(crate) const DEPENDENCY_UNKNOWN_TYPE: RuleDoc = RuleDoc {
    code: "SA305",
    name: "dependency-unknown-type",
    severity: Severity::Warning,
    summary: "A dependency type other than tools, resources or prompts",
    what: "A key under `dependencies` other than `tools`, `resources` and `prompts`.",
    why: "It is ignored when evaluating (so skills stay forward compatible), which also means it checks nothing today.",
    example: "dependencies:\n  widgets: [chart]\n\nFix: remove it, or express the need as a tool, resource or prompt.",
    fix: None,
};

/// `key`, under `dependencies`, is not `tools`, `resources` or `prompts`.
pub(crate) fn dependency_unknown_type(sink: &mut Sink, key: &Node) {
    let shown = key
        .as_str()
        .map_or_else(|| key.scalar_text().unwrap_or_default(), str::to_owned);
    sink.push(
        Rule::DependencyUnknownType,
        key.pos,
        format!(
            "unknown dependency type {} is ignored; known types are `tools`, `resources` and `prompts`",
            quote(&shown)
        ),
    );
}

pub(crate) const CAPABILITY_FIELD_TYPE: RuleDoc = RuleDoc {
    code: "SA306",
    name: "capability-field-type",
    severity: Severity::Error,
    summary: "`tools`, `mcp-servers`, `hooks` or `model` has the wrong shape",
    what: "An agent-style field on SKILL.md has the wrong shape: `tools` not a list or comma/space string, `mcp-servers` not a mapping or list of names, `hooks` neither a path nor a mapping, `model` not a name or list.",
    why: "Without `dependencies`, a skill's `tools` and `mcp-servers` are what it needs; if they cannot be read the skill cannot be checked against agents or environments.",
    example: "tools: {read: true}\n\nFix: tools: [read, search]",
    fix: None,
};

/// A capability field that takes a list of names (`tools`, `mcp-servers`, `agents`, ...) is
/// written wrong: a [`super::ShapeReport`].
pub(crate) fn capability_field_shape(sink: &mut Sink, pos: Pos, field: &str, shape: NameShape) {
    sink.push(Rule::CapabilityFieldType, pos, shape.message(field));
}

/// `hooks` (`value`) is not a mapping.
pub(crate) fn hooks_type(sink: &mut Sink, value: &Node) {
    sink.push(
        Rule::CapabilityFieldType,
        value.pos,
        format!(
            "`hooks` must be a path to a hooks file or a mapping of event names to handlers, found {}",
            value.kind()
        ),
    );
}

/// A skill's `model` (`value`) is neither a name nor a list of names.
pub(crate) fn model_type(sink: &mut Sink, value: &Node) {
    sink.push(
        Rule::CapabilityFieldType,
        value.pos,
        format!(
            "`model` must be a model name or a list of them, found {}",
            value.kind()
        ),
    );
}

pub(crate) const PACKAGE_LIST: RuleDoc = RuleDoc {
    code: "SA307",
    name: "package-list",
    severity: Severity::Warning,
    summary: "`dependencies` is a list of packages (Python or npm)",
    what: "`dependencies` is a list of PEP 508 requirement strings (`crewai>=1.2.0`) or of npm packages (`@motion-canvas/core>=3.0.0`, `react`), the shape some catalogues use for the packages a skill's scripts import. Python packages are checked against a profile's `packages`; npm packages are read but not judged, since profiles do not describe them.",
    why: "The proposed `dependencies` field is a mapping of `tools`, `resources` and `prompts`: a host or validator that reads the proposal sees a list and cannot tell packages from tools. Every host still loads the skill.",
    example: "dependencies: [crewai>=1.2.0, crewai-tools]\n\nFix: move the list under metadata (a string, as the spec wants):\nmetadata:\n  python-packages: \"crewai>=1.2.0 crewai-tools\"\nand declare tools the proposal's way if the skill needs any:\ndependencies:\n  tools: [get_order]",
    fix: Some(FixDoc {
        applicability: Applicability::Safe,
        what: "For a Python list, when the frontmatter has no `metadata`, replace the top-level `dependencies` list with `metadata:` holding `python-packages: '<the requirements, separated by spaces>'`, which skill-audit reads as the same package list (no host reads either). Not offered when the entry has comments or a requirement has spaces.",
    }),
};

/// `dependencies` (`key`, `value`) is a list of the packages `names` of `ecosystem`;
/// `has_metadata`: the frontmatter has a `metadata` key.
pub(crate) fn package_list(
    sink: &mut Sink,
    key: &Node,
    value: &Node,
    names: &[&str],
    ecosystem: crate::parse::packages::Ecosystem,
    has_metadata: bool,
) {
    use crate::parse::packages::Ecosystem;
    let n = names.len();
    let s = if n == 1 { "" } else { "s" };
    let (fix, read_as) = match ecosystem {
        Ecosystem::Python => (
            sink.text()
                .filter(|_| !has_metadata)
                .and_then(|text| packages_to_metadata(text, key, value, names)),
            format!("{n} Python package{s}, read as packages"),
        ),
        Ecosystem::Npm => (
            None,
            format!(
                "{n} npm package{s}, read as packages (no profile describes npm packages, so they are not judged)"
            ),
        ),
    };
    sink.push_fixed(
        Rule::PackageList,
        value.pos,
        format!(
            "`dependencies` is a list of {read_as}; the proposed field is a mapping (`dependencies: {{tools: [...]}}`), so move the packages under `metadata` as one string (`python-packages: \"a b\"`: its values are strings) or declare tools there"
        ),
        fix,
    );
}

/// SA307's fix: the top-level `dependencies` entry (its key's line through its value's last)
/// replaced by `metadata: {python-packages: '...'}` written as a block. Only for entries
/// without comments (they would be lost) and requirements without blanks (the string
/// separates them by spaces).
fn packages_to_metadata(text: &str, key: &Node, value: &Node, names: &[&str]) -> Option<Fix> {
    if key.pos.column != 1 || names.iter().any(|n| n.contains(char::is_whitespace)) {
        return None;
    }
    let start = span::offset(text, key.pos)?;
    let items = value.as_seq()?;
    let last = items.iter().map(|i| i.pos).max()?;
    let mut end_at = span::offset(text, last)?;
    let flow = span::offset(text, value.pos).is_some_and(|at| text[at..].starts_with('['));
    if let Some(close) = text[end_at..].find(']').filter(|_| flow) {
        end_at += close;
    }
    let (_, line_end, eol) = span::line_at(text, end_at);
    let entry = &text[start..line_end];
    if entry.contains('#') {
        return None;
    }
    let brk = if eol.is_empty() {
        span::line_break(text)
    } else {
        eol
    };
    let joined = names.join(" ");
    let content = format!(
        "metadata:{brk}  {}: {}",
        crate::parse::packages::METADATA_KEY,
        span::single_quoted(&joined)
    );
    Some(Fix::safe(
        format!(
            "move the packages to `metadata.{}`",
            crate::parse::packages::METADATA_KEY
        ),
        vec![span::edit(text, start, line_end, content)],
    ))
}

pub(crate) const NOT_TOOL_NAMES: RuleDoc = RuleDoc {
    code: "SA308",
    name: "not-tool-names",
    severity: Severity::Warning,
    summary: "SKILL.md `tools` lists products or tool schemas, not tool names",
    what: "An entry of a SKILL.md's agent-style `tools` list is a product (`claude`, `cursor`, `gemini`, `codex`, `copilot`, ...) or an object (a tool schema with `name`, `description`, `parameters`). These entries are left out of what the skill needs.",
    why: "Hosts that read `tools` on a skill, as on an agent, read tool names: a product or a schema matches no tool, so a reader would call the skill unavailable everywhere. The list most likely says which products the skill supports, or documents a tool.",
    example: "tools: [claude, cursor, gemini]\n\nFix: say which products it supports under metadata:\nmetadata:\n  products: \"claude cursor gemini\"\nand list tool names in tools (or dependencies.tools) only.",
    fix: None,
};

pub(crate) const UNDEFINED_SKILL_TOOL: RuleDoc = RuleDoc {
    code: "SA326",
    name: "undefined-skill-tool",
    severity: Severity::Warning,
    summary: "SKILL.md `tools` names a tool no host defines",
    what: "An entry of a SKILL.md's agent-style `tools` list is a bare name that no built-in host defines (not a VS Code, GitHub Copilot or Claude Code tool, tool set or alias), such as the API tool types `computer`, `text_editor` or `bash_20250124` that some catalogues copy. It is reported once, here, and not judged on any profile (the skill is not called unavailable for it), unless a profile of the run (one of its MCP servers) has a tool of that name.",
    why: "A host that reads `tools` grants tools by name: a name that is no host's tool matches nothing, so the skill looks as if it needs something no environment can give.",
    example: "tools: [computer, Read]\n\nFix: list the host's tools the skill uses (`Read`, `Bash`), or the MCP server tool (`server/tool`).",
    fix: None,
};

/// A skill's agent-style `tools` list (in the frontmatter `root`): the `products` the
/// evaluation took out of what the skill needs (one finding, at the first). Returns the
/// remaining `tools` that no built-in host defines, each with where it is written, for
/// [`undefined_skill_tools`].
pub(crate) fn check_skill_tools(
    root: Option<&Node>,
    tools: Option<&[String]>,
    products: &[String],
    sink: &mut Sink,
) -> Vec<(String, Pos)> {
    let Some(list) = root.and_then(|r| r.get("tools")) else {
        return Vec::new();
    };
    // Where each name is first written, gathered once: a list may hold thousands.
    let mut written: foldhash::HashMap<&str, Pos> = foldhash::HashMap::default();
    for item in list.as_seq().into_iter().flatten() {
        if let Some(name) = item.as_str() {
            written.entry(name.trim()).or_insert(item.pos);
        }
    }
    let pos_of = |name: &str| written.get(name).copied().unwrap_or(list.pos);
    if let Some(first) = products.first() {
        products_as_tools(sink, pos_of(first), products);
    }
    tools
        .unwrap_or_default()
        .iter()
        .filter(|t| crate::evaluate::undefined_tool(t, &[]))
        .map(|t| (t.clone(), pos_of(t)))
        .collect()
}

/// SA326 for each of `skill`'s agent-style `tools` that neither a built-in host nor any of
/// the run's `profiles` defines.
pub(crate) fn undefined_skill_tools(
    skill: &crate::model::Skill,
    profiles: &[crate::profile::Profile],
    out: &mut Vec<Finding>,
) {
    for (tool, pos) in &skill.fields.undefined_tools {
        if crate::evaluate::undefined_tool(tool, profiles) {
            out.push(Finding::new(
                Rule::UndefinedSkillTool,
                &skill.path,
                *pos,
                format!(
                    "{} is not a tool of VS Code, GitHub Copilot or Claude Code, nor of any profile's servers, so no profile judges it; name the host's tool (`Read`, `edit`, `execute`) or the MCP server's (`server/tool`)",
                    quote(tool)
                ),
            )
            .about(tool));
        }
    }
}

/// A skill's `tools` list names `products` (the first at `pos`).
fn products_as_tools(sink: &mut Sink, pos: Pos, products: &[String]) {
    let (what, them, they) = if products.len() == 1 {
        ("a product", "it", "it is")
    } else {
        ("products", "them", "they are")
    };
    sink.push(
        Rule::NotToolNames,
        pos,
        format!(
            "`tools` names {what} ({}), not tools: hosts do not read {them} as tool names, so {they} left out of what the skill needs; say which products the skill supports under `metadata`, as one string (`products: \"a, b\"`: its values are strings)",
            crate::diagnostic::quoted(products)
        ),
    );
}

/// An entry of a skill's `tools` list (at `pos`) is `what` (an object).
pub(crate) fn not_tool_schema(sink: &mut Sink, pos: Pos, what: &str) {
    sink.push(
        Rule::NotToolNames,
        pos,
        format!(
            "this entry is {what} (a tool schema?), not a tool name: hosts do not read it as a tool, so it is left out of what the skill needs; list tool names only"
        ),
    );
}

pub(crate) const DIALECT_SHAPE: RuleDoc = RuleDoc {
    code: "SA309",
    name: "dialect-shape",
    severity: Severity::Warning,
    summary: "A requirement in OpenClaw, Hermes or Codex metadata has the wrong shape",
    what: "An entry of OpenClaw's `metadata.openclaw` (`requires.bins`, `anyBins`, `env`, `config`, `os`), Hermes' fields (`metadata.hermes.requires_tools`, `prerequisites`, `platforms`, ...) or Codex's `agents/openai.yaml` (`dependencies.tools`) has a shape or value its host does not read: not a list of names, an unknown key, an OS the host does not name.",
    why: "These hosts read their fields loosely and drop what they do not understand, so the requirement is silently not enforced: the skill is shown where it cannot run.",
    example: "metadata: {\"openclaw\": {\"os\": [\"macos\"], \"requires\": {\"npm\": [\"tiktoken\"]}}}\n\nFix: \"os\": [\"darwin\"], and requires may hold bins, anyBins, env and config only.",
    fix: None,
};

fn dialect(source: Origin) -> &'static str {
    match source {
        Origin::Openclaw => "OpenClaw",
        Origin::Hermes => "Hermes",
        Origin::Codex => "Codex",
        _ => "its host",
    }
}

/// `node`, at `field` of a dialect, is not `expected`.
pub(crate) fn dialect_shape(
    sink: &mut Sink,
    node: &Node,
    source: Origin,
    field: &str,
    expected: &str,
) {
    sink.push(
        Rule::DialectShape,
        node.pos,
        format!(
            "`{field}` must be {expected}, found {}; {} does not read it, so the requirement is not enforced",
            node.kind(),
            dialect(source)
        ),
    );
}

/// `value`, at `field` of a dialect (at `pos`), is not one of `known`.
pub(crate) fn dialect_value(
    sink: &mut Sink,
    pos: Pos,
    source: Origin,
    field: &str,
    value: &str,
    known: &[&str],
) {
    sink.push(
        Rule::DialectShape,
        pos,
        format!(
            "{} does not know {} in `{field}`; it knows {}",
            dialect(source),
            quote(value),
            crate::diagnostic::quoted(known)
        ),
    );
}

/// `key`, under `field` of a dialect, is not one of `known`.
/// `up`: where the dialect reads the key instead (`clawdbot.os` for an `os` under
/// `clawdbot.requires`), said instead of what `field` holds.
pub(crate) fn dialect_unknown_key(
    sink: &mut Sink,
    key: &Node,
    source: Origin,
    field: &str,
    known: &[&str],
    up: Option<&str>,
) {
    let shown = key.scalar_text().unwrap_or_else(|| key.kind().to_owned());
    let advice = match up {
        // Deleting it would lose what the author meant to gate on.
        Some(up) => format!("move it up to `{up}`, where it is read"),
        None => format!("`{field}` holds {}", crate::diagnostic::quoted(known)),
    };
    sink.push(
        Rule::DialectShape,
        key.pos,
        format!(
            "{} ignores {} under `{field}`, so it is not enforced; {advice}",
            dialect(source),
            quote(&shown),
        ),
    );
}

pub(crate) const SIDECAR_UNREADABLE: RuleDoc = RuleDoc {
    code: "SA310",
    name: "sidecar-unreadable",
    severity: Severity::Warning,
    summary: "Codex's `agents/openai.yaml` cannot be read",
    what: "The `agents/openai.yaml` beside a SKILL.md is not UTF-8 or not valid YAML.",
    why: "Codex ignores a sidecar it cannot read (with a warning), so its interface and its MCP dependencies are lost; the skill still loads.",
    example: "dependencies:\n  tools: [\n\nFix: close the list, or write it as a block list.",
    fix: None,
};

/// The sidecar cannot be read: `why`, at `pos`.
pub(crate) fn sidecar_unreadable(sink: &mut Sink, pos: Pos, why: &str) {
    sink.push(
        Rule::SidecarUnreadable,
        pos,
        format!("Codex ignores this file: {why}"),
    );
}
// ---------------------------------------------------------------------------------------------
// Hooks (SA320-SA324) and `model` written as one string (SA325). The parser
// (`parse::hooks`) reads `hooks` and the file it names; the check here judges the events by the
// built-in hosts that would run them and looks for the scripts the commands name.

use std::path::Path;

use crate::boundary::Boundary;
use crate::evaluate;
use crate::model::{Agent, HookEvent, Hooks, Skill};
use crate::parse::hooks::{Bases, exists_exact, plugin_root, script_of};
use crate::profile::{Profile, builtin};

/// The hook events of a skill, judged by every built-in host that runs frontmatter hooks (a
/// skill may be used on any of them), and the scripts its commands name.
pub(crate) fn check_skill_hooks(skill: &Skill, boundary: &Boundary, sink: &mut Sink) {
    let Some(hooks) = &skill.fields.hooks else {
        return;
    };
    let hosts: Vec<&'static Profile> = builtin::hosts().iter().collect();
    let dir = skill.fs_path.parent().unwrap_or(Path::new(""));
    let bases = Bases {
        skill: Some(dir),
        relative: Some(dir),
        plugin: plugin_root(dir, boundary),
    };
    check_hooks(hooks, &hosts, &bases, sink);
}

/// The hook events of an agent, judged by the built-in hosts that load it, and the scripts
/// `${CLAUDE_PLUGIN_ROOT}` names (relative paths are relative to the project, which is not
/// known here).
pub(crate) fn check_agent_hooks(
    agent: &Agent,
    hooks: &Hooks,
    boundary: &Boundary,
    sink: &mut Sink,
) {
    let hosts: Vec<&'static Profile> = builtin::hosts()
        .iter()
        .filter(|p| evaluate::loads(p, agent))
        .collect();
    let dir = agent.fs_path.parent().unwrap_or(Path::new(""));
    let bases = Bases {
        skill: None,
        relative: None,
        plugin: plugin_root(dir, boundary),
    };
    check_hooks(hooks, &hosts, &bases, sink);
}

fn check_hooks(hooks: &Hooks, hosts: &[&'static Profile], bases: &Bases, sink: &mut Sink) {
    // Hosts that run no hooks from frontmatter have no list, and are not judged.
    let judges: Vec<Judge> = hosts
        .iter()
        .filter_map(|p| {
            let v = p.vocabulary.as_ref()?;
            (!v.hook_events.is_empty()).then(|| Judge {
                host: host_name(&v.host),
                profile: &p.name,
                events: &v.hook_events,
            })
        })
        .collect();
    for event in &hooks.events {
        if !judges.is_empty() {
            judge_event(event, hooks.file.as_deref(), &judges, sink);
        }
        for c in &event.commands {
            if let Some((script, base)) = script_of(c, bases)
                && exists_exact(&base.0, &script) == Some(false)
            {
                hook_script_missing(
                    sink,
                    c.pos,
                    &event.name,
                    hooks.file.as_deref(),
                    &script,
                    base.1,
                );
            }
        }
    }
}

/// How a host is named in messages.
fn host_name(host: &str) -> &'static str {
    match host {
        "claude-code" => "Claude Code",
        "vscode" => "VS Code",
        "github-copilot" => "GitHub Copilot",
        _ => "a host",
    }
}

/// A built-in host that judges hook events: how messages name it, its profile, its events.
struct Judge {
    host: &'static str,
    profile: &'static str,
    events: &'static [String],
}

/// The GitHub Copilot CLI's event names (in its `.github/hooks/*.json` files), with the name
/// Claude Code and VS Code give the same event, where they have one.
const COPILOT_CLI_EVENTS: &[(&str, Option<&str>)] = &[
    ("sessionStart", Some("SessionStart")),
    ("sessionEnd", Some("SessionEnd")),
    ("userPromptSubmitted", Some("UserPromptSubmit")),
    ("preToolUse", Some("PreToolUse")),
    ("postToolUse", Some("PostToolUse")),
    ("postToolUseFailure", Some("PostToolUseFailure")),
    ("permissionRequest", Some("PermissionRequest")),
    ("agentStop", Some("Stop")),
    ("subagentStart", Some("SubagentStart")),
    ("subagentStop", Some("SubagentStop")),
    ("preCompact", Some("PreCompact")),
    ("notification", Some("Notification")),
    ("errorOccurred", None),
];

fn judge_event(event: &HookEvent, file: Option<&str>, judges: &[Judge], sink: &mut Sink) {
    let (knows, ignores): (Vec<&Judge>, Vec<&Judge>) =
        judges.iter().partition(|j| j.events.contains(&event.name));
    if knows.is_empty() {
        let cli = COPILOT_CLI_EVENTS.iter().find(|(n, _)| *n == event.name);
        let all = judges
            .iter()
            .flat_map(|j| j.events.iter().map(String::as_str));
        let near = match cli {
            Some((_, same)) => *same,
            None => crate::typos::typo_of(&event.name, all, str::to_lowercase),
        };
        // The suggestion, with the hosts that have it (none: no suggestion).
        let suggestion = near.and_then(|t| {
            let hosts: Vec<&str> = judges
                .iter()
                .filter(|j| j.events.iter().any(|e| e == t))
                .map(|j| j.host)
                .collect();
            (!hosts.is_empty()).then_some((t, hosts))
        });
        unknown_hook_event(sink, event, file, judges, suggestion, cli.is_some());
    } else if !ignores.is_empty() {
        let knows: Vec<&str> = knows.iter().map(|j| j.host).collect();
        let ignores: Vec<&str> = ignores.iter().map(|j| j.host).collect();
        hook_event_host_specific(sink, event, file, &knows, &ignores);
    }
}

pub(crate) const ONLY_IN_DIALECT: RuleDoc = RuleDoc {
    code: "SA311",
    name: "requirements-only-in-dialect",
    severity: Severity::Info,
    summary: "The tools a skill needs are declared only in a host's dialect, not in `dependencies`",
    what: "A skill without a `dependencies` key declares tools it needs only in a host's own dialect: MCP servers in Codex's `agents/openai.yaml`, or tools in Hermes' `metadata.hermes.requires_tools`. skill-audit judges them either way. Reported only in a library where some skill already declares in `dependencies`: no host reads the proposal yet, and strict validators (skills-ref, claude.ai uploads) reject a skill with that key.",
    why: "Validators and hosts that read the proposed `dependencies` field see a skill that needs nothing. Declaring the same tools there too makes the skill speak the proposal as well as its host's dialect.",
    example: "skills/figma/agents/openai.yaml: dependencies: {tools: [{type: mcp, value: figma}]}\n\nFix: in skills/figma/SKILL.md\ndependencies:\n  tools:\n    - figma/*",
    fix: Some(FixDoc {
        applicability: Applicability::Unsafe,
        what: "Add `dependencies:` with `tools:` at the end of the frontmatter: `server/*` for each Codex MCP server, Hermes' required tools as named. OpenClaw's executables, variables and OSes have no kind in the proposal and are left out. Unsafe: readers of the proposal then enforce what the skill declares.",
    }),
};

/// Whether some skill of the library declares in the proposed `dependencies` field (its
/// `tools`, `resources` or `prompts`, not a package list). Only then does advice or a fix add
/// the key: no host reads it yet, and strict validators (skills-ref, claude.ai uploads) reject a
/// skill with a top-level key outside the spec.
pub(crate) fn library_uses_proposal(skills: &[Box<crate::model::Skill>]) -> bool {
    skills.iter().any(|s| {
        s.requirements
            .iter()
            .any(|d| d.source == Origin::Dependencies)
    })
}

/// A `dependencies` key listing `tools`, each needed, and `one_of`, of which one is (`any`),
/// for a fix to add to a frontmatter whose line break is `brk`. A bare list where all are
/// needed, as the proposal reads it. In block style: strict validators (skills-ref) reject
/// flow lists.
pub(crate) fn dependencies_key<S: AsRef<str>>(tools: &[S], one_of: &[S], brk: &str) -> String {
    if one_of.is_empty() {
        return span::block_lists(0, &["dependencies"], &[("tools", tools)], brk);
    }
    let lists: Vec<(&str, &[S])> = [("all", tools), ("any", one_of)]
        .into_iter()
        .filter(|(_, l)| !l.is_empty())
        .collect();
    span::block_lists(0, &["dependencies", "tools"], &lists, brk)
}

/// The finding for a skill whose tool needs are only in Codex's or Hermes' dialect.
pub(crate) fn only_in_dialect(skill: &crate::model::Skill) -> Option<crate::diagnostic::Finding> {
    let end = skill.fields.frontmatter_end?;
    if skill.invalid || end.has_dependencies {
        return None;
    }
    let mut tools: Vec<&str> = Vec::new();
    let mut sources: Vec<&str> = Vec::new();
    for d in &skill.requirements {
        if !matches!(d.source, Origin::Codex | Origin::Hermes)
            || d.requirements.tools.all.is_empty()
        {
            continue;
        }
        sources.push(match d.source {
            Origin::Codex => "Codex's `agents/openai.yaml`",
            _ => "Hermes' `metadata.hermes.requires_tools`",
        });
        for t in &d.requirements.tools.all {
            if !tools.contains(&t.as_str()) {
                tools.push(t);
            }
        }
    }
    if tools.is_empty() {
        return None;
    }
    let content = dependencies_key(&tools, &[], end.line_break());
    let edit = crate::diagnostic::Edit::insert_at_line(end.offset, end.line, content)?;
    let fix = Fix::unsafe_edits("add `dependencies` with the same tools", vec![edit]);
    Some(
        crate::diagnostic::Finding::new(
            Rule::OnlyInDialect,
            &skill.path,
            skill.name_pos,
            format!(
                "the skill needs {} only in {}; readers of the proposed `dependencies` field see no needs, so declare them there too",
                crate::diagnostic::quoted(&tools),
                sources.join(" and ")
            ),
        )
        .with_fix(Some(fix)),
    )
}

pub(crate) const HOOKS_FILE_MISSING: RuleDoc = RuleDoc {
    code: "SA320",
    name: "hooks-file-missing",
    severity: Severity::Warning,
    summary: "`hooks` names a file that is not in the skill's folder",
    what: "`hooks` is a path (`hooks: ./hooks/hooks.json`) that names no file in the skill's (or agent's) folder, or a file skill-audit refuses to read: one outside that folder or the audited tree (also through a link), or not a regular file. A refused file is not read.",
    why: "The hooks are never registered: the skill loads, but what the hooks were meant to enforce or log does not happen.",
    example: "hooks: ./hook.json\nwhen the file is hooks/hooks.json.\n\nFix: hooks: ./hooks/hooks.json",
    fix: None,
};

/// `hooks` (at `pos`) of a skill or agent (`owner`) names `file`, which does not exist.
pub(crate) fn hooks_file_missing(sink: &mut Sink, pos: Pos, owner: &str, file: &str) {
    sink.push(
        Rule::HooksFileMissing,
        pos,
        format!(
            "`hooks` names {}, which is not a file in the {owner}'s folder; its hooks are never registered",
            quote(file)
        ),
    );
}

/// `hooks` (at `pos`) of a skill or agent (`owner`) names `file`, which is not read because
/// of `why`.
pub(crate) fn hooks_file_refused(sink: &mut Sink, pos: Pos, owner: &str, file: &str, why: &str) {
    sink.push(
        Rule::HooksFileMissing,
        pos,
        format!(
            "`hooks` names {}, which was not read: {why}; keep the hooks file inside the {owner}'s folder",
            quote(file)
        ),
    );
}

pub(crate) const HOOKS_INVALID: RuleDoc = RuleDoc {
    code: "SA321",
    name: "hooks-invalid",
    severity: Severity::Warning,
    summary: "The hooks (inline or in the named file) are not JSON or have the wrong shape",
    what: "The file `hooks` names is not valid JSON (the message gives its line and column), or the hooks, inline or in the file, do not have the shape hosts read: a mapping of event names to lists, each entry a handler (`{type: command, command, ...}`, VS Code) or a matcher group (`{matcher, hooks: [handler]}`, Claude Code), a file wrapping them in `{\"hooks\": ...}`.",
    why: "A host cannot register hooks it cannot read: the file, or the wrongly shaped entries, are dropped.",
    example: "hooks:\n  PreToolUse: ./scripts/check.sh\n\nFix:\nhooks:\n  PreToolUse:\n    - type: command\n      command: ./scripts/check.sh",
    fix: None,
};

/// The JSON of `file` (named by `hooks` at `pos`) does not parse at `line`:`column`.
pub(crate) fn hooks_file_not_json(
    sink: &mut Sink,
    pos: Pos,
    file: &str,
    line: usize,
    column: usize,
    message: &str,
) {
    sink.push(
        Rule::HooksInvalid,
        pos,
        format!(
            "hooks file {} is not valid JSON: {file}:{line}:{column}: {message}",
            quote(file)
        ),
    );
}

/// `at` (a path such as `hooks.PreToolUse[0]`), inline or in `file`, is `found` where
/// `expected` belongs.
pub(crate) fn hooks_shape(
    sink: &mut Sink,
    pos: Pos,
    file: Option<&str>,
    at: &str,
    expected: &str,
    found: &str,
) {
    let place = file
        .map(|f| format!(" in {}", quote(f)))
        .unwrap_or_default();
    sink.push(
        Rule::HooksInvalid,
        pos,
        format!(
            "{}{place} must be {expected}, found {found}; hosts drop what they cannot read",
            quote(at)
        ),
    );
}

pub(crate) const UNKNOWN_HOOK_EVENT: RuleDoc = RuleDoc {
    code: "SA322",
    name: "unknown-hook-event",
    severity: Severity::Warning,
    summary: "A hook event no host knows",
    what: "A hook event of `hooks` (inline or in the named file) is not an event of any built-in host that would run it: for a skill, every host with hook events (Claude Code, VS Code); for an agent, the hosts that load it. Event names are matched exactly; a near miss gets a suggestion, a name that differs only in case is asked to take the hosts' spelling, and the GitHub Copilot CLI's names (`userPromptSubmitted`, for its `.github/hooks/*.json` files) are recognised and given the hosts' name. GitHub Copilot runs hooks only from `.github/hooks/*.json`, not from frontmatter, so it does not judge.",
    why: "Hosts ignore an event they do not have without a word: its hooks never run.",
    example: "hooks:\n  sessionStart: [...]\n\nFix: hooks:\n  SessionStart: [...]",
    fix: None,
};

/// `event` is an event none of `judges` knows; `typo` is the nearest event name.
fn unknown_hook_event(
    sink: &mut Sink,
    event: &HookEvent,
    file: Option<&str>,
    judges: &[Judge],
    suggestion: Option<(&str, Vec<&str>)>,
    copilot_cli: bool,
) {
    let name = &event.name;
    let notes: Vec<String> = file
        .map(|f| format!("in {}", quote(f)))
        .into_iter()
        .chain(copilot_cli.then(|| {
            "the GitHub Copilot CLI's name, for its `.github/hooks/*.json` files".to_owned()
        }))
        .collect();
    let place = if notes.is_empty() {
        String::new()
    } else {
        format!(" ({})", notes.join("; "))
    };
    // Only the case differs: whether a host folds case is not documented, so the message
    // asks for the hosts' spelling without claiming the hooks never run.
    if let Some((t, hosts)) = suggestion
        .as_ref()
        .filter(|(t, _)| t.eq_ignore_ascii_case(name))
    {
        sink.push(
            Rule::UnknownHookEvent,
            event.pos,
            format!(
                "{}{place} is spelt {t} in the hook events of {}; write {t}: a host that matches event names exactly never runs these hooks",
                quote(name),
                hosts.join(" and "),
                t = quote(t)
            ),
        );
        return;
    }
    let hosts: Vec<&str> = judges.iter().map(|j| j.host).collect();
    let lists: Vec<String> = judges
        .iter()
        .map(|j| {
            // Long lists are counted, not spelt out: `skill-audit profiles NAME` shows them.
            if j.events.len() <= 10 {
                format!("{}: {}", j.host, j.events.join(", "))
            } else {
                format!(
                    "{}: {} events, listed by `skill-audit profiles {}`",
                    j.host,
                    j.events.len(),
                    j.profile
                )
            }
        })
        .collect();
    let hint = match suggestion {
        Some((t, hosts)) if copilot_cli => {
            format!("; {} call it {}", hosts.join(" and "), quote(t))
        }
        Some((t, _)) => format!("; did you mean {}?", quote(t)),
        None => String::new(),
    };
    sink.push(
        Rule::UnknownHookEvent,
        event.pos,
        format!(
            "{}{place} is not a hook event of {} ({}), so its hooks never run{hint}",
            quote(name),
            hosts.join(" or "),
            lists.join("; ")
        ),
    );
}

pub(crate) const HOOK_EVENT_HOST_SPECIFIC: RuleDoc = RuleDoc {
    code: "SA323",
    name: "hook-event-host-specific",
    severity: Severity::Info,
    summary: "A hook event only some hosts have",
    what: "A hook event that some of the built-in hosts that would run the hooks have and others do not (Claude Code has many more events than VS Code's eight). The message names the host that ignores it.",
    why: "The hook runs on one host and silently not on the other; fine when the skill or agent targets that host, worth knowing when it is meant to be portable.",
    example: "hooks:\n  PostToolUseFailure: [...]\non a Claude-format agent, which VS Code also loads.\n\nFix: nothing required; use an event both hosts have (PostToolUse) if the hook must run on both.",
    fix: None,
};

/// `event` is known to the hosts `knows` and not to `ignores`.
fn hook_event_host_specific(
    sink: &mut Sink,
    event: &HookEvent,
    file: Option<&str>,
    knows: &[&str],
    ignores: &[&str],
) {
    let place = file
        .map(|f| format!(" (in {})", quote(f)))
        .unwrap_or_default();
    let verb = if ignores.len() == 1 { "has" } else { "have" };
    sink.push(
        Rule::HookEventHostSpecific,
        event.pos,
        format!(
            "{}{place} is a hook event of {} only; {} {verb} no such event and will not run its hooks",
            quote(&event.name),
            knows.join(" and "),
            ignores.join(" and "),
        ),
    );
}

pub(crate) const HOOK_SCRIPT_MISSING: RuleDoc = RuleDoc {
    code: "SA324",
    name: "hook-script-missing",
    severity: Severity::Warning,
    summary: "A hook command runs a script that is not there",
    what: "A command handler runs a script of the skill or plugin (`${CLAUDE_SKILL_DIR}/scripts/x.sh`, `${CLAUDE_PLUGIN_ROOT}/hooks/x.sh`, `bash scripts/x.sh`, `python3 scripts/x.py`) that does not exist, spelt exactly so. A relative path is judged only when its first folder is one of the skill's own, since hosts run hook commands from the project; a handler with `cwd`, and paths under other variables, are not judged. The script is looked for, never read or run.",
    why: "The hook fails each time its event fires (a blocking hook may then block the tool or prompt it guards).",
    example: "command: ${CLAUDE_SKILL_DIR}/scripts/Check.sh\nwhen the file is scripts/check.sh.\n\nFix: command: ${CLAUDE_SKILL_DIR}/scripts/check.sh",
    fix: None,
};

/// A command of the hooks of `event` (inline, or in `file`) runs `script`, which is not in
/// `base` (how messages name the folder).
fn hook_script_missing(
    sink: &mut Sink,
    pos: Pos,
    event: &str,
    file: Option<&str>,
    script: &Path,
    base: &str,
) {
    let script = script.to_string_lossy().replace('\\', "/");
    let place = file
        .map(|f| format!(" (in {})", quote(f)))
        .unwrap_or_default();
    sink.push(
        Rule::HookScriptMissing,
        pos,
        format!(
            "the {} hook{place} runs {}, which is not in {base} (names are matched exactly); the hook fails each time it fires",
            quote(event),
            quote(&script)
        ),
    );
}

pub(crate) const MODEL_LIST_IN_STRING: RuleDoc = RuleDoc {
    code: "SA325",
    name: "model-list-in-string",
    severity: Severity::Warning,
    summary: "`model` holds several names in one string",
    what: "`model` is one string that separates several model names with `|` or `,` (`model: GPT-4.1 | 'Claude Sonnet 4.5'`). Hosts read it as one name, which names no model.",
    why: "The host finds no model of that name and ignores the field, so none of the models listed is used.",
    example: "model: GPT-4.1 | 'Claude Sonnet 4.5'\n\nFix: model: [GPT-4.1, Claude Sonnet 4.5]",
    fix: None,
};

/// The `model` string `value` (at `pos`) lists `known`, names one of `hosts` lists (as it
/// spells them), and `unknown`, names none of them lists.
pub(crate) fn model_list_in_string(
    sink: &mut Sink,
    pos: Pos,
    value: &str,
    known: &[String],
    unknown: &[String],
    hosts: &[&str],
) {
    let advice = if known.is_empty() {
        format!(
            "none of {} is a model {} lists",
            crate::diagnostic::quoted(unknown),
            hosts.join(" or ")
        )
    } else if unknown.is_empty() {
        format!(
            "use a list: {}",
            quote(&format!("model: [{}]", known.join(", ")))
        )
    } else {
        format!(
            "use a list: {} ({} {} no model {} lists)",
            quote(&format!("model: [{}]", known.join(", "))),
            crate::diagnostic::quoted(unknown),
            if unknown.len() == 1 { "is" } else { "are" },
            hosts.join(" or ")
        )
    };
    sink.push(
        Rule::ModelListInString,
        pos,
        format!(
            "{} is one string naming no model; {advice}",
            quote(&format!("model: {value}"))
        ),
    );
}

/// The names a `model` string separates with `|` or `,`, quotes dropped, when it holds more
/// than one.
pub(crate) fn names_in_model_string(value: &str) -> Option<Vec<String>> {
    if !value.contains(['|', ',']) {
        return None;
    }
    let names: Vec<String> = value
        .split(['|', ','])
        .map(|n| n.trim().trim_matches(['\'', '"']).trim().to_owned())
        .filter(|n| !n.is_empty())
        .collect();
    (names.len() > 1).then_some(names)
}
