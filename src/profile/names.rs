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

/// Reduce a tool name to its canonical `server/tool` (or bare) spelling.
pub fn canonical(name: &str) -> Cow<'_, str> {
    let name = name.trim();
    if let Some(rest) = name.strip_prefix("mcp__") {
        if let Some((server, tool)) = rest.split_once("__")
            && !server.is_empty()
            && !tool.is_empty()
        {
            return Cow::Owned(format!("{server}/{tool}"));
        }
        return Cow::Borrowed(name);
    }
    // `server:tool`, but not permission syntax such as `Bash(git:*)` or URIs with `//`.
    if !name.contains(['/', '('])
        && let Some((server, tool)) = name.split_once(':')
        && !server.is_empty()
        && !tool.is_empty()
        && !tool.contains(':')
    {
        return Cow::Owned(format!("{server}/{tool}"));
    }
    Cow::Borrowed(name)
}

/// Is this entry a glob pattern rather than a literal name?
pub fn is_pattern(name: &str) -> bool {
    name.contains(['*', '?', '['])
}

fn compile(pattern: &str) -> Option<Glob> {
    GlobBuilder::new(pattern)
        .literal_separator(false)
        .backslash_escape(true)
        .build()
        .ok()
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
    globs: GlobSet,
    patterns: Vec<String>,
    /// Tool names are canonicalised; resource URIs and prompt names are compared as written.
    tools: bool,
}

impl NameSet {
    /// Build from names; `tools` selects tool-name canonicalisation.
    pub fn new<'a>(
        names: impl IntoIterator<Item = &'a str>,
        tools: bool,
    ) -> Result<NameSet, String> {
        let mut set = NameSet {
            tools,
            ..NameSet::default()
        };
        let mut builder = GlobSetBuilder::new();
        for raw in names {
            let name: Cow<'_, str> = if tools {
                canonical(raw)
            } else {
                Cow::Borrowed(raw.trim())
            };
            // Resource URIs may hold `?` and `[` literally (`docs://x?lang=en`): only `*` makes
            // one a pattern.
            if if tools {
                is_pattern(&name)
            } else {
                name.contains('*')
            } {
                let glob =
                    compile(&name).ok_or_else(|| format!("`{raw}` is not a valid pattern"))?;
                builder.add(glob);
                if tools
                    && let Some((server, _)) = name.split_once('/')
                    && !is_pattern(server)
                {
                    set.servers.insert(server.to_owned());
                }
                set.patterns.push(name.into_owned());
                continue;
            }
            if tools && let Some((server, tool)) = name.split_once('/') {
                set.tool_parts.insert(tool.to_owned());
                set.servers.insert(server.to_owned());
            }
            set.exact.insert(name.into_owned());
        }
        set.globs = builder.build().map_err(|e| e.to_string())?;
        Ok(set)
    }

    /// Number of literal names and patterns.
    pub fn len(&self) -> usize {
        self.exact.len() + self.patterns.len()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
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
                || self.globs.is_match(req.as_ref())
                || self.globs.is_match(format!("{server}/x"));
        }
        if self.exact.contains(req.as_ref()) || self.globs.is_match(req.as_ref()) {
            return true;
        }
        self.tools && !req.contains('/') && self.tool_parts.contains(req.as_ref())
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
    fn star_grants_everything() {
        let set = NameSet::new(["*"], true).unwrap();
        assert!(set.contains("anything") && set.contains("a/b") && set.contains("srv/*"));
    }

    #[test]
    fn resources_are_literal() {
        let set = NameSet::new(["docs://team/guide.md", "file:///x/*"], false).unwrap();
        assert!(set.contains("docs://team/guide.md"));
        assert!(set.contains("file:///x/y"));
        assert!(!set.contains("guide.md"));
    }
}
