//! Parse plugin and marketplace manifests into [`Manifest`]s: which agents and skills a plugin
//! bundles. Paths are kept as written; `resolve` turns them into files.

use std::path::Path;

use crate::diagnostic::{Pos, Sink, quote};
use crate::model::Manifest;
use crate::model::ManifestKind;
use crate::rules;
use serde_json::Value;

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
    let text = Located::new(&text);
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
                0,
                &mut 0,
            );
            let skills = paths(
                ext.and_then(|e| e.get("skills")).or(json.get("skills")),
                &text,
                0,
                &mut 0,
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
        ManifestKind::FolderPlugin(format) => {
            let base = dir.parent().unwrap_or(dir);
            vec![Manifest {
                path: path.to_owned(),
                fs_path: fs_path.to_owned(),
                name: name_of(&json),
                base: base.to_owned(),
                via: format.label(),
                agents: paths(json.get("agents"), &text, 0, &mut 0),
                skills: paths(json.get("skills"), &text, 0, &mut 0),
            }]
        }
        ManifestKind::Marketplace => {
            // Sources are relative to the folder holding `.claude-plugin/` (or `.github/plugin/`,
            // `.agents/plugins/`): one level up from the file's folder, or two.
            let root = if dir.ends_with(".github/plugin") || dir.ends_with(".agents/plugins") {
                dir.parent().and_then(Path::parent)
            } else {
                dir.parent()
            }
            .unwrap_or(dir);
            let plugin_root_rel = json
                .get("metadata")
                .and_then(|m| m.get("pluginRoot"))
                .and_then(Value::as_str)
                .unwrap_or("");
            let plugin_root = root.join(plugin_root_rel);
            let entries = json
                .get("plugins")
                .and_then(Value::as_array)
                .map(Vec::as_slice)
                .unwrap_or_default();
            // Entries are found in the text in order, each after the one before: its name
            // and its paths are looked for from where the last entry's were found.
            let mut from = text.text.find("\"plugins\"").unwrap_or(0);
            let mut out = Vec::new();
            for e in entries {
                let entry_from = from;
                let name = name_of(e);
                let written = e.get("name").and_then(Value::as_str);
                let pos = match written.and_then(|n| locate_entry(&text, "name", n, entry_from)) {
                    Some((pos, at)) => {
                        from = at;
                        pos
                    }
                    None => Pos::START,
                };
                let base = match source_of(e.get("source")) {
                    PluginSource::Remote(kind, at, within) => {
                        let mut from = if at.is_empty() {
                            format!("a {} source", quote(kind))
                        } else {
                            format!("{kind} {}", quote(at))
                        };
                        if let Some(folder) = within.folder {
                            from.push_str(&format!(", folder {}", quote(folder)));
                        }
                        if let Some(rev) = within.revision {
                            from.push_str(&format!(" at {}", quote(rev)));
                        }
                        from.push_str(", outside this tree");
                        rules::links::marketplace_remote_source(sink, pos, &name, &from);
                        continue;
                    }
                    PluginSource::Local(Some(src)) if leaves_root(plugin_root_rel, src) => {
                        let from = format!("{}, above the marketplace's root", quote(src));
                        rules::links::marketplace_remote_source(sink, pos, &name, &from);
                        continue;
                    }
                    PluginSource::Local(Some(src)) => plugin_root.join(src),
                    PluginSource::Local(None) => plugin_root.clone(),
                };
                // Only entries that list skills say anything about links; the rest are
                // plugins whose own manifests are audited where they live.
                if e.get("skills").is_none() {
                    continue;
                }
                out.push(Manifest {
                    path: path.to_owned(),
                    fs_path: fs_path.to_owned(),
                    name,
                    base,
                    via: "marketplace",
                    agents: paths(e.get("agents"), &text, entry_from, &mut from),
                    skills: paths(e.get("skills"), &text, entry_from, &mut from),
                });
            }
            out
        }
    }
}

/// Where a marketplace entry's plugin comes from.
enum PluginSource<'a> {
    /// A folder of this repository (relative to the plugin root), or the root itself.
    Local(Option<&'a str>),
    /// Somewhere else: its kind (`github`, `url`, `npm`, ...), what names it there, and where
    /// in it.
    Remote(&'a str, &'a str, Within<'a>),
}

/// Where in a remote source a plugin is: a folder of it and a revision, when written.
#[derive(Default)]
struct Within<'a> {
    folder: Option<&'a str>,
    revision: Option<&'a str>,
}

/// A marketplace entry's `source`: a relative path, Codex's `{source: local, path}`, or a
/// remote source (`{source: github, repo}`, `{source: url, url}`, `{source: git-subdir, url,
/// path}`, `{source: npm, package}`, a URL string).
fn source_of(v: Option<&Value>) -> PluginSource<'_> {
    match v {
        Some(Value::String(s)) if s.contains("://") || s.starts_with("git@") => {
            PluginSource::Remote("url", s, Within::default())
        }
        Some(Value::String(s)) => PluginSource::Local(Some(s)),
        Some(Value::Object(o)) => {
            let field = |k: &str| o.get(k).and_then(Value::as_str);
            let located = field("url").is_some() || field("repo").is_some();
            match field("source") {
                Some("local") | None if !located => PluginSource::Local(field("path")),
                // `{source: "./"}`: a path where the kind goes, read as the path it is. Kinds
                // are bare words (`github`, `npm`, ...); a path has a dot or a slash.
                Some(path)
                    if !located
                        && field("package").is_none()
                        && (path.starts_with('.') || path.contains(['/', '\\'])) =>
                {
                    PluginSource::Local(Some(path))
                }
                kind => PluginSource::Remote(
                    kind.unwrap_or("remote"),
                    field("repo")
                        .or(field("url"))
                        .or(field("package"))
                        .unwrap_or(""),
                    Within {
                        folder: field("path"),
                        revision: field("sha").or(field("ref")).or(field("version")),
                    },
                ),
            }
        }
        _ => PluginSource::Local(None),
    }
}

/// Does the relative source `src`, under the marketplace's `pluginRoot` (`plugin_root`), lead
/// out of the marketplace's root (`../x`, an absolute path)? Its plugin is then not in this tree.
fn leaves_root(plugin_root: &str, src: &str) -> bool {
    let joined = crate::paths::normalize(&Path::new(plugin_root).join(src));
    joined.has_root()
        || matches!(
            joined.components().next(),
            Some(std::path::Component::ParentDir | std::path::Component::Prefix(_))
        )
}

/// Component paths: a string or a list of strings, each with the place it is written (its
/// first occurrence from byte `from` on); `end` is raised past the last one found.
fn paths(
    v: Option<&Value>,
    text: &Located<'_>,
    from: usize,
    end: &mut usize,
) -> Option<Vec<(String, Pos)>> {
    let list: Vec<&str> = match v? {
        Value::String(s) => vec![s.as_str()],
        Value::Array(a) => a.iter().filter_map(Value::as_str).collect(),
        _ => return None,
    };
    Some(
        list.into_iter()
            .map(|p| {
                let pos = match locate_from(text, p, from) {
                    Some((pos, after)) => {
                        *end = (*end).max(after);
                        pos
                    }
                    None => Pos::START,
                };
                (p.to_owned(), pos)
            })
            .collect(),
    )
}

/// A manifest's text, where its lines start and where each string is written, found once:
/// every path it lists is located in it, and a marketplace's entries one after another, so a
/// manifest listing tens of thousands of paths is not searched once per path.
struct Located<'t> {
    text: &'t str,
    lines: crate::span::LineStarts,
    /// Each JSON string of the text (keys too) by its value, with where each spelling of it
    /// starts and ends, in text order: `"a\/b"` is the string `a/b`.
    strings: foldhash::HashMap<std::borrow::Cow<'t, str>, Vec<(usize, usize)>>,
    /// Columns on the line asked about last, counted on from the place asked before: a
    /// minified manifest is one long line.
    columns: std::cell::RefCell<crate::span::Columns<'t>>,
}

impl<'t> Located<'t> {
    fn new(text: &'t str) -> Self {
        let mut strings: foldhash::HashMap<_, Vec<_>> = foldhash::HashMap::default();
        for (start, end) in string_tokens(text) {
            let raw = &text[start + 1..end - 1];
            // Escaped, or not a JSON string at all (a raw line break): read as JSON reads it.
            let value = if raw.bytes().any(|b| b == b'\\' || b < 0x20) {
                match serde_json::from_str::<String>(&text[start..end]) {
                    Ok(v) => std::borrow::Cow::Owned(v),
                    Err(_) => continue,
                }
            } else {
                std::borrow::Cow::Borrowed(raw)
            };
            strings.entry(value).or_default().push((start, end));
        }
        Located {
            text,
            lines: crate::span::LineStarts::new(text),
            strings,
            columns: std::cell::RefCell::new(crate::span::Columns::new("")),
        }
    }

    /// The 1-based line and column of byte `i`.
    fn position(&self, i: usize) -> Pos {
        let line = self.lines.line_of(i);
        let (start, end) = self.lines.bounds(line).unwrap_or((0, self.text.len()));
        let mut columns = self.columns.borrow_mut();
        columns.move_to(&self.text[start..end]);
        Pos::new(
            u32::try_from(line + 1).unwrap_or(1),
            columns.column(i.saturating_sub(start)),
        )
    }

    /// Where the string `value` is written at or after byte `from`, first first.
    fn spellings(&self, value: &str, from: usize) -> &[(usize, usize)] {
        let all = self.strings.get(value).map_or(&[][..], Vec::as_slice);
        &all[all.partition_point(|&(start, _)| start < from)..]
    }
}

/// Where each string of the JSON text `text` starts and ends (its quotes included), in order.
/// Outside strings, valid JSON has no `"`.
fn string_tokens(text: &str) -> impl Iterator<Item = (usize, usize)> + '_ {
    let bytes = text.as_bytes();
    let mut at = 0;
    std::iter::from_fn(move || {
        let start = at + memchr::memchr(b'"', bytes.get(at..)?)?;
        let mut i = start + 1;
        loop {
            let j = i + memchr::memchr2(b'"', b'\\', bytes.get(i..)?)?;
            if bytes[j] == b'\\' {
                i = j + 2;
                continue;
            }
            at = j + 1;
            return Some((start, at));
        }
    })
}

/// The position of the first `"key": value` entry at or after byte `from` whose value is the
/// JSON string `value`, and the byte just after it: the same text elsewhere (a keyword, a
/// description) is not the entry.
fn locate_entry(text: &Located<'_>, key: &str, value: &str, from: usize) -> Option<(Pos, usize)> {
    let keys = text.spellings(key, 0);
    // Is the string at `value_at` the value of a `key`: that key, a colon, then it?
    let keyed = |value_at: usize| {
        let Some(before) = text.text[..value_at].trim_end().strip_suffix(':') else {
            return false;
        };
        let key_end = before.trim_end().len();
        let i = keys.partition_point(|&(_, end)| end < key_end);
        keys.get(i).is_some_and(|&(_, end)| end == key_end)
    };
    text.spellings(value, from)
        .iter()
        .find(|&&(start, _)| keyed(start))
        .map(|&(start, end)| (text.position(start), end))
}

/// The position of the first spelling of the JSON string `value` at or after byte `from`,
/// and the byte just after it.
fn locate_from(text: &Located<'_>, value: &str, from: usize) -> Option<(Pos, usize)> {
    let &(start, end) = text.spellings(value, from).first()?;
    Some((text.position(start), end))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every character's line and column, found from the line index, is the one counted
    /// from the top (multi-byte characters count one column, a line break ends a line).
    #[test]
    fn positions_are_counted_lines_and_columns() {
        let text = "{\n  \"é\": [\"a\",\n\n\"ü/b\"]}\n";
        let located = Located::new(text);
        let (mut line, mut col) = (1, 1);
        for (i, c) in text.char_indices() {
            assert_eq!(located.position(i), Pos::new(line, col), "byte {i}");
            (line, col) = if c == '\n' {
                (line + 1, 1)
            } else {
                (line, col + 1)
            };
        }
        assert_eq!(located.position(text.len()), Pos::new(line, col));
        // Asked in any order, counted on from the place asked before or from its line.
        let fresh = |i| Located::new(text).position(i);
        for i in (0..=text.len()).rev().filter(|&i| text.is_char_boundary(i)) {
            assert_eq!(located.position(i), fresh(i), "byte {i}");
        }
        assert_eq!(
            locate_from(&located, "ü/b", 0).map(|(p, _)| p.line),
            Some(4)
        );
        // A string is placed at its first spelling from the place asked.
        let text = "{\"a\": \"x\",\n \"b\": [\"x\", \"y\\\"\"]}";
        let located = Located::new(text);
        let found = |s: &str, from| locate_from(&located, s, from).map(|(p, _)| p);
        assert_eq!(found("x", 0), Some(Pos::new(1, 7)));
        assert_eq!(found("x", 10), Some(Pos::new(2, 8)));
        assert_eq!(found("y\"", 0), Some(Pos::new(2, 13)));
        assert_eq!(found("y\"", 30), None);
        // A name is its `"name":` entry, not the same word in a list before it.
        let text = "[{\"keywords\": [\"ui5\"]}, {\"name\" :\n \"ui5\"}]";
        let located = Located::new(text);
        assert_eq!(
            locate_entry(&located, "name", "ui5", 0).map(|(p, _)| p),
            Some(Pos::new(2, 2))
        );
        // A string is found however JSON escapes are used to write it.
        let text = "{\"name\": \"a\\/b\", \"skills\": [\"./\\u0078\"]}";
        let located = Located::new(text);
        assert_eq!(
            locate_entry(&located, "name", "a/b", 0).map(|(p, _)| p),
            Some(Pos::new(1, 10))
        );
        assert_eq!(
            locate_from(&located, "./x", 0).map(|(p, _)| p),
            Some(Pos::new(1, 29))
        );
        // A string with a line break is written escaped; the raw text is not it.
        let located = Located::new("[\"a\nb\",\n \"a\\nb\"]");
        assert_eq!(
            locate_from(&located, "a\nb", 0).map(|(p, _)| p),
            Some(Pos::new(3, 2))
        );
    }
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
            ManifestKind::FolderPlugin(crate::model::PluginFormat::Claude),
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
            ManifestKind::Marketplace,
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

    /// Two entries listing the same path: each is placed in its own entry, also when its
    /// paths come before its name.
    #[test]
    fn marketplace_paths_are_placed_in_their_own_entry() {
        let mk = br#"{"plugins": [
  {"name": "a", "source": "./", "skills": ["./skills/x"]},
  {"skills": ["./skills/x"],
   "name": "b", "source": "./"}]}"#;
        let mut sink = Sink::new("m");
        let m = parse(
            mk,
            "m",
            Path::new("r/.claude-plugin/marketplace.json"),
            ManifestKind::Marketplace,
            &mut sink,
        );
        let lines: Vec<u32> = m
            .iter()
            .map(|m| m.skills.as_ref().unwrap()[0].1.line)
            .collect();
        assert_eq!(lines, [2, 3]);
    }

    #[test]
    fn marketplace_sources_and_roots() {
        let mk = br#"{"name": "m", "plugins": [
  {"name": "m", "source": {"source": "local", "path": "./p/m"}, "skills": ["./skills/a"]},
  {"name": "r", "source": {"source": "url", "url": "https://x.test/r.git"}, "skills": []}]}"#;
        for (file, root) in [
            ("r/.claude-plugin/marketplace.json", "r"),
            ("r/.github/plugin/marketplace.json", "r"),
            ("r/.agents/plugins/marketplace.json", "r"),
        ] {
            let mut sink = Sink::new("m");
            let m = parse(
                mk,
                "m",
                Path::new(file),
                ManifestKind::Marketplace,
                &mut sink,
            );
            assert_eq!(m.len(), 1, "{file}");
            assert_eq!(m[0].base, Path::new(root).join("./p/m"), "{file}");
            // The remote entry is noted on its own name, not on the marketplace's of the
            // same spelling above it.
            assert_eq!(sink.findings.len(), 1);
            assert_eq!(sink.findings[0].rule, Rule::MarketplaceRemoteSource);
            assert_eq!((sink.findings[0].line, sink.findings[0].column), (3, 12));
        }
        assert!(matches!(source_of(None), PluginSource::Local(None)));
        let v: Value = serde_json::from_str(
            r#"{"source": "github", "repo": "o/r", "path": "plugins/p", "sha": "abc"}"#,
        )
        .unwrap();
        assert!(matches!(
            source_of(Some(&v)),
            PluginSource::Remote(
                "github",
                "o/r",
                Within {
                    folder: Some("plugins/p"),
                    revision: Some("abc")
                }
            )
        ));
        let v: Value = serde_json::from_str(r#""git@github.com:o/r.git""#).unwrap();
        assert!(matches!(
            source_of(Some(&v)),
            PluginSource::Remote("url", _, _)
        ));
        let v: Value = serde_json::from_str(r#""plugins/x""#).unwrap();
        assert!(matches!(
            source_of(Some(&v)),
            PluginSource::Local(Some("plugins/x"))
        ));
    }

    #[test]
    fn folder_plugins_resolve_from_the_folder_above() {
        use crate::model::PluginFormat;
        for (file, format, via) in [
            (
                "x/.codex-plugin/plugin.json",
                PluginFormat::Codex,
                "codex-plugin",
            ),
            (
                "x/.cursor-plugin/plugin.json",
                PluginFormat::Cursor,
                "cursor-plugin",
            ),
            ("x/.plugin/plugin.json", PluginFormat::Open, "open-plugin"),
        ] {
            let mut sink = Sink::new("p");
            let m = parse(
                br#"{"name": "x", "skills": "./skills/"}"#,
                "p",
                Path::new(file),
                ManifestKind::FolderPlugin(format),
                &mut sink,
            );
            assert_eq!((m[0].base.as_path(), m[0].via), (Path::new("x"), via));
        }
    }
}
