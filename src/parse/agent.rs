//! Parse a custom agent file (`.agent.md`, `.chatmode.md`, Claude Code agent) into an [`Agent`].

use std::path::Path;

use crate::diagnostic::{Pos, Sink};
use crate::discover;
use crate::model::Agent;
use crate::model::AgentFlavor;
use crate::parse::yaml::{Node, Value};
use crate::parse::{Unreadable, document, fields, markdown};
use crate::rules;
use crate::rules::agent::MAX_BODY_CHARS;

/// An agent plus what per-file rules need; `root` and `body_over` are dropped afterwards.
#[derive(Debug)]
pub struct ParsedAgent {
    pub agent: Agent,
    pub root: Option<Node>,
    /// Characters in the body and where the first one past the cap is, when there are more
    /// than an agent may have (counted only when it has more bytes than that: fewer bytes
    /// cannot hold more).
    pub body_over: Option<(usize, Pos)>,
}

/// The file name without `.agent.md`, `.chatmode.md` or `.md`.
pub(crate) fn stem(file_name: &str) -> &str {
    [".agent.md", ".chatmode.md", ".md"]
        .iter()
        .find_map(|suffix| discover::strip_suffix_ignore_case(file_name.as_bytes(), suffix))
        // The suffixes are ASCII, so what is left ends on a character boundary.
        .map_or(file_name, |stem| &file_name[..stem.len()])
}

/// Parse an agent file. `None` for a Claude-folder `.md` without frontmatter: that is
/// documentation beside the agents, not an agent.
pub fn parse(
    bytes: &[u8],
    path: &str,
    fs_path: &Path,
    flavor: AgentFlavor,
    sink: &mut Sink,
) -> Option<ParsedAgent> {
    let file_name = crate::paths::file_name_text(fs_path);
    let stem = stem(&file_name).to_owned();
    let mut agent = Agent {
        name: stem.clone(),
        path: path.to_owned(),
        fs_path: fs_path.to_owned(),
        stem,
        flavor: flavor.as_str().to_owned(),
        ..Agent::default()
    };
    let mut probe = Sink::new(path);
    probe.source = sink.source;
    let doc = match document(bytes, "agent", &mut probe) {
        Ok(d) => d,
        Err(Unreadable::NoFrontmatter) if flavor == AgentFlavor::Claude => return None,
        Err(_) => {
            sink.findings.append(&mut probe.findings);
            sink.suppressions.append(&mut probe.suppressions);
            agent.invalid = true;
            return Some(ParsedAgent {
                agent,
                root: None,
                body_over: None,
            });
        }
    };
    sink.findings.append(&mut probe.findings);
    sink.suppressions.append(&mut probe.suppressions);
    let head = bytes.len().saturating_sub(doc.body.len());
    agent.head = std::str::from_utf8(&bytes[..head]).ok().map(Into::into);
    read_fields(&doc.root, &mut agent, sink);
    let dir = fs_path.parent().unwrap_or(Path::new(""));
    // Body links matter only where they may name a skill (they tie the agent to it): a body
    // whose links all point elsewhere is not parsed.
    agent.body_links = markdown::link_targets(doc.body, doc.body_line, |t| {
        discover::may_name_skill(&crate::paths::normalize(&dir.join(t)))
    })
    .into_iter()
    .map(|(target, pos)| (dir.join(target), pos))
    .collect();
    let body_over = (doc.body.len() > MAX_BODY_CHARS)
        .then(|| past_the_cap(doc.body, doc.body_line))
        .flatten();
    Some(ParsedAgent {
        agent,
        root: Some(doc.root),
        body_over,
    })
}

/// The characters of `body` (whose first line is `first_line`) and where the first one past
/// [`MAX_BODY_CHARS`] is, where a host that cuts the prompt cuts it; `None` within the cap.
fn past_the_cap(body: &str, first_line: u32) -> Option<(usize, Pos)> {
    let (at, _) = body.char_indices().nth(MAX_BODY_CHARS)?;
    let before = &body[..at];
    let line_start = before.rfind('\n').map_or(0, |i| i + 1);
    let lines = before.bytes().filter(|&b| b == b'\n').count();
    let line = first_line.saturating_add(u32::try_from(lines).unwrap_or(u32::MAX));
    let column = u32::try_from(before[line_start..].chars().count() + 1).unwrap_or(u32::MAX);
    let total = MAX_BODY_CHARS + body[at..].chars().count();
    Some((total, Pos::new(line, column)))
}

fn read_fields(root: &Node, agent: &mut Agent, sink: &mut Sink) {
    let Some(entries) = root.as_map() else { return };
    for (key, value) in entries {
        let Some(k) = key.as_str() else { continue };
        match k {
            "name" => {
                if let Some(n) = fields::text(value).filter(|n| !n.trim().is_empty()) {
                    agent.name = n.trim().to_owned();
                }
            }
            "description" => {
                agent.description = fields::text(value).filter(|d| !d.trim().is_empty())
            }
            "tools" => {
                agent.tools_pos = value.pos;
                let list =
                    fields::located_name_list(value, k, rules::deps::capability_field_shape, sink);
                agent.tools = match list {
                    // `*` (or a list holding it) grants everything, like no list at all.
                    Some(list) if list.iter().any(|(t, _)| t == "*") => None,
                    Some(list) => {
                        let (names, positions) = list.into_iter().unzip();
                        agent.tool_positions = positions;
                        Some(names)
                    }
                    None => None,
                };
            }
            "mcp-servers" | "mcpServers" => {
                agent.mcp_servers =
                    fields::key_or_name_list(value, k, rules::deps::capability_field_shape, sink)
                        .unwrap_or_default();
            }
            "model" => {
                agent.model_pos = value.pos;
                agent.model = match &value.value {
                    Value::Seq(_) => {
                        fields::name_list(value, k, rules::deps::capability_field_shape, sink)
                            .unwrap_or_default()
                    }
                    _ => fields::text(value).into_iter().collect(),
                }
            }
            "target" => agent.target = fields::text(value),
            "handoffs" => {
                agent.handoffs_pos = value.pos;
                for h in value.as_seq().unwrap_or_default() {
                    let Some(target) = h.get("agent") else {
                        continue;
                    };
                    if let Some(a) = fields::text(target) {
                        agent.handoffs.push(a);
                        agent.handoff_positions.push(target.pos);
                    }
                }
            }
            "agents" => {
                agent.agents_pos = value.pos;
                let list =
                    fields::located_name_list(value, k, rules::deps::capability_field_shape, sink);
                agent.agents = list.map(|list| {
                    let (names, positions) = list.into_iter().unzip();
                    agent.agent_positions = positions;
                    names
                });
            }
            "skills" => {
                let list =
                    fields::located_name_list(value, k, rules::deps::capability_field_shape, sink);
                (agent.skills, agent.skill_positions) =
                    list.unwrap_or_default().into_iter().unzip();
            }
            "user-invocable" | "user-invokable" => {
                agent.invocation.user_invocable = fields::boolean(value)
            }
            "disable-model-invocation" => {
                agent.invocation.disable_model_invocation = fields::boolean(value)
            }
            "infer" => agent.infer = fields::boolean(value),
            "mode" => agent.mode = fields::text(value),
            _ => {}
        }
    }
    if agent.tools.is_none() && root.get("tools").is_some_and(|t| t.is_null()) {
        // `tools:` with no value is an empty list to VS Code.
        agent.tools = Some(Vec::new());
    }
}

/// Where a key sits, for findings that point at it.
pub(crate) fn key_pos(root: &Node, key: &str) -> Pos {
    root.as_map()
        .and_then(|m| m.iter().find(|(k, _)| k.as_str() == Some(key)))
        .map_or(root.pos, |(k, _)| k.pos)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_cap_falls_on_the_first_character_past_it() {
        let within = "x".repeat(MAX_BODY_CHARS);
        assert_eq!(past_the_cap(&within, 5), None);
        // Two lines, the second of multi-byte characters: the cap falls on its fifth one.
        let body = format!("{}\n{}", "a".repeat(MAX_BODY_CHARS - 5), "é".repeat(10));
        assert_eq!(
            past_the_cap(&body, 5),
            Some((MAX_BODY_CHARS + 6, Pos::new(6, 5)))
        );
    }

    fn agent(src: &str) -> Agent {
        let mut sink = Sink::new("a.agent.md");
        parse(
            src.as_bytes(),
            "a.agent.md",
            Path::new("agents/a.agent.md"),
            AgentFlavor::Custom,
            &mut sink,
        )
        .unwrap()
        .agent
    }

    #[test]
    fn tools_forms() {
        assert_eq!(
            agent("---\ndescription: d\n---\n").tools,
            None,
            "absent grants all"
        );
        assert_eq!(agent("---\ntools: ['*']\n---\n").tools, None);
        assert_eq!(agent("---\ntools: []\n---\n").tools, Some(vec![]));
        assert_eq!(
            agent("---\ntools: Read, Grep\n---\n").tools,
            Some(vec!["Read".into(), "Grep".into()])
        );
    }

    #[test]
    fn fields_and_default_name() {
        let a = agent(
            "---\nmodel: [A, B]\nhandoffs:\n  - label: x\n    agent: planner\n    prompt: p\nagents: [w]\nskills: [s]\nmcp-servers:\n  kusto: {type: stdio}\ninfer: false\n---\nbody",
        );
        assert_eq!(a.name, "a");
        assert_eq!(a.model, ["A", "B"]);
        assert_eq!(a.handoffs, ["planner"]);
        assert_eq!(a.agents, Some(vec!["w".into()]));
        assert_eq!(a.skills, ["s"]);
        assert_eq!(a.mcp_servers, ["kusto"]);
        assert_eq!(a.infer, Some(false));
    }

    #[test]
    fn claude_markdown_without_frontmatter_is_not_an_agent() {
        let mut sink = Sink::new("x");
        assert!(
            parse(
                b"# Notes",
                "x",
                Path::new(".claude/agents/x.md"),
                AgentFlavor::Claude,
                &mut sink
            )
            .is_none()
        );
        assert!(sink.findings.is_empty());
    }

    #[test]
    fn stems() {
        assert_eq!(stem("a.agent.md"), "a");
        assert_eq!(stem("b.chatmode.md"), "b");
        assert_eq!(stem("c.md"), "c");
        assert_eq!(stem("Dé.Agent.MD"), "Dé");
        assert_eq!(stem("notes.txt"), "notes.txt");
    }
}
