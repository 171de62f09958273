//! Codex's sidecar `agents/openai.yaml` beside a SKILL.md: `dependencies.tools` lists the MCP
//! servers the skill needs (`type: mcp`, `value: figma`, with `transport`, `url`, ...). Codex
//! fails open (an unreadable sidecar is ignored with a warning), and so does this reader: a
//! problem is a finding on the sidecar, never an invalid skill.

use crate::diagnostic::Sink;
use crate::model::{Declared, Origin, Requirements};
use crate::parse::yaml::{self, Node};
use crate::rules;

/// Where the sidecar lives, relative to the skill folder.
pub(crate) const SIDECAR: &str = "agents/openai.yaml";

/// The requirements of a sidecar's text (`file` is its display path; findings go to `sink`,
/// which is the sidecar's).
pub(crate) fn parse(bytes: &[u8], file: &str, sink: &mut Sink) -> Option<Declared> {
    let Ok(text) = std::str::from_utf8(bytes) else {
        rules::deps::sidecar_unreadable(sink, crate::diagnostic::Pos::START, "it is not UTF-8");
        return None;
    };
    let root = match yaml::parse(text.strip_prefix('\u{feff}').unwrap_or(text), 1) {
        Ok(r) => r,
        Err(e) => {
            rules::deps::sidecar_unreadable(sink, e.pos, &e.message);
            return None;
        }
    };
    let tools = root.get("dependencies").and_then(|d| d.get("tools"))?;
    let Some(items) = tools.as_seq() else {
        rules::deps::dialect_shape(sink, tools, Origin::Codex, "dependencies.tools", "a list");
        return None;
    };
    let mut servers = Vec::new();
    for item in items {
        match server(item) {
            Ok(Some(name)) => servers.push(format!("{name}/*")),
            Ok(None) => {}
            Err(what) => {
                rules::deps::dialect_shape(sink, item, Origin::Codex, "dependencies.tools[]", what)
            }
        }
    }
    let mut req = Requirements::default();
    req.tools.extend_all(servers);
    (!req.is_empty()).then(|| Declared {
        source: Origin::Codex,
        file: Some(file.to_owned()),
        line: tools.pos.line,
        column: tools.pos.column,
        requirements: req,
        uses: Vec::new(),
        block: "",
    })
}

/// The server an entry needs: `Ok(None)` for a type other than `mcp` (Codex knows no other
/// yet, and skips what it does not know).
fn server(item: &Node) -> Result<Option<String>, &'static str> {
    if item.as_map().is_none() {
        return Err("a mapping with `type` and `value`");
    }
    match item.get("type").and_then(Node::as_str).map(str::trim) {
        Some("mcp") => {}
        Some(_) => return Ok(None),
        None => return Err("a mapping with `type: mcp`"),
    }
    match item.get("value").and_then(Node::as_str).map(str::trim) {
        Some(v) if !v.is_empty() && !v.contains(['/', ' ']) => Ok(Some(v.to_owned())),
        _ => Err("an entry whose `value` names the MCP server"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::Rule;

    fn run(src: &str) -> (Option<Declared>, Vec<(Rule, u32)>) {
        let mut sink = Sink::new("skill/agents/openai.yaml");
        let d = parse(src.as_bytes(), "skill/agents/openai.yaml", &mut sink);
        (d, sink.findings.iter().map(|f| (f.rule, f.line)).collect())
    }

    #[test]
    fn mcp_servers_become_server_wildcards() {
        let (d, f) = run(
            "interface:\n  display_name: X\ndependencies:\n  tools:\n    - type: \"mcp\"\n      value: \"figma\"\n      transport: \"streamable_http\"\n      url: \"https://mcp.figma.com/mcp\"\n    - type: cli\n      value: gh\n",
        );
        assert!(f.is_empty(), "{f:?}");
        let d = d.unwrap();
        assert_eq!(d.file.as_deref(), Some("skill/agents/openai.yaml"));
        assert_eq!(d.line, 5);
        assert_eq!(d.requirements.tools.all, ["figma/*"]);
    }

    #[test]
    fn fails_open_with_a_finding() {
        let (d, f) = run("dependencies: [\n");
        assert!(d.is_none());
        assert_eq!(f.len(), 1);
        assert_eq!(f[0].0, Rule::SidecarUnreadable);
        let (d, f) = run("dependencies:\n  tools:\n    - value: figma\n");
        assert!(d.is_none());
        assert_eq!(f, [(Rule::DialectShape, 3)]);
        assert!(run("interface: {}\n").0.is_none());
    }
}
