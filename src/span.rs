//! Where things are in a file's text, for rules that build edits: a [`Pos`] as a byte offset,
//! the extent of a scalar token, the line around an offset, and names written as YAML
//! scalars. The tree has positions but no byte spans, so fixes find their ranges here, in the
//! text the tree was read from, and check that the range holds what they expect. Also the
//! indexes for texts asked about many places (line starts, marks along a long line), shared by
//! readers, the text report and the language server.

use crate::diagnostic::{Edit, Pos};
use crate::parse::frontmatter::BOM;

/// The byte offset of `pos` (1-based line, column in characters) in `text`, the whole file
/// as read. A byte order mark is not a character a reader sees on line 1.
pub fn offset(text: &str, pos: Pos) -> Option<usize> {
    let line = usize::try_from(pos.line.checked_sub(1)?).ok()?;
    let mut start = 0;
    if line > 0 {
        start = memchr::memchr_iter(b'\n', text.as_bytes()).nth(line - 1)? + 1;
    } else if text.starts_with(BOM) {
        start = BOM.len();
    }
    let col = usize::try_from(pos.column.checked_sub(1)?).ok()?;
    let rest = &text[start..];
    let within = memchr::memchr(b'\n', rest.as_bytes()).unwrap_or(rest.len());
    let mut chars = rest[..within].char_indices().map(|(i, _)| i);
    let at = match chars.nth(col) {
        Some(i) => i,
        // The column just past the line's last character (an insertion at its end).
        None if rest[..within].chars().count() == col => within,
        None => return None,
    };
    Some(start + at)
}

/// The 1-based line and column of byte `at` of `text` (the inverse of [`offset`]).
pub fn pos_of(text: &str, at: usize) -> Pos {
    let at = at.min(text.len());
    let before = &text.as_bytes()[..at];
    let line = memchr::memchr_iter(b'\n', before).count() + 1;
    let line_start = memchr::memrchr(b'\n', before).map_or(0, |i| i + 1);
    let mut cols = text.get(line_start..at).map_or(0, |s| s.chars().count());
    if line_start == 0 && text.starts_with(BOM) && at >= BOM.len() {
        cols -= 1;
    }
    Pos::new(
        u32::try_from(line).unwrap_or(u32::MAX),
        u32::try_from(cols + 1).unwrap_or(u32::MAX),
    )
}

/// An edit replacing `start..end` of `text` with `content`, with its line and column.
pub fn edit(text: &str, start: usize, end: usize, content: impl Into<String>) -> Edit {
    Edit {
        start,
        end,
        content: content.into(),
        location: pos_of(text, start),
        end_location: pos_of(text, end),
    }
}

/// The line holding byte `at`: its start, its end before the line break, and the line break
/// itself (`"\r\n"`, `"\n"`, or empty on a last line without one).
pub fn line_at(text: &str, at: usize) -> (usize, usize, &str) {
    let bytes = text.as_bytes();
    let start = memchr::memrchr(b'\n', &bytes[..at.min(bytes.len())]).map_or(0, |i| i + 1);
    let nl = memchr::memchr(b'\n', &bytes[start..]).map(|i| start + i);
    match nl {
        Some(nl) if nl > start && bytes[nl - 1] == b'\r' => (start, nl - 1, "\r\n"),
        Some(nl) => (start, nl, "\n"),
        None => (start, text.len(), ""),
    }
}

/// Where each line of a text starts, found once: the line of a place is then found by
/// halving instead of by counting line breaks from the top, for texts that are asked about
/// many places (a script's reads, a manifest's paths, an editor's diagnostics).
pub(crate) struct LineStarts {
    starts: Vec<usize>,
    len: usize,
}

impl LineStarts {
    pub(crate) fn new(text: &str) -> Self {
        let starts = std::iter::once(0)
            .chain(memchr::memchr_iter(b'\n', text.as_bytes()).map(|i| i + 1))
            .collect();
        LineStarts {
            starts,
            len: text.len(),
        }
    }

    /// The 0-based line holding byte `at` (a `\n` is on the line it ends).
    pub(crate) fn line_of(&self, at: usize) -> usize {
        self.starts.partition_point(|&s| s <= at).max(1) - 1
    }

    /// Where 0-based line `line` starts and ends (before its `\n`, after any `\r`); `None`
    /// past the last line.
    pub(crate) fn bounds(&self, line: usize) -> Option<(usize, usize)> {
        let start = *self.starts.get(line)?;
        let end = self.starts.get(line + 1).map_or(self.len, |next| next - 1);
        Some((start, end))
    }
}

/// Counted places on one long line, about `every` bytes apart: a character or UTF-16 position
/// on it is counted on from the place before it rather than from the line's start, so a line
/// asked about thousands of times (a minified file, a generated line of findings) is counted
/// in time linear in its length. With no marks (`default`), everything is counted from the
/// start.
#[derive(Default)]
pub(crate) struct LineMarks {
    marks: Vec<Mark>,
}

/// A counted place: its byte, and the characters and UTF-16 units before it.
#[derive(Clone, Copy, Default)]
struct Mark {
    byte: usize,
    chars: usize,
    units: usize,
}

impl LineMarks {
    pub(crate) fn new(line: &str, every: usize) -> Self {
        let mut marks = Vec::with_capacity(line.len() / every.max(1));
        let mut next = every;
        let (mut chars, mut units) = (0, 0);
        for (i, c) in line.char_indices() {
            if i >= next {
                marks.push(Mark {
                    byte: i,
                    chars,
                    units,
                });
                next = i + every;
            }
            chars += 1;
            units += c.len_utf16();
        }
        LineMarks { marks }
    }

    /// The last place for which `before` holds, else the line's start.
    fn before(&self, before: impl Fn(&Mark) -> bool) -> Mark {
        let i = self.marks.partition_point(before);
        i.checked_sub(1)
            .map_or_else(Mark::default, |i| self.marks[i])
    }

    /// The byte at which character `n` (from 0) of `line` starts; the line's length for the
    /// character just past its end, `None` for one further on.
    pub(crate) fn byte_of_char(&self, line: &str, n: usize) -> Option<usize> {
        let m = self.before(|m| m.chars <= n);
        line[m.byte..]
            .char_indices()
            .map(|(i, _)| m.byte + i)
            .chain(std::iter::once(line.len()))
            .nth(n - m.chars)
    }

    /// The UTF-16 units before byte `at` of `line` (a character boundary of it).
    pub(crate) fn units_before(&self, line: &str, at: usize) -> usize {
        let m = self.before(|m| m.byte <= at);
        m.units + line[m.byte..at].chars().map(char::len_utf16).sum::<usize>()
    }
}

/// Character columns of places on one line, each counted on from the place asked about
/// before rather than from the line's start: a line may hold thousands of places (a minified
/// script, a generated line of links).
pub(crate) struct Columns<'t> {
    text: &'t str,
    /// A byte already counted to, and the characters before it.
    counted: std::cell::Cell<(usize, usize)>,
}

impl<'t> Columns<'t> {
    pub(crate) fn new(text: &'t str) -> Self {
        Columns {
            text,
            counted: std::cell::Cell::new((0, 0)),
        }
    }

    pub(crate) fn text(&self) -> &'t str {
        self.text
    }

    /// Count on `text` from now: kept while it is the same slice, else started anew.
    pub(crate) fn move_to(&mut self, text: &'t str) {
        if !std::ptr::eq(self.text, text) {
            *self = Columns::new(text);
        }
    }

    /// The column (from 1, in characters) of byte `at`; 1 where `at` is past the end or
    /// inside a character.
    pub(crate) fn column(&self, at: usize) -> u32 {
        if !self.text.is_char_boundary(at) {
            return 1;
        }
        let (byte, chars) = self.counted.get();
        let chars = if at >= byte {
            chars + self.text[byte..at].chars().count()
        } else {
            chars - self.text[at..byte].chars().count()
        };
        self.counted.set((at, chars));
        u32::try_from(chars + 1).unwrap_or(u32::MAX)
    }
}

/// The line break a file uses: its first one, `\n` when it has none.
pub fn line_break(text: &str) -> &'static str {
    match text.find('\n') {
        Some(i) if i > 0 && text.as_bytes()[i - 1] == b'\r' => "\r\n",
        _ => "\n",
    }
}

/// Where a scalar token is read.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Context {
    /// An entry of a flow list or mapping (`[a, b]`): a plain scalar ends at `,`, `]`, `}`.
    Flow,
    /// A block value or list item: a plain scalar runs to the end of its line.
    Block,
    /// A block mapping key: a plain key ends at `: ` (or a `:` ending the line).
    Key,
}

/// Is the token at `at` an entry of a flow collection? Judged from the character before it,
/// skipping blanks (and line breaks, as flow collections may span lines).
pub fn context_at(text: &str, at: usize) -> Context {
    match text[..at]
        .trim_end_matches([' ', '\t', '\r', '\n'])
        .chars()
        .next_back()
    {
        Some('[' | ',' | '{') => Context::Flow,
        _ => Context::Block,
    }
}

/// The byte offset of the `}` or `]` that closes the flow collection whose `{` or `[` is at
/// `open`, over lines if need be: quoted scalars and comments are skipped, and a quote counts
/// only where a scalar can start (a plain `it's` holds no quote). `None` when it is not closed.
pub fn flow_end(text: &str, open: usize) -> Option<usize> {
    let bytes = text.as_bytes();
    let mut depth = 0usize;
    let mut i = open;
    // The last byte that was not a blank: a quote after one of `{[,:` starts a scalar.
    let mut last = b' ';
    while i < bytes.len() {
        let b = bytes[i];
        match b {
            b'{' | b'[' => depth += 1,
            b'}' | b']' => {
                depth = depth.checked_sub(1)?;
                if depth == 0 {
                    return Some(i);
                }
            }
            // In one pass, so that a long line of quoted scalars costs its length once.
            b'"' | b'\'' if matches!(last, b'{' | b'[' | b',' | b':') => {
                i += 1;
                loop {
                    match bytes.get(i)? {
                        b'\\' if b == b'"' => i += 2,
                        &q if q == b && b == b'\'' && bytes.get(i + 1) == Some(&b'\'') => i += 2,
                        &q if q == b => break,
                        _ => i += 1,
                    }
                }
                i += 1;
                last = b;
                continue;
            }
            b'#' if i == 0 || matches!(bytes[i - 1], b' ' | b'\t' | b'\n') => {
                i = memchr::memchr(b'\n', &bytes[i..]).map_or(bytes.len(), |n| i + n);
                continue;
            }
            _ => {}
        }
        if !matches!(b, b' ' | b'\t' | b'\r' | b'\n') {
            last = b;
        }
        i += 1;
    }
    None
}

/// The end of the scalar token starting at `start`: a quoted scalar through its closing quote,
/// a plain one as [`Context`] says, without trailing blanks or a ` #` comment. `None` when the
/// token is not a one-line scalar (an unclosed quote, a block scalar indicator, a collection).
pub fn token_end(text: &str, start: usize, ctx: Context) -> Option<usize> {
    let (_, line_end, _) = line_at(text, start);
    let line = &text[start..line_end];
    let bytes = line.as_bytes();
    match bytes.first()? {
        b'\'' => {
            let mut i = 1;
            while i < bytes.len() {
                if bytes[i] == b'\'' {
                    if bytes.get(i + 1) == Some(&b'\'') {
                        i += 2;
                        continue;
                    }
                    return Some(start + i + 1);
                }
                i += 1;
            }
            None
        }
        b'"' => {
            let mut i = 1;
            while i < bytes.len() {
                match bytes[i] {
                    b'\\' => i += 2,
                    b'"' => return Some(start + i + 1),
                    _ => i += 1,
                }
            }
            None
        }
        b'[' | b'{' | b'|' | b'>' | b'&' | b'*' | b'!' => None,
        _ => {
            let mut end = line.len();
            if let Some(c) = line.find(" #") {
                end = c;
            }
            let stop = match ctx {
                Context::Flow => line.find([',', ']', '}']),
                Context::Key => line.find(": ").or_else(|| {
                    line.trim_end()
                        .ends_with(':')
                        .then(|| line.trim_end().len() - 1)
                }),
                Context::Block => None,
            };
            if let Some(s) = stop {
                end = end.min(s);
            }
            let token = line[..end].trim_end();
            (!token.is_empty()).then_some(start + token.len())
        }
    }
}

/// The string a one-line scalar token reads as: quotes removed and escapes undone for the
/// common cases; `None` for an escape this reader does not undo (the caller then makes no fix).
pub fn unquoted(token: &str) -> Option<String> {
    if let Some(inner) = token.strip_prefix('\'').and_then(|t| t.strip_suffix('\'')) {
        return Some(inner.replace("''", "'"));
    }
    if let Some(inner) = token.strip_prefix('"').and_then(|t| t.strip_suffix('"')) {
        if !inner.contains('\\') {
            return Some(inner.to_owned());
        }
        return None;
    }
    Some(token.to_owned())
}

/// The token at `pos` and its byte range, when it is a one-line scalar that reads as `want`.
pub fn scalar_at(text: &str, pos: Pos, want: &str) -> Option<(usize, usize)> {
    let start = offset(text, pos)?;
    let ctx = context_at(text, start);
    scalar_in(text, start, ctx, want)
}

/// [`scalar_at`] for a byte offset and a known context.
pub fn scalar_in(text: &str, start: usize, ctx: Context, want: &str) -> Option<(usize, usize)> {
    let end = token_end(text, start, ctx)?;
    (unquoted(&text[start..end])? == want).then_some((start, end))
}

/// YAML in block style at `indent` spaces: each of `keys` a mapping in the one before, then
/// in the last each of `lists` (key, names) as a block list, a `- name` line per name; lines
/// end with `brk`. What fixes write: every host reads block style and strict validators
/// (skills-ref) accept it, where they reject flow style.
pub fn block_lists<S: AsRef<str>>(
    indent: usize,
    keys: &[&str],
    lists: &[(&str, &[S])],
    brk: &str,
) -> String {
    let mut out = String::new();
    let mut pad = " ".repeat(indent);
    for key in keys {
        out.push_str(&format!("{pad}{key}:{brk}"));
        pad.push_str("  ");
    }
    for (key, names) in lists {
        out.push_str(&format!("{pad}{key}:{brk}"));
        for n in names.iter() {
            let item = scalar(n.as_ref(), Context::Block, None);
            out.push_str(&format!("{pad}  - {item}{brk}"));
        }
    }
    out
}

/// `name` as a YAML scalar in `ctx`, written like `like` (a token of the same list: quoted
/// names stay quoted): plain when it reads back as itself, else single-quoted.
pub fn scalar(name: &str, ctx: Context, like: Option<&str>) -> String {
    let quote = like
        .and_then(|t| t.chars().next())
        .filter(|c| *c == '\'' || *c == '"');
    match quote {
        Some('"') if !name.contains(['"', '\\']) => format!("\"{name}\""),
        Some(_) => single_quoted(name),
        None if plain_safe(name, ctx) => name.to_owned(),
        None => single_quoted(name),
    }
}

/// `s` in single quotes, each `'` doubled: it reads back as exactly `s`.
pub fn single_quoted(s: &str) -> String {
    format!("'{}'", s.replace('\'', "''"))
}

/// Can `s` be written as a plain scalar in `ctx` and read back as the same string?
fn plain_safe(s: &str, ctx: Context) -> bool {
    let Some(first) = s.chars().next() else {
        return false;
    };
    if "-?:,[]{}#&*!|>'\"%@`".contains(first) || s != s.trim() {
        return false;
    }
    if s.contains(": ") || s.contains(" #") || s.ends_with(':') || s.contains(['\n', '\r', '\t']) {
        return false;
    }
    if ctx == Context::Flow && s.contains([',', '[', ']', '{', '}']) {
        return false;
    }
    // Words the core schema types (`true`, `null`, `1.5`) would not read back as strings.
    let lower = s.to_ascii_lowercase();
    if matches!(lower.as_str(), "true" | "false" | "null" | "~")
        || s.parse::<f64>().is_ok()
        || lower.starts_with("0x")
        || lower.starts_with("0o")
    {
        return false;
    }
    true
}

/// Is `start..end` the only thing on its line besides a block list's `- ` and a comment?
/// Then the prefix before it (indent and dash) starts each new item of the list.
fn block_item(text: &str, start: usize, end: usize) -> Option<(usize, usize, &str)> {
    let (line_start, line_end, eol) = line_at(text, start);
    let prefix = &text[line_start..start];
    let after = text[end..line_end].trim();
    let dash = prefix.trim_start_matches(' ');
    let is_item = dash.starts_with('-') && dash[1..].trim_matches(' ').is_empty() && dash.len() > 1;
    (is_item && (after.is_empty() || after.starts_with('#'))).then_some((line_start, line_end, eol))
}

/// For a flow entry that opens its line (a flow list written one entry a line): its
/// indentation and the line break, which new entries beside it take too.
fn own_line(text: &str, start: usize) -> Option<(&str, &str)> {
    let (line_start, _, eol) = line_at(text, start);
    let indent = &text[line_start..start];
    let eol = if eol.is_empty() {
        line_break(text)
    } else {
        eol
    };
    indent
        .bytes()
        .all(|b| b == b' ' || b == b'\t')
        .then_some((indent, eol))
}

/// What separates flow entries written beside the entry at `start`: `, `, or a comma and a
/// new line when the entry has a line of its own.
fn flow_separator(text: &str, start: usize) -> String {
    match own_line(text, start) {
        Some((indent, eol)) => format!(",{eol}{indent}"),
        None => ", ".to_owned(),
    }
}

/// The edit that replaces the list entry `start..end` with `names`: in a flow list as
/// `a, b`, in a block list as one `- name` line each, indented as the entry was. Names are
/// quoted as the entry was. `None` for an entry this cannot place (a block item sharing its
/// line with a key).
pub fn replace_item(text: &str, start: usize, end: usize, names: &[&str]) -> Option<Edit> {
    let token = &text[start..end];
    let ctx = context_at(text, start);
    let written: Vec<String> = names.iter().map(|n| scalar(n, ctx, Some(token))).collect();
    let content = match ctx {
        Context::Flow | Context::Key => written.join(&flow_separator(text, start)),
        Context::Block if written.len() == 1 => written.join(""),
        Context::Block => {
            let (line_start, _, eol) = block_item(text, start, end)?;
            let eol = if eol.is_empty() {
                line_break(text)
            } else {
                eol
            };
            written.join(&format!("{eol}{}", &text[line_start..start]))
        }
    };
    Some(edit(text, start, end, content))
}

/// The edit that removes the list entry `start..end`: in a flow list with the comma that
/// separates it, in a block list with its whole line. A comment on the entry's line stays:
/// in a block list the line keeps it, indented as the dash was. `None` for the only entry of
/// a flow list or an entry this cannot place.
pub fn remove_item(text: &str, start: usize, end: usize) -> Option<Edit> {
    match context_at(text, start) {
        Context::Flow | Context::Key => {
            let after = &text[end..];
            let gap = after.len() - after.trim_start_matches([' ', '\t']).len();
            if after[gap..].starts_with(',') {
                let rest = &after[gap + 1..];
                let blank = rest.len() - rest.trim_start_matches([' ', '\t']).len();
                let (line_start, line_end, eol) = line_at(text, start);
                // An entry with a line of its own goes with its line.
                if own_line(text, start).is_some() && end + gap + 1 + blank == line_end {
                    return Some(edit(text, line_start, line_end + eol.len(), ""));
                }
                return Some(edit(text, start, end + gap + 1 + blank, ""));
            }
            let before = text[..start].trim_end_matches([' ', '\t', '\r', '\n']);
            // The last entry goes with the comma before it, which must not be a comment's.
            before.strip_suffix(',')?;
            let comma = before.len() - 1;
            let (line_start, _, _) = line_at(text, comma);
            if comment_start(&text[line_start..comma]).is_some() {
                return None;
            }
            Some(edit(text, comma, end, ""))
        }
        Context::Block => {
            let (line_start, line_end, eol) = block_item(text, start, end)?;
            let comment = text[end..line_end].trim_start();
            if comment.is_empty() {
                return Some(edit(text, line_start, line_end + eol.len(), ""));
            }
            // The comment may say what the tool is for, which its other name in the list still
            // is: the user's to keep or drop, not the fix's.
            let dash = line_start + text[line_start..start].find('-')?;
            Some(edit(text, dash, line_end - comment.len(), ""))
        }
    }
}

/// Where a comment starts in `line`, a line of YAML from its start: a `#` that opens it or
/// follows a blank, outside quoted scalars (a quote counts where a scalar can start).
fn comment_start(line: &str) -> Option<usize> {
    let bytes = line.as_bytes();
    let mut i = 0;
    // The last byte that was not a blank; a line's start is a place a scalar can start.
    let mut last = b'[';
    while i < bytes.len() {
        match bytes[i] {
            b'#' if i == 0 || matches!(bytes[i - 1], b' ' | b'\t') => return Some(i),
            q @ (b'"' | b'\'') if matches!(last, b'{' | b'[' | b',' | b':') => {
                i += 1;
                while i < bytes.len() {
                    match bytes[i] {
                        b'\\' if q == b'"' => i += 2,
                        b'\'' if q == b'\'' && bytes.get(i + 1) == Some(&b'\'') => i += 2,
                        b if b == q => break,
                        _ => i += 1,
                    }
                }
                last = q;
            }
            b' ' | b'\t' => {}
            b => last = b,
        }
        i += 1;
    }
    None
}

/// The edit that adds `names` after the last entry `start..end` of a list (or inside an
/// empty flow list's `[]`, when `start == end` is just past its `[`): as more flow entries,
/// or as block items like the last one.
pub fn append_items(text: &str, start: usize, end: usize, names: &[&str]) -> Option<Edit> {
    let token = &text[start..end];
    if start == end {
        let written: Vec<String> = names
            .iter()
            .map(|n| scalar(n, Context::Flow, None))
            .collect();
        return Some(edit(text, start, start, written.join(", ")));
    }
    match context_at(text, start) {
        Context::Flow | Context::Key => {
            let written: Vec<String> = names
                .iter()
                .map(|n| scalar(n, Context::Flow, Some(token)))
                .collect();
            let sep = flow_separator(text, start);
            Some(edit(text, end, end, format!("{sep}{}", written.join(&sep))))
        }
        Context::Block => {
            let (line_start, line_end, eol) = block_item(text, start, end)?;
            let brk = if eol.is_empty() {
                line_break(text)
            } else {
                eol
            };
            let prefix = &text[line_start..start];
            let mut content = String::new();
            for n in names {
                content.push_str(brk);
                content.push_str(prefix);
                content.push_str(&scalar(n, Context::Block, Some(token)));
            }
            Some(edit(text, line_end, line_end, content))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn marks_count_as_counting_from_the_start_does() {
        let line = "ab é𝄞 \"x\", c".repeat(300);
        let chars: Vec<(usize, char)> = line.char_indices().collect();
        for every in [1, 7, 64, 1024, 1 << 20] {
            let marks = LineMarks::new(&line, every);
            for (n, &(at, _)) in chars.iter().enumerate() {
                assert_eq!(
                    marks.byte_of_char(&line, n),
                    Some(at),
                    "char {n}, every {every}"
                );
                let units: usize = line[..at].chars().map(char::len_utf16).sum();
                assert_eq!(
                    marks.units_before(&line, at),
                    units,
                    "byte {at}, every {every}"
                );
            }
            assert_eq!(marks.byte_of_char(&line, chars.len()), Some(line.len()));
            assert_eq!(marks.byte_of_char(&line, chars.len() + 1), None);
            assert_eq!(
                marks.units_before(&line, line.len()),
                line.encode_utf16().count()
            );
        }
    }

    #[test]
    fn columns_counted_on_agree_with_counting_from_the_start() {
        let text = "aé b€c  ĉ d\t𝄞e";
        let columns = Columns::new(text);
        let mut pick = crate::generated::picker(11);
        for _ in 0..2000 {
            // Past the end and inside characters too, in any order.
            let at = pick(text.len() + 3);
            let want = text.get(..at).map_or(0, |b| b.chars().count()) as u32 + 1;
            assert_eq!(columns.column(at), want, "byte {at}");
        }
    }

    fn applied(text: &str, e: Option<Edit>) -> String {
        let e = e.expect("an edit");
        format!("{}{}{}", &text[..e.start], e.content, &text[e.end..])
    }

    #[test]
    fn flow_collections_end_at_their_own_bracket() {
        let end = |t: &'static str| flow_end(t, t.find('{').unwrap_or(0)).map(|i| &t[i..]);
        assert_eq!(
            end("m: {\"a\": {\"b\": \"}\"}, c: it's} # x\n"),
            Some("} # x\n")
        );
        assert_eq!(end("m: {a: 'x}''y', b: [1, {c: d}]}\n"), Some("}\n"));
        assert_eq!(
            end("m: {\n  a: b, # not } here\n  c: \"\\\"}\"\n}\n"),
            Some("}\n")
        );
        assert_eq!(end("m: {a: {b: c}\n"), None);
        assert_eq!(end("m: {a: \"open\n"), None);
    }

    #[test]
    fn list_entries_are_replaced_removed_and_added_in_the_list_own_style() {
        let flow = "tools: [a, 'old', c] # keep\n";
        let at = flow.find("'old'").unwrap_or(0);
        let (s, e) = (at, at + 5);
        assert_eq!(
            applied(flow, replace_item(flow, s, e, &["x/y", "z"])),
            "tools: [a, 'x/y', 'z', c] # keep\n"
        );
        assert_eq!(
            applied(flow, remove_item(flow, s, e)),
            "tools: [a, c] # keep\n"
        );
        let c = flow.find("c]").unwrap_or(0);
        assert_eq!(
            applied(flow, remove_item(flow, c, c + 1)),
            "tools: [a, 'old'] # keep\n"
        );
        assert_eq!(
            applied(flow, append_items(flow, c, c + 1, &["n"])),
            "tools: [a, 'old', c, n] # keep\n"
        );
        assert_eq!(remove_item("t: [a]\n", 4, 5), None, "the only entry");
        let block = "tools:\r\n  - a\r\n  - old # was\r\nname: x\r\n";
        let at = block.find("old").unwrap_or(0);
        assert_eq!(
            applied(block, replace_item(block, at, at + 3, &["p", "q"])),
            "tools:\r\n  - a\r\n  - p\r\n  - q # was\r\nname: x\r\n"
        );
        assert_eq!(
            applied(block, remove_item(block, at, at + 3)),
            "tools:\r\n  - a\r\n  # was\r\nname: x\r\n"
        );
        assert_eq!(
            applied(block, append_items(block, at, at + 3, &["n: m"])),
            "tools:\r\n  - a\r\n  - old # was\r\n  - 'n: m'\r\nname: x\r\n"
        );
        assert_eq!(
            applied("t: []\n", append_items("t: []\n", 4, 4, &["a", "b"])),
            "t: [a, b]\n"
        );
        // A flow list written one entry a line stays so.
        let tall = "t: [\n    \"a\",\n    \"old\",\n    \"b\"\n]\n";
        let at = tall.find("\"old\"").unwrap_or(0);
        assert_eq!(
            applied(tall, replace_item(tall, at, at + 5, &["x", "y"])),
            "t: [\n    \"a\",\n    \"x\",\n    \"y\",\n    \"b\"\n]\n"
        );
        assert_eq!(
            applied(tall, remove_item(tall, at, at + 5)),
            "t: [\n    \"a\",\n    \"b\"\n]\n"
        );
        let b = tall.find("\"b\"").unwrap_or(0);
        assert_eq!(
            applied(tall, append_items(tall, b, b + 3, &["z"])),
            "t: [\n    \"a\",\n    \"old\",\n    \"b\",\n    \"z\"\n]\n"
        );
    }

    #[test]
    fn a_removed_entry_leaves_its_comment_and_every_other_one_whole() {
        let remove = |t: &str, name: &str| {
            let at = t.find(name).unwrap_or(0);
            remove_item(t, at, at + name.len()).map(|e| applied(t, Some(e)))
        };
        // A block item's line keeps its comment, at the dash's indent; without one it goes.
        let block = "t:\n  - old   # why\n  - new\n";
        assert_eq!(
            remove(block, "old").as_deref(),
            Some("t:\n  # why\n  - new\n")
        );
        let flush = "t:\n- new\n- 'old' # why\n";
        assert_eq!(
            remove(flush, "'old'").as_deref(),
            Some("t:\n- new\n# why\n")
        );
        assert_eq!(
            remove("t:\n  - old\n  - new\n", "old").as_deref(),
            Some("t:\n  - new\n")
        );
        // A flow list's last entry goes with the comma before it, never one in a comment.
        let tall = "t: [\n  new, # a, b,\n  old\n]\n";
        assert_eq!(remove(tall, "old"), None);
        let quoted = "t: [\n  new, 'x, #y',\n  old\n]\n";
        assert_eq!(
            remove(quoted, "old").as_deref(),
            Some("t: [\n  new, 'x, #y'\n]\n")
        );
        assert_eq!(
            remove("t: [new, old] # a, b\n", "old").as_deref(),
            Some("t: [new] # a, b\n")
        );
    }

    #[test]
    fn positions_and_offsets_round_trip_past_a_bom_and_crlf() {
        let text = "\u{feff}---\r\nname: ä x\r\n---\r\n";
        assert_eq!(offset(text, Pos::new(1, 1)), Some(3));
        assert_eq!(offset(text, Pos::new(2, 7)), Some(14));
        assert_eq!(&text[14..16], "\u{e4}");
        for at in [3, 8, 14, 16, 19] {
            assert_eq!(offset(text, pos_of(text, at)), Some(at), "{at}");
        }
        assert_eq!(pos_of(text, 3), Pos::new(1, 1));
        assert_eq!(offset(text, Pos::new(9, 1)), None);
    }

    #[test]
    fn tokens_end_where_the_parser_ends_them() {
        let t = "tools: [a, 'b, c', \"d\"] # x\nname: plain value # c\nkey: v\n";
        let a = t.find('a').unwrap_or(0);
        assert_eq!(scalar_in(t, a, Context::Flow, "a"), Some((a, a + 1)));
        let b = t.find('\'').unwrap_or(0);
        assert_eq!(scalar_at(t, pos_of(t, b), "b, c"), Some((b, b + 6)));
        let d = t.find('"').unwrap_or(0);
        assert_eq!(scalar_at(t, pos_of(t, d), "d"), Some((d, d + 3)));
        let p = t.find("plain").unwrap_or(0);
        assert_eq!(context_at(t, p), Context::Block);
        assert_eq!(scalar_at(t, pos_of(t, p), "plain value"), Some((p, p + 11)));
        assert_eq!(
            scalar_at(t, pos_of(t, p), "plain"),
            None,
            "not what it reads as"
        );
        let k = t.find("key").unwrap_or(0);
        assert_eq!(scalar_in(t, k, Context::Key, "key"), Some((k, k + 3)));
        assert_eq!(token_end("|\n", 0, Context::Block), None);
        assert_eq!(token_end("'open\n", 0, Context::Block), None);
    }

    #[test]
    fn names_are_quoted_only_when_they_must_be() {
        assert_eq!(
            scalar("search/codebase", Context::Flow, None),
            "search/codebase"
        );
        assert_eq!(scalar("a, b", Context::Flow, None), "'a, b'");
        assert_eq!(scalar("a, b", Context::Block, None), "a, b");
        assert_eq!(scalar("it's: x", Context::Block, None), "'it''s: x'");
        assert_eq!(scalar("true", Context::Block, None), "'true'");
        assert_eq!(scalar("x", Context::Flow, Some("\"y\"")), "\"x\"");
        assert_eq!(scalar("x", Context::Flow, Some("'y'")), "'x'");
        assert_eq!(unquoted("'it''s'").as_deref(), Some("it's"));
        assert_eq!(unquoted("\"a\\tb\""), None);
    }

    #[test]
    fn lines_know_their_break() {
        let t = "a\r\nb\nc";
        assert_eq!(line_at(t, 0), (0, 1, "\r\n"));
        assert_eq!(line_at(t, 3), (3, 4, "\n"));
        assert_eq!(line_at(t, 6), (5, 6, ""));
        assert_eq!(line_break(t), "\r\n");
        assert_eq!(line_break("x"), "\n");
    }
}
