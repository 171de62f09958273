//! Parse plugin and marketplace manifests into [`Manifest`]s: which agents and skills a plugin
//! bundles. Paths are kept as written; `resolve` turns them into files.

use serde_json::Value;
use std::path::Path;

use crate::diagnostic::{Pos, Sink};
use crate::discover::ManifestKind;
use crate::model::Manifest;
use crate::rules;

/// The extension key awesome-copilot's Agent Plugins use to bundle agents and skills.
const COPILOT_EXTENSION: &str = "com.github.awesome-copilot";

pub fn parse(
    bytes: &[u8],
    path: &str,
    fs_path: &Path,
    kind: ManifestKind,
    sink: &mut Sink,
) -> Vec<Manifest> {
    // Checked whole first: the lossy conversion walks the bytes in small chunks.
    let text = match super::utf8(bytes) {
        Ok(text) => std::borrow::Cow::Borrowed(text),
        Err(_) => String::from_utf8_lossy(bytes),
    };
    let json: Value = match serde_json::from_str(&text) {
        Ok(v) => v,
        Err(e) => {
            rules::links::manifest_invalid(sink, &e);
            return Vec::new();
        }
    };
    let dir = fs_path.parent().unwrap_or(Path::new(""));
    let name_of = |v: &Value| {
        v.get("name")
            .and_then(Value::as_str)
            .unwrap_or("")
            .to_owned()
    };
    match kind {
        ManifestKind::AgentPlugin => {
            // A Copilot plugin.json may sit in `.github/plugin/`; its plugin root is two up.
            let base = if dir.ends_with(".github/plugin") {
                dir.parent().and_then(Path::parent).unwrap_or(dir)
            } else {
                dir
            };
            let ext = json
                .get("extensions")
                .and_then(|e| e.get(COPILOT_EXTENSION));
            let agents = paths(
                ext.and_then(|e| e.get("agents")).or(json.get("agents")),
                &text,
            );
            let skills = paths(
                ext.and_then(|e| e.get("skills")).or(json.get("skills")),
                &text,
            );
            vec![Manifest {
                path: path.to_owned(),
                fs_path: fs_path.to_owned(),
                name: name_of(&json),
                base: base.to_owned(),
                via: "plugin",
                agents,
                skills,
            }]
        }
        ManifestKind::ClaudePlugin => {
            let base = dir.parent().unwrap_or(dir);
            vec![Manifest {
                path: path.to_owned(),
                fs_path: fs_path.to_owned(),
                name: name_of(&json),
                base: base.to_owned(),
                via: "claude-plugin",
                agents: paths(json.get("agents"), &text),
                skills: paths(json.get("skills"), &text),
            }]
        }
        ManifestKind::ClaudeMarketplace => {
            let root = dir.parent().unwrap_or(dir);
            let plugin_root = json
                .get("metadata")
                .and_then(|m| m.get("pluginRoot"))
                .and_then(Value::as_str)
                .map_or(root.to_owned(), |r| root.join(r));
            let entries = json
                .get("plugins")
                .and_then(Value::as_array)
                .cloned()
                .unwrap_or_default();
            entries
                .iter()
                // Only entries that list skills say anything about links; the rest are plugins
                // whose own manifests are audited where they live.
                .filter(|e| e.get("skills").is_some())
                .map(|e| {
                    let base = match e.get("source").and_then(Value::as_str) {
                        Some(src) => plugin_root.join(src),
                        None => plugin_root.clone(),
                    };
                    Manifest {
                        path: path.to_owned(),
                        fs_path: fs_path.to_owned(),
                        name: name_of(e),
                        base,
                        via: "marketplace",
                        agents: paths(e.get("agents"), &text),
                        skills: paths(e.get("skills"), &text),
                    }
                })
                .collect()
        }
    }
}

/// Component paths: a string or a list of strings, each with the line it is written on.
fn paths(v: Option<&Value>, text: &str) -> Option<Vec<(String, Pos)>> {
    let list: Vec<&str> = match v? {
        Value::String(s) => vec![s.as_str()],
        Value::Array(a) => a.iter().filter_map(Value::as_str).collect(),
        _ => return None,
    };
    Some(
        list.into_iter()
            .map(|p| (p.to_owned(), locate(text, p)))
            .collect(),
    )
}

/// The position of a JSON string in the text (its first occurrence), for findings.
fn locate(text: &str, value: &str) -> Pos {
    let needle = serde_json::to_string(value).unwrap_or_default();
    match memchr::memmem::find(text.as_bytes(), needle.as_bytes()) {
        Some(i) => {
            // Counted with memchr: every listed path is located from the top of the file.
            let before = &text.as_bytes()[..i];
            let line = memchr::memchr_iter(b'\n', before).count() + 1;
            let line_start = memchr::memrchr(b'\n', before).map_or(0, |n| n + 1);
            let col = text[line_start..i].chars().count() + 1;
            Pos::new(
                u32::try_from(line).unwrap_or(1),
                u32::try_from(col).unwrap_or(1),
            )
        }
        None => Pos::START,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::Rule;

    #[test]
    fn agent_plugin_extension_lists() {
        let src = br#"{"name": "ops", "extensions": {"com.github.awesome-copilot": {
  "agents": ["./agents/a.md"],
  "skills": ["./skills/k/"]}}}"#;
        let mut sink = Sink::new("p");
        let m = parse(
            src,
            "plugins/ops/plugin.json",
            Path::new("plugins/ops/plugin.json"),
            ManifestKind::AgentPlugin,
            &mut sink,
        );
        assert_eq!(m[0].name, "ops");
        assert_eq!(
            m[0].agents.as_ref().unwrap()[0],
            ("./agents/a.md".to_string(), Pos::new(2, 14))
        );
        assert_eq!(m[0].skills.as_ref().unwrap()[0].0, "./skills/k/");
        assert_eq!(m[0].base, Path::new("plugins/ops"));
    }

    #[test]
    fn claude_plugin_defaults_and_marketplace_entries() {
        let mut sink = Sink::new("p");
        let m = parse(
            br#"{"name": "x"}"#,
            "p",
            Path::new("x/.claude-plugin/plugin.json"),
            ManifestKind::ClaudePlugin,
            &mut sink,
        );
        assert_eq!(
            (m[0].agents.clone(), m[0].base.as_path()),
            (None, Path::new("x"))
        );
        let mk = br#"{"name": "m", "plugins": [{"name": "docs", "source": "./", "skills": ["./skills/xlsx"]}, {"name": "y", "source": "./y"}]}"#;
        let m = parse(
            mk,
            "m",
            Path::new("r/.claude-plugin/marketplace.json"),
            ManifestKind::ClaudeMarketplace,
            &mut sink,
        );
        assert_eq!(m.len(), 1);
        assert_eq!(m[0].via, "marketplace");
        assert!(sink.findings.is_empty());
        parse(
            b"{",
            "m",
            Path::new("r/plugin.json"),
            ManifestKind::AgentPlugin,
            &mut sink,
        );
        assert_eq!(sink.findings[0].rule, Rule::ManifestInvalid);
    }
}
