//! A self-contained HTML page: summary chart, compatibility matrix with filters, drift, findings
//! grouped by file and the docs of the rules that occur. Rendered with minijinja from
//! `templates/report.html.j2`, which is HTML-autoescaped by its name.
//!
//! Text from scanned files reaches the page only through autoescaping or through the two
//! filters defined here, which escape it themselves: `code_spans` (our messages, whose
//! `backticked` parts become `<code>`) and `markdown` (descriptions, through pulldown-cmark
//! with raw HTML escaped and links and images reduced to their text). The template never uses
//! `|safe`.
//! The page loads nothing: its Content-Security-Policy allows only its own inline style and the
//! one inline script whose hash it names.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::io::{self, Write};

use minijinja::value::{Serde, Value};
use minijinja::{Environment, UndefinedBehavior, syntax::SyntaxConfig};
use serde::Serialize;

use super::{ByProfile, Report, Summary};

use crate::diagnostic::{Finding, Severity};
use crate::evaluate::Status;
use crate::rules::Rule;
use crate::words::Count;

use super::unhidden;

const TEMPLATE_NAME: &str = "report.html.j2";
const TEMPLATE: &str = include_str!("../../templates/report.html.j2");

pub(crate) fn render(report: &Report, out: &mut dyn Write) -> io::Result<()> {
    let failed = |e: minijinja::Error| {
        // A failed write keeps its kind: the caller takes a closed pipe (`| head`) as a reader
        // that stopped, as it does for every other format.
        match std::error::Error::source(&e).and_then(|s| s.downcast_ref::<io::Error>()) {
            Some(write) => io::Error::new(write.kind(), write.to_string()),
            None => io::Error::other(format!("html report: {e:#}")),
        }
    };
    let env = environment().map_err(failed)?;
    let page = Page::new(report);
    env.get_template(TEMPLATE_NAME)
        .map_err(failed)?
        .render_captured_to(Value::from(Serde(&page)), out)
        .map(|_| ())
        .map_err(failed)
}

fn environment() -> Result<Environment<'static>, minijinja::Error> {
    let mut env = Environment::new();
    env.set_undefined_behavior(UndefinedBehavior::Strict);
    env.set_syntax(
        SyntaxConfig::builder()
            .trim_blocks(true)
            .lstrip_blocks(true)
            .keep_trailing_newline(true)
            .build()?,
    );
    // Every value the template prints is escaped, and before that its hidden characters
    // (bidi controls, invisible format characters, control characters) are written as
    // `\u{…}`, as text output writes them: raw, they could reorder or hide what the page
    // shows. The filters below, whose output is marked safe, do the same themselves.
    env.set_formatter(|out, state, value| match value.as_str().map(unhidden) {
        Some(std::borrow::Cow::Owned(shown)) if !value.is_safe() => {
            minijinja::escape_formatter(out, state, &Value::from(shown))
        }
        _ => minijinja::escape_formatter(out, state, value),
    });
    env.add_filter("code_spans", |text: &str| {
        Value::from_safe_string(code_spans(text))
    });
    env.add_filter("markdown", |text: &str| {
        Value::from_safe_string(markdown(text))
    });
    // A path that may wrap only after its separators, never inside a name.
    env.add_filter("path_breaks", |text: &str| {
        Value::from_safe_string(path_breaks(text))
    });
    // `{{ n|count("skill") }}`: "1 skill", "2 skills".
    env.add_filter("count", |n: usize, noun: &str| Count(n, noun).to_string());
    env.add_template(TEMPLATE_NAME, TEMPLATE)?;
    Ok(env)
}

/// HTML-escape `text` (`&`, `<`, `>`, quotes and `/`), as autoescaping does, its hidden
/// characters written as `\u{…}` first, as the template's formatter writes them.
fn escape(text: &str) -> String {
    minijinja::HtmlEscape(&unhidden(text)).to_string()
}

/// A message of ours, whose `backticked` parts are names from scanned files: those become
/// `<code>`, and every part is escaped.
pub(crate) fn code_spans(text: &str) -> String {
    use super::spans::Piece;
    let mut out = String::with_capacity(text.len() + 16);
    for piece in super::spans::pieces(text) {
        match piece {
            Piece::Code { name, .. } => {
                let _ = write!(out, "<code>{}</code>", escape(name));
            }
            Piece::Text(t) => out.push_str(&escape(t)),
        }
    }
    out
}

/// `text` (a path) escaped, with a line-break opportunity (`<wbr>`) after each `/`, `\\`, `-`,
/// `_` and `.`, so a long file name wraps at its separators rather than mid-word.
pub(crate) fn path_breaks(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 16);
    let mut rest = text;
    while let Some(i) = rest.find(['/', '\\', '-', '_', '.']) {
        out.push_str(&escape(&rest[..=i]));
        out.push_str("<wbr>");
        rest = &rest[i + 1..];
    }
    out.push_str(&escape(rest));
    out
}

/// Markdown from a scanned file as HTML that cannot run or load anything: raw HTML is shown
/// escaped, and links and images are replaced by their text.
pub(crate) fn markdown(text: &str) -> String {
    use pulldown_cmark::{CowStr, Event, Options, Parser, Tag, TagEnd, html};

    // Where each open link or image pointed, and the text seen inside it so far.
    let mut open: Vec<(CowStr, String)> = Vec::new();
    let mut events = Vec::new();
    // Hidden characters as `\u{…}`, which Markdown leaves as it is (a backslash before a
    // letter escapes nothing); line breaks and tabs stay, as they shape the Markdown.
    let text = unhidden(text);
    for event in Parser::new_ext(&text, Options::ENABLE_STRIKETHROUGH) {
        match event {
            Event::Start(Tag::Link { dest_url, .. } | Tag::Image { dest_url, .. }) => {
                open.push((dest_url, String::new()));
            }
            Event::End(TagEnd::Link | TagEnd::Image) => {
                let Some((url, label)) = open.pop() else {
                    continue;
                };
                if let Some((_, outer)) = open.last_mut() {
                    outer.push_str(&label);
                }
                // Keep where a link pointed, as text, unless its text already says so
                // (`<https://…>`).
                let bare = url.strip_prefix("mailto:").unwrap_or(&url);
                if !url.is_empty() && label != bare {
                    let shown = if label.is_empty() {
                        url.to_string()
                    } else {
                        format!(" ({url})")
                    };
                    events.push(Event::Text(shown.into()));
                }
            }
            Event::Html(raw) | Event::InlineHtml(raw) => events.push(Event::Text(raw)),
            other => {
                if let (Event::Text(t) | Event::Code(t), Some((_, label))) =
                    (&other, open.last_mut())
                {
                    label.push_str(t);
                }
                events.push(other);
            }
        }
    }
    let mut out = String::new();
    html::push_html(&mut out, events.into_iter());
    out
}

#[derive(Serialize)]
struct Page<'a> {
    version: &'a str,
    roots: &'a [String],
    summary: &'a Summary,
    profiles: &'a [super::ProfileEntry],
    stats: Vec<Stat>,
    /// The chart legend: every status.
    statuses: Vec<StatusView>,
    /// The matrix's status toggles: every status, and the dash of a cell with no judgement
    /// when one occurs.
    filters: Vec<StatusView>,
    /// `--matrix all`: the page starts with every row shown, as text and Markdown list them.
    matrix_all: bool,
    charts: Vec<Chart>,
    matrices: Vec<Matrix<'a>>,
    drift: Vec<DriftRow<'a>>,
    files: Vec<FileGroup<'a>>,
    rules: Vec<RuleView>,
    baseline: Option<Baseline<'a>>,
}

#[derive(Serialize)]
struct Stat {
    label: &'static str,
    value: usize,
    note: Option<String>,
    /// `error`, `warning`, `info` or `plain`: the accent when the value is not zero.
    tone: &'static str,
}

#[derive(Serialize)]
struct StatusView {
    name: &'static str,
    label: &'static str,
    help: &'static str,
}

fn status_views() -> Vec<StatusView> {
    Status::ALL
        .iter()
        .map(|s| StatusView {
            name: s.as_str(),
            label: status_label(*s),
            help: s.meaning(),
        })
        .collect()
}

/// A cell with no judgement: its row comes from a merged report that was not run on this
/// profile. Shown as text and Markdown show it, a dash.
const NO_JUDGEMENT: StatusView = StatusView {
    name: "none",
    label: "–",
    help: super::NO_JUDGEMENT,
};

fn status_label(s: Status) -> &'static str {
    match s {
        Status::Available => "Available",
        Status::Partial => "Partial",
        Status::Unavailable => "Unavailable",
        Status::NotLoaded => "Not loaded",
        Status::NotJudged => "Not judged",
        Status::Undeclared => "Undeclared",
        Status::NeedsNothing => "Needs nothing",
        Status::Invalid => "Invalid",
    }
}

/// A horizontal stacked bar chart, one bar per profile; geometry in SVG user units.
#[derive(Serialize)]
struct Chart {
    title: &'static str,
    /// What a bar counts, singular: the template's `count` adds the plural's `s`.
    noun: &'static str,
    width: u32,
    height: u32,
    label_width: u32,
    bar_width: u32,
    bar_height: u32,
    bars: Vec<Bar>,
    /// One line for screen readers.
    description: String,
}

#[derive(Serialize)]
struct Bar {
    profile: String,
    /// The profile name, shortened to fit the label column.
    label: String,
    y: u32,
    text_y: u32,
    total: usize,
    segments: Vec<Segment>,
}

#[derive(Serialize)]
struct Segment {
    status: &'static str,
    label: &'static str,
    count: usize,
    x: u32,
    width: u32,
    /// Where the count is written, when the segment is wide enough for it.
    text_x: Option<u32>,
}

const CHART_BAR_WIDTH: u32 = 400;
const CHART_BAR_HEIGHT: u32 = 22;
const CHART_GAP: u32 = 10;
const CHART_MAX_LABEL: usize = 18;

fn chart(
    title: &'static str,
    noun: &'static str,
    report: &Report,
    counts: &BTreeMap<String, BTreeMap<Status, usize>>,
) -> Option<Chart> {
    let profiles: Vec<&str> = report.profile_names().collect();
    let per_bar: Vec<(&str, Vec<(Status, usize)>)> = profiles
        .iter()
        .map(|p| {
            let c = counts.get(*p);
            let v = Status::ALL
                .iter()
                .map(|s| (*s, c.and_then(|c| c.get(s)).copied().unwrap_or(0)))
                .collect();
            (*p, v)
        })
        .collect();
    if per_bar.iter().all(|(_, v)| v.iter().all(|(_, n)| *n == 0)) {
        return None;
    }
    let longest = profiles
        .iter()
        .map(|p| p.chars().count().min(CHART_MAX_LABEL + 1))
        .max()
        .unwrap_or(0) as u32;
    let label_width = (longest * 8 + 16).clamp(56, 180);
    let mut bars = Vec::new();
    let mut description = Vec::new();
    for (i, (profile, counts)) in per_bar.into_iter().enumerate() {
        let total: usize = counts.iter().map(|(_, n)| n).sum();
        let y = i as u32 * (CHART_BAR_HEIGHT + CHART_GAP);
        let mut segments = Vec::new();
        let mut x = 0u32;
        let mut seen = 0usize;
        let last = counts.iter().rposition(|(_, n)| *n > 0);
        for (j, (status, count)) in counts.iter().enumerate() {
            if *count == 0 {
                continue;
            }
            seen += count;
            // Integer geometry with the rounding carried forward: no gaps, same output always.
            let end = if Some(j) == last {
                CHART_BAR_WIDTH
            } else {
                (seen as u64 * CHART_BAR_WIDTH as u64 / total as u64) as u32
            };
            let width = end.saturating_sub(x);
            let digits = count.to_string().len() as u32;
            segments.push(Segment {
                status: status.as_str(),
                label: status_label(*status),
                count: *count,
                x: label_width + x,
                width,
                text_x: (width >= digits * 8 + 8).then_some(label_width + x + width / 2),
            });
            x = end;
        }
        description.push(format!(
            "{profile}: {}",
            counts
                .iter()
                .map(|(s, n)| format!("{n} {}", s.as_str()))
                .collect::<Vec<_>>()
                .join(", ")
        ));
        let label = if profile.chars().count() > CHART_MAX_LABEL {
            let mut l: String = profile.chars().take(CHART_MAX_LABEL - 1).collect();
            l.push('…');
            l
        } else {
            profile.to_owned()
        };
        bars.push(Bar {
            profile: profile.to_owned(),
            label,
            y,
            text_y: y + CHART_BAR_HEIGHT / 2 + 5,
            total,
            segments,
        });
    }
    let n = bars.len() as u32;
    Some(Chart {
        title,
        noun,
        width: label_width + CHART_BAR_WIDTH + 48,
        height: n * CHART_BAR_HEIGHT + n.saturating_sub(1) * CHART_GAP,
        label_width,
        bar_width: CHART_BAR_WIDTH,
        bar_height: CHART_BAR_HEIGHT,
        bars,
        description: format!("{title}. {}.", description.join("; ")),
    })
}

#[derive(Serialize)]
struct Matrix<'a> {
    id: &'static str,
    title: &'static str,
    /// The heading of the first column.
    column: &'static str,
    rows: Vec<Row<'a>>,
}

#[derive(Serialize)]
struct Row<'a> {
    name: &'a str,
    path: &'a str,
    description: Option<&'a str>,
    /// Small labels after the name: `invalid`, an agent's flavour.
    tags: Vec<String>,
    /// What the text filter searches (name and path).
    search: String,
    /// The distinct statuses of the row's cells, space-separated, for the status toggles;
    /// `none` for a cell with no judgement.
    statuses: String,
    /// The row is one text and Markdown list rather than fold (`shown_unfolded`): the page
    /// starts with only these shown.
    attention: bool,
    /// Where a skill's requirements are declared, for the cells' tooltips.
    sources: Option<String>,
    cells: Vec<Cell<'a>>,
}

#[derive(Serialize)]
struct Cell<'a> {
    profile: &'a str,
    status: &'static str,
    label: &'static str,
    /// What the label means, for a cell whose label is only a dash.
    help: Option<&'static str>,
    /// Why, for the cells that say (`Availability::explained`), long lists of names cut to
    /// their first few: the findings list them all.
    reason: Option<std::borrow::Cow<'a, str>>,
    /// What a skill's cell is judged on: `declared`, `inferred`, `declared and inferred`.
    basis: Option<&'static str>,
}

/// One matrix row; `flavor` is an agent's (none for a skill), `valid` false for an entry whose
/// frontmatter could not be read.
fn row<'a>(
    report: &'a Report,
    name: &'a str,
    path: &'a str,
    description: Option<&'a str>,
    flavor: Option<&str>,
    availability: &'a ByProfile,
    valid: bool,
) -> Row<'a> {
    let mut tags: Vec<String> = flavor.map(str::to_owned).into_iter().collect();
    if !valid {
        tags.push("invalid".to_owned());
    }
    let mut statuses: Vec<&str> = Vec::new();
    let cells = report
        .profiles
        .iter()
        .map(|p| {
            let a = availability.get(&p.name);
            let status = a.map(|a| a.status);
            let name = status.map_or(NO_JUDGEMENT.name, Status::as_str);
            if !statuses.contains(&name) {
                statuses.push(name);
            }
            Cell {
                profile: &p.name,
                status: name,
                label: status.map_or(NO_JUDGEMENT.label, status_label),
                help: status.is_none().then_some(NO_JUDGEMENT.help),
                reason: a.filter(|a| a.explained()).map(|a| {
                    let reason = a.reason.as_deref().unwrap_or("requirements not met");
                    super::spans::shorten_lists(reason, super::spans::LIST_HEAD)
                }),
                basis: a.and_then(|a| a.basis).map(|b| b.as_str()),
            }
        })
        .collect();
    Row {
        name,
        path,
        description: description.filter(|d| !d.trim().is_empty()),
        tags,
        search: format!("{name} {path}"),
        statuses: statuses.join(" "),
        // The rule text and Markdown fold by, so the first view lists the same rows.
        attention: super::shown_unfolded(
            availability,
            &report.profile_names().collect::<Vec<_>>(),
            flavor.is_some(),
            valid,
        ),
        sources: None,
        cells,
    }
}

#[derive(Serialize)]
struct DriftRow<'a> {
    agent: &'a str,
    skill: &'a str,
    skill_path: &'a str,
    via: &'a str,
    /// Each entry is one thing to grant: a tool, `one of` a group, or an MCP server.
    missing: Vec<Missing>,
    search: String,
}

#[derive(Serialize)]
struct Missing {
    prefix: &'static str,
    names: Vec<String>,
}

#[derive(Serialize)]
struct FileGroup<'a> {
    path: &'a str,
    errors: usize,
    warnings: usize,
    infos: usize,
    findings: Vec<FindingView<'a>>,
}

#[derive(Serialize)]
struct FindingView<'a> {
    path: &'a str,
    line: u32,
    column: u32,
    severity: &'static str,
    code: &'static str,
    name: &'static str,
    message: &'a str,
    /// `--fix` (with `--unsafe-fixes` when the run marks unsafe fixes) can fix it.
    fixable: bool,
}

fn finding_view<'a>(report: &Report, f: &'a Finding) -> FindingView<'a> {
    FindingView {
        path: &f.path,
        line: f.line,
        column: f.column,
        severity: f.severity.as_str(),
        code: f.rule.code(),
        name: f.rule.name(),
        message: &f.message,
        fixable: super::text::fixable(report, f),
    }
}

#[derive(Serialize)]
struct RuleView {
    code: &'static str,
    name: &'static str,
    severity: &'static str,
    summary: &'static str,
    what: &'static str,
    why: &'static str,
    example: &'static str,
    count: usize,
}

#[derive(Serialize)]
struct Baseline<'a> {
    new_findings: Vec<FindingView<'a>>,
    fixed: usize,
    changes: &'a [super::diff::AvailabilityChange],
}

impl<'a> Page<'a> {
    /// The page, section by section as the template lays it out.
    fn new(report: &'a Report) -> Page<'a> {
        let matrices = matrices(report);
        let mut filters = status_views();
        if matrices
            .iter()
            .flat_map(|m| &m.rows)
            .flat_map(|r| &r.cells)
            .any(|c| c.status == NO_JUDGEMENT.name)
        {
            filters.push(NO_JUDGEMENT);
        }
        Page {
            version: &report.tool.version,
            roots: &report.roots,
            summary: &report.summary,
            profiles: &report.profiles,
            stats: stats(&report.summary),
            statuses: status_views(),
            filters,
            matrix_all: report.matrix_all,
            charts: charts(report),
            matrices,
            drift: drift_rows(report),
            files: file_groups(report),
            rules: rules_used(report),
            baseline: baseline(report),
        }
    }
}

/// The numbers across the top.
fn stats(sum: &Summary) -> Vec<Stat> {
    vec![
        Stat {
            label: "Skills",
            value: sum.skills,
            note: (sum.invalid_skills > 0).then(|| format!("{} invalid", sum.invalid_skills)),
            tone: "plain",
        },
        Stat {
            label: "Agents",
            value: sum.agents,
            note: None,
            tone: "plain",
        },
        Stat {
            label: "Drifting links",
            value: sum.drifting_links,
            note: Some(format!("of {}", Count(sum.links, "link"))),
            tone: "warning",
        },
        Stat {
            label: "Errors",
            value: sum.errors,
            note: None,
            tone: "error",
        },
        Stat {
            label: "Warnings",
            value: sum.warnings,
            note: None,
            tone: "warning",
        },
        Stat {
            label: "Infos",
            value: sum.infos,
            note: None,
            tone: "info",
        },
        Stat {
            label: "Files scanned",
            value: sum.files_scanned,
            // As text says it: a reader should know that files were skipped.
            note: (sum.ignored_files > 0).then(|| {
                format!(
                    "not audited: {} hidden by ignore rules (--no-ignore audits them)",
                    Count(sum.ignored_files, "file")
                )
            }),
            tone: "plain",
        },
    ]
}

/// Skills and agents by status, per profile.
fn charts(report: &Report) -> Vec<Chart> {
    [
        chart(
            "Skills by profile",
            "skill",
            report,
            &report.summary.by_profile,
        ),
        chart(
            "Agents by profile",
            "agent",
            report,
            &report.summary.agents_by_profile,
        ),
    ]
    .into_iter()
    .flatten()
    .collect()
}

/// The skill and agent matrices.
fn matrices(report: &Report) -> Vec<Matrix<'_>> {
    let skills = report
        .skills
        .iter()
        .map(|s| Row {
            sources: sources(&s.skill),
            ..row(
                report,
                &s.skill.name,
                &s.skill.path,
                s.skill.description.as_deref(),
                None,
                &s.availability,
                s.valid(),
            )
        })
        .collect();
    let agents = report
        .agents
        .iter()
        .map(|a| {
            row(
                report,
                &a.agent.name,
                &a.agent.path,
                a.agent.description.as_deref(),
                Some(&a.agent.flavor),
                &a.availability,
                a.valid,
            )
        })
        .collect();
    let matrices = vec![
        Matrix {
            id: "skills",
            title: "Skills",
            column: "Skill",
            rows: skills,
        },
        Matrix {
            id: "agents",
            title: "Agents",
            column: "Agent",
            rows: agents,
        },
    ];
    matrices
}

/// "Requirements from dependencies (line 8), openclaw (line 3)": each source and where.
fn sources(skill: &crate::model::Skill) -> Option<String> {
    if skill.requirements.is_empty() {
        return None;
    }
    let each: Vec<String> = skill
        .requirements
        .iter()
        .map(|d| {
            let kinds: Vec<&str> = crate::model::DepKind::ALL
                .iter()
                .filter(|k| !d.requirements.group(**k).is_empty())
                .map(|k| k.key())
                .collect();
            let place = match &d.file {
                Some(f) => format!("{f}:{}", d.line),
                None => format!("line {}", d.line),
            };
            format!("{} ({place}): {}", d.source.as_str(), kinds.join(", "))
        })
        .collect();
    Some(format!("Requirements from {}", each.join("; ")))
}

/// The drift table.
fn drift_rows(report: &Report) -> Vec<DriftRow<'_>> {
    report
        .drift
        .iter()
        .map(|d| {
            let missing = (d.lacking().into_iter())
                .map(|l| Missing {
                    prefix: l.what,
                    names: l.names.to_vec(),
                })
                .collect();
            DriftRow {
                agent: &d.agent,
                skill: &d.skill,
                skill_path: &d.skill_path,
                via: &d.via,
                missing,
                search: format!("{} {} {}", d.agent, d.skill, d.skill_path),
            }
        })
        .collect()
}

/// Findings grouped by file (findings come sorted by path).
fn file_groups(report: &Report) -> Vec<FileGroup<'_>> {
    let mut files: Vec<FileGroup> = Vec::new();
    for f in &report.findings {
        if files.last().is_none_or(|g| g.path != f.path) {
            files.push(FileGroup {
                path: &f.path,
                errors: 0,
                warnings: 0,
                infos: 0,
                findings: Vec::new(),
            });
        }
        let g = files.last_mut().expect("pushed above");
        match f.severity {
            Severity::Error => g.errors += 1,
            Severity::Warning => g.warnings += 1,
            Severity::Info => g.infos += 1,
        }
        g.findings.push(finding_view(report, f));
    }
    files
}

/// The docs of the rules that have findings.
fn rules_used(report: &Report) -> Vec<RuleView> {
    let mut used: BTreeMap<Rule, usize> = BTreeMap::new();
    for f in &report.findings {
        *used.entry(f.rule).or_default() += 1;
    }
    // New findings of a baseline comparison link to the rules section too.
    for f in report.baseline.iter().flat_map(|b| &b.new_findings) {
        used.entry(f.rule).or_default();
    }
    used.into_iter()
        .map(|(r, count)| {
            let doc = r.doc();
            RuleView {
                code: r.code(),
                name: r.name(),
                severity: r.default_severity().as_str(),
                summary: r.summary(),
                what: doc.what,
                why: doc.why,
                example: doc.example,
                count,
            }
        })
        .collect()
}

/// A comparison with a baseline report, when there is one.
fn baseline(report: &Report) -> Option<Baseline<'_>> {
    report.baseline.as_ref().map(|b| {
        let mut new: Vec<&Finding> = b.new_findings.iter().collect();
        new.sort_by_key(|f| std::cmp::Reverse(f.severity));
        Baseline {
            new_findings: new.into_iter().map(|f| finding_view(report, f)).collect(),
            fixed: b.fixed_findings.len(),
            changes: &b.availability_changes,
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_break_after_separators_and_stay_escaped() {
        assert_eq!(
            path_breaks("a/b-c_d.json"),
            "a&#x2f;<wbr>b-<wbr>c_<wbr>d.<wbr>json"
        );
        assert_eq!(path_breaks("<x>"), "&lt;x&gt;");
    }

    #[test]
    fn code_spans_escape_everything() {
        assert_eq!(
            code_spans("missing `<b>` & \"x\""),
            "missing <code>&lt;b&gt;</code> &amp; &quot;x&quot;"
        );
        // A run of backticks nothing closes is text, as in CommonMark; a run closes only at
        // one as long.
        assert_eq!(code_spans("a `b"), "a `b");
        assert_eq!(code_spans("``a` `b`"), "``a<code> </code>b`");
        // A name with backticks, in a longer fence, is one code span.
        assert_eq!(
            code_spans(&format!(
                "on {}: missing {}",
                crate::diagnostic::quote("p<&>`"),
                crate::diagnostic::quoted(&["tick`tick", "x"])
            )),
            "on <code>p&lt;&amp;&gt;`</code>: missing <code>tick`tick</code>, <code>x</code>"
        );
    }

    #[test]
    fn markdown_is_inert() {
        let html = markdown(
            "**bold** <script>alert(1)</script> [x](https://e.test) ![i](http://e.test/i.png)",
        );
        assert!(html.contains("<strong>bold</strong>"), "{html}");
        assert!(html.contains("&lt;script&gt;"), "{html}");
        assert!(!html.contains("<script"), "{html}");
        assert!(!html.contains("<a ") && !html.contains("<img"), "{html}");
        assert!(html.contains("x (https://e.test)"), "{html}");
        let block = markdown("<div onclick=\"x()\">\n<img src=x>\n</div>\n\n[a ![b](i.png)](u)");
        assert!(
            !block.contains("<div") && !block.contains("<img"),
            "{block}"
        );
        assert!(block.contains("&lt;div onclick="), "{block}");
        assert!(block.contains("a b (i.png) (u)"), "{block}");
        let auto = markdown("see <https://e.test/a> and `c`");
        assert_eq!(auto, "<p>see https://e.test/a and <code>c</code></p>\n");
    }
}
