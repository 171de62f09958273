//! What rules need from a Markdown body: its relative link and image targets, with positions.
//! Parsed with pulldown-cmark, so links inside code blocks and spans are not mistaken for links,
//! and each link's exact byte range gives its position (also for reference-style links, which
//! are reported where they are used, not where they are defined). It is the fastest CommonMark
//! parser we measured for this job; comrak, whose safe mode suits HTML rendering, stays the
//! renderer of the HTML report.

use std::cell::RefCell;
use std::collections::HashMap;

use pulldown_cmark::{Event, LinkType, Options, Parser, Tag};

use crate::diagnostic::Pos;

/// A relative link or image target found in a body, or a path written as a word.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BodyLink {
    /// The target path, without fragment or query, percent-decoded.
    pub target: String,
    pub pos: Pos,
    pub kind: RefKind,
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

/// Bodies larger than this are not scanned for links (the cost would be paid on every run for
/// a file no host would load anyway).
pub(crate) const MAX_LINK_SCAN_BYTES: usize = 2 << 20;

/// Relative link and image targets of `body` (whose first line is `first_line` of the file)
/// that `wanted` picks, then the paths written outside links ([`path_refs`]) that it picks.
pub fn relative_links(body: &str, first_line: u32, wanted: impl Fn(&str) -> bool) -> Vec<BodyLink> {
    relative_links_in(body, first_line, wanted, |_| true)
}

/// [`relative_links`], where a path written outside links is asked about only when `folder`
/// picks its first folder (a caller that reports only paths into the skill's own folders
/// need not look up the others).
pub fn relative_links_in(
    body: &str,
    first_line: u32,
    wanted: impl Fn(&str) -> bool,
    folder: impl Fn(&str) -> bool,
) -> Vec<BodyLink> {
    if body.len() > MAX_LINK_SCAN_BYTES {
        return Vec::new();
    }
    // One cache for both: the text often names a file it also links.
    let judged = RefCell::default();
    let wanted = |target: &str| judged_once(&judged, target, &wanted);
    let mut out = judged_link_targets(body, first_line, &wanted);
    // Each first folder asked about once (the caller may look it up on disk). A run of the
    // text is passed over only for a folder already known not to be picked: asking about a
    // run's folder would look up folders no path is written into.
    let folders = RefCell::new(crate::vecmap::VecMap::<String, bool>::new());
    let known = |first: &str| folders.borrow().get(first).copied();
    let picked = |first: &str| {
        known(first).unwrap_or_else(|| {
            let picked = folder(first);
            folders.borrow_mut().insert(first.to_owned(), picked);
            picked
        })
    };
    let may_be_picked = |first: &str| known(first).unwrap_or(true);
    out.extend(path_refs_in(
        body,
        first_line,
        may_be_picked,
        |path: &str| picked(first_folder(path).unwrap_or(path)) && wanted(path),
    ));
    out
}

/// The part of `path` before its first `/`, if it has one. A byte search: this is asked of
/// every path a body names, and a `char` search costs more than these short paths.
pub(crate) fn first_folder(path: &str) -> Option<&str> {
    path.bytes().position(|b| b == b'/').map(|i| &path[..i])
}

/// `wanted(target)`, asked once per target: callers' judgements look at the file system.
fn judged_once(
    judged: &RefCell<HashMap<String, bool, foldhash::fast::RandomState>>,
    target: &str,
    wanted: &impl Fn(&str) -> bool,
) -> bool {
    if let Some(&w) = judged.borrow().get(target) {
        return w;
    }
    let w = wanted(target);
    judged.borrow_mut().insert(target.to_owned(), w);
    w
}

/// Relative link and image targets of `body` (whose first line is `first_line` of the file)
/// that `wanted` picks. Callers ask only for the targets that matter to them (say, those
/// missing on disk): a body is parsed only when a target written in it literally is wanted or
/// cannot be read without the parser, so bodies whose links are all fine cost a scan, not a
/// parse. The result is exactly the parser's links, filtered by `wanted`.
pub fn link_targets(body: &str, first_line: u32, wanted: impl Fn(&str) -> bool) -> Vec<BodyLink> {
    if body.len() > MAX_LINK_SCAN_BYTES {
        return Vec::new();
    }
    // Each target judged once: a body often links one file several times.
    let judged = RefCell::default();
    judged_link_targets(body, first_line, &|target: &str| {
        judged_once(&judged, target, &wanted)
    })
}

/// [`link_targets`], with `wanted` already asking once per target.
fn judged_link_targets(
    body: &str,
    first_line: u32,
    wanted: &impl Fn(&str) -> bool,
) -> Vec<BodyLink> {
    if !may_link(body, wanted) {
        return Vec::new();
    }
    let mut links = parse_links(body, first_line);
    links.retain(|l| wanted(&l.target));
    links
}

/// Could `body` hold a link to a relative file that `wanted` picks? Every link target a
/// parser can report follows `](` (inline links and images) or `]:` (reference definitions)
/// literally, so a body where no such target is wanted needs no parse. Errs towards "yes": a
/// target that a parser would read differently from its text (escapes and entities are
/// decoded, balanced parentheses belong to it) always counts.
fn may_link(body: &str, wanted: &impl Fn(&str) -> bool) -> bool {
    let bytes = body.as_bytes();
    let counts = |t: &str| {
        t.bytes().any(|b| matches!(b, b'\\' | b'&' | b'('))
            || local_target(t).is_some_and(|t| wanted(&t))
    };
    memchr::memchr_iter(b']', bytes).any(|i| match bytes.get(i + 1) {
        Some(b'(') => {
            raw_target(&body[i + 2..], |b| is_blank(b) || b == b')').is_some_and(|(t, _)| counts(t))
        }
        Some(b':') => {
            may_define(body, i)
                && raw_target(&body[i + 2..], is_blank)
                    .is_some_and(|(t, rest)| ends_definition(rest) && counts(t))
        }
        _ => false,
    })
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

/// The literal target text after `](` or `]:`, and the text after it: leading blanks
/// skipped, then `<...>` or the text up to the first byte `ends` picks (an inline link's
/// target also ends at `)`; a definition's only at a blank, so `[r]: x(y).md` defines
/// `x(y).md`). Bytes, not `char` searches: this runs at every `](` of every body. Every
/// byte it splits at is ASCII, so each part is a `str`.
fn raw_target(after: &str, ends: impl Fn(u8) -> bool) -> Option<(&str, &str)> {
    let b = after.as_bytes();
    let start = b.iter().position(|&c| !is_blank(c)).unwrap_or(b.len());
    let t = &after[start..];
    let (target, rest) = match t.strip_prefix('<') {
        Some(inner) => {
            let end = inner
                .bytes()
                .position(|c| c == b'>' || c == b'\n')
                .unwrap_or(inner.len());
            (
                &inner[..end],
                inner[end..].strip_prefix('>').unwrap_or(&inner[end..]),
            )
        }
        None => t.split_at(t.bytes().position(ends).unwrap_or(t.len())),
    };
    (!target.is_empty()).then_some((target, rest))
}

/// Every relative link and image target, by a full CommonMark parse.
fn parse_links(body: &str, first_line: u32) -> Vec<BodyLink> {
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
            out.push(BodyLink {
                target,
                pos: Pos::new(line.saturating_add(first_line.saturating_sub(1)), column),
                kind: RefKind::Link,
            });
        }
    }
    out
}

/// Paths into the skill's folder that `body` writes outside Markdown links, as a whole code
/// span (`` `scripts/run.sh` ``) or as a word of the text, that `wanted` picks. Only what looks
/// like a relative file path counts: a `/`, a file extension, path characters only (no
/// blanks, globs, `<`, `{`, `$` or `:`), not absolute, not `./`-less `../`. Fenced code blocks
/// hold example commands and are skipped, as are link syntax and reference definitions
/// (links are [`link_targets`]'). No Markdown parse: only lines with a slash are looked at,
/// and only those whose slashes may start a path are split into words.
pub fn path_refs(body: &str, first_line: u32, wanted: impl Fn(&str) -> bool) -> Vec<BodyLink> {
    path_refs_in(body, first_line, |_| true, wanted)
}

/// [`path_refs`], where `folder` picks every first folder a wanted path may have (it may pick
/// more): a line is split into words only when one of its runs of path characters is into a
/// folder it picks.
fn path_refs_in(
    body: &str,
    first_line: u32,
    folder: impl Fn(&str) -> bool,
    wanted: impl Fn(&str) -> bool,
) -> Vec<BodyLink> {
    let bytes = body.as_bytes();
    // Found only once a path is wanted: most bodies' fences are never needed.
    let fenced = std::cell::OnceCell::new();
    let mut out = Vec::new();
    let mut tokens = Vec::new();
    // Lines are found from the slashes: most lines have none and are never looked at.
    let mut next_line = 0;
    let (mut counted_to, mut line_no) = (0, first_line);
    // Each search starts past what the slash before settled (its run, or its line): the
    // other slashes of a URL, or of a line already split, are not stopped at.
    while let Some(slash) = bytes
        .get(next_line..)
        .and_then(|rest| memchr::memchr(b'/', rest))
        .map(|i| next_line + i)
    {
        // Every arm moves `next_line` past the slash: its run holds it.
        match may_name_path(bytes, slash) {
            // Most paths of the text are into the user's folders, not the skill's.
            Ok((run, run_end)) if !folder(first_folder_of_run(&body[run..run_end])) => {
                next_line = run_end;
                continue;
            }
            Ok(_) => {}
            Err(run_end) => {
                // The run's other slashes share its start and its end.
                next_line = run_end;
                continue;
            }
        }
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
        for &(at, token, kind) in &tokens {
            let Some(path) = path_like(token) else {
                continue;
            };
            if !wanted(path) {
                continue;
            }
            // Fenced code blocks hold example commands, not the skill's files. They are found
            // only once a path is wanted, which most bodies never have.
            let fenced = fenced.get_or_init(|| fenced_blocks(body));
            if fenced.iter().any(|&(from, to)| (from..to).contains(&start)) {
                break;
            }
            let newlines = memchr::memchr_iter(b'\n', &bytes[counted_to..start]).count();
            line_no = line_no.saturating_add(u32::try_from(newlines).unwrap_or(u32::MAX));
            counted_to = start;
            // The path is a slice of the token: its place, past any punctuation.
            let skipped = (path.as_ptr() as usize).saturating_sub(token.as_ptr() as usize);
            let column = line[..at + skipped].chars().count() + 1;
            out.push(BodyLink {
                target: path.to_owned(),
                pos: Pos::new(line_no, u32::try_from(column).unwrap_or(u32::MAX)),
                kind,
            });
        }
    }
    out
}

/// The byte ranges of `body`'s fenced code blocks, from the opening fence line's start to the
/// closing one's end (or the end of the body). Found from the ``` and ~~~ in it: the lines
/// of a body without any are never looked at.
fn fenced_blocks(body: &str) -> Vec<(usize, usize)> {
    // Built once: a searcher's set-up cost more than most bodies' search.
    static FENCES: std::sync::LazyLock<[memchr::memmem::Finder<'static>; 2]> =
        std::sync::LazyLock::new(|| {
            [
                memchr::memmem::Finder::new(b"```"),
                memchr::memmem::Finder::new(b"~~~"),
            ]
        });
    let bytes = body.as_bytes();
    let [backticks, tildes] = &*FENCES;
    let mut fences: Vec<usize> = backticks
        .find_iter(bytes)
        .chain(tildes.find_iter(bytes))
        .filter_map(|i| {
            // A fence opens its line, after indentation or block quote markers; most are at
            // the line's start.
            if i == 0 || bytes[i - 1] == b'\n' {
                return Some(i);
            }
            let start = memchr::memrchr(b'\n', &bytes[..i]).map_or(0, |n| n + 1);
            bytes[start..i]
                .iter()
                .all(|b| matches!(b, b' ' | b'\t' | b'>'))
                .then_some(start)
        })
        .collect();
    fences.sort_unstable();
    fences.dedup();
    let mut out = Vec::new();
    let mut open: Option<(usize, u8, usize)> = None;
    for start in fences {
        let end = memchr::memchr(b'\n', &bytes[start..]).map_or(bytes.len(), |i| start + i);
        let line = body[start..end].trim_end_matches('\r');
        let trimmed = line.trim_start_matches([' ', '\t', '>']);
        let Some(run) = fence_run(trimmed) else {
            continue;
        };
        let c = trimmed.as_bytes()[0];
        match open {
            // A closing fence: as long as the opening one at least, and nothing after it.
            Some((from, oc, len)) if oc == c && run >= len && trimmed[run..].trim().is_empty() => {
                out.push((from, end + 1));
                open = None;
            }
            Some(_) => {}
            None => open = Some((start, c, run)),
        }
    }
    if let Some((from, _, _)) = open {
        out.push((from, bytes.len() + 1));
    }
    out
}

/// Could the slash at `slash` in `text` be part of a path [`path_like`] accepts? Most are
/// not: they sit in link targets (`](references/a.md)`), URLs (`https://`) and tool names
/// (`github/create_issue`), and a line with no other slash needs no splitting. A slash's run
/// of path characters is kept whole by the split (no line break is one), so the byte before
/// it is in its word or code span: unless it starts one (a blank, a backtick, a line's start)
/// or is punctuation that is trimmed off, the path cannot be. And the file name, with its
/// extension, follows the slash in the same run. `Ok` holds where the run starts and ends,
/// `Err` where it ends.
fn may_name_path(text: &[u8], slash: usize) -> Result<(usize, usize), usize> {
    let run = text[..slash]
        .iter()
        .rposition(|&b| !is_path_byte(b))
        .map_or(0, |i| i + 1);
    let starts = match run.checked_sub(1).map(|i| text[i]) {
        None | Some(b'\n' | b' ' | b'\t' | b'`' | b'[' | b'"' | b'\'' | b'*' | b'|') => true,
        // `](` opens a link target, which the link reader has.
        Some(b'(') => run < 2 || text[run - 2] != b']',
        Some(_) => false,
    };
    // One loop finds the run's end and whether a `.` follows the slash in it: runs are
    // short, and a search per run cost more than the bytes it crossed.
    let mut dot = false;
    let mut end = text.len();
    for (i, &b) in text[slash..].iter().enumerate() {
        if !is_path_byte(b) {
            end = slash + i;
            break;
        }
        dot |= b == b'.';
    }
    if starts && dot {
        Ok((run, end))
    } else {
        Err(end)
    }
}

/// The first folder of the path a run of path characters (see [`may_name_path`]) would be:
/// [`path_like`] trims the `_` before it and drops one `./`, and the run holds nothing else
/// before the path (the other characters trimmed off a word are no path characters).
fn first_folder_of_run(run: &str) -> &str {
    let r = run.trim_start_matches('_');
    let r = r.strip_prefix("./").unwrap_or(r);
    first_folder(r).unwrap_or(r)
}

/// The bytes [`path_like`] allows in a path.
fn is_path_byte(b: u8) -> bool {
    // A table: this is asked of every byte around every slash of every body.
    const PATH_BYTES: [bool; 256] = {
        let mut t = [false; 256];
        let mut b = 0;
        while b < 256 {
            let c = b as u8;
            t[b] =
                c.is_ascii_alphanumeric() || matches!(c, b'.' | b'_' | b'-' | b'/' | b'+' | b'@');
            b += 1;
        }
        t
    };
    PATH_BYTES[usize::from(b)]
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
    // Bytes, not `str` searches: this is asked of every word with a slash in every body,
    // and a `char` search costs more than these short words.
    // A word holding a link's `](` is never a path: the `]` cannot be trimmed off its start,
    // nor the `(` off its end, so one of them stays in the path, which allows neither.
    let b = token.as_bytes();
    // Punctuation is ASCII, so the trimmed ends are character boundaries.
    let from = b
        .iter()
        .position(|c| !matches!(c, b'(' | b'[' | b'"' | b'\'' | b'*' | b'_' | b'|'))
        .unwrap_or(b.len());
    let to = b[from..]
        .iter()
        .rposition(|c| {
            !matches!(
                c,
                b')' | b']'
                    | b'"'
                    | b'\''
                    | b'*'
                    | b'_'
                    | b'|'
                    | b','
                    | b';'
                    | b':'
                    | b'.'
                    | b'!'
                    | b'?'
            )
        })
        .map_or(from, |i| from + i + 1);
    let t = &token[from..to];
    let t = t.strip_prefix("./").unwrap_or(t);
    let tb = t.as_bytes();
    if tb.first() == Some(&b'.') || !tb.iter().all(|&c| is_path_byte(c)) {
        return None;
    }
    let slash = tb.iter().rposition(|&c| c == b'/')?;
    let (dirs, file) = (&tb[..slash], &tb[slash + 1..]);
    // Every folder named: none empty, `.` or `..` (which also rules out no folder at all).
    if dirs
        .split(|&c| c == b'/')
        .any(|d| d.is_empty() || d == b"." || d == b"..")
    {
        return None;
    }
    let dot = file.iter().rposition(|&c| c == b'.')?;
    let (stem, ext) = (&t[slash + 1..slash + 1 + dot], &file[dot + 1..]);
    let ext_ok = (1..=10).contains(&ext.len())
        && ext.iter().all(u8::is_ascii_alphanumeric)
        && ext.iter().any(u8::is_ascii_alphabetic);
    (!stem.is_empty() && ext_ok && !placeholder(stem)).then_some(t)
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
/// line search resumes where the last one stopped.
struct Lines<'a> {
    text: &'a str,
    line: u32,
    line_start: usize,
}

impl<'a> Lines<'a> {
    fn new(text: &'a str) -> Self {
        Lines {
            text,
            line: 1,
            line_start: 0,
        }
    }

    fn position(&mut self, offset: usize) -> (u32, u32) {
        let offset = offset.min(self.text.len());
        if offset < self.line_start {
            // Out of order (not expected from the parser): count again from the top.
            *self = Lines::new(self.text);
        }
        let skipped = &self.text.as_bytes()[self.line_start..offset];
        let newlines = memchr::memchr_iter(b'\n', skipped).count();
        self.line = self
            .line
            .saturating_add(u32::try_from(newlines).unwrap_or(u32::MAX));
        if let Some(last) = memchr::memrchr(b'\n', skipped) {
            self.line_start += last + 1;
        }
        let column = self
            .text
            .get(self.line_start..offset)
            .map_or(1, |s| s.chars().count() + 1);
        (self.line, u32::try_from(column).unwrap_or(u32::MAX))
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

    #[test]
    fn finds_links_and_images_with_file_lines() {
        let body = "# T\n\nSee [ref](references/a.md#x) and ![img](assets/b%20c.png).\n\n`[no](code.md)`\n\n[web](https://x.y) [anchor](#top)\n";
        let links = relative_links(body, 5, |_| true);
        let targets: Vec<_> = links
            .iter()
            .map(|l| (l.target.as_str(), l.pos.line))
            .collect();
        assert_eq!(targets, [("references/a.md", 7), ("assets/b c.png", 7)]);
        let links = relative_links("Voir é é é [guide](x.md)\n", 5, |_| true);
        assert_eq!(links[0].pos, Pos::new(5, 12), "columns count characters");
    }

    #[test]
    fn reference_links_are_placed_where_they_are_used() {
        let body = "[missing]: docs/a.md\n\nUse [missing] too.\n<https://x.y> <me@x.y> [c](b.md)\n";
        let got: Vec<_> = relative_links(body, 1, |_| true)
            .into_iter()
            .map(|l| (l.target, l.pos.line, l.pos.column))
            .collect();
        assert_eq!(
            got,
            [("docs/a.md".to_owned(), 3, 5), ("b.md".to_owned(), 4, 24)],
            "autolinks and e-mail addresses are not file links"
        );
        // A definition's destination may hold parentheses: only a blank ends it.
        let got = relative_links("[r]: x(y).md\n\n[r]\n", 1, |t| t == "x(y).md");
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
        let got = relative_links("[a](here.md) [b](gone.md)\n", 1, missing);
        assert_eq!(got.len(), 1);
        assert_eq!((got[0].target.as_str(), got[0].pos.column), ("gone.md", 14));
    }

    #[test]
    fn each_target_is_judged_once() {
        let asked = std::cell::RefCell::new(Vec::new());
        let body = "[a](x.md) [b](y.md) [c](x.md) ![d](\\x.md)\n\n[e]: x.md\n";
        let got = relative_links(body, 1, |t| {
            asked.borrow_mut().push(t.to_owned());
            t == "x.md"
        });
        assert_eq!(asked.into_inner(), ["x.md", "y.md"]);
        let lines: Vec<_> = got
            .iter()
            .map(|l| (l.target.as_str(), l.pos.column))
            .collect();
        assert_eq!(lines, [("x.md", 1), ("x.md", 21)]);
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
            let mut expected = parse_links(&body, 1);
            expected.retain(|l| wanted(&l.target));
            proptest::prop_assert_eq!(relative_links(&body, 1, wanted), expected);
        }
    }

    /// `path_like` written with `str` searches, as it first was: the reference the byte
    /// version is checked against.
    fn path_like_by_str(token: &str) -> Option<&str> {
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

    proptest::proptest! {
        /// The byte version accepts the same words, with the same path.
        #[test]
        fn path_like_agrees_with_the_str_version(
            lead in proptest::prop_oneof![
                1 => proptest::strategy::Just("./".to_owned()),
                1 => proptest::strategy::Just("](".to_owned()),
                4 => "[(\\[\"'*_|.]{0,2}",
            ],
            folders in proptest::collection::vec(
                proptest::prop_oneof![
                    1 => proptest::strategy::Just(String::new()),
                    1 => proptest::strategy::Just(".".to_owned()),
                    1 => proptest::strategy::Just("..".to_owned()),
                    3 => proptest::strategy::Just("references".to_owned()),
                    1 => proptest::strategy::Just("é".to_owned()),
                    1 => proptest::strategy::Just("a](b".to_owned()),
                    6 => "[a-zA-Z0-9_.@+-]{1,3}",
                ],
                0..4,
            ),
            file in proptest::prop_oneof![
                proptest::strategy::Just("file.md".to_owned()),
                proptest::strategy::Just("guide.md".to_owned()),
                proptest::strategy::Just("stepN.sh".to_owned()),
                proptest::strategy::Just("run.12345678901".to_owned()),
                proptest::strategy::Just("x.1".to_owned()),
                proptest::strategy::Just("x.abcdefghij".to_owned()),
                proptest::strategy::Just("x.abcdefghijk".to_owned()),
                proptest::strategy::Just("a](b.md".to_owned()),
                proptest::strategy::Just("a.tar.gz".to_owned()),
                proptest::strategy::Just("v1.2.md".to_owned()),
                "[a-zA-Z0-9_.é-]{0,6}",
            ],
            tail in "[)\\]\"'*_|,;:.!?]{0,2}",
            noise in "[()\\[\\]\"'*_|,;:.!?/a-zA-Z0-9@+-]{0,12}",
        ) {
            let mut parts = folders;
            parts.push(file);
            let token = format!("{lead}{}{tail}", parts.join("/"));
            proptest::prop_assert_eq!(path_like(&token), path_like_by_str(&token), "{:?}", token);
            proptest::prop_assert_eq!(path_like(&noise), path_like_by_str(&noise), "{:?}", noise);
        }

        /// Picking first folders at the runs finds what picking them at the paths does.
        #[test]
        fn runs_into_other_folders_hide_no_path(parts in proptest::collection::vec(
            proptest::prop_oneof![
                proptest::strategy::Just("references/".to_owned()),
                proptest::strategy::Just("src/".to_owned()),
                proptest::strategy::Just("_".to_owned()),
                proptest::strategy::Just("./".to_owned()),
                proptest::strategy::Just("x.md".to_owned()),
                proptest::strategy::Just("`".to_owned()),
                proptest::strategy::Just("\n".to_owned()),
                "[ ()\\[\\]\"'*|,.:/a-z]{0,3}",
            ],
            0..16,
        )) {
            let body = parts.concat();
            let picked = |first: &str| first == "references" || first == "_x";
            let at_paths = path_refs(&body, 1, |p| picked(first_folder(p).unwrap_or(p)));
            let at_runs = path_refs_in(&body, 1, picked, |p| picked(first_folder(p).unwrap_or(p)));
            proptest::prop_assert_eq!(at_runs, at_paths);
        }

        /// A line the slash pre-check passes over holds nothing `path_like` accepts.
        #[test]
        fn lines_passed_over_name_no_path(parts in proptest::collection::vec(
            proptest::prop_oneof![
                proptest::strategy::Just("](".to_owned()),
                proptest::strategy::Just("(".to_owned()),
                proptest::strategy::Just(" ".to_owned()),
                proptest::strategy::Just("`".to_owned()),
                proptest::strategy::Just("``".to_owned()),
                proptest::strategy::Just("https://".to_owned()),
                proptest::strategy::Just("./".to_owned()),
                proptest::strategy::Just("../".to_owned()),
                proptest::strategy::Just("scripts/run.sh".to_owned()),
                proptest::strategy::Just("a/b.md".to_owned()),
                "[ \t()\\[\\]\"'*_|,;:.!?<>{}$=#~/a-z0-9@+-]{0,3}",
            ],
            0..8,
        )) {
            let line = parts.concat();
            let slashes: Vec<usize> = memchr::memchr_iter(b'/', line.as_bytes()).collect();
            if !slashes.is_empty()
                && slashes.iter().all(|&i| may_name_path(line.as_bytes(), i).is_err())
            {
                let mut tokens = Vec::new();
                line_tokens(&line, &mut tokens);
                for (_, token, _) in tokens {
                    proptest::prop_assert_eq!(path_like(token), None, "{:?} in {:?}", token, line);
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
        let got: Vec<(String, u32, u32, RefKind)> = path_refs(body, 10, |_| true)
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
        let all = relative_links("See [a](references/a.md) and `scripts/b.sh`.\n", 1, |_| {
            true
        });
        let kinds: Vec<RefKind> = all.iter().map(|l| l.kind).collect();
        assert_eq!(kinds, [RefKind::Link, RefKind::Code]);
        assert_eq!(link_targets("`scripts/b.sh`\n", 1, |_| true), []);
    }

    #[test]
    fn fences_close_only_on_a_long_enough_run_of_their_own_character() {
        let body = "````md\n```\nscripts/inner.sh\n```\n````\nscripts/after.sh\n\
> ```\n> scripts/quoted.sh\n> ```\n~~~\n```\nscripts/unclosed.sh\n";
        let got: Vec<(String, u32)> = path_refs(body, 1, |_| true)
            .into_iter()
            .map(|l| (l.target, l.pos.line))
            .collect();
        assert_eq!(got, [("scripts/after.sh".to_owned(), 6)]);
    }

    /// Fences are found once a path is wanted, wherever the fence stands: indented, quoted,
    /// or at the very start of the body, before or after the first path wanted.
    #[test]
    fn fences_found_late_still_hold_their_paths() {
        let body = "```\nscripts/first.sh\n```\nscripts/skipped.sh\n  ```sh\n  scripts/in.sh\n  ```\n\
scripts/out.sh\n> ~~~\n> references/quoted.md\n> ~~~\nreferences/last.md\n";
        let wanted = |t: &str| t != "scripts/skipped.sh";
        let got: Vec<(String, u32)> = path_refs(body, 1, wanted)
            .into_iter()
            .map(|l| (l.target, l.pos.line))
            .collect();
        let want = |t: &str, line| (t.to_owned(), line);
        assert_eq!(
            got,
            [want("scripts/out.sh", 8), want("references/last.md", 12)]
        );
    }

    /// A path of the text is asked about only when its first folder is picked; links are
    /// asked about whatever their folder.
    #[test]
    fn text_paths_are_asked_about_only_in_the_folders_picked() {
        let body = "[l](src/linked.md) `src/code.sh` scripts/run.sh Scripts/Other.sh\n";
        let asked = RefCell::new(Vec::new());
        let got: Vec<String> = relative_links_in(
            body,
            1,
            |t| {
                asked.borrow_mut().push(t.to_owned());
                true
            },
            |first| first.eq_ignore_ascii_case("scripts"),
        )
        .into_iter()
        .map(|l| l.target)
        .collect();
        assert_eq!(got, ["src/linked.md", "scripts/run.sh", "Scripts/Other.sh"]);
        assert!(
            !asked.borrow().iter().any(|t| t == "src/code.sh"),
            "{asked:?}"
        );
        // Each first folder is asked about once, and only for a path: not for `docs`, whose
        // only run names a placeholder.
        let folders = RefCell::new(Vec::new());
        relative_links_in(
            "src/a.md and src/b.md, docs/file.md\n`src/c.md`\n",
            1,
            |_| true,
            |first| {
                folders.borrow_mut().push(first.to_owned());
                false
            },
        );
        assert_eq!(*folders.borrow(), ["src"]);
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
