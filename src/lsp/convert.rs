//! Between the audit's terms and the protocol's: file URIs and paths, 1-based line and column
//! (columns in Unicode scalars) and 0-based UTF-16 positions, findings and diagnostics, fixes
//! and text edits.

use lsp_types::{
    CodeDescription, Diagnostic, DiagnosticSeverity, NumberOrString, Position, Range, TextEdit, Uri,
};
use std::path::{Path, PathBuf};
use std::str::FromStr;

use crate::diagnostic::{Edit, Finding, Pos, Severity};
use crate::rules::Rule;
use crate::span::LineMarks;

/// Where the rule catalogue (`docs/rules.md`) is published; each rule has an anchor there.
pub(crate) const RULES_URL: &str =
    "https://github.com/skill-audit/skill-audit/blob/main/docs/rules.md";

/// The `diagnostic.source` of every diagnostic.
pub(crate) const SOURCE: &str = "skill-audit";

/// The local path a `file:` URI names.
pub(crate) fn path_of(uri: &Uri) -> Option<PathBuf> {
    url::Url::parse(uri.as_str()).ok()?.to_file_path().ok()
}

/// The `file:` URI of an absolute path.
pub(crate) fn uri_of(path: &Path) -> Option<Uri> {
    let url = url::Url::from_file_path(path).ok()?;
    Uri::from_str(url.as_str()).ok()
}

/// The documentation page of a rule: its section in the catalogue. A policy rule of the
/// library's settings file has none; `skill-audit rule ID` prints its documentation.
pub(crate) fn rule_url(rule: Rule) -> Option<Uri> {
    if !rule.is_builtin() {
        return None;
    }
    Uri::from_str(&format!("{RULES_URL}#{}", rule.anchor())).ok()
}

/// A line longer than this many bytes gets marks this far apart, so a place on it is counted
/// from the mark before it rather than from the line's start.
const MARK_EVERY: usize = 1024;

/// What ends the token a finding starts at: a character that ends a bare token, or the
/// quote that closes a quoted one.
#[derive(Clone, Copy)]
enum TokenEnd {
    Bare,
    Double,
    Single,
}

impl TokenEnd {
    fn ends(self, c: char) -> bool {
        match self {
            TokenEnd::Bare => ends_token(c),
            TokenEnd::Double => c == '"',
            TokenEnd::Single => c == '\'',
        }
    }
}

/// Where a token search from `from` on `line` ended (`None`: not before the line's end).
#[derive(Clone, Copy)]
struct Searched {
    line: usize,
    from: usize,
    found: Option<usize>,
}

/// Protocol positions in one document, for all of its findings at once: its line starts are
/// found once, and a place on a long line is counted from a mark near it, so a generated line
/// of tens of thousands of findings is placed in time linear in its length. A byte order mark
/// is not a character of the first line, unless the client's own text has it ([`Doc::sent`]).
pub(crate) struct Doc<'t> {
    text: &'t str,
    lines: crate::span::LineStarts,
    /// The byte order mark's length when it is not a character of line 1.
    bom: usize,
    /// The client counts the byte order mark as a character of line 1, and a finding's column
    /// never does: one more character on line 1.
    counted_bom: bool,
    /// The marks of each long line asked about.
    marks: std::cell::RefCell<std::collections::HashMap<usize, std::rc::Rc<LineMarks>>>,
    /// The last search for the end of each [`TokenEnd`], so findings in one long token do
    /// not each search it again.
    searched: std::cell::Cell<[Option<Searched>; 3]>,
}

impl<'t> Doc<'t> {
    /// A file's text as read from the disk: an editor that opens it takes its byte order mark
    /// for the file's encoding, not for a character.
    pub(crate) fn new(text: &'t str) -> Self {
        Doc::with_bom(text, false)
    }

    /// A text as the client sent it: a byte order mark in it is a character the client counts.
    pub(crate) fn sent(text: &'t str) -> Self {
        Doc::with_bom(text, true)
    }

    /// The text, as the positions count it.
    pub(crate) fn text(&self) -> &'t str {
        self.text
    }

    fn with_bom(text: &'t str, counted: bool) -> Self {
        let bom = crate::parse::frontmatter::BOM;
        let has = text.starts_with(bom);
        Doc {
            text,
            lines: crate::span::LineStarts::new(text),
            bom: if has && !counted { bom.len() } else { 0 },
            counted_bom: has && counted,
            marks: Default::default(),
            searched: std::cell::Cell::new([None; 3]),
        }
    }

    /// Line `line` with its `\r` but not its `\n`, and the byte it starts at; `None` past
    /// the end.
    fn raw_line(&self, line: usize) -> Option<(usize, &'t str)> {
        let (start, end) = self.lines.bounds(line)?;
        let start = if line == 0 { self.bom } else { start };
        Some((start, &self.text[start..end]))
    }

    /// The text of 0-based line `line` (without its end), or "" past the end.
    fn line_text(&self, line: usize) -> &'t str {
        let l = self.raw_line(line).map_or("", |(_, l)| l);
        l.strip_suffix('\r').unwrap_or(l)
    }

    /// `f` of the marks of line `line` (`l`): none for a short line; those of a long one made
    /// when first asked for.
    fn with_marks<R>(&self, line: usize, l: &str, f: impl FnOnce(&LineMarks) -> R) -> R {
        if l.len() <= MARK_EVERY {
            return f(&LineMarks::default());
        }
        let made = self.marks.borrow().get(&line).cloned();
        let marks = made.unwrap_or_else(|| {
            let marks = std::rc::Rc::new(LineMarks::new(l, MARK_EVERY));
            self.marks.borrow_mut().insert(line, marks.clone());
            marks
        });
        f(&marks)
    }

    /// The UTF-16 units before byte `at` of line `line` (`l`, a character boundary of it).
    fn units(&self, line: usize, l: &str, at: usize) -> u32 {
        let units = self.with_marks(line, l, |m| m.units_before(l, at));
        u32::try_from(units).unwrap_or(u32::MAX)
    }

    /// The protocol position of a 1-based line and scalar column, and the byte of its line it
    /// is at; a column past its line's end (a finding on a line since shortened) is the
    /// line's end.
    fn place(&self, pos: Pos) -> (Position, usize) {
        let line = pos.line.max(1) as usize - 1;
        let col = pos.column.max(1) as usize - 1 + usize::from(line == 0 && self.counted_bom);
        let Some((_, l)) = self.raw_line(line) else {
            return (Position::new(line as u32, 0), 0);
        };
        match self.with_marks(line, l, |m| m.byte_of_char(l, col)) {
            Some(at) => (Position::new(line as u32, self.units(line, l, at)), at),
            None => (self.line_end(line as u32), self.line_text(line).len()),
        }
    }

    /// The protocol position of a 1-based line and scalar column.
    pub(crate) fn position(&self, pos: Pos) -> Position {
        self.place(pos).0
    }

    /// The protocol position of byte `at` (a character boundary; else the start of its line).
    fn position_of_byte(&self, at: usize) -> Position {
        let at = at.min(self.text.len());
        let line = self.lines.line_of(at);
        let units = match self.raw_line(line) {
            Some((start, l)) if at >= start && self.text.is_char_boundary(at) => {
                self.units(line, l, at - start)
            }
            _ => 0,
        };
        Position::new(u32::try_from(line).unwrap_or(u32::MAX), units)
    }

    /// The end of 0-based line `line`.
    pub(crate) fn line_end(&self, line: u32) -> Position {
        let l = self.line_text(line as usize);
        Position::new(line, self.units(line as usize, l, l.len()))
    }

    /// The first byte at or after `from` of line `line` (`l`) that ends a token of `kind`,
    /// searched again only when the last search for that kind cannot answer.
    fn next_end(&self, kind: TokenEnd, line: usize, l: &str, from: usize) -> Option<usize> {
        let mut searched = self.searched.get();
        let kind_at = kind as usize;
        if let Some(s) = searched[kind_at]
            && s.line == line
            && s.from <= from
            && s.found.is_none_or(|f| f >= from)
        {
            return s.found;
        }
        let found = l[from..].find(|c| kind.ends(c)).map(|i| from + i);
        searched[kind_at] = Some(Searched { line, from, found });
        self.searched.set(searched);
        found
    }

    /// The range a finding covers: from its position to the end of the token there (a key, a
    /// scalar, a quoted string), else to the end of the line.
    pub(crate) fn finding_range(&self, f: &Finding) -> Range {
        let (start, at) = self.place(Pos::new(f.line, f.column));
        let line = start.line as usize;
        let l = self.line_text(line);
        // Past the `\r` of a line's end, as a column just past its last character is.
        let from = at.min(l.len());
        let token_end = match l[from..].chars().next() {
            Some('[') => bracketed_len(&l[from..]).map_or(l.len(), |n| from + n),
            Some(q @ ('"' | '\'')) => {
                let kind = if q == '"' {
                    TokenEnd::Double
                } else {
                    TokenEnd::Single
                };
                let close = self.next_end(kind, line, l, from + 1);
                close.map_or(l.len(), |e| e + 1)
            }
            Some(_) => self
                .next_end(TokenEnd::Bare, line, l, from)
                .unwrap_or(l.len()),
            None => from,
        };
        let end = if token_end == from {
            l.len()
        } else {
            token_end
        };
        if end == from {
            return Range::new(start, start);
        }
        Range::new(start, Position::new(start.line, self.units(line, l, end)))
    }

    /// A finding as the editor shows it.
    pub(crate) fn diagnostic(&self, f: &Finding) -> Diagnostic {
        Diagnostic {
            range: self.finding_range(f),
            severity: Some(severity(f.severity)),
            code: Some(NumberOrString::String(f.rule.code().to_owned())),
            code_description: rule_url(f.rule).map(|href| CodeDescription { href }),
            source: Some(SOURCE.to_owned()),
            message: f.message.clone(),
            ..Diagnostic::default()
        }
    }

    /// A fix's edit as a text edit of this document (the file the fix was made for).
    pub(crate) fn text_edit(&self, e: &Edit) -> TextEdit {
        TextEdit::new(
            Range::new(self.position_of_byte(e.start), self.position_of_byte(e.end)),
            e.content.clone(),
        )
    }
}

/// The byte offset into `line` of a protocol character (UTF-16) offset, clamped.
pub(crate) fn byte_of_utf16(line: &str, character: u32) -> usize {
    let mut units = 0;
    for (i, c) in line.char_indices() {
        if units >= character {
            return i;
        }
        units += c.len_utf16() as u32;
    }
    line.len()
}

/// How far a bracket search looks: a link or flow list longer than this is rare, and a line
/// of many unclosed brackets must not cost a search to its end for each.
const BRACKET_REACH: usize = 4096;

/// The length of the bracketed text `text` starts with: a Markdown link `[text](target)`
/// through its `)`, else a `[...]` (a flow list, a reference) through its `]`. `None` when
/// the bracket does not close within reach on the line.
fn bracketed_len(text: &str) -> Option<usize> {
    let closing = |s: &str, open: u8, close: u8| {
        let mut depth = 0usize;
        for (i, b) in s.bytes().enumerate().take(BRACKET_REACH) {
            if b == open {
                depth += 1;
            } else if b == close {
                depth = depth.saturating_sub(1);
                if depth == 0 {
                    return Some(i + 1);
                }
            }
        }
        None
    };
    let label = closing(text, b'[', b']')?;
    let rest = &text[label..];
    if rest.starts_with('(')
        && let Some(target) = closing(rest, b'(', b')')
    {
        return Some(label + target);
    }
    Some(label)
}

/// Characters that end a name or a key in frontmatter and manifests.
pub(crate) fn ends_token(c: char) -> bool {
    c.is_whitespace()
        || matches!(
            c,
            ',' | '[' | ']' | '{' | '}' | '"' | '\'' | ':' | '#' | '(' | ')'
        )
}

fn severity(s: Severity) -> DiagnosticSeverity {
    match s {
        Severity::Error => DiagnosticSeverity::ERROR,
        Severity::Warning => DiagnosticSeverity::WARNING,
        Severity::Info => DiagnosticSeverity::INFORMATION,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn columns_in_scalars_become_utf16_offsets() {
        let text = "---\nname: é𝄞x\n";
        let doc = Doc::new(text);
        // `x` is the 10th scalar of line 2: `é` is one UTF-16 unit, `𝄞` two.
        assert_eq!(doc.position(Pos::new(2, 9)), Position::new(1, 9));
        assert_eq!(doc.position(Pos::new(2, 10)), Position::new(1, 10));
        assert_eq!(byte_of_utf16("é𝄞x", 3), "é𝄞".len());
        // Past the end of the line or the file: clamped.
        assert_eq!(doc.position(Pos::new(2, 99)), Position::new(1, 10));
        assert_eq!(doc.position(Pos::new(9, 3)), Position::new(8, 0));
    }

    #[test]
    fn a_byte_order_mark_is_not_a_character_of_line_1() {
        let bom = "\u{feff}---\nname: x\n";
        let doc = Doc::new(bom);
        assert_eq!(doc.position(Pos::new(1, 2)), Position::new(0, 1));
        assert_eq!(doc.line_end(0), Position::new(0, 3));
        let e = crate::span::edit(bom, 3, 6, "+++");
        let edit = doc.text_edit(&e);
        assert_eq!(
            edit.range,
            Range::new(Position::new(0, 0), Position::new(0, 3))
        );
        assert_eq!(edit.range.start, doc.position(e.location));
        // A finding's range there covers its token, not one character more.
        let text = "\u{feff}name: x\n";
        let f = Finding::new(Rule::UnknownKey, "x", Pos::new(1, 1), "m");
        assert_eq!(
            Doc::new(text).finding_range(&f),
            Range::new(Position::new(0, 0), Position::new(0, 4))
        );
    }

    #[test]
    fn a_byte_order_mark_the_client_sent_is_a_character_it_counts() {
        let text = "\u{feff}---\nname: x\n";
        let doc = Doc::sent(text);
        // Columns of findings never count it; the client's positions do.
        assert_eq!(doc.position(Pos::new(1, 1)), Position::new(0, 1));
        assert_eq!(doc.line_end(0), Position::new(0, 4));
        assert_eq!(doc.position(Pos::new(2, 1)), Position::new(1, 0));
        // Removing it is a deletion of its one UTF-16 unit.
        let e = crate::span::edit(text, 0, 3, "");
        assert_eq!(
            doc.text_edit(&e).range,
            Range::new(Position::new(0, 0), Position::new(0, 1))
        );
        let e = crate::span::edit(text, 3, 6, "+++");
        assert_eq!(
            doc.text_edit(&e).range,
            Range::new(Position::new(0, 1), Position::new(0, 4))
        );
        let f = Finding::new(Rule::UnknownKey, "x", Pos::new(1, 1), "m");
        assert_eq!(
            doc.finding_range(&f),
            Range::new(Position::new(0, 1), Position::new(0, 4))
        );
        // Without one, both are the same.
        let plain = "---\nname: x\n";
        assert_eq!(
            Doc::sent(plain).position(Pos::new(1, 2)),
            Doc::new(plain).position(Pos::new(1, 2))
        );
    }

    #[test]
    fn a_range_ends_with_its_token_or_its_line() {
        let text = "---\ndescriptin: x\ntools: ['a b', c]\n  \n";
        let doc = Doc::new(text);
        let at = |line, column| {
            let f = Finding::new(Rule::UnknownKey, "x", Pos::new(line, column), "m");
            doc.finding_range(&f)
        };
        let r = |l, c, el, ec| Range::new(Position::new(l, c), Position::new(el, ec));
        assert_eq!(at(2, 1), r(1, 0, 1, 10));
        // A quoted scalar, quotes and all; a bare one.
        assert_eq!(at(3, 9), r(2, 8, 2, 13));
        assert_eq!(at(3, 16), r(2, 15, 2, 16));
        // Blank: to the end of the line.
        assert_eq!(at(4, 1), r(3, 0, 3, 2));
    }

    #[test]
    fn a_range_at_a_bracket_covers_the_link_or_list_only() {
        let text = "See [a 😀 file](refs/no.md) and [b](refs/gone.md).
tools: [a, [b]] # x
[open
";
        let doc = Doc::new(text);
        let at = |line, column| {
            let f = Finding::new(Rule::UnknownKey, "x", Pos::new(line, column), "m");
            doc.finding_range(&f)
        };
        let r = |l, c, el, ec| Range::new(Position::new(l, c), Position::new(el, ec));
        // The emoji is two UTF-16 units.
        assert_eq!(at(1, 5), r(0, 4, 0, 27));
        assert_eq!(at(1, 32), r(0, 32, 0, 49));
        // A flow list through its closing bracket, nested ones and all.
        assert_eq!(at(2, 8), r(1, 7, 1, 15));
        // A bracket that does not close: to the end of the line.
        assert_eq!(at(3, 1), r(2, 0, 2, 5));
    }

    /// Places counted from the document's start for each one: what [`Doc`] must equal.
    mod plain {
        use super::super::*;

        pub(super) fn position(text: &str, pos: Pos) -> Position {
            let pos = Pos::new(pos.line.max(1), pos.column.max(1));
            match crate::span::offset(text, pos) {
                Some(at) => position_of_byte(text, at),
                None => line_end(text, pos.line - 1),
            }
        }

        pub(super) fn position_of_byte(text: &str, at: usize) -> Position {
            let before = &text.as_bytes()[..at.min(text.len())];
            let line = memchr::memchr_iter(b'\n', before).count();
            let start = memchr::memrchr(b'\n', before).map_or(0, |i| i + 1);
            let l = text.get(start..before.len()).unwrap_or_default();
            Position::new(line as u32, utf16_len(l))
        }

        pub(super) fn line_end(text: &str, line: u32) -> Position {
            Position::new(line, utf16_len(line_text(text, line as usize)))
        }

        fn utf16_len(s: &str) -> u32 {
            s.chars().map(|c| c.len_utf16() as u32).sum()
        }

        fn line_text(text: &str, line: usize) -> &str {
            let l = text.split('\n').nth(line).unwrap_or("");
            l.strip_suffix('\r').unwrap_or(l)
        }

        pub(super) fn finding_range(text: &str, f: &Finding) -> Range {
            let start = position(text, Pos::new(f.line, f.column));
            let l = line_text(text, start.line as usize);
            let from = byte_of_utf16(l, start.character);
            let rest = &l[from..];
            let len = match rest.chars().next() {
                Some('[') => bracketed_len(rest).unwrap_or(rest.len()),
                Some(q @ ('"' | '\'')) => rest[1..].find(q).map_or(rest.len(), |e| e + 2),
                Some(_) => rest.find(ends_token).unwrap_or(rest.len()),
                None => 0,
            };
            let len = if len == 0 { rest.len() } else { len };
            let end = Position::new(start.line, start.character + utf16_len(&rest[..len]));
            Range::new(start, end)
        }
    }

    #[test]
    fn places_counted_from_marks_equal_places_counted_from_the_start() {
        let mut pick = crate::generated::picker(35);
        let pieces = [
            "a", "bc", " ", "\"", "'", ",", ":", "é", "𝄞", "\r", "\r\n", "\n", "$x", "x: ", "[",
            "](", ")", "]",
        ];
        for case in 0..600 {
            // Some texts hold lines long enough to be marked.
            let len = if case % 3 == 0 { 6000 } else { 120 };
            let mut text = String::new();
            while text.len() < len {
                let p = pieces[pick(pieces.len())];
                // Long runs without a line break, and without a token's end, now and then.
                if case % 3 == 0 && p.contains('\n') && pick(300) > 0 {
                    continue;
                }
                text.push_str(p);
            }
            let doc = Doc::new(&text);
            let lines = text.split('\n').count() as u32;
            let mut places: Vec<Pos> = (0..60)
                .map(|_| Pos::new(pick(lines as usize + 2) as u32, pick(len + 4) as u32))
                .collect();
            // In order (as findings come) and then in no order.
            let mut sorted = places.clone();
            sorted.sort_by_key(|p| (p.line, p.column));
            places.splice(0..0, sorted);
            for pos in places {
                let f = Finding::new(Rule::UnknownKey, "x", pos, "m");
                assert_eq!(
                    doc.position(pos),
                    plain::position(&text, pos),
                    "{pos:?} in {text:?}"
                );
                assert_eq!(
                    doc.finding_range(&f),
                    plain::finding_range(&text, &f),
                    "{pos:?} in {text:?}"
                );
                let at = pick(text.len() + 2);
                assert_eq!(
                    doc.position_of_byte(at),
                    plain::position_of_byte(&text, at),
                    "byte {at} of {text:?}"
                );
                let line = pick(lines as usize + 1) as u32;
                assert_eq!(doc.line_end(line), plain::line_end(&text, line));
            }
        }
    }

    #[test]
    fn paths_and_uris_round_trip() {
        let p = Path::new("/tmp/a b/é/SKILL.md");
        let uri = uri_of(p).expect("an absolute path has a URI");
        assert_eq!(uri.as_str(), "file:///tmp/a%20b/%C3%A9/SKILL.md");
        assert_eq!(path_of(&uri).as_deref(), Some(p));
        assert_eq!(path_of(&Uri::from_str("untitled:x").expect("uri")), None);
    }

    #[test]
    fn a_diagnostic_carries_the_rule_and_its_documentation() {
        let f = Finding::new(Rule::UnknownKey, "x", Pos::new(2, 1), "unknown key");
        let d = Doc::new("---\ndescriptin: x\n").diagnostic(&f);
        assert_eq!(d.code, Some(NumberOrString::String("SA221".into())));
        assert_eq!(d.source.as_deref(), Some("skill-audit"));
        let href = d.code_description.expect("a link").href;
        assert!(
            href.as_str().ends_with("docs/rules.md#sa221-unknown-key"),
            "{}",
            href.as_str()
        );
    }
}
