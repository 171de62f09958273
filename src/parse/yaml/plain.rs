//! The parser events of the plain frontmatter most files have, found without the full parser.
//!
//! Most frontmatter is a block mapping of simple keys whose values are one-line scalars,
//! one-line flow lists, nested block mappings and block lists, and mapping values written as
//! plain literal or folded block scalars (`|`, `|-`, `>`, `>-`). For such text this module
//! produces the same events, at the same positions, as the full YAML parser, for a fraction
//! of its cost; anything else (other block scalars, multi-line plain or quoted scalars,
//! anchors, tags, flow mappings, escapes, tabs, empty values, ...) returns `None` and goes to
//! the full parser.
//! Every text this accepts is valid YAML, so the full parser would report no syntax error
//! either: the tree builder sees the same events either way. Tests check that on the corpus,
//! on tricky input and on generated input.

use serde_saphyr::granit_parser::{Event, Marker, ScalarStyle, Span, StructureStyle};
use std::borrow::Cow;

/// Larger frontmatter always goes to the full parser (which also enforces the size limits).
const MAX_BYTES: usize = 64 << 10;
/// Deeper nesting goes to the full parser.
const MAX_DEPTH: usize = 16;

/// The events of `yaml`, or `None` when it is not in the plain subset this module reads.
pub(crate) fn events(yaml: &str) -> Option<Vec<(Event<'_>, Span)>> {
    if yaml.len() > MAX_BYTES || !plain_text(yaml.as_bytes()) {
        return None;
    }
    let lines: Vec<Line<'_>> = split_lines(yaml)
        .enumerate()
        .filter_map(|(i, text)| {
            let unindented = trim_start_spaces(text);
            let content = unindented.trim_end_matches(' ');
            (!content.is_empty() && !content.starts_with('#')).then(|| Line {
                no: i + 1,
                indent: text.len() - unindented.len(),
                text: content,
            })
        })
        .collect();
    let first = *lines.first()?;
    // Document markers and directives belong to the full parser.
    if first.indent != 0
        || lines
            .iter()
            .any(|l| l.indent == 0 && ["---", "...", "%"].iter().any(|m| l.text.starts_with(m)))
    {
        return None;
    }
    let mut p = Plain {
        yaml,
        lines,
        at: 0,
        out: Vec::with_capacity(64),
    };
    let start = first.no;
    p.push(Event::StreamStart, 1, 0);
    p.push(Event::DocumentStart(false, None), start, 0);
    p.block(0, 0)?;
    if p.at != p.lines.len() {
        return None;
    }
    p.push(Event::DocumentEnd, p.end_line(), 0);
    p.push(Event::StreamEnd, p.end_line(), 0);
    Some(p.out)
}

/// The pieces of `text` between line feeds, as `text.split('\n')` gives them; found with
/// memchr, which costs less per line than the generic character searcher.
fn split_lines(text: &str) -> impl Iterator<Item = &str> {
    let mut rest = Some(text);
    std::iter::from_fn(move || {
        let t = rest?;
        Some(match memchr::memchr(b'\n', t.as_bytes()) {
            Some(i) => {
                rest = Some(&t[i + 1..]);
                &t[..i]
            }
            None => {
                rest = None;
                t
            }
        })
    })
}

/// `text` without its leading spaces.
fn trim_start_spaces(text: &str) -> &str {
    &text[text.bytes().take_while(|&b| b == b' ').count()..]
}

/// Does the text hold only characters the subset allows: printable ones and line feeds? No
/// tabs, carriage returns, byte order marks or C1 controls, which the full parser treats
/// specially. Checked on the UTF-8 bytes: those characters have distinctive encodings.
fn plain_text(bytes: &[u8]) -> bool {
    // Most frontmatter is printable ASCII: checked a block at a time without branching, which
    // the compiler vectorises, before the byte-by-byte rules below.
    let printable = |block: &[u8]| {
        block.iter().fold(true, |ok, &b| {
            ok & (b.wrapping_sub(b' ') < 0x5f || b == b'\n')
        })
    };
    if bytes.chunks(64).all(printable) {
        return true;
    }
    bytes.iter().enumerate().all(|(i, &b)| {
        let bad = match b {
            b'\n' | b' '..=b'~' => false,
            // U+0080..U+009F (C1 controls, NEL among them).
            0xc2 => bytes.get(i + 1).is_some_and(|n| (0x80..=0x9f).contains(n)),
            // U+FEFF (byte order mark), U+FFFE and U+FFFF.
            0xef => matches!(
                bytes.get(i + 1..i + 3),
                Some([0xbb, 0xbf] | [0xbf, 0xbe | 0xbf])
            ),
            0x80.. => false,
            _ => true,
        };
        !bad
    })
}

/// A line with content: its number (from 1), its indentation and its text without the
/// indentation and trailing blanks. Blank and comment lines are left out.
#[derive(Clone, Copy)]
struct Line<'a> {
    no: usize,
    indent: usize,
    text: &'a str,
}

struct Plain<'a> {
    /// The whole text, for block scalars, whose blank lines count.
    yaml: &'a str,
    lines: Vec<Line<'a>>,
    /// The next line to read.
    at: usize,
    out: Vec<(Event<'a>, Span)>,
}

impl<'a> Plain<'a> {
    fn push(&mut self, event: Event<'a>, line: usize, col: usize) {
        let m = Marker::new(0, line, col);
        self.out.push((event, Span::new(m, m)));
    }

    fn end_line(&self) -> usize {
        self.lines.last().map_or(1, |l| l.no)
    }

    /// The position just after the last line read, where a collection ends.
    fn here(&self) -> (usize, usize) {
        self.lines
            .get(self.at)
            .map_or((self.end_line() + 1, 0), |l| (l.no, l.indent))
    }

    /// A block mapping or block list whose first line is the current one, at `indent`.
    fn block(&mut self, indent: usize, depth: usize) -> Option<()> {
        let line = *self.lines.get(self.at)?;
        if is_item(line.text) {
            self.list(indent, depth, false)
        } else {
            self.mapping(indent, depth)
        }
    }

    fn mapping(&mut self, indent: usize, depth: usize) -> Option<()> {
        if depth >= MAX_DEPTH {
            return None;
        }
        let first = self.lines[self.at];
        self.push(
            Event::MappingStart(StructureStyle::Block, 0, None),
            first.no,
            indent,
        );
        while let Some(&line) = self.lines.get(self.at) {
            if line.indent < indent {
                break;
            }
            if line.indent > indent {
                return None;
            }
            let (key, rest) = split_key(line.text)?;
            self.push(scalar(key, ScalarStyle::Plain), line.no, indent);
            let value = rest.trim_start_matches(' ');
            if value.is_empty() {
                // The value is on the next lines: nested deeper, or a list at this indentation.
                self.at += 1;
                let next = *self.lines.get(self.at)?;
                if next.indent > indent {
                    self.block(next.indent, depth + 1)?;
                } else if next.indent == indent && is_item(next.text) {
                    self.list(indent, depth + 1, true)?;
                } else {
                    return None;
                }
            } else if let Some(style) = block_style(value) {
                self.block_scalar(indent, line.no, style)?;
            } else {
                let col = indent + line.text.len() - value.len();
                self.inline(value, line.no, col)?;
                // A deeper line would continue the scalar: not in the subset.
                if self.lines.get(self.at).is_some_and(|l| l.indent > indent) {
                    return None;
                }
            }
        }
        let (line, col) = self.here();
        self.push(Event::MappingEnd, line, col);
        Some(())
    }

    /// A block list at `indent`; `indentless` when it is a mapping value at the mapping's own
    /// indentation, which the parser places at its first item's content rather than its `-`.
    fn list(&mut self, indent: usize, depth: usize, indentless: bool) -> Option<()> {
        if depth >= MAX_DEPTH {
            return None;
        }
        let first = self.lines[self.at];
        let col = if indentless {
            let content = first.text.strip_prefix("- ")?.trim_start_matches(' ');
            indent + first.text.len() - content.len()
        } else {
            indent
        };
        self.push(
            Event::SequenceStart(StructureStyle::Block, 0, None),
            first.no,
            col,
        );
        while let Some(&line) = self.lines.get(self.at) {
            if line.indent < indent || (line.indent == indent && !is_item(line.text)) {
                break;
            }
            if line.indent > indent {
                return None;
            }
            let item = line.text.strip_prefix("- ")?.trim_start_matches(' ');
            let col = indent + line.text.len() - item.len();
            if is_item(item) || item == "-" {
                return None;
            }
            if split_key(item).is_some() {
                // `- key: value`: a mapping whose keys sit at the column of this one.
                self.lines[self.at] = Line {
                    no: line.no,
                    indent: col,
                    text: item,
                };
                self.mapping(col, depth + 1)?;
            } else {
                self.inline(item, line.no, col)?;
            }
            if self.lines.get(self.at).is_some_and(|l| l.indent > indent) {
                return None;
            }
        }
        let (line, col) = self.here();
        self.push(Event::SequenceEnd, line, col);
        Some(())
    }

    /// A block scalar, the value of a key at `indent` whose line (the current one, `header`)
    /// ends in its indicator. Its content is the following lines, all at the first
    /// one's indentation (deeper ones kept as they are in a literal scalar), with empty lines
    /// between them; leading empty lines, lines of spaces, comment-like lines and folded lines
    /// indented deeper are left to the full parser.
    fn block_scalar(&mut self, indent: usize, header: usize, style: Block) -> Option<()> {
        self.at += 1;
        let first = *self.lines.get(self.at)?;
        if first.no != header + 1 || first.indent <= indent {
            return None;
        }
        let width = first.indent;
        let mut last = first.no;
        while let Some(&line) = self.lines.get(self.at).filter(|l| l.indent > indent) {
            if line.indent < width || (style.folded && line.indent != width) {
                return None;
            }
            last = line.no;
            self.at += 1;
        }
        let next = self.lines.get(self.at).map_or(usize::MAX, |l| l.no);
        let mut value = String::new();
        // Line breaks not yet written: each empty line adds one.
        let mut breaks = 0;
        for (no, text) in (1..).zip(split_lines(self.yaml)).skip(first.no - 1) {
            if no >= next {
                break;
            }
            if text.is_empty() {
                breaks += 1;
                continue;
            }
            // Spaces only, or a line the line list left out as a comment: the parser's.
            let content = trim_start_spaces(text);
            if no > last || content.is_empty() || content.starts_with('#') {
                return None;
            }
            if no > first.no {
                // Folding joins lines with a space unless empty lines come between them.
                match (style.folded, breaks) {
                    (true, 0) => value.push(' '),
                    (true, n) => value.extend(std::iter::repeat_n('\n', n)),
                    (false, n) => value.extend(std::iter::repeat_n('\n', n + 1)),
                }
            }
            breaks = 0;
            value.push_str(&text[width..]);
        }
        if !style.strip {
            value.push('\n');
        }
        let style = if style.folded {
            ScalarStyle::Folded
        } else {
            ScalarStyle::Literal
        };
        // The parser places a block scalar where its content starts.
        self.push(scalar(value, style), first.no, width);
        Some(())
    }

    /// A value on the current line, which it ends: a scalar or a flow list.
    fn inline(&mut self, text: &'a str, line: usize, col: usize) -> Option<()> {
        self.at += 1;
        if let Some(inner) = text.strip_prefix('[') {
            return self.flow_list(inner.strip_suffix(']')?, line, col);
        }
        self.push(one_scalar(text, false)?, line, col);
        Some(())
    }

    /// The items of a one-line flow list `[...]`, `inner` being the text between the brackets.
    fn flow_list(&mut self, inner: &'a str, line: usize, col: usize) -> Option<()> {
        self.push(
            Event::SequenceStart(StructureStyle::Flow, 0, None),
            line,
            col,
        );
        // Columns count characters; `chars` is the column of `rest`'s start.
        let mut rest = inner;
        let mut chars = col + 1;
        let skip_blanks = |rest: &mut &'a str, chars: &mut usize| {
            let t = rest.trim_start_matches(' ');
            *chars += rest.len() - t.len();
            *rest = t;
        };
        skip_blanks(&mut rest, &mut chars);
        while !rest.is_empty() {
            let len = match rest.as_bytes().first() {
                Some(&quote @ (b'\'' | b'"')) => {
                    let mut end = 1;
                    // `''` inside single quotes is an escaped quote, not the end.
                    loop {
                        end += rest.as_bytes()[end..].iter().position(|&b| b == quote)? + 1;
                        if quote == b'"' || rest.as_bytes().get(end) != Some(&b'\'') {
                            break;
                        }
                        end += 1;
                    }
                    end
                }
                _ => rest.find(',').unwrap_or(rest.len()),
            };
            let item = one_scalar(rest[..len].trim_end_matches(' '), true)?;
            self.push(item, line, chars);
            chars += rest[..len].chars().count();
            rest = &rest[len..];
            skip_blanks(&mut rest, &mut chars);
            match rest.strip_prefix(',') {
                // Another item must follow: a trailing comma is left to the full parser.
                Some(r) => {
                    rest = r;
                    chars += 1;
                    skip_blanks(&mut rest, &mut chars);
                    if rest.is_empty() {
                        return None;
                    }
                }
                None if rest.is_empty() => {}
                None => return None,
            }
        }
        self.push(Event::SequenceEnd, line, chars);
        Some(())
    }
}

/// A block scalar's header: folded (`>`) or literal (`|`), and whether the final line break
/// is stripped (`-`).
#[derive(Clone, Copy)]
struct Block {
    folded: bool,
    strip: bool,
}

/// The block scalar header `text` is, among those this module reads.
fn block_style(text: &str) -> Option<Block> {
    let (folded, strip) = match text {
        "|" => (false, false),
        "|-" => (false, true),
        ">" => (true, false),
        ">-" => (true, true),
        _ => return None,
    };
    Some(Block { folded, strip })
}

fn scalar<'a>(text: impl Into<Cow<'a, str>>, style: ScalarStyle) -> Event<'a> {
    Event::Scalar(text.into(), style, 0, None)
}

/// `text` (trimmed, whole) as one quoted or plain scalar, in a flow list when `flow`; `None`
/// when it is empty or not one scalar of the subset.
fn one_scalar(text: &str, flow: bool) -> Option<Event<'_>> {
    Some(match text.as_bytes().first()? {
        b'\'' => scalar(single_quoted(text)?, ScalarStyle::SingleQuoted),
        b'"' => scalar(double_quoted(text)?, ScalarStyle::DoubleQuoted),
        _ if plain_scalar(text, flow) => scalar(text, ScalarStyle::Plain),
        _ => return None,
    })
}

/// A block list item: `- ` and its content.
fn is_item(text: &str) -> bool {
    text.starts_with("- ") || text == "-"
}

/// `key: rest` or `key:` with a simple key (letters, digits, `_`, `-`, `.`; not starting with
/// `-` or `.`).
fn split_key(text: &str) -> Option<(&str, &str)> {
    // The key is short: a loop over its bytes costs less than `memchr`'s set-up.
    let end = text.bytes().position(|b| b == b':')?;
    let (key, rest) = (&text[..end], &text[end + 1..]);
    let simple = key.bytes().enumerate().all(|(i, b)| {
        b.is_ascii_alphanumeric() || b == b'_' || (i > 0 && matches!(b, b'-' | b'.'))
    });
    (!key.is_empty() && simple && (rest.is_empty() || rest.starts_with(' '))).then_some((key, rest))
}

/// Can `text` (trimmed) be read as one plain scalar, in a flow list when `flow`? Stricter than
/// YAML: no indicator at the start, no `: `, ` #` or trailing `:`, and in a flow list none of
/// `[]{},:#` at all.
fn plain_scalar(text: &str, flow: bool) -> bool {
    let Some(first) = text.chars().next() else {
        return false;
    };
    let starts_ok = !"-?:,[]{}#&*!|>'\"%@`".contains(first)
        || (first == '-'
            && text.len() > 1
            && !text.starts_with("- ")
            && !text.starts_with("-\u{a0}"));
    // Byte searches: these short texts cost more to set a substring searcher up for.
    let bytes = text.as_bytes();
    let ends_early = memchr::memchr_iter(b':', bytes)
        .any(|i| matches!(bytes.get(i + 1), None | Some(b' ')))
        || memchr::memchr_iter(b'#', bytes).any(|i| i > 0 && bytes[i - 1] == b' ');
    let flow_indicator = flow
        && bytes
            .iter()
            .any(|b| matches!(b, b'[' | b']' | b'{' | b'}' | b',' | b':' | b'#'));
    starts_ok && !ends_early && !flow_indicator
}

/// The text of a one-line single-quoted scalar, `''` read as `'`.
fn single_quoted(text: &str) -> Option<Cow<'_, str>> {
    let inner = text.strip_prefix('\'')?.strip_suffix('\'')?;
    if !inner.contains('\'') {
        return Some(Cow::Borrowed(inner));
    }
    // Every quote inside must be doubled; a lone one would end the scalar early.
    (!inner.replace("''", "").contains('\'')).then(|| Cow::Owned(inner.replace("''", "'")))
}

/// The text of a one-line double-quoted scalar without escapes.
fn double_quoted(text: &str) -> Option<Cow<'_, str>> {
    let inner = text.strip_prefix('"')?.strip_suffix('"')?;
    (!inner.contains(['"', '\\'])).then_some(Cow::Borrowed(inner))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_saphyr::granit_parser::Parser;

    /// The events and their start positions, as the full parser gives them.
    fn parsed(yaml: &str) -> Option<Vec<(Event<'_>, (usize, usize))>> {
        Parser::new_from_str(yaml)
            .map(|e| e.map(|(e, s)| (e, (s.start.line(), s.start.col()))))
            .collect::<Result<_, _>>()
            .ok()
    }

    /// Whatever this module accepts, the full parser reads the same way: same events, same
    /// start positions (the ends of collections are not used and not compared).
    fn agrees(yaml: &str) -> bool {
        let Some(ours) = events(yaml) else {
            return false;
        };
        let theirs = parsed(yaml).unwrap_or_else(|| panic!("accepted invalid YAML: {yaml:?}"));
        fn starts<'a>(v: Vec<(Event<'a>, (usize, usize))>) -> Vec<(Event<'a>, (usize, usize))> {
            v.into_iter()
                .map(|(e, at)| match e {
                    Event::SequenceEnd
                    | Event::MappingEnd
                    | Event::DocumentEnd
                    | Event::StreamEnd => (e, (0, 0)),
                    e => (e, at),
                })
                .collect()
        }
        let ours = starts(
            ours.into_iter()
                .map(|(e, s)| (e, (s.start.line(), s.start.col())))
                .collect(),
        );
        assert_eq!(ours, starts(theirs), "{yaml:?}");
        true
    }

    #[test]
    fn reads_plain_frontmatter_as_the_parser_does() {
        for yaml in [
            "name: pdf\ndescription: 'Fill PDF forms. It''s quick.'\nlicense: MIT\n",
            "name: x\nmetadata:\n  owner: team\n  version: \"2.5\"\n",
            "dependencies:\n  tools:\n    all: [deploy_report]\n    any: [a, 'b c', \"d\"]\n",
            "tools:\n  - read\n  - 'edit'\nmodel: gpt-5\n",
            "tools:\n- read\n- search\nname: x\n",
            "handoffs:\n  - label: Start\n    agent: plan\n  - label: Go\n    agent: build\n",
            "list:\n- k: v\n  j: w\n- x\n",
            "a: -1\nb: 1.5\nc: true\nd: ~\ne: 0x1F\nf: http://x.y/z#frag\n",
            "description: Café — ünïcödé [x] {y}\ntools: ['é', ü, \"ß\"]\n",
            "# leading comment\n\nname: x  \n  # indented comment\ntools: []\nempty: [ ]\n",
            "a: [x,y ,  z]\n",
            "name: a\nname: b\n",
            "description: >\n  folded\n",
            "description: >-\n  Folded text\n  on lines.\n\n  A second  paragraph.\n\n\n  Third.\nname: x\n",
            "a: |\n  literal\n    deeper\n\n  # not a comment? no: left out\n",
            "a: |-\n  one\n  two  \nb: |\n  x\n\n\nc: 1\n",
            "m:\n  k: >\n    nested\n    text\n  j: v\n",
            "- k: |\n    in a list\n  j: v\n",
        ] {
            if yaml.contains("# not") {
                assert!(events(yaml).is_none(), "taken: {yaml:?}");
                continue;
            }
            assert!(agrees(yaml), "not taken: {yaml:?}");
        }
    }

    #[test]
    fn leaves_everything_else_to_the_parser() {
        for yaml in [
            "description: long\n  continued\n",
            "a: |+\n  kept\n",
            "a: >2\n  x\n",
            "a: | # note\n  x\n",
            "a: |\n\n  leading empty line\n",
            "a: |\n  x\n   \n  y\n",
            "a: >\n  x\n    deeper folded\n",
            "a: |\n    x\n  less\n",
            "a: |\nb: 1\n",
            "a: |\n",
            "- |\n  item\n",
            "a: 'two\n  lines'\n",
            "a: \"esc\\n\"\n",
            "a: &x 1\nb: *x\n",
            "a: !!str 1\n",
            "a: {k: v}\n",
            "a:\nb: 1\n",
            "a: [x,]\n",
            "a: [,x]\n",
            "a: [ , x]\n",
            "a: [x\n",
            "a: b # comment\n",
            "\tname: x\n",
            "a: x\n---\nb: y\n",
            "  indented: x\n",
            "- a\n- - b\n",
            "? k\n: v\n",
            "a: b: c\n",
            "a:b\n",
            "key with space: x\n",
            "a: 'it's'\n",
            "a:\n    b: 1\n  c: 2\n",
            "plain scalar\n",
        ] {
            assert!(events(yaml).is_none(), "taken: {yaml:?}");
        }
    }

    proptest::proptest! {
        /// Lines are the pieces `str::split` gives, empty ones and the last included.
        #[test]
        fn lines_are_split_pieces(text in "[a \n\u{e9}]{0,12}") {
            let ours: Vec<&str> = split_lines(&text).collect();
            let theirs: Vec<&str> = text.split('\n').collect();
            proptest::prop_assert_eq!(ours, theirs);
            proptest::prop_assert_eq!(trim_start_spaces(&text), text.trim_start_matches(' '));
        }
    }

    proptest::proptest! {
        /// The byte check is the character rule: printable characters and line feeds, minus
        /// the byte order mark, U+FFFE and U+FFFF.
        #[test]
        fn the_byte_check_is_the_character_rule(text in "(\\PC|[\\t\\r\\n\\x7f\\u{80}-\\u{a0}\\u{feff}\\u{fffe}\\u{ffff}]){0,12}") {
            let allowed = |c: char| {
                matches!(c, '\n' | ' '..='~')
                    || (c >= '\u{a0}' && !matches!(c, '\u{feff}' | '\u{fffe}' | '\u{ffff}'))
            };
            proptest::prop_assert_eq!(plain_text(text.as_bytes()), text.chars().all(allowed));
        }
    }

    proptest::proptest! {
        #![proptest_config(super::super::tests::config(3_000))]
        /// Any text of YAML's punctuation and a few words: no panic, and whatever is taken
        /// reads as the parser reads it.
        #[test]
        fn never_panics_and_agrees_on_arbitrary_text(yaml in "([-a-z:#'\",\\[\\]{}&*!|> \n]|é|\\\\){0,40}") {
            if events(&yaml).is_some() {
                agrees(&yaml);
            }
        }

        /// Lines from the pieces of plain frontmatter and some that are not, at random indents:
        /// whatever is accepted reads as the parser reads it.
        #[test]
        fn agrees_with_the_parser_on_generated_input(lines in proptest::collection::vec(
            (0..4usize,
             proptest::sample::select(vec!["a:", "b:", "name:", "- ", "- k:", "-", "", "k.v-2:", "#"]),
             proptest::sample::select(vec!["", " x", " 'q'", " 'it''s'", " \"d\"", " [a, b]", " []", " ['x', \"y\"]",
                 " 1", " -1", " true", " ~", " é ü", " a: b", " - c", " a #b", " a#b", " [a,]", " {k: v}",
                 " 'open", " x:", "  spaced", " [x, 'y, z']", " [,x]", " [x,,y]",
                 " |", " |-", " >", " >-", " |+", " >1"])),
            1..10,
        )) {
            agrees(&super::super::tests::assemble(&lines));
        }

        /// Frontmatter shaped like real frontmatter (nested mappings, lists, lists of
        /// mappings, at consistent indentation), mostly in the subset: read as the parser does.
        #[test]
        fn agrees_with_the_parser_on_plain_shaped_input(steps in proptest::collection::vec(
            (0..5u8, 0..12usize, 0..3usize),
            1..16,
        )) {
            const VALUES: [&str; 12] = ["x", "'q'", "'it''s'", "\"d e\"", "[a, 'b c']", "[]", "1",
                "-1.5", "true", "~", "ünï", "a#b"];
            let mut yaml = String::new();
            // Open levels: indentation, and whether it holds a list (once known).
            let mut levels: Vec<(usize, Option<bool>)> = vec![(0, None)];
            let mut open = false;
            for (i, (kind, value, back)) in steps.into_iter().enumerate() {
                if !open {
                    levels.truncate(levels.len().saturating_sub(back).max(1));
                }
                let Some(&mut (indent, ref mut list)) = levels.last_mut() else {
                    break;
                };
                let pad = " ".repeat(indent);
                let v = VALUES[value];
                open = false;
                if kind == 4 {
                    yaml += &format!("{pad}# note\n");
                    continue;
                }
                let is_list = *list.get_or_insert(kind >= 2);
                match (is_list, kind % 2) {
                    (false, 0) => yaml += &format!("{pad}k{i}: {v}\n"),
                    (false, _) => {
                        yaml += &format!("{pad}k{i}:\n");
                        levels.push((indent + 2, None));
                        open = true;
                    }
                    (true, 0) => yaml += &format!("{pad}- {v}\n"),
                    (true, _) => {
                        yaml += &format!("{pad}- k{i}: {v}\n");
                        levels.push((indent + 2, Some(false)));
                    }
                }
            }
            agrees(&yaml);
        }
    }

    /// Every frontmatter of the real libraries that this module takes reads as the parser reads
    /// it, and it takes most of them.
    #[test]
    fn agrees_with_the_parser_on_the_corpus() {
        let Some(corpus) = crate::corpus::corpus("") else {
            return;
        };
        let (mut seen, mut taken) = (0, 0);
        for entry in ignore::WalkBuilder::new(&corpus)
            .standard_filters(false)
            .build()
        {
            let entry = entry.expect("walk the corpus");
            if entry.path().extension().is_none_or(|e| e != "md") {
                continue;
            }
            let Ok(text) = std::fs::read_to_string(entry.path()) else {
                continue;
            };
            if let Ok(split) = crate::parse::frontmatter::split(&text) {
                seen += 1;
                taken += usize::from(agrees(split.yaml));
            }
        }
        assert!(
            seen > 700,
            "only {seen} frontmatters under {}",
            corpus.display()
        );
        assert!(
            taken * 10 > seen * 8,
            "only {taken} of {seen} frontmatters taken"
        );
    }
}
