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

/// The text of 0-based line `line` (without its end), or "" past the end.
pub(crate) fn line_text(text: &str, line: usize) -> &str {
    let l = text.split('\n').nth(line).unwrap_or("");
    l.strip_suffix('\r').unwrap_or(l)
}

/// The UTF-16 length of `s`.
fn utf16_len(s: &str) -> u32 {
    s.chars().map(|c| c.len_utf16() as u32).sum()
}

/// The protocol position of a 1-based line and scalar column of `text`; a column past its
/// line's end (a finding on a line since shortened) is the line's end.
pub(crate) fn position(text: &str, pos: Pos) -> Position {
    let pos = Pos::new(pos.line.max(1), pos.column.max(1));
    match crate::span::offset(text, pos) {
        Some(at) => position_of_byte(text, at),
        None => line_end(text, pos.line - 1),
    }
}

/// The protocol position of byte `at` of `text` (a character boundary); a byte order mark
/// is not counted on the first line.
fn position_of_byte(text: &str, at: usize) -> Position {
    let before = &text.as_bytes()[..at.min(text.len())];
    let line = memchr::memchr_iter(b'\n', before).count();
    let start = memchr::memrchr(b'\n', before).map_or(0, |i| i + 1);
    let l = text.get(start..before.len()).unwrap_or_default();
    let l = if start == 0 {
        l.strip_prefix('\u{feff}').unwrap_or(l)
    } else {
        l
    };
    Position::new(u32::try_from(line).unwrap_or(u32::MAX), utf16_len(l))
}

/// The end of 0-based line `line`.
pub(crate) fn line_end(text: &str, line: u32) -> Position {
    Position::new(line, utf16_len(line_text(text, line as usize)))
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

/// Characters that end a name or a key in frontmatter and manifests.
pub(crate) fn ends_token(c: char) -> bool {
    c.is_whitespace()
        || matches!(
            c,
            ',' | '[' | ']' | '{' | '}' | '"' | '\'' | ':' | '#' | '(' | ')'
        )
}

/// The range a finding covers: from its position to the end of the token there (a key, a
/// scalar, a quoted string), else to the end of the line.
pub(crate) fn finding_range(text: &str, f: &Finding) -> Range {
    let start = position(text, Pos::new(f.line, f.column));
    let l = line_text(text, start.line as usize);
    let from = byte_of_utf16(l, start.character);
    let rest = &l[from..];
    let len = match rest.chars().next() {
        Some(q @ ('"' | '\'')) => rest[1..].find(q).map_or(rest.len(), |e| e + 2),
        Some(_) => rest.find(ends_token).unwrap_or(rest.len()),
        None => 0,
    };
    let len = if len == 0 { rest.len() } else { len };
    let end = Position::new(start.line, start.character + utf16_len(&rest[..len]));
    Range::new(start, end)
}

fn severity(s: Severity) -> DiagnosticSeverity {
    match s {
        Severity::Error => DiagnosticSeverity::ERROR,
        Severity::Warning => DiagnosticSeverity::WARNING,
        Severity::Info => DiagnosticSeverity::INFORMATION,
    }
}

/// A finding as the editor shows it.
pub(crate) fn diagnostic(text: &str, f: &Finding) -> Diagnostic {
    Diagnostic {
        range: finding_range(text, f),
        severity: Some(severity(f.severity)),
        code: Some(NumberOrString::String(f.rule.code().to_owned())),
        code_description: rule_url(f.rule).map(|href| CodeDescription { href }),
        source: Some(SOURCE.to_owned()),
        message: f.message.clone(),
        ..Diagnostic::default()
    }
}

/// A fix's edit as a text edit of `text` (the file the fix was made for).
pub(crate) fn text_edit(text: &str, e: &Edit) -> TextEdit {
    TextEdit::new(
        Range::new(
            position_of_byte(text, e.start),
            position_of_byte(text, e.end),
        ),
        e.content.clone(),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn columns_in_scalars_become_utf16_offsets() {
        let text = "---\nname: é𝄞x\n";
        // `x` is the 10th scalar of line 2: `é` is one UTF-16 unit, `𝄞` two.
        assert_eq!(position(text, Pos::new(2, 9)), Position::new(1, 9));
        assert_eq!(position(text, Pos::new(2, 10)), Position::new(1, 10));
        assert_eq!(byte_of_utf16("é𝄞x", 3), "é𝄞".len());
        // Past the end of the line or the file: clamped.
        assert_eq!(position(text, Pos::new(2, 99)), Position::new(1, 10));
        assert_eq!(position(text, Pos::new(9, 3)), Position::new(8, 0));
        // A byte order mark is not a character of line 1, for positions or for edits.
        let bom = "\u{feff}---\nname: x\n";
        assert_eq!(position(bom, Pos::new(1, 2)), Position::new(0, 1));
        let e = crate::span::edit(bom, 3, 6, "+++");
        let edit = text_edit(bom, &e);
        assert_eq!(
            edit.range,
            Range::new(Position::new(0, 0), Position::new(0, 3))
        );
        assert_eq!(edit.range.start, position(bom, e.location));
    }

    #[test]
    fn a_range_ends_with_its_token_or_its_line() {
        let text = "---\ndescriptin: x\ntools: ['a b', c]\n  \n";
        let at = |line, column| {
            let f = Finding::new(Rule::UnknownKey, "x", Pos::new(line, column), "m");
            finding_range(text, &f)
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
        let d = diagnostic("---\ndescriptin: x\n", &f);
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
