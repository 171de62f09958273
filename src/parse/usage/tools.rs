//! Tools and MCP servers a body names in a host's reference syntax.

use super::{Names, UseLine, found};
use crate::model::{DepKind, Use};

/// Servers the text names as MCP servers: `mcp__github__...`, "the GitHub MCP server",
/// "MCP server `github`".
pub(super) fn named_servers(body: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut from = 0;
    let mut run = NameRun::default();
    while let Some(at) = body[from..].find("mcp__") {
        let at = from + at;
        if let Some((server, _)) = run.from(body, at + 5).split_once("__") {
            out.push(server.to_ascii_lowercase());
        }
        from = at + 5;
    }
    let any = |l: &str| l.contains("MCP") || l.contains("mcp") || l.contains("Mcp");
    if !any(body) {
        out.sort();
        out.dedup();
        return out;
    }
    for line in body.lines() {
        if !any(line) {
            continue;
        }
        let lower = line.to_ascii_lowercase();
        let mut from = 0;
        while let Some(at) = lower[from..].find("mcp server") {
            let at = from + at;
            // The word before "MCP server", or the code span after it.
            let before = lower[..at].trim_end().trim_end_matches('`');
            let word: String = before
                .chars()
                .rev()
                .take_while(|c| c.is_ascii_alphanumeric() || *c == '-' || *c == '_')
                .collect::<Vec<_>>()
                .into_iter()
                .rev()
                .collect();
            if !word.is_empty() && !matches!(word.as_str(), "the" | "an" | "a" | "your" | "any") {
                out.push(word);
            }
            let after = lower[at + 10..].trim_start_matches(['s', ':', ' ']);
            if let Some(code) = after.strip_prefix('`')
                && let Some(end) = code.find('`')
            {
                out.push(code[..end].to_owned());
            }
            from = at + 10;
        }
    }
    out.sort();
    out.dedup();
    out
}

/// A character of a tool's or a server's name.
fn tool_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '_' || c == '-'
}

/// The run of name characters ([`tool_char`]) that starts at a byte of a text, for the
/// `mcp__` references in it, found in order: `mcp__` is made of name characters, so one run
/// may hold thousands of them (`mcp__mcp__...`), and its end is found once.
#[derive(Default)]
struct NameRun {
    /// Where the last run asked for ends: every byte from where it started to there is a name
    /// character.
    end: usize,
}

impl NameRun {
    /// The name characters of `text` from byte `from`, which is at or past where the last
    /// run asked for started.
    fn from<'t>(&mut self, text: &'t str, from: usize) -> &'t str {
        if from >= self.end {
            let rest = &text[from..];
            self.end = from + rest.find(|c| !tool_char(c)).unwrap_or(rest.len());
        }
        &text[from..self.end]
    }
}

/// Whether a body has `mcp__` and `#tool:` references anywhere.
#[derive(Clone, Copy)]
pub(super) struct References {
    pub(super) mcp: bool,
    pub(super) tool: bool,
}

/// The tools a line of text names: `mcp__server__tool`, `#tool:name`, `` `server/tool` `` for a
/// server the text names, and "use the `X` tool" (a phrase: judged only where a host defines X).
pub(super) fn tools_of_text(
    line: &str,
    line_no: u32,
    servers: &Names,
    refs: References,
    out: &mut Vec<Use>,
) {
    // Code spans matter only with a server to look for or a phrase about a tool: most lines
    // with code spans cost no more than these searches.
    let spans = line.contains('`')
        && (!servers.is_empty() || line.contains("tool") || line.contains("Tool"));
    let mcp = refs.mcp && line.contains("mcp__");
    let tool = refs.tool && line.contains("#tool:");
    if !spans && !mcp && !tool {
        return;
    }
    // "**NEVER use:** `mcp__perplexity__...`", "do not call ...": a tool the skill avoids.
    let lower = line.to_ascii_lowercase();
    if [
        "never use",
        "never call",
        "do not use",
        "don't use",
        "do not call",
        "avoid ",
    ]
    .iter()
    .any(|n| lower.contains(n))
    {
        return;
    }
    let columns = UseLine::new(line);
    let mut from = 0;
    let mut run = NameRun::default();
    while mcp && let Some(at) = line[from..].find("mcp__") {
        let at = from + at;
        if let Some((server, tool)) = run.from(line, at + 5).split_once("__")
            && !server.is_empty()
            && !tool.is_empty()
            && !tool.contains("__")
            && (at == 0 || !line[..at].ends_with(tool_char))
        {
            out.push(found(
                DepKind::Tools,
                format!("{server}/{tool}"),
                None,
                line_no,
                &columns,
                at,
            ));
        }
        from = at + 5;
    }
    from = 0;
    while tool && let Some(at) = line[from..].find("#tool:") {
        let at = from + at;
        let name: String = line[at + 6..]
            .chars()
            .take_while(|c| tool_char(*c) || *c == '/' || *c == '.')
            .collect();
        let name = name.trim_end_matches(['.', '/']);
        if !name.is_empty() {
            out.push(found(
                DepKind::Tools,
                name.to_owned(),
                None,
                line_no,
                &columns,
                at,
            ));
        }
        from = at + 6;
    }
    // Code spans: `server/tool` and "use the `X` tool".
    if !spans {
        return;
    }
    // Asked once for the line, however many spans it has.
    let speaks_of_tools =
        std::cell::LazyCell::new(|| lower.contains("tool") || lower.contains("mcp"));
    let mut spans = line.split('`');
    let mut offset = 0;
    let mut inside = false;
    let mut prev_end = 0;
    while let Some(part) = spans.next() {
        let start = offset;
        offset += part.len() + 1;
        if !inside {
            prev_end = start + part.len();
            inside = true;
            continue;
        }
        inside = false;
        let after = lower.get(offset..).unwrap_or("").trim_start();
        // `penpot/penpot-mcp` MCP server names a server; `xquik/x-tweet-scraper` in a table
        // of Apify actors is no tool: a hyphenated name counts where the line speaks of tools.
        let names_server = after.starts_with("mcp server") || after.starts_with("server");
        let tool_like = |t: &str| !t.contains('-') || *speaks_of_tools;
        if let Some((server, tool)) = part.split_once('/')
            && servers.contains(&server.to_ascii_lowercase())
            && !tool.is_empty()
            && tool.chars().all(|c| tool_char(c) || c == '*')
            && !names_server
            && tool_like(tool)
        {
            out.push(found(
                DepKind::Tools,
                format!("{}/{tool}", server.to_ascii_lowercase()),
                None,
                line_no,
                &columns,
                start,
            ));
            continue;
        }
        let before = lower[..prev_end.min(lower.len())].trim_end();
        if !part.is_empty()
            && part.chars().all(tool_char)
            && (before.ends_with("use the") || before.ends_with("call the"))
            && (after.starts_with("tool") && !after.starts_with("toolkit"))
        {
            let mut u = found(
                DepKind::Tools,
                part.to_owned(),
                None,
                line_no,
                &columns,
                start,
            );
            u.phrase = true;
            out.push(u);
        }
        let _ = spans.size_hint();
    }
}
