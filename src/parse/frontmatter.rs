//! Split a Markdown file into YAML frontmatter and body.
//!
//! The frontmatter is the text between a first line `---` and the next line that is exactly
//! `---` (trailing spaces and a CR are allowed; `----` or `--- x` are not delimiters). A UTF-8
//! byte order mark before the first line is skipped.

/// Where the parts of a file are, as byte ranges of the (BOM-less) text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Split<'a> {
    /// The YAML between the delimiter lines (without them).
    pub yaml: &'a str,
    /// 1-based line of the first YAML line in the file.
    pub yaml_line: u32,
    /// The Markdown after the closing delimiter.
    pub body: &'a str,
    /// 1-based line on which the body starts.
    pub body_line: u32,
}

/// Why a file has no usable frontmatter.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SplitError {
    /// The first line is not `---`.
    Missing,
    /// No closing `---` line; `line` is the last line of the file, `indented` the first line
    /// that is `---` but for its indentation (line, column of the dashes), which YAML reads as
    /// part of a value and an author most likely meant as the closing line.
    Unclosed {
        line: u32,
        indented: Option<(u32, u32)>,
    },
}

pub(crate) const BOM: &str = "\u{feff}";

/// Is this line (without its `\n`) a `---` delimiter?
pub(crate) fn is_delimiter(line: &str) -> bool {
    line.trim_end_matches(['\r', ' ', '\t']) == "---"
}

/// Split `text` (BOM already removed) into frontmatter and body.
pub fn split(text: &str) -> Result<Split<'_>, SplitError> {
    let first_end = text.find('\n').unwrap_or(text.len());
    if !is_delimiter(&text[..first_end]) {
        return Err(SplitError::Missing);
    }
    let yaml_start = (first_end + 1).min(text.len());
    let mut pos = yaml_start;
    // One scan for all line ends: a search per line cost more than the short lines it crossed.
    let ends = memchr::memchr_iter(b'\n', &text.as_bytes()[yaml_start..]).map(|i| yaml_start + i);
    for (end, line) in ends.chain(std::iter::once(text.len())).zip(2u32..) {
        if is_delimiter(&text[pos..end]) {
            let body_start = (end + 1).min(text.len());
            return Ok(Split {
                yaml: &text[yaml_start..pos],
                yaml_line: 2,
                body: &text[body_start..],
                body_line: line + 1,
            });
        }
        pos = end + 1;
    }
    Err(unclosed(text))
}

/// Why `text`, which opens a frontmatter, never closes it.
fn unclosed(text: &str) -> SplitError {
    let indented = text.split('\n').zip(1u32..).skip(1).find_map(|(l, n)| {
        let dashes = l.trim_start_matches([' ', '\t']);
        let column = l.len() - dashes.len() + 1;
        (column > 1 && is_delimiter(dashes)).then(|| (n, u32::try_from(column).unwrap_or(u32::MAX)))
    });
    SplitError::Unclosed {
        line: count_lines(text).max(1),
        indented,
    }
}

/// Number of lines in `text` (a trailing newline does not start a new line).
pub(crate) fn count_lines(text: &str) -> u32 {
    if text.is_empty() {
        return 0;
    }
    let newlines = memchr::memchr_iter(b'\n', text.as_bytes()).count();
    let n = if text.ends_with('\n') {
        newlines
    } else {
        newlines + 1
    };
    u32::try_from(n).unwrap_or(u32::MAX)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn splits_basic_frontmatter() {
        let s = split("---\nname: a\n---\n# Body\n").unwrap();
        assert_eq!(s.yaml, "name: a\n");
        assert_eq!(s.body, "# Body\n");
        assert_eq!(s.yaml_line, 2);
        assert_eq!(s.body_line, 4);
    }

    #[test]
    fn crlf_and_trailing_spaces_are_delimiters() {
        let s = split("---\r\nname: a\r\n---  \r\nbody").unwrap();
        assert_eq!(s.yaml, "name: a\r\n");
        assert_eq!(s.body, "body");
    }

    #[test]
    fn substring_dashes_do_not_close() {
        let s = split("---\ndescription: a---b\n----\n---\nbody").unwrap();
        assert_eq!(s.yaml, "description: a---b\n----\n");
        assert_eq!(s.body_line, 5);
    }

    #[test]
    fn missing_and_unclosed() {
        assert_eq!(split(""), Err(SplitError::Missing));
        assert_eq!(split("# title\n---\n"), Err(SplitError::Missing));
        assert_eq!(split("--- x\n"), Err(SplitError::Missing));
        assert_eq!(
            split("---"),
            Err(SplitError::Unclosed {
                line: 1,
                indented: None
            })
        );
        assert_eq!(
            split("---\nname: a\n"),
            Err(SplitError::Unclosed {
                line: 2,
                indented: None
            })
        );
        // A `---` indented into a block scalar: where the author meant it to close.
        assert_eq!(
            split("---\ndescription: |\n  text\n  ---\n\n  # Title\n"),
            Err(SplitError::Unclosed {
                line: 6,
                indented: Some((4, 3))
            })
        );
    }

    #[test]
    fn empty_frontmatter_and_empty_body() {
        let s = split("---\n---").unwrap();
        assert_eq!(s.yaml, "");
        assert_eq!(s.body, "");
    }

    proptest::proptest! {
        /// The same split as reading the text a line at a time.
        #[test]
        fn splits_as_line_by_line_reading(
            lines in proptest::collection::vec(
                proptest::sample::select(vec!["---", "--- ", "---\r", "----", "", "a: b", " ---"]),
                0..8,
            ),
            newline_at_end in proptest::bool::ANY,
        ) {
            let mut text = lines.join("\n");
            if newline_at_end {
                text.push('\n');
            }
            proptest::prop_assert_eq!(split(&text), by_lines(&text));
        }
    }

    /// `split` written plainly over `str::split`.
    fn by_lines(text: &str) -> Result<Split<'_>, SplitError> {
        let mut starts = Vec::new();
        let mut at = 0;
        for line in text.split('\n') {
            starts.push((at, line));
            at += line.len() + 1;
        }
        if text.ends_with('\n') {
            starts.pop();
        }
        if !starts.first().is_some_and(|(_, l)| is_delimiter(l)) {
            return Err(SplitError::Missing);
        }
        let yaml_start = starts.get(1).map_or(text.len(), |(s, _)| *s);
        for (i, &(start, line)) in starts.iter().enumerate().skip(1) {
            if is_delimiter(line) {
                return Ok(Split {
                    yaml: &text[yaml_start..start],
                    yaml_line: 2,
                    body: &text[(start + line.len() + 1).min(text.len())..],
                    body_line: u32::try_from(i).unwrap() + 2,
                });
            }
        }
        Err(unclosed(text))
    }

    #[test]
    fn counts_lines() {
        assert_eq!(count_lines(""), 0);
        assert_eq!(count_lines("a"), 1);
        assert_eq!(count_lines("a\n"), 1);
        assert_eq!(count_lines("a\nb"), 2);
    }
}
