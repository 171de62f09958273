//! Parse one SKILL.md into a [`Skill`]. Shape problems of each field are reported here, where
//! the field is read; rules about values (lengths, character sets) live in `rules::spec`.

use std::path::Path;

use crate::diagnostic::Sink;
use crate::model::{DeclaredBy, Requirements, Skill, SkillFields};

use crate::parse::markdown::{self, BodyLink};
use crate::parse::yaml::{Node, Value};
use crate::parse::{dependencies, document, fields};
use crate::rules;
use crate::vecmap::VecMap;

/// A parsed skill plus what its rules still need; everything but `skill` is dropped after the
/// per-file rules run.
#[derive(Debug)]
pub struct ParsedSkill {
    pub skill: Skill,
    /// The frontmatter mapping, when it could be read.
    pub root: Option<Node>,
    /// Relative links from the body, those whose target the caller wanted (see [`parse`]).
    pub links: Vec<BodyLink>,
    /// Lines in the whole file.
    pub line_count: u32,
}

/// Parse `bytes`, the content of the skill file at `fs_path` (shown as `path`). Of the body's
/// relative links, only those whose target `wanted_link` picks are kept (a rule that reports
/// missing files wants the missing ones): finding links costs a Markdown parse, paid only when
/// some target is wanted.
pub fn parse(
    bytes: &[u8],
    path: &str,
    fs_path: &Path,
    sink: &mut Sink,
    wanted_link: impl Fn(&str) -> bool,
) -> ParsedSkill {
    let folder = fs_path
        .parent()
        .and_then(Path::file_name)
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let invalid = |line_count| ParsedSkill {
        skill: Skill::invalid(folder.clone(), path.to_owned(), fs_path.to_owned()),
        root: None,
        links: Vec::new(),
        line_count,
    };
    let doc = match document(bytes, "skill", sink) {
        Ok(d) => d,
        Err(_) => return invalid(0),
    };
    let root = doc.root;
    let line_count = doc.line_count;
    let skill = read_fields(&root, folder, path, fs_path, sink);
    let links = markdown::relative_links(doc.body, doc.body_line, wanted_link);
    ParsedSkill {
        skill,
        root: Some(root),
        links,
        line_count,
    }
}

/// Read every known field of the frontmatter mapping.
fn read_fields(root: &Node, folder: String, path: &str, fs_path: &Path, sink: &mut Sink) -> Skill {
    let mut skill = Skill::invalid(folder, path.to_owned(), fs_path.to_owned());
    skill.invalid = false;
    let mut f = SkillFields::default();
    let mut deps: Option<(Requirements, bool)> = None;
    let mut tools_ok = true;
    let Some(entries) = root.as_map() else {
        return skill;
    };
    for (key, value) in entries {
        let Some(k) = key.as_str() else {
            f.unknown_keys
                .push(key.scalar_text().unwrap_or_else(|| key.kind().to_owned()));
            continue;
        };
        match k {
            "name" => {
                skill.name_pos = value.pos;
                match value.as_str().map(str::trim) {
                    Some(n) if !n.is_empty() => skill.name = n.to_owned(),
                    _ => rules::spec::name_type(sink, value),
                }
            }
            "description" => match value.as_str() {
                Some(d) if !d.trim().is_empty() => skill.description = Some(d.to_owned()),
                _ => rules::spec::description_type(sink, value),
            },
            "license" => match fields::text(value) {
                Some(t) => f.license = Some(t),
                None => rules::spec::license_type(sink, value),
            },
            "compatibility" => match value.as_str() {
                Some(c) if !c.trim().is_empty() => f.compatibility = Some(c.to_owned()),
                _ => rules::spec::compatibility_type(sink, value),
            },
            "metadata" => f.metadata = read_metadata(value, sink),
            "allowed-tools" => {
                if let Some(s) = value.as_str() {
                    f.allowed_tools = fields::split_names(s);
                } else if let Some(list) =
                    fields::name_list(value, k, rules::spec::allowed_tools_shape, sink)
                {
                    if value.as_seq().is_some() {
                        rules::spec::allowed_tools_list(sink, value.pos);
                    }
                    f.allowed_tools = list;
                }
            }
            "argument-hint" => f.argument_hint = host_text(k, value, sink),
            "context" => f.context = host_text(k, value, sink),
            "agent" => f.agent = host_text(k, value, sink),
            "effort" => f.effort = host_text(k, value, sink),
            "when_to_use" => f.when_to_use = host_text(k, value, sink),
            "arguments" => f.arguments = host_text(k, value, sink),
            "shell" => f.shell = host_text(k, value, sink),
            "user-invocable" | "user-invokable" => {
                f.invocation.user_invocable = host_bool(k, value, sink)
            }
            "disable-model-invocation" => {
                f.invocation.disable_model_invocation = host_bool(k, value, sink)
            }
            "background" => f.background = host_bool(k, value, sink),
            "disallowed-tools" => {
                f.disallowed_tools =
                    fields::name_list(value, k, rules::spec::host_field_shape, sink)
                        .unwrap_or_default();
            }
            "paths" => {
                f.paths = fields::name_list(value, k, rules::spec::host_field_shape, sink)
                    .unwrap_or_default()
            }
            "model" => skill.model = read_model(value, sink),
            // A path (read later, from the skill's folder) or handlers written inline.
            "hooks" => f.hooks = crate::parse::hooks::read(value, sink),
            "tools" => match fields::name_list(value, k, rules::deps::capability_field_shape, sink)
            {
                Some(t) => skill.tools = Some(t),
                None => tools_ok = false,
            },
            "mcp-servers" => {
                match fields::key_or_name_list(value, k, rules::deps::capability_field_shape, sink)
                {
                    Some(s) => skill.mcp_servers = s,
                    None => tools_ok = false,
                }
            }
            "dependencies" => {
                let p = dependencies::parse(value, sink);
                deps = Some((p.requirements, p.valid));
            }
            _ => f.unknown_keys.push(k.to_owned()),
        }
    }
    skill.fields = Box::new(f);
    match deps {
        Some((req, valid)) => {
            skill.dependencies = req;
            skill.requirements_invalid = !valid;
            skill.declared_by = DeclaredBy::Dependencies;
        }
        None => {
            // Without `dependencies`, the agent-style `tools` list is what the skill needs, and
            // each `mcp-servers` entry needs that server.
            let mut req = Requirements::default();
            req.tools.all.extend(skill.tools.iter().flatten().cloned());
            req.tools
                .all
                .extend(skill.mcp_servers.iter().map(|s| format!("{s}/*")));
            skill.requirements_invalid = !tools_ok;
            skill.declared_by = if req.is_empty() && tools_ok {
                DeclaredBy::Nothing
            } else {
                DeclaredBy::ToolsField
            };
            skill.dependencies = req;
        }
    }
    skill
}

fn host_text(key: &str, value: &Node, sink: &mut Sink) -> Option<String> {
    let t = fields::text(value);
    if t.is_none() && !value.is_null() {
        rules::spec::host_text_type(sink, key, value);
    }
    t
}

fn host_bool(key: &str, value: &Node, sink: &mut Sink) -> Option<bool> {
    let b = fields::boolean(value);
    if b.is_none() {
        rules::spec::host_bool_type(sink, key, value);
    }
    b
}

fn read_model(value: &Node, sink: &mut Sink) -> Vec<String> {
    match &value.value {
        Value::Str(s) => vec![s.trim().to_owned()],
        Value::Null => Vec::new(),
        Value::Seq(_) => {
            fields::name_list(value, "model", rules::deps::capability_field_shape, sink)
                .unwrap_or_default()
        }
        _ => {
            rules::deps::model_type(sink, value);
            Vec::new()
        }
    }
}

fn read_metadata(value: &Node, sink: &mut Sink) -> VecMap<String, String> {
    // Collected once at the end: sorting is O(n log n) even for a hostile number of keys.
    let mut out: Vec<(String, String)> = Vec::new();
    let Some(entries) = value.as_map() else {
        if !value.is_null() {
            rules::spec::metadata_type(sink, value);
        }
        return VecMap::new();
    };
    for (k, v) in entries {
        let key = k.scalar_text().unwrap_or_default();
        match &v.value {
            Value::Str(s) => {
                out.push((key, s.clone()));
            }
            Value::Bool(_) | Value::Int(_) | Value::Float(_) => {
                rules::spec::metadata_value_not_text(sink, &key, v);
                let text = v.scalar_text().unwrap_or_default();
                out.push((key, text));
            }
            _ => rules::spec::metadata_value_type(sink, &key, v),
        }
    }
    out.into_iter().collect()
}
