//! The source line each finding points at, for renderers that show it (text), and its
//! fingerprint, by which `diff` and `--baseline` know a finding whose line moved. The lines
//! come from the text the audit read and checked (kept only when asked for), so nothing is
//! read again: a file the audit refused has no text here either, and a skill served over MCP
//! shows the bytes the session read.

use rayon::prelude::*;

use crate::diagnostic::{Finding, fingerprint};
use crate::span::LineMarks;

/// The text of each audited file, by display path. Empty unless asked for.
pub type Texts = foldhash::HashMap<String, Vec<u8>>;

/// The fingerprint of each line of each audited file, by display path: what a report needs
/// of a file's text when it shows no source line, at four bytes a line rather than the text.
/// Empty unless asked for.
pub type Prints = foldhash::HashMap<String, Vec<u32>>;

/// The fingerprint of each line of `bytes`, in order. Every line of every audited file is
/// hashed, so ASCII lines, nearly all of them, are hashed straight from their bytes; the
/// others go through [`fingerprint`], which gives ASCII lines the same value.
pub(crate) fn prints(bytes: &[u8]) -> Vec<u32> {
    let mut out = Vec::new();
    let mut rest = bytes;
    while !rest.is_empty() {
        let (line, next) = match memchr::memchr(b'\n', rest) {
            Some(i) => (&rest[..i], &rest[i + 1..]),
            None => (rest, &rest[rest.len()..]),
        };
        out.push(if line.is_ascii() {
            ascii_fingerprint(line)
        } else {
            fingerprint(&String::from_utf8_lossy(line))
        });
        rest = next;
    }
    out
}

/// [`fingerprint`] of an ASCII line, in one pass over its bytes.
fn ascii_fingerprint(line: &[u8]) -> u32 {
    let mut hash: u32 = 0x811c_9dc5;
    let mut eat = |b: u8| {
        hash ^= u32::from(b);
        hash = hash.wrapping_mul(0x0100_0193);
    };
    let (mut started, mut gap) = (false, false);
    for &b in line {
        // The ASCII characters `char::is_whitespace` takes.
        if matches!(b, b' ' | b'\t' | b'\n' | b'\x0b' | b'\x0c' | b'\r') {
            gap = started;
        } else {
            if gap {
                eat(b' ');
                gap = false;
            }
            eat(b);
            started = true;
        }
    }
    hash
}

/// Fill in `source` and `fingerprint` on `findings` (sorted by path), from `texts`, else
/// from `prints`.
pub(crate) fn attach(findings: &mut [Finding], texts: &Texts, prints: &Prints) {
    // Each file's findings on their own, on all threads.
    findings
        .par_chunk_by_mut(|a, b| a.path == b.path)
        .for_each(|group| attach_file(group, texts, prints));
}

/// [`attach`] for the findings of one file.
fn attach_file(findings: &mut [Finding], texts: &Texts, prints: &Prints) {
    let Some(path) = findings.first().map(|f| f.path.as_str()) else {
        return;
    };
    let index = |f: &Finding| {
        usize::try_from(f.line)
            .unwrap_or(usize::MAX)
            .saturating_sub(1)
    };
    // A file with no text keeps the plain one-line form.
    if let Some(bytes) = texts.get(path) {
        let text = String::from_utf8_lossy(bytes);
        let lines: Vec<&str> = text.lines().collect();
        // Findings follow each other by line: one line may hold thousands of findings, and is
        // hashed and indexed once.
        for same_line in findings.chunk_by_mut(|a, b| a.line == b.line) {
            let Some(line) = lines.get(index(&same_line[0])) else {
                for f in same_line {
                    f.source = None;
                }
                continue;
            };
            let print = fingerprint(line);
            let shown = Shown::new(line.trim_start_matches('\u{feff}'), same_line.len());
            for f in same_line {
                // A rule may have given the finding what it is about instead.
                f.fingerprint = f.fingerprint.or(Some(print));
                (f.source, f.source_skipped) = shown.around(f.column);
            }
        }
    } else if let Some(prints) = prints.get(path) {
        for f in findings {
            f.fingerprint = f.fingerprint.or_else(|| prints.get(index(f)).copied());
        }
    }
}

/// Lines longer than this, in bytes, are shown around each finding rather than whole (a
/// minified file, one generated line of thousands of links).
const LONG_LINE: usize = 16 << 10;
/// So are lines whose findings, each showing the whole line, would show more than this: each
/// finding holds and renders its own copy.
const SHOWN_PER_LINE: usize = 1 << 20;
/// How many characters of a long line are shown before and after a finding's column.
const SHOWN_BEFORE: usize = 100;
const SHOWN_AFTER: usize = 300;

/// A line as the text report shows it: whole, or, when long, in part around each finding.
struct Shown<'t> {
    line: &'t str,
    /// For a long line, counted places along it, so a column is found from the nearest.
    marks: Option<LineMarks>,
}

impl<'t> Shown<'t> {
    /// `line`, as shown for each of `findings` findings on it.
    fn new(line: &'t str, findings: usize) -> Self {
        let long = line.len() > LONG_LINE || line.len().saturating_mul(findings) > SHOWN_PER_LINE;
        let marks = long.then(|| LineMarks::new(line, 256));
        Shown { line, marks }
    }

    /// The byte at which character `n` (from 0) starts, or the line's end.
    fn byte(&self, marks: &LineMarks, n: usize) -> usize {
        marks.byte_of_char(self.line, n).unwrap_or(self.line.len())
    }

    /// The text shown for a finding at `column`, and how many characters of the line come
    /// before it ([`Finding::source_skipped`]).
    fn around(&self, column: u32) -> (Option<String>, u32) {
        let Some(marks) = &self.marks else {
            return (Some(self.line.to_owned()), 0);
        };
        let at = usize::try_from(column)
            .unwrap_or(usize::MAX)
            .saturating_sub(1);
        let first = at.saturating_sub(SHOWN_BEFORE);
        let (from, to) = (
            self.byte(marks, first),
            self.byte(marks, at.saturating_add(SHOWN_AFTER)),
        );
        let mut shown = String::with_capacity(to - from + 6);
        if from > 0 {
            shown.push('…');
        }
        shown.push_str(&self.line[from..to]);
        if to < self.line.len() {
            shown.push('…');
        }
        // The `…` in front stands in for one of the characters left out.
        let skipped = if from > 0 { first - 1 } else { 0 };
        (Some(shown), u32::try_from(skipped).unwrap_or(u32::MAX))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A long line is shown around each column, the column's character where the text report
    /// puts its caret; a short one whole.
    #[test]
    fn long_lines_are_shown_around_the_finding() {
        assert_eq!(
            Shown::new("short é line", 1).around(3),
            (Some("short é line".to_owned()), 0)
        );
        let line: String = "aé€𝄞 ".repeat(2000);
        let chars: Vec<char> = line.chars().collect();
        let shown = Shown::new(&line, 1);
        let mut pick = crate::generated::picker(13);
        for _ in 0..500 {
            let column = 1 + pick(chars.len() + 10);
            let (text, skipped) = shown.around(column as u32);
            let text = text.expect("a line");
            let at = column - 1 - skipped as usize;
            if let Some(&c) = chars.get(column - 1) {
                assert_eq!(text.chars().nth(at), Some(c), "column {column}");
            }
            assert!(text.chars().count() <= SHOWN_BEFORE + SHOWN_AFTER + 2);
            assert_eq!(text.starts_with('…'), column > SHOWN_BEFORE + 1);
        }
        // A short line with so many findings that showing it whole to each would be large.
        let line = "x".repeat(4000);
        assert_eq!(
            Shown::new(&line, 200).around(1).0.as_deref(),
            Some(&line[..])
        );
        let (text, _) = Shown::new(&line, 400).around(1);
        assert_eq!(text.map(|t| t.chars().count()), Some(SHOWN_AFTER + 1));
    }

    /// The short way gives every line the value `fingerprint` gives it, and one per line as
    /// `str::lines` splits them.
    #[test]
    fn prints_are_the_fingerprints_of_the_lines() {
        let text = "\u{feff}---\n  name: a \r\n\tx\x0by\x0c z\n\nno\u{a0}break é\nlast";
        let bytes = text.as_bytes().to_vec();
        let mut with_bad = bytes.clone();
        with_bad.extend_from_slice(b"\n\xff\xfe bad\n\xc3 x\n");
        for b in [&bytes, &with_bad] {
            let want: Vec<u32> = String::from_utf8_lossy(b)
                .lines()
                .map(fingerprint)
                .collect();
            assert_eq!(prints(b), want);
        }
        assert!(prints(b"").is_empty());
    }
}
