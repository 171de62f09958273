//! The code spans of our messages, read as CommonMark reads them: a span opens with a run of
//! backticks and closes at the next run of as many, so a name with backticks in it is quoted
//! in a longer fence (`diagnostic::quote`). Every renderer that shows names as code, and
//! everything that looks inside quoted names, reads a message through [`pieces`].

use std::borrow::Cow;
use std::collections::{HashMap, VecDeque};

/// A part of a message: text of ours, or a quoted name.
#[derive(Debug, Clone, Copy)]
pub(crate) enum Piece<'a> {
    Text(&'a str),
    /// A code span: the name it quotes, and the span as written, fences included.
    Code {
        name: &'a str,
        raw: &'a str,
    },
}

impl<'a> Piece<'a> {
    /// The piece as written in the message.
    pub(crate) fn raw(&self) -> &'a str {
        match self {
            Piece::Text(t) => t,
            Piece::Code { raw, .. } => raw,
        }
    }
}

/// `text` cut into text and code spans. A run of backticks that no run of as many closes is
/// text, as in CommonMark.
pub(crate) fn pieces(text: &str) -> Vec<Piece<'_>> {
    let bytes = text.as_bytes();
    // Every run of backticks: where it starts and how long it is.
    let mut runs: Vec<(usize, usize)> = Vec::new();
    let mut i = 0;
    while let Some(at) = memchr::memchr(b'`', &bytes[i..]) {
        let start = i + at;
        let len = bytes[start..].iter().take_while(|b| **b == b'`').count();
        runs.push((start, len));
        i = start + len;
    }
    if runs.is_empty() {
        return if text.is_empty() {
            Vec::new()
        } else {
            vec![Piece::Text(text)]
        };
    }
    // The runs of each length, in order, to find a closer without searching the rest each time.
    let mut by_len: HashMap<usize, VecDeque<usize>> = HashMap::new();
    for (r, (_, len)) in runs.iter().enumerate() {
        by_len.entry(*len).or_default().push_back(r);
    }
    let mut out = Vec::new();
    let mut text_from = 0;
    let mut r = 0;
    while r < runs.len() {
        let (start, len) = runs[r];
        let Some(queue) = by_len.get_mut(&len) else {
            r += 1;
            continue;
        };
        while queue.front().is_some_and(|&q| q <= r) {
            queue.pop_front();
        }
        let Some(&close) = queue.front() else {
            r += 1;
            continue;
        };
        if text_from < start {
            out.push(Piece::Text(&text[text_from..start]));
        }
        let end = runs[close].0;
        out.push(Piece::Code {
            name: unpadded(&text[start + len..end]),
            raw: &text[start..end + len],
        });
        text_from = end + len;
        r = close + 1;
    }
    if text_from < text.len() {
        out.push(Piece::Text(&text[text_from..]));
    }
    out
}

/// A span's content less the space CommonMark takes off each end when both ends have one.
fn unpadded(content: &str) -> &str {
    match content.strip_prefix(' ').and_then(|c| c.strip_suffix(' ')) {
        Some(inner) if !content.trim_start_matches(' ').is_empty() => inner,
        _ => content,
    }
}

/// How many names of a list a Markdown or HTML cell shows.
pub(crate) const LIST_HEAD: usize = 10;

/// `text` with each list of more than `head` + 2 quoted names (names quoted one after the
/// other, `, ` between them) cut to its first `head` and how many more there are: "`a`, `b`
/// and 1,998 more". For a table cell, which would otherwise grow with every name a reason
/// lists; the JSON report keeps them all.
pub(crate) fn shorten_lists(text: &str, head: usize) -> Cow<'_, str> {
    let head = head.max(1);
    let pieces = pieces(text);
    // Each list as the indices of its first and last name.
    let mut lists: Vec<(usize, usize)> = Vec::new();
    let mut i = 0;
    while i < pieces.len() {
        if !matches!(pieces[i], Piece::Code { .. }) {
            i += 1;
            continue;
        }
        let mut last = i;
        while matches!(pieces.get(last + 1), Some(Piece::Text(", ")))
            && matches!(pieces.get(last + 2), Some(Piece::Code { .. }))
        {
            last += 2;
        }
        if (last - i) / 2 + 1 > head + 2 {
            lists.push((i, last));
        }
        i = last + 1;
    }
    if lists.is_empty() {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len().min(4096));
    let mut at = 0;
    for (first, last) in lists {
        for p in &pieces[at..first + 2 * head - 1] {
            out.push_str(p.raw());
        }
        let more = (last - first) / 2 + 1 - head;
        out.push_str(" and ");
        out.push_str(&crate::diagnostic::thousands(more));
        out.push_str(" more");
        at = last + 1;
    }
    for p in &pieces[at..] {
        out.push_str(p.raw());
    }
    Cow::Owned(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::diagnostic::{quote, quoted};

    fn names(text: &str) -> Vec<&str> {
        pieces(text)
            .into_iter()
            .filter_map(|p| match p {
                Piece::Code { name, .. } => Some(name),
                Piece::Text(_) => None,
            })
            .collect()
    }

    #[test]
    fn every_name_quoted_reads_back_whole() {
        let hostile = [
            "plain",
            "tick`tick",
            "`",
            "``",
            "`lead",
            "trail`",
            "a``b`c",
            " spaced ",
            " ",
            "  ",
            " `x` ",
            "p<&>`",
        ];
        for name in hostile {
            let message = format!("missing {} and {}, then text", quote(name), quote("b"));
            assert_eq!(names(&message), [name, "b"], "{message}");
            let text: String = pieces(&message)
                .iter()
                .filter_map(|p| match p {
                    Piece::Text(t) => Some(*t),
                    Piece::Code { .. } => None,
                })
                .collect();
            assert_eq!(text, "missing  and , then text", "{message}");
        }
        assert_eq!(names(&quoted(&["tick`tick", "b"])), ["tick`tick", "b"]);
        // An empty name reads back blank, and closes no other span.
        assert_eq!(names(&quoted(&["", "a`b", ""])), [" ", "a`b", " "]);
        // Names without backticks are quoted as they always were.
        assert_eq!(quoted(&["a", "b"]), "`a`, `b`");
        assert_eq!(quote("tick`tick"), "`` tick`tick ``");
    }

    #[test]
    fn long_lists_keep_their_head_and_count_the_rest() {
        let list: Vec<String> = (0..2000).map(|i| format!("t{i}")).collect();
        let reason = format!(
            "missing tools {} (inferred); no tool of {} is available",
            quoted(&list),
            quoted(&list[..3])
        );
        assert_eq!(
            shorten_lists(&reason, 2),
            "missing tools `t0`, `t1` and 1,998 more (inferred); no tool of `t0`, `t1`, `t2` is available"
        );
        // Cutting saves nothing until more than two would be left out.
        let four = quoted(&list[..4]);
        assert!(matches!(shorten_lists(&four, 2), Cow::Borrowed(_)));
        assert_eq!(
            shorten_lists(&quoted(&list[..5]), 2),
            "`t0`, `t1` and 3 more"
        );
        let ticks = quoted(&["a`b", "c", "d", "e"]);
        assert_eq!(shorten_lists(&ticks, 1), "`` a`b `` and 3 more");
    }
}
