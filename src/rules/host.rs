//! SA7xx: tool names judged against a host's vocabulary (built-in host profiles).

use super::RuleDoc;
use crate::diagnostic::{Finding, Severity, quoted};
use crate::model::Agent;
use crate::profile::{Profile, Verdict};
use crate::rules::Rule;

/// Renamed and unknown tool names of each agent, for every host profile in the run.
pub(crate) fn check(agents: &[Agent], profiles: &[Profile], out: &mut Vec<Finding>) {
    for p in profiles.iter().filter(|p| p.vocabulary.is_some()) {
        for a in agents {
            for t in a.tools.iter().flatten() {
                match p.verdict(t) {
                    Verdict::Known => {}
                    Verdict::Renamed(new) => out.push(renamed_tool(a, t, &p.name, &new)),
                    Verdict::Unknown => out.push(unknown_tool(a, t, &p.name)),
                }
            }
        }
    }
}

pub(crate) const RENAMED_TOOL: RuleDoc = RuleDoc {
    code: "SA701",
    name: "renamed-tool",
    severity: Severity::Warning,
    summary: "An agent uses a tool name the host has renamed",
    what: "An agent's `tools` list uses a legacy tool name that the host (a built-in profile such as `builtin:vscode`) has renamed. The message names the replacement.",
    why: "Hosts map some old names for now, but skills and agents that mix old and new names drift apart, and the old names are being dropped.",
    example: "tools: [runCommands, codebase]\n\nFix: tools: [execute/getTerminalOutput, execute/runInTerminal, read/terminalLastCommand, read/terminalSelection, search/codebase]",
};

/// `tool`, in the `tools` of `agent`, is named `new` on the host `profile`.
fn renamed_tool(agent: &Agent, tool: &str, profile: &str, new: &[String]) -> Finding {
    Finding::new(
        Rule::RenamedTool,
        &agent.path,
        agent.tools_pos,
        format!(
            "`{tool}` has been renamed on {profile}; use {}",
            quoted(new)
        ),
    )
}

pub(crate) const UNKNOWN_TOOL: RuleDoc = RuleDoc {
    code: "SA702",
    name: "unknown-tool",
    severity: Severity::Warning,
    summary: "An agent uses a tool name the host does not know",
    what: "An agent's `tools` list names a tool the host does not know. MCP and extension tools (`server/tool`, `publisher.ext/tool`) are only judged when the profile lists servers.",
    why: "Hosts drop unknown tool names without a word, so the agent silently loses the capability.",
    example: "tools: [think]\non builtin:vscode.\n\nFix: remove it or use the current name.",
};

/// `tool`, in the `tools` of `agent`, is no tool of the host `profile`.
fn unknown_tool(agent: &Agent, tool: &str, profile: &str) -> Finding {
    Finding::new(
        Rule::UnknownTool,
        &agent.path,
        agent.tools_pos,
        format!("`{tool}` is not a tool {profile} knows; it will be silently dropped"),
    )
}
