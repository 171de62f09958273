//! SA5xx: custom agents (`.agent.md`, `.chatmode.md`, Claude Code agents).

use std::collections::HashSet;
use std::path::Path;

use super::{FixDoc, RuleDoc};
use crate::diagnostic::{Applicability, Finding, Fix, Pos, Severity, Sink, quote};
use crate::files::{Files, Lookup};
use crate::model::Agent;
use crate::parse::agent::{ParsedAgent, key_pos};
use crate::rules::Rule;

/// GitHub's limit on an agent's prompt body.
pub(crate) const MAX_BODY_CHARS: usize = 30_000;

/// Keys VS Code and GitHub Copilot read on `.agent.md`.
pub(crate) const COPILOT_KEYS: &[&str] = &[
    "name",
    "description",
    "argument-hint",
    "tools",
    "agents",
    "model",
    "user-invocable",
    "disable-model-invocation",
    "target",
    "mcp-servers",
    "handoffs",
    "hooks",
    "github",
    "metadata",
];
/// Keys Claude Code reads on agent files.
pub(crate) const CLAUDE_KEYS: &[&str] = &[
    "name",
    "description",
    "tools",
    "disallowedTools",
    "model",
    "permissionMode",
    "maxTurns",
    "skills",
    "mcpServers",
    "hooks",
    "memory",
    "background",
    "effort",
    "isolation",
    "color",
    "initialPrompt",
    "omitClaudeMd",
];
/// Keys hosts have retired, with what replaces them.
const DEPRECATED_KEYS: &[(&str, &str)] = &[
    ("infer", "`user-invocable` and `disable-model-invocation`"),
    ("mode", "nothing: chat modes became agents, remove it"),
    ("user-invokable", "`user-invocable`"),
];
/// Keys OpenCode reads on its Markdown agents that neither VS Code, GitHub Copilot nor Claude
/// Code read (opencode.ai/docs/agents, the first format and the second: `steps`, `disabled`,
/// `permissions`, `system`). `mode` is judged by its value, below.
const OPENCODE_KEYS: &[&str] = &[
    "temperature",
    "top_p",
    "maxSteps",
    "steps",
    "hidden",
    "disable",
    "disabled",
    "permission",
    "permissions",
    "prompt",
    "system",
];
/// The values of OpenCode's `mode` key on its agents; any other `mode` is the retired chat mode
/// key.
const OPENCODE_MODES: &[&str] = &["primary", "subagent", "all"];
/// Agents every host provides, valid as handoff targets.
const BUILTIN_AGENTS: &[&str] = &["agent", "ask", "edit", "plan"];

/// Per-file checks; `files` tells what is beside the file.
pub(crate) fn check(parsed: &ParsedAgent, files: &dyn Files, sink: &mut Sink) {
    let a = &parsed.agent;
    let file_name = crate::paths::file_name_text(&a.fs_path);
    if a.flavor == "chatmode" {
        // Without a `target`, an agent file is every agent host's; a chat mode was VS Code's.
        let untargeted = parsed.root.is_some() && a.target.is_none();
        chat_mode_renamed(sink, &file_name, &a.fs_path, files, untargeted);
    }
    if !file_name
        .chars()
        .all(|c| c.is_ascii_alphanumeric() || matches!(c, '.' | '-' | '_'))
    {
        agent_file_name(sink, &file_name);
    }
    let Some(root) = &parsed.root else { return };
    if a.description.is_none() {
        agent_description_missing(sink, root.pos, &a.flavor);
    }
    for (key, _) in root.as_map().unwrap_or_default() {
        let Some(k) = key.as_str() else { continue };
        let opencode_mode = a
            .mode
            .as_deref()
            .map(str::trim)
            .filter(|m| OPENCODE_MODES.contains(m));
        if let (Some(mode), "mode") = (opencode_mode, k) {
            opencode_key(
                sink,
                key.pos,
                &format!("`mode: {mode}`"),
                " (`primary`, `subagent` or `all`)",
                &a.flavor,
            );
        } else if OPENCODE_KEYS.contains(&k) && !is_agent_key(k) {
            opencode_key(sink, key.pos, &format!("`{k}`"), "", &a.flavor);
        } else if let Some((_, instead)) = DEPRECATED_KEYS.iter().find(|(d, _)| *d == k) {
            agent_deprecated_key(sink, key.pos, k, instead);
        } else if a.flavor != "claude" && CLAUDE_KEYS.contains(&k) && !COPILOT_KEYS.contains(&k) {
            claude_code_key(sink, key.pos, k);
        } else if a.flavor == "claude" && COPILOT_KEYS.contains(&k) && !CLAUDE_KEYS.contains(&k) {
            copilot_key(sink, key.pos, k);
        } else if !COPILOT_KEYS.contains(&k) && !CLAUDE_KEYS.contains(&k) {
            // A key SKILL.md files read (`agent: agent`) is another format's field written
            // here, not a misspelling: renaming it would change what it says.
            if super::spec::is_skill_key(k) {
                agent_skill_key(sink, key.pos, k);
            } else {
                let typo = nearest(k);
                let fixable = typo.is_some_and(|t| root.get(t).is_none());
                agent_unknown_key(sink, key.pos, k, typo, fixable, &a.flavor);
            }
        }
    }
    if let Some((chars, cut)) = parsed.body_over.filter(|_| a.flavor != "chatmode") {
        agent_body_too_long(sink, cut, chars);
    }
    if let (Some(subagents), Some(tools)) = (&a.agents, &a.tools)
        && !subagents.is_empty()
        && !tools.iter().any(|t| grants_agent_tool(t))
    {
        subagents_without_agent_tool(sink, key_pos(root, "agents"));
    }
}

fn grants_agent_tool(t: &str) -> bool {
    let l = t.to_ascii_lowercase();
    matches!(
        l.as_str(),
        "agent" | "agent/runsubagent" | "task" | "custom-agent" | "runsubagent" | "agent/*"
    ) || l.starts_with("agent(")
        || l.starts_with("task(")
}

/// Is `key` a key custom agents or Claude Code agents read?
pub(crate) fn is_agent_key(key: &str) -> bool {
    COPILOT_KEYS.contains(&key) || CLAUDE_KEYS.contains(&key)
}

fn nearest(key: &str) -> Option<&'static str> {
    crate::typos::typo_of(
        key,
        COPILOT_KEYS.iter().chain(CLAUDE_KEYS).copied(),
        str::to_lowercase,
    )
}

/// Handoffs and `agents:` entries must name agents of the library (or built-in ones).
pub(crate) fn check_targets(agents: &[Agent], out: &mut Vec<Finding>) {
    let known: HashSet<String> = agents
        .iter()
        .filter(|a| !a.invalid)
        .flat_map(|a| [a.name.to_lowercase(), a.stem.to_lowercase()])
        .chain(BUILTIN_AGENTS.iter().map(|s| (*s).to_owned()))
        .collect();
    for a in agents {
        // Each name points at where it is written; the list's place when that is not known.
        let at = |positions: &[Pos], i: usize, list: Pos| positions.get(i).copied().unwrap_or(list);
        let named = a
            .handoffs
            .iter()
            .enumerate()
            .map(|(i, h)| (h, at(&a.handoff_positions, i, a.handoffs_pos), "handoff"));
        let subs = a
            .agents
            .iter()
            .flatten()
            .enumerate()
            .map(|(i, s)| (s, at(&a.agent_positions, i, a.agents_pos), "sub-agent"));
        for (target, pos, what) in named.chain(subs) {
            if target != "*" && !known.contains(&target.to_lowercase()) {
                out.push(agent_unknown_target(&a.path, pos, what, target));
            }
        }
    }
}

pub(crate) const AGENT_DESCRIPTION_MISSING: RuleDoc = RuleDoc {
    code: "SA501",
    name: "agent-description-missing",
    severity: Severity::Warning,
    summary: "An agent has no `description`",
    what: "An agent file has no `description`.",
    why: "GitHub Copilot requires it to list the agent, and Claude Code requires it of a subagent; VS Code shows it as the chat input placeholder and uses it to pick sub-agents.",
    example: "---\nname: planner\ntools: [search]\n---\n\nFix: add `description: Plans a change before any code is edited.`",
    fix: None,
};

/// `flavor`: the agent's kind, as `Agent::flavor` spells it; each names the hosts that read it.
fn agent_description_missing(sink: &mut Sink, pos: Pos, flavor: &str) {
    let message = match flavor {
        // Only VS Code reads chat modes.
        "chatmode" => {
            "the chat mode has no `description`; VS Code shows it as the chat input's placeholder, so add one that says what the mode is for"
        }
        "claude" => {
            "the agent has no `description`; Claude Code requires one and picks subagents by it, so add one that says when to use this agent"
        }
        _ => {
            "the agent has no `description`; GitHub requires one and VS Code shows it as the placeholder"
        }
    };
    sink.push(Rule::AgentDescriptionMissing, pos, message);
}

pub(crate) const AGENT_UNKNOWN_KEY: RuleDoc = RuleDoc {
    code: "SA502",
    name: "agent-unknown-key",
    severity: Severity::Warning,
    summary: "An agent frontmatter key no host reads",
    what: "A frontmatter key that neither VS Code, GitHub Copilot nor Claude Code reads on agents. The message suggests the nearest known key.",
    why: "Hosts ignore unknown keys silently, so a typo (`tool:`) drops the setting without a word.",
    example: "tool: [search]\n\nFix: tools: [search]",
    fix: Some(super::spec::RENAME_KEY_FIX),
};

/// No host reads the key `key`; `typo_of` is the known key it is probably a typo of, which the
/// mapping lacks when `fixable`. `flavor` names the hosts that read the file.
fn agent_unknown_key(
    sink: &mut Sink,
    pos: Pos,
    key: &str,
    typo_of: Option<&str>,
    fixable: bool,
    flavor: &str,
) {
    let hint = typo_of
        .map(|s| format!("; did you mean {}?", quote(s)))
        .unwrap_or_default();
    let fix = typo_of
        .filter(|_| fixable)
        .and_then(|to| super::spec::rename_key(sink.text()?, pos, key, to));
    sink.push_fixed(
        Rule::AgentUnknownKey,
        pos,
        format!(
            "{} is not read by {}, so it is ignored{hint}",
            quote(key),
            // Only VS Code reads chat modes.
            if flavor == "chatmode" {
                "VS Code in a chat mode"
            } else {
                "VS Code, GitHub Copilot or Claude Code"
            }
        ),
        fix,
    );
}

/// `key` is a SKILL.md key (`agent`, `context`, `allowed-tools`, ...) written in an agent.
fn agent_skill_key(sink: &mut Sink, pos: Pos, key: &str) {
    // `agent` is also what prompt files (`.prompt.md`) name their agent with, where an agent's
    // frontmatter is most often copied from.
    let of = if key == "agent" {
        "a key of prompt files (`.prompt.md`) and SKILL.md"
    } else {
        "a SKILL.md key"
    };
    sink.push(
        Rule::AgentUnknownKey,
        pos,
        format!(
            "`{key}` is {of}, not an agent's: VS Code, GitHub Copilot and Claude Code ignore it in an agent file, so remove it"
        ),
    );
}

pub(crate) const AGENT_DEPRECATED_KEY: RuleDoc = RuleDoc {
    code: "SA503",
    name: "agent-deprecated-key",
    severity: Severity::Warning,
    summary: "An agent uses a retired key (`infer`, `mode`)",
    what: "A retired agent key: `infer`, `mode` (other than OpenCode's `primary`, `subagent` or `all`, which SA509 notes) or the old spelling `user-invokable`.",
    why: "Hosts are dropping them; the behaviour they controlled now lives in `user-invocable` and `disable-model-invocation`.",
    example: "infer: false\n\nFix: disable-model-invocation: true",
    fix: None,
};

/// The retired key `key`, replaced by `instead`.
fn agent_deprecated_key(sink: &mut Sink, pos: Pos, key: &str, instead: &str) {
    sink.push(
        Rule::AgentDeprecatedKey,
        pos,
        format!("`{key}` is deprecated; use {instead}"),
    );
}

pub(crate) const AGENT_UNKNOWN_TARGET: RuleDoc = RuleDoc {
    code: "SA504",
    name: "agent-unknown-target",
    severity: Severity::Warning,
    summary: "A handoff or sub-agent names an agent not in the library",
    what: "A `handoffs[].agent` or `agents:` entry names an agent that is not in the library (nor a built-in: agent, ask, edit, plan).",
    why: "VS Code drops the handoff button or the sub-agent without an error, so the workflow silently stops.",
    example: "handoffs:\n  - label: Implement\n    agent: implementor\n    prompt: Go\nwith no implementor agent.\n\nFix: use the agent's name or file name.",
    fix: None,
};

/// A `what` ("handoff", "sub-agent") of the agent at `agent` names `target`, no agent.
fn agent_unknown_target(agent: &str, pos: Pos, what: &str, target: &str) -> Finding {
    Finding::new(
        Rule::AgentUnknownTarget,
        agent,
        pos,
        format!(
            "{what} {} names no agent in the library; fix the name or add the agent",
            quote(target)
        ),
    )
    // A handoff and a sub-agent naming the same agent are two findings.
    .about(&format!("{what} {target}"))
}

pub(crate) const SUBAGENTS_WITHOUT_AGENT_TOOL: RuleDoc = RuleDoc {
    code: "SA505",
    name: "subagents-without-agent-tool",
    severity: Severity::Warning,
    summary: "`agents:` is set but `tools` lacks `agent`",
    what: "An agent lists sub-agents in `agents:` but its `tools` list does not include the `agent` tool.",
    why: "Sub-agents are called through the `agent` tool; without it none of them can run.",
    example: "agents: [reviewer]\ntools: [read, edit]\n\nFix: tools: [read, edit, agent]",
    fix: None,
};

fn subagents_without_agent_tool(sink: &mut Sink, pos: Pos) {
    sink.push(
        Rule::SubagentsWithoutAgentTool,
        pos,
        "`agents:` lists sub-agents but `tools` lacks `agent`, so none of them can be called; add `agent` to `tools`",
    );
}

pub(crate) const AGENT_BODY_TOO_LONG: RuleDoc = RuleDoc {
    code: "SA506",
    name: "agent-body-too-long",
    severity: Severity::Warning,
    summary: "An agent's prompt is over 30,000 characters",
    what: "The agent's prompt body is longer than 30,000 characters. Chat modes (`.chatmode.md`), which only VS Code reads, are left out: VS Code documents no such cap.",
    why: "GitHub Copilot documents a limit of 30,000 characters for a custom agent's prompt; what it does with a longer one (cut it, refuse it) is not documented. The finding points at the first character past the limit.",
    example: "A 45,000-character agent.\n\nFix: move reference material into skills or instructions files the agent loads on demand.",
    fix: None,
};

/// The prompt body is `chars` characters long; `pos` is its first character past the cap.
fn agent_body_too_long(sink: &mut Sink, pos: Pos, chars: usize) {
    sink.push_about(
        Rule::AgentBodyTooLong,
        pos,
        format!(
            "the prompt body is {} characters, over the {} GitHub Copilot documents for an agent's prompt (the limit falls here); move reference material into files the agent reads when it needs them",
            crate::diagnostic::thousands(chars),
            crate::diagnostic::thousands(MAX_BODY_CHARS)
        ),
        "",
    );
}

pub(crate) const AGENT_FILE_NAME: RuleDoc = RuleDoc {
    code: "SA507",
    name: "agent-file-name",
    severity: Severity::Warning,
    summary: "An agent file name has characters outside `[A-Za-z0-9._-]`",
    what: "The agent's file name has characters outside `A-Z a-z 0-9 . - _`.",
    why: "GitHub only loads agent files whose names use that set; the name is also the agent's dedupe key.",
    example: "agents/My Agent!.agent.md\n\nFix: agents/my-agent.agent.md",
    fix: None,
};

fn agent_file_name(sink: &mut Sink, file_name: &str) {
    sink.push(
        Rule::AgentFileName,
        Pos::START,
        format!(
            "file name {} has characters outside `A-Z a-z 0-9 . - _`; GitHub does not load such agents",
            quote(file_name)
        ),
    );
}

pub(crate) const CHAT_MODE_RENAMED: RuleDoc = RuleDoc {
    code: "SA508",
    name: "chat-mode-renamed",
    severity: Severity::Warning,
    summary: "A legacy `.chatmode.md` file: chat modes are now agents",
    what: "A legacy `*.chatmode.md` file. In a workspace's `.github/chatmodes/` the message also advises moving it to `.github/agents/`; elsewhere (a catalogue's own folder) only the rename.",
    why: "Chat modes were renamed to custom agents; VS Code still reads them with a warning and other hosts do not read them at all.",
    example: ".github/chatmodes/planner.chatmode.md\n\nFix: rename to .github/agents/planner.agent.md",
    fix: Some(FixDoc {
        applicability: Applicability::Unsafe,
        what: "Rename `NAME.chatmode.md` to `NAME.agent.md` in the same folder, and add `target: vscode` as the first line of a frontmatter that has no `target`: an agent file without one is read by GitHub Copilot too, which drops VS Code's tool names, while the chat mode was VS Code's alone. Not offered when `NAME.agent.md` is there. Moving a workspace's `.github/chatmodes/` file to `.github/agents/`, as the message advises, is left to you. Unsafe: what names the old file no longer finds it.",
    }),
};

/// The legacy chat mode file `file_name`, at `fs_path`; `untargeted`: its frontmatter has no
/// `target`, which the fix adds to keep the agent VS Code's.
fn chat_mode_renamed(
    sink: &mut Sink,
    file_name: &str,
    fs_path: &Path,
    files: &dyn Files,
    untargeted: bool,
) {
    let stem = crate::parse::agent::stem(file_name);
    let new = format!("{stem}.agent.md");
    // Looked up, not listed: a folder may hold thousands of chat modes.
    let taken = matches!(
        files.lookup(&fs_path.with_file_name(&new)),
        Lookup::File | Lookup::Folder | Lookup::Outside
    );
    if taken {
        sink.push(
            Rule::ChatModeRenamed,
            Pos::START,
            format!(
                "chat modes were renamed to custom agents, and {} is beside this file: merge the two and remove {}",
                quote(&new),
                quote(file_name)
            ),
        );
        return;
    }
    let target = untargeted.then(|| target_vscode(sink.text())).flatten();
    let also = if target.is_some() {
        " and add `target: vscode`"
    } else {
        ""
    };
    let fix = Fix {
        edits: target.into_iter().collect(),
        ..Fix::rename(
            format!("rename {} to {}{also}", quote(file_name), quote(&new)),
            super::file::renamed(sink.path, &new),
        )
    };
    // Only a workspace's own chat modes have a folder hosts now read agents from instead; a
    // catalogue keeps its files where it likes.
    let workspace = fs_path
        .parent()
        .is_some_and(|d| d.ends_with(".github/chatmodes"));
    // GitHub Copilot reads agent files too, and drops VS Code's tool names.
    let keep = "add `target: vscode` to keep it to VS Code as the chat mode was";
    let new = quote(&new);
    let message = match (workspace, untargeted) {
        (true, true) => format!(
            "chat modes were renamed to custom agents; rename the file to {new}, {keep}, and move it to `.github/agents/`, where VS Code and GitHub Copilot now look for agents"
        ),
        (true, false) => format!(
            "chat modes were renamed to custom agents; rename the file to {new} and move it to `.github/agents/`, where VS Code and GitHub Copilot now look for agents"
        ),
        (false, true) => {
            format!("chat modes were renamed to custom agents; rename the file to {new} and {keep}")
        }
        (false, false) => {
            format!("chat modes were renamed to custom agents; rename the file to {new}")
        }
    };
    sink.push_fixed(Rule::ChatModeRenamed, Pos::START, message, Some(fix));
}

/// The edit that adds `target: vscode` as the frontmatter's first line, in the file's own
/// line break.
fn target_vscode(text: Option<&str>) -> Option<crate::diagnostic::Edit> {
    let text = text?;
    let start = text
        .strip_prefix(crate::parse::frontmatter::BOM)
        .map_or(0, |_| 3);
    let first = &text[start..];
    let line_end = first.find('\n')?;
    if first[..line_end].trim_end() != "---" {
        return None;
    }
    let brk = crate::span::line_break(text);
    let at = u32::try_from(start + line_end + 1).ok()?;
    crate::diagnostic::Edit::insert_at_line(at, 2, format!("target: vscode{brk}"))
}

pub(crate) const AGENT_HOST_SPECIFIC_KEY: RuleDoc = RuleDoc {
    code: "SA509",
    name: "agent-host-specific-key",
    severity: Severity::Info,
    summary: "An agent key only some hosts read",
    what: "An agent key that only some hosts read: a Claude Code key (`color`, `permissionMode`, ...) in a `.agent.md`, a VS Code / GitHub key (`handoffs`, `target`, ...) in a Claude Code agent, or one of OpenCode's (`mode: primary|subagent|all`, `hidden`, `temperature`, `permission`, ...).",
    why: "The host that loads this file ignores the key, so the setting has no effect there. Fine when the file is shared between hosts on purpose.",
    example: "color: blue  (in agents/planner.agent.md)

Nothing to fix if the file also serves Claude Code; otherwise remove it.",
    fix: None,
};

/// The Claude Code key `key` in an agent for VS Code and GitHub Copilot.
fn claude_code_key(sink: &mut Sink, pos: Pos, key: &str) {
    sink.push(
        Rule::AgentHostSpecificKey,
        pos,
        format!(
            "`{key}` is only read by Claude Code; VS Code and GitHub Copilot ignore it in this file"
        ),
    );
}

/// The VS Code and GitHub Copilot key `key` in a Claude Code agent.
fn copilot_key(sink: &mut Sink, pos: Pos, key: &str) {
    sink.push(
        Rule::AgentHostSpecificKey,
        pos,
        format!("`{key}` is only read by VS Code and GitHub Copilot; Claude Code ignores it in this agent"),
    );
}

/// OpenCode's key, shown as `what` (with `values`, what it may be), in an agent file of
/// `flavor`: the hosts that load such a file ignore it.
fn opencode_key(sink: &mut Sink, pos: Pos, what: &str, values: &str, flavor: &str) {
    let hosts: Vec<&str> = crate::profile::builtin::loading(flavor)
        .filter_map(|h| h.host_title())
        .collect();
    let ignored = match hosts.len() {
        0 => String::new(),
        1 => format!("; {} ignores it", hosts[0]),
        _ => format!("; {} ignore it", crate::words::and_list(&hosts)),
    };
    sink.push(
        Rule::AgentHostSpecificKey,
        pos,
        format!(
            "{what} is OpenCode's key{values}{ignored}: remove it unless the file also serves OpenCode"
        ),
    );
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::AgentFlavor;

    fn rules_of(src: &str) -> Vec<(Rule, String)> {
        let mut sink = Sink::new("a.agent.md");
        let path = Path::new("a.agent.md");
        let parsed = crate::parse::agent::parse(
            src.as_bytes(),
            "a.agent.md",
            path,
            AgentFlavor::Custom,
            &mut sink,
        )
        .expect("an agent");
        let boundary = crate::boundary::Boundary::new(&[], false);
        check(&parsed, &crate::files::Tree::new(&boundary), &mut sink);
        sink.findings
            .into_iter()
            .map(|f| (f.rule, f.message))
            .collect()
    }

    #[test]
    fn opencode_modes_are_host_keys_and_others_retired() {
        for mode in ["primary", "subagent", "all"] {
            let got = rules_of(&format!("---\ndescription: d\nmode: {mode}\n---\nbody\n"));
            assert_eq!(got.len(), 1, "{got:?}");
            assert_eq!(got[0].0, Rule::AgentHostSpecificKey);
            assert!(got[0].1.contains("OpenCode"), "{}", got[0].1);
        }
        let got = rules_of("---\ndescription: d\nmode: agent\n---\nbody\n");
        assert_eq!(got.len(), 1, "{got:?}");
        assert_eq!(got[0].0, Rule::AgentDeprecatedKey);
    }

    /// OpenCode's own keys are a host's keys, not unknown ones, and get no typo fix.
    #[test]
    fn opencode_keys_are_host_keys() {
        for key in [
            "hidden: true",
            "temperature: 0.1",
            "permission: {edit: deny}",
            "steps: 5",
        ] {
            let got = rules_of(&format!(
                "---\ndescription: d\nmode: subagent\n{key}\n---\nbody\n"
            ));
            assert_eq!(got.len(), 2, "{key}: {got:?}");
            assert!(
                got.iter()
                    .all(|(r, m)| *r == Rule::AgentHostSpecificKey && m.contains("OpenCode")),
                "{got:?}"
            );
        }
        let got = rules_of("---\ndescription: d\nhiden: true\n---\nbody\n");
        assert_eq!(got[0].0, Rule::AgentUnknownKey, "{got:?}");
    }
}
