//! SA3xx: the `dependencies` field and the agent-style capability fields on SKILL.md (and the
//! same fields on agents). `parse::dependencies`, `parse::skill` and `parse::agent` find these
//! as they read the fields and call the constructors here; a skill with an SA301-SA303 or
//! SA306 error cannot be evaluated and is reported `invalid`.

use super::{NameShape, Rule, RuleDoc};
use crate::diagnostic::{Pos, Severity, Sink};
use crate::model::DepKind;
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
