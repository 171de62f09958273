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

/// A section of lines that can be shortened, with what a line stands for.
struct Part {
    lines: Vec<String>,
    /// Indices of `lines`, most important first: `fit` drops lines from the end of this order,
    /// while the lines kept are shown in their own order.
    order: Vec<usize>,
    kept: usize,
    /// What a line is, one and several.
    noun: [&'static str; 2],
}

impl Part {
    /// A part whose lines are already in priority order (most important first).
    fn new(lines: Vec<String>, noun: [&'static str; 2]) -> Part {
        let order = (0..lines.len()).collect();
        Part::ordered(lines, order, noun)
    }
    fn ordered(lines: Vec<String>, order: Vec<usize>, noun: [&'static str; 2]) -> Part {
        let kept = lines.len();
        Part {
            lines,
            order,
            kept,
            noun,
        }
    }
    fn size(&self) -> usize {
        self.order[..self.kept]
            .iter()
            .map(|&i| self.lines[i].len() + 1)
            .sum()
    }
    fn left_out(&self) -> usize {
        self.lines.len() - self.kept
    }
    /// How many lines were left out, with the noun and `more` before it: "1 warning", "3
    /// more warnings".
    fn left_out_count(&self, more: &str) -> String {
        let n = self.left_out();
        format!("{n} {more}{}", self.noun[usize::from(n != 1)])
    }
    /// The lines that survived `fit`, in their own order.
    fn shown(&self) -> impl Iterator<Item = &String> {
        let kept = self.kept_lines();
        self.lines
            .iter()
            .zip(kept)
            .filter(|(_, k)| *k)
            .map(|(l, _)| l)
    }
    /// Whether each line survived `fit`, in line order.
    fn kept_lines(&self) -> Vec<bool> {
        let mut kept = vec![false; self.lines.len()];
        for &i in &self.order[..self.kept] {
            kept[i] = true;
        }
        kept
    }
}

/// Drop lines from `parts`, in order, until everything fits in `budget` bytes. Each part is
/// cut from the end of its order, so the least important lines of the least important part go
/// first.
fn fit(parts: &mut [&mut Part], budget: usize) {
    let mut total: usize = parts.iter().map(|p| p.size()).sum();
    for p in parts.iter_mut() {
        while total > budget && p.kept > 0 {
            p.kept -= 1;
            total -= p.lines[p.order[p.kept]].len() + 1;
        }
    }
}

/// What `render` writes with `budget` for the lines that can be cut, or with less when that
/// does not fit a comment: the room kept for headers and notes is only an estimate, so an
/// output over the limit is rendered again with the budget shrunk by the excess.
fn fitted(mut budget: usize, render: impl Fn(usize) -> String) -> String {
    loop {
        let s = render(budget);
        let over = s.chars().count().saturating_sub(MAX_COMMENT_CHARS);
        if over == 0 || budget == 0 {
            return s;
        }
        budget = budget.saturating_sub(over);
    }
}

/// Statuses that make a row need attention, worst first.
const WORST_FIRST: [Status; 6] = [
    Status::Invalid,
    Status::Unavailable,
    Status::Partial,
    Status::NotLoaded,
    Status::NotJudged,
    Status::Undeclared,
];

/// A matrix row's worst cell among those that make it need attention, by the rule of
/// [`super::needs_attention`]; `None` when it needs none. A missing cell is one no profile
/// judged, so it counts as not judged.
fn worst(availability: &super::ByProfile, names: &[&str], agent: bool) -> Option<Status> {
    (names.iter())
        .map(|n| availability.get(*n).map(|a| a.status))
        .filter(|status| super::cell_needs_attention(*status, agent))
        // A missing cell ranks as one not judged.
        .map(|status| status.unwrap_or(Status::NotJudged))
        .min_by_key(|s| WORST_FIRST.iter().position(|w| w == s))
}

/// How urgently a row with this worst cell needs attention, most urgent lowest: what could
/// not be read (the run's errors), then what cannot run, then what runs in part or not at all
/// on a host, then what could not be judged, then rows that need no attention.
fn urgency(worst: Option<Status>) -> usize {
    match worst {
        Some(Status::Invalid) => 0,
        Some(Status::Unavailable) => 1,
        Some(Status::Partial | Status::NotLoaded) => 2,
        Some(_) => 3,
        None => 4,
    }
}

/// The order in which to keep the rows of several tables laid end to end, most important
/// first: by urgency (see [`urgency`]); rows equally urgent are taken in each table's own
/// order, the tables interleaved so that each keeps the same share of its rows of that
/// urgency, and the first of them before any table's second, so none is emptied for another.
fn keep_order(tables: &[&[Option<Status>]]) -> Vec<usize> {
    // (urgency, rows of the table before it with that urgency, their number, table, index)
    let mut rows: Vec<(usize, usize, usize, usize, usize)> = Vec::new();
    let mut start = 0;
    // A row that needs no attention is the least urgent.
    let urgencies = urgency(None) + 1;
    for (t, worst) in tables.iter().enumerate() {
        let mut of = vec![0usize; urgencies];
        for w in worst.iter() {
            of[urgency(*w)] += 1;
        }
        let mut before = vec![0usize; urgencies];
        for (i, w) in worst.iter().enumerate() {
            let u = urgency(*w);
            rows.push((u, before[u], of[u], t, start + i));
            before[u] += 1;
        }
        start += worst.len();
    }
    // Within an urgency, by the share of its table's rows of that urgency that come before a
    // row, compared without division.
    rows.sort_by(|a, b| {
        a.0.cmp(&b.0)
            .then_with(|| (a.1 * b.2).cmp(&(b.1 * a.2)))
            .then_with(|| a.3.cmp(&b.3))
    });
    rows.into_iter().map(|r| r.4).collect()
}

/// The rows of the skill table and the agent table, cut as one part so that they share the
/// room, the rows that need attention most kept first.
struct Tables {
    part: Part,
    /// Each line's worst cell, as [`worst`] finds it.
    worst: Vec<Option<Status>>,
    /// Where the agent rows start.
    split: usize,
}

impl Tables {
    fn new(skills: Vec<(String, Option<Status>)>, agents: Vec<(String, Option<Status>)>) -> Tables {
        let split = skills.len();
        let (lines, worst): (Vec<String>, Vec<Option<Status>>) =
            skills.into_iter().chain(agents).unzip();
        let order = keep_order(&[&worst[..split], &worst[split..]]);
        Tables {
            part: Part::ordered(lines, order, ["matrix row", "matrix rows"]),
            worst,
            split,
        }
    }
    fn range(&self, agent: bool) -> std::ops::Range<usize> {
        match agent {
            false => 0..self.split,
            true => self.split..self.part.lines.len(),
        }
    }
}

/// The kept rows of one table of `t`, in report order, and a note on those left out. With
/// `describe`, the note says how much the rows left out need attention, so a reader knows
/// whether anything worse than what is shown is missing.
fn emit_rows(t: &Tables, kept: &[bool], agent: bool, describe: bool, s: &mut String) {
    let range = t.range(agent);
    for i in range.clone().filter(|&i| kept[i]) {
        let _ = writeln!(s, "{}", t.part.lines[i]);
    }
    let cut: Vec<Option<Status>> = range.filter(|&i| !kept[i]).map(|i| t.worst[i]).collect();
    if cut.is_empty() {
        return;
    }
    // "More" only after rows that are shown.
    let more = if cut.len() < t.range(agent).len() {
        "more "
    } else {
        ""
    };
    let _ = write!(
        s,
        "\n_{} {more}{} {} left out to fit a comment",
        cut.len(),
        if agent { "agent" } else { "skill" },
        if cut.len() == 1 { "row" } else { "rows" }
    );
    if describe {
        s.push_str(&left_out_detail(&cut));
    }
    s.push_str("._\n");
}

/// What rows left out need: none of them attention, or their worst cells by status and how
/// many need none, with a word when none is invalid or unavailable.
fn left_out_detail(cut: &[Option<Status>]) -> String {
    let one = cut.len() == 1;
    let fine = cut.iter().filter(|w| w.is_none()).count();
    if fine == cut.len() {
        return match one {
            true => ", which needs no attention".to_owned(),
            false => ", none of which needs attention".to_owned(),
        };
    }
    let each: Vec<String> = WORST_FIRST
        .iter()
        .filter_map(|status| {
            let n = cut.iter().filter(|w| **w == Some(*status)).count();
            (n > 0).then(|| format!("{n} {}", mark(*status)))
        })
        .collect();
    let mut out = String::new();
    if cut
        .iter()
        .all(|w| urgency(*w) > urgency(Some(Status::Unavailable)))
    {
        let (invalid, unavailable) = (mark(Status::Invalid), mark(Status::Unavailable));
        let _ = match one {
            true => write!(out, ", which is neither {invalid} nor {unavailable}"),
            false => write!(out, ", none of which is {invalid} or {unavailable}"),
        };
    }
    let _ = write!(out, " (worst cell: {}", each.join(", "));
    if fine > 0 {
        let _ = write!(
            out,
            "; {fine} {} no attention",
            if fine == 1 { "needs" } else { "need" }
        );
    }
    out.push(')');
    out
}

pub(crate) fn render(report: &Report, out: &mut dyn Write) -> io::Result<()> {
    let mut head = String::new();
    let _ = writeln!(head, "{MARKER}\n## skill-audit report\n");
    let _ = match &report.baseline {
        Some(d) => writeln!(
            head,
            "{}\n",
            message(&super::diff::verdict(d, report.run_fails()))
        ),
        None => writeln!(head, "{}\n", verdict(report)),
    };
    if report.summary.ignored_files > 0 {
        // As text says it: a reviewer should know that files were skipped.
        let _ = writeln!(
            head,
            "ℹ️ Not audited: {} hidden by ignore rules (`--no-ignore` audits them).\n",
            Count(report.summary.ignored_files, "file")
        );
    }
    let first = MAX_COMMENT_CHARS.saturating_sub(head.len() + RESERVE);
    let s = fitted(first, |budget| {
        let mut s = head.clone();
        match &report.baseline {
            Some(d) => diff_sections(d, &mut s, budget),
            None => full_sections(report, &mut s, budget),
        }
        let _ = writeln!(
            s,
            "<sub>{} scanned · {} · {} · skill-audit {}</sub>",
            Count(report.summary.files_scanned, "file"),
            Count(report.summary.skills, "skill"),
            Count(report.summary.agents, "agent"),
            report.tool.version
        );
        s
    });
    out.write_all(s.as_bytes())
}

/// Matrix rows, drift and findings, cut to `budget` bytes: the folded rows go first, then info
/// findings, warnings, drift, errors and last the rows that `--matrix` shows, the rows that
/// need attention least first.
fn full_sections(report: &Report, s: &mut String, budget: usize) {
    let names: Vec<&str> = report.profile_names().collect();
    // Each row with whether its entry is valid.
    let skill_rows: Vec<(super::Row<'_>, bool)> = (report.skill_rows())
        .zip(report.skills.iter().map(|k| k.valid()))
        .collect();
    let agent_rows: Vec<(super::Row<'_>, bool)> = (report.agent_rows())
        .zip(report.agents.iter().map(|a| a.valid))
        .collect();
    // Rows that need no attention fold into a `<details>`, unless `--matrix all`.
    let shown = |agent: bool, (row, valid): &(super::Row<'_>, bool)| {
        report.matrix_all || super::shown_unfolded(row.1, &names, agent, *valid)
    };
    let unjudged = super::has_unjudged_cells(
        skill_rows.iter().chain(&agent_rows).map(|(r, _)| r.clone()),
        &names,
    );
    // Each table's rows, shown or folded, with their worst cells; an invalid entry's is
    // invalid, so that it ranks with the rows kept longest.
    let rows = |agent: bool, folded: bool| -> Vec<(String, Option<Status>)> {
        let all = if agent { &agent_rows } else { &skill_rows };
        let list: Vec<&(super::Row<'_>, bool)> =
            all.iter().filter(|r| shown(agent, r) != folded).collect();
        let lines = matrix_rows(list.iter().map(|(r, valid)| (r.clone(), *valid)), &names);
        let cells = list.iter().map(|((_, a), valid)| match valid {
            true => worst(a, &names, agent),
            false => Some(Status::Invalid),
        });
        lines.into_iter().zip(cells).collect()
    };
    let mut matrix = Tables::new(rows(false, false), rows(true, false));
    let mut folded = Tables::new(rows(false, true), rows(true, true));
    let fold_counts = |agent: bool| {
        let all = if agent { &agent_rows } else { &skill_rows };
        let unshown = all.iter().filter(|r| !shown(agent, r));
        super::fold_counts(unshown.map(|((_, a), _)| *a), &names)
    };
    let (skill_counts, agent_counts) = (fold_counts(false), fold_counts(true));
    let mut drift = Part::new(
        report.drift.iter().map(drift_row).collect(),
        ["drifting link", "drifting links"],
    );
    let by_sev = |sev: Severity| -> Vec<String> {
        report
            .findings
            .iter()
            .filter(|f| f.severity == sev)
            .map(|f| finding_row(f, super::text::fixable(report, f)))
            .collect()
    };
    let mut errors = Part::new(by_sev(Severity::Error), ["error", "errors"]);
    let mut warnings = Part::new(by_sev(Severity::Warning), ["warning", "warnings"]);
    let mut infos = Part::new(by_sev(Severity::Info), ["info", "infos"]);
    fit(
        &mut [
            &mut folded.part,
            &mut infos,
            &mut warnings,
            &mut drift,
            &mut errors,
            &mut matrix.part,
        ],
        budget,
    );

    if !names.is_empty() {
        let (shown_kept, folded_kept) = (matrix.part.kept_lines(), folded.part.kept_lines());
        // A table with no row left in the budget is only the note that says so.
        let any_kept =
            |kept: &[bool], range: std::ops::Range<usize>| range.into_iter().any(|i| kept[i]);
        // Whether a table of rows that need attention was drawn, whose marks the legend under
        // the matrices explains (folded rows are only available, needing nothing or not loaded,
        // which their summary spells out).
        let mut drawn = false;
        for (title, agent, counts, total) in [
            ("Skill", false, &skill_counts, report.skills.len()),
            ("Agent", true, &agent_counts, report.agents.len()),
        ] {
            if total == 0 {
                continue;
            }
            let noun = title.to_lowercase();
            let header = table_header(title, &names);
            let listed = matrix.range(agent);
            if listed.is_empty() {
                let (all, them) = match total {
                    1 => (format!("The one {noun} is"), "it"),
                    _ => (format!("All {total} {noun}s are"), "them"),
                };
                let place = match agent {
                    true => format!(" that loads {them}"),
                    false => String::new(),
                };
                let _ = writeln!(s, "{all} available on every profile{place}.\n");
            } else {
                // The heading says what the rows have in common: they need attention (by
                // `needs_attention`, or are invalid), which is not the same as unavailable.
                let _ = match report.matrix_all {
                    true => writeln!(s, "### {title}s ({total})\n"),
                    false => writeln!(
                        s,
                        "### {title}s that need attention ({} of {total})\n",
                        listed.len()
                    ),
                };
                let some = any_kept(&shown_kept, listed);
                if some {
                    s.push_str(&header);
                    drawn = true;
                }
                emit_rows(&matrix, &shown_kept, agent, true, s);
                s.push('\n');
            }
            let hidden = folded.range(agent);
            if !hidden.is_empty() {
                let each: Vec<String> = counts
                    .iter()
                    .map(|(status, n)| format!("{n} {}", mark(*status)))
                    .collect();
                let n = hidden.len();
                let verb = if n == 1 { "needs" } else { "need" };
                if !any_kept(&folded_kept, hidden) {
                    // No row left to fold: one line, not a `<details>` holding only the note.
                    let _ = writeln!(
                        s,
                        "{} {verb} no attention: {}. _{n} {noun} {} left out to fit a comment._\n",
                        Count(n, &noun),
                        each.join(", "),
                        if n == 1 { "row" } else { "rows" }
                    );
                    continue;
                }
                let _ = write!(
                    s,
                    "<details><summary>{} that {verb} no attention: {}</summary>\n\n",
                    Count(n, &noun),
                    each.join(", ")
                );
                s.push_str(&header);
                // The summary already says these rows need no attention.
                emit_rows(&folded, &folded_kept, agent, false, s);
                s.push_str("\n</details>\n\n");
            }
        }
        // Once, not under every table: it is long, and the comment's room is better spent
        // on rows.
        if drawn {
            let _ = writeln!(s, "{}\n", legend(unjudged));
        }
    }
    if !drift.lines.is_empty() {
        let _ = writeln!(
            s,
            "<details><summary>Drift: {} where the agent lacks what the skill needs</summary>\n",
            Count(drift.lines.len(), "link")
        );
        table(
            "| Agent | Skill | Missing | Via |\n| --- | --- | --- | --- |",
            &drift,
            s,
        );
        s.push_str("\n</details>\n\n");
    }
    let total = errors.lines.len() + warnings.lines.len() + infos.lines.len();
    if total > 0 {
        let _ = writeln!(
            s,
            "<details><summary>Findings: {}, {}, {}</summary>\n",
            Count(errors.lines.len(), "error"),
            Count(warnings.lines.len(), "warning"),
            Count(infos.lines.len(), "info")
        );
        let parts = [&errors, &warnings, &infos];
        if parts.iter().any(|p| p.kept > 0) {
            let _ = writeln!(
                s,
                "| Severity | Rule | Location | Message |\n| --- | --- | --- | --- |"
            );
            for l in parts.iter().flat_map(|p| p.shown()) {
                let _ = writeln!(s, "{l}");
            }
            s.push('\n');
        }
        let cut: Vec<String> = parts
            .iter()
            .filter(|p| p.left_out() > 0)
            .map(|p| p.left_out_count(""))
            .collect();
        if !cut.is_empty() {
            let _ = writeln!(
                s,
                "_Left out to fit a comment: {}. The JSON or HTML report has everything._\n",
                cut.join(", ")
            );
        }
        s.push_str("</details>\n\n");
    }
}

/// A table of a part's kept lines under `header` (its header and separator lines), or, when
/// none was kept, only the note that says so.
fn table(header: &str, part: &Part, s: &mut String) {
    if part.kept > 0 {
        let _ = writeln!(s, "{header}");
    }
    emit(part, s);
}

/// The kept lines of a part, and a note on what was left out.
fn emit(part: &Part, s: &mut String) {
    for l in part.shown() {
        let _ = writeln!(s, "{l}");
    }
    if part.left_out() > 0 {
        // "More" only after lines that are shown.
        let more = if part.kept > 0 { "more " } else { "" };
        let _ = writeln!(
            s,
            "\n_{} left out to fit a comment._",
            part.left_out_count(more)
        );
    }
}

/// A comparison of two reports (`skill-audit diff -f markdown`), as a PR comment.
pub(crate) fn render_diff(d: &Diff, out: &mut dyn Write) -> io::Result<()> {
    let mut head = String::new();
    let _ = writeln!(
        head,
        "{MARKER}\n## skill-audit: changes\n\n{}\n",
        message(&super::diff::verdict(d, false))
    );
    let s = fitted(
        MAX_COMMENT_CHARS.saturating_sub(head.len() + RESERVE),
        |budget| {
            let mut s = head.clone();
            diff_sections(d, &mut s, budget);
            s
        },
    );
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
                let why = c.explanation(crate::diagnostic::quote);
                format!(
                    "| {} | {} | {} | {} → {} | {} |",
                    c.kind,
                    code(&c.name),
                    cell(&c.profile),
                    cell(&c.from),
                    cell(&c.to),
                    why.map_or_else(String::new, |why| listed(&why))
                )
            })
            .collect(),
        ["availability change", "availability changes"],
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
    let mut new = Part::new(
        sorted(&d.new_findings, true),
        ["new finding", "new findings"],
    );
    let mut fixed = Part::new(
        sorted(&d.fixed_findings, false),
        ["fixed finding", "fixed findings"],
    );
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
        ["added or removed entry", "added and removed entries"],
    );
    let mut moved = Part::new(
        (d.renamed.iter())
            .map(|r| {
                format!(
                    "- {} {}: {} → {}",
                    r.kind,
                    code(&r.name),
                    code(&r.from),
                    code(&r.to)
                )
            })
            .collect(),
        ["moved entry", "moved entries"],
    );
    // A move changes nothing the audit judges, so its list is cut first: a library moved
    // into a new folder must not push its new findings out of the comment.
    fit(
        &mut [&mut moved, &mut fixed, &mut entries, &mut new, &mut changes],
        budget,
    );
    if !changes.lines.is_empty() {
        s.push_str("### Availability changes\n\n");
        table(
            "| Kind | Name | Profile | Change | Why |\n| --- | --- | --- | --- | --- |",
            &changes,
            s,
        );
        s.push('\n');
    }
    if !entries.lines.is_empty() {
        s.push_str("### Added and removed\n\n");
        table(
            "| Kind | Name | Path | Change |\n| --- | --- | --- | --- |",
            &entries,
            s,
        );
        s.push('\n');
    }
    if !moved.lines.is_empty() {
        let _ = writeln!(s, "### Moved\n");
        emit(&moved, s);
        s.push('\n');
    }
    for (title, part) in [("New findings", &new), ("Fixed findings", &fixed)] {
        if part.lines.is_empty() {
            continue;
        }
        let _ = writeln!(
            s,
            "<details><summary>{title} ({})</summary>\n",
            part.lines.len()
        );
        table(
            "| Severity | Rule | Location | Message |\n| --- | --- | --- | --- |",
            part,
            s,
        );
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
    let mut removed = Part::new(rows(false), ["removed name", "removed names"]);
    let mut added = Part::new(rows(true), ["added name", "added names"]);
    let mut machine = Part::new(
        machine_rows(&d.machine),
        ["machine change", "machine changes"],
    );
    let budget = MAX_COMMENT_CHARS.saturating_sub(s.len() + RESERVE);
    fit(&mut [&mut added, &mut machine, &mut removed], budget);
    for (title, part) in [("Removed", &removed), ("Added", &added)] {
        if part.lines.is_empty() {
            continue;
        }
        let _ = writeln!(s, "### {title} ({})\n", part.lines.len());
        table(
            "| Server | Kind | Name |\n| --- | --- | --- |",
            part,
            &mut s,
        );
        s.push('\n');
    }
    if !machine.lines.is_empty() {
        let _ = writeln!(s, "### Machine ({})\n", machine.lines.len());
        table(
            "| Kind | Change | Name |\n| --- | --- | --- |",
            &machine,
            &mut s,
        );
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
        listed(&f.message)
    )
}

fn drift_row(d: &crate::model::Drift) -> String {
    let missing: Vec<String> = (d.lacking().iter())
        .map(|l| format!("{} {}", l.what, names(l.names)))
        .collect();
    format!(
        "| {} | {} | {} | {} |",
        code(&d.agent),
        code(&d.skill),
        missing.join("; "),
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

/// One table row per matrix row, with the reasons in the last column; `valid` is false for an
/// entry whose frontmatter could not be read, which the reasons say first.
fn matrix_rows<'a>(
    rows: impl Iterator<Item = (super::Row<'a>, bool)>,
    names: &[&str],
) -> Vec<String> {
    let mut out = Vec::new();
    for ((name, availability), valid) in rows {
        let mut row = format!("| {} |", code(&name));
        let mut why = Vec::new();
        if !valid {
            why.push(format!("{}: {}", mark(Status::Invalid), super::UNREADABLE));
        }
        for n in names {
            let a = availability.get(*n);
            let _ = write!(row, " {} |", a.map_or("–", |a| mark(a.status)));
        }
        for (profiles, reason) in super::shared_reasons(availability, names) {
            let who: Vec<String> = profiles
                .iter()
                .map(|n| format!("**{}**", inline(n)))
                .collect();
            why.push(format!(
                "{}: {}",
                who.join(", "),
                listed(reason.unwrap_or("requirements not met"))
            ));
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
    // A skill a host does not load needs attention; an agent a host does not load does not
    // (see `needs_attention`), so only skill cells count.
    let not_loaded = cells(&sum.by_profile, Status::NotLoaded);
    // Errors are marked whatever `--fail-on` says, so a merged report, whose threshold is not
    // known, reads as the runs it merges; a threshold that fails on warnings is marked too.
    let icon = if sum.errors > 0 || report.run_fails() {
        "❌"
    } else if sum.warnings > 0 || us + ua + partial + not_loaded > 0 {
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
            " · {us} skill and {ua} agent cells unavailable, {not_loaded} skill {} not loaded, {partial} agent {} partial, across {}",
            if not_loaded == 1 { "cell" } else { "cells" },
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
/// Every status's mark and meaning, and the dash's where a cell has none (`unjudged`).
fn legend(unjudged: bool) -> String {
    let mut each: Vec<String> = (Status::ALL.iter())
        .map(|s| format!("{}: {}", mark(*s), s.meaning()))
        .collect();
    if unjudged {
        each.push(format!("–: {}", super::NO_JUDGEMENT));
    }
    each.join(" · ")
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
    use super::spans::Piece;
    super::spans::pieces(text)
        .into_iter()
        .map(|piece| match piece {
            Piece::Code { name, .. } => code(name),
            Piece::Text(t) => inline(t),
        })
        .collect()
}

/// A message of ours in a table cell, as [`message`] renders it, its long lists of names cut
/// to their first few: one skill that needs thousands of tools would otherwise fill a comment
/// with one row. The JSON report has them all.
fn listed(text: &str) -> String {
    message(&super::spans::shorten_lists(text, super::spans::LIST_HEAD))
}

/// Names in code, each of them, or the first few and how many more for a long list.
fn names(list: &[String]) -> String {
    message(&super::spans::shorten_lists(
        &crate::diagnostic::quoted(list),
        super::spans::LIST_HEAD,
    ))
}

/// Text safe inside a table cell: no row or column breaks, no HTML, no pings.
pub(crate) fn cell(text: &str) -> String {
    // `inline` already escapes `|` and folds newlines, which is all a cell adds.
    inline(text)
}

/// Text safe in a Markdown line: HTML and Markdown control characters escaped, mentions and
/// references broken with a zero-width joiner so nobody is notified, autolinks broken (see
/// [`autolink_break`]) and hidden characters shown as escapes (see [`super::is_hidden`]).
pub(crate) fn inline(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 8);
    for (i, c) in text.char_indices() {
        if let Some(entity) = autolink_break(text, i) {
            out.push_str(entity);
            continue;
        }
        match c {
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '&' => out.push_str("&amp;"),
            '@' => out.push_str("@\u{2060}"),
            '\\' | '`' | '*' | '_' | '[' | ']' | '#' | '~' | '|' => {
                out.push('\\');
                out.push(c);
            }
            // Line breaks would end a table row; a tab is only whitespace.
            '\n' | '\r' | '\t' => out.push(' '),
            // The backslash of the escape, escaped so that it shows.
            c if super::is_hidden(c) => {
                let _ = write!(out, "\\\\u{{{:x}}}", c as u32);
            }
            c => out.push(c),
        }
    }
    out
}

/// `text` verbatim in code style, as inline HTML with every special character escaped: unlike a
/// backtick code span, nothing in `text` can end it early, and no raw `<` ever reaches the page.
/// Autolinks are broken and hidden characters shown as escapes, as in [`inline`].
pub(crate) fn code(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 13);
    out.push_str("<code>");
    for (i, c) in text.char_indices() {
        if let Some(entity) = autolink_break(text, i) {
            out.push_str(entity);
            continue;
        }
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
            '\n' | '\r' | '\t' => out.push(' '),
            c if super::is_hidden(c) => {
                let _ = write!(out, "&#92;u{{{:x}}}", c as u32);
            }
            c => out.push(c),
        }
    }
    out.push_str("</code>");
    out
}

/// The entity to write for the character at byte `i` of `text` when it would make GitHub
/// autolink a name from a scanned file: the `:` of `scheme://` or the `.` of `www.`. An
/// entity renders as the same character, but GitHub's autolinker (cmark-gfm's) matches the
/// source text, so the name shows as written and links nowhere.
fn autolink_break(text: &str, i: usize) -> Option<&'static str> {
    let bytes = text.as_bytes();
    match bytes[i] {
        b':' if text[i + 1..].starts_with("//") => Some("&#58;"),
        b'.' if i >= 3 && bytes[i - 3..i].eq_ignore_ascii_case(b"www") => Some("&#46;"),
        _ => None,
    }
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

    #[test]
    fn hidden_characters_show_as_escapes() {
        // A right-to-left override would reverse what follows it on the page.
        assert_eq!(inline("a\u{202e}b"), "a\\\\u{202e}b");
        assert_eq!(code("read\u{202e}"), "<code>read&#92;u{202e}</code>");
        assert_eq!(
            code("\u{1b}[31m\u{7}\u{0}\u{200b}\u{2066}"),
            "<code>&#92;u{1b}&#91;31m&#92;u{7}&#92;u{0}&#92;u{200b}&#92;u{2066}</code>"
        );
        // Line breaks and tabs are whitespace.
        assert_eq!(code("a\nb\tc"), "<code>a b c</code>");
        assert_eq!(super::super::unhidden("x\u{feff}y\n"), "x\\u{feff}y\n");
        assert!(matches!(
            super::super::unhidden("plain"),
            std::borrow::Cow::Borrowed(_)
        ));
    }

    #[test]
    fn names_do_not_autolink() {
        assert_eq!(
            code("https://evil.example/x"),
            "<code>https&#58;//evil.example/x</code>"
        );
        assert_eq!(code("WWW.e.test"), "<code>WWW&#46;e.test</code>");
        assert_eq!(
            inline("[c](http://e.example)"),
            "\\[c\\](http&#58;//e.example)"
        );
        // Only a scheme's colon and `www.`'s dot.
        assert_eq!(inline("a: b.c"), "a: b.c");
        assert_eq!(code("x:/y"), "<code>x:/y</code>");
    }

    #[test]
    fn names_with_backticks_stay_one_code_span() {
        let text = format!(
            "on {}: missing {}",
            crate::diagnostic::quote("p<&>`"),
            crate::diagnostic::quoted(&["tick`tick", "x"])
        );
        assert_eq!(
            message(&text),
            "on <code>p&lt;&amp;&gt;&#96;</code>: missing <code>tick&#96;tick</code>, <code>x</code>"
        );
        // A backtick nothing closes is text, escaped as such.
        assert_eq!(message("a `b"), "a \\`b");
    }

    fn row(statuses: &[Status]) -> crate::report::ByProfile {
        statuses
            .iter()
            .enumerate()
            .map(|(i, s)| (format!("p{i}"), crate::evaluate::Availability::of(*s, None)))
            .collect()
    }

    #[test]
    fn a_row_has_a_worst_cell_exactly_when_it_needs_attention() {
        let names = ["p0", "p1"];
        for a in Status::ALL {
            for b in Status::ALL {
                for agent in [false, true] {
                    let r = row(&[a, b]);
                    assert_eq!(
                        worst(&r, &names, agent).is_some(),
                        crate::report::needs_attention(&r, &names, agent),
                        "{a:?} {b:?} agent: {agent}"
                    );
                }
            }
        }
        let r = row(&[Status::NotLoaded, Status::Undeclared, Status::Partial]);
        let names = ["p0", "p1", "p2"];
        assert_eq!(worst(&r, &names, false), Some(Status::Partial));
        assert_eq!(worst(&r, &names[..2], false), Some(Status::NotLoaded));
        // A host that does not load a kind of agent is no fault of the agent's.
        assert_eq!(worst(&r, &names[..2], true), Some(Status::Undeclared));
        // A cell no profile judged.
        assert_eq!(
            worst(&row(&[Status::Available]), &["p0", "gone"], false),
            Some(Status::NotJudged)
        );
    }

    #[test]
    fn equally_urgent_rows_of_two_tables_share_the_room() {
        let (nj, part, bad) = (
            Some(Status::NotJudged),
            Some(Status::Partial),
            Some(Status::Unavailable),
        );
        // Skills 0..4, agents 4..12.
        let skills = [nj, part, nj, nj];
        let agents = [part, part, None, part, bad, part, part, part];
        let order = keep_order(&[&skills, &agents]);
        assert_eq!(order[0], 8, "the unavailable agent");
        // The partial rows: the skill's one first, then the agents' in their order.
        assert_eq!(&order[1..8], &[1, 4, 5, 7, 9, 10, 11]);
        // The not-judged skills, then the row that needs no attention.
        assert_eq!(&order[8..], &[0, 2, 3, 6]);
        let skills = [nj; 3];
        let agents = [nj; 6];
        let order = keep_order(&[&skills, &agents]);
        // Each table keeps the same share of its rows: one skill for two agents.
        assert_eq!(order, [0, 3, 4, 1, 5, 6, 2, 7, 8]);
        // What could not be read (the run's errors) before what cannot run.
        let skills = [bad, bad, Some(Status::Invalid)];
        assert_eq!(keep_order(&[&skills, &[]]), [2, 0, 1]);
    }

    #[test]
    fn rows_that_need_attention_most_are_kept_and_shown_in_order() {
        let line = |n: usize| format!("| row {n:02} |");
        let (und, bad) = (Some(Status::Undeclared), Some(Status::Invalid));
        let skills = vec![
            (line(0), und),
            (line(1), None),
            (line(2), bad),
            (line(3), und),
        ];
        let agents = vec![(line(4), und), (line(5), Some(Status::Unavailable))];
        let mut t = Tables::new(skills, agents);
        // Room for three rows.
        fit(&mut [&mut t.part], 3 * (line(0).len() + 1));
        let kept = t.part.kept_lines();
        let mut s = String::new();
        emit_rows(&t, &kept, false, true, &mut s);
        assert_eq!(
            s,
            "| row 00 |\n| row 02 |\n\n_2 more skill rows left out to fit a comment, none of which is ⚠️ invalid or ❌ unavailable (worst cell: 1 ➖ undeclared; 1 needs no attention)._\n"
        );
        s.clear();
        emit_rows(&t, &kept, true, true, &mut s);
        assert_eq!(
            s,
            "| row 05 |\n\n_1 more agent row left out to fit a comment, which is neither ⚠️ invalid nor ❌ unavailable (worst cell: 1 ➖ undeclared)._\n"
        );
    }

    #[test]
    fn the_note_on_rows_left_out_says_how_bad_they_are() {
        let note = |cut: &[Option<Status>]| left_out_detail(cut);
        assert_eq!(note(&[None, None]), ", none of which needs attention");
        assert_eq!(
            note(&[
                Some(Status::NotJudged),
                Some(Status::Unavailable),
                None,
                None,
                Some(Status::Unavailable)
            ]),
            " (worst cell: 2 ❌ unavailable, 1 ❔ not judged; 2 need no attention)"
        );
    }

    #[test]
    fn output_over_the_limit_is_rendered_again_with_less() {
        // Headers longer than the room kept for them: the first budget is too large.
        let render = |budget: usize| "x".repeat(budget) + &"h".repeat(3 * RESERVE);
        let s = fitted(MAX_COMMENT_CHARS - RESERVE, render);
        assert_eq!(s.chars().count(), MAX_COMMENT_CHARS);
        // However small the budget, rendering ends.
        let s = fitted(10, |b| "x".repeat(b + MAX_COMMENT_CHARS + 1));
        assert_eq!(s.len(), MAX_COMMENT_CHARS + 1);
    }
}
