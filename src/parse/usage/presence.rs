//! Where a shell text has made sure a command is there before it runs it (`if command -v
//! jq >/dev/null; then jq ...; fi`, `command -v jq >/dev/null && jq ...`): there the command
//! runs only when present and the text goes on without it, so it is no need. A text that
//! stops when the command is missing (`if ! command -v jq ...; then exit 1`, or an `else`
//! that exits) does need it, and keeps it. Nor is a command run only on one operating system
//! (`if [[ "$OSTYPE" == darwin* ]]; then vm_stat; else free; fi`) a need of every machine.

use super::shell::{command_word, segments, words};
use super::span_holding;

/// A place in a shell text: the index of its logical line and a byte of that line.
type At = (usize, usize);

/// The stretches of a text where a command is known to be there, by the command's name, and
/// those that run only on some operating systems.
#[derive(Default)]
pub(super) struct Checked {
    present: foldhash::HashMap<String, Vec<(At, At)>>,
    os: Vec<(At, At)>,
}

/// An `if` being read: the command its condition (or the current `elif`'s) found, from where,
/// and the stretch it made, once an `else` closes it, with whether that `else` exits; and
/// where a condition of its chain first tested the operating system.
struct Frame {
    open: Option<(String, At)>,
    closed: Option<usize>,
    os: Option<At>,
}

/// Whether a condition (or a `case` word) tests which operating system runs the text.
fn tests_os(text: &str) -> bool {
    text.contains("uname")
        || text.contains("OS") && ["OSTYPE", "$OS", "${OS}"].iter().any(|w| text.contains(w))
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
                || l.contains("uname")
                || l.contains("OS")
        });
        if !tests_any {
            return checked;
        }
        // (name, from, to, void): `void` where an `else` of the test exits.
        let mut stretches: Vec<(String, At, At, bool)> = Vec::new();
        let mut frames: Vec<Frame> = Vec::new();
        // Each open `case`, with where it started when its word is the operating system.
        let mut cases: Vec<Option<At>> = Vec::new();
        for (li, &text) in lines.iter().enumerate() {
            let line = Line::of(text);
            for (si, (&(at, seg), ws)) in line.segs.iter().zip(&line.words).enumerate() {
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
                        let open = line.condition_test(si).map(|n| (n.to_owned(), (li, at)));
                        let os = tests_os(line.command_at(at)).then_some((li, at));
                        if first == "if" {
                            frames.push(Frame {
                                open,
                                closed: None,
                                os,
                            });
                        } else if let Some(frame) = frames.last_mut() {
                            frame.open = open;
                            frame.os = frame.os.or(os);
                        }
                    }
                    "case" => cases.push(tests_os(line.command_at(at)).then_some((li, at))),
                    "esac" => {
                        if let Some(Some(from)) = cases.pop() {
                            checked.os.push((from, (li, at)));
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
                            if let Some(from) = frame.os {
                                checked.os.push((from, (li, at)));
                            }
                        }
                    }
                    _ => {
                        if let Some(name) = test(ws) {
                            // `command -v jq >/dev/null && jq ...`, up to the next `;`.
                            let from = at + seg.len();
                            let and = first_from(&line.ands, from);
                            let or = first_from(&line.ors, from);
                            let semi = first_from(&line.semis, from);
                            if and.is_some_and(|a| {
                                or.is_none_or(|o| a < o) && semi.is_none_or(|s| a < s)
                            }) {
                                let end = semi.unwrap_or(usize::MAX);
                                stretches.push((name.to_owned(), (li, at), (li, end), false));
                            }
                        }
                    }
                }
                // An `else` that exits: the command the `if` tested was needed after all.
                if command_word(ws).is_some_and(|k| ws[k].1 == "exit")
                    && let Some(Frame {
                        open: None,
                        closed: Some(i),
                        ..
                    }) = frames.last()
                {
                    stretches[*i].3 = true;
                }
            }
        }
        for (name, from, to, void) in stretches {
            if !void {
                checked.present.entry(name).or_default().push((from, to));
            }
        }
        for spans in checked.present.values_mut().chain([&mut checked.os]) {
            spans.sort_unstable();
            // Nested tests overlap: merged, they can be halved.
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
        self.present
            .get(name)
            .is_some_and(|spans| span_holding(spans, at).is_some())
    }

    /// Whether what runs at `at` runs only on some operating systems.
    pub(super) fn os_only(&self, at: At) -> bool {
        span_holding(&self.os, at).is_some()
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

/// A logical line read once for what its tests need: its simple commands with their words,
/// which of them start a `then` or test a command, and where its operators are. An `if` then
/// finds the end of its condition, and a test what follows it, by halving rather than by
/// reading the rest of the line again, which a line of thousands of tests made quadratic.
struct Line<'t> {
    text: &'t str,
    segs: Vec<(usize, &'t str)>,
    words: Vec<Vec<(usize, &'t str)>>,
    /// The segments that start with `then`, by index.
    thens: Vec<usize>,
    /// The segments that test a command, by index, with the command's name.
    tests: Vec<(usize, &'t str)>,
    /// Where each `&&`, `||`, `;` and `!` starts, in order; runs like `|||` hold each pair.
    ands: Vec<usize>,
    ors: Vec<usize>,
    semis: Vec<usize>,
    bangs: Vec<usize>,
}

impl<'t> Line<'t> {
    fn of(text: &'t str) -> Line<'t> {
        let segs = segments(text);
        let words: Vec<_> = segs.iter().map(|&(_, seg)| words(seg)).collect();
        let mut thens = Vec::new();
        let mut tests = Vec::new();
        for (i, ws) in words.iter().enumerate() {
            if ws.first().is_some_and(|w| w.1 == "then") {
                thens.push(i);
            }
            if let Some(name) = test(ws) {
                tests.push((i, name));
            }
        }
        let (mut ands, mut ors, mut semis, mut bangs) =
            (Vec::new(), Vec::new(), Vec::new(), Vec::new());
        let bytes = text.as_bytes();
        for (i, &b) in bytes.iter().enumerate() {
            let pair = bytes.get(i + 1) == Some(&b);
            match b {
                b'&' if pair => ands.push(i),
                b'|' if pair => ors.push(i),
                b';' => semis.push(i),
                b'!' => bangs.push(i),
                _ => {}
            }
        }
        Line {
            text,
            segs,
            words,
            thens,
            tests,
            ands,
            ors,
            semis,
            bangs,
        }
    }

    /// The text of the command starting at byte `start`: up to the next `;` or the line's
    /// end. An `if`'s condition is read so far, not to its `then`: a line of thousands of
    /// `if`s with no `then` is then read once, not once per `if`.
    fn command_at(&self, start: usize) -> &'t str {
        let end = first_from(&self.semis, start).unwrap_or(self.text.len());
        self.text.get(start..end).unwrap_or("")
    }

    /// The command whose presence the condition of the `if` or `elif` starting segment `si`
    /// makes sure of: a test in it, up to its `then`, where nothing negates it and no `||`
    /// offers another way in.
    fn condition_test(&self, si: usize) -> Option<&'t str> {
        let start = self.segs.get(si)?.0;
        let then = self
            .thens
            .get(self.thens.partition_point(|&j| j <= si))
            .copied();
        let end = then
            .and_then(|j| self.segs.get(j))
            .map_or(self.text.len(), |s| s.0);
        let found = self
            .tests
            .get(self.tests.partition_point(|t| t.0 < si))
            .filter(|t| then.is_none_or(|j| t.0 < j))?
            .1;
        let negated = first_from(&self.bangs, start).is_some_and(|b| b < end);
        let either = first_from(&self.ors, start).is_some_and(|o| o + 2 <= end);
        (!negated && !either).then_some(found)
    }
}

/// The first of the sorted places `marks` at or after `from`.
fn first_from(marks: &[usize], from: usize) -> Option<usize> {
    marks.get(marks.partition_point(|&m| m < from)).copied()
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
    fn what_one_operating_system_runs_is_found_in_if_chains_and_cases() {
        let text =
            "free -m\nif [[ \"$OSTYPE\" == darwin* ]]; then\n  vm_stat\nelse\n  free -m\nfi\ntop";
        let c = checked(text);
        assert!(!c.os_only((0, 0)));
        assert!(c.os_only((2, 2)) && c.os_only((4, 2)));
        assert!(!c.os_only((6, 0)), "after the fi");
        let c =
            checked("if [ -f x ]; then\n  cat x\nelif [ \"$(uname)\" = Linux ]; then\n  free\nfi");
        assert!(!c.os_only((1, 2)), "before the chain tests the system");
        assert!(c.os_only((3, 2)));
        let c =
            checked("case \"$(uname -s)\" in\n  Darwin) sysctl x ;;\n  *) nproc ;;\nesac\nnproc");
        assert!(c.os_only((1, 10)) && c.os_only((2, 6)));
        assert!(!c.os_only((4, 0)));
        let c = checked("case \"$1\" in\n  a) jq . ;;\nesac");
        assert!(!c.os_only((1, 5)), "a case on anything else");
    }

    #[test]
    fn a_one_line_if_covers_its_then_part() {
        let text =
            "if command -v timeout >/dev/null 2>&1; then timeout 5 x; else y; fi; timeout 1 z";
        let c = checked(text);
        assert!(c.covers("timeout", (0, text.find("timeout 5").unwrap())));
        assert!(!c.covers("timeout", (0, text.find("timeout 1").unwrap())));
    }

    #[test]
    fn only_the_condition_before_its_then_can_negate_or_offer_another_way() {
        let text = "if command -v jq; then jq . || ! true; fi; if type gh || x; then gh pr; fi";
        let c = checked(text);
        assert!(c.covers("jq", (0, text.find("jq .").unwrap())));
        assert!(!c.covers("gh", (0, text.find("gh pr").unwrap())));
        let text = "command -v yq && yq . ; yq x";
        let c = checked(text);
        assert!(c.covers("yq", (0, text.find("yq .").unwrap())));
        assert!(!c.covers("yq", (0, text.find("yq x").unwrap())));
    }
}
