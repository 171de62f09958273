//! SA7xx: tool names judged against a host's vocabulary (built-in host profiles).

use super::RuleDoc;
use crate::diagnostic::{Finding, Severity, quoted};
use crate::evaluate::{self, Judged, ToolVerdict};
use crate::model::Agent;
use crate::profile::Profile;
use crate::rules::Rule;

/// Renamed and unknown tool names of each agent, for every profile in the run that runs on
/// a host which loads the agent.
pub(crate) fn check(agents: &[Agent], profiles: &[Profile], out: &mut Vec<Finding>) {
    for p in profiles.iter().filter(|p| p.vocabulary.is_some()) {
        for a in agents.iter().filter(|a| evaluate::loads(p, a)) {
            for t in a.tools.iter().flatten() {
                match evaluate::tool(p, Judged::Agent(a), t) {
                    ToolVerdict::Renamed(new) => out.push(renamed_tool(a, t, &p.name, &new)),
                    ToolVerdict::Unknown if !vocabulary_question(p, t) => {}
                    ToolVerdict::Unknown => out.push(unknown_tool(a, t, p, None)),
                    ToolVerdict::Unmapped(native) => out.push(unknown_tool(a, t, p, Some(&native))),
                    // Denied names are the environment's choice, not the agent's mistake:
                    // the availability rules report them.
                    ToolVerdict::Resolves | ToolVerdict::Denied | ToolVerdict::NotJudged => {}
                }
            }
        }
    }
}

/// Is an unknown `tool` on host profile `p` a question of the host's vocabulary (SA702), not
/// of what the environment's servers offer (SA402/SA403)? When the profile lists servers, a
/// name that could be one of their tools (not a built-in host's name) is an environment gap.
fn vocabulary_question(p: &Profile, tool: &str) -> bool {
    let Some(v) = &p.vocabulary else {
        return false;
    };
    if !v.has_servers {
        return true;
    }
    let bare = crate::profile::names::tool_of(tool);
    // A host's own name (this host's tool sets, or any built-in host's tools and legacy
    // names) cannot come from a server.
    v.in_tool_set(&crate::profile::names::canonical(bare))
        || crate::profile::builtin::any_defines(bare)
}

/// Does SA702 report `tool` of `agent` on `p`? The partial-agent finding leaves such names to
/// it, so one cause gives one finding.
pub(crate) fn reported_unknown(p: &Profile, agent: &Agent, tool: &str) -> bool {
    p.vocabulary.is_some()
        && match evaluate::tool(p, Judged::Agent(agent), tool) {
            ToolVerdict::Unknown => vocabulary_question(p, tool),
            ToolVerdict::Unmapped(_) => true,
            _ => false,
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
        agent.tool_pos(tool),
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
    what: "An agent's `tools` list names a tool the host does not know, on a profile whose host loads the agent (`.agent.md` on VS Code and GitHub Copilot, Claude-format agents on Claude Code and VS Code). On VS Code, a Claude Code tool name it does not map is reported too. MCP and extension tools (`server/tool`, `publisher.ext/tool`) are left to the profile's servers: when the profile lists servers, a name one of them could offer is reported as missing from the environment (SA402, SA403), not as unknown to the host.",
    why: "Hosts drop unknown tool names without a word, so the agent silently loses the capability.",
    example: "tools: [think]\non builtin:vscode.\n\nFix: remove it or use the current name.",
};

/// `tool`, in the `tools` of `agent`, is no tool of the host profile `p`; `native` names the
/// agent's own host when the tool is one of its tools that `profile`'s host does not map.
fn unknown_tool(agent: &Agent, tool: &str, p: &Profile, native: Option<&str>) -> Finding {
    let profile = &p.name;
    let lists_servers = p.vocabulary.as_ref().is_some_and(|v| v.has_servers);
    let message = match native {
        Some(native) => format!(
            "`{tool}` is a {native} tool that {profile} does not map to one of its own; it will be silently dropped"
        ),
        None if lists_servers => {
            format!("`{tool}` is not a tool {profile} knows; it will be silently dropped")
        }
        // The profile does not say which MCP servers the environment has; a server (or a
        // server's tool) of that name would be the only way the host keeps it.
        None => format!(
            "`{tool}` is not a tool {profile} has built in; unless an MCP server of the environment provides it, it will be silently dropped"
        ),
    };
    Finding::new(
        Rule::UnknownTool,
        &agent.path,
        agent.tool_pos(tool),
        message,
    )
}
