//! Fixes: the edits findings carry, applied to the text of the files they concern.
//!
//! A rule computes its fix where it makes the finding, as byte-range edits of the file as read
//! ([`crate::diagnostic::Fix`]); nothing here re-serialises YAML, so every byte outside an
//! edit (comments, quoting, key order, line breaks, the body) stays as it was. This module
//! applies them:
//!
//! - [`apply`] (and [`apply_to_text`], for an editor's buffer) applies a set of fixes to one
//!   text, keeping the first of any that overlap;
//! - [`run`] audits, applies every fix of the wanted applicability file by file, parses each
//!   result again (a fix whose result does not parse is dropped), checks again the files it
//!   changed and judges the library again, until nothing changes, all in memory; then
//!   [`write`] puts the files on disk, each through a temporary file renamed over it, and
//!   makes the renames.

mod write;

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::sync::Arc;

use crate::audit::{AuditError, AuditOptions, AuditResult};
use crate::diagnostic::{Applicability, Edit, Finding, Fix};
use crate::files::Tree;
use crate::rules::Rule;
use crate::workspace::Workspace;

pub use write::{renamed_roots, write};

/// Passes of audit-and-fix before giving up on reaching a fixed point (ruff stops at 100; the
/// fixes here rarely enable one another, so a few suffice).
pub(crate) const MAX_PASSES: usize = 6;

/// Why a fix was left out.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Skip {
    /// An edit overlaps an edit of a fix applied before it (in file order).
    Conflict,
    /// An edit is out of the text or splits a character.
    OutOfRange,
    /// The text would not parse any more; the parser's complaint.
    Breaks(String),
    /// The file cannot be fixed (outside the audited folders, a link, unreadable).
    File(String),
    /// A rename whose target exists.
    RenameTarget(String),
}

impl std::fmt::Display for Skip {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Skip::Conflict => f.write_str("it overlaps another fix of the same text"),
            Skip::OutOfRange => f.write_str("its edits do not fit the file"),
            Skip::Breaks(why) => write!(f, "the file would not parse afterwards ({why})"),
            Skip::File(why) => f.write_str(why),
            Skip::RenameTarget(t) => write!(f, "`{t}` exists already"),
        }
    }
}

/// Fixes applied to one text: the new text, the indexes (into the input) of the fixes it
/// holds, and those left out with the reason.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Applied {
    pub text: String,
    pub applied: Vec<usize>,
    pub skipped: Vec<(usize, Skip)>,
}

/// Apply `fixes` to `text`. Fixes are taken in the order of their first edit; one with an edit
/// that overlaps an edit already taken (or inserts where another edit starts) is left out, so
/// the result never depends on how two fixes would interleave. A fix identical to one taken is
/// taken with it. Renames are not text and are ignored here.
pub fn apply(text: &str, fixes: &[&Fix]) -> Applied {
    let mut order: Vec<usize> = (0..fixes.len()).collect();
    order.sort_by_key(|&i| (fixes[i].edits.first().map_or(usize::MAX, |e| e.start), i));
    let mut taken: Vec<&Edit> = Vec::new();
    let mut taken_fixes: Vec<usize> = Vec::new();
    let mut applied = Vec::new();
    let mut skipped = Vec::new();
    for i in order {
        let fix = fixes[i];
        if taken_fixes.iter().any(|&t| fixes[t].edits == fix.edits) {
            applied.push(i);
            continue;
        }
        let fits = fix.edits.iter().all(|e| {
            e.start <= e.end && text.is_char_boundary(e.start) && text.is_char_boundary(e.end)
        }) && fix.edits.iter().all(|e| e.end <= text.len());
        if !fits {
            skipped.push((i, Skip::OutOfRange));
            continue;
        }
        let clashes = |a: &Edit, b: &Edit| {
            (a.start < b.end && b.start < a.end)
                || (a.start == b.start && (a.start == a.end || b.start == b.end))
        };
        let own_clash = fix
            .edits
            .iter()
            .enumerate()
            .any(|(n, a)| fix.edits[n + 1..].iter().any(|b| clashes(a, b)));
        if own_clash
            || fix
                .edits
                .iter()
                .any(|a| taken.iter().any(|b| clashes(a, b)))
        {
            skipped.push((i, Skip::Conflict));
            continue;
        }
        taken.extend(fix.edits.iter());
        taken_fixes.push(i);
        applied.push(i);
    }
    taken.sort_by_key(|e| (e.start, e.end));
    let mut out = String::with_capacity(text.len() + 64);
    let mut at = 0;
    for e in taken {
        out.push_str(&text[at..e.start]);
        out.push_str(&e.content);
        at = e.end;
    }
    out.push_str(&text[at..]);
    applied.sort_unstable();
    skipped.sort_by_key(|(i, _)| *i);
    Applied {
        text: out,
        applied,
        skipped,
    }
}

/// Why [`apply_to_text`] refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum FixError {
    #[error("fix {index} ({message}) was not applied: {reason}")]
    Skipped {
        index: usize,
        message: String,
        reason: String,
    },
}

/// `fixes` applied to `text` (an editor's buffer, say), or an error naming the first fix that
/// overlaps another or does not fit the text. Nothing is checked beyond that: callers that
/// want the result parsed again do so, as [`run`] does.
pub fn apply_to_text(text: &str, fixes: &[Fix]) -> Result<String, FixError> {
    let refs: Vec<&Fix> = fixes.iter().collect();
    let mut done = apply(text, &refs);
    match done.skipped.drain(..).next() {
        Some((index, why)) => Err(FixError::Skipped {
            index,
            message: fixes[index].message.clone(),
            reason: why.to_string(),
        }),
        None => Ok(done.text),
    }
}

/// Which fixes to apply.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    /// Safe fixes only (`--fix`, `--diff`).
    Safe,
    /// Safe and unsafe ones (`--unsafe-fixes`).
    Unsafe,
}

impl Mode {
    pub fn takes(self, a: Applicability) -> bool {
        a == Applicability::Safe || self == Mode::Unsafe
    }
}

/// One file the fixes change: where it is, what it held, what it will hold, and its new name.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Change {
    /// Display path, as findings show it.
    pub path: String,
    pub fs_path: PathBuf,
    pub before: String,
    pub after: String,
    /// The new display path and file, for a rename.
    pub rename: Option<(String, PathBuf)>,
    /// Fixes it takes, safe and unsafe.
    pub safe: usize,
    pub unsafe_: usize,
}

/// A fix left out, for the report.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Dropped {
    pub path: String,
    pub line: u32,
    pub rule: Rule,
    pub message: String,
    pub reason: Skip,
}

/// What [`run`] did.
#[derive(Debug)]
pub struct Outcome {
    /// The audit of the fixed text (before it is written).
    pub result: AuditResult,
    /// Changed files, in path order.
    pub changes: Vec<Change>,
    /// Fixes applied, safe and unsafe.
    pub safe: usize,
    pub unsafe_: usize,
    /// Fixes of the wanted applicability that could not be applied.
    pub dropped: Vec<Dropped>,
    /// With [`Mode::Safe`], the unsafe fixes left that `--unsafe-fixes` would apply: those of
    /// files fixes may write.
    pub unsafe_left: usize,
}

/// The audited files a fix may change, by display path: the skills and agents read from the
/// local tree.
fn files_of(result: &AuditResult) -> BTreeMap<&str, &Path> {
    let skills = result
        .skills
        .iter()
        .map(|s| (s.skill.path.as_str(), s.skill.fs_path.as_path()));
    let agents = result
        .agents
        .iter()
        .map(|a| (a.agent.path.as_str(), a.agent.fs_path.as_path()));
    skills.chain(agents).collect()
}

/// The display paths of the files with fixes that no fix may write: read-only, outside the
/// audited roots by a link, or no skill or agent of the local tree. A report does not offer
/// their fixes as fixable.
pub fn unwritable(result: &AuditResult, roots: &[PathBuf]) -> BTreeSet<String> {
    unwritable_in(result, &write::Roots::new(roots))
}

fn unwritable_in(result: &AuditResult, roots: &write::Roots) -> BTreeSet<String> {
    let files = files_of(result);
    let with_fixes: BTreeSet<&str> = (result.findings.iter())
        .filter(|f| f.fix.is_some())
        .map(|f| f.path.as_str())
        .collect();
    with_fixes
        .into_iter()
        .filter(|path| files.get(path).is_none_or(|p| roots.writable(p).is_err()))
        .map(str::to_owned)
        .collect()
}

/// Audit with `opts`, apply the fixes `mode` takes, and audit again until no fix changes
/// anything (or [`MAX_PASSES`] have run). The library is audited whole once; after each pass
/// only the files it edited are checked again, from their new text, before the library stage
/// runs again over every file (so what depends on an edited file, an agent's drift from its
/// skill, follows). Nothing is written: the files' new text is in the outcome, for [`write`]
/// or a diff.
pub fn run(opts: &AuditOptions, mode: Mode) -> Result<Outcome, AuditError> {
    let roots = write::Roots::new(&opts.roots);
    let mut ws = Workspace::audit(opts.clone())?;
    // Text per file as the fixes so far leave it, and as it was first read.
    let mut current: BTreeMap<PathBuf, String> = BTreeMap::new();
    let mut original: BTreeMap<PathBuf, (String, String)> = BTreeMap::new();
    let mut renames: BTreeMap<PathBuf, (String, PathBuf)> = BTreeMap::new();
    // Fixes taken per file, safe and unsafe.
    let mut counts: BTreeMap<PathBuf, (usize, usize)> = BTreeMap::new();
    let mut count = |path: &Path, a: Applicability| {
        let c = counts.entry(path.to_owned()).or_default();
        match a {
            Applicability::Safe => c.0 += 1,
            Applicability::Unsafe => c.1 += 1,
        }
    };
    let mut pass = 0;
    let dropped = loop {
        pass += 1;
        let result = ws.result();
        let mut dropped = Vec::new();
        let mut wanted: BTreeMap<&str, Vec<&Finding>> = BTreeMap::new();
        for f in &result.findings {
            if let Some(fix) = &f.fix
                && mode.takes(fix.applicability)
            {
                wanted.entry(f.path.as_str()).or_default().push(f);
            }
        }
        if pass > MAX_PASSES || wanted.is_empty() {
            break dropped;
        }
        let files = files_of(result);
        // The files this pass changed, to check again.
        let mut edited: Vec<PathBuf> = Vec::new();
        for (path, findings) in wanted {
            let drop_all = |dropped: &mut Vec<Dropped>, reason: Skip| {
                dropped.extend(findings.iter().map(|f| dropped_of(f, reason.clone())));
            };
            let Some(fs_path) = files.get(path).copied() else {
                drop_all(&mut dropped, Skip::File("it is not a local file".into()));
                continue;
            };
            let text = match current.get(fs_path) {
                Some(t) => t.clone(),
                None => match roots.read(fs_path) {
                    Ok(t) => {
                        original.insert(fs_path.to_owned(), (path.to_owned(), t.clone()));
                        t
                    }
                    Err(why) => {
                        drop_all(&mut dropped, Skip::File(why));
                        continue;
                    }
                },
            };
            // Renames wait until the text is done; the first one asked for wins. A fix that
            // renames and edits is made whole or not at all, and counted once.
            let mut renaming: Option<&Finding> = None;
            for f in &findings {
                let Some(to) = f.fix.as_ref().and_then(|x| x.rename.as_ref()) else {
                    continue;
                };
                let Some(name) = Path::new(to).file_name() else {
                    continue;
                };
                let target = fs_path.with_file_name(name);
                if renames.contains_key(fs_path) {
                    continue;
                }
                if write::occupied(fs_path, &target) {
                    dropped.push(dropped_of(f, Skip::RenameTarget(to.clone())));
                    continue;
                }
                renames.insert(fs_path.to_owned(), (to.clone(), target));
                renaming = Some(f);
                if let Some(x) = &f.fix {
                    count(fs_path, x.applicability);
                }
            }
            let with_edits: Vec<&Finding> = findings
                .iter()
                .copied()
                .filter(|f| {
                    f.fix.as_ref().is_some_and(|x| {
                        !x.edits.is_empty()
                            && (x.rename.is_none() || renaming.is_some_and(|r| std::ptr::eq(r, *f)))
                    })
                })
                .collect();
            if with_edits.is_empty() {
                continue;
            }
            let (text_after, applied, skipped) = checked(&text, &with_edits);
            for (i, why) in skipped {
                dropped.push(dropped_of(with_edits[i], why));
            }
            if text_after != text {
                for &i in &applied {
                    if let Some(x) = &with_edits[i].fix
                        && x.rename.is_none()
                    {
                        count(fs_path, x.applicability);
                    }
                }
                current.insert(fs_path.to_owned(), text_after);
                edited.push(fs_path.to_owned());
            }
        }
        if edited.is_empty() {
            break dropped;
        }
        let boundary = ws.boundary().clone();
        let tree = Tree::new(&boundary);
        let mut all_checked = true;
        for path in &edited {
            let text = current.get(path).map_or(&[][..], |t| t.as_bytes());
            all_checked &= ws.update(path, text, &tree);
        }
        if all_checked {
            drop(ws.judge());
        } else {
            // A file the workspace does not know by its path (an agent a manifest lists
            // outside an agents folder): the whole library again, with the fixed texts.
            let overlay: BTreeMap<PathBuf, Vec<u8>> = current
                .iter()
                .map(|(p, t)| (p.clone(), t.as_bytes().to_vec()))
                .collect();
            let mut again = opts.clone();
            again.overlay = Arc::new(overlay);
            ws = Workspace::audit(again)?;
        }
    };
    let result = ws.into_result();
    let unsafe_left = match mode {
        Mode::Unsafe => 0,
        Mode::Safe => {
            let unwritable = unwritable_in(&result, &roots);
            result
                .findings
                .iter()
                .filter(|f| {
                    f.fix
                        .as_ref()
                        .is_some_and(|x| x.applicability == Applicability::Unsafe)
                })
                .filter(|f| !unwritable.contains(f.path.as_str()))
                .count()
        }
    };
    let mut changes: Vec<Change> = original
        .into_iter()
        .filter_map(|(fs_path, (path, before))| {
            let after = current
                .get(&fs_path)
                .cloned()
                .unwrap_or_else(|| before.clone());
            let rename = renames.remove(&fs_path);
            let (safe, unsafe_) = counts.get(&fs_path).copied().unwrap_or_default();
            (after != before || rename.is_some()).then_some(Change {
                path,
                fs_path,
                before,
                after,
                rename,
                safe,
                unsafe_,
            })
        })
        .collect();
    changes.sort_by(|a, b| a.path.cmp(&b.path));
    Ok(Outcome {
        safe: changes.iter().map(|c| c.safe).sum(),
        unsafe_: changes.iter().map(|c| c.unsafe_).sum(),
        result,
        changes,
        dropped,
        unsafe_left,
    })
}

fn dropped_of(f: &Finding, reason: Skip) -> Dropped {
    Dropped {
        path: f.path.clone(),
        line: f.line,
        rule: f.rule,
        message: f
            .fix
            .as_ref()
            .map(|x| x.message.clone())
            .unwrap_or_default(),
        reason,
    }
}

/// One pass of the fixes of `findings` over `text`, as [`run`] makes it: the text they leave,
/// less any fix that would make it parse worse. For the editor's "fix all safe".
pub(crate) fn pass(text: &str, findings: &[&Finding]) -> String {
    checked(text, findings).0
}

/// Apply the fixes of `findings` to `text` and parse the result again. When it parses worse
/// than `text` did, the fixes are tried one at a time in file order, each kept only if the
/// text still parses after it: one bad fix costs only itself.
fn checked(text: &str, findings: &[&Finding]) -> (String, Vec<usize>, Vec<(usize, Skip)>) {
    let fixes: Vec<&Fix> = findings.iter().filter_map(|f| f.fix.as_deref()).collect();
    let before = parse_state(text);
    let all = apply(text, &fixes);
    if no_worse(&before, &all.text).is_err() {
        let mut text_now = text.to_owned();
        let mut applied = Vec::new();
        let mut skipped = all.skipped;
        // The fixes were made for the original text: a later one's offsets hold only while
        // earlier edits are applied with it, so each trial applies the kept set plus one.
        for i in all.applied {
            let mut trial: Vec<&Fix> = applied.iter().map(|&k| fixes[k]).collect();
            trial.push(fixes[i]);
            let t = apply(text, &trial);
            match no_worse(&before, &t.text) {
                Ok(()) if t.skipped.is_empty() => {
                    applied.push(i);
                    text_now = t.text;
                }
                Ok(()) => skipped.push((i, Skip::Conflict)),
                Err(e) => skipped.push((i, Skip::Breaks(e))),
            }
        }
        skipped.sort_by_key(|(i, _)| *i);
        return (text_now, applied, skipped);
    }
    (all.text, all.applied, all.skipped)
}

/// How a text parses: fine, or the first line of its frontmatter the parser rejects.
#[derive(Debug, PartialEq, Eq)]
enum ParseState {
    Ok,
    Broken { line: u32, message: String },
}

fn parse_state(text: &str) -> ParseState {
    let mut sink = crate::diagnostic::Sink::new("");
    match crate::parse::document(text.as_bytes(), "Markdown", &mut sink) {
        Ok(_) => ParseState::Ok,
        Err(_) => {
            // SA100-SA107 make a file unreadable; the casing and BOM notes do not.
            let first = sink.findings.iter().find(|f| f.rule.code() < "SA108");
            ParseState::Broken {
                line: first.map_or(0, |f| f.line),
                message: first.map_or_else(String::new, |f| f.message.clone()),
            }
        }
    }
}

/// `Ok` when `after` parses, or, if `before` did not either, fails later in the file (a fix
/// of one broken line lets the parser reach the next) or the same way (a byte order mark
/// removed from a file with no frontmatter): never a file the fix broke.
fn no_worse(before: &ParseState, after: &str) -> Result<(), String> {
    match (before, parse_state(after)) {
        (_, ParseState::Ok) => Ok(()),
        (
            ParseState::Broken {
                line: was,
                message: said,
            },
            ParseState::Broken { line, message },
        ) if line > *was || (line == *was && message == *said) => Ok(()),
        (_, ParseState::Broken { line, message }) => Err(format!("line {line}: {message}")),
    }
}

/// A unified diff of the changes, in path order: what `--diff` prints. Each file has git's
/// `diff --git` line, and a rename its `rename from` and `rename to` lines, before its hunks,
/// so `git apply` makes the renames too (it reads a file's section up to the next such line,
/// so every file needs one once any does). A path outside the current folder is shown from
/// the root without its leading `/`, as git shows one (`a/tmp/x`), so `patch -p1` run at the
/// root applies it.
pub fn diff(changes: &[Change]) -> String {
    let mut out = String::new();
    let shown = |p: &str| p.trim_start_matches('/').to_owned();
    for c in changes {
        let from = shown(&c.path);
        let to = shown(
            c.rename
                .as_ref()
                .map_or(c.path.as_str(), |(p, _)| p.as_str()),
        );
        out.push_str(&format!("diff --git a/{from} b/{to}\n"));
        if to != from {
            out.push_str(&format!("rename from {from}\nrename to {to}\n"));
        }
        if c.before == c.after {
            continue;
        }
        let d = similar::TextDiff::from_lines(&c.before, &c.after);
        let text = d
            .unified_diff()
            .context_radius(3)
            .header(&format!("a/{from}"), &format!("b/{to}"))
            .to_string();
        out.push_str(&text);
        if !text.ends_with('\n') {
            out.push('\n');
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::span;

    fn fix(edits: &[(usize, usize, &str)]) -> Fix {
        Fix {
            applicability: Applicability::Safe,
            message: "m".into(),
            edits: edits
                .iter()
                .map(|(s, e, c)| span::edit("abcdef", *s, *e, *c))
                .collect(),
            rename: None,
        }
    }

    #[test]
    fn edits_apply_in_file_order_whatever_order_the_fixes_come_in() {
        let a = fix(&[(4, 5, "E")]);
        let b = fix(&[(0, 1, "A"), (2, 2, "+")]);
        let done = apply("abcdef", &[&a, &b]);
        assert_eq!(done.text, "Ab+cdEf");
        assert_eq!(done.applied, vec![0, 1]);
        assert_eq!(apply_to_text("abcdef", &[b, a]).as_deref(), Ok("Ab+cdEf"));
    }

    #[test]
    fn overlapping_fixes_keep_the_first_and_say_why_the_other_went() {
        let a = fix(&[(1, 3, "X")]);
        let b = fix(&[(2, 4, "Y")]);
        let same_point = fix(&[(1, 1, "Z")]);
        let done = apply("abcdef", &[&a, &b, &same_point]);
        assert_eq!(done.text, "aXdef");
        assert_eq!(done.skipped, vec![(1, Skip::Conflict), (2, Skip::Conflict)]);
        assert!(apply_to_text("abcdef", &[a.clone(), b]).is_err());
        // The same fix twice (two findings, one cause) is one edit.
        let twice = apply("abcdef", &[&a, &a.clone()]);
        assert_eq!((twice.text.as_str(), twice.applied.len()), ("aXdef", 2));
    }

    #[test]
    fn an_edit_outside_the_text_is_refused() {
        let done = apply("abc", &[&fix(&[(2, 9, "")])]);
        assert_eq!(done.skipped, vec![(0, Skip::OutOfRange)]);
        assert_eq!(done.text, "abc");
        assert!(matches!(
            apply_to_text("é", &[fix(&[(1, 1, "x")])]),
            Err(FixError::Skipped { index: 0, .. })
        ));
    }

    #[test]
    fn a_fix_that_breaks_the_yaml_is_dropped_and_the_others_kept() {
        let text = "---\nname: a\ntools: [x]\n---\nbody\n";
        let good = Fix {
            edits: vec![span::edit(text, 20, 21, "y")],
            ..fix(&[])
        };
        let bad = Fix {
            edits: vec![span::edit(text, 10, 11, "a: b")],
            ..fix(&[])
        };
        let f = |fix: Fix| Finding {
            fix: Some(Box::new(fix)),
            ..Finding::new(Rule::RenamedTool, "x", crate::diagnostic::Pos::START, "m")
        };
        let (good, bad) = (f(good), f(bad));
        let (out, applied, skipped) = checked(text, &[&bad, &good]);
        assert_eq!(out, "---\nname: a\ntools: [y]\n---\nbody\n");
        assert_eq!(applied, vec![1]);
        assert!(matches!(skipped.as_slice(), [(0, Skip::Breaks(_))]));
    }

    #[test]
    fn a_fix_may_leave_a_broken_file_broken_further_down() {
        let before = parse_state("---\na: b: c\nd: e: f\n---\n");
        assert!(matches!(before, ParseState::Broken { line: 2, .. }));
        assert_eq!(no_worse(&before, "---\na: 'b: c'\nd: e: f\n---\n"), Ok(()));
        assert!(no_worse(&ParseState::Ok, "---\na: b: c\n---\n").is_err());
        let missing = parse_state("\u{feff}no frontmatter\n");
        assert_eq!(
            no_worse(&missing, "no frontmatter\n"),
            Ok(()),
            "broken the same way"
        );
        assert!(
            no_worse(&before, "---\na: [b\n---\n").is_err(),
            "broken sooner"
        );
    }

    fn c_again() -> Change {
        Change {
            path: "a/x.agent.md".into(),
            fs_path: PathBuf::from("x"),
            before: "a\n".into(),
            after: "b\n".into(),
            rename: None,
            safe: 1,
            unsafe_: 0,
        }
    }

    #[test]
    fn the_diff_is_unified_and_names_both_sides() {
        let c = Change {
            path: "a/x.agent.md".into(),
            fs_path: PathBuf::from("x"),
            before: "---\ntools: [codebase]\n---\n".into(),
            after: "---\ntools: [search/codebase]\n---\n".into(),
            rename: None,
            safe: 1,
            unsafe_: 0,
        };
        let d = diff(&[c]);
        assert!(
            d.starts_with(
                "diff --git a/a/x.agent.md b/a/x.agent.md\n--- a/a/x.agent.md\n+++ b/a/x.agent.md\n@@"
            ),
            "{d}"
        );
        assert!(
            d.contains("-tools: [codebase]\n+tools: [search/codebase]\n"),
            "{d}"
        );
        // A rename alone, then an edit: each has its own `diff --git` line, as `git apply`
        // needs to tell them apart.
        let moved = Change {
            path: "s/skill.md".into(),
            fs_path: PathBuf::from("s"),
            before: "x\n".into(),
            after: "x\n".into(),
            rename: Some(("s/SKILL.md".into(), PathBuf::from("s2"))),
            safe: 0,
            unsafe_: 1,
        };
        let d = diff(&[moved, c_again()]);
        assert!(
            d.starts_with("diff --git a/s/skill.md b/s/SKILL.md\nrename from s/skill.md\nrename to s/SKILL.md\ndiff --git a/a/x.agent.md b/a/x.agent.md\n--- a/a/x.agent.md"),
            "{d}"
        );
        // A path outside the current folder, shown from the root.
        let mut far = c_again();
        far.path = "/tmp/lib/a/x.agent.md".into();
        let d = diff(&[far]);
        assert!(
            d.starts_with("diff --git a/tmp/lib/a/x.agent.md b/tmp/lib/a/x.agent.md\n--- a/tmp/lib/a/x.agent.md\n+++ b/tmp/lib/a/x.agent.md\n"),
            "{d}"
        );
    }
}
