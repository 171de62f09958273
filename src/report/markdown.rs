//! Markdown for people and PR comments: a verdict, the compatibility matrix with reasons, and
//! the findings. Text from scanned files goes through [`cell`] or [`inline`], which neutralise
//! table breaks, HTML, code fences and @mentions.

use std::fmt::Write as _;
use std::io::{self, Write};

use super::Report;
use super::diff::{Diff, ProfileDiff};
use crate::diagnostic::{Finding, Severity};
use crate::evaluate::Status;
use crate::words::Count;

/// First line of every Markdown report, so a bot can find and update its own comment.
pub(crate) const MARKER: &str = "<!-- skill-audit-report -->";

/// GitHub's limit on a comment body.
pub(crate) const MAX_COMMENT_CHARS: usize = 65_536;

/// Room kept for headers, `<details>` wrappers and the notes on what was left out.
const RESERVE: usize = 2_048;

/// A section of lines that can be shortened from the end, with what a line stands for.
struct Part {
    /// Lines in priority order (most important first).
    lines: Vec<String>,
    kept: usize,
    noun: &'static str,
}

impl Part {
    fn new(lines: Vec<String>, noun: &'static str) -> Part {
        let kept = lines.len();
        Part { lines, kept, noun }
    }
    fn size(&self) -> usize {
        self.lines[..self.kept].iter().map(|l| l.len() + 1).sum()
    }
    fn left_out(&self) -> usize {
        self.lines.len() - self.kept
    }
}

/// Drop lines from `parts`, in order, until everything fits in `budget` bytes. Each part is
/// cut from its end, so the least important lines of the least important part go first.
fn fit(parts: &mut [&mut Part], budget: usize) {
    let mut total: usize = parts.iter().map(|p| p.size()).sum();
    for p in parts.iter_mut() {
        while total > budget && p.kept > 0 {
            p.kept -= 1;
            total -= p.lines[p.kept].len() + 1;
        }
    }
}

pub(crate) fn render(report: &Report, out: &mut dyn Write) -> io::Result<()> {
    let mut s = String::new();
    let _ = writeln!(s, "{MARKER}\n## skill-audit report\n");
    match &report.baseline {
        Some(d) => {
            let _ = writeln!(s, "{}\n", message(&super::diff::verdict(d)));
            let budget = MAX_COMMENT_CHARS.saturating_sub(s.len() + RESERVE);
            diff_sections(d, &mut s, budget);
        }
        None => {
            let _ = writeln!(s, "{}\n", verdict(report));
            let budget = MAX_COMMENT_CHARS.saturating_sub(s.len() + RESERVE);
            full_sections(report, &mut s, budget);
        }
    }
    let _ = writeln!(
        s,
        "<sub>{} scanned · {} · {} · skill-audit {}</sub>",
        Count(report.summary.files_scanned, "file"),
        Count(report.summary.skills, "skill"),
        Count(report.summary.agents, "agent"),
        report.tool.version
    );
    out.write_all(s.as_bytes())
}

/// Matrix rows that are not fully available, drift and findings, cut to `budget` bytes:
/// info findings go first, then warnings, drift, errors and last the matrix rows.
fn full_sections(report: &Report, s: &mut String, budget: usize) {
    let names: Vec<&str> = report.profile_names().collect();
    // Rows that need no attention fold into a `<details>`, unless `--matrix all`.
    let shown = |agent: bool| {
        let names = &names;
        move |(_, a): &(&str, &super::ByProfile)| {
            report.matrix_all || super::needs_attention(a, names, agent)
        }
    };
    let (skill_rows, agent_rows) = (report.skill_rows(), report.agent_rows());
    let mut skills = Part::new(
        matrix_rows(skill_rows.clone().filter(shown(false)), &names),
        "skill rows",
    );
    let mut agents = Part::new(
        matrix_rows(agent_rows.clone().filter(shown(true)), &names),
        "agent rows",
    );
    let unshown = |agent: bool| {
        let shown = shown(agent);
        move |r: &(&str, &super::ByProfile)| !shown(r)
    };
    let mut skills_folded = Part::new(
        matrix_rows(skill_rows.clone().filter(unshown(false)), &names),
        "skill rows",
    );
    let mut agents_folded = Part::new(
        matrix_rows(agent_rows.clone().filter(unshown(true)), &names),
        "agent rows",
    );
    let skill_counts = fold_counts(skill_rows.filter(unshown(false)), &names);
    let agent_counts = fold_counts(agent_rows.filter(unshown(true)), &names);
    let mut drift = Part::new(
        report.drift.iter().map(drift_row).collect(),
        "drifting links",
    );
    let by_sev = |sev: Severity| -> Vec<String> {
        report
            .findings
            .iter()
            .filter(|f| f.severity == sev)
            .map(|f| finding_row(f, super::text::fixable(report, f)))
            .collect()
    };
    let mut errors = Part::new(by_sev(Severity::Error), "errors");
    let mut warnings = Part::new(by_sev(Severity::Warning), "warnings");
    let mut infos = Part::new(by_sev(Severity::Info), "infos");
    fit(
        &mut [
            &mut agents_folded,
            &mut skills_folded,
            &mut infos,
            &mut warnings,
            &mut drift,
            &mut errors,
            &mut agents,
            &mut skills,
        ],
        budget,
    );

    if !names.is_empty() {
        for (title, part, folded, counts, total) in [
            (
                "Skill",
                &skills,
                &skills_folded,
                &skill_counts,
                report.skills.len(),
            ),
            (
                "Agent",
                &agents,
                &agents_folded,
                &agent_counts,
                report.agents.len(),
            ),
        ] {
            if total == 0 {
                continue;
            }
            let header = table_header(title, &names);
            if part.lines.is_empty() {
                let _ = writeln!(
                    s,
                    "All {total} {}s are available on every profile{}.\n",
                    title.to_lowercase(),
                    if title == "Agent" {
                        " that loads them"
                    } else {
                        ""
                    }
                );
            } else {
                let _ = match report.matrix_all {
                    true => writeln!(s, "### {title}s ({total})\n"),
                    false => writeln!(
                        s,
                        "### {title}s not available everywhere ({} of {total})\n",
                        part.lines.len()
                    ),
                };
                s.push_str(&header);
                emit(part, s);
                let _ = writeln!(s, "\n{}\n", legend());
            }
            if !folded.lines.is_empty() {
                let each: Vec<String> = counts
                    .iter()
                    .map(|(status, n)| format!("{n} {}", mark(*status)))
                    .collect();
                let n = folded.lines.len();
                let _ = write!(
                    s,
                    "<details><summary>{} that {} no attention: {}</summary>\n\n",
                    Count(n, &title.to_lowercase()),
                    if n == 1 { "needs" } else { "need" },
                    each.join(", ")
                );
                // A table with no row left in the budget is only the note that says so.
                if folded.kept > 0 {
                    s.push_str(&header);
                }
                emit(folded, s);
                s.push_str("\n</details>\n\n");
            }
        }
    }
    if !drift.lines.is_empty() {
        let _ = writeln!(
            s,
            "<details><summary>Drift: {} where the agent lacks what the skill needs</summary>\n\n| Agent | Skill | Missing | Via |\n| --- | --- | --- | --- |",
            Count(drift.lines.len(), "link")
        );
        emit(&drift, s);
        s.push_str("\n</details>\n\n");
    }
    let total = errors.lines.len() + warnings.lines.len() + infos.lines.len();
    if total > 0 {
        let _ = writeln!(
            s,
            "<details><summary>Findings: {}, {}, {}</summary>\n\n| Severity | Rule | Location | Message |\n| --- | --- | --- | --- |",
            Count(errors.lines.len(), "error"),
            Count(warnings.lines.len(), "warning"),
            Count(infos.lines.len(), "info")
        );
        for p in [&errors, &warnings, &infos] {
            for l in &p.lines[..p.kept] {
                let _ = writeln!(s, "{l}");
            }
        }
        let cut: Vec<String> = [&errors, &warnings, &infos]
            .iter()
            .filter(|p| p.left_out() > 0)
            .map(|p| format!("{} {}", p.left_out(), p.noun))
            .collect();
        if !cut.is_empty() {
            let _ = writeln!(
                s,
                "\n_Left out to fit a comment: {}. The JSON or HTML report has everything._",
                cut.join(", ")
            );
        }
        s.push_str("\n</details>\n\n");
    }
}

/// The kept lines of a part, and a note on what was left out.
fn emit(part: &Part, s: &mut String) {
    for l in &part.lines[..part.kept] {
        let _ = writeln!(s, "{l}");
    }
    if part.left_out() > 0 {
        let _ = writeln!(
            s,
            "\n_{} more {} left out to fit a comment._",
            part.left_out(),
            part.noun
        );
    }
}

/// A comparison of two reports (`skill-audit diff -f markdown`), as a PR comment.
pub(crate) fn render_diff(d: &Diff, out: &mut dyn Write) -> io::Result<()> {
    let mut s = String::new();
    let _ = writeln!(
        s,
        "{MARKER}\n## skill-audit: changes\n\n{}\n",
        message(&super::diff::verdict(d))
    );
    diff_sections(d, &mut s, MAX_COMMENT_CHARS);
    out.write_all(s.as_bytes())
}

/// The sections of a baseline comparison: what it left out, then availability changes and
/// new findings first.
fn diff_sections(d: &Diff, s: &mut String, budget: usize) {
    let start = s.len();
    for note in super::diff::notices(d) {
        let _ = writeln!(s, "ℹ️ {}\n", message(&note));
    }
    let budget = budget.saturating_sub(s.len() - start);
    let mut changes = Part::new(
        d.availability_changes
            .iter()
            .map(|c| {
                let why = c.explanation(code);
                format!(
                    "| {} | {} | {} | {} → {} | {} |",
                    c.kind,
                    code(&c.name),
                    cell(&c.profile),
                    cell(&c.from),
                    cell(&c.to),
                    // Causes hold code already; a reason is one of our messages.
                    match (c.causes.is_empty(), why) {
                        (_, None) => String::new(),
                        (false, Some(why)) => why,
                        (true, Some(reason)) => message(&reason),
                    }
                )
            })
            .collect(),
        "availability changes",
    );
    // `marks`: a fixed finding is gone, so it has nothing left to fix.
    let sorted = |list: &[Finding], marks: bool| -> Vec<String> {
        let mut v: Vec<&Finding> = list.iter().collect();
        v.sort_by_key(|f| std::cmp::Reverse(f.severity));
        // Without the run's flags, a comparison marks the safe fixes, which `--fix` applies.
        let safe = |f: &Finding| {
            marks
                && f.fix
                    .as_ref()
                    .is_some_and(|x| x.applicability == crate::diagnostic::Applicability::Safe)
        };
        v.into_iter().map(|f| finding_row(f, safe(f))).collect()
    };
    let mut new = Part::new(sorted(&d.new_findings, true), "new findings");
    let mut fixed = Part::new(sorted(&d.fixed_findings, false), "fixed findings");
    let mut entries = Part::new(
        [("added", &d.added), ("removed", &d.removed)]
            .into_iter()
            .flat_map(|(verb, list)| {
                list.iter().map(move |e| {
                    format!(
                        "| {} | {} | {} | {verb} |",
                        e.kind,
                        code(&e.name),
                        code(&e.path)
                    )
                })
            })
            .collect(),
        "added and removed entries",
    );
    fit(
        &mut [&mut fixed, &mut entries, &mut new, &mut changes],
        budget,
    );
    if !changes.lines.is_empty() {
        let _ = writeln!(
            s,
            "### Availability changes\n\n| Kind | Name | Profile | Change | Why |\n| --- | --- | --- | --- | --- |"
        );
        emit(&changes, s);
        s.push('\n');
    }
    if !entries.lines.is_empty() {
        let _ = writeln!(
            s,
            "### Added and removed\n\n| Kind | Name | Path | Change |\n| --- | --- | --- | --- |"
        );
        emit(&entries, s);
        s.push('\n');
    }
    if !d.renamed.is_empty() {
        let _ = writeln!(s, "### Moved\n");
        for r in &d.renamed {
            let _ = writeln!(
                s,
                "- {} {}: {} → {}",
                r.kind,
                code(&r.name),
                code(&r.from),
                code(&r.to)
            );
        }
        s.push('\n');
    }
    for (title, part) in [("New findings", &new), ("Fixed findings", &fixed)] {
        if part.lines.is_empty() {
            continue;
        }
        let _ = writeln!(
            s,
            "<details><summary>{title} ({})</summary>\n\n| Severity | Rule | Location | Message |\n| --- | --- | --- | --- |",
            part.lines.len()
        );
        emit(part, s);
        s.push_str("\n</details>\n\n");
    }
}

/// A comparison of two profiles (`skill-audit diff -f markdown` on profiles), for a job
/// summary or a comment: what was removed, then what was added, per server, then what changed
/// in the machine. No marker: it is not the report comment a bot updates.
pub(crate) fn render_profile_diff(d: &ProfileDiff, out: &mut dyn Write) -> io::Result<()> {
    let mut s = String::new();
    let _ = writeln!(
        s,
        "## skill-audit: profile changes\n\n{}\n\n{} ({}) → {} ({})\n",
        message(&super::diff::profile_verdict(d)),
        code(&d.old.name),
        code(&d.old.path),
        code(&d.new.name),
        code(&d.new.path)
    );
    let rows = |added: bool| -> Vec<String> {
        let mut rows = Vec::new();
        for g in &d.servers {
            let server = match (&g.server, &g.host) {
                (Some(server), _) => code(server),
                (None, Some(host)) => format!("host {}", code(host)),
                (None, None) => "no server".to_owned(),
            };
            for (noun, changes) in g.kinds() {
                let names = if added {
                    &changes.added
                } else {
                    &changes.removed
                };
                rows.extend(
                    names
                        .iter()
                        .map(|n| format!("| {server} | {noun} | {} |", code(n))),
                );
            }
        }
        rows
    };
    let mut removed = Part::new(rows(false), "removed names");
    let mut added = Part::new(rows(true), "added names");
    let mut machine = Part::new(machine_rows(&d.machine), "machine changes");
    let budget = MAX_COMMENT_CHARS.saturating_sub(s.len() + RESERVE);
    fit(&mut [&mut added, &mut machine, &mut removed], budget);
    for (title, part) in [("Removed", &removed), ("Added", &added)] {
        if part.lines.is_empty() {
            continue;
        }
        let _ = writeln!(
            s,
            "### {title} ({})\n\n| Server | Kind | Name |\n| --- | --- | --- |",
            part.lines.len()
        );
        emit(part, &mut s);
        s.push('\n');
    }
    if !machine.lines.is_empty() {
        let _ = writeln!(
            s,
            "### Machine ({})\n\n| Kind | Change | Name |\n| --- | --- | --- |",
            machine.lines.len()
        );
        emit(&machine, &mut s);
        s.push('\n');
    }
    out.write_all(s.as_bytes())
}

/// One row per machine change, kind by kind: a change of description, the names removed,
/// those added, the versions changed.
fn machine_rows(m: &super::diff::MachineChanges) -> Vec<String> {
    let mut rows = Vec::new();
    for k in &m.kinds {
        let noun = k.kind.noun();
        if let Some(note) = k.description_change(|key| format!("`{key}`")) {
            rows.push(format!("| {noun} | {} | |", message(&note)));
        }
        for (verb, names) in [("removed", &k.removed), ("added", &k.added)] {
            rows.extend(
                names
                    .iter()
                    .map(|n| format!("| {noun} | {verb} | {} |", code(n))),
            );
        }
        rows.extend(k.changed.iter().map(|c| {
            format!(
                "| {noun} | {} → {} | {} |",
                code(&c.old),
                code(&c.new),
                code(&c.name)
            )
        }));
    }
    rows
}

/// A finding as a table row; `fixable` puts `[*]` (`--fix` can fix it) before its message.
fn finding_row(f: &Finding, fixable: bool) -> String {
    format!(
        "| {} | `{}` | {} | {}{} |",
        f.severity,
        f.rule.code(),
        code(&format!("{}:{}", f.path, f.line)),
        if fixable { "`[*]` " } else { "" },
        message(&f.message)
    )
}

fn drift_row(d: &crate::model::Drift) -> String {
    let mut missing: Vec<String> = d.missing_tools.iter().map(|t| code(t)).collect();
    missing.extend(d.unmet_any.iter().map(|g| {
        format!(
            "one of {}",
            g.iter().map(|t| code(t)).collect::<Vec<_>>().join(", ")
        )
    }));
    missing.extend(
        d.missing_mcp_servers
            .iter()
            .map(|m| format!("MCP server {}", code(m))),
    );
    format!(
        "| {} | {} | {} | {} |",
        code(&d.agent),
        code(&d.skill),
        missing.join(", "),
        code(&d.via)
    )
}

/// A matrix table's header and separator lines.
fn table_header(title: &str, names: &[&str]) -> String {
    let mut s = format!("| {title} |");
    for n in names {
        let _ = write!(s, " {} |", cell(n));
    }
    s.push_str(" Why |\n| --- |");
    for _ in names {
        s.push_str(" --- |");
    }
    s.push_str(" --- |\n");
    s
}

/// The rows a matrix folds, counted by what they are everywhere: needing nothing, not loaded
/// (an agent no profile loads), else available; in the legend's order, zero counts left out.
fn fold_counts<'a>(
    rows: impl Iterator<Item = (&'a str, &'a super::ByProfile)>,
    names: &[&str],
) -> Vec<(Status, usize)> {
    let mut counts = [0usize; 3];
    let kinds = [Status::Available, Status::NotLoaded, Status::NeedsNothing];
    for (_, availability) in rows {
        let all = |status: Status| {
            names
                .iter()
                .all(|n| availability.get(*n).is_some_and(|a| a.status == status))
        };
        let i = match (all(Status::NeedsNothing), all(Status::NotLoaded)) {
            (true, _) => 2,
            (_, true) => 1,
            _ => 0,
        };
        counts[i] += 1;
    }
    let mut out: Vec<(Status, usize)> = kinds
        .into_iter()
        .zip(counts)
        .filter(|(_, n)| *n > 0)
        .collect();
    out.sort_by_key(|(status, _)| Status::ALL.iter().position(|s| s == status));
    out
}

/// One table row per matrix row, with the reasons in the last column.
fn matrix_rows<'a>(
    rows: impl Iterator<Item = (&'a str, &'a super::ByProfile)>,
    names: &[&str],
) -> Vec<String> {
    let mut out = Vec::new();
    for (name, availability) in rows {
        let mut row = format!("| {} |", code(name));
        let mut why = Vec::new();
        for n in names {
            let a = availability.get(*n);
            let _ = write!(row, " {} |", a.map_or("–", |a| mark(a.status)));
            if let Some(a) = a.filter(|a| a.explained()) {
                why.push(format!(
                    "**{}**: {}",
                    inline(n),
                    message(a.reason.as_deref().unwrap_or("requirements not met"))
                ));
            }
        }
        // What the row's cells are judged on, once when they agree.
        why.extend(super::basis_note(availability, names, inline));
        let _ = write!(row, " {} |", why.join("<br>"));
        out.push(row);
    }
    out
}

/// One line that says how the run went.
pub(crate) fn verdict(report: &Report) -> String {
    let sum = &report.summary;
    type Counts = std::collections::BTreeMap<String, std::collections::BTreeMap<Status, usize>>;
    let cells = |m: &Counts, status: Status| -> usize {
        m.values()
            .map(|c| c.get(&status).copied().unwrap_or(0))
            .sum()
    };
    let (us, ua) = (
        cells(&sum.by_profile, Status::Unavailable),
        cells(&sum.agents_by_profile, Status::Unavailable),
    );
    let partial = cells(&sum.agents_by_profile, Status::Partial);
    let icon = if sum.errors > 0 {
        "❌"
    } else if sum.warnings > 0 || us + ua + partial > 0 {
        "⚠️"
    } else {
        "✅"
    };
    let mut v = format!(
        "{icon} **{}** ({} invalid), **{}** · {}, {}, {}",
        Count(sum.skills, "skill"),
        sum.invalid_skills,
        Count(sum.agents, "agent"),
        Count(sum.errors, "error"),
        Count(sum.warnings, "warning"),
        Count(sum.infos, "info")
    );
    if !report.profiles.is_empty() {
        let _ = write!(
            v,
            " · {us} skill and {ua} agent cells unavailable, {partial} agent {} partial, across {}",
            if partial == 1 { "cell" } else { "cells" },
            Count(report.profiles.len(), "profile")
        );
    }
    if sum.drifting_links > 0 {
        let _ = write!(v, " · {}", Count(sum.drifting_links, "drifting link"));
    }
    v
}

/// What each mark in the matrices means.
fn legend() -> String {
    Status::ALL
        .iter()
        .map(|s| format!("{}: {}", mark(*s), s.meaning()))
        .collect::<Vec<_>>()
        .join(" · ")
}

fn mark(status: Status) -> &'static str {
    match status {
        Status::Available => "✅ available",
        Status::Partial => "🟠 partial",
        Status::Unavailable => "❌ unavailable",
        Status::NotLoaded => "💤 not loaded",
        Status::NotJudged => "❔ not judged",
        Status::Undeclared => "➖ undeclared",
        Status::NeedsNothing => "☑️ needs nothing",
        Status::Invalid => "⚠️ invalid",
    }
}

/// A message of ours, whose `backticked` parts are names from scanned files: those become
/// code spans (verbatim, inert), the rest is escaped text. Safe inside a table cell.
pub(crate) fn message(text: &str) -> String {
    text.split('`')
        .enumerate()
        .map(|(i, part)| if i % 2 == 1 { code(part) } else { inline(part) })
        .collect()
}

/// Text safe inside a table cell: no row or column breaks, no HTML, no pings.
pub(crate) fn cell(text: &str) -> String {
    // `inline` already escapes `|` and folds newlines, which is all a cell adds.
    inline(text)
}

/// Text safe in a Markdown line: HTML and Markdown control characters escaped, mentions and
/// references broken with a zero-width joiner so nobody is notified.
pub(crate) fn inline(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        match c {
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '&' => out.push_str("&amp;"),
            '@' => out.push_str("@\u{2060}"),
            '\\' | '`' | '*' | '_' | '[' | ']' | '#' | '~' | '|' => {
                out.push('\\');
                out.push(c);
            }
            '\n' | '\r' => out.push(' '),
            c if c.is_control() => {}
            c => out.push(c),
        }
    }
    out
}

/// `text` verbatim in code style, as inline HTML with every special character escaped: unlike a
/// backtick code span, nothing in `text` can end it early, and no raw `<` ever reaches the page.
pub(crate) fn code(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 13);
    out.push_str("<code>");
    for c in text.chars() {
        match c {
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '&' => out.push_str("&amp;"),
            '"' => out.push_str("&quot;"),
            '|' => out.push_str("&#124;"),
            '`' => out.push_str("&#96;"),
            '\\' => out.push_str("&#92;"),
            '@' => out.push_str("@&#8288;"),
            '*' | '_' | '[' | ']' | '~' => {
                let _ = write!(out, "&#{};", c as u32);
            }
            c if c.is_control() => out.push(' '),
            c => out.push(c),
        }
    }
    out.push_str("</code>");
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escapes_hostile_text() {
        assert_eq!(cell("a|b"), "a\\|b");
        assert_eq!(
            inline("<script>x</script>"),
            "&lt;script&gt;x&lt;/script&gt;"
        );
        assert_eq!(inline("@octocat"), "@\u{2060}octocat");
        assert_eq!(inline("</details>"), "&lt;/details&gt;");
        assert_eq!(inline("line\nbreak"), "line break");
        assert_eq!(code("a`b"), "<code>a&#96;b</code>");
        assert_eq!(code("x|y</code>"), "<code>x&#124;y&lt;/code&gt;</code>");
        assert_eq!(
            message("missing `a|b` <x>"),
            "missing <code>a&#124;b</code> &lt;x&gt;"
        );
    }
}
