//! Hermes' gating: `metadata.hermes` with `requires_tools`, `requires_toolsets`,
//! `fallback_for_tools` and `fallback_for_toolsets` (Hermes hides a fallback while what it
//! stands in for is available), and the prerequisites Hermes reads from the top level:
//! `prerequisites` (`env_vars`, `commands`), `required_environment_variables` (names, or
//! objects with `name`) and `platforms` (`linux`, `macos`, `windows`).

use crate::diagnostic::{Pos, Sink};
use crate::model::{Declared, DepKind, Origin, Requirements};
use crate::parse::yaml::{Node, Value};
use crate::rules;

/// What the Hermes fields of one SKILL.md add up to, gathered as the fields are met.
#[derive(Debug, Default)]
pub(crate) struct Hermes {
    req: Requirements,
    at: Option<Pos>,
}

impl Hermes {
    /// `metadata` (the mapping): its `hermes` block, if any.
    pub(crate) fn metadata(&mut self, metadata: &Node, sink: &mut Sink) {
        let Some(block) = metadata.get("hermes") else {
            return;
        };
        let Some(entries) = block.as_map() else {
            return;
        };
        for (k, v) in entries {
            let (kind, fallback) = match k.as_str() {
                Some("requires_tools") => (DepKind::Tools, false),
                Some("requires_toolsets") => (DepKind::Toolsets, false),
                Some("fallback_for_tools") => (DepKind::Tools, true),
                Some("fallback_for_toolsets") => (DepKind::Toolsets, true),
                _ => continue,
            };
            let field = format!("hermes.{}", k.as_str().unwrap_or_default());
            let names = list(&field, v, sink);
            self.mark(block.pos, !names.is_empty());
            let group = self.req.group_mut(kind);
            if fallback {
                crate::model::extend_unique(&mut group.fallback_for, names);
            } else {
                group.extend_all(names);
            }
        }
    }

    /// A top-level key Hermes reads; false when `key` is not one of them.
    pub(crate) fn top_level(&mut self, key: &str, value: &Node, sink: &mut Sink) -> bool {
        match key {
            "prerequisites" => {
                // Prose (`prerequisites: Python 3`) is another convention, left to the
                // unknown-key rule.
                let Some(entries) = value.as_map() else {
                    return false;
                };
                for (k, v) in entries {
                    let kind = match k.as_str() {
                        Some("env_vars") => DepKind::Env,
                        Some("commands") => DepKind::Bins,
                        _ => continue,
                    };
                    let field = format!("prerequisites.{}", k.as_str().unwrap_or_default());
                    let names = list(&field, v, sink);
                    self.add(value.pos, kind, names);
                }
            }
            "required_environment_variables" => {
                let names = named_list(key, value, sink);
                self.add(value.pos, DepKind::Env, names);
            }
            "platforms" => {
                let names = list(key, value, sink);
                // `platforms: [claude-code, cursor]` (products) is another convention: only a
                // list naming an OS is Hermes'.
                if !names.iter().any(|n| os(n).is_some()) {
                    return false;
                }
                let mut oses = Vec::new();
                for name in names {
                    match os(&name) {
                        Some(o) => oses.push(o.to_owned()),
                        None => rules::deps::dialect_value(
                            sink,
                            value.pos,
                            Origin::Hermes,
                            key,
                            &name,
                            &["linux", "macos", "windows"],
                        ),
                    }
                }
                self.mark(value.pos, true);
                self.req
                    .group_mut(DepKind::Os)
                    .any
                    .get_or_insert_with(Vec::new)
                    .extend(oses);
            }
            _ => return false,
        }
        true
    }

    fn add(&mut self, at: Pos, kind: DepKind, names: Vec<String>) {
        self.mark(at, !names.is_empty());
        self.req.group_mut(kind).extend_all(names);
    }

    fn mark(&mut self, at: Pos, any: bool) {
        if any && self.at.is_none_or(|p| at < p) {
            self.at = Some(at);
        }
    }

    pub(crate) fn finish(self) -> Option<Declared> {
        let at = self.at?;
        (!self.req.is_empty()).then_some(Declared {
            source: Origin::Hermes,
            file: None,
            line: at.line,
            column: at.column,
            requirements: self.req,
            uses: Vec::new(),
            block: "",
        })
    }
}

/// Hermes' platform names, as OpenClaw's (the names profiles use).
fn os(name: &str) -> Option<&'static str> {
    match name.trim().to_ascii_lowercase().as_str() {
        "linux" => Some("linux"),
        "macos" | "darwin" | "mac" | "osx" => Some("darwin"),
        "windows" | "win32" => Some("win32"),
        _ => None,
    }
}

fn list(field: &str, node: &Node, sink: &mut Sink) -> Vec<String> {
    match &node.value {
        Value::Null => Vec::new(),
        Value::Str(s) => crate::parse::fields::split_names(s),
        Value::Seq(items) => items
            .iter()
            .filter_map(|i| match i.as_str().map(str::trim) {
                Some(s) if !s.is_empty() => Some(s.to_owned()),
                _ => {
                    rules::deps::dialect_shape(sink, i, Origin::Hermes, field, "a name");
                    None
                }
            })
            .collect(),
        _ => {
            rules::deps::dialect_shape(sink, node, Origin::Hermes, field, "a list of names");
            Vec::new()
        }
    }
}

/// A list of names or of objects with `name` (an `optional: true` object asks nothing).
fn named_list(field: &str, node: &Node, sink: &mut Sink) -> Vec<String> {
    let Some(items) = node.as_seq() else {
        return list(field, node, sink);
    };
    let mut out = Vec::new();
    for item in items {
        if let Some(s) = item.as_str() {
            out.push(s.trim().to_owned());
            continue;
        }
        let optional = item
            .get("optional")
            .is_some_and(|o| o.value == Value::Bool(true));
        match item.get("name").and_then(Node::as_str) {
            Some(n) if !optional => out.push(n.trim().to_owned()),
            Some(_) => {}
            None => rules::deps::dialect_shape(
                sink,
                item,
                Origin::Hermes,
                field,
                "a name or an object with `name`",
            ),
        }
    }
    out.retain(|n| !n.is_empty());
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::parse::yaml;

    fn run(src: &str) -> (Option<Declared>, usize) {
        let root = yaml::parse(src, 2).unwrap();
        let mut sink = Sink::new("x");
        let mut h = Hermes::default();
        for (k, v) in root.as_map().unwrap() {
            match k.as_str() {
                Some("metadata") => h.metadata(v, &mut sink),
                Some(k) => {
                    h.top_level(k, v, &mut sink);
                }
                None => {}
            }
        }
        (h.finish(), sink.findings.len())
    }

    #[test]
    fn metadata_and_prerequisites() {
        let (d, n) = run(
            "platforms: [linux, macos]\nprerequisites:\n  env_vars: [API_KEY]\n  commands: [curl]\nrequired_environment_variables:\n  - name: TOKEN\n  - name: OPTIONAL\n    optional: true\nmetadata:\n  hermes:\n    requires_tools: [web_search]\n    requires_toolsets: [terminal]\n    fallback_for_toolsets: [browser]\n",
        );
        assert_eq!(n, 0);
        let d = d.unwrap();
        assert_eq!((d.source, d.line), (Origin::Hermes, 2));
        let r = d.requirements;
        assert_eq!(
            r.group(DepKind::Os).any.as_deref().unwrap(),
            ["linux", "darwin"]
        );
        assert_eq!(r.group(DepKind::Env).all, ["API_KEY", "TOKEN"]);
        assert_eq!(r.group(DepKind::Bins).all, ["curl"]);
        assert_eq!(r.tools.all, ["web_search"]);
        assert_eq!(r.group(DepKind::Toolsets).all, ["terminal"]);
        assert_eq!(r.group(DepKind::Toolsets).fallback_for, ["browser"]);
    }

    #[test]
    fn nothing_declared() {
        assert!(run("metadata:\n  hermes:\n    tags: [a]\n").0.is_none());
        assert!(run("name: x\n").0.is_none());
        let (d, n) = run("platforms: [claude-code, cursor]\nprerequisites: Python 3\n");
        assert!(d.is_none());
        assert_eq!(n, 0);
        let (d, n) = run("platforms: [linux, beos]\n");
        assert_eq!(
            d.unwrap()
                .requirements
                .group(DepKind::Os)
                .any
                .as_deref()
                .unwrap(),
            ["linux"]
        );
        assert_eq!(n, 1);
    }
}
