//! What a Markdown body refers to: its relative links and images, and the paths it writes
//! outside links (as a whole code span or as a word of the text), each with its place and the
//! words around it. Pure: nothing here looks at the file system; whether a path is there, and
//! whether a missing one is worth reporting, is for the rules (`rules::references`).
//!
//! Links come from pulldown-cmark, so links inside code are not mistaken for links and each
//! link's byte range gives its position (reference-style links are placed where they are used).
//! It is the fastest CommonMark parser we measured for this job, and the HTML report renders
//! descriptions with it too, so the tool has one Markdown parser. Paths of the text are read
//! line by line, outside fenced code blocks, with no Markdown parse.

use std::sync::Arc;

use pulldown_cmark::{Event, LinkType, Options, Parser, Tag};

use crate::diagnostic::Pos;
use crate::span::{self, Columns};

/// A relative link or image target of a body, or a path it writes outside links.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Reference {
    /// The target path, without fragment or query, percent-decoded; `./` dropped from a path
    /// of the text.
    pub target: String,
    pub pos: Pos,
    pub kind: RefKind,
    /// The line it is on (without its line break), for the words around it: shared by every
    /// reference on the line, which may hold thousands.
    pub line: Arc<str>,
    /// Where the reference starts in `line`, in bytes.
    pub at: usize,
    /// The title of the section it is in (the last heading above it, without its `#`s).
    pub section: Option<String>,
    /// Whether it stands among the lines of a document's template, filled with placeholders
    /// (`- **Type**: [Database, API]`, `[Description]`): a link there is one of the document
    /// the skill writes, not one of the skill's files.
    pub in_template: bool,
}

impl Reference {
    /// The text of its line before it.
    pub fn before(&self) -> &str {
        self.line.get(..self.at).unwrap_or("")
    }

    /// The text of its line after it.
    pub fn after(&self) -> &str {
        let end = self.line[self.at..]
            .find(self.target.as_str())
            .map_or(self.at, |i| self.at + i + self.target.len());
        self.line.get(end..).unwrap_or("")
    }
}

/// How a body names a file.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RefKind {
    /// A Markdown link or image.
    Link,
    /// A path that is a whole code span: `` `references/guide.md` ``.
    Code,
    /// A path written as a word of the text: see references/guide.md.
    Bare,
}

/// Bodies larger than this are not scanned (the cost would be paid on every run for a file no
/// host would load anyway).
pub(crate) const MAX_LINK_SCAN_BYTES: usize = 2 << 20;

/// Every reference `body` makes (its first line is `first_line` of the file): its relative
/// links and images in document order, then the paths it writes outside links.
pub fn references(body: &str, first_line: u32) -> Vec<Reference> {
    let mut out = links(body, first_line);
    out.extend(scan(body, first_line, 0).text_paths);
    out
}

/// What a body refers to, as far as it can be read without a Markdown parse: the paths it
/// writes outside links, and the targets its links may have. Finding the links themselves (their
/// exact places, and which `](` are links at all rather than code) takes [`links`], a parse that
/// a reader needs only when some target here is one it cares about.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Body {
    /// Where the body starts in the file's text, and on which line.
    pub start: usize,
    pub first_line: u32,
    /// The paths written outside links, as code spans or words of the text.
    pub text_paths: Vec<Reference>,
    /// Every relative target written after `](` or `]:`: each link's target is among them,
    /// unless `uncertain`.
    pub link_targets: Vec<String>,
    /// Some target is written in a way the parser may read otherwise (an escape, an entity,
    /// parentheses), so only [`links`] can say what it is.
    pub uncertain: bool,
}

/// [`Body`] of `body`, which starts at byte `start` and on line `first_line` of its file.
pub fn scan(body: &str, first_line: u32, start: usize) -> Body {
    let mut out = Body {
        start,
        first_line,
        ..Body::default()
    };
    if body.len() > MAX_LINK_SCAN_BYTES {
        return out;
    }
    out.text_paths = path_refs(body, first_line);
    for_each_link_target(body, |t| {
        if t.bytes().any(|b| matches!(b, b'\\' | b'&' | b'(')) {
            out.uncertain = true;
        } else if let Some(t) = local_target(t) {
            out.link_targets.push(t);
        }
        false
    });
    out
}

/// The relative links and images of `body` (its first line is `first_line` of the file), by a
/// full CommonMark parse, each with its line and the heading above it.
pub fn links(body: &str, first_line: u32) -> Vec<Reference> {
    if body.len() > MAX_LINK_SCAN_BYTES {
        return Vec::new();
    }
    let lines = scan_lines(body);
    // The line of the last link (its start, end and text): links come in document order.
    let mut last: Option<(usize, usize, Arc<str>)> = None;
    parse_links(body, first_line)
        .into_iter()
        .map(|(target, pos, offset)| {
            let offset = offset.min(body.len());
            let (start, line) = match &last {
                Some((start, end, line)) if (*start..=*end).contains(&offset) => {
                    (*start, Arc::clone(line))
                }
                _ => {
                    let (start, end, _) = span::line_at(body, offset);
                    let line = &body[start..end];
                    let line: Arc<str> = Arc::from(line.strip_suffix('\r').unwrap_or(line));
                    last = Some((start, end, Arc::clone(&line)));
                    (start, line)
                }
            };
            Reference {
                target,
                pos,
                kind: RefKind::Link,
                line,
                at: offset - start,
                section: lines.section_at(offset).map(str::to_owned),
                in_template: lines.in_template(pos.line.saturating_sub(first_line)),
            }
        })
        .collect()
}

/// Relative link and image targets of `body` that `wanted` picks, with their positions: a
/// body is parsed only when a target written in it literally is wanted or cannot be read
/// without the parser. For agents, whose body links matter only where they may name a skill.
pub fn link_targets(
    body: &str,
    first_line: u32,
    wanted: impl Fn(&str) -> bool,
) -> Vec<(String, Pos)> {
    if body.len() > MAX_LINK_SCAN_BYTES || !may_link(body, &wanted) {
        return Vec::new();
    }
    let mut links: Vec<(String, Pos)> = parse_links(body, first_line)
        .into_iter()
        .map(|(target, pos, _)| (target, pos))
        .collect();
    links.retain(|(t, _)| wanted(t));
    links
}

/// What one pass over a body's lines finds: its fenced code blocks and its headings.
struct Scanned {
    /// Byte ranges of fenced code blocks, opening fence line to closing fence line.
    fences: Vec<(usize, usize)>,
    /// Each heading outside code: where its line starts, and its title.
    headings: Vec<(usize, String)>,
    /// The lines outside code that hold a placeholder ([`placeholder_in`]), by their index.
    placeholders: Vec<u32>,
}

impl Scanned {
    fn fenced(&self, offset: usize) -> bool {
        // In order and apart: the last one starting at or before `offset` is the only candidate.
        let i = self.fences.partition_point(|&(from, _)| from <= offset);
        i.checked_sub(1).is_some_and(|i| offset < self.fences[i].1)
    }

    /// Whether the line of index `line` has placeholders in at least
    /// [`TEMPLATE_PLACEHOLDERS`] of the [`TEMPLATE_LINES`] lines up to it.
    fn in_template(&self, line: u32) -> bool {
        let from = line.saturating_sub(TEMPLATE_LINES - 1);
        let above = self.placeholders.partition_point(|&l| l < from);
        let to = self.placeholders.partition_point(|&l| l <= line);
        to - above >= TEMPLATE_PLACEHOLDERS
    }

    /// The title of the last heading at or before `offset`.
    fn section_at(&self, offset: usize) -> Option<&str> {
        let i = self.headings.partition_point(|(at, _)| *at <= offset);
        i.checked_sub(1).map(|i| self.headings[i].1.as_str())
    }
}

/// The lines of `body` with their byte offsets, line breaks (and a `\r` before them) dropped.
fn lines_with_offsets(body: &str) -> impl Iterator<Item = (usize, &str)> {
    // Line breaks found with memchr: a `char` split of every body cost a few percent of a run.
    let ends = memchr::memchr_iter(b'\n', body.as_bytes()).chain(std::iter::once(body.len()));
    let mut start = 0;
    ends.filter_map(move |end| {
        let from = start;
        start = end + 1;
        let line = body.get(from..end)?;
        // The text after the last line break is a line only when it holds something.
        (end < body.len() || !line.is_empty())
            .then(|| (from, line.strip_suffix('\r').unwrap_or(line)))
    })
}

/// Fenced code blocks (a fence closes on a run of its own character at least as long, with
/// nothing after it; an unclosed one runs to the end) and ATX headings outside them.
fn scan_lines(body: &str) -> Scanned {
    let mut fences = Vec::new();
    let mut headings = Vec::new();
    let mut placeholders = Vec::new();
    let mut open: Option<(usize, u8, usize)> = None;
    for (index, (start, line)) in (0u32..).zip(lines_with_offsets(body)) {
        let trimmed = line.trim_start_matches([' ', '\t', '>']);
        if let Some(run) = fence_run(trimmed) {
            let c = trimmed.as_bytes()[0];
            match open {
                Some((from, oc, len))
                    if oc == c && run >= len && trimmed[run..].trim().is_empty() =>
                {
                    fences.push((from, start + line.len() + 1));
                    open = None;
                }
                Some(_) => {}
                None => open = Some((start, c, run)),
            }
            continue;
        }
        if open.is_some() {
            continue;
        }
        if let Some(title) = heading(line) {
            headings.push((start, title.to_owned()));
        }
        if placeholder_in(line) {
            placeholders.push(index);
        }
    }
    if let Some((from, _, _)) = open {
        fences.push((from, body.len() + 1));
    }
    Scanned {
        fences,
        headings,
        placeholders,
    }
}

/// How many lines of placeholders, among how many up to a reference's line, make a template.
const TEMPLATE_PLACEHOLDERS: usize = 3;
const TEMPLATE_LINES: u32 = 12;

/// Whether `line` holds a placeholder of a template: text in brackets that starts with a
/// capital letter and is no link, image, reference or task box (`[Component Name]`,
/// `**Type**: [Web Application, API]`).
fn placeholder_in(line: &str) -> bool {
    let bytes = line.as_bytes();
    // The text of a placeholder holds no bracket, so its `[` is the last one before the first
    // `]` after it: one pass pairs them, where a search from every `[` to its `]` would cross
    // the rest of a line of unclosed brackets again and again.
    let mut open = None;
    for at in memchr::memchr2_iter(b'[', b']', bytes) {
        if bytes[at] == b'[' {
            open = Some(at);
            continue;
        }
        let Some(open) = open.take() else { continue };
        let inner = &bytes[open + 1..at];
        // Two characters at least: `[X]` is a ticked task box.
        if inner.len() >= 2
            && inner[0].is_ascii_uppercase()
            && (open == 0 || bytes[open - 1] != b'!')
            && !matches!(bytes.get(at + 1), Some(b'(' | b'[' | b':'))
        {
            return true;
        }
    }
    false
}

/// The title of an ATX heading line (`## Resources`), if `line` is one.
fn heading(line: &str) -> Option<&str> {
    let indent = line.len() - line.trim_start_matches(' ').len();
    let rest = &line[indent..];
    let hashes = rest.bytes().take_while(|&b| b == b'#').count();
    if indent > 3 || !(1..=6).contains(&hashes) {
        return None;
    }
    let title = &rest[hashes..];
    (title.is_empty() || title.starts_with([' ', '\t']))
        .then(|| title.trim().trim_end_matches('#').trim())
}

/// Paths into the skill's folder that `body` writes outside Markdown links, as a whole code
/// span (`` `scripts/run.sh` ``) or as a word of the text. Only what looks like a relative
/// file path counts: a `/`, a file extension, path characters only (no blanks, globs, `<`,
/// `{`, `$` or `:`), not absolute, not `./`-less `../`. Fenced code blocks hold example
/// commands and are skipped, as are link syntax and reference definitions (links are
/// [`parse_links`]').
fn path_refs(body: &str, first_line: u32) -> Vec<Reference> {
    let bytes = body.as_bytes();
    // Fences and headings are found only once a path turns up: most bodies write none.
    let scanned = std::cell::OnceCell::new();
    let mut out = Vec::new();
    let mut tokens = Vec::new();
    // Lines are found from their slashes: most lines have none and are never looked at.
    let (mut next_line, mut counted_to, mut line_no) = (0, 0, first_line);
    while let Some(slash) = bytes
        .get(next_line..)
        .and_then(|rest| memchr::memchr(b'/', rest))
        .map(|i| next_line + i)
    {
        let start = memchr::memrchr(b'\n', &bytes[..slash]).map_or(0, |i| i + 1);
        let end = memchr::memchr(b'\n', &bytes[slash..]).map_or(bytes.len(), |i| slash + i);
        next_line = end + 1;
        let line = &body[start..end];
        let line = line.strip_suffix('\r').unwrap_or(line);
        let trimmed = line.trim_start_matches([' ', '\t', '>']);
        if trimmed.starts_with('[') && trimmed.contains("]:") {
            continue;
        }
        tokens.clear();
        line_tokens(line, &mut tokens);
        // Shared by the line's paths, and their columns counted along it once.
        let mut shared: Option<Arc<str>> = None;
        let columns = Columns::new(line);
        for &(at, token, kind) in &tokens {
            let Some(path) = path_like(token) else {
                continue;
            };
            let scanned: &Scanned = scanned.get_or_init(|| scan_lines(body));
            if scanned.fenced(start) {
                break;
            }
            let newlines = memchr::memchr_iter(b'\n', &bytes[counted_to..start]).count();
            line_no = line_no.saturating_add(u32::try_from(newlines).unwrap_or(u32::MAX));
            counted_to = start;
            // The path is a slice of the token: its place, past any punctuation.
            let at = at + (path.as_ptr() as usize - token.as_ptr() as usize);
            out.push(Reference {
                target: path.to_owned(),
                pos: Pos::new(line_no, columns.column(at)),
                kind,
                line: Arc::clone(shared.get_or_insert_with(|| Arc::from(line))),
                at,
                section: scanned.section_at(start).map(str::to_owned),
                in_template: scanned.in_template(line_no.saturating_sub(first_line)),
            });
        }
    }
    out
}

/// Could `body` hold a link to a relative file that `wanted` picks? Every link target a
/// parser can report follows `](` (inline links and images) or `]:` (reference definitions)
/// literally, so a body where no such target is wanted needs no parse (most bodies link only
/// to the web, or nowhere). Errs towards "yes": a target that a parser would read differently
/// from its text (escapes and entities are decoded, balanced parentheses belong to it) always
/// counts.
fn may_link(body: &str, wanted: &impl Fn(&str) -> bool) -> bool {
    for_each_link_target(body, |t| {
        t.bytes().any(|b| matches!(b, b'\\' | b'&' | b'('))
            || local_target(t).is_some_and(|t| wanted(&t))
    })
}

/// Call `f` with the literal text of each target after `](` or `]:` (where a reference
/// definition could stand) in `body`, until it returns true; whether it did. A line of
/// nothing but `](` or `]:` costs its length, not its square: targets that overlap share the
/// search for their end, and a line holds one definition at most. Inline targets still
/// overlap, so `f` should read one only up to its first `(` (which it holds when it runs
/// into the next `](`) before deciding.
fn for_each_link_target(body: &str, mut f: impl FnMut(&str) -> bool) -> bool {
    let bytes = body.as_bytes();
    let mut inline_end = NextByte::new(|b| is_blank(b) || b == b')');
    let mut definition_end = NextByte::new(is_blank);
    let mut angle_end = NextByte::new(|b| b == b'>' || b == b'\n');
    // The last `]` that no backslash escapes: a label holds no such bracket, so only the first
    // on its line can end a reference definition's label.
    let mut last_close: Option<usize> = None;
    memchr::memchr_iter(b']', bytes).any(|i| {
        let backslashes = bytes[..i].iter().rev().take_while(|&&b| b == b'\\').count();
        let escaped = backslashes % 2 == 1;
        let first_on_line =
            !escaped && last_close.is_none_or(|c| memchr::memchr(b'\n', &bytes[c..i]).is_some());
        if !escaped {
            last_close = Some(i);
        }
        match bytes.get(i + 1) {
            Some(b'(') => {
                raw_target(body, i + 2, &mut inline_end, &mut angle_end).is_some_and(|(t, _)| f(t))
            }
            Some(b':') => {
                first_on_line
                    && may_define(body, i)
                    && raw_target(body, i + 2, &mut definition_end, &mut angle_end)
                        .is_some_and(|(t, rest)| ends_definition(rest) && f(t))
            }
            _ => false,
        }
    })
}

/// The first byte at or after a place that `picks` picks (or the end of the text), for
/// places asked in order: every place up to the last byte found shares it, so overlapping
/// targets do not search the same bytes again.
struct NextByte<F> {
    picks: F,
    /// The last search: where it started, and what it found.
    from: usize,
    found: Option<usize>,
}

impl<F: Fn(u8) -> bool> NextByte<F> {
    fn new(picks: F) -> Self {
        NextByte {
            picks,
            from: 0,
            found: None,
        }
    }

    fn at(&mut self, bytes: &[u8], from: usize) -> usize {
        match self.found {
            Some(found) if (self.from..=found).contains(&from) => found,
            _ => {
                let rest = bytes.get(from..).unwrap_or_default();
                let found = rest
                    .iter()
                    .position(|&b| (self.picks)(b))
                    .map_or(bytes.len(), |i| from + i);
                (self.from, self.found) = (from, Some(found));
                found
            }
        }
    }
}

/// Could the `]` at `close` end the label of a reference definition? The label's `[` must
/// open its line, after indentation and block quote or list markers, or be on an earlier line.
/// Code such as `items[0]:` is ruled out; a line with a backslash (an escaped bracket may
/// belong to the label) always could.
fn may_define(body: &str, close: usize) -> bool {
    let line_start = memchr::memrchr(b'\n', &body.as_bytes()[..close]).map_or(0, |n| n + 1);
    let before = &body[line_start..close];
    match before.rfind('[') {
        None => true,
        Some(open) => {
            before.contains('\\')
                || before[..open].bytes().all(|b| {
                    matches!(
                        b,
                        b' ' | b'\t' | b'>' | b'-' | b'*' | b'+' | b'.' | b')' | b'0'..=b'9'
                    )
                })
        }
    }
}

/// Can a reference definition's destination be followed by `rest`? Only by the end of its
/// line or by a title (`"`, `'` or `(`); `[Issue]: [Description] - Impact` is text.
fn ends_definition(rest: &str) -> bool {
    let rest = rest.trim_start_matches([' ', '\t']);
    rest.is_empty() || rest.starts_with(['\n', '\r', '"', '\'', '('])
}

/// A blank that ends a link target: space, tab or line break.
fn is_blank(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\r' | b'\n')
}

/// The literal target text after the `](` or `]:` that ends at `from` in `body`, and the text
/// after it: leading blanks skipped, then `<...>` (up to `angle_end`) or the text up to the
/// first byte `end` finds (an inline link's target also ends at `)`; a definition's only at a
/// blank, so `[r]: x(y).md` defines `x(y).md`). Bytes, not `char` searches: this runs at
/// every `](` of every body. Every byte it splits at is ASCII, so each part is a `str`.
fn raw_target<'b>(
    body: &'b str,
    from: usize,
    end: &mut NextByte<impl Fn(u8) -> bool>,
    angle_end: &mut NextByte<impl Fn(u8) -> bool>,
) -> Option<(&'b str, &'b str)> {
    let b = body.as_bytes();
    let start = b
        .get(from..)
        .and_then(|rest| rest.iter().position(|&c| !is_blank(c)))
        .map_or(b.len(), |i| from + i);
    let (target, rest) = if b.get(start) == Some(&b'<') {
        let end = angle_end.at(b, start + 1);
        let rest = &body[end..];
        (
            &body[start + 1..end],
            rest.strip_prefix('>').unwrap_or(rest),
        )
    } else {
        let end = end.at(b, start);
        (&body[start..end], &body[end..])
    };
    (!target.is_empty()).then_some((target, rest))
}

/// Every relative link and image target, by a full CommonMark parse: the target, its place,
/// and its byte offset in `body`.
fn parse_links(body: &str, first_line: u32) -> Vec<(String, Pos, usize)> {
    let mut lines = Lines::new(body);
    let mut out = Vec::new();
    for (event, range) in Parser::new_ext(body, Options::ENABLE_TABLES).into_offset_iter() {
        let url = match event {
            Event::Start(Tag::Link {
                link_type,
                dest_url,
                ..
            })
            | Event::Start(Tag::Image {
                link_type,
                dest_url,
                ..
            }) if !matches!(link_type, LinkType::Autolink | LinkType::Email) => dest_url,
            _ => continue,
        };
        if let Some(target) = local_target(&url) {
            let (line, column) = lines.position(range.start);
            let pos = Pos::new(line.saturating_add(first_line.saturating_sub(1)), column);
            out.push((target, pos, range.start));
        }
    }
    out
}

/// The length of the fence a line (past its indentation and block quote markers) opens with:
/// three or more backticks or tildes.
fn fence_run(trimmed: &str) -> Option<usize> {
    let b = trimmed.as_bytes();
    let c = *b.first()?;
    if !matches!(c, b'`' | b'~') || b.get(1) != Some(&c) || b.get(2) != Some(&c) {
        return None;
    }
    Some(b.iter().take_while(|&&x| x == c).count())
}

/// The code spans of one line (their whole content) and the words of its text outside them,
/// each with its byte offset in the line.
fn line_tokens<'l>(line: &'l str, out: &mut Vec<(usize, &'l str, RefKind)>) {
    let bytes = line.as_bytes();
    let mut text_from = 0;
    let mut i = 0;
    // Only a word with a `/` can be a path: the words are found from the slashes, so the rest
    // of the text is not split.
    let words = |from: usize, to: usize, out: &mut Vec<(usize, &'l str, RefKind)>| {
        let blank = |b: &u8| matches!(b, b' ' | b'\t');
        let mut next = from;
        for slash in memchr::memchr_iter(b'/', &bytes[from..to]).map(|i| i + from) {
            if slash < next {
                continue;
            }
            let start = bytes[from..slash]
                .iter()
                .rposition(blank)
                .map_or(from, |i| from + i + 1);
            let end = bytes[slash..to]
                .iter()
                .position(blank)
                .map_or(to, |i| slash + i);
            out.push((start, &line[start..end], RefKind::Bare));
            next = end;
        }
    };
    while let Some(open) = memchr::memchr(b'`', &bytes[i..]).map(|o| o + i) {
        let len = bytes[open..].iter().take_while(|&&b| b == b'`').count();
        let content = open + len;
        // The closing run: the next run of exactly as many backticks on this line.
        let mut j = content;
        let close = loop {
            match memchr::memchr(b'`', &bytes[j..]).map(|o| o + j) {
                None => break None,
                Some(c) => {
                    let run = bytes[c..].iter().take_while(|&&b| b == b'`').count();
                    if run == len {
                        break Some(c);
                    }
                    j = c + run;
                }
            }
        };
        let Some(close) = close else { break };
        words(text_from, open, out);
        let inner = &line[content..close];
        if inner.as_bytes().contains(&b'/') {
            let lead = inner.len() - inner.trim_start().len();
            out.push((content + lead, inner.trim(), RefKind::Code));
        }
        i = close + len;
        text_from = i;
    }
    words(text_from, line.len(), out);
}

/// `token` as a relative path into the skill's folder, if it looks like one (see
/// [`path_refs`]); a word loses the punctuation around it first, and `./` is dropped.
fn path_like(token: &str) -> Option<&str> {
    // A word holding a link's `](` is never a path.
    if token.contains("](") {
        return None;
    }
    let t = token
        .trim_start_matches(['(', '[', '"', '\'', '*', '_', '|'])
        .trim_end_matches([
            ')', ']', '"', '\'', '*', '_', '|', ',', ';', ':', '.', '!', '?',
        ]);
    let t = t.strip_prefix("./").unwrap_or(t);
    let (dirs, file) = t.rsplit_once('/')?;
    if dirs.is_empty() || !t.bytes().all(is_path_byte) || t.starts_with('.') {
        return None;
    }
    // Every folder named: none empty, `.` or `..`.
    if dirs
        .split('/')
        .any(|d| d.is_empty() || d == "." || d == "..")
    {
        return None;
    }
    let (stem, ext) = file.rsplit_once('.')?;
    let ext_ok = (1..=10).contains(&ext.len())
        && ext.bytes().all(|b| b.is_ascii_alphanumeric())
        && ext.bytes().any(|b| b.is_ascii_alphabetic());
    (!stem.is_empty() && ext_ok && !placeholder(stem)).then_some(t)
}

/// The bytes a path may hold.
fn is_path_byte(b: u8) -> bool {
    b.is_ascii_alphanumeric() || matches!(b, b'.' | b'_' | b'-' | b'/' | b'+' | b'@')
}

/// Is a file name's stem a placeholder (`filename`, `your-file`, `phaseN`, `NAME`) rather than
/// a name?
fn placeholder(stem: &str) -> bool {
    const WORDS: &[&str] = &[
        "file",
        "filename",
        "name",
        "foo",
        "bar",
        "baz",
        "xxx",
        "example",
        "something",
        "path",
    ];
    let bytes = stem.as_bytes();
    let starts = |p: &str| {
        stem.get(..p.len())
            .is_some_and(|s| s.eq_ignore_ascii_case(p))
    };
    // `phaseN`, `stepX`: a word and a capital standing for a number.
    let numbered = matches!(bytes, [.., b'a'..=b'z', b'N' | b'X' | b'Y']);
    WORDS.iter().any(|w| stem.eq_ignore_ascii_case(w))
        || starts("your")
        || starts("my-")
        || numbered
        || (stem.len() > 1 && stem.bytes().all(|b| b.is_ascii_uppercase() || b == b'_'))
}

/// Byte offsets to 1-based line and character column. Links arrive in document order, so the
/// count resumes where the last one stopped: a line may hold thousands of links.
struct Lines<'a> {
    text: &'a str,
    line: u32,
    line_start: usize,
    /// How far the text has been read for line breaks.
    scanned: usize,
    /// The text from the current line's start, its columns counted on.
    columns: Columns<'a>,
}

impl<'a> Lines<'a> {
    fn new(text: &'a str) -> Self {
        Lines {
            text,
            line: 1,
            line_start: 0,
            scanned: 0,
            columns: Columns::new(text),
        }
    }

    fn position(&mut self, offset: usize) -> (u32, u32) {
        let offset = offset.min(self.text.len());
        if offset < self.line_start {
            // Out of order (not expected from the parser): count again from the top.
            *self = Lines::new(self.text);
        }
        if offset > self.scanned {
            let skipped = &self.text.as_bytes()[self.scanned..offset];
            let newlines = memchr::memchr_iter(b'\n', skipped).count();
            self.line = self
                .line
                .saturating_add(u32::try_from(newlines).unwrap_or(u32::MAX));
            if let Some(last) = memchr::memrchr(b'\n', skipped) {
                self.line_start = self.scanned + last + 1;
                self.columns = Columns::new(&self.text[self.line_start..]);
            }
            self.scanned = offset;
        }
        (self.line, self.columns.column(offset - self.line_start))
    }
}

/// The file path a link points at, or `None` for URLs, anchors, absolute paths and templates.
pub(crate) fn local_target(url: &str) -> Option<String> {
    let url = url.trim();
    let end = url
        .bytes()
        .position(|b| b == b'#' || b == b'?')
        .unwrap_or(url.len());
    let path = &url[..end];
    if path.is_empty() || path.starts_with('/') || path.starts_with('\\') || path.starts_with('~') {
        return None;
    }
    // A scheme (`https:`, `mailto:`, `skill:`) or a Windows drive: not a relative file path.
    let bytes = path.as_bytes();
    if let Some(colon) = bytes.iter().position(|&b| b == b':')
        && !bytes[..colon].contains(&b'/')
    {
        return None;
    }
    // Placeholders such as `{{path}}`, `<file>` or `${VAR}` are examples, not links.
    if path
        .bytes()
        .any(|b| matches!(b, b'{' | b'}' | b'<' | b'>' | b'$' | b'*'))
    {
        return None;
    }
    Some(percent_decode(path))
}

/// `%XX` escapes decoded; an invalid one (`%2`, `%+1`) is kept as written.
pub(crate) fn percent_decode(s: &str) -> String {
    let bytes = s.as_bytes();
    // Most paths have no escape: copied as they are.
    if memchr::memchr(b'%', bytes).is_none() {
        return s.to_owned();
    }
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        // Two hex digits, checked first: `from_str_radix` alone would take a sign (`+1`).
        let hex = bytes
            .get(i + 1..i + 3)
            .filter(|h| bytes[i] == b'%' && h.iter().all(u8::is_ascii_hexdigit))
            .and_then(|h| std::str::from_utf8(h).ok())
            .and_then(|h| u8::from_str_radix(h, 16).ok());
        match hex {
            Some(b) => {
                out.push(b);
                i += 3;
            }
            None => {
                out.push(bytes[i]);
                i += 1;
            }
        }
    }
    String::from_utf8_lossy(&out).into_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn links(body: &str, first_line: u32) -> Vec<Reference> {
        let mut refs = references(body, first_line);
        refs.retain(|r| r.kind == RefKind::Link);
        refs
    }

    fn text_paths(body: &str, first_line: u32) -> Vec<Reference> {
        let mut refs = references(body, first_line);
        refs.retain(|r| r.kind != RefKind::Link);
        refs
    }

    /// Counting on from the last place gives what counting from the top gives, in any order.
    #[test]
    fn positions_counted_on_agree_with_counting_from_the_top() {
        let text = "ab\né€ x\n\n𝄞y z\nend";
        let mut lines = Lines::new(text);
        let mut pick = crate::generated::picker(3);
        for _ in 0..3000 {
            let offset = pick(text.len() + 2);
            let at = offset.min(text.len());
            let before = &text.as_bytes()[..at];
            let line = before.iter().filter(|&&b| b == b'\n').count() as u32 + 1;
            let start = before
                .iter()
                .rposition(|&b| b == b'\n')
                .map_or(0, |i| i + 1);
            let column = text.get(start..at).map_or(1, |s| s.chars().count() + 1) as u32;
            assert_eq!(lines.position(offset), (line, column), "byte {offset}");
        }
    }

    #[test]
    fn placeholders_are_bracketed_text_that_is_no_link() {
        for line in [
            "[Component Name]: [Description]",
            "- **Type**: [Web Application, API, Database]",
            "- [c4-code-file-1.md](./c4-code-file-1.md) - [Description]",
        ] {
            assert!(placeholder_in(line), "{line}");
        }
        for line in [
            "See [the guide](references/guide.md).",
            "![Diagram](assets/d.png)",
            "[Guide][guide] and [Guide]: references/guide.md",
            "- [X] done, [ ] to do, [^1]",
            "[lower case text] and [x]",
        ] {
            assert!(!placeholder_in(line), "{line}");
        }
    }

    proptest::proptest! {
        /// The same answer as looking for the `]` after every `[`.
        #[test]
        fn placeholders_found_in_one_pass(parts in proptest::collection::vec(
            proptest::sample::select(vec!["[", "]", "!", "A", "b", "(", ":", " ", "[X]", "[Ab]"]),
            0..12,
        )) {
            let line = parts.concat();
            let bytes = line.as_bytes();
            let by_each_open = memchr::memchr_iter(b'[', bytes).any(|open| {
                let inner = &bytes[open + 1..];
                let Some(close) = memchr::memchr(b']', inner) else {
                    return false;
                };
                close >= 2
                    && inner[0].is_ascii_uppercase()
                    && !inner[..close].contains(&b'[')
                    && (open == 0 || bytes[open - 1] != b'!')
                    && !matches!(inner.get(close + 1), Some(b'(' | b'[' | b':'))
            });
            proptest::prop_assert_eq!(placeholder_in(&line), by_each_open, "{}", line);
        }
    }

    #[test]
    fn links_among_a_documents_placeholders_are_in_its_template() {
        let body = "# Doc\n\n- **Name**: [Name]\n- **Type**: [Type]\n\n[Purpose]\n\n## Related\n\n- [Container](./c4-container.md)\n\n## Own files\n\na\nb\nc\nd\ne\nf\nSee [the guide](references/guide.md).\n";
        let links = links(body, 1);
        let seen: Vec<_> = links
            .iter()
            .map(|l| (l.target.as_str(), l.in_template))
            .collect();
        assert_eq!(
            seen,
            [("./c4-container.md", true), ("references/guide.md", false)]
        );
    }

    #[test]
    fn finds_links_and_images_with_file_lines() {
        let body = "# T\n\nSee [ref](references/a.md#x) and ![img](assets/b%20c.png).\n\n`[no](code.md)`\n\n[web](https://x.y) [anchor](#top)\n";
        let links = links(body, 5);
        let targets: Vec<_> = links
            .iter()
            .map(|l| (l.target.as_str(), l.pos.line))
            .collect();
        assert_eq!(targets, [("references/a.md", 7), ("assets/b c.png", 7)]);
        let links = references("Voir é é é [guide](x.md)\n", 5);
        assert_eq!(links[0].pos, Pos::new(5, 12), "columns count characters");
    }

    #[test]
    fn reference_links_are_placed_where_they_are_used() {
        let body = "[missing]: docs/a.md\n\nUse [missing] too.\n<https://x.y> <me@x.y> [c](b.md)\n";
        let got: Vec<_> = links(body, 1)
            .into_iter()
            .map(|l| (l.target, l.pos.line, l.pos.column))
            .collect();
        assert_eq!(
            got,
            [("docs/a.md".to_owned(), 3, 5), ("b.md".to_owned(), 4, 24)],
            "autolinks and e-mail addresses are not file links"
        );
        // A definition's destination may hold parentheses: only a blank ends it.
        let got = link_targets("[r]: x(y).md\n\n[r]\n", 1, |t| t == "x(y).md");
        assert_eq!(got.len(), 1, "{got:?}");
    }

    #[test]
    fn bodies_without_wanted_targets_are_not_parsed() {
        let all = |_: &str| true;
        assert!(!may_link(
            "[a](https://x.y) [b]: #top ![c]( mailto:x) [d]()",
            &all
        ));
        for body in [
            "[a]( docs/x.md )",
            "[a](<my file.md>)",
            "[a]:\n  ref.md",
            "[a](h&#116;tp.md)",
            "[a](x\\_y.md)",
        ] {
            assert!(may_link(body, &all), "{body}");
        }
        // Only the targets asked for make a parse worth it; a target the parser may read
        // differently from its text (here `a(b).md`) always does.
        let missing = |t: &str| t != "here.md";
        assert!(!may_link("[a](here.md) [b]: here.md", &missing));
        assert!(may_link("[a](here.md) [b](gone.md)", &missing));
        assert!(may_link("[a](a(b).md)", &|t: &str| t == "a(b).md"));
        // A reference definition starts its line and ends with its destination or a title.
        for body in [
            "x = items[0]: gone.md",
            "1. [Issue]: gone.md - impact",
            "[Pillar]: [Finding] \u{2014} why",
        ] {
            assert!(!may_link(body, &missing), "{body}");
        }
        for body in [
            "[a]: gone.md",
            "  > - [a]: gone.md \"title\"",
            "1. [a]:\n   gone.md\n",
            "[a\n b]: gone.md",
            "[a\\[b]: gone.md",
            "[a]: <gone.md> 'title'",
        ] {
            assert!(may_link(body, &missing), "{body}");
        }
        let got = link_targets("[a](here.md) [b](gone.md)\n", 1, missing);
        assert_eq!(got, [("gone.md".to_owned(), Pos::new(1, 14))]);
    }

    /// A line of nothing but `](` or `]:` holds a target at each; they overlap, and reading
    /// each to its end would take the square of the line.
    #[test]
    fn a_line_of_link_syntax_is_read_once() {
        let all = |_: &str| true;
        for piece in ["]:", "](", "[x](", "](<", "]:<", "\\]:", "](a]:b/"] {
            let summary = |n: usize| {
                let body = format!("{}\n", piece.repeat(n));
                let scanned = scan(&body, 1, 0);
                let targets: Vec<usize> = scanned.link_targets.iter().map(String::len).collect();
                (
                    scanned.uncertain,
                    targets.len(),
                    may_link(&body, &all),
                    links(&body, 1).len(),
                )
            };
            assert_eq!(summary(100_000 / piece.len()), summary(3), "{piece}");
        }
        // At most one definition per line: its label has no bracket but its first `]`.
        assert_eq!(
            scan("]:a/]:b/\n[x]: c/d\n", 1, 0).link_targets,
            ["a/]:b/", "c/d"]
        );
        assert_eq!(scan("[a]x]: b/c\n", 1, 0).link_targets, [] as [String; 0]);
        assert_eq!(scan("[a\\]x]: b/c\n", 1, 0).link_targets, ["b/c"]);
    }

    proptest::proptest! {
        /// The pre-scan never hides a wanted link the parser would find: the result is the
        /// parser's links, filtered.
        #[test]
        fn the_prescan_loses_no_link(want in 0..3u8, parts in proptest::collection::vec(
            proptest::prop_oneof![
                proptest::strategy::Just("[a](".to_owned()),
                proptest::strategy::Just("](".to_owned()),
                proptest::strategy::Just("]:".to_owned()),
                proptest::strategy::Just("[r]".to_owned()),
                proptest::strategy::Just("[r]: ".to_owned()),
                proptest::strategy::Just("![i](".to_owned()),
                proptest::strategy::Just("```".to_owned()),
                proptest::strategy::Just("`".to_owned()),
                proptest::strategy::Just("<".to_owned()),
                proptest::strategy::Just(">".to_owned()),
                proptest::strategy::Just(")".to_owned()),
                proptest::strategy::Just("\n".to_owned()),
                proptest::strategy::Just("https://x".to_owned()),
                proptest::strategy::Just("&#47;".to_owned()),
                proptest::strategy::Just("\\".to_owned()),
                proptest::strategy::Just("(".to_owned()),
                proptest::strategy::Just("x(y).md".to_owned()),
                proptest::strategy::Just("- ".to_owned()),
                proptest::strategy::Just("1. ".to_owned()),
                proptest::strategy::Just("> ".to_owned()),
                proptest::strategy::Just("    ".to_owned()),
                proptest::strategy::Just("\"t\"".to_owned()),
                proptest::strategy::Just("'".to_owned()),
                proptest::strategy::Just("[".to_owned()),
                proptest::strategy::Just("x[0]: ".to_owned()),
                proptest::strategy::Just("\t".to_owned()),
                "[a-z./# ]{0,6}",
            ],
            0..24,
        )) {
            let body = parts.concat();
            // Every target, none, or those with an `a` in them (as if those were missing).
            let wanted = |t: &str| match want {
                0 => true,
                1 => false,
                _ => t.contains('a'),
            };
            let mut expected: Vec<(String, Pos)> =
                parse_links(&body, 1).into_iter().map(|(t, p, _)| (t, p)).collect();
            expected.retain(|(t, _)| wanted(t));
            proptest::prop_assert_eq!(link_targets(&body, 1, wanted), expected);
            // Without a parse, every link's target is among those the scan lists, unless it
            // says the parse is needed to tell.
            let scanned = scan(&body, 1, 0);
            if !scanned.uncertain {
                for l in links(&body, 1) {
                    proptest::prop_assert!(scanned.link_targets.contains(&l.target), "{:?}", l);
                }
            }
        }
    }

    #[test]
    fn paths_in_code_spans_and_text_are_found_outside_fences() {
        let body = "Run `scripts/run.sh` and read references/guide.md, or (assets/x.png).\n\
```sh\npython scripts/fenced.py\n```\n\
`python scripts/cmd.py` `./scripts/dot.sh` ``code `scripts/x.sh` span``\n\
[link](references/linked.md) [r]: references/defined.md\n\
[r]: references/definition.md\n\
~~~\nscripts/tilde.sh\n~~~\n\
    > see references/quoted.md.\r\n";
        let got: Vec<(String, u32, u32, RefKind)> = text_paths(body, 10)
            .into_iter()
            .map(|l| (l.target, l.pos.line, l.pos.column, l.kind))
            .collect();
        let want = |t: &str, line, column, kind| (t.to_owned(), line, column, kind);
        assert_eq!(
            got,
            [
                want("scripts/run.sh", 10, 6, RefKind::Code),
                want("references/guide.md", 10, 31, RefKind::Bare),
                want("assets/x.png", 10, 56, RefKind::Bare),
                // `./` is dropped, and placed past.
                want("scripts/dot.sh", 14, 28, RefKind::Code),
                // Lines that may define references are left to the parser.
                want("references/quoted.md", 20, 7, RefKind::Bare),
            ]
        );
        // Links are the parser's, before the paths of the text.
        let all = references("See [a](references/a.md) and `scripts/b.sh`.\n", 1);
        let kinds: Vec<RefKind> = all.iter().map(|l| l.kind).collect();
        assert_eq!(kinds, [RefKind::Link, RefKind::Code]);
        assert_eq!(link_targets("`scripts/b.sh`\n", 1, |_| true), []);
    }

    #[test]
    fn fences_close_only_on_a_long_enough_run_of_their_own_character() {
        let body = "````md\n```\nscripts/inner.sh\n```\n````\nscripts/after.sh\n\
> ```\n> scripts/quoted.sh\n> ```\n~~~\n```\nscripts/unclosed.sh\n";
        let got: Vec<(String, u32)> = text_paths(body, 1)
            .into_iter()
            .map(|l| (l.target, l.pos.line))
            .collect();
        assert_eq!(got, [("scripts/after.sh".to_owned(), 6)]);
    }

    /// A fence holds its paths wherever it stands: indented, quoted, or at the very start.
    #[test]
    fn fences_anywhere_hold_their_paths() {
        let body = "```\nscripts/first.sh\n```\nscripts/skipped.sh\n  ```sh\n  scripts/in.sh\n  ```\n\
scripts/out.sh\n> ~~~\n> references/quoted.md\n> ~~~\nreferences/last.md\n";
        let got: Vec<(String, u32)> = text_paths(body, 1)
            .into_iter()
            .map(|l| (l.target, l.pos.line))
            .collect();
        let want = |t: &str, line| (t.to_owned(), line);
        assert_eq!(
            got,
            [
                want("scripts/skipped.sh", 4),
                want("scripts/out.sh", 8),
                want("references/last.md", 12)
            ]
        );
    }

    /// Each reference keeps its line, its place in it and the heading it is under.
    #[test]
    fn references_keep_the_words_around_them() {
        let body = "Intro scripts/a.sh\n\n## Resources\n\n- If needed, open `resources/play.md` now.\n\
```\n# not a heading\n```\nSee [the guide](docs/g.md).\n";
        let refs = references(body, 3);
        let got: Vec<_> = refs
            .iter()
            .map(|r| {
                (
                    r.target.as_str(),
                    r.before(),
                    r.after(),
                    r.section.as_deref(),
                )
            })
            .collect();
        assert_eq!(
            got,
            [
                ("docs/g.md", "See ", ").", Some("Resources")),
                ("scripts/a.sh", "Intro ", "", None),
                (
                    "resources/play.md",
                    "- If needed, open `",
                    "` now.",
                    Some("Resources")
                ),
            ]
        );
        assert_eq!(refs[0].pos, Pos::new(11, 5));
        assert_eq!(heading("### Files ###"), Some("Files"));
        assert_eq!(heading("#hashtag"), None);
        assert_eq!(heading("    # code"), None);
    }

    #[test]
    fn only_relative_file_paths_count() {
        for token in [
            "references/guide.md",
            "./scripts/run.sh",
            "(assets/logo.png)",
            "**references/a-b_c.v2.md**,",
            "scripts/deep/tool.py:",
        ] {
            assert!(path_like(token).is_some(), "{token}");
        }
        for token in [
            "references/",
            "scripts/run",
            "/abs/path.md",
            "~/x/y.md",
            "../up/x.md",
            "a/../x.md",
            "https://x.test/a.md",
            "references/*.md",
            "references/<name>.md",
            "references/{x}.md",
            "$DIR/x.sh",
            ".github/skills/x.md",
            "references/filename.md",
            "phase_prompts/phaseN.md",
            "references/YOUR_FILE.md",
            "a//b.md",
            "1.5/2.0",
            "[x](references/a.md)",
            "src=\"assets/a.png\"",
        ] {
            assert_eq!(path_like(token), None, "{token}");
        }
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
        assert_eq!(percent_decode("a%20b%2"), "a b%2");
        assert_eq!(percent_decode("%+1%41"), "%+1A");
    }
}
