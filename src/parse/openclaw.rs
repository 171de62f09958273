//! OpenClaw's gating, as OpenClaw documents it: `metadata.openclaw` (also the older keys
//! `clawdbot`, `clawdis` and `moltbot`) with `requires.bins` (all on `PATH`),
//! `requires.anyBins` (at least one), `requires.env` (variables set), `requires.config`
//! (config keys truthy) and `os` (`darwin`, `linux`, `win32`). OpenClaw hides a skill whose
//! requirements are unmet; `always: true` turns the gate off.

use crate::diagnostic::Sink;
use crate::model::{Declared, DepKind, Origin, Requirements};
use crate::parse::yaml::Node;
use crate::rules;

/// The keys OpenClaw has read its block from, newest first.
pub(crate) const KEYS: [&str; 4] = ["openclaw", "clawdbot", "clawdis", "moltbot"];

/// The lists of the block's `requires`.
pub(crate) const REQUIRES_FIELDS: [&str; 4] = ["bins", "anyBins", "env", "config"];

/// The keys of the block itself, beside `requires`.
const BLOCK_FIELDS: [&str; 7] = [
    "always",
    "emoji",
    "homepage",
    "install",
    "os",
    "primaryEnv",
    "skillKey",
];

/// The operating systems OpenClaw names.
const OSES: [&str; 3] = ["darwin", "linux", "win32"];

/// The requirements of the OpenClaw block in `metadata` (the mapping), if it has one.
pub(crate) fn read(metadata: &Node, sink: &mut Sink) -> Option<Declared> {
    let (key, block) = KEYS.iter().find_map(|k| metadata.get(k).map(|b| (*k, b)))?;
    let entries = block.as_map()?;
    let mut req = Requirements::default();
    let mut always = false;
    for (k, v) in entries {
        match k.as_str() {
            Some("requires") => requires(key, v, &mut req, sink),
            Some("os") => {
                for (name, pos) in names(key, "os", v, sink) {
                    if OSES.contains(&name.as_str()) {
                        req.group_mut(DepKind::Os)
                            .any
                            .get_or_insert_with(Vec::new)
                            .push(name);
                    } else {
                        rules::deps::dialect_value(sink, pos, Origin::Openclaw, "os", &name, &OSES);
                    }
                }
            }
            Some("always") => always = v.value == crate::parse::yaml::Value::Bool(true),
            _ => {}
        }
    }
    if always || req.is_empty() {
        return None;
    }
    Some(Declared {
        source: Origin::Openclaw,
        file: None,
        line: block.pos.line,
        column: block.pos.column,
        requirements: req,
        uses: Vec::new(),
        block: key,
    })
}

fn requires(key: &str, node: &Node, req: &mut Requirements, sink: &mut Sink) {
    let Some(entries) = node.as_map() else {
        if !node.is_null() {
            rules::deps::dialect_shape(
                sink,
                node,
                Origin::Openclaw,
                &format!("{key}.requires"),
                "a mapping",
            );
        }
        return;
    };
    for (k, v) in entries {
        let field = k.as_str().unwrap_or_default();
        let (kind, any) = match field {
            "bins" => (DepKind::Bins, false),
            "anyBins" => (DepKind::Bins, true),
            "env" => (DepKind::Env, false),
            "config" => (DepKind::Config, false),
            _ => {
                let up = BLOCK_FIELDS
                    .contains(&field)
                    .then(|| format!("{key}.{field}"));
                rules::deps::dialect_unknown_key(
                    sink,
                    k,
                    Origin::Openclaw,
                    &format!("{key}.requires"),
                    &REQUIRES_FIELDS,
                    up.as_deref(),
                );
                continue;
            }
        };
        let group = req.group_mut(kind);
        let listed = names(key, &format!("requires.{field}"), v, sink)
            .into_iter()
            .map(|(name, _)| name);
        if any {
            crate::model::extend_unique(group.any.get_or_insert_with(Vec::new), listed);
        } else {
            group.extend_all(listed);
        }
    }
}

/// A list of names under the block; a lone string is read as one name.
pub(crate) fn names(
    key: &str,
    field: &str,
    node: &Node,
    sink: &mut Sink,
) -> Vec<(String, crate::diagnostic::Pos)> {
    match &node.value {
        crate::parse::yaml::Value::Null => Vec::new(),
        crate::parse::yaml::Value::Str(s) if !s.trim().is_empty() => {
            vec![(s.trim().to_owned(), node.pos)]
        }
        crate::parse::yaml::Value::Seq(items) => items
            .iter()
            .filter_map(|item| match item.as_str().map(str::trim) {
                Some(s) if !s.is_empty() => Some((s.to_owned(), item.pos)),
                _ => {
                    rules::deps::dialect_shape(
                        sink,
                        item,
                        Origin::Openclaw,
                        &format!("{key}.{field}"),
                        "a name",
                    );
                    None
                }
            })
            .collect(),
        _ => {
            rules::deps::dialect_shape(
                sink,
                node,
                Origin::Openclaw,
                &format!("{key}.{field}"),
                "a list of names",
            );
            Vec::new()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::parse::yaml;
    use crate::rules::Rule;

    fn run(src: &str) -> (Option<Declared>, Vec<(Rule, u32)>) {
        let node = yaml::parse(src, 2).unwrap();
        let mut sink = Sink::new("x");
        let d = read(node.get("metadata").unwrap(), &mut sink);
        (d, sink.findings.iter().map(|f| (f.rule, f.line)).collect())
    }

    #[test]
    fn flow_mapping_with_every_requirement() {
        let (d, f) = run(
            "metadata: {\"openclaw\":{\"emoji\":\"x\",\"os\":[\"darwin\",\"linux\"],\"requires\":{\"bins\":[\"jq\",\"curl\"],\"anyBins\":[\"rg\",\"grep\"],\"env\":[\"TOKEN\"],\"config\":[\"browser.enabled\"]}}}\n",
        );
        assert!(f.is_empty(), "{f:?}");
        let d = d.unwrap();
        assert_eq!(d.source, Origin::Openclaw);
        assert_eq!(d.line, 2);
        let r = d.requirements;
        assert_eq!(r.group(DepKind::Bins).all, ["jq", "curl"]);
        assert_eq!(
            r.group(DepKind::Bins).any.as_deref().unwrap(),
            ["rg", "grep"]
        );
        assert_eq!(r.group(DepKind::Env).all, ["TOKEN"]);
        assert_eq!(r.group(DepKind::Config).all, ["browser.enabled"]);
        assert_eq!(
            r.group(DepKind::Os).any.as_deref().unwrap(),
            ["darwin", "linux"]
        );
    }

    #[test]
    fn older_keys_and_block_style() {
        let (d, f) = run("metadata:\n  clawdbot:\n    requires:\n      bins:\n        - curl\n");
        assert!(f.is_empty());
        assert_eq!(d.unwrap().requirements.group(DepKind::Bins).all, ["curl"]);
        let (d, _) = run("metadata:\n  moltbot:\n    requires: {env: [A]}\n");
        assert_eq!(d.unwrap().requirements.group(DepKind::Env).all, ["A"]);
    }

    #[test]
    fn nothing_required_or_gate_off() {
        assert!(
            run("metadata: {\"clawdbot\":{\"emoji\":\"x\"}}\n")
                .0
                .is_none()
        );
        assert!(
            run("metadata: {\"openclaw\":{\"requires\":{\"bins\":[]}}}\n")
                .0
                .is_none()
        );
        assert!(
            run("metadata: {\"openclaw\":{\"always\":true,\"requires\":{\"bins\":[\"x\"]}}}\n")
                .0
                .is_none()
        );
        assert!(run("metadata: {tags: a}\n").0.is_none());
    }

    #[test]
    fn shapes_and_unknown_keys_are_reported() {
        let (d, f) = run(
            "metadata:\n  openclaw:\n    os: [darwin, macos]\n    requires:\n      bins: curl\n      npm: [x]\n      env: [{a: 1}]\n",
        );
        let r = d.unwrap().requirements;
        assert_eq!(
            r.group(DepKind::Bins).all,
            ["curl"],
            "a lone string is one name"
        );
        assert_eq!(r.group(DepKind::Os).any.as_deref().unwrap(), ["darwin"]);
        assert_eq!(
            f,
            [
                (Rule::DialectShape, 4),
                (Rule::DialectShape, 7),
                (Rule::DialectShape, 8)
            ]
        );
    }
}
