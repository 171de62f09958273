//! Stage 2: turn the bytes of a discovered file into a model plus the findings met on the way.

pub mod agent;
pub(crate) mod codex;
pub mod dependencies;
pub(crate) mod fields;
pub mod frontmatter;
pub(crate) mod hermes;
pub(crate) mod hooks;
pub mod manifest;
pub mod markdown;
pub(crate) mod openclaw;
pub(crate) mod packages;
pub mod skill;
pub(crate) mod stdlib;
pub(crate) mod usage;
pub mod yaml;

use crate::diagnostic::{Pos, Sink};
use crate::rules;
use frontmatter::SplitError;

/// A Markdown file with readable frontmatter.
#[derive(Debug)]
pub struct Document<'t> {
    /// The frontmatter; always a mapping.
    pub root: yaml::Node,
    pub body: &'t str,
    pub body_line: u32,
    /// Lines in the whole file.
    pub line_count: u32,
}

pub use crate::model::Unreadable;

/// Record `# skill-audit: ignore ...` comments of the frontmatter in the sink. Only YAML
/// comments count: the same words in a block scalar's text or in a quoted string are text.
fn suppressions(yaml: &str, first_line: u32, sink: &mut Sink) {
    if !yaml.contains(crate::diagnostic::SUPPRESSION_MARKER) {
        return;
    }
    let mut block: Option<usize> = None;
    for (i, line) in yaml.lines().enumerate() {
        let indent = line.len() - line.trim_start_matches(' ').len();
        // The text of a block scalar: blank lines, and lines indented past its key's.
        if let Some(key_indent) = block {
            if line.trim().is_empty() || indent > key_indent {
                continue;
            }
            block = None;
        }
        let hash = comment_start(line);
        let content = hash.map_or(line, |h| &line[..h]);
        if opens_block_scalar(content) {
            block = Some(indent);
        }
        let Some(hash) = hash else { continue };
        let Some(at) = line[hash..]
            .find(crate::diagnostic::SUPPRESSION_MARKER)
            .map(|a| hash + a)
        else {
            continue;
        };
        // Only `#`, then spaces, then the marker.
        if !line[hash + 1..at].trim().is_empty() {
            continue;
        }
        let n = first_line + u32::try_from(i).unwrap_or(u32::MAX - first_line);
        let standalone = line[..hash].trim().is_empty();
        let mut lines = vec![if standalone { n + 1 } else { n }];
        if standalone && n == first_line {
            lines.push(1);
        }
        let ids: Vec<String> = line[at + crate::diagnostic::SUPPRESSION_MARKER.len()..]
            .split([',', ' '])
            .map(str::trim)
            .filter(|s| !s.is_empty())
            .map(str::to_owned)
            .collect();
        let column = line[..hash].chars().count() + 1;
        sink.suppressions.push(crate::diagnostic::Suppression {
            path: sink.path.to_owned(),
            pos: Pos::new(n, u32::try_from(column).unwrap_or(1)),
            lines,
            ids,
        });
    }
}

/// Where the YAML comment of `line` starts: a `#` at the start or after a blank, outside a
/// quoted string. A quote opens a string only where a value starts (after `:`, `-`, `[`, `{`,
/// `,` or at the start), so the apostrophe of `It's` does not.
fn comment_start(line: &str) -> Option<usize> {
    let mut quote: Option<char> = None;
    let mut escaped = false;
    let mut before = ' ';
    let mut last_solid: Option<char> = None;
    for (i, c) in line.char_indices() {
        match quote {
            // `\"` in double quotes, `''` in single quotes: the quote itself.
            Some(_) if escaped => escaped = false,
            Some('"') if c == '\\' => escaped = true,
            Some('\'') if c == '\'' && line[i + 1..].starts_with('\'') => escaped = true,
            Some(q) if c == q => quote = None,
            Some(_) => {}
            None if c == '#' && before.is_whitespace() => return Some(i),
            None if (c == '"' || c == '\'')
                && last_solid.is_none_or(|p| matches!(p, ':' | '-' | '[' | '{' | ',')) =>
            {
                quote = Some(c);
            }
            None => {}
        }
        before = c;
        if !c.is_whitespace() {
            last_solid = Some(c);
        }
    }
    None
}

/// Does `content` (a line without its comment) end in a block scalar's indicator (`key: |`,
/// `- >-`), so that the lines after it are the scalar's text?
fn opens_block_scalar(content: &str) -> bool {
    let t = content.trim_end();
    let indicators = t.trim_end_matches(|c: char| c == '-' || c == '+' || c.is_ascii_digit());
    let Some(head) = indicators
        .strip_suffix('|')
        .or_else(|| indicators.strip_suffix('>'))
    else {
        return false;
    };
    let head = head.trim_end();
    head.is_empty() || head.ends_with(':') || head.ends_with('-')
}

/// Decode, split and parse the frontmatter of a Markdown file, reporting every problem.
/// `what` names the file kind in messages ("skill", "agent").
pub fn document<'b>(
    bytes: &'b [u8],
    what: &str,
    sink: &mut Sink,
) -> Result<Document<'b>, Unreadable> {
    let text = decode(bytes, sink).ok_or(Unreadable::NotText)?;
    let line_count = frontmatter::count_lines(text);
    let split = match frontmatter::split(text) {
        Ok(s) => s,
        Err(SplitError::Missing) => {
            rules::file::missing_frontmatter(sink, what);
            return Err(Unreadable::NoFrontmatter);
        }
        Err(SplitError::Unclosed { line, indented }) => {
            rules::file::unclosed_frontmatter(sink, Pos::new(line, 1), indented);
            return Err(Unreadable::Unclosed);
        }
    };
    suppressions(split.yaml, split.yaml_line, sink);
    let root = yaml::parse(split.yaml, split.yaml_line).map_err(|e| {
        rules::file::yaml_error(sink, e, what);
        Unreadable::NotYaml
    })?;
    if root.as_map().is_none() {
        rules::file::not_mapping(sink, &root);
        return Err(Unreadable::NotMapping);
    }
    Ok(Document {
        root,
        body: split.body,
        body_line: split.body_line,
        line_count,
    })
}

/// `bytes` as text, or std's error saying where they stop being UTF-8. SIMD validation is
/// several times quicker on a library's mostly-ASCII text; std's check runs only on failure,
/// for the position it reports.
fn utf8(bytes: &[u8]) -> Result<&str, std::str::Utf8Error> {
    simdutf8::basic::from_utf8(bytes).or_else(|_| std::str::from_utf8(bytes))
}

/// Decode `bytes` as UTF-8 text without a BOM, or report where it stops being UTF-8.
/// The BOM, if any, is reported as info.
pub(crate) fn decode<'b>(bytes: &'b [u8], sink: &mut Sink) -> Option<&'b str> {
    let text = match utf8(bytes) {
        Ok(t) => t,
        Err(e) => {
            let good = &bytes[..e.valid_up_to()];
            // The prefix is valid UTF-8 by construction.
            let prefix = std::str::from_utf8(good).unwrap_or("");
            let line = frontmatter::count_lines(prefix).max(1);
            let line_start = prefix.rfind('\n').map_or(0, |i| i + 1);
            let mut column = prefix[line_start..].chars().count() + 1;
            // The BOM is not a character a reader sees on line 1.
            if line_start == 0 && prefix.starts_with(frontmatter::BOM) {
                column -= 1;
            }
            let pos = Pos::new(
                if prefix.ends_with('\n') {
                    line + 1
                } else {
                    line
                },
                u32::try_from(column).unwrap_or(u32::MAX),
            );
            rules::file::not_utf8(sink, pos, bytes[e.valid_up_to()]);
            return None;
        }
    };
    match text.strip_prefix(frontmatter::BOM) {
        Some(rest) => {
            rules::file::utf8_bom(sink, rest.starts_with("---"));
            Some(rest)
        }
        None => Some(text),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::Rule;

    #[test]
    fn only_comments_are_suppressions() {
        let ids = |yaml: &str| {
            let mut sink = Sink::new("s/SKILL.md");
            suppressions(yaml, 2, &mut sink);
            sink.suppressions
                .iter()
                .map(|s| (s.pos.line, s.ids.join(",")))
                .collect::<Vec<_>>()
        };
        // A comment, standing alone or after a value, with an apostrophe before it.
        assert_eq!(
            ids(
                "name: a  # skill-audit: ignore SA207\n# skill-audit: ignore SA221\nx: It's # skill-audit: ignore SA230\n"
            ),
            [
                (2, "SA207".to_owned()),
                (3, "SA221".to_owned()),
                (4, "SA230".to_owned())
            ]
        );
        // Text of a block scalar, of a quoted string, or glued to a word: not a comment.
        let text = "description: |\n  Use it, e.g.\n  # skill-audit: ignore SA221\n\n  more\ncolr: 1\nb: \"T # skill-audit: ignore SA221\"\nc: 'it''s # skill-audit: ignore X'\nd: a#skill-audit: ignore SA230\n";
        assert_eq!(ids(text), []);
        // After the block scalar ends, comments count again.
        assert_eq!(
            ids("d: >-\n  text\nk: v # skill-audit: ignore SA221\n"),
            [(4, "SA221".to_owned())]
        );
    }

    #[test]
    fn reports_first_bad_byte_position() {
        let mut sink = Sink::new("f");
        assert!(decode(b"---\nname: caf\xe9\n", &mut sink).is_none());
        let f = &sink.findings[0];
        assert_eq!((f.rule, f.line, f.column), (Rule::NotUtf8, 2, 10));
        let mut sink = Sink::new("f");
        assert!(decode(b"ok\n\xff", &mut sink).is_none());
        assert_eq!((sink.findings[0].line, sink.findings[0].column), (2, 1));
    }

    #[test]
    fn strips_bom_with_info() {
        let mut sink = Sink::new("f");
        assert_eq!(decode("\u{feff}---\n".as_bytes(), &mut sink), Some("---\n"));
        assert_eq!(sink.findings[0].rule, Rule::Utf8Bom);
    }
}
