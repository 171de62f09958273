//! What rules need from a Markdown body: its relative link and image targets, with positions.
//! Parsed with comrak so links inside code blocks and spans are not mistaken for links.

use comrak::nodes::NodeValue;
use comrak::{Arena, Options, parse_document};

use crate::diagnostic::Pos;

/// A relative link or image target found in a body.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BodyLink {
    /// The target path, without fragment or query, percent-decoded.
    pub target: String,
    pub pos: Pos,
}

/// Bodies larger than this are not scanned for links (the cost would be paid on every run for
/// a file no host would load anyway).
pub const MAX_LINK_SCAN_BYTES: usize = 2 << 20;

/// Relative link and image targets of `body`, whose first line is `first_line` of the file.
pub fn relative_links(body: &str, first_line: u32) -> Vec<BodyLink> {
    if body.len() > MAX_LINK_SCAN_BYTES || !body.contains("](") && !body.contains("]:") {
        return Vec::new();
    }
    let arena = Arena::new();
    let mut options = Options::default();
    options.extension.table = true;
    options.extension.autolink = false;
    let root = parse_document(&arena, body, &options);
    let line_starts: Vec<usize> = std::iter::once(0)
        .chain(memchr::memchr_iter(b'\n', body.as_bytes()).map(|i| i + 1))
        .collect();
    let mut out = Vec::new();
    for node in root.descendants() {
        let ast = node.data();
        let url = match &ast.value {
            NodeValue::Link(link) | NodeValue::Image(link) => &link.url,
            _ => continue,
        };
        if let Some(target) = local_target(url) {
            let line = ast.sourcepos.start.line;
            let column = char_column(body, &line_starts, line, ast.sourcepos.start.column);
            let line = u32::try_from(line).unwrap_or(u32::MAX);
            out.push(BodyLink {
                target,
                pos: Pos::new(line.saturating_add(first_line.saturating_sub(1)), column),
            });
        }
    }
    out
}

/// comrak counts columns in bytes; findings count characters.
fn char_column(body: &str, line_starts: &[usize], line: usize, byte_col: usize) -> u32 {
    let start = line
        .checked_sub(1)
        .and_then(|i| line_starts.get(i))
        .copied()
        .unwrap_or(0);
    let end = (start + byte_col.saturating_sub(1)).min(body.len());
    let chars = body
        .get(start..end)
        .map_or(byte_col, |s| s.chars().count() + 1);
    u32::try_from(chars).unwrap_or(1).max(1)
}

/// The file path a link points at, or `None` for URLs, anchors, absolute paths and templates.
pub fn local_target(url: &str) -> Option<String> {
    let url = url.trim();
    let path = url.split(['#', '?']).next().unwrap_or("");
    if path.is_empty() || path.starts_with('/') || path.starts_with('\\') || path.starts_with('~') {
        return None;
    }
    // A scheme (`https:`, `mailto:`, `skill:`) or a Windows drive: not a relative file path.
    if let Some(colon) = path.find(':')
        && !path[..colon].contains('/')
    {
        return None;
    }
    // Placeholders such as `{{path}}`, `<file>` or `${VAR}` are examples, not links.
    if path.contains(['{', '}', '<', '>', '$', '*']) {
        return None;
    }
    Some(percent_decode(path))
}

fn percent_decode(s: &str) -> String {
    let bytes = s.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%' && i + 2 < bytes.len() {
            let hex = std::str::from_utf8(&bytes[i + 1..i + 3])
                .ok()
                .and_then(|h| u8::from_str_radix(h, 16).ok());
            if let Some(b) = hex {
                out.push(b);
                i += 3;
                continue;
            }
        }
        out.push(bytes[i]);
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_links_and_images_with_file_lines() {
        let body = "# T\n\nSee [ref](references/a.md#x) and ![img](assets/b%20c.png).\n\n`[no](code.md)`\n\n[web](https://x.y) [anchor](#top)\n";
        let links = relative_links(body, 5);
        let targets: Vec<_> = links
            .iter()
            .map(|l| (l.target.as_str(), l.pos.line))
            .collect();
        assert_eq!(targets, [("references/a.md", 7), ("assets/b c.png", 7)]);
        let links = relative_links("Voir é é é [guide](x.md)\n", 5);
        assert_eq!(links[0].pos, Pos::new(5, 12), "columns count characters");
    }

    #[test]
    fn skips_non_files() {
        for u in [
            "https://a",
            "mailto:x@y",
            "#frag",
            "/abs",
            "C:\\x",
            "{{tpl}}",
            "<x>",
            "skill://a/SKILL.md",
            "",
        ] {
            assert_eq!(local_target(u), None, "{u}");
        }
        assert_eq!(local_target("./a/b.md?x=1"), Some("./a/b.md".into()));
        assert_eq!(local_target("a%2"), Some("a%2".into()));
    }
}
