//! Text output for terminals and logs: each finding with its source line and a caret under the
//! spot (rendered by annotate-snippets, in colour on a terminal), then the matrices, the drift
//! and a summary. Text from scanned files is passed through [`visible`] so escape sequences
//! are never emitted.

use std::fmt::Write as _;
use std::io::{self, Write};

use annotate_snippets::{AnnotationKind, Level, Origin, Renderer, Snippet};
use rayon::prelude::*;

use super::Report;
use crate::diagnostic::{Severity, quote};
use crate::evaluate::Status;
use crate::words::Count;

/// Plain text, no colour, notes wrapped to a fixed width: a file's report.
pub(crate) fn render(report: &Report, out: &mut dyn Write) -> io::Result<()> {
    render_to(report, out, false, wrap_width(false))
}

/// Only the findings, without matrices, drift or summary: what `--quiet` prints. With
/// `--baseline`, its `baseline:` line too.
pub(crate) fn render_findings(report: &Report, out: &mut dyn Write, color: bool) -> io::Result<()> {
    let mut s = findings(report, color);
    quiet_baseline(report, &mut s);
    out.write_all(s.as_bytes())
}

/// Under `--quiet`, of the summary only the `baseline:` line: how many findings are new is
/// what a run with a baseline asks, and the `[new]` marks alone leave it to be counted.
pub(crate) fn quiet_baseline(report: &Report, s: &mut String) {
    if let Some(d) = &report.baseline {
        baseline_line(d, s);
    }
}

/// Every finding, with its source line and caret.
fn findings(report: &Report, color: bool) -> String {
    let renderer = if color {
        Renderer::styled()
    } else {
        Renderer::plain()
    };
    // Each finding is rendered on its own, on all threads, and the texts joined in order.
    let shown: Vec<String> = report
        .findings
        .par_iter()
        .zip(marks(report))
        .map(|(f, mark)| {
            let mut one = String::new();
            finding(f, &mark, &renderer, &mut one);
            one
        })
        .collect();
    shown.concat()
}

/// What precedes each finding's message: `[new] ` for a finding a `--baseline` lacks, `[*] `
/// for one this run's `--fix` would fix.
pub(crate) fn marks(report: &Report) -> Vec<String> {
    let new = report
        .baseline
        .as_ref()
        .map(|d| super::diff::new_marks(report, d));
    report
        .findings
        .iter()
        .enumerate()
        .map(|(i, f)| {
            let mut mark = String::new();
            if new.as_ref().is_some_and(|n| n[i]) {
                mark.push_str("[new] ");
            }
            if fixable(report, f) {
                mark.push_str("[*] ");
            }
            mark
        })
        .collect()
}

/// Does `f` carry a fix this run would apply (`--fix`; unsafe ones with `--unsafe-fixes`), to
/// a file a fix may write?
pub(crate) fn fixable(report: &Report, f: &crate::diagnostic::Finding) -> bool {
    f.fix.as_ref().is_some_and(|x| {
        x.applicability == crate::diagnostic::Applicability::Safe || report.show_unsafe_fixes
    }) && !report.unwritable.contains(&f.path)
}

/// The summary's line about fixes: what `--fix` applied, and what is left to apply.
fn fix_line(report: &Report) -> Option<String> {
    use crate::diagnostic::Applicability;
    let left = |a: Applicability| {
        report
            .findings
            .iter()
            .filter(|f| f.fix.as_ref().is_some_and(|x| x.applicability == a))
            .filter(|f| !report.unwritable.contains(&f.path))
            .count()
    };
    let (safe, unsafe_) = (left(Applicability::Safe), left(Applicability::Unsafe));
    let more = if unsafe_ > 0 && !report.show_unsafe_fixes {
        let fixes = if unsafe_ == 1 { "fix" } else { "fixes" };
        format!("; {unsafe_} more {fixes} available with `--unsafe-fixes`")
    } else {
        String::new()
    };
    if let Some(done) = &report.summary.fixes {
        let n = done.applied_safe + done.applied_unsafe;
        let not = match done.not_applied {
            0 => String::new(),
            1 => "; 1 fix not applied (see the messages above)".to_owned(),
            n => format!("; {n} fixes not applied (see the messages above)"),
        };
        // Only what `--unsafe-fixes` could write: fixes of a file no fix may write are not
        // offered.
        let more = match done.unsafe_available {
            0 => String::new(),
            1 => "; 1 more fix available with `--unsafe-fixes`".to_owned(),
            n => format!("; {n} more fixes available with `--unsafe-fixes`"),
        };
        return Some(format!(
            "Fixed {n} ({} safe, {} unsafe) in {}{not}{more}",
            done.applied_safe,
            done.applied_unsafe,
            Count(done.files_changed, "file")
        ));
    }
    let applicable = if report.show_unsafe_fixes {
        safe + unsafe_
    } else {
        safe
    };
    if applicable == 0 {
        // Only unsafe fixes are left, and the flag that marks them was not given.
        return (unsafe_ > 0 && !report.show_unsafe_fixes).then(|| {
            let fixes = if unsafe_ == 1 { "fix" } else { "fixes" };
            format!("{unsafe_} {fixes} available with `--unsafe-fixes`")
        });
    }
    let with = if report.show_unsafe_fixes {
        Applicability::Unsafe
    } else {
        Applicability::Safe
    };
    Some(format!(
        "[*] {applicable} fixable with `{}`{more}",
        with.flags()
    ))
}

/// Text on standard output, with ANSI colour when `color` is set; notes wrap to the terminal's
/// width when it is one.
pub(crate) fn render_styled(report: &Report, out: &mut dyn Write, color: bool) -> io::Result<()> {
    use std::io::IsTerminal;
    render_to(report, out, color, wrap_width(io::stdout().is_terminal()))
}

fn render_to(report: &Report, out: &mut dyn Write, color: bool, width: usize) -> io::Result<()> {
    let mut s = findings(report, color);
    if !report.profiles.is_empty() {
        let skills = (report.skills.iter()).map(|k| {
            (
                k.skill.name.as_str(),
                k.skill.path.as_str(),
                &k.availability,
                k.valid(),
            )
        });
        matrix("SKILL", skills, report, width, &mut s);
        let agents = (report.agents.iter()).map(|a| {
            (
                a.agent.name.as_str(),
                a.agent.path.as_str(),
                &a.availability,
                a.valid,
            )
        });
        matrix("AGENT", agents, report, width, &mut s);
    }
    if !report.drift.is_empty() {
        let _ = writeln!(s, "DRIFT (agent loads a skill it does not grant)");
        for d in &report.drift {
            let _ = writeln!(
                s,
                "  {} -> {}: missing {} (via {})",
                visible(&quote(&d.agent)),
                visible(&quote(&d.skill)),
                visible(&crate::diagnostic::lacking(d)),
                visible(&d.via)
            );
        }
        s.push('\n');
    }
    summary(report, &mut s);
    out.write_all(s.as_bytes())
}

/// The summary: counts, files ignore rules hid, and what fixes are left or were applied.
pub(crate) fn summary(report: &Report, s: &mut String) {
    let sum = &report.summary;
    // Every file scanned is a skill, an agent, or another file: a plugin or marketplace
    // manifest, or a `SKILL.md` read as a document of the skill around it.
    let other = sum.files_scanned.saturating_sub(sum.skills + sum.agents);
    let other = if other > 0 {
        format!(", {}", Count(other, "other file"))
    } else {
        String::new()
    };
    let _ = writeln!(
        s,
        "{} scanned, {} ({} invalid), {}{other}, {}: {}, {}, {}",
        Count(sum.files_scanned, "file"),
        Count(sum.skills, "skill"),
        sum.invalid_skills,
        Count(sum.agents, "agent"),
        Count(report.profiles.len(), "profile"),
        Count(sum.errors, "error"),
        Count(sum.warnings, "warning"),
        Count(sum.infos, "info")
    );
    if let Some(d) = &report.baseline {
        baseline_lines(report, d, s);
    }
    if sum.ignored_files > 0 {
        // Said on the summary line's own line, so scripts reading the first stay unchanged.
        let _ = writeln!(
            s,
            "not audited: {} hidden by ignore rules (--no-ignore audits them)",
            Count(sum.ignored_files, "file")
        );
    }
    if let Some(line) = fix_line(report) {
        let _ = writeln!(s, "{line}");
    }
}

/// With `--baseline`, what changed since it, as `diff` counts it, and why findings of the
/// baseline do not fail the run: only new ones decide the exit code.
fn baseline_lines(report: &Report, d: &super::diff::Diff, s: &mut String) {
    baseline_line(d, s);
    let new = super::diff::new_marks(report, d);
    let old: Vec<Severity> = report
        .findings
        .iter()
        .zip(new)
        .filter(|(_, new)| !new)
        .map(|(f, _)| f.severity)
        .collect();
    if old.is_empty() {
        return;
    }
    let mut by_severity = Vec::new();
    for (severity, noun) in [
        (Severity::Error, "error"),
        (Severity::Warning, "warning"),
        (Severity::Info, "info"),
    ] {
        let n = old.iter().filter(|s| **s == severity).count();
        if n > 0 {
            by_severity.push(Count(n, noun).to_string());
        }
    }
    let are = if old.len() == 1 { "is" } else { "are" };
    let _ = writeln!(
        s,
        "{} ({}) {are} in the baseline: only new findings decide the exit code",
        Count(old.len(), "finding"),
        by_severity.join(", ")
    );
}

/// What changed since the baseline, as `diff` counts it: `baseline: 2 new findings, 1 fixed, …`.
fn baseline_line(d: &super::diff::Diff, s: &mut String) {
    let _ = write!(
        s,
        "baseline: {}, {} fixed, {}",
        Count(d.new_findings.len(), "new finding"),
        d.fixed_findings.len(),
        Count(d.availability_changes.len(), "availability change")
    );
    if !d.renamed.is_empty() {
        let _ = write!(s, ", {} moved", d.renamed.len());
    }
    let left = d.not_compared.total();
    if left > 0 {
        let _ = write!(s, ", {left} not compared");
    }
    s.push('\n');
}

/// One finding: with its source line when the audit attached it, else one line.
fn finding(f: &crate::diagnostic::Finding, mark: &str, renderer: &Renderer, s: &mut String) {
    let level = match f.severity {
        Severity::Error => Level::ERROR,
        Severity::Warning => Level::WARNING,
        Severity::Info => Level::INFO,
    };
    let message = format!("{mark}{}", visible(&f.message));
    let path = visible(&f.path);
    let Some(source) = &f.source else {
        // No line to show (a file that was not read): the place alone, in the same layout.
        let title = level.primary_title(message.as_str()).id(f.rule.code());
        let place = Origin::path(path.as_ref())
            .line(usize::try_from(f.line).unwrap_or(1))
            .char_column(usize::try_from(f.column).unwrap_or(1));
        let _ = writeln!(s, "{}\n", renderer.render(&[title.element(place)]));
        return;
    };
    let line = visible(source);
    let start = line
        .char_indices()
        .nth(f.column.saturating_sub(1).saturating_sub(f.source_skipped) as usize)
        .map_or(line.len(), |(i, _)| i);
    let end = start + caret_len(&line[start..]);
    let line_no = usize::try_from(f.line).unwrap_or(1);
    let snippet = Snippet::source(line.as_ref())
        .line_start(line_no)
        .annotation(AnnotationKind::Primary.span(start..end));
    let title = level.primary_title(message.as_str()).id(f.rule.code());
    // Part of a long line is shown: the place is the finding's, not the part's.
    let group = if f.source_skipped > 0 {
        let column = usize::try_from(f.column).unwrap_or(1);
        title
            .element(
                Origin::path(path.as_ref())
                    .line(line_no)
                    .char_column(column),
            )
            .element(snippet)
    } else {
        title.element(snippet.path(path.as_ref()))
    };
    let rendered = renderer.render(&[group]);
    if f.source_skipped > 0 {
        let _ = writeln!(s, "{}\n", without_second_origin(&rendered));
    } else {
        let _ = writeln!(s, "{rendered}\n");
    }
}

/// `rendered` without its first line that reads `:::` once styles are left out: the renderer
/// marks a snippet that follows an origin as another place, and for a long line shown in part
/// the origin and the snippet are the same place.
fn without_second_origin(rendered: &str) -> String {
    let mut out = String::with_capacity(rendered.len());
    let mut dropped = false;
    for line in rendered.split_inclusive('\n') {
        if !dropped && unstyled(line).trim() == ":::" {
            dropped = true;
        } else {
            out.push_str(line);
        }
    }
    out
}

/// `line` without its ANSI style sequences (`ESC [ ... m`).
fn unstyled(line: &str) -> String {
    let mut out = String::with_capacity(line.len());
    let mut chars = line.chars();
    while let Some(c) = chars.next() {
        if c == '\u{1b}' {
            chars.by_ref().find(|&c| c == 'm');
        } else {
            out.push(c);
        }
    }
    out
}

/// The column just past the span the caret underlines (in code points, as `Finding::column`
/// counts), for a finding whose line was read: SARIF's `endColumn`.
pub(crate) fn caret_end(f: &crate::diagnostic::Finding) -> Option<u32> {
    let source = f.source.as_deref()?;
    let skip = f.column.saturating_sub(1).saturating_sub(f.source_skipped) as usize;
    let start = source
        .char_indices()
        .nth(skip)
        .map_or(source.len(), |(i, _)| i);
    let rest = &source[start..];
    let covered = u32::try_from(rest[..caret_len(rest)].chars().count()).ok()?;
    // An empty span (a finding past the line's end) still covers one column.
    Some(f.column.max(1) + covered.max(1))
}

/// How many bytes of `rest` the caret covers: a flow list or mapping to its closing bracket (a
/// Markdown link through its target; unclosed, to a comment or the end of the line), a quoted
/// scalar to its closing quote (unclosed, to the end of the line), else the token up to the
/// next blank or delimiter; at least one character.
fn caret_len(rest: &str) -> usize {
    let bytes = rest.as_bytes();
    let to_line_end = |i: usize| rest[..i].trim_end().len();
    let len = match bytes.first() {
        Some(b'[' | b'{') => {
            let (mut depth, mut i) = (0_usize, 0);
            loop {
                let Some(&b) = bytes.get(i) else {
                    break to_line_end(rest.len());
                };
                match b {
                    b'\'' | b'"' => match quoted_end(bytes, i) {
                        Some(end) => {
                            i = end;
                            continue;
                        }
                        None => break to_line_end(rest.len()),
                    },
                    b'[' | b'{' => depth += 1,
                    b']' | b'}' => {
                        depth -= 1;
                        if depth == 0 {
                            break link_end(rest, i + 1);
                        }
                    }
                    b'#' if bytes[i - 1] == b' ' => break to_line_end(i),
                    _ => {}
                }
                i += 1;
            }
        }
        Some(b'\'' | b'"') => quoted_end(bytes, 0).unwrap_or_else(|| to_line_end(rest.len())),
        _ => rest
            .find([' ', ',', ']', '}', ':', '#', '\''])
            .unwrap_or(rest.len()),
    };
    // Never less than one whole character, never past the line.
    let first = rest.chars().next().map_or(0, char::len_utf8);
    len.max(first).min(rest.len())
}

/// Just past the closing quote of the quoted scalar that opens at `open`, or `None` when the
/// line ends first. A doubled `'` stays inside single quotes; `\` escapes inside double ones.
fn quoted_end(bytes: &[u8], open: usize) -> Option<usize> {
    let q = bytes[open];
    let mut i = open + 1;
    loop {
        match *bytes.get(i)? {
            b'\\' if q == b'"' => i += 2,
            b if b == q && q == b'\'' && bytes.get(i + 1) == Some(&q) => i += 2,
            b if b == q => return Some(i + 1),
            _ => i += 1,
        }
    }
}

/// Where a Markdown link whose text ends before `at` ends: after its `(target)`, if one
/// follows; else `at`.
fn link_end(rest: &str, at: usize) -> usize {
    let Some(target) = rest[at..].strip_prefix('(') else {
        return at;
    };
    let mut depth = 1_usize;
    for (i, b) in target.bytes().enumerate() {
        match b {
            b'(' => depth += 1,
            b')' => {
                depth -= 1;
                if depth == 0 {
                    return at + i + 2;
                }
            }
            _ => {}
        }
    }
    at
}

/// How many terminal columns `text` takes: two for a wide character (CJK, most emoji).
fn columns(text: &str) -> usize {
    unicode_width::UnicodeWidthStr::width(text)
}

/// `text` and the spaces that make it `width` terminal columns wide.
fn padded(text: &str, width: usize) -> String {
    format!("{text}{}", " ".repeat(width.saturating_sub(columns(text))))
}

/// The widest a matrix's name column grows: a longer name gets a line of its own, above its
/// cells, so one long name (or path) does not push every row and note off an 80-column
/// terminal.
const NAME_COLUMN: usize = 32;

/// How far a matrix's notes are indented, whatever the name column's width.
const NOTE_INDENT: usize = 4;

/// The width notes and legends wrap to: the terminal's when standard output is one (`COLUMNS`,
/// else the size the terminal reports, else 80; never under 40), else a fixed width, so a
/// report written to a file or a pipe is the same wherever it is made.
pub(crate) fn wrap_width(terminal: bool) -> usize {
    const FIXED: usize = 100;
    if !terminal {
        return FIXED;
    }
    std::env::var("COLUMNS")
        .ok()
        .and_then(|c| c.trim().parse::<usize>().ok())
        .filter(|c| *c > 0)
        .or_else(terminal_columns)
        .map_or(80, |c| c.max(40))
}

/// The width of the terminal standard output is, as it reports it (interactive shells do not
/// export `COLUMNS`).
fn terminal_columns() -> Option<usize> {
    #[cfg(unix)]
    {
        let size = rustix::termios::tcgetwinsize(std::io::stdout()).ok()?;
        Some(usize::from(size.ws_col)).filter(|c| *c > 0)
    }
    #[cfg(not(unix))]
    {
        None
    }
}

/// `text` after `indent` spaces, broken at spaces into lines of at most `width` terminal
/// columns where it can be; lines after the first are indented by `indent + 2`.
fn wrapped(text: &str, indent: usize, width: usize, s: &mut String) {
    hanging(text, indent, indent + 2, width, s);
}

/// `text` after `indent` spaces, broken at spaces into lines of at most `width` terminal
/// columns where it can be, the lines after the first indented by `hang` spaces.
pub(crate) fn hanging(text: &str, indent: usize, hang: usize, width: usize, s: &mut String) {
    let mut line_len = indent;
    let mut first_word = true;
    s.push_str(&" ".repeat(indent));
    for word in text.split(' ') {
        // Measured as the matrix is padded: a CJK character or an emoji takes two columns.
        let len = columns(word);
        if !first_word && line_len + 1 + len > width {
            s.push('\n');
            s.push_str(&" ".repeat(hang));
            line_len = hang;
        } else if !first_word {
            s.push(' ');
            line_len += 1;
        }
        s.push_str(word);
        line_len += len;
        first_word = false;
    }
    s.push('\n');
}

fn matrix<'a>(
    title: &str,
    all_rows: impl Iterator<Item = (&'a str, &'a str, &'a super::ByProfile, bool)> + Clone,
    report: &Report,
    width_limit: usize,
    s: &mut String,
) {
    if all_rows.clone().next().is_none() {
        return;
    }
    let names: Vec<&str> = report.profile_names().collect();
    let agent = title == "AGENT";
    // Rows that need no attention fold into a count, unless `--matrix all`.
    let shown = |(_, _, a, valid): &(&str, &str, &super::ByProfile, bool)| {
        report.matrix_all || super::shown_unfolded(a, &names, agent, *valid)
    };
    let rows = all_rows.clone().filter(shown);
    let folded: Vec<&super::ByProfile> = all_rows
        .clone()
        .filter(|r| !shown(r))
        .map(|(_, _, a, _)| a)
        .collect();
    if rows.clone().next().is_none() {
        folds(title, &folded, &names, width_limit, s);
        s.push('\n');
        return;
    }
    // Names more than one row has: such a row says its path on a note line.
    let mut seen = std::collections::HashSet::new();
    let twice: std::collections::HashSet<&str> = all_rows
        .filter(|(name, _, _, _)| !seen.insert(*name))
        .map(|(name, _, _, _)| name)
        .collect();
    let width = rows
        .clone()
        .map(|(n, _, _, _)| columns(&visible(n)))
        .max()
        .unwrap_or(5)
        .clamp(5, NAME_COLUMN);
    let col = names
        .iter()
        .map(|n| columns(&visible(n)))
        .max()
        .unwrap_or(0)
        .max("unavailable".len())
        .max(
            // `needs-nothing`, the one longer status, widens the columns only where it is.
            rows.clone()
                .flat_map(|(_, _, a, _)| {
                    names
                        .iter()
                        .filter_map(|n| a.get(*n))
                        .map(|a| a.status.as_str().len())
                        .collect::<Vec<_>>()
                })
                .max()
                .unwrap_or(0),
        );
    let _ = write!(s, "{title:width$}");
    for n in &names {
        let _ = write!(s, "  {}", padded(&visible(n), col));
    }
    s.truncate(s.trim_end().len());
    s.push('\n');
    for (raw, path, availability, valid) in rows.clone() {
        let name = visible(raw);
        if columns(&name) > width {
            // A long name on a line of its own; its cells below, under the column heads.
            let _ = writeln!(s, "{name}");
            let _ = write!(s, "{:width$}", "");
        } else {
            s.push_str(&padded(&name, width));
        }
        for n in &names {
            let st = availability.get(*n).map_or("-", |a| a.status.as_str());
            let _ = write!(s, "  {st:col$}");
        }
        s.truncate(s.trim_end().len());
        s.push('\n');
        if twice.contains(raw) {
            // Not wrapped: a path is one word, and breaking after `path:` helps no one.
            let _ = writeln!(s, "{:NOTE_INDENT$}path: {}", "", visible(path));
        }
        if !valid {
            wrapped(super::UNREADABLE, NOTE_INDENT, width_limit, s);
        }
        for (profiles, reason) in super::shared_reasons(availability, &names) {
            let Some(r) = reason else { continue };
            // A reason that lists thousands of names is cut as Markdown cuts it.
            let r = super::spans::shorten_lists(r, super::spans::LIST_HEAD);
            let who: Vec<_> = profiles.iter().map(|n| visible(n)).collect();
            let note = format!("{}: {}", who.join(", "), visible(&r));
            wrapped(&note, NOTE_INDENT, width_limit, s);
        }
        // What the cells are judged on, once when they agree.
        if let Some(note) = super::basis_note(availability, &names, |n| visible(n).into_owned()) {
            wrapped(&note, NOTE_INDENT, width_limit, s);
        }
    }
    folds(title, &folded, &names, width_limit, s);
    // The statuses whose names do not say it all, explained once where they occur.
    for status in [
        Status::Partial,
        Status::NotLoaded,
        Status::NotJudged,
        Status::Undeclared,
        Status::NeedsNothing,
    ] {
        let seen = rows.clone().any(|(_, _, a, _)| {
            names
                .iter()
                .any(|n| a.get(*n).is_some_and(|a| a.status == status))
        });
        if seen {
            let legend = format!("{}: {}", status.as_str(), status.meaning());
            wrapped(&legend, 2, width_limit, s);
        }
    }
    let labelled = rows.map(|(n, _, a, _)| (std::borrow::Cow::Borrowed(n), a));
    if super::has_unjudged_cells(labelled, &names) {
        wrapped(&format!("-: {}", super::NO_JUDGEMENT), 2, width_limit, s);
    }
    s.push('\n');
}

/// The rows a matrix folded, counted: those that need nothing beyond the model, and those
/// available (or, for agents, not loaded) on every profile.
fn folds(
    title: &str,
    folded: &[&super::ByProfile],
    names: &[&str],
    width_limit: usize,
    s: &mut String,
) {
    if folded.is_empty() {
        return;
    }
    let counts = super::fold_counts(folded.iter().copied(), names);
    let count = |status| counts.iter().find(|(s, _)| *s == status).map(|(_, n)| *n);
    let noun = if title == "AGENT" { "agent" } else { "skill" };
    if let Some(n) = count(Status::NeedsNothing) {
        let verb = if n == 1 { "needs" } else { "need" };
        let line = format!(
            "+ {} that {verb} nothing beyond the model: available on every profile",
            Count(n, noun)
        );
        wrapped(&line, 2, width_limit, s);
    }
    if let Some(n) = count(Status::Available) {
        let place = if noun == "agent" {
            "on every profile that loads them"
        } else {
            "on every profile"
        };
        wrapped(
            &format!("+ {} available {place}", Count(n, noun)),
            2,
            width_limit,
            s,
        );
    }
    if let Some(n) = count(Status::NotLoaded) {
        wrapped(
            &format!("+ {} loaded by none of the profiles", Count(n, noun)),
            2,
            width_limit,
            s,
        );
    }
    let _ = writeln!(s, "  (`--matrix all` lists them)");
}

/// `path:line:col: severity[RULE] message`, escaped: the compact form of a finding.
pub(crate) fn one_line(f: &crate::diagnostic::Finding) -> String {
    format!(
        "{}:{}:{}: {}[{}] {}",
        visible(&f.path),
        f.line,
        f.column,
        f.severity,
        f.rule.code(),
        visible(&f.message)
    )
}

/// Text from scanned files on one line of a terminal: control characters (ANSI and OSC
/// escapes, CR, BEL, line breaks) and the characters every format shows as escapes (bidi
/// controls, invisible format characters) written as `\u{…}`, so it can neither drive the
/// terminal nor reorder or hide what it shows.
pub(crate) fn visible(text: &str) -> std::borrow::Cow<'_, str> {
    super::escaped(text, |c| super::is_hidden(c) || matches!(c, '\n' | '\r'))
}

/// A comparison of two reports (`skill-audit diff`), one line per change.
pub(crate) fn render_diff(d: &super::diff::Diff, out: &mut dyn Write) -> io::Result<()> {
    let mut s = String::new();
    for (title, list) in [("new", &d.new_findings), ("fixed", &d.fixed_findings)] {
        for f in list {
            let _ = writeln!(s, "{title}: {}", one_line(f));
        }
    }
    for c in &d.availability_changes {
        let _ = write!(
            s,
            "{} {} on {}: {} -> {}",
            c.kind,
            visible(&c.path),
            visible(&c.profile),
            visible(&c.from),
            visible(&c.to)
        );
        match c.explanation(|n| crate::diagnostic::quote(&visible(n))) {
            Some(why) => {
                let _ = writeln!(s, " ({})", visible(&why));
            }
            None => s.push('\n'),
        }
    }
    for r in &d.renamed {
        let _ = writeln!(
            s,
            "moved: {} {} {} -> {}",
            r.kind,
            visible(&r.name),
            visible(&r.from),
            visible(&r.to)
        );
    }
    for (verb, list) in [("added", &d.added), ("removed", &d.removed)] {
        for e in list {
            let _ = writeln!(
                s,
                "{verb}: {} {} {}",
                e.kind,
                visible(&e.name),
                visible(&e.path)
            );
        }
    }
    for note in super::diff::notices(d) {
        let _ = writeln!(s, "note: {}", visible(&note));
    }
    let _ = write!(
        s,
        "{}, {} fixed, {}",
        Count(d.new_findings.len(), "new finding"),
        d.fixed_findings.len(),
        Count(d.availability_changes.len(), "availability change")
    );
    // Said only when it happens, so the line stays as it was for a like-for-like comparison.
    let left = d.not_compared.total();
    if left > 0 {
        let _ = write!(s, ", {left} not compared");
    }
    s.push('\n');
    out.write_all(s.as_bytes())
}

/// A comparison of two profiles (`skill-audit diff OLD.json NEW.json` on profiles): per
/// server, the names removed, then those added; then per machine kind, a change of
/// description, the names removed and added, and the versions changed.
pub(crate) fn render_profile_diff(
    d: &super::diff::ProfileDiff,
    out: &mut dyn Write,
) -> io::Result<()> {
    let mut s = String::new();
    let _ = writeln!(
        s,
        "profile {} ({}) -> {} ({})",
        visible(&d.old.name),
        visible(&d.old.path),
        visible(&d.new.name),
        visible(&d.new.path)
    );
    if d.servers.is_empty() && d.machine.is_empty() {
        s.push_str("no change: both profiles offer the same tools, resources and prompts\n");
        return out.write_all(s.as_bytes());
    }
    for g in &d.servers {
        let _ = writeln!(s, "{}:", visible(&g.label()));
        for (verb, added) in [("removed", false), ("added", true)] {
            for (noun, changes) in g.kinds() {
                let names = if added {
                    &changes.added
                } else {
                    &changes.removed
                };
                for n in names {
                    let _ = writeln!(s, "  {verb} {noun} {}", visible(n));
                }
            }
        }
    }
    let m = &d.machine;
    if !m.is_empty() {
        s.push_str("machine:\n");
    }
    for k in &m.kinds {
        if let Some(note) = k.description_change(|key| format!("`{key}`")) {
            let _ = writeln!(s, "  {note}");
        }
        let noun = k.kind.noun();
        for (verb, names) in [("removed", &k.removed), ("added", &k.added)] {
            for n in names {
                let _ = writeln!(s, "  {verb} {noun} {}", visible(n));
            }
        }
        for c in &k.changed {
            let _ = writeln!(
                s,
                "  changed {noun} {} {} -> {}",
                visible(&c.name),
                visible(&c.old),
                visible(&c.new)
            );
        }
    }
    let _ = write!(s, "{} added, {} removed", d.added, d.removed);
    // The machine's counts only when it changed, so MCP-only diffs read as they always did.
    if !m.is_empty() {
        let _ = write!(
            s,
            "; machine: {} added, {} removed, {} changed",
            m.added,
            m.removed,
            Count(m.changed, "version")
        );
    }
    s.push('\n');
    out.write_all(s.as_bytes())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_caret_covers_the_token_list_or_quoted_scalar() {
        for (rest, covered) in [
            ("x-y z", "x-y"),
            ("get_order, b]", "get_order"),
            ("[a, b]  # note", "[a, b]"),
            ("[a, [b], {c: d}] tail", "[a, [b], {c: d}]"),
            ("['a]', \"b\\\"]\"] x", "['a]', \"b\\\"]\"]"),
            ("[a, b,  ", "[a, b,"),
            ("[a, b # c", "[a, b"),
            ("'a' # c", "'a'"),
            ("'it''s' x", "'it''s'"),
            ("\"a\\\" b\" c", "\"a\\\" b\""),
            ("'open", "'open"),
            ("[t](a(1).md) x", "[t](a(1).md)"),
            ("[t](open x", "[t]"),
            ("[t] (x)", "[t]"),
            ("é", "é"),
            ("\"a\\", "\"a\\"),
            ("[\"a\\", "[\"a\\"),
            ("", ""),
        ] {
            assert_eq!(&rest[..caret_len(rest)], covered, "{rest:?}");
        }
    }

    proptest::proptest! {
        /// Any line: the caret ends on a character boundary within it.
        #[test]
        fn the_caret_stays_in_the_line(rest in "([\\[\\](){}'\" #,:\\\\a]|é){0,12}") {
            let len = caret_len(&rest);
            proptest::prop_assert!(rest.is_char_boundary(len) && len <= rest.len());
            proptest::prop_assert!(len > 0 || rest.is_empty());
        }
    }

    #[test]
    fn notes_wrap_at_spaces_and_indent_what_follows() {
        let mut s = String::new();
        wrapped("prod: missing tools `a`, `b`, `c`", 4, 24, &mut s);
        assert_eq!(s, "    prod: missing tools\n      `a`, `b`, `c`\n");
        // A word longer than the width stays whole.
        let mut s = String::new();
        wrapped("x abcdefghijklmnopqrstuvwxyz", 2, 10, &mut s);
        assert_eq!(s, "  x\n    abcdefghijklmnopqrstuvwxyz\n");
    }

    #[test]
    fn notes_with_wide_characters_wrap_by_terminal_columns() {
        // Counted in characters, the note would fit in 16 columns; it takes 21.
        let mut s = String::new();
        wrapped("prod: 日本語 ツール", 2, 16, &mut s);
        assert_eq!(s, "  prod: 日本語\n    ツール\n");
        let mut s = String::new();
        wrapped("a 🎉🎉🎉 b", 0, 8, &mut s);
        assert_eq!(s, "a 🎉🎉🎉\n  b\n");
    }

    #[test]
    fn wide_characters_take_two_columns_of_a_matrix() {
        assert_eq!(padded("abc", 6), "abc   ");
        assert_eq!(padded("日本", 6), "日本  ");
        assert_eq!(padded("é-🎉", 6), "é-🎉  ");
        assert_eq!(padded("toolong", 3), "toolong");
    }

    #[test]
    fn escapes_terminal_controls() {
        assert_eq!(visible("ok"), "ok");
        assert_eq!(visible("a\x1b[31mred"), "a\\u{1b}[31mred");
        assert_eq!(
            visible("x\x1b]8;;http://e\x07y"),
            "x\\u{1b}]8;;http://e\\u{7}y"
        );
        assert_eq!(visible("line\nnext\r"), "line\\u{a}next\\u{d}");
        assert_eq!(visible("rtl\u{202e}x"), "rtl\\u{202e}x");
    }
}
