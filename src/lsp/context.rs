//! Where the cursor is in a file's text, read from the lines around it rather than from a
//! parse: half-typed frontmatter is the normal case in an editor, and these answers must not
//! wait for it to be valid YAML.

use super::convert::{byte_of_utf16, ends_token};

/// The cursor's place in a document.
#[derive(Debug, Default, PartialEq, Eq)]
pub(crate) struct Cursor {
    /// The cursor is between the frontmatter's `---` lines.
    pub in_frontmatter: bool,
    /// The keys around the cursor, outermost first: `["dependencies", "tools", "all"]` in a
    /// list under `dependencies.tools.all`, `["tools"]` after `tools:` on its line.
    pub keys: Vec<String>,
    /// The cursor is where a key is typed: at the start of a line, no `:` before it.
    pub at_key: bool,
    /// The word under the cursor (a name, a key, a path), if any.
    pub word: Option<String>,
    /// In frontmatter, the name under the cursor whole, as YAML reads it (see [`name_at`]).
    pub name: Option<String>,
    /// The UTF-16 columns the name under the cursor spans on its line, quotes left out;
    /// `None` where no name is typed yet.
    pub name_columns: Option<(u32, u32)>,
    /// The indentation of the cursor's line.
    pub indent: usize,
}

/// The 0-based line index of each frontmatter line range: (first line after `---`, the
/// closing line or the end of the text).
fn frontmatter(text: &str) -> Option<(usize, usize)> {
    let mut lines = text.split('\n').map(|l| l.trim_end_matches('\r'));
    if lines.next()?.trim_start_matches('\u{feff}').trim_end() != "---" {
        return None;
    }
    let end = lines
        .position(|l| l.trim_end() == "---" || l.trim_end() == "...")
        .map_or(usize::MAX, |i| i + 1);
    Some((1, end))
}

/// Where the `:` that ends a mapping key is in `s`: one followed by a space or the end. A `:`
/// inside a scalar (`docs://x`, `payments:get_order`) ends nothing.
fn indicator(s: &str) -> Option<usize> {
    s.match_indices(':')
        .map(|(i, _)| i)
        .find(|&i| s[i + 1..].chars().next().is_none_or(char::is_whitespace))
}

/// The key a frontmatter line starts (`key:` or `- key:`), with the line's indentation,
/// whether it is a list item, and the byte of `line` its `:` is at.
fn key_of(line: &str) -> (usize, bool, Option<(&str, usize)>) {
    let indent = line.len() - line.trim_start().len();
    let rest = line.trim_start();
    let (item, rest) = match rest.strip_prefix('-') {
        Some(r) if r.is_empty() || r.starts_with(' ') => (true, r.trim_start()),
        _ => (false, rest),
    };
    let offset = line.len() - rest.len();
    let key = indicator(rest)
        .map(|i| (rest[..i].trim(), offset + i))
        .filter(|(k, _)| {
            !k.is_empty() && !k.contains(|c: char| c.is_whitespace() || "[]{},#\"'".contains(c))
        });
    (indent, item, key)
}

/// A scalar of a frontmatter line, as YAML reads it: bytes `start..end` of the line (between
/// the quotes of a quoted one).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Scalar {
    start: usize,
    end: usize,
    /// In quotes: `'` or `"`.
    quote: Option<u8>,
    /// A mapping key: a `:` and a space follow it.
    key: bool,
    /// An entry of a list: in `[...]`, or after a line's `- `.
    entry: bool,
}

/// The scalars of one frontmatter line, read as YAML does with what one line tells: flow
/// collections, quotes, `- ` items, `key: ` indicators and `#` comments. Every byte it stops
/// at is ASCII, so each span is a range of whole characters.
fn scalars(line: &str) -> Vec<Scalar> {
    let b = line.as_bytes();
    let blank = |i: usize| b.get(i).is_none_or(|c| c.is_ascii_whitespace());
    let flow_end = |i: usize| b.get(i).is_some_and(|c| b",[]{}".contains(c));
    let mut flow: Vec<u8> = Vec::new();
    let mut item = false;
    let mut out: Vec<Scalar> = Vec::new();
    let mut i = 0;
    while i < b.len() {
        let c = b[i];
        let in_flow = !flow.is_empty();
        match c {
            _ if c.is_ascii_whitespace() => i += 1,
            b'#' if i == 0 || blank(i - 1) => break,
            b'[' | b'{' => {
                flow.push(c);
                i += 1;
            }
            b']' | b'}' => {
                flow.pop();
                i += 1;
            }
            b',' if in_flow => i += 1,
            b'-' if !in_flow && blank(i + 1) => {
                item = true;
                i += 1;
            }
            b':' if blank(i + 1) || (in_flow && flow_end(i + 1)) => {
                // The scalar just before it, with nothing but spaces (and its closing quote)
                // between, is a key.
                if let Some(last) = out.last_mut() {
                    let after = (last.end + usize::from(last.quote.is_some())).min(i);
                    if line[after..i].trim().is_empty() {
                        last.key = true;
                        last.entry = false;
                    }
                }
                i += 1;
            }
            b'"' | b'\'' => {
                let start = i + 1;
                let mut j = start;
                while j < b.len() {
                    match b[j] {
                        b'\\' if c == b'"' => j += 2,
                        b'\'' if c == b'\'' && b.get(j + 1) == Some(&b'\'') => j += 2,
                        d if d == c => break,
                        _ => j += 1,
                    }
                }
                let end = j.min(b.len());
                out.push(Scalar {
                    start,
                    end,
                    quote: Some(c),
                    key: false,
                    entry: flow.last() == Some(&b'[') || (!in_flow && item),
                });
                item = false;
                i = end + 1;
            }
            _ => {
                let start = i;
                let mut j = i;
                while j < b.len() {
                    let d = b[j];
                    let ends = (in_flow && flow_end(j))
                        || (d == b':' && (blank(j + 1) || (in_flow && flow_end(j + 1))))
                        || (d == b'#' && j > start && blank(j - 1));
                    if ends {
                        break;
                    }
                    j += 1;
                }
                out.push(Scalar {
                    start,
                    end: start + line[start..j].trim_end().len(),
                    quote: None,
                    key: false,
                    entry: flow.last() == Some(&b'[') || (!in_flow && item),
                });
                item = false;
                // At least one byte on, whatever stopped the scalar.
                i = j.max(i + 1);
            }
        }
    }
    out
}

/// The name under byte `at` of a frontmatter line, whole as the audit reads it: a list entry
/// (`docs://payments/refund-policy.md`, `payments:get_order`, `Bash(git:*)`), or the name
/// of a string value under the cursor, split at commas and spaces as the audit splits
/// `tools: Read, Grep`. `None` on a key or between names.
pub(crate) fn name_at(line: &str, at: usize) -> Option<String> {
    let (start, end, quote) = name_span(line, at)?;
    let text = &line[start..end];
    Some(match quote {
        Some(b'\'') => text.replace("''", "'"),
        _ => text.to_owned(),
    })
}

/// The bytes of `line` the name around byte `at` spans, quotes left out, with the quote it
/// is written in: what a completion replaces.
pub(crate) fn name_span(line: &str, at: usize) -> Option<(usize, usize, Option<u8>)> {
    let s = scalars(line).into_iter().find(|s| {
        let quoted = usize::from(s.quote.is_some());
        s.start - quoted <= at && at <= s.end + quoted
    })?;
    if s.key {
        return None;
    }
    let text = &line[s.start..s.end];
    if s.entry {
        return (!text.is_empty()).then_some((s.start, s.end, s.quote));
    }
    // A string of names: the one around the cursor, parentheses kept whole (`Agent(a, b)`).
    let at = at.saturating_sub(s.start).min(text.len());
    let mut depth = 0usize;
    let mut start = 0;
    for (i, c) in text
        .char_indices()
        .chain(std::iter::once((text.len(), ' ')))
    {
        match c {
            '(' => depth += 1,
            ')' => depth = depth.saturating_sub(1),
            ',' | ' ' | '\t' if depth == 0 || i == text.len() => {
                if start <= at && at <= i && start < i {
                    return Some((s.start + start, s.start + i, s.quote));
                }
                start = i + c.len_utf8();
            }
            _ => {}
        }
    }
    None
}

/// The word around byte `at` of `line`: a run of characters that do not end a token.
pub(crate) fn word_at(line: &str, at: usize) -> Option<String> {
    let at = at.min(line.len());
    let start = line[..at]
        .char_indices()
        .rev()
        .find(|(_, c)| ends_token(*c))
        .map_or(0, |(i, c)| i + c.len_utf8());
    let end = line[at..].find(ends_token).map_or(line.len(), |i| at + i);
    (start < end).then(|| line[start..end].to_owned())
}

/// The cursor at 0-based `line` and UTF-16 `character` of `text`.
pub(crate) fn cursor(text: &str, line: u32, character: u32) -> Cursor {
    let line = line as usize;
    // Split once, down to the cursor's line: the keys above it are read line by line upwards.
    let lines: Vec<&str> = text
        .split('\n')
        .take(line.saturating_add(1))
        .map(|l| l.strip_suffix('\r').unwrap_or(l))
        .collect();
    let l = lines.get(line).copied().unwrap_or("");
    let at = byte_of_utf16(l, character);
    let word = word_at(l, at);
    let Some((first, end)) = frontmatter(text) else {
        return Cursor {
            word,
            ..Cursor::default()
        };
    };
    if line < first || line >= end {
        return Cursor {
            word,
            ..Cursor::default()
        };
    }
    let (indent, item, key) = key_of(l);
    let before = &l[..at];
    let at_key = indicator(before).is_none() && !before.trim_start().starts_with('-') && !item;
    let mut keys = Vec::new();
    // The line's own key counts when the cursor is in its value (`tools: [a, b]`).
    if let Some((k, colon)) = key
        && at > colon
    {
        keys.push(k.to_owned());
    }
    let mut need = indent;
    let mut item_here = item || l.trim_start().is_empty();
    // Lines past the end are blank: a cursor there has only the last line's keys above it.
    for above in lines[..line.min(lines.len())].iter().skip(first).rev() {
        if above.trim().is_empty() || above.trim_start().starts_with('#') {
            continue;
        }
        let (ind, is_item, k) = key_of(above);
        // A parent is less indented; a list may also sit at its key's indentation.
        let parent = ind < need || (item_here && ind == need && !is_item);
        if !parent {
            continue;
        }
        if let Some((k, _)) = k {
            keys.push(k.to_owned());
        }
        need = ind;
        item_here = is_item;
        if ind == 0 && !is_item {
            break;
        }
    }
    keys.reverse();
    Cursor {
        in_frontmatter: true,
        keys,
        at_key: at_key && indent == 0,
        word,
        name: name_at(l, at),
        name_columns: name_span(l, at)
            .map(|(start, end, _)| (utf16(&l[..start]), utf16(&l[..end]))),
        indent,
    }
}

fn utf16(s: &str) -> u32 {
    u32::try_from(s.encode_utf16().count()).unwrap_or(u32::MAX)
}

#[cfg(test)]
mod tests {
    use super::*;

    const TEXT: &str = "---\nname: x\ndependencies:\n  tools:\n    all:\n      - read/readFile\n      - gh\ntools: [a, 'b']\nagents:\n- one\n\n---\nbody [link](ref.md)\n";

    #[test]
    fn keys_above_the_cursor_are_its_context() {
        let c = cursor(TEXT, 5, 10);
        assert!(c.in_frontmatter);
        assert_eq!(c.keys, ["dependencies", "tools", "all"]);
        assert_eq!(c.word.as_deref(), Some("read/readFile"));
        assert_eq!(cursor(TEXT, 7, 8).keys, ["tools"]);
        assert_eq!(cursor(TEXT, 7, 8).word.as_deref(), Some("a"));
        assert_eq!(cursor(TEXT, 7, 12).word.as_deref(), Some("b"));
        // A list at its key's own indentation.
        assert_eq!(cursor(TEXT, 9, 3).keys, ["agents"]);
    }

    #[test]
    fn a_name_is_read_whole_as_yaml_reads_it() {
        let name = |line: &str, needle: &str, off: usize| {
            let at = line.find(needle).expect("in the line") + off;
            name_at(line, at)
        };
        let flow = r#"    all: ["docs://payments/refund-policy.md", payments:get_order, 'it''s']"#;
        for off in [0, 1, 4, 5, 8, 20, 31, 32] {
            assert_eq!(
                name(flow, "docs://", off).as_deref(),
                Some("docs://payments/refund-policy.md"),
                "{off}"
            );
        }
        assert_eq!(
            name(flow, "payments:get", 10).as_deref(),
            Some("payments:get_order")
        );
        assert_eq!(name(flow, "it''s", 2).as_deref(), Some("it's"));
        // On the key: none.
        assert_eq!(name(flow, "all", 1), None);
        let block = "      - docs://payments/refund-policy.md # the policy";
        assert_eq!(
            name(block, "payments", 0).as_deref(),
            Some("docs://payments/refund-policy.md")
        );
        assert_eq!(
            name("  - Bash(git:*)", "git", 1).as_deref(),
            Some("Bash(git:*)")
        );
        // A string of names: the one under the cursor.
        let s = "allowed-tools: Read, Bash(git status:*) mcp__gh__x";
        assert_eq!(name(s, "Read", 2).as_deref(), Some("Read"));
        assert_eq!(name(s, "status", 0).as_deref(), Some("Bash(git status:*)"));
        assert_eq!(name(s, "mcp__", 3).as_deref(), Some("mcp__gh__x"));
        // A `- key: value` item: the value is not an entry of the list.
        assert_eq!(name("- name: a b", "b", 0).as_deref(), Some("b"));
        assert_eq!(name("- name: a b", "name", 0), None);
        // Half-typed lines do not trip it.
        for l in ["  - \"open", "tools: [a, 'b", "x: {a: [", ":", "- ", "'"] {
            for at in 0..=l.len() {
                let _ = name_at(l, at);
            }
        }
    }

    #[test]
    fn a_colon_inside_a_name_is_not_a_key() {
        let text = "---\nname: a\ntools:\n  - payments:get_order\n  - docs://x/y.md\n---\n";
        let c = cursor(text, 3, 14);
        assert_eq!(c.keys, ["tools"]);
        assert_eq!(c.name.as_deref(), Some("payments:get_order"));
        let c = cursor(text, 4, 10);
        assert_eq!(c.keys, ["tools"]);
        assert_eq!(c.name.as_deref(), Some("docs://x/y.md"));
    }

    #[test]
    fn a_key_is_typed_at_the_start_of_a_top_level_line() {
        assert!(cursor(TEXT, 1, 2).at_key);
        assert!(!cursor(TEXT, 1, 7).at_key);
        assert!(cursor(TEXT, 10, 0).at_key);
        assert!(!cursor(TEXT, 6, 8).at_key);
    }

    #[test]
    fn the_body_and_files_without_frontmatter_have_no_keys() {
        let c = cursor(TEXT, 12, 13);
        assert!(!c.in_frontmatter);
        assert_eq!(c.word.as_deref(), Some("ref.md"));
        let c = cursor("{\"skills\": [\"./a\"]}", 0, 14);
        assert!(!c.in_frontmatter);
        assert_eq!(c.word.as_deref(), Some("./a"));
        // Half-typed and empty input is fine.
        assert_eq!(cursor("", 3, 9), Cursor::default());
        assert!(cursor("---\nna", 1, 2).at_key);
    }
}
