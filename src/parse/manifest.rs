//! Parse plugin and marketplace manifests into [`Manifest`]s: which agents and skills a plugin
//! bundles. Paths are kept as written; `resolve` turns them into files.

use std::path::Path;

use super::json::Json;
use crate::diagnostic::{Pos, Sink};
use crate::discover::ManifestKind;
use crate::model::Manifest;
use crate::rules;

/// The extension key awesome-copilot's Agent Plugins use to bundle agents and skills.
const COPILOT_EXTENSION: &str = "com.github.awesome-copilot";

/// Every key this module reads, at any depth: the rest of a manifest (descriptions,
/// keywords, authors) is parsed but not kept.
const READ_KEYS: &[&str] = &[
    "name",
    "extensions",
    COPILOT_EXTENSION,
    "agents",
    "skills",
    "metadata",
    "pluginRoot",
    "plugins",
    "source",
    "path",
    "url",
    "repo",
    "package",
];

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
    let json = match Json::parse_keeping(&text, &|key| READ_KEYS.contains(&key)) {
        Ok(v) => v,
        Err(e) => {
            rules::links::manifest_invalid(sink, &e);
            return Vec::new();
        }
    };
    let text = Located::new(&text);
    let dir = fs_path.parent().unwrap_or(Path::new(""));
    let name_of = |v: &Json| {
        v.get("name")
            .and_then(Json::as_str)
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
        ManifestKind::FolderPlugin(format) => {
            let base = dir.parent().unwrap_or(dir);
            vec![Manifest {
                path: path.to_owned(),
                fs_path: fs_path.to_owned(),
                name: name_of(&json),
                base: base.to_owned(),
                via: format.label(),
                agents: paths(json.get("agents"), &text),
                skills: paths(json.get("skills"), &text),
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
            let plugin_root = json
                .get("metadata")
                .and_then(|m| m.get("pluginRoot"))
                .and_then(Json::as_str)
                .map_or(root.to_owned(), |r| root.join(r));
            let entries = json
                .get("plugins")
                .and_then(Json::as_array)
                .unwrap_or_default();
            // Entries are found in the text in order, each after the one before.
            let mut from = text.text.find("\"plugins\"").unwrap_or(0);
            let mut out = Vec::new();
            for e in entries {
                let name = name_of(e);
                let written = e.get("name").and_then(Json::as_str);
                let pos = match written.and_then(|n| text.find(n, from)) {
                    Some((pos, at)) => {
                        from = at;
                        pos
                    }
                    None => Pos::START,
                };
                let base = match source_of(e.get("source")) {
                    Source::Remote(kind, at) => {
                        rules::links::marketplace_remote_source(sink, pos, &name, kind, at);
                        continue;
                    }
                    Source::Local(Some(src)) => plugin_root.join(src),
                    Source::Local(None) => plugin_root.clone(),
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
                    agents: paths(e.get("agents"), &text),
                    skills: paths(e.get("skills"), &text),
                });
            }
            out
        }
    }
}

/// Where a marketplace entry's plugin comes from.
enum Source<'a> {
    /// A folder of this repository (relative to the plugin root), or the root itself.
    Local(Option<&'a str>),
    /// Somewhere else: its kind (`github`, `url`, `npm`, ...) and what names it there.
    Remote(&'a str, &'a str),
}

/// A marketplace entry's `source`: a relative path, Codex's `{source: local, path}`, or a
/// remote source (`{source: github, repo}`, `{source: url, url}`, `{source: git-subdir, url,
/// path}`, `{source: npm, package}`, a URL string).
fn source_of<'j>(v: Option<&'j Json<'_>>) -> Source<'j> {
    match v {
        Some(Json::Str(s)) if s.contains("://") || s.starts_with("git@") => {
            Source::Remote("url", s)
        }
        Some(Json::Str(s)) => Source::Local(Some(s)),
        Some(o @ Json::Object(_)) => {
            let field = |k: &str| o.get(k).and_then(Json::as_str);
            match field("source") {
                Some("local") | None if field("url").is_none() && field("repo").is_none() => {
                    Source::Local(field("path"))
                }
                kind => Source::Remote(
                    kind.unwrap_or("remote"),
                    field("repo")
                        .or(field("url"))
                        .or(field("package"))
                        .unwrap_or(""),
                ),
            }
        }
        _ => Source::Local(None),
    }
}

/// Component paths: a string or a list of strings, each with the place it is written.
fn paths(v: Option<&Json<'_>>, text: &Located<'_>) -> Option<Vec<(String, Pos)>> {
    let list: Vec<&str> = match v? {
        Json::Str(s) => vec![s],
        Json::Array(a) => a.iter().filter_map(Json::as_str).collect(),
        _ => return None,
    };
    Some(
        list.into_iter()
            .map(|p| {
                let pos = text.find(p, 0).map_or(Pos::START, |(pos, _)| pos);
                (p.to_owned(), pos)
            })
            .collect(),
    )
}

/// A manifest's text and where its lines start, found once: every path it lists is located
/// in it, and a marketplace's entries one after another.
struct Located<'t> {
    text: &'t str,
    line_starts: Vec<usize>,
}

impl<'t> Located<'t> {
    fn new(text: &'t str) -> Self {
        let starts = memchr::memchr_iter(b'\n', text.as_bytes()).map(|i| i + 1);
        Located {
            text,
            line_starts: std::iter::once(0).chain(starts).collect(),
        }
    }

    /// Where the JSON string `s` parsed from this text is written (its opening quote), and
    /// the byte after it. A string without escapes is parsed as a slice of the text, so its
    /// place is known; one with escapes was copied out, and is looked for from byte `from`
    /// on (its first occurrence from there).
    fn find(&self, s: &str, from: usize) -> Option<(Pos, usize)> {
        // A copy is another allocation, which cannot lie inside the text's.
        let at = (s.as_ptr() as usize).wrapping_sub(self.text.as_ptr() as usize);
        if at >= 1 && at.saturating_add(s.len()) < self.text.len() {
            return Some((self.position(at - 1), at + s.len() + 1));
        }
        locate_from(self, s, from)
    }

    /// The 1-based line and column of byte `i`.
    fn position(&self, i: usize) -> Pos {
        // The lines starting at or before `i`: `i` is on the last of them.
        let line = self.line_starts.partition_point(|&start| start <= i);
        let start = self.line_starts[line.saturating_sub(1)];
        let col = self.text.get(start..i).map_or(0, |s| s.chars().count()) + 1;
        Pos::new(
            u32::try_from(line).unwrap_or(1),
            u32::try_from(col).unwrap_or(1),
        )
    }
}

/// The position of the first occurrence of a JSON string at or after byte `from`, and the
/// byte just after it.
fn locate_from(text: &Located<'_>, value: &str, from: usize) -> Option<(Pos, usize)> {
    // The string as serde_json writes it, without its quotes; most need no escape.
    let escaped;
    let inner = if value.bytes().any(|b| b == b'"' || b == b'\\' || b < 0x20) {
        escaped = serde_json::to_string(value).unwrap_or_default();
        escaped
            .get(1..escaped.len().saturating_sub(1))
            .unwrap_or("")
    } else {
        value
    };
    let bytes = text.text.as_bytes();
    let start = from.min(bytes.len());
    // Every occurrence starts at a quote. The string is usually a few quotes on, where a
    // substring searcher's set-up would cost more than the search.
    memchr::memchr_iter(b'"', &bytes[start..])
        .map(|q| start + q)
        .find(|&q| {
            let rest = &bytes[q + 1..];
            rest.starts_with(inner.as_bytes()) && rest.get(inner.len()) == Some(&b'"')
        })
        .map(|q| (text.position(q), q + inner.len() + 2))
}

#[cfg(test)]
mod tests {
    use super::*;

    proptest::proptest! {
        /// A string is found where its JSON spelling first occurs from `from` on, as a
        /// substring search for that spelling finds it.
        #[test]
        fn strings_are_found_where_their_spelling_first_occurs(
            parts in proptest::collection::vec(
                proptest::prop_oneof![
                    proptest::strategy::Just("\"".to_owned()),
                    proptest::strategy::Just(", ".to_owned()),
                    proptest::strategy::Just("\n".to_owned()),
                    proptest::strategy::Just("\\\"".to_owned()),
                    proptest::strategy::Just("\\\\".to_owned()),
                    proptest::strategy::Just("\\n".to_owned()),
                    "[a-c/é]{0,3}",
                ],
                0..12,
            ),
            value in "[a-c/é\"\\\\,\n]{0,3}",
            from in 0usize..40,
        ) {
            let text = parts.concat();
            let located = Located::new(&text);
            let needle = serde_json::to_string(&value).unwrap();
            let start = from.min(text.len());
            let expected = text.as_bytes()[start..]
                .windows(needle.len())
                .position(|w| w == needle.as_bytes())
                .map(|i| (located.position(start + i), start + i + needle.len()));
            proptest::prop_assert_eq!(locate_from(&located, &value, from), expected);
        }
    }

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
        assert_eq!(
            locate_from(&located, "ü/b", 0).map(|(p, _)| p.line),
            Some(4)
        );
        // Parsed strings are placed where they are written, not where their text first
        // occurs; one with an escape, at its first spelling from the place asked.
        let text = "{\"a\": \"x\",\n \"b\": [\"x\", \"y\\\"\"]}";
        let json = Json::parse(text).unwrap();
        let located = Located::new(text);
        let b = json.get("b").and_then(Json::as_array).unwrap();
        let found = |j: &Json, from| located.find(j.as_str().unwrap(), from).map(|(p, _)| p);
        assert_eq!(found(json.get("a").unwrap(), 0), Some(Pos::new(1, 7)));
        assert_eq!(found(&b[0], 0), Some(Pos::new(2, 8)));
        assert_eq!(found(&b[1], 0), Some(Pos::new(2, 13)));
        assert_eq!(found(&b[1], 30), None);
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
            ManifestKind::FolderPlugin(crate::discover::PluginFormat::Claude),
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
        assert!(matches!(source_of(None), Source::Local(None)));
        let v = Json::parse(r#"{"source": "github", "repo": "o/r"}"#).unwrap();
        assert!(matches!(
            source_of(Some(&v)),
            Source::Remote("github", "o/r")
        ));
        let v = Json::parse(r#""git@github.com:o/r.git""#).unwrap();
        assert!(matches!(source_of(Some(&v)), Source::Remote("url", _)));
        let v = Json::parse(r#""plugins/x""#).unwrap();
        assert!(matches!(
            source_of(Some(&v)),
            Source::Local(Some("plugins/x"))
        ));
    }

    #[test]
    fn folder_plugins_resolve_from_the_folder_above() {
        use crate::discover::PluginFormat;
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
