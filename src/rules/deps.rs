//! SA3xx: the `dependencies` field and the agent-style capability fields on SKILL.md. These are
//! reported by `parse::dependencies` and `parse::skill` as they read the fields; a skill with an
//! SA301-SA303 or SA306 error cannot be evaluated and is reported `invalid`.

use super::RuleDoc;
use crate::diagnostic::Severity;

pub const DEPENDENCIES_TYPE: RuleDoc = RuleDoc {
    code: "SA301",
    name: "dependencies-type",
    severity: Severity::Error,
    summary: "`dependencies` or one of its types has the wrong shape",
    what: "`dependencies` is not a mapping, or a type under it (`tools`, `resources`, `prompts`) is neither a list nor a mapping of `all`/`any` lists.",
    why: "Hosts that evaluate dependencies cannot read a wrong shape, so the skill's prerequisites are unknown and it cannot be checked.",
    example: "dependencies:\n  tools: get_order\n\nFix:\ndependencies:\n  tools: [get_order]",
};
pub const DEPENDENCY_ENTRY_TYPE: RuleDoc = RuleDoc {
    code: "SA302",
    name: "dependency-entry-type",
    severity: Severity::Error,
    summary: "A dependency entry is not a string",
    what: "An entry of an `all` or `any` list is not a non-empty string.",
    why: "Names are matched against the environment's tool, resource and prompt names; a number or mapping matches nothing.",
    example: "dependencies:\n  tools:\n    all: [get_order, {name: x}]\n\nFix: all: [get_order, x]",
};
pub const DEPENDENCY_UNKNOWN_GROUP: RuleDoc = RuleDoc {
    code: "SA303",
    name: "dependency-unknown-group",
    severity: Severity::Error,
    summary: "A key under a dependency type is not `all` or `any`",
    what: "A key under a dependency type is neither `all` nor `any`.",
    why: "Only `all` (every entry required) and `any` (one entry required) have a meaning; anything else is most likely a typo that drops a requirement.",
    example: "dependencies:\n  tools:\n    alll: [get_order]\n\nFix: all: [get_order]",
};
pub const DEPENDENCY_EMPTY_ANY: RuleDoc = RuleDoc {
    code: "SA304",
    name: "dependency-empty-any",
    severity: Severity::Warning,
    summary: "An `any` group is empty",
    what: "An `any` list is empty.",
    why: "An empty `any` requires nothing, which is rarely what was meant.",
    example: "dependencies:\n  tools:\n    any: []\n\nFix: list the alternatives, e.g. any: [dispute_chargeback, dispute_chargeback_v2], or remove it.",
};
pub const DEPENDENCY_UNKNOWN_TYPE: RuleDoc = RuleDoc {
    code: "SA305",
    name: "dependency-unknown-type",
    severity: Severity::Warning,
    summary: "A dependency type other than tools, resources or prompts",
    what: "A key under `dependencies` other than `tools`, `resources` and `prompts`.",
    why: "It is ignored when evaluating (so skills stay forward compatible), which also means it checks nothing today.",
    example: "dependencies:\n  widgets: [chart]\n\nFix: remove it, or express the need as a tool, resource or prompt.",
};
pub const CAPABILITY_FIELD_TYPE: RuleDoc = RuleDoc {
    code: "SA306",
    name: "capability-field-type",
    severity: Severity::Error,
    summary: "`tools`, `mcp-servers`, `hooks` or `model` has the wrong shape",
    what: "An agent-style field on SKILL.md has the wrong shape: `tools` not a list or comma/space string, `mcp-servers` not a mapping or list of names, `hooks` not a mapping, `model` not a name or list.",
    why: "Without `dependencies`, a skill's `tools` and `mcp-servers` are what it needs; if they cannot be read the skill cannot be checked against agents or environments.",
    example: "tools: {read: true}\n\nFix: tools: [read, search]",
};
