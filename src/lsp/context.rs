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

/// The key a frontmatter line starts (`key:` or `- key:`), with the line's indentation and
/// whether it is a list item.
fn key_of(line: &str) -> (usize, bool, Option<&str>) {
    let indent = line.len() - line.trim_start().len();
    let rest = line.trim_start();
    let (item, rest) = match rest.strip_prefix('-') {
        Some(r) if r.is_empty() || r.starts_with(' ') => (true, r.trim_start()),
        _ => (false, rest),
    };
    let key = rest.find(':').map(|i| rest[..i].trim()).filter(|k| {
        !k.is_empty() && !k.contains(|c: char| c.is_whitespace() || "[]{},#\"'".contains(c))
    });
    (indent, item, key)
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
    let at_key = !before.contains(':') && !before.trim_start().starts_with('-') && !item;
    let mut keys = Vec::new();
    // The line's own key counts when the cursor is in its value (`tools: [a, b]`).
    if let Some(k) = key
        && before.contains(':')
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
        if let Some(k) = k {
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
        indent,
    }
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
