//! SA3xx: the `dependencies` field and the agent-style capability fields on SKILL.md (and the
//! same fields on agents). `parse::dependencies`, `parse::skill` and `parse::agent` find these
//! as they read the fields and call the constructors here; a skill with an SA301-SA303 or
//! SA306 error cannot be evaluated and is reported `invalid`.

use super::{NameShape, Rule, RuleDoc};
use crate::diagnostic::{Pos, Severity, Sink};
use crate::model::{DepKind, Source};
use crate::parse::yaml::Node;

pub(crate) const DEPENDENCIES_TYPE: RuleDoc = RuleDoc {
    code: "SA301",
    name: "dependencies-type",
    severity: Severity::Error,
    summary: "`dependencies` or one of its types has the wrong shape",
    what: "`dependencies` is not a mapping, or a type under it (`tools`, `resources`, `prompts`) is neither a list nor a mapping of `all`/`any` lists.",
    why: "Hosts that evaluate dependencies cannot read a wrong shape, so the skill's prerequisites are unknown and it cannot be checked.",
    example: "dependencies:\n  tools: get_order\n\nFix:\ndependencies:\n  tools: [get_order]",
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
};

/// `key`, under a dependency type, is neither `all` nor `any`.
pub(crate) fn dependency_unknown_group(sink: &mut Sink, kind: DepKind, key: &Node) {
    sink.push(
        Rule::DependencyUnknownGroup,
        key.pos,
        format!(
            "`{}` may only hold `all` and `any`, found `{}`",
            field(kind, None),
            key.scalar_text().unwrap_or_else(|| key.kind().to_owned())
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
            "unknown dependency type `{shown}` is ignored; known types are `tools`, `resources` and `prompts`"
        ),
    );
}

pub(crate) const CAPABILITY_FIELD_TYPE: RuleDoc = RuleDoc {
    code: "SA306",
    name: "capability-field-type",
    severity: Severity::Error,
    summary: "`tools`, `mcp-servers`, `hooks` or `model` has the wrong shape",
    what: "An agent-style field on SKILL.md has the wrong shape: `tools` not a list or comma/space string, `mcp-servers` not a mapping or list of names, `hooks` not a mapping, `model` not a name or list.",
    why: "Without `dependencies`, a skill's `tools` and `mcp-servers` are what it needs; if they cannot be read the skill cannot be checked against agents or environments.",
    example: "tools: {read: true}\n\nFix: tools: [read, search]",
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
            "`hooks` must be a mapping of event names to handlers, found {}",
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
    summary: "`dependencies` is a list of Python packages",
    what: "`dependencies` is a list of PEP 508 requirement strings (`crewai>=1.2.0`), the shape some catalogues use for the Python distributions a skill's scripts import. The packages are checked against a profile's `packages`.",
    why: "The proposed `dependencies` field is a mapping of `tools`, `resources` and `prompts`: a host or validator that reads the proposal sees a list and cannot tell packages from tools. Every host still loads the skill.",
    example: "dependencies: [crewai>=1.2.0, crewai-tools]\n\nFix: move the list under metadata (a string, as the spec wants):\nmetadata:\n  python-packages: \"crewai>=1.2.0 crewai-tools\"\nand declare tools the proposal's way if the skill needs any:\ndependencies:\n  tools: [get_order]",
};

/// `dependencies` (`value`) is a list of `n` PEP 508 requirements.
pub(crate) fn package_list(sink: &mut Sink, value: &Node, n: usize) {
    sink.push(
        Rule::PackageList,
        value.pos,
        format!(
            "`dependencies` is a list of {n} Python package{}, read as packages; the proposed field is a mapping (`dependencies: {{tools: [...]}}`), so move the packages under `metadata` or declare tools there",
            if n == 1 { "" } else { "s" }
        ),
    );
}

pub(crate) const NOT_TOOL_NAMES: RuleDoc = RuleDoc {
    code: "SA308",
    name: "not-tool-names",
    severity: Severity::Warning,
    summary: "SKILL.md `tools` lists products or tool schemas, not tool names",
    what: "An entry of a SKILL.md's agent-style `tools` list is a product (`claude`, `cursor`, `gemini`, `codex`, `copilot`, ...) or an object (a tool schema with `name`, `description`, `parameters`). These entries are left out of what the skill needs.",
    why: "Hosts that read `tools` on a skill, as on an agent, read tool names: a product or a schema matches no tool, so a reader would call the skill unavailable everywhere. The list most likely says which products the skill supports, or documents a tool.",
    example: "tools: [claude, cursor, gemini]\n\nFix: say which products it supports under metadata:\nmetadata:\n  products: \"claude cursor gemini\"\nand list tool names in tools (or dependencies.tools) only.",
};

/// A skill's `tools` list names `products` (the first at `pos`).
pub(crate) fn products_as_tools(sink: &mut Sink, pos: Pos, products: &[String]) {
    let (what, them, they) = if products.len() == 1 {
        ("a product", "it", "it is")
    } else {
        ("products", "them", "they are")
    };
    sink.push(
        Rule::NotToolNames,
        pos,
        format!(
            "`tools` names {what} ({}), not tools: hosts do not read {them} as tool names, so {they} left out of what the skill needs; say which products the skill supports under `metadata`",
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
};

fn dialect(source: Source) -> &'static str {
    match source {
        Source::Openclaw => "OpenClaw",
        Source::Hermes => "Hermes",
        Source::Codex => "Codex",
        _ => "its host",
    }
}

/// `node`, at `field` of a dialect, is not `expected`.
pub(crate) fn dialect_shape(
    sink: &mut Sink,
    node: &Node,
    source: Source,
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
    source: Source,
    field: &str,
    value: &str,
    known: &[&str],
) {
    sink.push(
        Rule::DialectShape,
        pos,
        format!(
            "{} does not know `{value}` in `{field}`; it knows {}",
            dialect(source),
            crate::diagnostic::quoted(known)
        ),
    );
}

/// `key`, under `field` of a dialect, is not one of `known`.
pub(crate) fn dialect_unknown_key(
    sink: &mut Sink,
    key: &Node,
    source: Source,
    field: &str,
    known: &[&str],
) {
    let shown = key.scalar_text().unwrap_or_else(|| key.kind().to_owned());
    sink.push(
        Rule::DialectShape,
        key.pos,
        format!(
            "{} ignores `{shown}` under `{field}`, so it is not enforced; `{field}` holds {}",
            dialect(source),
            crate::diagnostic::quoted(known)
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
};

/// The sidecar cannot be read: `why`, at `pos`.
pub(crate) fn sidecar_unreadable(sink: &mut Sink, pos: Pos, why: &str) {
    sink.push(
        Rule::SidecarUnreadable,
        pos,
        format!("Codex ignores this file: {why}"),
    );
}
