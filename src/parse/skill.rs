//! Parse one SKILL.md into a [`Skill`]. Shape problems of each field are reported here, where
//! the field is read; rules about values (lengths, character sets) live in `rules::spec`.

use std::path::Path;

use crate::diagnostic::Pos;
use crate::diagnostic::Sink;
use crate::model::{
    Blocked, Declared, DeclaredBy, MetadataRoom, Origin, Requirements, Skill, SkillFields,
};

use crate::parse::markdown::{self, Body};
use crate::parse::yaml::{Node, Value};
use crate::parse::{dependencies, document, fields, hermes, openclaw, packages};
use crate::rules;
use crate::vecmap::VecMap;

/// A parsed skill plus what its rules still need; everything but `skill` is dropped after the
/// per-file rules run.
#[derive(Debug)]
pub struct ParsedSkill {
    pub skill: Skill,
    /// The frontmatter mapping, when it could be read.
    pub root: Option<Node>,
    /// What the body refers to (`rules::references` parses its links when it needs them).
    pub body: Body,
    /// Lines in the whole file.
    pub line_count: u32,
    /// What the body's shell blocks run and read, and the tools it names.
    pub uses: Vec<crate::model::Use>,
}

/// Parse `bytes`, the content of the skill file at `fs_path` (shown as `path`).
pub fn parse(bytes: &[u8], path: &str, fs_path: &Path, sink: &mut Sink) -> ParsedSkill {
    let mut parsed = read(bytes, path, fs_path, sink);
    parsed.skill.fields.file_bytes = u64::try_from(bytes.len()).unwrap_or(u64::MAX);
    let digest = ring::digest::digest(&ring::digest::SHA256, bytes);
    parsed
        .skill
        .fields
        .file_digest
        .copy_from_slice(digest.as_ref());
    let bom = crate::parse::frontmatter::BOM.as_bytes();
    parsed.skill.fields.bom = bytes
        .strip_prefix(bom)
        .is_some_and(|rest| rest.starts_with(b"---"));
    if let Ok(text) = std::str::from_utf8(bytes.strip_prefix(bom).unwrap_or(bytes)) {
        let f = &mut parsed.skill.fields;
        f.trimmed_close = trimmed_close(text);
        let first = text.split('\n').next().unwrap_or_default();
        f.open_padded =
            crate::parse::frontmatter::is_delimiter(first) && first.trim_end_matches('\r') != "---";
        // Boxed: rare, and every skill holds the field.
        f.dash_fenced = dash_fenced(text).map(Box::new);
        if let Some(root) = &parsed.root {
            f.scalars = crate::model::Written::by(|key| scalar_as_written(text, root.get(key)));
            // A host that reads lines when these are not both strings finds its own.
            if (f.name_written.is_none() || f.description_written.is_none())
                && let Ok(split) = crate::parse::frontmatter::split(text)
            {
                f.line_keys = Some(line_keys(split.yaml));
            }
        }
    }
    parsed
}

/// The text of `node`, a scalar YAML typed as something other than a string, as the file
/// writes it (`123`, `1.50`, `~`; nothing after the colon is empty), as a reader that takes
/// any scalar into a string gets it.
fn scalar_as_written(text: &str, node: Option<&Node>) -> Option<String> {
    let node = node?;
    if matches!(node.value, Value::Str(_) | Value::Seq(_) | Value::Map(_)) {
        return None;
    }
    let line = text
        .split('\n')
        .nth(usize::try_from(node.pos.line.checked_sub(1)?).ok()?)?;
    let from = usize::try_from(node.pos.column.saturating_sub(1)).ok()?;
    let rest: String = line.chars().skip(from).collect();
    let rest = rest.split(" #").next().unwrap_or_default();
    let token = rest
        .split([',', ']', '}'])
        .next()
        .unwrap_or_default()
        .trim();
    if node.is_null() {
        // An empty value has no text of its own where it is placed.
        let named = matches!(token, "~" | "null" | "Null" | "NULL");
        return Some(if named {
            token.to_owned()
        } else {
            String::new()
        });
    }
    if token.is_empty() {
        return node.scalar_text();
    }
    Some(token.to_owned())
}

/// The frontmatter as a host that ends it at the next line that starts with `---` reads it,
/// when that line, or the first, is not where skill-audit opens and ends one: the block from
/// the fifth character (or, when the first line is a `---` line, from the second line) to
/// that line, read as YAML, as YAML made text, from its lines, and with its colons quoted.
fn dash_fenced(text: &str) -> Option<crate::model::DashFenced> {
    use crate::parse::frontmatter::is_delimiter;
    let text: std::borrow::Cow<str> = if text.contains('\r') {
        text.replace("\r\n", "\n").replace('\r', "\n").into()
    } else {
        text.into()
    };
    if !text.starts_with("---") {
        return None;
    }
    let end = 3 + text.get(3..)?.find("\n---")?;
    let first = text.split('\n').next().unwrap_or_default();
    let close = text[end + 1..].split('\n').next().unwrap_or_default();
    let opened = is_delimiter(first);
    if opened && is_delimiter(close) {
        return None;
    }
    // After a `---` line, from the next line on: the same YAML and lines as from the fifth
    // character, where a host that reads the block so starts.
    let from = if opened { first.len() + 1 } else { 4 };
    let block = text.get(from.min(end)..end).unwrap_or_default();
    let line = u32::try_from(memchr::memchr_iter(b'\n', &text.as_bytes()[..=end]).count())
        .unwrap_or(u32::MAX)
        .saturating_add(1);
    let root = crate::parse::yaml::parse(block, 2).ok();
    let lines = line_keys(block);
    let coerced = match root.as_ref().filter(|root| root.as_map().is_some()) {
        Some(root) => {
            let coerced = |key: &str| {
                let node = root.get(key)?;
                match &node.value {
                    Value::Null => None,
                    Value::Str(s) => Some(s.trim().to_owned()),
                    Value::Seq(_) | Value::Map(_) => Some(if node.as_map().is_some() {
                        "{…}".to_owned()
                    } else {
                        "[…]".to_owned()
                    }),
                    _ => node.scalar_text(),
                }
            };
            crate::model::Written::by(coerced)
        }
        None => lines_read(&lines, true),
    };
    let yaml = root.as_ref().map(strings_of);
    let colons_quoted = if root.is_none() {
        colons_quoted(block, 2)
    } else {
        None
    };
    Some(crate::model::DashFenced {
        line,
        close: close.chars().take(40).collect(),
        opened,
        coerced,
        yaml,
        lines,
        colons_quoted,
    })
}

/// `name` and `description` of a YAML frontmatter, where they are strings.
fn strings_of(root: &Node) -> crate::model::Written {
    crate::model::Written::by(|key| root.get(key)?.as_str().map(str::to_owned))
}

/// `name` and `description` from `keys`, as [`line_value`] reads them.
pub(crate) fn lines_read(keys: &[(String, String)], margin: bool) -> crate::model::Written {
    crate::model::Written::by(|key| line_value(keys, key, margin).map(str::to_owned))
}

/// The value of the last `key:` line of `keys` (a later line overrides an earlier one, as
/// the hosts that read lines assign each in turn). With `margin`, as a host that reads only
/// keys at the left margin does: quotes around the value taken off, and a line whose value
/// is then empty skipped (empty when every such line is).
pub(crate) fn line_value<'k>(
    keys: &'k [(String, String)],
    key: &str,
    margin: bool,
) -> Option<&'k str> {
    if !margin {
        return keys
            .iter()
            .rev()
            .find(|(k, _)| k.trim_start() == key)
            .map(|(_, v)| v.as_str());
    }
    let mut values = keys.iter().rev().filter(|(k, _)| k == key).peekable();
    values.peek()?;
    let mut unquoted = values.map(|(_, v)| {
        let quoted = ['"', '\'']
            .into_iter()
            .any(|q| v.starts_with(q) && v.ends_with(q));
        // A lone quote both starts and ends it: nothing is left.
        if quoted {
            v.get(1..v.len() - 1).unwrap_or_default()
        } else {
            v.as_str()
        }
    });
    Some(unquoted.find(|v| !v.is_empty()).unwrap_or_default())
}

/// The frontmatter of `text` (BOM removed) as a host that ends it at the first line that is
/// `---` once trimmed reads it, when that line is indented: skill-audit ends it at a later
/// line, or nowhere.
fn trimmed_close(text: &str) -> Option<crate::model::TrimmedClose> {
    let mut lines = text.split('\n').zip(1u32..);
    let (first, _) = lines.next()?;
    if first.trim_end_matches(['\r', ' ', '\t']) != "---" {
        return None;
    }
    let yaml_start = first.len() + 1;
    let mut at = yaml_start;
    for (line, n) in lines {
        if line.trim() == "---" {
            // Where skill-audit ends it too.
            if line.trim_end_matches(['\r', ' ', '\t']) == "---" {
                return None;
            }
            let yaml = &text[yaml_start.min(at)..at];
            let read = (!yaml.trim().is_empty())
                .then(|| crate::parse::yaml::parse(yaml, 2).ok())
                .flatten()
                .filter(|root| root.as_map().is_some())
                .map(|root| strings_of(&root));
            return Some(crate::model::TrimmedClose { line: n, read });
        }
        at += line.len() + 1;
    }
    None
}

/// [`parse`], but for the file's size.
fn read(bytes: &[u8], path: &str, fs_path: &Path, sink: &mut Sink) -> ParsedSkill {
    let folder = crate::paths::folder_name_text(fs_path);
    let invalid = |line_count| ParsedSkill {
        skill: Skill::invalid(folder.clone(), path.to_owned(), fs_path.to_owned()),
        root: None,
        body: Body::default(),
        line_count,
        uses: Vec::new(),
    };
    let doc = match document(bytes, "skill", sink) {
        Ok(d) => d,
        Err(why) => {
            let mut out = invalid(0);
            out.skill.fields.unreadable = Some(why);
            let Ok(text) = std::str::from_utf8(bytes) else {
                return out;
            };
            // Without a body of its own, the whole text is what the skill says.
            out.skill.fields.installers_named = crate::parse::usage::installers_named(text);
            if let Ok(split) = crate::parse::frontmatter::split(text) {
                out.skill.fields.frontmatter_empty = split.yaml.trim().is_empty();
                // No line at all between the `---` lines: none to read.
                out.skill.fields.line_keys =
                    (!split.yaml.is_empty()).then(|| line_keys(split.yaml));
                out.skill.fields.colons_quoted = colons_quoted(split.yaml, split.yaml_line);
                out.skill.fields.tabs_read = tabs_read(split.yaml, split.yaml_line).map(Box::new);
                // A host that loads the skill anyway gives the model its body: what the body
                // runs is still what the skill uses.
                out.uses = crate::parse::usage::of_body(split.body, split.body_line, &[]);
            }
            return out;
        }
    };
    let root = doc.root;
    let line_count = doc.line_count;
    let mut skill = read_fields(&root, folder, path, fs_path, sink);
    skill.fields.frontmatter_end = frontmatter_end(bytes, doc.body.len(), doc.body_line, &root);
    skill.fields.unnamed = unnamed(&skill, &root, doc.body);
    let body = markdown::scan(doc.body, doc.body_line, bytes.len() - doc.body.len());
    let body_uses = crate::parse::usage::read_body(doc.body, doc.body_line, &skill.mcp_servers);
    let uses = body_uses.uses;
    skill.fields.scripts_of_other_ways = body_uses.scripts_of_other_ways;
    skill.fields.installers_named = crate::parse::usage::installers_named(doc.body);
    ParsedSkill {
        skill,
        root: Some(root),
        body,
        line_count,
        uses,
    }
}

/// The `key: value` lines of a delimited frontmatter that is not YAML, as a host that falls
/// back to reading lines sees them (a key at a line's start, after any indentation, which the
/// key keeps: some hosts read only keys at the left margin). A key at the left margin with
/// nothing after its colon, above an indented line, takes the lines below it up to the next
/// one at the margin that is not empty, joined and trimmed, as OpenClaw's line reader does.
fn line_keys(yaml: &str) -> Vec<(String, String)> {
    let lines: Vec<&str> = yaml.lines().collect();
    let mut out = Vec::new();
    for (i, line) in lines.iter().enumerate() {
        let Some((key, value)) = line.split_once(':') else {
            continue;
        };
        let word = key.trim_start();
        let plain = !word.is_empty()
            && word
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_');
        if !plain {
            continue;
        }
        let mut value = value.trim().to_owned();
        let below = lines.get(i + 1..).unwrap_or_default();
        if value.is_empty()
            && word.len() == key.len()
            && below.first().is_some_and(|l| l.starts_with([' ', '\t']))
        {
            let held: Vec<&str> = below
                .iter()
                .take_while(|l| l.is_empty() || l.starts_with([' ', '\t']))
                .copied()
                .collect();
            value = held.join("\n").trim().to_owned();
        }
        out.push((key.to_owned(), value));
    }
    out
}

/// The executables and variables that `skill`'s declarations in the SKILL.md list and `body`
/// never names, each once, at its entry in the frontmatter `root` when found there.
fn unnamed(skill: &Skill, root: &Node, body: &str) -> Vec<crate::model::Unnamed> {
    let mut listing = Vec::new();
    for d in skill
        .requirements
        .iter()
        .filter(|d| d.source != Origin::Inferred && d.file.is_none())
    {
        for kind in [crate::model::DepKind::Bins, crate::model::DepKind::Env] {
            let group = d.requirements.group(kind);
            for name in group.all.iter().chain(group.any.iter().flatten()) {
                listing.push((d, kind, name.as_str()));
            }
        }
    }
    let mut out: Vec<crate::model::Unnamed> = Vec::new();
    if listing.is_empty() {
        return out;
    }
    let named = crate::parse::usage::mentioned(body, listing.iter().map(|(_, _, n)| *n));
    let mut seen: foldhash::HashSet<&str> = foldhash::HashSet::default();
    // Where each name is listed, found in one walk of the frontmatter when first asked.
    let mut listed: Option<foldhash::HashMap<&str, (Pos, &'static str)>> = None;
    for (d, kind, name) in listing {
        if named.contains(name) || !seen.insert(name) {
            continue;
        }
        let listed = listed.get_or_insert_with(|| {
            let mut at = foldhash::HashMap::default();
            listed_at(root, None, &mut at);
            at
        });
        let entry = listed.get(name).copied();
        out.push(crate::model::Unnamed {
            name: name.to_owned(),
            kind,
            source: d.source,
            at: entry
                .map(|(pos, _)| pos)
                .or_else(|| d.at())
                .unwrap_or(skill.name_pos),
            list: entry.map(|(_, list)| list),
            block: d.block,
        });
    }
    out
}

/// Where each entry of a list of executables or variables (`bins`, `anyBins`, `env`,
/// `commands`, `env_vars`, Hermes' `required_environment_variables`, whose entries may be
/// mappings with a `name`) below `node` is first written, and that list's key; `list`: `node`
/// is such a list, or an entry of one.
fn listed_at<'n>(
    node: &'n Node,
    list: Option<&'static str>,
    at: &mut foldhash::HashMap<&'n str, (Pos, &'static str)>,
) {
    const LISTS: &[&str] = &[
        "bins",
        "anyBins",
        "env",
        "commands",
        "env_vars",
        "required_environment_variables",
    ];
    match &node.value {
        Value::Str(s) => {
            if let Some(list) = list {
                at.entry(s.trim()).or_insert((node.pos, list));
            }
        }
        Value::Seq(items) => {
            for item in items {
                listed_at(item, list, at);
            }
        }
        Value::Map(entries) => {
            for (k, v) in entries {
                let key = k.as_str().unwrap_or_default();
                let inner = match LISTS.iter().find(|l| **l == key) {
                    Some(l) => Some(*l),
                    None if key == "name" => list,
                    None => None,
                };
                listed_at(v, inner, at);
            }
        }
        _ => {}
    }
}

/// `name` and `description` of a frontmatter that is not YAML, read again with every
/// top-level `key: value` whose plain value holds a colon turned into a block scalar (OpenCode's
/// fallback); `None` when that is not YAML either, or not a mapping.
fn colons_quoted(yaml: &str, first_line: u32) -> Option<crate::model::Written> {
    let mut quoted = String::with_capacity(yaml.len() + 64);
    for line in yaml.split('\n') {
        let line = line.strip_suffix('\r').unwrap_or(line);
        if let Some(block) = as_block(line) {
            quoted.push_str(&block);
        } else {
            quoted.push_str(line);
        }
        quoted.push('\n');
    }
    // The host reads it again with js-yaml 3, which measures tab-indented lines its own way.
    let first_indented = yaml
        .lines()
        .find(|l| !l.trim().is_empty() && !l.trim_start().starts_with('#'))
        .is_some_and(|l| l.starts_with([' ', '\t']));
    if !first_indented && let Some(tabs) = tabs_as_js_yaml_3(&quoted) {
        quoted = tabs;
    }
    let root = crate::parse::yaml::parse(&quoted, first_line).ok()?;
    root.as_map()?;
    Some(strings_of(&root))
}

/// `yaml` with each line's indentation that holds a tab cut to the spaces before its first
/// tab, as js-yaml 3 measures it: a key indented with a tab is at the left margin there.
/// `None` when no line is indented with a tab.
fn tabs_as_js_yaml_3(yaml: &str) -> Option<String> {
    let mut out = String::with_capacity(yaml.len());
    let mut tabs = false;
    for line in yaml.split('\n') {
        let rest = line.trim_start_matches([' ', '\t']);
        let indent = &line[..line.len() - rest.len()];
        if indent.contains('\t') && !rest.is_empty() {
            tabs = true;
            let spaces = indent.len() - indent.trim_start_matches(' ').len();
            out.push_str(&" ".repeat(spaces));
            out.push_str(rest);
        } else {
            out.push_str(line);
        }
        out.push('\n');
    }
    out.pop();
    tabs.then_some(out)
}

/// `name` and `description` of a frontmatter that is not YAML, as js-yaml 3 reads it: with
/// its tab-indented lines measured by [`tabs_as_js_yaml_3`]. `None` when no line is indented
/// with a tab, when the first key is (js-yaml 3 then ends the mapping at the next line, and
/// fails), or when it is still not a YAML mapping.
fn tabs_read(yaml: &str, first_line: u32) -> Option<crate::model::Written> {
    let first = yaml
        .lines()
        .find(|l| !l.trim().is_empty() && !l.trim_start().starts_with('#'))?;
    if first.starts_with([' ', '\t']) {
        return None;
    }
    let read = tabs_as_js_yaml_3(yaml)?;
    let root = crate::parse::yaml::parse(&read, first_line).ok()?;
    root.as_map()?;
    Some(strings_of(&root))
}

/// `key: value` as `key: |-` and the value indented below it, for a line at the left margin
/// whose key is a plain word (`[A-Za-z_][A-Za-z0-9_]*`) and whose value, neither quoted nor a
/// block indicator, holds a colon.
fn as_block(line: &str) -> Option<String> {
    let (key, rest) = line.split_once(':')?;
    let key = key.trim_end_matches([' ', '\t']);
    let mut bytes = key.bytes();
    let word = bytes
        .next()
        .is_some_and(|b| b.is_ascii_alphabetic() || b == b'_')
        && bytes.all(|b| b.is_ascii_alphanumeric() || b == b'_');
    let value = rest.trim();
    let keep = !word
        || value.is_empty()
        || value == ">"
        || value == "|"
        || value.starts_with(['"', '\''])
        || !value.contains(':');
    (!keep).then(|| format!("{key}: |-\n  {value}"))
}

/// The closing `---` line of a file of `bytes` whose body is its last `body_len` bytes and
/// starts on line `body_line`.
fn frontmatter_end(
    bytes: &[u8],
    body_len: usize,
    body_line: u32,
    root: &Node,
) -> Option<crate::model::FrontmatterEnd> {
    let head = bytes.get(..bytes.len().checked_sub(body_len)?)?;
    let head = head.strip_suffix(b"\n").unwrap_or(head);
    let offset = memchr::memrchr(b'\n', head).map_or(0, |i| i + 1);
    let line = body_line.checked_sub(1)?;
    let room = metadata_room(bytes, root, (offset, line));
    Some(crate::model::FrontmatterEnd {
        offset: u32::try_from(offset).ok()?,
        line,
        crlf: offset >= 2 && bytes[offset - 2] == b'\r',
        has_dependencies: root.get("dependencies").is_some(),
        has_metadata: root.get("metadata").is_some(),
        has_prerequisites: root.get("prerequisites").is_some(),
        metadata_room: room.and_then(Result::ok),
        metadata_blocked: room.and_then(Result::err),
    })
}

/// Where OpenClaw's `requires` can be written into the `metadata` mapping (see
/// [`MetadataRoom`]): into the OpenClaw block OpenClaw reads, when it has no `requires`, else
/// beside `metadata`'s other keys. In a flow mapping that is before its closing `}`; in a
/// block mapping, a line before the next key of the mapping around it (or `end`, the closing
/// `---`), indented as the block's keys are.
fn metadata_room(
    bytes: &[u8],
    root: &Node,
    end: (usize, u32),
) -> Option<Result<MetadataRoom, Blocked>> {
    let entries = root.as_map()?;
    let (key, value) = entries
        .iter()
        .find(|(k, _)| k.as_str() == Some("metadata"))?;
    let text = std::str::from_utf8(bytes).ok()?;
    let Some(children) = value.as_map() else {
        return Some(match value.value {
            Value::Null => null_metadata(text, key).ok_or(Blocked::Layout),
            _ => Err(Blocked::NotMapping),
        });
    };
    // The block OpenClaw reads, of those there are.
    let reads = openclaw::KEYS.iter().find(|k| value.get(k).is_some());
    let openclaw = reads.and_then(|r| children.iter().find(|(k, _)| k.as_str() == Some(r)));
    let (outer, inner) = match openclaw {
        Some((k, b)) if b.get("requires").is_some() => {
            let name = openclaw::KEYS.iter().find(|r| k.as_str() == Some(r));
            return Some(Err(Blocked::Requires(name.copied().unwrap_or("openclaw"))));
        }
        Some((k, b)) => (k, b),
        None => (key, value),
    };
    let open = crate::span::offset(text, inner.pos)?;
    if text[open..].starts_with('{') {
        let close = crate::span::flow_end(text, open)?;
        let inside = &text[open + 1..close];
        // A `}` on a line of its own: the entry goes after the last one, on its line, not at
        // the start of the `}` line. Not after a comment (it would take the entry in) or a
        // comma (the entry brings its own).
        let kept = inside.trim_end();
        let last_line = kept.rsplit('\n').next().unwrap_or(kept);
        let at = if inside[kept.len()..].contains('\n')
            && !kept.is_empty()
            && !kept.ends_with(',')
            && !last_line.contains('#')
        {
            open + 1 + kept.len()
        } else {
            close
        };
        return Some(Ok(MetadataRoom::Flow {
            offset: u32::try_from(at).ok()?,
            at: crate::span::pos_of(text, at),
            inner: openclaw.is_some(),
            empty: inside.trim().is_empty(),
            compact: !inside.contains(": ") && !inside.contains(", "),
        }));
    }
    // A block mapping, its keys on the lines below its own key.
    let Some((first, _)) = inner.as_map().and_then(<[_]>::first) else {
        return Some(Err(Blocked::Layout));
    };
    if first.pos.line <= outer.pos.line {
        return Some(Err(Blocked::Layout));
    }
    // The next key after it: in `metadata`, else at the top.
    let after = |m: &[(Node, Node)]| {
        m.iter()
            .map(|(k, _)| k.pos.line)
            .filter(|l| *l > outer.pos.line)
            .min()
    };
    let next = openclaw
        .and_then(|_| after(children))
        .or_else(|| after(entries));
    let (offset, line) = match next {
        // The byte after the line break that ends the line before it.
        Some(line) => (
            memchr::memchr_iter(b'\n', bytes).nth(usize::try_from(line).ok()?.checked_sub(2)?)? + 1,
            line,
        ),
        None => end,
    };
    Some(Ok(MetadataRoom::Block {
        offset: u32::try_from(offset).ok()?,
        line,
        indent: first.pos.column.checked_sub(1)?,
        inner: openclaw.is_some(),
    }))
}

/// Where the value of a `metadata` key (`key`) that holds nothing is written: the rest of its
/// line after the colon, up to a comment, when that is blank, `~` or `null`. A value on the
/// lines below (`metadata:` then `  ~`) is not looked for.
fn null_metadata(text: &str, key: &Node) -> Option<MetadataRoom> {
    let at = crate::span::offset(text, key.pos)?;
    let (_, line_end, _) = crate::span::line_at(text, at);
    let line = text.get(at..line_end)?;
    // The colon that ends the key: the first one followed by a blank or the line's end.
    let colon = line
        .char_indices()
        .find(|&(i, c)| {
            c == ':'
                && line[i + 1..]
                    .chars()
                    .next()
                    .is_none_or(|n| n == ' ' || n == '\t')
        })?
        .0;
    let start = at + colon + 1;
    let rest = &text[start..line_end];
    let value = rest
        .find(" #")
        .or_else(|| rest.find("\t#"))
        .map_or(rest, |c| &rest[..c]);
    let value = if rest.trim_start().starts_with('#') {
        ""
    } else {
        value
    };
    if !matches!(value.trim(), "" | "~" | "null" | "Null" | "NULL") {
        return None;
    }
    let end = start + value.trim_end().len();
    Some(MetadataRoom::Null {
        start: u32::try_from(start).ok()?,
        end: u32::try_from(end).ok()?,
        at: crate::span::pos_of(text, start),
        end_at: crate::span::pos_of(text, end),
    })
}

/// Read every known field of the frontmatter mapping.
fn read_fields(root: &Node, folder: String, path: &str, fs_path: &Path, sink: &mut Sink) -> Skill {
    let mut skill = Skill::invalid(folder, path.to_owned(), fs_path.to_owned());
    skill.invalid = false;
    let mut f = SkillFields::default();
    let mut deps: Option<(Requirements, bool, Pos)> = None;
    let mut tools_ok = true;
    let mut tools_pos = None;
    let mut allowed_pos = None;
    let mut declared: Vec<Declared> = Vec::new();
    let mut hermes = hermes::Hermes::default();
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
                f.name_written = value.as_str().map(str::to_owned);
                f.name_not_text = f.name_written.is_none();
                match value.as_str().map(str::trim) {
                    Some(n) if !n.is_empty() => skill.name = n.to_owned(),
                    _ => rules::spec::name_type(sink, value),
                }
            }
            "description" => {
                f.description_written = value.as_str().map(str::to_owned);
                f.description_not_text = f.description_written.is_none();
                match value.as_str() {
                    Some(d) if !d.trim().is_empty() => skill.description = Some(d.to_owned()),
                    _ => rules::spec::description_type(sink, value),
                }
            }
            "license" => match fields::text(value) {
                Some(t) => f.license = Some(t),
                None => rules::spec::license_type(sink, value),
            },
            "compatibility" => match value.as_str() {
                Some(c) if !c.trim().is_empty() => f.compatibility = Some(c.to_owned()),
                _ => rules::spec::compatibility_type(sink, value),
            },
            "metadata" => {
                f.metadata = read_metadata(value, sink);
                f.metadata_not_mapping = value.as_map().is_none() && !value.is_null();
                if let Some(p) = value.get(packages::METADATA_KEY) {
                    declared.extend(packages::read_metadata(p));
                }
                f.openclaw_block = openclaw::KEYS.iter().any(|k| value.get(k).is_some());
                declared.extend(openclaw::read(value, sink));
                hermes.metadata(value, sink);
            }
            "allowed-tools" => {
                allowed_pos = Some(key.pos);
                if let Some(s) = value.as_str() {
                    f.allowed_tools = fields::split_names(s);
                    if rules::spec::has_top_level_comma(s) && !f.allowed_tools.is_empty() {
                        rules::spec::allowed_tools_commas(sink, value, s, &f.allowed_tools);
                    }
                } else if let Some(list) =
                    fields::name_list(value, k, rules::spec::allowed_tools_shape, sink)
                {
                    if value.as_seq().is_some() {
                        rules::spec::allowed_tools_list(sink, value.pos, &list);
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
            // The agent fields' requirements are said to be where the first of the two is.
            "tools" => {
                tools_pos.get_or_insert(key.pos);
                match tool_names(value, sink) {
                    Some(t) => skill.tools = Some(t),
                    None => tools_ok = false,
                }
            }
            "mcp-servers" => {
                tools_pos.get_or_insert(key.pos);
                match fields::key_or_name_list(value, k, rules::deps::capability_field_shape, sink)
                {
                    Some(s) => skill.mcp_servers = s,
                    None => tools_ok = false,
                }
            }
            "dependencies" => {
                match packages::read(key, value, root.get("metadata").is_some(), sink) {
                    Some(packages::PackageList::Python(p)) => declared.push(*p),
                    Some(packages::PackageList::Npm) => {}
                    None => {
                        let p = dependencies::parse(value, sink);
                        deps = Some((p.requirements, p.valid, key.pos));
                    }
                }
            }
            _ if hermes.top_level(k, value, sink) => {}
            _ => f.unknown_keys.push(k.to_owned()),
        }
    }
    // What the agent-style fields and `allowed-tools` need is declared once the evaluation has
    // read their names (`evaluate::declare_fields`): which words are products, what a
    // permission rule such as `Bash(git:*)` names.
    f.tools_at = tools_pos;
    f.allowed_tools_at = allowed_pos;
    skill.fields = Box::new(f);
    let at = |source, pos: Option<Pos>, requirements| {
        let pos = pos.unwrap_or(Pos::START);
        Declared {
            source,
            file: None,
            line: pos.line,
            column: pos.column,
            requirements,
            uses: Vec::new(),
            block: "",
        }
    };
    declared.extend(hermes.finish());
    skill.requirements_invalid = !tools_ok;
    let has_deps = deps.is_some();
    if let Some((req, valid, pos)) = deps {
        skill.requirements_invalid |= !valid;
        if !req.is_empty() {
            declared.push(at(Origin::Dependencies, Some(pos), req));
        }
    }
    declared.sort_by_key(|d| d.source);
    skill.declared_by = match declared.first() {
        // The field, even empty or unreadable, is what the skill says about itself.
        _ if has_deps => DeclaredBy::Dependencies,
        Some(d) => d.source.into(),
        None if !tools_ok => DeclaredBy::ToolsField,
        None => DeclaredBy::Nothing,
    };
    // A list grown by pushes has room for four; most skills declare one source, and the
    // spare room would be most of a skill's memory.
    declared.shrink_to_fit();
    skill.requirements = declared;
    skill
}

/// The names of a SKILL.md's agent-style `tools`, as written (which of them name products
/// rather than tools is for the evaluation to say); tool schemas (objects) are reported and
/// left out; `None` when the field has a shape no host reads.
fn tool_names(value: &Node, sink: &mut Sink) -> Option<Vec<String>> {
    match &value.value {
        Value::Seq(items) => {
            let mut ok = true;
            let mut out = Vec::new();
            for item in items {
                match &item.value {
                    Value::Str(s) if !s.trim().is_empty() => out.push(s.trim().to_owned()),
                    Value::Map(_) => {
                        let what = match item.get("name").and_then(Node::as_str) {
                            Some(n) => format!("an object with `name: {n}`"),
                            None => "an object".to_owned(),
                        };
                        rules::deps::not_tool_schema(sink, item.pos, &what);
                    }
                    _ => {
                        ok = false;
                        let found = item.kind();
                        rules::deps::capability_field_shape(
                            sink,
                            item.pos,
                            "tools",
                            rules::NameShape::Entry { found },
                        );
                    }
                }
            }
            ok.then_some(out)
        }
        _ => fields::name_list(value, "tools", rules::deps::capability_field_shape, sink),
    }
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_with_a_colon_become_block_text() {
        assert_eq!(
            as_block("description: Use when: asked").as_deref(),
            Some("description: |-\n  Use when: asked")
        );
        assert_eq!(
            as_block("when_to_use :  a: b ").as_deref(),
            Some("when_to_use: |-\n  a: b")
        );
        // Kept: quoted, block indicators, no colon, indented, a key that is not one word.
        for line in [
            "description: \"a: b\"",
            "description: 'a: b'",
            "description: |",
            "description: >",
            "description: plain",
            "  nested: a: b",
            "allowed-tools: Bash(git:*)",
            "# note: a: b",
            "description:",
        ] {
            assert_eq!(as_block(line), None, "{line}");
        }
    }

    #[test]
    fn a_frontmatter_ended_at_an_indented_dashes_line() {
        assert_eq!(trimmed_close("---\nname: a\n---\n  ---\n"), None);
        assert_eq!(trimmed_close("---\nname: a\n---  \r\n"), None);
        assert_eq!(trimmed_close("# a\n  ---\n"), None);
        let early = trimmed_close("---\nname: a\ndescription: |\n  b\n  ---\n\n  c\n").unwrap();
        assert_eq!(early.line, 5);
        let read = early.read.unwrap();
        assert_eq!(read.name.as_deref(), Some("a"));
        assert_eq!(read.description.as_deref(), Some("b\n"));
        assert_eq!(
            trimmed_close("---\n\t---\nname: a\n---\n").unwrap().read,
            None
        );
        assert_eq!(trimmed_close("---\n- a\n ---\n").unwrap().read, None);
    }

    #[test]
    fn scalars_as_written() {
        let read = |text: &str, key: &str| {
            let split = crate::parse::frontmatter::split(text).unwrap();
            let root = crate::parse::yaml::parse(split.yaml, 2).unwrap();
            scalar_as_written(text, root.get(key))
        };
        let text = "---\nname: 0x1F # hex\ndescription:\nv: 1.50\nn: ~\ns: text\nl: [1]\n---\n";
        assert_eq!(read(text, "name").as_deref(), Some("0x1F"));
        assert_eq!(read(text, "description").as_deref(), Some(""));
        assert_eq!(read(text, "v").as_deref(), Some("1.50"));
        assert_eq!(read(text, "n").as_deref(), Some("~"));
        assert_eq!(read(text, "s"), None);
        assert_eq!(read(text, "l"), None);
    }

    #[test]
    fn a_frontmatter_fenced_by_lines_that_start_with_dashes() {
        assert_eq!(dash_fenced("---\nname: a\n---\nb\n"), None);
        assert_eq!(dash_fenced("# a\n----\n"), None);
        let fenced = dash_fenced("----\r\nname: a\r\ndescription: 12\r\n----\r\nb\n").unwrap();
        assert_eq!(fenced.line, 4);
        assert!(!fenced.opened);
        let read = fenced.coerced;
        assert_eq!(read.name.as_deref(), Some("a"));
        assert_eq!(read.description.as_deref(), Some("12"));
        // Not YAML: its lines at the margin, an empty key taking the indented ones below.
        let read =
            dash_fenced("---\nname: a: b\n  description: x\ndescription:\n  c\n  d\n--- x\n")
                .unwrap()
                .coerced;
        assert_eq!(read.name.as_deref(), Some("a: b"));
        assert_eq!(read.description.as_deref(), Some("c\n  d"));
        // Closed at once: an empty block.
        let read = dash_fenced("---\n----\nname: a\n").unwrap().coerced;
        assert_eq!(read, crate::model::Written::default());
        // Opened where skill-audit opens, ended early: the block above as YAML, or its lines.
        let fenced = dash_fenced("---\ndescription: d\n--- x\nname: a\n---\n").unwrap();
        assert!(fenced.opened);
        assert_eq!((fenced.line, fenced.close.as_str()), (3, "--- x"));
        let yaml = fenced.yaml.unwrap();
        assert_eq!((yaml.name, yaml.description.as_deref()), (None, Some("d")));
        let fenced = dash_fenced("---\nname: a: b\ndescription: d\n----\n---\n").unwrap();
        assert_eq!(fenced.yaml, None);
        assert_eq!(line_value(&fenced.lines, "name", false), Some("a: b"));
        let quoted = fenced.colons_quoted.unwrap();
        assert_eq!(quoted.name.as_deref(), Some("a: b"));
    }

    #[test]
    fn lines_as_a_host_that_reads_keys_at_the_margin_reads_them() {
        let lines = line_keys("description:\n  a\n\n  b\nname: 'n'\nx: \"\"\nx:\n\n  c\n");
        assert_eq!(line_value(&lines, "description", true), Some("a\n\n  b"));
        assert_eq!(line_value(&lines, "name", true), Some("n"));
        // Empty once unquoted, or with a blank line before the indented ones: empty.
        assert_eq!(line_value(&lines, "x", true), Some(""));
        assert_eq!(line_value(&lines, "y", true), None);
        // An empty later line leaves an earlier value.
        let lines = line_keys("description: d\ndescription: \"\"\n");
        assert_eq!(line_value(&lines, "description", true), Some("d"));
        assert_eq!(line_value(&lines, "description", false), Some("\"\""));
    }

    #[test]
    fn tab_indented_lines_as_js_yaml_3_reads_them() {
        let read = tabs_read("name: a\n\tdescription: b\n", 2).unwrap();
        assert_eq!(read.description.as_deref(), Some("b"));
        assert_eq!(tabs_read("name: a\ndescription: b\n", 2), None);
        assert_eq!(tabs_read("\tname: a\ndescription: b\n", 2), None);
        assert_eq!(
            tabs_as_js_yaml_3("a:\n  \tb: 1").as_deref(),
            Some("a:\n  b: 1")
        );
    }

    #[test]
    fn a_frontmatter_read_again_with_colons_quoted() {
        let read = colons_quoted("name: demo\ndescription: Use for: (1) this\r\n", 2);
        assert_eq!(
            read,
            Some(crate::model::Written {
                name: Some("demo".into()),
                description: Some("Use for: (1) this".into()),
            })
        );
        // Still not YAML, or not a mapping.
        assert_eq!(colons_quoted("name: [demo\n", 2), None);
        assert_eq!(colons_quoted("- a\n- b\n", 2), None);
        // A value that is not a string is not one the host takes as text.
        let read = colons_quoted("name: 12\ndescription: a: b\n", 2).unwrap();
        assert_eq!(read.name, None);
    }
}
