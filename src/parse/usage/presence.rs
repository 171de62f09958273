//! Where a shell text has made sure a command is there before it runs it (`if command -v
//! jq >/dev/null; then jq ...; fi`, `command -v jq >/dev/null && jq ...`): there the command
//! runs only when present and the text goes on without it, so it is no need. A text that
//! stops when the command is missing (`if ! command -v jq ...; then exit 1`, or an `else`
//! that exits) does need it, and keeps it.

use super::shell::{command_word, segments, words};
use super::span_holding;

/// A place in a shell text: the index of its logical line and a byte of that line.
type At = (usize, usize);

/// The stretches of a text where a command is known to be there, by the command's name.
#[derive(Default)]
pub(super) struct Checked(foldhash::HashMap<String, Vec<(At, At)>>);

/// An `if` being read: the command its condition (or the current `elif`'s) found, from where,
/// and the stretch it made, once an `else` closes it, with whether that `else` exits.
struct Frame {
    open: Option<(String, At)>,
    closed: Option<usize>,
}

/// The words a presence test may start with: the shell has run nothing yet.
const LEADS: &[&str] = &["if", "elif", "then", "{", "(", "[[", "["];

impl Checked {
    pub(super) fn of(lines: &[&str]) -> Checked {
        let mut checked = Checked::default();
        let tests_any = lines.iter().any(|l| {
            ["command -v", "command -V", "which ", "type ", "hash "]
                .iter()
                .any(|t| l.contains(t))
        });
        if !tests_any {
            return checked;
        }
        // (name, from, to, void): `void` where an `else` of the test exits.
        let mut stretches: Vec<(String, At, At, bool)> = Vec::new();
        let mut frames: Vec<Frame> = Vec::new();
        for (li, &text) in lines.iter().enumerate() {
            let segs = segments(text);
            for (si, &(at, seg)) in segs.iter().enumerate() {
                let ws = words(seg);
                let Some(&(_, first)) = ws.first() else {
                    continue;
                };
                match first {
                    "if" | "elif" => {
                        if first == "elif"
                            && let Some(frame) = frames.last_mut()
                        {
                            close(frame, (li, at), &mut stretches);
                        }
                        let open =
                            condition_test(text, &segs[si..]).map(|n| (n.to_owned(), (li, at)));
                        if first == "if" {
                            frames.push(Frame { open, closed: None });
                        } else if let Some(frame) = frames.last_mut() {
                            frame.open = open;
                        }
                    }
                    "else" => {
                        if let Some(frame) = frames.last_mut() {
                            close(frame, (li, at), &mut stretches);
                        }
                    }
                    "fi" => {
                        if let Some(mut frame) = frames.pop() {
                            close(&mut frame, (li, at), &mut stretches);
                        }
                    }
                    _ => {
                        if let Some(name) = test(&ws) {
                            // `command -v jq >/dev/null && jq ...`, up to the next `;`.
                            let rest = &text[at + seg.len()..];
                            let and = rest.find("&&");
                            let or = rest.find("||");
                            let semi = rest.find(';');
                            if and.is_some_and(|a| {
                                or.is_none_or(|o| a < o) && semi.is_none_or(|s| a < s)
                            }) {
                                let end = semi.map_or(usize::MAX, |s| at + seg.len() + s);
                                stretches.push((name.to_owned(), (li, at), (li, end), false));
                            }
                        }
                    }
                }
                // An `else` that exits: the command the `if` tested was needed after all.
                if command_word(&ws).is_some_and(|k| ws[k].1 == "exit")
                    && let Some(Frame {
                        open: None,
                        closed: Some(i),
                    }) = frames.last()
                {
                    stretches[*i].3 = true;
                }
            }
        }
        for (name, from, to, void) in stretches {
            if !void {
                checked.0.entry(name).or_default().push((from, to));
            }
        }
        for spans in checked.0.values_mut() {
            spans.sort_unstable();
            // Nested tests of one command overlap: merged, they can be halved.
            let mut merged: Vec<(At, At)> = Vec::with_capacity(spans.len());
            for &(from, to) in spans.iter() {
                match merged.last_mut() {
                    Some(last) if from <= last.1 => last.1 = last.1.max(to),
                    _ => merged.push((from, to)),
                }
            }
            *spans = merged;
        }
        checked
    }

    /// Whether the text has made sure `name` is there at `at`.
    pub(super) fn covers(&self, name: &str, at: At) -> bool {
        self.0
            .get(name)
            .is_some_and(|spans| span_holding(spans, at).is_some())
    }
}

/// Ends the stretch a frame's test opened, at `at`.
fn close(frame: &mut Frame, at: At, stretches: &mut Vec<(String, At, At, bool)>) {
    if let Some((name, from)) = frame.open.take() {
        frame.closed = Some(stretches.len());
        stretches.push((name, from, at, false));
    } else {
        frame.closed = None;
    }
}

/// The command whose presence an `if`'s or `elif`'s condition makes sure of: a test in it,
/// where nothing negates it and no `||` offers another way in. `segs` start at the `if`.
fn condition_test<'t>(text: &str, segs: &[(usize, &'t str)]) -> Option<&'t str> {
    let start = segs.first()?.0;
    let mut found = None;
    for (i, &(at, seg)) in segs.iter().enumerate() {
        let ws = words(seg);
        if i > 0 && ws.first().is_some_and(|w| w.1 == "then") {
            let condition = &text[start..at];
            return found.filter(|_| !condition.contains('!') && !condition.contains("||"));
        }
        if found.is_none() {
            found = test(&ws);
        }
    }
    let condition = &text[start..];
    found.filter(|_| !condition.contains('!') && !condition.contains("||"))
}

/// The command a simple command tests the presence of: `command -v jq`, `which jq`, `type -P
/// jq`, `hash jq`, after words that run nothing (`if`, `{`).
fn test<'t>(ws: &[(usize, &'t str)]) -> Option<&'t str> {
    let start = ws.iter().position(|w| !LEADS.contains(&w.1))?;
    let name = match &ws[start..] {
        [(_, "command"), (_, "-v" | "-V"), (_, name), ..]
        | [(_, "type"), (_, "-p" | "-P" | "-t"), (_, name), ..]
        | [(_, "which" | "type" | "hash"), (_, name), ..] => *name,
        _ => return None,
    };
    let name = name.trim_matches(['"', '\'']);
    (!name.is_empty() && !name.starts_with(['-', '$'])).then_some(name)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn checked(text: &str) -> Checked {
        let lines: Vec<&str> = text.lines().collect();
        Checked::of(&lines)
    }

    #[test]
    fn a_command_tested_in_an_if_is_there_until_its_else() {
        let c = checked(
            "if command -v jq &>/dev/null; then\n  jq .a f\nelse\n  python3 -c x\nfi\njq .b f",
        );
        assert!(c.covers("jq", (1, 2)));
        assert!(!c.covers("jq", (3, 2)), "the else runs without it");
        assert!(!c.covers("jq", (5, 0)), "after the fi");
        assert!(!c.covers("python3", (3, 2)));
    }

    #[test]
    fn a_negated_test_or_an_exiting_else_makes_no_stretch() {
        let c = checked("if ! command -v jq >/dev/null; then\n  exit 1\nfi\njq .");
        assert!(!c.covers("jq", (3, 0)));
        let c = checked("if which jq; then\n  jq .\nelse\n  echo need jq\n  exit 1\nfi");
        assert!(!c.covers("jq", (1, 2)));
        let c = checked("if command -v jq || command -v yq; then\n  jq .\nfi");
        assert!(!c.covers("jq", (1, 2)));
    }

    #[test]
    fn a_test_chained_with_and_covers_the_line_to_its_end() {
        let c = checked("command -v ffmpeg >/dev/null 2>&1 && ffmpeg -version || echo no");
        assert!(c.covers("ffmpeg", (0, 40)));
        let c = checked("{ command -v node && node --version; } ; node x.js");
        assert!(c.covers("node", (0, 20)));
        assert!(!c.covers("node", (0, 42)));
        let c = checked("command -v jq >/dev/null || { echo need jq; exit 1; }\njq .");
        assert!(!c.covers("jq", (1, 0)));
    }

    #[test]
    fn nested_ifs_and_elif_tests_are_each_their_own() {
        let c = checked(
            "if command -v pip &>/dev/null; then\n  if [ -f x ]; then\n    pip list\n  fi\n  pip show\nelif command -v gem &>/dev/null; then\n  gem list\nfi\ngem x",
        );
        assert!(c.covers("pip", (2, 4)));
        assert!(c.covers("pip", (4, 2)));
        assert!(!c.covers("pip", (6, 2)));
        assert!(c.covers("gem", (6, 2)));
        assert!(!c.covers("gem", (8, 0)));
    }

    #[test]
    fn a_one_line_if_covers_its_then_part() {
        let text =
            "if command -v timeout >/dev/null 2>&1; then timeout 5 x; else y; fi; timeout 1 z";
        let c = checked(text);
        assert!(c.covers("timeout", (0, text.find("timeout 5").unwrap())));
        assert!(!c.covers("timeout", (0, text.find("timeout 1").unwrap())));
    }
}
