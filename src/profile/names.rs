//! Tool-name spellings and matching.
//!
//! Hosts spell one MCP tool three ways: `github/get_issue` (VS Code, GitHub), `mcp__github__get_issue`
//! (Claude Code) and `github:get_issue` (Anthropic's skill docs). All are reduced to the
//! canonical `server/tool` before comparing. A bare name (`get_issue`) is a tool with no server.
//!
//! Matching rules, used for both profiles and agent grants:
//! - a bare requirement `t` is met by a bare `t` or by `s/t` for any server `s`;
//! - a qualified requirement `s/t` is met only by `s/t` (or a pattern matching it);
//! - a server requirement `s/*` is met when any tool of server `s` is available;
//! - entries with `*`, `?` or `[` are glob patterns over canonical names (`github/*`, `*`).

use globset::{Glob, GlobBuilder, GlobSet, GlobSetBuilder};
use std::borrow::Cow;
use std::collections::HashSet;

/// Tool names are hashed on every profile load and lookup; foldhash is several times faster
/// than the default SipHash and still seeded per process.
type Set = HashSet<String, foldhash::fast::RandomState>;

/// The tool a name stands for: permission syntax (`Bash(git:*)`, `Agent(worker)`) names the
/// tool before the parenthesis.
pub(crate) fn tool_of(name: &str) -> &str {
    let tool = byte_at(name, b'(').map_or(name, |i| &name[..i]);
    trim(tool)
}

/// `s.trim()`, without decoding characters when `s` starts and ends with ASCII that is not
/// white space, as almost every name does: names are trimmed on every lookup.
pub(crate) fn trim(s: &str) -> &str {
    // The ASCII characters `char::is_whitespace` accepts.
    let plain = |b: &u8| b.is_ascii() && !matches!(b, b'\t'..=b'\r' | b' ');
    let b = s.as_bytes();
    if b.first().is_some_and(plain) && b.last().is_some_and(plain) {
        s
    } else {
        s.trim()
    }
}

/// Is `first`, the part of a `first/tool` name before the slash, a VS Code extension's id
/// (`publisher.extension`: one dot) rather than an MCP server's name? Servers are often
/// named with dots too (`microsoft.docs.mcp`, `terraform.mcp`); a name that says `mcp`, or
/// has more than one dot, is taken for a server's.
pub(crate) fn looks_like_extension(first: &str) -> bool {
    match first.split_once('.') {
        Some((publisher, extension)) => {
            !publisher.is_empty()
                && !extension.is_empty()
                && !extension.contains('.')
                && !first.to_ascii_lowercase().contains("mcp")
        }
        None => false,
    }
}

/// How Claude Code names the MCP tool written `server/tool` (canonical): `mcp__server__tool`,
/// the only spelling it matches. `None` for a bare name or an extension's tool
/// (`publisher.ext/tool`).
pub(crate) fn claude_code_spelling(canonical: &str) -> Option<String> {
    let (server, tool) = canonical.split_once('/')?;
    (!looks_like_extension(server)).then(|| format!("mcp__{server}__{tool}"))
}

/// Reduce a tool name to its canonical `server/tool` (or bare) spelling.
pub(crate) fn canonical(name: &str) -> Cow<'_, str> {
    normalised(Cow::Borrowed(name), true)
}

/// The `server/tool` spelling of a trimmed Claude Code (`mcp__server__tool`) or `server:tool`
/// name; `None` when `name` is canonical as it is.
fn respelled(name: &str) -> Option<String> {
    if let Some(rest) = name.strip_prefix("mcp__") {
        let (server, tool) = rest.split_once("__")?;
        return (!server.is_empty() && !tool.is_empty()).then(|| [server, "/", tool].concat());
    }
    // `server:tool`, but not permission syntax such as `Bash(git:*)` or URIs with `//`. The
    // colon is looked for first: most names have none.
    let (server, tool) = split_at_byte(name, b':')?;
    let plain = !server.is_empty()
        && !tool.is_empty()
        && byte_at(tool, b':').is_none()
        && !name.bytes().any(|b| b == b'/' || b == b'(');
    plain.then(|| [server, "/", tool].concat())
}

/// `raw` canonicalised (`tools`) or trimmed; an owned `raw` that needs neither is kept, so
/// the set can store it without copying.
fn normalised(raw: Cow<'_, str>, tools: bool) -> Cow<'_, str> {
    let trimmed = trim(&raw);
    if tools && let Some(qualified) = respelled(trimmed) {
        return Cow::Owned(qualified);
    }
    if trimmed.len() == raw.len() {
        return raw;
    }
    match raw {
        Cow::Borrowed(s) => Cow::Borrowed(s.trim()),
        Cow::Owned(s) => Cow::Owned(s.trim().to_owned()),
    }
}

/// `s` split around the first `byte`, which must be ASCII (so both sides are `str`s).
fn split_at_byte(s: &str, byte: u8) -> Option<(&str, &str)> {
    debug_assert!(byte.is_ascii());
    let i = byte_at(s, byte)?;
    Some((&s[..i], &s[i + 1..]))
}

/// Where `byte` first is in `s`. Names are short: a plain loop over their bytes costs less
/// than `memchr`'s set-up, and far less than `str::find` with a `char`.
fn byte_at(s: &str, byte: u8) -> Option<usize> {
    s.bytes().position(|b| b == byte)
}

/// Is this entry a glob pattern rather than a literal name?
pub(crate) fn is_pattern(name: &str) -> bool {
    memchr::memchr3(b'*', b'?', b'[', name.as_bytes()).is_some()
}

/// Glob syntax a literal name must escape to be written where globs are read.
const GLOB_SYNTAX: &[char] = &['*', '?', '[', ']', '{', '}', '\\'];

/// `name` as a profile entry that matches exactly `name`: an entry read as a glob (`tools`:
/// one with `*`, `?` or `[`; resources and prompts: one with `*`) gets a `\` before each
/// character of glob syntax, as globset reads it; any other is written as it is.
pub(crate) fn escaped(name: &str, tools: bool) -> Cow<'_, str> {
    let glob = if tools {
        is_pattern(name)
    } else {
        name.contains('*')
    };
    if !glob {
        return Cow::Borrowed(name);
    }
    let mut out = String::with_capacity(name.len() + 4);
    for c in name.chars() {
        if GLOB_SYNTAX.contains(&c) {
            out.push('\\');
        }
        out.push(c);
    }
    Cow::Owned(out)
}

/// The name a pattern stands for when every character of glob syntax in it is escaped
/// (`get\[id\]`): such an entry is a literal name, and is matched as one.
fn unescaped(pattern: &str) -> Option<String> {
    let mut out = String::with_capacity(pattern.len());
    let mut chars = pattern.chars();
    while let Some(c) = chars.next() {
        match c {
            '\\' => out.push(chars.next()?),
            c if GLOB_SYNTAX.contains(&c) => return None,
            c => out.push(c),
        }
    }
    Some(out)
}

fn compile(pattern: &str) -> Result<Glob, globset::Error> {
    GlobBuilder::new(pattern)
        .literal_separator(false)
        .backslash_escape(true)
        .build()
}

/// The literal text before the final `*` of a pattern that has no other glob syntax (no
/// other `*`, no `?`, `[`, `{` or `\\` escape), which then matches exactly the names
/// starting with it.
pub(crate) fn literal_prefix(pattern: &str) -> Option<&str> {
    let prefix = pattern.strip_suffix('*')?;
    let plain = !prefix
        .bytes()
        .any(|b| matches!(b, b'*' | b'?' | b'[' | b']' | b'{' | b'}' | b'\\'));
    plain.then_some(prefix)
}

/// Add `s` unless present: servers and tool names repeat across a profile's tools, and a lookup
/// is cheaper than a copy that is dropped again.
fn insert_new(set: &mut Set, s: &str) {
    if !set.contains(s) {
        set.insert(s.to_owned());
    }
}

/// A set of available names with fast lookups: hash sets for literals, one compiled glob set
/// for patterns. Built once per profile; every lookup is O(1) plus one glob-set match.
#[derive(Debug, Clone, Default)]
pub struct NameSet {
    /// Canonical literal names.
    exact: Set,
    /// The tool part of qualified names, so bare requirements match any server's tool.
    tool_parts: Set,
    /// Servers that contribute at least one tool.
    servers: Set,
    /// Patterns that are a literal text and one final `*` (`github/*`, `get_*`, `*`): as
    /// `*` also matches `/` here, each is a prefix test, cheaper than the glob set.
    prefixes: Vec<String>,
    /// The other patterns.
    globs: GlobSet,
    patterns: Vec<String>,
    /// Tool names are canonicalised; resource URIs and prompt names are compared as written.
    tools: bool,
}

impl NameSet {
    /// Build from names; `tools` selects tool-name canonicalisation. Owned names that are
    /// already canonical are stored as they are.
    pub fn new<'a>(
        names: impl IntoIterator<Item = impl Into<Cow<'a, str>>>,
        tools: bool,
    ) -> Result<NameSet, String> {
        let names = names.into_iter();
        let mut set = NameSet {
            exact: Set::with_capacity_and_hasher(names.size_hint().0, Default::default()),
            tools,
            ..NameSet::default()
        };
        let mut builder = GlobSetBuilder::new();
        for raw in names {
            let raw: Cow<'a, str> = raw.into();
            // Resource URIs may hold `?` and `[` literally (`docs://x?lang=en`): only `*` makes
            // one a pattern. Canonicalising neither adds nor removes these marks.
            if if tools {
                is_pattern(&raw)
            } else {
                raw.contains('*')
            } {
                if let Some(literal) = unescaped(&raw) {
                    set.insert_literal(Cow::Owned(literal));
                    continue;
                }
                let name = normalised(Cow::Borrowed(&raw), tools);
                match literal_prefix(&name) {
                    Some(prefix) => set.prefixes.push(prefix.to_owned()),
                    None => {
                        let glob = compile(&name).map_err(|e| {
                            format!(
                                "{} is not a valid pattern: {}",
                                crate::diagnostic::quote(&raw),
                                e.kind()
                            )
                        })?;
                        builder.add(glob);
                    }
                }
                if tools
                    && let Some((server, _)) = name.split_once('/')
                    && !is_pattern(server)
                {
                    insert_new(&mut set.servers, server);
                }
                set.patterns.push(name.into_owned());
                continue;
            }
            set.insert_literal(raw);
        }
        set.globs = builder.build().map_err(|e| e.to_string())?;
        Ok(set)
    }

    /// Build from names that are all literal, whatever characters they hold: the names a
    /// live MCP server lists are tool names, never patterns.
    pub fn literal<'a>(
        names: impl IntoIterator<Item = impl Into<Cow<'a, str>>>,
        tools: bool,
    ) -> NameSet {
        let names = names.into_iter();
        let mut set = NameSet {
            exact: Set::with_capacity_and_hasher(names.size_hint().0, Default::default()),
            tools,
            ..NameSet::default()
        };
        for raw in names {
            set.insert_literal(raw.into());
        }
        set
    }

    fn insert_literal(&mut self, raw: Cow<'_, str>) {
        let name = normalised(raw, self.tools);
        if self.tools
            && let Some((server, tool)) = split_at_byte(&name, b'/')
        {
            insert_new(&mut self.tool_parts, tool);
            insert_new(&mut self.servers, server);
        }
        self.exact.insert(name.into_owned());
    }

    /// Number of literal names and patterns.
    pub(crate) fn len(&self) -> usize {
        self.exact.len() + self.patterns.len()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Does a pattern match `name`? The glob set is asked only when it holds some: even an
    /// empty one prepares the candidate path first.
    fn glob_match(&self, name: &str) -> bool {
        self.prefixes.iter().any(|p| name.starts_with(p.as_str()))
            || (!self.globs.is_empty() && self.globs.is_match(name))
    }

    /// Does the set make `required` available?
    pub fn contains(&self, required: &str) -> bool {
        let req: Cow<'_, str> = if self.tools {
            canonical(required)
        } else {
            Cow::Borrowed(required.trim())
        };
        if self.tools
            && let Some(server) = req.strip_suffix("/*")
        {
            return self.servers.contains(server)
                || self.glob_match(&req)
                || self.glob_match(&format!("{server}/x"));
        }
        if self.exact.contains(req.as_ref()) || self.glob_match(&req) {
            return true;
        }
        self.tools && !req.contains('/') && self.tool_parts.contains(req.as_ref())
    }

    /// The literal names and the patterns, as stored (tools canonical), in no set order.
    pub(crate) fn names(&self) -> impl Iterator<Item = &str> {
        self.exact.iter().chain(&self.patterns).map(String::as_str)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spellings_are_canonical() {
        assert_eq!(canonical("mcp__github__get_issue"), "github/get_issue");
        assert_eq!(canonical("github:get_issue"), "github/get_issue");
        assert_eq!(canonical("github/get_issue"), "github/get_issue");
        assert_eq!(canonical("Bash(git:*)"), "Bash(git:*)");
        assert_eq!(canonical("get_issue"), "get_issue");
        assert_eq!(canonical("mcp__broken"), "mcp__broken");
    }

    #[test]
    fn matching_rules() {
        let set = NameSet::new(
            [
                "get_order",
                "github/get_issue",
                "kusto:*",
                "mcp__teams__search",
            ],
            true,
        )
        .unwrap();
        assert!(set.contains("get_order"));
        assert!(set.contains("get_issue"), "bare matches any server's tool");
        assert!(set.contains("mcp__github__get_issue"));
        assert!(set.contains("github:get_issue"));
        assert!(!set.contains("gitlab/get_issue"));
        assert!(set.contains("kusto/query"), "server glob");
        assert!(set.contains("kusto/*"), "server requirement");
        assert!(set.contains("github/*"));
        assert!(set.contains("teams/search"));
        assert!(!set.contains("slack/*"));
        assert!(!set.contains("get_check_details"));
    }

    #[test]
    fn prefix_patterns_match_as_globs_do() {
        assert_eq!(literal_prefix("github/*"), Some("github/"));
        assert_eq!(literal_prefix("*"), Some(""));
        for other in ["a*b", "a/**", "get_?*", "[ab]*", "{a,b}*", "a\\**", "abc"] {
            assert_eq!(literal_prefix(other), None, "{other}");
        }
        // Each pattern and name as the glob set alone would judge them.
        let patterns = [
            "get_*", "kusto/*", "*", "a*b", "{x,y}/*", "s/[ab]*", "q?/*", "e\\**",
        ];
        let names = [
            "get_", "get_x", "get", "kusto/q", "kusto", "kustox/q", "ab", "a/b", "x/t", "s/b1",
            "s/c", "q1/t", "e*z", "ez",
        ];
        for pattern in patterns {
            let set = NameSet::new([pattern], true).unwrap();
            let glob = compile(pattern).unwrap().compile_matcher();
            for name in names {
                assert_eq!(set.contains(name), glob.is_match(name), "{pattern} {name}");
            }
        }
    }

    #[test]
    fn star_grants_everything() {
        let set = NameSet::new(["*"], true).unwrap();
        assert!(set.contains("anything") && set.contains("a/b") && set.contains("srv/*"));
    }

    #[test]
    fn escaped_names_are_matched_literally() {
        let names = [
            "*",
            "get[",
            "get[order]",
            "a{b,c}",
            "x\\*?",
            "plain",
            "a\\b",
        ];
        for tools in [true, false] {
            let written: Vec<String> = names.iter().map(|n| escaped(n, tools).into()).collect();
            let set = NameSet::new(written.iter().map(String::as_str), tools).unwrap();
            let literal = NameSet::literal(names, tools);
            for probe in names
                .iter()
                .chain(&["anything", "geto", "ab", "x\\yz", "s/*"])
            {
                assert_eq!(
                    set.contains(probe),
                    literal.contains(probe),
                    "{probe} {tools}"
                );
            }
            assert!(!set.contains("anything") && set.contains("get[") && set.contains("*"));
        }
        // Escaped under a server, the tool still meets a bare requirement.
        let set = NameSet::new(["s/get\\[id\\]"], true).unwrap();
        assert!(set.contains("get[id]") && set.contains("s/*") && !set.contains("s/geti"));
        // A pattern that escapes only some of its syntax stays a pattern.
        let set = NameSet::new(["\\[a*"], true).unwrap();
        assert!(set.contains("[ab") && !set.contains("ab"));
    }

    #[test]
    fn resources_are_literal() {
        let set = NameSet::new(["docs://team/guide.md", "file:///x/*"], false).unwrap();
        assert!(set.contains("docs://team/guide.md"));
        assert!(set.contains("file:///x/y"));
        assert!(!set.contains("guide.md"));
    }

    proptest::proptest! {
        /// The shortcut trims exactly what `str::trim` trims, whatever white space (ASCII,
        /// vertical tab, no-break space, line separator) surrounds the name.
        #[test]
        fn trim_is_str_trim(
            s in "[ \t\n\u{b}\u{c}\r\u{1c}\u{85}\u{a0}\u{2028}\u{3000}a-z(/é]{0,8}"
        ) {
            proptest::prop_assert_eq!(trim(&s), s.trim());
            proptest::prop_assert_eq!(tool_of(&s), s.split('(').next().unwrap_or(&s).trim());
        }
    }

    #[test]
    fn extension_ids_and_dotted_server_names() {
        for id in ["ms-python.python", "github.vscode-pull-request-github"] {
            assert!(looks_like_extension(id), "{id}");
        }
        for server in [
            "microsoft.docs.mcp",
            "terraform.mcp",
            "github",
            "a.",
            ".b",
            "Foo.MCP",
        ] {
            assert!(!looks_like_extension(server), "{server}");
        }
    }
}
